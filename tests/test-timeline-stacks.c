/* test-timeline-stacks.c: the boxes of the stack charts of samples, their
 * rows, hit test and tooltip, without a display
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>

#include <spanscope-core.h>

#include "sps-timeline-private.h"

#include "sps-test-util.h"

typedef struct
{
  SpsTrace          *trace;
  SpsSession        *session;
  SpsTimelineStacks *stacks;
  SpsTimelineLayout *layout;
  guint32            track;
} StackFixture;

/* One thread, samples every 100 ns, each weighing 1 ms:
 *
 *   t    100    200    300    400  500    600
 *        A>B>C  A>B>C  A>B>D  A>E  A>B>C  (no stack)
 *
 * By hand, a box runs from its first sample to the next sample that
 * does not share its prefix at its depth:
 *   depth 0: A [100, 600) 5 samples (the stackless sample at 600 ends it)
 *   depth 1: B [100, 400) 3, E [400, 500) 1, B [500, 600) 1
 *   depth 2: C [100, 300) 2, D [300, 400) 1, C [500, 600) 1
 * The second B is a box of its own: E came between. */
static void
stack_fixture_set_up (StackFixture  *f,
                      gconstpointer  data)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  guint32 process = sps_trace_builder_ensure_process (builder, 1);
  guint32 thread = sps_trace_builder_ensure_thread (builder, process, 1);
  guint32 frame[5];
  guint32 a, ab, abc, abd, ae;
  const char *names[] = { "A", "B", "C", "D", "E" };
  const SpsTrackTable *tracks;

  for (guint i = 0; i < G_N_ELEMENTS (frame); i++)
    frame[i] = sps_trace_builder_intern_frame (builder, sps_trace_builder_intern (builder, names[i], -1), 0, 0, i + 1);
  a = sps_trace_builder_intern_callsite (builder, SPS_NO_INDEX, frame[0]);
  ab = sps_trace_builder_intern_callsite (builder, a, frame[1]);
  abc = sps_trace_builder_intern_callsite (builder, ab, frame[2]);
  abd = sps_trace_builder_intern_callsite (builder, ab, frame[3]);
  ae = sps_trace_builder_intern_callsite (builder, a, frame[4]);

  {
    const guint32 stacks[] = { abc, abc, abd, ae, abc, SPS_NO_INDEX };

    for (guint i = 0; i < G_N_ELEMENTS (stacks); i++)
      sps_trace_builder_add_sample (builder, thread, 100 * (i + 1), sps_trace_builder_intern (builder, "leaf", -1),
                                    stacks[i], 0, 1.0, SPS_WEIGHT_UNIT_MS, SPS_SAMPLE_HAS_WEIGHT);
  }

  f->trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);
  f->session = sps_session_new (f->trace);
  f->stacks = _sps_timeline_stacks_new (f->trace, sps_trace_get_samples (f->trace));
  f->layout = _sps_timeline_layout_new (f->trace, NULL);

  tracks = sps_trace_get_tracks (f->trace);
  f->track = SPS_NO_INDEX;
  for (guint t = 0; t < tracks->n_rows; t++)
    if (tracks->kind[t] == SPS_TRACK_THREAD_SAMPLES)
      f->track = t;
  g_assert_cmpuint (f->track, !=, SPS_NO_INDEX);
}

static void
stack_fixture_tear_down (StackFixture  *f,
                         gconstpointer  data)
{
  g_clear_pointer (&f->layout, _sps_timeline_layout_free);
  g_clear_pointer (&f->stacks, _sps_timeline_stacks_free);
  g_clear_object (&f->session);
  g_clear_object (&f->trace);
}

typedef struct
{
  SpsTime     start;
  SpsTime     end;
  const char *name;
  guint       n_samples;
} ExpectedBox;

static void
assert_boxes (StackFixture      *f,
              guint              depth,
              const ExpectedBox *expected,
              guint              n_expected)
{
  const SpsCallsiteTable *callsites = sps_trace_get_callsites (f->trace);
  const SpsFrameTable *frames = sps_trace_get_frames (f->trace);
  guint n;
  const SpsTimelineStackBox *boxes = _sps_timeline_stacks_get_boxes (f->stacks, f->track, depth, &n);

  g_assert_cmpuint (n, ==, n_expected);
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpint (boxes[i].start, ==, expected[i].start);
      g_assert_cmpint (boxes[i].end, ==, expected[i].end);
      g_assert_cmpstr (sps_trace_get_string (f->trace, frames->name[callsites->frame[boxes[i].callsite]]), ==,
                       expected[i].name);
      g_assert_cmpuint (boxes[i].n_samples, ==, expected[i].n_samples);
    }
}

static void
test_boxes (StackFixture  *f,
            gconstpointer  data)
{
  const ExpectedBox depth0[] = { { 100, 600, "A", 5 } };
  const ExpectedBox depth1[] = { { 100, 400, "B", 3 }, { 400, 500, "E", 1 }, { 500, 600, "B", 1 } };
  const ExpectedBox depth2[] = { { 100, 300, "C", 2 }, { 300, 400, "D", 1 }, { 500, 600, "C", 1 } };
  guint n;

  g_assert_cmpuint (_sps_timeline_stacks_get_n_depths (f->stacks, f->track), ==, 3);
  assert_boxes (f, 0, depth0, G_N_ELEMENTS (depth0));
  assert_boxes (f, 1, depth1, G_N_ELEMENTS (depth1));
  assert_boxes (f, 2, depth2, G_N_ELEMENTS (depth2));
  g_assert_null (_sps_timeline_stacks_get_boxes (f->stacks, f->track, 3, &n));
  g_assert_cmpuint (n, ==, 0);
  g_assert_cmpuint (_sps_timeline_stacks_track_depth (f->trace, f->track), ==, 3);
}

/* The last sample of a thread has a stack: its boxes end one sampling
 * gap (the last one, 50 ns) after it. */
static void
test_last_box (void)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsTimelineStacks) stacks = NULL;
  guint32 process = sps_trace_builder_ensure_process (builder, 1);
  guint32 thread = sps_trace_builder_ensure_thread (builder, process, 1);
  guint32 name = sps_trace_builder_intern (builder, "main", -1);
  guint32 main_site = sps_trace_builder_intern_callsite (builder, SPS_NO_INDEX,
                                                         sps_trace_builder_intern_frame (builder, name, 0, 0, 1));
  const SpsTimelineStackBox *boxes;
  guint n;

  sps_trace_builder_add_sample (builder, thread, 1000, name, main_site, 0, NAN, SPS_WEIGHT_UNIT_NONE, SPS_SAMPLE_NONE);
  sps_trace_builder_add_sample (builder, thread, 1200, name, main_site, 0, NAN, SPS_WEIGHT_UNIT_NONE, SPS_SAMPLE_NONE);
  sps_trace_builder_add_sample (builder, thread, 1250, name, main_site, 0, NAN, SPS_WEIGHT_UNIT_NONE, SPS_SAMPLE_NONE);
  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);
  stacks = _sps_timeline_stacks_new (trace, sps_trace_get_samples (trace));

  for (guint t = 0; t < sps_trace_get_tracks (trace)->n_rows; t++)
    if (sps_trace_get_tracks (trace)->kind[t] == SPS_TRACK_THREAD_SAMPLES)
      {
        boxes = _sps_timeline_stacks_get_boxes (stacks, t, 0, &n);
        g_assert_cmpuint (n, ==, 1);
        g_assert_cmpint (boxes[0].start, ==, 1000);
        g_assert_cmpint (boxes[0].end, ==, 1300);
        g_assert_cmpuint (boxes[0].n_samples, ==, 3);
        return;
      }
  g_assert_not_reached ();
}

/* Below the thread's samples row, a row per depth */
static void
test_rows (StackFixture  *f,
           gconstpointer  data)
{
  guint samples_row = _sps_timeline_layout_find_track_row (f->layout, f->track, 0);
  const SpsTimelineRow *row;

  g_assert_cmpuint (samples_row, !=, SPS_NO_INDEX);
  g_assert_cmpuint (_sps_timeline_layout_get_row (f->layout, samples_row)->kind, ==, SPS_TIMELINE_ROW_SAMPLES);
  g_assert_cmpuint (_sps_timeline_layout_get_n_rows (f->layout), ==, samples_row + 4);
  for (guint d = 0; d < 3; d++)
    {
      row = _sps_timeline_layout_get_row (f->layout, samples_row + 1 + d);
      g_assert_cmpuint (row->kind, ==, SPS_TIMELINE_ROW_STACK);
      g_assert_cmpuint (row->depth, ==, d);
      g_assert_cmpuint (row->track, ==, f->track);
      g_assert_true (_sps_timeline_painter_for_row (row) == &_sps_timeline_stack_painter);
    }

  /* Collapsing the process takes the chart away; the samples row, the
   * first lane of its only thread, stays as its representative lane */
  _sps_timeline_layout_set_process_collapsed (f->layout, sps_trace_get_tracks (f->trace)->process[f->track], TRUE);
  g_assert_cmpuint (_sps_timeline_layout_get_n_rows (f->layout), ==, samples_row + 1);
  g_assert_cmpuint (_sps_timeline_layout_get_row (f->layout, samples_row)->kind, ==, SPS_TIMELINE_ROW_SAMPLES);
}

/* 100 px of gutter, 1 ns a pixel from time 0: x = 100 + t */
static void
test_hit_test (StackFixture  *f,
               gconstpointer  data)
{
  SpsTimelineSource source = { f->trace, f->session, NULL, f->stacks };
  SpsTimelineGeometry g = {
    .width = 1100, .height = 400, .gutter = 100, .track_width = 1000, .ruler_height = 20,
    .scale = 1, .start = 0, .end = 1000, .ns_per_px = 1.0,
  };
  SpsTimelineRow row = { .kind = SPS_TIMELINE_ROW_STACK, .track = f->track, .height = 20 };
  g_autofree char *markup = NULL;

  row.depth = 2;
  /* D [300, 400) is box 1 of depth 2; nothing at 450 there (E has no
   * child), C again at 599, nothing past 600 */
  g_assert_cmpuint (_sps_timeline_painter_hit_test (&_sps_timeline_stack_painter, &source, &g, &row, 100 + 350, 0), ==, 1);
  g_assert_cmpuint (_sps_timeline_painter_hit_test (&_sps_timeline_stack_painter, &source, &g, &row, 100 + 450, 0), ==, SPS_NO_INDEX);
  g_assert_cmpuint (_sps_timeline_painter_hit_test (&_sps_timeline_stack_painter, &source, &g, &row, 100 + 599, 0), ==, 2);
  g_assert_cmpuint (_sps_timeline_painter_hit_test (&_sps_timeline_stack_painter, &source, &g, &row, 100 + 600, 0), ==, SPS_NO_INDEX);
  g_assert_cmpuint (_sps_timeline_painter_hit_test (&_sps_timeline_stack_painter, &source, &g, &row, 100 + 99, 0), ==, SPS_NO_INDEX);

  row.depth = 1;
  g_assert_cmpuint (_sps_timeline_painter_hit_test (&_sps_timeline_stack_painter, &source, &g, &row, 100 + 450, 0), ==, 1);

  /* The first B: 3 samples of 1 ms each, from 100 to 300 ns (the trace
   * starts at 100: 0 to 200 ns from its start), spanning [100, 400) */
  markup = _sps_timeline_painter_tooltip (&_sps_timeline_stack_painter, &source, &g, &row, 100 + 150, 0);
  g_assert_cmpstr (markup, ==, "<b>B</b>\n3 samples over 300 ns\nEstimated CPU: 3 ms\nFirst sample at 0 ns, last at 200 ns");
}

/* The stack rows of each thread: "tid:lanes" in row order, e.g. "7:2 8:2" */
static char *
stack_rows (SpsTrace          *trace,
            SpsTimelineLayout *layout)
{
  const SpsThreadTable *threads = sps_trace_get_threads (trace);
  GString *out = g_string_new (NULL);
  guint32 thread = SPS_NO_INDEX;
  guint lanes = 0;

  for (guint i = 0; i <= _sps_timeline_layout_get_n_rows (layout); i++)
    {
      const SpsTimelineRow *row = i < _sps_timeline_layout_get_n_rows (layout) ? _sps_timeline_layout_get_row (layout, i) : NULL;

      if (row != NULL && row->kind != SPS_TIMELINE_ROW_STACK)
        continue;
      if (thread != SPS_NO_INDEX && (row == NULL || row->thread != thread))
        {
          g_string_append_printf (out, "%s%" G_GINT64_FORMAT ":%u", out->len > 0 ? " " : "", threads->tid[thread], lanes);
          lanes = 0;
        }
      if (row == NULL)
        break;
      thread = row->thread;
      lanes++;
    }

  return g_string_free (out, FALSE);
}

/* The charts follow what hides samples: the idle process (pid 0, which
 * importers mark hidden) has no chart until shown, a hidden thread or
 * process loses its chart, a collapsed process too. Each thread samples
 * A>B twice, so its chart has 2 lanes. */
static void
test_filters (void)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsSession) session = NULL;
  g_autoptr(SpsTimelineLayout) layout = NULL;
  g_autofree char *rows = NULL;
  guint32 idle = sps_trace_builder_ensure_process (b, 0);
  guint32 app = sps_trace_builder_ensure_process (b, 5);
  guint32 threads[] = {
    sps_trace_builder_ensure_thread (b, idle, 0),
    sps_trace_builder_ensure_thread (b, app, 7),
    sps_trace_builder_ensure_thread (b, app, 8),
  };
  guint32 a = sps_trace_builder_intern (b, "A", -1);
  guint32 a_cs = sps_trace_builder_intern_callsite (b, SPS_NO_INDEX, sps_trace_builder_intern_frame (b, a, 0, 0, 1));
  guint32 ab_cs = sps_trace_builder_intern_callsite (b, a_cs,
                                                     sps_trace_builder_intern_frame (b, sps_trace_builder_intern (b, "B", -1), 0, 0, 2));
  guint32 t8 = SPS_NO_INDEX;

  for (guint t = 0; t < G_N_ELEMENTS (threads); t++)
    for (guint k = 0; k < 2; k++)
      sps_trace_builder_add_sample (b, threads[t], 100 * k + t, a, ab_cs, 0, NAN, SPS_WEIGHT_UNIT_NONE, SPS_SAMPLE_NONE);
  sps_trace_builder_set_process_display (b, idle, SPS_PROCESS_DISPLAY_HIDDEN);
  trace = sps_trace_builder_finish (b, NULL, &error);
  g_assert_no_error (error);

  session = sps_session_new (trace);
  layout = _sps_timeline_layout_new (trace, sps_session_get_view_filter (session));
  _sps_timeline_layout_sync_filters (layout, session);
  rows = stack_rows (trace, layout);
  g_assert_cmpstr (rows, ==, "7:2 8:2");
  g_clear_pointer (&rows, g_free);

  for (guint i = 0; i < sps_trace_get_threads (trace)->n_rows; i++)
    if (sps_trace_get_threads (trace)->tid[i] == 8)
      t8 = i;
  sps_session_set_thread_hidden (session, t8, TRUE);
  _sps_timeline_layout_sync_filters (layout, session);
  rows = stack_rows (trace, layout);
  g_assert_cmpstr (rows, ==, "7:2");
  g_clear_pointer (&rows, g_free);

  /* Show everything: the idle process's chart comes first (pid 0) */
  sps_session_show_all (session);
  _sps_timeline_layout_sync_filters (layout, session);
  rows = stack_rows (trace, layout);
  g_assert_cmpstr (rows, ==, "0:2 7:2 8:2");
  g_clear_pointer (&rows, g_free);

  _sps_timeline_layout_set_process_collapsed (layout, app, TRUE);
  rows = stack_rows (trace, layout);
  g_assert_cmpstr (rows, ==, "0:2");
}

/* The runs that reach into [@start, @end) */
static char *
runs_text_in (SpsTimelineStacks *stacks,
              guint32            track,
              guint              depth,
              guint              level,
              SpsTime            start,
              SpsTime            end)
{
  guint n;
  const SpsTimelineStackRun *runs = _sps_timeline_stacks_get_runs (stacks, track, depth, level, start, end, &n);
  GString *out = g_string_new (NULL);
  gboolean first = TRUE;

  for (guint i = 0; i < n; i++)
    if (runs[i].end > start && runs[i].start < end)
      {
        g_string_append_printf (out, "%s[%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ") box %u ×%u", first ? "" : " ",
                                runs[i].start, runs[i].end, runs[i].box, runs[i].n_boxes);
        first = FALSE;
      }
  return g_string_free (out, FALSE);
}

static char *
runs_text (SpsTimelineStacks *stacks,
           guint32            track,
           guint              depth,
           guint              level)
{
  guint n;
  const SpsTimelineStackRun *runs = _sps_timeline_stacks_get_runs (stacks, track, depth, level,
                                                                   SPS_TIME_MIN, SPS_TIME_MAX, &n);
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    g_string_append_printf (out, "%s[%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ") box %u ×%u", i > 0 ? " " : "",
                            runs[i].start, runs[i].end, runs[i].box, runs[i].n_boxes);
  return g_string_free (out, FALSE);
}

/* The lanes' levels of detail, by hand from the boxes of depth 2
 * (C [100, 300), D [300, 400), C [500, 600)): at 128 ns C (200 ns) is
 * wide, D and the second C are narrow but start in buckets 2 and 3; at
 * 256 ns all are narrow, C in bucket 0, D and C in bucket 1; at 512 ns
 * all three start in bucket 0 (and D's run takes the second C, which
 * starts in D's bucket). A level is the same whichever levels were made
 * before it. */
static void
test_runs (StackFixture  *f,
           gconstpointer  data)
{
  g_autoptr(SpsTimelineStacks) fresh = _sps_timeline_stacks_new (f->trace, sps_trace_get_samples (f->trace));
  g_autofree char *l0 = runs_text (f->stacks, f->track, 2, 0);
  g_autofree char *l7 = runs_text (f->stacks, f->track, 2, 7);
  g_autofree char *l8 = runs_text (f->stacks, f->track, 2, 8);
  g_autofree char *l9 = runs_text (f->stacks, f->track, 2, 9);
  g_autofree char *l9_fresh = runs_text (fresh, f->track, 2, 9);

  g_assert_cmpstr (l0, ==, "[100,300) box 0 ×1 [300,400) box 1 ×1 [500,600) box 2 ×1");
  g_assert_cmpstr (l7, ==, "[100,300) box 0 ×1 [300,400) box 1 ×1 [500,600) box 2 ×1");
  g_assert_cmpstr (l8, ==, "[100,300) box 0 ×1 [300,600) box 1 ×2");
  g_assert_cmpstr (l9, ==, "[100,600) box 0 ×3");
  g_assert_cmpstr (l9_fresh, ==, l9);
}

/* Levels not built, merged around the range drawn (every lane long
 * enough for it here): the hand-made runs above, the run that reaches
 * into the range whole although it starts before it, and then random
 * lanes against their built levels in random windows */
static void
test_runs_lazy (StackFixture  *f,
                gconstpointer  data)
{
  g_autoptr(SpsTimelineStacks) lazy = _sps_timeline_stacks_new (f->trace, sps_trace_get_samples (f->trace));
  g_autoptr(GRand) rng = g_rand_new_with_seed (20261207);

  _sps_timeline_stacks_set_lazy_min_boxes (lazy, 0);
  {
    g_autofree char *l9 = runs_text_in (lazy, f->track, 2, 9, 550, 560);
    g_autofree char *l8 = runs_text_in (lazy, f->track, 2, 8, 350, 360);
    g_autofree char *l7 = runs_text_in (lazy, f->track, 2, 7, 0, 1000);

    g_assert_cmpstr (l9, ==, "[100,600) box 0 ×3");
    g_assert_cmpstr (l8, ==, "[300,600) box 1 ×2");
    g_assert_cmpstr (l7, ==, "[100,300) box 0 ×1 [300,400) box 1 ×1 [500,600) box 2 ×1");
  }

  for (guint round = 0; round < 4; round++)
    {
      g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
      g_autoptr(SpsTrace) trace = NULL;
      g_autoptr(SpsTimelineStacks) built = NULL;
      g_autoptr(SpsTimelineStacks) merged = NULL;
      g_autoptr(GError) error = NULL;
      guint32 thread = sps_trace_builder_ensure_thread (b, sps_trace_builder_ensure_process (b, 1), 1);
      guint32 callsites[12];
      guint32 track = 0;
      SpsTime ts = 0;

      /* Six frames in a tree of callsites two and three deep, with names
       * shared between branches so that runs go on across buckets */
      for (guint c = 0; c < G_N_ELEMENTS (callsites); c++)
        {
          g_autofree char *name = g_strdup_printf ("f%u", c % 6);
          guint32 frame = sps_trace_builder_intern_frame (b, sps_trace_builder_intern (b, name, -1), 0, 0, c + 1);

          callsites[c] = sps_trace_builder_intern_callsite (b, c < 3 ? SPS_NO_INDEX : callsites[c % 3], frame);
        }
      for (guint i = 0; i < 6000; i++)
        {
          ts += g_rand_boolean (rng) ? g_rand_int_range (rng, 1, 8) : g_rand_int_range (rng, 1, 3000);
          sps_trace_builder_add_sample (b, thread, ts, 0, callsites[g_rand_int_range (rng, 0, G_N_ELEMENTS (callsites))],
                                        0, NAN, SPS_WEIGHT_UNIT_NONE, SPS_SAMPLE_NONE);
        }
      trace = sps_trace_builder_finish (b, NULL, &error);
      g_assert_no_error (error);
      for (guint t = 0; t < sps_trace_get_tracks (trace)->n_rows; t++)
        if (sps_trace_get_tracks (trace)->kind[t] == SPS_TRACK_THREAD_SAMPLES)
          track = t;

      built = _sps_timeline_stacks_new (trace, sps_trace_get_samples (trace));
      merged = _sps_timeline_stacks_new (trace, sps_trace_get_samples (trace));
      _sps_timeline_stacks_set_lazy_min_boxes (merged, 0);
      for (guint depth = 0; depth < 2; depth++)
        for (guint level = 0; level < 20; level++)
          for (guint w = 0; w < 30; w++)
            {
              SpsTime a = g_rand_int_range (rng, -1000, (gint32) ts + 1000);
              SpsTime z = a + 1 + g_rand_int_range (rng, 0, w < 15 ? 5000 : 500000);
              g_autofree char *expected = runs_text_in (built, track, depth, level, a, z);
              g_autofree char *got = runs_text_in (merged, track, depth, level, a, z);

              g_assert_cmpstr (got, ==, expected);
            }
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/gtk/timeline/stacks/boxes", StackFixture, NULL,
              stack_fixture_set_up, test_boxes, stack_fixture_tear_down);
  g_test_add_func ("/gtk/timeline/stacks/last-box", test_last_box);
  g_test_add_func ("/gtk/timeline/stacks/filters", test_filters);
  g_test_add ("/gtk/timeline/stacks/runs", StackFixture, NULL,
              stack_fixture_set_up, test_runs, stack_fixture_tear_down);
  g_test_add ("/gtk/timeline/stacks/runs-lazy", StackFixture, NULL,
              stack_fixture_set_up, test_runs_lazy, stack_fixture_tear_down);
  g_test_add ("/gtk/timeline/stacks/rows", StackFixture, NULL,
              stack_fixture_set_up, test_rows, stack_fixture_tear_down);
  g_test_add ("/gtk/timeline/stacks/hit-test", StackFixture, NULL,
              stack_fixture_set_up, test_hit_test, stack_fixture_tear_down);

  return g_test_run ();
}
