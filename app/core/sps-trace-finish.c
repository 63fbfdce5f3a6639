/* sps-trace-finish.c: turns a builder's rows into an immutable trace
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-trace-finish"

#include "config.h"

#include <inttypes.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "sps-trace-builder.h"
#include "sps-trace-private.h"
#include "sps-args-merge-private.h"

/* finish() runs a fixed list of passes over the builder's columns, each
 * linear except where something is out of order. Tables are reordered by
 * "placing" rows: one sequential pass deals each row to its track's next
 * position and notices which tracks are out of time order; only those are
 * sorted (a stable LSD radix sort on 8-byte keys that pack the time offset
 * above the position, falling back to 16-byte (key, row) items for spans
 * too wide to pack). Columns are then scattered to their positions one at
 * a time, each builder column freed as soon as it is consumed, which
 * keeps the peak close to builder + one column and reads sequential even
 * when threads interleave. */

typedef struct
{
  guint64 key;
  guint32 row;
  guint32 unused;
} SortItem;

/* A legacy S still open: its slice and its steps' are made when the F
 * (or the end of its events) shows whether the steps agree. */
typedef struct
{
  guint32  start;             /* the S record */
  GArray  *steps;             /* its T and p records, in order; NULL if none */
} LegacyOpen;

typedef struct
{
  SpsTime key;
  guint32 lane;
} LaneHeapItem;

typedef struct
{
  SpsTraceBuilder *builder;
  SpsTrace        *trace;

  /* Slice record rows whose dur is only known once the trace end is */
  GArray          *unfinished;

  /* Async slices are slice record rows async_first + i */
  guint            async_first;
  guint            n_async_slices;
  guint            async_slices_capacity;
  guint32         *async_slice_process;
  guint32         *async_slice_parent;
  guint16         *async_slice_depth;
  guint32         *async_slice_lane;
  guint32         *async_record_slice;   /* async record → async slice */
  guint32         *process_n_lanes;

  /* Tracks, as they are created */
  guint            n_tracks;
  guint            tracks_capacity;
  guint8          *track_kind;
  guint32         *track_process;
  guint32         *track_thread;
  guint32         *track_name;
  guint32         *track_series;
  guint32         *track_first_row;
  guint32         *track_n_rows;
  guint16         *track_max_depth;

  guint32         *thread_slices_track;
  guint32         *thread_sampled_track;
  guint32         *thread_instants_track;
  guint32         *thread_samples_track;
  guint32         *process_instants_track;
  guint32         *process_first_lane;
  guint32         *counter_track;
  guint32          global_instants_track;

  /* Slice record row → final slice, SPS_NO_INDEX for dropped rows */
  guint32         *record_slice;
} Finish;

typedef void (*FinishPass) (Finish *f);

static const SpsTableLayout async_slice_table = {
  G_STRUCT_OFFSET (Finish, n_async_slices), G_STRUCT_OFFSET (Finish, async_slices_capacity),
  { SPS_COLUMN (Finish, async_slice_process), SPS_COLUMN (Finish, async_slice_parent),
    SPS_COLUMN (Finish, async_slice_depth) },
};

static const SpsTableLayout track_table = {
  G_STRUCT_OFFSET (Finish, n_tracks), G_STRUCT_OFFSET (Finish, tracks_capacity),
  { SPS_COLUMN (Finish, track_kind), SPS_COLUMN (Finish, track_process),
    SPS_COLUMN (Finish, track_thread), SPS_COLUMN (Finish, track_name),
    SPS_COLUMN (Finish, track_series), SPS_COLUMN (Finish, track_first_row),
    SPS_COLUMN (Finish, track_n_rows), SPS_COLUMN (Finish, track_max_depth) },
};

static inline guint64
time_key (SpsTime t)
{
  return (guint64) t ^ (G_GUINT64_CONSTANT (1) << 63);
}

/* b − a for a ≤ b, saturated to G_MAXINT64 */
static inline SpsTime
time_span (SpsTime a,
           SpsTime b)
{
  guint64 d = (guint64) b - (guint64) a;

  g_assert (a <= b);

  return d > (guint64) G_MAXINT64 ? G_MAXINT64 : (SpsTime) d;
}

static gpointer
shrink_column (gpointer column,
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

/* Moves a builder column to the trace, sized exactly. */
#define STEAL_COLUMN(column, n) \
  ((__typeof__ (column)) shrink_column (g_steal_pointer (&(column)), (n), sizeof *(column)))

/* Sorting */

static void
insertion_sort_items (SortItem *items,
                      gsize     n)
{
  for (gsize i = 1; i < n; i++)
    {
      SortItem item = items[i];
      gsize j = i;

      while (j > 0 && items[j - 1].key > item.key)
        {
          items[j] = items[j - 1];
          j--;
        }
      items[j] = item;
    }
}

/* Stable sort of @items by key; @scratch holds @n items. */
static void
sort_items (SortItem *items,
            SortItem *scratch,
            gsize     n)
{
  guint shifts[8];
  guint n_shifts = 0;
  guint64 diff = 0;
  guint32 *counts;
  SortItem *src = items;
  SortItem *dst = scratch;

  if (n < 48)
    {
      insertion_sort_items (items, n);
      return;
    }

  for (gsize i = 1; i < n; i++)
    diff |= items[i].key ^ items[0].key;

  for (guint b = 0; b < 8; b++)
    if (((diff >> (8 * b)) & 0xff) != 0)
      shifts[n_shifts++] = 8 * b;

  if (n_shifts == 0)
    return;

  counts = g_new0 (guint32, n_shifts * 256);

  for (gsize i = 0; i < n; i++)
    for (guint s = 0; s < n_shifts; s++)
      counts[s * 256 + ((items[i].key >> shifts[s]) & 0xff)]++;

  for (guint s = 0; s < n_shifts; s++)
    {
      guint32 *c = counts + s * 256;
      guint32 sum = 0;
      SortItem *tmp;

      for (guint d = 0; d < 256; d++)
        {
          guint32 count = c[d];

          c[d] = sum;
          sum += count;
        }

      for (gsize i = 0; i < n; i++)
        dst[c[(src[i].key >> shifts[s]) & 0xff]++] = src[i];

      tmp = src;
      src = dst;
      dst = tmp;
    }

  if (src != items)
    memcpy (items, src, n * sizeof (SortItem));

  g_free (counts);
}

/* Among equal times, longer slices first (a parent before its children).
 * @rows is sorted by time, with ties in row order, and @times[i] is the
 * time of rows[i]; durations are only read where times are equal. */
static void
sort_equal_times_by_duration (guint32       *rows,
                              const SpsTime *times,
                              gsize          n,
                              const SpsTime *dur)
{
  gsize j;

  for (gsize i = 0; i < n; i = j)
    {
      gboolean sorted = TRUE;
      gsize k;

      for (j = i + 1; j < n && times[j] == times[i]; j++)
        if (dur[rows[j - 1]] < dur[rows[j]])
          sorted = FALSE;

      k = j - i;
      if (sorted)
        continue;

      if (k <= 32)
        {
          for (gsize a = i + 1; a < j; a++)
            {
              guint32 row = rows[a];
              gsize b = a;

              while (b > i && dur[rows[b - 1]] < dur[row])
                {
                  rows[b] = rows[b - 1];
                  b--;
                }
              rows[b] = row;
            }
        }
      else
        {
          SortItem *items = g_new (SortItem, 2 * k);

          for (gsize a = 0; a < k; a++)
            {
              items[a].key = ~time_key (dur[rows[i + a]]);
              items[a].row = rows[i + a];
              items[a].unused = 0;
            }
          sort_items (items, items + k, k);
          for (gsize a = 0; a < k; a++)
            rows[i + a] = items[a].row;
          g_free (items);
        }
    }
}

static inline guint
bit_width (guint64 v)
{
  return v == 0 ? 0 : 64 - __builtin_clzll (v);
}

/* Stable LSD radix sort of @keys on bits [lo_bit, hi_bit); the bits below
 * lo_bit keep their order. Wide digits for big inputs mean fewer passes
 * (a span of 2^33 ns takes 3). */
static void
radix_sort_u64 (guint64 *keys,
                guint64 *scratch,
                gsize    n,
                guint    lo_bit,
                guint    hi_bit)
{
  guint digit = n >= 65536 ? 11 : 8;
  guint32 *counts = g_new (guint32, 1u << digit);
  guint64 *src = keys;
  guint64 *dst = scratch;

  for (guint shift = lo_bit; shift < hi_bit; shift += digit)
    {
      guint bits = MIN (digit, hi_bit - shift);
      guint64 mask = (G_GUINT64_CONSTANT (1) << bits) - 1;
      guint32 sum = 0;
      guint64 *tmp;

      memset (counts, 0, sizeof (guint32) << bits);
      for (gsize i = 0; i < n; i++)
        counts[(src[i] >> shift) & mask]++;
      for (guint64 d = 0; d <= mask; d++)
        {
          guint32 count = counts[d];

          counts[d] = sum;
          sum += count;
        }
      for (gsize i = 0; i < n; i++)
        dst[counts[(src[i] >> shift) & mask]++] = src[i];

      tmp = src;
      src = dst;
      dst = tmp;
    }

  if (src != keys)
    memcpy (keys, src, n * sizeof (guint64));

  g_free (counts);
}

/* Sorts @rows and @times together by time, stably, in place, while the
 * moves stay within @budget; FALSE when they would not, leaving the two
 * arrays permuted alike with equal times still in their first order (so
 * a stable sort can take over from there). */
static gboolean
insertion_sort_pairs_bounded (guint32 *rows,
                              SpsTime *times,
                              gsize    n,
                              gsize    budget)
{
  for (gsize i = 1; i < n; i++)
    {
      SpsTime t = times[i];
      guint32 row = rows[i];
      gsize j = i;

      if (times[i - 1] <= t)
        continue;
      for (; j > 0 && times[j - 1] > t; j--)
        {
          if (budget-- == 0)
            {
              times[j] = t;
              rows[j] = row;
              return FALSE;
            }
          times[j] = times[j - 1];
          rows[j] = rows[j - 1];
        }
      times[j] = t;
      rows[j] = row;
    }
  return TRUE;
}

/* Sorts @rows stably by @times (times[i] is the time of rows[i]; both are
 * reordered). When the time span and the row count fit in 64 bits
 * together, each row becomes one 8-byte key (time offset above position),
 * half the traffic of (key, row) items. */
static void
sort_by_time (guint32 *rows,
              SpsTime *times,
              gsize    n)
{
  g_autofree guint32 *rows_copy = NULL;
  g_autofree SpsTime *times_copy = NULL;
  SpsTime min = SPS_TIME_MAX;
  SpsTime max = SPS_TIME_MIN;
  guint range_bits;
  guint index_bits;

  /* Rows that are nearly in order (V8 profiles step back a little now and
   * then) are sorted where they are: copies of millions of rows cost more
   * in fresh pages than the few moves */
  if (insertion_sort_pairs_bounded (rows, times, n, n < 48 ? G_MAXSIZE : 2 * n))
    return;

  rows_copy = memcpy (_sps_alloc_large (MAX (n, 1) * sizeof (guint32)), rows,
                      n * sizeof (guint32));
  times_copy = memcpy (_sps_alloc_large (MAX (n, 1) * sizeof (SpsTime)), times,
                       n * sizeof (SpsTime));

  for (gsize i = 0; i < n; i++)
    {
      min = MIN (min, times[i]);
      max = MAX (max, times[i]);
    }

  range_bits = bit_width ((guint64) max - (guint64) min);
  index_bits = bit_width (n - 1);

  if (range_bits + index_bits <= 64)
    {
      guint64 *keys = _sps_alloc_large (2 * n * sizeof (guint64));
      guint64 index_mask = (G_GUINT64_CONSTANT (1) << index_bits) - 1;

      for (gsize i = 0; i < n; i++)
        keys[i] = (((guint64) times[i] - (guint64) min) << index_bits) | i;

      radix_sort_u64 (keys, keys + n, n, index_bits, index_bits + range_bits);

      for (gsize i = 0; i < n; i++)
        {
          guint64 from = keys[i] & index_mask;

          rows[i] = rows_copy[from];
          times[i] = times_copy[from];
        }

      g_free (keys);
    }
  else
    {
      SortItem *items = g_new (SortItem, 2 * n);

      for (gsize i = 0; i < n; i++)
        {
          items[i].key = time_key (times[i]);
          items[i].row = i;
          items[i].unused = 0;
        }
      sort_items (items, items + n, n);
      for (gsize i = 0; i < n; i++)
        {
          rows[i] = rows_copy[items[i].row];
          times[i] = times_copy[items[i].row];
        }

      g_free (items);
    }
}

/* Sorts @rows by (time, [dur descending]) stably; @times[i] is the time
 * of rows[i], gathered by the caller so that sorting and tie checks read
 * times sequentially. Both arrays are reordered. */
static void
sort_rows_with_times (guint32       *rows,
                      SpsTime       *times,
                      gsize          n,
                      const SpsTime *dur)
{
  gboolean sorted = TRUE;

  for (gsize i = 1; i < n && sorted; i++)
    if (times[i] < times[i - 1])
      sorted = FALSE;

  if (!sorted)
    sort_by_time (rows, times, n);
  if (dur != NULL)
    sort_equal_times_by_duration (rows, times, n, dur);
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
static guint32 *
order_rows (const guint32 *track,
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
        sort_rows_with_times (order + start[t], times + start[t], start[t + 1] - start[t], NULL);
    }

  *n_ordered = total;

  return order;
}

/* Orders rows by (key, ts), ties in row order. */
static guint32 *
order_by_key_and_time (const guint64 *key,
                       const SpsTime *ts,
                       guint          n)
{
  guint32 *order = g_new (guint32, MAX (n, 1));
  gboolean sorted = TRUE;
  SortItem *items;

  for (guint i = 1; i < n && sorted; i++)
    if (key[i - 1] > key[i] || (key[i - 1] == key[i] && ts[i - 1] > ts[i]))
      sorted = FALSE;

  if (sorted)
    {
      for (guint i = 0; i < n; i++)
        order[i] = i;
      return order;
    }

  /* LSD: by time, then stably by key. */
  items = g_new (SortItem, 2 * (gsize) n);
  for (guint i = 0; i < n; i++)
    {
      items[i].key = time_key (ts[i]);
      items[i].row = i;
      items[i].unused = 0;
    }
  sort_items (items, items + n, n);

  for (guint i = 0; i < n; i++)
    items[i].key = key[items[i].row];
  sort_items (items, items + n, n);

  for (guint i = 0; i < n; i++)
    order[i] = items[i].row;

  g_free (items);

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
static guint
place_rows (const guint32 *track,
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
      g_autofree SpsTime *times = g_new (SpsTime, total);

      /* The rows and times of the tracks to sort, laid out by position */
      for (guint r = 0; r < n_rows; r++)
        {
          guint32 t = track != NULL ? track[r] : 0;

          if (t != SPS_NO_INDEX && unsorted[t])
            {
              order[position[r]] = r;
              times[position[r]] = ts[r];
            }
        }

      for (guint t = 0; t < n_tracks; t++)
        if (unsorted[t])
          {
            guint32 *rows = order + start[t];
            guint32 len = start[t + 1] - start[t];

            sort_rows_with_times (rows, times + start[t], len, dur);
            for (guint32 i = 0; i < len; i++)
              position[rows[i]] = start[t] + i;
          }
    }

  return total;
}

static gboolean
is_identity (const guint32 *position,
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

  return shrink_column (column, n_rows, element_size);
}

/* Moves every placed row of a column to its position (dst[position[r]]
 * = src[r]) and frees the source. Reading in row order keeps the reads
 * sequential and the writes go to one stream per track. When nothing
 * moves the column is only shrunk (mremap, no copy). */
static gpointer
scatter_column (gpointer        column,
                const guint32  *position,
                guint           n_rows,
                guint           n_placed,
                gsize           element_size,
                gboolean        identity)
{
  const char *src = column;
  char *dst;

  if (identity)
    return shrink_column (column, n_placed, element_size);

  if (n_placed == 0)
    {
      g_free (column);
      return NULL;
    }

  if (n_placed == n_rows)
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

#define SCATTER_COLUMN(column, position, n_rows, n_placed, identity) \
  ((__typeof__ (column)) scatter_column (g_steal_pointer (&(column)), (position), (n_rows), \
                                         (n_placed), sizeof *(column), (identity)))

static guint32 *
new_index_array (guint n)
{
  guint32 *array = g_new (guint32, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    array[i] = SPS_NO_INDEX;

  return array;
}

static void
push_row (GArray  *stack,
          guint32  row)
{
  g_array_append_val (stack, row);
}

/* The args of an end event belong to the slice it closes. */
static void
merge_end_args (SpsTraceBuilder *b,
                SpsArgsRef      *slice_args,
                SpsArgsRef       end_args)
{
  guint n_overwritten = 0;

  *slice_args = _sps_args_merge (b, *slice_args, end_args, &n_overwritten);
  if (n_overwritten > 0)
    _sps_trace_builder_warn_count (b, "arg_overwritten", n_overwritten,
                                   _("An end event gives an arg the begin gave too; the end's value is kept"));
}

/* B/E pairing: per thread, stably by time; an E closes the innermost open B
 * of the same sampled-ness. The stacks are linked through the rows: while
 * a B is open, its dur slot holds the row of the B it is nested in. */
static void
pair_begin_end (Finish *f)
{
  SpsTraceBuilder *b = f->builder;
  guint n = b->n_slice_records;
  guint nt = b->n_threads;
  g_autofree SpsTime *last_ts = NULL;
  g_autofree guint32 *order = NULL;
  g_autofree guint32 *top = NULL;
  gboolean sorted = TRUE;
  guint n_steps = n;

  if (b->n_begin_end_records == 0)
    return;

  /* Producers write each thread's B/E in time order; only when one does
   * not is the per-thread order computed. */
  last_ts = g_new (SpsTime, MAX (nt, 1));
  for (guint t = 0; t < nt; t++)
    last_ts[t] = SPS_TIME_MIN;
  for (guint r = 0; r < n && sorted; r++)
    if (b->slice_kind[r] != SPS_SLICE_RECORD_COMPLETE)
      {
        guint32 t = b->slice_thread[r];

        sorted = b->slice_ts[r] >= last_ts[t];
        last_ts[t] = b->slice_ts[r];
      }

  if (!sorted)
    {
      g_autofree guint32 *be_thread = g_new (guint32, n);
      g_autofree guint32 *start = g_new (guint32, nt + 1);

      for (guint r = 0; r < n; r++)
        be_thread[r] = b->slice_kind[r] == SPS_SLICE_RECORD_COMPLETE ? SPS_NO_INDEX : b->slice_thread[r];
      order = order_rows (be_thread, b->slice_ts, n, nt, start, &n_steps);
    }

  top = new_index_array (2 * nt);

  for (guint i = 0; i < n_steps; i++)
    {
      guint32 r = order != NULL ? order[i] : i;
      guint32 t = b->slice_thread[r];
      guint32 *slot;

      if (b->slice_kind[r] == SPS_SLICE_RECORD_COMPLETE)
        continue;

      slot = &top[2 * t + ((b->slice_flags[r] & SPS_SLICE_SAMPLED) != 0)];

      if (b->slice_kind[r] == SPS_SLICE_RECORD_BEGIN)
        {
          b->slice_dur[r] = *slot;
          *slot = r;
        }
      else if (*slot == SPS_NO_INDEX)
        {
          sps_trace_builder_warn (b, "unmatched_end",
                                  /* Translators: a time in nanoseconds, then a thread id */
                                  N_("An end at %" PRId64 " ns on thread %" PRId64
                                     " closes nothing; it is dropped"),
                                  b->slice_ts[r], b->thread_tid[t]);
        }
      else
        {
          guint32 open = *slot;

          /* The E's stack is where its slice ends */
          b->slice_end_callsite[open] = b->slice_callsite[r];
          *slot = (guint32) b->slice_dur[open];
          b->slice_dur[open] = time_span (b->slice_ts[open], b->slice_ts[r]);
          merge_end_args (b, &b->slice_args[open], b->slice_args[r]);
          /* The E closes it anyway, as the reference importers do. */
          if (b->slice_name[r] != 0 && b->slice_name[r] != b->slice_name[open])
            sps_trace_builder_warn (b, "begin_end_name_mismatch",
                                    /* Translators: a time in nanoseconds, then a thread id */
                                    N_("An end at %" PRId64 " ns on thread %" PRId64
                                       " names another slice than the begin it closes"),
                                    b->slice_ts[r], b->thread_tid[t]);
        }
    }

  for (guint s = 0; s < 2 * nt; s++)
    {
      guint32 next;

      for (guint32 open = top[s]; open != SPS_NO_INDEX; open = next)
        {
          next = (guint32) b->slice_dur[open];
          b->slice_dur[open] = 0;
          b->slice_flags[open] |= SPS_SLICE_UNFINISHED;
          g_array_append_val (f->unfinished, open);
          sps_trace_builder_warn (b, "unmatched_begin",
                                  /* Translators: a time in nanoseconds, then a thread id */
                                  N_("A begin at %" PRId64 " ns on thread %" PRId64
                                     " is never closed; it lasts to the end of the trace"),
                                  b->slice_ts[open], b->thread_tid[s / 2]);
        }
    }
}

/* Async slices */

static guint32
new_async_slice (Finish     *f,
                 guint32     record,
                 guint32     parent,
                 SpsTime     ts,
                 guint32     name,
                 guint32     category,
                 SpsArgsRef  args,
                 guint16     flags)
{
  SpsTraceBuilder *b = f->builder;
  guint32 a;
  guint16 depth = 0;

  if (parent != SPS_NO_INDEX)
    {
      if (f->async_slice_depth[parent] >= SPS_MAX_DEPTH)
        {
          sps_trace_builder_warn (b, "max_depth_exceeded",
                                  N_("Async slices nest deeper than %u levels; deeper ones are kept at the last level"),
                                  (guint) SPS_MAX_DEPTH);
          parent = f->async_slice_parent[parent];
          depth = SPS_MAX_DEPTH;
        }
      else
        depth = f->async_slice_depth[parent] + 1;
    }

  if (f->n_async_slices == f->async_slices_capacity)
    _sps_table_grow (f, &async_slice_table);

  a = f->n_async_slices++;
  /* The whole tree lives in the process of its root. */
  f->async_slice_process[a] = parent == SPS_NO_INDEX ? b->async_process[record]
                                                     : f->async_slice_process[parent];
  f->async_slice_parent[a] = parent;
  f->async_slice_depth[a] = depth;

  _sps_trace_builder_append_slice_record (b, SPS_SLICE_RECORD_ASYNC, SPS_NO_INDEX,
                                          ts, 0, name, category, args,
                                          flags | SPS_SLICE_ASYNC);
  g_assert (f->async_first + a == b->n_slice_records - 1);

  return a;
}

static inline guint32
async_row (Finish  *f,
           guint32  a)
{
  return f->async_first + a;
}

static void
close_async_slice (Finish  *f,
                   guint32  a,
                   SpsTime  ts)
{
  SpsTraceBuilder *b = f->builder;
  guint32 row = async_row (f, a);

  b->slice_dur[row] = time_span (b->slice_ts[row], MAX (ts, b->slice_ts[row]));
}

static void
leave_async_unfinished (Finish  *f,
                        guint32  a)
{
  SpsTraceBuilder *b = f->builder;
  guint32 row = async_row (f, a);

  b->slice_flags[row] |= SPS_SLICE_UNFINISHED;
  g_array_append_val (f->unfinished, row);
}

/* An async slice ends at @end_record's time, or, without one, with the
 * trace. */
static void
end_async_slice (Finish  *f,
                 guint32  a,
                 guint32  end_record)
{
  if (end_record != SPS_NO_INDEX)
    close_async_slice (f, a, f->builder->async_ts[end_record]);
  else
    leave_async_unfinished (f, a);
}

/* The slices of a legacy operation: the S (with @finish's args merged)
 * to @finish, SPS_NO_INDEX while it is open; a child per T from it to
 * the next step or the end, or a child per p from the step before it
 * (or the S) to it, and one from the last p to the end. Steps of both
 * kinds make no slice at all. */
static void
add_legacy_slices (Finish     *f,
                   LegacyOpen *open,
                   guint32     finish)
{
  SpsTraceBuilder *b = f->builder;
  guint32 start = open->start;
  guint n_steps = open->steps != NULL ? open->steps->len : 0;
  const guint32 *steps = n_steps > 0 ? (const guint32 *) open->steps->data : NULL;
  SpsArgsRef args = b->async_args[start];
  guint32 a;

  for (guint i = 1; i < n_steps; i++)
    if (b->async_phase[steps[i]] != b->async_phase[steps[0]])
      {
        sps_trace_builder_warn (b, "mixed_async_steps",
                                /* Translators: %<PRId64> is a time in nanoseconds */
                                N_("An async operation started at %" PRId64 " ns has both "
                                   "step-into and step-past steps; it is dropped"),
                                b->async_ts[start]);
        g_clear_pointer (&open->steps, g_array_unref);
        return;
      }

  if (finish != SPS_NO_INDEX)
    merge_end_args (b, &args, b->async_args[finish]);
  else
    sps_trace_builder_warn (b, "unmatched_async_begin",
                            /* Translators: %<PRId64> is a time in nanoseconds */
                            N_("An async start at %" PRId64 " ns is never finished"),
                            b->async_ts[start]);

  a = new_async_slice (f, start, SPS_NO_INDEX, b->async_ts[start], b->async_name[start],
                       b->async_category[start], args, SPS_SLICE_NONE);
  end_async_slice (f, a, finish);
  f->async_record_slice[start] = a;
  if (finish != SPS_NO_INDEX)
    f->async_record_slice[finish] = a;

  for (guint i = 0; i < n_steps; i++)
    {
      gboolean into = b->async_phase[steps[i]] == SPS_ASYNC_LEGACY_STEP_INTO;
      guint32 from = into ? steps[i] : i > 0 ? steps[i - 1] : start;
      guint32 to = into ? (i + 1 < n_steps ? steps[i + 1] : finish) : steps[i];
      guint32 child;

      child = new_async_slice (f, steps[i], a, b->async_ts[from], b->async_name[steps[i]],
                               b->async_category[start], b->async_args[steps[i]],
                               SPS_SLICE_STEP);
      if (to == SPS_NO_INDEX)
        b->slice_flags[async_row (f, child)] |= SPS_SLICE_UNFINISHED;
      end_async_slice (f, child, to);
      f->async_record_slice[steps[i]] = a;
    }

  /* After the last p, the rest of the operation is a child named by it,
   * as about:tracing shows it. */
  if (n_steps > 0 && b->async_phase[steps[0]] == SPS_ASYNC_LEGACY_STEP_PAST)
    {
      guint32 child = new_async_slice (f, steps[n_steps - 1], a, b->async_ts[steps[n_steps - 1]],
                                       b->async_name[start], b->async_category[start],
                                       SPS_ARGS_REF_NONE, SPS_SLICE_STEP);

      if (finish == SPS_NO_INDEX)
        b->slice_flags[async_row (f, child)] |= SPS_SLICE_UNFINISHED;
      end_async_slice (f, child, finish);
    }

  g_clear_pointer (&open->steps, g_array_unref);
}

/* Nestable: an e closes the innermost open b of its name (an e without
 * a name, the innermost); begins opened inside it stay open. */
static void
close_nestable (Finish  *f,
                guint32  record,
                GArray  *nestable)
{
  SpsTraceBuilder *b = f->builder;
  guint32 name = b->async_name[record];
  guint k = nestable->len;
  guint32 a;
  guint32 row;

  while (k > 0)
    {
      guint32 candidate = g_array_index (nestable, guint32, k - 1);

      if (name == 0 || b->slice_name[async_row (f, candidate)] == name)
        break;
      k--;
    }

  if (k == 0)
    {
      sps_trace_builder_warn (b, "unmatched_async_end",
                              /* Translators: %<PRId64> is a time in nanoseconds */
                              N_("An async end at %" PRId64 " ns closes nothing; it is dropped"),
                              b->async_ts[record]);
      return;
    }

  a = g_array_index (nestable, guint32, k - 1);
  row = async_row (f, a);
  close_async_slice (f, a, b->async_ts[record]);
  merge_end_args (b, &b->slice_args[row], b->async_args[record]);
  g_array_remove_index (nestable, k - 1);
  f->async_record_slice[record] = a;
}

static void
add_async_record (Finish  *f,
                  guint32  record,
                  GArray  *nestable,
                  GArray  *legacy)
{
  SpsTraceBuilder *b = f->builder;
  SpsTime ts = b->async_ts[record];
  guint32 top = nestable->len > 0 ? g_array_index (nestable, guint32, nestable->len - 1) : SPS_NO_INDEX;

  switch ((SpsAsyncPhase) b->async_phase[record])
    {
    case SPS_ASYNC_BEGIN:
      {
        guint32 a = new_async_slice (f, record, top, ts, b->async_name[record],
                                     b->async_category[record], b->async_args[record],
                                     SPS_SLICE_NONE);

        push_row (nestable, a);
        f->async_record_slice[record] = a;
      }
      break;

    case SPS_ASYNC_END:
      close_nestable (f, record, nestable);
      break;

    case SPS_ASYNC_LEGACY_START:
      {
        LegacyOpen open = { record, NULL };

        /* One operation per (name, id) at a time: a second S is an error
         * in the reference importer, and its steps and F go to the first. */
        if (legacy->len > 0)
          {
            sps_trace_builder_warn (b, "duplicate_async_start",
                                    /* Translators: %<PRId64> is a time in nanoseconds */
                                    N_("An async start at %" PRId64 " ns has the name and id of "
                                       "one still open; it is dropped"),
                                    ts);
            break;
          }
        g_array_append_val (legacy, open);
      }
      break;

    case SPS_ASYNC_LEGACY_STEP_INTO:
    case SPS_ASYNC_LEGACY_STEP_PAST:
      {
        LegacyOpen *open;

        if (legacy->len == 0)
          {
            sps_trace_builder_warn (b, "unmatched_async_step",
                                    /* Translators: %<PRId64> is a time in nanoseconds */
                                    N_("An async step at %" PRId64 " ns has no start; it is dropped"),
                                    ts);
            break;
          }

        open = &g_array_index (legacy, LegacyOpen, legacy->len - 1);
        if (open->steps == NULL)
          open->steps = g_array_new (FALSE, FALSE, sizeof (guint32));
        g_array_append_val (open->steps, record);
      }
      break;

    case SPS_ASYNC_LEGACY_FINISH:
      if (legacy->len == 0)
        {
          sps_trace_builder_warn (b, "unmatched_async_end",
                                  /* Translators: %<PRId64> is a time in nanoseconds */
                                  N_("An async finish at %" PRId64 " ns closes nothing; it is dropped"),
                                  ts);
          break;
        }

      add_legacy_slices (f, &g_array_index (legacy, LegacyOpen, legacy->len - 1), record);
      g_array_set_size (legacy, legacy->len - 1);
      break;

    default:
      g_assert_not_reached ();
    }
}

/* What is still open when a key's events run out lasts to the trace end. */
static void
leave_key_open (Finish *f,
                GArray *nestable,
                GArray *legacy)
{
  SpsTraceBuilder *b = f->builder;

  for (guint i = 0; i < nestable->len; i++)
    {
      guint32 a = g_array_index (nestable, guint32, i);

      leave_async_unfinished (f, a);
      sps_trace_builder_warn (b, "unmatched_async_begin",
                              /* Translators: %<PRId64> is a time in nanoseconds */
                              N_("An async begin at %" PRId64 " ns is never closed"),
                              b->slice_ts[async_row (f, a)]);
    }

  for (guint i = 0; i < legacy->len; i++)
    add_legacy_slices (f, &g_array_index (legacy, LegacyOpen, i), SPS_NO_INDEX);

  g_array_set_size (nestable, 0);
  g_array_set_size (legacy, 0);
}

static void
pair_async (Finish *f)
{
  SpsTraceBuilder *b = f->builder;
  guint n = b->n_async;
  g_autofree guint32 *order = NULL;
  g_autoptr(GArray) nestable = NULL;
  g_autoptr(GArray) legacy = NULL;
  guint j;

  if (n == 0)
    return;

  order = order_by_key_and_time (b->async_key, b->async_ts, n);
  f->async_record_slice = new_index_array (n);
  nestable = g_array_new (FALSE, FALSE, sizeof (guint32));
  legacy = g_array_new (FALSE, FALSE, sizeof (LegacyOpen));

  for (guint i = 0; i < n; i = j)
    {
      guint64 key = b->async_key[order[i]];

      for (j = i; j < n && b->async_key[order[j]] == key; j++)
        add_async_record (f, order[j], nestable, legacy);

      leave_key_open (f, nestable, legacy);
    }
}

/* Widens [*start, *end] to the times of a table of points. */
static void
extend_range (const SpsTime *ts,
              guint          n,
              SpsTime       *start,
              SpsTime       *end)
{
  for (guint r = 0; r < n; r++)
    {
      *start = MIN (*start, ts[r]);
      *end = MAX (*end, ts[r]);
    }
}

static void
time_range (Finish *f)
{
  SpsTraceBuilder *b = f->builder;
  SpsTime start = SPS_TIME_MAX;
  SpsTime end = SPS_TIME_MIN;

  /* Unfinished slices have dur 0 until the end is known. */
  for (guint r = 0; r < b->n_slice_records; r++)
    {
      if (b->slice_kind[r] == SPS_SLICE_RECORD_END)
        continue;
      start = MIN (start, b->slice_ts[r]);
      end = MAX (end, b->slice_ts[r] + b->slice_dur[r]);
    }

  extend_range (b->instant_ts, b->n_instants, &start, &end);
  extend_range (b->value_ts, b->n_counter_values, &start, &end);
  extend_range (b->sample_ts, b->n_samples, &start, &end);
  extend_range (b->object_ts, b->n_objects, &start, &end);

  if (start > end)
    start = end = 0;

  f->trace->start_time = start;
  f->trace->end_time = end;
}

static void
close_unfinished (Finish *f)
{
  SpsTraceBuilder *b = f->builder;
  SpsTime end = f->trace->end_time;

  g_array_append_vals (f->unfinished, b->open_complete->data, b->open_complete->len);
  g_array_set_size (b->open_complete, 0);

  for (guint i = 0; i < f->unfinished->len; i++)
    {
      guint32 row = g_array_index (f->unfinished, guint32, i);

      b->slice_dur[row] = time_span (b->slice_ts[row], end);
    }

  g_clear_pointer (&f->unfinished, g_array_unref);
  f->unfinished = g_array_new (FALSE, FALSE, sizeof (guint32));
}

/* Binary min-heaps of lanes for lane packing: the busy lanes keyed by
 * the time they are free again, the free lanes keyed by their number. */

static void
lane_heap_push (GArray  *heap,
                SpsTime  key,
                guint32  lane)
{
  LaneHeapItem item = { key, lane };
  LaneHeapItem *h;
  guint i;

  g_array_append_val (heap, item);
  h = (LaneHeapItem *) (gpointer) heap->data;
  for (i = heap->len - 1; i > 0 && h[(i - 1) / 2].key > item.key; i = (i - 1) / 2)
    h[i] = h[(i - 1) / 2];
  h[i] = item;
}

static guint32
lane_heap_pop (GArray *heap)
{
  LaneHeapItem *h = (LaneHeapItem *) (gpointer) heap->data;
  guint32 lane = h[0].lane;
  LaneHeapItem last = h[heap->len - 1];
  guint n = heap->len - 1;
  guint i = 0;

  for (;;)
    {
      guint c = 2 * i + 1;

      if (c >= n)
        break;
      if (c + 1 < n && h[c + 1].key < h[c].key)
        c++;
      if (h[c].key >= last.key)
        break;
      h[i] = h[c];
      i = c;
    }
  if (n > 0)
    h[i] = last;
  g_array_set_size (heap, n);

  return lane;
}

/* Each async tree goes, in order of its root's start, on the lowest lane
 * of its process that is free from then on. */
static void
pack_async_lanes (Finish *f)
{
  SpsTraceBuilder *b = f->builder;
  guint n = f->n_async_slices;
  const SpsTime *ts;
  const SpsTime *dur;
  g_autofree guint32 *root = NULL;
  g_autofree SpsTime *tree_end = NULL;
  g_autofree guint32 *root_process = NULL;
  g_autofree guint32 *order = NULL;
  g_autofree guint32 *start = NULL;
  g_autoptr(GArray) busy = NULL;
  g_autoptr(GArray) free_lanes = NULL;
  guint n_roots;

  f->process_n_lanes = g_new0 (guint32, MAX (b->n_processes, 1));

  if (n == 0)
    return;

  ts = b->slice_ts + f->async_first;
  dur = b->slice_dur + f->async_first;

  root = g_new (guint32, n);
  tree_end = g_new (SpsTime, n);
  root_process = g_new (guint32, n);

  /* A parent is always created before its children. */
  for (guint a = 0; a < n; a++)
    {
      guint32 parent = f->async_slice_parent[a];

      root[a] = parent == SPS_NO_INDEX ? a : root[parent];
      root_process[a] = parent == SPS_NO_INDEX ? f->async_slice_process[a] : SPS_NO_INDEX;
      tree_end[a] = ts[a] + dur[a];
      if (tree_end[a] > tree_end[root[a]])
        tree_end[root[a]] = tree_end[a];
    }

  start = g_new (guint32, b->n_processes + 1);
  order = order_rows (root_process, ts, n, b->n_processes, start, &n_roots);
  g_clear_pointer (&root_process, g_free);

  f->async_slice_lane = g_new (guint32, n);
  busy = g_array_new (FALSE, FALSE, sizeof (LaneHeapItem));
  free_lanes = g_array_new (FALSE, FALSE, sizeof (LaneHeapItem));

  for (guint p = 0; p < b->n_processes; p++)
    {
      guint32 n_lanes = 0;

      g_array_set_size (busy, 0);
      g_array_set_size (free_lanes, 0);

      for (guint i = start[p]; i < start[p + 1]; i++)
        {
          guint32 a = order[i];
          guint32 lane;

          while (busy->len > 0 && g_array_index (busy, LaneHeapItem, 0).key <= ts[a])
            {
              guint32 freed = lane_heap_pop (busy);

              lane_heap_push (free_lanes, freed, freed);
            }

          lane = free_lanes->len > 0 ? lane_heap_pop (free_lanes) : n_lanes++;
          lane_heap_push (busy, tree_end[a], lane);
          f->async_slice_lane[a] = lane;
        }

      f->process_n_lanes[p] = n_lanes;
    }

  for (guint a = 0; a < n; a++)
    f->async_slice_lane[a] = f->async_slice_lane[root[a]];
}

static void
move_processes_and_threads (Finish *f)
{
  SpsTraceBuilder *b = f->builder;
  SpsTrace *trace = f->trace;
  guint np = b->n_processes;
  guint nt = b->n_threads;

  trace->processes.n_rows = np;
  trace->processes.pid = STEAL_COLUMN (b->process_pid, np);
  trace->processes.name = STEAL_COLUMN (b->process_name, np);
  trace->processes.sort_index = STEAL_COLUMN (b->process_sort_index, np);
  trace->processes.labels = STEAL_COLUMN (b->process_labels, np);

  trace->threads.n_rows = nt;
  trace->threads.process = STEAL_COLUMN (b->thread_process, nt);
  trace->threads.tid = STEAL_COLUMN (b->thread_tid, nt);
  trace->threads.name = STEAL_COLUMN (b->thread_name, nt);
  trace->threads.sort_index = STEAL_COLUMN (b->thread_sort_index, nt);
}

static guint32
add_track (Finish       *f,
           SpsTrackKind  kind,
           guint32       process,
           guint32       thread,
           guint32       name,
           guint32       series)
{
  guint32 t;

  if (f->n_tracks == f->tracks_capacity)
    _sps_table_grow (f, &track_table);

  t = f->n_tracks++;
  f->track_kind[t] = kind;
  f->track_process[t] = process;
  f->track_thread[t] = thread;
  f->track_name[t] = name;
  f->track_series[t] = series;
  f->track_first_row[t] = 0;
  f->track_n_rows[t] = 0;
  f->track_max_depth[t] = 0;

  return t;
}

enum {
  HAS_SLICES = 1 << 0,
  HAS_SAMPLED = 1 << 1,
  HAS_INSTANTS = 1 << 2,
  HAS_SAMPLES = 1 << 3,
};

/* Tracks are created process by process: each thread's tracks (those that
 * have rows), then the process's async lanes, process instants and
 * counter series; the global instant track comes last. */
static void
build_tracks (Finish *f)
{
  SpsTraceBuilder *b = f->builder;
  SpsTrace *trace = f->trace;
  const guint32 *thread_process = trace->threads.process;
  guint np = trace->processes.n_rows;
  guint nt = trace->threads.n_rows;
  g_autofree guint8 *thread_has = g_new0 (guint8, MAX (nt, 1));
  g_autofree gboolean *process_has_instants = g_new0 (gboolean, MAX (np, 1));
  g_autofree guint32 *threads_by_process = NULL;
  g_autofree guint32 *thread_start = g_new (guint32, np + 1);
  g_autofree guint32 *counters_by_process = NULL;
  g_autofree guint32 *counter_start = g_new (guint32, np + 1);
  gboolean has_global = FALSE;
  guint n_ordered;

  for (guint r = 0; r < f->async_first; r++)
    if (b->slice_kind[r] != SPS_SLICE_RECORD_END)
      thread_has[b->slice_thread[r]] |= (b->slice_flags[r] & SPS_SLICE_SAMPLED) ? HAS_SAMPLED : HAS_SLICES;

  for (guint r = 0; r < b->n_instants; r++)
    switch (b->instant_scope[r])
      {
      case SPS_INSTANT_SCOPE_THREAD:
        thread_has[b->instant_owner[r]] |= HAS_INSTANTS;
        break;
      case SPS_INSTANT_SCOPE_PROCESS:
        process_has_instants[b->instant_owner[r]] = TRUE;
        break;
      default:
        has_global = TRUE;
        break;
      }

  for (guint r = 0; r < b->n_samples; r++)
    thread_has[b->sample_thread[r]] |= HAS_SAMPLES;
  /* A thread whose every sample was deleted by a repair keeps its (empty)
   * sample track, so that its raw samples have one */
  for (guint r = 0; r < b->n_raw_samples; r++)
    thread_has[b->raw_sample_thread[r]] |= HAS_SAMPLES;

  /* Threads and counters grouped by process, in index order */
  threads_by_process = order_rows (thread_process, NULL, nt, np, thread_start, &n_ordered);
  counters_by_process = order_rows (b->counter_process, NULL, b->n_counters, np,
                                    counter_start, &n_ordered);

  f->thread_slices_track = new_index_array (nt);
  f->thread_sampled_track = new_index_array (nt);
  f->thread_instants_track = new_index_array (nt);
  f->thread_samples_track = new_index_array (nt);
  f->process_instants_track = new_index_array (np);
  f->process_first_lane = new_index_array (np);
  f->counter_track = new_index_array (b->n_counters);
  f->global_instants_track = SPS_NO_INDEX;

  for (guint p = 0; p < np; p++)
    {
      for (guint i = thread_start[p]; i < thread_start[p + 1]; i++)
        {
          guint32 t = threads_by_process[i];

          if (thread_has[t] & HAS_SLICES)
            f->thread_slices_track[t] = add_track (f, SPS_TRACK_THREAD_SLICES, p, t, 0, 0);
          if (thread_has[t] & HAS_SAMPLED)
            f->thread_sampled_track[t] = add_track (f, SPS_TRACK_THREAD_SAMPLED_SLICES, p, t, 0, 0);
          if (thread_has[t] & HAS_INSTANTS)
            f->thread_instants_track[t] = add_track (f, SPS_TRACK_THREAD_INSTANTS, p, t, 0, 0);
          if (thread_has[t] & HAS_SAMPLES)
            f->thread_samples_track[t] = add_track (f, SPS_TRACK_THREAD_SAMPLES, p, t, 0, 0);
        }

      f->process_first_lane[p] = f->n_tracks;
      for (guint l = 0; l < f->process_n_lanes[p]; l++)
        add_track (f, SPS_TRACK_ASYNC, p, SPS_NO_INDEX, 0, 0);

      if (process_has_instants[p])
        f->process_instants_track[p] = add_track (f, SPS_TRACK_PROCESS_INSTANTS, p, SPS_NO_INDEX, 0, 0);

      for (guint i = counter_start[p]; i < counter_start[p + 1]; i++)
        {
          guint32 c = counters_by_process[i];

          f->counter_track[c] = add_track (f, SPS_TRACK_COUNTER, p, SPS_NO_INDEX,
                                           b->counter_name[c], b->counter_series[c]);
        }
    }

  if (has_global)
    f->global_instants_track = add_track (f, SPS_TRACK_GLOBAL_INSTANTS,
                                          SPS_NO_INDEX, SPS_NO_INDEX, 0, 0);
}

/* Records the rows of one table's tracks. */
static void
set_track_rows (Finish        *f,
                const guint32 *start,
                guint          kinds)
{
  for (guint t = 0; t < f->n_tracks; t++)
    if ((kinds & (1u << f->track_kind[t])) != 0)
      {
        f->track_first_row[t] = start[t];
        f->track_n_rows[t] = start[t + 1] - start[t];
      }
}

static guint32 *
track_column (const guint32 *start,
              guint          n_tracks,
              guint          n_rows)
{
  guint32 *track;

  if (n_rows == 0)
    return NULL;

  track = g_new (guint32, n_rows);

  for (guint t = 0; t < n_tracks; t++)
    for (guint32 i = start[t]; i < start[t + 1]; i++)
      track[i] = t;

  return track;
}

#define SLICE_TRACK_KINDS ((1u << SPS_TRACK_THREAD_SLICES) | \
                           (1u << SPS_TRACK_THREAD_SAMPLED_SLICES) | \
                           (1u << SPS_TRACK_ASYNC))

/* Parent and depth on thread tracks come from containment: a slice's
 * parent is the innermost open slice that contains it; one that starts
 * inside a slice but ends after it (overlap, out of spec) becomes its
 * child anyway, with a warning. Async trees come with theirs. Self time,
 * max depth and the completed-slice counts are done in the same pass. */
static void
nest_slices (Finish  *f,
             guint32 *parent,
             guint16 *depth,
             SpsTime *self_time)
{
  SpsTrace *trace = f->trace;
  const SpsTime *ts = trace->slices.ts;
  const SpsTime *dur = trace->slices.dur;
  const guint16 *flags = trace->slices.flags;
  g_autofree guint32 *stack = NULL;
  g_autofree SpsTime *stack_end = NULL;
  guint capacity = 0;

  for (guint i = 0; i < trace->slices.n_rows; i++)
    self_time[i] = dur[i];

  for (guint t = 0; t < f->n_tracks; t++)
    {
      guint8 kind = f->track_kind[t];
      guint32 first = f->track_first_row[t];
      guint32 end = first + f->track_n_rows[t];
      guint16 max_depth = 0;
      guint completed = 0;
      guint sp = 0;

      if ((SLICE_TRACK_KINDS & (1u << kind)) == 0)
        continue;

      for (guint32 i = first; i < end; i++)
        {
          guint32 p;

          if (kind != SPS_TRACK_ASYNC)
            {
              SpsTime s_ts = ts[i];
              SpsTime s_end = s_ts + dur[i];
              guint16 d = 0;

              p = SPS_NO_INDEX;
              while (sp > 0)
                {
                  if (s_end <= stack_end[sp - 1])
                    {
                      p = stack[sp - 1];
                      break;
                    }
                  if (s_ts < stack_end[sp - 1])
                    {
                      sps_trace_builder_warn (f->builder, "overlapping_slice",
                                              /* Translators: %<PRId64> is a time in nanoseconds */
                                              N_("A slice at %" PRId64 " ns ends after the slice it starts in"),
                                              s_ts);
                      p = stack[sp - 1];
                      break;
                    }
                  sp--;
                }

              if (p != SPS_NO_INDEX)
                {
                  if (depth[p] >= SPS_MAX_DEPTH)
                    {
                      sps_trace_builder_warn (f->builder, "max_depth_exceeded",
                                              N_("Slices nest deeper than %u levels; deeper ones are kept at the last level"),
                                              (guint) SPS_MAX_DEPTH);
                      p = parent[p];
                      d = SPS_MAX_DEPTH;
                    }
                  else
                    d = depth[p] + 1;
                }

              parent[i] = p;
              depth[i] = d;

              if (sp == capacity)
                {
                  capacity = MAX (64, capacity * 2);
                  stack = g_renew (guint32, stack, capacity);
                  stack_end = g_renew (SpsTime, stack_end, capacity);
                }
              stack[sp] = i;
              stack_end[sp] = s_end;
              sp++;
            }

          /* Clipping at every step gives the same as clipping the sum. */
          p = parent[i];
          if (p != SPS_NO_INDEX)
            self_time[p] = self_time[p] > dur[i] ? self_time[p] - dur[i] : 0;

          if (depth[i] + 1 > max_depth)
            max_depth = depth[i] + 1;
          if ((flags[i] & (SPS_SLICE_UNFINISHED | SPS_SLICE_UNMATCHED_END | SPS_SLICE_STEP)) == 0)
            completed++;
        }

      f->track_max_depth[t] = max_depth;
      trace->slice_counts[kind] += completed;
    }
}

static void
build_slices (Finish *f)
{
  SpsTraceBuilder *b = f->builder;
  SpsSliceTable *slices = &f->trace->slices;
  guint n = b->n_slice_records;
  g_autofree guint32 *start = g_new (guint32, f->n_tracks + 1);
  guint32 *position;
  guint32 *parent;
  guint16 *depth;
  SpsTime *self_time;
  guint n_slices;
  gboolean identity;

  /* The thread column becomes the track column. */
  for (guint r = 0; r < f->async_first; r++)
    {
      guint32 thread = b->slice_thread[r];

      if (b->slice_kind[r] == SPS_SLICE_RECORD_END)
        b->slice_thread[r] = SPS_NO_INDEX;
      else if (b->slice_flags[r] & SPS_SLICE_SAMPLED)
        b->slice_thread[r] = f->thread_sampled_track[thread];
      else
        b->slice_thread[r] = f->thread_slices_track[thread];
    }
  for (guint a = 0; a < f->n_async_slices; a++)
    b->slice_thread[async_row (f, a)] = f->process_first_lane[f->async_slice_process[a]] +
                                        f->async_slice_lane[a];

  position = g_new (guint32, MAX (n, 1));
  n_slices = place_rows (b->slice_thread, b->slice_ts, b->slice_dur, n, f->n_tracks, start, position);
  f->record_slice = position;
  g_clear_pointer (&b->slice_thread, g_free);
  g_clear_pointer (&b->slice_kind, g_free);
  set_track_rows (f, start, SLICE_TRACK_KINDS);

  identity = is_identity (position, n, n_slices);
  slices->n_rows = n_slices;
  slices->ts = SCATTER_COLUMN (b->slice_ts, position, n, n_slices, identity);
  slices->dur = SCATTER_COLUMN (b->slice_dur, position, n, n_slices, identity);
  slices->name = SCATTER_COLUMN (b->slice_name, position, n, n_slices, identity);
  slices->category = SCATTER_COLUMN (b->slice_category, position, n, n_slices, identity);
  slices->args = SCATTER_COLUMN (b->slice_args, position, n, n_slices, identity);
  slices->flags = SCATTER_COLUMN (b->slice_flags, position, n, n_slices, identity);
  slices->callsite = SCATTER_COLUMN (b->slice_callsite, position, n, n_slices, identity);
  slices->end_callsite = SCATTER_COLUMN (b->slice_end_callsite, position, n, n_slices, identity);
  slices->track = track_column (start, f->n_tracks, n_slices);
  b->n_slice_records = b->slice_records_capacity = 0;

  parent = g_new (guint32, MAX (n_slices, 1));
  depth = g_new (guint16, MAX (n_slices, 1));
  self_time = g_new (SpsTime, MAX (n_slices, 1));

  /* Async trees were built by pairing; only their indexes change. */
  for (guint a = 0; a < f->n_async_slices; a++)
    {
      guint32 i = position[async_row (f, a)];
      guint32 pa = f->async_slice_parent[a];

      parent[i] = pa == SPS_NO_INDEX ? SPS_NO_INDEX : position[async_row (f, pa)];
      depth[i] = f->async_slice_depth[a];
    }

  nest_slices (f, parent, depth, self_time);

  slices->parent = shrink_column (parent, n_slices, sizeof (guint32));
  slices->depth = shrink_column (depth, n_slices, sizeof (guint16));
  slices->self_time = shrink_column (self_time, n_slices, sizeof (SpsTime));

  g_clear_pointer (&f->async_slice_parent, g_free);
  g_clear_pointer (&f->async_slice_depth, g_free);
  g_clear_pointer (&f->async_slice_lane, g_free);
  g_clear_pointer (&f->async_slice_process, g_free);
}

static void
build_block_index (Finish *f)
{
  SpsTrace *trace = f->trace;
  const SpsTrackTable *tracks = &trace->tracks;
  const SpsTime *ts = trace->slices.ts;
  const SpsTime *dur = trace->slices.dur;
  guint32 n_blocks = 0;
  guint leaves = 1;
  SpsTime *tree;

  trace->track_first_block = g_new (guint32, tracks->n_rows + 1);
  for (guint t = 0; t < tracks->n_rows; t++)
    {
      trace->track_first_block[t] = n_blocks;
      if ((SLICE_TRACK_KINDS & (1u << tracks->kind[t])) != 0)
        n_blocks += (tracks->n_rows_in_track[t] + SPS_SLICE_BLOCK_SIZE - 1) / SPS_SLICE_BLOCK_SIZE;
    }
  trace->track_first_block[tracks->n_rows] = n_blocks;

  while (leaves < n_blocks)
    leaves *= 2;

  tree = g_new (SpsTime, 2 * (gsize) leaves);
  for (guint i = 0; i < 2 * leaves; i++)
    tree[i] = SPS_TIME_MIN;

  for (guint t = 0; t < tracks->n_rows; t++)
    {
      guint32 first = tracks->first_row[t];
      guint32 end = first + tracks->n_rows_in_track[t];
      guint32 block = trace->track_first_block[t];

      if ((SLICE_TRACK_KINDS & (1u << tracks->kind[t])) == 0)
        continue;

      for (guint32 row = first; row < end; row += SPS_SLICE_BLOCK_SIZE, block++)
        {
          guint32 last = MIN (row + SPS_SLICE_BLOCK_SIZE, end);
          SpsTime max_end = SPS_TIME_MIN;

          for (guint32 i = row; i < last; i++)
            max_end = MAX (max_end, ts[i] + dur[i]);
          tree[leaves + block] = max_end;
        }
    }

  for (guint i = leaves - 1; i > 0; i--)
    tree[i] = MAX (tree[2 * i], tree[2 * i + 1]);

  trace->block_tree = tree;
  trace->n_block_leaves = leaves;
}

/* The first row in [lo, hi) whose time is above @ts (or at or above it
 * when @inclusive is FALSE), searching forward from @lo by doubling steps:
 * a sweep over sorted points costs O(log gap) per point, whether the
 * points are dense or sparse. */
static guint32
gallop_past (const SpsTime *ts,
             guint32        lo,
             guint32        hi,
             SpsTime        target,
             gboolean       inclusive)
{
  guint32 step = 1;
  guint32 bound = lo;

#define BEFORE(i) (inclusive ? ts[i] <= target : ts[i] < target)
  while (bound < hi && BEFORE (bound))
    {
      lo = bound + 1;
      bound = hi - bound > step ? bound + step : hi;
      step *= 2;
    }
  while (lo < bound)
    {
      guint32 mid = lo + (bound - lo) / 2;

      if (BEFORE (mid))
        lo = mid + 1;
      else
        bound = mid;
    }
#undef BEFORE

  return lo;
}

/* Binds every flow point to a slice (SPS_NO_INDEX when none): handles map
 * through the row maps; time-bound points are swept per thread track in
 * time order. ENCLOSING takes the deepest slice with start ≤ ts ≤ end:
 * the last slice starting at or before ts, or its nearest ancestor that
 * still covers ts. NEXT takes the first slice starting at or after ts. */
static guint32 *
bind_flow_points (Finish *f)
{
  SpsTraceBuilder *b = f->builder;
  const SpsTrackTable *tracks = &f->trace->tracks;
  const SpsSliceTable *slices = &f->trace->slices;
  guint n = b->n_flow_points;
  guint32 *bound = g_new (guint32, MAX (n, 1));
  g_autofree guint32 *track = g_new (guint32, MAX (n, 1));
  g_autofree guint32 *start = g_new (guint32, tracks->n_rows + 1);
  g_autofree guint32 *position = g_new (guint32, MAX (n, 1));
  g_autofree guint32 *order = NULL;
  guint n_placed;

  for (guint r = 0; r < n; r++)
    {
      guint32 handle = b->flow_handle[r];

      bound[r] = SPS_NO_INDEX;
      track[r] = SPS_NO_INDEX;

      if (b->flow_bind[r] != SPS_FLOW_BIND_SLICE)
        track[r] = f->thread_slices_track[b->flow_thread[r]];
      else if ((handle & SPS_ASYNC_HANDLE_BIT) != 0)
        {
          guint32 record = handle & ~SPS_ASYNC_HANDLE_BIT;

          if (record < b->n_async && f->async_record_slice != NULL &&
              f->async_record_slice[record] != SPS_NO_INDEX)
            bound[r] = f->record_slice[async_row (f, f->async_record_slice[record])];
        }
      else if (handle < f->async_first)
        bound[r] = f->record_slice[handle];
    }

  n_placed = place_rows (track, b->flow_ts, NULL, n, tracks->n_rows, start, position);
  order = g_new (guint32, MAX (n_placed, 1));
  for (guint r = 0; r < n; r++)
    if (position[r] != SPS_NO_INDEX)
      order[position[r]] = r;

  for (guint t = 0; t < tracks->n_rows; t++)
    {
      guint32 end = tracks->first_row[t] + tracks->n_rows_in_track[t];
      guint32 at = tracks->first_row[t];      /* first slice with ts >= point */
      guint32 past = tracks->first_row[t];    /* first slice with ts > point */

      for (guint32 i = start[t]; i < start[t + 1]; i++)
        {
          guint32 r = order[i];
          SpsTime ts = b->flow_ts[r];

          if (b->flow_bind[r] == SPS_FLOW_BIND_NEXT)
            {
              at = gallop_past (slices->ts, at, end, ts, FALSE);
              bound[r] = at < end ? at : SPS_NO_INDEX;
              continue;
            }

          past = gallop_past (slices->ts, past, end, ts, TRUE);
          if (past == tracks->first_row[t])
            continue;
          for (guint32 row = past - 1; row != SPS_NO_INDEX; row = slices->parent[row])
            if (slices->ts[row] + slices->dur[row] >= ts)
              {
                bound[r] = row;
                break;
              }
        }
    }

  return bound;
}

/* Per key, in time order: START opens a chain, each further bound point
 * adds an arrow from the previous bound point, END closes the chain. */
static void
build_flows (Finish *f)
{
  SpsTraceBuilder *b = f->builder;
  SpsFlowTable *flows = &f->trace->flows;
  guint n = b->n_flow_points;
  g_autofree guint32 *bound = NULL;
  g_autofree guint32 *order = NULL;
  guint32 *from;
  guint32 *to;
  guint64 *key;
  guint32 *name;
  guint32 *category;
  guint n_arrows = 0;
  gboolean open = FALSE;
  guint32 last = SPS_NO_INDEX;
  guint32 chain_name = 0;
  guint32 chain_category = 0;
  guint64 chain_key = 0;
  guint32 chain_producer = SPS_NO_INDEX;

  if (n == 0)
    return;

  bound = bind_flow_points (f);
  order = order_by_key_and_time (b->flow_key, b->flow_ts, n);
  from = g_new (guint32, n);
  to = g_new (guint32, n);
  key = g_new (guint64, n);
  name = g_new (guint32, n);
  category = g_new (guint32, n);

  for (guint i = 0; i < n; i++)
    {
      guint32 point = order[i];
      SpsFlowPhase phase = b->flow_phase[point];
      guint32 slice;

      if (i > 0 && b->flow_key[point] != chain_key)
        open = FALSE;

      if (phase != SPS_FLOW_START && !open)
        {
          sps_trace_builder_warn (b, "flow_without_start",
                                  /* Translators: a time in nanoseconds, then the id of a flow */
                                  N_("A flow point at %" PRId64 " ns (id %" PRIu64
                                     ") has no start before it; it is dropped"),
                                  b->flow_ts[point], b->flow_key[point]);
          continue;
        }

      if (phase == SPS_FLOW_START)
        {
          open = TRUE;
          last = SPS_NO_INDEX;
          chain_key = b->flow_key[point];
          chain_name = b->flow_name[point];
          chain_category = b->flow_category[point];
        }

      slice = bound[point];
      if (slice == SPS_NO_INDEX)
        {
          sps_trace_builder_warn (b, "unbound_flow_point",
                                  /* Translators: a time in nanoseconds, then the id of a flow */
                                  N_("A flow point at %" PRId64 " ns (id %" PRIu64
                                     ") binds to no slice; it is dropped"),
                                  b->flow_ts[point], b->flow_key[point]);
        }
      else
        {
          if (last != SPS_NO_INDEX)
            {
              from[n_arrows] = last;
              to[n_arrows] = slice;
              key[n_arrows] = chain_key;
              name[n_arrows] = chain_name;
              category[n_arrows] = chain_category;
              n_arrows++;
            }
          last = slice;
        }

      /* A v2 consumer (flow_in) leaves its producer bound: every slice
       * that names the id is a consumer, until another flow_out. */
      if (phase == SPS_FLOW_END && b->flow_bind[point] != SPS_FLOW_BIND_SLICE)
        {
          open = FALSE;
          last = SPS_NO_INDEX;
        }
      else if (phase == SPS_FLOW_END && open)
        last = chain_producer;
      else
        chain_producer = last;
    }

  flows->n_rows = n_arrows;
  flows->from_slice = shrink_column (from, n_arrows, sizeof (guint32));
  flows->to_slice = shrink_column (to, n_arrows, sizeof (guint32));
  flows->key = shrink_column (key, n_arrows, sizeof (guint64));
  flows->name = shrink_column (name, n_arrows, sizeof (guint32));
  flows->category = shrink_column (category, n_arrows, sizeof (guint32));

  g_clear_pointer (&f->record_slice, g_free);
  g_clear_pointer (&f->async_record_slice, g_free);
}

/* Orders a table whose every row has a track (@row_track, freed here) by
 * (track, ts): fills @position, records the rows of the tracks of
 * @kinds, tells through @identity whether no row moves, and returns the
 * table's new track column. */
static guint32 *
place_on_tracks (Finish        *f,
                 guint32       *row_track,
                 const SpsTime *ts,
                 guint          n,
                 guint          kinds,
                 guint32       *position,
                 gboolean      *identity)
{
  g_autofree guint32 *start = g_new (guint32, f->n_tracks + 1);
  guint n_placed;

  n_placed = place_rows (row_track, ts, NULL, n, f->n_tracks, start, position);
  g_free (row_track);
  g_assert (n_placed == n);
  *identity = is_identity (position, n, n);
  set_track_rows (f, start, kinds);

  return track_column (start, f->n_tracks, n);
}

static void
build_instants (Finish *f)
{
  SpsTraceBuilder *b = f->builder;
  SpsInstantTable *instants = &f->trace->instants;
  guint n = b->n_instants;
  guint32 *track = g_new (guint32, MAX (n, 1));
  g_autofree guint32 *position = g_new (guint32, MAX (n, 1));
  gboolean identity;

  for (guint r = 0; r < n; r++)
    {
      guint32 owner = b->instant_owner[r];

      switch (b->instant_scope[r])
        {
        case SPS_INSTANT_SCOPE_THREAD:
          track[r] = f->thread_instants_track[owner];
          break;
        case SPS_INSTANT_SCOPE_PROCESS:
          track[r] = f->process_instants_track[owner];
          break;
        default:
          track[r] = f->global_instants_track;
          break;
        }
    }

  instants->track = place_on_tracks (f, track, b->instant_ts, n,
                                     (1u << SPS_TRACK_THREAD_INSTANTS) |
                                     (1u << SPS_TRACK_PROCESS_INSTANTS) |
                                     (1u << SPS_TRACK_GLOBAL_INSTANTS),
                                     position, &identity);
  instants->n_rows = n;
  instants->ts = SCATTER_COLUMN (b->instant_ts, position, n, n, identity);
  instants->name = SCATTER_COLUMN (b->instant_name, position, n, n, identity);
  instants->category = SCATTER_COLUMN (b->instant_category, position, n, n, identity);
  instants->kind = SCATTER_COLUMN (b->instant_kind, position, n, n, identity);
  instants->args = SCATTER_COLUMN (b->instant_args, position, n, n, identity);
}

static void
build_counters (Finish *f)
{
  SpsTraceBuilder *b = f->builder;
  SpsCounterTable *counters = &f->trace->counters;
  guint n = b->n_counter_values;
  guint32 *track = g_new (guint32, MAX (n, 1));
  g_autofree guint32 *position = g_new (guint32, MAX (n, 1));
  gboolean identity;

  for (guint r = 0; r < n; r++)
    track[r] = f->counter_track[b->value_counter[r]];

  counters->track = place_on_tracks (f, track, b->value_ts, n, 1u << SPS_TRACK_COUNTER,
                                     position, &identity);
  counters->n_rows = n;
  counters->ts = SCATTER_COLUMN (b->value_ts, position, n, n, identity);
  counters->value = SCATTER_COLUMN (b->value_value, position, n, n, identity);
}

/* Moves a builder's sample columns (those of its samples or of its raw
 * samples: the same columns) into @out, in the order @position gives. */
static void
scatter_samples (SpsTraceBuilder *b,
                 SpsSampleTable  *out,
                 SpsTime        **ts,
                 guint32        **thread,
                 guint32        **name,
                 guint32        **callsite,
                 guint32        **raw_stack_ref,
                 double         **weight,
                 guint8         **weight_unit,
                 guint8         **flags,
                 guint32        **line,
                 const guint32   *position,
                 guint            n,
                 gboolean         identity)
{
  guint32 *leaf_name;

  out->n_rows = n;
  out->ts = SCATTER_COLUMN (*ts, position, n, n, identity);
  out->thread = SCATTER_COLUMN (*thread, position, n, n, identity);
  out->event_name = SCATTER_COLUMN (*name, position, n, n, identity);
  out->callsite = SCATTER_COLUMN (*callsite, position, n, n, identity);
  out->raw_stack_ref = SCATTER_COLUMN (*raw_stack_ref, position, n, n, identity);
  out->weight = SCATTER_COLUMN (*weight, position, n, n, identity);
  out->weight_unit = SCATTER_COLUMN (*weight_unit, position, n, n, identity);
  out->flags = SCATTER_COLUMN (*flags, position, n, n, identity);
  out->line = SCATTER_COLUMN (*line, position, n, n, identity);

  /* A sample is named by its leaf frame for navigation; an unresolved
   * stack's single frame carries the event's name, so nothing is lost.
   * The frame columns are still the builder's here. */
  leaf_name = _sps_alloc_large (MAX (n, 1) * sizeof (guint32));
  for (guint r = 0; r < n; r++)
    {
      guint32 callsite_row = out->callsite[r];

      if (callsite_row < b->n_callsites && b->callsite_frame[callsite_row] < b->n_frames)
        leaf_name[r] = b->frame_name[b->callsite_frame[callsite_row]];
      else
        leaf_name[r] = out->event_name[r];
    }
  out->name = leaf_name;
}

static void
build_samples (Finish *f)
{
  SpsTraceBuilder *b = f->builder;
  SpsSampleTable *samples = &f->trace->samples;
  guint n = b->n_samples;
  guint32 *track = _sps_alloc_large (MAX (n, 1) * sizeof (guint32));
  g_autofree guint32 *position = _sps_alloc_large (MAX (n, 1) * sizeof (guint32));
  gboolean identity;

  for (guint r = 0; r < n; r++)
    track[r] = f->thread_samples_track[b->sample_thread[r]];

  samples->track = place_on_tracks (f, track, b->sample_ts, n, 1u << SPS_TRACK_THREAD_SAMPLES,
                                    position, &identity);
  scatter_samples (b, samples, &b->sample_ts, &b->sample_thread, &b->sample_name,
                   &b->sample_callsite, &b->sample_raw_stack_ref, &b->sample_weight,
                   &b->sample_weight_unit, &b->sample_flags, &b->sample_line, position, n,
                   identity);
}

/* Raw samples go on the same tracks as samples without changing the
 * tracks' row ranges, which describe the sample table. */
static void
build_raw_samples (Finish *f)
{
  SpsTraceBuilder *b = f->builder;
  SpsSampleTable *raw = &f->trace->raw_samples;
  guint n = b->n_raw_samples;
  g_autofree guint32 *track = g_new (guint32, MAX (n, 1));
  g_autofree guint32 *position = g_new (guint32, MAX (n, 1));
  g_autofree guint32 *start = g_new (guint32, f->n_tracks + 1);
  gboolean identity;
  guint n_placed;

  for (guint r = 0; r < n; r++)
    track[r] = f->thread_samples_track[b->raw_sample_thread[r]];

  n_placed = place_rows (track, b->raw_sample_ts, NULL, n, f->n_tracks, start, position);
  g_assert (n_placed == n);
  identity = is_identity (position, n, n);

  raw->track = track_column (start, f->n_tracks, n);
  scatter_samples (b, raw, &b->raw_sample_ts, &b->raw_sample_thread, &b->raw_sample_name,
                   &b->raw_sample_callsite, &b->raw_sample_raw_stack_ref, &b->raw_sample_weight,
                   &b->raw_sample_weight_unit, &b->raw_sample_flags, &b->raw_sample_line,
                   position, n, identity);
}

static void
build_objects_and_stacks (Finish *f)
{
  SpsTraceBuilder *b = f->builder;
  SpsTrace *trace = f->trace;
  guint n = b->n_objects;
  guint32 start[2];
  g_autofree guint32 *position = g_new (guint32, MAX (n, 1));
  gboolean identity;

  place_rows (NULL, b->object_ts, NULL, n, 1, start, position);
  identity = is_identity (position, n, n);

  trace->objects.n_rows = n;
  trace->objects.ts = SCATTER_COLUMN (b->object_ts, position, n, n, identity);
  trace->objects.phase = SCATTER_COLUMN (b->object_phase, position, n, n, identity);
  trace->objects.process = SCATTER_COLUMN (b->object_process, position, n, n, identity);
  trace->objects.key = SCATTER_COLUMN (b->object_key, position, n, n, identity);
  trace->objects.name = SCATTER_COLUMN (b->object_name, position, n, n, identity);
  trace->objects.args = SCATTER_COLUMN (b->object_args, position, n, n, identity);

  trace->frames.n_rows = b->n_frames;
  trace->frames.name = STEAL_COLUMN (b->frame_name, b->n_frames);
  trace->frames.category = STEAL_COLUMN (b->frame_category, b->n_frames);
  trace->frames.module = STEAL_COLUMN (b->frame_module, b->n_frames);
  trace->frames.address = STEAL_COLUMN (b->frame_address, b->n_frames);
  trace->frames.source_file = STEAL_COLUMN (b->frame_source_file, b->n_frames);
  trace->frames.source_line = STEAL_COLUMN (b->frame_source_line, b->n_frames);
  trace->frames.source_column = STEAL_COLUMN (b->frame_source_column, b->n_frames);

  trace->callsites.n_rows = b->n_callsites;
  trace->callsites.parent = STEAL_COLUMN (b->callsite_parent, b->n_callsites);
  trace->callsites.frame = STEAL_COLUMN (b->callsite_frame, b->n_callsites);
  trace->callsites.depth = STEAL_COLUMN (b->callsite_depth, b->n_callsites);
}

static void
move_tracks (Finish *f)
{
  SpsTrackTable *tracks = &f->trace->tracks;
  guint n = f->n_tracks;

  tracks->n_rows = n;
  tracks->kind = STEAL_COLUMN (f->track_kind, n);
  tracks->process = STEAL_COLUMN (f->track_process, n);
  tracks->thread = STEAL_COLUMN (f->track_thread, n);
  tracks->name = STEAL_COLUMN (f->track_name, n);
  tracks->series = STEAL_COLUMN (f->track_series, n);
  tracks->first_row = STEAL_COLUMN (f->track_first_row, n);
  tracks->n_rows_in_track = STEAL_COLUMN (f->track_n_rows, n);
  tracks->max_depth = STEAL_COLUMN (f->track_max_depth, n);
}

static int
compare_warning_names (gconstpointer a,
                       gconstpointer b,
                       gpointer      user_data)
{
  GPtrArray *names = user_data;
  guint ia = *(const guint *) a;
  guint ib = *(const guint *) b;

  return strcmp (g_ptr_array_index (names, ia), g_ptr_array_index (names, ib));
}

static void
move_metadata_and_warnings (Finish *f)
{
  SpsTraceBuilder *b = f->builder;
  SpsTrace *trace = f->trace;
  guint n = b->warning_names->len;
  g_autofree guint *sorted = g_new (guint, MAX (n, 1));

  trace->strings = sps_string_pool_ref (b->strings);
  trace->source = b->source != NULL ? g_bytes_ref (b->source) : NULL;
  trace->arena = g_byte_array_free_to_bytes (g_steal_pointer (&b->arena));
  trace->format = g_steal_pointer (&b->format);
  trace->display_time_unit = g_steal_pointer (&b->display_time_unit);
  trace->events_read = b->events_read;
  trace->metadata_events = b->metadata_events;

  trace->n_metadata = b->metadata_keys->len;
  trace->metadata_keys = (guint32 *) (gpointer) g_array_free (g_steal_pointer (&b->metadata_keys),
                                                              trace->n_metadata == 0);
  trace->metadata_values = (SpsArgsRef *) (gpointer) g_array_free (g_steal_pointer (&b->metadata_values),
                                                                   trace->n_metadata == 0);

  trace->n_info_sections = b->info_names->len;
  trace->info_names = (guint32 *) (gpointer) g_array_free (g_steal_pointer (&b->info_names),
                                                           trace->n_info_sections == 0);
  trace->info_values = (SpsArgsRef *) (gpointer) g_array_free (g_steal_pointer (&b->info_values),
                                                               trace->n_info_sections == 0);

  for (guint i = 0; i < n; i++)
    sorted[i] = i;
  g_qsort_with_data (sorted, n, sizeof (guint), compare_warning_names, b->warning_names);

  trace->n_warnings = n;
  trace->warning_names = g_new (char *, MAX (n, 1));
  trace->warning_counts = g_new (guint64, MAX (n, 1));
  trace->warning_messages = g_new (char *, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      guint k = sorted[i];

      trace->warning_names[i] = g_strdup (g_ptr_array_index (b->warning_names, k));
      trace->warning_counts[i] = g_array_index (b->warning_counts, guint64, k);
      trace->warning_messages[i] = g_strdup (g_ptr_array_index (b->warning_messages, k));
    }
}

static void
finish_clear (Finish *f)
{
  _sps_table_free (f, &async_slice_table);
  _sps_table_free (f, &track_table);
  g_clear_pointer (&f->unfinished, g_array_unref);
  g_clear_pointer (&f->async_slice_lane, g_free);
  g_clear_pointer (&f->async_record_slice, g_free);
  g_clear_pointer (&f->process_n_lanes, g_free);
  g_clear_pointer (&f->thread_slices_track, g_free);
  g_clear_pointer (&f->thread_sampled_track, g_free);
  g_clear_pointer (&f->thread_instants_track, g_free);
  g_clear_pointer (&f->thread_samples_track, g_free);
  g_clear_pointer (&f->process_instants_track, g_free);
  g_clear_pointer (&f->process_first_lane, g_free);
  g_clear_pointer (&f->counter_track, g_free);
  g_clear_pointer (&f->record_slice, g_free);
}

/* Passes in order, with the fraction of the work done after each. */
static const struct
{
  FinishPass  pass;
  double      done;
} finish_passes[] = {
  { pair_begin_end, 0.15 },
  { pair_async, 0.25 },
  { time_range, 0.30 },
  { close_unfinished, 0.32 },
  { pack_async_lanes, 0.35 },
  { move_processes_and_threads, 0.36 },
  { build_tracks, 0.40 },
  { build_slices, 0.70 },
  { build_instants, 0.75 },
  { build_counters, 0.80 },
  { build_samples, 0.85 },
  { build_raw_samples, 0.855 },
  { move_tracks, 0.86 },
  { build_block_index, 0.90 },
  { build_flows, 0.95 },
  { build_objects_and_stacks, 0.98 },
  { move_metadata_and_warnings, 1.0 },
};

/**
 * sps_trace_builder_finish:
 * @self: a #SpsTraceBuilder
 * @progress: (nullable): where to report progress and check for
 *   cancellation
 * @error: return location for a #GError
 *
 * Sorts, pairs and indexes what was added: B/E pairing per thread, async
 * trees on lanes, parent/depth/self time, the block index for range
 * queries, flow arrows. Can be called once; the builder's rows are freed
 * whether it succeeds or not, and the builder takes no more events.
 *
 * Returns: (transfer full) (nullable): the trace, or %NULL with
 *   %G_IO_ERROR_CANCELLED if @progress was cancelled
 */
SpsTrace *
sps_trace_builder_finish (SpsTraceBuilder  *self,
                          SpsProgress      *progress,
                          GError          **error)
{
  g_autoptr(SpsTrace) trace = NULL;
  Finish f = { 0, };

  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (self), NULL);
  g_return_val_if_fail (!self->finished, NULL);
  g_return_val_if_fail (progress == NULL || SPS_IS_PROGRESS (progress), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self->finished = TRUE;
  trace = g_object_new (SPS_TYPE_TRACE, NULL);

  f.builder = self;
  f.trace = trace;
  f.unfinished = g_array_new (FALSE, FALSE, sizeof (guint32));
  f.async_first = self->n_slice_records;

  if (progress != NULL)
    {
      sps_progress_set_phase (progress, SPS_PROGRESS_PHASE_INDEXING, _("Indexing"));
      sps_progress_set_fraction (progress, 0.0);
    }

  for (guint i = 0; i < G_N_ELEMENTS (finish_passes); i++)
    {
      if (progress != NULL && sps_progress_is_cancelled (progress))
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                               _("Indexing was cancelled"));
          finish_clear (&f);
          _sps_trace_builder_free_records (self);
          return NULL;
        }

      finish_passes[i].pass (&f);

      if (progress != NULL)
        sps_progress_set_fraction (progress, finish_passes[i].done);
    }

  finish_clear (&f);
  _sps_trace_builder_free_records (self);

  return g_steal_pointer (&trace);
}
