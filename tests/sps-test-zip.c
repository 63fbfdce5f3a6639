/* sps-test-zip.c: members of the shared fixtures' zips, for tests
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <zip.h>

#include "sps-test-util.h"
#include "sps-test-zip.h"

/* The bytes of @member of $SPANSCOPE_SHARED_FIXTURES/@subdir/@zip_name, or
 * NULL after g_test_skip() when the fixtures are not there */
GBytes *
sps_test_shared_zip_member (const char *subdir,
                            const char *zip_name,
                            const char *member)
{
  g_autofree char *path = sps_test_shared_fixture_path (subdir, zip_name);
  zip_t *archive;
  zip_file_t *file;
  zip_stat_t st;
  int err = 0;
  guint8 *data;

  if (path == NULL)
    return NULL;

  archive = zip_open (path, ZIP_RDONLY, &err);
  g_assert_nonnull (archive);
  g_assert_cmpint (zip_stat (archive, member, 0, &st), ==, 0);
  data = g_malloc (MAX (st.size, 1));
  file = zip_fopen (archive, member, 0);
  g_assert_nonnull (file);
  g_assert_cmpint (zip_fread (file, data, st.size), ==, (zip_int64_t) st.size);
  zip_fclose (file);
  zip_close (archive);

  return g_bytes_new_take (data, st.size);
}
