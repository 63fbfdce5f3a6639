/* sps-search-panel.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-gtk.h>

G_BEGIN_DECLS

#define SPS_TYPE_SEARCH_PANEL (sps_search_panel_get_type ())

G_DECLARE_FINAL_TYPE (SpsSearchPanel, sps_search_panel, SPS, SEARCH_PANEL, GtkWidget)

GtkWidget       *sps_search_panel_new        (SpsSession     *session);
void             sps_search_panel_focus      (SpsSearchPanel *self);
gboolean         sps_search_panel_is_busy    (SpsSearchPanel *self);
SpsSearchResult *sps_search_panel_get_result (SpsSearchPanel *self);
gboolean         sps_search_panel_step       (SpsSearchPanel *self,
                                              int             direction);

G_END_DECLS
