/* sps-trace-builder-samples.c: the builder's frames, callsites and samples
 *
 * Interning frames and callsites (each looked up in its row index) and
 * appending samples one at a time or in batches, raw samples kept beside
 * repaired ones, and the edits analyses make to the samples before
 * finish(). Everything a profile adds lives here, apart from the events.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-trace-builder"

#include "config.h"

#include <math.h>

#include "sps-trace-builder-private.h"

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
  if G_UNLIKELY (self->full)
    return SPS_NO_INDEX;

  ((SpsTime *) column_get (self, layout->columns[SAMPLE_COLUMN_TS].offset))[row] = ts;
  ((guint32 *) column_get (self, layout->columns[SAMPLE_COLUMN_THREAD].offset))[row] = thread;
  ((guint32 *) column_get (self, layout->columns[SAMPLE_COLUMN_CALLSITE].offset))[row] = callsite;
  CONSTANT_COLUMN_WRITE (self, layout, SAMPLE_COLUMN_NAME, row, guint32, name);
  CONSTANT_COLUMN_WRITE (self, layout, SAMPLE_COLUMN_RAW_STACK_REF, row, guint32, raw_stack_ref);
  CONSTANT_COLUMN_WRITE (self, layout, SAMPLE_COLUMN_WEIGHT, row, double, weight);
  CONSTANT_COLUMN_WRITE (self, layout, SAMPLE_COLUMN_WEIGHT_UNIT, row, guint8, weight_unit);
  CONSTANT_COLUMN_WRITE (self, layout, SAMPLE_COLUMN_FLAGS, row, guint8, flags);
  CONSTANT_COLUMN_WRITE (self, layout, SAMPLE_COLUMN_LINE, row, guint32, 0);

  return row;
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
  RETURN_IF_FULL (self, SPS_NO_INDEX);

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
  if G_UNLIKELY (self->full)
    return SPS_NO_INDEX;
  self->frame_name[row] = name;
  self->frame_category[row] = category;
  self->frame_module[row] = module;
  self->frame_address[row] = address;
  self->frame_source_file[row] = source_file;
  self->frame_source_line[row] = source_line;
  self->frame_source_column[row] = source_column;
  _sps_row_index_insert (self, &self->frame_index, slot, row, self->n_frames, frame_row_hash);

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
  RETURN_IF_FULL (self, SPS_NO_INDEX);
  g_return_val_if_fail (parent == SPS_NO_INDEX || parent < self->n_callsites, SPS_NO_INDEX);
  g_return_val_if_fail (frame < self->n_frames, SPS_NO_INDEX);

  ROW_INDEX_PROBE (&self->callsite_index, hash_pair (parent, frame), row,
                   self->callsite_parent[row] == parent &&
                   self->callsite_frame[row] == frame,
                   slot);
  if (self->callsite_index.slots[slot] != 0)
    return row;

  row = append_row (self, &callsite_table);
  if G_UNLIKELY (self->full)
    return SPS_NO_INDEX;
  self->callsite_parent[row] = parent;
  self->callsite_frame[row] = frame;
  if (parent == SPS_NO_INDEX)
    self->callsite_depth[row] = 0;
  else if (self->callsite_depth[parent] >= SPS_MAX_DEPTH)
    self->callsite_depth[row] = SPS_MAX_DEPTH;
  else
    self->callsite_depth[row] = self->callsite_depth[parent] + 1;
  _sps_row_index_insert (self, &self->callsite_index, slot, row, self->n_callsites, callsite_row_hash);

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
  RETURN_IF_FULL (self, SPS_NO_INDEX);
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
 * When the builder becomes full, only the samples that fit are added.
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
  RETURN_IF_FULL (self, SPS_NO_INDEX);
  g_return_val_if_fail (thread < self->n_threads, SPS_NO_INDEX);
  g_return_val_if_fail (n == 0 || (ts != NULL && callsites != NULL), SPS_NO_INDEX);
  g_return_val_if_fail (n <= G_MAXUINT32 - self->n_samples, SPS_NO_INDEX);

  first = self->n_samples;
  n = _sps_trace_builder_reserve_rows (self, &sample_table, n);

  for (guint i = 0; i < n; i++)
    {
      guint32 row = first + i;
      guint32 callsite = callsites[i];

      if G_UNLIKELY (callsite != SPS_NO_INDEX && callsite >= self->n_callsites)
        {
          g_critical ("%s: callsite %u does not exist", G_STRFUNC, callsite);
          callsite = SPS_NO_INDEX;
        }
      /* Counted first: a write to a column stored once checks the rows */
      self->n_samples = row + 1;
      self->sample_ts[row] = ts[i];
      self->sample_thread[row] = thread;
      self->sample_callsite[row] = callsite;
      CONSTANT_COLUMN_WRITE (self, &sample_table, SAMPLE_COLUMN_NAME, row, guint32, name);
      CONSTANT_COLUMN_WRITE (self, &sample_table, SAMPLE_COLUMN_RAW_STACK_REF, row, guint32, 0);
      CONSTANT_COLUMN_WRITE (self, &sample_table, SAMPLE_COLUMN_WEIGHT, row, double, NAN);
      CONSTANT_COLUMN_WRITE (self, &sample_table, SAMPLE_COLUMN_WEIGHT_UNIT, row, guint8,
                             SPS_WEIGHT_UNIT_NONE);
      CONSTANT_COLUMN_WRITE (self, &sample_table, SAMPLE_COLUMN_FLAGS, row, guint8, SPS_SAMPLE_NONE);
      CONSTANT_COLUMN_WRITE (self, &sample_table, SAMPLE_COLUMN_LINE, row, guint32,
                             lines != NULL ? lines[i] : 0);
    }
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
  RETURN_IF_FULL (self, );
  g_return_if_fail (sample < self->n_samples);
  g_return_if_fail (callsite == SPS_NO_INDEX || callsite < self->n_callsites);

  self->sample_callsite[sample] = callsite;
  CONSTANT_COLUMN_WRITE (self, &sample_table, SAMPLE_COLUMN_FLAGS, sample, guint8,
                         SPS_SAMPLE_VALUE_OF_BUILDER (self, flags, sample) | flags);
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
  RETURN_IF_FULL (self, );
  g_return_if_fail (sample < self->n_samples);

  CONSTANT_COLUMN_WRITE (self, &sample_table, SAMPLE_COLUMN_LINE, sample, guint32, line);
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
    *name = SPS_SAMPLE_VALUE_OF_BUILDER (self, name, sample);
  if (raw_stack_ref != NULL)
    *raw_stack_ref = SPS_SAMPLE_VALUE_OF_BUILDER (self, raw_stack_ref, sample);
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
  RETURN_IF_FULL (self, );
  g_return_if_fail (thread < self->n_threads);
  g_return_if_fail (callsite == SPS_NO_INDEX || callsite < self->n_callsites);
  g_return_if_fail (weight_unit <= SPS_WEIGHT_UNIT_S);

  append_sample_row (self, &raw_sample_table, ts, thread, name, callsite, raw_stack_ref,
                     weight, weight_unit, flags);
}

/* Sets every sample's flags to @flags' (n_samples of them), as an
 * analysis rewrote them: a column stored once stays so while they agree */
void
_sps_trace_builder_set_sample_flags (SpsTraceBuilder *self,
                                     const guint8    *flags)
{
  g_assert (SPS_IS_TRACE_BUILDER (self));

  for (guint32 r = 0; r < self->n_samples; r++)
    CONSTANT_COLUMN_WRITE (self, &sample_table, SAMPLE_COLUMN_FLAGS, r, guint8, flags[r]);
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
      self->sample_callsite[w] = self->sample_callsite[r];
      /* A column stored once keeps its one value */
      if (self->sample_name != NULL)
        self->sample_name[w] = self->sample_name[r];
      if (self->sample_raw_stack_ref != NULL)
        self->sample_raw_stack_ref[w] = self->sample_raw_stack_ref[r];
      if (self->sample_weight != NULL)
        self->sample_weight[w] = self->sample_weight[r];
      if (self->sample_weight_unit != NULL)
        self->sample_weight_unit[w] = self->sample_weight_unit[r];
      if (self->sample_flags != NULL)
        self->sample_flags[w] = self->sample_flags[r];
      if (self->sample_line != NULL)
        self->sample_line[w] = self->sample_line[r];
      w++;
    }
  self->n_samples = w;
}
