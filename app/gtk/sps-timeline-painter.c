/* sps-timeline-painter.c: which painter draws a row, and what it makes
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-timeline"

#include "config.h"

#include "sps-timeline-private.h"

void
_sps_timeline_add_translated (GPtrArray     *nodes,
                              GskRenderNode *node,
                              float          x,
                              float          y)
{
  GskTransform *transform = gsk_transform_translate (NULL, &GRAPHENE_POINT_INIT (x, y));

  /* No offset is no transform at all (NULL) */
  if (transform == NULL)
    {
      g_ptr_array_add (nodes, gsk_render_node_ref (node));
      return;
    }

  g_ptr_array_add (nodes, gsk_transform_node_new (node, transform));
  gsk_transform_unref (transform);
}

/* One node of @nodes, or a container of them; empties @nodes. */
GskRenderNode *
_sps_timeline_nodes_to_node (GPtrArray *nodes)
{
  GskRenderNode *node = NULL;

  if (nodes->len == 1)
    node = gsk_render_node_ref (g_ptr_array_index (nodes, 0));
  else if (nodes->len > 1)
    node = gsk_container_node_new ((GskRenderNode **) nodes->pdata, nodes->len);

  g_ptr_array_set_size (nodes, 0);

  return node;
}

void
_sps_timeline_window_area (const SpsTimelineGeometry *g,
                           SpsTimelineArea           *a)
{
  a->width = g->track_width;
  a->spots = NULL;
  a->base = g->tiled ? g->origin : g->start;
  a->base_px = g->tiled ? (double) g->origin_px : 0.0;
}

/* The painter of @row, or NULL for a row that shows nothing in the
 * tracks (a process's header: a collapsed process's representative lane
 * is a row of its own, drawn by its track's painter) */
const SpsTimelinePainter *
_sps_timeline_painter_for_row (const SpsTimelineRow *row)
{
  switch ((SpsTimelineRowKind) row->kind)
    {
    case SPS_TIMELINE_ROW_SLICES:
      return &_sps_timeline_slice_painter;
    case SPS_TIMELINE_ROW_COUNTER:
      return &_sps_timeline_counter_painter;
    case SPS_TIMELINE_ROW_INSTANTS:
      return &_sps_timeline_instant_painter;
    case SPS_TIMELINE_ROW_SAMPLES:
      return &_sps_timeline_sample_painter;
    case SPS_TIMELINE_ROW_STACK:
      return &_sps_timeline_stack_painter;
    case SPS_TIMELINE_ROW_PROCESS:
    default:
      return NULL;
    }
}

void
_sps_timeline_paint_row (SpsTimeline               *self,
                         const SpsTimelineGeometry *g,
                         const SpsTimelineArea     *a,
                         const SpsTimelineRow      *row,
                         SpsTimelinePaint          *paint)
{
  const SpsTimelinePainter *painter = _sps_timeline_painter_for_row (row);

  memset (paint, 0, sizeof *paint);

  if (painter != NULL && painter->paint != NULL)
    painter->paint (self, g, a, row, paint);
}

/**
 * _sps_timeline_painter_hit_test:
 * @painter: (nullable): the painter of @row
 * @source: what the timeline draws
 * @g: the frame's geometry
 * @row: a row drawn by @painter
 * @x: widget coordinates
 * @y: widget coordinates
 *
 * Returns: the item of @painter's table under (@x, @y), or %SPS_NO_INDEX
 *   (always, for a painter without hit test)
 */
guint
_sps_timeline_painter_hit_test (const SpsTimelinePainter  *painter,
                                const SpsTimelineSource   *source,
                                const SpsTimelineGeometry *g,
                                const SpsTimelineRow      *row,
                                double                     x,
                                double                     y)
{
  if (painter == NULL || painter->hit_test == NULL)
    return SPS_NO_INDEX;

  return painter->hit_test (source, g, row, x, y);
}

/* The tooltip's markup at (@x, @y) in @row: of the item under the
 * pointer, when the painter hit tests; NULL for none */
char *
_sps_timeline_painter_tooltip (const SpsTimelinePainter  *painter,
                               const SpsTimelineSource   *source,
                               const SpsTimelineGeometry *g,
                               const SpsTimelineRow      *row,
                               double                     x,
                               double                     y)
{
  guint item = SPS_NO_INDEX;

  if (painter == NULL || painter->tooltip == NULL)
    return NULL;

  if (painter->hit_test != NULL &&
      (item = painter->hit_test (source, g, row, x, y)) == SPS_NO_INDEX)
    return NULL;

  return painter->tooltip (source, g, row, item, x);
}

/* Appends the paint's canvas, then what is on top of it, to @nodes. */
void
_sps_timeline_paint_to_nodes (SpsTimeline      *self,
                              SpsTimelinePaint *paint,
                              int               width,
                              GPtrArray        *nodes)
{
  GPtrArray *overlay = self->overlay_nodes;

  if (paint->drawn)
    g_ptr_array_add (nodes, _sps_timeline_canvas_free_to_node (&paint->canvas,
                                                 &GRAPHENE_RECT_INIT (0, paint->y, width, paint->height)));
  else
    _sps_timeline_canvas_clear (&paint->canvas);

  for (guint i = 0; i < overlay->len; i++)
    g_ptr_array_add (nodes, g_ptr_array_index (overlay, i));
  /* The nodes moved to @nodes, with their references. */
  g_ptr_array_set_free_func (overlay, NULL);
  g_ptr_array_set_size (overlay, 0);
  g_ptr_array_set_free_func (overlay, (GDestroyNotify) gsk_render_node_unref);
}

