/* sps-test-zip.h: members of the shared fixtures' zips, for tests
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

GBytes *sps_test_shared_zip_member (const char *subdir,
                                    const char *zip_name,
                                    const char *member);

G_END_DECLS
