/* test-etrace-encoder.c: the firmware encoder against the wire format
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "etrace-test"

#include "config.h"

#include <string.h>

#include "etrace-test-util.h"

/* Encodes one event through the encoder API and appends the bytes. */
static etrace_status_t
encode_into (etrace_encoder_t     *enc,
             const etrace_event_t *event,
             GByteArray           *stream)
{
  guint8 buf[ETRACE_ENCODE_BUFFER_SIZE];
  etrace_encoded_t out;
  etrace_status_t status;

  status = etrace_encoder_encode (enc, event, buf, sizeof buf, &out);
  if (status >= 0)
    {
      g_assert_cmpuint (out.len, >, 0);
      g_assert_cmpuint (out.len, <=, ETRACE_MAX_BURST_SIZE);
      g_byte_array_append (stream, buf, out.len);
    }
  else
    {
      g_assert_cmpuint (out.len, ==, 0);
    }
  return status;
}

static etrace_event_t
make_event (guint64      timestamp,
            const char  *name,
            guint16      sequence,
            guint8       type)
{
  etrace_event_t event;

  memset (&event, 0, sizeof event);
  event.timestamp = timestamp;
  event.name = name;
  event.sequence = sequence;
  event.type = type;
  return event;
}

/* formats/embedded-trace.md §2.6, frame by frame. The sequence numbers are
 * those of the table: events numbered by the producer when recorded (1, 3,
 * 4, 6), dictionary frames by the encoder when written (2, 5). */
static void
test_golden (void)
{
  static const guint8 expected[] = {
    /* TRACE_START ts=1000 abs, mask 0x1F, seq 0 */
    0x07, 0x08, 0xd0, 0x0f, 0x18, 0x05, 0x60, 0x1f,
    /* NAME_REGISTERED id 1 "gyro_isr", ISR, prio 8, deadline 0.5, seq 2 */
    0x1c, 0x08, 0x98, 0x11, 0x10, 0x01, 0x18, 0x04, 0x20, 0x02, 0x32, 0x08,
    0x67, 0x79, 0x72, 0x6f, 0x5f, 0x69, 0x73, 0x72, 0x38, 0x01, 0x40, 0x08,
    0x4d, 0x00, 0x00, 0x00, 0x3f,
    /* SPAN_START id 1, delta 0, seq 1 */
    0x06, 0x10, 0x01, 0x18, 0x01, 0x20, 0x01,
    /* SPAN_END id 1, delta +300, seq 3 */
    0x09, 0x08, 0xd8, 0x04, 0x10, 0x01, 0x18, 0x02, 0x20, 0x03,
    /* NAME_REGISTERED id 2 "ukf_predict", ts 1350 abs, seq 5 */
    0x16, 0x08, 0x8c, 0x15, 0x10, 0x02, 0x18, 0x04, 0x20, 0x05, 0x32, 0x0b,
    0x75, 0x6b, 0x66, 0x5f, 0x70, 0x72, 0x65, 0x64, 0x69, 0x63, 0x74,
    /* MARKER id 2, delta 0, value 0, seq 4 */
    0x08, 0x10, 0x02, 0x18, 0x03, 0x20, 0x04, 0x28, 0x00,
    /* SPAN_START id 1, delta +750, seq 6 */
    0x09, 0x08, 0xdc, 0x0b, 0x10, 0x01, 0x18, 0x01, 0x20, 0x06,
  };
  g_autoptr(GByteArray) stream = g_byte_array_new ();
  etrace_encoder_t enc;
  etrace_encoded_t out;
  etrace_event_t event;
  guint8 buf[ETRACE_ENCODE_BUFFER_SIZE];

  etrace_encoder_init (&enc, ETRACE_TIMEBASE_NANOSECONDS, 0);
  g_assert_cmpint (etrace_encoder_trace_start (&enc, 1000, 0x1f, buf, sizeof buf, &out), ==, ETRACE_OK);
  g_byte_array_append (stream, buf, out.len);

  event = make_event (1100, "gyro_isr", etrace_encoder_next_sequence (&enc), ETRACE_EVENT_SPAN_START);
  event.source = ETRACE_SOURCE_ISR;
  event.priority = 8;
  event.has_deadline = true;
  event.deadline_ms = 0.5f;
  g_assert_cmpint (encode_into (&enc, &event, stream), ==, ETRACE_OK);

  /* The marker is recorded (numbered) before the span end is, but the end
   * reaches the encoder first. */
  {
    etrace_event_t end = make_event (1400, "gyro_isr", etrace_encoder_next_sequence (&enc), ETRACE_EVENT_SPAN_END);
    etrace_event_t marker = make_event (1350, "ukf_predict", etrace_encoder_next_sequence (&enc), ETRACE_EVENT_MARKER);

    marker.has_value = true;
    marker.value = 0;
    g_assert_cmpint (encode_into (&enc, &end, stream), ==, ETRACE_OK);
    g_assert_cmpint (encode_into (&enc, &marker, stream), ==, ETRACE_OK);
  }

  event = make_event (2100, "gyro_isr", etrace_encoder_next_sequence (&enc), ETRACE_EVENT_SPAN_START);
  event.source = ETRACE_SOURCE_ISR;
  event.priority = 8;
  g_assert_cmpint (encode_into (&enc, &event, stream), ==, ETRACE_OK);

  g_assert_cmpmem (stream->data, stream->len, expected, sizeof expected);
}

/* Random event sequences through the encoder and back through protobuf-c:
 * every event comes back with its name, type, time, sequence number and
 * value; every dictionary entry carries the attributes of the name's first
 * start; the sequence numbers of all frames are each used exactly once. */

typedef struct
{
  guint64 true_time; /* what the decoder must find */
  etrace_event_t event;
} RoundTripEvent;

static void
round_trip (guint32           seed,
            etrace_timebase_t timebase)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autoptr(GByteArray) stream = g_byte_array_new ();
  g_autoptr(GArray) frames = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autofree RoundTripEvent *events = NULL;
  g_autofree gboolean *seen_sequence = NULL;
  g_autoptr(GHashTable) first_start = g_hash_table_new (g_str_hash, g_str_equal);
  etrace_encoder_t enc;
  etrace_encoded_t out;
  guint8 buf[ETRACE_ENCODE_BUFFER_SIZE];
  guint n_events = g_rand_int_range (rand, 200, 2000);
  guint n_names = g_rand_int_range (rand, 1, ETRACE_NAME_CAPACITY + 1);
  /* Start close to a 32-bit wrap in CYCLES mode so the extension works. */
  guint64 now = timebase == ETRACE_TIMEBASE_CYCLES
                ? G_GUINT64_CONSTANT (0x3fffff000) : g_rand_int (rand);
  guint64 origin = now & ~G_GUINT64_CONSTANT (0xffffffff);
  guint n_sequences = 1;
  guint event_index = 0;
  guint i;

  for (i = 0; i < n_names; i++)
    {
      guint len = g_rand_int_range (rand, 1, ETRACE_MAX_NAME_LENGTH + 1);
      char *name = g_malloc0 (len + 1);
      guint j;

      for (j = 0; j < len; j++)
        name[j] = (char) g_rand_int_range (rand, 'a', 'z' + 1);
      g_ptr_array_add (names, name);
    }

  etrace_encoder_init (&enc, timebase, timebase == ETRACE_TIMEBASE_CYCLES ? 168000000u : 0);
  /* A short period in some runs, so that re-emission frames interleave. */
  if (g_rand_boolean (rand))
    etrace_encoder_set_reemit_period (&enc, g_rand_int_range (rand, 1000, 200000));
  g_assert_cmpint (etrace_encoder_trace_start (&enc, now, 0x1f, buf, sizeof buf, &out), ==, ETRACE_OK);
  g_byte_array_append (stream, buf, out.len);

  events = g_new0 (RoundTripEvent, n_events);
  for (i = 0; i < n_events; i++)
    {
      RoundTripEvent *e = &events[i];
      guint64 time;

      now += g_rand_int_range (rand, 0, 10000000);
      /* Now and then an event recorded earlier reaches the encoder late:
       * a negative delta. */
      time = g_rand_int_range (rand, 0, 5) == 0 ? now - g_rand_int_range (rand, 1, 5000) : now;
      e->true_time = time - (timebase == ETRACE_TIMEBASE_CYCLES ? origin : 0);
      e->event = make_event (timebase == ETRACE_TIMEBASE_CYCLES ? (guint32) time : time,
                             g_ptr_array_index (names, g_rand_int_range (rand, 0, n_names)),
                             etrace_encoder_next_sequence (&enc),
                             g_rand_int_range (rand, 1, 4));
      n_sequences++;
      if (e->event.type == ETRACE_EVENT_SPAN_START)
        {
          e->event.source = g_rand_boolean (rand) ? ETRACE_SOURCE_ISR : ETRACE_SOURCE_TASK;
          e->event.priority = g_rand_int_range (rand, 0, 256);
          e->event.has_deadline = g_rand_boolean (rand);
          e->event.deadline_ms = g_rand_int_range (rand, 0, 100000) / 64.0f;
          if (!g_hash_table_contains (first_start, e->event.name))
            g_hash_table_insert (first_start, (gpointer) e->event.name, e);
        }
      else if (e->event.type == ETRACE_EVENT_MARKER && g_rand_boolean (rand))
        {
          e->event.has_value = true;
          e->event.value = g_rand_boolean (rand) ? 0 : g_rand_int (rand);
        }
      g_assert_cmpint (encode_into (&enc, &e->event, stream), ==, ETRACE_OK);
    }

  frames = et_decode_stream (stream->data, stream->len);

  for (i = 0; i < frames->len; i++)
    {
      const EtFrame *f = et_frame (frames, i);

      g_assert_cmpuint (f->size, <=, ETRACE_MAX_FRAME_SIZE);
      if (f->type == TRACING__TRACE_EVENT_TYPE__TRACE_START)
        {
          g_assert_cmpuint (f->timebase, ==, timebase);
          g_assert_cmpuint (f->source_mask, ==, 0x1f);
          if (i > 0)
            n_sequences++;
        }
      else if (f->type == TRACING__TRACE_EVENT_TYPE__NAME_REGISTERED)
        {
          const RoundTripEvent *start = g_hash_table_lookup (first_start, f->name);

          g_assert_cmpuint (f->name_id, >=, 1);
          g_assert_cmpuint (f->name_id, <=, n_names);
          /* Bare until the first start, then that start's attributes. */
          if (start != NULL && start->event.sequence < f->sequence)
            {
              g_assert_cmpuint (f->source, ==, start->event.source);
              g_assert_cmpuint (f->priority, ==, start->event.priority);
              g_assert_cmpint (f->has_deadline, ==, start->event.has_deadline);
              if (f->has_deadline)
                g_assert_cmpfloat (f->deadline_ms, ==, start->event.deadline_ms);
            }
          else
            {
              g_assert_cmpuint (f->source, ==, 0);
              g_assert_cmpuint (f->priority, ==, 0);
              g_assert_false (f->has_deadline);
            }
          n_sequences++;
        }
      else
        {
          const RoundTripEvent *e = &events[event_index++];

          g_assert_cmpuint (f->type, ==, e->event.type);
          g_assert_cmpstr (et_resolve_name (frames, i), ==, e->event.name);
          g_assert_cmpint (f->clock, ==, (gint64) e->true_time);
          g_assert_cmpuint (f->sequence, ==, e->event.sequence);
          g_assert_cmpint (f->has_value, ==, e->event.has_value);
          if (f->has_value)
            g_assert_cmpuint (f->value, ==, e->event.value);
        }
    }
  g_assert_cmpuint (event_index, ==, n_events);

  /* Fewer than 16384 frames: no number may repeat or be missing. */
  g_assert_cmpuint (n_sequences, <, ETRACE_SEQUENCE_MODULUS);
  seen_sequence = g_new0 (gboolean, n_sequences);
  for (i = 0; i < frames->len; i++)
    {
      const EtFrame *f = et_frame (frames, i);

      g_assert_cmpuint (f->sequence, <, n_sequences);
      g_assert_false (seen_sequence[f->sequence]);
      seen_sequence[f->sequence] = TRUE;
    }
}

static void
test_round_trip_nanoseconds (void)
{
  guint32 seed;

  for (seed = 1; seed <= 40; seed++)
    round_trip (seed, ETRACE_TIMEBASE_NANOSECONDS);
}

static void
test_round_trip_cycles (void)
{
  guint32 seed;

  for (seed = 100; seed <= 140; seed++)
    round_trip (seed, ETRACE_TIMEBASE_CYCLES);
}

/* The 41st name does not fit: its events go out with id 0 (no name id
 * field) and no dictionary frame, and the caller is told. Known names keep
 * working. */
static void
test_dictionary_full (void)
{
  g_autoptr(GByteArray) stream = g_byte_array_new ();
  g_autoptr(GArray) frames = NULL;
  g_auto(GStrv) names = g_new0 (char *, ETRACE_NAME_CAPACITY + 2);
  etrace_encoder_t enc;
  etrace_event_t event;
  guint8 buf[ETRACE_ENCODE_BUFFER_SIZE];
  etrace_encoded_t out;
  guint i;

  g_assert_cmpint (ETRACE_NAME_CAPACITY, ==, 40);
  etrace_encoder_init (&enc, ETRACE_TIMEBASE_NANOSECONDS, 0);
  for (i = 0; i <= ETRACE_NAME_CAPACITY; i++)
    names[i] = g_strdup_printf ("name_%u", i);

  for (i = 0; i < ETRACE_NAME_CAPACITY; i++)
    {
      event = make_event (1000 + i, names[i], etrace_encoder_next_sequence (&enc), ETRACE_EVENT_MARKER);
      g_assert_cmpint (etrace_encoder_encode (&enc, &event, buf, sizeof buf, &out), ==, ETRACE_OK);
      g_assert_false (out.name_registry_full);
      g_byte_array_append (stream, buf, out.len);
    }

  event = make_event (2000, names[ETRACE_NAME_CAPACITY], etrace_encoder_next_sequence (&enc), ETRACE_EVENT_MARKER);
  g_assert_cmpint (etrace_encoder_encode (&enc, &event, buf, sizeof buf, &out), ==, ETRACE_DICTIONARY_FULL);
  g_assert_true (out.name_registry_full);
  /* prefix, delta 1000 - 1039 = 961 zigzag 1922 (2 bytes), type, seq 80 */
  g_assert_cmpuint (out.len, ==, 1 + 3 + 2 + 2);
  g_byte_array_append (stream, buf, out.len);

  event = make_event (2010, names[0], etrace_encoder_next_sequence (&enc), ETRACE_EVENT_MARKER);
  g_assert_cmpint (etrace_encoder_encode (&enc, &event, buf, sizeof buf, &out), ==, ETRACE_OK);
  g_byte_array_append (stream, buf, out.len);

  frames = et_decode_stream (stream->data, stream->len);
  /* 40 dictionary entries + 40 markers, the unnamed marker, name_0 again */
  g_assert_cmpuint (frames->len, ==, 82);
  g_assert_cmpuint (et_frame (frames, 80)->type, ==, TRACING__TRACE_EVENT_TYPE__MARKER);
  g_assert_cmpuint (et_frame (frames, 80)->name_id, ==, 0);
  g_assert_cmpint (et_frame (frames, 80)->clock, ==, 2000);
  g_assert_null (et_resolve_name (frames, 80));
  g_assert_cmpuint (et_frame (frames, 81)->name_id, ==, 1);
  g_assert_cmpstr (et_resolve_name (frames, 81), ==, "name_0");
  g_assert_cmpint (et_frame (frames, 81)->clock, ==, 2010);
}

/* Names of 33 bytes are refused with nothing written and no sequence number
 * taken; 32 bytes is the limit. */
static void
test_long_name (void)
{
  static const char name32[] = "abcdefghijklmnopqrstuvwxyz012345";
  static const char name33[] = "abcdefghijklmnopqrstuvwxyz0123456";
  g_autoptr(GArray) frames = NULL;
  etrace_encoder_t enc;
  etrace_event_t event;
  guint8 buf[ETRACE_ENCODE_BUFFER_SIZE];
  etrace_encoded_t out;

  g_assert_cmpuint (strlen (name32), ==, 32);
  g_assert_cmpuint (etrace_name_length (name32), ==, 32);
  g_assert_cmpuint (etrace_name_length (name33), ==, 0);
  g_assert_cmpuint (etrace_name_length (""), ==, 0);
  g_assert_cmpuint (etrace_name_length (NULL), ==, 0);

  etrace_encoder_init (&enc, ETRACE_TIMEBASE_NANOSECONDS, 0);
  event = make_event (10, name33, ETRACE_SEQUENCE_AUTO, ETRACE_EVENT_MARKER);
  g_assert_cmpint (etrace_encoder_encode (&enc, &event, buf, sizeof buf, &out), ==, ETRACE_ERR_NAME);
  g_assert_cmpuint (out.len, ==, 0);
  event.name = "";
  g_assert_cmpint (etrace_encoder_encode (&enc, &event, buf, sizeof buf, &out), ==, ETRACE_ERR_NAME);
  event.name = NULL;
  g_assert_cmpint (etrace_encoder_encode (&enc, &event, buf, sizeof buf, &out), ==, ETRACE_ERR_NAME);

  event.name = name32;
  g_assert_cmpint (etrace_encoder_encode (&enc, &event, buf, sizeof buf, &out), ==, ETRACE_OK);
  frames = et_decode_stream (buf, out.len);
  g_assert_cmpuint (frames->len, ==, 2);
  g_assert_cmpstr (et_frame (frames, 0)->name, ==, name32);
  /* The refused events took no number: the marker is 0, its entry 1. */
  g_assert_cmpuint (et_frame (frames, 1)->sequence, ==, 0);
  g_assert_cmpuint (et_frame (frames, 0)->sequence, ==, 1);
  g_assert_cmpuint (etrace_encoder_next_sequence (&enc), ==, 2);
}

/* Sequence numbers wrap at 16384 and never take more than two bytes. */
static void
test_sequence_wrap (void)
{
  g_autoptr(GByteArray) stream = g_byte_array_new ();
  g_autoptr(GArray) frames = NULL;
  etrace_encoder_t enc;
  etrace_event_t event;
  guint i;

  etrace_encoder_init (&enc, ETRACE_TIMEBASE_NANOSECONDS, 0);
  etrace_encoder_set_reemit_period (&enc, 0);
  for (i = 0; i < ETRACE_SEQUENCE_MODULUS + 5; i++)
    {
      event = make_event (i * 10, "tick", ETRACE_SEQUENCE_AUTO, ETRACE_EVENT_MARKER);
      g_assert_cmpint (encode_into (&enc, &event, stream), ==, ETRACE_OK);
    }

  frames = et_decode_stream (stream->data, stream->len);
  /* Frame 0 is the dictionary entry (number 1), frame 1 the first marker
   * (number 0); after that marker k has number k + 1. */
  g_assert_cmpuint (frames->len, ==, ETRACE_SEQUENCE_MODULUS + 6);
  g_assert_cmpuint (et_frame (frames, 0)->sequence, ==, 1);
  g_assert_cmpuint (et_frame (frames, 1)->sequence, ==, 0);
  for (i = 2; i < frames->len; i++)
    g_assert_cmpuint (et_frame (frames, i)->sequence, ==, i % ETRACE_SEQUENCE_MODULUS);
  /* 16383 = ff 7f: tag + 2 bytes; a marker with a 1-byte delta and that
   * number is prefix 1 + delta 2 + id 2 + type 2 + seq 3 = 10 bytes. */
  g_assert_cmpuint (et_frame (frames, ETRACE_SEQUENCE_MODULUS - 1)->sequence, ==, 16383);
  g_assert_cmpuint (et_frame (frames, ETRACE_SEQUENCE_MODULUS - 1)->size, ==, 10);
  g_assert_cmpuint (et_frame (frames, ETRACE_SEQUENCE_MODULUS)->sequence, ==, 0);
  g_assert_cmpuint (et_frame (frames, ETRACE_SEQUENCE_MODULUS)->size, ==, 7);
}

/* CYCLES mode: the caller passes the raw 32-bit counter; the stream carries
 * 64-bit time across wraps, forwards and (for a late event) backwards. */
static void
test_cycle_wrap (void)
{
  /* raw counter values and the 64-bit times they must decode to */
  static const struct
  {
    guint32 raw;
    gint64 expected;
  } steps[] = {
    { 0xfffffff0u, 0xfffffff0 },              /* first reading: the origin */
    { 0x00000010u, 0x100000010 },             /* wrapped, +32 */
    { 0xfffffff8u, 0xfffffff8 },              /* recorded before the wrap, sent late */
    { 0x40000000u, 0x140000000 },
    { 0x80000000u, 0x180000000 },
    { 0xc0000000u, 0x1c0000000 },
    { 0x00000000u, 0x200000000 },             /* second wrap in steps of 2^30 */
    { 0x7fffffffu, 0x27fffffff },             /* 2^31 - 1 ahead: still forwards */
    { 0xfffffff0u, 0x2fffffff0 },
    { 0x00000005u, 0x300000005 },
  };
  g_autoptr(GByteArray) stream = g_byte_array_new ();
  g_autoptr(GArray) frames = NULL;
  etrace_encoder_t enc;
  etrace_event_t event;
  guint8 buf[ETRACE_ENCODE_BUFFER_SIZE];
  etrace_encoded_t out;
  guint i, n = 0;

  etrace_encoder_init (&enc, ETRACE_TIMEBASE_CYCLES, 72000000u);
  g_assert_cmpint (etrace_encoder_trace_start (&enc, steps[0].raw, 1, buf, sizeof buf, &out), ==, ETRACE_OK);
  g_byte_array_append (stream, buf, out.len);
  for (i = 0; i < G_N_ELEMENTS (steps); i++)
    {
      event = make_event (steps[i].raw, "loop", ETRACE_SEQUENCE_AUTO, ETRACE_EVENT_MARKER);
      /* The counter hides the high bits of the 64-bit timestamp field. */
      event.timestamp |= G_GUINT64_CONSTANT (0xabcd) << 32;
      g_assert_cmpint (encode_into (&enc, &event, stream), ==, ETRACE_OK);
    }

  frames = et_decode_stream (stream->data, stream->len);
  g_assert_cmpuint (et_frame (frames, 0)->type, ==, TRACING__TRACE_EVENT_TYPE__TRACE_START);
  g_assert_cmpuint (et_frame (frames, 0)->timebase, ==, TRACING__TIME_BASE__CYCLES);
  g_assert_cmpuint (et_frame (frames, 0)->core_frequency_hz, ==, 72000000u);
  g_assert_cmpint (et_frame (frames, 0)->clock, ==, 0xfffffff0);
  for (i = 0; i < frames->len; i++)
    {
      const EtFrame *f = et_frame (frames, i);

      if (f->type != TRACING__TRACE_EVENT_TYPE__MARKER)
        continue;
      g_assert_cmpint (f->clock, ==, steps[n].expected);
      n++;
    }
  g_assert_cmpuint (n, ==, G_N_ELEMENTS (steps));
}

/* The largest frames this encoder can write, sizes counted by hand from
 * the field table (see ETRACE_MAX_*_FRAME_SIZE in etrace.h), and the
 * buffer-size checks. */
static void
test_burst_limits (void)
{
  static const char name32[] = "abcdefghijklmnopqrstuvwxyz012345";
  g_autoptr(GArray) frames = NULL;
  etrace_encoder_t enc;
  etrace_event_t event;
  guint8 buf[ETRACE_ENCODE_BUFFER_SIZE];
  etrace_encoded_t out;

  g_assert_cmpuint (ETRACE_ENCODE_BUFFER_SIZE, <=, ETRACE_MAX_BURST_SIZE);
  g_assert_cmpuint (ETRACE_MAX_NAME_FRAME_SIZE, <=, ETRACE_MAX_FRAME_SIZE);

  etrace_encoder_init (&enc, ETRACE_TIMEBASE_CYCLES, 0xffffffffu);
  etrace_encoder_set_reemit_period (&enc, 0);
  g_assert_cmpint (etrace_encoder_trace_start (&enc, 0, 0, buf, ETRACE_MAX_HEADER_FRAME_SIZE - 1, &out), ==, ETRACE_ERR_BUFFER);
  g_assert_cmpuint (out.len, ==, 0);
  /* Header at 2^31 - 1 cycles: zigzag 2^32 - 2 takes 5 bytes; the worst
   * header in nanoseconds, with 10 timestamp bytes, is checked below. */
  g_assert_cmpint (etrace_encoder_trace_start (&enc, 0x7fffffff, 0xffffffffu, buf, ETRACE_MAX_HEADER_FRAME_SIZE, &out), ==, ETRACE_OK);
  /* prefix 1, ts 1+5, type 2, timebase 2, frequency 1+5, mask 1+5 */
  g_assert_cmpuint (out.len, ==, 23);

  etrace_encoder_init (&enc, ETRACE_TIMEBASE_NANOSECONDS, 0);
  etrace_encoder_set_reemit_period (&enc, 0);
  /* Burn sequence numbers so that the header takes 16381, the event 16382
   * and its entry 16383: two bytes each. */
  while (etrace_encoder_next_sequence (&enc) != 16380)
    ;
  g_assert_cmpint (etrace_encoder_trace_start (&enc, G_GUINT64_CONSTANT (0x7fffffffffffffff), 0xffffffffu, buf, sizeof buf, &out), ==, ETRACE_OK);
  /* prefix 1, ts 1+10, type 2, seq 1+2, mask 1+5 (no timebase/frequency
   * in nanoseconds) */
  g_assert_cmpuint (out.len, ==, 23);

  event = make_event (G_GUINT64_CONSTANT (0x7fffffffffffffff), name32, ETRACE_SEQUENCE_AUTO, ETRACE_EVENT_SPAN_START);
  event.source = ETRACE_SOURCE_TASK;
  event.priority = 255;
  event.has_deadline = true;
  event.deadline_ms = 1e9f;
  g_assert_cmpint (etrace_encoder_encode (&enc, &event, buf, ETRACE_ENCODE_BUFFER_SIZE - 1, &out), ==, ETRACE_ERR_BUFFER);
  g_assert_cmpuint (out.len, ==, 0);
  g_assert_cmpint (etrace_encoder_encode (&enc, &event, buf, sizeof buf, &out), ==, ETRACE_OK);
  frames = et_decode_stream (buf, out.len);
  g_assert_cmpuint (frames->len, ==, 2);
  /* entry: prefix 1, ts 1+10, id 1+1, type 2, seq 1+2, name 2+32, source 2,
   * priority 1+2, deadline 1+4 = 63 (64 with an id above 127) */
  g_assert_cmpuint (et_frame (frames, 0)->size, ==, 63);
  g_assert_cmpuint (et_frame (frames, 0)->sequence, ==, 16383);
  g_assert_cmpfloat (et_frame (frames, 0)->deadline_ms, ==, 1e9f);
  /* event: prefix 1, delta 0 (absent), id 2, type 2, seq 1+1 (0 is absent
   * too: 16382 fits 2 bytes) */
  g_assert_cmpuint (et_frame (frames, 1)->sequence, ==, 16382);
  g_assert_cmpuint (et_frame (frames, 1)->size, ==, 1 + 2 + 2 + 3);
  g_clear_pointer (&frames, g_array_unref);

  /* A marker with a maximal negative delta and a maximal value: prefix 1,
   * ts 1+10, id 1+1, type 2, seq absent (0 after the wrap), value 1+5 */
  event = make_event (0, name32, ETRACE_SEQUENCE_AUTO, ETRACE_EVENT_MARKER);
  event.has_value = true;
  event.value = 0xffffffffu;
  g_assert_cmpint (etrace_encoder_encode (&enc, &event, buf, sizeof buf, &out), ==, ETRACE_OK);
  frames = et_decode_stream (buf, out.len);
  g_assert_cmpuint (frames->len, ==, 1);
  g_assert_cmpuint (et_frame (frames, 0)->size, ==, 1 + 11 + 2 + 2 + 6);
  g_assert_cmpuint (et_frame (frames, 0)->size, <=, ETRACE_MAX_EVENT_FRAME_SIZE);
  g_assert_cmpint (et_frame (frames, 0)->ticks, ==, -G_GINT64_CONSTANT (0x7fffffffffffffff));
}

/* A name first seen on a marker is registered bare; its first start sends
 * the entry again, now with the attributes, before the start. */
static void
test_bare_registration (void)
{
  g_autoptr(GByteArray) stream = g_byte_array_new ();
  g_autoptr(GArray) frames = NULL;
  etrace_encoder_t enc;
  etrace_event_t event;

  etrace_encoder_init (&enc, ETRACE_TIMEBASE_NANOSECONDS, 0);
  event = make_event (100, "late_task", ETRACE_SEQUENCE_AUTO, ETRACE_EVENT_SPAN_END);
  g_assert_cmpint (encode_into (&enc, &event, stream), ==, ETRACE_OK);
  event = make_event (200, "late_task", ETRACE_SEQUENCE_AUTO, ETRACE_EVENT_SPAN_START);
  event.source = ETRACE_SOURCE_TASK;
  event.priority = 3;
  g_assert_cmpint (encode_into (&enc, &event, stream), ==, ETRACE_OK);
  event = make_event (300, "late_task", ETRACE_SEQUENCE_AUTO, ETRACE_EVENT_SPAN_START);
  event.source = ETRACE_SOURCE_ISR;
  event.priority = 9;
  g_assert_cmpint (encode_into (&enc, &event, stream), ==, ETRACE_OK);

  frames = et_decode_stream (stream->data, stream->len);
  g_assert_cmpuint (frames->len, ==, 5);
  g_assert_cmpuint (et_frame (frames, 0)->type, ==, TRACING__TRACE_EVENT_TYPE__NAME_REGISTERED);
  g_assert_cmpuint (et_frame (frames, 0)->source, ==, 0);
  g_assert_cmpuint (et_frame (frames, 0)->priority, ==, 0);
  g_assert_cmpuint (et_frame (frames, 2)->type, ==, TRACING__TRACE_EVENT_TYPE__NAME_REGISTERED);
  g_assert_cmpuint (et_frame (frames, 2)->name_id, ==, 1);
  g_assert_cmpuint (et_frame (frames, 2)->source, ==, TRACING__TRACE_EVENT_SOURCE_TYPE__TASK);
  g_assert_cmpuint (et_frame (frames, 2)->priority, ==, 3);
  g_assert_false (et_frame (frames, 2)->has_deadline);
  g_assert_cmpint (et_frame (frames, 2)->clock, ==, 200);
  /* The second start cannot change the attributes: no new entry. */
  g_assert_cmpuint (et_frame (frames, 4)->type, ==, TRACING__TRACE_EVENT_TYPE__SPAN_START);
  g_assert_cmpint (et_frame (frames, 4)->clock, ==, 300);
}

/* Re-emission: once the period has passed, each call sends one more frame
 * of the cycle (header, then every entry) ahead of its event. A host that
 * attached after the registrations resolves every name once the cycle is
 * through. */
static void
test_reemission (void)
{
  static const char *const names[] = { "a_isr", "b_task", "c_marker" };
  g_autoptr(GByteArray) stream = g_byte_array_new ();
  g_autoptr(GArray) frames = NULL;
  g_autoptr(GArray) late = NULL;
  etrace_encoder_t enc;
  etrace_event_t event;
  guint8 buf[ETRACE_ENCODE_BUFFER_SIZE];
  etrace_encoded_t out;
  gsize attach;
  guint i;
  static const Tracing__TraceEventType expected_types[] = {
    TRACING__TRACE_EVENT_TYPE__TRACE_START,
    /* t = 0..2: registrations */
    TRACING__TRACE_EVENT_TYPE__NAME_REGISTERED, TRACING__TRACE_EVENT_TYPE__MARKER,
    TRACING__TRACE_EVENT_TYPE__NAME_REGISTERED, TRACING__TRACE_EVENT_TYPE__MARKER,
    TRACING__TRACE_EVENT_TYPE__NAME_REGISTERED, TRACING__TRACE_EVENT_TYPE__MARKER,
    /* t = 500..502: within the period */
    TRACING__TRACE_EVENT_TYPE__MARKER, TRACING__TRACE_EVENT_TYPE__MARKER,
    TRACING__TRACE_EVENT_TYPE__MARKER,
    /* t = 1000..1003: the cycle, one frame per call */
    TRACING__TRACE_EVENT_TYPE__TRACE_START, TRACING__TRACE_EVENT_TYPE__MARKER,
    TRACING__TRACE_EVENT_TYPE__NAME_REGISTERED, TRACING__TRACE_EVENT_TYPE__MARKER,
    TRACING__TRACE_EVENT_TYPE__NAME_REGISTERED, TRACING__TRACE_EVENT_TYPE__MARKER,
    TRACING__TRACE_EVENT_TYPE__NAME_REGISTERED, TRACING__TRACE_EVENT_TYPE__MARKER,
    /* t = 1500: nothing due until 2003 */
    TRACING__TRACE_EVENT_TYPE__MARKER,
  };
  static const guint64 times[] = { 0, 1, 2, 500, 501, 502, 1000, 1001, 1002, 1003, 1500 };

  etrace_encoder_init (&enc, ETRACE_TIMEBASE_NANOSECONDS, 0);
  etrace_encoder_set_reemit_period (&enc, 1000);
  g_assert_cmpint (etrace_encoder_trace_start (&enc, 0, 0x3, buf, sizeof buf, &out), ==, ETRACE_OK);
  g_byte_array_append (stream, buf, out.len);
  attach = 0;
  for (i = 0; i < G_N_ELEMENTS (times); i++)
    {
      event = make_event (times[i], names[i % 3], ETRACE_SEQUENCE_AUTO, ETRACE_EVENT_MARKER);
      g_assert_cmpint (encode_into (&enc, &event, stream), ==, ETRACE_OK);
      if (i == 2)
        attach = stream->len;
    }

  frames = et_decode_stream (stream->data, stream->len);
  g_assert_cmpuint (frames->len, ==, G_N_ELEMENTS (expected_types));
  for (i = 0; i < frames->len; i++)
    g_assert_cmpuint (et_frame (frames, i)->type, ==, expected_types[i]);
  /* The repeated header is not older than the clock: no false reset. */
  g_assert_cmpint (et_frame (frames, 10)->clock, ==, 1000);
  g_assert_cmpuint (et_frame (frames, 10)->source_mask, ==, 0x3);
  for (i = 0; i < 3; i++)
    {
      g_assert_cmpstr (et_frame (frames, 12 + 2 * i)->name, ==, names[i]);
      g_assert_cmpuint (et_frame (frames, 12 + 2 * i)->name_id, ==, i + 1);
    }

  /* A host attaching after the registrations sees: markers a b c, header,
   * marker a, entry a, marker b, entry b, marker c, entry c, marker a,
   * marker b. An event resolves only once its own entry has come. */
  late = et_decode_stream (stream->data + attach, stream->len - attach);
  g_assert_cmpuint (late->len, ==, 12);
  g_assert_null (et_resolve_name (late, 0));
  g_assert_null (et_resolve_name (late, 1));
  g_assert_null (et_resolve_name (late, 2));
  g_assert_null (et_resolve_name (late, 4));
  g_assert_null (et_resolve_name (late, 6));
  g_assert_null (et_resolve_name (late, 8));
  g_assert_cmpstr (et_resolve_name (late, 10), ==, "a_isr");
  g_assert_cmpstr (et_resolve_name (late, 11), ==, "b_task");
  /* The clock is right from the repeated header on. */
  g_assert_cmpint (et_frame (late, 11)->clock, ==, 1500);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/firmware/encoder/golden", test_golden);
  g_test_add_func ("/firmware/encoder/round-trip/nanoseconds", test_round_trip_nanoseconds);
  g_test_add_func ("/firmware/encoder/round-trip/cycles", test_round_trip_cycles);
  g_test_add_func ("/firmware/encoder/dictionary-full", test_dictionary_full);
  g_test_add_func ("/firmware/encoder/long-name", test_long_name);
  g_test_add_func ("/firmware/encoder/sequence-wrap", test_sequence_wrap);
  g_test_add_func ("/firmware/encoder/cycle-wrap", test_cycle_wrap);
  g_test_add_func ("/firmware/encoder/burst-limits", test_burst_limits);
  g_test_add_func ("/firmware/encoder/bare-registration", test_bare_registration);
  g_test_add_func ("/firmware/encoder/reemission", test_reemission);

  return g_test_run ();
}
