/* test-cli.c: runs the real spanscope-cli (its path is in SPANSCOPE_CLI)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-cli"

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include <spanscope-core.h>

#include "sps-test-util.h"

static const char *cli_path;
static char *scratch_dir;

/* Parses `info --json` output; checks it is one object. */
static JsonObject *
parse_info (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonNode *root;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);

  root = json_parser_get_root (parser);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (root));

  return json_object_ref (json_node_get_object (root));
}

static JsonObject *
info_json (const char *path,
           gboolean    ns)
{
  g_auto(SpsTestRun) run = { 0 };

  if (ns)
    sps_test_run_cli_va (&run, "info", "--json", "--ns", path, NULL);
  else
    sps_test_run_cli_va (&run, "info", "--json", path, NULL);

  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.err, ==, "");

  return parse_info (run.out);
}

static const char * const info_keys[] = {
  "format", "events_read", "processes", "threads", "slices",
  "sampled_slices", "async_slices", "instants", "events", "counter_tracks",
  "counter_values", "flows", "samples", "objects", "allocations",
  "gc_observations", "metadata",
  "start_ns", "end_ns", "warnings",
};

static void
assert_info_keys (JsonObject *info)
{
  g_autoptr(GList) members = json_object_get_members (info);
  guint i = 0;

  /* Exactly these keys, in this order. */
  for (const GList *l = members; l != NULL; l = l->next, i++)
    {
      g_assert_cmpuint (i, <, G_N_ELEMENTS (info_keys));
      g_assert_cmpstr (l->data, ==, info_keys[i]);
    }
  g_assert_cmpuint (i, ==, G_N_ELEMENTS (info_keys));

  /* Counts are integers. */
  for (i = 1; i < G_N_ELEMENTS (info_keys) - 1; i++)
    {
      JsonNode *node = json_object_get_member (info, info_keys[i]);

      g_assert_true (JSON_NODE_HOLDS_VALUE (node));
      g_assert_cmpint (json_node_get_value_type (node), ==, G_TYPE_INT64);
    }
}

static void
test_cli_usage_no_command (void)
{
  g_auto(SpsTestRun) run = { 0 };

  sps_test_run_cli_va (&run, NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_cmpstr (run.out, ==, "");
  g_assert_nonnull (strstr (run.err, "Usage:"));
}

static void
test_cli_usage_unknown_command (void)
{
  g_auto(SpsTestRun) run = { 0 };

  sps_test_run_cli_va (&run, "frobnicate", "x.json", NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "unknown command “frobnicate”"));
  g_assert_nonnull (strstr (run.err, "Usage:"));
}

static void
test_cli_usage_bad_option (void)
{
  g_autofree char *path = sps_test_fixture_path ("cli-small.json");
  g_auto(SpsTestRun) run = { 0 };

  sps_test_run_cli_va (&run, "info", "--bogus", path, NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_cmpstr (run.out, ==, "");
  g_assert_nonnull (strstr (run.err, "--bogus"));
  g_assert_nonnull (strstr (run.err, "--json"));
}

static void
test_cli_usage_missing_file (void)
{
  g_autofree char *path = sps_test_fixture_path ("cli-small.json");
  g_auto(SpsTestRun) none = { 0 };
  g_auto(SpsTestRun) two = { 0 };
  g_auto(SpsTestRun) convert = { 0 };

  sps_test_run_cli_va (&none, "info", "--json", NULL);
  g_assert_cmpint (none.status, ==, 2);
  g_assert_nonnull (strstr (none.err, "missing FILE"));

  sps_test_run_cli_va (&two, "info", path, path, NULL);
  g_assert_cmpint (two.status, ==, 2);

  sps_test_run_cli_va (&convert, "convert", "--format", "chrome-json", "-o", "out.json", NULL);
  g_assert_cmpint (convert.status, ==, 2);
  g_assert_nonnull (strstr (convert.err, "missing FILE"));
}

static void
test_cli_version (void)
{
  g_auto(SpsTestRun) run = { 0 };
  g_autofree char *expected = g_strdup_printf ("spanscope-cli %s\n", PACKAGE_VERSION);

  sps_test_run_cli_va (&run, "--version", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.out, ==, expected);
}

static void
test_cli_help (void)
{
  g_auto(SpsTestRun) top = { 0 };
  g_auto(SpsTestRun) info = { 0 };
  g_auto(SpsTestRun) convert = { 0 };

  sps_test_run_cli_va (&top, "--help", NULL);
  g_assert_cmpint (top.status, ==, 0);
  g_assert_nonnull (strstr (top.out, "spanscope-cli info"));

  sps_test_run_cli_va (&info, "info", "--help", NULL);
  g_assert_cmpint (info.status, ==, 0);
  g_assert_nonnull (strstr (info.out, "--json"));
  g_assert_nonnull (strstr (info.out, "--ns"));

  sps_test_run_cli_va (&convert, "convert", "--help", NULL);
  g_assert_cmpint (convert.status, ==, 0);
  g_assert_nonnull (strstr (convert.out, "--format"));
  g_assert_nonnull (strstr (convert.out, "--output"));
}

/* tests/fixtures/cli-small.json, counted by hand (ts in µs):
 *
 *   events_read     22: every element of traceEvents, {} included
 *   processes        1: pid 1
 *   threads          2: (1, 1) and (1, 2)
 *   slices           3: X main, B/E inner, X job
 *   sampled_slices   1: X hot (category sampleEvent)
 *   async_slices     1: b/e fetch
 *   instants         3: i tick, R mark, n progress
 *   counter_tracks   2: mem/heap, mem/stack
 *   counter_values   4: two C events with two series each
 *   flows            1: s at 115 (in inner) → f at 140 (bp e, in job)
 *   samples          1: P
 *   objects          3: N, O, D
 *   metadata         2: process_name, thread_name
 *   start_ns    100000: X main and C at 100 µs
 *   end_ns      160000: X job ends at 130 + 30 µs
 *   warnings: unmatched_end 1 (the E at 145 on tid 2, where no B is open)
 */
static void
test_cli_info_json (void)
{
  g_autofree char *path = sps_test_fixture_path ("cli-small.json");
  g_autoptr(JsonObject) info = info_json (path, FALSE);
  JsonObject *warnings;

  assert_info_keys (info);

  g_assert_cmpstr (json_object_get_string_member (info, "format"), ==, "chrome-json");
  g_assert_cmpint (json_object_get_int_member (info, "events_read"), ==, 22);
  g_assert_cmpint (json_object_get_int_member (info, "processes"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (info, "threads"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (info, "slices"), ==, 3);
  g_assert_cmpint (json_object_get_int_member (info, "sampled_slices"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (info, "async_slices"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (info, "instants"), ==, 3);
  g_assert_cmpint (json_object_get_int_member (info, "counter_tracks"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (info, "counter_values"), ==, 4);
  g_assert_cmpint (json_object_get_int_member (info, "flows"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (info, "samples"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (info, "objects"), ==, 3);
  /* N, O and D of one object: one life, and no GC in a Chrome trace */
  g_assert_cmpint (json_object_get_int_member (info, "allocations"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (info, "gc_observations"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (info, "metadata"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (info, "start_ns"), ==, 100000);
  g_assert_cmpint (json_object_get_int_member (info, "end_ns"), ==, 160000);

  warnings = json_object_get_object_member (info, "warnings");
  g_assert_nonnull (warnings);
  g_assert_cmpuint (json_object_get_size (warnings), ==, 1);
  g_assert_cmpint (json_object_get_int_member (warnings, "unmatched_end"), ==, 1);
}

static void
test_cli_info_ns (void)
{
  g_autofree char *path = sps_test_fixture_path ("cli-small.json");
  g_autoptr(JsonObject) info = info_json (path, TRUE);

  /* With --ns the same numbers are nanoseconds. */
  g_assert_cmpint (json_object_get_int_member (info, "start_ns"), ==, 100);
  g_assert_cmpint (json_object_get_int_member (info, "end_ns"), ==, 160);
  g_assert_cmpint (json_object_get_int_member (info, "slices"), ==, 3);
}

/* --ms and --s: the same numbers (start 100, end 160 as written) in
 * milliseconds and seconds; two units at once is a usage error */
static void
test_cli_info_units (void)
{
  g_autofree char *path = sps_test_fixture_path ("cli-small.json");
  static const struct {
    const char *option;
    gint64      start_ns;
    gint64      end_ns;
  } cases[] = {
    { "--us", 100000, 160000 },
    { "--ms", 100000000, 160000000 },
    { "--s", G_GINT64_CONSTANT (100000000000), G_GINT64_CONSTANT (160000000000) },
  };
  g_auto(SpsTestRun) both = { 0 };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(SpsTestRun) run = { 0 };
      g_autoptr(JsonObject) info = NULL;

      sps_test_run_cli_va (&run, "info", "--json", cases[i].option, path, NULL);
      g_assert_cmpint (run.status, ==, 0);
      info = parse_info (run.out);
      g_assert_cmpint (json_object_get_int_member (info, "start_ns"), ==, cases[i].start_ns);
      g_assert_cmpint (json_object_get_int_member (info, "end_ns"), ==, cases[i].end_ns);
      g_assert_cmpint (json_object_get_int_member (info, "slices"), ==, 3);
    }

  sps_test_run_cli_va (&both, "info", "--s", "--ns", path, NULL);
  g_assert_cmpint (both.status, ==, 2);
  g_assert_nonnull (strstr (both.err, "--ns and --s cannot be used together"));
}

static void
test_cli_info_table (void)
{
  g_autofree char *path = sps_test_fixture_path ("cli-small.json");
  g_autoptr(GRegex) slices = g_regex_new ("^Slices +3$", G_REGEX_MULTILINE, 0, NULL);
  g_autoptr(GRegex) events = g_regex_new ("^Events read +22$", G_REGEX_MULTILINE, 0, NULL);
  g_autoptr(GRegex) warning = g_regex_new ("^  unmatched_end +1  .+$", G_REGEX_MULTILINE, 0, NULL);
  g_auto(SpsTestRun) run = { 0 };
  g_auto(GStrv) lines = NULL;
  gsize width = 0;

  sps_test_run_cli_va (&run, "info", path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.err, ==, "");

  g_assert_true (g_str_has_prefix (run.out, "File"));
  g_assert_true (g_regex_match (slices, run.out, 0, NULL));
  g_assert_true (g_regex_match (events, run.out, 0, NULL));
  g_assert_true (g_regex_match (warning, run.out, 0, NULL));
  g_assert_nonnull (strstr (run.out, "chrome-json"));
  g_assert_nonnull (strstr (run.out, "60 µs"));

  /* The counts are right-aligned in one column. */
  lines = g_strsplit (run.out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (!g_str_has_prefix (lines[i], "Events read") &&
          !g_str_has_prefix (lines[i], "Slices") &&
          !g_str_has_prefix (lines[i], "End (ns)"))
        continue;

      if (width == 0)
        width = strlen (lines[i]);
      g_assert_cmpuint (strlen (lines[i]), ==, width);
    }
  g_assert_cmpuint (width, >, 0);
}

static void
test_cli_info_table_extreme_times (void)
{
  /* The earliest and the latest time that fit: the duration between them
   * does not fit a signed 64-bit count of nanoseconds */
  g_autofree char *path = sps_test_write_file (scratch_dir, "extreme.json",
                                              "[{\"ph\": \"X\", \"name\": \"a\", \"pid\": 1, \"tid\": 1,"
                                              " \"ts\": -9223372036854775, \"dur\": 0},\n"
                                              " {\"ph\": \"X\", \"name\": \"b\", \"pid\": 1, \"tid\": 1,"
                                              " \"ts\": 9223372036854775, \"dur\": 0}]\n");
  g_autoptr(GRegex) duration = g_regex_new ("^Duration +18446744074 s$", G_REGEX_MULTILINE, 0, NULL);
  g_auto(SpsTestRun) run = { 0 };

  /* 2 × 9223372036854775000 ns = 18446744073.70955 s, in whole seconds
   * as the one time formatter shows 4 or more integer digits */
  sps_test_run_cli_va (&run, "info", path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (g_regex_match (duration, run.out, 0, NULL));
}

static void
test_cli_info_not_found (void)
{
  g_autofree char *path = g_build_filename (scratch_dir, "does-not-exist.json", NULL);
  g_auto(SpsTestRun) run = { 0 };

  sps_test_run_cli_va (&run, "info", "--json", path, NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_cmpstr (run.out, ==, "");
  g_assert_nonnull (strstr (run.err, path));
}

/* `info` on a file it cannot read: exit 1, nothing on standard output,
 * and "PATH: @reason" on standard error */
static void
assert_info_refused (const char *name,
                     const char *contents,
                     const char *reason)
{
  g_autofree char *path = sps_test_write_file (scratch_dir, name, contents);
  g_autofree char *expected = g_strdup_printf ("%s: %s", path, reason);
  g_auto(SpsTestRun) run = { 0 };

  sps_test_run_cli_va (&run, "info", path, NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_cmpstr (run.out, ==, "");
  g_assert_nonnull (strstr (run.err, expected));
}

/* An empty file says so, rather than that its format is unknown */
static void
test_cli_info_empty (void)
{
  assert_info_refused ("empty.json", "", "the file is empty");
}

static void
test_cli_info_unknown_format (void)
{
  assert_info_refused ("notes.txt", "Just some notes, not a trace.\n", "not a trace format Spanscope can read");
}

/* A missing comma between two members of an event, on line 3 */
#define MALFORMED_TRACE \
  "{\"traceEvents\": [\n" \
  "  {\"ph\": \"X\", \"name\": \"a\", \"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": 1},\n" \
  "  {\"ph\": \"X\" \"name\": \"b\", \"pid\": 1, \"tid\": 1, \"ts\": 2, \"dur\": 1}\n" \
  "]}\n"

static void
test_cli_info_malformed (void)
{
  g_autofree char *path = sps_test_write_file (scratch_dir, "malformed.json", MALFORMED_TRACE);
  g_autofree char *escaped = g_regex_escape_string (path, -1);
  g_autofree char *pattern = g_strdup_printf ("^spanscope-cli info: %s:3:[0-9]+ \\(byte [0-9]+\\): .+$",
                                              escaped);
  g_autoptr(GRegex) regex = g_regex_new (pattern, G_REGEX_MULTILINE, 0, NULL);
  g_auto(SpsTestRun) run = { 0 };

  sps_test_run_cli_va (&run, "info", "--json", path, NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_cmpstr (run.out, ==, "");
  g_assert_true (g_regex_match (regex, run.err, 0, NULL));
}

static void
test_cli_info_keep_partial (void)
{
  g_autofree char *path = sps_test_write_file (scratch_dir, "partial.json", MALFORMED_TRACE);
  g_autofree char *where = g_strdup_printf ("spanscope-cli info: %s:3:", path);
  g_autoptr(JsonObject) info = NULL;
  g_auto(SpsTestRun) json = { 0 };
  g_auto(SpsTestRun) table = { 0 };

  /* The event before the error is shown, the error is still reported and
   * the input is still bad. */
  sps_test_run_cli_va (&json, "info", "--json", "--keep-partial", path, NULL);
  g_assert_cmpint (json.status, ==, 1);
  g_assert_true (g_str_has_prefix (json.err, where));
  info = parse_info (json.out);
  assert_info_keys (info);
  g_assert_cmpint (json_object_get_int_member (info, "slices"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (info, "start_ns"), ==, 1000);
  g_assert_cmpint (json_object_get_int_member (info, "end_ns"), ==, 2000);

  sps_test_run_cli_va (&table, "info", "--keep-partial", path, NULL);
  g_assert_cmpint (table.status, ==, 1);
  g_assert_nonnull (strstr (table.out, "Load error"));
  g_assert_true (g_str_has_prefix (table.err, where));
}

static void
test_cli_info_truncated (void)
{
  /* Cut inside the third event: the two complete ones are kept. */
  g_autofree char *path = sps_test_write_file (scratch_dir, "truncated.json",
                                              "[{\"ph\": \"X\", \"name\": \"a\", \"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": 1},\n"
                                              " {\"ph\": \"X\", \"name\": \"b\", \"pid\": 1, \"tid\": 1, \"ts\": 3, \"dur\": 1},\n"
                                              " {\"ph\": \"X\", \"name\": \"c\", \"pid\": 1, \"ti");
  g_autoptr(JsonObject) info = info_json (path, FALSE);
  g_autoptr(GList) names = NULL;
  gboolean truncated = FALSE;

  assert_info_keys (info);
  g_assert_cmpint (json_object_get_int_member (info, "slices"), ==, 2);

  names = json_object_get_members (json_object_get_object_member (info, "warnings"));
  for (const GList *l = names; l != NULL; l = l->next)
    truncated |= strstr (l->data, "truncated") != NULL;
  g_assert_true (truncated);
}

static void
test_cli_convert_round_trip (void)
{
  static const char * const compared[] = {
    "slices", "sampled_slices", "async_slices", "instants", "counter_tracks",
    "counter_values", "flows", "samples",
  };
  g_autofree char *input = sps_test_fixture_path ("cli-small.json");
  g_autofree char *output = g_build_filename (scratch_dir, "round-trip.json", NULL);
  g_autoptr(JsonObject) before = NULL;
  g_autoptr(JsonObject) after = NULL;
  g_auto(SpsTestRun) run = { 0 };

  sps_test_run_cli_va (&run, "convert", input, "--format", "chrome-json", "-o", output, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.out, ==, "");
  g_assert_cmpstr (run.err, ==, "");

  before = info_json (input, FALSE);
  after = info_json (output, FALSE);

  g_assert_cmpstr (json_object_get_string_member (after, "format"), ==, "chrome-json");
  for (guint i = 0; i < G_N_ELEMENTS (compared); i++)
    {
      g_test_message ("%s", compared[i]);
      g_assert_cmpint (json_object_get_int_member (after, compared[i]), ==,
                       json_object_get_int_member (before, compared[i]));
    }

  g_remove (output);
}

static void
test_cli_convert_unknown_format (void)
{
  g_autofree char *input = sps_test_fixture_path ("cli-small.json");
  g_autofree char *output = g_build_filename (scratch_dir, "never-written.json", NULL);
  g_auto(SpsTestRun) run = { 0 };

  sps_test_run_cli_va (&run, "convert", input, "--format", "no-such-format", "-o", output, NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "unknown format “no-such-format”"));
  g_assert_nonnull (strstr (run.err, "available: "));
  g_assert_nonnull (strstr (run.err, "chrome-json"));
  g_assert_false (g_file_test (output, G_FILE_TEST_EXISTS));
}

static void
test_cli_convert_missing_options (void)
{
  g_autofree char *input = NULL;
  g_autofree char *fixture = sps_test_fixture_path ("cli-small.json");
  g_autofree char *contents = NULL;
  g_autofree char *default_output = g_build_filename (scratch_dir, "default-name.trace.json", NULL);
  g_auto(SpsTestRun) no_output = { 0 };
  g_auto(SpsTestRun) no_format = { 0 };

  /* Without -o the output is FILE with the format's suffix in place of
   * its extension (like dotnet-trace convert), next to FILE */
  g_assert_true (g_file_get_contents (fixture, &contents, NULL, NULL));
  input = sps_test_write_file (scratch_dir, "default-name.json", contents);
  sps_test_run_cli_va (&no_output, "convert", input, "--format", "chrome-json", NULL);
  g_assert_cmpint (no_output.status, ==, 0);
  g_assert_true (g_file_test (default_output, G_FILE_TEST_IS_REGULAR));
  g_remove (default_output);

  sps_test_run_cli_va (&no_format, "convert", input, "-o", "out.json", NULL);
  g_assert_cmpint (no_format.status, ==, 2);
  g_assert_nonnull (strstr (no_format.err, "missing --format FORMAT"));
}

static void
test_cli_convert_bad_input_keeps_output (void)
{
  g_autofree char *input = sps_test_write_file (scratch_dir, "convert-notes.txt", "not a trace\n");
  g_autofree char *output = sps_test_write_file (scratch_dir, "existing.json", "[]\n");
  g_autofree char *contents = NULL;
  g_auto(SpsTestRun) run = { 0 };

  sps_test_run_cli_va (&run, "convert", input, "--format", "chrome-json", "-o", output, NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, "not a trace format Spanscope can read"));

  /* The existing output is untouched. */
  g_assert_true (g_file_get_contents (output, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "[]\n");
}

static void
test_cli_convert_unwritable_output (void)
{
  g_autofree char *input = sps_test_fixture_path ("cli-small.json");
  g_autofree char *output = g_build_filename (scratch_dir, "no-such-dir", "out.json", NULL);
  g_auto(SpsTestRun) run = { 0 };

  /* A write that fails is bad input too, and says why */
  sps_test_run_cli_va (&run, "convert", input, "--format", "chrome-json", "-o", output, NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_cmpstr (run.out, ==, "");
  g_assert_true (g_str_has_prefix (run.err, "spanscope-cli convert: "));
  g_assert_false (g_file_test (output, G_FILE_TEST_EXISTS));
}

static void
test_cli_skipped (void)
{
  g_test_skip ("SPANSCOPE_CLI is not set; run the tests with meson test");
}

/* The CLI loads importers, exporters and analyses, never a view: a view
 * plugin links GTK, which a command-line program must not map (it needs
 * no display, and GTK's start-up costs time). The dynamic linker lists
 * every library it loads with LD_DEBUG=libs. */
static void
test_cli_maps_no_gtk (void)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = sps_test_fixture_path ("chrome-phase-x.json");
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_auto(SpsTestRun) plugins = { 0, };

  g_test_summary ("spanscope-cli maps no GTK library while it reads a trace, and lists the view "
                  "plugins as not loaded");

  g_subprocess_launcher_setenv (launcher, "LD_DEBUG", "libs", TRUE);
  process = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("SPANSCOPE_CLI"), "info", path, NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (process));
  g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 0);
  /* The linker did report what it loaded (the core library at least) */
  g_assert_nonnull (strstr (err, "libspanscope-core"));
  g_assert_null (strstr (err, "libgtk-4"));
  g_assert_null (strstr (err, "libspanscope-gtk"));

  sps_test_run_cli_va (&plugins, "plugins", "--json", NULL);
  g_assert_cmpint (plugins.status, ==, 0);
  g_assert_null (strstr (plugins.out, "\"state\" : \"failed\""));
  /* Without the view plugin (-Dgtk=false, -Dplugin-flamegraph=false) there
   * is no view to list */
  if (SPS_TEST_HAVE_FLAMEGRAPH)
    {
      g_assert_nonnull (strstr (plugins.out, "\"module\" : \"flamegraph\""));
      g_assert_nonnull (strstr (plugins.out, "\"state\" : \"not-needed\""));
    }
}

/* info --filter: the visible slices of a saved view filter (cli-small.json
 * has 5 slices; collapsing tid 1 hides its depth-1 slice "inner") */
static void
test_cli_info_filter (void)
{
  g_autofree char *path = sps_test_fixture_path ("cli-small.json");
  g_autofree char *filter = sps_test_write_file (scratch_dir, "info-filter.json",
                                                 "{\"threads\": [{\"pid\": 1, \"tid\": 1, \"state\": \"collapsed\"}]}");
  g_autofree char *bad = sps_test_write_file (scratch_dir, "info-filter-bad.json", "{\"focus\": {\"depth\": -1}}");
  g_autofree char *row = g_strdup_printf ("Visible slices        4 of 5 (%s)\n", filter);
  g_autofree char *expected_err = NULL;

  {
    g_auto(SpsTestRun) run = { 0 };
    g_autoptr(JsonObject) info = NULL;
    JsonObject *section;

    sps_test_run_cli_va (&run, "info", "--json", "--filter", filter, path, NULL);
    g_assert_cmpint (run.status, ==, 0);
    info = parse_info (run.out);
    section = json_object_get_object_member (info, "filter");
    g_assert_nonnull (section);
    g_assert_cmpstr (json_object_get_string_member (section, "file"), ==, filter);
    g_assert_cmpint (json_object_get_int_member (section, "visible_slices"), ==, 4);
    /* Expanded: tid 2 has 3 lanes (slices, sampled, samples), tid 1 has 3
     * (depths 0 and 1, instants), the process's own 4 (async, instants,
     * two counters): 10. Collapsed, tid 1 keeps one: 8. */
    g_assert_cmpint (json_object_get_int_member (section, "lanes"), ==, 8);
  }
  {
    g_auto(SpsTestRun) run = { 0 };

    sps_test_run_cli_va (&run, "info", "--filter", filter, path, NULL);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_nonnull (strstr (run.out, row));
  }
  {
    g_auto(SpsTestRun) run = { 0 };

    sps_test_run_cli_va (&run, "info", "--filter", bad, path, NULL);
    g_assert_cmpint (run.status, ==, 1);
    expected_err = g_strdup_printf ("spanscope-cli info: %s: member “focus.depth”: -1 is not between 0 and 16\n", bad);
    g_assert_cmpstr (run.err, ==, expected_err);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);

  cli_path = g_getenv ("SPANSCOPE_CLI");
  if (cli_path == NULL)
    {
      g_test_add_func ("/cli/skipped", test_cli_skipped);
      return g_test_run ();
    }

  scratch_dir = g_dir_make_tmp ("spanscope-test-cli-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/cli/usage/no-command", test_cli_usage_no_command);
  g_test_add_func ("/cli/usage/unknown-command", test_cli_usage_unknown_command);
  g_test_add_func ("/cli/usage/bad-option", test_cli_usage_bad_option);
  g_test_add_func ("/cli/usage/missing-file", test_cli_usage_missing_file);
  g_test_add_func ("/cli/version", test_cli_version);
  g_test_add_func ("/cli/help", test_cli_help);
  g_test_add_func ("/cli/info/json", test_cli_info_json);
  g_test_add_func ("/cli/info/ns", test_cli_info_ns);
  g_test_add_func ("/cli/info/units", test_cli_info_units);
  g_test_add_func ("/cli/info/table", test_cli_info_table);
  g_test_add_func ("/cli/info/table-extreme-times", test_cli_info_table_extreme_times);
  g_test_add_func ("/cli/info/not-found", test_cli_info_not_found);
  g_test_add_func ("/cli/info/unknown-format", test_cli_info_unknown_format);
  g_test_add_func ("/cli/info/empty", test_cli_info_empty);
  g_test_add_func ("/cli/info/malformed", test_cli_info_malformed);
  g_test_add_func ("/cli/info/keep-partial", test_cli_info_keep_partial);
  g_test_add_func ("/cli/info/truncated", test_cli_info_truncated);
  g_test_add_func ("/cli/info/filter", test_cli_info_filter);
  g_test_add_func ("/cli/convert/round-trip", test_cli_convert_round_trip);
  g_test_add_func ("/cli/convert/unknown-format", test_cli_convert_unknown_format);
  g_test_add_func ("/cli/convert/missing-options", test_cli_convert_missing_options);
  g_test_add_func ("/cli/convert/bad-input-keeps-output", test_cli_convert_bad_input_keeps_output);
  g_test_add_func ("/cli/convert/unwritable-output", test_cli_convert_unwritable_output);
  g_test_add_func ("/cli/maps-no-gtk", test_cli_maps_no_gtk);

  ret = g_test_run ();

  sps_test_remove_tree (scratch_dir);
  g_clear_pointer (&scratch_dir, g_free);

  return ret;
}
