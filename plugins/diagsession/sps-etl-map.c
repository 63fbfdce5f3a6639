/* sps-etl-map.c: a table of 64-bit keys to 32-bit values for the import's
 * hot lookups
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-etl"

#include "config.h"

#include "sps-etl-map.h"

#define INITIAL_SLOTS 64

/**
 * sps_etl_map_init:
 * @map: (out caller-allocates): an empty table
 */
void
sps_etl_map_init (SpsEtlMap *map)
{
  map->mask = INITIAL_SLOTS - 1;
  map->len = 0;
  map->keys = g_new (guint64, INITIAL_SLOTS);
  map->values = g_new0 (guint32, INITIAL_SLOTS);
}

/**
 * sps_etl_map_clear:
 * @map: a table, which is empty and freed afterwards
 */
void
sps_etl_map_clear (SpsEtlMap *map)
{
  g_clear_pointer (&map->keys, g_free);
  g_clear_pointer (&map->values, g_free);
  map->mask = 0;
  map->len = 0;
}

/**
 * _sps_etl_map_add:
 * @map: a table
 * @slot: the empty slot where sps_etl_map_insert()'s probe for @key ended
 * @key: a key not in @map
 * @value: its value, below G_MAXUINT32
 */
void
_sps_etl_map_add (SpsEtlMap *map,
                  guint      slot,
                  guint64    key,
                  guint32    value)
{
  g_assert (value < G_MAXUINT32);
  g_assert (map->values[slot] == 0);

  map->keys[slot] = key;
  map->values[slot] = value + 1;
  if (++map->len > (map->mask + 1) / 2)
    {
      /* Twice as many slots, the keys put in again (each is new there) */
      guint mask = map->mask * 2 + 1;
      guint64 *keys = g_new (guint64, (gsize) mask + 1);
      guint32 *values = g_new0 (guint32, (gsize) mask + 1);

      for (guint i = 0; i <= map->mask; i++)
        if (map->values[i] != 0)
          {
            for (slot = sps_etl_map_slot (map->keys[i], mask); values[slot] != 0; slot = (slot + 1) & mask)
              ;
            keys[slot] = map->keys[i];
            values[slot] = map->values[i];
          }
      g_free (map->keys);
      g_free (map->values);
      map->keys = keys;
      map->values = values;
      map->mask = mask;
    }
}
