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

G_END_DECLS
