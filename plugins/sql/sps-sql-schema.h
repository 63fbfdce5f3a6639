/* sps-sql-schema.h: the SQL panel's schema inspector, tables ▸ columns
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-gtk.h>

G_BEGIN_DECLS

#define SPS_TYPE_SQL_SCHEMA (sps_sql_schema_get_type ())

G_DECLARE_FINAL_TYPE (SpsSqlSchema, sps_sql_schema, SPS, SQL_SCHEMA, GtkWidget)

GtkWidget  *sps_sql_schema_new              (void);
void        sps_sql_schema_set_description  (SpsSqlSchema *self,
                                             SpsSqlResult *description);
guint       sps_sql_schema_get_n_tables     (SpsSqlSchema *self);
const char *sps_sql_schema_get_table        (SpsSqlSchema *self,
                                             guint         table);
GStrv       sps_sql_schema_dup_columns      (SpsSqlSchema *self,
                                             const char   *table);
const char *sps_sql_schema_get_column_type  (SpsSqlSchema *self,
                                             const char   *table,
                                             const char   *column);

G_END_DECLS
