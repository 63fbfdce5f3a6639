/* test-file-write.c: saving to a file the user chose replaces it only
 * once everything was written, and refuses a target that is not a file
 * (a FIFO would block the save for ever, a device would be written)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-file-write"

#include "config.h"

#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <spanscope-core.h>

#include "sps-test-util.h"

typedef struct
{
  char *dir;
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fixture->dir = g_dir_make_tmp ("sps-file-write-XXXXXX", &error);
  g_assert_no_error (error);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  sps_test_remove_tree (fixture->dir);
  g_free (fixture->dir);
}

static guint
count_entries (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  g_assert_nonnull (d);
  while (g_dir_read_name (d) != NULL)
    n++;
  return n;
}

static void
assert_contents (const char *path,
                 const char *expected)
{
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (contents, ==, expected);
}

/* A new file, then the same file replaced */
static void
test_regular (Fixture       *fixture,
              gconstpointer  data)
{
  g_autofree char *path = g_build_filename (fixture->dir, "out.txt", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GBytes) first = g_bytes_new_static ("first", 5);
  g_autoptr(GBytes) second = g_bytes_new_static ("second", 6);
  g_autoptr(GError) error = NULL;

  g_assert_true (sps_file_replace_contents (file, first, NULL, &error));
  g_assert_no_error (error);
  assert_contents (path, "first");

  g_assert_true (sps_file_replace_contents (file, second, NULL, &error));
  g_assert_no_error (error);
  assert_contents (path, "second");
  g_assert_cmpuint (count_entries (fixture->dir), ==, 1);
}

/* A write abandoned midway keeps the old file and leaves no temporary
 * file beside it */
static void
test_abandoned (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *path = g_build_filename (fixture->dir, "out.txt", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileOutputStream) out = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (path, "old", -1, NULL));
  out = sps_file_replace (file, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_output_stream_write_all (G_OUTPUT_STREAM (out), "half", 4, NULL, NULL, &error));
  g_assert_no_error (error);
  sps_file_replace_abandon (G_OUTPUT_STREAM (out));

  assert_contents (path, "old");
  g_assert_cmpuint (count_entries (fixture->dir), ==, 1);
}

/* Each refused at once, with its name and what it is; nothing changed */
static void
assert_refused (const char *path,
                const char *what)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GBytes) bytes = g_bytes_new_static ("x", 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(GFileOutputStream) out = NULL;
  g_autofree char *expected = g_strdup_printf ("%s: not a regular file (%s); it is not replaced", path, what);

  out = sps_file_replace (file, NULL, &error);
  g_assert_null (out);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE);
  g_assert_cmpstr (error->message, ==, expected);
  g_clear_error (&error);

  g_assert_false (sps_file_replace_contents (file, bytes, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE);
}

static void
test_special (Fixture       *fixture,
              gconstpointer  data)
{
  g_autofree char *fifo = g_build_filename (fixture->dir, "fifo", NULL);
  g_autofree char *link = g_build_filename (fixture->dir, "null-link", NULL);
  g_autofree char *folder = g_build_filename (fixture->dir, "folder", NULL);
  GStatBuf st;

  /* Opening a FIFO to write blocks until a reader comes: this would hang
   * if it were opened */
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  assert_refused (fifo, "a FIFO");
  g_assert_cmpint (g_stat (fifo, &st), ==, 0);
  g_assert_true (S_ISFIFO (st.st_mode));

  g_assert_cmpint (symlink ("/dev/null", link), ==, 0);
  assert_refused (link, "a character device");
  g_assert_cmpint (g_lstat (link, &st), ==, 0);
  g_assert_true (S_ISLNK (st.st_mode));

  g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
  assert_refused (folder, "a folder");
  g_assert_cmpuint (count_entries (fixture->dir), ==, 3);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/file-write/regular", Fixture, NULL, fixture_setup, test_regular, fixture_teardown);
  g_test_add ("/file-write/abandoned", Fixture, NULL, fixture_setup, test_abandoned, fixture_teardown);
  g_test_add ("/file-write/special", Fixture, NULL, fixture_setup, test_special, fixture_teardown);

  return g_test_run ();
}
