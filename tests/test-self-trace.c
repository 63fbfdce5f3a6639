/* test-self-trace.c: --trace, the Chrome JSON trace of Spanscope itself
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The traces written here are read back with Spanscope's own Chrome
 * importer, as a user opening OUT.json would.
 */

#include "config.h"

#include <glib/gstdio.h>

#include "sps-test-util.h"

static char *scratch_dir;

/* The finish() passes, in the order sps-trace-finish.c runs them (plus
 * the outstanding-bytes counters, added first) */
static const char *finish_passes[] = {
  "finish/outstanding-counters", "finish/pair-begin-end", "finish/pair-async", "finish/time-range",
  "finish/close-unfinished", "finish/pack-async-lanes", "finish/processes-and-threads",
  "finish/tracks", "finish/slices", "finish/instants", "finish/counters", "finish/samples",
  "finish/raw-samples", "finish/move-tracks", "finish/block-index", "finish/flows",
  "finish/objects-and-stacks", "finish/allocations", "finish/metadata-and-warnings",
};

static guint
count_slices (SpsTrace   *trace,
              const char *name)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  guint n = 0;

  for (guint i = 0; i < slices->n_rows; i++)
    n += g_strcmp0 (sps_trace_get_string (trace, slices->name[i]), name) == 0;

  return n;
}

/* The thread (tid) a slice was recorded on */
static gint64
slice_tid (SpsTrace *trace,
           guint     slice)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  const SpsThreadTable *threads = sps_trace_get_threads (trace);
  guint32 thread = tracks->thread[slices->track[slice]];

  g_assert_cmpuint (thread, <, threads->n_rows);
  return threads->tid[thread];
}

static const char *
slice_thread_name (SpsTrace *trace,
                   guint     slice)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  const SpsThreadTable *threads = sps_trace_get_threads (trace);

  return sps_trace_get_string (trace, threads->name[tracks->thread[slices->track[slice]]]);
}

static const char *
parent_name (SpsTrace *trace,
             guint     slice)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);

  if (slices->parent[slice] == SPS_NO_INDEX)
    return NULL;
  return sps_trace_get_string (trace, slices->name[slices->parent[slice]]);
}

/* The track of the counter "Spanscope memory", series @series */
static guint
memory_track (SpsTrace   *trace,
              const char *series)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);

  for (guint i = 0; i < tracks->n_rows; i++)
    if (tracks->kind[i] == SPS_TRACK_COUNTER &&
        g_strcmp0 (sps_trace_get_string (trace, tracks->name[i]), "Spanscope memory") == 0 &&
        g_strcmp0 (sps_trace_get_string (trace, tracks->series[i]), series) == 0)
      return i;

  g_assert_not_reached ();
}

/* Whether a thread of this process has the name @name */
static gboolean
has_thread_named (const char *name)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc/self/task", 0, NULL);
  const char *tid;

  g_assert_nonnull (dir);
  while ((tid = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename ("/proc/self/task", tid, "comm", NULL);
      g_autofree char *comm = NULL;

      if (g_file_get_contents (path, &comm, NULL, NULL) && g_strcmp0 (g_strchomp (comm), name) == 0)
        return TRUE;
    }

  return FALSE;
}

static SpsTrace *
run_traced_cli (const char  *out_name,
                const char * const *command)
{
  g_autofree char *out = g_build_filename (scratch_dir, out_name, NULL);
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_auto(SpsTestRun) run = { 0, };
  SpsTrace *trace;

  g_ptr_array_add (args, (gpointer) "--trace");
  g_ptr_array_add (args, out);
  for (guint i = 0; command[i] != NULL; i++)
    g_ptr_array_add (args, (gpointer) command[i]);
  g_ptr_array_add (args, NULL);

  sps_test_run_cli (&run, (const char * const *) args->pdata);
  g_assert_cmpint (run.status, ==, 0);

  trace = sps_test_load_path (out);
  g_assert_cmpstr (sps_trace_get_format (trace), ==, "chrome-json");
  /* A trace Spanscope itself writes reads without a warning */
  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 0);

  return trace;
}

/* `spanscope-cli --trace OUT.json info FILE`: the import's phases are in
 * OUT.json once each, nested as they ran, on the load's worker thread
 * (the CLI waits on its main thread: sps_trace_load() runs the load on a
 * GTask worker), and plugin loading on the main thread. */
static void
test_self_trace_cli_import (void)
{
  g_autofree char *fixture = sps_test_fixture_path ("cli-small.json");
  const char *command[] = { "info", "--json", fixture, NULL };
  g_autoptr(SpsTrace) trace = run_traced_cli ("info.json", command);
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  guint load, finish, import, events, plugin;
  gint64 worker;

  /* One of each per import of one file */
  for (guint i = 0; i < G_N_ELEMENTS (finish_passes); i++)
    {
      g_test_message ("%s", finish_passes[i]);
      g_assert_cmpuint (count_slices (trace, finish_passes[i]), ==, 1);
    }
  g_assert_cmpuint (count_slices (trace, "load"), ==, 1);
  g_assert_cmpuint (count_slices (trace, "import"), ==, 1);
  g_assert_cmpuint (count_slices (trace, "read-file"), ==, 1);
  g_assert_cmpuint (count_slices (trace, "chrome/events"), ==, 1);
  g_assert_cmpuint (count_slices (trace, "finish"), ==, 1);
  g_assert_cmpuint (count_slices (trace, "analyses"), ==, 1);
  /* 22 events (1.3 KB) are read on one thread, in one sequential scan */
  g_assert_cmpuint (count_slices (trace, "chrome/scan"), ==, 1);
  g_assert_cmpuint (count_slices (trace, "chrome/scan-chunk"), ==, 0);

  load = sps_test_find_slice (trace, "load", 0);
  finish = sps_test_find_slice (trace, "finish", 0);
  import = sps_test_find_slice (trace, "import", 0);
  events = sps_test_find_slice (trace, "chrome/events", 0);

  /* Nesting: load ⊃ import ⊃ chrome/events ⊃ chrome/scan; load ⊃
   * finish ⊃ every pass */
  g_assert_null (parent_name (trace, load));
  g_assert_cmpstr (parent_name (trace, import), ==, "load");
  g_assert_cmpstr (parent_name (trace, finish), ==, "load");
  g_assert_cmpstr (parent_name (trace, sps_test_find_slice (trace, "analyses", 0)), ==, "load");
  g_assert_cmpstr (parent_name (trace, events), ==, "import");
  g_assert_cmpstr (parent_name (trace, sps_test_find_slice (trace, "read-file", 0)), ==, "import");
  g_assert_cmpstr (parent_name (trace, sps_test_find_slice (trace, "chrome/scan", 0)), ==, "chrome/events");
  for (guint i = 0; i < G_N_ELEMENTS (finish_passes); i++)
    g_assert_cmpstr (parent_name (trace, sps_test_find_slice (trace, finish_passes[i], 0)), ==, "finish");

  /* The load runs on one worker thread, not the main one (whose tid is
   * the process id, and whose name is the program's) */
  worker = slice_tid (trace, load);
  g_assert_cmpint (slice_tid (trace, finish), ==, worker);
  g_assert_cmpint (slice_tid (trace, events), ==, worker);
  g_assert_cmpstr (slice_thread_name (trace, load), !=, "spanscope-cli");

  /* The Chrome importer was loaded on the main thread, its name in the
   * args */
  g_assert_cmpuint (count_slices (trace, "plugin/load"), >=, 1);
  plugin = sps_test_find_slice (trace, "plugin/load", 0);
  g_assert_cmpint (slice_tid (trace, plugin), !=, worker);
  g_assert_cmpstr (slice_thread_name (trace, plugin), ==, "spanscope-cli");
  {
    gboolean chrome = FALSE;

    for (guint nth = 0; nth < count_slices (trace, "plugin/load"); nth++)
      {
        g_autofree char *args = NULL;

        plugin = sps_test_find_slice (trace, "plugin/load", nth);
        args = sps_trace_dup_args_json (trace, slices->args[plugin], NULL);
        g_assert_cmpstr (slice_thread_name (trace, plugin), ==, "spanscope-cli");

        chrome |= g_strcmp0 (args, "{\"plugin\":\"chrome-json\"}") == 0;
      }
    g_assert_true (chrome);
  }

  for (guint i = 0; i < slices->n_rows; i++)
    g_assert_cmpint (slices->dur[i], >=, 0);
}

/* The value of the series at @track at the first sample at or after
 * @time (the sample that ends a phase is taken just after the phase's
 * end), or at the last one at or before it with @before */
static double
sample_near (SpsTrace *trace,
             guint     track,
             SpsTime   time,
             gboolean  before)
{
  const SpsCounterTable *counters = sps_trace_get_counters (trace);
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  double value = -1;

  for (guint r = tracks->first_row[track]; r < tracks->first_row[track] + tracks->n_rows_in_track[track]; r++)
    {
      if (before && counters->ts[r] <= time)
        value = counters->value[r];
      else if (!before && counters->ts[r] >= time)
        return counters->value[r];
    }

  return value;
}

static SpsTime
slice_end (SpsTrace *trace,
           guint     slice)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);

  return slices->ts[slice] + slices->dur[slice];
}

/* The memory counter over the import of a generated trace of 200,000
 * slices (16 MB): sampled at every phase's start and end, so the "load"
 * slice holds at least two samples per slice nested in it on its thread;
 * the resident memory at the end of "chrome/events" exceeds the one
 * before the load by at least the file's size (every byte of the text
 * was read into memory or mapped and touched, and the trace keeps it for
 * its args); the anonymous memory at the end of "finish" exceeds the one
 * before by at least 200,000 × 16 bytes (the slice table's ts and dur
 * columns alone); every sample lies within the trace, and the resident
 * memory is never below the anonymous one. */
static void
test_self_trace_cli_memory (void)
{
  g_autofree char *input = g_build_filename (scratch_dir, "memory-input.json", NULL);
  g_autoptr(GString) text = g_string_new ("[");
  const char *command[] = { "info", input, NULL };
  g_autoptr(SpsTrace) trace = NULL;
  const SpsSliceTable *slices;
  const SpsCounterTable *counters;
  const SpsTrackTable *tracks;
  guint rss, anonymous, load;
  SpsTime load_start, load_end;
  double rss_before, rss_events, anonymous_before, anonymous_finish;
  guint nested = 0, inside = 0;

  for (guint i = 0; i < 200000; i++)
    g_string_append_printf (text, "%s{\"name\":\"s%u\",\"ph\":\"X\",\"ts\":%u,\"dur\":5,\"pid\":1,\"tid\":%u,"
                            "\"args\":{\"n\":%u}}", i > 0 ? ",\n" : "", i % 100, i * 10, i % 4, i);
  g_string_append (text, "]\n");
  g_assert_true (g_file_set_contents (input, text->str, (gssize) text->len, NULL));

  trace = run_traced_cli ("memory.json", command);
  slices = sps_trace_get_slices (trace);
  counters = sps_trace_get_counters (trace);
  tracks = sps_trace_get_tracks (trace);
  rss = memory_track (trace, "rss_bytes");
  anonymous = memory_track (trace, "anonymous_bytes");
  g_assert_cmpuint (tracks->n_rows_in_track[rss], ==, tracks->n_rows_in_track[anonymous]);

  load = sps_test_find_slice (trace, "load", 0);
  load_start = slices->ts[load];
  load_end = slice_end (trace, load);
  for (guint i = 0; i < slices->n_rows; i++)
    nested += i != load && slices->ts[i] >= load_start && slice_end (trace, i) <= load_end &&
              slice_tid (trace, i) == slice_tid (trace, load);

  for (guint r = tracks->first_row[anonymous]; r < tracks->first_row[anonymous] + tracks->n_rows_in_track[anonymous]; r++)
    {
      g_assert_cmpint (counters->ts[r], >=, sps_trace_get_start_time (trace));
      g_assert_cmpint (counters->ts[r], <=, sps_trace_get_end_time (trace));
      g_assert_cmpfloat (counters->value[r], >, 0);
      inside += counters->ts[r] >= load_start && counters->ts[r] <= load_end;
    }

  rss_before = sample_near (trace, rss, load_start, TRUE);
  anonymous_before = sample_near (trace, anonymous, load_start, TRUE);
  rss_events = sample_near (trace, rss, slice_end (trace, sps_test_find_slice (trace, "chrome/events", 0)), FALSE);
  anonymous_finish = sample_near (trace, anonymous, slice_end (trace, sps_test_find_slice (trace, "finish", 0)), FALSE);
  g_test_message ("%u slices in the load, %u samples; resident %.0f before, %.0f after the events of %"
                  G_GSIZE_FORMAT " bytes; anonymous %.0f before, %.0f after finish()",
                  nested, inside, rss_before, rss_events, text->len, anonymous_before, anonymous_finish);
  g_assert_cmpuint (nested, >=, 25);
  g_assert_cmpuint (inside, >=, 2 * nested);
  g_assert_cmpfloat (rss_before, >, 0);
  g_assert_cmpfloat (anonymous_before, >, 0);
  g_assert_cmpfloat (rss_events - rss_before, >=, (double) text->len);
  g_assert_cmpfloat (anonymous_finish - anonymous_before, >=, 200000.0 * 16);

  for (guint k = 0; k < tracks->n_rows_in_track[rss]; k++)
    g_assert_cmpfloat (counters->value[tracks->first_row[rss] + k], >=,
                       counters->value[tracks->first_row[anonymous] + k]);

  g_unlink (input);
}

/* `spanscope-cli --trace OUT.json query FILE SQL`: the statement's text
 * is the event's argument */
static void
test_self_trace_cli_sql (void)
{
  g_autofree char *fixture = sps_test_fixture_path ("cli-small.json");
  const char *command[] = { "query", fixture, "SELECT count(*) FROM slices", NULL };
  g_autoptr(SpsTrace) trace = run_traced_cli ("sql.json", command);
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  guint query;
  g_autofree char *args = NULL;

  g_assert_cmpuint (count_slices (trace, "sql/query"), ==, 1);
  query = sps_test_find_slice (trace, "sql/query", 0);
  args = sps_trace_dup_args_json (trace, slices->args[query], NULL);
  g_assert_cmpstr (args, ==, "{\"sql\":\"SELECT count(*) FROM slices\"}");
}

/* A --trace that cannot be written fails the command, naming the file */
static void
test_self_trace_cli_unwritable (void)
{
  g_autofree char *fixture = sps_test_fixture_path ("cli-small.json");
  g_auto(SpsTestRun) run = { 0, };

  sps_test_run_cli_va (&run, "--trace", "/nonexistent-dir/out.json", "info", fixture, NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, "/nonexistent-dir/out.json"));
}

static gpointer
record_on_thread (gpointer data)
{
  gint64 start = sps_self_trace_begin ();

  sps_self_trace_end (start, "test/worker", NULL, NULL);
  return NULL;
}

/* The API in process: nothing is recorded while off; once on, events of
 * two threads, with args cut to 200 bytes at a character's start */
static void
test_self_trace_api (void)
{
  g_autofree char *out = g_build_filename (scratch_dir, "api.json", NULL);
  g_autoptr(GString) long_arg = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autofree char *args = NULL;
  GThread *thread;
  gint64 outer;
  guint slice;

  g_assert_false (sps_self_trace_is_enabled ());
  g_assert_cmpint (sps_self_trace_begin (), ==, 0);
  {
    SPS_SELF_TRACE_SCOPE ("test/off");
  }
  sps_self_trace_end (0, "test/off", NULL, NULL);
  g_assert_cmpuint (sps_self_trace_get_n_events (), ==, 0);
  /* While off, nothing samples the memory */
  g_assert_false (has_thread_named ("sps-memory"));

  sps_self_trace_enable ();
  g_assert_true (sps_self_trace_is_enabled ());
  /* The thread names itself once it runs: give it up to 5 s */
  for (guint i = 0; i < 500 && !has_thread_named ("sps-memory"); i++)
    g_usleep (10000);
  g_assert_true (has_thread_named ("sps-memory"));

  /* 199 ASCII bytes, then "é" (2 bytes) crossing the limit of 200 */
  for (guint i = 0; i < 199; i++)
    g_string_append_c (long_arg, 'a');
  g_string_append (long_arg, "ééé");

  outer = sps_self_trace_begin ();
  g_assert_cmpint (outer, >, 0);
  {
    SPS_SELF_TRACE_SCOPE_ARG ("test/inner", "text", long_arg->str);

    thread = g_thread_new ("sps-test-worker", record_on_thread, NULL);
    g_thread_join (thread);
  }
  sps_self_trace_end (outer, "test/outer", NULL, NULL);
  g_assert_cmpuint (sps_self_trace_get_n_events (), ==, 3);

  g_assert_true (sps_self_trace_write (out, &error));
  g_assert_no_error (error);

  trace = sps_test_load_path (out);
  g_assert_cmpuint (sps_trace_get_slices (trace)->n_rows, ==, 3);
  g_assert_cmpstr (parent_name (trace, sps_test_find_slice (trace, "test/inner", 0)), ==, "test/outer");
  slice = sps_test_find_slice (trace, "test/worker", 0);
  g_assert_null (parent_name (trace, slice));
  g_assert_cmpstr (slice_thread_name (trace, slice), ==, "sps-test-worker");
  g_assert_cmpint (slice_tid (trace, slice), !=, slice_tid (trace, sps_test_find_slice (trace, "test/outer", 0)));

  args = sps_trace_dup_args_json (trace, sps_trace_get_slices (trace)->args[sps_test_find_slice (trace, "test/inner", 0)], NULL);
  g_assert_true (g_str_has_prefix (args, "{\"text\":\"aaaa"));
  /* 199 a's, then the ellipsis instead of the "é" that would cross 200 */
  g_assert_true (g_str_has_suffix (args, "aaa…\"}"));
  g_assert_cmpuint (strlen (args), ==, strlen ("{\"text\":\"\"}") + 199 + strlen ("…"));

  /* The memory counter: one sample at the enable, one at each begin and
   * end of the three events, one at the write; the sampler thread's
   * 100 ms beat may add some */
  {
    const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
    guint rss = memory_track (trace, "rss_bytes");
    guint64 now_rss = 0, now_anonymous = 0;

    g_assert_cmpuint (tracks->n_rows_in_track[rss], >=, 8);
    g_assert_cmpuint (tracks->n_rows_in_track[memory_track (trace, "anonymous_bytes")], >=, 8);
    g_assert_true (sps_self_trace_read_memory (&now_rss, &now_anonymous));
    g_assert_cmpuint (now_rss, >, 0);
    g_assert_cmpuint (now_anonymous, >, 0);
    g_assert_cmpuint (now_anonymous, <=, now_rss);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);

  scratch_dir = g_dir_make_tmp ("spanscope-test-self-trace-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/self-trace/api", test_self_trace_api);
  if (g_getenv ("SPANSCOPE_CLI") != NULL)
    {
      g_test_add_func ("/self-trace/cli/import", test_self_trace_cli_import);
      g_test_add_func ("/self-trace/cli/sql", test_self_trace_cli_sql);
      g_test_add_func ("/self-trace/cli/memory", test_self_trace_cli_memory);
      g_test_add_func ("/self-trace/cli/unwritable", test_self_trace_cli_unwritable);
    }

  ret = g_test_run ();
  sps_test_remove_tree (scratch_dir);
  g_free (scratch_dir);

  return ret;
}
