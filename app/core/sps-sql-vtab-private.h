/* sps-sql-vtab-private.h: what the files of the SQL virtual tables share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * sps-sql-vtab.c is the SQLite module (cursors and their filters);
 * sps-sql-vtab-plan.c describes the tables and picks a plan for a query's
 * constraints; sps-sql-vtab-columns.c turns a row of one of the trace's
 * tables into the values of its columns.
 */

#pragma once

#include "sps-sql-private.h"
#include "sps-trace-private.h"

G_BEGIN_DECLS

typedef enum
{
  TABLE_PROCESSES,
  TABLE_THREADS,
  TABLE_TRACKS,
  TABLE_SLICES,
  TABLE_INSTANTS,
  TABLE_COUNTERS,
  TABLE_FLOWS,
  TABLE_SAMPLES,
  TABLE_CALLSITES,
  TABLE_FRAMES,
  TABLE_OBJECTS,
  TABLE_ALLOCATIONS,
  TABLE_GC_OBSERVATIONS,
  N_TABLES
} TableId;

enum { P_ID, P_PID, P_NAME, P_SORT_INDEX, P_LABELS };
enum { TH_ID, TH_PROCESS_ID, TH_PID, TH_TID, TH_NAME, TH_SORT_INDEX };
enum { TR_ID, TR_KIND, TR_PROCESS_ID, TR_THREAD_ID, TR_NAME, TR_SERIES, TR_ROW_COUNT, TR_MAX_DEPTH };
enum {
  S_ID, S_TS, S_DUR, S_END_TS, S_NAME, S_CATEGORY, S_TRACK_ID, S_THREAD_ID,
  S_PROCESS_ID, S_DEPTH, S_PARENT_ID, S_SELF_TIME, S_KIND, S_ARGS, S_ASYNC,
  S_UNFINISHED, S_SAMPLE_COUNT, S_SAMPLE_WEIGHT, S_WEIGHT_UNIT,
  S_ESTIMATED_CPU_TIME, S_ESTIMATED_SELF_CPU_TIME, S_SF,
  S_CALLSITE_ID, S_END_CALLSITE_ID
};
enum {
  I_ID, I_TS, I_NAME, I_CATEGORY, I_TRACK_ID, I_THREAD_ID, I_PROCESS_ID,
  I_SCOPE, I_KIND, I_ARGS, I_EVENT_ID, I_EVENT_VERSION, I_EVENT_OPCODE
};
enum { C_ID, C_TS, C_VALUE, C_TRACK_ID, C_NAME, C_SERIES, C_PROCESS_ID };
enum { F_ID, F_FROM_SLICE_ID, F_TO_SLICE_ID, F_FLOW_KEY, F_NAME, F_CATEGORY };
enum {
  SA_ID, SA_TS, SA_DUR, SA_SELF_TIME, SA_NAME, SA_TRACK_ID, SA_THREAD_ID,
  SA_PROCESS_ID, SA_CALLSITE_ID, SA_FRAME, SA_KIND, SA_SAMPLE_COUNT,
  SA_SAMPLE_WEIGHT, SA_WEIGHT_UNIT, SA_ESTIMATED_CPU_TIME,
  SA_ESTIMATED_SELF_CPU_TIME, SA_SF, SA_UNRESOLVED,
  SA_EVENT_NAME, SA_LINE
};
enum { CS_ID, CS_PARENT_ID, CS_FRAME_ID, CS_DEPTH, CS_NAME };
enum {
  FR_ID, FR_NAME, FR_CATEGORY, FR_MODULE, FR_ADDRESS,
  FR_SOURCE_FILE, FR_SOURCE_LINE, FR_SOURCE_COLUMN
};
enum { O_ID, O_TS, O_PHASE, O_PROCESS_ID, O_OBJECT_KEY, O_NAME, O_ARGS };
enum {
  AL_ID, AL_BIRTH_TS, AL_DEATH_TS, AL_DEATH_AFTER, AL_DEATH_BY, AL_SIZE, AL_ADDRESS,
  AL_TYPE, AL_CALLSITE_ID, AL_PROCESS_ID, AL_THREAD_ID, AL_HEAP, AL_CERTAINTY
};
enum {
  GC_ID, GC_TS, GC_PROCESS_ID, GC_THREAD_ID, GC_KIND, GC_NUMBER, GC_GENERATION,
  GC_REASON, GC_BYTES
};

#define KIND_BIT(k) (1u << (k))
#define SLICE_KINDS (KIND_BIT (SPS_TRACK_THREAD_SLICES) | \
                     KIND_BIT (SPS_TRACK_THREAD_SAMPLED_SLICES) | \
                     KIND_BIT (SPS_TRACK_ASYNC))
#define INSTANT_KINDS (KIND_BIT (SPS_TRACK_THREAD_INSTANTS) | \
                       KIND_BIT (SPS_TRACK_PROCESS_INSTANTS) | \
                       KIND_BIT (SPS_TRACK_GLOBAL_INSTANTS))

/* Rows of a table grouped by the value of a foreign-key column */
typedef struct
{
  guint32  *offsets;
  guint32  *rows;
  guint     n_keys;
  gboolean  unusable;       /* values out of range: scan instead */
} KeyIndex;

#define MAX_KEY_COLUMNS 32

/* Rows of a table grouped by name id: rows[offsets[id]] … rows[offsets[id + 1]] */
typedef struct
{
  guint32 *offsets;
  guint32 *rows;
  guint32 *rows_by_text;    /* all rows, by name text (bytewise), then row */
} NameIndex;

/* The aux of one table's module */
typedef struct
{
  SpsSqlVtabContext *ctx;
  TableId            table;
} VtabModule;

struct _SpsSqlVtabContext
{
  SpsTrace      *trace;
  SpsStringPool *strings;
  guint          n_strings;
  VtabModule     modules[N_TABLES];

  /* Built on first use by a query, which holds the engine's lock */
  NameIndex      name_index[N_TABLES];
  KeyIndex      *key_index[N_TABLES][MAX_KEY_COLUMNS];

  /* Progress of the first cursor of the running statement */
  gpointer       lead_cursor;
  guint64        lead_done;
  guint64        lead_total;
};

static inline SpsTime
slice_end (const SpsSliceTable *slices,
           guint32              row)
{
  SpsTime end;

  /* As the block index computes it, saturated rather than wrapped */
  if (__builtin_add_overflow (slices->ts[row], slices->dur[row], &end))
    return slices->dur[row] > 0 ? SPS_TIME_MAX : SPS_TIME_MIN;
  return end;
}

typedef struct
{
  const char *name;
  const char *columns;      /* as in CREATE TABLE x(…) */
  guint32     track_kinds;  /* rows sorted by (track, ts) in tracks of these kinds; 0: not */
  int         col_ts;       /* -1 when absent */
  int         col_end;
  int         col_track;
  int         col_thread;
  int         col_name;
} TableInfo;

extern const TableInfo _sps_sql_tables[N_TABLES];

/* Writes the value of column @col of row @row of one table */
typedef void (*SpsSqlVtabColumnFunc) (SpsSqlVtabContext *ctx,
                                      sqlite3_context   *sctx,
                                      guint32            row,
                                      int                col);

typedef struct
{
  sqlite3_vtab          base;
  SpsSqlVtabContext    *ctx;
  TableId               table;
  /* The table's reader, chosen once: xColumn runs for every value a
   * statement reads (a join's outer column once per inner row) */
  SpsSqlVtabColumnFunc  column;
} Vtab;

enum
{
  PLAN_ID_EQ          = 1 << 0,
  PLAN_TRACK_EQ       = 1 << 1,
  PLAN_THREAD_EQ      = 1 << 2,
  PLAN_NAME_EQ        = 1 << 3,
  PLAN_TS_LO          = 1 << 4,
  PLAN_TS_HI          = 1 << 5,
  PLAN_END_LO         = 1 << 6,
  PLAN_END_HI         = 1 << 7,
  /* Modifiers of the bounds above */
  PLAN_TS_LO_STRICT   = 1 << 8,
  PLAN_TS_HI_STRICT   = 1 << 9,
  PLAN_END_LO_STRICT  = 1 << 10,
  PLAN_END_HI_STRICT  = 1 << 11,
  PLAN_TS_EQ          = 1 << 12,   /* TS_LO's value bounds both ends */
  PLAN_BY_NAME        = 1 << 13,   /* rows in name order (no argv) */
  PLAN_KEY_EQ         = 1 << 14,   /* a foreign-key column = x; its column
                                    * is (plan >> PLAN_KEY_SHIFT) */
};

#define PLAN_KEY_SHIFT 16

/* Slots that take a value, in argv order: the bits 0…7, then the key */
#define N_PLAN_SLOTS 9

static inline int
plan_slot_bit (guint slot)
{
  return slot < 8 ? 1 << slot : PLAN_KEY_EQ;
}

static inline guint
table_n_rows (SpsTrace *trace,
              TableId   table)
{
  g_assert (SPS_IS_TRACE (trace));

  switch (table)
    {
    case TABLE_PROCESSES: return trace->processes.n_rows;
    case TABLE_THREADS: return trace->threads.n_rows;
    case TABLE_TRACKS: return trace->tracks.n_rows;
    case TABLE_SLICES: return trace->slices.n_rows;
    case TABLE_INSTANTS: return trace->instants.n_rows;
    case TABLE_COUNTERS: return trace->counters.n_rows;
    case TABLE_FLOWS: return trace->flows.n_rows;
    case TABLE_SAMPLES: return trace->samples.n_rows;
    case TABLE_CALLSITES: return trace->callsites.n_rows;
    case TABLE_FRAMES: return trace->frames.n_rows;
    case TABLE_OBJECTS: return trace->objects.n_rows;
    case TABLE_ALLOCATIONS: return trace->allocations.n_rows;
    case TABLE_GC_OBSERVATIONS: return trace->gc_observations.n_rows;
    case N_TABLES:
    default:
      g_assert_not_reached ();
    }
}

static inline const guint32 *
table_name (SpsTrace *trace,
            TableId   table)
{
  switch (table)
    {
    case TABLE_SLICES: return trace->slices.name;
    case TABLE_INSTANTS: return trace->instants.name;
    case TABLE_SAMPLES: return trace->samples.name;
    case TABLE_PROCESSES: return trace->processes.name;
    case TABLE_THREADS: return trace->threads.name;
    case TABLE_TRACKS: return trace->tracks.name;
    case TABLE_FLOWS: return trace->flows.name;
    case TABLE_FRAMES: return trace->frames.name;
    default: return NULL;
    }
}

const NameIndex *_sps_sql_vtab_get_name_index   (SpsSqlVtabContext *ctx,
                                                TableId            table);
const guint32   *_sps_sql_vtab_get_rows_by_text (SpsSqlVtabContext *ctx,
                                                TableId            table);

int  _sps_sql_vtab_best_index (sqlite3_vtab       *base,
                               sqlite3_index_info *info);

int             _sps_sql_vtab_key_ref        (TableId            table,
                                              int                col);
guint32         _sps_sql_vtab_row_key        (SpsTrace          *trace,
                                              TableId            table,
                                              int                col,
                                              guint32            row);
const KeyIndex *_sps_sql_vtab_get_key_index  (SpsSqlVtabContext *ctx,
                                              TableId            table,
                                              int                col);
void            _sps_sql_vtab_key_index_free (KeyIndex          *index);

SpsSqlVtabColumnFunc _sps_sql_vtab_get_column_func (TableId table);

G_END_DECLS
