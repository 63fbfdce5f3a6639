/* sps-trace-builder-events.c: the builder's appends of events
 *
 * The add_*() calls an importer makes per event: complete, begin and end
 * slices, async events, instants, counter series and values, flow points
 * and object events. Each stores one row and does no pairing or sorting;
 * these are the hot calls of an import, so each stays a few stores
 * (append_row() is inline in sps-trace-builder-private.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-trace-builder"

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n-lib.h>

#include "sps-trace-builder-private.h"

static inline guint32
counter_key_hash (guint32 process,
                  guint32 name,
                  guint32 series)
{
  return hash_pair (((guint64) process << 32) | name, series);
}

static guint32
counter_row_hash (SpsTraceBuilder *self,
                  guint32          row)
{
  return counter_key_hash (self->counter_process[row], self->counter_name[row],
                           self->counter_series[row]);
}

/* Async records become slice records in finish() (at most one each), so
 * an importer's slices and async events share the row limit, and finish()
 * (once self->finished is set) always finds room for its own. */
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

  if G_UNLIKELY (self->n_slice_records + self->n_async >= self->max_rows && !self->finished)
    {
      _sps_trace_builder_table_full (self, &slice_record_table);
      return SPS_NO_INDEX;
    }
  row = append_row (self, &slice_record_table);
  if G_UNLIKELY (self->full)
    return SPS_NO_INDEX;
  self->slice_ts[row] = ts;
  self->slice_dur[row] = dur;
  self->slice_name[row] = name;
  self->slice_category[row] = category;
  self->slice_thread[row] = thread;
  self->slice_args[row] = args;
  self->slice_flags[row] = flags;
  self->slice_kind[row] = kind;
  CONSTANT_COLUMN_WRITE (self, &slice_record_table, SLICE_COLUMN_CALLSITE, row, guint32, SPS_NO_INDEX);
  CONSTANT_COLUMN_WRITE (self, &slice_record_table, SLICE_COLUMN_END_CALLSITE, row, guint32, SPS_NO_INDEX);

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
  gboolean open = FALSE;
  guint32 row;

  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (self), SPS_NO_INDEX);
  g_return_val_if_fail (!self->finished, SPS_NO_INDEX);
  RETURN_IF_FULL (self, SPS_NO_INDEX);
  g_return_val_if_fail (thread < self->n_threads, SPS_NO_INDEX);

  if G_UNLIKELY (dur == SPS_TIME_MAX && (flags & SPS_SLICE_UNFINISHED))
    {
      open = TRUE;
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

  row = append_slice_record (self, SPS_SLICE_RECORD_COMPLETE, thread, ts, dur,
                             name, category, args,
                             flags & (SPS_SLICE_SAMPLED | SPS_SLICE_UNFINISHED));
  if G_UNLIKELY (open && row != SPS_NO_INDEX)
    g_array_append_val (self->open_complete, row);

  return row;
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
  RETURN_IF_FULL (self, SPS_NO_INDEX);
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
  RETURN_IF_FULL (self, SPS_NO_INDEX);
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
  RETURN_IF_FULL (self, );
  g_return_if_fail (handle < self->n_slice_records);
  g_return_if_fail (callsite == SPS_NO_INDEX || callsite < self->n_callsites);
  g_return_if_fail (end_callsite == SPS_NO_INDEX || end_callsite < self->n_callsites);

  CONSTANT_COLUMN_WRITE (self, &slice_record_table, SLICE_COLUMN_CALLSITE, handle, guint32, callsite);
  if (self->slice_kind[handle] == SPS_SLICE_RECORD_COMPLETE)
    CONSTANT_COLUMN_WRITE (self, &slice_record_table, SLICE_COLUMN_END_CALLSITE, handle, guint32,
                           end_callsite);
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
  RETURN_IF_FULL (self, SPS_NO_INDEX);
  g_return_val_if_fail (process < self->n_processes, SPS_NO_INDEX);
  g_return_val_if_fail (phase <= SPS_ASYNC_LEGACY_FINISH, SPS_NO_INDEX);

  if G_UNLIKELY (self->n_slice_records + self->n_async >= self->max_rows)
    {
      _sps_trace_builder_table_full (self, &async_table);
      return SPS_NO_INDEX;
    }
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
  RETURN_IF_FULL (self, );
  g_return_if_fail (kind <= SPS_INSTANT_KIND_EVENT);

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
  if G_UNLIKELY (self->full)
    return;
  self->instant_ts[row] = ts;
  self->instant_name[row] = name;
  self->instant_category[row] = category;
  self->instant_owner[row] = owner;
  self->instant_args[row] = args;
  CONSTANT_COLUMN_WRITE (self, &instant_table, INSTANT_COLUMN_KIND, row, guint8, kind);
  CONSTANT_COLUMN_WRITE (self, &instant_table, INSTANT_COLUMN_SCOPE, row, guint8, scope);
  self->instant_event[row] = 0;
}

/**
 * sps_trace_builder_add_event:
 * @self: a #SpsTraceBuilder
 * @thread: the thread index the event was written on
 * @ts: time
 * @provider: the provider's name (string id), kept as the category
 * @name: the event's name (string id), `Provider/Task/Opcode` as PerfView
 *   prints it
 * @descriptor: the event's id, version and opcode (see
 *   %SPS_EVENT_DESCRIPTOR)
 * @args: its payload fields as a JSON object, or %SPS_ARGS_REF_NONE
 *
 * Keeps one decoded ETW or EventPipe event as an instant of kind
 * %SPS_INSTANT_KIND_EVENT on its thread. SQL shows these in `events_raw`.
 */
void
sps_trace_builder_add_event (SpsTraceBuilder    *self,
                             guint32             thread,
                             SpsTime             ts,
                             guint32             provider,
                             guint32             name,
                             SpsEventDescriptor  descriptor,
                             SpsArgsRef          args)
{
  guint32 row;

  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  g_return_if_fail (!self->finished);
  RETURN_IF_FULL (self, );
  g_return_if_fail (thread < self->n_threads);

  row = append_row (self, &instant_table);
  if G_UNLIKELY (self->full)
    return;
  self->instant_ts[row] = ts;
  self->instant_name[row] = name;
  self->instant_category[row] = provider;
  self->instant_owner[row] = thread;
  self->instant_args[row] = args;
  CONSTANT_COLUMN_WRITE (self, &instant_table, INSTANT_COLUMN_KIND, row, guint8, SPS_INSTANT_KIND_EVENT);
  CONSTANT_COLUMN_WRITE (self, &instant_table, INSTANT_COLUMN_SCOPE, row, guint8, SPS_INSTANT_SCOPE_THREAD);
  self->instant_event[row] = descriptor;
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
  RETURN_IF_FULL (self, SPS_NO_INDEX);
  g_return_val_if_fail (process < self->n_processes, SPS_NO_INDEX);

  ROW_INDEX_PROBE (&self->counter_index, counter_key_hash (process, name, series), row,
                   self->counter_process[row] == process &&
                   self->counter_name[row] == name &&
                   self->counter_series[row] == series,
                   slot);
  if (self->counter_index.slots[slot] != 0)
    return row;

  row = append_row (self, &counter_table);
  if G_UNLIKELY (self->full)
    return SPS_NO_INDEX;
  self->counter_process[row] = process;
  self->counter_name[row] = name;
  self->counter_series[row] = series;
  _sps_row_index_insert (self, &self->counter_index, slot, row, self->n_counters, counter_row_hash);

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
  RETURN_IF_FULL (self, );
  g_return_if_fail (counter_track < self->n_counters);

  row = append_row (self, &counter_value_table);
  if G_UNLIKELY (self->full)
    return;
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
  RETURN_IF_FULL (self, );
  g_return_if_fail (phase <= SPS_FLOW_END);
  g_return_if_fail (bind <= SPS_FLOW_BIND_SLICE);
  g_return_if_fail (bind == SPS_FLOW_BIND_SLICE || thread < self->n_threads);

  row = append_row (self, &flow_point_table);
  if G_UNLIKELY (self->full)
    return;
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
  RETURN_IF_FULL (self, );
  g_return_if_fail (phase <= SPS_OBJECT_DESTROYED);
  g_return_if_fail (process < self->n_processes);

  row = append_row (self, &object_table);
  if G_UNLIKELY (self->full)
    return;
  self->object_ts[row] = ts;
  self->object_key[row] = key;
  self->object_process[row] = process;
  self->object_name[row] = name;
  self->object_args[row] = args;
  self->object_phase[row] = phase;
}
