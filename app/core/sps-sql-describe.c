/* sps-sql-describe.c: the SQL engine's description of its schema
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Part of SpsSqlEngine (sps-sql-engine.c): the tables and views with their
 * columns, for the SQL panel's inspector and completion.
 */

#define G_LOG_DOMAIN "sps-sql"

#include "config.h"

#include "sps-sql-private.h"

/* Tables and views of both schemas with their columns, trace tables first.
 * The trace tables are eponymous (registered modules, not in
 * sqlite_schema), so their names come from the engine's list. */
static const char *
describe_sql (void)
{
  static char *sql = NULL;
  static gsize built = 0;

  if (g_once_init_enter (&built))
    {
      GString *text = g_string_new (
        "SELECT s.name AS table_name,"
        "       CASE WHEN s.o < 0 OR (s.db = 'main' AND s.name IN ('events', 'events_raw'))"
        "            THEN 'trace' ELSE s.type END AS table_kind,"
        "       s.db AS schema,"
        "       p.cid AS position,"
        "       p.name AS column_name,"
        "       p.type AS column_type"
        "  FROM (SELECT column1 AS name, 'table' AS type, 'main' AS db, -1 AS o FROM (VALUES ");

      _sps_sql_vtab_append_table_names (text);
      g_string_append (text,
        ")        UNION ALL"
        "        SELECT name, type, 'main' AS db, 0 AS o FROM main.sqlite_schema"
        "         WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite%'"
        "        UNION ALL"
        "        SELECT name, type, 'temp', 1 FROM temp.sqlite_schema"
        "         WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite%') AS s,"
        "       pragma_table_info(s.name, s.db) AS p"
        " ORDER BY s.o > 0, table_kind <> 'trace', s.name, p.cid");
      sql = g_string_free (text, FALSE);
      g_once_init_leave (&built, 1);
    }

  return sql;
}

/**
 * sps_sql_engine_describe:
 * @self: a #SpsSqlEngine
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Describes the schema for an inspector: one row per column of every
 * table and view, the trace's tables first, then the user's own. The
 * result's columns are `table_name`, `table_kind` ("trace", "table" or
 * "view"), `schema` ("main" or "temp"), `position` (from 0),
 * `column_name` and `column_type` (the declared type, may be empty).
 *
 * Returns: (transfer full): the description, or %NULL with @error set
 */
SpsSqlResult *
sps_sql_engine_describe (SpsSqlEngine  *self,
                         GCancellable  *cancellable,
                         GError       **error)
{
  g_return_val_if_fail (SPS_IS_SQL_ENGINE (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return _sps_sql_engine_run (self, describe_sql (), NULL, cancellable, NULL, error);
}

/**
 * sps_sql_engine_describe_async:
 * @self: a #SpsSqlEngine
 * @cancellable: (nullable): a #GCancellable
 * @callback: called on the thread-default main context of the caller
 * @user_data: data for @callback
 *
 * Runs sps_sql_engine_describe() on a worker thread, so that the caller
 * never waits for a running query.
 */
void
sps_sql_engine_describe_async (SpsSqlEngine        *self,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_return_if_fail (SPS_IS_SQL_ENGINE (self));

  _sps_sql_engine_run_in_thread (self, describe_sql (), NULL, cancellable, NULL, callback, user_data,
                                 sps_sql_engine_describe_async);
}

/**
 * sps_sql_engine_describe_finish:
 * @self: a #SpsSqlEngine
 * @result: the #GAsyncResult passed to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the description, or %NULL with @error set
 */
SpsSqlResult *
sps_sql_engine_describe_finish (SpsSqlEngine  *self,
                                GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (SPS_IS_SQL_ENGINE (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * sps_sql_engine_list_tables:
 * @self: a #SpsSqlEngine
 * @error: return location for a #GError
 *
 * Lists the names of the tables and views, the trace's first, in the
 * order of sps_sql_engine_describe(). Waits for a running query.
 *
 * Returns: (transfer full) (array zero-terminated=1): the names, or %NULL
 *   with @error set
 */
char **
sps_sql_engine_list_tables (SpsSqlEngine  *self,
                            GError       **error)
{
  g_autoptr(SpsSqlResult) result = NULL;
  g_autoptr(GStrvBuilder) builder = NULL;
  const char *last = NULL;

  g_return_val_if_fail (SPS_IS_SQL_ENGINE (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  result = _sps_sql_engine_run (self, describe_sql (), NULL, NULL, NULL, error);
  if (result == NULL)
    return NULL;

  builder = g_strv_builder_new ();
  for (guint row = 0; row < sps_sql_result_get_n_rows (result); row++)
    {
      const char *name = sps_sql_result_get_text (result, row, 0);

      if (name != NULL && g_strcmp0 (name, last) != 0)
        g_strv_builder_add (builder, name);
      last = name;
    }

  return g_strv_builder_end (builder);
}
