/* test-ui-example-view.c: the example view plugin (examples/c-view), as
 * built outside the tree against the installed SDK by
 * test-sdk-examples.sh, which runs this program under Xvfb with
 * SPANSCOPE_PLUGIN_PATH pointing at that build. Not a test on its own.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-ui-example-view"

#include "config.h"

#include <spanscope-gtk.h>

#include "sps-test-ui.h"
#include "sps-test-util.h"

/* Checked by hand: thread 1 "main" has 3 slices (load 0–300 µs, the
 * longest; parse inside it; paint 400–450 µs), thread 2 "worker" one
 * (decode), thread 3 only an instant, so no slice. Sorted by count. */
static const char trace_json[] =
  "{\"traceEvents\":["
  "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":1,\"args\":{\"name\":\"main\"}},"
  "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":2,\"args\":{\"name\":\"worker\"}},"
  "{\"ph\":\"X\",\"name\":\"load\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":300},"
  "{\"ph\":\"X\",\"name\":\"parse\",\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":100},"
  "{\"ph\":\"X\",\"name\":\"paint\",\"pid\":1,\"tid\":1,\"ts\":400,\"dur\":50},"
  "{\"ph\":\"X\",\"name\":\"decode\",\"pid\":1,\"tid\":2,\"ts\":20,\"dur\":200},"
  "{\"ph\":\"i\",\"name\":\"tick\",\"s\":\"t\",\"pid\":1,\"tid\":3,\"ts\":5}"
  "]}";

static const char *
label_text (GtkWidget  *root,
            const char *name)
{
  GtkWidget *label = sps_test_find_named (root, name);

  g_assert_nonnull (label);
  return gtk_label_get_text (GTK_LABEL (label));
}

static void
test_example_view (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("sps-example-view-XXXXXX", &error);
  g_autofree char *path = sps_test_write_file (dir, "threads.json", trace_json);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  SpsPluginEngine *engine = sps_plugin_engine_get_default ();
  g_autoptr(SpsPluginStatus) status = sps_test_find_plugin_status (engine, "threadcounts");
  g_autoptr(GPtrArray) views = sps_plugin_engine_create_extensions (engine, SPS_TYPE_VIEW);
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsSession) session = NULL;
  SpsView *view = NULL;
  GtkWidget *window;
  GtkWidget *panel;
  GtkWidget *list;

  g_assert_no_error (error);
  g_assert_nonnull (status);
  g_assert_cmpint (sps_plugin_status_get_state (status), ==, SPS_PLUGIN_STATE_LOADED);
  g_assert_cmpstr (sps_plugin_status_get_version (status), ==, "1.0");

  for (guint i = 0; i < views->len; i++)
    if (g_str_equal (sps_view_get_title (g_ptr_array_index (views, i)), "Thread slices"))
      view = g_ptr_array_index (views, i);
  g_assert_nonnull (view);
  g_assert_cmpint (sps_view_get_area (view), ==, SPS_VIEW_AREA_SIDE);
  g_assert_cmpstr (sps_view_get_icon_name (view), ==, "view-list-symbolic");

  trace = sps_trace_load (file, engine, NULL, SPS_LOAD_FLAGS_NONE, NULL, NULL, &error);
  g_assert_no_error (error);
  session = sps_session_new (trace);

  panel = sps_view_create_panel (view, session);
  g_assert_nonnull (panel);
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 320, 200);
  gtk_window_set_child (GTK_WINDOW (window), panel);
  gtk_window_present (GTK_WINDOW (window));
  gtk_test_widget_wait_for_draw (window);

  g_assert_cmpstr (label_text (panel, "thread-1"), ==, "main (1)");
  g_assert_cmpstr (label_text (panel, "count-1"), ==, "3 slices");
  g_assert_cmpstr (label_text (panel, "thread-2"), ==, "worker (2)");
  g_assert_cmpstr (label_text (panel, "count-2"), ==, "1 slice");
  g_assert_cmpstr (label_text (panel, "thread-3"), ==, "thread (3)");
  g_assert_cmpstr (label_text (panel, "count-3"), ==, "0 slices");

  /* Rows by count; activating main's selects its longest slice, "load" */
  list = sps_test_find_descendant (panel, GTK_TYPE_LIST_BOX);
  g_assert_nonnull (list);
  g_assert_nonnull (sps_test_find_named (GTK_WIDGET (gtk_list_box_get_row_at_index (GTK_LIST_BOX (list), 0)),
                                         "thread-1"));
  g_assert_nonnull (sps_test_find_named (GTK_WIDGET (gtk_list_box_get_row_at_index (GTK_LIST_BOX (list), 2)),
                                         "thread-3"));
  g_signal_emit_by_name (list, "row-activated", gtk_list_box_get_row_at_index (GTK_LIST_BOX (list), 0));
  g_assert_cmpuint (sps_session_get_selected_slice (session), ==, sps_test_find_slice (trace, "load", 0));

  sps_test_maybe_screenshot (window, "example-view");
  gtk_window_destroy (GTK_WINDOW (window));
  sps_test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/examples/c-view/thread-counts", test_example_view);

  return g_test_run ();
}
