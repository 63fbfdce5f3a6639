/* bench-profile.c: reopening a saved profile against importing its JSON
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Usage: bench-profile FILE.json
 *
 * In one run: imports FILE.json with sps_trace_load() (timed, with the
 * anonymous memory the trace holds per event), saves it as a profile
 * next to it (FILE.json.spprofile, timed), frees the trace, then reopens
 * the profile with sps_trace_load() (timed, the same memory figure). The
 * issue's target: reopening at least 3× faster than the import, with no
 * more anonymous memory per event. Both files are read once before they
 * are timed, so both loads start from the page cache.
 */

#define G_LOG_DOMAIN "sps-bench-profile"

#include "config.h"

#include <locale.h>

#include <glib/gstdio.h>
#ifdef __GLIBC__
# include <malloc.h>
#endif

#include <spanscope-core.h>

#include "sps-bench-util.h"

#define MB (1000.0 * 1000.0)

typedef struct
{
  double  seconds;
  double  cpu;
  gint64  anon;           /* RssAnon after the load minus before */
  gint64  anon_trimmed;   /* the same after malloc_trim() */
  guint64 events;
} Load;

static void
release_free_memory (void)
{
#ifdef __GLIBC__
  malloc_trim (0);
#endif
}

/* Reads the file once, so that the load is timed on a warm cache */
static void
warm (const char *path)
{
  g_autoptr(GMappedFile) mapped = g_mapped_file_new (path, FALSE, NULL);
  const volatile char *p;
  gsize len;
  char sum = 0;

  if (mapped == NULL)
    return;
  p = g_mapped_file_get_contents (mapped);
  len = g_mapped_file_get_length (mapped);
  for (gsize i = 0; i < len; i += 4096)
    sum ^= p[i];
  (void) sum;
}

static SpsTrace *
timed_load (const char  *path,
            Load        *load,
            GError     **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  gint64 anon_before;
  gint64 start;
  double cpu;
  SpsTrace *trace;

  warm (path);
  release_free_memory ();
  anon_before = (gint64) sps_bench_proc_status_bytes ("RssAnon");
  cpu = sps_bench_cpu_seconds ();
  start = g_get_monotonic_time ();
  trace = sps_trace_load (file, sps_plugin_engine_get_default (), NULL, SPS_LOAD_FLAGS_NONE,
                          NULL, NULL, error);
  load->seconds = (g_get_monotonic_time () - start) / 1e6;
  load->cpu = sps_bench_cpu_seconds () - cpu;
  if (trace == NULL)
    return NULL;
  load->anon = (gint64) sps_bench_proc_status_bytes ("RssAnon") - anon_before;
  release_free_memory ();
  load->anon_trimmed = (gint64) sps_bench_proc_status_bytes ("RssAnon") - anon_before;
  load->events = sps_trace_get_events_read (trace);
  return trace;
}

static void
print_load (const char *what,
            const char *path,
            const Load *load)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInfo) info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE,
                                                 G_FILE_QUERY_INFO_NONE, NULL, NULL);
  double events = MAX (load->events, 1);

  g_print ("%-8s %s (%.1f MB)\n", what, path, info != NULL ? g_file_info_get_size (info) / MB : 0.0);
  g_print ("         %.2f s wall, %.2f s CPU; anonymous memory %.1f bytes/event "
           "(%.1f after malloc_trim)\n",
           load->seconds, load->cpu, load->anon / events, load->anon_trimmed / events);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autofree char *profile = NULL;
  Load import = { 0, };
  Load reopen = { 0, };
  gint64 start;
  double save_seconds;

  /* The output has non-ASCII signs (×, ≤) */
  setlocale (LC_ALL, "");

  if (argc != 2)
    {
      g_printerr ("usage: bench-profile FILE.json\n");
      return 2;
    }
  profile = g_strconcat (argv[1], ".spprofile", NULL);

  /* Plugins are loaded before anything is timed */
  sps_plugin_engine_get_default ();

  if (!(trace = timed_load (argv[1], &import, &error)))
    {
      g_printerr ("bench-profile: %s\n", error->message);
      return 1;
    }
  print_load ("import", argv[1], &import);

  start = g_get_monotonic_time ();
  if (!sps_trace_save_profile (trace, profile, NULL, NULL, &error))
    {
      g_printerr ("bench-profile: %s\n", error->message);
      return 1;
    }
  save_seconds = (g_get_monotonic_time () - start) / 1e6;
  g_print ("save     %.2f s\n", save_seconds);
  g_clear_object (&trace);

  if (!(trace = timed_load (profile, &reopen, &error)))
    {
      g_printerr ("bench-profile: %s\n", error->message);
      return 1;
    }
  print_load ("reopen", profile, &reopen);
  g_print ("reopen is %.1fx faster than the import (target: 3x); "
           "anonymous memory %.1f against %.1f bytes/event\n",
           import.seconds / reopen.seconds,
           reopen.anon / (double) MAX (reopen.events, 1),
           import.anon / (double) MAX (import.events, 1));

  g_clear_object (&trace);
  g_unlink (profile);
  return 0;
}
