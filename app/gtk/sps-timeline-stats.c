/* sps-timeline-stats.c: what the timeline measures of its frames
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The diagnostics panel reads these numbers. While it is closed the
 * timeline only counts (frames, items, tiles: additions it makes anyway
 * in its loops); the clock reads of the frame's split and the walk that
 * counts the frame's render nodes happen only while collect_stats is on.
 */

#define G_LOG_DOMAIN "sps-timeline"

#include "config.h"

#include <spanscope-core.h>
#include "sps-timeline-private.h"

/* Nodes in the tree under @node, @node included (0 for none); also the
 * frame benchmark's count */
guint
_sps_render_node_count (GskRenderNode *node)
{
  guint n = 1;

  if (node == NULL)
    return 0;

  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        n += _sps_render_node_count (gsk_container_node_get_child (node, i));
      break;

    case GSK_TRANSFORM_NODE:
      n += _sps_render_node_count (gsk_transform_node_get_child (node));
      break;

    case GSK_CLIP_NODE:
      n += _sps_render_node_count (gsk_clip_node_get_child (node));
      break;

    case GSK_ROUNDED_CLIP_NODE:
      n += _sps_render_node_count (gsk_rounded_clip_node_get_child (node));
      break;

    case GSK_OPACITY_NODE:
      n += _sps_render_node_count (gsk_opacity_node_get_child (node));
      break;

    case GSK_REPEAT_NODE:
      n += _sps_render_node_count (gsk_repeat_node_get_child (node));
      break;

    case GSK_DEBUG_NODE:
      n += _sps_render_node_count (gsk_debug_node_get_child (node));
      break;

    default:
      /* Leaves, and kinds the timeline does not make */
      break;
    }

  return n;
}

/* A frame drawn while the diagnostics panel is open: into a snapshot of
 * its own, so that its nodes can be counted before they are handed on */
void
_sps_timeline_snapshot_counted (SpsTimeline *self,
                                GtkSnapshot *snapshot,
                                int          width,
                                int          height)
{
  GtkSnapshot *own = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;

  g_assert (SPS_IS_TIMELINE (self));

  _sps_timeline_draw (self, own, width, height);
  node = gtk_snapshot_free_to_node (own);
  self->stats.render_nodes = _sps_render_node_count (node);
  if (node != NULL)
    gtk_snapshot_append_node (snapshot, node);
}

/**
 * sps_timeline_get_stats:
 * @self: a #SpsTimeline
 * @stats: (out caller-allocates): where to put the numbers
 *
 * Reads what the timeline measured of its last frame (see
 * #SpsTimelineStats), without any cost to the frames.
 */
void
sps_timeline_get_stats (SpsTimeline      *self,
                        SpsTimelineStats *stats)
{
  g_return_if_fail (SPS_IS_TIMELINE (self));
  g_return_if_fail (stats != NULL);

  *stats = self->stats;
}

/**
 * sps_timeline_set_collect_stats:
 * @self: a #SpsTimeline
 * @collect: whether to time frames and count their nodes
 *
 * Turns on the measurements that cost something (clock reads during a
 * frame, a walk over its nodes): the diagnostics panel does while it is
 * open. Until the next frame the times and the node count are those of
 * the last frame measured (0 before any).
 */
void
sps_timeline_set_collect_stats (SpsTimeline *self,
                                gboolean     collect)
{
  g_return_if_fail (SPS_IS_TIMELINE (self));

  collect = !!collect;
  if (self->collect_stats == (guint) collect)
    return;

  self->collect_stats = collect;
  if (collect)
    gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * sps_timeline_get_collect_stats:
 * @self: a #SpsTimeline
 *
 * Returns: whether sps_timeline_set_collect_stats() turned measuring on
 */
gboolean
sps_timeline_get_collect_stats (SpsTimeline *self)
{
  g_return_val_if_fail (SPS_IS_TIMELINE (self), FALSE);

  return self->collect_stats;
}
