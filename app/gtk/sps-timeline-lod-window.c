/* sps-timeline-lod-window.c: each lane's copy of its items around the
 * window last drawn
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-timeline-lod"

#include "config.h"

#include "sps-timeline-lod-state-private.h"

/* @a − @b and @a + @b for @b >= 0, kept within the range of SpsTime */
static inline SpsTime
time_sub (SpsTime a,
          SpsTime b)
{
  return a >= SPS_TIME_MIN + b ? a - b : SPS_TIME_MIN;
}

static inline SpsTime
time_add (SpsTime a,
          SpsTime b)
{
  return a <= SPS_TIME_MAX - b ? a + b : SPS_TIME_MAX;
}

/* Copies the items of @level in [@start, @end) into the lane's window. */
static void
lane_window_fill (SpsTimelineLod *self,
                  SliceLane      *lane,
                  guint           track,
                  guint           depth,
                  guint           level,
                  SpsTime         start,
                  SpsTime         end)
{
  LaneWindow *w = &lane->window;
  SpsLodIter iter;
  SpsLodRun runs[128];
  guint n;

  self->memory -= (gsize) w->size * sizeof (RunRecord);
  w->n = 0;
  w->filled = TRUE;
  w->level = level;
  w->start = start;
  w->end = end;

  _sps_timeline_lod_runs_init (self, &iter, track, depth, level, start, end);
  while ((n = _sps_timeline_lod_runs_next_n (&iter, runs, G_N_ELEMENTS (runs))) > 0)
    {
      if (w->n + n > w->size)
        {
          w->size = MAX (w->n + n, 2 * w->size);
          w->records = g_renew (RunRecord, w->records, w->size);
        }

      for (guint i = 0; i < n; i++)
        {
          RunRecord *r = &w->records[w->n++];

          r->start = runs[i].start;
          r->end = runs[i].end;
          /* Only the count is read from a window's records */
          r->first = 0;
          r->last = runs[i].count;
          r->slice = runs[i].slice;
          r->name = runs[i].name;
        }
    }

  self->memory += (gsize) w->size * sizeof (RunRecord);
}

/**
 * _sps_timeline_lod_runs_window:
 * @self: summaries
 * @track: a slice track
 * @depth: a depth in it
 * @level: a level
 * @start: the start of the range drawn
 * @end: its end
 * @n_records: (out): how many records the result holds
 *
 * The items of a level that _sps_timeline_lod_runs_records() does not
 * keep as records, as records, for a range that the caller draws again
 * and again: the frames of a zoom. Walking such a level reads the slice
 * table at the lane's rows, which lie far apart when the lane is a small
 * part of the trace, so each item waits for memory; a frame that shows
 * a few thousand of them spends most of its time there.
 *
 * The lane keeps the items of twice the range asked for (half of it more
 * each side) and answers from them while the level stays the same and
 * the range inside them, so a window zoomed or moved by less than half
 * its width reads no slice. The memory this takes is bounded by the
 * items of those windows, whatever the size of the trace.
 *
 * As with _sps_timeline_lod_runs_records(), the records run to the end of
 * the kept items: the caller stops at the first that starts at or after
 * @end and skips those that end before @start. A record's @last − @first
 * is its number of slices; @first is not a position in the lane.
 *
 * Returns: (nullable) (array length=n_records): the records, or %NULL
 *   when the lane has nothing at @level around the range
 */
const SpsLodRecord *
_sps_timeline_lod_runs_window (SpsTimelineLod *self,
                               guint           track,
                               guint           depth,
                               guint           level,
                               SpsTime         start,
                               SpsTime         end,
                               guint          *n_records)
{
  SliceTrack *st;
  SliceLane *lane;
  LaneWindow *w;
  guint lo = 0;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (n_records != NULL, NULL);

  *n_records = 0;

  g_return_val_if_fail (track < self->tracks->n_rows, NULL);
  g_return_val_if_fail (level < SPS_LOD_N_LEVELS, NULL);

  if (!is_slice_track (self->tracks->kind[track]) || start >= end)
    return NULL;
  /* The level itself is built, or merged on the fly, when the window is
   * filled from it */
  st = _sps_timeline_lod_ensure_slice_track (self, track);
  if (depth >= st->n_lanes)
    return NULL;

  lane = &st->lanes[depth];
  w = &lane->window;

  if (!w->filled || w->level != level || start < w->start || end > w->end)
    {
      SpsTime margin = (SpsTime) (((guint64) end - (guint64) start) / 2);

      lane_window_fill (self, lane, track, depth, level, time_sub (start, margin), time_add (end, margin));
    }

  /* As _sps_timeline_lod_runs_init() does, where the ends never
   * decrease: from the first item that reaches @start */
  if (lane->max_end == NULL)
    lo = _sps_timeline_lod_first_reaching (w->records, w->n, start);

  if (w->records == NULL)
    return NULL;

  *n_records = w->n - lo;

  return w->records + lo;
}

