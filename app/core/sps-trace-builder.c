/* sps-trace-builder.c: append-only columns an importer writes to
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-trace-builder"

#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>
#ifdef HAVE_MADVISE
#include <sys/mman.h>
#endif

#include <glib/gi18n-lib.h>

#include "sps-trace-builder.h"
#include "sps-trace-private.h"
#include "sps-args-merge-private.h"

/**
 * SpsTraceBuilder:
 *
 * The write side of a trace. An importer, on one worker thread, appends
 * events as they come: every add_*() call stores a row in struct-of-arrays
 * columns, with no sorting, no pairing and no per-event hashing (only
 * processes, threads, counter series, frames and callsites are looked up,
 * and importers cache those). sps_trace_builder_finish() then sorts,
 * pairs and indexes everything into an immutable #SpsTrace.
 */

G_DEFINE_FINAL_TYPE (SpsTraceBuilder, sps_trace_builder, G_TYPE_OBJECT)

#define MIN_ROWS 256

/* Growth doubles: large columns are mmapped by malloc, so realloc moves
 * them with mremap and the untouched tail costs no resident memory. */
static guint
next_capacity (guint capacity)
{
  if (capacity >= G_MAXUINT32 / 2)
    g_error ("Trace builder table is full");

  return capacity < MIN_ROWS ? MIN_ROWS : capacity * 2;
}

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

#define FOREACH_COLUMN(column, layout) \
  for (const SpsColumn *column = (layout)->columns; \
       column < (layout)->columns + SPS_MAX_COLUMNS && column->element_size != 0; \
       column++)

#define HUGE_PAGE_SIZE ((gsize) 2 << 20)
#define OWN_MAPPING_SIZE ((gsize) 32 << 20)

/**
 * _sps_advise_huge_pages:
 * @mem: the start of an allocation
 * @size: its size in bytes
 *
 * Asks for transparent huge pages on the 2 MiB pages inside a large
 * allocation: columns of millions of rows are written once from end to
 * end, and faulting them in 4 KiB at a time (each charged to the memory
 * cgroup) costs more than filling them.
 */
void
_sps_advise_huge_pages (gpointer mem,
                        gsize    size)
{
#ifdef HAVE_MADVISE
  guintptr start = ((guintptr) mem + HUGE_PAGE_SIZE - 1) & ~(guintptr) (HUGE_PAGE_SIZE - 1);
  guintptr end = ((guintptr) mem + size) & ~(guintptr) (HUGE_PAGE_SIZE - 1);

  /* Only a hint: where it is refused, plain pages do */
  if (mem != NULL && end > start)
    (void) madvise ((gpointer) start, end - start, MADV_HUGEPAGE);
#else
  (void) mem;
  (void) size;
#endif
}

/* g_malloc() with _sps_advise_huge_pages() */
gpointer
_sps_alloc_large (gsize size)
{
  gpointer mem = g_malloc (size);

  _sps_advise_huge_pages (mem, size);
  return mem;
}

/* Grows every column of the table to the next capacity. */
void
_sps_table_grow (gpointer              owner,
                 const SpsTableLayout *layout)
{
  guint *capacity;
  guint cap;

  g_assert (owner != NULL);
  g_assert (layout != NULL && layout->capacity != 0);

  capacity = table_count (owner, layout->capacity);
  cap = next_capacity (*capacity);
  FOREACH_COLUMN (column, layout)
    {
      gpointer old = column_get (owner, column->offset);
      gsize size = (gsize) cap * column->element_size;
      gpointer mem;

      /* A column of 32 MiB and more has its own mapping in glibc's
       * malloc (its dynamic mmap threshold stops there), which realloc()
       * moves with mremap(): no copy, and the pages stay huge. Below that,
       * realloc() would copy into plain pages faulted in one by one, so
       * the new column gets the hint before the copy. */
      if ((gsize) *capacity * column->element_size >= OWN_MAPPING_SIZE)
        {
          mem = g_realloc_n (old, cap, column->element_size);
          _sps_advise_huge_pages (mem, size);
        }
      else if (size >= HUGE_PAGE_SIZE)
        {
          mem = _sps_alloc_large (size);
          memcpy (mem, old, (gsize) *table_count (owner, layout->n_rows) * column->element_size);
          g_free (old);
        }
      else
        mem = g_realloc_n (old, cap, column->element_size);
      column_set (owner, column->offset, mem);
    }
  *capacity = cap;
}

/* Frees every column of the table and empties it. */
void
_sps_table_free (gpointer              owner,
                 const SpsTableLayout *layout)
{
  g_assert (owner != NULL);
  g_assert (layout != NULL);

  FOREACH_COLUMN (column, layout)
    {
      g_free (column_get (owner, column->offset));
      column_set (owner, column->offset, NULL);
    }
  *table_count (owner, layout->n_rows) = 0;
  if (layout->capacity != 0)
    *table_count (owner, layout->capacity) = 0;
}

/* The bytes the table's rows take, all columns together. */
gsize
_sps_table_get_memory_size (gconstpointer         owner,
                            const SpsTableLayout *layout)
{
  gsize row_size = 0;
  guint n_rows;

  g_assert (owner != NULL);
  g_assert (layout != NULL);

  memcpy (&n_rows, (const char *) owner + layout->n_rows, sizeof n_rows);
  FOREACH_COLUMN (column, layout)
    row_size += column->element_size;

  return (gsize) n_rows * row_size;
}

#define BUILDER_TABLE(n_rows, capacity) \
  G_STRUCT_OFFSET (SpsTraceBuilder, n_rows), G_STRUCT_OFFSET (SpsTraceBuilder, capacity)
#define COLUMN(field) SPS_COLUMN (SpsTraceBuilder, field)

static const SpsTableLayout process_table = {
  BUILDER_TABLE (n_processes, processes_capacity),
  { COLUMN (process_pid), COLUMN (process_name), COLUMN (process_sort_index),
    COLUMN (process_labels) },
};

static const SpsTableLayout thread_table = {
  BUILDER_TABLE (n_threads, threads_capacity),
  { COLUMN (thread_process), COLUMN (thread_tid), COLUMN (thread_name),
    COLUMN (thread_sort_index) },
};

static const SpsTableLayout slice_record_table = {
  BUILDER_TABLE (n_slice_records, slice_records_capacity),
  { COLUMN (slice_ts), COLUMN (slice_dur), COLUMN (slice_name), COLUMN (slice_category),
    COLUMN (slice_thread), COLUMN (slice_args), COLUMN (slice_flags), COLUMN (slice_kind),
    COLUMN (slice_callsite), COLUMN (slice_end_callsite) },
};

static const SpsTableLayout async_table = {
  BUILDER_TABLE (n_async, async_capacity),
  { COLUMN (async_ts), COLUMN (async_key), COLUMN (async_process), COLUMN (async_name),
    COLUMN (async_category), COLUMN (async_args), COLUMN (async_phase) },
};

static const SpsTableLayout instant_table = {
  BUILDER_TABLE (n_instants, instants_capacity),
  { COLUMN (instant_ts), COLUMN (instant_name), COLUMN (instant_category),
    COLUMN (instant_owner), COLUMN (instant_args), COLUMN (instant_kind),
    COLUMN (instant_scope) },
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

static const SpsTableLayout sample_table = {
  BUILDER_TABLE (n_samples, samples_capacity),
  { COLUMN (sample_ts), COLUMN (sample_thread), COLUMN (sample_name),
    COLUMN (sample_callsite), COLUMN (sample_raw_stack_ref), COLUMN (sample_weight),
    COLUMN (sample_weight_unit), COLUMN (sample_flags), COLUMN (sample_line) },
};

static const SpsTableLayout raw_sample_table = {
  BUILDER_TABLE (n_raw_samples, raw_samples_capacity),
  { COLUMN (raw_sample_ts), COLUMN (raw_sample_thread), COLUMN (raw_sample_name),
    COLUMN (raw_sample_callsite), COLUMN (raw_sample_raw_stack_ref), COLUMN (raw_sample_weight),
    COLUMN (raw_sample_weight_unit), COLUMN (raw_sample_flags), COLUMN (raw_sample_line) },
};

#undef COLUMN
#undef BUILDER_TABLE

static const SpsTableLayout * const builder_tables[] = {
  &process_table, &thread_table, &slice_record_table, &async_table, &instant_table,
  &counter_table, &counter_value_table, &flow_point_table, &object_table, &frame_table,
  &callsite_table, &sample_table, &raw_sample_table,
};

/* The index of a new last row of @layout's table, whose columns are
 * grown first when they are full. */
static inline guint32
append_row (SpsTraceBuilder      *self,
            const SpsTableLayout *layout)
{
  guint *n_rows = table_count (self, layout->n_rows);

  if G_UNLIKELY (*n_rows == *table_count (self, layout->capacity))
    _sps_table_grow (self, layout);

  return (*n_rows)++;
}

/* A new row of the sample table or of the raw sample table: both have the
 * same columns in the same order (sample_table, raw_sample_table). */
static guint32
append_sample_row (SpsTraceBuilder      *self,
                   const SpsTableLayout *layout,
                   SpsTime               ts,
                   guint32               thread,
                   guint32               name,
                   guint32               callsite,
                   guint32               raw_stack_ref,
                   double                weight,
                   SpsWeightUnit         weight_unit,
                   SpsSampleFlags        flags)
{
  guint32 row = append_row (self, layout);

  g_assert (layout == &sample_table || layout == &raw_sample_table);

  ((SpsTime *) column_get (self, layout->columns[0].offset))[row] = ts;
  ((guint32 *) column_get (self, layout->columns[1].offset))[row] = thread;
  ((guint32 *) column_get (self, layout->columns[2].offset))[row] = name;
  ((guint32 *) column_get (self, layout->columns[3].offset))[row] = callsite;
  ((guint32 *) column_get (self, layout->columns[4].offset))[row] = raw_stack_ref;
  ((double *) column_get (self, layout->columns[5].offset))[row] = weight;
  ((guint8 *) column_get (self, layout->columns[6].offset))[row] = weight_unit;
  ((guint8 *) column_get (self, layout->columns[7].offset))[row] = flags;
  ((guint32 *) column_get (self, layout->columns[8].offset))[row] = 0;

  return row;
}

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

/* Key hashes, shared by the probes and by the rebuilds of the indexes */

static inline guint32
thread_key_hash (guint32 process,
                 gint64  tid)
{
  return hash_pair (process, (guint64) tid);
}

static inline guint32
counter_key_hash (guint32 process,
                  guint32 name,
                  guint32 series)
{
  return hash_pair (((guint64) process << 32) | name, series);
}

static inline guint32
frame_key_hash (guint32 name,
                guint32 category,
                guint32 module,
                guint64 address,
                guint32 source_file,
                guint32 source_line,
                guint32 source_column)
{
  guint64 location = ((guint64) source_line << 32 | source_column) ^ ((guint64) source_file << 16);

  return hash_pair (((guint64) name << 32) | category,
                    mix64 (((guint64) module << 32) ^ address ^ mix64 (location)) ^ address);
}

/* Row indexes: the slot array is rebuilt from the key columns when it gets
 * half full, so a table's hash function takes a row. */

typedef guint32 (*RowHashFunc) (SpsTraceBuilder *self,
                                guint32          row);

static guint32
process_row_hash (SpsTraceBuilder *self,
                  guint32          row)
{
  return mix64 ((guint64) self->process_pid[row]);
}

static guint32
thread_row_hash (SpsTraceBuilder *self,
                 guint32          row)
{
  return thread_key_hash (self->thread_process[row], self->thread_tid[row]);
}

static guint32
counter_row_hash (SpsTraceBuilder *self,
                  guint32          row)
{
  return counter_key_hash (self->counter_process[row], self->counter_name[row],
                           self->counter_series[row]);
}

static guint32
frame_row_hash (SpsTraceBuilder *self,
                guint32          row)
{
  return frame_key_hash (self->frame_name[row], self->frame_category[row],
                         self->frame_module[row], self->frame_address[row],
                         self->frame_source_file[row], self->frame_source_line[row],
                         self->frame_source_column[row]);
}

static guint32
callsite_row_hash (SpsTraceBuilder *self,
                   guint32          row)
{
  return hash_pair (self->callsite_parent[row], self->callsite_frame[row]);
}

static void
row_index_clear (SpsRowIndex *index)
{
  g_clear_pointer (&index->slots, g_free);
  index->n_slots = 0;
}

/* Inserts @row in the empty slot @slot found by the caller's probe, then
 * grows the table when @n_rows reaches half of it. */
static void
row_index_insert (SpsTraceBuilder *self,
                  SpsRowIndex     *index,
                  guint            slot,
                  guint32          row,
                  guint            n_rows,
                  RowHashFunc      hash)
{
  guint n_slots;
  guint mask;

  g_assert (index->slots[slot] == 0);

  index->slots[slot] = row + 1;
  if ((gsize) n_rows * 2 <= index->n_slots)
    return;

  n_slots = index->n_slots * 2;
  mask = n_slots - 1;
  g_free (index->slots);
  index->slots = g_new0 (guint32, n_slots);
  index->n_slots = n_slots;

  for (guint32 r = 0; r < n_rows; r++)
    {
      guint i = hash (self, r) & mask;

      while (index->slots[i] != 0)
        i = (i + 1) & mask;
      index->slots[i] = r + 1;
    }
}

static void
row_index_init (SpsRowIndex *index)
{
  index->n_slots = 64;
  index->slots = g_new0 (guint32, index->n_slots);
}

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

static void
sps_trace_builder_finalize (GObject *object)
{
  SpsTraceBuilder *self = (SpsTraceBuilder *)object;

  _sps_trace_builder_free_records (self);

  g_clear_pointer (&self->strings, sps_string_pool_unref);
  g_clear_pointer (&self->source, g_bytes_unref);
  g_clear_pointer (&self->arena, g_byte_array_unref);
  g_clear_pointer (&self->format, g_free);
  g_clear_pointer (&self->display_time_unit, g_free);
  g_clear_pointer (&self->warning_index, g_hash_table_unref);
  g_clear_pointer (&self->warning_names, g_ptr_array_unref);
  g_clear_pointer (&self->warning_counts, g_array_unref);
  g_clear_pointer (&self->warning_messages, g_ptr_array_unref);
  g_clear_pointer (&self->metadata_keys, g_array_unref);
  g_clear_pointer (&self->metadata_values, g_array_unref);
  g_clear_pointer (&self->info_names, g_array_unref);
  g_clear_pointer (&self->info_values, g_array_unref);
  g_clear_pointer (&self->open_complete, g_array_unref);
  g_clear_pointer (&self->merge_members[0], g_array_unref);
  g_clear_pointer (&self->merge_members[1], g_array_unref);
  if (self->merge_text != NULL)
    g_string_free (g_steal_pointer (&self->merge_text), TRUE);

  G_OBJECT_CLASS (sps_trace_builder_parent_class)->finalize (object);
}

static void
sps_trace_builder_class_init (SpsTraceBuilderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sps_trace_builder_finalize;
}

static void
sps_trace_builder_init (SpsTraceBuilder *self)
{
  self->strings = sps_string_pool_new ();
  self->arena = g_byte_array_new ();
  self->warning_index = g_hash_table_new (g_str_hash, g_str_equal);
  self->warning_names = g_ptr_array_new_with_free_func (g_free);
  self->warning_counts = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->warning_messages = g_ptr_array_new_with_free_func (g_free);
  self->metadata_keys = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->metadata_values = g_array_new (FALSE, FALSE, sizeof (SpsArgsRef));
  self->info_names = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->info_values = g_array_new (FALSE, FALSE, sizeof (SpsArgsRef));
  self->open_complete = g_array_new (FALSE, FALSE, sizeof (guint32));

  row_index_init (&self->process_index);
  row_index_init (&self->thread_index);
  row_index_init (&self->counter_index);
  row_index_init (&self->frame_index);
  row_index_init (&self->callsite_index);
}

/* Frees every row table (finish() does this as soon as it has consumed
 * them, so a builder kept alive after finish costs nothing). */
void
_sps_trace_builder_free_records (SpsTraceBuilder *self)
{
  g_assert (SPS_IS_TRACE_BUILDER (self));

  for (guint i = 0; i < G_N_ELEMENTS (builder_tables); i++)
    _sps_table_free (self, builder_tables[i]);
  self->n_begin_end_records = 0;

  row_index_clear (&self->process_index);
  row_index_clear (&self->thread_index);
  row_index_clear (&self->counter_index);
  row_index_clear (&self->frame_index);
  row_index_clear (&self->callsite_index);
}

static inline guint32
append_slice_record (SpsTraceBuilder    *self,
                     SpsSliceRecordKind  kind,
                     guint32             thread,
                     SpsTime             ts,
                     SpsTime             dur,
                     guint32             name,
                     guint32             category,
                     SpsArgsRef          args,
                     guint16             flags)
{
  guint32 row;

  row = append_row (self, &slice_record_table);
  self->slice_ts[row] = ts;
  self->slice_dur[row] = dur;
  self->slice_name[row] = name;
  self->slice_category[row] = category;
  self->slice_thread[row] = thread;
  self->slice_args[row] = args;
  self->slice_flags[row] = flags;
  self->slice_kind[row] = kind;
  self->slice_callsite[row] = SPS_NO_INDEX;
  self->slice_end_callsite[row] = SPS_NO_INDEX;

  return row;
}

/* finish() appends the async slices it builds to the same rows. */
guint32
_sps_trace_builder_append_slice_record (SpsTraceBuilder    *self,
                                        SpsSliceRecordKind  kind,
                                        guint32             thread,
                                        SpsTime             ts,
                                        SpsTime             dur,
                                        guint32             name,
                                        guint32             category,
                                        SpsArgsRef          args,
                                        guint16             flags)
{
  g_assert (SPS_IS_TRACE_BUILDER (self));

  return append_slice_record (self, kind, thread, ts, dur, name, category, args, flags);
}

void
_sps_trace_builder_warn_count (SpsTraceBuilder *self,
                               const char      *name,
                               guint64          count,
                               const char      *message)
{
  guint index;

  g_assert (SPS_IS_TRACE_BUILDER (self));
  g_assert (name != NULL);

  if (count == 0)
    return;

  index = GPOINTER_TO_UINT (g_hash_table_lookup (self->warning_index, name));
  if (index == 0)
    {
      char *key = g_strdup (name);

      g_ptr_array_add (self->warning_names, key);
      g_array_append_val (self->warning_counts, count);
      g_ptr_array_add (self->warning_messages, g_strdup (message));
      g_hash_table_insert (self->warning_index, key,
                           GUINT_TO_POINTER (self->warning_names->len));
      return;
    }

  g_array_index (self->warning_counts, guint64, index - 1) += count;
  if (g_ptr_array_index (self->warning_messages, index - 1) == NULL && message != NULL)
    g_ptr_array_index (self->warning_messages, index - 1) = g_strdup (message);
}

/**
 * sps_trace_builder_new:
 *
 * Returns: (transfer full): a new, empty #SpsTraceBuilder
 */
SpsTraceBuilder *
sps_trace_builder_new (void)
{
  return g_object_new (SPS_TYPE_TRACE_BUILDER, NULL);
}

/**
 * sps_trace_builder_set_source:
 * @self: a #SpsTraceBuilder
 * @source: (nullable): the bytes that args references without the arena
 *   bit point into (usually the mapped input file)
 *
 * The trace keeps a reference to @source for its whole life.
 */
void
sps_trace_builder_set_source (SpsTraceBuilder *self,
                              GBytes          *source)
{
  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  g_return_if_fail (!self->finished);

  if (source != NULL)
    g_bytes_ref (source);
  g_clear_pointer (&self->source, g_bytes_unref);
  self->source = source;
}

/**
 * sps_trace_builder_get_source:
 * @self: a #SpsTraceBuilder
 *
 * Returns: (transfer none) (nullable): the source bytes
 */
GBytes *
sps_trace_builder_get_source (SpsTraceBuilder *self)
{
  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (self), NULL);

  return self->source;
}

/**
 * sps_trace_builder_set_format:
 * @self: a #SpsTraceBuilder
 * @format: (nullable): the name of the input format, e.g. "chrome-json"
 */
void
sps_trace_builder_set_format (SpsTraceBuilder *self,
                              const char      *format)
{
  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  g_return_if_fail (!self->finished);

  g_free (self->format);
  self->format = g_strdup (format);
}

/**
 * sps_trace_builder_set_display_time_unit:
 * @self: a #SpsTraceBuilder
 * @unit: (nullable): the unit the producer asked times to be shown in
 *   ("ms", "ns"…); it does not change stored times
 */
void
sps_trace_builder_set_display_time_unit (SpsTraceBuilder *self,
                                         const char      *unit)
{
  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  g_return_if_fail (!self->finished);

  g_free (self->display_time_unit);
  self->display_time_unit = g_strdup (unit);
}

/**
 * sps_trace_builder_get_strings:
 * @self: a #SpsTraceBuilder
 *
 * Returns: (transfer none): the string pool every string id refers to
 */
SpsStringPool *
sps_trace_builder_get_strings (SpsTraceBuilder *self)
{
  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (self), NULL);

  return self->strings;
}

/**
 * sps_trace_builder_intern:
 * @self: a #SpsTraceBuilder
 * @str: (array length=len): bytes of a string
 * @len: length in bytes, or -1 if @str is NUL-terminated
 *
 * Returns: the string's id in sps_trace_builder_get_strings()
 */
guint32
sps_trace_builder_intern (SpsTraceBuilder *self,
                          const char      *str,
                          gssize           len)
{
  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (self), 0);

  return sps_string_pool_intern (self->strings, str, len);
}

/**
 * sps_trace_builder_add_args_text:
 * @self: a #SpsTraceBuilder
 * @json: (array length=len): JSON text of an args value
 * @len: length in bytes, or -1 if @json is NUL-terminated
 *
 * Copies args text into the builder's own arena, for importers whose
 * input is not JSON text that could be referenced in place.
 *
 * Returns: a reference with the arena bit set, or %SPS_ARGS_REF_NONE for
 *   empty text
 */
SpsArgsRef
sps_trace_builder_add_args_text (SpsTraceBuilder *self,
                                 const char      *json,
                                 gssize           len)
{
  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (self), SPS_ARGS_REF_NONE);
  g_return_val_if_fail (!self->finished, SPS_ARGS_REF_NONE);
  g_return_val_if_fail (json != NULL || len == 0, SPS_ARGS_REF_NONE);

  if (len < 0)
    len = strlen (json);
  if (len == 0)
    return SPS_ARGS_REF_NONE;

  return _sps_trace_builder_arena_add (self, json, (gsize) len);
}

/**
 * sps_trace_builder_add_events_read:
 * @self: a #SpsTraceBuilder
 * @n: how many more input events were read
 */
void
sps_trace_builder_add_events_read (SpsTraceBuilder *self,
                                   guint64          n)
{
  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));

  self->events_read += n;
}

/**
 * sps_trace_builder_add_metadata_events:
 * @self: a #SpsTraceBuilder
 * @n: how many more metadata events (Chrome "M") were read
 */
void
sps_trace_builder_add_metadata_events (SpsTraceBuilder *self,
                                       guint64          n)
{
  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));

  self->metadata_events += n;
}

/**
 * sps_trace_builder_warn:
 * @self: a #SpsTraceBuilder
 * @name: a snake_case warning name, e.g. "unmatched_end"
 * @format: (nullable): printf format of a message; only the first message
 *   of each name is kept
 * @...: arguments for @format
 *
 * Counts one occurrence of the warning @name. The message is only
 * formatted the first time, so warning about every bad event stays cheap.
 *
 * For the same reason @format is translated here, in the Spanscope
 * gettext domain, when it is formatted: mark a literal format with N_()
 * rather than _(). A format that has no translation there (one already
 * translated by the caller, say) is used as it is.
 */
void
sps_trace_builder_warn (SpsTraceBuilder *self,
                        const char      *name,
                        const char      *format,
                        ...)
{
  guint index;

  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  g_return_if_fail (name != NULL);

  index = GPOINTER_TO_UINT (g_hash_table_lookup (self->warning_index, name));
  if (index != 0 && g_ptr_array_index (self->warning_messages, index - 1) != NULL)
    {
      g_array_index (self->warning_counts, guint64, index - 1) += 1;
    }
  else
    {
      g_autofree char *message = NULL;

      if (format != NULL)
        {
          va_list args;

          /* (An empty msgid would look up the catalogue's header.) */
          va_start (args, format);
          message = g_strdup_vprintf (format[0] != '\0' ? g_dgettext (GETTEXT_PACKAGE, format) : format,
                                      args);
          va_end (args);
        }

      _sps_trace_builder_warn_count (self, name, 1, message);
    }
}

/**
 * sps_trace_builder_add_metadata:
 * @self: a #SpsTraceBuilder
 * @key: the key (e.g. a top-level key of the input)
 * @value: the value as JSON text
 *
 * Adds a trace-level metadata entry; keys keep their order and may repeat.
 */
void
sps_trace_builder_add_metadata (SpsTraceBuilder *self,
                                const char      *key,
                                SpsArgsRef       value)
{
  guint32 id;

  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  g_return_if_fail (!self->finished);
  g_return_if_fail (key != NULL);

  id = sps_string_pool_intern (self->strings, key, -1);
  g_array_append_val (self->metadata_keys, id);
  g_array_append_val (self->metadata_values, value);
}

/**
 * sps_trace_builder_set_info_section:
 * @self: a #SpsTraceBuilder
 * @name: the section name, a JSON key such as "embedded"
 * @json: a JSON object with what the importer knows about the input
 *   beyond the common model (figures of its own format)
 *
 * Attaches a format-specific summary that `spanscope-cli info --json`
 * prints after "warnings" under @name. Setting a name again replaces it.
 */
void
sps_trace_builder_set_info_section (SpsTraceBuilder *self,
                                    const char      *name,
                                    const char      *json)
{
  SpsArgsRef value;
  guint32 id;

  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  g_return_if_fail (!self->finished);
  g_return_if_fail (name != NULL);
  g_return_if_fail (json != NULL);

  id = sps_string_pool_intern (self->strings, name, -1);
  value = sps_trace_builder_add_args_text (self, json, -1);

  for (guint i = 0; i < self->info_names->len; i++)
    {
      if (g_array_index (self->info_names, guint32, i) == id)
        {
          g_array_index (self->info_values, SpsArgsRef, i) = value;
          return;
        }
    }

  g_array_append_val (self->info_names, id);
  g_array_append_val (self->info_values, value);
}

/**
 * sps_trace_builder_ensure_process:
 * @self: a #SpsTraceBuilder
 * @pid: the process id as written in the input
 *
 * Returns: the index of the process with @pid, added if needed
 */
guint32
sps_trace_builder_ensure_process (SpsTraceBuilder *self,
                                  gint64           pid)
{
  guint32 row = 0;
  guint slot;

  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (self), SPS_NO_INDEX);
  g_return_val_if_fail (!self->finished, SPS_NO_INDEX);

  ROW_INDEX_PROBE (&self->process_index, mix64 ((guint64) pid), row,
                   self->process_pid[row] == pid, slot);
  if (self->process_index.slots[slot] != 0)
    return row;

  row = append_row (self, &process_table);
  self->process_pid[row] = pid;
  self->process_name[row] = 0;
  self->process_sort_index[row] = G_MAXINT32;
  self->process_labels[row] = 0;
  row_index_insert (self, &self->process_index, slot, row, self->n_processes, process_row_hash);

  return row;
}

/**
 * sps_trace_builder_set_process_name:
 * @self: a #SpsTraceBuilder
 * @process: a process index
 * @name: a string id
 */
void
sps_trace_builder_set_process_name (SpsTraceBuilder *self,
                                    guint32          process,
                                    guint32          name)
{
  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  g_return_if_fail (process < self->n_processes);

  self->process_name[process] = name;
}

/**
 * sps_trace_builder_set_process_sort_index:
 * @self: a #SpsTraceBuilder
 * @process: a process index
 * @sort_index: where the producer wants the process shown
 */
void
sps_trace_builder_set_process_sort_index (SpsTraceBuilder *self,
                                          guint32          process,
                                          gint32           sort_index)
{
  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  g_return_if_fail (process < self->n_processes);

  self->process_sort_index[process] = sort_index;
}

/**
 * sps_trace_builder_set_process_labels:
 * @self: a #SpsTraceBuilder
 * @process: a process index
 * @labels: a string id: labels separated by commas
 *
 * Adds labels to a process: each label is kept once, in the order it
 * first appears over all the calls; empty ones are left out. The
 * process's labels are the result, joined by commas.
 */
void
sps_trace_builder_set_process_labels (SpsTraceBuilder *self,
                                      guint32          process,
                                      guint32          labels)
{
  g_autoptr(GString) joined = NULL;
  g_autoptr(GPtrArray) seen = NULL;
  guint32 old;

  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  g_return_if_fail (process < self->n_processes);

  old = self->process_labels[process];
  joined = g_string_new (NULL);
  seen = g_ptr_array_new_with_free_func (g_free);

  for (guint k = 0; k < 2; k++)
    {
      guint32 id = k == 0 ? old : labels;
      const char *text = id != 0 ? sps_string_pool_get (self->strings, id, NULL) : NULL;
      g_auto(GStrv) parts = text != NULL ? g_strsplit (text, ",", -1) : NULL;

      for (guint i = 0; parts != NULL && parts[i] != NULL; i++)
        {
          if (parts[i][0] == '\0' ||
              g_ptr_array_find_with_equal_func (seen, parts[i], g_str_equal, NULL))
            continue;
          g_ptr_array_add (seen, g_strdup (parts[i]));
          if (joined->len > 0)
            g_string_append_c (joined, ',');
          g_string_append (joined, parts[i]);
        }
    }

  self->process_labels[process] = joined->len > 0 ? sps_string_pool_intern (self->strings, joined->str,
                                                                              (gssize) joined->len)
                                                   : 0;
}

/**
 * sps_trace_builder_ensure_thread:
 * @self: a #SpsTraceBuilder
 * @process: a process index
 * @tid: the thread id as written in the input
 *
 * Returns: the index of the thread (@process, @tid), added if needed
 */
guint32
sps_trace_builder_ensure_thread (SpsTraceBuilder *self,
                                 guint32          process,
                                 gint64           tid)
{
  guint32 row = 0;
  guint slot;

  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (self), SPS_NO_INDEX);
  g_return_val_if_fail (!self->finished, SPS_NO_INDEX);
  g_return_val_if_fail (process < self->n_processes, SPS_NO_INDEX);

  ROW_INDEX_PROBE (&self->thread_index, thread_key_hash (process, tid), row,
                   self->thread_process[row] == process && self->thread_tid[row] == tid,
                   slot);
  if (self->thread_index.slots[slot] != 0)
    return row;

  row = append_row (self, &thread_table);
  self->thread_process[row] = process;
  self->thread_tid[row] = tid;
  self->thread_name[row] = 0;
  self->thread_sort_index[row] = G_MAXINT32;
  row_index_insert (self, &self->thread_index, slot, row, self->n_threads, thread_row_hash);

  return row;
}

/**
 * sps_trace_builder_set_thread_name:
 * @self: a #SpsTraceBuilder
 * @thread: a thread index
 * @name: a string id
 */
void
sps_trace_builder_set_thread_name (SpsTraceBuilder *self,
                                   guint32          thread,
                                   guint32          name)
{
  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  g_return_if_fail (thread < self->n_threads);

  self->thread_name[thread] = name;
}

/**
 * sps_trace_builder_set_thread_sort_index:
 * @self: a #SpsTraceBuilder
 * @thread: a thread index
 * @sort_index: where the producer wants the thread shown
 */
void
sps_trace_builder_set_thread_sort_index (SpsTraceBuilder *self,
                                         guint32          thread,
                                         gint32           sort_index)
{
  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  g_return_if_fail (thread < self->n_threads);

  self->thread_sort_index[thread] = sort_index;
}

/**
 * sps_trace_builder_add_complete:
 * @self: a #SpsTraceBuilder
 * @thread: a thread index
 * @ts: start time
 * @dur: duration; a negative one becomes 0 (warning "negative_duration")
 * @name: a string id
 * @category: a string id
 * @args: the event's args
 * @flags: %SPS_SLICE_SAMPLED for a sampled span, %SPS_SLICE_UNFINISHED
 *   for one whose end is unknown and that is shown up to @ts + @dur (a span
 *   still open when a capture stopped); other flags are ignored
 *
 * Adds a complete slice (Chrome "X"). A @dur of %SPS_TIME_MAX with
 * %SPS_SLICE_UNFINISHED means the end is not known at all: the slice
 * lasts to the end of the trace, like a begin that is never closed.
 *
 * Returns: the slice's handle, for flow points bound to it
 */
guint32
sps_trace_builder_add_complete (SpsTraceBuilder *self,
                                guint32          thread,
                                SpsTime          ts,
                                SpsTime          dur,
                                guint32          name,
                                guint32          category,
                                SpsArgsRef       args,
                                SpsSliceFlags    flags)
{
  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (self), SPS_NO_INDEX);
  g_return_val_if_fail (!self->finished, SPS_NO_INDEX);
  g_return_val_if_fail (thread < self->n_threads, SPS_NO_INDEX);

  if G_UNLIKELY (dur == SPS_TIME_MAX && (flags & SPS_SLICE_UNFINISHED))
    {
      guint32 row = self->n_slice_records;

      g_array_append_val (self->open_complete, row);
      dur = 0;
    }
  if G_UNLIKELY (dur < 0)
    {
      sps_trace_builder_warn (self, "negative_duration",
                              /* Translators: %<PRId64> is a duration in nanoseconds */
                              N_("A complete event has a negative duration (%" PRId64 " ns); it is made 0"),
                              dur);
      dur = 0;
    }
  /* Saturate so that ts + dur never overflows anywhere later. */
  if G_UNLIKELY (ts > 0 && dur > G_MAXINT64 - ts)
    dur = G_MAXINT64 - ts;

  return append_slice_record (self, SPS_SLICE_RECORD_COMPLETE, thread, ts, dur,
                              name, category, args,
                              flags & (SPS_SLICE_SAMPLED | SPS_SLICE_UNFINISHED));
}

/**
 * sps_trace_builder_add_begin:
 * @self: a #SpsTraceBuilder
 * @thread: a thread index
 * @ts: start time
 * @name: a string id
 * @category: a string id
 * @args: the event's args
 * @flags: %SPS_SLICE_SAMPLED for a sampled span; other flags are ignored
 *
 * Adds a begin (Chrome "B"). finish() pairs it with the end that closes it
 * on the same thread; the slice keeps these args (or the end's when the
 * begin has none).
 *
 * Returns: the handle of the slice this begin opens
 */
guint32
sps_trace_builder_add_begin (SpsTraceBuilder *self,
                             guint32          thread,
                             SpsTime          ts,
                             guint32          name,
                             guint32          category,
                             SpsArgsRef       args,
                             SpsSliceFlags    flags)
{
  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (self), SPS_NO_INDEX);
  g_return_val_if_fail (!self->finished, SPS_NO_INDEX);
  g_return_val_if_fail (thread < self->n_threads, SPS_NO_INDEX);

  self->n_begin_end_records++;

  return append_slice_record (self, SPS_SLICE_RECORD_BEGIN, thread, ts, 0,
                              name, category, args,
                              flags & (SPS_SLICE_SAMPLED | SPS_SLICE_UNFINISHED));
}

/**
 * sps_trace_builder_add_end:
 * @self: a #SpsTraceBuilder
 * @thread: a thread index
 * @ts: end time
 * @args: the event's args
 * @flags: %SPS_SLICE_SAMPLED to close a sampled span
 *
 * Adds an end (Chrome "E") without a name; see
 * sps_trace_builder_add_named_end().
 *
 * Returns: a handle of the end record, for
 *   sps_trace_builder_set_slice_callsites() (its callsite becomes the end
 *   stack of the slice it closes)
 */
guint32
sps_trace_builder_add_end (SpsTraceBuilder *self,
                           guint32          thread,
                           SpsTime          ts,
                           SpsArgsRef       args,
                           SpsSliceFlags    flags)
{
  return sps_trace_builder_add_named_end (self, thread, ts, 0, args, flags);
}

/**
 * sps_trace_builder_add_named_end:
 * @self: a #SpsTraceBuilder
 * @thread: a thread index
 * @ts: end time
 * @name: a string id, or 0 when the end names nothing
 * @args: the event's args
 * @flags: %SPS_SLICE_SAMPLED to close a sampled span
 *
 * Adds an end (Chrome "E"); it closes the innermost open begin of the
 * thread with the same sampled-ness, whatever its name (a different name
 * is counted as a `begin_end_name_mismatch` warning). Its @args are merged
 * into the slice's; on a key both have, the end's value wins (counted as
 * `arg_overwritten`).
 *
 * Returns: a handle of the end record, for
 *   sps_trace_builder_set_slice_callsites()
 */
guint32
sps_trace_builder_add_named_end (SpsTraceBuilder *self,
                                 guint32          thread,
                                 SpsTime          ts,
                                 guint32          name,
                                 SpsArgsRef       args,
                                 SpsSliceFlags    flags)
{
  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (self), SPS_NO_INDEX);
  g_return_val_if_fail (!self->finished, SPS_NO_INDEX);
  g_return_val_if_fail (thread < self->n_threads, SPS_NO_INDEX);

  self->n_begin_end_records++;

  return append_slice_record (self, SPS_SLICE_RECORD_END, thread, ts, 0,
                              name, 0, args, flags & SPS_SLICE_SAMPLED);
}

/**
 * sps_trace_builder_set_slice_callsites:
 * @self: a #SpsTraceBuilder
 * @handle: a handle from sps_trace_builder_add_complete(),
 *   sps_trace_builder_add_begin(), sps_trace_builder_add_end() or
 *   sps_trace_builder_add_named_end()
 * @callsite: the stack where the slice starts (Chrome `sf` or `stack`),
 *   or %SPS_NO_INDEX; for an end, the stack where its slice ends
 * @end_callsite: the stack where a complete slice ends (Chrome `esf`), or
 *   %SPS_NO_INDEX; ignored for a begin or an end
 *
 * Attaches stacks to a slice record; stack frames may be defined after
 * the events that use them, so this may be called until finish().
 */
void
sps_trace_builder_set_slice_callsites (SpsTraceBuilder *self,
                                       guint32          handle,
                                       guint32          callsite,
                                       guint32          end_callsite)
{
  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  g_return_if_fail (!self->finished);
  g_return_if_fail (handle < self->n_slice_records);
  g_return_if_fail (callsite == SPS_NO_INDEX || callsite < self->n_callsites);
  g_return_if_fail (end_callsite == SPS_NO_INDEX || end_callsite < self->n_callsites);

  self->slice_callsite[handle] = callsite;
  if (self->slice_kind[handle] == SPS_SLICE_RECORD_COMPLETE)
    self->slice_end_callsite[handle] = end_callsite;
}

/**
 * sps_trace_builder_add_async:
 * @self: a #SpsTraceBuilder
 * @phase: the phase
 * @process: the process index the event was written in
 * @key: identity of the async tree (the importer folds category, id and
 *   scope into it; for legacy S/T/p/F events the name too)
 * @ts: time
 * @name: a string id; for a legacy step, the step's name
 * @category: a string id
 * @args: the event's args
 *
 * Adds an async event. A tree lives on an async lane of the process of
 * its first begin.
 *
 * Returns: a handle (with %SPS_ASYNC_HANDLE_BIT set) for flow points bound
 *   to the slice this event opens, closes or cuts
 */
guint32
sps_trace_builder_add_async (SpsTraceBuilder *self,
                             SpsAsyncPhase    phase,
                             guint32          process,
                             guint64          key,
                             SpsTime          ts,
                             guint32          name,
                             guint32          category,
                             SpsArgsRef       args)
{
  guint32 row;

  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (self), SPS_NO_INDEX);
  g_return_val_if_fail (!self->finished, SPS_NO_INDEX);
  g_return_val_if_fail (process < self->n_processes, SPS_NO_INDEX);
  g_return_val_if_fail (phase <= SPS_ASYNC_LEGACY_FINISH, SPS_NO_INDEX);

  row = append_row (self, &async_table);
  self->async_ts[row] = ts;
  self->async_key[row] = key;
  self->async_process[row] = process;
  self->async_name[row] = name;
  self->async_category[row] = category;
  self->async_args[row] = args;
  self->async_phase[row] = phase;

  return row | SPS_ASYNC_HANDLE_BIT;
}

/**
 * sps_trace_builder_add_instant:
 * @self: a #SpsTraceBuilder
 * @kind: where the instant came from
 * @scope: thread, process or global
 * @process: the process index (used for the process scope)
 * @thread: the thread index (used for the thread scope)
 * @ts: time
 * @name: a string id
 * @category: a string id
 * @args: the event's args
 */
void
sps_trace_builder_add_instant (SpsTraceBuilder *self,
                               SpsInstantKind   kind,
                               SpsInstantScope  scope,
                               guint32          process,
                               guint32          thread,
                               SpsTime          ts,
                               guint32          name,
                               guint32          category,
                               SpsArgsRef       args)
{
  guint32 owner = SPS_NO_INDEX;
  guint32 row;

  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  g_return_if_fail (!self->finished);
  g_return_if_fail (kind <= SPS_INSTANT_KIND_ASYNC);

  switch (scope)
    {
    case SPS_INSTANT_SCOPE_THREAD:
      g_return_if_fail (thread < self->n_threads);
      owner = thread;
      break;

    case SPS_INSTANT_SCOPE_PROCESS:
      g_return_if_fail (process < self->n_processes);
      owner = process;
      break;

    case SPS_INSTANT_SCOPE_GLOBAL:
      break;

    default:
      g_return_if_reached ();
    }

  row = append_row (self, &instant_table);
  self->instant_ts[row] = ts;
  self->instant_name[row] = name;
  self->instant_category[row] = category;
  self->instant_owner[row] = owner;
  self->instant_args[row] = args;
  self->instant_kind[row] = kind;
  self->instant_scope[row] = scope;
}

/**
 * sps_trace_builder_ensure_counter_track:
 * @self: a #SpsTraceBuilder
 * @process: a process index
 * @name: the counter's name (string id)
 * @series: the series' name (string id)
 *
 * Every (process, name, series) becomes one counter track in the trace,
 * even if no value is added to it.
 *
 * Returns: the counter's id for sps_trace_builder_add_counter_value()
 */
guint32
sps_trace_builder_ensure_counter_track (SpsTraceBuilder *self,
                                        guint32          process,
                                        guint32          name,
                                        guint32          series)
{
  guint32 row = 0;
  guint slot;

  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (self), SPS_NO_INDEX);
  g_return_val_if_fail (!self->finished, SPS_NO_INDEX);
  g_return_val_if_fail (process < self->n_processes, SPS_NO_INDEX);

  ROW_INDEX_PROBE (&self->counter_index, counter_key_hash (process, name, series), row,
                   self->counter_process[row] == process &&
                   self->counter_name[row] == name &&
                   self->counter_series[row] == series,
                   slot);
  if (self->counter_index.slots[slot] != 0)
    return row;

  row = append_row (self, &counter_table);
  self->counter_process[row] = process;
  self->counter_name[row] = name;
  self->counter_series[row] = series;
  row_index_insert (self, &self->counter_index, slot, row, self->n_counters, counter_row_hash);

  return row;
}

/**
 * sps_trace_builder_add_counter_value:
 * @self: a #SpsTraceBuilder
 * @counter_track: an id from sps_trace_builder_ensure_counter_track()
 * @ts: time
 * @value: the value from @ts on
 */
void
sps_trace_builder_add_counter_value (SpsTraceBuilder *self,
                                     guint32          counter_track,
                                     SpsTime          ts,
                                     double           value)
{
  guint32 row;

  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  g_return_if_fail (!self->finished);
  g_return_if_fail (counter_track < self->n_counters);

  row = append_row (self, &counter_value_table);
  self->value_counter[row] = counter_track;
  self->value_ts[row] = ts;
  self->value_value[row] = value;
}

/**
 * sps_trace_builder_add_flow_point:
 * @self: a #SpsTraceBuilder
 * @key: the flow's identity (id and category, folded by the importer)
 * @phase: start, step or end
 * @bind: how the point finds its slice
 * @thread: the thread index (for %SPS_FLOW_BIND_ENCLOSING and
 *   %SPS_FLOW_BIND_NEXT)
 * @ts: time
 * @slice_handle: a handle from add_complete(), add_begin() or add_async()
 *   (for %SPS_FLOW_BIND_SLICE)
 * @name: a string id
 * @category: a string id
 *
 * finish() chains the points of each key in time order into arrows
 * between the slices they bind to.
 */
void
sps_trace_builder_add_flow_point (SpsTraceBuilder *self,
                                  guint64          key,
                                  SpsFlowPhase     phase,
                                  SpsFlowBind      bind,
                                  guint32          thread,
                                  SpsTime          ts,
                                  guint32          slice_handle,
                                  guint32          name,
                                  guint32          category)
{
  guint32 row;

  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  g_return_if_fail (!self->finished);
  g_return_if_fail (phase <= SPS_FLOW_END);
  g_return_if_fail (bind <= SPS_FLOW_BIND_SLICE);
  g_return_if_fail (bind == SPS_FLOW_BIND_SLICE || thread < self->n_threads);

  row = append_row (self, &flow_point_table);
  self->flow_key[row] = key;
  self->flow_ts[row] = ts;
  self->flow_thread[row] = thread;
  self->flow_handle[row] = slice_handle;
  self->flow_name[row] = name;
  self->flow_category[row] = category;
  self->flow_phase[row] = phase;
  self->flow_bind[row] = bind;
}

/**
 * sps_trace_builder_add_object_event:
 * @self: a #SpsTraceBuilder
 * @phase: created, snapshot or destroyed
 * @process: a process index
 * @key: the object's identity
 * @ts: time
 * @name: a string id
 * @args: the event's args (a snapshot's content)
 */
void
sps_trace_builder_add_object_event (SpsTraceBuilder *self,
                                    SpsObjectPhase   phase,
                                    guint32          process,
                                    guint64          key,
                                    SpsTime          ts,
                                    guint32          name,
                                    SpsArgsRef       args)
{
  guint32 row;

  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  g_return_if_fail (!self->finished);
  g_return_if_fail (phase <= SPS_OBJECT_DESTROYED);
  g_return_if_fail (process < self->n_processes);

  row = append_row (self, &object_table);
  self->object_ts[row] = ts;
  self->object_key[row] = key;
  self->object_process[row] = process;
  self->object_name[row] = name;
  self->object_args[row] = args;
  self->object_phase[row] = phase;
}

/**
 * sps_trace_builder_intern_frame:
 * @self: a #SpsTraceBuilder
 * @name: a string id
 * @category: a string id
 * @module: a string id
 * @address: the frame's address, 0 if unknown
 *
 * Returns: the frame's index; equal frames share one index
 */
guint32
sps_trace_builder_intern_frame (SpsTraceBuilder *self,
                                guint32          name,
                                guint32          category,
                                guint32          module,
                                guint64          address)
{
  return sps_trace_builder_intern_source_frame (self, name, category, module, address, 0, 0, 0);
}

/**
 * sps_trace_builder_intern_source_frame:
 * @self: a #SpsTraceBuilder
 * @name: a string id: the function's name, without its location
 * @category: a string id
 * @module: a string id
 * @address: the frame's address, 0 if unknown
 * @source_file: a string id: the URL or path of the source, 0 if unknown
 * @source_line: the 1-based line where the function is, 0 if unknown
 * @source_column: the 1-based column, 0 if unknown
 *
 * Like sps_trace_builder_intern_frame() for a frame with a source
 * location: two functions of one name at different places are two frames.
 *
 * Returns: the frame's index; equal frames share one index
 */
guint32
sps_trace_builder_intern_source_frame (SpsTraceBuilder *self,
                                       guint32          name,
                                       guint32          category,
                                       guint32          module,
                                       guint64          address,
                                       guint32          source_file,
                                       guint32          source_line,
                                       guint32          source_column)
{
  guint32 row = 0;
  guint slot;

  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (self), SPS_NO_INDEX);
  g_return_val_if_fail (!self->finished, SPS_NO_INDEX);

  ROW_INDEX_PROBE (&self->frame_index,
                   frame_key_hash (name, category, module, address,
                                   source_file, source_line, source_column), row,
                   self->frame_name[row] == name &&
                   self->frame_category[row] == category &&
                   self->frame_module[row] == module &&
                   self->frame_address[row] == address &&
                   self->frame_source_file[row] == source_file &&
                   self->frame_source_line[row] == source_line &&
                   self->frame_source_column[row] == source_column,
                   slot);
  if (self->frame_index.slots[slot] != 0)
    return row;

  row = append_row (self, &frame_table);
  self->frame_name[row] = name;
  self->frame_category[row] = category;
  self->frame_module[row] = module;
  self->frame_address[row] = address;
  self->frame_source_file[row] = source_file;
  self->frame_source_line[row] = source_line;
  self->frame_source_column[row] = source_column;
  row_index_insert (self, &self->frame_index, slot, row, self->n_frames, frame_row_hash);

  return row;
}

/**
 * sps_trace_builder_intern_callsite:
 * @self: a #SpsTraceBuilder
 * @parent: the caller's callsite, or %SPS_NO_INDEX for a root frame
 * @frame: a frame index
 *
 * Callsites form a prefix tree shared by every stack: the same
 * (@parent, @frame) always gives the same callsite.
 *
 * Returns: the callsite's index
 */
guint32
sps_trace_builder_intern_callsite (SpsTraceBuilder *self,
                                   guint32          parent,
                                   guint32          frame)
{
  guint32 row = 0;
  guint slot;

  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (self), SPS_NO_INDEX);
  g_return_val_if_fail (!self->finished, SPS_NO_INDEX);
  g_return_val_if_fail (parent == SPS_NO_INDEX || parent < self->n_callsites, SPS_NO_INDEX);
  g_return_val_if_fail (frame < self->n_frames, SPS_NO_INDEX);

  ROW_INDEX_PROBE (&self->callsite_index, hash_pair (parent, frame), row,
                   self->callsite_parent[row] == parent &&
                   self->callsite_frame[row] == frame,
                   slot);
  if (self->callsite_index.slots[slot] != 0)
    return row;

  row = append_row (self, &callsite_table);
  self->callsite_parent[row] = parent;
  self->callsite_frame[row] = frame;
  if (parent == SPS_NO_INDEX)
    self->callsite_depth[row] = 0;
  else if (self->callsite_depth[parent] >= SPS_MAX_DEPTH)
    self->callsite_depth[row] = SPS_MAX_DEPTH;
  else
    self->callsite_depth[row] = self->callsite_depth[parent] + 1;
  row_index_insert (self, &self->callsite_index, slot, row, self->n_callsites, callsite_row_hash);

  return row;
}

/**
 * sps_trace_builder_add_sample:
 * @self: a #SpsTraceBuilder
 * @thread: a thread index
 * @ts: time
 * @name: the event's name (string id)
 * @callsite: the leaf callsite, or %SPS_NO_INDEX if not known yet
 * @raw_stack_ref: the stack reference as written (string id)
 * @weight: the raw weight, NAN when absent
 * @weight_unit: the unit of @weight
 * @flags: sample flags
 *
 * Returns: the sample's index in the builder, for
 *   sps_trace_builder_set_sample_callsite()
 */
guint32
sps_trace_builder_add_sample (SpsTraceBuilder *self,
                              guint32          thread,
                              SpsTime          ts,
                              guint32          name,
                              guint32          callsite,
                              guint32          raw_stack_ref,
                              double           weight,
                              SpsWeightUnit    weight_unit,
                              SpsSampleFlags   flags)
{
  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (self), SPS_NO_INDEX);
  g_return_val_if_fail (!self->finished, SPS_NO_INDEX);
  g_return_val_if_fail (thread < self->n_threads, SPS_NO_INDEX);
  g_return_val_if_fail (callsite == SPS_NO_INDEX || callsite < self->n_callsites, SPS_NO_INDEX);
  g_return_val_if_fail (weight_unit <= SPS_WEIGHT_UNIT_S, SPS_NO_INDEX);

  return append_sample_row (self, &sample_table, ts, thread, name, callsite, raw_stack_ref,
                            weight, weight_unit, flags);
}

/**
 * sps_trace_builder_add_samples:
 * @self: a #SpsTraceBuilder
 * @thread: a thread index
 * @n: how many samples
 * @ts: (array length=n): their times
 * @name: the event's name (string id), for all of them
 * @callsites: (array length=n): their leaf callsites, %SPS_NO_INDEX where
 *   not known yet
 * @lines: (array length=n) (nullable): their 1-based source lines, 0 where
 *   unknown
 *
 * Adds @n samples without weights in one call, for importers of sample
 * streams (V8 profiles write thousands per event).
 *
 * Returns: the builder index of the first one; the others follow it
 */
guint32
sps_trace_builder_add_samples (SpsTraceBuilder *self,
                               guint32          thread,
                               guint            n,
                               const SpsTime   *ts,
                               guint32          name,
                               const guint32   *callsites,
                               const guint32   *lines)
{
  guint32 first;

  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (self), SPS_NO_INDEX);
  g_return_val_if_fail (!self->finished, SPS_NO_INDEX);
  g_return_val_if_fail (thread < self->n_threads, SPS_NO_INDEX);
  g_return_val_if_fail (n == 0 || (ts != NULL && callsites != NULL), SPS_NO_INDEX);
  g_return_val_if_fail (n <= G_MAXUINT32 - self->n_samples, SPS_NO_INDEX);

  first = self->n_samples;
  while (self->samples_capacity - self->n_samples < n)
    _sps_table_grow (self, &sample_table);

  for (guint i = 0; i < n; i++)
    {
      guint32 row = first + i;
      guint32 callsite = callsites[i];

      if G_UNLIKELY (callsite != SPS_NO_INDEX && callsite >= self->n_callsites)
        {
          g_critical ("%s: callsite %u does not exist", G_STRFUNC, callsite);
          callsite = SPS_NO_INDEX;
        }
      self->sample_ts[row] = ts[i];
      self->sample_thread[row] = thread;
      self->sample_name[row] = name;
      self->sample_callsite[row] = callsite;
      self->sample_raw_stack_ref[row] = 0;
      self->sample_weight[row] = NAN;
      self->sample_weight_unit[row] = SPS_WEIGHT_UNIT_NONE;
      self->sample_flags[row] = SPS_SAMPLE_NONE;
      self->sample_line[row] = lines != NULL ? lines[i] : 0;
    }
  self->n_samples += n;
  return first;
}

/**
 * sps_trace_builder_set_sample_callsite:
 * @self: a #SpsTraceBuilder
 * @sample: an index from sps_trace_builder_add_sample()
 * @callsite: the leaf callsite, or %SPS_NO_INDEX
 * @flags: flags to add to the sample's (e.g. %SPS_SAMPLE_UNRESOLVED)
 *
 * Resolves a sample's stack after the whole input was read (stack frames
 * may come after the samples that use them).
 */
void
sps_trace_builder_set_sample_callsite (SpsTraceBuilder *self,
                                       guint32          sample,
                                       guint32          callsite,
                                       SpsSampleFlags   flags)
{
  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  g_return_if_fail (!self->finished);
  g_return_if_fail (sample < self->n_samples);
  g_return_if_fail (callsite == SPS_NO_INDEX || callsite < self->n_callsites);

  self->sample_callsite[sample] = callsite;
  self->sample_flags[sample] |= flags;
}

/**
 * sps_trace_builder_set_sample_line:
 * @self: a #SpsTraceBuilder
 * @sample: an index from sps_trace_builder_add_sample()
 * @line: the 1-based source line the leaf function was at, 0 if unknown
 *
 * Records where in its leaf function a sample was taken (V8 profiles
 * write it per sample).
 */
void
sps_trace_builder_set_sample_line (SpsTraceBuilder *self,
                                   guint32          sample,
                                   guint32          line)
{
  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  g_return_if_fail (!self->finished);
  g_return_if_fail (sample < self->n_samples);

  self->sample_line[sample] = line;
}

/**
 * sps_trace_builder_get_n_samples:
 * @self: a #SpsTraceBuilder
 *
 * Returns: the number of samples added so far
 */
guint
sps_trace_builder_get_n_samples (SpsTraceBuilder *self)
{
  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (self), 0);

  return self->n_samples;
}

/**
 * sps_trace_builder_get_sample_ref:
 * @self: a #SpsTraceBuilder
 * @sample: an index from sps_trace_builder_add_sample()
 * @name: (out) (optional): the sample's name
 * @raw_stack_ref: (out) (optional): the sample's raw stack reference
 */
void
sps_trace_builder_get_sample_ref (SpsTraceBuilder *self,
                                  guint32          sample,
                                  guint32         *name,
                                  guint32         *raw_stack_ref)
{
  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  g_return_if_fail (sample < self->n_samples);

  if (name != NULL)
    *name = self->sample_name[sample];
  if (raw_stack_ref != NULL)
    *raw_stack_ref = self->sample_raw_stack_ref[sample];
}

/**
 * sps_trace_builder_add_raw_sample:
 * @self: a #SpsTraceBuilder
 * @thread: a thread index
 * @ts: time
 * @name: the event's name (string id)
 * @callsite: the leaf callsite of the stack as read, or %SPS_NO_INDEX
 * @raw_stack_ref: the stack reference as written (string id)
 * @weight: the raw weight, NAN when absent
 * @weight_unit: the unit of @weight
 * @flags: sample flags
 *
 * Adds a row to the raw sample table (sps_trace_get_raw_samples()): the
 * samples as the input holds them, kept beside the rewritten ones when an
 * analysis such as #SpsStackRepair changed stacks, so that views can show
 * either. Importers that do not rewrite stacks never call this.
 */
void
sps_trace_builder_add_raw_sample (SpsTraceBuilder *self,
                                  guint32          thread,
                                  SpsTime          ts,
                                  guint32          name,
                                  guint32          callsite,
                                  guint32          raw_stack_ref,
                                  double           weight,
                                  SpsWeightUnit    weight_unit,
                                  SpsSampleFlags   flags)
{
  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  g_return_if_fail (!self->finished);
  g_return_if_fail (thread < self->n_threads);
  g_return_if_fail (callsite == SPS_NO_INDEX || callsite < self->n_callsites);
  g_return_if_fail (weight_unit <= SPS_WEIGHT_UNIT_S);

  append_sample_row (self, &raw_sample_table, ts, thread, name, callsite, raw_stack_ref,
                     weight, weight_unit, flags);
}

/* Drops the samples whose @remove entry is non-zero, keeping the others
 * in order. */
void
_sps_trace_builder_remove_samples (SpsTraceBuilder *self,
                                   const guint8    *remove)
{
  guint32 w = 0;

  g_assert (SPS_IS_TRACE_BUILDER (self));
  g_assert (!self->finished);

  for (guint32 r = 0; r < self->n_samples; r++)
    {
      if (remove[r])
        continue;
      self->sample_ts[w] = self->sample_ts[r];
      self->sample_thread[w] = self->sample_thread[r];
      self->sample_name[w] = self->sample_name[r];
      self->sample_callsite[w] = self->sample_callsite[r];
      self->sample_raw_stack_ref[w] = self->sample_raw_stack_ref[r];
      self->sample_weight[w] = self->sample_weight[r];
      self->sample_weight_unit[w] = self->sample_weight_unit[r];
      self->sample_flags[w] = self->sample_flags[r];
      self->sample_line[w] = self->sample_line[r];
      w++;
    }
  self->n_samples = w;
}
