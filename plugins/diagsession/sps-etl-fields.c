/* sps-etl-fields.c: the fields of ETW payloads that describe themselves
 * (EventSource manifests, TraceLogging schemas), decoded as JSON
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Both descriptions name their fields with TDH's in-types, so one layout
 * (a flat list of fields, each struct followed by its members) and one
 * decoder serve both: an EventSource's manifest gives a layout per event
 * id (sps-etl-manifest.c), a TraceLogging event carries its own in an
 * extended data item. Values are written as the other ETL and .nettrace
 * args are (sps_ms_append_value()): numbers, strings, GUIDs as text;
 * times as ISO 8601 text; binary data as hex.
 *
 * A field that runs past the payload stops the decoding there: the
 * fields before it stay decoded and the payload from that field on is
 * kept raw (`payload_rest_offset`, `payload_rest_base64`). Bytes after
 * the last field are left out, as for the runtime's events (a later
 * version's fields).
 */

#define G_LOG_DOMAIN "sps-etl"

#include "config.h"

#include <string.h>

#include <spanscope-core.h>

#include "sps-etl-fields.h"
#include "sps-etl-private.h"
#include "sps-ms-events.h"

/* Structs nested deeper than this are not a real schema */
#define MAX_DEPTH 32
/* As for .nettrace args: text much longer than the payload (fields that
 * take no bytes, repeated) is kept raw instead */
#define MAX_TEXT_BASE     4096
#define MAX_TEXT_PER_BYTE 64
/* TraceLogging's out-type of a boolean stored in an integer */
#define OUT_TYPE_BOOLEAN 3

struct _SpsEtlLayout
{
  GArray   *fields;       /* SpsEtlField */
  gboolean  valid;        /* spans computed and references checked */
  gboolean  open_end;     /* a field it could not describe ends it: the
                           * bytes after the last field are kept raw */
};

/* One decoder for the JSON and for the walk that only checks sizes: a
 * walk has no @out and writes nothing, it only adds to @bound at most
 * what each write would take, so that it knows when the text could reach
 * the limit (then only the decoding can tell) */
typedef struct
{
  SpsEtlLayout *layout;
  GString      *out;      /* NULL: a walk */
  gsize         bound;    /* a walk's: at most the text so far */
  gboolean      unsure;   /* a walk's bound passed the limit */
  guint         pointer_size;
  const guint8 *end;
  gsize         limit;
  guint64      *values;   /* each top-level integer field's value */
} Decoder;

static inline void
emit_c (Decoder *d,
        char     c)
{
  if (d->out != NULL)
    g_string_append_c (d->out, c);
  else
    d->bound++;
}

/* A name or other text: escaped, each byte takes at most 6 */
static inline void
emit_name (Decoder    *d,
           const char *name)
{
  if (d->out != NULL)
    sps_json_append_string (d->out, name, -1);
  else
    d->bound += 6 * strlen (name) + 2;
}

/* Whether the text is, or a walk's could be, past the limit */
static inline gboolean
over_limit (Decoder *d)
{
  if (d->out != NULL)
    return d->out->len > d->limit;
  if (d->bound > d->limit)
    d->unsure = TRUE;
  return d->unsure;
}

static void
field_clear (gpointer data)
{
  SpsEtlField *field = data;

  g_clear_pointer (&field->name, g_free);
}

SpsEtlLayout *
sps_etl_layout_new (void)
{
  SpsEtlLayout *self = g_new0 (SpsEtlLayout, 1);

  self->fields = g_array_new (FALSE, TRUE, sizeof (SpsEtlField));
  g_array_set_clear_func (self->fields, field_clear);
  return self;
}

void
sps_etl_layout_free (SpsEtlLayout *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->fields);
  g_free (self);
}

/**
 * sps_etl_layout_add:
 * @self: a layout being described
 * @name: the field's name
 * @in_type: its in-type
 *
 * Returns: (transfer none): the field, for its counts and lengths; valid
 *   until the next field is added
 */
SpsEtlField *
sps_etl_layout_add (SpsEtlLayout *self,
                    const char   *name,
                    SpsEtlInType  in_type)
{
  SpsEtlField field = { 0, };

  g_return_val_if_fail (self != NULL, NULL);

  field.name = g_strdup (name);
  field.in_type = in_type;
  g_array_append_val (self->fields, field);
  self->valid = FALSE;
  return &g_array_index (self->fields, SpsEtlField, self->fields->len - 1);
}

guint
sps_etl_layout_get_n_fields (SpsEtlLayout *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->fields->len;
}

SpsEtlField *
sps_etl_layout_get (SpsEtlLayout *self,
                    guint         index)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (index < self->fields->len, NULL);

  return &g_array_index (self->fields, SpsEtlField, index);
}

/* The index of the top-level field @name, or -1 */
gint
sps_etl_layout_find (SpsEtlLayout *self,
                     const char   *name)
{
  g_return_val_if_fail (self != NULL, -1);

  for (guint i = 0; i < self->fields->len; i++)
    if (g_strcmp0 (g_array_index (self->fields, SpsEtlField, i).name, name) == 0)
      return (gint) i;
  return -1;
}

/**
 * sps_etl_layout_set_open_end:
 * @self: a layout
 *
 * Says that a field the description had could not be described: the
 * bytes after the last field are then kept raw rather than left out.
 */
void
sps_etl_layout_set_open_end (SpsEtlLayout *self)
{
  g_return_if_fail (self != NULL);

  self->open_end = TRUE;
}

static gboolean
is_integer (guint in_type)
{
  return (in_type >= SPS_ETL_IN_INT8 && in_type <= SPS_ETL_IN_UINT64) ||
         in_type == SPS_ETL_IN_HEXINT32 || in_type == SPS_ETL_IN_HEXINT64;
}

/* Computes the span of the field at @index; FALSE when its members run
 * past the layout or nest too deep */
static gboolean
compute_span (SpsEtlLayout *self,
              guint         index,
              guint         depth)
{
  SpsEtlField *field = &g_array_index (self->fields, SpsEtlField, index);
  guint next = index + 1;

  if (depth > MAX_DEPTH || field->in_type > SPS_ETL_IN_COUNTED_BINARY || field->in_type == SPS_ETL_IN_NULL)
    return FALSE;
  if (field->in_type == SPS_ETL_IN_STRUCT)
    for (guint m = 0; m < field->n_members; m++)
      {
        if (next >= self->fields->len || !compute_span (self, next, depth + 1))
          return FALSE;
        next += g_array_index (self->fields, SpsEtlField, next).span;
      }
  if (next - index > G_MAXUINT16)
    return FALSE;
  /* (The array may have moved: index again) */
  g_array_index (self->fields, SpsEtlField, index).span = (guint16) (next - index);
  return TRUE;
}

/* A count or length taken from an earlier top-level integer field */
static gboolean
reference_ok (SpsEtlLayout *self,
              guint         kind,
              guint         referenced,
              guint         index,
              const guint8 *top_level)
{
  const SpsEtlField *ref;

  if (kind != SPS_ETL_SIZE_FIELD)
    return TRUE;
  if (referenced >= index || !top_level[referenced])
    return FALSE;
  ref = &g_array_index (self->fields, SpsEtlField, referenced);
  return is_integer (ref->in_type) && ref->count_kind == SPS_ETL_SIZE_NONE;
}

/**
 * sps_etl_layout_is_valid:
 * @self: a layout, every field added
 *
 * Checks the description: structs' members within the layout and not
 * nested too deep, known in-types, counts and lengths read from earlier
 * top-level integer fields.
 *
 * Returns: whether payloads can be decoded by it
 */
gboolean
sps_etl_layout_is_valid (SpsEtlLayout *self)
{
  g_autofree guint8 *top_level = NULL;

  g_return_val_if_fail (self != NULL, FALSE);

  if (self->valid)
    return TRUE;
  top_level = g_malloc0 (MAX (self->fields->len, 1));
  for (guint i = 0; i < self->fields->len; i += g_array_index (self->fields, SpsEtlField, i).span)
    {
      if (!compute_span (self, i, 0))
        return FALSE;
      top_level[i] = TRUE;
    }
  for (guint i = 0; i < self->fields->len; i++)
    {
      const SpsEtlField *field = &g_array_index (self->fields, SpsEtlField, i);

      if (!reference_ok (self, field->count_kind, field->count, i, top_level) ||
          !reference_ok (self, field->length_kind, field->length, i, top_level))
        return FALSE;
    }
  self->valid = TRUE;
  return TRUE;
}

/* Decoding */

static gboolean append_field (Decoder       *d,
                              guint          index,
                              const guint8 **pos,
                              guint64       *value);

static void
append_hex (GString      *out,
            const guint8 *p,
            gsize         n)
{
  static const char digits[] = "0123456789abcdef";

  g_string_append_c (out, '"');
  for (gsize i = 0; i < n; i++)
    {
      g_string_append_c (out, digits[p[i] >> 4]);
      g_string_append_c (out, digits[p[i] & 0xf]);
    }
  g_string_append_c (out, '"');
}

/* 8-bit text: UTF-8 as it is, anything else as Latin-1 */
static void
append_ansi (GString      *out,
             const guint8 *p,
             gsize         n)
{
  g_autoptr(GString) text = NULL;

  if (g_utf8_validate ((const char *) p, (gssize) n, NULL) && memchr (p, 0, n) == NULL)
    {
      sps_json_append_string (out, (const char *) p, (gssize) n);
      return;
    }
  text = g_string_sized_new (n);
  for (gsize i = 0; i < n && p[i] != 0; i++)
    g_string_append_unichar (text, p[i]);
  sps_json_append_string (out, text->str, (gssize) text->len);
}

/* UTF-16 text of @n units; FALSE when it is not valid UTF-16 */
static gboolean
append_utf16 (GString      *out,
              const guint8 *p,
              gsize         n)
{
  g_autofree char *text = NULL;
  gsize len = 0;

  /* A fixed length may include the terminator and what follows it */
  while (len < n && sps_ms_read_u16 (p + 2 * len) != 0)
    len++;
  if (!(text = sps_ms_dup_utf16 (p, len)))
    return FALSE;
  sps_json_append_string (out, text, -1);
  return TRUE;
}

/* FILETIME (100 ns since 1601, UTC) as ISO 8601 text; out of GLib's
 * range (years 1–9999), the number */
static void
append_filetime (GString *out,
                 guint64  filetime)
{
  static const guint64 unix_epoch = G_GUINT64_CONSTANT (116444736000000000);
  g_autoptr(GDateTime) time = NULL;
  gint64 seconds;
  guint fraction;

  seconds = (gint64) (filetime / 10000000) - (gint64) (unix_epoch / 10000000);
  fraction = (guint) (filetime % 10000000);
  if ((time = g_date_time_new_from_unix_utc (seconds)) == NULL)
    {
      sps_json_append_uint64 (out, filetime);
      return;
    }
  g_string_append_printf (out, "\"%04d-%02d-%02dT%02d:%02d:%02d.%07uZ\"",
                          g_date_time_get_year (time), g_date_time_get_month (time),
                          g_date_time_get_day_of_month (time), g_date_time_get_hour (time),
                          g_date_time_get_minute (time), g_date_time_get_second (time), fraction);
}

/* SYSTEMTIME (year, month, day of week, day, hour, minute, second,
 * milliseconds; no time zone) as ISO 8601 text, or hex when a part is out
 * of its range */
static void
append_systemtime (GString      *out,
                   const guint8 *p)
{
  guint v[8];

  for (guint i = 0; i < 8; i++)
    v[i] = sps_ms_read_u16 (p + 2 * i);
  if (v[1] < 1 || v[1] > 12 || v[3] < 1 || v[3] > 31 || v[4] > 23 || v[5] > 59 || v[6] > 59 || v[7] > 999)
    {
      append_hex (out, p, 16);
      return;
    }
  g_string_append_printf (out, "\"%04u-%02u-%02uT%02u:%02u:%02u.%03u\"", v[0], v[1], v[3], v[4], v[5], v[6], v[7]);
}

/* A security identifier as S-R-A-S1-S2…; FALSE when it does not fit.
 * A walk (@out NULL) adds at most its text to *@bound. */
static gboolean
append_sid (GString       *out,
            gsize         *bound,
            const guint8 **pos,
            const guint8  *end)
{
  const guint8 *p = *pos;
  guint64 authority = 0;
  guint n;

  if (end - p < 8)
    return FALSE;
  n = p[1];
  if (n > 15 || (gsize) (end - p - 8) < 4 * (gsize) n)
    return FALSE;
  if (out == NULL)
    {
      /* "S-255-" and 20 digits, then "-" and 10 digits each, quoted */
      *bound += 2 + 6 + 20 + 11 * (gsize) n;
      *pos = p + 8 + 4 * (gsize) n;
      return TRUE;
    }
  for (guint i = 2; i < 8; i++)
    authority = authority << 8 | p[i];
  g_string_append_printf (out, "\"S-%u-%" G_GUINT64_FORMAT, p[0], authority);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (out, "-%u", sps_ms_read_u32 (p + 8 + 4 * i));
  g_string_append_c (out, '"');
  *pos = p + 8 + 4 * (gsize) n;
  return TRUE;
}

/* The integer types as the shared value decoder knows them */
static gint32
ms_type (guint in_type)
{
  switch (in_type)
    {
    case SPS_ETL_IN_INT8: return SPS_MS_TYPE_INT8;
    case SPS_ETL_IN_UINT8: return SPS_MS_TYPE_UINT8;
    case SPS_ETL_IN_INT16: return SPS_MS_TYPE_INT16;
    case SPS_ETL_IN_UINT16: return SPS_MS_TYPE_UINT16;
    case SPS_ETL_IN_INT32: return SPS_MS_TYPE_INT32;
    case SPS_ETL_IN_UINT32:
    case SPS_ETL_IN_HEXINT32:
      return SPS_MS_TYPE_UINT32;
    case SPS_ETL_IN_INT64: return SPS_MS_TYPE_INT64;
    case SPS_ETL_IN_UINT64:
    case SPS_ETL_IN_HEXINT64:
      return SPS_MS_TYPE_UINT64;
    case SPS_ETL_IN_FLOAT: return SPS_MS_TYPE_FLOAT;
    case SPS_ETL_IN_DOUBLE: return SPS_MS_TYPE_DOUBLE;
    case SPS_ETL_IN_BOOLEAN: return SPS_MS_TYPE_BOOLEAN;
    case SPS_ETL_IN_GUID: return SPS_MS_TYPE_GUID;
    case SPS_ETL_IN_POINTER: return SPS_MS_TYPE_POINTER;
    default: return -1;
    }
}

static guint
integer_size (guint in_type)
{
  switch (in_type)
    {
    case SPS_ETL_IN_INT8: case SPS_ETL_IN_UINT8: return 1;
    case SPS_ETL_IN_INT16: case SPS_ETL_IN_UINT16: return 2;
    case SPS_ETL_IN_INT32: case SPS_ETL_IN_UINT32: case SPS_ETL_IN_HEXINT32: return 4;
    default: return 8;
    }
}

/* A count or a length: fixed, a field's value or a u16 in the payload */
static gboolean
read_size (Decoder       *d,
           guint          kind,
           guint          number,
           const guint8 **pos,
           guint64       *size)
{
  switch (kind)
    {
    case SPS_ETL_SIZE_FIXED: *size = number; return TRUE;
    case SPS_ETL_SIZE_FIELD: *size = d->values[number]; return TRUE;
    case SPS_ETL_SIZE_DATA_U16:
      if (d->end - *pos < 2)
        return FALSE;
      *size = sps_ms_read_u16 (*pos);
      *pos += 2;
      return TRUE;
    case SPS_ETL_SIZE_NONE:
    default:
      return FALSE;
    }
}

/* Text or bytes whose size the description or the payload gives */
static gboolean
append_sized (Decoder           *d,
              const SpsEtlField *field,
              const guint8     **pos,
              guint              kind,
              guint              number)
{
  guint in_type = field->in_type;
  guint64 size;
  guint unit = in_type == SPS_ETL_IN_UNICODE ? 2 : 1;

  if (!read_size (d, kind, number, pos, &size))
    return FALSE;
  /* Counted strings count bytes */
  if (in_type == SPS_ETL_IN_COUNTED_UNICODE)
    size /= 2, unit = 2;
  if (size > (guint64) (d->end - *pos) / unit)
    return FALSE;
  if (d->out == NULL)
    {
      gsize len = 0;

      /* As append_utf16(): the units before a NUL, valid */
      while (unit == 2 && len < size && sps_ms_read_u16 (*pos + 2 * len) != 0)
        len++;
      if (unit == 2 && !sps_ms_utf16_is_valid (*pos, len))
        return FALSE;
      /* Hex takes 2 bytes a byte; text at most 6 a byte or unit */
      d->bound += 6 * (gsize) size + 2;
    }
  else if (unit == 2)
    {
      if (!append_utf16 (d->out, *pos, (gsize) size))
        return FALSE;
    }
  else if (in_type == SPS_ETL_IN_ANSI || in_type == SPS_ETL_IN_COUNTED_ANSI)
    append_ansi (d->out, *pos, (gsize) size);
  else
    append_hex (d->out, *pos, (gsize) size);
  *pos += size * unit;
  return TRUE;
}

/* A value of the shared decoder's types, written or walked over */
static gboolean
append_value (Decoder       *d,
              gint32         type,
              const guint8 **pos)
{
  gsize bound;

  if (d->out != NULL)
    return sps_ms_append_value (d->out, type, d->pointer_size, pos, d->end);
  if (!sps_ms_skip_value (type, d->pointer_size, pos, d->end, &bound))
    return FALSE;
  d->bound += bound;
  return TRUE;
}

/* One value of the field at @index (an element, for an array); @value
 * gets an integer's value */
static gboolean
append_element (Decoder       *d,
                guint          index,
                const guint8 **pos,
                guint64       *value)
{
  const SpsEtlField *field = &g_array_index (d->layout->fields, SpsEtlField, index);
  const guint8 *p = *pos;
  gint32 type;

  switch (field->in_type)
    {
    case SPS_ETL_IN_STRUCT:
      {
        guint member = index + 1;

        emit_c (d, '{');
        for (guint m = 0; m < field->n_members; m++)
          {
            const SpsEtlField *f = &g_array_index (d->layout->fields, SpsEtlField, member);
            guint64 ignored;

            if (m > 0)
              emit_c (d, ',');
            emit_name (d, f->name);
            emit_c (d, ':');
            if (!append_field (d, member, pos, &ignored))
              return FALSE;
            member += f->span;
          }
        emit_c (d, '}');
        return TRUE;
      }

    case SPS_ETL_IN_UNICODE:
    case SPS_ETL_IN_ANSI:
      if (field->length_kind != SPS_ETL_SIZE_NONE)
        return append_sized (d, field, pos, field->length_kind, field->length);
      if (field->in_type == SPS_ETL_IN_UNICODE)
        return append_value (d, SPS_MS_TYPE_STRING, pos);
      {
        const guint8 *nul = memchr (p, 0, (gsize) (d->end - p));

        if (nul == NULL)
          return FALSE;
        if (d->out != NULL)
          append_ansi (d->out, p, (gsize) (nul - p));
        else
          d->bound += 6 * (gsize) (nul - p) + 2;
        *pos = nul + 1;
        return TRUE;
      }

    case SPS_ETL_IN_BINARY:
      /* A manifest's binary has a length; TraceLogging's a u16 first */
      if (field->length_kind != SPS_ETL_SIZE_NONE)
        return append_sized (d, field, pos, field->length_kind, field->length);
      return append_sized (d, field, pos, SPS_ETL_SIZE_DATA_U16, 0);

    case SPS_ETL_IN_COUNTED_UNICODE:
    case SPS_ETL_IN_COUNTED_ANSI:
    case SPS_ETL_IN_COUNTED_BINARY:
      return append_sized (d, field, pos, SPS_ETL_SIZE_DATA_U16, 0);

    case SPS_ETL_IN_FILETIME:
      if (d->end - p < 8)
        return FALSE;
      if (d->out != NULL)
        append_filetime (d->out, sps_ms_read_u64 (p));
      else
        d->bound += 32;     /* "YYYY-MM-DDTHH:MM:SS.fffffffZ", quoted */
      *pos = p + 8;
      return TRUE;

    case SPS_ETL_IN_SYSTEMTIME:
      if (d->end - p < 16)
        return FALSE;
      if (d->out != NULL)
        append_systemtime (d->out, p);
      else
        d->bound += 2 + 2 * 16;   /* the hex of its 16 bytes, quoted */
      *pos = p + 16;
      return TRUE;

    case SPS_ETL_IN_SID:
      return append_sid (d->out, &d->bound, pos, d->end);

    default:
      break;
    }

  type = ms_type (field->in_type);
  if (type < 0)
    return FALSE;
  if (is_integer (field->in_type))
    {
      guint size = integer_size (field->in_type);

      if ((gsize) (d->end - p) < size)
        return FALSE;
      *value = size == 1 ? p[0] : size == 2 ? sps_ms_read_u16 (p) : size == 4 ? sps_ms_read_u32 (p) : sps_ms_read_u64 (p);
      /* TraceLogging's booleans are integers that say so */
      if (field->out_type == OUT_TYPE_BOOLEAN)
        {
          if (d->out != NULL)
            g_string_append (d->out, *value != 0 ? "true" : "false");
          else
            d->bound += 5;
          *pos = p + size;
          return TRUE;
        }
    }
  return append_value (d, type, pos);
}

/* The field at @index: its value, or its array of values */
static gboolean
append_field (Decoder       *d,
              guint          index,
              const guint8 **pos,
              guint64       *value)
{
  const SpsEtlField *field = &g_array_index (d->layout->fields, SpsEtlField, index);
  guint64 count;

  *value = 0;
  if (field->count_kind == SPS_ETL_SIZE_NONE)
    return append_element (d, index, pos, value) && !over_limit (d);

  if (!read_size (d, field->count_kind, field->count, pos, &count))
    return FALSE;
  emit_c (d, '[');
  for (guint64 k = 0; k < count; k++)
    {
      guint64 ignored;

      if (k > 0)
        emit_c (d, ',');
      /* Elements that take no bytes stop at the text's limit (a walk's
       * bound grows by the comma at least) */
      if (!append_element (d, index, pos, &ignored) || over_limit (d))
        return FALSE;
    }
  emit_c (d, ']');
  return TRUE;
}

static void
append_rest (GString      *out,
             gboolean      first,
             const guint8 *payload,
             const guint8 *rest,
             const guint8 *end)
{
  g_autofree char *base64 = g_base64_encode (rest, (gsize) (end - rest));

  if (!first)
    g_string_append_c (out, ',');
  g_string_append (out, "\"payload_rest_offset\":");
  sps_json_append_uint64 (out, (guint64) (rest - payload));
  g_string_append (out, ",\"payload_rest_base64\":\"");
  g_string_append (out, base64);
  g_string_append_c (out, '"');
}

/**
 * sps_etl_layout_append:
 * @self: a valid layout (sps_etl_layout_is_valid())
 * @out: where the JSON object is appended
 * @pointer_size: the record's pointer size, 4 or 8
 * @payload: the payload
 * @len: its size
 *
 * Appends the payload's fields as a JSON object. A field that does not
 * fit (or whose text would be far longer than the payload) ends the
 * decoding: the payload from that top-level field on is kept raw.
 *
 * Returns: whether every field was decoded
 */
SpsEtlFieldsStatus
sps_etl_layout_append (SpsEtlLayout *self,
                       GString      *out,
                       guint         pointer_size,
                       const guint8 *payload,
                       gsize         len)
{
  g_autofree guint64 *values = NULL;
  SpsEtlFieldsStatus status = SPS_ETL_FIELDS_COMPLETE;
  const guint8 *pos = payload;
  gboolean first = TRUE;
  Decoder d;

  g_return_val_if_fail (self != NULL && self->valid, SPS_ETL_FIELDS_PARTIAL);
  g_return_val_if_fail (out != NULL, SPS_ETL_FIELDS_PARTIAL);

  values = g_new0 (guint64, MAX (self->fields->len, 1));
  d.layout = self;
  d.out = out;
  d.pointer_size = pointer_size;
  d.end = payload + len;
  d.limit = out->len + MAX_TEXT_BASE + MAX_TEXT_PER_BYTE * len;
  d.values = values;

  g_string_append_c (out, '{');
  for (guint i = 0; i < self->fields->len; i += g_array_index (self->fields, SpsEtlField, i).span)
    {
      const SpsEtlField *field = &g_array_index (self->fields, SpsEtlField, i);
      const guint8 *start = pos;
      gsize at = out->len;

      if (!field->hidden)
        {
          if (!first)
            g_string_append_c (out, ',');
          sps_json_append_string (out, field->name, -1);
          g_string_append_c (out, ':');
        }
      if (!append_field (&d, i, &pos, &values[i]))
        {
          g_string_truncate (out, at);
          append_rest (out, first, payload, start, d.end);
          status = SPS_ETL_FIELDS_PARTIAL;
          first = FALSE;
          break;
        }
      if (field->hidden)
        g_string_truncate (out, at);
      else
        first = FALSE;
    }
  if (status == SPS_ETL_FIELDS_COMPLETE && self->open_end && pos < d.end)
    append_rest (out, first, payload, pos, d.end);
  g_string_append_c (out, '}');
  return status;
}

/* At most this many top-level fields are walked without an allocation */
#define WALK_VALUES 64

/**
 * sps_etl_layout_check:
 * @self: a valid layout (sps_etl_layout_is_valid())
 * @pointer_size: the record's pointer size, 4 or 8
 * @payload: the payload
 * @len: its size
 *
 * What sps_etl_layout_append() would return for the payload, found by
 * walking the fields' sizes: no text is written and no string converted
 * (UTF-16 is only checked). Only when the text of the fields could reach
 * the decoder's limit (far longer than the payload) is the payload
 * decoded to know.
 *
 * Returns: whether every field fits
 */
SpsEtlFieldsStatus
sps_etl_layout_check (SpsEtlLayout *self,
                      guint         pointer_size,
                      const guint8 *payload,
                      gsize         len)
{
  guint64 stack_values[WALK_VALUES] = { 0, };
  g_autofree guint64 *heap_values = NULL;
  const guint8 *pos = payload;
  Decoder d = { 0, };

  g_return_val_if_fail (self != NULL && self->valid, SPS_ETL_FIELDS_PARTIAL);

  if (self->fields->len > WALK_VALUES)
    heap_values = g_new0 (guint64, self->fields->len);
  d.layout = self;
  d.pointer_size = pointer_size;
  d.end = payload + len;
  d.limit = MAX_TEXT_BASE + MAX_TEXT_PER_BYTE * len;
  d.values = heap_values != NULL ? heap_values : stack_values;

  /* The object's braces, and each top-level name as the decoder writes
   * it (a hidden one too, until it is dropped) */
  d.bound = 2;
  for (guint i = 0; i < self->fields->len; i += g_array_index (self->fields, SpsEtlField, i).span)
    {
      emit_c (&d, ',');
      emit_name (&d, g_array_index (self->fields, SpsEtlField, i).name);
      emit_c (&d, ':');
      if (append_field (&d, i, &pos, &d.values[i]))
        continue;
      /* A field that does not fit fails the decoding too, there or at
       * the limit before it: its text is never longer than the bound */
      if (!d.unsure)
        return SPS_ETL_FIELDS_PARTIAL;
      {
        g_autoptr(GString) text = g_string_new (NULL);

        return sps_etl_layout_append (self, text, pointer_size, payload, len);
      }
    }
  return SPS_ETL_FIELDS_COMPLETE;
}
