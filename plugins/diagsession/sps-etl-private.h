/* sps-etl-private.h: what the ETL reading files share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <string.h>

#include <glib.h>

#include "sps-mstrace-bytes.h"

G_BEGIN_DECLS

char     *sps_etl_utf16_string (const guint8 *p,
                                gsize         len);
gpointer  sps_etl_block_new    (gsize         size);
void      sps_etl_block_free   (gpointer      block,
                                gsize         size);
void      sps_etl_radix_sort   (gpointer      elements,
                                guint         n,
                                gsize         size,
                                gsize         key_offset,
                                guint         key_size);

/* The value of an XML element's attribute @name (ASCII case ignored), as
 * GMarkup hands them over; NULL when it has none */
static inline const char *
sps_etl_xml_attribute (const char **names,
                       const char **values,
                       const char  *name)
{
  for (guint i = 0; names[i] != NULL; i++)
    if (g_ascii_strcasecmp (names[i], name) == 0)
      return values[i];
  return NULL;
}

/* Times of the model stay within ±2^62 ns, so that any difference of two
 * is representable */
#define SPS_ETL_TIME_LIMIT (G_GINT64_CONSTANT (1) << 62)

/* A session's clock: ticks to ns since its start, exactly (in 128 bits
 * where needed), saturated to the model's range */
typedef struct
{
  guint64 start_ticks;
  guint64 frequency;        /* ticks per second, not 0 */
  guint64 ns_per_tick;      /* when a tick is a whole number of ns (10 MHz
                             * QPC: 100), else 0 */
  guint64 max_delta;        /* ticks after the start that stay in range at
                             * that rate */
} SpsEtlClock;

static inline void
sps_etl_clock_init (SpsEtlClock *clock,
                    guint64      start_ticks,
                    guint64      frequency)
{
  clock->start_ticks = start_ticks;
  clock->frequency = frequency;
  clock->ns_per_tick = 1000000000 % frequency == 0 ? 1000000000 / frequency : 0;
  clock->max_delta = clock->ns_per_tick != 0 ? (guint64) SPS_ETL_TIME_LIMIT / clock->ns_per_tick : 0;
}

/* Called for every event and sample: a whole number of ns per tick needs
 * no division, and a time after the start that stays in range at that
 * rate (every one of a sound trace) no 128-bit arithmetic */
static inline gint64
sps_etl_clock_to_ns (const SpsEtlClock *clock,
                     guint64            ticks)
{
  __int128 delta;
  __int128 t;

  if (G_LIKELY (ticks >= clock->start_ticks && ticks - clock->start_ticks <= clock->max_delta))
    return (gint64) ((ticks - clock->start_ticks) * clock->ns_per_tick);
  delta = (__int128) ticks - (__int128) clock->start_ticks;
  if (clock->ns_per_tick != 0)
    t = delta * clock->ns_per_tick;
  else
    t = delta * 1000000000 / clock->frequency;
  return (gint64) CLAMP (t, -SPS_ETL_TIME_LIMIT, SPS_ETL_TIME_LIMIT);
}

/* GUIDs as stored (16 bytes) as hash table keys */
static inline guint
sps_etl_guid_hash (gconstpointer key)
{
  const guint8 *g = key;
  guint32 a, b;

  memcpy (&a, g, 4);
  memcpy (&b, g + 12, 4);
  return a ^ b;
}

static inline gboolean
sps_etl_guid_equal (gconstpointer a,
                    gconstpointer b)
{
  return memcmp (a, b, 16) == 0;
}

G_END_DECLS
