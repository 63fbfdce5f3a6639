/* sps-live-source.h: a device or stream that appends to a live trace
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_CORE_INSIDE) && !defined (SPANSCOPE_CORE_COMPILATION)
# error "Only <spanscope-core.h> can be included directly."
#endif

#include <gio/gio.h>

#include "sps-version-macros.h"

G_BEGIN_DECLS

#define SPS_LIVE_SOURCE_ERROR (sps_live_source_error_quark ())

/**
 * SpsLiveSourceError:
 * @SPS_LIVE_SOURCE_ERROR_OPEN: the device could not be opened or set up
 * @SPS_LIVE_SOURCE_ERROR_IO: reading failed while capturing
 *
 * Errors of live sources.
 */
typedef enum
{
  SPS_LIVE_SOURCE_ERROR_OPEN,
  SPS_LIVE_SOURCE_ERROR_IO,
} SpsLiveSourceError;

SPS_AVAILABLE_IN_ALL
GQuark sps_live_source_error_quark (void);

#define SPS_TYPE_LIVE_SOURCE (sps_live_source_get_type ())

SPS_AVAILABLE_IN_ALL
G_DECLARE_INTERFACE (SpsLiveSource, sps_live_source, SPS, LIVE_SOURCE, GObject)

/**
 * SpsLiveSourceInterface:
 * @get_name: a name to show, e.g. the device path
 * @start: starts reading in the thread-default main context; bytes are
 *   delivered by the #SpsLiveSource::data signal in arrival order,
 *   unchanged, in whatever chunks they came
 * @stop: stops reading; emits #SpsLiveSource::ended (with no error)
 *   unless the source has already ended
 *
 * A source of raw bytes that grows a trace while it runs: a serial port,
 * a socket, a pipe. Consumers keep the bytes (they are the capture: saved
 * as they are, they reopen as the same trace) and decode them as they
 * arrive.
 */
struct _SpsLiveSourceInterface
{
  GTypeInterface parent_iface;

  const char *(*get_name) (SpsLiveSource  *self);
  gboolean    (*start)    (SpsLiveSource  *self,
                           GError        **error);
  void        (*stop)     (SpsLiveSource  *self);
};

SPS_AVAILABLE_IN_ALL
const char *sps_live_source_get_name    (SpsLiveSource  *self);
SPS_AVAILABLE_IN_ALL
gboolean    sps_live_source_start       (SpsLiveSource  *self,
                                         GError        **error);
SPS_AVAILABLE_IN_ALL
void        sps_live_source_stop        (SpsLiveSource  *self);
SPS_AVAILABLE_IN_ALL
void        sps_live_source_emit_data   (SpsLiveSource  *self,
                                         GBytes         *bytes);
SPS_AVAILABLE_IN_ALL
void        sps_live_source_emit_ended  (SpsLiveSource  *self,
                                         const GError   *error);

G_END_DECLS
