/* sps-bench-util.c: timing, statistics, memory and trace-generation helpers
 * shared by the benchmarks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-bench-util"

#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <glib/gstdio.h>

#include "sps-bench-util.h"

/* Wall time, in milliseconds from an arbitrary start. */
double
sps_bench_now_ms (void)
{
  return g_get_monotonic_time () / 1000.0;
}

/* CPU time of the calling thread, in milliseconds: unlike wall time, not
 * inflated by other processes on a shared machine.
 */
double
sps_bench_cpu_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

/* User plus system CPU time of the whole process (all threads), in seconds. */
double
sps_bench_cpu_seconds (void)
{
  struct rusage usage;

  if (getrusage (RUSAGE_SELF, &usage) != 0)
    return 0;
  return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
         (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

/* The "@key: N kB" line of /proc/self/status in bytes, or 0. */
guint64
sps_bench_proc_status_bytes (const char *key)
{
  g_autofree char *status = NULL;
  gsize key_len = strlen (key);
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return 0;

  for (line = status; line != NULL && *line != '\0';)
    {
      const char *next = strchr (line, '\n');

      if (strncmp (line, key, key_len) == 0 && line[key_len] == ':')
        return g_ascii_strtoull (line + key_len + 1, NULL, 10) * 1024;
      line = next != NULL ? next + 1 : NULL;
    }

  return 0;
}

/* The process's peak resident set in bytes (VmHWM, else getrusage()). */
guint64
sps_bench_peak_rss_bytes (void)
{
  struct rusage usage;
  guint64 hwm = sps_bench_proc_status_bytes ("VmHWM");

  if (hwm != 0)
    return hwm;
  if (getrusage (RUSAGE_SELF, &usage) == 0)
    return (guint64) usage.ru_maxrss * 1024;
  return 0;
}

/* qsort() order of doubles, ascending. */
int
sps_bench_compare_doubles (gconstpointer a,
                           gconstpointer b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return (x > y) - (x < y);
}

/* Sorts @values and returns the middle one (the upper of the two middle
 * ones when @n is even).
 */
double
sps_bench_median (double *values,
                  guint   n)
{
  g_assert (n > 0);

  qsort (values, n, sizeof (double), sps_bench_compare_doubles);
  return values[n / 2];
}

/* The value below which @fraction of the @n @sorted values lie (nearest
 * rank, clamped to the largest).
 */
double
sps_bench_percentile (const double *sorted,
                      guint         n,
                      double        fraction)
{
  g_assert (n > 0);

  return sorted[MIN (n - 1, (guint) (n * fraction))];
}

/* Makes sure @path (named bench-N.json) holds a trace of N events, running
 * the generator @gen when the file is missing or older than @gen.  With
 * @gen NULL the file must exist already.
 */
gboolean
sps_bench_ensure_trace (const char  *gen,
                        const char  *path,
                        GError     **error)
{
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *tmp = g_strconcat (path, ".tmp", NULL);
  g_autofree char *count = NULL;
  GStatBuf gen_stat, file_stat;
  guint64 n_events = 0;
  const char *argv[4];
  int status = 0;

  if (g_stat (path, &file_stat) == 0 && file_stat.st_size > 0 &&
      (gen == NULL || g_stat (gen, &gen_stat) != 0 || gen_stat.st_mtime <= file_stat.st_mtime))
    return TRUE;

  if (gen == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "%s: no such trace", path);
      return FALSE;
    }

  if (sscanf (base, "bench-%" G_GUINT64_FORMAT ".json", &n_events) != 1 || n_events == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "%s: name it bench-N.json to have it generated", path);
      return FALSE;
    }

  g_print ("generating %s\n", path);
  count = g_strdup_printf ("%" G_GUINT64_FORMAT, n_events);
  argv[0] = gen;
  argv[1] = count;
  argv[2] = tmp;
  argv[3] = NULL;
  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, error) ||
      !g_spawn_check_wait_status (status, error))
    return FALSE;

  if (g_rename (tmp, path) != 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   "%s: %s", path, g_strerror (saved));
      return FALSE;
    }

  return TRUE;
}

/* The bytes of @member of the ZIP file @zip, extracted with unzip(1), or
 * NULL when the file or unzip is missing or the member cannot be read. */
GBytes *
sps_bench_unzip_member (const char *zip,
                        const char *member)
{
  g_autoptr(GSubprocess) unzip = NULL;
  g_autoptr(GBytes) contents = NULL;

  if (zip == NULL || !g_file_test (zip, G_FILE_TEST_EXISTS))
    return NULL;
  unzip = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_SILENCE, NULL,
                            "unzip", "-p", zip, member, NULL);
  if (unzip == NULL ||
      !g_subprocess_communicate (unzip, NULL, NULL, &contents, NULL, NULL) ||
      !g_subprocess_get_successful (unzip) ||
      g_bytes_get_size (contents) == 0)
    return NULL;
  return g_steal_pointer (&contents);
}
