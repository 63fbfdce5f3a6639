/* bench-etrace.c: decode throughput of embedded trace streams
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Usage: bench-etrace [N-FRAMES]   (default 10 000 000)
 *
 * Generates a v2 stream in memory (a header, 12 names, then span starts,
 * ends and markers with deltas of 1–10 000 ns, markers with values,
 * sequence numbers modulo 16 384), then measures, best of 3 after a
 * warm-up pass, on the same bytes in the same run:
 *
 * - walk: a bare varint-length frame walk (no decoding): the floor;
 * - malloc: protobuf-c unpack + free_unpacked per frame with the default
 *   (malloc) allocator, no state;
 * - decoder: sps_etrace_decoder_feed() on 1 MiB chunks: unpack with the
 *   bump arena, clock, dictionary, sequence tracking, events kept.
 *
 * The target (issue 6) is ≥ 5e6 frames/s for the decoder: USB high speed
 * carries at most about 3e6 such frames per second.
 */

#define G_LOG_DOMAIN "sps-bench-etrace"

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <glib.h>

#include "../etrace-stream.h"
#include "sps-etrace-decoder.h"

#define TARGET_FPS 5e6
#define CHUNK      (1024 * 1024)

static GByteArray *
generate (guint64 n_frames)
{
  GByteArray *s = g_byte_array_sized_new ((guint) MIN (n_frames * 12, G_MAXUINT));
  static const char *names[] = {
    "gyro_isr", "accel_isr", "uart_rx_isr", "dma_done_isr", "timer_isr", "can_isr",
    "control_task", "telemetry_task", "logger_task", "ukf_predict", "ukf_update", "heartbeat",
  };
  GRand *rand = g_rand_new_with_seed (1);
  guint32 seq = 0;
  gboolean open[6] = { FALSE };
  guint64 frames = 0;

  etrace_stream_start (s, 1000, seq++, FALSE, 0);
  frames++;
  for (guint i = 0; i < G_N_ELEMENTS (names); i++, frames++)
    etrace_stream_name (s, 1000, seq++ % 16384, i + 1, names[i], i < 6 ? (i < 3 ? 1 : 2) : 0,
                        i < 6 ? 9 - i : 0, i % 3 == 0 ? 0.5f : NAN);

  while (frames < n_frames)
    {
      guint k = (guint) g_rand_int_range (rand, 0, 8);
      gint64 delta = g_rand_int_range (rand, 1, 10001);

      if (k < 6)
        {
          etrace_stream_event (s, open[k] ? 2 : 1, delta, seq++ % 16384, k + 1, -1);
          open[k] = !open[k];
        }
      else
        etrace_stream_event (s, 3, delta, seq++ % 16384, 10 + (k - 6), g_rand_int (rand));
      frames++;
    }

  g_rand_free (rand);
  return s;
}

static guint64
walk (const guint8 *p,
      gsize         len)
{
  guint64 frames = 0;
  gsize pos = 0;

  while (pos < len)
    {
      guint64 n = 0;
      guint shift = 0;

      while (pos < len)
        {
          guint8 b = p[pos++];

          n |= (guint64) (b & 0x7f) << shift;
          shift += 7;
          if ((b & 0x80) == 0)
            break;
        }
      pos += n;
      frames++;
    }

  return frames;
}

static guint64
unpack_malloc (const guint8 *p,
               gsize         len)
{
  guint64 frames = 0;
  gsize pos = 0;

  while (pos < len)
    {
      gsize n = p[pos++];   /* frames ≤ 127 bytes: one length byte */
      Tracing__TraceFrame *frame = tracing__trace_frame__unpack (NULL, n, p + pos);

      if (frame == NULL)
        g_error ("unpack failed at byte %" G_GSIZE_FORMAT, pos);
      tracing__trace_frame__free_unpacked (frame, NULL);
      pos += n;
      frames++;
    }

  return frames;
}

static guint64
decode (const guint8 *p,
        gsize         len)
{
  g_autoptr(SpsEtraceDecoder) decoder = sps_etrace_decoder_new ();
  guint64 frames;

  /* As the importer does with the file size */
  sps_etrace_decoder_reserve (decoder, len);
  for (gsize pos = 0; pos < len; pos += CHUNK)
    sps_etrace_decoder_feed (decoder, p + pos, MIN (CHUNK, len - pos));
  sps_etrace_decoder_finish (decoder);
  frames = sps_etrace_decoder_get_frames (decoder);

  for (guint h = 0; h < SPS_ETRACE_N_HEALTH; h++)
    if (sps_etrace_decoder_get_count (decoder, h) != 0)
      g_error ("unexpected %s in the generated stream", sps_etrace_health_name (h));

  return frames;
}

typedef guint64 (*Pass) (const guint8 *p, gsize len);

/* Best of 3 after a warm-up pass, in seconds */
static double
measure (Pass          pass,
         const guint8 *p,
         gsize         len,
         guint64       expected)
{
  double best = INFINITY;

  for (guint i = 0; i < 4; i++)
    {
      gint64 t0 = g_get_monotonic_time ();
      guint64 frames = pass (p, len);
      double s = (g_get_monotonic_time () - t0) / 1e6;

      if (frames != expected)
        g_error ("%" G_GUINT64_FORMAT " frames instead of %" G_GUINT64_FORMAT, frames, expected);
      if (i > 0)
        best = MIN (best, s);
    }

  return best;
}

int
main (int   argc,
      char *argv[])
{
  guint64 n = argc > 1 ? g_ascii_strtoull (argv[1], NULL, 10) : 10000000;
  g_autoptr(GByteArray) stream = NULL;
  double t_walk, t_malloc, t_decode;
  double fps;

  {
    g_autofree char *loadavg = NULL;

    /* Shared machines: the figures only mean something with the load */
    if (g_file_get_contents ("/proc/loadavg", &loadavg, NULL, NULL))
      printf ("load average before: %s", loadavg);
  }

  stream = generate (n);
  printf ("stream: %" G_GUINT64_FORMAT " frames, %u bytes (%.1f bytes/frame)\n",
          n, stream->len, (double) stream->len / n);

  t_walk = measure (walk, stream->data, stream->len, n);
  t_malloc = measure (unpack_malloc, stream->data, stream->len, n);
  t_decode = measure (decode, stream->data, stream->len, n);
  fps = n / t_decode;

  printf ("walk (frame lengths only):     %.3f s  %6.2f Mframes/s\n", t_walk, n / t_walk / 1e6);
  printf ("protobuf-c unpack with malloc: %.3f s  %6.2f Mframes/s\n", t_malloc, n / t_malloc / 1e6);
  printf ("decoder (arena, full state):   %.3f s  %6.2f Mframes/s  %.1f ns/frame\n",
          t_decode, fps / 1e6, t_decode * 1e9 / n);
  printf ("ratio decoder/malloc-unpack throughput: %.2f\n", t_malloc / t_decode);
  printf ("ratio decoder/walk time: %.2f\n", t_decode / t_walk);
  printf ("target >= %.0e frames/s: %s\n", TARGET_FPS, fps >= TARGET_FPS ? "met" : "NOT met");

  return 0;
}
