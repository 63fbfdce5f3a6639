/* sps-screenshot.c: rendering a realized widget to an image
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-screenshot"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <spanscope-core.h>

#include "sps-screenshot.h"

/**
 * sps_screenshot_render:
 * @widget: a realized widget, usually a window
 * @error: return location for a #GError
 *
 * Draws @widget as it is allocated now into a texture, with the renderer
 * of its native surface, so the result looks like the screen does
 * (GTK 4.8 has no gtk_widget_snapshot(): a widget paintable stands in).
 *
 * Returns: (transfer full): the texture, of the widget's size, or %NULL
 *   with @error set when the widget has nothing to draw yet
 */
GdkTexture *
sps_screenshot_render (GtkWidget  *widget,
                       GError    **error)
{
  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);

  return sps_screenshot_render_area (widget, gtk_widget_get_width (widget), gtk_widget_get_height (widget), error);
}

/**
 * sps_screenshot_render_area:
 * @widget: a realized widget, usually a window
 * @area_width: the width of the image
 * @area_height: its height
 * @error: return location for a #GError
 *
 * Like sps_screenshot_render(), for an image of exactly @area_width ×
 * @area_height: the top-left part of a larger widget, or the widget on
 * a transparent background when it is smaller.
 *
 * Returns: (transfer full): the texture, or %NULL with @error set when
 *   the widget has nothing to draw yet
 */
GdkTexture *
sps_screenshot_render_area (GtkWidget  *widget,
                            int         area_width,
                            int         area_height,
                            GError    **error)
{
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  GtkSnapshot *snapshot;
  GskRenderer *renderer;
  GtkNative *native;
  int width;
  int height;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  width = gtk_widget_get_width (widget);
  height = gtk_widget_get_height (widget);
  native = gtk_widget_get_native (widget);

  if (native == NULL || !gtk_widget_get_realized (GTK_WIDGET (native)) ||
      width <= 0 || height <= 0 || area_width <= 0 || area_height <= 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                           _("The window is not shown yet"));
      return NULL;
    }

  renderer = gtk_native_get_renderer (native);
  paintable = gtk_widget_paintable_new (widget);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_free_to_node (snapshot);

  if (node == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                           _("The window has drawn nothing yet"));
      return NULL;
    }

  return gsk_renderer_render_texture (renderer, node,
                                      &GRAPHENE_RECT_INIT (0, 0, area_width, area_height));
}

/**
 * sps_screenshot_save:
 * @widget: a realized widget, usually a window
 * @path: where to write the PNG file
 * @error: return location for a #GError
 *
 * Renders @widget with sps_screenshot_render() and writes it to @path as
 * a PNG image.
 *
 * Returns: %TRUE on success
 */
gboolean
sps_screenshot_save (GtkWidget   *widget,
                     const char  *path,
                     GError     **error)
{
  g_return_val_if_fail (GTK_IS_WIDGET (widget), FALSE);

  return sps_screenshot_save_area (widget, gtk_widget_get_width (widget), gtk_widget_get_height (widget),
                                   path, error);
}

/**
 * sps_screenshot_save_area:
 * @widget: a realized widget, usually a window
 * @area_width: the width of the image
 * @area_height: its height
 * @path: where to write the PNG file
 * @error: return location for a #GError
 *
 * Renders @widget with sps_screenshot_render_area() and writes it to
 * @path as a PNG image.
 *
 * Returns: %TRUE on success
 */
gboolean
sps_screenshot_save_area (GtkWidget   *widget,
                          int          area_width,
                          int          area_height,
                          const char  *path,
                          GError     **error)
{
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GBytes) png = NULL;
  g_autoptr(GFile) file = NULL;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!(texture = sps_screenshot_render_area (widget, area_width, area_height, error)))
    return FALSE;

  /* Written as every save is (sps_file_replace()): whole or not at all,
   * never into a FIFO or a device, and with the reason when it fails */
  png = gdk_texture_save_to_png_bytes (texture);
  file = g_file_new_for_path (path);

  return sps_file_replace_contents (file, png, NULL, error);
}
