/* sps-live-capture.c: the bytes of a running capture, kept and snapshotted
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every byte a live source delivers is appended, unchanged, to a
 * temporary .etrace file. That file is the capture: the live view decodes
 * its new bytes at each update (on a worker thread) to get each new
 * generation of the trace, and saving copies it, so a saved capture
 * reopens exactly as it was shown. "changed" is emitted at most every
 * UPDATE_INTERVAL_MS while data arrives, so a fast device does not make
 * the view update for every read.
 *
 * A serial device that is unplugged usually ends the read with EOF or
 * EIO, but not every driver hangs up the open file at once; the capture
 * also watches udev (SpsDeviceMonitor) and ends when its device is
 * removed, keeping everything received.
 */

#define G_LOG_DOMAIN "sps-live-capture"

#include "config.h"

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "sps-device-monitor.h"
#include "sps-live-capture.h"

#define UPDATE_INTERVAL_MS 250
/* What importers' probes see of a file (sps-trace-load.c) */
#define HEAD_SIZE          4096

struct _SpsLiveCapture
{
  GObject        parent_instance;

  SpsLiveSource *source;
  GFile         *file;
  int            fd;
  /* The file still has its name, to delete at finalize (open_unlinked()) */
  gboolean       named;
  guint64        n_bytes;
  GError        *error;
  guint          update_id;
  gboolean       running;
  gboolean       dirty;
  /* Ended by sps_live_capture_stop(), not by the device going away */
  gboolean       stopped;

  /* For a serial source: udev's devices, and whether ours was among them */
  SpsDeviceMonitor *monitor;
  char             *device_path;
  gboolean          device_seen;
};

G_DEFINE_FINAL_TYPE (SpsLiveCapture, sps_live_capture, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_RUNNING,
  N_PROPS
};

enum {
  CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static gboolean
on_update (gpointer user_data)
{
  SpsLiveCapture *self = user_data;

  g_assert (SPS_IS_LIVE_CAPTURE (self));

  if (!self->dirty)
    {
      self->update_id = 0;
      return G_SOURCE_REMOVE;
    }

  self->dirty = FALSE;
  g_signal_emit (self, signals[CHANGED], 0);

  return G_SOURCE_CONTINUE;
}

static void
on_data (SpsLiveCapture *self,
         GBytes         *bytes,
         SpsLiveSource  *source)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  g_assert (SPS_IS_LIVE_CAPTURE (self));

  while (len > 0 && self->fd >= 0)
    {
      gssize n = write (self->fd, data, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved = errno;

          if (self->error == NULL)
            g_set_error (&self->error, G_IO_ERROR, g_io_error_from_errno (saved),
                         /* Translators: %s is a system error message */
                         _("Could not keep the captured data: %s"), g_strerror (saved));
          sps_live_source_stop (self->source);
          return;
        }
      data += n;
      len -= n;
      self->n_bytes += n;
    }

  self->dirty = TRUE;
  if (self->update_id == 0)
    {
      /* The first data shows at once, then at most every interval */
      g_signal_emit (self, signals[CHANGED], 0);
      self->dirty = FALSE;
      self->update_id = g_timeout_add (UPDATE_INTERVAL_MS, on_update, self);
    }
}

static void
on_ended (SpsLiveCapture *self,
          const GError   *error,
          SpsLiveSource  *source)
{
  g_assert (SPS_IS_LIVE_CAPTURE (self));

  if (error != NULL && self->error == NULL)
    self->error = g_error_copy (error);

  self->running = FALSE;
  g_clear_handle_id (&self->update_id, g_source_remove);
  self->dirty = FALSE;

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
  g_signal_emit (self, signals[CHANGED], 0);
}

/* @path with a symbolic link such as /dev/serial/by-id/… followed (one
 * level is all udev makes). Not realpath(): preloaded fakes of the
 * file system (umockdev) do not all support its allocating form. */
static char *
resolve_device_path (const char *path)
{
  g_autofree char *target = NULL;
  g_autofree char *dir = NULL;

  if (!g_file_test (path, G_FILE_TEST_IS_SYMLINK) || !(target = g_file_read_link (path, NULL)))
    return g_canonicalize_filename (path, NULL);

  dir = g_path_get_dirname (path);
  return g_canonicalize_filename (target, dir);
}

/* Whether @monitor lists the device node @path (after symlinks). */
static gboolean
monitor_has_device (GListModel *monitor,
                    const char *path)
{
  for (guint i = 0; i < g_list_model_get_n_items (monitor); i++)
    {
      g_autoptr(SpsSerialDevice) device = g_list_model_get_item (monitor, i);
      g_autofree char *other = resolve_device_path (sps_serial_device_get_path (device));

      if (g_str_equal (other, path))
        return TRUE;
    }

  return FALSE;
}

static void
on_devices_changed (SpsLiveCapture *self,
                    guint           position,
                    guint           removed,
                    guint           added,
                    GListModel     *monitor)
{
  g_assert (SPS_IS_LIVE_CAPTURE (self));

  if (monitor_has_device (monitor, self->device_path))
    {
      self->device_seen = TRUE;
      return;
    }

  /* Gone from udev: unplugged. Not a stop by the user. */
  if (self->device_seen && self->running)
    {
      g_debug ("%s was removed", self->device_path);
      sps_live_source_stop (self->source);
    }
}

static void
sps_live_capture_watch_device (SpsLiveCapture *self)
{
  const char *path;

  g_assert (SPS_IS_LIVE_CAPTURE (self));

  if (!SPS_IS_SERIAL_SOURCE (self->source))
    return;

  path = sps_serial_source_get_path (SPS_SERIAL_SOURCE (self->source));
  self->device_path = resolve_device_path (path);

  self->monitor = sps_device_monitor_new ();
  self->device_seen = monitor_has_device (G_LIST_MODEL (self->monitor), self->device_path);
  g_signal_connect_object (self->monitor, "items-changed", G_CALLBACK (on_devices_changed),
                           self, G_CONNECT_SWAPPED);
}

static void
sps_live_capture_dispose (GObject *object)
{
  SpsLiveCapture *self = SPS_LIVE_CAPTURE (object);

  g_clear_object (&self->monitor);

  g_clear_handle_id (&self->update_id, g_source_remove);
  if (self->source != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->source, self);
      sps_live_source_stop (self->source);
    }
  g_clear_object (&self->source);

  G_OBJECT_CLASS (sps_live_capture_parent_class)->dispose (object);
}

static void
sps_live_capture_finalize (GObject *object)
{
  SpsLiveCapture *self = SPS_LIVE_CAPTURE (object);

  if (self->fd >= 0)
    close (self->fd);
  if (self->file != NULL && self->named)
    g_file_delete (self->file, NULL, NULL);
  g_clear_object (&self->file);
  g_clear_error (&self->error);
  g_free (self->device_path);

  G_OBJECT_CLASS (sps_live_capture_parent_class)->finalize (object);
}

static void
sps_live_capture_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  SpsLiveCapture *self = SPS_LIVE_CAPTURE (object);

  switch (prop_id)
    {
    case PROP_RUNNING:
      g_value_set_boolean (value, self->running);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sps_live_capture_class_init (SpsLiveCaptureClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sps_live_capture_dispose;
  object_class->finalize = sps_live_capture_finalize;
  object_class->get_property = sps_live_capture_get_property;

  properties[PROP_RUNNING] =
    g_param_spec_boolean ("running", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * SpsLiveCapture::changed:
   *
   * New bytes are in the capture file, or the capture ended.
   */
  signals[CHANGED] =
    g_signal_new ("changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
sps_live_capture_init (SpsLiveCapture *self)
{
  self->fd = -1;
}

SpsLiveCapture *
sps_live_capture_new (SpsLiveSource *source)
{
  SpsLiveCapture *self;

  g_return_val_if_fail (SPS_IS_LIVE_SOURCE (source), NULL);

  self = g_object_new (SPS_TYPE_LIVE_CAPTURE, NULL);
  self->source = g_object_ref (source);
  g_signal_connect_swapped (source, "data", G_CALLBACK (on_data), self);
  g_signal_connect_swapped (source, "ended", G_CALLBACK (on_ended), self);

  return self;
}

SpsLiveSource *
sps_live_capture_get_source (SpsLiveCapture *self)
{
  g_return_val_if_fail (SPS_IS_LIVE_CAPTURE (self), NULL);

  return self->source;
}

/* The capture file is unlinked as soon as it is made and read through
 * the descriptor's /proc link, so that it goes with the process however
 * that ends: quitting while an update still holds the capture (its
 * finalize never runs), or a crash. Without /proc it keeps its name and
 * is deleted at finalize. */
static GFile *
open_unlinked (int         fd,
               const char *path,
               gboolean   *named)
{
  g_autofree char *link = g_strdup_printf ("/proc/self/fd/%d", fd);
  struct stat by_name, by_link;

  if (g_stat (path, &by_name) == 0 && g_stat (link, &by_link) == 0 &&
      by_name.st_dev == by_link.st_dev && by_name.st_ino == by_link.st_ino &&
      g_unlink (path) == 0)
    {
      *named = FALSE;
      return g_file_new_for_path (link);
    }

  *named = TRUE;
  return g_file_new_for_path (path);
}

/* Creates the capture file and starts the source. */
gboolean
sps_live_capture_start (SpsLiveCapture  *self,
                        GError         **error)
{
  g_autofree char *path = NULL;

  g_return_val_if_fail (SPS_IS_LIVE_CAPTURE (self), FALSE);
  g_return_val_if_fail (self->file == NULL, FALSE);

  self->fd = g_file_open_tmp ("spanscope-live-XXXXXX.etrace", &path, error);
  if (self->fd < 0)
    return FALSE;
  self->file = open_unlinked (self->fd, path, &self->named);

  if (!sps_live_source_start (self->source, error))
    return FALSE;

  self->running = TRUE;
  sps_live_capture_watch_device (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);

  return TRUE;
}

/* Stops the source; everything received stays in the capture. */
void
sps_live_capture_stop (SpsLiveCapture *self)
{
  g_return_if_fail (SPS_IS_LIVE_CAPTURE (self));

  if (self->running)
    {
      self->stopped = TRUE;
      sps_live_source_stop (self->source);
    }
}

/**
 * sps_live_capture_get_stopped:
 * @self: a #SpsLiveCapture
 *
 * Returns: whether the capture was ended with sps_live_capture_stop();
 *   one that ended otherwise without an error lost its device
 */
gboolean
sps_live_capture_get_stopped (SpsLiveCapture *self)
{
  g_return_val_if_fail (SPS_IS_LIVE_CAPTURE (self), FALSE);

  return self->stopped;
}

gboolean
sps_live_capture_get_running (SpsLiveCapture *self)
{
  g_return_val_if_fail (SPS_IS_LIVE_CAPTURE (self), FALSE);

  return self->running;
}

guint64
sps_live_capture_get_n_bytes (SpsLiveCapture *self)
{
  g_return_val_if_fail (SPS_IS_LIVE_CAPTURE (self), 0);

  return self->n_bytes;
}

/* (nullable) (transfer none): the capture file, once started; it can
 * be read only while the capture lives (open_unlinked()) */
GFile *
sps_live_capture_get_file (SpsLiveCapture *self)
{
  g_return_val_if_fail (SPS_IS_LIVE_CAPTURE (self), NULL);

  return self->file;
}

/* (nullable): why the capture ended early */
const GError *
sps_live_capture_get_error (SpsLiveCapture *self)
{
  g_return_val_if_fail (SPS_IS_LIVE_CAPTURE (self), NULL);

  return self->error;
}

/**
 * sps_live_capture_read_head:
 * @self: a #SpsLiveCapture
 *
 * Returns: (transfer full): the first bytes received (up to 4096, what
 *   importers' probes see), empty before any
 */
GBytes *
sps_live_capture_read_head (SpsLiveCapture *self)
{
  g_autofree guint8 *head = NULL;
  gssize n = 0;

  g_return_val_if_fail (SPS_IS_LIVE_CAPTURE (self), NULL);

  if (self->fd < 0)
    return g_bytes_new (NULL, 0);

  head = g_malloc (HEAD_SIZE);
  do
    n = pread (self->fd, head, HEAD_SIZE, 0);
  while (n < 0 && errno == EINTR);

  return g_bytes_new_take (g_steal_pointer (&head), (gsize) MAX (n, 0));
}

/* Copies the capture to @to, replacing it only once everything is
 * written (a failure or a cancel keeps the old file; a target that is
 * not a file is refused: sps_file_replace()), streamed rather
 * than held in memory, as an hour's capture is hundreds of megabytes. */
static gboolean
save_to (SpsLiveCapture  *self,
         GFile           *to,
         GCancellable    *cancellable,
         GError         **error)
{
  g_autoptr(GFileInputStream) in = NULL;
  g_autoptr(GFileOutputStream) out = NULL;

  if (self->file == NULL)
    {
      g_autoptr(GBytes) empty = g_bytes_new_static ("", 0);

      return sps_file_replace_contents (to, empty, cancellable, error);
    }

  in = g_file_read (self->file, cancellable, error);
  if (in == NULL)
    return FALSE;
  out = sps_file_replace (to, cancellable, error);
  if (out == NULL)
    return FALSE;

  if (g_output_stream_splice (G_OUTPUT_STREAM (out), G_INPUT_STREAM (in),
                              G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE, cancellable, error) < 0)
    {
      sps_file_replace_abandon (G_OUTPUT_STREAM (out));
      return FALSE;
    }

  return g_output_stream_close (G_OUTPUT_STREAM (out), cancellable, error);
}

/* Writes the raw stream received so far to @file (atomically). */
gboolean
sps_live_capture_save (SpsLiveCapture  *self,
                       GFile           *file,
                       GError         **error)
{
  g_return_val_if_fail (SPS_IS_LIVE_CAPTURE (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  return save_to (self, file, NULL, error);
}

static void
save_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  GError *error = NULL;

  if (save_to (source_object, task_data, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/* sps_live_capture_save() on a worker thread: the window stays
 * responsive while hundreds of megabytes are written. The task holds the
 * capture, so its file stays open until the copy is done. */
void
sps_live_capture_save_async (SpsLiveCapture      *self,
                             GFile               *file,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (SPS_IS_LIVE_CAPTURE (self));
  g_return_if_fail (G_IS_FILE (file));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sps_live_capture_save_async);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (task, save_thread);
}

gboolean
sps_live_capture_save_finish (SpsLiveCapture  *self,
                              GAsyncResult    *result,
                              GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
