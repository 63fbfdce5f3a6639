/* sps-etl-map.h: a table of 64-bit keys to 32-bit values for the import's
 * hot lookups
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Open addressing over two arrays, at most half full: a lookup is a
 * multiply and a compare or two where a GHashTable of 64-bit keys calls
 * its hash and equality functions through pointers (the import asks for
 * a thread, an event's name or a frame once per record, millions of
 * times). Values are stored + 1: 0 marks an empty slot. */
typedef struct
{
  guint64 *keys;
  guint32 *values;
  guint    mask;            /* slots − 1 */
  guint    len;             /* keys in it */
} SpsEtlMap;

void sps_etl_map_init   (SpsEtlMap *map);
void sps_etl_map_clear  (SpsEtlMap *map);
void _sps_etl_map_add   (SpsEtlMap *map,
                         guint      slot,
                         guint64    key,
                         guint32    value);

static inline guint
sps_etl_map_slot (guint64 key,
                  guint   mask)
{
  return (guint) ((key * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)) >> 32) & mask;
}

/* Whether @key is in @map, and its value in *@value when it is */
static inline gboolean
sps_etl_map_lookup (const SpsEtlMap *map,
                    guint64          key,
                    guint32         *value)
{
  for (guint slot = sps_etl_map_slot (key, map->mask); map->values[slot] != 0; slot = (slot + 1) & map->mask)
    if (map->keys[slot] == key)
      {
        *value = map->values[slot] - 1;
        return TRUE;
      }
  return FALSE;
}

/* Gives @key the @value (below G_MAXUINT32), replacing the one it had: a
 * replacement in place here (a thread's latest sample, once per sample),
 * a new key in _sps_etl_map_add() */
static inline void
sps_etl_map_insert (SpsEtlMap *map,
                    guint64    key,
                    guint32    value)
{
  guint slot;

  for (slot = sps_etl_map_slot (key, map->mask); map->values[slot] != 0; slot = (slot + 1) & map->mask)
    if (map->keys[slot] == key)
      {
        map->values[slot] = value + 1;
        return;
      }
  _sps_etl_map_add (map, slot, key, value);
}

G_END_DECLS
