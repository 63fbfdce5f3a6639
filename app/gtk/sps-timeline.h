/* sps-timeline.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_GTK_INSIDE) && !defined (SPANSCOPE_GTK_COMPILATION)
# error "Only <spanscope-gtk.h> can be included directly."
#endif

#include <gtk/gtk.h>

#include "sps-gtk-version-macros.h"
#include "sps-session.h"

G_BEGIN_DECLS

#define SPS_TYPE_TIMELINE (sps_timeline_get_type ())

SPS_GTK_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (SpsTimeline, sps_timeline, SPS, TIMELINE, GtkWidget)

/* The GSK-drawn timeline of one session: label gutter, tracks, flows,
 * selection and range overlays. Implements GtkScrollable (vertical).
 * Widget actions (installed on the class; the widget binds no keys
 * itself: the application maps its rebindable accelerators to them):
 * "timeline.zoom-in", "timeline.zoom-out", "timeline.pan-left",
 * "timeline.pan-right", "timeline.scroll-up", "timeline.scroll-down",
 * "timeline.fit", "timeline.select-parent", "timeline.select-child",
 * "timeline.select-prev", "timeline.select-next", "timeline.clear",
 * "timeline.select" (u: slice index), "timeline.toggle-process"
 * (u: process index). */

SPS_GTK_AVAILABLE_IN_ALL
GtkWidget  *sps_timeline_new                (SpsSession  *session);
SPS_GTK_AVAILABLE_IN_ALL
SpsSession *sps_timeline_get_session        (SpsTimeline *self);
SPS_GTK_AVAILABLE_IN_ALL
int         sps_timeline_get_gutter_width   (SpsTimeline *self);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_timeline_set_gutter_width   (SpsTimeline *self,
                                             int          width);
SPS_GTK_AVAILABLE_IN_ALL
gboolean    sps_timeline_get_gutter_auto    (SpsTimeline *self);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_timeline_set_gutter_auto    (SpsTimeline *self,
                                             gboolean     gutter_auto);
SPS_GTK_AVAILABLE_IN_ALL
int         sps_timeline_get_track_height   (SpsTimeline *self);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_timeline_set_track_height   (SpsTimeline *self,
                                             int          height);
SPS_GTK_AVAILABLE_IN_ALL
gboolean    sps_timeline_get_preparing      (SpsTimeline *self);
/* Where a slice is drawn, in widget coordinates; FALSE when not visible. */
SPS_GTK_AVAILABLE_IN_ALL
gboolean    sps_timeline_get_slice_area     (SpsTimeline     *self,
                                             guint            slice,
                                             graphene_rect_t *area);
/* Builds the render node of the whole widget for @width × @height without
 * a display (benchmarks and tests of node building). */
SPS_GTK_AVAILABLE_IN_ALL
GskRenderNode *sps_timeline_build_node      (SpsTimeline *self,
                                             int          width,
                                             int          height);

/**
 * SpsTimelineStats:
 * @frames: frames built since the timeline was made
 * @build_ns: the last frame's build, whole, in ns (0 unless collecting)
 * @rows_ns: of which the rows: background grid, cached row nodes,
 *   tiles put together or built, the gutter
 * @overlays_ns: the flows, hover, selection and pointer line
 * @ruler_ns: the ruler, range badge and flags
 * @render_nodes: render nodes in the last frame (0 unless collecting)
 * @items_drawn: slices the last frame that painted slice lanes (rather
 *   than reuse cached rows) drew one by one, tiles it built included
 * @items_merged: slices that frame merged into runs, being too narrow
 *   for a pixel of their own (sub-pixel culling)
 * @tiles_reused: tiles in view that the last frame took from its cache
 * @tiles_built: tiles in view it had to build
 *
 * What the timeline measures of its own frames, for the diagnostics
 * panel: see sps_timeline_get_stats(). The counts are kept always (a few
 * additions per frame); the times and the node count only while
 * sps_timeline_set_collect_stats() is on, since they cost clock reads
 * and a walk over the frame's nodes.
 */
typedef struct
{
  guint64 frames;
  gint64  build_ns;
  gint64  rows_ns;
  gint64  overlays_ns;
  gint64  ruler_ns;
  guint   render_nodes;
  guint   items_drawn;
  guint   items_merged;
  guint   tiles_reused;
  guint   tiles_built;
} SpsTimelineStats;

SPS_GTK_AVAILABLE_IN_ALL
void        sps_timeline_get_stats          (SpsTimeline      *self,
                                             SpsTimelineStats *stats);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_timeline_set_collect_stats  (SpsTimeline      *self,
                                             gboolean          collect);
SPS_GTK_AVAILABLE_IN_ALL
gboolean    sps_timeline_get_collect_stats  (SpsTimeline      *self);

G_END_DECLS
