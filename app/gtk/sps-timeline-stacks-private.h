/* sps-timeline-stacks-private.h: the boxes of the stack charts of samples
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

#include "sps-gtk-version-macros.h"
#include "sps-selection.h"

G_BEGIN_DECLS

/* Deeper frames than this get no lane (their samples still count in the
 * boxes of their ancestors). */
#define SPS_TIMELINE_STACK_MAX_DEPTH 512

/* One box of a stack chart: the samples first_sample ..
 * first_sample + n_samples - 1 of the table it was computed from (in
 * time order, all on one track) have @callsite at the box's depth.
 * It spans [start, end): from the first one's time to the next sample's
 * time after the last one (see _sps_timeline_stacks_new()). */
typedef struct
{
  SpsTime start;
  SpsTime end;
  guint32 callsite;
  guint32 first_sample;
  guint32 n_samples;
} SpsTimelineStackBox;

/* What a lane draws at one level of detail (see
 * _sps_timeline_stacks_get_runs()): a box of its own (@n_boxes 1), or a
 * run of @n_boxes consecutive boxes narrower than the level's
 * resolution, drawn in one colour. */
typedef struct
{
  SpsTime start;
  SpsTime end;
  guint32 box;       /* its first box */
  guint32 n_boxes;
  guint32 name;      /* the name of its first box's frame: its colour */
} SpsTimelineStackRun;

typedef struct _SpsTimelineStacks SpsTimelineStacks;

SPS_GTK_AVAILABLE_IN_ALL
SpsTimelineStacks         *_sps_timeline_stacks_new       (SpsTrace             *trace,
                                                           const SpsSampleTable *samples);
SPS_GTK_AVAILABLE_IN_ALL
void                       _sps_timeline_stacks_free      (SpsTimelineStacks    *self);
SPS_GTK_AVAILABLE_IN_ALL
const SpsSampleTable      *_sps_timeline_stacks_get_samples (SpsTimelineStacks  *self);
SPS_GTK_AVAILABLE_IN_ALL
guint                      _sps_timeline_stacks_get_n_depths (SpsTimelineStacks *self,
                                                           guint32               track);
SPS_GTK_AVAILABLE_IN_ALL
const SpsTimelineStackBox *_sps_timeline_stacks_get_boxes (SpsTimelineStacks    *self,
                                                           guint32               track,
                                                           guint                 depth,
                                                           guint                *n_boxes);
SPS_GTK_AVAILABLE_IN_ALL
const SpsTimelineStackRun *_sps_timeline_stacks_get_runs  (SpsTimelineStacks    *self,
                                                           guint32               track,
                                                           guint                 depth,
                                                           guint                 level,
                                                           SpsTime               start,
                                                           SpsTime               end,
                                                           guint                *n_runs);
SPS_GTK_AVAILABLE_IN_ALL
void                       _sps_timeline_stacks_set_lazy_min_boxes (SpsTimelineStacks *self,
                                                           guint                 n_boxes);
SPS_GTK_AVAILABLE_IN_ALL
guint32                    _sps_timeline_stacks_box_name  (SpsTrace             *trace,
                                                           const SpsTimelineStackBox *box);
SPS_GTK_AVAILABLE_IN_ALL
guint                      _sps_timeline_stacks_find_box  (SpsTimelineStacks    *self,
                                                           guint32               track,
                                                           guint                 depth,
                                                           SpsTime               t);
SPS_GTK_AVAILABLE_IN_ALL
guint                      _sps_timeline_stacks_track_depth (SpsTrace           *trace,
                                                           guint32               track);

SPS_GTK_AVAILABLE_IN_ALL
guint                      _sps_timeline_stacks_estimate_cpu (const SpsSampleTable *samples,
                                                           guint                 first,
                                                           guint                 n,
                                                           double               *cpu_ns);
SPS_GTK_AVAILABLE_IN_ALL
void                       _sps_timeline_stacks_box_selection (SpsTimelineStacks *self,
                                                           SpsTrace             *trace,
                                                           guint32               track,
                                                           guint                 depth,
                                                           guint                 box,
                                                           SpsSelection         *selection);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpsTimelineStacks, _sps_timeline_stacks_free)

G_END_DECLS
