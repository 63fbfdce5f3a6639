/* test-flame-export.c: the folded and speedscope exporters, and
 * `spanscope-cli flame`
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The expected folded files in tests/fixtures/flame/ were written by
 * hand from the fixtures (see the comment of each test).
 */

#define G_LOG_DOMAIN "sps-test-flame-export"

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include <spanscope-core.h>

#include "sps-test-util.h"

static char *scratch_dir;

static char *
read_expected (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "flame", name, NULL);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);

  return contents;
}

static SpsExporter *
exporter (const char *name)
{
  SpsExporter *ret = sps_plugin_engine_create_exporter (sps_plugin_engine_get_default (), name);

  g_assert_nonnull (ret);

  return ret;
}

/* Writes @trace with the exporter @name; returns the text, or NULL with
 * @error set. */
static char *
export (const char  *name,
        SpsTrace    *trace,
        GVariant    *options,
        GError     **error)
{
  g_autoptr(SpsExporter) e = exporter (name);
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GVariant) empty = g_variant_ref_sink (g_variant_new_array (G_VARIANT_TYPE ("{sv}"), NULL, 0));
  g_autoptr(SpsProgress) progress = sps_progress_new (NULL);

  if (!sps_exporter_write (e, trace, options != NULL ? options : empty, out, progress, error))
    return NULL;
  g_assert_cmpfloat (sps_progress_get_fraction (progress), ==, 1.0);
  g_assert_true (g_output_stream_write_all (out, "", 1, NULL, NULL, NULL));
  g_assert_true (g_output_stream_close (out, NULL, NULL));

  return g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (out));
}

static GVariant *
options_new (const char *tree,
             gint64      tid)
{
  GVariantDict dict;

  g_variant_dict_init (&dict, NULL);
  if (tree != NULL)
    g_variant_dict_insert (&dict, "tree", "s", tree);
  if (tid >= 0)
    g_variant_dict_insert (&dict, "thread", "x", tid);

  return g_variant_ref_sink (g_variant_dict_end (&dict));
}

static void
assert_folded (const char *fixture,
               const char *tree,
               gint64      tid,
               const char *expected_file)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture (fixture);
  g_autoptr(GVariant) options = options_new (tree, tid);
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = read_expected (expected_file);
  g_autofree char *text = export ("folded", trace, options, &error);

  g_assert_no_error (error);
  g_assert_cmpstr (text, ==, expected);
}

static void
test_names (void)
{
  g_autoptr(SpsExporter) folded = exporter ("folded");
  g_autoptr(SpsExporter) speedscope = exporter ("speedscope");

  g_assert_cmpstr (sps_exporter_get_suffix (folded), ==, ".folded");
  g_assert_cmpstr (sps_exporter_get_suffix (speedscope), ==, ".speedscope.json");
}

/* sampled_stacks.json merged: t11 main;work + main, t12 main;work, so
 * main 1 and main;work 2 (counts, not the 250/500 us weights). The
 * default tree of a trace with samples is the samples tree. */
static void
test_folded_samples (void)
{
  assert_folded ("sampled_stacks.json", "samples", -1, "sampled_stacks.samples.folded");
  assert_folded ("sampled_stacks.json", NULL, -1, "sampled_stacks.samples.folded");
  assert_folded ("sampled_stacks_reordered.json", NULL, -1, "sampled_stacks.samples.folded");
  /* Thread 11 alone: main 1, main;work 1 */
  assert_folded ("sampled_stacks.json", "samples", 11, "sampled_stacks.thread11.folded");
  /* Unresolved stacks fold as one frame named after their event; lines
   * in byte order */
  assert_folded ("sampled_unresolved.json", NULL, -1, "sampled_unresolved.samples.folded");
  /* Recursion: a;b;a twice; "c;d" is written c:d */
  assert_folded ("flame/recursive_samples.json", NULL, -1, "recursive_samples.samples.folded");
}

/* perfview_spans.json: the outer Recurse has no self time, so no line;
 * the two inner ones add 5 + 5 µs at Recurse;Recurse. cli-small.json:
 * main 50 µs − inner 10 µs = 40 µs self; job 30 µs; the sampleEvent hot
 * is not measured. */
static void
test_folded_spans (void)
{
  assert_folded ("perfview_spans.json", "sampled", -1, "perfview_spans.sampled.folded");
  assert_folded ("perfview_spans.json", NULL, -1, "perfview_spans.sampled.folded");
  assert_folded ("cli-small.json", "measured", -1, "cli-small.measured.folded");
}

static void
test_options_errors (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("sampled_stacks.json");
  const char *formats[] = { "folded", "speedscope" };

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_autoptr(GError) bad_type = NULL;
      g_autoptr(GError) bad_tree = NULL;
      g_autoptr(GError) bad_thread = NULL;
      g_autoptr(GError) bad_tid_type = NULL;
      g_autoptr(GVariant) wrong_type = NULL;
      g_autoptr(GVariant) unknown = options_new ("callgraph", -1);
      g_autoptr(GVariant) no_thread = options_new (NULL, 99);
      g_autoptr(GVariant) tid_string = NULL;
      GVariantDict dict;
      g_autofree char *a = NULL;
      g_autofree char *b = NULL;
      g_autofree char *c = NULL;
      g_autofree char *d = NULL;

      g_variant_dict_init (&dict, NULL);
      g_variant_dict_insert (&dict, "tree", "i", 1);
      wrong_type = g_variant_ref_sink (g_variant_dict_end (&dict));
      g_variant_dict_init (&dict, NULL);
      g_variant_dict_insert (&dict, "thread", "s", "11");
      tid_string = g_variant_ref_sink (g_variant_dict_end (&dict));

      a = export (formats[i], trace, wrong_type, &bad_type);
      g_assert_error (bad_type, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
      b = export (formats[i], trace, unknown, &bad_tree);
      g_assert_error (bad_tree, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
      g_assert_nonnull (strstr (bad_tree->message, "callgraph"));
      c = export (formats[i], trace, no_thread, &bad_thread);
      g_assert_error (bad_thread, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
      g_assert_nonnull (strstr (bad_thread->message, "99"));
      d = export (formats[i], trace, tid_string, &bad_tid_type);
      g_assert_error (bad_tid_type, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
      g_assert_null (a);
      g_assert_null (b);
      g_assert_null (c);
      g_assert_null (d);
    }
}

static JsonObject *
parse_speedscope (const char *text,
                  JsonParser *parser)
{
  g_autoptr(GError) error = NULL;
  JsonObject *root;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "$schema"), ==,
                   "https://www.speedscope.app/file-format-schema.json");
  g_assert_true (json_object_has_member (root, "shared"));
  g_assert_true (json_object_has_member (root, "profiles"));

  return root;
}

static char *
frame_name (JsonObject *root,
            gint64      index)
{
  JsonArray *frames = json_object_get_array_member (json_object_get_object_member (root, "shared"), "frames");

  g_assert_cmpint (index, >=, 0);
  g_assert_cmpint (index, <, json_array_get_length (frames));

  return g_strdup (json_object_get_string_member (json_array_get_object_element (frames, (guint) index), "name"));
}

/* Every sample's stack, root first, joined with ';' */
static char *
sampled_stacks (JsonObject *root,
                JsonObject *profile)
{
  JsonArray *samples = json_object_get_array_member (profile, "samples");
  JsonArray *weights = json_object_get_array_member (profile, "weights");
  GString *out = g_string_new (NULL);
  gint64 total = 0;

  g_assert_cmpstr (json_object_get_string_member (profile, "type"), ==, "sampled");
  g_assert_cmpstr (json_object_get_string_member (profile, "unit"), ==, "none");
  g_assert_cmpuint (json_array_get_length (samples), ==, json_array_get_length (weights));

  for (guint i = 0; i < json_array_get_length (samples); i++)
    {
      JsonArray *stack = json_array_get_array_element (samples, i);

      /* Widths are counts: every weight is 1 */
      g_assert_cmpint (json_array_get_int_element (weights, i), ==, 1);
      total += json_array_get_int_element (weights, i);
      if (i > 0)
        g_string_append_c (out, ' ');
      for (guint k = 0; k < json_array_get_length (stack); k++)
        {
          g_autofree char *name = frame_name (root, json_array_get_int_element (stack, k));

          if (k > 0)
            g_string_append_c (out, ';');
          g_string_append (out, name);
        }
    }
  g_assert_cmpint (json_object_get_int_member (profile, "startValue"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (profile, "endValue"), ==, total);

  return g_string_free (out, FALSE);
}

/* sampled_stacks.json: thread 11 (named worker) main;work at 100 µs then
 * main at 10,000 µs; thread 12 main;work. */
static void
test_speedscope_samples (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("sampled_stacks.json");
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = export ("speedscope", trace, NULL, &error);
  g_autofree char *t11 = NULL;
  g_autofree char *t12 = NULL;
  JsonObject *root;
  JsonArray *profiles;
  JsonArray *frames;

  g_assert_no_error (error);
  root = parse_speedscope (text, parser);
  frames = json_object_get_array_member (json_object_get_object_member (root, "shared"), "frames");
  /* Each frame name once */
  g_assert_cmpuint (json_array_get_length (frames), ==, 2);

  profiles = json_object_get_array_member (root, "profiles");
  g_assert_cmpuint (json_array_get_length (profiles), ==, 2);
  t11 = sampled_stacks (root, json_array_get_object_element (profiles, 0));
  t12 = sampled_stacks (root, json_array_get_object_element (profiles, 1));
  g_assert_cmpstr (t11, ==, "main;work main");
  g_assert_cmpstr (t12, ==, "main;work");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (profiles, 0), "name"),
                   ==, "worker (pid 7, tid 11)");

  /* One thread */
  {
    g_autoptr(GVariant) options = options_new (NULL, 12);
    g_autoptr(JsonParser) parser12 = json_parser_new ();
    g_autofree char *text12 = export ("speedscope", trace, options, &error);
    g_autofree char *only = NULL;

    g_assert_no_error (error);
    root = parse_speedscope (text12, parser12);
    profiles = json_object_get_array_member (root, "profiles");
    g_assert_cmpuint (json_array_get_length (profiles), ==, 1);
    only = sampled_stacks (root, json_array_get_object_element (profiles, 0));
    g_assert_cmpstr (only, ==, "main;work");
  }
}

/* Checks that an evented profile opens and closes properly nested frames
 * at non-decreasing times, and returns "O name@at C name@at …". */
static char *
evented_events (JsonObject *root,
                JsonObject *profile)
{
  JsonArray *events = json_object_get_array_member (profile, "events");
  g_autoptr(GArray) open = g_array_new (FALSE, FALSE, sizeof (gint64));
  GString *out = g_string_new (NULL);
  gint64 last = json_object_get_int_member (profile, "startValue");

  g_assert_cmpstr (json_object_get_string_member (profile, "type"), ==, "evented");
  g_assert_cmpstr (json_object_get_string_member (profile, "unit"), ==, "nanoseconds");

  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *ev = json_array_get_object_element (events, i);
      const char *type = json_object_get_string_member (ev, "type");
      gint64 frame = json_object_get_int_member (ev, "frame");
      gint64 at = json_object_get_int_member (ev, "at");
      g_autofree char *name = frame_name (root, frame);

      g_assert_cmpint (at, >=, last);
      last = at;
      if (g_str_equal (type, "O"))
        g_array_append_val (open, frame);
      else
        {
          g_assert_cmpstr (type, ==, "C");
          g_assert_cmpuint (open->len, >, 0);
          g_assert_cmpint (g_array_index (open, gint64, open->len - 1), ==, frame);
          g_array_set_size (open, open->len - 1);
        }
      g_string_append_printf (out, "%s%s %s@%" G_GINT64_FORMAT, i > 0 ? " " : "", type, name, at);
    }
  g_assert_cmpuint (open->len, ==, 0);
  g_assert_cmpint (last, <=, json_object_get_int_member (profile, "endValue"));

  return g_string_free (out, FALSE);
}

static void
test_speedscope_evented (void)
{
  g_autoptr(SpsTrace) spans = sps_test_load_fixture ("perfview_spans.json");
  g_autoptr(SpsTrace) small = sps_test_load_fixture ("cli-small.json");
  g_autoptr(GError) error = NULL;

  /* perfview_spans.json: Recurse 0–10 µs holding 0–5 and 5–10 */
  {
    g_autoptr(JsonParser) parser = json_parser_new ();
    g_autofree char *text = export ("speedscope", spans, NULL, &error);
    g_autofree char *events = NULL;
    JsonObject *root;
    JsonArray *profiles;

    g_assert_no_error (error);
    root = parse_speedscope (text, parser);
    profiles = json_object_get_array_member (root, "profiles");
    g_assert_cmpuint (json_array_get_length (profiles), ==, 1);
    events = evented_events (root, json_array_get_object_element (profiles, 0));
    g_assert_cmpstr (events, ==,
                     "O Recurse@0 O Recurse@0 C Recurse@5000 O Recurse@5000 C Recurse@10000 C Recurse@10000");
  }

  /* cli-small.json measured: tid 1 main 100–150 µs with inner 110–120;
   * tid 2 job 130–160 */
  {
    g_autoptr(JsonParser) parser = json_parser_new ();
    g_autoptr(GVariant) options = options_new ("measured", -1);
    g_autofree char *text = export ("speedscope", small, options, &error);
    g_autofree char *t1 = NULL;
    g_autofree char *t2 = NULL;
    JsonObject *root;
    JsonArray *profiles;

    g_assert_no_error (error);
    root = parse_speedscope (text, parser);
    profiles = json_object_get_array_member (root, "profiles");
    g_assert_cmpuint (json_array_get_length (profiles), ==, 2);
    /* In thread table order: tid 2 was named (M) before tid 1 appeared */
    g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (profiles, 0), "name"),
                     ==, "worker (pid 1, tid 2)");
    g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (profiles, 1), "name"),
                     ==, "pid 1, tid 1");
    t2 = evented_events (root, json_array_get_object_element (profiles, 0));
    t1 = evented_events (root, json_array_get_object_element (profiles, 1));
    g_assert_cmpstr (t1, ==, "O main@100000 O inner@110000 C inner@120000 C main@150000");
    g_assert_cmpstr (t2, ==, "O job@130000 C job@160000");
  }
}

/* Runs spanscope-cli with @args: it must succeed and leave in @output
 * exactly tests/fixtures/flame/@expected. */
static void
assert_cli_output (const char * const *args,
                   const char         *output,
                   const char         *expected)
{
  g_auto(SpsTestRun) run = { 0 };
  g_autofree char *want = read_expected (expected);
  g_autofree char *text = NULL;

  sps_test_run_cli (&run, args);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (g_file_get_contents (output, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, want);
}

static void
test_cli (void)
{
  g_autofree char *input = g_test_build_filename (G_TEST_DIST, "fixtures", "sampled_stacks.json", NULL);
  g_autofree char *spans = g_test_build_filename (G_TEST_DIST, "fixtures", "perfview_spans.json", NULL);
  g_autofree char *output = g_build_filename (scratch_dir, "out.folded", NULL);
  g_autofree char *json_out = g_build_filename (scratch_dir, "out.speedscope.json", NULL);

  if (g_getenv ("SPANSCOPE_CLI") == NULL)
    {
      g_test_skip ("SPANSCOPE_CLI is not set");
      return;
    }

  /* Default tree (samples), all threads */
  {
    const char *args[] = { "flame", input, "--format", "folded", "-o", output, NULL };

    assert_cli_output (args, output, "sampled_stacks.samples.folded");
  }

  /* --thread */
  {
    const char *args[] = { "flame", input, "--thread", "11", "--tree", "samples",
                           "--format", "folded", "-o", output, NULL };

    assert_cli_output (args, output, "sampled_stacks.thread11.folded");
  }

  /* A trace with only sampled spans defaults to that tree */
  {
    const char *args[] = { "flame", spans, "--format", "folded", "-o", output, NULL };

    assert_cli_output (args, output, "perfview_spans.sampled.folded");
  }

  /* speedscope */
  {
    g_auto(SpsTestRun) run = { 0 };
    const char *args[] = { "flame", input, "--format", "speedscope", "-o", json_out, NULL };
    g_autoptr(JsonParser) parser = json_parser_new ();
    g_autofree char *text = NULL;
    JsonObject *root;

    sps_test_run_cli (&run, args);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_true (g_file_get_contents (json_out, &text, NULL, NULL));
    root = parse_speedscope (text, parser);
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "profiles")), ==, 2);
  }

  /* Usage errors: exit 2, nothing written */
  {
    const char *bad_tree[] = { "flame", input, "--tree", "callgraph", "--format", "folded", "-o", output, NULL };
    const char *bad_format[] = { "flame", input, "--format", "chrome-json", "-o", output, NULL };
    const char *bad_tid[] = { "flame", input, "--thread", "eleven", "--format", "folded", "-o", output, NULL };
    const char *no_output[] = { "flame", input, "--format", "folded", NULL };
    const char **cases[] = { bad_tree, bad_format, bad_tid, no_output };

    for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
      {
        g_auto(SpsTestRun) run = { 0 };

        sps_test_run_cli (&run, cases[i]);
        g_assert_cmpint (run.status, ==, 2);
      }
  }

  /* A thread that is not there: bad input, exit 1, the old file kept */
  {
    g_auto(SpsTestRun) run = { 0 };
    const char *args[] = { "flame", input, "--thread", "99", "--format", "folded", "-o", output, NULL };
    g_autofree char *expected = read_expected ("perfview_spans.sampled.folded");
    g_autofree char *text = NULL;

    sps_test_run_cli (&run, args);
    g_assert_cmpint (run.status, ==, 1);
    g_assert_nonnull (strstr (run.err, "99"));
    g_assert_true (g_file_get_contents (output, &text, NULL, NULL));
    g_assert_cmpstr (text, ==, expected);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);

  scratch_dir = g_dir_make_tmp ("spanscope-flame-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/flame/export/names", test_names);
  g_test_add_func ("/flame/export/folded/samples", test_folded_samples);
  g_test_add_func ("/flame/export/folded/spans", test_folded_spans);
  g_test_add_func ("/flame/export/options/errors", test_options_errors);
  g_test_add_func ("/flame/export/speedscope/samples", test_speedscope_samples);
  g_test_add_func ("/flame/export/speedscope/evented", test_speedscope_evented);
  g_test_add_func ("/flame/export/cli", test_cli);

  ret = g_test_run ();

  sps_test_remove_tree (scratch_dir);
  g_free (scratch_dir);

  return ret;
}
