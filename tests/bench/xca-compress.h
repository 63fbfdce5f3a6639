/* xca-compress.h: MS-XCA compressors for test and benchmark inputs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

GBytes *xca_compress_lz77    (const guint8 *data,
                              gsize         len);
GBytes *xca_compress_huffman (const guint8 *data,
                              gsize         len);
GBytes *xca_compress_lznt1   (const guint8 *data,
                              gsize         len);

G_END_DECLS
