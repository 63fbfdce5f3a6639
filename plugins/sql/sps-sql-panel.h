/* sps-sql-panel.h: the SQL panel: query tabs, schema inspector, builder
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-gtk.h>

#include "sps-sql-builder.h"
#include "sps-sql-schema.h"
#include "sps-sql-tab.h"

G_BEGIN_DECLS

#define SPS_TYPE_SQL_PANEL (sps_sql_panel_get_type ())

G_DECLARE_FINAL_TYPE (SpsSqlPanel, sps_sql_panel, SPS, SQL_PANEL, GtkWidget)

GtkWidget     *sps_sql_panel_new             (SpsSession  *session);
guint          sps_sql_panel_get_n_tabs      (SpsSqlPanel *self);
SpsSqlTab     *sps_sql_panel_get_tab         (SpsSqlPanel *self,
                                              guint        index);
SpsSqlTab     *sps_sql_panel_get_current_tab (SpsSqlPanel *self);
void           sps_sql_panel_set_current_tab (SpsSqlPanel *self,
                                              guint        index);
SpsSqlTab     *sps_sql_panel_add_tab         (SpsSqlPanel *self,
                                              const char  *title,
                                              const char  *text);
void           sps_sql_panel_close_tab       (SpsSqlPanel *self,
                                              SpsSqlTab   *tab);
SpsSqlSchema  *sps_sql_panel_get_schema      (SpsSqlPanel *self);
SpsSqlBuilder *sps_sql_panel_get_builder     (SpsSqlPanel *self);
void           sps_sql_panel_save            (SpsSqlPanel *self);

G_END_DECLS
