/* sps-serial-device.h: a USB serial device as udev describes it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define SPS_TYPE_SERIAL_DEVICE (sps_serial_device_get_type ())

G_DECLARE_FINAL_TYPE (SpsSerialDevice, sps_serial_device, SPS, SERIAL_DEVICE, GObject)

SpsSerialDevice *sps_serial_device_new        (const char      *path,
                                               const char      *vendor,
                                               const char      *model);
const char      *sps_serial_device_get_path   (SpsSerialDevice *self);
const char      *sps_serial_device_get_vendor (SpsSerialDevice *self);
const char      *sps_serial_device_get_model  (SpsSerialDevice *self);
char            *sps_serial_device_dup_label  (SpsSerialDevice *self);

G_END_DECLS
