/* test-timeline-lod-prepare.c: summaries built ahead in threads against
 * the ones built on demand
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <spanscope-core.h>

#include "sps-test-lod.h"
#include "sps-test-util.h"
#include "sps-timeline-lod-private.h"
#include "sps-timeline-private.h"

/* Fixed seed: every run checks the same random traces. */
static GRand *rng;

static const char *const names[] = { "a", "b", "c", "d", "e", "f", "g" };

/* Children of [@start, @end) at the depth below, recursively */
static void
add_nested (SpsTraceBuilder *builder,
            guint32          thread,
            SpsTime          start,
            SpsTime          end,
            guint            depth)
{
  SpsTime t = start;

  while (depth < 6)
    {
      SpsTime gap = g_rand_boolean (rng) ? g_rand_int_range (rng, 0, 5) : g_rand_int_range (rng, 0, 4000);
      SpsTime dur = g_rand_boolean (rng) ? g_rand_int_range (rng, 1, 10) : g_rand_int_range (rng, 1, 20000);
      const char *name = names[g_rand_int_range (rng, 0, G_N_ELEMENTS (names))];

      t += gap;
      if (t >= end || dur > end - t)
        break;

      sps_trace_builder_add_complete (builder, thread, t, dur,
                                      sps_trace_builder_intern (builder, name, -1),
                                      0, SPS_ARGS_REF_NONE, SPS_SLICE_NONE);
      if (dur > 2 && g_rand_int_range (rng, 0, 3) > 0)
        add_nested (builder, thread, t + 1, t + dur - 1, depth + 1);
      t += dur;
    }
}

/* Five threads of nested slices, overlapping async slices (their lanes
 * need the running maximum of the ends), two counters (one with NaN
 * values), instants of two threads and samples of one */
static SpsTrace *
build_random_trace (void)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  guint32 process = sps_trace_builder_ensure_process (builder, 1);
  guint32 threads[5];
  guint32 counters[2];
  SpsTrace *trace;

  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      threads[i] = sps_trace_builder_ensure_thread (builder, process, i + 1);
      add_nested (builder, threads[i], g_rand_int_range (rng, -5000, 5000), 3000000, 0);
    }

  for (guint i = 0; i < 400; i++)
    {
      SpsTime ts = g_rand_int_range (rng, 0, 3000000);
      SpsTime dur = g_rand_int_range (rng, 0, 60000);

      guint32 name = sps_trace_builder_intern (builder, names[i % G_N_ELEMENTS (names)], -1);

      sps_trace_builder_add_async (builder, SPS_ASYNC_BEGIN, process, i, ts, name, 0, SPS_ARGS_REF_NONE);
      sps_trace_builder_add_async (builder, SPS_ASYNC_END, process, i, ts + dur, name, 0, SPS_ARGS_REF_NONE);
    }

  for (guint c = 0; c < G_N_ELEMENTS (counters); c++)
    {
      g_autofree char *name = g_strdup_printf ("counter%u", c);
      SpsTime ts = -3000;

      counters[c] = sps_trace_builder_ensure_counter_track (builder, process,
                                                            sps_trace_builder_intern (builder, name, -1), 0);
      for (guint i = 0; i < 2000; i++)
        {
          double value = c == 1 && i % 97 == 5 ? NAN : g_rand_double_range (rng, -50, 50);

          ts += g_rand_boolean (rng) ? g_rand_int_range (rng, 0, 3) : g_rand_int_range (rng, 0, 3000);
          sps_trace_builder_add_counter_value (builder, counters[c], ts, value);
        }
    }

  for (guint i = 0; i < 3000; i++)
    {
      guint32 thread = threads[i % 2];

      sps_trace_builder_add_instant (builder, SPS_INSTANT_KIND_INSTANT, SPS_INSTANT_SCOPE_THREAD,
                                     process, thread, g_rand_int_range (rng, -4000, 3000000),
                                     sps_trace_builder_intern (builder, names[i % G_N_ELEMENTS (names)], -1),
                                     0, SPS_ARGS_REF_NONE);
      sps_trace_builder_add_sample (builder, threads[2], g_rand_int_range (rng, 0, 3000000), 0, SPS_NO_INDEX,
                                    0, NAN, SPS_WEIGHT_UNIT_NONE, SPS_SAMPLE_NONE);
    }

  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);

  return trace;
}

static void
assert_same_slice_lane (SpsTimelineLod *a,
                        SpsTimelineLod *b,
                        guint           track,
                        guint           depth,
                        guint           level)
{
  SpsLodIter ia, ib;
  SpsLodRun ra, rb;
  guint n = 0;

  g_assert_cmpuint (_sps_timeline_lod_get_n_runs (a, track, depth, level), ==,
                    _sps_timeline_lod_get_n_runs (b, track, depth, level));

  _sps_timeline_lod_runs_init (a, &ia, track, depth, level, SPS_TIME_MIN, SPS_TIME_MAX);
  _sps_timeline_lod_runs_init (b, &ib, track, depth, level, SPS_TIME_MIN, SPS_TIME_MAX);
  while (_sps_timeline_lod_runs_next (&ia, &ra))
    {
      g_assert_true (_sps_timeline_lod_runs_next (&ib, &rb));
      g_assert_cmpint (ra.start, ==, rb.start);
      g_assert_cmpint (ra.end, ==, rb.end);
      g_assert_cmpuint (ra.slice, ==, rb.slice);
      g_assert_cmpuint (ra.count, ==, rb.count);
      g_assert_cmpuint (ra.name, ==, rb.name);
      n++;
    }
  g_assert_false (_sps_timeline_lod_runs_next (&ib, &rb));
  g_assert_cmpuint (n, ==, _sps_timeline_lod_get_n_runs (a, track, depth, level));
}

static void
assert_same_counter (SpsTimelineLod *a,
                     SpsTimelineLod *b,
                     guint           track,
                     guint           level)
{
  double min_a = 0, max_a = 0, min_b = 0, max_b = 0;

  g_assert_cmpint (_sps_timeline_lod_get_counter_range (a, track, &min_a, &max_a), ==,
                   _sps_timeline_lod_get_counter_range (b, track, &min_b, &max_b));
  g_assert_cmpfloat (min_a, ==, min_b);
  g_assert_cmpfloat (max_a, ==, max_b);
  g_assert_cmpuint (_sps_timeline_lod_get_n_buckets (a, track, level), ==,
                    _sps_timeline_lod_get_n_buckets (b, track, level));

  sps_test_lod_assert_same_buckets (a, b, track, level, SPS_TIME_MIN, SPS_TIME_MAX);
}

static void
assert_same_points (SpsTimelineLod *a,
                    SpsTimelineLod *b,
                    guint           track,
                    guint           level)
{
  g_assert_cmpuint (_sps_timeline_lod_get_n_points (a, track, level), ==,
                    _sps_timeline_lod_get_n_points (b, track, level));

  sps_test_lod_assert_same_points (a, b, track, level, SPS_TIME_MIN, SPS_TIME_MAX);
}

/* Every level of every track of @prepared against the same level built
 * on demand, alone, in summaries of its own: from the slices, the
 * straightforward way. Returns the slice lanes compared. */
static guint
assert_same_as_on_demand (SpsTrace       *trace,
                          SpsTimelineLod *prepared)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  guint lanes = 0;

  for (guint level = 0; level < SPS_LOD_N_LEVELS; level++)
    {
      g_autoptr(SpsTimelineLod) on_demand = _sps_timeline_lod_new (trace);

      for (guint t = 0; t < tracks->n_rows; t++)
        switch ((SpsTrackKind) tracks->kind[t])
          {
          case SPS_TRACK_THREAD_SLICES:
          case SPS_TRACK_THREAD_SAMPLED_SLICES:
          case SPS_TRACK_ASYNC:
            for (guint d = 0; d < tracks->max_depth[t]; d++, lanes++)
              assert_same_slice_lane (prepared, on_demand, t, d, level);
            break;
          case SPS_TRACK_COUNTER:
            assert_same_counter (prepared, on_demand, t, level);
            break;
          case SPS_TRACK_THREAD_INSTANTS:
          case SPS_TRACK_PROCESS_INSTANTS:
          case SPS_TRACK_GLOBAL_INSTANTS:
          case SPS_TRACK_THREAD_SAMPLES:
            assert_same_points (prepared, on_demand, t, level);
            break;
          default:
            break;
          }
    }

  return lanes;
}

/* Built ahead at a level, with 1, 2 or 5 threads, the summaries give
 * exactly the items, buckets and points that building each level on
 * demand gives, at every level: coarser levels are then made from the
 * prepared one, finer ones from the slices. */
static void
test_prepare_equals_on_demand (void)
{
  for (guint round = 0; round < 3; round++)
    {
      g_autoptr(SpsTrace) trace = build_random_trace ();
      SpsTime span = sps_trace_get_end_time (trace) - sps_trace_get_start_time (trace);
      const guint levels[] = { 0, 6, 11, _sps_timeline_lod_level_ahead (span), 40 };
      const guint threads[] = { 1, 2, 5 };

      g_assert_cmpuint (sps_trace_get_slices (trace)->n_rows, >, 1000);

      for (guint i = 0; i < G_N_ELEMENTS (levels); i++)
        {
          g_autoptr(SpsTimelineLod) prepared = _sps_timeline_lod_new (trace);
          gsize before = _sps_timeline_lod_get_memory_size (prepared);

          g_assert_true (_sps_timeline_lod_prepare (prepared, levels[i], threads[(round + i) % G_N_ELEMENTS (threads)],
                                                    NULL));
          /* Something was built, and counted */
          g_assert_cmpuint (_sps_timeline_lod_get_memory_size (prepared), >, before);
          /* Nested slices (six depths), async lanes: every lane compared */
          g_assert_cmpuint (assert_same_as_on_demand (trace, prepared), >=, 8 * SPS_LOD_N_LEVELS);
        }
    }
}

/* The same memory count from one thread and from several: the count is
 * added to atomically */
static void
test_prepare_memory (void)
{
  g_autoptr(SpsTrace) trace = build_random_trace ();
  g_autoptr(SpsTimelineLod) one = _sps_timeline_lod_new (trace);
  g_autoptr(SpsTimelineLod) several = _sps_timeline_lod_new (trace);

  g_assert_true (_sps_timeline_lod_prepare (one, 9, 1, NULL));
  g_assert_true (_sps_timeline_lod_prepare (several, 9, 4, NULL));
  g_assert_cmpuint (_sps_timeline_lod_get_memory_size (one), ==, _sps_timeline_lod_get_memory_size (several));
}

/* Cancelled before it starts, it builds nothing and says so; the
 * summaries still answer, on demand */
static void
test_prepare_cancelled (void)
{
  g_autoptr(SpsTrace) trace = build_random_trace ();
  g_autoptr(SpsTimelineLod) lod = _sps_timeline_lod_new (trace);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  gsize before = _sps_timeline_lod_get_memory_size (lod);

  g_cancellable_cancel (cancellable);
  g_assert_false (_sps_timeline_lod_prepare (lod, 10, 2, cancellable));
  g_assert_cmpuint (_sps_timeline_lod_get_memory_size (lod), ==, before);
  assert_same_as_on_demand (trace, lod);
}

/* The level built ahead: fine enough for 4096 pixels showing the span */
static void
test_level_ahead (void)
{
  g_assert_cmpuint (_sps_timeline_lod_level_ahead (0), ==, 0);
  g_assert_cmpuint (_sps_timeline_lod_level_ahead (-5), ==, 0);
  g_assert_cmpuint (_sps_timeline_lod_level_ahead (8191), ==, 0);
  g_assert_cmpuint (_sps_timeline_lod_level_ahead (8192), ==, 1);
  /* 34 s: 8.3 ms a pixel, 2^22 ns = 4.2 ms */
  g_assert_cmpuint (_sps_timeline_lod_level_ahead (G_GINT64_CONSTANT (34000000000)), ==, 22);
  g_assert_cmpuint (_sps_timeline_lod_level_ahead (SPS_TIME_MAX), ==, 51);
}

/* The flows' index by time (built ahead with the summaries) against one
 * made the plain way: every flow's span as the timeline draws it, sorted
 * by earlier end with ties in flow order, the later ends sorted, and the
 * running maximum. Times far apart (every radix pass) and many equal. */
typedef struct
{
  SpsTime tmin;
  SpsTime tmax;
  guint   flow;
} FlowSpan;

static int
compare_spans (gconstpointer a,
               gconstpointer b)
{
  const FlowSpan *x = a;
  const FlowSpan *y = b;

  if (x->tmin != y->tmin)
    return x->tmin < y->tmin ? -1 : 1;
  return x->flow < y->flow ? -1 : x->flow > y->flow;
}

static int
compare_times (gconstpointer a,
               gconstpointer b)
{
  SpsTime x = *(const SpsTime *) a;
  SpsTime y = *(const SpsTime *) b;

  return x < y ? -1 : x > y;
}

static void
check_flow_index (guint   n_slices,
                  guint   n_flows,
                  SpsTime spread)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint32 *handles = g_new (guint32, n_slices);
  g_autofree SpsTime *starts = g_new (SpsTime, n_slices);
  g_autofree FlowSpan *spans = NULL;
  g_autofree SpsTime *ends = NULL;
  SpsTimelineFlowIndex index = { 0 };
  guint32 process = sps_trace_builder_ensure_process (builder, 1);
  guint32 threads[3];
  const SpsFlowTable *flows;
  const SpsSliceTable *slices;
  guint32 name = sps_trace_builder_intern (builder, "s", -1);

  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = sps_trace_builder_ensure_thread (builder, process, i + 1);
  for (guint i = 0; i < n_slices; i++)
    {
      /* A few distinct starts, so that many flows share a time */
      starts[i] = g_rand_boolean (rng) ? (SpsTime) g_rand_int_range (rng, 0, 8) * (spread / 8)
                  : (SpsTime) (g_rand_double_range (rng, -1, 1) * spread);
      handles[i] = sps_trace_builder_add_complete (builder, threads[i % 3], starts[i],
                                                   g_rand_int_range (rng, 0, 1000),
                                                   name, 0, SPS_ARGS_REF_NONE, SPS_SLICE_NONE);
    }
  for (guint f = 0; f < n_flows; f++)
    {
      guint a = g_rand_int_range (rng, 0, n_slices);
      guint b = g_rand_int_range (rng, 0, n_slices);

      /* A flow's end may not come before its start (it would be dropped) */
      if (starts[b] < starts[a])
        {
          guint swap = a;

          a = b;
          b = swap;
        }

      sps_test_add_flow (builder, f + 1, threads[a % 3], starts[a], handles[a],
                         threads[b % 3], starts[b], handles[b]);
    }
  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);
  flows = sps_trace_get_flows (trace);
  slices = sps_trace_get_slices (trace);
  g_assert_cmpuint (flows->n_rows, ==, n_flows);

  spans = g_new (FlowSpan, MAX (n_flows, 1));
  ends = g_new (SpsTime, MAX (n_flows, 1));
  for (guint f = 0; f < n_flows; f++)
    {
      guint32 a = flows->from_slice[f];
      SpsTime to = slices->ts[flows->to_slice[f]];
      SpsTime from = CLAMP (to, slices->ts[a], slices->ts[a] + slices->dur[a]);

      spans[f].tmin = MIN (from, to);
      spans[f].tmax = ends[f] = MAX (from, to);
      spans[f].flow = f;
    }
  qsort (spans, n_flows, sizeof *spans, compare_spans);
  qsort (ends, n_flows, sizeof *ends, compare_times);

  _sps_timeline_flow_index_build (trace, &index);
  g_assert_cmpuint (index.n, ==, n_flows);
  for (guint i = 0; i < n_flows; i++)
    {
      g_assert_cmpint (index.by_min[i].tmin, ==, spans[i].tmin);
      g_assert_cmpint (index.by_min[i].tmax, ==, spans[i].tmax);
      g_assert_cmpuint (index.by_min[i].flow, ==, spans[i].flow);
      g_assert_cmpint (index.max_sorted[i], ==, ends[i]);
      g_assert_cmpint (index.running_max[i], ==, MAX (i > 0 ? index.running_max[i - 1] : SPS_TIME_MIN, spans[i].tmax));
    }
  _sps_timeline_flow_index_clear (&index);
}

static void
test_flow_index (void)
{
  check_flow_index (1, 0, 1000);
  check_flow_index (2, 1, 1000);
  /* Equal times only */
  check_flow_index (20, 30, 0);
  check_flow_index (500, 2000, 100000);
  /* 2^60 ns each side of 0: six radix passes */
  check_flow_index (3000, 20000, G_GINT64_CONSTANT (1) << 60);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  rng = g_rand_new_with_seed (20261207);

  g_test_add_func ("/gtk/timeline-lod/prepare/equals-on-demand", test_prepare_equals_on_demand);
  g_test_add_func ("/gtk/timeline-lod/prepare/memory", test_prepare_memory);
  g_test_add_func ("/gtk/timeline-lod/prepare/cancelled", test_prepare_cancelled);
  g_test_add_func ("/gtk/timeline-lod/prepare/level-ahead", test_level_ahead);
  g_test_add_func ("/gtk/timeline-lod/prepare/flow-index", test_flow_index);

  ret = g_test_run ();
  g_rand_free (rng);

  return ret;
}
