/* test-ui-sql.c: the SQL and statistics panels under Xvfb: running a
 * query, rows streaming in on a big trace, errors, cancel, sorting,
 * export, selecting a slice from a row,
 * saved tabs, the schema inspector, the query builder and the statistics
 * of the whole trace and of a range
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-ui-sql"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <gtksourceview/gtksource.h>
#include <spanscope-gtk.h>

#include "sps-sql-panel.h"
#include "sps-stats-panel.h"

#include "sps-test-ui.h"

#include "sps-test-util.h"

/* The trace (ns), process 1 "App":
 *
 *   thread 10 "Main"
 *     frame  [0, 1000)
 *       layout [100, 400)
 *       paint  [500, 900)
 *         layout [600, 700)
 *     frame  [2000, 2500)
 *     tick   [100, 300)   sampled span
 *   thread 11 "Worker"
 *     job    [0, 3000)
 *       layout [1000, 1200)
 */
typedef struct
{
  SpsTrace   *trace;
  SpsSession *session;
  GtkWidget  *window;
  GtkWidget  *panel;
} Fixture;

static void
add_x (SpsTraceBuilder *builder,
       guint32          thread,
       SpsTime          ts,
       SpsTime          dur,
       const char      *name,
       SpsSliceFlags    flags)
{
  sps_test_add_complete (builder, thread, ts, dur, name, "test", NULL, flags);
}

static SpsTrace *
build_trace (void)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  guint32 process = sps_trace_builder_ensure_process (builder, 1);
  guint32 main_thread = sps_trace_builder_ensure_thread (builder, process, 10);
  guint32 worker = sps_trace_builder_ensure_thread (builder, process, 11);
  SpsTrace *trace;

  sps_trace_builder_set_process_name (builder, process, sps_trace_builder_intern (builder, "App", -1));
  sps_trace_builder_set_thread_name (builder, main_thread, sps_trace_builder_intern (builder, "Main", -1));
  sps_trace_builder_set_thread_name (builder, worker, sps_trace_builder_intern (builder, "Worker", -1));

  add_x (builder, main_thread, 0, 1000, "frame", 0);
  add_x (builder, main_thread, 100, 300, "layout", 0);
  add_x (builder, main_thread, 500, 400, "paint", 0);
  add_x (builder, main_thread, 600, 100, "layout", 0);
  add_x (builder, main_thread, 2000, 500, "frame", 0);
  add_x (builder, main_thread, 100, 200, "tick", SPS_SLICE_SAMPLED);
  add_x (builder, worker, 0, 3000, "job", 0);
  add_x (builder, worker, 1000, 200, "layout", 0);

  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);
  return trace;
}

static gboolean
tab_idle (gpointer data)
{
  return !sps_sql_tab_get_running (data);
}

static gboolean
stats_idle (gpointer data)
{
  return !sps_stats_panel_get_busy (data);
}

static gboolean
slice_selected (gpointer data)
{
  return sps_session_get_selected_slice (data) != SPS_NO_INDEX;
}

static void
assert_selected (Fixture    *fixture,
                 const char *name,
                 SpsTime     ts,
                 SpsTime     dur)
{
  const SpsSliceTable *slices = sps_trace_get_slices (fixture->trace);
  guint slice = sps_session_get_selected_slice (fixture->session);

  g_assert_cmpuint (slice, <, slices->n_rows);
  g_assert_cmpstr (sps_trace_get_string (fixture->trace, slices->name[slice]), ==, name);
  g_assert_cmpint (slices->ts[slice], ==, ts);
  g_assert_cmpint (slices->dur[slice], ==, dur);
}

static gboolean
stats_busy (gpointer data)
{
  return sps_stats_panel_get_busy (data);
}

static void
present (Fixture   *fixture,
         GtkWidget *panel)
{
  fixture->panel = panel;
  gtk_window_set_child (GTK_WINDOW (fixture->window), panel);
  gtk_window_present (GTK_WINDOW (fixture->window));
  gtk_test_widget_wait_for_draw (fixture->window);
}

static void
setup_with (Fixture  *fixture,
            SpsTrace *trace)
{
  g_autoptr(GSettings) settings = g_settings_new ("io.github.spanscope.Spanscope.sql");

  /* Every test starts from the defaults: one example tab, per name. */
  g_settings_reset (settings, "query-tabs");
  g_settings_reset (settings, "active-query-tab");
  g_settings_reset (settings, "statistics-by-thread");

  fixture->trace = trace;
  fixture->session = sps_session_new (fixture->trace);
  fixture->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 1100, 360);
}

static void
setup (Fixture       *fixture,
       gconstpointer  data)
{
  setup_with (fixture, build_trace ());
}

static void
teardown (Fixture       *fixture,
          gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_clear_object (&fixture->session);
  g_clear_object (&fixture->trace);
}

/* With SPS_TEST_SCREENSHOT_DIR set, saves the window as NAME.png there so
 * the panels can be looked at. */
static void
maybe_screenshot (Fixture    *fixture,
                  const char *name)
{
  sps_test_maybe_screenshot (fixture->window, name);
}

static SpsSqlTab *
run (Fixture    *fixture,
     const char *sql)
{
  SpsSqlTab *tab = sps_sql_panel_get_current_tab (SPS_SQL_PANEL (fixture->panel));

  sps_sql_tab_set_text (tab, sql);
  g_assert_true (gtk_widget_activate_action (fixture->panel, "sql.run", NULL));
  g_assert_true (sps_sql_tab_get_running (tab));
  sps_test_wait_until (tab_idle, tab);
  return tab;
}

static char *
cell (SpsResultTable *table,
      guint           row,
      guint           column)
{
  return sps_result_table_dup_cell_text (table, row, column);
}

/* A row of the table in view order, cells joined by "|", NULL as "∅". */
static char *
view_row (SpsResultTable *table,
          guint           position)
{
  g_autoptr(GString) s = g_string_new (NULL);
  guint row = sps_result_table_get_row_at (table, position);

  g_assert_cmpuint (row, !=, G_MAXUINT);
  for (guint c = 0; c < sps_result_table_get_n_columns (table); c++)
    {
      g_autofree char *text = cell (table, row, c);

      g_string_append_printf (s, "%s%s", c > 0 ? "|" : "", text != NULL ? text : "∅");
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

#define assert_view_row(table, position, expected) \
  G_STMT_START { \
    g_autofree char *_row = view_row ((table), (position)); \
    g_assert_cmpstr (_row, ==, (expected)); \
  } G_STMT_END

static void
test_query (Fixture       *fixture,
            gconstpointer  data)
{
  static const char expected_csv[] =
    "name,n,total\r\n"
    "layout,3,600\r\n"
    "frame,2,1500\r\n"
    "job,1,3000\r\n"
    "paint,1,400\r\n"
    "tick,1,\r\n";
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GFile) file = NULL;
  SpsResultTable *table;
  SpsSqlTab *tab;
  gsize length;

  present (fixture, sps_sql_panel_new (fixture->session));

  /* Counted by hand from the trace above: layout ×3 (300 + 100 + 200),
   * frame ×2 (1000 + 500), job, paint, tick once (a sampled span: its
   * dur is NULL, so is its sum). */
  tab = run (fixture, "SELECT name, count(*) AS n, sum(dur) AS total FROM slices GROUP BY name ORDER BY name");
  g_assert_null (sps_sql_tab_get_error (tab));
  table = sps_sql_tab_get_table (tab);
  g_assert_cmpuint (sps_result_table_get_n_rows (table), ==, 5);
  g_assert_cmpuint (sps_result_table_get_n_columns (table), ==, 3);
  g_assert_cmpint (sps_result_table_get_column_type (table, 1), ==, SPS_RESULT_COLUMN_INTEGER);
  assert_view_row (table, 0, "frame|2|1500");
  assert_view_row (table, 2, "layout|3|600");
  maybe_screenshot (fixture, "sql-panel");

  /* Sorting n descending: layout (3), frame (2), then the ties job,
   * paint, tick in the query's order. */
  sps_result_table_sort (table, 1, GTK_SORT_DESCENDING);
  assert_view_row (table, 0, "layout|3|600");
  assert_view_row (table, 1, "frame|2|1500");
  assert_view_row (table, 4, "tick|1|∅");

  dir = g_dir_make_tmp ("ui-sql-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "result.csv", NULL);
  file = g_file_new_for_path (path);
  g_assert_true (sps_result_table_export_to_file (table, file, SPS_RESULT_FORMAT_CSV, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &contents, &length, &error));
  g_assert_cmpmem (contents, length, expected_csv, sizeof expected_csv - 1);
  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

static void
test_error (Fixture       *fixture,
            gconstpointer  data)
{
  SpsSqlTab *tab;

  present (fixture, sps_sql_panel_new (fixture->session));

  tab = run (fixture, "SELECT x FROM nowhere");
  g_assert_nonnull (sps_sql_tab_get_error (tab));
  /* SQLite's own words reach the panel. */
  g_assert_nonnull (strstr (sps_sql_tab_get_error (tab), "no such table: nowhere"));

  /* The panel keeps at most 100000 rows of a result. */
  tab = run (fixture, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100001)"
                      " SELECT x FROM c");
  g_assert_null (sps_sql_tab_get_error (tab));
  g_assert_cmpuint (sps_result_table_get_n_rows (sps_sql_tab_get_table (tab)), ==, 100000);

  /* Trace tables are read-only. */
  tab = run (fixture, "DELETE FROM slices");
  g_assert_nonnull (sps_sql_tab_get_error (tab));

  /* The next good query clears the error. */
  tab = run (fixture, "SELECT 1 AS one");
  g_assert_null (sps_sql_tab_get_error (tab));
  g_assert_cmpuint (sps_result_table_get_n_rows (sps_sql_tab_get_table (tab)), ==, 1);
}

static void
test_cancel (Fixture       *fixture,
             gconstpointer  data)
{
  SpsSqlTab *tab;

  present (fixture, sps_sql_panel_new (fixture->session));
  tab = sps_sql_panel_get_current_tab (SPS_SQL_PANEL (fixture->panel));

  /* Counts to 10^10: minutes of work unless cancelled. */
  sps_sql_tab_set_text (tab, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10000000000)"
                             " SELECT count(*) FROM c");
  g_assert_true (gtk_widget_activate_action (fixture->panel, "sql.run", NULL));
  g_assert_true (sps_sql_tab_get_running (tab));
  g_assert_true (gtk_widget_activate_action (fixture->panel, "sql.cancel", NULL));
  g_assert_false (sps_sql_tab_get_running (tab));
  g_assert_null (sps_sql_tab_get_error (tab));

  /* The engine is free again for the next query. */
  tab = run (fixture, "SELECT count(*) AS n FROM slices");
  {
    g_autofree char *n = cell (sps_sql_tab_get_table (tab), 0, 0);

    g_assert_cmpstr (n, ==, "8");
  }
}

/* A panel closed while its query runs cancels it; the engine stays usable
 * for the next panel of the session. */
static void
test_close_while_running (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autoptr(SpsSqlTab) old_tab = NULL;
  SpsSqlTab *tab;

  present (fixture, sps_sql_panel_new (fixture->session));
  tab = sps_sql_panel_get_current_tab (SPS_SQL_PANEL (fixture->panel));
  sps_sql_tab_set_text (tab, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10000000000)"
                             " SELECT count(*) FROM c");
  g_assert_true (gtk_widget_activate_action (fixture->panel, "sql.run", NULL));
  g_assert_true (sps_sql_tab_get_running (tab));
  old_tab = g_object_ref (tab);

  gtk_window_set_child (GTK_WINDOW (fixture->window), NULL);
  g_assert_false (sps_sql_tab_get_running (old_tab));
  g_clear_object (&old_tab);

  present (fixture, sps_sql_panel_new (fixture->session));
  tab = run (fixture, "SELECT count(*) AS n FROM slices");
  g_assert_null (sps_sql_tab_get_error (tab));
  {
    g_autofree char *n = cell (sps_sql_tab_get_table (tab), 0, 0);

    g_assert_cmpstr (n, ==, "8");
  }
}

static void
test_select_slice (Fixture       *fixture,
                   gconstpointer  data)
{
  const SpsSliceTable *slices = sps_trace_get_slices (fixture->trace);
  SpsResultTable *table;
  gint64 paint;
  gint64 worker_layout;
  SpsSqlTab *tab;

  present (fixture, sps_sql_panel_new (fixture->session));

  /* An id column of the slices table names the slice. */
  tab = run (fixture, "SELECT id, name, ts FROM slices WHERE name = 'paint'");
  table = sps_sql_tab_get_table (tab);
  g_assert_cmpuint (sps_result_table_get_n_rows (table), ==, 1);
  {
    g_autoptr(GVariant) id = sps_result_table_get_cell (table, 0, 0);

    paint = g_variant_get_int64 (id);
  }
  g_assert_cmpstr (sps_trace_get_string (fixture->trace, slices->name[paint]), ==, "paint");
  g_assert_cmpint (slices->ts[paint], ==, 500);

  sps_session_set_visible (fixture->session, 2000, 2500);
  g_signal_emit_by_name (table, "row-activated", 0);
  g_assert_cmpuint (sps_session_get_selected_slice (fixture->session), ==, (guint) paint);
  /* Brought into view: [500, 900) was outside [2000, 2500). */
  g_assert_cmpint (sps_session_get_visible_start (fixture->session), <=, 500);
  g_assert_cmpint (sps_session_get_visible_end (fixture->session), >=, 900);

  /* Without an id, ts and track_id find it: the worker's layout at 1000. */
  tab = run (fixture, "SELECT ts, track_id, name FROM slices WHERE name = 'layout' AND ts = 1000");
  table = sps_sql_tab_get_table (tab);
  g_assert_cmpuint (sps_result_table_get_n_rows (table), ==, 1);
  g_signal_emit_by_name (table, "row-activated", 0);
  worker_layout = sps_session_get_selected_slice (fixture->session);
  g_assert_cmpint (worker_layout, !=, paint);
  g_assert_cmpint (slices->ts[worker_layout], ==, 1000);
  g_assert_cmpstr (sps_trace_get_string (fixture->trace, slices->name[worker_layout]), ==, "layout");

  /* A row that names no slice leaves the selection alone. */
  tab = run (fixture, "SELECT 42 AS answer");
  g_signal_emit_by_name (sps_sql_tab_get_table (tab), "row-activated", 0);
  g_assert_cmpint (sps_session_get_selected_slice (fixture->session), ==, worker_layout);
}

static void
test_tabs_saved (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new ("io.github.spanscope.Spanscope.sql");
  g_autoptr(GVariant) saved = NULL;
  g_autofree char *text = NULL;
  SpsSqlPanel *panel;
  SpsSqlTab *tab;

  present (fixture, sps_sql_panel_new (fixture->session));
  panel = SPS_SQL_PANEL (fixture->panel);

  /* A first start shows one example tab. */
  g_assert_cmpuint (sps_sql_panel_get_n_tabs (panel), ==, 1);
  g_assert_cmpstr (sps_sql_tab_get_title (sps_sql_panel_get_tab (panel, 0)), ==, "Query 1");

  g_assert_true (gtk_widget_activate_action (fixture->panel, "sql.new-tab", NULL));
  g_assert_cmpuint (sps_sql_panel_get_n_tabs (panel), ==, 2);
  tab = sps_sql_panel_get_current_tab (panel);
  g_assert_true (tab == sps_sql_panel_get_tab (panel, 1));
  g_assert_cmpstr (sps_sql_tab_get_title (tab), ==, "Query 2");
  sps_sql_tab_set_text (tab, "SELECT 2");
  g_assert_true (gtk_widget_activate_action (fixture->panel, "sql.rename-tab", "s", "Two"));
  g_assert_cmpstr (sps_sql_tab_get_title (tab), ==, "Two");

  g_assert_true (gtk_widget_activate_action (fixture->panel, "sql.new-tab", NULL));
  g_assert_true (gtk_widget_activate_action (fixture->panel, "sql.close-tab", NULL));
  g_assert_cmpuint (sps_sql_panel_get_n_tabs (panel), ==, 2);
  sps_sql_panel_set_current_tab (panel, 1);

  sps_sql_panel_save (panel);
  saved = g_settings_get_value (settings, "query-tabs");
  text = g_variant_print (saved, FALSE);
  g_assert_cmpstr (text, ==,
                   "[('Query 1', 'SELECT name, count(*) AS count, sum(dur) AS total\\nFROM slices\\n"
                   "GROUP BY name\\nORDER BY total DESC'), ('Two', 'SELECT 2')]");
  g_assert_cmpint (g_settings_get_int (settings, "active-query-tab"), ==, 1);

  /* A new panel (the next start) restores both, on the second. */
  gtk_window_set_child (GTK_WINDOW (fixture->window), NULL);
  present (fixture, sps_sql_panel_new (fixture->session));
  panel = SPS_SQL_PANEL (fixture->panel);
  g_assert_cmpuint (sps_sql_panel_get_n_tabs (panel), ==, 2);
  tab = sps_sql_panel_get_current_tab (panel);
  g_assert_cmpstr (sps_sql_tab_get_title (tab), ==, "Two");
  g_clear_pointer (&text, g_free);
  text = sps_sql_tab_dup_text (tab);
  g_assert_cmpstr (text, ==, "SELECT 2");
}

static gboolean
schema_loaded (gpointer data)
{
  return sps_sql_schema_get_n_tables (data) > 0;
}

/* The editor's colours follow the app's light or dark theme, as the
 * source viewer's do (sps_source_scheme_follow()) */
static void
test_follows_theme (Fixture       *fixture,
                    gconstpointer  data)
{
  GtkSettings *settings;
  GtkSourceBuffer *buffer;
  const char *ids[2] = { NULL, NULL };

  present (fixture, sps_sql_panel_new (fixture->session));
  settings = gtk_widget_get_settings (fixture->panel);
  buffer = GTK_SOURCE_BUFFER (sps_sql_tab_get_buffer (sps_sql_panel_get_current_tab (SPS_SQL_PANEL (fixture->panel))));

  g_assert_cmpstr (gtk_source_style_scheme_get_id (gtk_source_buffer_get_style_scheme (buffer)), ==, "Adwaita");
  g_object_set (settings, "gtk-application-prefer-dark-theme", TRUE, NULL);
  ids[0] = gtk_source_style_scheme_get_id (gtk_source_buffer_get_style_scheme (buffer));
  g_object_set (settings, "gtk-application-prefer-dark-theme", FALSE, NULL);
  ids[1] = gtk_source_style_scheme_get_id (gtk_source_buffer_get_style_scheme (buffer));
  g_assert_cmpstr (ids[0], ==, "Adwaita-dark");
  g_assert_cmpstr (ids[1], ==, "Adwaita");
}

static void
test_schema_and_builder (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autofree char *sql = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) columns = NULL;
  SpsSqlSchema *schema;
  SpsSqlBuilder *builder;
  SpsResultTable *table;
  SpsSqlTab *tab;

  present (fixture, sps_sql_panel_new (fixture->session));
  schema = sps_sql_panel_get_schema (SPS_SQL_PANEL (fixture->panel));
  builder = sps_sql_panel_get_builder (SPS_SQL_PANEL (fixture->panel));
  sps_test_wait_until (schema_loaded, schema);

  /* Trace tables come first, slices among them, with declared types. */
  columns = sps_sql_schema_dup_columns (schema, "slices");
  g_assert_true (g_strv_contains ((const char * const *) columns, "dur"));
  g_assert_true (g_strv_contains ((const char * const *) columns, "self_time"));
  g_assert_cmpstr (sps_sql_schema_get_column_type (schema, "slices", "dur"), ==, "INTEGER");
  g_assert_cmpstr (sps_sql_schema_get_column_type (schema, "threads", "name"), ==, "TEXT");

  /* Activating a table in the inspector inserts its name at the cursor. */
  {
    GtkWidget *list = gtk_widget_get_first_child (gtk_widget_get_first_child (GTK_WIDGET (schema)));
    SpsSqlTab *current = sps_sql_panel_get_current_tab (SPS_SQL_PANEL (fixture->panel));
    GtkTextBuffer *buffer = sps_sql_tab_get_buffer (current);
    g_autofree char *inserted = NULL;
    GtkTextIter end;
    guint slices = G_MAXUINT;

    g_assert_true (GTK_IS_LIST_VIEW (list));
    for (guint i = 0; i < sps_sql_schema_get_n_tables (schema); i++)
      if (g_str_equal (sps_sql_schema_get_table (schema, i), "slices"))
        slices = i;
    g_assert_cmpuint (slices, !=, G_MAXUINT);

    sps_sql_tab_set_text (current, "SELECT * FROM ");
    gtk_text_buffer_get_end_iter (buffer, &end);
    gtk_text_buffer_place_cursor (buffer, &end);
    g_signal_emit_by_name (list, "activate", slices);
    inserted = sps_sql_tab_dup_text (current);
    g_assert_cmpstr (inserted, ==, "SELECT * FROM slices");
  }

  g_assert_true (sps_sql_builder_set_table (builder, "slices"));
  g_assert_false (sps_sql_builder_add_filter (builder, "no_such_column", SPS_SQL_OP_EQUAL, "1"));
  g_assert_true (sps_sql_builder_add_filter (builder, "dur", SPS_SQL_OP_GREATER_EQUAL, "200"));
  g_assert_true (sps_sql_builder_add_filter (builder, "kind", SPS_SQL_OP_EQUAL, "measured"));
  g_assert_true (sps_sql_builder_set_group_by (builder, "name"));
  g_assert_true (sps_sql_builder_add_aggregate (builder, SPS_SQL_AGGREGATE_SUM, "dur"));
  g_assert_true (sps_sql_builder_add_aggregate (builder, SPS_SQL_AGGREGATE_COUNT, NULL));
  sql = sps_sql_builder_dup_sql (builder);
  g_assert_cmpstr (sql, ==,
                   "SELECT name, sum(dur) AS sum_dur, count(*) AS count\n"
                   "FROM slices\n"
                   "WHERE dur >= 200\n"
                   "  AND kind = 'measured'\n"
                   "GROUP BY name\n"
                   "ORDER BY 2 DESC");

  /* "Write SQL" puts it in the editor, which then runs it: measured
   * slices of at least 200 ns are job 3000, frame 1000 + 500, paint 400,
   * layout 300 + 200 (tick is sampled, the 100 ns layout too short). */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (builder), "builder.write", NULL));
  tab = sps_sql_panel_get_current_tab (SPS_SQL_PANEL (fixture->panel));
  text = sps_sql_tab_dup_text (tab);
  g_assert_cmpstr (text, ==, sql);
  g_assert_true (gtk_widget_activate_action (fixture->panel, "sql.run", NULL));
  sps_test_wait_until (tab_idle, tab);
  table = sps_sql_tab_get_table (tab);
  g_assert_null (sps_sql_tab_get_error (tab));
  g_assert_cmpuint (sps_result_table_get_n_rows (table), ==, 4);
  /* The panel lists the tables again after each query: the choices stay. */
  sps_sql_builder_refresh (builder);
  {
    g_autofree char *again = sps_sql_builder_dup_sql (builder);

    g_assert_cmpstr (again, ==, sql);
  }
  gtk_stack_set_visible_child (GTK_STACK (gtk_widget_get_parent (GTK_WIDGET (builder))), GTK_WIDGET (builder));
  maybe_screenshot (fixture, "sql-builder");
  assert_view_row (table, 0, "job|3000|1");
  assert_view_row (table, 1, "frame|1500|2");
  assert_view_row (table, 2, "layout|500|2");
  assert_view_row (table, 3, "paint|400|1");
}

static void
test_statistics (Fixture       *fixture,
                 gconstpointer  data)
{
  SpsStatsPanel *panel;
  SpsResultTable *table;

  present (fixture, sps_stats_panel_new (fixture->session));
  panel = SPS_STATS_PANEL (fixture->panel);
  sps_test_wait_until (stats_idle, panel);
  g_assert_null (sps_stats_panel_get_error (panel));
  table = sps_stats_panel_get_table (panel);

  /* By hand, from the trace (self = dur minus the children's dur):
   *   job    3000, self 3000 - 200 = 2800
   *   frame  1000 + 500, self (1000 - 300 - 400) + 500 = 800
   *   layout 300 + 100 + 200, no children
   *   paint  400, self 400 - 100 = 300
   *   tick   sampled: count and totals only */
  g_assert_cmpuint (sps_result_table_get_n_rows (table), ==, 5);
  g_assert_cmpstr (sps_result_table_get_column_name (table, 0), ==, "Name");
  g_assert_cmpint (sps_result_table_get_column_type (table, 3), ==, SPS_RESULT_COLUMN_DURATION);
  assert_view_row (table, 0, "job|Measured|1|3000|2800|3000|3000|3000");
  assert_view_row (table, 1, "frame|Measured|2|1500|800|750|500|1000");
  assert_view_row (table, 2, "layout|Measured|3|600|600|200|100|300");
  assert_view_row (table, 3, "paint|Measured|1|400|300|400|400|400");
  assert_view_row (table, 4, "tick|Sampled|1|200|200|∅|∅|∅");
  maybe_screenshot (fixture, "statistics");

  /* A row selects its longest slice: frame [0, 1000) of the two frames. */
  g_signal_emit_by_name (table, "row-activated", sps_result_table_get_row_at (table, 1));
  sps_test_wait_until (slice_selected, fixture->session);
  assert_selected (fixture, "frame", 0, 1000);

  /* Sorted by average: NULL last. */
  sps_result_table_sort (table, 5, GTK_SORT_ASCENDING);
  assert_view_row (table, 0, "layout|Measured|3|600|600|200|100|300");
  assert_view_row (table, 4, "tick|Sampled|1|200|200|∅|∅|∅");

  /* Per thread, ties on total by name. */
  sps_stats_panel_set_by_thread (panel, TRUE);
  sps_stats_panel_refresh (panel);
  sps_test_wait_until (stats_idle, panel);
  g_assert_cmpuint (sps_result_table_get_n_rows (table), ==, 6);
  g_assert_cmpstr (sps_result_table_get_column_name (table, 0), ==, "Thread");
  assert_view_row (table, 0, "Worker 11|job|Measured|1|3000|2800|3000|3000|3000");
  assert_view_row (table, 1, "Main 10|frame|Measured|2|1500|800|750|500|1000");
  assert_view_row (table, 2, "Main 10|layout|Measured|2|400|400|200|100|300");
  assert_view_row (table, 3, "Main 10|paint|Measured|1|400|300|400|400|400");
  assert_view_row (table, 4, "Worker 11|layout|Measured|1|200|200|200|200|200");
  assert_view_row (table, 5, "Main 10|tick|Sampled|1|200|200|∅|∅|∅");
  maybe_screenshot (fixture, "statistics-by-thread");

  /* Per thread, the longest layout of Main is [100, 400), not the
   * worker's. */
  sps_session_set_selected_slice (fixture->session, SPS_NO_INDEX);
  g_signal_emit_by_name (table, "row-activated", sps_result_table_get_row_at (table, 2));
  sps_test_wait_until (slice_selected, fixture->session);
  assert_selected (fixture, "layout", 100, 300);

  /* The sampled row leads to the sampled span. */
  sps_session_set_selected_slice (fixture->session, SPS_NO_INDEX);
  g_signal_emit_by_name (table, "row-activated", sps_result_table_get_row_at (table, 5));
  sps_test_wait_until (slice_selected, fixture->session);
  assert_selected (fixture, "tick", 100, 200);
}

static void
test_statistics_range (Fixture       *fixture,
                       gconstpointer  data)
{
  SpsStatsPanel *panel;
  SpsResultTable *table;

  present (fixture, sps_stats_panel_new (fixture->session));
  panel = SPS_STATS_PANEL (fixture->panel);
  sps_test_wait_until (stats_idle, panel);
  table = sps_stats_panel_get_table (panel);

  /* [550, 1100) by hand: overlaps are frame 1000 - 550 = 450, paint
   * 900 - 550 = 350, layout 700 - 600 = 100 and 1100 - 1000 = 100, job
   * 1100 - 550 = 550; the first layout, the second frame and tick end
   * before or start after the range. Self: frame 450 - 350 (paint) = 100,
   * paint 350 - 100 = 250, job 550 - 100 = 450. */
  sps_session_set_range (fixture->session, 550, 1100);
  sps_stats_panel_refresh (panel);
  g_assert_true (sps_stats_panel_get_busy (panel));
  sps_test_wait_until (stats_idle, panel);
  g_assert_null (sps_stats_panel_get_error (panel));
  g_assert_cmpuint (sps_result_table_get_n_rows (table), ==, 4);
  assert_view_row (table, 0, "job|Measured|1|550|450|550|550|550");
  assert_view_row (table, 1, "frame|Measured|1|450|100|450|450|450");
  assert_view_row (table, 2, "paint|Measured|1|350|250|350|350|350");
  assert_view_row (table, 3, "layout|Measured|2|200|200|100|100|100");
  maybe_screenshot (fixture, "statistics-range");

  /* In the range, the longest layout overlapping it is the worker's
   * [1000, 1200) (200 ns), not [100, 400) (300 ns) outside it. */
  g_signal_emit_by_name (table, "row-activated", sps_result_table_get_row_at (table, 3));
  sps_test_wait_until (slice_selected, fixture->session);
  assert_selected (fixture, "layout", 1000, 200);

  /* A range covering the trace gives the whole-trace figures. */
  sps_session_set_range (fixture->session, 0, 3000);
  sps_stats_panel_refresh (panel);
  sps_test_wait_until (stats_idle, panel);
  g_assert_cmpuint (sps_result_table_get_n_rows (table), ==, 5);
  assert_view_row (table, 1, "frame|Measured|2|1500|800|750|500|1000");
  assert_view_row (table, 4, "tick|Sampled|1|200|200|∅|∅|∅");

  /* Changing the range recomputes on its own, once it settles. */
  sps_session_set_range (fixture->session, 550, 1100);
  sps_test_wait_until (stats_busy, panel);
  sps_test_wait_until (stats_idle, panel);
  g_assert_cmpuint (sps_result_table_get_n_rows (table), ==, 4);
  assert_view_row (table, 3, "layout|Measured|2|200|200|100|100|100");

  sps_session_clear_range (fixture->session);
  sps_test_wait_until (stats_busy, panel);
  sps_test_wait_until (stats_idle, panel);
  g_assert_cmpuint (sps_result_table_get_n_rows (table), ==, 5);
}

/* The filters of the session apply: a hidden thread counts nowhere, and
 * showing it again brings its rows back (filters-changed recomputes). */
static void
test_statistics_filters (Fixture       *fixture,
                         gconstpointer  data)
{
  const SpsThreadTable *threads = sps_trace_get_threads (fixture->trace);
  SpsStatsPanel *panel;
  SpsResultTable *table;
  guint worker = SPS_NO_INDEX;

  for (guint i = 0; i < threads->n_rows; i++)
    if (threads->tid[i] == 11)
      worker = i;
  g_assert_cmpuint (worker, !=, SPS_NO_INDEX);

  present (fixture, sps_stats_panel_new (fixture->session));
  panel = SPS_STATS_PANEL (fixture->panel);
  sps_test_wait_until (stats_idle, panel);
  table = sps_stats_panel_get_table (panel);
  g_assert_cmpuint (sps_result_table_get_n_rows (table), ==, 5);

  /* Without Worker 11 (job [0, 3000) and its layout of 200): job is gone,
   * layout keeps Main's two (300 + 100); ties on total go by name. */
  sps_session_set_thread_hidden (fixture->session, worker, TRUE);
  sps_test_wait_until (stats_busy, panel);
  sps_test_wait_until (stats_idle, panel);
  g_assert_null (sps_stats_panel_get_error (panel));
  g_assert_cmpuint (sps_result_table_get_n_rows (table), ==, 4);
  assert_view_row (table, 0, "frame|Measured|2|1500|800|750|500|1000");
  assert_view_row (table, 1, "layout|Measured|2|400|400|200|100|300");
  assert_view_row (table, 2, "paint|Measured|1|400|300|400|400|400");
  assert_view_row (table, 3, "tick|Sampled|1|200|200|∅|∅|∅");

  /* The longest layout left is Main's [100, 400). */
  g_signal_emit_by_name (table, "row-activated", sps_result_table_get_row_at (table, 1));
  sps_test_wait_until (slice_selected, fixture->session);
  assert_selected (fixture, "layout", 100, 300);

  sps_session_show_all (fixture->session);
  sps_test_wait_until (stats_busy, panel);
  sps_test_wait_until (stats_idle, panel);
  g_assert_cmpuint (sps_result_table_get_n_rows (table), ==, 5);
  assert_view_row (table, 0, "job|Measured|1|3000|2800|3000|3000|3000");
}

/* A statistics panel taken out of its window while it computes stops. */
static void
test_statistics_close_while_busy (Fixture       *fixture,
                                  gconstpointer  data)
{
  g_autoptr(SpsStatsPanel) panel = NULL;

  present (fixture, sps_stats_panel_new (fixture->session));
  panel = g_object_ref (SPS_STATS_PANEL (fixture->panel));
  sps_stats_panel_refresh (panel);
  g_assert_true (sps_stats_panel_get_busy (panel));

  gtk_window_set_child (GTK_WINDOW (fixture->window), NULL);
  g_assert_false (sps_stats_panel_get_busy (panel));
}

/* The plugin module registers both views, docked at the bottom. */
static void
test_plugin_views (Fixture       *fixture,
                   gconstpointer  data)
{
  SpsPluginEngine *engine = sps_plugin_engine_get_default ();
  g_autoptr(GPtrArray) views = sps_plugin_engine_create_extensions (engine, SPS_TYPE_VIEW);
  gboolean sql = FALSE;
  gboolean statistics = FALSE;

  for (guint i = 0; i < views->len; i++)
    {
      SpsView *view = g_ptr_array_index (views, i);
      const char *title = sps_view_get_title (view);

      g_assert_cmpint (sps_view_get_area (view), ==, SPS_VIEW_AREA_BOTTOM);
      /* Not asked for panels: this test program has its own copy of
       * the panel types, the module's would clash with them. */
      if (g_str_equal (G_OBJECT_TYPE_NAME (view), "SpsSqlView"))
        {
          sql = TRUE;
          g_assert_cmpstr (title, ==, "SQL");
        }
      else if (g_str_equal (G_OBJECT_TYPE_NAME (view), "SpsStatsView"))
        {
          statistics = TRUE;
          g_assert_cmpstr (title, ==, "Statistics");
        }
    }
  g_assert_true (sql);
  g_assert_true (statistics);
}

/* Streaming: a big generated trace, where rows show while the statement
 * runs, the row count grows, and Cancel stops it and says so */

/* 4 threads × 50,000 slices "s0"…"s9" of 100 ns, back to back */
#define N_THREADS 4
#define N_PER_THREAD 50000

static SpsTrace *
build_big_trace (void)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  guint32 process = sps_trace_builder_ensure_process (builder, 1);
  guint32 names[10];
  SpsTrace *trace;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *name = g_strdup_printf ("s%u", i);

      names[i] = sps_trace_builder_intern (builder, name, -1);
    }
  for (guint t = 0; t < N_THREADS; t++)
    {
      guint32 thread = sps_trace_builder_ensure_thread (builder, process, 10 + t);

      for (guint i = 0; i < N_PER_THREAD; i++)
        sps_trace_builder_add_complete (builder, thread, i * 100, 100, names[i % 10], 0,
                                        SPS_ARGS_REF_NONE, 0);
    }
  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);
  return trace;
}

static void
setup_big (Fixture       *fixture,
           gconstpointer  data)
{
  setup_with (fixture, build_big_trace ());
}

static SpsSqlTab *
current_tab (Fixture *fixture)
{
  return sps_sql_panel_get_current_tab (SPS_SQL_PANEL (fixture->panel));
}

static guint
shown_rows (Fixture *fixture)
{
  return sps_result_table_get_n_rows (sps_sql_tab_get_table (current_tab (fixture)));
}

static gboolean
rows_while_running (gpointer data)
{
  Fixture *fixture = data;

  g_assert_true (sps_sql_tab_get_running (current_tab (fixture)));
  return shown_rows (fixture) > 0;
}

static gboolean
more_rows (gpointer data)
{
  Fixture *fixture = data;

  g_assert_true (sps_sql_tab_get_running (current_tab (fixture)));
  return shown_rows (fixture) > GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (current_tab (fixture)), "seen"));
}

/* Every slice with a count to 3,000 that depends on the row (so SQLite
 * cannot compute it once): 200,000 rows (the panel stops at 100,000) that
 * take many seconds, so the statement still runs while the test looks at
 * its rows. */
#define SLOW_SQL \
  "SELECT s.id, s.name, s.ts," \
  " (WITH RECURSIVE c(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM c WHERE x < 3000 + s.id % 2)" \
  "  SELECT count(*) FROM c) AS n" \
  " FROM slices s"

static void
test_rows_stream_then_cancel (Fixture       *fixture,
                              gconstpointer  data)
{
  SpsResultTable *table;
  guint seen;
  g_autofree char *first = NULL;

  present (fixture, sps_sql_panel_new (fixture->session));
  table = sps_sql_tab_get_table (current_tab (fixture));
  sps_sql_tab_set_text (current_tab (fixture), SLOW_SQL);
  g_assert_true (gtk_widget_activate_action (fixture->panel, "sql.run", NULL));

  /* Rows show while the statement still runs, and their count grows */
  sps_test_wait_until (rows_while_running, fixture);
  seen = shown_rows (fixture);
  g_object_set_data (G_OBJECT (current_tab (fixture)), "seen", GUINT_TO_POINTER (seen));
  sps_test_wait_until (more_rows, fixture);
  g_test_message ("%u rows, then %u, while running", seen, shown_rows (fixture));
  g_assert_cmpuint (sps_result_table_get_n_columns (table), ==, 4);
  /* Slice 0 of thread 10 (row order): id 0, "s0", at 0 ns */
  first = sps_result_table_dup_cell_text (table, 0, 1);
  g_assert_cmpstr (first, ==, "s0");
  g_clear_pointer (&first, g_free);
  /* 0…3000 for an even id */
  first = sps_result_table_dup_cell_text (table, 0, 3);
  g_assert_cmpstr (first, ==, "3001");
  maybe_screenshot (fixture, "sql-stream-running");

  /* Cancel stops it, says so, and keeps the rows shown */
  g_assert_true (gtk_widget_activate_action (fixture->panel, "sql.cancel", NULL));
  g_assert_false (sps_sql_tab_get_running (current_tab (fixture)));
  g_assert_null (sps_sql_tab_get_error (current_tab (fixture)));
  g_assert_cmpstr (sps_result_table_get_note (table), ==, "Cancelled");
  seen = shown_rows (fixture);
  g_assert_cmpuint (seen, >, 0);
  g_assert_cmpuint (seen, <, N_THREADS * N_PER_THREAD / 2);
  /* No batch arrives after the cancel */
  sps_test_spin (400);
  g_assert_cmpuint (shown_rows (fixture), ==, seen);
  g_assert_cmpstr (sps_result_table_get_note (table), ==, "Cancelled");
  maybe_screenshot (fixture, "sql-stream-cancelled");

  /* The engine stopped the statement: the next query runs at once */
  sps_sql_tab_set_text (current_tab (fixture), "SELECT count(*) AS n FROM slices WHERE name = 's3'");
  g_assert_true (gtk_widget_activate_action (fixture->panel, "sql.run", NULL));
  sps_test_wait_until (tab_idle, current_tab (fixture));
  {
    g_autofree char *n = sps_result_table_dup_cell_text (table, 0, 0);

    /* 50,000 slices per thread, every tenth named s3: 4 × 5,000 */
    g_assert_cmpstr (n, ==, "20000");
    g_assert_cmpuint (shown_rows (fixture), ==, 1);
  }
}

/* A whole table: the first rows come in batches, and at the end the table
 * holds exactly the rows of the result (none twice, none missing), up to
 * the panel's limit of 100,000 rows */
static void
test_full_select (Fixture       *fixture,
                  gconstpointer  data)
{
  SpsResultTable *table;
  gint64 start;
  gint64 first_rows = 0;

  present (fixture, sps_sql_panel_new (fixture->session));
  table = sps_sql_tab_get_table (current_tab (fixture));
  start = g_get_monotonic_time ();
  sps_sql_tab_set_text (current_tab (fixture), "SELECT * FROM slices");
  g_assert_true (gtk_widget_activate_action (fixture->panel, "sql.run", NULL));
  while (sps_sql_tab_get_running (current_tab (fixture)))
    {
      g_main_context_iteration (NULL, TRUE);
      if (first_rows == 0 && shown_rows (fixture) > 0)
        first_rows = g_get_monotonic_time ();
    }
  g_test_message ("first rows after %.1f ms, all after %.1f ms",
                  (first_rows - start) / 1000.0, (g_get_monotonic_time () - start) / 1000.0);

  g_assert_cmpuint (shown_rows (fixture), ==, 100000);
  for (guint row = 0; row < 100000; row += 9999)
    {
      g_autofree char *id = sps_result_table_dup_cell_text (table, row, 0);
      g_autofree char *expected = g_strdup_printf ("%u", row);

      /* id is the row number: rows in order, none twice */
      g_assert_cmpstr (id, ==, expected);
    }
}

#define TEST(path, func) \
  g_test_add (path, Fixture, NULL, setup, func, teardown)

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  TEST ("/sql/panel/query-sort-export", test_query);
  TEST ("/sql/panel/error", test_error);
  TEST ("/sql/panel/cancel", test_cancel);
  TEST ("/sql/panel/close-while-running", test_close_while_running);
  TEST ("/sql/panel/select-slice", test_select_slice);
  TEST ("/sql/panel/tabs-saved", test_tabs_saved);
  TEST ("/sql/panel/schema-builder", test_schema_and_builder);
  TEST ("/sql/panel/follows-theme", test_follows_theme);
  TEST ("/sql/statistics/whole-trace", test_statistics);
  TEST ("/sql/statistics/range", test_statistics_range);
  TEST ("/sql/statistics/filters", test_statistics_filters);
  TEST ("/sql/statistics/close-while-busy", test_statistics_close_while_busy);
  TEST ("/sql/plugin/views", test_plugin_views);
  g_test_add ("/sql/stream/rows-then-cancel", Fixture, NULL, setup_big, test_rows_stream_then_cancel, teardown);
  g_test_add ("/sql/stream/full-select", Fixture, NULL, setup_big, test_full_select, teardown);

  return g_test_run ();
}
