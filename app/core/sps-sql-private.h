/* sps-sql-private.h: what the SQL engine, its results and its virtual
 * tables share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <sqlite3.h>

#include "sps-sql-engine.h"

G_BEGIN_DECLS

typedef struct _SpsSqlVtabContext SpsSqlVtabContext;
typedef struct _SpsSqlStream SpsSqlStream;

/* Results, filled row by row by the engine's worker */
SpsSqlResult      *_sps_sql_result_new              (sqlite3_stmt      *stmt);
void               _sps_sql_result_append_row       (SpsSqlResult      *self,
                                                     sqlite3_stmt      *stmt);
SpsSqlResult      *_sps_sql_result_copy_rows        (SpsSqlResult      *self,
                                                     guint              first,
                                                     guint              n);
void               _sps_sql_result_set_truncated    (SpsSqlResult      *self,
                                                     gboolean           truncated);
void               _sps_sql_result_set_elapsed_ns   (SpsSqlResult      *self,
                                                     gint64             elapsed_ns);
/* Results computed without SQL (the native statistics) */
SpsSqlResult      *_sps_sql_result_new_columns      (const char * const *names);
void               _sps_sql_result_push_int64       (SpsSqlResult      *self,
                                                     gint64             value);
void               _sps_sql_result_push_double      (SpsSqlResult      *self,
                                                     double             value);
void               _sps_sql_result_push_text        (SpsSqlResult      *self,
                                                     const char        *text,
                                                     gsize              len);
void               _sps_sql_result_push_null        (SpsSqlResult      *self);
void               _sps_sql_result_end_row          (SpsSqlResult      *self);

/* The engine's runner, shared with its schema description */
SpsSqlResult      *_sps_sql_engine_run              (SpsSqlEngine      *self,
                                                     const char        *sql,
                                                     SpsProgress       *progress,
                                                     GCancellable      *cancellable,
                                                     SpsSqlStream      *stream,
                                                     GError           **error);
void               _sps_sql_engine_run_in_thread    (SpsSqlEngine        *self,
                                                     const char          *sql,
                                                     SpsProgress         *progress,
                                                     GCancellable        *cancellable,
                                                     SpsSqlStream        *stream,
                                                     GAsyncReadyCallback  callback,
                                                     gpointer             user_data,
                                                     gpointer             source_tag);

/* Streaming: batches of rows posted to the caller's main context */
SpsSqlStream      *_sps_sql_stream_new              (SpsSqlRowsFunc     func,
                                                     gpointer           data,
                                                     GDestroyNotify     destroy);
void               _sps_sql_stream_unref            (SpsSqlStream      *stream);
void               _sps_sql_stream_begin            (SpsSqlStream      *stream,
                                                     SpsSqlResult      *result);
void               _sps_sql_stream_row_added        (SpsSqlStream      *stream);

/* Virtual tables: the context lives as long as the engine and holds a
 * reference on the trace, so text handed to SQLite as SQLITE_STATIC stays
 * valid. */
SpsSqlVtabContext *_sps_sql_vtab_context_new        (SpsTrace          *trace);
void               _sps_sql_vtab_context_free       (SpsSqlVtabContext *ctx);
gboolean           _sps_sql_vtab_register           (SpsSqlVtabContext *ctx,
                                                     sqlite3           *db,
                                                     GError           **error);
gboolean           _sps_sql_vtab_is_trace_table     (const char        *name);
void               _sps_sql_vtab_append_table_names (GString           *sql);
gboolean           _sps_sql_vtab_count_rows         (SpsSqlVtabContext *ctx,
                                                     const char        *table,
                                                     guint64           *n_rows);
gboolean           _sps_sql_visible_register        (sqlite3           *db,
                                                     SpsTrace          *trace,
                                                     GBytes           **query_mask,
                                                     GError           **error);
void               _sps_sql_vtab_context_reset_progress (SpsSqlVtabContext *ctx);
double             _sps_sql_vtab_context_get_progress   (SpsSqlVtabContext *ctx);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (sqlite3_stmt, sqlite3_finalize)

G_END_DECLS
