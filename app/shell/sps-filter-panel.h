/* sps-filter-panel.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-gtk.h>

G_BEGIN_DECLS

#define SPS_TYPE_FILTER_PANEL (sps_filter_panel_get_type ())

G_DECLARE_FINAL_TYPE (SpsFilterPanel, sps_filter_panel, SPS, FILTER_PANEL, GtkWidget)

GtkWidget *sps_filter_panel_new (SpsSession *session);

G_END_DECLS
