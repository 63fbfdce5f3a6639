/* etrace-recorder.c: record helpers over the encoder, a clock and a transport
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "etrace.h"

/* Pseudo event types for transmit(): not on the wire as events. */
enum
{
  KIND_POLL = 0,
  KIND_TRACE_START = 5,
};

/* Reading the clock, numbering, encoding and writing happen in one critical
 * section: frames of concurrent callers never interleave on the transport,
 * and event times follow the wire order (no negative deltas). */
static etrace_status_t
transmit (etrace_t       *trace,
          etrace_event_t *event)
{
  uint8_t buf[ETRACE_ENCODE_BUFFER_SIZE];
  etrace_encoded_t out;
  etrace_status_t status;
  uint64_t now;
  ETRACE_LOCK_DECL

  if (trace == NULL || trace->write == NULL || trace->now_ticks == NULL)
    return ETRACE_ERR_ARGUMENT;

  ETRACE_LOCK ();
  now = trace->now_ticks (trace->clock_user);
  if (event->type == KIND_POLL)
    status = etrace_encoder_poll (&trace->encoder, now, buf, sizeof buf, &out);
  else if (event->type == KIND_TRACE_START)
    status = etrace_encoder_trace_start (&trace->encoder, now, event->value,
                                         buf, sizeof buf, &out);
  else
    {
      /* The encoder numbers the event only once it is known to be valid:
       * the host must not count a refused event as a lost frame. */
      event->timestamp = now;
      event->sequence = ETRACE_SEQUENCE_AUTO;
      status = etrace_encoder_encode (&trace->encoder, event, buf, sizeof buf,
                                      &out);
    }
  if (status >= 0 && out.len > 0
      && !trace->write (trace->transport_user, buf, out.len))
    {
      etrace_encoder_discard (&trace->encoder, &out);
      trace->transport_failures++;
      status = ETRACE_ERR_TRANSPORT;
    }
  ETRACE_UNLOCK ();
  return status;
}

/* The record helpers pass everything packed into two words so that each
 * compiles to a few instructions: code size is the scarce resource. */
enum
{
  PACK_SOURCE_SHIFT = 8,
  PACK_PRIORITY_SHIFT = 16,
  PACK_DEADLINE = 1u << 24,
  PACK_VALUE = 1u << 25,
};

static etrace_status_t
record (etrace_t   *trace,
        const char *name,
        uint32_t    packed,
        uint32_t    extra)
{
  etrace_event_t event;
  union
  {
    uint32_t u;
    float f;
  } deadline;

  deadline.u = extra;
  event.name = name;
  event.type = (uint8_t) packed;
  event.source = (uint8_t) (packed >> PACK_SOURCE_SHIFT);
  event.priority = (uint8_t) (packed >> PACK_PRIORITY_SHIFT);
  event.has_deadline = (packed & PACK_DEADLINE) != 0;
  event.deadline_ms = deadline.f;
  event.has_value = (packed & PACK_VALUE) != 0;
  event.value = extra;
  return transmit (trace, &event);
}

/**
 * etrace_init:
 * @trace: the recorder
 * @config: transport, clock and timebase; copied
 *
 * Prepares @trace. Nothing is sent until etrace_start().
 */
void
etrace_init (etrace_t              *trace,
             const etrace_config_t *config)
{
  if (trace == NULL || config == NULL)
    return;
  etrace_encoder_init (&trace->encoder, config->timebase,
                       config->core_frequency_hz);
  trace->write = config->write;
  trace->transport_user = config->transport_user;
  trace->now_ticks = config->now_ticks;
  trace->clock_user = config->clock_user;
  trace->transport_failures = 0;
}

/**
 * etrace_start:
 * @trace: the recorder
 * @source_mask: bit mask of the source groups compiled into the firmware
 *
 * Sends the stream header (TRACE_START) with the timebase. Call once after
 * etrace_init(), before recording.
 *
 * Returns: %ETRACE_OK or %ETRACE_ERR_TRANSPORT
 */
etrace_status_t
etrace_start (etrace_t *trace,
              uint32_t  source_mask)
{
  return record (trace, NULL, KIND_TRACE_START, source_mask);
}

/**
 * etrace_span_start:
 * @trace: the recorder
 * @name: span name, at most %ETRACE_MAX_NAME_LENGTH bytes; must outlive
 *   @trace (a string literal)
 * @source: %ETRACE_SOURCE_ISR or %ETRACE_SOURCE_TASK
 * @priority: scheduler priority, 0 = unknown
 *
 * Records the start of an activation of @name. Source and priority are
 * sent once per name, in its dictionary entry.
 *
 * Returns: an #etrace_status_t; negative means nothing was sent
 */
etrace_status_t
etrace_span_start (etrace_t        *trace,
                   const char      *name,
                   etrace_source_t  source,
                   uint8_t          priority)
{
  return record (trace, name,
                 ETRACE_EVENT_SPAN_START
                 | (uint32_t) source << PACK_SOURCE_SHIFT
                 | (uint32_t) priority << PACK_PRIORITY_SHIFT, 0);
}

/**
 * etrace_span_start_deadline:
 * @trace: the recorder
 * @name: span name (see etrace_span_start())
 * @source: %ETRACE_SOURCE_ISR or %ETRACE_SOURCE_TASK
 * @priority: scheduler priority, 0 = unknown
 * @deadline_ms: deadline relative to the start, in milliseconds
 *
 * Like etrace_span_start(), with a deadline: the host flags every span of
 * @name that ends later than start + @deadline_ms.
 *
 * Returns: an #etrace_status_t; negative means nothing was sent
 */
etrace_status_t
etrace_span_start_deadline (etrace_t        *trace,
                            const char      *name,
                            etrace_source_t  source,
                            uint8_t          priority,
                            float            deadline_ms)
{
  union
  {
    float f;
    uint32_t u;
  } deadline;

  deadline.f = deadline_ms;
  return record (trace, name,
                 ETRACE_EVENT_SPAN_START
                 | (uint32_t) source << PACK_SOURCE_SHIFT
                 | (uint32_t) priority << PACK_PRIORITY_SHIFT
                 | PACK_DEADLINE, deadline.u);
}

/**
 * etrace_span_end:
 * @trace: the recorder
 * @name: span name
 *
 * Records the end of the open span of @name.
 *
 * Returns: an #etrace_status_t; negative means nothing was sent
 */
etrace_status_t
etrace_span_end (etrace_t   *trace,
                 const char *name)
{
  return record (trace, name, ETRACE_EVENT_SPAN_END, 0);
}

/**
 * etrace_marker:
 * @trace: the recorder
 * @name: marker name
 *
 * Records a point in time.
 *
 * Returns: an #etrace_status_t; negative means nothing was sent
 */
etrace_status_t
etrace_marker (etrace_t   *trace,
               const char *name)
{
  return record (trace, name, ETRACE_EVENT_MARKER, 0);
}

/**
 * etrace_marker_value:
 * @trace: the recorder
 * @name: marker name
 * @value: payload (an iteration counter, a state, ...)
 *
 * Records a point in time with a value.
 *
 * Returns: an #etrace_status_t; negative means nothing was sent
 */
etrace_status_t
etrace_marker_value (etrace_t   *trace,
                     const char *name,
                     uint32_t    value)
{
  return record (trace, name, ETRACE_EVENT_MARKER | PACK_VALUE, value);
}

/**
 * etrace_poll:
 * @trace: the recorder
 *
 * Sends the rest of a due re-emission cycle, one frame per critical
 * section. Call it from a periodic low-priority context (say once a second)
 * if events can stop for longer than the re-emission period, or, in CYCLES
 * mode, for more than 2^31 cycles.
 *
 * Returns: %ETRACE_OK or %ETRACE_ERR_TRANSPORT
 */
etrace_status_t
etrace_poll (etrace_t *trace)
{
  etrace_status_t status;

  do
    status = record (trace, NULL, KIND_POLL, 0);
  while (status == ETRACE_OK && trace->encoder.cursor != 0);
  return status;
}

/**
 * etrace_transport_failures:
 * @trace: the recorder
 *
 * Returns: how many calls the transport refused since etrace_init()
 */
uint32_t
etrace_transport_failures (const etrace_t *trace)
{
  if (trace == NULL)
    return 0;
  return trace->transport_failures;
}
