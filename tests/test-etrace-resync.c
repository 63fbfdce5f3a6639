/* test-etrace-resync.c: after bytes that are not frames, the embedded
 * trace decoder starts again at the next valid frame
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * N valid frames, garbage, M valid frames: all N + M decode, the garbage
 * is one "desync" warning that says which stream, at which byte and how
 * many bytes, whether the stream comes whole (a file) or in chunks of
 * random sizes (a live device). The frame counts and offsets below are
 * worked out from the frames each test writes.
 */

#define G_LOG_DOMAIN "test-etrace-resync"

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>
#include <spanscope-core.h>

#include "etrace-stream.h"
#include "tracing_v1.pb-c.h"
#include "sps-etrace-decoder.h"

#include "sps-test-util.h"

#define START  1
#define END    2
#define MARKER 3
#define NONE   (-1)

/* A header, the names "a" (id 1) and "m" (id 2), then @n_events events
 * from sequence number 3: start and end of "a" 10 ns apart, every third
 * a marker of "m" with its index as the value. @n_events + 3 frames. */
static guint32
write_head (GByteArray *s,
            guint       n_events)
{
  guint32 seq = 0;

  etrace_stream_start (s, 1000, seq++, FALSE, 0);
  etrace_stream_name (s, 1000, seq++, 1, "a", 2, 3, NAN);
  etrace_stream_name (s, 1000, seq++, 2, "m", 0, 0, NAN);
  for (guint i = 0; i < n_events; i++)
    {
      if (i % 3 == 2)
        etrace_stream_event (s, MARKER, 10, seq++, 2, i);
      else
        etrace_stream_event (s, i % 3 == 0 ? START : END, 10, seq++, 1, NONE);
    }

  return seq;
}

/* @n_events more events like write_head()'s, numbered from @seq */
static guint32
write_tail (GByteArray *s,
            guint32     seq,
            guint       n_events)
{
  for (guint i = 0; i < n_events; i++)
    {
      if (i % 3 == 2)
        etrace_stream_event (s, MARKER, 10, seq++ % 16384, 2, 1000 + i);
      else
        etrace_stream_event (s, i % 3 == 0 ? START : END, 10, seq++ % 16384, 1, NONE);
    }

  return seq;
}

/* @n_before events, @noise, @n_after events; returns where the noise is */
static guint
write_noisy (GByteArray   *s,
             guint         n_before,
             const guint8 *noise,
             gsize         n_noise,
             guint         n_after)
{
  guint32 seq = write_head (s, n_before);
  guint noise_at = s->len;

  g_byte_array_append (s, noise, (guint) n_noise);
  write_tail (s, seq, n_after);

  return noise_at;
}

/* Feeds @s whole (@max_chunk 0) or in chunks of 1 to @max_chunk bytes. */
static SpsEtraceDecoder *
decode (GByteArray *s,
        guint       max_chunk,
        GRand      *rand)
{
  SpsEtraceDecoder *decoder = sps_etrace_decoder_new ();
  gsize pos = 0;

  sps_etrace_decoder_set_source (decoder, "/dev/ttyACM0");
  while (pos < s->len)
    {
      gsize chunk = max_chunk == 0 ? s->len : (gsize) g_rand_int_range (rand, 1, (gint32) max_chunk + 1);
      gsize n = MIN (chunk, s->len - pos);

      sps_etrace_decoder_feed (decoder, s->data + pos, n);
      pos += n;
    }
  sps_etrace_decoder_finish (decoder);

  return decoder;
}

static guint64
total_health (SpsEtraceDecoder *decoder)
{
  guint64 n = 0;

  for (guint h = 0; h < SPS_ETRACE_N_HEALTH; h++)
    n += sps_etrace_decoder_get_count (decoder, h);

  return n;
}

/* 40 frames, 12 bytes of noise, 30 frames: 70 frames and 67 events, one
 * desync of 12 bytes at the offset where the noise starts, nothing lost,
 * the times of the frames after the noise as if it were not there. */
static void
test_noise_between_frames (void)
{
  static const guint8 noise[] = { 0xff, 0xfe, 0x00, 0x13, 0x37, 0xff, 0xff, 0xff, 0xff, 0x0f, 0xaa, 0x55 };
  g_autoptr(GByteArray) s = g_byte_array_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (3);
  g_autofree char *expected = NULL;
  guint noise_at = write_noisy (s, 37, noise, sizeof noise, 30);

  expected = g_strdup_printf ("/dev/ttyACM0: byte %u: 12 bytes that are not frames were skipped; "
                              "decoding resumed at byte %u", noise_at, noise_at + 12);

  /* Whole, then cut in pieces of every size from 1 byte to 3 frames */
  for (guint round = 0; round < 40; round++)
    {
      guint max_chunk = round == 0 ? 0 : round < 4 ? round : 1 + round * 10;
      g_autoptr(SpsEtraceDecoder) decoder = decode (s, max_chunk, rand);
      GArray *events = sps_etrace_decoder_get_events (decoder);
      const SpsEtraceMark *mark;

      g_test_message ("chunks of up to %u bytes", max_chunk);
      g_assert_cmpuint (sps_etrace_decoder_get_frames (decoder), ==, 70);
      g_assert_cmpuint (events->len, ==, 67);
      g_assert_cmpuint (sps_etrace_decoder_get_count (decoder, SPS_ETRACE_HEALTH_DESYNC), ==, 1);
      g_assert_cmpuint (total_health (decoder), ==, 1);
      g_assert_cmpuint (sps_etrace_decoder_get_skipped_bytes (decoder), ==, 12);
      g_assert_cmpstr (sps_etrace_decoder_get_first_message (decoder, SPS_ETRACE_HEALTH_DESYNC), ==, expected);

      /* 37 events at 1010 … 1370, then 30 more at 1380 … 1670 */
      g_assert_cmpint (g_array_index (events, SpsEtraceEvent, 36).time_ns, ==, 1370);
      g_assert_cmpint (g_array_index (events, SpsEtraceEvent, 37).time_ns, ==, 1380);
      g_assert_cmpint (g_array_index (events, SpsEtraceEvent, 37).kind, ==, START);
      g_assert_cmpint (g_array_index (events, SpsEtraceEvent, 66).time_ns, ==, 1670);
      g_assert_cmpuint (g_array_index (events, SpsEtraceEvent, 39).value, ==, 1002);

      /* The mark is where the noise began, at the last time before it */
      g_assert_cmpuint (sps_etrace_decoder_get_marks (decoder)->len, ==, 1);
      mark = &g_array_index (sps_etrace_decoder_get_marks (decoder), SpsEtraceMark, 0);
      g_assert_cmpuint (mark->offset, ==, noise_at);
      g_assert_cmpint (mark->time_ns, ==, 1370);
      g_assert_cmpuint (mark->health, ==, SPS_ETRACE_HEALTH_DESYNC);
    }
}

/* Garbage that stands where 5 frames were (a burst of line noise): the 5
 * are counted lost, everything around them kept. Random bytes, except
 * the first: bytes that happen to form a frame where one is due cannot
 * be told from a frame (the format has no checksum), so each stretch
 * starts with a byte no frame starts with (a zero length, or a length
 * over 127). */
static void
test_random_garbage_replacing_frames (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (14);

  /* Enough rounds that runs of one frame would start on garbage */
  for (guint round = 0; round < 3000; round++)
    {
      g_autoptr(GByteArray) s = g_byte_array_new ();
      g_autoptr(SpsEtraceDecoder) whole = NULL;
      g_autoptr(SpsEtraceDecoder) chunked = NULL;
      guint n_before = (guint) g_rand_int_range (rand, 1, 60);
      guint n_after = (guint) g_rand_int_range (rand, 1, 60);
      guint n_garbage = (guint) g_rand_int_range (rand, 1, 400);
      guint8 first = g_rand_boolean (rand) ? 0x00 : (guint8) g_rand_int_range (rand, 0x80, 0x100);
      guint32 seq;

      seq = write_head (s, n_before);
      g_byte_array_append (s, &first, 1);
      for (guint i = 1; i < n_garbage; i++)
        {
          guint8 byte = (guint8) g_rand_int_range (rand, 0, 256);

          g_byte_array_append (s, &byte, 1);
        }
      write_tail (s, seq + 5, n_after);

      whole = decode (s, 0, rand);
      chunked = decode (s, 50, rand);
      for (guint i = 0; i < 2; i++)
        {
          SpsEtraceDecoder *decoder = i == 0 ? whole : chunked;

          g_test_message ("round %u: %u events, %u bytes of garbage, %u events: %s", round, n_before,
                          n_garbage, n_after,
                          sps_etrace_decoder_get_first_message (decoder, SPS_ETRACE_HEALTH_DESYNC));
          for (guint h = 0; h < SPS_ETRACE_N_HEALTH; h++)
            if (sps_etrace_decoder_get_count (decoder, h) > 0)
              g_test_message ("%s: %" G_GUINT64_FORMAT " (%s)", sps_etrace_health_name (h),
                              sps_etrace_decoder_get_count (decoder, h),
                              sps_etrace_decoder_get_first_message (decoder, h));
          g_assert_cmpuint (sps_etrace_decoder_get_events (decoder)->len, ==, n_before + n_after);
          g_assert_cmpuint (sps_etrace_decoder_get_frames (decoder), ==, 3 + n_before + n_after);
          g_assert_cmpuint (sps_etrace_decoder_get_count (decoder, SPS_ETRACE_HEALTH_DESYNC), ==, 1);
          g_assert_cmpuint (sps_etrace_decoder_get_skipped_bytes (decoder), ==, n_garbage);
          g_assert_cmpuint (sps_etrace_decoder_get_count (decoder, SPS_ETRACE_HEALTH_LOST_FRAMES), ==, 5);
          g_assert_cmpuint (total_health (decoder), ==, 6);
        }
    }
}

/* Garbage before the first frame, and garbage to the end: both skipped
 * and said, the frames between them kept. */
static void
test_garbage_at_both_ends (void)
{
  static const guint8 noise[] = { 0x00, 0xff, 0x03, 0x99 };
  g_autoptr(GByteArray) s = g_byte_array_new ();
  g_autoptr(GByteArray) frames = g_byte_array_new ();
  g_autoptr(SpsEtraceDecoder) decoder = NULL;
  const SpsEtraceMark *marks;

  g_byte_array_append (s, noise, sizeof noise);
  write_head (frames, 4);
  g_byte_array_append (s, frames->data, frames->len);
  g_byte_array_append (s, noise, sizeof noise);
  g_byte_array_append (s, noise, sizeof noise);

  decoder = decode (s, 0, NULL);
  g_assert_cmpuint (sps_etrace_decoder_get_frames (decoder), ==, 7);
  g_assert_cmpuint (sps_etrace_decoder_get_events (decoder)->len, ==, 4);
  g_assert_cmpuint (sps_etrace_decoder_get_count (decoder, SPS_ETRACE_HEALTH_DESYNC), ==, 2);
  g_assert_cmpuint (sps_etrace_decoder_get_count (decoder, SPS_ETRACE_HEALTH_TRUNCATED_FRAME), ==, 0);
  g_assert_cmpuint (sps_etrace_decoder_get_skipped_bytes (decoder), ==, 12);
  g_assert_cmpstr (sps_etrace_decoder_get_first_message (decoder, SPS_ETRACE_HEALTH_DESYNC), ==,
                   "/dev/ttyACM0: byte 0: 4 bytes that are not frames were skipped; decoding resumed at byte 4");

  g_assert_cmpuint (sps_etrace_decoder_get_marks (decoder)->len, ==, 2);
  marks = (const SpsEtraceMark *) sps_etrace_decoder_get_marks (decoder)->data;
  g_assert_cmpuint (marks[0].offset, ==, 0);
  g_assert_cmpuint (marks[1].offset, ==, 4 + frames->len);
}

/* The message for garbage that runs to the end of the stream */
static void
test_garbage_to_the_end (void)
{
  static const guint8 noise[] = { 0xff, 0xff, 0xff, 0x7f, 0x00, 0x00 };
  g_autoptr(GByteArray) s = g_byte_array_new ();
  g_autoptr(SpsEtraceDecoder) decoder = NULL;
  g_autofree char *expected = NULL;
  guint noise_at;

  noise_at = write_noisy (s, 2, noise, sizeof noise, 0);

  decoder = decode (s, 0, NULL);
  expected = g_strdup_printf ("/dev/ttyACM0: byte %u: 6 bytes that are not frames were skipped, "
                              "up to the end of the stream", noise_at);
  g_assert_cmpuint (sps_etrace_decoder_get_events (decoder)->len, ==, 2);
  g_assert_cmpuint (sps_etrace_decoder_get_skipped_bytes (decoder), ==, 6);
  g_assert_cmpstr (sps_etrace_decoder_get_first_message (decoder, SPS_ETRACE_HEALTH_DESYNC), ==, expected);
}

/* One or two frames after the garbage, then the end: too few to make a
 * run of three, but a run the end cuts short is enough. */
static void
test_short_run_at_the_end (void)
{
  static const guint8 noise[] = { 0x00, 0x00, 0x00 };

  for (guint n_after = 1; n_after <= 2; n_after++)
    {
      g_autoptr(GByteArray) s = g_byte_array_new ();
      g_autoptr(SpsEtraceDecoder) decoder = NULL;
      write_noisy (s, 6, noise, sizeof noise, n_after);

      decoder = decode (s, 0, NULL);
      g_assert_cmpuint (sps_etrace_decoder_get_events (decoder)->len, ==, 6 + n_after);
      g_assert_cmpuint (sps_etrace_decoder_get_skipped_bytes (decoder), ==, 3);
      g_assert_cmpuint (total_health (decoder), ==, 1);
    }
}

/* v1: every frame self-contained; decoding resumes at the next event */
static void
test_v1 (void)
{
  static const guint8 noise[] = { 0x00, 0xff, 0x01, 0x02 };
  g_autoptr(GByteArray) s = g_byte_array_new ();
  g_autoptr(SpsEtraceDecoder) decoder = NULL;

  for (guint i = 0; i < 10; i++)
    {
      Tracing__V1__TraceEvent e = TRACING__V1__TRACE_EVENT__INIT;
      guint8 buf[128];
      gsize len;

      if (i == 5)
        g_byte_array_append (s, noise, sizeof noise);
      e.timestamp_ns = 1000 + 100 * i;
      e.name = (char *) "led_task";
      e.source_type = TRACING__V1__TRACE_EVENT_SOURCE_TYPE__TASK;
      e.event_type = i % 2 == 0 ? TRACING__V1__TRACE_EVENT_TYPE__SPAN_START : TRACING__V1__TRACE_EVENT_TYPE__SPAN_END;
      e.sequence = i + 1;
      e.priority = 2;
      len = tracing__v1__trace_event__get_packed_size (&e);
      g_assert_cmpuint (len, <, 128);
      buf[0] = (guint8) len;
      tracing__v1__trace_event__pack (&e, buf + 1);
      g_byte_array_append (s, buf, len + 1);
    }

  decoder = decode (s, 0, NULL);
  g_assert_cmpint (sps_etrace_decoder_get_version (decoder), ==, SPS_ETRACE_VERSION_1);
  g_assert_cmpuint (sps_etrace_decoder_get_events (decoder)->len, ==, 10);
  g_assert_cmpint (g_array_index (sps_etrace_decoder_get_events (decoder), SpsEtraceEvent, 5).time_ns, ==, 1500);
  g_assert_cmpuint (sps_etrace_decoder_get_skipped_bytes (decoder), ==, 4);
  g_assert_cmpuint (total_health (decoder), ==, 1);
}

/* The file importer: the one warning names the file, the byte and how
 * many bytes; the trace has every span. */
static void
test_file (void)
{
  static const guint8 noise[] = { 0xff, 0xff, 0x00, 0x7f, 0x13, 0x11 };
  g_autoptr(GByteArray) s = g_byte_array_new ();
  g_autoptr(SpsTrace) trace = NULL;
  g_autofree char *path = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *expected = NULL;
  const char *first = NULL;
  guint64 count = 0;
  gboolean found = FALSE;
  /* 18 events, noise, 12 events: 6 spans of "a" before the noise (starts
   * at events 0, 3, … 15, each ended by the next event), 4 after it */
  guint noise_at = write_noisy (s, 18, noise, sizeof noise, 12);

  path = sps_test_write_temp ("test-etrace-resync-XXXXXX", "noisy.etrace", s->data, s->len);
  trace = sps_test_load_path (path);
  expected = g_strdup_printf ("%s: byte %u: 6 bytes that are not frames were skipped; "
                              "decoding resumed at byte %u", path, noise_at, noise_at + 6);

  g_assert_cmpstr (sps_trace_get_format (trace), ==, "etrace");
  g_assert_cmpuint (sps_trace_get_events_read (trace), ==, 3 + 30);
  for (guint i = 0; i < sps_trace_get_n_warnings (trace); i++)
    {
      const char *name = sps_trace_get_warning (trace, i, &count, &first);

      g_assert_cmpstr (name, ==, "desync");
      found = TRUE;
    }
  g_assert_true (found);
  g_assert_cmpuint (count, ==, 1);
  g_assert_cmpstr (first, ==, expected);
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES), ==, 10);

  dir = g_path_get_dirname (path);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/etrace/resync/noise-between-frames", test_noise_between_frames);
  g_test_add_func ("/etrace/resync/random-garbage-replacing-frames", test_random_garbage_replacing_frames);
  g_test_add_func ("/etrace/resync/garbage-at-both-ends", test_garbage_at_both_ends);
  g_test_add_func ("/etrace/resync/garbage-to-the-end", test_garbage_to_the_end);
  g_test_add_func ("/etrace/resync/short-run-at-the-end", test_short_run_at_the_end);
  g_test_add_func ("/etrace/resync/v1", test_v1);
  g_test_add_func ("/etrace/resync/file", test_file);

  return g_test_run ();
}
