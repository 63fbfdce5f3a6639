/* test-ui-panels.c: the search panel, the filter panel and the instance
 * browser in a trace window of the demo trace
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Set SPS_TEST_PANELS_PNG_DIR to a folder to keep a screenshot of each
 * panel (search.png, filters.png, instances.png).
 */

#define G_LOG_DOMAIN "test-ui-panels"

#include "config.h"

#include <string.h>

#include <spanscope-gtk.h>

#include "sps-application.h"
#include "sps-filter-panel.h"
#include "sps-instance-browser.h"
#include "sps-search-panel.h"
#include "sps-timeline-layout-private.h"
#include "sps-timeline-private.h"
#include "sps-window-private.h"

#include "sps-test-shell.h"
#include "sps-test-ui.h"
#include "sps-test-util.h"

static SpsApplication *app;

static SpsWindow *
open_demo (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "samples", "demo.trace.json", NULL);
  SpsWindow *window = sps_test_open_loaded (app, path, 1200, 800);

  /* Past the stack's crossfade from the loading page. */
  sps_test_spin (400);

  return window;
}

static void
maybe_save (SpsWindow  *window,
            const char *name)
{
  const char *dir = g_getenv ("SPS_TEST_PANELS_PNG_DIR");
  g_autofree char *path = NULL;

  if (dir == NULL)
    return;

  sps_test_spin (100);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  path = g_build_filename (dir, name, NULL);
  g_object_unref (sps_test_save_screenshot (GTK_WIDGET (window), path));
}

static gboolean
search_done (gpointer data)
{
  return !sps_search_panel_is_busy (data);
}

static const char *
selected_name (SpsSession *session)
{
  SpsTrace *trace = sps_session_get_trace (session);
  guint slice = sps_session_get_selected_slice (session);

  if (slice == SPS_NO_INDEX)
    return NULL;
  return sps_trace_get_string (trace, sps_trace_get_slices (trace)->name[slice]);
}

/* Ctrl+F focuses the entry; a search for "encode" finds the 20 slices of
 * six names (counted by hand in test-search.c); selecting a row selects
 * its slice; every-match mode lists each slice; category mode finds the
 * 6 sampleEvent slices. */
static void
test_search_panel (void)
{
  SpsWindow *window = open_demo ();
  SpsSession *session = sps_window_get_session (window);
  GtkWidget *panel;
  GtkWidget *entry;
  SpsResultTable *table;
  SpsSearchResult *result;
  int name_column;
  guint huffman_row = G_MAXUINT;
  g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.search");

  /* Ctrl+F comes from the keybindings schema, like every window action. */
  g_assert_true (g_strv_contains ((const char * const *) accels, "<Control>f"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.search", NULL));
  panel = sps_test_find_descendant (GTK_WIDGET (window), SPS_TYPE_SEARCH_PANEL);
  g_assert_nonnull (panel);
  g_assert_true (gtk_widget_get_mapped (panel));
  entry = sps_test_find_named (panel, "search-entry");
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (window)), entry));

  gtk_editable_set_text (GTK_EDITABLE (entry), "ENCODE");
  g_signal_emit_by_name (entry, "activate");
  /* A new keystroke while the first search may still run: only the
   * last one reports. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "encode");
  g_signal_emit_by_name (entry, "activate");
  sps_test_wait_until (search_done, panel);
  sps_test_spin (50);

  result = sps_search_panel_get_result (SPS_SEARCH_PANEL (panel));
  g_assert_nonnull (result);
  g_assert_cmpuint (sps_search_result_get_n_matches (result), ==, 20);
  g_assert_nonnull (sps_test_find_label (panel, "20 slices, 6 names"));
  g_assert_cmpstr (sps_session_get_search_text (session), ==, "encode");

  table = SPS_RESULT_TABLE (sps_test_find_named (panel, "search-results"));
  g_assert_cmpuint (sps_result_table_get_n_rows (table), ==, 6);
  name_column = sps_result_table_find_column (table, "Name");
  g_assert_cmpint (name_column, ==, 0);
  for (guint r = 0; r < 6; r++)
    {
      g_autofree char *name = sps_result_table_dup_cell_text (table, r, 0);

      if (g_str_equal (name, "Huffman::encode"))
        {
          g_autofree char *count = sps_result_table_dup_cell_text (table, r, 1);
          g_autofree char *total = sps_result_table_dup_cell_text (table, r, 2);
          g_autofree char *average = sps_result_table_dup_cell_text (table, r, 3);

          huffman_row = r;
          /* 8 × 5.2 ms */
          g_assert_cmpstr (count, ==, "8");
          g_assert_cmpstr (total, ==, "41.6");
          g_assert_cmpstr (average, ==, "5.2");
        }
      if (g_str_equal (name, "lumen::encoder::run"))
        {
          /* A sampled span: counted, no measured average. */
          g_assert_null (sps_result_table_get_cell (table, r, 3));
        }
    }
  g_assert_cmpuint (huffman_row, !=, G_MAXUINT);

  maybe_save (window, "search.png");

  /* Selecting the row selects the first Huffman::encode, at 1154 ms. */
  g_signal_emit_by_name (table, "row-activated", huffman_row);
  g_assert_cmpstr (selected_name (session), ==, "Huffman::encode");
  g_assert_cmpint (sps_trace_get_slices (sps_session_get_trace (session))->ts[sps_session_get_selected_slice (session)],
                   ==, G_GINT64_CONSTANT (1154000000));

  /* Enter walks all matches in time order (sorted starts from the JSON):
   * after Huffman::encode at 1154 ms comes a stripe at 1159.8 ms, then
   * Huffman::encode at 1163.8 ms. */
  g_signal_emit_by_name (entry, "activate");
  g_assert_cmpstr (selected_name (session), ==, "JpegEncoder::encode_stripe");
  g_assert_cmpint (sps_trace_get_slices (sps_session_get_trace (session))->ts[sps_session_get_selected_slice (session)],
                   ==, G_GINT64_CONSTANT (1159800000));
  g_signal_emit_by_name (entry, "activate");
  g_assert_cmpstr (selected_name (session), ==, "Huffman::encode");
  g_assert_cmpint (sps_trace_get_slices (sps_session_get_trace (session))->ts[sps_session_get_selected_slice (session)],
                   ==, G_GINT64_CONSTANT (1163800000));
  g_assert_true (sps_search_panel_step (SPS_SEARCH_PANEL (panel), -1));
  g_assert_true (sps_search_panel_step (SPS_SEARCH_PANEL (panel), -1));
  g_assert_cmpint (sps_trace_get_slices (sps_session_get_trace (session))->ts[sps_session_get_selected_slice (session)],
                   ==, G_GINT64_CONSTANT (1154000000));

  /* Every match: one row per slice. */
  gtk_check_button_set_active (GTK_CHECK_BUTTON (sps_test_find_named (panel, "unique-by-name")), FALSE);
  sps_test_spin (50);
  g_assert_cmpuint (sps_result_table_get_n_rows (table), ==, 20);

  /* Category mode. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "sampleevent");
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (sps_test_find_named (panel, "search-in-category")), TRUE);
  g_assert_true (sps_session_get_search_in_category (session));
  sps_test_wait_until (search_done, panel);
  sps_test_spin (50);
  g_assert_cmpuint (sps_search_result_get_n_matches (sps_search_panel_get_result (SPS_SEARCH_PANEL (panel))), ==, 6);
  g_assert_cmpuint (sps_result_table_get_n_rows (table), ==, 6);

  sps_test_close_window (window);
}

static guint
thread_of_tid (SpsTrace *trace,
               gint64    tid)
{
  const SpsThreadTable *threads = sps_trace_get_threads (trace);

  for (guint i = 0; i < threads->n_rows; i++)
    if (threads->tid[i] == tid)
      return i;
  g_assert_not_reached ();
}

static gboolean
layout_has_thread (SpsWindow *window,
                   guint      thread)
{
  GtkWidget *timeline = sps_test_find_descendant (GTK_WIDGET (window), SPS_TYPE_TIMELINE);
  SpsTimelineLayout *layout = _sps_timeline_get_layout (SPS_TIMELINE (timeline));

  for (guint i = 0; i < _sps_timeline_layout_get_n_rows (layout); i++)
    if (_sps_timeline_layout_get_row (layout, i)->thread == thread)
      return TRUE;
  return FALSE;
}

/* The check box in the filter row labelled @label. */
static GtkWidget *
filter_check (GtkWidget  *panel,
              const char *label)
{
  GtkWidget *found = sps_test_find_label (panel, label);

  g_assert_nonnull (found);
  return gtk_widget_get_prev_sibling (found);
}

static guint
slice_named_at (SpsTrace   *trace,
                const char *name,
                SpsTime     ts)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);

  for (guint i = 0; i < slices->n_rows; i++)
    if (slices->ts[i] == ts && g_str_equal (sps_trace_get_string (trace, slices->name[i]), name))
      return i;
  g_assert_not_reached ();
}

static GdkTexture *
render_widget (GtkWidget *widget)
{
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  GtkSnapshot *snapshot;
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);

  gtk_widget_queue_draw (widget);
  gtk_test_widget_wait_for_draw (widget);
  paintable = gtk_widget_paintable_new (widget);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);

  return gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)), node,
                                      &GRAPHENE_RECT_INIT (0, 0, width, height));
}

/* Unchecking the "encode" category: the Huffman::encode slices are no
 * longer drawn (their pixels become the lane's background, as in the
 * empty start of the same lane) nor hit by a click. */
static void
test_filter_category_pixels (void)
{
  SpsWindow *window = open_demo ();
  SpsSession *session = sps_window_get_session (window);
  SpsTrace *trace = sps_session_get_trace (session);
  GtkWidget *panel = sps_test_find_descendant (GTK_WIDGET (window), SPS_TYPE_FILTER_PANEL);
  GtkWidget *timeline = sps_test_find_descendant (GTK_WIDGET (window), SPS_TYPE_TIMELINE);
  guint huffman = slice_named_at (trace, "Huffman::encode", 1154000000);
  g_autoptr(GdkTexture) before = NULL;
  g_autoptr(GdkTexture) after = NULL;
  graphene_rect_t area;
  GtkWidget *check;
  int x, y, empty_x;

  sps_test_show_dock_page (panel);
  g_assert_true (sps_timeline_get_slice_area (SPS_TIMELINE (timeline), huffman, &area));
  x = (int) (area.origin.x + area.size.width * 0.75);
  y = (int) (area.origin.y + area.size.height / 2);
  /* The lane is empty for the first 100 ms of the trace. */
  empty_x = sps_timeline_get_gutter_width (SPS_TIMELINE (timeline)) + 20;

  before = render_widget (timeline);
  g_assert_cmphex (sps_test_pixel_at (before, x, y), !=, sps_test_pixel_at (before, empty_x, y));

  check = filter_check (panel, "encode");
  gtk_check_button_set_active (GTK_CHECK_BUTTON (check), FALSE);
  g_assert_false (sps_session_is_slice_visible (session, huffman));

  after = render_widget (timeline);
  g_assert_cmphex (sps_test_pixel_at (after, x, y), ==, sps_test_pixel_at (after, empty_x, y));
  /* Elsewhere nothing changed: the main thread's ExportJob::run. */
  g_assert_true (sps_timeline_get_slice_area (SPS_TIMELINE (timeline),
                                              slice_named_at (trace, "ExportJob::run", 1003500000), &area));
  g_assert_cmphex (sps_test_pixel_at (after, (int) (area.origin.x + area.size.width * 0.75), (int) (area.origin.y + area.size.height / 2)),
                   ==,
                   sps_test_pixel_at (before, (int) (area.origin.x + area.size.width * 0.75), (int) (area.origin.y + area.size.height / 2)));

  sps_test_close_window (window);
}

/* Unchecking thread 4107 (the encoder thread, "Encoder (4107)" in the
 * demo's thread_name metadata) removes its rows from the timeline and
 * hides its slices; "Only" on a category hides the others; Show All
 * brings everything back. */
static void
test_filter_panel (void)
{
  SpsWindow *window = open_demo ();
  SpsSession *session = sps_window_get_session (window);
  SpsTrace *trace = sps_session_get_trace (session);
  guint encoder = thread_of_tid (trace, 4107);
  GtkWidget *panel = sps_test_find_descendant (GTK_WIDGET (window), SPS_TYPE_FILTER_PANEL);
  g_autofree char *label = NULL;
  GtkWidget *check;
  GtkWidget *only;

  g_assert_nonnull (panel);
  sps_test_show_dock_page (panel);

  g_assert_true (layout_has_thread (window, encoder));
  label = g_strdup_printf ("%s (4107)",
                           sps_trace_get_string (trace, sps_trace_get_threads (trace)->name[encoder]));
  check = filter_check (panel, label);
  g_assert_true (GTK_IS_CHECK_BUTTON (check));
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (check)));

  gtk_check_button_set_active (GTK_CHECK_BUTTON (check), FALSE);
  g_assert_true (sps_session_get_thread_hidden (session, encoder));
  g_assert_false (layout_has_thread (window, encoder));
  g_assert_nonnull (sps_test_find_label (panel, "1 item hidden"));
  sps_test_spin (50);
  maybe_save (window, "filters.png");

  /* "Only" on the "gpu" category: slices of other categories go. */
  only = gtk_widget_get_next_sibling (sps_test_find_label (panel, "gpu"));
  g_assert_true (GTK_IS_BUTTON (only));
  g_signal_emit_by_name (only, "clicked");
  g_assert_false (sps_session_get_category_hidden (session, sps_string_pool_lookup (sps_trace_get_strings (trace), "gpu", -1)));
  g_assert_true (sps_session_get_category_hidden (session, sps_string_pool_lookup (sps_trace_get_strings (trace), "io", -1)));

  /* The session changed elsewhere: the check box follows. */
  sps_session_set_thread_hidden (session, encoder, FALSE);
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (check)));
  g_assert_true (layout_has_thread (window, encoder));

  g_signal_emit_by_name (sps_test_find_named (panel, "show-all"), "clicked");
  g_assert_false (sps_session_has_filters (session));
  g_assert_nonnull (sps_test_find_label (panel, "Everything is shown"));

  /* The thread's Pin (after Only) moves its rows to the top of the
   * timeline, above the global instants; again, back to their place */
  {
    GtkWidget *pin = gtk_widget_get_next_sibling (gtk_widget_get_next_sibling (sps_test_find_label (panel, label)));
    GtkWidget *timeline = sps_test_find_descendant (GTK_WIDGET (window), SPS_TYPE_TIMELINE);
    SpsTimelineLayout *layout = _sps_timeline_get_layout (SPS_TIMELINE (timeline));

    g_assert_true (GTK_IS_TOGGLE_BUTTON (pin));
    g_assert_cmpstr (gtk_widget_get_name (pin), ==, "filter-pin");
    g_assert_true (gtk_widget_get_visible (pin));
    g_assert_cmpuint (_sps_timeline_layout_get_row (layout, 0)->thread, !=, encoder);
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (pin), TRUE);
    g_assert_true (sps_session_get_thread_pinned (session, encoder));
    g_assert_cmpuint (_sps_timeline_layout_get_row (layout, 0)->thread, ==, encoder);
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (pin), FALSE);
    g_assert_false (sps_session_get_thread_pinned (session, encoder));
    g_assert_cmpuint (_sps_timeline_layout_get_row (layout, 0)->thread, !=, encoder);
    /* A category has no pin */
    g_assert_false (gtk_widget_get_visible (gtk_widget_get_next_sibling (gtk_widget_get_next_sibling (
                      sps_test_find_label (panel, "gpu")))));
  }

  sps_test_close_window (window);
}

static SpsTime
selected_ts (SpsSession *session)
{
  guint slice = sps_session_get_selected_slice (session);

  g_assert_cmpuint (slice, !=, SPS_NO_INDEX);
  return sps_trace_get_slices (sps_session_get_trace (session))->ts[slice];
}

/* Selecting the first Huffman::encode lists its 8 instances (5.2 ms each,
 * every 9.8 ms from 1154 ms, read from the JSON); next/previous walk
 * them in time order and wrap; a sampled span's name shows its estimate
 * apart. */
static void
test_instance_browser (void)
{
  SpsWindow *window = open_demo ();
  SpsSession *session = sps_window_get_session (window);
  SpsTrace *trace = sps_session_get_trace (session);
  GtkWidget *browser = sps_test_find_descendant (GTK_WIDGET (window), SPS_TYPE_INSTANCE_BROWSER);
  SpsResultTable *table;
  g_autofree char *start = NULL;
  g_autofree char *duration = NULL;

  g_assert_nonnull (browser);
  sps_test_show_dock_page (browser);
  g_assert_nonnull (sps_test_find_label (browser, "No slice selected"));

  sps_session_set_selected_slice (session, slice_named_at (trace, "Huffman::encode", 1154000000));
  g_assert_cmpuint (sps_instance_browser_get_n_instances (SPS_INSTANCE_BROWSER (browser)), ==, 8);
  g_assert_nonnull (sps_test_find_label (browser, "Huffman::encode"));
  g_assert_nonnull (sps_test_find_label (browser, "8 measured instances · min 5.2 ms · max 5.2 ms · avg 5.2 ms"));
  g_assert_nonnull (sps_test_find_label (browser, "1 of 8"));
  g_assert_false (gtk_widget_get_visible (sps_test_find_named (browser, "instance-estimates")));

  table = SPS_RESULT_TABLE (sps_test_find_named (browser, "instance-table"));
  sps_test_spin (50);
  g_assert_cmpuint (sps_result_table_get_n_rows (table), ==, 8);
  /* Times from the start of the trace (1000 ms): 154 ms, 5.2 ms long. */
  start = sps_result_table_dup_cell_text (table, 0, 0);
  duration = sps_result_table_dup_cell_text (table, 0, 1);
  g_assert_cmpstr (start, ==, "154");
  g_assert_cmpstr (duration, ==, "5.2");
  /* The current instance's row is highlighted: the first, at 154 ms. */
  g_assert_cmpuint (sps_result_table_get_selected_row (table), ==, 0);
  maybe_save (window, "instances.png");

  g_signal_emit_by_name (sps_test_find_named (browser, "instance-next"), "clicked");
  g_assert_cmpint (selected_ts (session), ==, G_GINT64_CONSTANT (1163800000));
  g_assert_nonnull (sps_test_find_label (browser, "2 of 8"));
  g_assert_cmpuint (sps_result_table_get_selected_row (table), ==, 1);
  /* The list stays: same name. */
  g_assert_cmpuint (sps_result_table_get_n_rows (table), ==, 8);

  g_signal_emit_by_name (sps_test_find_named (browser, "instance-previous"), "clicked");
  g_assert_cmpint (selected_ts (session), ==, G_GINT64_CONSTANT (1154000000));
  /* Before the first: the last, at 1222.6 ms. */
  g_assert_true (sps_instance_browser_step (SPS_INSTANCE_BROWSER (browser), -1));
  g_assert_cmpint (selected_ts (session), ==, G_GINT64_CONSTANT (1222600000));
  g_assert_nonnull (sps_test_find_label (browser, "8 of 8"));
  g_assert_cmpuint (sps_result_table_get_selected_row (table), ==, 7);
  /* Sorted by start, latest first, the same row is highlighted, now at
   * the top; highlighting it did not select anything else. */
  sps_result_table_sort (table, 0, GTK_SORT_DESCENDING);
  sps_test_spin (50);
  g_assert_cmpuint (sps_result_table_get_row_at (table, 0), ==, 7);
  g_assert_true (sps_instance_browser_step (SPS_INSTANCE_BROWSER (browser), -1));
  g_assert_cmpuint (sps_result_table_get_selected_row (table), ==, 6);
  g_assert_cmpint (selected_ts (session), !=, G_GINT64_CONSTANT (1222600000));
  g_assert_true (sps_instance_browser_step (SPS_INSTANCE_BROWSER (browser), 1));
  g_assert_true (sps_instance_browser_step (SPS_INSTANCE_BROWSER (browser), 1));
  g_assert_cmpint (selected_ts (session), ==, G_GINT64_CONSTANT (1154000000));

  /* A sampled span: no measured statistic, an estimate apart. */
  sps_session_set_selected_slice (session, slice_named_at (trace, "lumen::encoder::run", 1150000000));
  g_assert_cmpuint (sps_instance_browser_get_n_instances (SPS_INSTANCE_BROWSER (browser)), ==, 1);
  g_assert_nonnull (sps_test_find_label (browser, "No measured instance"));
  g_assert_true (gtk_widget_get_visible (sps_test_find_named (browser, "instance-estimates")));
  g_assert_nonnull (sps_test_find_label (browser, "1 sampled span · avg 78 ms (estimate)"));

  /* Filters apply: hiding the encoder thread hides every instance. */
  sps_session_set_selected_slice (session, slice_named_at (trace, "Huffman::encode", 1154000000));
  sps_session_set_thread_hidden (session, thread_of_tid (trace, 4107), TRUE);
  g_assert_cmpuint (sps_instance_browser_get_n_instances (SPS_INSTANCE_BROWSER (browser)), ==, 0);
  g_assert_nonnull (sps_test_find_label (browser, "No measured instance"));
  sps_session_show_all (session);
  g_assert_cmpuint (sps_instance_browser_get_n_instances (SPS_INSTANCE_BROWSER (browser)), ==, 8);

  sps_test_close_window (window);
}

/* A .nettrace without CPU samples: its events are found by name; the
 * name's row counts them, and activating it goes to the first one.
 * RememberCalendar has one GC/Start, at 0.7291 ms. */
static void
test_search_events (void)
{
  g_autofree char *path = sps_test_shared_fixture_path ("nettrace", "RememberCalendar__trace.nettrace");
  SpsWindow *window;
  SpsSession *session;
  GtkWidget *panel;
  GtkWidget *entry;
  SpsResultTable *table;
  int events_column;
  g_autofree char *name = NULL;
  g_autofree char *count = NULL;

  if (path == NULL)
    return;
  window = sps_test_open_file (app, path, 1200, 800);
  sps_test_wait_for_load (window);
  g_assert_cmpint (sps_window_get_state (window), ==, SPS_WINDOW_STATE_LOADED);
  /* Past the stack's crossfade from the loading page. */
  sps_test_spin (400);
  session = sps_window_get_session (window);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.search", NULL));
  panel = sps_test_find_descendant (GTK_WIDGET (window), SPS_TYPE_SEARCH_PANEL);
  entry = sps_test_find_named (panel, "search-entry");

  gtk_editable_set_text (GTK_EDITABLE (entry), "GC/Start");
  g_signal_emit_by_name (entry, "activate");
  sps_test_wait_until (search_done, panel);
  sps_test_spin (50);

  g_assert_cmpuint (sps_search_result_get_n_event_matches (sps_search_panel_get_result (SPS_SEARCH_PANEL (panel))),
                    ==, 1);
  g_assert_nonnull (sps_test_find_label (panel, "1 event, 1 name"));
  table = SPS_RESULT_TABLE (sps_test_find_named (panel, "search-results"));
  g_assert_cmpuint (sps_result_table_get_n_rows (table), ==, 1);
  events_column = sps_result_table_find_column (table, "Events");
  g_assert_cmpint (events_column, ==, 5);
  name = sps_result_table_dup_cell_text (table, 0, 0);
  count = sps_result_table_dup_cell_text (table, 0, events_column);
  g_assert_cmpstr (name, ==, "Microsoft-Windows-DotNETRuntime/GC/Start");
  g_assert_cmpstr (count, ==, "1");

  /* Zoomed in elsewhere, the row brings the event into view */
  sps_session_set_visible (session, 5000000000, 5001000000);
  g_signal_emit_by_name (table, "row-activated", 0);
  g_assert_cmpint (sps_session_get_visible_start (session), <=, 729100);
  g_assert_cmpint (sps_session_get_visible_end (session), >, 729100);

  maybe_save (window, "search-events.png");
  sps_test_close_window (window);
}

static gboolean
loaded (gpointer data)
{
  return sps_window_get_state (data) != SPS_WINDOW_STATE_LOADING;
}

/* The page of the bottom dock whose tab says @title, if any */
static GtkWidget *
bottom_page (SpsWindow  *window,
             const char *title)
{
  GtkNotebook *notebook = window->bottom_notebook;

  for (int i = 0; i < gtk_notebook_get_n_pages (notebook); i++)
    {
      GtkWidget *page = gtk_notebook_get_nth_page (notebook, i);

      if (sps_test_find_label (gtk_notebook_get_tab_label (notebook, page), title) != NULL)
        return page;
    }
  return NULL;
}

/* Panels behind tabs are made after the timeline's first complete frame,
 * one a main loop turn, or at once when their tab is chosen first. */
static void
test_lazy_panels (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "samples", "demo.trace.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  SpsWindow *window = sps_test_open_file (app, path, 1200, 800);
  GtkWidget *instances;
  GtkWidget *filters;

  /* Loaded: the current pages' panels are made, the others not yet */
  sps_test_wait_until (loaded, window);
  g_assert_cmpint (sps_window_get_state (window), ==, SPS_WINDOW_STATE_LOADED);
  g_assert_true (sps_window_get_panels_pending (window));
  g_assert_nonnull (sps_test_find_type_name (GTK_WIDGET (window), "SpsDetailPanel"));
  g_assert_null (sps_test_find_type_name (GTK_WIDGET (window), "SpsFilterPanel"));
  g_assert_null (sps_test_find_type_name (GTK_WIDGET (window), "SpsInstanceBrowser"));
  g_assert_null (sps_test_find_type_name (GTK_WIDGET (window), "SpsSqlPanel"));

  /* A tab chosen first shows its panel at once */
  instances = bottom_page (window, "Instances");
  g_assert_false (sps_dock_page_get_filled (SPS_DOCK_PAGE (instances)));
  gtk_notebook_set_current_page (window->bottom_notebook,
                                 gtk_notebook_page_num (window->bottom_notebook, instances));
  g_assert_true (sps_dock_page_get_filled (SPS_DOCK_PAGE (instances)));
  g_assert_nonnull (sps_test_find_type_name (instances, "SpsInstanceBrowser"));
  g_assert_null (sps_test_find_type_name (GTK_WIDGET (window), "SpsFilterPanel"));
  g_assert_true (sps_window_get_panels_pending (window));

  /* The rest come once the timeline has drawn */
  sps_test_wait_for_load (window);
  g_assert_false (sps_window_get_panels_pending (window));
  filters = bottom_page (window, "Filters");
  g_assert_true (sps_dock_page_get_filled (SPS_DOCK_PAGE (filters)));
  g_assert_nonnull (sps_test_find_type_name (filters, "SpsFilterPanel"));
  if (bottom_page (window, "SQL") != NULL)
    g_assert_nonnull (sps_test_find_type_name (bottom_page (window, "SQL"), "SpsSqlPanel"));
  sps_test_close_window (window);

  /* A window closed, or given another trace, before its panels are made
   * leaves nothing behind that fires later (G_DEBUG=fatal-criticals) */
  window = sps_test_open_file (app, path, 1200, 800);
  sps_test_wait_until (loaded, window);
  g_assert_true (sps_window_get_panels_pending (window));
  sps_window_load (window, file);
  sps_test_wait_until (loaded, window);
  g_assert_true (sps_window_get_panels_pending (window));
  sps_test_close_window (window);
  sps_test_spin (2500);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  app = sps_test_register_app ();

  g_test_add_func ("/ui/panels/search", test_search_panel);
  g_test_add_func ("/ui/panels/lazy", test_lazy_panels);
  g_test_add_func ("/ui/panels/search/events", test_search_events);
  g_test_add_func ("/ui/panels/filters", test_filter_panel);
  g_test_add_func ("/ui/panels/filters/category-pixels", test_filter_category_pixels);
  g_test_add_func ("/ui/panels/instances", test_instance_browser);

  return g_test_run ();
}
