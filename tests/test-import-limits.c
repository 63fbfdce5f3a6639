/* test-import-limits.c: the limits an importer keeps whatever a file says:
 * the decompressed size of a gzip file (a decompression bomb stops at it,
 * keeping what was decompressed), the rows a builder table keeps and the
 * strings a pool holds (lowered here through the internal setters, so
 * that a few events reach them)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-import-limits"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <spanscope-core.h>

#include "sps-test-util.h"
#include "sps-trace-private.h"

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

/* A Chrome JSON text of @n X events at ts 1..@n µs
 * on one thread, named "s1".."sN", 1 µs long */
static char *
numbered_slices (guint n)
{
  GString *text = g_string_new ("[");

  for (guint i = 1; i <= n; i++)
    g_string_append_printf (text, "%s{\"name\":\"s%u\",\"ph\":\"X\",\"ts\":%u,\"dur\":1,\"pid\":1,\"tid\":1}",
                            i > 1 ? "," : "", i, i);
  g_string_append (text, "]");
  return g_string_free (text, FALSE);
}

/* Imports @text as Chrome JSON into @builder and finishes it */
static SpsTrace *
import_text (SpsTraceBuilder *builder,
             const char      *text)
{
  g_autoptr(SpsImporter) importer = chrome_importer ();
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  g_autofree char *dir = g_dir_make_tmp ("spanscope-limit-XXXXXX", NULL);
  g_autofree char *path = sps_test_write_file (dir, "limit.json", text);

  file = g_file_new_for_path (path);
  g_assert_true (sps_importer_load (importer, file, NULL, builder, NULL, &error));
  g_assert_no_error (error);
  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);
  sps_test_remove_tree (dir);
  return g_steal_pointer (&trace);
}

/* Checks that @trace's slices are "s1".."s@n" at ts 1..@n µs */
static void
assert_numbered_slices (SpsTrace *trace,
                        guint     n)
{
  g_assert_cmpuint (sps_trace_get_n_slices (trace), ==, n);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *expected = g_strdup_printf ("s%u", i + 1);
      const char *name = NULL;
      SpsTime ts = 0;

      g_assert_true (sps_trace_get_slice (trace, i, NULL, &ts, NULL, NULL, &name, NULL));
      g_assert_cmpstr (name, ==, expected);
      g_assert_cmpint (ts, ==, (SpsTime) (i + 1) * 1000);
    }
}

static void
assert_row_limit_warning (SpsTrace   *trace,
                          const char *expected)
{
  const char *first = NULL;
  guint64 count = 0;

  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 1);
  g_assert_cmpstr (sps_trace_get_warning (trace, 0, &count, &first), ==, "row_limit");
  /* One warning for the table that was full, however many were dropped */
  g_assert_cmpuint (count, ==, 1);
  g_assert_cmpstr (first, ==, expected);
}

/* A builder that keeps @max_rows rows a table, with one process and one
 * thread (pid and tid 1) */
static SpsTraceBuilder *
limited_builder (guint    max_rows,
                 guint32 *process,
                 guint32 *thread)
{
  SpsTraceBuilder *builder = sps_trace_builder_new ();

  _sps_trace_builder_set_max_rows (builder, max_rows);
  *process = sps_trace_builder_ensure_process (builder, 1);
  *thread = sps_trace_builder_ensure_thread (builder, *process, 1);
  return builder;
}

/* A builder that keeps 4 rows a table, written to directly: the fifth
 * slice makes it full and is dropped, as is everything after it (an
 * instant, a new thread, a sixth slice); the four before are kept, and
 * the handles of the dropped ones are SPS_NO_INDEX. */
static void
test_row_limit_builder (void)
{
  guint32 process, thread;
  g_autoptr(SpsTraceBuilder) builder = limited_builder (4, &process, &thread);
  g_autoptr(SpsTrace) trace = NULL;
  SpsStringPool *strings = sps_trace_builder_get_strings (builder);

  for (guint i = 1; i <= 4; i++)
    {
      g_autofree char *name = g_strdup_printf ("s%u", i);

      g_assert_cmpuint (sps_trace_builder_add_complete (builder, thread, i * 1000, 1000,
                                                        sps_string_pool_intern (strings, name, -1), 0,
                                                        SPS_ARGS_REF_NONE, SPS_SLICE_NONE), ==, i - 1);
    }
  g_assert_cmpuint (sps_trace_builder_add_complete (builder, thread, 5000, 1000, 0, 0,
                                                    SPS_ARGS_REF_NONE, SPS_SLICE_NONE), ==, SPS_NO_INDEX);
  sps_trace_builder_add_instant (builder, SPS_INSTANT_KIND_INSTANT, SPS_INSTANT_SCOPE_THREAD, process, thread,
                                 6000, 0, 0, SPS_ARGS_REF_NONE);
  g_assert_cmpuint (sps_trace_builder_ensure_thread (builder, process, 2), ==, SPS_NO_INDEX);
  g_assert_cmpuint (sps_trace_builder_add_complete (builder, thread, 7000, 1000, 0, 0,
                                                    SPS_ARGS_REF_NONE, SPS_SLICE_NONE), ==, SPS_NO_INDEX);
  trace = sps_test_finish (builder);

  assert_numbered_slices (trace, 4);
  g_assert_cmpuint (sps_trace_get_instants (trace)->n_rows, ==, 0);
  g_assert_cmpuint (sps_trace_get_threads (trace)->n_rows, ==, 1);
  assert_row_limit_warning (trace, "The trace has more than 4 slices; Spanscope keeps the first 4 "
                                   "and drops every event after them");
}

/* Async events become slices in finish(), so they count against the same
 * limit as the slices: 2 slices and 2 async events fill 4 rows, and the
 * third async event is dropped. The async begin/end pair makes one slice
 * (and the lone begin after it, dropped, none). */
static void
test_row_limit_async (void)
{
  guint32 process, thread;
  g_autoptr(SpsTraceBuilder) builder = limited_builder (4, &process, &thread);
  g_autoptr(SpsTrace) trace = NULL;

  sps_trace_builder_add_complete (builder, thread, 1000, 1000, 0, 0, SPS_ARGS_REF_NONE, SPS_SLICE_NONE);
  sps_trace_builder_add_complete (builder, thread, 2000, 1000, 0, 0, SPS_ARGS_REF_NONE, SPS_SLICE_NONE);
  g_assert_cmpuint (sps_trace_builder_add_async (builder, SPS_ASYNC_BEGIN, process, 7, 1000, 0, 0,
                                                 SPS_ARGS_REF_NONE), !=, SPS_NO_INDEX);
  g_assert_cmpuint (sps_trace_builder_add_async (builder, SPS_ASYNC_END, process, 7, 3000, 0, 0,
                                                 SPS_ARGS_REF_NONE), !=, SPS_NO_INDEX);
  g_assert_cmpuint (sps_trace_builder_add_async (builder, SPS_ASYNC_BEGIN, process, 8, 4000, 0, 0,
                                                 SPS_ARGS_REF_NONE), ==, SPS_NO_INDEX);
  trace = sps_test_finish (builder);

  g_assert_cmpuint (sps_trace_get_n_slices (trace), ==, 3);
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES), ==, 2);
  assert_row_limit_warning (trace, "The trace has more than 4 slices; Spanscope keeps the first 4 "
                                   "and drops every event after them");
}

/* The same through the Chrome JSON importer: of six X events, the first
 * four (in file order: ts 1..4 µs) are kept. */
static void
test_row_limit_chrome (void)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(SpsTrace) trace = NULL;
  g_autofree char *text = numbered_slices (6);

  _sps_trace_builder_set_max_rows (builder, 4);
  trace = import_text (builder, text);

  assert_numbered_slices (trace, 4);
  assert_row_limit_warning (trace, "The trace has more than 4 slices; Spanscope keeps the first 4 "
                                   "and drops every event after them");
}

/* A pool of at most 3 ids holds "" and two strings; a third new string
 * gets the empty string's id, and is counted; strings it holds are still
 * found. */
static void
test_string_limit_pool (void)
{
  g_autoptr(SpsStringPool) pool = sps_string_pool_new ();

  _sps_string_pool_set_max_strings (pool, 3);
  g_assert_cmpuint (sps_string_pool_intern (pool, "a", -1), ==, 1);
  g_assert_cmpuint (sps_string_pool_intern (pool, "b", -1), ==, 2);
  g_assert_cmpuint (sps_string_pool_intern (pool, "c", -1), ==, 0);
  g_assert_cmpuint (sps_string_pool_intern (pool, "d", -1), ==, 0);
  g_assert_cmpuint (sps_string_pool_intern (pool, "a", -1), ==, 1);
  g_assert_cmpuint (sps_string_pool_get_size (pool), ==, 3);
  g_assert_cmpuint (_sps_string_pool_get_n_dropped (pool), ==, 2);
  g_assert_cmpuint (sps_string_pool_lookup (pool, "c", -1), ==, SPS_NO_INDEX);
}

/* Through the Chrome JSON importer, with room for 4 strings besides the
 * empty one: the importer interns "(anonymous)" before the first event
 * (its CPU-profile reader's name for unnamed functions; the pool of a
 * trace of two such events lists "", "(anonymous)", "s1", "s2"), then
 * the names "s1", "s2", "s3" (the events have no category, and nothing
 * else of theirs is a string), so "s4" and "s5" read as empty; all five
 * slices are kept, with their times. */
static void
test_string_limit_chrome (void)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(SpsTrace) trace = NULL;
  g_autofree char *text = numbered_slices (5);
  const char *first = NULL;
  const char *name = NULL;
  guint64 count = 0;
  SpsTime ts = 0;

  _sps_string_pool_set_max_strings (sps_trace_builder_get_strings (builder), 5);
  trace = import_text (builder, text);

  g_assert_cmpuint (sps_trace_get_n_slices (trace), ==, 5);
  for (guint i = 0; i < 5; i++)
    {
      g_autofree char *expected = i < 3 ? g_strdup_printf ("s%u", i + 1) : g_strdup ("");

      g_assert_true (sps_trace_get_slice (trace, i, NULL, &ts, NULL, NULL, &name, NULL));
      g_assert_cmpstr (name, ==, expected);
      g_assert_cmpint (ts, ==, (SpsTime) (i + 1) * 1000);
    }
  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 1);
  g_assert_cmpstr (sps_trace_get_warning (trace, 0, &count, &first), ==, "string_limit");
  g_assert_cmpuint (count, ==, 2);
  g_assert_cmpstr (first, ==, "The trace has more than 4 distinct names, categories and keys; "
                              "the ones after the first 4 are shown empty");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/import-limits/gzip", test_gzip_limit);
  g_test_add_func ("/import-limits/gzip-at-limit", test_gzip_at_limit);
  g_test_add_func ("/import-limits/rows/builder", test_row_limit_builder);
  g_test_add_func ("/import-limits/rows/async", test_row_limit_async);
  g_test_add_func ("/import-limits/rows/chrome-json", test_row_limit_chrome);
  g_test_add_func ("/import-limits/strings/pool", test_string_limit_pool);
  g_test_add_func ("/import-limits/strings/chrome-json", test_string_limit_chrome);

  return g_test_run ();
}
