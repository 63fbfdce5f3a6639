/* test-trace-range.c: the block index and sps_trace_foreach_slice_in_range()
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <spanscope-core.h>

/* Fixed seeds: every run checks the same random traces. */
static GRand *rng;

static gint32
rand_range (gint32 begin,
            gint32 end)
{
  return g_rand_int_range (rng, begin, end);
}

typedef struct
{
  GArray *rows;
  guint   limit;
} Collect;

static gboolean
collect_slice (SpsTrace *trace,
               guint     slice,
               gpointer  user_data)
{
  Collect *collect = user_data;

  g_array_append_val (collect->rows, slice);

  return collect->rows->len < collect->limit;
}

/* What the range query must return: the definition, row by row. */
static GArray *
brute_force (SpsTrace *trace,
             guint     track,
             SpsTime   start,
             SpsTime   end)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (guint));
  guint first = tracks->first_row[track];

  for (guint i = first; i < first + tracks->n_rows_in_track[track]; i++)
    {
      SpsTime ts = slices->ts[i];
      SpsTime dur = slices->dur[i];
      gboolean hit;

      if (dur == 0)
        hit = ts >= start && ts < end;
      else
        hit = ts < end && ts + dur > start;

      if (hit)
        g_array_append_val (rows, i);
    }

  return rows;
}

static void
check_window (SpsTrace *trace,
              guint     track,
              SpsTime   start,
              SpsTime   end)
{
  g_autoptr(GArray) expected = brute_force (trace, track, start, end);
  Collect collect = { g_array_new (FALSE, FALSE, sizeof (guint)), G_MAXUINT };

  sps_trace_foreach_slice_in_range (trace, track, start, end, collect_slice, &collect);

  if (collect.rows->len != expected->len ||
      (expected->len > 0 &&
       memcmp (collect.rows->data, expected->data, expected->len * sizeof (guint)) != 0))
    g_test_fail_printf ("track %u, window [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "): %u slices, expected %u",
                        track, start, end, collect.rows->len, expected->len);

  g_array_unref (collect.rows);
}

/* The definition puts @n slices in the window, and the query agrees. */
static void
assert_window (SpsTrace *trace,
               guint     track,
               SpsTime   start,
               SpsTime   end,
               guint     n)
{
  g_autoptr(GArray) rows = brute_force (trace, track, start, end);

  g_assert_cmpuint (rows->len, ==, n);
  check_window (trace, track, start, end);
}

/* Nested slices inside [start, end): gaps, zero-length slices, children
 * that touch their parent's edges. */
static void
generate_nested (GArray  *out,
                 SpsTime  start,
                 SpsTime  end,
                 guint    depth,
                 guint    budget)
{
  SpsTime cursor = start;

  while (cursor < end && out->len < budget)
    {
      SpsTime slice[2];
      SpsTime ts = cursor + rand_range (0, 40);
      SpsTime dur;

      if (ts >= end)
        break;

      if (rand_range (0, 10) == 0)
        dur = 0;
      else
        dur = rand_range (1, (gint32) MIN (end - ts, 3000) + 1);

      slice[0] = ts;
      slice[1] = dur;
      g_array_append_vals (out, slice, 1);

      if (depth < 7 && dur > 4 && rand_range (0, 3) != 0)
        generate_nested (out, ts, ts + dur, depth + 1, budget);

      cursor = ts + dur + (dur == 0 ? 1 : 0);
    }
}

typedef struct
{
  SpsTime ts;
  SpsTime dur;
} Span;

static void
shuffle_spans (GArray *spans)
{
  Span *data = (Span *) (gpointer) spans->data;

  for (guint i = spans->len; i > 1; i--)
    {
      guint j = rand_range (0, i);
      Span tmp = data[i - 1];

      data[i - 1] = data[j];
      data[j] = tmp;
    }
}

static SpsTrace *
build_random_trace (guint32 seed)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  guint32 process = sps_trace_builder_ensure_process (b, 1);
  guint32 name = sps_trace_builder_intern (b, "s", -1);

  g_rand_set_seed (rng, seed);

  for (guint t = 0; t < 4; t++)
    {
      guint32 thread = sps_trace_builder_ensure_thread (b, process, t);
      g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, sizeof (Span));
      guint budget = 2000 + 1500 * t;

      /* Thread 1 has one slice over everything, thread 3 starts with a
       * long one: blocks whose max end reaches far ahead. */
      if (t == 1)
        {
          Span root = { -10, 10000000 };

          g_array_append_val (spans, root);
        }
      if (t == 3)
        {
          Span early = { 0, 5000000 };

          g_array_append_val (spans, early);
        }

      while (spans->len < budget)
        generate_nested (spans, spans->len * 1000, spans->len * 1000 + 2000000, 0, budget);

      shuffle_spans (spans);
      for (guint i = 0; i < spans->len; i++)
        {
          const Span *span = &g_array_index (spans, Span, i);

          sps_trace_builder_add_complete (b, thread, span->ts, span->dur, name, 0, SPS_ARGS_REF_NONE, 0);
        }
    }

  /* Async trees packed on lanes */
  for (guint i = 0; i < 3000; i++)
    {
      SpsTime ts = rand_range (0, 3000000);
      SpsTime dur = rand_range (0, 20000);

      sps_trace_builder_add_async (b, SPS_ASYNC_BEGIN, process, i, ts, name, 0, SPS_ARGS_REF_NONE);
      if (dur > 100)
        {
          sps_trace_builder_add_async (b, SPS_ASYNC_BEGIN, process, i, ts + dur / 3, name, 0, SPS_ARGS_REF_NONE);
          sps_trace_builder_add_async (b, SPS_ASYNC_END, process, i, ts + dur / 2, name, 0, SPS_ARGS_REF_NONE);
        }
      sps_trace_builder_add_async (b, SPS_ASYNC_END, process, i, ts + dur, name, 0, SPS_ARGS_REF_NONE);
    }

  sps_trace_builder_add_instant (b, SPS_INSTANT_KIND_INSTANT, SPS_INSTANT_SCOPE_GLOBAL,
                                 SPS_NO_INDEX, SPS_NO_INDEX, 5, name, 0, SPS_ARGS_REF_NONE);

  return sps_trace_builder_finish (b, NULL, NULL);
}

static gboolean
is_slice_track (SpsTrace *trace,
                guint     track)
{
  guint8 kind = sps_trace_get_tracks (trace)->kind[track];

  return kind == SPS_TRACK_THREAD_SLICES ||
         kind == SPS_TRACK_THREAD_SAMPLED_SLICES ||
         kind == SPS_TRACK_ASYNC;
}

static void
test_random_windows (void)
{
  g_autoptr(SpsTrace) trace = build_random_trace (1);
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  SpsTime t0 = sps_trace_get_start_time (trace);
  SpsTime t1 = sps_trace_get_end_time (trace);
  guint n_slice_tracks = 0;

  g_assert_cmpuint (slices->n_rows, >, 15000);

  for (guint track = 0; track < tracks->n_rows; track++)
    {
      guint first = tracks->first_row[track];
      guint n = tracks->n_rows_in_track[track];

      if (!is_slice_track (trace, track) || n == 0)
        continue;
      n_slice_tracks++;

      /* Whole trace, before it, after it */
      check_window (trace, track, t0 - 1000, t1 + 1000);
      check_window (trace, track, t0 - 1000, t0);
      check_window (trace, track, t1, t1 + 1000);
      check_window (trace, track, t1 + 1, t1 + 1000);

      for (guint q = 0; q < 300; q++)
        {
          SpsTime a = t0 + rand_range (0, (gint32) MIN (t1 - t0 + 1, G_MAXINT32));
          SpsTime len = rand_range (0, q % 3 == 0 ? 100 : 100000);

          check_window (trace, track, a, a + len);
        }

      /* Windows on slice edges, of width 0 too */
      for (guint q = 0; q < 300; q++)
        {
          guint i = first + rand_range (0, n);
          guint j = first + rand_range (0, n);
          SpsTime start = slices->ts[i];
          SpsTime end = slices->ts[j] + (q % 2 ? slices->dur[j] : 0);

          check_window (trace, track, start, end);
          check_window (trace, track, MIN (start, end), MAX (start, end));
          check_window (trace, track, slices->ts[i] + slices->dur[i], slices->ts[i] + slices->dur[i]);
          check_window (trace, track, slices->ts[i], slices->ts[i]);
          check_window (trace, track, slices->ts[i] + slices->dur[i], MAX (end, start) + 1);
        }
    }

  /* 4 thread tracks and at least one async lane */
  g_assert_cmpuint (n_slice_tracks, >=, 5);
}

/* The stack-based nesting agrees with the definition: a slice's parent is
 * the innermost earlier slice of its track that contains it. */
static void
test_random_nesting (void)
{
  g_autoptr(SpsTrace) trace = build_random_trace (2);
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  g_autofree SpsTime *children = g_new0 (SpsTime, slices->n_rows);

  for (guint track = 0; track < tracks->n_rows; track++)
    {
      guint first = tracks->first_row[track];
      guint n = tracks->n_rows_in_track[track];
      guint16 max_depth = 0;

      if (tracks->kind[track] != SPS_TRACK_THREAD_SLICES)
        continue;

      for (guint i = first; i < first + n; i++)
        {
          guint32 parent = SPS_NO_INDEX;
          SpsTime end = slices->ts[i] + slices->dur[i];

          for (guint j = i; j-- > first;)
            if (slices->ts[j] <= slices->ts[i] && slices->ts[j] + slices->dur[j] >= end)
              {
                parent = j;
                break;
              }

          g_assert_cmpuint (slices->parent[i], ==, parent);
          g_assert_cmpuint (slices->depth[i], ==, parent == SPS_NO_INDEX ? 0 : slices->depth[parent] + 1);
          g_assert_cmpuint (slices->track[i], ==, track);
          if (i > first)
            g_assert_cmpint (slices->ts[i - 1], <=, slices->ts[i]);
          if (parent != SPS_NO_INDEX)
            children[parent] += slices->dur[i];
          max_depth = MAX (max_depth, slices->depth[i] + 1);
        }

      g_assert_cmpuint (tracks->max_depth[track], ==, max_depth);
    }

  for (guint i = 0; i < slices->n_rows; i++)
    if (tracks->kind[slices->track[i]] == SPS_TRACK_THREAD_SLICES)
      g_assert_cmpint (slices->self_time[i], ==, MAX (0, slices->dur[i] - children[i]));

  g_assert_cmpuint (sps_trace_count_warning (trace, "overlapping_slice"), ==, 0);
}

static void
test_block_edges (void)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  g_autoptr(SpsTrace) trace = NULL;
  guint32 process = sps_trace_builder_ensure_process (b, 1);
  const guint counts[] = { 1, 255, 256, 257, 512, 513 };

  for (guint t = 0; t < G_N_ELEMENTS (counts); t++)
    {
      guint32 thread = sps_trace_builder_ensure_thread (b, process, t);

      /* [10 i, 10 i + 5), every fifth one zero-length */
      for (guint i = 0; i < counts[t]; i++)
        sps_trace_builder_add_complete (b, thread, 10 * (SpsTime) i, i % 5 == 4 ? 0 : 5,
                                        0, 0, SPS_ARGS_REF_NONE, 0);
    }

  trace = sps_trace_builder_finish (b, NULL, NULL);

  for (guint t = 0; t < G_N_ELEMENTS (counts); t++)
    {
      g_assert_cmpuint (sps_trace_get_tracks (trace)->n_rows_in_track[t], ==, counts[t]);

      for (SpsTime edge = 2500; edge <= 2600; edge += 5)
        for (SpsTime width = 0; width <= 20; width += 5)
          check_window (trace, t, edge - width, edge + width);
      for (SpsTime edge = 5080; edge <= 5160; edge += 5)
        check_window (trace, t, edge, edge + 10);
      check_window (trace, t, 0, 10 * (SpsTime) counts[t]);
    }

  {
    /* Exactly the slices of rows 255 and 256 of the 257-slice track */
    const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
    Collect collect = { g_array_new (FALSE, FALSE, sizeof (guint)), G_MAXUINT };

    sps_trace_foreach_slice_in_range (trace, 3, 2550, 2565, collect_slice, &collect);
    g_assert_cmpuint (collect.rows->len, ==, 2);
    g_assert_cmpuint (g_array_index (collect.rows, guint, 0), ==, tracks->first_row[3] + 255);
    g_assert_cmpuint (g_array_index (collect.rows, guint, 1), ==, tracks->first_row[3] + 256);
    g_array_unref (collect.rows);
  }
}

static void
test_zero_length (void)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  g_autoptr(SpsTrace) trace = NULL;
  guint32 process = sps_trace_builder_ensure_process (b, 1);
  guint32 thread = sps_trace_builder_ensure_thread (b, process, 1);

  sps_trace_builder_add_complete (b, thread, 10, 0, 0, 0, SPS_ARGS_REF_NONE, 0);
  sps_trace_builder_add_complete (b, thread, 20, 10, 0, 0, SPS_ARGS_REF_NONE, 0);
  trace = sps_trace_builder_finish (b, NULL, NULL);

  /* A zero-length slice is in [start, end) when start <= ts < end */
  assert_window (trace, 0, 10, 11, 1);
  assert_window (trace, 0, 0, 10, 0);
  /* A slice ending at start is out; one starting at end is out */
  assert_window (trace, 0, 30, 40, 0);
  assert_window (trace, 0, 11, 20, 0);
  assert_window (trace, 0, 29, 29, 1);
  check_window (trace, 0, 10, 10);
}

static void
test_stop (void)
{
  g_autoptr(SpsTrace) trace = build_random_trace (2);
  SpsTime t0 = sps_trace_get_start_time (trace);
  SpsTime t1 = sps_trace_get_end_time (trace);
  g_autoptr(GArray) all = brute_force (trace, 0, t0, t1 + 1);
  Collect collect = { g_array_new (FALSE, FALSE, sizeof (guint)), 3 };

  g_assert_cmpuint (all->len, >, 3);

  sps_trace_foreach_slice_in_range (trace, 0, t0, t1 + 1, collect_slice, &collect);
  g_assert_cmpuint (collect.rows->len, ==, 3);
  g_assert_cmpmem (collect.rows->data, 3 * sizeof (guint), all->data, 3 * sizeof (guint));
  g_array_unref (collect.rows);
}

static void
test_other_tracks (void)
{
  g_autoptr(SpsTrace) trace = build_random_trace (2);
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  Collect collect = { g_array_new (FALSE, FALSE, sizeof (guint)), G_MAXUINT };
  guint global = tracks->n_rows - 1;

  /* The instant track holds no slices: nothing is visited. */
  g_assert_cmpuint (tracks->kind[global], ==, SPS_TRACK_GLOBAL_INSTANTS);
  sps_trace_foreach_slice_in_range (trace, global, G_MININT64 / 2, G_MAXINT64 / 2, collect_slice, &collect);
  g_assert_cmpuint (collect.rows->len, ==, 0);
  g_array_unref (collect.rows);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  rng = g_rand_new ();

  g_test_add_func ("/core/trace/range/random-windows", test_random_windows);
  g_test_add_func ("/core/trace/range/random-nesting", test_random_nesting);
  g_test_add_func ("/core/trace/range/block-edges", test_block_edges);
  g_test_add_func ("/core/trace/range/zero-length", test_zero_length);
  g_test_add_func ("/core/trace/range/stop", test_stop);
  g_test_add_func ("/core/trace/range/other-tracks", test_other_tracks);

  status = g_test_run ();
  g_rand_free (rng);

  return status;
}
