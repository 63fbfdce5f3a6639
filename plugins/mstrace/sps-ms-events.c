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

#include "sps-ms-events.h"

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

static const ManifestEvent private_events[] = {
  { 199, "GC/PinPlugAtGCTime" },
};

static const ManifestEvent sampler_events[] = {
  { 0, "Thread/Sample" },
};

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
 * sps_ms_add_raw_payload_args:
 * @builder: the trace builder
 * @scratch: a string to reuse
 * @payload: the payload's bytes
 * @len: their number
 *
 * Keeps a payload that is not decoded as args: its size and its bytes in
 * base64 (a third smaller than hex, which matters for the hundreds of
 * thousands of events of an ETL file).
 *
 * Returns: the args, `{"payload_size":N,"payload_base64":"…"}`
 */
SpsArgsRef
sps_ms_add_raw_payload_args (SpsTraceBuilder *builder,
                             GString         *scratch,
                             const guint8    *payload,
                             gsize            len)
{
  g_autofree char *base64 = NULL;

  g_assert (SPS_IS_TRACE_BUILDER (builder));
  g_assert (scratch != NULL);

  g_string_printf (scratch, "{\"payload_size\":%" G_GSIZE_FORMAT, len);
  if (len > 0)
    {
      base64 = g_base64_encode (payload, len);
      g_string_append_printf (scratch, ",\"payload_base64\":\"%s\"", base64);
    }
  g_string_append_c (scratch, '}');
  return sps_trace_builder_add_args_text (builder, scratch->str, (gssize) scratch->len);
}
