/* sps-time-format.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_CORE_INSIDE) && !defined (SPANSCOPE_CORE_COMPILATION)
# error "Only <spanscope-core.h> can be included directly."
#endif

#include <gio/gio.h>

#include "sps-types.h"
#include "sps-version-macros.h"

G_BEGIN_DECLS

SPS_AVAILABLE_IN_ALL
char     *sps_time_format_duration (SpsTime      duration,
                                    guint        precision);
SPS_AVAILABLE_IN_ALL
char     *sps_time_format          (SpsTime      time);
SPS_AVAILABLE_IN_ALL
char     *sps_time_format_span     (SpsTime      start,
                                    SpsTime      end);
SPS_AVAILABLE_IN_ALL
gboolean  sps_time_parse           (const char  *text,
                                    SpsTime     *out,
                                    GError     **error);
SPS_AVAILABLE_IN_ALL
SpsTime   sps_time_tick_step       (double       ns_per_pixel,
                                    double       min_pixels);

G_END_DECLS
