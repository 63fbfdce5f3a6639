/* test-chrome-import.c: the Chrome JSON importer, through the plugin engine
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every expected value below was worked out by hand from the fixture in
 * tests/fixtures (or the text built by the test): times are the written
 * microseconds × 1000, parents and depths follow time containment.
 */

#define G_LOG_DOMAIN "test-chrome-import"

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>
#include <spanscope-core.h>

#include "../plugins/chrome-json/sps-chrome-event-reader.h"
#include "../plugins/chrome-json/sps-chrome-scanner.h"

#include "sps-test-util.h"

/* Helpers */

static GVariant *
options_new (const char *unit,
             guint       threads)
{
  GVariantDict dict;

  g_variant_dict_init (&dict, NULL);
  if (unit != NULL)
    g_variant_dict_insert (&dict, "timestamp-unit", "s", unit);
  if (threads != 0)
    g_variant_dict_insert (&dict, "threads", "u", threads);
  return g_variant_ref_sink (g_variant_dict_end (&dict));
}

static SpsTrace *
load_path (const char    *path,
           GVariant      *options,
           SpsLoadFlags   flags,
           GError       **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  return sps_trace_load (file, NULL, options, flags, NULL, NULL, error);
}

static SpsTrace *
load_fixture_with (const char *name,
                   GVariant   *options)
{
  g_autofree char *path = sps_test_fixture_path (name);
  g_autoptr(GError) error = NULL;
  SpsTrace *trace;

  trace = load_path (path, options, SPS_LOAD_FLAGS_NONE, &error);
  g_assert_no_error (error);
  g_assert_nonnull (trace);
  g_assert_cmpstr (sps_trace_get_format (trace), ==, "chrome-json");
  return trace;
}

static SpsTrace *
load_fixture (const char *name)
{
  return load_fixture_with (name, NULL);
}

/* Loads a fixture that must fail, and returns the error message with the
 * fixture's path replaced by "FILE". */
static char *
load_fixture_error (const char *name,
                    GQuark      domain,
                    int         code)
{
  g_autofree char *path = sps_test_fixture_path (name);
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) trace = NULL;

  trace = load_path (path, NULL, SPS_LOAD_FLAGS_NONE, &error);
  g_assert_null (trace);
  g_assert_error (error, domain, code);
  g_assert_true (g_str_has_prefix (error->message, path));
  return g_strconcat ("FILE", error->message + strlen (path), NULL);
}

static const char *
str (SpsTrace *trace,
     guint32   id)
{
  return sps_trace_get_string (trace, id);
}

/* The first row whose name column holds @name */
static guint
row_named (SpsTrace      *trace,
           const guint32 *names,
           guint          n_rows,
           const char    *name)
{
  for (guint i = 0; i < n_rows; i++)
    {
      if (g_str_equal (str (trace, names[i]), name))
        return i;
    }
  g_test_message ("no row named %s", name);
  g_assert_not_reached ();
  return G_MAXUINT;
}

static guint
slice_named (SpsTrace   *trace,
             const char *name)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);

  return row_named (trace, slices->name, slices->n_rows, name);
}

static guint
instant_named (SpsTrace   *trace,
               const char *name)
{
  const SpsInstantTable *instants = sps_trace_get_instants (trace);

  return row_named (trace, instants->name, instants->n_rows, name);
}

static guint
find_thread (SpsTrace *trace,
             gint64    pid,
             gint64    tid)
{
  const SpsThreadTable *threads = sps_trace_get_threads (trace);
  const SpsProcessTable *processes = sps_trace_get_processes (trace);

  for (guint i = 0; i < threads->n_rows; i++)
    {
      if (threads->tid[i] == tid && processes->pid[threads->process[i]] == pid)
        return i;
    }
  g_test_message ("no thread %" G_GINT64_FORMAT "/%" G_GINT64_FORMAT, pid, tid);
  g_assert_not_reached ();
  return G_MAXUINT;
}

static guint
find_process (SpsTrace *trace,
              gint64    pid)
{
  const SpsProcessTable *processes = sps_trace_get_processes (trace);

  for (guint i = 0; i < processes->n_rows; i++)
    {
      if (processes->pid[i] == pid)
        return i;
    }
  g_test_message ("no process %" G_GINT64_FORMAT, pid);
  g_assert_not_reached ();
  return G_MAXUINT;
}

static guint
slice_thread (SpsTrace *trace,
              guint     slice)
{
  return sps_trace_get_tracks (trace)->thread[sps_trace_get_slices (trace)->track[slice]];
}

static SpsTrackKind
slice_track_kind (SpsTrace *trace,
                  guint     slice)
{
  return sps_trace_get_tracks (trace)->kind[sps_trace_get_slices (trace)->track[slice]];
}

static void
assert_json (SpsTrace   *trace,
             SpsArgsRef  ref,
             const char *expected)
{
  g_autofree char *copy = NULL;
  const char *text;
  gsize len;

  text = sps_trace_get_args_json (trace, ref, &len);
  if (expected == NULL)
    {
      g_assert_null (text);
      return;
    }
  g_assert_nonnull (text);
  copy = g_strndup (text, len);
  g_assert_cmpstr (copy, ==, expected);
}

static void
assert_slice (SpsTrace   *trace,
              const char *name,
              SpsTime     ts,
              SpsTime     dur,
              guint       depth,
              const char *parent)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  guint i = slice_named (trace, name);

  g_assert_cmpint (slices->ts[i], ==, ts);
  g_assert_cmpint (slices->dur[i], ==, dur);
  g_assert_cmpuint (slices->depth[i], ==, depth);
  if (parent == NULL)
    g_assert_cmpuint (slices->parent[i], ==, SPS_NO_INDEX);
  else
    g_assert_cmpuint (slices->parent[i], ==, slice_named (trace, parent));
}

/* Writes @len bytes to a new file in a temporary directory. */
static char *
write_temp (const char *name,
            const void *data,
            gsize       len)
{
  return sps_test_write_temp ("spanscope-chrome-XXXXXX", name, data, len);
}

static void
remove_temp (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);

  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* Loads @len bytes from a temporary file @name, removed again once read;
 * *@path_out (optional) receives the path that messages name. */
static SpsTrace *
load_temp (const char  *name,
           const void  *data,
           gsize        len,
           char       **path_out,
           GError     **error)
{
  g_autofree char *path = write_temp (name, data, len);
  SpsTrace *trace = load_path (path, NULL, SPS_LOAD_FLAGS_NONE, error);

  remove_temp (path);
  if (path_out != NULL)
    *path_out = g_steal_pointer (&path);
  return trace;
}

/* Loads @text twice from one temporary file: with one scanning thread and
 * with two. */
static void
load_both_ways (const GString  *text,
                SpsTrace      **sequential,
                SpsTrace      **parallel)
{
  g_autoptr(GVariant) one = options_new (NULL, 1);
  g_autoptr(GVariant) two = options_new (NULL, 2);
  g_autofree char *path = write_temp ("both.json", text->str, text->len);
  g_autoptr(GError) error = NULL;

  *sequential = load_path (path, one, SPS_LOAD_FLAGS_NONE, &error);
  g_assert_no_error (error);
  *parallel = load_path (path, two, SPS_LOAD_FLAGS_NONE, &error);
  g_assert_no_error (error);
  remove_temp (path);
}

static GBytes *
read_fixture (const char *name)
{
  g_autofree char *path = sps_test_fixture_path (name);
  g_autoptr(GError) error = NULL;
  char *data = NULL;
  gsize len = 0;

  g_file_get_contents (path, &data, &len, &error);
  g_assert_no_error (error);
  return g_bytes_new_take (data, len);
}

static GBytes *
gzip_bytes_at_level (const void *data,
                     gsize       len,
                     int         level)
{
  g_autoptr(GZlibCompressor) compressor = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, level);
  g_autoptr(GByteArray) out = g_byte_array_new ();
  gsize in_pos = 0;

  for (;;)
    {
      g_autoptr(GError) error = NULL;
      guint8 buf[4096];
      gsize bytes_read = 0;
      gsize bytes_written = 0;
      GConverterResult res;

      res = g_converter_convert (G_CONVERTER (compressor),
                                 (const guint8 *) data + in_pos, len - in_pos,
                                 buf, sizeof buf, G_CONVERTER_INPUT_AT_END,
                                 &bytes_read, &bytes_written, &error);
      g_assert_no_error (error);
      in_pos += bytes_read;
      g_byte_array_append (out, buf, (guint) bytes_written);
      if (res == G_CONVERTER_FINISHED)
        break;
    }
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

static GBytes *
gzip_bytes (const void *data,
            gsize       len)
{
  return gzip_bytes_at_level (data, len, 6);
}

/* Phases */

static void
test_phase_complete (void)
{
  g_autoptr(SpsTrace) trace = load_fixture ("chrome-phase-x.json");
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  guint outer;

  g_assert_cmpuint (sps_trace_get_events_read (trace), ==, 5);
  g_assert_cmpuint (slices->n_rows, ==, 5);
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES), ==, 5);
  g_assert_cmpuint (sps_trace_get_processes (trace)->n_rows, ==, 2);
  g_assert_cmpuint (sps_trace_get_threads (trace)->n_rows, ==, 3);
  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 0);

  /* 110.5 µs, 20.25 µs, string-typed "115"/"5", 0.0005 µs → 1 ns,
   * -33000 µs and 1e3 µs */
  assert_slice (trace, "outer", 100000, 50000, 0, NULL);
  assert_slice (trace, "inner", 110500, 20250, 1, "outer");
  assert_slice (trace, "leaf", 115000, 5000, 2, "inner");
  assert_slice (trace, "other", 1, 0, 0, NULL);
  assert_slice (trace, "neg", -33000000, 1000000, 0, NULL);

  outer = slice_named (trace, "outer");
  g_assert_cmpint (slices->self_time[outer], ==, 50000 - 20250);
  g_assert_cmpint (slices->self_time[slice_named (trace, "inner")], ==, 20250 - 5000);
  g_assert_cmpstr (str (trace, slices->category[outer]), ==, "c1");
  g_assert_cmpstr (str (trace, slices->category[slice_named (trace, "leaf")]), ==, "c2");
  g_assert_cmpstr (str (trace, slices->category[slice_named (trace, "neg")]), ==, "");
  g_assert_cmpuint (slices->flags[outer], ==, SPS_SLICE_NONE);
  assert_json (trace, slices->args[outer], "{\"a\":1}");
  assert_json (trace, slices->args[slice_named (trace, "inner")], NULL);

  g_assert_cmpuint (slice_thread (trace, outer), ==, find_thread (trace, 1, 10));
  g_assert_cmpuint (slice_thread (trace, slice_named (trace, "leaf")), ==, find_thread (trace, 1, 10));
  g_assert_cmpuint (slice_thread (trace, slice_named (trace, "other")), ==, find_thread (trace, 1, 11));
  g_assert_cmpuint (slice_thread (trace, slice_named (trace, "neg")), ==, find_thread (trace, 2, 20));
  g_assert_cmpint (slice_track_kind (trace, outer), ==, SPS_TRACK_THREAD_SLICES);

  g_assert_cmpint (sps_trace_get_start_time (trace), ==, -33000000);
  g_assert_cmpint (sps_trace_get_end_time (trace), ==, 150000);
}

static void
test_phase_begin_end (void)
{
  g_autoptr(SpsTrace) trace = load_fixture ("chrome-phase-be.json");
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  guint a, s, open;

  g_assert_cmpuint (sps_trace_get_events_read (trace), ==, 8);
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES), ==, 2);
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SAMPLED_SLICES), ==, 1);
  g_assert_cmpuint (sps_trace_get_threads (trace)->n_rows, ==, 3);

  /* The E at 30 closes B (the innermost measured begin), not the sampled
   * S opened after it; the sampleEvent E at 35 closes S. */
  assert_slice (trace, "A", 10000, 30000, 0, NULL);
  assert_slice (trace, "B", 20000, 10000, 1, "A");
  assert_slice (trace, "S", 22000, 13000, 0, NULL);

  a = slice_named (trace, "A");
  s = slice_named (trace, "S");
  g_assert_cmpuint (slices->flags[a], ==, SPS_SLICE_NONE);
  g_assert_cmpuint (slices->flags[s], ==, SPS_SLICE_SAMPLED);
  g_assert_cmpint (slice_track_kind (trace, a), ==, SPS_TRACK_THREAD_SLICES);
  g_assert_cmpint (slice_track_kind (trace, s), ==, SPS_TRACK_THREAD_SAMPLED_SLICES);
  g_assert_cmpstr (str (trace, slices->category[s]), ==, "cpu,sampleEvent");
  assert_json (trace, slices->args[a], "{\"k\":\"v\"}");

  /* "open" never ends (thread 2); the E of thread 3 has no begin */
  open = slice_named (trace, "open");
  g_assert_cmpuint (slices->flags[open] & SPS_SLICE_UNFINISHED, ==, SPS_SLICE_UNFINISHED);
  g_assert_cmpint (slices->ts[open], ==, 50000);
  g_assert_cmpint (slices->dur[open], ==, sps_trace_get_end_time (trace) - 50000);
  g_assert_cmpuint (slice_thread (trace, open), ==, find_thread (trace, 1, 2));
  g_assert_cmpuint (sps_trace_count_warning (trace, "unmatched_begin"), ==, 1);
  g_assert_cmpuint (sps_trace_count_warning (trace, "unmatched_end"), ==, 1);
}

static void
test_phase_instant (void)
{
  g_autoptr(SpsTrace) trace = load_fixture ("chrome-phase-instant.json");
  const SpsInstantTable *instants = sps_trace_get_instants (trace);
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  struct {
    const char     *name;
    SpsTime         ts;
    SpsTrackKind    kind;
    SpsInstantKind  instant_kind;
    gint64          tid;      /* -1: not a thread track */
  } expected[] = {
    { "t1", 1000, SPS_TRACK_THREAD_INSTANTS, SPS_INSTANT_KIND_INSTANT, 1 },
    { "t2", 2000, SPS_TRACK_THREAD_INSTANTS, SPS_INSTANT_KIND_INSTANT, 1 },
    { "p1", 3000, SPS_TRACK_PROCESS_INSTANTS, SPS_INSTANT_KIND_INSTANT, -1 },
    { "g1", 4000, SPS_TRACK_GLOBAL_INSTANTS, SPS_INSTANT_KIND_INSTANT, -1 },
    { "m1", 5000, SPS_TRACK_THREAD_INSTANTS, SPS_INSTANT_KIND_MARK, 2 },
    { "odd", 6000, SPS_TRACK_THREAD_INSTANTS, SPS_INSTANT_KIND_INSTANT, 1 },
  };

  g_assert_cmpuint (instants->n_rows, ==, 6);
  /* A global instant needs no pid: no process 0 appears for it */
  g_assert_cmpuint (sps_trace_get_processes (trace)->n_rows, ==, 1);
  g_assert_cmpuint (sps_trace_get_threads (trace)->n_rows, ==, 2);

  for (guint k = 0; k < G_N_ELEMENTS (expected); k++)
    {
      guint i = instant_named (trace, expected[k].name);
      guint track = instants->track[i];

      g_assert_cmpint (instants->ts[i], ==, expected[k].ts);
      g_assert_cmpint (tracks->kind[track], ==, expected[k].kind);
      g_assert_cmpint (instants->kind[i], ==, expected[k].instant_kind);
      if (expected[k].tid >= 0)
        g_assert_cmpuint (tracks->thread[track], ==, find_thread (trace, 1, expected[k].tid));
      else
        g_assert_cmpuint (tracks->thread[track], ==, SPS_NO_INDEX);
    }
  g_assert_cmpuint (tracks->process[instants->track[instant_named (trace, "p1")]], ==,
                    find_process (trace, 1));
  g_assert_cmpuint (tracks->process[instants->track[instant_named (trace, "g1")]], ==, SPS_NO_INDEX);
  g_assert_cmpstr (str (trace, instants->category[instant_named (trace, "m1")]), ==, "blink.user_timing");
  g_assert_cmpuint (sps_trace_count_warning (trace, "unknown_instant_scope"), ==, 1);
}

static void
assert_counter (SpsTrace      *trace,
                const char    *name,
                const char    *series,
                guint          n_values,
                const SpsTime *ts,
                const double  *values)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  const SpsCounterTable *counters = sps_trace_get_counters (trace);
  guint found = 0;

  for (guint t = 0; t < tracks->n_rows; t++)
    {
      guint row = 0;

      if (tracks->kind[t] != SPS_TRACK_COUNTER ||
          !g_str_equal (str (trace, tracks->name[t]), name) ||
          !g_str_equal (str (trace, tracks->series[t]), series))
        continue;

      found++;
      g_assert_cmpuint (tracks->process[t], ==, find_process (trace, 5));
      for (guint i = 0; i < counters->n_rows; i++)
        {
          if (counters->track[i] != t)
            continue;
          g_assert_cmpuint (row, <, n_values);
          g_assert_cmpint (counters->ts[i], ==, ts[row]);
          g_assert_cmpfloat (counters->value[i], ==, values[row]);
          row++;
        }
      g_assert_cmpuint (row, ==, n_values);
    }
  g_assert_cmpuint (found, ==, 1);
}

static void
test_phase_counter (void)
{
  g_autoptr(SpsTrace) trace = load_fixture ("chrome-phase-counter.json");
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  guint n_counter_tracks = 0;

  for (guint t = 0; t < tracks->n_rows; t++)
    n_counter_tracks += tracks->kind[t] == SPS_TRACK_COUNTER;

  /* mem/heap, mem/stack, mem[7]/heap and ctr/ok: "abc" and true are
   * skipped with a warning each, "2.5" is a numeric string */
  g_assert_cmpuint (n_counter_tracks, ==, 4);
  g_assert_cmpuint (sps_trace_get_counters (trace)->n_rows, ==, 6);
  assert_counter (trace, "mem", "heap", 2, (SpsTime[]) { 10000, 20000 }, (double[]) { 100, 150.75 });
  assert_counter (trace, "mem", "stack", 2, (SpsTime[]) { 10000, 20000 }, (double[]) { 2.5, 3 });
  assert_counter (trace, "mem[7]", "heap", 1, (SpsTime[]) { 30000 }, (double[]) { 1 });
  assert_counter (trace, "ctr", "ok", 1, (SpsTime[]) { 40000 }, (double[]) { -200 });
  g_assert_cmpuint (sps_trace_count_warning (trace, "counter_string_value"), ==, 1);
  g_assert_cmpuint (sps_trace_count_warning (trace, "counter_invalid_value"), ==, 1);
  g_assert_cmpuint (sps_trace_get_threads (trace)->n_rows, ==, 0);
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* The flows of @trace as "from->to" slice names, sorted */
static char *
flow_pairs (SpsTrace *trace)
{
  const SpsFlowTable *flows = sps_trace_get_flows (trace);
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  g_autoptr(GPtrArray) pairs = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < flows->n_rows; i++)
    g_ptr_array_add (pairs, g_strdup_printf ("%s->%s",
                                             str (trace, slices->name[flows->from_slice[i]]),
                                             str (trace, slices->name[flows->to_slice[i]])));
  g_ptr_array_sort (pairs, compare_strings);
  g_ptr_array_add (pairs, NULL);
  return g_strjoinv (" ", (char **) pairs->pdata);
}

static void
test_phase_flow (void)
{
  g_autoptr(SpsTrace) trace = load_fixture ("chrome-phase-flow.json");
  const SpsFlowTable *flows = sps_trace_get_flows (trace);
  g_autofree char *pairs = NULL;

  /* id 0x1: s in send, t in hop (enclosing), f at 35 binds the next slice
   * of its thread, recv at 40. id 2: s in send, f with bp "e" binds recv,
   * which encloses 45. */
  g_assert_cmpuint (flows->n_rows, ==, 3);
  pairs = flow_pairs (trace);
  g_assert_cmpstr (pairs, ==, "hop->recv send->hop send->recv");
  for (guint i = 0; i < flows->n_rows; i++)
    {
      g_assert_cmpstr (str (trace, flows->name[i]), ==, "msg");
      g_assert_cmpstr (str (trace, flows->category[i]), ==, "flow");
    }
  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 0);
}

static void
test_phase_flow_v2 (void)
{
  g_autoptr(SpsTrace) trace = load_fixture ("chrome-phase-flow-v2.json");
  g_autofree char *pairs = flow_pairs (trace);

  /* bind_id 0xa: A out, B in+out, C (a B/E slice) in; D has no direction */
  g_assert_cmpuint (sps_trace_get_flows (trace)->n_rows, ==, 2);
  g_assert_cmpstr (pairs, ==, "A->B B->C");
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES), ==, 4);
  g_assert_cmpuint (sps_trace_count_warning (trace, "flow_without_direction"), ==, 1);
}

static void
test_phase_metadata (void)
{
  g_autoptr(SpsTrace) trace = load_fixture ("chrome-phase-metadata.json");
  const SpsProcessTable *processes = sps_trace_get_processes (trace);
  const SpsThreadTable *threads = sps_trace_get_threads (trace);
  guint browser, spans, main_thread, worker;

  g_assert_cmpuint (sps_trace_get_events_read (trace), ==, 8);
  g_assert_cmpuint (sps_trace_get_metadata_events (trace), ==, 7);
  g_assert_cmpuint (processes->n_rows, ==, 2);
  g_assert_cmpuint (threads->n_rows, ==, 2);

  browser = find_process (trace, 1);
  g_assert_cmpstr (str (trace, processes->name[browser]), ==, "Browser");
  g_assert_cmpint (processes->sort_index[browser], ==, -5);
  g_assert_cmpstr (str (trace, processes->labels[browser]), ==, "a,b");

  /* The string pid "Spans" becomes pid -1, named after the string until
   * its process_name arrives; the string tid "worker" becomes tid -1. */
  spans = find_process (trace, -1);
  g_assert_cmpstr (str (trace, processes->name[spans]), ==, "Spans renamed");
  g_assert_cmpint (processes->sort_index[spans], ==, G_MAXINT32);

  main_thread = find_thread (trace, 1, 7);
  g_assert_cmpstr (str (trace, threads->name[main_thread]), ==, "Main");
  g_assert_cmpint (threads->sort_index[main_thread], ==, 3);
  worker = find_thread (trace, -1, -1);
  g_assert_cmpstr (str (trace, threads->name[worker]), ==, "worker");
  g_assert_cmpuint (slice_thread (trace, slice_named (trace, "work")), ==, worker);
}

static void
test_phase_async (void)
{
  g_autoptr(SpsTrace) trace = load_fixture ("chrome-phase-async.json");
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  const SpsInstantTable *instants = sps_trace_get_instants (trace);
  guint load, mark, n_local = 0;

  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_ASYNC), ==, 4);
  g_assert_cmpuint (slices->n_rows, ==, 4);
  assert_slice (trace, "load", 10000, 10000, 0, NULL);
  assert_slice (trace, "parse", 12000, 3000, 1, "load");

  load = slice_named (trace, "load");
  g_assert_cmpuint (slices->flags[load], ==, SPS_SLICE_ASYNC);
  g_assert_cmpint (tracks->kind[slices->track[load]], ==, SPS_TRACK_ASYNC);
  g_assert_cmpuint (tracks->process[slices->track[load]], ==, find_process (trace, 1));

  /* id2.local: the same id in two processes is two trees */
  for (guint i = 0; i < slices->n_rows; i++)
    {
      if (!g_str_equal (str (trace, slices->name[i]), "local"))
        continue;
      n_local++;
      g_assert_cmpuint (slices->depth[i], ==, 0);
      g_assert_cmpint (slices->dur[i], ==, 5000);
      if (slices->ts[i] == 30000)
        g_assert_cmpuint (tracks->process[slices->track[i]], ==, find_process (trace, 1));
      else
        {
          g_assert_cmpint (slices->ts[i], ==, 31000);
          g_assert_cmpuint (tracks->process[slices->track[i]], ==, find_process (trace, 2));
        }
    }
  g_assert_cmpuint (n_local, ==, 2);

  g_assert_cmpuint (instants->n_rows, ==, 1);
  mark = instant_named (trace, "mark");
  g_assert_cmpint (instants->kind[mark], ==, SPS_INSTANT_KIND_ASYNC);
  g_assert_cmpint (instants->ts[mark], ==, 13000);
  g_assert_cmpuint (sps_trace_get_threads (trace)->n_rows, ==, 0);
  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 0);
}

static void
test_phase_legacy_async (void)
{
  g_autoptr(SpsTrace) trace = load_fixture ("chrome-phase-legacy-async.json");
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  guint op = G_MAXUINT;
  guint step = G_MAXUINT;

  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_ASYNC), ==, 1);
  for (guint i = 0; i < slices->n_rows; i++)
    {
      if ((slices->flags[i] & SPS_SLICE_STEP) == 0)
        op = i;
      else if (g_str_equal (str (trace, slices->name[i]), "step1"))
        step = i;
    }
  g_assert_cmpuint (op, !=, G_MAXUINT);
  g_assert_cmpstr (str (trace, slices->name[op]), ==, "op");
  g_assert_cmpint (slices->ts[op], ==, 0);
  g_assert_cmpint (slices->dur[op], ==, 10000);
  g_assert_cmpuint (slices->flags[op] & SPS_SLICE_ASYNC, ==, SPS_SLICE_ASYNC);

  /* A T step starts the sub-slice it names, at 4 µs */
  g_assert_cmpuint (step, !=, G_MAXUINT);
  g_assert_cmpint (slices->ts[step], ==, 4000);
  g_assert_cmpint (slices->dur[step], ==, 6000);
}

static void
test_phase_object (void)
{
  g_autoptr(SpsTrace) trace = load_fixture ("chrome-phase-object.json");
  const SpsObjectTable *objects = sps_trace_get_objects (trace);

  g_assert_cmpuint (objects->n_rows, ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      g_assert_cmpint (objects->ts[i], ==, (SpsTime) (i + 1) * 1000);
      g_assert_cmpint (objects->phase[i], ==, (int) i);
      g_assert_cmpstr (str (trace, objects->name[i]), ==, "Layer");
      g_assert_cmpuint (objects->key[i], ==, objects->key[0]);
      g_assert_cmpuint (objects->process[i], ==, find_process (trace, 1));
    }
  assert_json (trace, objects->args[0], NULL);
  assert_json (trace, objects->args[1], "{\"snapshot\":{\"w\":10}}");
}

/* The frame names of a callsite, root first, joined by ">" */
static char *
stack_of (SpsTrace *trace,
          guint32   callsite)
{
  const SpsCallsiteTable *callsites = sps_trace_get_callsites (trace);
  const SpsFrameTable *frames = sps_trace_get_frames (trace);
  GString *out = g_string_new (NULL);

  while (callsite != SPS_NO_INDEX)
    {
      const char *name = str (trace, frames->name[callsites->frame[callsite]]);

      g_string_prepend (out, name);
      callsite = callsites->parent[callsite];
      if (callsite != SPS_NO_INDEX)
        g_string_prepend_c (out, '>');
    }
  return g_string_free (out, FALSE);
}

static void
test_phase_sample (void)
{
  g_autoptr(SpsTrace) trace = load_fixture ("chrome-phase-sample.json");
  const SpsSampleTable *samples = sps_trace_get_samples (trace);
  struct {
    SpsTime        ts;
    const char    *name;
    const char    *stack;
    const char    *raw;
    double         weight;      /* NAN: absent */
    SpsWeightUnit  unit;
    guint          flags;
    gint64         tid;
  } expected[] = {
    /* "leaf" is defined twice: the last definition (work) wins */
    { 100000, "cpu", "main>work", "leaf", 250, SPS_WEIGHT_UNIT_US, SPS_SAMPLE_HAS_WEIGHT, 11 },
    /* integer sf 3 is key "3"; a zero weight is valid; dur ignored */
    { 200000, "cpu", "main>work>three", "3", 0, SPS_WEIGHT_UNIT_MS, SPS_SAMPLE_HAS_WEIGHT, 11 },
    /* missing id; a negative weight keeps its unit (only the estimate
     * is unusable) */
    { 300000, "cpu", "cpu", "missing", -1, SPS_WEIGHT_UNIT_US,
      SPS_SAMPLE_HAS_WEIGHT | SPS_SAMPLE_UNRESOLVED, 11 },
    /* cycle; unsupported unit */
    { 400000, "cpu", "cpu", "cyc1", 5, SPS_WEIGHT_UNIT_NONE,
      SPS_SAMPLE_HAS_WEIGHT | SPS_SAMPLE_UNRESOLVED, 11 },
    /* inline stack, root first */
    { 500000, "cpu", "main>run>hot", NULL, NAN, SPS_WEIGHT_UNIT_NONE, SPS_SAMPLE_NONE, 11 },
    /* missing ancestor */
    { 700000, "cpu", "cpu", "orphan", 1.5, SPS_WEIGHT_UNIT_S,
      SPS_SAMPLE_HAS_WEIGHT | SPS_SAMPLE_UNRESOLVED, 11 },
    /* invalid frame (no name) */
    { 800000, "cpu", "cpu", "bad", NAN, SPS_WEIGHT_UNIT_NONE, SPS_SAMPLE_UNRESOLVED, 11 },
    /* no sf, no stack: the name is a one-frame stack */
    { 600000, "idle", "idle", NULL, NAN, SPS_WEIGHT_UNIT_NONE, SPS_SAMPLE_NONE, 12 },
  };

  g_assert_cmpuint (samples->n_rows, ==, 8);
  g_assert_cmpuint (sps_trace_count_warning (trace, "unresolved_stack"), ==, 4);

  for (guint k = 0; k < G_N_ELEMENTS (expected); k++)
    {
      g_autofree char *stack = NULL;
      guint i;

      for (i = 0; i < samples->n_rows && samples->ts[i] != expected[k].ts; i++)
        ;
      g_assert_cmpuint (i, <, samples->n_rows);

      stack = stack_of (trace, samples->callsite[i]);
      g_assert_cmpstr (str (trace, sps_sample_table_get_event_name (samples, i)), ==, expected[k].name);
      g_assert_cmpstr (stack, ==, expected[k].stack);
      /* The navigation name is the stack's leaf */
      g_assert_true (g_str_has_suffix (stack, str (trace, samples->name[i])));
      g_assert_cmpstr (str (trace, sps_sample_table_get_raw_stack_ref (samples, i)), ==, expected[k].raw ? expected[k].raw : "");
      if (isnan (expected[k].weight))
        g_assert_true (isnan (sps_sample_table_get_weight (samples, i)));
      else
        g_assert_cmpfloat (sps_sample_table_get_weight (samples, i), ==, expected[k].weight);
      g_assert_cmpint (sps_sample_table_get_weight_unit (samples, i), ==, expected[k].unit);
      g_assert_cmpuint (sps_sample_table_get_flags (samples, i), ==, expected[k].flags);
      g_assert_cmpuint (samples->thread[i], ==, find_thread (trace, 7, expected[k].tid));
    }
}

/* Containers */

static void
test_form_object (void)
{
  g_autoptr(SpsTrace) trace = load_fixture ("chrome-object-form.json");
  /* A top-level "samples" array is read as samples, not kept as metadata */
  const char *keys[] = { "otherData", "metadata", "schemaVersion", "traceName" };
  const char *values[] = { "{\"version\":\"1.0\"}", "{\"clock-domain\":\"LINUX\"}", "1", "\"t\"" };

  /* systemTraceEvents (an array here) counts with traceEvents */
  g_assert_cmpuint (sps_trace_get_events_read (trace), ==, 2);
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES), ==, 2);
  assert_slice (trace, "sys", 1000, 1000, 0, NULL);
  assert_slice (trace, "a", 2000, 2000, 0, NULL);
  g_assert_cmpstr (sps_trace_get_display_time_unit (trace), ==, "ns");

  g_assert_cmpuint (sps_trace_get_n_metadata (trace), ==, G_N_ELEMENTS (keys));
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      SpsArgsRef value;

      g_assert_cmpstr (sps_trace_get_metadata (trace, i, &value), ==, keys[i]);
      assert_json (trace, value, values[i]);
    }
}

static void
test_form_system_trace_string (void)
{
  g_autoptr(SpsTrace) trace = load_fixture ("chrome-system-trace-string.json");
  SpsArgsRef value;

  /* A string systemTraceEvents is not events: it is kept as metadata */
  g_assert_cmpuint (sps_trace_get_events_read (trace), ==, 1);
  g_assert_cmpuint (sps_trace_get_n_metadata (trace), ==, 1);
  g_assert_cmpstr (sps_trace_get_metadata (trace, 0, &value), ==, "systemTraceEvents");
  assert_json (trace, value, "\"# tracer: nop\\n\"");
}

/* gzip */

static void
assert_phase_x (SpsTrace *trace)
{
  g_assert_cmpuint (sps_trace_get_events_read (trace), ==, 5);
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES), ==, 5);
  assert_slice (trace, "outer", 100000, 50000, 0, NULL);
  assert_slice (trace, "inner", 110500, 20250, 1, "outer");
  assert_slice (trace, "neg", -33000000, 1000000, 0, NULL);
  assert_json (trace, sps_trace_get_slices (trace)->args[slice_named (trace, "outer")], "{\"a\":1}");
  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 0);
}

static void
test_gzip_single (void)
{
  g_autoptr(GBytes) plain = read_fixture ("chrome-phase-x.json");
  g_autoptr(GBytes) packed = gzip_bytes (g_bytes_get_data (plain, NULL), g_bytes_get_size (plain));
  g_autoptr(GError) error = NULL;
  /* Detected by magic, not by name */
  g_autoptr(SpsTrace) trace = load_temp ("phase-x.trace", g_bytes_get_data (packed, NULL),
                                         g_bytes_get_size (packed), NULL, &error);

  g_assert_no_error (error);
  assert_phase_x (trace);
}

static void
test_gzip_members (void)
{
  g_autoptr(GBytes) plain = read_fixture ("chrome-phase-x.json");
  const char *data = g_bytes_get_data (plain, NULL);
  gsize len = g_bytes_get_size (plain);
  g_autoptr(GByteArray) joined = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) trace = NULL;

  /* Three members, cut in the middle of events */
  for (guint k = 0; k < 3; k++)
    {
      gsize from = len * k / 3;
      gsize to = len * (k + 1) / 3;
      g_autoptr(GBytes) member = gzip_bytes (data + from, to - from);

      g_byte_array_append (joined, g_bytes_get_data (member, NULL), (guint) g_bytes_get_size (member));
    }
  trace = load_temp ("members.json.gz", joined->data, joined->len, NULL, &error);
  g_assert_no_error (error);
  assert_phase_x (trace);
}

static void
test_gzip_truncated (void)
{
  g_autoptr(GBytes) plain = read_fixture ("chrome-phase-x.json");
  g_autoptr(GBytes) packed = gzip_bytes (g_bytes_get_data (plain, NULL), g_bytes_get_size (plain));
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) trace = NULL;

  /* Keep the compressed bytes up to the middle: the text ends inside an
   * event, which is dropped, and the file is still usable */
  trace = load_temp ("cut.json.gz", g_bytes_get_data (packed, NULL), g_bytes_get_size (packed) / 2,
                     NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sps_trace_count_warning (trace, "truncated"), ==, 1);
  g_assert_cmpuint (sps_trace_get_events_read (trace), <, 5);
}

static void
test_gzip_cut_between_events (void)
{
  static const char text[] =
    "[{\"ph\":\"X\",\"name\":\"a\",\"ts\":1,\"dur\":1,\"pid\":1,\"tid\":1},\n"
    "{\"ph\":\"X\",\"name\":\"b\",\"ts\":2,\"dur\":1,\"pid\":1,\"tid\":1},\n"
    "{\"ph\":\"X\",\"name\":\"c\",\"ts\":3,\"dur\":1,\"pid\":1,\"tid\":1}]\n";
  /* Level 0 stores the text as is, after the 10-byte gzip header and a
   * 5-byte block header: cut there, the text ends right after b's "},\n" */
  g_autoptr(GBytes) packed = gzip_bytes_at_level (text, strlen (text), 0);
  const guint8 *data = g_bytes_get_data (packed, NULL);
  gsize keep = (gsize) (strstr (text, "{\"ph\":\"X\",\"name\":\"c\"") - text);
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  const char *message = NULL;

  g_assert_cmpmem (data + 15, keep, text, keep);
  trace = load_temp ("cut-between.json.gz", data, 15 + keep, NULL, &error);
  g_assert_no_error (error);

  /* Nothing in the text says it was cut, but the compressed data does */
  g_assert_cmpuint (sps_trace_get_events_read (trace), ==, 2);
  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 1);
  g_assert_cmpstr (sps_trace_get_warning (trace, 0, NULL, &message), ==, "truncated");
  g_assert_true (g_str_has_suffix (message, "the compressed data ends early; every complete event was kept"));
}

static void
test_gzip_corrupt (void)
{
  g_autoptr(GBytes) plain = read_fixture ("chrome-phase-x.json");
  g_autoptr(GBytes) packed = gzip_bytes (g_bytes_get_data (plain, NULL), g_bytes_get_size (plain));
  g_autofree guint8 *bytes = g_memdup2 (g_bytes_get_data (packed, NULL), g_bytes_get_size (packed));
  gsize len = g_bytes_get_size (packed);
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) trace = NULL;

  /* A bad stored-block header: 0xff is not a valid deflate block type */
  memset (bytes + 10, 0xff, len - 18);
  trace = load_temp ("corrupt.json.gz", bytes, len, &path, &error);
  g_assert_null (trace);
  g_assert_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_MALFORMED);
  g_assert_true (g_str_has_prefix (error->message, path));
  g_assert_nonnull (strstr (error->message, "corrupt gzip data"));
}

/* Time */

static void
test_time_exact (void)
{
  struct {
    const char            *text;
    guint                  time_exp;
    SpsChromeNumberResult  result;
    SpsTime                value;
  } cases[] = {
    { "1712195495519689.047", 3, SPS_CHROME_NUMBER_OK, G_GINT64_CONSTANT (1712195495519689047) },
    { "0.0005", 3, SPS_CHROME_NUMBER_OK, 1 },
    { "0.00049999", 3, SPS_CHROME_NUMBER_OK, 0 },
    { "-0.0005", 3, SPS_CHROME_NUMBER_OK, -1 },
    { "-33000", 3, SPS_CHROME_NUMBER_OK, -33000000 },
    { "1e3", 3, SPS_CHROME_NUMBER_OK, 1000000 },
    { "1.5e3", 3, SPS_CHROME_NUMBER_OK, 1500000 },
    { "1E-3", 3, SPS_CHROME_NUMBER_OK, 1 },
    { "2.5e-4", 3, SPS_CHROME_NUMBER_OK, 0 },
    { "5e-4", 3, SPS_CHROME_NUMBER_OK, 1 },
    { "123.4565", 3, SPS_CHROME_NUMBER_OK, 123457 },
    { "0", 3, SPS_CHROME_NUMBER_OK, 0 },
    { "-0", 3, SPS_CHROME_NUMBER_OK, 0 },
    { "0e400", 3, SPS_CHROME_NUMBER_OK, 0 },
    { "1e-400", 3, SPS_CHROME_NUMBER_OK, 0 },
    { "9223372036854775.807", 3, SPS_CHROME_NUMBER_OK, G_MAXINT64 },
    { "9223372036854775.808", 3, SPS_CHROME_NUMBER_OVERFLOW, 0 },
    { "9223372036854776", 3, SPS_CHROME_NUMBER_OVERFLOW, 0 },
    { "1e400", 3, SPS_CHROME_NUMBER_OVERFLOW, 0 },
    { "123", 0, SPS_CHROME_NUMBER_OK, 123 },
    { "123.5", 0, SPS_CHROME_NUMBER_OK, 124 },
    { "-123.5", 0, SPS_CHROME_NUMBER_OK, -124 },
    { "1.5e3", 0, SPS_CHROME_NUMBER_OK, 1500 },
    /* Milliseconds (10^6 ns) and seconds (10^9 ns), by hand: 1.5 ms is
     * 1,500,000 ns; 123.4567894 ms is 123,456,789.4 ns, so 123,456,789;
     * 0.0000015 ms is 1.5 ns, away from zero 2; G_MAXINT64 ns is
     * 9,223,372,036,854.775807 ms and 9,223,372,036.854775807 s, and one
     * more digit's worth overflows */
    { "1.5", 6, SPS_CHROME_NUMBER_OK, 1500000 },
    { "123.4567894", 6, SPS_CHROME_NUMBER_OK, 123456789 },
    { "123.4567895", 6, SPS_CHROME_NUMBER_OK, 123456790 },
    { "-0.0000015", 6, SPS_CHROME_NUMBER_OK, -2 },
    { "9223372036854.775807", 6, SPS_CHROME_NUMBER_OK, G_MAXINT64 },
    { "9223372036854.775808", 6, SPS_CHROME_NUMBER_OVERFLOW, 0 },
    { "9223372036855", 6, SPS_CHROME_NUMBER_OVERFLOW, 0 },
    { "1.5", 9, SPS_CHROME_NUMBER_OK, 1500000000 },
    { "0.000000001", 9, SPS_CHROME_NUMBER_OK, 1 },
    { "0.0000000005", 9, SPS_CHROME_NUMBER_OK, 1 },
    { "0.00000000049", 9, SPS_CHROME_NUMBER_OK, 0 },
    { "1e-9", 9, SPS_CHROME_NUMBER_OK, 1 },
    { "2.5e-3", 9, SPS_CHROME_NUMBER_OK, 2500000 },
    { "-86400", 9, SPS_CHROME_NUMBER_OK, G_GINT64_CONSTANT (-86400000000000) },
    { "999999999", 9, SPS_CHROME_NUMBER_OK, G_GINT64_CONSTANT (999999999000000000) },
    { "1000000000", 9, SPS_CHROME_NUMBER_OK, G_GINT64_CONSTANT (1000000000000000000) },
    { "9223372036.854775807", 9, SPS_CHROME_NUMBER_OK, G_MAXINT64 },
    { "9223372036.854775808", 9, SPS_CHROME_NUMBER_OVERFLOW, 0 },
    { "9223372037", 9, SPS_CHROME_NUMBER_OVERFLOW, 0 },
    { "9223372036854775807", 0, SPS_CHROME_NUMBER_OK, G_MAXINT64 },
    { "abc", 3, SPS_CHROME_NUMBER_INVALID, 0 },
    { "", 3, SPS_CHROME_NUMBER_INVALID, 0 },
    /* strtod's decimal forms, which numbers written as strings may take */
    { "1.", 3, SPS_CHROME_NUMBER_OK, 1000 },
    { ".5", 3, SPS_CHROME_NUMBER_OK, 500 },
    { "+10.5", 3, SPS_CHROME_NUMBER_OK, 10500 },
    { "-.25", 3, SPS_CHROME_NUMBER_OK, -250 },
    { "01.23", 3, SPS_CHROME_NUMBER_OK, 1230 },
    { ".", 3, SPS_CHROME_NUMBER_INVALID, 0 },
    { "+", 3, SPS_CHROME_NUMBER_INVALID, 0 },
    { "+-1", 3, SPS_CHROME_NUMBER_INVALID, 0 },
    { "0x10", 3, SPS_CHROME_NUMBER_INVALID, 0 },
    { "0.2e-1", 3, SPS_CHROME_NUMBER_OK, 20 },
    { "1.692108548132154501e+15", 3, SPS_CHROME_NUMBER_OK, G_GINT64_CONSTANT (1692108548132154501) },
    { "-1692108548132154.501", 3, SPS_CHROME_NUMBER_OK, G_GINT64_CONSTANT (-1692108548132154501) },
    { "-1.692108548132154500E+15", 3, SPS_CHROME_NUMBER_OK, G_GINT64_CONSTANT (-1692108548132154500) },
    { "123e4!", 3, SPS_CHROME_NUMBER_INVALID, 0 },
    { "1234!", 3, SPS_CHROME_NUMBER_INVALID, 0 },
    { "inf", 3, SPS_CHROME_NUMBER_INVALID, 0 },
    { "--1", 3, SPS_CHROME_NUMBER_INVALID, 0 },
    { "1e", 3, SPS_CHROME_NUMBER_INVALID, 0 },
    { "12abc", 3, SPS_CHROME_NUMBER_INVALID, 0 },
    { " 1", 3, SPS_CHROME_NUMBER_INVALID, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      SpsTime value = 0;
      SpsChromeNumberResult r;

      g_test_message ("%s (10^%u ns)", cases[i].text, cases[i].time_exp);
      r = sps_chrome_parse_time (cases[i].text, strlen (cases[i].text), cases[i].time_exp, &value);
      g_assert_cmpint (r, ==, cases[i].result);
      if (r == SPS_CHROME_NUMBER_OK)
        g_assert_cmpint (value, ==, cases[i].value);
    }
}

/* The scanner converts the usual times in the pass that reads them; it
 * must agree with the general conversion everywhere. */
static void
test_time_fast_path (void)
{
  const char *numbers[] = {
    "0", "7", "12345678", "123456789", "123456789012", "251378904087.590",
    "99999999.999", "12345678.5", "12345678.05", "00000000123",
    "123456781234567", "1234567812345678", "123456781234567.125",
    "1.0005", "1e3", "-5", "18446744073709551616", "1712195495519689.047",
    "1.5", "0.000000001", "999999999", "999999999.999999999", "1000000000",
    "123456789012.345678", "9223372036.854775807", "9223372036.854775808",
  };
  const guint time_exps[] = { 0, 3, 6, 9 };

  for (guint i = 0; i < G_N_ELEMENTS (numbers); i++)
    {
      for (guint u = 0; u < G_N_ELEMENTS (time_exps); u++)
        {
          guint time_exp = time_exps[u];
          g_autofree char *text = g_strdup_printf ("[{\"ts\":%s,\"dur\":\"%s\"}]", numbers[i], numbers[i]);
          SpsChromeScanner scanner;
          SpsChromeEvent ev;
          SpsChromeNumberResult expected;
          SpsTime value = 0;
          char open_char;

          g_test_message ("%s (10^%u ns)", numbers[i], time_exp);
          expected = sps_chrome_parse_time (numbers[i], strlen (numbers[i]), time_exp, &value);
          sps_chrome_scanner_init (&scanner, text, strlen (text), time_exp);
          g_assert_cmpint (sps_chrome_scanner_begin_document (&scanner, &open_char), ==, SPS_CHROME_SCAN_OK);
          if (expected == SPS_CHROME_NUMBER_OVERFLOW)
            {
              /* The event's error: the scan goes on */
              g_assert_cmpint (sps_chrome_scanner_next_event (&scanner, &ev), ==, SPS_CHROME_SCAN_OK);
              g_assert_cmpint (ev.ts_state, ==, SPS_CHROME_TIME_OUT_OF_RANGE);
              g_assert_cmpint (ev.dur_state, ==, SPS_CHROME_TIME_OUT_OF_RANGE);
            }
          else
            {
              g_assert_cmpint (expected, ==, SPS_CHROME_NUMBER_OK);
              g_assert_cmpint (sps_chrome_scanner_next_event (&scanner, &ev), ==, SPS_CHROME_SCAN_OK);
              g_assert_cmpint (ev.ts_state, ==, SPS_CHROME_TIME_OK);
              g_assert_cmpint (ev.ts, ==, value);
              g_assert_cmpint (ev.dur_state, ==, SPS_CHROME_TIME_OK);
              g_assert_cmpint (ev.dur, ==, value);
            }
          sps_chrome_scanner_clear (&scanner);
        }
    }
}

static void
test_time_ns_option (void)
{
  g_autoptr(GVariant) options = options_new ("ns", 0);
  g_autoptr(SpsTrace) trace = load_fixture_with ("chrome-phase-x.json", options);

  /* The same file read as ns: 110.5 → 111 and 20.25 → 20 (rounded half
   * away from zero), 0.0005 → 0 */
  assert_slice (trace, "outer", 100, 50, 0, NULL);
  assert_slice (trace, "inner", 111, 20, 1, "outer");
  assert_slice (trace, "leaf", 115, 5, 2, "inner");
  assert_slice (trace, "other", 0, 0, 0, NULL);
  assert_slice (trace, "neg", -33000, 1000, 0, NULL);
}

/* The same file in milliseconds and in seconds: every number times 10^6
 * or 10^9 ns, exactly (by hand: 110.5 ms is 110,500,000 ns, 0.0005 s is
 * 500,000 ns, 1e3 s is 10^12 ns) */
static void
test_time_ms_s_options (void)
{
  g_autoptr(GVariant) ms = options_new ("ms", 0);
  g_autoptr(GVariant) s = options_new ("s", 0);
  g_autoptr(SpsTrace) in_ms = load_fixture_with ("chrome-phase-x.json", ms);
  g_autoptr(SpsTrace) in_s = load_fixture_with ("chrome-phase-x.json", s);

  assert_slice (in_ms, "outer", 100000000, 50000000, 0, NULL);
  assert_slice (in_ms, "inner", 110500000, 20250000, 1, "outer");
  assert_slice (in_ms, "leaf", 115000000, 5000000, 2, "inner");
  assert_slice (in_ms, "other", 500, 0, 0, NULL);
  assert_slice (in_ms, "neg", G_GINT64_CONSTANT (-33000000000), 1000000000, 0, NULL);

  assert_slice (in_s, "outer", G_GINT64_CONSTANT (100000000000), G_GINT64_CONSTANT (50000000000), 0, NULL);
  assert_slice (in_s, "inner", G_GINT64_CONSTANT (110500000000), G_GINT64_CONSTANT (20250000000), 1, "outer");
  assert_slice (in_s, "leaf", G_GINT64_CONSTANT (115000000000), G_GINT64_CONSTANT (5000000000), 2, "inner");
  assert_slice (in_s, "other", 500000, 0, 0, NULL);
  assert_slice (in_s, "neg", G_GINT64_CONSTANT (-33000000000000), G_GINT64_CONSTANT (1000000000000), 0, NULL);
}

/* A unit the importer does not know is refused, never read as µs */
static void
test_time_unknown_unit (void)
{
  g_autoptr(GVariant) options = options_new ("min", 0);
  g_autofree char *path = sps_test_fixture_path ("chrome-phase-x.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) trace = load_path (path, options, SPS_LOAD_FLAGS_NONE, &error);

  g_assert_null (trace);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "“min”"));
}

/* Messy but valid files */

/* The two X events "a" (1–2 µs) and "b" (2–3 µs) of the messy fixtures,
 * read without a warning */
static void
assert_slices_a_b (SpsTrace *trace)
{
  g_assert_cmpuint (sps_trace_get_events_read (trace), ==, 2);
  assert_slice (trace, "a", 1000, 1000, 0, NULL);
  assert_slice (trace, "b", 2000, 1000, 0, NULL);
  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 0);
}

static void
test_messy_missing_bracket (void)
{
  g_autoptr(SpsTrace) trace = load_fixture ("chrome-missing-bracket.json");

  assert_slices_a_b (trace);
}

/* What was read without a single warning */
static void
assert_clean (SpsTrace *trace,
              guint64   events_read,
              guint     slices)
{
  g_assert_cmpuint (sps_trace_get_events_read (trace), ==, events_read);
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES), ==, slices);
  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 0);
}

static void
test_messy_trailing_comma_eof (void)
{
  g_autoptr(SpsTrace) trace = load_fixture ("chrome-trailing-comma-eof.json");

  assert_clean (trace, 2, 2);
}

static void
test_messy_trailing_commas (void)
{
  g_autoptr(SpsTrace) trace = load_fixture ("chrome-trailing-commas.json");

  assert_slices_a_b (trace);
  assert_json (trace, sps_trace_get_slices (trace)->args[slice_named (trace, "b")],
               "{\"x\":[1,2]}");
  g_assert_cmpstr (sps_trace_get_display_time_unit (trace), ==, "ms");
}

static void
test_messy_empty_events (void)
{
  g_autoptr(SpsTrace) trace = load_fixture ("chrome-empty-events.json");

  /* {} events count as read and are skipped without a warning */
  assert_clean (trace, 4, 1);
}

static void
test_messy_string_numbers (void)
{
  g_autoptr(SpsTrace) trace = load_fixture ("chrome-string-numbers.json");

  /* "-1" as tid is the integer -1; "12abc" is not a time: the event is
   * dropped with a bad_number warning */
  g_assert_cmpuint (sps_trace_get_events_read (trace), ==, 3);
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES), ==, 2);
  assert_slice (trace, "a", 456500, 1000000, 0, NULL);
  assert_slice (trace, "b", G_GINT64_CONSTANT (1712195495519689047), 1, 0, NULL);
  g_assert_cmpuint (slice_thread (trace, slice_named (trace, "a")), ==, find_thread (trace, 12, -1));
  g_assert_cmpuint (sps_trace_count_warning (trace, "bad_number"), ==, 1);
}

static void
test_messy_bad_strings (void)
{
  g_autoptr(SpsTrace) trace = load_fixture ("chrome-bad-strings.json");
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  const char *expected[] = {
    "nul\xef\xbf\xbdx",
    "bad\xef\xbf\xbd" "byte",
    "caf\xc3\xa9 \xf0\x9f\x98\x80",
    "lone\xef\xbf\xbd",
    "na\xc3\xafve \"q\" \\ /",
  };

  g_assert_cmpuint (slices->n_rows, ==, 5);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      guint s = slice_named (trace, expected[i]);

      g_assert_cmpint (slices->ts[s], ==, (SpsTime) (i + 1) * 1000);
    }
  /* \u0000, the raw 0xff byte and the lone surrogate; args are not
   * decoded, so the 0xfe there is not counted */
  g_assert_cmpuint (sps_trace_count_warning (trace, "invalid_utf8"), ==, 3);
}

static void
test_messy_bad_text_values (void)
{
  /* A raw 0xff byte in a counter's id, which names its track, and in a
   * top-level key, which names a metadata entry */
  static const char text[] =
    "{\"traceEvents\":[{\"ph\":\"C\",\"name\":\"mem\",\"id\":\"a\xff" "b\",\"pid\":1,\"ts\":1,"
    "\"args\":{\"v\":1}}],\"k\xff\":1}";
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) trace = load_temp ("bad-text.json", text, strlen (text), NULL, &error);
  const SpsTrackTable *tracks;

  g_assert_no_error (error);
  tracks = sps_trace_get_tracks (trace);
  g_assert_cmpuint (tracks->n_rows, ==, 1);
  g_assert_cmpstr (str (trace, tracks->name[0]), ==, "mem[a\xef\xbf\xbd" "b]");
  g_assert_cmpuint (sps_trace_get_n_metadata (trace), ==, 1);
  g_assert_cmpstr (sps_trace_get_metadata (trace, 0, NULL), ==, "k\xef\xbf\xbd");
  g_assert_cmpuint (sps_trace_count_warning (trace, "invalid_utf8"), ==, 2);
}

static void
test_messy_unknown_phase (void)
{
  g_autoptr(SpsTrace) trace = load_fixture ("chrome-unknown-phase.json");
  g_autofree char *path = sps_test_fixture_path ("chrome-unknown-phase.json");
  g_autofree char *expected = g_strdup_printf ("%s:2:1 (byte 2): unknown phase 'Z'; event skipped", path);
  guint64 count;
  const char *message = NULL;

  g_assert_cmpuint (sps_trace_get_events_read (trace), ==, 5);
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES), ==, 1);
  g_assert_cmpuint (sps_trace_count_warning (trace, "unknown_phase"), ==, 1);
  g_assert_cmpuint (sps_trace_count_warning (trace, "unsupported_phase"), ==, 1);
  g_assert_cmpuint (sps_trace_count_warning (trace, "missing_phase"), ==, 1);
  g_assert_cmpuint (sps_trace_count_warning (trace, "missing_timestamp"), ==, 1);
  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 4);

  for (guint i = 0; i < sps_trace_get_n_warnings (trace); i++)
    {
      if (g_str_equal (sps_trace_get_warning (trace, i, &count, &message), "unknown_phase"))
        break;
    }
  g_assert_cmpstr (message, ==, expected);
}

/* Truncated files */

static void
assert_truncated (const char *name,
                  guint64     events,
                  const char *where,
                  gsize       file_size)
{
  g_autoptr(SpsTrace) trace = load_fixture (name);
  g_autofree char *path = sps_test_fixture_path (name);
  g_autofree char *expected = NULL;
  const char *message = NULL;
  guint64 count = 0;

  expected = g_strdup_printf ("%s:%s: the file ends (at byte %" G_GSIZE_FORMAT ") inside the value "
                              "that starts here; the complete events before it were kept",
                              path, where, file_size);
  g_assert_cmpuint (sps_trace_get_events_read (trace), ==, events);
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES), ==, events);
  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 1);
  g_assert_cmpstr (sps_trace_get_warning (trace, 0, &count, &message), ==, "truncated");
  g_assert_cmpuint (count, ==, 1);
  g_assert_cmpstr (message, ==, expected);
}

static void
test_truncated_object (void)
{
  /* Lines of 16 + 1, 53 + 1 and 53 + 1 bytes come before the cut event */
  assert_truncated ("chrome-truncated.json", 2, "4:1 (byte 125)", 156);
}

static void
test_truncated_array (void)
{
  /* The second event starts after 54 + 1 bytes and one space */
  assert_truncated ("chrome-truncated-array.json", 1, "2:2 (byte 56)", 129);
}

/* Hostile files */

/* Args nested deeper than 1000 levels are kept as their text (in the
 * string "args_too_deep", so that nothing parses the depth again), with a
 * warning where they start; the event and everything else load. */
static void
test_error_deep_nesting (void)
{
  g_autofree char *path = sps_test_fixture_path ("chrome-deep-nesting.json");
  g_autofree char *contents = NULL;
  g_autofree char *expected = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(JsonNode) args = NULL;
  const SpsSliceTable *slices;
  const char *first = NULL;
  const char *raw;
  const char *text;
  guint64 count = 0;
  guint deep;

  trace = load_path (path, NULL, SPS_LOAD_FLAGS_NONE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES), ==, 2);
  assert_slice (trace, "ok", 1000, 1000, 0, NULL);

  /* Line 3 starts at byte 17 + 55 = 72 and its args at column 63 */
  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 1);
  g_assert_cmpstr (sps_trace_get_warning (trace, 0, &count, &first), ==, "args_too_deep");
  g_assert_cmpuint (count, ==, 1);
  expected = g_strdup_printf ("%s:3:63 (byte 134): args nested deeper than 1000 levels; "
                              "they are kept as text", path);
  g_assert_cmpstr (first, ==, expected);

  /* The args' text, byte for byte: from the first '[' of line 3 to the
   * last ']' before the event's '}' */
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  raw = contents + 134;
  slices = sps_trace_get_slices (trace);
  deep = sps_test_find_slice (trace, "deep", 0);
  args = sps_trace_parse_args (trace, slices->args[deep], &error);
  g_assert_no_error (error);
  text = json_object_get_string_member (json_node_get_object (args), "args_too_deep");
  g_assert_cmpuint (strlen (text), ==, strchr (raw, '}') - raw);
  g_assert_true (strncmp (text, raw, strlen (text)) == 0);
}

static void
test_error_deep_but_legal (void)
{
  g_autoptr(GString) text = g_string_new ("[{\"name\":\"d\",\"ph\":\"X\",\"ts\":1,\"dur\":1,\"pid\":1,\"tid\":1,\"args\":{\"v\":");
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) trace = NULL;

  /* array 1, event 2, args 3, then 997 arrays: level 1000 exactly */
  for (guint i = 0; i < 997; i++)
    g_string_append_c (text, '[');
  for (guint i = 0; i < 997; i++)
    g_string_append_c (text, ']');
  g_string_append (text, "}}]");

  trace = load_temp ("deep.json", text->str, text->len, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES), ==, 1);
}

static void
test_error_nan (void)
{
  g_autofree char *message = load_fixture_error ("chrome-nan.json", SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_MALFORMED);

  g_assert_cmpstr (message, ==, "FILE:3:27 (byte 82): NaN is not a valid JSON value");
}

static void
test_error_infinity (void)
{
  g_autofree char *message = load_fixture_error ("chrome-infinity.json", SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_MALFORMED);

  g_assert_cmpstr (message, ==, "FILE:1:50 (byte 49): -Infinity is not a valid JSON number");
}

static void
test_error_garbage (void)
{
  g_autofree char *message = load_fixture_error ("chrome-garbage.json", SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_MALFORMED);

  g_assert_cmpstr (message, ==, "FILE:3:29 (byte 84): expected ',' or '}' but found '\"'");
}

static void
test_error_trailing_garbage (void)
{
  g_autofree char *message = load_fixture_error ("chrome-trailing-garbage.json",
                                                 SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_MALFORMED);

  g_assert_cmpstr (message, ==, "FILE:2:1 (byte 55): unexpected data after the end of the trace");
}

/* A time whose ns do not fit 63 bits is its event's error: the event is
 * dropped with a warning, the others are kept (issue 14) */
static void
test_ts_overflow (void)
{
  g_autoptr(SpsTrace) trace = load_fixture ("chrome-ts-overflow.json");
  static const char text[] =
    "[{\"name\":\"a\",\"ph\":\"X\",\"ts\":1,\"dur\":2,\"pid\":1,\"tid\":1},"
    "{\"name\":\"far\",\"ph\":\"X\",\"ts\":9223372036854776,\"dur\":1,\"pid\":1,\"tid\":1},"
    "{\"name\":\"long\",\"ph\":\"X\",\"ts\":3,\"dur\":1e300,\"pid\":1,\"tid\":1},"
    "{\"name\":\"i\",\"ph\":\"i\",\"ts\":\"-9223372036854776\",\"pid\":1,\"tid\":1},"
    "{\"name\":\"b\",\"ph\":\"X\",\"ts\":5,\"dur\":2,\"pid\":1,\"tid\":1}]";
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) mixed = NULL;
  const SpsSliceTable *slices;

  /* The fixture's only event is 9,223,372,036,854,776 µs: one ns past
   * the largest time */
  g_assert_cmpuint (sps_trace_get_n_slices (trace), ==, 0);
  g_assert_cmpuint (sps_trace_count_warning (trace, "time_out_of_range"), ==, 1);

  /* far (ts), long (dur) and i (ts as a string) are dropped; a and b,
   * before and after them, are kept exactly */
  mixed = load_temp ("ts-overflow.json", text, sizeof text - 1, NULL, &error);
  g_assert_no_error (error);
  slices = sps_trace_get_slices (mixed);
  g_assert_cmpuint (slices->n_rows, ==, 2);
  g_assert_cmpstr (str (mixed, slices->name[0]), ==, "a");
  g_assert_cmpint (slices->ts[0], ==, 1000);
  g_assert_cmpint (slices->dur[0], ==, 2000);
  g_assert_cmpstr (str (mixed, slices->name[1]), ==, "b");
  g_assert_cmpint (slices->ts[1], ==, 5000);
  g_assert_cmpuint (sps_trace_get_instants (mixed)->n_rows, ==, 0);
  g_assert_cmpuint (sps_trace_count_warning (mixed, "time_out_of_range"), ==, 3);
}

static void
test_error_huge_string (void)
{
  const char head[] = "[{\"name\":\"";
  const char tail[] = "\"}]";
  const gsize hole = (gsize) 300 * 1024 * 1024;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("spanscope-chrome-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "huge.json", NULL);
  g_autoptr(SpsTrace) trace = NULL;
  FILE *fp;

  /* A 300 MiB string, mostly a hole in a sparse file (NUL bytes) */
  g_assert_no_error (error);
  fp = g_fopen (path, "wb");
  g_assert_nonnull (fp);
  g_assert_cmpuint (fwrite (head, 1, strlen (head), fp), ==, strlen (head));
  g_assert_cmpint (fseek (fp, (long) hole, SEEK_CUR), ==, 0);
  g_assert_cmpuint (fwrite (tail, 1, strlen (tail), fp), ==, strlen (tail));
  g_assert_cmpint (fclose (fp), ==, 0);

  trace = load_path (path, NULL, SPS_LOAD_FLAGS_NONE, &error);
  g_assert_null (trace);
  g_assert_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_TOO_LARGE);
  g_assert_true (g_str_has_prefix (error->message, path));
  g_assert_cmpstr (error->message + strlen (path), ==, ":1:10 (byte 9): string longer than 256 MiB");

  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* Cancellation */

static SpsImporter *
get_importer (void)
{
  g_autoptr(GPtrArray) importers = NULL;

  importers = sps_plugin_engine_create_importers (sps_plugin_engine_get_default ());
  for (guint i = 0; i < importers->len; i++)
    {
      SpsImporter *importer = g_ptr_array_index (importers, i);

      if (g_str_equal (sps_importer_get_name (importer), "chrome-json"))
        return g_object_ref (importer);
    }
  g_assert_not_reached ();
  return NULL;
}

/* A valid trace of @n X events, about 80 bytes each */
static GString *
make_trace (guint n)
{
  GString *text = g_string_new ("[\n");

  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "{\"name\":\"e%u\",\"ph\":\"X\",\"ts\":%u,\"dur\":1,\"pid\":1,\"tid\":%u},\n",
                            i % 100, i, i % 4);
  g_string_append (text, "{}]\n");
  return text;
}

static void
run_cancelled (const char *name,
               GBytes     *contents,
               guint       max_events)
{
  g_autoptr(SpsImporter) importer = get_importer ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(SpsProgress) progress = sps_progress_new (cancellable);
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autofree char *path = write_temp (name, g_bytes_get_data (contents, NULL), g_bytes_get_size (contents));
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) partial = NULL;
  guint n;
  gboolean ok;

  /* Cancelled before it starts: the importer notices at its first check
   * (after the first MiB of events, or in the decompressor). The public
   * wrapper would refuse to start, so the vfunc is called directly. */
  g_cancellable_cancel (cancellable);
  ok = SPS_IMPORTER_GET_IFACE (importer)->load (importer, file, NULL, builder, progress, &error);
  g_assert_false (ok);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  /* What was read before stays valid in the builder */
  partial = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);
  n = sps_trace_count_slices (partial, SPS_TRACK_THREAD_SLICES);
  g_assert_cmpuint (n, <=, max_events);
  if (max_events > 0)
    g_assert_cmpuint (n, >, 0);
  remove_temp (path);
}

static void
test_cancel (void)
{
  g_autoptr(GString) text = make_trace (40000);
  g_autoptr(GBytes) plain = g_bytes_new (text->str, text->len);
  g_autoptr(GBytes) packed = gzip_bytes (text->str, text->len);
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpuint (text->len, >, 2 << 20);
  run_cancelled ("cancel.json", plain, 39999);
  run_cancelled ("cancel.json.gz", packed, 0);

  /* And through the loader */
  path = write_temp ("cancel.json", text->str, text->len);
  file = g_file_new_for_path (path);
  g_cancellable_cancel (cancellable);
  trace = sps_trace_load (file, NULL, NULL, SPS_LOAD_FLAGS_KEEP_PARTIAL, NULL, cancellable, &error);
  g_assert_null (trace);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  remove_temp (path);
}

/* Probe */

static guint
probe (SpsImporter *importer,
       const void  *data,
       gsize        len)
{
  g_autoptr(GBytes) head = g_bytes_new (data, MIN (len, 4096));
  g_autoptr(GFile) file = g_file_new_for_path ("/nonexistent/probe.json");

  return sps_importer_probe (importer, file, head);
}

static void
test_probe (void)
{
  g_autoptr(SpsImporter) importer = get_importer ();
  g_autoptr(GBytes) plain = read_fixture ("chrome-phase-x.json");
  g_autoptr(GBytes) packed = gzip_bytes (g_bytes_get_data (plain, NULL), g_bytes_get_size (plain));
  const char *object = "\xef\xbb\xbf {\"otherData\":{},\"traceEvents\":[]}";

  g_assert_cmpuint (probe (importer, g_bytes_get_data (plain, NULL), g_bytes_get_size (plain)), ==, 90);
  g_assert_cmpuint (probe (importer, g_bytes_get_data (packed, NULL), g_bytes_get_size (packed)), ==, 90);
  g_assert_cmpuint (probe (importer, object, strlen (object)), ==, 90);
  g_assert_cmpuint (probe (importer, "{\"a\":1}", 7), ==, 10);
  g_assert_cmpuint (probe (importer, "[1,2]", 5), ==, 5);
  g_assert_cmpuint (probe (importer, "[]", 2), ==, 20);
  g_assert_cmpuint (probe (importer, "hello", 5), ==, 0);
  g_assert_cmpuint (probe (importer, "\x1f\x8b garbage", 10), ==, 5);
}

/* Parallel reading gives exactly the sequential result */

typedef struct
{
  GArray *offsets;
  GArray *ts;
} Collected;

static void
collect_event (const SpsChromeEvent *event,
               gpointer              user_data)
{
  Collected *c = user_data;
  SpsTime ts = event->ts_state == SPS_CHROME_TIME_OK ? event->ts : -1;

  g_array_append_val (c->offsets, event->offset);
  g_array_append_val (c->ts, ts);
}

static gboolean
keep_going (gsize    offset,
            gpointer user_data)
{
  return TRUE;
}

static SpsChromeScanResult
read_all (const char  *text,
          guint        n_threads,
          gsize        chunk_size,
          Collected   *c,
          gsize       *end_offset,
          char       **error_message)
{
  SpsChromeScanner scanner;
  SpsChromeScanResult r;
  char open_char;

  c->offsets = g_array_new (FALSE, FALSE, sizeof (gsize));
  c->ts = g_array_new (FALSE, FALSE, sizeof (SpsTime));
  sps_chrome_scanner_init (&scanner, text, strlen (text), 3);
  g_assert_cmpint (sps_chrome_scanner_begin_document (&scanner, &open_char), ==, SPS_CHROME_SCAN_OK);
  r = sps_chrome_read_events_full (&scanner, n_threads, chunk_size, collect_event, keep_going, c);
  *end_offset = sps_chrome_scanner_get_offset (&scanner);
  *error_message = g_strdup (scanner.error_message);
  sps_chrome_scanner_clear (&scanner);
  return r;
}

static void
check_parallel_equivalence (const char *text)
{
  Collected seq;
  gsize seq_end;
  g_autofree char *seq_error = NULL;
  SpsChromeScanResult seq_r = read_all (text, 1, 1 << 20, &seq, &seq_end, &seq_error);

  for (gsize chunk = 1; chunk <= 64; chunk++)
    {
      Collected par;
      gsize par_end;
      g_autofree char *par_error = NULL;
      SpsChromeScanResult par_r = read_all (text, 2, chunk, &par, &par_end, &par_error);

      g_assert_cmpint (par_r, ==, seq_r);
      g_assert_cmpuint (par_end, ==, seq_end);
      g_assert_cmpstr (par_error, ==, seq_error);
      g_assert_cmpuint (par.offsets->len, ==, seq.offsets->len);
      g_assert_cmpmem (par.offsets->data, par.offsets->len * sizeof (gsize),
                       seq.offsets->data, seq.offsets->len * sizeof (gsize));
      g_assert_cmpmem (par.ts->data, par.ts->len * sizeof (SpsTime),
                       seq.ts->data, seq.ts->len * sizeof (SpsTime));
      g_array_unref (par.offsets);
      g_array_unref (par.ts);
    }
  g_array_unref (seq.offsets);
  g_array_unref (seq.ts);
}

static void
test_parallel_chunks (void)
{
  /* Strings that look like event boundaries, arrays of objects in args
   * (boundaries one level too deep), elements that are not objects,
   * whitespace around separators: every chunk size from 1 to 64 bytes
   * gives the sequential result. */
  const char *well_formed =
    "[{\"name\":\"a\",\"ph\":\"X\",\"ts\":1},{\"name\":\"},{\\\"x\",\"ph\":\"X\",\"ts\":2} ,\n"
    " {\"name\":\"b\",\"ph\":\"X\",\"ts\":3,\"args\":{\"l\":[{\"x\":1},{\"y\":2}, {\"z\":3}]}},"
    "7,{\"ts\":4,\"s\":\"} , {\"},[{\"ts\":99},{\"ts\":98}],{\"ts\":5},"
    "{\"ts\":6,\"args\":\"}},{\"}, {\"ts\":7}  ]  ";
  const char *unterminated =
    "[{\"ts\":1},{\"ts\":2,\"args\":{\"a\":\"},{\"}},{\"ts\":3},{\"ts\":4},{\"ts\":5},{\"ts\":6},";
  const char *cut = "[{\"ts\":1},{\"ts\":2},{\"ts\":3},{\"ts\":4},{\"ts\":5},{\"ts\":6},{\"ts\":7,\"args\":{\"a\":[1,";
  const char *bad =
    "[{\"ts\":1},{\"ts\":2},{\"ts\":3},{\"ts\":4},{\"ts\":5},{\"ts\":6},{\"ts\":NaN},{\"ts\":8},{\"ts\":9}]";

  check_parallel_equivalence (well_formed);
  check_parallel_equivalence (unterminated);
  check_parallel_equivalence (cut);
  check_parallel_equivalence (bad);
}

static void
test_parallel_import (void)
{
  g_autoptr(GString) text = g_string_new ("{\"traceEvents\":[\n");
  g_autoptr(SpsTrace) a = NULL;
  g_autoptr(SpsTrace) b = NULL;
  const SpsSliceTable *sa, *sb;
  const SpsCounterTable *ca, *cb;

  /* More than 8 MiB so that two threads are used, with args holding
   * strings and arrays that mimic event boundaries */
  for (guint i = 0; text->len < (9 << 20); i++)
    {
      g_string_append_printf (text,
                              "{\"name\":\"n%u\",\"cat\":\"c\",\"ph\":\"X\",\"ts\":%u.%03u,\"dur\":%u,"
                              "\"pid\":%u,\"tid\":%u,\"args\":{\"s\":\"},{\\\"ph\\\":\\\"X\\\"}\","
                              "\"l\":[{\"a\":1},{\"b\":2}]}},\n",
                              i % 50, i, i % 1000, i % 7, i % 3, i % 5);
      if (i % 10 == 0)
        g_string_append_printf (text, "{\"name\":\"c\",\"ph\":\"C\",\"ts\":%u,\"pid\":1,\"args\":{\"v\":%u}},\n",
                                i, i % 13);
    }
  g_string_append (text, "{}],\"stackFrames\":{\"1\":{\"name\":\"x\"}}}\n");

  load_both_ways (text, &a, &b);

  g_assert_cmpuint (sps_trace_get_events_read (a), ==, sps_trace_get_events_read (b));
  g_assert_cmpuint (sps_trace_get_events_read (a), >, 50000);
  sa = sps_trace_get_slices (a);
  sb = sps_trace_get_slices (b);
  g_assert_cmpuint (sa->n_rows, ==, sb->n_rows);
  g_assert_cmpmem (sa->ts, sa->n_rows * sizeof (SpsTime), sb->ts, sb->n_rows * sizeof (SpsTime));
  g_assert_cmpmem (sa->dur, sa->n_rows * sizeof (SpsTime), sb->dur, sb->n_rows * sizeof (SpsTime));
  g_assert_cmpmem (sa->name, sa->n_rows * sizeof (guint32), sb->name, sb->n_rows * sizeof (guint32));
  g_assert_cmpmem (sa->track, sa->n_rows * sizeof (guint32), sb->track, sb->n_rows * sizeof (guint32));
  g_assert_cmpmem (sa->args, sa->n_rows * sizeof (SpsArgsRef), sb->args, sb->n_rows * sizeof (SpsArgsRef));
  ca = sps_trace_get_counters (a);
  cb = sps_trace_get_counters (b);
  g_assert_cmpuint (ca->n_rows, ==, cb->n_rows);
  g_assert_cmpmem (ca->value, ca->n_rows * sizeof (double), cb->value, cb->n_rows * sizeof (double));
  g_assert_cmpuint (sps_trace_get_n_warnings (a), ==, 0);
  g_assert_cmpuint (sps_trace_get_n_warnings (b), ==, 0);
}

static void
test_parallel_tiny_events (void)
{
  g_autoptr(GString) text = g_string_new ("[");
  g_autoptr(SpsTrace) a = NULL;
  g_autoptr(SpsTrace) b = NULL;

  /* 3 bytes per event: chunks reach their record cap and the reader
   * falls back to re-scanning on the calling thread */
  for (guint i = 0; i < 3000000; i++)
    g_string_append (text, "{},");
  g_string_append (text, "{\"name\":\"last\",\"ph\":\"X\",\"ts\":1,\"dur\":1,\"pid\":1,\"tid\":1}]");

  load_both_ways (text, &a, &b);
  g_assert_cmpuint (sps_trace_get_events_read (a), ==, 3000001);
  g_assert_cmpuint (sps_trace_get_events_read (b), ==, 3000001);
  g_assert_cmpuint (sps_trace_count_slices (b, SPS_TRACK_THREAD_SLICES), ==, 1);
  g_assert_cmpuint (sps_trace_get_n_warnings (b), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/plugins/chrome-json/phase/complete", test_phase_complete);
  g_test_add_func ("/plugins/chrome-json/phase/begin-end", test_phase_begin_end);
  g_test_add_func ("/plugins/chrome-json/phase/instant", test_phase_instant);
  g_test_add_func ("/plugins/chrome-json/phase/counter", test_phase_counter);
  g_test_add_func ("/plugins/chrome-json/phase/flow", test_phase_flow);
  g_test_add_func ("/plugins/chrome-json/phase/flow-v2", test_phase_flow_v2);
  g_test_add_func ("/plugins/chrome-json/phase/metadata", test_phase_metadata);
  g_test_add_func ("/plugins/chrome-json/phase/async", test_phase_async);
  g_test_add_func ("/plugins/chrome-json/phase/legacy-async", test_phase_legacy_async);
  g_test_add_func ("/plugins/chrome-json/phase/object", test_phase_object);
  g_test_add_func ("/plugins/chrome-json/phase/sample", test_phase_sample);
  g_test_add_func ("/plugins/chrome-json/form/object", test_form_object);
  g_test_add_func ("/plugins/chrome-json/form/system-trace-string", test_form_system_trace_string);
  g_test_add_func ("/plugins/chrome-json/gzip/single", test_gzip_single);
  g_test_add_func ("/plugins/chrome-json/gzip/members", test_gzip_members);
  g_test_add_func ("/plugins/chrome-json/gzip/truncated", test_gzip_truncated);
  g_test_add_func ("/plugins/chrome-json/gzip/cut-between-events", test_gzip_cut_between_events);
  g_test_add_func ("/plugins/chrome-json/gzip/corrupt", test_gzip_corrupt);
  g_test_add_func ("/plugins/chrome-json/time/exact", test_time_exact);
  g_test_add_func ("/plugins/chrome-json/time/fast-path", test_time_fast_path);
  g_test_add_func ("/plugins/chrome-json/time/ns-option", test_time_ns_option);
  g_test_add_func ("/plugins/chrome-json/time/ms-s-options", test_time_ms_s_options);
  g_test_add_func ("/plugins/chrome-json/time/unknown-unit", test_time_unknown_unit);
  g_test_add_func ("/plugins/chrome-json/messy/missing-bracket", test_messy_missing_bracket);
  g_test_add_func ("/plugins/chrome-json/messy/trailing-comma-eof", test_messy_trailing_comma_eof);
  g_test_add_func ("/plugins/chrome-json/messy/trailing-commas", test_messy_trailing_commas);
  g_test_add_func ("/plugins/chrome-json/messy/empty-events", test_messy_empty_events);
  g_test_add_func ("/plugins/chrome-json/messy/string-numbers", test_messy_string_numbers);
  g_test_add_func ("/plugins/chrome-json/messy/bad-strings", test_messy_bad_strings);
  g_test_add_func ("/plugins/chrome-json/messy/bad-text-values", test_messy_bad_text_values);
  g_test_add_func ("/plugins/chrome-json/messy/unknown-phase", test_messy_unknown_phase);
  g_test_add_func ("/plugins/chrome-json/truncated/object", test_truncated_object);
  g_test_add_func ("/plugins/chrome-json/truncated/array", test_truncated_array);
  g_test_add_func ("/plugins/chrome-json/error/deep-nesting", test_error_deep_nesting);
  g_test_add_func ("/plugins/chrome-json/error/deep-but-legal", test_error_deep_but_legal);
  g_test_add_func ("/plugins/chrome-json/error/nan", test_error_nan);
  g_test_add_func ("/plugins/chrome-json/error/infinity", test_error_infinity);
  g_test_add_func ("/plugins/chrome-json/error/garbage", test_error_garbage);
  g_test_add_func ("/plugins/chrome-json/error/trailing-garbage", test_error_trailing_garbage);
  g_test_add_func ("/plugins/chrome-json/ts-overflow", test_ts_overflow);
  g_test_add_func ("/plugins/chrome-json/error/huge-string", test_error_huge_string);
  g_test_add_func ("/plugins/chrome-json/cancel", test_cancel);
  g_test_add_func ("/plugins/chrome-json/probe", test_probe);
  g_test_add_func ("/plugins/chrome-json/parallel/chunks", test_parallel_chunks);
  g_test_add_func ("/plugins/chrome-json/parallel/import", test_parallel_import);
  g_test_add_func ("/plugins/chrome-json/parallel/tiny-events", test_parallel_tiny_events);

  return g_test_run ();
}
