/* sps-plugins-page.h: the plugin manager, the Preferences' Plugins page
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>
#include <spanscope-core.h>

G_BEGIN_DECLS

#define SPS_TYPE_PLUGINS_PAGE (sps_plugins_page_get_type ())

G_DECLARE_FINAL_TYPE (SpsPluginsPage, sps_plugins_page, SPS, PLUGINS_PAGE, GtkWidget)

GtkWidget *sps_plugins_page_new (SpsPluginEngine *engine);

G_END_DECLS
