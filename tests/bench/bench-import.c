/* bench-import.c: measures a full import (parse + finish) of a trace
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Usage: bench-import [--json-glib SMALL-FILE] [--simdjson PROGRAM] FILE
 *        bench-import --trace-cost N FILE
 *
 * Loads FILE through the real plugin engine (SPANSCOPE_PLUGIN_PATH) with
 * sps_trace_load() and prints its size, its event count, the wall time of
 * the import, MB/s and events/s, the peak RSS of the process and the
 * anonymous memory the loaded trace holds per event. In the same run it
 * measures two baselines so that figures can be read as ratios on any
 * machine: a memchr scan of the mapped file (an upper bound: touching every
 * byte once) and, with --json-glib, json-glib's DOM parser on SMALL-FILE
 * (the import path the streaming importer replaces), and with --simdjson,
 * bench-simdjson on FILE before and after the import (issue 19's target:
 * the import ≥ 3× as fast as the faster of the two). The json-glib baseline
 * runs last, after the trace is freed, so it does not change the peak RSS
 * reported for the import.
 */

#define G_LOG_DOMAIN "sps-bench-import"

#include "config.h"

#include <string.h>
#include <sys/resource.h>
#ifdef __GLIBC__
# include <malloc.h>
#endif

#include <json-glib/json-glib.h>
#include <spanscope-core.h>

#include "sps-bench-util.h"

#define MB (1000.0 * 1000.0)

typedef struct
{
  double wall;    /* load + walk */
  double cpu;
  double walk_wall;
  double walk_cpu;
  guint64 events;
} SimdjsonRun;

/* Runs bench-simdjson on @path and reads what it prints */
static gboolean
simdjson_baseline (const char   *program,
                   const char   *path,
                   SimdjsonRun  *run,
                   GError      **error)
{
  const char *argv[] = { program, path, NULL };
  g_autofree char *out = NULL;
  g_auto(GStrv) lines = NULL;
  double load_wall = -1, walk_wall = -1, load_cpu = -1, walk_cpu = -1;
  const char *kernel = "unknown";
  int status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status, error) ||
      !g_spawn_check_wait_status (status, error))
    return FALSE;
  lines = g_strsplit (out, "\n", -1);
  run->events = 0;
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (g_str_has_prefix (lines[i], "wall "))
        sscanf (lines[i] + 5, "%lf %lf", &load_wall, &walk_wall);
      else if (g_str_has_prefix (lines[i], "cpu "))
        sscanf (lines[i] + 4, "%lf %lf", &load_cpu, &walk_cpu);
      else if (g_str_has_prefix (lines[i], "events "))
        run->events = g_ascii_strtoull (lines[i] + 7, NULL, 10);
      else if (g_str_has_prefix (lines[i], "kernel "))
        kernel = lines[i] + 7;
    }
  if (load_wall < 0 || walk_wall < 0 || load_cpu < 0 || walk_cpu < 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s printed no times", program);
      return FALSE;
    }
  run->wall = load_wall + walk_wall;
  run->walk_wall = walk_wall;
  run->walk_cpu = walk_cpu;
  run->cpu = load_cpu + walk_cpu;
  g_print ("simdjson       %.3f s wall (read %.3f + walk %.3f), %.3f s CPU, %" G_GUINT64_FORMAT " events, "
           "kernel %s\n", run->wall, load_wall, walk_wall, run->cpu, run->events, kernel);
  return TRUE;
}

static void
release_free_memory (void)
{
#ifdef __GLIBC__
  malloc_trim (0);
#endif
}

/* The upper bound: one pass of memchr over the mapped file, counting the
 * '{' bytes (every event has at least one). */
static gboolean
scan_baseline (const char *path,
               double     *seconds,
               guint64    *braces,
               GError    **error)
{
  g_autoptr(GMappedFile) mapped = NULL;
  const char *p;
  const char *end;
  gint64 start;
  guint64 n = 0;

  mapped = g_mapped_file_new (path, FALSE, error);
  if (mapped == NULL)
    return FALSE;

  start = g_get_monotonic_time ();
  p = g_mapped_file_get_contents (mapped);
  end = p + g_mapped_file_get_length (mapped);
  while (p != NULL && p < end)
    {
      p = memchr (p, '{', end - p);
      if (p == NULL)
        break;
      n++;
      p++;
    }
  *seconds = (g_get_monotonic_time () - start) / 1e6;
  *braces = n;

  return TRUE;
}

/* The best CPU and wall time of @n imports of @file */
static gboolean
best_import (GFile           *file,
             SpsPluginEngine *engine,
             guint            n,
             double          *best_cpu,
             double          *best_wall,
             GError         **error)
{
  *best_cpu = G_MAXDOUBLE;
  *best_wall = G_MAXDOUBLE;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SpsTrace) trace = NULL;
      double cpu = sps_bench_cpu_seconds ();
      gint64 start = g_get_monotonic_time ();

      if (!(trace = sps_trace_load (file, engine, NULL, SPS_LOAD_FLAGS_NONE, NULL, NULL, error)))
        return FALSE;
      *best_wall = MIN (*best_wall, (g_get_monotonic_time () - start) / 1e6);
      *best_cpu = MIN (*best_cpu, sps_bench_cpu_seconds () - cpu);
      g_clear_object (&trace);
      release_free_memory ();
    }
  return TRUE;
}

/* --trace-cost N: N imports with the self trace off, then N with it on
 * (it cannot be turned off again), in the same process on a warm cache;
 * the best of each, and what tracing adds */
static int
trace_cost (GFile           *file,
            SpsPluginEngine *engine,
            guint            n)
{
  g_autoptr(GError) error = NULL;
  double off_cpu, off_wall, on_cpu, on_wall;

  if (!best_import (file, engine, 1, &off_cpu, &off_wall, &error) ||
      !best_import (file, engine, n, &off_cpu, &off_wall, &error))
    goto failed;
  sps_self_trace_enable ();
  if (!best_import (file, engine, n, &on_cpu, &on_wall, &error))
    goto failed;

  g_print ("self trace off %.3f s CPU, %.3f s wall (best of %u)\n", off_cpu, off_wall, n);
  g_print ("self trace on  %.3f s CPU, %.3f s wall (best of %u), %u events\n",
           on_cpu, on_wall, n, sps_self_trace_get_n_events ());
  g_print ("tracing cost   %+.2f %% CPU, %+.2f %% wall\n",
           (on_cpu / off_cpu - 1) * 100, (on_wall / off_wall - 1) * 100);
  return 0;

failed:
  g_printerr ("bench-import: %s\n", error->message);
  return 1;
}

static gboolean
json_glib_baseline (const char *path,
                    double     *mb_per_s,
                    GError    **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInfo) info = NULL;
  guint64 size;
  gint64 anon_before;
  gint64 anon_after;
  gint64 start;
  double seconds;

  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE, G_FILE_QUERY_INFO_NONE,
                            NULL, error);
  if (info == NULL)
    return FALSE;
  size = g_file_info_get_size (info);

  release_free_memory ();
  anon_before = (gint64) sps_bench_proc_status_bytes ("RssAnon");
  parser = json_parser_new_immutable ();
  start = g_get_monotonic_time ();
  if (!json_parser_load_from_mapped_file (parser, path, error))
    return FALSE;
  seconds = (g_get_monotonic_time () - start) / 1e6;
  anon_after = (gint64) sps_bench_proc_status_bytes ("RssAnon");

  *mb_per_s = size / MB / seconds;
  g_print ("json-glib DOM  %s: %.1f MB in %.2f s = %.1f MB/s, DOM %.0f MB (%.1fx the file)\n",
           path, size / MB, seconds, *mb_per_s,
           (anon_after - anon_before) / MB, (double) (anon_after - anon_before) / size);

  return TRUE;
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *json_glib_file = NULL;
  g_autofree char *simdjson_program = NULL;
  SimdjsonRun simdjson[2] = { { 0 } };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  SpsPluginEngine *engine;
  int cost_runs = 0;
  gboolean default_allocator = FALSE;
  const GOptionEntry entries[] = {
    { "default-allocator", 0, 0, G_OPTION_ARG_NONE, &default_allocator,
      "Leave glibc's malloc as it is (the programs call sps_setup_allocator())", NULL },
    { "json-glib", 0, 0, G_OPTION_ARG_FILENAME, &json_glib_file,
      "Also time json-glib's DOM parser on this (smaller) file", "FILE" },
    { "simdjson", 0, 0, G_OPTION_ARG_FILENAME, &simdjson_program,
      "Also time this simdjson program (bench-simdjson) on FILE", "PROGRAM" },
    { "trace-cost", 0, 0, G_OPTION_ARG_INT, &cost_runs,
      "Only compare N imports with the self trace off and N with it on", "N" },
    { NULL }
  };
  const char *path;
  guint64 size;
  guint64 events;
  guint64 braces = 0;
  gint64 anon_before;
  gint64 anon_after;
  gint64 anon_trimmed;
  guint64 peak;
  double json_glib_mbps = 0;
  gsize model_bytes;
  double scan_seconds = 0;
  double seconds;
  double cpu;
  gint64 start;

  context = g_option_context_new ("FILE");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 2)
    {
      g_printerr ("usage: bench-import [--default-allocator] [--json-glib SMALL-FILE] [--simdjson PROGRAM] FILE\n"
                  "       bench-import --trace-cost N FILE\n");
      return 2;
    }
  path = argv[1];
  /* As spanscope and spanscope-cli do, before any thread */
  if (!default_allocator)
    sps_setup_allocator ();

  file = g_file_new_for_path (path);
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE, G_FILE_QUERY_INFO_NONE,
                            NULL, &error);
  if (info == NULL)
    {
      g_printerr ("bench-import: %s\n", error->message);
      return 1;
    }
  size = g_file_info_get_size (info);

  /* The default engine loads every plugin on first use: before anything
   * is timed or measured. */
  engine = sps_plugin_engine_get_default ();
  if (cost_runs > 0)
    return trace_cost (file, engine, (guint) cost_runs);

  /* The scan also brings the file into the page cache, so the import is
   * timed on a warm cache, like the scan it is compared with. */
  if (!scan_baseline (path, &scan_seconds, &braces, &error))
    {
      g_printerr ("bench-import: %s\n", error->message);
      return 1;
    }

  if (simdjson_program != NULL && !simdjson_baseline (simdjson_program, path, &simdjson[0], &error))
    {
      g_printerr ("bench-import: %s\n", error->message);
      return 1;
    }

  release_free_memory ();
  anon_before = (gint64) sps_bench_proc_status_bytes ("RssAnon");
  cpu = sps_bench_cpu_seconds ();
  start = g_get_monotonic_time ();
  trace = sps_trace_load (file, engine, NULL, SPS_LOAD_FLAGS_NONE, NULL, NULL, &error);
  seconds = (g_get_monotonic_time () - start) / 1e6;
  cpu = sps_bench_cpu_seconds () - cpu;
  if (trace == NULL)
    {
      g_printerr ("bench-import: %s: %s\n", path, error->message);
      return 1;
    }
  anon_after = (gint64) sps_bench_proc_status_bytes ("RssAnon");
  peak = sps_bench_peak_rss_bytes ();
  release_free_memory ();
  anon_trimmed = (gint64) sps_bench_proc_status_bytes ("RssAnon");
  events = sps_trace_get_events_read (trace);
  model_bytes = sps_trace_get_memory_size (trace);

  g_print ("file           %s\n", path);
  g_print ("size           %.1f MB\n", size / MB);
  g_print ("events         %" G_GUINT64_FORMAT " (%.0f bytes/event)\n",
           events, events > 0 ? (double) size / events : 0.0);
  g_print ("slices         %u measured, %u async; %u instants, %u counter values, %u flows, %u samples\n",
           sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES),
           sps_trace_count_slices (trace, SPS_TRACK_ASYNC),
           sps_trace_get_instants (trace)->n_rows,
           sps_trace_get_counters (trace)->n_rows,
           sps_trace_get_flows (trace)->n_rows,
           sps_trace_get_samples (trace)->n_rows);
  g_print ("memchr scan    %.3f s = %.0f MB/s (%" G_GUINT64_FORMAT " '{')\n",
           scan_seconds, size / MB / scan_seconds, braces);
  g_print ("import         %.3f s = %.1f MB/s, %.2f M events/s (parse + finish)\n",
           seconds, size / MB / seconds, events / 1e6 / seconds);
  /* Wall time depends on what else runs on the machine; CPU time much
   * less, so it is printed too. */
  g_print ("import CPU     %.3f s on %.2f cores = %.0f MB per CPU-second\n",
           cpu, cpu / seconds, size / MB / cpu);
  g_print ("import/memchr  %.3f of the scan's speed\n", scan_seconds / seconds);
  g_print ("peak RSS       %.0f MB (%.2fx the file; the file mapping counts while it is resident)\n",
           peak / MB, (double) peak / size);
  /* Every page of the mapping is resident once the parse has read it, so
   * the peak beyond the file's size estimates the peak of anonymous
   * memory: the builder's records and finish()'s work arrays. */
  if (events > 0 && peak > size)
    g_print ("peak - file    %.0f MB = %.1f bytes/event (estimated peak of anonymous memory)\n",
             (peak - size) / MB, (double) (peak - size) / events);
  if (events > 0)
    {
      g_print ("anon memory    %.1f MB after load = %.1f bytes/event (%.1f after malloc_trim)\n",
               (anon_after - anon_before) / MB, (double) (anon_after - anon_before) / events,
               (double) (anon_trimmed - anon_before) / events);
      g_print ("model size     %.1f MB = %.1f bytes/event (sps_trace_get_memory_size)\n",
               model_bytes / MB, (double) model_bytes / events);
    }

  g_clear_object (&trace);

  if (simdjson_program != NULL)
    {
      double best, best_cpu;

      if (!simdjson_baseline (simdjson_program, path, &simdjson[1], &error))
        {
          g_printerr ("bench-import: %s\n", error->message);
          return 1;
        }
      best = MIN (simdjson[0].wall, simdjson[1].wall);
      best_cpu = MIN (simdjson[0].cpu, simdjson[1].cpu);
      /* The target's figure: wall time, the import on both cores against
       * one simdjson thread (the faster of its two runs); CPU time beside
       * it, which a loaded machine disturbs less; and against the walk
       * alone, without simdjson's read of the file into a padded buffer */
      g_print ("import/simdjson %.2fx simdjson's speed (wall: %.3f s against %.3f s); "
               "by CPU time %.2fx (%.3f s against %.3f s)\n",
               best / seconds, seconds, best, best_cpu / cpu, cpu, best_cpu);
      g_print ("import/walk     %.2fx the walk alone (wall: %.3f s); by CPU time %.2fx (%.3f s)\n",
               MIN (simdjson[0].walk_wall, simdjson[1].walk_wall) / seconds,
               MIN (simdjson[0].walk_wall, simdjson[1].walk_wall),
               MIN (simdjson[0].walk_cpu, simdjson[1].walk_cpu) / cpu,
               MIN (simdjson[0].walk_cpu, simdjson[1].walk_cpu));
    }

  if (json_glib_file != NULL)
    {
      if (!json_glib_baseline (json_glib_file, &json_glib_mbps, &error))
        {
          g_printerr ("bench-import: %s: %s\n", json_glib_file, error->message);
          return 1;
        }
      g_print ("import/json-glib %.1fx json-glib's speed\n", size / MB / seconds / json_glib_mbps);
    }

  return 0;
}
