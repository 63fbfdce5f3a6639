/* sps-serial-device.c: a USB serial device as udev describes it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-serial-device"

#include "config.h"

#include "sps-serial-device.h"

struct _SpsSerialDevice
{
  GObject  parent_instance;

  char    *path;
  char    *vendor;
  char    *model;
};

G_DEFINE_FINAL_TYPE (SpsSerialDevice, sps_serial_device, G_TYPE_OBJECT)

static void
sps_serial_device_finalize (GObject *object)
{
  SpsSerialDevice *self = SPS_SERIAL_DEVICE (object);

  g_free (self->path);
  g_free (self->vendor);
  g_free (self->model);

  G_OBJECT_CLASS (sps_serial_device_parent_class)->finalize (object);
}

static void
sps_serial_device_class_init (SpsSerialDeviceClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sps_serial_device_finalize;
}

static void
sps_serial_device_init (SpsSerialDevice *self)
{
}

/* The device node, e.g. /dev/ttyACM0 */
const char *
sps_serial_device_get_path (SpsSerialDevice *self)
{
  g_return_val_if_fail (SPS_IS_SERIAL_DEVICE (self), NULL);

  return self->path;
}

/* (nullable): the vendor's name as udev knows it */
const char *
sps_serial_device_get_vendor (SpsSerialDevice *self)
{
  g_return_val_if_fail (SPS_IS_SERIAL_DEVICE (self), NULL);

  return self->vendor;
}

/* (nullable): the product's name as udev knows it */
const char *
sps_serial_device_get_model (SpsSerialDevice *self)
{
  g_return_val_if_fail (SPS_IS_SERIAL_DEVICE (self), NULL);

  return self->model;
}

/* "Vendor Model (/dev/ttyACM0)", or the path alone */
char *
sps_serial_device_dup_label (SpsSerialDevice *self)
{
  g_autoptr(GString) label = g_string_new (NULL);

  g_return_val_if_fail (SPS_IS_SERIAL_DEVICE (self), NULL);

  if (self->vendor != NULL)
    g_string_append (label, self->vendor);
  if (self->model != NULL)
    g_string_append_printf (label, "%s%s", label->len > 0 ? " " : "", self->model);
  if (label->len == 0)
    return g_strdup (self->path);
  g_string_append_printf (label, " (%s)", self->path);

  return g_string_free (g_steal_pointer (&label), FALSE);
}

/* A device at @path with the names udev gives (either may be NULL) */
SpsSerialDevice *
sps_serial_device_new (const char *path,
                       const char *vendor,
                       const char *model)
{
  SpsSerialDevice *self;

  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (SPS_TYPE_SERIAL_DEVICE, NULL);
  self->path = g_strdup (path);
  self->vendor = g_strdup (vendor);
  self->model = g_strdup (model);

  return self;
}
