/* sps-timeline-canvas-private.h: the pixels a timeline row is drawn into
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <math.h>
#include <string.h>

#include <gtk/gtk.h>

#include "sps-gtk-version-macros.h"

G_BEGIN_DECLS

/* Why: a zoomed-out lane has a run or a slice in most pixel columns, and a
 * render node per rectangle costs far more than the pixel it covers
 * (allocation, reference counting, bounds). So the rectangles of a row are
 * written into a small premultiplied ARGB buffer, in device pixels, that
 * becomes one texture node: a lane is one pixel high (every column is a
 * vertical bar of one colour, stretched to the lane's height), a counter
 * its row's height. The canvas is plain memory: tests check its pixels
 * without a display. */
typedef struct
{
  guint32 *pixels;   /* premultiplied 0xAARRGGBB in native byte order */
  int      width;    /* device pixels */
  int      height;
  int      scale;    /* device pixels per logical pixel */
} SpsTimelineCanvas;

/* Pixels past the end of a strip, so that short runs can be written in
 * one go of this many pixels. */
#define SPS_TIMELINE_STRIP_SLACK 8

SPS_GTK_AVAILABLE_IN_ALL
guint32        _sps_timeline_canvas_pixel        (const GdkRGBA           *color);
SPS_GTK_AVAILABLE_IN_ALL
void           _sps_timeline_canvas_init         (SpsTimelineCanvas       *canvas,
                                                  int                      width,
                                                  int                      height,
                                                  int                      scale);
SPS_GTK_AVAILABLE_IN_ALL
void           _sps_timeline_canvas_init_strip   (SpsTimelineCanvas       *canvas,
                                                  int                      width,
                                                  int                      scale);
SPS_GTK_AVAILABLE_IN_ALL
GskRenderNode *_sps_timeline_canvas_free_to_node (SpsTimelineCanvas       *canvas,
                                                  const graphene_rect_t   *bounds);
SPS_GTK_AVAILABLE_IN_ALL
void           _sps_timeline_canvas_clear        (SpsTimelineCanvas       *canvas);

/* The helpers of the inner loops are inline: they run once per item of a
 * zoomed-out lane (or per column of a counter, per mark of instants),
 * where a call would cost as much as the work. */

/* Fills [x0, x1) × [y0, y1), in logical pixels, clipped. */
static inline void
_sps_timeline_canvas_fill (SpsTimelineCanvas *canvas,
                           double             x0,
                           double             x1,
                           double             y0,
                           double             y1,
                           guint32            pixel)
{
  int left = (int) CLAMP (floor (x0 * canvas->scale + .5), 0.0, (double) canvas->width);
  int right = (int) CLAMP (floor (x1 * canvas->scale + .5), 0.0, (double) canvas->width);
  int top = (int) CLAMP (floor (y0 * canvas->scale + .5), 0.0, (double) canvas->height);
  int bottom = (int) CLAMP (floor (y1 * canvas->scale + .5), 0.0, (double) canvas->height);

  for (int y = top; y < bottom; y++)
    {
      guint32 *row = canvas->pixels + (gsize) y * canvas->width;

      for (int x = left; x < right; x++)
        row[x] = pixel;
    }
}

/* Copies a square of @size device pixels to column @left (device pixels)
 * of @canvas, which is as high as the square. Marks never overlap, so
 * there is nothing to blend. */
static inline void
_sps_timeline_canvas_put_square (SpsTimelineCanvas *canvas,
                                 int                left,
                                 const guint32     *square,
                                 int                size)
{
  int from = MAX (-left, 0);
  int to = MIN (size, canvas->width - left);

  if (to <= from)
    return;

  for (int y = 0; y < MIN (size, canvas->height); y++)
    memcpy (canvas->pixels + (gsize) y * canvas->width + left + from,
            square + (gsize) y * size + from,
            (gsize) (to - from) * sizeof (guint32));
}

/* floor() for x >= -1, without a libm call in the inner loops */
static inline int
_sps_timeline_floor_px (double x)
{
  return (int) (x + 1.0) - 1;
}

/* floor (x + 0.5) for x >= -2.5, the same */
static inline int
_sps_timeline_round_px (double x)
{
  return (int) (x + 2.5) - 2;
}

/* Four pixels at once (GCC and Clang vector extensions; plain code where
 * the processor has no vectors) */
typedef gint32 SpsTimelineStripVec __attribute__ ((vector_size (16)));

/* floor (x + 0.5) for any x, without a libm call: beyond ±2^30 px the
 * value is clamped, which changes no decision taken with it. */
static inline gint64
_sps_timeline_round_any (double x)
{
  x = CLAMP (x, -1073741824.0, 1073741824.0);
  return (gint64) (x + 1073741824.5) - G_GINT64_CONSTANT (1073741824);
}

/* Whether a slice from @x0 to @x1 (px) leaves a pixel of space before the
 * next: when it is 4 px wide or more. Measured on the whole slice, not on
 * the part an area shows, so that a tile and the window, which cut it at
 * different places, draw it alike. */
static inline gboolean
_sps_timeline_slice_keeps_gap (double x0,
                               double x1)
{
  return _sps_timeline_round_any (x1) - _sps_timeline_round_any (x0) >= 4;
}

/* Fills columns [@left, @right) (logical pixels) of a strip. */
static inline void
_sps_timeline_canvas_fill_columns (SpsTimelineCanvas *strip,
                                   int                left,
                                   int                right,
                                   guint32            pixel)
{
  guint32 *p;
  int n;

  left = CLAMP (left, 0, strip->width) * strip->scale;
  left = MIN (left, strip->width);
  right = MIN (right, strip->width) * strip->scale;
  right = MIN (right, strip->width);
  p = strip->pixels + left;
  n = right - left;

  /* Most runs of a zoomed-out lane are a few pixels wide: the first
   * STRIP_SLACK pixels are written as two blends of four, which costs
   * less than a loop whose end the processor cannot predict (compiled
   * plainly, that loop is a branch per pixel). The strip has room for
   * them past its end. */
  {
    const SpsTimelineStripVec first = { 0, 1, 2, 3 };
    const SpsTimelineStripVec second = { 4, 5, 6, 7 };
    SpsTimelineStripVec count = { n, n, n, n };
    SpsTimelineStripVec value = { (gint32) pixel, (gint32) pixel, (gint32) pixel, (gint32) pixel };
    SpsTimelineStripVec a, b, in_a, in_b;

    G_STATIC_ASSERT (SPS_TIMELINE_STRIP_SLACK == 8);
    memcpy (&a, p, sizeof a);
    memcpy (&b, p + 4, sizeof b);
    in_a = first < count;
    in_b = second < count;
    a = (value & in_a) | (a & ~in_a);
    b = (value & in_b) | (b & ~in_b);
    memcpy (p, &a, sizeof a);
    memcpy (p + 4, &b, sizeof b);
  }

  for (int i = SPS_TIMELINE_STRIP_SLACK; i < n; i++)
    p[i] = pixel;
}

static inline gint64
_sps_timeline_floor_div (gint64 a,
                         gint64 b)
{
  return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

G_END_DECLS
