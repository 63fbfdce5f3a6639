/* test-chrome-cpu-profile.c: V8 CPU profiles and top-level samples in
 * Chrome traces
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Our fixtures (tests/fixtures/chrome-v8-*.json, chrome-perf-samples.json)
 * hold each form with every row worked out by hand; the two real DevTools
 * and Lighthouse recordings of ../shared/fixtures/chrome are checked for
 * their sample counts per leaf frame, counted from the files beforehand
 * (numbers written below, not computed by the test).
 */

#define G_LOG_DOMAIN "test-chrome-cpu-profile"

#include "config.h"

#include <fcntl.h>
#include <string.h>

#include <glib/gstdio.h>

#include <spanscope-core.h>

#include "sps-test-util.h"

static const char *
str (SpsTrace *trace,
     guint32   id)
{
  return sps_trace_get_string (trace, id);
}

/* "frame;frame;leaf", each frame with @file:line:column when it has one */
static char *
dup_located_stack (SpsTrace *trace,
                   guint32   callsite,
                   gboolean  locations)
{
  const SpsCallsiteTable *callsites = sps_trace_get_callsites (trace);
  const SpsFrameTable *frames = sps_trace_get_frames (trace);
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  GString *out = g_string_new (NULL);

  for (; callsite != SPS_NO_INDEX; callsite = callsites->parent[callsite])
    {
      guint32 f = callsites->frame[callsite];

      if (locations && frames->source_file[f] != 0)
        g_ptr_array_add (parts, g_strdup_printf ("%s@%s:%u:%u", str (trace, frames->name[f]),
                                                 str (trace, frames->source_file[f]),
                                                 frames->source_line[f], frames->source_column[f]));
      else
        g_ptr_array_add (parts, g_strdup (str (trace, frames->name[f])));
    }
  for (guint i = parts->len; i > 0; i--)
    {
      g_string_append (out, g_ptr_array_index (parts, i - 1));
      if (i > 1)
        g_string_append_c (out, ';');
    }
  return g_string_free (out, FALSE);
}

/* One sample as "ts|tid|stack|name|event name|line|u" (u: unresolved) */
static char *
dup_sample_row (SpsTrace *trace,
                guint     i)
{
  const SpsSampleTable *samples = sps_trace_get_samples (trace);
  const SpsThreadTable *threads = sps_trace_get_threads (trace);
  g_autofree char *stack = dup_located_stack (trace, samples->callsite[i], TRUE);

  return g_strdup_printf ("%" G_GINT64_FORMAT "|%" G_GINT64_FORMAT "|%s|%s|%s|%u|%s",
                          samples->ts[i], threads->tid[samples->thread[i]], stack,
                          str (trace, samples->name[i]), str (trace, sps_sample_table_get_event_name (samples, i)),
                          sps_sample_table_get_line (samples, i),
                          (sps_sample_table_get_flags (samples, i) & SPS_SAMPLE_UNRESOLVED) ? "u" : "");
}

static void
assert_rows (SpsTrace          *trace,
             const char * const *expected,
             guint               n_expected)
{
  const SpsSampleTable *samples = sps_trace_get_samples (trace);
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_free);

  /* Order by time, then tid, as the expectations are written */
  for (guint i = 0; i < samples->n_rows; i++)
    g_ptr_array_add (rows, dup_sample_row (trace, i));
  g_assert_cmpuint (rows->len, ==, n_expected);
  for (guint k = 0; k < n_expected; k++)
    {
      gboolean found = FALSE;

      for (guint i = 0; i < rows->len && !found; i++)
        found = g_str_equal (g_ptr_array_index (rows, i), expected[k]);
      if (!found)
        g_error ("no sample row \"%s\"", expected[k]);
    }
}

static const char * const chunks_expected[] = {
  "1005000|1|(program)|(program)|ProfileChunk|0|",
  /* +10 then -3 µs: the later sample is the earlier one */
  "1015000|1|(anonymous)@https://x.test/app.js:1:1;main@https://x.test/app.js:10:5|main|ProfileChunk|12|",
  "1012000|1|(anonymous)@https://x.test/app.js:1:1;main@https://x.test/app.js:10:5|main|ProfileChunk|13|",
  "1032000|1|(anonymous)@https://x.test/app.js:1:1;main@https://x.test/app.js:10:5;"
    "work@https://x.test/lib.js:3:16|work|ProfileChunk|0|",
  "1033000|1|(garbage collector)|(garbage collector)|ProfileChunk|0|",
  /* node 8 is defined in the next chunk; its line and column are -1 */
  "1037000|1|(anonymous)@https://x.test/app.js:1:1;main@https://x.test/app.js:10:5;"
    "work@https://x.test/lib.js:3:16;inner@https://x.test/lib.js:0:0|inner|ProfileChunk|0|",
  "1039000|1|ProfileChunk|ProfileChunk|ProfileChunk|0|u",
  "1139000|1|(anonymous)@https://x.test/app.js:1:1;main@https://x.test/app.js:10:5;"
    "work@https://x.test/lib.js:3:16;inner@https://x.test/lib.js:0:0|inner|ProfileChunk|0|",
};

/* The streamed form: Profile, then chunks whose nodes come bit by bit;
 * a sample names a node defined one chunk later, one a node never
 * defined; one delta is negative. The thread is the Profile event's
 * (tid 1), not the chunks' (tid 7); startTime is 1000 µs. */
static void
test_streaming_chunks (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("chrome-v8-chunks.json");
  const SpsSampleTable *samples = sps_trace_get_samples (trace);

  assert_rows (trace, chunks_expected, G_N_ELEMENTS (chunks_expected));
  /* Sorted by time on the track */
  for (guint i = 1; i < samples->n_rows; i++)
    g_assert_cmpint (samples->ts[i - 1], <=, samples->ts[i]);
  g_assert_cmpuint (sps_trace_count_warning (trace, "cpu_profile_unresolved_node"), ==, 1);
  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 1);
  /* The chunks' own thread holds nothing: no samples, no slices */
  g_assert_cmpuint (sps_trace_get_threads (trace)->n_rows, ==, 2);
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES), ==, 1);
}

static const char * const legacy_expected[] = {
  "300000|4|(idle)|(idle)|CpuProfile|0|",
  "12345978000|4|run@file:///a.js:5:3|run|CpuProfile|0|",
  "135802767000|4|run@file:///a.js:5:3;(anonymous)@file:///a.js:8:1|(anonymous)|CpuProfile|0|",
  "135802792000|4|run@file:///a.js:5:3;(anonymous)@file:///a.js:8:1|(anonymous)|CpuProfile|0|",
  "135802817000|4|(idle)|(idle)|CpuProfile|0|",
  /* a sample of the (root) node: no frame, named after its event */
  "135802842000|4||CpuProfile|CpuProfile|0|",
};

/* The whole form: nodes linked by children, deltas from startTime 200 µs
 * (100, 12345678, 123456789, 25, 25, 25: deltas of 1 to 9 digits) */
static void
test_legacy_cpu_profile (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("chrome-v8-cpuprofile.json");

  assert_rows (trace, legacy_expected, G_N_ELEMENTS (legacy_expected));
  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 0);
}

static const char * const perf_expected[] = {
  "5000|21|main;run|run|cycles|0|",
  "7000|99|main|main|cycles|0|",
  "10000|21|main;run;leaf|leaf|cycles|0|",
  "20000|21|cycles|cycles|cycles|0|u",
  /* a P event named Profile without an id is no V8 profile */
  "30000|21|Profile|Profile|Profile|0|",
};

/* Top-level samples with stackFrames: the thread is found by tid; an
 * unknown tid gets a thread of its own; an unknown sf is unresolved.
 * Beside them, a plain P event that happens to be named Profile. */
static void
test_top_level_samples (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("chrome-perf-samples.json");
  const SpsSampleTable *samples = sps_trace_get_samples (trace);
  const SpsThreadTable *threads = sps_trace_get_threads (trace);
  const SpsProcessTable *processes = sps_trace_get_processes (trace);

  assert_rows (trace, perf_expected, G_N_ELEMENTS (perf_expected));
  for (guint i = 0; i < samples->n_rows; i++)
    {
      guint32 process = threads->process[samples->thread[i]];

      if (samples->ts[i] == 10000)
        g_assert_cmpfloat (sps_sample_table_get_weight (samples, i), ==, 2.0);
      if (samples->ts[i] == 5000)
        g_assert_false (sps_sample_table_get_flags (samples, i) & SPS_SAMPLE_HAS_WEIGHT);
      /* tid 21 is the thread of pid 20 that the events named */
      g_assert_cmpint (processes->pid[process], ==, threads->tid[samples->thread[i]] == 21 ? 20 : 99);
    }
  g_assert_cmpuint (sps_trace_count_warning (trace, "sample_thread_unknown"), ==, 1);
  g_assert_cmpuint (sps_trace_count_warning (trace, "unresolved_stack"), ==, 1);
  g_assert_cmpuint (sps_trace_get_n_metadata (trace), ==, 0);
}

/* Cycles, missing parents, duplicate and missing ids, a sample that is
 * not an id, a length mismatch, an overflowing delta, samples that are
 * not an array: warnings, and every valid sample kept */
static void
test_hostile (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("chrome-v8-hostile.json");
  const char * const expected[] = {
    "501000|2|ProfileChunk|ProfileChunk|ProfileChunk|0|u",   /* 2 → 3 → 2 */
    "502000|2|ProfileChunk|ProfileChunk|ProfileChunk|0|u",   /* parent 77 */
    "503000|2|big|big|ProfileChunk|0|",
    "504000|2|ok|ok|ProfileChunk|0|",
    /* the overflowing chunk and the one without an array add nothing;
     * the last one has one delta for three samples */
    "505000|2|ok|ok|ProfileChunk|0|",
  };
  const struct { const char *name; guint64 count; } warnings[] = {
    { "cpu_profile_without_start", 1 },
    { "cpu_profile_duplicate_node", 1 },
    { "cpu_profile_invalid_node", 2 },
    { "cpu_profile_invalid_sample", 1 },     /* "x" in the samples */
    { "cpu_profile_length_mismatch", 1 },
    { "cpu_profile_time_overflow", 1 },
    { "cpu_profile_invalid_samples", 1 },
    { "cpu_profile_unresolved_node", 2 },
  };

  assert_rows (trace, expected, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (warnings); i++)
    g_assert_cmpuint (sps_trace_count_warning (trace, warnings[i].name), ==, warnings[i].count);
  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, G_N_ELEMENTS (warnings));
}

/* The scanner skips long runs of plain integers (V8's samples and
 * timeDeltas) without lexing each number: malformed numbers in such a
 * run stop the import with the same error, at the same place, as
 * anywhere else. The array opens at byte 46 of each file, so body byte
 * i is byte 46 + i, column 47 + i. */
static void
test_malformed_number_runs (void)
{
  static const char prefix[] = "[{\"ph\":\"P\",\"name\":\"ProfileChunk\",\"args\":{\"a\":[";
  g_autofree char *long_number = g_strnfill (4097, '9');
  g_autofree char *long_body = g_strconcat ("1,2,", long_number, NULL);
  const struct {
    const char *body;
    int code;
    const char *where_what;
  } cases[] = {
    { "1,2,3,,4,5,6,7,8", SPS_IMPORT_ERROR_MALFORMED, "1:53 (byte 52): unexpected character ','" },
    { "1,2,-,3,4,5,6,7", SPS_IMPORT_ERROR_MALFORMED, "1:51 (byte 50): invalid number" },
    { "1,2,3.,4,5,6,7", SPS_IMPORT_ERROR_MALFORMED, "1:53 (byte 52): invalid number: expected a digit after '.'" },
    { "1,2,3e,4,5,6,7", SPS_IMPORT_ERROR_MALFORMED, "1:53 (byte 52): invalid number: expected a digit in the exponent" },
    { "1,2,3x,4,5,6,7", SPS_IMPORT_ERROR_MALFORMED, "1:52 (byte 51): expected ',' or ']' but found 'x'" },
    { "1,2,-Infinity", SPS_IMPORT_ERROR_MALFORMED, "1:51 (byte 50): -Infinity is not a valid JSON number" },
    { long_body, SPS_IMPORT_ERROR_TOO_LARGE, "1:51 (byte 50): number longer than 4096 characters" },
  };

  g_assert_cmpuint (strlen (prefix), ==, 46);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strconcat (prefix, cases[i].body, "]}}]", NULL);
      g_autofree char *path = g_build_filename (g_get_tmp_dir (), "sps-test-number-run-XXXXXX.json", NULL);
      g_autoptr(GFile) file = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(SpsTrace) trace = NULL;
      g_autofree char *expected = NULL;
      int fd = g_mkstemp_full (path, O_RDWR, 0600);

      g_assert_cmpint (fd, >=, 0);
      g_assert_true (g_file_set_contents (path, text, -1, NULL));
      g_close (fd, NULL);
      file = g_file_new_for_path (path);
      trace = sps_trace_load (file, NULL, NULL, SPS_LOAD_FLAGS_NONE, NULL, NULL, &error);
      g_unlink (path);
      g_assert_null (trace);
      g_assert_error (error, SPS_IMPORT_ERROR, cases[i].code);
      expected = g_strdup_printf ("%s:%s", path, cases[i].where_what);
      g_assert_cmpstr (error->message, ==, expected);
    }
}

/* Slice stacks: sf and esf of an X, the inline stack of a B and the sf
 * of its E, an unknown sf and a stack that is not an array */
static void
test_slice_stacks (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("chrome-slice-stacks.json");
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  const struct { const char *name; const char *start; const char *end; } expected[] = {
    { "X1", "main;run", "main;run;done" },
    { "B1", "main;loop", "main" },
    { "X2", NULL, NULL },
    { "X3", NULL, NULL },
    { "X4", NULL, NULL },
  };

  g_assert_cmpuint (slices->n_rows, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < slices->n_rows; i++)
    {
      g_autofree char *start = NULL;
      g_autofree char *end = NULL;

      g_assert_cmpstr (str (trace, slices->name[i]), ==, expected[i].name);
      if (sps_slice_table_get_callsite (slices, i) != SPS_NO_INDEX)
        start = dup_located_stack (trace, sps_slice_table_get_callsite (slices, i), FALSE);
      if (sps_slice_table_get_end_callsite (slices, i) != SPS_NO_INDEX)
        end = dup_located_stack (trace, sps_slice_table_get_end_callsite (slices, i), FALSE);
      g_assert_cmpstr (start, ==, expected[i].start);
      g_assert_cmpstr (end, ==, expected[i].end);
    }
  g_assert_cmpuint (sps_trace_count_warning (trace, "unresolved_slice_stack"), ==, 1);
  g_assert_cmpuint (sps_trace_count_warning (trace, "invalid_slice_stack"), ==, 1);
  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 2);
}

/* Every row of @sql as "a|b|c" lines; NULL cells empty */
static char *
dup_query_rows (SpsTrace   *trace,
                const char *sql)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsSqlEngine) engine = sps_sql_engine_new (trace, &error);
  g_autoptr(SpsSqlResult) result = NULL;
  GString *out = g_string_new (NULL);

  g_assert_no_error (error);
  result = sps_sql_engine_query (engine, sql, NULL, NULL, &error);
  g_assert_no_error (error);
  for (guint r = 0; r < sps_sql_result_get_n_rows (result); r++)
    for (guint c = 0; c < sps_sql_result_get_n_columns (result); c++)
      {
        g_autofree char *cell = NULL;

        if (sps_sql_result_get_value_type (result, r, c) != SPS_SQL_TYPE_NULL)
          cell = sps_sql_result_dup_display_text (result, r, c);
        g_string_append_printf (out, "%s%c", cell != NULL ? cell : "",
                                c + 1 < sps_sql_result_get_n_columns (result) ? '|' : '\n');
      }
  return g_string_free (out, FALSE);
}

/* The SQL columns: frames' source location apart from the name, samples'
 * event name and line, slices' stacks */
static void
test_sql_columns (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("chrome-v8-chunks.json");
  g_autoptr(SpsTrace) stacks = sps_test_load_fixture ("chrome-slice-stacks.json");
  g_autofree char *frames = NULL;
  g_autofree char *samples = NULL;
  g_autofree char *slices = NULL;

  frames = dup_query_rows (trace, "SELECT name, source_file, source_line, source_column FROM frames"
                                  " ORDER BY name");
  g_assert_cmpstr (frames, ==,
                   "(anonymous)|https://x.test/app.js|1|1\n"
                   "(garbage collector)|||\n"
                   "(program)|||\n"
                   "ProfileChunk|||\n"
                   "inner|https://x.test/lib.js||\n"
                   "main|https://x.test/app.js|10|5\n"
                   "work|https://x.test/lib.js|3|16\n");
  samples = dup_query_rows (trace, "SELECT ts, name, event_name, line, frame FROM samples"
                                   " WHERE ts <= 1015000 ORDER BY ts");
  g_assert_cmpstr (samples, ==,
                   "1005000|(program)|ProfileChunk||(program)\n"
                   "1012000|main|ProfileChunk|13|main\n"
                   "1015000|main|ProfileChunk|12|main\n");
  slices = dup_query_rows (stacks, "SELECT s.name, a.name, b.name FROM slices s"
                                   " LEFT JOIN callsites a ON a.id = s.callsite_id"
                                   " LEFT JOIN callsites b ON b.id = s.end_callsite_id ORDER BY s.ts");
  g_assert_cmpstr (slices, ==, "X1|run|done\nB1|loop|main\nX2||\nX3||\nX4||\n");
}

/* Search covers samples by their leaf frame's name */
static void
test_search_samples (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("chrome-v8-chunks.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsSearchResult) result = NULL;
  const SpsSampleTable *samples = sps_trace_get_samples (trace);
  const guint32 *matches;
  guint g;

  /* "in": main (2 samples), inner (2); no slice */
  result = sps_search_run (trace, "in", SPS_SEARCH_NAME, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sps_search_result_get_n_matches (result), ==, 0);
  g_assert_cmpuint (sps_search_result_get_n_sample_matches (result), ==, 4);
  matches = sps_search_result_get_sample_matches (result);
  g_assert_cmpint (samples->ts[matches[0]], ==, 1012000);
  g_assert_cmpint (samples->ts[matches[3]], ==, 1139000);
  g = sps_search_result_find_group (result, samples->name[matches[0]]);
  g_assert_cmpuint (g, !=, SPS_NO_INDEX);
  g_assert_cmpuint (sps_search_result_get_group (result, g)->n_samples, ==, 2);
  g_assert_cmpuint (sps_search_result_get_group (result, g)->count, ==, 0);
  g_assert_cmpuint (sps_search_result_get_group (result, g)->first_slice, ==, SPS_NO_INDEX);
  g_clear_pointer (&result, sps_search_result_unref);

  /* "work": the slice Work and the sample work, two names */
  result = sps_search_run (trace, "work", SPS_SEARCH_NAME, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sps_search_result_get_n_matches (result), ==, 1);
  g_assert_cmpuint (sps_search_result_get_n_sample_matches (result), ==, 1);
  g_assert_cmpuint (sps_search_result_get_n_groups (result), ==, 2);
  g_clear_pointer (&result, sps_search_result_unref);

  /* Categories: samples have none */
  result = sps_search_run (trace, "v8", SPS_SEARCH_CATEGORY, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sps_search_result_get_n_sample_matches (result), ==, 0);
}

/* Writes @trace with the Chrome JSON exporter into a temporary file and
 * imports that file again; the text written in *@text */
static SpsTrace *
convert_and_import (SpsTrace  *trace,
                    char     **text)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("spanscope-v8-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(SpsExporter) exporter = NULL;
  g_autoptr(GFileOutputStream) out = NULL;
  g_autoptr(GVariant) options = g_variant_ref_sink (g_variant_new_array (G_VARIANT_TYPE ("{sv}"), NULL, 0));
  SpsTrace *again;

  g_assert_no_error (error);
  path = g_build_filename (dir, "converted.json", NULL);
  file = g_file_new_for_path (path);
  exporter = sps_plugin_engine_create_exporter (sps_plugin_engine_get_default (), "chrome-json");
  g_assert_nonnull (exporter);
  out = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (sps_exporter_write (exporter, trace, options, G_OUTPUT_STREAM (out), NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_close (G_OUTPUT_STREAM (out), NULL, &error));
  g_assert_true (g_file_get_contents (path, text, NULL, &error));
  g_assert_no_error (error);

  again = sps_test_load_path (path);
  sps_test_remove_tree (dir);
  return again;
}

static guint
count_text (const char *haystack,
            const char *needle)
{
  guint n = 0;

  for (const char *p = strstr (haystack, needle); p != NULL; p = strstr (p + 1, needle))
    n++;
  return n;
}

/* convert writes the samples of V8 profiles back as profiles of their
 * thread (one Profile and one ProfileChunk for the streamed fixture, one
 * CpuProfile for the whole one), which read back as the same rows: times,
 * thread, stacks with every frame's url:line:column, names, event names
 * and lines. The unresolved sample names node 0, which no profile
 * defines, and reads back unresolved again. Top-level perf samples
 * (frames with a category, weights) are P events with stackFrames. */
static void
test_convert_round_trip (void)
{
  g_autoptr(SpsTrace) chunks = sps_test_load_fixture ("chrome-v8-chunks.json");
  g_autoptr(SpsTrace) legacy = sps_test_load_fixture ("chrome-v8-cpuprofile.json");
  g_autoptr(SpsTrace) perf = sps_test_load_fixture ("chrome-perf-samples.json");
  g_autoptr(SpsTrace) again = NULL;
  g_autofree char *text = NULL;

  again = convert_and_import (chunks, &text);
  assert_rows (again, chunks_expected, G_N_ELEMENTS (chunks_expected));
  g_assert_cmpuint (count_text (text, "\"name\":\"Profile\","), ==, 1);
  g_assert_cmpuint (count_text (text, "{\"ph\":\"P\",\"name\":\"ProfileChunk\",\"cat\""), ==, 1);
  g_assert_cmpuint (count_text (text, "{\"ph\":\"P\""), ==, 2);
  /* the unresolved sample names node 0, undefined, as its node was */
  g_assert_cmpuint (count_text (text, "\"samples\":[2,4,4,5,6,7,0,7]"), ==, 1);
  g_assert_cmpuint (sps_trace_count_warning (again, "cpu_profile_unresolved_node"), ==, 1);
  g_assert_cmpuint (sps_trace_get_n_warnings (again), ==, 1);
  g_clear_object (&again);
  g_clear_pointer (&text, g_free);

  again = convert_and_import (legacy, &text);
  assert_rows (again, legacy_expected, G_N_ELEMENTS (legacy_expected));
  g_assert_cmpuint (count_text (text, "\"name\":\"CpuProfile\""), ==, 1);
  g_assert_cmpuint (count_text (text, "{\"ph\":\"P\""), ==, 0);
  g_assert_cmpuint (sps_trace_get_n_warnings (again), ==, 0);
  g_clear_object (&again);
  g_clear_pointer (&text, g_free);

  again = convert_and_import (perf, &text);
  assert_rows (again, perf_expected, G_N_ELEMENTS (perf_expected));
  g_assert_cmpuint (count_text (text, "{\"ph\":\"P\""), ==, 5);
  g_assert_cmpuint (count_text (text, "cpuProfile"), ==, 0);
}

/* Slices' stacks, unfinished slices and the frames' source locations of
 * stackFrames, read and then written back by convert:
 *
 * - outer (10 + 100 µs) starts in step (sf 3) and ends in run (esf 2);
 * - open, an X without dur at 20 µs, lasts to the trace end (110 µs), a
 *   child of outer, its stack run;
 * - child (30 + 5 µs) inside open;
 * - began, a B never closed on tid 2 at 40 µs, with an inline stack;
 * - frames: main at file:///src/main.c line 9 column 0 (0-based, as V8
 *   writes them: 10:1), run at file:///src/run.c line 41 (42, no column),
 *   step with a line that is no number and column -1 (no location);
 * - samples: 2.5 ms of step, and one of main with a unit but no weight. */
static void
check_convert_stacks (SpsTrace *trace)
{
  g_autofree char *slices = NULL;
  g_autofree char *frames = NULL;
  g_autofree char *samples = NULL;

  slices = dup_query_rows (trace, "SELECT s.name, s.ts, s.dur, s.depth, s.unfinished, t.tid,"
                                  " a.name, b.name FROM slices s"
                                  " JOIN threads t ON t.id = s.thread_id"
                                  " LEFT JOIN callsites a ON a.id = s.callsite_id"
                                  " LEFT JOIN callsites b ON b.id = s.end_callsite_id ORDER BY s.ts");
  g_assert_cmpstr (slices, ==,
                   "outer|10000|100000|0|0|1|step|run\n"
                   "open|20000|90000|1|1|1|run|\n"
                   "child|30000|5000|2|0|1||\n"
                   "began|40000|70000|0|1|2|wait|\n");
  frames = dup_query_rows (trace, "SELECT f.name, f.category, f.source_file, f.source_line, f.source_column"
                                  " FROM frames f ORDER BY f.name, f.source_file");
  g_assert_cmpstr (frames, ==,
                   "main||||\n"
                   "main||file:///src/main.c|10|1\n"
                   "run||file:///src/run.c|42|\n"
                   "step|app|||\n"
                   "wait||||\n");
  samples = dup_query_rows (trace, "SELECT ts, name, sample_weight, weight_unit, estimated_cpu_time"
                                   " FROM samples ORDER BY ts");
  g_assert_cmpstr (samples, ==, "50000|step|2.5|ms|2500000\n60000|main||us|\n");
}

static void
test_convert_stacks (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("chrome-convert-stacks.json");
  g_autoptr(SpsTrace) again = NULL;
  g_autofree char *text = NULL;
  const SpsSliceTable *slices;

  check_convert_stacks (trace);
  g_assert_cmpuint (sps_trace_count_warning (trace, "missing_duration"), ==, 1);
  g_assert_cmpuint (sps_trace_count_warning (trace, "unmatched_begin"), ==, 1);
  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 2);

  again = convert_and_import (trace, &text);
  check_convert_stacks (again);
  /* Whole stacks, with the locations, not only the leaf frames */
  slices = sps_trace_get_slices (again);
  {
    g_autofree char *start = dup_located_stack (again, sps_slice_table_get_callsite (slices, 0), TRUE);
    g_autofree char *end = dup_located_stack (again, sps_slice_table_get_end_callsite (slices, 0), TRUE);

    g_assert_cmpstr (start, ==, "main@file:///src/main.c:10:1;run@file:///src/run.c:42:0;step");
    g_assert_cmpstr (end, ==, "main@file:///src/main.c:10:1;run@file:///src/run.c:42:0");
  }
  /* Both unfinished slices are an X without dur, no B */
  g_assert_cmpuint (count_text (text, "{\"ph\":\"B\""), ==, 0);
  g_assert_cmpuint (sps_trace_count_warning (again, "missing_duration"), ==, 2);
  g_assert_cmpuint (sps_trace_get_n_warnings (again), ==, 1);
}

/* Real recordings */

typedef struct
{
  const char *leaf;
  guint       count;
} LeafCount;

static void
check_recording (const char      *name,
                 guint            n_samples,
                 gint64           tid,
                 const char      *thread_name,
                 SpsTime          first_ns,
                 SpsTime          last_ns,
                 const LeafCount *leaves,
                 guint            n_leaves)
{
  g_autofree char *path = sps_test_shared_fixture_path ("chrome", name);
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GHashTable) counts = g_hash_table_new (g_str_hash, g_str_equal);
  const SpsSampleTable *samples;
  const SpsThreadTable *threads;
  guint total = 0;

  if (path == NULL)
    return;
  trace = sps_test_load_path (path);
  samples = sps_trace_get_samples (trace);
  threads = sps_trace_get_threads (trace);

  g_assert_cmpuint (samples->n_rows, ==, n_samples);
  for (guint i = 0; i < samples->n_rows; i++)
    {
      const char *leaf = str (trace, samples->name[i]);

      g_hash_table_insert (counts, (gpointer) leaf,
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, leaf)) + 1));
      g_assert_cmpint (threads->tid[samples->thread[i]], ==, tid);
      g_assert_cmpstr (str (trace, threads->name[samples->thread[i]]), ==, thread_name);
      g_assert_cmpstr (str (trace, sps_sample_table_get_event_name (samples, i)), ==, "ProfileChunk");
      g_assert_false (sps_sample_table_get_flags (samples, i) & SPS_SAMPLE_UNRESOLVED);
    }
  g_assert_cmpint (samples->ts[0], ==, first_ns);
  g_assert_cmpint (samples->ts[samples->n_rows - 1], ==, last_ns);

  for (guint k = 0; k < n_leaves; k++)
    {
      g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (counts, leaves[k].leaf)), ==,
                        leaves[k].count);
      total += leaves[k].count;
    }
  /* No other leaf */
  g_assert_cmpuint (total, ==, n_samples);
  g_assert_cmpuint (g_hash_table_size (counts), ==, n_leaves);
}

/* Chrome 116 DevTools recording of a small script: one profile, 16 chunks
 * from the profiler thread (tid 5143), samples of CrRendererMain */
static void
test_devtools_recording (void)
{
  const LeafCount leaves[] = {
    { "(idle)", 1376 }, { "gamma", 67 }, { "beta", 63 }, { "delta", 61 },
    { "(program)", 30 }, { "alpha", 3 },
  };

  check_recording ("speedscope__chrome116-devtools-Trace-20230603T221323.json", 1600, 259,
                   "CrRendererMain", G_GINT64_CONSTANT (9632407418000),
                   G_GINT64_CONSTANT (9632672557000), leaves, G_N_ELEMENTS (leaves));
}

/* Lighthouse's M86 trace: 503 chunks, 11 negative deltas */
static void
test_lighthouse_recording (void)
{
  const LeafCount leaves[] = {
    { "window.library.stall", 32487 }, { "(idle)", 17606 }, { "(program)", 111 },
    { "(anonymous)", 30 }, { "(garbage collector)", 28 }, { "now", 19 }, { "send", 4 },
    { "fetch", 3 }, { "window.library.imageLoad", 2 }, { "setTimeout", 1 },
    { "window.library.fetch", 1 }, { "window.library.xhr", 1 }, { "open", 1 },
  };

  check_recording ("lighthouse__cpu-profiler-m86.trace.json", 50294, 775, "CrRendererMain",
                   G_GINT64_CONSTANT (459852385314000), G_GINT64_CONSTANT (459858873010000),
                   leaves, G_N_ELEMENTS (leaves));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/chrome/cpu-profile/streaming-chunks", test_streaming_chunks);
  g_test_add_func ("/chrome/cpu-profile/legacy", test_legacy_cpu_profile);
  g_test_add_func ("/chrome/cpu-profile/top-level-samples", test_top_level_samples);
  g_test_add_func ("/chrome/cpu-profile/hostile", test_hostile);
  g_test_add_func ("/chrome/cpu-profile/malformed-number-runs", test_malformed_number_runs);
  g_test_add_func ("/chrome/cpu-profile/slice-stacks", test_slice_stacks);
  g_test_add_func ("/chrome/cpu-profile/sql-columns", test_sql_columns);
  g_test_add_func ("/chrome/cpu-profile/search", test_search_samples);
  g_test_add_func ("/chrome/cpu-profile/convert-round-trip", test_convert_round_trip);
  g_test_add_func ("/chrome/cpu-profile/convert-stacks", test_convert_stacks);
  g_test_add_func ("/chrome/cpu-profile/devtools-recording", test_devtools_recording);
  g_test_add_func ("/chrome/cpu-profile/lighthouse-recording", test_lighthouse_recording);

  return g_test_run ();
}
