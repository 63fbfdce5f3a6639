/* sps-trace.c: the immutable trace: tables, args and range queries
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-trace"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "sps-trace.h"
#include "sps-trace-private.h"
#include "sps-args-merge-private.h"

/**
 * SpsTrace:
 *
 * A finished trace: columnar tables (see sps-trace.h) made by
 * sps_trace_builder_finish(). Nothing in it changes after that, so any
 * thread may read it without locking.
 */

G_DEFINE_FINAL_TYPE (SpsTrace, sps_trace, G_TYPE_OBJECT)

#define TRACE_TABLE(table) G_STRUCT_OFFSET (SpsTrace, table.n_rows), 0
#define COLUMN(table, field) SPS_COLUMN (SpsTrace, table.field)
/* A column that may be stored once, in the table's constants */
#define CONSTANT(table, field) SPS_CONSTANT_COLUMN (SpsTrace, table.field, table.constants.field)

/* The tables own their columns; these lists free and measure them. */
static const SpsTableLayout trace_tables[] = {
  {
    TRACE_TABLE (processes),
    { COLUMN (processes, pid), COLUMN (processes, name), COLUMN (processes, sort_index),
      COLUMN (processes, labels), COLUMN (processes, display) },
  },
  {
    TRACE_TABLE (threads),
    { COLUMN (threads, process), COLUMN (threads, tid), COLUMN (threads, name),
      COLUMN (threads, sort_index) },
  },
  {
    TRACE_TABLE (tracks),
    { COLUMN (tracks, kind), COLUMN (tracks, process), COLUMN (tracks, thread),
      COLUMN (tracks, name), COLUMN (tracks, series), COLUMN (tracks, first_row),
      COLUMN (tracks, n_rows_in_track), COLUMN (tracks, max_depth) },
  },
  {
    TRACE_TABLE (slices),
    { COLUMN (slices, ts), COLUMN (slices, dur), COLUMN (slices, self_time),
      COLUMN (slices, name), COLUMN (slices, category), COLUMN (slices, track),
      COLUMN (slices, parent), COLUMN (slices, depth), COLUMN (slices, flags),
      COLUMN (slices, args), CONSTANT (slices, callsite), CONSTANT (slices, end_callsite) },
  },
  {
    TRACE_TABLE (instants),
    { COLUMN (instants, ts), COLUMN (instants, name), COLUMN (instants, category),
      COLUMN (instants, track), COLUMN (instants, kind), COLUMN (instants, args),
      COLUMN (instants, event) },
  },
  {
    TRACE_TABLE (counters),
    { COLUMN (counters, ts), COLUMN (counters, value), COLUMN (counters, track) },
  },
  {
    TRACE_TABLE (flows),
    { COLUMN (flows, from_slice), COLUMN (flows, to_slice), COLUMN (flows, key),
      COLUMN (flows, name), COLUMN (flows, category) },
  },
  {
    TRACE_TABLE (samples),
    { COLUMN (samples, ts), COLUMN (samples, track), COLUMN (samples, thread),
      COLUMN (samples, name), COLUMN (samples, callsite), CONSTANT (samples, raw_stack_ref),
      CONSTANT (samples, weight), CONSTANT (samples, weight_unit), CONSTANT (samples, flags),
      CONSTANT (samples, event_name), CONSTANT (samples, line) },
  },
  {
    TRACE_TABLE (raw_samples),
    { COLUMN (raw_samples, ts), COLUMN (raw_samples, track), COLUMN (raw_samples, thread),
      COLUMN (raw_samples, name), COLUMN (raw_samples, callsite),
      CONSTANT (raw_samples, raw_stack_ref), CONSTANT (raw_samples, weight),
      CONSTANT (raw_samples, weight_unit), CONSTANT (raw_samples, flags),
      CONSTANT (raw_samples, event_name), CONSTANT (raw_samples, line) },
  },
  {
    TRACE_TABLE (callsites),
    { COLUMN (callsites, parent), COLUMN (callsites, frame), COLUMN (callsites, depth) },
  },
  {
    TRACE_TABLE (frames),
    { COLUMN (frames, name), COLUMN (frames, category), COLUMN (frames, module),
      COLUMN (frames, address), COLUMN (frames, source_file), COLUMN (frames, source_line),
      COLUMN (frames, source_column) },
  },
  {
    TRACE_TABLE (objects),
    { COLUMN (objects, ts), COLUMN (objects, phase), COLUMN (objects, process),
      COLUMN (objects, key), COLUMN (objects, name), COLUMN (objects, args) },
  },
  {
    TRACE_TABLE (allocations),
    { COLUMN (allocations, birth), COLUMN (allocations, death),
      COLUMN (allocations, death_after), COLUMN (allocations, death_by),
      COLUMN (allocations, size), COLUMN (allocations, address), COLUMN (allocations, type),
      COLUMN (allocations, callsite), COLUMN (allocations, process),
      COLUMN (allocations, thread), COLUMN (allocations, heap),
      COLUMN (allocations, certainty) },
  },
  {
    TRACE_TABLE (gc_observations),
    { COLUMN (gc_observations, ts), COLUMN (gc_observations, process),
      COLUMN (gc_observations, thread), COLUMN (gc_observations, kind),
      COLUMN (gc_observations, gc_number), COLUMN (gc_observations, generation),
      COLUMN (gc_observations, reason), COLUMN (gc_observations, bytes) },
  },
};

#undef COLUMN
#undef CONSTANT
#undef TRACE_TABLE

/* For the saved profile's test that no table or column is left out. */
const SpsTableLayout *
_sps_trace_get_layouts (guint *n_layouts)
{
  *n_layouts = G_N_ELEMENTS (trace_tables);
  return trace_tables;
}

/**
 * _sps_trace_store_constants:
 * @self: a trace whose tables were filled column by column (a saved
 *   profile's)
 *
 * Stores once each column that may be constant and holds one value in
 * every row, as finish() leaves those an importer wrote once.
 */
void
_sps_trace_store_constants (SpsTrace *self)
{
  g_assert (SPS_IS_TRACE (self));

  for (guint t = 0; t < G_N_ELEMENTS (trace_tables); t++)
    {
      const SpsTableLayout *layout = &trace_tables[t];
      guint n_rows = G_STRUCT_MEMBER (guint, self, layout->n_rows);

      for (const SpsColumn *c = layout->columns;
           c < layout->columns + SPS_MAX_COLUMNS && c->element_size != 0; c++)
        {
          gpointer *column = (gpointer *) G_STRUCT_MEMBER_P (self, c->offset);
          const char *rows = *column;
          guint r = 1;

          if (c->constant == 0 || rows == NULL || n_rows == 0)
            continue;
          while (r < n_rows && memcmp (rows, rows + (gsize) r * c->element_size, c->element_size) == 0)
            r++;
          if (r < n_rows)
            continue;
          memcpy (G_STRUCT_MEMBER_P (self, c->constant), rows, c->element_size);
          g_clear_pointer (column, g_free);
        }
    }
}

static void
sps_trace_finalize (GObject *object)
{
  SpsTrace *self = (SpsTrace *)object;

  g_clear_pointer (&self->strings, sps_string_pool_unref);
  g_clear_pointer (&self->source, g_bytes_unref);
  g_clear_pointer (&self->arena, g_bytes_unref);
  g_clear_pointer (&self->decoders, g_ptr_array_unref);
  g_clear_pointer (&self->format, g_free);
  g_clear_pointer (&self->display_time_unit, g_free);
  g_clear_error (&self->load_error);
  g_clear_object (&self->file);
  g_clear_pointer (&self->origin_file, g_free);
  g_clear_pointer (&self->origin_sha256, g_free);
  g_clear_pointer (&self->origin_import_options, g_free);

  for (guint i = 0; i < self->n_warnings; i++)
    {
      g_free (self->warning_names[i]);
      g_free (self->warning_messages[i]);
    }
  g_free (self->warning_names);
  g_free (self->warning_counts);
  g_free (self->warning_messages);

  g_free (self->metadata_keys);
  g_free (self->metadata_values);
  g_free (self->info_names);
  g_free (self->info_values);

  for (guint i = 0; i < G_N_ELEMENTS (trace_tables); i++)
    _sps_table_free (self, &trace_tables[i]);

  g_free (self->track_first_block);
  g_free (self->block_tree);

  G_OBJECT_CLASS (sps_trace_parent_class)->finalize (object);
}

static void
sps_trace_class_init (SpsTraceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sps_trace_finalize;
}

static void
sps_trace_init (SpsTrace *self)
{
}

void
_sps_trace_set_load_error (SpsTrace     *self,
                           const GError *error)
{
  g_assert (SPS_IS_TRACE (self));

  g_clear_error (&self->load_error);
  if (error != NULL)
    self->load_error = g_error_copy (error);
}

void
_sps_trace_set_file (SpsTrace *self,
                     GFile    *file)
{
  g_assert (SPS_IS_TRACE (self));
  g_assert (file == NULL || G_IS_FILE (file));

  g_set_object (&self->file, file);
}

/**
 * sps_trace_get_strings:
 * @self: a #SpsTrace
 *
 * Returns: (transfer none): the pool every string column refers to
 */
SpsStringPool *
sps_trace_get_strings (SpsTrace *self)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), NULL);

  return self->strings;
}

/**
 * sps_trace_get_string:
 * @self: a #SpsTrace
 * @id: a string id from one of the tables
 *
 * Returns: (transfer none): the NUL-terminated string (it may contain NUL
 *   bytes of its own; use sps_string_pool_get() for its length)
 */
const char *
sps_trace_get_string (SpsTrace *self,
                      guint32   id)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), NULL);

  return sps_string_pool_get (self->strings, id, NULL);
}

/**
 * sps_trace_get_format:
 * @self: a #SpsTrace
 *
 * Returns: (nullable): the input format the importer named, or %NULL
 */
const char *
sps_trace_get_format (SpsTrace *self)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), NULL);

  return self->format;
}

/**
 * sps_trace_get_display_time_unit:
 * @self: a #SpsTrace
 *
 * Returns: (nullable): the unit the producer wanted times shown in, or
 *   %NULL if it said nothing
 */
const char *
sps_trace_get_display_time_unit (SpsTrace *self)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), NULL);

  return self->display_time_unit;
}

/**
 * sps_trace_get_start_time:
 * @self: a #SpsTrace
 *
 * Returns: the earliest time of anything stored, 0 for an empty trace
 */
SpsTime
sps_trace_get_start_time (SpsTrace *self)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), 0);

  return self->start_time;
}

/**
 * sps_trace_get_end_time:
 * @self: a #SpsTrace
 *
 * Returns: the latest end of anything stored, 0 for an empty trace;
 *   unfinished slices end here
 */
SpsTime
sps_trace_get_end_time (SpsTrace *self)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), 0);

  return self->end_time;
}

/**
 * sps_trace_get_events_read:
 * @self: a #SpsTrace
 *
 * Returns: how many input events the importer read
 */
guint64
sps_trace_get_events_read (SpsTrace *self)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), 0);

  return self->events_read;
}

/**
 * sps_trace_get_metadata_events:
 * @self: a #SpsTrace
 *
 * Returns: how many metadata events the importer read
 */
guint64
sps_trace_get_metadata_events (SpsTrace *self)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), 0);

  return self->metadata_events;
}

/**
 * sps_trace_get_load_error:
 * @self: a #SpsTrace
 *
 * Returns: (nullable) (transfer none): the import error of a trace loaded
 *   with %SPS_LOAD_FLAGS_KEEP_PARTIAL, or %NULL
 */
const GError *
sps_trace_get_load_error (SpsTrace *self)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), NULL);

  return self->load_error;
}

/**
 * sps_trace_get_file:
 * @self: a #SpsTrace
 *
 * The file the trace was read from, for views that find files beside it
 * (the source viewer's path rules are kept per trace folder).
 *
 * Returns: (nullable) (transfer none): the file given to
 *   sps_trace_load() or sps_trace_load_async(), or %NULL for a trace
 *   built in memory
 */
GFile *
sps_trace_get_file (SpsTrace *self)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), NULL);

  return self->file;
}

/**
 * sps_trace_get_n_warnings:
 * @self: a #SpsTrace
 *
 * Returns: the number of distinct warning names
 */
guint
sps_trace_get_n_warnings (SpsTrace *self)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), 0);

  return self->n_warnings;
}

/**
 * sps_trace_get_warning:
 * @self: a #SpsTrace
 * @i: an index below sps_trace_get_n_warnings(); warnings are sorted by
 *   name
 * @count: (out) (optional): how many times it was counted
 * @first_message: (out) (optional) (nullable) (transfer none): the first
 *   message given for it
 *
 * Returns: (transfer none): the warning's name
 */
const char *
sps_trace_get_warning (SpsTrace     *self,
                       guint         i,
                       guint64      *count,
                       const char  **first_message)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), NULL);
  g_return_val_if_fail (i < self->n_warnings, NULL);

  if (count != NULL)
    *count = self->warning_counts[i];
  if (first_message != NULL)
    *first_message = self->warning_messages[i];

  return self->warning_names[i];
}

/**
 * sps_trace_count_warning:
 * @self: a #SpsTrace
 * @name: a warning name
 *
 * Returns: how many times @name was counted, 0 if never
 */
guint64
sps_trace_count_warning (SpsTrace   *self,
                         const char *name)
{
  guint lo = 0;
  guint hi;

  g_return_val_if_fail (SPS_IS_TRACE (self), 0);
  g_return_val_if_fail (name != NULL, 0);

  hi = self->n_warnings;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      int cmp = strcmp (self->warning_names[mid], name);

      if (cmp == 0)
        return self->warning_counts[mid];
      if (cmp < 0)
        lo = mid + 1;
      else
        hi = mid;
    }

  return 0;
}

/**
 * sps_trace_get_processes:
 * @self: a #SpsTrace
 *
 * Returns: (transfer none): the process table
 */
const SpsProcessTable *
sps_trace_get_processes (SpsTrace *self)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), NULL);

  return &self->processes;
}

/**
 * sps_trace_get_threads:
 * @self: a #SpsTrace
 *
 * Returns: (transfer none): the thread table
 */
const SpsThreadTable *
sps_trace_get_threads (SpsTrace *self)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), NULL);

  return &self->threads;
}

/**
 * sps_trace_get_tracks:
 * @self: a #SpsTrace
 *
 * Tracks are grouped by process (in process order): for each thread its
 * slice, sampled slice, instant and sample tracks (those that have rows),
 * then the process's async lanes, process instants and counter series;
 * the global instant track comes last.
 *
 * Returns: (transfer none): the track table
 */
const SpsTrackTable *
sps_trace_get_tracks (SpsTrace *self)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), NULL);

  return &self->tracks;
}

/**
 * sps_trace_get_slices:
 * @self: a #SpsTrace
 *
 * Returns: (transfer none): the slice table
 */
const SpsSliceTable *
sps_trace_get_slices (SpsTrace *self)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), NULL);

  return &self->slices;
}

/**
 * sps_trace_get_instants:
 * @self: a #SpsTrace
 *
 * Returns: (transfer none): the instant table
 */
const SpsInstantTable *
sps_trace_get_instants (SpsTrace *self)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), NULL);

  return &self->instants;
}

/**
 * sps_trace_get_counters:
 * @self: a #SpsTrace
 *
 * Returns: (transfer none): the counter value table
 */
const SpsCounterTable *
sps_trace_get_counters (SpsTrace *self)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), NULL);

  return &self->counters;
}

/**
 * sps_trace_get_flows:
 * @self: a #SpsTrace
 *
 * Returns: (transfer none): the flow arrow table, sorted by key then time
 */
const SpsFlowTable *
sps_trace_get_flows (SpsTrace *self)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), NULL);

  return &self->flows;
}

/**
 * sps_trace_get_samples:
 * @self: a #SpsTrace
 *
 * Returns: (transfer none): the sample table
 */
const SpsSampleTable *
sps_trace_get_samples (SpsTrace *self)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), NULL);

  return &self->samples;
}

/**
 * sps_trace_get_raw_samples:
 * @self: a #SpsTrace
 *
 * The samples with their stacks as the input holds them, when an
 * analysis run during the import (such as #SpsStackRepair) rewrote,
 * flagged or deleted samples; row for row the input's samples, sorted
 * like sps_trace_get_samples() by (track, ts), each on its thread's sample
 * track. Views that offer a "raw stacks" switch read this table instead
 * of the sample table.
 *
 * Returns: (transfer none): the raw sample table; it has no rows when
 *   nothing was rewritten
 */
const SpsSampleTable *
sps_trace_get_raw_samples (SpsTrace *self)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), NULL);

  return &self->raw_samples;
}

/**
 * sps_trace_get_callsites:
 * @self: a #SpsTrace
 *
 * Returns: (transfer none): the callsite prefix tree
 */
const SpsCallsiteTable *
sps_trace_get_callsites (SpsTrace *self)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), NULL);

  return &self->callsites;
}

/**
 * sps_trace_get_frames:
 * @self: a #SpsTrace
 *
 * Returns: (transfer none): the frame table
 */
const SpsFrameTable *
sps_trace_get_frames (SpsTrace *self)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), NULL);

  return &self->frames;
}

/**
 * sps_trace_dup_frame_location:
 * @self: a #SpsTrace
 * @frame: a frame index
 *
 * The source location of a frame as people write it: "file:line:column",
 * "file:line" or "file" (lines and columns 1-based).
 *
 * Returns: (transfer full) (nullable): the location, or %NULL when the
 *   frame has no source file
 */
char *
sps_trace_dup_frame_location (SpsTrace *self,
                              guint32   frame)
{
  const SpsFrameTable *frames;
  const char *file;

  g_return_val_if_fail (SPS_IS_TRACE (self), NULL);

  frames = &self->frames;
  if (frame >= frames->n_rows || frames->source_file[frame] == 0)
    return NULL;
  file = sps_trace_get_string (self, frames->source_file[frame]);
  if (frames->source_line[frame] == 0)
    return g_strdup (file);
  if (frames->source_column[frame] == 0)
    return g_strdup_printf ("%s:%u", file, frames->source_line[frame]);
  return g_strdup_printf ("%s:%u:%u", file, frames->source_line[frame], frames->source_column[frame]);
}

/**
 * sps_trace_get_objects:
 * @self: a #SpsTrace
 *
 * Returns: (transfer none): the object event table, sorted by time
 */
const SpsObjectTable *
sps_trace_get_objects (SpsTrace *self)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), NULL);

  return &self->objects;
}

/**
 * sps_trace_count_slices:
 * @self: a #SpsTrace
 * @kind: a slice track kind
 *
 * Counts the completed slices on tracks of @kind: those without
 * %SPS_SLICE_UNFINISHED, %SPS_SLICE_UNMATCHED_END or %SPS_SLICE_STEP, i.e.
 * X events and matched begin/end pairs.
 *
 * Returns: the count; 0 for kinds that hold no slices
 */
guint
sps_trace_count_slices (SpsTrace     *self,
                        SpsTrackKind  kind)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), 0);

  if ((guint) kind >= SPS_N_TRACK_KINDS)
    return 0;

  return self->slice_counts[kind];
}

/**
 * sps_trace_get_n_metadata:
 * @self: a #SpsTrace
 *
 * Returns: the number of trace-level metadata entries
 */
guint
sps_trace_get_n_metadata (SpsTrace *self)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), 0);

  return self->n_metadata;
}

/**
 * sps_trace_get_metadata:
 * @self: a #SpsTrace
 * @i: an index below sps_trace_get_n_metadata()
 * @value: (out) (optional): the value as an args reference
 *
 * Returns: (transfer none): the key of entry @i, in input order
 */
const char *
sps_trace_get_metadata (SpsTrace   *self,
                        guint       i,
                        SpsArgsRef *value)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), NULL);
  g_return_val_if_fail (i < self->n_metadata, NULL);

  if (value != NULL)
    *value = self->metadata_values[i];

  return sps_string_pool_get (self->strings, self->metadata_keys[i], NULL);
}

/**
 * sps_trace_get_n_info_sections:
 * @self: a #SpsTrace
 *
 * Returns: the number of importer-specific summaries, see
 *   sps_trace_builder_set_info_section()
 */
guint
sps_trace_get_n_info_sections (SpsTrace *self)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), 0);

  return self->n_info_sections;
}

/**
 * sps_trace_get_info_section:
 * @self: a #SpsTrace
 * @i: an index below sps_trace_get_n_info_sections()
 * @value: (out) (optional): the section's JSON object as an args reference
 *
 * Returns: (transfer none): the name of section @i, in the order the
 *   importer first set them
 */
const char *
sps_trace_get_info_section (SpsTrace   *self,
                            guint       i,
                            SpsArgsRef *value)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), NULL);
  g_return_val_if_fail (i < self->n_info_sections, NULL);

  if (value != NULL)
    *value = self->info_values[i];

  return sps_string_pool_get (self->strings, self->info_names[i], NULL);
}

typedef struct
{
  SpsTrace     *self;
  SpsTime       start;
  SpsTime       end;
  guint32       first_row;       /* of the track */
  guint32       first_block;     /* of the track */
  guint32       row_end;         /* first row with ts >= end */
  SpsSliceFunc  func;
  gpointer      user_data;
  gboolean      stopped;
} RangeQuery;

static void
scan_block (RangeQuery *q,
            guint       block)
{
  const SpsSliceTable *slices = &q->self->slices;
  guint32 row = q->first_row + (block - q->first_block) * SPS_SLICE_BLOCK_SIZE;
  guint32 last = MIN (row + SPS_SLICE_BLOCK_SIZE, q->row_end);

  for (; row < last; row++)
    {
      SpsTime ts = slices->ts[row];
      SpsTime dur = slices->dur[row];
      gboolean hit = dur > 0 ? ts + dur > q->start : ts >= q->start;

      if (hit && !q->func (q->self, row, q->user_data))
        {
          q->stopped = TRUE;
          return;
        }
    }
}

/* Visits, in order, the blocks in [lo, hi) whose max end reaches start:
 * a subtree whose max is below start is skipped whole, so the cost is
 * O(log N) per block that holds a hit (plus the one partial block at the
 * end of the range). */
static void
visit_blocks (RangeQuery *q,
              guint       node,
              guint       node_lo,
              guint       node_size,
              guint       lo,
              guint       hi)
{
  if (q->stopped || node_lo >= hi || node_lo + node_size <= lo)
    return;
  if (q->self->block_tree[node] < q->start)
    return;

  if (node_size == 1)
    {
      scan_block (q, node_lo);
      return;
    }

  visit_blocks (q, 2 * node, node_lo, node_size / 2, lo, hi);
  visit_blocks (q, 2 * node + 1, node_lo + node_size / 2, node_size / 2, lo, hi);
}

/**
 * sps_trace_foreach_slice_in_range:
 * @self: a #SpsTrace
 * @track: a slice track (thread slices, sampled slices or async lane)
 * @start: start of the window
 * @end: end of the window
 * @func: (scope call): called for each slice; returns %FALSE to stop
 * @user_data: data for @func
 *
 * Calls @func, in table order, for every slice of @track that overlaps
 * [@start, @end): ts < @end and ts + dur > @start; a zero-length slice
 * when @start ≤ ts < @end. Costs O(log N + K) through the block index.
 */
void
sps_trace_foreach_slice_in_range (SpsTrace     *self,
                                  guint         track,
                                  SpsTime       start,
                                  SpsTime       end,
                                  SpsSliceFunc  func,
                                  gpointer      user_data)
{
  RangeQuery q;
  guint32 first;
  guint32 n;
  guint32 lo;
  guint32 hi;
  guint8 kind;

  g_return_if_fail (SPS_IS_TRACE (self));
  g_return_if_fail (track < self->tracks.n_rows);
  g_return_if_fail (func != NULL);

  kind = self->tracks.kind[track];
  if (kind != SPS_TRACK_THREAD_SLICES &&
      kind != SPS_TRACK_THREAD_SAMPLED_SLICES &&
      kind != SPS_TRACK_ASYNC)
    return;

  first = self->tracks.first_row[track];
  n = self->tracks.n_rows_in_track[track];

  /* Rows that start before end: [first, hi) */
  lo = first;
  hi = first + n;
  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;

      if (self->slices.ts[mid] < end)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == first)
    return;

  q.self = self;
  q.start = start;
  q.end = end;
  q.first_row = first;
  q.first_block = self->track_first_block[track];
  q.row_end = lo;
  q.func = func;
  q.user_data = user_data;
  q.stopped = FALSE;

  visit_blocks (&q, 1, 0, self->n_block_leaves,
                q.first_block,
                q.first_block + (lo - 1 - first) / SPS_SLICE_BLOCK_SIZE + 1);
}

/**
 * sps_trace_get_memory_size:
 * @self: a #SpsTrace
 *
 * Returns: the bytes held by the trace's tables, indexes, string pool and
 *   own args arena (not the mapped input)
 */
gsize
sps_trace_get_memory_size (SpsTrace *self)
{
  gsize size = sizeof *self;

  g_return_val_if_fail (SPS_IS_TRACE (self), 0);

  size += sps_string_pool_get_memory_size (self->strings);
  if (self->arena != NULL)
    size += g_bytes_get_size (self->arena);

  for (guint i = 0; i < G_N_ELEMENTS (trace_tables); i++)
    size += _sps_table_get_memory_size (self, &trace_tables[i]);
  size += (gsize) self->n_metadata * (sizeof (guint32) + sizeof (SpsArgsRef));

  size += ((gsize) self->tracks.n_rows + 1) * sizeof (guint32);
  size += (gsize) self->n_block_leaves * 2 * sizeof (SpsTime);

  return size;
}

/**
 * sps_trace_find_slice:
 * @trace: a #SpsTrace
 * @track: a track of slices
 * @ts: a start time
 *
 * Finds a slice by where it is, as a query's result row names it (its
 * track and start), by bisection: slices are sorted by track, then start.
 *
 * Returns: the first slice of @track that starts at @ts, or %SPS_NO_INDEX
 */
guint
sps_trace_find_slice (SpsTrace *trace,
                      guint     track,
                      SpsTime   ts)
{
  const SpsTrackTable *tracks;
  const SpsSliceTable *slices;
  guint lo;
  guint hi;

  g_return_val_if_fail (SPS_IS_TRACE (trace), SPS_NO_INDEX);

  tracks = sps_trace_get_tracks (trace);
  slices = sps_trace_get_slices (trace);
  if (track >= tracks->n_rows ||
      (tracks->kind[track] != SPS_TRACK_THREAD_SLICES &&
       tracks->kind[track] != SPS_TRACK_THREAD_SAMPLED_SLICES &&
       tracks->kind[track] != SPS_TRACK_ASYNC))
    return SPS_NO_INDEX;

  lo = tracks->first_row[track];
  hi = lo + tracks->n_rows_in_track[track];
  g_return_val_if_fail (hi <= slices->n_rows, SPS_NO_INDEX);

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (slices->ts[mid] < ts)
        lo = mid + 1;
      else
        hi = mid;
    }

  if (lo < tracks->first_row[track] + tracks->n_rows_in_track[track] && slices->ts[lo] == ts)
    return lo;
  return SPS_NO_INDEX;
}
