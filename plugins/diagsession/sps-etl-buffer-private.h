/* sps-etl-buffer-private.h: what an ETL buffer's header says about it,
 * for the walks over a file's buffers (the reader's, and the expander's
 * ahead of it)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

#include "sps-mstrace-bytes.h"

G_BEGIN_DECLS

#define SPS_ETL_BUFFER_HEADER_SIZE     72
#define SPS_ETL_BUFFER_FLAG_COMPRESSED 0x0040

/* Far above the buffers ETW writes (at most a few MiB): what a crafted
 * SavedOffset may make the reader allocate */
#define SPS_ETL_MAX_EXPANDED_SIZE      ((gsize) 64 << 20)

typedef enum
{
  SPS_ETL_BUFFER_BAD_SIZE,      /* its size is below a header's: the walk ends */
  SPS_ETL_BUFFER_PLAIN,         /* its records are read as they are */
  SPS_ETL_BUFFER_CUT,           /* compressed, and the file ends inside it: the walk ends */
  SPS_ETL_BUFFER_BAD_EXPANDED,  /* compressed, with an invalid expanded size: skipped */
  SPS_ETL_BUFFER_COMPRESSED,    /* compressed, @out_len bytes once expanded */
} SpsEtlBufferKind;

/* Classifies the buffer at @b, with @left (at least a header's) bytes of
 * the file from it. @compressed_file: whether the trace's header says its
 * buffers are compressed (only then does a buffer's flag count). Both
 * walks take the same decisions from this, so that the reader finds
 * expanded what the expander expanded. */
static inline SpsEtlBufferKind
sps_etl_buffer_classify (const guint8 *b,
                         gsize         left,
                         gboolean      compressed_file,
                         guint32      *size,
                         gsize        *out_len)
{
  guint32 saved = sps_ms_read_u32 (b + 4);
  guint16 flags = sps_ms_read_u16 (b + 52);

  *size = sps_ms_read_u32 (b);
  *out_len = 0;
  if (*size < SPS_ETL_BUFFER_HEADER_SIZE)
    return SPS_ETL_BUFFER_BAD_SIZE;
  if (!compressed_file || (flags & SPS_ETL_BUFFER_FLAG_COMPRESSED) == 0)
    return SPS_ETL_BUFFER_PLAIN;
  if (*size > left)
    return SPS_ETL_BUFFER_CUT;
  if (saved < SPS_ETL_BUFFER_HEADER_SIZE || saved - SPS_ETL_BUFFER_HEADER_SIZE > SPS_ETL_MAX_EXPANDED_SIZE)
    return SPS_ETL_BUFFER_BAD_EXPANDED;
  *out_len = saved - SPS_ETL_BUFFER_HEADER_SIZE;
  return SPS_ETL_BUFFER_COMPRESSED;
}

G_END_DECLS
