/* sps-timeline-layout.c: the rows of the timeline
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-timeline-layout"

#include "config.h"

#include <string.h>

#include "sps-timeline-layout-private.h"
#include "sps-timeline-stacks-private.h"

/*
 * The timeline shows one section per process, in the order of the
 * session's view filter (SpsViewFilter: processes by sort index then pid,
 * threads by sort index then tid). A section starts with a header row;
 * below it, group by group (the process's threads, then its own tracks),
 * each track's rows: one per depth of its slices, one for its sampled
 * spans, instants or samples, the samples followed by the lanes of their
 * stack chart (one per depth, see sps-timeline-stacks.c), two lane heights
 * for a counter. Global tracks come first, above every section. Processes
 * without any track are left out.
 *
 * Which rows show is the filter's: a track shows the lanes the filter
 * gives it (sps_view_filter_get_track_lanes_shown()), so a collapsed
 * thread keeps its representative lane (the first lane of its first
 * track) and a hidden one none. A collapsed process keeps its header and,
 * under it, its representative lane: the first lane of its first thread
 * that has one, drawn as that lane is drawn anywhere. Stack-chart lanes
 * are the timeline's own and show while their thread and process are
 * expanded. Each row that is a lane of the filter is found from that lane
 * (_sps_timeline_layout_find_lane_row()), which is how flows reach the
 * lane that stands for a hidden slice.
 *
 * Pinned threads come before everything, in the order pinned, flagged
 * SPS_TIMELINE_ROW_PINNED: the widget draws them in a band under the
 * ruler that does not scroll with the rest (the pinned height). A pinned
 * thread shows its lanes whatever its process's state — all of them, or
 * its first when the thread itself is collapsed, none when the thread
 * itself is hidden — and leaves its place in its process.
 *
 * Rebuilding the rows costs the number of tracks. No display is needed,
 * so tests use this directly.
 */

struct _SpsTimelineLayout
{
  SpsTrace            *trace;
  const SpsTrackTable *tracks;
  SpsViewFilter       *filter;

  int                  track_height;
  int                  header_height;

  guint                n_processes;
  guint8              *collapsed;        /* per process */
  guint8              *has_tracks;       /* per process: has a section */
  GArray              *pinned;           /* guint32 threads, in pin order */
  guint8              *thread_pinned;    /* per thread */

  GArray              *rows;             /* SpsTimelineRow */
  guint32             *track_row;        /* first row of each track */
  guint16             *stack_depths;     /* per track: lanes of its stack chart */
  guint32             *process_row;      /* header row of each process */
  guint32             *lane_row;         /* per lane of the filter */
  guint                n_lanes;
  int                  height;
  int                  pinned_height;     /* of the pinned rows, first */
  guint                n_pinned_rows;
};

static void
add_row (SpsTimelineLayout *self,
         guint8             kind,
         guint8             flags,
         guint16            depth,
         guint32            process,
         guint32            thread,
         guint32            track,
         int                height)
{
  SpsTimelineRow row;

  row.kind = kind;
  row.flags = flags;
  row.depth = depth;
  row.process = process;
  row.thread = thread;
  row.track = track;
  row.y = self->height;
  row.height = height;
  g_array_append_val (self->rows, row);

  self->height += height;
}

/* The row of a lane of the filter is the one added next */
static void
map_lane (SpsTimelineLayout *self,
          guint              lane)
{
  if (lane < self->n_lanes)
    self->lane_row[lane] = self->rows->len;
}

/* @lanes lanes of track @t (rows of a slice track's depths from 0), with
 * @extra flags; the lanes the filter shows are mapped to their rows */
static void
add_track_lanes (SpsTimelineLayout *self,
                 guint32            t,
                 guint              lanes,
                 gboolean           expanded,
                 guint8             extra)
{
  const SpsTrackTable *tracks = self->tracks;
  guint32 process = tracks->process[t];
  guint32 thread = tracks->thread[t];
  guint mapped = sps_view_filter_get_track_lanes_shown (self->filter, t);
  guint lane = sps_view_filter_get_track_lane (self->filter, t);

  if (lanes == 0)
    return;

  self->track_row[t] = self->rows->len;

  switch ((SpsTrackKind) tracks->kind[t])
    {
    case SPS_TRACK_THREAD_SLICES:
    case SPS_TRACK_THREAD_SAMPLED_SLICES:
    case SPS_TRACK_ASYNC:
      for (guint d = 0; d < lanes; d++)
        {
          if (d < mapped)
            map_lane (self, lane + d);
          add_row (self, SPS_TIMELINE_ROW_SLICES, (d == 0 ? SPS_TIMELINE_ROW_FIRST : 0) | extra,
                   d, process, thread, t, self->track_height);
        }
      break;

    case SPS_TRACK_COUNTER:
      if (mapped > 0)
        map_lane (self, lane);
      add_row (self, SPS_TIMELINE_ROW_COUNTER, SPS_TIMELINE_ROW_FIRST | extra, 0,
               process, thread, t, 2 * self->track_height);
      break;

    case SPS_TRACK_THREAD_INSTANTS:
    case SPS_TRACK_PROCESS_INSTANTS:
    case SPS_TRACK_GLOBAL_INSTANTS:
      if (mapped > 0)
        map_lane (self, lane);
      add_row (self, SPS_TIMELINE_ROW_INSTANTS, SPS_TIMELINE_ROW_FIRST | extra, 0,
               process, thread, t, self->track_height);
      break;

    case SPS_TRACK_THREAD_SAMPLES:
      if (mapped > 0)
        map_lane (self, lane);
      add_row (self, SPS_TIMELINE_ROW_SAMPLES, SPS_TIMELINE_ROW_FIRST | extra, 0,
               process, thread, t, self->track_height);
      for (guint d = 0; expanded && d < self->stack_depths[t]; d++)
        add_row (self, SPS_TIMELINE_ROW_STACK, extra, d, process, thread, t, self->track_height);
      break;

    default:
      self->track_row[t] = SPS_NO_INDEX;
      break;
    }
}

static void
add_group_rows (SpsTimelineLayout *self,
                guint              g,
                gboolean           expanded)
{
  const guint32 *tracks;
  guint n;

  tracks = sps_view_filter_get_group_tracks (self->filter, g, &n);
  for (guint i = 0; i < n; i++)
    add_track_lanes (self, tracks[i], sps_view_filter_get_track_lanes_shown (self->filter, tracks[i]),
                     expanded, 0);
}

/* The representative lane of a collapsed process, from group @g (the
 * first of the process with a lane shown): the first lane of its first
 * track that shows one. (When only the layout collapsed the process, the
 * filter shows the group whole: one lane is kept all the same.) */
static void
add_representative_row (SpsTimelineLayout *self,
                        guint              g)
{
  const guint32 *tracks;
  guint n;

  tracks = sps_view_filter_get_group_tracks (self->filter, g, &n);
  for (guint i = 0; i < n; i++)
    if (sps_view_filter_get_track_lanes_shown (self->filter, tracks[i]) > 0)
      {
        add_track_lanes (self, tracks[i], 1, FALSE, 0);
        return;
      }
}

static gboolean
is_collapsed (SpsTimelineLayout *self,
              guint              process)
{
  return self->collapsed[process] ||
         sps_view_filter_get_process_expansion (self->filter, process) == SPS_EXPANSION_COLLAPSED;
}

/* Pinned threads come first, each with its lanes whatever its process's
 * state (all of them; its first when the thread is collapsed; none when
 * it is hidden). In a hidden process the filter hides the thread's
 * slices, so its rows say to judge them by the slice rules alone. */
static void
add_pinned_rows (SpsTimelineLayout *self)
{
  for (guint i = 0; i < self->pinned->len; i++)
    {
      guint32 thread = g_array_index (self->pinned, guint32, i);
      guint g = sps_view_filter_get_thread_group (self->filter, thread);
      SpsExpansion expansion = sps_view_filter_get_thread_expansion (self->filter, thread);
      guint8 extra = SPS_TIMELINE_ROW_PINNED;
      const guint32 *tracks;
      guint budget;
      guint process;
      guint n;

      if (!sps_view_filter_get_group (self->filter, g, &process, NULL) || expansion == SPS_EXPANSION_HIDDEN)
        continue;
      if (process != SPS_NO_INDEX &&
          sps_view_filter_get_process_expansion (self->filter, process) == SPS_EXPANSION_HIDDEN)
        extra |= SPS_TIMELINE_ROW_OWN_RULES;

      budget = expansion == SPS_EXPANSION_COLLAPSED ? 1 : G_MAXUINT;
      tracks = sps_view_filter_get_group_tracks (self->filter, g, &n);
      for (guint k = 0; k < n && budget > 0; k++)
        {
          guint lanes = MIN (sps_view_filter_get_track_lanes (self->filter, tracks[k]), budget);

          add_track_lanes (self, tracks[k], lanes, expansion == SPS_EXPANSION_EXPANDED, extra);
          budget -= lanes;
        }
    }
}

static void
rebuild_rows (SpsTimelineLayout *self)
{
  guint n_groups = sps_view_filter_get_n_groups (self->filter);
  guint32 section = SPS_NO_INDEX;   /* the process whose groups come */
  gboolean represented = FALSE;      /* its representative lane is laid out */

  g_array_set_size (self->rows, 0);
  self->height = 0;

  for (guint t = 0; t < self->tracks->n_rows; t++)
    self->track_row[t] = SPS_NO_INDEX;
  for (guint p = 0; p < self->n_processes; p++)
    self->process_row[p] = SPS_NO_INDEX;
  g_free (self->lane_row);
  self->n_lanes = sps_view_filter_get_total_height (self->filter);
  self->lane_row = g_new (guint32, MAX (self->n_lanes, 1));
  for (guint l = 0; l < self->n_lanes; l++)
    self->lane_row[l] = SPS_NO_INDEX;

  add_pinned_rows (self);
  self->pinned_height = self->height;
  self->n_pinned_rows = self->rows->len;

  for (guint g = 0; g < n_groups; g++)
    {
      guint process;
      guint thread;
      gboolean expanded;

      /* Threads of a process that does not exist come last, never shown */
      if (!sps_view_filter_get_group (self->filter, g, &process, &thread))
        continue;

      if (process == SPS_NO_INDEX)
        {
          add_group_rows (self, g, TRUE);
          continue;
        }

      /* A hidden process loses its header too; its rows are not found. */
      if (!self->has_tracks[process] ||
          sps_view_filter_get_process_expansion (self->filter, process) == SPS_EXPANSION_HIDDEN)
        continue;

      if (process != section)
        {
          gboolean collapsed = is_collapsed (self, process);

          section = process;
          represented = FALSE;
          self->process_row[process] = self->rows->len;
          add_row (self, SPS_TIMELINE_ROW_PROCESS,
                   SPS_TIMELINE_ROW_FIRST | (collapsed ? SPS_TIMELINE_ROW_COLLAPSED : 0),
                   0, process, SPS_NO_INDEX, SPS_NO_INDEX, self->header_height);
        }

      if (is_collapsed (self, process))
        {
          /* Its first group with a lane stands for it; a pinned thread's
           * lane stands for it from the top. */
          if (!represented && sps_view_filter_get_group_height (self->filter, g) > 0)
            {
              represented = TRUE;
              if (thread == SPS_NO_INDEX || !self->thread_pinned[thread])
                add_representative_row (self, g);
            }
          continue;
        }

      /* A pinned thread's rows are at the top already */
      if (thread != SPS_NO_INDEX && self->thread_pinned[thread])
        continue;

      expanded = thread == SPS_NO_INDEX ||
                 sps_view_filter_get_thread_expansion (self->filter, thread) == SPS_EXPANSION_EXPANDED;
      add_group_rows (self, g, expanded);
    }
}

/**
 * _sps_timeline_layout_new:
 * @trace: a finished trace
 * @filter: (nullable): the view filter of the session showing @trace, or
 *   %NULL for a filter of the layout's own that shows everything
 *
 * Returns: (transfer full): the rows of @trace as @filter lays them out,
 *   20 px tracks and 24 px headers
 */
SpsTimelineLayout *
_sps_timeline_layout_new (SpsTrace      *trace,
                          SpsViewFilter *filter)
{
  SpsTimelineLayout *self;

  g_return_val_if_fail (SPS_IS_TRACE (trace), NULL);
  g_return_val_if_fail (filter == NULL || SPS_IS_VIEW_FILTER (filter), NULL);
  g_return_val_if_fail (filter == NULL || sps_view_filter_get_trace (filter) == trace, NULL);

  self = g_new0 (SpsTimelineLayout, 1);
  self->trace = g_object_ref (trace);
  self->tracks = sps_trace_get_tracks (trace);
  self->filter = filter != NULL ? g_object_ref (filter) : sps_view_filter_new (trace);
  self->n_processes = sps_trace_get_processes (trace)->n_rows;
  self->collapsed = g_new0 (guint8, MAX (self->n_processes, 1));
  self->has_tracks = g_new0 (guint8, MAX (self->n_processes, 1));
  self->pinned = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->thread_pinned = g_new0 (guint8, MAX (sps_trace_get_threads (trace)->n_rows, 1));
  self->track_row = g_new (guint32, MAX (self->tracks->n_rows, 1));
  self->process_row = g_new (guint32, MAX (self->n_processes, 1));
  self->rows = g_array_new (FALSE, FALSE, sizeof (SpsTimelineRow));
  self->track_height = 20;
  self->header_height = 24;
  self->stack_depths = g_new0 (guint16, MAX (self->tracks->n_rows, 1));
  for (guint t = 0; t < self->tracks->n_rows; t++)
    {
      guint32 process = self->tracks->process[t];

      if (self->tracks->kind[t] == SPS_TRACK_THREAD_SAMPLES)
        self->stack_depths[t] = _sps_timeline_stacks_track_depth (trace, t);
      if (process < self->n_processes)
        self->has_tracks[process] = TRUE;
    }

  rebuild_rows (self);

  return self;
}

/**
 * _sps_timeline_layout_free:
 * @self: a layout
 */
void
_sps_timeline_layout_free (SpsTimelineLayout *self)
{
  if (self == NULL)
    return;

  g_clear_object (&self->trace);
  g_clear_object (&self->filter);
  g_free (self->collapsed);
  g_free (self->has_tracks);
  g_array_unref (self->pinned);
  g_free (self->thread_pinned);
  g_free (self->track_row);
  g_free (self->stack_depths);
  g_free (self->process_row);
  g_free (self->lane_row);
  g_array_unref (self->rows);
  g_free (self);
}

/**
 * _sps_timeline_layout_set_heights:
 * @self: a layout
 * @track_height: height of a lane (counters get twice as much)
 * @header_height: height of a process header
 */
void
_sps_timeline_layout_set_heights (SpsTimelineLayout *self,
                                  int                track_height,
                                  int                header_height)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (track_height > 0);
  g_return_if_fail (header_height > 0);

  if (self->track_height == track_height && self->header_height == header_height)
    return;

  self->track_height = track_height;
  self->header_height = header_height;
  rebuild_rows (self);
}

/**
 * _sps_timeline_layout_set_process_collapsed:
 * @self: a layout
 * @process: a process index
 * @collapsed: whether only its header shows
 *
 * Returns: %TRUE when the rows changed
 */
gboolean
_sps_timeline_layout_set_process_collapsed (SpsTimelineLayout *self,
                                            guint              process,
                                            gboolean           collapsed)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (process < self->n_processes, FALSE);

  collapsed = !!collapsed;
  if (self->collapsed[process] == collapsed)
    return FALSE;

  self->collapsed[process] = collapsed;
  rebuild_rows (self);

  return TRUE;
}

/**
 * _sps_timeline_layout_sync_filters:
 * @self: a layout
 * @session: the session of the same trace
 *
 * Lays the rows out again as @session's view filter says: hidden threads
 * and processes lose their rows (processes their header too), collapsed
 * threads keep their representative lane; @session's pinned threads come
 * first, above the global tracks, in the order they were pinned. (Category filters hide slices,
 * not rows.) The layout follows @session's filter from now on.
 *
 * Returns: %TRUE when the rows changed
 */
gboolean
_sps_timeline_layout_sync_filters (SpsTimelineLayout *self,
                                   SpsSession        *session)
{
  g_autoptr(GArray) before = NULL;
  SpsViewFilter *filter;
  const guint32 *pinned;
  guint n_pinned;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (SPS_IS_SESSION (session), FALSE);
  g_return_val_if_fail (sps_session_get_trace (session) == self->trace, FALSE);

  filter = sps_session_get_view_filter (session);
  g_set_object (&self->filter, filter);

  pinned = sps_session_get_pinned_threads (session, &n_pinned);
  for (guint i = 0; i < self->pinned->len; i++)
    self->thread_pinned[g_array_index (self->pinned, guint32, i)] = FALSE;
  g_array_set_size (self->pinned, 0);
  g_array_append_vals (self->pinned, pinned, n_pinned);
  for (guint i = 0; i < n_pinned; i++)
    self->thread_pinned[pinned[i]] = TRUE;

  before = g_array_copy (self->rows);
  rebuild_rows (self);

  /* Empty arrays may have no data: memcmp() takes no NULL */
  return before->len != self->rows->len ||
         (before->len > 0 &&
          memcmp (before->data, self->rows->data, sizeof (SpsTimelineRow) * before->len) != 0);
}

/**
 * _sps_timeline_layout_get_process_collapsed:
 * @self: a layout
 * @process: a process index
 *
 * Returns: whether @process is collapsed
 */
gboolean
_sps_timeline_layout_get_process_collapsed (SpsTimelineLayout *self,
                                            guint              process)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (process < self->n_processes, FALSE);

  return self->collapsed[process];
}

/**
 * _sps_timeline_layout_get_n_rows:
 * @self: a layout
 *
 * Returns: the number of rows
 */
guint
_sps_timeline_layout_get_n_rows (SpsTimelineLayout *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->rows->len;
}

/**
 * _sps_timeline_layout_get_row:
 * @self: a layout
 * @row: a row index
 *
 * Returns: (transfer none): the row; valid until the layout changes
 */
const SpsTimelineRow *
_sps_timeline_layout_get_row (SpsTimelineLayout *self,
                              guint              row)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (row < self->rows->len, NULL);

  return &g_array_index (self->rows, SpsTimelineRow, row);
}

/**
 * _sps_timeline_layout_get_height:
 * @self: a layout
 *
 * Returns: the height of all rows
 */
int
_sps_timeline_layout_get_height (SpsTimelineLayout *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->height;
}

/**
 * _sps_timeline_layout_row_at_y:
 * @self: a layout
 * @y: a content coordinate
 *
 * Returns: the row covering @y, or %SPS_NO_INDEX outside every row
 */
guint
_sps_timeline_layout_row_at_y (SpsTimelineLayout *self,
                               int                y)
{
  const SpsTimelineRow *rows;
  guint lo = 0;
  guint hi;

  g_return_val_if_fail (self != NULL, SPS_NO_INDEX);

  if (y < 0 || y >= self->height)
    return SPS_NO_INDEX;

  rows = (const SpsTimelineRow *) (gpointer) self->rows->data;
  hi = self->rows->len;

  /* The last row that starts at or above y. */
  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;

      if (rows[mid].y <= y)
        lo = mid;
      else
        hi = mid;
    }

  return lo;
}

/**
 * _sps_timeline_layout_find_track_row:
 * @self: a layout
 * @track: a track index
 * @depth: a depth (0 for tracks without depths)
 *
 * Returns: the row drawing @depth of @track, or %SPS_NO_INDEX when it is
 *   hidden (collapsed process) or does not exist
 */
guint
_sps_timeline_layout_find_track_row (SpsTimelineLayout *self,
                                     guint              track,
                                     guint              depth)
{
  guint32 first;
  const SpsTimelineRow *row;

  g_return_val_if_fail (self != NULL, SPS_NO_INDEX);
  g_return_val_if_fail (track < self->tracks->n_rows, SPS_NO_INDEX);

  first = self->track_row[track];
  if (first == SPS_NO_INDEX || first + depth >= self->rows->len)
    return SPS_NO_INDEX;

  row = &g_array_index (self->rows, SpsTimelineRow, first + depth);
  if (row->track != track || row->depth != depth)
    return SPS_NO_INDEX;

  return first + depth;
}

/**
 * _sps_timeline_layout_find_slice_row:
 * @self: a layout
 * @slice: a slice index
 *
 * Returns: the row drawing @slice, or %SPS_NO_INDEX when it is hidden
 */
guint
_sps_timeline_layout_find_slice_row (SpsTimelineLayout *self,
                                     guint              slice)
{
  const SpsSliceTable *slices;

  g_return_val_if_fail (self != NULL, SPS_NO_INDEX);

  slices = sps_trace_get_slices (self->trace);
  g_return_val_if_fail (slice < slices->n_rows, SPS_NO_INDEX);

  return _sps_timeline_layout_find_track_row (self, slices->track[slice], slices->depth[slice]);
}

/**
 * _sps_timeline_layout_find_process_row:
 * @self: a layout
 * @process: a process index
 *
 * Returns: the header row of @process, or %SPS_NO_INDEX when the process
 *   has no section (no tracks)
 */
guint
_sps_timeline_layout_find_process_row (SpsTimelineLayout *self,
                                       guint              process)
{
  g_return_val_if_fail (self != NULL, SPS_NO_INDEX);
  g_return_val_if_fail (process < self->n_processes, SPS_NO_INDEX);

  return self->process_row[process];
}

/**
 * _sps_timeline_layout_find_lane_row:
 * @self: a layout
 * @lane: a lane of the view filter's effective layout
 *
 * Returns: the row drawing @lane, or %SPS_NO_INDEX
 */
guint
_sps_timeline_layout_find_lane_row (SpsTimelineLayout *self,
                                    guint              lane)
{
  g_return_val_if_fail (self != NULL, SPS_NO_INDEX);

  return lane < self->n_lanes ? self->lane_row[lane] : SPS_NO_INDEX;
}

/**
 * _sps_timeline_layout_get_filter:
 * @self: a layout
 *
 * Returns: (transfer none): the view filter the rows follow
 */
SpsViewFilter *
_sps_timeline_layout_get_filter (SpsTimelineLayout *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->filter;
}

/**
 * _sps_timeline_layout_get_pinned_height:
 * @self: a layout
 *
 * Returns: the height of the pinned threads' rows, which come first
 *   (content y 0 up to it); 0 when nothing is pinned
 */
int
_sps_timeline_layout_get_pinned_height (SpsTimelineLayout *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->pinned_height;
}

/**
 * _sps_timeline_layout_get_n_pinned_rows:
 * @self: a layout
 *
 * Returns: how many rows the pinned threads have (rows 0 up to it)
 */
guint
_sps_timeline_layout_get_n_pinned_rows (SpsTimelineLayout *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_pinned_rows;
}
