/* sps-trace-builder.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_CORE_INSIDE) && !defined (SPANSCOPE_CORE_COMPILATION)
# error "Only <spanscope-core.h> can be included directly."
#endif

#include <gio/gio.h>

#include "sps-args-decoder.h"
#include "sps-progress.h"
#include "sps-string-pool.h"
#include "sps-types.h"

G_BEGIN_DECLS

#define SPS_TYPE_TRACE_BUILDER (sps_trace_builder_get_type ())

SPS_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (SpsTraceBuilder, sps_trace_builder, SPS, TRACE_BUILDER, GObject)

typedef struct _SpsTrace SpsTrace;

SPS_AVAILABLE_IN_ALL
SpsTraceBuilder *sps_trace_builder_new                  (void);
SPS_AVAILABLE_IN_ALL
void             sps_trace_builder_set_source           (SpsTraceBuilder  *self,
                                                         GBytes           *source);
SPS_AVAILABLE_IN_ALL
GBytes          *sps_trace_builder_get_source           (SpsTraceBuilder  *self);
SPS_AVAILABLE_IN_ALL
void             sps_trace_builder_set_format           (SpsTraceBuilder  *self,
                                                         const char       *format);
SPS_AVAILABLE_IN_ALL
void             sps_trace_builder_set_display_time_unit (SpsTraceBuilder *self,
                                                         const char       *unit);
SPS_AVAILABLE_IN_ALL
SpsStringPool   *sps_trace_builder_get_strings          (SpsTraceBuilder  *self);
SPS_AVAILABLE_IN_ALL
guint32          sps_trace_builder_intern               (SpsTraceBuilder  *self,
                                                         const char       *str,
                                                         gssize            len);
SPS_AVAILABLE_IN_ALL
SpsArgsRef       sps_trace_builder_add_args_text        (SpsTraceBuilder  *self,
                                                         const char       *json,
                                                         gssize            len);
SPS_AVAILABLE_IN_ALL
guint            sps_trace_builder_add_args_decoder     (SpsTraceBuilder  *self,
                                                         SpsArgsDecoder   *decoder);

/* Counters that only the importer knows */
SPS_AVAILABLE_IN_ALL
void             sps_trace_builder_add_events_read      (SpsTraceBuilder  *self,
                                                         guint64           n);
SPS_AVAILABLE_IN_ALL
void             sps_trace_builder_add_metadata_events  (SpsTraceBuilder  *self,
                                                         guint64           n);
SPS_AVAILABLE_IN_ALL
void             sps_trace_builder_warn                 (SpsTraceBuilder  *self,
                                                         const char       *name,
                                                         const char       *format,
                                                         ...) G_GNUC_PRINTF (3, 4);
SPS_AVAILABLE_IN_ALL
void             sps_trace_builder_add_warning          (SpsTraceBuilder  *self,
                                                         const char       *name,
                                                         const char       *message);
SPS_AVAILABLE_IN_ALL
void             sps_trace_builder_add_metadata         (SpsTraceBuilder  *self,
                                                         const char       *key,
                                                         SpsArgsRef        value);
SPS_AVAILABLE_IN_ALL
void             sps_trace_builder_set_info_section     (SpsTraceBuilder  *self,
                                                         const char       *name,
                                                         const char       *json);

/* Processes and threads */
SPS_AVAILABLE_IN_ALL
guint32          sps_trace_builder_ensure_process       (SpsTraceBuilder  *self,
                                                         gint64            pid);
SPS_AVAILABLE_IN_ALL
void             sps_trace_builder_set_process_name     (SpsTraceBuilder  *self,
                                                         guint32           process,
                                                         guint32           name);
SPS_AVAILABLE_IN_ALL
void             sps_trace_builder_set_process_sort_index (SpsTraceBuilder *self,
                                                         guint32           process,
                                                         gint32            sort_index);
SPS_AVAILABLE_IN_ALL
void             sps_trace_builder_set_process_display  (SpsTraceBuilder  *self,
                                                         guint32           process,
                                                         SpsProcessDisplay display);
SPS_AVAILABLE_IN_ALL
void             sps_trace_builder_set_process_labels   (SpsTraceBuilder  *self,
                                                         guint32           process,
                                                         guint32           labels);
SPS_AVAILABLE_IN_ALL
guint32          sps_trace_builder_ensure_thread        (SpsTraceBuilder  *self,
                                                         guint32           process,
                                                         gint64            tid);
SPS_AVAILABLE_IN_ALL
void             sps_trace_builder_set_thread_name      (SpsTraceBuilder  *self,
                                                         guint32           thread,
                                                         guint32           name);
SPS_AVAILABLE_IN_ALL
void             sps_trace_builder_set_thread_sort_index (SpsTraceBuilder *self,
                                                         guint32           thread,
                                                         gint32            sort_index);

/* Slices. Each returns a handle (the raw index of the record) that flow
 * points with %SPS_FLOW_BIND_SLICE may refer to; finish() maps handles to
 * final slice indexes. */
SPS_AVAILABLE_IN_ALL
guint32          sps_trace_builder_add_complete         (SpsTraceBuilder  *self,
                                                         guint32           thread,
                                                         SpsTime           ts,
                                                         SpsTime           dur,
                                                         guint32           name,
                                                         guint32           category,
                                                         SpsArgsRef        args,
                                                         SpsSliceFlags     flags);
SPS_AVAILABLE_IN_ALL
guint32          sps_trace_builder_add_begin            (SpsTraceBuilder  *self,
                                                         guint32           thread,
                                                         SpsTime           ts,
                                                         guint32           name,
                                                         guint32           category,
                                                         SpsArgsRef        args,
                                                         SpsSliceFlags     flags);
SPS_AVAILABLE_IN_ALL
guint32          sps_trace_builder_add_end              (SpsTraceBuilder  *self,
                                                         guint32           thread,
                                                         SpsTime           ts,
                                                         SpsArgsRef        args,
                                                         SpsSliceFlags     flags);
SPS_AVAILABLE_IN_ALL
guint32          sps_trace_builder_add_named_end        (SpsTraceBuilder  *self,
                                                         guint32           thread,
                                                         SpsTime           ts,
                                                         guint32           name,
                                                         SpsArgsRef        args,
                                                         SpsSliceFlags     flags);
SPS_AVAILABLE_IN_ALL
void             sps_trace_builder_set_slice_callsites  (SpsTraceBuilder  *self,
                                                         guint32           handle,
                                                         guint32           callsite,
                                                         guint32           end_callsite);

/* Async: @key identifies the async tree (the importer folds category,
 * id and scope into it). */
SPS_AVAILABLE_IN_ALL
guint32          sps_trace_builder_add_async            (SpsTraceBuilder  *self,
                                                         SpsAsyncPhase     phase,
                                                         guint32           process,
                                                         guint64           key,
                                                         SpsTime           ts,
                                                         guint32           name,
                                                         guint32           category,
                                                         SpsArgsRef        args);

SPS_AVAILABLE_IN_ALL
void             sps_trace_builder_add_instant          (SpsTraceBuilder  *self,
                                                         SpsInstantKind    kind,
                                                         SpsInstantScope   scope,
                                                         guint32           process,
                                                         guint32           thread,
                                                         SpsTime           ts,
                                                         guint32           name,
                                                         guint32           category,
                                                         SpsArgsRef        args);

SPS_AVAILABLE_IN_ALL
void             sps_trace_builder_add_event            (SpsTraceBuilder  *self,
                                                         guint32           thread,
                                                         SpsTime           ts,
                                                         guint32           provider,
                                                         guint32           name,
                                                         SpsEventDescriptor descriptor,
                                                         SpsArgsRef        args);

/* Counters: one track per (process, counter name, series). */
SPS_AVAILABLE_IN_ALL
guint32          sps_trace_builder_ensure_counter_track (SpsTraceBuilder  *self,
                                                         guint32           process,
                                                         guint32           name,
                                                         guint32           series);
SPS_AVAILABLE_IN_ALL
void             sps_trace_builder_add_counter_value    (SpsTraceBuilder  *self,
                                                         guint32           counter_track,
                                                         SpsTime           ts,
                                                         double            value);

SPS_AVAILABLE_IN_ALL
void             sps_trace_builder_add_flow_point       (SpsTraceBuilder  *self,
                                                         guint64           key,
                                                         SpsFlowPhase      phase,
                                                         SpsFlowBind       bind,
                                                         guint32           thread,
                                                         SpsTime           ts,
                                                         guint32           slice_handle,
                                                         guint32           name,
                                                         guint32           category);

SPS_AVAILABLE_IN_ALL
void             sps_trace_builder_add_object_event     (SpsTraceBuilder  *self,
                                                         SpsObjectPhase    phase,
                                                         guint32           process,
                                                         guint64           key,
                                                         SpsTime           ts,
                                                         guint32           name,
                                                         SpsArgsRef        args);

/* Allocations and garbage collector observations */
SPS_AVAILABLE_IN_ALL
guint32          sps_trace_builder_add_allocation       (SpsTraceBuilder  *self,
                                                         guint32           process,
                                                         guint32           thread,
                                                         SpsTime           birth,
                                                         guint64           size,
                                                         guint32           type,
                                                         guint64           address,
                                                         SpsHeapKind       heap,
                                                         SpsAllocationCertainty certainty);
SPS_AVAILABLE_IN_ALL
void             sps_trace_builder_set_allocation_death (SpsTraceBuilder  *self,
                                                         guint32           allocation,
                                                         SpsTime           death_after,
                                                         SpsTime           death_by);
SPS_AVAILABLE_IN_ALL
void             sps_trace_builder_set_allocation_size  (SpsTraceBuilder  *self,
                                                         guint32           allocation,
                                                         guint64           size);
SPS_AVAILABLE_IN_ALL
void             sps_trace_builder_set_allocation_type  (SpsTraceBuilder  *self,
                                                         guint32           allocation,
                                                         guint32           type);
SPS_AVAILABLE_IN_ALL
void             sps_trace_builder_set_allocation_callsite (SpsTraceBuilder *self,
                                                         guint32           allocation,
                                                         guint32           callsite);
SPS_AVAILABLE_IN_ALL
void             sps_trace_builder_set_allocation_certainty (SpsTraceBuilder *self,
                                                         guint32           allocation,
                                                         SpsAllocationCertainty certainty);
SPS_AVAILABLE_IN_ALL
guint            sps_trace_builder_get_n_allocations    (SpsTraceBuilder  *self);
SPS_AVAILABLE_IN_ALL
void             sps_trace_builder_get_allocation_life  (SpsTraceBuilder  *self,
                                                         guint32           allocation,
                                                         SpsTime          *birth,
                                                         SpsTime          *death_by);
SPS_AVAILABLE_IN_ALL
guint32          sps_trace_builder_add_gc_observation   (SpsTraceBuilder  *self,
                                                         guint32           process,
                                                         guint32           thread,
                                                         SpsTime           ts,
                                                         SpsGcKind         kind,
                                                         guint32           gc_number,
                                                         gint32            generation,
                                                         guint32           reason);
SPS_AVAILABLE_IN_ALL
void             sps_trace_builder_set_gc_observation_bytes (SpsTraceBuilder *self,
                                                         guint32           observation,
                                                         guint64           bytes);

/* Stack samples and the callsite prefix tree */
SPS_AVAILABLE_IN_ALL
guint32          sps_trace_builder_intern_frame         (SpsTraceBuilder  *self,
                                                         guint32           name,
                                                         guint32           category,
                                                         guint32           module,
                                                         guint64           address);
SPS_AVAILABLE_IN_ALL
guint32          sps_trace_builder_intern_source_frame  (SpsTraceBuilder  *self,
                                                         guint32           name,
                                                         guint32           category,
                                                         guint32           module,
                                                         guint64           address,
                                                         guint32           source_file,
                                                         guint32           source_line,
                                                         guint32           source_column);
SPS_AVAILABLE_IN_ALL
guint32          sps_trace_builder_intern_callsite      (SpsTraceBuilder  *self,
                                                         guint32           parent,
                                                         guint32           frame);
SPS_AVAILABLE_IN_ALL
guint32          sps_trace_builder_add_sample           (SpsTraceBuilder  *self,
                                                         guint32           thread,
                                                         SpsTime           ts,
                                                         guint32           name,
                                                         guint32           callsite,
                                                         guint32           raw_stack_ref,
                                                         double            weight,
                                                         SpsWeightUnit     weight_unit,
                                                         SpsSampleFlags    flags);
SPS_AVAILABLE_IN_ALL
guint32          sps_trace_builder_add_samples          (SpsTraceBuilder  *self,
                                                         guint32           thread,
                                                         guint             n,
                                                         const SpsTime    *ts,
                                                         guint32           name,
                                                         const guint32    *callsites,
                                                         const guint32    *lines);
SPS_AVAILABLE_IN_ALL
void             sps_trace_builder_set_sample_callsite  (SpsTraceBuilder  *self,
                                                         guint32           sample,
                                                         guint32           callsite,
                                                         SpsSampleFlags    flags);
SPS_AVAILABLE_IN_ALL
void             sps_trace_builder_set_sample_line      (SpsTraceBuilder  *self,
                                                         guint32           sample,
                                                         guint32           line);
SPS_AVAILABLE_IN_ALL
guint            sps_trace_builder_get_n_samples        (SpsTraceBuilder  *self);
SPS_AVAILABLE_IN_ALL
void             sps_trace_builder_get_sample_ref       (SpsTraceBuilder  *self,
                                                         guint32           sample,
                                                         guint32          *name,
                                                         guint32          *raw_stack_ref);

SPS_AVAILABLE_IN_ALL
void             sps_trace_builder_add_raw_sample       (SpsTraceBuilder  *self,
                                                         guint32           thread,
                                                         SpsTime           ts,
                                                         guint32           name,
                                                         guint32           callsite,
                                                         guint32           raw_stack_ref,
                                                         double            weight,
                                                         SpsWeightUnit     weight_unit,
                                                         SpsSampleFlags    flags);

SPS_AVAILABLE_IN_ALL
SpsTrace        *sps_trace_builder_finish               (SpsTraceBuilder  *self,
                                                         SpsProgress      *progress,
                                                         GError          **error);

G_END_DECLS
