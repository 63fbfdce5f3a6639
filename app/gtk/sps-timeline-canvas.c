/* sps-timeline-canvas.c: the pixels of a timeline row, without a display
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-timeline"

#include "config.h"

#include <math.h>
#include <string.h>

#include "sps-timeline-canvas-private.h"

/* @color as a pixel of a canvas */
guint32
_sps_timeline_canvas_pixel (const GdkRGBA *c)
{
  float a = CLAMP (c->alpha, 0.f, 1.f);
  guint32 alpha = (guint32) (a * 255.f + .5f);
  guint32 red = (guint32) (CLAMP (c->red, 0.f, 1.f) * a * 255.f + .5f);
  guint32 green = (guint32) (CLAMP (c->green, 0.f, 1.f) * a * 255.f + .5f);
  guint32 blue = (guint32) (CLAMP (c->blue, 0.f, 1.f) * a * 255.f + .5f);

  /* Premultiplied; GDK_MEMORY_DEFAULT is 0xAARRGGBB in native byte order. */
  return (alpha << 24) | (red << 16) | (green << 8) | blue;
}

void
_sps_timeline_canvas_init (SpsTimelineCanvas *canvas,
                           int                width,
                           int                height,
                           int                scale)
{
  canvas->scale = MAX (scale, 1);
  canvas->width = MAX (width, 1) * canvas->scale;
  canvas->height = MAX (height, 1) * canvas->scale;
  canvas->pixels = g_malloc0_n ((gsize) canvas->width * canvas->height, sizeof (guint32));
}

/* A canvas one device pixel high, stretched over its row by the texture
 * node, of @width logical pixels at @scale device pixels each. */
void
_sps_timeline_canvas_init_strip (SpsTimelineCanvas *canvas,
                                 int                width,
                                 int                scale)
{
  canvas->scale = MAX (scale, 1);
  canvas->width = MAX (width, 1) * canvas->scale;
  canvas->height = 1;
  canvas->pixels = g_malloc0_n ((gsize) canvas->width + SPS_TIMELINE_STRIP_SLACK, sizeof (guint32));
}

/* Fills [x0, x1) × [y0, y1), in logical pixels, clipped. */
void
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

/* The canvas as a texture node covering @bounds; frees the canvas. */
GskRenderNode *
_sps_timeline_canvas_free_to_node (SpsTimelineCanvas     *canvas,
                                   const graphene_rect_t *bounds)
{
  gsize size = (gsize) canvas->width * canvas->height * sizeof (guint32);
  g_autoptr(GBytes) bytes = g_bytes_new_take (g_steal_pointer (&canvas->pixels), size);
  g_autoptr(GdkTexture) texture = gdk_memory_texture_new (canvas->width, canvas->height, GDK_MEMORY_DEFAULT,
                                                          bytes, canvas->width * sizeof (guint32));

  return gsk_texture_node_new (texture, bounds);
}

void
_sps_timeline_canvas_clear (SpsTimelineCanvas *canvas)
{
  g_clear_pointer (&canvas->pixels, g_free);
}

/* Copies a square of @size device pixels to column @left (device pixels)
 * of @canvas, which is as high as the square. Marks never overlap, so
 * there is nothing to blend. */
void
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

