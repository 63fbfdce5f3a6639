/* test-session-selection.c: SpsSession's selection of slices, instants,
 * samples and stack chart boxes, without a display
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-session-selection"

#include "config.h"

#include <math.h>

#include <spanscope-gtk.h>

#include "sps-test-util.h"

/* One thread (tid 10) with, in ns:
 *   slice "S" [100, 400);
 *   instants "I1" at 150 and "I2" at 300 (the instant table is sorted
 *   by (track, ts): I1 is row 0, I2 row 1);
 *   samples at 1000 and 2000 of stack Main>Work (rows 0 and 1).
 * The trace spans 100 … 2000. */
static SpsTrace *
make_trace (void)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  guint32 process = sps_trace_builder_ensure_process (b, 1);
  guint32 thread = sps_trace_builder_ensure_thread (b, process, 10);
  guint32 main_name = sps_trace_builder_intern (b, "Main", -1);
  guint32 work_name = sps_trace_builder_intern (b, "Work", -1);
  guint32 main_cs = sps_trace_builder_intern_callsite (b, SPS_NO_INDEX,
                                                       sps_trace_builder_intern_frame (b, main_name, 0, 0, 1));
  guint32 work_cs = sps_trace_builder_intern_callsite (b, main_cs,
                                                       sps_trace_builder_intern_frame (b, work_name, 0, 0, 2));
  SpsTrace *trace;

  sps_test_add_complete (b, thread, 100, 300, "S", "cat", NULL, 0);
  sps_trace_builder_add_instant (b, SPS_INSTANT_KIND_INSTANT, SPS_INSTANT_SCOPE_THREAD, process, thread, 300,
                                 sps_trace_builder_intern (b, "I2", -1), 0, SPS_ARGS_REF_NONE);
  sps_trace_builder_add_instant (b, SPS_INSTANT_KIND_INSTANT, SPS_INSTANT_SCOPE_THREAD, process, thread, 150,
                                 sps_trace_builder_intern (b, "I1", -1), 0, SPS_ARGS_REF_NONE);
  sps_trace_builder_add_sample (b, thread, 1000, work_name, work_cs, 0, NAN, SPS_WEIGHT_UNIT_NONE, SPS_SAMPLE_NONE);
  sps_trace_builder_add_sample (b, thread, 2000, work_name, work_cs, 0, NAN, SPS_WEIGHT_UNIT_NONE, SPS_SAMPLE_NONE);
  trace = sps_trace_builder_finish (b, NULL, &error);
  g_assert_no_error (error);
  return trace;
}

static void
count (guint *n)
{
  (*n)++;
}

/* Each kind is kept with its track and times from the tables, signalled
 * once per change, and "selected-slice" follows only slices. */
static void
test_kinds (void)
{
  g_autoptr(SpsTrace) trace = make_trace ();
  g_autoptr(SpsSession) session = sps_session_new (trace);
  const SpsSelection *sel;
  guint changed = 0, slice_notified = 0;

  g_signal_connect_swapped (session, "selection-changed", G_CALLBACK (count), &changed);
  g_signal_connect_swapped (session, "notify::selected-slice", G_CALLBACK (count), &slice_notified);

  sel = sps_session_get_selection (session);
  g_assert_cmpint (sel->kind, ==, SPS_SELECTION_NONE);

  /* I2 is row 1 (sorted by time) at 300 */
  sps_session_select_instant (session, 1);
  sel = sps_session_get_selection (session);
  g_assert_cmpint (sel->kind, ==, SPS_SELECTION_INSTANT);
  g_assert_cmpuint (sel->index, ==, 1);
  g_assert_cmpstr (sps_trace_get_string (trace, sps_trace_get_instants (trace)->name[1]), ==, "I2");
  g_assert_cmpint (sel->start, ==, 300);
  g_assert_cmpint (sel->end, ==, 300);
  g_assert_cmpuint (sel->track, ==, sps_trace_get_instants (trace)->track[1]);
  g_assert_cmpuint (sps_session_get_selected_slice (session), ==, SPS_NO_INDEX);
  g_assert_cmpuint (changed, ==, 1);
  g_assert_cmpuint (slice_notified, ==, 0);

  /* The same again: no signal */
  sps_session_select_instant (session, 1);
  g_assert_cmpuint (changed, ==, 1);

  /* A slice through the old API: a slice selection, both told */
  sps_session_set_selected_slice (session, 0);
  sel = sps_session_get_selection (session);
  g_assert_cmpint (sel->kind, ==, SPS_SELECTION_SLICE);
  g_assert_cmpint (sel->start, ==, 100);
  g_assert_cmpint (sel->end, ==, 400);
  g_assert_cmpuint (changed, ==, 2);
  g_assert_cmpuint (slice_notified, ==, 1);

  /* A sample replaces the slice: "selected-slice" goes back to none */
  sps_session_select_sample (session, 1);
  sel = sps_session_get_selection (session);
  g_assert_cmpint (sel->kind, ==, SPS_SELECTION_SAMPLE);
  g_assert_cmpint (sel->start, ==, 2000);
  g_assert_cmpuint (sps_session_get_selected_slice (session), ==, SPS_NO_INDEX);
  g_assert_cmpuint (changed, ==, 3);
  g_assert_cmpuint (slice_notified, ==, 2);

  /* Escape (clear) clears any kind */
  sps_session_clear (session);
  g_assert_cmpint (sps_session_get_selection (session)->kind, ==, SPS_SELECTION_NONE);
  g_assert_cmpuint (changed, ==, 4);
  g_assert_cmpuint (slice_notified, ==, 2);
}

/* A box is taken as given; fit shows it with a tenth of its span as
 * margin each side, and an instant is centred at the current zoom. */
static void
test_box_and_fit (void)
{
  g_autoptr(SpsTrace) trace = make_trace ();
  g_autoptr(SpsSession) session = sps_session_new (trace);
  const SpsSampleTable *samples = sps_trace_get_samples (trace);
  const SpsSelection *sel;
  SpsSelection box;

  sps_selection_init_none (&box);
  box.kind = SPS_SELECTION_STACK_BOX;
  box.track = samples->track[0];
  box.depth = 1;
  box.callsite = samples->callsite[0];
  box.first_sample = 0;
  box.n_samples = 2;
  box.start = 1000;
  box.end = 3000;
  sps_session_set_selection (session, &box);

  sel = sps_session_get_selection (session);
  g_assert_cmpint (sel->kind, ==, SPS_SELECTION_STACK_BOX);
  g_assert_cmpuint (sel->index, ==, SPS_NO_INDEX);
  g_assert_cmpuint (sel->depth, ==, 1);
  g_assert_cmpuint (sel->n_samples, ==, 2);
  g_assert_true (sps_selection_equal (sel, &box));

  /* [1000, 3000] with 200 ns each side is 2400 ns, wider than the
   * bounds (the trace, 100 … 2000, plus 5 % of its 1900 ns = 95 each
   * side: [5, 2095]), so the window is the bounds. */
  sps_session_fit (session);
  g_assert_cmpint (sps_session_get_visible_start (session), ==, 5);
  g_assert_cmpint (sps_session_get_visible_end (session), ==, 2095);

  /* An instant: centred at the current zoom. Zoomed to [100, 300]
   * (200 ns), I1 at 150 gives [50, 250]. */
  sps_session_set_visible (session, 100, 300);
  sps_session_select_instant (session, 0);
  sps_session_fit (session);
  g_assert_cmpint (sps_session_get_visible_start (session), ==, 50);
  g_assert_cmpint (sps_session_get_visible_end (session), ==, 250);

  /* A box inside the bounds: [1000, 1500] fits as [950, 1550] */
  box.end = 1500;
  sps_session_set_selection (session, &box);
  sps_session_fit (session);
  g_assert_cmpint (sps_session_get_visible_start (session), ==, 950);
  g_assert_cmpint (sps_session_get_visible_end (session), ==, 1550);
}

/* Stacks repaired at import (the raw table kept beside them), one thread,
 * samples 10 ns apart (ns):
 *
 *   sample  ts   repaired              raw (as read: cut at the root)
 *   0        0   Main > Run > Work     Run > Work
 *   1       10   Main > Run > Work     Run > Work
 *   2       20   Main > Run            Main > Run
 *   3       30   Main > Run            Main > Run
 *
 * The last sample lasts as long as the gap before it, so the charts end
 * at 40. Repaired: depth 0 Main [0, 40), depth 1 Run [0, 40), depth 2
 * Work [0, 20). Raw: depth 0 Run [0, 20) and Main [20, 40), depth 1 Work
 * [0, 20) and Run [20, 40). */
static SpsTrace *
make_repaired_trace (void)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  guint32 process = sps_trace_builder_ensure_process (b, 1);
  guint32 thread = sps_trace_builder_ensure_thread (b, process, 10);
  guint32 frames[3];
  guint32 main_cs, run_cs, work_cs, raw_run_cs, raw_work_cs;
  const char *names[] = { "Main", "Run", "Work" };
  guint32 cpu = sps_trace_builder_intern (b, "cpu", -1);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    frames[i] = sps_trace_builder_intern_frame (b, sps_trace_builder_intern (b, names[i], -1), 0, 0, i + 1);
  main_cs = sps_trace_builder_intern_callsite (b, SPS_NO_INDEX, frames[0]);
  run_cs = sps_trace_builder_intern_callsite (b, main_cs, frames[1]);
  work_cs = sps_trace_builder_intern_callsite (b, run_cs, frames[2]);
  raw_run_cs = sps_trace_builder_intern_callsite (b, SPS_NO_INDEX, frames[1]);
  raw_work_cs = sps_trace_builder_intern_callsite (b, raw_run_cs, frames[2]);

  for (guint k = 0; k < 4; k++)
    {
      sps_trace_builder_add_sample (b, thread, k * 10, cpu, k < 2 ? work_cs : run_cs, 0, NAN,
                                    SPS_WEIGHT_UNIT_NONE, SPS_SAMPLE_NONE);
      sps_trace_builder_add_raw_sample (b, thread, k * 10, cpu, k < 2 ? raw_work_cs : run_cs, 0, NAN,
                                        SPS_WEIGHT_UNIT_NONE, SPS_SAMPLE_NONE);
    }

  return sps_test_finish (b);
}

static void
init_box (SpsSelection *box,
          SpsTrace     *trace,
          guint         depth,
          guint32       callsite,
          SpsTime       end)
{
  sps_selection_init_none (box);
  box->kind = SPS_SELECTION_STACK_BOX;
  box->track = sps_trace_get_samples (trace)->track[0];
  box->depth = depth;
  box->callsite = callsite;
  box->first_sample = 0;
  box->n_samples = end == 40 ? 4 : 2;
  box->start = 0;
  box->end = end;
}

/* A selected box follows the raw/repaired switch: found again in the
 * table now shown (the box of the same frame at its start, at the nearest
 * depth), or cleared when that table has no such box. */
static void
test_box_follows_raw_switch (void)
{
  g_autoptr(SpsTrace) trace = make_repaired_trace ();
  g_autoptr(SpsSession) session = sps_session_new (trace);
  const SpsSampleTable *samples = sps_trace_get_samples (trace);
  const SpsSampleTable *raw = sps_trace_get_raw_samples (trace);
  const SpsCallsiteTable *callsites = sps_trace_get_callsites (trace);
  guint32 work_cs = samples->callsite[0];
  guint32 main_cs = callsites->parent[callsites->parent[work_cs]];
  const SpsSelection *sel;
  SpsSelection box;
  guint changed = 0;

  g_assert_cmpuint (raw->n_rows, ==, 4);
  g_assert_cmpuint (raw->callsite[0], !=, work_cs);
  g_signal_connect_swapped (session, "selection-changed", G_CALLBACK (count), &changed);

  /* Work at depth 2 of the repaired chart is Work at depth 1 of the raw
   * one: samples 0 and 1, [0, 20) */
  init_box (&box, trace, 2, work_cs, 20);
  sps_session_set_selection (session, &box);
  sps_session_set_raw_stacks (session, TRUE);
  sel = sps_session_get_selection (session);
  g_assert_cmpint (sel->kind, ==, SPS_SELECTION_STACK_BOX);
  g_assert_true (sel->raw);
  g_assert_cmpuint (sel->depth, ==, 1);
  g_assert_cmpuint (sel->callsite, ==, raw->callsite[0]);
  g_assert_cmpuint (sel->first_sample, ==, 0);
  g_assert_cmpuint (sel->n_samples, ==, 2);
  g_assert_cmpint (sel->start, ==, 0);
  g_assert_cmpint (sel->end, ==, 20);
  g_assert_cmpuint (changed, ==, 2);

  /* And back: the repaired box as it was selected */
  sps_session_set_raw_stacks (session, FALSE);
  g_assert_true (sps_selection_equal (sps_session_get_selection (session), &box));
  g_assert_cmpuint (changed, ==, 3);

  /* Main over all four samples: at time 0 the raw stacks have no Main
   * (they start at Run), so the selection goes */
  init_box (&box, trace, 0, main_cs, 40);
  sps_session_set_selection (session, &box);
  g_assert_cmpint (sps_session_get_selection (session)->kind, ==, SPS_SELECTION_STACK_BOX);
  sps_session_set_raw_stacks (session, TRUE);
  g_assert_cmpint (sps_session_get_selection (session)->kind, ==, SPS_SELECTION_NONE);
  g_assert_cmpuint (changed, ==, 5);

  /* Other kinds of selection stay as they are */
  sps_session_select_sample (session, 1);
  sps_session_set_raw_stacks (session, FALSE);
  g_assert_cmpint (sps_session_get_selection (session)->kind, ==, SPS_SELECTION_SAMPLE);
  g_assert_cmpuint (sps_session_get_selection (session)->index, ==, 1);
  g_assert_cmpuint (changed, ==, 6);
}

/* Items the trace does not have are refused and change nothing */
static void
test_refused (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr(SpsTrace) trace = make_trace ();
      g_autoptr(SpsSession) session = sps_session_new (trace);
      SpsSelection box;

      sps_selection_init_none (&box);
      box.kind = SPS_SELECTION_STACK_BOX;
      box.track = sps_trace_get_samples (trace)->track[0];
      box.callsite = 0;
      box.first_sample = 1;
      box.n_samples = 2;  /* rows 1 and 2: the table has 2 rows */
      sps_session_set_selection (session, &box);
      return;
    }

  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*CRITICAL*normalise*");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/gtk/session/selection/kinds", test_kinds);
  g_test_add_func ("/gtk/session/selection/box-and-fit", test_box_and_fit);
  g_test_add_func ("/gtk/session/selection/refused", test_refused);
  g_test_add_func ("/gtk/session/selection/box-follows-raw-switch", test_box_follows_raw_switch);

  return g_test_run ();
}
