/* sps-sql-tab.h: one query tab of the SQL panel: editor, error, results
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-gtk.h>

G_BEGIN_DECLS

#define SPS_TYPE_SQL_TAB (sps_sql_tab_get_type ())

G_DECLARE_FINAL_TYPE (SpsSqlTab, sps_sql_tab, SPS, SQL_TAB, GtkWidget)

SpsSqlTab      *sps_sql_tab_new         (SpsSession *session,
                                         const char *title,
                                         const char *text);
const char     *sps_sql_tab_get_title   (SpsSqlTab  *self);
void            sps_sql_tab_set_title   (SpsSqlTab  *self,
                                         const char *title);
char           *sps_sql_tab_dup_text    (SpsSqlTab  *self);
void            sps_sql_tab_set_text    (SpsSqlTab  *self,
                                         const char *text);
void            sps_sql_tab_insert_text (SpsSqlTab  *self,
                                         const char *text);
GtkTextBuffer  *sps_sql_tab_get_buffer  (SpsSqlTab  *self);
GtkWidget      *sps_sql_tab_get_editor  (SpsSqlTab  *self);
SpsResultTable *sps_sql_tab_get_table   (SpsSqlTab  *self);
const char     *sps_sql_tab_get_error   (SpsSqlTab  *self);
gboolean        sps_sql_tab_get_running (SpsSqlTab  *self);
void            sps_sql_tab_run         (SpsSqlTab  *self);
void            sps_sql_tab_cancel      (SpsSqlTab  *self);

G_END_DECLS
