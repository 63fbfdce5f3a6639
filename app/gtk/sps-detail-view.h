/* sps-detail-view.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_GTK_INSIDE) && !defined (SPANSCOPE_GTK_COMPILATION)
# error "Only <spanscope-gtk.h> can be included directly."
#endif

#include <glib-object.h>

#include "sps-gtk-version-macros.h"
#include "sps-view.h"

G_BEGIN_DECLS

#define SPS_TYPE_DETAIL_VIEW (sps_detail_view_get_type ())

SPS_GTK_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (SpsDetailView, sps_detail_view, SPS, DETAIL_VIEW, GObject)

/* The built-in SpsView: "Details", bottom dock, an SpsDetailPanel. */
SPS_GTK_AVAILABLE_IN_ALL
SpsView *sps_detail_view_new (void);

G_END_DECLS
