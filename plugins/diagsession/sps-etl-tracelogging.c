/* sps-etl-tracelogging.c: what a TraceLogging event says of itself
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * An EventHeader record's extended data items: the event's schema (its
 * name and fields, made into an SpsEtlLayout that sps-etl-fields.c
 * decodes) and the provider's traits (its name).
 */

#define G_LOG_DOMAIN "sps-etl"

#include "config.h"

#include <string.h>

#include <spanscope-core.h>

#include "sps-etl-fields.h"
#include "sps-etl-private.h"

#define EXT_TYPE_TRACELOGGING_SCHEMA 11
#define EXT_TYPE_PROVIDER_TRAITS     12

/**
 * sps_etl_record_find_item:
 * @record: an EventHeader record
 * @item_type: an extended data item's type
 * @len: (out): its size
 *
 * Returns: (nullable): the data of the record's first extended data item
 *   of @item_type, or %NULL
 */
const guint8 *
sps_etl_record_find_item (const SpsEtlRecord *record,
                          guint               item_type,
                          gsize              *len)
{
  const guint8 *p = record->extended;
  const guint8 *end;

  /* A record without extended items has no pointer to offset */
  if (p == NULL)
    return NULL;
  end = p + record->extended_len;

  while (end - p >= 8)
    {
      guint16 type = sps_ms_read_u16 (p + 2);
      guint16 flags = sps_ms_read_u16 (p + 4);
      gsize size = sps_ms_read_u16 (p + 6);
      const guint8 *data = p + 8;

      if (size > (gsize) (end - data))
        return NULL;
      if (type == item_type)
        {
          *len = size;
          return data;
        }
      if ((flags & 0x0001) == 0)
        break;
      /* Items are 8-byte aligned */
      p = data + ((size + 7) & ~(gsize) 7);
    }
  return NULL;
}

/**
 * sps_etl_find_tracelogging_schema:
 * @record: an EventHeader record
 * @len: (out): the schema's size
 *
 * Returns: (nullable): the TraceLogging schema among the record's
 *   extended data items (item 11), or %NULL
 */
const guint8 *
sps_etl_find_tracelogging_schema (const SpsEtlRecord *record,
                                  gsize              *len)
{
  return sps_etl_record_find_item (record, EXT_TYPE_TRACELOGGING_SCHEMA, len);
}

/* A NUL-terminated UTF-8 name at @p; NULL when there is none */
static char *
read_name (const guint8 **p,
           const guint8  *end)
{
  const guint8 *nul = *p < end ? memchr (*p, 0, (gsize) (end - *p)) : NULL;
  char *name;

  if (nul == NULL || !g_utf8_validate ((const char *) *p, nul - *p, NULL))
    return NULL;
  name = g_strndup ((const char *) *p, (gsize) (nul - *p));
  *p = nul + 1;
  return name;
}

/* TraceLogging's in-type byte: the type in bits 0–4, how an array is
 * counted in bits 5–6, an out-type byte following in bit 7 */
#define TLG_TYPE_MASK  0x1f
#define TLG_COUNT_MASK 0x60
#define TLG_CCOUNT     0x20   /* a u16 count in the schema */
#define TLG_VCOUNT     0x40   /* a u16 count in the payload */
#define TLG_CUSTOM     0x60   /* a u16 size and a schema of its own */
#define TLG_CHAIN      0x80

/**
 * sps_etl_dup_provider_name:
 * @record: an EventHeader record
 *
 * The provider's name that a TraceLogging provider writes in its
 * traits (extended data item 12: a u16 size, then the name in UTF-8),
 * as PerfView names such providers.
 *
 * Returns: (transfer full) (nullable): the name, or %NULL
 */
char *
sps_etl_dup_provider_name (const SpsEtlRecord *record)
{
  gsize len = 0;
  const guint8 *traits = sps_etl_record_find_item (record, EXT_TYPE_PROVIDER_TRAITS, &len);
  const guint8 *p;
  char *name;

  if (traits == NULL || len < 3)
    return NULL;
  p = traits + 2;
  name = read_name (&p, traits + MIN (len, (gsize) MAX (sps_ms_read_u16 (traits), 2)));
  if (name != NULL && name[0] == '\0')
    g_clear_pointer (&name, g_free);
  return name;
}

/**
 * sps_etl_tracelogging_event_name:
 * @schema: a TraceLogging schema item (sps_etl_find_tracelogging_schema())
 * @len: its size
 * @fields: (out) (optional): where the fields' descriptions start
 * @fields_end: (out) (optional): where they end
 *
 * Reads the schema's head: its size (u16), tag bytes (bit 7 set on all
 * but the last), then the event's name.
 *
 * Returns: (transfer full) (nullable): the event's name, or %NULL when
 *   the schema has none
 */
char *
sps_etl_tracelogging_event_name (const guint8  *schema,
                                 gsize          len,
                                 const guint8 **fields,
                                 const guint8 **fields_end)
{
  const guint8 *p = schema + 2;
  const guint8 *end;
  char *name;

  if (len < 3)
    return NULL;
  end = schema + MIN (len, (gsize) MAX (sps_ms_read_u16 (schema), 2));
  while (p < end && (*p++ & 0x80) != 0)
    ;
  if (!(name = read_name (&p, end)) || name[0] == '\0')
    {
      g_free (name);
      return NULL;
    }
  if (fields != NULL)
    *fields = p;
  if (fields_end != NULL)
    *fields_end = end;
  return name;
}

/**
 * sps_etl_layout_new_tracelogging:
 * @schema: a TraceLogging schema item (sps_etl_find_tracelogging_schema())
 * @len: its size
 * @event_name: (out) (optional): the event's name
 *
 * Reads the schema: its head (sps_etl_tracelogging_event_name()), then
 * each field: name, in-type, out-type and its tags when bit 7 says so, a
 * u16 count for constant-count arrays; a struct's out-type is its
 * number of members, which follow it.
 *
 * Returns: (transfer full) (nullable): the layout, valid, or %NULL when
 *   the schema is malformed (@event_name is still set when it was read)
 */
SpsEtlLayout *
sps_etl_layout_new_tracelogging (const guint8  *schema,
                                 gsize          len,
                                 char         **event_name)
{
  g_autoptr(SpsEtlLayout) layout = sps_etl_layout_new ();
  const guint8 *p = NULL;
  const guint8 *end = NULL;
  char *name = sps_etl_tracelogging_event_name (schema, len, &p, &end);

  if (event_name != NULL)
    *event_name = name;
  if (name == NULL)
    return NULL;
  if (event_name == NULL)
    g_free (name);

  while (p < end)
    {
      g_autofree char *field_name = read_name (&p, end);
      SpsEtlField *field;
      guint8 in, out = 0;

      if (field_name == NULL || p >= end)
        return NULL;
      in = *p++;
      if ((in & TLG_CHAIN) != 0)
        {
          if (p >= end)
            return NULL;
          out = *p++;
          /* Field tags follow while bit 7 is set */
          for (guint8 b = out; (b & 0x80) != 0; )
            {
              if (p >= end)
                return NULL;
              b = *p++;
            }
        }
      field = sps_etl_layout_add (layout, field_name, in & TLG_TYPE_MASK);
      field->out_type = out & 0x7f;
      if (field->in_type == SPS_ETL_IN_STRUCT)
        field->n_members = out & 0x7f;
      switch (in & TLG_COUNT_MASK)
        {
        case TLG_CCOUNT:
          if (end - p < 2)
            return NULL;
          field->count_kind = SPS_ETL_SIZE_FIXED;
          field->count = sps_ms_read_u16 (p);
          p += 2;
          break;
        case TLG_VCOUNT:
          field->count_kind = SPS_ETL_SIZE_DATA_U16;
          break;
        case TLG_CUSTOM:
          {
            guint16 size;

            /* A serializer's own schema: the payload has a u16 size and
             * the bytes, kept as bytes */
            if (end - p < 2 || (size = sps_ms_read_u16 (p)) > (gsize) (end - p - 2))
              return NULL;
            p += 2 + size;
            field->in_type = SPS_ETL_IN_COUNTED_BINARY;
          }
          break;
        default:
          break;
        }
    }
  if (!sps_etl_layout_is_valid (layout))
    return NULL;
  return g_steal_pointer (&layout);
}
