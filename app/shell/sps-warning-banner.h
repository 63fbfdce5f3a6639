/* sps-warning-banner.h: the import warnings of a trace, under the header bar
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-gtk.h>

G_BEGIN_DECLS

#define SPS_TYPE_WARNING_BANNER (sps_warning_banner_get_type ())

G_DECLARE_FINAL_TYPE (SpsWarningBanner, sps_warning_banner, SPS, WARNING_BANNER, GtkWidget)

GtkWidget  *sps_warning_banner_new          (void);
void        sps_warning_banner_set_trace    (SpsWarningBanner *self,
                                             SpsTrace         *trace);
const char *sps_warning_banner_get_summary  (SpsWarningBanner *self);
guint       sps_warning_banner_get_n_warnings (SpsWarningBanner *self);
guint       sps_warning_banner_get_n_plugin_failures (SpsWarningBanner *self);

G_END_DECLS
