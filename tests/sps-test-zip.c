/* sps-test-zip.c: members of the shared fixtures' zips, for tests
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdarg.h>

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

/* Writes a ZIP at @path of the members given as (name, GBytes *) pairs
 * after @path, up to a NULL name; a NULL GBytes leaves the member out.
 * The test packages of .diagsession are made with it ("assembled"). */
void
sps_test_write_zip (const char *path,
                    ...)
{
  int err = 0;
  zip_t *z = zip_open (path, ZIP_CREATE | ZIP_TRUNCATE, &err);
  const char *name;
  va_list args;

  g_assert_nonnull (z);
  va_start (args, path);
  while ((name = va_arg (args, const char *)) != NULL)
    {
      GBytes *bytes = va_arg (args, GBytes *);
      gsize len;
      const void *data;

      if (bytes == NULL)
        continue;
      data = g_bytes_get_data (bytes, &len);
      g_assert_cmpint (zip_file_add (z, name, zip_source_buffer (z, data, len, 0), 0), >=, 0);
    }
  va_end (args);
  /* The sources point into the GBytes: written before they go */
  g_assert_cmpint (zip_close (z), ==, 0);
}

/* The bytes of $SPANSCOPE_SHARED_FIXTURES/@subdir/@name, or NULL after
 * g_test_skip() when the fixtures are not there */
GBytes *
sps_test_shared_bytes (const char *subdir,
                       const char *name)
{
  g_autofree char *path = sps_test_shared_fixture_path (subdir, name);
  char *data;
  gsize len;

  if (path == NULL)
    return NULL;
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  return g_bytes_new_take (data, len);
}
