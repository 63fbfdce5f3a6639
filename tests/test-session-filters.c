/* test-session-filters.c: SpsSession without a display: category,
 * thread and process filters, the view filter's controls (collapse,
 * minimum duration, focus, classes), SQL's visible slices, marks and
 * search state
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-session-filters"

#include "config.h"

#include <math.h>
#include <string.h>

#include <spanscope-gtk.h>

#include "sps-test-util.h"

#define NO SPS_NO_INDEX

/* The filter trace (times in ns; categories in quotes):
 *
 *   process 1  thread 10:  draw "gpu" [0,10)   bench "gpu, benchmark" [20,30)
 *                          read "io" [40,50)
 *              thread 11:  read "io" [0,5)     Draw "gpu" [10,12)
 *   process 2  thread 20:  idle "" [0,100), one sample "cpu" at 5
 *
 * Category tokens, sorted: "", "benchmark", "gpu", "io". */
typedef struct
{
  SpsTrace   *trace;
  SpsSession *session;
  guint       filters_changed;
  guint       layout_changed;
} FilterFixture;

static SpsTrace *
build_filter_trace (void)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  guint32 p1 = sps_trace_builder_ensure_process (builder, 1);
  guint32 p2 = sps_trace_builder_ensure_process (builder, 2);
  guint32 t10 = sps_trace_builder_ensure_thread (builder, p1, 10);
  guint32 t11 = sps_trace_builder_ensure_thread (builder, p1, 11);
  guint32 t20 = sps_trace_builder_ensure_thread (builder, p2, 20);
  guint32 gpu = sps_trace_builder_intern (builder, "gpu", -1);
  guint32 io = sps_trace_builder_intern (builder, "io", -1);

#define X(thread, ts, dur, name, cat) \
  sps_trace_builder_add_complete (builder, thread, ts, dur, \
                                  sps_trace_builder_intern (builder, name, -1), \
                                  cat, SPS_ARGS_REF_NONE, 0)
  X (t10, 0, 10, "draw", gpu);
  X (t10, 20, 10, "bench", sps_trace_builder_intern (builder, "gpu, benchmark", -1));
  X (t10, 40, 10, "read", io);
  X (t11, 0, 5, "read", io);
  X (t11, 10, 2, "Draw", gpu);
  X (t20, 0, 100, "idle", sps_trace_builder_intern (builder, "", -1));
#undef X
  sps_trace_builder_add_sample (builder, t20, 5,
                                sps_trace_builder_intern (builder, "cpu", -1),
                                SPS_NO_INDEX, 0, NAN, SPS_WEIGHT_UNIT_NONE, 0);

  return sps_test_finish (builder);
}

/* The slice called @name on the thread with @tid. */
static guint
find_slice (SpsTrace   *trace,
            const char *name,
            gint64      tid)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  const SpsThreadTable *threads = sps_trace_get_threads (trace);
  guint i;

  for (i = 0; i < slices->n_rows; i++)
    {
      guint32 thread = tracks->thread[slices->track[i]];

      if (g_str_equal (sps_trace_get_string (trace, slices->name[i]), name)
          && thread != NO && threads->tid[thread] == tid)
        return i;
    }
  g_assert_not_reached ();
}

static guint32
string_id (SpsTrace   *trace,
           const char *str)
{
  guint32 id = sps_string_pool_lookup (sps_trace_get_strings (trace), str, -1);

  g_assert_cmpuint (id, !=, NO);
  return id;
}

static guint
thread_index (SpsTrace *trace,
              gint64    tid)
{
  const SpsThreadTable *threads = sps_trace_get_threads (trace);
  guint i;

  for (i = 0; i < threads->n_rows; i++)
    if (threads->tid[i] == tid)
      return i;
  g_assert_not_reached ();
}

static guint
process_index (SpsTrace *trace,
               gint64    pid)
{
  const SpsProcessTable *processes = sps_trace_get_processes (trace);
  guint i;

  for (i = 0; i < processes->n_rows; i++)
    if (processes->pid[i] == pid)
      return i;
  g_assert_not_reached ();
}

static void
on_filters_changed (SpsSession    *session,
                    FilterFixture *fixture)
{
  fixture->filters_changed++;
}

static void
on_filter_layout_changed (SpsSession    *session,
                          FilterFixture *fixture)
{
  fixture->layout_changed++;
}

static void
filter_setup (FilterFixture *fixture,
              gconstpointer  data)
{
  fixture->trace = build_filter_trace ();
  fixture->session = sps_session_new (fixture->trace);
  g_signal_connect (fixture->session, "filters-changed", G_CALLBACK (on_filters_changed), fixture);
  g_signal_connect (fixture->session, "layout-changed", G_CALLBACK (on_filter_layout_changed), fixture);
}

static void
filter_teardown (FilterFixture *fixture,
                 gconstpointer  data)
{
  g_clear_object (&fixture->session);
  g_clear_object (&fixture->trace);
}

/* Which of the six slices are visible, as a string of 0/1 in the order
 * draw bench read(10) read(11) Draw idle. */
static char *
visible_slices (FilterFixture *fixture)
{
  static const struct { const char *name; gint64 tid; } order[] = {
    { "draw", 10 }, { "bench", 10 }, { "read", 10 },
    { "read", 11 }, { "Draw", 11 }, { "idle", 20 },
  };
  GString *out = g_string_new (NULL);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (order); i++)
    {
      guint slice = find_slice (fixture->trace, order[i].name, order[i].tid);

      g_string_append_c (out, sps_session_is_slice_visible (fixture->session, slice) ? '1' : '0');
    }

  return g_string_free (out, FALSE);
}

#define assert_visible_slices(fixture, expected) \
  G_STMT_START { \
    g_autofree char *got_ = visible_slices (fixture); \
    g_assert_cmpstr (got_, ==, expected); \
  } G_STMT_END

static void
test_filter_categories (FilterFixture *fixture,
                        gconstpointer  data)
{
  SpsSession *session = fixture->session;
  SpsTrace *trace = fixture->trace;
  const guint32 *categories;
  guint n = 0;

  categories = sps_session_get_categories (session, &n);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpstr (sps_trace_get_string (trace, categories[0]), ==, "");
  g_assert_cmpstr (sps_trace_get_string (trace, categories[1]), ==, "benchmark");
  g_assert_cmpstr (sps_trace_get_string (trace, categories[2]), ==, "gpu");
  g_assert_cmpstr (sps_trace_get_string (trace, categories[3]), ==, "io");

  assert_visible_slices (fixture, "111111");
  g_assert_false (sps_session_has_filters (session));
  g_assert_null (sps_session_dup_slice_mask (session));

  /* "gpu, benchmark" stays while "benchmark" is shown. */
  sps_session_set_category_hidden (session, categories[2], TRUE);
  g_assert_true (sps_session_get_category_hidden (session, categories[2]));
  assert_visible_slices (fixture, "011101");
  g_assert_cmpuint (fixture->filters_changed, ==, 1);
  g_assert_cmpuint (fixture->layout_changed, ==, 0);
  g_assert_false (sps_session_is_category_visible (session, string_id (trace, "gpu")));
  g_assert_true (sps_session_is_category_visible (session, string_id (trace, "gpu, benchmark")));

  /* No change, no signal. */
  sps_session_set_category_hidden (session, categories[2], TRUE);
  g_assert_cmpuint (fixture->filters_changed, ==, 1);

  sps_session_set_category_hidden (session, categories[1], TRUE);
  assert_visible_slices (fixture, "001101");
  sps_session_set_category_hidden (session, categories[0], TRUE);
  assert_visible_slices (fixture, "001100");
  g_assert_cmpuint (fixture->filters_changed, ==, 3);

  /* A string that is no token is ignored. */
  sps_session_set_category_hidden (session, string_id (trace, "draw"), TRUE);
  g_assert_cmpuint (fixture->filters_changed, ==, 3);

  sps_session_show_all (session);
  assert_visible_slices (fixture, "111111");
  g_assert_false (sps_session_get_category_hidden (session, categories[2]));
  g_assert_cmpuint (fixture->filters_changed, ==, 4);
  sps_session_show_all (session);
  g_assert_cmpuint (fixture->filters_changed, ==, 4);
}

static void
test_filter_threads (FilterFixture *fixture,
                     gconstpointer  data)
{
  SpsSession *session = fixture->session;
  SpsTrace *trace = fixture->trace;
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  guint t11 = thread_index (trace, 11);
  guint p2 = process_index (trace, 2);
  guint i;

  g_assert_true (sps_session_is_sample_visible (session, 0));

  sps_session_set_thread_hidden (session, t11, TRUE);
  g_assert_true (sps_session_get_thread_hidden (session, t11));
  assert_visible_slices (fixture, "111001");
  g_assert_cmpuint (fixture->layout_changed, ==, 1);
  g_assert_cmpuint (fixture->filters_changed, ==, 1);
  for (i = 0; i < tracks->n_rows; i++)
    g_assert_cmpint (sps_session_is_track_visible (session, i), ==, tracks->thread[i] != t11);

  sps_session_set_process_hidden (session, p2, TRUE);
  g_assert_true (sps_session_get_process_hidden (session, p2));
  assert_visible_slices (fixture, "111000");
  g_assert_false (sps_session_is_sample_visible (session, 0));
  g_assert_false (sps_session_get_thread_hidden (session, thread_index (trace, 20)));
  g_assert_cmpuint (fixture->layout_changed, ==, 2);

  /* Showing the process keeps its threads' own flags. */
  sps_session_set_process_hidden (session, p2, FALSE);
  assert_visible_slices (fixture, "111001");
  g_assert_true (sps_session_is_sample_visible (session, 0));
  g_assert_cmpuint (fixture->filters_changed, ==, 3);

  sps_session_set_thread_hidden (session, t11, FALSE);
  g_assert_false (sps_session_has_filters (session));
  g_assert_cmpuint (fixture->layout_changed, ==, 4);
}

static void
test_filter_only (FilterFixture *fixture,
                  gconstpointer  data)
{
  SpsSession *session = fixture->session;
  SpsTrace *trace = fixture->trace;

  /* Thread 11 alone: process 2 goes too (its idle slice). */
  sps_session_show_only_thread (session, thread_index (trace, 11));
  assert_visible_slices (fixture, "000110");
  g_assert_cmpuint (fixture->filters_changed, ==, 1);
  g_assert_cmpuint (fixture->layout_changed, ==, 1);
  g_assert_true (sps_session_get_process_hidden (session, process_index (trace, 2)));
  sps_session_show_only_thread (session, thread_index (trace, 11));
  g_assert_cmpuint (fixture->filters_changed, ==, 1);

  /* Process 1 alone: its threads all come back. */
  sps_session_show_only_process (session, process_index (trace, 1));
  assert_visible_slices (fixture, "111110");
  g_assert_false (sps_session_get_thread_hidden (session, thread_index (trace, 10)));
  g_assert_cmpuint (fixture->filters_changed, ==, 2);

  /* Only "gpu": "gpu, benchmark" stays, "io" goes. */
  sps_session_show_only_category (session, string_id (trace, "gpu"));
  assert_visible_slices (fixture, "110010");
  g_assert_true (sps_session_get_category_hidden (session, string_id (trace, "io")));
  g_assert_cmpuint (fixture->filters_changed, ==, 3);
  g_assert_cmpuint (fixture->layout_changed, ==, 2);

  sps_session_show_all (session);
  g_assert_false (sps_session_has_filters (session));
  assert_visible_slices (fixture, "111111");
}

static void
test_filter_mask (FilterFixture *fixture,
                  gconstpointer  data)
{
  SpsSession *session = fixture->session;
  SpsTrace *trace = fixture->trace;
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  g_autoptr(GBytes) mask = NULL;
  g_autoptr(GBytes) again = NULL;
  const guint8 *bytes;
  gsize size;
  guint i;

  sps_session_set_thread_hidden (session, thread_index (trace, 10), TRUE);
  sps_session_set_category_hidden (session, string_id (trace, "gpu"), TRUE);

  mask = sps_session_dup_slice_mask (session);
  g_assert_nonnull (mask);
  bytes = g_bytes_get_data (mask, &size);
  g_assert_cmpuint (size, ==, 6);
  for (i = 0; i < slices->n_rows; i++)
    g_assert_cmpint (!!bytes[i], ==, sps_session_is_slice_visible (session, i));
  /* Thread 10 hidden, Draw on 11 is "gpu": read(11) and idle remain. */
  g_assert_cmpuint (bytes[0] + bytes[1] + bytes[2] + bytes[3] + bytes[4] + bytes[5], ==, 2);

  /* Cached until the next change. */
  again = sps_session_dup_slice_mask (session);
  g_assert_true (again == mask);
}

/* The session forwards its controls to its view filter: categories as
 * one required class whose rules are the shown tokens (so "any token
 * shown" stays the rule), collapse as the filter's COLLAPSED, which hides
 * lanes on the timeline but no slice from the session's answers. Expected
 * strings by hand from build_filter_trace(), in the order of
 * visible_slices(). */
static void
test_filter_forwarding (FilterFixture *fixture,
                        gconstpointer  data)
{
  SpsSession *session = fixture->session;
  SpsTrace *trace = fixture->trace;
  SpsViewFilter *filter = sps_session_get_view_filter (session);
  guint p1 = process_index (trace, 1);
  g_autoptr(GBytes) mask = NULL;
  g_autoptr(GBytes) matched = NULL;
  int bit;

  g_assert_nonnull (filter);
  g_assert_true (sps_view_filter_get_trace (filter) == trace);
  g_assert_cmpuint (sps_view_filter_get_n_classes (filter), ==, 0);

  sps_session_set_category_hidden (session, string_id (trace, "gpu"), TRUE);
  bit = sps_view_filter_lookup_class (filter, "categories-shown");
  g_assert_cmpint (bit, ==, 0);
  g_assert_cmphex (sps_view_filter_get_require_mask (filter), ==, 1);
  g_assert_cmphex (sps_view_filter_get_exclude_mask (filter), ==, 0);
  /* draw (gpu) and Draw (gpu) go; "gpu, benchmark" has "benchmark" */
  assert_visible_slices (fixture, "011101");
  g_assert_cmpuint (sps_view_filter_get_visible_count (filter), ==, 4);

  mask = sps_session_dup_slice_mask (session);
  matched = sps_view_filter_dup_matched_mask (filter);
  g_assert_true (g_bytes_equal (mask, matched));

  /* All shown again: only the mask drops the bit */
  sps_session_set_category_hidden (session, string_id (trace, "gpu"), FALSE);
  g_assert_cmphex (sps_view_filter_get_require_mask (filter), ==, 0);
  g_assert_cmpuint (sps_view_filter_get_visible_count (filter), ==, 6);
  assert_visible_slices (fixture, "111111");

  /* Collapse: the filter keeps tid 10's first lane (draw, bench and
   * read are all at depth 0), tid 11 takes no lane; the session still
   * shows all six */
  sps_session_set_process_collapsed (session, p1, TRUE);
  g_assert_cmpint (sps_view_filter_get_process_expansion (filter, p1), ==, SPS_EXPANSION_COLLAPSED);
  g_assert_cmpuint (sps_view_filter_get_visible_count (filter), ==, 4);
  g_assert_false (sps_view_filter_is_slice_visible (filter, find_slice (trace, "Draw", 11)));
  assert_visible_slices (fixture, "111111");
  g_assert_false (sps_session_has_filters (session));

  /* Hidden wins over collapsed, and showing it again restores collapsed */
  sps_session_set_process_hidden (session, p1, TRUE);
  g_assert_cmpint (sps_view_filter_get_process_expansion (filter, p1), ==, SPS_EXPANSION_HIDDEN);
  assert_visible_slices (fixture, "000001");
  sps_session_set_process_hidden (session, p1, FALSE);
  g_assert_cmpint (sps_view_filter_get_process_expansion (filter, p1), ==, SPS_EXPANSION_COLLAPSED);
  sps_session_set_thread_hidden (session, thread_index (trace, 20), TRUE);
  g_assert_cmpint (sps_view_filter_get_thread_expansion (filter, thread_index (trace, 20)), ==,
                   SPS_EXPANSION_HIDDEN);
  assert_visible_slices (fixture, "111110");
}

/* Thread collapse is layout: the filter keeps tid 10's first lane, the
 * session's answers do not change (by hand: all six slices of
 * build_filter_trace() are at depth 0, so even the filter keeps them) */
static void
test_thread_collapse (FilterFixture *fixture,
                      gconstpointer  data)
{
  SpsSession *session = fixture->session;
  SpsViewFilter *filter = sps_session_get_view_filter (session);
  guint t10 = thread_index (fixture->trace, 10);

  g_assert_false (sps_session_get_thread_collapsed (session, t10));
  sps_session_set_thread_collapsed (session, t10, TRUE);
  g_assert_true (sps_session_get_thread_collapsed (session, t10));
  g_assert_cmpint (sps_view_filter_get_thread_expansion (filter, t10), ==, SPS_EXPANSION_COLLAPSED);
  g_assert_cmpuint (fixture->layout_changed, ==, 1);
  g_assert_cmpuint (fixture->filters_changed, ==, 0);
  sps_session_set_thread_collapsed (session, t10, TRUE);
  g_assert_cmpuint (fixture->layout_changed, ==, 1);
  assert_visible_slices (fixture, "111111");
  g_assert_false (sps_session_has_filters (session));

  /* Hidden wins; shown again, it is collapsed again */
  sps_session_set_thread_hidden (session, t10, TRUE);
  g_assert_cmpint (sps_view_filter_get_thread_expansion (filter, t10), ==, SPS_EXPANSION_HIDDEN);
  sps_session_set_thread_hidden (session, t10, FALSE);
  g_assert_cmpint (sps_view_filter_get_thread_expansion (filter, t10), ==, SPS_EXPANSION_COLLAPSED);
  sps_session_set_thread_collapsed (session, t10, FALSE);
  g_assert_cmpint (sps_view_filter_get_thread_expansion (filter, t10), ==, SPS_EXPANSION_EXPANDED);
}

/* The minimum duration hides exactly the shorter slices: durations are
 * draw 10, bench 10, read(10) 10, read(11) 5, Draw 2, idle 100 */
static void
test_min_duration (FilterFixture *fixture,
                   gconstpointer  data)
{
  SpsSession *session = fixture->session;

  sps_session_set_min_duration (session, 5);
  g_assert_cmpint (sps_session_get_min_duration (session), ==, 5);
  assert_visible_slices (fixture, "111101");
  g_assert_true (sps_session_has_filters (session));
  g_assert_cmpuint (fixture->filters_changed, ==, 1);
  sps_session_set_min_duration (session, 5);
  g_assert_cmpuint (fixture->filters_changed, ==, 1);

  sps_session_set_min_duration (session, 11);
  assert_visible_slices (fixture, "000001");
  sps_session_set_min_duration (session, 101);
  assert_visible_slices (fixture, "000000");
  sps_session_set_min_duration (session, -3);
  g_assert_cmpint (sps_session_get_min_duration (session), ==, 0);
  assert_visible_slices (fixture, "111111");
  g_assert_false (sps_session_has_filters (session));
  g_assert_null (sps_session_dup_slice_mask (session));
}

/* Focus: the selection is the seed; with no flow in this trace, focus
 * keeps the selected slice alone; no selection, nothing hidden */
static void
test_focus (FilterFixture *fixture,
            gconstpointer  data)
{
  SpsSession *session = fixture->session;
  SpsTrace *trace = fixture->trace;

  g_assert_false (sps_session_get_focus (session));
  g_assert_cmpuint (sps_session_get_focus_depth (session), ==, 1);
  g_assert_cmpint (sps_session_get_focus_direction (session), ==, SPS_FOCUS_BOTH);

  sps_session_set_selected_slice (session, find_slice (trace, "draw", 10));
  assert_visible_slices (fixture, "111111");
  sps_session_set_focus (session, TRUE);
  g_assert_true (sps_session_get_focus (session));
  assert_visible_slices (fixture, "100000");
  g_assert_true (sps_session_has_filters (session));

  sps_session_set_selected_slice (session, find_slice (trace, "read", 11));
  assert_visible_slices (fixture, "000100");
  sps_session_set_selected_slice (session, SPS_NO_INDEX);
  assert_visible_slices (fixture, "111111");

  sps_session_set_focus_depth (session, 9);
  g_assert_cmpuint (sps_session_get_focus_depth (session), ==, 5);
  sps_session_set_focus_depth (session, 0);
  g_assert_cmpuint (sps_session_get_focus_depth (session), ==, 1);
  sps_session_set_focus_direction (session, SPS_FOCUS_INCOMING);
  g_assert_cmpint (sps_session_get_focus_direction (session), ==, SPS_FOCUS_INCOMING);

  sps_session_set_focus (session, FALSE);
  sps_session_set_selected_slice (session, find_slice (trace, "idle", 20));
  assert_visible_slices (fixture, "111111");
}

/* Chips: a user's class on names, required then excluded; the built-in
 * "error" has no slice in this trace, so requiring it hides all */
static void
test_class_chips (FilterFixture *fixture,
                  gconstpointer  data)
{
  SpsSession *session = fixture->session;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;

  names = sps_session_dup_class_names (session);
  g_assert_cmpuint (g_strv_length (names), ==, 2);
  g_assert_cmpstr (names[0], ==, "error");
  g_assert_cmpstr (names[1], ==, "instrumentation");
  g_clear_pointer (&names, g_strfreev);

  g_assert_true (sps_session_add_class_rule (session, "reads", SPS_CLASS_RULE_NAME, "read", NULL, &error));
  g_assert_no_error (error);
  names = sps_session_dup_class_names (session);
  g_assert_cmpuint (g_strv_length (names), ==, 3);
  g_assert_cmpstr (names[2], ==, "reads");
  g_assert_cmpint (sps_session_get_class_state (session, "reads"), ==, SPS_CLASS_ANY);

  sps_session_set_class_state (session, "reads", SPS_CLASS_REQUIRED);
  assert_visible_slices (fixture, "001100");
  g_assert_cmpuint (fixture->filters_changed, ==, 1);
  sps_session_set_class_state (session, "reads", SPS_CLASS_EXCLUDED);
  g_assert_cmpint (sps_session_get_class_state (session, "reads"), ==, SPS_CLASS_EXCLUDED);
  assert_visible_slices (fixture, "110011");

  /* Chips and categories together: with "gpu" hidden too, draw and Draw
   * go, bench stays ("benchmark" is shown), idle stays ("" is shown) */
  sps_session_set_category_hidden (session, string_id (fixture->trace, "gpu"), TRUE);
  assert_visible_slices (fixture, "010001");

  sps_session_set_class_state (session, "error", SPS_CLASS_REQUIRED);
  assert_visible_slices (fixture, "000000");
  sps_session_set_class_state (session, "error", SPS_CLASS_ANY);
  sps_session_set_class_state (session, "reads", SPS_CLASS_ANY);
  sps_session_show_all (session);
  assert_visible_slices (fixture, "111111");
  g_assert_false (sps_session_has_filters (session));
}

/* The ids in visible_slices, in order, as the session's SQL engine (the
 * SQL panel's) lists them */
static char *
sql_visible (SpsSession *session)
{
  g_autoptr(GError) error = NULL;
  SpsSqlEngine *engine = sps_session_get_sql_engine (session, &error);
  g_autoptr(SpsSqlResult) result = NULL;

  g_assert_no_error (error);
  result = sps_test_sql_query (engine, "SELECT ifnull(group_concat(id, ','), '') FROM visible_slices");
  return g_strdup (sps_sql_result_get_text (result, 0, 0));
}

/* visible_slices in the SQL panel follows the window's filter, as the
 * CLI's --filter makes it follow a file: every slice, then without the
 * ones shorter than 10 ns (ids by hand: draw 0, bench 1, read 2 on tid
 * 10; read 3, Draw 4 on tid 11; idle 5, in build order), then with a
 * chip excluding the reads too; collapse does not change it. */
static void
test_sql_visible (FilterFixture *fixture,
                  gconstpointer  data)
{
  SpsSession *session = fixture->session;
  SpsTrace *trace = fixture->trace;
  g_autofree char *all = NULL;
  g_autofree char *long_ones = NULL;
  g_autofree char *no_reads = NULL;
  g_autofree char *collapsed = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpuint (find_slice (trace, "draw", 10), ==, 0);
  g_assert_cmpuint (find_slice (trace, "idle", 20), ==, 5);

  all = sql_visible (session);
  g_assert_cmpstr (all, ==, "0,1,2,3,4,5");

  sps_session_set_min_duration (session, 10);
  long_ones = sql_visible (session);
  g_assert_cmpstr (long_ones, ==, "0,1,2,5");

  g_assert_true (sps_session_add_class_rule (session, "reads", SPS_CLASS_RULE_NAME, "read", NULL, &error));
  sps_session_set_class_state (session, "reads", SPS_CLASS_EXCLUDED);
  no_reads = sql_visible (session);
  g_assert_cmpstr (no_reads, ==, "0,1,5");

  sps_session_set_process_collapsed (session, process_index (trace, 1), TRUE);
  collapsed = sql_visible (session);
  g_assert_cmpstr (collapsed, ==, "0,1,5");
}

/* Pins keep the order they were made in and emit layout-changed; flags
 * stay in time order with default names counted per session, and the
 * go-to-time flag replaces the previous one (its name from the trace's
 * start: this trace starts at 0) */
static void
test_marks (FilterFixture *fixture,
            gconstpointer  data)
{
  SpsSession *session = fixture->session;
  SpsTrace *trace = fixture->trace;
  GListModel *flags = sps_session_get_flags (session);
  guint t11 = thread_index (trace, 11);
  guint t20 = thread_index (trace, 20);
  const guint32 *pinned;
  guint n = 99;
  SpsFlag *first;
  SpsFlag *go;
  g_autoptr(SpsFlag) item = NULL;

  pinned = sps_session_get_pinned_threads (session, &n);
  g_assert_cmpuint (n, ==, 0);
  sps_session_set_thread_pinned (session, t20, TRUE);
  sps_session_set_thread_pinned (session, t11, TRUE);
  sps_session_set_thread_pinned (session, t11, TRUE);
  g_assert_cmpuint (fixture->layout_changed, ==, 2);
  pinned = sps_session_get_pinned_threads (session, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (pinned[0], ==, t20);
  g_assert_cmpuint (pinned[1], ==, t11);
  g_assert_true (sps_session_get_thread_pinned (session, t11));
  sps_session_set_thread_pinned (session, t20, FALSE);
  pinned = sps_session_get_pinned_threads (session, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (pinned[0], ==, t11);
  g_assert_false (sps_session_get_thread_pinned (session, t20));

  first = sps_session_add_flag (session, 50, NULL);
  sps_session_add_flag (session, 20, "early");
  sps_session_add_flag (session, 70, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (flags), ==, 3);
  item = g_list_model_get_item (flags, 0);
  g_assert_cmpstr (sps_flag_get_name (item), ==, "early");
  g_assert_cmpint (sps_flag_get_time (item), ==, 20);
  g_clear_object (&item);
  g_assert_cmpstr (sps_flag_get_name (first), ==, "Flag 1");
  item = g_list_model_get_item (flags, 2);
  g_assert_cmpstr (sps_flag_get_name (item), ==, "Flag 2");
  g_assert_cmpint (sps_flag_get_time (item), ==, 70);
  g_clear_object (&item);

  sps_session_remove_flag (session, first);
  g_assert_cmpuint (g_list_model_get_n_items (flags), ==, 2);

  go = sps_session_mark_go_to_time (session, 40);
  g_assert_cmpstr (sps_flag_get_name (go), ==, "Go to 40 ns");
  go = sps_session_mark_go_to_time (session, 90);
  g_assert_cmpuint (g_list_model_get_n_items (flags), ==, 3);
  item = g_list_model_get_item (flags, 2);
  g_assert_true (item == go);
  g_assert_cmpint (sps_flag_get_time (go), ==, 90);
}

static void
test_search_state (FilterFixture *fixture,
                   gconstpointer  data)
{
  SpsSession *session = fixture->session;
  SpsTrace *trace = fixture->trace;
  guint32 draw = string_id (trace, "draw");
  guint32 Draw = string_id (trace, "Draw");
  guint32 bench = string_id (trace, "bench");

  g_assert_null (sps_session_get_search_text (session));
  g_assert_false (sps_session_search_matches (session, draw));

  sps_session_set_search_text (session, "RaW");
  g_assert_cmpstr (sps_session_get_search_text (session), ==, "RaW");
  g_assert_true (sps_session_search_matches (session, draw));
  g_assert_true (sps_session_search_matches (session, Draw));
  g_assert_false (sps_session_search_matches (session, bench));
  /* The memo answers the same the second time. */
  g_assert_true (sps_session_search_matches (session, draw));
  g_assert_false (sps_session_search_matches (session, bench));
  g_assert_true (sps_session_slice_matches_search (session, find_slice (trace, "Draw", 11)));

  /* New text, new answers: the memo is reset. */
  sps_session_set_search_text (session, "ench");
  g_assert_false (sps_session_search_matches (session, draw));
  g_assert_true (sps_session_search_matches (session, bench));

  /* Category mode: "GPU" is in "gpu" and "gpu, benchmark". */
  sps_session_set_search_text (session, "GPU");
  sps_session_set_search_in_category (session, TRUE);
  g_assert_true (sps_session_get_search_in_category (session));
  g_assert_true (sps_session_slice_matches_search (session, find_slice (trace, "bench", 10)));
  g_assert_true (sps_session_slice_matches_search (session, find_slice (trace, "draw", 10)));
  g_assert_false (sps_session_slice_matches_search (session, find_slice (trace, "read", 10)));
  g_assert_false (sps_session_slice_matches_search (session, find_slice (trace, "idle", 20)));

  /* Out-of-range ids never match. */
  g_assert_false (sps_session_search_matches (session, G_MAXUINT32 - 1));

  sps_session_set_search_text (session, "");
  g_assert_null (sps_session_get_search_text (session));
  g_assert_false (sps_session_search_matches (session, draw));
}

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              guint      *count)
{
  (*count)++;
}

static void
test_search_notify (FilterFixture *fixture,
                    gconstpointer  data)
{
  SpsSession *session = fixture->session;
  guint text = 0;
  guint category = 0;
  g_autofree char *value = NULL;

  g_signal_connect (session, "notify::search-text", G_CALLBACK (count_notify), &text);
  g_signal_connect (session, "notify::search-in-category", G_CALLBACK (count_notify), &category);

  sps_session_set_search_text (session, "a");
  sps_session_set_search_text (session, "a");
  g_assert_cmpuint (text, ==, 1);
  /* NULL and "" are the same: no search. */
  sps_session_set_search_text (session, NULL);
  sps_session_set_search_text (session, "");
  g_assert_cmpuint (text, ==, 2);
  g_object_set (session, "search-text", "b", NULL);
  g_object_get (session, "search-text", &value, NULL);
  g_assert_cmpstr (value, ==, "b");
  g_assert_cmpuint (text, ==, 3);

  sps_session_set_search_in_category (session, TRUE);
  sps_session_set_search_in_category (session, TRUE);
  g_object_set (session, "search-in-category", FALSE, NULL);
  g_assert_cmpuint (category, ==, 2);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define FILTER_TEST(path, func) \
  g_test_add (path, FilterFixture, NULL, filter_setup, func, filter_teardown)
  FILTER_TEST ("/gtk/session/filters/categories", test_filter_categories);
  FILTER_TEST ("/gtk/session/filters/threads-and-processes", test_filter_threads);
  FILTER_TEST ("/gtk/session/filters/slice-mask", test_filter_mask);
  FILTER_TEST ("/gtk/session/filters/only-this", test_filter_only);
  FILTER_TEST ("/gtk/session/filters/view-filter", test_filter_forwarding);
  FILTER_TEST ("/gtk/session/controls/thread-collapse", test_thread_collapse);
  FILTER_TEST ("/gtk/session/controls/min-duration", test_min_duration);
  FILTER_TEST ("/gtk/session/controls/focus", test_focus);
  FILTER_TEST ("/gtk/session/controls/class-chips", test_class_chips);
  FILTER_TEST ("/gtk/session/controls/sql-visible", test_sql_visible);
  FILTER_TEST ("/gtk/session/marks", test_marks);
  FILTER_TEST ("/gtk/session/search/matches", test_search_state);
  FILTER_TEST ("/gtk/session/search/notify", test_search_notify);

  return g_test_run ();
}
