/* sps-palette.h: the colours of slices, for views that draw frames like
 * the timeline does
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_GTK_INSIDE) && !defined (SPANSCOPE_GTK_COMPILATION)
# error "Only <spanscope-gtk.h> can be included directly."
#endif

#include <gtk/gtk.h>

#include "sps-gtk-version-macros.h"

G_BEGIN_DECLS

SPS_GTK_AVAILABLE_IN_ALL
const GdkRGBA *sps_palette_get_fill_for_name (const char *name,
                                              gboolean    dark);
SPS_GTK_AVAILABLE_IN_ALL
const GdkRGBA *sps_palette_get_text_for_name (const char *name,
                                              gboolean    dark);

G_END_DECLS
