/* test-timeline-lod.c: level-of-detail summaries of the timeline
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>

#include <spanscope-core.h>

#include "sps-timeline-lod-private.h"

#include "sps-test-lod.h"
#include "sps-test-util.h"

/* Fixed seed: every run checks the same random lanes. */
static GRand *rng;

static guint
find_track (SpsTrace     *trace,
            SpsTrackKind  kind,
            guint         nth)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);

  for (guint t = 0; t < tracks->n_rows; t++)
    if (tracks->kind[t] == kind && nth-- == 0)
      return t;

  g_assert_not_reached ();
  return SPS_NO_INDEX;
}

static void
add_slice (SpsTraceBuilder *builder,
           guint32          thread,
           const char      *name,
           SpsTime          ts,
           SpsTime          dur)
{
  sps_trace_builder_add_complete (builder, thread, ts, dur,
                                  sps_trace_builder_intern (builder, name, -1),
                                  0, SPS_ARGS_REF_NONE, SPS_SLICE_NONE);
}

/* Thread 1, depth 0: A [0,100] B [100,102] C [103,104] D [110,113]
 * E [200,250] F [260,261]; depth 1: G [10,15] H [20,25] inside A.
 * Thread 2: Z, zero length at 50. Counters: "c" at 0, 1, 2, 9, 16 and
 * "neg" at -5, -3, -1. */
static SpsTrace *
build_small_trace (void)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  guint32 process = sps_trace_builder_ensure_process (builder, 1);
  guint32 t1 = sps_trace_builder_ensure_thread (builder, process, 1);
  guint32 t2 = sps_trace_builder_ensure_thread (builder, process, 2);
  guint32 counter;
  guint32 negative;
  SpsTrace *trace;

  add_slice (builder, t1, "A", 0, 100);
  add_slice (builder, t1, "G", 10, 5);
  add_slice (builder, t1, "H", 20, 5);
  add_slice (builder, t1, "B", 100, 2);
  add_slice (builder, t1, "C", 103, 1);
  add_slice (builder, t1, "D", 110, 3);
  add_slice (builder, t1, "E", 200, 50);
  add_slice (builder, t1, "F", 260, 1);
  add_slice (builder, t2, "Z", 50, 0);

  counter = sps_trace_builder_ensure_counter_track (builder, process,
                                                    sps_trace_builder_intern (builder, "c", -1), 0);
  sps_trace_builder_add_counter_value (builder, counter, 0, 1.0);
  sps_trace_builder_add_counter_value (builder, counter, 1, 5.0);
  sps_trace_builder_add_counter_value (builder, counter, 2, 3.0);
  sps_trace_builder_add_counter_value (builder, counter, 9, -2.0);
  sps_trace_builder_add_counter_value (builder, counter, 16, 4.0);

  negative = sps_trace_builder_ensure_counter_track (builder, process,
                                                     sps_trace_builder_intern (builder, "neg", -1), 0);
  sps_trace_builder_add_counter_value (builder, negative, -5, 7.0);
  sps_trace_builder_add_counter_value (builder, negative, -3, 8.0);
  sps_trace_builder_add_counter_value (builder, negative, -1, 9.0);

  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);

  return trace;
}

typedef struct
{
  SpsTime start;
  SpsTime end;
  const char *slice;
  guint32 count;
} Expected;

static void
check_runs (SpsTrace       *trace,
            SpsTimelineLod *lod,
            guint           track,
            guint           depth,
            guint           level,
            SpsTime         start,
            SpsTime         end,
            const Expected *expected,
            guint           n_expected)
{
  SpsLodIter iter;
  SpsLodRun run;
  const SpsLodRecord *records;
  guint n_records;
  guint n = 0;

  _sps_timeline_lod_runs_init (lod, &iter, track, depth, level, start, end);
  while (_sps_timeline_lod_runs_next (&iter, &run))
    {
      g_assert_cmpuint (n, <, n_expected);
      g_assert_cmpint (run.start, ==, expected[n].start);
      g_assert_cmpint (run.end, ==, expected[n].end);
      g_assert_cmpuint (run.slice, ==, sps_test_find_slice (trace, expected[n].slice, 0));
      g_assert_cmpuint (run.count, ==, expected[n].count);
      g_assert_cmpuint (run.name, ==, sps_trace_get_slices (trace)->name[run.slice]);
      n++;
    }
  g_assert_cmpuint (n, ==, n_expected);

  /* The lane's window gives the same items, read as the timeline reads
   * them: up to the first that starts at or after @end, skipping those
   * that end before @start */
  records = _sps_timeline_lod_runs_window (lod, track, depth, level, start, end, &n_records);
  n = 0;
  for (guint k = 0; k < n_records && records[k].start < end; k++)
    {
      const SpsLodRecord *r = &records[k];

      if (r->end <= start && !(r->end == r->start && r->start >= start))
        continue;

      g_assert_cmpuint (n, <, n_expected);
      g_assert_cmpint (r->start, ==, expected[n].start);
      g_assert_cmpint (r->end, ==, expected[n].end);
      g_assert_cmpuint (r->slice, ==, sps_test_find_slice (trace, expected[n].slice, 0));
      g_assert_cmpuint (r->last - r->first, ==, expected[n].count);
      g_assert_cmpuint (r->name, ==, sps_trace_get_slices (trace)->name[r->slice]);
      n++;
    }
  g_assert_cmpuint (n, ==, n_expected);
}

static void
test_level_for_resolution (void)
{
  g_assert_cmpuint (_sps_timeline_lod_level_for_resolution (0.25), ==, 0);
  g_assert_cmpuint (_sps_timeline_lod_level_for_resolution (1.0), ==, 0);
  g_assert_cmpuint (_sps_timeline_lod_level_for_resolution (1.99), ==, 0);
  g_assert_cmpuint (_sps_timeline_lod_level_for_resolution (2.0), ==, 1);
  g_assert_cmpuint (_sps_timeline_lod_level_for_resolution (3.0), ==, 1);
  g_assert_cmpuint (_sps_timeline_lod_level_for_resolution (4.0), ==, 2);
  g_assert_cmpuint (_sps_timeline_lod_level_for_resolution (1000.0), ==, 9);
  g_assert_cmpuint (_sps_timeline_lod_level_for_resolution (1024.0), ==, 10);
  g_assert_cmpuint (_sps_timeline_lod_level_for_resolution (1e30), ==, SPS_LOD_N_LEVELS - 1);
  g_assert_cmpuint (_sps_timeline_lod_level_for_resolution (NAN), ==, 0);
}

static void
test_levels (void)
{
  g_autoptr(SpsTrace) trace = build_small_trace ();
  g_autoptr(SpsTimelineLod) lod = _sps_timeline_lod_new (trace);
  guint track = find_track (trace, SPS_TRACK_THREAD_SLICES, 0);
  static const Expected level0[] = {
    { 0, 100, "A", 1 }, { 100, 102, "B", 1 }, { 103, 104, "C", 1 },
    { 110, 113, "D", 1 }, { 200, 250, "E", 1 }, { 260, 261, "F", 1 },
  };
  /* 4 ns: B and C (gap 1) merge, D is 6 ns away; E is long. */
  static const Expected level2[] = {
    { 0, 100, "A", 1 }, { 100, 104, "B", 2 }, { 110, 113, "D", 1 },
    { 200, 250, "E", 1 }, { 260, 261, "F", 1 },
  };
  /* 8 ns: D joins (gap 6); D is the longest of the three. */
  static const Expected level3[] = {
    { 0, 100, "A", 1 }, { 100, 113, "D", 3 }, { 200, 250, "E", 1 },
    { 260, 261, "F", 1 },
  };
  /* 64 ns: E is short now and F joins it (gap 10); B..D stay apart from
   * E (gap 87). */
  static const Expected level6[] = {
    { 0, 100, "A", 1 }, { 100, 113, "D", 3 }, { 200, 261, "E", 2 },
  };
  /* 128 ns: all of it, A the longest. */
  static const Expected level7[] = {
    { 0, 261, "A", 6 },
  };
  static const Expected depth1_level2[] = {
    { 10, 15, "G", 1 }, { 20, 25, "H", 1 },
  };
  static const Expected depth1_level3[] = {
    { 10, 25, "G", 2 },
  };

  /* Built out of order on purpose: each level comes from the nearest
   * finer one built so far. */
  check_runs (trace, lod, track, 0, 6, SPS_TIME_MIN, SPS_TIME_MAX, level6, G_N_ELEMENTS (level6));
  check_runs (trace, lod, track, 0, 2, SPS_TIME_MIN, SPS_TIME_MAX, level2, G_N_ELEMENTS (level2));
  check_runs (trace, lod, track, 0, 7, SPS_TIME_MIN, SPS_TIME_MAX, level7, G_N_ELEMENTS (level7));
  check_runs (trace, lod, track, 0, 0, SPS_TIME_MIN, SPS_TIME_MAX, level0, G_N_ELEMENTS (level0));
  check_runs (trace, lod, track, 0, 3, SPS_TIME_MIN, SPS_TIME_MAX, level3, G_N_ELEMENTS (level3));
  /* 2 ns: B is long enough (2), C (1) is alone: nothing merges. */
  check_runs (trace, lod, track, 0, 1, SPS_TIME_MIN, SPS_TIME_MAX, level0, G_N_ELEMENTS (level0));
  /* 16 and 32 ns are like 8 ns. */
  check_runs (trace, lod, track, 0, 4, SPS_TIME_MIN, SPS_TIME_MAX, level3, G_N_ELEMENTS (level3));
  check_runs (trace, lod, track, 0, 5, SPS_TIME_MIN, SPS_TIME_MAX, level3, G_N_ELEMENTS (level3));
  check_runs (trace, lod, track, 0, 40, SPS_TIME_MIN, SPS_TIME_MAX, level7, G_N_ELEMENTS (level7));

  g_assert_cmpuint (_sps_timeline_lod_get_n_runs (lod, track, 0, 0), ==, 6);
  g_assert_cmpuint (_sps_timeline_lod_get_n_runs (lod, track, 0, 2), ==, 5);
  g_assert_cmpuint (_sps_timeline_lod_get_n_runs (lod, track, 0, 3), ==, 4);
  g_assert_cmpuint (_sps_timeline_lod_get_n_runs (lod, track, 0, 6), ==, 3);
  g_assert_cmpuint (_sps_timeline_lod_get_n_runs (lod, track, 0, 7), ==, 1);

  check_runs (trace, lod, track, 1, 2, SPS_TIME_MIN, SPS_TIME_MAX, depth1_level2, G_N_ELEMENTS (depth1_level2));
  check_runs (trace, lod, track, 1, 3, SPS_TIME_MIN, SPS_TIME_MAX, depth1_level3, G_N_ELEMENTS (depth1_level3));
  /* No depth 2 */
  g_assert_cmpuint (_sps_timeline_lod_get_n_runs (lod, track, 2, 0), ==, 0);
  check_runs (trace, lod, track, 2, 0, SPS_TIME_MIN, SPS_TIME_MAX, NULL, 0);
}

static void
test_windows (void)
{
  g_autoptr(SpsTrace) trace = build_small_trace ();
  g_autoptr(SpsTimelineLod) lod = _sps_timeline_lod_new (trace);
  guint track = find_track (trace, SPS_TRACK_THREAD_SLICES, 0);
  guint other = find_track (trace, SPS_TRACK_THREAD_SLICES, 1);
  static const Expected run_and_e[] = { { 100, 113, "D", 3 }, { 200, 250, "E", 1 } };
  static const Expected run_only[] = { { 100, 113, "D", 3 } };
  static const Expected a_only[] = { { 0, 100, "A", 1 } };
  static const Expected c_d[] = { { 103, 104, "C", 1 }, { 110, 113, "D", 1 } };
  static const Expected zero[] = { { 50, 50, "Z", 1 } };

  check_runs (trace, lod, track, 0, 3, 105, 205, run_and_e, G_N_ELEMENTS (run_and_e));
  /* Half-open: A ends at 100 and E starts at 200. */
  check_runs (trace, lod, track, 0, 3, 100, 200, run_only, G_N_ELEMENTS (run_only));
  check_runs (trace, lod, track, 0, 3, 99, 100, a_only, G_N_ELEMENTS (a_only));
  check_runs (trace, lod, track, 0, 0, 103, 111, c_d, G_N_ELEMENTS (c_d));
  check_runs (trace, lod, track, 0, 0, 104, 110, NULL, 0);
  check_runs (trace, lod, track, 0, 0, 300, 400, NULL, 0);
  check_runs (trace, lod, track, 0, 0, -50, 0, NULL, 0);
  check_runs (trace, lod, track, 0, 0, 50, 50, NULL, 0);

  /* A zero-length slice is in a window that contains its time. */
  check_runs (trace, lod, other, 0, 0, 50, 60, zero, 1);
  check_runs (trace, lod, other, 0, 0, 0, 51, zero, 1);
  check_runs (trace, lod, other, 0, 0, 40, 50, NULL, 0);
  check_runs (trace, lod, other, 0, 0, 51, 60, NULL, 0);
}

static void
test_slice_at (void)
{
  g_autoptr(SpsTrace) trace = build_small_trace ();
  g_autoptr(SpsTimelineLod) lod = _sps_timeline_lod_new (trace);
  guint track = find_track (trace, SPS_TRACK_THREAD_SLICES, 0);
  guint other = find_track (trace, SPS_TRACK_THREAD_SLICES, 1);

  g_assert_cmpuint (_sps_timeline_lod_slice_at (lod, track, 0, 50, 0), ==, sps_test_find_slice (trace, "A", 0));
  g_assert_cmpuint (_sps_timeline_lod_slice_at (lod, track, 0, 0, 0), ==, sps_test_find_slice (trace, "A", 0));
  g_assert_cmpuint (_sps_timeline_lod_slice_at (lod, track, 0, 100, 0), ==, sps_test_find_slice (trace, "B", 0));
  g_assert_cmpuint (_sps_timeline_lod_slice_at (lod, track, 1, 12, 0), ==, sps_test_find_slice (trace, "G", 0));
  g_assert_cmpuint (_sps_timeline_lod_slice_at (lod, track, 1, 17, 0), ==, SPS_NO_INDEX);
  /* Nearest within the tolerance: C ends 2 before 106, D starts 4 after. */
  g_assert_cmpuint (_sps_timeline_lod_slice_at (lod, track, 0, 106, 3), ==, sps_test_find_slice (trace, "C", 0));
  g_assert_cmpuint (_sps_timeline_lod_slice_at (lod, track, 0, 108, 3), ==, sps_test_find_slice (trace, "D", 0));
  g_assert_cmpuint (_sps_timeline_lod_slice_at (lod, track, 0, 106, 1), ==, SPS_NO_INDEX);
  g_assert_cmpuint (_sps_timeline_lod_slice_at (lod, track, 0, 1000, 100), ==, SPS_NO_INDEX);
  g_assert_cmpuint (_sps_timeline_lod_slice_at (lod, track, 3, 50, 0), ==, SPS_NO_INDEX);
  g_assert_cmpuint (_sps_timeline_lod_slice_at (lod, other, 0, 50, 0), ==, sps_test_find_slice (trace, "Z", 0));
  g_assert_cmpuint (_sps_timeline_lod_slice_at (lod, other, 0, 52, 2), ==, sps_test_find_slice (trace, "Z", 0));
  g_assert_cmpuint (_sps_timeline_lod_slice_at (lod, other, 0, 53, 2), ==, SPS_NO_INDEX);
}

typedef struct
{
  SpsTime ts;
  double  min;
  double  max;
  double  last;
  guint   count;
} ExpectedBucket;

static void
check_buckets (SpsTimelineLod       *lod,
               guint                 track,
               guint                 level,
               SpsTime               start,
               SpsTime               end,
               const ExpectedBucket *expected,
               guint                 n_expected)
{
  SpsLodIter iter;
  SpsLodBucket bucket;
  guint n = 0;

  _sps_timeline_lod_buckets_init (lod, &iter, track, level, start, end);
  while (_sps_timeline_lod_buckets_next (&iter, &bucket))
    {
      g_assert_cmpuint (n, <, n_expected);
      g_assert_cmpint (bucket.ts, ==, expected[n].ts);
      g_assert_cmpfloat (bucket.min, ==, expected[n].min);
      g_assert_cmpfloat (bucket.max, ==, expected[n].max);
      g_assert_cmpfloat (bucket.last, ==, expected[n].last);
      g_assert_cmpuint (bucket.count, ==, expected[n].count);
      n++;
    }
  g_assert_cmpuint (n, ==, n_expected);
}

static void
test_counters (void)
{
  g_autoptr(SpsTrace) trace = build_small_trace ();
  g_autoptr(SpsTimelineLod) lod = _sps_timeline_lod_new (trace);
  guint track = find_track (trace, SPS_TRACK_COUNTER, 0);
  guint negative = find_track (trace, SPS_TRACK_COUNTER, 1);
  guint slices = find_track (trace, SPS_TRACK_THREAD_SLICES, 0);
  static const ExpectedBucket raw[] = {
    { 0, 1, 1, 1, 1 }, { 1, 5, 5, 5, 1 }, { 2, 3, 3, 3, 1 }, { 9, -2, -2, -2, 1 }, { 16, 4, 4, 4, 1 },
  };
  /* Buckets of 4 ns: [0,4) holds 0, 1, 2; [8,12) 9; [16,20) 16. */
  static const ExpectedBucket level2[] = {
    { 0, 1, 5, 3, 3 }, { 9, -2, -2, -2, 1 }, { 16, 4, 4, 4, 1 },
  };
  static const ExpectedBucket level4[] = {
    { 0, -2, 5, -2, 4 }, { 16, 4, 4, 4, 1 },
  };
  static const ExpectedBucket level5[] = {
    { 0, -2, 5, 4, 5 },
  };
  /* Negative times: -5 is in [-8,-4), -3 and -1 in [-4,0). */
  static const ExpectedBucket negative2[] = {
    { -5, 7, 7, 7, 1 }, { -3, 8, 9, 9, 2 },
  };
  double min = 0, max = 0, value = 0;

  check_buckets (lod, track, 4, SPS_TIME_MIN, SPS_TIME_MAX, level4, G_N_ELEMENTS (level4));
  check_buckets (lod, track, 0, SPS_TIME_MIN, SPS_TIME_MAX, raw, G_N_ELEMENTS (raw));
  check_buckets (lod, track, 2, SPS_TIME_MIN, SPS_TIME_MAX, level2, G_N_ELEMENTS (level2));
  check_buckets (lod, track, 5, SPS_TIME_MIN, SPS_TIME_MAX, level5, G_N_ELEMENTS (level5));
  check_buckets (lod, track, 3, SPS_TIME_MIN, SPS_TIME_MAX, level2, G_N_ELEMENTS (level2));
  check_buckets (lod, negative, 2, SPS_TIME_MIN, SPS_TIME_MAX, negative2, G_N_ELEMENTS (negative2));

  g_assert_cmpuint (_sps_timeline_lod_get_n_buckets (lod, track, 0), ==, 5);
  g_assert_cmpuint (_sps_timeline_lod_get_n_buckets (lod, track, 2), ==, 3);
  g_assert_cmpuint (_sps_timeline_lod_get_n_buckets (lod, track, 4), ==, 2);
  g_assert_cmpuint (_sps_timeline_lod_get_n_buckets (lod, slices, 2), ==, 0);

  /* Windows: the bucket holding the start comes too. */
  check_buckets (lod, track, 2, 8, 16, &level2[1], 1);
  check_buckets (lod, track, 2, 1, 10, level2, 2);
  check_buckets (lod, track, 2, 17, 100, &level2[2], 1);
  check_buckets (lod, track, 2, 20, 100, NULL, 0);
  check_buckets (lod, track, 0, 3, 9, NULL, 0);
  check_buckets (lod, negative, 2, -4, 0, &negative2[1], 1);

  g_assert_true (_sps_timeline_lod_get_counter_range (lod, track, &min, &max));
  g_assert_cmpfloat (min, ==, -2.0);
  g_assert_cmpfloat (max, ==, 5.0);
  g_assert_true (_sps_timeline_lod_get_counter_range (lod, negative, &min, &max));
  g_assert_cmpfloat (min, ==, 7.0);
  g_assert_cmpfloat (max, ==, 9.0);
  g_assert_false (_sps_timeline_lod_get_counter_range (lod, slices, &min, &max));

  g_assert_false (_sps_timeline_lod_get_counter_value (lod, track, -1, &value));
  g_assert_true (_sps_timeline_lod_get_counter_value (lod, track, 0, &value));
  g_assert_cmpfloat (value, ==, 1.0);
  g_assert_true (_sps_timeline_lod_get_counter_value (lod, track, 1, &value));
  g_assert_cmpfloat (value, ==, 5.0);
  g_assert_true (_sps_timeline_lod_get_counter_value (lod, track, 8, &value));
  g_assert_cmpfloat (value, ==, 3.0);
  g_assert_true (_sps_timeline_lod_get_counter_value (lod, track, 9, &value));
  g_assert_cmpfloat (value, ==, -2.0);
  g_assert_true (_sps_timeline_lod_get_counter_value (lod, track, SPS_TIME_MAX, &value));
  g_assert_cmpfloat (value, ==, 4.0);
}

/* The definition, straight from the slices of one lane: slices of at
 * least 2^level ns alone, consecutive shorter ones merged while the gaps
 * stay under 2^level. */
static GArray *
reference_runs (SpsTrace *trace,
                guint     track,
                guint     depth,
                guint     level)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  GArray *runs = g_array_new (FALSE, FALSE, sizeof (SpsLodRun));
  SpsTime threshold = (SpsTime) 1 << level;
  guint first = tracks->first_row[track];
  SpsLodRun *last = NULL;
  gboolean last_is_small = FALSE;

  for (guint i = first; i < first + tracks->n_rows_in_track[track]; i++)
    {
      SpsLodRun run = { slices->ts[i], slices->ts[i] + slices->dur[i], i, 1 };
      gboolean small = slices->dur[i] < threshold;

      if (slices->depth[i] != depth)
        continue;

      if (small && last_is_small && run.start - last->end < threshold)
        {
          last->end = MAX (last->end, run.end);
          if (slices->dur[i] > slices->dur[last->slice])
            last->slice = i;
          last->count++;
          continue;
        }

      g_array_append_val (runs, run);
      last = &g_array_index (runs, SpsLodRun, runs->len - 1);
      last_is_small = small;
    }

  return runs;
}

static void
check_random_window (SpsTimelineLod *lod,
                     guint           track,
                     guint           depth,
                     guint           level,
                     GArray         *reference,
                     SpsTime         start,
                     SpsTime         end)
{
  SpsLodIter iter;
  SpsLodRun run;
  guint j = 0;

  _sps_timeline_lod_runs_init (lod, &iter, track, depth, level, start, end);
  for (guint i = 0; i < reference->len; i++)
    {
      const SpsLodRun *r = &g_array_index (reference, SpsLodRun, i);
      gboolean hit = r->start < end && (r->end > start || (r->start == r->end && r->start >= start));

      if (!hit)
        continue;

      g_assert_true (_sps_timeline_lod_runs_next (&iter, &run));
      g_assert_cmpint (run.start, ==, r->start);
      g_assert_cmpint (run.end, ==, r->end);
      g_assert_cmpuint (run.slice, ==, r->slice);
      g_assert_cmpuint (run.count, ==, r->count);
      j++;
    }
  g_assert_false (_sps_timeline_lod_runs_next (&iter, &run));
}

/* The records of the lane's window for [@start, @end), read as the
 * timeline reads them (up to the first that starts at or after @end,
 * skipping those that end before @start), are the reference's items
 * there. Returns the end of the records, which is the end of the kept
 * window. */
static const SpsLodRecord *
check_window_records (SpsTimelineLod *lod,
                      guint           track,
                      guint           depth,
                      guint           level,
                      GArray         *reference,
                      SpsTime         start,
                      SpsTime         end)
{
  guint n_records = 0;
  const SpsLodRecord *records = _sps_timeline_lod_runs_window (lod, track, depth, level, start, end, &n_records);
  guint k = 0;

  for (guint i = 0; i < reference->len; i++)
    {
      const SpsLodRun *r = &g_array_index (reference, SpsLodRun, i);
      gboolean hit = r->start < end && (r->end > start || (r->start == r->end && r->start >= start));

      if (!hit)
        continue;

      while (k < n_records && records[k].end <= start &&
             !(records[k].end == records[k].start && records[k].start >= start))
        k++;
      g_assert_cmpuint (k, <, n_records);
      g_assert_cmpint (records[k].start, ==, r->start);
      g_assert_cmpint (records[k].end, ==, r->end);
      g_assert_cmpuint (records[k].slice, ==, r->slice);
      g_assert_cmpuint (records[k].last - records[k].first, ==, r->count);
      k++;
    }
  /* Where ends go back, items that ended before @start may follow */
  while (k < n_records && records[k].start < end && records[k].end <= start &&
         !(records[k].end == records[k].start && records[k].start >= start))
    k++;
  g_assert_true (k == n_records || records[k].start >= end);

  return records != NULL ? records + n_records : NULL;
}

/* A flat lane of @n slices from 0 to 5000 ns long with gaps from 0 to
 * 3000 ns, on a thread of its own */
static void
add_random_lane (SpsTraceBuilder *builder,
                 guint            n)
{
  guint32 process = sps_trace_builder_ensure_process (builder, 1);
  guint32 thread = sps_trace_builder_ensure_thread (builder, process, 1);
  guint32 name = sps_trace_builder_intern (builder, "x", -1);
  SpsTime t = g_rand_int_range (rng, -10000, 10000);
  SpsTime previous_start = 0;
  SpsTime previous_end = 0;

  for (guint i = 0; i < n; i++)
    {
      SpsTime dur = g_rand_boolean (rng) ? g_rand_int_range (rng, 0, 8) : g_rand_int_range (rng, 0, 5000);
      SpsTime gap = g_rand_boolean (rng) ? g_rand_int_range (rng, 0, 4) : g_rand_int_range (rng, 0, 3000);

      /* A zero-length slice touching another one would nest in it:
       * keep the lane flat. */
      if (i > 0 && t == previous_end && (dur == 0 || previous_end == previous_start))
        t++;

      sps_trace_builder_add_complete (builder, thread, t, dur, name, 0,
                                      SPS_ARGS_REF_NONE, SPS_SLICE_NONE);
      previous_start = t;
      previous_end = t + dur;
      t = previous_end + gap;
    }
}

/* Random lanes: every level and a hundred windows agree with the
 * definition, whatever order the levels are built in. */
static void
test_random_lanes (void)
{
  for (guint round = 0; round < 8; round++)
    {
      g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
      g_autoptr(SpsTrace) trace = NULL;
      g_autoptr(SpsTimelineLod) lod = NULL;
      g_autoptr(GError) error = NULL;
      guint levels[16];
      guint track;

      add_random_lane (builder, g_rand_int_range (rng, 1, 3000));
      trace = sps_trace_builder_finish (builder, NULL, &error);
      g_assert_no_error (error);
      lod = _sps_timeline_lod_new (trace);
      track = find_track (trace, SPS_TRACK_THREAD_SLICES, 0);

      for (guint i = 0; i < G_N_ELEMENTS (levels); i++)
        levels[i] = g_rand_int_range (rng, 0, 20);

      for (guint i = 0; i < G_N_ELEMENTS (levels); i++)
        {
          g_autoptr(GArray) reference = reference_runs (trace, track, 0, levels[i]);
          SpsTime lo = sps_trace_get_start_time (trace) - 100;
          SpsTime hi = sps_trace_get_end_time (trace) + 100;

          g_assert_cmpuint (_sps_timeline_lod_get_n_runs (lod, track, 0, levels[i]), ==, reference->len);
          check_random_window (lod, track, 0, levels[i], reference, SPS_TIME_MIN, SPS_TIME_MAX);

          for (guint w = 0; w < 100; w++)
            {
              SpsTime a = lo + (SpsTime) (g_rand_double (rng) * (double) (hi - lo));
              SpsTime b = a + (SpsTime) (g_rand_double (rng) * (double) (hi - lo) / 8);

              check_random_window (lod, track, 0, levels[i], reference, a, b);

              /* A window moved or zoomed by less than half its width is
               * answered from the same kept items */
              if (b - a >= 8)
                {
                  const SpsLodRecord *kept;
                  SpsTime quarter = (b - a) / 4;
                  guint n_other;

                  /* Another level first, so that [a, b) is taken anew */
                  _sps_timeline_lod_runs_window (lod, track, 0, (levels[i] + 1) % 20, a, b, &n_other);
                  kept = check_window_records (lod, track, 0, levels[i], reference, a, b);

                  if (kept != NULL)
                    {
                      g_assert_true (check_window_records (lod, track, 0, levels[i], reference,
                                                           a + quarter, b + quarter) == kept);
                      g_assert_true (check_window_records (lod, track, 0, levels[i], reference,
                                                           a - quarter, b + quarter) == kept);
                      g_assert_true (check_window_records (lod, track, 0, levels[i], reference,
                                                           a + quarter, b - quarter) == kept);
                    }
                }
            }
        }

      g_assert_cmpuint (_sps_timeline_lod_get_memory_size (lod), >, 0);
    }
}

/* Levels not built yet, merged on the fly from the slices around the
 * range (every lane long enough for it here): the same items as the
 * definition's, through the iterator and through the lane's window, for
 * a flat thread lane and an async lane whose slices overlap (its ends go
 * back and forth), at every level in turn from the finest, as a zoom out
 * asks for them, and at random ones. */
static void
check_lazy_lane (SpsTrace       *trace,
                 SpsTimelineLod *lod,
                 guint           track,
                 guint           level)
{
  g_autoptr(GArray) reference = reference_runs (trace, track, 0, level);
  SpsTime lo = sps_trace_get_start_time (trace) - 100;
  SpsTime hi = sps_trace_get_end_time (trace) + 100;

  for (guint w = 0; w < 60; w++)
    {
      SpsTime a = lo + (SpsTime) (g_rand_double (rng) * (double) (hi - lo));
      SpsTime b = a + 1 + (SpsTime) (g_rand_double (rng) * (double) (hi - lo) / (w < 30 ? 64 : 4));

      check_random_window (lod, track, 0, level, reference, a, b);
      check_window_records (lod, track, 0, level, reference, a, b);
    }
  check_random_window (lod, track, 0, level, reference, SPS_TIME_MIN, SPS_TIME_MAX);
}

static void
test_lazy (void)
{
  guint n_lazy = 0;

  for (guint round = 0; round < 6; round++)
    {
      g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
      g_autoptr(SpsTrace) trace = NULL;
      g_autoptr(SpsTimelineLod) lod = NULL;
      g_autoptr(GError) error = NULL;
      guint32 process = sps_trace_builder_ensure_process (builder, 1);
      guint32 name = sps_trace_builder_intern (builder, "y", -1);
      guint tracks[2];

      add_random_lane (builder, g_rand_int_range (rng, 1000, 6000));
      /* Async slices of distinct ids overlap at depth 0 */
      for (guint i = 0; i < 800; i++)
        {
          SpsTime ts = g_rand_int_range (rng, 0, 2000000);
          SpsTime dur = g_rand_boolean (rng) ? g_rand_int_range (rng, 0, 50) : g_rand_int_range (rng, 0, 60000);

          sps_trace_builder_add_async (builder, SPS_ASYNC_BEGIN, process, i, ts, name, 0, SPS_ARGS_REF_NONE);
          sps_trace_builder_add_async (builder, SPS_ASYNC_END, process, i, ts + dur, name, 0, SPS_ARGS_REF_NONE);
        }
      trace = sps_trace_builder_finish (builder, NULL, &error);
      g_assert_no_error (error);
      tracks[0] = find_track (trace, SPS_TRACK_THREAD_SLICES, 0);
      tracks[1] = find_track (trace, SPS_TRACK_ASYNC, 0);

      for (guint t = 0; t < G_N_ELEMENTS (tracks); t++)
        {
          lod = _sps_timeline_lod_new (trace);
          _sps_timeline_lod_set_lazy_min_slices (lod, 0);
          if (round % 2 == 0)
            for (guint level = 0; level < 22; level++)
              check_lazy_lane (trace, lod, tracks[t], level);
          else
            for (guint i = 0; i < 12; i++)
              check_lazy_lane (trace, lod, tracks[t], g_rand_int_range (rng, 0, 22));
          n_lazy += _sps_timeline_lod_get_n_lazy (lod);
          g_clear_pointer (&lod, _sps_timeline_lod_free);
        }
    }

  /* Most ranges were merged on the fly (some built their level: a run
   * longer than the walk allowed, or one past the budget) */
  g_assert_cmpuint (n_lazy, >, 5000);
}

/* A lane whose slices overlap, so that its ends go back and forth (the
 * lane past the depth cap, where deeper slices are kept): where an item
 * may start depends on the greatest end so far, not the last one */
#define DEPTH_CAP (G_MAXUINT16 - 1)

static void
test_lazy_overlapping (void)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsTimelineLod) lod = NULL;
  g_autoptr(GError) error = NULL;
  guint32 process = sps_trace_builder_ensure_process (builder, 1);
  guint32 thread = sps_trace_builder_ensure_thread (builder, process, 1);
  guint32 name = sps_trace_builder_intern (builder, "z", -1);
  const SpsSliceTable *slices;
  SpsTime end = G_GINT64_CONSTANT (1000000000);
  guint track, n_capped = 0;
  gboolean back = FALSE;
  SpsTime previous = SPS_TIME_MIN;

  for (guint i = 0; i < DEPTH_CAP; i++)
    sps_trace_builder_add_complete (builder, thread, i, end - 2 * (SpsTime) i, name, 0,
                                    SPS_ARGS_REF_NONE, SPS_SLICE_NONE);
  for (guint i = 0; i < 3000; i++)
    {
      /* Dense: short slices nest in short slices */
      SpsTime ts = 100000 + g_rand_int_range (rng, 0, 300000);
      SpsTime dur = g_rand_boolean (rng) ? g_rand_int_range (rng, 0, 200) : g_rand_int_range (rng, 0, 6000);

      sps_trace_builder_add_complete (builder, thread, ts, dur, name, 0, SPS_ARGS_REF_NONE, SPS_SLICE_NONE);
    }
  /* And, further on, a short slice holding a shorter one, then one that
   * starts 2^k ns or more after the inner one ends but less after the
   * outer one does: merged at level k (at 2^7 to 2^11 ns here), as only
   * the greatest end so far tells */
  for (guint i = 0; i < 400; i++)
    {
      SpsTime scale = (SpsTime) 1 << (i % 5);
      SpsTime base = 500000 + (SpsTime) i * 40000;

      sps_trace_builder_add_complete (builder, thread, base, 90 * scale, name, 0, SPS_ARGS_REF_NONE, SPS_SLICE_NONE);
      sps_trace_builder_add_complete (builder, thread, base + 10 * scale, 10 * scale, name, 0, SPS_ARGS_REF_NONE, SPS_SLICE_NONE);
      sps_trace_builder_add_complete (builder, thread, base + 150 * scale, 5 * scale, name, 0, SPS_ARGS_REF_NONE, SPS_SLICE_NONE);
    }
  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);
  track = find_track (trace, SPS_TRACK_THREAD_SLICES, 0);

  /* The lane past the chain holds the 4200 slices, and its ends do go
   * back */
  slices = sps_trace_get_slices (trace);
  for (guint i = 0; i < slices->n_rows; i++)
    if (slices->depth[i] == DEPTH_CAP)
      {
        SpsTime e = slices->ts[i] + slices->dur[i];

        back |= e < previous;
        previous = e;
        n_capped++;
      }
  g_assert_cmpuint (n_capped, ==, 4200);
  g_assert_true (back);

  lod = _sps_timeline_lod_new (trace);
  _sps_timeline_lod_set_lazy_min_slices (lod, 0);
  for (guint level = 0; level < 22; level++)
    {
      g_autoptr(GArray) reference = reference_runs (trace, track, DEPTH_CAP, level);

      for (guint w = 0; w < 60; w++)
        {
          SpsTime a = g_rand_int_range (rng, 90000, w % 2 == 0 ? 420000 : 16600000);
          SpsTime b = a + 1 + g_rand_int_range (rng, 0, w < 30 ? 3000 : 100000);

          check_random_window (lod, track, DEPTH_CAP, level, reference, a, b);
          check_window_records (lod, track, DEPTH_CAP, level, reference, a, b);
        }
    }
  g_assert_cmpuint (_sps_timeline_lod_get_n_lazy (lod), >, 1000);
}

/* Counters' buckets and point tracks' points of levels not built yet,
 * merged or walked on the fly (every track long enough for it in one
 * summary, none in the other): the same as the built levels', for every
 * level from the finest and random windows, NaN values, negative and
 * equal times included */
static void
test_lazy_buckets_points (void)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsTimelineLod) lazy = NULL;
  g_autoptr(SpsTimelineLod) built = NULL;
  g_autoptr(GError) error = NULL;
  guint32 process = sps_trace_builder_ensure_process (builder, 1);
  guint32 thread = sps_trace_builder_ensure_thread (builder, process, 1);
  guint32 name = sps_trace_builder_intern (builder, "c", -1);
  guint32 counter = sps_trace_builder_ensure_counter_track (builder, process, name, 0);
  guint tracks[3];
  SpsTime ts = -200000;

  for (guint i = 0; i < 20000; i++)
    {
      double value = i % 37 == 3 ? NAN : g_rand_double_range (rng, -100, 100);

      /* Equal times too, dense and sparse stretches */
      ts += g_rand_int_range (rng, 0, 4) == 0 ? 0 : g_rand_boolean (rng) ? g_rand_int_range (rng, 1, 8) : g_rand_int_range (rng, 1, 5000);
      sps_trace_builder_add_counter_value (builder, counter, ts, value);
      sps_trace_builder_add_instant (builder, SPS_INSTANT_KIND_INSTANT, SPS_INSTANT_SCOPE_THREAD, process, thread,
                                     ts - g_rand_int_range (rng, 0, 3), name, 0, SPS_ARGS_REF_NONE);
      if (i % 2 == 0)
        sps_trace_builder_add_sample (builder, thread, ts + g_rand_int_range (rng, 0, 100), 0, SPS_NO_INDEX,
                                      0, NAN, SPS_WEIGHT_UNIT_NONE, SPS_SAMPLE_NONE);
    }
  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);
  tracks[0] = find_track (trace, SPS_TRACK_COUNTER, 0);
  tracks[1] = find_track (trace, SPS_TRACK_THREAD_INSTANTS, 0);
  tracks[2] = find_track (trace, SPS_TRACK_THREAD_SAMPLES, 0);

  lazy = _sps_timeline_lod_new (trace);
  _sps_timeline_lod_set_lazy_min_slices (lazy, 0);
  built = _sps_timeline_lod_new (trace);
  _sps_timeline_lod_set_lazy_min_slices (built, G_MAXUINT);

  for (guint level = 0; level < 26; level++)
    for (guint w = 0; w < 40; w++)
      {
        SpsTime a = g_rand_int_range (rng, -300000, (gint32) ts + 1000);
        SpsTime b = a + 1 + g_rand_int_range (rng, 0, w < 20 ? 20000 : 2000000);

        if (w == 0)
          a = SPS_TIME_MIN, b = SPS_TIME_MAX;
        sps_test_lod_assert_same_buckets (lazy, built, tracks[0], level, a, b);
        sps_test_lod_assert_same_points (lazy, built, tracks[1], level, a, b);
        sps_test_lod_assert_same_points (lazy, built, tracks[2], level, a, b);
      }

  g_assert_cmpuint (_sps_timeline_lod_get_n_lazy (lazy), >, 2000);
  g_assert_cmpuint (_sps_timeline_lod_get_n_lazy (built), ==, 0);
}

/* Instants of thread 1 at 0, 1, 2, 9 and 16 ns (and a slice, which is no
 * point); samples of thread 2 at -5, -3, -1 and 4 ns. */
static SpsTrace *
build_point_trace (void)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  guint32 process = sps_trace_builder_ensure_process (builder, 1);
  guint32 t1 = sps_trace_builder_ensure_thread (builder, process, 1);
  guint32 t2 = sps_trace_builder_ensure_thread (builder, process, 2);
  static const SpsTime instants[] = { 0, 1, 2, 9, 16 };
  static const SpsTime samples[] = { -5, -3, -1, 4 };
  SpsTrace *trace;

  for (guint i = 0; i < G_N_ELEMENTS (instants); i++)
    {
      g_autofree char *name = g_strdup_printf ("i%u", i);

      sps_trace_builder_add_instant (builder, SPS_INSTANT_KIND_INSTANT, SPS_INSTANT_SCOPE_THREAD,
                                     process, t1, instants[i], sps_trace_builder_intern (builder, name, -1),
                                     0, SPS_ARGS_REF_NONE);
    }

  add_slice (builder, t1, "s", 0, 5);

  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    sps_trace_builder_add_sample (builder, t2, samples[i], 0, SPS_NO_INDEX, 0, NAN,
                                  SPS_WEIGHT_UNIT_NONE, SPS_SAMPLE_NONE);

  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);

  return trace;
}

static void
check_points (SpsTimelineLod *lod,
              guint           track,
              guint           level,
              SpsTime         start,
              SpsTime         end,
              const guint32  *expected,
              guint           n_expected)
{
  SpsLodIter iter;
  guint32 points[2];
  guint n;
  guint seen = 0;

  /* Two at a time: the walk resumes where it stopped. */
  _sps_timeline_lod_points_init (lod, &iter, track, level, start, end);
  while ((n = _sps_timeline_lod_points_next_n (&iter, points, G_N_ELEMENTS (points))) > 0)
    for (guint i = 0; i < n; i++)
      {
        g_assert_cmpuint (seen, <, n_expected);
        g_assert_cmpuint (points[i], ==, expected[seen]);
        seen++;
      }
  g_assert_cmpuint (seen, ==, n_expected);
  g_assert_cmpuint (_sps_timeline_lod_points_next_n (&iter, points, G_N_ELEMENTS (points)), ==, 0);
}

static void
test_points (void)
{
  g_autoptr(SpsTrace) trace = build_point_trace ();
  g_autoptr(SpsTimelineLod) lod = _sps_timeline_lod_new (trace);
  guint instants = find_track (trace, SPS_TRACK_THREAD_INSTANTS, 0);
  guint samples = find_track (trace, SPS_TRACK_THREAD_SAMPLES, 0);
  /* Positions in the track of the first point of each bucket */
  static const guint32 raw[] = { 0, 1, 2, 3, 4 };
  static const guint32 level2[] = { 0, 3, 4 };    /* [0,4) [8,12) [16,20) */
  static const guint32 level4[] = { 0, 4 };       /* [0,16) [16,32) */
  static const guint32 level5[] = { 0 };
  static const guint32 samples2[] = { 0, 1, 3 };  /* [-8,-4) [-4,0) [4,8) */

  /* Levels built coarse first, then finer: each from the finest below. */
  check_points (lod, instants, 4, SPS_TIME_MIN, SPS_TIME_MAX, level4, G_N_ELEMENTS (level4));
  check_points (lod, instants, 0, SPS_TIME_MIN, SPS_TIME_MAX, raw, G_N_ELEMENTS (raw));
  check_points (lod, instants, 2, SPS_TIME_MIN, SPS_TIME_MAX, level2, G_N_ELEMENTS (level2));
  check_points (lod, instants, 3, SPS_TIME_MIN, SPS_TIME_MAX, level2, G_N_ELEMENTS (level2));
  check_points (lod, instants, 5, SPS_TIME_MIN, SPS_TIME_MAX, level5, G_N_ELEMENTS (level5));
  check_points (lod, samples, 2, SPS_TIME_MIN, SPS_TIME_MAX, samples2, G_N_ELEMENTS (samples2));

  g_assert_cmpuint (_sps_timeline_lod_get_n_points (lod, instants, 0), ==, 5);
  g_assert_cmpuint (_sps_timeline_lod_get_n_points (lod, instants, 2), ==, 3);
  g_assert_cmpuint (_sps_timeline_lod_get_n_points (lod, instants, 4), ==, 2);
  g_assert_cmpuint (_sps_timeline_lod_get_n_points (lod, samples, 2), ==, 3);
  g_assert_cmpuint (_sps_timeline_lod_get_n_points (lod, find_track (trace, SPS_TRACK_THREAD_SLICES, 0), 2), ==, 0);

  /* Windows: the bucket the window starts in gives its first point in the
   * window, not its own first point. */
  check_points (lod, instants, 2, 1, 10, (const guint32[]) { 1, 3 }, 2);
  check_points (lod, instants, 2, 2, 9, (const guint32[]) { 2 }, 1);
  check_points (lod, instants, 2, 3, 9, NULL, 0);
  check_points (lod, instants, 2, 9, 100, &level2[1], 2);
  check_points (lod, instants, 2, 17, 100, NULL, 0);
  check_points (lod, instants, 4, 1, 17, (const guint32[]) { 1, 4 }, 2);
  check_points (lod, instants, 0, 2, 16, (const guint32[]) { 2, 3 }, 2);
  check_points (lod, instants, 0, 5, 5, NULL, 0);
  check_points (lod, samples, 2, -2, 5, (const guint32[]) { 2, 3 }, 2);
  check_points (lod, samples, 2, -4, 0, (const guint32[]) { 1 }, 1);
}

static void
test_search (void)
{
  static const SpsTime ts[] = { -5, 0, 0, 3, 7, 7, 7, 12, 40, 41 };
  guint n = G_N_ELEMENTS (ts);

  g_assert_cmpuint (_sps_timeline_lod_lower_bound (ts, 0, n, -10), ==, 0);
  g_assert_cmpuint (_sps_timeline_lod_lower_bound (ts, 0, n, 0), ==, 1);
  g_assert_cmpuint (_sps_timeline_lod_lower_bound (ts, 0, n, 7), ==, 4);
  g_assert_cmpuint (_sps_timeline_lod_lower_bound (ts, 0, n, 8), ==, 7);
  g_assert_cmpuint (_sps_timeline_lod_lower_bound (ts, 0, n, 42), ==, 10);
  g_assert_cmpuint (_sps_timeline_lod_lower_bound (ts, 2, 3, 7), ==, 4);
  g_assert_cmpuint (_sps_timeline_lod_lower_bound (ts, 2, 2, 7), ==, 4);

  /* Galloping from any row gives what the binary search gives there. */
  for (guint from = 0; from <= n; from++)
    for (SpsTime t = -6; t <= 42; t++)
      g_assert_cmpuint (_sps_timeline_lod_gallop (ts, from, n, t), ==,
                        _sps_timeline_lod_lower_bound (ts, from, n - from, t));
  g_assert_cmpuint (_sps_timeline_lod_gallop (ts, 1, 6, 12), ==, 6);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  rng = g_rand_new_with_seed (20240131);

  g_test_add_func ("/gtk/timeline-lod/level-for-resolution", test_level_for_resolution);
  g_test_add_func ("/gtk/timeline-lod/slices/levels", test_levels);
  g_test_add_func ("/gtk/timeline-lod/slices/windows", test_windows);
  g_test_add_func ("/gtk/timeline-lod/slices/hit", test_slice_at);
  g_test_add_func ("/gtk/timeline-lod/slices/random", test_random_lanes);
  g_test_add_func ("/gtk/timeline-lod/slices/lazy", test_lazy);
  g_test_add_func ("/gtk/timeline-lod/slices/lazy-overlapping", test_lazy_overlapping);
  g_test_add_func ("/gtk/timeline-lod/lazy-buckets-points", test_lazy_buckets_points);
  g_test_add_func ("/gtk/timeline-lod/counters", test_counters);
  g_test_add_func ("/gtk/timeline-lod/points", test_points);
  g_test_add_func ("/gtk/timeline-lod/search", test_search);

  ret = g_test_run ();
  g_rand_free (rng);

  return ret;
}
