/* sps-broadway.c: `spanscope --broadway[=PORT]`, the app served to a web browser
 *
 * GTK's Broadway backend draws windows into a web page that
 * gtk4-broadwayd serves. With --broadway, Spanscope starts that daemon on
 * the loopback address (only this machine can connect: a remote user
 * forwards the port over ssh, docs/source-viewer.md), makes GTK use it
 * (GDK_BACKEND=broadway, BROADWAY_DISPLAY), prints the page's address,
 * and stops the daemon when the app quits. This runs in main() before
 * GTK opens a display, which is the last moment the backend can be chosen.
 *
 * The display number follows GTK's own rule, port = 8080 + display, so the
 * default port 8080 is display :0; ports below 8080 wrap around 65536 to
 * keep one display per port.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-broadway"

#include "config.h"

#include <signal.h>
#include <string.h>
#ifdef __linux__
# include <sys/prctl.h>
#endif

#include <gio/gunixsocketaddress.h>
#include <glib/gi18n-lib.h>

#include "sps-broadway.h"

#define OPTION "--broadway"
#define DAEMON "gtk4-broadwayd"
#define READY_TIMEOUT_US (10 * G_USEC_PER_SEC)
#define STOP_TIMEOUT_MS 2000
/* How far above a busy port to look for a free one to suggest */
#define SUGGEST_RANGE 100

struct _SpsBroadway
{
  GSubprocess *daemon;
  char        *socket_path;
  guint        port;
  gboolean     exited;
};

guint
sps_broadway_display_for_port (guint port)
{
  return (port + 65536 - SPS_BROADWAY_DEFAULT_PORT) % 65536;
}

/* Where GTK and the daemon put the socket of @port's display (:N's is
 * broadway(N+1).socket in the user's runtime folder); free with g_free() */
char *
sps_broadway_socket_for_port (guint port)
{
  g_autofree char *name = g_strdup_printf ("broadway%u.socket", sps_broadway_display_for_port (port) + 1);

  return g_build_filename (g_get_user_runtime_dir (), name, NULL);
}

/* Finds and removes --broadway or --broadway=PORT from @argv; FALSE with
 * @error for a bad port. */
static gboolean
take_option (int     *argc,
             char   **argv,
             gboolean *found,
             guint    *port,
             GError  **error)
{
  *found = FALSE;
  *port = SPS_BROADWAY_DEFAULT_PORT;

  for (int i = 1; i < *argc; i++)
    {
      const char *arg = argv[i];
      guint64 value;

      if (strcmp (arg, "--") == 0)
        break;
      if (strcmp (arg, OPTION) != 0 && !g_str_has_prefix (arg, OPTION "="))
        continue;

      if (arg[strlen (OPTION)] == '=' &&
          !g_ascii_string_to_unsigned (arg + strlen (OPTION) + 1, 10, 1, 65535, &value, NULL))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("Invalid port “%s” for --broadway: a number from 1 to 65535"), arg + strlen (OPTION) + 1);
          return FALSE;
        }
      if (arg[strlen (OPTION)] == '=')
        *port = (guint) value;

      *found = TRUE;
      memmove (&argv[i], &argv[i + 1], (gsize) (*argc - i) * sizeof (char *));
      (*argc)--;
      i--;
    }

  return TRUE;
}

/* Whether the loopback @port can be listened on now (the daemon would
 * fail on a busy one, and another server's answer would look like the
 * daemon's) */
static gboolean
port_is_free (guint    port,
              GError **error)
{
  g_autoptr(GSocketListener) listener = g_socket_listener_new ();
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, (guint16) port);

  if (!g_socket_listener_add_address (listener, address, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP,
                                      NULL, NULL, error))
    return FALSE;

  g_socket_listener_close (listener);
  return TRUE;
}

/* An error for the busy @port that suggests a free port above it */
static void
set_port_error (guint         port,
                const GError *cause,
                GError      **error)
{
  guint other = 0;

  for (guint candidate = port + 1; candidate <= MIN (port + SUGGEST_RANGE, 65535u) && other == 0; candidate++)
    if (port_is_free (candidate, NULL))
      other = candidate;

  if (!g_error_matches (cause, G_IO_ERROR, G_IO_ERROR_ADDRESS_IN_USE))
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                 /* Translators: a port number, then why it cannot be used */
                 _("Cannot serve the app on port %u: %s"), port, cause->message);
  else if (other != 0)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_ADDRESS_IN_USE,
                 /* Translators: two port numbers; keep --broadway= as it is */
                 _("Cannot serve the app on port %u: another program is using it. "
                   "Choose another port, such as --broadway=%u"), port, other);
  else
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_ADDRESS_IN_USE,
                 /* Translators: a port number; keep --broadway=PORT as it is */
                 _("Cannot serve the app on port %u: another program is using it. "
                   "Choose another port with --broadway=PORT"), port);
}

static void
child_setup (gpointer data)
{
#ifdef __linux__
  /* The daemon goes when Spanscope goes, even when Spanscope is killed */
  prctl (PR_SET_PDEATHSIG, SIGTERM);
#endif
}

/* Runs until the daemon exits; sps_broadway_stop() waits for it, so
 * @self outlives it */
static void
daemon_exited_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  SpsBroadway *self = user_data;

  g_subprocess_wait_finish (G_SUBPROCESS (object), result, NULL);
  self->exited = TRUE;
}

static gboolean
accepts_connections (GSocketConnectable *address)
{
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketConnection) connection = NULL;

  g_socket_client_set_timeout (client, 1);
  connection = g_socket_client_connect (client, address, NULL, NULL);

  return connection != NULL;
}

/* Whether the daemon takes both kinds of connection: the browser's on the
 * port and GTK's on the display's socket. It listens on the port first
 * and on the socket after, so an app started when the port answered
 * could find no socket yet ("cannot open display"). */
static gboolean
is_ready (SpsBroadway *self)
{
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) http = g_inet_socket_address_new (loopback, (guint16) self->port);
  g_autoptr(GSocketAddress) display = g_unix_socket_address_new (self->socket_path);

  return accepts_connections (G_SOCKET_CONNECTABLE (http)) &&
         accepts_connections (G_SOCKET_CONNECTABLE (display));
}

/* Waits until the daemon takes connections (the port was free before, so
 * what answers is the daemon); FALSE when it exits first or does not
 * answer within READY_TIMEOUT_US. */
static gboolean
wait_until_ready (SpsBroadway  *self,
                  GError      **error)
{
  gint64 deadline = g_get_monotonic_time () + READY_TIMEOUT_US;

  for (;;)
    {
      while (g_main_context_iteration (NULL, FALSE))
        ;
      if (self->exited)
        {
          g_set_error (error, G_SPAWN_ERROR, G_SPAWN_ERROR_FAILED,
                       _("%s stopped before serving port %u"), DAEMON, self->port);
          return FALSE;
        }
      if (is_ready (self))
        return TRUE;
      if (g_get_monotonic_time () >= deadline)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                       _("%s did not serve port %u within %d seconds"), DAEMON, self->port,
                       (int) (READY_TIMEOUT_US / G_USEC_PER_SEC));
          return FALSE;
        }
      g_usleep (50 * 1000);
    }
}

/**
 * sps_broadway_start:
 * @argc: main()'s argc
 * @argv: main()'s argv; --broadway[=PORT] is taken out of it
 * @broadway: (out) (transfer full) (nullable): the running daemon, %NULL
 *   without --broadway
 * @error: why the daemon could not start
 *
 * With --broadway[=PORT]: starts gtk4-broadwayd on 127.0.0.1:PORT, points
 * GTK at it and prints the address to open. Call before GTK is used.
 *
 * Returns: FALSE with @error when --broadway was given and failed
 */
gboolean
sps_broadway_start (int          *argc,
                    char        **argv,
                    SpsBroadway **broadway,
                    GError      **error)
{
  g_autoptr(SpsBroadway) self = NULL;
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autofree char *program = NULL;
  g_autofree char *display = NULL;
  g_autofree char *port_text = NULL;
  gboolean found;
  guint port;

  g_return_val_if_fail (argc != NULL && argv != NULL, FALSE);
  g_return_val_if_fail (broadway != NULL && *broadway == NULL, FALSE);

  if (!take_option (argc, argv, &found, &port, error))
    return FALSE;
  if (!found)
    return TRUE;

  if (!(program = g_find_program_in_path (DAEMON)))
    {
      g_set_error (error, G_SPAWN_ERROR, G_SPAWN_ERROR_NOENT,
                   _("--broadway needs %s, which is not installed (Debian: libgtk-4-bin)"), DAEMON);
      return FALSE;
    }
  {
    g_autoptr(GError) cause = NULL;

    if (!port_is_free (port, &cause))
      {
        set_port_error (port, cause, error);
        return FALSE;
      }
  }

  self = g_new0 (SpsBroadway, 1);
  self->port = port;
  display = g_strdup_printf (":%u", sps_broadway_display_for_port (port));
  self->socket_path = sps_broadway_socket_for_port (port);
  port_text = g_strdup_printf ("%u", port);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_subprocess_launcher_set_child_setup (launcher, child_setup, NULL, NULL);
  if (!(self->daemon = g_subprocess_launcher_spawn (launcher, error, program, "--address", "127.0.0.1",
                                                    "--port", port_text, display, NULL)))
    return FALSE;
  g_subprocess_wait_async (self->daemon, NULL, daemon_exited_cb, self);

  if (!wait_until_ready (self, error))
    return FALSE;

  g_setenv ("GDK_BACKEND", "broadway", TRUE);
  g_setenv ("BROADWAY_DISPLAY", display, TRUE);

  g_print (_("Spanscope is served at http://127.0.0.1:%u/ — open it in a web browser\n"), port);

  *broadway = g_steal_pointer (&self);
  return TRUE;
}

/**
 * sps_broadway_prepare_app:
 * @self: (nullable): the daemon, or %NULL without --broadway
 * @app: the application, not yet running
 *
 * A served app is its own instance: a Spanscope already running on this
 * desktop must not take the files and leave the page empty.
 */
void
sps_broadway_prepare_app (SpsBroadway  *self,
                          GApplication *app)
{
  g_return_if_fail (G_IS_APPLICATION (app));

  if (self == NULL)
    return;

  g_application_set_flags (app, g_application_get_flags (app) | G_APPLICATION_NON_UNIQUE);
}

static gboolean
stop_timeout_cb (gpointer user_data)
{
  gboolean *timed_out = user_data;

  *timed_out = TRUE;
  return G_SOURCE_REMOVE;
}

/**
 * sps_broadway_stop:
 * @self: (transfer full): the daemon
 *
 * Stops the daemon (SIGTERM, then SIGKILL after 2 s), waits for it and
 * frees @self.
 */
void
sps_broadway_stop (SpsBroadway *self)
{
  gboolean timed_out = FALSE;
  guint timeout;

  if (self == NULL)
    return;

  if (self->daemon != NULL)
    {
      if (!self->exited)
        g_subprocess_send_signal (self->daemon, SIGTERM);
      timeout = g_timeout_add (STOP_TIMEOUT_MS, stop_timeout_cb, &timed_out);
      while (!self->exited && !timed_out)
        g_main_context_iteration (NULL, TRUE);
      if (!self->exited)
        g_subprocess_force_exit (self->daemon);
      while (!self->exited)
        g_main_context_iteration (NULL, TRUE);
      if (!timed_out)
        g_source_remove (timeout);
    }

  g_clear_object (&self->daemon);
  g_free (self->socket_path);
  g_free (self);
}
