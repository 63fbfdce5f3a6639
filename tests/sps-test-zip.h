/* sps-test-zip.h: members of the shared fixtures' zips, for tests
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The [Content_Types].xml of an OPC package, as assembled packages hold */
#define SPS_TEST_CONTENT_TYPES \
  "<?xml version=\"1.0\" encoding=\"utf-8\"?><Types xmlns=\"http://schemas.openxmlformats.org/" \
  "package/2006/content-types\"><Default Extension=\"xml\" ContentType=\"application/octet-stream\" /></Types>"

GBytes *sps_test_shared_zip_member (const char *subdir,
                                    const char *zip_name,
                                    const char *member);
GBytes *sps_test_shared_bytes      (const char *subdir,
                                    const char *name);
void    sps_test_write_zip         (const char *path,
                                    ...) G_GNUC_NULL_TERMINATED;

G_END_DECLS
