/* sps-timeline-lod-points.c: point tracks (instants, samples) as the first point of each bucket of 2^k ns
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * See sps-timeline-lod.c for why the timeline keeps summaries per level.
 */

#define G_LOG_DOMAIN "sps-timeline-lod"

#include "config.h"

#include <string.h>

#include "sps-timeline-lod-state-private.h"

void
_sps_timeline_lod_point_track_clear (PointTrack *pt)
{
  for (guint k = 0; k < SPS_LOD_N_LEVELS; k++)
    if ((pt->owned & (G_GUINT64_CONSTANT (1) << k)) != 0)
      {
        g_free (pt->levels[k]->first);
        g_free (pt->levels[k]);
      }
  pt->owned = 0;
}

/* The time column of a point track's table, from its first row. */
static const SpsTime *
point_track_ts (SpsTimelineLod *self,
                guint           track)
{
  guint first = self->tracks->first_row[track];

  if (self->tracks->kind[track] == SPS_TRACK_THREAD_SAMPLES)
    return sps_trace_get_samples (self->trace)->ts + first;

  return sps_trace_get_instants (self->trace)->ts + first;
}

static inline guint
point_level_get (const PointLevel *level,
                 guint             i)
{
  return level->first != NULL ? level->first[i] : i;
}

/* Whether a point track's level @k, not built yet, is walked on the fly
 * instead (see sps-timeline-lod-lazy.c): the track is long and no finer
 * level is built. A walk costs a few reads a bucket, about what reading
 * the built level does, so it never needs building. */
static gboolean
point_lazy (SpsTimelineLod   *self,
            const PointTrack *pt,
            guint             k)
{
  if (pt->levels[k] != NULL || pt->base.n < self->lazy_min_slices)
    return FALSE;
  for (guint j = k; j > 0; j--)
    if (pt->levels[j - 1] != NULL)
      return FALSE;

  self->n_lazy++;
  return TRUE;
}

/* The first point of @n after @pos in a later bucket of 2^@k ns than
 * @pos's, or @n */
static guint
next_bucket (const SpsTime *ts,
             guint          pos,
             guint          n,
             guint          k)
{
  SpsTime id = floor_shift (ts[pos], k);

  /* The last bucket that a time can fall in: none after it */
  if (id >= floor_shift (SPS_TIME_MAX, k))
    return n;

  return _sps_timeline_lod_gallop (ts, pos + 1, n, (id + 1) * ((SpsTime) 1 << k));
}

const PointLevel *
_sps_timeline_lod_ensure_point_level (SpsTimelineLod *self,
                                      guint           track,
                                      guint           k)
{
  PointTrack *pt;
  const PointLevel *source;
  const SpsTime *ts;
  g_autoptr(GArray) first = NULL;
  PointLevel *level;
  SpsTime pending_id = 0;

  g_assert (track < self->tracks->n_rows);

  if (!is_point_track (self->tracks->kind[track]))
    return NULL;

  pt = &self->point_tracks[track];
  if (pt->levels[k] != NULL)
    return pt->levels[k];

  source = &pt->base;
  for (guint j = k; j > 0; j--)
    if (pt->levels[j - 1] != NULL)
      {
        source = pt->levels[j - 1];
        break;
      }

  /* The first point of a bucket of 2^k ns is the first point of the
   * first of its buckets of a finer level. */
  ts = point_track_ts (self, track);
  first = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint i = 0; i < source->n; i++)
    {
      guint32 pos = point_level_get (source, i);
      SpsTime id = floor_shift (ts[pos], k);

      if (first->len == 0 || id != pending_id)
        {
          g_array_append_val (first, pos);
          pending_id = id;
        }
    }

  if (first->len == source->n)
    {
      pt->levels[k] = (PointLevel *) source;
      return source;
    }

  level = g_new0 (PointLevel, 1);
  level->n = first->len;
  level->first = (guint32 *) (gpointer) g_array_free (g_steal_pointer (&first), FALSE);
  pt->levels[k] = level;
  pt->owned |= G_GUINT64_CONSTANT (1) << k;
  lod_add_memory (self, sizeof (PointLevel) + level->n * sizeof (guint32));

  return level;
}

/**
 * _sps_timeline_lod_get_n_points:
 * @self: summaries
 * @track: an instant or sample track
 * @level: a level below %SPS_LOD_N_LEVELS
 *
 * Returns: the non-empty buckets of 2^@level ns of the track
 */
guint
_sps_timeline_lod_get_n_points (SpsTimelineLod *self,
                                guint           track,
                                guint           level)
{
  const PointLevel *l;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (track < self->tracks->n_rows, 0);
  g_return_val_if_fail (level < SPS_LOD_N_LEVELS, 0);

  l = _sps_timeline_lod_ensure_point_level (self, track, level);

  return l != NULL ? l->n : 0;
}

/**
 * _sps_timeline_lod_points_init:
 * @self: summaries
 * @iter: (out caller-allocates): an iterator
 * @track: an instant or sample track
 * @level: a level below %SPS_LOD_N_LEVELS
 * @start: start of the window, ns
 * @end: end of the window, ns (exclusive)
 *
 * Prepares @iter to return, in time order, the first point of each
 * non-empty bucket of 2^@level ns that has a point in [@start, @end):
 * in the bucket holding @start, the first point at or after @start.
 */
void
_sps_timeline_lod_points_init (SpsTimelineLod *self,
                               SpsLodIter     *iter,
                               guint           track,
                               guint           level,
                               SpsTime         start,
                               SpsTime         end)
{
  const PointLevel *l;
  const SpsTime *ts;
  guint n;
  guint raw;
  guint lo;
  guint hi;

  g_return_if_fail (self != NULL);
  g_return_if_fail (iter != NULL);

  memset (iter, 0, sizeof *iter);

  g_return_if_fail (track < self->tracks->n_rows);
  g_return_if_fail (level < SPS_LOD_N_LEVELS);

  if (!is_point_track (self->tracks->kind[track]) || start >= end)
    return;

  ts = point_track_ts (self, track);
  n = self->tracks->n_rows_in_track[track];

  /* A level not built yet, for a long track: from the first point in
   * the window, the first point of each bucket after it, each found by
   * an exponential search (see sps-timeline-lod-lazy.c) */
  if (point_lazy (self, &self->point_tracks[track], level))
    {
      raw = _sps_timeline_lod_lower_bound (ts, 0, n, start);
      if (raw >= n)
        return;
      iter->level = &self->point_tracks[track].base;
      iter->ts = ts;
      iter->run = raw;
      iter->pos = next_bucket (ts, raw, n, level);
      iter->end_pos = n;
      iter->start = start;
      iter->end = end;
      iter->merge = (SpsTime) 1 << level;
      iter->shift = level;
      return;
    }

  l = _sps_timeline_lod_ensure_point_level (self, track, level);
  if (l == NULL)
    return;

  /* The first point in the window, and the first bucket after the one
   * that holds it: the walk returns that point for its bucket (the
   * bucket's own first point may be before the window), then the first
   * points of the buckets that follow. */
  raw = _sps_timeline_lod_lower_bound (ts, 0, n, start);
  if (raw >= n)
    return;

  lo = 0;
  hi = l->n;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (point_level_get (l, mid) <= raw)
        lo = mid + 1;
      else
        hi = mid;
    }

  iter->level = l;
  iter->ts = ts;
  iter->run = raw;
  iter->pos = lo;
  iter->end_pos = l->n;
  iter->start = start;
  iter->end = end;
}

/**
 * _sps_timeline_lod_points_next_n:
 * @iter: an iterator set up by _sps_timeline_lod_points_init()
 * @points: (out caller-allocates) (array length=n_points): where to store
 *   the positions of the points in their track (add the track's first row
 *   for rows of the instant or sample table)
 * @n_points: room in @points
 *
 * Returns: how many positions were stored; 0 at the end
 */
guint
_sps_timeline_lod_points_next_n (SpsLodIter *iter,
                                 guint32    *points,
                                 guint       n_points)
{
  const PointLevel *l;
  guint n = 0;

  g_return_val_if_fail (iter != NULL, 0);
  g_return_val_if_fail (points != NULL || n_points == 0, 0);

  if (iter->level == NULL)
    return 0;

  l = iter->level;

  while (n < n_points)
    {
      guint32 pos;

      if (iter->run != G_MAXUINT)
        {
          pos = iter->run;
          iter->run = G_MAXUINT;
        }
      else if (iter->pos < iter->end_pos && iter->merge != 0)
        {
          pos = iter->pos;
          iter->pos = next_bucket (iter->ts, pos, iter->end_pos, iter->shift);
        }
      else if (iter->pos < iter->end_pos)
        {
          pos = point_level_get (l, iter->pos++);
        }
      else
        {
          iter->level = NULL;
          break;
        }

      if (iter->ts[pos] >= iter->end)
        {
          iter->level = NULL;
          break;
        }

      points[n++] = pos;
    }

  return n;
}
