/* test-etl-import.c: ETL traces into a trace: samples on their threads with named stacks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * PerfView's CPU trace of a 32-bit .NET Framework program on 64-bit
 * Windows (../shared/fixtures/diagsession, XPRESS-compressed buffers):
 * every count its README lists, and what the samples become. Every other
 * event is kept (events_raw): PerfView's counts of its ETL files.
 */

#include "config.h"

#include <string.h>

#include "sps-etl-event-info.h"
#include "sps-etl-import.h"
#include "sps-etl-manifest.h"
#include "sps-ms-events.h"
#include "sps-test-util.h"
#include "sps-test-zip.h"
#include "sps-xca.h"

static guint
samples_of_process (SpsTrace *trace,
                    gint64    pid)
{
  const SpsSampleTable *samples = sps_trace_get_samples (trace);
  const SpsThreadTable *threads = sps_trace_get_threads (trace);
  const SpsProcessTable *processes = sps_trace_get_processes (trace);
  guint n = 0;

  for (guint i = 0; i < samples->n_rows; i++)
    if (processes->pid[threads->process[samples->thread[i]]] == pid)
      n++;
  return n;
}

static guint
samples_named (SpsTrace   *trace,
               const char *leaf)
{
  const SpsSampleTable *samples = sps_trace_get_samples (trace);
  guint n = 0;

  for (guint i = 0; i < samples->n_rows; i++)
    if (g_strcmp0 (sps_trace_get_string (trace, samples->name[i]), leaf) == 0)
      n++;
  return n;
}

static const char *
process_name (SpsTrace *trace,
              gint64    pid)
{
  const SpsProcessTable *processes = sps_trace_get_processes (trace);

  for (guint i = 0; i < processes->n_rows; i++)
    if (processes->pid[i] == pid)
      return sps_trace_get_string (trace, processes->name[i]);
  return NULL;
}

static SpsTime
first_sample_ts (SpsTrace *trace)
{
  const SpsSampleTable *samples = sps_trace_get_samples (trace);
  SpsTime first = SPS_TIME_MAX;

  /* Samples are sorted by track first */
  for (guint i = 0; i < samples->n_rows; i++)
    first = MIN (first, samples->ts[i]);
  return first;
}

static void
test_perfview_cpu (void)
{
  g_autoptr(GBytes) etl = sps_test_shared_zip_member ("diagsession", "perfview__net.4.5.2.x86.etl.zip",
                                                      "net.4.5.2.x86.etl");
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(SpsEtlImport) import = sps_etl_import_new (builder, sps_xca_decompress_buffer);
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  const SpsEtlImportStats *stats;
  SpsEtlKernel *kernel;

  g_test_summary ("PerfView's compressed CPU trace: the record, sample and stack counts of "
                  "its README, and samples with managed and native frames per process");
  if (etl == NULL)
    return;

  g_assert_true (sps_etl_import_read (import, etl, "net.4.5.2.x86.etl", &error));
  g_assert_no_error (error);
  sps_etl_import_finish (import);
  stats = sps_etl_import_get_stats (import);
  kernel = sps_etl_import_get_kernel (import);

  /* The README's counts, from an independent reader */
  g_assert_cmpuint (stats->reader.n_buffers, ==, 276);
  g_assert_cmpuint (stats->reader.n_compressed_buffers, ==, 275);
  g_assert_cmpuint (stats->reader.n_skipped_buffers, ==, 0);
  g_assert_cmpuint (stats->reader.n_records[SPS_ETL_RECORD_SYSTEM], ==, 4472 + 2);
  g_assert_cmpuint (stats->reader.n_records[SPS_ETL_RECORD_PERFINFO], ==, 115091);
  g_assert_cmpuint (stats->reader.n_records[SPS_ETL_RECORD_FULL], ==, 8162 + 73);
  g_assert_cmpuint (stats->reader.n_records[SPS_ETL_RECORD_EVENT_HEADER], ==, 39425 + 1073);
  /* System32, classic 32 and EventHeader32 records */
  g_assert_cmpuint (stats->reader.n_records_32, ==, 2 + 73 + 39425);
  g_assert_cmpuint (kernel->n_samples, ==, 88809);
  g_assert_cmpuint (kernel->n_stack_events, ==, 229);
  g_assert_cmpuint (kernel->n_key_refs_kernel, ==, 3640);
  g_assert_cmpuint (kernel->n_key_refs_user, ==, 8532);
  g_assert_cmpuint (kernel->n_key_definitions, ==, 3049);
  g_assert_cmpuint (kernel->n_key_rundowns, ==, 1024);
  /* Each of the README's 7,367 stack events that share (timestamp,
   * thread) with a sample gives it a stack part: a key reference takes
   * its key's next definition in time (the slot's eviction, or the
   * rundown). Matched in file order instead, 82 came after their key's
   * last definition: the processors' buffers interleave in the file. */
  g_assert_cmpuint (kernel->n_stacks_attached, ==, 7367);
  g_assert_cmpuint (kernel->n_keys_unresolved, ==, 0);
  /* 13,783 MethodDCEndVerbose, 405 MethodLoadVerbose, 271 MethodUnloadVerbose */
  g_assert_cmpuint (stats->clr_method_events, ==, 13783 + 405 + 271);
  g_assert_cmpuint (stats->samples_with_stack, ==, 6806);

  /* PerfView's baseline for the file: 35 Process/DCStart and 1
   * Process/Start; 1,810 Image/DCStart and 57 Image/Load */
  g_assert_cmpuint (kernel->processes->len, ==, 36);
  g_assert_cmpuint (kernel->images->len, ==, 1810 + 57);

  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sps_trace_get_samples (trace)->n_rows, ==, 88809);
  g_assert_cmpstr (process_name (trace, 3644), ==, "Test.x86.exe");
  g_assert_cmpstr (process_name (trace, 3988), ==, "PerfView.exe");
  g_assert_cmpstr (process_name (trace, 0), ==, "Idle");
  /* Every sample is on a process of its thread: those of the idle thread
   * (tid 0) and the others, PerfView keeping 6,810 of them (the others
   * and the idle ones that ran a DPC or an ISR) */
  g_assert_cmpuint (samples_of_process (trace, 0), ==, 82128);
  g_assert_cmpuint (88809 - samples_of_process (trace, 0), <=, 6810);
  /* The test program's managed code, named through the runtime's events
   * (EventHeader32 records of the 32-bit process) */
  g_assert_cmpuint (samples_named (trace, "mscorlib!System.DateTime.GetDatePart(int32)"), >, 0);
  /* The first sample, as the baseline shows it: 18.627 ms after the
   * trace's start (ticks of a 10 MHz clock, in ns); the trace starts with
   * the header event, at 0 */
  g_assert_cmpint (first_sample_ts (trace), ==, 18627300);
  g_assert_cmpint (sps_trace_get_start_time (trace), ==, 0);
}

/* The members of @zip_name read as one session; NULL when the shared
 * fixtures are not there */
static SpsTrace *
import_members (const char         *zip_name,
                const char * const *members)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(SpsEtlImport) import = sps_etl_import_new (builder, sps_xca_decompress_buffer);
  g_autoptr(GError) error = NULL;
  SpsTrace *trace;

  g_autoptr(GPtrArray) etls = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  /* The files' headers first: they set the session's clock */
  for (guint i = 0; members[i] != NULL; i++)
    {
      GBytes *etl = sps_test_shared_zip_member ("diagsession", zip_name, members[i]);

      if (etl == NULL)
        return NULL;
      sps_etl_import_add_clock (import, etl);
      g_ptr_array_add (etls, etl);
    }
  for (guint i = 0; members[i] != NULL; i++)
    {
      g_assert_true (sps_etl_import_read (import, g_ptr_array_index (etls, i), members[i], &error));
      g_assert_no_error (error);
    }
  sps_etl_import_finish (import);
  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);
  return trace;
}

static gint64
count (SpsSqlEngine *engine,
       const char   *where)
{
  g_autofree char *sql = g_strdup_printf ("SELECT COUNT(*) FROM events_raw WHERE %s", where);
  g_autoptr(SpsSqlResult) result = sps_test_sql_query (engine, sql);

  return sps_sql_result_get_int64 (result, 0, 0);
}

static SpsSqlEngine *
new_engine (SpsTrace *trace)
{
  g_autoptr(GError) error = NULL;
  SpsSqlEngine *engine = sps_sql_engine_new (trace, &error);

  g_assert_no_error (error);
  return engine;
}

/* README: 69 CLR GC events (GCStart v2 ×2, GCEnd v1 ×2, GCAllocationTick
 * v4 ×12, …); the rest of the file is the kernel's trace header */
static void
test_gcevents (void)
{
  static const char * const members[] = { "gcevents/PerfViewData.etl", NULL };
  g_autoptr(SpsTrace) trace = import_members ("perfview__gcevents.etl.zip", members);
  g_autoptr(SpsSqlEngine) engine = NULL;

  if (trace == NULL)
    return;
  engine = new_engine (trace);
  g_assert_cmpint (count (engine, "provider = 'Microsoft-Windows-DotNETRuntime'"), ==, 69);
  g_assert_cmpint (count (engine, "name = 'Microsoft-Windows-DotNETRuntime/GC/Start' AND id = 1 AND version = 2"), ==, 2);
  g_assert_cmpint (count (engine, "name = 'Microsoft-Windows-DotNETRuntime/GC/Stop' AND version = 1"), ==, 2);
  g_assert_cmpint (count (engine, "name = 'Microsoft-Windows-DotNETRuntime/GC/AllocationTick' AND version = 4"), ==, 12);
  g_assert_cmpint (count (engine, "name = 'Microsoft-Windows-DotNETRuntime/GC/MarkWithType' AND id = 202"), ==, 13);
  g_assert_cmpint (count (engine, "provider = 'Windows Kernel'"), ==, 2);
  g_assert_cmpint (count (engine, "1"), ==, 71);
}

/* A TRACE_EVENT_INFO as KernelTraceControl's MetaData/EventInfo writes
 * it: the fixed part, then the provider's, task's and opcode's names */
static GByteArray *
event_info_payload (guint16     id,
                    guint8      opcode,
                    const char *provider,
                    const char *task,
                    const char *opcode_name)
{
  GByteArray *out = g_byte_array_new ();
  const char *names[] = { provider, task, opcode_name };
  const guint at[] = { 52, 68, 72 };

  g_byte_array_set_size (out, 112);
  memset (out->data, 0, 112);
  for (guint i = 0; i < 16; i++)
    out->data[i] = (guint8) (0xa0 + i);
  out->data[32] = id & 0xff;
  out->data[33] = id >> 8;
  out->data[37] = opcode;
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      guint32 offset = out->len;

      if (names[i] == NULL)
        continue;
      memcpy (out->data + at[i], &offset, 4);
      for (const char *c = names[i]; ; c++)
        {
          guint8 unit[2] = { (guint8) *c, 0 };

          g_byte_array_append (out, unit, 2);
          if (*c == '\0')
            break;
        }
    }
  return out;
}

static void
test_event_info (void)
{
  g_autoptr(GByteArray) start = event_info_payload (1, 1, "Microsoft-Windows-Kernel-Process", "ProcessStart", "win:Start");
  g_autoptr(GByteArray) info_op = event_info_payload (12, 0, "Microsoft-Windows-Kernel-File", "Create", "win:Info");
  g_autoptr(GByteArray) custom = event_info_payload (14, 18, "P", "ETW_TASK_PROVIDER", "ETW_OPCODE_ENABLE");
  g_autoptr(GByteArray) no_task = event_info_payload (3, 0, "P", NULL, NULL);
  g_autoptr(GByteArray) outside = event_info_payload (3, 0, "P", "T", NULL);
  g_auto(SpsEtlEventInfo) info = { 0 };

  g_test_summary ("MetaData/EventInfo descriptions: provider and Task[/Opcode] names as TraceEvent builds "
                  "them (win: dropped, Info left out); short payloads, names outside the payload or no "
                  "task name describe nothing");

  g_assert_true (sps_etl_event_info_parse (start->data, start->len, &info));
  g_assert_cmpuint (info.id, ==, 1);
  g_assert_cmpuint (info.provider[0], ==, 0xa0);
  g_assert_cmpstr (info.provider_name, ==, "Microsoft-Windows-Kernel-Process");
  g_assert_cmpstr (info.event_name, ==, "ProcessStart/Start");
  sps_etl_event_info_clear (&info);
  g_assert_true (sps_etl_event_info_parse (info_op->data, info_op->len, &info));
  g_assert_cmpstr (info.event_name, ==, "Create");
  sps_etl_event_info_clear (&info);
  g_assert_true (sps_etl_event_info_parse (custom->data, custom->len, &info));
  g_assert_cmpstr (info.event_name, ==, "ETW_TASK_PROVIDER/ETW_OPCODE_ENABLE");
  sps_etl_event_info_clear (&info);

  g_assert_false (sps_etl_event_info_parse (no_task->data, no_task->len, &info));
  g_assert_null (info.provider_name);
  g_assert_false (sps_etl_event_info_parse (start->data, 111, &info));
  /* The task's name points past the end: its offset as the payload's size */
  {
    guint32 past = outside->len;

    memcpy (outside->data + 68, &past, 4);
    g_assert_false (sps_etl_event_info_parse (outside->data, outside->len, &info));
  }
}

/* The runtime's tables are searched by halves: every id must be found,
 * including those once out of order (82 before 81) */
static void
test_manifest_tables (void)
{
  g_test_summary ("The runtime's and its private provider's event names by id, as TraceEvent names them");

  g_assert_cmpstr (sps_ms_manifest_event_name (SPS_MS_PROVIDER_CLR_RUNTIME, 80), ==, "Exception/Start");
  g_assert_cmpstr (sps_ms_manifest_event_name (SPS_MS_PROVIDER_CLR_RUNTIME, 81), ==, "Contention/Start");
  g_assert_cmpstr (sps_ms_manifest_event_name (SPS_MS_PROVIDER_CLR_RUNTIME, 82), ==, "ClrStack/Walk");
  g_assert_cmpstr (sps_ms_manifest_event_name (SPS_MS_PROVIDER_CLR_PRIVATE, 2), ==, "GC/Settings");
  g_assert_cmpstr (sps_ms_manifest_event_name (SPS_MS_PROVIDER_CLR_PRIVATE, 10), ==, "GC/MarkCards");
  g_assert_cmpstr (sps_ms_manifest_event_name (SPS_MS_PROVIDER_CLR_PRIVATE, 188), ==, "NgenBinder/NgenBind");
  g_assert_cmpstr (sps_ms_manifest_event_name (SPS_MS_PROVIDER_CLR_PRIVATE, 191), ==, "FailFast");
  g_assert_cmpstr (sps_ms_manifest_event_name (SPS_MS_PROVIDER_CLR_PRIVATE, 413), ==,
                   "ClrDynamicTypeUsage/ObjectVariantMarshallingToManaged");
  g_assert_null (sps_ms_manifest_event_name (SPS_MS_PROVIDER_CLR_PRIVATE, 414));
}

static void
test_net452 (void)
{
  static const char * const members[] = { "net.4.5.2.x86.etl", NULL };
  g_autoptr(SpsTrace) trace = import_members ("perfview__net.4.5.2.x86.etl.zip", members);
  g_autoptr(SpsSqlEngine) engine = NULL;
  g_autofree char *method = NULL;
  g_autofree char *image = NULL;
  g_autofree char *process = NULL;

  if (trace == NULL)
    return;
  engine = new_engine (trace);

  /* What PerfView's baseline counts: 35 Process/DCStart, 1,810
   * Image/DCStart; its 395 MethodLoadVerbose are 405 in the file (the
   * README's count too; docs/file-formats.md) */
  g_assert_cmpint (count (engine, "name = 'Windows Kernel/Process/DCStart'"), ==, 35);
  g_assert_cmpint (count (engine, "name = 'Windows Kernel/Image/DCStart'"), ==, 1810);
  g_assert_cmpint (count (engine, "name = 'Windows Kernel/Image/Load'"), ==, 57);
  g_assert_cmpint (count (engine, "name = 'Microsoft-Windows-DotNETRuntime/Method/LoadVerbose'"), ==, 405);
  g_assert_cmpint (count (engine, "name = 'Microsoft-Windows-DotNETRuntime/Method/UnloadVerbose'"), ==, 271);
  g_assert_cmpint (count (engine, "name = 'Microsoft-Windows-DotNETRuntimeRundown/Method/DCStopVerbose'"
                                  " AND id = 144 AND version = 1"), ==, 13783);
  /* EventSources known only by their GUID are named by the manifests
   * they log, as PerfView names them: PerfView's own (108 events, its
   * manifest's chunks included) and the framework's */
  g_assert_cmpint (count (engine, "provider = 'PerfView'"), ==, 108);
  g_assert_cmpint (count (engine, "name = 'PerfView/PerfViewLog'"), ==, 53);
  g_assert_cmpint (count (engine, "name = 'PerfView/ManifestData'"), ==, 2);
  g_assert_cmpint (count (engine, "name = 'System.Diagnostics.Eventing.FrameworkEventSource/ThreadPoolEnqueueWork'"), ==, 3);
  g_assert_cmpint (count (engine, "provider LIKE '{a8a71ac1%' OR provider LIKE '{8e9f5090%'"), ==, 0);
  /* The network's events by TraceEvent's opcode names (IPv4 and IPv6) */
  g_assert_cmpint (count (engine, "name = 'Windows Kernel/TcpIp/RecvIPV6'"), ==, 241);
  g_assert_cmpint (count (engine, "name = 'Windows Kernel/TcpIp/SendIPV6'"), ==, 232);
  g_assert_cmpint (count (engine, "name = 'Windows Kernel/TcpIp/Accept'"), ==, 1);
  g_assert_cmpint (count (engine, "name = 'Windows Kernel/UdpIp/Send'"), ==, 16);
  g_assert_cmpint (count (engine, "name = 'Windows Kernel/UdpIp/RecvIPV6'"), ==, 6);
  g_assert_cmpint (count (engine, "(name LIKE 'Windows Kernel/TcpIp/%' OR name LIKE 'Windows Kernel/UdpIp/%')"
                                  " AND name LIKE '%Opcode(%'"), ==, 0);
  /* Providers known by GUID only, named by the descriptions of their
   * events the merge wrote (MetaData/EventInfo), as PerfView's baseline
   * names them */
  g_assert_cmpint (count (engine, "name = 'Microsoft-Windows-Kernel-File/Create'"), ==, 968);
  g_assert_cmpint (count (engine, "name = 'Microsoft-Windows-Kernel-EventTracing/ETW_TASK_PROVIDER/ETW_OPCODE_REGISTER'"),
                   ==, 38);
  g_assert_cmpint (count (engine, "name = 'Microsoft-Windows-Kernel-Process/ProcessStart/Start'"), ==, 1);
  g_assert_cmpint (count (engine, "name = 'Microsoft-Windows-Immersive-Shell/ImmersiveShellAppManagerSetActiveProcess/Stop'"),
                   ==, 3);
  g_assert_cmpint (count (engine, "name = 'Microsoft-Windows-DNS-Client/DnsServerForInterface'"), ==, 4);
  g_assert_cmpint (count (engine, "provider LIKE '{%'"), ==, 0);
  /* The private provider's events by TraceEvent's names, as PerfView's
   * baseline counts them */
  g_assert_cmpint (count (engine, "name = 'Microsoft-Windows-DotNETRuntimePrivate/GC/PerHeapHistory'"), ==, 80);
  g_assert_cmpint (count (engine, "name = 'Microsoft-Windows-DotNETRuntimePrivate/Binding/FusionMessage'"), ==, 20);
  g_assert_cmpint (count (engine, "name = 'Microsoft-Windows-DotNETRuntimePrivate/NgenBinder/NgenBind'"), ==, 2);
  g_assert_cmpint (count (engine, "name LIKE 'Microsoft-Windows-DotNETRuntimePrivate/EventID(%'"), ==, 0);
  /* Kernel events by TraceEvent's task and opcode names; the trace's
   * header (opcode Info) by its task alone */
  g_assert_cmpint (count (engine, "name = 'Windows Kernel/DiskIO/Read'"), ==, 2339);
  g_assert_cmpint (count (engine, "name = 'Windows Kernel/Memory/HardFault'"), ==, 394);
  g_assert_cmpint (count (engine, "name = 'Windows Kernel/FileIO/FileRundown'"), ==, 2917);
  g_assert_cmpint (count (engine, "name = 'Windows Kernel/EventTrace'"), ==, 1);
  /* Samples and stack walks are the sample table, not events */
  g_assert_cmpint (count (engine, "name LIKE 'Windows Kernel/PerfInfo/Sample%' OR name LIKE 'Windows Kernel/StackWalk/%'"), ==, 0);
  g_assert_cmpuint (sps_trace_get_samples (trace)->n_rows, ==, 88809);

  /* Decoded fields: a method of the 32-bit program (EventHeader32), an
   * image of the kernel's rundown (64-bit system records) */
  method = sps_test_first_event_args (engine, "Microsoft-Windows-DotNETRuntime/Method/LoadVerbose");
  g_assert_cmpstr (method, ==,
                   "{\"MethodID\":56584768,\"ModuleID\":25571344,\"MethodStartAddress\":171234328,"
                   "\"MethodSize\":52,\"MethodToken\":100664480,\"MethodFlags\":8,"
                   "\"MethodNamespace\":\"System.DateTime\",\"MethodName\":\"op_Subtraction\","
                   "\"MethodSignature\":\"value class System.TimeSpan  (value class System.DateTime,"
                   "value class System.DateTime)\",\"ClrInstanceID\":11}");
  image = sps_test_first_event_args (engine, "Windows Kernel/Image/DCStart");
  g_assert_cmpstr (image, ==,
                   "{\"ImageBase\":2003894272,\"ImageSize\":1404928,\"ProcessId\":4,"
                   "\"ImageCheckSum\":1450643,\"TimeDateStamp\":0,\"Reserved0\":0,"
                   "\"DefaultBase\":2003894272,\"Reserved1\":0,\"Reserved2\":0,\"Reserved3\":0,"
                   "\"Reserved4\":0,\"FileName\":\"\\\\Device\\\\HarddiskVolume2\\\\Windows"
                   "\\\\SysWOW64\\\\ntdll.dll\"}");
  /* Process events: the fixed fields, then the names after the user's
   * SID (whose size varies), as PerfView's baseline prints them: the idle
   * process of the rundown (no SID, session -1), and the test program's
   * start (a SID with 5 sub-authorities; Flags 2 is Wow64) */
  process = sps_test_first_event_args (engine, "Windows Kernel/Process/DCStart");
  g_assert_cmpstr (process, ==,
                   "{\"UniqueProcessKey\":18446735278178406912,\"ProcessId\":0,\"ParentId\":0,"
                   "\"SessionId\":-1,\"ExitStatus\":0,\"DirectoryTableBase\":1601536,\"Flags\":0,"
                   "\"ImageFileName\":\"Idle\",\"CommandLine\":\"\"}");
  g_free (process);
  process = sps_test_first_event_args (engine, "Windows Kernel/Process/Start");
  g_assert_cmpstr (process, ==,
                   "{\"UniqueProcessKey\":18446738039293243520,\"ProcessId\":3644,\"ParentId\":3508,"
                   "\"SessionId\":1,\"ExitStatus\":259,\"DirectoryTableBase\":45404160,\"Flags\":2,"
                   "\"ImageFileName\":\"Test.x86.exe\",\"CommandLine\":\"Test.x86.exe\"}");
  /* A payload of unknown layout: its bytes */
  g_assert_cmpint (count (engine, "name = 'Windows Kernel/DiskIO/Read' AND args LIKE '{\"payload_size\":%'"),
                   ==, 2339);

  /* The args are decoded from the file's buffers when read: every
   * event's with a payload is deferred, and each decodes to JSON */
  {
    const SpsInstantTable *instants = sps_trace_get_instants (trace);
    guint n_deferred = 0;
    guint n_text = 0;

    for (guint i = 0; i < instants->n_rows; i++)
      if (instants->kind[i] == SPS_INSTANT_KIND_EVENT && instants->args[i] != SPS_ARGS_REF_NONE)
        {
          if (sps_args_ref_is_deferred (instants->args[i]))
            n_deferred++;
          else
            n_text++;
        }
    g_assert_cmpuint (n_text, ==, 0);
    g_assert_cmpint (n_deferred, ==, count (engine, "args IS NOT NULL"));
    g_assert_cmpint (count (engine, "args IS NOT NULL AND json_valid(args)"), ==, n_deferred);
  }
}

/* PerfView's test merges the four files: 95,506 events, 55
 * Activity2Stop/Stop (DiagnosticSource in self-describing mode, named
 * from its TraceLogging schema). Its count leaves out the runtime's
 * 5,247 IL-to-native maps, which are kept here. */
static void
test_diaghub (void)
{
  static const char * const members[] = {
    "diaghub-dotnetcore3.1-win-x64-diagsession/diaghub.etl",
    "diaghub-dotnetcore3.1-win-x64-diagsession/diaghub.kernel.1.etl",
    "diaghub-dotnetcore3.1-win-x64-diagsession/diaghub.user_injected.1.etl",
    "diaghub-dotnetcore3.1-win-x64-diagsession/diaghub.user_paged.1.etl",
    NULL
  };
  g_autoptr(SpsTrace) trace = import_members ("perfview__diaghub-dotnetcore3.1-win-x64-diagsession.etls.zip", members);
  g_autoptr(SpsSqlEngine) engine = NULL;

  if (trace == NULL)
    return;
  engine = new_engine (trace);
  g_assert_cmpint (count (engine, "1"), ==, 100753);
  g_assert_cmpint (count (engine, "name = 'Microsoft-Windows-DotNETRuntime/Method/ILToNativeMap'"), ==, 5247);
  g_assert_cmpint (count (engine, "name <> 'Microsoft-Windows-DotNETRuntime/Method/ILToNativeMap'"), ==, 95506);
  g_assert_cmpint (count (engine, "name = 'Microsoft-Diagnostics-DiagnosticSource/Activity2Stop/Stop'"), ==, 55);
  /* Diagnostics Hub's own events, by id (no manifest in the files) */
  g_assert_cmpint (count (engine, "provider = 'DiagnosticsHub'"), ==, 3);
  g_assert_cmpint (count (engine, "name = 'KernelTraceControl/ImageID'"), ==, 15423);
  g_assert_cmpint (count (engine, "name = 'KernelTraceControl/ImageID/DbgID_RSDS'"), ==, 15076);
  /* The other image id events by their opcodes (0x20, 0x25, 0x26, 0x28,
   * 0x40), as TraceEvent's symbol parser names them */
  g_assert_cmpint (count (engine, "name = 'KernelTraceControl/ImageID/None'"), ==, 347);
  g_assert_cmpint (count (engine, "name = 'KernelTraceControl/ImageID/DbgID_ILRSDS'"), ==, 1682);
  g_assert_cmpint (count (engine, "name = 'KernelTraceControl/ImageID/DbgPPDB'"), ==, 14154);
  g_assert_cmpint (count (engine, "name = 'KernelTraceControl/ImageID/DbgDeterm'"), ==, 13054);
  g_assert_cmpint (count (engine, "name = 'KernelTraceControl/ImageID/FileVersion'"), ==, 2605);
  g_assert_cmpint (count (engine, "name LIKE 'KernelTraceControl/Opcode(%'"), ==, 0);
  /* Each of the four files' own EventTrace events, and the system
   * configuration's IDE channels, by TraceEvent's names */
  g_assert_cmpint (count (engine, "name = 'Windows Kernel/EventTrace'"), ==, 4);
  g_assert_cmpint (count (engine, "name = 'Windows Kernel/EventTrace/Extension'"), ==, 4);
  g_assert_cmpint (count (engine, "name = 'Windows Kernel/EventTrace/EndExtension'"), ==, 4);
  g_assert_cmpint (count (engine, "name = 'Windows Kernel/EventTrace/RundownComplete'"), ==, 4);
  g_assert_cmpint (count (engine, "name = 'Windows Kernel/SystemConfig/IDEChannel'"), ==, 2);
  /* The SysConfig and MetaData tasks' events, under GUIDs of their own:
   * by TraceEvent's names (its kernel and symbol parsers); opcode 37 of
   * SysConfig is one it does not name either */
  g_assert_cmpint (count (engine, "name = 'Windows Kernel/SysConfig/BuildInfo'"), ==, 1);
  g_assert_cmpint (count (engine, "name = 'Windows Kernel/SysConfig/SystemPaths'"), ==, 1);
  g_assert_cmpint (count (engine, "name = 'Windows Kernel/SysConfig/UnknownVolume'"), ==, 1);
  g_assert_cmpint (count (engine, "name = 'Windows Kernel/SysConfig/VolumeMapping'"), ==, 9);
  g_assert_cmpint (count (engine, "name = 'Windows Kernel/SysConfig/Opcode(37)'"), ==, 1);
  g_assert_cmpint (count (engine, "name = 'KernelTraceControl/MetaData/EventInfo'"), ==, 17);
  g_assert_cmpint (count (engine, "name = 'KernelTraceControl/MetaData/EventMapInfo'"), ==, 7);
  g_assert_cmpint (count (engine, "provider LIKE '{9b79ee91%' OR provider LIKE '{bbccf6c1%'"), ==, 0);
  /* Their headers name a process but no thread (0xFFFFFFFF): thread -1
   * of that process, as TraceEvent reports the ThreadID; System (pid 4)
   * has 13 of them */
  g_assert_cmpint (count (engine, "thread IN (SELECT id FROM threads WHERE tid = -1)"), ==, 74856);
  g_assert_cmpint (count (engine, "thread IN (SELECT t.id FROM threads t JOIN processes p ON p.id = t.process_id"
                                  " WHERE t.tid = -1 AND p.pid = 4)"), ==, 13);
  g_assert_cmpint (count (engine, "thread IN (SELECT id FROM threads WHERE tid = 4294967295)"), ==, 0);
  /* TPL's events, named by the manifest it logged (ManifestData) */
  g_assert_cmpint (count (engine, "name = 'System.Threading.Tasks.TplEventSource/TaskScheduled/Send'"), ==, 6);
  g_assert_cmpint (count (engine, "name = 'System.Threading.Tasks.TplEventSource/TaskStarted'"), ==, 6);
  g_assert_cmpint (count (engine, "name = 'System.Threading.Tasks.TplEventSource/TaskCompleted'"), ==, 6);
  g_assert_cmpint (count (engine, "name = 'System.Threading.Tasks.TplEventSource/ManifestData'"), ==, 2);
  /* Unknown providers are named by their GUID */
  g_assert_cmpint (count (engine, "provider = '{6f669bfa-816a-4204-a824-47c8e6a00474}'"), ==, 2);

  /* The manifest's templates decode TPL's payloads. Checked by hand with
   * a throw-away reader of diaghub.user_paged.1.etl's EventHeader
   * records: the earliest TaskScheduled (id 7, ticks 13,824,488,816) holds
   * six little-endian int32s 1, 0, 1, 0, 0x2008, 1; the earliest
   * TaskCompleted (id 9) 1, 0, 1 and a 4-byte Boolean 0 */
  {
    g_autofree char *scheduled = sps_test_first_event_args (engine, "System.Threading.Tasks.TplEventSource/TaskScheduled/Send");
    g_autofree char *completed = sps_test_first_event_args (engine, "System.Threading.Tasks.TplEventSource/TaskCompleted");
    g_autofree char *stop = sps_test_first_event_args (engine, "Microsoft-Diagnostics-DiagnosticSource/Activity2Stop/Stop");

    g_assert_cmpstr (scheduled, ==, "{\"OriginatingTaskSchedulerID\":1,\"OriginatingTaskID\":0,\"TaskID\":1,"
                                    "\"CreatingTaskID\":0,\"TaskCreationOptions\":8200,\"appDomain\":1}");
    g_assert_cmpstr (completed, ==, "{\"OriginatingTaskSchedulerID\":1,\"OriginatingTaskID\":0,\"TaskID\":1,"
                                    "\"IsExceptional\":false}");
    /* The TraceLogging schema of the earliest Activity2Stop (ticks
     * 13,844,851,042; 350 bytes of payload, read by the same reader):
     * two UTF-16 strings, then Arguments (in-type 0xd8: a struct, an
     * array counted by a u16 in the payload, 2 members Key and Value),
     * here 3 pairs of UTF-16 strings */
    g_assert_cmpstr (stop, ==, "{\"SourceName\":\"Microsoft.EntityFrameworkCore\","
                               "\"EventName\":\"Microsoft.EntityFrameworkCore.Database.Command.DataReaderDisposing\","
                               "\"Arguments\":[{\"Key\":\"CommandId\",\"Value\":\"28a2c8e9-72bd-4c34-a319-f55779b1d470\"},"
                               "{\"Key\":\"RecordsAffected\",\"Value\":\"1\"},"
                               "{\"Key\":\"ReadCount\",\"Value\":\"1\"}]}");
    /* Every TPL and DiagnosticSource event is decoded, none left raw */
    g_assert_cmpint (count (engine, "(provider = 'System.Threading.Tasks.TplEventSource' OR "
                                    "provider = 'Microsoft-Diagnostics-DiagnosticSource') AND "
                                    "name NOT LIKE '%/ManifestData' AND args LIKE '%payload_%'"), ==, 0);
    g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 0);
  }
}

/* PerfView's primitive-types.etl: 5 TraceLogging events of every
 * primitive type. The first one's values are PerfView's baseline
 * (primitive-types.baseline.txt: Mercury, False, 77, -51, -102, 51, 102,
 * -204, 204, guid 0ad614c4-0ef4-4225-8…), and by hand from its bytes at
 * offset 8,563 of the file: the GUID's last bytes 80 13 f4 4f 37 cb 03 97,
 * the FILETIME 0x01d7a58b4dfa1070 (2021-09-09 14:59:35.799 UTC), the
 * SYSTEMTIME 2021, 9, (Thursday), 9, 14, 59, 35, 799. The boolean is a
 * UInt8 whose out-type says boolean; the char a UInt8 shown as a number,
 * as PerfView shows it. The provider is named by its traits
 * ("solar_system", the name PerfView prints). The schema declares int64_type a UInt64 (in-type
 * 10, as uint64_type): its bytes 34 ff ff ff ff ff ff ff are
 * 18,446,744,073,709,551,412 unsigned, which PerfView shows as -204
 * because TraceEvent reads unsigned integers into signed ones. */
static void
test_primitive_types (void)
{
  static const char * const members[] = { "primitive-types.etl", NULL };
  g_autoptr(SpsTrace) trace = import_members ("perfview__primitive-types.etl.zip", members);
  g_autoptr(SpsSqlEngine) engine = NULL;
  g_autofree char *args = NULL;

  if (trace == NULL)
    return;
  engine = new_engine (trace);
  g_assert_cmpint (count (engine, "name = 'solar_system/PrimitiveTypesTest'"), ==, 5);
  args = sps_test_first_event_args (engine, "solar_system/PrimitiveTypesTest");
  g_assert_cmpstr (args, ==, "{\"string_type\":\"Mercury\",\"boolean_type\":false,\"char_type\":77,"
                             "\"int16_type\":-51,\"int32_type\":-102,\"uint16_type\":51,\"uint32_type\":102,"
                             "\"int64_type\":18446744073709551412,\"uint64_type\":204,"
                             "\"guid_type\":\"0ad614c4-0ef4-4225-8013-f44f37cb0397\","
                             "\"file_time_type\":\"2021-09-09T14:59:35.7990000Z\","
                             "\"system_time_type\":\"2021-09-09T14:59:35.799\"}");
}

/* A ManifestData payload: the envelope, then @xml */
static GByteArray *
manifest_chunk (guint8      magic,
                guint16     total,
                guint16     chunk,
                const char *xml)
{
  GByteArray *out = g_byte_array_new ();
  guint8 envelope[8] = { 1, 1, 0, magic, total & 0xff, total >> 8, chunk & 0xff, chunk >> 8 };

  g_byte_array_append (out, envelope, sizeof envelope);
  g_byte_array_append (out, (const guint8 *) xml, (guint) strlen (xml));
  return out;
}

/* An EventSource manifest in two chunks names its events (Info left out,
 * win: dropped, a custom opcode kept); chunks out of order, a bad magic
 * or a chunk number past the count name nothing */
static void
test_manifest_chunks (void)
{
  static const char head[] = "<instrumentationManifest><instrumentation><events><provider name=\"P\">"
                             "<events><event value=\"7\" task=\"Sched\" opcode=\"win:Send\"/>";
  static const char tail[] = "<event value=\"8\" task=\"Started\" opcode=\"win:Info\"/>"
                             "<event value=\"9\" task=\"Custom\" opcode=\"Twirl\"/>"
                             "<event value=\"70000\" task=\"TooBig\"/><event value=\"10\"/>"
                             "</events></provider></events></instrumentation></instrumentationManifest>";
  g_autoptr(SpsEtlManifest) manifest = sps_etl_manifest_new ();
  g_autoptr(SpsEtlManifest) disordered = sps_etl_manifest_new ();
  g_autoptr(SpsEtlManifest) bad = sps_etl_manifest_new ();
  g_autoptr(GByteArray) c0 = manifest_chunk (0x5b, 2, 0, head);
  g_autoptr(GByteArray) c1 = manifest_chunk (0x5b, 2, 1, tail);
  g_autoptr(GByteArray) magic = manifest_chunk (0x5c, 1, 0, head);
  g_autoptr(GByteArray) past = manifest_chunk (0x5b, 1, 1, tail);

  g_assert_false (sps_etl_manifest_add_chunk (manifest, c0->data, c0->len));
  g_assert_null (sps_etl_manifest_lookup (manifest, 7));
  g_assert_null (sps_etl_manifest_get_provider_name (manifest));
  g_assert_true (sps_etl_manifest_add_chunk (manifest, c1->data, c1->len));
  g_assert_cmpstr (sps_etl_manifest_get_provider_name (manifest), ==, "P");
  g_assert_cmpstr (sps_etl_manifest_lookup (manifest, 7), ==, "Sched/Send");
  g_assert_cmpstr (sps_etl_manifest_lookup (manifest, 8), ==, "Started");
  g_assert_cmpstr (sps_etl_manifest_lookup (manifest, 9), ==, "Custom/Twirl");
  g_assert_null (sps_etl_manifest_lookup (manifest, 10));
  g_assert_null (sps_etl_manifest_lookup (manifest, 70000 & 0xffff));

  /* The same manifest again (a session's end) is not read again: its
   * names and layouts stay */
  {
    g_autoptr(GHashTable) layouts = sps_etl_manifest_ref_layouts (manifest);
    g_autoptr(GHashTable) again = NULL;
    g_autoptr(GByteArray) other = manifest_chunk (0x5b, 1, 0, "<instrumentationManifest><instrumentation>"
                                                  "<events><provider name=\"P\"><events>"
                                                  "<event value=\"7\" task=\"Other\"/></events></provider>"
                                                  "</events></instrumentation></instrumentationManifest>");

    g_assert_false (sps_etl_manifest_add_chunk (manifest, c0->data, c0->len));
    g_assert_false (sps_etl_manifest_add_chunk (manifest, c1->data, c1->len));
    again = sps_etl_manifest_ref_layouts (manifest);
    g_assert_true (again == layouts);
    g_assert_cmpstr (sps_etl_manifest_lookup (manifest, 8), ==, "Started");
    /* Another one is */
    g_assert_true (sps_etl_manifest_add_chunk (manifest, other->data, other->len));
    g_assert_cmpstr (sps_etl_manifest_lookup (manifest, 7), ==, "Other");
  }

  g_assert_false (sps_etl_manifest_add_chunk (disordered, c1->data, c1->len));
  g_assert_false (sps_etl_manifest_add_chunk (disordered, c1->data, c1->len));
  g_assert_null (sps_etl_manifest_lookup (disordered, 9));
  g_assert_false (sps_etl_manifest_add_chunk (bad, magic->data, magic->len));
  g_assert_false (sps_etl_manifest_add_chunk (bad, past->data, past->len));
  g_assert_false (sps_etl_manifest_add_chunk (bad, c0->data, 7));
  g_assert_null (sps_etl_manifest_lookup (bad, 7));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/etl/import/perfview-cpu", test_perfview_cpu);
  g_test_add_func ("/etl/import/events/gcevents", test_gcevents);
  g_test_add_func ("/etl/import/events/net452", test_net452);
  g_test_add_func ("/etl/import/events/manifest-tables", test_manifest_tables);
  g_test_add_func ("/etl/import/events/event-info", test_event_info);
  g_test_add_func ("/etl/import/events/diaghub-merged", test_diaghub);
  g_test_add_func ("/etl/import/events/manifest-chunks", test_manifest_chunks);
  g_test_add_func ("/etl/import/events/tracelogging-primitive-types", test_primitive_types);

  return g_test_run ();
}
