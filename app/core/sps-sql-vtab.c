/* sps-sql-vtab.c: SQLite virtual tables over the trace's columns
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-sql"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "sps-sql-vtab-private.h"
#include "sps-trace-private.h"

/* One eponymous module per table, named after it. Every cursor
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

  /* Rows come either from segments or from a list of rows; the segments
   * live in segment_array, kept from one filter to the next so that a
   * join's lookups allocate nothing */
  GArray             *segment_array;
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
  gboolean            filter_key;   /* only when the key index is unusable */
  int                 key_col;
  guint32             key;
  SpsTime             ts_lo;        /* inclusive bounds */
  SpsTime             ts_hi;
  SpsTime             end_lo;
  SpsTime             end_hi;
  gboolean            check_ts;     /* the bounds above are not the widest */
  gboolean            check_end;

  guint64             columns_read; /* bit per column xColumn was asked for */

  /* Segments with nothing to check row by row: xNext only steps */
  gboolean            plain;

  guint64             visited;
} Cursor;

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

/* Module callbacks */

static int
vtab_connect (sqlite3            *db,
              void               *aux,
              int                 argc,
              const char * const *argv,
              sqlite3_vtab      **out_vtab,
              char              **out_error)
{
  /* One module per table, named after it, whose aux is its entry */
  VtabModule *entry = aux;
  SpsSqlVtabContext *ctx = entry->ctx;
  g_autofree char *schema = NULL;
  Vtab *vtab;
  TableId table = entry->table;
  int rc;

  schema = g_strdup_printf ("CREATE TABLE x(%s)", _sps_sql_tables[table].columns);
  rc = sqlite3_declare_vtab (db, schema);
  if (rc != SQLITE_OK)
    return rc;

  vtab = sqlite3_malloc (sizeof *vtab);
  if (vtab == NULL)
    return SQLITE_NOMEM;
  memset (vtab, 0, sizeof *vtab);
  vtab->ctx = ctx;
  vtab->table = table;
  vtab->column = _sps_sql_vtab_get_column_func (table);
  *out_vtab = &vtab->base;

  return SQLITE_OK;
}

static int
vtab_disconnect (sqlite3_vtab *base)
{
  sqlite3_free (base);
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
  cursor->segment_array = g_array_new (FALSE, FALSE, sizeof (Segment));
  *out_cursor = &cursor->base;

  return SQLITE_OK;
}

static void
cursor_clear (Cursor *cursor)
{
  g_array_set_size (cursor->segment_array, 0);
  cursor->segments = NULL;
  cursor->n_segments = 0;
  cursor->segment = 0;
  cursor->list = NULL;
  cursor->list_len = 0;
  cursor->list_pos = 0;
  cursor->filter_track = FALSE;
  cursor->filter_thread = FALSE;
  cursor->filter_name = FALSE;
  cursor->filter_key = FALSE;
  cursor->ts_lo = SPS_TIME_MIN;
  cursor->ts_hi = SPS_TIME_MAX;
  cursor->end_lo = SPS_TIME_MIN;
  cursor->end_hi = SPS_TIME_MAX;
  cursor->check_ts = FALSE;
  cursor->check_end = FALSE;
  cursor->plain = FALSE;
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
  g_array_unref (cursor->segment_array);
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

  if (cursor->filter_key &&
      _sps_sql_vtab_row_key (trace, table, cursor->key_col, row) != cursor->key)
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
  const TableInfo *info = &_sps_sql_tables[table];
  guint n_rows = table_n_rows (trace, table);
  GArray *segments;
  gboolean empty = FALSE;
  gboolean have_key = FALSE;
  gboolean have_id = FALSE;
  guint32 id = 0;
  guint64 total = 0;
  int arg = 0;

  cursor_clear (cursor);
  segments = cursor->segment_array;

  for (guint slot = 0; slot < N_PLAN_SLOTS; slot++)
    {
      sqlite3_value *value;

      if ((plan & plan_slot_bit (slot)) == 0)
        continue;
      if (arg >= argc)
        break;
      value = argv[arg++];

      switch (plan_slot_bit (slot))
        {
        case PLAN_KEY_EQ:
          cursor->key_col = (plan >> PLAN_KEY_SHIFT) & 0xff;
          have_key = value_to_index (value, &cursor->key) &&
                     _sps_sql_vtab_key_ref (table, cursor->key_col) >= 0;
          empty |= !have_key;
          break;

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

  /* The key's equality is omitted from SQLite's checks: unless its rows
   * come from the key index below, the cursor checks it row by row */
  cursor->filter_key = have_key;

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
      cursor->list = _sps_sql_vtab_get_rows_by_text (ctx, table);
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
      /* The segment is the track's: no row to check */
      cursor->filter_track = FALSE;
    }
  else if (have_key)
    {
      const KeyIndex *index = _sps_sql_vtab_get_key_index (ctx, table, cursor->key_col);

      if (index->unusable)
        add_segment (segments, SPS_NO_INDEX, 0, n_rows);
      else if (cursor->key < index->n_keys)
        {
          /* The key's rows, in row order: no row to check */
          cursor->filter_key = FALSE;
          cursor->list = index->rows + index->offsets[cursor->key];
          cursor->list_len = index->offsets[cursor->key + 1] - index->offsets[cursor->key];
          total = cursor->list_len;
          if (cursor->list_len == 0)
            {
              cursor->eof = TRUE;
              return SQLITE_OK;
            }
        }
      else
        {
          cursor->eof = TRUE;
          return SQLITE_OK;
        }
    }
  else if (cursor->filter_name &&
           !(cursor->ts_lo != SPS_TIME_MIN && cursor->ts_hi != SPS_TIME_MAX))
    {
      /* A bounded time range is usually narrower than a name */
      const NameIndex *index = _sps_sql_vtab_get_name_index (ctx, table);

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
      /* The segments are the thread's tracks (a sample's thread is its
       * own column, checked row by row) */
      if (table != TABLE_SAMPLES)
        cursor->filter_thread = FALSE;
    }
  else
    add_segment (segments, SPS_NO_INDEX, 0, n_rows);

  if (cursor->list == NULL)
    {
      cursor->n_segments = segments->len;
      cursor->segments = (Segment *) (gpointer) segments->data;
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

  /* What cursor_row_matches() and the block skipping would check */
  cursor->plain = cursor->list == NULL &&
                  !cursor->filter_track && !cursor->filter_thread && !cursor->filter_name &&
                  !cursor->filter_key && !cursor->check_ts && !cursor->check_end &&
                  !(table == TABLE_SLICES && cursor->end_lo != SPS_TIME_MIN);

  cursor_settle (cursor);
  return SQLITE_OK;
}

static int
vtab_next (sqlite3_vtab_cursor *base)
{
  Cursor *cursor = (Cursor *) base;

  /* Every row of a segment matches: the next one, as cursor_settle()
   * would find it, without its checks (a scan's xNext runs once a row) */
  if (cursor->plain && cursor->segment < cursor->n_segments &&
      cursor->row + 1 < cursor->segments[cursor->segment].hi)
    {
      cursor->row++;
      cursor->visited++;
    }
  else
    {
      if (cursor->list != NULL)
        cursor->list_pos++;
      else
        cursor->row++;
      cursor_settle (cursor);
    }
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

  cursor->columns_read |= G_GUINT64_CONSTANT (1) << (col & 63);
  cursor->vtab->column (cursor->vtab->ctx, sctx, cursor->row, col);

  return SQLITE_OK;
}

static int
vtab_rowid (sqlite3_vtab_cursor *base,
            sqlite3_int64       *rowid)
{
  *rowid = ((Cursor *) base)->row;
  return SQLITE_OK;
}

/* Eponymous-only (no xCreate): each table exists in every connection the
 * module is registered on, under the module's name, with nothing to parse
 * until a statement first uses it. */
static const sqlite3_module module = {
  .iVersion = 0,
  .xCreate = NULL,
  .xConnect = vtab_connect,
  .xBestIndex = _sps_sql_vtab_best_index,
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

  for (guint i = 0; i < N_TABLES; i++)
    {
      ctx->modules[i].ctx = ctx;
      ctx->modules[i].table = (TableId) i;
      rc = sqlite3_create_module_v2 (db, _sps_sql_tables[i].name, &module, &ctx->modules[i], NULL);
      if (rc != SQLITE_OK)
        {
          g_set_error (error, SPS_SQL_ERROR, SPS_SQL_ERROR_SQLITE,
                       _("Could not register the trace tables: %s"), sqlite3_errmsg (db));
          return FALSE;
        }
    }

  sql = g_string_new ("BEGIN;");
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
  /* Every decoded ETW/EventPipe event: the instants of kind 'event', with
   * their provider (the category) and descriptor under PerfView's names */
  g_string_append (sql,
                   "CREATE VIEW main.events_raw AS"
                   " SELECT ts, thread_id AS thread, category AS provider, name,"
                   " event_id AS id, event_version AS version, event_opcode AS opcode, args"
                   " FROM main.instants WHERE kind = 'event';");
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
