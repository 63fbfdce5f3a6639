/* sps-statistics.h: per-name and per-thread statistics of a trace's slices
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_CORE_INSIDE) && !defined (SPANSCOPE_CORE_COMPILATION)
# error "Only <spanscope-core.h> can be included directly."
#endif

#include <gio/gio.h>

#include "sps-sql-result.h"
#include "sps-sql-text.h"
#include "sps-trace.h"

G_BEGIN_DECLS

SPS_AVAILABLE_IN_ALL
SpsSqlResult *sps_statistics_compute        (SpsTrace             *trace,
                                             SpsStatsGrouping      grouping,
                                             GBytes               *slice_mask,
                                             gboolean              has_range,
                                             SpsTime               start,
                                             SpsTime               end,
                                             GCancellable         *cancellable,
                                             GError              **error);
SPS_AVAILABLE_IN_ALL
void          sps_statistics_compute_async  (SpsTrace             *trace,
                                             SpsStatsGrouping      grouping,
                                             GBytes               *slice_mask,
                                             gboolean              has_range,
                                             SpsTime               start,
                                             SpsTime               end,
                                             GCancellable         *cancellable,
                                             GAsyncReadyCallback   callback,
                                             gpointer              user_data);
SPS_AVAILABLE_IN_ALL
SpsSqlResult *sps_statistics_compute_finish (GAsyncResult         *result,
                                             GError              **error);

G_END_DECLS
