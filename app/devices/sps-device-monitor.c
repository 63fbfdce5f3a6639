/* sps-device-monitor.c: USB serial devices, kept up to date on hotplug
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A GListModel of SpsSerialDevice: the tty devices udev puts on the USB
 * bus (ID_BUS=usb: CDC-ACM boards, USB-UART adapters, debug probes with a
 * virtual COM port), sorted by device path, with the vendor and model
 * names udev knows. It follows udev's add/remove events. libgudev is
 * linked here, outside the core library, which stays free of udev.
 *
 * Built without libgudev (-Dgudev=disabled) the list stays empty and
 * sps_device_monitor_is_available() says so, so that the CLI and the
 * shell can tell the user instead of reporting "no device plugged in".
 */

#define G_LOG_DOMAIN "sps-device-monitor"

#include "config.h"

#include <string.h>

#if HAVE_GUDEV
# include <gudev/gudev.h>
#endif

#include "sps-device-monitor.h"
#include "sps-serial-device.h"

struct _SpsDeviceMonitor
{
  GObject      parent_instance;

#if HAVE_GUDEV
  GUdevClient *client;
#endif
  GPtrArray   *devices;
};

static void sps_device_monitor_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SpsDeviceMonitor, sps_device_monitor, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, sps_device_monitor_list_model_init))

#if HAVE_GUDEV
/* udev's encoded names use '_' for spaces ("Black_Magic_Probe") */
static char *
dup_name (GUdevDevice *device,
          const char  *from_database,
          const char  *encoded)
{
  const char *name = g_udev_device_get_property (device, from_database);
  char *copy;

  if (name != NULL && name[0] != '\0')
    return g_strdup (name);

  name = g_udev_device_get_property (device, encoded);
  if (name == NULL || name[0] == '\0')
    return NULL;

  copy = g_strdup (name);
  g_strdelimit (copy, "_", ' ');
  return copy;
}

static int
compare_devices (gconstpointer a,
                 gconstpointer b)
{
  SpsSerialDevice *da = *(SpsSerialDevice * const *) a;
  SpsSerialDevice *db = *(SpsSerialDevice * const *) b;

  return strcmp (sps_serial_device_get_path (da), sps_serial_device_get_path (db));
}

/* @gone: (nullable): a device node being removed, left out even if udev
 * still lists it while the removal is under way */
static void
refresh (SpsDeviceMonitor *self,
         const char       *gone)
{
  GList *list = g_udev_client_query_by_subsystem (self->client, "tty");
  guint removed = self->devices->len;

  g_ptr_array_set_size (self->devices, 0);

  for (GList *l = list; l != NULL; l = l->next)
    {
      GUdevDevice *device = l->data;
      const char *file = g_udev_device_get_device_file (device);
      g_autofree char *vendor = NULL;
      g_autofree char *model = NULL;

      if (file == NULL || g_strcmp0 (file, gone) == 0 ||
          g_strcmp0 (g_udev_device_get_property (device, "ID_BUS"), "usb") != 0)
        continue;

      vendor = dup_name (device, "ID_VENDOR_FROM_DATABASE", "ID_VENDOR");
      model = dup_name (device, "ID_MODEL_FROM_DATABASE", "ID_MODEL");
      g_ptr_array_add (self->devices, sps_serial_device_new (file, vendor, model));
    }
  g_list_free_full (list, g_object_unref);

  g_ptr_array_sort (self->devices, compare_devices);

  if (removed > 0 || self->devices->len > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, removed, self->devices->len);
}

static void
on_uevent (GUdevClient *client,
           const char  *action,
           GUdevDevice *device,
           gpointer     user_data)
{
  SpsDeviceMonitor *self = user_data;

  g_assert (SPS_IS_DEVICE_MONITOR (self));

  /* The list is short: reading it again is simpler than patching it */
  if (g_strcmp0 (action, "remove") == 0)
    refresh (self, g_udev_device_get_device_file (device));
  else if (g_strcmp0 (action, "add") == 0 || g_strcmp0 (action, "change") == 0)
    refresh (self, NULL);
}
#endif /* HAVE_GUDEV */

static GType
sps_device_monitor_get_item_type (GListModel *model)
{
  return SPS_TYPE_SERIAL_DEVICE;
}

static guint
sps_device_monitor_get_n_items (GListModel *model)
{
  return SPS_DEVICE_MONITOR (model)->devices->len;
}

static gpointer
sps_device_monitor_get_item (GListModel *model,
                             guint       position)
{
  SpsDeviceMonitor *self = SPS_DEVICE_MONITOR (model);

  if (position >= self->devices->len)
    return NULL;

  return g_object_ref (g_ptr_array_index (self->devices, position));
}

static void
sps_device_monitor_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = sps_device_monitor_get_item_type;
  iface->get_n_items = sps_device_monitor_get_n_items;
  iface->get_item = sps_device_monitor_get_item;
}

static void
sps_device_monitor_dispose (GObject *object)
{
  SpsDeviceMonitor *self = SPS_DEVICE_MONITOR (object);

#if HAVE_GUDEV
  if (self->client != NULL)
    g_signal_handlers_disconnect_by_data (self->client, self);
  g_clear_object (&self->client);
#endif
  g_clear_pointer (&self->devices, g_ptr_array_unref);

  G_OBJECT_CLASS (sps_device_monitor_parent_class)->dispose (object);
}

static void
sps_device_monitor_class_init (SpsDeviceMonitorClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = sps_device_monitor_dispose;
}

static void
sps_device_monitor_init (SpsDeviceMonitor *self)
{
  self->devices = g_ptr_array_new_with_free_func (g_object_unref);
#if HAVE_GUDEV
  {
    const char *subsystems[] = { "tty", NULL };

    self->client = g_udev_client_new (subsystems);
    g_signal_connect (self->client, "uevent", G_CALLBACK (on_uevent), self);
    refresh (self, NULL);
  }
#endif
}

/**
 * sps_device_monitor_is_available:
 *
 * Returns: whether this build can discover devices (it was built with
 *   libgudev); without it every monitor stays empty
 */
gboolean
sps_device_monitor_is_available (void)
{
  return HAVE_GUDEV;
}

/**
 * sps_device_monitor_new:
 *
 * Returns: (transfer full): a list of the USB serial devices present now,
 *   updated while the main context runs
 */
SpsDeviceMonitor *
sps_device_monitor_new (void)
{
  return g_object_new (SPS_TYPE_DEVICE_MONITOR, NULL);
}
