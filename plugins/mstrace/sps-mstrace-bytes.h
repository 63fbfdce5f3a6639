/* sps-mstrace-bytes.h: reading the little-endian, unaligned fields of
 * Microsoft's trace formats (.nettrace, ETL)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <string.h>

#include <glib.h>

G_BEGIN_DECLS

static inline guint16
sps_ms_read_u16 (const guint8 *p)
{
  guint16 v;

  memcpy (&v, p, 2);
  return GUINT16_FROM_LE (v);
}

static inline guint32
sps_ms_read_u32 (const guint8 *p)
{
  guint32 v;

  memcpy (&v, p, 4);
  return GUINT32_FROM_LE (v);
}

static inline guint64
sps_ms_read_u64 (const guint8 *p)
{
  guint64 v;

  memcpy (&v, p, 8);
  return GUINT64_FROM_LE (v);
}

/* A pointer-sized field: @size is 4 or 8 */
static inline guint64
sps_ms_read_ptr (const guint8 *p,
                 guint         size)
{
  return size == 8 ? sps_ms_read_u64 (p) : sps_ms_read_u32 (p);
}

G_END_DECLS
