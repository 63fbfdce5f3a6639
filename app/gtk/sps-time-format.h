/* sps-time-format.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_GTK_INSIDE) && !defined (SPANSCOPE_GTK_COMPILATION)
# error "Only <spanscope-gtk.h> can be included directly."
#endif

#include <spanscope-core.h>

#include "sps-gtk-version-macros.h"

G_BEGIN_DECLS

/* A duration with an auto-scaled unit and up to @precision significant
 * decimals: "1.5 ms", "250 ns", "3.25 s". */
SPS_GTK_AVAILABLE_IN_ALL
char     *sps_time_format_duration (SpsTime      duration,
                                    guint        precision);
/* A time or duration as every view shows it: 4 significant digits in
 * the largest unit that fits, "1.235 ms", "123.5 ms", "250 ns". */
SPS_GTK_AVAILABLE_IN_ALL
char     *sps_time_format          (SpsTime      time);
/* "12.5ms", "300us", "300µs", "4s", "1500ns", "2.5" (ms when no unit). */
SPS_GTK_AVAILABLE_IN_ALL
gboolean  sps_time_parse           (const char  *text,
                                    SpsTime     *out,
                                    GError     **error);
/* The tick step (a 1, 2 or 5 times a power of ten, in ns) so that ticks are
 * at least @min_pixels apart at @ns_per_pixel. */
SPS_GTK_AVAILABLE_IN_ALL
SpsTime   sps_time_tick_step       (double       ns_per_pixel,
                                    double       min_pixels);

G_END_DECLS
