/* test-session-carry.c: what the user set in a session, carried over to
 * a session over a newer version of the trace (a live capture's next
 * update), without a display
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-session-carry"

#include "config.h"

#include <spanscope-gtk.h>

#include "sps-test-util.h"

/* Process 1 with threads 10 and 20, process 2 with thread 30, in ns:
 *   thread 10: "A" [100, 200) category "net", "B" [300, 400) "db" and
 *     in it "C" [310, 320) "db";
 *   thread 20: "D" [150, 250) "net", instant "I" at 350;
 *   thread 30: "E" [500, 600) "net".
 * @newer adds first a process 0 with a thread 5 and other strings (so
 * that rows, threads, processes and string ids all move), then a later
 * slice on thread 10 and instants beside "I" at the same time. */
static SpsTrace *
make_trace (gboolean newer)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  guint32 p1, p2, t10, t20, t30;
  SpsTrace *trace;

  if (newer)
    {
      guint32 p0 = sps_trace_builder_ensure_process (b, 0);
      guint32 t5 = sps_trace_builder_ensure_thread (b, p0, 5);

      sps_test_add_complete (b, t5, 50, 900, "early", "other", NULL, 0);
      sps_test_add_complete (b, t5, 60, 10, "C", "db", NULL, 0);
    }
  p1 = sps_trace_builder_ensure_process (b, 1);
  p2 = sps_trace_builder_ensure_process (b, 2);
  t10 = sps_trace_builder_ensure_thread (b, p1, 10);
  t20 = sps_trace_builder_ensure_thread (b, p1, 20);
  t30 = sps_trace_builder_ensure_thread (b, p2, 30);
  if (newer)
    {
      sps_test_add_complete (b, t10, 40, 20, "first", "net", NULL, 0);
      sps_trace_builder_add_instant (b, SPS_INSTANT_KIND_INSTANT, SPS_INSTANT_SCOPE_THREAD, p1, t20, 350,
                                     sps_trace_builder_intern (b, "H", -1), 0, SPS_ARGS_REF_NONE);
    }
  sps_test_add_complete (b, t10, 100, 100, "A", "net", NULL, 0);
  sps_test_add_complete (b, t10, 300, 100, "B", "db", NULL, 0);
  sps_test_add_complete (b, t10, 310, 10, "C", "db", NULL, 0);
  sps_test_add_complete (b, t20, 150, 100, "D", "net", NULL, 0);
  sps_test_add_complete (b, t30, 500, 100, "E", "net", NULL, 0);
  sps_trace_builder_add_instant (b, SPS_INSTANT_KIND_INSTANT, SPS_INSTANT_SCOPE_THREAD, p1, t20, 350,
                                 sps_trace_builder_intern (b, "I", -1), 0, SPS_ARGS_REF_NONE);
  if (newer)
    sps_test_add_complete (b, t10, 700, 100, "later", "net", NULL, 0);
  trace = sps_trace_builder_finish (b, NULL, &error);
  g_assert_no_error (error);
  return trace;
}

static guint
find_thread (SpsTrace *trace,
             gint64    tid)
{
  const SpsThreadTable *threads = sps_trace_get_threads (trace);

  for (guint t = 0; t < threads->n_rows; t++)
    if (threads->tid[t] == tid)
      return t;
  g_assert_not_reached ();
}

static guint
find_process (SpsTrace *trace,
              gint64    pid)
{
  const SpsProcessTable *processes = sps_trace_get_processes (trace);

  for (guint p = 0; p < processes->n_rows; p++)
    if (processes->pid[p] == pid)
      return p;
  g_assert_not_reached ();
}

static guint
find_instant (SpsTrace   *trace,
              const char *name)
{
  const SpsInstantTable *instants = sps_trace_get_instants (trace);

  for (guint i = 0; i < instants->n_rows; i++)
    if (g_strcmp0 (sps_trace_get_string (trace, instants->name[i]), name) == 0)
      return i;
  g_assert_not_reached ();
}

/* Filters, pins, the range, flags, the search and the selected slice
 * reach the newer trace's items, whatever their numbers there */
static void
test_carry_over (void)
{
  g_autoptr(SpsTrace) older = make_trace (FALSE);
  g_autoptr(SpsTrace) newer = make_trace (TRUE);
  g_autoptr(SpsSession) from = sps_session_new (older);
  g_autoptr(SpsSession) to = sps_session_new (newer);
  const SpsSliceTable *slices = sps_trace_get_slices (newer);
  SpsStringPool *strings = sps_trace_get_strings (newer);
  GListModel *flags;
  g_autoptr(SpsFlag) flag = NULL;
  SpsTime start, end;
  guint selected;

  /* The newer trace numbers them otherwise */
  g_assert_cmpuint (find_thread (older, 20), !=, find_thread (newer, 20));
  g_assert_cmpuint (find_process (older, 2), !=, find_process (newer, 2));
  g_assert_cmpuint (sps_test_find_slice (older, "C", 0), !=, sps_test_find_slice (newer, "C", 1));

  sps_session_set_thread_pinned (from, find_thread (older, 10), TRUE);
  sps_session_set_thread_hidden (from, find_thread (older, 20), TRUE);
  sps_session_set_thread_collapsed (from, find_thread (older, 10), TRUE);
  sps_session_set_process_hidden (from, find_process (older, 2), TRUE);
  sps_session_set_category_hidden (from, sps_string_pool_lookup (sps_trace_get_strings (older), "db", -1), TRUE);
  sps_session_set_min_duration (from, 5);
  sps_session_set_search_text (from, "B");
  sps_session_set_range (from, 120, 380);
  sps_session_add_flag (from, 250, "mark");
  sps_session_set_selected_slice (from, sps_test_find_slice (older, "C", 0));

  sps_session_carry_over (to, from);

  g_assert_true (sps_session_get_thread_pinned (to, find_thread (newer, 10)));
  g_assert_false (sps_session_get_thread_pinned (to, find_thread (newer, 20)));
  g_assert_true (sps_session_get_thread_hidden (to, find_thread (newer, 20)));
  g_assert_false (sps_session_get_thread_hidden (to, find_thread (newer, 10)));
  g_assert_false (sps_session_get_thread_hidden (to, find_thread (newer, 5)));
  g_assert_true (sps_session_get_thread_collapsed (to, find_thread (newer, 10)));
  g_assert_false (sps_session_get_thread_collapsed (to, find_thread (newer, 20)));
  g_assert_true (sps_session_get_process_hidden (to, find_process (newer, 2)));
  g_assert_false (sps_session_get_process_hidden (to, find_process (newer, 1)));
  g_assert_false (sps_session_get_process_hidden (to, find_process (newer, 0)));
  g_assert_true (sps_session_get_category_hidden (to, sps_string_pool_lookup (strings, "db", -1)));
  g_assert_false (sps_session_get_category_hidden (to, sps_string_pool_lookup (strings, "net", -1)));
  g_assert_cmpint (sps_session_get_min_duration (to), ==, 5);
  g_assert_cmpstr (sps_session_get_search_text (to), ==, "B");
  g_assert_true (sps_session_get_range (to, &start, &end));
  g_assert_cmpint (start, ==, 120);
  g_assert_cmpint (end, ==, 380);
  flags = sps_session_get_flags (to);
  g_assert_cmpuint (g_list_model_get_n_items (flags), ==, 1);
  flag = g_list_model_get_item (flags, 0);
  g_assert_cmpint (sps_flag_get_time (flag), ==, 250);
  g_assert_cmpstr (sps_flag_get_name (flag), ==, "mark");

  /* "C" of thread 10 at 310 ns, not thread 5's "C" */
  selected = sps_session_get_selected_slice (to);
  g_assert_cmpuint (selected, ==, sps_test_find_slice (newer, "C", 1));
  g_assert_cmpint (slices->ts[selected], ==, 310);
  g_assert_cmpuint (slices->depth[selected], ==, 1);
}

/* An instant at a time another one shares is found by its name; a slice
 * the newer trace does not have leaves nothing selected */
static void
test_carry_selection (void)
{
  g_autoptr(SpsTrace) older = make_trace (FALSE);
  g_autoptr(SpsTrace) newer = make_trace (TRUE);
  g_autoptr(SpsTrace) other = NULL;
  g_autoptr(SpsSession) from = sps_session_new (older);
  g_autoptr(SpsSession) to = sps_session_new (newer);
  g_autoptr(SpsSession) none = NULL;
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  const SpsSelection *sel;

  sps_session_select_instant (from, find_instant (older, "I"));
  sps_session_carry_over (to, from);
  sel = sps_session_get_selection (to);
  g_assert_cmpint (sel->kind, ==, SPS_SELECTION_INSTANT);
  g_assert_cmpuint (sel->index, ==, find_instant (newer, "I"));
  g_assert_cmpuint (find_instant (newer, "H"), !=, find_instant (newer, "I"));

  /* A trace with thread 10 but no "B" at 300 */
  {
    guint32 t10 = sps_trace_builder_ensure_thread (b, sps_trace_builder_ensure_process (b, 1), 10);
    g_autoptr(GError) error = NULL;

    sps_test_add_complete (b, t10, 300, 50, "B2", "db", NULL, 0);
    other = sps_trace_builder_finish (b, NULL, &error);
    g_assert_no_error (error);
  }
  none = sps_session_new (other);
  sps_session_set_selected_slice (from, sps_test_find_slice (older, "B", 0));
  sps_session_carry_over (none, from);
  g_assert_cmpuint (sps_session_get_selected_slice (none), ==, SPS_NO_INDEX);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/session/carry-over/view", test_carry_over);
  g_test_add_func ("/session/carry-over/selection", test_carry_selection);

  return g_test_run ();
}
