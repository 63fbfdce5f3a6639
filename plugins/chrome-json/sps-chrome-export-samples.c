/* sps-chrome-export-samples.c: samples and stack frames of the Chrome JSON exporter
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-chrome-exporter"

#include "config.h"

#include <math.h>
#include <string.h>

#include "sps-chrome-exporter-private.h"

/* Samples: P events whose `sf` is a callsite index, the key of the
 * top-level stackFrames dictionary written from the callsite tree. */

static const char *
weight_unit_name (SpsWeightUnit unit)
{
  switch (unit)
    {
    case SPS_WEIGHT_UNIT_NS:
      return "ns";
    case SPS_WEIGHT_UNIT_US:
      return "us";
    case SPS_WEIGHT_UNIT_MS:
      return "ms";
    case SPS_WEIGHT_UNIT_S:
      return "s";
    case SPS_WEIGHT_UNIT_NONE:
    default:
      return NULL;
    }
}

/* An unresolved stack keeps its raw `sf`, which again names no frame: the
 * stackFrames written here only have decimal keys, so a decimal raw
 * reference, which could name one of them, is written as null instead
 * (a reference that is not text: unresolved too). */
static void
append_unresolved_stack (Writer  *w,
                         guint32  raw)
{
  gsize len = 0;
  const char *str = raw != 0 ? sps_string_pool_get (w->strings, raw, &len) : NULL;
  gboolean decimal = TRUE;

  for (gsize i = 0; str != NULL && i < len; i++)
    decimal &= g_ascii_isdigit (str[i]) || (i == 0 && str[i] == '-');

  sps_chrome_writer_key (w, "sf");
  if (str == NULL || len == 0 || decimal)
    sps_chrome_out_literal (w->buf, "null");
  else
    sps_chrome_out_string (w->buf, str, len);
}

gboolean
sps_chrome_write_samples (Writer  *w,
                          GError **error)
{
  const SpsSampleTable *samples = sps_trace_get_samples (w->trace);
  const SpsCallsiteTable *callsites = sps_trace_get_callsites (w->trace);

  for (guint i = 0; i < samples->n_rows; i++)
    {
      guint8 flags = samples->flags[i];
      guint32 thread = samples->thread[i];
      const char *unit;

      if (thread == SPS_NO_INDEX)
        thread = sps_chrome_writer_track_thread (w, samples->track[i]);

      sps_chrome_writer_begin_event (w, 'P');
      sps_chrome_writer_append_name (w, samples->event_name[i]);
      sps_chrome_writer_append_thread (w, thread);
      sps_chrome_writer_ts (w, "ts", samples->ts[i]);
      if ((flags & SPS_SAMPLE_UNRESOLVED) != 0)
        {
          append_unresolved_stack (w, samples->raw_stack_ref[i]);
        }
      else if (samples->callsite[i] < callsites->n_rows)
        {
          sps_chrome_writer_key (w, "sf");
          g_string_append_c (w->buf, '"');
          sps_chrome_out_uint64 (w->buf, samples->callsite[i]);
          g_string_append_c (w->buf, '"');
        }
      if ((flags & SPS_SAMPLE_HAS_WEIGHT) != 0 && !isnan (samples->weight[i]))
        {
          sps_chrome_writer_key (w, "weight");
          sps_chrome_out_double (w->buf, samples->weight[i]);
          unit = weight_unit_name ((SpsWeightUnit) samples->weight_unit[i]);
          if (unit != NULL)
            {
              sps_chrome_writer_key (w, "weightUnit");
              sps_chrome_out_string (w->buf, unit, strlen (unit));
            }
        }
      if (!sps_chrome_writer_end_event (w, error) || !sps_chrome_writer_advance (w, error))
        return FALSE;
    }

  return TRUE;
}

gboolean
sps_chrome_write_stack_frames (Writer  *w,
                               GError **error)
{
  const SpsCallsiteTable *callsites = sps_trace_get_callsites (w->trace);
  const SpsFrameTable *frames = sps_trace_get_frames (w->trace);

  sps_chrome_out_literal (w->buf, ",\n\"stackFrames\":{");
  for (guint i = 0; i < callsites->n_rows; i++)
    {
      guint32 frame = callsites->frame[i];

      if (i > 0)
        sps_chrome_out_literal (w->buf, ",\n");
      g_string_append_c (w->buf, '"');
      sps_chrome_out_uint64 (w->buf, i);
      sps_chrome_out_literal (w->buf, "\":{\"name\":");
      if (frame < frames->n_rows)
        sps_chrome_writer_append_string_id (w, frames->name[frame]);
      else
        sps_chrome_out_literal (w->buf, "\"\"");
      if (frame < frames->n_rows && !sps_chrome_writer_string_id_is_empty (w, frames->category[frame]))
        {
          sps_chrome_out_literal (w->buf, ",\"category\":");
          sps_chrome_writer_append_string_id (w, frames->category[frame]);
        }
      if (callsites->parent[i] != SPS_NO_INDEX)
        {
          sps_chrome_out_literal (w->buf, ",\"parent\":\"");
          sps_chrome_out_uint64 (w->buf, callsites->parent[i]);
          g_string_append_c (w->buf, '"');
        }
      g_string_append_c (w->buf, '}');
      if (w->buf->len >= CHUNK_SIZE && !sps_chrome_writer_flush (w, error))
        return FALSE;
    }
  g_string_append_c (w->buf, '}');

  return TRUE;
}
