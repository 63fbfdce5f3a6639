/* sps-view.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_GTK_INSIDE) && !defined (SPANSCOPE_GTK_COMPILATION)
# error "Only <spanscope-gtk.h> can be included directly."
#endif

#include <gtk/gtk.h>

#include "sps-gtk-version-macros.h"
#include "sps-session.h"

G_BEGIN_DECLS

/**
 * SpsViewArea:
 * @SPS_VIEW_AREA_BOTTOM: the bottom dock, below the timeline
 * @SPS_VIEW_AREA_SIDE: the side dock, right of the timeline
 *
 * Where a view's panel prefers to be docked.
 */
typedef enum
{
  SPS_VIEW_AREA_BOTTOM,
  SPS_VIEW_AREA_SIDE,
} SpsViewArea;

#define SPS_TYPE_VIEW (sps_view_get_type ())

SPS_GTK_AVAILABLE_IN_ALL
G_DECLARE_INTERFACE (SpsView, sps_view, SPS, VIEW, GObject)

/**
 * SpsViewInterface:
 * @get_title: a short translated title for the panel's tab
 * @get_icon_name: a symbolic icon name, or %NULL
 * @get_area: the preferred dock area
 * @create_panel: creates the panel widget for @session. Called once per
 *   window; the panel follows the session's signals itself.
 *
 * A view plugin adds a panel to each trace window.
 */
struct _SpsViewInterface
{
  GTypeInterface parent_iface;

  const char *(*get_title)     (SpsView    *self);
  const char *(*get_icon_name) (SpsView    *self);
  SpsViewArea (*get_area)      (SpsView    *self);
  GtkWidget  *(*create_panel)  (SpsView    *self,
                                SpsSession *session);
};

SPS_GTK_AVAILABLE_IN_ALL
const char *sps_view_get_title     (SpsView    *self);
SPS_GTK_AVAILABLE_IN_ALL
const char *sps_view_get_icon_name (SpsView    *self);
SPS_GTK_AVAILABLE_IN_ALL
SpsViewArea sps_view_get_area      (SpsView    *self);
SPS_GTK_AVAILABLE_IN_ALL
GtkWidget  *sps_view_create_panel  (SpsView    *self,
                                    SpsSession *session);

G_END_DECLS
