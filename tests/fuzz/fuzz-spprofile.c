/* fuzz-spprofile.c: a saved profile (.spprofile) through the importer,
 * its checks and finish(), then every deferred args reference decoded
 * (sps-fuzz.c checks them) from the database's rows
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "sps-profile-importer.h"
#include "sps-fuzz.h"

SPS_FUZZ_LIMITS (2048, 10);

int
sps_fuzz_test_one_input (const uint8_t *data,
                         size_t         size)
{
  return sps_fuzz_run_importer (SPS_TYPE_PROFILE_IMPORTER, data, size, NULL);
}
