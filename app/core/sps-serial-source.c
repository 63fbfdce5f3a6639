/* sps-serial-source.c: a serial port as a live source
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Raw termios (PLATFORM.md §8): cfmakeraw, CLOCAL | CREAD, VMIN = 1,
 * VTIME = 0, the requested speed. Canonical mode would swallow the
 * protobuf bytes that look like line editing characters. DTR (and RTS)
 * are raised because many CDC-ACM firmwares only send once the host
 * has opened the port that way; a pseudo terminal has no modem lines and
 * answers ENOTTY, which is fine. Reading is non-blocking from a unix fd
 * source. End of file, EIO and a hang-up are how an unplugged device
 * shows up: the source ends cleanly and everything read is kept by the
 * consumer.
 *
 * A device that floods must not starve the main loop: one dispatch reads
 * at most READ_BUDGET bytes (the rest waits in the kernel, which is what
 * throttles the device), and the watch runs below the priority of GTK's
 * redraws and input, so the window keeps drawing however fast bytes come.
 */

#define G_LOG_DOMAIN "sps-serial-source"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib-unix.h>

#include "sps-serial-source.h"

#define READ_SIZE (64 * 1024)
/* Bytes read per dispatch at most: about 5 ms of copying at worst */
#define READ_BUDGET (1024 * 1024)
/* Below GDK's redraw (G_PRIORITY_HIGH_IDLE + 20) and input (DEFAULT) */
#define WATCH_PRIORITY G_PRIORITY_DEFAULT_IDLE

struct _SpsSerialSource
{
  GObject  parent_instance;

  char    *path;
  guint    baud;
  int      fd;
  guint    watch;
  guint64  bytes_read;
  gboolean ended;
};

static void sps_serial_source_iface_init (SpsLiveSourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SpsSerialSource, sps_serial_source, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SPS_TYPE_LIVE_SOURCE, sps_serial_source_iface_init))

static const struct
{
  guint   baud;
  speed_t speed;
} speeds[] = {
  { 1200, B1200 }, { 2400, B2400 }, { 4800, B4800 }, { 9600, B9600 },
  { 19200, B19200 }, { 38400, B38400 }, { 57600, B57600 }, { 115200, B115200 },
  { 230400, B230400 }, { 460800, B460800 }, { 500000, B500000 }, { 576000, B576000 },
  { 921600, B921600 }, { 1000000, B1000000 }, { 1152000, B1152000 }, { 1500000, B1500000 },
  { 2000000, B2000000 }, { 2500000, B2500000 }, { 3000000, B3000000 }, { 3500000, B3500000 },
  { 4000000, B4000000 },
};

static gboolean
lookup_speed (guint    baud,
              speed_t *speed)
{
  for (guint i = 0; i < G_N_ELEMENTS (speeds); i++)
    {
      if (speeds[i].baud == baud)
        {
          *speed = speeds[i].speed;
          return TRUE;
        }
    }

  return FALSE;
}

static void
close_device (SpsSerialSource *self)
{
  g_clear_handle_id (&self->watch, g_source_remove);
  if (self->fd >= 0)
    {
      close (self->fd);
      self->fd = -1;
    }
}

static void
end (SpsSerialSource *self,
     const GError    *error)
{
  if (self->ended)
    return;

  self->ended = TRUE;
  close_device (self);
  sps_live_source_emit_ended (SPS_LIVE_SOURCE (self), error);
}

static gboolean
on_readable (int           fd,
             GIOCondition  condition,
             gpointer      user_data)
{
  SpsSerialSource *self = user_data;
  g_autofree guint8 *buf = g_malloc (READ_SIZE);
  gsize budget = READ_BUDGET;

  g_assert (SPS_IS_SERIAL_SOURCE (self));

  /* Keep a reference: a handler of "data" or "ended" may drop the last
   * one the consumer holds. */
  g_object_ref (self);

  for (;;)
    {
      gssize n = read (fd, buf, MIN (READ_SIZE, budget));

      if (n > 0)
        {
          g_autoptr(GBytes) bytes = g_bytes_new (buf, n);

          self->bytes_read += n;
          sps_live_source_emit_data (SPS_LIVE_SOURCE (self), bytes);
          budget -= n;
          if (self->ended)
            break;
          /* Still readable: the next dispatch goes on after the others */
          if (budget == 0)
            break;
          continue;
        }

      if (n < 0 && errno == EINTR)
        continue;

      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        {
          /* A hang-up with nothing left to read also ends the capture */
          if ((condition & (G_IO_HUP | G_IO_ERR)) != 0 && (condition & G_IO_IN) == 0)
            end (self, NULL);
          break;
        }

      if (n == 0 || errno == EIO)
        {
          /* EOF or EIO: the device went away (unplugged, pty closed) */
          self->watch = 0;
          end (self, NULL);
          g_object_unref (self);
          return G_SOURCE_REMOVE;
        }
      else
        {
          int saved = errno;
          g_autoptr(GError) error = NULL;

          g_set_error (&error, SPS_LIVE_SOURCE_ERROR, SPS_LIVE_SOURCE_ERROR_IO,
                       /* Translators: %s are a device path and a system error message */
                       _("Reading %s failed: %s"), self->path, g_strerror (saved));
          self->watch = 0;
          end (self, error);
          g_object_unref (self);
          return G_SOURCE_REMOVE;
        }
    }

  if (self->ended)
    {
      self->watch = 0;
      g_object_unref (self);
      return G_SOURCE_REMOVE;
    }

  g_object_unref (self);
  return G_SOURCE_CONTINUE;
}

static gboolean
set_up_tty (SpsSerialSource  *self,
            GError          **error)
{
  struct termios tio;
  speed_t speed;
  int lines = TIOCM_DTR | TIOCM_RTS;

  if (!lookup_speed (self->baud, &speed))
    {
      g_set_error (error, SPS_LIVE_SOURCE_ERROR, SPS_LIVE_SOURCE_ERROR_OPEN,
                   /* Translators: %u is a baud rate */
                   _("Unsupported baud rate %u"), self->baud);
      return FALSE;
    }

  if (tcgetattr (self->fd, &tio) != 0)
    {
      int saved = errno;

      g_set_error (error, SPS_LIVE_SOURCE_ERROR, SPS_LIVE_SOURCE_ERROR_OPEN,
                   /* Translators: %s are a device path and a system error message */
                   _("%s is not a serial port: %s"), self->path, g_strerror (saved));
      return FALSE;
    }

  cfmakeraw (&tio);
  tio.c_cflag |= CLOCAL | CREAD;
  tio.c_cc[VMIN] = 1;
  tio.c_cc[VTIME] = 0;
  cfsetispeed (&tio, speed);
  cfsetospeed (&tio, speed);

  if (tcsetattr (self->fd, TCSANOW, &tio) != 0)
    {
      int saved = errno;

      g_set_error (error, SPS_LIVE_SOURCE_ERROR, SPS_LIVE_SOURCE_ERROR_OPEN,
                   /* Translators: %s are a device path and a system error message */
                   _("Could not set up %s: %s"), self->path, g_strerror (saved));
      return FALSE;
    }

  if (ioctl (self->fd, TIOCMBIS, &lines) != 0 && errno != ENOTTY && errno != EINVAL)
    g_debug ("%s: could not raise DTR: %s", self->path, g_strerror (errno));

  return TRUE;
}

static const char *
sps_serial_source_get_name (SpsLiveSource *source)
{
  return SPS_SERIAL_SOURCE (source)->path;
}

static gboolean
sps_serial_source_start (SpsLiveSource  *source,
                         GError        **error)
{
  SpsSerialSource *self = SPS_SERIAL_SOURCE (source);

  g_assert (SPS_IS_SERIAL_SOURCE (self));

  if (self->fd >= 0 || self->ended)
    {
      g_set_error_literal (error, SPS_LIVE_SOURCE_ERROR, SPS_LIVE_SOURCE_ERROR_OPEN,
                           _("The capture was already started"));
      return FALSE;
    }

  self->fd = open (self->path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (self->fd < 0)
    {
      int saved = errno;

      g_set_error (error, SPS_LIVE_SOURCE_ERROR, SPS_LIVE_SOURCE_ERROR_OPEN,
                   /* Translators: %s are a device path and a system error message */
                   _("Could not open %s: %s"), self->path, g_strerror (saved));
      return FALSE;
    }

  if (!set_up_tty (self, error))
    {
      close_device (self);
      return FALSE;
    }

  self->watch = g_unix_fd_add_full (WATCH_PRIORITY, self->fd, G_IO_IN | G_IO_HUP | G_IO_ERR,
                                    on_readable, self, NULL);

  return TRUE;
}

static void
sps_serial_source_stop (SpsLiveSource *source)
{
  SpsSerialSource *self = SPS_SERIAL_SOURCE (source);

  g_assert (SPS_IS_SERIAL_SOURCE (self));

  /* Bytes already in the kernel's buffer are still delivered; a device
   * that keeps flooding refills it, hence the bound. */
  if (self->fd >= 0)
    {
      g_autofree guint8 *buf = g_malloc (READ_SIZE);
      gsize budget = 4 * READ_BUDGET;
      gssize n;

      while (budget > 0 && (n = read (self->fd, buf, MIN (READ_SIZE, budget))) > 0)
        {
          g_autoptr(GBytes) bytes = g_bytes_new (buf, n);

          budget -= n;
          self->bytes_read += n;
          sps_live_source_emit_data (source, bytes);
        }
    }

  end (self, NULL);
}

static void
sps_serial_source_iface_init (SpsLiveSourceInterface *iface)
{
  iface->get_name = sps_serial_source_get_name;
  iface->start = sps_serial_source_start;
  iface->stop = sps_serial_source_stop;
}

static void
sps_serial_source_finalize (GObject *object)
{
  SpsSerialSource *self = SPS_SERIAL_SOURCE (object);

  close_device (self);
  g_free (self->path);

  G_OBJECT_CLASS (sps_serial_source_parent_class)->finalize (object);
}

static void
sps_serial_source_class_init (SpsSerialSourceClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sps_serial_source_finalize;
}

static void
sps_serial_source_init (SpsSerialSource *self)
{
  self->fd = -1;
}

/**
 * sps_serial_source_new:
 * @path: the device, e.g. `/dev/ttyACM0`
 * @baud: the line speed (see sps_serial_source_baud_is_valid()); USB
 *   CDC-ACM devices usually ignore it
 *
 * Returns: (transfer full): a source that reads @path once started
 */
SpsSerialSource *
sps_serial_source_new (const char *path,
                       guint       baud)
{
  SpsSerialSource *self;

  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (SPS_TYPE_SERIAL_SOURCE, NULL);
  self->path = g_strdup (path);
  self->baud = baud;

  return self;
}

/**
 * sps_serial_source_get_path:
 * @self: a #SpsSerialSource
 *
 * Returns: (transfer none): the device node read, e.g. `/dev/ttyACM0`
 */
const char *
sps_serial_source_get_path (SpsSerialSource *self)
{
  g_return_val_if_fail (SPS_IS_SERIAL_SOURCE (self), NULL);

  return self->path;
}

/**
 * sps_serial_source_get_baud:
 * @self: a #SpsSerialSource
 *
 * Returns: the line speed the port is set to, in baud (on a pseudo
 *   terminal or a CDC-ACM device it has no effect on the transfer)
 */
guint
sps_serial_source_get_baud (SpsSerialSource *self)
{
  g_return_val_if_fail (SPS_IS_SERIAL_SOURCE (self), 0);

  return self->baud;
}

/**
 * sps_serial_source_get_bytes_read:
 * @self: a #SpsSerialSource
 *
 * Returns: how many bytes were delivered so far
 */
guint64
sps_serial_source_get_bytes_read (SpsSerialSource *self)
{
  g_return_val_if_fail (SPS_IS_SERIAL_SOURCE (self), 0);

  return self->bytes_read;
}

/**
 * sps_serial_source_baud_is_valid:
 * @baud: a line speed in bit/s
 *
 * Returns: whether @baud is one of the speeds termios can set
 */
gboolean
sps_serial_source_baud_is_valid (guint baud)
{
  speed_t speed;

  return lookup_speed (baud, &speed);
}
