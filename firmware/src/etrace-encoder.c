/* etrace-encoder.c: hand-written execution-trace v2 frame encoder
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Writes TraceFrame messages (firmware/proto/tracing.proto) field by field,
 * in field-number order, omitting fields equal to their proto3 default just
 * as a protobuf encoder does, so the bytes match a protobuf-c encoding of
 * the same message. Every tag fits in one byte (field numbers <= 15) and
 * every frame is shorter than 128 bytes, so the length prefix is one byte.
 */

#include "etrace.h"

/* Code size matters more than speed here: one copy of the varint loop. */
#if defined(__GNUC__) || defined(__clang__)
# define NOINLINE __attribute__ ((noinline))
#else
# define NOINLINE
#endif

/* Tag bytes: (field number << 3) | wire type. */
enum
{
  TAG_TIMESTAMP = 0x08,
  TAG_NAME_ID = 0x10,
  TAG_EVENT_TYPE = 0x18,
  TAG_SEQUENCE = 0x20,
  TAG_MARKER_VALUE = 0x28,
  TAG_NAME = 0x32,
  TAG_SOURCE_TYPE = 0x38,
  TAG_PRIORITY = 0x40,
  TAG_DEADLINE = 0x4d,
  TAG_TIMEBASE = 0x50,
  TAG_CORE_FREQUENCY = 0x58,
  TAG_SOURCE_MASK = 0x60,
};

enum
{
  TYPE_NAME_REGISTERED = 4,
  TYPE_TRACE_START = 5,
};

/* etrace_encoder_t.name_flags[] */
enum
{
  ENTRY_SOURCE_MASK = 0x03,
  ENTRY_HAS_ATTRIBUTES = 0x04,
  ENTRY_HAS_DEADLINE = 0x08,
  ENTRY_ANNOUNCED = 0x10,
};

/* etrace_encoder_t.flags */
enum
{
  ENCODER_HEADER = 0x01,
  ENCODER_CYCLES_SEEN = 0x02,
  ENCODER_REEMIT_ARMED = 0x04,
};

/* etrace_encoder_t.cursor: 0 = no re-emission running, CURSOR_HEADER = the
 * stream header is next, CURSOR_HEADER + 1 + i = dictionary entry i is next. */
#define CURSOR_HEADER 1u

NOINLINE static uint8_t *
put_varint (uint8_t  *p,
            uint64_t  value)
{
  while (value >= 0x80)
    {
      *p++ = (uint8_t) (value | 0x80);
      value >>= 7;
    }
  *p++ = (uint8_t) value;
  return p;
}

/* A varint field. Only the timestamp needs 64 bits; taking the others as
 * 32-bit values keeps every call site short on a 32-bit CPU. */
static uint8_t *
put_field (uint8_t  *p,
           uint8_t   tag,
           uint32_t  value)
{
  *p++ = tag;
  return put_varint (p, value);
}

/* proto3 leaves out scalar fields that hold their default. */
static uint8_t *
put_nonzero (uint8_t  *p,
             uint8_t   tag,
             uint32_t  value)
{
  return value != 0 ? put_field (p, tag, value) : p;
}

/* sint64: zigzag maps 0, -1, 1, -2, ... to 0, 1, 2, 3, ...; @value holds the
 * two's complement bits of the signed number. */
static uint64_t
zigzag (uint64_t value)
{
  return (value << 1) ^ (0u - (value >> 63));
}

/* fixed32: little-endian IEEE 754 binary32 whatever the CPU's byte order;
 * copying the bits needs no floating-point code. */
static uint8_t *
put_float (uint8_t *p,
           float    value)
{
  union
  {
    float f;
    uint32_t u;
  } bits;

  bits.f = value;
  p[0] = (uint8_t) bits.u;
  p[1] = (uint8_t) (bits.u >> 8);
  p[2] = (uint8_t) (bits.u >> 16);
  p[3] = (uint8_t) (bits.u >> 24);
  return p + 4;
}

/* Fills in the length prefix reserved at @frame[0]. */
static size_t
finish_frame (uint8_t *frame,
              uint8_t *end)
{
  size_t len = (size_t) (end - frame);

  frame[0] = (uint8_t) (len - 1);
  return len;
}

static uint16_t
take_sequence (etrace_encoder_t *enc)
{
  uint16_t sequence = enc->sequence;

  enc->sequence = (uint16_t) ((sequence + 1u) % ETRACE_SEQUENCE_MODULUS);
  return sequence;
}

/* In CYCLES mode the caller passes the raw 32-bit counter. Consecutive
 * readings are less than 2^31 cycles apart (either way: an event recorded
 * before the previous one may be encoded after it), so the signed 32-bit
 * difference moves the 64-bit value across any number of wraps. */
static uint64_t
extend_clock (etrace_encoder_t *enc,
              uint64_t          timestamp)
{
  uint32_t raw;

  if (enc->timebase != ETRACE_TIMEBASE_CYCLES)
    return timestamp;

  raw = (uint32_t) timestamp;
  if ((enc->flags & ENCODER_CYCLES_SEEN) == 0)
    {
      enc->cycles = raw;
      enc->flags |= ENCODER_CYCLES_SEEN;
    }
  else
    {
      int32_t step = (int32_t) (raw - (uint32_t) enc->cycles);

      enc->cycles += (uint64_t) (int64_t) step;
    }
  return enc->cycles;
}

/* Every frame class starts with fields 1-4; zero ones are left out (a
 * header has no name id, an unknown name has id 0). The timestamp field is
 * @ticks (a delta or an absolute time) and the frame's time is @timestamp. */
static uint8_t *
begin_frame (etrace_encoder_t *enc,
             uint8_t          *frame,
             uint64_t          ticks,
             uint64_t          timestamp,
             unsigned          name_id,
             unsigned          type,
             unsigned          sequence)
{
  uint8_t *p = frame + 1;

  ticks = zigzag (ticks);
  if (ticks != 0)
    {
      *p++ = TAG_TIMESTAMP;
      p = put_varint (p, ticks);
    }
  p = put_nonzero (p, TAG_NAME_ID, name_id);
  p = put_field (p, TAG_EVENT_TYPE, type);
  p = put_nonzero (p, TAG_SEQUENCE, sequence);
  enc->clock = timestamp;
  return p;
}

static size_t
write_header_frame (etrace_encoder_t *enc,
                    uint64_t          timestamp,
                    uint8_t          *frame)
{
  uint8_t *p;

  p = begin_frame (enc, frame, timestamp, timestamp, 0, TYPE_TRACE_START,
                   take_sequence (enc));
  p = put_nonzero (p, TAG_TIMEBASE, enc->timebase);
  p = put_nonzero (p, TAG_CORE_FREQUENCY, enc->core_frequency_hz);
  p = put_nonzero (p, TAG_SOURCE_MASK, enc->source_mask);
  return finish_frame (frame, p);
}

static size_t
write_name_frame (etrace_encoder_t *enc,
                  unsigned          index,
                  uint64_t          timestamp,
                  uint8_t          *frame)
{
  const char *name = enc->names[index];
  uint8_t flags = enc->name_flags[index];
  uint8_t *p;
  uint8_t *length;

  p = begin_frame (enc, frame, timestamp, timestamp, index + 1u,
                   TYPE_NAME_REGISTERED, take_sequence (enc));
  *p++ = TAG_NAME;
  length = p++;
  /* Names were checked to be 1-32 bytes when registered; the bound only
   * guards the frame if the caller broke the rule and changed one since. */
  while (*name != '\0' && p <= length + ETRACE_MAX_NAME_LENGTH)
    *p++ = (uint8_t) *name++;
  *length = (uint8_t) (p - length - 1);
  p = put_nonzero (p, TAG_SOURCE_TYPE, flags & ENTRY_SOURCE_MASK);
  p = put_nonzero (p, TAG_PRIORITY, enc->priorities[index]);
  if ((flags & ENTRY_HAS_DEADLINE) != 0)
    {
      *p++ = TAG_DEADLINE;
      p = put_float (p, enc->deadlines_ms[index]);
    }
  enc->name_flags[index] = flags | ENTRY_ANNOUNCED;
  return finish_frame (frame, p);
}

static size_t
write_event_frame (etrace_encoder_t     *enc,
                   const etrace_event_t *event,
                   unsigned              name_id,
                   unsigned              sequence,
                   uint64_t              timestamp,
                   uint8_t              *frame)
{
  uint8_t *p;

  p = begin_frame (enc, frame, timestamp - enc->clock, timestamp, name_id,
                   event->type, sequence);
  if (event->type == ETRACE_EVENT_MARKER && event->has_value)
    p = put_field (p, TAG_MARKER_VALUE, event->value);
  return finish_frame (frame, p);
}

/* Same text: the dictionary keeps the caller's pointer, so compare
 * addresses first; a copy of the name elsewhere (another translation unit)
 * still matches by content. */
static bool
same_name (const char *a,
           const char *b)
{
  if (a == b)
    return true;
  while (*a != '\0' && *a == *b)
    {
      a++;
      b++;
    }
  return *a == *b;
}

/* Returns the entry index, or -1 when the name is new and the dictionary is
 * full. A name first seen on an end or a marker is registered bare; its
 * first SPAN_START fills in the attributes and queues the entry to be sent
 * again. Attributes are fixed per name: later starts cannot change them. */
static int
lookup_name (etrace_encoder_t     *enc,
             const etrace_event_t *event)
{
  unsigned i;

  for (i = 0; i < enc->count; i++)
    {
      if (same_name (enc->names[i], event->name))
        break;
    }

  if (i == enc->count)
    {
      if (i == ETRACE_NAME_CAPACITY)
        return -1;
      enc->names[i] = event->name;
      enc->name_flags[i] = 0;
      enc->priorities[i] = 0;
      enc->deadlines_ms[i] = 0.0f;
      enc->count++;
    }
  if (event->type == ETRACE_EVENT_SPAN_START
      && (enc->name_flags[i] & ENTRY_HAS_ATTRIBUTES) == 0)
    {
      enc->name_flags[i] = (uint8_t) (event->source | ENTRY_HAS_ATTRIBUTES);
      enc->priorities[i] = event->priority;
      if (event->has_deadline)
        {
          enc->name_flags[i] |= ENTRY_HAS_DEADLINE;
          enc->deadlines_ms[i] = event->deadline_ms;
        }
    }
  return (int) i;
}

/* Periodic re-emission: once the period has passed, each encoder call (or
 * poll) sends one more frame of the cycle, the stream header and then every
 * dictionary entry, so a call never writes more than two frames. */
static size_t
write_reemission (etrace_encoder_t *enc,
                  uint64_t          timestamp,
                  uint8_t          *frame)
{
  size_t len;

  if (enc->cursor == 0)
    {
      if (enc->reemit_period == 0)
        return 0;
      if ((enc->flags & ENCODER_REEMIT_ARMED) == 0)
        {
          enc->next_reemit = timestamp + enc->reemit_period;
          enc->flags |= ENCODER_REEMIT_ARMED;
          return 0;
        }
      if ((int64_t) (timestamp - enc->next_reemit) < 0)
        return 0;
      if ((enc->flags & ENCODER_HEADER) != 0)
        enc->cursor = CURSOR_HEADER;
      else if (enc->count > 0)
        enc->cursor = CURSOR_HEADER + 1;
      else
        return 0;
    }

  if (enc->cursor == CURSOR_HEADER)
    {
      /* Never older than the host's clock: a header going back in time
       * means a device reset. */
      if ((int64_t) (timestamp - enc->clock) < 0)
        timestamp = enc->clock;
      len = write_header_frame (enc, timestamp, frame);
    }
  else
    {
      len = write_name_frame (enc, enc->cursor - CURSOR_HEADER - 1u,
                              timestamp, frame);
    }

  enc->cursor++;
  if (enc->cursor - CURSOR_HEADER - 1u >= enc->count)
    {
      enc->cursor = 0;
      enc->next_reemit = timestamp + enc->reemit_period;
    }
  return len;
}

static void
begin_output (const etrace_encoder_t *enc,
              etrace_encoded_t       *out)
{
  out->len = 0;
  out->name_registry_full = false;
  out->prev_clock_ = enc->clock;
  out->prev_cursor_ = enc->cursor;
  out->announced_ = 0;
}

/**
 * etrace_name_length:
 * @name: (nullable): a NUL-terminated name
 *
 * Returns: the length of @name in bytes, or 0 if it is NULL, empty or longer
 *   than %ETRACE_MAX_NAME_LENGTH (reads at most that many bytes plus one)
 */
size_t
etrace_name_length (const char *name)
{
  size_t len;

  if (name == NULL)
    return 0;
  for (len = 0; len <= ETRACE_MAX_NAME_LENGTH; len++)
    {
      if (name[len] == '\0')
        return len;
    }
  return 0;
}

/**
 * etrace_encoder_init:
 * @enc: the encoder
 * @timebase: unit of the timestamps passed in
 * @core_frequency_hz: core clock for %ETRACE_TIMEBASE_CYCLES, else 0
 *
 * Empties the dictionary and restarts sequence numbers at 0. Sets the
 * re-emission period to %ETRACE_REEMIT_PERIOD_MS.
 */
void
etrace_encoder_init (etrace_encoder_t  *enc,
                     etrace_timebase_t  timebase,
                     uint32_t           core_frequency_hz)
{
  uint64_t period;

  if (enc == NULL)
    return;

  /* The dictionary arrays are filled as names arrive. */
  enc->clock = 0;
  enc->cycles = 0;
  enc->next_reemit = 0;
  enc->core_frequency_hz = 0;
  enc->source_mask = 0;
  enc->sequence = 0;
  enc->cursor = 0;
  enc->count = 0;
  enc->flags = 0;
  enc->timebase = (uint8_t) timebase;
  if (timebase == ETRACE_TIMEBASE_CYCLES)
    {
      enc->core_frequency_hz = core_frequency_hz;
      /* A 32-bit division: no 64-bit division helper gets linked in. */
      period = (uint64_t) (core_frequency_hz / 1000u) * ETRACE_REEMIT_PERIOD_MS;
    }
  else
    {
      period = (uint64_t) 1000000u * ETRACE_REEMIT_PERIOD_MS;
    }
  enc->reemit_period = period;
}

/**
 * etrace_encoder_set_reemit_period:
 * @enc: the encoder
 * @ticks: period in timestamp units, 0 to stop re-emitting
 *
 * The next cycle starts @ticks after the next encoded event.
 */
void
etrace_encoder_set_reemit_period (etrace_encoder_t *enc,
                                  uint64_t          ticks)
{
  if (enc == NULL)
    return;
  enc->reemit_period = ticks;
  enc->flags &= (uint8_t) ~ENCODER_REEMIT_ARMED;
  enc->cursor = 0;
}

/**
 * etrace_encoder_next_sequence:
 * @enc: the encoder
 *
 * Takes the next sequence number for an event, at the moment it is recorded
 * (before any queue), so the host can tell when frames go missing.
 * Dictionary and header frames take theirs when they are written: one
 * counter, modulo %ETRACE_SEQUENCE_MODULUS.
 *
 * Returns: the number for the event
 */
uint16_t
etrace_encoder_next_sequence (etrace_encoder_t *enc)
{
  if (enc == NULL)
    return 0;
  return take_sequence (enc);
}

/**
 * etrace_encoder_trace_start:
 * @enc: the encoder
 * @timestamp: now
 * @source_mask: bit mask of the source groups compiled into the firmware
 * @buf: output
 * @cap: size of @buf, at least %ETRACE_MAX_HEADER_FRAME_SIZE
 * @out: what was written
 *
 * Writes the stream header (TRACE_START), which declares the timebase. Call
 * it once before the first event; it is repeated with the dictionary.
 *
 * Returns: %ETRACE_OK, or %ETRACE_ERR_ARGUMENT or %ETRACE_ERR_BUFFER with
 *   nothing written
 */
etrace_status_t
etrace_encoder_trace_start (etrace_encoder_t *enc,
                            uint64_t          timestamp,
                            uint32_t          source_mask,
                            uint8_t          *buf,
                            size_t            cap,
                            etrace_encoded_t *out)
{
  if (enc == NULL || buf == NULL || out == NULL)
    return ETRACE_ERR_ARGUMENT;
  begin_output (enc, out);
  if (cap < ETRACE_MAX_HEADER_FRAME_SIZE)
    return ETRACE_ERR_BUFFER;

  /* The header is the first frame of a re-emission cycle: after it, the
   * cycle repeats any names already registered (none at start-up) and
   * schedules the next one. */
  enc->source_mask = source_mask;
  enc->flags |= ENCODER_HEADER | ENCODER_REEMIT_ARMED;
  enc->cursor = CURSOR_HEADER;
  out->len = write_reemission (enc, extend_clock (enc, timestamp), buf);
  return ETRACE_OK;
}

/**
 * etrace_encoder_encode:
 * @enc: the encoder
 * @event: the event
 * @buf: output
 * @cap: size of @buf, at least %ETRACE_ENCODE_BUFFER_SIZE
 * @out: what was written
 *
 * Encodes @event, preceded by its dictionary entry the first time its name
 * is seen (or by one frame of a due re-emission cycle): at most two frames.
 *
 * Returns: %ETRACE_OK; %ETRACE_DICTIONARY_FULL if the event was written with
 *   name id 0; %ETRACE_ERR_NAME, %ETRACE_ERR_ARGUMENT or %ETRACE_ERR_BUFFER
 *   with nothing written and the state unchanged
 */
etrace_status_t
etrace_encoder_encode (etrace_encoder_t     *enc,
                       const etrace_event_t *event,
                       uint8_t              *buf,
                       size_t                cap,
                       etrace_encoded_t     *out)
{
  etrace_status_t status = ETRACE_OK;
  uint64_t timestamp;
  uint8_t *p = buf;
  unsigned sequence;
  int index;

  if (enc == NULL || event == NULL || buf == NULL || out == NULL)
    return ETRACE_ERR_ARGUMENT;
  begin_output (enc, out);
  if (event->type < ETRACE_EVENT_SPAN_START
      || event->type > ETRACE_EVENT_MARKER)
    return ETRACE_ERR_ARGUMENT;
  if (event->type == ETRACE_EVENT_SPAN_START
      && event->source != ETRACE_SOURCE_ISR
      && event->source != ETRACE_SOURCE_TASK)
    return ETRACE_ERR_ARGUMENT;
  if (etrace_name_length (event->name) == 0)
    return ETRACE_ERR_NAME;
  if (cap < ETRACE_ENCODE_BUFFER_SIZE)
    return ETRACE_ERR_BUFFER;

  /* Taken before a dictionary entry takes the next one, as if the event
   * had been numbered when recorded. */
  sequence = event->sequence;
  if (sequence == ETRACE_SEQUENCE_AUTO)
    sequence = take_sequence (enc);
  timestamp = extend_clock (enc, event->timestamp);
  index = lookup_name (enc, event);
  if (index >= 0 && (enc->name_flags[index] & ENTRY_ANNOUNCED) == 0)
    {
      p += write_name_frame (enc, (unsigned) index, timestamp, p);
      out->announced_ = (uint8_t) (index + 1);
    }
  else
    {
      p += write_reemission (enc, timestamp, p);
    }
  p += write_event_frame (enc, event, (unsigned) (index + 1),
                          sequence % ETRACE_SEQUENCE_MODULUS, timestamp, p);

  if (index < 0)
    {
      out->name_registry_full = true;
      status = ETRACE_DICTIONARY_FULL;
    }
  out->len = (size_t) (p - buf);
  return status;
}

/**
 * etrace_encoder_poll:
 * @enc: the encoder
 * @timestamp: now
 * @buf: output
 * @cap: size of @buf, at least %ETRACE_MAX_NAME_FRAME_SIZE
 * @out: what was written: one frame of a due re-emission cycle, or nothing
 *
 * Call from a periodic context: keeps re-emission going when no events are
 * recorded, and in CYCLES mode keeps the 64-bit extension right when events
 * are more than 2^31 cycles apart.
 *
 * Returns: %ETRACE_OK, or %ETRACE_ERR_ARGUMENT or %ETRACE_ERR_BUFFER with
 *   nothing written
 */
etrace_status_t
etrace_encoder_poll (etrace_encoder_t *enc,
                     uint64_t          timestamp,
                     uint8_t          *buf,
                     size_t            cap,
                     etrace_encoded_t *out)
{
  if (enc == NULL || buf == NULL || out == NULL)
    return ETRACE_ERR_ARGUMENT;
  begin_output (enc, out);
  if (cap < ETRACE_MAX_NAME_FRAME_SIZE)
    return ETRACE_ERR_BUFFER;

  timestamp = extend_clock (enc, timestamp);
  out->len = write_reemission (enc, timestamp, buf);
  return ETRACE_OK;
}

/**
 * etrace_encoder_discard:
 * @enc: the encoder
 * @encoded: what the last call wrote
 *
 * Undoes the last call after the transport dropped its bytes: restores the
 * time base, and a dictionary entry sent in the lost bytes is sent again
 * with the next event of that name. The sequence numbers stay taken, so the
 * host counts the frames as lost.
 */
void
etrace_encoder_discard (etrace_encoder_t       *enc,
                        const etrace_encoded_t *encoded)
{
  if (enc == NULL || encoded == NULL)
    return;
  enc->clock = encoded->prev_clock_;
  enc->cursor = encoded->prev_cursor_;
  if (encoded->announced_ != 0)
    enc->name_flags[encoded->announced_ - 1] &= (uint8_t) ~ENTRY_ANNOUNCED;
}
