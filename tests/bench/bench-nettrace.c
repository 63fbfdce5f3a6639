/* bench-nettrace.c: import + stack repair + chromium conversion of a
 * large generated .nettrace
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Usage: bench-nettrace GEN-NETTRACE N_SAMPLES FILE
 *
 * Generates FILE with GEN-NETTRACE (another process, so that its memory
 * is not counted) unless it exists, then in this process measures, in
 * order: a bare read of the file (every byte read once: the baseline),
 * the import with the stack repair (sps_trace_load() through the plugin
 * engine), and the conversion to the chromium format (written to a file
 * next to FILE, deleted afterwards). Prints samples/s end to end, the
 * ratio of the end-to-end time to the bare read, and the peak RSS.
 */

#define G_LOG_DOMAIN "sps-bench-nettrace"

#include "config.h"

#include <string.h>
#include <sys/resource.h>

#include <glib/gstdio.h>
#include <spanscope-core.h>

#include "sps-bench-util.h"

#define MB (1000.0 * 1000.0)

/* The baseline: read every byte of the file once */
static double
bare_read (const char *path,
           guint64    *checksum)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GMappedFile) mapped = g_mapped_file_new (path, FALSE, &error);
  const guint64 *words;
  gsize n;
  guint64 sum = 0;
  gint64 start;

  g_assert_no_error (error);
  start = g_get_monotonic_time ();
  words = (const guint64 *) (gconstpointer) g_mapped_file_get_contents (mapped);
  n = g_mapped_file_get_length (mapped) / 8;
  for (gsize i = 0; i < n; i++)
    sum += words[i];
  *checksum = sum;

  return (g_get_monotonic_time () - start) / 1e6;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFile) out_file = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsExporter) exporter = NULL;
  g_autoptr(GFileOutputStream) out = NULL;
  g_autoptr(GOutputStream) buffered = NULL;
  g_autoptr(GVariant) options = NULL;
  g_autoptr(GVariant) load_options = NULL;
  g_autoptr(SpsTrace) app_trace = NULL;
  double app_s, app_cpu;
  guint64 peak_convert;
  g_autofree char *out_path = NULL;
  g_autofree char *report = NULL;
  const char *path;
  guint64 checksum = 0;
  guint64 n_samples = 0, n_repaired = 0, n_unrecoverable = 0;
  guint64 size;
  double read_s, import_s, convert_s, total_s;
  double cpu_start, import_cpu, convert_cpu;
  gint64 start;

  if (argc != 4)
    {
      g_printerr ("usage: bench-nettrace GEN-NETTRACE N_SAMPLES FILE\n");
      return 2;
    }
  path = argv[3];

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_autofree char *tmp = g_strconcat (path, ".tmp", NULL);
      const char *gen_argv[] = { argv[1], argv[2], tmp, NULL };
      int status = 0;

      g_print ("generating %s\n", path);
      if (!g_spawn_sync (NULL, (char **) gen_argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, &error) ||
          !g_spawn_check_wait_status (status, &error))
        {
          g_printerr ("bench-nettrace: %s\n", error->message);
          return 1;
        }
      g_rename (tmp, path);
    }

  file = g_file_new_for_path (path);
  out_path = g_strconcat (path, ".chromium.json", NULL);
  out_file = g_file_new_for_path (out_path);

  read_s = bare_read (path, &checksum);

  /* The options of `spanscope-cli convert`: no raw copy of the stacks */
  {
    GVariantDict dict;

    g_variant_dict_init (&dict, NULL);
    g_variant_dict_insert (&dict, "keep-raw", "b", FALSE);
    load_options = g_variant_ref_sink (g_variant_dict_end (&dict));
  }
  start = g_get_monotonic_time ();
  cpu_start = sps_bench_cpu_seconds ();
  trace = sps_trace_load (file, sps_plugin_engine_get_default (), load_options, SPS_LOAD_FLAGS_NONE, NULL, NULL,
                          &error);
  g_assert_no_error (error);
  import_s = (g_get_monotonic_time () - start) / 1e6;
  import_cpu = sps_bench_cpu_seconds () - cpu_start;

  exporter = sps_plugin_engine_create_exporter (sps_plugin_engine_get_default (), "chromium");
  g_assert_nonnull (exporter);
  options = g_variant_ref_sink (g_variant_new_array (G_VARIANT_TYPE ("{sv}"), NULL, 0));
  start = g_get_monotonic_time ();
  cpu_start = sps_bench_cpu_seconds ();
  out = g_file_replace (out_file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, &error);
  g_assert_no_error (error);
  buffered = g_buffered_output_stream_new_sized (G_OUTPUT_STREAM (out), 1 << 20);
  sps_exporter_write (exporter, trace, options, buffered, NULL, &error);
  g_assert_no_error (error);
  g_output_stream_close (buffered, NULL, &error);
  g_assert_no_error (error);
  convert_s = (g_get_monotonic_time () - start) / 1e6;
  convert_cpu = sps_bench_cpu_seconds () - cpu_start;

  size = 0;
  {
    g_autoptr(GFileInfo) info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE, 0, NULL, NULL);

    if (info != NULL)
      size = g_file_info_get_size (info);
  }

  sps_stack_repair_get_summary (trace, &n_samples, &n_repaired, &n_unrecoverable, NULL);
  total_s = import_s + convert_s;

  g_print ("machine: %u cores; load average ", g_get_num_processors ());
  {
    g_autofree char *load = NULL;

    if (g_file_get_contents ("/proc/loadavg", &load, NULL, NULL))
      g_print ("%s", load);
    else
      g_print ("\n");
  }
  g_print ("file            %s: %.1f MB, %" G_GUINT64_FORMAT " samples (checksum %" G_GINT64_MODIFIER "x)\n",
           path, size / MB, n_samples, checksum);
  g_print ("repair          %" G_GUINT64_FORMAT " repaired, %" G_GUINT64_FORMAT " unrecoverable (deleted)\n",
           n_repaired, n_unrecoverable);
  g_print ("bare read       %.3f s (%.0f MB/s) (baseline)\n", read_s, size / MB / read_s);
  g_print ("import+repair   %.3f s (CPU %.3f s) = %.2f M samples/s\n", import_s, import_cpu,
           n_samples / import_s / 1e6);
  g_print ("chromium write  %.3f s (CPU %.3f s) = %.2f M samples/s\n", convert_s, convert_cpu,
           n_samples / convert_s / 1e6);
  g_print ("end to end      %.3f s = %.2f M samples/s (target >= 1.00), %.1fx the bare read; "
           "by CPU time %.2f M samples/s\n",
           total_s, n_samples / total_s / 1e6, total_s / read_s,
           n_samples / (import_cpu + convert_cpu) / 1e6);
  peak_convert = sps_bench_peak_rss_bytes ();
  g_print ("peak RSS        %.0f MB (%.0f bytes per sample)\n",
           peak_convert / MB, (double) peak_convert / (double) MAX (n_samples, 1));

  /* The application's import keeps the raw stacks too (the raw/repaired
   * switch): measured last, after the converted trace is freed */
  g_clear_object (&trace);
  start = g_get_monotonic_time ();
  cpu_start = sps_bench_cpu_seconds ();
  app_trace = sps_trace_load (file, sps_plugin_engine_get_default (), NULL, SPS_LOAD_FLAGS_NONE, NULL, NULL, &error);
  g_assert_no_error (error);
  app_s = (g_get_monotonic_time () - start) / 1e6;
  app_cpu = sps_bench_cpu_seconds () - cpu_start;
  g_print ("import+repair, raw stacks kept (the application): %.3f s (CPU %.3f s) = %.2f M samples/s, "
           "%u raw samples, peak RSS %.0f MB\n",
           app_s, app_cpu, n_samples / app_s / 1e6, sps_trace_get_raw_samples (app_trace)->n_rows,
           sps_bench_peak_rss_bytes () / MB);
  g_clear_object (&app_trace);
  g_remove (out_path);

  return 0;
}
