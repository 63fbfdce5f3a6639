/* sps-trace-builder-memory.c: allocations and garbage collections
 *
 * The builder's appends for the allocation history (one row per object or
 * sampled allocation, with what is known of its birth and death) and for
 * the garbage collector's observations, which also become slices on a
 * "GC" track of their process.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-trace-builder"

#include "config.h"

#include "sps-trace-builder-private.h"

/**
 * sps_trace_builder_add_allocation:
 * @self: a #SpsTraceBuilder
 * @process: a process index
 * @thread: the allocating thread's index, or %SPS_NO_INDEX
 * @birth: when it was allocated, or %SPS_TIME_MIN when that is unknown
 * @size: its size in bytes, or %SPS_SIZE_UNKNOWN
 * @type: a string id naming its type, 0 if unknown
 * @address: the producer's object id or address, 0 if none
 * @heap: where it lives
 * @certainty: what the producer's events say about it
 *
 * Adds an allocation, alive until the end of the trace unless
 * sps_trace_builder_set_allocation_death() says otherwise. Its stack is
 * set with sps_trace_builder_set_allocation_callsite().
 *
 * Returns: the allocation's handle for the setters (the builder's row)
 */
guint32
sps_trace_builder_add_allocation (SpsTraceBuilder        *self,
                                  guint32                 process,
                                  guint32                 thread,
                                  SpsTime                 birth,
                                  guint64                 size,
                                  guint32                 type,
                                  guint64                 address,
                                  SpsHeapKind             heap,
                                  SpsAllocationCertainty  certainty)
{
  guint32 row;

  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (self), SPS_NO_INDEX);
  g_return_val_if_fail (!self->finished, SPS_NO_INDEX);
  RETURN_IF_FULL (self, SPS_NO_INDEX);
  g_return_val_if_fail (process < self->n_processes, SPS_NO_INDEX);
  g_return_val_if_fail (thread == SPS_NO_INDEX || thread < self->n_threads, SPS_NO_INDEX);
  g_return_val_if_fail (heap <= SPS_HEAP_OBJECT, SPS_NO_INDEX);
  g_return_val_if_fail (certainty <= SPS_ALLOCATION_IN_GAP, SPS_NO_INDEX);

  row = append_row (self, &allocation_table);
  if G_UNLIKELY (self->full)
    return SPS_NO_INDEX;
  self->alloc_birth[row] = birth;
  self->alloc_death[row] = SPS_TIME_MAX;
  self->alloc_death_after[row] = SPS_TIME_MAX;
  self->alloc_death_by[row] = SPS_TIME_MAX;
  self->alloc_size[row] = size;
  self->alloc_address[row] = address;
  self->alloc_type[row] = type;
  self->alloc_callsite[row] = SPS_NO_INDEX;
  self->alloc_process[row] = process;
  self->alloc_thread[row] = thread;
  self->alloc_heap[row] = heap;
  self->alloc_certainty[row] = certainty;

  return row;
}

/**
 * sps_trace_builder_set_allocation_death:
 * @self: a #SpsTraceBuilder
 * @allocation: a handle from sps_trace_builder_add_allocation()
 * @death_after: the allocation was alive until at least this time
 * @death_by: it was dead at this time (when its death was reported)
 *
 * Says when an allocation died. A producer that reports deaths exactly
 * gives the same time twice; one that finds them at garbage collections
 * gives the previous collection (or the birth, if later) and the one that
 * reported it. Bounds in the wrong order are swapped.
 */
void
sps_trace_builder_set_allocation_death (SpsTraceBuilder *self,
                                        guint32          allocation,
                                        SpsTime          death_after,
                                        SpsTime          death_by)
{
  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  g_return_if_fail (!self->finished);
  RETURN_IF_FULL (self, );
  g_return_if_fail (allocation < self->n_allocations);

  if (death_after > death_by)
    {
      SpsTime t = death_after;

      death_after = death_by;
      death_by = t;
    }
  self->alloc_death[allocation] = death_by;
  self->alloc_death_after[allocation] = death_after;
  self->alloc_death_by[allocation] = death_by;
}

/**
 * sps_trace_builder_set_allocation_size:
 * @self: a #SpsTraceBuilder
 * @allocation: a handle from sps_trace_builder_add_allocation()
 * @size: its size in bytes, or %SPS_SIZE_UNKNOWN
 *
 * Sets the size of an allocation that the producer gave later than its
 * birth (a Chrome snapshot).
 */
void
sps_trace_builder_set_allocation_size (SpsTraceBuilder *self,
                                       guint32          allocation,
                                       guint64          size)
{
  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  g_return_if_fail (!self->finished);
  RETURN_IF_FULL (self, );
  g_return_if_fail (allocation < self->n_allocations);

  self->alloc_size[allocation] = size;
}

/**
 * sps_trace_builder_set_allocation_type:
 * @self: a #SpsTraceBuilder
 * @allocation: a handle from sps_trace_builder_add_allocation()
 * @type: a string id naming its type, 0 if unknown
 *
 * Sets the type of an allocation whose type the producer names after the
 * allocation (a type definition read later).
 */
void
sps_trace_builder_set_allocation_type (SpsTraceBuilder *self,
                                       guint32          allocation,
                                       guint32          type)
{
  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  g_return_if_fail (!self->finished);
  RETURN_IF_FULL (self, );
  g_return_if_fail (allocation < self->n_allocations);
  g_return_if_fail (type < sps_string_pool_get_size (self->strings));

  self->alloc_type[allocation] = type;
}

/**
 * sps_trace_builder_set_allocation_callsite:
 * @self: a #SpsTraceBuilder
 * @allocation: a handle from sps_trace_builder_add_allocation()
 * @callsite: the allocating stack's leaf callsite, or %SPS_NO_INDEX
 *
 * Sets the allocation's stack, which importers often know only once the
 * whole file was read (the method names come last).
 */
void
sps_trace_builder_set_allocation_callsite (SpsTraceBuilder *self,
                                           guint32          allocation,
                                           guint32          callsite)
{
  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  g_return_if_fail (!self->finished);
  RETURN_IF_FULL (self, );
  g_return_if_fail (allocation < self->n_allocations);
  g_return_if_fail (callsite == SPS_NO_INDEX || callsite < self->n_callsites);

  self->alloc_callsite[allocation] = callsite;
}

/**
 * sps_trace_builder_set_allocation_certainty:
 * @self: a #SpsTraceBuilder
 * @allocation: a handle from sps_trace_builder_add_allocation()
 * @certainty: what is known of it now
 *
 * Changes an allocation's certainty, for instance to
 * %SPS_ALLOCATION_IN_GAP when events were lost while it was alive.
 */
void
sps_trace_builder_set_allocation_certainty (SpsTraceBuilder        *self,
                                            guint32                 allocation,
                                            SpsAllocationCertainty  certainty)
{
  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  g_return_if_fail (!self->finished);
  RETURN_IF_FULL (self, );
  g_return_if_fail (allocation < self->n_allocations);
  g_return_if_fail (certainty <= SPS_ALLOCATION_IN_GAP);

  self->alloc_certainty[allocation] = certainty;
}

/**
 * sps_trace_builder_get_n_allocations:
 * @self: a #SpsTraceBuilder
 *
 * Returns: how many allocations were added; handles are 0 … n − 1
 */
guint
sps_trace_builder_get_n_allocations (SpsTraceBuilder *self)
{
  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (self), 0);

  return self->n_allocations;
}

/**
 * sps_trace_builder_get_allocation_life:
 * @self: a #SpsTraceBuilder
 * @allocation: a handle from sps_trace_builder_add_allocation()
 * @birth: (out) (optional): its birth, %SPS_TIME_MIN when unknown
 * @death_by: (out) (optional): when it was dead for sure, %SPS_TIME_MAX
 *   when no death was reported
 *
 * Reads back what an importer said of an allocation, so that capture gaps
 * found at the end can mark the allocations they affect.
 */
void
sps_trace_builder_get_allocation_life (SpsTraceBuilder *self,
                                       guint32          allocation,
                                       SpsTime         *birth,
                                       SpsTime         *death_by)
{
  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  g_return_if_fail (allocation < self->n_allocations);

  if (birth != NULL)
    *birth = self->alloc_birth[allocation];
  if (death_by != NULL)
    *death_by = self->alloc_death_by[allocation];
}

/* The text of a JSON string's contents: quotes, backslashes and control
 * characters escaped */
static void
append_json_text (GString    *out,
                  const char *text)
{
  for (const char *c = text; *c != '\0'; c++)
    {
      if (*c == '"' || *c == '\\')
        g_string_append_printf (out, "\\%c", *c);
      else if ((guchar) *c < 0x20)
        g_string_append_printf (out, "\\u%04x", (guint) (guchar) *c);
      else
        g_string_append_c (out, *c);
    }
}

static const char * const generation_names[] = { "GC gen0", "GC gen1", "GC gen2" };

/* GC and suspension slices of a process are async trees with keys of
 * their own (a background GC spans several suspensions, so the two do not
 * nest). */
static guint64
gc_slice_key (guint32 process,
              guint   which)
{
  return G_GUINT64_CONSTANT (0x6763000000000000) ^ ((guint64) process << 1) ^ which;
}

static void
add_gc_slice_event (SpsTraceBuilder *self,
                    guint32          process,
                    SpsTime          ts,
                    SpsGcKind        kind,
                    guint32          gc_number,
                    gint32           generation,
                    guint32          reason)
{
  SpsArgsRef args = SPS_ARGS_REF_NONE;
  guint32 name = 0;
  g_autoptr(GString) text = NULL;
  guint64 key = gc_slice_key (process, kind == SPS_GC_START || kind == SPS_GC_END ? 0 : 1);
  gboolean begin = kind == SPS_GC_START || kind == SPS_GC_SUSPEND;
  guint open;

  if (self->gc_category == 0)
    {
      self->gc_category = sps_trace_builder_intern (self, "gc", -1);
      self->gc_lane_name = sps_trace_builder_intern (self, "GC", -1);
      self->gc_open = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
    }

  open = GPOINTER_TO_UINT (g_hash_table_lookup (self->gc_open, &key));
  if (!begin && open == 0)
    return;
  g_hash_table_replace (self->gc_open, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (begin ? open + 1 : open - 1));

  if (begin)
    {
      text = g_string_new ("{");
      if (kind == SPS_GC_START)
        {
          name = sps_trace_builder_intern (self,
                                           generation >= 0 && generation < (gint32) G_N_ELEMENTS (generation_names) ?
                                           generation_names[generation] : "GC", -1);
          g_string_append_printf (text, "\"count\":%u,\"generation\":%d", gc_number, generation);
        }
      else
        name = sps_trace_builder_intern (self, "Suspension", -1);
      if (reason != 0)
        {
          g_string_append (text, kind == SPS_GC_START ? ",\"reason\":\"" : "\"reason\":\"");
          append_json_text (text, sps_string_pool_get (self->strings, reason, NULL));
          g_string_append_c (text, '"');
        }
      g_string_append_c (text, '}');
      args = sps_trace_builder_add_args_text (self, text->str, (gssize) text->len);
    }

  sps_trace_builder_add_async (self, begin ? SPS_ASYNC_BEGIN : SPS_ASYNC_END, process, key,
                               ts, name, self->gc_category, args);
}

/**
 * sps_trace_builder_add_gc_observation:
 * @self: a #SpsTraceBuilder
 * @process: a process index
 * @thread: the thread that reported it, or %SPS_NO_INDEX
 * @ts: time
 * @kind: what was observed
 * @gc_number: the runtime's count of the collection, 0 if not given
 * @generation: the generation collected, -1 if not given
 * @reason: a string id naming why (a GC's or a suspension's reason), 0 if
 *   not given
 *
 * Adds a garbage collector observation. Starts and ends also make the
 * collection a slice on the "GC" track of @process (named after the
 * generation), and suspensions and restarts a "Suspension" slice on the
 * same track.
 *
 * Returns: the observation's handle (the builder's row)
 */
guint32
sps_trace_builder_add_gc_observation (SpsTraceBuilder *self,
                                      guint32          process,
                                      guint32          thread,
                                      SpsTime          ts,
                                      SpsGcKind        kind,
                                      guint32          gc_number,
                                      gint32           generation,
                                      guint32          reason)
{
  guint32 row;

  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (self), SPS_NO_INDEX);
  g_return_val_if_fail (!self->finished, SPS_NO_INDEX);
  RETURN_IF_FULL (self, SPS_NO_INDEX);
  g_return_val_if_fail (process < self->n_processes, SPS_NO_INDEX);
  g_return_val_if_fail (thread == SPS_NO_INDEX || thread < self->n_threads, SPS_NO_INDEX);
  g_return_val_if_fail (kind <= SPS_GC_RESTART, SPS_NO_INDEX);
  g_return_val_if_fail (reason < sps_string_pool_get_size (self->strings), SPS_NO_INDEX);

  row = append_row (self, &gc_observation_table);
  if G_UNLIKELY (self->full)
    return SPS_NO_INDEX;
  self->gc_ts[row] = ts;
  self->gc_process[row] = process;
  self->gc_thread[row] = thread;
  self->gc_kind[row] = kind;
  self->gc_number[row] = gc_number;
  self->gc_generation[row] = generation < -1 ? -1 : generation;
  self->gc_reason[row] = reason;
  self->gc_bytes[row] = SPS_SIZE_UNKNOWN;

  if (kind != SPS_GC_MARK)
    add_gc_slice_event (self, process, ts, kind, gc_number, generation, reason);

  return row;
}

/**
 * sps_trace_builder_set_gc_observation_bytes:
 * @self: a #SpsTraceBuilder
 * @observation: a handle from sps_trace_builder_add_gc_observation()
 * @bytes: for a mark, the bytes it marked; for an end, the heap's size
 *   after the collection
 *
 * Adds the byte count that the runtime reports apart from the observation
 * (the heap statistics that follow a GC's end).
 */
void
sps_trace_builder_set_gc_observation_bytes (SpsTraceBuilder *self,
                                            guint32          observation,
                                            guint64          bytes)
{
  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  g_return_if_fail (!self->finished);
  RETURN_IF_FULL (self, );
  g_return_if_fail (observation < self->n_gc_observations);

  self->gc_bytes[observation] = bytes;
}
