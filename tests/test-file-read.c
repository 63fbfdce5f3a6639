/* test-file-read.c: trace files are read, not mapped: special files are
 * refused without blocking, and a file that changes while (or after) it is
 * read leaves a valid trace
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-file-read"

#include "config.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <spanscope-core.h>

#include "sps-test-util.h"

#define TRACE_TEXT \
  "[{\"name\":\"work\",\"ph\":\"X\",\"ts\":10,\"dur\":5,\"pid\":1,\"tid\":2," \
  "\"args\":{\"path\":\"/tmp/in.txt\",\"n\":42}}]"

/* A FIFO without a writer: opening it to read would wait for one for
 * ever. Loading fails at once, naming the file and what it is. */
static void
test_fifo (void)
{
  g_autofree char *dir = g_dir_make_tmp ("spanscope-fifo-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "trace.json", NULL);
  g_autofree char *expected = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GBytes) bytes = NULL;

  g_assert_cmpint (mkfifo (path, 0600), ==, 0);
  file = g_file_new_for_path (path);
  expected = g_strdup_printf ("%s: not a regular file (a FIFO); traces are read from files", path);

  trace = sps_trace_load (file, NULL, NULL, SPS_LOAD_FLAGS_NONE, NULL, NULL, &error);
  g_assert_null (trace);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE);
  g_assert_cmpstr (error->message, ==, expected);
  g_clear_error (&error);

  /* The reader itself refuses it too (a FIFO swapped in after the check) */
  bytes = sps_file_read (file, NULL, NULL, &error);
  g_assert_null (bytes);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE);
  g_assert_cmpstr (error->message, ==, expected);

  sps_test_remove_tree (dir);
}

static void
test_char_device (void)
{
  g_autoptr(GFile) file = g_file_new_for_path ("/dev/zero");
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) trace = NULL;

  trace = sps_trace_load (file, NULL, NULL, SPS_LOAD_FLAGS_NONE, NULL, NULL, &error);
  g_assert_null (trace);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE);
  g_assert_cmpstr (error->message, ==,
                   "/dev/zero: not a regular file (a character device); traces are read from files");
}

/* The trace points into the text it was read from (args are kept as
 * text): cutting and rewriting the file after the import changes nothing
 * (a mapping would raise SIGBUS on the first page past the new end). */
static void
test_truncated_after_import (void)
{
  g_autofree char *dir = g_dir_make_tmp ("spanscope-cut-XXXXXX", NULL);
  g_autofree char *path = sps_test_write_file (dir, "trace.json", TRACE_TEXT);
  g_autoptr(SpsTrace) trace = sps_test_load_path (path);
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  const char *args;
  gsize len = 0;

  g_assert_cmpuint (slices->n_rows, ==, 1);
  g_assert_cmpint (truncate (path, 0), ==, 0);
  g_assert_true (g_file_set_contents (path, "xx", 2, NULL));
  g_assert_cmpint (truncate (path, 0), ==, 0);

  args = sps_trace_get_args_json (trace, slices->args[0], &len);
  g_assert_cmpmem (args, len, "{\"path\":\"/tmp/in.txt\",\"n\":42}", strlen ("{\"path\":\"/tmp/in.txt\",\"n\":42}"));
  g_assert_cmpuint (sps_trace_count_warning (trace, SPS_FILE_CHANGED_WARNING), ==, 0);

  sps_test_remove_tree (dir);
}

/* A file that is longer than its size said when it was opened (here a
 * /proc file, which always says 0 bytes): what the size promised is kept
 * (nothing) and the change is one warning that names the file. */
static void
test_grew_while_reading (void)
{
  g_autoptr(GFile) file = g_file_new_for_path ("/proc/self/cmdline");
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  const char *first = NULL;
  guint64 count = 0;

  bytes = sps_file_read (file, builder, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (bytes), ==, 0);

  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 1);
  g_assert_cmpstr (sps_trace_get_warning (trace, 0, &count, &first), ==, SPS_FILE_CHANGED_WARNING);
  g_assert_cmpuint (count, ==, 1);
  g_assert_cmpstr (first, ==, "/proc/self/cmdline: the file changed while it was read; the 0 bytes read are kept");
}

/* A regular file is read whole, NUL-terminated past its length */
static void
test_regular (void)
{
  g_autofree char *dir = g_dir_make_tmp ("spanscope-read-XXXXXX", NULL);
  g_autofree char *path = sps_test_write_file (dir, "trace.json", TRACE_TEXT);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  gsize len = 0;
  const char *data;

  bytes = sps_file_read (file, builder, NULL, &error);
  g_assert_no_error (error);
  data = g_bytes_get_data (bytes, &len);
  g_assert_cmpmem (data, len, TRACE_TEXT, strlen (TRACE_TEXT));
  g_assert_cmpint (data[len], ==, '\0');
  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 0);

  sps_test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/file-read/fifo", test_fifo);
  g_test_add_func ("/file-read/char-device", test_char_device);
  g_test_add_func ("/file-read/truncated-after-import", test_truncated_after_import);
  g_test_add_func ("/file-read/grew-while-reading", test_grew_while_reading);
  g_test_add_func ("/file-read/regular", test_regular);

  return g_test_run ();
}
