/* fuzz-diagsession.c: a file through the .diagsession/ETL importer and
 * finish(): a package (ZIP with metadata.xml), a ZIP of ETL files, a bare
 * ETL or the compound form, as the probe takes it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "sps-diagsession-importer.h"
#include "sps-fuzz.h"

SPS_FUZZ_LIMITS (2048, 10);

int
sps_fuzz_test_one_input (const uint8_t *data,
                         size_t         size)
{
  return sps_fuzz_run_importer (SPS_TYPE_DIAGSESSION_IMPORTER, data, size, NULL);
}
