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

