/* sps-ms-events.c: PerfView's names of the runtime's events; raw payload args
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * EventPipe metadata of the runtime's providers has neither an event name
 * nor fields, and ETW's manifest events carry only their id: the names
 * come from the runtime's manifest (task and opcode of each id), as
 * PerfView prints them. Ids missing here are named `EventID(N)` by the
 * importers, as PerfView does for events it has no manifest for.
 */

#define G_LOG_DOMAIN "sps-mstrace"

#include "config.h"

#include <math.h>
#include <string.h>

#include "sps-clr-symbols.h"
#include "sps-ms-events.h"
#include "sps-mstrace-bytes.h"

typedef struct
{
  guint16     id;
  const char *name;
} ManifestEvent;

/* Sorted by id */
static const ManifestEvent runtime_events[] = {
  { 1, "GC/Start" },
  { 2, "GC/Stop" },
  { 3, "GC/RestartEEStop" },
  { 4, "GC/HeapStats" },
  { 5, "GC/CreateSegment" },
  { 6, "GC/FreeSegment" },
  { 7, "GC/RestartEEStart" },
  { 8, "GC/SuspendEEStop" },
  { 9, "GC/SuspendEEStart" },
  { 10, "GC/AllocationTick" },
  { 11, "GC/CreateConcurrentThread" },
  { 12, "GC/TerminateConcurrentThread" },
  { 13, "GC/FinalizersStop" },
  { 14, "GC/FinalizersStart" },
  { 15, "Type/BulkType" },
  { 16, "GC/BulkRootEdge" },
  { 17, "GC/BulkRootConditionalWeakTableElementEdge" },
  { 18, "GC/BulkNode" },
  { 19, "GC/BulkEdge" },
  { 20, "GC/SampledObjectAllocation" },
  { 21, "GC/BulkSurvivingObjectRanges" },
  { 22, "GC/BulkMovedObjectRanges" },
  { 23, "GC/GenerationRange" },
  { 25, "GC/MarkStackRoots" },
  { 26, "GC/MarkFinalizeQueueRoots" },
  { 27, "GC/MarkHandles" },
  { 28, "GC/MarkCards" },
  { 29, "GC/FinalizeObject" },
  { 30, "GC/SetGCHandle" },
  { 31, "GC/DestoryGCHandle" },
  { 32, "GC/SampledObjectAllocation" },
  { 33, "GC/PinObjectAtGCTime" },
  { 35, "GC/Triggered" },
  { 36, "GC/BulkRootCCW" },
  { 37, "GC/BulkRCW" },
  { 38, "GC/BulkRootStaticVar" },
  { 50, "ThreadPoolWorkerThread/Start" },
  { 51, "ThreadPoolWorkerThread/Stop" },
  { 52, "ThreadPoolWorkerThreadRetirement/Start" },
  { 53, "ThreadPoolWorkerThreadRetirement/Stop" },
  { 54, "ThreadPoolWorkerThreadAdjustment/Sample" },
  { 55, "ThreadPoolWorkerThreadAdjustment/Adjustment" },
  { 56, "ThreadPoolWorkerThreadAdjustment/Stats" },
  { 57, "ThreadPoolWorkerThread/Wait" },
  { 60, "ThreadPoolWorkingThreadCount/Start" },
  { 61, "ThreadPool/Enqueue" },
  { 62, "ThreadPool/Dequeue" },
  { 63, "ThreadPool/IOEnqueue" },
  { 64, "ThreadPool/IODequeue" },
  { 65, "ThreadPool/IOPack" },
  { 70, "Thread/Creating" },
  { 71, "Thread/Running" },
  { 80, "Exception/Start" },
  { 81, "Contention/Start" },
  { 82, "ClrStack/Walk" },
  { 85, "AppDomainResourceManagement/ThreadCreated" },
  { 91, "Contention/Stop" },
  { 141, "Method/Load" },
  { 142, "Method/Unload" },
  { 143, "Method/LoadVerbose" },
  { 144, "Method/UnloadVerbose" },
  { 145, "Method/JittingStarted" },
  { 146, "Method/MemoryAllocatedForJitCode" },
  { 151, "Loader/DomainModuleLoad" },
  { 152, "Loader/ModuleLoad" },
  { 153, "Loader/ModuleUnload" },
  { 154, "Loader/AssemblyLoad" },
  { 155, "Loader/AssemblyUnload" },
  { 156, "Loader/AppDomainLoad" },
  { 157, "Loader/AppDomainUnload" },
  { 158, "Loader/ModuleRangeLoad" },
  { 159, "Method/R2RGetEntryPoint" },
  { 160, "Method/R2RGetEntryPointStart" },
  { 185, "Method/InliningSucceeded" },
  { 186, "Method/InliningFailed" },
  { 187, "Runtime/Start" },
  { 188, "Method/TailCallSucceeded" },
  { 189, "Method/TailCallFailed" },
  { 190, "Method/ILToNativeMap" },
  /* IncreaseMemoryPressure and DecreaseMemoryPressure: opcode Info,
   * which PerfView leaves out of the name */
  { 200, "GC" },
  { 201, "GC" },
  { 202, "GC/MarkWithType" },
  { 203, "GC/JoinV2" },
  { 204, "GC/PerHeapHistory" },
  { 205, "GC/GlobalHeapHistory" },
  { 250, "Exception/CatchStart" },
  { 251, "Exception/CatchStop" },
  { 252, "Exception/FinallyStart" },
  { 253, "Exception/FinallyStop" },
  { 254, "Exception/FilterStart" },
  { 255, "Exception/FilterStop" },
  { 256, "Exception/Stop" },
};

static const ManifestEvent rundown_events[] = {
  { 0, "ClrStack/Walk" },
  { 141, "Method/DCStart" },
  { 142, "Method/DCStop" },
  { 143, "Method/DCStartVerbose" },
  { 144, "Method/DCStopVerbose" },
  { 145, "Method/DCStartComplete" },
  { 146, "Method/DCStopComplete" },
  { 147, "Method/DCStartInit" },
  { 148, "Method/DCStopInit" },
  { 149, "Method/ILToNativeMapDCStart" },
  { 150, "Method/ILToNativeMapDCStop" },
  { 151, "Loader/DomainModuleDCStart" },
  { 152, "Loader/DomainModuleDCStop" },
  { 153, "Loader/ModuleDCStart" },
  { 154, "Loader/ModuleDCStop" },
  { 155, "Loader/AssemblyDCStart" },
  { 156, "Loader/AssemblyDCStop" },
  { 157, "Loader/AppDomainDCStart" },
  { 158, "Loader/AppDomainDCStop" },
  { 159, "Loader/ThreadDCStop" },
  { 187, "Runtime/Start" },
  { 300, "ExecutionCheckpointRundown/ExecutionCheckpointDCEnd" },
};

/* The private provider's events, named as TraceEvent's parser of it
 * names them (its task, then its opcode) */
static const ManifestEvent private_events[] = {
  { 1, "GC/Decision" }, { 2, "GC/Settings" }, { 3, "GC/Optimized" }, { 4, "GC/PerHeapHistory" },
  { 5, "GC/GlobalHeapHistory" }, { 6, "GC/Join" }, { 7, "GC/MarkStackRoots" },
  { 8, "GC/MarkFinalizeQueueRoots" }, { 9, "GC/MarkHandles" }, { 10, "GC/MarkCards" },
  { 11, "GC/BGCStart" }, { 12, "GC/BGC1stNonCondStop" }, { 13, "GC/BGC1stConStop" },
  { 14, "GC/BGC2ndNonConStart" }, { 15, "GC/BGC2ndNonConStop" }, { 16, "GC/BGC2ndConStart" },
  { 17, "GC/BGC2ndConStop" }, { 18, "GC/BGCPlanStop" }, { 19, "GC/BGCSweepStop" },
  { 20, "GC/BGCDrainMark" }, { 21, "GC/BGCRevisit" }, { 22, "GC/BGCOverflow" },
  { 23, "GC/BGCAllocWaitStart" }, { 24, "GC/BGCAllocWaitStop" }, { 25, "GC/FullNotify" },
  { 80, "Startup/EEStartupStart" }, { 81, "Startup/EEStartupStop" },
  { 82, "Startup/EEConfigSetupStart" }, { 83, "Startup/EEConfigSetupStop" },
  { 84, "Startup/LoadSystemBasesStart" }, { 85, "Startup/LoadSystemBasesStop" },
  { 86, "Startup/ExecExeStart" }, { 87, "Startup/ExecExeStop" }, { 88, "Startup/MainStart" },
  { 89, "Startup/MainStop" }, { 90, "Startup/ApplyPolicyStart" },
  { 91, "Startup/ApplyPolicyStop" }, { 92, "Startup/LdLibShFolderStart" },
  { 93, "Startup/LdLibShFolderStop" }, { 94, "Startup/PrestubWorkerStart" },
  { 95, "Startup/PrestubWorkerStop" }, { 96, "Startup/GetInstallationStart" },
  { 97, "Startup/GetInstallationStop" }, { 98, "Startup/OpenHModuleStart" },
  { 99, "Startup/OpenHModuleStop" }, { 100, "Startup/ExplicitBindStart" },
  { 101, "Startup/ExplicitBindStop" }, { 102, "Startup/ParseXmlStart" },
  { 103, "Startup/ParseXmlStop" }, { 104, "Startup/InitDefaultDomainStart" },
  { 105, "Startup/InitDefaultDomainStop" }, { 106, "Startup/InitSecurityStart" },
  { 107, "Startup/InitSecurityStop" }, { 108, "Startup/AllowBindingRedirsStart" },
  { 109, "Startup/AllowBindingRedirsStop" }, { 110, "Startup/EEConfigSyncStart" },
  { 111, "Startup/EEConfigSyncStop" }, { 112, "Startup/BindingStart" },
  { 113, "Startup/BindingStop" }, { 114, "Startup/LoaderCatchCallStart" },
  { 115, "Startup/LoaderCatchCallStop" }, { 116, "Startup/FusionInitStart" },
  { 117, "Startup/FusionInitStop" }, { 118, "Startup/FusionAppCtxStart" },
  { 119, "Startup/FusionAppCtxStop" }, { 120, "Startup/Fusion2EEStart" },
  { 121, "Startup/Fusion2EEStop" }, { 122, "Startup/SecurityCatchCallStart" },
  { 123, "Startup/SecurityCatchCallStop" }, { 151, "ClrStack/Walk" },
  { 158, "ClrPerfTrack/ModuleRangeLoad" }, { 159, "Binding/PolicyPhaseStart" },
  { 160, "Binding/PolicyPhaseStop" }, { 161, "Binding/NgenPhaseStart" },
  { 162, "Binding/NgenPhaseStop" }, { 163, "Binding/LoopupAndProbingPhaseStart" },
  { 164, "Binding/LookupAndProbingPhaseStop" }, { 165, "Binding/LoaderPhaseStart" },
  { 166, "Binding/LoaderPhaseStop" }, { 167, "Binding/PhaseStart" }, { 168, "Binding/PhaseStop" },
  { 169, "Binding/DownloadPhaseStart" }, { 170, "Binding/DownloadPhaseStop" },
  { 171, "Binding/LoaderAssemblyInitPhaseStart" }, { 172, "Binding/LoaderAssemblyInitPhaseStop" },
  { 173, "Binding/LoaderMappingPhaseStart" }, { 174, "Binding/LoaderMappingPhaseStop" },
  { 175, "Binding/LoaderDeliverEventPhaseStart" }, { 176, "Binding/LoaderDeliverEventsPhaseStop" },
  { 177, "EvidenceGeneration/EvidenceGenerated" },
  { 178, "Transparency/ModuleTransparencyComputationStart" },
  { 179, "Transparency/ModuleTransparencyComputationStop" },
  { 180, "Transparency/TypeTransparencyComputationStart" },
  { 181, "Transparency/TypeTransparencyComputationStop" },
  { 182, "Transparency/MethodTransparencyComputationStart" },
  { 183, "Transparency/MethodTransparencyComputationStop" },
  { 184, "Transparency/FieldTransparencyComputationStart" },
  { 185, "Transparency/FieldTransparencyComputationStop" },
  { 186, "Transparency/TokenTransparencyComputationStart" },
  { 187, "Transparency/TokenTransparencyComputationStop" }, { 188, "NgenBinder/NgenBind" },
  { 191, "FailFast" }, { 192, "GC/FinalizeObject" }, { 193, "GC/CCWRefCountChangeAnsi" },
  { 194, "GC/SetGCHandle" }, { 195, "GC/DestroyGCHandle" }, { 196, "Binding/FusionMessage" },
  { 198, "GC/PinObjectAtGCTime" }, { 199, "GC/PinPlugAtGCTime" }, { 200, "GC/CCWRefCountChange" },
  { 201, "ClrMulticoreJit/Common" }, { 202, "ClrMulticoreJit/MethodCodeReturned" },
  { 300, "ThreadPoolWorkingThreadCount/Start" }, { 301, "ThreadPool/Enqueue" },
  { 302, "ThreadPool/Dequeue" }, { 303, "ThreadPool/IOEnqueue" }, { 304, "ThreadPool/IODequeue" },
  { 305, "ThreadPool/IOPack" }, { 310, "LoaderHeap/AllocRequest" },
  { 400, "ClrDynamicTypeUsage/IInspectableRuntimeClassName" },
  { 401, "ClrDynamicTypeUsage/WinRTUnbox" }, { 402, "ClrDynamicTypeUsage/CreateRCW" },
  { 403, "ClrDynamicTypeUsage/RCWVariance" }, { 404, "ClrDynamicTypeUsage/RCWIEnumerableCasting" },
  { 405, "ClrDynamicTypeUsage/CreateCCW" }, { 406, "ClrDynamicTypeUsage/CCWVariance" },
  { 407, "ClrDynamicTypeUsage/ObjectVariantMarshallingToNative" },
  { 408, "ClrDynamicTypeUsage/GetTypeFromGUID" }, { 409, "ClrDynamicTypeUsage/GetTypeFromProgID" },
  { 410, "ClrDynamicTypeUsage/ConvertToCallbackEtw" },
  { 411, "ClrDynamicTypeUsage/BeginCreateManagedReference" },
  { 412, "ClrDynamicTypeUsage/EndCreateManagedReference" },
  { 413, "ClrDynamicTypeUsage/ObjectVariantMarshallingToManaged" },
};

static const ManifestEvent sampler_events[] = {
  { 0, "Thread/Sample" },
};

/* Payload layouts of the runtime's events (its manifest), each with the
 * number of fields of versions 0, 1 and 2: later versions add fields at
 * the end. */

/* MethodLoadVerbose, MethodUnloadVerbose, MethodDCStart/EndVerbose */
static const SpsMsField method_fields[] = {
  { "MethodID", SPS_MS_TYPE_UINT64 }, { "ModuleID", SPS_MS_TYPE_UINT64 },
  { "MethodStartAddress", SPS_MS_TYPE_UINT64 }, { "MethodSize", SPS_MS_TYPE_UINT32 },
  { "MethodToken", SPS_MS_TYPE_UINT32 }, { "MethodFlags", SPS_MS_TYPE_UINT32 },
  { "MethodNamespace", SPS_MS_TYPE_STRING }, { "MethodName", SPS_MS_TYPE_STRING },
  { "MethodSignature", SPS_MS_TYPE_STRING }, { "ClrInstanceID", SPS_MS_TYPE_UINT16 },
  { "ReJITID", SPS_MS_TYPE_UINT64 },
};

/* ModuleLoad, ModuleDCStart/End */
static const SpsMsField module_fields[] = {
  { "ModuleID", SPS_MS_TYPE_UINT64 }, { "AssemblyID", SPS_MS_TYPE_UINT64 },
  { "ModuleFlags", SPS_MS_TYPE_UINT32 }, { "Reserved1", SPS_MS_TYPE_UINT32 },
  { "ModuleILPath", SPS_MS_TYPE_STRING }, { "ModuleNativePath", SPS_MS_TYPE_STRING },
  { "ClrInstanceID", SPS_MS_TYPE_UINT16 }, { "ManagedPdbSignature", SPS_MS_TYPE_GUID },
  { "ManagedPdbAge", SPS_MS_TYPE_UINT32 }, { "ManagedPdbBuildPath", SPS_MS_TYPE_STRING },
  { "NativePdbSignature", SPS_MS_TYPE_GUID }, { "NativePdbAge", SPS_MS_TYPE_UINT32 },
  { "NativePdbBuildPath", SPS_MS_TYPE_STRING },
};

/* GCStart: v0 has Count and Reason; v1 puts Depth between them */
static const SpsMsField gc_start_v0_fields[] = {
  { "Count", SPS_MS_TYPE_UINT32 }, { "Reason", SPS_MS_TYPE_UINT32 },
};

static const SpsMsField gc_start_fields[] = {
  { "Count", SPS_MS_TYPE_UINT32 }, { "Depth", SPS_MS_TYPE_UINT32 },
  { "Reason", SPS_MS_TYPE_UINT32 }, { "Type", SPS_MS_TYPE_UINT32 },
  { "ClrInstanceID", SPS_MS_TYPE_UINT16 }, { "ClientSequenceNumber", SPS_MS_TYPE_UINT64 },
};

/* GCEnd */
static const SpsMsField gc_stop_fields[] = {
  { "Count", SPS_MS_TYPE_UINT32 }, { "Depth", SPS_MS_TYPE_UINT32 },
  { "ClrInstanceID", SPS_MS_TYPE_UINT16 },
};

/* The rundown's ExecutionCheckpointDCEnd */
static const SpsMsField checkpoint_fields[] = {
  { "ClrInstanceID", SPS_MS_TYPE_UINT16 }, { "Name", SPS_MS_TYPE_STRING },
  { "Timestamp", SPS_MS_TYPE_INT64 },
};

typedef struct
{
  SpsMsProvider     provider;
  guint16           id;
  const SpsMsField *fields;
  guint8            n_fields[3];   /* of versions 0, 1, 2 (and later) */
} ManifestLayout;

static const ManifestLayout layouts[] = {
  { SPS_MS_PROVIDER_CLR_RUNTIME, 1, gc_start_fields, { 0, 5, 6 } },
  { SPS_MS_PROVIDER_CLR_RUNTIME, 2, gc_stop_fields, { 2, 3, 3 } },
  { SPS_MS_PROVIDER_CLR_RUNTIME, 143, method_fields, { 9, 10, 11 } },
  { SPS_MS_PROVIDER_CLR_RUNTIME, 144, method_fields, { 9, 10, 11 } },
  { SPS_MS_PROVIDER_CLR_RUNTIME, 152, module_fields, { 6, 7, 13 } },
  { SPS_MS_PROVIDER_CLR_RUNDOWN, 143, method_fields, { 9, 10, 11 } },
  { SPS_MS_PROVIDER_CLR_RUNDOWN, 144, method_fields, { 9, 10, 11 } },
  { SPS_MS_PROVIDER_CLR_RUNDOWN, 153, module_fields, { 6, 7, 13 } },
  { SPS_MS_PROVIDER_CLR_RUNDOWN, 154, module_fields, { 6, 7, 13 } },
  { SPS_MS_PROVIDER_CLR_RUNDOWN, 300, checkpoint_fields, { 3, 3, 3 } },
};

/**
 * sps_ms_manifest_fields:
 * @provider: a provider named from the manifest
 * @id: the event's id
 * @version: the event's version
 * @n_fields: (out): the number of fields of that version
 *
 * Returns: (array length=n_fields) (nullable): the layout of the event's
 *   payload, or %NULL when this table does not know it
 */
const SpsMsField *
sps_ms_manifest_fields (SpsMsProvider  provider,
                        guint          id,
                        guint          version,
                        guint         *n_fields)
{
  g_return_val_if_fail (n_fields != NULL, NULL);

  *n_fields = 0;
  if (provider == SPS_MS_PROVIDER_CLR_RUNTIME && id == 1 && version == 0)
    {
      *n_fields = G_N_ELEMENTS (gc_start_v0_fields);
      return gc_start_v0_fields;
    }
  for (guint i = 0; i < G_N_ELEMENTS (layouts); i++)
    if (layouts[i].provider == provider && layouts[i].id == id)
      {
        *n_fields = layouts[i].n_fields[MIN (version, 2)];
        return layouts[i].fields;
      }
  return NULL;
}

/**
 * sps_ms_provider_from_name:
 * @name: a provider's name
 *
 * Returns: which of the providers named from the manifest it is
 */
SpsMsProvider
sps_ms_provider_from_name (const char *name)
{
  static const struct { const char *name; SpsMsProvider provider; } providers[] = {
    { "Microsoft-Windows-DotNETRuntime", SPS_MS_PROVIDER_CLR_RUNTIME },
    { "Microsoft-Windows-DotNETRuntimeRundown", SPS_MS_PROVIDER_CLR_RUNDOWN },
    { "Microsoft-Windows-DotNETRuntimePrivate", SPS_MS_PROVIDER_CLR_PRIVATE },
    { "Microsoft-DotNETCore-SampleProfiler", SPS_MS_PROVIDER_SAMPLER },
  };

  for (guint i = 0; name != NULL && i < G_N_ELEMENTS (providers); i++)
    if (g_ascii_strcasecmp (name, providers[i].name) == 0)
      return providers[i].provider;
  return SPS_MS_PROVIDER_OTHER;
}

static const char *
lookup (const ManifestEvent *events,
        guint                n,
        guint                id)
{
  guint lo = 0, hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (events[mid].id == id)
        return events[mid].name;
      if (events[mid].id < id)
        lo = mid + 1;
      else
        hi = mid;
    }
  return NULL;
}

/**
 * sps_ms_manifest_event_name:
 * @provider: a provider named from the manifest
 * @id: the event's id
 *
 * Returns: (nullable): the event's `Task/Opcode` name, without the
 *   provider, or %NULL when the id is not known
 */
const char *
sps_ms_manifest_event_name (SpsMsProvider provider,
                            guint         id)
{
  switch (provider)
    {
    case SPS_MS_PROVIDER_CLR_RUNTIME:
      return lookup (runtime_events, G_N_ELEMENTS (runtime_events), id);
    case SPS_MS_PROVIDER_CLR_RUNDOWN:
      return lookup (rundown_events, G_N_ELEMENTS (rundown_events), id);
    case SPS_MS_PROVIDER_CLR_PRIVATE:
      return lookup (private_events, G_N_ELEMENTS (private_events), id);
    case SPS_MS_PROVIDER_SAMPLER:
      return lookup (sampler_events, G_N_ELEMENTS (sampler_events), id);
    case SPS_MS_PROVIDER_OTHER:
    default:
      return NULL;
    }
}

/**
 * sps_ms_append_raw_payload:
 * @out: where the args are appended
 * @payload: the payload's bytes
 * @len: their number
 *
 * Appends a payload that is not decoded as args: its size and its bytes in
 * base64 (a third smaller than hex, which matters for the hundreds of
 * thousands of events of an ETL file), `{"payload_size":N,"payload_base64":"…"}`.
 */
void
sps_ms_append_raw_payload (GString      *out,
                           const guint8 *payload,
                           gsize         len)
{
  g_string_append (out, "{\"payload_size\":");
  sps_json_append_uint64 (out, len);
  if (len > 0)
    {
      gint state = 0;
      gint save = 0;
      gsize at;
      gsize n;

      /* Encoded straight into the string, without a copy per event: 4
       * bytes per 3 and the last group (GLib's bound for the step
       * functions without line breaks) */
      g_string_append (out, ",\"payload_base64\":\"");
      at = out->len;
      g_string_set_size (out, at + (len / 3 + 1) * 4 + 4);
      n = g_base64_encode_step (payload, len, FALSE, out->str + at, &state, &save);
      n += g_base64_encode_close (FALSE, out->str + at + n, &state, &save);
      g_string_truncate (out, at + n);
      g_string_append_c (out, '"');
    }
  g_string_append_c (out, '}');
}

/**
 * sps_ms_add_raw_payload_args:
 * @builder: the trace builder
 * @scratch: a string to reuse
 * @payload: the payload's bytes
 * @len: their number
 *
 * Keeps a payload that is not decoded as args (sps_ms_append_raw_payload()).
 *
 * Returns: the args
 */
SpsArgsRef
sps_ms_add_raw_payload_args (SpsTraceBuilder *builder,
                             GString         *scratch,
                             const guint8    *payload,
                             gsize            len)
{
  g_assert (SPS_IS_TRACE_BUILDER (builder));
  g_assert (scratch != NULL);

  g_string_truncate (scratch, 0);
  sps_ms_append_raw_payload (scratch, payload, len);
  return sps_trace_builder_add_args_text (builder, scratch->str, (gssize) scratch->len);
}

/**
 * sps_ms_dup_utf16:
 * @p: UTF-16LE units
 * @n: their number
 *
 * Returns: (transfer full) (nullable): the text as UTF-8, or %NULL when the
 *   units are not valid UTF-16
 */
char *
sps_ms_dup_utf16 (const guint8 *p,
                  gsize         n)
{
  g_autofree gunichar2 *units = NULL;
  gsize ascii = 0;
  guint16 unit = 0;

  /* Names and paths are ASCII but for rare exceptions: narrowed here,
   * without the conversion's copy of the units (a CLR rundown and the
   * allocation events convert tens of thousands). The conversion, too,
   * ends at a NUL unit. */
  while (ascii < n && (unit = sps_ms_read_u16 (p + 2 * ascii)) != 0 && unit < 0x80)
    ascii++;
  if (ascii == n || unit == 0)
    {
      char *text = g_malloc (ascii + 1);

      for (gsize i = 0; i < ascii; i++)
        text[i] = (char) p[2 * i];
      text[ascii] = '\0';
      return text;
    }

  units = g_new (gunichar2, n);
  for (gsize i = 0; i < n; i++)
    units[i] = sps_ms_read_u16 (p + 2 * i);
  return g_utf16_to_utf8 (units, (glong) n, NULL, NULL, NULL);
}

/**
 * sps_ms_utf16_is_valid:
 * @p: UTF-16LE units (unaligned)
 * @n: how many
 *
 * Whether the units are valid UTF-16 (every surrogate in a pair), as
 * g_utf16_to_utf8() wants them, without converting them.
 *
 * Returns: %TRUE when they are
 */
gboolean
sps_ms_utf16_is_valid (const guint8 *p,
                       gsize         n)
{
  for (gsize i = 0; i < n; i++)
    {
      guint16 unit = sps_ms_read_u16 (p + 2 * i);

      if (unit >= 0xdc00 && unit < 0xe000)
        return FALSE;
      if (unit >= 0xd800 && unit < 0xdc00)
        {
          guint16 low;

          if (i + 1 >= n)
            return FALSE;
          low = sps_ms_read_u16 (p + 2 * ++i);
          if (low < 0xdc00 || low >= 0xe000)
            return FALSE;
        }
    }
  return TRUE;
}

/* The text at *@pos (one unit, or up to a NUL unit) when it fits before
 * @end and is valid UTF-16: *@pos moves past it and *@n gets its units */
static gboolean
skip_utf16 (const guint8 **pos,
            const guint8  *end,
            gboolean       one_char,
            gsize         *n)
{
  const guint8 *p = *pos;
  const guint8 *q = p;

  if (one_char)
    {
      if (end - p < 2)
        return FALSE;
      q = p + 2;
    }
  else
    {
      while (q + 1 < end && (q[0] != 0 || q[1] != 0))
        q += 2;
      if (end - q < 2)
        return FALSE;
    }
  *n = (gsize) (q - p) / 2;
  if (!sps_ms_utf16_is_valid (p, *n))
    return FALSE;
  *pos = one_char ? q : q + 2;
  return TRUE;
}

static const guint8 value_sizes[] = {
  [SPS_MS_TYPE_BOOLEAN] = 4, [SPS_MS_TYPE_INT8] = 1, [SPS_MS_TYPE_UINT8] = 1,
  [SPS_MS_TYPE_INT16] = 2, [SPS_MS_TYPE_UINT16] = 2, [SPS_MS_TYPE_INT32] = 4,
  [SPS_MS_TYPE_UINT32] = 4, [SPS_MS_TYPE_INT64] = 8, [SPS_MS_TYPE_UINT64] = 8,
  [SPS_MS_TYPE_FLOAT] = 4, [SPS_MS_TYPE_DOUBLE] = 8, [SPS_MS_TYPE_DECIMAL] = 16,
  [SPS_MS_TYPE_DATE] = 8, [SPS_MS_TYPE_GUID] = 16,
};

/* The bytes of a value of a fixed-size @type (*@type becomes an integer
 * type for a pointer), 0 for a type that is not one */
static gsize
fixed_size (gint32 *type,
            guint   pointer_size)
{
  if (*type == SPS_MS_TYPE_POINTER)
    {
      if (pointer_size != 4 && pointer_size != 8)
        return 0;
      *type = pointer_size == 4 ? SPS_MS_TYPE_UINT32 : SPS_MS_TYPE_UINT64;
    }
  if (*type < 0 || (guint) *type >= G_N_ELEMENTS (value_sizes))
    return 0;
  return value_sizes[*type];
}

/**
 * sps_ms_skip_value:
 * @type: a #SpsMsType
 * @pointer_size: the trace's pointer size, 4 or 8
 * @pos: (inout): the value's first byte; moved past it
 * @end: the payload's end
 * @text_bound: (out): at most how many bytes sps_ms_append_value() writes
 *   for it
 *
 * What sps_ms_append_value() checks, without writing anything: whether
 * the value fits before @end (and text is valid UTF-16).
 *
 * Returns: what sps_ms_append_value() returns for the same value
 */
gboolean
sps_ms_skip_value (gint32         type,
                   guint          pointer_size,
                   const guint8 **pos,
                   const guint8  *end,
                   gsize         *text_bound)
{
  gsize size;

  if (type == SPS_MS_TYPE_STRING || type == SPS_MS_TYPE_CHAR)
    {
      gsize n;

      if (!skip_utf16 (pos, end, type == SPS_MS_TYPE_CHAR, &n))
        return FALSE;
      /* A unit is at most 3 bytes of UTF-8 or a 6-byte escape */
      *text_bound = 6 * n + 2;
      return TRUE;
    }
  if ((size = fixed_size (&type, pointer_size)) == 0 || (gsize) (end - *pos) < size)
    return FALSE;
  *pos += size;
  /* Digits of a 64-bit integer with its sign; g_ascii_dtostr()'s
   * longest; a GUID or 16 bytes of hex, quoted */
  *text_bound = type == SPS_MS_TYPE_FLOAT || type == SPS_MS_TYPE_DOUBLE ? G_ASCII_DTOSTR_BUF_SIZE :
                type == SPS_MS_TYPE_GUID || type == SPS_MS_TYPE_DECIMAL ? 2 + 2 * 16 + 4 : 20;
  return TRUE;
}

static gboolean
append_utf16 (GString       *out,
              const guint8 **pos,
              const guint8  *end,
              gboolean       one_char)
{
  g_autofree char *text = NULL;
  const guint8 *p = *pos;

  if (one_char)
    {
      if (end - p < 2)
        return FALSE;
      text = sps_ms_dup_utf16 (p, 1);
      p += 2;
    }
  else if (!(text = sps_clr_read_utf16z (&p, end)))
    return FALSE;

  /* Invalid UTF-16 fails the field: the payload is then kept raw */
  if (text == NULL)
    return FALSE;
  sps_json_append_string (out, text, -1);
  *pos = p;
  return TRUE;
}

/**
 * sps_ms_append_value:
 * @out: where the JSON goes
 * @type: a #SpsMsType
 * @pointer_size: the trace's pointer size, 4 or 8
 * @pos: (inout): the value's first byte; moved past it
 * @end: the payload's end
 *
 * Appends one value as JSON: integers as numbers, booleans as
 * `true`/`false`, floats as numbers (`null` when not finite), text as
 * strings, GUIDs as their usual text, decimals as hex.
 *
 * Returns: %FALSE when the value does not fit before @end or its type is
 *   not one of these (nothing is appended then)
 */
gboolean
sps_ms_append_value (GString       *out,
                     gint32         type,
                     guint          pointer_size,
                     const guint8 **pos,
                     const guint8  *end)
{
  const guint8 *p = *pos;
  char number[G_ASCII_DTOSTR_BUF_SIZE];
  gsize size;

  g_assert (out != NULL);

  if (type == SPS_MS_TYPE_STRING || type == SPS_MS_TYPE_CHAR)
    return append_utf16 (out, pos, end, type == SPS_MS_TYPE_CHAR);
  if ((size = fixed_size (&type, pointer_size)) == 0 || (gsize) (end - p) < size)
    return FALSE;

  switch (type)
    {
    case SPS_MS_TYPE_BOOLEAN: g_string_append (out, sps_ms_read_u32 (p) != 0 ? "true" : "false"); break;
    case SPS_MS_TYPE_INT8: sps_json_append_int64 (out, (gint8) p[0]); break;
    case SPS_MS_TYPE_UINT8: sps_json_append_uint64 (out, p[0]); break;
    case SPS_MS_TYPE_INT16: sps_json_append_int64 (out, (gint16) sps_ms_read_u16 (p)); break;
    case SPS_MS_TYPE_UINT16: sps_json_append_uint64 (out, sps_ms_read_u16 (p)); break;
    case SPS_MS_TYPE_INT32: sps_json_append_int64 (out, (gint32) sps_ms_read_u32 (p)); break;
    case SPS_MS_TYPE_UINT32: sps_json_append_uint64 (out, sps_ms_read_u32 (p)); break;
    case SPS_MS_TYPE_INT64:
    case SPS_MS_TYPE_DATE:
      sps_json_append_int64 (out, (gint64) sps_ms_read_u64 (p));
      break;
    case SPS_MS_TYPE_UINT64: sps_json_append_uint64 (out, sps_ms_read_u64 (p)); break;
    case SPS_MS_TYPE_FLOAT:
    case SPS_MS_TYPE_DOUBLE:
      {
        double v;

        if (type == SPS_MS_TYPE_FLOAT)
          {
            guint32 bits = sps_ms_read_u32 (p);
            float f;

            memcpy (&f, &bits, sizeof f);
            v = f;
          }
        else
          {
            guint64 bits = sps_ms_read_u64 (p);

            memcpy (&v, &bits, sizeof v);
          }
        /* JSON has no NaN or infinities */
        if (isfinite (v))
          g_string_append (out, g_ascii_dtostr (number, sizeof number, v));
        else
          g_string_append (out, "null");
      }
      break;
    case SPS_MS_TYPE_GUID:
      g_string_append_printf (out, "\"%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x\"",
                              sps_ms_read_u32 (p), sps_ms_read_u16 (p + 4), sps_ms_read_u16 (p + 6),
                              p[8], p[9], p[10], p[11], p[12], p[13], p[14], p[15]);
      break;
    case SPS_MS_TYPE_DECIMAL:
    default:
      g_string_append_c (out, '"');
      for (gsize i = 0; i < size; i++)
        g_string_append_printf (out, "%02x", p[i]);
      g_string_append_c (out, '"');
      break;
    }

  *pos = p + size;
  return TRUE;
}

/**
 * sps_ms_append_fields:
 * @out: where the JSON goes
 * @fields: (array length=n_fields): the payload's layout
 * @n_fields: the number of fields
 * @pointer_size: the trace's pointer size
 * @payload: the payload
 * @len: its size
 *
 * Appends the fields as a JSON object. Bytes after the last field (fields
 * a later version added) are left out.
 *
 * Returns: %FALSE when a field does not fit the payload; @out then holds
 *   a partial object that the caller discards
 */
gboolean
sps_ms_append_fields (GString          *out,
                      const SpsMsField *fields,
                      guint             n_fields,
                      guint             pointer_size,
                      const guint8     *payload,
                      gsize             len)
{
  const guint8 *p = payload;
  const guint8 *end = payload + len;

  g_string_append_c (out, '{');
  for (guint i = 0; i < n_fields; i++)
    {
      if (i > 0)
        g_string_append_c (out, ',');
      sps_json_append_string (out, fields[i].name, -1);
      g_string_append_c (out, ':');
      if (!sps_ms_append_value (out, fields[i].type, pointer_size, &p, end))
        return FALSE;
    }
  g_string_append_c (out, '}');
  return TRUE;
}
