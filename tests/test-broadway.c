/* test-broadway.c: `spanscope --broadway=PORT` seen in a web browser:
 * the app serves tests/fixtures/broadway-two-slices.json on a free
 * loopback port, headless Chromium loads the page and takes a screenshot,
 * and the two slices are where the timeline draws them, in their palette
 * colours; on a busy port the app refuses clearly and starts no
 * daemon; and the app starts only once the daemon takes GTK's
 * connections, not only the browser's. Every child has a deadline and is
 * killed with its process group when the test ends.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-broadway"

#include "config.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <gio/gunixsocketaddress.h>
#include <glib/gstdio.h>
#include <spanscope-gtk.h>

#include "sps-broadway.h"
#include "sps-test-util.h"

#define APP_READY_TIMEOUT_S 60
#define BROWSER_TIMEOUT_S 60
/* Screenshots are taken until the page shows both slices: at least
 * MIN_ATTEMPTS, and on for up to ATTEMPTS_S seconds, since under load
 * (a full test run beside other work) the app may map its window after
 * several of the browser's 4-second virtual-time runs */
#define MIN_ATTEMPTS 4
#define ATTEMPTS_S 60

typedef struct
{
  GSubprocess *process;
  gboolean     exited;
} Child;

static void
child_setup (gpointer data)
{
  /* Its own process group: Chromium's helpers go with it */
  setpgid (0, 0);
}

static void
child_exited_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  Child *child = user_data;

  g_subprocess_wait_finish (G_SUBPROCESS (object), result, NULL);
  child->exited = TRUE;
}

static gboolean
flag_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

static void
child_spawn (Child               *child,
             GSubprocessLauncher *launcher,
             const char * const  *argv)
{
  g_autoptr(GError) error = NULL;

  g_subprocess_launcher_set_child_setup (launcher, child_setup, NULL, NULL);
  child->process = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  child->exited = FALSE;
  g_subprocess_wait_async (child->process, NULL, child_exited_cb, child);
}

/* Waits up to @seconds for @child to exit; TRUE if it did */
static gboolean
child_wait (Child *child,
            guint  seconds)
{
  gboolean timed_out = FALSE;
  guint timeout = g_timeout_add_seconds (seconds, flag_cb, &timed_out);

  while (!child->exited && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (!timed_out)
    g_source_remove (timeout);

  return child->exited;
}

/* Ends @child and its group: SIGTERM (the app stops its daemon), then
 * SIGKILL after 5 s */
static void
child_kill (Child *child)
{
  const char *pid;

  if (child->process == NULL)
    return;

  pid = g_subprocess_get_identifier (child->process);
  if (!child->exited && pid != NULL)
    {
      pid_t group = (pid_t) g_ascii_strtoll (pid, NULL, 10);

      kill (-group, SIGTERM);
      if (!child_wait (child, 5))
        {
          kill (-group, SIGKILL);
          while (!child->exited)
            g_main_context_iteration (NULL, TRUE);
        }
    }
  g_clear_object (&child->process);
}

static guint
free_port (void)
{
  g_autoptr(GSocketListener) listener = g_socket_listener_new ();
  g_autoptr(GError) error = NULL;
  guint16 port = g_socket_listener_add_any_inet_port (listener, NULL, &error);

  g_assert_no_error (error);
  g_socket_listener_close (listener);
  return port;
}

typedef struct
{
  GString  *output;
  gboolean  done;
} Reader;

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Reader *reader = user_data;
  g_autoptr(GBytes) bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, NULL);

  if (bytes == NULL || g_bytes_get_size (bytes) == 0)
    {
      reader->done = TRUE;
      return;
    }
  g_string_append_len (reader->output, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes));
  g_input_stream_read_bytes_async (G_INPUT_STREAM (object), 4096, G_PRIORITY_DEFAULT, NULL, read_cb, reader);
}

typedef struct
{
  int x0, x1, y0, y1;
  guint count;
} Box;

static gboolean
near (guint32 pixel,
      guint32 rgb)
{
  for (int shift = 0; shift < 24; shift += 8)
    {
      int a = (pixel >> shift) & 0xff;
      int b = (rgb >> shift) & 0xff;

      if (ABS (a - b) > 2)
        return FALSE;
    }
  return TRUE;
}

/* The bounding box of the pixels of colour @rgb (0xRRGGBB) */
static Box
find_colour (const guint32 *pixels,
             int            width,
             int            height,
             guint32        rgb)
{
  Box box = { width, -1, height, -1, 0 };

  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      if (near (pixels[y * width + x], rgb))
        {
          box.x0 = MIN (box.x0, x);
          box.x1 = MAX (box.x1, x);
          box.y0 = MIN (box.y0, y);
          box.y1 = MAX (box.y1, y);
          box.count++;
        }

  return box;
}

static guint32
rgb_of (const GdkRGBA *rgba)
{
  return (guint32) (rgba->red * 255 + .5) << 16 | (guint32) (rgba->green * 255 + .5) << 8 |
         (guint32) (rgba->blue * 255 + .5);
}

static gboolean
take_screenshot (const char *chromium,
                 const char *profile,
                 const char *url,
                 const char *png)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                                                                        G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_autofree char *profile_arg = g_strconcat ("--user-data-dir=", profile, NULL);
  g_autofree char *png_arg = g_strconcat ("--screenshot=", png, NULL);
  const char *argv[] = { chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                         "--window-size=1400,1000", "--virtual-time-budget=4000", profile_arg, png_arg, url, NULL };
  Child browser = { NULL, FALSE };
  gboolean done;

  g_unlink (png);
  child_spawn (&browser, launcher, argv);
  done = child_wait (&browser, BROWSER_TIMEOUT_S);
  child_kill (&browser);

  return done && g_file_test (png, G_FILE_TEST_IS_REGULAR);
}

/* Paint [0, 500 µs) and Layout [500, 1000 µs) fill the one thread's row;
 * the window fits the trace, so each takes half the timeline's width,
 * Paint's right edge touching Layout's left edge, on the same rows. */
static void
test_browser_screenshot (void)
{
  g_autofree char *chromium = g_find_program_in_path ("chromium");
  g_autofree char *daemon = g_find_program_in_path ("gtk4-broadwayd");
  g_autofree char *fixture = sps_test_fixture_path ("broadway-two-slices.json");
  g_autofree char *tmp = NULL;
  g_autofree char *runtime = NULL;
  g_autofree char *profile = NULL;
  g_autofree char *png = NULL;
  g_autofree char *port_arg = NULL;
  g_autofree char *url = NULL;
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GError) error = NULL;
  const char *exe = g_getenv ("SPANSCOPE_EXE");
  Child app = { NULL, FALSE };
  Reader reader = { NULL, FALSE };
  guint32 paint_rgb = rgb_of (sps_palette_get_fill_for_name ("Paint", FALSE));
  guint32 layout_rgb = rgb_of (sps_palette_get_fill_for_name ("Layout", FALSE));
  gboolean ready = FALSE;
  gboolean timed_out = FALSE;
  Box paint = { 0 };
  Box layout = { 0 };
  guint port;
  gint64 attempts_start;

  if (chromium == NULL || daemon == NULL)
    {
      g_test_skip ("needs chromium and gtk4-broadwayd (build-aux/dev install-deps)");
      return;
    }
  g_assert_nonnull (exe);
  g_assert_cmphex (paint_rgb, !=, layout_rgb);

  tmp = g_dir_make_tmp ("sps-broadway-XXXXXX", &error);
  g_assert_no_error (error);
  runtime = g_build_filename (tmp, "runtime", NULL);
  profile = g_build_filename (tmp, "chromium", NULL);
  png = g_build_filename (tmp, "page.png", NULL);
  g_assert_cmpint (g_mkdir (runtime, 0700), ==, 0);

  port = free_port ();
  port_arg = g_strdup_printf ("--broadway=%u", port);
  url = g_strdup_printf ("http://127.0.0.1:%u/", port);

  /* The app, with its daemon's socket in a folder of its own */
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_subprocess_launcher_setenv (launcher, "XDG_RUNTIME_DIR", runtime, TRUE);
  g_subprocess_launcher_setenv (launcher, "GTK_A11Y", "none", TRUE);
  g_subprocess_launcher_unsetenv (launcher, "DISPLAY");
  g_subprocess_launcher_unsetenv (launcher, "WAYLAND_DISPLAY");
  {
    const char *argv[] = { exe, port_arg, fixture, NULL };

    child_spawn (&app, launcher, argv);
  }

  /* It prints the address once the daemon serves it */
  reader.output = g_string_new (NULL);
  g_input_stream_read_bytes_async (g_subprocess_get_stdout_pipe (app.process), 4096, G_PRIORITY_DEFAULT, NULL,
                                   read_cb, &reader);
  {
    guint timeout = g_timeout_add_seconds (APP_READY_TIMEOUT_S, flag_cb, &timed_out);

    while (!timed_out && !app.exited && !(ready = strstr (reader.output->str, url) != NULL))
      g_main_context_iteration (NULL, TRUE);
    if (!timed_out)
      g_source_remove (timeout);
  }
  g_test_message ("app said: %s", reader.output->str);
  g_assert_true (ready);

  /* The page draws once the app has loaded the trace and mapped its
   * window; try again on a slow machine */
  attempts_start = g_get_monotonic_time ();
  for (guint attempt = 0;
       attempt < MIN_ATTEMPTS || g_get_monotonic_time () - attempts_start < ATTEMPTS_S * G_USEC_PER_SEC;
       attempt++)
    {
      g_autoptr(GdkTexture) texture = NULL;
      g_autofree guint32 *pixels = NULL;
      int width, height;

      g_assert_false (app.exited);
      g_assert_true (take_screenshot (chromium, profile, url, png));
      texture = gdk_texture_new_from_filename (png, &error);
      g_assert_no_error (error);
      width = gdk_texture_get_width (texture);
      height = gdk_texture_get_height (texture);
      pixels = g_new (guint32, (gsize) width * height);
      gdk_texture_download (texture, (guchar *) pixels, (gsize) width * 4);

      paint = find_colour (pixels, width, height, paint_rgb);
      layout = find_colour (pixels, width, height, layout_rgb);
      g_test_message ("attempt %u: Paint %u px at x %d..%d y %d..%d; Layout %u px at x %d..%d y %d..%d",
                      attempt, paint.count, paint.x0, paint.x1, paint.y0, paint.y1,
                      layout.count, layout.x0, layout.x1, layout.y0, layout.y1);
      if (paint.count > 0 && layout.count > 0)
        break;
    }

  child_kill (&app);
  while (!reader.done)
    g_main_context_iteration (NULL, TRUE);
  g_string_free (reader.output, TRUE);
  if (g_getenv ("SPS_TEST_SCREENSHOT_DIR") != NULL)
    {
      g_autofree char *keep = g_build_filename (g_getenv ("SPS_TEST_SCREENSHOT_DIR"), "broadway-page.png", NULL);
      g_autofree char *contents = NULL;
      gsize length;

      if (g_file_get_contents (png, &contents, &length, NULL))
        g_file_set_contents (keep, contents, (gssize) length, NULL);
    }
  sps_test_remove_tree (tmp);

  /* Both slices are there, side by side on the same rows */
  g_assert_cmpuint (paint.count, >, 0);
  g_assert_cmpuint (layout.count, >, 0);
  g_assert_cmpint (paint.y0, ==, layout.y0);
  g_assert_cmpint (paint.y1, ==, layout.y1);
  /* A lane is track-height (20 px by default) and a slice fills it but a
   * pixel above and below (the slice painter's row->height - 2) */
  g_assert_cmpint (paint.y1 - paint.y0 + 1, ==, 20 - 2);
  /* Adjacent slices keep a one-pixel gap between them (the painter's
   * _sps_timeline_slice_keeps_gap) */
  g_assert_cmpint (layout.x0, ==, paint.x1 + 2);
  /* Equal durations, equal widths (to a pixel of rounding), and together
   * most of the 1200-pixel window's width (the gutter takes the rest) */
  g_assert_cmpint (ABS ((paint.x1 - paint.x0) - (layout.x1 - layout.x0)), <=, 1);
  g_assert_cmpint (layout.x1 - paint.x0, >=, 600);
}

/* Whether a gtk4-broadwayd serving @port runs (on this machine, for any
 * user whose processes are visible) */
static gboolean
daemon_runs_on (guint port)
{
  g_autoptr(GDir) proc = g_dir_open ("/proc", 0, NULL);
  g_autofree char *port_text = g_strdup_printf ("%u", port);
  const char *entry;

  g_assert_nonnull (proc);
  while ((entry = g_dir_read_name (proc)) != NULL)
    {
      g_autofree char *path = g_build_filename ("/proc", entry, "cmdline", NULL);
      g_autofree char *cmdline = NULL;
      gsize len = 0;
      gboolean daemon = FALSE;
      gboolean on_port = FALSE;
      const char *previous = NULL;

      if (!g_ascii_isdigit (entry[0]) || !g_file_get_contents (path, &cmdline, &len, NULL))
        continue;
      /* NUL-separated arguments: the program, then "--port" "PORT" */
      for (const char *arg = cmdline; arg < cmdline + len; arg += strlen (arg) + 1)
        {
          daemon |= g_str_has_suffix (arg, "gtk4-broadwayd") && previous == NULL;
          on_port |= previous != NULL && strcmp (previous, "--port") == 0 && strcmp (arg, port_text) == 0;
          previous = arg;
        }
      if (daemon && on_port)
        return TRUE;
    }

  return FALSE;
}

/* A port another program listens on: `spanscope --broadway=PORT FILE`
 * exits with status 1 at once, saying which port is in use and which
 * free one to take instead, and leaves no daemon behind */
static void
test_busy_port (void)
{
  g_autofree char *daemon = g_find_program_in_path ("gtk4-broadwayd");
  g_autofree char *fixture = sps_test_fixture_path ("broadway-two-slices.json");
  g_autoptr(GSocketListener) busy = g_socket_listener_new ();
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = NULL;
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *tmp = NULL;
  g_autofree char *port_arg = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *suggestion = NULL;
  const char *exe = g_getenv ("SPANSCOPE_EXE");
  Child app = { NULL, FALSE };
  Reader reader = { NULL, FALSE };
  const char *said;
  guint port;
  guint other;

  if (daemon == NULL)
    {
      g_test_skip ("needs gtk4-broadwayd (build-aux/dev install-deps)");
      return;
    }
  g_assert_nonnull (exe);

  /* Listen on a free port, as another server would */
  port = free_port ();
  address = g_inet_socket_address_new (loopback, (guint16) port);
  g_socket_listener_add_address (busy, address, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, NULL, NULL, &error);
  g_assert_no_error (error);
  port_arg = g_strdup_printf ("--broadway=%u", port);

  tmp = g_dir_make_tmp ("sps-broadway-busy-XXXXXX", &error);
  g_assert_no_error (error);
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDERR_PIPE | G_SUBPROCESS_FLAGS_STDOUT_SILENCE);
  g_subprocess_launcher_setenv (launcher, "XDG_RUNTIME_DIR", tmp, TRUE);
  g_subprocess_launcher_setenv (launcher, "GTK_A11Y", "none", TRUE);
  g_subprocess_launcher_setenv (launcher, "LANGUAGE", "C", TRUE);
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);
  {
    const char *argv[] = { exe, port_arg, fixture, NULL };

    child_spawn (&app, launcher, argv);
  }
  reader.output = g_string_new (NULL);
  g_input_stream_read_bytes_async (g_subprocess_get_stderr_pipe (app.process), 4096, G_PRIORITY_DEFAULT, NULL,
                                   read_cb, &reader);
  /* It refuses before starting anything: well within the deadline */
  g_assert_true (child_wait (&app, APP_READY_TIMEOUT_S));
  while (!reader.done)
    g_main_context_iteration (NULL, TRUE);
  said = reader.output->str;
  g_test_message ("app said: %s", said);

  g_assert_true (g_subprocess_get_if_exited (app.process));
  g_assert_cmpint (g_subprocess_get_exit_status (app.process), ==, 1);
  /* "spanscope: Cannot serve the app on port N: another program is using
   * it. Choose another port, such as --broadway=M" with M free, above N */
  expected = g_strdup_printf ("Cannot serve the app on port %u: another program is using it. "
                              "Choose another port, such as --broadway=", port);
  g_assert_nonnull (strstr (said, expected));
  suggestion = g_strdup (strstr (said, expected) + strlen (expected));
  other = (guint) g_ascii_strtoull (suggestion, NULL, 10);
  g_assert_cmpuint (other, >, port);
  g_assert_cmpuint (other, <=, port + 100);
  g_assert_false (daemon_runs_on (port));
  g_assert_false (daemon_runs_on (other));

  child_kill (&app);
  g_string_free (reader.output, TRUE);
  g_socket_listener_close (busy);
  sps_test_remove_tree (tmp);
}

/* A stand-in for gtk4-broadwayd that, as the real one does, listens on
 * the port first and on the display's socket after; here a second later,
 * so that an app started when the port answered could not open the
 * display yet. */
static const char fake_daemon[] =
  "#!/usr/bin/python3\n"
  "import os, socket, sys, threading, time\n"
  "def serve(listener):\n"
  "    while True:\n"
  "        listener.accept()[0].close()\n"
  "def listen(family, address):\n"
  "    listener = socket.socket(family)\n"
  "    listener.bind(address)\n"
  "    listener.listen(8)\n"
  "    threading.Thread(target=serve, args=(listener,), daemon=True).start()\n"
  "port = int(sys.argv[sys.argv.index('--port') + 1])\n"
  "display = int(sys.argv[-1][1:])\n"
  "listen(socket.AF_INET, ('127.0.0.1', port))\n"
  "time.sleep(1)\n"
  "listen(socket.AF_UNIX, os.path.join(os.environ['XDG_RUNTIME_DIR'], 'broadway%d.socket' % (display + 1)))\n"
  "time.sleep(60)\n";

static GString *printed;

/* What the start prints for the user, kept out of the test's TAP output */
static void
keep_print (const char *text)
{
  g_string_append (printed, text);
}

static void
test_ready_for_gtk (void)
{
  g_autofree char *tmp = NULL;
  g_autofree char *bin = NULL;
  g_autofree char *daemon = NULL;
  g_autofree char *path = NULL;
  g_autofree char *old_path = g_strdup (g_getenv ("PATH"));
  g_autofree char *port_arg = NULL;
  g_autofree char *display = NULL;
  g_autofree char *socket_path = NULL;
  g_autoptr(SpsBroadway) broadway = NULL;
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketAddress) address = NULL;
  g_autoptr(GSocketConnection) connection = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  GPrintFunc print_handler;
  gboolean ok;
  char *args[3];
  int n_args = 2;
  guint port;
  gint64 started;

  g_test_summary ("--broadway returns (and the app goes on to open the display) only once the "
                  "daemon listens on the display's socket, which gtk4-broadwayd opens after "
                  "its port: a stand-in daemon opens the socket a second after the port, and "
                  "the socket takes a connection as soon as the start returns");
  if (!g_file_test ("/usr/bin/python3", G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("needs /usr/bin/python3 for the stand-in daemon");
      return;
    }

  /* XDG_RUNTIME_DIR was set in main(), before GLib read it */
  tmp = g_dir_make_tmp ("sps-broadway-ready-XXXXXX", &error);
  g_assert_no_error (error);
  bin = g_build_filename (tmp, "bin", NULL);
  g_assert_cmpint (g_mkdir (bin, 0700), ==, 0);
  daemon = g_build_filename (bin, "gtk4-broadwayd", NULL);
  g_file_set_contents (daemon, fake_daemon, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (daemon, 0755), ==, 0);
  path = g_strconcat (bin, ":", old_path, NULL);
  g_setenv ("PATH", path, TRUE);

  port = free_port ();
  port_arg = g_strdup_printf ("--broadway=%u", port);
  args[0] = (char *) "spanscope";
  args[1] = port_arg;
  args[2] = NULL;
  display = g_strdup_printf (":%u", sps_broadway_display_for_port (port));
  socket_path = sps_broadway_socket_for_port (port);

  printed = g_string_new (NULL);
  print_handler = g_set_print_handler (keep_print);
  started = g_get_monotonic_time ();
  ok = sps_broadway_start (&n_args, args, &broadway, &error);
  g_set_print_handler (print_handler);
  g_assert_no_error (error);
  g_assert_true (ok);
  url = g_strdup_printf ("http://127.0.0.1:%u/", port);
  g_assert_nonnull (strstr (printed->str, url));
  g_string_free (g_steal_pointer (&printed), TRUE);
  g_assert_nonnull (broadway);
  g_assert_cmpint (n_args, ==, 1);
  g_assert_cmpint (g_get_monotonic_time () - started, >=, G_USEC_PER_SEC);
  g_assert_cmpstr (g_getenv ("BROADWAY_DISPLAY"), ==, display);

  address = g_unix_socket_address_new (socket_path);
  connection = g_socket_client_connect (client, G_SOCKET_CONNECTABLE (address), NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (connection);

  g_clear_object (&connection);
  g_clear_pointer (&broadway, sps_broadway_stop);
  g_unsetenv ("GDK_BACKEND");
  g_unsetenv ("BROADWAY_DISPLAY");
  g_setenv ("PATH", old_path, TRUE);
  g_unlink (socket_path);
  sps_test_remove_tree (tmp);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *runtime = g_dir_make_tmp ("sps-broadway-runtime-XXXXXX", NULL);
  int ret;

  /* GLib reads it once; the app's children get their own */
  g_setenv ("XDG_RUNTIME_DIR", runtime, TRUE);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/broadway/browser-screenshot", test_browser_screenshot);
  g_test_add_func ("/broadway/busy-port", test_busy_port);
  g_test_add_func ("/broadway/ready-for-gtk", test_ready_for_gtk);

  ret = g_test_run ();
  sps_test_remove_tree (runtime);
  return ret;
}
