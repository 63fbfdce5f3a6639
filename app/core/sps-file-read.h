/* sps-file-read.h: reading a whole trace file, safely
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_CORE_INSIDE) && !defined (SPANSCOPE_CORE_COMPILATION)
# error "Only <spanscope-core.h> can be included directly."
#endif

#include <gio/gio.h>

#include "sps-progress.h"
#include "sps-trace-builder.h"
#include "sps-version-macros.h"

G_BEGIN_DECLS

/**
 * SPS_FILE_CHANGED_WARNING:
 *
 * The name of the warning sps_file_read() counts when the file changed
 * size or was rewritten while it was read.
 */
#define SPS_FILE_CHANGED_WARNING "file_changed_while_reading"

SPS_AVAILABLE_IN_ALL
gboolean  sps_file_check_regular (GFile            *file,
                                  GError          **error);
SPS_AVAILABLE_IN_ALL
GBytes   *sps_file_read          (GFile            *file,
                                  SpsTraceBuilder  *builder,
                                  SpsProgress      *progress,
                                  GError          **error);
SPS_AVAILABLE_IN_ALL
char     *sps_file_dup_display_name (GFile         *file);
SPS_AVAILABLE_IN_ALL
guint64   sps_file_get_expanded_limit (void);

G_END_DECLS
