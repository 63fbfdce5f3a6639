/* test-serial.c: the serial live source and `spanscope-cli capture` on
 * pseudo terminals (no hardware)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The test writes into the master side of an openpty pair, in random
 * chunk sizes, a v2 stream whose payloads are full of bytes a terminal in
 * canonical mode would eat or translate (03 04 0a 0d 11 13 1a 7f 00 ff 1c
 * 15); the source reads the slave side. Closing the master is what an
 * unplugged USB device looks like to the reader (EIO).
 */

#define G_LOG_DOMAIN "test-serial"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pty.h>
#include <termios.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <glib-unix.h>
#include <spanscope-core.h>

#include "etrace-stream.h"
#include "sps-etrace-decoder.h"

#define N_FRAMES 5000

static const guint8 special[] = { 0x03, 0x04, 0x0a, 0x0d, 0x11, 0x13, 0x1a, 0x7f, 0x00, 0xff, 0x1c, 0x15 };

/* A header, two names, then N_FRAMES - 3 events; marker values and
 * deltas are made of tty-special bytes. */
static GByteArray *
make_stream (guint n_frames)
{
  GByteArray *s = g_byte_array_new ();
  guint32 seq = 0;

  etrace_stream_start (s, 0, seq++, FALSE, 0);
  etrace_stream_name (s, 0, seq++, 1, "isr\x7f\x1a", 1, 3, NAN);
  etrace_stream_name (s, 0, seq++, 2, "mark\x11\x13", 0, 0, NAN);
  for (guint i = 3; i < n_frames; i++)
    {
      guint32 a = special[i % G_N_ELEMENTS (special)];
      guint32 b = special[(i / 3) % G_N_ELEMENTS (special)];

      if (i % 3 == 2)
        etrace_stream_event (s, 3, a | (b << 8), seq++ % 16384, 2, a | (b << 8) | (a << 16) | (b << 24));
      else
        etrace_stream_event (s, i % 3 == 0 ? 1 : 2, 1 + (a | (b << 8)), seq++ % 16384, 1, -1);
    }

  return s;
}

typedef struct
{
  GMainLoop  *loop;
  GByteArray *received;
  GByteArray *stream;
  GRand      *rand;
  gsize       sent;
  int         master;
  gboolean    ended;
  GError     *error;
} Pump;

static void
on_data (SpsLiveSource *source,
         GBytes        *bytes,
         gpointer       user_data)
{
  Pump *pump = user_data;
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  g_byte_array_append (pump->received, data, len);
}

static void
on_ended (SpsLiveSource *source,
          const GError  *error,
          gpointer       user_data)
{
  Pump *pump = user_data;

  pump->ended = TRUE;
  if (error != NULL)
    pump->error = g_error_copy (error);
  g_main_loop_quit (pump->loop);
}

/* Writes the next random chunk (1–200 bytes) into the master; closes it
 * once everything was read by the other side ("unplug"). */
static gboolean
pump_step (gpointer user_data)
{
  Pump *pump = user_data;

  if (pump->sent < pump->stream->len)
    {
      /* (MIN() would draw the random size twice) */
      gsize chunk = (gsize) g_rand_int_range (pump->rand, 1, 201);
      gsize n = MIN (chunk, pump->stream->len - pump->sent);
      gssize written = write (pump->master, pump->stream->data + pump->sent, n);

      if (written > 0)
        pump->sent += written;
      else
        g_assert_true (errno == EAGAIN || errno == EINTR);
      return G_SOURCE_CONTINUE;
    }

  if (pump->received->len < pump->stream->len)
    return G_SOURCE_CONTINUE;

  close (pump->master);
  pump->master = -1;
  return G_SOURCE_REMOVE;
}

static int
open_pty (char **slave_path)
{
  int master, slave;
  char name[256];

  g_assert_cmpint (openpty (&master, &slave, name, NULL, NULL), ==, 0);
  *slave_path = g_strdup (name);
  /* The source opens the slave by path; the test's own descriptor would
   * keep the line up after the source closed it. */
  close (slave);
  g_unix_set_fd_nonblocking (master, TRUE, NULL);

  return master;
}

static void
test_pty_byte_exact (void)
{
  g_autoptr(GByteArray) stream = make_stream (N_FRAMES);
  g_autoptr(GByteArray) received = g_byte_array_new ();
  g_autoptr(SpsSerialSource) source = NULL;
  g_autoptr(SpsEtraceDecoder) decoder = sps_etrace_decoder_new ();
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  Pump pump = { 0 };

  pump.master = open_pty (&path);
  pump.loop = loop;
  pump.received = received;
  pump.stream = stream;
  pump.rand = g_rand_new_with_seed (1234);

  source = sps_serial_source_new (path, 921600);
  g_signal_connect (source, "data", G_CALLBACK (on_data), &pump);
  g_signal_connect (source, "ended", G_CALLBACK (on_ended), &pump);
  g_assert_true (sps_live_source_start (SPS_LIVE_SOURCE (source), &error));
  g_assert_no_error (error);
  g_assert_cmpstr (sps_live_source_get_name (SPS_LIVE_SOURCE (source)), ==, path);

  g_idle_add (pump_step, &pump);
  g_main_loop_run (loop);

  /* Unplugging ended the capture cleanly with every byte kept */
  g_assert_true (pump.ended);
  g_assert_no_error (pump.error);
  g_assert_cmpmem (received->data, received->len, stream->data, stream->len);
  g_assert_cmpuint (sps_serial_source_get_bytes_read (source), ==, stream->len);

  sps_etrace_decoder_feed (decoder, received->data, received->len);
  sps_etrace_decoder_finish (decoder);
  g_assert_cmpuint (sps_etrace_decoder_get_frames (decoder), ==, N_FRAMES);
  for (guint h = 0; h < SPS_ETRACE_N_HEALTH; h++)
    g_assert_cmpuint (sps_etrace_decoder_get_count (decoder, h), ==, 0);

  /* Stopping after the end changes nothing */
  sps_live_source_stop (SPS_LIVE_SOURCE (source));
  g_rand_free (pump.rand);
}

static void
test_stop_keeps_data (void)
{
  g_autoptr(GByteArray) stream = make_stream (50);
  g_autoptr(GByteArray) received = g_byte_array_new ();
  g_autoptr(SpsSerialSource) source = NULL;
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  Pump pump = { 0 };

  pump.master = open_pty (&path);
  pump.loop = loop;
  pump.received = received;

  source = sps_serial_source_new (path, 115200);
  g_signal_connect (source, "data", G_CALLBACK (on_data), &pump);
  g_signal_connect (source, "ended", G_CALLBACK (on_ended), &pump);
  g_assert_true (sps_live_source_start (SPS_LIVE_SOURCE (source), &error));

  /* Written but not yet read when Stop is pressed: still delivered */
  g_assert_cmpint (write (pump.master, stream->data, stream->len), ==, (gssize) stream->len);
  sps_live_source_stop (SPS_LIVE_SOURCE (source));

  g_assert_true (pump.ended);
  g_assert_no_error (pump.error);
  g_assert_cmpmem (received->data, received->len, stream->data, stream->len);
  close (pump.master);
}

static void
test_open_errors (void)
{
  g_autoptr(SpsSerialSource) missing = sps_serial_source_new ("/nonexistent/ttyACM9", 115200);
  g_autoptr(SpsSerialSource) not_tty = sps_serial_source_new ("/dev/null", 115200);
  g_autoptr(SpsSerialSource) bad_baud = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  int master = open_pty (&path);

  g_assert_false (sps_live_source_start (SPS_LIVE_SOURCE (missing), &error));
  g_assert_error (error, SPS_LIVE_SOURCE_ERROR, SPS_LIVE_SOURCE_ERROR_OPEN);
  g_clear_error (&error);

  g_assert_false (sps_live_source_start (SPS_LIVE_SOURCE (not_tty), &error));
  g_assert_error (error, SPS_LIVE_SOURCE_ERROR, SPS_LIVE_SOURCE_ERROR_OPEN);
  g_clear_error (&error);

  g_assert_false (sps_serial_source_baud_is_valid (12345));
  g_assert_true (sps_serial_source_baud_is_valid (115200));
  bad_baud = sps_serial_source_new (path, 12345);
  g_assert_false (sps_live_source_start (SPS_LIVE_SOURCE (bad_baud), &error));
  g_assert_error (error, SPS_LIVE_SOURCE_ERROR, SPS_LIVE_SOURCE_ERROR_OPEN);
  close (master);
}

/* `spanscope-cli capture` end to end: a garbled piece in the middle is
 * reported and decoding resumes at the next stream header; the file
 * holds exactly the bytes sent. */
static void
test_cli_capture (void)
{
  const char *cli = g_getenv ("SPANSCOPE_CLI");
  g_autoptr(GByteArray) stream = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *out = NULL;
  g_autofree char *captured = NULL;
  g_autofree char *err_text = NULL;
  g_autofree char *info = NULL;
  g_autoptr(GSubprocess) capture = NULL;
  g_autoptr(GSubprocess) info_process = NULL;
  gsize captured_len = 0;
  gsize sent = 0;
  int master;
  guint32 seq = 0;
  static const guint8 garbage[] = { 0xff, 0x13, 0x11, 0x00, 0x7f };

  if (cli == NULL)
    {
      g_test_skip ("SPANSCOPE_CLI is not set");
      return;
    }

  stream = make_stream (300);
  g_byte_array_append (stream, garbage, sizeof garbage);
  seq = 300;
  etrace_stream_start (stream, 5000000, seq++, FALSE, 0);
  etrace_stream_name (stream, 5000000, seq++, 1, "after", 2, 1, NAN);
  etrace_stream_event (stream, 1, 10, seq++, 1, -1);
  etrace_stream_event (stream, 2, 10, seq++, 1, -1);

  master = open_pty (&path);
  dir = g_dir_make_tmp ("test-serial-XXXXXX", &error);
  g_assert_no_error (error);
  out = g_build_filename (dir, "capture.etrace", NULL);

  capture = g_subprocess_new (G_SUBPROCESS_FLAGS_STDERR_PIPE, &error,
                              cli, "capture", path, "--baud", "460800", "--duration", "60s", "-o", out, NULL);
  g_assert_no_error (error);

  /* Wait until the reader has the line in raw mode before writing */
  for (guint i = 0; i < 500; i++)
    {
      struct termios tio;
      int fd = open (path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);

      g_assert_cmpint (fd, >=, 0);
      g_assert_cmpint (tcgetattr (fd, &tio), ==, 0);
      close (fd);
      if ((tio.c_lflag & ICANON) == 0)
        break;
      g_usleep (10000);
    }

  while (sent < stream->len)
    {
      gssize n = write (master, stream->data + sent, MIN (stream->len - sent, 97));

      if (n > 0)
        sent += n;
      else
        g_usleep (1000);
    }
  /* Let the reader drain the line, then unplug */
  g_usleep (300000);
  close (master);

  g_subprocess_communicate_utf8 (capture, NULL, NULL, NULL, &err_text, &error);
  g_assert_no_error (error);
  g_test_message ("%s", err_text);
  g_assert_true (g_subprocess_get_if_exited (capture));
  g_assert_cmpint (g_subprocess_get_exit_status (capture), ==, 0);
  g_assert_nonnull (strstr (err_text, "desync: 1"));

  g_file_get_contents (out, &captured, &captured_len, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (captured, captured_len, stream->data, stream->len);

  /* The saved capture opens as a trace: 100 isr spans before the
   * garbage, one "after" span behind it */
  info_process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error,
                                   cli, "info", "--json", out, NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (info_process, NULL, NULL, &info, NULL, &error);
  g_assert_no_error (error);
  {
    g_autoptr(JsonParser) parser = json_parser_new ();
    JsonObject *spans;

    json_parser_load_from_data (parser, info, -1, &error);
    g_assert_no_error (error);
    spans = json_object_get_object_member (json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)),
                                                                          "embedded"),
                                           "spans_per_name");
    /* starts at frames 3, 6 … 297 and ends at 4, 7 … 298: 99 spans */
    g_assert_cmpint (json_object_get_int_member (spans, "isr\x7f\x1a"), ==, 99);
    g_assert_cmpint (json_object_get_int_member (spans, "after"), ==, 1);
  }

  g_unlink (out);
  g_rmdir (dir);
}

static int
run_cli (const char * const *args,
         char              **err)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  int status = -1;

  g_ptr_array_add (argv, (gpointer) g_getenv ("SPANSCOPE_CLI"));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);

  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                NULL, err, &status, &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));

  return WEXITSTATUS (status);
}

/* Usage errors exit with 2, a device that cannot be opened with 1 */
static void
test_cli_errors (void)
{
  static const char * const no_output[] = { "capture", "/dev/ttyACM0", NULL };
  static const char * const no_device[] = { "capture", "-o", "x.etrace", NULL };
  static const char * const bad_baud[] = { "capture", "/dev/ttyACM0", "--baud", "12345", "-o", "x.etrace", NULL };
  static const char * const bad_duration[] = { "capture", "/dev/ttyACM0", "--duration", "soon", "-o", "x.etrace", NULL };
  /* "m" is no unit of the time parser (minutes are "min"); no duration is
   * negative */
  static const char * const minutes_as_m[] = { "capture", "/dev/ttyACM0", "--duration", "2m", "-o", "x.etrace", NULL };
  static const char * const negative[] = { "capture", "/dev/ttyACM0", "--duration", "-3", "-o", "x.etrace", NULL };
  /* Accepted (a bare number is seconds): the device is what fails */
  static const char * const seconds[] = { "capture", "/nonexistent/ttyACM9", "--duration", "1.5", "-o",
                                          "/nonexistent/x.etrace", NULL };
  static const char * const minutes[] = { "capture", "/nonexistent/ttyACM9", "--duration", "2min", "-o",
                                          "/nonexistent/x.etrace", NULL };
  static const char * const missing[] = { "capture", "/nonexistent/ttyACM9", "-o", "/nonexistent/x.etrace", NULL };
  static const char * const list[] = { "capture", "--list", NULL };
  g_autofree char *err = NULL;

  if (g_getenv ("SPANSCOPE_CLI") == NULL)
    {
      g_test_skip ("SPANSCOPE_CLI is not set");
      return;
    }

  g_assert_cmpint (run_cli (no_output, NULL), ==, 2);
  g_assert_cmpint (run_cli (no_device, NULL), ==, 2);
  g_assert_cmpint (run_cli (bad_baud, NULL), ==, 2);
  g_assert_cmpint (run_cli (bad_duration, NULL), ==, 2);
  g_assert_cmpint (run_cli (minutes_as_m, NULL), ==, 2);
  g_assert_cmpint (run_cli (negative, NULL), ==, 2);
  g_assert_cmpint (run_cli (seconds, NULL), ==, 1);
  g_assert_cmpint (run_cli (minutes, NULL), ==, 1);
  g_assert_cmpint (run_cli (missing, &err), ==, 1);
  g_assert_nonnull (strstr (err, "/nonexistent/ttyACM9"));
  g_assert_cmpint (run_cli (list, NULL), ==, 0);
}

/* --duration ends the capture by its timeout (the device stays silent and
 * plugged in): exit 0, an empty capture written, and no GLib-CRITICAL (the
 * timeout source was once removed a second time; the test environment
 * makes criticals fatal, so that would be a crash). */
static void
test_cli_capture_duration (void)
{
  const char *cli = g_getenv ("SPANSCOPE_CLI");
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err_text = NULL;
  g_autofree char *captured = NULL;
  g_autoptr(GSubprocess) capture = NULL;
  gsize captured_len = 1;
  int master;

  if (cli == NULL)
    {
      g_test_skip ("SPANSCOPE_CLI is not set");
      return;
    }

  master = open_pty (&path);
  dir = g_dir_make_tmp ("test-serial-XXXXXX", &error);
  g_assert_no_error (error);
  out = g_build_filename (dir, "silent.etrace", NULL);

  capture = g_subprocess_new (G_SUBPROCESS_FLAGS_STDERR_PIPE, &error,
                              cli, "capture", path, "--duration", "300ms", "-o", out, NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (capture, NULL, NULL, NULL, &err_text, &error);
  g_assert_no_error (error);
  close (master);

  g_test_message ("%s", err_text);
  g_assert_true (g_subprocess_get_if_exited (capture));
  g_assert_cmpint (g_subprocess_get_exit_status (capture), ==, 0);
  g_assert_null (strstr (err_text, "CRITICAL"));
  g_file_get_contents (out, &captured, &captured_len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (captured_len, ==, 0);

  g_assert_cmpint (g_remove (out), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/serial/pty/byte-exact", test_pty_byte_exact);
  g_test_add_func ("/serial/pty/stop-keeps-data", test_stop_keeps_data);
  g_test_add_func ("/serial/open-errors", test_open_errors);
  g_test_add_func ("/serial/cli/capture", test_cli_capture);
  g_test_add_func ("/serial/cli/errors", test_cli_errors);
  g_test_add_func ("/serial/cli/capture-duration", test_cli_capture_duration);

  return g_test_run ();
}
