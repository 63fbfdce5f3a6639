/* sps-trace-finish-tracks.c: finish()'s tracks, slices and block index
 *
 * The passes that create the tracks, place every slice record on its
 * track, compute parent, depth and self time, and build the block index
 * for range queries. The slice table is the largest and the one the
 * timeline reads most, so its builders have a file of their own.
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

static guint32
add_track (Finish       *f,
           SpsTrackKind  kind,
           guint32       process,
           guint32       thread,
           guint32       name,
           guint32       series)
{
  guint32 t;

  if (f->n_tracks == f->tracks_capacity)
    _sps_table_grow (f, &track_table);

  t = f->n_tracks++;
  f->track_kind[t] = kind;
  f->track_process[t] = process;
  f->track_thread[t] = thread;
  f->track_name[t] = name;
  f->track_series[t] = series;
  f->track_first_row[t] = 0;
  f->track_n_rows[t] = 0;
  f->track_max_depth[t] = 0;

  return t;
}

enum {
  HAS_SLICES = 1 << 0,
  HAS_SAMPLED = 1 << 1,
  HAS_INSTANTS = 1 << 2,
  HAS_SAMPLES = 1 << 3,
};

/* Tracks are created process by process: each thread's tracks (those that
 * have rows), then the process's async lanes, process instants and
 * counter series; the global instant track comes last. */
void
_sps_build_tracks (Finish *f)
{
  SPS_SELF_TRACE_SCOPE ("finish/tracks");
  SpsTraceBuilder *b = f->builder;
  SpsTrace *trace = f->trace;
  const guint32 *thread_process = trace->threads.process;
  guint np = trace->processes.n_rows;
  guint nt = trace->threads.n_rows;
  g_autofree guint8 *thread_has = g_new0 (guint8, MAX (nt, 1));
  g_autofree gboolean *process_has_instants = g_new0 (gboolean, MAX (np, 1));
  g_autofree guint32 *threads_by_process = NULL;
  g_autofree guint32 *thread_start = g_new (guint32, np + 1);
  g_autofree guint32 *counters_by_process = NULL;
  g_autofree guint32 *counter_start = g_new (guint32, np + 1);
  gboolean has_global = FALSE;
  guint n_ordered;

  for (guint r = 0; r < f->async_first; r++)
    if (b->slice_kind[r] != SPS_SLICE_RECORD_END)
      thread_has[b->slice_thread[r]] |= (b->slice_flags[r] & SPS_SLICE_SAMPLED) ? HAS_SAMPLED : HAS_SLICES;

  for (guint r = 0; r < b->n_instants; r++)
    switch (instant_scope (b, r))
      {
      case SPS_INSTANT_SCOPE_THREAD:
        thread_has[b->instant_owner[r]] |= HAS_INSTANTS;
        break;
      case SPS_INSTANT_SCOPE_PROCESS:
        process_has_instants[b->instant_owner[r]] = TRUE;
        break;
      default:
        has_global = TRUE;
        break;
      }

  for (guint r = 0; r < b->n_samples; r++)
    thread_has[b->sample_thread[r]] |= HAS_SAMPLES;
  /* A thread whose every sample was deleted by a repair keeps its (empty)
   * sample track, so that its raw samples have one */
  for (guint r = 0; r < b->n_raw_samples; r++)
    thread_has[b->raw_sample_thread[r]] |= HAS_SAMPLES;

  /* Threads and counters grouped by process, in index order */
  threads_by_process = _sps_order_rows (thread_process, NULL, nt, np, thread_start, &n_ordered);
  counters_by_process = _sps_order_rows (b->counter_process, NULL, b->n_counters, np,
                                         counter_start, &n_ordered);

  f->thread_slices_track = _sps_new_index_array (nt);
  f->thread_sampled_track = _sps_new_index_array (nt);
  f->thread_instants_track = _sps_new_index_array (nt);
  f->thread_samples_track = _sps_new_index_array (nt);
  f->process_instants_track = _sps_new_index_array (np);
  f->process_first_lane = _sps_new_index_array (np);
  f->counter_track = _sps_new_index_array (b->n_counters);
  f->global_instants_track = SPS_NO_INDEX;

  for (guint p = 0; p < np; p++)
    {
      for (guint i = thread_start[p]; i < thread_start[p + 1]; i++)
        {
          guint32 t = threads_by_process[i];

          if (thread_has[t] & HAS_SLICES)
            f->thread_slices_track[t] = add_track (f, SPS_TRACK_THREAD_SLICES, p, t, 0, 0);
          if (thread_has[t] & HAS_SAMPLED)
            f->thread_sampled_track[t] = add_track (f, SPS_TRACK_THREAD_SAMPLED_SLICES, p, t, 0, 0);
          if (thread_has[t] & HAS_INSTANTS)
            f->thread_instants_track[t] = add_track (f, SPS_TRACK_THREAD_INSTANTS, p, t, 0, 0);
          if (thread_has[t] & HAS_SAMPLES)
            f->thread_samples_track[t] = add_track (f, SPS_TRACK_THREAD_SAMPLES, p, t, 0, 0);
        }

      f->process_first_lane[p] = f->n_tracks;
      for (guint l = 0; l < f->process_n_lanes[p]; l++)
        add_track (f, SPS_TRACK_ASYNC, p, SPS_NO_INDEX,
                   l < f->process_n_gc_lanes[p] ? b->gc_lane_name : 0, 0);

      if (process_has_instants[p])
        f->process_instants_track[p] = add_track (f, SPS_TRACK_PROCESS_INSTANTS, p, SPS_NO_INDEX, 0, 0);

      for (guint i = counter_start[p]; i < counter_start[p + 1]; i++)
        {
          guint32 c = counters_by_process[i];

          f->counter_track[c] = add_track (f, SPS_TRACK_COUNTER, p, SPS_NO_INDEX,
                                           b->counter_name[c], b->counter_series[c]);
        }
    }

  if (has_global)
    f->global_instants_track = add_track (f, SPS_TRACK_GLOBAL_INSTANTS,
                                          SPS_NO_INDEX, SPS_NO_INDEX, 0, 0);
}

/* Records the rows of one table's tracks. */
void
_sps_set_track_rows (Finish        *f,
                     const guint32 *start,
                     guint          kinds)
{
  for (guint t = 0; t < f->n_tracks; t++)
    if ((kinds & (1u << f->track_kind[t])) != 0)
      {
        f->track_first_row[t] = start[t];
        f->track_n_rows[t] = start[t + 1] - start[t];
      }
}

guint32 *
_sps_track_column (const guint32 *start,
                   guint          n_tracks,
                   guint          n_rows)
{
  guint32 *track;

  if (n_rows == 0)
    return NULL;

  track = g_new (guint32, n_rows);

  for (guint t = 0; t < n_tracks; t++)
    for (guint32 i = start[t]; i < start[t + 1]; i++)
      track[i] = t;

  return track;
}

/* Parent and depth on thread tracks come from containment: a slice's
 * parent is the innermost open slice that contains it; one that starts
 * inside a slice but ends after it (overlap, out of spec) becomes its
 * child anyway, with a warning. Async trees come with theirs. Self time,
 * max depth and the completed-slice counts are done in the same pass. */
static void
nest_slices (Finish  *f,
             guint32 *parent,
             guint16 *depth,
             SpsTime *self_time)
{
  SpsTrace *trace = f->trace;
  const SpsTime *ts = trace->slices.ts;
  const SpsTime *dur = trace->slices.dur;
  const guint16 *flags = trace->slices.flags;
  g_autofree guint32 *stack = NULL;
  g_autofree SpsTime *stack_end = NULL;
  guint capacity = 0;

  for (guint i = 0; i < trace->slices.n_rows; i++)
    self_time[i] = dur[i];

  for (guint t = 0; t < f->n_tracks; t++)
    {
      guint8 kind = f->track_kind[t];
      guint32 first = f->track_first_row[t];
      guint32 end = first + f->track_n_rows[t];
      guint16 max_depth = 0;
      guint completed = 0;
      guint sp = 0;

      if ((SLICE_TRACK_KINDS & (1u << kind)) == 0)
        continue;

      for (guint32 i = first; i < end; i++)
        {
          guint32 p;

          if (kind != SPS_TRACK_ASYNC)
            {
              SpsTime s_ts = ts[i];
              SpsTime s_end = s_ts + dur[i];
              guint16 d = 0;

              p = SPS_NO_INDEX;
              while (sp > 0)
                {
                  if (s_end <= stack_end[sp - 1])
                    {
                      p = stack[sp - 1];
                      break;
                    }
                  if (s_ts < stack_end[sp - 1])
                    {
                      sps_trace_builder_warn (f->builder, "overlapping_slice",
                                              /* Translators: %<PRId64> is a time in nanoseconds */
                                              N_("A slice at %" PRId64 " ns ends after the slice it starts in"),
                                              s_ts);
                      p = stack[sp - 1];
                      break;
                    }
                  sp--;
                }

              if (p != SPS_NO_INDEX)
                {
                  if (depth[p] >= SPS_MAX_DEPTH)
                    {
                      sps_trace_builder_warn (f->builder, "max_depth_exceeded",
                                              N_("Slices nest deeper than %u levels; deeper ones are kept at the last level"),
                                              (guint) SPS_MAX_DEPTH);
                      p = parent[p];
                      d = SPS_MAX_DEPTH;
                    }
                  else
                    d = depth[p] + 1;
                }

              parent[i] = p;
              depth[i] = d;

              if (sp == capacity)
                {
                  capacity = MAX (64, capacity * 2);
                  stack = g_renew (guint32, stack, capacity);
                  stack_end = g_renew (SpsTime, stack_end, capacity);
                }
              stack[sp] = i;
              stack_end[sp] = s_end;
              sp++;
            }

          /* Clipping at every step gives the same as clipping the sum. */
          p = parent[i];
          if (p != SPS_NO_INDEX)
            self_time[p] = self_time[p] > dur[i] ? self_time[p] - dur[i] : 0;

          if (depth[i] + 1 > max_depth)
            max_depth = depth[i] + 1;
          if ((flags[i] & (SPS_SLICE_UNFINISHED | SPS_SLICE_UNMATCHED_END | SPS_SLICE_STEP)) == 0)
            completed++;
        }

      f->track_max_depth[t] = max_depth;
      trace->slice_counts[kind] += completed;
    }
}

void
_sps_build_slices (Finish *f)
{
  SPS_SELF_TRACE_SCOPE ("finish/slices");
  SpsTraceBuilder *b = f->builder;
  SpsSliceTable *slices = &f->trace->slices;
  guint n = b->n_slice_records;
  g_autofree guint32 *start = g_new (guint32, f->n_tracks + 1);
  guint32 *position;
  guint32 *parent;
  guint16 *depth;
  SpsTime *self_time;
  guint n_slices;
  gboolean identity;

  /* The thread column becomes the track column. */
  for (guint r = 0; r < f->async_first; r++)
    {
      guint32 thread = b->slice_thread[r];

      if (b->slice_kind[r] == SPS_SLICE_RECORD_END)
        b->slice_thread[r] = SPS_NO_INDEX;
      else if (b->slice_flags[r] & SPS_SLICE_SAMPLED)
        b->slice_thread[r] = f->thread_sampled_track[thread];
      else
        b->slice_thread[r] = f->thread_slices_track[thread];
    }
  for (guint a = 0; a < f->n_async_slices; a++)
    b->slice_thread[async_row (f, a)] = f->process_first_lane[f->async_slice_process[a]] +
                                        f->async_slice_lane[a];

  position = g_new (guint32, MAX (n, 1));
  n_slices = _sps_place_rows (b->slice_thread, b->slice_ts, b->slice_dur, n, f->n_tracks, start, position);
  f->record_slice = position;
  g_clear_pointer (&b->slice_thread, g_free);
  g_clear_pointer (&b->slice_kind, g_free);
  _sps_set_track_rows (f, start, SLICE_TRACK_KINDS);

  identity = _sps_is_identity (position, n, n_slices);
  slices->n_rows = n_slices;
  slices->ts = SCATTER_COLUMN (b->slice_ts, position, n, n_slices, identity);
  slices->dur = SCATTER_COLUMN (b->slice_dur, position, n, n_slices, identity);
  slices->name = SCATTER_COLUMN (b->slice_name, position, n, n_slices, identity);
  slices->category = SCATTER_COLUMN (b->slice_category, position, n, n_slices, identity);
  slices->args = SCATTER_COLUMN (b->slice_args, position, n, n_slices, identity);
  slices->flags = SCATTER_COLUMN (b->slice_flags, position, n, n_slices, identity);
  /* Stored once in the builder: stored once in the trace */
  if (b->slice_callsite != NULL)
    slices->callsite = SCATTER_COLUMN (b->slice_callsite, position, n, n_slices, identity);
  if (b->slice_end_callsite != NULL)
    slices->end_callsite = SCATTER_COLUMN (b->slice_end_callsite, position, n, n_slices, identity);
  slices->constants = b->slice_constants;
  slices->track = _sps_track_column (start, f->n_tracks, n_slices);
  b->n_slice_records = b->slice_records_capacity = 0;

  parent = g_new (guint32, MAX (n_slices, 1));
  depth = g_new (guint16, MAX (n_slices, 1));
  self_time = g_new (SpsTime, MAX (n_slices, 1));

  /* Async trees were built by pairing; only their indexes change. */
  for (guint a = 0; a < f->n_async_slices; a++)
    {
      guint32 i = position[async_row (f, a)];
      guint32 pa = f->async_slice_parent[a];

      parent[i] = pa == SPS_NO_INDEX ? SPS_NO_INDEX : position[async_row (f, pa)];
      depth[i] = f->async_slice_depth[a];
    }

  nest_slices (f, parent, depth, self_time);

  slices->parent = _sps_shrink_column (parent, n_slices, sizeof (guint32));
  slices->depth = _sps_shrink_column (depth, n_slices, sizeof (guint16));
  slices->self_time = _sps_shrink_column (self_time, n_slices, sizeof (SpsTime));

  g_clear_pointer (&f->async_slice_parent, g_free);
  g_clear_pointer (&f->async_slice_depth, g_free);
  g_clear_pointer (&f->async_slice_lane, g_free);
  g_clear_pointer (&f->async_slice_process, g_free);
}

/**
 * _sps_block_index_new:
 * @trace: a trace whose tracks and slices are in place
 *
 * Sets @trace's track_first_block and n_block_leaves and gives it a block
 * tree of SPS_TIME_MIN for the caller to fill (finish, and a live trace's
 * growth in sps-trace-grow.c).
 *
 * Returns: the tree (@trace's block_tree)
 */
SpsTime *
_sps_block_index_new (SpsTrace *trace)
{
  const SpsTrackTable *tracks = &trace->tracks;
  guint32 n_blocks = 0;
  guint leaves = 1;
  SpsTime *tree;

  trace->track_first_block = g_new (guint32, tracks->n_rows + 1);
  for (guint t = 0; t < tracks->n_rows; t++)
    {
      trace->track_first_block[t] = n_blocks;
      if ((SLICE_TRACK_KINDS & (1u << tracks->kind[t])) != 0)
        n_blocks += (tracks->n_rows_in_track[t] + SPS_SLICE_BLOCK_SIZE - 1) / SPS_SLICE_BLOCK_SIZE;
    }
  trace->track_first_block[tracks->n_rows] = n_blocks;

  while (leaves < n_blocks)
    leaves *= 2;

  tree = g_new (SpsTime, 2 * (gsize) leaves);
  for (guint i = 0; i < 2 * leaves; i++)
    tree[i] = SPS_TIME_MIN;
  trace->block_tree = tree;
  trace->n_block_leaves = leaves;

  return tree;
}

void
_sps_build_block_index (Finish *f)
{
  SPS_SELF_TRACE_SCOPE ("finish/block-index");
  SpsTrace *trace = f->trace;
  const SpsTrackTable *tracks = &trace->tracks;
  const SpsTime *ts = trace->slices.ts;
  const SpsTime *dur = trace->slices.dur;
  SpsTime *tree = _sps_block_index_new (trace);
  guint leaves = trace->n_block_leaves;

  for (guint t = 0; t < tracks->n_rows; t++)
    {
      guint32 first = tracks->first_row[t];
      guint32 end = first + tracks->n_rows_in_track[t];
      guint32 block = trace->track_first_block[t];

      if ((SLICE_TRACK_KINDS & (1u << tracks->kind[t])) == 0)
        continue;

      for (guint32 row = first; row < end; row += SPS_SLICE_BLOCK_SIZE, block++)
        {
          guint32 last = MIN (row + SPS_SLICE_BLOCK_SIZE, end);
          SpsTime max_end = SPS_TIME_MIN;

          for (guint32 i = row; i < last; i++)
            max_end = MAX (max_end, ts[i] + dur[i]);
          tree[leaves + block] = max_end;
        }
    }

  for (guint i = leaves - 1; i > 0; i--)
    tree[i] = MAX (tree[2 * i], tree[2 * i + 1]);
}
