/* sps-trace-builder-private.h: what the builder's files share
 *
 * SpsTraceBuilder is spread over sps-trace-builder.c, -tables.c,
 * -events.c and -samples.c. This header holds the layouts of its tables
 * (static, so that each file's appends compile to fixed offsets), the
 * inline helpers of every append, the hashes of the row indexes and the
 * probe they use. Nothing here is installed.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <string.h>

#include "sps-trace-builder.h"
#include "sps-trace-private.h"

G_BEGIN_DECLS

/* A column pointer of a table's owner, read and written by offset (with
 * memcpy: the field is declared as a pointer to the element type). */
static inline gpointer
column_get (gconstpointer owner,
            gsize         offset)
{
  gpointer column;

  memcpy (&column, (const char *) owner + offset, sizeof column);
  return column;
}

static inline void
column_set (gpointer owner,
            gsize    offset,
            gpointer column)
{
  memcpy ((char *) owner + offset, &column, sizeof column);
}

static inline guint *
table_count (gpointer owner,
             gsize    offset)
{
  return (guint *) (gpointer) ((char *) owner + offset);
}

/* Writes @value into @row of column @c of @layout, a column that may be
 * stored once: a plain store when it is stored per row, else nothing
 * when @value is the constant (compared as bytes: NAN equals NAN). */
#define CONSTANT_COLUMN_WRITE(owner, layout, c, row, Type, value) \
  G_STMT_START { \
    const SpsColumn *column_ = &(layout)->columns[c]; \
    Type *data_ = column_get ((owner), column_->offset); \
    Type value_ = (value); \
    \
    G_STATIC_ASSERT (sizeof (Type) == sizeof value_); \
    if G_LIKELY (data_ != NULL) \
      data_[row] = value_; \
    else if (memcmp ((const char *) (owner) + column_->constant, &value_, sizeof value_) != 0) \
      _sps_column_write ((owner), (layout), column_, (row), &value_); \
  } G_STMT_END

#define BUILDER_TABLE(n_rows, capacity) \
  G_STRUCT_OFFSET (SpsTraceBuilder, n_rows), G_STRUCT_OFFSET (SpsTraceBuilder, capacity)
#define COLUMN(field) SPS_COLUMN (SpsTraceBuilder, field)

static const SpsTableLayout process_table = {
  BUILDER_TABLE (n_processes, processes_capacity),
  { COLUMN (process_pid), COLUMN (process_name), COLUMN (process_sort_index),
    COLUMN (process_labels), COLUMN (process_display) },
};

static const SpsTableLayout thread_table = {
  BUILDER_TABLE (n_threads, threads_capacity),
  { COLUMN (thread_process), COLUMN (thread_tid), COLUMN (thread_name),
    COLUMN (thread_sort_index) },
};

/* Most traces give no slice a stack: the two callsite columns are stored
 * once until a record differs (SLICE_COLUMN_*). */
enum
{
  SLICE_COLUMN_CALLSITE = 8,
  SLICE_COLUMN_END_CALLSITE,
};

static const SpsTableLayout slice_record_table = {
  BUILDER_TABLE (n_slice_records, slice_records_capacity),
  { COLUMN (slice_ts), COLUMN (slice_dur), COLUMN (slice_name), COLUMN (slice_category),
    COLUMN (slice_thread), COLUMN (slice_args), COLUMN (slice_flags), COLUMN (slice_kind),
    SPS_CONSTANT_COLUMN (SpsTraceBuilder, slice_callsite, slice_constants.callsite),
    SPS_CONSTANT_COLUMN (SpsTraceBuilder, slice_end_callsite, slice_constants.end_callsite) },
};

static const SpsTableLayout async_table = {
  BUILDER_TABLE (n_async, async_capacity),
  { COLUMN (async_ts), COLUMN (async_key), COLUMN (async_process), COLUMN (async_name),
    COLUMN (async_category), COLUMN (async_args), COLUMN (async_phase) },
};

/* An importer's events are mostly of one kind and scope (ETL's and
 * EventPipe's: events on threads): those two columns are stored once
 * until a row differs (INSTANT_COLUMN_*). */
enum
{
  INSTANT_COLUMN_KIND = 5,
  INSTANT_COLUMN_SCOPE,
};

static const SpsTableLayout instant_table = {
  BUILDER_TABLE (n_instants, instants_capacity),
  { COLUMN (instant_ts), COLUMN (instant_name), COLUMN (instant_category),
    COLUMN (instant_owner), COLUMN (instant_args),
    SPS_CONSTANT_COLUMN (SpsTraceBuilder, instant_kind, instant_constants.kind),
    SPS_CONSTANT_COLUMN (SpsTraceBuilder, instant_scope, instant_constants.scope),
    COLUMN (instant_event) },
};

static const SpsTableLayout counter_table = {
  BUILDER_TABLE (n_counters, counters_capacity),
  { COLUMN (counter_process), COLUMN (counter_name), COLUMN (counter_series) },
};

static const SpsTableLayout counter_value_table = {
  BUILDER_TABLE (n_counter_values, counter_values_capacity),
  { COLUMN (value_counter), COLUMN (value_ts), COLUMN (value_value) },
};

static const SpsTableLayout flow_point_table = {
  BUILDER_TABLE (n_flow_points, flow_points_capacity),
  { COLUMN (flow_key), COLUMN (flow_ts), COLUMN (flow_thread), COLUMN (flow_handle),
    COLUMN (flow_name), COLUMN (flow_category), COLUMN (flow_phase), COLUMN (flow_bind) },
};

static const SpsTableLayout object_table = {
  BUILDER_TABLE (n_objects, objects_capacity),
  { COLUMN (object_ts), COLUMN (object_key), COLUMN (object_process), COLUMN (object_name),
    COLUMN (object_args), COLUMN (object_phase) },
};

static const SpsTableLayout allocation_table = {
  BUILDER_TABLE (n_allocations, allocations_capacity),
  { COLUMN (alloc_birth), COLUMN (alloc_death), COLUMN (alloc_death_after),
    COLUMN (alloc_death_by), COLUMN (alloc_size), COLUMN (alloc_address),
    COLUMN (alloc_type), COLUMN (alloc_callsite), COLUMN (alloc_process),
    COLUMN (alloc_thread), COLUMN (alloc_heap), COLUMN (alloc_certainty) },
};

static const SpsTableLayout gc_observation_table = {
  BUILDER_TABLE (n_gc_observations, gc_observations_capacity),
  { COLUMN (gc_ts), COLUMN (gc_process), COLUMN (gc_thread), COLUMN (gc_kind),
    COLUMN (gc_number), COLUMN (gc_generation), COLUMN (gc_reason), COLUMN (gc_bytes) },
};

static const SpsTableLayout frame_table = {
  BUILDER_TABLE (n_frames, frames_capacity),
  { COLUMN (frame_name), COLUMN (frame_category), COLUMN (frame_module),
    COLUMN (frame_address), COLUMN (frame_source_file), COLUMN (frame_source_line),
    COLUMN (frame_source_column) },
};

static const SpsTableLayout callsite_table = {
  BUILDER_TABLE (n_callsites, callsites_capacity),
  { COLUMN (callsite_parent), COLUMN (callsite_frame), COLUMN (callsite_depth) },
};

/* Sample columns that an importer often fills with one value (a CPU
 * profile's event name, weight, unit and flags) are stored once until a
 * row differs. The columns of both sample tables come in the same order,
 * so that one append serves both (SAMPLE_COLUMN_*). */
#define CONSTANT(field, value) SPS_CONSTANT_COLUMN (SpsTraceBuilder, field, value)

enum
{
  SAMPLE_COLUMN_TS,
  SAMPLE_COLUMN_THREAD,
  SAMPLE_COLUMN_NAME,
  SAMPLE_COLUMN_CALLSITE,
  SAMPLE_COLUMN_RAW_STACK_REF,
  SAMPLE_COLUMN_WEIGHT,
  SAMPLE_COLUMN_WEIGHT_UNIT,
  SAMPLE_COLUMN_FLAGS,
  SAMPLE_COLUMN_LINE,
};

static const SpsTableLayout sample_table = {
  BUILDER_TABLE (n_samples, samples_capacity),
  { COLUMN (sample_ts), COLUMN (sample_thread),
    CONSTANT (sample_name, sample_constants.event_name),
    COLUMN (sample_callsite),
    CONSTANT (sample_raw_stack_ref, sample_constants.raw_stack_ref),
    CONSTANT (sample_weight, sample_constants.weight),
    CONSTANT (sample_weight_unit, sample_constants.weight_unit),
    CONSTANT (sample_flags, sample_constants.flags),
    CONSTANT (sample_line, sample_constants.line) },
};

static const SpsTableLayout raw_sample_table = {
  BUILDER_TABLE (n_raw_samples, raw_samples_capacity),
  { COLUMN (raw_sample_ts), COLUMN (raw_sample_thread),
    CONSTANT (raw_sample_name, raw_sample_constants.event_name),
    COLUMN (raw_sample_callsite),
    CONSTANT (raw_sample_raw_stack_ref, raw_sample_constants.raw_stack_ref),
    CONSTANT (raw_sample_weight, raw_sample_constants.weight),
    CONSTANT (raw_sample_weight_unit, raw_sample_constants.weight_unit),
    CONSTANT (raw_sample_flags, raw_sample_constants.flags),
    CONSTANT (raw_sample_line, raw_sample_constants.line) },
};

#undef COLUMN
#undef BUILDER_TABLE

/* sps-trace-builder-tables.c */
guint32 _sps_trace_builder_append_row_slow (SpsTraceBuilder      *self,
                                            const SpsTableLayout *layout);
guint   _sps_trace_builder_reserve_rows    (SpsTraceBuilder      *self,
                                            const SpsTableLayout *layout,
                                            guint                 n);
void    _sps_trace_builder_table_full      (SpsTraceBuilder      *self,
                                            const SpsTableLayout *layout);

/* The index of a new last row of @layout's table, whose columns are
 * grown first when they are full. A table that already holds
 * self->max_rows rows gets none: the builder becomes full, and the
 * caller checks self->full before writing the row it was given. */
static inline guint32
append_row (SpsTraceBuilder      *self,
            const SpsTableLayout *layout)
{
  guint *n_rows = table_count (self, layout->n_rows);

  if G_UNLIKELY (*n_rows == *table_count (self, layout->capacity) || *n_rows >= self->max_rows)
    return _sps_trace_builder_append_row_slow (self, layout);

  return (*n_rows)++;
}

/* Every public function that adds to the builder, or changes a row of
 * it, returns at once when the builder is full: the events after the
 * first one that did not fit are dropped, and the ids an importer holds
 * for them (%SPS_NO_INDEX) must not reach the checks that follow. */
#define RETURN_IF_FULL(self, val) \
  G_STMT_START { if G_UNLIKELY ((self)->full) return val; } G_STMT_END

static inline guint32
mix64 (guint64 x)
{
  x ^= x >> 30;
  x *= G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  x ^= x >> 27;
  x *= G_GUINT64_CONSTANT (0x94d049bb133111eb);
  x ^= x >> 31;
  return (guint32) x;
}

static inline guint32
hash_pair (guint64 a,
           guint64 b)
{
  return mix64 (a * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15) ^ b);
}

/* Row indexes: the slot array is rebuilt from the key columns when it gets
 * half full, so a table's hash function takes a row. */

typedef guint32 (*SpsRowHashFunc) (SpsTraceBuilder *self,
                                   guint32          row);

/* Probes for @hash; returns the slot that holds a row equal to the key (as
 * told by @equal on each candidate) or the empty slot where it belongs. */
#define ROW_INDEX_PROBE(index, hash, row_var, equal, slot_out)             \
  G_STMT_START {                                                           \
    guint _mask = (index)->n_slots - 1;                                    \
    guint _i = (hash) & _mask;                                             \
    for (;;)                                                               \
      {                                                                    \
        guint32 _s = (index)->slots[_i];                                   \
        if (_s == 0)                                                       \
          break;                                                           \
        row_var = _s - 1;                                                  \
        if (equal)                                                         \
          break;                                                           \
        _i = (_i + 1) & _mask;                                             \
      }                                                                    \
    slot_out = _i;                                                         \
  } G_STMT_END

/* sps-trace-builder-tables.c */
void _sps_row_index_insert (SpsTraceBuilder *self,
                            SpsRowIndex     *index,
                            guint            slot,
                            guint32          row,
                            guint            n_rows,
                            SpsRowHashFunc   hash);

G_END_DECLS
