/* sps-trace-private.h: the builder and trace internals shared by
 * sps-trace-builder.c, sps-trace-finish.c and sps-trace.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "sps-string-pool-private.h"
#include "sps-trace-builder.h"
#include "sps-trace.h"

G_BEGIN_DECLS

/* Deepest depth a slice or callsite gets, so that max_depth (depth + 1)
 * still fits its guint16 column. */
#define SPS_MAX_DEPTH             (G_MAXUINT16 - 1)

/* Slices per block of the range index. */
#define SPS_SLICE_BLOCK_SIZE      256

/* Handles of async records carry this bit so that a flow point bound with
 * %SPS_FLOW_BIND_SLICE can name an async slice too. */
#define SPS_ASYNC_HANDLE_BIT      (1u << 31)

#define SPS_N_TRACK_KINDS         (SPS_TRACK_THREAD_SAMPLES + 1)

/* What a row of the builder's slice records holds. */
typedef enum
{
  SPS_SLICE_RECORD_COMPLETE,
  SPS_SLICE_RECORD_BEGIN,
  SPS_SLICE_RECORD_END,
  SPS_SLICE_RECORD_ASYNC,     /* appended by finish() from async records */
} SpsSliceRecordKind;

/* A struct-of-arrays table, described once as offsets into the struct
 * that owns it, so that growing, freeing and measuring it go through one
 * list of its columns and none can be forgotten. */
#define SPS_MAX_COLUMNS           12

typedef struct
{
  gsize offset;               /* of the column's pointer in the owner */
  gsize element_size;
  gsize constant;             /* offset of the value every row holds while
                               * the pointer is NULL; 0: always stored */
} SpsColumn;

typedef struct
{
  gsize     n_rows;           /* offset of the owner's guint row count */
  gsize     capacity;         /* offset of its guint capacity; 0: none */
  SpsColumn columns[SPS_MAX_COLUMNS];  /* up to the first of size 0 */
} SpsTableLayout;

#define SPS_COLUMN(Owner, field) \
  { G_STRUCT_OFFSET (Owner, field), sizeof *((Owner *) NULL)->field, 0 }
/* A column stored once while every row holds one value (@value's), and
 * materialised when a row differs */
#define SPS_CONSTANT_COLUMN(Owner, field, value) \
  { G_STRUCT_OFFSET (Owner, field), sizeof *((Owner *) NULL)->field, G_STRUCT_OFFSET (Owner, value) }

/* A builder sample's value in a column that may be stored once; @field
 * is the column's name after "sample_" (name: the event's name) */
#define SPS_SAMPLE_VALUE_OF_BUILDER(self, field, row) \
  ((self)->sample_##field != NULL ? (self)->sample_##field[row] \
                                  : (self)->sample_constants.SPS_SAMPLE_CONSTANT_##field)
#define SPS_SAMPLE_CONSTANT_name          event_name
#define SPS_SAMPLE_CONSTANT_raw_stack_ref raw_stack_ref
#define SPS_SAMPLE_CONSTANT_weight        weight
#define SPS_SAMPLE_CONSTANT_weight_unit   weight_unit
#define SPS_SAMPLE_CONSTANT_flags         flags
#define SPS_SAMPLE_CONSTANT_line          line

/* A table's value at @row of a column that may be constant (samples,
 * slices: the tables with a constants member) */
#define SPS_TABLE_VALUE(table, column, row) \
  ((table)->column != NULL ? (table)->column[row] : (table)->constants.column)
#define SPS_SAMPLE_VALUE(table, column, row) SPS_TABLE_VALUE (table, column, row)

/* Open-addressing index over the rows of a table: a slot holds row + 1,
 * 0 is empty. Each table compares its own key columns. */
typedef struct
{
  guint32 *slots;
  guint    n_slots;
} SpsRowIndex;

struct _SpsTraceBuilder
{
  GObject           parent_instance;

  SpsStringPool    *strings;
  GBytes           *source;
  GByteArray       *arena;
  GPtrArray        *decoders;           /* SpsArgsDecoder: number n at n - 1 */
  char             *format;
  char             *display_time_unit;
  guint64           events_read;
  guint64           metadata_events;
  gboolean          finished;
  /* Rows a table keeps (G_MAXINT32 but in tests); once one is past it,
   * full is set and every later event is dropped (warning "row_limit") */
  guint             max_rows;
  gboolean          full;

  /* Warnings: name → position + 1 in the arrays */
  GHashTable       *warning_index;
  GPtrArray        *warning_names;
  GArray           *warning_counts;     /* guint64 */
  GPtrArray        *warning_messages;

  GArray           *metadata_keys;      /* guint32 */
  GArray           *metadata_values;    /* SpsArgsRef */

  GArray           *info_names;         /* guint32 */
  GArray           *info_values;        /* SpsArgsRef */

  /* Processes */
  guint             n_processes;
  guint             processes_capacity;
  gint64           *process_pid;
  guint32          *process_name;
  gint32           *process_sort_index;
  guint32          *process_labels;
  guint8           *process_display;
  SpsRowIndex       process_index;

  /* Threads */
  guint             n_threads;
  guint             threads_capacity;
  guint32          *thread_process;
  gint64           *thread_tid;
  guint32          *thread_name;
  gint32           *thread_sort_index;
  SpsRowIndex       thread_index;

  /* X, B and E records (and, during finish, async slices) */
  guint             n_slice_records;
  guint             slice_records_capacity;
  guint             n_begin_end_records;
  SpsTime          *slice_ts;
  SpsTime          *slice_dur;
  guint32          *slice_name;
  guint32          *slice_category;
  guint32          *slice_thread;       /* becomes the track in finish */
  SpsArgsRef       *slice_args;
  guint16          *slice_flags;
  guint8           *slice_kind;         /* SpsSliceRecordKind */
  GArray           *open_complete;      /* guint32: X rows that end with the trace */
  /* Reused by _sps_args_merge() */
  GArray           *merge_members[2];
  GString          *merge_text;
  guint32          *slice_callsite;     /* sf/stack; an E's own stack; may be constant */
  guint32          *slice_end_callsite; /* esf of an X; the E's of a B; may be constant */
  SpsSliceConstants slice_constants;    /* the two above while stored once */

  /* Async records */
  guint             n_async;
  guint             async_capacity;
  SpsTime          *async_ts;
  guint64          *async_key;
  guint32          *async_process;
  guint32          *async_name;
  guint32          *async_category;
  SpsArgsRef       *async_args;
  guint8           *async_phase;        /* SpsAsyncPhase */

  /* Instants; owner is a thread or a process depending on the scope */
  guint             n_instants;
  guint             instants_capacity;
  SpsTime          *instant_ts;
  guint32          *instant_name;
  guint32          *instant_category;
  guint32          *instant_owner;
  SpsArgsRef       *instant_args;
  guint8           *instant_kind;       /* SpsInstantKind; NULL while stored once */
  guint8           *instant_scope;      /* SpsInstantScope; NULL while stored once */
  guint32          *instant_event;      /* SpsEventDescriptor */
  struct
  {
    guint8          kind;
    guint8          scope;
  } instant_constants;                  /* the two above while stored once */

  /* Counter series */
  guint             n_counters;
  guint             counters_capacity;
  guint32          *counter_process;
  guint32          *counter_name;
  guint32          *counter_series;
  SpsRowIndex       counter_index;

  /* Counter values */
  guint             n_counter_values;
  guint             counter_values_capacity;
  guint32          *value_counter;
  SpsTime          *value_ts;
  double           *value_value;

  /* Flow points */
  guint             n_flow_points;
  guint             flow_points_capacity;
  guint64          *flow_key;
  SpsTime          *flow_ts;
  guint32          *flow_thread;
  guint32          *flow_handle;
  guint32          *flow_name;
  guint32          *flow_category;
  guint8           *flow_phase;         /* SpsFlowPhase */
  guint8           *flow_bind;          /* SpsFlowBind */

  /* Object events */
  guint             n_objects;
  guint             objects_capacity;
  SpsTime          *object_ts;
  guint64          *object_key;
  guint32          *object_process;
  guint32          *object_name;
  SpsArgsRef       *object_args;
  guint8           *object_phase;       /* SpsObjectPhase */

  /* Allocations */
  guint             n_allocations;
  guint             allocations_capacity;
  SpsTime          *alloc_birth;
  SpsTime          *alloc_death;
  SpsTime          *alloc_death_after;
  SpsTime          *alloc_death_by;
  guint64          *alloc_size;
  guint64          *alloc_address;
  guint32          *alloc_type;
  guint32          *alloc_callsite;
  guint32          *alloc_process;
  guint32          *alloc_thread;
  guint8           *alloc_heap;         /* SpsHeapKind */
  guint8           *alloc_certainty;    /* SpsAllocationCertainty */

  /* Garbage collector observations */
  guint             n_gc_observations;
  guint             gc_observations_capacity;
  SpsTime          *gc_ts;
  guint32          *gc_process;
  guint32          *gc_thread;
  guint8           *gc_kind;            /* SpsGcKind */
  guint32          *gc_number;
  gint32           *gc_generation;
  guint32          *gc_reason;
  guint64          *gc_bytes;
  /* Category of the GC slices, 0 until the first: finish() gives their
   * async trees lanes of their own, named gc_lane_name */
  guint32           gc_category;
  guint32           gc_lane_name;
  /* GC slice key → begins not ended yet, so that an end seen without its
   * begin (a capture that starts during a GC) closes nothing */
  GHashTable       *gc_open;

  /* Frames */
  guint             n_frames;
  guint             frames_capacity;
  guint32          *frame_name;
  guint32          *frame_category;
  guint32          *frame_module;
  guint64          *frame_address;
  guint32          *frame_source_file;
  guint32          *frame_source_line;
  guint32          *frame_source_column;
  SpsRowIndex       frame_index;

  /* Callsites */
  guint             n_callsites;
  guint             callsites_capacity;
  guint32          *callsite_parent;
  guint32          *callsite_frame;
  guint16          *callsite_depth;
  SpsRowIndex       callsite_index;

  /* Samples */
  guint             n_samples;
  guint             samples_capacity;
  SpsTime          *sample_ts;
  guint32          *sample_thread;
  guint32          *sample_name;
  guint32          *sample_callsite;
  guint32          *sample_raw_stack_ref;
  double           *sample_weight;
  guint8           *sample_weight_unit; /* SpsWeightUnit */
  guint8           *sample_flags;       /* SpsSampleFlags */
  guint32          *sample_line;        /* source line in the leaf, 0: unknown */
  /* The values of name, raw stack ref, weight, unit, flags and line while
   * their columns are NULL: every sample holds them (sample_table) */
  SpsSampleConstants sample_constants;

  /* Raw samples: the stacks as read, kept when an analysis (stack
   * repair) rewrote the samples above */
  guint             n_raw_samples;
  guint             raw_samples_capacity;
  SpsTime          *raw_sample_ts;
  guint32          *raw_sample_thread;
  guint32          *raw_sample_name;
  guint32          *raw_sample_callsite;
  guint32          *raw_sample_raw_stack_ref;
  double           *raw_sample_weight;
  guint8           *raw_sample_weight_unit;
  guint8           *raw_sample_flags;
  guint32          *raw_sample_line;
  SpsSampleConstants raw_sample_constants;

  /* A saved profile's finished trace (sps_trace_builder_load_profile()),
   * which finish() returns as it is */
  SpsTrace         *profile_trace;
};

struct _SpsTrace
{
  GObject           parent_instance;

  SpsStringPool    *strings;
  GBytes           *source;
  GBytes           *arena;
  GPtrArray        *decoders;           /* SpsArgsDecoder: number n at n - 1 */
  char             *format;
  char             *display_time_unit;
  SpsTime           start_time;
  SpsTime           end_time;
  guint64           events_read;
  guint64           metadata_events;
  GError           *load_error;
  GFile            *file;               /* what sps_trace_load() read, or NULL */

  /* A trace reopened from a saved profile: the capture it was first
   * imported from, as the profile's meta names it, so that saving it
   * again still names the capture (origin_size -1: unknown) */
  gboolean          has_origin;
  char             *origin_file;
  gint64            origin_size;
  char             *origin_sha256;
  char             *origin_import_options;

  /* Sorted by name */
  guint             n_warnings;
  char            **warning_names;
  guint64          *warning_counts;
  char            **warning_messages;

  guint             n_metadata;
  guint32          *metadata_keys;
  SpsArgsRef       *metadata_values;

  guint             n_info_sections;
  guint32          *info_names;
  SpsArgsRef       *info_values;

  /* Completed slices (no UNFINISHED, UNMATCHED_END or STEP) per track kind */
  guint             slice_counts[SPS_N_TRACK_KINDS];

  /* The tables own their columns (freed in finalize). */
  SpsProcessTable   processes;
  SpsThreadTable    threads;
  SpsTrackTable     tracks;
  SpsSliceTable     slices;
  SpsInstantTable   instants;
  SpsCounterTable   counters;
  SpsFlowTable      flows;
  SpsSampleTable    samples;
  SpsCallsiteTable  callsites;
  SpsFrameTable     frames;
  SpsObjectTable    objects;
  SpsAllocationTable allocations;
  SpsGcObservationTable gc_observations;

  /* Block index: blocks of SPS_SLICE_BLOCK_SIZE consecutive slices of a
   * track; track t's are track_first_block[t] … track_first_block[t + 1]
   * − 1 (n_tracks + 1 entries). block_tree is a perfect binary max-tree
   * over the blocks' max end times: node 1 is the root, block b's leaf is
   * block_tree[n_block_leaves + b], padding is SPS_TIME_MIN. */
  guint32          *track_first_block;
  SpsTime          *block_tree;
  guint             n_block_leaves;

  /* The samples as read when an analysis rewrote them (sorted like
   * samples); empty otherwise */
  SpsSampleTable    raw_samples;
};

void     _sps_advise_huge_pages           (gpointer              mem,
                                           gsize                 size);
gpointer _sps_alloc_large                 (gsize                 size);
void     _sps_table_grow                  (gpointer              owner,
                                           const SpsTableLayout *layout);
gpointer _sps_column_materialise          (gpointer              owner,
                                           const SpsTableLayout *layout,
                                           const SpsColumn      *column);
void     _sps_column_write                (gpointer              owner,
                                           const SpsTableLayout *layout,
                                           const SpsColumn      *column,
                                           guint                 row,
                                           gconstpointer         value);
void     _sps_table_free                  (gpointer              owner,
                                           const SpsTableLayout *layout);
gsize    _sps_table_get_memory_size       (gconstpointer         owner,
                                           const SpsTableLayout *layout);

void     _sps_trace_builder_warn_count    (SpsTraceBuilder *self,
                                           const char      *name,
                                           guint64          count,
                                           const char      *message);
void     _sps_trace_builder_free_records  (SpsTraceBuilder *self);
/* Exported for the tests of the limits only */
_SPS_EXTERN
void     _sps_trace_builder_set_max_rows  (SpsTraceBuilder *self,
                                           guint            max_rows);
void     _sps_trace_builder_check_string_limit (SpsTraceBuilder *self);

guint32  _sps_trace_builder_append_slice_record (SpsTraceBuilder    *self,
                                                 SpsSliceRecordKind  kind,
                                                 guint32             thread,
                                                 SpsTime             ts,
                                                 SpsTime             dur,
                                                 guint32             name,
                                                 guint32             category,
                                                 SpsArgsRef          args,
                                                 guint16             flags);

void     _sps_trace_builder_set_sample_flags (SpsTraceBuilder *self,
                                             const guint8    *flags);
void     _sps_trace_builder_remove_samples (SpsTraceBuilder *self,
                                            const guint8    *remove);

/* The trace's own table list, for the saved profile's test that none is
 * left out (exported for that test only) */
_SPS_EXTERN
const SpsTableLayout *_sps_trace_get_layouts (guint *n_layouts);
void     _sps_trace_store_constants       (SpsTrace        *self);

void     _sps_trace_set_load_error        (SpsTrace        *self,
                                           const GError    *error);
void     _sps_trace_set_file              (SpsTrace        *self,
                                           GFile           *file);

/* Where an allocation stands at a time (sps_trace_sum_outstanding(), the
 * outstanding tree and the "Outstanding bytes" counters agree through
 * this): surely alive from birth until death_after when exact (an in_gap
 * record until its gap, which is its death_after), possibly alive from
 * then until death_by; sampled records and those of unknown birth or
 * death are only ever possibly alive. */
typedef enum
{
  SPS_ALLOCATION_STATE_GONE,
  SPS_ALLOCATION_STATE_KNOWN,
  SPS_ALLOCATION_STATE_UNCERTAIN,
} SpsAllocationState;

static inline SpsAllocationState
_sps_allocation_state (const SpsAllocationTable *a,
                       guint                     r,
                       SpsTime                   time)
{
  if (a->birth[r] > time || time >= a->death_by[r])
    return SPS_ALLOCATION_STATE_GONE;
  if ((a->certainty[r] == SPS_ALLOCATION_EXACT || a->certainty[r] == SPS_ALLOCATION_IN_GAP) &&
      time < a->death_after[r])
    return SPS_ALLOCATION_STATE_KNOWN;
  return SPS_ALLOCATION_STATE_UNCERTAIN;
}

/* Sizes come from files: a crafted one must not wrap a sum; unknown
 * sizes add nothing */
static inline guint64
_sps_add_bytes (guint64 sum,
                guint64 size)
{
  guint64 r;

  if (size == SPS_SIZE_UNKNOWN)
    return sum;
  return __builtin_add_overflow (sum, size, &r) ? G_MAXUINT64 - 1 : r;
}

G_END_DECLS
