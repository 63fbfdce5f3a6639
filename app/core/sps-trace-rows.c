/* sps-trace-rows.c: a trace's tables row by row, for bindings
 *
 * The table structs of sps-trace.h are columns of C arrays, which
 * GObject-Introspection cannot describe. These getters give one row at a
 * time with out arguments (a tuple in Python), so that an analysis
 * written in Python reads a trace as a C one does.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-trace"

#include "config.h"

#include <math.h>

#include "sps-trace-private.h"

/* Out arguments are optional in C (a binding always passes them all) */
#define SET_OUT(ptr, value) G_STMT_START { if ((ptr) != NULL) *(ptr) = (value); } G_STMT_END

/**
 * sps_trace_get_n_processes:
 * @self: a #SpsTrace
 *
 * Returns: how many processes the trace has
 */
guint
sps_trace_get_n_processes (SpsTrace *self)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), 0);

  return self->processes.n_rows;
}

/**
 * sps_trace_get_process:
 * @self: a #SpsTrace
 * @i: a process index, below sps_trace_get_n_processes()
 * @pid: (out) (optional): its process id as the trace gives it
 * @name: (out) (optional) (transfer none): its name, "" when none
 *
 * Returns: %TRUE if @i is a process of the trace (the out arguments are
 *   left alone otherwise)
 */
gboolean
sps_trace_get_process (SpsTrace    *self,
                       guint        i,
                       gint64      *pid,
                       const char **name)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), FALSE);

  if (i >= self->processes.n_rows)
    return FALSE;

  SET_OUT (pid, self->processes.pid[i]);
  SET_OUT (name, sps_trace_get_string (self, self->processes.name[i]));
  return TRUE;
}

/**
 * sps_trace_get_n_threads:
 * @self: a #SpsTrace
 *
 * Returns: how many threads the trace has
 */
guint
sps_trace_get_n_threads (SpsTrace *self)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), 0);

  return self->threads.n_rows;
}

/**
 * sps_trace_get_thread:
 * @self: a #SpsTrace
 * @i: a thread index, below sps_trace_get_n_threads()
 * @process: (out) (optional): the index of its process
 * @tid: (out) (optional): its thread id as the trace gives it
 * @name: (out) (optional) (transfer none): its name, "" when none
 *
 * Returns: %TRUE if @i is a thread of the trace
 */
gboolean
sps_trace_get_thread (SpsTrace    *self,
                      guint        i,
                      guint       *process,
                      gint64      *tid,
                      const char **name)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), FALSE);

  if (i >= self->threads.n_rows)
    return FALSE;

  SET_OUT (process, self->threads.process[i]);
  SET_OUT (tid, self->threads.tid[i]);
  SET_OUT (name, sps_trace_get_string (self, self->threads.name[i]));
  return TRUE;
}

/**
 * sps_trace_get_n_tracks:
 * @self: a #SpsTrace
 *
 * Returns: how many tracks the trace has
 */
guint
sps_trace_get_n_tracks (SpsTrace *self)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), 0);

  return self->tracks.n_rows;
}

/**
 * sps_trace_get_track:
 * @self: a #SpsTrace
 * @i: a track index, below sps_trace_get_n_tracks()
 * @kind: (out) (optional): what the track holds
 * @process: (out) (optional): the index of its process, %SPS_NO_INDEX for
 *   the trace-wide track
 * @thread: (out) (optional): the index of its thread, %SPS_NO_INDEX unless
 *   a thread's track
 * @name: (out) (optional) (transfer none): its name (counter name, async
 *   lane…), "" when it has none of its own
 *
 * Returns: %TRUE if @i is a track of the trace
 */
gboolean
sps_trace_get_track (SpsTrace      *self,
                     guint          i,
                     SpsTrackKind  *kind,
                     guint         *process,
                     guint         *thread,
                     const char   **name)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), FALSE);

  if (i >= self->tracks.n_rows)
    return FALSE;

  SET_OUT (kind, self->tracks.kind[i]);
  SET_OUT (process, self->tracks.process[i]);
  SET_OUT (thread, self->tracks.thread[i]);
  SET_OUT (name, sps_trace_get_string (self, self->tracks.name[i]));
  return TRUE;
}

/**
 * sps_trace_get_n_slices:
 * @self: a #SpsTrace
 *
 * Returns: how many slices the trace has, sorted by track then start
 */
guint
sps_trace_get_n_slices (SpsTrace *self)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), 0);

  return self->slices.n_rows;
}

/**
 * sps_trace_get_slice:
 * @self: a #SpsTrace
 * @i: a slice index, below sps_trace_get_n_slices()
 * @track: (out) (optional): the index of its track
 * @ts: (out) (optional): its start, ns
 * @dur: (out) (optional): its duration, ns
 * @depth: (out) (optional): its nesting depth, 0 for a root
 * @name: (out) (optional) (transfer none): its name
 * @category: (out) (optional) (transfer none): its category, "" when none
 *
 * Returns: %TRUE if @i is a slice of the trace
 */
gboolean
sps_trace_get_slice (SpsTrace    *self,
                     guint        i,
                     guint       *track,
                     SpsTime     *ts,
                     SpsTime     *dur,
                     guint       *depth,
                     const char **name,
                     const char **category)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), FALSE);

  if (i >= self->slices.n_rows)
    return FALSE;

  SET_OUT (track, self->slices.track[i]);
  SET_OUT (ts, self->slices.ts[i]);
  SET_OUT (dur, self->slices.dur[i]);
  SET_OUT (depth, self->slices.depth[i]);
  SET_OUT (name, sps_trace_get_string (self, self->slices.name[i]));
  SET_OUT (category, sps_trace_get_string (self, self->slices.category[i]));
  return TRUE;
}

/**
 * sps_trace_get_n_counter_values:
 * @self: a #SpsTrace
 *
 * Returns: how many counter values the trace has, sorted by track then
 *   time
 */
guint
sps_trace_get_n_counter_values (SpsTrace *self)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), 0);

  return self->counters.n_rows;
}

/**
 * sps_trace_get_counter_value:
 * @self: a #SpsTrace
 * @i: an index below sps_trace_get_n_counter_values()
 * @track: (out) (optional): the index of its counter track
 * @ts: (out) (optional): when the counter took the value, ns
 * @value: (out) (optional): the value
 *
 * Returns: %TRUE if @i is a counter value of the trace
 */
gboolean
sps_trace_get_counter_value (SpsTrace *self,
                             guint     i,
                             guint    *track,
                             SpsTime  *ts,
                             double   *value)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), FALSE);

  if (i >= self->counters.n_rows)
    return FALSE;

  SET_OUT (track, self->counters.track[i]);
  SET_OUT (ts, self->counters.ts[i]);
  SET_OUT (value, self->counters.value[i]);
  return TRUE;
}

/**
 * sps_trace_get_n_samples:
 * @self: a #SpsTrace
 *
 * Returns: how many stack samples the trace has, sorted by track then
 *   time
 */
guint
sps_trace_get_n_samples (SpsTrace *self)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), 0);

  return self->samples.n_rows;
}

/**
 * sps_trace_get_sample:
 * @self: a #SpsTrace
 * @i: an index below sps_trace_get_n_samples()
 * @track: (out) (optional): the index of its samples track
 * @ts: (out) (optional): when it was taken, ns
 * @name: (out) (optional) (transfer none): its leaf frame's name (the
 *   event's name when it has no stack)
 * @stack_depth: (out) (optional): how many frames its stack has, 0 when
 *   none
 *
 * Returns: %TRUE if @i is a sample of the trace
 */
gboolean
sps_trace_get_sample (SpsTrace    *self,
                      guint        i,
                      guint       *track,
                      SpsTime     *ts,
                      const char **name,
                      guint       *stack_depth)
{
  guint32 callsite;

  g_return_val_if_fail (SPS_IS_TRACE (self), FALSE);

  if (i >= self->samples.n_rows)
    return FALSE;

  callsite = self->samples.callsite[i];
  SET_OUT (track, self->samples.track[i]);
  SET_OUT (ts, self->samples.ts[i]);
  SET_OUT (name, sps_trace_get_string (self, self->samples.name[i]));
  SET_OUT (stack_depth, callsite == SPS_NO_INDEX ? 0 : self->callsites.depth[callsite] + 1u);
  return TRUE;
}

/**
 * sps_sample_table_get_event_name:
 * @self: a sample table
 * @row: a row below @self's n_rows
 *
 * Returns: the string id of the name of the event @row came in
 */
guint32
sps_sample_table_get_event_name (const SpsSampleTable *self,
                                 guint                 row)
{
  g_return_val_if_fail (self != NULL && row < self->n_rows, 0);

  return SPS_SAMPLE_VALUE (self, event_name, row);
}

/**
 * sps_sample_table_get_raw_stack_ref:
 * @self: a sample table
 * @row: a row below @self's n_rows
 *
 * Returns: the string id of @row's stack reference as the input wrote it
 */
guint32
sps_sample_table_get_raw_stack_ref (const SpsSampleTable *self,
                                    guint                 row)
{
  g_return_val_if_fail (self != NULL && row < self->n_rows, 0);

  return SPS_SAMPLE_VALUE (self, raw_stack_ref, row);
}

/**
 * sps_sample_table_get_weight:
 * @self: a sample table
 * @row: a row below @self's n_rows
 *
 * Returns: @row's raw weight, NAN when absent
 */
double
sps_sample_table_get_weight (const SpsSampleTable *self,
                             guint                 row)
{
  g_return_val_if_fail (self != NULL && row < self->n_rows, NAN);

  return SPS_SAMPLE_VALUE (self, weight, row);
}

/**
 * sps_sample_table_get_weight_unit:
 * @self: a sample table
 * @row: a row below @self's n_rows
 *
 * Returns: the unit of @row's weight
 */
SpsWeightUnit
sps_sample_table_get_weight_unit (const SpsSampleTable *self,
                                  guint                 row)
{
  g_return_val_if_fail (self != NULL && row < self->n_rows, SPS_WEIGHT_UNIT_NONE);

  return (SpsWeightUnit) SPS_SAMPLE_VALUE (self, weight_unit, row);
}

/**
 * sps_sample_table_get_flags:
 * @self: a sample table
 * @row: a row below @self's n_rows
 *
 * Returns: @row's flags
 */
SpsSampleFlags
sps_sample_table_get_flags (const SpsSampleTable *self,
                            guint                 row)
{
  g_return_val_if_fail (self != NULL && row < self->n_rows, SPS_SAMPLE_NONE);

  return (SpsSampleFlags) SPS_SAMPLE_VALUE (self, flags, row);
}

/**
 * sps_sample_table_get_line:
 * @self: a sample table
 * @row: a row below @self's n_rows
 *
 * Returns: the 1-based source line in @row's leaf function, 0 if unknown
 */
guint32
sps_sample_table_get_line (const SpsSampleTable *self,
                           guint                 row)
{
  g_return_val_if_fail (self != NULL && row < self->n_rows, 0);

  return SPS_SAMPLE_VALUE (self, line, row);
}

/**
 * sps_slice_table_get_callsite:
 * @self: a slice table
 * @row: a row below @self's n_rows
 *
 * Returns: the callsite of the stack where @row starts, or %SPS_NO_INDEX
 */
guint32
sps_slice_table_get_callsite (const SpsSliceTable *self,
                              guint                row)
{
  g_return_val_if_fail (self != NULL && row < self->n_rows, SPS_NO_INDEX);

  return SPS_TABLE_VALUE (self, callsite, row);
}

/**
 * sps_slice_table_get_end_callsite:
 * @self: a slice table
 * @row: a row below @self's n_rows
 *
 * Returns: the callsite of the stack where @row ends, or %SPS_NO_INDEX
 */
guint32
sps_slice_table_get_end_callsite (const SpsSliceTable *self,
                                  guint                row)
{
  g_return_val_if_fail (self != NULL && row < self->n_rows, SPS_NO_INDEX);

  return SPS_TABLE_VALUE (self, end_callsite, row);
}
