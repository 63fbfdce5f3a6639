/* sps-sql.h: SQL over a trace through SQLite virtual tables
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_CORE_INSIDE) && !defined (SPANSCOPE_CORE_COMPILATION)
# error "Only <spanscope-core.h> can be included directly."
#endif

#include <gio/gio.h>

#include "sps-progress.h"
#include "sps-trace.h"
#include "sps-version-macros.h"

G_BEGIN_DECLS

#define SPS_SQL_ERROR (sps_sql_error_quark ())

/**
 * SpsSqlError:
 * @SPS_SQL_ERROR_SYNTAX: a statement could not be prepared (syntax error,
 *   unknown table, column or function); the message is SQLite's
 * @SPS_SQL_ERROR_SQLITE: SQLite failed while running a statement; the
 *   message is SQLite's
 * @SPS_SQL_ERROR_READ_ONLY: the statement writes to, drops or alters a
 *   trace table, attaches a database (`ATTACH`, `VACUUM INTO`) or makes the
 *   schema writable
 * @SPS_SQL_ERROR_INTERRUPTED: the query was cancelled
 * @SPS_SQL_ERROR_EMPTY: the text holds no statement
 *
 * Errors of #SpsSqlEngine.
 */
typedef enum
{
  SPS_SQL_ERROR_SYNTAX,
  SPS_SQL_ERROR_SQLITE,
  SPS_SQL_ERROR_READ_ONLY,
  SPS_SQL_ERROR_INTERRUPTED,
  SPS_SQL_ERROR_EMPTY,
} SpsSqlError;

SPS_AVAILABLE_IN_ALL
GQuark sps_sql_error_quark (void);

/**
 * SpsSqlType:
 * @SPS_SQL_TYPE_NULL: NULL (for a column: only NULLs, or no rows)
 * @SPS_SQL_TYPE_INTEGER: a 64-bit integer
 * @SPS_SQL_TYPE_REAL: a double
 * @SPS_SQL_TYPE_TEXT: UTF-8 text
 * @SPS_SQL_TYPE_BLOB: bytes
 * @SPS_SQL_TYPE_MIXED: (columns only) values of several kinds that are not
 *   all numbers
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

#define SPS_TYPE_SQL_ENGINE (sps_sql_engine_get_type ())

SPS_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (SpsSqlEngine, sps_sql_engine, SPS, SQL_ENGINE, GObject)

SPS_AVAILABLE_IN_ALL
SpsSqlEngine *sps_sql_engine_new                  (SpsTrace            *trace,
                                                   GError             **error);
SPS_AVAILABLE_IN_ALL
SpsTrace     *sps_sql_engine_get_trace            (SpsSqlEngine        *self);
SPS_AVAILABLE_IN_ALL
guint         sps_sql_engine_get_max_rows         (SpsSqlEngine        *self);
SPS_AVAILABLE_IN_ALL
void          sps_sql_engine_set_max_rows         (SpsSqlEngine        *self,
                                                   guint                max_rows);
SPS_AVAILABLE_IN_ALL
void          sps_sql_engine_set_slice_mask       (SpsSqlEngine        *self,
                                                   GBytes              *mask);
SPS_AVAILABLE_IN_ALL
SpsSqlResult *sps_sql_engine_query                (SpsSqlEngine        *self,
                                                   const char          *sql,
                                                   SpsProgress         *progress,
                                                   GCancellable        *cancellable,
                                                   GError             **error);
SPS_AVAILABLE_IN_ALL
void          sps_sql_engine_query_async          (SpsSqlEngine        *self,
                                                   const char          *sql,
                                                   SpsProgress         *progress,
                                                   GCancellable        *cancellable,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
SPS_AVAILABLE_IN_ALL
SpsSqlResult *sps_sql_engine_query_finish         (SpsSqlEngine        *self,
                                                   GAsyncResult        *result,
                                                   GError             **error);
SPS_AVAILABLE_IN_ALL
char        **sps_sql_engine_list_tables          (SpsSqlEngine        *self,
                                                   GError             **error);
SPS_AVAILABLE_IN_ALL
SpsSqlResult *sps_sql_engine_describe             (SpsSqlEngine        *self,
                                                   GCancellable        *cancellable,
                                                   GError             **error);
SPS_AVAILABLE_IN_ALL
void          sps_sql_engine_describe_async       (SpsSqlEngine        *self,
                                                   GCancellable        *cancellable,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
SPS_AVAILABLE_IN_ALL
SpsSqlResult *sps_sql_engine_describe_finish      (SpsSqlEngine        *self,
                                                   GAsyncResult        *result,
                                                   GError             **error);

G_END_DECLS
