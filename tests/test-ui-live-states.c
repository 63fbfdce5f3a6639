/* test-ui-live-states.c: what the live window says when a device misbehaves
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A pseudo terminal stands in for the device (PLATFORM.md §8): closing
 * its master side mid-frame is an unplugged device, bytes that never form
 * a frame are a wrong baud rate, and a writer thread floods it. In each
 * case the window must show a clear state, keep every byte received, and
 * keep the main loop turning.
 *
 * Set SPS_TEST_SCREENSHOT_DIR to keep live-disconnected.png,
 * live-no-frames.png and live-flood.png.
 */

#define G_LOG_DOMAIN "test-ui-live-states"

#include "config.h"

#include <math.h>
#include <time.h>
#include <pty.h>
#include <unistd.h>

#include "etrace-stream.h"
#include "sps-live-window.h"

#include "sps-test-ui.h"

typedef struct
{
  int                master;
  char               path[256];   /* of the device, named by every state */
  SpsSerialSource   *source;
  SpsLiveCapture    *capture;
  SpsLiveWindow     *window;
} Device;

static void
device_open (Device *device)
{
  g_autoptr(GError) error = NULL;
  int slave;

  g_assert_cmpint (openpty (&device->master, &slave, device->path, NULL, NULL), ==, 0);
  close (slave);

  device->source = sps_serial_source_new (device->path, 115200);
  device->capture = sps_live_capture_new (SPS_LIVE_SOURCE (device->source));
  g_assert_true (sps_live_capture_start (device->capture, &error));
  g_assert_no_error (error);

  device->window = sps_live_window_new (NULL, device->capture);
  gtk_window_set_default_size (GTK_WINDOW (device->window), 900, 420);
  gtk_window_present (GTK_WINDOW (device->window));
}

static void
device_close (Device *device)
{
  gtk_window_destroy (GTK_WINDOW (device->window));
  g_clear_object (&device->capture);
  g_clear_object (&device->source);
  if (device->master >= 0)
    close (device->master);
}

static void
send_bytes (Device       *device,
            const guint8 *data,
            gsize         len)
{
  while (len > 0)
    {
      gssize n = write (device->master, data, len);

      g_assert_cmpint (n, >, 0);
      data += n;
      len -= n;
    }
}

typedef struct
{
  Device *device;
  guint64 n_bytes;
} BytesWait;

static gboolean
has_bytes (gpointer data)
{
  BytesWait *wait = data;

  return sps_live_capture_get_n_bytes (wait->device->capture) >= wait->n_bytes;
}

typedef struct
{
  Device       *device;
  SpsLiveState  state;
} StateWait;

static gboolean
has_state (gpointer data)
{
  StateWait *wait = data;

  return sps_live_window_get_state (wait->device->window) == wait->state;
}

static void
wait_for_state (Device       *device,
                SpsLiveState  state)
{
  StateWait wait = { device, state };

  sps_test_wait_until (has_state, &wait);
}

/* Header, name, and 10 runs of "task": 22 frames */
static void
valid_stream (GByteArray *s,
              guint32    *seq)
{
  etrace_stream_start (s, 0, (*seq)++, FALSE, 0);
  etrace_stream_name (s, 0, (*seq)++, 1, "task", 2, 3, NAN);
  for (guint i = 0; i < 10; i++)
    {
      etrace_stream_event (s, 1, 9000, (*seq)++, 1, -1);
      etrace_stream_event (s, 2, 1000, (*seq)++, 1, -1);
    }
}

static guint64
shown_events (Device *device)
{
  SpsSession *session = sps_live_window_get_session (device->window);

  return session != NULL ? sps_trace_get_events_read (sps_session_get_trace (session)) : 0;
}

static void
test_unplugged_mid_frame (void)
{
  g_autoptr(GByteArray) stream = g_byte_array_new ();
  g_autoptr(GByteArray) next = g_byte_array_new ();
  Device device = { -1 };
  BytesWait bytes_wait = { &device, 0 };
  guint32 seq = 0;
  g_autofree char *expected = NULL;

  device_open (&device);
  valid_stream (stream, &seq);
  /* Half of the next frame: the device is pulled out while sending it */
  etrace_stream_event (next, 1, 9000, seq++, 1, -1);
  g_assert_cmpuint (next->len, >, 2);
  g_byte_array_append (stream, next->data, next->len / 2);

  send_bytes (&device, stream->data, stream->len);
  bytes_wait.n_bytes = stream->len;
  sps_test_wait_until (has_bytes, &bytes_wait);
  g_assert_cmpint (sps_live_window_get_state (device.window), ==, SPS_LIVE_STATE_RECEIVING);

  close (device.master);
  device.master = -1;
  wait_for_state (&device, SPS_LIVE_STATE_DISCONNECTED);

  /* The last reload (after the end) shows all 22 whole frames; the cut
   * frame is reported, and every byte is kept. */
  while (shown_events (&device) != 22 ||
         strstr (sps_live_window_get_state_text (device.window), "cut off") == NULL)
    sps_test_spin (20);
  g_assert_false (sps_live_capture_get_running (device.capture));
  g_assert_false (sps_live_capture_get_stopped (device.capture));
  g_assert_null (sps_live_capture_get_error (device.capture));
  g_assert_cmpuint (sps_live_capture_get_n_bytes (device.capture), ==, stream->len);
  g_assert_cmpuint (sps_trace_count_slices (sps_session_get_trace (sps_live_window_get_session (device.window)),
                                            SPS_TRACK_THREAD_SLICES), ==, 10);
  expected = g_strdup_printf ("%s: device disconnected — 22 events kept (the last frame was cut off)", device.path);
  g_assert_cmpstr (sps_live_window_get_state_text (device.window), ==, expected);

  sps_test_maybe_screenshot (GTK_WIDGET (device.window), "live-disconnected");
  device_close (&device);
}

static void
test_no_frames (void)
{
  g_autoptr(GByteArray) garbage = g_byte_array_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (14);
  Device device = { -1 };
  BytesWait bytes_wait = { &device, 0 };
  gint64 started;
  guint64 sent = 0;
  g_autofree char *expected = NULL;

  device_open (&device);

  /* What a device sends at the wrong baud rate: noise, every 100 ms */
  for (guint i = 0; i < 256; i++)
    {
      guint8 byte = (guint8) g_rand_int_range (rand, 0, 256);

      g_byte_array_append (garbage, &byte, 1);
    }

  started = g_get_monotonic_time ();
  while (sps_live_window_get_state (device.window) != SPS_LIVE_STATE_NO_FRAMES)
    {
      send_bytes (&device, garbage->data, garbage->len);
      sent += garbage->len;
      sps_test_spin (100);
      g_assert_cmpint (g_get_monotonic_time () - started, <, 10 * G_USEC_PER_SEC);
    }

  /* Not before 5 s of bytes without a frame */
  g_assert_cmpint (g_get_monotonic_time () - started, >=, 5 * G_USEC_PER_SEC);
  expected = g_strdup_printf ("%s: no valid frames in the last 5 s — wrong baud rate, or not a "
                              "Spanscope device? Everything received is kept.", device.path);
  g_assert_cmpstr (sps_live_window_get_state_text (device.window), ==, expected);
  g_clear_pointer (&expected, g_free);
  bytes_wait.n_bytes = sent;
  sps_test_wait_until (has_bytes, &bytes_wait);
  g_assert_cmpuint (sps_live_capture_get_n_bytes (device.capture), ==, sent);
  g_assert_true (sps_live_capture_get_running (device.capture));

  sps_test_maybe_screenshot (GTK_WIDGET (device.window), "live-no-frames");

  /* Stopping says so, and keeps the noise too */
  sps_live_capture_stop (device.capture);
  g_assert_cmpint (sps_live_window_get_state (device.window), ==, SPS_LIVE_STATE_STOPPED);
  expected = g_strdup_printf ("%s: capture stopped — 0 events kept", device.path);
  g_assert_cmpstr (sps_live_window_get_state_text (device.window), ==, expected);
  device_close (&device);
}

/* Noise between whole frames: the decoder skips it and starts again at
 * the next frame (here the header of a restarted stream), the window says
 * which device, where and how many bytes while receiving, and every byte
 * is kept. */
static void
test_garbage_between_frames (void)
{
  g_autoptr(GByteArray) stream = g_byte_array_new ();
  Device device = { -1 };
  BytesWait bytes_wait = { &device, 0 };
  SpsTrace *trace;
  guint32 seq = 0;
  g_autofree char *expected = NULL;
  static const guint8 noise[] = { 0xff, 0xfe, 0x00, 0x13, 0x37, 0xff, 0xff, 0xff, 0xff, 0x0f, 0xaa, 0x55 };

  device_open (&device);
  /* 22 frames (232 bytes), noise, then a restarted stream: 22 more */
  valid_stream (stream, &seq);
  g_assert_cmpuint (stream->len, ==, 232);
  g_byte_array_append (stream, noise, sizeof noise);
  seq = 0;
  valid_stream (stream, &seq);
  send_bytes (&device, stream->data, stream->len);
  bytes_wait.n_bytes = stream->len;
  sps_test_wait_until (has_bytes, &bytes_wait);

  wait_for_state (&device, SPS_LIVE_STATE_GARBLED);
  expected = g_strdup_printf ("%s: byte 232: 12 bytes that are not frames were skipped; decoding resumed "
                              "at byte 244. Everything received is kept.", device.path);
  g_assert_cmpstr (sps_live_window_get_state_text (device.window), ==, expected);
  sps_test_maybe_screenshot (GTK_WIDGET (device.window), "live-garbled");

  /* Both streams' frames, once a generation holds all the bytes */
  while (shown_events (&device) != 44)
    sps_test_spin (20);
  trace = sps_session_get_trace (sps_live_window_get_session (device.window));
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES), ==, 20);
  g_assert_cmpuint (sps_trace_count_warning (trace, "desync"), ==, 1);
  g_assert_cmpuint (sps_trace_count_warning (trace, "device_resets"), ==, 1);
  g_assert_cmpint (sps_live_window_get_state (device.window), ==, SPS_LIVE_STATE_GARBLED);
  g_assert_cmpuint (sps_live_capture_get_n_bytes (device.capture), ==, stream->len);

  sps_live_capture_stop (device.capture);
  device_close (&device);
}

/* Under AddressSanitizer everything is several times slower: the flood is
 * smaller. Main-loop costs are reported, never held to a time bound (a
 * loaded machine would fail it); what is checked is that the main loop
 * keeps turning: an idle-priority tick still runs while the device
 * floods, which it cannot while a read runs until the device pauses. */
#if defined (__SANITIZE_ADDRESS__)
# define FLOOD_RUNS 1000000
#else
# define FLOOD_RUNS 4000000
#endif

/* Ticks of 5 ms expected at least while the device floods (a debug build
 * on an idle machine runs about 260 in the 1.9 s of the flood) */
#define MIN_FLOOD_TICKS 10

typedef struct
{
  int          master;
  GByteArray  *stream;
  guint        rate;   /* bytes per second */
  gsize        sent;
} Flood;

static gpointer
flood_thread (gpointer data)
{
  Flood *flood = data;
  gint64 start = g_get_monotonic_time ();

  while (flood->sent < flood->stream->len)
    {
      gsize chunk = MIN (64 * 1024, flood->stream->len - flood->sent);
      gint64 due = start + (gint64) ((double) flood->sent / flood->rate * G_USEC_PER_SEC);
      gssize n;

      if (g_get_monotonic_time () < due)
        g_usleep (due - g_get_monotonic_time ());

      n = write (flood->master, flood->stream->data + flood->sent, chunk);
      if (n <= 0)
        break;
      flood->sent += n;
    }

  return NULL;
}

typedef struct
{
  gint64 last;
  gint64 max_gap;
  guint  n;
  /* The most CPU time the main thread spent in one iteration */
  gint64 max_iteration_us;
} Ticks;

static gint64
thread_cpu_us (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

/* One main-loop iteration, measured in CPU time of this thread: unlike
 * the wall-clock gaps, it does not count the time the thread waits in
 * poll() or for a core (this machine has two, and a flood thread and a
 * loader thread compete for them). */
static void
measured_iteration (Ticks *ticks)
{
  gint64 before = thread_cpu_us ();

  g_main_context_iteration (NULL, TRUE);
  ticks->max_iteration_us = MAX (ticks->max_iteration_us, thread_cpu_us () - before);
}

static gboolean
on_tick (gpointer data)
{
  Ticks *ticks = data;
  gint64 now = g_get_monotonic_time ();

  if (ticks->last != 0)
    ticks->max_gap = MAX (ticks->max_gap, now - ticks->last);
  ticks->last = now;
  ticks->n++;

  return G_SOURCE_CONTINUE;
}

/* Whether the window says it is behind; checks the text the first time. */
static gboolean
check_behind (Device *device,
              Ticks  *ticks)
{
  static gboolean checked;

  if (sps_live_window_get_state (device->window) != SPS_LIVE_STATE_BEHIND)
    return FALSE;

  if (!checked)
    {
      g_autofree char *expected = g_strdup_printf ("%s: receiving faster than it can be shown; nothing is lost, "
                                                   "the view catches up when the device slows down or stops.",
                                                   device->path);

      checked = TRUE;
      g_assert_cmpstr (sps_live_window_get_state_text (device->window), ==, expected);
      sps_test_maybe_screenshot (GTK_WIDGET (device->window), "live-flood");
      /* Taking the screenshot blocks; that is not the window's doing */
      ticks->last = 0;
      ticks->max_iteration_us = 0;
    }

  return TRUE;
}

static void
test_flood (void)
{
  g_autoptr(GByteArray) stream = g_byte_array_new ();
  g_autoptr(GThread) thread = NULL;
  Device device = { -1 };
  BytesWait bytes_wait = { &device, 0 };
  Flood flood = { 0 };
  Ticks ticks = { 0 };
  g_autofree char *expected = NULL;
  gboolean seen_behind = FALSE;
  gint64 started, elapsed;
  guint32 seq = 0;
  guint tick_id;

  /* About 92 MB of valid frames, 2 s at 50 MB/s: 2 + 2 × 4,000,000
   * frames; a quarter of that under AddressSanitizer, which makes every
   * reload slow enough to fall behind anyway. */
  etrace_stream_start (stream, 0, seq++, FALSE, 0);
  etrace_stream_name (stream, 0, seq++, 1, "task", 2, 3, NAN);
  for (guint i = 0; i < FLOOD_RUNS; i++)
    {
      etrace_stream_event (stream, 1, 9000, seq++ & 0x3fff, 1, -1);
      etrace_stream_event (stream, 2, 1000, seq++ & 0x3fff, 1, -1);
    }

  device_open (&device);

  /* An idle-priority tick, below redraws and input: if it keeps running,
   * so does everything above it. */
  tick_id = g_timeout_add_full (G_PRIORITY_DEFAULT_IDLE, 5, on_tick, &ticks, NULL);

  flood.master = device.master;
  flood.stream = stream;
  flood.rate = 50 * 1000 * 1000;
  started = g_get_monotonic_time ();
  thread = g_thread_new ("flood", flood_thread, &flood);

  bytes_wait.n_bytes = stream->len;
  while (!has_bytes (&bytes_wait))
    {
      measured_iteration (&ticks);
      seen_behind |= check_behind (&device, &ticks);
      g_assert_cmpint (g_get_monotonic_time () - started, <, 60 * G_USEC_PER_SEC);
    }
  elapsed = g_get_monotonic_time () - started;
  g_thread_join (g_steal_pointer (&thread));

  g_test_message ("flood: %u bytes in %.2f s (%.1f MB/s), %u ticks, longest main-loop gap %.1f ms, "
                  "longest iteration %.1f ms of CPU",
                  stream->len, elapsed / 1e6, stream->len / (elapsed / 1e6) / 1e6,
                  ticks.n, ticks.max_gap / 1000.0, ticks.max_iteration_us / 1000.0);

  /* Everything kept, and the main loop never stalled */
  g_assert_cmpuint (flood.sent, ==, stream->len);
  g_assert_cmpuint (sps_live_capture_get_n_bytes (device.capture), ==, stream->len);
  g_assert_cmpuint (ticks.n, >=, MIN_FLOOD_TICKS);

  /* The device goes quiet: the view catches up with every frame while
   * the capture still runs, and the bar goes away. Swapping in a
   * generation of millions of events costs the main thread tens of
   * milliseconds (the session's per-track indexes), more than a slice of
   * reading does, but never a freeze. */
  ticks.max_gap = 0;
  ticks.last = 0;
  ticks.max_iteration_us = 0;
  ticks.n = 0;
  started = g_get_monotonic_time ();
  while (shown_events (&device) != 2 + 2 * (guint64) FLOOD_RUNS ||
         sps_live_window_get_state (device.window) != SPS_LIVE_STATE_RECEIVING)
    {
      measured_iteration (&ticks);
      seen_behind |= check_behind (&device, &ticks);
      g_assert_cmpint (g_get_monotonic_time () - started, <, 120 * G_USEC_PER_SEC);
    }
  g_test_message ("catching up: %.2f s, longest main-loop gap %.1f ms, longest iteration %.1f ms of CPU",
                  (g_get_monotonic_time () - started) / 1e6, ticks.max_gap / 1000.0,
                  ticks.max_iteration_us / 1000.0);
  g_assert_true (seen_behind);
  g_assert_null (sps_live_window_get_state_text (device.window));
  /* The catching-up reloads swap generations between ticks */
  g_assert_cmpuint (ticks.n, >=, 2);

  sps_live_capture_stop (device.capture);
  expected = g_strdup_printf ("%s: capture stopped — %u events kept", device.path, 2 + 2 * FLOOD_RUNS);
  g_assert_cmpstr (sps_live_window_get_state_text (device.window), ==, expected);

  g_source_remove (tick_id);
  device_close (&device);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ui/live-states/unplugged-mid-frame", test_unplugged_mid_frame);
  g_test_add_func ("/ui/live-states/no-frames", test_no_frames);
  g_test_add_func ("/ui/live-states/garbage-between-frames", test_garbage_between_frames);
  g_test_add_func ("/ui/live-states/flood", test_flood);

  return g_test_run ();
}
