/* sps-detail-view.c: the built-in view that docks the detail panel
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-detail-view"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-detail-panel.h"
#include "sps-detail-view.h"

/**
 * SpsDetailView:
 *
 * The built-in [iface@View] and the example of the interface: it docks an
 * [class@DetailPanel] at the bottom of the window. A view plugin has the
 * same shape, registered from its module instead of created by the window.
 */
struct _SpsDetailView
{
  GObject parent_instance;
};

static void view_iface_init (SpsViewInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SpsDetailView, sps_detail_view, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SPS_TYPE_VIEW, view_iface_init))

static const char *
sps_detail_view_get_title (SpsView *view)
{
  return _("Details");
}

static const char *
sps_detail_view_get_icon_name (SpsView *view)
{
  return "dialog-information-symbolic";
}

static SpsViewArea
sps_detail_view_get_area (SpsView *view)
{
  return SPS_VIEW_AREA_BOTTOM;
}

static GtkWidget *
sps_detail_view_create_panel (SpsView    *view,
                              SpsSession *session)
{
  g_assert (SPS_IS_DETAIL_VIEW (view));
  g_assert (SPS_IS_SESSION (session));

  return sps_detail_panel_new (session);
}

static void
view_iface_init (SpsViewInterface *iface)
{
  iface->get_title = sps_detail_view_get_title;
  iface->get_icon_name = sps_detail_view_get_icon_name;
  iface->get_area = sps_detail_view_get_area;
  iface->create_panel = sps_detail_view_create_panel;
}

static void
sps_detail_view_class_init (SpsDetailViewClass *klass)
{
}

static void
sps_detail_view_init (SpsDetailView *self)
{
}

/**
 * sps_detail_view_new:
 *
 * Returns: (transfer full): the built-in details view
 */
SpsView *
sps_detail_view_new (void)
{
  return g_object_new (SPS_TYPE_DETAIL_VIEW, NULL);
}
