/* test-profile-locks.c: reading a saved profile opens the database once
 * and takes its lock once for the checks and once for the tables, not
 * once per statement and column image
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * SQLite's default file system is wrapped (the process's connections all
 * go through it) to count the opens of main database files and the
 * shared locks taken on them.
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <sqlite3.h>

#include "sps-profile.h"
#include "sps-test-util.h"

static sqlite3_vfs *real_vfs;
static sqlite3_vfs counting_vfs;
static sqlite3_io_methods counting_methods;
static const sqlite3_io_methods *real_methods;
static guint n_opens;
static guint n_shared_locks;

/* The real file's methods, but for xLock: the file is the real one, only
 * its method table is swapped */
static int
counting_lock (sqlite3_file *file,
               int           level)
{
  if (level == SQLITE_LOCK_SHARED)
    n_shared_locks++;
  return real_methods->xLock (file, level);
}

static int
counting_open (sqlite3_vfs  *vfs,
               const char   *name,
               sqlite3_file *file,
               int           flags,
               int          *out_flags)
{
  int rc = real_vfs->xOpen (real_vfs, name, file, flags, out_flags);

  if (rc != SQLITE_OK || file->pMethods == NULL || !(flags & SQLITE_OPEN_MAIN_DB))
    return rc;
  n_opens++;
  if (real_methods == NULL)
    {
      real_methods = file->pMethods;
      counting_methods = *real_methods;
      counting_methods.xLock = counting_lock;
    }
  g_assert_true (file->pMethods == real_methods);
  file->pMethods = &counting_methods;
  return rc;
}

static void
install_counting_vfs (void)
{
  real_vfs = sqlite3_vfs_find (NULL);
  g_assert_nonnull (real_vfs);
  counting_vfs = *real_vfs;
  counting_vfs.zName = "spanscope-counting";
  counting_vfs.xOpen = counting_open;
  g_assert_cmpint (sqlite3_vfs_register (&counting_vfs, 1), ==, SQLITE_OK);
}

static SpsTrace *
read_profile (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  SpsTrace *trace;

  g_assert_true (sps_trace_builder_load_profile (builder, file, NULL, &error));
  g_assert_no_error (error);
  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);
  return trace;
}

static void
test_one_open_two_locks (void)
{
  g_autofree char *source = sps_test_fixture_path ("chrome-phase-x.json");
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-profile-locks-XXXXXX", &error);
  g_autofree char *out = g_build_filename (dir, "p.spprofile", NULL);
  g_autoptr(SpsTrace) original = sps_test_load_path (source);
  g_autoptr(SpsTrace) reopened = NULL;
  g_autofree char *args = NULL;
  const SpsSliceTable *slices;
  guint with_args = G_MAXUINT;

  g_assert_no_error (error);
  g_assert_true (sps_trace_save_profile (original, out, NULL, NULL, &error));
  g_assert_no_error (error);

  install_counting_vfs ();
  reopened = read_profile (out);
  /* The args decoder's connection, which read the tables too */
  g_assert_cmpuint (n_opens, ==, 1);
  /* The checks of the header and schema, then the tables */
  g_assert_cmpuint (n_shared_locks, ==, 2);

  /* Args are read when asked, each under a lock of its own: the trace
   * does not keep the file locked. Only "outer" has args. */
  slices = sps_trace_get_slices (reopened);
  g_assert_cmpuint (slices->n_rows, ==, 5);
  for (guint i = 0; i < slices->n_rows; i++)
    if (slices->args[i] != SPS_ARGS_REF_NONE)
      {
        g_assert_cmpuint (with_args, ==, G_MAXUINT);
        with_args = i;
      }
  g_assert_cmpuint (with_args, !=, G_MAXUINT);
  args = sps_trace_dup_args_json (reopened, slices->args[with_args], NULL);
  g_assert_cmpstr (args, ==, "{\"a\":1}");
  g_assert_cmpuint (n_opens, ==, 1);
  g_assert_cmpuint (n_shared_locks, ==, 3);

  g_clear_object (&reopened);
  sqlite3_vfs_unregister (&counting_vfs);
  g_unlink (out);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/profile/read/one-open-two-locks", test_one_open_two_locks);
  return g_test_run ();
}
