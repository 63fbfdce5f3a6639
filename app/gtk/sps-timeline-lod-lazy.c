/* sps-timeline-lod-lazy.c: levels not built yet, merged on the fly around
 * the range drawn
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Why: a level is built from the nearest finer level already built, and
 * when there is none, from every slice of the lane. Zooming into a large
 * trace asks for finer levels than the one built ahead, so the first
 * frame at each new level walked every slice of every lane in view
 * (seconds on the 10 GB trace) to draw the few in the window.
 *
 * Merging goes from left to right, and some positions always start an
 * item of a level, whatever came before (starts_item()). So a range's
 * items are those merged from the last such position before the range to
 * the first one after it: the same items as the built level's, found from
 * the slices of the range and a few around it. A lane merges a range so
 * when its slices are few (SPS_LOD_LAZY_SMALL_RANGE), or while what it merged on the
 * fly stays below what building the level costs (its slices); past that
 * the level is built, and from then on read.
 *
 * Counters' and point tracks' levels are buckets of 2^k ns, which start
 * at multiples of 2^k whatever came before, so their on-the-fly merging
 * (in sps-timeline-lod-counters.c and -points.c) needs no search for a
 * start; a counter track merges the values of the range, as a lane does
 * its slices, and a point track steps from the first point of a bucket
 * to that of the next by an exponential search, a few reads a bucket.
 */

#define G_LOG_DOMAIN "sps-timeline-lod"

#include "config.h"

#include "sps-timeline-lod-state-private.h"
#include "sps-time-math-private.h"

/* Whether position @p of the lane starts an item of the level at
 * @threshold: the first slice, a long slice (it stands alone), the slice
 * after a long one (which ended the run before it), and a short slice
 * that starts at least @threshold after every slice before it ends (a
 * run's end is the greatest end of its slices, so none reaches it). */
static gboolean
starts_item (const SliceLane *lane,
             const SpsTime   *ts,
             const SpsTime   *dur,
             guint            p,
             SpsTime          threshold)
{
  guint32 slice, before;

  if (p == 0 || p >= lane->n_slices)
    return TRUE;

  slice = lane->slices[p];
  before = lane->slices[p - 1];
  if (dur[slice] >= threshold || dur[before] >= threshold)
    return TRUE;

  return _sps_time_sub (ts[slice], lane_search_key (lane, ts, dur, p - 1)) >= threshold;
}

/**
 * _sps_timeline_lod_lazy_range:
 * @self: summaries
 * @lane: a lane whose level @k is not built
 * @k: the level
 * @start: the start of the range asked for
 * @end: its end (exclusive)
 * @from: (out): the position to merge from
 * @to: (out): the position to stop merging at
 *
 * Decides whether the items of level @k in [@start, @end) are merged on
 * the fly from the lane's slices, and from and to which positions: those
 * that start the first item reaching @start and the first item starting
 * at or after @end.
 *
 * Returns: %TRUE to merge [@from, @to) on the fly, %FALSE to build the
 *   level
 */
gboolean
_sps_timeline_lod_lazy_range (SpsTimelineLod *self,
                              SliceLane      *lane,
                              guint           k,
                              SpsTime         start,
                              SpsTime         end,
                              guint          *from,
                              guint          *to)
{
  const SpsTime *ts = self->slices->ts;
  const SpsTime *dur = self->slices->dur;
  SpsTime threshold = (SpsTime) 1 << k;
  guint p, q, walked;

  g_assert (lane->levels[k] == NULL);

  if (lane->n_slices < self->lazy_min_slices)
    return FALSE;

  /* A finer level built: the level is built from its items, few where
   * many slices merge (as in the level built ahead of the first frame) */
  for (guint j = k; j > 0; j--)
    if (lane->levels[j - 1] != NULL)
      return FALSE;

  p = lane_search (lane, ts, dur, start);
  for (walked = 0; !starts_item (lane, ts, dur, p, threshold); walked++, p--)
    if (walked == SPS_LOD_LAZY_MAX_WALK)
      return FALSE;

  q = MAX (lane_lower_bound (lane, ts, dur, end, TRUE), p);
  for (walked = 0; !starts_item (lane, ts, dur, q, threshold); walked++, q++)
    if (walked == SPS_LOD_LAZY_MAX_WALK)
      return FALSE;

  if (!_sps_timeline_lod_lazy_affordable (self, &lane->lazy_work, lane->n_slices, q - p))
    return FALSE;

  *from = p;
  *to = q;
  return TRUE;
}

/**
 * _sps_timeline_lod_lazy_affordable:
 * @self: summaries
 * @work: (inout): what a lane or track merged on the fly so far
 * @n: its number of slices or values (what building a level costs)
 * @span: how many a query would merge
 *
 * Whether to merge @span on the fly rather than build the level: always
 * for a small range, else while what was merged so far and @span stay
 * within @n. Counts @span into @work when so.
 *
 * Returns: %TRUE to merge on the fly
 */
gboolean
_sps_timeline_lod_lazy_affordable (SpsTimelineLod *self,
                                   guint64        *work,
                                   guint           n,
                                   guint           span)
{
  if (!sps_lod_lazy_affordable (work, n, span))
    return FALSE;

  self->n_lazy++;
  return TRUE;
}

/**
 * _sps_timeline_lod_merge_next:
 * @lane: a lane
 * @ts: the slices' start times
 * @dur: their durations
 * @name: their names
 * @threshold: the level's threshold, 2^k ns
 * @limit: the position to stop at
 * @pos: (inout): the position of the next item, one that starts an item
 * @out: (out): the item
 * @first: (out): its first position
 * @last: (out): the position after its last
 *
 * The next item of the level, merged from the slices as
 * build_slice_level() merges them (sps-timeline-lod.c).
 *
 * Returns: %FALSE at @limit
 */
gboolean
_sps_timeline_lod_merge_next (const SliceLane *lane,
                              const SpsTime   *ts,
                              const SpsTime   *dur,
                              const guint32   *name,
                              SpsTime          threshold,
                              guint            limit,
                              guint           *pos,
                              SpsLodRun       *out,
                              guint           *first,
                              guint           *last)
{
  guint p = *pos;
  guint32 slice;

  if (p >= limit)
    return FALSE;

  slice = lane->slices[p];
  out->start = ts[slice];
  out->end = ts[slice] + dur[slice];
  out->slice = slice;
  out->count = 1;
  out->name = name[slice];
  *first = p++;

  if (dur[slice] < threshold)
    for (; p < limit; p++)
      {
        guint32 next = lane->slices[p];

        if (dur[next] >= threshold || _sps_time_sub (ts[next], out->end) >= threshold)
          break;

        out->end = MAX (out->end, ts[next] + dur[next]);
        out->count++;
        if (dur[next] > dur[out->slice])
          {
            out->slice = next;
            out->name = name[next];
          }
      }

  *last = p;
  *pos = p;
  return TRUE;
}

/**
 * _sps_timeline_lod_set_lazy_min_slices:
 * @self: summaries
 * @n_slices: the least number of slices of a lane that merges levels not
 *   built yet on the fly (%SPS_LOD_LAZY_MIN_ITEMS by default; the
 *   tests make short lanes do it too)
 */
void
_sps_timeline_lod_set_lazy_min_slices (SpsTimelineLod *self,
                                       guint           n_slices)
{
  g_return_if_fail (self != NULL);

  self->lazy_min_slices = n_slices;
}

/**
 * _sps_timeline_lod_get_n_lazy:
 * @self: summaries
 *
 * Returns: how many ranges were merged on the fly so far
 */
guint
_sps_timeline_lod_get_n_lazy (SpsTimelineLod *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_lazy;
}
