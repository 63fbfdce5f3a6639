/* sps-flag.h
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

#define SPS_TYPE_FLAG (sps_flag_get_type ())

SPS_GTK_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (SpsFlag, sps_flag, SPS, FLAG, GObject)

SPS_GTK_AVAILABLE_IN_ALL
SpsFlag    *sps_flag_new      (SpsTime     time,
                               const char *name);
SPS_GTK_AVAILABLE_IN_ALL
SpsTime     sps_flag_get_time (SpsFlag    *self);
SPS_GTK_AVAILABLE_IN_ALL
const char *sps_flag_get_name (SpsFlag    *self);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_flag_set_name (SpsFlag    *self,
                               const char *name);

G_END_DECLS
