/* sps-flamegraph-panel.h: the flame graph panel of a trace window
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-gtk.h>

G_BEGIN_DECLS

#define SPS_TYPE_FLAMEGRAPH_PANEL (sps_flamegraph_panel_get_type ())

G_DECLARE_FINAL_TYPE (SpsFlamegraphPanel, sps_flamegraph_panel, SPS, FLAMEGRAPH_PANEL, GtkBox)

GtkWidget *sps_flamegraph_panel_new (SpsSession *session);

G_END_DECLS
