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

typedef struct
{
  const SpsSliceTable *slices;
  GHashTable          *sums;
  SpsTime              start;
  SpsTime              end;
  gboolean             clip;
} PerNameSum;

static gboolean
add_to_sum (SpsTrace *trace,
            guint     slice,
            gpointer  user_data)
{
  PerNameSum *p = user_data;
  gpointer key = GUINT_TO_POINTER (p->slices->name[slice] + 1);
  gint64 *sum = g_hash_table_lookup (p->sums, key);
  SpsTime value = p->slices->dur[slice];

  if (p->clip)
    value = MIN (p->slices->ts[slice] + value, p->end) - MAX (p->slices->ts[slice], p->start);
  if (sum == NULL)
    g_hash_table_insert (p->sums, key, sum = g_new0 (gint64, 1));
  *sum += value;
  return TRUE;
}

/* The baseline of the flame tree and statistics benchmarks, the least a
 * per-function view must do: one pass over the slices in scope adding
 * each (clipped) duration into a GHashTable keyed by name. The scope: the
 * thread slice tracks of @thread (SPS_NO_INDEX: all threads), or with
 * @all_kinds every slice track (sampled spans, async lanes); with
 * @has_range the slices that overlap [@start, @end), found through the
 * block index as the views find them. Returns the number of names. */
guint
sps_bench_per_name_sum (SpsTrace *trace,
                        guint32   thread,
                        gboolean  all_kinds,
                        gboolean  has_range,
                        SpsTime   start,
                        SpsTime   end)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  g_autoptr(GHashTable) sums = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  PerNameSum p = { sps_trace_get_slices (trace), sums, start, end, has_range };

  for (guint t = 0; t < tracks->n_rows; t++)
    {
      guint8 kind = tracks->kind[t];

      if (all_kinds ? (kind != SPS_TRACK_THREAD_SLICES && kind != SPS_TRACK_THREAD_SAMPLED_SLICES &&
                       kind != SPS_TRACK_ASYNC)
                    : kind != SPS_TRACK_THREAD_SLICES)
        continue;
      if (thread != SPS_NO_INDEX && tracks->thread[t] != thread)
        continue;

      if (has_range)
        sps_trace_foreach_slice_in_range (trace, t, start, end, add_to_sum, &p);
      else
        for (guint r = tracks->first_row[t]; r < tracks->first_row[t] + tracks->n_rows_in_track[t]; r++)
          add_to_sum (trace, r, &p);
    }

  return g_hash_table_size (sums);
}
