/* sps-event-text.c: instants and decoded events as text for tooltips
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * An instant's tooltip names it, says when it happened and lists its args
 * one a line, as PerfView's events view lists an event's fields: enough
 * to read a GC's reason or a method's name without opening anything.
 */

#define G_LOG_DOMAIN "sps-event-text"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-event-text-private.h"
#include <spanscope-core.h>
#include "sps-time-math-private.h"

/* Args a tooltip lists before "… n more", and the characters of a value */
#define TOOLTIP_ARGS       16
#define TOOLTIP_VALUE_CHARS 120

/**
 * _sps_find_nearest_point:
 * @ts: (array): times, sorted, of a table
 * @first: the first row of the run to look in
 * @n: its number of rows
 * @t: a time
 * @tolerance: how far the row may be from @t
 *
 * Returns: the row of the run nearest @t within @tolerance (the earlier on
 *   a tie), or %SPS_NO_INDEX
 */
guint
_sps_find_nearest_point (const SpsTime *ts,
                         guint          first,
                         guint          n,
                         SpsTime        t,
                         SpsTime        tolerance)
{
  guint lo = first;
  guint hi = first + n;
  guint best = SPS_NO_INDEX;
  guint64 best_distance = tolerance > 0 ? (guint64) tolerance : 0;

  /* The first point at or after t; the nearest is it or the one before */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (ts[mid] < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (guint i = lo > first ? lo - 1 : lo; i <= lo && i < first + n; i++)
    {
      guint64 d = _sps_time_span (MIN (ts[i], t), MAX (ts[i], t));

      if (d <= best_distance)
        {
          best = i;
          best_distance = d;
        }
    }
  return best;
}

/**
 * _sps_event_text_find_instant:
 * @trace: a trace
 * @track: an instant track
 * @t: a time
 * @tolerance: how far the instant may be from @t
 *
 * Returns: the instant of @track nearest @t, or %SPS_NO_INDEX
 */
guint
_sps_event_text_find_instant (SpsTrace *trace,
                              guint32   track,
                              SpsTime   t,
                              SpsTime   tolerance)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);

  if (track >= tracks->n_rows ||
      (tracks->kind[track] != SPS_TRACK_THREAD_INSTANTS && tracks->kind[track] != SPS_TRACK_PROCESS_INSTANTS &&
       tracks->kind[track] != SPS_TRACK_GLOBAL_INSTANTS))
    return SPS_NO_INDEX;
  return _sps_find_nearest_point (sps_trace_get_instants (trace)->ts, tracks->first_row[track],
                                  tracks->n_rows_in_track[track], t, tolerance);
}

static void
append_value (GString  *out,
              JsonNode *value)
{
  g_autofree char *text = NULL;
  g_autofree char *escaped = NULL;
  const char *shown;

  if (JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING)
    shown = json_node_get_string (value);
  else
    shown = text = json_to_string (value, FALSE);

  if (g_utf8_strlen (shown, -1) > TOOLTIP_VALUE_CHARS)
    {
      g_autofree char *cut = g_utf8_substring (shown, 0, TOOLTIP_VALUE_CHARS);

      escaped = g_markup_printf_escaped ("%s…", cut);
    }
  else
    escaped = g_markup_escape_text (shown, -1);
  g_string_append (out, escaped);
}

/**
 * _sps_event_text_instant_markup:
 * @trace: a trace
 * @instant: an instant
 *
 * Returns: (transfer full): the instant's tooltip: its name, what it is and
 *   when, then its args (an event's payload fields) one a line
 */
char *
_sps_event_text_instant_markup (SpsTrace *trace,
                                guint     instant)
{
  const SpsInstantTable *instants = sps_trace_get_instants (trace);
  g_autofree char *when = sps_time_format (instants->ts[instant] - sps_trace_get_start_time (trace));
  g_autoptr(JsonNode) args = sps_trace_parse_args (trace, instants->args[instant], NULL);
  GString *out = g_string_new (NULL);
  g_autofree char *head = NULL;

  if (instants->kind[instant] == SPS_INSTANT_KIND_EVENT)
    /* Translators: a decoded event's tooltip: its name, then when it
     * happened from the start of the trace */
    head = g_markup_printf_escaped (_("<b>%s</b>\nEvent at %s"),
                                    sps_trace_get_string (trace, instants->name[instant]), when);
  else
    /* Translators: an instant's tooltip: its name, then when it happened
     * from the start of the trace */
    head = g_markup_printf_escaped (_("<b>%s</b>\nInstant at %s"),
                                    sps_trace_get_string (trace, instants->name[instant]), when);
  g_string_append (out, head);

  if (args != NULL && JSON_NODE_HOLDS_OBJECT (args) && json_object_get_size (json_node_get_object (args)) > 0)
    {
      JsonObject *object = json_node_get_object (args);
      g_autoptr(GList) members = json_object_get_members (object);
      guint n = 0;

      g_string_append_c (out, '\n');
      for (GList *l = members; l != NULL; l = l->next, n++)
        {
          g_autofree char *key = NULL;

          if (n == TOOLTIP_ARGS)
            {
              guint rest = g_list_length (l);

              g_string_append_c (out, '\n');
              /* Translators: after the first args of an event, how many more it has */
              g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "… %u more field", "… %u more fields", rest),
                                      rest);
              break;
            }
          key = g_markup_escape_text (l->data, -1);
          g_string_append_printf (out, "\n%s: ", key);
          append_value (out, json_object_get_member (object, l->data));
        }
    }
  return g_string_free (out, FALSE);
}
