/* sps-trace.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_CORE_INSIDE) && !defined (SPANSCOPE_CORE_COMPILATION)
# error "Only <spanscope-core.h> can be included directly."
#endif

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "sps-progress.h"
#include "sps-string-pool.h"
#include "sps-types.h"

G_BEGIN_DECLS

#define SPS_TYPE_TRACE (sps_trace_get_type ())

SPS_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (SpsTrace, sps_trace, SPS, TRACE, GObject)

/* Read-only views of the columnar tables. Every pointer stays valid for the
 * life of the trace; row i of a table is element i of each of its columns.
 * String columns hold ids into sps_trace_get_strings(). */

typedef struct
{
  guint         n_rows;
  const gint64 *pid;
  const guint32 *name;
  const gint32 *sort_index;      /* G_MAXINT32 when none was given */
  const guint32 *labels;
  const guint8  *display;        /* SpsProcessDisplay */
} SpsProcessTable;

typedef struct
{
  guint          n_rows;
  const guint32 *process;
  const gint64  *tid;
  const guint32 *name;
  const gint32  *sort_index;     /* G_MAXINT32 when none was given */
} SpsThreadTable;

typedef struct
{
  guint          n_rows;
  const guint8  *kind;           /* SpsTrackKind */
  const guint32 *process;        /* SPS_NO_INDEX for the global track */
  const guint32 *thread;         /* SPS_NO_INDEX unless a thread track */
  const guint32 *name;           /* counter name, async lane name… */
  const guint32 *series;         /* counter series name, else 0 */
  const guint32 *first_row;      /* first row in the track's table */
  const guint32 *n_rows_in_track;
  const guint16 *max_depth;      /* slice tracks: deepest depth + 1 */
} SpsTrackTable;

/**
 * SpsSliceConstants:
 * @callsite: the start stack of every slice, when the column is %NULL
 * @end_callsite: the end stack of every slice, when the column is %NULL
 *
 * The values of an #SpsSliceTable's columns that hold one value for every
 * row and are stored once (most traces give no slice a stack: then both
 * are %SPS_NO_INDEX).
 */
typedef struct
{
  guint32 callsite;
  guint32 end_callsite;
} SpsSliceConstants;

/* Slices are sorted by (track, ts) with ties in input order, so a track's
 * slices are the contiguous rows [first_row, first_row + n_rows_in_track).
 * The columns marked "may be constant" are %NULL when every row holds the
 * same value, then in @constants: read them with
 * sps_slice_table_get_callsite() and sps_slice_table_get_end_callsite(). */
typedef struct
{
  guint             n_rows;
  const SpsTime    *ts;
  const SpsTime    *dur;
  const SpsTime    *self_time;
  const guint32    *name;
  const guint32    *category;
  const guint32    *track;
  const guint32    *parent;      /* SPS_NO_INDEX for a root */
  const guint16    *depth;
  const guint16    *flags;       /* SpsSliceFlags */
  const SpsArgsRef *args;
  const guint32    *callsite;    /* stack at the start (sf, stack), or SPS_NO_INDEX; may be constant */
  const guint32    *end_callsite; /* stack at the end (esf, the E's sf), or SPS_NO_INDEX; may be constant */
  SpsSliceConstants constants;   /* the values of the columns that are NULL */
} SpsSliceTable;

SPS_AVAILABLE_IN_ALL
guint32                 sps_slice_table_get_callsite       (const SpsSliceTable  *self,
                                                            guint                 row);
SPS_AVAILABLE_IN_ALL
guint32                 sps_slice_table_get_end_callsite   (const SpsSliceTable  *self,
                                                            guint                 row);

/* Instants are sorted by (track, ts). */
typedef struct
{
  guint             n_rows;
  const SpsTime    *ts;
  const guint32    *name;
  const guint32    *category;
  const guint32    *track;
  const guint8     *kind;        /* SpsInstantKind */
  const SpsArgsRef *args;
  const guint32    *event;       /* SpsEventDescriptor; 0 unless an event */
} SpsInstantTable;

/* Counter values are sorted by (track, ts). */
typedef struct
{
  guint          n_rows;
  const SpsTime *ts;
  const double  *value;
  const guint32 *track;
} SpsCounterTable;

typedef struct
{
  guint          n_rows;
  const guint32 *from_slice;
  const guint32 *to_slice;
  const guint64 *key;
  const guint32 *name;
  const guint32 *category;
} SpsFlowTable;

/**
 * SpsSampleConstants:
 * @event_name: the event's name of every row, when the column is %NULL
 * @raw_stack_ref: the raw stack reference of every row, when %NULL
 * @weight: the raw weight of every row, when %NULL
 * @weight_unit: the #SpsWeightUnit of every row, when %NULL
 * @flags: the #SpsSampleFlags of every row, when %NULL
 * @line: the source line of every row, when %NULL
 *
 * The values of an #SpsSampleTable's columns that hold one value for
 * every row and are stored once.
 */
typedef struct
{
  guint32 event_name;
  guint32 raw_stack_ref;
  double  weight;
  guint8  weight_unit;
  guint8  flags;
  guint32 line;
} SpsSampleConstants;

/* Samples are sorted by (track, ts). The columns marked "may be constant"
 * are %NULL when every row holds the same value, then in @constants (a
 * CPU profile's samples share their event, weight and flags): read them
 * with sps_sample_table_get_event_name() and its siblings, which read
 * either form. A table a caller fills itself may give every column. */
typedef struct
{
  guint          n_rows;
  const SpsTime *ts;
  const guint32 *track;
  const guint32 *thread;
  const guint32 *name;           /* the leaf frame's name (the event's when no stack) */
  const guint32 *event_name;     /* the event's name; may be constant */
  const guint32 *callsite;       /* leaf callsite, SPS_NO_INDEX if none */
  const guint32 *raw_stack_ref;  /* the raw `sf` as written, string id; may be constant */
  const double  *weight;         /* raw weight; NAN when absent; may be constant */
  const guint8  *weight_unit;    /* SpsWeightUnit; may be constant */
  const guint8  *flags;          /* SpsSampleFlags; may be constant */
  const guint32 *line;           /* source line in the leaf (1-based), 0 if unknown; may be constant */
  SpsSampleConstants constants;  /* the values of the columns that are NULL */
} SpsSampleTable;

SPS_AVAILABLE_IN_ALL
guint32                 sps_sample_table_get_event_name    (const SpsSampleTable *self,
                                                            guint                 row);
SPS_AVAILABLE_IN_ALL
guint32                 sps_sample_table_get_raw_stack_ref (const SpsSampleTable *self,
                                                            guint                 row);
SPS_AVAILABLE_IN_ALL
double                  sps_sample_table_get_weight        (const SpsSampleTable *self,
                                                            guint                 row);
SPS_AVAILABLE_IN_ALL
SpsWeightUnit           sps_sample_table_get_weight_unit   (const SpsSampleTable *self,
                                                            guint                 row);
SPS_AVAILABLE_IN_ALL
SpsSampleFlags          sps_sample_table_get_flags         (const SpsSampleTable *self,
                                                            guint                 row);
SPS_AVAILABLE_IN_ALL
guint32                 sps_sample_table_get_line          (const SpsSampleTable *self,
                                                            guint                 row);

typedef struct
{
  guint          n_rows;
  const guint32 *parent;         /* SPS_NO_INDEX for a root */
  const guint32 *frame;
  const guint16 *depth;
} SpsCallsiteTable;

typedef struct
{
  guint          n_rows;
  const guint32 *name;
  const guint32 *category;
  const guint32 *module;
  const guint64 *address;
  const guint32 *source_file;    /* string id: URL or path, 0 if unknown */
  const guint32 *source_line;    /* 1-based, 0 if unknown */
  const guint32 *source_column;  /* 1-based, 0 if unknown */
} SpsFrameTable;

typedef struct
{
  guint             n_rows;
  const SpsTime    *ts;
  const guint8     *phase;       /* SpsObjectPhase */
  const guint32    *process;
  const guint64    *key;
  const guint32    *name;
  const SpsArgsRef *args;
} SpsObjectTable;

/* Allocations are sorted by birth time (unknown births first), ties in
 * input order. An allocation is surely alive at T when birth <= T <
 * death_after, surely dead from death_by on, and possibly either in
 * between; its certainty says how far the producer's events go. */
typedef struct
{
  guint          n_rows;
  const SpsTime *birth;          /* SPS_TIME_MIN when unknown */
  const SpsTime *death;          /* as reported; SPS_TIME_MAX when not seen dead */
  const SpsTime *death_after;    /* alive for sure before this */
  const SpsTime *death_by;       /* dead for sure from this; SPS_TIME_MAX: never seen */
  const guint64 *size;           /* bytes, SPS_SIZE_UNKNOWN when not given */
  const guint64 *address;        /* the producer's object id or address, 0 if none */
  const guint32 *type;           /* string id, 0 if unknown */
  const guint32 *callsite;       /* the allocation's stack, SPS_NO_INDEX if none */
  const guint32 *process;
  const guint32 *thread;         /* SPS_NO_INDEX when not known */
  const guint8  *heap;           /* SpsHeapKind */
  const guint8  *certainty;      /* SpsAllocationCertainty */
} SpsAllocationTable;

/* Garbage collector observations, sorted by time (ties in input order). */
typedef struct
{
  guint          n_rows;
  const SpsTime *ts;
  const guint32 *process;
  const guint32 *thread;         /* SPS_NO_INDEX when not known */
  const guint8  *kind;           /* SpsGcKind */
  const guint32 *gc_number;      /* the runtime's GC count, 0 if not given */
  const gint32  *generation;     /* -1 when not given */
  const guint32 *reason;         /* string id, 0 when not given */
  const guint64 *bytes;          /* mark: bytes marked; end: heap size after; SPS_SIZE_UNKNOWN if not */
} SpsGcObservationTable;

/**
 * SpsOutstanding:
 * @known_count: allocations surely alive at the time, of exact certainty
 * @known_bytes: their bytes (those of unknown size count 0)
 * @uncertain_count: allocations possibly alive at the time: any
 *   certainty other than exact, or an exact one between the two
 *   garbage collections that bound its death
 * @uncertain_bytes: their bytes (those of unknown size count 0)
 * @unknown_size_count: allocations of either group whose size is unknown
 *
 * What sps_trace_sum_outstanding() counts. Recorded allocations, not the
 * process's memory.
 */
typedef struct
{
  guint64 known_count;
  guint64 known_bytes;
  guint64 uncertain_count;
  guint64 uncertain_bytes;
  guint64 unknown_size_count;
} SpsOutstanding;

/**
 * SpsSliceFunc:
 * @trace: the trace
 * @slice: index of a slice in the slice table
 * @user_data: closure data
 *
 * Returns: %FALSE to stop the iteration
 */
typedef gboolean (*SpsSliceFunc) (SpsTrace *trace,
                                  guint     slice,
                                  gpointer  user_data);

SPS_AVAILABLE_IN_ALL
SpsStringPool          *sps_trace_get_strings          (SpsTrace      *self);
SPS_AVAILABLE_IN_ALL
const char             *sps_trace_get_string           (SpsTrace      *self,
                                                        guint32        id);
SPS_AVAILABLE_IN_ALL
const char             *sps_trace_get_format           (SpsTrace      *self);
SPS_AVAILABLE_IN_ALL
const char             *sps_trace_get_display_time_unit (SpsTrace     *self);
SPS_AVAILABLE_IN_ALL
SpsTime                 sps_trace_get_start_time       (SpsTrace      *self);
SPS_AVAILABLE_IN_ALL
SpsTime                 sps_trace_get_end_time         (SpsTrace      *self);
SPS_AVAILABLE_IN_ALL
guint64                 sps_trace_get_events_read      (SpsTrace      *self);
SPS_AVAILABLE_IN_ALL
guint64                 sps_trace_get_metadata_events  (SpsTrace      *self);
SPS_AVAILABLE_IN_ALL
const GError           *sps_trace_get_load_error       (SpsTrace      *self);
SPS_AVAILABLE_IN_ALL
GFile                  *sps_trace_get_file             (SpsTrace      *self);

SPS_AVAILABLE_IN_ALL
guint                   sps_trace_get_n_warnings       (SpsTrace      *self);
SPS_AVAILABLE_IN_ALL
const char             *sps_trace_get_warning          (SpsTrace      *self,
                                                        guint          i,
                                                        guint64       *count,
                                                        const char   **first_message);
SPS_AVAILABLE_IN_ALL
guint64                 sps_trace_count_warning        (SpsTrace      *self,
                                                        const char    *name);

SPS_AVAILABLE_IN_ALL
const SpsProcessTable  *sps_trace_get_processes        (SpsTrace      *self);
SPS_AVAILABLE_IN_ALL
const SpsThreadTable   *sps_trace_get_threads          (SpsTrace      *self);
SPS_AVAILABLE_IN_ALL
const SpsTrackTable    *sps_trace_get_tracks           (SpsTrace      *self);
SPS_AVAILABLE_IN_ALL
const SpsSliceTable    *sps_trace_get_slices           (SpsTrace      *self);
SPS_AVAILABLE_IN_ALL
const SpsInstantTable  *sps_trace_get_instants         (SpsTrace      *self);
SPS_AVAILABLE_IN_ALL
const SpsCounterTable  *sps_trace_get_counters         (SpsTrace      *self);
SPS_AVAILABLE_IN_ALL
const SpsFlowTable     *sps_trace_get_flows            (SpsTrace      *self);
SPS_AVAILABLE_IN_ALL
const SpsSampleTable   *sps_trace_get_samples          (SpsTrace      *self);
SPS_AVAILABLE_IN_ALL
const SpsSampleTable   *sps_trace_get_raw_samples      (SpsTrace      *self);
SPS_AVAILABLE_IN_ALL
const SpsCallsiteTable *sps_trace_get_callsites        (SpsTrace      *self);
SPS_AVAILABLE_IN_ALL
const SpsFrameTable    *sps_trace_get_frames           (SpsTrace      *self);
SPS_AVAILABLE_IN_ALL
char                   *sps_trace_dup_frame_location   (SpsTrace      *self,
                                                        guint32        frame);
SPS_AVAILABLE_IN_ALL
const SpsObjectTable   *sps_trace_get_objects          (SpsTrace      *self);

SPS_AVAILABLE_IN_ALL
guint                   sps_trace_find_slice           (SpsTrace      *trace,
                                                        guint          track,
                                                        SpsTime        ts);
SPS_AVAILABLE_IN_ALL
const SpsAllocationTable *sps_trace_get_allocations    (SpsTrace      *self);
SPS_AVAILABLE_IN_ALL
const SpsGcObservationTable *sps_trace_get_gc_observations (SpsTrace  *self);
SPS_AVAILABLE_IN_ALL
void                    sps_trace_sum_outstanding      (SpsTrace      *self,
                                                        SpsTime        time,
                                                        guint32        process,
                                                        SpsOutstanding *out);

SPS_AVAILABLE_IN_ALL
guint                   sps_trace_count_slices         (SpsTrace      *self,
                                                        SpsTrackKind   kind);

SPS_AVAILABLE_IN_ALL
const char             *sps_trace_get_args_json        (SpsTrace      *self,
                                                        SpsArgsRef     ref,
                                                        gsize         *len);
SPS_AVAILABLE_IN_ALL
gboolean                sps_trace_append_args_json     (SpsTrace      *self,
                                                        SpsArgsRef     ref,
                                                        GString       *out,
                                                        GError       **error);
SPS_AVAILABLE_IN_ALL
char                   *sps_trace_dup_args_json        (SpsTrace      *self,
                                                        SpsArgsRef     ref,
                                                        gsize         *len);
SPS_AVAILABLE_IN_ALL
JsonNode               *sps_trace_parse_args           (SpsTrace      *self,
                                                        SpsArgsRef     ref,
                                                        GError       **error);
SPS_AVAILABLE_IN_ALL
guint                   sps_trace_get_n_metadata       (SpsTrace      *self);
SPS_AVAILABLE_IN_ALL
const char             *sps_trace_get_metadata         (SpsTrace      *self,
                                                        guint          i,
                                                        SpsArgsRef    *value);
SPS_AVAILABLE_IN_ALL
guint                   sps_trace_get_n_info_sections  (SpsTrace      *self);
SPS_AVAILABLE_IN_ALL
const char             *sps_trace_get_info_section     (SpsTrace      *self,
                                                        guint          i,
                                                        SpsArgsRef    *value);

SPS_AVAILABLE_IN_ALL
void                    sps_trace_foreach_slice_in_range (SpsTrace    *self,
                                                        guint          track,
                                                        SpsTime        start,
                                                        SpsTime        end,
                                                        SpsSliceFunc   func,
                                                        gpointer       user_data);

SPS_AVAILABLE_IN_ALL
gsize                   sps_trace_get_memory_size      (SpsTrace      *self);

/* Row by row, for bindings and analyses (sps-trace-rows.c) */
SPS_AVAILABLE_IN_ALL
guint                   sps_trace_get_n_processes      (SpsTrace      *self);
SPS_AVAILABLE_IN_ALL
gboolean                sps_trace_get_process          (SpsTrace      *self,
                                                        guint          i,
                                                        gint64        *pid,
                                                        const char   **name);
SPS_AVAILABLE_IN_ALL
guint                   sps_trace_get_n_threads        (SpsTrace      *self);
SPS_AVAILABLE_IN_ALL
gboolean                sps_trace_get_thread           (SpsTrace      *self,
                                                        guint          i,
                                                        guint         *process,
                                                        gint64        *tid,
                                                        const char   **name);
SPS_AVAILABLE_IN_ALL
guint                   sps_trace_get_n_tracks         (SpsTrace      *self);
SPS_AVAILABLE_IN_ALL
gboolean                sps_trace_get_track            (SpsTrace      *self,
                                                        guint          i,
                                                        SpsTrackKind  *kind,
                                                        guint         *process,
                                                        guint         *thread,
                                                        const char   **name);
SPS_AVAILABLE_IN_ALL
guint                   sps_trace_get_n_slices         (SpsTrace      *self);
SPS_AVAILABLE_IN_ALL
gboolean                sps_trace_get_slice            (SpsTrace      *self,
                                                        guint          i,
                                                        guint         *track,
                                                        SpsTime       *ts,
                                                        SpsTime       *dur,
                                                        guint         *depth,
                                                        const char   **name,
                                                        const char   **category);
SPS_AVAILABLE_IN_ALL
guint                   sps_trace_get_n_counter_values (SpsTrace      *self);
SPS_AVAILABLE_IN_ALL
gboolean                sps_trace_get_counter_value    (SpsTrace      *self,
                                                        guint          i,
                                                        guint         *track,
                                                        SpsTime       *ts,
                                                        double        *value);
SPS_AVAILABLE_IN_ALL
guint                   sps_trace_get_n_samples        (SpsTrace      *self);
SPS_AVAILABLE_IN_ALL
gboolean                sps_trace_get_sample           (SpsTrace      *self,
                                                        guint          i,
                                                        guint         *track,
                                                        SpsTime       *ts,
                                                        const char   **name,
                                                        guint         *stack_depth);

/* Loading with the plugin engine's importers */

/**
 * SpsLoadFlags:
 * @SPS_LOAD_FLAGS_NONE: fail on an import error
 * @SPS_LOAD_FLAGS_KEEP_PARTIAL: on an import error (not a cancellation),
 *   finish what was read and return it; the error is then available from
 *   sps_trace_get_load_error()
 *
 * Flags for sps_trace_load_async().
 */
typedef enum /*< flags >*/
{
  SPS_LOAD_FLAGS_NONE         = 0,
  SPS_LOAD_FLAGS_KEEP_PARTIAL = 1 << 0,
} SpsLoadFlags;

typedef struct _SpsPluginEngine SpsPluginEngine;

SPS_AVAILABLE_IN_ALL
void                    sps_trace_load_async           (GFile               *file,
                                                        SpsPluginEngine     *engine,
                                                        GVariant            *options,
                                                        SpsLoadFlags         flags,
                                                        SpsProgress         *progress,
                                                        GCancellable        *cancellable,
                                                        GAsyncReadyCallback  callback,
                                                        gpointer             user_data);
SPS_AVAILABLE_IN_ALL
SpsTrace               *sps_trace_load_finish          (GAsyncResult        *result,
                                                        GError             **error);
SPS_AVAILABLE_IN_ALL
SpsTrace               *sps_trace_load                 (GFile               *file,
                                                        SpsPluginEngine     *engine,
                                                        GVariant            *options,
                                                        SpsLoadFlags         flags,
                                                        SpsProgress         *progress,
                                                        GCancellable        *cancellable,
                                                        GError             **error);

G_END_DECLS
