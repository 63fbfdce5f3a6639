/* test-sql-text.c: the SQL the SQL plugin writes: quoting, the query
 * builder's statements, and the statistics query's range edges run on the
 * core engine
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-sql-text"

#include "config.h"

#include <spanscope-core.h>


static char *
identifier (const char *name)
{
  g_autoptr(GString) out = g_string_new (NULL);

  sps_sql_append_identifier (out, name);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static char *
value (const char *text)
{
  g_autoptr(GString) out = g_string_new (NULL);

  sps_sql_append_value (out, text);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

#define assert_quoted(func, in, expected) \
  G_STMT_START { \
    g_autofree char *_s = func (in); \
    g_assert_cmpstr (_s, ==, (expected)); \
  } G_STMT_END

static void
test_quoting (void)
{
  assert_quoted (identifier, "dur", "dur");
  assert_quoted (identifier, "_x1", "_x1");
  assert_quoted (identifier, "1x", "\"1x\"");
  assert_quoted (identifier, "self time", "\"self time\"");
  assert_quoted (identifier, "a\"b", "\"a\"\"b\"");

  assert_quoted (value, "42", "42");
  assert_quoted (value, "-1.5e3", "-1.5e3");
  assert_quoted (value, "paint", "'paint'");
  assert_quoted (value, "it's", "'it''s'");
  assert_quoted (value, "", "''");
  /* strtod reads these, SQL does not: they stay strings. */
  assert_quoted (value, "nan", "'nan'");
  assert_quoted (value, "0x10", "'0x10'");
  assert_quoted (value, " 1", "' 1'");
  assert_quoted (value, "1 OR 1=1", "'1 OR 1=1'");
}

static void
test_builder (void)
{
  const SpsSqlFilter filters[] = {
    { "name", SPS_SQL_OP_LIKE, "Shader::%" },
    { "parent_id", SPS_SQL_OP_IS_NULL, "ignored" },
  };
  const SpsSqlAggregateSpec aggregates[] = {
    { SPS_SQL_AGGREGATE_AVG, "dur" },
    { SPS_SQL_AGGREGATE_MAX, "self time" },
  };
  g_autofree char *rows = sps_sql_build_query ("slices", filters, 2, NULL, NULL, 0);
  g_autofree char *grouped = sps_sql_build_query ("slices", NULL, 0, "name", NULL, 0);
  g_autofree char *totals = sps_sql_build_query ("slices", NULL, 0, NULL, aggregates, 2);

  /* No aggregate and no group: the rows themselves, capped. */
  g_assert_cmpstr (rows, ==,
                   "SELECT *\n"
                   "FROM slices\n"
                   "WHERE name LIKE 'Shader::%'\n"
                   "  AND parent_id IS NULL\n"
                   "LIMIT 1000");
  /* A group without aggregates counts its rows. */
  g_assert_cmpstr (grouped, ==,
                   "SELECT name, count(*) AS count\n"
                   "FROM slices\n"
                   "GROUP BY name\n"
                   "ORDER BY 2 DESC");
  /* Aggregates without a group: one row; odd names quoted, in aliases too. */
  g_assert_cmpstr (totals, ==,
                   "SELECT avg(dur) AS avg_dur, max(\"self time\") AS \"max_self time\"\n"
                   "FROM slices");
}

/* Thread 1: a [0, 100) with child b [10, 30); c [100, 100) zero length;
 * d [200, 300). */
static SpsTrace *
build_trace (void)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  guint32 process = sps_trace_builder_ensure_process (builder, 1);
  guint32 thread = sps_trace_builder_ensure_thread (builder, process, 1);
  const struct { SpsTime ts, dur; const char *name; } slices[] = {
    { 0, 100, "a" }, { 10, 20, "b" }, { 100, 0, "c" }, { 200, 100, "d" },
  };
  SpsTrace *trace;

  for (guint i = 0; i < G_N_ELEMENTS (slices); i++)
    sps_trace_builder_add_complete (builder, thread, slices[i].ts, slices[i].dur,
                                    sps_trace_builder_intern (builder, slices[i].name, -1),
                                    0, SPS_ARGS_REF_NONE, 0);
  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);
  return trace;
}

/* name:count:total:self_total of every row, by name. */
static char *
statistics (SpsSqlEngine *engine,
            SpsTime       start,
            SpsTime       end)
{
  g_autofree char *sql = sps_sql_build_statistics (SPS_STATS_BY_NAME, FALSE, TRUE, start, end);
  g_autofree char *ordered = g_strdup_printf ("SELECT name, count, total, self_total FROM (%s) ORDER BY name", sql);
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsSqlResult) result = sps_sql_engine_query (engine, ordered, NULL, NULL, &error);
  g_autoptr(GString) out = g_string_new (NULL);

  g_assert_no_error (error);
  for (guint r = 0; r < sps_sql_result_get_n_rows (result); r++)
    g_string_append_printf (out, "%s%s:%" G_GINT64_FORMAT ":%" G_GINT64_FORMAT ":%" G_GINT64_FORMAT,
                            r > 0 ? " " : "",
                            sps_sql_result_get_text (result, r, 0),
                            sps_sql_result_get_int64 (result, r, 1),
                            sps_sql_result_get_int64 (result, r, 2),
                            sps_sql_result_get_int64 (result, r, 3));
  return g_string_free (g_steal_pointer (&out), FALSE);
}

#define assert_statistics(engine, start, end, expected) \
  G_STMT_START { \
    g_autofree char *_s = statistics ((engine), (start), (end)); \
    g_assert_cmpstr (_s, ==, (expected)); \
  } G_STMT_END

static void
test_statistics_range_edges (void)
{
  g_autoptr(SpsTrace) trace = build_trace ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsSqlEngine) engine = sps_sql_engine_new (trace, &error);

  g_assert_no_error (error);

  /* [20, 100): a clipped to 80 with b's 10 inside it (self 70); c starts
   * at the range's end, d after it. */
  assert_statistics (engine, 20, 100, "a:1:80:70 b:1:10:10");
  /* [100, 200): a ends where the range starts and d starts where it ends,
   * so only the zero-length c, inside the range, counts. */
  assert_statistics (engine, 100, 200, "c:1:0:0");
  /* [0, 1000): everything, unclipped. */
  assert_statistics (engine, 0, 1000, "a:1:100:80 b:1:20:20 c:1:0:0 d:1:100:100");
  /* An empty range [50, 50) holds nothing. */
  assert_statistics (engine, 50, 50, "");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/sql/text/quoting", test_quoting);
  g_test_add_func ("/sql/text/builder", test_builder);
  g_test_add_func ("/sql/text/statistics/range-edges", test_statistics_range_edges);

  return g_test_run ();
}
