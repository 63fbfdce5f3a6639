/* test-analysis-pipeline.c: analysis plugins run by the load pipeline
 *
 * The plugins are tests/analysis-plugins (marks-plugin.c). Each test has
 * an engine that loads the analyses it wants, each from a folder of its
 * own, after the bundled plugins of SPANSCOPE_PLUGIN_PATH.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gstdio.h>

#include <spanscope-core.h>

#include "sps-test-util.h"

#define MS G_GINT64_CONSTANT (1000000)

/* Checked by hand (ts and dur are µs):
 *   pid 1 tid 1: short 0+500 (0.5 ms), load 1000+2000 (2 ms),
 *                parse 1100+1000 (1 ms, nested in load)
 *   pid 1 tid 2: paint 5000+999 (0.999 ms)
 *   pid 2 tid 3: idle 10000+3000 (3 ms)
 *   a counter "mem" of pid 1: 1 at 0, 4 at 12000
 * so slices of 1 ms or more: load, parse, idle (three), the trace spans
 * 0–13 ms, and the slices are sorted by track, then start: short, load,
 * parse (thread 1), paint (thread 2), idle (thread 3). */
static const char trace_json[] =
  "{\"traceEvents\":["
  "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"app\"}},"
  "{\"ph\":\"X\",\"name\":\"short\",\"cat\":\"c\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":500},"
  "{\"ph\":\"X\",\"name\":\"load\",\"cat\":\"c\",\"pid\":1,\"tid\":1,\"ts\":1000,\"dur\":2000},"
  "{\"ph\":\"X\",\"name\":\"parse\",\"cat\":\"c\",\"pid\":1,\"tid\":1,\"ts\":1100,\"dur\":1000},"
  "{\"ph\":\"X\",\"name\":\"paint\",\"cat\":\"c\",\"pid\":1,\"tid\":2,\"ts\":5000,\"dur\":999},"
  "{\"ph\":\"X\",\"name\":\"idle\",\"cat\":\"c\",\"pid\":2,\"tid\":3,\"ts\":10000,\"dur\":3000},"
  "{\"ph\":\"C\",\"name\":\"mem\",\"pid\":1,\"ts\":0,\"args\":{\"v\":1}},"
  "{\"ph\":\"C\",\"name\":\"mem\",\"pid\":1,\"ts\":12000,\"args\":{\"v\":4}}"
  "]}";

typedef struct
{
  char            *dir;       /* plugins and files of the test */
  char            *trace;     /* trace_json written there */
  SpsPluginEngine *engine;
  GPtrArray       *failed;    /* ::plugin-failed plugin files */
} Fixture;

static void
on_plugin_failed (SpsPluginEngine *engine,
                  const char      *plugin_file,
                  gpointer         user_data)
{
  Fixture *fixture = user_data;

  g_ptr_array_add (fixture->failed, g_path_get_basename (plugin_file));
}

/* One folder per analysis plugin (see sps_test_link_plugin_folders()) */
static char *plugins_root;

/* A scratch folder with the trace, and an engine that loads the
 * analyses named after the bundled plugins */
static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  const char * const *names = data;
  g_autoptr(GError) error = NULL;

  fixture->dir = g_dir_make_tmp ("sps-analysis-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->trace = sps_test_write_file (fixture->dir, "trace.json", trace_json);

  fixture->failed = g_ptr_array_new_with_free_func (g_free);
  fixture->engine = sps_plugin_engine_new ();
  g_signal_connect (fixture->engine, "plugin-failed", G_CALLBACK (on_plugin_failed), fixture);
  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autofree char *folder = g_build_filename (plugins_root, names[i], NULL);

      sps_plugin_engine_add_search_path (fixture->engine, folder);
    }
  sps_plugin_engine_load_all (fixture->engine);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_clear_object (&fixture->engine);
  g_clear_pointer (&fixture->failed, g_ptr_array_unref);
  sps_test_remove_tree (fixture->dir);
  g_free (fixture->dir);
  g_free (fixture->trace);
}

static SpsTrace *
load (Fixture      *fixture,
      const char   *path,
      SpsProgress  *progress,
      GError      **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  return sps_trace_load (file, fixture->engine, NULL, SPS_LOAD_FLAGS_NONE, progress, NULL, error);
}

/* Lets the engine's ::plugin-failed idles run */
static void
drain_main_context (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static guint
count_slices_of_kind (SpsTrace     *trace,
                      SpsTrackKind  kind)
{
  guint n = 0;

  for (guint i = 0; i < sps_trace_get_n_slices (trace); i++)
    {
      guint track;
      SpsTrackKind k;

      g_assert_true (sps_trace_get_slice (trace, i, &track, NULL, NULL, NULL, NULL, NULL));
      g_assert_true (sps_trace_get_track (trace, track, &k, NULL, NULL, NULL));
      n += k == kind;
    }
  return n;
}

static gboolean
has_metadata (SpsTrace   *trace,
              const char *key)
{
  guint n = 0;

  for (guint i = 0; i < sps_trace_get_n_metadata (trace); i++)
    n += g_strcmp0 (sps_trace_get_metadata (trace, i, NULL), key) == 0;
  g_assert_cmpuint (n, <=, 1);
  return n == 1;
}

static const char * const no_analyses[] = { NULL };
static const char * const marks[] = { "marks", NULL };
static const char * const fail_then_marks[] = { "marks-fail", "marks", NULL };
static const char * const samples[] = { "marks-samples", NULL };
static const char * const cancel[] = { "marks-cancel", NULL };

/* The row getters give what the tables hold */
static void
test_rows (Fixture       *fixture,
           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) trace = load (fixture, fixture->trace, NULL, &error);
  const char *name, *category;
  SpsTime ts, dur;
  guint track, depth, process, thread;
  SpsTrackKind kind;
  gint64 id;
  double value;

  g_assert_no_error (error);

  g_assert_cmpuint (sps_trace_get_n_processes (trace), ==, 2);
  g_assert_true (sps_trace_get_process (trace, 0, &id, &name));
  g_assert_cmpint (id, ==, 1);
  g_assert_cmpstr (name, ==, "app");
  g_assert_false (sps_trace_get_process (trace, 2, &id, &name));

  g_assert_cmpuint (sps_trace_get_n_threads (trace), ==, 3);
  g_assert_true (sps_trace_get_thread (trace, 2, &process, &id, NULL));
  g_assert_cmpuint (process, ==, 1);
  g_assert_cmpint (id, ==, 3);

  g_assert_cmpuint (sps_trace_get_n_slices (trace), ==, 5);
  g_assert_true (sps_trace_get_slice (trace, 2, &track, &ts, &dur, &depth, &name, &category));
  g_assert_cmpint (ts, ==, 1100 * 1000);
  g_assert_cmpint (dur, ==, 1 * MS);
  g_assert_cmpuint (depth, ==, 1);
  g_assert_cmpstr (name, ==, "parse");
  g_assert_cmpstr (category, ==, "c");
  g_assert_true (sps_trace_get_track (trace, track, &kind, &process, &thread, NULL));
  g_assert_cmpint (kind, ==, SPS_TRACK_THREAD_SLICES);
  g_assert_cmpuint (process, ==, 0);
  g_assert_cmpuint (thread, ==, 0);
  g_assert_false (sps_trace_get_slice (trace, 5, &track, &ts, &dur, &depth, &name, &category));

  g_assert_cmpuint (sps_trace_get_n_counter_values (trace), ==, 2);
  g_assert_true (sps_trace_get_counter_value (trace, 1, &track, &ts, &value));
  g_assert_cmpint (ts, ==, 12 * MS);
  g_assert_cmpfloat (value, ==, 4.0);
  g_assert_true (sps_trace_get_track (trace, track, &kind, &process, &thread, &name));
  g_assert_cmpint (kind, ==, SPS_TRACK_COUNTER);
  g_assert_cmpstr (name, ==, "mem");
  g_assert_cmpuint (thread, ==, SPS_NO_INDEX);

  g_assert_cmpuint (sps_trace_get_n_samples (trace), ==, 0);
  g_assert_false (sps_trace_get_sample (trace, 0, NULL, NULL, NULL, NULL));
}

static gboolean
collect_slice (SpsTrace *trace,
               guint     slice,
               gpointer  user_data)
{
  const char *name;

  sps_trace_get_slice (trace, slice, NULL, NULL, NULL, NULL, &name, NULL);
  g_ptr_array_add (user_data, (gpointer) name);
  return TRUE;
}

/* What "marks" adds is in the trace, in the tables and indexes */
static void
test_marks (Fixture       *fixture,
            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsProgress) progress = sps_progress_new (NULL);
  g_autoptr(SpsTrace) trace = load (fixture, fixture->trace, progress, &error);
  g_autoptr(GPtrArray) hits = g_ptr_array_new ();
  const SpsCounterTable *counters;
  const char *message, *name;
  guint64 count;
  SpsArgsRef ref;
  guint n_counter_tracks = 0;

  g_assert_no_error (error);

  /* 5 slices read, and one async slice per long slice */
  g_assert_cmpuint (sps_trace_get_n_slices (trace), ==, 8);
  g_assert_cmpuint (count_slices_of_kind (trace, SPS_TRACK_THREAD_SLICES), ==, 5);
  g_assert_cmpuint (count_slices_of_kind (trace, SPS_TRACK_ASYNC), ==, 3);
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_ASYNC), ==, 3);
  g_assert_cmpstr (sps_trace_get_string (trace, sps_trace_get_slices (trace)->name[sps_test_find_slice (trace, "long load", 0)]),
                   ==, "long load");
  sps_test_find_slice (trace, "long parse", 0);
  sps_test_find_slice (trace, "long idle", 0);

  /* The block index covers the new tracks: at 2.5 ms only "long load"
   * (1–3 ms) of the async slices is running */
  for (guint t = 0; t < sps_trace_get_n_tracks (trace); t++)
    {
      SpsTrackKind kind;

      sps_trace_get_track (trace, t, &kind, NULL, NULL, &name);
      if (kind == SPS_TRACK_ASYNC)
        sps_trace_foreach_slice_in_range (trace, t, 2500 * 1000, 2600 * 1000, collect_slice, hits);
      n_counter_tracks += kind == SPS_TRACK_COUNTER && g_str_equal (name, "Long slices");
    }
  g_assert_cmpuint (hits->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (hits, 0), ==, "long load");

  /* "Long slices" of pid 1 counts 1 at 1 ms and 2 at 1.1 ms, of pid 2 1
   * at 10 ms; after the "mem" values read */
  g_assert_cmpuint (n_counter_tracks, ==, 2);
  counters = sps_trace_get_counters (trace);
  g_assert_cmpuint (counters->n_rows, ==, 5);
  g_assert_cmpint (counters->ts[2], ==, 1 * MS);
  g_assert_cmpfloat (counters->value[2], ==, 1.0);
  g_assert_cmpint (counters->ts[3], ==, 1100 * 1000);
  g_assert_cmpfloat (counters->value[3], ==, 2.0);
  g_assert_cmpint (counters->ts[4], ==, 10 * MS);
  g_assert_cmpfloat (counters->value[4], ==, 1.0);
  g_assert_cmpuint (counters->track[4], !=, counters->track[2]);

  /* Warnings, info section and the record that it ran */
  g_assert_cmpuint (sps_trace_count_warning (trace, "long_slice"), ==, 3);
  for (guint i = 0; i < sps_trace_get_n_warnings (trace); i++)
    if (g_str_equal (sps_trace_get_warning (trace, i, &count, &message), "long_slice"))
      g_assert_cmpstr (message, ==, "A slice of 1 ms or more");
  g_assert_cmpuint (sps_trace_get_n_info_sections (trace), ==, 1);
  g_assert_cmpstr (sps_trace_get_info_section (trace, 0, &ref), ==, "marks");
  {
    g_autofree char *json = sps_trace_dup_args_json (trace, ref, NULL);

    g_assert_cmpstr (json, ==, "{\"long\":3}");
  }
  g_assert_true (has_metadata (trace, "analysis:marks"));

  /* The time range is the input's (the marks lie inside it) */
  g_assert_cmpint (sps_trace_get_start_time (trace), ==, 0);
  g_assert_cmpint (sps_trace_get_end_time (trace), ==, 13 * MS);

  g_assert_cmpint (sps_progress_get_phase (progress), ==, SPS_PROGRESS_PHASE_DONE);
  drain_main_context ();
  g_assert_cmpuint (fixture->failed->len, ==, 0);
}

/* A failing analysis is skipped, its plugin reported, the others run */
static void
test_failure (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) trace = load (fixture, fixture->trace, NULL, &error);
  g_autoptr(SpsPluginStatus) status = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (count_slices_of_kind (trace, SPS_TRACK_ASYNC), ==, 3);
  g_assert_cmpuint (sps_trace_count_warning (trace, "marks_fail"), ==, 0);
  g_assert_false (has_metadata (trace, "analysis:marks-fail"));

  status = sps_test_find_plugin_status (fixture->engine, "marks_fail");
  g_assert_cmpint (sps_plugin_status_get_state (status), ==, SPS_PLUGIN_STATE_FAILED);
  g_assert_cmpstr (sps_plugin_status_get_error (status), ==,
                   "plugin “marks_fail” failed in SpsAnalysis.analyze and is skipped: "
                   "marks-fail gives up on purpose");
  g_assert_cmpuint (sps_plugin_engine_count_failed (fixture->engine), ==, 1);

  drain_main_context ();
  g_assert_cmpuint (fixture->failed->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (fixture->failed, 0), ==, "marks-fail.plugin");
}

/* Rows an analysis may not add fail it, and none of them reach the trace */
static void
test_refused_rows (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) trace = load (fixture, fixture->trace, NULL, &error);
  g_autoptr(SpsPluginStatus) status = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (sps_trace_get_n_samples (trace), ==, 0);
  g_assert_cmpuint (sps_trace_get_n_slices (trace), ==, 5);
  g_assert_cmpuint (sps_trace_get_n_threads (trace), ==, 3);

  status = sps_test_find_plugin_status (fixture->engine, "marks_samples");
  g_assert_cmpint (sps_plugin_status_get_state (status), ==, SPS_PLUGIN_STATE_FAILED);
  g_assert_cmpstr (sps_plugin_status_get_error (status), ==,
                   "plugin “marks_samples” failed in SpsAnalysis.analyze and is skipped: "
                   "an analysis can add slices, instants, counters and warnings, not samples");
}

/* Cancelling during an analysis cancels the load; nobody is blamed */
static void
test_cancel (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsProgress) progress = sps_progress_new (NULL);
  g_autoptr(SpsTrace) trace = load (fixture, fixture->trace, progress, &error);
  g_autoptr(SpsPluginStatus) status = NULL;

  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (trace);

  status = sps_test_find_plugin_status (fixture->engine, "marks_cancel");
  g_assert_cmpint (sps_plugin_status_get_state (status), ==, SPS_PLUGIN_STATE_LOADED);
}

/* A profile saved with an analysis' rows keeps them and does not get them
 * twice; one saved without gets them when reopened */
static void
test_profile (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) trace = load (fixture, fixture->trace, NULL, &error);
  g_autoptr(SpsTrace) reopened = NULL;
  g_autoptr(SpsPluginEngine) plain = NULL;
  g_autoptr(SpsTrace) unmarked = NULL;
  g_autoptr(SpsTrace) marked = NULL;
  g_autofree char *with = g_build_filename (fixture->dir, "with.spprofile", NULL);
  g_autofree char *without = g_build_filename (fixture->dir, "without.spprofile", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (fixture->trace);

  g_assert_no_error (error);
  g_assert_true (sps_trace_save_profile (trace, with, NULL, NULL, &error));
  g_assert_no_error (error);

  reopened = load (fixture, with, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sps_trace_get_n_slices (reopened), ==, 8);
  g_assert_cmpuint (count_slices_of_kind (reopened, SPS_TRACK_ASYNC), ==, 3);
  g_assert_cmpuint (sps_trace_count_warning (reopened, "long_slice"), ==, 3);
  g_assert_true (has_metadata (reopened, "analysis:marks"));

  /* The same trace without the analysis, saved, then opened with it */
  plain = sps_plugin_engine_new ();
  sps_plugin_engine_load_all (plain);
  unmarked = sps_trace_load (file, plain, NULL, SPS_LOAD_FLAGS_NONE, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sps_trace_get_n_slices (unmarked), ==, 5);
  g_assert_true (sps_trace_save_profile (unmarked, without, NULL, NULL, &error));
  g_assert_no_error (error);

  marked = load (fixture, without, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sps_trace_get_n_slices (marked), ==, 8);
  g_assert_cmpuint (count_slices_of_kind (marked, SPS_TRACK_ASYNC), ==, 3);
  g_assert_true (has_metadata (marked, "analysis:marks"));
  sps_test_find_slice (marked, "long idle", 0);
}

/* Slices whose stacks are stored once (all "main") keep them when an
 * analysis appends slices without stacks, which the appended rows get */
static void
test_marks_stacks (Fixture       *fixture,
                   gconstpointer  data)
{
  static const char stacked_json[] =
    "{\"stackFrames\":{\"1\":{\"name\":\"main\"}},\"traceEvents\":["
    "{\"ph\":\"X\",\"name\":\"load\",\"pid\":1,\"tid\":1,\"ts\":1000,\"dur\":2000,\"sf\":1},"
    "{\"ph\":\"X\",\"name\":\"short\",\"pid\":1,\"tid\":1,\"ts\":4000,\"dur\":10,\"sf\":1}"
    "]}";
  g_autoptr(GError) error = NULL;
  g_autofree char *path = sps_test_write_file (fixture->dir, "stacked.json", stacked_json);
  g_autoptr(SpsTrace) trace = load (fixture, path, NULL, &error);
  const SpsSliceTable *slices;
  guint load_row, short_row, mark_row;

  g_assert_no_error (error);
  slices = sps_trace_get_slices (trace);
  /* load, short, and the mark of load (2 ms) */
  g_assert_cmpuint (slices->n_rows, ==, 3);
  load_row = sps_test_find_slice (trace, "load", 0);
  short_row = sps_test_find_slice (trace, "short", 0);
  mark_row = sps_test_find_slice (trace, "long load", 0);
  g_assert_cmpuint (sps_slice_table_get_callsite (slices, load_row), !=, SPS_NO_INDEX);
  g_assert_cmpuint (sps_slice_table_get_callsite (slices, short_row), ==,
                    sps_slice_table_get_callsite (slices, load_row));
  g_assert_cmpuint (sps_slice_table_get_callsite (slices, mark_row), ==, SPS_NO_INDEX);
  for (guint r = 0; r < slices->n_rows; r++)
    g_assert_cmpuint (sps_slice_table_get_end_callsite (slices, r), ==, SPS_NO_INDEX);
  /* The start stacks differ now: stored per row; the end stacks do not */
  g_assert_nonnull (slices->callsite);
  g_assert_null (slices->end_callsite);
}

#define TEST(path, names, func) \
  g_test_add (path, Fixture, names, fixture_setup, func, fixture_teardown)

int
main (int   argc,
      char *argv[])
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  {
    const char * const all[] = { "marks", "marks-fail", "marks-samples", "marks-cancel", NULL };

    plugins_root = sps_test_link_plugin_folders ("analysis-plugins", all);
  }

  TEST ("/core/analysis/rows", no_analyses, test_rows);
  TEST ("/core/analysis/marks", marks, test_marks);
  TEST ("/core/analysis/marks-stacks", marks, test_marks_stacks);
  TEST ("/core/analysis/failure", fail_then_marks, test_failure);
  TEST ("/core/analysis/refused-rows", samples, test_refused_rows);
  TEST ("/core/analysis/cancel", cancel, test_cancel);
  TEST ("/core/analysis/profile", marks, test_profile);

  ret = g_test_run ();
  sps_test_remove_tree (plugins_root);
  g_free (plugins_root);

  return ret;
}
