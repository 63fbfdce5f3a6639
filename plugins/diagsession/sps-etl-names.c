/* sps-etl-names.c: the names of ETL providers and events that tables give
 *
 * The kernel's groups and opcodes and KernelTraceControl's tasks, named
 * as TraceEvent's parsers name them, and the providers known by GUID.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-etl"

#include "config.h"

#include <string.h>

#include "sps-etl-events-private.h"
#include "sps-etl-private.h"
#include "sps-etl-reader.h"
#include "sps-ms-profiler.h"

/* The groups' tasks, as TraceEvent's kernel parser names them */
static const char * const group_tasks[] = {
  [0] = "EventTrace", [1] = "DiskIO", [2] = "Memory", [3] = "Process",
  [4] = "FileIO", [5] = "Thread", [6] = "TcpIp", [7] = "Job", [8] = "UdpIp",
  [9] = "Registry", [10] = "DbgPrint", [11] = "SystemConfig", [14] = "Pool",
  [15] = "PerfInfo", [16] = "HeapTrace", [17] = "Object", [18] = "Power",
  [20] = "Image", [22] = "CC", [23] = "CritSecTrace", [24] = "StackWalk",
  [26] = "ALPC", [27] = "SplitIo", [28] = "ThreadPoolTrace", [GROUP_SYSCONFIG] = "SysConfig",
};

/* Providers known by GUID (as text); kernel classic GUIDs name their group */
const SpsEtlKnownProvider _sps_etl_known_providers[] = {
  { "9e814aad-3204-11d2-9a82-006008a86939", KERNEL_PROVIDER, SPS_MS_PROVIDER_OTHER, -1 },
  { "68fdd900-4a3e-11d1-84f4-0000f80464e3", KERNEL_PROVIDER, SPS_MS_PROVIDER_OTHER, GROUP_EVENT_TRACE },
  { "3d6fa8d4-fe05-11d0-9dda-00c04fd7ba7c", KERNEL_PROVIDER, SPS_MS_PROVIDER_OTHER, 1 },
  { "3d6fa8d3-fe05-11d0-9dda-00c04fd7ba7c", KERNEL_PROVIDER, SPS_MS_PROVIDER_OTHER, 2 },
  { "3d6fa8d0-fe05-11d0-9dda-00c04fd7ba7c", KERNEL_PROVIDER, SPS_MS_PROVIDER_OTHER, GROUP_PROCESS },
  { "90cbdc39-4a3e-11d1-84f4-0000f80464e3", KERNEL_PROVIDER, SPS_MS_PROVIDER_OTHER, 4 },
  { "3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c", KERNEL_PROVIDER, SPS_MS_PROVIDER_OTHER, GROUP_THREAD },
  { "9a280ac0-c8e0-11d1-84e2-00c04fb998a2", KERNEL_PROVIDER, SPS_MS_PROVIDER_OTHER, 6 },
  { "bf3a50c5-a9c9-4988-a005-2df0b7c80f80", KERNEL_PROVIDER, SPS_MS_PROVIDER_OTHER, 8 },
  { "ae53722e-c863-11d2-8659-00c04fa321a1", KERNEL_PROVIDER, SPS_MS_PROVIDER_OTHER, 9 },
  { "01853a65-418f-4f36-aefc-dc0f1d2fd235", KERNEL_PROVIDER, SPS_MS_PROVIDER_OTHER, GROUP_CONFIG },
  { "ce1dbfb4-137e-4da6-87b0-3f59aa102cbc", KERNEL_PROVIDER, SPS_MS_PROVIDER_OTHER, GROUP_PERFINFO },
  { "2cb15d1d-5fc1-11d2-abe1-00a0c911f518", KERNEL_PROVIDER, SPS_MS_PROVIDER_OTHER, GROUP_IMAGE },
  { "def2fe46-7bd6-4b80-bd94-f57fe20d0ce3", KERNEL_PROVIDER, SPS_MS_PROVIDER_OTHER, GROUP_STACKWALK },
  { "45d8cccd-539f-4b72-a8b7-5c683142609a", KERNEL_PROVIDER, SPS_MS_PROVIDER_OTHER, 26 },
  { "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4", "Microsoft-Windows-DotNETRuntime", SPS_MS_PROVIDER_CLR_RUNTIME, -1 },
  { "a669021c-c450-4609-a035-5af59af4df18", "Microsoft-Windows-DotNETRuntimeRundown", SPS_MS_PROVIDER_CLR_RUNDOWN, -1 },
  { "763fd754-7086-4dfe-95eb-c01a46faf4ca", "Microsoft-Windows-DotNETRuntimePrivate", SPS_MS_PROVIDER_CLR_PRIVATE, -1 },
  { "9b79ee91-b5fd-41c0-a243-4248e266e9d0", KERNEL_PROVIDER, SPS_MS_PROVIDER_OTHER, GROUP_SYSCONFIG },
  { "b3e675d7-2554-4f18-830b-2762732560de", "KernelTraceControl", SPS_MS_PROVIDER_OTHER, -1, SYMBOL_TASK_IMAGE_ID },
  { "bbccf6c1-6cd1-48c4-80ff-839482e37671", "KernelTraceControl", SPS_MS_PROVIDER_OTHER, -1, SYMBOL_TASK_META_DATA },
  { "9e5f9046-43c6-4f62-ba13-7b19896253ff", "DiagnosticsHub", SPS_MS_PROVIDER_OTHER, -1 },
  { "adb401e1-5296-51f8-c125-5fda75826144", "Microsoft-Diagnostics-DiagnosticSource", SPS_MS_PROVIDER_OTHER, -1 },
  { "2e5dba47-a3d2-4d16-8ee0-6671ffdcd7b5", "System.Threading.Tasks.TplEventSource", SPS_MS_PROVIDER_OTHER, -1 },
  /* The GUID an EventSource derives from the name (RFC 4122 name-based
   * SHA-1 over EventSource's namespace and the upper-case UTF-16BE name;
   * the rule gives DiagnosticSource's GUID above). That Visual Studio's
   * allocation provider uses it in ETL is not verified: no such capture
   * is at hand; its .nettrace events carry only the name. */
  { "f19dcf81-fa74-5107-8eba-4864e28b7c7b", SPS_MS_PROFILER_PROVIDER, SPS_MS_PROVIDER_OTHER, -1 },
};

#define N_KNOWN_PROVIDERS G_N_ELEMENTS (_sps_etl_known_providers)

/* The _sps_etl_known_providers entry of @guid, or -1 */
gint
_sps_etl_known_provider (const guint8 *guid)
{
  static const guint8 *parsed;   /* 16 bytes an entry */

  if (g_once_init_enter (&parsed))
    {
      guint8 *table = g_malloc0 (16 * N_KNOWN_PROVIDERS);

      for (guint i = 0; i < N_KNOWN_PROVIDERS; i++)
        if (!sps_etl_guid_parse (_sps_etl_known_providers[i].guid, table + 16 * i))
          g_assert_not_reached ();
      g_once_init_leave (&parsed, table);
    }
  for (guint i = 0; i < N_KNOWN_PROVIDERS; i++)
    if (memcmp (parsed + 16 * i, guid, 16) == 0)
      return (gint) i;
  return -1;
}

/* TraceEvent's names of the kernel's events (its kernel parser's
 * templates): the opcode's, and the task's where it is not the group's */
static const struct
{
  guint8      group;
  guint8      opcode;
  const char *task;
  const char *name;
} kernel_opcodes[] = {
  { GROUP_EVENT_TRACE, 5, NULL, "Extension" }, { GROUP_EVENT_TRACE, 8, NULL, "RundownComplete" },
  { GROUP_EVENT_TRACE, 32, NULL, "EndExtension" },
  { 1, 10, NULL, "Read" }, { 1, 11, NULL, "Write" }, { 1, 12, NULL, "ReadInit" },
  { 1, 13, NULL, "WriteInit" }, { 1, 14, NULL, "FlushBuffers" }, { 1, 15, NULL, "FlushInit" },
  { 1, 34, NULL, "DriverMajorFunctionCall" }, { 1, 35, NULL, "DriverMajorFunctionReturn" },
  { 1, 37, NULL, "DriverCompletionRoutine" }, { 1, 52, NULL, "DriverCompleteRequest" },
  { 1, 53, NULL, "DriverCompleteRequestReturn" },
  { 2, 10, NULL, "TransitionFault" }, { 2, 11, NULL, "DemandZeroFault" }, { 2, 12, NULL, "CopyOnWrite" },
  { 2, 13, NULL, "GuardMemory" }, { 2, 14, NULL, "HardMemory" }, { 2, 15, NULL, "AccessViolation" },
  { 2, 32, NULL, "HardFault" }, { 2, 35, NULL, "InMemory" }, { 2, 73, NULL, "PFMappedSectionCreate" },
  { 2, 76, NULL, "SessionDCStop" }, { 2, 79, NULL, "PFMappedSectionDelete" },
  { 2, 98, "VirtualMem", "Alloc" }, { 2, 99, "VirtualMem", "Free" },
  { 2, 100, NULL, "HeapRangeRundown" }, { 2, 101, NULL, "HeapRangeCreate" },
  { 2, 102, NULL, "HeapRangeReserve" }, { 2, 103, NULL, "HeapRangeRelease" },
  { 2, 104, NULL, "HeapRangeDestroy" }, { 2, 105, NULL, "ImageLoadBacked" },
  { 2, 112, NULL, "SystemMemInfo" }, { 2, 115, NULL, "InMemoryStoreFault" },
  { 2, 117, NULL, "InMemoryActive" }, { 2, 118, NULL, "PageAccess" }, { 2, 119, NULL, "PageRelease" },
  { 2, 120, NULL, "RangeAccess" }, { 2, 121, NULL, "RangeRelease" }, { 2, 122, NULL, "Combine" },
  { 2, 123, NULL, "KernelMemUsage" }, { 2, 124, NULL, "MMStats" }, { 2, 125, NULL, "ProcessMemInfo" },
  { 2, 126, NULL, "MemInfoSessionWS" }, { 2, 127, NULL, "VirtualRotate" },
  { 2, 128, NULL, "VirtualAllocDCStart" }, { 2, 129, NULL, "VirtualAllocDCStop" },
  { 2, 130, NULL, "PageAccess" }, { 2, 131, NULL, "RemoveFromWS" },
  { 2, 132, NULL, "WSSharableRundown" }, { 2, 133, NULL, "InMemoryActiveRundown" },
  { GROUP_PROCESS, 11, NULL, "Terminate" }, { GROUP_PROCESS, 32, NULL, "PerfCtr" },
  { GROUP_PROCESS, 33, NULL, "PerfCtrRundown" }, { GROUP_PROCESS, 39, NULL, "Defunct" },
  { 4, 32, NULL, "FileCreate" }, { 4, 35, NULL, "FileDelete" }, { 4, 36, NULL, "FileRundown" },
  { 4, 37, NULL, "MapFile" }, { 4, 38, NULL, "UnmapFile" }, { 4, 39, NULL, "MapFileDCStart" },
  { 4, 40, NULL, "MapFileDCStop" }, { 4, 64, NULL, "Create" }, { 4, 65, NULL, "Cleanup" },
  { 4, 66, NULL, "Close" }, { 4, 67, NULL, "Read" }, { 4, 68, NULL, "Write" }, { 4, 69, NULL, "SetInfo" },
  { 4, 70, NULL, "Delete" }, { 4, 71, NULL, "Rename" }, { 4, 72, NULL, "DirEnum" }, { 4, 73, NULL, "Flush" },
  { 4, 74, NULL, "QueryInfo" }, { 4, 75, NULL, "FSControl" }, { 4, 76, NULL, "OperationEnd" },
  { 4, 77, NULL, "DirNotify" },
  { GROUP_THREAD, 36, NULL, "CSwitch" }, { GROUP_THREAD, 37, NULL, "CompCS" },
  { GROUP_THREAD, 50, "Dispatcher", "ReadyThread" }, { GROUP_THREAD, 62, NULL, "Enqueue" },
  { GROUP_THREAD, 63, NULL, "Dequeue" }, { GROUP_THREAD, 72, NULL, "SetName" },
  { 6, 10, NULL, "Send" }, { 6, 11, NULL, "Recv" }, { 6, 12, NULL, "Connect" },
  { 6, 13, NULL, "Disconnect" }, { 6, 14, NULL, "Retransmit" }, { 6, 15, NULL, "Accept" },
  { 6, 16, NULL, "Reconnect" }, { 6, 17, NULL, "Fail" }, { 6, 18, NULL, "TCPCopy" },
  { 6, 19, NULL, "ARPCopy" }, { 6, 20, NULL, "FullACK" }, { 6, 21, NULL, "PartACK" },
  { 6, 22, NULL, "DupACK" }, { 6, 26, NULL, "SendIPV6" }, { 6, 27, NULL, "RecvIPV6" },
  { 6, 28, NULL, "ConnectIPV6" }, { 6, 29, NULL, "DisconnectIPV6" }, { 6, 30, NULL, "RetransmitIPV6" },
  { 6, 31, NULL, "AcceptIPV6" }, { 6, 32, NULL, "ReconnectIPV6" }, { 6, 34, NULL, "TCPCopyIPV6" },
  { 8, 10, NULL, "Send" }, { 8, 11, NULL, "Recv" }, { 8, 17, NULL, "Fail" }, { 8, 26, NULL, "SendIPV6" },
  { 8, 27, NULL, "RecvIPV6" },
  { 9, 10, NULL, "Create" }, { 9, 11, NULL, "Open" }, { 9, 12, NULL, "Delete" }, { 9, 13, NULL, "Query" },
  { 9, 14, NULL, "SetValue" }, { 9, 15, NULL, "DeleteValue" }, { 9, 16, NULL, "QueryValue" },
  { 9, 17, NULL, "EnumerateKey" }, { 9, 18, NULL, "EnumerateValueKey" },
  { 9, 19, NULL, "QueryMultipleValue" }, { 9, 20, NULL, "SetInformation" }, { 9, 21, NULL, "Flush" },
  { 9, 22, NULL, "KCBCreate" }, { 9, 23, NULL, "KCBDelete" }, { 9, 24, NULL, "KCBRundownBegin" },
  { 9, 25, NULL, "KCBRundownEnd" }, { 9, 26, NULL, "Virtualize" }, { 9, 27, NULL, "Close" },
  { GROUP_CONFIG, 10, NULL, "CPU" }, { GROUP_CONFIG, 11, NULL, "PhyDisk" }, { GROUP_CONFIG, 12, NULL, "LogDisk" },
  { GROUP_CONFIG, 13, NULL, "NIC" }, { GROUP_CONFIG, 14, NULL, "Video" }, { GROUP_CONFIG, 15, NULL, "Services" },
  { GROUP_CONFIG, 16, NULL, "Power" }, { GROUP_CONFIG, 17, NULL, "Network" }, { GROUP_CONFIG, 21, NULL, "IRQ" },
  { GROUP_CONFIG, 22, NULL, "PnP" }, { GROUP_CONFIG, 23, NULL, "IDEChannel" },
  { GROUP_PERFINFO, 34, NULL, "Mark" }, { GROUP_PERFINFO, 46, NULL, "Sample" },
  { GROUP_PERFINFO, 47, NULL, "PMCSample" }, { GROUP_PERFINFO, 50, NULL, "ISR" },
  { GROUP_PERFINFO, 51, NULL, "SysClEnter" }, { GROUP_PERFINFO, 52, NULL, "SysClExit" },
  { GROUP_PERFINFO, 55, NULL, "BatchedSample" }, { GROUP_PERFINFO, 58, NULL, "DebuggerEnabled" },
  { GROUP_PERFINFO, 66, NULL, "ThreadedDPC" }, { GROUP_PERFINFO, 67, NULL, "ISR" },
  { GROUP_PERFINFO, 68, NULL, "DPC" }, { GROUP_PERFINFO, 69, NULL, "TimerDPC" },
  { GROUP_PERFINFO, 72, NULL, "SetInterval" }, { GROUP_PERFINFO, 73, NULL, "CollectionStart" },
  { GROUP_PERFINFO, 74, NULL, "CollectionEnd" },
  { 16, 32, NULL, "Create" }, { 16, 33, NULL, "Alloc" }, { 16, 34, NULL, "ReAlloc" },
  { 16, 35, NULL, "Destroy" }, { 16, 36, NULL, "Free" }, { 16, 37, NULL, "Expand" },
  { 16, 38, NULL, "SnapShot" }, { 16, 42, NULL, "Contract" }, { 16, 43, NULL, "Lock" },
  { 16, 44, NULL, "Unlock" }, { 16, 45, NULL, "Validate" }, { 16, 46, NULL, "Walk" },
  { 17, 32, NULL, "CreateHandle" }, { 17, 33, NULL, "CloseHandle" }, { 17, 34, NULL, "DuplicateHandle" },
  { 17, 37, NULL, "TypeDCEnd" }, { 17, 39, NULL, "HandleDCEnd" },
  { GROUP_IMAGE, 2, NULL, "Unload" }, { GROUP_IMAGE, 10, NULL, "Load" }, { GROUP_IMAGE, 33, NULL, "KernelBase" },
  { 23, 34, NULL, "Collision" }, { 23, 35, NULL, "Initialize" },
  { GROUP_STACKWALK, 32, NULL, "Stack" }, { GROUP_STACKWALK, 35, NULL, "KeyDelete" },
  { GROUP_STACKWALK, 36, NULL, "KeyRundown" }, { GROUP_STACKWALK, 37, NULL, "StackKeyKernel" },
  { GROUP_STACKWALK, 38, NULL, "StackKeyUser" },
  { 26, 33, NULL, "SendMessage" }, { 26, 34, NULL, "ReceiveMessage" }, { 26, 35, NULL, "WaitForReply" },
  { 26, 36, NULL, "WaitForNewMessage" }, { 26, 37, NULL, "Unwait" },
  { 27, 32, NULL, "VolMgr" },
  { 28, 32, NULL, "CBEnqueue" }, { 28, 33, NULL, "CBDequeue" }, { 28, 34, NULL, "CBStart" },
  { 28, 35, NULL, "CBStop" }, { 28, 36, NULL, "CBCancel" }, { 28, 37, NULL, "PoolCreate" },
  { 28, 38, NULL, "PoolClose" }, { 28, 39, NULL, "ThreadMinSet" }, { 28, 40, NULL, "ThreadMaxSet" },
  { GROUP_SYSCONFIG, 32, NULL, "BuildInfo" }, { GROUP_SYSCONFIG, 33, NULL, "SystemPaths" },
  { GROUP_SYSCONFIG, 34, NULL, "UnknownVolume" }, { GROUP_SYSCONFIG, 35, NULL, "VolumeMapping" },
};

/* "Task/Opcode" of a kernel event as TraceEvent names it: the task alone
 * for opcode 0 (Info, e.g. EventTrace's header), the opcode's name, or
 * the generic Start/Stop/DCStart/DCStop, else Opcode(N) */
void
_sps_etl_append_kernel_event (GString *out,
                     guint    group,
                     guint    opcode)
{
  static const char * const generic[] = { NULL, "Start", "Stop", "DCStart", "DCStop" };
  const char *task = group < G_N_ELEMENTS (group_tasks) ? group_tasks[group] : NULL;
  const char *name = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (kernel_opcodes); i++)
    if (kernel_opcodes[i].group == group && kernel_opcodes[i].opcode == opcode)
      {
        name = kernel_opcodes[i].name;
        if (kernel_opcodes[i].task != NULL)
          task = kernel_opcodes[i].task;
        break;
      }
  if (task != NULL)
    g_string_append (out, task);
  else
    g_string_append_printf (out, "Group(%u)", group);
  if (opcode == 0)
    return;
  g_string_append_c (out, '/');
  if (name != NULL)
    g_string_append (out, name);
  else if (opcode < G_N_ELEMENTS (generic))
    g_string_append (out, generic[opcode]);
  else
    g_string_append_printf (out, "Opcode(%u)", opcode);
}

/* The image id and metadata events the kernel's merge adds (their
 * classic GUIDs are the ImageID and MetaData tasks'), named by their
 * opcodes as TraceEvent's symbol parser names them */
const char *
_sps_etl_symbol_task_name (guint  task,
                  guint8 opcode)
{
  if (task == SYMBOL_TASK_META_DATA)
    return opcode == 32 ? "MetaData/EventInfo" : opcode == 33 ? "MetaData/EventMapInfo" : NULL;
  if (task != SYMBOL_TASK_IMAGE_ID)
    return NULL;
  switch (opcode)
    {
    case 0x00: return "ImageID";
    case 0x20: return "ImageID/None";
    case 0x24: return "ImageID/DbgID_RSDS";
    case 0x25: return "ImageID/DbgID_ILRSDS";
    case 0x26: return "ImageID/DbgPPDB";
    case 0x28: return "ImageID/DbgDeterm";
    case 0x40: return "ImageID/FileVersion";
    default: return NULL;
    }
}
