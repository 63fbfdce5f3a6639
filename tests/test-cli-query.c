/* test-cli-query.c: `spanscope-cli query` (the executable is in
 * SPANSCOPE_CLI), on tests/fixtures/cli-small.json
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Expected values by hand from the fixture: on tid 1, main is X ts 100 dur
 * 50 with args {"n": 1} and inner is B 110 / E 120 (µs, so ns × 1000).
 */

#define G_LOG_DOMAIN "test-cli-query"

#include "config.h"

#include <string.h>

#include <spanscope-core.h>

#include "sps-test-util.h"

static const char *cli_path;

#define TRACK_1_SQL "SELECT name, ts, dur, args FROM slices WHERE thread_id =" \
                    " (SELECT id FROM threads WHERE tid = 1) ORDER BY ts"

static void
test_table (void)
{
  g_autofree char *path = sps_test_fixture_path ("cli-small.json");
  g_auto(SpsTestRun) run = { 0 };

  /* Numbers right-aligned, text left-aligned, NULL spelled out */
  sps_test_run_cli_va (&run, "query", path, TRACK_1_SQL, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.err, ==, "");
  g_assert_cmpstr (run.out, ==,
                   "name       ts    dur  args\n"
                   "-----  ------  -----  --------\n"
                   "main   100000  50000  {\"n\": 1}\n"
                   "inner  110000  10000  NULL\n"
                   "(2 rows)\n");
}

static void
test_csv (void)
{
  g_autofree char *path = sps_test_fixture_path ("cli-small.json");
  g_auto(SpsTestRun) run = { 0 };

  sps_test_run_cli_va (&run, "query", path, TRACK_1_SQL, "--format", "csv", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.out, ==,
                   "name,ts,dur,args\r\n"
                   "main,100000,50000,\"{\"\"n\"\": 1}\"\r\n"
                   "inner,110000,10000,\r\n");
}

static void
test_tsv (void)
{
  g_autofree char *path = sps_test_fixture_path ("cli-small.json");
  g_auto(SpsTestRun) run = { 0 };

  /* A tab inside a field is quoted; the comma is not special in TSV */
  sps_test_run_cli_va (&run, "query", path,
           "SELECT 'a,b' AS x, 'c' || char(9) || 'd' AS y, 'l1' || char(10) || 'l2' AS z",
           "--format", "tsv", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.out, ==, "x\ty\tz\r\na,b\t\"c\td\"\t\"l1\nl2\"\r\n");
}

static void
test_json (void)
{
  g_autofree char *path = sps_test_fixture_path ("cli-small.json");
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_auto(SpsTestRun) run = { 0 };
  JsonArray *rows;
  JsonObject *row;

  sps_test_run_cli_va (&run, "query", path, "SELECT name, ts, 2.5 AS r, args, NULL AS n FROM slices"
           " WHERE thread_id = (SELECT id FROM threads WHERE tid = 1) ORDER BY ts",
           "--format", "json", NULL);
  g_assert_cmpint (run.status, ==, 0);

  json_parser_load_from_data (parser, run.out, -1, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_ARRAY (json_parser_get_root (parser)));
  rows = json_node_get_array (json_parser_get_root (parser));
  g_assert_cmpuint (json_array_get_length (rows), ==, 2);

  row = json_array_get_object_element (rows, 0);
  g_assert_cmpstr (json_object_get_string_member (row, "name"), ==, "main");
  g_assert_cmpint (json_node_get_value_type (json_object_get_member (row, "ts")), ==, G_TYPE_INT64);
  g_assert_cmpint (json_object_get_int_member (row, "ts"), ==, 100000);
  g_assert_cmpfloat (json_object_get_double_member (row, "r"), ==, 2.5);
  g_assert_cmpstr (json_object_get_string_member (row, "args"), ==, "{\"n\": 1}");
  g_assert_true (json_object_get_null_member (row, "n"));

  row = json_array_get_object_element (rows, 1);
  g_assert_cmpstr (json_object_get_string_member (row, "name"), ==, "inner");
  g_assert_true (json_object_get_null_member (row, "args"));
}

static void
test_ns (void)
{
  g_autofree char *path = sps_test_fixture_path ("cli-small.json");
  g_auto(SpsTestRun) run = { 0 };

  /* With --ns the file's 100 is 100 ns */
  sps_test_run_cli_va (&run, "query", "--ns", path, "SELECT min(ts) AS first FROM slices", "--format", "csv", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.out, ==, "first\r\n100\r\n");
}

static void
test_errors (void)
{
  g_autofree char *path = sps_test_fixture_path ("cli-small.json");
  g_autofree char *missing = sps_test_fixture_path ("no-such-file.json");
  g_auto(SpsTestRun) run = { 0 };

  sps_test_run_cli_va (&run, "query", path, "SELEC 1", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_cmpstr (run.out, ==, "");
  g_assert_nonnull (strstr (run.err, "near \"SELEC\": syntax error"));
  sps_test_run_clear (&run);

  sps_test_run_cli_va (&run, "query", path, "DELETE FROM slices", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, "table slices is read-only"));
  sps_test_run_clear (&run);

  sps_test_run_cli_va (&run, "query", path, NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "missing SQL"));
  sps_test_run_clear (&run);

  sps_test_run_cli_va (&run, "query", path, "SELECT 1", "--format", "xml", NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "xml"));
  sps_test_run_clear (&run);

  sps_test_run_cli_va (&run, "query", missing, "SELECT 1", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_cmpstr (run.out, ==, "");
}

/* --filter: visible_slices and slice_visible() follow a saved filter */
static void
test_filter (void)
{
  g_autofree char *path = sps_test_fixture_path ("cli-small.json");
  g_autofree char *dir = g_dir_make_tmp ("sps-cli-filter-XXXXXX", NULL);
  g_autofree char *collapse = sps_test_write_file (dir, "collapse.json",
                                                   "{\"threads\": [{\"pid\": 1, \"tid\": 1, \"state\": \"collapsed\"}]}");
  g_autofree char *window = sps_test_write_file (dir, "window.json",
                                                 "{\"window\": [100000, 120000],"
                                                 " \"threads\": [{\"pid\": 1, \"tid\": 1, \"state\": \"collapsed\"}]}");
  g_autofree char *bad = sps_test_write_file (dir, "bad.json", "{\"min_duration\": \"long\"}");
  g_autofree char *expected = NULL;
  const char *sql = "SELECT group_concat(id), sum(slice_visible(id)) FROM visible_slices";

  {
    g_auto(SpsTestRun) run = { 0 };

    /* Without a filter: every slice */
    sps_test_run_cli_va (&run, "query", path, sql, "--format", "csv", NULL);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_cmpstr (run.out, ==, "group_concat(id),sum(slice_visible(id))\r\n\"0,1,2,3,4\",5\r\n");
  }
  {
    g_auto(SpsTestRun) run = { 0 };

    /* tid 1 collapsed keeps main (depth 0), not inner */
    sps_test_run_cli_va (&run, "query", "--filter", collapse, path, sql, "--format", "csv", NULL);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_cmpstr (run.out, ==, "group_concat(id),sum(slice_visible(id))\r\n\"0,1,2,4\",4\r\n");
  }
  {
    g_auto(SpsTestRun) run = { 0 };

    sps_test_run_cli_va (&run, "query", "--filter", window, path,
                         "SELECT name FROM slices JOIN visible_slices USING (id)", "--format", "csv", NULL);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_cmpstr (run.out, ==, "name\r\nmain\r\nfetch\r\n");
  }
  {
    g_auto(SpsTestRun) run = { 0 };

    /* A bad file: exit 1, the file and the member named */
    sps_test_run_cli_va (&run, "query", "--filter", bad, path, sql, NULL);
    g_assert_cmpint (run.status, ==, 1);
    expected = g_strdup_printf ("spanscope-cli query: %s: member “min_duration”: expected an integer\n", bad);
    g_assert_cmpstr (run.err, ==, expected);
  }
  {
    g_auto(SpsTestRun) run = { 0 };

    /* Read-only like the trace tables */
    sps_test_run_cli_va (&run, "query", path, "DROP TABLE visible_slices", NULL);
    g_assert_cmpint (run.status, ==, 1);
    g_assert_nonnull (strstr (run.err, "visible_slices is read-only"));
  }
  sps_test_remove_tree (dir);
}

static void
test_skipped (void)
{
  g_test_skip ("SPANSCOPE_CLI is not set");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  cli_path = g_getenv ("SPANSCOPE_CLI");
  if (cli_path == NULL)
    {
      g_test_add_func ("/cli/query/skipped", test_skipped);
      return g_test_run ();
    }

  g_test_add_func ("/cli/query/table", test_table);
  g_test_add_func ("/cli/query/csv", test_csv);
  g_test_add_func ("/cli/query/tsv", test_tsv);
  g_test_add_func ("/cli/query/json", test_json);
  g_test_add_func ("/cli/query/ns", test_ns);
  g_test_add_func ("/cli/query/errors", test_errors);
  g_test_add_func ("/cli/query/filter", test_filter);

  return g_test_run ();
}
