/* sps-sql-builder.h: the SQL panel's visual query builder
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-gtk.h>

#include "sps-sql-schema.h"
#include "sps-sql-text.h"

G_BEGIN_DECLS

#define SPS_TYPE_SQL_BUILDER (sps_sql_builder_get_type ())

G_DECLARE_FINAL_TYPE (SpsSqlBuilder, sps_sql_builder, SPS, SQL_BUILDER, GtkWidget)

GtkWidget *sps_sql_builder_new           (SpsSqlSchema    *schema);
void       sps_sql_builder_refresh       (SpsSqlBuilder   *self);
gboolean   sps_sql_builder_set_table     (SpsSqlBuilder   *self,
                                          const char      *table);
gboolean   sps_sql_builder_add_filter    (SpsSqlBuilder   *self,
                                          const char      *column,
                                          SpsSqlOp         op,
                                          const char      *value);
gboolean   sps_sql_builder_set_group_by  (SpsSqlBuilder   *self,
                                          const char      *column);
gboolean   sps_sql_builder_add_aggregate (SpsSqlBuilder   *self,
                                          SpsSqlAggregate  function,
                                          const char      *column);
char      *sps_sql_builder_dup_sql       (SpsSqlBuilder   *self);

G_END_DECLS
