/* sps-device-monitor.h: USB serial devices, kept up to date on hotplug
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define SPS_TYPE_SERIAL_DEVICE (sps_serial_device_get_type ())

G_DECLARE_FINAL_TYPE (SpsSerialDevice, sps_serial_device, SPS, SERIAL_DEVICE, GObject)

const char *sps_serial_device_get_path   (SpsSerialDevice *self);
const char *sps_serial_device_get_vendor (SpsSerialDevice *self);
const char *sps_serial_device_get_model  (SpsSerialDevice *self);
char       *sps_serial_device_dup_label  (SpsSerialDevice *self);

#define SPS_TYPE_DEVICE_MONITOR (sps_device_monitor_get_type ())

G_DECLARE_FINAL_TYPE (SpsDeviceMonitor, sps_device_monitor, SPS, DEVICE_MONITOR, GObject)

SpsDeviceMonitor *sps_device_monitor_new (void);

G_END_DECLS
