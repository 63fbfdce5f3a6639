/* test-chrome-semantics.c: the reference importers' rules, row by row
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each fixture in tests/fixtures/semantics-*.json holds the cases of one
 * group of rules (docs/file-formats.md); every expected row below was
 * worked out by hand from the fixture, as the comments say.
 */

#define G_LOG_DOMAIN "sps-test-chrome-semantics"

#include "config.h"

#include <math.h>
#include <string.h>

#include <spanscope-core.h>

#include "sps-test-util.h"

/* One line per slice in table order: name ts dur depth [U] args */
static char *
dump_slices (SpsTrace *trace)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < slices->n_rows; i++)
    {
      gsize len = 0;
      const char *args = sps_trace_get_args_json (trace, slices->args[i], &len);

      g_string_append_printf (out, "%s %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %u%s ",
                              sps_trace_get_string (trace, slices->name[i]),
                              slices->ts[i], slices->dur[i], slices->depth[i],
                              (slices->flags[i] & SPS_SLICE_UNFINISHED) ? " U" : "");
      if (args != NULL)
        g_string_append_len (out, args, (gssize) len);
      else
        g_string_append (out, "-");
      g_string_append_c (out, '\n');
    }

  return g_string_free (out, FALSE);
}

/* name=count for every warning, sorted by name */
static char *
dump_warnings (SpsTrace *trace)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < sps_trace_get_n_warnings (trace); i++)
    {
      guint64 count = 0;
      const char *name = sps_trace_get_warning (trace, i, &count, NULL);

      g_string_append_printf (out, "%s%s=%" G_GUINT64_FORMAT, i > 0 ? " " : "", name, count);
    }

  return g_string_free (out, FALSE);
}

static void
test_end_args_and_open_x (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("semantics-end-args.json");
  g_autofree char *slices = dump_slices (trace);
  g_autofree char *warnings = dump_warnings (trace);

  /* tid 1: E "other" closes inner whatever its name; inner had no args,
   * so the E's are its args. E work merges into B work's args: "b" is
   * the E's, "d" added, the trailing comma gone.
   * tid 2: X open has no dur, so it lasts to the trace end (the instant
   * at 50): 30 + 20; done (31-35) nests in it. */
  g_assert_cmpstr (slices, ==,
                   "work 10000 10000 0 {\"a\":1,\"b\":\"end\",\"d\":[1,2]}\n"
                   "inner 12000 2000 1 {\"c\":true}\n"
                   "open 30000 20000 0 U -\n"
                   "done 31000 4000 1 {\"x\":1}\n");
  g_assert_cmpstr (warnings, ==,
                   "arg_overwritten=1 begin_end_name_mismatch=1 missing_duration=1");
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES), ==, 3);
}

static void
test_numbers_as_strings (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("semantics-numbers.json");
  g_autofree char *slices = dump_slices (trace);
  g_autofree char *warnings = dump_warnings (trace);

  /* ".75" µs = 750 ns, "246." = 246 µs; "+10.5" and "01.23" µs. "100a",
   * "invalid" (ts) and "1e" (dur) drop their events: not zero. */
  g_assert_cmpstr (slices, ==,
                   "a 750 246000 0 -\n"
                   "b 10500 1230 1 -\n");
  g_assert_cmpstr (warnings, ==, "bad_number=3");
  g_assert_cmpuint (sps_trace_get_events_read (trace), ==, 5);
}

static void
test_async (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("semantics-async.json");
  g_autofree char *slices = dump_slices (trace);
  g_autofree char *warnings = dump_warnings (trace);

  /* load: S 0 … F 50 with the F's args merged ("k" overwritten); a T
   * starts a child to the next step or the F, nothing from 0 to 10; the
   * second S of load (20) is dropped, as (name, id) is still open.
   * save: a p names the child that ends at it, from the S or the step
   * before; 140 to 160 is a child named by the S. mixed (T and p) and lost (no S)
   * make nothing. Nestable id 9: e mid (330) closes the inner mid (320);
   * e outer (340) closes outer and leaves the first mid open, which the
   * last e mid closes at 350; e stray closes nothing. tie: two T at 410
   * keep the file's order, so "first" lasts 0 and "second" to the F
   * (the table puts the longer first among equal starts). */
  g_assert_cmpstr (slices, ==,
                   "load 0 50000 0 {\"k\":\"f\",\"z\":2}\n"
                   "parse 10000 20000 1 {\"step\":\"parse\"}\n"
                   "run 30000 20000 1 {\"step\":\"run\"}\n"
                   "save 100000 60000 0 -\n"
                   "open 100000 20000 1 {\"step\":\"open\"}\n"
                   "write 120000 20000 1 {\"step\":\"write\"}\n"
                   "save 140000 20000 1 -\n"
                   "outer 300000 40000 0 -\n"
                   "mid 310000 40000 1 -\n"
                   "mid 320000 10000 2 {\"r\":1}\n"
                   "tie 400000 20000 0 -\n"
                   "second 410000 10000 1 {\"step\":\"second\"}\n"
                   "first 410000 0 1 {\"step\":\"first\"}\n");
  g_assert_cmpstr (warnings, ==,
                   "arg_overwritten=1 duplicate_async_start=1 mixed_async_steps=1 "
                   "unmatched_async_end=2 unmatched_async_step=1");
}

static void
test_flows_and_labels (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("semantics-flows-labels.json");
  const SpsFlowTable *flows = sps_trace_get_flows (trace);
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  const SpsProcessTable *processes = sps_trace_get_processes (trace);
  g_autofree char *warnings = dump_warnings (trace);
  GString *arrows = g_string_new (NULL);
  g_autofree char *dump = NULL;

  for (guint i = 0; i < flows->n_rows; i++)
    g_string_append_printf (arrows, "%s>%s ",
                            sps_trace_get_string (trace, slices->name[flows->from_slice[i]]),
                            sps_trace_get_string (trace, slices->name[flows->to_slice[i]]));
  dump = g_string_free (arrows, FALSE);

  /* send's flow_out binds to every flow_in of 0x1 until relay's
   * flow_out takes over; early's flow_in of 0x2 has no producer */
  g_assert_cmpstr (dump, ==, "send>recv1 send>recv2 send>relay relay>recv3 ");
  g_assert_cmpstr (warnings, ==, "flow_without_start=1");

  /* "gpu,main" then "main,,tab": each once, first appearance first */
  g_assert_cmpuint (processes->n_rows, ==, 1);
  g_assert_cmpstr (sps_trace_get_string (trace, processes->labels[0]), ==, "gpu,main,tab");
}

/* Weights: a unit kept with or without a usable weight; a unit that is not
 * a time kept out (with a warning naming it) but the weight kept. */
static void
check_weights (SpsTrace *trace)
{
  const SpsSampleTable *samples = sps_trace_get_samples (trace);
  static const struct
  {
    const char    *name;
    SpsWeightUnit  unit;
    gboolean       has_weight;
    double         weight;
  } expected[] = {
    /* no weight: the unit is kept all the same */
    { "a", SPS_WEIGHT_UNIT_MS, FALSE, NAN },
    /* a negative weight is a weight (unusable for an estimate); unit kept */
    { "b", SPS_WEIGHT_UNIT_US, TRUE, -1 },
    /* a weight written as a string is not a number */
    { "c", SPS_WEIGHT_UNIT_NS, FALSE, NAN },
    { "d", SPS_WEIGHT_UNIT_S, TRUE, 2 },
    /* a unit that is not a time reads as none, the weight stays */
    { "e", SPS_WEIGHT_UNIT_NONE, TRUE, 3 },
  };

  g_assert_cmpuint (samples->n_rows, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < samples->n_rows; i++)
    {
      g_assert_cmpstr (sps_trace_get_string (trace, samples->name[i]), ==, expected[i].name);
      g_assert_cmpint (sps_sample_table_get_weight_unit (samples, i), ==, expected[i].unit);
      g_assert_cmpint ((sps_sample_table_get_flags (samples, i) & SPS_SAMPLE_HAS_WEIGHT) != 0, ==, expected[i].has_weight);
      if (expected[i].has_weight)
        g_assert_cmpfloat (sps_sample_table_get_weight (samples, i), ==, expected[i].weight);
    }
}

static void
test_weights (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("semantics-weights.json");
  g_autofree char *input = sps_test_fixture_path ("semantics-weights.json");
  g_autofree char *dir = g_dir_make_tmp ("chrome-semantics-XXXXXX", NULL);
  g_autofree char *output = g_build_filename (dir, "out.json", NULL);
  g_auto(SpsTestRun) run = { 0 };
  g_autoptr(SpsTrace) again = NULL;
  const char *message = NULL;
  guint64 count = 0;
  guint n_found = 0;

  check_weights (trace);
  /* The unknown unit is named where it was written: the fifth event,
   * line 6 */
  for (guint i = 0; i < sps_trace_get_n_warnings (trace); i++)
    if (g_str_equal (sps_trace_get_warning (trace, i, &count, &message), "unknown_weight_unit"))
      {
        g_assert_cmpuint (count, ==, 1);
        g_assert_nonnull (strstr (message, "semantics-weights.json:6:1"));
        g_assert_nonnull (strstr (message, "weightUnit \"furlongs\" is not a time unit"));
        n_found++;
      }
  g_assert_cmpuint (n_found, ==, 1);
  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 1);

  /* convert keeps each unit, also where there is no weight */
  sps_test_run_cli_va (&run, "convert", input, "--format", "chrome-json", "-o", output, NULL);
  g_assert_cmpint (run.status, ==, 0);
  again = sps_test_load_path (output);
  check_weights (again);
  g_assert_cmpuint (sps_trace_get_n_warnings (again), ==, 0);
  sps_test_remove_tree (dir);
}

/* Top-level keys other than the events survive convert, a text
 * systemTraceEvents (not imported) too. */
static void
test_convert_keeps_metadata (void)
{
  g_autofree char *input = sps_test_fixture_path ("semantics-flows-labels.json");
  g_autofree char *dir = g_dir_make_tmp ("chrome-semantics-XXXXXX", NULL);
  g_autofree char *output = g_build_filename (dir, "out.json", NULL);
  g_auto(SpsTestRun) run = { 0 };
  g_autoptr(SpsTrace) trace = NULL;
  guint n = 0;

  sps_test_run_cli_va (&run, "convert", input, "--format", "chrome-json", "-o", output, NULL);
  g_assert_cmpint (run.status, ==, 0);

  trace = sps_test_load_path (output);
  for (guint i = 0; i < sps_trace_get_n_metadata (trace); i++)
    {
      SpsArgsRef value = SPS_ARGS_REF_NONE;
      const char *key = sps_trace_get_metadata (trace, i, &value);
      gsize len = 0;
      const char *json = sps_trace_get_args_json (trace, value, &len);
      g_autofree char *text = g_strndup (json, len);

      if (g_strcmp0 (key, "TraceConfig") == 0)
        {
          g_assert_cmpstr (text, ==, "{\"record_mode\":\"record-until-full\"}");
          n++;
        }
      else if (g_strcmp0 (key, "systemTraceEvents") == 0)
        {
          g_assert_cmpstr (text, ==, "\"# tracer: nop\\n\"");
          n++;
        }
    }
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpstr (sps_trace_get_string (trace, sps_trace_get_processes (trace)->labels[0]), ==,
                   "gpu,main,tab");
  sps_test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/chrome/semantics/end-args-and-open-x", test_end_args_and_open_x);
  g_test_add_func ("/chrome/semantics/numbers-as-strings", test_numbers_as_strings);
  g_test_add_func ("/chrome/semantics/async", test_async);
  g_test_add_func ("/chrome/semantics/flows-and-labels", test_flows_and_labels);
  g_test_add_func ("/chrome/semantics/weights", test_weights);
  g_test_add_func ("/chrome/semantics/convert-keeps-metadata", test_convert_keeps_metadata);

  return g_test_run ();
}
