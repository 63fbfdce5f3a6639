/* sps-test-ui.h: helpers shared by the UI test programs (under Xvfb)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include <spanscope-gtk.h>

G_BEGIN_DECLS

void        sps_test_wait_until       (gboolean      (*done) (gpointer),
                                       gpointer        data);
void        sps_test_spin             (guint           ms);

GtkWidget  *sps_test_find_widget      (GtkWidget      *root,
                                       gboolean      (*match) (GtkWidget *, gconstpointer),
                                       gconstpointer   data);
GtkWidget  *sps_test_find_named       (GtkWidget      *root,
                                       const char     *name);
GtkWidget  *sps_test_find_descendant  (GtkWidget      *root,
                                       GType           type);
GtkWidget  *sps_test_find_type_name   (GtkWidget      *root,
                                       const char     *type_name);
GtkWidget  *sps_test_find_label       (GtkWidget      *root,
                                       const char     *text);
const char *sps_test_label_text       (GtkWidget      *root,
                                       const char     *name);

GdkTexture *sps_test_render           (GtkWidget      *widget,
                                       int             width,
                                       int             height);
GdkTexture *sps_test_save_screenshot  (GtkWidget      *widget,
                                       const char     *path);
void        sps_test_maybe_screenshot (GtkWidget      *window,
                                       const char     *name);
guint32     sps_test_pixel_at         (GdkTexture     *texture,
                                       int             x,
                                       int             y);
guint32     sps_test_rgb_of           (const GdkRGBA  *rgba);

GtkEventController *sps_test_find_controller (GtkWidget *widget,
                                              GType      type,
                                              guint      button);
GdkTexture *sps_test_redraw           (GtkWidget      *window,
                                       GtkWidget      *widget,
                                       int             width,
                                       int             height);
GtkWidget  *sps_test_present_timeline (SpsSession     *session,
                                       int             width,
                                       int             height,
                                       GtkWidget     **timeline);

void        sps_test_bind_locale      (void);

G_END_DECLS
