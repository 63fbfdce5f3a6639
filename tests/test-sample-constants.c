/* test-sample-constants.c: sample columns stored once (issue 15)
 *
 * A CPU profile gives every sample the same event name, weight, unit,
 * flags, line and raw stack; the builder stores such a column once until
 * a row differs, and the finished table keeps it so (NULL pointer, value
 * in SpsSampleTable.constants). These tests build the same samples twice
 * or compare them to a table written out row by row, and check every row
 * through every reader: the accessors, the filtered samples, the flame
 * tree's CPU estimate and SQL.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>

#include <spanscope-core.h>

#define N_SAMPLES 600
/* One sampling interval: 1 ms in ns, as a 1 kHz ETL profile writes */
#define WEIGHT    1e6

typedef struct
{
  SpsTraceBuilder *builder;
  guint32          threads[2];
  guint32          callsites[3];
  guint32          event;
} Input;

/* N_SAMPLES samples in reverse time order (so that finish() moves every
 * row), input i at ts 10 × (N_SAMPLES − i), on thread i % 2 with leaf
 * callsite i % 3, all of event "cpu" weighing WEIGHT ns */
static void
input_init (Input *in)
{
  SpsStringPool *strings;
  guint32 process;
  guint32 parent = SPS_NO_INDEX;
  const char *frames[] = { "main", "work", "leaf" };

  in->builder = sps_trace_builder_new ();
  strings = sps_trace_builder_get_strings (in->builder);
  process = sps_trace_builder_ensure_process (in->builder, 1);
  in->threads[0] = sps_trace_builder_ensure_thread (in->builder, process, 10);
  in->threads[1] = sps_trace_builder_ensure_thread (in->builder, process, 11);
  for (guint f = 0; f < G_N_ELEMENTS (frames); f++)
    {
      guint32 frame = sps_trace_builder_intern_frame (in->builder,
                                                      sps_string_pool_intern (strings, frames[f], -1),
                                                      0, 0, 0);

      parent = in->callsites[f] = sps_trace_builder_intern_callsite (in->builder, parent, frame);
    }
  in->event = sps_string_pool_intern (strings, "cpu", -1);
}

static SpsTime
input_ts (guint i)
{
  return 10 * (SpsTime) (N_SAMPLES - i);
}

/* The input index of a finished row, from its unique time */
static guint
input_of_row (const SpsSampleTable *samples,
              guint                 row)
{
  return N_SAMPLES - (guint) (samples->ts[row] / 10);
}

static guint32
add_input_sample (Input  *in,
                  guint   i,
                  double  weight)
{
  return sps_trace_builder_add_sample (in->builder, in->threads[i % 2], input_ts (i), in->event,
                                       in->callsites[i % 3], 0, weight, SPS_WEIGHT_UNIT_NS,
                                       SPS_SAMPLE_HAS_WEIGHT);
}

static SpsTrace *
finish (Input *in)
{
  g_autoptr(GError) error = NULL;
  SpsTrace *trace = sps_trace_builder_finish (in->builder, NULL, &error);

  g_assert_no_error (error);
  g_clear_object (&in->builder);
  return trace;
}

/* Every reader agrees on @a and @b row by row */
static void
assert_same_rows (const SpsSampleTable *a,
                  const SpsSampleTable *b)
{
  g_assert_cmpuint (a->n_rows, ==, b->n_rows);
  for (guint r = 0; r < a->n_rows; r++)
    {
      g_assert_cmpint (a->ts[r], ==, b->ts[r]);
      g_assert_cmpuint (a->thread[r], ==, b->thread[r]);
      g_assert_cmpuint (a->callsite[r], ==, b->callsite[r]);
      g_assert_cmpuint (sps_sample_table_get_event_name (a, r), ==, sps_sample_table_get_event_name (b, r));
      g_assert_cmpuint (sps_sample_table_get_raw_stack_ref (a, r), ==,
                        sps_sample_table_get_raw_stack_ref (b, r));
      g_assert_cmpfloat (sps_sample_table_get_weight (a, r), ==, sps_sample_table_get_weight (b, r));
      g_assert_cmpint (sps_sample_table_get_weight_unit (a, r), ==, sps_sample_table_get_weight_unit (b, r));
      g_assert_cmpint (sps_sample_table_get_flags (a, r), ==, sps_sample_table_get_flags (b, r));
      g_assert_cmpuint (sps_sample_table_get_line (a, r), ==, sps_sample_table_get_line (b, r));
      g_assert_cmpfloat (sps_flame_tree_sample_estimate_ns (a, r), ==, sps_flame_tree_sample_estimate_ns (b, r));
    }
}

/* Six columns, one value each: nothing stored per row, every row reads
 * the values it was given; a table written out row by row reads the same
 * through the accessors, the flame tree's estimate and the filtered
 * samples (which keep the columns stored once) */
static void
test_stored_once (void)
{
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsFilteredSamples) filtered = NULL;
  g_autoptr(GError) error = NULL;
  const SpsSampleTable *samples;
  const SpsSampleTable *kept;
  g_autofree guint32 *event_name = g_new (guint32, N_SAMPLES);
  g_autofree guint32 *zeros = g_new0 (guint32, N_SAMPLES);
  g_autofree double *weight = g_new (double, N_SAMPLES);
  g_autofree guint8 *unit = g_new (guint8, N_SAMPLES);
  g_autofree guint8 *flags = g_new (guint8, N_SAMPLES);
  SpsSampleTable plain;
  Input in;

  input_init (&in);
  for (guint i = 0; i < N_SAMPLES; i++)
    add_input_sample (&in, i, WEIGHT);
  trace = finish (&in);
  samples = sps_trace_get_samples (trace);

  g_assert_cmpuint (samples->n_rows, ==, N_SAMPLES);
  g_assert_null (samples->event_name);
  g_assert_null (samples->raw_stack_ref);
  g_assert_null (samples->weight);
  g_assert_null (samples->weight_unit);
  g_assert_null (samples->flags);
  g_assert_null (samples->line);
  g_assert_cmpstr (sps_trace_get_string (trace, samples->constants.event_name), ==, "cpu");
  g_assert_cmpfloat (samples->constants.weight, ==, WEIGHT);
  g_assert_cmpuint (samples->constants.weight_unit, ==, SPS_WEIGHT_UNIT_NS);
  g_assert_cmpuint (samples->constants.flags, ==, SPS_SAMPLE_HAS_WEIGHT);

  /* Sorted by (track, ts): thread 10's 300 samples, then thread 11's */
  for (guint r = 0; r < N_SAMPLES; r++)
    {
      guint i = input_of_row (samples, r);

      g_assert_cmpuint (i, <, N_SAMPLES);
      g_assert_cmpint (samples->ts[r], ==, input_ts (i));
      g_assert_cmpuint (samples->thread[r], ==, r < N_SAMPLES / 2 ? 0 : 1);
      g_assert_cmpuint (i % 2, ==, samples->thread[r]);
      g_assert_cmpuint (samples->callsite[r], ==, in.callsites[i % 3]);
      g_assert_cmpstr (sps_trace_get_string (trace, sps_sample_table_get_event_name (samples, r)), ==, "cpu");
      g_assert_cmpuint (sps_sample_table_get_raw_stack_ref (samples, r), ==, 0);
      g_assert_cmpfloat (sps_sample_table_get_weight (samples, r), ==, WEIGHT);
      g_assert_cmpint (sps_sample_table_get_weight_unit (samples, r), ==, SPS_WEIGHT_UNIT_NS);
      g_assert_cmpint (sps_sample_table_get_flags (samples, r), ==, SPS_SAMPLE_HAS_WEIGHT);
      g_assert_cmpuint (sps_sample_table_get_line (samples, r), ==, 0);
      g_assert_cmpfloat (sps_flame_tree_sample_estimate_ns (samples, r), ==, WEIGHT);
    }

  /* The same rows with every column written out */
  for (guint r = 0; r < N_SAMPLES; r++)
    {
      event_name[r] = samples->constants.event_name;
      weight[r] = WEIGHT;
      unit[r] = SPS_WEIGHT_UNIT_NS;
      flags[r] = SPS_SAMPLE_HAS_WEIGHT;
    }
  plain = *samples;
  plain.event_name = event_name;
  plain.raw_stack_ref = zeros;
  plain.weight = weight;
  plain.weight_unit = unit;
  plain.flags = flags;
  plain.line = zeros;
  plain.constants = (SpsSampleConstants) { 0, };
  assert_same_rows (samples, &plain);

  filtered = sps_filtered_samples_new (trace, samples, NULL, NULL, &error);
  g_assert_no_error (error);
  kept = sps_filtered_samples_get_samples (filtered);
  g_assert_null (kept->weight);
  assert_same_rows (kept, &plain);
}

/* A row that differs materialises its column only: the rows before it
 * keep the constant they had, the rows after it theirs */
static void
test_materialised (void)
{
  g_autoptr(SpsTrace) trace = NULL;
  const SpsSampleTable *samples;
  guint32 unresolved = 0;
  Input in;

  input_init (&in);
  for (guint i = 0; i < N_SAMPLES; i++)
    {
      guint32 s = add_input_sample (&in, i, i == 400 ? 2 * WEIGHT : WEIGHT);

      if (i == 100)
        unresolved = s;
    }
  /* Edits after the samples are read, as importers resolve stacks; the
   * first adds a flag every sample has, which keeps the column as it is */
  sps_trace_builder_set_sample_callsite (in.builder, 7, in.callsites[1], SPS_SAMPLE_HAS_WEIGHT);
  sps_trace_builder_set_sample_callsite (in.builder, unresolved, in.callsites[0], SPS_SAMPLE_UNRESOLVED);
  sps_trace_builder_set_sample_line (in.builder, 5, 42);
  trace = finish (&in);
  samples = sps_trace_get_samples (trace);

  g_assert_nonnull (samples->weight);
  g_assert_nonnull (samples->flags);
  g_assert_nonnull (samples->line);
  g_assert_null (samples->event_name);
  g_assert_null (samples->raw_stack_ref);
  g_assert_null (samples->weight_unit);

  for (guint r = 0; r < N_SAMPLES; r++)
    {
      guint i = input_of_row (samples, r);

      g_assert_cmpfloat (sps_sample_table_get_weight (samples, r), ==, i == 400 ? 2 * WEIGHT : WEIGHT);
      g_assert_cmpint (sps_sample_table_get_flags (samples, r), ==,
                       i == 100 ? SPS_SAMPLE_HAS_WEIGHT | SPS_SAMPLE_UNRESOLVED : SPS_SAMPLE_HAS_WEIGHT);
      g_assert_cmpuint (sps_sample_table_get_line (samples, r), ==, i == 5 ? 42 : 0);
      g_assert_cmpuint (samples->callsite[r], ==,
                        i == 100 ? in.callsites[0] : i == 7 ? in.callsites[1] : in.callsites[i % 3]);
      g_assert_cmpstr (sps_trace_get_string (trace, sps_sample_table_get_event_name (samples, r)), ==, "cpu");
      g_assert_cmpint (sps_sample_table_get_weight_unit (samples, r), ==, SPS_WEIGHT_UNIT_NS);
    }
}

static gint64
query_int (SpsSqlEngine *engine,
           const char   *sql)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsSqlResult) result = sps_sql_engine_query (engine, sql, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (sps_sql_result_get_n_rows (result), ==, 1);
  return sps_sql_result_get_int64 (result, 0, 0);
}

/* SQL's samples table reads the columns stored once in every row */
static void
test_sql (void)
{
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsSqlEngine) engine = NULL;
  g_autoptr(GError) error = NULL;
  Input in;

  input_init (&in);
  for (guint i = 0; i < N_SAMPLES; i++)
    add_input_sample (&in, i, WEIGHT);
  trace = finish (&in);
  engine = sps_sql_engine_new (trace, &error);
  g_assert_no_error (error);

  g_assert_cmpint (query_int (engine, "SELECT count(*) FROM samples WHERE sample_weight = 1000000.0 AND "
                                      "weight_unit = 'ns' AND event_name = 'cpu' AND line IS NULL AND "
                                      "unresolved = 0"), ==, N_SAMPLES);
  /* 600 samples of 1 ms each: 600 ms of CPU */
  g_assert_cmpint (query_int (engine, "SELECT sum(estimated_cpu_time) FROM samples"), ==, N_SAMPLES * 1000000);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/samples/constant/stored-once", test_stored_once);
  g_test_add_func ("/core/samples/constant/materialised", test_materialised);
  g_test_add_func ("/core/samples/constant/sql", test_sql);

  return g_test_run ();
}
