/* sps-importer.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_CORE_INSIDE) && !defined (SPANSCOPE_CORE_COMPILATION)
# error "Only <spanscope-core.h> can be included directly."
#endif

#include <gio/gio.h>

#include "sps-live-decoder.h"
#include "sps-progress.h"
#include "sps-trace-builder.h"

G_BEGIN_DECLS

#define SPS_IMPORT_ERROR (sps_import_error_quark ())

/**
 * SpsImportError:
 * @SPS_IMPORT_ERROR_UNKNOWN_FORMAT: no importer recognises the file
 * @SPS_IMPORT_ERROR_MALFORMED: the input is not valid for its format
 * @SPS_IMPORT_ERROR_TRUNCATED: the input ends too early to be usable
 * @SPS_IMPORT_ERROR_TOO_LARGE: a value exceeds a safety limit (nesting
 *   depth, string length…)
 * @SPS_IMPORT_ERROR_UNSUPPORTED: a valid but unsupported variant
 *
 * Errors of importers. Messages say where: `FILE:LINE:COLUMN (byte
 * OFFSET): what` for text formats, `FILE (byte OFFSET): what` otherwise.
 */
typedef enum
{
  SPS_IMPORT_ERROR_UNKNOWN_FORMAT,
  SPS_IMPORT_ERROR_MALFORMED,
  SPS_IMPORT_ERROR_TRUNCATED,
  SPS_IMPORT_ERROR_TOO_LARGE,
  SPS_IMPORT_ERROR_UNSUPPORTED,
} SpsImportError;

SPS_AVAILABLE_IN_ALL
GQuark sps_import_error_quark (void);

#define SPS_TYPE_IMPORTER (sps_importer_get_type ())

SPS_AVAILABLE_IN_ALL
G_DECLARE_INTERFACE (SpsImporter, sps_importer, SPS, IMPORTER, GObject)

/**
 * SpsImporterInterface:
 * @get_name: a short, stable format name such as "chrome-json"
 * @probe: how well the importer recognises the file from its first bytes
 *   (at most 4096 bytes, raw, not decompressed): 0 = not at all,
 *   100 = certainly. Must be cheap and must not block on more I/O.
 * @load: reads the whole file into @builder. Runs on a worker thread. On
 *   error, what was added to @builder before the error stays valid.
 *   @options is an a{sv} dictionary or %NULL; known keys:
 *   "timestamp-unit" (s): "us" (default), "ns", "ms" or "s".
 * @new_live_decoder: optional: a decoder that keeps its state between
 *   the reads of a live capture in this format (@source names the stream
 *   in messages, as the file's name does in a load)
 */
struct _SpsImporterInterface
{
  GTypeInterface parent_iface;

  const char *(*get_name) (SpsImporter     *self);
  guint       (*probe)    (SpsImporter     *self,
                           GFile           *file,
                           GBytes          *head);
  gboolean    (*load)     (SpsImporter     *self,
                           GFile           *file,
                           GVariant        *options,
                           SpsTraceBuilder *builder,
                           SpsProgress     *progress,
                           GError         **error);
  SpsLiveDecoder *(*new_live_decoder) (SpsImporter *self,
                                       const char  *source);
};

SPS_AVAILABLE_IN_ALL
const char *sps_importer_get_name (SpsImporter     *self);
SPS_AVAILABLE_IN_ALL
guint       sps_importer_probe    (SpsImporter     *self,
                                   GFile           *file,
                                   GBytes          *head);
SPS_AVAILABLE_IN_ALL
gboolean    sps_importer_load     (SpsImporter     *self,
                                   GFile           *file,
                                   GVariant        *options,
                                   SpsTraceBuilder *builder,
                                   SpsProgress     *progress,
                                   GError         **error);
SPS_AVAILABLE_IN_ALL
SpsLiveDecoder *sps_importer_new_live_decoder (SpsImporter *self,
                                               const char  *source);

G_END_DECLS
