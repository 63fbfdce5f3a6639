/* bench-frame.c: time to build the timeline's render nodes
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Usage: bench-frame [--frames N] [--gen-trace GEN-TRACE] TRACE.json
 *
 * Loads TRACE.json (generating it first with GEN-TRACE when it is missing
 * or older than GEN-TRACE: the file name must then be bench-N.json, N the
 * number of events) and times sps_timeline_build_node() for a 1920×1080
 * view at full zoom-out, 1 ms, 10 µs and 100 ns per pixel.
 *
 * Each zoom is measured where the trace is densest for it (its worst
 * case): of CANDIDATES window positions spread over the trace, the one
 * whose visible lanes hold the most items to draw (slices of their own
 * plus merged runs, at the level the timeline draws with). A nearly empty
 * window would make a zoom look cheap for the wrong reason. A timeline of
 * a large trace first builds one level of its summaries on worker
 * threads (SpsTimeline:preparing): each timeline here waits for that, and
 * the first one's wait is reported. The first frame of each zoom, which
 * also builds the level-of-detail summaries it needs (from that level
 * when it is coarser), is reported on its own; then two kinds of frames,
 * N each
 * (default 400), with the median and 95th percentile:
 *
 * - pan: the window moves 8 px further each frame, as a drag does, over
 *   400 px back and forth (fully zoomed out: over the 5 % of room the
 *   trace's bounds leave each side). Rows are drawn in tiles aligned to
 *   the trace, so a pan frame draws only the tiles coming into view (a
 *   new one per row every 32 frames here) and otherwise moves the row's
 *   node; flows are drawn for half a window more each side and moved too.
 *   Labels of slices cut by the window's edges, the ruler and the gutter
 *   are drawn again every frame. Between frames the main loop runs what
 *   it has to do, untimed, as it would in the 16 ms between two frames:
 *   there the timeline builds the tile coming into view next. That work
 *   is reported apart, as "idle" per frame.
 * - zoom: the scale changes by 1 ‰ each frame, out for 25 frames and
 *   back in for 25, as a steady wheel zoom does:
 *   nothing drawn before can be reused, every visible row is drawn again.
 *
 * Each zoom and kind of frame has a timeline of its own, and their frames
 * are taken in turns, ROUNDS rounds of N / ROUNDS frames each: a machine
 * that slows down for a while (a shared one does) then slows all of them
 * alike, and the ratios between zooms, the figures that matter, hold.
 *
 * Needs a display (run under xvfb-run); the renderer is not involved.
 */

#define G_LOG_DOMAIN "sps-bench-frame"

#include "config.h"

#include <locale.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <glib/gstdio.h>
#include <spanscope-gtk.h>

#include "sps-timeline-private.h"

#include "sps-bench-trace.h"
#include "sps-bench-util.h"

#define WIDTH  1920
#define HEIGHT 1080
/* Window positions tried per zoom when looking for the densest one */
#define CANDIDATES 64
/* Turns the zooms take (see above) */
#define ROUNDS 20

typedef struct
{
  const char *name;
  double      ns_per_px;     /* 0: the whole trace */
} Zoom;

static const Zoom zooms[] = {
  { "full zoom-out", 0 },
  { "1 ms/px", 1e6 },
  { "10 µs/px", 1e4 },
  { "100 ns/px", 100 },
};

/* Runs the main loop until @timeline has the summaries that it builds
 * ahead on worker threads for a large trace (see SpsTimeline:preparing) */
static void
wait_prepared (SpsTimeline *timeline)
{
  while (sps_timeline_get_preparing (timeline))
    g_main_context_iteration (NULL, TRUE);
}

/* What the slice lanes in view hold between @start and @end: items (a
 * slice of its own or a run of merged ones, as the timeline draws them)
 * and lanes with at least one. The rows in view are those of the first
 * screen (the view is not scrolled). */
static guint
count_items (SpsTimeline *timeline,
             SpsTime      start,
             SpsTime      end,
             int          track_width,
             guint       *n_lanes)
{
  SpsTimelineLayout *layout = _sps_timeline_get_layout (timeline);
  SpsTimelineLod *lod = _sps_timeline_get_lod (timeline);
  double ns_per_px = (double) (end - start) / track_width;
  guint level = MIN (_sps_timeline_lod_level_for_resolution (ns_per_px) + 1, SPS_LOD_N_LEVELS - 1);
  guint n_rows = _sps_timeline_layout_get_n_rows (layout);
  guint items = 0;

  *n_lanes = 0;

  for (guint i = 0; i < n_rows; i++)
    {
      const SpsTimelineRow *row = _sps_timeline_layout_get_row (layout, i);
      SpsLodIter iter;
      SpsLodRun runs[256];
      guint n, in_lane = 0;

      if (row->y >= HEIGHT)
        break;
      if (row->kind != SPS_TIMELINE_ROW_SLICES)
        continue;

      _sps_timeline_lod_runs_init (lod, &iter, row->track, row->depth, level, start, end);
      while ((n = _sps_timeline_lod_runs_next_n (&iter, runs, G_N_ELEMENTS (runs))) > 0)
        in_lane += n;

      items += in_lane;
      if (in_lane > 0)
        (*n_lanes)++;
    }

  return items;
}

/* The start of the densest window of @span ns among CANDIDATES positions
 * spread evenly over the trace. */
static SpsTime
densest_start (SpsTimeline *timeline,
               SpsTime      trace_start,
               SpsTime      trace_end,
               SpsTime      span,
               int          track_width,
               guint       *items,
               guint       *n_lanes)
{
  SpsTime room = MAX (trace_end - trace_start - span, 0);
  SpsTime best = trace_start;

  *items = 0;
  *n_lanes = 0;

  for (guint c = 0; c < CANDIDATES; c++)
    {
      SpsTime start = trace_start + (SpsTime) ((double) room * c / (CANDIDATES - 1));
      guint lanes;
      guint n = count_items (timeline, start, start + span, track_width, &lanes);

      if (n > *items || (n == *items && lanes > *n_lanes))
        {
          best = start;
          *items = n;
          *n_lanes = lanes;
        }
      if (room == 0)
        break;
    }

  return best;
}

typedef struct
{
  double median;
  double p95;
  double max;
  double cpu_median;
  guint  nodes;
} Stats;

enum { MODE_PAN, MODE_ZOOM, N_MODES };

static const char * const mode_names[N_MODES] = { "pan", "zoom" };

/* How far a pan frame moves the window, px */
#define PAN_STEP 8

/* One zoom and kind of frame: its timeline and what was measured */
typedef struct
{
  SpsSession  *session;
  GtkWidget   *timeline;
  guint        mode;
  SpsTime      start;
  SpsTime      span;
  double       ns_per_px;
  gint64       pan_room;
  int          n_done;
  double      *times;
  double      *cpu_times;
  double       idle_ms;      /* the main loop's work between frames */
  Stats        stats;
} Run;

/* Times frame @f of @run: its window is [start, start + span) moved or
 * widened as the kind of frame says. */
static void
measure_frame (Run *run,
               int  f)
{
  GskRenderNode *node;
  double t0, c0;

  if (run->mode == MODE_PAN)
    {
      /* Back and forth over pan_room px centred on the window, so that
       * every frame moves even where the trace's bounds stop a longer
       * pan (fully zoomed out there is 5 % of room each side). */
      gint64 travel = (gint64) f * PAN_STEP % (2 * run->pan_room);
      gint64 px = (travel < run->pan_room ? travel : 2 * run->pan_room - travel) - run->pan_room / 2;
      SpsTime offset = (SpsTime) (px * run->ns_per_px);

      sps_session_set_visible (run->session, run->start + offset, run->start + offset + run->span);
    }
  else
    {
      /* 1 ‰ wider each frame for 25 frames, then 1 ‰ narrower for 25,
       * around the middle, as a steady wheel zoom out and back in: no
       * two frames in a row have the same scale, nor the warm-up frame
       * and the first. */
      int step = f % 50;
      int k = 1 + (step < 25 ? step : 50 - step);
      SpsTime delta = (SpsTime) (run->span * (pow (1.001, k) - 1)) / 2;

      sps_session_set_visible (run->session, run->start - delta, run->start + run->span + delta);
    }

  t0 = sps_bench_now_ms ();
  c0 = sps_bench_cpu_ms ();
  node = sps_timeline_build_node (SPS_TIMELINE (run->timeline), WIDTH, HEIGHT);
  run->cpu_times[f] = sps_bench_cpu_ms () - c0;
  run->times[f] = sps_bench_now_ms () - t0;

  if (f == 0)
    run->stats.nodes = _sps_render_node_count (node);
  g_clear_pointer (&node, gsk_render_node_unref);

  /* The time between two frames */
  t0 = sps_bench_now_ms ();
  for (guint i = 0; i < 10000 && g_main_context_iteration (NULL, FALSE); i++)
    ;
  run->idle_ms += sps_bench_now_ms () - t0;
}

static void
finish_run (Run *run)
{
  int n = run->n_done;

  qsort (run->times, n, sizeof (double), sps_bench_compare_doubles);
  qsort (run->cpu_times, n, sizeof (double), sps_bench_compare_doubles);
  run->stats.median = run->times[n / 2];
  run->stats.p95 = sps_bench_percentile (run->times, n, 0.95);
  run->stats.max = run->times[n - 1];
  run->stats.cpu_median = run->cpu_times[n / 2];
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GOptionContext) context = NULL;
  g_autofree char *gen = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsSession) session = NULL;
  GtkWidget *timeline;
  int n_frames = 400;
  Run runs[N_MODES][G_N_ELEMENTS (zooms)] = { { { 0, } } };
  double first_ms[G_N_ELEMENTS (zooms)] = { 0, };
  guint n_items[G_N_ELEMENTS (zooms)] = { 0, };
  guint n_lanes[G_N_ELEMENTS (zooms)] = { 0, };
  int only = -1;
  int only_mode = -1;
  double load_ms;
  double t0, c0;
  SpsTime trace_start, trace_end;
  int track_width;
  const GOptionEntry entries[] = {
    { "frames", 'n', 0, G_OPTION_ARG_INT, &n_frames, "Frames per zoom", "N" },
    { "gen-trace", 'g', 0, G_OPTION_ARG_FILENAME, &gen, "Generator of missing traces", "GEN-TRACE" },
    { "zoom", 'z', 0, G_OPTION_ARG_INT, &only, "Only this zoom (0-3), for profiling", "Z" },
    { "mode", 'm', 0, G_OPTION_ARG_INT, &only_mode, "Only these frames (0 pan, 1 zoom), for profiling", "M" },
    { NULL }
  };

  /* The output has non-ASCII signs (×, ≤) */
  setlocale (LC_ALL, "");

  context = g_option_context_new ("TRACE.json");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 2 || n_frames < 1)
    {
      g_printerr ("%s\n", error != NULL ? error->message : "usage: bench-frame [--frames N] [--gen-trace GEN] TRACE.json");
      return 2;
    }

  gtk_init ();

  g_print ("machine: %u cores, GTK %u.%u.%u\n", g_get_num_processors (),
           gtk_get_major_version (), gtk_get_minor_version (), gtk_get_micro_version ());

  if (!(trace = sps_bench_load_trace (gen, argv[1], &load_ms, &error)))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  g_print ("%s: %u slices, %u tracks, loaded in %.0f ms\n", argv[1],
           sps_trace_get_slices (trace)->n_rows, sps_trace_get_tracks (trace)->n_rows, load_ms);

  session = sps_session_new (trace);

  t0 = sps_bench_now_ms ();
  c0 = sps_bench_cpu_seconds () * 1000;
  timeline = g_object_ref_sink (sps_timeline_new (session));
  /* A large trace's timeline builds the level a zoomed-out frame is made
   * from on worker threads first: the first frames below come after */
  wait_prepared (SPS_TIMELINE (timeline));
  g_print ("summaries built ahead (worker threads, %u cores): %.1f ms wall, %.1f ms CPU\n",
           g_get_num_processors (), sps_bench_now_ms () - t0, sps_bench_cpu_seconds () * 1000 - c0);
  track_width = WIDTH - sps_timeline_get_gutter_width (SPS_TIMELINE (timeline));

  /* The baseline, in summaries of its own: what a zoomed-out first frame
   * built on the main thread when every level was built on demand (then
   * only for the lanes in view): the level of the whole trace over the
   * track width, here for every track, from the slices (one thread does
   * just that) */
  {
    g_autoptr(SpsTimelineLod) lod = _sps_timeline_lod_new (trace);
    double span = (double) (sps_trace_get_end_time (trace) - sps_trace_get_start_time (trace));
    /* As _sps_timeline_draw_level() picks it */
    guint level = MIN (_sps_timeline_lod_level_for_resolution (span / track_width) + 1, SPS_LOD_N_LEVELS - 1);

    c0 = sps_bench_cpu_seconds () * 1000;
    t0 = sps_bench_now_ms ();
    _sps_timeline_lod_prepare (lod, level, 1, NULL);
    g_print ("summaries on demand, full zoom-out level %u, every track, one thread: "
             "%.1f ms wall, %.1f ms CPU\n", level, sps_bench_now_ms () - t0, sps_bench_cpu_seconds () * 1000 - c0);
  }

  trace_start = sps_trace_get_start_time (trace);
  trace_end = sps_trace_get_end_time (trace);

  /* Style, fonts and the gutter labels: what any first frame pays. */
  t0 = sps_bench_now_ms ();
  sps_session_fit_trace (session);
  gsk_render_node_unref (sps_timeline_build_node (SPS_TIMELINE (timeline), 1, 1));
  g_print ("widget set-up: %.1f ms\n\n", sps_bench_now_ms () - t0);

  for (guint z = 0; z < G_N_ELEMENTS (zooms); z++)
    {
      double ns_per_px = zooms[z].ns_per_px;
      SpsTime span;
      SpsTime start;
      GskRenderNode *node;

      if (only >= 0 && (guint) only != z)
        continue;

      if (ns_per_px == 0)
        {
          sps_session_fit_trace (session);
          span = sps_session_get_visible_end (session) - sps_session_get_visible_start (session);
          ns_per_px = (double) span / track_width;
        }
      else
        {
          span = (SpsTime) (ns_per_px * track_width);
        }

      /* The first frame is timed before the search, which would build
       * the level it searches at. */
      start = trace_start + (trace_end - trace_start - span) / 2;
      sps_session_set_visible (session, start, start + span);
      t0 = sps_bench_now_ms ();
      node = sps_timeline_build_node (SPS_TIMELINE (timeline), WIDTH, HEIGHT);
      first_ms[z] = sps_bench_now_ms () - t0;
      g_clear_pointer (&node, gsk_render_node_unref);

      /* Fully zoomed out there is one position: the whole trace. */
      if (zooms[z].ns_per_px == 0)
        {
          sps_session_fit_trace (session);
          start = sps_session_get_visible_start (session);
          n_items[z] = count_items (SPS_TIMELINE (timeline), start, start + span, track_width, &n_lanes[z]);
        }
      else
        {
          start = densest_start (SPS_TIMELINE (timeline), trace_start, trace_end, span, track_width,
                                 &n_items[z], &n_lanes[z]);
        }

      for (guint m = 0; m < N_MODES; m++)
        {
          Run *run = &runs[m][z];

          if (only_mode >= 0 && (guint) only_mode != m)
            continue;

          run->session = sps_session_new (trace);
          run->timeline = g_object_ref_sink (sps_timeline_new (run->session));
          wait_prepared (SPS_TIMELINE (run->timeline));
          run->mode = m;
          run->start = start;
          run->span = span;
          run->ns_per_px = ns_per_px;
          run->pan_room = zooms[z].ns_per_px == 0 ? track_width / 20 : 50 * PAN_STEP;
          run->times = g_new (double, n_frames);
          run->cpu_times = g_new (double, n_frames);

          /* Its level-of-detail summaries and labels, untimed */
          sps_session_set_visible (run->session, start, start + span);
          gsk_render_node_unref (sps_timeline_build_node (SPS_TIMELINE (run->timeline), WIDTH, HEIGHT));
        }
    }

  /* A user stops zooming before dragging: the main loop runs for a while,
   * in which each timeline builds the tiles under its window, once its
   * scale has stayed the same for 150 ms. Without the pause, the first
   * pan frame builds them (up to 3.4 ms here, at 10 µs/px). */
  {
    gint64 until = g_get_monotonic_time () + 300 * G_TIME_SPAN_MILLISECOND;

    while (g_get_monotonic_time () < until)
      g_main_context_iteration (NULL, FALSE), g_usleep (1000);
    for (guint i = 0; i < 100000 && g_main_context_iteration (NULL, FALSE); i++)
      ;
  }

  for (guint r = 0; r < ROUNDS; r++)
    for (guint z = 0; z < G_N_ELEMENTS (zooms); z++)
      for (guint m = 0; m < N_MODES; m++)
        {
          Run *run = &runs[m][z];
          int until = (int) ((gint64) n_frames * (r + 1) / ROUNDS);

          for (; run->timeline != NULL && run->n_done < until; run->n_done++)
            measure_frame (run, run->n_done);
        }

  g_print ("%-14s %10s %8s %6s %12s %6s %10s %10s %10s %10s %10s %8s\n",
           "zoom", "ns/px", "items", "lanes", "first (LOD)", "frames", "median", "p95", "max", "cpu med.", "idle",
           "nodes");

  for (guint z = 0; z < G_N_ELEMENTS (zooms); z++)
    for (guint m = 0; m < N_MODES; m++)
      {
        Run *run = &runs[m][z];

        if (run->timeline == NULL)
          continue;

        finish_run (run);
        g_print ("%-14s %10.4g %8u %6u %9.2f ms %6s %7.2f ms %7.2f ms %7.2f ms %7.2f ms %7.2f ms %8u\n",
                 m == 0 ? zooms[z].name : "", run->ns_per_px, n_items[z], n_lanes[z], first_ms[z], mode_names[m],
                 run->stats.median, run->stats.p95, run->stats.max, run->stats.cpu_median,
                 run->idle_ms / MAX (run->n_done, 1), run->stats.nodes);
      }

  if (only < 0)
    {
      g_print ("\n");
      for (guint m = 0; m < N_MODES; m++)
        {
          double slowest = 0, fastest = G_MAXDOUBLE, slowest_p95 = 0, fastest_p95 = G_MAXDOUBLE;
          double slowest_cpu = 0, fastest_cpu = G_MAXDOUBLE;

          /* Only these frames were asked for (--mode) */
          if (runs[m][0].timeline == NULL)
            continue;

          for (guint z = 0; z < G_N_ELEMENTS (zooms); z++)
            {
              slowest = MAX (slowest, runs[m][z].stats.median);
              fastest = MIN (fastest, runs[m][z].stats.median);
              slowest_p95 = MAX (slowest_p95, runs[m][z].stats.p95);
              fastest_p95 = MIN (fastest_p95, runs[m][z].stats.p95);
              slowest_cpu = MAX (slowest_cpu, runs[m][z].stats.cpu_median);
              fastest_cpu = MIN (fastest_cpu, runs[m][z].stats.cpu_median);
            }

          g_print ("%s frames: slowest/fastest zoom %.2f (medians), %.2f (p95), %.2f (CPU time medians); "
                   "target <= 4 ms (p95): %s (slowest p95 %.2f ms); target ratio <= 2 (medians): %s\n",
                   mode_names[m], slowest / fastest, slowest_p95 / fastest_p95, slowest_cpu / fastest_cpu,
                   slowest_p95 <= 4.0 ? "met" : "NOT met", slowest_p95,
                   slowest / fastest <= 2.0 ? "met" : "NOT met");
        }
    }

  g_print ("level-of-detail memory: %.1f MiB\n",
           _sps_timeline_lod_get_memory_size (_sps_timeline_get_lod (SPS_TIMELINE (timeline))) / (1024.0 * 1024.0));

  for (guint z = 0; z < G_N_ELEMENTS (zooms); z++)
    for (guint m = 0; m < N_MODES; m++)
      {
        g_clear_object (&runs[m][z].timeline);
        g_clear_object (&runs[m][z].session);
        g_free (runs[m][z].times);
        g_free (runs[m][z].cpu_times);
      }
  g_object_unref (timeline);

  return 0;
}
