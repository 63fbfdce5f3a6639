/* sps-device-dialog.h: choose a serial device to capture from
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SPS_TYPE_DEVICE_DIALOG (sps_device_dialog_get_type ())

G_DECLARE_FINAL_TYPE (SpsDeviceDialog, sps_device_dialog, SPS, DEVICE_DIALOG, GtkWindow)

SpsDeviceDialog *sps_device_dialog_new      (GtkWindow       *parent);
const char      *sps_device_dialog_get_path (SpsDeviceDialog *self);
void             sps_device_dialog_set_path (SpsDeviceDialog *self,
                                             const char      *path);
guint            sps_device_dialog_get_baud (SpsDeviceDialog *self);
GListModel      *sps_device_dialog_get_devices (SpsDeviceDialog *self);
void             sps_device_dialog_start       (SpsDeviceDialog *self);

G_END_DECLS
