/* test-ui-live.c: the live capture window on a pseudo terminal
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A "device" (the master side of an openpty pair) sends a v2 stream in
 * three bursts; the live window must show each burst as a new generation
 * of the trace, follow the newest time while "Follow" is on and stay put
 * when it is off; Stop keeps everything and Save writes the bytes that
 * were sent, which reopen as the same trace.
 */

#define G_LOG_DOMAIN "test-ui-live"

#include "config.h"

#include <math.h>
#include <pty.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <glib-unix.h>

#include "etrace-stream.h"
#include "sps-device-dialog.h"
#include "sps-live-memory.h"
#include "sps-live-window.h"
#include "sps-screenshot.h"
#include "sps-window.h"

#include "sps-test-shell.h"
#include "sps-test-ui.h"

typedef struct
{
  SpsLiveWindow *window;
  guint          slices;
} Wait;

static gboolean
has_slices (gpointer data)
{
  Wait *wait = data;
  SpsSession *session = sps_live_window_get_session (wait->window);

  return session != NULL &&
         sps_trace_count_slices (sps_session_get_trace (session), SPS_TRACK_THREAD_SLICES) == wait->slices;
}

static void
wait_for_slices (SpsLiveWindow *window,
                 guint          slices)
{
  Wait wait = { window, slices };

  sps_test_wait_until (has_slices, &wait);
}

/* 10 runs of "task" (1 µs each, every 10 µs), the first @gap_us after
 * the previous frame: a burst lasts 91 µs */
static void
burst (GByteArray *s,
       guint32    *seq,
       guint       gap_us)
{
  for (guint i = 0; i < 10; i++)
    {
      etrace_stream_event (s, 1, i == 0 ? (gint64) gap_us * 1000 : 9000, (*seq)++, 1, -1);
      etrace_stream_event (s, 2, 1000, (*seq)++, 1, -1);
    }
}

/* The counter "Spanscope memory" of @trace: its track, or SPS_NO_INDEX */
static guint
memory_track (SpsTrace *trace)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);

  for (guint t = 0; t < tracks->n_rows; t++)
    if (tracks->kind[t] == SPS_TRACK_COUNTER &&
        g_strcmp0 (sps_trace_get_string (trace, tracks->name[t]), "Spanscope memory") == 0)
      return t;

  return SPS_NO_INDEX;
}

static gboolean
has_no_memory (gpointer data)
{
  SpsSession *session = sps_live_window_get_session (data);

  return memory_track (sps_session_get_trace (session)) == SPS_NO_INDEX;
}

static void
wait_for_no_memory (SpsLiveWindow *window)
{
  sps_test_wait_until (has_no_memory, window);
}

/* Burst 1: header, name, 10 spans from 0 µs (to 91 µs) */
static void
first_burst (GByteArray *s,
             guint32    *seq)
{
  etrace_stream_start (s, 0, (*seq)++, FALSE, 0);
  etrace_stream_name (s, 0, (*seq)++, 1, "task", 2, 3, NAN);
  burst (s, seq, 0);
}

/* A live window capturing from a pseudo terminal whose master side (the
 * "device") is returned in @master */
static SpsLiveWindow *
open_pty_window (int             *master,
                 SpsLiveCapture **capture)
{
  g_autoptr(SpsSerialSource) source = NULL;
  g_autoptr(GError) error = NULL;
  SpsLiveWindow *window;
  char name[256];
  GStatBuf st;
  int slave;

  g_assert_cmpint (openpty (master, &slave, name, NULL, NULL), ==, 0);
  close (slave);

  source = sps_serial_source_new (name, 115200);
  *capture = sps_live_capture_new (SPS_LIVE_SOURCE (source));
  g_assert_true (sps_live_capture_start (*capture, &error));
  g_assert_no_error (error);

  /* The capture file has no name left, so it cannot outlive the process
   * (the window may still hold it when the program ends) */
  g_assert_cmpint (g_stat (g_file_peek_path (sps_live_capture_get_file (*capture)), &st), ==, 0);
  g_assert_cmpuint (st.st_nlink, ==, 0);

  window = sps_live_window_new (NULL, *capture);
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 500);
  gtk_window_present (GTK_WINDOW (window));

  return window;
}

static void
send_all (int         master,
          GByteArray *s,
          gsize      *sent)
{
  while (*sent < s->len)
    {
      gssize n = write (master, s->data + *sent, s->len - *sent);

      g_assert_cmpint (n, >, 0);
      *sent += n;
    }
}

/* For a look at it: VARIABLE=out.png */
static void
maybe_screenshot (SpsLiveWindow *window,
                  const char    *variable)
{
  g_autoptr(GError) error = NULL;
  gint64 until = g_get_monotonic_time () + 500000;

  if (g_getenv (variable) == NULL)
    return;

  sps_live_window_set_follow (window, TRUE);
  while (g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, FALSE);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  sps_screenshot_save (GTK_WIDGET (window), g_getenv (variable), &error);
  g_assert_no_error (error);
}

static gboolean
save_done (gpointer data)
{
  return !sps_live_window_get_saving (data);
}

/* The window's Save: on a worker, saying in the status line how it went;
 * a failed one says why and writes nothing */
static void
check_window_save (SpsLiveWindow    *window,
                   const char       *dir,
                   const GByteArray *stream)
{
  g_autofree char *path = g_build_filename (dir, "capture-2.etrace", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing", "capture-3.etrace", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) bad = g_file_new_for_path (missing);
  g_autofree char *fifo = g_build_filename (dir, "capture.fifo", NULL);
  g_autoptr(GFile) fifo_file = g_file_new_for_path (fifo);
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize len = 0;

  sps_live_window_save (window, file);
  g_assert_true (sps_live_window_get_saving (window));
  g_assert_true (g_str_has_suffix (sps_test_label_text (GTK_WIDGET (window), "live-status"),
                                   " · saving as capture-2.etrace…"));
  sps_test_wait_until (save_done, window);
  g_assert_true (g_str_has_suffix (sps_test_label_text (GTK_WIDGET (window), "live-status"),
                                   " · saved as capture-2.etrace"));
  g_file_get_contents (path, &contents, &len, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (contents, len, stream->data, stream->len);

  sps_live_window_save (window, bad);
  sps_test_wait_until (save_done, window);
  g_assert_nonnull (strstr (sps_test_label_text (GTK_WIDGET (window), "live-status"),
                            " · could not save capture-3.etrace: "));
  g_assert_false (g_file_test (missing, G_FILE_TEST_EXISTS));

  /* A FIFO is refused, not opened (that would wait for a reader) */
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  sps_live_window_save (window, fifo_file);
  sps_test_wait_until (save_done, window);
  g_assert_nonnull (strstr (sps_test_label_text (GTK_WIDGET (window), "live-status"), " · could not save capture.fifo: "));
  g_assert_true (g_str_has_suffix (sps_test_label_text (GTK_WIDGET (window), "live-status"),
                                   "capture.fifo: not a regular file (a FIFO); it is not replaced"));

  g_unlink (fifo);
  g_unlink (path);
}

static void
test_live_window (void)
{
  g_autoptr(GByteArray) stream = g_byte_array_new ();
  g_autoptr(SpsLiveCapture) capture = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) saved = NULL;
  g_autoptr(SpsTrace) reopened = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *saved_path = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *selected_name = NULL;
  SpsLiveWindow *window;
  SpsSession *session;
  const SpsSliceTable *slices;
  SpsTime start, end, selected_ts, range_start, range_end;
  gsize sent = 0, len = 0;
  guint32 seq = 0;
  int master;

  window = open_pty_window (&master, &capture);
  g_assert_true (sps_live_window_get_follow (window));
  g_assert_null (sps_live_window_get_session (window));

  /* Burst 1: header, name, 10 spans from 0 µs */
  first_burst (stream, &seq);
  send_all (master, stream, &sent);
  wait_for_slices (window, 10);
  g_assert_cmpuint (sps_live_window_get_generation (window), >=, 1);

  /* Zoom in on the start, then burst 2 (100 µs later, from 191 µs to
   * 282 µs): following, the view
   * keeps its width and ends at the newest time */
  session = sps_live_window_get_session (window);
  sps_session_set_visible (session, 0, 20000);
  burst (stream, &seq, 100);
  send_all (master, stream, &sent);
  wait_for_slices (window, 20);
  session = sps_live_window_get_session (window);
  end = sps_trace_get_end_time (sps_session_get_trace (session));
  g_assert_cmpint (end, ==, 282000);
  g_assert_cmpint (sps_session_get_visible_end (session), ==, end);
  g_assert_cmpint (sps_session_get_visible_end (session) - sps_session_get_visible_start (session), ==, 20000);

  /* What the user sets stays from update to update: a slice selected,
   * a range, a flag */
  slices = sps_trace_get_slices (sps_session_get_trace (session));
  selected_ts = slices->ts[3];
  selected_name = g_strdup (sps_trace_get_string (sps_session_get_trace (session), slices->name[3]));
  sps_session_set_selected_slice (session, 3);
  sps_session_set_range (session, 10000, 15000);
  sps_session_add_flag (session, 12000, "seen");

  /* Not following: burst 3 (582–673 µs) leaves the view where it is */
  sps_live_window_set_follow (window, FALSE);
  start = sps_session_get_visible_start (session);
  end = sps_session_get_visible_end (session);
  burst (stream, &seq, 300);
  send_all (master, stream, &sent);
  wait_for_slices (window, 30);
  session = sps_live_window_get_session (window);
  g_assert_cmpint (sps_session_get_visible_start (session), ==, start);
  g_assert_cmpint (sps_session_get_visible_end (session), ==, end);

  slices = sps_trace_get_slices (sps_session_get_trace (session));
  g_assert_cmpuint (sps_session_get_selected_slice (session), !=, SPS_NO_INDEX);
  g_assert_cmpint (slices->ts[sps_session_get_selected_slice (session)], ==, selected_ts);
  g_assert_cmpstr (sps_trace_get_string (sps_session_get_trace (session),
                                         slices->name[sps_session_get_selected_slice (session)]), ==, selected_name);
  g_assert_true (sps_session_get_range (session, &range_start, &range_end));
  g_assert_cmpint (range_start, ==, 10000);
  g_assert_cmpint (range_end, ==, 15000);
  g_assert_cmpuint (g_list_model_get_n_items (sps_session_get_flags (session)), ==, 1);

  maybe_screenshot (window, "SPANSCOPE_LIVE_SCREENSHOT");

  /* Stop keeps the capture; bytes sent afterwards are not read */
  sps_live_capture_stop (capture);
  g_assert_false (sps_live_capture_get_running (capture));
  g_assert_cmpuint (sps_live_capture_get_n_bytes (capture), ==, stream->len);

  dir = g_dir_make_tmp ("test-ui-live-XXXXXX", &error);
  g_assert_no_error (error);
  saved_path = g_build_filename (dir, "capture.etrace", NULL);
  saved = g_file_new_for_path (saved_path);
  g_assert_true (sps_live_capture_save (capture, saved, &error));
  g_assert_no_error (error);
  g_file_get_contents (saved_path, &contents, &len, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (contents, len, stream->data, stream->len);

  reopened = sps_trace_load (saved, NULL, NULL, SPS_LOAD_FLAGS_NONE, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sps_trace_count_slices (reopened, SPS_TRACK_THREAD_SLICES), ==, 30);
  g_assert_cmpint (sps_trace_get_end_time (reopened), ==, 673000);

  check_window_save (window, dir, stream);

  gtk_window_destroy (GTK_WINDOW (window));
  close (master);
  g_unlink (saved_path);
  g_rmdir (dir);
}

static void
on_chosen (SpsDeviceDialog *dialog,
           const char      *path,
           guint            baud,
           gpointer         user_data)
{
  char **chosen = user_data;

  *chosen = g_strdup_printf ("%s@%u", path, baud);
}

static void
test_device_dialog (void)
{
  SpsDeviceDialog *dialog = sps_device_dialog_new (NULL);
  g_autofree char *chosen = NULL;

  g_object_ref_sink (dialog);
  g_signal_connect (dialog, "device-chosen", G_CALLBACK (on_chosen), &chosen);
  gtk_window_present (GTK_WINDOW (dialog));

  g_assert_cmpuint (sps_device_dialog_get_baud (dialog), ==, 115200);

  /* For a look at it: SPANSCOPE_DIALOG_SCREENSHOT=out.png */
  if (g_getenv ("SPANSCOPE_DIALOG_SCREENSHOT") != NULL)
    {
      g_autoptr(GError) shot_error = NULL;

      gtk_test_widget_wait_for_draw (GTK_WIDGET (dialog));
      sps_screenshot_save (GTK_WIDGET (dialog), g_getenv ("SPANSCOPE_DIALOG_SCREENSHOT"), &shot_error);
      g_assert_no_error (shot_error);
    }
  g_assert_true (G_IS_LIST_MODEL (sps_device_dialog_get_devices (dialog)));
  g_assert_cmpstr (sps_device_dialog_get_path (dialog), ==, "");

  /* Start: the chosen port and speed */
  sps_device_dialog_set_path (dialog, "/dev/ttyUSB3");
  g_assert_cmpstr (sps_device_dialog_get_path (dialog), ==, "/dev/ttyUSB3");
  sps_device_dialog_start (dialog);
  g_assert_cmpstr (chosen, ==, "/dev/ttyUSB3@115200");

  g_object_unref (dialog);
}

static SpsDeviceDialog *
find_device_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (SPS_IS_DEVICE_DIALOG (window))
        return SPS_DEVICE_DIALOG (window);
    }

  return NULL;
}

/* Host time to the capture's clock, by hand: anchored at host 1 s =
 * capture 5000 ns, a sample at host 3 s is at 5000 + 2e9 ns; one before
 * the anchor (none yet) is dropped; disabled, nothing is kept. */
static void
test_memory_clock (void)
{
  g_autoptr(SpsLiveMemory) memory = sps_live_memory_new ();
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GArray) samples = NULL;
  g_autoptr(GError) error = NULL;
  const SpsTrackTable *tracks;
  const SpsCounterTable *counters;
  guint track;

  g_assert_false (sps_live_memory_sample (memory, 2000000, 1000));
  sps_live_memory_set_enabled (memory, TRUE);
  g_assert_false (sps_live_memory_sample (memory, 2000000, 1000));
  sps_live_memory_anchor (memory, 1000000, 5000);
  /* Only the first anchor counts */
  sps_live_memory_anchor (memory, 1500000, 9999999);
  g_assert_true (sps_live_memory_sample (memory, 3000000, 123456789));
  g_assert_true (sps_live_memory_sample (memory, 4000000, 123460000));
  g_assert_cmpuint (sps_live_memory_get_n_samples (memory), ==, 2);

  samples = sps_live_memory_dup_samples (memory);
  sps_live_memory_add_rows (builder, samples);
  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);

  track = memory_track (trace);
  g_assert_cmpuint (track, !=, SPS_NO_INDEX);
  tracks = sps_trace_get_tracks (trace);
  counters = sps_trace_get_counters (trace);
  g_assert_cmpstr (sps_trace_get_string (trace, sps_trace_get_processes (trace)->name[tracks->process[track]]), ==, "Spanscope");
  g_assert_cmpuint (tracks->n_rows_in_track[track], ==, 2);
  g_assert_cmpint (counters->ts[tracks->first_row[track]], ==, 2000005000);
  g_assert_cmpfloat (counters->value[tracks->first_row[track]], ==, 123456789.0);
  g_assert_cmpint (counters->ts[tracks->first_row[track] + 1], ==, 3000005000);

  /* Off forgets everything; on again waits for a new anchor */
  sps_live_memory_set_enabled (memory, FALSE);
  g_assert_cmpuint (sps_live_memory_get_n_samples (memory), ==, 0);
  sps_live_memory_set_enabled (memory, TRUE);
  g_assert_false (sps_live_memory_sample (memory, 5000000, 1000));
}

/* The menu's "Spanscope Memory Track": off by default; on, the updates
 * after a second carry the counter on the capture's clock; off, it
 * goes. */
static void
test_memory_track (void)
{
  g_autoptr(GByteArray) stream = g_byte_array_new ();
  g_autoptr(SpsLiveCapture) capture = NULL;
  g_autoptr(GVariant) state = NULL;
  SpsLiveWindow *window;
  SpsTrace *trace = NULL;
  const SpsTrackTable *tracks;
  const SpsCounterTable *counters;
  gint64 began = g_get_monotonic_time ();
  gint64 until;
  gsize sent = 0;
  guint32 seq = 0;
  guint track = SPS_NO_INDEX;
  int master;

  window = open_pty_window (&master, &capture);

  state = g_action_group_get_action_state (G_ACTION_GROUP (window), "memory-track");
  g_assert_false (g_variant_get_boolean (state));
  g_action_group_change_action_state (G_ACTION_GROUP (window), "memory-track", g_variant_new_boolean (TRUE));

  /* Burst 1 (to 91 µs): its first update is the anchor */
  first_burst (stream, &seq);
  send_all (master, stream, &sent);
  wait_for_slices (window, 10);

  /* Samples come once a second after the anchor and show with the next
   * update, which needs new bytes: a burst every second until one shows
   * them (under load the first tick can be late) */
  for (guint k = 2; k <= 6; k++)
    {
      until = g_get_monotonic_time () + G_USEC_PER_SEC;
      while (g_get_monotonic_time () < until)
        g_main_context_iteration (NULL, FALSE);
      burst (stream, &seq, 100);
      send_all (master, stream, &sent);
      wait_for_slices (window, 10 * k);
      trace = sps_session_get_trace (sps_live_window_get_session (window));
      if ((track = memory_track (trace)) != SPS_NO_INDEX)
        break;
    }

  g_assert_cmpuint (track, !=, SPS_NO_INDEX);
  tracks = sps_trace_get_tracks (trace);
  counters = sps_trace_get_counters (trace);
  g_assert_cmpuint (tracks->n_rows_in_track[track], >=, 1);
  /* A GTK process holds more than a megabyte */
  g_assert_cmpfloat (counters->value[tracks->first_row[track]], >, 1e6);
  /* On the capture's clock: after its start, and no later than its
   * newest time at the anchor (at most 91 µs) plus the host time since */
  g_assert_cmpint (counters->ts[tracks->first_row[track]], >, 0);
  g_assert_cmpint (counters->ts[tracks->first_row[track]], <=, 91000 + (g_get_monotonic_time () - began) * 1000);
  maybe_screenshot (window, "SPANSCOPE_LIVE_MEMORY_SCREENSHOT");

  /* Off: the next generation has no such track */
  g_action_group_change_action_state (G_ACTION_GROUP (window), "memory-track", g_variant_new_boolean (FALSE));
  wait_for_no_memory (window);

  gtk_window_destroy (GTK_WINDOW (window));
  close (master);
}

/* File ▸ Open Device… shows the dialog; choosing a port that does not
 * exist leaves the trace window as it was (the error is a message). */
static void
test_open_device_action (void)
{
  g_autoptr(SpsApplication) app = sps_test_register_app ();
  SpsDeviceDialog *dialog;
  SpsWindow *window;

  window = sps_window_new (app);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_null (find_device_dialog ());

  g_action_group_activate_action (G_ACTION_GROUP (window), "open-device", NULL);
  dialog = find_device_dialog ();
  g_assert_nonnull (dialog);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == GTK_WINDOW (window));
  g_assert_true (gtk_window_get_modal (GTK_WINDOW (dialog)));

  sps_device_dialog_set_path (dialog, "/nonexistent/ttyACM9");
  sps_device_dialog_start (dialog);
  g_assert_null (find_device_dialog ());
  g_assert_cmpint (sps_window_get_state (window), ==, SPS_WINDOW_STATE_EMPTY);

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ui/live/window", test_live_window);
  g_test_add_func ("/ui/live/device-dialog", test_device_dialog);
  g_test_add_func ("/ui/live/open-device-action", test_open_device_action);
  g_test_add_func ("/ui/live/memory-clock", test_memory_clock);
  g_test_add_func ("/ui/live/memory-track", test_memory_track);

  return g_test_run ();
}
