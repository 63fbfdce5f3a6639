/* sps-sql-vtab-plan.c: the virtual tables' schema and query plans
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What each table holds (its columns, and which of them the cursor can
 * narrow by: ts, end, track, thread, name), and xBestIndex: which of a
 * query's constraints and ORDER BY a plan takes over, and what it costs.
 */

#define G_LOG_DOMAIN "sps-sql"

#include "config.h"

#include <string.h>

#include "sps-sql-vtab-private.h"

const TableInfo _sps_sql_tables[N_TABLES] = {
  [TABLE_PROCESSES] = {
    "processes",
    "id INTEGER, pid INTEGER, name TEXT, sort_index INTEGER, labels TEXT",
    0, -1, -1, -1, -1, P_NAME },
  [TABLE_THREADS] = {
    "threads",
    "id INTEGER, process_id INTEGER, pid INTEGER, tid INTEGER, name TEXT, sort_index INTEGER",
    0, -1, -1, -1, -1, TH_NAME },
  [TABLE_TRACKS] = {
    "tracks",
    "id INTEGER, kind TEXT, process_id INTEGER, thread_id INTEGER, name TEXT, series TEXT,"
    " row_count INTEGER, max_depth INTEGER",
    0, -1, -1, -1, -1, TR_NAME },
  [TABLE_SLICES] = {
    "slices",
    "id INTEGER, ts INTEGER, dur INTEGER, end_ts INTEGER, name TEXT, category TEXT,"
    " track_id INTEGER, thread_id INTEGER, process_id INTEGER, depth INTEGER,"
    " parent_id INTEGER, self_time INTEGER, kind TEXT, args TEXT, async INTEGER,"
    " unfinished INTEGER, sample_count INTEGER, sample_weight REAL, weight_unit TEXT,"
    " estimated_cpu_time INTEGER, estimated_self_cpu_time INTEGER, sf TEXT,"
    " callsite_id INTEGER, end_callsite_id INTEGER",
    SLICE_KINDS, S_TS, S_END_TS, S_TRACK_ID, S_THREAD_ID, S_NAME },
  [TABLE_INSTANTS] = {
    "instants",
    "id INTEGER, ts INTEGER, name TEXT, category TEXT, track_id INTEGER, thread_id INTEGER,"
    " process_id INTEGER, scope TEXT, kind TEXT, args TEXT, event_id INTEGER,"
    " event_version INTEGER, event_opcode INTEGER",
    INSTANT_KINDS, I_TS, -1, I_TRACK_ID, I_THREAD_ID, I_NAME },
  [TABLE_COUNTERS] = {
    "counters",
    "id INTEGER, ts INTEGER, value REAL, track_id INTEGER, name TEXT, series TEXT,"
    " process_id INTEGER",
    KIND_BIT (SPS_TRACK_COUNTER), C_TS, -1, C_TRACK_ID, -1, -1 },
  [TABLE_FLOWS] = {
    "flows",
    "id INTEGER, from_slice_id INTEGER, to_slice_id INTEGER, flow_key INTEGER, name TEXT,"
    " category TEXT",
    0, -1, -1, -1, -1, F_NAME },
  [TABLE_SAMPLES] = {
    "samples",
    "id INTEGER, ts INTEGER, dur INTEGER, self_time INTEGER, name TEXT, track_id INTEGER,"
    " thread_id INTEGER, process_id INTEGER, callsite_id INTEGER, frame TEXT, kind TEXT,"
    " sample_count INTEGER, sample_weight REAL, weight_unit TEXT,"
    " estimated_cpu_time INTEGER, estimated_self_cpu_time INTEGER, sf TEXT,"
    " unresolved INTEGER, event_name TEXT, line INTEGER",
    KIND_BIT (SPS_TRACK_THREAD_SAMPLES), SA_TS, -1, SA_TRACK_ID, SA_THREAD_ID, SA_NAME },
  [TABLE_CALLSITES] = {
    "callsites",
    "id INTEGER, parent_id INTEGER, frame_id INTEGER, depth INTEGER, name TEXT",
    0, -1, -1, -1, -1, -1 },
  [TABLE_FRAMES] = {
    "frames",
    "id INTEGER, name TEXT, category TEXT, module TEXT, address INTEGER,"
    " source_file TEXT, source_line INTEGER, source_column INTEGER",
    0, -1, -1, -1, -1, FR_NAME },
  [TABLE_OBJECTS] = {
    "objects",
    "id INTEGER, ts INTEGER, phase TEXT, process_id INTEGER, object_key INTEGER, name TEXT,"
    " args TEXT",
    0, -1, -1, -1, -1, -1 },
  [TABLE_ALLOCATIONS] = {
    "allocations",
    "id INTEGER, birth_ts INTEGER, death_ts INTEGER, death_after INTEGER, death_by INTEGER,"
    " size INTEGER, address INTEGER, type TEXT, callsite_id INTEGER, process_id INTEGER,"
    " thread_id INTEGER, heap TEXT, certainty TEXT",
    0, -1, -1, -1, -1, -1 },
  [TABLE_GC_OBSERVATIONS] = {
    "gc_observations",
    "id INTEGER, ts INTEGER, process_id INTEGER, thread_id INTEGER, kind TEXT,"
    " gc_number INTEGER, generation INTEGER, reason TEXT, bytes INTEGER",
    0, -1, -1, -1, -1, -1 },
};

static gboolean
order_by_consumed (const TableInfo    *info,
                   sqlite3_index_info *index,
                   int                 plan)
{
  /* Rows come out in row (= id) order; tables sorted by track are also in
   * (track_id, ts, id) order, and in (ts, id) order within one track. As
   * id is unique, any prefix of these orders ending anywhere is kept. */
  int pattern[2] = { -2, -2 };

  if (info->track_kinds != 0 && (plan & PLAN_TRACK_EQ) != 0)
    pattern[0] = info->col_ts;
  else if (info->track_kinds != 0)
    {
      pattern[0] = info->col_track;
      pattern[1] = info->col_ts;
    }

  if (index->nOrderBy == 0)
    return FALSE;

  for (int i = 0; i < index->nOrderBy; i++)
    {
      const struct sqlite3_index_orderby *term = &index->aOrderBy[i];

      if (term->desc)
        return FALSE;
      if (term->iColumn == 0 || term->iColumn == -1)
        return TRUE;
      if (i >= 2 || pattern[i] != term->iColumn)
        return FALSE;
    }

  return TRUE;
}

/* The name of column @col in a table's declaration */
static void
append_column_name (GString    *text,
                    const char *columns,
                    int         col)
{
  const char *p = columns;

  g_assert (text != NULL);
  g_assert (columns != NULL);

  for (int i = 0; i < col && p != NULL; i++)
    if ((p = strchr (p, ',')) != NULL)
      p++;
  if (p == NULL)
    return;
  while (*p == ' ')
    p++;
  g_string_append_len (text, p, strcspn (p, " "));
}

/* What EXPLAIN QUERY PLAN shows after "INDEX n:" */
static char *
describe_plan (const TableInfo *info,
               int              plan)
{
  static const char * const names[N_PLAN_SLOTS] = {
    "id=", "track_id=", "thread_id=", "name=", "ts>=", "ts<=", "end_ts>=", "end_ts<=", "=",
  };
  GString *text;
  char *str;

  if (plan == 0)
    return NULL;
  if (plan == PLAN_BY_NAME)
    return sqlite3_mprintf ("%s", "by name");

  text = g_string_new (NULL);
  for (guint slot = 0; slot < N_PLAN_SLOTS; slot++)
    {
      if ((plan & plan_slot_bit (slot)) == 0)
        continue;
      if (text->len > 0)
        g_string_append_c (text, ' ');
      if (slot == 8)
        append_column_name (text, info->columns, plan >> PLAN_KEY_SHIFT);
      if (slot == 4 && (plan & PLAN_TS_EQ) != 0)
        g_string_append (text, "ts=");
      else
        g_string_append (text, names[slot]);
    }

  str = sqlite3_mprintf ("%s", text->str);
  g_string_free (text, TRUE);
  return str;
}

int
_sps_sql_vtab_best_index (sqlite3_vtab       *base,
                 sqlite3_index_info *index)
{
  Vtab *vtab = (Vtab *) base;
  const TableInfo *info = &_sps_sql_tables[vtab->table];
  SpsTrace *trace = vtab->ctx->trace;
  double rows = MAX (1, table_n_rows (trace, vtab->table));
  int slot_constraint[N_PLAN_SLOTS];
  int plan = 0;
  int key_col = -1;
  int argv_index = 0;

  for (guint i = 0; i < N_PLAN_SLOTS; i++)
    slot_constraint[i] = -1;

  for (int i = 0; i < index->nConstraint; i++)
    {
      const struct sqlite3_index_constraint *c = &index->aConstraint[i];
      int slot = -1;
      int flags = 0;

      if (!c->usable)
        continue;

      if (c->op == SQLITE_INDEX_CONSTRAINT_EQ)
        {
          if (c->iColumn == 0 || c->iColumn == -1)
            slot = 0;
          else if (c->iColumn == info->col_track)
            slot = 1;
          else if (c->iColumn == info->col_thread)
            slot = 2;
          else if (c->iColumn == info->col_name &&
                   g_strcmp0 (sqlite3_vtab_collation (index, i), "BINARY") == 0)
            slot = 3;
          else if (c->iColumn == info->col_ts && info->track_kinds != 0)
            {
              slot = 4;
              flags = PLAN_TS_EQ;
            }
          else if (c->iColumn >= 0 && c->iColumn < MAX_KEY_COLUMNS &&
                   _sps_sql_vtab_key_ref (vtab->table, c->iColumn) >= 0 &&
                   slot_constraint[8] == -1)
            {
              slot = 8;
              key_col = c->iColumn;
            }
        }
      else if ((c->iColumn == info->col_ts && info->track_kinds != 0) ||
               (c->iColumn == info->col_end && info->col_end >= 0))
        {
          gboolean end = c->iColumn == info->col_end;

          switch (c->op)
            {
            case SQLITE_INDEX_CONSTRAINT_GT:
              slot = end ? 6 : 4;
              flags = end ? PLAN_END_LO_STRICT : PLAN_TS_LO_STRICT;
              break;
            case SQLITE_INDEX_CONSTRAINT_GE:
              slot = end ? 6 : 4;
              break;
            case SQLITE_INDEX_CONSTRAINT_LT:
              slot = end ? 7 : 5;
              flags = end ? PLAN_END_HI_STRICT : PLAN_TS_HI_STRICT;
              break;
            case SQLITE_INDEX_CONSTRAINT_LE:
              slot = end ? 7 : 5;
              break;
            default:
              break;
            }
        }

      if (slot < 0 || slot_constraint[slot] != -1)
        continue;
      /* ts = x fills both ends of the ts range */
      if ((flags & PLAN_TS_EQ) != 0 && slot_constraint[5] >= 0)
        continue;
      slot_constraint[slot] = i;
      plan |= plan_slot_bit (slot) | flags;
      if ((flags & PLAN_TS_EQ) != 0)
        slot_constraint[5] = -2;
    }

  for (guint slot = 0; slot < N_PLAN_SLOTS; slot++)
    {
      int i = slot_constraint[slot];

      if (i < 0)
        continue;
      index->aConstraintUsage[i].argvIndex = ++argv_index;
      /* Equalities are exact; ranges are checked again by SQLite */
      index->aConstraintUsage[i].omit = slot <= 3 || slot == 8;
    }
  if (key_col >= 0)
    plan |= key_col << PLAN_KEY_SHIFT;

  /* Honest estimates: what the cursor will visit */
  if ((plan & PLAN_ID_EQ) != 0)
    {
      rows = 1;
      index->idxFlags |= SQLITE_INDEX_SCAN_UNIQUE;
    }
  else
    {
      if ((plan & PLAN_TRACK_EQ) != 0)
        /* The average over every track id, as a join looks them up: a
         * table of tracks outside and these rows inside must cost about
         * one scan of them */
        rows /= MAX (1, trace->tracks.n_rows);
      else if ((plan & PLAN_THREAD_EQ) != 0)
        rows /= MAX (1, trace->threads.n_rows);
      else if ((plan & PLAN_KEY_EQ) != 0)
        rows /= MAX (1, table_n_rows (trace, _sps_sql_vtab_key_ref (vtab->table, key_col)));
      else if ((plan & PLAN_NAME_EQ) != 0)
        rows /= 20;
      if ((plan & PLAN_TS_EQ) != 0)
        rows /= 1000;
      else if ((plan & PLAN_TS_LO) != 0 && (plan & (PLAN_TS_HI | PLAN_END_HI)) != 0)
        rows /= 50;
      else if ((plan & (PLAN_TS_LO | PLAN_TS_HI | PLAN_END_HI)) != 0)
        rows /= 3;
      if ((plan & PLAN_END_LO) != 0)
        rows /= 3;
      rows = MAX (rows, 1);
    }

  /* ORDER BY name (and GROUP BY name, which asks for the same) streams
   * from the name index when nothing narrower is asked for */
  if (info->col_name >= 0 && index->nOrderBy == 1 &&
      index->aOrderBy[0].iColumn == info->col_name && !index->aOrderBy[0].desc &&
      (plan & (PLAN_ID_EQ | PLAN_TRACK_EQ | PLAN_THREAD_EQ | PLAN_NAME_EQ | PLAN_KEY_EQ |
               PLAN_TS_LO | PLAN_TS_HI | PLAN_END_LO | PLAN_END_HI)) == 0)
    plan |= PLAN_BY_NAME;

  index->idxNum = plan;
  index->idxStr = describe_plan (info, plan);
  index->needToFreeIdxStr = index->idxStr != NULL;
  index->estimatedRows = (sqlite3_int64) rows;
  /* A binary search or an index lookup costs a little on top of the rows */
  index->estimatedCost = rows + ((plan & ~PLAN_ID_EQ) != 0 ? 10.0 : 0.0);
  index->orderByConsumed = order_by_consumed (info, index, plan);
  /* One name, or rows in name order */
  if (info->col_name >= 0 && index->nOrderBy == 1 &&
      index->aOrderBy[0].iColumn == info->col_name && !index->aOrderBy[0].desc &&
      (plan & (PLAN_NAME_EQ | PLAN_BY_NAME)) != 0)
    index->orderByConsumed = 1;

  return SQLITE_OK;
}
