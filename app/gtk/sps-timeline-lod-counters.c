/* sps-timeline-lod-counters.c: counter tracks as min/max buckets of 2^k ns
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * See sps-timeline-lod.c for why the timeline keeps summaries per level.
 */

#define G_LOG_DOMAIN "sps-timeline-lod"

#include "config.h"

#include <math.h>
#include <string.h>

#include "sps-timeline-lod-state-private.h"

void
_sps_timeline_lod_counter_track_clear (CounterTrack *ct)
{
  for (guint k = 0; k < SPS_LOD_N_LEVELS; k++)
    if ((ct->owned & (G_GUINT64_CONSTANT (1) << k)) != 0)
      {
        g_free (ct->levels[k]->buckets);
        g_free (ct->levels[k]);
      }
  ct->owned = 0;
}

static CounterTrack *
get_counter_track (SpsTimelineLod *self,
                   guint           track)
{
  g_assert (track < self->tracks->n_rows);

  if (self->tracks->kind[track] != SPS_TRACK_COUNTER)
    return NULL;

  return &self->counter_tracks[track];
}

static inline void
counter_level_get (const CounterLevel *level,
                   const SpsTime      *ts,
                   const double       *value,
                   guint               first,
                   guint               i,
                   SpsLodBucket       *bucket)
{
  if (level->buckets != NULL)
    {
      *bucket = level->buckets[i];
    }
  else
    {
      bucket->ts = ts[first + i];
      bucket->min = value[first + i];
      bucket->max = value[first + i];
      bucket->last = value[first + i];
      bucket->count = 1;
    }
}

/* Adds @b, a later bucket or value of the same bucket, to @bucket */
static inline void
bucket_add (SpsLodBucket       *bucket,
            const SpsLodBucket *b)
{
  /* NaN never wins a comparison, so it only shows if alone. */
  if (b->min < bucket->min || isnan (bucket->min))
    bucket->min = b->min;
  if (b->max > bucket->max || isnan (bucket->max))
    bucket->max = b->max;
  bucket->last = b->last;
  bucket->count += b->count;
}

/* Whether a counter track's level @k, not built yet, is better merged on
 * the fly from the values of [@start, @end) (see sps-timeline-lod-lazy.c):
 * the track is long, no finer level is built, and the range's values
 * are few or what was merged so far stays under the build's cost */
static gboolean
counter_lazy (SpsTimelineLod *self,
              CounterTrack   *ct,
              guint           first,
              guint           k,
              SpsTime         bucket_start,
              SpsTime         end,
              guint          *from)
{
  const SpsTime *ts = self->counters->ts;
  guint to;

  if (ct->levels[k] != NULL || ct->base.n < self->lazy_min_slices)
    return FALSE;
  for (guint j = k; j > 0; j--)
    if (ct->levels[j - 1] != NULL)
      return FALSE;

  *from = _sps_timeline_lod_lower_bound (ts, first, ct->base.n, bucket_start);
  to = _sps_timeline_lod_lower_bound (ts, *from, first + ct->base.n - *from, end);
  *from -= first;

  return _sps_timeline_lod_lazy_affordable (self, &ct->lazy_work, ct->base.n, to - first - *from);
}

const CounterLevel *
_sps_timeline_lod_ensure_counter_level (SpsTimelineLod *self,
                                        guint           track,
                                        guint           k)
{
  CounterTrack *ct = get_counter_track (self, track);
  const CounterLevel *source;
  const SpsTime *ts = self->counters->ts;
  const double *value = self->counters->value;
  guint first = self->tracks->first_row[track];
  g_autoptr(GArray) buckets = NULL;
  CounterLevel *level;
  SpsLodBucket pending = { 0, 0, 0, 0, 0 };
  SpsTime pending_id = 0;
  gboolean has_pending = FALSE;

  if (ct == NULL)
    return NULL;
  if (ct->levels[k] != NULL)
    return ct->levels[k];

  source = &ct->base;
  for (guint j = k; j > 0; j--)
    if (ct->levels[j - 1] != NULL)
      {
        source = ct->levels[j - 1];
        break;
      }

  buckets = g_array_new (FALSE, FALSE, sizeof (SpsLodBucket));

  for (guint i = 0; i < source->n; i++)
    {
      SpsLodBucket b;
      SpsTime id;

      counter_level_get (source, ts, value, first, i, &b);
      id = floor_shift (b.ts, k);

      if (has_pending && id == pending_id)
        bucket_add (&pending, &b);
      else
        {
          if (has_pending)
            g_array_append_val (buckets, pending);
          pending = b;
          pending_id = id;
          has_pending = TRUE;
        }
    }
  if (has_pending)
    g_array_append_val (buckets, pending);

  if (buckets->len == source->n)
    {
      ct->levels[k] = (CounterLevel *) source;
      return source;
    }

  level = g_new0 (CounterLevel, 1);
  level->n = buckets->len;
  level->buckets = (SpsLodBucket *) (gpointer) g_array_free (g_steal_pointer (&buckets), FALSE);
  ct->levels[k] = level;
  ct->owned |= G_GUINT64_CONSTANT (1) << k;
  lod_add_memory (self, sizeof (CounterLevel) + level->n * sizeof (SpsLodBucket));

  return level;
}

/**
 * _sps_timeline_lod_get_counter_range:
 * @self: summaries
 * @track: a counter track
 * @min: (out): the least value
 * @max: (out): the greatest value
 *
 * Returns: %FALSE when the track has no (non-NaN) value
 */
gboolean
_sps_timeline_lod_get_counter_range (SpsTimelineLod *self,
                                     guint           track,
                                     double         *min,
                                     double         *max)
{
  CounterTrack *ct;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (track < self->tracks->n_rows, FALSE);
  g_return_val_if_fail (min != NULL && max != NULL, FALSE);

  ct = get_counter_track (self, track);
  if (ct == NULL)
    return FALSE;

  if (!ct->range_known)
    {
      guint first = self->tracks->first_row[track];
      const double *value = self->counters->value;

      for (guint i = 0; i < ct->base.n; i++)
        {
          double v = value[first + i];

          if (isnan (v))
            continue;
          if (!ct->has_range)
            {
              ct->min = ct->max = v;
              ct->has_range = TRUE;
            }
          ct->min = MIN (ct->min, v);
          ct->max = MAX (ct->max, v);
        }
      ct->range_known = TRUE;
    }

  *min = ct->min;
  *max = ct->max;

  return ct->has_range;
}

/**
 * _sps_timeline_lod_lower_bound:
 * @ts: a time column
 * @first: first row of the range
 * @n: rows in the range, sorted by time
 * @time: a time
 *
 * Returns: the first row in [@first, @first + @n) at or after @time, or
 *   @first + @n
 */
guint
_sps_timeline_lod_lower_bound (const SpsTime *ts,
                               guint          first,
                               guint          n,
                               SpsTime        time)
{
  guint lo = first;
  guint hi = first + n;

  g_return_val_if_fail (ts != NULL || n == 0, first);

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (ts[mid] < time)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

/**
 * _sps_timeline_lod_gallop:
 * @ts: a time column
 * @from: first row to look at
 * @end: row after the last one, the rows from @from sorted by time
 * @time: a time
 *
 * The same as _sps_timeline_lod_lower_bound() over [@from, @end), by an
 * exponential search from @from: O(log d) for an answer d rows away,
 * which is what stepping from pixel to pixel through dense points needs.
 *
 * Returns: the first row in [@from, @end) at or after @time, or @end
 */
guint
_sps_timeline_lod_gallop (const SpsTime *ts,
                          guint          from,
                          guint          end,
                          SpsTime        time)
{
  guint step = 1;
  guint lo = from;
  guint hi;

  g_return_val_if_fail (ts != NULL || from >= end, from);

  if (from >= end || ts[from] >= time)
    return from;

  /* ts[lo] < time: double the step until it overshoots */
  hi = lo + 1;
  while (hi < end && ts[hi] < time)
    {
      lo = hi;
      step *= 2;
      hi = end - lo > step ? lo + step : end;
    }

  return _sps_timeline_lod_lower_bound (ts, lo + 1, MIN (hi, end) - (lo + 1), time);
}

/**
 * _sps_timeline_lod_get_counter_value:
 * @self: summaries
 * @track: a counter track
 * @time: a time
 * @value: (out): the value of the step function at @time
 *
 * Returns: %FALSE before the first value of the track
 */
gboolean
_sps_timeline_lod_get_counter_value (SpsTimelineLod *self,
                                     guint           track,
                                     SpsTime         time,
                                     double         *value)
{
  CounterTrack *ct;
  guint first;
  guint i;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (track < self->tracks->n_rows, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  ct = get_counter_track (self, track);
  if (ct == NULL || ct->base.n == 0)
    return FALSE;

  /* The last value at or before @time: one before the first after it. */
  first = self->tracks->first_row[track];
  i = _sps_timeline_lod_lower_bound (self->counters->ts, first, ct->base.n,
                                     time == SPS_TIME_MAX ? time : time + 1);
  if (i == first)
    return FALSE;

  *value = self->counters->value[i - 1];

  return TRUE;
}

/**
 * _sps_timeline_lod_get_n_buckets:
 * @self: summaries
 * @track: a counter track
 * @level: a level below %SPS_LOD_N_LEVELS
 *
 * Returns: the non-empty buckets of 2^@level ns of the track
 */
guint
_sps_timeline_lod_get_n_buckets (SpsTimelineLod *self,
                                 guint           track,
                                 guint           level)
{
  const CounterLevel *l;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (track < self->tracks->n_rows, 0);
  g_return_val_if_fail (level < SPS_LOD_N_LEVELS, 0);

  l = _sps_timeline_lod_ensure_counter_level (self, track, level);

  return l != NULL ? l->n : 0;
}

/**
 * _sps_timeline_lod_buckets_init:
 * @self: summaries
 * @iter: (out caller-allocates): an iterator
 * @track: a counter track
 * @level: a level below %SPS_LOD_N_LEVELS
 * @start: start of the window, ns
 * @end: end of the window, ns (exclusive)
 *
 * Prepares @iter to return, in time order, the buckets of 2^@level ns that
 * intersect [@start, @end). The bucket holding @start may begin with
 * values before @start; the value in force at @start comes from
 * _sps_timeline_lod_get_counter_value().
 */
void
_sps_timeline_lod_buckets_init (SpsTimelineLod *self,
                                SpsLodIter     *iter,
                                guint           track,
                                guint           level,
                                SpsTime         start,
                                SpsTime         end)
{
  CounterTrack *ct;
  const CounterLevel *l;
  SpsTime bucket_start;
  guint first;
  guint lo;
  guint hi;

  g_return_if_fail (self != NULL);
  g_return_if_fail (iter != NULL);

  memset (iter, 0, sizeof *iter);

  g_return_if_fail (track < self->tracks->n_rows);
  g_return_if_fail (level < SPS_LOD_N_LEVELS);

  ct = get_counter_track (self, track);
  if (ct == NULL || start >= end)
    return;

  first = self->tracks->first_row[track];
  bucket_start = floor_shift (start, level) * ((SpsTime) 1 << level);

  if (counter_lazy (self, ct, first, level, bucket_start, end, &lo))
    {
      iter->level = &ct->base;
      iter->ts = self->counters->ts + first;
      iter->value = self->counters->value + first;
      iter->pos = lo;
      iter->end_pos = ct->base.n;
      iter->start = start;
      iter->end = end;
      iter->merge = (SpsTime) 1 << level;
      iter->shift = level;
      return;
    }

  l = _sps_timeline_lod_ensure_counter_level (self, track, level);

  lo = 0;
  hi = l->n;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      SpsTime t = l->buckets != NULL ? l->buckets[mid].ts : self->counters->ts[first + mid];

      if (t < bucket_start)
        lo = mid + 1;
      else
        hi = mid;
    }

  iter->level = l;
  iter->ts = self->counters->ts + first;
  iter->value = self->counters->value + first;
  iter->pos = lo;
  iter->end_pos = l->n;
  iter->start = start;
  iter->end = end;
}

/**
 * _sps_timeline_lod_buckets_next:
 * @iter: an iterator set up by _sps_timeline_lod_buckets_init()
 * @bucket: (out): the next bucket
 *
 * Returns: %FALSE when there are no more buckets
 */
gboolean
_sps_timeline_lod_buckets_next (SpsLodIter   *iter,
                                SpsLodBucket *bucket)
{
  g_return_val_if_fail (iter != NULL, FALSE);
  g_return_val_if_fail (bucket != NULL, FALSE);

  if (iter->level == NULL || iter->pos >= iter->end_pos)
    return FALSE;

  counter_level_get (iter->level, iter->ts, iter->value, 0, iter->pos, bucket);
  if (bucket->ts >= iter->end)
    {
      iter->pos = iter->end_pos;
      return FALSE;
    }

  iter->pos++;

  /* A level not built yet: the values of the bucket, merged */
  if (iter->merge != 0)
    {
      SpsTime id = floor_shift (bucket->ts, iter->shift);

      for (; iter->pos < iter->end_pos && floor_shift (iter->ts[iter->pos], iter->shift) == id; iter->pos++)
        {
          SpsLodBucket b;

          counter_level_get (iter->level, iter->ts, iter->value, 0, iter->pos, &b);
          bucket_add (bucket, &b);
        }
    }

  return TRUE;
}

