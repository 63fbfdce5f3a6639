/* sps-timeline-instant-painter.c: instants as marks, events as ticks
 *
 * Instants and samples: the first point of each bucket of a pixel or two
 * (sps-timeline-lod.c) is all that can show, so the cost is bounded by
 * the pixels, not the points. Marks are copied into the row's canvas: a
 * node per mark would cost more than its pixels.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-timeline"

#include "config.h"

#include <math.h>
#include <string.h>

#include "sps-event-text-private.h"
#include "sps-timeline-private.h"

/* Gap between instant markers, px. */
#define INSTANT_SPACING      3

/* The pixels of a diamond of @size px in @color, size × @scale square */
static const guint32 *
get_diamond (SpsTimeline *self,
             guint        color,
             int          size,
             int          scale)
{
  cairo_surface_t *surface;
  cairo_t *cr;
  int device = size * scale;
  int stride;
  const guchar *data;

  if (self->diamonds[color] != NULL && self->diamond_size == size && self->diamond_scale == scale)
    return self->diamonds[color];

  if (self->diamond_size != size || self->diamond_scale != scale)
    for (guint i = 0; i < SPS_PALETTE_SIZE; i++)
      g_clear_pointer (&self->diamonds[i], g_free);
  self->diamond_size = size;
  self->diamond_scale = scale;

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, device, device);
  cr = cairo_create (surface);
  cairo_move_to (cr, device / 2.0, 0.5);
  cairo_line_to (cr, device - 0.5, device / 2.0);
  cairo_line_to (cr, device / 2.0, device - 0.5);
  cairo_line_to (cr, 0.5, device / 2.0);
  cairo_close_path (cr);
  gdk_cairo_set_source_rgba (cr, &self->style.fill[color]);
  cairo_fill_preserve (cr);
  gdk_cairo_set_source_rgba (cr, &self->style.shadow);
  cairo_set_line_width (cr, scale);
  cairo_stroke (cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);

  /* Cairo's ARGB32 is premultiplied 0xAARRGGBB in native byte order,
   * like the canvas. */
  stride = cairo_image_surface_get_stride (surface);
  data = cairo_image_surface_get_data (surface);
  self->diamonds[color] = g_new (guint32, (gsize) device * device);
  for (int y = 0; y < device; y++)
    memcpy (self->diamonds[color] + (gsize) y * device, data + (gsize) y * stride, device * sizeof (guint32));
  cairo_surface_destroy (surface);

  return self->diamonds[color];
}

/* Whether a thread's instant track holds decoded events: importers that
 * write events (ETW, EventPipe) write nothing else there, so its first
 * instant tells */
gboolean
_sps_timeline_track_has_events (SpsTrace *trace,
                                guint32   track)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  const SpsInstantTable *instants = sps_trace_get_instants (trace);

  return track < tracks->n_rows && tracks->kind[track] == SPS_TRACK_THREAD_INSTANTS &&
         tracks->first_row[track] < instants->n_rows &&
         instants->kind[tracks->first_row[track]] == SPS_INSTANT_KIND_EVENT;
}

static void
paint_instants (SpsTimeline               *self,
                const SpsTimelineGeometry *g,
                const SpsTimelineArea     *a,
                const SpsTimelineRow      *row,
                SpsTimelinePaint          *paint)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (self->trace);
  const SpsInstantTable *instants = sps_trace_get_instants (self->trace);
  guint first = tracks->first_row[row->track];
  int size = CLAMP (row->height - 8, 6, 11) | 1;
  double px_per_ns = 1.0 / g->ns_per_px;
  /* Buckets at least a mark and its spacing wide */
  guint level = MIN (_sps_timeline_lod_level_for_resolution (g->ns_per_px * (size + INSTANT_SPACING)) + 1,
                     SPS_LOD_N_LEVELS - 1);
  gint64 prev_bucket = G_MININT64;
  int prev_x = 0;
  SpsLodIter iter;
  guint32 points[256];
  guint n;
  /* Without filters every instant is shown: no lookup per mark */
  gboolean filtered = sps_session_has_filters (self->session);

  /* A thread's decoded events (ETW, EventPipe) are thousands of marks of
   * hundreds of names: thin ticks, as PerfView's events are lines */
  if (_sps_timeline_track_has_events (self->trace, row->track))
    {
      _sps_timeline_paint_ticks (self, g, a, row, paint, TRUE);
      return;
    }

  _sps_timeline_points_init (self, g, a, row, level, &iter);
  if ((n = _sps_timeline_lod_points_next_n (&iter, points, G_N_ELEMENTS (points))) == 0)
    return;

  _sps_timeline_canvas_init (&paint->canvas, a->width, size, g->scale);
  paint->y = floorf ((row->height - size) / 2.f);
  paint->height = size;

  do
    for (guint i = 0; i < n; i++)
      {
        guint row_index = first + points[i];
        SpsTime ts = instants->ts[row_index];
        double fx = _sps_time_distance (ts, a->base) * px_per_ns - a->base_px;
        gint64 bucket = ts >> level;
        int x;

        /* floor, for the few px left of the area the margin reads */
        x = fx >= -1.0 ? _sps_timeline_floor_px (fx) : (int) floor (MAX (fx, -1e6));

        /* A filtered-out instant is not drawn but still counts as the
         * point before the next one, so marks do not move with filters
         * and tiles keep agreeing. */
        if (_sps_timeline_point_marked (bucket, x, prev_bucket, prev_x, size + INSTANT_SPACING) &&
            (!filtered || sps_session_is_instant_visible (self->session, row_index)))
          {
            _sps_timeline_canvas_put_square (&paint->canvas, (x - size / 2) * paint->canvas.scale,
                               get_diamond (self, _sps_timeline_name_color (self, instants->name[row_index]), size,
                                            paint->canvas.scale),
                               size * paint->canvas.scale);
            paint->drawn = TRUE;
          }
        prev_bucket = bucket;
        prev_x = x;
      }
  while ((n = _sps_timeline_lod_points_next_n (&iter, points, G_N_ELEMENTS (points))) > 0);
}

/* The instant (or event) nearest the pointer, within half a mark */
static guint
instant_hit_test (const SpsTimelineSource   *source,
                  const SpsTimelineGeometry *g,
                  const SpsTimelineRow      *row,
                  double                     x,
                  double                     y)
{
  guint instant = _sps_event_text_find_instant (source->trace, row->track, _sps_timeline_x_to_time (g, x),
                                                (SpsTime) ceil (6 * g->ns_per_px));

  if (instant == SPS_NO_INDEX || !sps_session_is_instant_visible (source->session, instant))
    return SPS_NO_INDEX;
  return instant;
}

/* Its name, time and args */
static char *
instant_tooltip (const SpsTimelineSource   *source,
                 const SpsTimelineGeometry *g,
                 const SpsTimelineRow      *row,
                 guint                      instant,
                 double                     x)
{
  return _sps_event_text_instant_markup (source->trace, instant);
}

const SpsTimelinePainter _sps_timeline_instant_painter = {
  .name = "instants",
  .paint = paint_instants,
  .hit_test = instant_hit_test,
  .tooltip = instant_tooltip,
};
