/* sps-result-table-sql.c: a query's result into a SpsResultTable
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Part of SpsResultTable (sps-result-table.c): the columns and cells of an
 * SpsSqlResult, whole or in the batches of a streaming query.
 */

#define G_LOG_DOMAIN "sps-result-table"

#include "config.h"

#include "sps-result-cell-private.h"
#include "sps-result-row-private.h"
#include "sps-result-table-private.h"
#include <spanscope-core.h>

static SpsResultColumnType
column_type_of (SpsSqlResult *result,
                guint         column)
{
  g_assert (SPS_IS_SQL_RESULT (result));

  switch (sps_sql_result_get_column_type (result, column))
    {
    case SPS_SQL_TYPE_INTEGER:
      return SPS_RESULT_COLUMN_INTEGER;
    case SPS_SQL_TYPE_REAL:
      return SPS_RESULT_COLUMN_REAL;
    case SPS_SQL_TYPE_NULL:
    case SPS_SQL_TYPE_TEXT:
    case SPS_SQL_TYPE_BLOB:
    case SPS_SQL_TYPE_MIXED:
    default:
      return SPS_RESULT_COLUMN_TEXT;
    }
}

/* Appends the rows [first, n) of @result, whose columns are the table's */
static void
append_result_rows (SpsResultTable *self,
                    SpsSqlResult   *result,
                    guint           first)
{
  guint n_columns = self->n_columns;
  guint n_rows = sps_sql_result_get_n_rows (result);
  guint base = self->n_rows;

  g_assert (SPS_IS_RESULT_TABLE (self));
  g_assert (first <= n_rows);
  g_return_if_fail (sps_sql_result_get_n_columns (result) == n_columns);
  g_return_if_fail ((guint64) base + (n_rows - first) < SPS_RESULT_ROW_PROBE_LOW);

  g_array_set_size (self->cells, (gsize) (base + n_rows - first) * n_columns);
  for (guint r = first; r < n_rows; r++)
    {
      for (guint c = 0; c < n_columns; c++)
        {
          Cell *cell = &g_array_index (self->cells, Cell, (gsize) (base + r - first) * n_columns + c);

          switch (sps_sql_result_get_value_type (result, r, c))
            {
            case SPS_SQL_TYPE_INTEGER:
              cell->kind = CELL_INTEGER;
              cell->v.i = sps_sql_result_get_int64 (result, r, c);
              break;
            case SPS_SQL_TYPE_REAL:
              cell->kind = CELL_REAL;
              cell->v.d = sps_sql_result_get_double (result, r, c);
              break;
            case SPS_SQL_TYPE_TEXT:
              cell->kind = CELL_TEXT;
              cell->v.s = g_strdup (sps_sql_result_get_text (result, r, c));
              break;
            case SPS_SQL_TYPE_BLOB:
            case SPS_SQL_TYPE_MIXED:
              cell->kind = CELL_TEXT;
              cell->v.s = sps_sql_result_dup_display_text (result, r, c);
              break;
            case SPS_SQL_TYPE_NULL:
            default:
              cell->kind = CELL_NULL;
              break;
            }
        }
      g_ptr_array_add (self->pending, sps_result_row_new (base + r - first));
    }
  self->n_rows = base + n_rows - first;
  _sps_result_table_flush_pending (self);
}

/**
 * sps_result_table_set_result:
 * @self: a table
 * @result: a query result
 *
 * Replaces columns and rows with those of @result. Integer and real
 * columns sort numerically; text, mixed and all-NULL columns by text.
 * Blobs show as SQLite's display text.
 */
void
sps_result_table_set_result (SpsResultTable *self,
                             SpsSqlResult   *result)
{
  g_autofree SpsResultColumnType *types = NULL;
  g_autofree const char **names = NULL;
  guint n_columns;

  g_return_if_fail (SPS_IS_RESULT_TABLE (self));
  g_return_if_fail (SPS_IS_SQL_RESULT (result));
  g_return_if_fail (sps_sql_result_get_n_rows (result) < SPS_RESULT_ROW_PROBE_LOW);

  n_columns = sps_sql_result_get_n_columns (result);
  names = g_new0 (const char *, n_columns + 1);
  types = g_new0 (SpsResultColumnType, MAX (n_columns, 1));
  for (guint c = 0; c < n_columns; c++)
    {
      names[c] = sps_sql_result_get_column_name (result, c);
      types[c] = column_type_of (result, c);
    }
  sps_result_table_set_columns (self, n_columns, names, types);
  append_result_rows (self, result, 0);
}

/**
 * sps_result_table_append_result:
 * @self: a table
 * @rows: more rows with the table's columns
 *
 * Appends the rows of @rows, a batch of a streaming query
 * (sps_sql_engine_query_stream_async()) whose first batch went to
 * [method@ResultTable.set_result]. The column types stay those of the
 * first batch.
 */
void
sps_result_table_append_result (SpsResultTable *self,
                                SpsSqlResult   *rows)
{
  g_return_if_fail (SPS_IS_RESULT_TABLE (self));
  g_return_if_fail (SPS_IS_SQL_RESULT (rows));

  append_result_rows (self, rows, 0);
}

/**
 * sps_result_table_update_result:
 * @self: a table
 * @result: a query result
 *
 * Shows @result, the whole result of a query whose first rows the table
 * shows already (appended batch by batch): when its columns have the names
 * and sort types of the table's and it has at least the table's rows, only
 * the rows past them are appended; otherwise it replaces everything, as
 * [method@ResultTable.set_result] does.
 */
void
sps_result_table_update_result (SpsResultTable *self,
                                SpsSqlResult   *result)
{
  gboolean same;

  g_return_if_fail (SPS_IS_RESULT_TABLE (self));
  g_return_if_fail (SPS_IS_SQL_RESULT (result));

  same = sps_sql_result_get_n_columns (result) == self->n_columns &&
         sps_sql_result_get_n_rows (result) >= self->n_rows;
  for (guint c = 0; same && c < self->n_columns; c++)
    same = g_strcmp0 (sps_sql_result_get_column_name (result, c), self->names[c]) == 0 &&
           column_type_of (result, c) == self->types[c];

  if (same)
    append_result_rows (self, result, self->n_rows);
  else
    sps_result_table_set_result (self, result);
}
