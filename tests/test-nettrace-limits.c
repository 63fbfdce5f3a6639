/* test-nettrace-limits.c: a .nettrace whose numbers are hostile: sample
 * times that do not fit the model's time range, stacks that are empty
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-nettrace-limits"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <spanscope-core.h>

#include "nettrace-gen/nettrace-writer.h"

#include "sps-test-util.h"

#define FREQUENCY G_GINT64_CONSTANT (1000000000)
#define SYNC_QPC  G_GINT64_CONSTANT (5000000000)
#define METHOD    G_GUINT64_CONSTANT (0x7ff812340000)

static SpsTrace *
load (GBytes  *bytes,
      char   **path_out)
{
  g_autofree char *path = sps_test_write_temp ("spanscope-nettrace-XXXXXX", "limits.nettrace",
                                               g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  SpsTrace *trace;

  trace = sps_trace_load (file, sps_plugin_engine_get_default (), NULL, SPS_LOAD_FLAGS_NONE,
                          NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
  *path_out = g_steal_pointer (&path);
  return trace;
}

/* Ticks 1 s after the sync point, then G_MAXINT64 ticks (292 years at
 * 1 GHz: ticks × 10⁹ overflows 64 bits, and the time is beyond the ±2^62
 * ns of the model) and one tick before the sync point minus 2^63: both
 * dropped, each a warning that names the file; the samples around them
 * are kept with their exact times. An empty stack is a sample without a
 * stack. */
static void
test_sample_times (void)
{
  NtWriter *w = nt_writer_new (8, FREQUENCY, SYNC_QPC);
  static const guint64 ips[] = { METHOD + 0x10 };
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autofree char *path = NULL;
  g_autofree char *expected = NULL;
  const SpsSampleTable *samples;
  const char *first = NULL;
  guint64 count = 0;

  nt_writer_add_method (w, METHOD, 0x100, 0x5000, "App", "Run", "void  ()", FALSE);
  nt_writer_add_module (w, 0x5000, "/app/App.dll");
  nt_writer_sample (w, 1, SYNC_QPC + FREQUENCY, ips, 1, 2);
  nt_writer_sample (w, 1, G_MAXINT64, ips, 1, 2);
  nt_writer_sample (w, 1, G_MININT64, ips, 1, 2);
  nt_writer_sample (w, 1, SYNC_QPC + 2 * FREQUENCY, NULL, 0, 2);
  bytes = nt_writer_finish (w, SYNC_QPC + 3 * FREQUENCY, TRUE);
  nt_writer_free (w);

  trace = load (bytes, &path);
  samples = sps_trace_get_samples (trace);
  g_assert_cmpuint (samples->n_rows, ==, 2);
  g_assert_cmpint (samples->ts[0], ==, 1000000000);
  g_assert_cmpint (samples->ts[1], ==, 2000000000);
  g_assert_cmpuint (samples->callsite[1], ==, SPS_NO_INDEX);

  g_assert_cmpuint (sps_trace_count_warning (trace, "nettrace-time-out-of-range"), ==, 2);
  for (guint i = 0; i < sps_trace_get_n_warnings (trace); i++)
    if (g_strcmp0 (sps_trace_get_warning (trace, i, &count, &first), "nettrace-time-out-of-range") == 0)
      break;
  expected = g_strdup_printf ("%s (byte ", path);
  g_assert_true (g_str_has_prefix (first, expected));
  g_assert_true (g_str_has_suffix (first, "): a sample time more than 146 years from the trace start; "
                                          "the sample is dropped"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/nettrace/limits/sample-times", test_sample_times);

  return g_test_run ();
}
