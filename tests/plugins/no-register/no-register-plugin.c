/* no-register-plugin.c: a test plugin module that exports a symbol, but
 * not peas_register_types(), so loading it must fail cleanly.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-test-noregister"

#include "config.h"

#include <gmodule.h>

G_MODULE_EXPORT int sps_test_noregister_marker (void);

G_MODULE_EXPORT int
sps_test_noregister_marker (void)
{
  return 42;
}
