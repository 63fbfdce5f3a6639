/* sps-bench-trace.c: generating and loading a benchmark's trace
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-bench-trace"

#include "config.h"

#include "sps-bench-util.h"
#include "sps-bench-trace.h"

/* Generates @path with @gen first when it is missing or stale
 * (sps_bench_ensure_trace(); with @gen NULL it is only loaded), then loads
 * it; @load_ms receives the time the load took. */
SpsTrace *
sps_bench_load_trace (const char  *gen,
                      const char  *path,
                      double      *load_ms,
                      GError     **error)
{
  g_autoptr(GFile) file = NULL;
  SpsTrace *trace;
  double t0;

  if (gen != NULL && !sps_bench_ensure_trace (gen, path, error))
    return NULL;

  file = g_file_new_for_commandline_arg (path);
  t0 = sps_bench_now_ms ();
  trace = sps_trace_load (file, NULL, NULL, SPS_LOAD_FLAGS_NONE, NULL, NULL, error);
  *load_ms = sps_bench_now_ms () - t0;

  return trace;
}
