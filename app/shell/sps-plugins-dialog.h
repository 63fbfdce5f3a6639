/* sps-plugins-dialog.h: the plugins found, and why any failed
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>
#include <spanscope-core.h>

G_BEGIN_DECLS

#define SPS_TYPE_PLUGINS_DIALOG (sps_plugins_dialog_get_type ())

G_DECLARE_FINAL_TYPE (SpsPluginsDialog, sps_plugins_dialog, SPS, PLUGINS_DIALOG, GtkWindow)

SpsPluginsDialog *sps_plugins_dialog_new (GtkWindow       *parent,
                                          SpsPluginEngine *engine);

G_END_DECLS
