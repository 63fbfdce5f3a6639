/* fuzz-xca.c: the three MS-XCA buffer decompressors (plugins/diagsession)
 *
 * The input: a byte that picks the decoder (plain LZ77, LZ77+Huffman,
 * LZNT1), a 32-bit output size (up to three 64 KiB Huffman blocks and a
 * bit), then the compressed bytes. The output buffer is exactly that
 * size, so AddressSanitizer sees every write past it. A success must
 * return at most the size; decoding the same input again into a shorter
 * buffer must give the same first bytes, or fail only because the
 * output is too small.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "sps-fuzz.h"
#include "sps-xca.h"

SPS_FUZZ_LIMITS (2048, 10);

#define MAX_OUTPUT (3 * 65536 + 4096 + 1)

static const SpsXcaFormat formats[] = {
  SPS_XCA_FORMAT_XPRESS,
  SPS_XCA_FORMAT_XPRESS_HUFF,
  SPS_XCA_FORMAT_LZNT1,
};

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  SpsFuzzInput in = { data, size };
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *out = NULL;
  g_autofree guint8 *shorter = NULL;
  SpsXcaFormat format;
  gsize out_len;
  gsize short_len;
  gssize n;
  gssize m;

  sps_fuzz_init ();
  format = formats[sps_fuzz_take_u8 (&in) % G_N_ELEMENTS (formats)];
  out_len = sps_fuzz_take_u32 (&in) % MAX_OUTPUT;

  /* g_malloc (0) is NULL, which the decoders accept only for size 0 */
  out = g_malloc (out_len);
  n = sps_xca_decompress (format, in.data, in.len, out, out_len, &error);
  if (n < 0)
    {
      g_assert_nonnull (error);
      g_assert_true (error->domain == SPS_XCA_ERROR);
      return 0;
    }
  g_assert_no_error (error);
  g_assert_cmpint (n, <=, (gssize) out_len);
  if (n == 0)
    return 0;

  short_len = (gsize) n / 2;
  shorter = g_malloc (short_len);
  m = sps_xca_decompress (format, in.data, in.len, shorter, short_len, &error);
  if (m < 0)
    {
      g_assert_error (error, SPS_XCA_ERROR, SPS_XCA_ERROR_OUTPUT_OVERFLOW);
      return 0;
    }
  g_assert_cmpint (m, ==, (gssize) short_len);
  g_assert_true (short_len == 0 || memcmp (shorter, out, short_len) == 0);
  return 0;
}
