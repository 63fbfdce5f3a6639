/* sps-xca-huffman.c: the LZ77+Huffman decoder of MS-XCA (§2.1–2.2), the
 * "XPRESS Huffman" compression format 4 of ETL buffers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The stream is a series of blocks, each for 65,536 output bytes (the
 * last match of a block may run past that). A block starts with 256
 * bytes of 4-bit code lengths of 512 symbols (the low nibble for the even
 * symbol), which define a canonical prefix code of at most 15 bits:
 * codes are given in order of (length, symbol). Then comes a bit stream,
 * read as 16-bit little-endian words, most significant bit first.
 * Symbols below 256 are literal bytes; 256 + (k << 4 | l) is a match
 * whose offset has k + 1 bits (a leading 1 and k bits from the stream)
 * and whose length − 3 is l, or, when l is 15, a byte from the byte
 * stream at the reader's position (15 more), 255 there meaning 16 bits
 * (and 0 there 32 bits) of length − 3. The next block's table starts
 * after the last word the bit reader loaded.
 *
 * The compressor ends the stream with symbol 256, but the specification
 * takes it for the end only once the input is used up *and* the expected
 * size is written; before that it is a match (offset 1, length 3), which
 * a real stream may well hold in its last bytes. So the output size must
 * be exact: decoding stops when it is reached, and symbol 256 is always
 * a match before.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-xca-private.h"

#define FAIL(code, at, ...) \
  _sps_xca_fail (error, (code), SPS_XCA_FORMAT_XPRESS_HUFF, (at), __VA_ARGS__)

#define N_SYMBOLS   512
#define MAX_BITS    15
#define CODE_SPACE  (1u << MAX_BITS)
#define FAST_BITS   11
#define TABLE_BYTES 256
#define BLOCK_SIZE  65536

/* A fast-table entry: the symbol in the low 9 bits, its code length
 * above; length 0 marks the prefix of a code longer than FAST_BITS. */
#define ENTRY_SYMBOL(e) ((e) & 511u)
#define ENTRY_BITS(e)   ((e) >> 9)

/* The decoding tables of one block. Codes of up to 11 bits (nearly all
 * symbols) are looked up in 2,048 entries by the next 11 bits, small
 * enough for the L1 cache; longer ones are decoded canonically from the
 * next 15 bits: the codes of each length are consecutive, in symbol
 * order, and all longer codes come after all shorter ones. */
typedef struct
{
  guint16 fast[1u << FAST_BITS];
  guint32 first[MAX_BITS + 1];   /* first code of each length, 15 bits left-aligned */
  guint32 limit[MAX_BITS + 1];   /* the end of that length's codes, likewise */
  guint16 index[MAX_BITS + 1];   /* where that length's symbols start in @sorted */
  guint16 sorted[N_SYMBOLS];     /* the symbols of codes longer than FAST_BITS, by (length, symbol) */
} Tables;

/* Builds the tables from the code lengths at @lengths. Only a complete
 * prefix code (Kraft sum exactly 1) is accepted: an over-subscribed one is
 * no prefix code, and an incomplete one would leave codes that decode to
 * nothing. */
static gboolean
build_tables (const guint8  *lengths,
              Tables        *t,
              gsize          at,
              GError       **error)
{
  guint count[MAX_BITS + 1] = { 0 };
  guint next[MAX_BITS + 1];
  guint next_index[MAX_BITS + 1];
  guint64 space = 0;
  guint n_long = 0;

  for (guint sym = 0; sym < N_SYMBOLS; sym++)
    count[lengths[sym / 2] >> (4 * (sym & 1)) & 15]++;

  for (guint len = 1; len <= MAX_BITS; len++)
    {
      t->first[len] = (guint32) space;
      next[len] = (guint) space;
      space += (guint64) count[len] << (MAX_BITS - len);
      t->limit[len] = (guint32) MIN (space, G_MAXUINT32);
      t->index[len] = (guint16) n_long;
      next_index[len] = n_long;
      if (len > FAST_BITS)
        n_long += count[len];
    }

  if (space != CODE_SPACE)
    {
      if (count[0] == N_SYMBOLS)
        FAIL (SPS_XCA_ERROR_BAD_TABLE, at, _("every Huffman code length of the block is zero"));
      else if (space > CODE_SPACE)
        FAIL (SPS_XCA_ERROR_BAD_TABLE, at,
              _("the Huffman code lengths are over-subscribed (no prefix code: %" G_GUINT64_FORMAT
                "/32768 of the code space)"), space);
      else
        FAIL (SPS_XCA_ERROR_BAD_TABLE, at,
              _("the Huffman code lengths are incomplete (%" G_GUINT64_FORMAT "/32768 of the code space)"),
              space);
      return FALSE;
    }

  /* Within a length, codes go up with the symbol: fill in symbol order.
   * The prefixes of long codes keep the 0 marker. */
  memset (t->fast, 0, sizeof t->fast);
  for (guint sym = 0; sym < N_SYMBOLS; sym++)
    {
      guint len = lengths[sym / 2] >> (4 * (sym & 1)) & 15;

      if (len == 0)
        continue;
      if (len <= FAST_BITS)
        {
          guint16 entry = (guint16) (sym | len << 9);
          guint from = next[len] >> (MAX_BITS - FAST_BITS);
          guint n = 1u << (FAST_BITS - len);

          for (guint i = 0; i < n; i++)
            t->fast[from + i] = entry;
        }
      else
        t->sorted[next_index[len]++] = (guint16) sym;
      next[len] += 1u << (MAX_BITS - len);
    }
  return TRUE;
}

/* The symbol of a code longer than FAST_BITS at the top of @bits, and its
 * length in @len. The code is complete, so some length matches. */
static inline guint
decode_long (const Tables *t,
             guint32       bits,
             guint        *len)
{
  guint32 v = bits >> (32 - MAX_BITS);
  guint l = FAST_BITS + 1;

  while (v >= t->limit[l])
    l++;
  g_assert (l <= MAX_BITS);
  *len = l;
  return t->sorted[t->index[l] + ((v - t->first[l]) >> (MAX_BITS - l))];
}

/* The bit reader of the specification: @bits holds 16 + @extra unread
 * bits at its top. A word past the end of the input reads as zero and is
 * counted in @missing, so that a stream may end inside the reader's
 * look-ahead; only consuming such bits is an error. */
typedef struct
{
  const guint8 *in;
  gsize         in_len;
  gsize         pos;
  guint32       bits;
  gint          extra;
  guint         missing;
} BitReader;

static inline guint32
read_word (BitReader *r)
{
  guint32 word = 0;

  if (r->pos < r->in_len && r->in_len - r->pos >= 2)
    word = _sps_xca_u16 (r->in + r->pos);
  else
    r->missing += 16;
  r->pos += 2;
  return word;
}

static inline gsize
bytes_left (const BitReader *r)
{
  return r->pos < r->in_len ? r->in_len - r->pos : 0;
}

/* Drops @n (≤ 16) bits and refills; FALSE when the dropped bits went
 * past the end of the input. */
static inline gboolean
consume (BitReader *r,
         guint      n)
{
  r->bits <<= n;
  r->extra -= (gint) n;
  if (r->extra < 0)
    {
      r->bits |= read_word (r) << -r->extra;
      r->extra += 16;
    }
  return G_LIKELY (r->missing == 0) || (gint) r->missing <= 16 + r->extra;
}

/**
 * sps_xca_huffman_decompress:
 * @in: (array length=in_len): the compressed bytes
 * @in_len: their number
 * @out: (array length=out_len): where the expanded bytes go
 * @out_len: the expected expanded size
 * @error: return location for a #GError
 *
 * Expands an LZ77+Huffman stream until @out_len bytes are written (the
 * format has no end marker that a decoder can rely on earlier: a stream
 * for fewer bytes fails). Error offsets inside a bit stream are the
 * reader's position: the byte after the last word it loaded (it looks up
 * to 32 bits ahead).
 *
 * Returns: the number of bytes written, or -1 with @error set
 */
gssize
sps_xca_huffman_decompress (const guint8  *in,
                            gsize          in_len,
                            guint8        *out,
                            gsize          out_len,
                            GError       **error)
{
  g_autofree Tables *tables = NULL;
  BitReader r = { in, in_len, 0, 0, 0, 0 };
  gsize block = 0;
  gsize op = 0;

  g_return_val_if_fail (in != NULL || in_len == 0, -1);
  g_return_val_if_fail (out != NULL || out_len == 0, -1);
  g_return_val_if_fail (out_len <= G_MAXSSIZE, -1);

  while (op < out_len)
    {
      gsize block_end;

      if (block >= in_len || in_len - block < TABLE_BYTES)
        return FAIL (SPS_XCA_ERROR_TRUNCATED, MIN (block, in_len),
                     _("the input ends inside a block's Huffman table (%zu of 256 bytes)"),
                     block < in_len ? in_len - block : 0);
      if (tables == NULL)
        tables = g_new (Tables, 1);
      if (!build_tables (in + block, tables, block, error))
        return -1;

      r.pos = block + TABLE_BYTES;
      r.missing = 0;
      r.bits = read_word (&r) << 16;
      r.bits |= read_word (&r);
      r.extra = 16;
      block_end = op + MIN (out_len - op, BLOCK_SIZE);

      while (op < block_end)
        {
          guint16 entry = tables->fast[r.bits >> (32 - FAST_BITS)];
          guint sym = ENTRY_SYMBOL (entry);
          guint code_bits = ENTRY_BITS (entry);
          guint64 length;
          gsize offset;
          guint offset_bits;
          gsize at;

          if (G_UNLIKELY (code_bits == 0))
            sym = decode_long (tables, r.bits, &code_bits);
          if (!consume (&r, code_bits))
            return FAIL (SPS_XCA_ERROR_TRUNCATED, in_len, _("the input ends inside a Huffman code"));

          if (sym < 256)
            {
              out[op++] = (guint8) sym;
              continue;
            }

          at = MIN (r.pos, in_len);
          length = (sym - 256) & 15;
          offset_bits = (sym - 256) >> 4;
          if (length == 15)
            {
              if (bytes_left (&r) < 1)
                return FAIL (SPS_XCA_ERROR_TRUNCATED, at, _("the input ends inside a match length"));
              length = in[r.pos++];
              if (length == 255)
                {
                  if (bytes_left (&r) < 2)
                    return FAIL (SPS_XCA_ERROR_TRUNCATED, MIN (r.pos, in_len),
                                 _("the input ends inside a match length"));
                  length = _sps_xca_u16 (in + r.pos);
                  r.pos += 2;
                  if (length == 0)
                    {
                      if (bytes_left (&r) < 4)
                        return FAIL (SPS_XCA_ERROR_TRUNCATED, MIN (r.pos, in_len),
                                     _("the input ends inside a match length"));
                      length = _sps_xca_u32 (in + r.pos);
                      r.pos += 4;
                    }
                  /* This form holds length − 3 and is only used from 18 on. */
                  if (length < 15)
                    return FAIL (SPS_XCA_ERROR_BAD_LENGTH, at,
                                 _("an extended match length of %" G_GUINT64_FORMAT " is below 15"), length);
                  length -= 15;
                }
              length += 15;
            }
          length += 3;

          offset = 1;
          if (offset_bits > 0)
            offset = (gsize) (r.bits >> (32 - offset_bits)) + ((gsize) 1 << offset_bits);
          if (!consume (&r, offset_bits))
            return FAIL (SPS_XCA_ERROR_TRUNCATED, in_len, _("the input ends inside a match offset"));

          if (offset > op)
            return FAIL (SPS_XCA_ERROR_BAD_OFFSET, at,
                         _("a match at output byte %zu has offset %zu, before the start of the output"), op, offset);
          if (length > out_len - op)
            return FAIL (SPS_XCA_ERROR_OUTPUT_OVERFLOW, at,
                         _("a match of %" G_GUINT64_FORMAT " bytes at output byte %zu runs past the end of the %zu-byte output"),
                         length, op, out_len);
          _sps_xca_copy (out, op, out_len, offset, (gsize) length);
          op += (gsize) length;
        }

      block = r.pos;
    }

  return (gssize) op;
}
