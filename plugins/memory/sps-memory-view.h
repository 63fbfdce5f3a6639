/* sps-memory-view.h: the view that docks the Memory panel
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-gtk.h>

G_BEGIN_DECLS

#define SPS_TYPE_MEMORY_VIEW (sps_memory_view_get_type ())

G_DECLARE_FINAL_TYPE (SpsMemoryView, sps_memory_view, SPS, MEMORY_VIEW, GObject)

G_END_DECLS
