/* test-file-read.c: trace files are read, or mapped under a read lease:
 * special files are refused without blocking (a FIFO is read whole, then
 * loaded), and a file that changes while (or after) it is read leaves a
 * valid trace that keeps what it imported
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-file-read"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <spanscope-core.h>

#include "sps-file-map-private.h"
#include "sps-test-util.h"

#define TRACE_TEXT \
  "[{\"name\":\"work\",\"ph\":\"X\",\"ts\":10,\"dur\":5,\"pid\":1,\"tid\":2," \
  "\"args\":{\"path\":\"/tmp/in.txt\",\"n\":42}}]"

/* Outside a load, the reader refuses a FIFO without blocking: it cannot
 * tell how much to read, and only a load keeps what the FIFO sent. */
static void
test_fifo_read_refused (void)
{
  g_autofree char *dir = g_dir_make_tmp ("spanscope-fifo-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "trace.json", NULL);
  g_autofree char *expected = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;

  g_assert_cmpint (mkfifo (path, 0600), ==, 0);
  file = g_file_new_for_path (path);
  expected = g_strdup_printf ("%s: not a regular file (a FIFO); traces are read from files", path);

  bytes = sps_file_read (file, NULL, NULL, &error);
  g_assert_null (bytes);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE);
  g_assert_cmpstr (error->message, ==, expected);

  sps_test_remove_tree (dir);
}

typedef struct
{
  char       *path;
  GString    *text;
  gsize       piece;      /* bytes per write */
} Writer;

/* Opens the FIFO once the reader has (for at most 10 s, so that a
 * reader that never comes fails the test instead of hanging it), writes
 * the text in pieces a millisecond apart, and closes it. */
static gpointer
writer_thread (gpointer data)
{
  Writer *writer = data;
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  int fd;

  /* Without a reader, a non-blocking open fails with ENXIO */
  while ((fd = g_open (writer->path, O_WRONLY | O_CLOEXEC | O_NONBLOCK, 0)) < 0 &&
         errno == ENXIO && g_get_monotonic_time () < deadline)
    g_usleep (1000);
  if (fd < 0)
    return NULL;
  fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK);
  for (gsize done = 0; done < writer->text->len;)
    {
      gssize n = write (fd, writer->text->str + done, MIN (writer->piece, writer->text->len - done));

      g_assert_cmpint (n, >, 0);
      done += (gsize) n;
      g_usleep (1000);
    }
  close (fd);

  return NULL;
}

/* A FIFO of Chrome JSON, as `producer > fifo` or `producer | spanscope-cli
 * info /dev/stdin` give it: read to its end, then imported like a file;
 * the load ends when the writer closes. 2,000 complete events, sent in
 * pieces of 997 bytes. */
static void
test_fifo_streamed (void)
{
  g_autofree char *dir = g_dir_make_tmp ("spanscope-fifo-XXXXXX", NULL);
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GThread) thread = NULL;
  Writer writer = { g_build_filename (dir, "trace.json", NULL), g_string_new ("["), 997 };
  const SpsSliceTable *slices;

  for (guint i = 0; i < 2000; i++)
    g_string_append_printf (writer.text, "%s{\"name\":\"work\",\"ph\":\"X\",\"ts\":%u,\"dur\":5,"
                            "\"pid\":1,\"tid\":2}", i > 0 ? "," : "", i * 10);
  g_string_append (writer.text, "]");
  g_assert_cmpint (mkfifo (writer.path, 0600), ==, 0);
  file = g_file_new_for_path (writer.path);

  thread = g_thread_new ("writer", writer_thread, &writer);
  trace = sps_trace_load (file, NULL, NULL, SPS_LOAD_FLAGS_NONE, NULL, NULL, &error);
  g_thread_join (g_steal_pointer (&thread));

  g_assert_no_error (error);
  g_assert_cmpstr (sps_trace_get_format (trace), ==, "chrome-json");
  g_assert_cmpuint (sps_trace_get_events_read (trace), ==, 2000);
  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 0);
  slices = sps_trace_get_slices (trace);
  g_assert_cmpuint (slices->n_rows, ==, 2000);
  g_assert_cmpint (sps_trace_get_end_time (trace) - sps_trace_get_start_time (trace), ==, 19995 * 1000);

  /* A writer that sends nothing: an empty stream, named */
  g_string_truncate (writer.text, 0);
  thread = g_thread_new ("writer", writer_thread, &writer);
  g_clear_object (&trace);
  trace = sps_trace_load (file, NULL, NULL, SPS_LOAD_FLAGS_NONE, NULL, NULL, &error);
  g_thread_join (g_steal_pointer (&thread));
  g_assert_null (trace);
  g_assert_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_UNKNOWN_FORMAT);
  g_assert_true (g_str_has_prefix (error->message, writer.path));

  g_string_free (writer.text, TRUE);
  g_free (writer.path);
  sps_test_remove_tree (dir);
}

/* `producer | spanscope-cli info --json /dev/stdin`: the pipe is a FIFO */
static void
test_fifo_stdin (void)
{
  const char *cli = g_getenv ("SPANSCOPE_CLI");
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GBytes) input = NULL;
  g_autoptr(GBytes) output = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GString) text = g_string_new ("[");
  JsonObject *info;

  if (cli == NULL)
    {
      g_test_skip ("SPANSCOPE_CLI is not set");
      return;
    }

  for (guint i = 0; i < 300; i++)
    g_string_append_printf (text, "%s{\"name\":\"io\",\"ph\":\"X\",\"ts\":%u,\"dur\":2,"
                            "\"pid\":3,\"tid\":4}", i > 0 ? "," : "", i * 4);
  g_string_append (text, "]");
  input = g_bytes_new (text->str, text->len);

  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error,
                              cli, "info", "--json", "/dev/stdin", NULL);
  g_assert_no_error (error);
  g_subprocess_communicate (process, input, NULL, &output, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (process));
  g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 0);

  json_parser_load_from_data (parser, g_bytes_get_data (output, NULL), (gssize) g_bytes_get_size (output), &error);
  g_assert_no_error (error);
  info = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (info, "format"), ==, "chrome-json");
  g_assert_cmpint (json_object_get_int_member (info, "events_read"), ==, 300);
  g_assert_cmpint (json_object_get_int_member (info, "slices"), ==, 300);
  g_assert_cmpint (json_object_get_int_member (info, "end_ns") - json_object_get_int_member (info, "start_ns"),
                   ==, (299 * 4 + 2) * 1000);
}

static gpointer
cancel_later (gpointer data)
{
  g_usleep (300 * 1000);
  sps_progress_cancel (data);
  return NULL;
}

/* A FIFO no one writes to: the load waits for a writer, as reading a
 * FIFO does, and stops soon after it is cancelled. */
static void
test_fifo_cancelled (void)
{
  g_autofree char *dir = g_dir_make_tmp ("spanscope-fifo-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "trace.json", NULL);
  g_autoptr(SpsProgress) progress = sps_progress_new (NULL);
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GThread) thread = NULL;
  gint64 started;

  g_assert_cmpint (mkfifo (path, 0600), ==, 0);
  file = g_file_new_for_path (path);

  started = g_get_monotonic_time ();
  thread = g_thread_new ("cancel", cancel_later, progress);
  trace = sps_trace_load (file, NULL, NULL, SPS_LOAD_FLAGS_NONE, progress, NULL, &error);
  g_thread_join (g_steal_pointer (&thread));

  g_assert_null (trace);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  /* 300 ms, and at most one wait of 100 ms more (plus a loaded machine) */
  g_assert_cmpint (g_get_monotonic_time () - started, <, 5 * G_USEC_PER_SEC);

  sps_test_remove_tree (dir);
}

static void
test_char_device (void)
{
  g_autoptr(GFile) file = g_file_new_for_path ("/dev/zero");
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) trace = NULL;

  trace = sps_trace_load (file, NULL, NULL, SPS_LOAD_FLAGS_NONE, NULL, NULL, &error);
  g_assert_null (trace);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE);
  g_assert_cmpstr (error->message, ==,
                   "/dev/zero: not a regular file (a character device); traces are read from files");
}

/* Whether @path is mapped into this process (/proc/self/maps names it) */
static gboolean
is_mapped (const char *path)
{
  g_autofree char *maps = NULL;

  g_assert_true (g_file_get_contents ("/proc/self/maps", &maps, NULL, NULL));
  return strstr (maps, path) != NULL;
}

static void
assert_args_kept (SpsTrace *trace)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  const char *args;
  gsize len = 0;

  g_assert_cmpuint (slices->n_rows, ==, 1);
  g_assert_cmpstr (sps_trace_get_string (trace, slices->name[0]), ==, "work");
  args = sps_trace_get_args_json (trace, slices->args[0], &len);
  g_assert_cmpmem (args, len, "{\"path\":\"/tmp/in.txt\",\"n\":42}", strlen ("{\"path\":\"/tmp/in.txt\",\"n\":42}"));
  g_assert_cmpuint (sps_trace_count_warning (trace, SPS_FILE_CHANGED_WARNING), ==, 0);
}

/* The last line of defence: a mapped file cut without the copy (the
 * kernel broke the lease on its own, or there was no memory for the copy)
 * reads as zeros past the cut instead of raising SIGBUS; what the import
 * copied (names) stays. */
static void
test_unguarded (SpsTrace   *trace,
                const char *path)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  guint faults = _sps_file_map_get_fault_count ();
  const char *args;
  gsize len = 0;

  _sps_file_map_set_copy_on_change (FALSE);
  g_assert_cmpint (truncate (path, 0), ==, 0);
  _sps_file_map_set_copy_on_change (TRUE);

  args = sps_trace_get_args_json (trace, slices->args[0], &len);
  g_assert_cmpuint (len, ==, strlen ("{\"path\":\"/tmp/in.txt\",\"n\":42}"));
  for (gsize i = 0; i < len; i++)
    g_assert_cmpint (args[i], ==, '\0');
  g_assert_cmpuint (_sps_file_map_get_fault_count (), ==, faults + 1);
  g_assert_cmpstr (sps_trace_get_string (trace, slices->name[0]), ==, "work");
  _sps_file_map_set_min_size (0);
}

typedef enum
{
  CHANGE_READ,          /* small: read into memory, then cut and rewritten */
  CHANGE_MAPPED,        /* mapped, then cut and rewritten by path */
  CHANGE_WRITER_AFTER,  /* mapped, then written through a descriptor */
  CHANGE_WRITER_BEFORE, /* open for writing before the import */
  CHANGE_UNGUARDED,     /* mapped, cut without a copy (a lease lost) */
} Change;

/* The trace points into the text it was read from (args are kept as
 * text): changing the file after the import changes nothing in the trace.
 * A small file is read into memory. With the smallest mapped size lowered
 * to one byte, the same file is mapped under a read lease: truncate() or a
 * writer's open() waits until the mapping became a copy (a bare mapping
 * would raise SIGBUS on the first page past the new end, or show the new
 * bytes). A file already open for writing (a trace still being written)
 * gets no lease: it is read into memory, and later changes need no copy. */
static void
test_changed_after_import (gconstpointer data)
{
  Change change = GPOINTER_TO_INT (data);
  gboolean mapped = change == CHANGE_MAPPED || change == CHANGE_WRITER_AFTER || change == CHANGE_UNGUARDED;
  g_autofree char *dir = g_dir_make_tmp ("spanscope-change-XXXXXX", NULL);
  g_autofree char *path = sps_test_write_file (dir, "trace.json", TRACE_TEXT);
  g_autoptr(SpsTrace) trace = NULL;
  guint copies;
  int fd = -1;

  _sps_file_map_set_min_size (change == CHANGE_READ ? 0 : 1);
  if (change == CHANGE_WRITER_BEFORE)
    fd = g_open (path, O_WRONLY, 0);
  copies = _sps_file_map_get_snapshot_count ();
  trace = sps_test_load_path (path);
  g_assert_cmpint (is_mapped (path), ==, mapped);

  if (change == CHANGE_UNGUARDED)
    {
      test_unguarded (trace, path);
      sps_test_remove_tree (dir);
      return;
    }
  if (change == CHANGE_READ || change == CHANGE_MAPPED)
    {
      g_assert_cmpint (truncate (path, 0), ==, 0);
      g_assert_true (g_file_set_contents (path, "xx", 2, NULL));
      g_assert_cmpint (truncate (path, 0), ==, 0);
    }
  else
    {
      if (change == CHANGE_WRITER_AFTER)
        fd = g_open (path, O_WRONLY, 0);
      g_assert_cmpint (fd, >=, 0);
      /* Over the name and the args, then cut */
      g_assert_cmpint (pwrite (fd, "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", 40, 5), ==, 40);
      g_assert_cmpint (pwrite (fd, "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", 40, 80), ==, 40);
      g_assert_cmpint (ftruncate (fd, 60), ==, 0);
      close (fd);
    }
  g_assert_cmpuint (_sps_file_map_get_snapshot_count (), ==, copies + (mapped ? 1 : 0));
  g_assert_false (is_mapped (path));

  assert_args_kept (trace);
  _sps_file_map_set_min_size (0);
  sps_test_remove_tree (dir);
}

/* A file that is longer than its size said when it was opened (here a
 * /proc file, which always says 0 bytes): what the size promised is kept
 * (nothing) and the change is one warning that names the file. */
static void
test_grew_while_reading (void)
{
  g_autoptr(GFile) file = g_file_new_for_path ("/proc/self/cmdline");
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  const char *first = NULL;
  guint64 count = 0;

  bytes = sps_file_read (file, builder, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (bytes), ==, 0);

  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 1);
  g_assert_cmpstr (sps_trace_get_warning (trace, 0, &count, &first), ==, SPS_FILE_CHANGED_WARNING);
  g_assert_cmpuint (count, ==, 1);
  g_assert_cmpstr (first, ==, "/proc/self/cmdline: the file changed while it was read; the 0 bytes read are kept");
}

/* A regular file is read whole, NUL-terminated past its length */
static void
test_regular (void)
{
  g_autofree char *dir = g_dir_make_tmp ("spanscope-read-XXXXXX", NULL);
  g_autofree char *path = sps_test_write_file (dir, "trace.json", TRACE_TEXT);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  gsize len = 0;
  const char *data;

  bytes = sps_file_read (file, builder, NULL, &error);
  g_assert_no_error (error);
  data = g_bytes_get_data (bytes, &len);
  g_assert_cmpmem (data, len, TRACE_TEXT, strlen (TRACE_TEXT));
  g_assert_cmpint (data[len], ==, '\0');
  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 0);

  sps_test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/file-read/fifo/read-refused", test_fifo_read_refused);
  g_test_add_func ("/file-read/fifo/streamed", test_fifo_streamed);
  g_test_add_func ("/file-read/fifo/stdin", test_fifo_stdin);
  g_test_add_func ("/file-read/fifo/cancelled", test_fifo_cancelled);
  g_test_add_func ("/file-read/char-device", test_char_device);
  g_test_add_data_func ("/file-read/changed-after-import/read", GINT_TO_POINTER (CHANGE_READ),
                        test_changed_after_import);
  g_test_add_data_func ("/file-read/changed-after-import/mapped", GINT_TO_POINTER (CHANGE_MAPPED),
                        test_changed_after_import);
  g_test_add_data_func ("/file-read/changed-after-import/writer", GINT_TO_POINTER (CHANGE_WRITER_AFTER),
                        test_changed_after_import);
  g_test_add_data_func ("/file-read/changed-after-import/written-already", GINT_TO_POINTER (CHANGE_WRITER_BEFORE),
                        test_changed_after_import);
  g_test_add_data_func ("/file-read/changed-after-import/unguarded", GINT_TO_POINTER (CHANGE_UNGUARDED),
                        test_changed_after_import);
  g_test_add_func ("/file-read/grew-while-reading", test_grew_while_reading);
  g_test_add_func ("/file-read/regular", test_regular);

  return g_test_run ();
}
