/* sps-memory-view.c: the view that docks the Memory panel: allocations outstanding at a time
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-memory-view"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-memory-panel.h"
#include "sps-memory-view.h"

struct _SpsMemoryView
{
  GObject parent_instance;
};

static void view_iface_init (SpsViewInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SpsMemoryView, sps_memory_view, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SPS_TYPE_VIEW, view_iface_init))

static const char *
sps_memory_view_get_title (SpsView *view)
{
  return _("Memory");
}

static const char *
sps_memory_view_get_icon_name (SpsView *view)
{
  return "drive-harddisk-symbolic";
}

static SpsViewArea
sps_memory_view_get_area (SpsView *view)
{
  return SPS_VIEW_AREA_BOTTOM;
}

static GtkWidget *
sps_memory_view_create_panel (SpsView    *view,
                           SpsSession *session)
{
  g_assert (SPS_IS_MEMORY_VIEW (view));
  g_assert (SPS_IS_SESSION (session));

  return sps_memory_panel_new (session);
}

static void
view_iface_init (SpsViewInterface *iface)
{
  iface->get_title = sps_memory_view_get_title;
  iface->get_icon_name = sps_memory_view_get_icon_name;
  iface->get_area = sps_memory_view_get_area;
  iface->create_panel = sps_memory_view_create_panel;
}

static void
sps_memory_view_class_init (SpsMemoryViewClass *klass)
{
}

static void
sps_memory_view_init (SpsMemoryView *self)
{
}
