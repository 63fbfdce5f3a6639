/* sps-timeline-private.h: what tests and benchmarks see of the timeline
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "sps-timeline.h"
#include "sps-timeline-layout-private.h"
#include "sps-timeline-lod-private.h"

G_BEGIN_DECLS

/* Exported (but not installed) for the tests and the frame benchmark. */
SPS_GTK_AVAILABLE_IN_ALL
SpsTimelineLod    *_sps_timeline_get_lod    (SpsTimeline *self);
SPS_GTK_AVAILABLE_IN_ALL
SpsTimelineLayout *_sps_timeline_get_layout (SpsTimeline *self);
SPS_GTK_AVAILABLE_IN_ALL
void               _sps_timeline_set_tiles_enabled (SpsTimeline *self,
                                                    gboolean     enabled);
SPS_GTK_AVAILABLE_IN_ALL
guint              _sps_timeline_get_frame_tile_builds (SpsTimeline *self);
SPS_GTK_AVAILABLE_IN_ALL
gboolean           _sps_timeline_drag_begin (SpsTimeline     *self,
                                             double           x,
                                             double           y,
                                             guint            button,
                                             GdkModifierType  state);
SPS_GTK_AVAILABLE_IN_ALL
char              *_sps_timeline_dup_tooltip_markup (SpsTimeline *self,
                                                     int          x,
                                                     int          y);

G_END_DECLS
