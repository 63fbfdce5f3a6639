/* sps-timeline-lod-state-private.h: what the parts of SpsTimelineLod share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The summaries of slice lanes, counter tracks and point tracks, each
 * built level by level on first use (sps-timeline-lod.c,
 * sps-timeline-lod-counters.c, sps-timeline-lod-points.c).
 */

#pragma once

#include "sps-timeline-lod-private.h"

G_BEGIN_DECLS

typedef SpsLodRecord RunRecord;

typedef struct
{
  guint      n_items;       /* runs plus slices on their own */
  guint      n_runs;        /* n_items when materialised */
  RunRecord *runs;          /* in time order; all items when materialised */
} SliceLevel;

/* A lane's items of one level around the range last drawn, as records:
 * see _sps_timeline_lod_runs_window(). */
typedef struct
{
  RunRecord *records;
  guint      n;
  guint      size;          /* room in @records */
  gboolean   filled;
  guint      level;
  SpsTime    start;         /* the range they were taken for */
  SpsTime    end;
} LaneWindow;

typedef struct
{
  const guint32 *slices;    /* the lane's slices in time order */
  guint          n_slices;
  SpsTime       *max_end;   /* running maximum of the slices' ends; NULL
                             * when the ends never decrease (the usual
                             * case) */
  SliceLevel     base;      /* no runs */
  SliceLevel    *levels[SPS_LOD_N_LEVELS];
  guint64        owned;     /* bit k: levels[k] was allocated for k */
  LaneWindow     window;
  guint64        lazy_work; /* slices merged on the fly so far (see
                             * sps-timeline-lod-lazy.c) */
} SliceLane;

typedef struct
{
  guint      n_lanes;
  SliceLane *lanes;         /* NULL until the track is first queried */
  guint32   *slices;        /* the track's slices grouped by depth */
} SliceTrack;

typedef struct
{
  guint         n;
  SpsLodBucket *buckets;    /* NULL: one value per bucket, read raw */
} CounterLevel;

typedef struct
{
  gboolean      range_known;
  gboolean      has_range;
  double        min;
  double        max;
  CounterLevel  base;
  CounterLevel *levels[SPS_LOD_N_LEVELS];
  guint64       owned;
  guint64       lazy_work;  /* values merged on the fly so far */
} CounterTrack;

/* A level of a point track: the position in the track of the first
 * point of each non-empty bucket. */
typedef struct
{
  guint    n;
  guint32 *first;           /* NULL: every point in a bucket of its own */
} PointLevel;

typedef struct
{
  PointLevel  base;
  PointLevel *levels[SPS_LOD_N_LEVELS];
  guint64     owned;
} PointTrack;

struct _SpsTimelineLod
{
  SpsTrace             *trace;
  const SpsTrackTable  *tracks;
  const SpsSliceTable  *slices;
  const SpsCounterTable *counters;
  SliceTrack           *slice_tracks;
  CounterTrack         *counter_tracks;
  PointTrack           *point_tracks;
  gsize                 memory;
  guint                 lazy_min_slices; /* lanes this long and longer
                                          * merge unbuilt levels on the fly */
  guint                 n_lazy;          /* ranges merged on the fly */
};

static inline SpsTime
floor_shift (SpsTime value,
             guint   shift)
{
  /* Floor division by 2^shift without relying on the implementation's
   * shift of negative numbers. */
  if (value >= 0)
    return value >> shift;
  return -((-(value + 1)) >> shift) - 1;
}

static inline gboolean
is_slice_track (guint8 kind)
{
  return kind == SPS_TRACK_THREAD_SLICES ||
         kind == SPS_TRACK_THREAD_SAMPLED_SLICES ||
         kind == SPS_TRACK_ASYNC;
}

static inline gboolean
is_point_track (guint8 kind)
{
  return kind == SPS_TRACK_THREAD_INSTANTS ||
         kind == SPS_TRACK_PROCESS_INSTANTS ||
         kind == SPS_TRACK_GLOBAL_INSTANTS ||
         kind == SPS_TRACK_THREAD_SAMPLES;
}

static inline SpsTime
lane_search_key (const SliceLane *lane,
                 const SpsTime   *ts,
                 const SpsTime   *dur,
                 guint            i)
{
  guint32 slice;

  if (lane->max_end != NULL)
    return lane->max_end[i];

  slice = lane->slices[i];
  return ts[slice] + dur[slice];
}

/* The first position whose slice starts (@by_start) or ends (or whose
 * slices so far end) at or after @time */
static inline guint
lane_lower_bound (const SliceLane *lane,
                  const SpsTime   *ts,
                  const SpsTime   *dur,
                  SpsTime          time,
                  gboolean         by_start)
{
  guint lo = 0;
  guint hi = lane->n_slices;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      SpsTime key = by_start ? ts[lane->slices[mid]] : lane_search_key (lane, ts, dur, mid);

      if (key < time)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

/* The first position whose slice ends (or whose slices so far end) at or
 * after @time. */
static inline guint
lane_search (const SliceLane *lane,
             const SpsTime   *ts,
             const SpsTime   *dur,
             SpsTime          time)
{
  return lane_lower_bound (lane, ts, dur, time, FALSE);
}

/* Adds to the bytes built: atomically, since _sps_timeline_lod_prepare()
 * builds tracks in several threads at once */
static inline void
lod_add_memory (SpsTimelineLod *self,
                gsize           bytes)
{
  g_atomic_pointer_add (&self->memory, (gssize) bytes);
}

void              _sps_timeline_lod_counter_track_clear (CounterTrack     *ct);
void              _sps_timeline_lod_point_track_clear   (PointTrack       *pt);
/* sps-timeline-lod.c, for the lanes' windows (sps-timeline-lod-window.c) */
SliceTrack       *_sps_timeline_lod_ensure_slice_track  (SpsTimelineLod   *self,
                                                         guint             track);
const SliceLevel *_sps_timeline_lod_ensure_slice_level  (SpsTimelineLod   *self,
                                                         guint             track,
                                                         guint             depth,
                                                         guint             k,
                                                         const SliceLane **lane_out);
guint             _sps_timeline_lod_first_reaching      (const RunRecord  *records,
                                                         guint             n,
                                                         SpsTime           time);
/* sps-timeline-lod-lazy.c, for _sps_timeline_lod_runs_init(),
 * _sps_timeline_lod_buckets_init() and _sps_timeline_lod_points_init() */
gboolean          _sps_timeline_lod_lazy_affordable     (SpsTimelineLod   *self,
                                                         guint64          *work,
                                                         guint             n,
                                                         guint             span);
gboolean          _sps_timeline_lod_lazy_range          (SpsTimelineLod   *self,
                                                         SliceLane        *lane,
                                                         guint             k,
                                                         SpsTime           start,
                                                         SpsTime           end,
                                                         guint            *from,
                                                         guint            *to);
gboolean          _sps_timeline_lod_merge_next          (const SliceLane  *lane,
                                                         const SpsTime    *ts,
                                                         const SpsTime    *dur,
                                                         const guint32    *name,
                                                         SpsTime           threshold,
                                                         guint             limit,
                                                         guint            *pos,
                                                         SpsLodRun        *out,
                                                         guint            *first,
                                                         guint            *last);
/* sps-timeline-lod-counters.c and -points.c, for
 * _sps_timeline_lod_prepare() (sps-timeline-lod-prepare.c) */
const CounterLevel *_sps_timeline_lod_ensure_counter_level (SpsTimelineLod *self,
                                                          guint           track,
                                                          guint           k);
const PointLevel  *_sps_timeline_lod_ensure_point_level   (SpsTimelineLod *self,
                                                          guint           track,
                                                          guint           k);

G_END_DECLS
