/* sps-xca-private.h: what the MS-XCA decoders share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <string.h>

#include "sps-xca.h"

G_BEGIN_DECLS

gssize _sps_xca_fail (GError       **error,
                      SpsXcaError    code,
                      SpsXcaFormat   format,
                      gsize          offset,
                      const char    *detail_format,
                      ...) G_GNUC_PRINTF (5, 6);

static inline guint16
_sps_xca_u16 (const guint8 *p)
{
  return (guint16) (p[0] | p[1] << 8);
}

static inline guint32
_sps_xca_u32 (const guint8 *p)
{
  return (guint32) p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16 | (guint32) p[3] << 24;
}

/* Copies a match of @len bytes from @offset bytes back to @dst. The
 * caller has checked both ends. A match may overlap its own output
 * (offset < len repeats the last @offset bytes, as run-length coding
 * does), so it cannot be one memmove(): the source region, periodic with
 * period @offset, is copied in growing non-overlapping pieces instead,
 * which gives the byte-by-byte result of the specification. */
static inline void
_sps_xca_copy_match (guint8 *dst,
                     gsize   offset,
                     gsize   len)
{
  const guint8 *src = dst - offset;

  g_assert (offset > 0);
  if (offset >= len)
    {
      memcpy (dst, src, len);
      return;
    }
  if (offset == 1)
    {
      memset (dst, src[0], len);
      return;
    }
  while (len > 0)
    {
      gsize n = MIN (len, (gsize) (dst - src));

      memcpy (dst, src, n);
      dst += n;
      len -= n;
    }
}

/* Copies [src, src + len) forward in pieces of @step bytes (a constant
 * where it is inlined: each piece one move), at most step − 1 past it */
static inline void
_sps_xca_copy_steps (guint8       *dst,
                     const guint8 *src,
                     gsize         len,
                     gsize         step)
{
  const guint8 *end = dst + len;

  do
    {
      memcpy (dst, src, step);
      dst += step;
      src += step;
    }
  while (dst < end);
}

/* A match copied at @op in the @out_len-byte @out: most matches reach back 8
 * bytes or more, and where there are 8 bytes to spare behind them they
 * are copied 8 at a time, or 16 when they reach back 16 (each piece reads
 * only bytes written before it; the at most 15 bytes written past the
 * match are overwritten by what follows). */
static inline void
_sps_xca_copy (guint8 *out,
               gsize   op,
               gsize   out_len,
               gsize   offset,
               gsize   len)
{
  guint8 *dst = out + op;

  if (G_LIKELY (offset >= 16 && out_len - op >= len + 16))
    _sps_xca_copy_steps (dst, dst - offset, len, 16);
  else if (G_LIKELY (offset >= 8 && out_len - op >= len + 8))
    _sps_xca_copy_steps (dst, dst - offset, len, 8);
  else
    _sps_xca_copy_match (dst, offset, len);
}

G_END_DECLS
