/* sps-bench-util.h: timing, statistics, memory and trace-generation helpers
 * shared by the benchmarks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

double   sps_bench_now_ms            (void);
double   sps_bench_cpu_ms            (void);
double   sps_bench_cpu_seconds       (void);

guint64  sps_bench_proc_status_bytes (const char    *key);
guint64  sps_bench_peak_rss_bytes    (void);

int      sps_bench_compare_doubles   (gconstpointer  a,
                                      gconstpointer  b);
double   sps_bench_median            (double        *values,
                                      guint          n);
double   sps_bench_percentile        (const double  *sorted,
                                      guint          n,
                                      double         fraction);

gboolean sps_bench_ensure_trace      (const char    *gen,
                                      const char    *path,
                                      GError       **error);

GBytes  *sps_bench_unzip_member      (const char    *zip,
                                      const char    *member);

G_END_DECLS
