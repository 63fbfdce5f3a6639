/* sps-json.h: writing JSON text
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_CORE_INSIDE) && !defined (SPANSCOPE_CORE_COMPILATION)
# error "Only <spanscope-core.h> can be included directly."
#endif

#include <glib.h>

#include "sps-version-macros.h"

G_BEGIN_DECLS

SPS_AVAILABLE_IN_ALL
void sps_json_append_uint64 (GString    *out,
                             guint64     value);
SPS_AVAILABLE_IN_ALL
void sps_json_append_int64  (GString    *out,
                             gint64      value);
SPS_AVAILABLE_IN_ALL
void sps_json_append_time_us (GString   *out,
                              gint64     ns);
SPS_AVAILABLE_IN_ALL
void sps_json_append_string (GString    *out,
                             const char *text,
                             gssize      len);

SPS_AVAILABLE_IN_ALL
char *sps_json_strip_trailing_commas (const char *text,
                                      gsize       len,
                                      gsize      *out_len);

G_END_DECLS
