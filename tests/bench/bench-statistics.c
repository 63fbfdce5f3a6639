/* bench-statistics.c: the statistics panel's numbers, native and in SQL
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Usage: bench-statistics [--runs N] [--gen-trace GEN-TRACE] TRACE.json
 *
 * Loads TRACE.json (made by GEN-TRACE first when it is missing or older
 * than the generator; the name must then be bench-N.json) and times, for
 * each case (per name, per thread and name, per name over ranges of 1 %,
 * 10 % and all of the trace):
 *
 * - sps_statistics_compute(), what the panel runs (median of N runs);
 * - the panel's former SQL, sps_sql_build_statistics() (one run: it takes
 *   seconds), checked to give as many rows;
 * - the baseline in the same run: a per-name GHashTable sum of the
 *   (clipped) durations of the same slices (sps_bench_per_name_sum()).
 *
 * Reported: CPU time of the calling thread (wall beside it), the ratio to
 * the baseline, and CPU seconds per 1e6 events of the trace (issue 19's
 * target: ≤ 0.2 s per 1e6 events, and a range costs ∝ its slices).
 */

#define G_LOG_DOMAIN "sps-bench-statistics"

#include "config.h"

#include <locale.h>

#include <spanscope-core.h>

#include "sps-bench-trace.h"
#include "sps-bench-util.h"

typedef struct
{
  const char       *name;
  SpsStatsGrouping  grouping;
  gboolean          has_range;
  double            from;       /* fractions of the trace's span */
  double            to;
} Case;

int
main (int   argc,
      char *argv[])
{
  static const Case cases[] = {
    { "per name, whole trace", SPS_STATS_BY_NAME, FALSE, 0, 0 },
    { "per thread, whole trace", SPS_STATS_BY_THREAD, FALSE, 0, 0 },
    { "per name, 1 % range", SPS_STATS_BY_NAME, TRUE, 0.495, 0.505 },
    { "per name, 10 % range", SPS_STATS_BY_NAME, TRUE, 0.45, 0.55 },
    { "per name, range of all", SPS_STATS_BY_NAME, TRUE, -0.01, 1.01 },
  };
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsSqlEngine) engine = NULL;
  g_autoptr(GError) error = NULL;
  int n_runs = 5;
  int status = 0;
  double load_ms;
  double millions;
  SpsTime t0;
  SpsTime span;

  /* The output has non-ASCII signs (×, ≤) */
  setlocale (LC_ALL, "");

  if (!(trace = sps_bench_parse_and_load (&argc, &argv, "bench-statistics", "Runs per case", &n_runs,
                                          &load_ms, &status)))
    return status;
  if (!(engine = sps_sql_engine_new (trace, &error)))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }

  millions = sps_trace_get_events_read (trace) / 1e6;
  t0 = sps_trace_get_start_time (trace);
  span = sps_trace_get_end_time (trace) - t0;
  g_print ("%s: %" G_GUINT64_FORMAT " events, %u slices, loaded in %.0f ms\n\n", argv[1],
           sps_trace_get_events_read (trace), sps_trace_get_n_slices (trace), load_ms);
  g_print ("%-25s %6s %19s %11s %17s %19s %14s\n", "case", "rows", "native CPU (wall)", "per 1e6 ev",
           "per-name sum CPU", "× per-name (CPU)", "SQL CPU (wall)");

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      const Case *k = &cases[c];
      g_autofree double *native_cpu = g_new (double, n_runs);
      g_autofree double *native_wall = g_new (double, n_runs);
      g_autofree double *base_cpu = g_new (double, n_runs);
      g_autofree char *sql = NULL;
      g_autoptr(SpsSqlResult) sql_rows = NULL;
      SpsTime start = t0 + (SpsTime) (k->from * span);
      SpsTime end = t0 + (SpsTime) (k->to * span);
      guint n_rows = 0;
      double sql_cpu;
      double sql_wall;
      double native_med;
      double base_med;
      double c0;
      double w0;

      for (int r = 0; r < n_runs; r++)
        {
          g_autoptr(SpsSqlResult) rows = NULL;

          w0 = sps_bench_now_ms ();
          c0 = sps_bench_cpu_ms ();
          rows = sps_statistics_compute (trace, k->grouping, NULL, k->has_range, start, end, NULL, &error);
          native_cpu[r] = sps_bench_cpu_ms () - c0;
          native_wall[r] = sps_bench_now_ms () - w0;
          g_assert_no_error (error);
          n_rows = sps_sql_result_get_n_rows (rows);

          c0 = sps_bench_cpu_ms ();
          sps_bench_per_name_sum (trace, SPS_NO_INDEX, TRUE, k->has_range, start, end);
          base_cpu[r] = sps_bench_cpu_ms () - c0;
        }

      sql = sps_sql_build_statistics (k->grouping, FALSE, k->has_range, start, end);
      w0 = sps_bench_now_ms ();
      c0 = sps_bench_cpu_ms ();
      sql_rows = sps_sql_engine_query (engine, sql, NULL, NULL, &error);
      sql_cpu = sps_bench_cpu_ms () - c0;
      sql_wall = sps_bench_now_ms () - w0;
      g_assert_no_error (error);
      if (sps_sql_result_get_n_rows (sql_rows) != n_rows)
        {
          g_printerr ("%s: %u rows natively, %u in SQL\n", k->name, n_rows, sps_sql_result_get_n_rows (sql_rows));
          return 1;
        }

      native_med = sps_bench_median (native_cpu, n_runs);
      base_med = sps_bench_median (base_cpu, n_runs);
      g_print ("%-25s %6u %8.1f (%6.1f) ms %8.3f s %14.1f ms %18.2f× %7.0f (%5.0f) ms\n", k->name, n_rows,
               native_med, sps_bench_median (native_wall, n_runs), native_med / 1000.0 / millions, base_med,
               base_med > 0 ? native_med / base_med : 0.0, sql_cpu, sql_wall);
    }

  g_print ("\ntarget: ≤ 0.200 s of CPU per 1e6 events in every case\n");
  return 0;
}
