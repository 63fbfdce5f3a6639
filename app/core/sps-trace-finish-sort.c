/* sps-trace-finish-sort.c: finish()'s sorting primitives
 *
 * The stable sorts finish() builds its orders with: insertion sort for
 * short or nearly sorted runs, an in-place MSD radix sort of distinct
 * packed 8-byte keys, an LSD radix sort of 16-byte (key, row) items, and the tie-break that puts longer slices
 * first among equal times. They only see arrays of rows and times, never
 * the builder or the trace, so they live apart from the passes that use
 * them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-trace-finish"

#include "config.h"

#include <string.h>

#include "sps-trace-finish-private.h"

typedef struct
{
  guint64 key;
  guint32 row;
  guint32 unused;
} SortItem;

static inline guint64
time_key (SpsTime t)
{
  return (guint64) t ^ (G_GUINT64_CONSTANT (1) << 63);
}

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

static void
insertion_sort_u64 (guint64 *keys,
                    gsize    n)
{
  for (gsize i = 1; i < n; i++)
    {
      guint64 key = keys[i];
      gsize j = i;

      for (; j > 0 && keys[j - 1] > key; j--)
        keys[j] = keys[j - 1];
      keys[j] = key;
    }
}

/* Sorts @keys, all distinct and below 2^hi_bit, in place: an MSD radix
 * sort that swaps each key into its digit's bucket (following the swaps'
 * cycles) and recurses into the buckets. Distinct keys make stability
 * moot, so no scratch half is needed: a shuffled table of millions of
 * samples sorts in its keys' own 8 bytes per row, not 16. Wide digits at
 * the top for big inputs mean fewer levels (4 M keys: 2,048 buckets of
 * about 2,000, then one 8-bit level). */
static void
radix_sort_distinct_u64 (guint64 *keys,
                         gsize    n,
                         guint    hi_bit)
{
  guint32 small_head[256], small_tail[256];
  g_autofree guint32 *big = NULL;
  guint32 *head = small_head;
  guint32 *tail = small_tail;
  guint digit, shift;
  guint64 mask;
  guint32 sum = 0;

  if (n < 48 || hi_bit == 0)
    {
      insertion_sort_u64 (keys, n);
      return;
    }

  digit = MIN (hi_bit, n >= 65536 ? 11u : 8u);
  shift = hi_bit - digit;
  mask = (G_GUINT64_CONSTANT (1) << digit) - 1;
  if (digit > 8)
    {
      big = g_new (guint32, 2u << digit);
      head = big;
      tail = big + (1u << digit);
    }

  memset (tail, 0, sizeof (guint32) << digit);
  for (gsize i = 0; i < n; i++)
    tail[(keys[i] >> shift) & mask]++;
  for (guint64 d = 0; d <= mask; d++)
    {
      head[d] = sum;
      sum += tail[d];
      tail[d] = sum;
    }

  /* Each key taken out of a bucket's unsorted part is swapped into the
   * bucket its digit names until one that belongs here comes back */
  for (guint64 d = 0; d <= mask; d++)
    while (head[d] < tail[d])
      {
        guint64 key = keys[head[d]];
        guint64 kd;

        while ((kd = (key >> shift) & mask) != d)
          {
            guint64 other = keys[head[kd]];

            keys[head[kd]++] = key;
            key = other;
          }
        keys[head[d]++] = key;
      }

  /* head[d] is now where bucket d ends */
  if (shift > 0)
    for (guint64 d = 0, begin = 0; d <= mask; begin = head[d], d++)
      if (head[d] - begin > 1)
        radix_sort_distinct_u64 (keys + begin, head[d] - begin, shift);
}

/* The time of the i-th row being sorted: @times[i] when the caller
 * gathered them, else read through the row from the table's @ts column */
#define ROW_TIME(rows, times, ts, i) ((times) != NULL ? (times)[i] : (ts)[(rows)[i]])

/* Sorts @rows (and @times with them, when not NULL) by time, stably, in
 * place, while the moves stay within @budget; FALSE when they would not,
 * leaving the rows permuted with equal times still in their first order
 * (so a stable sort can take over from there). */
static gboolean
insertion_sort_bounded (guint32       *rows,
                        SpsTime       *times,
                        const SpsTime *ts,
                        gsize          n,
                        gsize          budget)
{
  for (gsize i = 1; i < n; i++)
    {
      SpsTime t = ROW_TIME (rows, times, ts, i);
      guint32 row = rows[i];
      gsize j = i;

      if (ROW_TIME (rows, times, ts, i - 1) <= t)
        continue;
      for (; j > 0 && ROW_TIME (rows, times, ts, j - 1) > t; j--)
        {
          if (budget-- == 0)
            {
              if (times != NULL)
                times[j] = t;
              rows[j] = row;
              return FALSE;
            }
          if (times != NULL)
            times[j] = times[j - 1];
          rows[j] = rows[j - 1];
        }
      if (times != NULL)
        times[j] = t;
      rows[j] = row;
    }
  return TRUE;
}

/* Sorts @rows stably by time: @times[i] is the time of rows[i] (both are
 * reordered), or, with @times NULL, @ts[rows[i]] is. When the time span
 * and the row count fit in 64 bits together, each row becomes one 8-byte
 * key (time offset above position), half the traffic of (key, row)
 * items, and sorted in place. The sorted keys still hold each time and
 * where its row was, so the rows are gathered into the keys' own memory
 * and the times read back from the keys: no copy of either array and no
 * scratch half (a shuffled table of millions of samples: 8 bytes per row
 * at finish()'s peak instead of 32). */
static void
sort_by_time (guint32       *rows,
              SpsTime       *times,
              const SpsTime *ts,
              gsize          n)
{
  SpsTime min = SPS_TIME_MAX;
  SpsTime max = SPS_TIME_MIN;
  guint range_bits;
  guint index_bits;

  /* Rows that are nearly in order (V8 profiles step back a little now and
   * then) are sorted where they are: copies of millions of rows cost more
   * in fresh pages than the few moves */
  if (insertion_sort_bounded (rows, times, ts, n, n < 48 ? G_MAXSIZE : 2 * n))
    return;

  for (gsize i = 0; i < n; i++)
    {
      SpsTime t = ROW_TIME (rows, times, ts, i);

      min = MIN (min, t);
      max = MAX (max, t);
    }

  range_bits = bit_width ((guint64) max - (guint64) min);
  index_bits = bit_width (n - 1);

  if (range_bits + index_bits <= 64)
    {
      guint64 *keys = _sps_alloc_large (n * sizeof (guint64));
      guint64 index_mask = (G_GUINT64_CONSTANT (1) << index_bits) - 1;

      for (gsize i = 0; i < n; i++)
        keys[i] = (((guint64) ROW_TIME (rows, times, ts, i) - (guint64) min) << index_bits) | i;

      /* A key holds its row's position, so no two are equal and the
       * in-place sort gives the stable order */
      radix_sort_distinct_u64 (keys, n, index_bits + range_bits);

      /* The gathered rows are packed into the keys' own first half: the
       * i-th row is written over bytes of key i / 2, already read */
      for (gsize i = 0; i < n; i++)
        {
          guint64 key = keys[i];
          guint32 row = rows[key & index_mask];

          if (times != NULL)
            times[i] = (SpsTime) ((guint64) min + (key >> index_bits));
          memcpy ((char *) keys + i * sizeof (guint32), &row, sizeof row);
        }
      memcpy (rows, keys, n * sizeof (guint32));

      g_free (keys);
    }
  else
    {
      SortItem *items = g_new (SortItem, 2 * n);
      guint32 *gathered = (guint32 *) (gpointer) (items + n);

      for (gsize i = 0; i < n; i++)
        {
          items[i].key = time_key (ROW_TIME (rows, times, ts, i));
          items[i].row = i;
          items[i].unused = 0;
        }
      sort_items (items, items + n, n);
      for (gsize i = 0; i < n; i++)
        gathered[i] = rows[items[i].row];
      memcpy (rows, gathered, n * sizeof (guint32));
      if (times != NULL)
        for (gsize i = 0; i < n; i++)
          times[i] = (SpsTime) (items[i].key ^ (G_GUINT64_CONSTANT (1) << 63));

      g_free (items);
    }
}

#undef ROW_TIME

/* Sorts @rows by (time, [dur descending]) stably; @times[i] is the time
 * of rows[i], gathered by the caller so that sorting and tie checks read
 * times sequentially. Both arrays are reordered. */
void
_sps_sort_rows_with_times (guint32       *rows,
                           SpsTime       *times,
                           gsize          n,
                           const SpsTime *dur)
{
  gboolean sorted = TRUE;

  for (gsize i = 1; i < n && sorted; i++)
    if (times[i] < times[i - 1])
      sorted = FALSE;

  if (!sorted)
    sort_by_time (rows, times, NULL, n);
  if (dur != NULL)
    sort_equal_times_by_duration (rows, times, n, dur);
}

/* Sorts @rows stably by @ts[rows[i]], for tables without durations: no
 * array of their times is gathered (8 bytes per row less at the peak,
 * for one random read more per row). */
void
_sps_sort_rows_by_time (guint32       *rows,
                        const SpsTime *ts,
                        gsize          n)
{
  for (gsize i = 1; i < n; i++)
    if (ts[rows[i]] < ts[rows[i - 1]])
      {
        sort_by_time (rows, NULL, ts, n);
        return;
      }
}

/* Orders rows by (key, ts), ties in row order. */
guint32 *
_sps_order_by_key_and_time (const guint64 *key,
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
