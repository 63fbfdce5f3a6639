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
