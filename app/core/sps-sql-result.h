/* sps-sql-result.h: the rows a query returned, with their types
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_CORE_INSIDE) && !defined (SPANSCOPE_CORE_COMPILATION)
# error "Only <spanscope-core.h> can be included directly."
#endif

#include <gio/gio.h>

#include "sps-version-macros.h"

G_BEGIN_DECLS

/**
 * SpsSqlType:
 * @SPS_SQL_TYPE_NULL: NULL (for a column: only NULLs, or no rows)
 * @SPS_SQL_TYPE_INTEGER: a 64-bit integer
 * @SPS_SQL_TYPE_REAL: a double
 * @SPS_SQL_TYPE_TEXT: UTF-8 text
 * @SPS_SQL_TYPE_BLOB: bytes
 * @SPS_SQL_TYPE_MIXED: values of several kinds that are not all numbers
 *   (for a column only)
 *
 * The kind of a value, or the kind observed in a column of a result: a
 * column whose values are integers and reals is %SPS_SQL_TYPE_REAL, NULLs do
 * not count.
 */
typedef enum
{
  SPS_SQL_TYPE_NULL,
  SPS_SQL_TYPE_INTEGER,
  SPS_SQL_TYPE_REAL,
  SPS_SQL_TYPE_TEXT,
  SPS_SQL_TYPE_BLOB,
  SPS_SQL_TYPE_MIXED,
} SpsSqlType;

#define SPS_TYPE_SQL_RESULT (sps_sql_result_get_type ())

SPS_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (SpsSqlResult, sps_sql_result, SPS, SQL_RESULT, GObject)

SPS_AVAILABLE_IN_ALL
guint         sps_sql_result_get_n_columns        (SpsSqlResult  *self);
SPS_AVAILABLE_IN_ALL
const char   *sps_sql_result_get_column_name      (SpsSqlResult  *self,
                                                   guint          column);
SPS_AVAILABLE_IN_ALL
const char   *sps_sql_result_get_column_decltype  (SpsSqlResult  *self,
                                                   guint          column);
SPS_AVAILABLE_IN_ALL
SpsSqlType    sps_sql_result_get_column_type      (SpsSqlResult  *self,
                                                   guint          column);
SPS_AVAILABLE_IN_ALL
guint         sps_sql_result_get_n_rows           (SpsSqlResult  *self);
SPS_AVAILABLE_IN_ALL
gboolean      sps_sql_result_get_truncated        (SpsSqlResult  *self);
SPS_AVAILABLE_IN_ALL
gint64        sps_sql_result_get_elapsed_ns       (SpsSqlResult  *self);
SPS_AVAILABLE_IN_ALL
SpsSqlType    sps_sql_result_get_value_type       (SpsSqlResult  *self,
                                                   guint          row,
                                                   guint          column);
SPS_AVAILABLE_IN_ALL
gboolean      sps_sql_result_is_null              (SpsSqlResult  *self,
                                                   guint          row,
                                                   guint          column);
SPS_AVAILABLE_IN_ALL
gint64        sps_sql_result_get_int64            (SpsSqlResult  *self,
                                                   guint          row,
                                                   guint          column);
SPS_AVAILABLE_IN_ALL
double        sps_sql_result_get_double           (SpsSqlResult  *self,
                                                   guint          row,
                                                   guint          column);
SPS_AVAILABLE_IN_ALL
const char   *sps_sql_result_get_text             (SpsSqlResult  *self,
                                                   guint          row,
                                                   guint          column);
SPS_AVAILABLE_IN_ALL
gconstpointer sps_sql_result_get_blob             (SpsSqlResult  *self,
                                                   guint          row,
                                                   guint          column,
                                                   gsize         *len);
SPS_AVAILABLE_IN_ALL
char         *sps_sql_result_dup_display_text     (SpsSqlResult  *self,
                                                   guint          row,
                                                   guint          column);
SPS_AVAILABLE_IN_ALL
gboolean      sps_sql_result_write_csv            (SpsSqlResult  *self,
                                                   GOutputStream *stream,
                                                   char           separator,
                                                   GCancellable  *cancellable,
                                                   GError       **error);

G_END_DECLS
