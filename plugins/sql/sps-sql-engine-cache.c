/* sps-sql-engine-cache.c: one SQL engine per session, created on first use
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-sql-engine-cache"

#include "config.h"

#include "sps-sql-engine-cache.h"

#define ENGINE_KEY "sps-sql-plugin-engine"

/* A panel shows at most this many rows: enough to scroll through, and a
 * "SELECT * FROM slices" on a large trace does not copy it all into a
 * table. The statistics' rows are aggregates, far fewer. */
#define MAX_ROWS 100000

/* slice_visible(id) in SQL answers with the session's filters. */
static void
sync_filters (SpsSqlEngine *engine,
              SpsSession   *session)
{
  g_autoptr(GBytes) mask = sps_session_dup_slice_mask (session);

  sps_sql_engine_set_slice_mask (engine, mask);
}

/* The SQL and statistics panels of one window share an engine, kept on
 * the session so it lives as long as the trace is shown; opening it only
 * registers virtual tables, so nothing is copied before the first query. */
SpsSqlEngine *
sps_sql_engine_cache_get (SpsSession  *session,
                          GError     **error)
{
  SpsSqlEngine *engine;

  g_return_val_if_fail (SPS_IS_SESSION (session), NULL);

  if ((engine = g_object_get_data (G_OBJECT (session), ENGINE_KEY)) == NULL)
    {
      if (!(engine = sps_sql_engine_new (sps_session_get_trace (session), error)))
        return NULL;
      sps_sql_engine_set_max_rows (engine, MAX_ROWS);
      sync_filters (engine, session);
      g_signal_connect_object (session, "filters-changed", G_CALLBACK (sync_filters), engine, G_CONNECT_SWAPPED);
      g_object_set_data_full (G_OBJECT (session), ENGINE_KEY, engine, g_object_unref);
    }

  return engine;
}

/* The first slice of @track starting at @ts (slices are sorted by track
 * then ts), or SPS_NO_INDEX. */
guint
sps_sql_find_slice (SpsTrace *trace,
                    guint     track,
                    SpsTime   ts)
{
  const SpsTrackTable *tracks;
  const SpsSliceTable *slices;
  guint lo;
  guint hi;

  g_return_val_if_fail (SPS_IS_TRACE (trace), SPS_NO_INDEX);

  tracks = sps_trace_get_tracks (trace);
  slices = sps_trace_get_slices (trace);
  if (track >= tracks->n_rows ||
      (tracks->kind[track] != SPS_TRACK_THREAD_SLICES &&
       tracks->kind[track] != SPS_TRACK_THREAD_SAMPLED_SLICES &&
       tracks->kind[track] != SPS_TRACK_ASYNC))
    return SPS_NO_INDEX;

  lo = tracks->first_row[track];
  hi = lo + tracks->n_rows_in_track[track];
  g_return_val_if_fail (hi <= slices->n_rows, SPS_NO_INDEX);

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (slices->ts[mid] < ts)
        lo = mid + 1;
      else
        hi = mid;
    }

  if (lo < tracks->first_row[track] + tracks->n_rows_in_track[track] && slices->ts[lo] == ts)
    return lo;
  return SPS_NO_INDEX;
}

/* Selects @slice and pans (or zooms out) so that it is visible. */
void
sps_sql_select_slice (SpsSession *session,
                      guint       slice)
{
  const SpsSliceTable *slices;
  SpsTime start;
  SpsTime end;
  SpsTime ts;
  SpsTime dur;

  g_return_if_fail (SPS_IS_SESSION (session));

  slices = sps_trace_get_slices (sps_session_get_trace (session));
  g_return_if_fail (slice < slices->n_rows);

  sps_session_set_selected_slice (session, slice);

  ts = slices->ts[slice];
  dur = MAX (slices->dur[slice], 0);
  start = sps_session_get_visible_start (session);
  end = sps_session_get_visible_end (session);
  if (ts >= start && ts + dur <= end)
    return;

  if (dur < end - start)
    sps_session_go_to_time (session, ts + dur / 2);
  else
    sps_session_fit (session);
}
