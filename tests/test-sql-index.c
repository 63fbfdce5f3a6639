/* test-sql-index.c: every optimised path of the SQL tables against a
 * native copy of the same data
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The trace tables answer constraints themselves (id, the foreign-key
 * columns, ts ranges, name), stream rows in name order, consume ORDER BY
 * and answer count(*) from their row count. Each query here runs twice on
 * the same connection: on the trace tables, and on plain SQLite tables
 * filled with `CREATE TEMP TABLE n_x AS SELECT * FROM x`, where SQLite does
 * everything itself. Both must give the same rows (in the same order when
 * the query orders them completely).
 */

#include "config.h"

#include <string.h>

#include <spanscope-core.h>

#include "sps-test-util.h"

static const char * const tables[] = {
  "processes", "threads", "tracks", "slices", "instants", "counters", "flows",
  "samples", "callsites", "frames", "objects",
};

static int
compare_lines (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

static char *
sorted (const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  qsort (lines, g_strv_length (lines), sizeof (char *), compare_lines);
  return g_strjoinv ("\n", lines);
}

/* @sql with every trace table's name (a whole word) replaced by its copy's */
static char *
on_copies (const char *sql)
{
  GString *out = g_string_new (NULL);
  const char *p = sql;

  while (*p != '\0')
    {
      gboolean replaced = FALSE;

      if (p == sql || !(g_ascii_isalnum (p[-1]) || p[-1] == '_'))
        for (guint i = 0; i < G_N_ELEMENTS (tables) && !replaced; i++)
          {
            gsize len = strlen (tables[i]);

            if (strncmp (p, tables[i], len) == 0 && !(g_ascii_isalnum (p[len]) || p[len] == '_'))
              {
                g_string_append_printf (out, "n_%s", tables[i]);
                p += len;
                replaced = TRUE;
              }
          }
      if (!replaced)
        g_string_append_c (out, *p++);
    }
  /* The copies are temporary tables */
  g_string_replace (out, "main.n_", "temp.n_", 0);
  return g_string_free (out, FALSE);
}

static SpsSqlEngine *
engine_with_copies (SpsTrace *trace)
{
  g_autoptr(GError) error = NULL;
  SpsSqlEngine *engine = sps_sql_engine_new (trace, &error);

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
    {
      g_autofree char *sql = g_strdup_printf ("CREATE TEMP TABLE n_%s AS SELECT * FROM %s",
                                              tables[i], tables[i]);
      g_autoptr(SpsSqlResult) result = sps_test_sql_query (engine, sql);
    }
  return engine;
}

typedef struct
{
  const char *sql;
  gboolean    ordered;    /* ORDER BY fixes the order of every row */
} Case;

/* Constraint shapes on id, the foreign keys, ts, dur, end_ts and name;
 * joins in both orders (CROSS JOIN keeps the written order); ORDER BY that
 * the tables consume and that they do not. Constants come from the data,
 * so that every trace has rows to find. */
static const Case cases[] = {
  { "SELECT id, ts, dur, name FROM slices WHERE id = (SELECT max(id) / 2 FROM slices)", FALSE },
  { "SELECT id FROM slices WHERE id < 5 OR id > (SELECT count(*) - 3 FROM slices)", FALSE },
  { "SELECT id FROM slices WHERE id <= 3", FALSE },
  { "SELECT id FROM slices WHERE id >= (SELECT count(*) - 2 FROM slices)", FALSE },
  { "SELECT id FROM slices WHERE id BETWEEN 2 AND 6", FALSE },
  { "SELECT id FROM slices WHERE id IN (0, 1, 3, 1000000, -1)", FALSE },
  { "SELECT id FROM slices WHERE id IS NULL", FALSE },
  { "SELECT id FROM slices WHERE id = '2'", FALSE },
  { "SELECT id FROM slices WHERE id = 1.5", FALSE },
  { "SELECT id FROM slices WHERE thread_id = (SELECT thread_id FROM slices WHERE id = 0)", FALSE },
  { "SELECT id FROM slices WHERE thread_id IN (0, 1, 2)", FALSE },
  { "SELECT id FROM slices WHERE thread_id IS NULL", FALSE },
  { "SELECT id FROM slices WHERE thread_id = NULL", FALSE },
  { "SELECT id FROM slices WHERE thread_id < 1", FALSE },
  { "SELECT id FROM slices WHERE track_id = (SELECT track_id FROM slices ORDER BY id DESC LIMIT 1)", FALSE },
  { "SELECT id FROM slices WHERE track_id IN (SELECT id FROM tracks WHERE kind = 'async')", FALSE },
  { "SELECT id FROM slices WHERE track_id >= 2", FALSE },
  { "SELECT id FROM slices WHERE process_id = (SELECT process_id FROM slices ORDER BY id DESC LIMIT 1)", FALSE },
  { "SELECT id FROM slices WHERE process_id IN (0, 1)", FALSE },
  { "SELECT id FROM slices WHERE process_id IS NULL", FALSE },
  { "SELECT id FROM slices WHERE parent_id = (SELECT parent_id FROM slices WHERE parent_id IS NOT NULL LIMIT 1)", FALSE },
  { "SELECT id FROM slices WHERE parent_id IN (0, 1, 2, 3)", FALSE },
  { "SELECT id FROM slices WHERE parent_id IS NULL", FALSE },
  { "SELECT id FROM slices WHERE parent_id > 10", FALSE },
  { "SELECT id FROM slices WHERE parent_id = '1'", FALSE },
  { "SELECT id FROM slices WHERE callsite_id = (SELECT min(callsite_id) FROM slices)", FALSE },
  { "SELECT id FROM slices WHERE callsite_id IS NOT NULL", FALSE },
  { "SELECT id FROM slices WHERE end_callsite_id IN (0, 1, 2)", FALSE },
  { "SELECT id FROM slices WHERE ts = (SELECT ts FROM slices WHERE id = 1)", FALSE },
  { "SELECT id FROM slices WHERE ts < (SELECT avg(ts) FROM slices)", FALSE },
  { "SELECT id FROM slices WHERE ts <= (SELECT min(ts) + 1000 FROM slices)", FALSE },
  { "SELECT id FROM slices WHERE ts > (SELECT avg(ts) FROM slices) + 0.5", FALSE },
  { "SELECT id FROM slices WHERE ts >= (SELECT max(ts) FROM slices)", FALSE },
  { "SELECT id FROM slices WHERE ts BETWEEN (SELECT avg(ts) FROM slices) AND (SELECT avg(ts) FROM slices) + 50000", FALSE },
  { "SELECT id FROM slices WHERE ts IN (SELECT ts FROM slices WHERE id IN (1, 4, 9))", FALSE },
  { "SELECT id FROM slices WHERE ts IS NULL", FALSE },
  { "SELECT id FROM slices WHERE ts > 'x'", FALSE },
  { "SELECT id FROM slices WHERE dur = (SELECT dur FROM slices WHERE id = 2)", FALSE },
  { "SELECT id FROM slices WHERE dur < 100 OR dur > 4000", FALSE },
  { "SELECT id FROM slices WHERE dur BETWEEN 200 AND 300", FALSE },
  { "SELECT id FROM slices WHERE end_ts > (SELECT avg(ts) FROM slices) AND ts < (SELECT avg(ts) FROM slices) + 1000", FALSE },
  { "SELECT id FROM slices WHERE end_ts <= (SELECT min(ts) FROM slices) + 5000", FALSE },
  { "SELECT id FROM slices WHERE name = (SELECT name FROM slices WHERE id = 0)", FALSE },
  { "SELECT id FROM slices WHERE name IN ('alpha', 'gamma', 'main', 'nothing')", FALSE },
  { "SELECT id FROM slices WHERE name < 'b'", FALSE },
  { "SELECT id FROM slices WHERE name >= 'd'", FALSE },
  { "SELECT id FROM slices WHERE name IS NULL", FALSE },
  { "SELECT id FROM slices WHERE name = 'ALPHA' COLLATE NOCASE", FALSE },
  { "SELECT id FROM slices WHERE name = (SELECT name FROM slices WHERE id = 3)"
    " AND ts BETWEEN (SELECT min(ts) FROM slices) AND (SELECT avg(ts) FROM slices)", FALSE },
  { "SELECT id FROM slices WHERE track_id = (SELECT track_id FROM slices WHERE id = 0)"
    " AND ts > (SELECT avg(ts) FROM slices) AND name <> 'x'", FALSE },
  { "SELECT id FROM slices WHERE thread_id = 1 AND parent_id IS NOT NULL AND depth >= 1", FALSE },
  /* A key equality with a narrower plan: the key is still checked */
  { "SELECT id FROM slices WHERE track_id = (SELECT track_id FROM slices WHERE id = 5)"
    " AND parent_id = (SELECT parent_id FROM slices WHERE parent_id IS NOT NULL ORDER BY id DESC LIMIT 1)", FALSE },
  { "SELECT id FROM slices WHERE id = 7 AND parent_id = 3", FALSE },
  { "SELECT id FROM slices WHERE id = 7 AND parent_id = (SELECT parent_id FROM slices WHERE id = 7)", FALSE },
  { "SELECT id FROM slices WHERE name = 'beta' AND parent_id IN (1, 2, 3, 4, 5, 6)", FALSE },
  { "SELECT id FROM slices WHERE thread_id = 1 AND process_id = 1", FALSE },
  { "SELECT id FROM slices WHERE thread_id = 1 AND process_id = 0", FALSE },
  { "SELECT id FROM slices WHERE ts BETWEEN (SELECT avg(ts) FROM slices) AND (SELECT avg(ts) FROM slices) + 90000"
    " AND process_id = 1", FALSE },
  { "SELECT p.id, (SELECT count(*) FROM slices c WHERE c.track_id = p.track_id AND c.ts >= p.ts"
    " AND c.parent_id = p.id) FROM slices p", FALSE },
  { "SELECT id FROM samples WHERE thread_id = 1 AND callsite_id = 3", FALSE },
  /* Joins, both orders */
  { "SELECT s.id, t.tid, t.name FROM slices s JOIN threads t ON t.id = s.thread_id", FALSE },
  { "SELECT s.id, t.tid FROM threads t CROSS JOIN slices s WHERE s.thread_id = t.id", FALSE },
  { "SELECT s.id, t.tid FROM slices s CROSS JOIN threads t WHERE t.id = s.thread_id", FALSE },
  { "SELECT s.id, p.pid FROM processes p CROSS JOIN slices s WHERE s.process_id = p.id", FALSE },
  { "SELECT s.id, p.pid FROM slices s CROSS JOIN processes p WHERE p.id = s.process_id", FALSE },
  { "SELECT s.id, k.kind FROM tracks k CROSS JOIN slices s WHERE s.track_id = k.id", FALSE },
  { "SELECT s.id, k.kind FROM slices s CROSS JOIN tracks k WHERE k.id = s.track_id", FALSE },
  { "SELECT c.id, p.name FROM slices c CROSS JOIN slices p WHERE p.id = c.parent_id", FALSE },
  { "SELECT c.id, p.name FROM slices p CROSS JOIN slices c WHERE c.parent_id = p.id", FALSE },
  { "SELECT s.id, c.depth FROM slices s CROSS JOIN callsites c WHERE c.id = s.callsite_id", FALSE },
  { "SELECT s.id, c.depth FROM callsites c CROSS JOIN slices s WHERE s.callsite_id = c.id", FALSE },
  { "SELECT a.id, f.name FROM samples a JOIN callsites c ON c.id = a.callsite_id JOIN frames f ON f.id = c.frame_id", FALSE },
  { "SELECT a.id, f.name FROM frames f CROSS JOIN callsites c CROSS JOIN samples a"
    " WHERE c.frame_id = f.id AND a.callsite_id = c.id", FALSE },
  { "SELECT c.id, f.name FROM frames f CROSS JOIN callsites c WHERE c.frame_id = f.id", FALSE },
  { "SELECT c.id, p.id FROM callsites c LEFT JOIN callsites p ON p.id = c.parent_id", FALSE },
  { "SELECT t.id, p.pid FROM processes p CROSS JOIN threads t WHERE t.process_id = p.id", FALSE },
  { "SELECT k.id, t.tid FROM threads t CROSS JOIN tracks k WHERE k.thread_id = t.id", FALSE },
  { "SELECT k.id, p.pid FROM processes p CROSS JOIN tracks k WHERE k.process_id = p.id", FALSE },
  { "SELECT i.id, p.pid FROM processes p CROSS JOIN instants i WHERE i.process_id = p.id", FALSE },
  { "SELECT c.id, p.pid FROM processes p CROSS JOIN counters c WHERE c.process_id = p.id", FALSE },
  { "SELECT a.id, p.pid FROM processes p CROSS JOIN samples a WHERE a.process_id = p.id", FALSE },
  { "SELECT f.id, s.name FROM slices s CROSS JOIN flows f WHERE f.from_slice_id = s.id", FALSE },
  { "SELECT f.id, s.name FROM slices s CROSS JOIN flows f WHERE f.to_slice_id = s.id", FALSE },
  { "SELECT o.id, p.pid FROM processes p CROSS JOIN objects o WHERE o.process_id = p.id", FALSE },
  { "SELECT s.id FROM slices s JOIN threads t ON t.id = s.thread_id WHERE t.name = (SELECT name FROM threads LIMIT 1)", FALSE },
  /* Grouping and ordering */
  { "SELECT t.name, count(*), sum(s.dur) FROM slices s JOIN threads t ON s.thread_id = t.id GROUP BY t.name", TRUE },
  { "SELECT p.name, count(*) FROM slices s JOIN processes p ON s.process_id = p.id GROUP BY p.name", TRUE },
  { "SELECT name, count(*), sum(dur) FROM slices GROUP BY name", TRUE },
  { "SELECT name, count(*) FROM threads GROUP BY name", TRUE },
  { "SELECT name, id FROM threads ORDER BY name, id", TRUE },
  { "SELECT name, id FROM tracks ORDER BY name, id", TRUE },
  { "SELECT name, id FROM frames ORDER BY name, id", TRUE },
  { "SELECT name, id FROM processes ORDER BY name DESC, id", TRUE },
  { "SELECT id, name FROM slices ORDER BY name, id", TRUE },
  { "SELECT id, ts FROM slices ORDER BY track_id, ts, id", TRUE },
  { "SELECT id, ts FROM slices WHERE track_id = 1 ORDER BY ts, id", TRUE },
  { "SELECT id FROM slices ORDER BY ts, id", TRUE },
  { "SELECT id FROM slices ORDER BY id DESC", TRUE },
  { "SELECT id FROM slices WHERE parent_id = 0 ORDER BY id", TRUE },
  { "SELECT id FROM slices WHERE process_id = 0 ORDER BY track_id, ts, id", TRUE },
  /* count(*) from the row count, and its look-alikes */
  { "SELECT count(*) FROM slices", TRUE },
  { "select COUNT( * ) from main.samples ;", TRUE },
  { "SELECT count(*) FROM threads", TRUE },
  { "SELECT count(*) FROM slices WHERE dur > 100", TRUE },
  { "SELECT count(*) FROM slices s JOIN threads t ON t.id = s.thread_id", TRUE },
  /* The outer table's columns read for every inner row (xColumn through
   * the table's reader), and the plain scans' xNext without row checks:
   * whole tables, one track, one thread's tracks */
  { "SELECT sum(s.dur), sum(t.tid) FROM slices s JOIN threads t ON t.id = s.thread_id", TRUE },
  { "SELECT sum(s.dur), sum(t.tid), count(*) FROM threads t JOIN slices s ON s.thread_id = t.id", TRUE },
  { "SELECT t.name, p.name, count(*), sum(s.dur), sum(t.tid + p.pid) FROM slices s"
    " JOIN threads t ON t.id = s.thread_id JOIN processes p ON p.id = t.process_id"
    " GROUP BY t.name, p.name ORDER BY 1, 2", TRUE },
  { "SELECT k.name, k.kind, count(*), max(s.depth) FROM slices s JOIN tracks k ON k.id = s.track_id"
    " GROUP BY k.id ORDER BY k.id", TRUE },
  { "SELECT sum(dur), sum(thread_id), count(*) FROM slices", TRUE },
  { "SELECT track_id, count(*), sum(dur) FROM slices GROUP BY track_id", TRUE },
  { "SELECT count(*), sum(dur), min(id), max(id) FROM slices WHERE track_id = (SELECT track_id FROM slices WHERE id = 0)", TRUE },
  { "SELECT count(*), sum(dur), min(id), max(id) FROM slices WHERE thread_id = (SELECT thread_id FROM slices WHERE id = 0)", TRUE },
  { "SELECT count(*), sum(ts), min(id), max(id) FROM instants", TRUE },
  { "SELECT count(*) AS n FROM frames", TRUE },
};

/* Returns how many of the cases found rows */
static guint
check_cases (SpsTrace *trace)
{
  g_autoptr(SpsSqlEngine) engine = engine_with_copies (trace);
  guint non_empty = 0;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *copy_sql = on_copies (cases[i].sql);
      g_autoptr(SpsSqlResult) a = sps_test_sql_query (engine, cases[i].sql);
      g_autoptr(SpsSqlResult) b = sps_test_sql_query (engine, copy_sql);
      g_autofree char *dump_a = sps_test_sql_dump (a);
      g_autofree char *dump_b = sps_test_sql_dump (b);

      g_test_message ("%s: %u rows", cases[i].sql, sps_sql_result_get_n_rows (a));
      if (cases[i].ordered)
        g_assert_cmpstr (dump_a, ==, dump_b);
      else
        {
          g_autofree char *sorted_a = sorted (dump_a);
          g_autofree char *sorted_b = sorted (dump_b);

          g_assert_cmpstr (sorted_a, ==, sorted_b);
        }
      g_assert_cmpstr (sps_sql_result_get_column_name (a, 0), ==, sps_sql_result_get_column_name (b, 0));
      non_empty += sps_sql_result_get_n_rows (a) > 0;
    }

  return non_empty;
}

/* Two processes of three threads, nested slices with a stack each, async
 * slices, instants, counters, and samples over a callsite tree */
static SpsTrace *
generate_trace (guint32 seed)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  g_autoptr(GRand) rng = g_rand_new_with_seed (seed);
  static const char * const words[] = { "alpha", "beta", "gamma", "delta", "epsilon", "main" };
  guint32 names[G_N_ELEMENTS (words)];
  guint32 callsites[8];

  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    names[i] = sps_trace_builder_intern (b, words[i], -1);
  for (guint i = 0; i < G_N_ELEMENTS (callsites); i++)
    callsites[i] = sps_trace_builder_intern_callsite (b, i == 0 ? SPS_NO_INDEX : callsites[(i - 1) / 2],
                                                      sps_trace_builder_intern_frame (b, names[i % 6], 0, 0, i));

  for (guint p = 0; p < 2; p++)
    {
      guint32 process = sps_trace_builder_ensure_process (b, 10 + p);
      guint32 counter = sps_trace_builder_ensure_counter_track (b, process, names[p], 0);

      for (guint t = 0; t < 3; t++)
        {
          guint32 thread = sps_trace_builder_ensure_thread (b, process, 100 * (p + 1) + t);
          SpsTime now = g_rand_int_range (rng, 0, 1000);

          for (guint i = 0; i < 300; i++)
            {
              SpsTime dur = g_rand_int_range (rng, 50, 5000);
              SpsTime child = now + 5;

              sps_trace_builder_add_complete (b, thread, now, dur, names[g_rand_int_range (rng, 0, 6)],
                                              0, SPS_ARGS_REF_NONE, 0);
              while (child + 20 < now + dur && g_rand_int_range (rng, 0, 3) > 0)
                {
                  SpsTime cdur = g_rand_int_range (rng, 0, (gint32) MIN (now + dur - child, 800));

                  sps_trace_builder_add_complete (b, thread, child, cdur, names[g_rand_int_range (rng, 0, 6)],
                                                  0, SPS_ARGS_REF_NONE, 0);
                  child += cdur + 3;
                }
              now += dur + g_rand_int_range (rng, 0, 200);
            }
          for (guint i = 0; i < 60; i++)
            {
              sps_trace_builder_add_instant (b, SPS_INSTANT_KIND_INSTANT, SPS_INSTANT_SCOPE_THREAD,
                                             process, thread, g_rand_int_range (rng, 0, 800000),
                                             names[i % 6], 0, SPS_ARGS_REF_NONE);
              sps_trace_builder_add_sample (b, thread, g_rand_int_range (rng, 0, 800000), names[i % 6],
                                            callsites[g_rand_int_range (rng, 0, 8)], 0, 1,
                                            SPS_WEIGHT_UNIT_MS, SPS_SAMPLE_HAS_WEIGHT);
            }
        }

      for (guint i = 0; i < 50; i++)
        {
          SpsTime ts = g_rand_int_range (rng, 0, 800000);

          sps_trace_builder_add_async (b, SPS_ASYNC_BEGIN, process, i, ts, names[i % 6], 0, SPS_ARGS_REF_NONE);
          sps_trace_builder_add_async (b, SPS_ASYNC_END, process, i, ts + g_rand_int_range (rng, 1, 9000),
                                       names[i % 6], 0, SPS_ARGS_REF_NONE);
          sps_trace_builder_add_counter_value (b, counter, i * 1000, g_rand_double (rng));
        }
    }

  return sps_trace_builder_finish (b, NULL, NULL);
}

static void
test_generated (void)
{
  for (guint32 seed = 1; seed <= 3; seed++)
    {
      g_autoptr(SpsTrace) trace = generate_trace (seed);

      /* 2 processes × 3 threads × 300 top-level slices, plus children and
       * 2 × 50 async slices */
      g_assert_cmpuint (sps_trace_get_slices (trace)->n_rows, >, 2 * 3 * 300 + 100);
      /* The comparisons compared something: on this trace only the cases
       * on NULL, strings that are not there and slice stacks find nothing */
      g_assert_cmpuint (check_cases (trace), >, G_N_ELEMENTS (cases) * 3 / 4);
    }
}

static void
test_fixtures (void)
{
  /* Slices with stacks, flows, samples, objects: the key columns that the
   * generated trace leaves NULL */
  static const char * const fixtures[] = {
    "cli-small.json", "chrome-slice-stacks.json", "chrome-perf-samples.json",
    "chrome-phase-flow.json", "chrome-phase-object.json", "chrome-phase-async.json",
  };

  for (guint i = 0; i < G_N_ELEMENTS (fixtures); i++)
    {
      g_autoptr(SpsTrace) trace = sps_test_load_fixture (fixtures[i]);

      g_test_message ("%s", fixtures[i]);
      check_cases (trace);
    }
}

/* The plans really are the optimised ones (else the comparisons above
 * would compare SQLite with itself) */
static void
test_plans (void)
{
  static const struct { const char *sql; const char *plan; } plans[] = {
    { "SELECT * FROM slices WHERE parent_id = 3", "parent_id=" },
    { "SELECT * FROM slices WHERE process_id = 1", "process_id=" },
    { "SELECT * FROM samples WHERE callsite_id = 1", "callsite_id=" },
    { "SELECT * FROM callsites WHERE frame_id = 1", "frame_id=" },
    { "SELECT * FROM tracks WHERE thread_id = 1", "thread_id=" },
    { "SELECT * FROM threads WHERE name = 'x'", "name=" },
    { "SELECT name FROM threads ORDER BY name", "by name" },
    /* The small table outside, in name order, the slices by thread inside:
     * no sorter for GROUP BY t.name */
    { "SELECT t.name, count(*) FROM slices s JOIN threads t ON s.thread_id = t.id GROUP BY t.name",
      "SCAN t VIRTUAL TABLE INDEX 8192:by name\nSCAN s VIRTUAL TABLE INDEX 4:thread_id=" },
    /* PLAN_KEY_EQ (16384) with the column, process_id = 8, from bit 16 */
    { "SELECT sum(s.dur) FROM slices s JOIN processes p ON p.id = s.process_id",
      "SCAN s VIRTUAL TABLE INDEX 540672:process_id=" },
    { "SELECT sum(s.dur) FROM slices s CROSS JOIN threads t WHERE t.id = s.thread_id",
      "SCAN t VIRTUAL TABLE INDEX 1:id=" },
  };
  g_autoptr(SpsTrace) trace = generate_trace (7);
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsSqlEngine) engine = sps_sql_engine_new (trace, &error);

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (plans); i++)
    {
      g_autofree char *sql = g_strconcat ("EXPLAIN QUERY PLAN ", plans[i].sql, NULL);
      g_autoptr(SpsSqlResult) result = sps_test_sql_query (engine, sql);
      GString *details = g_string_new (NULL);
      g_autofree char *text = NULL;

      for (guint row = 0; row < sps_sql_result_get_n_rows (result); row++)
        g_string_append_printf (details, "%s\n", sps_sql_result_get_text (result, row, 3));
      text = g_string_free (details, FALSE);
      g_test_message ("%s → %s", plans[i].sql, text);
      g_assert_nonnull (strstr (text, plans[i].plan));
      g_assert_null (strstr (text, "TEMP B-TREE"));
    }
}

/* count(*) from the row count only for the trace's own table: a temporary
 * table or view of the same name hides it */
static void
test_count_hidden (void)
{
  g_autoptr(SpsTrace) trace = generate_trace (2);
  g_autoptr(SpsSqlEngine) engine = engine_with_copies (trace);
  g_autoptr(SpsSqlResult) created = sps_test_sql_query (engine, "CREATE TEMP VIEW threads AS SELECT 1 AS x");
  g_autoptr(SpsSqlResult) hidden = sps_test_sql_query (engine, "SELECT count(*) FROM threads");
  g_autoptr(SpsSqlResult) own = sps_test_sql_query (engine, "SELECT count(*) FROM main.threads");

  /* The view has one row; the trace 2 processes × 3 threads */
  g_assert_cmpint (sps_sql_result_get_int64 (hidden, 0, 0), ==, 1);
  g_assert_cmpint (sps_sql_result_get_int64 (own, 0, 0), ==, 6);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/sql-index/generated", test_generated);
  g_test_add_func ("/sql-index/fixtures", test_fixtures);
  g_test_add_func ("/sql-index/plans", test_plans);
  g_test_add_func ("/sql-index/count-hidden", test_count_hidden);

  return g_test_run ();
}
