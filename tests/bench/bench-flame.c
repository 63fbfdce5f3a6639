/* bench-flame.c: building flame trees over a 5e6-event trace
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Usage: bench-flame [--runs N] [--gen-trace GEN-TRACE] TRACE.json
 *
 * Loads TRACE.json (made by GEN-TRACE first when it is missing or older
 * than the generator; the name must then be bench-N.json) and times
 * sps_flame_tree_build() for the measured tree of all threads merged, of
 * the busiest thread, and of the middle tenth and thousandth of the
 * trace as ranges;
 * and the samples tree when the trace has samples. The baseline, measured
 * in the same run, is the least any per-function view must do: one pass
 * over the same slices adding each duration into a GHashTable keyed by
 * name. Reported: median over N runs (default 5) of CPU and wall time,
 * and their ratios to the baseline's medians (sps_bench_per_name_sum(); for the range, the
 * slices that overlap it, through the block index). The flame panel rebuilds a tree on a worker thread
 * when its scope changes; the figure to watch is that it stays within a
 * small factor of the baseline.
 */

#define G_LOG_DOMAIN "sps-bench-flame"

#include "config.h"

#include <locale.h>

#include <stdio.h>
#include <stdlib.h>

#include <glib/gstdio.h>
#include <spanscope-core.h>

#include "sps-bench-trace.h"
#include "sps-bench-util.h"

static guint32
busiest_thread (SpsTrace *trace)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  guint32 best = SPS_NO_INDEX;
  guint most = 0;

  for (guint t = 0; t < tracks->n_rows; t++)
    {
      if (tracks->kind[t] == SPS_TRACK_THREAD_SLICES && tracks->n_rows_in_track[t] > most)
        {
          most = tracks->n_rows_in_track[t];
          best = tracks->thread[t];
        }
    }

  return best;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GOptionContext) context = NULL;
  g_autofree char *gen = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  SpsFlameTreeParams cases[5];
  const char *names[5] = { "measured, all threads", "measured, busiest thread",
                           "measured, middle tenth", "measured, middle 1/1000", "samples, all threads" };
  guint n_cases = 4;
  int n_runs = 5;
  SpsTime span;
  double load_ms;
  double t0;
  const GOptionEntry entries[] = {
    { "runs", 'n', 0, G_OPTION_ARG_INT, &n_runs, "Runs per case", "N" },
    { "gen-trace", 'g', 0, G_OPTION_ARG_FILENAME, &gen, "Generator of missing traces", "GEN-TRACE" },
    { NULL }
  };

  /* As spanscope and spanscope-cli do, before any thread: the trees'
   * large blocks in mappings of their own, as in the window */
  sps_setup_allocator ();

  /* The output has non-ASCII signs (×, ≤) */
  setlocale (LC_ALL, "");

  context = g_option_context_new ("TRACE.json");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 2 || n_runs < 1)
    {
      g_printerr ("%s\n", error != NULL ? error->message : "usage: bench-flame [--runs N] [--gen-trace GEN] TRACE.json");
      return 2;
    }

  g_print ("machine: %u cores\n", g_get_num_processors ());

  if (!(trace = sps_bench_load_trace (gen, argv[1], &load_ms, &error)))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  g_print ("%s: %u slices, %u samples, loaded in %.0f ms\n\n", argv[1],
           sps_trace_get_slices (trace)->n_rows, sps_trace_get_samples (trace)->n_rows, load_ms);

  sps_flame_tree_params_init (&cases[0], SPS_FLAME_TREE_MEASURED);
  sps_flame_tree_params_init (&cases[1], SPS_FLAME_TREE_MEASURED);
  cases[1].thread = busiest_thread (trace);
  sps_flame_tree_params_init (&cases[2], SPS_FLAME_TREE_MEASURED);
  span = sps_trace_get_end_time (trace) - sps_trace_get_start_time (trace);
  cases[2].has_range = TRUE;
  cases[2].range_start = sps_trace_get_start_time (trace) + span / 20 * 9;
  cases[2].range_end = sps_trace_get_start_time (trace) + span / 20 * 11;
  /* A range whose tree must cost what its few slices cost */
  sps_flame_tree_params_init (&cases[3], SPS_FLAME_TREE_MEASURED);
  cases[3].has_range = TRUE;
  cases[3].range_start = sps_trace_get_start_time (trace) + span / 2000 * 999;
  cases[3].range_end = sps_trace_get_start_time (trace) + span / 2000 * 1001;
  if (sps_trace_get_samples (trace)->n_rows > 0)
    {
      sps_flame_tree_params_init (&cases[4], SPS_FLAME_TREE_SAMPLES);
      n_cases = 5;
    }

  g_print ("%-26s %8s %12s %12s %14s %12s %8s %8s\n", "case", "nodes", "tree, wall", "tree, CPU",
           "per-name, wall", "per-name, CPU", "ratio", "wall");

  for (guint c = 0; c < n_cases; c++)
    {
      g_autofree double *ours = g_new (double, n_runs);
      g_autofree double *base = g_new (double, n_runs);
      g_autofree double *ours_cpu = g_new (double, n_runs);
      g_autofree double *base_cpu = g_new (double, n_runs);
      guint n_nodes = 0;
      double ours_med;
      double base_med;
      double ours_cpu_med;
      double base_cpu_med;
      double c0;

      for (int r = 0; r < n_runs; r++)
        {
          g_autoptr(SpsFlameTree) tree = NULL;

          t0 = sps_bench_now_ms ();
          c0 = sps_bench_cpu_ms ();
          tree = sps_flame_tree_build (trace, &cases[c], NULL, &error);
          ours_cpu[r] = sps_bench_cpu_ms () - c0;
          ours[r] = sps_bench_now_ms () - t0;
          if (tree == NULL)
            {
              g_printerr ("%s\n", error->message);
              return 1;
            }
          sps_flame_tree_get_nodes (tree, &n_nodes);

          t0 = sps_bench_now_ms ();
          c0 = sps_bench_cpu_ms ();
          if (cases[c].kind == SPS_FLAME_TREE_MEASURED)
            sps_bench_per_name_sum (trace, cases[c].thread, FALSE, cases[c].has_range,
                                    cases[c].range_start, cases[c].range_end);
          base_cpu[r] = sps_bench_cpu_ms () - c0;
          base[r] = sps_bench_now_ms () - t0;
        }

      ours_med = sps_bench_median (ours, n_runs);
      base_med = sps_bench_median (base, n_runs);
      ours_cpu_med = sps_bench_median (ours_cpu, n_runs);
      base_cpu_med = sps_bench_median (base_cpu, n_runs);
      /* The ratio is of CPU times: on a shared machine wall times vary
       * with the other processes, CPU times much less; the wall ratio is
       * beside it. The build runs on the calling thread alone, so its CPU
       * time is all the build's */
      if (cases[c].kind == SPS_FLAME_TREE_MEASURED)
        g_print ("%-26s %8u %9.1f ms %9.1f ms %11.1f ms %9.1f ms %7.2f× %7.2f×\n", names[c], n_nodes,
                 ours_med, ours_cpu_med, base_med, base_cpu_med,
                 base_cpu_med > 0 ? ours_cpu_med / base_cpu_med : 0.0,
                 base_med > 0 ? ours_med / base_med : 0.0);
      else
        g_print ("%-26s %8u %9.1f ms %9.1f ms %14s %12s %8s\n", names[c], n_nodes, ours_med, ours_cpu_med,
                 "-", "-", "-");
    }

  return 0;
}
