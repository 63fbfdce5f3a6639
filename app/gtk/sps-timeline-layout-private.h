/* sps-timeline-layout-private.h: the rows of the timeline
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

#include "sps-gtk-version-macros.h"
#include "sps-session.h"

G_BEGIN_DECLS

typedef enum
{
  SPS_TIMELINE_ROW_PROCESS,    /* section header of a process */
  SPS_TIMELINE_ROW_SLICES,     /* one depth of a slice track */
  SPS_TIMELINE_ROW_COUNTER,    /* one series of a counter */
  SPS_TIMELINE_ROW_INSTANTS,   /* thread, process or global instants */
  SPS_TIMELINE_ROW_SAMPLES,    /* stack samples of a thread */
  SPS_TIMELINE_ROW_STACK,      /* one depth of a thread's stack chart */
} SpsTimelineRowKind;

typedef enum
{
  SPS_TIMELINE_ROW_FIRST     = 1 << 0,  /* first row of its track */
  SPS_TIMELINE_ROW_COLLAPSED = 1 << 1,  /* header of a collapsed process */
  SPS_TIMELINE_ROW_PINNED    = 1 << 2,  /* a pinned thread's row */
  SPS_TIMELINE_ROW_OWN_RULES = 1 << 3,  /* pinned, of a hidden process: its
                                         * slices pass by the slice rules
                                         * alone (the filter hides them) */
} SpsTimelineRowFlags;

typedef struct
{
  guint8  kind;        /* SpsTimelineRowKind */
  guint8  flags;       /* SpsTimelineRowFlags */
  guint16 depth;       /* slice and stack rows: the depth drawn */
  guint32 process;     /* SPS_NO_INDEX for the global instants */
  guint32 thread;      /* SPS_NO_INDEX unless a thread's row */
  guint32 track;       /* SPS_NO_INDEX for a process header */
  int     y;           /* top, in content coordinates */
  int     height;
} SpsTimelineRow;

typedef struct _SpsTimelineLayout SpsTimelineLayout;

/* Exported (but not installed) for the tests. */
SPS_GTK_AVAILABLE_IN_ALL
SpsTimelineLayout    *_sps_timeline_layout_new                   (SpsTrace          *trace,
                                                                  SpsViewFilter     *filter);
SPS_GTK_AVAILABLE_IN_ALL
void                  _sps_timeline_layout_free                  (SpsTimelineLayout *self);
SPS_GTK_AVAILABLE_IN_ALL
void                  _sps_timeline_layout_set_heights           (SpsTimelineLayout *self,
                                                                  int                track_height,
                                                                  int                header_height);
SPS_GTK_AVAILABLE_IN_ALL
gboolean              _sps_timeline_layout_set_process_collapsed (SpsTimelineLayout *self,
                                                                  guint              process,
                                                                  gboolean           collapsed);
SPS_GTK_AVAILABLE_IN_ALL
gboolean              _sps_timeline_layout_sync_filters          (SpsTimelineLayout *self,
                                                                  SpsSession        *session);
SPS_GTK_AVAILABLE_IN_ALL
gboolean              _sps_timeline_layout_get_process_collapsed (SpsTimelineLayout *self,
                                                                  guint              process);
SPS_GTK_AVAILABLE_IN_ALL
guint                 _sps_timeline_layout_get_n_rows            (SpsTimelineLayout *self);
SPS_GTK_AVAILABLE_IN_ALL
const SpsTimelineRow *_sps_timeline_layout_get_row               (SpsTimelineLayout *self,
                                                                  guint              row);
SPS_GTK_AVAILABLE_IN_ALL
int                   _sps_timeline_layout_get_height            (SpsTimelineLayout *self);
SPS_GTK_AVAILABLE_IN_ALL
int                   _sps_timeline_layout_get_pinned_height     (SpsTimelineLayout *self);
SPS_GTK_AVAILABLE_IN_ALL
guint                 _sps_timeline_layout_get_n_pinned_rows     (SpsTimelineLayout *self);
SPS_GTK_AVAILABLE_IN_ALL
guint                 _sps_timeline_layout_row_at_y              (SpsTimelineLayout *self,
                                                                  int                y);
SPS_GTK_AVAILABLE_IN_ALL
guint                 _sps_timeline_layout_find_track_row        (SpsTimelineLayout *self,
                                                                  guint              track,
                                                                  guint              depth);
SPS_GTK_AVAILABLE_IN_ALL
guint                 _sps_timeline_layout_find_slice_row        (SpsTimelineLayout *self,
                                                                  guint              slice);
SPS_GTK_AVAILABLE_IN_ALL
guint                 _sps_timeline_layout_find_lane_row         (SpsTimelineLayout *self,
                                                                  guint              lane);
SPS_GTK_AVAILABLE_IN_ALL
SpsViewFilter        *_sps_timeline_layout_get_filter            (SpsTimelineLayout *self);
SPS_GTK_AVAILABLE_IN_ALL
guint                 _sps_timeline_layout_find_process_row      (SpsTimelineLayout *self,
                                                                  guint              process);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpsTimelineLayout, _sps_timeline_layout_free)

G_END_DECLS
