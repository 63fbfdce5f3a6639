/* sps-timeline-sample-painter.c: stack samples as ticks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-timeline"

#include "config.h"

#include <math.h>

#include "sps-stack-text-private.h"
#include "sps-timeline-private.h"

/* Starts @iter two buckets before the one holding the area's start: a
 * mark of the bucket before can reach into the area, and its own
 * decision needs the bucket before it, as seen from further left. */
void
_sps_timeline_points_init (SpsTimeline               *self,
                           const SpsTimelineGeometry *g,
                           const SpsTimelineArea     *a,
                           const SpsTimelineRow      *row,
                           guint                      level,
                           SpsLodIter                *iter)
{
  SpsTime width = (SpsTime) 1 << level;
  SpsTime start = _sps_timeline_area_start (a, g);
  SpsTime from = start < G_MININT64 + 3 * width ? G_MININT64 : (_sps_timeline_floor_div (start, width) - 2) * width;

  _sps_timeline_lod_points_init (self->lod, iter, row->track, level, from, _sps_timeline_area_end (a, g));
}

/* Thin ticks for the points of a row: samples in the dim colour; decoded
 * events (@events) in their name's colour, hidden as their instants are
 * by the filters. */
void
_sps_timeline_paint_ticks (SpsTimeline               *self,
                           const SpsTimelineGeometry *g,
                           const SpsTimelineArea     *a,
                           const SpsTimelineRow      *row,
                           SpsTimelinePaint          *paint,
                           gboolean                   events)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (self->trace);
  guint first = tracks->first_row[row->track];
  const SpsInstantTable *instants = sps_trace_get_instants (self->trace);
  const SpsTime *ts = (events ? instants->ts : sps_trace_get_samples (self->trace)->ts) + first;
  gboolean filtered = events && sps_session_has_filters (self->session);
  double px_per_ns = 1.0 / g->ns_per_px;
  guint level = _sps_timeline_draw_level (g);
  gint64 prev_bucket = G_MININT64;
  int prev_x = 0;
  SpsLodIter iter;
  guint32 points[256];
  guint n;

  _sps_timeline_canvas_init_strip (&paint->canvas, a->width, g->scale);
  paint->y = 3;
  paint->height = row->height - 6;

  /* A tick per sample, 2 px apart where they crowd: the first sample of
   * each bucket of a pixel or two is all that can show. */
  _sps_timeline_points_init (self, g, a, row, level, &iter);
  while ((n = _sps_timeline_lod_points_next_n (&iter, points, G_N_ELEMENTS (points))) > 0)
    for (guint i = 0; i < n; i++)
      {
        double fx = _sps_time_distance (ts[points[i]], a->base) * px_per_ns - a->base_px;
        gint64 bucket = ts[points[i]] >> level;
        int x = fx >= -1.0 ? _sps_timeline_floor_px (fx) : -2;

        if (_sps_timeline_point_marked (bucket, x, prev_bucket, prev_x, 2) && x >= 0 &&
            (!filtered || sps_session_is_instant_visible (self->session, first + points[i])))
          {
            _sps_timeline_canvas_fill_columns (&paint->canvas, x, x + 1,
                        events ? self->style.fill_pixel[_sps_timeline_name_color (self, instants->name[first + points[i]])]
                               : self->style.dim_pixel);
            paint->drawn = TRUE;
          }
        prev_bucket = bucket;
        prev_x = x;
      }
}

/* The sample nearest the pointer, within a few pixels */
static guint
sample_hit_test (const SpsTimelineSource   *source,
                 const SpsTimelineGeometry *g,
                 const SpsTimelineRow      *row,
                 double                     x,
                 double                     y)
{
  return _sps_stack_text_find_sample (source->trace, row->track, _sps_timeline_x_to_time (g, x),
                                      (SpsTime) ceil (4 * g->ns_per_px));
}

/* Its stack */
static char *
sample_tooltip (const SpsTimelineSource   *source,
                const SpsTimelineGeometry *g,
                const SpsTimelineRow      *row,
                guint                      sample,
                double                     x)
{
  return _sps_stack_text_sample_markup (source->trace, sample);
}

static void
paint_samples (SpsTimeline               *self,
               const SpsTimelineGeometry *g,
               const SpsTimelineArea     *a,
               const SpsTimelineRow      *row,
               SpsTimelinePaint          *paint)
{
  _sps_timeline_paint_ticks (self, g, a, row, paint, FALSE);
}

const SpsTimelinePainter _sps_timeline_sample_painter = {
  .name = "samples",
  .paint = paint_samples,
  .hit_test = sample_hit_test,
  .tooltip = sample_tooltip,
};
