/* sps-device-monitor.h: USB serial devices, kept up to date on hotplug
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gio/gio.h>

#include "sps-serial-device.h"

G_BEGIN_DECLS

#define SPS_TYPE_DEVICE_MONITOR (sps_device_monitor_get_type ())

G_DECLARE_FINAL_TYPE (SpsDeviceMonitor, sps_device_monitor, SPS, DEVICE_MONITOR, GObject)

SpsDeviceMonitor *sps_device_monitor_new          (void);
gboolean          sps_device_monitor_is_available (void);

G_END_DECLS
