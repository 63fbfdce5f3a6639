/* sps-nettrace-loader-private.h: what the files of the .nettrace importer share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One import is a Loader over the file's bytes. sps-nettrace-importer.c
 * walks the container and its blocks; sps-nettrace-payloads.c decodes the
 * payloads of metadata events and of the events that name the process
 * (methods and modules go to the shared SpsClrSymbols, which the ETL
 * importer uses too); sps-nettrace-stacks.c keeps the distinct stacks and
 * gives them frames once the methods of the whole file are known.
 */

#pragma once

#include <string.h>

#include "sps-clr-symbols.h"
#include "sps-ms-memory.h"
#include "sps-mstrace-bytes.h"
#include "sps-nettrace-importer.h"

G_BEGIN_DECLS

#define MAGIC           "Nettrace"
#define SERIALIZATION   "!FastSerialization.1"
#define TRACE_END       102          /* offset of the first block object */
#define DEPTH_CAP       100          /* EP_MAX_STACK_DEPTH of the runtime */

#define TAG_NULL        1
#define TAG_BEGIN_PRIV  5
#define TAG_END         6

#define PROVIDER_SAMPLER "Microsoft-DotNETCore-SampleProfiler"
#define PROVIDER_RUNTIME "Microsoft-Windows-DotNETRuntime"
#define PROVIDER_RUNDOWN "Microsoft-Windows-DotNETRuntimeRundown"
#define PROVIDER_PIPE    "Microsoft-DotNETCore-EventPipe"

typedef enum
{
  EVENT_OTHER,
  EVENT_SAMPLE,
  EVENT_METHOD,           /* MethodLoadVerbose, MethodDCStart/EndVerbose, MethodUnloadVerbose */
  EVENT_MODULE,           /* ModuleLoad, ModuleDCStart/End */
  EVENT_DOMAIN_MODULE,    /* DomainModuleLoad, DomainModuleDCStart/End: an extra AppDomainID */
  EVENT_PROCESS_INFO,     /* EventPipe ProcessInfo: the command line first */
  EVENT_RUNTIME_INFO,     /* RuntimeInformationDCStart: the command line at byte 25 */
} EventKind;

typedef struct
{
  guint32 metadata_id;
  guint32 sequence;
  guint64 capture_thread;
  guint32 processor;
  guint64 thread;
  guint32 stack_id;
  guint64 timestamp;
  guint32 payload_size;
} EventHeader;

typedef struct _SpsNettraceEventType SpsNettraceEventType;

typedef struct
{
  SpsTraceBuilder *builder;
  SpsProgress     *progress;
  char            *display_name;
  const guint8    *data;
  gsize            len;

  /* Trace object */
  gint64           sync_qpc;
  gint64           qpc_frequency;
  guint            pointer_size;
  gint64           pid;
  guint32          process;

  /* Metadata id → EventKind (0 = unknown id) */
  GArray          *kinds;            /* guint8 */
  /* Metadata id → SpsNettraceEventType, NULL when not described */
  GPtrArray       *event_types;
  GString         *scratch;          /* args of the event being kept */

  /* Distinct stacks (IPs leaf first) over the whole file */
  GArray          *ips;              /* guint64 */
  GArray          *stack_start;      /* guint32 into ips */
  GArray          *stack_len;        /* guint32 */
  guint32         *stack_slots;      /* open addressing: stack + 1, 0 empty */
  guint            n_stack_slots;

  /* Stack id of the current sequence point region → distinct stack */
  GArray          *region_stacks;    /* guint32, index = id */

  /* Samples added to the builder, with their distinct stack */
  guint32          first_sample;
  GArray          *sample_stacks;    /* guint32 */

  /* Stacks as deep as the cap, left to the repair (frames root first) */
  gboolean         defer_cut_stacks;
  GArray          *deferred_frames;  /* guint32 */
  GArray          *deferred_start;   /* guint32 */
  GArray          *deferred_len;     /* guint32 */
  guint32         *row_stack;        /* builder sample row → deferred stack */
  guint            n_rows;

  SpsClrSymbols   *symbols;          /* methods and modules */

  /* The heap's events (sps-ms-memory.c), and the allocations that have a
   * stack: pairs (allocation, distinct stack) */
  SpsMsMemory     *memory;
  GArray          *allocation_stacks;  /* guint32 pairs */
  SpsTime          last_event_ts;      /* of the events kept, for a stream that stopped */
  GHashTable      *sequences;          /* capture thread (guint64) → its last event's number and time */
  gpointer         last_sequence;      /* the entry of last_capture_thread */
  guint64          last_capture_thread;

  char            *command_line;     /* from ProcessInfo, else the runtime's */
  gboolean         command_line_from_process_info;

  guint32          name_managed;
  guint32          name_external;
  guint32          name_error;

  guint64          events;
  guint64          metadata_events;
  guint            n_sequence_points;
} Loader;

static inline guint64 *
sps_nettrace_new_u64 (guint64 v)
{
  guint64 *p = g_new (guint64, 1);

  *p = v;
  return p;
}

/* Unsigned LEB128 of at most @max_bytes bytes */
static inline gboolean
read_varint (const guint8 **pos,
             const guint8  *end,
             guint          max_bytes,
             guint64       *value)
{
  const guint8 *p = *pos;
  guint64 v = 0;
  guint shift = 0;

  for (guint i = 0; i < max_bytes; i++)
    {
      if (p >= end)
        return FALSE;
      v |= (guint64) (*p & 0x7f) << shift;
      if ((*p++ & 0x80) == 0)
        {
          *value = v;
          *pos = p;
          return TRUE;
        }
      shift += 7;
    }

  return FALSE;
}

void     sps_nettrace_parse_metadata     (Loader       *self,
                                          const guint8 *p,
                                          const guint8 *end);
void     sps_nettrace_parse_command_line (Loader       *self,
                                          const guint8 *p,
                                          const guint8 *end,
                                          gboolean      process_info);
void     sps_nettrace_name_process       (Loader       *self);

SpsNettraceEventType *sps_nettrace_parse_event_type (Loader                     *self,
                                                     const char                 *provider,
                                                     gint32                      event_id,
                                                     const guint8               *p,
                                                     const guint8               *end);
void     sps_nettrace_event_type_free    (gpointer      data);
void     sps_nettrace_add_event          (Loader                     *self,
                                          const SpsNettraceEventType *type,
                                          guint32                     thread,
                                          SpsTime                     ts,
                                          const guint8               *payload,
                                          gsize                       len);
guint32  sps_nettrace_add_memory_event   (Loader                     *self,
                                          const SpsNettraceEventType *type,
                                          guint32                     thread,
                                          SpsTime                     ts,
                                          const guint8               *payload,
                                          gsize                       len,
                                          gsize                       offset);

guint32  sps_nettrace_intern_stack       (Loader       *self,
                                          const guint8 *p,
                                          guint         n);
void     sps_nettrace_resolve_stacks     (Loader       *self);

G_END_DECLS
