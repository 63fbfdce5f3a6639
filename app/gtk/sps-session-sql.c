/* sps-session-sql.c: the session's SQL engine, shared by its panels
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Part of SpsSession (sps-session.c): what the SQL and statistics panels,
 * and any plugin that queries the trace, share.
 */

#define G_LOG_DOMAIN "sps-session"

#include "config.h"

#include "sps-session.h"

#define ENGINE_KEY "sps-session-sql-engine"

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

/**
 * sps_session_get_sql_engine:
 * @session: a #SpsSession
 * @error: return location for a #GError
 *
 * The SQL engine over the session's trace, made on first use and shared by
 * every panel of the window (SQL, statistics, plugins), so that it lives
 * as long as the trace is shown; making it only registers virtual tables,
 * nothing is copied before the first query. Its `slice_visible()` follows
 * the session's filters; it returns at most 100,000 rows a query.
 *
 * Returns: (transfer none) (nullable): the engine, or %NULL with @error set
 */
SpsSqlEngine *
sps_session_get_sql_engine (SpsSession  *session,
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

/**
 * sps_session_reveal_slice:
 * @session: a #SpsSession
 * @slice: a slice of the session's trace
 *
 * Selects @slice and pans (or zooms out) so that it is visible: what a
 * click on a query's result row does.
 */
void
sps_session_reveal_slice (SpsSession *session,
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
