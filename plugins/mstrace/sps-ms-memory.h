/* sps-ms-memory.h: allocations and GCs from .NET events, for both importers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

#include "sps-ms-events.h"

G_BEGIN_DECLS

/* The events that describe the managed heap */
typedef enum
{
  SPS_MS_MEMORY_NONE,
  /* Visual Studio's .NET Object Allocation tool (DhCorProfilerProvider) */
  SPS_MS_MEMORY_OBJECT_ALLOCATION,
  SPS_MS_MEMORY_DEAD_OBJECTS,
  SPS_MS_MEMORY_TYPE_DEFINITION,
  SPS_MS_MEMORY_LIVE_OBJECTS_COUNT,
  /* The runtime's (Microsoft-Windows-DotNETRuntime) */
  SPS_MS_MEMORY_ALLOCATION_TICK,
  SPS_MS_MEMORY_GC_START,
  SPS_MS_MEMORY_GC_END,
  SPS_MS_MEMORY_GC_MARK,
  SPS_MS_MEMORY_GC_SUSPEND,
  SPS_MS_MEMORY_GC_RESTART,
  SPS_MS_MEMORY_GC_HEAP_STATS,
} SpsMsMemoryEvent;

#define SPS_MS_PROFILER_PROVIDER "DhCorProfilerProvider"

typedef struct _SpsMsMemory SpsMsMemory;

SpsMsMemoryEvent sps_ms_memory_classify   (SpsMsProvider     provider,
                                           const char       *provider_name,
                                           guint             id);
SpsMsMemory     *sps_ms_memory_new        (SpsTraceBuilder  *builder,
                                           const char       *display_name);
void             sps_ms_memory_free       (SpsMsMemory      *self);
void             sps_ms_memory_set_display_name (SpsMsMemory *self,
                                           const char       *display_name);
guint32          sps_ms_memory_add        (SpsMsMemory      *self,
                                           SpsMsMemoryEvent  event,
                                           guint             version,
                                           guint             pointer_size,
                                           guint32           process,
                                           guint32           thread,
                                           SpsTime           ts,
                                           const guint8     *payload,
                                           gsize             len,
                                           gsize             offset);
void             sps_ms_memory_mark_gap   (SpsMsMemory      *self,
                                           SpsTime           from,
                                           SpsTime           to);
void             sps_ms_memory_finish     (SpsMsMemory      *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpsMsMemory, sps_ms_memory_free)

G_END_DECLS
