/* sps-view-filter.c: the interaction pipeline (seed 002) over a trace
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-view-filter"

#include "config.h"

#include <string.h>

#include "sps-view-filter-private.h"

/**
 * SpsViewFilter:
 *
 * Turns small control states into what the views show: an effective lane
 * layout (process and thread collapse keeps a representative lane), a
 * visibility per slice (time window, minimum duration, classification bits
 * required and excluded, linked-span focus), the visible slices compacted in
 * source order with an exact count, the nearest visible ancestor of a hidden
 * slice, and picking against the effective layout.
 *
 * A slice is visible when its track has a valid process/thread mapping, its
 * depth is among the lanes its group keeps, it passes the time window and
 * minimum duration, its class bits hold every bit of the require mask and
 * none of the exclude mask, and — when focus is on and has a seed — focus
 * reached it.
 *
 * Visibility is kept factored so that a control change costs what it
 * changes: one byte per slice for the window test (updated only for the
 * slices that intersect the part of either window outside the other, found
 * through the trace's block index), the duration test read from the `dur`
 * column (a change recounts the slices between the old and new minimum,
 * from a duration order), one pattern id per slice for its class bits (a
 * toggle re-evaluates the few distinct patterns), and per track a depth
 * limit for collapse. Counts of passing slices per (track, depth, pattern)
 * give the exact visible count without a rescan. The mask aligned to the slice table and the
 * compacted rows are materialised when asked for, once per state.
 *
 * The object is not thread-safe; use it from one thread (the trace it reads
 * is immutable).
 */

G_DEFINE_FINAL_TYPE (SpsViewFilter, sps_view_filter, G_TYPE_OBJECT)

G_DEFINE_QUARK (sps-view-filter-error-quark, sps_view_filter_error)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
sps_view_filter_finalize (GObject *object)
{
  SpsViewFilter *self = (SpsViewFilter *) object;

  _sps_view_filter_free_focus (self);
  _sps_view_filter_clear_classes (self);
  g_clear_pointer (&self->class_names, g_ptr_array_unref);
  g_clear_pointer (&self->rules, g_ptr_array_unref);
  g_clear_pointer (&self->patterns, g_array_unref);
  g_clear_pointer (&self->seeds, g_array_unref);
  g_clear_pointer (&self->reached_list, g_array_unref);
  g_clear_pointer (&self->mask, g_bytes_unref);
  g_clear_pointer (&self->matched_mask, g_bytes_unref);

  g_free (self->group_process);
  g_free (self->group_thread);
  g_free (self->group_lanes);
  g_free (self->group_height);
  g_free (self->group_offset);
  g_free (self->group_valid);
  g_free (self->thread_group);
  g_free (self->process_group);
  g_free (self->process_first_group);
  g_free (self->process_last_group);
  g_free (self->process_expansion);
  g_free (self->thread_expansion);
  g_free (self->track_group);
  g_free (self->track_lane);
  g_free (self->track_lanes);
  g_free (self->track_limit);
  g_free (self->track_visible);
  g_free (self->track_cells);
  g_free (self->in_window);
  g_free (self->dur_order);
  g_free (self->dur_cell);
  g_free (self->cell_track);
  g_free (self->cell_depth);
  g_free (self->cell_pattern);
  g_free (self->slice_pattern);
  g_free (self->pattern_ok);
  g_free (self->cells);

  g_free (self->group_track_start);
  g_free (self->group_tracks);
  g_clear_object (&self->trace);

  G_OBJECT_CLASS (sps_view_filter_parent_class)->finalize (object);
}

static void
sps_view_filter_class_init (SpsViewFilterClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sps_view_filter_finalize;

  /**
   * SpsViewFilter::changed:
   * @self: the filter
   *
   * Emitted after any control changed what the filter gives.
   */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
sps_view_filter_init (SpsViewFilter *self)
{
  self->window_start = SPS_TIME_MIN;
  self->window_end = SPS_TIME_MAX;
  self->focus_depth = 1;
  self->focus_direction = SPS_FOCUS_BOTH;
  self->class_names = g_ptr_array_new_with_free_func (g_free);
  self->rules = g_ptr_array_new_with_free_func (_sps_class_rule_free);
  self->patterns = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->seeds = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->reached_list = g_array_new (FALSE, FALSE, sizeof (guint32));
}

void
_sps_view_filter_changed (SpsViewFilter *self)
{
  g_assert (SPS_IS_VIEW_FILTER (self));

  g_clear_pointer (&self->mask, g_bytes_unref);
  g_clear_pointer (&self->matched_mask, g_bytes_unref);
  if (_sps_view_filter_focus_active (self))
    _sps_view_filter_recount_focus (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

/* Layout */

typedef struct
{
  const gint32 *sort_index;
  const gint64 *key;
} OrderContext;

/* By sort index, then pid or tid, then index: a total, stable order. */
static int
compare_order (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  const OrderContext *ctx = user_data;
  guint32 i = *(const guint32 *) a;
  guint32 j = *(const guint32 *) b;

  if (ctx->sort_index[i] != ctx->sort_index[j])
    return ctx->sort_index[i] < ctx->sort_index[j] ? -1 : 1;
  if (ctx->key[i] != ctx->key[j])
    return ctx->key[i] < ctx->key[j] ? -1 : 1;
  return i < j ? -1 : i > j;
}

static void
add_group (SpsViewFilter *self,
           guint32        process,
           guint32        thread,
           gboolean       valid)
{
  guint g = self->n_groups++;

  self->group_process[g] = process;
  self->group_thread[g] = thread;
  self->group_valid[g] = valid;
  if (thread != SPS_NO_INDEX)
    self->thread_group[thread] = g;
  else if (process != SPS_NO_INDEX)
    self->process_group[process] = g;
}

/* Which group a track's lanes belong to; SPS_NO_INDEX when its process and
 * thread disagree, so that its slices are never shown under the wrong
 * process. */
static guint32
track_group_of (SpsViewFilter *self,
                guint          track)
{
  const SpsThreadTable *threads = sps_trace_get_threads (self->trace);
  guint n_processes = sps_trace_get_processes (self->trace)->n_rows;
  guint32 process = self->tracks->process[track];
  guint32 thread = self->tracks->thread[track];

  if (thread != SPS_NO_INDEX)
    {
      if (thread >= threads->n_rows || process >= n_processes ||
          threads->process[thread] != process)
        return SPS_NO_INDEX;
      return self->group_valid[self->thread_group[thread]] ? self->thread_group[thread] : SPS_NO_INDEX;
    }
  if (process != SPS_NO_INDEX)
    return process < n_processes ? self->process_group[process] : SPS_NO_INDEX;
  return 0;
}

static void
build_groups (SpsViewFilter *self)
{
  const SpsProcessTable *processes = sps_trace_get_processes (self->trace);
  const SpsThreadTable *threads = sps_trace_get_threads (self->trace);
  guint np = processes->n_rows;
  guint nt = threads->n_rows;
  guint n_max = 1 + np + nt;
  g_autofree guint32 *process_order = g_new (guint32, MAX (np, 1));
  g_autofree guint32 *thread_order = g_new (guint32, MAX (nt, 1));
  g_autofree guint32 *thread_start = g_new0 (guint32, np + 2);
  g_autofree guint32 *by_process = g_new (guint32, MAX (nt, 1));
  g_autofree guint32 *fill = NULL;
  OrderContext ctx;

  self->group_process = g_new (guint32, n_max);
  self->group_thread = g_new (guint32, n_max);
  self->group_valid = g_new0 (guint8, n_max);
  self->group_lanes = g_new0 (guint32, n_max);
  self->group_height = g_new0 (guint32, n_max);
  self->group_offset = g_new0 (guint32, n_max + 1);
  self->thread_group = g_new (guint32, MAX (nt, 1));
  self->process_group = g_new (guint32, MAX (np, 1));
  self->process_first_group = g_new (guint32, MAX (np, 1));
  self->process_last_group = g_new (guint32, MAX (np, 1));
  self->process_expansion = g_new0 (guint8, MAX (np, 1));
  self->thread_expansion = g_new0 (guint8, MAX (nt, 1));

  add_group (self, SPS_NO_INDEX, SPS_NO_INDEX, TRUE);

  for (guint i = 0; i < np; i++)
    process_order[i] = i;
  ctx.sort_index = processes->sort_index;
  ctx.key = processes->pid;
  g_qsort_with_data (process_order, np, sizeof (guint32), compare_order, &ctx);

  for (guint i = 0; i < nt; i++)
    thread_order[i] = i;
  ctx.sort_index = threads->sort_index;
  ctx.key = threads->tid;
  g_qsort_with_data (thread_order, nt, sizeof (guint32), compare_order, &ctx);

  /* Threads bucketed by process, keeping their order; a thread whose
   * process does not exist goes to the last bucket, shown nowhere. */
  for (guint i = 0; i < nt; i++)
    thread_start[MIN (threads->process[i], np) + 1]++;
  for (guint p = 0; p <= np; p++)
    thread_start[p + 1] += thread_start[p];
  fill = g_memdup2 (thread_start, sizeof (guint32) * (np + 2));
  for (guint i = 0; i < nt; i++)
    {
      guint32 th = thread_order[i];

      by_process[fill[MIN (threads->process[th], np)]++] = th;
    }

  for (guint i = 0; i < np; i++)
    {
      guint32 p = process_order[i];

      self->process_first_group[p] = self->n_groups;
      for (guint32 k = thread_start[p]; k < thread_start[p + 1]; k++)
        add_group (self, p, by_process[k], TRUE);
      add_group (self, p, SPS_NO_INDEX, TRUE);
      self->process_last_group[p] = self->n_groups;
    }
  for (guint32 k = thread_start[np]; k < thread_start[np + 1]; k++)
    add_group (self, threads->process[by_process[k]], by_process[k], FALSE);

  /* Tracks: their group, and their lanes stacked in track order */
  self->track_group = g_new (guint32, MAX (self->tracks->n_rows, 1));
  self->track_lane = g_new0 (guint32, MAX (self->tracks->n_rows, 1));
  self->track_lanes = g_new0 (guint32, MAX (self->tracks->n_rows, 1));
  self->track_limit = g_new0 (guint32, MAX (self->tracks->n_rows, 1));
  self->track_visible = g_new0 (guint32, MAX (self->tracks->n_rows, 1));
  self->track_cells = g_new0 (guint32, self->tracks->n_rows + 1);

  self->group_track_start = g_new0 (guint32, self->n_groups + 1);
  self->group_tracks = g_new (guint32, MAX (self->tracks->n_rows, 1));

  for (guint t = 0; t < self->tracks->n_rows; t++)
    {
      guint32 g = track_group_of (self, t);

      self->track_group[t] = g;
      if (_sps_view_filter_is_slice_track (self->tracks->kind[t]))
        self->track_lanes[t] = MAX (self->tracks->max_depth[t], 1);
      else
        self->track_lanes[t] = 1;
      if (g == SPS_NO_INDEX)
        continue;
      self->track_lane[t] = self->group_lanes[g];
      self->group_lanes[g] += self->track_lanes[t];
      self->group_track_start[g + 1]++;
    }
  for (guint g = 0; g < self->n_groups; g++)
    self->group_track_start[g + 1] += self->group_track_start[g];
  g_free (fill);
  fill = g_memdup2 (self->group_track_start, sizeof (guint32) * (self->n_groups + 1));
  for (guint t = 0; t < self->tracks->n_rows; t++)
    if (self->track_group[t] != SPS_NO_INDEX)
      self->group_tracks[fill[self->track_group[t]]++] = t;
}

static guint32
expanded_height (SpsViewFilter *self,
                 guint          g)
{
  guint32 thread = self->group_thread[g];
  SpsExpansion e = thread != SPS_NO_INDEX ? self->thread_expansion[thread] : SPS_EXPANSION_EXPANDED;

  switch (e)
    {
    case SPS_EXPANSION_HIDDEN:
      return 0;
    case SPS_EXPANSION_COLLAPSED:
      return MIN (self->group_lanes[g], 1);
    case SPS_EXPANSION_EXPANDED:
    default:
      return self->group_lanes[g];
    }
}

/* The heights of one process's groups from its and its threads' states. */
static void
compute_process_heights (SpsViewFilter *self,
                         guint          p)
{
  guint first = self->process_first_group[p];
  guint last = self->process_last_group[p];
  gboolean kept = FALSE;

  for (guint g = first; g < last; g++)
    {
      switch ((SpsExpansion) self->process_expansion[p])
        {
        case SPS_EXPANSION_HIDDEN:
          self->group_height[g] = 0;
          break;

        case SPS_EXPANSION_COLLAPSED:
          /* Only the first lane of the first thread that has one */
          self->group_height[g] = !kept && expanded_height (self, g) > 0 ? 1 : 0;
          kept |= self->group_height[g] > 0;
          break;

        case SPS_EXPANSION_EXPANDED:
        default:
          self->group_height[g] = expanded_height (self, g);
          break;
        }
    }
}

static void
compute_offsets (SpsViewFilter *self)
{
  guint32 y = 0;

  for (guint g = 0; g < self->n_groups; g++)
    {
      self->group_offset[g] = y;
      y += self->group_height[g];
    }
  self->group_offset[self->n_groups] = y;
  self->total_height = y;
}

static guint32
sum_track_cells (SpsViewFilter *self,
                 guint          t)
{
  guint n_patterns = self->patterns->len;
  const guint32 *cells = self->cells + self->track_cells[t];
  guint32 n = 0;

  for (guint d = 0; d < self->track_limit[t]; d++)
    for (guint p = 0; p < n_patterns; p++)
      if (self->pattern_ok[p])
        n += cells[d * n_patterns + p];
  return n;
}

/* A track's limit from its group's height; recounts its visible slices
 * when the limit moved. */
static void
update_track_limit (SpsViewFilter *self,
                    guint          t,
                    gboolean       force)
{
  guint32 g = self->track_group[t];
  guint32 limit = 0;

  if (g != SPS_NO_INDEX && self->group_height[g] > self->track_lane[t])
    limit = MIN (self->group_height[g] - self->track_lane[t], self->track_lanes[t]);
  if (limit == self->track_limit[t] && !force)
    return;
  self->track_limit[t] = limit;
  if (!_sps_view_filter_is_slice_track (self->tracks->kind[t]) || self->cells == NULL)
    return;
  self->visible_total -= self->track_visible[t];
  self->track_visible[t] = sum_track_cells (self, t);
  self->visible_total += self->track_visible[t];
}

static void
update_group_limits (SpsViewFilter *self,
                     guint          first,
                     guint          last)
{
  for (guint32 k = self->group_track_start[first]; k < self->group_track_start[last]; k++)
    update_track_limit (self, self->group_tracks[k], FALSE);
}

/* One slice more (@delta 1) or less (-1) passes the window and duration
 * tests in @cell; the visible counts follow when the cell is shown. */
void
_sps_view_filter_count_cell (SpsViewFilter *self,
                             gsize          cell,
                             int            delta)
{
  guint32 t = self->cell_track[cell];

  self->cells[cell] += delta;
  if (self->track_group[t] != SPS_NO_INDEX && self->cell_depth[cell] < self->track_limit[t] &&
      self->pattern_ok[self->cell_pattern[cell]])
    {
      self->track_visible[t] += delta;
      self->visible_total += delta;
    }
}

/* Counts of passing slices per (track, depth, pattern), from scratch:
 * after construction and when the classification changed. */
void
_sps_view_filter_rebuild_counts (SpsViewFilter *self)
{
  guint n_patterns = self->patterns->len;
  gsize n = 0;

  for (guint t = 0; t < self->tracks->n_rows; t++)
    {
      self->track_cells[t] = n;
      if (_sps_view_filter_is_slice_track (self->tracks->kind[t]))
        n += (gsize) self->track_lanes[t] * n_patterns;
    }
  self->track_cells[self->tracks->n_rows] = n;

  g_free (self->cells);
  g_free (self->cell_track);
  g_free (self->cell_depth);
  g_free (self->cell_pattern);
  self->cells = g_new0 (guint32, MAX (n, 1));
  self->cell_track = g_new (guint32, MAX (n, 1));
  self->cell_depth = g_new (guint16, MAX (n, 1));
  self->cell_pattern = g_new (guint16, MAX (n, 1));
  self->n_cells = n;
  for (guint t = 0; t < self->tracks->n_rows; t++)
    for (gsize c = self->track_cells[t]; c < self->track_cells[t + 1]; c++)
      {
        self->cell_track[c] = t;
        self->cell_depth[c] = (c - self->track_cells[t]) / n_patterns;
        self->cell_pattern[c] = (c - self->track_cells[t]) % n_patterns;
      }
  /* The cells of the duration order moved with the patterns */
  g_clear_pointer (&self->dur_cell, g_free);

  for (guint s = 0; s < self->slices->n_rows; s++)
    if (self->in_window[s] && self->slices->dur[s] >= self->min_duration)
      {
        guint32 t = self->slices->track[s];

        self->cells[self->track_cells[t] + (gsize) self->slices->depth[s] * n_patterns +
                    self->slice_pattern[s]]++;
      }

  self->visible_total = 0;
  memset (self->track_visible, 0, sizeof (guint32) * MAX (self->tracks->n_rows, 1));
  for (guint t = 0; t < self->tracks->n_rows; t++)
    update_track_limit (self, t, TRUE);
}

/* After the class masks changed: every track's count from its cells */
void
_sps_view_filter_recount_all (SpsViewFilter *self)
{
  self->visible_total = 0;
  for (guint t = 0; t < self->tracks->n_rows; t++)
    if (_sps_view_filter_is_slice_track (self->tracks->kind[t]))
      {
        self->track_visible[t] = sum_track_cells (self, t);
        self->visible_total += self->track_visible[t];
      }
}

/**
 * sps_view_filter_new:
 * @trace: a finished #SpsTrace
 *
 * Creates a filter that shows everything: every process and thread
 * expanded, an unbounded window, no minimum duration, no class rule, focus
 * off. Costs one pass over the slices.
 *
 * Returns: (transfer full): a new filter
 */
SpsViewFilter *
sps_view_filter_new (SpsTrace *trace)
{
  SpsViewFilter *self;
  guint32 none = 0;
  guint n;

  g_return_val_if_fail (SPS_IS_TRACE (trace), NULL);

  self = g_object_new (SPS_TYPE_VIEW_FILTER, NULL);
  self->trace = g_object_ref (trace);
  self->slices = sps_trace_get_slices (trace);
  self->tracks = sps_trace_get_tracks (trace);

  build_groups (self);
  for (guint p = 0; p < sps_trace_get_processes (trace)->n_rows; p++)
    compute_process_heights (self, p);
  self->group_height[0] = self->group_lanes[0];
  compute_offsets (self);

  n = MAX (self->slices->n_rows, 1);
  self->in_window = g_malloc (n);
  memset (self->in_window, 1, n);
  self->slice_pattern = g_new0 (guint16, n);
  g_array_append_val (self->patterns, none);
  _sps_view_filter_update_patterns (self);
  _sps_view_filter_rebuild_counts (self);

  return self;
}

/**
 * sps_view_filter_get_trace:
 * @self: a #SpsViewFilter
 *
 * Returns: (transfer none): the trace the filter reads
 */
SpsTrace *
sps_view_filter_get_trace (SpsViewFilter *self)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), NULL);

  return self->trace;
}

/**
 * sps_view_filter_reset:
 * @self: a #SpsViewFilter
 *
 * Shows everything again: every process and thread expanded, unbounded
 * window, no minimum duration, no class or rule, focus off without seeds.
 */
void
sps_view_filter_reset (SpsViewFilter *self)
{
  guint np;
  guint nt;

  g_return_if_fail (SPS_IS_VIEW_FILTER (self));

  np = sps_trace_get_processes (self->trace)->n_rows;
  nt = sps_trace_get_threads (self->trace)->n_rows;
  memset (self->process_expansion, SPS_EXPANSION_EXPANDED, MAX (np, 1));
  memset (self->thread_expansion, SPS_EXPANSION_EXPANDED, MAX (nt, 1));
  for (guint p = 0; p < np; p++)
    compute_process_heights (self, p);
  compute_offsets (self);

  self->window_start = SPS_TIME_MIN;
  self->window_end = SPS_TIME_MAX;
  self->min_duration = 0;
  memset (self->in_window, 1, MAX (self->slices->n_rows, 1));

  g_ptr_array_set_size (self->rules, 0);
  g_ptr_array_set_size (self->class_names, 0);
  self->require_mask = 0;
  self->exclude_mask = 0;
  _sps_view_filter_classify (self);

  g_array_set_size (self->seeds, 0);
  self->focus_enabled = FALSE;
  self->focus_depth = 1;
  self->focus_direction = SPS_FOCUS_BOTH;
  self->focus_parent_child = FALSE;
  _sps_view_filter_update_focus (self);

  _sps_view_filter_rebuild_counts (self);
  _sps_view_filter_changed (self);
}

/**
 * sps_view_filter_set_process_expansion:
 * @self: a #SpsViewFilter
 * @process: a process index
 * @expansion: its state
 *
 * Expands, collapses or hides a process. A collapsed process keeps only the
 * first lane of its first thread that has lanes (its representative lane);
 * its other threads, and its own async and counter tracks, take no height.
 * Costs the process's tracks and depths, and one scan of the groups.
 */
void
sps_view_filter_set_process_expansion (SpsViewFilter *self,
                                       guint          process,
                                       SpsExpansion   expansion)
{
  g_return_if_fail (SPS_IS_VIEW_FILTER (self));
  g_return_if_fail (process < sps_trace_get_processes (self->trace)->n_rows);
  g_return_if_fail (expansion <= SPS_EXPANSION_HIDDEN);

  if (self->process_expansion[process] == expansion)
    return;
  self->process_expansion[process] = expansion;
  compute_process_heights (self, process);
  compute_offsets (self);
  update_group_limits (self, self->process_first_group[process], self->process_last_group[process]);
  _sps_view_filter_changed (self);
}

/**
 * sps_view_filter_get_process_expansion:
 * @self: a #SpsViewFilter
 * @process: a process index
 *
 * Returns: the state of @process
 */
SpsExpansion
sps_view_filter_get_process_expansion (SpsViewFilter *self,
                                       guint          process)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), SPS_EXPANSION_EXPANDED);
  g_return_val_if_fail (process < sps_trace_get_processes (self->trace)->n_rows, SPS_EXPANSION_EXPANDED);

  return self->process_expansion[process];
}

/**
 * sps_view_filter_set_thread_expansion:
 * @self: a #SpsViewFilter
 * @thread: a thread index
 * @expansion: its state
 *
 * Expands, collapses (its first lane stays) or hides a thread.
 */
void
sps_view_filter_set_thread_expansion (SpsViewFilter *self,
                                      guint          thread,
                                      SpsExpansion   expansion)
{
  const SpsThreadTable *threads;
  guint32 process;

  g_return_if_fail (SPS_IS_VIEW_FILTER (self));
  threads = sps_trace_get_threads (self->trace);
  g_return_if_fail (thread < threads->n_rows);
  g_return_if_fail (expansion <= SPS_EXPANSION_HIDDEN);

  if (self->thread_expansion[thread] == expansion)
    return;
  self->thread_expansion[thread] = expansion;
  process = threads->process[thread];
  if (self->group_valid[self->thread_group[thread]])
    {
      compute_process_heights (self, process);
      compute_offsets (self);
      update_group_limits (self, self->process_first_group[process], self->process_last_group[process]);
    }
  _sps_view_filter_changed (self);
}

/**
 * sps_view_filter_get_thread_expansion:
 * @self: a #SpsViewFilter
 * @thread: a thread index
 *
 * Returns: the state of @thread
 */
SpsExpansion
sps_view_filter_get_thread_expansion (SpsViewFilter *self,
                                      guint          thread)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), SPS_EXPANSION_EXPANDED);
  g_return_val_if_fail (thread < sps_trace_get_threads (self->trace)->n_rows, SPS_EXPANSION_EXPANDED);

  return self->thread_expansion[thread];
}

/**
 * sps_view_filter_get_n_groups:
 * @self: a #SpsViewFilter
 *
 * The layout is a list of lane groups in display order: group 0 holds the
 * trace-wide tracks, then each process (by sort index, then pid) has a
 * group per thread (by sort index, then tid) and a last group for its own
 * tracks (async lanes, process instants, counters). Threads whose process
 * does not exist have groups at the end that never take height.
 *
 * Returns: how many groups there are
 */
guint
sps_view_filter_get_n_groups (SpsViewFilter *self)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), 0);

  return self->n_groups;
}

/**
 * sps_view_filter_get_group:
 * @self: a #SpsViewFilter
 * @group: a group
 * @process: (out) (optional): its process, %SPS_NO_INDEX for group 0
 * @thread: (out) (optional): its thread, %SPS_NO_INDEX for a process's own
 *   group
 *
 * Returns: %FALSE when the group's thread has no valid process
 */
gboolean
sps_view_filter_get_group (SpsViewFilter *self,
                           guint          group,
                           guint         *process,
                           guint         *thread)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), FALSE);
  g_return_val_if_fail (group < self->n_groups, FALSE);

  if (process != NULL)
    *process = self->group_process[group];
  if (thread != NULL)
    *thread = self->group_thread[group];
  return self->group_valid[group];
}

/**
 * sps_view_filter_get_group_lanes:
 * @self: a #SpsViewFilter
 * @group: a group
 *
 * Returns: the lanes of @group when expanded: one per depth of each slice
 *   track, one per other track
 */
guint
sps_view_filter_get_group_lanes (SpsViewFilter *self,
                                 guint          group)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), 0);
  g_return_val_if_fail (group < self->n_groups, 0);

  return self->group_lanes[group];
}

/**
 * sps_view_filter_get_group_height:
 * @self: a #SpsViewFilter
 * @group: a group
 *
 * Returns: the lanes @group takes in the effective layout
 */
guint
sps_view_filter_get_group_height (SpsViewFilter *self,
                                  guint          group)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), 0);
  g_return_val_if_fail (group < self->n_groups, 0);

  return self->group_height[group];
}

/**
 * sps_view_filter_get_group_offset:
 * @self: a #SpsViewFilter
 * @group: a group, or the number of groups for the total
 *
 * Returns: the first lane of @group: the sum of the heights before it
 */
guint
sps_view_filter_get_group_offset (SpsViewFilter *self,
                                  guint          group)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), 0);
  g_return_val_if_fail (group <= self->n_groups, 0);

  return self->group_offset[group];
}

/**
 * sps_view_filter_get_thread_group:
 * @self: a #SpsViewFilter
 * @thread: a thread index
 *
 * Returns: the group of @thread's lanes
 */
guint
sps_view_filter_get_thread_group (SpsViewFilter *self,
                                  guint          thread)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), SPS_NO_INDEX);
  g_return_val_if_fail (thread < sps_trace_get_threads (self->trace)->n_rows, SPS_NO_INDEX);

  return self->thread_group[thread];
}

/**
 * sps_view_filter_get_process_group:
 * @self: a #SpsViewFilter
 * @process: a process index
 *
 * Returns: the group of @process's own tracks (async lanes, counters,
 *   process instants)
 */
guint
sps_view_filter_get_process_group (SpsViewFilter *self,
                                   guint          process)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), SPS_NO_INDEX);
  g_return_val_if_fail (process < sps_trace_get_processes (self->trace)->n_rows, SPS_NO_INDEX);

  return self->process_group[process];
}

/**
 * sps_view_filter_get_total_height:
 * @self: a #SpsViewFilter
 *
 * Returns: the lanes of the effective layout
 */
guint
sps_view_filter_get_total_height (SpsViewFilter *self)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), 0);

  return self->total_height;
}

/**
 * sps_view_filter_is_track_valid:
 * @self: a #SpsViewFilter
 * @track: a track index
 *
 * Returns: whether @track's thread belongs to @track's process (a track
 *   whose mapping is invalid takes no lane and none of its slices shows)
 */
gboolean
sps_view_filter_is_track_valid (SpsViewFilter *self,
                                guint          track)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), FALSE);
  g_return_val_if_fail (track < self->tracks->n_rows, FALSE);

  return self->track_group[track] != SPS_NO_INDEX;
}

/**
 * sps_view_filter_get_track_lane:
 * @self: a #SpsViewFilter
 * @track: a track index
 *
 * Returns: the lane of @track's first row in the effective layout, or
 *   %SPS_NO_INDEX when none of its lanes is shown
 */
guint
sps_view_filter_get_track_lane (SpsViewFilter *self,
                                guint          track)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), SPS_NO_INDEX);
  g_return_val_if_fail (track < self->tracks->n_rows, SPS_NO_INDEX);

  if (self->track_limit[track] == 0)
    return SPS_NO_INDEX;
  return self->group_offset[self->track_group[track]] + self->track_lane[track];
}

/**
 * sps_view_filter_get_track_lanes_shown:
 * @self: a #SpsViewFilter
 * @track: a track index
 *
 * Returns: how many of @track's lanes (depths, for a slice track) show
 */
guint
sps_view_filter_get_track_lanes_shown (SpsViewFilter *self,
                                       guint          track)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), 0);
  g_return_val_if_fail (track < self->tracks->n_rows, 0);

  return self->track_limit[track];
}

/**
 * sps_view_filter_get_track_lanes:
 * @self: a #SpsViewFilter
 * @track: a track index
 *
 * All the lanes of @track, shown or not: one per depth of a slice track
 * (at least one), one for any other track. A view that lays a thread out
 * whatever its process's state (a pinned thread) uses it.
 *
 * Returns: the number of lanes
 */
guint
sps_view_filter_get_track_lanes (SpsViewFilter *self,
                                 guint          track)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), 0);
  g_return_val_if_fail (track < self->tracks->n_rows, 0);

  return self->track_lanes[track];
}

/**
 * sps_view_filter_get_slice_lane:
 * @self: a #SpsViewFilter
 * @slice: a slice index
 *
 * Where @slice is drawn, or where what stands for it is: its own lane when
 * its depth is shown; the representative lane of its collapsed thread, or
 * of its collapsed process, otherwise. Flows route a hidden endpoint here
 * when it has no visible ancestor.
 *
 * Returns: a lane, or %SPS_NO_INDEX when the slice's thread or process is
 *   hidden or its mapping is invalid
 */
guint
sps_view_filter_get_slice_lane (SpsViewFilter *self,
                                guint          slice)
{
  guint32 t;
  guint32 g;
  guint32 lane;

  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), SPS_NO_INDEX);
  g_return_val_if_fail (slice < self->slices->n_rows, SPS_NO_INDEX);

  t = self->slices->track[slice];
  g = self->track_group[t];
  if (g == SPS_NO_INDEX)
    return SPS_NO_INDEX;

  lane = self->track_lane[t] + self->slices->depth[slice];
  if (self->slices->depth[slice] < self->track_limit[t])
    return self->group_offset[g] + lane;
  if (self->group_height[g] > 0)
    return self->group_offset[g];

  /* A thread of a collapsed process: the process's representative lane */
  if (self->group_process[g] != SPS_NO_INDEX &&
      self->process_expansion[self->group_process[g]] == SPS_EXPANSION_COLLAPSED)
    {
      guint32 p = self->group_process[g];

      for (guint k = self->process_first_group[p]; k < self->process_last_group[p]; k++)
        if (self->group_height[k] > 0)
          return self->group_offset[k];
    }
  return SPS_NO_INDEX;
}

/**
 * sps_view_filter_get_group_tracks:
 * @self: a #SpsViewFilter
 * @group: a group
 * @n_tracks: (out): how many tracks
 *
 * The tracks whose lanes @group stacks, in track order (a view walks the
 * groups and these to lay its rows out in the filter's order).
 *
 * Returns: (array length=n_tracks) (transfer none): track indices
 */
const guint32 *
sps_view_filter_get_group_tracks (SpsViewFilter *self,
                                  guint          group,
                                  guint         *n_tracks)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), NULL);
  g_return_val_if_fail (group < self->n_groups, NULL);
  g_return_val_if_fail (n_tracks != NULL, NULL);

  *n_tracks = self->group_track_start[group + 1] - self->group_track_start[group];
  return self->group_tracks + self->group_track_start[group];
}
