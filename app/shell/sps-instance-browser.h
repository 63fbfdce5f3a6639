/* sps-instance-browser.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-gtk.h>

G_BEGIN_DECLS

#define SPS_TYPE_INSTANCE_BROWSER (sps_instance_browser_get_type ())

G_DECLARE_FINAL_TYPE (SpsInstanceBrowser, sps_instance_browser, SPS, INSTANCE_BROWSER, GtkWidget)

GtkWidget *sps_instance_browser_new             (SpsSession         *session);
guint      sps_instance_browser_get_n_instances (SpsInstanceBrowser *self);
gboolean   sps_instance_browser_step            (SpsInstanceBrowser *self,
                                                 int                 direction);

G_END_DECLS
