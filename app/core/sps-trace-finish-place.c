/* sps-trace-finish-place.c: placing rows on tracks and scattering columns
 *
 * How finish() reorders a table without sorting it whole: count each
 * track's rows, deal every row to its track's next position in one
 * sequential pass (sorting only the tracks found out of time order), then
 * move each column to those positions one at a time, in place when every
 * row stays. Every per-table builder goes through these, which is why
 * they are apart from any one table.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-trace-finish"

#include "config.h"

#include <string.h>

#include "sps-trace-finish-private.h"

gpointer
_sps_shrink_column (gpointer column,
                    gsize    n,
                    gsize    element_size)
{
  if (n == 0)
    {
      g_free (column);
      return NULL;
    }

  return g_realloc (column, n * element_size);
}

/* Fills @start (n_tracks + 1 entries) with where each track's rows begin
 * when the rows are grouped by @track (rows on SPS_NO_INDEX are left out;
 * a NULL @track puts every row on track 0). Returns the rows counted. */
static guint
count_track_starts (const guint32 *track,
                    guint          n_rows,
                    guint          n_tracks,
                    guint32       *start)
{
  memset (start, 0, (n_tracks + 1) * sizeof (guint32));
  if (track == NULL)
    {
      if (n_rows > 0)
        start[1] = n_rows;
    }
  else
    for (guint r = 0; r < n_rows; r++)
      if (track[r] != SPS_NO_INDEX)
        start[track[r] + 1]++;
  for (guint t = 0; t < n_tracks; t++)
    start[t + 1] += start[t];

  return start[n_tracks];
}

/* Lists the rows of each track (rows on SPS_NO_INDEX are left out), in row
 * order or, with @ts, stably by time. @track_start (n_tracks + 1 entries)
 * receives where each track's rows begin. */
guint32 *
_sps_order_rows (const guint32 *track,
                 const SpsTime *ts,
                 guint          n_rows,
                 guint          n_tracks,
                 guint32       *track_start,
                 guint         *n_ordered)
{
  guint32 *start = track_start;
  guint32 *order;
  guint total;

  g_assert (track != NULL || n_rows == 0);

  total = count_track_starts (track, n_rows, n_tracks, start);
  order = g_new (guint32, MAX (total, 1));

  /* start[t] serves as track t's write cursor, which leaves it at the
   * old start[t + 1]; shifting by one restores the starts. */
  for (guint r = 0; r < n_rows; r++)
    if (track[r] != SPS_NO_INDEX)
      order[start[track[r]]++] = r;
  for (guint t = n_tracks; t > 0; t--)
    start[t] = start[t - 1];
  start[0] = 0;

  if (ts != NULL && total > 0)
    {
      g_autofree SpsTime *times = g_new (SpsTime, total);

      for (guint i = 0; i < total; i++)
        times[i] = ts[order[i]];
      for (guint t = 0; t < n_tracks; t++)
        _sps_sort_rows_with_times (order + start[t], times + start[t], start[t + 1] - start[t], NULL);
    }

  *n_ordered = total;

  return order;
}

/* Where each row goes when a table is sorted by (track, ts) — with @dur,
 * longer first among equal ts — remaining ties in row order:
 * @position[r] is row r's final index, SPS_NO_INDEX for rows on no track.
 * Rows are read in order and dealt to per-track cursors, so interleaved
 * tracks cost sequential reads; only the tracks found out of order on the
 * way are sorted. A NULL @track puts every row on track 0 (of 1). @start
 * (n_tracks + 1 entries) receives where each track begins. Returns the
 * number of rows placed. */
guint
_sps_place_rows (const guint32 *track,
                 const SpsTime *ts,
                 const SpsTime *dur,
                 guint          n_rows,
                 guint          n_tracks,
                 guint32       *start,
                 guint32       *position)
{
  g_autofree guint32 *cursor = NULL;
  g_autofree SpsTime *last_ts = NULL;
  g_autofree SpsTime *last_dur = NULL;
  g_autofree guint8 *unsorted = NULL;
  gboolean any_unsorted = FALSE;
  guint total;

  g_assert (track != NULL || n_rows == 0 || n_tracks == 1);

  total = count_track_starts (track, n_rows, n_tracks, start);

  cursor = g_new (guint32, MAX (n_tracks, 1));
  last_ts = g_new (SpsTime, MAX (n_tracks, 1));
  last_dur = g_new (SpsTime, MAX (n_tracks, 1));
  unsorted = g_new0 (guint8, MAX (n_tracks, 1));
  memcpy (cursor, start, n_tracks * sizeof (guint32));

  for (guint r = 0; r < n_rows; r++)
    {
      guint32 t = track != NULL ? track[r] : 0;
      guint32 p;

      if (t == SPS_NO_INDEX)
        {
          position[r] = SPS_NO_INDEX;
          continue;
        }

      p = cursor[t]++;
      position[r] = p;
      if (p > start[t] &&
          (ts[r] < last_ts[t] || (dur != NULL && ts[r] == last_ts[t] && dur[r] > last_dur[t])))
        {
          unsorted[t] = TRUE;
          any_unsorted = TRUE;
        }
      last_ts[t] = ts[r];
      if (dur != NULL)
        last_dur[t] = dur[r];
    }

  if (any_unsorted)
    {
      g_autofree guint32 *order = g_new (guint32, total);
      /* Times gathered in order only where durations break ties; without
       * them the sort reads each time through its row (a shuffled table
       * of samples: 8 bytes per row less at finish()'s peak) */
      g_autofree SpsTime *times = dur != NULL ? g_new (SpsTime, total) : NULL;

      /* The rows (and times) of the tracks to sort, laid out by position */
      for (guint r = 0; r < n_rows; r++)
        {
          guint32 t = track != NULL ? track[r] : 0;

          if (t != SPS_NO_INDEX && unsorted[t])
            {
              order[position[r]] = r;
              if (times != NULL)
                times[position[r]] = ts[r];
            }
        }

      for (guint t = 0; t < n_tracks; t++)
        if (unsorted[t])
          {
            guint32 *rows = order + start[t];
            guint32 len = start[t + 1] - start[t];

            if (times != NULL)
              _sps_sort_rows_with_times (rows, times + start[t], len, dur);
            else
              _sps_sort_rows_by_time (rows, ts, len);
            for (guint32 i = 0; i < len; i++)
              position[rows[i]] = start[t] + i;
          }
    }

  return total;
}

/* The track of row @r: @map[@key[r]], or @key[r] without a map */
static inline guint32
track_of (const guint32 *key,
          const guint32 *map,
          guint          r)
{
  return map != NULL ? map[key[r]] : key[r];
}

/**
 * _sps_order_on_tracks:
 * @key: per row, its track, or an index into @map
 * @map: (nullable): the track of each value of @key
 * @ts: the rows' times
 * @n_rows: rows in the table, each on a track below @n_tracks
 * @n_tracks: the tracks
 * @start: (out): n_tracks + 1 entries: where each track's rows begin
 *
 * The order of a table without durations sorted by (track, ts), ties in
 * row order: the row that goes to each index. Unlike _sps_place_rows()
 * it needs neither a track column nor a position per row: one pass
 * counts the tracks' rows and finds the tracks out of time order, one
 * deals the rows to their tracks, and only the tracks found out of order
 * are sorted (8 bytes a row of the track, one track at a time). Columns
 * then follow with _sps_gather_column().
 *
 * Returns: (nullable): the order (@n_rows entries), or %NULL when every
 *   row stays where it is
 */
guint32 *
_sps_order_on_tracks (const guint32 *key,
                      const guint32 *map,
                      const SpsTime *ts,
                      guint          n_rows,
                      guint          n_tracks,
                      guint32       *start)
{
  g_autofree SpsTime *last_ts = g_new (SpsTime, MAX (n_tracks, 1));
  g_autofree guint8 *unsorted = g_new0 (guint8, MAX (n_tracks, 1));
  g_autofree guint32 *cursor = NULL;
  gboolean identity = TRUE;
  guint32 previous = 0;
  guint32 *order;

  memset (start, 0, (n_tracks + 1) * sizeof (guint32));
  for (guint r = 0; r < n_rows; r++)
    {
      guint32 t = track_of (key, map, r);

      g_assert (t < n_tracks);
      /* start[t + 1] counts the track's rows so far */
      if (start[t + 1]++ > 0 && ts[r] < last_ts[t])
        unsorted[t] = TRUE;
      last_ts[t] = ts[r];
      /* Rows stay where they are when the tracks come one after the
       * other, each in time order */
      if (t < previous || unsorted[t])
        identity = FALSE;
      previous = t;
    }
  for (guint t = 0; t < n_tracks; t++)
    start[t + 1] += start[t];
  if (identity)
    return NULL;

  order = _sps_alloc_large ((gsize) n_rows * sizeof (guint32));
  cursor = g_memdup2 (start, MAX (n_tracks, 1) * sizeof (guint32));
  for (guint r = 0; r < n_rows; r++)
    order[cursor[track_of (key, map, r)]++] = r;

  for (guint t = 0; t < n_tracks; t++)
    if (unsorted[t])
      _sps_sort_rows_by_time (order + start[t], ts, start[t + 1] - start[t]);

  return order;
}

gboolean
_sps_is_identity (const guint32 *position,
                  guint          n_rows,
                  guint          n_placed)
{
  if (n_placed != n_rows)
    return FALSE;

  for (guint r = 0; r < n_rows; r++)
    if (position[r] != r)
      return FALSE;

  return TRUE;
}

/* Moves each row r of a column to position[r] in place, following the
 * permutation's cycles (@position holds every index once). */
#define PERMUTE_IN_PLACE(type, column, position, n, done) \
  G_STMT_START { \
    type *col_ = (type *) (column); \
    for (guint r_ = 0; r_ < (n); r_++) \
      { \
        type carry_; \
        guint32 j_; \
        if ((position)[r_] == r_ || ((done)[r_ / 64] >> (r_ % 64) & 1) != 0) \
          continue; \
        carry_ = col_[r_]; \
        for (j_ = (position)[r_]; j_ != r_; j_ = (position)[j_]) \
          { \
            type next_ = col_[j_]; \
            col_[j_] = carry_; \
            carry_ = next_; \
            (done)[j_ / 64] |= G_GUINT64_CONSTANT (1) << (j_ % 64); \
          } \
        col_[r_] = carry_; \
      } \
  } G_STMT_END

/* Reorders a column whose rows are all placed without a second copy of
 * it: sorted input that steps back now and then (V8 profiles) moves few
 * rows, and fresh memory for millions of them costs more than the moves. */
static gpointer
permute_column (gpointer       column,
                const guint32 *position,
                guint          n_rows,
                gsize          element_size)
{
  g_autofree guint64 *done = g_new0 (guint64, n_rows / 64 + 1);

  switch (element_size)
    {
    case 1:
      PERMUTE_IN_PLACE (guint8, column, position, n_rows, done);
      break;

    case 2:
      PERMUTE_IN_PLACE (guint16, column, position, n_rows, done);
      break;

    case 4:
      PERMUTE_IN_PLACE (guint32, column, position, n_rows, done);
      break;

    case 8:
      PERMUTE_IN_PLACE (guint64, column, position, n_rows, done);
      break;

    default:
      g_assert_not_reached ();
    }

  return _sps_shrink_column (column, n_rows, element_size);
}

/* Whether at most one row in 16 moves. Following a permutation's cycles
 * is a chain of dependent loads, one cache miss after the other: fine for
 * the few rows of a nearly sorted table, but for a shuffled one (the
 * per-CPU buffers of an ETL file overlap in time) the scatter into fresh
 * memory, whose writes are independent of each other, is several times
 * faster. */
static gboolean
few_rows_move (const guint32 *position,
               guint          n_rows)
{
  guint limit = n_rows / 16;
  guint moved = 0;

  for (guint r = 0; r < n_rows; r++)
    if (position[r] != r && ++moved > limit)
      return FALSE;
  return TRUE;
}

/* Moves every placed row of a column to its position (dst[position[r]]
 * = src[r]) and frees the source. Reading in row order keeps the reads
 * sequential and the writes go to one stream per track. When nothing
 * moves the column is only shrunk (mremap, no copy). */
gpointer
_sps_scatter_column (gpointer        column,
                     const guint32  *position,
                     guint           n_rows,
                     guint           n_placed,
                     gsize           element_size,
                     gboolean        identity)
{
  const char *src = column;
  char *dst;

  if (identity)
    return _sps_shrink_column (column, n_placed, element_size);

  if (n_placed == 0)
    {
      g_free (column);
      return NULL;
    }

  if (n_placed == n_rows && few_rows_move (position, n_rows))
    return permute_column (column, position, n_rows, element_size);

  dst = _sps_alloc_large ((gsize) n_placed * element_size);

  /* memcpy with a constant size compiles to one load and store. */
  switch (element_size)
    {
    case 1:
      for (guint r = 0; r < n_rows; r++)
        if (position[r] != SPS_NO_INDEX)
          dst[position[r]] = src[r];
      break;

    case 2:
      for (guint r = 0; r < n_rows; r++)
        if (position[r] != SPS_NO_INDEX)
          memcpy (dst + (gsize) position[r] * 2, src + (gsize) r * 2, 2);
      break;

    case 4:
      for (guint r = 0; r < n_rows; r++)
        if (position[r] != SPS_NO_INDEX)
          memcpy (dst + (gsize) position[r] * 4, src + (gsize) r * 4, 4);
      break;

    case 8:
      for (guint r = 0; r < n_rows; r++)
        if (position[r] != SPS_NO_INDEX)
          memcpy (dst + (gsize) position[r] * 8, src + (gsize) r * 8, 8);
      break;

    default:
      g_assert_not_reached ();
    }

  g_free (column);

  return dst;
}

/* Takes each row of a column from where @order says, in place, following
 * the cycles of the order (@order holds every index once) */
#define GATHER_IN_PLACE(type, column, order, n, done) \
  G_STMT_START { \
    type *col_ = (type *) (column); \
    for (guint i_ = 0; i_ < (n); i_++) \
      { \
        type first_; \
        guint32 j_ = i_; \
        if ((order)[i_] == i_ || ((done)[i_ / 64] >> (i_ % 64) & 1) != 0) \
          continue; \
        first_ = col_[i_]; \
        while ((order)[j_] != i_) \
          { \
            col_[j_] = col_[(order)[j_]]; \
            (done)[j_ / 64] |= G_GUINT64_CONSTANT (1) << (j_ % 64); \
            j_ = (order)[j_]; \
          } \
        col_[j_] = first_; \
        (done)[j_ / 64] |= G_GUINT64_CONSTANT (1) << (j_ % 64); \
      } \
  } G_STMT_END

/**
 * _sps_gather_column:
 * @column: (transfer full): a builder column of @n_rows rows
 * @order: (nullable): the row each index takes, from
 *   _sps_order_on_tracks(); %NULL when no row moves
 * @n_rows: its rows
 * @element_size: 1, 2, 4 or 8
 *
 * Reorders a column (new[i] = old[order[i]]) and frees the old one. The
 * writes are sequential and the reads independent of each other; when at
 * most one row in 16 moves, the rows are moved in place along the
 * order's cycles instead (no second column).
 *
 * Returns: (transfer full): the column in its new order, sized exactly
 */
gpointer
_sps_gather_column (gpointer       column,
                    const guint32 *order,
                    guint          n_rows,
                    gsize          element_size)
{
  const char *src = column;
  char *dst;

  if (order == NULL || n_rows == 0)
    return _sps_shrink_column (column, n_rows, element_size);

  if (few_rows_move (order, n_rows))
    {
      g_autofree guint64 *done = g_new0 (guint64, n_rows / 64 + 1);

      switch (element_size)
        {
        case 1:
          GATHER_IN_PLACE (guint8, column, order, n_rows, done);
          break;
        case 2:
          GATHER_IN_PLACE (guint16, column, order, n_rows, done);
          break;
        case 4:
          GATHER_IN_PLACE (guint32, column, order, n_rows, done);
          break;
        case 8:
          GATHER_IN_PLACE (guint64, column, order, n_rows, done);
          break;
        default:
          g_assert_not_reached ();
        }
      return _sps_shrink_column (column, n_rows, element_size);
    }

  dst = _sps_alloc_large ((gsize) n_rows * element_size);

  /* memcpy with a constant size compiles to one load and store */
  switch (element_size)
    {
    case 1:
      for (guint i = 0; i < n_rows; i++)
        dst[i] = src[order[i]];
      break;

    case 2:
      for (guint i = 0; i < n_rows; i++)
        memcpy (dst + (gsize) i * 2, src + (gsize) order[i] * 2, 2);
      break;

    case 4:
      for (guint i = 0; i < n_rows; i++)
        memcpy (dst + (gsize) i * 4, src + (gsize) order[i] * 4, 4);
      break;

    case 8:
      for (guint i = 0; i < n_rows; i++)
        memcpy (dst + (gsize) i * 8, src + (gsize) order[i] * 8, 8);
      break;

    default:
      g_assert_not_reached ();
    }

  g_free (column);

  return dst;
}

guint32 *
_sps_new_index_array (guint n)
{
  guint32 *array = g_new (guint32, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    array[i] = SPS_NO_INDEX;

  return array;
}
