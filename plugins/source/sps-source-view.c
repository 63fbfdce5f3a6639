/* sps-stats-view.c: the view that docks the source viewer: the selected item's source file, its line marked
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-source-view"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-source-panel.h"
#include "sps-source-view.h"

struct _SpsSourceView
{
  GObject parent_instance;
};

static void view_iface_init (SpsViewInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SpsSourceView, sps_source_view, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SPS_TYPE_VIEW, view_iface_init))

static const char *
sps_source_view_get_title (SpsView *view)
{
  return _("Source");
}

static const char *
sps_source_view_get_icon_name (SpsView *view)
{
  return "text-x-generic-symbolic";
}

static SpsViewArea
sps_source_view_get_area (SpsView *view)
{
  return SPS_VIEW_AREA_BOTTOM;
}

static GtkWidget *
sps_source_view_create_panel (SpsView    *view,
                            SpsSession *session)
{
  g_assert (SPS_IS_SOURCE_VIEW (view));
  g_assert (SPS_IS_SESSION (session));

  return sps_source_panel_new (session);
}

static void
view_iface_init (SpsViewInterface *iface)
{
  iface->get_title = sps_source_view_get_title;
  iface->get_icon_name = sps_source_view_get_icon_name;
  iface->get_area = sps_source_view_get_area;
  iface->create_panel = sps_source_view_create_panel;
}

static void
sps_source_view_class_init (SpsSourceViewClass *klass)
{
}

static void
sps_source_view_init (SpsSourceView *self)
{
}
