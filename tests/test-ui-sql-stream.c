/* test-ui-sql-stream.c: the SQL panel under Xvfb on a big generated
 * trace: rows show while the statement runs, the row count grows, Cancel
 * stops the statement and says so, and the rows shown stay
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-ui-sql-stream"

#include "config.h"

#include <spanscope-gtk.h>

#include "sps-sql-panel.h"

#include "sps-test-ui.h"

#include "sps-test-util.h"

/* 4 threads × 50,000 slices "s0"…"s9" of 100 ns, back to back */
#define N_THREADS 4
#define N_PER_THREAD 50000

typedef struct
{
  SpsTrace   *trace;
  SpsSession *session;
  GtkWidget  *window;
  GtkWidget  *panel;
  SpsSqlTab  *tab;
} Fixture;

static SpsTrace *
build_trace (void)
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
setup (Fixture       *fixture,
       gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new ("io.github.spanscope.Spanscope.sql");

  g_settings_reset (settings, "query-tabs");
  g_settings_reset (settings, "active-query-tab");

  fixture->trace = build_trace ();
  fixture->session = sps_session_new (fixture->trace);
  fixture->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 1100, 420);
  fixture->panel = sps_sql_panel_new (fixture->session);
  gtk_window_set_child (GTK_WINDOW (fixture->window), fixture->panel);
  gtk_window_present (GTK_WINDOW (fixture->window));
  gtk_test_widget_wait_for_draw (fixture->window);
  fixture->tab = sps_sql_panel_get_current_tab (SPS_SQL_PANEL (fixture->panel));
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

static guint
shown_rows (Fixture *fixture)
{
  return sps_result_table_get_n_rows (sps_sql_tab_get_table (fixture->tab));
}

static gboolean
rows_while_running (gpointer data)
{
  Fixture *fixture = data;

  g_assert_true (sps_sql_tab_get_running (fixture->tab));
  return shown_rows (fixture) > 0;
}

static gboolean
more_rows (gpointer data)
{
  Fixture *fixture = data;

  g_assert_true (sps_sql_tab_get_running (fixture->tab));
  return shown_rows (fixture) > GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (fixture->tab), "seen"));
}

static gboolean
tab_idle (gpointer data)
{
  return !sps_sql_tab_get_running (data);
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
  SpsResultTable *table = sps_sql_tab_get_table (fixture->tab);
  guint seen;
  g_autofree char *first = NULL;

  sps_sql_tab_set_text (fixture->tab, SLOW_SQL);
  g_assert_true (gtk_widget_activate_action (fixture->panel, "sql.run", NULL));

  /* Rows show while the statement still runs, and their count grows */
  sps_test_wait_until (rows_while_running, fixture);
  seen = shown_rows (fixture);
  g_object_set_data (G_OBJECT (fixture->tab), "seen", GUINT_TO_POINTER (seen));
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
  sps_test_maybe_screenshot (fixture->window, "sql-stream-running");

  /* Cancel stops it, says so, and keeps the rows shown */
  g_assert_true (gtk_widget_activate_action (fixture->panel, "sql.cancel", NULL));
  g_assert_false (sps_sql_tab_get_running (fixture->tab));
  g_assert_null (sps_sql_tab_get_error (fixture->tab));
  g_assert_cmpstr (sps_result_table_get_note (table), ==, "Cancelled");
  seen = shown_rows (fixture);
  g_assert_cmpuint (seen, >, 0);
  g_assert_cmpuint (seen, <, N_THREADS * N_PER_THREAD / 2);
  /* No batch arrives after the cancel */
  sps_test_spin (400);
  g_assert_cmpuint (shown_rows (fixture), ==, seen);
  g_assert_cmpstr (sps_result_table_get_note (table), ==, "Cancelled");
  sps_test_maybe_screenshot (fixture->window, "sql-stream-cancelled");

  /* The engine stopped the statement: the next query runs at once */
  sps_sql_tab_set_text (fixture->tab, "SELECT count(*) AS n FROM slices WHERE name = 's3'");
  g_assert_true (gtk_widget_activate_action (fixture->panel, "sql.run", NULL));
  sps_test_wait_until (tab_idle, fixture->tab);
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
  SpsResultTable *table = sps_sql_tab_get_table (fixture->tab);
  gint64 start = g_get_monotonic_time ();
  gint64 first_rows = 0;

  sps_sql_tab_set_text (fixture->tab, "SELECT * FROM slices");
  g_assert_true (gtk_widget_activate_action (fixture->panel, "sql.run", NULL));
  while (sps_sql_tab_get_running (fixture->tab))
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

  TEST ("/sql/stream/rows-then-cancel", test_rows_stream_then_cancel);
  TEST ("/sql/stream/full-select", test_full_select);

  return g_test_run ();
}
