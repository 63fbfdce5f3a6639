/* sps-chrome-gzip.h: gzip input (detected by magic, decompressed with GIO)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

G_BEGIN_DECLS

/* The fixed bound of sps_chrome_gzip_default_limit(): 16 GiB */
#define SPS_CHROME_GZIP_MAX_SIZE (G_GUINT64_CONSTANT (16) << 30)

guint64   sps_chrome_gzip_default_limit (void);
gboolean  sps_chrome_gzip_has_magic (const guint8 *data,
                                     gsize         len);
gsize     sps_chrome_gunzip_head    (const guint8 *data,
                                     gsize         len,
                                     char         *out,
                                     gsize         out_size);
GBytes   *sps_chrome_gunzip         (const guint8 *data,
                                     gsize         len,
                                     guint64       limit,
                                     SpsProgress  *progress,
                                     gboolean     *truncated,
                                     gboolean     *limited,
                                     gsize        *error_offset,
                                     GError      **error);

G_END_DECLS
