/* sps-sql-vtab-keys.c: the virtual tables' foreign-key columns
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every `*_id` column that names a row of another table can answer
 * `col = x` itself: its rows grouped by key (a counting sort, built the
 * first time a query asks, once per engine), so that SQLite uses the
 * virtual table as its own index for joins in either order.
 */

#define G_LOG_DOMAIN "sps-sql"

#include "config.h"

#include "sps-sql-vtab-private.h"

typedef struct
{
  TableId table;
  int     col;
  TableId ref;
} KeyColumn;

/* The columns with a key index; track_id and thread_id of the tables
 * sorted by track are answered by the track order instead. */
static const KeyColumn key_columns[] = {
  { TABLE_THREADS, TH_PROCESS_ID, TABLE_PROCESSES },
  { TABLE_TRACKS, TR_PROCESS_ID, TABLE_PROCESSES },
  { TABLE_TRACKS, TR_THREAD_ID, TABLE_THREADS },
  { TABLE_SLICES, S_PROCESS_ID, TABLE_PROCESSES },
  { TABLE_SLICES, S_PARENT_ID, TABLE_SLICES },
  { TABLE_SLICES, S_CALLSITE_ID, TABLE_CALLSITES },
  { TABLE_SLICES, S_END_CALLSITE_ID, TABLE_CALLSITES },
  { TABLE_INSTANTS, I_PROCESS_ID, TABLE_PROCESSES },
  { TABLE_COUNTERS, C_PROCESS_ID, TABLE_PROCESSES },
  { TABLE_FLOWS, F_FROM_SLICE_ID, TABLE_SLICES },
  { TABLE_FLOWS, F_TO_SLICE_ID, TABLE_SLICES },
  { TABLE_SAMPLES, SA_PROCESS_ID, TABLE_PROCESSES },
  { TABLE_SAMPLES, SA_CALLSITE_ID, TABLE_CALLSITES },
  { TABLE_CALLSITES, CS_PARENT_ID, TABLE_CALLSITES },
  { TABLE_CALLSITES, CS_FRAME_ID, TABLE_FRAMES },
  { TABLE_OBJECTS, O_PROCESS_ID, TABLE_PROCESSES },
  { TABLE_ALLOCATIONS, AL_CALLSITE_ID, TABLE_CALLSITES },
  { TABLE_ALLOCATIONS, AL_PROCESS_ID, TABLE_PROCESSES },
  { TABLE_ALLOCATIONS, AL_THREAD_ID, TABLE_THREADS },
  { TABLE_GC_OBSERVATIONS, GC_PROCESS_ID, TABLE_PROCESSES },
  { TABLE_GC_OBSERVATIONS, GC_THREAD_ID, TABLE_THREADS },
};

/* The table @col of @table references, or -1 when it has no key index */
int
_sps_sql_vtab_key_ref (TableId table,
                       int     col)
{
  for (guint i = 0; i < G_N_ELEMENTS (key_columns); i++)
    if (key_columns[i].table == table && key_columns[i].col == col)
      return key_columns[i].ref;
  return -1;
}

static inline guint32
track_field (const guint32 *field,
             SpsTrace      *trace,
             guint32        track)
{
  return track < trace->tracks.n_rows ? field[track] : SPS_NO_INDEX;
}

/* The value of a key column of @row as the column shows it (SPS_NO_INDEX:
 * NULL); the same reads as sps-sql-vtab-columns.c's. */
guint32
_sps_sql_vtab_row_key (SpsTrace *trace,
                       TableId   table,
                       int       col,
                       guint32   row)
{
  switch (table)
    {
    case TABLE_THREADS:
      return trace->threads.process[row];
    case TABLE_TRACKS:
      return col == TR_PROCESS_ID ? trace->tracks.process[row] : trace->tracks.thread[row];
    case TABLE_SLICES:
      switch (col)
        {
        case S_PROCESS_ID: return track_field (trace->tracks.process, trace, trace->slices.track[row]);
        case S_PARENT_ID: return trace->slices.parent[row];
        case S_CALLSITE_ID: return SPS_TABLE_VALUE (&trace->slices, callsite, row);
        default: return SPS_TABLE_VALUE (&trace->slices, end_callsite, row);
        }
    case TABLE_INSTANTS:
      return track_field (trace->tracks.process, trace, trace->instants.track[row]);
    case TABLE_COUNTERS:
      return track_field (trace->tracks.process, trace, trace->counters.track[row]);
    case TABLE_FLOWS:
      return col == F_FROM_SLICE_ID ? trace->flows.from_slice[row] : trace->flows.to_slice[row];
    case TABLE_SAMPLES:
      if (col == SA_CALLSITE_ID)
        return trace->samples.callsite[row];
      {
        guint32 thread = trace->samples.thread[row];

        return thread < trace->threads.n_rows ? trace->threads.process[thread] : SPS_NO_INDEX;
      }
    case TABLE_CALLSITES:
      return col == CS_PARENT_ID ? trace->callsites.parent[row] : trace->callsites.frame[row];
    case TABLE_OBJECTS:
      return trace->objects.process[row];
    case TABLE_ALLOCATIONS:
      switch (col)
        {
        case AL_CALLSITE_ID: return trace->allocations.callsite[row];
        case AL_PROCESS_ID: return trace->allocations.process[row];
        default: return trace->allocations.thread[row];
        }
    case TABLE_GC_OBSERVATIONS:
      return col == GC_PROCESS_ID ? trace->gc_observations.process[row]
                                  : trace->gc_observations.thread[row];
    case TABLE_PROCESSES:
    case TABLE_FRAMES:
    case N_TABLES:
    default:
      g_assert_not_reached ();
    }
}

/* Rows grouped by key: rows[offsets[k]] … rows[offsets[k + 1]], each group
 * in row order (the sort is stable). Keys past @n_keys (NULL, or a value a
 * hostile file left dangling) are in no group; when there are such
 * values, `unusable` is set and the cursor scans instead. */
const KeyIndex *
_sps_sql_vtab_get_key_index (SpsSqlVtabContext *ctx,
                             TableId            table,
                             int                col)
{
  KeyIndex *index;
  SpsTrace *trace = ctx->trace;
  guint n = table_n_rows (trace, table);
  guint n_keys;
  guint32 *fill;
  int ref = _sps_sql_vtab_key_ref (table, col);

  g_assert (ref >= 0);
  g_assert (col >= 0 && col < MAX_KEY_COLUMNS);

  if (ctx->key_index[table][col] != NULL)
    return ctx->key_index[table][col];

  index = g_new0 (KeyIndex, 1);
  n_keys = table_n_rows (trace, (TableId) ref);
  index->n_keys = n_keys;
  index->offsets = g_new0 (guint32, (gsize) n_keys + 1);
  for (guint i = 0; i < n; i++)
    {
      guint32 key = _sps_sql_vtab_row_key (trace, table, col, i);

      if (key < n_keys)
        index->offsets[key + 1]++;
      else if (key != SPS_NO_INDEX)
        index->unusable = TRUE;
    }

  if (!index->unusable)
    {
      for (guint k = 0; k < n_keys; k++)
        index->offsets[k + 1] += index->offsets[k];
      index->rows = g_new (guint32, MAX (index->offsets[n_keys], 1));
      fill = g_memdup2 (index->offsets, sizeof (guint32) * MAX (n_keys, 1));
      for (guint i = 0; i < n; i++)
        {
          guint32 key = _sps_sql_vtab_row_key (trace, table, col, i);

          if (key < n_keys)
            index->rows[fill[key]++] = i;
        }
      g_free (fill);
    }

  ctx->key_index[table][col] = index;
  return index;
}

void
_sps_sql_vtab_key_index_free (KeyIndex *index)
{
  if (index == NULL)
    return;
  g_free (index->offsets);
  g_free (index->rows);
  g_free (index);
}
