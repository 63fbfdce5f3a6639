/* sps-time-math-private.h: time arithmetic that saturates
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <math.h>

#include <glib.h>

#include "sps-types.h"

G_BEGIN_DECLS

/* Timestamps are whatever the producer wrote, so they can sit near the
 * ends of gint64: differences and sums of two times saturate instead of
 * overflowing, and spans (b − a for b ≥ a) are unsigned, where they
 * always fit. */

static inline SpsTime
_sps_time_add (SpsTime a,
               SpsTime b)
{
  if (b > 0 && a > G_MAXINT64 - b)
    return G_MAXINT64;
  if (b < 0 && a < G_MININT64 - b)
    return G_MININT64;
  return a + b;
}

static inline SpsTime
_sps_time_sub (SpsTime a,
               SpsTime b)
{
  if (b < 0 && a > G_MAXINT64 + b)
    return G_MAXINT64;
  if (b > 0 && a < G_MININT64 + b)
    return G_MININT64;
  return a - b;
}

/* b − a for b ≥ a */
static inline guint64
_sps_time_span (SpsTime a,
                SpsTime b)
{
  g_assert (b >= a);

  return (guint64) b - (guint64) a;
}

static inline SpsTime
_sps_time_add_span (SpsTime a,
                    guint64 span)
{
  guint64 room = (guint64) G_MAXINT64 - (guint64) a;

  if (span > room)
    return G_MAXINT64;
  return (SpsTime) ((guint64) a + span);
}

static inline SpsTime
_sps_time_sub_span (SpsTime a,
                    guint64 span)
{
  guint64 room = (guint64) a - (guint64) G_MININT64;

  if (span > room)
    return G_MININT64;
  return (SpsTime) ((guint64) a - span);
}

/* a − b as a double, exact in sign for any two times */
static inline double
_sps_time_distance (SpsTime a,
                    SpsTime b)
{
  if (a >= b)
    return (double) ((guint64) a - (guint64) b);
  return -(double) ((guint64) b - (guint64) a);
}

/* @a + llround (@offset) for an offset in ns, saturated */
static inline SpsTime
_sps_time_offset (SpsTime a,
                  double  offset)
{
  if (!(offset == offset))
    return a;
  if (offset >= 0x1p63)
    return _sps_time_add_span (a, G_MAXUINT64);
  if (offset <= -0x1p63)
    return _sps_time_sub_span (a, G_MAXUINT64);
  return _sps_time_add (a, (SpsTime) llround (offset));
}

G_END_DECLS
