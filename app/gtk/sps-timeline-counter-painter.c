/* sps-timeline-counter-painter.c: counter rows, as step functions
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-timeline"

#include "config.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include "sps-timeline-private.h"

typedef struct
{
  SpsTimelineCanvas canvas;
  guint32  line;
  guint32  area;
  double   lo;
  double   hi;
  float    top;
  float    bottom;
  float    zero;
  gboolean has_segment;
  int      seg_x;
  double   seg_value;
} CounterDraw;

static inline float
counter_y (const CounterDraw *c,
           double             v)
{
  if (isnan (v))
    return c->zero;
  return c->top + (float) ((c->hi - v) / (c->hi - c->lo)) * (c->bottom - c->top);
}

static void
counter_segment (CounterDraw *c,
                 int          x_end)
{
  float y;

  if (!c->has_segment || x_end <= c->seg_x)
    return;

  y = floorf (counter_y (c, c->seg_value));
  if (y < c->zero)
    _sps_timeline_canvas_fill (&c->canvas, c->seg_x, x_end, y, c->zero, c->area);
  else if (y > c->zero)
    _sps_timeline_canvas_fill (&c->canvas, c->seg_x, x_end, c->zero, y, c->area);
  _sps_timeline_canvas_fill (&c->canvas, c->seg_x, x_end, y, y + 1, c->line);
}

/* Closes pixel column @x, whose values span [@min, @max] and end at
 * @last: the segment before it ends, a vertical line covers the spread
 * (sub-pixel merging: one line per column whatever the points in it) and
 * a new segment starts at @last. */
static void
counter_column (CounterDraw *c,
                int          x,
                double       min,
                double       max,
                double       last)
{
  if (c->has_segment && min == max && max == c->seg_value)
    return;

  counter_segment (c, x);

  c->has_segment = TRUE;
  c->seg_x = x;
  c->seg_value = last;

  if (min < max)
    {
      float y0 = floorf (counter_y (c, max));
      float y1 = floorf (counter_y (c, min));

      counter_segment (c, x + 1);
      _sps_timeline_canvas_fill (&c->canvas, x, x + 1, y0, y1 + 1, c->line);
      c->seg_x = x + 1;
    }
}

static void
paint_counter (SpsTimeline               *self,
               const SpsTimelineGeometry *g,
               const SpsTimelineArea     *a,
               const SpsTimelineRow      *row,
               SpsTimelinePaint          *paint)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (self->trace);
  CounterDraw c = { 0, };
  SpsLodIter iter;
  SpsLodBucket bucket;
  guint color = _sps_timeline_name_color (self, tracks->name[row->track]);
  double min;
  double max;
  double value;
  int column = -1;
  double col_min = 0, col_max = 0, col_last = 0;
  double end_x;
  SpsTime trace_end = sps_trace_get_end_time (self->trace);
  SpsTime start = _sps_timeline_area_start (a, g);
  double px_per_ns = 1.0 / g->ns_per_px;

  if (!_sps_timeline_lod_get_counter_range (self->lod, row->track, &min, &max))
    return;

  c.line = self->style.line_pixel[color];
  c.area = self->style.area_pixel[color];
  c.lo = MIN (min, 0.0);
  c.hi = MAX (max, 0.0);
  if (c.hi <= c.lo)
    c.hi = c.lo + 1.0;
  c.top = 3;
  c.bottom = row->height - 2;
  c.zero = floorf (counter_y (&c, 0.0));
  _sps_timeline_canvas_init (&c.canvas, a->width, row->height, g->scale);

  if (_sps_timeline_lod_get_counter_value (self->lod, row->track, start, &value))
    {
      c.has_segment = TRUE;
      c.seg_x = 0;
      c.seg_value = value;
    }

  _sps_timeline_lod_buckets_init (self->lod, &iter, row->track, _sps_timeline_draw_level (g), start, _sps_timeline_area_end (a, g));
  while (_sps_timeline_lod_buckets_next (&iter, &bucket))
    {
      double fx = _sps_time_distance (bucket.ts, a->base) * px_per_ns - a->base_px;
      int x;

      /* A bucket that began before the area is the value in force at
       * its start, which the segment above already holds: drawing it in
       * column 0 would draw it twice where tiles meet. */
      if (fx < 0)
        continue;
      x = (int) fx;
      if (x >= a->width)
        break;

      if (x != column)
        {
          if (column >= 0)
            counter_column (&c, column, col_min, col_max, col_last);
          column = x;
          /* The value in force when the column starts counts too. */
          if (c.has_segment)
            col_min = col_max = c.seg_value;
          else
            col_min = col_max = bucket.min;
        }

      if (bucket.min < col_min || isnan (col_min))
        col_min = bucket.min;
      if (bucket.max > col_max || isnan (col_max))
        col_max = bucket.max;
      col_last = bucket.last;
    }
  if (column >= 0)
    counter_column (&c, column, col_min, col_max, col_last);

  /* The last value holds until the trace ends. */
  end_x = MIN (_sps_time_distance (trace_end, a->base) * px_per_ns - a->base_px, (double) a->width);
  counter_segment (&c, (int) ceil (MAX (end_x, 0.0)));

  paint->canvas = c.canvas;
  paint->drawn = TRUE;
  paint->y = 0;
  paint->height = row->height;
}

/* The series' name and its value at the pointer's time */
static char *
counter_tooltip (const SpsTimelineSource   *source,
                 const SpsTimelineGeometry *g,
                 const SpsTimelineRow      *row,
                 guint                      item,
                 double                     x)
{
  double value;

  if (!_sps_timeline_lod_get_counter_value (source->lod, row->track, _sps_timeline_x_to_time (g, x), &value))
    return NULL;

  return g_markup_printf_escaped ("<b>%s</b>\n%.6g",
                                  _sps_timeline_string_or (source->trace, sps_trace_get_tracks (source->trace)->name[row->track],
                                                           _("Counter")),
                                  value);
}

const SpsTimelinePainter _sps_timeline_counter_painter = {
  .name = "counter",
  .paint = paint_counter,
  .tooltip = counter_tooltip,
};
