/* sps-timeline-flows.c: flow arrows between slices
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-timeline"

#include "config.h"

#include <math.h>
#include <string.h>

#include "sps-timeline-private.h"

/* Above this many flows in the window only the selected slice's are
 * drawn: thousands of curves would cost more than all the slices and
 * show nothing but a tangle. */
#define MAX_FLOWS            1000
/* How far a flow's curve leaves its ends horizontally, at least, px: a
 * curve bulges past its ends by less than that. */
#define FLOW_MIN_BEND        24.0
/* Flows ahead whose slices are asked for while building the index */
#define PREFETCH_DISTANCE    16

void
_sps_timeline_invalidate_flow_cache (SpsTimeline *self)
{
  g_clear_pointer (&self->flow_cache.node, gsk_render_node_unref);
  self->flow_cache.valid = FALSE;
}

/* Sorts @times ascending, stably, moving @rows (may be NULL) with them:
 * an LSD radix sort, 11 bits a pass over the bits in which the times
 * differ. qsort() of the 2.7 M flows of a 10 GB trace was most of what
 * the summaries built ahead cost. */
#define RADIX_BITS 11
#define RADIX_SIZE (1u << RADIX_BITS)

static void
sort_times (SpsTime *times,
            guint32 *rows,
            gsize    n)
{
  g_autofree SpsTime *time_buf = NULL;
  g_autofree guint32 *row_buf = NULL;
  g_autofree guint32 *counts = NULL;
  SpsTime *src_t = times, *dst_t;
  guint32 *src_r = rows, *dst_r = NULL;
  SpsTime lo = SPS_TIME_MAX;
  guint64 span = 0;
  guint n_passes = 0;

  for (gsize i = 0; i < n; i++)
    lo = MIN (lo, times[i]);
  for (gsize i = 0; i < n; i++)
    span |= (guint64) times[i] - (guint64) lo;
  while (n_passes * RADIX_BITS < 64 && (span >> (n_passes * RADIX_BITS)) != 0)
    n_passes++;
  if (n_passes == 0)
    return;

  dst_t = time_buf = g_new (SpsTime, n);
  if (rows != NULL)
    dst_r = row_buf = g_new (guint32, n);
  counts = g_new0 (guint32, (gsize) n_passes * RADIX_SIZE);

  for (gsize i = 0; i < n; i++)
    {
      guint64 key = (guint64) times[i] - (guint64) lo;

      for (guint p = 0; p < n_passes; p++)
        counts[p * RADIX_SIZE + ((key >> (p * RADIX_BITS)) & (RADIX_SIZE - 1))]++;
    }

  for (guint p = 0; p < n_passes; p++)
    {
      guint32 *slot = counts + p * RADIX_SIZE;
      guint32 sum = 0;
      gpointer swap;

      for (guint d = 0; d < RADIX_SIZE; d++)
        {
          guint32 count = slot[d];

          slot[d] = sum;
          sum += count;
        }
      for (gsize i = 0; i < n; i++)
        {
          guint32 at = slot[(((guint64) src_t[i] - (guint64) lo) >> (p * RADIX_BITS)) & (RADIX_SIZE - 1)]++;

          dst_t[at] = src_t[i];
          if (rows != NULL)
            dst_r[at] = src_r[i];
        }
      swap = src_t, src_t = dst_t, dst_t = swap;
      swap = src_r, src_r = dst_r, dst_r = swap;
    }

  /* An odd number of passes ends in the buffers */
  if (src_t != times)
    {
      memcpy (times, src_t, n * sizeof *times);
      if (rows != NULL)
        memcpy (rows, src_r, n * sizeof *rows);
    }
}

static void
flow_span (SpsTrace *trace,
           guint     flow,
           SpsTime  *from,
           SpsTime  *to)
{
  const SpsFlowTable *flows = sps_trace_get_flows (trace);
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  guint32 a = flows->from_slice[flow];
  guint32 b = flows->to_slice[flow];

  /* The table keeps the slices a flow binds, not its own times. The
   * arrow reaches the start of its target; it leaves its source at that
   * same time when the source still runs then (a long task that posts
   * work goes on after it), else at the source's end (or start). */
  *to = slices->ts[b];
  *from = CLAMP (*to, slices->ts[a], slices->ts[a] + slices->dur[a]);
}

/* Builds @index for @trace: reads only the trace, so that a large
 * trace's is built on a worker thread with the summaries (sorting 2.7 M
 * flows took seconds of the first frame) */
void
_sps_timeline_flow_index_build (SpsTrace             *trace,
                                SpsTimelineFlowIndex *index)
{
  const SpsFlowTable *flows = sps_trace_get_flows (trace);
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  g_autofree SpsTimelineFlowKey *keys = NULL;
  g_autofree SpsTime *tmin = NULL;
  g_autofree guint32 *order = NULL;
  guint n = 0;

  g_assert (SPS_IS_TRACE (trace));
  g_assert (index != NULL && index->by_min == NULL);

  keys = g_new (SpsTimelineFlowKey, MAX (flows->n_rows, 1));
  tmin = g_new (SpsTime, MAX (flows->n_rows, 1));
  order = g_new (guint32, MAX (flows->n_rows, 1));
  index->max_sorted = g_new (SpsTime, MAX (flows->n_rows, 1));

  for (guint i = 0; i < flows->n_rows; i++)
    {
      SpsTime from, to;

      /* A flow's slices are anywhere in the table: asked for ahead, the
       * three reads of each miss the cache together instead of in turn */
      if (i + PREFETCH_DISTANCE < flows->n_rows)
        {
          guint32 a = MIN (flows->from_slice[i + PREFETCH_DISTANCE], slices->n_rows - 1);
          guint32 b = MIN (flows->to_slice[i + PREFETCH_DISTANCE], slices->n_rows - 1);

          __builtin_prefetch (&slices->ts[a]);
          __builtin_prefetch (&slices->dur[a]);
          __builtin_prefetch (&slices->ts[b]);
        }

      if (flows->from_slice[i] >= slices->n_rows || flows->to_slice[i] >= slices->n_rows)
        continue;

      flow_span (trace, i, &from, &to);
      keys[n].tmin = tmin[n] = MIN (from, to);
      keys[n].tmax = index->max_sorted[n] = MAX (from, to);
      keys[n].flow = i;
      order[n] = n;
      n++;
    }

  index->n = n;
  /* Stable, and the keys are in flow order: equal times stay in it */
  sort_times (tmin, order, n);
  sort_times (index->max_sorted, NULL, n);
  index->by_min = g_new (SpsTimelineFlowKey, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    index->by_min[i] = keys[order[i]];

  index->running_max = g_new (SpsTime, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    index->running_max[i] = MAX (i > 0 ? index->running_max[i - 1] : SPS_TIME_MIN, index->by_min[i].tmax);
}

void
_sps_timeline_flow_index_clear (SpsTimelineFlowIndex *index)
{
  g_clear_pointer (&index->by_min, g_free);
  g_clear_pointer (&index->max_sorted, g_free);
  g_clear_pointer (&index->running_max, g_free);
  index->n = 0;
}

static void
ensure_flow_index (SpsTimeline *self)
{
  if (self->flow_index.by_min == NULL)
    _sps_timeline_flow_index_build (self->trace, &self->flow_index);
}

/* The first flow (in order of earlier end) that may reach @start. */
static guint
first_flow_reaching (SpsTimeline *self,
                     SpsTime      start)
{
  guint lo = 0;
  guint hi = self->flow_index.n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->flow_index.running_max[mid] < start)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

/* The flows of a slice, by source and by target: flow indices sorted by
 * that end, built once per trace (which never changes) and kept on the
 * widget with the trace. */
typedef struct
{
  const guint32 *key;
  guint32       *by_from;
  guint32       *by_to;
  guint          n;
} FlowEnds;

static void
flow_ends_free (gpointer data)
{
  FlowEnds *ends = data;

  g_free (ends->by_from);
  g_free (ends->by_to);
  g_free (ends);
}

/* The flow indices in order of @key (a slice of each flow), ties in flow
 * order: where a slice's flows are, found by a binary search */
static guint32 *
flows_by_key (const guint32 *key,
              guint          n)
{
  guint32 *sorted = g_new (guint32, MAX (n, 1));
  g_autofree SpsTime *times = g_new (SpsTime, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    {
      sorted[i] = i;
      times[i] = key[i];
    }
  sort_times (times, sorted, n);
  return sorted;
}

static FlowEnds *
ensure_flow_ends (SpsTimeline *self)
{
  const SpsFlowTable *flows = sps_trace_get_flows (self->trace);
  FlowEnds *ends = g_object_get_data (G_OBJECT (self), "sps-flow-ends");

  if (ends != NULL && ends->n == flows->n_rows)
    return ends;

  ends = g_new0 (FlowEnds, 1);
  ends->n = flows->n_rows;
  ends->by_from = flows_by_key (flows->from_slice, ends->n);
  ends->by_to = flows_by_key (flows->to_slice, ends->n);
  g_object_set_data_full (G_OBJECT (self), "sps-flow-ends", ends, flow_ends_free);
  return ends;
}

/* The first position in @sorted (flow indices sorted by @key) whose key
 * is @slice or more */
static guint
lower_bound (const guint32 *sorted,
             guint          n,
             const guint32 *key,
             guint32        slice)
{
  guint lo = 0;
  guint hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (key[sorted[mid]] < slice)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The flows of a chain through @selected, as Perfetto draws a selected
 * slice's flows: the flows into it and, from their sources, the flows
 * into those, and so on (incoming), and likewise out of it (outgoing).
 * Each slice is entered once per direction, so a cycle ends; a chain
 * stops after MAX_CHAIN flows. */
#define MAX_CHAIN 10000

static void
follow_chain (SpsTimeline *self,
              guint        selected,
              gboolean     outgoing,
              GHashTable  *flows_seen)
{
  const SpsFlowTable *flows = sps_trace_get_flows (self->trace);
  FlowEnds *ends = ensure_flow_ends (self);
  const guint32 *sorted = outgoing ? ends->by_from : ends->by_to;
  const guint32 *key = outgoing ? flows->from_slice : flows->to_slice;
  const guint32 *other = outgoing ? flows->to_slice : flows->from_slice;
  g_autoptr(GHashTable) slices_seen = g_hash_table_new (NULL, NULL);
  g_autoptr(GArray) queue = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 first = selected;

  g_array_append_val (queue, first);
  g_hash_table_add (slices_seen, GUINT_TO_POINTER (selected));

  for (guint q = 0; q < queue->len && self->selected_flows->len < MAX_CHAIN; q++)
    {
      guint32 slice = g_array_index (queue, guint32, q);

      for (guint k = lower_bound (sorted, ends->n, key, slice);
           k < ends->n && key[sorted[k]] == slice && self->selected_flows->len < MAX_CHAIN;
           k++)
        {
          guint i = sorted[k];
          guint32 there = other[i];

          if (g_hash_table_add (flows_seen, GUINT_TO_POINTER (i)))
            g_array_append_val (self->selected_flows, i);
          if (g_hash_table_add (slices_seen, GUINT_TO_POINTER (there)))
            g_array_append_val (queue, there);
        }
    }
}

void
_sps_timeline_update_selected_flows (SpsTimeline *self)
{
  g_autoptr(GHashTable) flows_seen = NULL;
  guint selected;

  g_array_set_size (self->selected_flows, 0);
  _sps_timeline_invalidate_flow_cache (self);

  if (self->session == NULL)
    return;

  selected = sps_session_get_selected_slice (self->session);
  if (selected == SPS_NO_INDEX)
    return;

  flows_seen = g_hash_table_new (NULL, NULL);
  follow_chain (self, selected, FALSE, flows_seen);
  follow_chain (self, selected, TRUE, flows_seen);
}

/* Where a flow ends on screen: the middle of the row of the slice, or of
 * its nearest visible ancestor when the filter hides it (a collapsed
 * thread's deeper lanes, a short or excluded slice), or of the lane that
 * stands for it (a collapsed thread's or process's representative lane)
 * when no ancestor shows: an end is never dropped unless its thread or
 * process is hidden (flow_path() leaves out a flow whose two ends are
 * both filtered out). A pinned thread's slice is drawn in its own row
 * whatever its process's state, so that row comes first. An end whose
 * row is out of its area (a scrolled row under the pinned band, a pinned
 * one scrolled out of the band) is held at the area's edge, pointing
 * the way to it. */
static gboolean
flow_point_y (SpsTimeline               *self,
              const SpsTimelineGeometry *g,
              guint                      slice,
              double                    *y)
{
  SpsViewFilter *filter = _sps_timeline_layout_get_filter (self->layout);
  guint index = _sps_timeline_layout_find_slice_row (self->layout, slice);
  const SpsTimelineRow *row;
  int top, bottom;

  if (index != SPS_NO_INDEX &&
      !_sps_timeline_row_shows_slice (self->session, _sps_timeline_layout_get_row (self->layout, index), slice))
    index = SPS_NO_INDEX;
  if (index == SPS_NO_INDEX)
    {
      guint shown = sps_view_filter_project (filter, slice);

      if (shown != SPS_NO_INDEX)
        index = _sps_timeline_layout_find_slice_row (self->layout, shown);
    }
  if (index == SPS_NO_INDEX)
    index = _sps_timeline_layout_find_lane_row (self->layout, sps_view_filter_get_slice_lane (filter, slice));
  if (index == SPS_NO_INDEX)
    return FALSE;

  row = _sps_timeline_layout_get_row (self->layout, index);
  _sps_timeline_row_bounds (g, row, &top, &bottom);
  *y = _sps_timeline_row_top (g, row) + row->height / 2.0;
  if (*y < top)
    *y = top;
  else if (_sps_timeline_row_pinned (g, row) && *y > bottom)
    *y = bottom;

  return TRUE;
}

/* Adds the curve of @flow to the path of @cr, or its arrow head (which
 * points right, into the slice it reaches) when @head is set: curves are
 * stroked and heads filled all at once, not one by one. */
static void
flow_path (SpsTimeline               *self,
           cairo_t                   *cr,
           const SpsTimelineGeometry *g,
           guint                      flow,
           gboolean                   head)
{
  const SpsFlowTable *flows = sps_trace_get_flows (self->trace);
  SpsTime from, to;
  double x0, y0, x1, y1, dx;

  /* Both ends filtered out (too short, excluded, out of focus; folding
   * filters nothing): the flow links nothing shown */
  if (!sps_session_is_slice_visible (self->session, flows->from_slice[flow]) &&
      !sps_session_is_slice_visible (self->session, flows->to_slice[flow]))
    return;

  flow_span (self->trace, flow, &from, &to);
  if (!flow_point_y (self, g, flows->from_slice[flow], &y0) ||
      !flow_point_y (self, g, flows->to_slice[flow], &y1))
    return;

  x0 = _sps_timeline_time_to_x (g, from);
  x1 = _sps_timeline_time_to_x (g, to);
  /* Keep far ends finite for cairo. */
  x0 = CLAMP (x0, -1e6, 1e6);
  x1 = CLAMP (x1, -1e6, 1e6);
  dx = MAX (fabs (x1 - x0) / 2, FLOW_MIN_BEND);

  if (head)
    {
      cairo_move_to (cr, x1, y1);
      cairo_line_to (cr, x1 - 6, y1 - 3.5);
      cairo_line_to (cr, x1 - 6, y1 + 3.5);
      cairo_close_path (cr);
    }
  else
    {
      cairo_move_to (cr, x0, y0);
      cairo_curve_to (cr, x0 + dx, y0, x1 - dx, y1, x1, y1);
    }
}

/* Draws the flows that reach the window of @g, or the selected ones when
 * @selected is set. */
static void
draw_flow_set (SpsTimeline               *self,
               cairo_t                   *cr,
               const SpsTimelineGeometry *g,
               gboolean                   selected)
{
  for (int head = 0; head < 2; head++)
    {
      if (selected)
        {
          for (guint i = 0; i < self->selected_flows->len; i++)
            flow_path (self, cr, g, g_array_index (self->selected_flows, guint, i), head);
        }
      else
        {
          /* With the curves of flows that end just outside */
          SpsTime margin = _sps_time_offset (0, ceil (FLOW_MIN_BEND * g->ns_per_px));
          SpsTime start = _sps_time_sub (g->start, margin);
          SpsTime end = _sps_time_add (g->end, margin);

          for (guint i = first_flow_reaching (self, start);
               i < self->flow_index.n && self->flow_index.by_min[i].tmin < end;
               i++)
            if (self->flow_index.by_min[i].tmax >= start)
              flow_path (self, cr, g, self->flow_index.by_min[i].flow, head);
        }

      if (head)
        cairo_fill (cr);
      else
        cairo_stroke (cr);
    }
}

void
_sps_timeline_draw_flows (SpsTimeline               *self,
                          GtkSnapshot               *snapshot,
                          const SpsTimelineGeometry *g)
{
  graphene_rect_t area = GRAPHENE_RECT_INIT (g->gutter, g->ruler_height,
                                             g->track_width, MAX (g->height - g->ruler_height, 0));
  gboolean show_all;
  guint lo = 0, hi, n_before, n_in_window = 0;
  SpsTimelineFlowCache *cache;
  cairo_t *cr;

  if (area.size.height <= 0)
    return;

  show_all = sps_session_get_show_flows (self->session) && sps_trace_get_flows (self->trace)->n_rows > 0;
  if (show_all)
    {
      ensure_flow_index (self);

      /* Flows whose earlier end is before the window's end, minus those
       * whose later end is before its start (those come first). */
      hi = self->flow_index.n;
      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;

          if (self->flow_index.by_min[mid].tmin < g->end)
            lo = mid + 1;
          else
            hi = mid;
        }
      n_in_window = lo;

      lo = 0;
      hi = self->flow_index.n;
      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;

          if (self->flow_index.max_sorted[mid] < g->start)
            lo = mid + 1;
          else
            hi = mid;
        }
      n_before = lo;
      n_in_window -= MIN (n_before, n_in_window);

      if (n_in_window > MAX_FLOWS)
        show_all = FALSE;
    }

  show_all = show_all && n_in_window > 0;
  if (!show_all && self->selected_flows->len == 0)
    return;

  cache = &self->flow_cache;
  if (!cache->valid || cache->show_all != show_all || cache->ns_per_px != g->ns_per_px ||
      cache->scroll != g->scroll || cache->pinned_scroll != g->pinned_scroll || cache->band != g->band ||
      cache->width != g->track_width || cache->height != g->height ||
      g->start < cache->start || g->end > cache->end)
    {
      /* Half a window more each side, for the pan frames to come; not
       * on the first frame at a new scale: zoom frames come in series. */
      guint64 margin = cache->valid && cache->ns_per_px == g->ns_per_px ? _sps_time_span (g->start, g->end) / 2 : 0;
      SpsTimelineGeometry wide = *g;
      g_autoptr(GtkSnapshot) flows = gtk_snapshot_new ();

      wide.start = _sps_time_sub_span (g->start, margin);
      wide.end = _sps_time_add_span (g->end, margin);
      wide.gutter = 0;

      cr = gtk_snapshot_append_cairo (flows, &GRAPHENE_RECT_INIT (0, area.origin.y,
                                                                  (float) ((double) _sps_time_span (wide.start, wide.end) / g->ns_per_px),
                                                                  area.size.height));
      cairo_set_line_width (cr, 1.2);
      gdk_cairo_set_source_rgba (cr, &self->style.flow);

      if (show_all)
        draw_flow_set (self, cr, &wide, FALSE);

      cairo_set_line_width (cr, 2.0);
      gdk_cairo_set_source_rgba (cr, &self->style.accent);
      draw_flow_set (self, cr, &wide, TRUE);
      cairo_destroy (cr);

      g_clear_pointer (&cache->node, gsk_render_node_unref);
      cache->node = gtk_snapshot_free_to_node (g_steal_pointer (&flows));
      cache->valid = TRUE;
      cache->start = wide.start;
      cache->end = wide.end;
      cache->ns_per_px = g->ns_per_px;
      cache->scroll = g->scroll;
      cache->pinned_scroll = g->pinned_scroll;
      cache->band = g->band;
      cache->width = g->track_width;
      cache->height = g->height;
      cache->show_all = show_all;
    }

  if (cache->node == NULL)
    return;

  gtk_snapshot_push_clip (snapshot, &area);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float) _sps_timeline_time_to_x (g, cache->start), 0));
  gtk_snapshot_append_node (snapshot, cache->node);
  gtk_snapshot_restore (snapshot);
  gtk_snapshot_pop (snapshot);
}

