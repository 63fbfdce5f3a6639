/* sps-timeline-painter-private.h: what draws one kind of timeline row
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "sps-timeline.h"
#include "sps-timeline-canvas-private.h"
#include "sps-timeline-layout-private.h"
#include "sps-timeline-lod-private.h"
#include "sps-timeline-stacks-private.h"
#include "sps-time-math-private.h"

G_BEGIN_DECLS

/* The line under the pinned band, px */
#define SPS_TIMELINE_PIN_SEPARATOR 2

/* Where the widget's parts go for one frame, and the visible window */
typedef struct
{
  int     width;
  int     height;
  int     gutter;          /* x where the tracks start */
  int     track_width;
  int     ruler_height;
  int     scroll;          /* content y at the top of the scrolled rows */
  /* Pinned threads' rows (content y below pinned_height) are drawn in a
   * band under the ruler that does not scroll with the others: band px
   * high with its separator, scrolled by pinned_scroll inside itself
   * when the rows are higher than it may be. The scrolled rows start at
   * tracks_top (the ruler's bottom when nothing is pinned). */
  int     pinned_height;
  int     band;
  int     pinned_scroll;
  int     scale;           /* device pixels per px */
  SpsTime start;
  SpsTime end;
  double  ns_per_px;
  /* Slice lanes in tiles: the window starts on the pixel grid of the
   * trace (origin_px columns from its start at ns_per_px). */
  gboolean tiled;
  SpsTime  origin;
  gint64   origin_px;
} SpsTimelineGeometry;

/* Where a row is drawn: the window, or a tile of the trace's pixel grid
 * (see SPS_TIMELINE_TILE_WIDTH). Column 0 is @base_px px after @base; on
 * the grid (SpsTimelineGeometry.tiled) @base is the trace's origin and
 * @base_px the column's place on the grid, so the window and its tiles
 * compute every position with the same arithmetic and agree to the
 * pixel. */
typedef struct
{
  SpsTime base;
  double  base_px;
  int     width;
  GArray *spots;    /* a tile's SpsTimelineLabelSpots; NULL: labels are drawn now */
} SpsTimelineArea;

/* What drawing a row makes: a canvas over (0, @y, width, @height) of the
 * row; nodes on top of it go to SpsTimeline.overlay_nodes. */
typedef struct
{
  SpsTimelineCanvas canvas;
  gboolean          drawn;
  float             y;
  float             height;
} SpsTimelinePaint;

/* What the timeline's data is read from: hit tests and tooltips need
 * nothing else, so they run without a widget (and without a display). */
typedef struct
{
  SpsTrace       *trace;
  SpsSession     *session;
  SpsTimelineLod *lod;
  SpsTimelineStacks *stacks;  /* NULL until computed */
} SpsTimelineSource;

/* A painter draws one kind of row (slice lanes, counters, instants,
 * samples, stack charts), finds what is under the pointer in it
 * and says what the tooltip shows. Painters are plain tables of
 * functions that the widget calls per row, not widgets: a trace has
 * thousands of rows. Each function may be NULL. */
typedef struct
{
  const char *name;
  /* Paints @row's items in @area into @paint */
  void   (*paint)    (SpsTimeline               *self,
                      const SpsTimelineGeometry *g,
                      const SpsTimelineArea     *area,
                      const SpsTimelineRow      *row,
                      SpsTimelinePaint          *paint);
  /* The item (a row of the painter's table: slice, sample, instant)
   * under (@x, @y) in widget coordinates, or SPS_NO_INDEX */
  guint  (*hit_test) (const SpsTimelineSource   *source,
                      const SpsTimelineGeometry *g,
                      const SpsTimelineRow      *row,
                      double                     x,
                      double                     y);
  /* Pango markup for @item, what hit_test() found under the pointer
   * (or, for a painter without hit test, for the time at @x), or NULL */
  char  *(*tooltip)  (const SpsTimelineSource   *source,
                      const SpsTimelineGeometry *g,
                      const SpsTimelineRow      *row,
                      guint                      item,
                      double                     x);
} SpsTimelinePainter;

SPS_GTK_AVAILABLE_IN_ALL
const SpsTimelinePainter _sps_timeline_slice_painter;
SPS_GTK_AVAILABLE_IN_ALL
const SpsTimelinePainter _sps_timeline_counter_painter;
extern const SpsTimelinePainter _sps_timeline_instant_painter;
extern const SpsTimelinePainter _sps_timeline_sample_painter;
SPS_GTK_AVAILABLE_IN_ALL
const SpsTimelinePainter _sps_timeline_stack_painter;

SPS_GTK_AVAILABLE_IN_ALL
const SpsTimelinePainter *_sps_timeline_painter_for_row (const SpsTimelineRow      *row);
SPS_GTK_AVAILABLE_IN_ALL
guint          _sps_timeline_painter_hit_test (const SpsTimelinePainter  *painter,
                                               const SpsTimelineSource   *source,
                                               const SpsTimelineGeometry *g,
                                               const SpsTimelineRow      *row,
                                               double                     x,
                                               double                     y);
SPS_GTK_AVAILABLE_IN_ALL
char          *_sps_timeline_painter_tooltip  (const SpsTimelinePainter  *painter,
                                               const SpsTimelineSource   *source,
                                               const SpsTimelineGeometry *g,
                                               const SpsTimelineRow      *row,
                                               double                     x,
                                               double                     y);
void           _sps_timeline_paint_row        (SpsTimeline               *self,
                                               const SpsTimelineGeometry *g,
                                               const SpsTimelineArea     *a,
                                               const SpsTimelineRow      *row,
                                               SpsTimelinePaint          *paint);
void           _sps_timeline_paint_to_nodes   (SpsTimeline               *self,
                                               SpsTimelinePaint          *paint,
                                               int                        width,
                                               GPtrArray                 *nodes);
void           _sps_timeline_window_area      (const SpsTimelineGeometry *g,
                                               SpsTimelineArea           *a);
void           _sps_timeline_add_translated   (GPtrArray                 *nodes,
                                               GskRenderNode             *node,
                                               float                      x,
                                               float                      y);
GskRenderNode *_sps_timeline_nodes_to_node    (GPtrArray                 *nodes);

/* Shared by the instant and sample painters: the points of a row */
void           _sps_timeline_points_init      (SpsTimeline               *self,
                                               const SpsTimelineGeometry *g,
                                               const SpsTimelineArea     *a,
                                               const SpsTimelineRow      *row,
                                               guint                      level,
                                               SpsLodIter                *iter);
void           _sps_timeline_paint_ticks      (SpsTimeline               *self,
                                               const SpsTimelineGeometry *g,
                                               const SpsTimelineArea     *a,
                                               const SpsTimelineRow      *row,
                                               SpsTimelinePaint          *paint,
                                               gboolean                   events);
gboolean       _sps_timeline_track_has_events (SpsTrace                  *trace,
                                               guint32                    track);
const char    *_sps_timeline_string_or        (SpsTrace                  *trace,
                                               guint32                    id,
                                               const char                *fallback);

/* sps-timeline-stack-painter.c: exported for the tests */
SPS_GTK_AVAILABLE_IN_ALL
char          *_sps_timeline_stack_box_markup (SpsTrace                  *trace,
                                               SpsTimelineStacks         *stacks,
                                               guint32                    track,
                                               guint                      depth,
                                               guint                      box);

/* Geometry, inline: the painters' inner loops use it */

static inline double
_sps_timeline_time_to_x (const SpsTimelineGeometry *g,
                         SpsTime                    t)
{
  return g->gutter + _sps_time_distance (t, g->start) / g->ns_per_px;
}

static inline SpsTime
_sps_timeline_x_to_time (const SpsTimelineGeometry *g,
                         double                     x)
{
  return _sps_time_offset (g->start, (x - g->gutter) * g->ns_per_px);
}

/* The widget y where the scrolled rows start: under the pinned band */
static inline int
_sps_timeline_tracks_top (const SpsTimelineGeometry *g)
{
  return g->ruler_height + g->band;
}

/* Whether @row is drawn in the pinned band under the ruler */
static inline gboolean
_sps_timeline_row_pinned (const SpsTimelineGeometry *g,
                          const SpsTimelineRow      *row)
{
  return row->y < g->pinned_height;
}

static inline int
_sps_timeline_row_top (const SpsTimelineGeometry *g,
                       const SpsTimelineRow      *row)
{
  if (_sps_timeline_row_pinned (g, row))
    return g->ruler_height + row->y - g->pinned_scroll;
  return _sps_timeline_tracks_top (g) + row->y - g->scroll;
}

/* The band of widget y where @row may show: the pinned band's rows
 * above its separator, the others below the band */
static inline void
_sps_timeline_row_bounds (const SpsTimelineGeometry *g,
                          const SpsTimelineRow      *row,
                          int                       *top,
                          int                       *bottom)
{
  if (_sps_timeline_row_pinned (g, row))
    {
      *top = g->ruler_height;
      *bottom = _sps_timeline_tracks_top (g) - SPS_TIMELINE_PIN_SEPARATOR;
    }
  else
    {
      *top = _sps_timeline_tracks_top (g);
      *bottom = g->height;
    }
}

/* Whether @row draws @slice, one of its own: what the session shows;
 * for a pinned thread of a hidden process (which the filter hides), the
 * slice rules alone. */
static inline gboolean
_sps_timeline_row_shows_slice (SpsSession           *session,
                               const SpsTimelineRow *row,
                               guint                 slice)
{
  if (G_UNLIKELY (row->flags & SPS_TIMELINE_ROW_OWN_RULES))
    return sps_view_filter_slice_passes_rules (sps_session_get_view_filter (session), slice);
  return sps_session_is_slice_visible (session, slice);
}

/* The level drawn at: the first whose resolution is coarser than a
 * pixel, so every slice of its own is at least a pixel wide and the gaps
 * between runs are wider than a pixel. Counter buckets at that level span
 * one or two pixel columns; each goes to the column of its first value. */
static inline guint
_sps_timeline_draw_level (const SpsTimelineGeometry *g)
{
  return MIN (_sps_timeline_lod_level_for_resolution (g->ns_per_px) + 1, SPS_LOD_N_LEVELS - 1);
}

/* The times of the area's first column and just past its last */
static inline SpsTime
_sps_timeline_area_start (const SpsTimelineArea     *a,
                          const SpsTimelineGeometry *g)
{
  return _sps_time_offset (a->base, floor (a->base_px * g->ns_per_px));
}

static inline SpsTime
_sps_timeline_area_end (const SpsTimelineArea     *a,
                        const SpsTimelineGeometry *g)
{
  return _sps_time_offset (a->base, ceil ((a->base_px + a->width) * g->ns_per_px));
}

/* Whether the first point of bucket @bucket, at @x px, gets a mark when
 * the first point of the bucket before is at @prev_x (@prev_bucket the
 * bucket it is in): not when it is within @spacing px of a point of the
 * bucket just before. The rule looks at one bucket back only, so a tile
 * of the trace decides as the window does; with buckets at least
 * @spacing px wide, no two marks are nearer than @spacing. */
static inline gboolean
_sps_timeline_point_marked (gint64 bucket,
                            int    x,
                            gint64 prev_bucket,
                            int    prev_x,
                            int    spacing)
{
  return prev_bucket != bucket - 1 || x - prev_x >= spacing;
}

G_END_DECLS
