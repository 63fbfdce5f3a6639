/* test-source-location.c: the source viewer's location conventions (args,
 * names, frames, selections) and its path rules (remapping, the suggested
 * prefix, keeping rules per trace folder), without a display
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-source-location"

#include "config.h"

#include <spanscope-gtk.h>

#include "sps-source-location.h"
#include "sps-source-remap.h"

#include "sps-test-util.h"

static JsonNode *
parse (const char *json)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = json_from_string (json, &error);

  g_assert_no_error (error);
  return node;
}

static void
assert_location (SpsSourceLocation *location,
                 const char        *file,
                 const char        *function,
                 guint              line,
                 guint              column)
{
  g_assert_nonnull (location);
  g_assert_cmpstr (location->file, ==, file);
  g_assert_cmpstr (location->function, ==, function);
  g_assert_cmpuint (location->line, ==, line);
  g_assert_cmpuint (location->column, ==, column);
  sps_source_location_free (location);
}

static SpsSourceLocation *
from_args (const char *json)
{
  g_autoptr(JsonNode) args = parse (json);

  return sps_source_location_from_args (args);
}

/* Chrome's task annotations, as catapult's main_thread_has_unclosed_slices
 * writes them (there without a line), and with a line */
static void
test_args_src_file (void)
{
  assert_location (from_args ("{\"src_file\": \"../../ipc/ipc_channel_proxy.cc\", \"src_func\": \"OnMessageReceivedNoFilter\"}"),
                   "../../ipc/ipc_channel_proxy.cc", "OnMessageReceivedNoFilter", 0, 0);
  assert_location (from_args ("{\"src_file\": \"base/task.cc\", \"src_func\": \"Run\", \"src_line\": 42}"),
                   "base/task.cc", "Run", 42, 0);
  /* A line written as a string, as some loggers do */
  assert_location (from_args ("{\"src_file\": \"a.c\", \"src_line\": \"7\"}"), "a.c", NULL, 7, 0);
  /* src_file wins over file when both are there */
  assert_location (from_args ("{\"file\": \"b.c\", \"line\": 1, \"src_file\": \"a.c\", \"src_line\": 2}"),
                   "a.c", NULL, 2, 0);
}

static void
test_args_file_line (void)
{
  assert_location (from_args ("{\"file\": \"/src/app/main.c\", \"line\": 120}"), "/src/app/main.c", NULL, 120, 0);
  assert_location (from_args ("{\"file\": \"main.c\", \"line\": 12, \"column\": 5, \"function\": \"main\"}"),
                   "main.c", "main", 12, 5);
  /* Lines that are no line: negative, zero, fractional, too big, not a number */
  assert_location (from_args ("{\"file\": \"m.c\", \"line\": -1}"), "m.c", NULL, 0, 0);
  assert_location (from_args ("{\"file\": \"m.c\", \"line\": 0}"), "m.c", NULL, 0, 0);
  assert_location (from_args ("{\"file\": \"m.c\", \"line\": 2.5}"), "m.c", NULL, 0, 0);
  assert_location (from_args ("{\"file\": \"m.c\", \"line\": 3.0}"), "m.c", NULL, 3, 0);
  assert_location (from_args ("{\"file\": \"m.c\", \"line\": 4294967296}"), "m.c", NULL, 0, 0);
  assert_location (from_args ("{\"file\": \"m.c\", \"line\": [1]}"), "m.c", NULL, 0, 0);
  /* No file: no location */
  g_assert_null (from_args ("{\"file\": \"\", \"line\": 3}"));
  g_assert_null (from_args ("{\"file\": 3}"));
  g_assert_null (from_args ("{\"line\": 3}"));
  g_assert_null (from_args ("[1, 2]"));
  g_assert_null (sps_source_location_from_args (NULL));
}

/* DevTools' FunctionCall and EvaluateScript: data.url, 1-based lineNumber
 * and columnNumber as Chrome writes them (lighthouse's cpu-profiler-m86) */
static void
test_args_devtools (void)
{
  assert_location (from_args ("{\"data\": {\"columnNumber\": 14, \"frame\": \"F65B\", \"functionName\": \"\", "
                              "\"lineNumber\": 12, \"scriptId\": \"9\", "
                              "\"url\": \"http://localhost:10200/tricky-main-thread-library.js\"}}"),
                   "http://localhost:10200/tricky-main-thread-library.js", NULL, 12, 14);
  assert_location (from_args ("{\"data\": {\"columnNumber\": 20, \"functionName\": \"image.onload\", \"lineNumber\": 44, "
                              "\"url\": \"http://localhost:10200/tricky-main-thread-library.js\"}}"),
                   "http://localhost:10200/tricky-main-thread-library.js", "image.onload", 44, 20);
  /* speedscope's chrome116 recording: a file:// URL at 0:0 (unknown) */
  assert_location (from_args ("{\"data\": {\"columnNumber\": 0, \"lineNumber\": 0, "
                              "\"url\": \"file:///Users/jlfwong/code/speedscope/sample/programs/javascript/simple.js\"}}"),
                   "file:///Users/jlfwong/code/speedscope/sample/programs/javascript/simple.js", NULL, 0, 0);
  /* A call into native code: an empty url */
  g_assert_null (from_args ("{\"data\": {\"columnNumber\": 0, \"lineNumber\": 0, \"url\": \"\"}}"));

  /* TimerInstall: no url of its own, the top frame of its stack (1-based,
   * as the same recording shows) */
  assert_location (from_args ("{\"data\": {\"frame\": \"F65B\", \"singleShot\": true, \"stackTrace\": "
                              "[{\"columnNumber\": 3, \"functionName\": \"window.library.setTimeout\", "
                              "\"lineNumber\": 12, \"scriptId\": \"9\", "
                              "\"url\": \"http://localhost:10200/tricky-main-thread-library.js\"}, "
                              "{\"columnNumber\": 1, \"functionName\": \"\", \"lineNumber\": 2, "
                              "\"url\": \"http://localhost:10200/other.js\"}], \"timeout\": 0, \"timerId\": 1}}"),
                   "http://localhost:10200/tricky-main-thread-library.js", "window.library.setTimeout", 12, 3);
  /* XHRReadyStateChange: its url is the request's, without a line; the
   * stack says where the script is */
  assert_location (from_args ("{\"data\": {\"readyState\": 1, \"url\": \"http://localhost:10200/tricky-main-thread.html\", "
                              "\"stackTrace\": [{\"columnNumber\": 10, \"functionName\": \"\", \"lineNumber\": 33, "
                              "\"url\": \"http://localhost:10200/tricky-main-thread-library.js\"}]}}"),
                   "http://localhost:10200/tricky-main-thread-library.js", NULL, 33, 10);
  /* An empty or unusable stack: the url alone */
  assert_location (from_args ("{\"data\": {\"url\": \"http://a/b.js\", \"stackTrace\": []}}"),
                   "http://a/b.js", NULL, 0, 0);
  assert_location (from_args ("{\"data\": {\"url\": \"http://a/b.js\", \"stackTrace\": [7]}}"),
                   "http://a/b.js", NULL, 0, 0);
  /* Its own line wins over a stack */
  assert_location (from_args ("{\"data\": {\"url\": \"http://a/b.js\", \"lineNumber\": 4, \"stackTrace\": "
                              "[{\"url\": \"http://a/c.js\", \"lineNumber\": 9}]}}"),
                   "http://a/b.js", NULL, 4, 0);
}

static void
test_names (void)
{
  /* VizTracer (viztracer__vdb_basic.json) */
  assert_location (sps_source_location_from_name ("h (/home/gaogaotiantian/programs/codesnap/tests/data/vdb_basic.py:7)"),
                   "/home/gaogaotiantian/programs/codesnap/tests/data/vdb_basic.py", "h", 7, 0);
  assert_location (sps_source_location_from_name ("run (src/main.c:42:7)"), "src/main.c", "run", 42, 7);
  assert_location (sps_source_location_from_name ("src/main.c:42:7"), "src/main.c", NULL, 42, 7);
  assert_location (sps_source_location_from_name ("main.c:9"), "main.c", NULL, 9, 0);
  assert_location (sps_source_location_from_name ("C:\\src\\app\\main.cpp:12"), "C:\\src\\app\\main.cpp", NULL, 12, 0);
  assert_location (sps_source_location_from_name ("http://localhost:8080/app.js:3:14"),
                   "http://localhost:8080/app.js", NULL, 3, 14);

  /* Names that only look alike */
  g_assert_null (sps_source_location_from_name ("std::vector<int>::push_back"));
  g_assert_null (sps_source_location_from_name ("Task: 12"));
  g_assert_null (sps_source_location_from_name ("Frame:12"));
  g_assert_null (sps_source_location_from_name ("http://localhost:8080"));
  g_assert_null (sps_source_location_from_name ("main.c:0"));
  g_assert_null (sps_source_location_from_name ("main.c:99999999999"));
  g_assert_null (sps_source_location_from_name ("f (not a location)"));
  g_assert_null (sps_source_location_from_name (":12"));
  g_assert_null (sps_source_location_from_name (""));
  g_assert_null (sps_source_location_from_name (NULL));
}

/* The file, function, line and column of the location, joined */
static char *
describe (SpsSourceLocation *location)
{
  g_autofree char *where = NULL;

  if (location == NULL)
    return g_strdup ("(none)");
  where = sps_source_location_to_string (location);
  return g_strdup_printf ("%s @ %s", location->function != NULL ? location->function : "-", where);
}

static char *
describe_slice (SpsTrace   *trace,
                const char *name,
                guint       nth)
{
  SpsSelection selection = { .kind = SPS_SELECTION_SLICE, .index = sps_test_find_slice (trace, name, nth) };
  g_autoptr(SpsSourceLocation) location = sps_source_location_find (trace, &selection);

  return describe (location);
}

/* tests/fixtures/source-locations.json, written for the source viewer:
 * src_file/src_func/src_line, a name with "(file:line)", none, and a
 * DevTools FunctionCall (1-based 10:9) */
static void
test_find_fixture (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("source-locations.json");
  g_autofree char *run = describe_slice (trace, "RunTask", 0);
  g_autofree char *missing = describe_slice (trace, "Missing", 0);
  g_autofree char *plain = describe_slice (trace, "Plain", 0);
  g_autofree char *named = describe_slice (trace, "compute (/ci/builds/spanscope/tests/fixtures/source-sample.py:7)", 0);
  g_autofree char *devtools = describe_slice (trace, "FunctionCall", 0);
  SpsSelection nothing = { .kind = SPS_SELECTION_NONE, .index = SPS_NO_INDEX };

  g_assert_cmpstr (run, ==, "compute @ /ci/builds/spanscope/tests/fixtures/source-sample.py:9");
  g_assert_cmpstr (missing, ==, "- @ /ci/builds/spanscope/src/missing.py:3");
  g_assert_cmpstr (plain, ==, "(none)");
  g_assert_cmpstr (named, ==, "compute @ /ci/builds/spanscope/tests/fixtures/source-sample.py:7");
  g_assert_cmpstr (devtools, ==, "compute @ http://localhost:10200/tests/fixtures/source-sample.py:10:9");
  g_assert_null (sps_source_location_find (trace, &nothing));

  /* The trace knows where it came from: the rules are per folder */
  g_assert_nonnull (sps_trace_get_file (trace));
}

/* A V8 CPU profile (lighthouse's cpu-profiler-m86): node 13's callFrame is
 * window.library.fetch at lineNumber 18, columnNumber 23 (0-based, read
 * with Python's json); the frame holds 19:24. The DevTools FunctionCall
 * events of the same file: the first at 12:14, the second with an empty
 * url, the third image.onload at 44:20 (in time order, all on tid 775). */
static void
test_find_cpu_profile (void)
{
  g_autofree char *path = sps_test_shared_fixture_path ("chrome", "lighthouse__cpu-profiler-m86.trace.json");
  g_autoptr(SpsTrace) trace = NULL;
  const SpsFrameTable *frames;
  const SpsCallsiteTable *callsites;
  guint found = 0;

  if (path == NULL)
    return;

  trace = sps_test_load_path (path);
  frames = sps_trace_get_frames (trace);
  for (guint32 i = 0; i < frames->n_rows; i++)
    {
      if (g_strcmp0 (sps_trace_get_string (trace, frames->name[i]), "window.library.fetch") == 0)
        {
          g_autoptr(SpsSourceLocation) location = sps_source_location_from_frame (trace, i);
          g_autofree char *text = describe (location);

          g_assert_cmpstr (text, ==, "window.library.fetch @ http://localhost:10200/tricky-main-thread-library.js:19:24");
          found++;
        }
    }
  g_assert_cmpuint (found, ==, 1);

  /* A stack box of that frame reads the frame */
  callsites = sps_trace_get_callsites (trace);
  for (guint32 c = 0; c < callsites->n_rows; c++)
    {
      if (g_strcmp0 (sps_trace_get_string (trace, frames->name[callsites->frame[c]]), "window.library.fetch") == 0)
        {
          SpsSelection box = { .kind = SPS_SELECTION_STACK_BOX, .index = SPS_NO_INDEX, .callsite = c };
          g_autoptr(SpsSourceLocation) location = sps_source_location_find (trace, &box);

          g_assert_nonnull (location);
          g_assert_cmpuint (location->line, ==, 19);
          g_assert_cmpuint (location->column, ==, 24);
          break;
        }
    }

  /* Samples read their own line (V8's `lines`, 1-based) in the leaf
   * frame's file, without the frame's column: of the profile's 50,294
   * samples, 32,345 are in window.library.stall (V8 lineNumber 54, so
   * frame line 55) at line 58 and 142 at line 57 (counted with Python
   * over the ProfileChunk events' samples and lines) */
  {
    const SpsSampleTable *samples = sps_trace_get_samples (trace);
    guint at_58 = 0;
    guint at_57 = 0;

    for (guint row = 0; row < samples->n_rows; row++)
      {
        SpsSelection sample = { .kind = SPS_SELECTION_SAMPLE, .index = row };
        g_autoptr(SpsSourceLocation) location = sps_source_location_find (trace, &sample);
        g_autofree char *text = describe (location);

        if (g_str_equal (text, "window.library.stall @ http://localhost:10200/tricky-main-thread-library.js:58"))
          at_58++;
        else if (g_str_equal (text, "window.library.stall @ http://localhost:10200/tricky-main-thread-library.js:57"))
          at_57++;
      }
    g_assert_cmpuint (samples->n_rows, ==, 50294);
    g_assert_cmpuint (at_58, ==, 32345);
    g_assert_cmpuint (at_57, ==, 142);
  }

  {
    g_autofree char *first = describe_slice (trace, "FunctionCall", 0);
    g_autofree char *second = describe_slice (trace, "FunctionCall", 1);
    g_autofree char *third = describe_slice (trace, "FunctionCall", 2);
    g_autofree char *evaluate = describe_slice (trace, "EvaluateScript", 0);

    g_assert_cmpstr (first, ==, "- @ http://localhost:10200/tricky-main-thread-library.js:12:14");
    g_assert_cmpstr (second, ==, "(none)");
    g_assert_cmpstr (third, ==, "image.onload @ http://localhost:10200/tricky-main-thread-library.js:44:20");
    g_assert_cmpstr (evaluate, ==, "- @ http://localhost:10200/tricky-main-thread-consumer.js:1:1");
  }

  /* FunctionCall's 12:14 is 1-based: the profile of the same recording
   * has that function (the anonymous arrow passed to setTimeout) at V8's
   * 0-based lineNumber 11, columnNumber 13, stored + 1 as 12:14 */
  {
    guint arrow = 0;

    for (guint32 i = 0; i < frames->n_rows; i++)
      arrow += frames->source_line[i] == 12 && frames->source_column[i] == 14 &&
               g_strcmp0 (sps_trace_get_string (trace, frames->source_file[i]),
                          "http://localhost:10200/tricky-main-thread-library.js") == 0;
    g_assert_cmpuint (arrow, ==, 1);
  }

  /* Stacks in DevTools events are 1-based as well. The library's source
   * (lighthouse's cli/test/fixtures/tricky-main-thread-library.js, one
   * line longer in this recording's version) has `setTimeout(() => {` at
   * line 12, "setTimeout" at column 3 (the arrow at 14, as above);
   * `fetch(...args)` at 21:10, `oReq.open(…)` at 33:10 and
   * `oReq.send()` at 34:10 */
  {
    const SpsInstantTable *instants = sps_trace_get_instants (trace);
    g_autofree char *xhr = describe_slice (trace, "XHRReadyStateChange", 0);
    g_autoptr(GPtrArray) seen = g_ptr_array_new_with_free_func (g_free);

    g_assert_cmpstr (xhr, ==, "- @ http://localhost:10200/tricky-main-thread-library.js:33:10");
    for (guint row = 0; row < instants->n_rows; row++)
      {
        const char *name = sps_trace_get_string (trace, instants->name[row]);
        SpsSelection instant = { .kind = SPS_SELECTION_INSTANT, .index = row };
        g_autoptr(SpsSourceLocation) location = NULL;
        g_autofree char *text = NULL;

        if (g_strcmp0 (name, "TimerInstall") != 0 && g_strcmp0 (name, "ResourceSendRequest") != 0)
          continue;
        location = sps_source_location_find (trace, &instant);
        text = describe (location);
        g_ptr_array_add (seen, g_strdup_printf ("%s: %s", name, text));
      }
    g_ptr_array_add (seen, NULL);
    {
      g_autofree char *all = g_strjoinv ("; ", (char **) seen->pdata);

      /* In time order; the page's and the image's requests have no
       * stack (the browser made them): their own url, no line */
      g_assert_cmpstr (all, ==,
                       "ResourceSendRequest: - @ http://localhost:10200/tricky-main-thread.html?all&time=1000; "
                       "TimerInstall: window.library.setTimeout @ http://localhost:10200/tricky-main-thread-library.js:12:3; "
                       "ResourceSendRequest: window.library.fetch @ http://localhost:10200/tricky-main-thread-library.js:21:10; "
                       "ResourceSendRequest: - @ http://localhost:10200/tricky-main-thread-library.js:34:10; "
                       "ResourceSendRequest: - @ http://localhost:10200/byte-efficiency/lighthouse-480x320.jpg");
    }
  }
}

static GPtrArray *
rules_of (const char *first,
          ...)
{
  GPtrArray *rules = sps_source_rules_new ();
  va_list args;

  va_start (args, first);
  for (const char *from = first; from != NULL; from = va_arg (args, const char *))
    {
      const char *to = va_arg (args, const char *);

      g_ptr_array_add (rules, sps_source_rule_new (from, to));
    }
  va_end (args);

  return rules;
}

/* The candidates, joined with " | ", and the matched rule */
static char *
remap (const char *file,
       GPtrArray  *rules,
       const char *trace_dir,
       guint      *matched)
{
  g_autoptr(GPtrArray) candidates = sps_source_remap (file, rules, trace_dir, matched);

  g_ptr_array_add (candidates, NULL);
  return g_strjoinv (" | ", (char **) candidates->pdata);
}

static void
test_remap (void)
{
  g_autoptr(GPtrArray) rules = rules_of ("/builds/ci/", "",
                                         "/builds/ci/", "/home/me/src/",
                                         "/builds/", "/srv/",
                                         "C:\\src\\", "/home/me/win",
                                         "http://localhost:10200/", "/home/me/site",
                                         "", "/ignored",
                                         NULL);
  guint matched = 0;
  char *text;

  /* A rule without a local prefix is a row being typed: skipped. The
   * first match wins, though the next matches too; the path as written
   * comes after it */
  text = remap ("/builds/ci/app/main.c", rules, "/traces", &matched);
  g_assert_cmpstr (text, ==, "/home/me/src/app/main.c | /builds/ci/app/main.c");
  g_assert_cmpuint (matched, ==, 1);
  g_free (text);

  text = remap ("/builds/other/x.c", rules, "/traces", &matched);
  g_assert_cmpstr (text, ==, "/srv/other/x.c | /builds/other/x.c");
  g_assert_cmpuint (matched, ==, 2);
  g_free (text);

  /* Windows: separators match either way and become '/'; the Windows
   * path itself is no candidate here */
  text = remap ("C:\\src\\app\\Main.cpp", rules, "/traces", &matched);
  g_assert_cmpstr (text, ==, "/home/me/win/app/Main.cpp");
  g_assert_cmpuint (matched, ==, 3);
  g_free (text);
  text = remap ("C:/src/lib/a.h", rules, "/traces", &matched);
  g_assert_cmpstr (text, ==, "/home/me/win/lib/a.h");
  g_free (text);
  text = remap ("D:\\other\\a.h", rules, "/traces", &matched);
  g_assert_cmpstr (text, ==, "");
  g_assert_cmpuint (matched, ==, G_MAXUINT);
  g_free (text);

  /* URLs: escapes decoded, query and fragment dropped; unmapped, none */
  text = remap ("http://localhost:10200/js/tricky%20lib.js?v=3#top", rules, "/traces", &matched);
  g_assert_cmpstr (text, ==, "/home/me/site/js/tricky lib.js");
  g_assert_cmpuint (matched, ==, 4);
  g_free (text);
  text = remap ("https://example.com/app.js", rules, "/traces", &matched);
  g_assert_cmpstr (text, ==, "");
  g_free (text);

  /* file:// URLs are paths */
  text = remap ("file:///Users/me/simple%20one.js", rules, "/traces", &matched);
  g_assert_cmpstr (text, ==, "/Users/me/simple one.js");
  g_assert_cmpuint (matched, ==, G_MAXUINT);
  g_free (text);

  /* Relative paths are relative to the trace's folder, canonical */
  text = remap ("../../ipc/ipc_channel_proxy.cc", rules, "/work/out/Release", &matched);
  g_assert_cmpstr (text, ==, "/work/ipc/ipc_channel_proxy.cc");
  g_free (text);

  /* No rules at all */
  text = remap ("/abs/file.c", NULL, NULL, &matched);
  g_assert_cmpstr (text, ==, "/abs/file.c");
  g_free (text);
}

static void
test_unmatched_prefix (void)
{
  const struct { const char *file, *prefix; } cases[] = {
    { "/builds/ci/app/main.c", "/builds/ci/app/" },
    { "C:\\src\\app\\Main.cpp", "C:\\src\\app\\" },
    { "http://localhost:10200/js/lib.js?v=1", "http://localhost:10200/js/" },
    { "http://localhost:10200/lib.js", "http://localhost:10200/" },
    { "file:///Users/me/a.js", "/Users/me/" },
    { "../../ipc/x.cc", "../../ipc/" },
    { "main.c", "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *prefix = sps_source_remap_unmatched_prefix (cases[i].file);

      g_assert_cmpstr (prefix, ==, cases[i].prefix);
    }
}

/* Rules are kept per folder: saving one folder's keeps the others' */
static void
test_rules_settings (void)
{
  g_autoptr(GSettings) settings = g_settings_new ("io.github.spanscope.Spanscope.source");
  g_autoptr(GPtrArray) a = rules_of ("/ci/", "/home/me/", "C:\\src\\", "/home/me/win/", NULL);
  g_autoptr(GPtrArray) b = rules_of ("http://localhost/", "/srv/www/", NULL);
  g_autoptr(GPtrArray) none = sps_source_rules_new ();
  g_autoptr(GPtrArray) read_a = NULL;
  g_autoptr(GPtrArray) read_b = NULL;
  g_autoptr(GPtrArray) gone = NULL;
  g_autoptr(GVariant) value = NULL;
  g_autofree char *text = NULL;

  sps_source_rules_save (settings, "/traces/a", a);
  sps_source_rules_save (settings, "/traces/b", b);
  read_a = sps_source_rules_load (settings, "/traces/a");
  read_b = sps_source_rules_load (settings, "/traces/b");
  g_assert_cmpuint (read_a->len, ==, 2);
  g_assert_cmpstr (((SpsSourceRule *) read_a->pdata[0])->from, ==, "/ci/");
  g_assert_cmpstr (((SpsSourceRule *) read_a->pdata[1])->to, ==, "/home/me/win/");
  g_assert_cmpuint (read_b->len, ==, 1);
  g_assert_cmpstr (((SpsSourceRule *) read_b->pdata[0])->to, ==, "/srv/www/");

  /* Emptying a folder's rules forgets the folder */
  sps_source_rules_save (settings, "/traces/a", none);
  gone = sps_source_rules_load (settings, "/traces/a");
  g_assert_cmpuint (gone->len, ==, 0);
  value = g_settings_get_value (settings, "path-rules");
  text = g_variant_print (value, FALSE);
  g_assert_cmpstr (text, ==, "{'/traces/b': [('http://localhost/', '/srv/www/')]}");
  g_settings_reset (settings, "path-rules");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/source/location/args-src-file", test_args_src_file);
  g_test_add_func ("/source/location/args-file-line", test_args_file_line);
  g_test_add_func ("/source/location/args-devtools", test_args_devtools);
  g_test_add_func ("/source/location/names", test_names);
  g_test_add_func ("/source/location/find-fixture", test_find_fixture);
  g_test_add_func ("/source/location/find-cpu-profile", test_find_cpu_profile);
  g_test_add_func ("/source/remap/rules", test_remap);
  g_test_add_func ("/source/remap/unmatched-prefix", test_unmatched_prefix);
  g_test_add_func ("/source/remap/settings", test_rules_settings);

  return g_test_run ();
}
