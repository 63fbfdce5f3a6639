/* test-etrace-sequence.c: frames lost from an embedded trace stream are
 * counted exactly: reordering beside a loss, stragglers behind a jump,
 * and losses across the wrap of the 14-bit sequence number; a length
 * prefix that would wrap the frame size is garbage, not a frame
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-etrace-sequence"

#include "config.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "etrace-stream.h"
#include "sps-etrace-decoder.h"

#define MARKER 3
#define NONE   (-1)

/* A stream header at @first, a name at @first + 1, then a marker for
 * every number of @seqs (one per call of etrace_stream_event) */
static guint64
count_lost (guint32        first,
            const guint32 *seqs,
            guint          n)
{
  g_autoptr(GByteArray) s = g_byte_array_new ();
  g_autoptr(SpsEtraceDecoder) decoder = sps_etrace_decoder_new ();

  etrace_stream_start (s, 0, first, FALSE, 0);
  etrace_stream_name (s, 0, (first + 1) % 16384, 1, "m", 2, 1, NAN);
  for (guint i = 0; i < n; i++)
    etrace_stream_event (s, MARKER, 10, seqs[i], 1, NONE);

  sps_etrace_decoder_feed (decoder, s->data, s->len);
  sps_etrace_decoder_finish (decoder);
  g_assert_cmpuint (sps_etrace_decoder_get_count (decoder, SPS_ETRACE_HEALTH_DEVICE_RESETS), ==, 0);
  return sps_etrace_decoder_get_count (decoder, SPS_ETRACE_HEALTH_LOST_FRAMES);
}

/* 2–9, then 30: too far ahead to be reordering (the window is 16), so
 * 10–29 are declared lost; 20 then arrives late (11 behind the next
 * number, within the window): 19 are missing, not 20. */
static void
test_straggler_behind_jump (void)
{
  static const guint32 seqs[] = { 2, 3, 4, 5, 6, 7, 8, 9, 30, 20, 31 };

  g_assert_cmpuint (count_lost (0, seqs, G_N_ELEMENTS (seqs)), ==, 19);
}

/* A straggler that arrives twice is taken back once */
static void
test_straggler_twice (void)
{
  static const guint32 seqs[] = { 2, 3, 30, 20, 20, 31 };

  /* 4–29 is 26 numbers, 20 arrived */
  g_assert_cmpuint (count_lost (0, seqs, G_N_ELEMENTS (seqs)), ==, 25);
}

/* 5 lost, 7 and 6 swapped next to it: only 5 is missing */
static void
test_reorder_beside_loss (void)
{
  static const guint32 seqs[] = { 2, 3, 4, 7, 6, 8, 9 };

  g_assert_cmpuint (count_lost (0, seqs, G_N_ELEMENTS (seqs)), ==, 1);
}

/* Across the wrap: 16383 and 1 lost, 2 and 0 swapped */
static void
test_wrap_with_losses (void)
{
  static const guint32 seqs[] = { 16380, 16381, 16382, 2, 0, 3, 4 };

  g_assert_cmpuint (count_lost (16378, seqs, G_N_ELEMENTS (seqs)), ==, 2);
}

/* A jump across the wrap, 16370 → 5: 16371–16383 and 0–4 (18 numbers)
 * declared lost; then 16380 (before the wrap) and 2 (after it) arrive
 * late: 16 missing */
static void
test_jump_across_wrap (void)
{
  static const guint32 seqs[] = { 16368, 16369, 16370, 5, 16380, 2, 6 };

  g_assert_cmpuint (count_lost (16366, seqs, G_N_ELEMENTS (seqs)), ==, 16);
}

/* A ten-byte length prefix saying 2^64 - 1: adding the prefix's length
 * to it wraps to 9, which once passed the 128-byte check and handed
 * protobuf-c a payload length far past the data. The stream ends right
 * before an inaccessible page, so reading past it crashes the test. The
 * prefix is garbage: the decoder loses sync; the events before it stay. */
static void
test_length_prefix_wraps (void)
{
  static const guint8 wrapped[] = {
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
    0x08, 0x02, 0x18, 0x01, 0x20, 0x01,
  };
  g_autoptr(GByteArray) s = g_byte_array_new ();
  g_autoptr(SpsEtraceDecoder) decoder = sps_etrace_decoder_new ();
  gsize page = (gsize) sysconf (_SC_PAGESIZE);
  guint8 *pages;
  GArray *events;

  etrace_stream_start (s, 5000, 0, FALSE, 0);
  etrace_stream_name (s, 5000, 1, 1, "m", 2, 1, NAN);
  etrace_stream_event (s, MARKER, 10, 2, 1, 7);
  g_byte_array_append (s, wrapped, sizeof wrapped);
  g_assert_cmpuint (s->len, <=, page);

  pages = mmap (NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  g_assert_true (pages != MAP_FAILED);
  g_assert_cmpint (mprotect (pages + page, page, PROT_NONE), ==, 0);
  memcpy (pages + page - s->len, s->data, s->len);

  sps_etrace_decoder_feed (decoder, pages + page - s->len, s->len);
  sps_etrace_decoder_finish (decoder);

  g_assert_cmpuint (sps_etrace_decoder_get_count (decoder, SPS_ETRACE_HEALTH_DESYNC), ==, 1);
  g_assert_cmpuint (sps_etrace_decoder_get_count (decoder, SPS_ETRACE_HEALTH_LOST_FRAMES), ==, 0);
  events = sps_etrace_decoder_get_events (decoder);
  g_assert_cmpuint (events->len, ==, 1);
  g_assert_cmpint (g_array_index (events, SpsEtraceEvent, 0).time_ns, ==, 5010);
  g_assert_cmpuint (g_array_index (events, SpsEtraceEvent, 0).value, ==, 7);
  munmap (pages, 2 * page);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/etrace/sequence/straggler-behind-jump", test_straggler_behind_jump);
  g_test_add_func ("/etrace/sequence/straggler-twice", test_straggler_twice);
  g_test_add_func ("/etrace/sequence/reorder-beside-loss", test_reorder_beside_loss);
  g_test_add_func ("/etrace/sequence/wrap-with-losses", test_wrap_with_losses);
  g_test_add_func ("/etrace/sequence/jump-across-wrap", test_jump_across_wrap);
  g_test_add_func ("/etrace/framing/length-prefix-wraps", test_length_prefix_wraps);

  return g_test_run ();
}
