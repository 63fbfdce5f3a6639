/* fuzz-etrace-file.c: an embedded-trace capture file through the etrace
 * importer (decoder, analysis) and finish()
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "sps-etrace-importer.h"
#include "sps-fuzz.h"

SPS_FUZZ_LIMITS (2048, 10);

int
sps_fuzz_test_one_input (const uint8_t *data,
                         size_t         size)
{
  return sps_fuzz_run_importer (SPS_TYPE_ETRACE_IMPORTER, data, size, NULL);
}
