/* sps-sql-visible.c: the SQL table visible_slices
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-sql"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "sps-sql-private.h"
#include "sps-trace-private.h"

/*
 * `visible_slices` lists the slices the current filter shows: the mask
 * given to sps_sql_engine_set_slice_mask() (what an SpsViewFilter's
 * sps_view_filter_dup_mask() gives; `spanscope-cli query --filter`), as the
 * running query took it, or every slice when there is none. Rows come in
 * slice order; `id` is the slice's row in `slices`, so
 * `slices JOIN visible_slices USING (id)` is the filtered table. An
 * `id = x` constraint reads one byte of the mask.
 *
 * Its own module (not a table of sps-sql-vtab.c) because it reads the
 * engine's per-query mask, not a column of the trace.
 */

enum { V_ID, V_TS, V_DUR, V_TRACK_ID, V_DEPTH };

typedef struct
{
  sqlite3_vtab  base;
  SpsTrace     *trace;
  GBytes      **query_mask;   /* the engine's, set while a query runs */
} VisibleVtab;

typedef struct
{
  sqlite3_vtab_cursor  base;
  GBytes              *mask;  /* NULL: every slice */
  guint                row;
  guint                end;
} VisibleCursor;

#define PLAN_ID_EQ 1

static gboolean
row_visible (VisibleCursor *cursor,
             guint          row)
{
  gsize n;
  const guint8 *m;

  if (cursor->mask == NULL)
    return TRUE;
  m = g_bytes_get_data (cursor->mask, &n);
  return row < n && m[row] != 0;
}

static int
visible_connect (sqlite3             *db,
                 void                *aux,
                 int                  argc,
                 const char * const  *argv,
                 sqlite3_vtab       **out,
                 char               **err)
{
  VisibleVtab *vtab;
  int rc;

  rc = sqlite3_declare_vtab (db, "CREATE TABLE x(id INTEGER, ts INTEGER, dur INTEGER, track_id INTEGER, depth INTEGER)");
  if (rc != SQLITE_OK)
    return rc;

  vtab = sqlite3_malloc (sizeof *vtab);
  if (vtab == NULL)
    return SQLITE_NOMEM;
  memset (vtab, 0, sizeof *vtab);
  vtab->trace = ((VisibleVtab *) aux)->trace;
  vtab->query_mask = ((VisibleVtab *) aux)->query_mask;
  *out = &vtab->base;
  return SQLITE_OK;
}

static int
visible_disconnect (sqlite3_vtab *vtab)
{
  sqlite3_free (vtab);
  return SQLITE_OK;
}

static int
visible_best_index (sqlite3_vtab       *vtab,
                    sqlite3_index_info *info)
{
  guint n_slices = sps_trace_get_slices (((VisibleVtab *) vtab)->trace)->n_rows;

  info->idxNum = 0;
  for (int i = 0; i < info->nConstraint; i++)
    if (info->aConstraint[i].usable && info->aConstraint[i].iColumn == V_ID &&
        info->aConstraint[i].op == SQLITE_INDEX_CONSTRAINT_EQ)
      {
        info->idxNum = PLAN_ID_EQ;
        info->aConstraintUsage[i].argvIndex = 1;
        info->aConstraintUsage[i].omit = 1;
        break;
      }

  if (info->idxNum == PLAN_ID_EQ)
    {
      info->estimatedRows = 1;
      info->estimatedCost = 1;
      info->idxFlags = SQLITE_INDEX_SCAN_UNIQUE;
    }
  else
    {
      info->estimatedRows = n_slices;
      info->estimatedCost = n_slices;
    }

  /* Rows come out by id */
  if (info->nOrderBy == 1 && info->aOrderBy[0].iColumn == V_ID && !info->aOrderBy[0].desc)
    info->orderByConsumed = 1;
  return SQLITE_OK;
}

static int
visible_open (sqlite3_vtab         *vtab,
              sqlite3_vtab_cursor **out)
{
  VisibleCursor *cursor = sqlite3_malloc (sizeof *cursor);

  if (cursor == NULL)
    return SQLITE_NOMEM;
  memset (cursor, 0, sizeof *cursor);
  *out = &cursor->base;
  return SQLITE_OK;
}

static int
visible_close (sqlite3_vtab_cursor *base)
{
  VisibleCursor *cursor = (VisibleCursor *) base;

  g_clear_pointer (&cursor->mask, g_bytes_unref);
  sqlite3_free (cursor);
  return SQLITE_OK;
}

static void
skip_hidden (VisibleCursor *cursor)
{
  while (cursor->row < cursor->end && !row_visible (cursor, cursor->row))
    cursor->row++;
}

static int
visible_filter (sqlite3_vtab_cursor  *base,
                int                   idx_num,
                const char           *idx_str,
                int                   argc,
                sqlite3_value       **argv)
{
  VisibleCursor *cursor = (VisibleCursor *) base;
  VisibleVtab *vtab = (VisibleVtab *) base->pVtab;
  guint n_slices = sps_trace_get_slices (vtab->trace)->n_rows;

  g_clear_pointer (&cursor->mask, g_bytes_unref);
  if (*vtab->query_mask != NULL)
    cursor->mask = g_bytes_ref (*vtab->query_mask);

  cursor->row = 0;
  cursor->end = n_slices;
  if (idx_num == PLAN_ID_EQ && argc == 1)
    {
      sqlite3_int64 id;

      if (sqlite3_value_numeric_type (argv[0]) != SQLITE_INTEGER ||
          (id = sqlite3_value_int64 (argv[0])) < 0 || id >= n_slices)
        {
          cursor->end = 0;
          return SQLITE_OK;
        }
      cursor->row = id;
      cursor->end = id + 1;
    }
  skip_hidden (cursor);
  return SQLITE_OK;
}

static int
visible_next (sqlite3_vtab_cursor *base)
{
  VisibleCursor *cursor = (VisibleCursor *) base;

  cursor->row++;
  skip_hidden (cursor);
  return SQLITE_OK;
}

static int
visible_eof (sqlite3_vtab_cursor *base)
{
  VisibleCursor *cursor = (VisibleCursor *) base;

  return cursor->row >= cursor->end;
}

static int
visible_column (sqlite3_vtab_cursor *base,
                sqlite3_context     *context,
                int                  column)
{
  VisibleCursor *cursor = (VisibleCursor *) base;
  const SpsSliceTable *slices = sps_trace_get_slices (((VisibleVtab *) base->pVtab)->trace);
  guint row = cursor->row;

  switch (column)
    {
    case V_ID:
      sqlite3_result_int64 (context, row);
      break;
    case V_TS:
      sqlite3_result_int64 (context, slices->ts[row]);
      break;
    case V_DUR:
      /* As in `slices`: a sampled span's interval is an estimate, not a
       * duration */
      if ((slices->flags[row] & SPS_SLICE_SAMPLED) == 0)
        sqlite3_result_int64 (context, slices->dur[row]);
      else
        sqlite3_result_null (context);
      break;
    case V_TRACK_ID:
      sqlite3_result_int64 (context, slices->track[row]);
      break;
    case V_DEPTH:
      sqlite3_result_int (context, slices->depth[row]);
      break;
    default:
      sqlite3_result_null (context);
      break;
    }
  return SQLITE_OK;
}

static int
visible_rowid (sqlite3_vtab_cursor *base,
               sqlite3_int64       *rowid)
{
  *rowid = ((VisibleCursor *) base)->row;
  return SQLITE_OK;
}

static const sqlite3_module visible_module = {
  .iVersion = 0,
  .xCreate = NULL,          /* eponymous: nothing to parse per connection */
  .xConnect = visible_connect,
  .xBestIndex = visible_best_index,
  .xDisconnect = visible_disconnect,
  .xDestroy = visible_disconnect,
  .xOpen = visible_open,
  .xClose = visible_close,
  .xFilter = visible_filter,
  .xNext = visible_next,
  .xEof = visible_eof,
  .xColumn = visible_column,
  .xRowid = visible_rowid,
};

/* Registers the module, whose name makes it main.visible_slices. @query_mask is the
 * engine's field for the running query's mask; it outlives the db. */
gboolean
_sps_sql_visible_register (sqlite3   *db,
                           SpsTrace  *trace,
                           GBytes   **query_mask,
                           GError   **error)
{
  VisibleVtab *aux;
  int rc;

  g_assert (db != NULL);
  g_assert (SPS_IS_TRACE (trace));
  g_assert (query_mask != NULL);

  /* The trace outlives the connection (the engine holds both) */
  aux = g_new0 (VisibleVtab, 1);
  aux->trace = trace;
  aux->query_mask = query_mask;
  rc = sqlite3_create_module_v2 (db, "visible_slices", &visible_module, aux, g_free);
  if (rc != SQLITE_OK)
    {
      g_set_error (error, SPS_SQL_ERROR, SPS_SQL_ERROR_SQLITE,
                   _("Could not register the trace tables: %s"), sqlite3_errstr (rc));
      return FALSE;
    }
  return TRUE;
}
