/* sps-detail-panel.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_GTK_INSIDE) && !defined (SPANSCOPE_GTK_COMPILATION)
# error "Only <spanscope-gtk.h> can be included directly."
#endif

#include <gtk/gtk.h>

#include "sps-gtk-version-macros.h"
#include "sps-session.h"

G_BEGIN_DECLS

#define SPS_TYPE_DETAIL_PANEL (sps_detail_panel_get_type ())

SPS_GTK_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (SpsDetailPanel, sps_detail_panel, SPS, DETAIL_PANEL, GtkWidget)

/* Shows the session's selection: a slice's name, category, start,
 * duration, self time, thread, and the tabs "Call stack", "Children",
 * "Arguments"; the fields of an event, instant, sample or stack chart
 * box. */
SPS_GTK_AVAILABLE_IN_ALL
GtkWidget  *sps_detail_panel_new         (SpsSession     *session);
SPS_GTK_AVAILABLE_IN_ALL
SpsSession *sps_detail_panel_get_session (SpsDetailPanel *self);

G_END_DECLS
