/* sps-chrome-export-flows.c: arrows of the Chrome JSON exporter
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-chrome-exporter"

#include "config.h"

#include "sps-chrome-exporter-private.h"

/* Flows. Each arrow becomes a flow of its own (its own id), written one of
 * two ways so that an importer binds it to the same two slices again:
 *
 * - an s/f pair with `bp: "e"`, both bound to the deepest slice of their
 *   thread that encloses their time. The times are chosen where the from-
 *   and to-slices are that deepest slice (in their self time), the end no
 *   earlier than the start, by asking the trace's own tables the question
 *   the importer will ask;
 * - when no such times exist (a slice covered by its children, an end that
 *   precedes the start, a sampled or async slice, which thread binding
 *   never reaches), flow v2: `bind_id` with `flow_out`/`flow_in` on the two
 *   slice events themselves. A slice event carries one bind_id, so this
 *   serves one arrow per slice.
 *
 * What neither form can hold is written as an s/f pair at the two slices'
 * start times, the best approximation. */

typedef enum
{
  FLOW_SKIP,
  FLOW_POINTS,
  FLOW_BIND_ID,
} FlowForm;

static SpsTrackKind
slice_track_kind (Writer  *w,
                  guint32  slice,
                  guint32 *track)
{
  *track = w->slices->track[slice];
  if (*track >= w->tracks->n_rows)
    return SPS_TRACK_GLOBAL_INSTANTS;
  return (SpsTrackKind) w->tracks->kind[*track];
}

/* The deepest slice of @track whose closed interval holds @ts: the last
 * one starting at or before @ts, or its nearest ancestor still covering
 * it (how finish() binds a flow point with `bp: "e"`). */
static guint32
find_enclosing (Writer  *w,
                guint32  track,
                SpsTime  ts)
{
  const SpsSliceTable *slices = w->slices;
  guint32 first = w->tracks->first_row[track];
  guint32 lo = first;
  guint32 hi = first + w->tracks->n_rows_in_track[track];

  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;

      if (slices->ts[mid] <= ts)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == first)
    return SPS_NO_INDEX;

  for (guint32 row = lo - 1; row != SPS_NO_INDEX; row = slices->parent[row])
    if (slices->ts[row] + slices->dur[row] >= ts)
      return row;

  return SPS_NO_INDEX;
}

/* The earliest time at or after @not_before at which @slice is the slice
 * find_enclosing() answers, looked for by stepping past the child that
 * covers each candidate. Gives up after a bounded number of children. */
static gboolean
find_binding_time (Writer  *w,
                   guint32  slice,
                   SpsTime  not_before,
                   SpsTime *out)
{
  const SpsSliceTable *slices = w->slices;
  guint32 track = slices->track[slice];
  SpsTime end = slices->ts[slice] + slices->dur[slice];
  SpsTime candidate = MAX (slices->ts[slice], not_before);

  for (guint tries = 0; tries < 64 && candidate <= end; tries++)
    {
      guint32 hit = find_enclosing (w, track, candidate);
      guint32 child = hit;

      if (hit == slice)
        {
          *out = candidate;
          return TRUE;
        }
      if (hit == SPS_NO_INDEX || slices->depth[hit] <= slices->depth[slice])
        return FALSE;

      while (child != SPS_NO_INDEX && slices->parent[child] != slice)
        child = slices->parent[child];
      if (child == SPS_NO_INDEX || slices->ts[child] + slices->dur[child] >= end)
        return FALSE;
      candidate = slices->ts[child] + slices->dur[child] + 1;
    }

  return FALSE;
}

/* Whether @slice is written as one event (X, B or b) that can carry a
 * bind_id no other arrow has taken. */
static gboolean
can_bind_id (Writer  *w,
             guint32  slice)
{
  const SpsSliceTable *slices = w->slices;
  guint32 track;

  if ((slices->flags[slice] & (SPS_SLICE_STEP | SPS_SLICE_UNMATCHED_END)) != 0)
    return FALSE;
  if (g_hash_table_contains (w->bind_ids, GUINT_TO_POINTER (slice + 1)))
    return FALSE;

  switch (slice_track_kind (w, slice, &track))
    {
    case SPS_TRACK_THREAD_SLICES:
    case SPS_TRACK_THREAD_SAMPLED_SLICES:
      return TRUE;
    case SPS_TRACK_ASYNC:
      /* A legacy slice is written as S/T/F, not as one b. */
      return !(slice + 1 < slices->n_rows && slices->parent[slice + 1] == slice &&
               (slices->flags[slice + 1] & SPS_SLICE_STEP) != 0);
    case SPS_TRACK_COUNTER:
    case SPS_TRACK_THREAD_INSTANTS:
    case SPS_TRACK_PROCESS_INSTANTS:
    case SPS_TRACK_GLOBAL_INSTANTS:
    case SPS_TRACK_THREAD_SAMPLES:
    default:
      return FALSE;
    }
}

static gboolean
slice_thread (Writer  *w,
              guint32  slice,
              guint32 *thread)
{
  guint32 track;
  SpsTrackKind kind = slice_track_kind (w, slice, &track);

  if (kind != SPS_TRACK_THREAD_SLICES && kind != SPS_TRACK_THREAD_SAMPLED_SLICES)
    return FALSE;
  *thread = w->tracks->thread[track];
  return *thread != SPS_NO_INDEX;
}

void
sps_chrome_plan_flows (Writer            *w,
                       SpsChromeFlowPlan *plan)
{
  const SpsFlowTable *flows = sps_trace_get_flows (w->trace);
  const SpsSliceTable *slices = w->slices;
  guint n_approximate = 0;
  guint n_skipped = 0;

  plan->form = g_new0 (guint8, MAX (flows->n_rows, 1));
  plan->start_ts = g_new0 (SpsTime, MAX (flows->n_rows, 1));
  plan->end_ts = g_new0 (SpsTime, MAX (flows->n_rows, 1));

  for (guint i = 0; i < flows->n_rows; i++)
    {
      guint32 from = flows->from_slice[i];
      guint32 to = flows->to_slice[i];
      guint32 from_track;
      guint32 to_track;
      guint32 from_thread;
      guint32 to_thread;
      gboolean in_order;

      if (from >= slices->n_rows || to >= slices->n_rows)
        {
          plan->form[i] = FLOW_SKIP;
          n_skipped++;
          continue;
        }

      if (slice_track_kind (w, from, &from_track) == SPS_TRACK_THREAD_SLICES &&
          slice_track_kind (w, to, &to_track) == SPS_TRACK_THREAD_SLICES &&
          find_binding_time (w, from, SPS_TIME_MIN, &plan->start_ts[i]) &&
          find_binding_time (w, to, plan->start_ts[i], &plan->end_ts[i]))
        {
          plan->form[i] = FLOW_POINTS;
          continue;
        }

      /* The importer orders a flow's points by time, ties in file order;
       * thread slices are written in slice order, async ones are not. */
      in_order = slices->ts[from] < slices->ts[to] ||
                 (slices->ts[from] == slices->ts[to] && from < to &&
                  slice_track_kind (w, from, &from_track) != SPS_TRACK_ASYNC &&
                  slice_track_kind (w, to, &to_track) != SPS_TRACK_ASYNC);
      if (from != to && in_order && can_bind_id (w, from) && can_bind_id (w, to))
        {
          plan->form[i] = FLOW_BIND_ID;
          g_hash_table_insert (w->bind_ids, GUINT_TO_POINTER (from + 1),
                               GSIZE_TO_POINTER (((gsize) i << 1) | 1));
          g_hash_table_insert (w->bind_ids, GUINT_TO_POINTER (to + 1),
                               GSIZE_TO_POINTER ((gsize) i << 1));
          continue;
        }

      if (slice_thread (w, from, &from_thread) && slice_thread (w, to, &to_thread))
        {
          plan->form[i] = FLOW_POINTS;
          plan->start_ts[i] = slices->ts[from];
          plan->end_ts[i] = MAX (slices->ts[to], slices->ts[from]);
          n_approximate++;
          continue;
        }

      plan->form[i] = FLOW_SKIP;
      n_skipped++;
    }

  if (n_approximate > 0 || n_skipped > 0)
    g_debug ("%u flows written at approximate times, %u not written", n_approximate, n_skipped);
}

void
sps_chrome_flow_plan_clear (SpsChromeFlowPlan *plan)
{
  g_clear_pointer (&plan->form, g_free);
  g_clear_pointer (&plan->start_ts, g_free);
  g_clear_pointer (&plan->end_ts, g_free);
}

/* `bind_id` and direction on the event of a slice that ends or starts an
 * arrow written as flow v2. */
void
sps_chrome_append_bind_id (Writer  *w,
                           guint32  slice)
{
  gpointer value;
  gsize packed;

  if (g_hash_table_size (w->bind_ids) == 0 ||
      !g_hash_table_lookup_extended (w->bind_ids, GUINT_TO_POINTER (slice + 1), NULL, &value))
    return;

  packed = GPOINTER_TO_SIZE (value);
  sps_chrome_writer_key (w, "bind_id");
  sps_json_append_uint64 (w->buf, (guint64) (packed >> 1) + 1);
  g_string_append (w->buf, (packed & 1) != 0 ? ",\"flow_out\":true" : ",\"flow_in\":true");
}

static void
write_flow_point (Writer  *w,
                  char     phase,
                  guint64  id,
                  guint32  name,
                  guint32  category,
                  guint32  thread,
                  SpsTime  ts)
{
  sps_chrome_writer_begin_id_event (w, phase, name, category, id);
  sps_chrome_writer_append_thread (w, thread);
  sps_chrome_writer_ts (w, "ts", ts);
  sps_chrome_out_literal (w->buf, ",\"bp\":\"e\"");
}

gboolean
sps_chrome_write_flows (Writer                  *w,
                        const SpsChromeFlowPlan *plan,
                        GError                 **error)
{
  const SpsFlowTable *flows = sps_trace_get_flows (w->trace);

  for (guint i = 0; i < flows->n_rows; i++)
    {
      guint32 from_thread;
      guint32 to_thread;

      if (plan->form[i] == FLOW_POINTS &&
          slice_thread (w, flows->from_slice[i], &from_thread) &&
          slice_thread (w, flows->to_slice[i], &to_thread))
        {
          write_flow_point (w, 's', (guint64) i + 1, flows->name[i], flows->category[i],
                            from_thread, plan->start_ts[i]);
          if (!sps_chrome_writer_end_event (w, error))
            return FALSE;
          write_flow_point (w, 'f', (guint64) i + 1, flows->name[i], flows->category[i],
                            to_thread, plan->end_ts[i]);
          if (!sps_chrome_writer_end_event (w, error))
            return FALSE;
        }

      if (!sps_chrome_writer_advance (w, error))
        return FALSE;
    }

  return TRUE;
}
