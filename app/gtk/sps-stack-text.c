/* sps-stack-text.c: call stacks and samples as text for tooltips and the
 * detail panel
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Stacks read leaf first, as debuggers and DevTools list them, one frame
 * a line with its source location (file:line:column) beside the name.
 */

#define G_LOG_DOMAIN "sps-stack-text"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-event-text-private.h"
#include "sps-stack-text-private.h"
#include <spanscope-core.h>
#include "sps-time-math-private.h"

/* Frames a sample's tooltip lists before "… n more" */
#define TOOLTIP_FRAMES 12

/* Appends the frames of @callsite, leaf first, as Pango markup; after
 * @max_frames (0: no limit) a line says how many more there are. */
void
_sps_stack_text_append_markup (GString  *out,
                               SpsTrace *trace,
                               guint32   callsite,
                               guint     max_frames)
{
  const SpsCallsiteTable *callsites = sps_trace_get_callsites (trace);
  const SpsFrameTable *frames = sps_trace_get_frames (trace);
  guint shown = 0;

  for (; callsite < callsites->n_rows; callsite = callsites->parent[callsite])
    {
      guint32 frame = callsites->frame[callsite];
      g_autofree char *location = NULL;
      g_autofree char *line = NULL;

      if (max_frames > 0 && shown == max_frames)
        {
          guint rest = callsites->depth[callsite] + 1;

          g_string_append_c (out, '\n');
          /* Translators: the frames of a stack a tooltip leaves out */
          g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "… %u more frame",
                                                    "… %u more frames", rest), rest);
          return;
        }
      location = frame < frames->n_rows ? sps_trace_dup_frame_location (trace, frame) : NULL;
      if (location != NULL)
        line = g_markup_printf_escaped ("%s  <small>%s</small>",
                                        sps_trace_get_string (trace, frames->name[frame]), location);
      else
        line = g_markup_escape_text (frame < frames->n_rows
                                     ? sps_trace_get_string (trace, frames->name[frame]) : "", -1);
      if (shown > 0)
        g_string_append_c (out, '\n');
      g_string_append (out, line);
      shown++;
    }
}

/* The frames of @callsite, leaf first, one a line, as plain text */
char *
_sps_stack_text_dup (SpsTrace *trace,
                     guint32   callsite)
{
  const SpsCallsiteTable *callsites = sps_trace_get_callsites (trace);
  const SpsFrameTable *frames = sps_trace_get_frames (trace);
  GString *out = g_string_new (NULL);

  for (; callsite < callsites->n_rows; callsite = callsites->parent[callsite])
    {
      guint32 frame = callsites->frame[callsite];
      g_autofree char *location = sps_trace_dup_frame_location (trace, frame);

      if (out->len > 0)
        g_string_append_c (out, '\n');
      g_string_append (out, frame < frames->n_rows ? sps_trace_get_string (trace, frames->name[frame]) : "");
      if (location != NULL)
        g_string_append_printf (out, "  %s", location);
    }
  return g_string_free (out, FALSE);
}

/* The sample of sample track @track nearest to @t, at most @tolerance
 * away, or SPS_NO_INDEX. The track's samples are sorted by time. */
guint
_sps_stack_text_find_sample (SpsTrace *trace,
                             guint32   track,
                             SpsTime   t,
                             SpsTime   tolerance)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);

  if (track >= tracks->n_rows || tracks->kind[track] != SPS_TRACK_THREAD_SAMPLES)
    return SPS_NO_INDEX;
  return _sps_find_nearest_point (sps_trace_get_samples (trace)->ts, tracks->first_row[track],
                                  tracks->n_rows_in_track[track], t, tolerance);
}

/* A sample's tooltip: its leaf's name, when, the event it came in, its
 * weight if any, and its stack leaf first. */
char *
_sps_stack_text_sample_markup (SpsTrace *trace,
                               guint     sample)
{
  const SpsSampleTable *samples = sps_trace_get_samples (trace);
  g_autofree char *when = sps_time_format (samples->ts[sample] - sps_trace_get_start_time (trace));
  GString *out = g_string_new (NULL);
  g_autofree char *head = NULL;

  /* Translators: a stack sample's tooltip: its leaf frame's name, when it
   * was taken from the start of the trace, the name of the event it came in */
  head = g_markup_printf_escaped (_("<b>%s</b>\nSample at %s (%s)"),
                                  sps_trace_get_string (trace, samples->name[sample]), when,
                                  sps_trace_get_string (trace, sps_sample_table_get_event_name (samples, sample)));
  g_string_append (out, head);
  if (sps_sample_table_get_line (samples, sample) != 0)
    /* Translators: the source line in the leaf function a sample was taken at */
    g_string_append_printf (out, _("\nLine %u"), sps_sample_table_get_line (samples, sample));
  if ((sps_sample_table_get_flags (samples, sample) & SPS_SAMPLE_HAS_WEIGHT) != 0)
    /* Translators: a sample's weight, as written in the trace */
    g_string_append_printf (out, _("\nWeight: %g"), sps_sample_table_get_weight (samples, sample));
  if ((sps_sample_table_get_flags (samples, sample) & SPS_SAMPLE_UNRESOLVED) != 0)
    g_string_append (out, _("\nThe stack of this sample could not be resolved."));
  else if (samples->callsite[sample] != SPS_NO_INDEX)
    {
      g_string_append (out, "\n\n");
      _sps_stack_text_append_markup (out, trace, samples->callsite[sample], TOOLTIP_FRAMES);
    }
  return g_string_free (out, FALSE);
}
