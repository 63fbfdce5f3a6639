/* sps-source-view.h: the view that docks the source viewer
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-gtk.h>

G_BEGIN_DECLS

#define SPS_TYPE_SOURCE_VIEW (sps_source_view_get_type ())

G_DECLARE_FINAL_TYPE (SpsSourceView, sps_source_view, SPS, SOURCE_VIEW, GObject)

G_END_DECLS
