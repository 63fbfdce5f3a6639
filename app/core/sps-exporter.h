/* sps-exporter.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_CORE_INSIDE) && !defined (SPANSCOPE_CORE_COMPILATION)
# error "Only <spanscope-core.h> can be included directly."
#endif

#include <gio/gio.h>

#include "sps-progress.h"
#include "sps-trace.h"

G_BEGIN_DECLS

#define SPS_TYPE_EXPORTER (sps_exporter_get_type ())

SPS_AVAILABLE_IN_ALL
G_DECLARE_INTERFACE (SpsExporter, sps_exporter, SPS, EXPORTER, GObject)

/**
 * SpsExporterInterface:
 * @get_name: the format name used by `spanscope-cli convert --format`
 * @get_suffix: the file name suffix of the format including its dot, e.g.
 *   `.speedscope.json`; %NULL when the format has no usual suffix
 * @write: writes @trace to @stream with @options (an `a{sv}` dictionary,
 *   never %NULL: an empty one when the caller gave none). Runs on any
 *   thread. Unknown option keys are ignored; a known key with the wrong
 *   type is a %G_IO_ERROR_INVALID_ARGUMENT.
 */
struct _SpsExporterInterface
{
  GTypeInterface parent_iface;

  const char *(*get_name)   (SpsExporter   *self);
  const char *(*get_suffix) (SpsExporter   *self);
  gboolean    (*write)      (SpsExporter   *self,
                             SpsTrace      *trace,
                             GVariant      *options,
                             GOutputStream *stream,
                             SpsProgress   *progress,
                             GError       **error);
};

SPS_AVAILABLE_IN_ALL
const char *sps_exporter_get_name (SpsExporter   *self);
SPS_AVAILABLE_IN_ALL
const char *sps_exporter_get_suffix (SpsExporter *self);
SPS_AVAILABLE_IN_ALL
gboolean    sps_exporter_write    (SpsExporter   *self,
                                   SpsTrace      *trace,
                                   GVariant      *options,
                                   GOutputStream *stream,
                                   SpsProgress   *progress,
                                   GError       **error);

G_END_DECLS
