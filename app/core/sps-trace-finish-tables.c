/* sps-trace-finish-tables.c: finish()'s builders of the smaller tables
 *
 * The per-table passes after the slices: flow arrows bound to their
 * slices, instants, counter values, samples and raw samples, objects and
 * the frame and callsite tables. Each places its rows on tracks and
 * scatters its columns with the shared placement helpers.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-trace-finish"

#include "config.h"

#include <inttypes.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "sps-trace-finish-private.h"
#include "sps-self-trace.h"

/* The first row in [lo, hi) whose time is above @ts (or at or above it
 * when @inclusive is FALSE), searching forward from @lo by doubling steps:
 * a sweep over sorted points costs O(log gap) per point, whether the
 * points are dense or sparse. */
static guint32
gallop_past (const SpsTime *ts,
             guint32        lo,
             guint32        hi,
             SpsTime        target,
             gboolean       inclusive)
{
  guint32 step = 1;
  guint32 bound = lo;

#define BEFORE(i) (inclusive ? ts[i] <= target : ts[i] < target)
  while (bound < hi && BEFORE (bound))
    {
      lo = bound + 1;
      bound = hi - bound > step ? bound + step : hi;
      step *= 2;
    }
  while (lo < bound)
    {
      guint32 mid = lo + (bound - lo) / 2;

      if (BEFORE (mid))
        lo = mid + 1;
      else
        bound = mid;
    }
#undef BEFORE

  return lo;
}

/* Binds every flow point to a slice (SPS_NO_INDEX when none): handles map
 * through the row maps; time-bound points are swept per thread track in
 * time order. ENCLOSING takes the deepest slice with start ≤ ts ≤ end:
 * the last slice starting at or before ts, or its nearest ancestor that
 * still covers ts. NEXT takes the first slice starting at or after ts. */
static guint32 *
bind_flow_points (Finish *f)
{
  SpsTraceBuilder *b = f->builder;
  const SpsTrackTable *tracks = &f->trace->tracks;
  const SpsSliceTable *slices = &f->trace->slices;
  guint n = b->n_flow_points;
  guint32 *bound = g_new (guint32, MAX (n, 1));
  g_autofree guint32 *track = g_new (guint32, MAX (n, 1));
  g_autofree guint32 *start = g_new (guint32, tracks->n_rows + 1);
  g_autofree guint32 *position = g_new (guint32, MAX (n, 1));
  g_autofree guint32 *order = NULL;
  guint n_placed;

  for (guint r = 0; r < n; r++)
    {
      guint32 handle = b->flow_handle[r];

      bound[r] = SPS_NO_INDEX;
      track[r] = SPS_NO_INDEX;

      if (b->flow_bind[r] != SPS_FLOW_BIND_SLICE)
        track[r] = f->thread_slices_track[b->flow_thread[r]];
      else if ((handle & SPS_ASYNC_HANDLE_BIT) != 0)
        {
          guint32 record = handle & ~SPS_ASYNC_HANDLE_BIT;

          if (record < b->n_async && f->async_record_slice != NULL &&
              f->async_record_slice[record] != SPS_NO_INDEX)
            bound[r] = f->record_slice[async_row (f, f->async_record_slice[record])];
        }
      else if (handle < f->async_first)
        bound[r] = f->record_slice[handle];
    }

  n_placed = _sps_place_rows (track, b->flow_ts, NULL, n, tracks->n_rows, start, position);
  order = g_new (guint32, MAX (n_placed, 1));
  for (guint r = 0; r < n; r++)
    if (position[r] != SPS_NO_INDEX)
      order[position[r]] = r;

  for (guint t = 0; t < tracks->n_rows; t++)
    {
      guint32 end = tracks->first_row[t] + tracks->n_rows_in_track[t];
      guint32 at = tracks->first_row[t];      /* first slice with ts >= point */
      guint32 past = tracks->first_row[t];    /* first slice with ts > point */

      for (guint32 i = start[t]; i < start[t + 1]; i++)
        {
          guint32 r = order[i];
          SpsTime ts = b->flow_ts[r];

          if (b->flow_bind[r] == SPS_FLOW_BIND_NEXT)
            {
              at = gallop_past (slices->ts, at, end, ts, FALSE);
              bound[r] = at < end ? at : SPS_NO_INDEX;
              continue;
            }

          past = gallop_past (slices->ts, past, end, ts, TRUE);
          if (past == tracks->first_row[t])
            continue;
          for (guint32 row = past - 1; row != SPS_NO_INDEX; row = slices->parent[row])
            if (slices->ts[row] + slices->dur[row] >= ts)
              {
                bound[r] = row;
                break;
              }
        }
    }

  return bound;
}

/* Per key, in time order: START opens a chain, each further bound point
 * adds an arrow from the previous bound point, END closes the chain. */
void
_sps_build_flows (Finish *f)
{
  SPS_SELF_TRACE_SCOPE ("finish/flows");
  SpsTraceBuilder *b = f->builder;
  SpsFlowTable *flows = &f->trace->flows;
  guint n = b->n_flow_points;
  g_autofree guint32 *bound = NULL;
  g_autofree guint32 *order = NULL;
  guint32 *from;
  guint32 *to;
  guint64 *key;
  guint32 *name;
  guint32 *category;
  guint n_arrows = 0;
  gboolean open = FALSE;
  guint32 last = SPS_NO_INDEX;
  guint32 chain_name = 0;
  guint32 chain_category = 0;
  guint64 chain_key = 0;
  guint32 chain_producer = SPS_NO_INDEX;

  if (n == 0)
    return;

  bound = bind_flow_points (f);
  order = _sps_order_by_key_and_time (b->flow_key, b->flow_ts, n);
  from = g_new (guint32, n);
  to = g_new (guint32, n);
  key = g_new (guint64, n);
  name = g_new (guint32, n);
  category = g_new (guint32, n);

  for (guint i = 0; i < n; i++)
    {
      guint32 point = order[i];
      SpsFlowPhase phase = b->flow_phase[point];
      guint32 slice;

      if (i > 0 && b->flow_key[point] != chain_key)
        open = FALSE;

      if (phase != SPS_FLOW_START && !open)
        {
          sps_trace_builder_warn (b, "flow_without_start",
                                  /* Translators: a time in nanoseconds, then the id of a flow */
                                  N_("A flow point at %" PRId64 " ns (id %" PRIu64
                                     ") has no start before it; it is dropped"),
                                  b->flow_ts[point], b->flow_key[point]);
          continue;
        }

      if (phase == SPS_FLOW_START)
        {
          open = TRUE;
          last = SPS_NO_INDEX;
          chain_key = b->flow_key[point];
          chain_name = b->flow_name[point];
          chain_category = b->flow_category[point];
        }

      slice = bound[point];
      if (slice == SPS_NO_INDEX)
        {
          sps_trace_builder_warn (b, "unbound_flow_point",
                                  /* Translators: a time in nanoseconds, then the id of a flow */
                                  N_("A flow point at %" PRId64 " ns (id %" PRIu64
                                     ") binds to no slice; it is dropped"),
                                  b->flow_ts[point], b->flow_key[point]);
        }
      else
        {
          if (last != SPS_NO_INDEX)
            {
              from[n_arrows] = last;
              to[n_arrows] = slice;
              key[n_arrows] = chain_key;
              name[n_arrows] = chain_name;
              category[n_arrows] = chain_category;
              n_arrows++;
            }
          last = slice;
        }

      /* A v2 consumer (flow_in) leaves its producer bound: every slice
       * that names the id is a consumer, until another flow_out. */
      if (phase == SPS_FLOW_END && b->flow_bind[point] != SPS_FLOW_BIND_SLICE)
        {
          open = FALSE;
          last = SPS_NO_INDEX;
        }
      else if (phase == SPS_FLOW_END && open)
        last = chain_producer;
      else
        chain_producer = last;
    }

  flows->n_rows = n_arrows;
  flows->from_slice = _sps_shrink_column (from, n_arrows, sizeof (guint32));
  flows->to_slice = _sps_shrink_column (to, n_arrows, sizeof (guint32));
  flows->key = _sps_shrink_column (key, n_arrows, sizeof (guint64));
  flows->name = _sps_shrink_column (name, n_arrows, sizeof (guint32));
  flows->category = _sps_shrink_column (category, n_arrows, sizeof (guint32));

  g_clear_pointer (&f->record_slice, g_free);
  g_clear_pointer (&f->async_record_slice, g_free);
}

/* Orders a table whose every row has a track (@map[@key[r]], or @key[r])
 * by (track, ts): fills @start, records the rows of the tracks of @kinds,
 * and returns the order for GATHER_COLUMN(). */
static guint32 *
order_on_tracks (Finish        *f,
                 const guint32 *key,
                 const guint32 *map,
                 const SpsTime *ts,
                 guint          n,
                 guint          kinds,
                 guint32       *start)
{
  guint32 *order = _sps_order_on_tracks (key, map, ts, n, f->n_tracks, start);

  if (kinds != 0)
    _sps_set_track_rows (f, start, kinds);
  return order;
}

/* Each table is placed, gathered and its builder columns freed before the
 * next one starts: finish()'s peak is one table's work (its order, 4
 * bytes a row, and one column being gathered) over the rest, not the
 * sum. */
void
_sps_build_instants (Finish *f)
{
  SPS_SELF_TRACE_SCOPE ("finish/instants");
  SpsTraceBuilder *b = f->builder;
  SpsInstantTable *instants = &f->trace->instants;
  guint n = b->n_instants;
  g_autofree guint32 *start = g_new (guint32, f->n_tracks + 1);
  g_autofree guint32 *order = NULL;

  /* The owner column becomes the track column: no other is allocated */
  for (guint r = 0; r < n; r++)
    {
      guint32 owner = b->instant_owner[r];

      switch (instant_scope (b, r))
        {
        case SPS_INSTANT_SCOPE_THREAD:
          b->instant_owner[r] = f->thread_instants_track[owner];
          break;
        case SPS_INSTANT_SCOPE_PROCESS:
          b->instant_owner[r] = f->process_instants_track[owner];
          break;
        default:
          b->instant_owner[r] = f->global_instants_track;
          break;
        }
    }
  g_clear_pointer (&b->instant_scope, g_free);

  order = order_on_tracks (f, b->instant_owner, NULL, b->instant_ts, n,
                           (1u << SPS_TRACK_THREAD_INSTANTS) |
                           (1u << SPS_TRACK_PROCESS_INSTANTS) |
                           (1u << SPS_TRACK_GLOBAL_INSTANTS), start);
  g_clear_pointer (&b->instant_owner, g_free);
  instants->n_rows = n;
  instants->ts = GATHER_COLUMN (b->instant_ts, order, n);
  instants->name = GATHER_COLUMN (b->instant_name, order, n);
  instants->category = GATHER_COLUMN (b->instant_category, order, n);
  /* A kind stored once holds in any order */
  if (b->instant_kind != NULL)
    instants->kind = GATHER_COLUMN (b->instant_kind, order, n);
  else if (n > 0)
    instants->kind = memset (g_malloc (n), b->instant_constants.kind, n);
  instants->args = GATHER_COLUMN (b->instant_args, order, n);
  instants->event = GATHER_COLUMN (b->instant_event, order, n);
  g_clear_pointer (&order, g_free);
  instants->track = _sps_track_column (start, f->n_tracks, n);
}

void
_sps_build_counters (Finish *f)
{
  SPS_SELF_TRACE_SCOPE ("finish/counters");
  SpsTraceBuilder *b = f->builder;
  SpsCounterTable *counters = &f->trace->counters;
  guint n = b->n_counter_values;
  g_autofree guint32 *start = g_new (guint32, f->n_tracks + 1);
  g_autofree guint32 *order = NULL;

  order = order_on_tracks (f, b->value_counter, f->counter_track, b->value_ts, n,
                           1u << SPS_TRACK_COUNTER, start);
  counters->n_rows = n;
  counters->ts = GATHER_COLUMN (b->value_ts, order, n);
  counters->value = GATHER_COLUMN (b->value_value, order, n);
  g_clear_pointer (&order, g_free);
  counters->track = _sps_track_column (start, f->n_tracks, n);
}

/* A sample column that may be stored once: gathered when stored per
 * row, else NULL with its constant */
#define GATHER_SAMPLE_COLUMN(out, field, column, stored_once, order, n) \
  G_STMT_START { \
    if ((column) != NULL) \
      (out)->field = GATHER_COLUMN ((column), (order), (n)); \
    (out)->constants.field = (stored_once)->field; \
  } G_STMT_END

/* The columns of a builder's sample table (those of its samples or of its
 * raw samples: the same columns), with its constants */
typedef struct
{
  SpsTime                  **ts;
  guint32                  **thread;
  guint32                  **name;
  guint32                  **callsite;
  guint32                  **raw_stack_ref;
  double                   **weight;
  guint8                   **weight_unit;
  guint8                   **flags;
  guint32                  **line;
  const SpsSampleConstants  *constants;
  const guint32             *track_of_thread;
} SampleColumns;

/* Moves a builder's sample table into @out, on the sample tracks in time
 * order (recording the tracks' rows when @kinds says so): its columns one
 * at a time, each builder column freed as its copy is made. */
static void
build_sample_table (Finish              *f,
                    const SampleColumns *in,
                    SpsSampleTable      *out,
                    guint                n,
                    guint                kinds)
{
  SpsTraceBuilder *b = f->builder;
  g_autofree guint32 *start = g_new (guint32, f->n_tracks + 1);
  g_autofree guint32 *order = NULL;
  guint32 *leaf_name;

  order = order_on_tracks (f, *in->thread, in->track_of_thread, *in->ts, n, kinds, start);
  out->n_rows = n;
  out->ts = GATHER_COLUMN (*in->ts, order, n);
  out->thread = GATHER_COLUMN (*in->thread, order, n);
  out->callsite = GATHER_COLUMN (*in->callsite, order, n);
  GATHER_SAMPLE_COLUMN (out, event_name, *in->name, in->constants, order, n);
  GATHER_SAMPLE_COLUMN (out, raw_stack_ref, *in->raw_stack_ref, in->constants, order, n);
  GATHER_SAMPLE_COLUMN (out, weight, *in->weight, in->constants, order, n);
  GATHER_SAMPLE_COLUMN (out, weight_unit, *in->weight_unit, in->constants, order, n);
  GATHER_SAMPLE_COLUMN (out, flags, *in->flags, in->constants, order, n);
  GATHER_SAMPLE_COLUMN (out, line, *in->line, in->constants, order, n);
  g_clear_pointer (&order, g_free);
  out->track = _sps_track_column (start, f->n_tracks, n);

  /* A sample is named by its leaf frame for navigation; an unresolved
   * stack's single frame carries the event's name, so nothing is lost.
   * The frame columns are still the builder's here. */
  leaf_name = _sps_alloc_large (MAX (n, 1) * sizeof (guint32));
  for (guint r = 0; r < n; r++)
    {
      guint32 callsite_row = out->callsite[r];

      if (callsite_row < b->n_callsites && b->callsite_frame[callsite_row] < b->n_frames)
        leaf_name[r] = b->frame_name[b->callsite_frame[callsite_row]];
      else
        leaf_name[r] = SPS_SAMPLE_VALUE (out, event_name, r);
    }
  out->name = leaf_name;
}

void
_sps_build_samples (Finish *f)
{
  SPS_SELF_TRACE_SCOPE ("finish/samples");
  SpsTraceBuilder *b = f->builder;
  const SampleColumns in = {
    &b->sample_ts, &b->sample_thread, &b->sample_name, &b->sample_callsite,
    &b->sample_raw_stack_ref, &b->sample_weight, &b->sample_weight_unit, &b->sample_flags,
    &b->sample_line, &b->sample_constants, f->thread_samples_track,
  };

  build_sample_table (f, &in, &f->trace->samples, b->n_samples, 1u << SPS_TRACK_THREAD_SAMPLES);
}

/* Raw samples go on the same tracks as samples without changing the
 * tracks' row ranges, which describe the sample table. */
void
_sps_build_raw_samples (Finish *f)
{
  SPS_SELF_TRACE_SCOPE ("finish/raw-samples");
  SpsTraceBuilder *b = f->builder;
  const SampleColumns in = {
    &b->raw_sample_ts, &b->raw_sample_thread, &b->raw_sample_name, &b->raw_sample_callsite,
    &b->raw_sample_raw_stack_ref, &b->raw_sample_weight, &b->raw_sample_weight_unit,
    &b->raw_sample_flags, &b->raw_sample_line, &b->raw_sample_constants, f->thread_samples_track,
  };

  build_sample_table (f, &in, &f->trace->raw_samples, b->n_raw_samples, 0);
}

void
_sps_build_objects_and_stacks (Finish *f)
{
  SPS_SELF_TRACE_SCOPE ("finish/objects-and-stacks");
  SpsTraceBuilder *b = f->builder;
  SpsTrace *trace = f->trace;
  guint n = b->n_objects;
  guint32 start[2];
  g_autofree guint32 *position = g_new (guint32, MAX (n, 1));
  gboolean identity;

  _sps_place_rows (NULL, b->object_ts, NULL, n, 1, start, position);
  identity = _sps_is_identity (position, n, n);

  trace->objects.n_rows = n;
  trace->objects.ts = SCATTER_COLUMN (b->object_ts, position, n, n, identity);
  trace->objects.phase = SCATTER_COLUMN (b->object_phase, position, n, n, identity);
  trace->objects.process = SCATTER_COLUMN (b->object_process, position, n, n, identity);
  trace->objects.key = SCATTER_COLUMN (b->object_key, position, n, n, identity);
  trace->objects.name = SCATTER_COLUMN (b->object_name, position, n, n, identity);
  trace->objects.args = SCATTER_COLUMN (b->object_args, position, n, n, identity);

  trace->frames.n_rows = b->n_frames;
  trace->frames.name = STEAL_COLUMN (b->frame_name, b->n_frames);
  trace->frames.category = STEAL_COLUMN (b->frame_category, b->n_frames);
  trace->frames.module = STEAL_COLUMN (b->frame_module, b->n_frames);
  trace->frames.address = STEAL_COLUMN (b->frame_address, b->n_frames);
  trace->frames.source_file = STEAL_COLUMN (b->frame_source_file, b->n_frames);
  trace->frames.source_line = STEAL_COLUMN (b->frame_source_line, b->n_frames);
  trace->frames.source_column = STEAL_COLUMN (b->frame_source_column, b->n_frames);

  trace->callsites.n_rows = b->n_callsites;
  trace->callsites.parent = STEAL_COLUMN (b->callsite_parent, b->n_callsites);
  trace->callsites.frame = STEAL_COLUMN (b->callsite_frame, b->n_callsites);
  trace->callsites.depth = STEAL_COLUMN (b->callsite_depth, b->n_callsites);
}

/* Allocations by birth, GC observations by time; both are single tables
 * that no track splits. */
void
_sps_build_allocations (Finish *f)
{
  SPS_SELF_TRACE_SCOPE ("finish/allocations");
  SpsTraceBuilder *b = f->builder;
  SpsAllocationTable *a = &f->trace->allocations;
  SpsGcObservationTable *gc = &f->trace->gc_observations;
  guint n = b->n_allocations;
  guint ng = b->n_gc_observations;
  guint32 start[2];
  g_autofree guint32 *position = g_new (guint32, MAX (MAX (n, ng), 1));
  gboolean identity;

  _sps_place_rows (NULL, b->alloc_birth, NULL, n, 1, start, position);
  identity = _sps_is_identity (position, n, n);

  a->n_rows = n;
  a->birth = SCATTER_COLUMN (b->alloc_birth, position, n, n, identity);
  a->death = SCATTER_COLUMN (b->alloc_death, position, n, n, identity);
  a->death_after = SCATTER_COLUMN (b->alloc_death_after, position, n, n, identity);
  a->death_by = SCATTER_COLUMN (b->alloc_death_by, position, n, n, identity);
  a->size = SCATTER_COLUMN (b->alloc_size, position, n, n, identity);
  a->address = SCATTER_COLUMN (b->alloc_address, position, n, n, identity);
  a->type = SCATTER_COLUMN (b->alloc_type, position, n, n, identity);
  a->callsite = SCATTER_COLUMN (b->alloc_callsite, position, n, n, identity);
  a->process = SCATTER_COLUMN (b->alloc_process, position, n, n, identity);
  a->thread = SCATTER_COLUMN (b->alloc_thread, position, n, n, identity);
  a->heap = SCATTER_COLUMN (b->alloc_heap, position, n, n, identity);
  a->certainty = SCATTER_COLUMN (b->alloc_certainty, position, n, n, identity);

  _sps_place_rows (NULL, b->gc_ts, NULL, ng, 1, start, position);
  identity = _sps_is_identity (position, ng, ng);

  gc->n_rows = ng;
  gc->ts = SCATTER_COLUMN (b->gc_ts, position, ng, ng, identity);
  gc->process = SCATTER_COLUMN (b->gc_process, position, ng, ng, identity);
  gc->thread = SCATTER_COLUMN (b->gc_thread, position, ng, ng, identity);
  gc->kind = SCATTER_COLUMN (b->gc_kind, position, ng, ng, identity);
  gc->gc_number = SCATTER_COLUMN (b->gc_number, position, ng, ng, identity);
  gc->generation = SCATTER_COLUMN (b->gc_generation, position, ng, ng, identity);
  gc->reason = SCATTER_COLUMN (b->gc_reason, position, ng, ng, identity);
  gc->bytes = SCATTER_COLUMN (b->gc_bytes, position, ng, ng, identity);
}
