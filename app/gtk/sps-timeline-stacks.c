/* sps-timeline-stacks.c: the boxes of the stack charts of samples
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-timeline"

#include "config.h"

#include <math.h>

#include "sps-timeline-lod-private.h"
#include "sps-timeline-stacks-private.h"
#include "sps-time-math-private.h"

/*
 * A thread's stack chart draws its samples in time order, one lane per
 * depth: consecutive samples whose stacks share the same callsite at a
 * depth (the same prefix of frames from the root, since callsites are a
 * prefix tree) become one box there, as a browser's main-thread track
 * draws a profile. The boxes are computed once per sample table, in one
 * pass over the samples keeping the open box of each depth; memory is
 * one record per box. Boxes of one depth never overlap and are sorted by
 * start, so their ends are sorted too: finding the box at a time is a
 * binary search.
 */

/* Levels of detail are made as the slice lanes' are (sps-timeline-lod.c):
 * per power-of-two resolution, when a frame first needs it, and kept. A
 * zoomed-out frame then walks a lane's runs in the window, one per
 * change of colour, instead of searching its boxes column by column. */
#define N_LEVELS 63

typedef struct
{
  GArray *levels[N_LEVELS];  /* SpsTimelineStackRun; NULL until needed */
  GArray *window;            /* the runs around the range last drawn at a
                              * level not built, or NULL */
  guint   window_level;
  SpsTime window_start;
  SpsTime window_end;
  guint64 lazy_work;         /* boxes merged into windows so far */
} LaneLod;

typedef struct
{
  guint     n_depths;
  GArray  **lanes;     /* SpsTimelineStackBox, one array per depth */
  LaneLod **lods;      /* per depth, NULL until a frame needs one */
} TrackStacks;

struct _SpsTimelineStacks
{
  SpsTrace             *trace;
  const SpsSampleTable *samples;
  guint                 n_tracks;
  TrackStacks          *tracks;
  guint                 lazy_min_boxes;
};

/* The chain of @callsite from its root, at most SPS_TIMELINE_STACK_MAX_DEPTH
 * deep (the root-most frames are kept), into @chain; its length. */
static guint
callsite_chain (const SpsCallsiteTable *callsites,
                guint32                 callsite,
                guint32                *chain)
{
  guint n = 0;
  guint len;
  guint skip;

  for (guint32 c = callsite; c < callsites->n_rows; c = callsites->parent[c])
    n++;

  len = MIN (n, SPS_TIMELINE_STACK_MAX_DEPTH);
  skip = n - len;
  n = len;
  for (guint32 c = callsite; c < callsites->n_rows && n > 0; c = callsites->parent[c])
    {
      if (skip > 0)
        skip--;
      else
        chain[--n] = c;
    }

  return len;
}

static void
close_boxes (TrackStacks         *ts,
             SpsTimelineStackBox *open,
             guint                from,
             guint                to,
             SpsTime              end,
             guint32              next_sample)
{
  for (guint d = from; d < to; d++)
    {
      open[d].end = end;
      open[d].n_samples = next_sample - open[d].first_sample;
      g_array_append_val (ts->lanes[d], open[d]);
    }
}

static void
compute_track (SpsTimelineStacks *self,
               guint32            track,
               guint32           *chain,
               SpsTimelineStackBox *open)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (self->trace);
  const SpsCallsiteTable *callsites = sps_trace_get_callsites (self->trace);
  const SpsSampleTable *samples = self->samples;
  TrackStacks *ts = &self->tracks[track];
  guint32 first = tracks->first_row[track];
  guint32 n = tracks->n_rows_in_track[track];
  guint n_open = 0;
  SpsTime last_end;

  if (n == 0 || first > samples->n_rows || n > samples->n_rows - first)
    return;

  ts->lanes = g_new0 (GArray *, SPS_TIMELINE_STACK_MAX_DEPTH);

  for (guint32 i = first; i < first + n; i++)
    {
      guint len = samples->callsite[i] == SPS_NO_INDEX ? 0 : callsite_chain (callsites, samples->callsite[i], chain);
      guint keep = 0;

      while (keep < n_open && keep < len && open[keep].callsite == chain[keep])
        keep++;

      close_boxes (ts, open, keep, n_open, samples->ts[i], i);

      for (guint d = keep; d < len; d++)
        {
          if (ts->lanes[d] == NULL)
            ts->lanes[d] = g_array_new (FALSE, FALSE, sizeof (SpsTimelineStackBox));
          open[d].start = samples->ts[i];
          open[d].callsite = chain[d];
          open[d].first_sample = i;
        }
      n_open = len;
      ts->n_depths = MAX (ts->n_depths, len);
    }

  /* The last sample lasts as long as the gap before it (a lone sample,
   * a nanosecond), so that it shows as its neighbours do. */
  if (n >= 2)
    last_end = _sps_time_add_span (samples->ts[first + n - 1],
                                   _sps_time_span (samples->ts[first + n - 2], samples->ts[first + n - 1]));
  else
    last_end = _sps_time_add (samples->ts[first], 1);
  close_boxes (ts, open, 0, n_open, last_end, first + n);
}

/**
 * _sps_timeline_stacks_new:
 * @trace: a finished trace
 * @samples: its sample table, or its raw one (same rows and tracks)
 *
 * Computes the boxes of every sample track of @trace from @samples. A
 * box ends at the time of the first sample after it that does not share
 * its prefix; the boxes of a track's last sample end one sampling gap
 * after it (the gap between the track's last two samples; 1 ns when the
 * track has one sample).
 *
 * Returns: (transfer full): the stack charts
 */
SpsTimelineStacks *
_sps_timeline_stacks_new (SpsTrace             *trace,
                          const SpsSampleTable *samples)
{
  const SpsTrackTable *tracks;
  SpsTimelineStacks *self;
  g_autofree guint32 *chain = NULL;
  g_autofree SpsTimelineStackBox *open = NULL;

  g_return_val_if_fail (SPS_IS_TRACE (trace), NULL);
  g_return_val_if_fail (samples != NULL, NULL);

  tracks = sps_trace_get_tracks (trace);
  self = g_new0 (SpsTimelineStacks, 1);
  self->trace = g_object_ref (trace);
  self->samples = samples;
  self->n_tracks = tracks->n_rows;
  self->tracks = g_new0 (TrackStacks, MAX (tracks->n_rows, 1));
  self->lazy_min_boxes = SPS_LOD_LAZY_MIN_ITEMS;

  if (samples->n_rows == 0)
    return self;

  chain = g_new (guint32, SPS_TIMELINE_STACK_MAX_DEPTH);
  open = g_new0 (SpsTimelineStackBox, SPS_TIMELINE_STACK_MAX_DEPTH);

  for (guint32 t = 0; t < tracks->n_rows; t++)
    if (tracks->kind[t] == SPS_TRACK_THREAD_SAMPLES)
      compute_track (self, t, chain, open);

  return self;
}

/**
 * _sps_timeline_stacks_free:
 * @self: stack charts
 */
void
_sps_timeline_stacks_free (SpsTimelineStacks *self)
{
  if (self == NULL)
    return;

  for (guint t = 0; t < self->n_tracks; t++)
    {
      if (self->tracks[t].lanes == NULL)
        continue;
      for (guint d = 0; d < SPS_TIMELINE_STACK_MAX_DEPTH; d++)
        {
          if (self->tracks[t].lanes[d] != NULL)
            g_array_unref (self->tracks[t].lanes[d]);
          if (self->tracks[t].lods != NULL && self->tracks[t].lods[d] != NULL)
            {
              for (guint l = 0; l < N_LEVELS; l++)
                g_clear_pointer (&self->tracks[t].lods[d]->levels[l], g_array_unref);
              g_clear_pointer (&self->tracks[t].lods[d]->window, g_array_unref);
              g_free (self->tracks[t].lods[d]);
            }
        }
      g_free (self->tracks[t].lanes);
      g_free (self->tracks[t].lods);
    }
  g_free (self->tracks);
  g_clear_object (&self->trace);
  g_free (self);
}

/**
 * _sps_timeline_stacks_get_samples:
 * @self: stack charts
 *
 * Returns: the sample table the boxes were computed from
 */
const SpsSampleTable *
_sps_timeline_stacks_get_samples (SpsTimelineStacks *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->samples;
}

/**
 * _sps_timeline_stacks_get_n_depths:
 * @self: stack charts
 * @track: a track index
 *
 * Returns: the number of lanes of @track's chart (0 for a track without
 *   stacks)
 */
guint
_sps_timeline_stacks_get_n_depths (SpsTimelineStacks *self,
                                   guint32            track)
{
  g_return_val_if_fail (self != NULL, 0);

  return track < self->n_tracks ? self->tracks[track].n_depths : 0;
}

/**
 * _sps_timeline_stacks_get_boxes:
 * @self: stack charts
 * @track: a track index
 * @depth: a depth (0: the roots)
 * @n_boxes: (out): the number of boxes
 *
 * Returns: (nullable) (array length=n_boxes): the boxes of @depth, by
 *   start time
 */
const SpsTimelineStackBox *
_sps_timeline_stacks_get_boxes (SpsTimelineStacks *self,
                                guint32            track,
                                guint              depth,
                                guint             *n_boxes)
{
  GArray *lane;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (n_boxes != NULL, NULL);

  *n_boxes = 0;
  if (track >= self->n_tracks || depth >= self->tracks[track].n_depths)
    return NULL;

  lane = self->tracks[track].lanes[depth];
  if (lane == NULL)
    return NULL;

  *n_boxes = lane->len;
  return (const SpsTimelineStackBox *) (gpointer) lane->data;
}

/**
 * _sps_timeline_stacks_box_name:
 * @trace: the trace of the charts
 * @box: a box
 *
 * Returns: the string id of the name of @box's frame (0 when unknown)
 */
guint32
_sps_timeline_stacks_box_name (SpsTrace                  *trace,
                               const SpsTimelineStackBox *box)
{
  const SpsCallsiteTable *callsites = sps_trace_get_callsites (trace);
  const SpsFrameTable *frames = sps_trace_get_frames (trace);
  guint32 frame = box->callsite < callsites->n_rows ? callsites->frame[box->callsite] : SPS_NO_INDEX;

  return frame < frames->n_rows ? frames->name[frame] : 0;
}

/* Level @level of a lane of @n @boxes. Each bucket of 2^@level ns
 * (aligned to multiples of it) is drawn in the colour of the first box
 * starting in it, as a mosaic: the boxes narrower than the resolution
 * that start in one bucket merge into one run, and a run goes on into
 * the next bucket when that bucket's first box has the same name and
 * follows closer than the resolution. A box as wide as the resolution
 * stays a box of its own. So a lane costs one item per change of colour
 * at the scale drawn, not one per box or per pixel. */
static void
merge_runs (SpsTrace                  *trace,
            const SpsTimelineStackBox *boxes,
            guint                      from,
            guint                      to,
            guint                      level,
            GArray                    *out)
{
  guint64 resolution = (guint64) 1 << level;
  SpsTimelineStackRun cur = { 0, };
  SpsTime cur_bucket = 0;
  gboolean have = FALSE;
  gboolean cur_merges = FALSE;

  for (guint i = from; i < to; i++)
    {
      SpsTimelineStackRun item = { boxes[i].start, boxes[i].end, i, 1, _sps_timeline_stacks_box_name (trace, &boxes[i]) };
      SpsTime bucket = item.start >> level;
      gboolean merges = _sps_time_span (item.start, MAX (item.start, item.end)) < resolution;

      if (have && cur_merges && merges &&
          (bucket == cur_bucket ||
           (item.name == cur.name && _sps_time_span (cur.end, MAX (cur.end, item.start)) < resolution)))
        {
          cur.end = MAX (cur.end, item.end);
          cur.n_boxes++;
          cur_bucket = bucket;
          continue;
        }
      if (have)
        g_array_append_val (out, cur);
      cur = item;
      cur_bucket = bucket;
      cur_merges = merges;
      have = TRUE;
    }
  if (have)
    g_array_append_val (out, cur);
}

static GArray *
build_level (SpsTrace                  *trace,
             const SpsTimelineStackBox *boxes,
             guint                      n,
             guint                      level)
{
  GArray *out = g_array_sized_new (FALSE, FALSE, sizeof (SpsTimelineStackRun), MAX (n / 16, 1));

  merge_runs (trace, boxes, 0, n, level, out);
  return out;
}

/* Whether box @i of @n starts a run at @level whatever came before: the
 * first, one as wide as the resolution or after one (they stand alone),
 * or one in another bucket than the box before and a resolution or more
 * after its end (the boxes of a depth do not overlap, so that end is the
 * run's) */
static gboolean
starts_run (const SpsTimelineStackBox *boxes,
            guint                      n,
            guint                      i,
            guint                      level)
{
  guint64 resolution = (guint64) 1 << level;
  const SpsTimelineStackBox *a, *b;

  if (i == 0 || i >= n)
    return TRUE;
  a = &boxes[i - 1];
  b = &boxes[i];
  if (_sps_time_span (a->start, MAX (a->start, a->end)) >= resolution ||
      _sps_time_span (b->start, MAX (b->start, b->end)) >= resolution)
    return TRUE;
  return (a->start >> level) != (b->start >> level) &&
         _sps_time_span (a->end, MAX (a->end, b->start)) >= resolution;
}

/* The runs of @lod's lane around [@start, @end) at @level, not built,
 * merged into the lane's window; %NULL where building the level costs
 * less (see SPS_LOD_LAZY_MIN_ITEMS) */
static GArray *
lazy_window (SpsTimelineStacks         *self,
             LaneLod                   *lod,
             const SpsTimelineStackBox *boxes,
             guint                      n,
             guint                      level,
             SpsTime                    start,
             SpsTime                    end)
{
  SpsTime margin, lo_time, hi_time;
  guint lo = 0, hi = n, p, q, walked;

  if (n < self->lazy_min_boxes)
    return NULL;
  if (lod->window != NULL && lod->window_level == level && start >= lod->window_start && end <= lod->window_end)
    return lod->window;

  /* Half the range more each side: a pan or zoom by less reads no box */
  margin = (SpsTime) (_sps_time_span (start, MAX (start, end)) / 2);
  lo_time = _sps_time_sub (start, margin);
  hi_time = _sps_time_add (end, margin);

  /* The first box that ends after @lo_time (ends are sorted) */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (boxes[mid].end <= lo_time)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (p = lo, walked = 0; !starts_run (boxes, n, p, level); p--, walked++)
    if (walked == SPS_LOD_LAZY_MAX_WALK)
      return NULL;

  /* The first box that starts at or after @hi_time */
  for (lo = p, hi = n; lo < hi;)
    {
      guint mid = lo + (hi - lo) / 2;

      if (boxes[mid].start < hi_time)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (q = lo, walked = 0; !starts_run (boxes, n, q, level); q++, walked++)
    if (walked == SPS_LOD_LAZY_MAX_WALK)
      return NULL;

  if (!sps_lod_lazy_affordable (&lod->lazy_work, n, q - p))
    return NULL;

  if (lod->window == NULL)
    lod->window = g_array_new (FALSE, FALSE, sizeof (SpsTimelineStackRun));
  g_array_set_size (lod->window, 0);
  merge_runs (self->trace, boxes, p, q, level, lod->window);
  lod->window_level = level;
  lod->window_start = lo_time;
  lod->window_end = hi_time;
  return lod->window;
}

/**
 * _sps_timeline_stacks_get_runs:
 * @self: stack charts
 * @track: a track index
 * @depth: a depth
 * @level: a level of detail: resolution 2^@level ns
 * @start: the start of the range drawn
 * @end: its end
 * @n_runs: (out): the number of runs
 *
 * The lane's boxes at a resolution: boxes of their own and runs of
 * merged boxes, by start time (see #SpsTimelineStackRun and
 * build_level()). Made from the boxes the first time a level is asked
 * for, and kept until the charts are freed. At most one run per
 * 2^@level ns of the lane and its boxes as wide as that, fewer where
 * neighbouring buckets have one colour, so drawing costs what the
 * pixels show. A long lane may instead answer with the runs of a window
 * around [@start, @end) only, merged from its boxes there (see
 * SPS_LOD_LAZY_MIN_ITEMS): the same runs as the level's in that window, valid
 * until the next call.
 *
 * Returns: (nullable) (array length=n_runs): the runs, at least those
 *   that reach into [@start, @end)
 */
const SpsTimelineStackRun *
_sps_timeline_stacks_get_runs (SpsTimelineStacks *self,
                               guint32            track,
                               guint              depth,
                               guint              level,
                               SpsTime            start,
                               SpsTime            end,
                               guint             *n_runs)
{
  TrackStacks *ts;
  LaneLod *lod;
  GArray *window;
  const SpsTimelineStackBox *boxes;
  guint n_boxes;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (n_runs != NULL, NULL);

  *n_runs = 0;
  boxes = _sps_timeline_stacks_get_boxes (self, track, depth, &n_boxes);
  if (boxes == NULL || n_boxes == 0)
    return NULL;

  level = MIN (level, N_LEVELS - 1);
  ts = &self->tracks[track];
  if (ts->lods == NULL)
    ts->lods = g_new0 (LaneLod *, SPS_TIMELINE_STACK_MAX_DEPTH);
  if (ts->lods[depth] == NULL)
    ts->lods[depth] = g_new0 (LaneLod, 1);
  lod = ts->lods[depth];

  if (lod->levels[level] == NULL &&
      (window = lazy_window (self, lod, boxes, n_boxes, level, start, end)) != NULL)
    {
      *n_runs = window->len;
      return (const SpsTimelineStackRun *) (gpointer) window->data;
    }

  if (lod->levels[level] == NULL)
    lod->levels[level] = build_level (self->trace, boxes, n_boxes, level);

  *n_runs = lod->levels[level]->len;
  return (const SpsTimelineStackRun *) (gpointer) lod->levels[level]->data;
}

/**
 * _sps_timeline_stacks_find_box:
 * @self: stack charts
 * @track: a track index
 * @depth: a depth
 * @t: a time
 *
 * Returns: the index of the box of @depth covering @t, or %SPS_NO_INDEX
 */
guint
_sps_timeline_stacks_find_box (SpsTimelineStacks *self,
                               guint32            track,
                               guint              depth,
                               SpsTime            t)
{
  guint n;
  const SpsTimelineStackBox *boxes = _sps_timeline_stacks_get_boxes (self, track, depth, &n);
  guint lo = 0;
  guint hi = n;

  /* The first box ending after @t */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (boxes[mid].end <= t)
        lo = mid + 1;
      else
        hi = mid;
    }

  if (lo < n && boxes[lo].start <= t)
    return lo;

  return SPS_NO_INDEX;
}

/**
 * _sps_timeline_stacks_track_depth:
 * @trace: a finished trace
 * @track: a sample track
 *
 * The number of lanes @track's chart needs, for its samples as repaired
 * and as read (the raw table, when there is one), without computing the
 * boxes: the layout asks it for every track.
 *
 * Returns: the deepest stack of @track's samples, at most
 *   %SPS_TIMELINE_STACK_MAX_DEPTH
 */
guint
_sps_timeline_stacks_track_depth (SpsTrace *trace,
                                  guint32   track)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  const SpsCallsiteTable *callsites = sps_trace_get_callsites (trace);
  const SpsSampleTable *tables[2] = { sps_trace_get_samples (trace), sps_trace_get_raw_samples (trace) };
  guint deepest = 0;

  g_return_val_if_fail (track < tracks->n_rows, 0);

  for (guint k = 0; k < G_N_ELEMENTS (tables); k++)
    {
      guint32 first = tracks->first_row[track];
      guint32 n = tracks->n_rows_in_track[track];

      if (first > tables[k]->n_rows || n > tables[k]->n_rows - first)
        continue;

      for (guint32 i = first; i < first + n; i++)
        {
          guint32 c = tables[k]->callsite[i];

          /* Depths saturate far below the lane limit's reach; the
           * stored depth is the chain's length − 1. */
          if (c < callsites->n_rows)
            deepest = MAX (deepest, MIN ((guint) callsites->depth[c] + 1, SPS_TIMELINE_STACK_MAX_DEPTH));
        }
    }

  return deepest;
}

/**
 * _sps_timeline_stacks_estimate_cpu:
 * @samples: a sample table
 * @first: a row of it
 * @n: how many rows from @first
 * @cpu_ns: (out): the CPU time estimated from the weights of those with a
 *   time unit, in ns
 *
 * What a box's samples tell of the CPU time (the tooltip and the detail
 * panel both show it).
 *
 * Returns: how many of the samples had an estimate
 */
guint
_sps_timeline_stacks_estimate_cpu (const SpsSampleTable *samples,
                                   guint                 first,
                                   guint                 n,
                                   double               *cpu_ns)
{
  guint n_estimated = 0;

  g_return_val_if_fail (samples != NULL, 0);
  g_return_val_if_fail (cpu_ns != NULL, 0);
  g_return_val_if_fail (first <= samples->n_rows && n <= samples->n_rows - first, 0);

  *cpu_ns = 0;
  for (guint s = first; s < first + n; s++)
    {
      double estimate = sps_flame_tree_sample_estimate_ns (samples, s);

      if (!isnan (estimate))
        {
          *cpu_ns += estimate;
          n_estimated++;
        }
    }

  return n_estimated;
}

/**
 * _sps_timeline_stacks_box_selection:
 * @self: stack charts
 * @trace: the trace they were computed from
 * @track: a sample track
 * @depth: a depth of its chart
 * @box: a box of @depth
 * @selection: (out caller-allocates): the selection of that box
 *
 * Describes a box as a session selection (%SPS_SELECTION_STACK_BOX): its
 * track, depth, callsite, samples (of the raw table when the charts were
 * computed from it) and span.
 */
void
_sps_timeline_stacks_box_selection (SpsTimelineStacks *self,
                                    SpsTrace          *trace,
                                    guint32            track,
                                    guint              depth,
                                    guint              box,
                                    SpsSelection      *selection)
{
  const SpsTimelineStackBox *boxes;
  guint n;

  g_return_if_fail (self != NULL);
  g_return_if_fail (selection != NULL);

  sps_selection_init_none (selection);
  boxes = _sps_timeline_stacks_get_boxes (self, track, depth, &n);
  g_return_if_fail (box < n);

  selection->kind = SPS_SELECTION_STACK_BOX;
  selection->track = track;
  selection->depth = depth;
  selection->callsite = boxes[box].callsite;
  selection->first_sample = boxes[box].first_sample;
  selection->n_samples = boxes[box].n_samples;
  selection->raw = self->samples == sps_trace_get_raw_samples (trace) && self->samples != sps_trace_get_samples (trace);
  selection->start = boxes[box].start;
  selection->end = boxes[box].end;
}

/**
 * _sps_timeline_stacks_set_lazy_min_boxes:
 * @self: stack charts
 * @n_boxes: the least number of boxes of a lane that merges levels not
 *   built yet around the range drawn (%SPS_LOD_LAZY_MIN_ITEMS by default; the
 *   tests make short lanes do it too)
 */
void
_sps_timeline_stacks_set_lazy_min_boxes (SpsTimelineStacks *self,
                                         guint              n_boxes)
{
  g_return_if_fail (self != NULL);

  self->lazy_min_boxes = n_boxes;
}
