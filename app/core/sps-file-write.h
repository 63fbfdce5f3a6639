/* sps-file-write.h: writing a file the user chose, safely
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

SPS_AVAILABLE_IN_ALL
GFileOutputStream *sps_file_replace          (GFile          *file,
                                              GCancellable   *cancellable,
                                              GError        **error);
SPS_AVAILABLE_IN_ALL
void               sps_file_replace_abandon  (GOutputStream  *stream);
SPS_AVAILABLE_IN_ALL
gboolean           sps_file_replace_contents (GFile          *file,
                                              GBytes         *contents,
                                              GCancellable   *cancellable,
                                              GError        **error);

G_END_DECLS
