/* test-import-limits.c: the limits an importer keeps whatever a file says:
 * the decompressed size of a gzip file (a decompression bomb stops at it,
 * keeping what was decompressed)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-import-limits"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <spanscope-core.h>

#include "sps-test-util.h"

static SpsImporter *
chrome_importer (void)
{
  g_autoptr(GPtrArray) importers = sps_plugin_engine_create_importers (sps_plugin_engine_get_default ());

  for (guint i = 0; i < importers->len; i++)
    if (g_str_equal (sps_importer_get_name (importers->pdata[i]), "chrome-json"))
      return g_object_ref (importers->pdata[i]);
  g_assert_not_reached ();
}

/* 20,000 events of 58 bytes (1.16 MB) compress to a few kB; with a limit
 * of 600,000 bytes the import stops there: the 10,344 events that end
 * within the limit are kept (the one cut by it is not), and one warning
 * names the file and the limit. No "truncated" warning: the data is not
 * cut, the limit is. */
static void
test_gzip_limit (void)
{
  g_autoptr(GString) text = g_string_new ("[\n");
  g_autoptr(GBytes) packed = NULL;
  g_autoptr(SpsImporter) importer = chrome_importer ();
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GVariant) options = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  g_autofree char *dir = g_dir_make_tmp ("spanscope-limit-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "bomb.json.gz", NULL);
  g_autofree char *expected = NULL;
  const char *first = NULL;
  guint64 count = 0;
  GVariantDict dict;

  /* "[\n" then 58-byte lines: event i (from 0) ends at 2 + 58 (i + 1) */
  for (guint i = 0; i < 20000; i++)
    g_string_append_printf (text, "{\"name\":\"e\",\"ph\":\"X\",\"ts\":%5u,\"dur\":1,\"pid\":1,\"tid\":1},\n", i);
  g_assert_cmpuint (text->len, ==, 2 + 58 * 20000);
  g_string_append (text, "{}]\n");
  packed = sps_test_gzip (text->str, text->len, 9);
  g_assert_cmpuint (g_bytes_get_size (packed), <, 100000);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (packed, NULL), g_bytes_get_size (packed), NULL));
  file = g_file_new_for_path (path);

  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert (&dict, "max-decompressed-size", "t", (guint64) 600000);
  options = g_variant_ref_sink (g_variant_dict_end (&dict));

  g_assert_true (sps_importer_load (importer, file, options, builder, NULL, &error));
  g_assert_no_error (error);
  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);

  /* (600000 - 2) / 58 = 10344 whole lines */
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES), ==, 10344);
  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 1);
  g_assert_cmpstr (sps_trace_get_warning (trace, 0, &count, &first), ==, "decompressed_size_limit");
  g_assert_cmpuint (count, ==, 1);
  expected = g_strdup_printf ("%s: the decompressed data is larger than the limit of 585.9\302\240KiB "
                              "(the smaller of 16 GiB and half the memory); the events in the "
                              "first 585.9\302\240KiB were kept", path);
  g_assert_cmpstr (first, ==, expected);

  sps_test_remove_tree (dir);
}

/* Exactly at the limit is not over it */
static void
test_gzip_at_limit (void)
{
  static const char text[] = "[{\"name\":\"e\",\"ph\":\"X\",\"ts\":1,\"dur\":1,\"pid\":1,\"tid\":1}]";
  g_autoptr(GBytes) packed = sps_test_gzip (text, strlen (text), 9);
  g_autoptr(SpsImporter) importer = chrome_importer ();
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  g_autofree char *dir = g_dir_make_tmp ("spanscope-limit-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "exact.json.gz", NULL);
  GVariantDict dict;

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (packed, NULL), g_bytes_get_size (packed), NULL));
  file = g_file_new_for_path (path);
  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert (&dict, "max-decompressed-size", "t", (guint64) strlen (text));
  g_assert_true (sps_importer_load (importer, file, g_variant_dict_end (&dict), builder, NULL, &error));
  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES), ==, 1);
  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 0);

  sps_test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/import-limits/gzip", test_gzip_limit);
  g_test_add_func ("/import-limits/gzip-at-limit", test_gzip_at_limit);

  return g_test_run ();
}
