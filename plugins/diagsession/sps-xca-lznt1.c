/* sps-xca-lznt1.c: the LZNT1 decoder of MS-XCA (§2.5), compression
 * format 2 of ETL buffers (and of NTFS)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The stream is a series of chunks, each for 4,096 output bytes (the last
 * may hold fewer), ended by a zero header or the end of the input. A
 * chunk starts with a 16-bit header: bit 15 set when the body is
 * compressed, bits 12–14 the signature 3, bits 0–11 the body size − 1.
 * An uncompressed body is the bytes themselves. A compressed body is
 * groups of a flag byte and up to eight items, least significant bit
 * first: 0 a literal byte, 1 a 16-bit copy token whose split into
 * offset − 1 (high bits) and length − 3 (low bits) depends on how much
 * of the chunk is already written: the offset gets as many bits as reach
 * back to the chunk's start, 4 to 12. Matches never reach outside their
 * chunk. A chunk that expands to fewer than 4,096 bytes and is followed
 * by another is padded with zeros, as Windows' decompressor does.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-xca-private.h"

#define FAIL(code, at, ...) \
  _sps_xca_fail (error, (code), SPS_XCA_FORMAT_LZNT1, (at), __VA_ARGS__)

#define CHUNK_SIZE 4096

/* Decodes the compressed body @body (@size bytes, at input offset @at)
 * into @out + @op; returns the new output position or -1. */
static gssize
decode_chunk (const guint8  *body,
              gsize          size,
              gsize          at,
              guint8        *out,
              gsize          op,
              gsize          out_len,
              GError       **error)
{
  gsize start = op;
  gsize bp = 0;

  while (bp < size)
    {
      guint flags = body[bp++];

      for (guint bit = 0; bit < 8 && bp < size; bit++)
        {
          gsize written = op - start;
          guint offset_bits;
          guint16 token;
          gsize length;
          gsize offset;

          if ((flags >> bit & 1) == 0)
            {
              if (written == CHUNK_SIZE)
                return FAIL (SPS_XCA_ERROR_BAD_CHUNK, at + bp, _("a chunk expands to more than 4096 bytes"));
              if (op == out_len)
                return FAIL (SPS_XCA_ERROR_OUTPUT_OVERFLOW, at + bp,
                             _("a literal at output byte %zu runs past the end of the %zu-byte output"),
                             op, out_len);
              out[op++] = body[bp++];
              continue;
            }

          if (size - bp < 2)
            return FAIL (SPS_XCA_ERROR_TRUNCATED, at + bp, _("a copy token is cut by the end of its chunk"));
          token = _sps_xca_u16 (body + bp);
          if (written == 0)
            return FAIL (SPS_XCA_ERROR_BAD_OFFSET, at + bp, _("a copy token at the start of a chunk"));
          offset_bits = MAX (4, g_bit_storage (written - 1));
          length = (gsize) (token & ((1u << (16 - offset_bits)) - 1)) + 3;
          offset = (gsize) (token >> (16 - offset_bits)) + 1;
          if (offset > written)
            return FAIL (SPS_XCA_ERROR_BAD_OFFSET, at + bp,
                         _("a copy token at chunk byte %zu has offset %zu, before the start of its chunk"),
                         written, offset);
          if (length > CHUNK_SIZE - written)
            return FAIL (SPS_XCA_ERROR_BAD_CHUNK, at + bp, _("a chunk expands to more than 4096 bytes"));
          if (length > out_len - op)
            return FAIL (SPS_XCA_ERROR_OUTPUT_OVERFLOW, at + bp,
                         _("a match of %zu bytes at output byte %zu runs past the end of the %zu-byte output"),
                         length, op, out_len);
          _sps_xca_copy (out, op, out_len, offset, length);
          op += length;
          bp += 2;
        }
    }

  return (gssize) op;
}

/**
 * sps_xca_lznt1_decompress:
 * @in: (array length=in_len): the compressed bytes
 * @in_len: their number
 * @out: (array length=out_len): where the expanded bytes go
 * @out_len: the expected expanded size
 * @error: return location for a #GError
 *
 * Expands an LZNT1 stream until @out_len bytes are written, a zero chunk
 * header or the end of the input.
 *
 * Returns: the number of bytes written, or -1 with @error set
 */
gssize
sps_xca_lznt1_decompress (const guint8  *in,
                          gsize          in_len,
                          guint8        *out,
                          gsize          out_len,
                          GError       **error)
{
  gsize ip = 0;
  gsize op = 0;
  gsize chunk_out = 0;
  gboolean first = TRUE;

  g_return_val_if_fail (in != NULL || in_len == 0, -1);
  g_return_val_if_fail (out != NULL || out_len == 0, -1);
  g_return_val_if_fail (out_len <= G_MAXSSIZE, -1);

  while (op < out_len && ip < in_len)
    {
      guint16 header;
      gsize size;

      if (in_len - ip < 2)
        return FAIL (SPS_XCA_ERROR_TRUNCATED, ip, _("the input ends inside a chunk header"));
      header = _sps_xca_u16 (in + ip);
      if (header == 0)
        break;
      if ((header >> 12 & 7) != 3)
        return FAIL (SPS_XCA_ERROR_BAD_CHUNK, ip, _("chunk header 0x%04x has signature %u, not 3"),
                     header, (guint) (header >> 12 & 7));
      size = (gsize) (header & 0xfff) + 1;
      if (in_len - ip - 2 < size)
        return FAIL (SPS_XCA_ERROR_TRUNCATED, ip,
                     _("a chunk of %zu bytes runs past the end of the input (%zu bytes left)"),
                     size, in_len - ip - 2);

      /* A short chunk before this one still stands for 4096 bytes. */
      if (!first && op - chunk_out < CHUNK_SIZE)
        {
          gsize pad = CHUNK_SIZE - (op - chunk_out);

          if (pad > out_len - op)
            return FAIL (SPS_XCA_ERROR_OUTPUT_OVERFLOW, ip,
                         _("a chunk starts at output byte %zu, past the end of the %zu-byte output"),
                         chunk_out + CHUNK_SIZE, out_len);
          memset (out + op, 0, pad);
          op += pad;
        }
      first = FALSE;
      chunk_out = op;

      if ((header & 0x8000) == 0)
        {
          if (size > out_len - op)
            return FAIL (SPS_XCA_ERROR_OUTPUT_OVERFLOW, ip + 2,
                         _("an uncompressed chunk (size %zu) at output byte %zu runs past the end of the %zu-byte output"),
                         size, op, out_len);
          memcpy (out + op, in + ip + 2, size);
          op += size;
        }
      else
        {
          gssize next = decode_chunk (in + ip + 2, size, ip + 2, out, op, out_len, error);

          if (next < 0)
            return -1;
          op = (gsize) next;
        }
      ip += 2 + size;
    }

  return (gssize) op;
}
