/* sps-palette-private.h: the fixed colours of slices, picked by name
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "sps-gtk-version-macros.h"

G_BEGIN_DECLS

#define SPS_PALETTE_SIZE 32

/* Exported (but not installed) so that tests can check the colours. */
SPS_GTK_AVAILABLE_IN_ALL
guint32        _sps_palette_hash            (const char *str,
                                             gssize      len);
SPS_GTK_AVAILABLE_IN_ALL
guint          _sps_palette_index_for_name  (const char *name,
                                             gssize      len);
SPS_GTK_AVAILABLE_IN_ALL
const GdkRGBA *_sps_palette_get_color       (guint       index,
                                             gboolean    dark);
SPS_GTK_AVAILABLE_IN_ALL
const GdkRGBA *_sps_palette_get_text_color  (guint       index,
                                             gboolean    dark);
SPS_GTK_AVAILABLE_IN_ALL
const GdkRGBA *_sps_palette_color_for_name  (const char *name,
                                             gboolean    dark);

G_END_DECLS
