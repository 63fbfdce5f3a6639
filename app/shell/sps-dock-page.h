/* sps-dock-page.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SPS_TYPE_DOCK_PAGE (sps_dock_page_get_type ())

G_DECLARE_FINAL_TYPE (SpsDockPage, sps_dock_page, SPS, DOCK_PAGE, GtkWidget)

/**
 * SpsDockPageFunc:
 * @page: the page to fill
 * @user_data: the data given to sps_dock_page_new()
 *
 * Makes the page's panel.
 *
 * Returns: (transfer floating) (nullable): the panel, or %NULL when
 *   there is none to show
 */
typedef GtkWidget *(*SpsDockPageFunc) (SpsDockPage *page,
                                       gpointer     user_data);

GtkWidget *sps_dock_page_new        (SpsDockPageFunc  func,
                                     gpointer         user_data,
                                     GDestroyNotify   destroy);
GtkWidget *sps_dock_page_fill       (SpsDockPage     *self);
void       sps_dock_page_cancel     (SpsDockPage     *self);
gboolean   sps_dock_page_get_filled (SpsDockPage     *self);

G_END_DECLS
