/* sps-timeline-layout.c: the rows of the timeline
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-timeline-layout"

#include "config.h"

#include "sps-timeline-layout-private.h"
#include "sps-timeline-stacks-private.h"

/*
 * The timeline shows one section per process, in the order of the
 * processes' sort index then pid. A section starts with a header row; below
 * it, thread by thread (sort index, then tid), each of the thread's tracks:
 * one row per depth of its slices, its sampled spans, its instants and its
 * samples, followed by the lanes of the samples' stack chart (one per
 * depth, see sps-timeline-stacks.c); then the process's async lanes (one row per depth of each lane),
 * process instants and counter series. Global instants come first, above
 * every section. Processes or threads without any track are left out.
 *
 * The order is computed once; collapsing a process only rebuilds the rows,
 * in time linear in the number of tracks. No display is needed, so tests
 * use this directly.
 */

struct _SpsTimelineLayout
{
  SpsTrace            *trace;
  const SpsTrackTable *tracks;

  int                  track_height;
  int                  header_height;

  guint                n_processes;
  guint8              *collapsed;        /* per process */
  guint8              *process_hidden;   /* per process: filtered out */
  guint8              *track_hidden;     /* per track: filtered out */

  /* Display order: processes[i] has tracks order[start[i]..start[i+1]) */
  guint                n_sections;
  guint32             *section_process;
  guint32             *section_start;
  guint32             *order;
  guint32              global_track;

  GArray              *rows;             /* SpsTimelineRow */
  guint32             *track_row;        /* first row of each track */
  guint16             *stack_depths;     /* per track: lanes of its stack chart */
  guint32             *process_row;      /* header row of each process */
  int                  height;
};

typedef struct
{
  const gint32 *sort_index;
  const gint64 *key;
  const guint32 *group;
} SortContext;

/* By group (when given), then sort index, then key (pid or tid), then
 * index, so the order is total and stable. */
static int
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  const SortContext *ctx = user_data;
  guint32 i = *(const guint32 *) a;
  guint32 j = *(const guint32 *) b;

  if (ctx->group != NULL && ctx->group[i] != ctx->group[j])
    return ctx->group[i] < ctx->group[j] ? -1 : 1;
  if (ctx->sort_index[i] != ctx->sort_index[j])
    return ctx->sort_index[i] < ctx->sort_index[j] ? -1 : 1;
  if (ctx->key[i] != ctx->key[j])
    return ctx->key[i] < ctx->key[j] ? -1 : 1;
  if (i != j)
    return i < j ? -1 : 1;
  return 0;
}

static void
compute_order (SpsTimelineLayout *self)
{
  const SpsProcessTable *processes = sps_trace_get_processes (self->trace);
  const SpsThreadTable *threads = sps_trace_get_threads (self->trace);
  const SpsTrackTable *tracks = self->tracks;
  guint np = processes->n_rows;
  guint nt = threads->n_rows;
  g_autofree guint32 *thread_order = g_new (guint32, MAX (nt, 1));
  g_autofree guint32 *process_order = g_new (guint32, MAX (np, 1));
  g_autofree guint32 *thread_start = g_new0 (guint32, nt + 1);
  g_autofree guint32 *thread_tracks = g_new (guint32, MAX (tracks->n_rows, 1));
  g_autofree guint32 *own_start = g_new0 (guint32, np + 1);
  g_autofree guint32 *own_tracks = g_new (guint32, MAX (tracks->n_rows, 1));
  g_autofree guint32 *thread_fill = NULL;
  g_autofree guint32 *own_fill = NULL;
  g_autofree guint32 *n_tracks_of_process = g_new0 (guint32, MAX (np, 1));
  SortContext ctx;
  guint n_order = 0;

  self->global_track = SPS_NO_INDEX;

  /* Tracks grouped by thread, and by process for the others, keeping the
   * order of the track table (slices, sampled, instants, samples; async
   * lanes, process instants, counters). */
  for (guint t = 0; t < tracks->n_rows; t++)
    {
      if (tracks->thread[t] != SPS_NO_INDEX)
        thread_start[tracks->thread[t] + 1]++;
      else if (tracks->process[t] != SPS_NO_INDEX)
        own_start[tracks->process[t] + 1]++;
      else if (self->global_track == SPS_NO_INDEX)
        self->global_track = t;

      if (tracks->process[t] != SPS_NO_INDEX)
        n_tracks_of_process[tracks->process[t]]++;
    }
  for (guint i = 0; i < nt; i++)
    thread_start[i + 1] += thread_start[i];
  for (guint i = 0; i < np; i++)
    own_start[i + 1] += own_start[i];

  thread_fill = g_memdup2 (thread_start, sizeof (guint32) * (nt + 1));
  own_fill = g_memdup2 (own_start, sizeof (guint32) * (np + 1));
  for (guint t = 0; t < tracks->n_rows; t++)
    {
      if (tracks->thread[t] != SPS_NO_INDEX)
        thread_tracks[thread_fill[tracks->thread[t]]++] = t;
      else if (tracks->process[t] != SPS_NO_INDEX)
        own_tracks[own_fill[tracks->process[t]]++] = t;
    }

  for (guint i = 0; i < nt; i++)
    thread_order[i] = i;
  ctx.group = threads->process;
  ctx.sort_index = threads->sort_index;
  ctx.key = threads->tid;
  g_qsort_with_data (thread_order, nt, sizeof (guint32), compare_rows, &ctx);

  for (guint i = 0; i < np; i++)
    process_order[i] = i;
  ctx.group = NULL;
  ctx.sort_index = processes->sort_index;
  ctx.key = processes->pid;
  g_qsort_with_data (process_order, np, sizeof (guint32), compare_rows, &ctx);

  self->section_process = g_new (guint32, MAX (np, 1));
  self->section_start = g_new (guint32, np + 1);
  self->order = g_new (guint32, MAX (tracks->n_rows, 1));

  for (guint i = 0; i < np; i++)
    {
      guint32 p = process_order[i];
      guint lo = 0;
      guint hi = nt;

      if (n_tracks_of_process[p] == 0)
        continue;

      self->section_process[self->n_sections] = p;
      self->section_start[self->n_sections] = n_order;
      self->n_sections++;

      /* The process's threads are contiguous in thread_order. */
      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;

          if (threads->process[thread_order[mid]] < p)
            lo = mid + 1;
          else
            hi = mid;
        }

      for (guint k = lo; k < nt && threads->process[thread_order[k]] == p; k++)
        {
          guint32 th = thread_order[k];

          for (guint32 j = thread_start[th]; j < thread_start[th + 1]; j++)
            self->order[n_order++] = thread_tracks[j];
        }

      for (guint32 j = own_start[p]; j < own_start[p + 1]; j++)
        self->order[n_order++] = own_tracks[j];
    }

  self->section_start[self->n_sections] = n_order;
}

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

static void
add_track_rows (SpsTimelineLayout *self,
                guint32            t)
{
  const SpsTrackTable *tracks = self->tracks;
  guint32 process = tracks->process[t];
  guint32 thread = tracks->thread[t];

  if (self->track_hidden[t])
    return;

  self->track_row[t] = self->rows->len;

  switch ((SpsTrackKind) tracks->kind[t])
    {
    case SPS_TRACK_THREAD_SLICES:
    case SPS_TRACK_THREAD_SAMPLED_SLICES:
    case SPS_TRACK_ASYNC:
      for (guint d = 0; d < MAX (tracks->max_depth[t], 1); d++)
        add_row (self, SPS_TIMELINE_ROW_SLICES, d == 0 ? SPS_TIMELINE_ROW_FIRST : 0,
                 d, process, thread, t, self->track_height);
      break;

    case SPS_TRACK_COUNTER:
      add_row (self, SPS_TIMELINE_ROW_COUNTER, SPS_TIMELINE_ROW_FIRST, 0,
               process, thread, t, 2 * self->track_height);
      break;

    case SPS_TRACK_THREAD_INSTANTS:
    case SPS_TRACK_PROCESS_INSTANTS:
    case SPS_TRACK_GLOBAL_INSTANTS:
      add_row (self, SPS_TIMELINE_ROW_INSTANTS, SPS_TIMELINE_ROW_FIRST, 0,
               process, thread, t, self->track_height);
      break;

    case SPS_TRACK_THREAD_SAMPLES:
      add_row (self, SPS_TIMELINE_ROW_SAMPLES, SPS_TIMELINE_ROW_FIRST, 0,
               process, thread, t, self->track_height);
      for (guint d = 0; d < self->stack_depths[t]; d++)
        add_row (self, SPS_TIMELINE_ROW_STACK, 0, d, process, thread, t, self->track_height);
      break;

    default:
      self->track_row[t] = SPS_NO_INDEX;
      break;
    }
}

static void
rebuild_rows (SpsTimelineLayout *self)
{
  g_array_set_size (self->rows, 0);
  self->height = 0;

  for (guint t = 0; t < self->tracks->n_rows; t++)
    self->track_row[t] = SPS_NO_INDEX;
  for (guint p = 0; p < self->n_processes; p++)
    self->process_row[p] = SPS_NO_INDEX;

  if (self->global_track != SPS_NO_INDEX)
    add_track_rows (self, self->global_track);

  for (guint s = 0; s < self->n_sections; s++)
    {
      guint32 p = self->section_process[s];
      gboolean collapsed = self->collapsed[p];

      /* A hidden process loses its header too; its rows are not found. */
      if (self->process_hidden[p])
        continue;

      self->process_row[p] = self->rows->len;
      add_row (self, SPS_TIMELINE_ROW_PROCESS,
               SPS_TIMELINE_ROW_FIRST | (collapsed ? SPS_TIMELINE_ROW_COLLAPSED : 0),
               0, p, SPS_NO_INDEX, SPS_NO_INDEX, self->header_height);

      if (collapsed)
        continue;

      for (guint32 j = self->section_start[s]; j < self->section_start[s + 1]; j++)
        add_track_rows (self, self->order[j]);
    }
}

/**
 * _sps_timeline_layout_new:
 * @trace: a finished trace
 *
 * Returns: (transfer full): the rows of @trace with nothing collapsed,
 *   20 px tracks and 24 px headers
 */
SpsTimelineLayout *
_sps_timeline_layout_new (SpsTrace *trace)
{
  SpsTimelineLayout *self;

  g_return_val_if_fail (SPS_IS_TRACE (trace), NULL);

  self = g_new0 (SpsTimelineLayout, 1);
  self->trace = g_object_ref (trace);
  self->tracks = sps_trace_get_tracks (trace);
  self->n_processes = sps_trace_get_processes (trace)->n_rows;
  self->collapsed = g_new0 (guint8, MAX (self->n_processes, 1));
  self->process_hidden = g_new0 (guint8, MAX (self->n_processes, 1));
  self->track_hidden = g_new0 (guint8, MAX (self->tracks->n_rows, 1));
  self->track_row = g_new (guint32, MAX (self->tracks->n_rows, 1));
  self->process_row = g_new (guint32, MAX (self->n_processes, 1));
  self->rows = g_array_new (FALSE, FALSE, sizeof (SpsTimelineRow));
  self->track_height = 20;
  self->header_height = 24;
  self->stack_depths = g_new0 (guint16, MAX (self->tracks->n_rows, 1));
  for (guint t = 0; t < self->tracks->n_rows; t++)
    if (self->tracks->kind[t] == SPS_TRACK_THREAD_SAMPLES)
      self->stack_depths[t] = _sps_timeline_stacks_track_depth (trace, t);

  compute_order (self);
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
  g_free (self->collapsed);
  g_free (self->process_hidden);
  g_free (self->track_hidden);
  g_free (self->section_process);
  g_free (self->section_start);
  g_free (self->order);
  g_free (self->track_row);
  g_free (self->stack_depths);
  g_free (self->process_row);
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
 * Takes the thread and process filters of @session: tracks that are not
 * visible lose their rows, hidden processes their header too. (Category
 * filters hide slices, not rows.)
 *
 * Returns: %TRUE when the rows changed
 */
gboolean
_sps_timeline_layout_sync_filters (SpsTimelineLayout *self,
                                   SpsSession        *session)
{
  gboolean changed = FALSE;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (SPS_IS_SESSION (session), FALSE);
  g_return_val_if_fail (sps_session_get_trace (session) == self->trace, FALSE);

  for (guint p = 0; p < self->n_processes; p++)
    {
      guint8 hidden = sps_session_get_process_hidden (session, p);

      changed |= self->process_hidden[p] != hidden;
      self->process_hidden[p] = hidden;
    }

  for (guint t = 0; t < self->tracks->n_rows; t++)
    {
      guint8 hidden = !sps_session_is_track_visible (session, t);

      changed |= self->track_hidden[t] != hidden;
      self->track_hidden[t] = hidden;
    }

  if (changed)
    rebuild_rows (self);

  return changed;
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
