/* bench-live.c: what a live capture costs per update, as it grows
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Usage: bench-live [SECONDS]   (seconds of capture, default 240; 3600 is
 *                                the hour of issue 19)
 *
 * Simulates a device sending 10,000 frames/s faster than real time: a v2
 * stream of SECONDS × 10,000 frames (per millisecond: starts and ends of
 * two ISRs and two tasks, and two markers, so spans are always open
 * across an update), generated in memory. Then, at 1/24, 10/24 and all
 * of it (0.1 M, 1 M and 2.4 M frames by default), in the same run:
 *
 * - reload (the live window before issue 19): sps_trace_load() of a file
 *   holding the capture so far, i.e. read + decode + build + finish +
 *   analyses of everything, at every update;
 * - the bytes are fed to one live decoder as they arrive (counted apart,
 *   per second of capture); an update one second of capture (10,000
 *   frames) before the point, then at the point:
 * - full: an update that pairs every event again (the live decoder of
 *   the previous sitting: a copy, sort and pairing of all events, then
 *   build, finish and analyses; sps_live_decoder_load() of a copy made
 *   not incremental);
 * - kept: the update as the window does it now, pairing only the 10,000
 *   new frames with the pairing the decoder keeps;
 * - rest: the same update again with no new frame (what every update
 *   costs whatever arrived: emitting the rows, finish, analyses);
 * - grown: the update that grows the trace of the update a second
 *   before (sps_live_decoder_grow()): only the new spans and markers are
 *   written and finished, with what is derived from all of them (open
 *   spans, counters, the summary), and the kept rows' columns copied
 *   once. Measured before kept, so it pairs the new frames (kept then
 *   pairs none: its figure is a little lower than the window's was);
 * - grown rest: a grown update with no new frame (its base the grown
 *   trace).
 *
 * Then, apart (after the memory was read; best of 3 each): the pairing
 * of all the events at each point (what every update did before),
 * against the pairing of the last second's 10,000 when the ones before
 * were paired (what an update does now), beside the rest of an update
 * (best of 3 updates with nothing new).
 *
 * It reports CPU times (all threads of the process: getrusage), the
 * refresh interval that keeps updates at 10 % of one core (the live
 * window's budget), and the anonymous resident memory per frame with the
 * decoder, its pairing and the newest trace held (as the live window
 * holds them), beyond what the process held with the stream generated.
 * Numbers at SECONDS < 3600 are also extrapolated linearly (per frame)
 * to the hour: the rest still grows with the capture, and so does a grown
 * update's (a copy of the columns, the derived rows' pass over the spans;
 * see docs/architecture.md, "Live updates").
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
#include "sps-etrace-analysis.h"
#include "sps-etrace-live-decoder.h"

#define FRAMES_PER_MS 10
#define UPDATE_MS     250.0
#define BUDGET        0.10
#define N_POINTS      3
/* Frames an update pairs at each point: one second of capture */
#define NEW_SECONDS   1
#define MAX_RELOAD_FRAMES 10000000

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

/* CPU milliseconds of one update: a copy of @decoder built, finished and
 * analysed (its trace held in *@trace until the next) */
static double
update_ms (SpsLiveDecoder *decoder,
           GFile          *file,
           gboolean        incremental,
           SpsTrace      **trace)
{
  g_autoptr(SpsLiveDecoder) copy = NULL;
  g_autoptr(GError) error = NULL;
  double cpu;

  g_clear_object (trace);
  cpu = sps_bench_cpu_seconds ();
  copy = sps_live_decoder_copy (decoder);
  sps_etrace_live_decoder_set_incremental (copy, incremental);
  *trace = sps_live_decoder_load (copy, NULL, file, &error);
  g_assert_no_error (error);

  return (sps_bench_cpu_seconds () - cpu) * 1000;
}

/* CPU milliseconds of an update that grows @base (then held in *@trace,
 * which may be @base) */
static double
grow_ms (SpsLiveDecoder *decoder,
         GFile          *file,
         SpsTrace       *base,
         SpsTrace      **trace)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) grown = NULL;
  gboolean was_grown = FALSE;
  double cpu;

  cpu = sps_bench_cpu_seconds ();
  grown = sps_live_decoder_grow (decoder, NULL, file, base, &was_grown, &error);
  cpu = (sps_bench_cpu_seconds () - cpu) * 1000;
  g_assert_no_error (error);
  g_assert_true (was_grown);
  g_set_object (trace, grown);

  return cpu;
}

/* Best of 3: CPU milliseconds of pairing events @from to @to of
 * @decoder's after the ones before were paired */
static double
pair_ms (SpsEtraceDecoder *decoder,
         guint             from,
         guint             to)
{
  GArray *events = sps_etrace_decoder_get_events (decoder);
  GPtrArray *names = sps_etrace_decoder_get_names (decoder);
  double best = G_MAXDOUBLE;

  for (guint k = 0; k < 3; k++)
    {
      g_autoptr(SpsEtracePairing) pairing = sps_etrace_pairing_new ();
      double cpu;
      gboolean paired;

      paired = sps_etrace_pairing_advance (pairing, events, names, from, FALSE);
      g_assert_true (paired);
      cpu = sps_bench_cpu_seconds ();
      paired = sps_etrace_pairing_advance (pairing, events, names, to, FALSE);
      cpu = (sps_bench_cpu_seconds () - cpu) * 1000;
      best = MIN (best, cpu);
      g_assert_true (paired);
    }

  return best;
}

/* Feeds the stream up to @end, in reads of 4 KiB like a tty's; adds the
 * CPU seconds to *@feed_s */
static void
feed_to (SpsLiveDecoder *decoder,
         GByteArray     *stream,
         guint64        *fed,
         guint64         end,
         double         *feed_s)
{
  double cpu = sps_bench_cpu_seconds ();

  for (; *fed < end; *fed += MIN (4096, end - *fed))
    sps_live_decoder_feed (decoder, stream->data + *fed, (gsize) MIN (4096, end - *fed));
  *feed_s += sps_bench_cpu_seconds () - cpu;
}

int
main (int   argc,
      char *argv[])
{
  guint seconds = argc > 1 ? (guint) g_ascii_strtoull (argv[1], NULL, 10) : 240;
  static const guint point_24ths[N_POINTS] = { 1, 10, 24 };
  g_autofree guint64 *second_end = NULL;
  g_autoptr(GByteArray) stream = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autofree char *name = NULL;
  g_autoptr(SpsLiveDecoder) decoder = NULL;
  g_autoptr(SpsTrace) live = NULL;
  SpsEtraceLiveCounts counts;
  guint64 fed = 0;
  double feed_s = 0;
  double reload_ms = 0, full_ms = 0, kept_ms = 0, rest_ms = 0, grown_ms = 0, grown_rest_ms = 0;
  double point_rest_ms[N_POINTS];
  double point_grown_rest_ms[N_POINTS];
  guint64 frames = 0;
  guint64 anon_before;
  double last_anon = 0;
  double load_avg[3] = { 0 };

  if (seconds < 48 || seconds > 3600)
    {
      fprintf (stderr, "usage: bench-live [SECONDS], 48 to 3600\n");
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

  if (getloadavg (load_avg, 3) < 0)
    load_avg[0] = load_avg[1] = load_avg[2] = -1;
  printf ("live capture: %u s at %d frames/s simulated, %.1f MB (%.2f bytes/frame); load average %.2f %.2f %.2f\n",
          seconds, FRAMES_PER_MS * 1000, stream->len / 1e6,
          (double) stream->len / ((double) seconds * FRAMES_PER_MS * 1000),
          load_avg[0], load_avg[1], load_avg[2]);
  printf ("CPU ms per update; an update pairs the %d new frames of the last second\n", NEW_SECONDS * FRAMES_PER_MS * 1000);
  printf ("%8s %10s | %9s %9s %9s %9s %9s %9s | %9s %10s | %11s %11s %12s\n", "capture", "frames",
          "reload", "full", "kept", "rest", "grown", "grown rest", "full/kept", "kept/grown",
          "kept every", "grown every", "anon B/frame");

  for (guint p = 0; p < N_POINTS; p++)
    {
      guint at = seconds * point_24ths[p] / 24;
      guint64 end = second_end[at - 1];
      g_autoptr(SpsTrace) reloaded = NULL;
      g_autoptr(SpsTrace) full = NULL;
      g_autoptr(SpsTrace) before = NULL;
      g_autoptr(SpsTrace) grown = NULL;
      double cpu;
      guint64 rss;

      frames = (guint64) at * 1000 * FRAMES_PER_MS + 6;

      /* The old update: everything again from the file (not past
       * MAX_RELOAD_FRAMES: at the hour a second trace would double the
       * memory, and the full update is the baseline there) */
      reload_ms = NAN;
      if (frames <= MAX_RELOAD_FRAMES)
        {
          g_clear_object (&live);
          g_file_set_contents (path, (const char *) stream->data, (gssize) end, &error);
          g_assert_no_error (error);
          cpu = sps_bench_cpu_seconds ();
          reloaded = sps_trace_load (file, NULL, NULL, SPS_LOAD_FLAGS_KEEP_PARTIAL, NULL, NULL, &error);
          g_assert_no_error (error);
          reload_ms = (sps_bench_cpu_seconds () - cpu) * 1000;
          g_clear_object (&reloaded);
        }

      /* The window's updates: one a second before the point, then the
       * one measured, with the last second's frames new */
      feed_to (decoder, stream, &fed, second_end[at - 1 - NEW_SECONDS], &feed_s);
      update_ms (decoder, file, TRUE, &live);
      feed_to (decoder, stream, &fed, end, &feed_s);

      /* One trace held at a time, as in the window (the grown update
       * holds the one it grows meanwhile, as the window does) */
      before = g_steal_pointer (&live);
      full_ms = update_ms (decoder, file, FALSE, &full);
      g_assert_cmpuint (sps_trace_get_events_read (full), ==, frames);
      g_clear_object (&full);
      grown_ms = grow_ms (decoder, file, before, &grown);
      g_assert_cmpuint (sps_trace_get_events_read (grown), ==, frames);
      g_assert_cmpuint (sps_trace_get_slices (grown)->n_rows, ==, (guint64) at * 1000 * 4);
      g_clear_object (&before);
      grown_rest_ms = grow_ms (decoder, file, grown, &grown);
      point_grown_rest_ms[p] = grown_rest_ms;
      for (guint k = 0; k < 2; k++)
        {
          double again = grow_ms (decoder, file, grown, &grown);

          point_grown_rest_ms[p] = MIN (point_grown_rest_ms[p], again);
        }
      g_clear_object (&grown);
      kept_ms = update_ms (decoder, file, TRUE, &live);
      g_assert_cmpuint (sps_trace_get_events_read (live), ==, frames);
      rest_ms = update_ms (decoder, file, TRUE, &live);
      point_rest_ms[p] = rest_ms;
      for (guint k = 0; k < 2; k++)
        {
          /* (MIN() evaluates its arguments twice) */
          double again = update_ms (decoder, file, TRUE, &live);

          point_rest_ms[p] = MIN (point_rest_ms[p], again);
        }

      rss = sps_bench_proc_status_bytes ("RssAnon") - anon_before;
      last_anon = (double) rss / (double) frames;
      printf ("%7us %10" G_GUINT64_FORMAT " | %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f | %8.2fx %9.2fx | %10.2fs %10.2fs %12.1f\n",
              at, frames, reload_ms, full_ms, kept_ms, rest_ms, grown_ms, grown_rest_ms,
              full_ms / kept_ms, kept_ms / grown_ms, MAX (UPDATE_MS, kept_ms / BUDGET) / 1000,
              MAX (UPDATE_MS, grown_ms / BUDGET) / 1000, (double) rss / (double) frames);
    }

  sps_etrace_live_decoder_get_counts (decoder, &counts);
  /* Every kept update paired on from the last: none started over */
  g_assert_cmpuint (counts.restarted, ==, 0);
  /* 5 kept updates and 4 grown ones a point */
  g_assert_cmpuint (counts.kept, ==, 9 * N_POINTS);
  g_assert_cmpuint (counts.apart, ==, N_POINTS);

  /* The stages, on a decoder of their own fed the whole stream */
  g_clear_object (&live);
  {
    g_autoptr(SpsEtraceDecoder) whole = sps_etrace_decoder_new ();
    GArray *events;

    sps_etrace_decoder_feed (whole, stream->data, stream->len);
    events = sps_etrace_decoder_get_events (whole);
    printf ("stages, CPU ms (best of 3):\n%8s %10s | %10s %10s %9s %8s | %9s %9s | %10s %9s\n", "capture", "frames",
            "pair all", "pair new", "ns/new", "all/new", "rest", "ns/event", "grown rest", "ns/event");
    for (guint p = 0; p < N_POINTS; p++)
      {
        guint at = seconds * point_24ths[p] / 24;
        /* Events (frames less names and the start) at the point and a
         * second before: 10 frames a millisecond, all events */
        guint to = at * 1000 * FRAMES_PER_MS;
        guint from = (at - NEW_SECONDS) * 1000 * FRAMES_PER_MS;
        double all = pair_ms (whole, 0, to);
        double added = pair_ms (whole, from, to);

        g_assert_cmpuint (to, <=, events->len);
        printf ("%7us %10u | %10.2f %10.2f %9.0f %7.0fx | %9.1f %9.0f | %10.1f %9.1f\n", at, to, all, added,
                added * 1e6 / (to - from), all / added,
                point_rest_ms[p], point_rest_ms[p] * 1e6 / (double) to,
                point_grown_rest_ms[p], point_grown_rest_ms[p] * 1e6 / (double) to);
      }
  }

  printf ("decoding as the bytes arrive: %.2f ms of CPU per second of capture (%.3f %% of one core)\n",
          feed_s * 1000 / seconds, feed_s * 100 / seconds);
  printf ("at %u s (%" G_GUINT64_FORMAT " frames): a kept update %.0f ms; held to 10 %% of one core the view "
          "refreshes every %.1f s (%.1f s with full updates), and the app takes %.1f %% of one core with decoding; "
          "anonymous memory %.1f bytes per frame, peak RSS %.0f MB\n",
          seconds, frames, kept_ms, MAX (UPDATE_MS, kept_ms / BUDGET) / 1000, MAX (UPDATE_MS, full_ms / BUDGET) / 1000,
          100 * MIN (BUDGET, kept_ms / UPDATE_MS) + feed_s * 100 / seconds, last_anon,
          sps_bench_peak_rss_bytes () / 1e6);

  printf ("at %u s: a grown update %.0f ms (kept/grown %.2fx); held to 10 %% of one core the view "
          "refreshes every %.2f s, and the app takes %.1f %% of one core with decoding\n",
          seconds, grown_ms, kept_ms / grown_ms, MAX (UPDATE_MS, grown_ms / BUDGET) / 1000,
          100 * MIN (BUDGET, grown_ms / UPDATE_MS) + feed_s * 100 / seconds);

  if (seconds < 3600)
    {
      double scale = 3600.0 / seconds;
      double kept_hour = (kept_ms - rest_ms) + rest_ms * scale;
      /* The rest's best of 3: a single grown update without new frames
       * varies by 2x on a shared machine */
      double grown_hour = (grown_ms - point_grown_rest_ms[N_POINTS - 1]) + point_grown_rest_ms[N_POINTS - 1] * scale;

      printf ("extrapolated to 3600 s, grown: %.0f ms per update; held to 10 %% of one core the view refreshes "
              "every %.2f s (kept: %.1f s)\n", grown_hour, MAX (UPDATE_MS, grown_hour / BUDGET) / 1000,
              MAX (UPDATE_MS, kept_hour / BUDGET) / 1000);

      printf ("extrapolated to 3600 s (%.0f frames, the rest linear per frame): reload %.0f ms, full %.0f ms, "
              "kept %.0f ms per update; held to 10 %% of one core the view refreshes every %.1f s "
              "(%.1f s before), and the app takes %.1f %% of one core with decoding\n",
              (double) frames * scale, reload_ms * scale, full_ms * scale, kept_hour,
              MAX (UPDATE_MS, kept_hour / BUDGET) / 1000, MAX (UPDATE_MS, full_ms * scale / BUDGET) / 1000,
              100 * MIN (BUDGET, kept_hour / UPDATE_MS) + feed_s * 100 / seconds);
    }

  g_unlink (path);
  g_rmdir (dir);

  return 0;
}
