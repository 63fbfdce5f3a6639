/* sps-stats-view.h: the view that docks the statistics panel: per-name (or per-thread) totals of the trace or of the range
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-gtk.h>

G_BEGIN_DECLS

#define SPS_TYPE_STATS_VIEW (sps_stats_view_get_type ())

G_DECLARE_FINAL_TYPE (SpsStatsView, sps_stats_view, SPS, STATS_VIEW, GObject)

G_END_DECLS
