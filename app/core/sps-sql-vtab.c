/* sps-sql-vtab.c: SQLite virtual tables over the trace's columns
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-sql"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "sps-sql-private.h"
#include "sps-trace-private.h"

/* One module, "spanscope", whose argument names the table. Every cursor
 * walks row numbers of one of the trace's tables: the row number is the
 * `id` column and the rowid. Rows always come out in ascending row order,
 * which for the tables sorted by (track, ts) is also (track_id, ts) order.
 *
 * A plan (idxNum) is a set of PLAN_* bits; each bit that takes a value
 * takes the next argv slot in the order of the bits. Range constraints are
 * never marked omitted: the cursor narrows the rows it visits (binary
 * search on ts within a track, the block index for end_ts) and SQLite
 * checks them again, so a plan can only visit too many rows, never return
 * a wrong one. */

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
  I_SCOPE, I_KIND, I_ARGS
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

#define KIND_BIT(k) (1u << (k))
#define SLICE_KINDS (KIND_BIT (SPS_TRACK_THREAD_SLICES) | \
                     KIND_BIT (SPS_TRACK_THREAD_SAMPLED_SLICES) | \
                     KIND_BIT (SPS_TRACK_ASYNC))
#define INSTANT_KINDS (KIND_BIT (SPS_TRACK_THREAD_INSTANTS) | \
                       KIND_BIT (SPS_TRACK_PROCESS_INSTANTS) | \
                       KIND_BIT (SPS_TRACK_GLOBAL_INSTANTS))

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

static const TableInfo tables[N_TABLES] = {
  [TABLE_PROCESSES] = {
    "processes",
    "id INTEGER, pid INTEGER, name TEXT, sort_index INTEGER, labels TEXT",
    0, -1, -1, -1, -1, -1 },
  [TABLE_THREADS] = {
    "threads",
    "id INTEGER, process_id INTEGER, pid INTEGER, tid INTEGER, name TEXT, sort_index INTEGER",
    0, -1, -1, -1, -1, -1 },
  [TABLE_TRACKS] = {
    "tracks",
    "id INTEGER, kind TEXT, process_id INTEGER, thread_id INTEGER, name TEXT, series TEXT,"
    " row_count INTEGER, max_depth INTEGER",
    0, -1, -1, -1, -1, -1 },
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
    " process_id INTEGER, scope TEXT, kind TEXT, args TEXT",
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
    0, -1, -1, -1, -1, -1 },
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
    0, -1, -1, -1, -1, -1 },
  [TABLE_OBJECTS] = {
    "objects",
    "id INTEGER, ts INTEGER, phase TEXT, process_id INTEGER, object_key INTEGER, name TEXT,"
    " args TEXT",
    0, -1, -1, -1, -1, -1 },
};

static const char * const track_kind_names[] = {
  [SPS_TRACK_THREAD_SLICES] = "thread_slices",
  [SPS_TRACK_THREAD_SAMPLED_SLICES] = "thread_sampled_slices",
  [SPS_TRACK_ASYNC] = "async",
  [SPS_TRACK_COUNTER] = "counter",
  [SPS_TRACK_THREAD_INSTANTS] = "thread_instants",
  [SPS_TRACK_PROCESS_INSTANTS] = "process_instants",
  [SPS_TRACK_GLOBAL_INSTANTS] = "global_instants",
  [SPS_TRACK_THREAD_SAMPLES] = "thread_samples",
};

static const char * const weight_unit_names[] = {
  [SPS_WEIGHT_UNIT_NONE] = NULL,
  [SPS_WEIGHT_UNIT_NS] = "ns",
  [SPS_WEIGHT_UNIT_US] = "us",
  [SPS_WEIGHT_UNIT_MS] = "ms",
  [SPS_WEIGHT_UNIT_S] = "s",
};

static const double weight_unit_ns[] = {
  [SPS_WEIGHT_UNIT_NONE] = 0,
  [SPS_WEIGHT_UNIT_NS] = 1,
  [SPS_WEIGHT_UNIT_US] = 1e3,
  [SPS_WEIGHT_UNIT_MS] = 1e6,
  [SPS_WEIGHT_UNIT_S] = 1e9,
};

/* Rows of a table grouped by name id: rows[offsets[id]] … rows[offsets[id + 1]] */
typedef struct
{
  guint32 *offsets;
  guint32 *rows;
  guint32 *rows_by_text;    /* all rows, by name text (bytewise), then row */
} NameIndex;

struct _SpsSqlVtabContext
{
  SpsTrace      *trace;
  SpsStringPool *strings;
  guint          n_strings;

  /* Built on first use by a query, which holds the engine's lock */
  NameIndex      name_index[N_TABLES];

  /* Progress of the first cursor of the running statement */
  gpointer       lead_cursor;
  guint64        lead_done;
  guint64        lead_total;
};

typedef struct
{
  sqlite3_vtab       base;
  SpsSqlVtabContext *ctx;
  TableId            table;
} Vtab;

typedef struct
{
  guint32 track;            /* SPS_NO_INDEX when not a single track */
  guint32 lo;
  guint32 hi;
} Segment;

typedef struct
{
  sqlite3_vtab_cursor base;
  Vtab               *vtab;
  guint32             row;
  gboolean            eof;

  /* Rows come either from segments or from a list of rows */
  Segment            *segments;
  guint               n_segments;
  guint               segment;
  const guint32      *list;
  guint               list_len;
  guint               list_pos;

  /* Filters the cursor applies itself (SQLite checks them again) */
  gboolean            filter_track;
  guint32             track;
  gboolean            filter_thread;
  guint32             thread;
  gboolean            filter_name;
  guint32             name;
  SpsTime             ts_lo;        /* inclusive bounds */
  SpsTime             ts_hi;
  SpsTime             end_lo;
  SpsTime             end_hi;
  gboolean            check_ts;     /* the bounds above are not the widest */
  gboolean            check_end;

  guint64             columns_read; /* bit per column xColumn was asked for */

  guint64             visited;
} Cursor;

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
};

#define N_PLAN_SLOTS 8

static guint
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
    case N_TABLES:
    default:
      g_assert_not_reached ();
    }
}

static inline const SpsTime *
table_ts (SpsTrace *trace,
          TableId   table)
{
  switch (table)
    {
    case TABLE_SLICES: return trace->slices.ts;
    case TABLE_INSTANTS: return trace->instants.ts;
    case TABLE_COUNTERS: return trace->counters.ts;
    case TABLE_SAMPLES: return trace->samples.ts;
    case TABLE_OBJECTS: return trace->objects.ts;
    default: return NULL;
    }
}

static inline const guint32 *
table_track (SpsTrace *trace,
             TableId   table)
{
  switch (table)
    {
    case TABLE_SLICES: return trace->slices.track;
    case TABLE_INSTANTS: return trace->instants.track;
    case TABLE_COUNTERS: return trace->counters.track;
    case TABLE_SAMPLES: return trace->samples.track;
    default: return NULL;
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
    default: return NULL;
    }
}

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
    if (g_ascii_strcasecmp (name, tables[i].name) == 0)
      return TRUE;
  return g_ascii_strcasecmp (name, "events") == 0;
}

/* Counting sort of the rows by name id: two passes, no comparisons */
static const NameIndex *
get_name_index (SpsSqlVtabContext *ctx,
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
static const guint32 *
get_rows_by_text (SpsSqlVtabContext *ctx,
                  TableId            table)
{
  const NameIndex *index = get_name_index (ctx, table);
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

/* Values */

static inline void
result_string (sqlite3_context   *sctx,
               SpsSqlVtabContext *ctx,
               guint32            id,
               gboolean           empty_is_null)
{
  const char *str;
  gsize len;

  if (id == SPS_NO_INDEX || id >= ctx->n_strings || (empty_is_null && id == 0))
    return;     /* NULL */

  /* Interned strings live as long as the trace, which the context holds */
  str = sps_string_pool_get (ctx->strings, id, &len);
  sqlite3_result_text (sctx, str, (int) len, SQLITE_STATIC);
}

static inline void
result_index (sqlite3_context *sctx,
              guint32          index)
{
  if (index != SPS_NO_INDEX)
    sqlite3_result_int64 (sctx, index);
}

static inline void
result_args (sqlite3_context   *sctx,
             SpsSqlVtabContext *ctx,
             SpsArgsRef         ref)
{
  const char *json;
  gsize len = 0;

  if (ref == SPS_ARGS_REF_NONE)
    return;
  json = sps_trace_get_args_json (ctx->trace, ref, &len);
  if (json != NULL && len <= G_MAXINT)
    sqlite3_result_text (sctx, json, (int) len, SQLITE_STATIC);
}

static inline guint32
thread_process (SpsTrace *trace,
                guint32   thread)
{
  if (thread == SPS_NO_INDEX || thread >= trace->threads.n_rows)
    return SPS_NO_INDEX;
  return trace->threads.process[thread];
}

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

static void
column_processes (SpsSqlVtabContext *ctx,
                  sqlite3_context   *sctx,
                  guint32            row,
                  int                col)
{
  const SpsProcessTable *t = &ctx->trace->processes;

  switch (col)
    {
    case P_ID: sqlite3_result_int64 (sctx, row); break;
    case P_PID: sqlite3_result_int64 (sctx, t->pid[row]); break;
    case P_NAME: result_string (sctx, ctx, t->name[row], FALSE); break;
    case P_SORT_INDEX:
      if (t->sort_index[row] != G_MAXINT32)
        sqlite3_result_int64 (sctx, t->sort_index[row]);
      break;
    case P_LABELS: result_string (sctx, ctx, t->labels[row], TRUE); break;
    default: break;
    }
}

static void
column_threads (SpsSqlVtabContext *ctx,
                sqlite3_context   *sctx,
                guint32            row,
                int                col)
{
  const SpsThreadTable *t = &ctx->trace->threads;

  switch (col)
    {
    case TH_ID: sqlite3_result_int64 (sctx, row); break;
    case TH_PROCESS_ID: result_index (sctx, t->process[row]); break;
    case TH_PID:
      if (t->process[row] < ctx->trace->processes.n_rows)
        sqlite3_result_int64 (sctx, ctx->trace->processes.pid[t->process[row]]);
      break;
    case TH_TID: sqlite3_result_int64 (sctx, t->tid[row]); break;
    case TH_NAME: result_string (sctx, ctx, t->name[row], FALSE); break;
    case TH_SORT_INDEX:
      if (t->sort_index[row] != G_MAXINT32)
        sqlite3_result_int64 (sctx, t->sort_index[row]);
      break;
    default: break;
    }
}

static void
column_tracks (SpsSqlVtabContext *ctx,
               sqlite3_context   *sctx,
               guint32            row,
               int                col)
{
  const SpsTrackTable *t = &ctx->trace->tracks;

  switch (col)
    {
    case TR_ID: sqlite3_result_int64 (sctx, row); break;
    case TR_KIND:
      if (t->kind[row] < G_N_ELEMENTS (track_kind_names))
        sqlite3_result_text (sctx, track_kind_names[t->kind[row]], -1, SQLITE_STATIC);
      break;
    case TR_PROCESS_ID: result_index (sctx, t->process[row]); break;
    case TR_THREAD_ID: result_index (sctx, t->thread[row]); break;
    case TR_NAME: result_string (sctx, ctx, t->name[row], FALSE); break;
    case TR_SERIES: result_string (sctx, ctx, t->series[row], TRUE); break;
    case TR_ROW_COUNT: sqlite3_result_int64 (sctx, t->n_rows_in_track[row]); break;
    case TR_MAX_DEPTH:
      if ((SLICE_KINDS & KIND_BIT (t->kind[row])) != 0)
        sqlite3_result_int64 (sctx, t->max_depth[row]);
      break;
    default: break;
    }
}

static void
column_slices (SpsSqlVtabContext *ctx,
               sqlite3_context   *sctx,
               guint32            row,
               int                col)
{
  const SpsSliceTable *t = &ctx->trace->slices;
  const SpsTrackTable *tracks = &ctx->trace->tracks;
  /* Read only by the columns that need it: rows may come in any order and
   * every column read can be a cache miss */
#define sampled ((t->flags[row] & SPS_SLICE_SAMPLED) != 0)

  switch (col)
    {
    case S_ID: sqlite3_result_int64 (sctx, row); break;
    case S_TS: sqlite3_result_int64 (sctx, t->ts[row]); break;
    /* A sampled span's interval is an estimate, not a measurement: it is
     * only in estimated_cpu_time, so duration queries select measured
     * slices alone. */
    case S_DUR:
      if (!sampled)
        sqlite3_result_int64 (sctx, t->dur[row]);
      break;
    case S_END_TS: sqlite3_result_int64 (sctx, slice_end (t, row)); break;
    case S_NAME: result_string (sctx, ctx, t->name[row], FALSE); break;
    case S_CATEGORY: result_string (sctx, ctx, t->category[row], TRUE); break;
    case S_TRACK_ID: sqlite3_result_int64 (sctx, t->track[row]); break;
    case S_THREAD_ID: result_index (sctx, tracks->thread[t->track[row]]); break;
    case S_PROCESS_ID: result_index (sctx, tracks->process[t->track[row]]); break;
    case S_DEPTH: sqlite3_result_int64 (sctx, t->depth[row]); break;
    case S_PARENT_ID: result_index (sctx, t->parent[row]); break;
    case S_SELF_TIME:
      if (!sampled)
        sqlite3_result_int64 (sctx, t->self_time[row]);
      break;
    case S_KIND:
      sqlite3_result_text (sctx, sampled ? "sampled_span" : "measured", -1, SQLITE_STATIC);
      break;
    case S_ARGS: result_args (sctx, ctx, t->args[row]); break;
    case S_CALLSITE_ID: result_index (sctx, t->callsite[row]); break;
    case S_END_CALLSITE_ID: result_index (sctx, t->end_callsite[row]); break;
    case S_ASYNC: sqlite3_result_int (sctx, (t->flags[row] & SPS_SLICE_ASYNC) != 0); break;
    case S_UNFINISHED: sqlite3_result_int (sctx, (t->flags[row] & SPS_SLICE_UNFINISHED) != 0); break;
    /* A converted span's interval is the CPU estimate; its original
     * sample count and weight are not known. */
    case S_ESTIMATED_CPU_TIME:
      if (sampled)
        sqlite3_result_int64 (sctx, t->dur[row]);
      break;
    case S_ESTIMATED_SELF_CPU_TIME:
      if (sampled)
        sqlite3_result_int64 (sctx, t->self_time[row]);
      break;
    case S_SAMPLE_COUNT:
    case S_SAMPLE_WEIGHT:
    case S_WEIGHT_UNIT:
    case S_SF:
    default:
      break;
    }
#undef sampled
}

static void
column_instants (SpsSqlVtabContext *ctx,
                 sqlite3_context   *sctx,
                 guint32            row,
                 int                col)
{
  static const char * const scopes[] = {
    [SPS_TRACK_THREAD_INSTANTS] = "thread",
    [SPS_TRACK_PROCESS_INSTANTS] = "process",
    [SPS_TRACK_GLOBAL_INSTANTS] = "global",
  };
  static const char * const kinds[] = {
    [SPS_INSTANT_KIND_INSTANT] = "instant",
    [SPS_INSTANT_KIND_MARK] = "mark",
    [SPS_INSTANT_KIND_ASYNC] = "async",
  };
  const SpsInstantTable *t = &ctx->trace->instants;
  const SpsTrackTable *tracks = &ctx->trace->tracks;
  guint8 kind;

  switch (col)
    {
    case I_ID: sqlite3_result_int64 (sctx, row); break;
    case I_TS: sqlite3_result_int64 (sctx, t->ts[row]); break;
    case I_NAME: result_string (sctx, ctx, t->name[row], FALSE); break;
    case I_CATEGORY: result_string (sctx, ctx, t->category[row], TRUE); break;
    case I_TRACK_ID: sqlite3_result_int64 (sctx, t->track[row]); break;
    case I_THREAD_ID: result_index (sctx, tracks->thread[t->track[row]]); break;
    case I_PROCESS_ID: result_index (sctx, tracks->process[t->track[row]]); break;
    case I_SCOPE:
      kind = tracks->kind[t->track[row]];
      if (kind < G_N_ELEMENTS (scopes) && scopes[kind] != NULL)
        sqlite3_result_text (sctx, scopes[kind], -1, SQLITE_STATIC);
      break;
    case I_KIND:
      if (t->kind[row] < G_N_ELEMENTS (kinds))
        sqlite3_result_text (sctx, kinds[t->kind[row]], -1, SQLITE_STATIC);
      break;
    case I_ARGS: result_args (sctx, ctx, t->args[row]); break;
    default: break;
    }
}

static void
column_counters (SpsSqlVtabContext *ctx,
                 sqlite3_context   *sctx,
                 guint32            row,
                 int                col)
{
  const SpsCounterTable *t = &ctx->trace->counters;
  const SpsTrackTable *tracks = &ctx->trace->tracks;

  switch (col)
    {
    case C_ID: sqlite3_result_int64 (sctx, row); break;
    case C_TS: sqlite3_result_int64 (sctx, t->ts[row]); break;
    case C_VALUE:
      if (!isnan (t->value[row]))
        sqlite3_result_double (sctx, t->value[row]);
      break;
    case C_TRACK_ID: sqlite3_result_int64 (sctx, t->track[row]); break;
    case C_NAME: result_string (sctx, ctx, tracks->name[t->track[row]], FALSE); break;
    case C_SERIES: result_string (sctx, ctx, tracks->series[t->track[row]], TRUE); break;
    case C_PROCESS_ID: result_index (sctx, tracks->process[t->track[row]]); break;
    default: break;
    }
}

static void
column_flows (SpsSqlVtabContext *ctx,
              sqlite3_context   *sctx,
              guint32            row,
              int                col)
{
  const SpsFlowTable *t = &ctx->trace->flows;

  switch (col)
    {
    case F_ID: sqlite3_result_int64 (sctx, row); break;
    case F_FROM_SLICE_ID: result_index (sctx, t->from_slice[row]); break;
    case F_TO_SLICE_ID: result_index (sctx, t->to_slice[row]); break;
    /* Keys above 2^63 read as negative: SQLite has no unsigned integer */
    case F_FLOW_KEY: sqlite3_result_int64 (sctx, (sqlite3_int64) t->key[row]); break;
    case F_NAME: result_string (sctx, ctx, t->name[row], FALSE); break;
    case F_CATEGORY: result_string (sctx, ctx, t->category[row], TRUE); break;
    default: break;
    }
}

static gboolean
sample_estimate (const SpsSampleTable *t,
                 guint32               row,
                 gint64               *ns)
{
  guint8 unit = t->weight_unit[row];
  double weight = t->weight[row];

  if ((t->flags[row] & SPS_SAMPLE_HAS_WEIGHT) == 0 ||
      unit == SPS_WEIGHT_UNIT_NONE || unit >= G_N_ELEMENTS (weight_unit_ns) ||
      !isfinite (weight) || weight < 0)
    return FALSE;

  weight *= weight_unit_ns[unit];
  if (weight >= 9.2e18)
    return FALSE;
  *ns = (gint64) llround (weight);
  return TRUE;
}

static void
column_samples (SpsSqlVtabContext *ctx,
                sqlite3_context   *sctx,
                guint32            row,
                int                col)
{
  const SpsSampleTable *t = &ctx->trace->samples;
  const SpsCallsiteTable *callsites = &ctx->trace->callsites;
  guint32 callsite;
  gint64 ns;

  switch (col)
    {
    case SA_ID: sqlite3_result_int64 (sctx, row); break;
    case SA_TS: sqlite3_result_int64 (sctx, t->ts[row]); break;
    case SA_NAME: result_string (sctx, ctx, t->name[row], FALSE); break;
    case SA_TRACK_ID: sqlite3_result_int64 (sctx, t->track[row]); break;
    case SA_THREAD_ID: result_index (sctx, t->thread[row]); break;
    case SA_PROCESS_ID: result_index (sctx, thread_process (ctx->trace, t->thread[row])); break;
    case SA_CALLSITE_ID: result_index (sctx, t->callsite[row]); break;
    case SA_FRAME:
      callsite = t->callsite[row];
      if (callsite < callsites->n_rows &&
          callsites->frame[callsite] < ctx->trace->frames.n_rows)
        result_string (sctx, ctx, ctx->trace->frames.name[callsites->frame[callsite]], FALSE);
      break;
    case SA_KIND: sqlite3_result_text (sctx, "sample", -1, SQLITE_STATIC); break;
    case SA_SAMPLE_COUNT: sqlite3_result_int (sctx, 1); break;
    case SA_SAMPLE_WEIGHT:
      if ((t->flags[row] & SPS_SAMPLE_HAS_WEIGHT) != 0 && !isnan (t->weight[row]))
        sqlite3_result_double (sctx, t->weight[row]);
      break;
    case SA_WEIGHT_UNIT:
      if (t->weight_unit[row] < G_N_ELEMENTS (weight_unit_names) &&
          weight_unit_names[t->weight_unit[row]] != NULL)
        sqlite3_result_text (sctx, weight_unit_names[t->weight_unit[row]], -1, SQLITE_STATIC);
      break;
    /* A raw sample's CPU estimate belongs to its observed leaf: inclusive
     * and self are the same. */
    case SA_ESTIMATED_CPU_TIME:
    case SA_ESTIMATED_SELF_CPU_TIME:
      if (sample_estimate (t, row, &ns))
        sqlite3_result_int64 (sctx, ns);
      break;
    case SA_SF: result_string (sctx, ctx, t->raw_stack_ref[row], TRUE); break;
    case SA_UNRESOLVED: sqlite3_result_int (sctx, (t->flags[row] & SPS_SAMPLE_UNRESOLVED) != 0); break;
    case SA_EVENT_NAME: result_string (sctx, ctx, t->event_name[row], FALSE); break;
    case SA_LINE:
      if (t->line[row] != 0)
        sqlite3_result_int64 (sctx, t->line[row]);
      break;
    case SA_DUR:
    case SA_SELF_TIME:
    default:
      break;
    }
}

static void
column_callsites (SpsSqlVtabContext *ctx,
                  sqlite3_context   *sctx,
                  guint32            row,
                  int                col)
{
  const SpsCallsiteTable *t = &ctx->trace->callsites;

  switch (col)
    {
    case CS_ID: sqlite3_result_int64 (sctx, row); break;
    case CS_PARENT_ID: result_index (sctx, t->parent[row]); break;
    case CS_FRAME_ID: result_index (sctx, t->frame[row]); break;
    case CS_DEPTH: sqlite3_result_int64 (sctx, t->depth[row]); break;
    case CS_NAME:
      if (t->frame[row] < ctx->trace->frames.n_rows)
        result_string (sctx, ctx, ctx->trace->frames.name[t->frame[row]], FALSE);
      break;
    default: break;
    }
}

static void
column_frames (SpsSqlVtabContext *ctx,
               sqlite3_context   *sctx,
               guint32            row,
               int                col)
{
  const SpsFrameTable *t = &ctx->trace->frames;

  switch (col)
    {
    case FR_ID: sqlite3_result_int64 (sctx, row); break;
    case FR_NAME: result_string (sctx, ctx, t->name[row], FALSE); break;
    case FR_CATEGORY: result_string (sctx, ctx, t->category[row], TRUE); break;
    case FR_MODULE: result_string (sctx, ctx, t->module[row], TRUE); break;
    case FR_ADDRESS: sqlite3_result_int64 (sctx, (sqlite3_int64) t->address[row]); break;
    case FR_SOURCE_FILE: result_string (sctx, ctx, t->source_file[row], TRUE); break;
    case FR_SOURCE_LINE:
      if (t->source_line[row] != 0)
        sqlite3_result_int64 (sctx, t->source_line[row]);
      break;
    case FR_SOURCE_COLUMN:
      if (t->source_column[row] != 0)
        sqlite3_result_int64 (sctx, t->source_column[row]);
      break;
    default: break;
    }
}

static void
column_objects (SpsSqlVtabContext *ctx,
                sqlite3_context   *sctx,
                guint32            row,
                int                col)
{
  static const char * const phases[] = {
    [SPS_OBJECT_CREATED] = "created",
    [SPS_OBJECT_SNAPSHOT] = "snapshot",
    [SPS_OBJECT_DESTROYED] = "destroyed",
  };
  const SpsObjectTable *t = &ctx->trace->objects;

  switch (col)
    {
    case O_ID: sqlite3_result_int64 (sctx, row); break;
    case O_TS: sqlite3_result_int64 (sctx, t->ts[row]); break;
    case O_PHASE:
      if (t->phase[row] < G_N_ELEMENTS (phases))
        sqlite3_result_text (sctx, phases[t->phase[row]], -1, SQLITE_STATIC);
      break;
    case O_PROCESS_ID: result_index (sctx, t->process[row]); break;
    case O_OBJECT_KEY: sqlite3_result_int64 (sctx, (sqlite3_int64) t->key[row]); break;
    case O_NAME: result_string (sctx, ctx, t->name[row], FALSE); break;
    case O_ARGS: result_args (sctx, ctx, t->args[row]); break;
    default: break;
    }
}

/* Module callbacks */

static int
vtab_connect (sqlite3            *db,
              void               *aux,
              int                 argc,
              const char * const *argv,
              sqlite3_vtab      **out_vtab,
              char              **out_error)
{
  SpsSqlVtabContext *ctx = aux;
  g_autofree char *schema = NULL;
  Vtab *vtab;
  int table = -1;
  int rc;

  /* argv: module, database, table name, then our argument */
  if (argc >= 4)
    for (guint i = 0; i < N_TABLES; i++)
      if (g_strcmp0 (argv[3], tables[i].name) == 0)
        table = (int) i;
  if (table < 0)
    {
      *out_error = sqlite3_mprintf ("%s", _("spanscope: unknown trace table"));
      return SQLITE_ERROR;
    }

  schema = g_strdup_printf ("CREATE TABLE x(%s)", tables[table].columns);
  rc = sqlite3_declare_vtab (db, schema);
  if (rc != SQLITE_OK)
    return rc;

  vtab = sqlite3_malloc (sizeof *vtab);
  if (vtab == NULL)
    return SQLITE_NOMEM;
  memset (vtab, 0, sizeof *vtab);
  vtab->ctx = ctx;
  vtab->table = (TableId) table;
  *out_vtab = &vtab->base;

  return SQLITE_OK;
}

static int
vtab_disconnect (sqlite3_vtab *base)
{
  sqlite3_free (base);
  return SQLITE_OK;
}

static guint
count_tracks (SpsTrace *trace,
              guint32   kinds)
{
  guint n = 0;

  for (guint t = 0; t < trace->tracks.n_rows; t++)
    if ((kinds & KIND_BIT (trace->tracks.kind[t])) != 0)
      n++;
  return n;
}

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

/* What EXPLAIN QUERY PLAN shows after "INDEX n:" */
static char *
describe_plan (int plan)
{
  static const char * const names[N_PLAN_SLOTS] = {
    "id=", "track_id=", "thread_id=", "name=", "ts>=", "ts<=", "end_ts>=", "end_ts<=",
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
      if ((plan & (1 << slot)) == 0)
        continue;
      if (text->len > 0)
        g_string_append_c (text, ' ');
      if (slot == 4 && (plan & PLAN_TS_EQ) != 0)
        g_string_append (text, "ts=");
      else
        g_string_append (text, names[slot]);
    }

  str = sqlite3_mprintf ("%s", text->str);
  g_string_free (text, TRUE);
  return str;
}

static int
vtab_best_index (sqlite3_vtab       *base,
                 sqlite3_index_info *index)
{
  Vtab *vtab = (Vtab *) base;
  const TableInfo *info = &tables[vtab->table];
  SpsTrace *trace = vtab->ctx->trace;
  double rows = MAX (1, table_n_rows (trace, vtab->table));
  int slot_constraint[N_PLAN_SLOTS];
  int plan = 0;
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
      plan |= (1 << slot) | flags;
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
      index->aConstraintUsage[i].omit = slot <= 3;
    }

  /* Honest estimates: what the cursor will visit */
  if ((plan & PLAN_ID_EQ) != 0)
    {
      rows = 1;
      index->idxFlags |= SQLITE_INDEX_SCAN_UNIQUE;
    }
  else
    {
      if ((plan & PLAN_TRACK_EQ) != 0)
        rows /= MAX (1, count_tracks (trace, info->track_kinds));
      else if ((plan & PLAN_THREAD_EQ) != 0)
        rows /= MAX (1, trace->threads.n_rows);
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
      (plan & (PLAN_ID_EQ | PLAN_TRACK_EQ | PLAN_THREAD_EQ | PLAN_NAME_EQ |
               PLAN_TS_LO | PLAN_TS_HI | PLAN_END_LO | PLAN_END_HI)) == 0)
    plan |= PLAN_BY_NAME;

  index->idxNum = plan;
  index->idxStr = describe_plan (plan);
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

static int
vtab_open (sqlite3_vtab         *base,
           sqlite3_vtab_cursor **out_cursor)
{
  Cursor *cursor = sqlite3_malloc (sizeof *cursor);

  if (cursor == NULL)
    return SQLITE_NOMEM;
  memset (cursor, 0, sizeof *cursor);
  cursor->vtab = (Vtab *) base;
  *out_cursor = &cursor->base;

  return SQLITE_OK;
}

static void
cursor_clear (Cursor *cursor)
{
  g_clear_pointer (&cursor->segments, g_free);
  cursor->n_segments = 0;
  cursor->segment = 0;
  cursor->list = NULL;
  cursor->list_len = 0;
  cursor->list_pos = 0;
  cursor->filter_track = FALSE;
  cursor->filter_thread = FALSE;
  cursor->filter_name = FALSE;
  cursor->ts_lo = SPS_TIME_MIN;
  cursor->ts_hi = SPS_TIME_MAX;
  cursor->end_lo = SPS_TIME_MIN;
  cursor->end_hi = SPS_TIME_MAX;
  cursor->check_ts = FALSE;
  cursor->check_end = FALSE;
  cursor->visited = 0;
  cursor->eof = TRUE;
}

static int
vtab_close (sqlite3_vtab_cursor *base)
{
  Cursor *cursor = (Cursor *) base;
  SpsSqlVtabContext *ctx = cursor->vtab->ctx;

  if (ctx->lead_cursor == cursor)
    ctx->lead_cursor = NULL;
  cursor_clear (cursor);
  sqlite3_free (cursor);
  return SQLITE_OK;
}

/* Reads a time bound; FALSE when the value gives no usable bound (text,
 * blob or NULL: SQLite's own check then decides, or, for NULL, rejects
 * every row). */
static gboolean
value_to_bound (sqlite3_value *value,
                gboolean       lower,
                gboolean       strict,
                SpsTime       *bound,
                gboolean      *empty)
{
  double d;

  switch (sqlite3_value_numeric_type (value))
    {
    case SQLITE_INTEGER:
      {
        sqlite3_int64 v = sqlite3_value_int64 (value);

        if (strict && lower)
          {
            if (v == G_MAXINT64)
              *empty = TRUE;
            else
              v++;
          }
        else if (strict && !lower)
          {
            if (v == G_MININT64)
              *empty = TRUE;
            else
              v--;
          }
        *bound = v;
        return TRUE;
      }

    case SQLITE_FLOAT:
      d = sqlite3_value_double (value);
      if (isnan (d))
        return FALSE;
      /* Smallest (largest) integer satisfying the bound */
      if (lower)
        d = strict ? floor (d) + 1 : ceil (d);
      else
        d = strict ? ceil (d) - 1 : floor (d);
      if (d >= 9223372036854775807.0)
        {
          if (lower)
            *empty = TRUE;
          *bound = G_MAXINT64;
        }
      else if (d <= -9223372036854775808.0)
        {
          if (!lower)
            *empty = TRUE;
          *bound = G_MININT64;
        }
      else
        *bound = (SpsTime) d;
      return TRUE;

    case SQLITE_NULL:
      *empty = TRUE;
      return FALSE;

    default:
      return FALSE;
    }
}

static gboolean
value_to_index (sqlite3_value *value,
                guint32       *index)
{
  sqlite3_int64 v;

  switch (sqlite3_value_numeric_type (value))
    {
    case SQLITE_INTEGER:
      v = sqlite3_value_int64 (value);
      break;
    case SQLITE_FLOAT:
      {
        double d = sqlite3_value_double (value);

        if (d != floor (d) || d < 0 || d >= (double) G_MAXUINT32)
          return FALSE;
        v = (sqlite3_int64) d;
      }
      break;
    default:
      return FALSE;
    }

  if (v < 0 || v >= SPS_NO_INDEX)
    return FALSE;
  *index = (guint32) v;
  return TRUE;
}

static void
add_segment (GArray  *segments,
             guint32  track,
             guint32  lo,
             guint32  hi)
{
  Segment s = { track, lo, hi };

  if (lo < hi)
    g_array_append_val (segments, s);
}

/* The rows of @track whose ts lies in [ts_lo, ts_hi], by binary search */
static void
add_track_segment (Cursor  *cursor,
                   GArray  *segments,
                   guint32  track)
{
  SpsTrace *trace = cursor->vtab->ctx->trace;
  const SpsTime *ts = table_ts (trace, cursor->vtab->table);
  guint32 first = trace->tracks.first_row[track];
  guint32 end = first + trace->tracks.n_rows_in_track[track];
  guint32 lo = first;
  guint32 hi = end;
  guint32 a;

  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;

      if (ts[mid] < cursor->ts_lo)
        lo = mid + 1;
      else
        hi = mid;
    }
  a = lo;

  hi = end;
  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;

      if (ts[mid] <= cursor->ts_hi)
        lo = mid + 1;
      else
        hi = mid;
    }

  add_segment (segments, track, a, lo);
}

static gboolean
cursor_row_matches (Cursor  *cursor,
                    guint32  row)
{
  SpsTrace *trace = cursor->vtab->ctx->trace;
  TableId table = cursor->vtab->table;
  const SpsTime *ts;
  const guint32 *track;

  if (cursor->filter_track || cursor->filter_thread)
    {
      track = table_track (trace, table);
      if (cursor->filter_track && track[row] != cursor->track)
        return FALSE;
      if (cursor->filter_thread &&
          (table == TABLE_SAMPLES ? trace->samples.thread[row]
                                  : trace->tracks.thread[track[row]]) != cursor->thread)
        return FALSE;
    }

  if (cursor->filter_name && table_name (trace, table)[row] != cursor->name)
    return FALSE;

  ts = table_ts (trace, table);
  if (cursor->check_ts && ts != NULL && (ts[row] < cursor->ts_lo || ts[row] > cursor->ts_hi))
    return FALSE;

  if (cursor->check_end)
    {
      SpsTime end = slice_end (&trace->slices, row);

      if (end < cursor->end_lo || end > cursor->end_hi)
        return FALSE;
    }

  return TRUE;
}

#define PREFETCH_DISTANCE 32

/* GCC 12 at -O2 dropped the __builtin_prefetch calls of prefetch_row()
 * (none left in the object file); an asm statement it has to keep */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
# define PREFETCH(p) __asm__ volatile ("prefetcht0 %0" : : "m" (*(const char *) (p)))
#elif defined(__GNUC__)
# define PREFETCH(p) __builtin_prefetch (p)
#else
# define PREFETCH(p) ((void) (p))
#endif

static inline void
prefetch_row (Cursor  *cursor,
              guint32  row)
{
  SpsTrace *trace = cursor->vtab->ctx->trace;

  guint64 used = cursor->columns_read;

  /* The columns the statement has read so far, and those the filters read */
#define WANTS(col) ((used & (G_GUINT64_CONSTANT (1) << (col))) != 0)
  switch (cursor->vtab->table)
    {
    case TABLE_SLICES:
      if (cursor->check_ts || cursor->check_end || WANTS (S_TS) || WANTS (S_END_TS))
        PREFETCH (&trace->slices.ts[row]);
      if (cursor->check_end || WANTS (S_DUR) || WANTS (S_END_TS) || WANTS (S_ESTIMATED_CPU_TIME))
        PREFETCH (&trace->slices.dur[row]);
      if (WANTS (S_NAME))
        PREFETCH (&trace->slices.name[row]);
      if (cursor->filter_thread || WANTS (S_TRACK_ID) || WANTS (S_THREAD_ID) || WANTS (S_PROCESS_ID))
        PREFETCH (&trace->slices.track[row]);
      if (WANTS (S_SELF_TIME))
        PREFETCH (&trace->slices.self_time[row]);
      break;
    case TABLE_INSTANTS:
      if (cursor->check_ts || WANTS (I_TS))
        PREFETCH (&trace->instants.ts[row]);
      if (WANTS (I_NAME))
        PREFETCH (&trace->instants.name[row]);
      break;
    case TABLE_SAMPLES:
      if (cursor->check_ts || WANTS (SA_TS))
        PREFETCH (&trace->samples.ts[row]);
      if (WANTS (SA_NAME))
        PREFETCH (&trace->samples.name[row]);
      if (WANTS (SA_CALLSITE_ID) || WANTS (SA_FRAME))
        PREFETCH (&trace->samples.callsite[row]);
      break;
    default:
      break;
    }
#undef WANTS
}

/* Moves to the first matching row at or after the current position,
 * skipping whole blocks of slices that end before end_lo. */
static void
cursor_settle (Cursor *cursor)
{
  SpsTrace *trace = cursor->vtab->ctx->trace;
  gboolean blocks = cursor->vtab->table == TABLE_SLICES && cursor->end_lo != SPS_TIME_MIN;

  if (cursor->list != NULL)
    {
      while (cursor->list_pos < cursor->list_len)
        {
          guint32 row = cursor->list[cursor->list_pos];

          /* Rows of a list are scattered over the columns: ask for the
           * ones a few rows ahead so that their cache misses overlap */
          if (cursor->list_pos + PREFETCH_DISTANCE < cursor->list_len)
            prefetch_row (cursor, cursor->list[cursor->list_pos + PREFETCH_DISTANCE]);

          cursor->visited++;
          if (cursor_row_matches (cursor, row))
            {
              cursor->row = row;
              cursor->eof = FALSE;
              return;
            }
          cursor->list_pos++;
        }
      cursor->eof = TRUE;
      return;
    }

  while (cursor->segment < cursor->n_segments)
    {
      const Segment *s = &cursor->segments[cursor->segment];

      while (cursor->row < s->hi)
        {
          if (blocks && s->track != SPS_NO_INDEX)
            {
              guint32 first = trace->tracks.first_row[s->track];
              guint32 offset = cursor->row - first;

              if (offset % SPS_SLICE_BLOCK_SIZE == 0)
                {
                  guint32 block = trace->track_first_block[s->track] + offset / SPS_SLICE_BLOCK_SIZE;

                  if (trace->block_tree[trace->n_block_leaves + block] < cursor->end_lo)
                    {
                      cursor->row = MIN (s->hi, cursor->row + SPS_SLICE_BLOCK_SIZE);
                      continue;
                    }
                }
            }

          cursor->visited++;
          if (cursor_row_matches (cursor, cursor->row))
            {
              cursor->eof = FALSE;
              return;
            }
          cursor->row++;
        }

      cursor->segment++;
      if (cursor->segment < cursor->n_segments)
        cursor->row = cursor->segments[cursor->segment].lo;
    }

  cursor->eof = TRUE;
}

static void
report_progress (Cursor *cursor)
{
  SpsSqlVtabContext *ctx = cursor->vtab->ctx;

  if (ctx->lead_cursor == cursor)
    ctx->lead_done = cursor->visited;
}

static int
vtab_filter (sqlite3_vtab_cursor  *base,
             int                   plan,
             const char           *idx_str,
             int                   argc,
             sqlite3_value       **argv)
{
  Cursor *cursor = (Cursor *) base;
  SpsSqlVtabContext *ctx = cursor->vtab->ctx;
  SpsTrace *trace = ctx->trace;
  TableId table = cursor->vtab->table;
  const TableInfo *info = &tables[table];
  guint n_rows = table_n_rows (trace, table);
  g_autoptr(GArray) segments = g_array_new (FALSE, FALSE, sizeof (Segment));
  gboolean empty = FALSE;
  gboolean have_id = FALSE;
  guint32 id = 0;
  guint64 total = 0;
  int arg = 0;

  cursor_clear (cursor);

  for (guint slot = 0; slot < N_PLAN_SLOTS; slot++)
    {
      sqlite3_value *value;

      if ((plan & (1 << slot)) == 0)
        continue;
      if (arg >= argc)
        break;
      value = argv[arg++];

      switch (1 << slot)
        {
        case PLAN_ID_EQ:
          have_id = value_to_index (value, &id);
          empty |= !have_id;
          break;

        case PLAN_TRACK_EQ:
          cursor->filter_track = value_to_index (value, &cursor->track);
          empty |= !cursor->filter_track || cursor->track >= trace->tracks.n_rows;
          break;

        case PLAN_THREAD_EQ:
          cursor->filter_thread = value_to_index (value, &cursor->thread);
          empty |= !cursor->filter_thread;
          break;

        case PLAN_NAME_EQ:
          {
            const char *text = (const char *) sqlite3_value_text (value);

            if (text == NULL)
              empty = TRUE;
            else
              {
                cursor->name = sps_string_pool_lookup (ctx->strings, text,
                                                       sqlite3_value_bytes (value));
                empty |= cursor->name == SPS_NO_INDEX;
                cursor->filter_name = TRUE;
              }
          }
          break;

        case PLAN_TS_LO:
          value_to_bound (value, TRUE, (plan & PLAN_TS_LO_STRICT) != 0, &cursor->ts_lo, &empty);
          if ((plan & PLAN_TS_EQ) != 0)
            {
              if (!value_to_bound (value, FALSE, FALSE, &cursor->ts_hi, &empty))
                cursor->ts_lo = SPS_TIME_MIN;
            }
          break;

        case PLAN_TS_HI:
          value_to_bound (value, FALSE, (plan & PLAN_TS_HI_STRICT) != 0, &cursor->ts_hi, &empty);
          break;

        case PLAN_END_LO:
          value_to_bound (value, TRUE, (plan & PLAN_END_LO_STRICT) != 0, &cursor->end_lo, &empty);
          break;

        case PLAN_END_HI:
          value_to_bound (value, FALSE, (plan & PLAN_END_HI_STRICT) != 0, &cursor->end_hi, &empty);
          break;

        default:
          break;
        }
    }

  /* A slice ends no earlier than it starts */
  if (table == TABLE_SLICES)
    cursor->ts_hi = MIN (cursor->ts_hi, cursor->end_hi);
  if (cursor->ts_lo > cursor->ts_hi || cursor->end_lo > cursor->end_hi)
    empty = TRUE;
  cursor->check_ts = cursor->ts_lo != SPS_TIME_MIN || cursor->ts_hi != SPS_TIME_MAX;
  cursor->check_end = table == TABLE_SLICES &&
                      (cursor->end_lo != SPS_TIME_MIN || cursor->end_hi != SPS_TIME_MAX);

  if (empty || n_rows == 0)
    {
      cursor->eof = TRUE;
      return SQLITE_OK;
    }

  if ((plan & PLAN_BY_NAME) != 0)
    {
      cursor->list = get_rows_by_text (ctx, table);
      cursor->list_len = n_rows;
      total = n_rows;
    }
  else if (have_id)
    {
      if (id < n_rows)
        add_segment (segments, SPS_NO_INDEX, id, id + 1);
    }
  else if (info->track_kinds != 0 && cursor->filter_track)
    {
      if ((info->track_kinds & KIND_BIT (trace->tracks.kind[cursor->track])) != 0)
        add_track_segment (cursor, segments, cursor->track);
    }
  else if (cursor->filter_name &&
           !(cursor->ts_lo != SPS_TIME_MIN && cursor->ts_hi != SPS_TIME_MAX))
    {
      /* A bounded time range is usually narrower than a name */
      const NameIndex *index = get_name_index (ctx, table);

      cursor->list = index->rows + index->offsets[cursor->name];
      cursor->list_len = index->offsets[cursor->name + 1] - index->offsets[cursor->name];
      total = cursor->list_len;
    }
  else if (info->track_kinds != 0 &&
           (cursor->filter_thread || cursor->ts_lo != SPS_TIME_MIN ||
            cursor->ts_hi != SPS_TIME_MAX || cursor->end_lo != SPS_TIME_MIN))
    {
      for (guint32 t = 0; t < trace->tracks.n_rows; t++)
        {
          if ((info->track_kinds & KIND_BIT (trace->tracks.kind[t])) == 0)
            continue;
          if (cursor->filter_thread && trace->tracks.thread[t] != cursor->thread)
            continue;
          add_track_segment (cursor, segments, t);
        }
    }
  else
    add_segment (segments, SPS_NO_INDEX, 0, n_rows);

  if (cursor->list == NULL)
    {
      cursor->n_segments = segments->len;
      cursor->segments = (Segment *) g_array_free (g_steal_pointer (&segments), FALSE);
      for (guint i = 0; i < cursor->n_segments; i++)
        total += cursor->segments[i].hi - cursor->segments[i].lo;
      if (cursor->n_segments > 0)
        cursor->row = cursor->segments[0].lo;
    }

  if (ctx->lead_cursor == NULL)
    {
      ctx->lead_cursor = cursor;
      ctx->lead_total = total;
      ctx->lead_done = 0;
    }

  cursor_settle (cursor);
  return SQLITE_OK;
}

static int
vtab_next (sqlite3_vtab_cursor *base)
{
  Cursor *cursor = (Cursor *) base;

  if (cursor->list != NULL)
    cursor->list_pos++;
  else
    cursor->row++;
  cursor_settle (cursor);
  report_progress (cursor);

  return SQLITE_OK;
}

static int
vtab_eof (sqlite3_vtab_cursor *base)
{
  return ((Cursor *) base)->eof;
}

static int
vtab_column (sqlite3_vtab_cursor *base,
             sqlite3_context     *sctx,
             int                  col)
{
  Cursor *cursor = (Cursor *) base;
  SpsSqlVtabContext *ctx = cursor->vtab->ctx;

  cursor->columns_read |= G_GUINT64_CONSTANT (1) << (col & 63);

  switch (cursor->vtab->table)
    {
    case TABLE_PROCESSES: column_processes (ctx, sctx, cursor->row, col); break;
    case TABLE_THREADS: column_threads (ctx, sctx, cursor->row, col); break;
    case TABLE_TRACKS: column_tracks (ctx, sctx, cursor->row, col); break;
    case TABLE_SLICES: column_slices (ctx, sctx, cursor->row, col); break;
    case TABLE_INSTANTS: column_instants (ctx, sctx, cursor->row, col); break;
    case TABLE_COUNTERS: column_counters (ctx, sctx, cursor->row, col); break;
    case TABLE_FLOWS: column_flows (ctx, sctx, cursor->row, col); break;
    case TABLE_SAMPLES: column_samples (ctx, sctx, cursor->row, col); break;
    case TABLE_CALLSITES: column_callsites (ctx, sctx, cursor->row, col); break;
    case TABLE_FRAMES: column_frames (ctx, sctx, cursor->row, col); break;
    case TABLE_OBJECTS: column_objects (ctx, sctx, cursor->row, col); break;
    case N_TABLES:
    default:
      break;
    }

  return SQLITE_OK;
}

static int
vtab_rowid (sqlite3_vtab_cursor *base,
            sqlite3_int64       *rowid)
{
  *rowid = ((Cursor *) base)->row;
  return SQLITE_OK;
}

static const sqlite3_module module = {
  .iVersion = 0,
  .xCreate = vtab_connect,
  .xConnect = vtab_connect,
  .xBestIndex = vtab_best_index,
  .xDisconnect = vtab_disconnect,
  .xDestroy = vtab_disconnect,
  .xOpen = vtab_open,
  .xClose = vtab_close,
  .xFilter = vtab_filter,
  .xNext = vtab_next,
  .xEof = vtab_eof,
  .xColumn = vtab_column,
  .xRowid = vtab_rowid,
  /* No xUpdate: the tables are read-only */
};

gboolean
_sps_sql_vtab_register (SpsSqlVtabContext  *ctx,
                        sqlite3            *db,
                        GError            **error)
{
  GString *sql;
  char *message = NULL;
  int rc;

  g_assert (ctx != NULL);
  g_assert (db != NULL);

  rc = sqlite3_create_module_v2 (db, "spanscope", &module, ctx, NULL);
  if (rc != SQLITE_OK)
    {
      g_set_error (error, SPS_SQL_ERROR, SPS_SQL_ERROR_SQLITE,
                   _("Could not register the trace tables: %s"), sqlite3_errmsg (db));
      return FALSE;
    }

  /* Declaring the tables only parses their schemas: no rows are read */
  sql = g_string_new ("BEGIN;");
  for (guint i = 0; i < N_TABLES; i++)
    g_string_append_printf (sql, "CREATE VIRTUAL TABLE main.%s USING spanscope(%s);",
                            tables[i].name, tables[i].name);
  /* The seed's single view of observations: measured slices, converted
   * spans and raw samples side by side, told apart by kind. SQLite pushes
   * WHERE terms into both arms of the UNION ALL, so constraints still reach
   * the virtual tables. */
  g_string_append (sql,
                   "CREATE VIEW main.events AS"
                   " SELECT id, ts, dur, end_ts, name, category, track_id, thread_id, process_id,"
                   " kind, self_time, sample_count, sample_weight, weight_unit,"
                   " estimated_cpu_time, estimated_self_cpu_time, sf, args FROM main.slices"
                   " UNION ALL"
                   " SELECT id, ts, NULL, NULL, name, NULL, track_id, thread_id, process_id,"
                   " kind, NULL, sample_count, sample_weight, weight_unit,"
                   " estimated_cpu_time, estimated_self_cpu_time, sf, NULL FROM main.samples;");
  g_string_append (sql, "COMMIT;");

  rc = sqlite3_exec (db, sql->str, NULL, NULL, &message);
  g_string_free (sql, TRUE);
  if (rc != SQLITE_OK)
    {
      g_set_error (error, SPS_SQL_ERROR, SPS_SQL_ERROR_SQLITE,
                   _("Could not register the trace tables: %s"),
                   message != NULL ? message : sqlite3_errstr (rc));
      sqlite3_free (message);
      return FALSE;
    }

  return TRUE;
}
