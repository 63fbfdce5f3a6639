/* sps-panel-util.c: helpers shared by the search, filter and instance panels
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-panel-util"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-panel-util.h"

/* "Name (tid)", or "Thread tid" for a thread without a name. */
char *
_sps_panel_thread_label (SpsTrace *trace,
                         guint32   thread)
{
  const SpsThreadTable *threads = sps_trace_get_threads (trace);
  g_autofree char *tid = NULL;
  const char *name;

  g_assert (SPS_IS_TRACE (trace));
  g_assert (thread < threads->n_rows);

  tid = g_strdup_printf ("%" G_GINT64_FORMAT, threads->tid[thread]);
  name = sps_trace_get_string (trace, threads->name[thread]);
  if (name != NULL && name[0] != '\0')
    return g_strdup_printf ("%s (%s)", name, tid);

  /* Translators: a thread without a name; %s is its numeric id. */
  return g_strdup_printf (_("Thread %s"), tid);
}

/* "Name (pid)", or "Process pid". */
char *
_sps_panel_process_label (SpsTrace *trace,
                          guint32   process)
{
  const SpsProcessTable *processes = sps_trace_get_processes (trace);
  g_autofree char *pid = NULL;
  const char *name;

  g_assert (SPS_IS_TRACE (trace));
  g_assert (process < processes->n_rows);

  pid = g_strdup_printf ("%" G_GINT64_FORMAT, processes->pid[process]);
  name = sps_trace_get_string (trace, processes->name[process]);
  if (name != NULL && name[0] != '\0')
    return g_strdup_printf ("%s (%s)", name, pid);

  /* Translators: a process without a name; %s is its numeric id. */
  return g_strdup_printf (_("Process %s"), pid);
}

/* Where a slice lives: its thread, or for async lanes its process. */
char *
_sps_panel_track_label (SpsTrace *trace,
                        guint32   track)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);

  g_assert (SPS_IS_TRACE (trace));
  g_assert (track < tracks->n_rows);

  if (tracks->thread[track] != SPS_NO_INDEX)
    return _sps_panel_thread_label (trace, tracks->thread[track]);
  if (tracks->process[track] != SPS_NO_INDEX)
    return _sps_panel_process_label (trace, tracks->process[track]);
  return g_strdup (_("Global"));
}

/* Selects @slice and centres the window on it when it is not in view
 * (the timeline scrolls its row into view on selection). */
void
_sps_panel_show_slice (SpsSession *session,
                       guint       slice)
{
  const SpsSliceTable *slices;
  SpsTime start;
  SpsTime end;

  g_assert (SPS_IS_SESSION (session));

  slices = sps_trace_get_slices (sps_session_get_trace (session));
  g_assert (slice < slices->n_rows);

  sps_session_set_selected_slice (session, slice);

  start = sps_session_get_visible_start (session);
  end = sps_session_get_visible_end (session);
  if (slices->ts[slice] >= end || slices->ts[slice] + slices->dur[slice] <= start)
    sps_session_go_to_time (session, slices->ts[slice] + slices->dur[slice] / 2);
}

double
_sps_panel_ms (SpsTime ns)
{
  return (double) ns / 1e6;
}

/* @text with its first letter in upper case */
char *
_sps_panel_capitalized (const char *text)
{
  const char *rest = g_utf8_next_char (text);
  gunichar first = g_utf8_get_char (text);
  char buf[8] = { 0 };

  if (*text == '\0')
    return g_strdup (text);

  g_unichar_to_utf8 (g_unichar_totitle (first), buf);

  return g_strconcat (buf, rest, NULL);
}
