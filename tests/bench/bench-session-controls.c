/* bench-session-controls.c: the timeline's controls through SpsSession over
 * a 5e6-event trace
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Usage: bench-session-controls [--runs N] [--gen-trace GEN-TRACE] TRACE.json
 *
 * bench-filter times SpsViewFilter's own updates; this times the same
 * controls as the window changes them, through the session that forwards
 * them (collapse a process, collapse a thread, hide a thread, minimum
 * duration, a classification chip, focus depth 1 → 3), from the call until
 * the filter's exact visible count is ready, with the session's signals
 * emitted (no view is connected: what views do with them is theirs).
 * Reported: median and max over N changes (default 21). The target
 * is a 2 ms median per change; the benchmark fails above it.
 */

#define G_LOG_DOMAIN "sps-bench-session"

#include "config.h"

#include <locale.h>
#include <stdio.h>

#include <spanscope-gtk.h>

#include "sps-bench-trace.h"
#include "sps-bench-util.h"

#define TARGET_MS 2.0

typedef void (*Change) (SpsSession *session,
                        guint       step);

static guint32 big_process;
static guint32 big_thread;
static guint32 other_thread;

static void
change_collapse_process (SpsSession *session,
                         guint       step)
{
  sps_session_set_process_collapsed (session, big_process, step % 2 == 0);
}

static void
change_collapse_thread (SpsSession *session,
                        guint       step)
{
  sps_session_set_thread_collapsed (session, big_thread, step % 2 == 0);
}

static void
change_hide_thread (SpsSession *session,
                    guint       step)
{
  sps_session_set_thread_hidden (session, other_thread, step % 2 == 0);
}

/* A slider: 10 µs, then steps of 1 µs up and back, as in bench-filter */
static void
change_min_duration (SpsSession *session,
                     guint       step)
{
  guint k = step % 20;

  sps_session_set_min_duration (session, 10000 + 1000 * (k < 10 ? k : 20 - k));
}

/* The chip of a class of the user's: any → only → hide → any */
static void
change_chip (SpsSession *session,
             guint       step)
{
  sps_session_set_class_state (session, "toplevel", (SpsClassState) (step % 3));
}

static void
change_focus (SpsSession *session,
              guint       step)
{
  sps_session_set_focus_depth (session, 3);
}

static const struct
{
  const char *what;
  Change      change;
} controls[] = {
  { "collapse one process", change_collapse_process },
  { "collapse one thread", change_collapse_thread },
  { "hide one thread", change_hide_thread },
  { "minimum duration", change_min_duration },
  { "class chip", change_chip },
  { "focus depth 1→3", change_focus },
};

/* The process, and the thread, with the most slices; and another thread */
static void
pick_targets (SpsTrace *trace)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  guint np = sps_trace_get_processes (trace)->n_rows;
  guint nt = sps_trace_get_threads (trace)->n_rows;
  g_autofree guint *per_process = g_new0 (guint, MAX (np, 1));
  g_autofree guint *per_thread = g_new0 (guint, MAX (nt, 1));

  for (guint t = 0; t < tracks->n_rows; t++)
    {
      if (tracks->process[t] < np)
        per_process[tracks->process[t]] += tracks->n_rows_in_track[t];
      if (tracks->thread[t] < nt)
        per_thread[tracks->thread[t]] += tracks->n_rows_in_track[t];
    }
  for (guint p = 0; p < np; p++)
    if (per_process[p] > per_process[big_process])
      big_process = p;
  for (guint t = 0; t < nt; t++)
    if (per_thread[t] > per_thread[big_thread])
      big_thread = t;
  other_thread = big_thread == 0 && nt > 1 ? 1 : 0;
  g_print ("process #%u: %u slices; thread #%u: %u slices; hidden thread #%u: %u slices\n",
           big_process, per_process[big_process], big_thread, per_thread[big_thread],
           other_thread, per_thread[other_thread]);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsSession) session = NULL;
  SpsViewFilter *filter;
  int n_runs = 21;
  int status = 0;
  double worst_median = 0;
  double load_ms;
  double t0;
  guint32 seed;

  setlocale (LC_ALL, "");
  trace = sps_bench_parse_and_load (&argc, &argv, "bench-session-controls", "Changes per control", &n_runs, &load_ms,
                                    &status);
  if (trace == NULL)
    return status;
  g_print ("%s: %u slices, %u tracks, %u flows, loaded in %.0f ms\n", argv[1],
           sps_trace_get_slices (trace)->n_rows, sps_trace_get_tracks (trace)->n_rows,
           sps_trace_get_flows (trace)->n_rows, load_ms);
  pick_targets (trace);
  seed = sps_bench_pick_focus_seed (trace);

  /* One-time costs, not part of a control change */
  t0 = sps_bench_now_ms ();
  session = sps_session_new (trace);
  filter = sps_session_get_view_filter (session);
  g_print ("session (with its filter) created in %.1f ms\n", sps_bench_now_ms () - t0);
  t0 = sps_bench_now_ms ();
  if (!sps_session_add_class_rule (session, "toplevel", SPS_CLASS_RULE_CATEGORY, "toplevel", NULL, &error))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  g_print ("a class rule classified in %.1f ms\n", sps_bench_now_ms () - t0);
  t0 = sps_bench_now_ms ();
  sps_session_set_min_duration (session, 1);
  sps_session_set_min_duration (session, 0);
  g_print ("duration order built (first minimum-duration change) in %.1f ms\n", sps_bench_now_ms () - t0);
  sps_session_set_selected_slice (session, seed);
  t0 = sps_bench_now_ms ();
  sps_session_set_focus (session, TRUE);
  sps_session_set_focus (session, FALSE);
  g_print ("flow adjacency built (first focus) in %.1f ms\n\n", sps_bench_now_ms () - t0);

  g_print ("%-23s %11s %12s %12s\n", "control", "visible", "update med.", "update max");
  for (guint c = 0; c < G_N_ELEMENTS (controls); c++)
    {
      g_autofree double *times = g_new (double, n_runs);
      guint visible = 0;
      double median;

      /* Every control from the same state: a 10 µs minimum, focus on
       * (from the selection) for the focus control only */
      sps_session_set_focus (session, controls[c].change == change_focus);
      sps_session_set_min_duration (session, controls[c].change == change_focus ? 0 : 10000);

      for (int r = 0; r < n_runs; r++)
        {
          if (controls[c].change == change_focus)
            sps_session_set_focus_depth (session, 1);

          t0 = sps_bench_now_ms ();
          controls[c].change (session, r + 1);
          visible = sps_view_filter_get_visible_count (filter);
          times[r] = sps_bench_now_ms () - t0;
        }

      median = sps_bench_median (times, n_runs);
      g_print ("%-23s %11u %9.3f ms %9.3f ms\n", controls[c].what, visible, median, times[n_runs - 1]);
      worst_median = MAX (worst_median, median);
    }

  g_print ("slowest median update: %.3f ms (target %.1f ms)\n", worst_median, TARGET_MS);
  return worst_median <= TARGET_MS ? 0 : 1;
}
