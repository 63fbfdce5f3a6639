/* fuzz-xca.c: the three MS-XCA buffer decompressors (plugins/diagsession)
 *
 * The input: a byte that picks the decoder (plain LZ77, LZ77+Huffman,
 * LZNT1; for LZ77+Huffman, with every other value, the first block's
 * code lengths are made a complete prefix code first — random bytes
 * almost never are one, and the decoder rejects all others), a 32-bit
 * word for the output size (log-uniform up to three 64 KiB Huffman
 * blocks and a bit), then the
 * compressed bytes. The output buffer is exactly that size, so
 * AddressSanitizer sees every write past it. A success must
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

#define LENGTH(t, s)         ((t)[(s) / 2] >> (4 * ((s) & 1)) & 15)
#define SET_LENGTH(t, s, l)  ((t)[(s) / 2] = (guint8) (((t)[(s) / 2] & (0xf0 >> (4 * ((s) & 1)))) | (l) << (4 * ((s) & 1))))

static guint
kraft (const guint8 *table)
{
  guint sum = 0;

  for (guint s = 0; s < 512; s++)
    if (LENGTH (table, s) != 0)
      sum += 1u << (15 - LENGTH (table, s));
  return sum;
}

/* Turns 512 code lengths into a complete prefix code (Kraft sum 2^15)
 * with few changes: lengthen the shortest codes while over-subscribed,
 * then fill the gap with new codes or by shortening the longest (whose
 * share divides the gap). Symbols are kept in buckets by length, so each
 * step is O(15). */
static void
complete_code (guint8 *table)
{
  guint16 bucket[16][512];
  guint n[16] = { 0 };
  guint sum = 0;

  for (guint s = 0; s < 512; s++)
    {
      guint l = LENGTH (table, s);

      bucket[l][n[l]++] = (guint16) s;
      if (l != 0)
        sum += 1u << (15 - l);
    }
  while (sum > 32768)
    {
      guint l = 1;

      while (n[l] == 0)
        l++;
      g_assert (l < 15);
      bucket[l + 1][n[l + 1]++] = bucket[l][--n[l]];
      sum -= 1u << (14 - l);
    }
  while (sum < 32768)
    {
      guint gap = 32768 - sum;

      if (n[0] > 0)
        {
          guint l = MAX (1, 15 - (gint) (g_bit_storage (gap) - 1));

          bucket[l][n[l]++] = bucket[0][--n[0]];
          sum += 1u << (15 - l);
        }
      else
        {
          guint l = 15;

          while (n[l] == 0)
            l--;
          bucket[l - 1][n[l - 1]++] = bucket[l][--n[l]];
          sum += 1u << (15 - l);
        }
    }
  for (guint l = 0; l < 16; l++)
    for (guint i = 0; i < n[l]; i++)
      SET_LENGTH (table, bucket[l][i], l);
}

int
sps_fuzz_test_one_input (const uint8_t *data,
                         size_t         size)
{
  SpsFuzzInput in = { data, size };
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *out = NULL;
  g_autofree guint8 *shorter = NULL;
  g_autofree guint8 *repaired = NULL;
  SpsXcaFormat format;
  guint32 size_word;
  guint8 pick;
  gsize out_len;
  gsize short_len;
  gssize n;
  gssize m;

  sps_fuzz_init ();
  pick = sps_fuzz_take_u8 (&in);
  format = formats[pick % G_N_ELEMENTS (formats)];
  /* Log-uniform sizes: mostly small outputs (fast runs), some of three
   * Huffman blocks */
  size_word = sps_fuzz_take_u32 (&in);
  out_len = (size_word >> 5) % (MIN ((gsize) 1 << MIN (size_word & 31, 18), MAX_OUTPUT - 1) + 1);
  if (format == SPS_XCA_FORMAT_XPRESS_HUFF && (pick / G_N_ELEMENTS (formats)) % 2 == 1 && in.len >= 256)
    {
      repaired = g_memdup2 (in.data, in.len);
      complete_code (repaired);
      g_assert_cmpuint (kraft (repaired), ==, 32768);
      in.data = repaired;
    }

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
