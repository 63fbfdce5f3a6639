/* sps-sql-view.c: the view that docks the SQL panel: query editor tabs, results, schema and query builder
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-sql-view"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-sql-panel.h"
#include "sps-sql-view.h"

struct _SpsSqlView
{
  GObject parent_instance;
};

static void view_iface_init (SpsViewInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SpsSqlView, sps_sql_view, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SPS_TYPE_VIEW, view_iface_init))

static const char *
sps_sql_view_get_title (SpsView *view)
{
  return _("SQL");
}

static const char *
sps_sql_view_get_icon_name (SpsView *view)
{
  return "utilities-terminal-symbolic";
}

static SpsViewArea
sps_sql_view_get_area (SpsView *view)
{
  return SPS_VIEW_AREA_BOTTOM;
}

static GtkWidget *
sps_sql_view_create_panel (SpsView    *view,
                         SpsSession *session)
{
  g_assert (SPS_IS_SQL_VIEW (view));
  g_assert (SPS_IS_SESSION (session));

  return sps_sql_panel_new (session);
}

static void
view_iface_init (SpsViewInterface *iface)
{
  iface->get_title = sps_sql_view_get_title;
  iface->get_icon_name = sps_sql_view_get_icon_name;
  iface->get_area = sps_sql_view_get_area;
  iface->create_panel = sps_sql_view_create_panel;
}

static void
sps_sql_view_class_init (SpsSqlViewClass *klass)
{
}

static void
sps_sql_view_init (SpsSqlView *self)
{
}
