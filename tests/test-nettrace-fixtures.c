/* test-nettrace-fixtures.c: real .nettrace files (shared/fixtures/nettrace)
 * open with the facts their README states
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-nettrace-fixtures"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <spanscope-core.h>

#include "sps-test-util.h"

static char *scratch_dir;

static char *
fixture_path (const char *name)
{
  return sps_test_shared_fixture_path ("nettrace", name);
}

static guint32
get_u32 (const guint8 *p)
{
  return (guint32) p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16 | (guint32) p[3] << 24;
}

static guint16
get_u16 (const guint8 *p)
{
  return (guint16) (p[0] | p[1] << 8);
}

/* The only member of a .zip (deflated or stored) into the scratch folder:
 * the end-of-central-directory record gives the central directory, whose
 * first entry gives the sizes and the local header. */
static char *
unzip_fixture (const char *name)
{
  g_autofree char *zip = fixture_path (name);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GByteArray) out = NULL;
  g_autofree char *member = NULL;
  g_autofree char *path = NULL;
  const guint8 *d;
  gsize len;
  gsize eocd;
  gsize central;
  gsize local;
  gsize data;
  guint32 compressed;
  guint32 size;
  guint16 method;

  if (zip == NULL)
    return NULL;

  g_file_get_contents (zip, &contents, &len, &error);
  g_assert_no_error (error);
  d = (const guint8 *) contents;

  g_assert_cmpuint (len, >=, 22);
  for (eocd = len - 22; eocd > 0 && get_u32 (d + eocd) != 0x06054b50; eocd--)
    ;
  g_assert_cmphex (get_u32 (d + eocd), ==, 0x06054b50);
  central = get_u32 (d + eocd + 16);
  g_assert_cmphex (get_u32 (d + central), ==, 0x02014b50);
  method = get_u16 (d + central + 10);
  compressed = get_u32 (d + central + 20);
  size = get_u32 (d + central + 24);
  member = g_strndup ((const char *) d + central + 46, get_u16 (d + central + 28));
  local = get_u32 (d + central + 42);
  g_assert_cmphex (get_u32 (d + local), ==, 0x04034b50);
  data = local + 30 + get_u16 (d + local + 26) + get_u16 (d + local + 28);
  g_assert_cmpuint (data + compressed, <=, len);

  if (method == 0)
    {
      out = g_byte_array_new ();
      g_byte_array_append (out, d + data, compressed);
    }
  else
    {
      g_autoptr(GZlibDecompressor) decompressor = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_RAW);
      g_autoptr(GInputStream) raw = g_memory_input_stream_new_from_data (d + data, compressed, NULL);
      g_autoptr(GInputStream) stream = g_converter_input_stream_new (raw, G_CONVERTER (decompressor));
      guint8 buf[65536];
      gssize n;

      g_assert_cmpuint (method, ==, 8);
      out = g_byte_array_sized_new (size);
      while ((n = g_input_stream_read (stream, buf, sizeof buf, NULL, &error)) > 0)
        g_byte_array_append (out, buf, (guint) n);
      g_assert_no_error (error);
    }
  g_assert_cmpuint (out->len, ==, size);

  path = g_build_filename (scratch_dir, member, NULL);
  g_file_set_contents (path, (const char *) out->data, out->len, &error);
  g_assert_no_error (error);

  return g_steal_pointer (&path);
}

static SpsTrace *
load (const char  *path,
      GError     **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  return sps_trace_load (file, sps_plugin_engine_get_default (), NULL, SPS_LOAD_FLAGS_NONE, NULL, NULL, error);
}

static SpsTrace *
load_ok (const char *path)
{
  g_autoptr(GError) error = NULL;
  SpsTrace *trace = load (path, &error);

  g_assert_no_error (error);
  g_assert_nonnull (trace);
  g_assert_cmpstr (sps_trace_get_format (trace), ==, "nettrace");

  return trace;
}

static char *
stack_string (SpsTrace *trace,
              guint32   callsite)
{
  const SpsCallsiteTable *callsites = sps_trace_get_callsites (trace);
  const SpsFrameTable *frames = sps_trace_get_frames (trace);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint32 c = callsite; c != SPS_NO_INDEX; c = callsites->parent[c])
    g_ptr_array_add (names, (gpointer) sps_trace_get_string (trace, frames->name[callsites->frame[c]]));
  for (guint i = names->len; i > 0; i--)
    {
      g_string_append (text, g_ptr_array_index (names, i - 1));
      if (i > 1)
        g_string_append_c (text, ';');
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}

static const char *
leaf_name (SpsTrace *trace,
           guint32   callsite)
{
  return sps_trace_get_string (trace, sps_trace_get_frames (trace)->name[sps_trace_get_callsites (trace)->frame[callsite]]);
}

static const char *
root_name (SpsTrace *trace,
           guint32   callsite)
{
  const SpsCallsiteTable *callsites = sps_trace_get_callsites (trace);

  while (callsites->parent[callsite] != SPS_NO_INDEX)
    callsite = callsites->parent[callsite];

  return leaf_name (trace, callsite);
}

static guint
count_threads_with_samples (SpsTrace *trace)
{
  const SpsSampleTable *samples = sps_trace_get_samples (trace);
  g_autoptr(GHashTable) threads = g_hash_table_new (NULL, NULL);

  for (guint r = 0; r < samples->n_rows; r++)
    g_hash_table_add (threads, GUINT_TO_POINTER (samples->thread[r] + 1));

  return g_hash_table_size (threads);
}

/* Share of sampled frames whose name is an address, in per mille */
static guint
unresolved_per_mille (SpsTrace *trace)
{
  const SpsSampleTable *samples = sps_trace_get_samples (trace);
  const SpsCallsiteTable *callsites = sps_trace_get_callsites (trace);
  const SpsFrameTable *frames = sps_trace_get_frames (trace);
  guint64 total = 0;
  guint64 unresolved = 0;

  for (guint r = 0; r < samples->n_rows; r++)
    for (guint32 c = samples->callsite[r]; c != SPS_NO_INDEX; c = callsites->parent[c])
      {
        total++;
        unresolved += g_str_has_prefix (sps_trace_get_string (trace, frames->name[callsites->frame[c]]), "0x");
      }

  return total > 0 ? (guint) (unresolved * 1000 / total) : 0;
}

/* README: 5,564 samples on thread 1411342, 0.001–8.174 s, 100 % resolved;
 * the distinct stacks are exactly those of the pyroscope oracle. */
static void
test_pyroscope_golden (void)
{
  g_autofree char *path = fixture_path ("pyroscope__dotnet-5.0-SampleProfiler-single-thread.golden.nettrace");
  g_autofree char *oracle_path = fixture_path ("pyroscope__dotnet-5.0-SampleProfiler-single-thread.expected.txt");
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GHashTable) got = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) want = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *oracle = NULL;
  g_auto(GStrv) lines = NULL;
  const SpsSampleTable *samples;
  GHashTableIter iter;
  gpointer key;

  if (path == NULL || oracle_path == NULL)
    return;

  trace = load_ok (path);
  samples = sps_trace_get_samples (trace);
  g_assert_cmpuint (samples->n_rows, ==, 5564);
  g_assert_cmpuint (sps_trace_get_events_read (trace), ==, 27951);
  g_assert_cmpuint (sps_trace_get_metadata_events (trace), ==, 16);
  g_assert_cmpuint (count_threads_with_samples (trace), ==, 1);
  g_assert_cmpint (sps_trace_get_threads (trace)->tid[samples->thread[0]], ==, 1411342);
  g_assert_cmpint (samples->ts[0] / 1000000, ==, 0);
  g_assert_cmpint (samples->ts[samples->n_rows - 1] / 1000000, ==, 8174);
  g_assert_cmpuint (unresolved_per_mille (trace), ==, 0);

  for (guint r = 0; r < samples->n_rows; r++)
    g_hash_table_add (got, stack_string (trace, samples->callsite[r]));

  g_assert_true (g_file_get_contents (oracle_path, &oracle, NULL, NULL));
  lines = g_strsplit (oracle, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *space = strrchr (lines[i], ' ');

      if (space != NULL)
        g_hash_table_add (want, g_strndup (lines[i], (gsize) (space - lines[i])));
    }

  g_assert_cmpuint (g_hash_table_size (want), ==, 4);
  g_assert_cmpuint (g_hash_table_size (got), ==, g_hash_table_size (want));
  g_hash_table_iter_init (&iter, want);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_assert_true (g_hash_table_contains (got, key));
}

/* README: 35,161 samples on 13 threads, no rundown: only 6.4 % of frames
 * resolve; 0.018–38.580 s at a 3,124,099 Hz clock. */
static void
test_perfview_objver4 (void)
{
  g_autofree char *path = unzip_fixture ("perfview__eventpipe-dotnetcore3.0-win-x64-objver4.nettrace.zip");
  g_autoptr(SpsTrace) trace = NULL;
  const SpsSampleTable *samples;
  guint per_mille;

  if (path == NULL)
    return;

  trace = load_ok (path);
  samples = sps_trace_get_samples (trace);
  g_assert_cmpuint (samples->n_rows, ==, 35161);
  g_assert_cmpuint (sps_trace_get_events_read (trace), ==, 105540);
  g_assert_cmpuint (count_threads_with_samples (trace), ==, 13);
  /* The first event kept, a GC/SuspendEEStart at 17.9124 ms (the first
   * sample is at 18 ms) */
  g_assert_cmpint (sps_trace_get_start_time (trace) / 1000000, ==, 17);
  g_assert_cmpint (sps_trace_get_end_time (trace) / 1000000, ==, 38580);
  /* 93.6 % unresolved, kept as addresses */
  per_mille = unresolved_per_mille (trace);
  g_assert_cmpuint (per_mille, >=, 930);
  g_assert_cmpuint (per_mille, <=, 940);
}

/* README: 7,423 Managed samples on thread 1464011; leaves FindByte 5,004
 * and InnerLoop 2,419; root Program.Main. */
static void
test_perfview_only_managed (void)
{
  g_autofree char *path = unzip_fixture ("perfview__only_managed_samples.nettrace.zip");
  g_autoptr(SpsTrace) trace = NULL;
  const SpsSampleTable *samples;
  guint find_byte = 0;
  guint inner_loop = 0;

  if (path == NULL)
    return;

  trace = load_ok (path);
  samples = sps_trace_get_samples (trace);
  g_assert_cmpuint (samples->n_rows, ==, 7423);
  g_assert_cmpuint (count_threads_with_samples (trace), ==, 1);
  g_assert_cmpint (sps_trace_get_threads (trace)->tid[samples->thread[0]], ==, 1464011);
  for (guint r = 0; r < samples->n_rows; r++)
    {
      const char *leaf = leaf_name (trace, samples->callsite[r]);

      g_assert_cmpstr (sps_trace_get_string (trace, sps_sample_table_get_event_name (samples, r)), ==, "Managed");
      g_assert_true (g_str_has_suffix (root_name (trace, samples->callsite[r]),
                                       "!NoNativeStacks.Program.Main(class System.String[])"));
      find_byte += g_str_has_suffix (leaf, "!NoNativeStacks.Program.FindByte(value class "
                                           "System.Numerics.Vector`1<unsigned int8>&)");
      inner_loop += strstr (leaf, "!NoNativeStacks.Program.InnerLoop(int32&,") != NULL;
    }
  g_assert_cmpuint (find_byte, ==, 5004);
  g_assert_cmpuint (inner_loop, ==, 2419);
}

/* README: 32-bit ARM (4-byte IPs); 947 samples on 3 threads (751 / 131 /
 * 65); 99.3 % resolve; main thread's root Program.Main in the .ni image. */
static void
test_perfview_voicememo (void)
{
  g_autofree char *path = unzip_fixture ("perfview__VoiceMemo.23092.nettrace.zip");
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GHashTable) per_thread = g_hash_table_new (NULL, NULL);
  const SpsSampleTable *samples;
  guint counts[3] = { 0, };
  guint n = 0;
  guint main_roots = 0;
  GHashTableIter iter;
  gpointer value;

  if (path == NULL)
    return;

  trace = load_ok (path);
  samples = sps_trace_get_samples (trace);
  g_assert_cmpuint (samples->n_rows, ==, 947);
  g_assert_cmpuint (sps_trace_get_events_read (trace), ==, 108450);
  for (guint r = 0; r < samples->n_rows; r++)
    {
      gpointer key = GUINT_TO_POINTER (samples->thread[r] + 1);

      g_hash_table_insert (per_thread, key,
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (per_thread, key)) + 1));
      main_roots += g_str_equal (root_name (trace, samples->callsite[r]),
                                 "VoiceMemo.Tizen.Wearable.ni!VoiceMemo.Tizen.Wearable.Program.Main(class System.String[])");
    }
  g_assert_cmpuint (g_hash_table_size (per_thread), ==, 3);
  g_hash_table_iter_init (&iter, per_thread);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    counts[n++] = GPOINTER_TO_UINT (value);
  g_assert_cmpuint (counts[0] + counts[1] + counts[2], ==, 947);
  g_assert_true ((counts[0] == 751 || counts[1] == 751 || counts[2] == 751) &&
                 (counts[0] == 131 || counts[1] == 131 || counts[2] == 131) &&
                 (counts[0] == 65 || counts[1] == 65 || counts[2] == 65));
  g_assert_cmpuint (main_roots, >, 0);
  g_assert_cmpuint (unresolved_per_mille (trace), <=, 10);
}

/* README: 9,928 samples on thread 40349031 (8,978 Managed, 950 External);
 * top leaf HashSet`1[System.Int64].AddIfNotPresent(!0) in 6,394. */
static void
test_robot_cleaner (void)
{
  g_autofree char *path = fixture_path ("RobotCleaner__trace.nettrace");
  g_autoptr(SpsTrace) trace = NULL;
  const SpsSampleTable *samples;
  guint managed = 0;
  guint add_if_not_present = 0;

  if (path == NULL)
    return;

  trace = load_ok (path);
  samples = sps_trace_get_samples (trace);
  g_assert_cmpuint (samples->n_rows, ==, 9928);
  g_assert_cmpuint (count_threads_with_samples (trace), ==, 1);
  g_assert_cmpint (sps_trace_get_threads (trace)->tid[samples->thread[0]], ==, 40349031);
  for (guint r = 0; r < samples->n_rows; r++)
    {
      managed += g_str_equal (sps_trace_get_string (trace, sps_sample_table_get_event_name (samples, r)), "Managed");
      add_if_not_present += g_str_has_suffix (leaf_name (trace, samples->callsite[r]),
                                              "!System.Collections.Generic.HashSet`1[System.Int64]."
                                              "AddIfNotPresent(!0)");
    }
  /* The process is named after its command line (from the rundown) */
  g_assert_cmpstr (sps_trace_get_string (trace, sps_trace_get_processes (trace)->name[0]), ==,
                   "dotnet RobotCleaner.dll");
  g_assert_cmpuint (managed, ==, 8978);
  g_assert_cmpuint (add_if_not_present, ==, 6394);
  g_assert_cmpuint (unresolved_per_mille (trace), ==, 0);
}

/* Files without samples open, with their event counts from the README and
 * a warning that says why the sample views are empty */
static void
test_no_samples (void)
{
  static const struct
  {
    const char *name;
    gboolean    zipped;
    guint64     events;
    gboolean    unterminated;
  } files[] = {
    { "RememberCalendar__trace.nettrace", FALSE, 4693, FALSE },
    { "TestCaseEditorApp__trace.header-only.nettrace", FALSE, 0, TRUE },
    { "zetslief__perf.nettrace", FALSE, 1540, FALSE },
    { "zetslief__perf_100ms.unterminated.nettrace", FALSE, 302, TRUE },
    { "zetslief__perf_with_work.unterminated.nettrace", FALSE, 88088, TRUE },
    { "zetslief__task_trace.nettrace", FALSE, 1844, FALSE },
    { "perfview__eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace.zip", TRUE, 1970, FALSE },
    { "perfview__eventpipe-dotnetcore6.0-win-x64-executioncheckpoints.nettrace.zip", TRUE, 3, FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = files[i].zipped ? unzip_fixture (files[i].name) : fixture_path (files[i].name);
      g_autoptr(SpsTrace) trace = NULL;

      if (path == NULL)
        return;

      g_test_message ("%s", files[i].name);
      trace = load_ok (path);
      g_assert_cmpuint (sps_trace_get_samples (trace)->n_rows, ==, 0);
      g_assert_cmpuint (sps_trace_get_events_read (trace), ==, files[i].events);
      g_assert_cmpuint (sps_trace_count_warning (trace, "nettrace-no-samples"), ==, 1);
      g_assert_cmpuint (sps_trace_count_warning (trace, "nettrace-no-end-tag"), ==, files[i].unterminated ? 1 : 0);
      g_assert_cmpuint (sps_trace_count_warning (trace, "nettrace-truncated"), ==, 0);
    }
}

/* The obsolete NetPerf layout is refused, saying what it is */
static void
test_netperf_rejected (void)
{
  g_autofree char *path = unzip_fixture ("perfview__eventpipe-dotnetcore2.1-linux-x64-tracelogging.netperf.zip");
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) trace = NULL;

  if (path == NULL)
    return;

  trace = load (path, &error);
  g_assert_null (trace);
  g_assert_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (error->message, "(byte 0): "));
  g_assert_nonnull (strstr (error->message, "NetPerf format of .NET Core 2.x"));
}

int
main (int    argc,
      char **argv)
{
  int ret;

  g_test_init (&argc, &argv, NULL);

  scratch_dir = g_dir_make_tmp ("spanscope-nettrace-fixtures-XXXXXX", NULL);
  g_assert_nonnull (scratch_dir);

  g_test_add_func ("/nettrace/fixtures/pyroscope-golden", test_pyroscope_golden);
  g_test_add_func ("/nettrace/fixtures/perfview-objver4", test_perfview_objver4);
  g_test_add_func ("/nettrace/fixtures/perfview-only-managed", test_perfview_only_managed);
  g_test_add_func ("/nettrace/fixtures/perfview-voicememo", test_perfview_voicememo);
  g_test_add_func ("/nettrace/fixtures/robot-cleaner", test_robot_cleaner);
  g_test_add_func ("/nettrace/fixtures/no-samples", test_no_samples);
  g_test_add_func ("/nettrace/fixtures/netperf-rejected", test_netperf_rejected);

  ret = g_test_run ();

  sps_test_remove_tree (scratch_dir);
  g_free (scratch_dir);

  return ret;
}
