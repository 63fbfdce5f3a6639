/* test-view-filter-incremental.c: SpsViewFilter's incremental updates
 * agree with a filter computed afresh, after random control changes on
 * random traces and on the shared Chrome fixtures (the rules themselves
 * are checked with exact values in test-view-filter.c)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <spanscope-core.h>

#include "sps-test-util.h"

/* One random control change, windows and durations scaled to the trace */
static void
random_change (GRand         *rand,
               SpsViewFilter *filter)
{
  SpsTrace *trace = sps_view_filter_get_trace (filter);
  guint n_slices = sps_trace_get_slices (trace)->n_rows;
  guint n_threads = sps_trace_get_threads (trace)->n_rows;
  guint n_processes = sps_trace_get_processes (trace)->n_rows;
  SpsTime t0 = sps_trace_get_start_time (trace);
  SpsTime span = MAX (sps_trace_get_end_time (trace) - t0, 10);
  SpsTime a;

  switch (g_rand_int_range (rand, 0, 7))
    {
    case 0:
      a = t0 + (SpsTime) (g_rand_double_range (rand, -0.05, 1.0) * span);
      sps_view_filter_set_window (filter, a, a + (SpsTime) (g_rand_double_range (rand, -0.02, 0.4) * span));
      break;
    case 1:
      sps_view_filter_set_min_duration (filter, (SpsTime) (g_rand_double_range (rand, 0, 0.05) * span));
      break;
    case 2:
      if (n_processes > 0)
        sps_view_filter_set_process_expansion (filter, g_rand_int_range (rand, 0, n_processes),
                                               g_rand_int_range (rand, 0, 3));
      break;
    case 3:
      if (n_threads > 0)
        sps_view_filter_set_thread_expansion (filter, g_rand_int_range (rand, 0, n_threads),
                                              g_rand_int_range (rand, 0, 3));
      break;
    case 4:
      sps_view_filter_set_class_masks (filter, g_rand_int_range (rand, 0, 16) & g_rand_int_range (rand, 0, 16),
                                       g_rand_int_range (rand, 0, 16) & g_rand_int_range (rand, 0, 16));
      break;
    case 5:
      {
        guint32 seeds[2] = { g_rand_int_range (rand, 0, MAX (n_slices, 1)),
                             g_rand_int_range (rand, 0, MAX (n_slices, 1)) };

        sps_view_filter_set_focus_seeds (filter, seeds, n_slices > 0 ? g_rand_int_range (rand, 0, 3) : 0);
        sps_view_filter_set_focus_enabled (filter, g_rand_boolean (rand));
      }
      break;
    default:
      sps_view_filter_set_focus_depth (filter, g_rand_int_range (rand, 0, 4));
      sps_view_filter_set_focus_direction (filter, g_rand_int_range (rand, 1, 4));
      sps_view_filter_set_focus_parent_child (filter, g_rand_boolean (rand));
      break;
    }
}

/* The incrementally updated filter equals a new filter given the same
 * state through its JSON form (a full recompute), and the definition,
 * slice by slice. */
static void
check_against_fresh (SpsViewFilter *filter)
{
  SpsTrace *trace = sps_view_filter_get_trace (filter);
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  g_autoptr(SpsViewFilter) fresh = sps_view_filter_new (trace);
  g_autoptr(GError) error = NULL;
  g_autofree char *json = sps_view_filter_to_json (filter);
  g_autoptr(GBytes) m1 = NULL;
  g_autoptr(GBytes) m2 = NULL;
  const guint8 *m;
  SpsTime ws;
  SpsTime we;
  guint n = 0;

  g_assert_true (sps_view_filter_load_json (fresh, json, -1, &error));
  g_assert_no_error (error);

  g_assert_cmpuint (sps_view_filter_get_visible_count (filter), ==, sps_view_filter_get_visible_count (fresh));
  g_assert_cmpuint (sps_view_filter_get_total_height (filter), ==, sps_view_filter_get_total_height (fresh));
  m1 = sps_view_filter_dup_mask (filter);
  m2 = sps_view_filter_dup_mask (fresh);
  g_assert_true (g_bytes_equal (m1, m2));

  m = g_bytes_get_data (m1, NULL);
  sps_view_filter_get_window (filter, &ws, &we);
  for (guint s = 0; s < slices->n_rows; s++)
    {
      SpsTime end = slices->ts[s] + slices->dur[s];
      gboolean in_time = ws <= we && slices->ts[s] <= we && end >= ws &&
                         slices->dur[s] >= sps_view_filter_get_min_duration (filter);
      guint32 bits = sps_view_filter_get_slice_classes (filter, s);
      guint32 require = sps_view_filter_get_require_mask (filter);
      gboolean classes = (bits & require) == require && (bits & sps_view_filter_get_exclude_mask (filter)) == 0;
      guint shown = sps_view_filter_get_track_lanes_shown (filter, slices->track[s]);
      gboolean focus = !sps_view_filter_is_focus_active (filter) || sps_view_filter_is_slice_reached (filter, s);

      g_assert_cmpint (m[s], ==, in_time && classes && slices->depth[s] < shown && focus);
      n += m[s];
    }
  g_assert_cmpuint (n, ==, sps_view_filter_get_visible_count (filter));
}

/* Random traces and random control sequences: after every change, the
 * incrementally updated filter equals a new filter given the same state
 * (through its JSON form), a full recompute. */
static void
test_incremental_random (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (17);

  for (guint round = 0; round < 6; round++)
    {
      g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
      g_autoptr(SpsTrace) trace = NULL;
      g_autoptr(SpsViewFilter) filter = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(GArray) handles = g_array_new (FALSE, FALSE, sizeof (guint32));
      g_autoptr(GArray) handle_thread = g_array_new (FALSE, FALSE, sizeof (guint32));
      g_autoptr(GArray) handle_ts = g_array_new (FALSE, FALSE, sizeof (SpsTime));
      guint n_threads = 0;
      guint32 threads[12];
      const char *cats[] = { "a", "b", "a,b", "error", "" };

      for (guint p = 0; p < 4; p++)
        {
          guint32 process = sps_trace_builder_ensure_process (b, 100 + p);

          for (guint t = 0; t < 3; t++)
            threads[n_threads++] = sps_trace_builder_ensure_thread (b, process, 1000 + p * 10 + t);
        }
      for (guint t = 0; t < n_threads; t++)
        {
          SpsTime ts = g_rand_int_range (rand, 0, 100);

          /* Nested runs: a root with a few levels of children */
          for (guint r = 0; r < 20; r++)
            {
              SpsTime root_dur = g_rand_int_range (rand, 1, 400);
              SpsTime child_ts = ts;

              for (guint depth = 0; depth < 4 && child_ts < ts + root_dur; depth++)
                {
                  SpsTime dur = MAX (0, root_dur - (child_ts - ts) - g_rand_int_range (rand, 0, 50));
                  g_autofree char *name = g_strdup_printf ("n%d", g_rand_int_range (rand, 0, 6));
                  guint32 h = sps_test_add_complete (b, threads[t], child_ts, dur, name,
                                                     cats[g_rand_int_range (rand, 0, G_N_ELEMENTS (cats))],
                                                     g_rand_boolean (rand) ? "{\"k\":1}" : NULL, SPS_SLICE_NONE);

                  g_array_append_val (handles, h);
                  g_array_append_val (handle_thread, threads[t]);
                  g_array_append_val (handle_ts, child_ts);
                  child_ts += g_rand_int_range (rand, 0, 30);
                }
              ts += root_dur + g_rand_int_range (rand, 0, 40);
            }
        }
      for (guint f = 0; f < 40; f++)
        {
          guint i = g_rand_int_range (rand, 0, handles->len);
          guint j = g_rand_int_range (rand, 0, handles->len);

          sps_test_add_flow (b, f + 1, g_array_index (handle_thread, guint32, i), g_array_index (handle_ts, SpsTime, i),
                             g_array_index (handles, guint32, i), g_array_index (handle_thread, guint32, j),
                             g_array_index (handle_ts, SpsTime, j), g_array_index (handles, guint32, j));
        }
      trace = sps_trace_builder_finish (b, NULL, &error);
      g_assert_no_error (error);

      filter = sps_view_filter_new (trace);
      g_assert_true (sps_view_filter_add_rule (filter, "error", SPS_CLASS_RULE_CATEGORY, "error", NULL, NULL));
      g_assert_true (sps_view_filter_add_rule (filter, "b", SPS_CLASS_RULE_CATEGORY, "b", NULL, NULL));
      g_assert_true (sps_view_filter_add_rule (filter, "k", SPS_CLASS_RULE_ARG, "k", "1", NULL));
      g_assert_true (sps_view_filter_add_rule (filter, "n1", SPS_CLASS_RULE_NAME, "n1", NULL, NULL));

      for (guint step = 0; step < 60; step++)
        {
          random_change (rand, filter);
          check_against_fresh (filter);
        }
    }
}

/* The same on real traces: the shared fixtures of other projects' tools */
static void
test_incremental_fixtures (void)
{
  g_autofree char *dir_path = sps_test_shared_fixture_path ("chrome", NULL);
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (23);
  const char *name;
  guint n_traces = 0;

  /* (the helper marks the test skipped when they are missing) */
  if (dir_path == NULL)
    return;
  dir = g_dir_open (dir_path, 0, NULL);
  g_assert_nonnull (dir);

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir_path, name, NULL);
      g_autoptr(SpsTrace) trace = sps_test_load_path (path);
      g_autoptr(SpsViewFilter) filter = sps_view_filter_new (trace);

      g_test_message ("%s", name);
      g_assert_true (sps_view_filter_add_rule (filter, "gpu", SPS_CLASS_RULE_CATEGORY, "*gpu*", NULL, NULL));
      g_assert_true (sps_view_filter_add_rule (filter, "named", SPS_CLASS_RULE_ARG, "name", NULL, NULL));
      g_assert_true (sps_view_filter_add_rule (filter, "run", SPS_CLASS_RULE_NAME, "*Run*", NULL, NULL));
      for (guint step = 0; step < 30; step++)
        {
          random_change (rand, filter);
          check_against_fresh (filter);
        }
      n_traces++;
    }
  g_assert_cmpuint (n_traces, >, 10);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/view-filter/incremental-random", test_incremental_random);
  g_test_add_func ("/core/view-filter/incremental-fixtures", test_incremental_fixtures);

  return g_test_run ();
}
