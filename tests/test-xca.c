/* test-xca.c: the MS-XCA buffer decompressors (plugins/diagsession)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Hand-made streams whose output follows from the specification by hand
 * (each test says how), the specification's own examples, hostile input
 * with exact error offsets, and the compressed buffers of the real
 * PerfView trace in ../shared.
 */

#include "config.h"

#include <string.h>

#include <glib.h>

#include "sps-test-util.h"
#include "sps-xca.h"
#include "bench/xca-compress.h"

typedef gssize (*Decoder) (const guint8 *, gsize, guint8 *, gsize, GError **);

/* Decodes @in into an @out_len buffer (with a guard byte behind it that
 * must survive) and checks the result against @expected. */
static void
check_output (Decoder       decode,
              const guint8 *in,
              gsize         in_len,
              gsize         out_len,
              const guint8 *expected,
              gsize         expected_len)
{
  g_autofree guint8 *out = g_malloc (out_len + 1);
  g_autoptr(GError) error = NULL;
  gssize n;

  out[out_len] = 0xa5;
  n = decode (in, in_len, out, out_len, &error);
  g_assert_no_error (error);
  g_assert_cmpint (n, ==, (gssize) expected_len);
  g_assert_cmpmem (out, expected_len, expected, expected_len);
  g_assert_cmphex (out[out_len], ==, 0xa5);
}

static void
check_error (Decoder       decode,
             const guint8 *in,
             gsize         in_len,
             gsize         out_len,
             SpsXcaError   code,
             const char   *message)
{
  g_autofree guint8 *out = g_malloc (out_len + 1);
  g_autoptr(GError) error = NULL;
  gssize n;

  out[out_len] = 0xa5;
  n = decode (in, in_len, out, out_len, &error);
  g_assert_cmpint (n, ==, -1);
  g_assert_error (error, SPS_XCA_ERROR, (gint) code);
  g_assert_cmpstr (error->message, ==, message);
  g_assert_cmphex (out[out_len], ==, 0xa5);
}

static guint8 *
repeat (const char *pattern,
        gsize       len)
{
  guint8 *s = g_malloc (len);
  gsize n = strlen (pattern);

  for (gsize i = 0; i < len; i++)
    s[i] = (guint8) pattern[i % n];
  return s;
}

/* ---- plain LZ77 ------------------------------------------------------ */

/* Flags 0x1fffffff: three literals (bits 31–29 clear), then set bits; the
 * first set bit meets the end of the input: the end marker. */
static void
test_lz77_literals (void)
{
  static const guint8 in[] = { 0xff, 0xff, 0xff, 0x1f, 'a', 'b', 'c' };

  check_output (sps_xca_lz77_decompress, in, sizeof in, 3, (const guint8 *) "abc", 3);
  /* A smaller output: the run of literals stops at its end. */
  check_output (sps_xca_lz77_decompress, in, sizeof in, 2, (const guint8 *) "ab", 2);
  /* A larger output buffer: the end marker stops at 3 bytes. */
  check_output (sps_xca_lz77_decompress, in, sizeof in, 100, (const guint8 *) "abc", 3);
  /* Nothing to write: no input is read at all. */
  check_output (sps_xca_lz77_decompress, NULL, 0, 0, NULL, 0);
}

/* "abc" then match 0x0013: offset (0x13 >> 3) + 1 = 3, length 3 + 3 = 6 */
static void
test_lz77_match (void)
{
  static const guint8 in[] = { 0xff, 0xff, 0xff, 0x1f, 'a', 'b', 'c', 0x13, 0x00 };

  check_output (sps_xca_lz77_decompress, in, sizeof in, 9, (const guint8 *) "abcabcabc", 9);
}

/* The specification's "aaaaaa" case, longer: "a" then offset 1, length
 * 6 + 3 = 9 — a match that overlaps its own output, as run-length coding
 * does; and "ab" then offset 2 (0x000b: 1 << 3 | 3), length 6. */
static void
test_lz77_overlap (void)
{
  static const guint8 run[] = { 0xff, 0xff, 0xff, 0x7f, 'a', 0x06, 0x00 };
  static const guint8 pairs[] = { 0xff, 0xff, 0xff, 0x3f, 'a', 'b', 0x0b, 0x00 };

  check_output (sps_xca_lz77_decompress, run, sizeof run, 10, (const guint8 *) "aaaaaaaaaa", 10);
  check_output (sps_xca_lz77_decompress, pairs, sizeof pairs, 8, (const guint8 *) "abababab", 8);
}

/* Offsets 1–12 with a 20-byte match (code 7, nibble 10) after that many
 * literals: each repeats the literals with their period, also where the
 * copy goes 8 bytes at a time (room to spare behind it). Flags: the
 * literals' clear bits, then the match and the end marker. */
static void
test_lz77_short_offsets (void)
{
  for (guint offset = 1; offset <= 12; offset++)
    {
      guint8 in[4 + 12 + 3];
      guint32 flags = 0xffffffffu >> offset;
      guint16 word = (guint16) ((offset - 1) << 3 | 7);
      g_autofree guint8 *expected = g_malloc (offset + 20);

      in[0] = (guint8) flags;
      in[1] = (guint8) (flags >> 8);
      in[2] = (guint8) (flags >> 16);
      in[3] = (guint8) (flags >> 24);
      memcpy (in + 4, "0123456789ab", offset);
      in[4 + offset] = (guint8) word;
      in[5 + offset] = (guint8) (word >> 8);
      in[6 + offset] = 10;
      for (guint i = 0; i < offset + 20; i++)
        expected[i] = (guint8) "0123456789ab"[i % offset];

      check_output (sps_xca_lz77_decompress, in, 7 + offset, offset + 20 + 16, expected, offset + 20);
      check_output (sps_xca_lz77_decompress, in, 7 + offset, offset + 20, expected, offset + 20);
    }
}

/* Two length-7 matches share the byte 0x42: the first takes its low
 * nibble (2: length 2 + 7 + 3 = 12, offset 2 from 0x000f), the second its
 * high nibble (4: length 14, offset 1). Flags 0x2fffffff: literal,
 * literal, match, literal, match, end. */
static void
test_lz77_half_bytes (void)
{
  static const guint8 in[] = {
    0xff, 0xff, 0xff, 0x2f, 'a', 'b', 0x0f, 0x00, 0x42, 'c', 0x07, 0x00,
  };
  const char *expected = "ab" "abababababab" "c" "cccccccccccccc";

  check_output (sps_xca_lz77_decompress, in, sizeof in, 29, (const guint8 *) expected, 29);
}

/* The long length forms after a 15 nibble: a byte (100 → 100 + 25 = 125),
 * 255 then 16 bits of length − 3 (997 → 1000), 255, 0 then 32 bits of
 * length − 3 (69,997 → 70,000; the nibble byte 0xff serves the first two
 * matches, 0x0f the third). 1 + 125 + 1000 + 70000 = 71,126 bytes. */
static void
test_lz77_long_lengths (void)
{
  static const guint8 in[] = {
    0xff, 0xff, 0xff, 0x7f, 'z',
    0x07, 0x00, 0xff, 100,
    0x07, 0x00, 0xff, 0xe5, 0x03,
    0x07, 0x00, 0x0f, 0xff, 0x00, 0x00, 0x6d, 0x11, 0x01, 0x00,
  };
  g_autofree guint8 *expected = repeat ("z", 71126);

  check_output (sps_xca_lz77_decompress, in, sizeof in, 71126, expected, 71126);
  /* One byte short: the last match overflows (it starts at input byte 14). */
  check_error (sps_xca_lz77_decompress, in, sizeof in, 71125, SPS_XCA_ERROR_OUTPUT_OVERFLOW,
               "plain LZ77, compressed byte 14: a match of 70000 bytes at output byte 1126 runs past "
               "the end of the 71125-byte output");
}

/* A flag word of zeros: 32 literals taken together, then one by one */
static void
test_lz77_literal_runs (void)
{
  guint8 in[4 + 32 + 4 + 3];
  g_autofree guint8 *expected = repeat ("0123456789abcdefghijklmnopqrstuvwxyz", 35);

  memset (in, 0, 4);
  memcpy (in + 4, expected, 32);
  in[36] = 0xff;
  in[37] = 0xff;
  in[38] = 0xff;
  in[39] = 0x1f;
  memcpy (in + 40, expected + 32, 3);
  check_output (sps_xca_lz77_decompress, in, sizeof in, 35, expected, 35);
}

static void
test_lz77_hostile (void)
{
  static const guint8 short_flags[] = { 0xff, 0xff };
  static const guint8 no_literal[] = { 0x00, 0x00, 0x00, 0x00, 'a' };
  static const guint8 before_start[] = { 0xff, 0xff, 0xff, 0x7f, 'a', 0x08, 0x00 };
  static const guint8 first_match[] = { 0xff, 0xff, 0xff, 0xff, 0x00, 0x00 };
  static const guint8 cut_match[] = { 0xff, 0xff, 0xff, 0x7f, 'a', 0x06 };
  static const guint8 cut_nibble[] = { 0xff, 0xff, 0xff, 0x7f, 'a', 0x07, 0x00 };
  static const guint8 cut_16[] = { 0xff, 0xff, 0xff, 0x7f, 'a', 0x07, 0x00, 0x0f, 0xff, 0x30 };
  static const guint8 cut_32[] = { 0xff, 0xff, 0xff, 0x7f, 'a', 0x07, 0x00, 0x0f, 0xff, 0x00, 0x00, 1, 2, 3 };
  static const guint8 short_16[] = { 0xff, 0xff, 0xff, 0x7f, 'z', 0x07, 0x00, 0x0f, 0xff, 0x15, 0x00 };
  static const guint8 run[] = { 0xff, 0xff, 0xff, 0x7f, 'a', 0x06, 0x00 };

  check_error (sps_xca_lz77_decompress, short_flags, sizeof short_flags, 10, SPS_XCA_ERROR_TRUNCATED,
               "plain LZ77, compressed byte 0: the input ends inside a flag word (2 of 4 bytes)");
  check_error (sps_xca_lz77_decompress, no_literal, sizeof no_literal, 5, SPS_XCA_ERROR_TRUNCATED,
               "plain LZ77, compressed byte 5: the input ends where a literal byte is due");
  check_error (sps_xca_lz77_decompress, no_literal, sizeof no_literal, 2, SPS_XCA_ERROR_TRUNCATED,
               "plain LZ77, compressed byte 5: the input ends where a literal byte is due");
  /* 0x0008: offset 2 after one byte */
  check_error (sps_xca_lz77_decompress, before_start, sizeof before_start, 10, SPS_XCA_ERROR_BAD_OFFSET,
               "plain LZ77, compressed byte 5: a match at output byte 1 has offset 2, before the start "
               "of the output");
  check_error (sps_xca_lz77_decompress, first_match, sizeof first_match, 10, SPS_XCA_ERROR_BAD_OFFSET,
               "plain LZ77, compressed byte 4: a match at output byte 0 has offset 1, before the start "
               "of the output");
  check_error (sps_xca_lz77_decompress, cut_match, sizeof cut_match, 10, SPS_XCA_ERROR_TRUNCATED,
               "plain LZ77, compressed byte 5: the input ends inside a match");
  check_error (sps_xca_lz77_decompress, cut_nibble, sizeof cut_nibble, 100, SPS_XCA_ERROR_TRUNCATED,
               "plain LZ77, compressed byte 7: the input ends inside a match length");
  check_error (sps_xca_lz77_decompress, cut_16, sizeof cut_16, 100, SPS_XCA_ERROR_TRUNCATED,
               "plain LZ77, compressed byte 9: the input ends inside a match length");
  check_error (sps_xca_lz77_decompress, cut_32, sizeof cut_32, 100, SPS_XCA_ERROR_TRUNCATED,
               "plain LZ77, compressed byte 11: the input ends inside a match length");
  /* 21 in the 16-bit form, which starts at 22 */
  check_error (sps_xca_lz77_decompress, short_16, sizeof short_16, 100, SPS_XCA_ERROR_BAD_LENGTH,
               "plain LZ77, compressed byte 5: an extended match length of 21 is below 22");
  check_error (sps_xca_lz77_decompress, run, sizeof run, 5, SPS_XCA_ERROR_OUTPUT_OVERFLOW,
               "plain LZ77, compressed byte 5: a match of 9 bytes at output byte 1 runs past the end "
               "of the 5-byte output");
  /* Trailing bytes after a full output are not read. */
  check_output (sps_xca_lz77_decompress, run, sizeof run, 1, (const guint8 *) "a", 1);
}

/* ---- LZ77+Huffman ---------------------------------------------------- */

/* MS-XCA §3.2: "abcdefghijklmnopqrstuvwxyz" as literals. The table gives
 * 'a'–'v' 5 bits and 'w'–'z' and the end symbol 256 4 bits. */
static void
test_huffman_spec_example (void)
{
  static const guint8 stream[] = {
    0xd8, 0x52, 0x3e, 0xd7, 0x94, 0x11, 0x5b, 0xe9, 0x19, 0x5f,
    0xf9, 0xd6, 0x7c, 0xdf, 0x8d, 0x04, 0x00, 0x00, 0x00, 0x00,
  };
  guint8 in[256 + sizeof stream] = { 0 };
  const char *alphabet = "abcdefghijklmnopqrstuvwxyz";

  in[48] = 0x50;
  memset (in + 49, 0x55, 10);
  in[59] = 0x45;
  in[60] = 0x44;
  in[61] = 0x04;
  in[128] = 0x04;
  memcpy (in + 256, stream, sizeof stream);

  check_output (sps_xca_huffman_decompress, in, sizeof in, 26, (const guint8 *) alphabet, 26);
  /* With room to spare, the end symbol is a match (offset 1, length 3:
   * "zzz"), then the zero padding decodes as 'w' (code 0000) until the
   * code after seven of them needs bits past the end. */
  check_error (sps_xca_huffman_decompress, in, sizeof in, 40, SPS_XCA_ERROR_TRUNCATED,
               "LZ77+Huffman, compressed byte 276: the input ends inside a Huffman code");
}

/* A table for 'a' and 'b' (2 bits: codes 00, 01), 'c', 'd', 256 and
 * 291 = 256 + (2 << 4 | 3) (3 bits: 100, 101, 110, 111): symbol 291 is a
 * match of length 3 + 3 = 6 whose offset has 2 + 1 bits, 1xx. */
static void
small_table (guint8 *table)
{
  memset (table, 0, 256);
  table[48] = 0x20;   /* 97 'a' (high nibble) */
  table[49] = 0x32;   /* 98 'b', 99 'c' */
  table[50] = 0x03;   /* 100 'd' */
  table[128] = 0x03;  /* 256 */
  table[145] = 0x30;  /* 291 */
}

/* a b c d, the match with offset bits 00 (offset 4 + 0 = 4, length 6),
 * the end symbol: 00 01 100 101 111 00 110 — words 0x1979, 0x8000. */
static void
test_huffman_match (void)
{
  guint8 in[256 + 6];

  small_table (in);
  memcpy (in + 256, (const guint8[]) { 0x79, 0x19, 0x00, 0x80, 0x00, 0x00 }, 6);

  check_output (sps_xca_huffman_decompress, in, sizeof in, 10, (const guint8 *) "abcdabcdab", 10);
  check_output (sps_xca_huffman_decompress, in, sizeof in - 2, 10, (const guint8 *) "abcdabcdab", 10);
  /* Before the expected size is written, the end symbol 256 is a match
   * (offset 1, length 3). */
  check_output (sps_xca_huffman_decompress, in, sizeof in, 13, (const guint8 *) "abcdabcdabbbb", 13);

  /* 256 as a match inside a stream: a, 256, b, 256 — 00 110 01 110,
   * word 0x3380. */
  memcpy (in + 256, (const guint8[]) { 0x80, 0x33, 0x00, 0x00, 0x00, 0x00 }, 6);
  check_output (sps_xca_huffman_decompress, in, sizeof in - 2, 5, (const guint8 *) "aaaab", 5);
  check_output (sps_xca_huffman_decompress, in, sizeof in, 8, (const guint8 *) "aaaabbbb", 8);
}

/* Block 1: 'x' (code 0) and 271 = 256 + 15 (code 1; offset 1, length in
 * the byte stream: 255, then 16 bits 65,532 − 15 + 15 + 3 = 65,535), so
 * exactly 65,536 bytes; its stream is the words 0x4000, 0 and the three
 * length bytes. Block 2 starts after them, at byte 263: 'y' (0) and
 * 'z' (1), bits 0110. */
static guint8 *
two_blocks (gsize *len)
{
  guint8 *in = g_malloc0 (263 + 256 + 4);

  in[60] = 0x01;   /* 120 'x' (even: low nibble) */
  in[135] = 0x10;  /* 271 (odd: high nibble) */
  memcpy (in + 256, (const guint8[]) { 0x00, 0x40, 0x00, 0x00, 0xff, 0xfc, 0xff }, 7);
  in[263 + 60] = 0x10;  /* 121 'y' */
  in[263 + 61] = 0x01;  /* 122 'z' */
  memcpy (in + 263 + 256, (const guint8[]) { 0x00, 0x60, 0x00, 0x00 }, 4);
  *len = 263 + 256 + 4;
  return in;
}

static void
test_huffman_blocks (void)
{
  gsize len;
  g_autofree guint8 *in = two_blocks (&len);
  g_autofree guint8 *expected = repeat ("x", 65540);

  memcpy (expected + 65536, "yzzy", 4);
  check_output (sps_xca_huffman_decompress, in, len, 65540, expected, 65540);
  /* The output ends with the first block: the second is not read. */
  check_output (sps_xca_huffman_decompress, in, 263, 65536, expected, 65536);

  /* The second block's table is all zeros. */
  memset (in + 263, 0, 256);
  check_error (sps_xca_huffman_decompress, in, len, 65540, SPS_XCA_ERROR_BAD_TABLE,
               "LZ77+Huffman, compressed byte 263: every Huffman code length of the block is zero");
  check_error (sps_xca_huffman_decompress, in, 263 + 100, 65540, SPS_XCA_ERROR_TRUNCATED,
               "LZ77+Huffman, compressed byte 263: the input ends inside a block's Huffman table "
               "(100 of 256 bytes)");
  check_error (sps_xca_huffman_decompress, in, 260, 65540, SPS_XCA_ERROR_TRUNCATED,
               "LZ77+Huffman, compressed byte 260: the input ends inside a match length");
  check_error (sps_xca_huffman_decompress, in, 262, 65540, SPS_XCA_ERROR_TRUNCATED,
               "LZ77+Huffman, compressed byte 261: the input ends inside a match length");
}

static void
set_length (guint8 *table,
            guint   symbol,
            guint   len)
{
  table[symbol / 2] |= (guint8) (len << (4 * (symbol & 1)));
}

/* Packs @n bits of @code, most significant first, into 16-bit
 * little-endian words at @out (zeroed by the caller). */
static void
put_code (guint8 *out,
          guint  *bit,
          guint   code,
          guint   n)
{
  for (guint i = n; i-- > 0; (*bit)++)
    if (code >> i & 1)
      out[*bit / 16 * 2 + (*bit % 16 < 8 ? 1 : 0)] |= (guint8) (0x80 >> (*bit % 8));
}

/* Every code length from 1 to 15: 'a'–'n' get 1–14 bits and 'o', 'p' 15
 * (1/2 + … + 1/2^14 + 2/2^15 = 1). Canonically the letter i has i ones
 * and a zero, 'p' 15 ones. The stream "ponmlkjihgfedcba" uses each. */
static void
test_huffman_long_codes (void)
{
  guint8 in[256 + 20] = { 0 };
  guint bit = 0;

  for (guint i = 0; i < 15; i++)
    set_length (in, 'a' + i, i + 1);
  set_length (in, 'p', 15);
  put_code (in + 256, &bit, 0x7fff, 15);
  for (guint i = 15; i-- > 0;)
    put_code (in + 256, &bit, ((1u << (i + 1)) - 1) & ~1u, i + 1);
  g_assert_cmpuint (bit, ==, 135);

  check_output (sps_xca_huffman_decompress, in, sizeof in, 16, (const guint8 *) "ponmlkjihgfedcba", 16);
}

static void
test_huffman_tables (void)
{
  guint8 in[256 + 4] = { 0 };

  check_error (sps_xca_huffman_decompress, in, sizeof in, 10, SPS_XCA_ERROR_BAD_TABLE,
               "LZ77+Huffman, compressed byte 0: every Huffman code length of the block is zero");
  /* Three 1-bit codes: no prefix code */
  in[0] = 0x11;
  in[1] = 0x01;
  check_error (sps_xca_huffman_decompress, in, sizeof in, 10, SPS_XCA_ERROR_BAD_TABLE,
               "LZ77+Huffman, compressed byte 0: the Huffman code lengths are over-subscribed "
               "(no prefix code: 49152/32768 of the code space)");
  /* One 1-bit code: half the code space decodes to nothing */
  in[0] = 0x01;
  in[1] = 0x00;
  check_error (sps_xca_huffman_decompress, in, sizeof in, 10, SPS_XCA_ERROR_BAD_TABLE,
               "LZ77+Huffman, compressed byte 0: the Huffman code lengths are incomplete "
               "(16384/32768 of the code space)");
  /* 512 codes of 9 bits fill the space exactly: every byte is 0x99. */
  memset (in, 0x99, 256);
  memset (in + 256, 0, 4);
  check_output (sps_xca_huffman_decompress, in, sizeof in, 3, (const guint8 *) "\0\0\0", 3);
  check_error (sps_xca_huffman_decompress, in, 100, 10, SPS_XCA_ERROR_TRUNCATED,
               "LZ77+Huffman, compressed byte 0: the input ends inside a block's Huffman table "
               "(100 of 256 bytes)");
}

static void
test_huffman_hostile (void)
{
  guint8 in[256 + 6];

  small_table (in);
  /* The match first: 111 00 — offset 4 with nothing written */
  memcpy (in + 256, (const guint8[]) { 0x00, 0xe0, 0x00, 0x00, 0x00, 0x00 }, 6);
  check_error (sps_xca_huffman_decompress, in, sizeof in, 10, SPS_XCA_ERROR_BAD_OFFSET,
               "LZ77+Huffman, compressed byte 260: a match at output byte 0 has offset 4, before the "
               "start of the output");

  memcpy (in + 256, (const guint8[]) { 0x79, 0x19, 0x00, 0x80, 0x00, 0x00 }, 6);
  check_error (sps_xca_huffman_decompress, in, sizeof in, 8, SPS_XCA_ERROR_OUTPUT_OVERFLOW,
               "LZ77+Huffman, compressed byte 260: a match of 6 bytes at output byte 4 runs past the "
               "end of the 8-byte output");
  /* One byte of the bit stream: its first code needs bits past the end. */
  check_error (sps_xca_huffman_decompress, in, 257, 10, SPS_XCA_ERROR_TRUNCATED,
               "LZ77+Huffman, compressed byte 257: the input ends inside a Huffman code");
  /* One word: a b c d (10 bits), the match's code (bits 10–12) and its
   * offset (13–14) fit; the next code starts at bit 15 and ends past it. */
  check_error (sps_xca_huffman_decompress, in, 258, 12, SPS_XCA_ERROR_TRUNCATED,
               "LZ77+Huffman, compressed byte 258: the input ends inside a Huffman code");
}

/* ---- LZNT1 ----------------------------------------------------------- */

/* MS-XCA §3.3: one compressed chunk of 59 bytes, 142 bytes out */
static void
test_lznt1_spec_example (void)
{
  static const guint8 in[] = {
    0x38, 0xb0, 0x88, 0x46, 0x23, 0x20, 0x00, 0x20, 0x47, 0x20, 0x41, 0x00, 0x10, 0xa2, 0x47, 0x01,
    0xa0, 0x45, 0x20, 0x44, 0x00, 0x08, 0x45, 0x01, 0x50, 0x79, 0x00, 0xc0, 0x45, 0x20, 0x05, 0x24,
    0x13, 0x88, 0x05, 0xb4, 0x02, 0x4a, 0x44, 0xef, 0x03, 0x58, 0x02, 0x8c, 0x09, 0x16, 0x01, 0x48,
    0x45, 0x00, 0xbe, 0x00, 0x9e, 0x00, 0x04, 0x01, 0x18, 0x90, 0x00,
  };
  const char *text = "F# F# G A A G F# E D D E F# F# E E F# F# G A A G F# E D D E F# E D D E E F# D E "
                     "F# G F# D E F# G F# E D E A F# F# G A A G F# E D D E F# E D D";

  g_assert_cmpuint (strlen (text) + 1, ==, 142);
  check_output (sps_xca_lznt1_decompress, in, sizeof in, 142, (const guint8 *) text, 142);
  check_output (sps_xca_lznt1_decompress, in, sizeof in, 4096, (const guint8 *) text, 142);
}

/* 0x3004: uncompressed, 5 bytes; 0xb005: compressed, 6 bytes: flags 0x08
 * (three literals, a token), token 0x2003 at 3 bytes written (4 offset
 * bits): offset 2 + 1, length 3 + 3. */
static void
test_lznt1_chunks (void)
{
  static const guint8 raw[] = { 0x04, 0x30, 'h', 'e', 'l', 'l', 'o', 0x00, 0x00 };
  static const guint8 packed[] = { 0x05, 0xb0, 0x08, 'a', 'b', 'c', 0x03, 0x20 };

  check_output (sps_xca_lznt1_decompress, raw, sizeof raw, 100, (const guint8 *) "hello", 5);
  check_output (sps_xca_lznt1_decompress, raw, 7, 100, (const guint8 *) "hello", 5);
  check_output (sps_xca_lznt1_decompress, packed, sizeof packed, 9, (const guint8 *) "abcabcabc", 9);
}

/* The token split grows with the chunk's written bytes: 4 offset bits up
 * to 16 written, 11 at 2,048, 12 from 2,049. 'b', 'a', 0x07fb (offset 1,
 * length 2,046: 2,048 written), 0xffe0 (11 bits: offset 2,047 + 1, length
 * 3: "baa"), 0x8021 (12 bits: offset 2,050 + 1, length 4: "baaa"). The
 * chunk after it is 'Z' uncompressed: the first, short, stands for 4,096
 * bytes (zero padded). */
static void
test_lznt1_token_split (void)
{
  static const guint8 in[] = {
    0x08, 0xb0, 0x1c, 'b', 'a', 0xfb, 0x07, 0xe0, 0xff, 0x21, 0x80,
    0x00, 0x30, 'Z',
  };
  g_autofree guint8 *expected = g_malloc0 (4097);

  expected[0] = 'b';
  memset (expected + 1, 'a', 2047);
  memcpy (expected + 2048, "baa" "baaa", 7);
  check_output (sps_xca_lznt1_decompress, in, 11, 2055, expected, 2055);
  expected[4096] = 'Z';
  check_output (sps_xca_lznt1_decompress, in, sizeof in, 4097, expected, 4097);
  check_error (sps_xca_lznt1_decompress, in, sizeof in, 4096, SPS_XCA_ERROR_OUTPUT_OVERFLOW,
               "LZNT1, compressed byte 13: an uncompressed chunk (size 1) at output byte 4096 runs "
               "past the end of the 4096-byte output");
}

/* A full uncompressed chunk (0x3fff: 4,096 bytes), then a compressed one */
static void
test_lznt1_full_chunk (void)
{
  g_autofree guint8 *in = g_malloc (2 + 4096 + 8);
  g_autofree guint8 *expected = repeat ("0123456789", 4096 + 9);

  in[0] = 0xff;
  in[1] = 0x3f;
  memcpy (in + 2, expected, 4096);
  memcpy (in + 4098, (const guint8[]) { 0x05, 0xb0, 0x08, '6', '7', '8', 0x03, 0x20 }, 8);
  memcpy (expected + 4096, "678678678", 9);
  check_output (sps_xca_lznt1_decompress, in, 2 + 4096 + 8, 4096 + 9, expected, 4096 + 9);
}

/* The longest token: after 1 byte (4 offset bits, 12 length bits) 0x0ffc
 * is offset 1, length 4,092 + 3 = 4,095, which fills the chunk exactly. */
static void
test_lznt1_longest_token (void)
{
  static const guint8 in[] = { 0x03, 0xb0, 0x02, 'q', 0xfc, 0x0f };
  g_autofree guint8 *expected = repeat ("q", 4096);

  check_output (sps_xca_lznt1_decompress, in, sizeof in, 4096, expected, 4096);
  check_output (sps_xca_lznt1_decompress, in, sizeof in, 8192, expected, 4096);
}

static void
test_lznt1_hostile (void)
{
  static const guint8 bad_signature[] = { 0x04, 0x00, 'a', 'b', 'c', 'd', 'e' };
  static const guint8 cut_chunk[] = { 0x04, 0x30, 'a', 'b', 'c' };
  static const guint8 token_first[] = { 0x02, 0xb0, 0x01, 0x00, 0x00 };
  static const guint8 token_far[] = { 0x03, 0xb0, 0x02, 'a', 0x00, 0x10 };
  static const guint8 token_cut[] = { 0x02, 0xb0, 0x02, 'a', 0x00 };
  static const guint8 too_long[] = { 0x03, 0xb0, 0x02, 'a', 0xff, 0x0f };
  static const guint8 packed[] = { 0x05, 0xb0, 0x08, 'a', 'b', 'c', 0x03, 0x20 };
  static const guint8 half_header[] = { 0x04, 0x30, 'h', 'e', 'l', 'l', 'o', 0x01 };

  check_error (sps_xca_lznt1_decompress, bad_signature, sizeof bad_signature, 100, SPS_XCA_ERROR_BAD_CHUNK,
               "LZNT1, compressed byte 0: chunk header 0x0004 has signature 0, not 3");
  check_error (sps_xca_lznt1_decompress, cut_chunk, sizeof cut_chunk, 100, SPS_XCA_ERROR_TRUNCATED,
               "LZNT1, compressed byte 0: a chunk of 5 bytes runs past the end of the input (3 bytes left)");
  check_error (sps_xca_lznt1_decompress, token_first, sizeof token_first, 100, SPS_XCA_ERROR_BAD_OFFSET,
               "LZNT1, compressed byte 3: a copy token at the start of a chunk");
  /* 0x1000 after one byte: offset 1 + 1 */
  check_error (sps_xca_lznt1_decompress, token_far, sizeof token_far, 100, SPS_XCA_ERROR_BAD_OFFSET,
               "LZNT1, compressed byte 4: a copy token at chunk byte 1 has offset 2, before the start "
               "of its chunk");
  check_error (sps_xca_lznt1_decompress, token_cut, sizeof token_cut, 100, SPS_XCA_ERROR_TRUNCATED,
               "LZNT1, compressed byte 4: a copy token is cut by the end of its chunk");
  /* 0x0fff: offset 1, length 4,095 + 3 after one byte */
  check_error (sps_xca_lznt1_decompress, too_long, sizeof too_long, 8192, SPS_XCA_ERROR_BAD_CHUNK,
               "LZNT1, compressed byte 4: a chunk expands to more than 4096 bytes");
  check_error (sps_xca_lznt1_decompress, packed, sizeof packed, 5, SPS_XCA_ERROR_OUTPUT_OVERFLOW,
               "LZNT1, compressed byte 6: a match of 6 bytes at output byte 3 runs past the end of the "
               "5-byte output");
  check_error (sps_xca_lznt1_decompress, half_header, sizeof half_header, 100, SPS_XCA_ERROR_TRUNCATED,
               "LZNT1, compressed byte 7: the input ends inside a chunk header");
}

/* ---- the switch ------------------------------------------------------ */

static void
test_format_switch (void)
{
  static const guint8 lz77[] = { 0xff, 0xff, 0xff, 0x1f, 'a', 'b', 'c' };
  static const guint8 lznt1[] = { 0x02, 0x30, 'a', 'b', 'c' };
  g_autoptr(GError) error = NULL;
  guint8 out[3];

  g_assert_cmpint (sps_xca_decompress (SPS_XCA_FORMAT_XPRESS, lz77, sizeof lz77, out, 3, &error), ==, 3);
  g_assert_no_error (error);
  g_assert_cmpmem (out, 3, "abc", 3);
  g_assert_cmpint (sps_xca_decompress (SPS_XCA_FORMAT_LZNT1, lznt1, sizeof lznt1, out, 3, &error), ==, 3);
  g_assert_no_error (error);
  g_assert_cmpint (sps_xca_decompress (SPS_XCA_FORMAT_XPRESS_HUFF, lz77, sizeof lz77, out, 3, &error), ==, -1);
  g_assert_error (error, SPS_XCA_ERROR, SPS_XCA_ERROR_TRUNCATED);
  g_clear_error (&error);
  g_assert_cmpint (sps_xca_decompress (5, lz77, sizeof lz77, out, 3, &error), ==, -1);
  g_assert_error (error, SPS_XCA_ERROR, SPS_XCA_ERROR_UNSUPPORTED);
  g_assert_cmpstr (error->message, ==,
                   "compression format 5 is not one of LZNT1 (2), plain LZ77 (3) or LZ77+Huffman (4)");
  g_assert_cmpstr (sps_xca_format_name (SPS_XCA_FORMAT_XPRESS), ==, "plain LZ77");
}

/* ---- round trips ------------------------------------------------------ */

/* 200,000 bytes of text with variations, runs of zeros, records with
 * rising counters and incompressible stretches: LZ77+Huffman in four
 * blocks (the last partial), matches of every length form, LZNT1 in 49
 * chunks, some stored. */
static guint8 *
mixed_data (gsize len)
{
  static const char *words[] = { "Microsoft-Windows-DotNETRuntime", "GC/Start", "ThreadPool", "\\Device\\Harddisk",
                                 "ntdll.dll", "System.Private.CoreLib", " ", "\n" };
  g_autoptr(GRand) rand = g_rand_new_with_seed (4);
  guint8 *d = g_malloc (len);
  gsize pos = 0;
  guint32 counter = 0;

  while (pos < len)
    {
      gsize n;

      switch (g_rand_int_range (rand, 0, 4))
        {
        case 0:
          {
            const char *w = words[g_rand_int_range (rand, 0, G_N_ELEMENTS (words))];

            n = MIN (strlen (w), len - pos);
            memcpy (d + pos, w, n);
          }
          break;
        case 1:
          n = MIN ((gsize) g_rand_int_range (rand, 1, 3000), len - pos);
          memset (d + pos, 0, n);
          break;
        case 2:
          n = MIN ((gsize) 16, len - pos);
          for (gsize i = 0; i < n; i++)
            d[pos + i] = (guint8) ((i < 4 ? counter >> (8 * i) : i) & 0xff);
          counter += (guint32) g_rand_int_range (rand, 1, 100);
          break;
        default:
          n = MIN ((gsize) g_rand_int_range (rand, 1, 64), len - pos);
          for (gsize i = 0; i < n; i++)
            d[pos + i] = (guint8) g_rand_int (rand);
          break;
        }
      pos += n;
    }
  return d;
}

/* What the compressor of the benchmark writes expands back exactly. */
static void
test_round_trip (void)
{
  static const struct
  {
    Decoder decode;
    GBytes *(*compress) (const guint8 *, gsize);
  } formats[] = {
    { sps_xca_lz77_decompress, xca_compress_lz77 },
    { sps_xca_huffman_decompress, xca_compress_huffman },
    { sps_xca_lznt1_decompress, xca_compress_lznt1 },
  };
  const gsize len = 200000;
  g_autofree guint8 *data = mixed_data (len);

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    {
      g_autoptr(GBytes) packed = formats[f].compress (data, len);
      gsize packed_len;
      const guint8 *p = g_bytes_get_data (packed, &packed_len);

      g_assert_cmpuint (packed_len, <, len);
      check_output (formats[f].decode, p, packed_len, len, data, len);
    }
}

/* ---- the real trace -------------------------------------------------- */

static guint16
get_u16 (const guint8 *p)
{
  return (guint16) (p[0] | p[1] << 8);
}

static guint32
get_u32 (const guint8 *p)
{
  return (guint32) p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16 | (guint32) p[3] << 24;
}

/* The records of one buffer's payload, by header type (formats note
 * §4.3): each starts 8-byte aligned and they must tile the payload. */
static void
count_records (const guint8 *p,
               gsize         len,
               guint        *by_type)
{
  gsize o = 0;

  while (o < len)
    {
      guint8 type;
      guint size;

      g_assert_cmpuint (len - o, >=, 8);
      type = p[o + 2];
      g_assert_cmphex (p[o + 3] & 0xc0, ==, 0xc0);
      size = type <= 4 || type == 16 || type == 17 ? get_u16 (p + o + 4) : get_u16 (p + o);
      g_assert_cmpuint (size, >=, 16);
      g_assert_cmpuint (size, <=, len - o);
      by_type[type]++;
      o += (size + 7) & ~7u;
    }
}

/* Every compressed buffer of the PerfView CPU trace (plain LZ77, the
 * format number in the first buffer's State) expands to exactly
 * SavedOffset − 72 bytes, and the records of all buffers are the counts
 * that the fixture's README gives per header type (read with an
 * independent reader). */
static void
test_perfview_buffers (void)
{
  g_autofree char *zip = sps_test_shared_fixture_path ("diagsession", "perfview__net.4.5.2.x86.etl.zip");
  g_autofree char *contents = NULL;
  g_autofree char *unzip = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *etl = NULL;
  g_autoptr(GError) error = NULL;
  guint by_type[256] = { 0 };
  guint buffers = 0;
  guint compressed = 0;
  gsize compressed_bytes = 0;
  gsize expanded_bytes = 0;
  const guint8 *d;
  gsize len;
  gsize off = 0;
  int status;

  if (zip == NULL)
    return;
  unzip = g_find_program_in_path ("unzip");
  if (unzip == NULL)
    {
      g_test_skip ("unzip is not installed");
      return;
    }
  dir = g_dir_make_tmp ("test-xca-XXXXXX", &error);
  g_assert_no_error (error);
  {
    const char *argv[] = { unzip, "-q", "-o", zip, "net.4.5.2.x86.etl", "-d", dir, NULL };

    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL,
                  &status, &error);
  }
  g_assert_no_error (error);
  g_spawn_check_wait_status (status, &error);
  g_assert_no_error (error);
  etl = g_build_filename (dir, "net.4.5.2.x86.etl", NULL);
  g_file_get_contents (etl, &contents, &len, &error);
  g_assert_no_error (error);
  sps_test_remove_tree (dir);

  d = (const guint8 *) contents;
  g_assert_cmpuint (len, ==, 4388184);
  g_assert_cmphex (get_u32 (d + 44) & 0xffff, ==, SPS_XCA_FORMAT_XPRESS);

  while (off < len)
    {
      guint32 size = get_u32 (d + off);
      guint32 saved = get_u32 (d + off + 4);
      guint16 flags = get_u16 (d + off + 52);

      g_assert_cmpuint (size, >=, 72);
      g_assert_cmpuint (size, <=, len - off);
      g_assert_cmpuint (saved, >=, 72);
      if (flags & 0x40)
        {
          g_autofree guint8 *out = g_malloc (saved - 72);
          gssize n = sps_xca_decompress (SPS_XCA_FORMAT_XPRESS, d + off + 72, size - 72, out, saved - 72,
                                         &error);

          g_assert_no_error (error);
          g_assert_cmpint (n, ==, saved - 72);
          count_records (out, saved - 72, by_type);
          compressed++;
          compressed_bytes += size - 72;
          expanded_bytes += saved - 72;
        }
      else
        {
          g_assert_cmpuint (saved, <=, size);
          count_records (d + off + 72, saved - 72, by_type);
        }
      buffers++;
      off += size;
    }

  g_assert_cmpuint (buffers, ==, 276);
  g_assert_cmpuint (compressed, ==, 275);
  g_assert_cmpuint (by_type[1], ==, 2);        /* System32 */
  g_assert_cmpuint (by_type[2], ==, 4472);     /* System64 */
  g_assert_cmpuint (by_type[10], ==, 73);      /* Full header 32 */
  g_assert_cmpuint (by_type[17], ==, 115091);  /* PerfInfo64 */
  g_assert_cmpuint (by_type[18], ==, 39425);   /* EventHeader32 */
  g_assert_cmpuint (by_type[19], ==, 1073);    /* EventHeader64 */
  g_assert_cmpuint (by_type[20], ==, 8162);    /* Full header 64 */
  g_test_message ("%u compressed buffers: %zu bytes expand to %zu bytes", compressed, compressed_bytes,
                  expanded_bytes);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/xca/lz77/literals", test_lz77_literals);
  g_test_add_func ("/xca/lz77/match", test_lz77_match);
  g_test_add_func ("/xca/lz77/overlap", test_lz77_overlap);
  g_test_add_func ("/xca/lz77/short-offsets", test_lz77_short_offsets);
  g_test_add_func ("/xca/lz77/half-bytes", test_lz77_half_bytes);
  g_test_add_func ("/xca/lz77/long-lengths", test_lz77_long_lengths);
  g_test_add_func ("/xca/lz77/literal-runs", test_lz77_literal_runs);
  g_test_add_func ("/xca/lz77/hostile", test_lz77_hostile);
  g_test_add_func ("/xca/huffman/spec-example", test_huffman_spec_example);
  g_test_add_func ("/xca/huffman/match", test_huffman_match);
  g_test_add_func ("/xca/huffman/blocks", test_huffman_blocks);
  g_test_add_func ("/xca/huffman/long-codes", test_huffman_long_codes);
  g_test_add_func ("/xca/huffman/tables", test_huffman_tables);
  g_test_add_func ("/xca/huffman/hostile", test_huffman_hostile);
  g_test_add_func ("/xca/lznt1/spec-example", test_lznt1_spec_example);
  g_test_add_func ("/xca/lznt1/chunks", test_lznt1_chunks);
  g_test_add_func ("/xca/lznt1/token-split", test_lznt1_token_split);
  g_test_add_func ("/xca/lznt1/full-chunk", test_lznt1_full_chunk);
  g_test_add_func ("/xca/lznt1/longest-token", test_lznt1_longest_token);
  g_test_add_func ("/xca/lznt1/hostile", test_lznt1_hostile);
  g_test_add_func ("/xca/format-switch", test_format_switch);
  g_test_add_func ("/xca/round-trip", test_round_trip);
  g_test_add_func ("/xca/perfview-buffers", test_perfview_buffers);

  return g_test_run ();
}
