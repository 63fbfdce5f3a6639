/* sps-diag-counter-tracks.h: a session's counters as counter tracks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

#include "sps-diag-counters.h"

G_BEGIN_DECLS

/* The session's clock, from its ETL files */
typedef struct
{
  guint64 start_ticks;      /* the trace's origin */
  guint64 frequency;        /* ticks per second */
} SpsDiagClock;

SpsTime sps_diag_counter_time        (const SpsDiagCounters *counters,
                                      const SpsDiagClock    *clock,
                                      guint64                ticks);
guint64 sps_diag_counters_add_tracks (const SpsDiagCounters *counters,
                                      SpsTraceBuilder       *builder,
                                      guint32                process,
                                      const SpsDiagClock    *clock);

G_END_DECLS
