/* sps-diagnostics-panel.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-gtk.h>

G_BEGIN_DECLS

#define SPS_TYPE_DIAGNOSTICS_PANEL (sps_diagnostics_panel_get_type ())

G_DECLARE_FINAL_TYPE (SpsDiagnosticsPanel, sps_diagnostics_panel, SPS, DIAGNOSTICS_PANEL, GtkWidget)

GtkWidget *sps_diagnostics_panel_new        (SpsTimeline         *timeline);
void       sps_diagnostics_panel_update     (SpsDiagnosticsPanel *self);
guint64    sps_diagnostics_panel_get_frames (SpsDiagnosticsPanel *self);

guint64    sps_diagnostics_read_rss         (void);
char      *sps_diagnostics_format_rss       (guint64              bytes);

G_END_DECLS
