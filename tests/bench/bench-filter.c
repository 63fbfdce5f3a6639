/* bench-filter.c: SpsViewFilter control changes over a 5e6-event trace
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Usage: bench-filter [--runs N] [--gen-trace GEN-TRACE] TRACE.json
 *
 * Loads TRACE.json (generating it with GEN-TRACE when it is missing or
 * older than GEN-TRACE) and times, for each control of issue 17 — collapse
 * one process, move the window, change the minimum duration, toggle a
 * class, focus depth 1 → 3 — the filter's update after one change (until
 * its exact visible count is ready). The baseline, measured in the same
 * run on the same state, is a full recompute: every slice's visibility
 * evaluated again from the same rules (window, duration, class bits, depth
 * under collapse, focus), into a mask and a count. The two counts must
 * agree, or the figure means nothing. Reported: median and max over N
 * changes (default 21) and the ratio to the baseline's median. The issue's
 * target is a 2 ms median per change; the benchmark fails above it.
 */

#define G_LOG_DOMAIN "sps-bench-filter"

#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spanscope-core.h>

#include "sps-bench-trace.h"
#include "sps-bench-util.h"

#define TARGET_MS 2.0

typedef struct
{
  SpsTrace       *trace;
  SpsViewFilter  *filter;
  guint8         *mask;
  guint32        *lanes_shown;    /* per track */
} Bench;

/* The same state evaluated slice by slice, as a filter without
 * incremental updates would after every change. Returns the count. */
static guint
full_recompute (Bench *bench)
{
  const SpsSliceTable *slices = sps_trace_get_slices (bench->trace);
  const SpsTrackTable *tracks = sps_trace_get_tracks (bench->trace);
  SpsViewFilter *filter = bench->filter;
  guint32 require = sps_view_filter_get_require_mask (filter);
  guint32 exclude = sps_view_filter_get_exclude_mask (filter);
  SpsTime min = sps_view_filter_get_min_duration (filter);
  gboolean focus = sps_view_filter_is_focus_active (filter);
  SpsTime ws;
  SpsTime we;
  guint n = 0;

  sps_view_filter_get_window (filter, &ws, &we);
  for (guint t = 0; t < tracks->n_rows; t++)
    bench->lanes_shown[t] = sps_view_filter_get_track_lanes_shown (filter, t);

  for (guint s = 0; s < slices->n_rows; s++)
    {
      SpsTime end = slices->ts[s] + slices->dur[s];
      guint32 bits = sps_view_filter_get_slice_classes (filter, s);
      gboolean visible = ws <= we && slices->ts[s] <= we && end >= ws && slices->dur[s] >= min &&
                         (bits & require) == require && (bits & exclude) == 0 &&
                         slices->depth[s] < bench->lanes_shown[slices->track[s]] &&
                         (!focus || sps_view_filter_is_slice_reached (filter, s));

      bench->mask[s] = visible;
      n += visible;
    }
  return n;
}

typedef void (*Change) (Bench *bench,
                        guint  step);

typedef struct
{
  const char *what;
  Change      change;
} Control;

static guint32 big_process;

static void
change_collapse (Bench *bench,
                 guint  step)
{
  sps_view_filter_set_process_expansion (bench->filter, big_process,
                                         step % 2 == 0 ? SPS_EXPANSION_COLLAPSED : SPS_EXPANSION_EXPANDED);
}

static SpsTime trace_start;
static SpsTime trace_span;

/* A window a tenth of the trace wide, panned by 1 % of the trace a step */
static void
change_window (Bench *bench,
               guint  step)
{
  SpsTime start = trace_start + trace_span / 4 + (SpsTime) step * (trace_span / 100);

  sps_view_filter_set_window (bench->filter, start, start + trace_span / 10);
}

/* A slider: 10 µs, then steps of 1 µs up and back */
static void
change_min_duration (Bench *bench,
                     guint  step)
{
  guint k = step % 20;

  sps_view_filter_set_min_duration (bench->filter, 10000 + 1000 * (k < 10 ? k : 20 - k));
}

static void
change_class (Bench *bench,
              guint  step)
{
  /* Excluding class 0, then requiring class 1, then nothing */
  switch (step % 3)
    {
    case 0:
      sps_view_filter_set_class_masks (bench->filter, 0, 1);
      break;
    case 1:
      sps_view_filter_set_class_masks (bench->filter, 2, 0);
      break;
    default:
      sps_view_filter_set_class_masks (bench->filter, 0, 0);
      break;
    }
}

static void
change_focus (Bench *bench,
              guint  step)
{
  sps_view_filter_set_focus_depth (bench->filter, 3);
}

static void
reset_focus (Bench *bench)
{
  sps_view_filter_set_focus_depth (bench->filter, 1);
}

static const Control controls[] = {
  { "collapse one process", change_collapse },
  { "move the window", change_window },
  { "minimum duration", change_min_duration },
  { "toggle a class", change_class },
  { "focus depth 1→3", change_focus },
  { "  + parent/child edges", change_focus },
};

static guint32
pick_big_process (SpsTrace *trace)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  guint np = sps_trace_get_processes (trace)->n_rows;
  g_autofree guint *count = g_new0 (guint, MAX (np, 1));
  guint32 best = 0;

  for (guint t = 0; t < tracks->n_rows; t++)
    if (tracks->process[t] < np)
      count[tracks->process[t]] += tracks->n_rows_in_track[t];
  for (guint p = 0; p < np; p++)
    if (count[p] > count[best])
      best = p;
  g_print ("collapsed process: #%u with %u of %u slices\n", best, count[best], slices->n_rows);
  return best;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsViewFilter) filter = NULL;
  g_autofree guint8 *mask = NULL;
  g_autofree guint32 *lanes = NULL;
  int n_runs = 21;
  int status = 0;
  double worst_median = 0;
  double load_ms;
  double t0;
  guint32 seed;
  Bench bench;

  /* g_print() writes "×" and "→" in the locale's charset */
  setlocale (LC_ALL, "");
  trace = sps_bench_parse_and_load (&argc, &argv, "bench-filter", "Changes per control", &n_runs, &load_ms, &status);
  if (trace == NULL)
    return status;
  g_print ("%s: %u slices, %u tracks, %u flows, loaded in %.0f ms\n", argv[1],
           sps_trace_get_slices (trace)->n_rows, sps_trace_get_tracks (trace)->n_rows,
           sps_trace_get_flows (trace)->n_rows, load_ms);

  trace_start = sps_trace_get_start_time (trace);
  trace_span = MAX (sps_trace_get_end_time (trace) - trace_start, 100);
  big_process = pick_big_process (trace);
  seed = sps_bench_pick_focus_seed (trace);

  /* One-time costs, not part of a control change */
  t0 = sps_bench_now_ms ();
  filter = sps_view_filter_new (trace);
  g_print ("filter created in %.1f ms\n", sps_bench_now_ms () - t0);

  t0 = sps_bench_now_ms ();
  if (!sps_view_filter_add_rule (filter, "toplevel", SPS_CLASS_RULE_CATEGORY, "toplevel", NULL, &error) ||
      !sps_view_filter_add_rule (filter, "blink", SPS_CLASS_RULE_CATEGORY, "blink*", NULL, &error) ||
      !sps_view_filter_add_rule (filter, "blink", SPS_CLASS_RULE_NAME, "*Paint*", NULL, &error))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  g_print ("3 class rules (categories, names) classified in %.1f ms, %u classes\n",
           sps_bench_now_ms () - t0, sps_view_filter_get_n_classes (filter));

  t0 = sps_bench_now_ms ();
  sps_view_filter_set_min_duration (filter, 1);
  sps_view_filter_set_min_duration (filter, 0);
  g_print ("duration order built (first minimum-duration change) in %.1f ms\n", sps_bench_now_ms () - t0);

  t0 = sps_bench_now_ms ();
  sps_view_filter_set_focus_seeds (filter, &seed, 1);
  sps_view_filter_set_focus_enabled (filter, TRUE);
  sps_view_filter_set_focus_enabled (filter, FALSE);
  g_print ("flow adjacency built (first focus) in %.1f ms\n\n", sps_bench_now_ms () - t0);

  mask = g_malloc (MAX (sps_trace_get_slices (trace)->n_rows, 1));
  lanes = g_new (guint32, MAX (sps_trace_get_tracks (trace)->n_rows, 1));
  bench.trace = trace;
  bench.filter = filter;
  bench.mask = mask;
  bench.lanes_shown = lanes;

  g_print ("%-23s %11s %12s %12s %14s %9s\n", "control", "visible", "update med.", "update max", "recompute med.", "ratio");

  for (guint c = 0; c < G_N_ELEMENTS (controls); c++)
    {
      g_autofree double *ours = g_new (double, n_runs);
      g_autofree double *base = g_new (double, n_runs);
      guint visible = 0;
      double ours_med;
      double base_med;

      /* Each control from the same state: the window set, focus on its
       * seed for the focus control only */
      sps_view_filter_reset (filter);
      sps_view_filter_add_rule (filter, "toplevel", SPS_CLASS_RULE_CATEGORY, "toplevel", NULL, NULL);
      sps_view_filter_add_rule (filter, "blink", SPS_CLASS_RULE_CATEGORY, "blink*", NULL, NULL);
      sps_view_filter_add_rule (filter, "blink", SPS_CLASS_RULE_NAME, "*Paint*", NULL, NULL);
      change_window (&bench, 0);
      sps_view_filter_set_min_duration (filter, 10000);
      if (controls[c].change == change_focus)
        {
          /* The second focus row also follows the slices' tree */
          sps_view_filter_set_focus_parent_child (filter, c == G_N_ELEMENTS (controls) - 1);
          sps_view_filter_set_focus_seeds (filter, &seed, 1);
          sps_view_filter_set_focus_enabled (filter, TRUE);
          sps_view_filter_set_window (filter, SPS_TIME_MIN, SPS_TIME_MAX);
          sps_view_filter_set_min_duration (filter, 0);
        }

      for (int r = 0; r < n_runs; r++)
        {
          guint n_base;

          if (controls[c].change == change_focus)
            reset_focus (&bench);

          t0 = sps_bench_now_ms ();
          controls[c].change (&bench, r + 1);
          visible = sps_view_filter_get_visible_count (filter);
          ours[r] = sps_bench_now_ms () - t0;

          t0 = sps_bench_now_ms ();
          n_base = full_recompute (&bench);
          base[r] = sps_bench_now_ms () - t0;

          if (n_base != visible)
            {
              g_printerr ("%s: the filter counts %u visible slices, the full recompute %u\n",
                          controls[c].what, visible, n_base);
              return 1;
            }
        }

      ours_med = sps_bench_median (ours, n_runs);
      base_med = sps_bench_median (base, n_runs);
      g_print ("%-23s %11u %9.3f ms %9.3f ms %11.1f ms %8.4f×\n", controls[c].what, visible, ours_med,
               ours[n_runs - 1], base_med, ours_med / base_med);
      worst_median = MAX (worst_median, ours_med);
    }

  /* What a view asks for after a change, once per state */
  {
    g_autoptr(GBytes) m = NULL;

    sps_view_filter_set_focus_enabled (filter, FALSE);
    sps_view_filter_set_min_duration (filter, 20000);
    t0 = sps_bench_now_ms ();
    m = sps_view_filter_dup_mask (filter);
    g_print ("\nmask materialised (on demand, once per state): %.1f ms\n", sps_bench_now_ms () - t0);
  }

  g_print ("slowest median update: %.3f ms (target %.1f ms)\n", worst_median, TARGET_MS);
  return worst_median <= TARGET_MS ? 0 : 1;
}
