/* sps-bench-trace.c: generating and loading a benchmark's trace
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-bench-trace"

#include "config.h"

#include "sps-bench-util.h"
#include "sps-bench-trace.h"

/* Generates @path with @gen first when it is missing or stale
 * (sps_bench_ensure_trace(); with @gen NULL it is only loaded), then loads
 * it; @load_ms receives the time the load took. */
SpsTrace *
sps_bench_load_trace (const char  *gen,
                      const char  *path,
                      double      *load_ms,
                      GError     **error)
{
  g_autoptr(GFile) file = NULL;
  SpsTrace *trace;
  double t0;

  if (gen != NULL && !sps_bench_ensure_trace (gen, path, error))
    return NULL;

  file = g_file_new_for_commandline_arg (path);
  t0 = sps_bench_now_ms ();
  trace = sps_trace_load (file, NULL, NULL, SPS_LOAD_FLAGS_NONE, NULL, NULL, error);
  *load_ms = sps_bench_now_ms () - t0;

  return trace;
}

/* The command line shared by the benchmarks over a generated trace:
 * `NAME [--runs N] [--gen-trace GEN] TRACE.json`. Parses it, prints the
 * machine's cores, generates and loads the trace. Returns NULL after
 * printing why (*@status is then the exit status: 2 for usage, 1 for a
 * trace that does not load). */
SpsTrace *
sps_bench_parse_and_load (int          *argc,
                          char       ***argv,
                          const char   *name,
                          const char   *runs_help,
                          int          *n_runs,
                          double       *load_ms,
                          int          *status)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *gen = NULL;
  SpsTrace *trace;
  const GOptionEntry entries[] = {
    { "runs", 'n', 0, G_OPTION_ARG_INT, n_runs, runs_help, "N" },
    { "gen-trace", 'g', 0, G_OPTION_ARG_FILENAME, &gen, "Generator of missing traces", "GEN-TRACE" },
    { NULL }
  };

  context = g_option_context_new ("TRACE.json");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, argc, argv, &error) || *argc != 2 || *n_runs < 1)
    {
      if (error != NULL)
        g_printerr ("%s\n", error->message);
      else
        g_printerr ("usage: %s [--runs N] [--gen-trace GEN] TRACE.json\n", name);
      *status = 2;
      return NULL;
    }

  g_print ("machine: %u cores\n", g_get_num_processors ());
  if (!(trace = sps_bench_load_trace (gen, (*argv)[1], load_ms, &error)))
    {
      g_printerr ("%s\n", error->message);
      *status = 1;
      return NULL;
    }
  return trace;
}

/* A slice with the most flows leaving or entering it: where the focus
 * benchmarks start from */
guint32
sps_bench_pick_focus_seed (SpsTrace *trace)
{
  const SpsFlowTable *flows = sps_trace_get_flows (trace);
  guint n = sps_trace_get_slices (trace)->n_rows;
  g_autofree guint16 *degree = g_new0 (guint16, MAX (n, 1));
  guint32 best = 0;

  for (guint f = 0; f < flows->n_rows; f++)
    {
      if (flows->from_slice[f] < n && degree[flows->from_slice[f]] < G_MAXUINT16)
        degree[flows->from_slice[f]]++;
      if (flows->to_slice[f] < n && degree[flows->to_slice[f]] < G_MAXUINT16)
        degree[flows->to_slice[f]]++;
    }
  for (guint s = 0; s < n; s++)
    if (degree[s] > degree[best])
      best = s;
  return best;
}
