/* fuzz-nettrace.c: a .nettrace file through the importer (with the stack
 * repair on inputs of odd length, off on even ones, so that seeds stay
 * valid files) and finish()
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "sps-nettrace-importer.h"
#include "sps-fuzz.h"

SPS_FUZZ_LIMITS (2048, 10);

int
sps_fuzz_test_one_input (const uint8_t *data,
                         size_t         size)
{
  GVariantDict dict;

  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert (&dict, "repair", "b", (gboolean) (size & 1));
  return sps_fuzz_run_importer (SPS_TYPE_NETTRACE_IMPORTER, data, size,
                                g_variant_ref_sink (g_variant_dict_end (&dict)));
}
