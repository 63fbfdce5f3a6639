/* sps-bench-trace.h: generating and loading a benchmark's trace
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

G_BEGIN_DECLS

SpsTrace *sps_bench_load_trace (const char  *gen,
                                const char  *path,
                                double      *load_ms,
                                GError     **error);

SpsTrace *sps_bench_parse_and_load (int          *argc,
                                    char       ***argv,
                                    const char   *name,
                                    const char   *runs_help,
                                    int          *n_runs,
                                    double       *load_ms,
                                    int          *status);

guint32   sps_bench_pick_focus_seed (SpsTrace *trace);

guint     sps_bench_per_name_sum    (SpsTrace *trace,
                                     guint32   thread,
                                     gboolean  all_kinds,
                                     gboolean  has_range,
                                     SpsTime   start,
                                     SpsTime   end);

G_END_DECLS
