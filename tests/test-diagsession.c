/* test-diagsession.c: the .diagsession / ETL importer plugin, end to end
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Files are opened the way the application opens them (sps_trace_load(),
 * the plugin found on SPANSCOPE_PLUGIN_PATH, probe by content). No real
 * .diagsession could be obtained (../shared/fixtures/diagsession/README.md),
 * so the packages are assembled by the test: a ZIP with the manifest
 * Visual Studio writes and the real resources of the shared fixtures.
 * Their tests say "assembled". Skipped without ../shared.
 */

#include "config.h"

#include <string.h>

#include <json-glib/json-glib.h>

#include "sps-test-util.h"
#include "sps-test-zip.h"

#define DIAGHUB_ZIP "perfview__diaghub-dotnetcore3.1-win-x64-diagsession.etls.zip"
#define DIAGHUB_DIR "diaghub-dotnetcore3.1-win-x64-diagsession/"
#define PERFVIEW_ZIP "perfview__net.4.5.2.x86.etl.zip"
#define GOBLIN "goblin__1197E42F-003D-4F91-A845-6404CF289E84.counters"
#define PREFIX "3e5a8c4d-0b8e-4f6e-9f3a-6c1d2b7e8a90"

static char *scratch_dir;

static GBytes *
resource_bytes (const char *name)
{
  return sps_test_shared_bytes ("diagsession/resources", name);
}

static SpsTrace *
load (const char  *path,
      GError     **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  return sps_trace_load (file, NULL, NULL, SPS_LOAD_FLAGS_NONE, NULL, NULL, error);
}

/* The "etl" object `info --json` prints */
static JsonObject *
etl_info (SpsTrace *trace)
{
  static JsonNode *node;
  SpsArgsRef ref = SPS_ARGS_REF_NONE;
  g_autoptr(GError) error = NULL;

  g_assert_cmpuint (sps_trace_get_n_info_sections (trace), ==, 1);
  g_assert_cmpstr (sps_trace_get_info_section (trace, 0, &ref), ==, "etl");
  g_clear_pointer (&node, json_node_unref);
  node = sps_trace_parse_args (trace, ref, &error);
  g_assert_no_error (error);
  return json_node_get_object (node);
}

static gint64
info_int (SpsTrace   *trace,
          const char *key)
{
  return json_object_get_int_member (etl_info (trace), key);
}

static const char *
warning_message (SpsTrace   *trace,
                 const char *name)
{
  for (guint i = 0; i < sps_trace_get_n_warnings (trace); i++)
    {
      const char *message = NULL;

      if (g_strcmp0 (sps_trace_get_warning (trace, i, NULL, &message), name) == 0)
        return message;
    }
  return NULL;
}

static guint
process_of_pid (SpsTrace *trace,
                gint64    pid)
{
  const SpsProcessTable *processes = sps_trace_get_processes (trace);

  for (guint i = 0; i < processes->n_rows; i++)
    if (processes->pid[i] == pid)
      return i;
  g_assert_not_reached ();
}

static gint32
thread_sort_index (SpsTrace *trace,
                   gint64    tid)
{
  const SpsThreadTable *threads = sps_trace_get_threads (trace);

  for (guint i = 0; i < threads->n_rows; i++)
    if (threads->tid[i] == tid)
      return threads->sort_index[i];
  g_assert_not_reached ();
}

/* One resource element of a manifest */
static char *
resource_xml (const char *type,
              const char *name)
{
  return g_strdup_printf ("    <Resource Id=\"{%08x-1111-2222-3333-444455556666}\" Type=\"%s\" Name=\"%s\""
                          " ResourcePackageUriPrefix=\"" PREFIX "\" IsDirectoryOnDisk=\"false\""
                          " CompressionOption=\"norm\" TimeAddedUTC=\"133000000000000000\" />\n",
                          g_str_hash (name), type, name);
}

/* A manifest listing @etls (a NULL-terminated list of names) and
 * optionally one counters file */
static GBytes *
manifest (const char * const *etls,
          const char         *counters)
{
  g_autoptr(GString) xml = g_string_new ("\xef\xbb\xbf<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
                                         "<Package xmlns=\"urn:diagnosticshub-package-metadata-2-1\">\n"
                                         "  <Content>\n");

  for (guint i = 0; etls[i] != NULL; i++)
    {
      g_autofree char *r = resource_xml ("DiagnosticsHub.Resource.EtlFile", etls[i]);

      g_string_append (xml, r);
    }
  if (counters != NULL)
    {
      g_autofree char *r = resource_xml ("DiagnosticsHub.Resource.CountersFile", counters);

      g_string_append (xml, r);
    }
  g_string_append (xml, "  </Content>\n  <Metadata><Item Key=\"_BuildVersion\">17.14.36607.1</Item></Metadata>\n"
                   "</Package>\n");
  return g_string_free_to_bytes (g_steal_pointer (&xml));
}

static GBytes *
content_types (void)
{
  return g_bytes_new_static (SPS_TEST_CONTENT_TYPES, strlen (SPS_TEST_CONTENT_TYPES));
}

/* An assembled package of one ETL resource and optionally a counters one */
static char *
assemble_one (const char *file_name,
              GBytes     *etl,
              GBytes     *counters)
{
  const char *etls[] = { "sc.user_aux.etl", NULL };
  g_autofree char *path = g_build_filename (scratch_dir, file_name, NULL);
  g_autoptr(GBytes) types = content_types ();
  g_autoptr(GBytes) xml = manifest (etls, counters != NULL ? "Session.counters" : NULL);

  sps_test_write_zip (path, "[Content_Types].xml", types, "metadata.xml", xml,
                      PREFIX "/sc.user_aux.etl", etl, PREFIX "/Session.counters", counters, NULL);
  return g_steal_pointer (&path);
}

/* PerfView's CPU trace in a package with the hand-written counters
 * example: the counts of the README, the idle process hidden, the
 * counters on the trace's clock */
static void
test_assembled_one_etl (void)
{
  g_autoptr(GBytes) etl = sps_test_shared_zip_member ("diagsession", PERFVIEW_ZIP, "net.4.5.2.x86.etl");
  g_autoptr(GBytes) counters = resource_bytes ("CreateJsonDiagSession__Session.counters");
  g_autofree char *path = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  SpsTime hub_ts[3];
  double hub_value[3];
  guint n_hub = 0;
  g_autoptr(GError) error = NULL;
  const SpsProcessTable *processes;
  const SpsCounterTable *values;
  guint idle;

  g_test_summary ("An assembled .diagsession with one ETL resource and a counters resource: "
                  "every README count, idle hidden, counter points on the trace's clock");
  if (etl == NULL || counters == NULL)
    return;

  path = assemble_one ("one-etl.diagsession", etl, counters);
  trace = load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (sps_trace_get_format (trace), ==, "diagsession");

  g_assert_cmpstr (json_object_get_string_member (etl_info (trace), "container"), ==, "diagsession");
  g_assert_cmpint (info_int (trace, "files"), ==, 1);
  g_assert_cmpint (info_int (trace, "buffers"), ==, 276);
  g_assert_cmpint (info_int (trace, "compressed_buffers"), ==, 275);
  /* System64 4,472 + System32 2, PerfInfo64 115,091, Full-header64 8,162
   * + 32 73, EventHeader32 39,425 + 64 1,073 */
  g_assert_cmpint (info_int (trace, "records"), ==, 4472 + 2 + 115091 + 8162 + 73 + 39425 + 1073);
  g_assert_cmpint (info_int (trace, "sampled_profile"), ==, 88809);
  /* PerfInfo CollectionStart: the timer at 10,000 × 100 ns */
  g_assert_cmpint (info_int (trace, "sample_interval_ns"), ==, 1000000);
  g_assert_cmpint (info_int (trace, "stackwalk_direct"), ==, 229);
  g_assert_cmpint (info_int (trace, "stack_key_references_kernel"), ==, 3640);
  g_assert_cmpint (info_int (trace, "stack_key_references_user"), ==, 8532);
  g_assert_cmpint (info_int (trace, "stack_key_definitions"), ==, 3049);
  g_assert_cmpint (info_int (trace, "stack_key_rundowns"), ==, 1024);
  /* PerfView keeps 6,810 samples: the 6,681 of other threads than the
   * idle one and the idle thread's 129 in a DPC (98) or an ISR (31) */
  g_assert_cmpint (info_int (trace, "idle_samples"), ==, 82128);
  g_assert_cmpint (info_int (trace, "idle_samples_in_dpc_or_isr"), ==, 98 + 31);
  g_assert_cmpint (88809 - info_int (trace, "idle_samples") + info_int (trace, "idle_samples_in_dpc_or_isr"),
                   ==, 6810);
  g_assert_cmpuint (sps_trace_get_samples (trace)->n_rows, ==, 88809);

  /* No Diagnostics Hub target in a PerfView trace: nothing collapsed, the
   * idle process hidden */
  processes = sps_trace_get_processes (trace);
  idle = process_of_pid (trace, 0);
  g_assert_cmpuint (processes->display[idle], ==, SPS_PROCESS_DISPLAY_HIDDEN);
  g_assert_cmpuint (processes->display[process_of_pid (trace, 3644)], ==, SPS_PROCESS_DISPLAY_DEFAULT);
  /* By samples instead: the test program (4,900), PerfView (637), …;
   * then the 17 processes with events but no samples by pid, the last
   * being pid -1 (the PerfInfo events that name no thread); the idle
   * process, hidden, after every other; then the counters' own process
   * (pid -2) */
  g_assert_cmpint (processes->sort_index[process_of_pid (trace, 3644)], ==, 0);
  g_assert_cmpint (processes->sort_index[process_of_pid (trace, 3988)], ==, 1);
  g_assert_cmpint (processes->sort_index[process_of_pid (trace, 144)], ==, 19);
  g_assert_cmpint (processes->sort_index[process_of_pid (trace, -1)], ==, 35);
  g_assert_cmpint (processes->sort_index[idle], ==, 36);
  g_assert_cmpint (processes->sort_index[process_of_pid (trace, -2)], ==, 37);
  g_assert_cmpuint (processes->n_rows, ==, 38);
  g_assert_cmpuint (processes->name[process_of_pid (trace, -1)], ==, 0);
  /* Threads too: the test program's 3708 (4,898 samples) before 3640 and
   * 3636 (1 each, in the order of their first sample: 2.6 s, 7.8 s) */
  g_assert_cmpint (thread_sort_index (trace, 3708), <, thread_sort_index (trace, 3640));
  g_assert_cmpint (thread_sort_index (trace, 3640), <, thread_sort_index (trace, 3636));

  /* The counters (no qpcFrequency: 100 ns units from the start) in a
   * process of their own: 0, 5,000 and 10,000 units */
  g_assert_cmpint (info_int (trace, "counter_files"), ==, 1);
  g_assert_cmpint (info_int (trace, "counter_points"), ==, 3);
  /* (The ETL's GCAllocationTick samples make counters of their own, the
   * outstanding bytes, in the runtime's process: only the Diagnostics Hub
   * process's are the resource's) */
  values = sps_trace_get_counters (trace);
  for (guint r = 0; r < values->n_rows; r++)
    if (sps_trace_get_tracks (trace)->process[values->track[r]] == process_of_pid (trace, -2))
      {
        g_assert_cmpuint (n_hub, <, 3);
        hub_ts[n_hub] = values->ts[r];
        hub_value[n_hub++] = values->value[r];
      }
  g_assert_cmpuint (n_hub, ==, 3);
  g_assert_cmpint (hub_ts[0], ==, 0);
  g_assert_cmpint (hub_ts[1], ==, 500000);
  g_assert_cmpint (hub_ts[2], ==, 1000000);
  g_assert_cmpfloat (hub_value[0], ==, 100);
  g_assert_cmpfloat (hub_value[1], ==, 0);
  g_assert_cmpfloat (hub_value[2], ==, 100);
  g_assert_cmpstr (sps_trace_get_string (trace, processes->name[process_of_pid (trace, -2)]), ==,
                   "Diagnostics Hub");
}

/* The four files of a Diagnostics Hub session as four ETL resources,
 * with the real counters of another capture */
static void
test_assembled_diaghub_merged (void)
{
  static const char * const names[] = { "diaghub.etl", "diaghub.kernel.1.etl", "diaghub.user_injected.1.etl",
                                        "diaghub.user_paged.1.etl", NULL };
  g_autoptr(GBytes) counters = resource_bytes (GOBLIN);
  g_autoptr(GPtrArray) etls = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GBytes) types = content_types ();
  g_autoptr(GBytes) xml = NULL;
  g_autofree char *path = g_build_filename (scratch_dir, "diaghub.diagsession", NULL);
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  const SpsProcessTable *processes;
  const SpsCounterTable *values;
  guint target;

  g_test_summary ("An assembled .diagsession with the four ETLs of a Diagnostics Hub session: "
                  "merged on one clock, PerfView's event count, the profiled process first");
  if (counters == NULL)
    return;
  for (guint i = 0; i < 4; i++)
    {
      g_autofree char *member = g_strconcat (DIAGHUB_DIR, names[i], NULL);

      g_ptr_array_add (etls, sps_test_shared_zip_member ("diagsession", DIAGHUB_ZIP, member));
    }

  xml = manifest (names, GOBLIN);
  sps_test_write_zip (path, "[Content_Types].xml", types, "metadata.xml", xml,
                      PREFIX "/diaghub.etl", etls->pdata[0], PREFIX "/diaghub.kernel.1.etl", etls->pdata[1],
                      PREFIX "/diaghub.user_injected.1.etl", etls->pdata[2],
                      PREFIX "/diaghub.user_paged.1.etl", etls->pdata[3],
                      PREFIX "/" GOBLIN, counters, NULL);
  trace = load (path, &error);
  g_assert_no_error (error);

  g_assert_cmpint (info_int (trace, "files"), ==, 4);
  /* 64 KiB buffers, none compressed: 6,750,208 + 3,866,624 + 131,072 +
   * 9,109,504 bytes */
  g_assert_cmpint (info_int (trace, "buffers"), ==, (6750208 + 3866624 + 131072 + 9109504) / 65536);
  g_assert_cmpint (info_int (trace, "compressed_buffers"), ==, 0);
  /* PerfView's merge counts 95,506 events: every record but the 5,247
   * MethodILToNativeMap events, which its TraceLog keeps to itself */
  g_assert_cmpint (info_int (trace, "records"), ==, 95506 + 5247);
  g_assert_cmpuint (sps_trace_get_events_read (trace), ==, 95506 + 5247);
  g_assert_cmpint (info_int (trace, "sampled_profile"), ==, 0);
  g_assert_cmpint (info_int (trace, "sample_interval_ns"), ==, 0);
  g_assert_cmpint (info_int (trace, "target_pid"), ==, 2140);

  /* The target first and expanded (it holds the counters too); the 228
   * other processes the kernel's rundown and events name are there,
   * collapsed, the idle one hidden */
  processes = sps_trace_get_processes (trace);
  target = process_of_pid (trace, 2140);
  g_assert_cmpint (processes->sort_index[target], ==, 0);
  g_assert_cmpuint (processes->display[target], ==, SPS_PROCESS_DISPLAY_DEFAULT);
  g_assert_cmpuint (processes->n_rows, ==, 229);
  for (guint p = 0; p < processes->n_rows; p++)
    if (p != target)
      g_assert_cmpuint (processes->display[p], ==, processes->pid[p] == 0 ? SPS_PROCESS_DISPLAY_HIDDEN
                                                                           : SPS_PROCESS_DISPLAY_COLLAPSED);

  /* The goblin counters: 98 private bytes and 40 live objects points,
   * placed by their QPC ticks against the session's earliest start
   * (diaghub.etl's, 13,764,840,754 ticks at 10 MHz): the first private
   * bytes point at 627,035,939,620 ticks is 613,271,098,866 ticks =
   * 61,327,109,886,600 ns later */
  g_assert_cmpint (info_int (trace, "counter_points"), ==, 98 + 40);
  values = sps_trace_get_counters (trace);
  g_assert_cmpuint (values->n_rows, ==, 138);
  g_assert_cmpint (values->ts[0], ==, G_GINT64_CONSTANT (61327109886600));
  g_assert_cmpfloat (values->value[0], ==, 409600);
}

/* A package with the real counters alone: no ETL clock, so the counters'
 * own start (beginTimeQpc 627,034,904,366) is time 0: the first private
 * bytes point (627,035,939,620) is 1,035,254 ticks of 100 ns later */
static void
test_assembled_counters_only (void)
{
  static const char * const no_etls[] = { NULL };
  g_autoptr(GBytes) counters = resource_bytes (GOBLIN);
  g_autoptr(GBytes) types = content_types ();
  g_autoptr(GBytes) xml = manifest (no_etls, GOBLIN);
  g_autofree char *path = g_build_filename (scratch_dir, "counters.diagsession", NULL);
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  const SpsCounterTable *values;

  g_test_summary ("An assembled .diagsession with only a counters resource: counter tracks from the "
                  "counters' own start");
  if (counters == NULL)
    return;

  sps_test_write_zip (path, "[Content_Types].xml", types, "metadata.xml", xml, PREFIX "/" GOBLIN, counters, NULL);
  trace = load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (info_int (trace, "files"), ==, 0);
  g_assert_cmpint (info_int (trace, "counter_points"), ==, 138);
  values = sps_trace_get_counters (trace);
  g_assert_cmpuint (values->n_rows, ==, 138);
  g_assert_cmpint (values->ts[0], ==, 103525400);
  g_assert_cmpfloat (values->value[0], ==, 409600);
  g_assert_cmpuint (sps_trace_get_processes (trace)->n_rows, ==, 1);
  g_assert_cmpint (sps_trace_get_processes (trace)->pid[0], ==, -2);
}

/* The ETL member's compressed bytes damaged inside an intact ZIP: a
 * warning that names the member, the counters still read */
static void
test_assembled_damaged_member (void)
{
  g_autoptr(GBytes) etl = sps_test_shared_zip_member ("diagsession", "perfview__gcevents.etl.zip",
                                                      "gcevents/PerfViewData.etl");
  g_autoptr(GBytes) counters = resource_bytes ("CreateJsonDiagSession__Session.counters");
  g_autofree char *path = NULL;
  g_autofree char *prefix = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  char *data;
  gsize len;
  const char *name;

  g_test_summary ("An assembled .diagsession whose ETL member's deflated data is damaged: a warning "
                  "naming the member, the rest of the package read");
  if (etl == NULL || counters == NULL)
    return;

  path = assemble_one ("damaged.diagsession", etl, counters);
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  /* The member's local header (its name at byte 30), then its data */
  name = NULL;
  for (gsize at = 0; name == NULL && at + 64 < len; at++)
    if (memcmp (data + at, PREFIX "/sc.user_aux.etl", strlen (PREFIX "/sc.user_aux.etl")) == 0)
      name = data + at;
  g_assert_nonnull (name);
  g_assert_cmpuint ((gsize) (name - data) + 1600, <, len);
  for (guint i = 0; i < 64; i++)
    ((guint8 *) name)[strlen (PREFIX "/sc.user_aux.etl") + 1500 + i] ^= 0x5a;
  g_assert_true (g_file_set_contents (path, data, len, NULL));
  g_free (data);

  trace = load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sps_trace_count_warning (trace, "diagsession-resource"), ==, 1);
  /* The damaged deflate stream still expands, to other bytes: how many
   * came out before libzip noticed is the offset (Debian 12's zlib) */
  prefix = g_strconcat (path, ": " PREFIX "/sc.user_aux.etl (byte 321242): CRC error", NULL);
  g_assert_cmpstr (warning_message (trace, "diagsession-resource"), ==, prefix);
  g_assert_cmpint (info_int (trace, "files"), ==, 0);
  g_assert_cmpint (info_int (trace, "counter_points"), ==, 3);
}

/* The ETL member's expanded size in the ZIP's headers made 2 GiB: more
 * than its deflated bytes can expand to, so nothing that large is
 * allocated; a warning names the member, and the counters are still
 * read */
static void
test_assembled_crafted_size (void)
{
  g_autoptr(GBytes) etl = sps_test_shared_zip_member ("diagsession", "perfview__gcevents.etl.zip",
                                                      "gcevents/PerfViewData.etl");
  g_autoptr(GBytes) counters = resource_bytes ("CreateJsonDiagSession__Session.counters");
  static const char member[] = PREFIX "/sc.user_aux.etl";
  g_autofree char *path = NULL;
  g_autofree char *expected = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  guint8 *local = NULL;
  guint8 *central = NULL;
  guint32 comp_size;
  char *data;
  gsize len;

  g_test_summary ("An assembled .diagsession whose ETL member claims 2 GiB expanded: refused "
                  "before anything is allocated, with a warning naming it; the counters read");
  if (etl == NULL || counters == NULL)
    return;

  path = assemble_one ("crafted-size.diagsession", etl, counters);
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  /* The member's headers, both made to say so (the package is opened
   * with consistency checks): the local one ("PK\3\4", the expanded size
   * at byte 22, the name at 30) and the central directory's ("PK\1\2",
   * the sizes at bytes 20 and 24, the name at 46) */
  for (gsize at = 0; at + 46 + sizeof member - 1 <= len; at++)
    {
      if (memcmp (data + at, "PK\3\4", 4) == 0 && memcmp (data + at + 30, member, sizeof member - 1) == 0)
        local = (guint8 *) data + at;
      if (memcmp (data + at, "PK\1\2", 4) == 0 && memcmp (data + at + 46, member, sizeof member - 1) == 0)
        central = (guint8 *) data + at;
    }
  g_assert_nonnull (local);
  g_assert_nonnull (central);
  comp_size = (guint32) central[20] | (guint32) central[21] << 8 | (guint32) central[22] << 16 |
              (guint32) central[23] << 24;
  memcpy (local + 22, "\0\0\0\x80", 4);
  memcpy (central + 24, "\0\0\0\x80", 4);
  g_assert_true (g_file_set_contents (path, data, len, NULL));
  g_free (data);

  trace = load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sps_trace_count_warning (trace, "diagsession-resource"), ==, 1);
  expected = g_strdup_printf ("%s: %s: it says it expands to 2147483648 bytes, more than its %u compressed "
                              "bytes can hold", path, member, comp_size);
  g_assert_cmpstr (warning_message (trace, "diagsession-resource"), ==, expected);
  g_assert_cmpint (info_int (trace, "files"), ==, 0);
  g_assert_cmpint (info_int (trace, "counter_points"), ==, 3);
}

/* A listed resource that is not in the ZIP: a warning naming it, the
 * other resource read */
static void
test_assembled_missing_resource (void)
{
  static const char * const names[] = { "missing.etl", "sc.user_aux.etl", NULL };
  g_autoptr(GBytes) etl = sps_test_shared_zip_member ("diagsession", "perfview__gcevents.etl.zip",
                                                      "gcevents/PerfViewData.etl");
  g_autoptr(GBytes) types = content_types ();
  g_autoptr(GBytes) xml = manifest (names, NULL);
  g_autofree char *path = g_build_filename (scratch_dir, "missing.diagsession", NULL);
  g_autofree char *only_missing = g_build_filename (scratch_dir, "only-missing.diagsession", NULL);
  g_autoptr(GBytes) xml_missing = NULL;
  g_autofree char *expected = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;

  g_test_summary ("An assembled .diagsession whose manifest lists a member the ZIP lacks: "
                  "a warning that names it, the rest read; nothing readable is an error");
  if (etl == NULL)
    return;

  sps_test_write_zip (path, "[Content_Types].xml", types, "metadata.xml", xml, PREFIX "/sc.user_aux.etl", etl,
                      NULL);
  trace = load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sps_trace_count_warning (trace, "diagsession-resource"), ==, 1);
  expected = g_strconcat (path, ": the package has no member “" PREFIX "/missing.etl”", NULL);
  g_assert_cmpstr (warning_message (trace, "diagsession-resource"), ==, expected);
  g_assert_cmpint (info_int (trace, "files"), ==, 1);
  g_assert_cmpint (info_int (trace, "records"), ==, 71);

  /* Only the missing one */
  xml_missing = manifest ((const char * const[]) { "missing.etl", NULL }, NULL);
  sps_test_write_zip (only_missing, "[Content_Types].xml", types, "metadata.xml", xml_missing, NULL);
  g_assert_null (load (only_missing, &error));
  g_assert_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_MALFORMED);
}

/* PerfView's CPU trace with its second buffer (at byte 512, 15,025 bytes
 * of plain LZ77 expanding to 65,368) damaged: its first compressed bytes
 * all 0xff make a match that reaches before the output's start. That
 * buffer's 428 records are lost (counted with the reader over the intact
 * file), with a warning that names the member and the buffer's offset;
 * everything else is read. */
static void
test_assembled_corrupt_buffer (void)
{
  g_autoptr(GBytes) etl = sps_test_shared_zip_member ("diagsession", PERFVIEW_ZIP, "net.4.5.2.x86.etl");
  g_autoptr(GBytes) damaged = NULL;
  g_autofree char *path = NULL;
  g_autofree char *prefix = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  guint8 *data;
  gsize len;

  g_test_summary ("An assembled .diagsession whose ETL has a corrupt compressed buffer: a warning "
                  "naming the member and byte offset, that buffer's records lost, the rest read");
  if (etl == NULL)
    return;

  len = g_bytes_get_size (etl);
  data = g_memdup2 (g_bytes_get_data (etl, NULL), len);
  g_assert_cmpuint (data[512 + 52] & 0x40, ==, 0x40);
  memset (data + 512 + 72, 0xff, 16);
  damaged = g_bytes_new_take (data, len);
  path = assemble_one ("corrupt.diagsession", damaged, NULL);
  trace = load (path, &error);
  g_assert_no_error (error);

  g_assert_cmpint (info_int (trace, "skipped_buffers"), ==, 1);
  g_assert_cmpint (info_int (trace, "records"), ==, 168298 - 428);
  g_assert_cmpint (info_int (trace, "sampled_profile"), ==, 88809);
  g_assert_cmpuint (sps_trace_count_warning (trace, "etl-corrupt-buffer"), ==, 1);
  prefix = g_strconcat (path, ": " PREFIX "/sc.user_aux.etl (byte 512): a compressed buffer cannot be expanded (",
                        NULL);
  g_assert_true (g_str_has_prefix (warning_message (trace, "etl-corrupt-buffer"), prefix));
}

/* Watches a load's progress from another thread and cancels it once it
 * is a third through decoding; returns the message it saw then, or NULL
 * when the load got past the buffers before this thread looked (a loaded
 * machine) */
static gpointer
cancel_while_decoding (gpointer data)
{
  SpsProgress *progress = data;

  /* At most 20 s */
  for (guint i = 0; i < 200000 && sps_progress_get_phase (progress) != SPS_PROGRESS_PHASE_DONE; i++)
    {
      if (sps_progress_get_phase (progress) == SPS_PROGRESS_PHASE_PARSING &&
          sps_progress_get_fraction (progress) > 0.3)
        {
          char *message = sps_progress_dup_message (progress);

          if (!g_str_has_prefix (message, "Decompressing buffers"))
            {
              g_free (message);
              return NULL;
            }
          sps_progress_cancel (progress);
          return message;
        }
      g_usleep (100);
    }
  return NULL;
}

/* Cancel in the middle of the buffers: the load stops with
 * G_IO_ERROR_CANCELLED; the progress had said which file it decoded. A
 * load that outran the watching thread is tried again. */
static void
test_cancel (void)
{
  g_autofree char *zip = sps_test_shared_fixture_path ("diagsession", PERFVIEW_ZIP);
  g_autoptr(GFile) file = NULL;
  g_autofree char *seen = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *canonical = NULL;

  g_test_summary ("A load cancelled while it decodes buffers stops with G_IO_ERROR_CANCELLED");
  if (zip == NULL)
    return;

  file = g_file_new_for_path (zip);
  for (guint attempt = 0; attempt < 5 && seen == NULL; attempt++)
    {
      g_autoptr(SpsProgress) progress = sps_progress_new (NULL);
      g_autoptr(SpsTrace) trace = NULL;
      g_autoptr(GError) error = NULL;
      GThread *thread = g_thread_new ("cancel", cancel_while_decoding, progress);

      trace = sps_trace_load (file, NULL, NULL, SPS_LOAD_FLAGS_NONE, progress, NULL, &error);
      seen = g_thread_join (thread);
      if (seen == NULL)
        {
          g_test_message ("attempt %u: the load got past the buffers first", attempt);
          continue;
        }
      g_assert_null (trace);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    }
  g_assert_nonnull (seen);

  /* The name as GFile has it (canonical) */
  canonical = g_file_get_path (file);
  expected = g_strconcat ("Decompressing buffers and decoding events of ", canonical, ": net.4.5.2.x86.etl", NULL);
  g_assert_cmpstr (seen, ==, expected);
}

/* The other forms: OLE compound file, a ZIP of neither kind */
static void
test_refused_forms (void)
{
  static const guint8 cfb[512] = { 0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1 };
  g_autofree char *compound = sps_test_write_temp ("sps-cfb-XXXXXX", "capture.diagsession", cfb, sizeof cfb);
  g_autofree char *compound_dir = g_path_get_dirname (compound);
  g_autofree char *zip = g_build_filename (scratch_dir, "plain.diagsession", NULL);
  g_autoptr(GBytes) types = content_types ();
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;

  g_test_summary ("A .diagsession in the OLE compound form and a ZIP without metadata.xml or ETL "
                  "files: errors that say which");

  g_assert_null (load (compound, &error));
  g_assert_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_UNSUPPORTED);
  expected = g_strconcat (compound, ": a .diagsession in the OLE compound file form; only ZIP packages are read",
                          NULL);
  g_assert_cmpstr (error->message, ==, expected);
  g_clear_error (&error);
  g_clear_pointer (&expected, g_free);

  sps_test_write_zip (zip, "[Content_Types].xml", types, NULL);
  g_assert_null (load (zip, &error));
  g_assert_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_MALFORMED);
  expected = g_strconcat (zip, ": a ZIP file without metadata.xml, so not a .diagsession package", NULL);
  g_assert_cmpstr (error->message, ==, expected);

  sps_test_remove_tree (compound_dir);
}

/* The ETL of PerfView's CLR GC trace (5 buffers of 64 KiB, uncompressed),
 * cut at every buffer boundary and inside every buffer's records, in an
 * assembled package: the records before the cut are kept. The counts
 * were worked out from the buffers' headers (SavedOffset 576, 1,224,
 * 1,904, 232, 6,240) and each record's size. */
static void
test_assembled_truncated (void)
{
  static const struct { gsize cut; gint64 records; } cuts[] = {
    { 65536, 2 },            /* after the header buffer */
    { 65536 + 612, 7 },      /* half of the second buffer's data */
    { 131072, 14 },
    { 131072 + 952, 19 },
    { 196608, 25 },
    { 196608 + 116, 25 },    /* inside the fourth buffer's only record */
    { 262144, 26 },
    { 262144 + 3120, 48 },
    { 327680, 71 },          /* the whole file */
  };
  g_autoptr(GBytes) etl = sps_test_shared_zip_member ("diagsession", "perfview__gcevents.etl.zip",
                                                      "gcevents/PerfViewData.etl");
  g_autoptr(GError) error = NULL;

  g_test_summary ("An assembled .diagsession whose ETL is cut at every buffer boundary and inside "
                  "each buffer: no crash, the records before the cut kept, a warning for a cut buffer");
  if (etl == NULL)
    return;

  for (guint i = 0; i < G_N_ELEMENTS (cuts); i++)
    {
      g_autoptr(GBytes) cut = g_bytes_new_from_bytes (etl, 0, cuts[i].cut);
      g_autofree char *name = g_strdup_printf ("cut-%zu.diagsession", cuts[i].cut);
      g_autofree char *path = assemble_one (name, cut, NULL);
      g_autoptr(SpsTrace) trace = load (path, &error);

      g_assert_no_error (error);
      g_assert_cmpint (info_int (trace, "records"), ==, cuts[i].records);
      g_assert_cmpint (info_int (trace, "buffers"), ==, (cuts[i].cut + 65535) / 65536);
      /* A cut inside a buffer is said; a cut between buffers cannot be
       * told from the end of a file */
      g_assert_cmpuint (sps_trace_count_warning (trace, "etl-truncated"), ==, cuts[i].cut % 65536 != 0);
    }

  /* Cut inside the trace header's record: nothing to read */
  {
    g_autoptr(GBytes) cut = g_bytes_new_from_bytes (etl, 0, 288);
    g_autofree char *path = assemble_one ("cut-header.diagsession", cut, NULL);

    g_assert_null (load (path, &error));
    g_assert_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_MALFORMED);
  }
}

/* A bare ETL and PerfView's .etl.zip open by content, whatever their name */
static void
test_probe_by_content (void)
{
  g_autoptr(GBytes) etl = sps_test_shared_zip_member ("diagsession", "perfview__primitive-types.etl.zip",
                                                      "primitive-types.etl");
  g_autofree char *zip = sps_test_shared_fixture_path ("diagsession", PERFVIEW_ZIP);
  g_autofree char *renamed = NULL;
  g_autoptr(SpsTrace) bare = NULL;
  g_autoptr(SpsTrace) zipped = NULL;
  g_autoptr(GError) error = NULL;

  g_test_summary ("A bare ETL under another name and PerfView's .etl.zip: opened by their content");
  if (etl == NULL || zip == NULL)
    return;

  renamed = sps_test_write_temp ("sps-etl-XXXXXX", "trace.bin", g_bytes_get_data (etl, NULL), g_bytes_get_size (etl));
  bare = load (renamed, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (sps_trace_get_format (bare), ==, "etl");
  g_assert_cmpstr (json_object_get_string_member (etl_info (bare), "container"), ==, "etl");
  /* Two 8 KiB buffers: the header, the 5 events and what the session adds */
  g_assert_cmpint (info_int (bare, "buffers"), ==, 2);

  zipped = load (zip, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (etl_info (zipped), "container"), ==, "zip");
  g_assert_cmpint (info_int (zipped, "sampled_profile"), ==, 88809);
  {
    g_autofree char *dir = g_path_get_dirname (renamed);

    sps_test_remove_tree (dir);
  }
}

/* `info --json`: the etl object's figures for PerfView's CPU trace, the
 * README's counts (from an independent reader) */
static void
test_cli_info (void)
{
  g_autofree char *zip = sps_test_shared_fixture_path ("diagsession", PERFVIEW_ZIP);
  g_auto(SpsTestRun) run = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root, *etl;
  static const struct { const char *key; gint64 value; } expected[] = {
    { "buffers", 276 },
    { "compressed_buffers", 275 },
    { "records", 4472 + 2 + 115091 + 8162 + 73 + 39425 + 1073 },
    { "events_lost", 0 },
    { "sampled_profile", 88809 },
    { "stackwalk_direct", 229 },
    { "stack_key_definitions", 3049 },
    { "stack_key_rundowns", 1024 },
    { "stack_key_references_kernel", 3640 },
    { "stack_key_references_user", 8532 },
    /* Samples whose (timestamp, thread) a stack event or key reference
     * shares */
    { "samples_with_stack", 6806 },
    /* 13,783 MethodDCEndVerbose, 405 MethodLoadVerbose, 271
     * MethodUnloadVerbose */
    { "clr_method_events", 13783 + 405 + 271 },
    /* PerfView's baseline: 1,810 Image/DCStart and 57 Image/Load */
    { "images", 1810 + 57 },
  };

  g_test_summary ("spanscope-cli info --json on PerfView's CPU trace: every figure of the etl object");
  if (zip == NULL)
    return;
  if (g_getenv ("SPANSCOPE_CLI") == NULL)
    {
      g_test_skip ("SPANSCOPE_CLI is not set; run the tests with meson test");
      return;
    }

  sps_test_run_cli_va (&run, "info", "--json", zip, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, run.out, -1, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "format"), ==, "etl");
  g_assert_cmpint (json_object_get_int_member (root, "samples"), ==, 88809);
  etl = json_object_get_object_member (root, "etl");
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_test_message ("%s", expected[i].key);
      g_assert_cmpint (json_object_get_int_member (etl, expected[i].key), ==, expected[i].value);
    }
}

/* `convert` of an assembled .diagsession to the three sample formats:
 * every sample in each */
static void
test_cli_convert (void)
{
  g_autoptr(GBytes) etl = sps_test_shared_zip_member ("diagsession", PERFVIEW_ZIP, "net.4.5.2.x86.etl");
  g_autofree char *path = NULL;
  g_autofree char *folded = g_build_filename (scratch_dir, "out.folded", NULL);
  g_autofree char *speedscope = g_build_filename (scratch_dir, "out.speedscope.json", NULL);
  g_autofree char *chromium = g_build_filename (scratch_dir, "out.chromium.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  JsonArray *profiles;
  guint64 n = 0;
  guint n_stacks = 0;

  g_test_summary ("spanscope-cli convert of an assembled .diagsession to folded, speedscope and "
                  "chromium: all 88,809 samples in each");
  if (etl == NULL)
    return;
  if (g_getenv ("SPANSCOPE_CLI") == NULL)
    {
      g_test_skip ("SPANSCOPE_CLI is not set; run the tests with meson test");
      return;
    }
  path = assemble_one ("convert.diagsession", etl, NULL);

  {
    g_auto(SpsTestRun) run = { 0 };

    sps_test_run_cli_va (&run, "convert", path, "--format", "folded", "-o", folded, NULL);
    g_assert_cmpint (run.status, ==, 0);
  }
  g_assert_true (g_file_get_contents (folded, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      const char *count = strrchr (lines[i], ' ');

      g_assert_nonnull (count);
      n += g_ascii_strtoull (count + 1, NULL, 10);
      n_stacks++;
    }
  g_assert_cmpuint (n, ==, 88809);
  /* 2,064 while user stack keys were matched from their samples' time:
   * 15 stacks then held another slot use's 32-bit ntdll.dll addresses */
  g_assert_cmpuint (n_stacks, ==, 2049);
  /* The idle thread's samples all end in the kernel's idle loop */
  g_assert_nonnull (strstr (text, "\nntoskrnl.exe!+0xa6552 81573\n"));

  {
    g_auto(SpsTestRun) run = { 0 };

    sps_test_run_cli_va (&run, "convert", path, "--format", "speedscope", "-o", speedscope, NULL);
    g_assert_cmpint (run.status, ==, 0);
  }
  g_assert_true (json_parser_load_from_file (parser, speedscope, &error));
  g_assert_no_error (error);
  profiles = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "profiles");
  n = 0;
  for (guint i = 0; i < json_array_get_length (profiles); i++)
    n += json_array_get_length (json_object_get_array_member (json_array_get_object_element (profiles, i),
                                                              "samples"));
  g_assert_cmpuint (n, ==, 88809);
  /* One profile per thread with samples */
  g_assert_cmpuint (json_array_get_length (profiles), ==, 80);

  {
    g_auto(SpsTestRun) run = { 0 };

    sps_test_run_cli_va (&run, "convert", path, "--format", "chromium", "-o", chromium, NULL);
    g_assert_cmpint (run.status, ==, 0);
  }
  g_assert_true (json_parser_load_from_file (parser, chromium, &error));
  g_assert_no_error (error);
  /* A thread-name event per thread with samples, then the stacks' spans
   * (39,862 while user stack keys were matched from their samples' time) */
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (
                      json_node_get_object (json_parser_get_root (parser)), "traceEvents")), ==, 80 + 36137);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  scratch_dir = g_dir_make_tmp ("sps-diagsession-XXXXXX", NULL);

  g_test_add_func ("/diagsession/import/assembled-one-etl", test_assembled_one_etl);
  g_test_add_func ("/diagsession/import/assembled-diaghub-merged", test_assembled_diaghub_merged);
  g_test_add_func ("/diagsession/import/assembled-counters-only", test_assembled_counters_only);
  g_test_add_func ("/diagsession/import/assembled-missing-resource", test_assembled_missing_resource);
  g_test_add_func ("/diagsession/import/assembled-damaged-member", test_assembled_damaged_member);
  g_test_add_func ("/diagsession/import/assembled-crafted-size", test_assembled_crafted_size);
  g_test_add_func ("/diagsession/import/assembled-truncated", test_assembled_truncated);
  g_test_add_func ("/diagsession/import/assembled-corrupt-buffer", test_assembled_corrupt_buffer);
  g_test_add_func ("/diagsession/import/refused-forms", test_refused_forms);
  g_test_add_func ("/diagsession/import/cancel", test_cancel);
  g_test_add_func ("/diagsession/import/probe-by-content", test_probe_by_content);
  g_test_add_func ("/diagsession/cli/info-json", test_cli_info);
  g_test_add_func ("/diagsession/cli/convert-assembled", test_cli_convert);

  ret = g_test_run ();
  sps_test_remove_tree (scratch_dir);
  g_free (scratch_dir);
  return ret;
}
