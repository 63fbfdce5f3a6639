/* etrace-stream.h: writes embedded trace v2 streams for tests and the
 * benchmark, with protobuf-c (an encoder independent of the decoder's
 * framing code)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <math.h>

#include <glib.h>

#include "tracing.pb-c.h"
#include "tracing_v1.pb-c.h"

/* Appends one frame: varint length, then the packed message. */
static inline void
etrace_stream_put (GByteArray                *out,
                   const Tracing__TraceFrame *frame)
{
  guint8 buf[256];
  gsize len = tracing__trace_frame__get_packed_size (frame);
  gsize n = 0;
  guint64 v = len;

  g_assert (len < 128);
  do
    {
      buf[n++] = (guint8) ((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
      v >>= 7;
    }
  while (v != 0);
  tracing__trace_frame__pack (frame, buf + n);
  g_byte_array_append (out, buf, n + len);
}

static inline void
etrace_stream_start (GByteArray *out,
                     gint64      ts,
                     guint32     seq,
                     gboolean    cycles,
                     guint32     core_frequency_hz)
{
  Tracing__TraceFrame f = TRACING__TRACE_FRAME__INIT;

  f.event_type = TRACING__TRACE_EVENT_TYPE__TRACE_START;
  f.timestamp_ticks = ts;
  f.sequence = seq;
  f.timebase = cycles ? TRACING__TIME_BASE__CYCLES : TRACING__TIME_BASE__NANOSECONDS;
  f.core_frequency_hz = core_frequency_hz;
  f.source_mask = 0x1f;
  etrace_stream_put (out, &f);
}

/* @deadline_ms: NAN for none; @source 0 for a bare entry */
static inline void
etrace_stream_name (GByteArray *out,
                    gint64      ts,
                    guint32     seq,
                    guint32     id,
                    const char *name,
                    guint       source,
                    guint32     priority,
                    float       deadline_ms)
{
  Tracing__TraceFrame f = TRACING__TRACE_FRAME__INIT;

  f.event_type = TRACING__TRACE_EVENT_TYPE__NAME_REGISTERED;
  f.timestamp_ticks = ts;
  f.sequence = seq;
  f.name_id = id;
  f.name = (char *) name;
  f.source_type = (Tracing__TraceEventSourceType) source;
  f.priority = priority;
  if (!isnan (deadline_ms))
    {
      f.has_relative_deadline_ms_case = TRACING__TRACE_FRAME__HAS_RELATIVE_DEADLINE_MS_RELATIVE_DEADLINE_MS;
      f.relative_deadline_ms = deadline_ms;
    }
  etrace_stream_put (out, &f);
}

/* @type: 1 start, 2 end, 3 marker; @value < 0 for none */
static inline void
etrace_stream_event (GByteArray *out,
                     guint       type,
                     gint64      delta,
                     guint32     seq,
                     guint32     id,
                     gint64      value)
{
  Tracing__TraceFrame f = TRACING__TRACE_FRAME__INIT;

  f.event_type = (Tracing__TraceEventType) type;
  f.timestamp_ticks = delta;
  f.sequence = seq;
  f.name_id = id;
  if (value >= 0)
    {
      f.has_marker_value_case = TRACING__TRACE_FRAME__HAS_MARKER_VALUE_MARKER_VALUE;
      f.marker_value = (guint32) value;
    }
  etrace_stream_put (out, &f);
}

/* A v1 event: the name and its attributes travel with every event.
 * @type: 1 start, 2 end, 3 marker; @source: 1 ISR, 2 task */
static inline void
etrace_stream_v1 (GByteArray *out,
                  guint       type,
                  guint64     ts,
                  guint32     seq,
                  const char *name,
                  guint       source,
                  guint32     priority)
{
  Tracing__V1__TraceEvent e = TRACING__V1__TRACE_EVENT__INIT;
  guint8 buf[128];
  gsize len;

  e.event_type = (Tracing__V1__TraceEventType) type;
  e.timestamp_ns = ts;
  e.sequence = seq;
  e.name = (char *) name;
  e.source_type = (Tracing__V1__TraceEventSourceType) source;
  e.priority = priority;
  g_assert (tracing__v1__trace_event__get_packed_size (&e) < 128);
  len = tracing__v1__trace_event__pack (&e, buf + 1);
  buf[0] = (guint8) len;
  g_byte_array_append (out, buf, len + 1);
}
