/* sps-trace-finish-private.h: the finish() state shared by its files
 *
 * sps_trace_builder_finish() is one pass list spread over
 * sps-trace-finish.c (the passes' order and the small passes),
 * -sort.c, -place.c, -pair.c, -tracks.c and -tables.c. This header holds
 * the Finish state they all work on, the helpers called in their per-row
 * loops (static inline, so that they stay inlined) and the functions one
 * file provides to the others. Nothing here is installed.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "sps-trace-builder.h"
#include "sps-trace-private.h"

G_BEGIN_DECLS

/* The track kinds whose rows are slices (and get the block index) */
#define SLICE_TRACK_KINDS ((1u << SPS_TRACK_THREAD_SLICES) | \
                           (1u << SPS_TRACK_THREAD_SAMPLED_SLICES) | \
                           (1u << SPS_TRACK_ASYNC))

typedef struct
{
  SpsTraceBuilder *builder;
  SpsTrace        *trace;

  /* Slice record rows whose dur is only known once the trace end is */
  GArray          *unfinished;

  /* Async slices are slice record rows async_first + i */
  guint            async_first;
  guint            n_async_slices;
  guint            async_slices_capacity;
  guint32         *async_slice_process;
  guint32         *async_slice_parent;
  guint16         *async_slice_depth;
  guint32         *async_slice_lane;
  guint32         *async_record_slice;   /* async record → async slice */
  guint32         *process_n_lanes;

  /* Tracks, as they are created */
  guint            n_tracks;
  guint            tracks_capacity;
  guint8          *track_kind;
  guint32         *track_process;
  guint32         *track_thread;
  guint32         *track_name;
  guint32         *track_series;
  guint32         *track_first_row;
  guint32         *track_n_rows;
  guint16         *track_max_depth;

  guint32         *thread_slices_track;
  guint32         *thread_sampled_track;
  guint32         *thread_instants_track;
  guint32         *thread_samples_track;
  guint32         *process_instants_track;
  guint32         *process_first_lane;
  guint32         *process_n_gc_lanes;   /* the first lanes, named "GC" */
  guint32         *counter_track;
  guint32          global_instants_track;

  /* Slice record row → final slice, SPS_NO_INDEX for dropped rows */
  guint32         *record_slice;
} Finish;

static const SpsTableLayout async_slice_table = {
  G_STRUCT_OFFSET (Finish, n_async_slices), G_STRUCT_OFFSET (Finish, async_slices_capacity),
  { SPS_COLUMN (Finish, async_slice_process), SPS_COLUMN (Finish, async_slice_parent),
    SPS_COLUMN (Finish, async_slice_depth) },
};

static const SpsTableLayout track_table = {
  G_STRUCT_OFFSET (Finish, n_tracks), G_STRUCT_OFFSET (Finish, tracks_capacity),
  { SPS_COLUMN (Finish, track_kind), SPS_COLUMN (Finish, track_process),
    SPS_COLUMN (Finish, track_thread), SPS_COLUMN (Finish, track_name),
    SPS_COLUMN (Finish, track_series), SPS_COLUMN (Finish, track_first_row),
    SPS_COLUMN (Finish, track_n_rows), SPS_COLUMN (Finish, track_max_depth) },
};

/* b − a for a ≤ b, saturated to G_MAXINT64 */
static inline SpsTime
time_span (SpsTime a,
           SpsTime b)
{
  guint64 d = (guint64) b - (guint64) a;

  g_assert (a <= b);

  return d > (guint64) G_MAXINT64 ? G_MAXINT64 : (SpsTime) d;
}

/* Moves a builder column to the trace, sized exactly. */
#define STEAL_COLUMN(column, n) \
  ((__typeof__ (column)) _sps_shrink_column (g_steal_pointer (&(column)), (n), sizeof *(column)))

/* Moves a builder column to the trace in the order @order gives */
#define GATHER_COLUMN(column, order, n) \
  ((__typeof__ (column)) _sps_gather_column (g_steal_pointer (&(column)), (order), (n), sizeof *(column)))

#define SCATTER_COLUMN(column, position, n_rows, n_placed, identity) \
  ((__typeof__ (column)) _sps_scatter_column (g_steal_pointer (&(column)), (position), (n_rows), \
                                              (n_placed), sizeof *(column), (identity)))

/* A builder instant's scope, stored per row or once */
static inline SpsInstantScope
instant_scope (const SpsTraceBuilder *b,
               guint                  r)
{
  return b->instant_scope != NULL ? b->instant_scope[r] : b->instant_constants.scope;
}

static inline guint32
async_row (Finish  *f,
           guint32  a)
{
  return f->async_first + a;
}

/* sps-trace-finish-sort.c */
void     _sps_sort_rows_with_times  (guint32       *rows,
                                     SpsTime       *times,
                                     gsize          n,
                                     const SpsTime *dur);
void     _sps_sort_rows_by_time     (guint32       *rows,
                                     const SpsTime *ts,
                                     gsize          n);
guint32 *_sps_order_by_key_and_time (const guint64 *key,
                                     const SpsTime *ts,
                                     guint          n);

/* sps-trace-finish-place.c */
gpointer _sps_shrink_column   (gpointer column,
                               gsize    n,
                               gsize    element_size);
guint32 *_sps_order_rows      (const guint32 *track,
                               const SpsTime *ts,
                               guint          n_rows,
                               guint          n_tracks,
                               guint32       *track_start,
                               guint         *n_ordered);
guint    _sps_place_rows      (const guint32 *track,
                               const SpsTime *ts,
                               const SpsTime *dur,
                               guint          n_rows,
                               guint          n_tracks,
                               guint32       *start,
                               guint32       *position);
guint32 *_sps_order_on_tracks (const guint32 *key,
                               const guint32 *map,
                               const SpsTime *ts,
                               guint          n_rows,
                               guint          n_tracks,
                               guint32       *start);
gpointer _sps_gather_column   (gpointer       column,
                               const guint32 *order,
                               guint          n_rows,
                               gsize          element_size);
gboolean _sps_is_identity     (const guint32 *position,
                               guint          n_rows,
                               guint          n_placed);
gpointer _sps_scatter_column  (gpointer        column,
                               const guint32  *position,
                               guint           n_rows,
                               guint           n_placed,
                               gsize           element_size,
                               gboolean        identity);
guint32 *_sps_new_index_array (guint n);

/* sps-trace-finish-pair.c */
void _sps_pair_begin_end   (Finish *f);
void _sps_pair_async       (Finish *f);
void _sps_pack_async_lanes (Finish *f);

/* sps-trace-finish-tracks.c */
void     _sps_build_tracks      (Finish *f);
void     _sps_set_track_rows    (Finish        *f,
                                 const guint32 *start,
                                 guint          kinds);
guint32 *_sps_track_column      (const guint32 *start,
                                 guint          n_tracks,
                                 guint          n_rows);
void     _sps_build_slices      (Finish *f);
void     _sps_build_block_index (Finish *f);
SpsTime *_sps_block_index_new   (SpsTrace *trace);

/* sps-trace-finish-tables.c */
void _sps_build_flows              (Finish *f);
void _sps_build_instants           (Finish *f);
void _sps_build_counters           (Finish *f);
void _sps_build_samples            (Finish *f);
void _sps_build_raw_samples        (Finish *f);
void _sps_build_objects_and_stacks (Finish *f);
void _sps_build_allocations        (Finish *f);

/* sps-trace-finish.c */
void _sps_builder_time_range       (SpsTraceBuilder *b,
                                    SpsTime         *start_out,
                                    SpsTime         *end_out);

/* sps-trace-finish-memory.c */
void _sps_add_outstanding_counters (SpsTraceBuilder *b);

G_END_DECLS
