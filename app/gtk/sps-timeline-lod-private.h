/* sps-timeline-lod-private.h: level-of-detail summaries for the timeline
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

#include "sps-gtk-version-macros.h"

G_BEGIN_DECLS

/* Level k summarises a lane for drawing at about 2^k ns per pixel. */
#define SPS_LOD_N_LEVELS 63

typedef struct _SpsTimelineLod SpsTimelineLod;

/* One thing to draw in a lane: a slice of its own (count 1), or a run of
 * merged slices, each shorter than the level's resolution, in which no
 * gap is as long as the resolution. */
typedef struct
{
  SpsTime start;
  SpsTime end;
  guint32 slice;     /* the slice, or the longest slice of the run */
  guint32 count;     /* slices in the run; 1 for a slice of its own */
  guint32 name;      /* the name of @slice */
} SpsLodRun;

/* An item of a level as the level stores it: a merged run, or, in the
 * coarse levels that keep all their items (see
 * _sps_timeline_lod_runs_records()), a slice of its own too. */
typedef struct
{
  SpsTime start;
  SpsTime end;       /* the greatest end of its slices */
  guint32 first;     /* position of its first slice in the lane */
  guint32 last;      /* position after its last slice */
  guint32 slice;     /* the longest slice */
  guint32 name;      /* its name */
} SpsLodRecord;

/* Counter values summarised in buckets of 2^level ns, aligned to
 * multiples of 2^level: only non-empty buckets exist. (Instants and
 * samples are summarised the same way, by the first point of each
 * bucket: see _sps_timeline_lod_points_init().) */
typedef struct
{
  SpsTime ts;        /* time of the first value in the bucket */
  double  min;
  double  max;
  double  last;      /* the value the bucket ends with */
  guint32 count;     /* values in the bucket */
} SpsLodBucket;

typedef struct
{
  /*< private >*/
  gconstpointer  lane;
  gconstpointer  level;
  const SpsTime *ts;
  const SpsTime *dur;
  const guint32 *name;
  const double  *value;
  guint          pos;
  guint          run;
  guint          end_pos;   /* slices merged on the fly: where to stop */
  SpsTime        start;
  SpsTime        end;
  SpsTime        merge;     /* not 0: merging slices, values or points on
                             * the fly at this threshold, 2^shift (a level
                             * not built yet) */
  guint          shift;
} SpsLodIter;

/* Levels not built yet, merged on the fly around the range drawn (slice
 * lanes, counter and point tracks: sps-timeline-lod-lazy.c; stack chart
 * lanes: sps-timeline-stacks.c). Lanes and tracks of fewer items build
 * every level they draw (about 0.1 ms each); a range of at most
 * SPS_LOD_LAZY_SMALL_RANGE items is always merged on the fly (a few tens
 * of microseconds a frame), larger ones while what was merged so far
 * stays under what building the level costs; an item's start is looked
 * for at most SPS_LOD_LAZY_MAX_WALK items from the range, beyond which
 * the level is built. */
#define SPS_LOD_LAZY_MIN_ITEMS   16384
#define SPS_LOD_LAZY_SMALL_RANGE 4096
#define SPS_LOD_LAZY_MAX_WALK    1024

/* Whether to merge @span of @n items on the fly rather than build the
 * level, @work being what was merged so far; counts @span into it when
 * so */
static inline gboolean
sps_lod_lazy_affordable (guint64 *work,
                         guint    n,
                         guint    span)
{
  if (span > SPS_LOD_LAZY_SMALL_RANGE && *work + span > n)
    return FALSE;

  *work += span;
  return TRUE;
}

/* Exported (but not installed) for the tests and the frame benchmark. */
SPS_GTK_AVAILABLE_IN_ALL
SpsTimelineLod *_sps_timeline_lod_new                 (SpsTrace       *trace);
SPS_GTK_AVAILABLE_IN_ALL
void            _sps_timeline_lod_free                (SpsTimelineLod *self);
SPS_GTK_AVAILABLE_IN_ALL
guint           _sps_timeline_lod_level_for_resolution (double         ns_per_pixel);
SPS_GTK_AVAILABLE_IN_ALL
gsize           _sps_timeline_lod_get_memory_size     (SpsTimelineLod *self);
SPS_GTK_AVAILABLE_IN_ALL
gboolean        _sps_timeline_lod_prepare             (SpsTimelineLod *self,
                                                       guint           level,
                                                       guint           n_threads,
                                                       GCancellable   *cancellable);
SPS_GTK_AVAILABLE_IN_ALL
guint           _sps_timeline_lod_level_ahead         (SpsTime         span);

SPS_GTK_AVAILABLE_IN_ALL
void            _sps_timeline_lod_set_lazy_min_slices (SpsTimelineLod *self,
                                                       guint           n_slices);
SPS_GTK_AVAILABLE_IN_ALL
guint           _sps_timeline_lod_get_n_lazy          (SpsTimelineLod *self);
SPS_GTK_AVAILABLE_IN_ALL
guint           _sps_timeline_lod_get_n_runs          (SpsTimelineLod *self,
                                                       guint           track,
                                                       guint           depth,
                                                       guint           level);
SPS_GTK_AVAILABLE_IN_ALL
void            _sps_timeline_lod_runs_init           (SpsTimelineLod *self,
                                                       SpsLodIter     *iter,
                                                       guint           track,
                                                       guint           depth,
                                                       guint           level,
                                                       SpsTime         start,
                                                       SpsTime         end);
SPS_GTK_AVAILABLE_IN_ALL
gboolean        _sps_timeline_lod_runs_next           (SpsLodIter     *iter,
                                                       SpsLodRun      *run);
SPS_GTK_AVAILABLE_IN_ALL
guint           _sps_timeline_lod_runs_next_n         (SpsLodIter     *iter,
                                                       SpsLodRun      *runs,
                                                       guint           n_runs);
SPS_GTK_AVAILABLE_IN_ALL
const SpsLodRecord *_sps_timeline_lod_runs_records    (const SpsLodIter *iter,
                                                       guint            *n_records);
SPS_GTK_AVAILABLE_IN_ALL
const SpsLodRecord *_sps_timeline_lod_runs_window     (SpsTimelineLod *self,
                                                       guint           track,
                                                       guint           depth,
                                                       guint           level,
                                                       SpsTime         start,
                                                       SpsTime         end,
                                                       guint          *n_records);
SPS_GTK_AVAILABLE_IN_ALL
guint           _sps_timeline_lod_slice_at            (SpsTimelineLod *self,
                                                       guint           track,
                                                       guint           depth,
                                                       SpsTime         time,
                                                       SpsTime         tolerance);

SPS_GTK_AVAILABLE_IN_ALL
gboolean        _sps_timeline_lod_get_counter_range   (SpsTimelineLod *self,
                                                       guint           track,
                                                       double         *min,
                                                       double         *max);
SPS_GTK_AVAILABLE_IN_ALL
gboolean        _sps_timeline_lod_get_counter_value   (SpsTimelineLod *self,
                                                       guint           track,
                                                       SpsTime         time,
                                                       double         *value);
SPS_GTK_AVAILABLE_IN_ALL
guint           _sps_timeline_lod_get_n_buckets       (SpsTimelineLod *self,
                                                       guint           track,
                                                       guint           level);
SPS_GTK_AVAILABLE_IN_ALL
void            _sps_timeline_lod_buckets_init        (SpsTimelineLod *self,
                                                       SpsLodIter     *iter,
                                                       guint           track,
                                                       guint           level,
                                                       SpsTime         start,
                                                       SpsTime         end);
SPS_GTK_AVAILABLE_IN_ALL
gboolean        _sps_timeline_lod_buckets_next        (SpsLodIter     *iter,
                                                       SpsLodBucket   *bucket);

SPS_GTK_AVAILABLE_IN_ALL
guint           _sps_timeline_lod_get_n_points        (SpsTimelineLod *self,
                                                       guint           track,
                                                       guint           level);
SPS_GTK_AVAILABLE_IN_ALL
void            _sps_timeline_lod_points_init         (SpsTimelineLod *self,
                                                       SpsLodIter     *iter,
                                                       guint           track,
                                                       guint           level,
                                                       SpsTime         start,
                                                       SpsTime         end);
SPS_GTK_AVAILABLE_IN_ALL
guint           _sps_timeline_lod_points_next_n       (SpsLodIter     *iter,
                                                       guint32        *points,
                                                       guint           n_points);

SPS_GTK_AVAILABLE_IN_ALL
guint           _sps_timeline_lod_lower_bound         (const SpsTime  *ts,
                                                       guint           first,
                                                       guint           n,
                                                       SpsTime         time);
SPS_GTK_AVAILABLE_IN_ALL
guint           _sps_timeline_lod_gallop              (const SpsTime  *ts,
                                                       guint           from,
                                                       guint           end,
                                                       SpsTime         time);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpsTimelineLod, _sps_timeline_lod_free)

G_END_DECLS
