/* sps-fuzz.c: what every fuzz harness shares (see sps-fuzz.h)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* memfd_create() */
#define _GNU_SOURCE

#include "config.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "sps-fuzz.h"

/* As much as sps_trace_load() gives the probes. */
#define PROBE_SIZE 4096

/* Only criticals and errors are worth a line: they are bugs (and fatal),
 * and a fuzzer that prints every debug message runs at half speed. */
static GLogWriterOutput
quiet_writer (GLogLevelFlags   log_level,
              const GLogField *fields,
              gsize            n_fields,
              gpointer         user_data)
{
  if (log_level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_FLAG_FATAL))
    {
      g_log_writer_default (log_level & ~G_LOG_FLAG_FATAL, fields, n_fields, user_data);
      /* SIGABRT, which libFuzzer catches (GLib's breakpoint trap it does
       * not) */
      abort ();
    }
  return G_LOG_WRITER_HANDLED;
}

void
sps_fuzz_init (void)
{
  static gsize done = 0;

  if (!g_once_init_enter (&done))
    return;

  /* Traces are locale-independent; keep messages in English. */
  g_setenv ("LANGUAGE", "C", TRUE);
  /* A critical on hostile input is a bug like a crash. */
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);
  g_log_set_writer_func (quiet_writer, NULL, NULL);
  g_once_init_leave (&done, 1);
}

/* The per-input limit in CPU time: a timer on the process's CPU clock,
 * armed for each input, that aborts when it fires (libFuzzer catches the
 * SIGABRT and writes the input out). */
static timer_t cpu_timer;
static gboolean have_cpu_timer;

static void
on_cpu_limit (int signum)
{
  static const char message[] = "\n==sps-fuzz== the input used more than its CPU time limit\n";

  /* Only async-signal-safe calls here */
  if (write (STDERR_FILENO, message, sizeof message - 1) < 0)
    abort ();
  abort ();
}

static void
arm_cpu_timer (guint seconds)
{
  struct itimerspec spec = { { 0, 0 }, { (time_t) seconds, 0 } };

  if (!have_cpu_timer)
    {
      struct sigevent event = { 0, };
      struct sigaction action = { 0, };

      action.sa_handler = on_cpu_limit;
      sigemptyset (&action.sa_mask);
      sigaction (SIGXCPU, &action, NULL);
      event.sigev_notify = SIGEV_SIGNAL;
      event.sigev_signo = SIGXCPU;
      g_assert (timer_create (CLOCK_PROCESS_CPUTIME_ID, &event, &cpu_timer) == 0);
      have_cpu_timer = TRUE;
    }
  timer_settime (cpu_timer, 0, &spec, NULL);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  int ret;

  arm_cpu_timer (sps_fuzz_limits.timeout_s);
  ret = sps_fuzz_test_one_input (data, size);
  arm_cpu_timer (0);
  return ret;
}

/* libFuzzer calls this before it parses its flags: the harness's limits go
 * in front of the arguments, so that flags given by hand still win. */
int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  static char **args;
  int n = 0;

  sps_fuzz_init ();

  args = g_new0 (char *, *argc + 4);
  args[n++] = (*argv)[0];
  args[n++] = g_strdup_printf ("-rss_limit_mb=%u", sps_fuzz_limits.rss_limit_mb);
  args[n++] = g_strdup_printf ("-timeout=%u", sps_fuzz_limits.timeout_s * SPS_FUZZ_WALL_FACTOR);
  for (int i = 1; i < *argc; i++)
    args[n++] = (*argv)[i];
  args[n] = NULL;

  *argc = n;
  *argv = args;
  return 0;
}

/* Readers that resolve a path's symbolic links (SQLite does) cannot open
 * /proc/self/fd/N of a memfd, whose link names no file: such harnesses
 * ask for a real file, in a private folder on tmpfs when there is one. */
static char *real_file_path;  /* set: write inputs there */

void
sps_fuzz_use_real_files (void)
{
  const char *dir = g_file_test ("/dev/shm", G_FILE_TEST_IS_DIR) ? "/dev/shm" : g_get_tmp_dir ();

  /* One name per process, removed after each input (a crash leaves it,
   * next to the input libFuzzer writes out) */
  if (real_file_path == NULL)
    real_file_path = g_strdup_printf ("%s/sps-fuzz-%d.input", dir, (int) getpid ());
}

static void
write_all (int           fd,
           const guint8 *data,
           gsize         len)
{
  gsize done = 0;

  while (done < len)
    {
      ssize_t n = write (fd, data + done, len - done);

      g_assert (n > 0);
      done += (gsize) n;
    }
}

/* A file with @data in it, named by a path (importers take a GFile with a
 * path and read it as they read any file): in memory, or a real file
 * after sps_fuzz_use_real_files() */
GFile *
sps_fuzz_file_new (const guint8 *data,
                   gsize         len,
                   int          *fd_out)
{
  g_autofree char *path = NULL;
  int fd;

  if (real_file_path != NULL)
    {
      path = g_strdup (real_file_path);
      fd = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    }
  else
    {
      fd = memfd_create ("sps-fuzz-input", MFD_CLOEXEC);
      path = g_strdup_printf ("/proc/self/fd/%d", fd);
    }
  g_assert (fd >= 0);
  write_all (fd, data, len);

  *fd_out = fd;
  return g_file_new_for_path (path);
}

void
sps_fuzz_file_free (GFile *file,
                    int    fd)
{
  if (real_file_path != NULL)
    unlink (real_file_path);
  g_object_unref (file);
  close (fd);
}

/* A warning that says where (a byte offset) says in which file too: a user
 * with several traces open must know which one. (The builder's own
 * warnings, about the model, are named by the trace they belong to.) */
static gboolean
says_byte_offset (const char *message)
{
  for (const char *p = strstr (message, "byte "); p != NULL; p = strstr (p + 1, "byte "))
    if (g_ascii_isdigit (p[5]))
      return TRUE;
  return FALSE;
}

/* Deferred args (ETL events') are decoded from the file's bytes when read:
 * what the import could read, reading must decode, as one JSON value */
static void
check_deferred_args (SpsTrace *trace)
{
  const SpsInstantTable *instants = sps_trace_get_instants (trace);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();

  guint n_parsed = 0;

  for (guint i = 0; i < instants->n_rows; i++)
    {
      g_autoptr(GError) error = NULL;

      if (!sps_args_ref_is_deferred (instants->args[i]))
        continue;
      g_string_truncate (text, 0);
      if (!sps_trace_append_args_json (trace, instants->args[i], text, &error))
        g_error ("the args of event %u cannot be decoded: %s", i, error->message);
      /* json-glib builds a tree per parse: every event's would take half
       * of the harness's time; the first ones and every 64th are enough
       * to see the decoders' text */
      if (n_parsed++ >= 64 && i % 64 != 0)
        continue;
      if (!json_parser_load_from_data (parser, text->str, (gssize) text->len, &error))
        g_error ("the args of event %u are not JSON (%s): %s", i, error->message, text->str);
    }
}

static void
check_warnings (SpsTrace *trace,
                GFile    *file)
{
  g_autofree char *name = g_file_get_parse_name (file);
  guint n = sps_trace_get_n_warnings (trace);

  for (guint i = 0; i < n; i++)
    {
      const char *first = NULL;
      guint64 count = 0;
      const char *kind = sps_trace_get_warning (trace, i, &count, &first);

      g_assert_nonnull (kind);
      g_assert_cmpuint (count, >, 0);
      if (first != NULL && says_byte_offset (first) && strstr (first, name) == NULL)
        g_error ("warning %s does not name the file: %s", kind, first);
    }
}

/* The way sps_trace_load() imports (with SPS_LOAD_FLAGS_KEEP_PARTIAL): the
 * probe decides, then load, then the builder is finished whatever load
 * said. Returns the trace, or NULL when the probe declines or finish
 * fails. */
SpsTrace *
sps_fuzz_import (SpsImporter  *importer,
                 const guint8 *data,
                 gsize         len,
                 GVariant     *options)
{
  g_autoptr(SpsTraceBuilder) builder = NULL;
  g_autoptr(SpsProgress) progress = NULL;
  g_autoptr(GBytes) head = NULL;
  g_autoptr(GError) error = NULL;
  SpsTrace *trace = NULL;
  GFile *file;
  int fd;

  head = g_bytes_new (data, MIN (len, PROBE_SIZE));
  file = sps_fuzz_file_new (data, len, &fd);

  if (sps_importer_probe (importer, file, head) > 0)
    {
      builder = sps_trace_builder_new ();
      progress = sps_progress_new (NULL);
      sps_trace_builder_set_format (builder, sps_importer_get_name (importer));
      if (!sps_importer_load (importer, file, options, builder, progress, &error))
        {
          g_autofree char *name = g_file_get_parse_name (file);

          /* Every error says which file it is about. */
          g_assert_nonnull (error);
          if (strstr (error->message, name) == NULL)
            g_error ("the error does not name the file: %s", error->message);
          g_clear_error (&error);
        }
      trace = sps_trace_builder_finish (builder, progress, &error);
    }

  if (trace != NULL)
    {
      check_warnings (trace, file);
      check_deferred_args (trace);
    }

  sps_fuzz_file_free (file, fd);
  return trace;
}

/* The whole of a file harness: an importer of @type over the input, with
 * @options (nullable, transfer full). */
int
sps_fuzz_run_importer (GType         type,
                       const guint8 *data,
                       gsize         len,
                       GVariant     *options)
{
  g_autoptr(GVariant) owned G_GNUC_UNUSED = options;
  g_autoptr(SpsImporter) importer = NULL;
  g_autoptr(SpsTrace) trace = NULL;

  sps_fuzz_init ();
  importer = g_object_new (type, NULL);
  trace = sps_fuzz_import (importer, data, len, options);
  return 0;
}

/* Options of the Chrome JSON importer for harnesses: a gzip file inflates
 * to 64 MiB at most, so that a decompression bomb reaches the limit well
 * within the harness's memory limit. */
GVariant *
sps_fuzz_chrome_options (void)
{
  GVariantDict dict;

  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert (&dict, "max-decompressed-size", "t", (guint64) 64 << 20);
  return g_variant_ref_sink (g_variant_dict_end (&dict));
}

guint8
sps_fuzz_take_u8 (SpsFuzzInput *in)
{
  guint8 v = 0;

  if (in->len > 0)
    {
      v = in->data[0];
      in->data++;
      in->len--;
    }
  return v;
}

guint32
sps_fuzz_take_u32 (SpsFuzzInput *in)
{
  guint32 v = 0;

  for (guint i = 0; i < 4; i++)
    v = (v << 8) | sps_fuzz_take_u8 (in);
  return v;
}
