/* test-ui-sql-window.c: the SQL and statistics plugins in a real trace
 * window, loaded through the plugin engine: run a query from the SQL tab,
 * sort, export, and read the statistics tab of the demo trace
 *
 * With SPS_TEST_SCREENSHOT_DIR set, saves sql-window.png and
 * statistics-window.png there.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-ui-sql-window"

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>
#include <spanscope-gtk.h>

#include "sps-application.h"
#include "sps-window.h"

#include "sps-test-shell.h"
#include "sps-test-ui.h"

static SpsApplication *app;

static gboolean
has_rows (gpointer data)
{
  return sps_result_table_get_n_rows (data) > 0;
}

/* Shows the notebook page holding a panel of @type_name and returns it. */
static GtkWidget *
show_panel (SpsWindow  *window,
            const char *type_name)
{
  GtkWidget *panel = sps_test_find_type_name (GTK_WIDGET (window), type_name);

  g_assert_nonnull (panel);
  sps_test_show_dock_page (panel);
  return panel;
}

static SpsWindow *
open_demo (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "samples", "demo.trace.json", NULL);

  return sps_test_open_loaded (app, path, 1280, 800);
}

#define QUERY \
  "SELECT name, count(*) AS n FROM slices\n" \
  "WHERE name LIKE 'Shader::%' AND kind = 'measured'\n" \
  "GROUP BY name ORDER BY name"

/* The X events named Shader::* in data/samples/demo.trace.json, counted
 * with a JSON reader: 8 Shader::sharpen, 8 Shader::tone_map. */
static void
test_sql_tab (void)
{
  static const char expected[] =
    "name\tn\r\n"
    "Shader::sharpen\t8\r\n"
    "Shader::tone_map\t8\r\n";
  SpsWindow *window = open_demo ();
  g_autoptr(GBytes) bytes = NULL;
  GtkWidget *panel;
  GtkWidget *editor;
  SpsResultTable *table;

  panel = show_panel (window, "SpsSqlPanel");
  editor = sps_test_find_type_name (panel, "GtkSourceView");
  g_assert_nonnull (editor);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (editor)), QUERY, -1);
  table = SPS_RESULT_TABLE (sps_test_find_type_name (panel, "SpsResultTable"));
  g_assert_nonnull (table);

  /* A real Ctrl+Enter (XTEST) in the editor runs the query rather than
   * breaking the line. Without a pointer in the window (no window
   * manager here) X would not give it the keyboard. */
  gtk_widget_grab_focus (editor);
  sps_test_press_keys (GTK_WIDGET (window), "ctrl+Return");
  sps_test_wait_until (has_rows, table);
  {
    g_autofree char *text = NULL;
    GtkTextIter start;
    GtkTextIter end;

    gtk_text_buffer_get_bounds (gtk_text_view_get_buffer (GTK_TEXT_VIEW (editor)), &start, &end);
    text = gtk_text_iter_get_text (&start, &end);
    g_assert_cmpstr (text, ==, QUERY);
  }
  g_assert_cmpuint (sps_result_table_get_n_rows (table), ==, 2);
  {
    g_autofree char *name = sps_result_table_dup_cell_text (table, 1, 0);
    g_autofree char *n = sps_result_table_dup_cell_text (table, 1, 1);

    g_assert_cmpstr (name, ==, "Shader::tone_map");
    g_assert_cmpstr (n, ==, "8");
  }
  sps_test_maybe_screenshot (GTK_WIDGET (window), "sql-window");

  /* Name descending puts tone_map first. */
  sps_result_table_sort (table, 0, GTK_SORT_DESCENDING);
  g_assert_cmpuint (sps_result_table_get_row_at (table, 0), ==, 1);
  sps_result_table_sort (table, 0, GTK_SORT_ASCENDING);
  bytes = sps_result_table_export_bytes (table, SPS_RESULT_FORMAT_TSV);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), expected, sizeof expected - 1);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Dct::forward in the demo: 8 X events of 3800 µs each, so a total of
 * 30.4 ms and an average, minimum and maximum of 3.8 ms. */
static void
test_statistics_tab (void)
{
  SpsWindow *window = open_demo ();
  GtkWidget *panel = show_panel (window, "SpsStatsPanel");
  SpsResultTable *table = SPS_RESULT_TABLE (sps_test_find_type_name (panel, "SpsResultTable"));
  gboolean found = FALSE;

  g_assert_nonnull (table);
  sps_test_wait_until (has_rows, table);
  sps_test_maybe_screenshot (GTK_WIDGET (window), "statistics-window");

  g_assert_cmpstr (sps_result_table_get_column_name (table, 0), ==, "Name");
  for (guint row = 0; row < sps_result_table_get_n_rows (table); row++)
    {
      g_autofree char *name = sps_result_table_dup_cell_text (table, row, 0);
      g_autofree char *kind = sps_result_table_dup_cell_text (table, row, 1);
      g_autofree char *count = NULL;
      g_autofree char *total = NULL;
      g_autofree char *average = NULL;
      g_autofree char *min = NULL;
      g_autofree char *max = NULL;

      if (g_strcmp0 (name, "Dct::forward") != 0 || g_strcmp0 (kind, "Measured") != 0)
        continue;
      found = TRUE;
      count = sps_result_table_dup_cell_text (table, row, 2);
      total = sps_result_table_dup_cell_text (table, row, 3);
      average = sps_result_table_dup_cell_text (table, row, 5);
      min = sps_result_table_dup_cell_text (table, row, 6);
      max = sps_result_table_dup_cell_text (table, row, 7);
      g_assert_cmpstr (count, ==, "8");
      g_assert_cmpstr (total, ==, "30400000");
      g_assert_cmpstr (average, ==, "3800000");
      g_assert_cmpstr (min, ==, "3800000");
      g_assert_cmpstr (max, ==, "3800000");
    }
  g_assert_true (found);

  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
entry_has_text (gpointer data)
{
  return *gtk_editable_get_text (data) != '\0';
}

/* The editor's text is longer than QUERY */
static gboolean
buffer_grew (gpointer data)
{
  return gtk_text_buffer_get_char_count (data) > (int) strlen (QUERY);
}

static gboolean
spans_differ (gpointer data)
{
  gint64 *before = data;
  SpsSession *session = (SpsSession *) (gpointer) (gsize) before[1];

  return sps_session_get_visible_end (session) - sps_session_get_visible_start (session) != before[0];
}

/* The timeline's keys act on it from any panel, unless a text entry has
 * the focus: W in the SQL results zooms in (the window's span divided by
 * 1.5, rounded, around the centre: the pointer is not over the
 * timeline), W in the search entry is typed. The timeline shows a focus
 * ring while it has the focus. */
static void
test_keys_from_panels (void)
{
  SpsWindow *window = open_demo ();
  SpsSession *session = sps_window_get_session (window);
  GtkWidget *timeline = GTK_WIDGET (sps_window_get_timeline (window));
  GtkWidget *panel;
  GtkWidget *editor;
  GtkWidget *search;
  GtkWidget *rows;
  SpsResultTable *table;
  g_autoptr(GdkTexture) unfocused = NULL;
  g_autoptr(GdkTexture) focused = NULL;
  gint64 wait[2];
  gint64 span;

  panel = show_panel (window, "SpsSqlPanel");
  editor = sps_test_find_type_name (panel, "GtkSourceView");
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (editor)), QUERY, -1);
  table = SPS_RESULT_TABLE (sps_test_find_type_name (panel, "SpsResultTable"));
  gtk_widget_grab_focus (editor);
  sps_test_press_keys (GTK_WIDGET (window), "ctrl+Return");
  sps_test_wait_until (has_rows, table);

  /* The SQL editor (a text view) keeps its letters: the timeline's
   * actions are off while it has the focus, and W is typed (QUERY has no
   * lower-case w) while the window stays */
  gtk_widget_grab_focus (editor);
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "zoom-in"));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "clear"));
  span = sps_session_get_visible_end (session) - sps_session_get_visible_start (session);
  sps_test_press_keys (GTK_WIDGET (window), "w");
  sps_test_wait_until (buffer_grew, gtk_text_view_get_buffer (GTK_TEXT_VIEW (editor)));
  {
    g_autofree char *text = NULL;
    GtkTextIter start, end;

    gtk_text_buffer_get_bounds (gtk_text_view_get_buffer (GTK_TEXT_VIEW (editor)), &start, &end);
    text = gtk_text_iter_get_text (&start, &end);
    g_assert_cmpuint (strlen (text), ==, strlen (QUERY) + 1);
    g_assert_nonnull (strchr (text, 'w'));
  }
  g_assert_cmpint (sps_session_get_visible_end (session) - sps_session_get_visible_start (session), ==, span);

  /* The results table has the focus: W zooms the timeline */
  span = sps_session_get_visible_end (session) - sps_session_get_visible_start (session);
  rows = sps_test_find_descendant (GTK_WIDGET (table), GTK_TYPE_COLUMN_VIEW);
  g_assert_nonnull (rows);
  g_assert_true (gtk_widget_grab_focus (rows));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  unfocused = sps_test_render (timeline, gtk_widget_get_width (timeline), gtk_widget_get_height (timeline));
  sps_test_press_keys (GTK_WIDGET (window), "w");
  wait[0] = span;
  wait[1] = (gint64) (gsize) session;
  sps_test_wait_until (spans_differ, wait);
  g_assert_cmpint (sps_session_get_visible_end (session) - sps_session_get_visible_start (session), ==,
                   (gint64) llround ((double) span / 1.5));
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (window)), GTK_WIDGET (table)));

  /* The search entry has the focus: W is typed */
  /* The Search panel's entry (the flame graph has search entries too) */
  search = sps_test_find_type_name (show_panel (window, "SpsSearchPanel"), "GtkSearchEntry");
  g_assert_nonnull (search);
  g_assert_true (gtk_widget_grab_focus (search));
  span = sps_session_get_visible_end (session) - sps_session_get_visible_start (session);
  sps_test_press_keys (GTK_WIDGET (window), "w");
  sps_test_wait_until (entry_has_text, search);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (search)), ==, "w");
  g_assert_cmpint (sps_session_get_visible_end (session) - sps_session_get_visible_start (session), ==, span);

  /* The focus ring: the timeline's left edge (in its gutter, whose
   * background is flat) changes when it takes the focus */
  gtk_widget_grab_focus (timeline);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  focused = sps_test_render (timeline, gtk_widget_get_width (timeline), gtk_widget_get_height (timeline));
  g_assert_cmphex (sps_test_pixel_at (focused, 1, 60), !=, sps_test_pixel_at (unfocused, 1, 60));
  /* … and only its edge: the middle of the gutter is the same */
  g_assert_cmphex (sps_test_pixel_at (focused, 8, 60), ==, sps_test_pixel_at (unfocused, 8, 60));
  sps_test_maybe_screenshot (GTK_WIDGET (window), "timeline-focus");

  sps_test_close_window (window);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  app = sps_test_register_app ();

  g_test_add_func ("/sql/window/sql-tab", test_sql_tab);
  g_test_add_func ("/sql/window/statistics-tab", test_statistics_tab);
  g_test_add_func ("/sql/window/keys-from-panels", test_keys_from_panels);

  return g_test_run ();
}
