/* sps-stats-view.c: the view that docks the statistics panel: per-name (or per-thread) totals of the trace or of the range
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-stats-view"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-stats-panel.h"
#include "sps-stats-view.h"

struct _SpsStatsView
{
  GObject parent_instance;
};

static void view_iface_init (SpsViewInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SpsStatsView, sps_stats_view, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SPS_TYPE_VIEW, view_iface_init))

static const char *
sps_stats_view_get_title (SpsView *view)
{
  return _("Statistics");
}

static const char *
sps_stats_view_get_icon_name (SpsView *view)
{
  return "x-office-spreadsheet-symbolic";
}

static SpsViewArea
sps_stats_view_get_area (SpsView *view)
{
  return SPS_VIEW_AREA_BOTTOM;
}

static GtkWidget *
sps_stats_view_create_panel (SpsView    *view,
                           SpsSession *session)
{
  g_assert (SPS_IS_STATS_VIEW (view));
  g_assert (SPS_IS_SESSION (session));

  return sps_stats_panel_new (session);
}

static void
view_iface_init (SpsViewInterface *iface)
{
  iface->get_title = sps_stats_view_get_title;
  iface->get_icon_name = sps_stats_view_get_icon_name;
  iface->get_area = sps_stats_view_get_area;
  iface->create_panel = sps_stats_view_create_panel;
}

static void
sps_stats_view_class_init (SpsStatsViewClass *klass)
{
}

static void
sps_stats_view_init (SpsStatsView *self)
{
}
