/* sps-session-carry.c: what the user set in a session, carried over to a
 * session over a newer version of the same trace
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Why: a live capture's window shows each update in a new session, since
 * each update is a new trace. Without this, every update dropped the
 * selection, the time range, flags, filters and pins the user had set. A
 * newer version of a trace holds the older one's items, but its rows,
 * threads, tracks and strings may be numbered differently, so items are
 * matched by what they are: processes by pid, threads by pid and tid,
 * tracks by kind, owner and name, strings by text.
 */

#define G_LOG_DOMAIN "sps-session"

#include "config.h"

#include <string.h>

#include "sps-session-state-private.h"
#include "sps-timeline-lod-private.h"

typedef struct
{
  SpsTrace *from;
  SpsTrace *to;
} Carry;

static gboolean
same_text (Carry   *c,
           guint32  from_id,
           guint32  to_id)
{
  return g_strcmp0 (sps_trace_get_string (c->from, from_id), sps_trace_get_string (c->to, to_id)) == 0;
}

/* @to's process with @from's @process's pid, or SPS_NO_INDEX */
static guint
map_process (Carry *c,
             guint  process)
{
  const SpsProcessTable *from = sps_trace_get_processes (c->from);
  const SpsProcessTable *to = sps_trace_get_processes (c->to);

  if (process >= from->n_rows)
    return SPS_NO_INDEX;
  for (guint p = 0; p < to->n_rows; p++)
    if (to->pid[p] == from->pid[process])
      return p;
  return SPS_NO_INDEX;
}

/* @to's thread with @from's @thread's pid and tid, or SPS_NO_INDEX */
static guint
map_thread (Carry *c,
            guint  thread)
{
  const SpsThreadTable *from = sps_trace_get_threads (c->from);
  const SpsThreadTable *to = sps_trace_get_threads (c->to);
  guint process;

  if (thread >= from->n_rows || (process = map_process (c, from->process[thread])) == SPS_NO_INDEX)
    return SPS_NO_INDEX;
  for (guint t = 0; t < to->n_rows; t++)
    if (to->tid[t] == from->tid[thread] && to->process[t] == process)
      return t;
  return SPS_NO_INDEX;
}

/* What a track is, whatever its number: kind, name, and owner */
typedef struct
{
  guint8      kind;
  const char *name;
  const char *series;
  guint8      owner;  /* 0 none, 1 a process, 2 a thread */
  gint64      pid;
  gint64      tid;
} TrackKey;

static void
track_key (SpsTrace *trace,
           guint     track,
           TrackKey *key)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  const SpsThreadTable *threads = sps_trace_get_threads (trace);
  const SpsProcessTable *processes = sps_trace_get_processes (trace);
  guint32 process = tracks->process[track];

  memset (key, 0, sizeof *key);
  key->kind = tracks->kind[track];
  key->name = sps_trace_get_string (trace, tracks->name[track]);
  key->series = sps_trace_get_string (trace, tracks->series[track]);
  if (tracks->thread[track] != SPS_NO_INDEX)
    {
      key->owner = 2;
      key->tid = threads->tid[tracks->thread[track]];
      process = threads->process[tracks->thread[track]];
    }
  else if (process != SPS_NO_INDEX)
    key->owner = 1;
  if (process != SPS_NO_INDEX)
    key->pid = processes->pid[process];
}

static gboolean
track_key_equal (const TrackKey *a,
                 const TrackKey *b)
{
  return a->kind == b->kind && a->owner == b->owner && a->pid == b->pid && a->tid == b->tid &&
         g_strcmp0 (a->name, b->name) == 0 && g_strcmp0 (a->series, b->series) == 0;
}

/* @to's track for @from's @track: among the tracks alike (a process's
 * async lanes share a name), the one of the same rank */
static guint
map_track (Carry *c,
           guint  track)
{
  guint n_to = sps_trace_get_tracks (c->to)->n_rows;
  TrackKey key, other;
  guint rank = 0;

  track_key (c->from, track, &key);
  for (guint a = 0; a < track; a++)
    {
      track_key (c->from, a, &other);
      rank += track_key_equal (&key, &other);
    }
  for (guint b = 0; b < n_to; b++)
    {
      track_key (c->to, b, &other);
      if (track_key_equal (&key, &other) && rank-- == 0)
        return b;
    }
  return SPS_NO_INDEX;
}

/* The selected slice, instant or sample of @from, found in @to's trace:
 * on the same track, at the same time, with the same name (and depth) */
static void
carry_selection (Carry      *c,
                 SpsSession *self,
                 SpsSession *from)
{
  const SpsSelection *sel = sps_session_get_selection (from);
  const SpsTrackTable *tracks = sps_trace_get_tracks (c->to);
  guint track;

  if (sel->kind == SPS_SELECTION_NONE || sel->kind == SPS_SELECTION_STACK_BOX ||
      sel->track == SPS_NO_INDEX || (track = map_track (c, sel->track)) == SPS_NO_INDEX)
    return;

  if (sel->kind == SPS_SELECTION_SLICE)
    {
      const SpsSliceTable *a = sps_trace_get_slices (c->from);
      const SpsSliceTable *b = sps_trace_get_slices (c->to);
      guint end = tracks->first_row[track] + tracks->n_rows_in_track[track];

      for (guint r = _sps_timeline_lod_lower_bound (b->ts, tracks->first_row[track], tracks->n_rows_in_track[track], a->ts[sel->index]);
           r < end && b->ts[r] == a->ts[sel->index]; r++)
        if (b->depth[r] == a->depth[sel->index] && same_text (c, a->name[sel->index], b->name[r]))
          {
            sps_session_set_selected_slice (self, r);
            return;
          }
    }
  else if (sel->kind == SPS_SELECTION_INSTANT)
    {
      const SpsInstantTable *a = sps_trace_get_instants (c->from);
      const SpsInstantTable *b = sps_trace_get_instants (c->to);
      guint end = tracks->first_row[track] + tracks->n_rows_in_track[track];

      for (guint r = _sps_timeline_lod_lower_bound (b->ts, tracks->first_row[track], tracks->n_rows_in_track[track], a->ts[sel->index]);
           r < end && b->ts[r] == a->ts[sel->index]; r++)
        if (same_text (c, a->name[sel->index], b->name[r]))
          {
            sps_session_select_instant (self, r);
            return;
          }
    }
  else if (sel->kind == SPS_SELECTION_SAMPLE)
    {
      const SpsSampleTable *a = sps_trace_get_samples (c->from);
      const SpsSampleTable *b = sps_trace_get_samples (c->to);
      guint r = _sps_timeline_lod_lower_bound (b->ts, tracks->first_row[track], tracks->n_rows_in_track[track], a->ts[sel->index]);

      if (r < tracks->first_row[track] + tracks->n_rows_in_track[track] && b->ts[r] == a->ts[sel->index])
        sps_session_select_sample (self, r);
    }
}

/**
 * sps_session_carry_over:
 * @self: a session over a newer version of @from's trace, such as the
 *   next update of a live capture
 * @from: the session @self replaces
 *
 * Sets in @self what the user set in @from, for the items @self's trace
 * has too: hidden, collapsed and pinned processes and threads (matched
 * by pid and tid), hidden categories (by text), the minimum duration,
 * the search, the time range, flags, and the selected slice, instant or
 * sample (on the same track, at the same time, with the same name; a
 * box of a stack chart is not carried). The visible window is left to
 * the caller, which may want to follow the newest data.
 *
 * Matching threads and tracks costs a pass over @self's threads or
 * tracks for each one matched: meant for traces of a few hundred.
 */
void
sps_session_carry_over (SpsSession *self,
                        SpsSession *from)
{
  Carry c;
  guint n_categories;
  const guint32 *categories;
  GListModel *flags;
  SpsTime range_start, range_end;
  SpsStringPool *strings;

  g_return_if_fail (SPS_IS_SESSION (self));
  g_return_if_fail (SPS_IS_SESSION (from));

  c.from = from->trace;
  c.to = self->trace;

  for (guint p = 0; p < from->n_processes; p++)
    {
      guint q = map_process (&c, p);

      if (q == SPS_NO_INDEX)
        continue;
      sps_session_set_process_hidden (self, q, sps_session_get_process_hidden (from, p));
      sps_session_set_process_collapsed (self, q, sps_session_get_process_collapsed (from, p));
    }

  for (guint t = 0; t < from->n_threads; t++)
    {
      guint u = map_thread (&c, t);

      if (u == SPS_NO_INDEX)
        continue;
      sps_session_set_thread_hidden (self, u, sps_session_get_thread_hidden (from, t));
      sps_session_set_thread_collapsed (self, u, sps_session_get_thread_collapsed (from, t));
      sps_session_set_thread_pinned (self, u, sps_session_get_thread_pinned (from, t));
    }

  strings = sps_trace_get_strings (c.to);
  categories = sps_session_get_categories (from, &n_categories);
  for (guint i = 0; i < n_categories; i++)
    {
      guint32 id = sps_string_pool_lookup (strings, sps_trace_get_string (c.from, categories[i]), -1);

      if (id != SPS_NO_INDEX && sps_session_get_category_hidden (from, categories[i]))
        sps_session_set_category_hidden (self, id, TRUE);
    }

  sps_session_set_min_duration (self, sps_session_get_min_duration (from));
  sps_session_set_search_in_category (self, sps_session_get_search_in_category (from));
  sps_session_set_search_text (self, sps_session_get_search_text (from));

  if (sps_session_get_range (from, &range_start, &range_end))
    sps_session_set_range (self, range_start, range_end);

  flags = sps_session_get_flags (from);
  for (guint i = 0; i < g_list_model_get_n_items (flags); i++)
    {
      g_autoptr(SpsFlag) flag = g_list_model_get_item (flags, i);

      if (!sps_session_is_go_to_flag (from, flag))
        sps_session_add_flag (self, sps_flag_get_time (flag), sps_flag_get_name (flag));
    }

  carry_selection (&c, self, from);
}
