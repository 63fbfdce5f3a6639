/* sps-view-filter-focus.c: linked-span focus, ancestor projection,
 * picking and the compacted results of SpsViewFilter
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-view-filter"

#include "config.h"

#include <string.h>

#include "sps-view-filter-private.h"

/*
 * Focus keeps the reached slices as a byte per slice plus their list, so a
 * new traversal clears only what the last one reached and costs the
 * reached slices and their edges, never the whole table. The edges are the
 * trace's flows (adjacency built once, on first use) and, when asked, the
 * parent/child tree (children built once, on first use).
 */

void
_sps_view_filter_free_focus (SpsViewFilter *self)
{
  g_clear_pointer (&self->reached, g_free);
  g_clear_pointer (&self->flow_out_start, g_free);
  g_clear_pointer (&self->flow_out, g_free);
  g_clear_pointer (&self->flow_in_start, g_free);
  g_clear_pointer (&self->flow_in, g_free);
  g_clear_pointer (&self->child_start, g_free);
  g_clear_pointer (&self->children, g_free);
}

void
_sps_view_filter_recount_focus (SpsViewFilter *self)
{
  guint n = 0;

  g_assert (SPS_IS_VIEW_FILTER (self));

  for (guint i = 0; i < self->reached_list->len; i++)
    n += _sps_view_filter_passes (self, g_array_index (self->reached_list, guint32, i));
  self->focus_visible = n;
}

/* Compressed adjacency: for each node, the values of the pairs keyed on
 * it, in pair order. */
static void
build_csr (guint          n_nodes,
           guint          n_pairs,
           const guint32 *key,
           const guint32 *value,
           guint32      **start_out,
           guint32      **items_out)
{
  guint32 *start = g_new0 (guint32, n_nodes + 1);
  guint32 *items;
  g_autofree guint32 *fill = NULL;

  for (guint i = 0; i < n_pairs; i++)
    if (key[i] < n_nodes && value[i] < n_nodes)
      start[key[i] + 1]++;
  for (guint i = 0; i < n_nodes; i++)
    start[i + 1] += start[i];
  items = g_new (guint32, MAX (start[n_nodes], 1));
  fill = g_memdup2 (start, sizeof (guint32) * (n_nodes + 1));
  for (guint i = 0; i < n_pairs; i++)
    if (key[i] < n_nodes && value[i] < n_nodes)
      items[fill[key[i]]++] = value[i];

  *start_out = start;
  *items_out = items;
}

static void
ensure_edges (SpsViewFilter *self)
{
  const SpsFlowTable *flows = sps_trace_get_flows (self->trace);
  guint n = self->slices->n_rows;

  if (self->flow_out_start == NULL)
    {
      build_csr (n, flows->n_rows, flows->from_slice, flows->to_slice,
                 &self->flow_out_start, &self->flow_out);
      build_csr (n, flows->n_rows, flows->to_slice, flows->from_slice,
                 &self->flow_in_start, &self->flow_in);
    }

  if (self->focus_parent_child && self->child_start == NULL)
    {
      g_autofree guint32 *self_index = g_new (guint32, MAX (n, 1));

      for (guint i = 0; i < n; i++)
        self_index[i] = i;
      build_csr (n, n, self->slices->parent, self_index, &self->child_start, &self->children);
    }
}

static inline void
reach (SpsViewFilter *self,
       GArray        *next,
       guint32        s)
{
  if (self->reached[s])
    return;
  self->reached[s] = TRUE;
  g_array_append_val (self->reached_list, s);
  g_array_append_val (next, s);
}

static void
reach_all (SpsViewFilter *self,
           GArray        *next,
           const guint32 *start,
           const guint32 *items,
           guint32        s)
{
  for (guint32 k = start[s]; k < start[s + 1]; k++)
    reach (self, next, items[k]);
}

/* The reached set from the seeds, depth-limited breadth first. */
void
_sps_view_filter_update_focus (SpsViewFilter *self)
{
  g_autoptr(GArray) frontier = NULL;
  g_autoptr(GArray) next = NULL;
  gboolean in;
  gboolean out;

  g_assert (SPS_IS_VIEW_FILTER (self));

  if (self->reached != NULL)
    for (guint i = 0; i < self->reached_list->len; i++)
      self->reached[g_array_index (self->reached_list, guint32, i)] = FALSE;
  g_array_set_size (self->reached_list, 0);
  self->focus_visible = 0;

  if (!_sps_view_filter_focus_active (self))
    return;

  if (self->reached == NULL)
    self->reached = g_new0 (guint8, MAX (self->slices->n_rows, 1));
  ensure_edges (self);

  in = (self->focus_direction & SPS_FOCUS_INCOMING) != 0;
  out = (self->focus_direction & SPS_FOCUS_OUTGOING) != 0;
  frontier = g_array_new (FALSE, FALSE, sizeof (guint32));
  next = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint i = 0; i < self->seeds->len; i++)
    reach (self, frontier, g_array_index (self->seeds, guint32, i));

  for (guint hop = 0; hop < self->focus_depth && frontier->len > 0; hop++)
    {
      g_array_set_size (next, 0);
      for (guint i = 0; i < frontier->len; i++)
        {
          guint32 s = g_array_index (frontier, guint32, i);

          if (out)
            reach_all (self, next, self->flow_out_start, self->flow_out, s);
          if (in)
            reach_all (self, next, self->flow_in_start, self->flow_in, s);
          if (self->focus_parent_child)
            {
              if (out)
                reach_all (self, next, self->child_start, self->children, s);
              if (in && self->slices->parent[s] != SPS_NO_INDEX)
                reach (self, next, self->slices->parent[s]);
            }
        }
      g_array_set_size (frontier, 0);
      g_array_append_vals (frontier, next->data, next->len);
    }

  _sps_view_filter_recount_focus (self);
}

static void
focus_changed (SpsViewFilter *self)
{
  _sps_view_filter_update_focus (self);
  _sps_view_filter_changed (self);
}

/**
 * sps_view_filter_set_focus_seeds:
 * @self: a #SpsViewFilter
 * @seeds: (array length=n_seeds) (nullable): slice indices
 * @n_seeds: how many
 *
 * Sets the slices focus starts from (canonical slice indices, such as
 * sps_view_filter_pick() returns). Indices beyond the slice table are
 * ignored.
 */
void
sps_view_filter_set_focus_seeds (SpsViewFilter *self,
                                 const guint32 *seeds,
                                 guint          n_seeds)
{
  g_return_if_fail (SPS_IS_VIEW_FILTER (self));
  g_return_if_fail (seeds != NULL || n_seeds == 0);

  g_array_set_size (self->seeds, 0);
  for (guint i = 0; i < n_seeds; i++)
    if (seeds[i] < self->slices->n_rows)
      g_array_append_val (self->seeds, seeds[i]);
  focus_changed (self);
}

/**
 * sps_view_filter_get_focus_seeds:
 * @self: a #SpsViewFilter
 * @n_seeds: (out): how many
 *
 * Returns: (array length=n_seeds) (transfer none): the seed slices
 */
const guint32 *
sps_view_filter_get_focus_seeds (SpsViewFilter *self,
                                 guint         *n_seeds)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), NULL);
  g_return_val_if_fail (n_seeds != NULL, NULL);

  *n_seeds = self->seeds->len;
  return (const guint32 *) self->seeds->data;
}

/**
 * sps_view_filter_set_focus_enabled:
 * @self: a #SpsViewFilter
 * @enabled: whether focus limits what shows
 *
 * With focus on and at least one seed, only slices focus reached can be
 * visible; with no seed, focus hides nothing.
 */
void
sps_view_filter_set_focus_enabled (SpsViewFilter *self,
                                   gboolean       enabled)
{
  g_return_if_fail (SPS_IS_VIEW_FILTER (self));

  enabled = !!enabled;
  if (self->focus_enabled == enabled)
    return;
  self->focus_enabled = enabled;
  focus_changed (self);
}

/**
 * sps_view_filter_get_focus_enabled:
 * @self: a #SpsViewFilter
 *
 * Returns: whether focus is on
 */
gboolean
sps_view_filter_get_focus_enabled (SpsViewFilter *self)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), FALSE);

  return self->focus_enabled;
}

/**
 * sps_view_filter_set_focus_depth:
 * @self: a #SpsViewFilter
 * @depth: hops from the seeds (0: the seeds only), at most
 *   %SPS_VIEW_FILTER_MAX_FOCUS_DEPTH (larger values are clamped)
 *
 * Sets how far focus follows edges.
 */
void
sps_view_filter_set_focus_depth (SpsViewFilter *self,
                                 guint          depth)
{
  g_return_if_fail (SPS_IS_VIEW_FILTER (self));

  depth = MIN (depth, SPS_VIEW_FILTER_MAX_FOCUS_DEPTH);
  if (self->focus_depth == depth)
    return;
  self->focus_depth = depth;
  focus_changed (self);
}

/**
 * sps_view_filter_get_focus_depth:
 * @self: a #SpsViewFilter
 *
 * Returns: the focus hop count
 */
guint
sps_view_filter_get_focus_depth (SpsViewFilter *self)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), 0);

  return self->focus_depth;
}

/**
 * sps_view_filter_set_focus_direction:
 * @self: a #SpsViewFilter
 * @direction: which edges focus follows (default: both)
 *
 * Incoming edges lead to a slice (a flow's source, its parent), outgoing
 * edges lead from it (a flow's target, its children).
 */
void
sps_view_filter_set_focus_direction (SpsViewFilter     *self,
                                     SpsFocusDirection  direction)
{
  g_return_if_fail (SPS_IS_VIEW_FILTER (self));
  g_return_if_fail (direction != 0 && (direction & ~SPS_FOCUS_BOTH) == 0);

  if (self->focus_direction == direction)
    return;
  self->focus_direction = direction;
  focus_changed (self);
}

/**
 * sps_view_filter_get_focus_direction:
 * @self: a #SpsViewFilter
 *
 * Returns: which edges focus follows
 */
SpsFocusDirection
sps_view_filter_get_focus_direction (SpsViewFilter *self)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), SPS_FOCUS_BOTH);

  return self->focus_direction;
}

/**
 * sps_view_filter_set_focus_parent_child:
 * @self: a #SpsViewFilter
 * @follow: whether focus also follows parent/child edges
 *
 * Flows are always followed; with @follow, a hop also goes to the parent
 * (incoming) and the children (outgoing).
 */
void
sps_view_filter_set_focus_parent_child (SpsViewFilter *self,
                                        gboolean       follow)
{
  g_return_if_fail (SPS_IS_VIEW_FILTER (self));

  follow = !!follow;
  if (self->focus_parent_child == follow)
    return;
  self->focus_parent_child = follow;
  focus_changed (self);
}

/**
 * sps_view_filter_get_focus_parent_child:
 * @self: a #SpsViewFilter
 *
 * Returns: whether focus follows parent/child edges too
 */
gboolean
sps_view_filter_get_focus_parent_child (SpsViewFilter *self)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), FALSE);

  return self->focus_parent_child;
}

/**
 * sps_view_filter_is_focus_active:
 * @self: a #SpsViewFilter
 *
 * Returns: whether focus is on and has a seed, so that it limits what shows
 */
gboolean
sps_view_filter_is_focus_active (SpsViewFilter *self)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), FALSE);

  return _sps_view_filter_focus_active (self);
}

/**
 * sps_view_filter_is_slice_reached:
 * @self: a #SpsViewFilter
 * @slice: a slice index
 *
 * Returns: whether active focus reached @slice (%FALSE when focus is not
 *   active)
 */
gboolean
sps_view_filter_is_slice_reached (SpsViewFilter *self,
                                  guint          slice)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), FALSE);
  g_return_val_if_fail (slice < self->slices->n_rows, FALSE);

  return self->reached != NULL && self->reached[slice];
}

/* Ancestor projection */

static guint32
project (SpsViewFilter *self,
         guint32        slice)
{
  for (guint steps = 0; slice != SPS_NO_INDEX && steps <= SPS_VIEW_FILTER_MAX_PROJECTION; steps++)
    {
      if (_sps_view_filter_visible (self, slice))
        return slice;
      slice = self->slices->parent[slice];
    }
  return SPS_NO_INDEX;
}

/**
 * sps_view_filter_project:
 * @self: a #SpsViewFilter
 * @slice: a slice index
 *
 * The nearest visible ancestor of @slice: @slice itself when it is visible.
 * The walk stops after %SPS_VIEW_FILTER_MAX_PROJECTION parents. A flow whose
 * endpoint is hidden is drawn to this slice, or, when there is none, to
 * sps_view_filter_get_slice_lane().
 *
 * Returns: a visible slice, or %SPS_NO_INDEX when no ancestor is visible
 *   within the bound
 */
guint
sps_view_filter_project (SpsViewFilter *self,
                         guint          slice)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), SPS_NO_INDEX);
  g_return_val_if_fail (slice < self->slices->n_rows, SPS_NO_INDEX);

  return project (self, slice);
}

/**
 * sps_view_filter_dup_projected_ancestors:
 * @self: a #SpsViewFilter
 * @n_slices: (out): the number of slices
 *
 * sps_view_filter_project() of every slice, aligned to the slice table.
 *
 * Returns: (transfer full) (array length=n_slices): the projections
 */
guint32 *
sps_view_filter_dup_projected_ancestors (SpsViewFilter *self,
                                         guint         *n_slices)
{
  guint n;
  guint32 *out;

  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), NULL);
  g_return_val_if_fail (n_slices != NULL, NULL);

  n = self->slices->n_rows;
  out = g_new (guint32, MAX (n, 1));
  /* Each slice walks on its own: the walk is bounded, and as short as
   * the nesting in practice */
  for (guint s = 0; s < n; s++)
    out[s] = project (self, s);
  *n_slices = n;
  return out;
}

/* Picking */

typedef struct
{
  SpsViewFilter *self;
  guint16        depth;
  SpsTime        time;
  guint32        best;
  SpsTime        best_distance;
} Pick;

static gboolean
pick_slice (SpsTrace *trace,
            guint     slice,
            gpointer  user_data)
{
  Pick *pick = user_data;
  SpsViewFilter *self = pick->self;
  SpsTime ts = self->slices->ts[slice];
  SpsTime end;
  SpsTime distance;

  if (__builtin_add_overflow (ts, self->slices->dur[slice], &end))
    end = SPS_TIME_MAX;

  if (self->slices->depth[slice] != pick->depth || !_sps_view_filter_visible (self, slice))
    return TRUE;

  if (pick->time < ts)
    distance = ts - pick->time;
  else if (pick->time > end)
    distance = pick->time - end;
  else
    distance = 0;

  /* The nearest; on a tie the first in source order */
  if (distance < pick->best_distance)
    {
      pick->best = slice;
      pick->best_distance = distance;
    }
  return TRUE;
}

/**
 * sps_view_filter_pick:
 * @self: a #SpsViewFilter
 * @lane: a lane of the effective layout
 * @time: a time, ns
 * @tolerance: how far from @time a slice may be and still be hit (ns; one
 *   pixel's worth, typically)
 *
 * Resolves a click against the effective layout and the current
 * visibility: the lane names a group, a track and a depth after collapse,
 * and only visible slices are hit. The answer is the canonical slice index,
 * so it can be a focus seed as it is.
 *
 * Returns: the visible slice at @lane containing @time (or the nearest
 *   within @tolerance), or %SPS_NO_INDEX
 */
guint
sps_view_filter_pick (SpsViewFilter *self,
                      guint          lane,
                      SpsTime        time,
                      SpsTime        tolerance)
{
  const guint32 *group_start;
  const guint32 *group_tracks;
  SpsTime from;
  SpsTime to;
  Pick pick;
  guint lo = 0;
  guint hi;
  guint g;
  guint32 lane_in_group;

  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), SPS_NO_INDEX);
  g_return_val_if_fail (tolerance >= 0, SPS_NO_INDEX);

  if (lane >= self->total_height)
    return SPS_NO_INDEX;

  /* The last group starting at or before the lane holds it (the groups
   * after the one holding it start past it) */
  hi = self->n_groups;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->group_offset[mid] <= lane)
        lo = mid + 1;
      else
        hi = mid;
    }
  g = lo - 1;
  lane_in_group = lane - self->group_offset[g];

  group_start = self->group_track_start;
  group_tracks = self->group_tracks;
  /* The range query is [from, to) with ends excluded: widen by one so
   * that a slice ending exactly @tolerance before @time is seen */
  if (__builtin_sub_overflow (time, tolerance + 1, &from))
    from = SPS_TIME_MIN;
  if (__builtin_add_overflow (time, tolerance + 1, &to))
    to = SPS_TIME_MAX;
  pick.self = self;
  pick.time = time;
  pick.best = SPS_NO_INDEX;
  pick.best_distance = tolerance + 1;

  for (guint32 k = group_start[g]; k < group_start[g + 1]; k++)
    {
      guint32 t = group_tracks[k];

      if (lane_in_group < self->track_lane[t] ||
          lane_in_group >= self->track_lane[t] + self->track_limit[t])
        continue;
      if (!_sps_view_filter_is_slice_track (self->tracks->kind[t]))
        return SPS_NO_INDEX;

      pick.depth = lane_in_group - self->track_lane[t];
      sps_trace_foreach_slice_in_range (self->trace, t,
                                        from, to,
                                        pick_slice, &pick);
      break;
    }

  return pick.best;
}

/* Results */

/**
 * sps_view_filter_is_slice_visible:
 * @self: a #SpsViewFilter
 * @slice: a slice index
 *
 * Returns: whether @slice is visible; a few array reads
 */
gboolean
sps_view_filter_is_slice_visible (SpsViewFilter *self,
                                  guint          slice)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), FALSE);
  g_return_val_if_fail (slice < self->slices->n_rows, FALSE);

  return _sps_view_filter_visible (self, slice);
}

/**
 * sps_view_filter_is_slice_matched:
 * @self: a #SpsViewFilter
 * @slice: a slice index
 *
 * Whether @slice passes every rule but collapse: the window, the minimum
 * duration, the class masks, focus, and neither its thread nor its
 * process is hidden. A collapsed thread or process is drawn by its
 * representative lane, yet its slices are still there for a search, a
 * flame graph or statistics: those ask this, the timeline asks
 * sps_view_filter_is_slice_visible().
 *
 * Returns: whether @slice matches the filter; a few array reads
 */
gboolean
sps_view_filter_is_slice_matched (SpsViewFilter *self,
                                  guint          slice)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), FALSE);
  g_return_val_if_fail (slice < self->slices->n_rows, FALSE);

  return _sps_view_filter_matches (self, slice);
}

/**
 * sps_view_filter_slice_passes_rules:
 * @self: a #SpsViewFilter
 * @slice: a slice index
 *
 * Whether @slice passes the rules on slices themselves — the window, the
 * minimum duration, the class masks and focus — whatever its thread's
 * and process's expansion. A view that shows a thread on its own, as the
 * timeline shows a pinned thread of a hidden or collapsed process, asks
 * this for that thread's slices. A slice of a track with an invalid
 * mapping passes nothing.
 *
 * Returns: whether @slice passes; a few array reads
 */
gboolean
sps_view_filter_slice_passes_rules (SpsViewFilter *self,
                                    guint          slice)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), FALSE);
  g_return_val_if_fail (slice < self->slices->n_rows, FALSE);

  if (self->track_group[self->slices->track[slice]] == SPS_NO_INDEX)
    return FALSE;
  return _sps_view_filter_passes_rules (self, slice);
}

/**
 * sps_view_filter_get_visible_count:
 * @self: a #SpsViewFilter
 *
 * Returns: the exact number of visible slices, kept up to date by every
 *   change without a scan
 */
guint
sps_view_filter_get_visible_count (SpsViewFilter *self)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), 0);

  if (_sps_view_filter_focus_active (self))
    return self->focus_visible;
  return (guint) self->visible_total;
}

/**
 * sps_view_filter_get_track_visible_count:
 * @self: a #SpsViewFilter
 * @track: a track index
 *
 * Returns: the visible slices of @track (0 for a track of another kind)
 */
guint
sps_view_filter_get_track_visible_count (SpsViewFilter *self,
                                         guint          track)
{
  guint n = 0;

  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), 0);
  g_return_val_if_fail (track < self->tracks->n_rows, 0);

  if (!_sps_view_filter_focus_active (self))
    return self->track_visible[track];

  for (guint i = 0; i < self->reached_list->len; i++)
    {
      guint32 s = g_array_index (self->reached_list, guint32, i);

      n += self->slices->track[s] == track && _sps_view_filter_passes (self, s);
    }
  return n;
}

/* One byte per slice: visible, or @matched (collapse aside). With focus
 * only the reached slices are read; else the tracks that may show. */
static GBytes *
build_mask (SpsViewFilter *self,
            gboolean       matched)
{
  guint n = self->slices->n_rows;
  guint8 *mask = g_malloc0 (MAX (n, 1));

  if (_sps_view_filter_focus_active (self))
    {
      for (guint i = 0; i < self->reached_list->len; i++)
        {
          guint32 s = g_array_index (self->reached_list, guint32, i);

          mask[s] = matched ? _sps_view_filter_matches (self, s) : _sps_view_filter_passes (self, s);
        }
      return g_bytes_new_take (mask, MAX (n, 1));
    }

  for (guint t = 0; t < self->tracks->n_rows; t++)
    {
      guint32 first = self->tracks->first_row[t];
      guint32 end = first + self->tracks->n_rows_in_track[t];

      if (!_sps_view_filter_is_slice_track (self->tracks->kind[t]) ||
          (matched ? self->track_group[t] == SPS_NO_INDEX : self->track_visible[t] == 0))
        continue;
      for (guint32 s = first; s < end; s++)
        mask[s] = matched ? _sps_view_filter_matches (self, s) : _sps_view_filter_passes (self, s);
    }
  return g_bytes_new_take (mask, MAX (n, 1));
}

/**
 * sps_view_filter_dup_mask:
 * @self: a #SpsViewFilter
 *
 * One byte per row of the slice table, 1 for a visible slice, 0 otherwise
 * (what sps_sql_engine_set_slice_mask() and sps_search_run_async() take).
 * Built on the first call after a change, in one pass over the visible
 * tracks, and shared until the next change.
 *
 * Returns: (transfer full): the mask
 */
GBytes *
sps_view_filter_dup_mask (SpsViewFilter *self)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), NULL);

  if (self->mask == NULL)
    self->mask = build_mask (self, FALSE);

  return g_bytes_ref (self->mask);
}

/**
 * sps_view_filter_dup_matched_mask:
 * @self: a #SpsViewFilter
 *
 * sps_view_filter_dup_mask() with every collapsed process and thread
 * taken as expanded: one byte per slice, 1 where
 * sps_view_filter_is_slice_matched(). Built on the first call after a
 * change and shared until the next one.
 *
 * Returns: (transfer full): the mask
 */
GBytes *
sps_view_filter_dup_matched_mask (SpsViewFilter *self)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), NULL);

  if (self->matched_mask == NULL)
    self->matched_mask = build_mask (self, TRUE);

  return g_bytes_ref (self->matched_mask);
}

/**
 * sps_view_filter_dup_visible_slices:
 * @self: a #SpsViewFilter
 * @n_visible: (out): the number of visible slices
 *
 * The visible slices compacted in source order (increasing slice index),
 * exactly sps_view_filter_get_visible_count() of them.
 *
 * Returns: (transfer full) (array length=n_visible): the slice indices
 */
guint32 *
sps_view_filter_dup_visible_slices (SpsViewFilter *self,
                                    guint         *n_visible)
{
  g_autoptr(GBytes) mask = NULL;
  const guint8 *m;
  guint32 *out;
  guint n;
  guint k = 0;

  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), NULL);
  g_return_val_if_fail (n_visible != NULL, NULL);

  n = sps_view_filter_get_visible_count (self);
  out = g_new (guint32, MAX (n, 1));
  mask = sps_view_filter_dup_mask (self);
  m = g_bytes_get_data (mask, NULL);
  for (guint s = 0; s < self->slices->n_rows && k < n; s++)
    if (m[s])
      out[k++] = s;
  g_assert (k == n);

  *n_visible = n;
  return out;
}
