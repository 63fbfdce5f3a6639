/* sps-serial-source.h: a serial port (USB CDC-ACM, UART adapter) as a
 * live source
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_CORE_INSIDE) && !defined (SPANSCOPE_CORE_COMPILATION)
# error "Only <spanscope-core.h> can be included directly."
#endif

#include "sps-live-source.h"

G_BEGIN_DECLS

#define SPS_TYPE_SERIAL_SOURCE (sps_serial_source_get_type ())

SPS_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (SpsSerialSource, sps_serial_source, SPS, SERIAL_SOURCE, GObject)

SPS_AVAILABLE_IN_ALL
SpsSerialSource *sps_serial_source_new            (const char      *path,
                                                   guint            baud);
SPS_AVAILABLE_IN_ALL
const char      *sps_serial_source_get_path       (SpsSerialSource *self);
SPS_AVAILABLE_IN_ALL
guint            sps_serial_source_get_baud       (SpsSerialSource *self);
SPS_AVAILABLE_IN_ALL
guint64          sps_serial_source_get_bytes_read (SpsSerialSource *self);
SPS_AVAILABLE_IN_ALL
gboolean         sps_serial_source_baud_is_valid  (guint            baud);

G_END_DECLS
