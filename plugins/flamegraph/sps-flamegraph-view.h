/* sps-flamegraph-view.h: the flame graph view plugin's SpsView
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-gtk.h>

G_BEGIN_DECLS

#define SPS_TYPE_FLAMEGRAPH_VIEW (sps_flamegraph_view_get_type ())

G_DECLARE_FINAL_TYPE (SpsFlamegraphView, sps_flamegraph_view, SPS, FLAMEGRAPH_VIEW, GObject)

G_END_DECLS
