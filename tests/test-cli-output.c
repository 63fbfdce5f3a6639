/* test-cli-output.c: where spanscope-cli writes: `-o -` is standard
 * output, something that is not a regular file is never replaced, and a
 * write that fails midway leaves the target as it was, with no half file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-cli-output"

#include "config.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <spanscope-core.h>

#include "sps-test-util.h"

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(char * const *) a, *(char * const *) b);
}

static char *
list_dir (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while ((name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (" ", (char **) names->pdata);
}

static void
assert_dir (const char *path,
            const char *expected)
{
  g_autofree char *names = list_dir (path);

  g_assert_cmpstr (names, ==, expected);
}

/* The converted trace on standard output is the file -o FILE writes */
static void
test_stdout (void)
{
  g_autofree char *input = sps_test_fixture_path ("cli-small.json");
  g_autofree char *dir = g_dir_make_tmp ("spanscope-out-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "out.json", NULL);
  g_autofree char *written = NULL;
  g_auto(SpsTestRun) to_file = { 0, };
  g_auto(SpsTestRun) to_stdout = { 0, };

  sps_test_run_cli_va (&to_file, "convert", "-f", "chrome-json", "-o", out, input, NULL);
  g_assert_cmpint (to_file.status, ==, 0);
  sps_test_run_cli_va (&to_stdout, "convert", "-f", "chrome-json", "-o", "-", input, NULL);
  g_assert_cmpint (to_stdout.status, ==, 0);
  g_assert_cmpstr (to_stdout.err, ==, "");

  g_assert_true (g_file_get_contents (out, &written, NULL, NULL));
  g_assert_cmpuint (strlen (to_stdout.out), >, 100);
  g_assert_cmpstr (to_stdout.out, ==, written);
  assert_dir (dir, "out.json");

  sps_test_remove_tree (dir);
}

/* A FIFO, and a symbolic link to a device: refused, left as they were */
static void
test_not_regular (void)
{
  g_autofree char *input = sps_test_fixture_path ("cli-small.json");
  g_autofree char *dir = g_dir_make_tmp ("spanscope-out-XXXXXX", NULL);
  g_autofree char *fifo = g_build_filename (dir, "fifo", NULL);
  g_autofree char *link = g_build_filename (dir, "null", NULL);
  g_autofree char *expected = NULL;
  g_autofree char *target = NULL;
  g_auto(SpsTestRun) run_fifo = { 0, };
  g_auto(SpsTestRun) run_link = { 0, };
  GStatBuf st;

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_cmpint (symlink ("/dev/null", link), ==, 0);

  sps_test_run_cli_va (&run_fifo, "convert", "-f", "chrome-json", "-o", fifo, input, NULL);
  g_assert_cmpint (run_fifo.status, ==, 1);
  expected = g_strdup_printf ("spanscope-cli convert: %s: not a regular file; it is not replaced "
                              "(use -o - to write to standard output)\n", fifo);
  g_assert_cmpstr (run_fifo.err, ==, expected);
  g_assert_cmpint (g_lstat (fifo, &st), ==, 0);
  g_assert_true (S_ISFIFO (st.st_mode));

  sps_test_run_cli_va (&run_link, "flame", "-f", "folded", "-o", link, input, NULL);
  g_assert_cmpint (run_link.status, ==, 1);
  g_assert_nonnull (strstr (run_link.err, "null: not a regular file; it is not replaced"));
  target = g_file_read_link (link, NULL);
  g_assert_cmpstr (target, ==, "/dev/null");

  assert_dir (dir, "fifo null");
  sps_test_remove_tree (dir);
}

/* A write that fails midway (the file size limit is 512 bytes, the output
 * 1.5 kB, so a write fails with EFBIG): the old file is untouched and the
 * temporary file is gone. */
static void
test_failed_write (void)
{
  g_autofree char *input = sps_test_fixture_path ("cli-small.json");
  g_autofree char *dir = g_dir_make_tmp ("spanscope-out-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "out.json", NULL);
  g_autofree char *script = NULL;
  g_autofree char *std_err = NULL;
  g_autofree char *kept = NULL;
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_assert_true (g_file_set_contents (out, "old", -1, NULL));
  script = g_strdup_printf ("trap '' XFSZ; ulimit -f 1; exec '%s' convert -f chrome-json -o '%s' '%s'",
                            g_getenv ("SPANSCOPE_CLI"), out, input);
  g_assert_true (g_spawn_sync (NULL, (char *[]) { (char *) "/bin/sh", (char *) "-c", script, NULL }, NULL,
                               G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &std_err, &status, &error));
  g_assert_no_error (error);
  g_test_message ("%s", std_err);
  g_assert_false (g_spawn_check_wait_status (status, NULL));
  g_assert_nonnull (strstr (std_err, "File too large"));

  g_assert_true (g_file_get_contents (out, &kept, NULL, NULL));
  g_assert_cmpstr (kept, ==, "old");
  assert_dir (dir, "out.json");

  sps_test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli-output/stdout", test_stdout);
  g_test_add_func ("/cli-output/not-regular", test_not_regular);
  g_test_add_func ("/cli-output/failed-write", test_failed_write);

  return g_test_run ();
}
