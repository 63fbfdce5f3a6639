/* test-timeline-layout.c: the rows of the timeline
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>

#include <spanscope-core.h>

#include "sps-timeline-layout-private.h"

#include "sps-test-util.h"

typedef struct
{
  SpsTrace *trace;
  guint32   process[5];     /* pids 10, 20, 30, 40, 50 */
  guint32   thread[4];      /* tids 1, 2, 3, 4 of pid 10 */
  guint32   other_thread[3];/* the threads of pids 20, 30, 40 */
} Fixture;

static guint32
intern (SpsTraceBuilder *builder,
        const char      *str)
{
  return sps_trace_builder_intern (builder, str, -1);
}

/* pid 10 (sort index 5): tid 2 (sort index 1) with three nested slices, a
 * sampled span and an instant; tid 1 (sort index 2) with a slice and a
 * sample; tid 3 (no sort index) with a slice; tid 4 with nothing. Then an
 * async slice, a process instant and a counter. pid 20 (sort index 5),
 * pid 30 (none) and pid 40 (-1) have one slice each; pid 50 only a name.
 * One global instant. */
static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  static const gint64 pids[] = { 10, 20, 30, 40, 50 };
  guint32 counter;

  for (guint i = 0; i < G_N_ELEMENTS (pids); i++)
    {
      g_autofree char *name = g_strdup_printf ("proc%" G_GINT64_FORMAT, pids[i]);

      fixture->process[i] = sps_trace_builder_ensure_process (b, pids[i]);
      sps_trace_builder_set_process_name (b, fixture->process[i], intern (b, name));
    }
  sps_trace_builder_set_process_sort_index (b, fixture->process[0], 5);
  sps_trace_builder_set_process_sort_index (b, fixture->process[1], 5);
  sps_trace_builder_set_process_sort_index (b, fixture->process[3], -1);

  for (guint i = 0; i < 4; i++)
    fixture->thread[i] = sps_trace_builder_ensure_thread (b, fixture->process[0], i + 1);
  sps_trace_builder_set_thread_sort_index (b, fixture->thread[0], 2);
  sps_trace_builder_set_thread_sort_index (b, fixture->thread[1], 1);

  sps_trace_builder_add_complete (b, fixture->thread[1], 0, 100, intern (b, "a"), 0, 0, SPS_SLICE_NONE);
  sps_trace_builder_add_complete (b, fixture->thread[1], 10, 50, intern (b, "b"), 0, 0, SPS_SLICE_NONE);
  sps_trace_builder_add_complete (b, fixture->thread[1], 20, 10, intern (b, "c"), 0, 0, SPS_SLICE_NONE);
  sps_trace_builder_add_complete (b, fixture->thread[1], 0, 40, intern (b, "s"), 0, 0, SPS_SLICE_SAMPLED);
  sps_trace_builder_add_instant (b, SPS_INSTANT_KIND_INSTANT, SPS_INSTANT_SCOPE_THREAD,
                                 fixture->process[0], fixture->thread[1], 5, intern (b, "i"), 0, 0);
  sps_trace_builder_add_complete (b, fixture->thread[0], 0, 30, intern (b, "d"), 0, 0, SPS_SLICE_NONE);
  sps_trace_builder_add_sample (b, fixture->thread[0], 7, intern (b, "sample"), SPS_NO_INDEX, 0,
                                NAN, SPS_WEIGHT_UNIT_NONE, SPS_SAMPLE_UNRESOLVED);
  sps_trace_builder_add_complete (b, fixture->thread[2], 0, 30, intern (b, "e"), 0, 0, SPS_SLICE_NONE);

  sps_trace_builder_add_async (b, SPS_ASYNC_BEGIN, fixture->process[0], 1, 10, intern (b, "op"), 0, 0);
  sps_trace_builder_add_async (b, SPS_ASYNC_END, fixture->process[0], 1, 90, intern (b, "op"), 0, 0);
  sps_trace_builder_add_instant (b, SPS_INSTANT_KIND_INSTANT, SPS_INSTANT_SCOPE_PROCESS,
                                 fixture->process[0], SPS_NO_INDEX, 15, intern (b, "pi"), 0, 0);
  counter = sps_trace_builder_ensure_counter_track (b, fixture->process[0], intern (b, "mem"), 0);
  sps_trace_builder_add_counter_value (b, counter, 0, 1.0);
  sps_trace_builder_add_instant (b, SPS_INSTANT_KIND_INSTANT, SPS_INSTANT_SCOPE_GLOBAL,
                                 SPS_NO_INDEX, SPS_NO_INDEX, 50, intern (b, "g"), 0, 0);

  for (guint i = 0; i < 3; i++)
    {
      fixture->other_thread[i] = sps_trace_builder_ensure_thread (b, fixture->process[i + 1], 100 + i);
      sps_trace_builder_add_complete (b, fixture->other_thread[i], 0, 10, intern (b, "x"), 0, 0, SPS_SLICE_NONE);
    }

  fixture->trace = sps_trace_builder_finish (b, NULL, &error);
  g_assert_no_error (error);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_clear_object (&fixture->trace);
}

typedef struct
{
  SpsTimelineRowKind kind;
  guint8             flags;
  guint16            depth;
  guint32            process;
  guint32            thread;
  SpsTrackKind       track_kind;
  int                y;
  int                height;
} ExpectedRow;

#define NONE SPS_NO_INDEX

static void
check_rows (Fixture           *fixture,
            SpsTimelineLayout *layout,
            const ExpectedRow *expected,
            guint              n_expected,
            int                height)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (fixture->trace);

  g_assert_cmpuint (_sps_timeline_layout_get_n_rows (layout), ==, n_expected);
  g_assert_cmpint (_sps_timeline_layout_get_height (layout), ==, height);

  for (guint i = 0; i < n_expected; i++)
    {
      const SpsTimelineRow *row = _sps_timeline_layout_get_row (layout, i);

      g_test_message ("row %u", i);
      g_assert_cmpint (row->kind, ==, expected[i].kind);
      g_assert_cmpint (row->flags, ==, expected[i].flags);
      g_assert_cmpint (row->depth, ==, expected[i].depth);
      g_assert_cmpuint (row->process, ==, expected[i].process);
      g_assert_cmpuint (row->thread, ==, expected[i].thread);
      g_assert_cmpint (row->y, ==, expected[i].y);
      g_assert_cmpint (row->height, ==, expected[i].height);
      if (row->kind == SPS_TIMELINE_ROW_PROCESS)
        {
          g_assert_cmpuint (row->track, ==, SPS_NO_INDEX);
        }
      else
        {
          g_assert_cmpuint (row->track, <, tracks->n_rows);
          g_assert_cmpint (tracks->kind[row->track], ==, expected[i].track_kind);
          g_assert_cmpuint (tracks->process[row->track], ==, row->process);
          g_assert_cmpuint (tracks->thread[row->track], ==, row->thread);
        }
    }
}

static void
test_rows (Fixture       *fixture,
           gconstpointer  data)
{
  g_autoptr(SpsTimelineLayout) layout = _sps_timeline_layout_new (fixture->trace, NULL);
  guint32 *p = fixture->process;
  guint32 *t = fixture->thread;
  guint32 *o = fixture->other_thread;
  const guint8 F = SPS_TIMELINE_ROW_FIRST;
  /* Order: pid 40 (-1), 10 and 20 (5, by pid), 30 (none); pid 50 has
   * nothing to show. In pid 10: tid 2, tid 1, tid 3; tid 4 is empty. */
  const ExpectedRow expected[] = {
    { SPS_TIMELINE_ROW_INSTANTS, F, 0, NONE, NONE, SPS_TRACK_GLOBAL_INSTANTS, 0, 20 },
    { SPS_TIMELINE_ROW_PROCESS, F, 0, p[3], NONE, 0, 20, 24 },
    { SPS_TIMELINE_ROW_SLICES, F, 0, p[3], o[2], SPS_TRACK_THREAD_SLICES, 44, 20 },
    { SPS_TIMELINE_ROW_PROCESS, F, 0, p[0], NONE, 0, 64, 24 },
    { SPS_TIMELINE_ROW_SLICES, F, 0, p[0], t[1], SPS_TRACK_THREAD_SLICES, 88, 20 },
    { SPS_TIMELINE_ROW_SLICES, 0, 1, p[0], t[1], SPS_TRACK_THREAD_SLICES, 108, 20 },
    { SPS_TIMELINE_ROW_SLICES, 0, 2, p[0], t[1], SPS_TRACK_THREAD_SLICES, 128, 20 },
    { SPS_TIMELINE_ROW_SLICES, F, 0, p[0], t[1], SPS_TRACK_THREAD_SAMPLED_SLICES, 148, 20 },
    { SPS_TIMELINE_ROW_INSTANTS, F, 0, p[0], t[1], SPS_TRACK_THREAD_INSTANTS, 168, 20 },
    { SPS_TIMELINE_ROW_SLICES, F, 0, p[0], t[0], SPS_TRACK_THREAD_SLICES, 188, 20 },
    { SPS_TIMELINE_ROW_SAMPLES, F, 0, p[0], t[0], SPS_TRACK_THREAD_SAMPLES, 208, 20 },
    { SPS_TIMELINE_ROW_SLICES, F, 0, p[0], t[2], SPS_TRACK_THREAD_SLICES, 228, 20 },
    { SPS_TIMELINE_ROW_SLICES, F, 0, p[0], NONE, SPS_TRACK_ASYNC, 248, 20 },
    { SPS_TIMELINE_ROW_INSTANTS, F, 0, p[0], NONE, SPS_TRACK_PROCESS_INSTANTS, 268, 20 },
    { SPS_TIMELINE_ROW_COUNTER, F, 0, p[0], NONE, SPS_TRACK_COUNTER, 288, 40 },
    { SPS_TIMELINE_ROW_PROCESS, F, 0, p[1], NONE, 0, 328, 24 },
    { SPS_TIMELINE_ROW_SLICES, F, 0, p[1], o[0], SPS_TRACK_THREAD_SLICES, 352, 20 },
    { SPS_TIMELINE_ROW_PROCESS, F, 0, p[2], NONE, 0, 372, 24 },
    { SPS_TIMELINE_ROW_SLICES, F, 0, p[2], o[1], SPS_TRACK_THREAD_SLICES, 396, 20 },
  };

  check_rows (fixture, layout, expected, G_N_ELEMENTS (expected), 416);

  g_assert_cmpuint (_sps_timeline_layout_find_process_row (layout, p[0]), ==, 3);
  g_assert_cmpuint (_sps_timeline_layout_find_process_row (layout, p[2]), ==, 17);
  g_assert_cmpuint (_sps_timeline_layout_find_process_row (layout, p[4]), ==, SPS_NO_INDEX);
}

static void
test_collapse (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(SpsTimelineLayout) layout = _sps_timeline_layout_new (fixture->trace, NULL);
  guint32 *p = fixture->process;
  guint32 *t = fixture->thread;
  guint32 *o = fixture->other_thread;
  const guint8 F = SPS_TIMELINE_ROW_FIRST;
  const guint8 C = SPS_TIMELINE_ROW_COLLAPSED;
  const ExpectedRow expected[] = {
    { SPS_TIMELINE_ROW_INSTANTS, F, 0, NONE, NONE, SPS_TRACK_GLOBAL_INSTANTS, 0, 20 },
    { SPS_TIMELINE_ROW_PROCESS, F, 0, p[3], NONE, 0, 20, 24 },
    { SPS_TIMELINE_ROW_SLICES, F, 0, p[3], o[2], SPS_TRACK_THREAD_SLICES, 44, 20 },
    { SPS_TIMELINE_ROW_PROCESS, F | C, 0, p[0], NONE, 0, 64, 24 },
    /* The representative lane: depth 0 of pid 10's first thread, tid 2 */
    { SPS_TIMELINE_ROW_SLICES, F, 0, p[0], t[1], SPS_TRACK_THREAD_SLICES, 88, 20 },
    { SPS_TIMELINE_ROW_PROCESS, F, 0, p[1], NONE, 0, 108, 24 },
    { SPS_TIMELINE_ROW_SLICES, F, 0, p[1], o[0], SPS_TRACK_THREAD_SLICES, 132, 20 },
    { SPS_TIMELINE_ROW_PROCESS, F | C, 0, p[2], NONE, 0, 152, 24 },
    { SPS_TIMELINE_ROW_SLICES, F, 0, p[2], o[1], SPS_TRACK_THREAD_SLICES, 176, 20 },
  };

  g_assert_cmpuint (_sps_timeline_layout_find_slice_row (layout, sps_test_find_slice (fixture->trace, "c", 0)), ==, 6);
  g_assert_cmpuint (_sps_timeline_layout_find_slice_row (layout, sps_test_find_slice (fixture->trace, "s", 0)), ==, 7);
  g_assert_cmpuint (_sps_timeline_layout_find_slice_row (layout, sps_test_find_slice (fixture->trace, "op", 0)), ==, 12);

  g_assert_true (_sps_timeline_layout_set_process_collapsed (layout, p[0], TRUE));
  g_assert_false (_sps_timeline_layout_set_process_collapsed (layout, p[0], TRUE));
  g_assert_true (_sps_timeline_layout_set_process_collapsed (layout, p[2], TRUE));
  g_assert_true (_sps_timeline_layout_get_process_collapsed (layout, p[0]));
  g_assert_false (_sps_timeline_layout_get_process_collapsed (layout, p[1]));

  check_rows (fixture, layout, expected, G_N_ELEMENTS (expected), 196);

  /* Hidden slices have no row; a, on the representative lane, has; the
   * others moved. */
  g_assert_cmpuint (_sps_timeline_layout_find_slice_row (layout, sps_test_find_slice (fixture->trace, "c", 0)), ==, SPS_NO_INDEX);
  g_assert_cmpuint (_sps_timeline_layout_find_slice_row (layout, sps_test_find_slice (fixture->trace, "op", 0)), ==, SPS_NO_INDEX);
  g_assert_cmpuint (_sps_timeline_layout_find_slice_row (layout, sps_test_find_slice (fixture->trace, "a", 0)), ==, 4);
  g_assert_cmpuint (_sps_timeline_layout_find_process_row (layout, p[1]), ==, 5);

  /* pid 30's one lane is its representative lane: collapsed or not, 19 rows */
  g_assert_true (_sps_timeline_layout_set_process_collapsed (layout, p[0], FALSE));
  g_assert_cmpuint (_sps_timeline_layout_get_n_rows (layout), ==, 19);
  g_assert_cmpuint (_sps_timeline_layout_find_slice_row (layout, sps_test_find_slice (fixture->trace, "c", 0)), ==, 6);
}

/* Filters: hiding tid 2 of pid 10 and all of pid 40 removes their rows
 * (pid 40 loses its header too); the rows below move up. Heights and
 * positions follow test_rows() with those rows taken out. */
static void
test_filters (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(SpsTimelineLayout) layout = _sps_timeline_layout_new (fixture->trace, NULL);
  g_autoptr(SpsSession) session = sps_session_new (fixture->trace);
  guint32 *p = fixture->process;
  guint32 *t = fixture->thread;
  guint32 *o = fixture->other_thread;
  const guint8 F = SPS_TIMELINE_ROW_FIRST;
  const ExpectedRow expected[] = {
    { SPS_TIMELINE_ROW_INSTANTS, F, 0, NONE, NONE, SPS_TRACK_GLOBAL_INSTANTS, 0, 20 },
    { SPS_TIMELINE_ROW_PROCESS, F, 0, p[0], NONE, 0, 20, 24 },
    { SPS_TIMELINE_ROW_SLICES, F, 0, p[0], t[0], SPS_TRACK_THREAD_SLICES, 44, 20 },
    { SPS_TIMELINE_ROW_SAMPLES, F, 0, p[0], t[0], SPS_TRACK_THREAD_SAMPLES, 64, 20 },
    { SPS_TIMELINE_ROW_SLICES, F, 0, p[0], t[2], SPS_TRACK_THREAD_SLICES, 84, 20 },
    { SPS_TIMELINE_ROW_SLICES, F, 0, p[0], NONE, SPS_TRACK_ASYNC, 104, 20 },
    { SPS_TIMELINE_ROW_INSTANTS, F, 0, p[0], NONE, SPS_TRACK_PROCESS_INSTANTS, 124, 20 },
    { SPS_TIMELINE_ROW_COUNTER, F, 0, p[0], NONE, SPS_TRACK_COUNTER, 144, 40 },
    { SPS_TIMELINE_ROW_PROCESS, F, 0, p[1], NONE, 0, 184, 24 },
    { SPS_TIMELINE_ROW_SLICES, F, 0, p[1], o[0], SPS_TRACK_THREAD_SLICES, 208, 20 },
    { SPS_TIMELINE_ROW_PROCESS, F, 0, p[2], NONE, 0, 228, 24 },
    { SPS_TIMELINE_ROW_SLICES, F, 0, p[2], o[1], SPS_TRACK_THREAD_SLICES, 252, 20 },
  };

  g_assert_false (_sps_timeline_layout_sync_filters (layout, session));
  g_assert_cmpuint (_sps_timeline_layout_get_n_rows (layout), ==, 19);

  sps_session_set_thread_hidden (session, t[1], TRUE);
  sps_session_set_process_hidden (session, p[3], TRUE);
  g_assert_true (_sps_timeline_layout_sync_filters (layout, session));
  g_assert_false (_sps_timeline_layout_sync_filters (layout, session));
  check_rows (fixture, layout, expected, G_N_ELEMENTS (expected), 272);

  g_assert_cmpuint (_sps_timeline_layout_find_slice_row (layout, sps_test_find_slice (fixture->trace, "c", 0)), ==, SPS_NO_INDEX);
  g_assert_cmpuint (_sps_timeline_layout_find_slice_row (layout, sps_test_find_slice (fixture->trace, "d", 0)), ==, 2);
  g_assert_cmpuint (_sps_timeline_layout_find_process_row (layout, p[3]), ==, SPS_NO_INDEX);

  sps_session_show_all (session);
  g_assert_true (_sps_timeline_layout_sync_filters (layout, session));
  g_assert_cmpuint (_sps_timeline_layout_get_n_rows (layout), ==, 19);
  g_assert_cmpint (_sps_timeline_layout_get_height (layout), ==, 416);
}

/* Rows follow the session's view filter: each row that is a lane of the
 * filter is found from that lane, and a collapsed process's lanes lead to
 * its representative lane (row 4, under its header, row 3: after the
 * global instants and pid 40's header and lane, as in test_rows()): the
 * first lane of its first thread, tid 2, where a is drawn and where flows
 * to its hidden slices go. */
static void
test_lanes (Fixture       *fixture,
            gconstpointer  data)
{
  g_autoptr(SpsSession) session = sps_session_new (fixture->trace);
  SpsViewFilter *filter = sps_session_get_view_filter (session);
  g_autoptr(SpsTimelineLayout) layout = _sps_timeline_layout_new (fixture->trace, filter);
  guint n_lanes = 0;

  g_assert_true (_sps_timeline_layout_get_filter (layout) == filter);
  g_assert_cmpuint (_sps_timeline_layout_get_n_rows (layout), ==, 19);
  for (guint i = 0; i < _sps_timeline_layout_get_n_rows (layout); i++)
    {
      const SpsTimelineRow *row = _sps_timeline_layout_get_row (layout, i);
      guint lane;

      if (row->kind == SPS_TIMELINE_ROW_PROCESS || row->kind == SPS_TIMELINE_ROW_STACK)
        continue;
      lane = sps_view_filter_get_track_lane (filter, row->track) + row->depth;
      g_assert_cmpuint (_sps_timeline_layout_find_lane_row (layout, lane), ==, i);
      n_lanes++;
    }
  /* 19 rows: 4 headers, no stack lane (the sample has no stack) */
  g_assert_cmpuint (n_lanes, ==, 15);
  g_assert_cmpuint (sps_view_filter_get_total_height (filter), ==, 15);
  g_assert_cmpuint (_sps_timeline_layout_find_lane_row (layout, 15), ==, SPS_NO_INDEX);

  sps_session_set_process_collapsed (session, fixture->process[0], TRUE);
  g_assert_true (_sps_timeline_layout_sync_filters (layout, session));
  g_assert_cmpuint (_sps_timeline_layout_get_n_rows (layout), ==, 7 + 1 + 1);
  g_assert_cmpuint (_sps_timeline_layout_find_slice_row (layout, sps_test_find_slice (fixture->trace, "c", 0)), ==,
                    SPS_NO_INDEX);
  g_assert_cmpuint (_sps_timeline_layout_find_slice_row (layout, sps_test_find_slice (fixture->trace, "a", 0)), ==, 4);
  g_assert_cmpuint (_sps_timeline_layout_find_lane_row (layout,
                                                        sps_view_filter_get_slice_lane (filter, sps_test_find_slice (fixture->trace, "c", 0))),
                    ==, 4);
  g_assert_cmpuint (_sps_timeline_layout_find_lane_row (layout,
                                                        sps_view_filter_get_slice_lane (filter, sps_test_find_slice (fixture->trace, "op", 0))),
                    ==, 4);
  g_assert_cmpuint (_sps_timeline_layout_get_row (layout, 3)->flags, ==,
                    SPS_TIMELINE_ROW_FIRST | SPS_TIMELINE_ROW_COLLAPSED);
  g_assert_cmpuint (_sps_timeline_layout_get_row (layout, 4)->thread, ==, fixture->thread[1]);
  g_assert_cmpuint (_sps_timeline_layout_get_row (layout, 4)->depth, ==, 0);
}

/* A collapsed thread keeps its representative lane: tid 2 of pid 10
 * (three depths, sampled spans, instants) keeps depth 0 of its slices
 * (row 4, y 88); its other four rows go and everything below moves up by
 * 4 × 20 px (test_rows(): 19 rows, 416 px). Its hidden slices lead to the
 * representative lane, through the filter's lanes and through projection
 * (c's outermost ancestor is a, drawn there). */
static void
test_thread_collapse (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(SpsSession) session = sps_session_new (fixture->trace);
  SpsViewFilter *filter = sps_session_get_view_filter (session);
  g_autoptr(SpsTimelineLayout) layout = _sps_timeline_layout_new (fixture->trace, filter);
  guint a = sps_test_find_slice (fixture->trace, "a", 0);
  guint c = sps_test_find_slice (fixture->trace, "c", 0);
  const SpsTimelineRow *row;

  sps_session_set_thread_collapsed (session, fixture->thread[1], TRUE);
  g_assert_true (_sps_timeline_layout_sync_filters (layout, session));
  g_assert_cmpuint (_sps_timeline_layout_get_n_rows (layout), ==, 15);
  g_assert_cmpint (_sps_timeline_layout_get_height (layout), ==, 336);

  row = _sps_timeline_layout_get_row (layout, 4);
  g_assert_cmpuint (row->thread, ==, fixture->thread[1]);
  g_assert_cmpint (row->kind, ==, SPS_TIMELINE_ROW_SLICES);
  g_assert_cmpint (row->depth, ==, 0);
  g_assert_cmpint (row->y, ==, 88);
  row = _sps_timeline_layout_get_row (layout, 5);
  g_assert_cmpuint (row->thread, ==, fixture->thread[0]);
  g_assert_cmpint (row->y, ==, 108);

  g_assert_cmpuint (_sps_timeline_layout_find_slice_row (layout, a), ==, 4);
  g_assert_cmpuint (_sps_timeline_layout_find_slice_row (layout, c), ==, SPS_NO_INDEX);
  g_assert_cmpuint (_sps_timeline_layout_find_lane_row (layout, sps_view_filter_get_slice_lane (filter, c)), ==, 4);
  g_assert_cmpuint (sps_view_filter_project (filter, c), ==, a);

  sps_session_set_thread_collapsed (session, fixture->thread[1], FALSE);
  g_assert_true (_sps_timeline_layout_sync_filters (layout, session));
  g_assert_cmpint (_sps_timeline_layout_get_height (layout), ==, 416);
}

/* Pinned threads come first, in the order pinned, and leave their place:
 * pid 20's thread (1 row), then tid 3 of pid 10 (1 row), then the rows
 * of test_rows() without them (19 - 2 = 17 more, 416 px in all). */
static void
test_pinned (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(SpsSession) session = sps_session_new (fixture->trace);
  g_autoptr(SpsTimelineLayout) layout = _sps_timeline_layout_new (fixture->trace, sps_session_get_view_filter (session));
  const SpsTimelineRow *row;

  sps_session_set_thread_pinned (session, fixture->other_thread[0], TRUE);
  sps_session_set_thread_pinned (session, fixture->thread[2], TRUE);
  g_assert_true (_sps_timeline_layout_sync_filters (layout, session));
  g_assert_cmpuint (_sps_timeline_layout_get_n_rows (layout), ==, 19);
  g_assert_cmpint (_sps_timeline_layout_get_height (layout), ==, 416);
  g_assert_cmpuint (_sps_timeline_layout_get_n_pinned_rows (layout), ==, 2);
  g_assert_cmpint (_sps_timeline_layout_get_pinned_height (layout), ==, 40);

  row = _sps_timeline_layout_get_row (layout, 0);
  g_assert_cmpint (row->flags, ==, SPS_TIMELINE_ROW_FIRST | SPS_TIMELINE_ROW_PINNED);
  g_assert_cmpuint (row->thread, ==, fixture->other_thread[0]);
  g_assert_cmpint (row->y, ==, 0);
  row = _sps_timeline_layout_get_row (layout, 1);
  g_assert_cmpuint (row->thread, ==, fixture->thread[2]);
  g_assert_cmpint (row->y, ==, 20);
  row = _sps_timeline_layout_get_row (layout, 2);
  g_assert_cmpint (row->kind, ==, SPS_TIMELINE_ROW_INSTANTS);
  g_assert_cmpuint (row->process, ==, SPS_NO_INDEX);
  /* pid 20's header stays, now without its thread's row */
  row = _sps_timeline_layout_get_row (layout, _sps_timeline_layout_find_process_row (layout, fixture->process[1]) + 1);
  g_assert_cmpint (row->kind, ==, SPS_TIMELINE_ROW_PROCESS);
  g_assert_cmpuint (_sps_timeline_layout_find_slice_row (layout, sps_test_find_slice (fixture->trace, "e", 0)), ==, 1);

  sps_session_set_thread_pinned (session, fixture->other_thread[0], FALSE);
  sps_session_set_thread_pinned (session, fixture->thread[2], FALSE);
  g_assert_true (_sps_timeline_layout_sync_filters (layout, session));
  row = _sps_timeline_layout_get_row (layout, 0);
  g_assert_cmpuint (row->process, ==, SPS_NO_INDEX);
  g_assert_cmpint (_sps_timeline_layout_get_pinned_height (layout), ==, 0);
}

/* A pinned thread shows its lanes whatever its process's state: tid 2 of
 * pid 10 has five (three depths, sampled spans, instants; test_rows()).
 * pid 10 collapsed: the five pinned rows (100 px), then the global
 * instants, pid 40, and pid 10's header with no lane under it (tid 2,
 * its representative thread, is at the top: its lanes stand for it,
 * so c, hidden in the section, leads to row 0). pid 10 hidden: the same
 * five rows, flagged to judge their slices by the slice rules alone,
 * and pid 10's section gone. tid 2 itself collapsed: its first lane
 * only; hidden: nothing. */
static void
test_pinned_folded_process (Fixture       *fixture,
                            gconstpointer  data)
{
  g_autoptr(SpsSession) session = sps_session_new (fixture->trace);
  SpsViewFilter *filter = sps_session_get_view_filter (session);
  g_autoptr(SpsTimelineLayout) layout = _sps_timeline_layout_new (fixture->trace, filter);
  guint32 *p = fixture->process;
  guint a = sps_test_find_slice (fixture->trace, "a", 0);
  guint c = sps_test_find_slice (fixture->trace, "c", 0);
  const guint8 F = SPS_TIMELINE_ROW_FIRST;
  const guint8 P = SPS_TIMELINE_ROW_PINNED;
  const guint8 O = SPS_TIMELINE_ROW_OWN_RULES;
  const ExpectedRow pinned[] = {
    { SPS_TIMELINE_ROW_SLICES, F | P, 0, p[0], fixture->thread[1], SPS_TRACK_THREAD_SLICES, 0, 20 },
    { SPS_TIMELINE_ROW_SLICES, P, 1, p[0], fixture->thread[1], SPS_TRACK_THREAD_SLICES, 20, 20 },
    { SPS_TIMELINE_ROW_SLICES, P, 2, p[0], fixture->thread[1], SPS_TRACK_THREAD_SLICES, 40, 20 },
    { SPS_TIMELINE_ROW_SLICES, F | P, 0, p[0], fixture->thread[1], SPS_TRACK_THREAD_SAMPLED_SLICES, 60, 20 },
    { SPS_TIMELINE_ROW_INSTANTS, F | P, 0, p[0], fixture->thread[1], SPS_TRACK_THREAD_INSTANTS, 80, 20 },
    { SPS_TIMELINE_ROW_INSTANTS, F, 0, NONE, NONE, SPS_TRACK_GLOBAL_INSTANTS, 100, 20 },
    { SPS_TIMELINE_ROW_PROCESS, F, 0, p[3], NONE, 0, 120, 24 },
    { SPS_TIMELINE_ROW_SLICES, F, 0, p[3], fixture->other_thread[2], SPS_TRACK_THREAD_SLICES, 144, 20 },
    { SPS_TIMELINE_ROW_PROCESS, F | SPS_TIMELINE_ROW_COLLAPSED, 0, p[0], NONE, 0, 164, 24 },
    { SPS_TIMELINE_ROW_PROCESS, F, 0, p[1], NONE, 0, 188, 24 },
    { SPS_TIMELINE_ROW_SLICES, F, 0, p[1], fixture->other_thread[0], SPS_TRACK_THREAD_SLICES, 212, 20 },
    { SPS_TIMELINE_ROW_PROCESS, F, 0, p[2], NONE, 0, 232, 24 },
    { SPS_TIMELINE_ROW_SLICES, F, 0, p[2], fixture->other_thread[1], SPS_TRACK_THREAD_SLICES, 256, 20 },
  };

  sps_session_set_thread_pinned (session, fixture->thread[1], TRUE);
  sps_session_set_process_collapsed (session, p[0], TRUE);
  g_assert_true (_sps_timeline_layout_sync_filters (layout, session));
  check_rows (fixture, layout, pinned, G_N_ELEMENTS (pinned), 276);
  g_assert_cmpint (_sps_timeline_layout_get_pinned_height (layout), ==, 100);
  g_assert_cmpuint (_sps_timeline_layout_find_slice_row (layout, a), ==, 0);
  g_assert_cmpuint (_sps_timeline_layout_find_slice_row (layout, c), ==, 2);
  g_assert_cmpuint (_sps_timeline_layout_find_lane_row (layout, sps_view_filter_get_slice_lane (filter, c)), ==, 0);

  sps_session_set_process_hidden (session, p[0], TRUE);
  g_assert_true (_sps_timeline_layout_sync_filters (layout, session));
  g_assert_cmpuint (_sps_timeline_layout_get_n_rows (layout), ==, 5 + 7);
  g_assert_cmpint (_sps_timeline_layout_get_pinned_height (layout), ==, 100);
  for (guint i = 0; i < 5; i++)
    g_assert_cmpint (_sps_timeline_layout_get_row (layout, i)->flags & (P | O), ==, P | O);
  g_assert_cmpuint (_sps_timeline_layout_find_slice_row (layout, c), ==, 2);
  g_assert_cmpuint (_sps_timeline_layout_find_process_row (layout, p[0]), ==, SPS_NO_INDEX);

  sps_session_set_thread_collapsed (session, fixture->thread[1], TRUE);
  g_assert_true (_sps_timeline_layout_sync_filters (layout, session));
  g_assert_cmpint (_sps_timeline_layout_get_pinned_height (layout), ==, 20);
  g_assert_cmpuint (_sps_timeline_layout_find_slice_row (layout, c), ==, SPS_NO_INDEX);

  sps_session_set_thread_hidden (session, fixture->thread[1], TRUE);
  g_assert_true (_sps_timeline_layout_sync_filters (layout, session));
  g_assert_cmpint (_sps_timeline_layout_get_pinned_height (layout), ==, 0);
  g_assert_cmpuint (_sps_timeline_layout_get_n_rows (layout), ==, 7);
}

static void
test_hit (Fixture       *fixture,
          gconstpointer  data)
{
  g_autoptr(SpsTimelineLayout) layout = _sps_timeline_layout_new (fixture->trace, NULL);
  const SpsTrackTable *tracks = sps_trace_get_tracks (fixture->trace);
  guint b = sps_test_find_slice (fixture->trace, "b", 0);
  const SpsTimelineRow *row;

  g_assert_cmpuint (_sps_timeline_layout_row_at_y (layout, -1), ==, SPS_NO_INDEX);
  g_assert_cmpuint (_sps_timeline_layout_row_at_y (layout, 0), ==, 0);
  g_assert_cmpuint (_sps_timeline_layout_row_at_y (layout, 19), ==, 0);
  g_assert_cmpuint (_sps_timeline_layout_row_at_y (layout, 20), ==, 1);
  g_assert_cmpuint (_sps_timeline_layout_row_at_y (layout, 108), ==, 5);
  g_assert_cmpuint (_sps_timeline_layout_row_at_y (layout, 227), ==, 10);
  g_assert_cmpuint (_sps_timeline_layout_row_at_y (layout, 228), ==, 11);
  g_assert_cmpuint (_sps_timeline_layout_row_at_y (layout, 327), ==, 14);
  g_assert_cmpuint (_sps_timeline_layout_row_at_y (layout, 415), ==, 18);
  g_assert_cmpuint (_sps_timeline_layout_row_at_y (layout, 416), ==, SPS_NO_INDEX);

  /* slice → row → the slice's track and depth */
  g_assert_cmpuint (_sps_timeline_layout_find_slice_row (layout, b), ==, 5);
  row = _sps_timeline_layout_get_row (layout, 5);
  g_assert_cmpuint (row->track, ==, sps_trace_get_slices (fixture->trace)->track[b]);
  g_assert_cmpuint (row->depth, ==, 1);
  g_assert_cmpuint (_sps_timeline_layout_find_track_row (layout, row->track, 2), ==, 6);
  g_assert_cmpuint (_sps_timeline_layout_find_track_row (layout, row->track, 3), ==, SPS_NO_INDEX);
  g_assert_cmpuint (tracks->max_depth[row->track], ==, 3);

  /* Taller rows move everything. */
  _sps_timeline_layout_set_heights (layout, 30, 32);
  g_assert_cmpint (_sps_timeline_layout_get_height (layout), ==, 30 + 4 * 32 + 30 * 13 + 60);
  row = _sps_timeline_layout_get_row (layout, 5);
  g_assert_cmpint (row->y, ==, 30 + 32 + 30 + 32 + 30);
  g_assert_cmpint (row->height, ==, 30);
  g_assert_cmpuint (_sps_timeline_layout_row_at_y (layout, row->y + 29), ==, 5);
  g_assert_cmpuint (_sps_timeline_layout_row_at_y (layout, row->y + 30), ==, 6);
}

static void
test_empty (void)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsTimelineLayout) layout = NULL;

  sps_trace_builder_ensure_process (builder, 1);
  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);

  layout = _sps_timeline_layout_new (trace, NULL);
  g_assert_cmpuint (_sps_timeline_layout_get_n_rows (layout), ==, 0);
  g_assert_cmpint (_sps_timeline_layout_get_height (layout), ==, 0);
  g_assert_cmpuint (_sps_timeline_layout_row_at_y (layout, 0), ==, SPS_NO_INDEX);
  g_assert_cmpuint (_sps_timeline_layout_find_process_row (layout, 0), ==, SPS_NO_INDEX);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/gtk/timeline-layout/rows", Fixture, NULL, fixture_set_up, test_rows, fixture_tear_down);
  g_test_add ("/gtk/timeline-layout/collapse", Fixture, NULL, fixture_set_up, test_collapse, fixture_tear_down);
  g_test_add ("/gtk/timeline-layout/filters", Fixture, NULL, fixture_set_up, test_filters, fixture_tear_down);
  g_test_add ("/gtk/timeline-layout/lanes", Fixture, NULL, fixture_set_up, test_lanes, fixture_tear_down);
  g_test_add ("/gtk/timeline-layout/thread-collapse", Fixture, NULL, fixture_set_up, test_thread_collapse,
              fixture_tear_down);
  g_test_add ("/gtk/timeline-layout/pinned", Fixture, NULL, fixture_set_up, test_pinned, fixture_tear_down);
  g_test_add ("/gtk/timeline-layout/pinned-folded-process", Fixture, NULL, fixture_set_up,
              test_pinned_folded_process, fixture_tear_down);
  g_test_add ("/gtk/timeline-layout/hit", Fixture, NULL, fixture_set_up, test_hit, fixture_tear_down);
  g_test_add_func ("/gtk/timeline-layout/empty", test_empty);

  return g_test_run ();
}
