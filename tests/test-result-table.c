/* test-result-table.c: SpsResultTable cells, sorting (numeric, text, NULL
 * last), export bytes and the row-activated signal
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-result-table"

#include "config.h"

#include <glib/gstdio.h>

#include <spanscope-gtk.h>

#include "sps-test-ui.h"

/* The table every test starts from, in append order:
 *
 *   row  n (INTEGER)  label (TEXT)        ratio (REAL)
 *   0    10           "10"                0.5
 *   1    9            "9"                 NULL
 *   2    NULL         "a, \"quoted\""     -1.25
 *   3    100          "100"               0.1
 *   4    2            NULL                1e+20
 *   5    "many"       "two\nlines"        3
 *
 * Row 5's n is text in an integer column, as SQLite allows. */
typedef struct
{
  GtkWidget *window;
  SpsResultTable *table;
} Fixture;

static void
fill (SpsResultTable *table)
{
  const char *names[] = { "n", "label", "ratio" };
  const SpsResultColumnType types[] = {
    SPS_RESULT_COLUMN_INTEGER, SPS_RESULT_COLUMN_TEXT, SPS_RESULT_COLUMN_REAL,
  };

  sps_result_table_set_columns (table, 3, names, types);
  sps_result_table_append_row (table, g_variant_new ("(xsd)", (gint64) 10, "10", 0.5));
  sps_result_table_append_row (table, g_variant_new ("(xsmd)", (gint64) 9, "9", FALSE, 0.0));
  sps_result_table_append_row (table, g_variant_new ("(mxsd)", FALSE, (gint64) 0, "a, \"quoted\"", -1.25));
  sps_result_table_append_row (table, g_variant_new ("(isd)", 100, "100", 0.1));
  sps_result_table_append_row (table, g_variant_new ("(tmsv)", (guint64) 2, NULL,
                                                     g_variant_new_double (1e20)));
  sps_result_table_append_row (table, g_variant_new ("(ssu)", "many", "two\nlines", 3));
}

static void
setup (Fixture       *fixture,
       gconstpointer  data)
{
  fixture->window = gtk_window_new ();
  fixture->table = SPS_RESULT_TABLE (sps_result_table_new ());
  gtk_window_set_child (GTK_WINDOW (fixture->window), GTK_WIDGET (fixture->table));
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 600, 300);
  fill (fixture->table);
  gtk_window_present (GTK_WINDOW (fixture->window));
}

static void
teardown (Fixture       *fixture,
          gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* The rows in the order the view shows them, as a comma-joined string of
 * append indexes. */
static char *
view_order (SpsResultTable *table)
{
  g_autoptr(GString) s = g_string_new (NULL);

  for (guint i = 0; i < sps_result_table_get_n_rows (table); i++)
    g_string_append_printf (s, "%s%u", i > 0 ? "," : "", sps_result_table_get_row_at (table, i));
  g_assert_cmpuint (sps_result_table_get_row_at (table, sps_result_table_get_n_rows (table)), ==, G_MAXUINT);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static void
test_cells (Fixture       *fixture,
            gconstpointer  data)
{
  SpsResultTable *table = fixture->table;
  g_autoptr(GVariant) cell = NULL;
  g_autofree char *text = NULL;

  g_assert_cmpuint (sps_result_table_get_n_columns (table), ==, 3);
  g_assert_cmpuint (sps_result_table_get_n_rows (table), ==, 6);
  g_assert_cmpstr (sps_result_table_get_column_name (table, 1), ==, "label");
  g_assert_cmpint (sps_result_table_get_column_type (table, 2), ==, SPS_RESULT_COLUMN_REAL);
  g_assert_cmpint (sps_result_table_find_column (table, "RATIO"), ==, 2);
  g_assert_cmpint (sps_result_table_find_column (table, "missing"), ==, -1);

  /* Integers of any width become x, doubles d, strings s, Nothing NULL. */
  cell = sps_result_table_get_cell (table, 3, 0);
  g_assert_true (g_variant_is_of_type (cell, G_VARIANT_TYPE_INT64));
  g_assert_cmpint (g_variant_get_int64 (cell), ==, 100);
  g_clear_pointer (&cell, g_variant_unref);
  cell = sps_result_table_get_cell (table, 4, 2);
  g_assert_true (g_variant_is_of_type (cell, G_VARIANT_TYPE_DOUBLE));
  g_assert_cmpfloat (g_variant_get_double (cell), ==, 1e20);
  g_clear_pointer (&cell, g_variant_unref);
  cell = sps_result_table_get_cell (table, 5, 0);
  g_assert_cmpstr (g_variant_get_string (cell, NULL), ==, "many");
  g_assert_null (sps_result_table_get_cell (table, 2, 0));
  g_assert_null (sps_result_table_get_cell (table, 1, 2));
  g_assert_null (sps_result_table_get_cell (table, 4, 1));

  /* Reals in their shortest exact form. */
  text = sps_result_table_dup_cell_text (table, 3, 2);
  g_assert_cmpstr (text, ==, "0.1");
  g_clear_pointer (&text, g_free);
  text = sps_result_table_dup_cell_text (table, 4, 2);
  g_assert_cmpstr (text, ==, "1e+20");
  g_clear_pointer (&text, g_free);
  text = sps_result_table_dup_cell_text (table, 5, 2);
  g_assert_cmpstr (text, ==, "3");
}

static void
test_sort_numeric (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *order = NULL;

  /* n ascending: 2 (row 4), 9 (1), 10 (0), 100 (3), then the text
   * "many" (5) after the numbers, then NULL (2) last. */
  sps_result_table_sort (fixture->table, 0, GTK_SORT_ASCENDING);
  order = view_order (fixture->table);
  g_assert_cmpstr (order, ==, "4,1,0,3,5,2");
  g_clear_pointer (&order, g_free);

  /* Descending reverses all but the NULL, which stays last. */
  sps_result_table_sort (fixture->table, 0, GTK_SORT_DESCENDING);
  order = view_order (fixture->table);
  g_assert_cmpstr (order, ==, "5,3,0,1,4,2");
  g_clear_pointer (&order, g_free);

  /* ratio ascending: -1.25 (2), 0.1 (3), 0.5 (0), 3 (5), 1e20 (4), NULL (1). */
  sps_result_table_sort (fixture->table, 2, GTK_SORT_ASCENDING);
  order = view_order (fixture->table);
  g_assert_cmpstr (order, ==, "2,3,0,5,4,1");
  g_clear_pointer (&order, g_free);

  /* Back to append order. */
  sps_result_table_sort (fixture->table, -1, GTK_SORT_ASCENDING);
  order = view_order (fixture->table);
  g_assert_cmpstr (order, ==, "0,1,2,3,4,5");
}

static void
test_sort_text (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *order = NULL;

  /* label is a text column: "10" < "100" < "9" < "a, …" < "two…" by
   * code point (LANG=C.UTF-8), NULL (row 4) last. A numeric sort would
   * have put "9" first. */
  sps_result_table_sort (fixture->table, 1, GTK_SORT_ASCENDING);
  order = view_order (fixture->table);
  g_assert_cmpstr (order, ==, "0,3,1,2,5,4");
  g_clear_pointer (&order, g_free);

  sps_result_table_sort (fixture->table, 1, GTK_SORT_DESCENDING);
  order = view_order (fixture->table);
  g_assert_cmpstr (order, ==, "5,2,1,3,0,4");
}

static const char expected_csv[] =
  "n,label,ratio\r\n"
  "10,10,0.5\r\n"
  "9,9,\r\n"
  ",\"a, \"\"quoted\"\"\",-1.25\r\n"
  "100,100,0.1\r\n"
  "2,,1e+20\r\n"
  "many,\"two\nlines\",3\r\n";

static void
test_export_csv (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(GBytes) bytes = sps_result_table_export_bytes (fixture->table, SPS_RESULT_FORMAT_CSV);
  g_autoptr(GBytes) expected = g_bytes_new_static (expected_csv, sizeof expected_csv - 1);

  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                   expected_csv, sizeof expected_csv - 1);
  g_assert_true (g_bytes_equal (bytes, expected));
}

static void
test_export_tsv_sorted (Fixture       *fixture,
                        gconstpointer  data)
{
  /* Sorted by n descending; in TSV the comma needs no quotes but the
   * quote and the line break still do. */
  static const char expected[] =
    "n\tlabel\tratio\r\n"
    "many\t\"two\nlines\"\t3\r\n"
    "100\t100\t0.1\r\n"
    "10\t10\t0.5\r\n"
    "9\t9\t\r\n"
    "2\t\t1e+20\r\n"
    "\t\"a, \"\"quoted\"\"\"\t-1.25\r\n";
  g_autoptr(GBytes) bytes = NULL;

  sps_result_table_sort (fixture->table, 0, GTK_SORT_DESCENDING);
  bytes = sps_result_table_export_bytes (fixture->table, SPS_RESULT_FORMAT_TSV);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                   expected, sizeof expected - 1);
}

static void
test_export_file (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("result-table-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GFile) file = NULL;
  gsize length;

  g_assert_no_error (error);
  path = g_build_filename (dir, "out.csv", NULL);
  file = g_file_new_for_path (path);
  g_assert_true (sps_result_table_export_to_file (fixture->table, file, SPS_RESULT_FORMAT_CSV, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &contents, &length, &error));
  g_assert_cmpmem (contents, length, expected_csv, sizeof expected_csv - 1);

  /* A directory that does not exist fails with an error, not a crash. */
  g_clear_object (&file);
  g_clear_pointer (&path, g_free);
  path = g_build_filename (dir, "missing", "out.csv", NULL);
  file = g_file_new_for_path (path);
  g_assert_false (sps_result_table_export_to_file (fixture->table, file, SPS_RESULT_FORMAT_CSV, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);

  g_clear_pointer (&path, g_free);
  path = g_build_filename (dir, "out.csv", NULL);
  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

static void
on_row_activated (SpsResultTable *table,
                  guint           row,
                  gpointer        user_data)
{
  GArray *rows = user_data;

  g_array_append_val (rows, row);
}

static void
test_row_activated (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (guint));
  GtkWidget *view = sps_test_find_descendant (GTK_WIDGET (fixture->table), GTK_TYPE_COLUMN_VIEW);
  GtkSelectionModel *model;

  g_assert_nonnull (view);
  g_signal_connect (fixture->table, "row-activated", G_CALLBACK (on_row_activated), rows);

  /* Sorted by ratio ascending the top row is row 2 (-1.25), the second
   * row 3 (0.1): signals carry append indexes, not positions. */
  sps_result_table_sort (fixture->table, 2, GTK_SORT_ASCENDING);
  g_assert_cmpuint (sps_result_table_get_row_at (fixture->table, 0), ==, 2);
  g_signal_emit_by_name (view, "activate", 0);
  g_assert_cmpuint (rows->len, ==, 1);
  g_assert_cmpuint (g_array_index (rows, guint, 0), ==, 2);

  model = gtk_column_view_get_model (GTK_COLUMN_VIEW (view));
  gtk_selection_model_select_item (model, 1, TRUE);
  g_assert_cmpuint (rows->len, ==, 2);
  g_assert_cmpuint (g_array_index (rows, guint, 1), ==, 3);

  /* Re-sorting moves the selected row but picks nothing new. */
  sps_result_table_sort (fixture->table, 0, GTK_SORT_ASCENDING);
  g_assert_cmpuint (rows->len, ==, 2);
}

static void
test_reset (Fixture       *fixture,
            gconstpointer  data)
{
  const char *names[] = { "only" };
  const SpsResultColumnType types[] = { SPS_RESULT_COLUMN_TEXT };
  g_autoptr(GBytes) bytes = NULL;

  sps_result_table_sort (fixture->table, 0, GTK_SORT_DESCENDING);
  sps_result_table_set_columns (fixture->table, 1, names, types);
  g_assert_cmpuint (sps_result_table_get_n_rows (fixture->table), ==, 0);
  sps_result_table_append_row (fixture->table, g_variant_new ("(s)", "x"));
  g_assert_cmpuint (sps_result_table_get_n_rows (fixture->table), ==, 1);

  bytes = sps_result_table_export_bytes (fixture->table, SPS_RESULT_FORMAT_CSV);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), "only\r\nx\r\n", 9);

  sps_result_table_set_columns (fixture->table, 0, NULL, NULL);
  g_clear_pointer (&bytes, g_bytes_unref);
  bytes = sps_result_table_export_bytes (fixture->table, SPS_RESULT_FORMAT_CSV);
  g_assert_cmpuint (g_bytes_get_size (bytes), ==, 0);
}

/* The view catches up from an idle: drawing after many appends shows
 * every row. */
static void
test_many_rows (Fixture       *fixture,
                gconstpointer  data)
{
  const char *names[] = { "i" };
  const SpsResultColumnType types[] = { SPS_RESULT_COLUMN_INTEGER };
  guint n = 20000;

  sps_result_table_set_columns (fixture->table, 1, names, types);
  for (guint i = 0; i < n; i++)
    sps_result_table_append_row (fixture->table, g_variant_new ("(u)", i % 2 == 0 ? i : n - i));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (fixture->table));
  g_assert_cmpuint (sps_result_table_get_n_rows (fixture->table), ==, n);

  /* Descending: the largest value is n - 1 (row n - 1, odd), then n - 2
   * (row n - 2, even). */
  sps_result_table_sort (fixture->table, 0, GTK_SORT_DESCENDING);
  g_assert_cmpuint (sps_result_table_get_row_at (fixture->table, 0), ==, 1);
  g_assert_cmpuint (sps_result_table_get_row_at (fixture->table, 1), ==, n - 2);
}

static guint
count_labels (GtkWidget  *widget,
              const char *text)
{
  guint n = GTK_IS_LABEL (widget) && g_str_equal (gtk_label_get_text (GTK_LABEL (widget)), text);

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n += count_labels (child, text);
  return n;
}

/* The three NULL cells (rows 1, 2, 4) show as the null text once drawn;
 * the export still writes empty fields. */
static void
test_null_text (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GBytes) bytes = NULL;

  gtk_test_widget_wait_for_draw (GTK_WIDGET (fixture->table));
  g_assert_cmpuint (count_labels (GTK_WIDGET (fixture->table), "NULL"), ==, 3);

  sps_result_table_set_null_text (fixture->table, "—");
  fill (fixture->table);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (fixture->table));
  g_assert_cmpuint (count_labels (GTK_WIDGET (fixture->table), "NULL"), ==, 0);
  g_assert_cmpuint (count_labels (GTK_WIDGET (fixture->table), "—"), ==, 3);

  bytes = sps_result_table_export_bytes (fixture->table, SPS_RESULT_FORMAT_CSV);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                   expected_csv, sizeof expected_csv - 1);
}

#define TEST(path, func) \
  g_test_add (path, Fixture, NULL, setup, func, teardown)

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  TEST ("/result-table/cells/typed", test_cells);
  TEST ("/result-table/cells/null-text", test_null_text);
  TEST ("/result-table/sort/numeric", test_sort_numeric);
  TEST ("/result-table/sort/text", test_sort_text);
  TEST ("/result-table/export/csv", test_export_csv);
  TEST ("/result-table/export/tsv-sorted", test_export_tsv_sorted);
  TEST ("/result-table/export/file", test_export_file);
  TEST ("/result-table/signal/row-activated", test_row_activated);
  TEST ("/result-table/columns/reset", test_reset);
  TEST ("/result-table/rows/many", test_many_rows);

  return g_test_run ();
}
