/* sps-stats-panel.h: per-name (or per-thread) statistics of the trace or
 * of the selected range
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-gtk.h>

G_BEGIN_DECLS

#define SPS_TYPE_STATS_PANEL (sps_stats_panel_get_type ())

G_DECLARE_FINAL_TYPE (SpsStatsPanel, sps_stats_panel, SPS, STATS_PANEL, GtkWidget)

GtkWidget      *sps_stats_panel_new           (SpsSession    *session);
SpsResultTable *sps_stats_panel_get_table     (SpsStatsPanel *self);
gboolean        sps_stats_panel_get_by_thread (SpsStatsPanel *self);
void            sps_stats_panel_set_by_thread (SpsStatsPanel *self,
                                               gboolean       by_thread);
gboolean        sps_stats_panel_get_busy      (SpsStatsPanel *self);
void            sps_stats_panel_refresh       (SpsStatsPanel *self);
const char     *sps_stats_panel_get_error     (SpsStatsPanel *self);

G_END_DECLS
