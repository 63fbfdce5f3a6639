/* sps-timeline-lod-prepare.c: one level of every track, built ahead in threads
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Why: built on demand, the first level a zoomed-out frame asks for is
 * made from every slice of every lane, on the main thread, in the first
 * frame (13 s for the 60e6-event trace). Built ahead, off the main
 * thread and in as many threads as there are cores, the first frame makes
 * its level from the few items of this one (merging is transitive, so the
 * items are the same: tests/test-timeline-lod.c compares them).
 */

#define G_LOG_DOMAIN "sps-timeline-lod"

#include "config.h"

#include "sps-timeline-lod-state-private.h"

/* Threads beyond this share the memory bus for little gain */
#define MAX_THREADS 8

typedef struct
{
  SpsTimelineLod *lod;
  guint           level;
  const guint    *order;    /* the tracks to build, largest first */
  guint           n_order;
  gint            next;     /* the next position in @order to take */
  GCancellable   *cancellable;
} Prepare;

/* What one track costs to build: its rows */
static guint
track_work (SpsTimelineLod *self,
            guint           track)
{
  guint8 kind = self->tracks->kind[track];

  if (is_slice_track (kind) || kind == SPS_TRACK_COUNTER || is_point_track (kind))
    return self->tracks->n_rows_in_track[track];

  return 0;
}

static void
prepare_track (SpsTimelineLod *self,
               guint           track,
               guint           level)
{
  guint8 kind = self->tracks->kind[track];

  if (is_slice_track (kind))
    {
      const SliceLane *lane;

      for (guint d = 0; d < self->slice_tracks[track].n_lanes; d++)
        _sps_timeline_lod_ensure_slice_level (self, track, d, level, &lane);
    }
  else if (kind == SPS_TRACK_COUNTER)
    {
      double min, max;

      _sps_timeline_lod_ensure_counter_level (self, track, level);
      /* The axis of the first frame reads the range */
      _sps_timeline_lod_get_counter_range (self, track, &min, &max);
    }
  else if (is_point_track (kind))
    {
      _sps_timeline_lod_ensure_point_level (self, track, level);
    }
}

/* Takes tracks until none is left: each track is built by one thread,
 * and a track's state is all that building it writes (the memory count
 * is atomic). */
static gpointer
prepare_worker (gpointer data)
{
  Prepare *p = data;
  gint i;

  while ((i = g_atomic_int_add (&p->next, 1)) < (gint) p->n_order &&
         !g_cancellable_is_cancelled (p->cancellable))
    prepare_track (p->lod, p->order[i], p->level);

  return NULL;
}

static int
compare_work (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  SpsTimelineLod *self = user_data;
  guint wa = track_work (self, *(const guint *) a);
  guint wb = track_work (self, *(const guint *) b);

  if (wa != wb)
    return wa > wb ? -1 : 1;
  /* Stable whatever the sort does */
  return *(const guint *) a < *(const guint *) b ? -1 : 1;
}

/**
 * _sps_timeline_lod_prepare:
 * @self: summaries nothing else uses meanwhile
 * @level: a level below %SPS_LOD_N_LEVELS
 * @n_threads: threads to build with (the caller's included), at least 1
 * @cancellable: (nullable): stops between tracks
 *
 * Builds @level of every slice lane, counter and point track, and the
 * counters' ranges, as the first query at @level would, in @n_threads
 * threads, largest tracks first. May be called from any thread, as long
 * as nothing else uses @self until it returns: the timeline hands its
 * summaries to the painters only after that.
 *
 * Returns: %FALSE when @cancellable was cancelled (what was built stays
 *   valid)
 */
gboolean
_sps_timeline_lod_prepare (SpsTimelineLod *self,
                           guint           level,
                           guint           n_threads,
                           GCancellable   *cancellable)
{
  g_autofree guint *order = NULL;
  g_autofree GThread **threads = NULL;
  guint n_tracks;
  guint n = 0;
  Prepare p;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (level < SPS_LOD_N_LEVELS, FALSE);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), FALSE);

  n_tracks = self->tracks->n_rows;
  order = g_new (guint, MAX (n_tracks, 1));
  for (guint t = 0; t < n_tracks; t++)
    if (track_work (self, t) > 0)
      order[n++] = t;
  g_qsort_with_data (order, n, sizeof (guint), compare_work, self);

  p.lod = self;
  p.level = level;
  p.order = order;
  p.n_order = n;
  p.next = 0;
  p.cancellable = cancellable;

  n_threads = CLAMP (n_threads, 1, MIN (MAX_THREADS, MAX (n, 1)));
  threads = g_new0 (GThread *, n_threads);
  for (guint i = 1; i < n_threads; i++)
    threads[i] = g_thread_new ("sps-timeline-lod", prepare_worker, &p);
  prepare_worker (&p);
  for (guint i = 1; i < n_threads; i++)
    g_thread_join (threads[i]);

  return !g_cancellable_is_cancelled (cancellable);
}

/**
 * _sps_timeline_lod_level_ahead:
 * @span: the time the trace spans, ns
 *
 * The level to build ahead for a trace that spans @span: fine enough
 * that a window of up to 4096 pixels showing it whole draws at it or at a
 * coarser level, which is then made from its items.
 *
 * Returns: a level below %SPS_LOD_N_LEVELS
 */
guint
_sps_timeline_lod_level_ahead (SpsTime span)
{
  return _sps_timeline_lod_level_for_resolution ((double) MAX (span, 0) / 4096.0);
}
