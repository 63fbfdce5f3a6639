/* test-sql.c: the SQL engine's virtual tables, plans, errors and CSV
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Hand-checked values come from tests/fixtures/cli-small.json and
 * tests/fixtures/sampled_stacks.json (timestamps in µs in the files, ns in
 * SQL); each comment says how the number follows from the file. Tables are
 * also compared cell by cell with the model's columns on every fixture, and
 * every constrained plan is compared with the same query whose constraint
 * is hidden from xBestIndex by a unary `+` (a full scan).
 */

#define G_LOG_DOMAIN "sps-test-sql"

#include "config.h"

#include <math.h>
#include <string.h>

#include <spanscope-core.h>

#include "sps-test-util.h"

/* Helpers */

static SpsSqlEngine *
new_engine (SpsTrace *trace)
{
  g_autoptr(GError) error = NULL;
  SpsSqlEngine *engine = sps_sql_engine_new (trace, &error);

  g_assert_no_error (error);
  g_assert_nonnull (engine);
  return engine;
}

static SpsSqlResult *
query (SpsSqlEngine *engine,
       const char   *sql)
{
  return sps_test_sql_query (engine, sql);
}

static gint64
query_int (SpsSqlEngine *engine,
           const char   *sql)
{
  g_autoptr(SpsSqlResult) result = query (engine, sql);

  g_assert_cmpuint (sps_sql_result_get_n_rows (result), ==, 1);
  g_assert_cmpint (sps_sql_result_get_value_type (result, 0, 0), ==, SPS_SQL_TYPE_INTEGER);
  return sps_sql_result_get_int64 (result, 0, 0);
}

static char *
query_text (SpsSqlEngine *engine,
            const char   *sql)
{
  g_autoptr(SpsSqlResult) result = query (engine, sql);

  g_assert_cmpuint (sps_sql_result_get_n_rows (result), ==, 1);
  return sps_sql_result_dup_display_text (result, 0, 0);
}

static void
assert_query_fails (SpsSqlEngine *engine,
                    const char   *sql,
                    SpsSqlError   code,
                    const char   *message)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsSqlResult) result = sps_sql_engine_query (engine, sql, NULL, NULL, &error);

  g_assert_null (result);
  g_assert_error (error, SPS_SQL_ERROR, (int) code);
  if (message != NULL)
    g_assert_cmpstr (error->message, ==, message);
}

/* Every cell of both results, as text; NULL as "∅" */
static char *
dump_result (SpsSqlResult *result)
{
  return sps_test_sql_dump (result);
}

/* The row of @table whose id is @id as "a|b|…", from SQL */
static char *
sql_row (SpsSqlEngine *engine,
         const char   *columns,
         const char   *table,
         guint         id)
{
  g_autofree char *sql = g_strdup_printf ("SELECT %s FROM %s WHERE id = %u", columns, table, id);
  g_autoptr(SpsSqlResult) result = query (engine, sql);

  g_assert_cmpuint (sps_sql_result_get_n_rows (result), ==, 1);
  return g_strchomp (dump_result (result));
}

static const char *
str_or_null (SpsTrace *trace,
             guint32   id)
{
  return id == 0 ? "∅" : sps_trace_get_string (trace, id);
}

static char *
index_text (guint32 index)
{
  return index == SPS_NO_INDEX ? g_strdup ("∅") : g_strdup_printf ("%u", index);
}

/* Compares every table with the model's columns, cell by cell, through
 * one full scan per table. */
static void
check_tables_match_model (SpsTrace     *trace,
                          SpsSqlEngine *engine)
{
  const SpsProcessTable *processes = sps_trace_get_processes (trace);
  const SpsThreadTable *threads = sps_trace_get_threads (trace);
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  const SpsInstantTable *instants = sps_trace_get_instants (trace);
  const SpsCounterTable *counters = sps_trace_get_counters (trace);
  const SpsFlowTable *flows = sps_trace_get_flows (trace);
  const SpsSampleTable *samples = sps_trace_get_samples (trace);
  const SpsCallsiteTable *callsites = sps_trace_get_callsites (trace);
  const SpsFrameTable *frames = sps_trace_get_frames (trace);
  const SpsObjectTable *objects = sps_trace_get_objects (trace);
  g_autoptr(GString) expected = g_string_new (NULL);
  g_autoptr(SpsSqlResult) result = NULL;
  g_autofree char *got = NULL;

#define CHECK(sql) \
  G_STMT_START { \
    g_clear_object (&result); \
    g_clear_pointer (&got, g_free); \
    result = query (engine, sql); \
    got = dump_result (result); \
    g_assert_cmpstr (got, ==, expected->str); \
    g_string_truncate (expected, 0); \
  } G_STMT_END

  for (guint i = 0; i < processes->n_rows; i++)
    g_string_append_printf (expected, "%u|%" G_GINT64_FORMAT "|%s\n",
                            i, processes->pid[i], sps_trace_get_string (trace, processes->name[i]));
  CHECK ("SELECT id, pid, name FROM processes");

  for (guint i = 0; i < threads->n_rows; i++)
    g_string_append_printf (expected, "%u|%u|%" G_GINT64_FORMAT "|%s\n",
                            i, threads->process[i], threads->tid[i],
                            sps_trace_get_string (trace, threads->name[i]));
  CHECK ("SELECT id, process_id, tid, name FROM threads");

  for (guint i = 0; i < tracks->n_rows; i++)
    {
      g_autofree char *process = index_text (tracks->process[i]);
      g_autofree char *thread = index_text (tracks->thread[i]);

      g_string_append_printf (expected, "%u|%s|%s|%s|%u\n", i, process, thread,
                              sps_trace_get_string (trace, tracks->name[i]),
                              tracks->n_rows_in_track[i]);
    }
  CHECK ("SELECT id, process_id, thread_id, name, row_count FROM tracks");

  for (guint i = 0; i < slices->n_rows; i++)
    {
      g_autofree char *parent = index_text (slices->parent[i]);
      g_autofree char *thread = index_text (tracks->thread[slices->track[i]]);
      gsize len = 0;
      const char *args = slices->args[i] == SPS_ARGS_REF_NONE ? NULL
                         : sps_trace_get_args_json (trace, slices->args[i], &len);

      gboolean sampled = (slices->flags[i] & SPS_SLICE_SAMPLED) != 0;
      /* A sampled span's dur and self_time are NULL: its interval is an
       * estimate (in estimated_cpu_time), not a measurement */
      g_autofree char *dur = sampled ? g_strdup ("∅") : g_strdup_printf ("%" G_GINT64_FORMAT, slices->dur[i]);
      g_autofree char *self = sampled ? g_strdup ("∅") : g_strdup_printf ("%" G_GINT64_FORMAT, slices->self_time[i]);

      g_string_append_printf (expected,
                              "%u|%" G_GINT64_FORMAT "|%s|%" G_GINT64_FORMAT
                              "|%s|%s|%u|%s|%s|%u|%s|%s|",
                              i, slices->ts[i], dur, slices->ts[i] + slices->dur[i],
                              sps_trace_get_string (trace, slices->name[i]),
                              str_or_null (trace, slices->category[i]),
                              slices->track[i], thread, parent, slices->depth[i],
                              self, sampled ? "sampled_span" : "measured");
      if (args != NULL)
        g_string_append_len (expected, args, (gssize) len);
      else
        g_string_append (expected, "∅");
      g_string_append_c (expected, '\n');
    }
  CHECK ("SELECT id, ts, dur, end_ts, name, category, track_id, thread_id, parent_id, depth,"
         " self_time, kind, args FROM slices");

  for (guint i = 0; i < instants->n_rows; i++)
    g_string_append_printf (expected, "%u|%" G_GINT64_FORMAT "|%s|%u\n",
                            i, instants->ts[i], sps_trace_get_string (trace, instants->name[i]),
                            instants->track[i]);
  CHECK ("SELECT id, ts, name, track_id FROM instants");

  for (guint i = 0; i < counters->n_rows; i++)
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];

      g_ascii_dtostr (buf, sizeof buf, counters->value[i]);
      g_string_append_printf (expected, "%u|%" G_GINT64_FORMAT "|%s%s|%u\n",
                              i, counters->ts[i],
                              isnan (counters->value[i]) ? "∅" : buf,
                              isnan (counters->value[i]) || strpbrk (buf, ".eEn") != NULL ? "" : ".0",
                              counters->track[i]);
    }
  CHECK ("SELECT id, ts, value, track_id FROM counters");

  for (guint i = 0; i < flows->n_rows; i++)
    {
      g_autofree char *from = index_text (flows->from_slice[i]);
      g_autofree char *to = index_text (flows->to_slice[i]);

      g_string_append_printf (expected, "%u|%s|%s|%s\n", i, from, to,
                              sps_trace_get_string (trace, flows->name[i]));
    }
  CHECK ("SELECT id, from_slice_id, to_slice_id, name FROM flows");

  for (guint i = 0; i < samples->n_rows; i++)
    {
      g_autofree char *thread = index_text (samples->thread[i]);
      g_autofree char *callsite = index_text (samples->callsite[i]);

      g_string_append_printf (expected, "%u|%" G_GINT64_FORMAT "|%s|%s|%s|%s\n",
                              i, samples->ts[i], thread, callsite,
                              sps_trace_get_string (trace, samples->name[i]),
                              str_or_null (trace, sps_sample_table_get_raw_stack_ref (samples, i)));
    }
  CHECK ("SELECT id, ts, thread_id, callsite_id, name, sf FROM samples");

  for (guint i = 0; i < callsites->n_rows; i++)
    {
      g_autofree char *parent = index_text (callsites->parent[i]);

      g_string_append_printf (expected, "%u|%s|%u|%u|%s\n", i, parent, callsites->frame[i],
                              callsites->depth[i],
                              sps_trace_get_string (trace, frames->name[callsites->frame[i]]));
    }
  CHECK ("SELECT id, parent_id, frame_id, depth, name FROM callsites");

  for (guint i = 0; i < frames->n_rows; i++)
    g_string_append_printf (expected, "%u|%s|%s\n", i,
                            sps_trace_get_string (trace, frames->name[i]),
                            str_or_null (trace, frames->category[i]));
  CHECK ("SELECT id, name, category FROM frames");

  for (guint i = 0; i < objects->n_rows; i++)
    g_string_append_printf (expected, "%u|%" G_GINT64_FORMAT "|%s\n", i, objects->ts[i],
                            sps_trace_get_string (trace, objects->name[i]));
  CHECK ("SELECT id, ts, name FROM objects");

#undef CHECK
}

/* A trace made with the builder: three threads of nested slices over
 * several blocks of the range index (one thread under a root that spans
 * everything), async slices, instants, counters and samples, names drawn
 * from a few. */
static SpsTrace *
build_trace (guint32 seed)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  g_autoptr(GRand) rng = g_rand_new_with_seed (seed);
  guint32 process = sps_trace_builder_ensure_process (b, 42);
  guint32 names[4];
  guint32 frames[3];
  guint32 callsites[3];
  guint32 counter;

  names[0] = sps_trace_builder_intern (b, "alpha", -1);
  names[1] = sps_trace_builder_intern (b, "beta", -1);
  names[2] = sps_trace_builder_intern (b, "gamma", -1);
  names[3] = sps_trace_builder_intern (b, "delta", -1);

  for (guint t = 0; t < 3; t++)
    {
      guint32 thread = sps_trace_builder_ensure_thread (b, process, 100 + t);
      SpsTime now = 0;

      if (t == 1)
        sps_trace_builder_add_complete (b, thread, -10, 100000000, names[3], 0, SPS_ARGS_REF_NONE, 0);

      for (guint i = 0; i < 500; i++)
        {
          SpsTime dur = g_rand_int_range (rng, 100, 5000);
          SpsTime child = now + 10;

          sps_trace_builder_add_complete (b, thread, now, dur, names[g_rand_int_range (rng, 0, 4)],
                                          0, SPS_ARGS_REF_NONE, 0);
          /* Children inside the parent, one after the other */
          while (child + 40 < now + dur && g_rand_boolean (rng))
            {
              SpsTime cdur = g_rand_int_range (rng, 0, (gint32) MIN (now + dur - child, 2000));

              sps_trace_builder_add_complete (b, thread, child, cdur, names[g_rand_int_range (rng, 0, 4)],
                                              0, SPS_ARGS_REF_NONE, 0);
              child += cdur + 5;
            }
          now += dur + g_rand_int_range (rng, 0, 300);
        }

      for (guint i = 0; i < 100; i++)
        sps_trace_builder_add_instant (b, SPS_INSTANT_KIND_INSTANT, SPS_INSTANT_SCOPE_THREAD,
                                       process, thread, g_rand_int_range (rng, 0, 1000000),
                                       names[i % 4], 0, SPS_ARGS_REF_NONE);
    }

  for (guint i = 0; i < 200; i++)
    {
      SpsTime ts = g_rand_int_range (rng, 0, 1000000);

      sps_trace_builder_add_async (b, SPS_ASYNC_BEGIN, process, i, ts, names[i % 4], 0, SPS_ARGS_REF_NONE);
      sps_trace_builder_add_async (b, SPS_ASYNC_END, process, i, ts + g_rand_int_range (rng, 0, 50000),
                                   names[i % 4], 0, SPS_ARGS_REF_NONE);
    }

  counter = sps_trace_builder_ensure_counter_track (b, process, names[0], 0);
  for (guint i = 0; i < 300; i++)
    sps_trace_builder_add_counter_value (b, counter, i * 1000, g_rand_double (rng));

  frames[0] = sps_trace_builder_intern_frame (b, names[0], 0, 0, 0);
  frames[1] = sps_trace_builder_intern_frame (b, names[1], 0, 0, 0);
  frames[2] = sps_trace_builder_intern_frame (b, names[2], 0, 0, 0);
  callsites[0] = sps_trace_builder_intern_callsite (b, SPS_NO_INDEX, frames[0]);
  callsites[1] = sps_trace_builder_intern_callsite (b, callsites[0], frames[1]);
  callsites[2] = sps_trace_builder_intern_callsite (b, callsites[0], frames[2]);
  for (guint i = 0; i < 400; i++)
    sps_trace_builder_add_sample (b, i % 2, g_rand_int_range (rng, 0, 1000000), names[i % 3],
                                  callsites[i % 3], 0, 10, SPS_WEIGHT_UNIT_US, SPS_SAMPLE_HAS_WEIGHT);

  return sps_trace_builder_finish (b, NULL, NULL);
}

/* Tests */

/* cli-small.json, by hand: 2 X on tid 1/2 (main, job), 1 B/E pair (inner),
 * 1 X whose category holds sampleEvent (hot), 1 b/e pair (fetch) = 5
 * slices; the E at 145 on tid 2 has no B. i + R + n = 3 instants; C with two
 * series at two times = 4 values on 2 tracks; s→f = 1 flow; 1 P; frames 1
 * and 2 = 2 frames and 2 callsites; N/O/D = 3 objects; 1 process, 2
 * threads. */
static void
test_counts_cli_small (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("cli-small.json");
  g_autoptr(SpsSqlEngine) engine = new_engine (trace);

  g_assert_cmpint (query_int (engine, "SELECT count(*) FROM slices"), ==, 5);
  g_assert_cmpint (query_int (engine, "SELECT count(*) FROM instants"), ==, 3);
  g_assert_cmpint (query_int (engine, "SELECT count(*) FROM counters"), ==, 4);
  g_assert_cmpint (query_int (engine, "SELECT count(*) FROM tracks WHERE kind = 'counter'"), ==, 2);
  g_assert_cmpint (query_int (engine, "SELECT count(*) FROM flows"), ==, 1);
  g_assert_cmpint (query_int (engine, "SELECT count(*) FROM samples"), ==, 1);
  g_assert_cmpint (query_int (engine, "SELECT count(*) FROM frames"), ==, 2);
  g_assert_cmpint (query_int (engine, "SELECT count(*) FROM callsites"), ==, 2);
  g_assert_cmpint (query_int (engine, "SELECT count(*) FROM objects"), ==, 3);
  g_assert_cmpint (query_int (engine, "SELECT count(*) FROM processes"), ==, 1);
  g_assert_cmpint (query_int (engine, "SELECT count(*) FROM threads"), ==, 2);

  check_tables_match_model (trace, engine);
}

/* Spot values of cli-small.json, by hand (µs × 1000 = ns) */
static void
test_slices_spot (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("cli-small.json");
  g_autoptr(SpsSqlEngine) engine = new_engine (trace);
  g_autofree char *main_row = NULL;
  g_autofree char *inner_row = NULL;
  g_autofree char *hot_row = NULL;
  g_autofree char *fetch_row = NULL;
  g_autofree char *expected_inner = NULL;
  gint64 main_id;
  gint64 id;

  /* main: X ts 100 dur 50 on tid 1, args {"n": 1}; inner (110–120) is its
   * only child, so self time 50 − 10 = 40 µs. */
  main_id = query_int (engine, "SELECT id FROM slices WHERE name = 'main'");
  main_row = sql_row (engine,
                      "ts, dur, end_ts, category, depth, parent_id, self_time, kind, args,"
                      " async, unfinished, sample_count, estimated_cpu_time",
                      "slices", (guint) main_id);
  g_assert_cmpstr (main_row, ==, "100000|50000|150000|app|0|∅|40000|measured|{\"n\": 1}|0|0|∅|∅");

  id = query_int (engine, "SELECT id FROM slices WHERE name = 'inner'");
  inner_row = sql_row (engine, "ts, dur, depth, parent_id, self_time", "slices", (guint) id);
  expected_inner = g_strdup_printf ("110000|10000|1|%" G_GINT64_FORMAT "|10000", main_id);
  g_assert_cmpstr (inner_row, ==, expected_inner);
  /* main and inner are on tid 1, whose thread row has tid 1 */
  g_assert_cmpint (query_int (engine,
                              "SELECT t.tid FROM slices s JOIN threads t ON t.id = s.thread_id"
                              " WHERE s.name = 'inner'"), ==, 1);

  /* hot: X 150–154 with category cpu,sampleEvent: a converted span whose
   * interval is the CPU estimate, with no original sample count; its dur
   * and self_time are NULL, so duration queries leave it out */
  id = query_int (engine, "SELECT id FROM slices WHERE name = 'hot'");
  hot_row = sql_row (engine,
                     "dur, self_time, kind, sample_count, sample_weight, weight_unit,"
                     " estimated_cpu_time, estimated_self_cpu_time, sf",
                     "slices", (guint) id);
  g_assert_cmpstr (hot_row, ==, "∅|∅|sampled_span|∅|∅|∅|4000|4000|∅");

  /* fetch: b at 102, e at 155, category net, async, no thread */
  id = query_int (engine, "SELECT id FROM slices WHERE name = 'fetch'");
  fetch_row = sql_row (engine, "ts, dur, category, thread_id, process_id, async", "slices", (guint) id);
  g_assert_cmpstr (fetch_row, ==, "102000|53000|net|∅|0|1");

  /* The events view: slices and samples told apart by kind. By hand:
   * main, inner, job, fetch measured; hot a converted span; one P */
  {
    g_autoptr(SpsSqlResult) kinds = query (engine,
                                           "SELECT kind, count(*), sum(dur), sum(sample_count),"
                                           " sum(estimated_cpu_time) FROM events GROUP BY kind");
    g_autoptr(SpsSqlResult) plan = query (engine,
                                          "EXPLAIN QUERY PLAN SELECT count(*) FROM events"
                                          " WHERE ts >= 100000 AND ts < 140000");
    g_autofree char *dump = dump_result (kinds);
    g_autofree char *plan_dump = dump_result (plan);
    const char *first;

    g_assert_cmpstr (dump, ==,
                     "measured|4|143000|∅|∅\n"
                     "sample|1|∅|1|∅\n"
                     "sampled_span|1|∅|∅|4000\n");
    /* the range reaches both virtual tables */
    first = strstr (plan_dump, "ts>= ts<=");
    g_assert_nonnull (first);
    g_assert_nonnull (strstr (first + 1, "ts>= ts<="));
    /* main (100), fetch (102), inner (110), job (130) and the P at 134
     * start in [100, 140) µs */
    g_assert_cmpint (query_int (engine, "SELECT count(*) FROM events WHERE ts >= 100000 AND ts < 140000"),
                     ==, 5);
  }

  /* Grouping by kind keeps converted spans apart */
  g_assert_cmpint (query_int (engine, "SELECT count(*) FROM slices WHERE kind = 'sampled_span'"), ==, 1);
  g_assert_cmpint (query_int (engine, "SELECT sum(dur) FROM slices WHERE kind = 'measured'"),
                   ==, 50000 + 10000 + 30000 + 53000);
}

static void
test_other_tables_spot (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("cli-small.json");
  g_autoptr(SpsSqlEngine) engine = new_engine (trace);
  g_autoptr(SpsSqlResult) result = NULL;
  g_autofree char *dump = NULL;
  g_autofree char *text = NULL;

  /* Instants by (track, ts): tick (i, s=t) and mark (R) on tid 1's track,
   * then progress (n, async, process-scoped) */
  result = query (engine, "SELECT ts, name, scope, kind, category FROM instants");
  dump = dump_result (result);
  g_assert_cmpstr (dump, ==,
                   "105000|tick|thread|instant|∅\n"
                   "106000|mark|thread|mark|∅\n"
                   "125000|progress|process|async|net\n");
  g_clear_object (&result);
  g_clear_pointer (&dump, g_free);

  /* C "mem" {heap, stack} at 100 and 150 */
  result = query (engine, "SELECT ts, value, name, series FROM counters ORDER BY series, ts");
  dump = dump_result (result);
  g_assert_cmpstr (dump, ==,
                   "100000|10.0|mem|heap\n"
                   "150000|12.0|mem|heap\n"
                   "100000|2.0|mem|stack\n"
                   "150000|3.0|mem|stack\n");
  g_clear_object (&result);
  g_clear_pointer (&dump, g_free);

  /* s at 115 on tid 1 binds to the enclosing inner, f (bp e) at 140 on
   * tid 2 to the enclosing job */
  result = query (engine,
                  "SELECT a.name, b.name, f.name, f.category FROM flows f"
                  " JOIN slices a ON a.id = f.from_slice_id JOIN slices b ON b.id = f.to_slice_id");
  dump = dump_result (result);
  g_assert_cmpstr (dump, ==, "inner|job|req|flow\n");
  g_clear_object (&result);
  g_clear_pointer (&dump, g_free);

  /* P at 134 on tid 2, sf 2 = work (parent main) */
  result = query (engine,
                  "SELECT s.ts, s.frame, s.sf, s.kind, s.sample_count, s.dur, s.self_time, c.depth,"
                  " p.name FROM samples s JOIN callsites c ON c.id = s.callsite_id"
                  " JOIN callsites p ON p.id = c.parent_id");
  dump = dump_result (result);
  g_assert_cmpstr (dump, ==, "134000|work|2|sample|1|∅|∅|1|main\n");
  g_clear_object (&result);
  g_clear_pointer (&dump, g_free);

  /* N at 101, O at 120 with args {"snapshot": {"v": 1}}, D at 158 */
  result = query (engine, "SELECT ts, phase, name FROM objects ORDER BY ts");
  dump = dump_result (result);
  g_assert_cmpstr (dump, ==, "101000|created|Obj\n120000|snapshot|Obj\n158000|destroyed|Obj\n");
  g_clear_object (&result);
  g_clear_pointer (&dump, g_free);

  /* M process_name / thread_name */
  text = query_text (engine, "SELECT name || ':' || pid FROM processes");
  g_assert_cmpstr (text, ==, "cli-small:1");
  g_clear_pointer (&text, g_free);
  text = query_text (engine, "SELECT group_concat(tid || '=' || name, ',') FROM (SELECT * FROM threads ORDER BY tid)");
  g_assert_cmpstr (text, ==, "1=,2=worker");
}

/* sampled_stacks.json: tid 11 has sf "2" (work) at 100 with 250 us and sf
 * 1 (main) at 10000 with 500 us; tid 12 has sf "2" at 4000 with no weight. */
static void
test_samples_spot (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("sampled_stacks.json");
  g_autoptr(SpsSqlEngine) engine = new_engine (trace);
  g_autoptr(SpsSqlResult) result = NULL;
  g_autofree char *dump = NULL;

  result = query (engine,
                  "SELECT s.ts, t.tid, s.frame, s.sf, s.sample_weight, s.weight_unit,"
                  " s.estimated_cpu_time, s.estimated_self_cpu_time, s.dur, s.self_time, s.kind"
                  " FROM samples s JOIN threads t ON t.id = s.thread_id ORDER BY s.ts");
  dump = dump_result (result);
  g_assert_cmpstr (dump, ==,
                   "100000|11|work|2|250.0|us|250000|250000|∅|∅|sample\n"
                   "4000000|12|work|2|∅|∅|∅|∅|∅|∅|sample\n"
                   "10000000|11|main|1|500.0|us|500000|500000|∅|∅|sample\n");

  /* Frames main (app) and work (app) */
  g_assert_cmpint (query_int (engine, "SELECT count(*) FROM frames WHERE category = 'app'"), ==, 2);
  check_tables_match_model (trace, engine);
}

static void
test_fixtures_match_model (void)
{
  static const char * const fixtures[] = {
    "chrome-phase-async.json", "chrome-phase-be.json", "chrome-phase-counter.json",
    "chrome-phase-flow.json", "chrome-phase-flow-v2.json", "chrome-phase-instant.json",
    "chrome-phase-legacy-async.json", "chrome-phase-object.json", "chrome-phase-sample.json",
    "chrome-phase-x.json", "perfview_spans.json", "sampled_unresolved.json",
    "chrome-object-form.json", "chrome-trailing-commas.json",
  };

  for (guint i = 0; i < G_N_ELEMENTS (fixtures); i++)
    {
      g_autoptr(SpsTrace) trace = sps_test_load_fixture (fixtures[i]);
      g_autoptr(SpsSqlEngine) engine = new_engine (trace);

      g_test_message ("%s", fixtures[i]);
      check_tables_match_model (trace, engine);
    }
}

static void
test_shared_fixtures (void)
{
  static const char * const files[] = {
    "catapult__flow_simple.json",
    "speedscope__hermes-multi-thread-with-samples.json",
    "catapult__nestable_async.json",
  };
  const char *shared = g_getenv ("SPANSCOPE_SHARED_FIXTURES");

  if (shared == NULL || *shared == '\0')
    {
      g_test_skip ("SPANSCOPE_SHARED_FIXTURES is not set: no real Chrome JSON files to query");
      return;
    }

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = g_build_filename (shared, "chrome", files[i], NULL);
      g_autoptr(GFile) file = g_file_new_for_path (path);
      g_autoptr(GError) error = NULL;
      g_autoptr(SpsTrace) trace = NULL;
      g_autoptr(SpsSqlEngine) engine = NULL;

      if (!g_file_test (path, G_FILE_TEST_EXISTS))
        {
          g_test_skip_printf ("shared fixture %s does not exist", path);
          return;
        }

      trace = sps_trace_load (file, NULL, NULL, SPS_LOAD_FLAGS_NONE, NULL, NULL, &error);
      g_assert_no_error (error);
      engine = new_engine (trace);
      g_test_message ("%s", files[i]);
      check_tables_match_model (trace, engine);

      /* flow_simple, by hand: 5 X; flow 8780d402 is s (in SenderA at
       * 3002) → t (in OtherSlice, 3200–3700) → f at 3330 without bp=e,
       * bound to the next slice, SomeSlice at 3331: 2 arrows; 8780d403 is
       * s in SenderB → f (bp e absent, next slice Blergh at 1001): 1 */
      if (i == 0)
        {
          g_autoptr(SpsSqlResult) flows = NULL;
          g_autofree char *dump = NULL;

          g_assert_cmpint (query_int (engine, "SELECT count(*) FROM slices"), ==, 5);
          flows = query (engine,
                         "SELECT a.name, b.name FROM flows f JOIN slices a ON a.id = f.from_slice_id"
                         " JOIN slices b ON b.id = f.to_slice_id ORDER BY 1");
          dump = dump_result (flows);
          g_assert_cmpstr (dump, ==, "OtherSlice|SomeSlice\nSenderA|OtherSlice\nSenderB|Blergh\n");
        }
    }
}

/* Each query is run twice: as written (its constraints reach xBestIndex;
 * the plan must show @plan) and with every `@` replaced by a unary `+`,
 * which hides the column from xBestIndex and gives a full scan. */
typedef struct
{
  const char *sql;
  const char *plan;           /* in EXPLAIN QUERY PLAN's detail; NULL: none */
  guint       min_rows;       /* the constrained query returns at least these */
} PlanCase;

static char *
expand (const char *sql,
        gboolean    hidden)
{
  GString *out = g_string_new (NULL);

  for (const char *p = sql; *p != '\0'; p++)
    {
      if (*p == '@')
        {
          if (hidden)
            g_string_append_c (out, '+');
        }
      else
        g_string_append_c (out, *p);
    }
  return g_string_free (out, FALSE);
}

static void
check_plan_cases (SpsSqlEngine   *engine,
                  const PlanCase *cases,
                  guint           n_cases)
{
  for (guint i = 0; i < n_cases; i++)
    {
      g_autofree char *constrained = expand (cases[i].sql, FALSE);
      g_autofree char *hidden = expand (cases[i].sql, TRUE);
      g_autofree char *explain = g_strconcat ("EXPLAIN QUERY PLAN ", constrained, NULL);
      g_autofree char *hidden_explain = g_strconcat ("EXPLAIN QUERY PLAN ", hidden, NULL);
      g_autoptr(SpsSqlResult) a = query (engine, constrained);
      g_autoptr(SpsSqlResult) b = query (engine, hidden);
      g_autoptr(SpsSqlResult) plan = query (engine, explain);
      g_autoptr(SpsSqlResult) hidden_plan = query (engine, hidden_explain);
      g_autofree char *dump_a = dump_result (a);
      g_autofree char *dump_b = dump_result (b);
      g_autofree char *dump_plan = dump_result (plan);
      g_autofree char *dump_hidden_plan = dump_result (hidden_plan);

      g_test_message ("%s → %u rows; plan %s", constrained, sps_sql_result_get_n_rows (a), dump_plan);
      g_assert_cmpstr (dump_a, ==, dump_b);
      g_assert_cmpuint (sps_sql_result_get_n_rows (a), >=, cases[i].min_rows);
      if (cases[i].plan != NULL)
        {
          g_assert_nonnull (strstr (dump_plan, cases[i].plan));
          /* …and the hidden query really is a full scan */
          g_assert_null (strstr (dump_hidden_plan, cases[i].plan));
        }
    }
}

static void
test_constraints_equal_full_scan (void)
{
  g_autoptr(SpsTrace) trace = build_trace (7);
  g_autoptr(SpsSqlEngine) engine = new_engine (trace);
  const PlanCase cases[] = {
    { "SELECT id, ts, dur FROM slices WHERE @ts >= 200000 AND @ts < 260000", "ts>= ts<=", 50 },
    { "SELECT id FROM slices WHERE @ts > 200000 AND @ts <= 260000", "ts>= ts<=", 50 },
    { "SELECT id FROM slices WHERE @ts BETWEEN (SELECT ts FROM slices WHERE id = 700)"
      " AND (SELECT ts FROM slices WHERE id = 700) + 3000", "ts>= ts<=", 2 },
    { "SELECT id FROM slices WHERE @ts > (SELECT ts FROM slices WHERE id = 900) - 0.5"
      " AND @ts < (SELECT ts FROM slices WHERE id = 905) + 0.5", "ts>= ts<=", 6 },
    { "SELECT id FROM slices WHERE @ts > (SELECT ts FROM slices WHERE id = 900) + 0.5"
      " AND @ts <= (SELECT ts FROM slices WHERE id = 905) - 0.5", "ts>= ts<=", 4 },
    { "SELECT id FROM slices WHERE @ts < 3000", "ts<=", 2 },
    { "SELECT id FROM slices WHERE @ts >= 900000", "ts>=", 100 },
    { "SELECT id FROM slices WHERE @ts > NULL", "ts>=", 0 },
    { "SELECT id FROM slices WHERE @ts < 'abc' AND @ts > 990000", "ts", 100 },
    { "SELECT id, end_ts FROM slices WHERE @end_ts > 400000 AND @ts < 401000", "ts<= end_ts>=", 4 },
    { "SELECT id FROM slices WHERE @end_ts >= 400000 AND @end_ts <= 402000", "end_ts>= end_ts<=", 1 },
    { "SELECT id FROM slices WHERE @end_ts < 3000", "end_ts<=", 1 },
    { "SELECT id FROM slices WHERE @end_ts > 99999000", "end_ts>=", 1 },
    { "SELECT id, ts FROM slices WHERE @track_id = (SELECT track_id FROM slices WHERE id = 1000) ORDER BY ts",
      "track_id=", 500 },
    { "SELECT id FROM slices WHERE @track_id = (SELECT track_id FROM slices WHERE id = 1000)"
      " AND @ts >= 100000 AND @ts < 120000", "track_id= ts>= ts<=", 5 },
    { "SELECT id FROM slices WHERE @track_id = (SELECT track_id FROM slices WHERE id = 1000)"
      " AND @end_ts > 500000 AND @ts < 500500", "track_id= ts<= end_ts>=", 1 },
    { "SELECT id FROM slices WHERE @track_id = 99999", "track_id=", 0 },
    { "SELECT id FROM slices WHERE @thread_id = 2", "thread_id=", 500 },
    { "SELECT id FROM slices WHERE @thread_id = 1 AND @end_ts > 700000 AND @ts < 700500", "thread_id=", 2 },
    { "SELECT id FROM slices WHERE @name = 'beta'", "name=", 200 },
    { "SELECT id FROM slices WHERE @name = 'beta' AND @ts >= 10000 AND @ts < 90000", "name=", 10 },
    { "SELECT id FROM slices WHERE @name = 'beta' AND @end_ts > 800000", "name=", 10 },
    { "SELECT id FROM slices WHERE @name = 'no such name'", "name=", 0 },
    { "SELECT id, name FROM slices WHERE @id = 17", "id=", 1 },
    { "SELECT id FROM slices WHERE @id = 1000000", "id=", 0 },
    { "SELECT id FROM slices WHERE @id = -1", "id=", 0 },
    { "SELECT id FROM slices WHERE @rowid = 5", "id=", 1 },
    { "SELECT id FROM slices WHERE @ts = (SELECT ts FROM slices WHERE id = 321)", "ts=", 1 },
    /* Both sides hidden: either can be the other's index (id=, parent_id=) */
    { "SELECT c.id, p.name FROM slices c JOIN slices p ON @p.id = @c.parent_id WHERE c.depth = 2", "id=", 100 },
    { "SELECT id FROM instants WHERE @ts >= 100000 AND @ts < 300000", "ts>= ts<=", 20 },
    { "SELECT id FROM instants WHERE @name = 'gamma' AND @thread_id = 0", "thread_id= name=", 10 },
    { "SELECT id, value FROM counters WHERE @ts > 50000 AND @ts <= 60000", "ts>= ts<=", 10 },
    { "SELECT id FROM samples WHERE @track_id = (SELECT min(track_id) FROM samples)", "track_id=", 200 },
    { "SELECT id FROM samples WHERE @name = 'beta' AND @ts < 500000", "name= ts<=", 20 },
    { "SELECT id FROM samples WHERE @thread_id = 1", "thread_id=", 200 },
    { "SELECT name, count(*), sum(dur) FROM slices GROUP BY @name", "by name", 4 },
    { "SELECT name FROM slices ORDER BY @name", "by name", 1000 },
    { "SELECT name, count(*) FROM samples GROUP BY @name", "by name", 3 },
    { "SELECT name, max(ts) FROM instants GROUP BY @name", "by name", 4 },
    { "SELECT id FROM threads WHERE @id = 2", "id=", 1 },
    { "SELECT id FROM tracks WHERE @id = 3", "id=", 1 },
  };

  /* Enough slices for several blocks of 256 per track */
  g_assert_cmpint (query_int (engine, "SELECT max(row_count) FROM tracks WHERE kind = 'thread_slices'"), >, 1000);

  check_plan_cases (engine, cases, G_N_ELEMENTS (cases));
  check_tables_match_model (trace, engine);
}

/* Rows come out in (track_id, ts) order: such an ORDER BY needs no sort */
static void
test_order_by_consumed (void)
{
  g_autoptr(SpsTrace) trace = build_trace (3);
  g_autoptr(SpsSqlEngine) engine = new_engine (trace);
  g_autoptr(SpsSqlResult) sorted = NULL;
  g_autoptr(SpsSqlResult) plain = NULL;
  g_autoptr(SpsSqlResult) explain = NULL;
  g_autofree char *plan = NULL;
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;

  explain = query (engine, "EXPLAIN QUERY PLAN SELECT * FROM slices WHERE track_id = 1 ORDER BY ts, id");
  plan = dump_result (explain);
  g_assert_null (strstr (plan, "TEMP B-TREE"));
  g_assert_nonnull (strstr (plan, "track_id="));
  g_clear_object (&explain);
  g_clear_pointer (&plan, g_free);
  explain = query (engine, "EXPLAIN QUERY PLAN SELECT * FROM slices ORDER BY track_id, ts");
  plan = dump_result (explain);
  g_assert_null (strstr (plan, "TEMP B-TREE"));
  g_clear_object (&explain);
  g_clear_pointer (&plan, g_free);
  /* GROUP BY name and ORDER BY name stream from the name index */
  explain = query (engine, "EXPLAIN QUERY PLAN SELECT name, count(*) FROM slices GROUP BY name");
  plan = dump_result (explain);
  g_assert_null (strstr (plan, "TEMP B-TREE"));
  g_assert_nonnull (strstr (plan, "by name"));
  g_clear_object (&explain);
  g_clear_pointer (&plan, g_free);
  /* …but a ts order over all tracks needs one */
  explain = query (engine, "EXPLAIN QUERY PLAN SELECT * FROM slices ORDER BY ts");
  plan = dump_result (explain);
  g_assert_nonnull (strstr (plan, "TEMP B-TREE"));

  /* Ties of the name order come in id order */
  sorted = query (engine, "SELECT id, name FROM slices ORDER BY name");
  plain = query (engine, "SELECT id, name FROM slices ORDER BY +name, +id");
  a = dump_result (sorted);
  b = dump_result (plain);
  g_assert_cmpstr (a, ==, b);
  g_clear_object (&sorted);
  g_clear_object (&plain);
  g_clear_pointer (&a, g_free);
  g_clear_pointer (&b, g_free);

  sorted = query (engine, "SELECT id, track_id, ts FROM slices ORDER BY track_id, ts, id");
  plain = query (engine, "SELECT id, track_id, ts FROM slices ORDER BY +track_id, +ts, +id");
  a = dump_result (sorted);
  b = dump_result (plain);
  g_assert_cmpstr (a, ==, b);
}

/* args are the JSON text as written; SQLite's JSON functions read it */
static void
test_args_json (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("cli-small.json");
  g_autoptr(SpsSqlEngine) engine = new_engine (trace);
  g_autofree char *text = NULL;

  /* main has "args": {"n": 1} */
  g_assert_cmpint (query_int (engine, "SELECT json_extract(args, '$.n') FROM slices WHERE name = 'main'"), ==, 1);
  g_assert_cmpint (query_int (engine, "SELECT count(*) FROM slices WHERE json_extract(args, '$.n') = 1"), ==, 1);
  g_assert_cmpint (query_int (engine, "SELECT count(*) FROM slices WHERE args IS NULL"), ==, 4);
  /* the O event's args {"snapshot": {"v": 1}} */
  g_assert_cmpint (query_int (engine,
                              "SELECT json_extract(args, '$.snapshot.v') FROM objects WHERE phase = 'snapshot'"),
                   ==, 1);
  text = query_text (engine, "SELECT json_type(args) FROM slices WHERE name = 'main'");
  g_assert_cmpstr (text, ==, "object");
}

/* slice_visible(id) follows the mask set on the engine: cli-small.json
 * has 5 slices (ids 0–4); hiding 1 and 3 leaves 3, no mask shows all. */
static void
test_slice_mask (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("cli-small.json");
  g_autoptr(SpsSqlEngine) engine = new_engine (trace);
  static const guint8 mask_bytes[] = { 1, 0, 1, 0, 1 };
  g_autoptr(GBytes) mask = g_bytes_new_static (mask_bytes, sizeof mask_bytes);

  g_assert_cmpint (query_int (engine, "SELECT count(*) FROM slices WHERE slice_visible(id)"), ==, 5);

  sps_sql_engine_set_slice_mask (engine, mask);
  g_assert_cmpint (query_int (engine, "SELECT count(*) FROM slices WHERE slice_visible(id)"), ==, 3);
  g_assert_cmpint (query_int (engine, "SELECT group_concat(id) = '0,2,4' FROM "
                                      "(SELECT id FROM slices WHERE slice_visible(id) ORDER BY id)"), ==, 1);
  /* Ids the mask does not cover are hidden; NULL stays NULL */
  g_assert_cmpint (query_int (engine, "SELECT slice_visible(5)"), ==, 0);
  g_assert_cmpint (query_int (engine, "SELECT slice_visible(NULL) IS NULL"), ==, 1);

  /* visible_slices lists the same rows, in id order; id = x reads one */
  g_assert_cmpint (query_int (engine, "SELECT group_concat(id) = '0,2,4' FROM visible_slices"), ==, 1);
  g_assert_cmpint (query_int (engine, "SELECT count(*) FROM visible_slices WHERE id = 2"), ==, 1);
  g_assert_cmpint (query_int (engine, "SELECT count(*) FROM visible_slices WHERE id = 3"), ==, 0);
  g_assert_cmpint (query_int (engine, "SELECT count(*) FROM visible_slices WHERE id = 99"), ==, 0);
  g_assert_cmpint (query_int (engine, "SELECT count(*) FROM slices s JOIN visible_slices v"
                                      " ON v.id = s.id AND v.ts = s.ts AND v.dur IS s.dur"
                                      " AND v.track_id = s.track_id AND v.depth = s.depth"), ==, 3);

  sps_sql_engine_set_slice_mask (engine, NULL);
  g_assert_cmpint (query_int (engine, "SELECT count(*) FROM slices WHERE slice_visible(id)"), ==, 5);
  g_assert_cmpint (query_int (engine, "SELECT count(*) FROM visible_slices"), ==, 5);
  /* The sampled span's dur is NULL there too */
  g_assert_cmpint (query_int (engine, "SELECT count(*) FROM slices s JOIN visible_slices v"
                                      " ON v.id = s.id AND v.dur IS s.dur"), ==, 5);
}

static void
test_read_only (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("cli-small.json");
  g_autoptr(SpsSqlEngine) engine = new_engine (trace);
  g_autoptr(SpsSqlResult) result = NULL;

  assert_query_fails (engine, "DELETE FROM slices", SPS_SQL_ERROR_READ_ONLY, "table slices is read-only");
  assert_query_fails (engine, "UPDATE counters SET value = 0", SPS_SQL_ERROR_READ_ONLY,
                      "table counters is read-only");
  assert_query_fails (engine, "INSERT INTO frames (id, name) VALUES (9, 'x')", SPS_SQL_ERROR_READ_ONLY,
                      "table frames is read-only");
  assert_query_fails (engine, "DROP TABLE samples", SPS_SQL_ERROR_READ_ONLY, "table samples is read-only");
  assert_query_fails (engine, "DROP VIEW events", SPS_SQL_ERROR_READ_ONLY, "table events is read-only");
  assert_query_fails (engine, "ALTER TABLE threads RENAME TO t2", SPS_SQL_ERROR_READ_ONLY,
                      "table threads is read-only");
  assert_query_fails (engine, "ATTACH DATABASE 'x.db' AS x", SPS_SQL_ERROR_READ_ONLY, NULL);
  /* VACUUM INTO attaches its output file */
  assert_query_fails (engine, "VACUUM INTO 'copy.db'", SPS_SQL_ERROR_READ_ONLY, NULL);
  g_assert_false (g_file_test ("copy.db", G_FILE_TEST_EXISTS));
  assert_query_fails (engine, "PRAGMA writable_schema = 1", SPS_SQL_ERROR_READ_ONLY, NULL);
  assert_query_fails (engine, "UPDATE sqlite_schema SET sql = 'x'", SPS_SQL_ERROR_READ_ONLY,
                      "table sqlite_master is read-only");
  /* Nothing changed */
  g_assert_cmpint (query_int (engine, "SELECT count(*) FROM slices"), ==, 5);

  /* The user's own tables and views are fine, and persist across queries */
  result = query (engine, "CREATE TEMP TABLE mine AS SELECT name, dur FROM slices WHERE dur > 10000");
  g_assert_cmpuint (sps_sql_result_get_n_columns (result), ==, 0);
  g_clear_object (&result);
  result = query (engine, "INSERT INTO mine VALUES ('extra', 1); DELETE FROM mine WHERE name = 'job'");
  g_clear_object (&result);
  /* main 50000, fetch 53000, then extra (job removed) */
  g_assert_cmpint (query_int (engine, "SELECT count(*) FROM mine"), ==, 3);
  result = query (engine, "CREATE TEMP VIEW long_ones AS SELECT * FROM slices WHERE dur >= 50000");
  g_clear_object (&result);
  g_assert_cmpint (query_int (engine, "SELECT count(*) FROM long_ones"), ==, 2);
  result = query (engine, "CREATE VIEW v2 AS SELECT 1 AS one");
  g_clear_object (&result);
  g_assert_cmpint (query_int (engine, "SELECT one FROM v2"), ==, 1);
}

static void
test_errors (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("cli-small.json");
  g_autoptr(SpsSqlEngine) engine = new_engine (trace);

  assert_query_fails (engine, "SELEC 1", SPS_SQL_ERROR_SYNTAX, "near \"SELEC\": syntax error");
  assert_query_fails (engine, "SELECT nope FROM slices", SPS_SQL_ERROR_SYNTAX, "no such column: nope");
  assert_query_fails (engine, "SELECT * FROM nope", SPS_SQL_ERROR_SYNTAX, "no such table: nope");
  assert_query_fails (engine, "  -- only a comment\n ", SPS_SQL_ERROR_EMPTY, NULL);
  assert_query_fails (engine, "", SPS_SQL_ERROR_EMPTY, NULL);
  /* A run-time error: malformed JSON */
  assert_query_fails (engine, "SELECT json_extract('{', '$')", SPS_SQL_ERROR_SQLITE, "malformed JSON");
  /* The engine is still usable */
  g_assert_cmpint (query_int (engine, "SELECT 40 + 2"), ==, 42);
}

/* Several statements: the result is the last one's with columns */
static void
test_result_types (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("cli-small.json");
  g_autoptr(SpsSqlEngine) engine = new_engine (trace);
  g_autoptr(SpsSqlResult) result = NULL;
  g_autofree char *text = NULL;
  gsize len = 0;
  const guint8 *blob;

  result = query (engine,
                  "SELECT 1 AS i, 1.5 AS r, 'x' AS t, x'00ff' AS b, NULL AS n, 1 AS m"
                  " UNION ALL SELECT 2, 2, 'y', x'01', NULL, 'z'");
  g_assert_cmpuint (sps_sql_result_get_n_columns (result), ==, 6);
  g_assert_cmpuint (sps_sql_result_get_n_rows (result), ==, 2);
  g_assert_cmpstr (sps_sql_result_get_column_name (result, 1), ==, "r");
  g_assert_cmpint (sps_sql_result_get_column_type (result, 0), ==, SPS_SQL_TYPE_INTEGER);
  g_assert_cmpint (sps_sql_result_get_column_type (result, 1), ==, SPS_SQL_TYPE_REAL);
  g_assert_cmpint (sps_sql_result_get_column_type (result, 2), ==, SPS_SQL_TYPE_TEXT);
  g_assert_cmpint (sps_sql_result_get_column_type (result, 3), ==, SPS_SQL_TYPE_BLOB);
  g_assert_cmpint (sps_sql_result_get_column_type (result, 4), ==, SPS_SQL_TYPE_NULL);
  g_assert_cmpint (sps_sql_result_get_column_type (result, 5), ==, SPS_SQL_TYPE_MIXED);
  g_assert_cmpint (sps_sql_result_get_value_type (result, 1, 1), ==, SPS_SQL_TYPE_INTEGER);
  g_assert_cmpfloat (sps_sql_result_get_double (result, 0, 1), ==, 1.5);
  g_assert_cmpint (sps_sql_result_get_int64 (result, 0, 1), ==, 1);
  g_assert_cmpstr (sps_sql_result_get_text (result, 1, 2), ==, "y");
  g_assert_null (sps_sql_result_get_text (result, 0, 0));
  g_assert_true (sps_sql_result_is_null (result, 0, 4));
  g_assert_false (sps_sql_result_is_null (result, 0, 0));
  blob = sps_sql_result_get_blob (result, 0, 3, &len);
  g_assert_cmpuint (len, ==, 2);
  g_assert_cmpuint (blob[0], ==, 0x00);
  g_assert_cmpuint (blob[1], ==, 0xff);
  text = sps_sql_result_dup_display_text (result, 0, 3);
  g_assert_cmpstr (text, ==, "x'00ff'");
  g_clear_pointer (&text, g_free);
  text = sps_sql_result_dup_display_text (result, 0, 1);
  g_assert_cmpstr (text, ==, "1.5");
  g_clear_pointer (&text, g_free);
  g_assert_null (sps_sql_result_dup_display_text (result, 0, 4));
  g_assert_cmpint (sps_sql_result_get_elapsed_ns (result), >=, 0);
  g_clear_object (&result);

  /* Declared types come from the trace tables */
  result = query (engine, "SELECT ts, name, ts + 1 FROM slices LIMIT 1");
  g_assert_cmpstr (sps_sql_result_get_column_decltype (result, 0), ==, "INTEGER");
  g_assert_cmpstr (sps_sql_result_get_column_decltype (result, 1), ==, "TEXT");
  g_assert_null (sps_sql_result_get_column_decltype (result, 2));
  g_clear_object (&result);

  result = query (engine, "CREATE TEMP TABLE a (x); SELECT 7 AS seven; INSERT INTO a VALUES (1)");
  g_assert_cmpuint (sps_sql_result_get_n_columns (result), ==, 1);
  g_assert_cmpint (sps_sql_result_get_int64 (result, 0, 0), ==, 7);
  g_clear_object (&result);

  /* max-rows keeps the first rows and says so */
  sps_sql_engine_set_max_rows (engine, 2);
  g_assert_cmpuint (sps_sql_engine_get_max_rows (engine), ==, 2);
  result = query (engine, "SELECT id FROM slices");
  g_assert_cmpuint (sps_sql_result_get_n_rows (result), ==, 2);
  g_assert_true (sps_sql_result_get_truncated (result));
  g_clear_object (&result);
  result = query (engine, "SELECT id FROM slices LIMIT 2");
  g_assert_false (sps_sql_result_get_truncated (result));
}

/* Decoded events are instants of kind 'event'; events_raw shows them with
 * their provider, descriptor and args, and nothing else of the instants */
static void
test_events_raw (void)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsSqlEngine) engine = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *rows = NULL;
  g_autofree char *kinds = NULL;
  guint32 process = sps_trace_builder_ensure_process (b, 7);
  guint32 t1 = sps_trace_builder_ensure_thread (b, process, 70);
  guint32 t2 = sps_trace_builder_ensure_thread (b, process, 71);
  guint32 clr = sps_trace_builder_intern (b, "Microsoft-Windows-DotNETRuntime", -1);
  const char *fields = "{\"Count\":1}";

  sps_trace_builder_add_event (b, t2, 300, clr,
                               sps_trace_builder_intern (b, "Microsoft-Windows-DotNETRuntime/GC/Stop", -1),
                               SPS_EVENT_DESCRIPTOR (2, 1, 2), SPS_ARGS_REF_NONE);
  sps_trace_builder_add_event (b, t1, 100, clr,
                               sps_trace_builder_intern (b, "Microsoft-Windows-DotNETRuntime/GC/Start", -1),
                               SPS_EVENT_DESCRIPTOR (1, 2, 1),
                               sps_trace_builder_add_args_text (b, fields, -1));
  sps_trace_builder_add_instant (b, SPS_INSTANT_KIND_INSTANT, SPS_INSTANT_SCOPE_THREAD, process, t1, 200,
                                 sps_trace_builder_intern (b, "plain", -1), 0, SPS_ARGS_REF_NONE);
  trace = sps_trace_builder_finish (b, NULL, &error);
  g_assert_no_error (error);
  engine = new_engine (trace);

  rows = query_text (engine,
                     "SELECT group_concat(ts || ' ' || thread || ' ' || provider || ' ' || name || ' '"
                     " || id || ' ' || version || ' ' || opcode || ' ' || ifnull(args, '-'), '; ')"
                     " FROM (SELECT * FROM events_raw ORDER BY ts)");
  g_assert_cmpstr (rows, ==,
                   "100 0 Microsoft-Windows-DotNETRuntime Microsoft-Windows-DotNETRuntime/GC/Start 1 2 1 {\"Count\":1}; "
                   "300 1 Microsoft-Windows-DotNETRuntime Microsoft-Windows-DotNETRuntime/GC/Stop 2 1 2 -");
  kinds = query_text (engine,
                      "SELECT group_concat(kind || ' ' || ifnull(event_id, 'null'), ', ')"
                      " FROM (SELECT * FROM instants ORDER BY ts)");
  g_assert_cmpstr (kinds, ==, "event 1, instant null, event 2");
}

static void
test_describe (void)
{
  static const char * const trace_tables[] = {
    "allocations", "callsites", "counters", "events", "events_raw", "flows", "frames", "gc_observations",
    "instants", "objects", "processes", "samples", "slices", "threads", "tracks", "visible_slices",
  };
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("cli-small.json");
  g_autoptr(SpsSqlEngine) engine = new_engine (trace);
  g_autoptr(SpsSqlResult) result = NULL;
  g_autoptr(SpsSqlResult) created = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;
  g_autofree char *columns = NULL;

  created = query (engine, "CREATE TEMP TABLE zz (a INTEGER, b TEXT)");
  names = sps_sql_engine_list_tables (engine, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (names), ==, G_N_ELEMENTS (trace_tables) + 1);
  for (guint i = 0; i < G_N_ELEMENTS (trace_tables); i++)
    g_assert_cmpstr (names[i], ==, trace_tables[i]);
  g_assert_cmpstr (names[G_N_ELEMENTS (trace_tables)], ==, "zz");

  result = sps_sql_engine_describe (engine, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (sps_sql_result_get_column_name (result, 4), ==, "column_name");
  columns = query_text (engine,
                        "SELECT group_concat(name || ' ' || type, ', ') FROM pragma_table_info('samples')");
  g_assert_cmpstr (columns, ==,
                   "id INTEGER, ts INTEGER, dur INTEGER, self_time INTEGER, name TEXT, track_id INTEGER,"
                   " thread_id INTEGER, process_id INTEGER, callsite_id INTEGER, frame TEXT, kind TEXT,"
                   " sample_count INTEGER, sample_weight REAL, weight_unit TEXT,"
                   " estimated_cpu_time INTEGER, estimated_self_cpu_time INTEGER, sf TEXT,"
                   " unresolved INTEGER, event_name TEXT, line INTEGER");
  /* The last rows are zz's, a temp table */
  {
    guint n = sps_sql_result_get_n_rows (result);

    g_assert_cmpstr (sps_sql_result_get_text (result, n - 1, 0), ==, "zz");
    g_assert_cmpstr (sps_sql_result_get_text (result, n - 1, 1), ==, "table");
    g_assert_cmpstr (sps_sql_result_get_text (result, n - 1, 2), ==, "temp");
    g_assert_cmpstr (sps_sql_result_get_text (result, n - 1, 4), ==, "b");
    g_assert_cmpstr (sps_sql_result_get_text (result, n - 1, 5), ==, "TEXT");
    g_assert_cmpstr (sps_sql_result_get_text (result, 0, 1), ==, "trace");
  }
}

typedef struct
{
  GMainLoop    *loop;
  SpsSqlResult *result;
  GError       *error;
} AsyncData;

static void
on_query_done (GObject      *source,
               GAsyncResult *res,
               gpointer      user_data)
{
  AsyncData *data = user_data;

  data->result = sps_sql_engine_query_finish (SPS_SQL_ENGINE (source), res, &data->error);
  g_main_loop_quit (data->loop);
}

static void
on_describe_done (GObject      *source,
                  GAsyncResult *res,
                  gpointer      user_data)
{
  AsyncData *data = user_data;

  data->result = sps_sql_engine_describe_finish (SPS_SQL_ENGINE (source), res, &data->error);
  g_main_loop_quit (data->loop);
}

static gboolean
cancel_later (gpointer user_data)
{
  g_cancellable_cancel (user_data);
  return G_SOURCE_REMOVE;
}

static void
test_async (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("cli-small.json");
  g_autoptr(SpsSqlEngine) engine = new_engine (trace);
  g_autoptr(SpsProgress) progress = sps_progress_new (NULL);
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  AsyncData data = { loop, NULL, NULL };

  sps_sql_engine_query_async (engine, "SELECT sum(dur) FROM slices", progress, NULL, on_query_done, &data);
  g_main_loop_run (loop);
  g_assert_no_error (data.error);
  /* 50 + 10 + 30 + 53 µs; the sampled span hot (4 µs) has no dur */
  g_assert_cmpint (sps_sql_result_get_int64 (data.result, 0, 0), ==, 143000);
  g_assert_cmpint (sps_progress_get_phase (progress), ==, SPS_PROGRESS_PHASE_DONE);
  g_clear_object (&data.result);

  sps_sql_engine_query_async (engine, "SELECT * FROM nowhere", NULL, NULL, on_query_done, &data);
  g_main_loop_run (loop);
  g_assert_error (data.error, SPS_SQL_ERROR, SPS_SQL_ERROR_SYNTAX);
  g_assert_null (data.result);
  g_clear_error (&data.error);

  sps_sql_engine_describe_async (engine, NULL, on_describe_done, &data);
  g_main_loop_run (loop);
  g_assert_no_error (data.error);
  g_assert_cmpstr (sps_sql_result_get_text (data.result, 0, 0), ==, "allocations");
  g_clear_object (&data.result);
}

/* A cross join of 4000+ slices three times over would run for hours; the
 * cancellable stops it. */
static void
test_interrupt (void)
{
  g_autoptr(SpsTrace) trace = build_trace (11);
  g_autoptr(SpsSqlEngine) engine = new_engine (trace);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(SpsProgress) progress = NULL;
  g_autoptr(SpsSqlResult) result = NULL;
  g_autoptr(GError) error = NULL;
  AsyncData data = { loop, NULL, NULL };
  const char *sql = "SELECT count(*) FROM slices a, slices b, slices c WHERE a.dur + b.dur + c.dur = -1";

  g_timeout_add (100, cancel_later, cancellable);
  sps_sql_engine_query_async (engine, sql, NULL, cancellable, on_query_done, &data);
  g_main_loop_run (loop);
  g_assert_error (data.error, SPS_SQL_ERROR, SPS_SQL_ERROR_INTERRUPTED);
  g_assert_null (data.result);
  g_clear_error (&data.error);

  /* Already cancelled: interrupted before it starts */
  result = sps_sql_engine_query (engine, sql, NULL, cancellable, &error);
  g_assert_error (error, SPS_SQL_ERROR, SPS_SQL_ERROR_INTERRUPTED);
  g_assert_null (result);
  g_clear_error (&error);

  /* Through the progress's cancellable, from the main loop */
  progress = sps_progress_new (NULL);
  g_timeout_add (100, cancel_later, sps_progress_get_cancellable (progress));
  sps_sql_engine_query_async (engine, sql, progress, NULL, on_query_done, &data);
  g_main_loop_run (loop);
  g_assert_error (data.error, SPS_SQL_ERROR, SPS_SQL_ERROR_INTERRUPTED);
  g_clear_error (&data.error);

  /* The connection works afterwards */
  g_assert_cmpint (query_int (engine, "SELECT count(*) FROM processes"), ==, 1);
}

/* RFC 4180: quote fields with the separator, a quote, CR or LF; double
 * the quotes inside */
static void
test_csv_fields (void)
{
  g_autoptr(GString) out = g_string_new (NULL);
  const char *row[] = { "plain", "a,b", "say \"hi\"", "two\nlines", NULL, "cr\r", " spaced " };

  sps_csv_append_row (out, row, G_N_ELEMENTS (row), ',');
  g_assert_cmpstr (out->str, ==,
                   "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",,\"cr\r\", spaced \r\n");

  g_string_truncate (out, 0);
  sps_csv_append_row (out, row, G_N_ELEMENTS (row), '\t');
  g_assert_cmpstr (out->str, ==,
                   "plain\ta,b\t\"say \"\"hi\"\"\"\t\"two\nlines\"\t\t\"cr\r\"\t spaced \r\n");

  g_string_truncate (out, 0);
  sps_csv_append_field (out, "tab\there", -1, '\t');
  g_assert_cmpstr (out->str, ==, "\"tab\there\"");
  g_assert_false (sps_csv_field_needs_quotes ("a,b", 1, ','));
  g_assert_true (sps_csv_field_needs_quotes ("a,b", 2, ','));
}

static void
test_csv_result (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("cli-small.json");
  g_autoptr(SpsSqlEngine) engine = new_engine (trace);
  g_autoptr(SpsSqlResult) result = NULL;
  g_autoptr(GOutputStream) stream = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  result = query (engine,
                  "SELECT name AS \"the, name\", args, 2.5 AS r, NULL AS n, 'q\"' || char(10) AS odd"
                  " FROM slices WHERE name IN ('main', 'inner') ORDER BY ts");
  g_assert_true (sps_sql_result_write_csv (result, stream, ',', NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_close (stream, NULL, &error));
  g_assert_no_error (error);
  text = g_strndup (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (stream)),
                    g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (stream)));
  /* main (ts 100, args {"n": 1}) before inner (ts 110, no args) */
  g_assert_cmpstr (text, ==,
                   "\"the, name\",args,r,n,odd\r\n"
                   "main,\"{\"\"n\"\": 1}\",2.5,,\"q\"\"\n\"\r\n"
                   "inner,,2.5,,\"q\"\"\n\"\r\n");
}

/* Creating an engine reads no rows: it costs the same on a bigger trace */
static void
test_engine_is_lazy (void)
{
  g_autoptr(SpsTrace) trace = build_trace (5);
  g_autoptr(SpsSqlEngine) engine = new_engine (trace);

  g_assert_true (sps_sql_engine_get_trace (engine) == trace);
  /* id = n is past the end: no row, no crash */
  g_assert_cmpint (query_int (engine, "SELECT count(*) FROM slices WHERE id = (SELECT count(*) FROM slices)"), ==, 0);
}

/* A trace with nothing in it: every table is empty, every plan works */
static void
test_empty_trace (void)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  g_autoptr(SpsTrace) trace = sps_trace_builder_finish (b, NULL, NULL);
  g_autoptr(SpsSqlEngine) engine = new_engine (trace);
  static const char * const queries[] = {
    "SELECT count(*) FROM slices",
    "SELECT count(*) FROM (SELECT name, count(*) FROM slices GROUP BY name)",
    "SELECT count(*) FROM slices WHERE name = 'x'",
    "SELECT count(*) FROM slices WHERE ts > 5 AND end_ts < 10",
    "SELECT count(*) FROM slices WHERE id = 0",
    "SELECT count(*) FROM samples WHERE thread_id = 0",
    "SELECT count(*) FROM instants WHERE track_id = 0",
    "SELECT count(*) FROM counters",
    "SELECT count(*) FROM processes",
    "SELECT count(*) FROM objects",
  };

  for (guint i = 0; i < G_N_ELEMENTS (queries); i++)
    g_assert_cmpint (query_int (engine, queries[i]), ==, 0);
  check_tables_match_model (trace, engine);
}

typedef struct
{
  SpsSqlEngine *engine;
  gint64        expected;
} ThreadData;

static gpointer
query_thread (gpointer user_data)
{
  ThreadData *data = user_data;

  for (guint i = 0; i < 20; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(SpsSqlResult) result =
        sps_sql_engine_query (data->engine, "SELECT count(*) FROM slices WHERE name = 'beta'",
                              NULL, NULL, &error);

      g_assert_no_error (error);
      g_assert_cmpint (sps_sql_result_get_int64 (result, 0, 0), ==, data->expected);
    }
  return NULL;
}

/* Queries from several threads take turns on the one connection */
static void
test_threads (void)
{
  g_autoptr(SpsTrace) trace = build_trace (9);
  g_autoptr(SpsSqlEngine) engine = new_engine (trace);
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  guint32 beta = sps_string_pool_lookup (sps_trace_get_strings (trace), "beta", -1);
  ThreadData data = { engine, 0 };
  GThread *threads[4];

  /* The expected count straight from the model's column */
  for (guint i = 0; i < slices->n_rows; i++)
    data.expected += slices->name[i] == beta;
  g_assert_cmpint (data.expected, >, 0);

  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("sql", query_thread, &data);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_thread_join (threads[i]);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/sql/vtab/counts/cli-small", test_counts_cli_small);
  g_test_add_func ("/sql/vtab/events-raw", test_events_raw);
  g_test_add_func ("/sql/vtab/slices/spot", test_slices_spot);
  g_test_add_func ("/sql/vtab/other/spot", test_other_tables_spot);
  g_test_add_func ("/sql/vtab/samples/spot", test_samples_spot);
  g_test_add_func ("/sql/vtab/fixtures/match-model", test_fixtures_match_model);
  g_test_add_func ("/sql/vtab/shared-fixtures/match-model", test_shared_fixtures);
  g_test_add_func ("/sql/plan/constraints-equal-full-scan", test_constraints_equal_full_scan);
  g_test_add_func ("/sql/plan/order-by-consumed", test_order_by_consumed);
  g_test_add_func ("/sql/args/json", test_args_json);
  g_test_add_func ("/sql/engine/read-only", test_read_only);
  g_test_add_func ("/sql/engine/slice-mask", test_slice_mask);
  g_test_add_func ("/sql/engine/errors", test_errors);
  g_test_add_func ("/sql/engine/async", test_async);
  g_test_add_func ("/sql/engine/interrupt", test_interrupt);
  g_test_add_func ("/sql/engine/lazy", test_engine_is_lazy);
  g_test_add_func ("/sql/engine/empty-trace", test_empty_trace);
  g_test_add_func ("/sql/engine/threads", test_threads);
  g_test_add_func ("/sql/result/types", test_result_types);
  g_test_add_func ("/sql/engine/describe", test_describe);
  g_test_add_func ("/sql/csv/fields", test_csv_fields);
  g_test_add_func ("/sql/csv/result", test_csv_result);

  return g_test_run ();
}
