/* sps-xca.c: the MS-XCA error domain and the format switch
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-xca-private.h"

G_DEFINE_QUARK (sps-xca-error-quark, sps_xca_error)

/**
 * sps_xca_format_name:
 * @format: a compression format number
 *
 * Returns: (transfer none): the name of @format as the specification
 *   calls it, or "unknown"; not translated (it is a format's name)
 */
const char *
sps_xca_format_name (SpsXcaFormat format)
{
  switch (format)
    {
    case SPS_XCA_FORMAT_LZNT1:
      return "LZNT1";
    case SPS_XCA_FORMAT_XPRESS:
      return "plain LZ77";
    case SPS_XCA_FORMAT_XPRESS_HUFF:
      return "LZ77+Huffman";
    default:
      return "unknown";
    }
}

/* Sets "<variant>, compressed byte <offset>: <detail>" and returns -1,
 * so that a decoder can `return _sps_xca_fail (...)`. */
gssize
_sps_xca_fail (GError       **error,
               SpsXcaError    code,
               SpsXcaFormat   format,
               gsize          offset,
               const char    *detail_format,
               ...)
{
  g_autofree char *detail = NULL;
  va_list args;

  va_start (args, detail_format);
  detail = g_strdup_vprintf (detail_format, args);
  va_end (args);

  g_set_error (error, SPS_XCA_ERROR, code, _("%s, compressed byte %zu: %s"),
               sps_xca_format_name (format), offset, detail);
  return -1;
}

/**
 * sps_xca_decompress:
 * @format: which decoder
 * @in: (array length=in_len): the compressed bytes
 * @in_len: their number
 * @out: (array length=out_len): where the expanded bytes go
 * @out_len: the expected expanded size
 * @error: return location for a #GError
 *
 * Expands @in with the decoder of @format; see the decoders for how each
 * ends. Decoding stops once @out_len bytes are written (trailing input is
 * ignored); a plain LZ77 or LZNT1 stream that ends earlier returns the
 * shorter count, so a caller that knows the size compares it.
 *
 * Returns: the number of bytes written to @out, or -1 with @error set
 */
gssize
sps_xca_decompress (SpsXcaFormat   format,
                    const guint8  *in,
                    gsize          in_len,
                    guint8        *out,
                    gsize          out_len,
                    GError       **error)
{
  g_return_val_if_fail (in != NULL || in_len == 0, -1);
  g_return_val_if_fail (out != NULL || out_len == 0, -1);
  g_return_val_if_fail (out_len <= G_MAXSSIZE, -1);

  switch (format)
    {
    case SPS_XCA_FORMAT_LZNT1:
      return sps_xca_lznt1_decompress (in, in_len, out, out_len, error);
    case SPS_XCA_FORMAT_XPRESS:
      return sps_xca_lz77_decompress (in, in_len, out, out_len, error);
    case SPS_XCA_FORMAT_XPRESS_HUFF:
      return sps_xca_huffman_decompress (in, in_len, out, out_len, error);
    default:
      g_set_error (error, SPS_XCA_ERROR, SPS_XCA_ERROR_UNSUPPORTED,
                   _("compression format %u is not one of LZNT1 (2), plain LZ77 (3) or LZ77+Huffman (4)"),
                   (guint) format);
      return -1;
    }
}

/**
 * sps_xca_decompress_buffer:
 * @format: the format number as a file stores it (an ETL header's)
 * @in: (array length=in_len): the compressed bytes
 * @in_len: their number
 * @out: (array length=out_len): where the expanded bytes go
 * @out_len: the expected expanded size
 * @error: return location for a #GError
 *
 * sps_xca_decompress() for a format number read from a file, in the form
 * of the ETL reader's decompress function; a number that is no format is
 * %SPS_XCA_ERROR_UNSUPPORTED.
 *
 * Returns: the number of bytes written to @out, or -1 with @error set
 */
gssize
sps_xca_decompress_buffer (guint32        format,
                           const guint8  *in,
                           gsize          in_len,
                           guint8        *out,
                           gsize          out_len,
                           GError       **error)
{
  return sps_xca_decompress ((SpsXcaFormat) format, in, in_len, out, out_len, error);
}
