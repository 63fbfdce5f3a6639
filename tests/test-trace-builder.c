/* test-trace-builder.c: builder, finish() and the tables it produces
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <spanscope-core.h>

#define NO SPS_NO_INDEX

typedef struct
{
  SpsTraceBuilder *builder;
  guint32          process;
  guint32          thread;
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  fixture->builder = sps_trace_builder_new ();
  fixture->process = sps_trace_builder_ensure_process (fixture->builder, 1);
  fixture->thread = sps_trace_builder_ensure_thread (fixture->builder, fixture->process, 10);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_clear_object (&fixture->builder);
}

static guint32
str_id (Fixture    *fixture,
        const char *str)
{
  return sps_trace_builder_intern (fixture->builder, str, -1);
}

static SpsTrace *
finish (Fixture *fixture)
{
  g_autoptr(GError) error = NULL;
  SpsTrace *trace = sps_trace_builder_finish (fixture->builder, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (trace);

  return trace;
}

static guint32
add_x (Fixture    *fixture,
       guint32     thread,
       SpsTime     ts,
       SpsTime     dur,
       const char *name)
{
  return sps_trace_builder_add_complete (fixture->builder, thread, ts, dur,
                                         str_id (fixture, name), 0, SPS_ARGS_REF_NONE, 0);
}

static guint32
add_b (Fixture    *fixture,
       guint32     thread,
       SpsTime     ts,
       const char *name)
{
  return sps_trace_builder_add_begin (fixture->builder, thread, ts,
                                      str_id (fixture, name), 0, SPS_ARGS_REF_NONE, 0);
}

static void
add_e (Fixture *fixture,
       guint32  thread,
       SpsTime  ts)
{
  sps_trace_builder_add_end (fixture->builder, thread, ts, SPS_ARGS_REF_NONE, 0);
}

static guint32
add_async (Fixture       *fixture,
           SpsAsyncPhase  phase,
           guint64        key,
           SpsTime        ts,
           const char    *name)
{
  return sps_trace_builder_add_async (fixture->builder, phase, fixture->process, key, ts,
                                      str_id (fixture, name), str_id (fixture, "net"), SPS_ARGS_REF_NONE);
}

static void
add_flow (Fixture      *fixture,
          guint64       key,
          SpsFlowPhase  phase,
          SpsFlowBind   bind,
          guint32       thread,
          SpsTime       ts,
          guint32       handle)
{
  sps_trace_builder_add_flow_point (fixture->builder, key, phase, bind, thread, ts, handle,
                                    str_id (fixture, "flow"), str_id (fixture, "ipc"));
}

/* Checks a slice row: name, ts, dur, parent, depth, flags */
static void
assert_slice (SpsTrace   *trace,
              guint       row,
              const char *name,
              SpsTime     ts,
              SpsTime     dur,
              guint32     parent,
              guint16     depth,
              guint16     flags)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);

  g_assert_cmpuint (row, <, slices->n_rows);
  g_assert_cmpstr (sps_trace_get_string (trace, slices->name[row]), ==, name);
  g_assert_cmpint (slices->ts[row], ==, ts);
  g_assert_cmpint (slices->dur[row], ==, dur);
  g_assert_cmpuint (slices->parent[row], ==, parent);
  g_assert_cmpuint (slices->depth[row], ==, depth);
  g_assert_cmpuint (slices->flags[row], ==, flags);
}

static void
assert_track (SpsTrace     *trace,
              guint         track,
              SpsTrackKind  kind,
              guint32       process,
              guint32       thread,
              guint32       first_row,
              guint32       n_rows)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);

  g_assert_cmpuint (track, <, tracks->n_rows);
  g_assert_cmpuint (tracks->kind[track], ==, kind);
  g_assert_cmpuint (tracks->process[track], ==, process);
  g_assert_cmpuint (tracks->thread[track], ==, thread);
  g_assert_cmpuint (tracks->first_row[track], ==, first_row);
  g_assert_cmpuint (tracks->n_rows_in_track[track], ==, n_rows);
}

static void
test_complete_nesting (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(SpsTrace) trace = NULL;
  const SpsSliceTable *slices;
  const SpsTrackTable *tracks;

  /* A [0,100] ⊃ B [10,40] ⊃ C [15,25]; A ⊃ D [50,90]; E [200,210], added
   * out of order: handles are the input positions. */
  g_assert_cmpuint (add_x (fixture, fixture->thread, 200, 10, "E"), ==, 0);
  g_assert_cmpuint (add_x (fixture, fixture->thread, 15, 10, "C"), ==, 1);
  g_assert_cmpuint (add_x (fixture, fixture->thread, 0, 100, "A"), ==, 2);
  g_assert_cmpuint (add_x (fixture, fixture->thread, 50, 40, "D"), ==, 3);
  g_assert_cmpuint (add_x (fixture, fixture->thread, 10, 30, "B"), ==, 4);

  trace = finish (fixture);
  slices = sps_trace_get_slices (trace);
  tracks = sps_trace_get_tracks (trace);

  g_assert_cmpuint (slices->n_rows, ==, 5);
  assert_slice (trace, 0, "A", 0, 100, NO, 0, 0);
  assert_slice (trace, 1, "B", 10, 30, 0, 1, 0);
  assert_slice (trace, 2, "C", 15, 10, 1, 2, 0);
  assert_slice (trace, 3, "D", 50, 40, 0, 1, 0);
  assert_slice (trace, 4, "E", 200, 10, NO, 0, 0);

  /* Self time: A 100 − 30 − 40, B 30 − 10 */
  g_assert_cmpint (slices->self_time[0], ==, 30);
  g_assert_cmpint (slices->self_time[1], ==, 20);
  g_assert_cmpint (slices->self_time[2], ==, 10);
  g_assert_cmpint (slices->self_time[3], ==, 40);
  g_assert_cmpint (slices->self_time[4], ==, 10);

  g_assert_cmpuint (tracks->n_rows, ==, 1);
  assert_track (trace, 0, SPS_TRACK_THREAD_SLICES, fixture->process, fixture->thread, 0, 5);
  g_assert_cmpuint (tracks->max_depth[0], ==, 3);
  for (guint i = 0; i < 5; i++)
    g_assert_cmpuint (slices->track[i], ==, 0);

  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES), ==, 5);
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SAMPLED_SLICES), ==, 0);
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_ASYNC), ==, 0);
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_COUNTER), ==, 0);
  g_assert_cmpint (sps_trace_get_start_time (trace), ==, 0);
  g_assert_cmpint (sps_trace_get_end_time (trace), ==, 210);
  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 0);
}

static void
test_begin_end_innermost (Fixture       *fixture,
                          gconstpointer  data)
{
  SpsArgsRef outer_args = sps_args_ref_new (FALSE, 0, 5);
  SpsArgsRef end_args = sps_args_ref_new (FALSE, 10, 7);
  g_autoptr(SpsTrace) trace = NULL;
  const SpsSliceTable *slices;
  SpsTraceBuilder *b = fixture->builder;

  g_assert_cmpuint (sps_trace_builder_add_begin (b, fixture->thread, 0, str_id (fixture, "outer"), 0, outer_args, 0), ==, 0);
  g_assert_cmpuint (add_b (fixture, fixture->thread, 10, "inner"), ==, 1);
  sps_trace_builder_add_end (b, fixture->thread, 20, end_args, 0);
  add_e (fixture, fixture->thread, 50);
  /* An E takes a handle position too */
  g_assert_cmpuint (add_x (fixture, fixture->thread, 60, 1, "after"), ==, 4);

  trace = finish (fixture);
  slices = sps_trace_get_slices (trace);

  g_assert_cmpuint (slices->n_rows, ==, 3);
  assert_slice (trace, 0, "outer", 0, 50, NO, 0, 0);
  assert_slice (trace, 1, "inner", 10, 10, 0, 1, 0);
  assert_slice (trace, 2, "after", 60, 1, NO, 0, 0);
  /* A B keeps its args; one without takes its E's. */
  g_assert_cmpuint (slices->args[0], ==, outer_args);
  g_assert_cmpuint (slices->args[1], ==, end_args);
  g_assert_cmpint (slices->self_time[0], ==, 40);
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES), ==, 3);
  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 0);
}

static void
test_begin_end_unmatched (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autoptr(SpsTrace) trace = NULL;
  guint64 count;
  const char *message;

  add_e (fixture, fixture->thread, -50);
  add_x (fixture, fixture->thread, 0, 5, "x");
  add_b (fixture, fixture->thread, 10, "a");
  add_b (fixture, fixture->thread, 20, "b");
  add_e (fixture, fixture->thread, 30);
  sps_trace_builder_add_instant (fixture->builder, SPS_INSTANT_KIND_INSTANT, SPS_INSTANT_SCOPE_THREAD,
                                 fixture->process, fixture->thread, 120, str_id (fixture, "i"), 0,
                                 SPS_ARGS_REF_NONE);

  trace = finish (fixture);

  g_assert_cmpuint (sps_trace_get_slices (trace)->n_rows, ==, 3);
  assert_slice (trace, 0, "x", 0, 5, NO, 0, 0);
  /* Never closed: lasts to the trace end (the instant at 120) */
  assert_slice (trace, 1, "a", 10, 110, NO, 0, SPS_SLICE_UNFINISHED);
  assert_slice (trace, 2, "b", 20, 10, 1, 1, 0);

  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES), ==, 2);
  /* The dropped E at −50 is not part of the trace's range. */
  g_assert_cmpint (sps_trace_get_start_time (trace), ==, 0);
  g_assert_cmpint (sps_trace_get_end_time (trace), ==, 120);

  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 2);
  g_assert_cmpstr (sps_trace_get_warning (trace, 0, &count, &message), ==, "unmatched_begin");
  g_assert_cmpuint (count, ==, 1);
  g_assert_nonnull (message);
  g_assert_cmpstr (sps_trace_get_warning (trace, 1, &count, NULL), ==, "unmatched_end");
  g_assert_cmpuint (count, ==, 1);
  g_assert_cmpuint (sps_trace_count_warning (trace, "unmatched_end"), ==, 1);
  g_assert_cmpuint (sps_trace_count_warning (trace, "overlapping_slice"), ==, 0);
}

static void
test_begin_end_sampled (Fixture       *fixture,
                        gconstpointer  data)
{
  SpsTraceBuilder *b = fixture->builder;
  g_autoptr(SpsTrace) trace = NULL;
  const SpsSliceTable *slices;

  add_b (fixture, fixture->thread, 0, "m");
  sps_trace_builder_add_begin (b, fixture->thread, 5, str_id (fixture, "s"), 0, SPS_ARGS_REF_NONE, SPS_SLICE_SAMPLED);
  /* A measured E closes the measured B even though the sampled one is
   * more recent; then the sampled E closes the sampled B. */
  add_e (fixture, fixture->thread, 10);
  sps_trace_builder_add_end (b, fixture->thread, 20, SPS_ARGS_REF_NONE, SPS_SLICE_SAMPLED);
  sps_trace_builder_add_end (b, fixture->thread, 25, SPS_ARGS_REF_NONE, SPS_SLICE_SAMPLED);

  trace = finish (fixture);
  slices = sps_trace_get_slices (trace);

  g_assert_cmpuint (sps_trace_get_tracks (trace)->n_rows, ==, 2);
  assert_track (trace, 0, SPS_TRACK_THREAD_SLICES, fixture->process, fixture->thread, 0, 1);
  assert_track (trace, 1, SPS_TRACK_THREAD_SAMPLED_SLICES, fixture->process, fixture->thread, 1, 1);

  assert_slice (trace, 0, "m", 0, 10, NO, 0, 0);
  assert_slice (trace, 1, "s", 5, 15, NO, 0, SPS_SLICE_SAMPLED);
  g_assert_cmpuint (slices->track[0], ==, 0);
  g_assert_cmpuint (slices->track[1], ==, 1);

  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES), ==, 1);
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SAMPLED_SLICES), ==, 1);
  g_assert_cmpuint (sps_trace_count_warning (trace, "unmatched_end"), ==, 1);
}

static void
test_ties (Fixture       *fixture,
           gconstpointer  data)
{
  guint32 t2 = sps_trace_builder_ensure_thread (fixture->builder, fixture->process, 20);
  guint32 t3 = sps_trace_builder_ensure_thread (fixture->builder, fixture->process, 30);
  g_autoptr(SpsTrace) trace = NULL;
  const SpsSliceTable *slices;

  /* Equal starts: longer first, equal durations in input order */
  add_x (fixture, fixture->thread, 0, 10, "short");
  add_x (fixture, fixture->thread, 0, 50, "long");
  add_x (fixture, fixture->thread, 0, 10, "short2");

  /* At 110 the E comes before the B: x and y are siblings. */
  add_b (fixture, t2, 100, "x");
  add_e (fixture, t2, 110);
  add_b (fixture, t2, 110, "y");
  add_e (fixture, t2, 120);

  /* At 110 the B comes before the E: the E closes y at once. */
  add_b (fixture, t3, 100, "x");
  add_b (fixture, t3, 110, "y");
  add_e (fixture, t3, 110);
  add_e (fixture, t3, 120);

  trace = finish (fixture);
  slices = sps_trace_get_slices (trace);

  g_assert_cmpuint (slices->n_rows, ==, 7);
  assert_slice (trace, 0, "long", 0, 50, NO, 0, 0);
  assert_slice (trace, 1, "short", 0, 10, 0, 1, 0);
  assert_slice (trace, 2, "short2", 0, 10, 1, 2, 0);
  g_assert_cmpint (slices->self_time[0], ==, 40);
  g_assert_cmpint (slices->self_time[1], ==, 0);
  g_assert_cmpint (slices->self_time[2], ==, 10);

  assert_slice (trace, 3, "x", 100, 10, NO, 0, 0);
  assert_slice (trace, 4, "y", 110, 10, NO, 0, 0);

  assert_slice (trace, 5, "x", 100, 20, NO, 0, 0);
  assert_slice (trace, 6, "y", 110, 0, 5, 1, 0);

  assert_track (trace, 0, SPS_TRACK_THREAD_SLICES, fixture->process, fixture->thread, 0, 3);
  assert_track (trace, 1, SPS_TRACK_THREAD_SLICES, fixture->process, t2, 3, 2);
  assert_track (trace, 2, SPS_TRACK_THREAD_SLICES, fixture->process, t3, 5, 2);
}

static void
test_begin_end_unsorted_input (Fixture       *fixture,
                               gconstpointer  data)
{
  g_autoptr(SpsTrace) trace = NULL;

  /* Written out of time order: pairing happens in time order. */
  add_e (fixture, fixture->thread, 30);
  add_b (fixture, fixture->thread, 10, "a");
  add_x (fixture, fixture->thread, 0, 1, "x");
  add_b (fixture, fixture->thread, 20, "b");
  add_e (fixture, fixture->thread, 25);

  trace = finish (fixture);

  g_assert_cmpuint (sps_trace_get_slices (trace)->n_rows, ==, 3);
  assert_slice (trace, 0, "x", 0, 1, NO, 0, 0);
  assert_slice (trace, 1, "a", 10, 20, NO, 0, 0);
  assert_slice (trace, 2, "b", 20, 5, 1, 1, 0);
  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 0);
}

static void
test_overlap (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(SpsTrace) trace = NULL;
  const SpsSliceTable *slices;

  add_x (fixture, fixture->thread, 0, 100, "a");
  add_x (fixture, fixture->thread, 50, 100, "b");
  add_x (fixture, fixture->thread, 120, 10, "c");

  trace = finish (fixture);
  slices = sps_trace_get_slices (trace);

  /* b starts inside a and ends after it: a child of a anyway. */
  assert_slice (trace, 0, "a", 0, 100, NO, 0, 0);
  assert_slice (trace, 1, "b", 50, 100, 0, 1, 0);
  assert_slice (trace, 2, "c", 120, 10, 1, 2, 0);
  g_assert_cmpint (slices->self_time[0], ==, 0);
  g_assert_cmpint (slices->self_time[1], ==, 90);
  g_assert_cmpuint (sps_trace_count_warning (trace, "overlapping_slice"), ==, 1);
}

static void
test_max_depth (Fixture       *fixture,
                gconstpointer  data)
{
  const guint n = 70000;
  g_autoptr(SpsTrace) trace = NULL;
  const SpsSliceTable *slices;

  for (guint i = 0; i < n; i++)
    sps_trace_builder_add_complete (fixture->builder, fixture->thread, i, 2 * (SpsTime) (n - i),
                                    0, 0, SPS_ARGS_REF_NONE, 0);

  trace = finish (fixture);
  slices = sps_trace_get_slices (trace);

  g_assert_cmpuint (slices->n_rows, ==, n);
  g_assert_cmpuint (slices->depth[65534], ==, 65534);
  g_assert_cmpuint (slices->parent[65534], ==, 65533);
  /* Deeper slices stay at the last level, under the last slice above it */
  g_assert_cmpuint (slices->depth[65535], ==, 65534);
  g_assert_cmpuint (slices->parent[65535], ==, 65533);
  g_assert_cmpuint (slices->depth[n - 1], ==, 65534);
  g_assert_cmpuint (slices->parent[n - 1], ==, 65533);
  g_assert_cmpuint (sps_trace_get_tracks (trace)->max_depth[0], ==, 65535);
  g_assert_cmpuint (sps_trace_count_warning (trace, "max_depth_exceeded"), ==, n - 65535);
}

static void
test_async_nesting (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(SpsTrace) trace = NULL;
  const SpsTrackTable *tracks;
  guint32 handle;

  handle = add_async (fixture, SPS_ASYNC_BEGIN, 1, 0, "req");
  g_assert_cmpuint (handle & 0x7fffffff, ==, 0);
  g_assert_cmpuint (handle & 0x80000000, !=, 0);
  add_async (fixture, SPS_ASYNC_BEGIN, 1, 10, "parse");
  add_async (fixture, SPS_ASYNC_END, 1, 20, "parse");
  add_async (fixture, SPS_ASYNC_END, 1, 100, "req");

  trace = finish (fixture);
  tracks = sps_trace_get_tracks (trace);

  g_assert_cmpuint (tracks->n_rows, ==, 1);
  assert_track (trace, 0, SPS_TRACK_ASYNC, fixture->process, NO, 0, 2);
  g_assert_cmpuint (tracks->name[0], ==, 0);
  g_assert_cmpuint (tracks->max_depth[0], ==, 2);
  assert_slice (trace, 0, "req", 0, 100, NO, 0, SPS_SLICE_ASYNC);
  assert_slice (trace, 1, "parse", 10, 10, 0, 1, SPS_SLICE_ASYNC);
  g_assert_cmpstr (sps_trace_get_string (trace, sps_trace_get_slices (trace)->category[1]), ==, "net");
  g_assert_cmpint (sps_trace_get_slices (trace)->self_time[0], ==, 90);
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_ASYNC), ==, 2);
  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 0);
}

static void
test_async_lanes (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(SpsTrace) trace = NULL;

  add_async (fixture, SPS_ASYNC_BEGIN, 1, 0, "A");
  add_async (fixture, SPS_ASYNC_BEGIN, 2, 50, "B");
  add_async (fixture, SPS_ASYNC_END, 1, 100, "A");
  add_async (fixture, SPS_ASYNC_BEGIN, 3, 100, "C");
  add_async (fixture, SPS_ASYNC_END, 3, 120, "C");
  add_async (fixture, SPS_ASYNC_BEGIN, 4, 130, "D");
  add_async (fixture, SPS_ASYNC_END, 4, 140, "D");
  add_async (fixture, SPS_ASYNC_END, 2, 150, "B");

  trace = finish (fixture);

  /* B overlaps A: second lane; C starts when A ends: back on the first. */
  g_assert_cmpuint (sps_trace_get_tracks (trace)->n_rows, ==, 2);
  assert_track (trace, 0, SPS_TRACK_ASYNC, fixture->process, NO, 0, 3);
  assert_track (trace, 1, SPS_TRACK_ASYNC, fixture->process, NO, 3, 1);
  assert_slice (trace, 0, "A", 0, 100, NO, 0, SPS_SLICE_ASYNC);
  assert_slice (trace, 1, "C", 100, 20, NO, 0, SPS_SLICE_ASYNC);
  assert_slice (trace, 2, "D", 130, 10, NO, 0, SPS_SLICE_ASYNC);
  assert_slice (trace, 3, "B", 50, 100, NO, 0, SPS_SLICE_ASYNC);
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_ASYNC), ==, 4);
}

static void
test_async_unmatched (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(SpsTrace) trace = NULL;

  add_async (fixture, SPS_ASYNC_END, 1, 5, "x");
  add_async (fixture, SPS_ASYNC_BEGIN, 1, 10, "y");
  add_async (fixture, SPS_ASYNC_BEGIN, 2, 0, "outer");
  add_async (fixture, SPS_ASYNC_BEGIN, 2, 5, "inner");
  add_async (fixture, SPS_ASYNC_END, 2, 20, "outer");
  sps_trace_builder_add_instant (fixture->builder, SPS_INSTANT_KIND_INSTANT, SPS_INSTANT_SCOPE_GLOBAL,
                                 NO, NO, 50, str_id (fixture, "end"), 0, SPS_ARGS_REF_NONE);

  trace = finish (fixture);

  /* The stray end of x is a warning, not a slice. outer's end leaves
   * inner open: it lasts to the trace end (50), its tree [0,50] on lane
   * 0; y [10,50] on lane 1. */
  g_assert_cmpuint (sps_trace_get_tracks (trace)->n_rows, ==, 3);
  assert_track (trace, 0, SPS_TRACK_ASYNC, fixture->process, NO, 0, 2);
  assert_track (trace, 1, SPS_TRACK_ASYNC, fixture->process, NO, 2, 1);
  assert_track (trace, 2, SPS_TRACK_GLOBAL_INSTANTS, NO, NO, 0, 1);

  assert_slice (trace, 0, "outer", 0, 20, NO, 0, SPS_SLICE_ASYNC);
  assert_slice (trace, 1, "inner", 5, 45, 0, 1, SPS_SLICE_ASYNC | SPS_SLICE_UNFINISHED);
  assert_slice (trace, 2, "y", 10, 40, NO, 0, SPS_SLICE_ASYNC | SPS_SLICE_UNFINISHED);

  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_ASYNC), ==, 1);
  g_assert_cmpuint (sps_trace_count_warning (trace, "unmatched_async_begin"), ==, 2);
  g_assert_cmpuint (sps_trace_count_warning (trace, "unmatched_async_end"), ==, 1);
  g_assert_cmpint (sps_trace_get_end_time (trace), ==, 50);
}

static void
test_async_legacy_steps (Fixture       *fixture,
                         gconstpointer  data)
{
  const guint16 step = SPS_SLICE_ASYNC | SPS_SLICE_STEP;
  g_autoptr(SpsTrace) trace = NULL;

  add_async (fixture, SPS_ASYNC_LEGACY_START, 7, 0, "load");
  add_async (fixture, SPS_ASYNC_LEGACY_STEP_INTO, 7, 10, "a");
  add_async (fixture, SPS_ASYNC_LEGACY_STEP_INTO, 7, 30, "b");
  add_async (fixture, SPS_ASYNC_LEGACY_FINISH, 7, 50, "load");

  add_async (fixture, SPS_ASYNC_LEGACY_START, 8, 100, "save");
  add_async (fixture, SPS_ASYNC_LEGACY_STEP_PAST, 8, 120, "x");
  add_async (fixture, SPS_ASYNC_LEGACY_STEP_PAST, 8, 140, "y");
  add_async (fixture, SPS_ASYNC_LEGACY_FINISH, 8, 160, "save");

  /* A step with no start is dropped */
  add_async (fixture, SPS_ASYNC_LEGACY_STEP_INTO, 9, 170, "lost");

  trace = finish (fixture);

  g_assert_cmpuint (sps_trace_get_tracks (trace)->n_rows, ==, 1);
  assert_track (trace, 0, SPS_TRACK_ASYNC, fixture->process, NO, 0, 7);
  g_assert_cmpuint (sps_trace_get_tracks (trace)->max_depth[0], ==, 2);

  /* T: a step starts a child named by it, to the next step or the F;
   * nothing covers the S to the first T */
  assert_slice (trace, 0, "load", 0, 50, NO, 0, SPS_SLICE_ASYNC);
  assert_slice (trace, 1, "a", 10, 20, 0, 1, step);
  assert_slice (trace, 2, "b", 30, 20, 0, 1, step);

  /* p: a step names the child that ends at it, from the step before or
   * the S; the last p to the F is a child named by the S */
  assert_slice (trace, 3, "save", 100, 60, NO, 0, SPS_SLICE_ASYNC);
  assert_slice (trace, 4, "x", 100, 20, 3, 1, step);
  assert_slice (trace, 5, "y", 120, 20, 3, 1, step);
  assert_slice (trace, 6, "save", 140, 20, 3, 1, step);

  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_ASYNC), ==, 2);
  g_assert_cmpuint (sps_trace_count_warning (trace, "unmatched_async_step"), ==, 1);
  g_assert_cmpint (sps_trace_get_end_time (trace), ==, 160);
}

static void
test_async_legacy_unfinished (Fixture       *fixture,
                              gconstpointer  data)
{
  g_autoptr(SpsTrace) trace = NULL;

  add_async (fixture, SPS_ASYNC_LEGACY_START, 7, 0, "load");
  add_async (fixture, SPS_ASYNC_LEGACY_STEP_INTO, 7, 10, "a");
  add_async (fixture, SPS_ASYNC_LEGACY_FINISH, 8, 15, "other");
  add_x (fixture, fixture->thread, 0, 40, "x");

  trace = finish (fixture);

  /* Tracks: the thread's slices, then the process's lane */
  g_assert_cmpuint (sps_trace_get_tracks (trace)->n_rows, ==, 2);
  assert_slice (trace, 0, "x", 0, 40, NO, 0, 0);
  assert_slice (trace, 1, "load", 0, 40, NO, 0, SPS_SLICE_ASYNC | SPS_SLICE_UNFINISHED);
  /* The T's child lasts to the trace end with its S; the F of another
   * key finds no S and makes no slice */
  assert_slice (trace, 2, "a", 10, 30, 1, 1, SPS_SLICE_ASYNC | SPS_SLICE_STEP | SPS_SLICE_UNFINISHED);
  assert_track (trace, 1, SPS_TRACK_ASYNC, fixture->process, NO, 1, 2);
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_ASYNC), ==, 0);
  g_assert_cmpuint (sps_trace_count_warning (trace, "unmatched_async_begin"), ==, 1);
  g_assert_cmpuint (sps_trace_count_warning (trace, "unmatched_async_end"), ==, 1);
}

static void
test_instant_scopes (Fixture       *fixture,
                     gconstpointer  data)
{
  SpsTraceBuilder *b = fixture->builder;
  guint32 t2 = sps_trace_builder_ensure_thread (b, fixture->process, 20);
  g_autoptr(SpsTrace) trace = NULL;
  const SpsInstantTable *instants;

  sps_trace_builder_add_instant (b, SPS_INSTANT_KIND_INSTANT, SPS_INSTANT_SCOPE_THREAD,
                                 fixture->process, fixture->thread, 5, str_id (fixture, "t5"), 0, SPS_ARGS_REF_NONE);
  sps_trace_builder_add_instant (b, SPS_INSTANT_KIND_MARK, SPS_INSTANT_SCOPE_PROCESS,
                                 fixture->process, NO, 3, str_id (fixture, "p3"), 0, SPS_ARGS_REF_NONE);
  sps_trace_builder_add_instant (b, SPS_INSTANT_KIND_INSTANT, SPS_INSTANT_SCOPE_GLOBAL,
                                 NO, NO, 1, str_id (fixture, "g1"), 0, SPS_ARGS_REF_NONE);
  sps_trace_builder_add_instant (b, SPS_INSTANT_KIND_ASYNC, SPS_INSTANT_SCOPE_THREAD,
                                 fixture->process, fixture->thread, 2, str_id (fixture, "t2"), str_id (fixture, "c"),
                                 sps_args_ref_new (FALSE, 3, 4));
  sps_trace_builder_add_instant (b, SPS_INSTANT_KIND_INSTANT, SPS_INSTANT_SCOPE_THREAD,
                                 fixture->process, t2, 4, str_id (fixture, "u4"), 0, SPS_ARGS_REF_NONE);

  trace = finish (fixture);
  instants = sps_trace_get_instants (trace);

  g_assert_cmpuint (sps_trace_get_tracks (trace)->n_rows, ==, 4);
  assert_track (trace, 0, SPS_TRACK_THREAD_INSTANTS, fixture->process, fixture->thread, 0, 2);
  assert_track (trace, 1, SPS_TRACK_THREAD_INSTANTS, fixture->process, t2, 2, 1);
  assert_track (trace, 2, SPS_TRACK_PROCESS_INSTANTS, fixture->process, NO, 3, 1);
  assert_track (trace, 3, SPS_TRACK_GLOBAL_INSTANTS, NO, NO, 4, 1);

  g_assert_cmpuint (instants->n_rows, ==, 5);
  {
    const char *names[] = { "t2", "t5", "u4", "p3", "g1" };
    const SpsTime ts[] = { 2, 5, 4, 3, 1 };
    const guint8 kinds[] = { SPS_INSTANT_KIND_ASYNC, SPS_INSTANT_KIND_INSTANT, SPS_INSTANT_KIND_INSTANT,
                             SPS_INSTANT_KIND_MARK, SPS_INSTANT_KIND_INSTANT };
    const guint32 track[] = { 0, 0, 1, 2, 3 };

    for (guint i = 0; i < 5; i++)
      {
        g_assert_cmpstr (sps_trace_get_string (trace, instants->name[i]), ==, names[i]);
        g_assert_cmpint (instants->ts[i], ==, ts[i]);
        g_assert_cmpuint (instants->kind[i], ==, kinds[i]);
        g_assert_cmpuint (instants->track[i], ==, track[i]);
      }
  }
  g_assert_cmpstr (sps_trace_get_string (trace, instants->category[0]), ==, "c");
  g_assert_cmpuint (instants->args[0], ==, sps_args_ref_new (FALSE, 3, 4));
  g_assert_cmpint (sps_trace_get_start_time (trace), ==, 1);
  g_assert_cmpint (sps_trace_get_end_time (trace), ==, 5);
}

static void
test_counters (Fixture       *fixture,
               gconstpointer  data)
{
  SpsTraceBuilder *b = fixture->builder;
  guint32 mem = str_id (fixture, "mem");
  guint32 a = sps_trace_builder_ensure_counter_track (b, fixture->process, mem, str_id (fixture, "a"));
  guint32 bb = sps_trace_builder_ensure_counter_track (b, fixture->process, mem, str_id (fixture, "b"));
  guint32 cpu = sps_trace_builder_ensure_counter_track (b, fixture->process, str_id (fixture, "cpu"), 0);
  g_autoptr(SpsTrace) trace = NULL;
  const SpsCounterTable *counters;
  const SpsTrackTable *tracks;

  g_assert_cmpuint (a, !=, bb);
  g_assert_cmpuint (sps_trace_builder_ensure_counter_track (b, fixture->process, mem, str_id (fixture, "a")), ==, a);
  g_assert_cmpuint (sps_trace_builder_ensure_counter_track (b, fixture->process, mem, str_id (fixture, "b")), ==, bb);

  sps_trace_builder_add_counter_value (b, a, 30, 3.0);
  sps_trace_builder_add_counter_value (b, a, 10, 1.0);
  sps_trace_builder_add_counter_value (b, bb, 5, 0.5);
  sps_trace_builder_add_counter_value (b, a, 20, 2.0);

  trace = finish (fixture);
  counters = sps_trace_get_counters (trace);
  tracks = sps_trace_get_tracks (trace);

  /* One track per series, even one without values */
  g_assert_cmpuint (tracks->n_rows, ==, 3);
  assert_track (trace, 0, SPS_TRACK_COUNTER, fixture->process, NO, 0, 3);
  assert_track (trace, 1, SPS_TRACK_COUNTER, fixture->process, NO, 3, 1);
  assert_track (trace, 2, SPS_TRACK_COUNTER, fixture->process, NO, 4, 0);
  g_assert_cmpstr (sps_trace_get_string (trace, tracks->name[0]), ==, "mem");
  g_assert_cmpstr (sps_trace_get_string (trace, tracks->series[0]), ==, "a");
  g_assert_cmpstr (sps_trace_get_string (trace, tracks->series[1]), ==, "b");
  g_assert_cmpstr (sps_trace_get_string (trace, tracks->name[2]), ==, "cpu");
  g_assert_cmpuint (tracks->series[2], ==, 0);
  g_assert_cmpuint (cpu, ==, 2);

  g_assert_cmpuint (counters->n_rows, ==, 4);
  g_assert_cmpint (counters->ts[0], ==, 10);
  g_assert_cmpint (counters->ts[1], ==, 20);
  g_assert_cmpint (counters->ts[2], ==, 30);
  g_assert_cmpint (counters->ts[3], ==, 5);
  g_assert_cmpfloat (counters->value[0], ==, 1.0);
  g_assert_cmpfloat (counters->value[1], ==, 2.0);
  g_assert_cmpfloat (counters->value[2], ==, 3.0);
  g_assert_cmpfloat (counters->value[3], ==, 0.5);
  g_assert_cmpuint (counters->track[2], ==, 0);
  g_assert_cmpuint (counters->track[3], ==, 1);
  g_assert_cmpint (sps_trace_get_start_time (trace), ==, 5);
  g_assert_cmpint (sps_trace_get_end_time (trace), ==, 30);
}

static void
add_three_slices (Fixture *fixture,
                  guint32  thread)
{
  add_x (fixture, thread, 0, 10, "s1");
  add_x (fixture, thread, 20, 10, "s2");
  add_x (fixture, thread, 40, 10, "s3");
}

static void
assert_flow (SpsTrace *trace,
             guint     row,
             guint32   from,
             guint32   to,
             guint64   key)
{
  const SpsFlowTable *flows = sps_trace_get_flows (trace);

  g_assert_cmpuint (row, <, flows->n_rows);
  g_assert_cmpuint (flows->from_slice[row], ==, from);
  g_assert_cmpuint (flows->to_slice[row], ==, to);
  g_assert_cmpuint (flows->key[row], ==, key);
}

static void
test_flows_chain (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(SpsTrace) trace = NULL;
  const SpsFlowTable *flows;

  add_three_slices (fixture, fixture->thread);

  /* Out of time order: the points are chained by time. */
  add_flow (fixture, 9, SPS_FLOW_END, SPS_FLOW_BIND_ENCLOSING, fixture->thread, 45, 0);
  add_flow (fixture, 9, SPS_FLOW_START, SPS_FLOW_BIND_ENCLOSING, fixture->thread, 5, 0);
  add_flow (fixture, 9, SPS_FLOW_STEP, SPS_FLOW_BIND_ENCLOSING, fixture->thread, 25, 0);
  /* A smaller key sorts first; the end binds to the next slice. */
  add_flow (fixture, 3, SPS_FLOW_START, SPS_FLOW_BIND_ENCLOSING, fixture->thread, 5, 0);
  add_flow (fixture, 3, SPS_FLOW_END, SPS_FLOW_BIND_NEXT, fixture->thread, 12, 0);

  trace = finish (fixture);
  flows = sps_trace_get_flows (trace);

  g_assert_cmpuint (flows->n_rows, ==, 3);
  assert_flow (trace, 0, 0, 1, 3);
  assert_flow (trace, 1, 0, 1, 9);
  assert_flow (trace, 2, 1, 2, 9);
  g_assert_cmpstr (sps_trace_get_string (trace, flows->name[1]), ==, "flow");
  g_assert_cmpstr (sps_trace_get_string (trace, flows->category[1]), ==, "ipc");
  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 0);
}

static void
test_flows_enclosing (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(SpsTrace) trace = NULL;

  add_x (fixture, fixture->thread, 0, 100, "A");
  add_x (fixture, fixture->thread, 10, 40, "B");

  /* The deepest slice that contains the time, ends included */
  add_flow (fixture, 1, SPS_FLOW_START, SPS_FLOW_BIND_ENCLOSING, fixture->thread, 20, 0);
  add_flow (fixture, 1, SPS_FLOW_END, SPS_FLOW_BIND_ENCLOSING, fixture->thread, 70, 0);
  add_flow (fixture, 2, SPS_FLOW_START, SPS_FLOW_BIND_ENCLOSING, fixture->thread, 50, 0);
  add_flow (fixture, 2, SPS_FLOW_END, SPS_FLOW_BIND_ENCLOSING, fixture->thread, 100, 0);
  /* The next slice from 5 is B, for both points */
  add_flow (fixture, 3, SPS_FLOW_START, SPS_FLOW_BIND_NEXT, fixture->thread, 5, 0);
  add_flow (fixture, 3, SPS_FLOW_END, SPS_FLOW_BIND_NEXT, fixture->thread, 5, 0);
  /* Chained by time: an end at 0 before its start at 5 has no start */
  add_flow (fixture, 4, SPS_FLOW_START, SPS_FLOW_BIND_NEXT, fixture->thread, 5, 0);
  add_flow (fixture, 4, SPS_FLOW_END, SPS_FLOW_BIND_NEXT, fixture->thread, 0, 0);

  trace = finish (fixture);

  g_assert_cmpuint (sps_trace_get_flows (trace)->n_rows, ==, 3);
  assert_flow (trace, 0, 1, 0, 1);
  assert_flow (trace, 1, 1, 0, 2);
  assert_flow (trace, 2, 1, 1, 3);
  g_assert_cmpuint (sps_trace_count_warning (trace, "flow_without_start"), ==, 1);
}

static void
test_flows_unbound (Fixture       *fixture,
                    gconstpointer  data)
{
  guint32 idle = sps_trace_builder_ensure_thread (fixture->builder, fixture->process, 99);
  g_autoptr(SpsTrace) trace = NULL;

  add_three_slices (fixture, fixture->thread);

  /* The start binds to nothing: the chain begins at the step. */
  add_flow (fixture, 5, SPS_FLOW_START, SPS_FLOW_BIND_ENCLOSING, fixture->thread, 15, 0);
  add_flow (fixture, 5, SPS_FLOW_STEP, SPS_FLOW_BIND_ENCLOSING, fixture->thread, 25, 0);
  add_flow (fixture, 5, SPS_FLOW_END, SPS_FLOW_BIND_ENCLOSING, fixture->thread, 45, 0);
  /* No start at all */
  add_flow (fixture, 6, SPS_FLOW_STEP, SPS_FLOW_BIND_ENCLOSING, fixture->thread, 5, 0);
  add_flow (fixture, 6, SPS_FLOW_END, SPS_FLOW_BIND_ENCLOSING, fixture->thread, 45, 0);
  /* Nothing starts after 60; a thread without slices binds nothing */
  add_flow (fixture, 7, SPS_FLOW_START, SPS_FLOW_BIND_NEXT, fixture->thread, 60, 0);
  add_flow (fixture, 8, SPS_FLOW_START, SPS_FLOW_BIND_ENCLOSING, idle, 5, 0);
  /* An end closes the chain: the step after it has no start. */
  add_flow (fixture, 10, SPS_FLOW_START, SPS_FLOW_BIND_ENCLOSING, fixture->thread, 1, 0);
  add_flow (fixture, 10, SPS_FLOW_END, SPS_FLOW_BIND_ENCLOSING, fixture->thread, 21, 0);
  add_flow (fixture, 10, SPS_FLOW_STEP, SPS_FLOW_BIND_ENCLOSING, fixture->thread, 41, 0);

  trace = finish (fixture);

  g_assert_cmpuint (sps_trace_get_flows (trace)->n_rows, ==, 2);
  assert_flow (trace, 0, 1, 2, 5);
  assert_flow (trace, 1, 0, 1, 10);
  g_assert_cmpuint (sps_trace_count_warning (trace, "unbound_flow_point"), ==, 3);
  g_assert_cmpuint (sps_trace_count_warning (trace, "flow_without_start"), ==, 3);
}

static void
test_flows_handles (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(SpsTrace) trace = NULL;
  guint32 hx, hy, hz, ha;

  hx = add_x (fixture, fixture->thread, 0, 10, "x");
  hy = add_b (fixture, fixture->thread, 20, "y");
  add_e (fixture, fixture->thread, 30);
  hz = add_x (fixture, fixture->thread, 40, 5, "z");
  ha = add_async (fixture, SPS_ASYNC_BEGIN, 1, 50, "as");
  add_async (fixture, SPS_ASYNC_END, 1, 60, "as");

  g_assert_cmpuint (hx, ==, 0);
  g_assert_cmpuint (hy, ==, 1);
  g_assert_cmpuint (hz, ==, 3);

  add_flow (fixture, 1, SPS_FLOW_START, SPS_FLOW_BIND_SLICE, NO, 1, hz);
  add_flow (fixture, 1, SPS_FLOW_STEP, SPS_FLOW_BIND_SLICE, NO, 2, hy);
  add_flow (fixture, 1, SPS_FLOW_END, SPS_FLOW_BIND_SLICE, NO, 3, ha);
  /* Handle 2 is the E: no slice */
  add_flow (fixture, 2, SPS_FLOW_START, SPS_FLOW_BIND_SLICE, NO, 1, 2);
  add_flow (fixture, 2, SPS_FLOW_END, SPS_FLOW_BIND_SLICE, NO, 2, hx);

  trace = finish (fixture);

  assert_slice (trace, 0, "x", 0, 10, NO, 0, 0);
  assert_slice (trace, 1, "y", 20, 10, NO, 0, 0);
  assert_slice (trace, 2, "z", 40, 5, NO, 0, 0);
  assert_slice (trace, 3, "as", 50, 10, NO, 0, SPS_SLICE_ASYNC);

  g_assert_cmpuint (sps_trace_get_flows (trace)->n_rows, ==, 2);
  assert_flow (trace, 0, 2, 1, 1);
  assert_flow (trace, 1, 1, 3, 1);
  g_assert_cmpuint (sps_trace_count_warning (trace, "unbound_flow_point"), ==, 1);
}

/* Properly nested slices under [start, end) */
static void
add_nested (SpsTraceBuilder *b,
            GRand           *rng,
            guint32          thread,
            SpsTime          start,
            SpsTime          end,
            guint            depth)
{
  SpsTime cursor = start;

  while (cursor < end)
    {
      SpsTime ts = cursor + g_rand_int_range (rng, 0, 30);
      SpsTime dur;

      if (ts >= end)
        break;
      dur = g_rand_int_range (rng, 0, (gint32) MIN (end - ts, 400) + 1);
      sps_trace_builder_add_complete (b, thread, ts, dur, 0, 0, SPS_ARGS_REF_NONE, 0);
      if (depth < 5 && dur > 2)
        add_nested (b, rng, thread, ts, ts + dur, depth + 1);
      cursor = ts + dur + 1;
    }
}

static guint32
brute_enclosing (SpsTrace *trace,
                 guint     track,
                 SpsTime   ts)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  guint32 best = NO;

  for (guint32 i = tracks->first_row[track]; i < tracks->first_row[track] + tracks->n_rows_in_track[track]; i++)
    if (slices->ts[i] <= ts && ts <= slices->ts[i] + slices->dur[i] &&
        (best == NO || slices->depth[i] >= slices->depth[best]))
      best = i;

  return best;
}

static guint32
brute_next (SpsTrace *trace,
            guint     track,
            SpsTime   ts)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  const SpsSliceTable *slices = sps_trace_get_slices (trace);

  for (guint32 i = tracks->first_row[track]; i < tracks->first_row[track] + tracks->n_rows_in_track[track]; i++)
    if (slices->ts[i] >= ts)
      return i;

  return NO;
}

static void
test_flows_random_binding (void)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  g_autoptr(GRand) rng = g_rand_new_with_seed (7);
  g_autoptr(SpsTrace) trace = NULL;
  guint32 process = sps_trace_builder_ensure_process (b, 1);
  guint32 threads[2];
  SpsTime points[400][2];
  guint n_arrows = 0;
  guint n_unbound = 0;
  const SpsFlowTable *flows;

  threads[0] = sps_trace_builder_ensure_thread (b, process, 1);
  threads[1] = sps_trace_builder_ensure_thread (b, process, 2);
  add_nested (b, rng, threads[0], 0, 20000, 0);
  add_nested (b, rng, threads[1], 0, 20000, 0);

  /* Key k: START enclosing on thread 0, END next on thread 1 (possibly at
   * the same time: input order decides), keys added in reverse */
  for (guint k = 0; k < G_N_ELEMENTS (points); k++)
    {
      points[k][0] = g_rand_int_range (rng, -100, 20100);
      points[k][1] = points[k][0] + g_rand_int_range (rng, 0, 500);
    }
  for (guint k = G_N_ELEMENTS (points); k-- > 0;)
    {
      sps_trace_builder_add_flow_point (b, k, SPS_FLOW_START, SPS_FLOW_BIND_ENCLOSING, threads[0], points[k][0], 0, 0, 0);
      sps_trace_builder_add_flow_point (b, k, SPS_FLOW_END, SPS_FLOW_BIND_NEXT, threads[1], points[k][1], 0, 0, 0);
    }

  trace = sps_trace_builder_finish (b, NULL, NULL);
  flows = sps_trace_get_flows (trace);
  g_assert_cmpuint (sps_trace_count_warning (trace, "overlapping_slice"), ==, 0);

  for (guint k = 0; k < G_N_ELEMENTS (points); k++)
    {
      guint32 from = brute_enclosing (trace, 0, points[k][0]);
      guint32 to = brute_next (trace, 1, points[k][1]);

      n_unbound += (from == NO) + (to == NO);
      if (from == NO || to == NO)
        continue;

      g_assert_cmpuint (n_arrows, <, flows->n_rows);
      g_assert_cmpuint (flows->key[n_arrows], ==, k);
      g_assert_cmpuint (flows->from_slice[n_arrows], ==, from);
      g_assert_cmpuint (flows->to_slice[n_arrows], ==, to);
      n_arrows++;
    }

  g_assert_cmpuint (flows->n_rows, ==, n_arrows);
  g_assert_cmpuint (sps_trace_count_warning (trace, "unbound_flow_point"), ==, n_unbound);
  g_assert_cmpuint (n_arrows, >, 100);
  g_assert_cmpuint (n_unbound, >, 10);
}

static void
test_samples_and_callsites (Fixture       *fixture,
                            gconstpointer  data)
{
  SpsTraceBuilder *b = fixture->builder;
  guint32 app = str_id (fixture, "app");
  guint32 f_main = sps_trace_builder_intern_frame (b, str_id (fixture, "main"), 0, app, 0x1000);
  guint32 f_work = sps_trace_builder_intern_frame (b, str_id (fixture, "work"), 0, app, 0x2000);
  guint32 c0, c1, c2, c3, s0, s1;
  guint32 name, raw;
  g_autoptr(SpsTrace) trace = NULL;
  const SpsSampleTable *samples;
  const SpsCallsiteTable *callsites;
  const SpsFrameTable *frames;

  g_assert_cmpuint (f_main, ==, 0);
  g_assert_cmpuint (f_work, ==, 1);
  g_assert_cmpuint (sps_trace_builder_intern_frame (b, str_id (fixture, "main"), 0, app, 0x1000), ==, 0);
  g_assert_cmpuint (sps_trace_builder_intern_frame (b, str_id (fixture, "main"), 0, app, 0x1001), ==, 2);

  c0 = sps_trace_builder_intern_callsite (b, NO, f_main);
  c1 = sps_trace_builder_intern_callsite (b, c0, f_work);
  g_assert_cmpuint (sps_trace_builder_intern_callsite (b, c0, f_work), ==, c1);
  c2 = sps_trace_builder_intern_callsite (b, NO, f_work);
  c3 = sps_trace_builder_intern_callsite (b, c1, f_main);
  g_assert_cmpuint (sps_trace_builder_intern_callsite (b, NO, f_main), ==, c0);
  g_assert_cmpuint (c0, ==, 0);
  g_assert_cmpuint (c1, ==, 1);
  g_assert_cmpuint (c2, ==, 2);
  g_assert_cmpuint (c3, ==, 3);

  s0 = sps_trace_builder_add_sample (b, fixture->thread, 30, str_id (fixture, "cpu"), NO, str_id (fixture, "7"),
                                     NAN, SPS_WEIGHT_UNIT_NONE, SPS_SAMPLE_NONE);
  s1 = sps_trace_builder_add_sample (b, fixture->thread, 10, str_id (fixture, "cpu"), c1, str_id (fixture, "8"),
                                     2.5, SPS_WEIGHT_UNIT_US, SPS_SAMPLE_HAS_WEIGHT);
  g_assert_cmpuint (s0, ==, 0);
  g_assert_cmpuint (s1, ==, 1);
  g_assert_cmpuint (sps_trace_builder_get_n_samples (b), ==, 2);
  sps_trace_builder_get_sample_ref (b, s0, &name, &raw);
  g_assert_cmpuint (name, ==, str_id (fixture, "cpu"));
  g_assert_cmpuint (raw, ==, str_id (fixture, "7"));

  /* Resolved after the whole input was read */
  sps_trace_builder_set_sample_callsite (b, s0, c0, SPS_SAMPLE_UNRESOLVED);

  trace = finish (fixture);
  samples = sps_trace_get_samples (trace);
  callsites = sps_trace_get_callsites (trace);
  frames = sps_trace_get_frames (trace);

  g_assert_cmpuint (sps_trace_get_tracks (trace)->n_rows, ==, 1);
  assert_track (trace, 0, SPS_TRACK_THREAD_SAMPLES, fixture->process, fixture->thread, 0, 2);

  g_assert_cmpuint (samples->n_rows, ==, 2);
  g_assert_cmpint (samples->ts[0], ==, 10);
  g_assert_cmpuint (samples->callsite[0], ==, c1);
  g_assert_cmpfloat (sps_sample_table_get_weight (samples, 0), ==, 2.5);
  g_assert_cmpuint (sps_sample_table_get_weight_unit (samples, 0), ==, SPS_WEIGHT_UNIT_US);
  g_assert_cmpuint (sps_sample_table_get_flags (samples, 0), ==, SPS_SAMPLE_HAS_WEIGHT);
  g_assert_cmpstr (sps_trace_get_string (trace, sps_sample_table_get_raw_stack_ref (samples, 0)), ==, "8");
  g_assert_cmpint (samples->ts[1], ==, 30);
  g_assert_cmpuint (samples->callsite[1], ==, c0);
  g_assert_true (isnan (sps_sample_table_get_weight (samples, 1)));
  g_assert_cmpuint (sps_sample_table_get_flags (samples, 1), ==, SPS_SAMPLE_UNRESOLVED);
  for (guint i = 0; i < 2; i++)
    {
      g_assert_cmpuint (samples->track[i], ==, 0);
      g_assert_cmpuint (samples->thread[i], ==, fixture->thread);
      g_assert_cmpstr (sps_trace_get_string (trace, sps_sample_table_get_event_name (samples, i)), ==, "cpu");
    }
  /* Navigation names a sample by its leaf frame */
  g_assert_cmpstr (sps_trace_get_string (trace, samples->name[0]), ==, "work");
  g_assert_cmpstr (sps_trace_get_string (trace, samples->name[1]), ==, "main");

  g_assert_cmpuint (callsites->n_rows, ==, 4);
  {
    const guint32 parent[] = { NO, 0, NO, 1 };
    const guint32 frame[] = { 0, 1, 1, 0 };
    const guint16 depth[] = { 0, 1, 0, 2 };

    for (guint i = 0; i < 4; i++)
      {
        g_assert_cmpuint (callsites->parent[i], ==, parent[i]);
        g_assert_cmpuint (callsites->frame[i], ==, frame[i]);
        g_assert_cmpuint (callsites->depth[i], ==, depth[i]);
      }
  }

  g_assert_cmpuint (frames->n_rows, ==, 3);
  g_assert_cmpstr (sps_trace_get_string (trace, frames->name[1]), ==, "work");
  g_assert_cmpuint (frames->module[1], ==, app);
  g_assert_cmpuint (frames->address[2], ==, 0x1001);
  g_assert_cmpint (sps_trace_get_start_time (trace), ==, 10);
  g_assert_cmpint (sps_trace_get_end_time (trace), ==, 30);
}

static void
test_objects (Fixture       *fixture,
              gconstpointer  data)
{
  SpsTraceBuilder *b = fixture->builder;
  guint32 p2 = sps_trace_builder_ensure_process (b, 2);
  g_autoptr(SpsTrace) trace = NULL;
  const SpsObjectTable *objects;

  sps_trace_builder_add_object_event (b, SPS_OBJECT_CREATED, fixture->process, 5, 20, str_id (fixture, "obj"), SPS_ARGS_REF_NONE);
  sps_trace_builder_add_object_event (b, SPS_OBJECT_SNAPSHOT, p2, 6, 10, str_id (fixture, "obj"), sps_args_ref_new (FALSE, 1, 2));
  sps_trace_builder_add_object_event (b, SPS_OBJECT_DESTROYED, fixture->process, 5, 30, str_id (fixture, "obj"), SPS_ARGS_REF_NONE);

  trace = finish (fixture);
  objects = sps_trace_get_objects (trace);

  g_assert_cmpuint (objects->n_rows, ==, 3);
  g_assert_cmpint (objects->ts[0], ==, 10);
  g_assert_cmpuint (objects->phase[0], ==, SPS_OBJECT_SNAPSHOT);
  g_assert_cmpuint (objects->process[0], ==, p2);
  g_assert_cmpuint (objects->key[0], ==, 6);
  g_assert_cmpuint (objects->args[0], ==, sps_args_ref_new (FALSE, 1, 2));
  g_assert_cmpint (objects->ts[1], ==, 20);
  g_assert_cmpuint (objects->phase[1], ==, SPS_OBJECT_CREATED);
  g_assert_cmpint (objects->ts[2], ==, 30);
  g_assert_cmpuint (objects->phase[2], ==, SPS_OBJECT_DESTROYED);
  g_assert_cmpuint (objects->key[2], ==, 5);
  g_assert_cmpint (sps_trace_get_start_time (trace), ==, 10);
  g_assert_cmpint (sps_trace_get_end_time (trace), ==, 30);
  /* Objects make no track */
  g_assert_cmpuint (sps_trace_get_tracks (trace)->n_rows, ==, 0);
}

static void
test_empty (void)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(SpsTrace) trace = sps_trace_builder_finish (builder, NULL, NULL);

  g_assert_nonnull (trace);
  g_assert_cmpint (sps_trace_get_start_time (trace), ==, 0);
  g_assert_cmpint (sps_trace_get_end_time (trace), ==, 0);
  g_assert_cmpuint (sps_trace_get_processes (trace)->n_rows, ==, 0);
  g_assert_cmpuint (sps_trace_get_threads (trace)->n_rows, ==, 0);
  g_assert_cmpuint (sps_trace_get_tracks (trace)->n_rows, ==, 0);
  g_assert_cmpuint (sps_trace_get_slices (trace)->n_rows, ==, 0);
  g_assert_cmpuint (sps_trace_get_instants (trace)->n_rows, ==, 0);
  g_assert_cmpuint (sps_trace_get_counters (trace)->n_rows, ==, 0);
  g_assert_cmpuint (sps_trace_get_flows (trace)->n_rows, ==, 0);
  g_assert_cmpuint (sps_trace_get_samples (trace)->n_rows, ==, 0);
  g_assert_cmpuint (sps_trace_get_callsites (trace)->n_rows, ==, 0);
  g_assert_cmpuint (sps_trace_get_frames (trace)->n_rows, ==, 0);
  g_assert_cmpuint (sps_trace_get_objects (trace)->n_rows, ==, 0);
  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 0);
  g_assert_cmpuint (sps_trace_get_n_metadata (trace), ==, 0);
  g_assert_null (sps_trace_get_format (trace));
  g_assert_null (sps_trace_get_display_time_unit (trace));
  g_assert_null (sps_trace_get_load_error (trace));
  g_assert_cmpuint (sps_trace_get_events_read (trace), ==, 0);
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES), ==, 0);
  g_assert_cmpuint (sps_trace_get_memory_size (trace), >, 0);
}

static void
test_cancel (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(SpsProgress) progress = sps_progress_new (NULL);
  g_autoptr(GError) error = NULL;
  SpsTrace *trace;

  add_x (fixture, fixture->thread, 0, 10, "x");
  add_b (fixture, fixture->thread, 5, "b");
  add_async (fixture, SPS_ASYNC_BEGIN, 1, 0, "a");

  sps_progress_cancel (progress);
  trace = sps_trace_builder_finish (fixture->builder, progress, &error);

  g_assert_null (trace);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (sps_trace_builder_get_n_samples (fixture->builder), ==, 0);

  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static void
test_progress (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(SpsProgress) progress = sps_progress_new (NULL);
  g_autoptr(SpsTrace) trace = NULL;

  add_x (fixture, fixture->thread, 0, 10, "x");
  trace = sps_trace_builder_finish (fixture->builder, progress, NULL);

  g_assert_nonnull (trace);
  g_assert_cmpint (sps_progress_get_phase (progress), ==, SPS_PROGRESS_PHASE_INDEXING);
  g_assert_cmpfloat (sps_progress_get_fraction (progress), ==, 1.0);

  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static void
test_finished_builder (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(SpsTrace) trace = finish (fixture);

  if (g_test_undefined ())
    {
      g_test_expect_message ("sps-trace-builder", G_LOG_LEVEL_CRITICAL, "*finished*");
      g_assert_cmpuint (add_x (fixture, fixture->thread, 0, 1, "late"), ==, NO);
      g_test_assert_expected_messages ();
    }

  g_assert_cmpuint (sps_trace_get_slices (trace)->n_rows, ==, 0);
}

static const char source_text[] = "{\"a\":1} xx {\"b\":[1,\"}\\\"\"],\"c\":{}} tail";
static const char second_object[] = "{\"b\":[1,\"}\\\"\"],\"c\":{}}";

static void
test_args (Fixture       *fixture,
           gconstpointer  data)
{
  SpsTraceBuilder *b = fixture->builder;
  g_autoptr(GBytes) source = g_bytes_new_static (source_text, strlen (source_text));
  SpsArgsRef first = sps_args_ref_new (FALSE, 0, 7);
  SpsArgsRef second = sps_args_ref_new (FALSE, 11, SPS_ARGS_REF_LENGTH_UNKNOWN);
  SpsArgsRef tail = sps_args_ref_new (FALSE, 34, SPS_ARGS_REF_LENGTH_UNKNOWN);
  SpsArgsRef outside = sps_args_ref_new (FALSE, 1000, 5);
  SpsArgsRef arena1, arena2;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  const SpsSliceTable *slices;
  JsonObject *object;
  JsonArray *array;
  const char *text;
  SpsArgsRef value;
  gsize len;

  sps_trace_builder_set_source (b, source);
  g_assert_true (sps_trace_builder_get_source (b) == source);

  arena1 = sps_trace_builder_add_args_text (b, "{\"k\":\"v\"}", -1);
  arena2 = sps_trace_builder_add_args_text (b, "[1,2]", 5);
  g_assert_cmpuint (arena1 & SPS_ARGS_REF_ARENA_BIT, !=, 0);
  g_assert_cmpuint (arena2, ==, sps_args_ref_new (TRUE, 9, 5));
  g_assert_cmpuint (sps_trace_builder_add_args_text (b, "", -1), ==, SPS_ARGS_REF_NONE);

  sps_trace_builder_add_complete (b, fixture->thread, 0, 1, 0, 0, first, 0);
  sps_trace_builder_add_complete (b, fixture->thread, 1, 1, 0, 0, second, 0);
  sps_trace_builder_add_complete (b, fixture->thread, 2, 1, 0, 0, arena1, 0);
  sps_trace_builder_add_metadata (b, "otherData", arena2);
  sps_trace_builder_add_metadata (b, "beginningOfTime", first);

  trace = finish (fixture);
  slices = sps_trace_get_slices (trace);

  g_assert_cmpuint (slices->args[0], ==, first);
  g_assert_cmpuint (slices->args[1], ==, second);
  g_assert_cmpuint (slices->args[2], ==, arena1);

  /* Zero copy: the text is in the source */
  text = sps_trace_get_args_json (trace, first, &len);
  g_assert_true (text == source_text);
  g_assert_cmpmem (text, len, "{\"a\":1}", 7);

  /* Unknown length: the balanced value, braces in strings ignored */
  text = sps_trace_get_args_json (trace, second, &len);
  g_assert_true (text == source_text + 11);
  g_assert_cmpmem (text, len, second_object, strlen (second_object));

  text = sps_trace_get_args_json (trace, arena1, &len);
  g_assert_cmpmem (text, len, "{\"k\":\"v\"}", 9);
  text = sps_trace_get_args_json (trace, arena2, &len);
  g_assert_cmpmem (text, len, "[1,2]", 5);

  g_assert_null (sps_trace_get_args_json (trace, SPS_ARGS_REF_NONE, &len));
  g_assert_cmpuint (len, ==, 0);
  g_assert_null (sps_trace_get_args_json (trace, outside, &len));

  node = sps_trace_parse_args (trace, second, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  object = json_node_get_object (node);
  g_assert_cmpuint (json_object_get_size (object), ==, 2);
  array = json_object_get_array_member (object, "b");
  g_assert_cmpuint (json_array_get_length (array), ==, 2);
  g_assert_cmpint (json_array_get_int_element (array, 0), ==, 1);
  g_assert_cmpstr (json_array_get_string_element (array, 1), ==, "}\"");
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_object_get_member (object, "c")));
  g_clear_pointer (&node, json_node_unref);

  node = sps_trace_parse_args (trace, arena1, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (node), "k"), ==, "v");
  g_clear_pointer (&node, json_node_unref);

  g_assert_null (sps_trace_parse_args (trace, SPS_ARGS_REF_NONE, &error));
  g_assert_no_error (error);

  g_assert_null (sps_trace_parse_args (trace, outside, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_clear_error (&error);

  /* "tail" is not JSON */
  text = sps_trace_get_args_json (trace, tail, &len);
  g_assert_cmpmem (text, len, "tail", 4);
  g_assert_null (sps_trace_parse_args (trace, tail, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);

  g_assert_cmpuint (sps_trace_get_n_metadata (trace), ==, 2);
  g_assert_cmpstr (sps_trace_get_metadata (trace, 0, &value), ==, "otherData");
  g_assert_cmpuint (value, ==, arena2);
  g_assert_cmpstr (sps_trace_get_metadata (trace, 1, &value), ==, "beginningOfTime");
  g_assert_cmpuint (value, ==, first);
}

/* References the args text cannot serve: every one gives NULL (and an
 * error from the parser) instead of reading outside its store. */
static void
test_args_edges (Fixture       *fixture,
                 gconstpointer  data)
{
  /* 15 bytes: an object, three spaces, an array that never closes */
  static const char text[] = "{\"a\":1}   [1,2 ";
  g_autoptr(GBytes) source = g_bytes_new_static (text, strlen (text));
  SpsArgsRef past_end = sps_args_ref_new (FALSE, 10, 10);
  SpsArgsRef blank = sps_args_ref_new (FALSE, 7, 3);
  SpsArgsRef unclosed = sps_args_ref_new (FALSE, 10, SPS_ARGS_REF_LENGTH_UNKNOWN);
  SpsArgsRef number = sps_args_ref_new (FALSE, 5, SPS_ARGS_REF_LENGTH_UNKNOWN);
  SpsArgsRef empty_arena = sps_args_ref_new (TRUE, 0, 1);
  g_autoptr(SpsTraceBuilder) no_source = sps_trace_builder_new ();
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsTrace) bare = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  const char *json;
  gsize len;

  sps_trace_builder_set_source (fixture->builder, source);
  trace = finish (fixture);
  bare = sps_trace_builder_finish (no_source, NULL, NULL);

  /* 10 bytes from offset 10 run past the 15 of the source */
  g_assert_null (sps_trace_get_args_json (trace, past_end, &len));
  g_assert_cmpuint (len, ==, 0);
  /* An unknown length is scanned for; the array never ends */
  g_assert_null (sps_trace_get_args_json (trace, unclosed, &len));
  g_assert_null (sps_trace_parse_args (trace, unclosed, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_clear_error (&error);
  /* A number ends at the '}' after it */
  json = sps_trace_get_args_json (trace, number, &len);
  g_assert_cmpmem (json, len, "1", 1);
  node = sps_trace_parse_args (trace, number, &error);
  g_assert_no_error (error);
  g_assert_cmpint (json_node_get_int (node), ==, 1);
  /* Text with no JSON value in it */
  json = sps_trace_get_args_json (trace, blank, &len);
  g_assert_cmpmem (json, len, "   ", 3);
  g_assert_null (sps_trace_parse_args (trace, blank, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_clear_error (&error);
  /* Nothing was added to the arena */
  g_assert_null (sps_trace_get_args_json (trace, empty_arena, &len));
  /* A trace without source bytes */
  g_assert_null (sps_trace_get_args_json (bare, sps_args_ref_new (FALSE, 0, 7), &len));

  /* Kinds past the last have no slices */
  g_assert_cmpuint (sps_trace_count_slices (trace, (SpsTrackKind) 99), ==, 0);
}

static void
test_warnings_and_counters (Fixture       *fixture,
                            gconstpointer  data)
{
  SpsTraceBuilder *b = fixture->builder;
  g_autoptr(SpsTrace) trace = NULL;
  const char *message;
  guint64 count;

  sps_trace_builder_warn (b, "zeta", "first %d", 1);
  sps_trace_builder_warn (b, "zeta", "second %d", 2);
  sps_trace_builder_warn (b, "alpha", NULL);
  sps_trace_builder_add_events_read (b, 40);
  sps_trace_builder_add_events_read (b, 2);
  sps_trace_builder_add_metadata_events (b, 3);
  sps_trace_builder_set_format (b, "chrome-json");
  sps_trace_builder_set_display_time_unit (b, "ns");

  trace = finish (fixture);

  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 2);
  g_assert_cmpstr (sps_trace_get_warning (trace, 0, &count, &message), ==, "alpha");
  g_assert_cmpuint (count, ==, 1);
  g_assert_null (message);
  g_assert_cmpstr (sps_trace_get_warning (trace, 1, &count, &message), ==, "zeta");
  g_assert_cmpuint (count, ==, 2);
  g_assert_cmpstr (message, ==, "first 1");
  g_assert_cmpuint (sps_trace_count_warning (trace, "zeta"), ==, 2);
  g_assert_cmpuint (sps_trace_count_warning (trace, "beta"), ==, 0);

  g_assert_cmpuint (sps_trace_get_events_read (trace), ==, 42);
  g_assert_cmpuint (sps_trace_get_metadata_events (trace), ==, 3);
  g_assert_cmpstr (sps_trace_get_format (trace), ==, "chrome-json");
  g_assert_cmpstr (sps_trace_get_display_time_unit (trace), ==, "ns");
}

static void
test_processes_and_threads (void)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  g_autoptr(SpsTrace) trace = NULL;
  const SpsProcessTable *processes;
  const SpsThreadTable *threads;
  guint32 p0, p1, t0, t1;

  p0 = sps_trace_builder_ensure_process (b, 100);
  p1 = sps_trace_builder_ensure_process (b, -5);
  g_assert_cmpuint (p0, ==, 0);
  g_assert_cmpuint (p1, ==, 1);
  g_assert_cmpuint (sps_trace_builder_ensure_process (b, 100), ==, 0);

  for (guint i = 0; i < 1000; i++)
    g_assert_cmpuint (sps_trace_builder_ensure_process (b, 1000 + i), ==, 2 + i);
  for (guint i = 0; i < 1000; i += 7)
    g_assert_cmpuint (sps_trace_builder_ensure_process (b, 1000 + i), ==, 2 + i);

  t0 = sps_trace_builder_ensure_thread (b, p0, 7);
  t1 = sps_trace_builder_ensure_thread (b, p1, 7);
  g_assert_cmpuint (t0, ==, 0);
  g_assert_cmpuint (t1, ==, 1);
  g_assert_cmpuint (sps_trace_builder_ensure_thread (b, p0, 7), ==, 0);
  for (guint i = 0; i < 500; i++)
    g_assert_cmpuint (sps_trace_builder_ensure_thread (b, p1, 100 + i), ==, 2 + i);
  g_assert_cmpuint (sps_trace_builder_ensure_thread (b, p1, 7), ==, 1);

  sps_trace_builder_set_process_name (b, p0, sps_trace_builder_intern (b, "browser", -1));
  sps_trace_builder_set_process_sort_index (b, p0, -3);
  sps_trace_builder_set_process_labels (b, p0, sps_trace_builder_intern (b, "tab", -1));
  sps_trace_builder_set_thread_name (b, t1, sps_trace_builder_intern (b, "worker", -1));
  sps_trace_builder_set_thread_sort_index (b, t1, 4);

  trace = sps_trace_builder_finish (b, NULL, NULL);
  processes = sps_trace_get_processes (trace);
  threads = sps_trace_get_threads (trace);

  g_assert_cmpuint (processes->n_rows, ==, 1002);
  g_assert_cmpint (processes->pid[0], ==, 100);
  g_assert_cmpint (processes->pid[1], ==, -5);
  g_assert_cmpint (processes->pid[1001], ==, 1999);
  g_assert_cmpstr (sps_trace_get_string (trace, processes->name[0]), ==, "browser");
  g_assert_cmpint (processes->sort_index[0], ==, -3);
  g_assert_cmpint (processes->sort_index[1], ==, G_MAXINT32);
  g_assert_cmpstr (sps_trace_get_string (trace, processes->labels[0]), ==, "tab");
  g_assert_cmpuint (processes->name[1], ==, 0);

  g_assert_cmpuint (threads->n_rows, ==, 502);
  g_assert_cmpuint (threads->process[0], ==, p0);
  g_assert_cmpuint (threads->process[1], ==, p1);
  g_assert_cmpint (threads->tid[501], ==, 599);
  g_assert_cmpstr (sps_trace_get_string (trace, threads->name[1]), ==, "worker");
  g_assert_cmpint (threads->sort_index[1], ==, 4);
  g_assert_cmpint (threads->sort_index[0], ==, G_MAXINT32);
}

typedef struct
{
  guint32 track;
  SpsTime ts;
  SpsTime dur;
  guint32 input;
} Expected;

static gint
compare_expected (gconstpointer a,
                  gconstpointer b,
                  gpointer      user_data)
{
  const Expected *ea = a;
  const Expected *eb = b;

  if (ea->track != eb->track)
    return ea->track < eb->track ? -1 : 1;
  if (ea->ts != eb->ts)
    return ea->ts < eb->ts ? -1 : 1;
  if (ea->dur != eb->dur)
    return ea->dur > eb->dur ? -1 : 1;
  return ea->input < eb->input ? -1 : ea->input > eb->input;
}

/* Random X slices on two threads, checked against a comparison sort of
 * (track, ts, longest first, input order). @spread picks the time span:
 * small spans with many equal times, or spans too wide to pack a row
 * index next to the time. */
static void
check_sorting (guint    n,
               guint64  spread,
               guint    n_distinct_durations,
               gboolean nearly_sorted)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  g_autoptr(SpsTrace) trace = NULL;
  g_autofree Expected *expected = g_new (Expected, n);
  g_autoptr(GRand) rng = g_rand_new_with_seed (n);
  guint32 process = sps_trace_builder_ensure_process (b, 1);
  guint32 threads[2];
  const SpsSliceTable *slices;

  threads[0] = sps_trace_builder_ensure_thread (b, process, 1);
  threads[1] = sps_trace_builder_ensure_thread (b, process, 2);

  for (guint i = 0; i < n; i++)
    {
      guint t = g_rand_int_range (rng, 0, 2);
      SpsTime dur = g_rand_int_range (rng, 0, n_distinct_durations);
      SpsTime ts;

      /* In order but for a step back now and then, onto earlier times
       * (ties with the rows before it), as V8 profiles write samples */
      if (nearly_sorted)
        ts = (SpsTime) (i / 2) * 10 - (g_rand_int_range (rng, 0, 50) == 0 ? 20 : 0);
      else
        ts = (SpsTime) (((guint64) g_rand_int (rng) << 32 | g_rand_int (rng)) % spread) - (SpsTime) (spread / 2);

      sps_trace_builder_add_complete (b, threads[t], ts, dur, i, 0, SPS_ARGS_REF_NONE, 0);
      expected[i].track = t;
      expected[i].ts = ts;
      expected[i].dur = dur;
      expected[i].input = i;
    }

  g_qsort_with_data (expected, n, sizeof (Expected), compare_expected, NULL);

  trace = sps_trace_builder_finish (b, NULL, NULL);
  slices = sps_trace_get_slices (trace);

  g_assert_cmpuint (slices->n_rows, ==, n);
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpint (slices->ts[i], ==, expected[i].ts);
      g_assert_cmpint (slices->dur[i], ==, expected[i].dur);
      /* The name column carries the input position */
      g_assert_cmpuint (slices->name[i], ==, expected[i].input);
      g_assert_cmpuint (slices->track[i], ==, expected[i].track);
    }
}

/* Random samples on one thread, checked against a comparison sort of
 * (ts, input order); the weight carries the input position. Samples have
 * no durations: finish() sorts them by keys that hold each row's
 * position, sorted in place. */
static void
check_sample_sorting (guint   n,
                      guint64 spread)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  g_autoptr(SpsTrace) trace = NULL;
  g_autofree Expected *expected = g_new (Expected, n);
  g_autoptr(GRand) rng = g_rand_new_with_seed (n ^ 0x5a5a);
  guint32 process = sps_trace_builder_ensure_process (b, 1);
  guint32 thread = sps_trace_builder_ensure_thread (b, process, 1);
  guint32 name = sps_trace_builder_intern (b, "sample", -1);
  const SpsSampleTable *samples;

  for (guint i = 0; i < n; i++)
    {
      SpsTime ts = (SpsTime) (((guint64) g_rand_int (rng) << 32 | g_rand_int (rng)) % spread);

      sps_trace_builder_add_sample (b, thread, ts, name, SPS_NO_INDEX, 0, i, SPS_WEIGHT_UNIT_NONE,
                                    SPS_SAMPLE_HAS_WEIGHT);
      expected[i].track = 0;
      expected[i].ts = ts;
      expected[i].dur = 0;
      expected[i].input = i;
    }
  g_qsort_with_data (expected, n, sizeof (Expected), compare_expected, NULL);

  trace = sps_trace_builder_finish (b, NULL, NULL);
  samples = sps_trace_get_samples (trace);
  g_assert_cmpuint (samples->n_rows, ==, n);
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpint (samples->ts[i], ==, expected[i].ts);
      g_assert_cmpfloat (sps_sample_table_get_weight (samples, i), ==, expected[i].input);
    }
}

static void
test_sort_samples (void)
{
  g_test_summary ("Samples sorted by (ts, input order) on random input: 8-bit and 11-bit digits, "
                  "many ties and none");

  check_sample_sorting (1000, 200);
  check_sample_sorting (70000, 5000);
  check_sample_sorting (200000, G_GUINT64_CONSTANT (1) << 40);
}

static void
test_sort_random (void)
{
  g_test_summary ("Sorting by (track, ts, longest first, input order) on random input");

  /* Insertion sort, 8-bit and 11-bit radix, many ties */
  check_sorting (60, 1000, 5, FALSE);
  check_sorting (5000, 1000, 50, FALSE);
  check_sorting (300000, G_GUINT64_CONSTANT (1) << 34, 1000, FALSE);
  check_sorting (20000, 50, 100, FALSE);
}

static void
test_sort_nearly_sorted (void)
{
  g_test_summary ("Sorting input that steps back now and then, with ties, in place");

  check_sorting (40, 0, 3, TRUE);
  check_sorting (100000, 0, 4, TRUE);
}

static void
test_sort_wide_range (void)
{
  /* Time spans too wide to pack the row index next to the time */
  check_sorting (50000, G_GUINT64_CONSTANT (1) << 62, 1000, FALSE);
  check_sorting (100, G_GUINT64_CONSTANT (1) << 62, 3, FALSE);
}

static void
test_memory_size (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(SpsTrace) trace = NULL;
  gsize size;

  for (guint i = 0; i < 10000; i++)
    add_x (fixture, fixture->thread, i * 10, 5, "s");

  trace = finish (fixture);
  size = sps_trace_get_memory_size (trace);

  /* 52 bytes of columns per slice (ts, dur, self time, args 8 each; name,
   * category, track, parent 4 each; depth, flags 2 each), plus the pool
   * and small fixed parts: no slice has a stack, so the two callsite
   * columns are stored once */
  g_assert_null (sps_trace_get_slices (trace)->callsite);
  g_assert_null (sps_trace_get_slices (trace)->end_callsite);
  g_assert_cmpuint (size, >=, 10000 * 52);
  g_assert_cmpuint (size, <=, 10000 * 52 + sps_string_pool_get_memory_size (sps_trace_get_strings (trace)) + 4096);
}

/* The callsite columns are stored per row only when slices differ, and
 * read the same either way; an E's stack becomes its slice's end stack
 * even when the builder stored no column per row. */
static void
test_slice_callsites_constant (Fixture       *fixture,
                               gconstpointer  data)
{
  g_autoptr(SpsTrace) trace = NULL;
  const SpsSliceTable *slices;
  guint32 frame = sps_trace_builder_intern_frame (fixture->builder, str_id (fixture, "f"), 0, 0, 0);
  guint32 cs = sps_trace_builder_intern_callsite (fixture->builder, SPS_NO_INDEX, frame);
  guint32 x;

  /* Every X has the same start stack and none an end stack: both columns
   * stay one value */
  for (guint i = 0; i < 4; i++)
    {
      x = add_x (fixture, fixture->thread, i * 10, 5, "x");
      sps_trace_builder_set_slice_callsites (fixture->builder, x, cs, SPS_NO_INDEX);
    }
  trace = finish (fixture);
  slices = sps_trace_get_slices (trace);
  g_assert_cmpuint (slices->n_rows, ==, 4);
  g_assert_null (slices->callsite);
  g_assert_null (slices->end_callsite);
  g_assert_cmpuint (slices->constants.callsite, ==, cs);
  g_assert_cmpuint (slices->constants.end_callsite, ==, SPS_NO_INDEX);
  for (guint i = 0; i < 4; i++)
    {
      g_assert_cmpuint (sps_slice_table_get_callsite (slices, i), ==, cs);
      g_assert_cmpuint (sps_slice_table_get_end_callsite (slices, i), ==, SPS_NO_INDEX);
    }
}

static void
test_slice_callsites_from_end (Fixture       *fixture,
                               gconstpointer  data)
{
  g_autoptr(SpsTrace) trace = NULL;
  const SpsSliceTable *slices;
  guint32 frame = sps_trace_builder_intern_frame (fixture->builder, str_id (fixture, "f"), 0, 0, 0);
  guint32 cs = sps_trace_builder_intern_callsite (fixture->builder, SPS_NO_INDEX, frame);
  guint32 e;

  /* B at 0 and 20 without stacks; only the first E carries one. The
   * records' start column is materialised by the E; after pairing, the
   * slices' start stacks are all none again (stored once), and the
   * first slice's end stack is the E's. */
  add_b (fixture, fixture->thread, 0, "a");
  e = sps_trace_builder_add_end (fixture->builder, fixture->thread, 10, SPS_ARGS_REF_NONE, 0);
  sps_trace_builder_set_slice_callsites (fixture->builder, e, cs, SPS_NO_INDEX);
  add_b (fixture, fixture->thread, 20, "b");
  add_e (fixture, fixture->thread, 30);

  trace = finish (fixture);
  slices = sps_trace_get_slices (trace);
  g_assert_cmpuint (slices->n_rows, ==, 2);
  g_assert_null (slices->callsite);
  g_assert_cmpuint (slices->constants.callsite, ==, SPS_NO_INDEX);
  g_assert_nonnull (slices->end_callsite);
  g_assert_cmpuint (sps_slice_table_get_end_callsite (slices, 0), ==, cs);
  g_assert_cmpuint (sps_slice_table_get_end_callsite (slices, 1), ==, SPS_NO_INDEX);
  g_assert_cmpuint (sps_slice_table_get_callsite (slices, 0), ==, SPS_NO_INDEX);
}

#define TEST(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();

  TEST ("/core/builder/complete/nesting", test_complete_nesting);
  TEST ("/core/builder/pairing/innermost", test_begin_end_innermost);
  TEST ("/core/builder/pairing/unmatched", test_begin_end_unmatched);
  TEST ("/core/builder/pairing/sampled-independent", test_begin_end_sampled);
  TEST ("/core/builder/pairing/unsorted-input", test_begin_end_unsorted_input);
  TEST ("/core/builder/sort/ties", test_ties);
  g_test_add_func ("/core/builder/sort/random", test_sort_random);
  g_test_add_func ("/core/builder/sort/samples", test_sort_samples);
  g_test_add_func ("/core/builder/sort/wide-range", test_sort_wide_range);
  g_test_add_func ("/core/builder/sort/nearly-sorted", test_sort_nearly_sorted);
  TEST ("/core/builder/nesting/overlap", test_overlap);
  TEST ("/core/builder/nesting/max-depth", test_max_depth);
  TEST ("/core/builder/async/nesting", test_async_nesting);
  TEST ("/core/builder/async/lanes", test_async_lanes);
  TEST ("/core/builder/async/unmatched", test_async_unmatched);
  TEST ("/core/builder/async/legacy-steps", test_async_legacy_steps);
  TEST ("/core/builder/async/legacy-unfinished", test_async_legacy_unfinished);
  TEST ("/core/builder/instants/scopes", test_instant_scopes);
  TEST ("/core/builder/counters/sorted", test_counters);
  TEST ("/core/builder/flows/chain", test_flows_chain);
  TEST ("/core/builder/flows/enclosing", test_flows_enclosing);
  TEST ("/core/builder/flows/unbound", test_flows_unbound);
  TEST ("/core/builder/flows/handles", test_flows_handles);
  g_test_add_func ("/core/builder/flows/random-binding", test_flows_random_binding);
  TEST ("/core/builder/samples/callsites", test_samples_and_callsites);
  TEST ("/core/builder/objects", test_objects);
  g_test_add_func ("/core/builder/empty", test_empty);
  TEST ("/core/builder/cancel", test_cancel);
  TEST ("/core/builder/progress", test_progress);
  TEST ("/core/builder/finished", test_finished_builder);
  TEST ("/core/builder/args", test_args);
  TEST ("/core/builder/args/edges", test_args_edges);
  TEST ("/core/builder/warnings", test_warnings_and_counters);
  g_test_add_func ("/core/builder/processes-threads", test_processes_and_threads);
  TEST ("/core/builder/memory-size", test_memory_size);
  TEST ("/core/builder/slice-callsites/constant", test_slice_callsites_constant);
  TEST ("/core/builder/slice-callsites/from-end", test_slice_callsites_from_end);

  return g_test_run ();
}
