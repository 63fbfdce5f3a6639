/* sps-screenshot.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

GdkTexture *sps_screenshot_render (GtkWidget   *widget,
                                   GError     **error);
gboolean    sps_screenshot_save   (GtkWidget   *widget,
                                   const char  *path,
                                   GError     **error);
GdkTexture *sps_screenshot_render_area (GtkWidget   *widget,
                                        int          area_width,
                                        int          area_height,
                                        GError     **error);
gboolean    sps_screenshot_save_area   (GtkWidget   *widget,
                                        int          area_width,
                                        int          area_height,
                                        const char  *path,
                                        GError     **error);

G_END_DECLS
