/* test-etrace-simulate.c: the simulate example end to end
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Runs examples/simulate.c (path in ETRACE_SIMULATE) and reads its
 * trace.bin the way a host does (formats/embedded-trace.md §2.5): spans
 * paired by name in time order, deadlines from the dictionary.
 */

#define G_LOG_DOMAIN "etrace-test"

#include "config.h"

#include <string.h>
#include <sys/wait.h>

#include <glib/gstdio.h>

#include "etrace-test-util.h"

typedef struct
{
  const char *name;
  gint64 start;
  gint64 end;
  gboolean has_deadline;
  float deadline_ms;
} Span;

static GBytes *
run_simulate (const char *variable)
{
  const char *exe = g_getenv (variable);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  const char *argv[3];
  gsize len;
  int status;

  if (exe == NULL)
    return NULL;

  dir = g_dir_make_tmp ("etrace-simulate-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "trace.bin", NULL);
  argv[0] = exe;
  argv[1] = path;
  argv[2] = NULL;
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, &error);
  g_assert_no_error (error);
  g_spawn_check_wait_status (status, &error);
  g_assert_no_error (error);
  g_file_get_contents (path, &contents, &len, &error);
  g_assert_no_error (error);
  g_unlink (path);
  g_rmdir (dir);
  return g_bytes_new_take (g_steal_pointer (&contents), len);
}

static void
test_simulate (void)
{
  g_autoptr(GBytes) bytes = run_simulate ("ETRACE_SIMULATE");
  g_autoptr(GBytes) again = NULL;
  g_autoptr(GArray) frames = NULL;
  g_autoptr(GArray) spans = g_array_new (FALSE, TRUE, sizeof (Span));
  g_autoptr(GHashTable) open = g_hash_table_new (g_str_hash, g_str_equal);
  guint markers = 0, misses = 0, gyro = 0, control = 0;
  guint i;

  if (bytes == NULL)
    {
      g_test_skip ("ETRACE_SIMULATE is not set");
      return;
    }

  /* Deterministic: the same bytes on every run. */
  again = run_simulate ("ETRACE_SIMULATE");
  g_assert_true (g_bytes_equal (bytes, again));

  frames = et_decode_stream (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  /* header; iteration 1: 4 entries + 6 events; iteration 2: 6 events */
  g_assert_cmpuint (frames->len, ==, 17);
  g_assert_cmpuint (et_frame (frames, 0)->type, ==, TRACING__TRACE_EVENT_TYPE__TRACE_START);
  g_assert_cmpuint (et_frame (frames, 0)->source_mask, ==, 0x1f);

  /* The simulated clock never goes back, so stream order is time order
   * here and pairing in stream order is pairing in time order. */
  for (i = 0; i < frames->len; i++)
    {
      const EtFrame *f = et_frame (frames, i);
      const char *name;
      Span *span;

      if (f->type == TRACING__TRACE_EVENT_TYPE__MARKER)
        {
          name = et_resolve_name (frames, i);
          if (g_str_equal (name, "ukf_predict"))
            {
              g_assert_true (f->has_value);
              g_assert_cmpuint (f->value, ==, markers / 2);
            }
          else
            {
              g_assert_cmpstr (name, ==, "ukf_update");
              g_assert_false (f->has_value);
            }
          markers++;
        }
      else if (f->type == TRACING__TRACE_EVENT_TYPE__SPAN_START)
        {
          guint j;

          name = et_resolve_name (frames, i);
          g_array_set_size (spans, spans->len + 1);
          span = &g_array_index (spans, Span, spans->len - 1);
          span->name = name;
          span->start = f->clock;
          for (j = i; j-- > 0;)
            {
              const EtFrame *entry = et_frame (frames, j);

              if (entry->type == TRACING__TRACE_EVENT_TYPE__NAME_REGISTERED
                  && entry->name_id == f->name_id)
                {
                  span->has_deadline = entry->has_deadline;
                  span->deadline_ms = entry->deadline_ms;
                  g_assert_cmpuint (entry->source, ==,
                                    g_str_equal (name, "gyro_isr") ? TRACING__TRACE_EVENT_SOURCE_TYPE__ISR
                                                                   : TRACING__TRACE_EVENT_SOURCE_TYPE__TASK);
                  g_assert_cmpuint (entry->priority, ==, g_str_equal (name, "gyro_isr") ? 8 : 4);
                  break;
                }
            }
          g_assert_false (g_hash_table_contains (open, name));
          g_hash_table_insert (open, (gpointer) name, GUINT_TO_POINTER (spans->len));
        }
      else if (f->type == TRACING__TRACE_EVENT_TYPE__SPAN_END)
        {
          guint index;

          name = et_resolve_name (frames, i);
          index = GPOINTER_TO_UINT (g_hash_table_lookup (open, name));
          g_assert_cmpuint (index, >, 0);
          g_array_index (spans, Span, index - 1).end = f->clock;
          g_hash_table_remove (open, name);
        }
    }
  g_assert_cmpuint (g_hash_table_size (open), ==, 0);
  g_assert_cmpuint (markers, ==, 4);

  for (i = 0; i < spans->len; i++)
    {
      const Span *span = &g_array_index (spans, Span, i);

      g_assert_true (span->has_deadline);
      if (g_str_equal (span->name, "gyro_isr"))
        gyro++;
      else if (g_str_equal (span->name, "control_task"))
        control++;
      if (span->end > span->start + (gint64) (span->deadline_ms * 1e6))
        {
          /* the second control_task: 11.05 ms to 17.5 ms against 5 ms */
          g_assert_cmpstr (span->name, ==, "control_task");
          g_assert_cmpint (span->start, ==, 11050000);
          g_assert_cmpint (span->end, ==, 17500000);
          misses++;
        }
    }
  g_assert_cmpuint (gyro, ==, 2);
  g_assert_cmpuint (control, ==, 2);
  g_assert_cmpuint (misses, ==, 1);
}

/* Built with ETRACE_ENABLED=0 the example runs and records nothing. */
static void
test_simulate_disabled (void)
{
  g_autoptr(GBytes) bytes = run_simulate ("ETRACE_SIMULATE_DISABLED");

  if (bytes == NULL)
    {
      g_test_skip ("ETRACE_SIMULATE_DISABLED is not set");
      return;
    }
  g_assert_cmpuint (g_bytes_get_size (bytes), ==, 0);
}

/* Runs the example with @args in an empty directory: its exit status
 * and output, and the files it left there (sorted, comma-separated) */
static int
run_in_dir (const char  *const *args,
            char              **out,
            char              **err,
            char              **files)
{
  const char *exe = g_getenv ("ETRACE_SIMULATE");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *dir = g_dir_make_tmp ("etrace-simulate-XXXXXX", &error);
  GDir *listing;
  const char *name;
  int status;

  g_assert_no_error (error);
  g_ptr_array_add (argv, (gpointer) exe);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_spawn_sync (dir, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, out, err, &status, &error);
  g_assert_no_error (error);

  listing = g_dir_open (dir, 0, &error);
  g_assert_no_error (error);
  while ((name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_ptr_array_add (names, g_strdup (name));
      g_unlink (path);
    }
  g_dir_close (listing);
  g_rmdir (dir);
  g_ptr_array_sort (names, (GCompareFunc) (void (*) (void)) g_strcmp0);
  g_ptr_array_add (names, NULL);
  *files = g_strjoinv (",", (char **) names->pdata);

  g_assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}

/* Options are never taken for the output's name (--help once wrote a
 * file named "--help"): each case's exit status, the start of its
 * output and errors, and the files it left */
static void
test_simulate_usage (void)
{
  static const struct
  {
    const char *args[3];
    int         status;
    const char *out;
    const char *err;
    const char *files;
  } cases[] = {
    { { "--help" }, 0, "Usage: etrace-simulate [OUTPUT]\n", "", "" },
    { { "-h" }, 0, "Usage: etrace-simulate [OUTPUT]\n", "", "" },
    { { "--out" }, 2, "", "etrace-simulate: --out: unknown option\nUsage: etrace-simulate [OUTPUT]\n", "" },
    { { "a.bin", "b.bin" }, 2, "", "etrace-simulate: b.bin: one output at most\nUsage: etrace-simulate [OUTPUT]\n", "" },
    { { "./-x.bin" }, 0, "", "", "-x.bin" },
    { { NULL }, 0, "", "", "trace.bin" },
  };

  if (g_getenv ("ETRACE_SIMULATE") == NULL)
    {
      g_test_skip ("ETRACE_SIMULATE is not set");
      return;
    }

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      g_autofree char *files = NULL;

      g_test_message ("case %u", i);
      g_assert_cmpint (run_in_dir (cases[i].args, &out, &err, &files), ==, cases[i].status);
      g_assert_true (g_str_has_prefix (out, cases[i].out));
      g_assert_true (g_str_has_prefix (err, cases[i].err));
      /* Nothing more than the prefix where it is empty */
      if (cases[i].out[0] == '\0')
        g_assert_cmpstr (out, ==, "");
      if (cases[i].err[0] == '\0')
        g_assert_cmpstr (err, ==, "");
      g_assert_cmpstr (files, ==, cases[i].files);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/firmware/simulate/end-to-end", test_simulate);
  g_test_add_func ("/firmware/simulate/disabled", test_simulate_disabled);
  g_test_add_func ("/firmware/simulate/usage", test_simulate_usage);

  return g_test_run ();
}
