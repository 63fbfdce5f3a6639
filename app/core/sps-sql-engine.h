/* sps-sql-engine.h: SQL over a trace through SQLite virtual tables
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_CORE_INSIDE) && !defined (SPANSCOPE_CORE_COMPILATION)
# error "Only <spanscope-core.h> can be included directly."
#endif

#include <gio/gio.h>

#include "sps-progress.h"
#include "sps-sql-result.h"
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
 * SpsSqlRowsFunc:
 * @rows: the new rows, with the statement's columns
 * @first_row: the index of the first of @rows in the statement's result;
 *   0 starts the rows of a new statement
 * @user_data: the data given with the function
 *
 * Receives the rows of a running query in batches, on the main context of
 * the thread that started it (see sps_sql_engine_query_stream_async()).
 */
typedef void (*SpsSqlRowsFunc) (SpsSqlResult *rows,
                                guint         first_row,
                                gpointer      user_data);

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
void          sps_sql_engine_query_stream_async   (SpsSqlEngine        *self,
                                                   const char          *sql,
                                                   SpsProgress         *progress,
                                                   GCancellable        *cancellable,
                                                   SpsSqlRowsFunc       rows_func,
                                                   gpointer             rows_data,
                                                   GDestroyNotify       rows_destroy,
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
