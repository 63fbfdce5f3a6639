/* sps-source-panel.h: the source file of the selected item, its line marked
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtksourceview/gtksource.h>
#include <spanscope-gtk.h>

G_BEGIN_DECLS

#define SPS_TYPE_SOURCE_PANEL (sps_source_panel_get_type ())

G_DECLARE_FINAL_TYPE (SpsSourcePanel, sps_source_panel, SPS, SOURCE_PANEL, GtkWidget)

/* The mark category of the location's line */
#define SPS_SOURCE_PANEL_LINE_MARK "sps-source-line"

GtkWidget       *sps_source_panel_new          (SpsSession     *session);
GtkSourceBuffer *sps_source_panel_get_buffer   (SpsSourcePanel *self);
GtkSourceView   *sps_source_panel_get_view     (SpsSourcePanel *self);
const char      *sps_source_panel_get_path     (SpsSourcePanel *self);
guint            sps_source_panel_get_line     (SpsSourcePanel *self);
gboolean         sps_source_panel_is_busy      (SpsSourcePanel *self);
GPtrArray       *sps_source_panel_get_tried    (SpsSourcePanel *self);

G_END_DECLS
