/* sps-flamegraph-view.c: the flame graph view plugin's SpsView
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-flamegraph"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-flamegraph-panel.h"
#include "sps-flamegraph-view.h"

struct _SpsFlamegraphView
{
  GObject parent_instance;
};

static void view_iface_init (SpsViewInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SpsFlamegraphView, sps_flamegraph_view, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SPS_TYPE_VIEW, view_iface_init))

static const char *
sps_flamegraph_view_get_title (SpsView *view)
{
  return _("Flame Graph");
}

static const char *
sps_flamegraph_view_get_icon_name (SpsView *view)
{
  return "view-continuous-symbolic";
}

static SpsViewArea
sps_flamegraph_view_get_area (SpsView *view)
{
  return SPS_VIEW_AREA_BOTTOM;
}

static GtkWidget *
sps_flamegraph_view_create_panel (SpsView    *view,
                                  SpsSession *session)
{
  g_assert (SPS_IS_FLAMEGRAPH_VIEW (view));
  g_assert (SPS_IS_SESSION (session));

  return sps_flamegraph_panel_new (session);
}

static void
view_iface_init (SpsViewInterface *iface)
{
  iface->get_title = sps_flamegraph_view_get_title;
  iface->get_icon_name = sps_flamegraph_view_get_icon_name;
  iface->get_area = sps_flamegraph_view_get_area;
  iface->create_panel = sps_flamegraph_view_create_panel;
}

static void
sps_flamegraph_view_class_init (SpsFlamegraphViewClass *klass)
{
}

static void
sps_flamegraph_view_init (SpsFlamegraphView *self)
{
}
