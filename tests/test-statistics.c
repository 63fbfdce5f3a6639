/* test-statistics.c: the native statistics (sps_statistics_compute())
 * against the statistics panel's SQL (sps_sql_build_statistics()), row by
 * row: by name and by thread, the whole trace, ranges, filters, on every
 * fixture that loads and on a generated trace
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-statistics"

#include "config.h"

#include <math.h>
#include <string.h>

#include <spanscope-core.h>

#include "sps-test-util.h"

/* One row as text, without the average (compared apart: SQLite's avg()
 * and the native one add the same doubles, but a by-thread GROUP BY may
 * add a group's rows in another order) */
static char *
row_key (SpsSqlResult *result,
         guint         row)
{
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint c = 0; c < sps_sql_result_get_n_columns (result); c++)
    {
      g_autofree char *cell = NULL;

      if (g_str_equal (sps_sql_result_get_column_name (result, c), "average"))
        continue;
      cell = sps_sql_result_is_null (result, row, c) ? g_strdup ("NULL")
                                                      : sps_sql_result_dup_display_text (result, row, c);
      g_string_append_printf (out, "%s|", cell);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* The same rows in the same order (by name; by thread, rows tied on total,
 * name and kind may come in any order in SQL, so there the sets of rows
 * are compared), and the same averages within 1e-12 relative */
static void
assert_same_statistics (SpsTrace         *trace,
                        SpsSqlEngine     *engine,
                        SpsStatsGrouping  grouping,
                        GBytes           *mask,
                        gboolean          has_range,
                        SpsTime           start,
                        SpsTime           end)
{
  g_autofree char *sql = sps_sql_build_statistics (grouping, mask != NULL, has_range, start, end);
  g_autoptr(SpsSqlResult) expected = NULL;
  g_autoptr(SpsSqlResult) native = NULL;
  g_autoptr(GPtrArray) expected_keys = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) native_keys = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  guint n_rows;
  guint average = grouping == SPS_STATS_BY_THREAD ? 6 : 5;

  sps_sql_engine_set_slice_mask (engine, mask);
  expected = sps_test_sql_query (engine, sql);
  native = sps_statistics_compute (trace, grouping, mask, has_range, start, end, NULL, &error);
  g_assert_no_error (error);

  n_rows = sps_sql_result_get_n_rows (expected);
  g_assert_cmpuint (sps_sql_result_get_n_rows (native), ==, n_rows);
  g_assert_cmpuint (sps_sql_result_get_n_columns (native), ==, sps_sql_result_get_n_columns (expected));
  for (guint c = 0; c < sps_sql_result_get_n_columns (expected); c++)
    g_assert_cmpstr (sps_sql_result_get_column_name (native, c), ==,
                     sps_sql_result_get_column_name (expected, c));
  g_assert_cmpstr (sps_sql_result_get_column_name (expected, average), ==, "average");

  for (guint r = 0; r < n_rows; r++)
    {
      g_ptr_array_add (expected_keys, row_key (expected, r));
      g_ptr_array_add (native_keys, row_key (native, r));
      if (sps_sql_result_is_null (expected, r, average))
        {
          g_assert_true (sps_sql_result_is_null (native, r, average));
        }
      else if (grouping == SPS_STATS_BY_NAME)
        {
          double a = sps_sql_result_get_double (expected, r, average);
          double b = sps_sql_result_get_double (native, r, average);

          g_assert_cmpfloat (fabs (a - b), <=, 1e-12 * MAX (fabs (a), 1.0));
        }
    }
  if (grouping == SPS_STATS_BY_THREAD)
    {
      g_ptr_array_sort (expected_keys, compare_strings);
      g_ptr_array_sort (native_keys, compare_strings);
    }
  for (guint r = 0; r < n_rows; r++)
    g_assert_cmpstr (native_keys->pdata[r], ==, expected_keys->pdata[r]);
}

/* Every slice whose row is not a multiple of 3 */
static GBytes *
every_third_hidden (SpsTrace *trace)
{
  guint n = sps_trace_get_n_slices (trace);
  guint8 *mask = g_malloc (MAX (n, 1));

  for (guint i = 0; i < n; i++)
    mask[i] = i % 3 != 0;
  return g_bytes_new_take (mask, MAX (n, 1));
}

/* Both groupings, with and without the mask, over the whole trace, its
 * middle third, a range around everything, an empty range and one that
 * starts inside the first slice */
static void
assert_all_statistics (SpsTrace *trace)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsSqlEngine) engine = sps_sql_engine_new (trace, &error);
  g_autoptr(GBytes) mask = every_third_hidden (trace);
  /* Kept away from the ends of gint64 (span-int64-ends.json goes there)
   * so that the ranges below do not overflow; a trace of no events ends
   * before it starts */
  SpsTime t0 = CLAMP (sps_trace_get_start_time (trace), -(G_GINT64_CONSTANT (1) << 60), G_GINT64_CONSTANT (1) << 60);
  SpsTime t1 = CLAMP (sps_trace_get_end_time (trace), t0, G_GINT64_CONSTANT (1) << 60);
  SpsTime third = (t1 - t0) / 3;
  const struct { gboolean has_range; SpsTime start, end; } ranges[] = {
    { FALSE, 0, 0 },
    { TRUE, t0 + third, t1 - third },
    { TRUE, t0 - 1, t1 + 1 },
    { TRUE, t0 + third, t0 + third },
    { TRUE, MIN (t0 + 1, t1), t1 },
  };

  g_assert_no_error (error);
  for (guint g = 0; g < 2; g++)
    for (guint m = 0; m < 2; m++)
      for (guint r = 0; r < G_N_ELEMENTS (ranges); r++)
        assert_same_statistics (trace, engine, g == 0 ? SPS_STATS_BY_NAME : SPS_STATS_BY_THREAD,
                                m == 0 ? NULL : mask, ranges[r].has_range, ranges[r].start, ranges[r].end);
}

/* Every Chrome JSON fixture of ours that loads, and the demo trace: they
 * hold nested slices, B/E pairs, async lanes, sampled spans (PerfView's
 * spans), zero-length slices and threads without names. */
static void
test_fixtures (void)
{
  g_autofree char *dir_path = g_test_build_filename (G_TEST_DIST, "fixtures", NULL);
  g_autofree char *demo = g_test_build_filename (G_TEST_DIST, "..", "data", "samples", "demo.trace.json", NULL);
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  guint compared = 0;
  guint with_slices = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".json"))
      g_ptr_array_add (paths, g_build_filename (dir_path, name, NULL));
  g_ptr_array_add (paths, g_strdup (demo));
  g_ptr_array_sort (paths, compare_strings);

  for (guint i = 0; i < paths->len; i++)
    {
      g_autoptr(GFile) file = g_file_new_for_path (paths->pdata[i]);
      g_autoptr(SpsTrace) trace = sps_trace_load (file, NULL, NULL, 0, NULL, NULL, NULL);

      /* The fixtures of bad input that do not load are not about this */
      if (trace == NULL)
        continue;
      g_test_message ("%s: %u slices", (const char *) paths->pdata[i], sps_trace_get_n_slices (trace));
      assert_all_statistics (trace);
      compared++;
      if (sps_trace_get_n_slices (trace) > 0)
        with_slices++;
    }
  /* Most of them load; a change that made them fail would hide here */
  g_assert_cmpuint (compared, >=, 40);
  g_assert_cmpuint (with_slices, >=, 20);
}

static guint64
next_random (guint64 *state)
{
  /* xorshift64*: the same trace on every machine */
  *state ^= *state >> 12;
  *state ^= *state << 25;
  *state ^= *state >> 27;
  return *state * G_GUINT64_CONSTANT (2685821657736338717);
}

/* Stacks up to 6 deep on 4 threads of 2 processes (one thread unnamed),
 * measured and sampled spans, zero-length slices, slices that end with
 * their parent, async operations on a lane, names from a pool of 12 */
static SpsTrace *
generated_trace (void)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  guint64 state = 0x9e3779b97f4a7c15;
  guint32 names[12];
  guint32 threads[4];

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *name = g_strdup_printf ("task-%u", i);

      names[i] = sps_trace_builder_intern (builder, name, -1);
    }
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      guint32 process = sps_trace_builder_ensure_process (builder, 1 + i / 2);

      threads[i] = sps_trace_builder_ensure_thread (builder, process, 100 + i);
      if (i != 3)
        sps_trace_builder_set_thread_name (builder, threads[i], names[i]);
    }

  for (guint t = 0; t < G_N_ELEMENTS (threads); t++)
    {
      SpsTime ts = 0;

      for (guint root = 0; root < 300; root++)
        {
          /* A root and nested children, each inside its parent */
          SpsTime starts[6];
          SpsTime ends[6];
          guint depth = 1 + next_random (&state) % 6;
          gboolean sampled = next_random (&state) % 5 == 0;

          starts[0] = ts + next_random (&state) % 50;
          ends[0] = starts[0] + 200 + next_random (&state) % 2000;
          for (guint d = 1; d < depth; d++)
            {
              SpsTime span = ends[d - 1] - starts[d - 1];

              starts[d] = starts[d - 1] + next_random (&state) % (span / 2 + 1);
              ends[d] = next_random (&state) % 4 == 0 ? ends[d - 1]
                                                     : starts[d] + next_random (&state) % (ends[d - 1] - starts[d] + 1);
            }
          for (guint d = 0; d < depth; d++)
            sps_trace_builder_add_complete (builder, threads[t], starts[d], ends[d] - starts[d],
                                            names[next_random (&state) % G_N_ELEMENTS (names)], 0,
                                            SPS_ARGS_REF_NONE, sampled ? SPS_SLICE_SAMPLED : SPS_SLICE_NONE);
          ts = ends[0] + next_random (&state) % 100;
        }
    }

  for (guint i = 0; i < 200; i++)
    {
      guint32 process = sps_trace_builder_ensure_process (builder, 1);
      SpsTime ts = (SpsTime) (next_random (&state) % 400000);
      guint64 key = next_random (&state) % 7;

      sps_trace_builder_add_async (builder, SPS_ASYNC_BEGIN, process, key, ts,
                                   names[next_random (&state) % G_N_ELEMENTS (names)], 0, SPS_ARGS_REF_NONE);
      sps_trace_builder_add_async (builder, SPS_ASYNC_END, process, key, ts + (SpsTime) (next_random (&state) % 5000),
                                   0, 0, SPS_ARGS_REF_NONE);
    }

  return sps_test_finish (builder);
}

static void
test_generated (void)
{
  g_autoptr(SpsTrace) trace = generated_trace ();

  /* 4 threads × 300 roots of 1–6 slices, and the async slices */
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES) +
                    sps_trace_count_slices (trace, SPS_TRACK_THREAD_SAMPLED_SLICES), >=, 1200);
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_ASYNC), >, 0);
  assert_all_statistics (trace);
}

/* A small trace checked by hand: "a" [0, 100) holds "b" [10, 30); "c" is
 * zero-length at 100; "d" [200, 300). Over [20, 250): a crosses the start
 * (overlap 80, less b's 10: self 70), b crosses it (10, self 10), c is
 * inside (0), d crosses the end (50). */
static void
test_by_hand (void)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsSqlResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) rows = g_string_new (NULL);
  guint32 process = sps_trace_builder_ensure_process (builder, 1);
  guint32 thread = sps_trace_builder_ensure_thread (builder, process, 1);

  sps_test_add_complete (builder, thread, 0, 100, "a", "", NULL, 0);
  sps_test_add_complete (builder, thread, 10, 20, "b", "", NULL, 0);
  sps_test_add_complete (builder, thread, 100, 0, "c", "", NULL, 0);
  sps_test_add_complete (builder, thread, 200, 100, "d", "", NULL, 0);
  trace = sps_test_finish (builder);

  result = sps_statistics_compute (trace, SPS_STATS_BY_NAME, NULL, TRUE, 20, 250, NULL, &error);
  g_assert_no_error (error);
  for (guint r = 0; r < sps_sql_result_get_n_rows (result); r++)
    g_string_append_printf (rows, "%s:%" G_GINT64_FORMAT ":%" G_GINT64_FORMAT ":%" G_GINT64_FORMAT " ",
                            sps_sql_result_get_text (result, r, 0), sps_sql_result_get_int64 (result, r, 2),
                            sps_sql_result_get_int64 (result, r, 3), sps_sql_result_get_int64 (result, r, 4));
  /* Ordered by total, largest first */
  g_assert_cmpstr (rows->str, ==, "a:1:80:70 d:1:50:50 b:1:10:10 c:1:0:0 ");
}

/* A cancelled computation returns G_IO_ERROR_CANCELLED and no rows */
static void
test_cancelled (void)
{
  g_autoptr(SpsTrace) trace = generated_trace ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(SpsSqlResult) result = NULL;
  g_autoptr(GError) error = NULL;

  g_cancellable_cancel (cancellable);
  result = sps_statistics_compute (trace, SPS_STATS_BY_NAME, NULL, FALSE, 0, 0, cancellable, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (result);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/statistics/by-hand", test_by_hand);
  g_test_add_func ("/statistics/same-as-sql/fixtures", test_fixtures);
  g_test_add_func ("/statistics/same-as-sql/generated", test_generated);
  g_test_add_func ("/statistics/cancelled", test_cancelled);

  return g_test_run ();
}
