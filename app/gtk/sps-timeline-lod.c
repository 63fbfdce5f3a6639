/* sps-timeline-lod.c: level-of-detail summaries for the timeline
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-timeline-lod"

#include "config.h"

#include <math.h>
#include <string.h>

#include "sps-timeline-lod-state-private.h"
#include "sps-time-math-private.h"

/*
 * Why: a frame must cost time in proportion to the pixels on screen, not to
 * the events in the trace. A lane (one depth of one slice track) is kept,
 * for each level k, as a list of items in time order: slices of at least
 * 2^k ns stay on their own; consecutive shorter ones are merged into runs
 * as long as no gap between them reaches 2^k ns. Drawn at a level whose
 * 2^k ns are one to two pixels, every item on its own is at least a pixel
 * wide and runs are more than a pixel apart, so a window of P pixels holds
 * O(P) items whatever the number of slices. Counters get the same
 * treatment as min/max buckets of 2^k ns, and point tracks (instants and
 * stack samples) keep the first point of each non-empty bucket of 2^k ns,
 * so drawing a mark per pixel reads at most a few points per pixel.
 *
 * Levels are built lazily, on the first query at that level, from the
 * nearest finer level already built (merging is transitive, so the result
 * is the same as from the slices); a level with as many items as its source
 * is its source, so unchanged levels cost nothing. Where no finer level
 * is built, a long lane answers a query for a range from its slices there
 * instead, merged on the fly (sps-timeline-lod-lazy.c), until that has
 * cost as much as building the level. Everything here is used
 * by one thread at a time: the main thread, or before the timeline draws
 * with them, the threads of _sps_timeline_lod_prepare(), which build one
 * level of every track ahead (each track by one thread), so that a
 * zoomed-out first frame builds its level from those few items instead of
 * every slice.
 */

/* At most this many candidates are looked at by a hit test. */
#define MAX_HIT_CANDIDATES 64

/* A merged run of a level. A level is the lane's slices in time order
 * with some consecutive ranges of them replaced by runs: only the runs
 * are stored, so a level costs memory in proportion to what it merges,
 * and runs carry what drawing needs without reaching into the slice
 * table. A level with few items compared to its lane (the coarse levels
 * a zoomed-out view draws) stores its slices of their own as records of
 * one slice too: walking it then reads one array in order instead of
 * three columns of the slice table at scattered rows, which is what a
 * frame showing thousands of items would otherwise wait for. */
#define MATERIALIZE_RATIO 2

/* Walks the items of a level from a position of the lane. */
typedef struct
{
  const SliceLane  *lane;
  const SliceLevel *level;
  const SpsTime    *ts;
  const SpsTime    *dur;
  const guint32    *name;
  guint             pos;
  guint             run;
  SpsTime           merge;  /* not 0: @level is the lane's slices, merged
                             * on the fly at this threshold up to @limit */
  guint             limit;
} Walker;

static inline gboolean
walker_next (Walker    *w,
             SpsLodRun *out,
             guint     *first,
             guint     *last)
{
  if (G_UNLIKELY (w->merge != 0))
    return _sps_timeline_lod_merge_next (w->lane, w->ts, w->dur, w->name, w->merge, w->limit,
                                         &w->pos, out, first, last);

  if (w->pos >= w->lane->n_slices)
    return FALSE;

  if (w->run < w->level->n_runs && w->level->runs[w->run].first == w->pos)
    {
      const RunRecord *r = &w->level->runs[w->run++];

      out->start = r->start;
      out->end = r->end;
      out->slice = r->slice;
      out->count = r->last - r->first;
      out->name = r->name;
      *first = r->first;
      *last = r->last;
      w->pos = r->last;
    }
  else
    {
      guint32 slice = w->lane->slices[w->pos];

      out->start = w->ts[slice];
      out->end = w->ts[slice] + w->dur[slice];
      out->slice = slice;
      out->count = 1;
      out->name = w->name[slice];
      *first = w->pos;
      *last = w->pos + 1;
      w->pos++;
    }

  return TRUE;
}

static void
walker_init (SpsTimelineLod   *self,
             Walker           *w,
             const SliceLane  *lane,
             const SliceLevel *level,
             guint             pos)
{
  guint lo = 0;
  guint hi = level->n_runs;

  w->lane = lane;
  w->level = level;
  w->ts = self->slices->ts;
  w->dur = self->slices->dur;
  w->name = self->slices->name;
  w->merge = 0;
  w->limit = 0;

  /* The first run that ends after @pos; start at it if it holds @pos. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (level->runs[mid].last <= pos)
        lo = mid + 1;
      else
        hi = mid;
    }

  w->run = lo;
  w->pos = lo < level->n_runs && level->runs[lo].first <= pos ? level->runs[lo].first : pos;
}

static void
level_free (SliceLevel *level)
{
  g_free (level->runs);
  g_free (level);
}

/* The track's lanes, made on first use */
SliceTrack *
_sps_timeline_lod_ensure_slice_track (SpsTimelineLod *self,
                                      guint           track)
{
  SliceTrack *st = &self->slice_tracks[track];
  const SpsTime *ts = self->slices->ts;
  const SpsTime *dur = self->slices->dur;
  guint32 first;
  guint n;
  const guint16 *depth;
  g_autofree guint *offset = NULL;

  g_assert (track < self->tracks->n_rows);
  g_assert (is_slice_track (self->tracks->kind[track]));

  if (st->lanes != NULL || st->n_lanes == 0)
    return st;

  first = self->tracks->first_row[track];
  n = self->tracks->n_rows_in_track[track];
  depth = self->slices->depth;

  st->lanes = g_new0 (SliceLane, st->n_lanes);
  st->slices = g_new (guint32, MAX (n, 1));
  offset = g_new0 (guint, st->n_lanes + 1);

  for (guint i = 0; i < n; i++)
    offset[depth[first + i] + 1]++;
  for (guint d = 0; d < st->n_lanes; d++)
    offset[d + 1] += offset[d];

  for (guint d = 0; d < st->n_lanes; d++)
    {
      st->lanes[d].slices = st->slices + offset[d];
      st->lanes[d].n_slices = offset[d + 1] - offset[d];
      st->lanes[d].base.n_items = st->lanes[d].n_slices;
    }

  /* The track's rows are in time order, so each depth's are too. */
  for (guint i = 0; i < n; i++)
    st->slices[offset[depth[first + i]]++] = first + i;

  lod_add_memory (self, st->n_lanes * sizeof (SliceLane) + n * sizeof (guint32));

  /* Overlaps at one depth only happen in async lanes and beyond the
   * depth cap; there the running maximum keeps the search correct. */
  for (guint d = 0; d < st->n_lanes; d++)
    {
      SliceLane *lane = &st->lanes[d];
      SpsTime previous = SPS_TIME_MIN;
      gboolean monotonic = TRUE;

      for (guint i = 0; i < lane->n_slices && monotonic; i++)
        {
          SpsTime end = ts[lane->slices[i]] + dur[lane->slices[i]];

          monotonic = end >= previous;
          previous = end;
        }

      if (monotonic)
        continue;

      lane->max_end = g_new (SpsTime, lane->n_slices);
      previous = SPS_TIME_MIN;
      for (guint i = 0; i < lane->n_slices; i++)
        {
          previous = MAX (previous, ts[lane->slices[i]] + dur[lane->slices[i]]);
          lane->max_end[i] = previous;
        }
      lod_add_memory (self, lane->n_slices * sizeof (SpsTime));
    }

  return st;
}

/* Replaces the runs of @level by all its items, runs and slices alike. */
static void
materialize_level (SpsTimelineLod  *self,
                   const SliceLane *lane,
                   SliceLevel      *level)
{
  RunRecord *items = g_new (RunRecord, level->n_items);
  guint n = 0;
  Walker w;
  SpsLodRun item;
  guint first, last;

  walker_init (self, &w, lane, level, 0);
  while (walker_next (&w, &item, &first, &last))
    {
      g_assert (n < level->n_items);
      items[n].start = item.start;
      items[n].end = item.end;
      items[n].first = first;
      items[n].last = last;
      items[n].slice = item.slice;
      items[n].name = item.name;
      n++;
    }
  g_assert (n == level->n_items);

  g_free (level->runs);
  level->runs = items;
  level->n_runs = n;
}

/* Merges the items of @source for level @k: see the comment at the top. */
static SliceLevel *
build_slice_level (SpsTimelineLod   *self,
                   const SliceLane  *lane,
                   const SliceLevel *source,
                   guint             k)
{
  const SpsTime *dur = self->slices->dur;
  SpsTime threshold = (SpsTime) 1 << k;
  g_autoptr(GArray) runs = g_array_new (FALSE, FALSE, sizeof (RunRecord));
  RunRecord pending = { 0, };
  gboolean has_pending = FALSE;
  guint n_items = 0;
  SliceLevel *level;
  Walker w;
  SpsLodRun item;
  guint first, last;

#define FLUSH_PENDING()                                                   \
  G_STMT_START {                                                          \
    if (has_pending)                                                      \
      {                                                                   \
        if (pending.last - pending.first > 1)                             \
          g_array_append_val (runs, pending);                             \
        n_items++;                                                        \
        has_pending = FALSE;                                              \
      }                                                                   \
  } G_STMT_END

  walker_init (self, &w, lane, source, 0);
  while (walker_next (&w, &item, &first, &last))
    {
      if (item.count == 1 && item.end - item.start >= threshold)
        {
          FLUSH_PENDING ();
          n_items++;
          continue;
        }

      if (has_pending && _sps_time_sub (item.start, pending.end) < threshold)
        {
          pending.end = MAX (pending.end, item.end);
          pending.last = last;
          if (dur[item.slice] > dur[pending.slice])
            {
              pending.slice = item.slice;
              pending.name = item.name;
            }
        }
      else
        {
          FLUSH_PENDING ();
          pending.start = item.start;
          pending.end = item.end;
          pending.first = first;
          pending.last = last;
          pending.slice = item.slice;
          pending.name = item.name;
          has_pending = TRUE;
        }
    }

  FLUSH_PENDING ();

#undef FLUSH_PENDING

  if (n_items == source->n_items)
    return NULL;

  level = g_new0 (SliceLevel, 1);
  level->n_items = n_items;
  level->n_runs = runs->len;
  level->runs = (RunRecord *) (gpointer) g_array_free (g_steal_pointer (&runs), FALSE);

  if (n_items > level->n_runs && (gsize) n_items * MATERIALIZE_RATIO <= lane->n_slices)
    materialize_level (self, lane, level);

  lod_add_memory (self, sizeof (SliceLevel) + level->n_runs * sizeof (RunRecord));

  return level;
}

const SliceLevel *
_sps_timeline_lod_ensure_slice_level (SpsTimelineLod   *self,
                                      guint             track,
                                      guint             depth,
                                      guint             k,
                                      const SliceLane **lane_out)
{
  SliceTrack *st = _sps_timeline_lod_ensure_slice_track (self, track);
  SliceLane *lane;
  const SliceLevel *source;
  SliceLevel *level;

  if (depth >= st->n_lanes)
    return NULL;

  lane = &st->lanes[depth];
  *lane_out = lane;

  if (lane->levels[k] != NULL)
    return lane->levels[k];

  source = &lane->base;
  for (guint j = k; j > 0; j--)
    if (lane->levels[j - 1] != NULL)
      {
        source = lane->levels[j - 1];
        break;
      }

  level = build_slice_level (self, lane, source, k);
  if (level != NULL)
    {
      lane->levels[k] = level;
      lane->owned |= G_GUINT64_CONSTANT (1) << k;
    }
  else
    {
      /* Nothing merged: the same items as the source. */
      lane->levels[k] = (SliceLevel *) source;
    }

  return lane->levels[k];
}

static void
slice_track_clear (SliceTrack *st)
{
  if (st->lanes != NULL)
    {
      for (guint d = 0; d < st->n_lanes; d++)
        {
          SliceLane *lane = &st->lanes[d];

          for (guint k = 0; k < SPS_LOD_N_LEVELS; k++)
            if ((lane->owned & (G_GUINT64_CONSTANT (1) << k)) != 0)
              level_free (lane->levels[k]);
          g_clear_pointer (&lane->max_end, g_free);
          g_clear_pointer (&lane->window.records, g_free);
        }
      g_clear_pointer (&st->lanes, g_free);
    }
  g_clear_pointer (&st->slices, g_free);
}

/**
 * _sps_timeline_lod_new:
 * @trace: a finished trace
 *
 * Creates the (empty) summaries of @trace; they are built on first use.
 *
 * Returns: (transfer full): the summaries; free with _sps_timeline_lod_free()
 */
SpsTimelineLod *
_sps_timeline_lod_new (SpsTrace *trace)
{
  SpsTimelineLod *self;
  guint n_tracks;

  g_return_val_if_fail (SPS_IS_TRACE (trace), NULL);

  self = g_new0 (SpsTimelineLod, 1);
  self->trace = g_object_ref (trace);
  self->tracks = sps_trace_get_tracks (trace);
  self->slices = sps_trace_get_slices (trace);
  self->counters = sps_trace_get_counters (trace);

  n_tracks = self->tracks->n_rows;
  self->slice_tracks = g_new0 (SliceTrack, MAX (n_tracks, 1));
  self->counter_tracks = g_new0 (CounterTrack, MAX (n_tracks, 1));
  self->point_tracks = g_new0 (PointTrack, MAX (n_tracks, 1));
  self->lazy_min_slices = SPS_LOD_LAZY_MIN_ITEMS;

  for (guint t = 0; t < n_tracks; t++)
    {
      if (is_slice_track (self->tracks->kind[t]))
        self->slice_tracks[t].n_lanes = self->tracks->max_depth[t];
      else if (self->tracks->kind[t] == SPS_TRACK_COUNTER)
        self->counter_tracks[t].base.n = self->tracks->n_rows_in_track[t];
      else if (is_point_track (self->tracks->kind[t]))
        self->point_tracks[t].base.n = self->tracks->n_rows_in_track[t];
    }

  self->memory = sizeof *self + MAX (n_tracks, 1) * (sizeof (SliceTrack) + sizeof (CounterTrack) +
                                                     sizeof (PointTrack));

  return self;
}

/**
 * _sps_timeline_lod_free:
 * @self: summaries
 *
 * Frees @self and everything built in it.
 */
void
_sps_timeline_lod_free (SpsTimelineLod *self)
{
  if (self == NULL)
    return;

  for (guint t = 0; t < self->tracks->n_rows; t++)
    {
      slice_track_clear (&self->slice_tracks[t]);
      _sps_timeline_lod_counter_track_clear (&self->counter_tracks[t]);
      _sps_timeline_lod_point_track_clear (&self->point_tracks[t]);
    }

  g_free (self->slice_tracks);
  g_free (self->counter_tracks);
  g_free (self->point_tracks);
  g_clear_object (&self->trace);
  g_free (self);
}

/**
 * _sps_timeline_lod_level_for_resolution:
 * @ns_per_pixel: the scale of the view
 *
 * Returns: the level to draw with at @ns_per_pixel: floor (log2), clamped
 *   to the levels that exist
 */
guint
_sps_timeline_lod_level_for_resolution (double ns_per_pixel)
{
  int exponent;

  if (!(ns_per_pixel >= 2.0))
    return 0;

  frexp (ns_per_pixel, &exponent);

  return MIN ((guint) (exponent - 1), SPS_LOD_N_LEVELS - 1);
}

/**
 * _sps_timeline_lod_get_memory_size:
 * @self: summaries
 *
 * Returns: the bytes of what has been built so far
 */
gsize
_sps_timeline_lod_get_memory_size (SpsTimelineLod *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->memory;
}

/**
 * _sps_timeline_lod_get_n_runs:
 * @self: summaries
 * @track: a slice track
 * @depth: a depth of it
 * @level: a level below %SPS_LOD_N_LEVELS
 *
 * Returns: how many items (slices on their own and merged runs) the lane
 *   has at @level
 */
guint
_sps_timeline_lod_get_n_runs (SpsTimelineLod *self,
                              guint           track,
                              guint           depth,
                              guint           level)
{
  const SliceLevel *l;
  const SliceLane *lane;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (track < self->tracks->n_rows, 0);
  g_return_val_if_fail (level < SPS_LOD_N_LEVELS, 0);

  if (!is_slice_track (self->tracks->kind[track]))
    return 0;

  l = _sps_timeline_lod_ensure_slice_level (self, track, depth, level, &lane);

  return l != NULL ? l->n_items : 0;
}

/* The first of @n records in time order, whose ends never decrease,
 * that ends at or after @time */
guint
_sps_timeline_lod_first_reaching (const RunRecord *records,
                                  guint            n,
                                  SpsTime          time)
{
  guint lo = 0;
  guint hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (records[mid].end < time)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

/**
 * _sps_timeline_lod_runs_init:
 * @self: summaries
 * @iter: (out caller-allocates): an iterator
 * @track: a slice track
 * @depth: a depth of it
 * @level: a level below %SPS_LOD_N_LEVELS
 * @start: start of the window, ns
 * @end: end of the window, ns (exclusive)
 *
 * Prepares @iter to return, in time order, the items of the lane at
 * @level that intersect [@start, @end): those with start < @end and
 * end > @start, plus zero-length ones at a time in the window. Builds
 * the level first if needed, or merges its items there on the fly
 * (_sps_timeline_lod_lazy_range()).
 */
void
_sps_timeline_lod_runs_init (SpsTimelineLod *self,
                             SpsLodIter     *iter,
                             guint           track,
                             guint           depth,
                             guint           level,
                             SpsTime         start,
                             SpsTime         end)
{
  const SliceLevel *l = NULL;
  const SliceLane *lane = NULL;
  SliceTrack *st;
  guint from, to;
  Walker w;

  g_return_if_fail (self != NULL);
  g_return_if_fail (iter != NULL);

  memset (iter, 0, sizeof *iter);

  g_return_if_fail (track < self->tracks->n_rows);
  g_return_if_fail (level < SPS_LOD_N_LEVELS);

  if (!is_slice_track (self->tracks->kind[track]) || start >= end)
    return;

  st = _sps_timeline_lod_ensure_slice_track (self, track);
  if (depth >= st->n_lanes)
    return;

  /* A level not built yet, merged from the slices around the range */
  if (st->lanes[depth].levels[level] == NULL &&
      _sps_timeline_lod_lazy_range (self, &st->lanes[depth], level, start, end, &from, &to))
    {
      iter->lane = &st->lanes[depth];
      iter->level = &st->lanes[depth].base;
      iter->ts = self->slices->ts;
      iter->dur = self->slices->dur;
      iter->name = self->slices->name;
      iter->pos = from;
      iter->end_pos = to;
      iter->merge = (SpsTime) 1 << level;
      iter->start = start;
      iter->end = end;
      return;
    }

  l = _sps_timeline_lod_ensure_slice_level (self, track, depth, level, &lane);
  if (l == NULL)
    return;

  /* Items before the first slice that reaches @start end before it:
   * a run's end is the greatest of its slices'. A materialised level is
   * searched instead of the lane when the ends never decrease: the item
   * holding that slice is the first item to reach @start, and the few
   * items of a coarse level are in cache, unlike the slices of a long
   * lane. */
  if (l->n_runs == l->n_items && l->n_items > 0 && lane->max_end == NULL)
    {
      guint lo = _sps_timeline_lod_first_reaching (l->runs, l->n_runs, start);

      w.lane = lane;
      w.level = l;
      w.ts = self->slices->ts;
      w.dur = self->slices->dur;
      w.name = self->slices->name;
      w.run = lo;
      w.pos = lo < l->n_runs ? l->runs[lo].first : lane->n_slices;
    }
  else
    {
      walker_init (self, &w, lane, l,
                   lane_search (lane, self->slices->ts, self->slices->dur, start));
    }

  iter->lane = lane;
  iter->level = l;
  iter->ts = w.ts;
  iter->dur = w.dur;
  iter->name = w.name;
  iter->pos = w.pos;
  iter->run = w.run;
  iter->start = start;
  iter->end = end;
}

/**
 * _sps_timeline_lod_runs_next:
 * @iter: an iterator set up by _sps_timeline_lod_runs_init()
 * @run: (out): the next item
 *
 * Returns: %FALSE when there are no more items
 */
gboolean
_sps_timeline_lod_runs_next (SpsLodIter *iter,
                             SpsLodRun  *run)
{
  Walker w;
  guint first, last;

  g_return_val_if_fail (iter != NULL, FALSE);
  g_return_val_if_fail (run != NULL, FALSE);

  if (iter->level == NULL)
    return FALSE;

  w.lane = iter->lane;
  w.level = iter->level;
  w.ts = iter->ts;
  w.dur = iter->dur;
  w.name = iter->name;
  w.pos = iter->pos;
  w.run = iter->run;
  w.merge = iter->merge;
  w.limit = iter->end_pos;

  while (walker_next (&w, run, &first, &last))
    {
      if (run->start >= iter->end)
        break;

      if (run->end > iter->start || (run->end == run->start && run->start >= iter->start))
        {
          iter->pos = w.pos;
          iter->run = w.run;
          return TRUE;
        }
    }

  iter->level = NULL;

  return FALSE;
}

/**
 * _sps_timeline_lod_runs_next_n:
 * @iter: an iterator set up by _sps_timeline_lod_runs_init()
 * @runs: (out caller-allocates) (array length=n_runs): where to store items
 * @n_runs: room in @runs
 *
 * Like _sps_timeline_lod_runs_next() for up to @n_runs items at once,
 * which saves a call per item in drawing loops.
 *
 * Returns: how many items were stored; 0 at the end
 */
guint
_sps_timeline_lod_runs_next_n (SpsLodIter *iter,
                               SpsLodRun  *runs,
                               guint       n_runs)
{
  Walker w;
  guint first, last;
  guint n = 0;

  g_return_val_if_fail (iter != NULL, 0);
  g_return_val_if_fail (runs != NULL || n_runs == 0, 0);

  if (iter->level == NULL)
    return 0;

  w.lane = iter->lane;
  w.level = iter->level;
  w.ts = iter->ts;
  w.dur = iter->dur;
  w.name = iter->name;
  w.pos = iter->pos;
  w.run = iter->run;
  w.merge = iter->merge;
  w.limit = iter->end_pos;

  while (n < n_runs && walker_next (&w, &runs[n], &first, &last))
    {
      if (runs[n].start >= iter->end)
        {
          iter->level = NULL;
          return n;
        }

      if (runs[n].end > iter->start || (runs[n].end == runs[n].start && runs[n].start >= iter->start))
        n++;
    }

  iter->pos = w.pos;
  iter->run = w.run;
  if (n < n_runs)
    iter->level = NULL;

  return n;
}

/**
 * _sps_timeline_lod_runs_records:
 * @iter: an iterator set up by _sps_timeline_lod_runs_init()
 * @n_records: (out): how many records the result holds
 *
 * The items @iter has left, as one array, when its level keeps every
 * item as a record: the coarse levels a zoomed-out view draws, where a
 * window holds thousands of items and copying each through
 * _sps_timeline_lod_runs_next_n() costs more than drawing it.
 *
 * The array runs to the end of the lane: the caller stops at the first
 * record that starts at or after the iterator's end, and skips those that
 * end before its start (only lanes whose slices overlap, such as async
 * ones, have them), as _sps_timeline_lod_runs_next() would.
 *
 * Returns: (nullable) (array length=n_records): the records, or %NULL when
 *   the level is walked slice by slice (then use the iterator)
 */
const SpsLodRecord *
_sps_timeline_lod_runs_records (const SpsLodIter *iter,
                                guint            *n_records)
{
  const SliceLevel *l;

  g_return_val_if_fail (iter != NULL, NULL);
  g_return_val_if_fail (n_records != NULL, NULL);

  *n_records = 0;
  l = iter->level;
  if (l == NULL || l->n_runs != l->n_items || iter->run > l->n_runs)
    return NULL;

  *n_records = l->n_runs - iter->run;

  return l->runs + iter->run;
}

/**
 * _sps_timeline_lod_slice_at:
 * @self: summaries
 * @track: a slice track
 * @depth: a depth of it
 * @time: where the pointer is, ns
 * @tolerance: how far (ns) a slice may be and still count
 *
 * Hit test: the slice of the lane that contains @time, else the nearest
 * one within @tolerance.
 *
 * Returns: a slice index or %SPS_NO_INDEX
 */
guint
_sps_timeline_lod_slice_at (SpsTimelineLod *self,
                            guint           track,
                            guint           depth,
                            SpsTime         time,
                            SpsTime         tolerance)
{
  SliceTrack *st;
  const SliceLane *lane;
  const SpsTime *ts;
  const SpsTime *dur;
  guint best = SPS_NO_INDEX;
  SpsTime best_distance = SPS_TIME_MAX;

  g_return_val_if_fail (self != NULL, SPS_NO_INDEX);
  g_return_val_if_fail (track < self->tracks->n_rows, SPS_NO_INDEX);

  if (!is_slice_track (self->tracks->kind[track]))
    return SPS_NO_INDEX;

  st = _sps_timeline_lod_ensure_slice_track (self, track);
  if (depth >= st->n_lanes)
    return SPS_NO_INDEX;

  lane = &st->lanes[depth];
  ts = self->slices->ts;
  dur = self->slices->dur;
  tolerance = MAX (tolerance, 0);

  for (guint i = lane_search (lane, ts, dur, time - tolerance), seen = 0;
       i < lane->n_slices && seen < MAX_HIT_CANDIDATES;
       i++, seen++)
    {
      guint32 slice = lane->slices[i];
      SpsTime s = ts[slice];
      SpsTime e = s + dur[slice];
      SpsTime distance;

      if (s > time + tolerance)
        break;

      if (time >= s && (time < e || s == e))
        return slice;

      distance = time < s ? s - time : time - e;
      if (distance <= tolerance && distance < best_distance)
        {
          best = slice;
          best_distance = distance;
        }
    }

  return best;
}
