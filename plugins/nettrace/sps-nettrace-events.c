/* sps-nettrace-events.c: every .nettrace event kept as an instant with its fields
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A metadata record describes one event type: its provider, id, name,
 * version, opcode (a V5 tag) and its fields (V1 descriptors, or the V5
 * V2Params tag that adds arrays). Each type is parsed once; each event's
 * payload is then decoded with it into a JSON object of its fields. The
 * runtime's own providers describe no fields: their payloads are kept as
 * raw bytes, and their names come from the manifest (sps-ms-events.c).
 * Everything read is checked against the record's or the payload's end;
 * a payload that does not fit its description is kept raw.
 */

#define G_LOG_DOMAIN "sps-nettrace"

#include "config.h"

#include "sps-ms-events.h"
#include "sps-ms-memory.h"
#include "sps-ms-profiler.h"
#include "sps-nettrace-loader-private.h"

/* Nesting of Object fields the decoder follows; writers nest one level */
#define MAX_FIELD_DEPTH 8

/* The most JSON an event's fields may make: this much, plus this much per
 * payload byte (a 1-byte field with a 60-character name makes 66) */
#define MAX_ARGS_BASE     4096
#define MAX_ARGS_PER_BYTE 64

/* EventPipe's type codes that this file handles itself; the others are
 * values sps_ms_append_value() reads */
enum
{
  TYPE_OBJECT = 1,
  TYPE_CHAR   = SPS_MS_TYPE_CHAR,
  TYPE_ARRAY  = 19,
};

typedef struct _Field Field;

struct _Field
{
  char      *name;
  gint32     type;
  gint32     element_type;    /* of an array */
  GPtrArray *children;        /* Field, of an Object (or an array of them) */
};

struct _SpsNettraceEventType
{
  SpsMsProvider       manifest;       /* the runtime's providers */
  SpsMsMemoryEvent    memory;         /* a heap event (sps-ms-memory.c) */
  guint32             provider;
  guint32             name;
  SpsEventDescriptor  descriptor;
  GPtrArray          *fields;         /* Field; NULL: none described */
};

static void
field_free (gpointer data)
{
  Field *field = data;

  g_free (field->name);
  g_clear_pointer (&field->children, g_ptr_array_unref);
  g_free (field);
}

void
sps_nettrace_event_type_free (gpointer data)
{
  SpsNettraceEventType *type = data;

  if (type == NULL)
    return;
  g_clear_pointer (&type->fields, g_ptr_array_unref);
  g_free (type);
}

typedef Field *(*ReadFieldFunc) (const guint8 **pos,
                                 const guint8  *end,
                                 guint          depth);

static gboolean read_fields (const guint8  **pos,
                             const guint8   *end,
                             guint           depth,
                             gsize           min_size,
                             ReadFieldFunc   read_field,
                             GPtrArray     **out);
static Field   *read_v1_field (const guint8 **pos,
                               const guint8  *end,
                               guint          depth);
static Field   *read_v2_field (const guint8 **pos,
                               const guint8  *end,
                               guint          depth);

/* A count, then that many descriptors of one form; @min_size is the least
 * a descriptor takes, so that a count the record cannot hold fails before
 * anything is allocated */
static gboolean
read_fields (const guint8  **pos,
             const guint8   *end,
             guint           depth,
             gsize           min_size,
             ReadFieldFunc   read_field,
             GPtrArray     **out)
{
  g_autoptr(GPtrArray) fields = NULL;
  const guint8 *p = *pos;
  guint32 count;

  if (depth > MAX_FIELD_DEPTH || end - p < 4)
    return FALSE;
  count = sps_ms_read_u32 (p);
  p += 4;
  if (count > (gsize) (end - p) / min_size)
    return FALSE;

  fields = g_ptr_array_new_with_free_func (field_free);
  for (guint32 i = 0; i < count; i++)
    {
      Field *field = read_field (&p, end, depth);

      if (field == NULL)
        return FALSE;
      g_ptr_array_add (fields, field);
    }

  *out = g_steal_pointer (&fields);
  *pos = p;
  return TRUE;
}

/* V1: a descriptor is at least its type and an empty name */
#define V1_MIN_SIZE 6
/* V2Params: at least its size, an empty name and a type */
#define V2_MIN_SIZE 10

/* One V1 descriptor: type, (nested fields of an Object), name */
static Field *
read_v1_field (const guint8 **pos,
               const guint8  *end,
               guint          depth)
{
  g_autoptr(GPtrArray) children = NULL;
  const guint8 *p = *pos;
  Field *field;
  gint32 type;
  char *name;

  if (end - p < 4)
    return NULL;
  type = (gint32) sps_ms_read_u32 (p);
  p += 4;
  if (type == TYPE_OBJECT && !read_fields (&p, end, depth + 1, V1_MIN_SIZE, read_v1_field, &children))
    return NULL;
  if (!(name = sps_clr_read_utf16z (&p, end)))
    return NULL;

  field = g_new0 (Field, 1);
  field->name = name;
  field->type = type;
  field->children = g_steal_pointer (&children);
  *pos = p;
  return field;
}

/* One V2Params descriptor: size (counting itself), name, type, the element
 * type of an array, nested fields of an Object, padding up to the size */
static Field *
read_v2_field (const guint8 **pos,
               const guint8  *end,
               guint          depth)
{
  g_autoptr(GPtrArray) children = NULL;
  const guint8 *p = *pos;
  const guint8 *field_end;
  gint32 type, element_type = 0;
  guint32 size;
  Field *field;
  char *name;

  if (end - p < 4)
    return NULL;
  size = sps_ms_read_u32 (p);
  if (size < 4 || size > (gsize) (end - p))
    return NULL;
  field_end = p + size;
  p += 4;
  if (!(name = sps_clr_read_utf16z (&p, field_end)))
    return NULL;
  if (field_end - p < 4)
    goto bad;
  type = (gint32) sps_ms_read_u32 (p);
  p += 4;
  if (type == TYPE_ARRAY)
    {
      if (field_end - p < 4)
        goto bad;
      element_type = (gint32) sps_ms_read_u32 (p);
      p += 4;
    }
  if ((type == TYPE_OBJECT || element_type == TYPE_OBJECT) &&
      !read_fields (&p, field_end, depth + 1, V2_MIN_SIZE, read_v2_field, &children))
    goto bad;

  field = g_new0 (Field, 1);
  field->name = name;
  field->type = type;
  field->element_type = element_type;
  field->children = g_steal_pointer (&children);
  *pos = field_end;
  return field;

bad:
  g_free (name);
  return NULL;
}

static const char *
opcode_name (guint  opcode,
             char  *buffer,
             gsize  size)
{
  /* The standard opcodes PerfView names; others print as their number */
  switch (opcode)
    {
    case 1: return "Start";
    case 2: return "Stop";
    default:
      g_snprintf (buffer, size, "%u", opcode);
      return buffer;
    }
}

/* `Provider/Task/Opcode` from the manifest for the runtime's providers,
 * else `Provider/EventName[/Opcode]` from the metadata, else
 * `Provider/EventID(N)` */
static char *
dup_event_name (const char *provider,
                const char *event_name,
                guint       id,
                guint       opcode)
{
  const char *known = sps_ms_manifest_event_name (sps_ms_provider_from_name (provider), id);
  char number[16];

  if (known != NULL)
    return g_strdup_printf ("%s/%s", provider, known);
  if (event_name == NULL || event_name[0] == '\0')
    return g_strdup_printf ("%s/EventID(%u)", provider, id);
  if (opcode != 0)
    return g_strdup_printf ("%s/%s/%s", provider, event_name,
                            opcode_name (opcode, number, sizeof number));
  return g_strdup_printf ("%s/%s", provider, event_name);
}

/**
 * sps_nettrace_parse_event_type:
 * @self: the loader
 * @provider: the provider's name
 * @event_id: the event's id
 * @p: the metadata record after its event id
 * @end: the record's end
 *
 * Reads the rest of a metadata record (name, keywords, version, level,
 * fields and V5 tags). A record cut short keeps what was read before the
 * cut: the name and ids, without fields.
 *
 * Returns: (transfer full): the event type
 */
SpsNettraceEventType *
sps_nettrace_parse_event_type (Loader       *self,
                               const char   *provider,
                               gint32        event_id,
                               const guint8 *p,
                               const guint8 *end)
{
  g_autofree char *event_name = NULL;
  g_autofree char *full_name = NULL;
  g_autoptr(GPtrArray) fields = NULL;
  SpsNettraceEventType *type;
  guint32 version = 0;
  guint opcode = 0;

  g_assert (self != NULL);
  g_assert (provider != NULL);

  if ((event_name = sps_clr_read_utf16z (&p, end)) != NULL && end - p >= 16)
    {
      /* Keywords (8), version (4), level (4) */
      version = sps_ms_read_u32 (p + 8);
      p += 16;
      if (p < end && !read_fields (&p, end, 0, V1_MIN_SIZE, read_v1_field, &fields))
        p = end;
      /* V5 tags fill the rest of the record */
      while (end - p >= 5)
        {
          guint32 size = sps_ms_read_u32 (p);
          guint8 kind = p[4];
          const guint8 *tag = p + 5;

          if (size > (gsize) (end - tag))
            break;
          if (kind == 1 && size >= 1)
            opcode = tag[0];
          else if (kind == 2)
            {
              const guint8 *q = tag;

              g_clear_pointer (&fields, g_ptr_array_unref);
              if (!read_fields (&q, tag + size, 0, V2_MIN_SIZE, read_v2_field, &fields))
                g_clear_pointer (&fields, g_ptr_array_unref);
            }
          p = tag + size;
        }
    }

  full_name = dup_event_name (provider, event_name, (guint) event_id & 0xffff, opcode);
  type = g_new0 (SpsNettraceEventType, 1);
  type->manifest = sps_ms_provider_from_name (provider);
  type->memory = sps_ms_memory_classify (type->manifest, provider, (guint) event_id & 0xffff);
  type->provider = sps_trace_builder_intern (self->builder, provider, -1);
  type->name = sps_trace_builder_intern (self->builder, full_name, -1);
  type->descriptor = SPS_EVENT_DESCRIPTOR (event_id, version, opcode);
  if (fields != NULL && fields->len > 0)
    type->fields = g_steal_pointer (&fields);
  return type;
}

static gboolean append_fields (GString       *out,
                               GPtrArray     *fields,
                               const guint8 **pos,
                               const guint8  *end,
                               guint          pointer_size,
                               gsize          limit);

/* One value of @type (not an array), as JSON */
static gboolean
append_value (GString       *out,
              const Field   *field,
              gint32         type,
              const guint8 **pos,
              const guint8  *end,
              guint          pointer_size,
              gsize          limit)
{
  if (type == TYPE_OBJECT)
    return field->children != NULL && append_fields (out, field->children, pos, end, pointer_size, limit);
  return sps_ms_append_value (out, type, pointer_size, pos, end);
}

/* Fails as soon as the text is longer than @limit */
static gboolean
append_fields (GString       *out,
               GPtrArray     *fields,
               const guint8 **pos,
               const guint8  *end,
               guint          pointer_size,
               gsize          limit)
{
  g_string_append_c (out, '{');
  for (guint i = 0; i < fields->len; i++)
    {
      const Field *field = g_ptr_array_index (fields, i);

      if (i > 0)
        g_string_append_c (out, ',');
      sps_json_append_string (out, field->name, -1);
      g_string_append_c (out, ':');

      if (field->type == TYPE_ARRAY)
        {
          guint16 count;

          /* Arrays are a u16 count, then the elements */
          if (end - *pos < 2)
            return FALSE;
          count = sps_ms_read_u16 (*pos);
          *pos += 2;
          /* A char array is text, as PerfView shows it */
          if (field->element_type == TYPE_CHAR)
            {
              g_autofree char *text = NULL;

              if ((gsize) (end - *pos) / 2 < count)
                return FALSE;
              if (!(text = sps_ms_dup_utf16 (*pos, count)))
                return FALSE;
              *pos += 2 * (gsize) count;
              sps_json_append_string (out, text, -1);
              continue;
            }
          g_string_append_c (out, '[');
          for (guint k = 0; k < count; k++)
            {
              if (k > 0)
                g_string_append_c (out, ',');
              if (!append_value (out, field, field->element_type, pos, end, pointer_size, limit) ||
                  out->len > limit)
                return FALSE;
            }
          g_string_append_c (out, ']');
        }
      else if (!append_value (out, field, field->type, pos, end, pointer_size, limit) || out->len > limit)
        return FALSE;
    }
  g_string_append_c (out, '}');
  return TRUE;
}

/**
 * sps_nettrace_add_event:
 * @self: the loader
 * @type: the event's type, from its metadata
 * @thread: the builder's thread index
 * @ts: the event's time
 * @payload: its payload
 * @len: the payload's size
 *
 * Keeps one event as an instant, its fields decoded when its metadata
 * describes them (and they fit the payload), else its raw bytes.
 */
void
sps_nettrace_add_event (Loader                     *self,
                        const SpsNettraceEventType *type,
                        guint32                     thread,
                        SpsTime                     ts,
                        const guint8               *payload,
                        gsize                       len)
{
  SpsArgsRef args = SPS_ARGS_REF_NONE;

  g_assert (self != NULL);
  g_assert (type != NULL);

  g_string_truncate (self->scratch, 0);
  /* Visual Studio's allocation provider writes its arrays unlike its
   * metadata: read as the allocations read them */
  if (sps_ms_profiler_append_args (self->scratch, type->memory, SPS_EVENT_DESCRIPTOR_VERSION (type->descriptor),
                                   payload, len))
    args = sps_trace_builder_add_args_text (self->builder, self->scratch->str, (gssize) self->scratch->len);
  else if (type->fields != NULL)
    {
      const guint8 *p = payload;

      g_string_truncate (self->scratch, 0);
      /* Fields that take no bytes (empty objects, and arrays of them)
       * could make megabytes of text of every tiny event: text much
       * longer than a field name per byte is kept raw instead */
      if (append_fields (self->scratch, type->fields, &p, payload + len, self->pointer_size,
                         MAX_ARGS_BASE + MAX_ARGS_PER_BYTE * (gsize) len))
        args = sps_trace_builder_add_args_text (self->builder, self->scratch->str,
                                                (gssize) self->scratch->len);
      else
        args = sps_ms_add_raw_payload_args (self->builder, self->scratch, payload, len);
    }
  else if (len > 0)
    {
      guint n_fields;
      const SpsMsField *fields = sps_ms_manifest_fields (type->manifest,
                                                         SPS_EVENT_DESCRIPTOR_ID (type->descriptor),
                                                         SPS_EVENT_DESCRIPTOR_VERSION (type->descriptor),
                                                         &n_fields);

      /* The runtime's events describe no fields: the manifest's layout */
      g_string_truncate (self->scratch, 0);
      if (fields != NULL &&
          sps_ms_append_fields (self->scratch, fields, n_fields, self->pointer_size, payload, len))
        args = sps_trace_builder_add_args_text (self->builder, self->scratch->str,
                                                (gssize) self->scratch->len);
      else
        args = sps_ms_add_raw_payload_args (self->builder, self->scratch, payload, len);
    }

  sps_trace_builder_add_event (self->builder, thread, ts, type->provider, type->name,
                               type->descriptor, args);
}

/**
 * sps_nettrace_add_memory_event:
 * @self: the loader
 * @type: the event's type, from its metadata
 * @thread: the builder's thread index
 * @ts: the event's time
 * @payload: its payload
 * @len: the payload's size
 * @offset: the event's byte offset in the file
 *
 * Hands a heap event (allocations, deaths, types, GCs) to the shared
 * decoder of .NET heap events.
 *
 * Returns: the allocation it added, or %SPS_NO_INDEX
 */
guint32
sps_nettrace_add_memory_event (Loader                     *self,
                               const SpsNettraceEventType *type,
                               guint32                     thread,
                               SpsTime                     ts,
                               const guint8               *payload,
                               gsize                       len,
                               gsize                       offset)
{
  g_assert (self != NULL);
  g_assert (type != NULL);

  if (type->memory == SPS_MS_MEMORY_NONE)
    return SPS_NO_INDEX;
  return sps_ms_memory_add (self->memory, type->memory, SPS_EVENT_DESCRIPTOR_VERSION (type->descriptor),
                            self->pointer_size, self->process, thread, ts, payload, len, offset);
}
