/* fuzz-chrome-json.c: Chrome trace JSON (plain, or gzip by magic) through
 * the real importer and the builder's finish()
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "sps-chrome-importer.h"
#include "sps-fuzz.h"

SPS_FUZZ_LIMITS (2048, 10);

int
sps_fuzz_test_one_input (const uint8_t *data,
                         size_t         size)
{
  return sps_fuzz_run_importer (SPS_TYPE_CHROME_IMPORTER, data, size, sps_fuzz_chrome_options ());
}
