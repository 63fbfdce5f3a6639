/* bench-live.c: what a live capture costs per update, as it grows
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Usage: bench-live [SECONDS]   (seconds of capture, default 600; 3600 is
 *                                the hour of issue 19)
 *
 * Simulates a device sending 10,000 frames/s faster than real time: a v2
 * stream of SECONDS × 10,000 frames (per millisecond: starts and ends of
 * two ISRs and two tasks, and two markers, so spans are always open
 * across an update), generated in memory. Then, at a quarter, half,
 * three quarters and all of it, in the same run:
 *
 * - reload (the live window before issue 19): sps_trace_load() of a file
 *   holding the capture so far, i.e. read + decode + build + finish +
 *   analyses of everything, at every update;
 * - live: the bytes since the previous point are fed to one live decoder
 *   (counted apart, per second of capture), then one update: copy of the
 *   decoder, build, finish and analyses (sps_live_decoder_load()).
 *
 * It reports the CPU time of one update (all threads of the process:
 * getrusage), the share of one core that updates every 250 ms would
 * take, the refresh interval that keeps updates at 10 % of one core
 * (the live window's budget), and the anonymous resident memory per
 * frame with the decoder and the newest trace held (as the live window
 * holds them), beyond what the process held with the stream generated. Numbers at SECONDS < 3600 are also
 * extrapolated linearly (per frame) to the hour; an update's cost still
 * grows with the capture (see docs/architecture.md, "Live capture").
 */

#define G_LOG_DOMAIN "sps-bench-live"

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <glib/gstdio.h>
#include <spanscope-core.h>

#include "../etrace-stream.h"
#include "sps-bench-util.h"
#include "sps-etrace-live-decoder.h"

#define FRAMES_PER_MS 10
#define UPDATE_MS     250.0
#define BUDGET        0.10
#define N_POINTS      4

#define START  1
#define END    2
#define MARKER 3

/* @second_end[s]: bytes of the first s + 1 seconds */
static GByteArray *
generate (guint    seconds,
          guint64 *second_end)
{
  GByteArray *s = g_byte_array_sized_new (seconds * 10000u * 9u);
  guint32 seq = 0;

  etrace_stream_start (s, 0, seq++, FALSE, 0);
  etrace_stream_name (s, 0, seq++ % 16384, 1, "gyro_isr", 1, 9, 0.05f);
  etrace_stream_name (s, 0, seq++ % 16384, 2, "uart_isr", 1, 8, NAN);
  etrace_stream_name (s, 0, seq++ % 16384, 3, "control_task", 2, 3, 0.5f);
  etrace_stream_name (s, 0, seq++ % 16384, 4, "logger_task", 2, 1, NAN);
  etrace_stream_name (s, 0, seq++ % 16384, 5, "tick", 0, 0, NAN);

  for (guint64 ms = 0; ms < (guint64) seconds * 1000; ms++)
    {
      /* 1 ms of device time: deltas add up to 1,000,000 ns */
      etrace_stream_event (s, START, 10000, seq++ % 16384, 3, -1);
      etrace_stream_event (s, START, 20000, seq++ % 16384, 1, -1);
      etrace_stream_event (s, END, 30000 + (ms % 7) * 1000, seq++ % 16384, 1, -1);
      etrace_stream_event (s, MARKER, 40000, seq++ % 16384, 5, (gint64) (ms & 0xffff));
      etrace_stream_event (s, START, 50000, seq++ % 16384, 2, -1);
      etrace_stream_event (s, END, 5000, seq++ % 16384, 2, -1);
      etrace_stream_event (s, END, 300000, seq++ % 16384, 3, -1);
      etrace_stream_event (s, START, 100000, seq++ % 16384, 4, -1);
      etrace_stream_event (s, MARKER, 200000, seq++ % 16384, 5, 1);
      etrace_stream_event (s, END, 245000 - (ms % 7) * 1000, seq++ % 16384, 4, -1);
      if (ms % 1000 == 999)
        second_end[ms / 1000] = s->len;
    }

  return s;
}

int
main (int   argc,
      char *argv[])
{
  guint seconds = argc > 1 ? (guint) g_ascii_strtoull (argv[1], NULL, 10) : 600;
  g_autofree guint64 *second_end = NULL;
  g_autoptr(GByteArray) stream = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autofree char *name = NULL;
  g_autoptr(SpsLiveDecoder) decoder = NULL;
  guint64 fed = 0;
  double feed_s = 0;
  double old_ms = 0, new_ms = 0;
  guint64 frames = 0;
  guint64 anon_before;

  if (seconds < N_POINTS || seconds > 3600)
    {
      fprintf (stderr, "usage: bench-live [SECONDS], %d to 3600\n", N_POINTS);
      return 2;
    }

  second_end = g_new0 (guint64, seconds);
  stream = generate (seconds, second_end);
  /* The stream is in memory here, in a file in the app: not counted */
  anon_before = sps_bench_proc_status_bytes ("RssAnon");
  dir = g_dir_make_tmp ("bench-live-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "capture.etrace", NULL);
  file = g_file_new_for_path (path);
  name = g_file_get_parse_name (file);
  decoder = sps_etrace_live_decoder_new (name);

  printf ("live capture: %u s at %d frames/s simulated, %.1f MB (%.2f bytes/frame)\n",
          seconds, FRAMES_PER_MS * 1000, stream->len / 1e6,
          (double) stream->len / ((double) seconds * FRAMES_PER_MS * 1000));
  printf ("%8s %10s | %12s %12s %7s | %9s %9s | %11s %11s\n", "capture", "frames",
          "reload ms", "live ms", "ratio", "reload %", "live %", "live every", "anon B/frame");

  for (guint p = 1; p <= N_POINTS; p++)
    {
      guint at = seconds * p / N_POINTS;
      guint64 end = second_end[at - 1];
      g_autoptr(SpsTrace) reloaded = NULL;
      g_autoptr(SpsTrace) live = NULL;
      g_autoptr(SpsLiveDecoder) copy = NULL;
      double cpu;
      guint64 rss;

      frames = (guint64) at * 1000 * FRAMES_PER_MS + 6;

      /* The old update: everything again from the file */
      g_file_set_contents (path, (const char *) stream->data, (gssize) end, &error);
      g_assert_no_error (error);
      cpu = sps_bench_cpu_seconds ();
      reloaded = sps_trace_load (file, NULL, NULL, SPS_LOAD_FLAGS_KEEP_PARTIAL, NULL, NULL, &error);
      g_assert_no_error (error);
      old_ms = (sps_bench_cpu_seconds () - cpu) * 1000;
      g_clear_object (&reloaded);

      /* The bytes arrive: decoded once, in reads of 4 KiB like a tty's */
      cpu = sps_bench_cpu_seconds ();
      for (; fed < end; fed += MIN (4096, end - fed))
        sps_live_decoder_feed (decoder, stream->data + fed, (gsize) MIN (4096, end - fed));
      feed_s += sps_bench_cpu_seconds () - cpu;

      /* The new update */
      cpu = sps_bench_cpu_seconds ();
      copy = sps_live_decoder_copy (decoder);
      live = sps_live_decoder_load (copy, NULL, file, &error);
      g_assert_no_error (error);
      new_ms = (sps_bench_cpu_seconds () - cpu) * 1000;
      g_assert_cmpuint (sps_trace_get_events_read (live), ==, frames);

      rss = sps_bench_proc_status_bytes ("RssAnon") - anon_before;
      printf ("%7us %10" G_GUINT64_FORMAT " | %12.1f %12.1f %6.2fx | %8.1f%% %8.1f%% | %9.2fs %11.1f\n",
              at, frames, old_ms, new_ms, old_ms / new_ms,
              100 * old_ms / UPDATE_MS, 100 * new_ms / UPDATE_MS,
              MAX (UPDATE_MS, new_ms / BUDGET) / 1000, (double) rss / (double) frames);
    }

  printf ("decoding as the bytes arrive: %.2f ms of CPU per second of capture (%.3f %% of one core)\n",
          feed_s * 1000 / seconds, feed_s * 100 / seconds);

  if (seconds < 3600)
    {
      double scale = 3600.0 / seconds;

      printf ("extrapolated to 3600 s (%.0f frames, linear per frame): reload %.0f ms, live %.0f ms per update; "
              "with updates held to 10 %% of one core the view refreshes every %.1f s\n",
              (double) frames * scale, old_ms * scale, new_ms * scale, new_ms * scale / BUDGET / 1000);
    }

  g_unlink (path);
  g_rmdir (dir);

  return 0;
}
