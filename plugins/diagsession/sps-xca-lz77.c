/* sps-xca-lz77.c: the plain LZ77 decoder of MS-XCA (§2.3–2.4), the
 * "XPRESS" compression format 3 of ETL buffers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The stream: a 32-bit little-endian flag word whose bits, from the most
 * significant down, say for the next 32 items whether each is a literal
 * byte (0) or a match (1); then the items; then the next flag word. A
 * match is a 16-bit word: offset − 1 in its upper 13 bits, a length code
 * in the lower 3. Code 7 continues in a half byte (two matches share one
 * byte: the first takes its low nibble, the next its high nibble), 15
 * there in a whole byte, 255 there in 16 bits, and 0 there in 32 bits
 * (the last two give length − 3 directly). A match flag with no input
 * left ends the stream.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-xca-private.h"

#define FAIL(code, at, ...) \
  _sps_xca_fail (error, (code), SPS_XCA_FORMAT_XPRESS, (at), __VA_ARGS__)

/**
 * sps_xca_lz77_decompress:
 * @in: (array length=in_len): the compressed bytes
 * @in_len: their number
 * @out: (array length=out_len): where the expanded bytes go
 * @out_len: the expected expanded size
 * @error: return location for a #GError
 *
 * Expands a plain LZ77 stream until @out_len bytes are written or the
 * stream's end marker (a match flag at the end of the input).
 *
 * Returns: the number of bytes written, or -1 with @error set
 */
gssize
sps_xca_lz77_decompress (const guint8  *in,
                         gsize          in_len,
                         guint8        *out,
                         gsize          out_len,
                         GError       **error)
{
  gsize ip = 0;
  gsize op = 0;
  /* The flag word's unread flags from the top bit down, zeros below */
  guint32 pending = 0;
  guint n_flags = 0;
  /* Where the byte with an unused high nibble is (0: none; byte 0 is
   * always in a flag word, so it cannot be one) */
  gsize half_byte = 0;

  g_return_val_if_fail (in != NULL || in_len == 0, -1);
  g_return_val_if_fail (out != NULL || out_len == 0, -1);
  g_return_val_if_fail (out_len <= G_MAXSSIZE, -1);

  while (op < out_len)
    {
      gsize match_at;
      guint64 length;
      gsize offset;
      guint16 word;

      if (n_flags == 0)
        {
          if (in_len - ip < 4)
            return FAIL (SPS_XCA_ERROR_TRUNCATED, ip,
                         _("the input ends inside a flag word (%zu of 4 bytes)"), in_len - ip);
          pending = _sps_xca_u32 (in + ip);
          ip += 4;
          n_flags = 32;
        }

      /* The clear flags before the next set one: a run of literals,
       * copied together. */
      {
        /* A set flag is one of the n_flags unread ones: the bits below
         * them are zero */
        gsize run = pending == 0 ? n_flags : (guint) __builtin_clz (pending);

        if (run > 0)
          {
            run = MIN (run, out_len - op);
            if (run > in_len - ip)
              return FAIL (SPS_XCA_ERROR_TRUNCATED, in_len, _("the input ends where a literal byte is due"));
            /* A run is at most 32 bytes: where both sides have 32 to
             * spare, one copy of a constant size (two vector moves, no
             * call); the bytes past the run are written over by what
             * follows, as a match's are */
            if (G_LIKELY (in_len - ip >= 32 && out_len - op >= 32))
              memcpy (out + op, in + ip, 32);
            else
              memcpy (out + op, in + ip, run);
            ip += run;
            op += run;
            n_flags -= (guint) run;
            /* A run of 32 is a whole word of clear flags: 0 stays 0 */
            pending <<= run & 31;
            /* A run ends at a match flag, unless the flag word or the
             * output ends: then the loop's checks come first */
            if (n_flags == 0 || op == out_len)
              continue;
          }
      }

      n_flags--;
      pending <<= 1;

      /* One compare for the usual case; a match flag with no input left
       * ends the stream */
      match_at = ip;
      if (G_UNLIKELY (in_len - ip < 2))
        {
          if (ip == in_len)
            break;
          return FAIL (SPS_XCA_ERROR_TRUNCATED, ip, _("the input ends inside a match"));
        }
      word = _sps_xca_u16 (in + ip);
      ip += 2;
      length = word & 7;
      offset = (gsize) (word >> 3) + 1;

      if (length == 7)
        {
          if (half_byte == 0)
            {
              if (ip == in_len)
                return FAIL (SPS_XCA_ERROR_TRUNCATED, ip, _("the input ends inside a match length"));
              length = in[ip] & 15;
              half_byte = ip++;
            }
          else
            {
              length = in[half_byte] >> 4;
              half_byte = 0;
            }

          if (length == 15)
            {
              if (ip == in_len)
                return FAIL (SPS_XCA_ERROR_TRUNCATED, ip, _("the input ends inside a match length"));
              length = in[ip++];
              if (length == 255)
                {
                  if (in_len - ip < 2)
                    return FAIL (SPS_XCA_ERROR_TRUNCATED, ip, _("the input ends inside a match length"));
                  length = _sps_xca_u16 (in + ip);
                  ip += 2;
                  if (length == 0)
                    {
                      if (in_len - ip < 4)
                        return FAIL (SPS_XCA_ERROR_TRUNCATED, ip, _("the input ends inside a match length"));
                      length = _sps_xca_u32 (in + ip);
                      ip += 4;
                    }
                  /* This form holds length − 3 and is only used from 25 on. */
                  if (length < 15 + 7)
                    return FAIL (SPS_XCA_ERROR_BAD_LENGTH, match_at,
                                 _("an extended match length of %" G_GUINT64_FORMAT " is below 22"), length);
                  length -= 15 + 7;
                }
              length += 15;
            }
          length += 7;
        }
      length += 3;

      if (offset > op)
        return FAIL (SPS_XCA_ERROR_BAD_OFFSET, match_at,
                     _("a match at output byte %zu has offset %zu, before the start of the output"), op, offset);
      if (length > out_len - op)
        return FAIL (SPS_XCA_ERROR_OUTPUT_OVERFLOW, match_at,
                     _("a match of %" G_GUINT64_FORMAT " bytes at output byte %zu runs past the end of the %zu-byte output"),
                     length, op, out_len);
      _sps_xca_copy (out, op, out_len, offset, (gsize) length);
      op += (gsize) length;
    }

  return (gssize) op;
}
