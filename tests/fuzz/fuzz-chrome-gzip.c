/* fuzz-chrome-gzip.c: the input, gzip-compressed, through the Chrome JSON
 * importer (the decompressor, its limits and its progress); the text
 * itself is the JSON the fuzzer mutates. An input that already starts
 * with the gzip magic is imported as it is, so that broken, cut and
 * concatenated members are explored too.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "sps-chrome-importer.h"
#include "sps-fuzz.h"
#include "sps-test-util.h"

SPS_FUZZ_LIMITS (2048, 10);

int
sps_fuzz_test_one_input (const uint8_t *data,
                         size_t         size)
{
  g_autoptr(GBytes) gz = NULL;
  const guint8 *bytes = data;
  gsize len = size;

  sps_fuzz_init ();
  if (!(size >= 2 && data[0] == 0x1f && data[1] == 0x8b))
    {
      gz = sps_test_gzip (data, size, 1);
      bytes = g_bytes_get_data (gz, &len);
    }
  return sps_fuzz_run_importer (SPS_TYPE_CHROME_IMPORTER, bytes, len, sps_fuzz_chrome_options ());
}
