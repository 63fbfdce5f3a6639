/* sps-source-scheme.h: the source views' colour scheme follows the
 * application's light or dark theme
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

/**
 * SpsSourceSchemeFunc:
 * @scheme_id: the id of the GtkSourceView style scheme to use: "Adwaita"
 *   or "Adwaita-dark"
 * @user_data: the data given to sps_source_scheme_follow()
 *
 * Sets the style scheme of a GtkSourceView buffer.
 */
typedef void (*SpsSourceSchemeFunc) (const char *scheme_id,
                                     gpointer    user_data);

SPS_GTK_AVAILABLE_IN_ALL
void sps_source_scheme_follow (GtkWidget           *widget,
                               SpsSourceSchemeFunc  func,
                               gpointer             user_data,
                               GDestroyNotify       destroy);

G_END_DECLS
