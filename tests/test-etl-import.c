/* test-etl-import.c: ETL traces into a trace: samples on their threads with named stacks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * PerfView's CPU trace of a 32-bit .NET Framework program on 64-bit
 * Windows (../shared/fixtures/diagsession, XPRESS-compressed buffers):
 * every count its README lists, and what the samples become.
 */

#include "config.h"

#include <string.h>

#include "sps-etl-import.h"
#include "sps-test-util.h"
#include "sps-test-zip.h"
#include "sps-xca.h"

static guint
samples_of_process (SpsTrace *trace,
                    gint64    pid)
{
  const SpsSampleTable *samples = sps_trace_get_samples (trace);
  const SpsThreadTable *threads = sps_trace_get_threads (trace);
  const SpsProcessTable *processes = sps_trace_get_processes (trace);
  guint n = 0;

  for (guint i = 0; i < samples->n_rows; i++)
    if (processes->pid[threads->process[samples->thread[i]]] == pid)
      n++;
  return n;
}

static guint
samples_named (SpsTrace   *trace,
               const char *leaf)
{
  const SpsSampleTable *samples = sps_trace_get_samples (trace);
  guint n = 0;

  for (guint i = 0; i < samples->n_rows; i++)
    if (g_strcmp0 (sps_trace_get_string (trace, samples->name[i]), leaf) == 0)
      n++;
  return n;
}

static const char *
process_name (SpsTrace *trace,
              gint64    pid)
{
  const SpsProcessTable *processes = sps_trace_get_processes (trace);

  for (guint i = 0; i < processes->n_rows; i++)
    if (processes->pid[i] == pid)
      return sps_trace_get_string (trace, processes->name[i]);
  return NULL;
}

static void
test_perfview_cpu (void)
{
  g_autoptr(GBytes) etl = sps_test_shared_zip_member ("diagsession", "perfview__net.4.5.2.x86.etl.zip",
                                                      "net.4.5.2.x86.etl");
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(SpsEtlImport) import = sps_etl_import_new (builder, sps_xca_decompress_buffer);
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  const SpsEtlImportStats *stats;
  SpsEtlKernel *kernel;

  g_test_summary ("PerfView's compressed CPU trace: the record, sample and stack counts of "
                  "its README, and samples with managed and native frames per process");
  if (etl == NULL)
    return;

  g_assert_true (sps_etl_import_read (import, g_bytes_get_data (etl, NULL), g_bytes_get_size (etl),
                                      "net.4.5.2.x86.etl", &error));
  g_assert_no_error (error);
  sps_etl_import_finish (import);
  stats = sps_etl_import_get_stats (import);
  kernel = sps_etl_import_get_kernel (import);

  /* The README's counts, from an independent reader */
  g_assert_cmpuint (stats->reader.n_buffers, ==, 276);
  g_assert_cmpuint (stats->reader.n_compressed_buffers, ==, 275);
  g_assert_cmpuint (stats->reader.n_skipped_buffers, ==, 0);
  g_assert_cmpuint (stats->reader.n_records[SPS_ETL_RECORD_SYSTEM], ==, 4472 + 2);
  g_assert_cmpuint (stats->reader.n_records[SPS_ETL_RECORD_PERFINFO], ==, 115091);
  g_assert_cmpuint (stats->reader.n_records[SPS_ETL_RECORD_FULL], ==, 8162 + 73);
  g_assert_cmpuint (stats->reader.n_records[SPS_ETL_RECORD_EVENT_HEADER], ==, 39425 + 1073);
  /* System32, classic 32 and EventHeader32 records */
  g_assert_cmpuint (stats->reader.n_records_32, ==, 2 + 73 + 39425);
  g_assert_cmpuint (kernel->n_samples, ==, 88809);
  g_assert_cmpuint (kernel->n_stack_events, ==, 229);
  g_assert_cmpuint (kernel->n_key_refs_kernel, ==, 3640);
  g_assert_cmpuint (kernel->n_key_refs_user, ==, 8532);
  g_assert_cmpuint (kernel->n_key_definitions, ==, 3049);
  g_assert_cmpuint (kernel->n_key_rundowns, ==, 1024);
  /* Of the 7,367 stack events that share (timestamp, thread) with a
   * sample, 82 key references come after the last definition of their
   * key (a reused cache slot defines a reference by its next eviction or
   * the rundown, never by an earlier one): they stay without a stack */
  g_assert_cmpuint (kernel->n_stacks_attached, ==, 7367 - 82);
  g_assert_cmpuint (kernel->n_keys_unresolved, ==, 82);
  /* 13,783 MethodDCEndVerbose, 405 MethodLoadVerbose, 271 MethodUnloadVerbose */
  g_assert_cmpuint (stats->clr_method_events, ==, 13783 + 405 + 271);
  g_assert_cmpuint (stats->samples_with_stack, ==, 6746);

  /* PerfView's baseline for the file: 35 Process/DCStart and 1
   * Process/Start; 1,810 Image/DCStart and 57 Image/Load */
  g_assert_cmpuint (kernel->processes->len, ==, 36);
  g_assert_cmpuint (kernel->images->len, ==, 1810 + 57);

  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sps_trace_get_samples (trace)->n_rows, ==, 88809);
  g_assert_cmpstr (process_name (trace, 3644), ==, "Test.x86.exe");
  g_assert_cmpstr (process_name (trace, 3988), ==, "PerfView.exe");
  g_assert_cmpstr (process_name (trace, 0), ==, "Idle");
  /* Every sample is on a process of its thread: those of the idle thread
   * (tid 0) and the others, PerfView keeping 6,810 of them (the others
   * and the idle ones that ran a DPC or an ISR) */
  g_assert_cmpuint (samples_of_process (trace, 0), ==, 82128);
  g_assert_cmpuint (88809 - samples_of_process (trace, 0), <=, 6810);
  /* The test program's managed code, named through the runtime's events
   * (EventHeader32 records of the 32-bit process) */
  g_assert_cmpuint (samples_named (trace, "mscorlib!System.DateTime.GetDatePart(int32)"), >, 0);
  /* The first sample, as the baseline shows it: 18.627 ms after the
   * trace's start (ticks of a 10 MHz clock, in ns) */
  g_assert_cmpint (sps_trace_get_start_time (trace), ==, 18627300);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/etl/import/perfview-cpu", test_perfview_cpu);

  return g_test_run ();
}
