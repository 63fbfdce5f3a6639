/* sps-xca.h: the buffer decompressors of MS-XCA (Xpress Compression
 * Algorithm), as ETW writes compressed .etl buffers with them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each decoder expands one whole compressed buffer into @out, whose size
 * the caller knows (an ETL buffer header gives it). Input is untrusted:
 * every length, offset and count is checked against the bytes left and
 * the output space, and the work is bounded by @in_len and @out_len. An
 * error names the variant, what is wrong and the byte offset in @in.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define SPS_XCA_ERROR (sps_xca_error_quark ())

typedef enum
{
  SPS_XCA_ERROR_TRUNCATED,        /* the input ends inside an item */
  SPS_XCA_ERROR_BAD_OFFSET,       /* a match reaches before the output's start */
  SPS_XCA_ERROR_OUTPUT_OVERFLOW,  /* the data expands past @out_len */
  SPS_XCA_ERROR_BAD_LENGTH,       /* an extended match length out of range */
  SPS_XCA_ERROR_BAD_TABLE,        /* Huffman code lengths that are no complete prefix code */
  SPS_XCA_ERROR_BAD_CHUNK,        /* an LZNT1 chunk header or chunk body is invalid */
  SPS_XCA_ERROR_UNSUPPORTED,      /* a format number this code does not decode */
} SpsXcaError;

/* The values of COMPRESSION_FORMAT_*, as the low 16 bits of the first ETL
 * buffer's State field give them. */
typedef enum
{
  SPS_XCA_FORMAT_LZNT1         = 2,
  SPS_XCA_FORMAT_XPRESS        = 3,  /* plain LZ77 */
  SPS_XCA_FORMAT_XPRESS_HUFF   = 4,  /* LZ77+Huffman */
} SpsXcaFormat;

GQuark       sps_xca_error_quark        (void);
const char  *sps_xca_format_name        (SpsXcaFormat   format);

gssize       sps_xca_decompress         (SpsXcaFormat   format,
                                         const guint8  *in,
                                         gsize          in_len,
                                         guint8        *out,
                                         gsize          out_len,
                                         GError       **error);
gssize       sps_xca_decompress_buffer  (guint32        format,
                                         const guint8  *in,
                                         gsize          in_len,
                                         guint8        *out,
                                         gsize          out_len,
                                         GError       **error);
gssize       sps_xca_lz77_decompress    (const guint8  *in,
                                         gsize          in_len,
                                         guint8        *out,
                                         gsize          out_len,
                                         GError       **error);
gssize       sps_xca_huffman_decompress (const guint8  *in,
                                         gsize          in_len,
                                         guint8        *out,
                                         gsize          out_len,
                                         GError       **error);
gssize       sps_xca_lznt1_decompress   (const guint8  *in,
                                         gsize          in_len,
                                         guint8        *out,
                                         gsize          out_len,
                                         GError       **error);

G_END_DECLS
