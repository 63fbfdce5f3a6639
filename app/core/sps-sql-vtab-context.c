/* sps-sql-vtab-context.c: what the virtual tables of one engine share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The trace and its strings, the progress of a statement's first cursor,
 * and the per-table orders built the first time a query asks for them:
 * rows grouped by name id, and rows in the order of their names' texts.
 */

#define G_LOG_DOMAIN "sps-sql"

#include "config.h"

#include <string.h>

#include "sps-sql-vtab-private.h"
#include "sps-trace-private.h"

/* Context */

SpsSqlVtabContext *
_sps_sql_vtab_context_new (SpsTrace *trace)
{
  SpsSqlVtabContext *ctx;

  g_assert (SPS_IS_TRACE (trace));

  ctx = g_new0 (SpsSqlVtabContext, 1);
  ctx->trace = g_object_ref (trace);
  ctx->strings = sps_trace_get_strings (trace);
  ctx->n_strings = sps_string_pool_get_size (ctx->strings);
  return ctx;
}

void
_sps_sql_vtab_context_free (SpsSqlVtabContext *ctx)
{
  g_assert (ctx != NULL);

  for (guint i = 0; i < N_TABLES; i++)
    {
      g_free (ctx->name_index[i].offsets);
      g_free (ctx->name_index[i].rows);
      g_free (ctx->name_index[i].rows_by_text);
      for (guint c = 0; c < MAX_KEY_COLUMNS; c++)
        _sps_sql_vtab_key_index_free (ctx->key_index[i][c]);
    }
  g_clear_object (&ctx->trace);
  g_free (ctx);
}

void
_sps_sql_vtab_context_reset_progress (SpsSqlVtabContext *ctx)
{
  g_assert (ctx != NULL);

  ctx->lead_cursor = NULL;
  ctx->lead_done = 0;
  ctx->lead_total = 0;
}

/* The fraction of its rows the first cursor of the statement has
 * visited: for the usual nested-loop plans the outer loop's progress. */
double
_sps_sql_vtab_context_get_progress (SpsSqlVtabContext *ctx)
{
  g_assert (ctx != NULL);

  if (ctx->lead_total == 0)
    return 0.0;
  return MIN (1.0, (double) ctx->lead_done / (double) ctx->lead_total);
}

gboolean
_sps_sql_vtab_is_trace_table (const char *name)
{
  g_assert (name != NULL);

  for (guint i = 0; i < N_TABLES; i++)
    if (g_ascii_strcasecmp (name, _sps_sql_tables[i].name) == 0)
      return TRUE;
  return g_ascii_strcasecmp (name, "events") == 0;
}

/* The trace tables' names as rows of a VALUES clause, visible_slices too */
void
_sps_sql_vtab_append_table_names (GString *sql)
{
  for (guint i = 0; i < N_TABLES; i++)
    g_string_append_printf (sql, "('%s'), ", _sps_sql_tables[i].name);
  g_string_append (sql, "('visible_slices')");
}

/* The row count of trace table @table (any case); FALSE if it is none */
gboolean
_sps_sql_vtab_count_rows (SpsSqlVtabContext *ctx,
                          const char        *table,
                          guint64           *n_rows)
{
  for (guint i = 0; i < N_TABLES; i++)
    if (g_ascii_strcasecmp (table, _sps_sql_tables[i].name) == 0)
      {
        *n_rows = table_n_rows (ctx->trace, (TableId) i);
        return TRUE;
      }
  return FALSE;
}

/* Counting sort of the rows by name id: two passes, no comparisons */
const NameIndex *
_sps_sql_vtab_get_name_index (SpsSqlVtabContext *ctx,
                              TableId            table)
{
  NameIndex *index = &ctx->name_index[table];
  const guint32 *names = table_name (ctx->trace, table);
  guint n = table_n_rows (ctx->trace, table);
  guint32 *fill;

  g_assert (names != NULL || n == 0);

  if (index->offsets != NULL)
    return index;

  index->offsets = g_new0 (guint32, (gsize) ctx->n_strings + 1);
  index->rows = g_new (guint32, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    index->offsets[names[i] + 1]++;
  for (guint i = 0; i < ctx->n_strings; i++)
    index->offsets[i + 1] += index->offsets[i];

  fill = g_memdup2 (index->offsets, sizeof (guint32) * ctx->n_strings);
  for (guint i = 0; i < n; i++)
    index->rows[fill[names[i]]++] = i;
  g_free (fill);

  return index;
}

static int
compare_name_ids (gconstpointer a,
                  gconstpointer b,
                  gpointer      user_data)
{
  SpsStringPool *strings = user_data;
  gsize len_a, len_b;
  const char *str_a = sps_string_pool_get (strings, *(const guint32 *) a, &len_a);
  const char *str_b = sps_string_pool_get (strings, *(const guint32 *) b, &len_b);
  int cmp = memcmp (str_a, str_b, MIN (len_a, len_b));

  /* SQLite's BINARY collation: bytes, then the shorter first */
  if (cmp != 0)
    return cmp;
  return len_a < len_b ? -1 : len_a > len_b;
}

/* The rows in ORDER BY name order, so that GROUP BY name and ORDER BY
 * name stream without a sorter: the name groups of the index, taken in the
 * order of their texts. Only the names in use are sorted. */
const guint32 *
_sps_sql_vtab_get_rows_by_text (SpsSqlVtabContext *ctx,
                                TableId            table)
{
  const NameIndex *index = _sps_sql_vtab_get_name_index (ctx, table);
  NameIndex *mutable_index = &ctx->name_index[table];
  g_autoptr(GArray) used = NULL;
  guint n = table_n_rows (ctx->trace, table);
  guint pos = 0;

  if (index->rows_by_text != NULL)
    return index->rows_by_text;

  used = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint32 id = 0; id < ctx->n_strings; id++)
    if (index->offsets[id + 1] > index->offsets[id])
      g_array_append_val (used, id);
  g_array_sort_with_data (used, compare_name_ids, ctx->strings);

  mutable_index->rows_by_text = g_new (guint32, MAX (n, 1));
  for (guint i = 0; i < used->len; i++)
    {
      guint32 id = g_array_index (used, guint32, i);
      guint32 count = index->offsets[id + 1] - index->offsets[id];

      memcpy (mutable_index->rows_by_text + pos, index->rows + index->offsets[id],
              count * sizeof (guint32));
      pos += count;
    }
  g_assert (pos == n);

  return mutable_index->rows_by_text;
}
