/* test-etrace-capacity.c: the encoder built with ETRACE_NAME_CAPACITY=255
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The largest dictionary: name ids above 127 take two bytes, which is what
 * the worst-case frame sizes in etrace.h assume, and a re-emission cycle
 * walks more than 255 positions.
 */

#define G_LOG_DOMAIN "etrace-test"

#include "config.h"

#include <string.h>

#include "etrace-test-util.h"

static void
make_name (char     *name,
           unsigned  index)
{
  /* 32 bytes: "name_" + 3 digits + 24 x's */
  g_snprintf (name, 33, "name_%03uxxxxxxxxxxxxxxxxxxxxxxxx", index);
  g_assert_cmpuint (strlen (name), ==, 32);
}

/* The worst cases of ETRACE_MAX_NAME_FRAME_SIZE and
 * ETRACE_MAX_EVENT_FRAME_SIZE are reached exactly. */
static void
test_capacity_worst_frames (void)
{
  static char names[ETRACE_NAME_CAPACITY + 1][33];
  g_autoptr(GArray) frames = NULL;
  etrace_encoder_t enc;
  etrace_event_t event;
  guint8 buf[ETRACE_ENCODE_BUFFER_SIZE];
  etrace_encoded_t out;
  guint i;

  g_assert_cmpint (ETRACE_NAME_CAPACITY, ==, 255);
  etrace_encoder_init (&enc, ETRACE_TIMEBASE_NANOSECONDS, 0);
  etrace_encoder_set_reemit_period (&enc, 0);
  for (i = 0; i <= ETRACE_NAME_CAPACITY; i++)
    make_name (names[i], i);
  /* ids 1..199, bare */
  for (i = 0; i < 199; i++)
    {
      memset (&event, 0, sizeof event);
      event.name = names[i];
      event.type = ETRACE_EVENT_MARKER;
      event.sequence = ETRACE_SEQUENCE_AUTO;
      g_assert_cmpint (etrace_encoder_encode (&enc, &event, buf, sizeof buf, &out), ==, ETRACE_OK);
    }
  /* Numbers up to 16381 used: the start takes 16382, its entry 16383. */
  while (etrace_encoder_next_sequence (&enc) != 16381)
    ;

  memset (&event, 0, sizeof event);
  event.timestamp = G_GUINT64_CONSTANT (0x7fffffffffffffff);
  event.name = names[199];
  event.type = ETRACE_EVENT_SPAN_START;
  event.sequence = ETRACE_SEQUENCE_AUTO;
  event.source = ETRACE_SOURCE_ISR;
  event.priority = 255;
  event.has_deadline = true;
  event.deadline_ms = 0.125f;
  g_assert_cmpint (etrace_encoder_encode (&enc, &event, buf, sizeof buf, &out), ==, ETRACE_OK);
  frames = et_decode_stream (buf, out.len);
  g_assert_cmpuint (frames->len, ==, 2);
  g_assert_cmpuint (et_frame (frames, 0)->name_id, ==, 200);
  g_assert_cmpuint (et_frame (frames, 0)->sequence, ==, 16383);
  g_assert_cmpuint (et_frame (frames, 0)->size, ==, ETRACE_MAX_NAME_FRAME_SIZE);
  g_assert_cmpuint (et_frame (frames, 1)->sequence, ==, 16382);
  g_clear_pointer (&frames, g_array_unref);

  /* A marker of id 200 at time 0 right after: the largest negative delta,
   * a 2-byte id, a 2-byte sequence number and a 5-byte value. */
  while (etrace_encoder_next_sequence (&enc) != 16382)
    ;
  memset (&event, 0, sizeof event);
  event.name = names[199];
  event.type = ETRACE_EVENT_MARKER;
  event.sequence = ETRACE_SEQUENCE_AUTO;
  event.has_value = true;
  event.value = 0x80000000u;
  g_assert_cmpint (etrace_encoder_encode (&enc, &event, buf, sizeof buf, &out), ==, ETRACE_OK);
  frames = et_decode_stream (buf, out.len);
  g_assert_cmpuint (frames->len, ==, 1);
  g_assert_cmpuint (et_frame (frames, 0)->size, ==, ETRACE_MAX_EVENT_FRAME_SIZE);
  g_assert_cmpuint (et_frame (frames, 0)->sequence, ==, 16383);
  g_assert_cmpuint (et_frame (frames, 0)->value, ==, 0x80000000u);
}

/* 255 names fit, the 256th does not; one re-emission cycle through
 * etrace_encoder_poll() sends all 255 entries in order, then stops. */
static void
test_capacity_full_cycle (void)
{
  static char names[ETRACE_NAME_CAPACITY + 1][33];
  g_autoptr(GByteArray) stream = g_byte_array_new ();
  g_autoptr(GArray) frames = NULL;
  etrace_encoder_t enc;
  etrace_event_t event;
  guint8 buf[ETRACE_ENCODE_BUFFER_SIZE];
  etrace_encoded_t out;
  guint i, polls = 0;

  etrace_encoder_init (&enc, ETRACE_TIMEBASE_NANOSECONDS, 0);
  etrace_encoder_set_reemit_period (&enc, 100);
  for (i = 0; i <= ETRACE_NAME_CAPACITY; i++)
    {
      make_name (names[i], i);
      memset (&event, 0, sizeof event);
      event.name = names[i];
      event.timestamp = i;
      event.type = ETRACE_EVENT_MARKER;
      event.sequence = ETRACE_SEQUENCE_AUTO;
      g_assert_cmpint (etrace_encoder_encode (&enc, &event, buf, sizeof buf, &out), ==,
                       i < ETRACE_NAME_CAPACITY ? ETRACE_OK : ETRACE_DICTIONARY_FULL);
    }

  /* Armed by the first event that needed no entry (the 256th, at 255):
   * due at 355. */
  g_assert_cmpint (etrace_encoder_poll (&enc, 354, buf, sizeof buf, &out), ==, ETRACE_OK);
  g_assert_cmpuint (out.len, ==, 0);
  do
    {
      g_assert_cmpint (etrace_encoder_poll (&enc, 400 + polls, buf, sizeof buf, &out), ==, ETRACE_OK);
      g_byte_array_append (stream, buf, out.len);
      polls++;
    }
  while (out.len > 0 && polls < 1000);
  /* 255 entries, then one empty poll */
  g_assert_cmpuint (polls, ==, 256);

  frames = et_decode_stream (stream->data, stream->len);
  g_assert_cmpuint (frames->len, ==, 255);
  for (i = 0; i < frames->len; i++)
    {
      g_assert_cmpuint (et_frame (frames, i)->name_id, ==, i + 1);
      g_assert_cmpstr (et_frame (frames, i)->name, ==, names[i]);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/firmware/capacity-255/worst-frames", test_capacity_worst_frames);
  g_test_add_func ("/firmware/capacity-255/full-cycle", test_capacity_full_cycle);

  return g_test_run ();
}
