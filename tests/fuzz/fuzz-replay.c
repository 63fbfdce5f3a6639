/* fuzz-replay.c: runs a harness over files, without libFuzzer
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Linked with a harness in the normal build (gcc, and the sanitizer build
 * of `build-aux/dev test --sanitize`): every file given, or every file in
 * a folder given, is passed to LLVMFuzzerTestOneInput() once. This is how
 * the inputs that once crashed (tests/fuzz/corpus/<target>/) are checked
 * by `meson test --suite fuzz-regress`.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "sps-fuzz.h"

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(char * const *) a, *(char * const *) b);
}

static guint
replay_file (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize len = 0;

  if (!g_file_get_contents (path, &contents, &len, &error))
    g_error ("%s", error->message);
  printf ("# %s (%zu bytes)\n", path, len);
  fflush (stdout);
  LLVMFuzzerTestOneInput ((const guint8 *) contents, len);
  return 1;
}

static guint
replay (const char *path)
{
  g_autoptr(GPtrArray) names = NULL;
  g_autoptr(GDir) dir = NULL;
  const char *name;
  guint n = 0;

  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    return replay_file (path);

  if (!(dir = g_dir_open (path, 0, NULL)))
    return 0;
  names = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (name[0] != '.')
      g_ptr_array_add (names, g_build_filename (path, name, NULL));
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    n += replay (names->pdata[i]);
  return n;
}

int
main (int   argc,
      char *argv[])
{
  guint n = 0;

  sps_fuzz_init ();
  for (int i = 1; i < argc; i++)
    n += replay (argv[i]);
  printf ("%u inputs replayed without a failure\n", n);
  return 0;
}
