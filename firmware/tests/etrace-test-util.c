/* etrace-test-util.c: decoding helpers for the firmware tests
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Decodes a stream with the protobuf-c code generated from tracing.proto,
 * the same decoder the host importer uses, and checks on the way that every
 * frame is canonical: packing the decoded message again with protobuf-c
 * gives back exactly the bytes the firmware encoder wrote.
 */

#define G_LOG_DOMAIN "etrace-test"

#include "config.h"

#include <string.h>

#include "etrace-test-util.h"

static void
et_frame_clear (gpointer data)
{
  EtFrame *frame = data;

  g_free (frame->name);
}

/* Reads one varint length prefix; the frames here are < 128 bytes, but a
 * decoder must take any prefix. */
static gsize
read_prefix (const guint8 *data,
             gsize         len,
             gsize        *pos)
{
  guint64 value = 0;
  guint shift = 0;

  while (*pos < len)
    {
      guint8 byte = data[(*pos)++];

      value |= (guint64) (byte & 0x7f) << shift;
      if ((byte & 0x80) == 0)
        return value;
      shift += 7;
      g_assert_cmpuint (shift, <, 64);
    }
  g_assert_not_reached ();
}

GArray *
et_decode_stream (const guint8 *data,
                  gsize         len)
{
  GArray *frames = g_array_new (FALSE, TRUE, sizeof (EtFrame));
  gint64 clock = 0;
  gsize pos = 0;

  g_array_set_clear_func (frames, et_frame_clear);

  while (pos < len)
    {
      gsize start = pos;
      gsize payload_len = read_prefix (data, len, &pos);
      Tracing__TraceFrame *msg;
      guint8 repacked[ETRACE_MAX_FRAME_SIZE];
      EtFrame frame = { 0 };

      g_assert_cmpuint (pos + payload_len, <=, len);
      msg = tracing__trace_frame__unpack (NULL, payload_len, data + pos);
      g_assert_nonnull (msg);

      g_assert_cmpuint (tracing__trace_frame__get_packed_size (msg), ==, payload_len);
      g_assert_cmpuint (tracing__trace_frame__pack (msg, repacked), ==, payload_len);
      g_assert_cmpmem (repacked, payload_len, data + pos, payload_len);

      if (msg->event_type == TRACING__TRACE_EVENT_TYPE__TRACE_START
          || msg->event_type == TRACING__TRACE_EVENT_TYPE__NAME_REGISTERED)
        clock = msg->timestamp_ticks;
      else
        clock += msg->timestamp_ticks;

      frame.type = msg->event_type;
      frame.offset = start;
      frame.size = pos + payload_len - start;
      frame.ticks = msg->timestamp_ticks;
      frame.clock = clock;
      frame.name_id = msg->name_id;
      frame.sequence = msg->sequence;
      frame.has_value = msg->has_marker_value_case == TRACING__TRACE_FRAME__HAS_MARKER_VALUE_MARKER_VALUE;
      frame.value = msg->marker_value;
      if (msg->event_type == TRACING__TRACE_EVENT_TYPE__NAME_REGISTERED)
        frame.name = g_strdup (msg->name);
      else
        g_assert_cmpstr (msg->name, ==, "");
      frame.source = msg->source_type;
      frame.priority = msg->priority;
      frame.has_deadline = msg->has_relative_deadline_ms_case == TRACING__TRACE_FRAME__HAS_RELATIVE_DEADLINE_MS_RELATIVE_DEADLINE_MS;
      frame.deadline_ms = msg->relative_deadline_ms;
      frame.timebase = msg->timebase;
      frame.core_frequency_hz = msg->core_frequency_hz;
      frame.source_mask = msg->source_mask;
      g_array_append_val (frames, frame);

      tracing__trace_frame__free_unpacked (msg, NULL);
      pos += payload_len;
    }

  return frames;
}

const EtFrame *
et_frame (GArray *frames,
          guint   index)
{
  g_assert_cmpuint (index, <, frames->len);
  return &g_array_index (frames, EtFrame, index);
}

/* The name of the event at @index, as a host that read the stream from the
 * start knows it: the latest dictionary entry for its id before it, or NULL
 * if there is none (id 0, or never registered). */
const char *
et_resolve_name (GArray *frames,
                 guint   index)
{
  guint32 id = et_frame (frames, index)->name_id;
  guint i;

  if (id == 0)
    return NULL;
  for (i = index; i-- > 0;)
    {
      const EtFrame *f = et_frame (frames, i);

      if (f->type == TRACING__TRACE_EVENT_TYPE__NAME_REGISTERED && f->name_id == id)
        return f->name;
    }
  return NULL;
}
