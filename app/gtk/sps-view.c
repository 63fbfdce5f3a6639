/* sps-view.c: the extension point for panels in the trace window
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-view"

#include "config.h"

#include <glib/gi18n-lib.h>

#include <spanscope-core.h>

#include "sps-view.h"

/**
 * SpsView:
 *
 * A view adds a panel to every trace window. Plugins implement it and
 * register the implementation with
 * `peas_object_module_register_extension_type (module, SPS_TYPE_VIEW, …)`;
 * the window creates one instance per window, asks for its title, icon and
 * preferred dock area, and calls [method@View.create_panel] once with the
 * window's [class@Session], when the panel's tab is first shown or once
 * the timeline has drawn the trace. The panel shows the session as it is
 * then and follows it by itself (notify::selected-slice,
 * notify::visible-start, …).
 *
 * get_title() and create_panel() are required; get_icon_name() defaults to
 * %NULL and get_area() to %SPS_VIEW_AREA_BOTTOM.
 */

G_DEFINE_INTERFACE (SpsView, sps_view, G_TYPE_OBJECT)

static const char *
sps_view_real_get_icon_name (SpsView *self)
{
  return NULL;
}

static SpsViewArea
sps_view_real_get_area (SpsView *self)
{
  return SPS_VIEW_AREA_BOTTOM;
}

static void
sps_view_default_init (SpsViewInterface *iface)
{
  iface->get_icon_name = sps_view_real_get_icon_name;
  iface->get_area = sps_view_real_get_area;
}

/**
 * sps_view_get_title:
 * @self: a #SpsView
 *
 * Returns: (transfer none): the translated title of the panel's tab
 */
const char *
sps_view_get_title (SpsView *self)
{
  SpsViewInterface *iface;

  g_return_val_if_fail (SPS_IS_VIEW (self), NULL);

  iface = SPS_VIEW_GET_IFACE (self);
  g_return_val_if_fail (iface->get_title != NULL, NULL);

  return iface->get_title (self);
}

/**
 * sps_view_get_icon_name:
 * @self: a #SpsView
 *
 * Returns: (transfer none) (nullable): a symbolic icon name, or %NULL
 */
const char *
sps_view_get_icon_name (SpsView *self)
{
  SpsViewInterface *iface;

  g_return_val_if_fail (SPS_IS_VIEW (self), NULL);

  iface = SPS_VIEW_GET_IFACE (self);
  if (iface->get_icon_name == NULL)
    return NULL;

  return iface->get_icon_name (self);
}

/**
 * sps_view_get_area:
 * @self: a #SpsView
 *
 * Returns: the dock area the panel prefers
 */
SpsViewArea
sps_view_get_area (SpsView *self)
{
  SpsViewInterface *iface;

  g_return_val_if_fail (SPS_IS_VIEW (self), SPS_VIEW_AREA_BOTTOM);

  iface = SPS_VIEW_GET_IFACE (self);
  if (iface->get_area == NULL)
    return SPS_VIEW_AREA_BOTTOM;

  return iface->get_area (self);
}

/**
 * sps_view_create_panel:
 * @self: a #SpsView
 * @session: the window's session
 *
 * Creates the panel widget showing @session. Called once per window.
 *
 * Returns: (transfer floating): the panel
 */
GtkWidget *
sps_view_create_panel (SpsView    *self,
                       SpsSession *session)
{
  SpsViewInterface *iface;
  GtkWidget *panel;

  g_return_val_if_fail (SPS_IS_VIEW (self), NULL);
  g_return_val_if_fail (SPS_IS_SESSION (session), NULL);

  iface = SPS_VIEW_GET_IFACE (self);
  g_return_val_if_fail (iface->create_panel != NULL, NULL);

  panel = iface->create_panel (self, session);

  /* A view that makes no panel is a broken plugin: it is recorded and
   * skipped rather than taking the window down. */
  if (!GTK_IS_WIDGET (panel))
    {
      g_autoptr(GError) error = NULL;

      if (panel != NULL && G_IS_OBJECT (panel))
        {
          g_object_ref_sink (panel);
          g_object_unref (panel);
        }
      error = g_error_new (G_IO_ERROR, G_IO_ERROR_FAILED,
                           /* Translators: %s is the type name of a view */
                           _("The %s view made no panel"), G_OBJECT_TYPE_NAME (self));
      if (!sps_plugin_engine_report_failure (self, "SpsView.create_panel", error))
        g_warning ("%s", error->message);
      return NULL;
    }

  return panel;
}
