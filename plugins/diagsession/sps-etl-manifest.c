/* sps-etl-manifest.c: the event names of an EventSource's manifest, as
 * the EventSource writes it into the trace
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A .NET EventSource logs its manifest as ManifestData events (id 0xFFFE):
 * an 8-byte envelope (format 1 = XML, major and minor version, the magic
 * 0x5B, the number of chunks and this chunk's number) and a chunk of the
 * UTF-8 XML. Once the chunks are all there, each <event> gives its id a
 * name as PerfView prints it: the task, then the opcode without its
 * "win:" prefix (Info, the default, is left out), and its template the
 * layout of its payload (sps-etl-fields.c). Chunks out of order, a bad
 * envelope or XML that does not parse leave the names unknown.
 *
 * Templates are read as TraceEvent reads them (its ProviderManifest):
 * events are found by id alone (not version); a field whose in-type it
 * does not know ends the template (the bytes after the known fields are
 * then kept raw); a win:Binary takes its size from the field before it,
 * which is not shown. Beyond TraceEvent, `count` makes a field an array
 * and `length` sizes strings and binary data (a number or an earlier
 * field), as Windows' own decoder (TDH) reads them, and SYSTEMTIME,
 * SID and the hexadecimal integers are read.
 */

#define G_LOG_DOMAIN "sps-etl"

#include "config.h"

#include <string.h>

#include "sps-etl-fields.h"
#include "sps-etl-manifest.h"
#include "sps-etl-private.h"

#define ENVELOPE_SIZE   8
#define FORMAT_XML      1
#define ENVELOPE_MAGIC  0x5B

/* A manifest larger than this is not an EventSource's */
#define MAX_MANIFEST    (16u << 20)

struct _SpsEtlManifest
{
  GByteArray *xml;            /* the chunks so far */
  guint       next_chunk;
  GHashTable *names;          /* id → "Task[/Opcode]" */
  GHashTable *layouts;        /* id → SpsEtlLayout, of the last manifest read */
  GBytes     *parsed;         /* the XML of the last manifest read */
  char       *provider_name;  /* its <provider>'s name, or NULL */
};

/* What a parse collects before the layouts are made */
typedef struct
{
  SpsEtlManifest *self;
  GHashTable     *templates;  /* tid → GPtrArray of DataElement */
  GHashTable     *event_templates; /* id → tid */
  GPtrArray      *current;    /* the template being read, or NULL */
} Parse;

typedef struct
{
  char *name;
  char *in_type;
  char *length;
  char *count;
  gboolean is_struct;         /* a <struct>: TraceEvent reads none */
} DataElement;

static void
data_element_free (gpointer data)
{
  DataElement *e = data;

  g_free (e->name);
  g_free (e->in_type);
  g_free (e->length);
  g_free (e->count);
  g_free (e);
}

SpsEtlManifest *
sps_etl_manifest_new (void)
{
  SpsEtlManifest *self = g_new0 (SpsEtlManifest, 1);

  self->xml = g_byte_array_new ();
  self->names = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->layouts = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) sps_etl_layout_free);
  return self;
}

void
sps_etl_manifest_free (SpsEtlManifest *self)
{
  if (self == NULL)
    return;
  g_byte_array_unref (self->xml);
  g_hash_table_unref (self->names);
  g_hash_table_unref (self->layouts);
  g_clear_pointer (&self->parsed, g_bytes_unref);
  g_free (self->provider_name);
  g_free (self);
}

static void
start_element (GMarkupParseContext  *context,
               const char           *element,
               const char          **names,
               const char          **values,
               gpointer              user_data,
               GError              **error)
{
  Parse *parse = user_data;
  SpsEtlManifest *self = parse->self;
  const char *value, *task, *opcode, *template;
  guint64 id;
  char *end = NULL;

  if (g_str_equal (element, "provider"))
    {
      const char *name = sps_etl_xml_attribute (names, values, "name");

      if (name != NULL && name[0] != '\0')
        {
          g_free (self->provider_name);
          self->provider_name = g_strdup (name);
        }
      return;
    }
  if (g_str_equal (element, "template"))
    {
      const char *tid = sps_etl_xml_attribute (names, values, "tid");

      parse->current = NULL;
      if (tid != NULL)
        {
          parse->current = g_ptr_array_new_with_free_func (data_element_free);
          g_hash_table_replace (parse->templates, g_strdup (tid), parse->current);
        }
      return;
    }
  if ((g_str_equal (element, "data") || g_str_equal (element, "struct")) && parse->current != NULL)
    {
      DataElement *e = g_new0 (DataElement, 1);

      e->name = g_strdup (sps_etl_xml_attribute (names, values, "name"));
      e->in_type = g_strdup (sps_etl_xml_attribute (names, values, "inType"));
      e->length = g_strdup (sps_etl_xml_attribute (names, values, "length"));
      e->count = g_strdup (sps_etl_xml_attribute (names, values, "count"));
      e->is_struct = g_str_equal (element, "struct");
      g_ptr_array_add (parse->current, e);
      return;
    }
  if (!g_str_equal (element, "event"))
    return;
  value = sps_etl_xml_attribute (names, values, "value");
  task = sps_etl_xml_attribute (names, values, "task");
  opcode = sps_etl_xml_attribute (names, values, "opcode");
  if (value == NULL || task == NULL || task[0] == '\0')
    return;
  id = g_ascii_strtoull (value, &end, 10);
  if (end == value || *end != '\0' || id > G_MAXUINT16)
    return;
  if ((template = sps_etl_xml_attribute (names, values, "template")) != NULL)
    g_hash_table_replace (parse->event_templates, GUINT_TO_POINTER ((guint) id), g_strdup (template));

  if (opcode != NULL && g_str_has_prefix (opcode, "win:"))
    opcode += 4;
  if (opcode == NULL || opcode[0] == '\0' || g_str_equal (opcode, "Info"))
    g_hash_table_replace (self->names, GUINT_TO_POINTER ((guint) id), g_strdup (task));
  else
    g_hash_table_replace (self->names, GUINT_TO_POINTER ((guint) id), g_strdup_printf ("%s/%s", task, opcode));
}

static void
end_element (GMarkupParseContext  *context,
             const char           *element,
             gpointer              user_data,
             GError              **error)
{
  Parse *parse = user_data;

  if (g_str_equal (element, "template"))
    parse->current = NULL;
}

static SpsEtlInType
in_type_from_name (const char *name)
{
  static const struct { const char *name; SpsEtlInType type; } types[] = {
    { "win:UnicodeString", SPS_ETL_IN_UNICODE }, { "win:AnsiString", SPS_ETL_IN_ANSI },
    { "win:Int8", SPS_ETL_IN_INT8 }, { "win:UInt8", SPS_ETL_IN_UINT8 },
    { "win:Int16", SPS_ETL_IN_INT16 }, { "win:UInt16", SPS_ETL_IN_UINT16 },
    { "win:Int32", SPS_ETL_IN_INT32 }, { "win:UInt32", SPS_ETL_IN_UINT32 },
    { "win:Int64", SPS_ETL_IN_INT64 }, { "win:UInt64", SPS_ETL_IN_UINT64 },
    { "win:Float", SPS_ETL_IN_FLOAT }, { "win:Double", SPS_ETL_IN_DOUBLE },
    { "win:Boolean", SPS_ETL_IN_BOOLEAN }, { "win:Binary", SPS_ETL_IN_BINARY },
    { "win:GUID", SPS_ETL_IN_GUID }, { "win:Pointer", SPS_ETL_IN_POINTER },
    { "trace:SizeT", SPS_ETL_IN_POINTER }, { "win:FILETIME", SPS_ETL_IN_FILETIME },
    { "win:SYSTEMTIME", SPS_ETL_IN_SYSTEMTIME }, { "win:SID", SPS_ETL_IN_SID },
    { "win:HexInt32", SPS_ETL_IN_HEXINT32 }, { "win:HexInt64", SPS_ETL_IN_HEXINT64 },
  };

  for (guint i = 0; name != NULL && i < G_N_ELEMENTS (types); i++)
    if (g_str_equal (name, types[i].name))
      return types[i].type;
  return SPS_ETL_IN_NULL;
}

/* A count or length attribute: a number, or the name of an earlier
 * field; FALSE when it is neither */
static gboolean
size_from_attribute (SpsEtlLayout *layout,
                     const char   *text,
                     guint8       *kind,
                     guint16      *number)
{
  guint64 value;
  gint index;

  if (text == NULL)
    return TRUE;
  if (g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT16, &value, NULL))
    {
      *kind = SPS_ETL_SIZE_FIXED;
      *number = (guint16) value;
      return TRUE;
    }
  if ((index = sps_etl_layout_find (layout, text)) < 0)
    return FALSE;
  *kind = SPS_ETL_SIZE_FIELD;
  *number = (guint16) index;
  return TRUE;
}

/* The layout of a template's <data> elements (see the file's head) */
static SpsEtlLayout *
layout_from_template (GPtrArray *elements)
{
  g_autoptr(SpsEtlLayout) layout = sps_etl_layout_new ();

  for (guint i = 0; i < elements->len && i < G_MAXUINT16; i++)
    {
      const DataElement *e = g_ptr_array_index (elements, i);
      SpsEtlInType type = in_type_from_name (e->in_type);
      guint n = sps_etl_layout_get_n_fields (layout);
      SpsEtlField *field;
      guint8 length_kind = SPS_ETL_SIZE_NONE, count_kind = SPS_ETL_SIZE_NONE;
      guint16 length = 0, count = 0;

      if (e->is_struct || type == SPS_ETL_IN_NULL || e->name == NULL ||
          !size_from_attribute (layout, e->length, &length_kind, &length) ||
          !size_from_attribute (layout, e->count, &count_kind, &count) ||
          (type == SPS_ETL_IN_BINARY && length_kind == SPS_ETL_SIZE_NONE))
        {
          sps_etl_layout_set_open_end (layout);
          break;
        }
      /* TraceEvent shows a binary's length field (the one just before
       * it, a 32-bit integer) as the binary alone */
      if (type == SPS_ETL_IN_BINARY && length_kind == SPS_ETL_SIZE_FIELD && length + 1 == n)
        {
          SpsEtlField *prev = sps_etl_layout_get (layout, length);

          if (prev->in_type == SPS_ETL_IN_INT32 || prev->in_type == SPS_ETL_IN_UINT32)
            prev->hidden = TRUE;
        }
      field = sps_etl_layout_add (layout, e->name, type);
      field->length_kind = length_kind;
      field->length = length;
      field->count_kind = count_kind;
      field->count = count;
    }
  if (!sps_etl_layout_is_valid (layout))
    return NULL;
  return g_steal_pointer (&layout);
}

static void
parse (SpsEtlManifest *self)
{
  static const GMarkupParser parser = { start_element, end_element, NULL, NULL, NULL };
  g_autoptr(GMarkupParseContext) context = NULL;
  Parse state = { self, NULL, NULL, NULL };
  GHashTableIter iter;
  gpointer id, tid;

  if (!g_utf8_validate ((const char *) self->xml->data, self->xml->len, NULL))
    return;
  state.templates = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  state.event_templates = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  context = g_markup_parse_context_new (&parser, G_MARKUP_PREFIX_ERROR_POSITION, &state, NULL);
  /* What parsed before an error keeps its names and layouts */
  if (g_markup_parse_context_parse (context, (const char *) self->xml->data, self->xml->len, NULL))
    g_markup_parse_context_end_parse (context, NULL);

  /* A new table: the old one may be in use by a decoder */
  g_hash_table_unref (self->layouts);
  self->layouts = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) sps_etl_layout_free);
  g_hash_table_iter_init (&iter, state.event_templates);
  while (g_hash_table_iter_next (&iter, &id, &tid))
    {
      GPtrArray *elements = g_hash_table_lookup (state.templates, tid);
      SpsEtlLayout *layout;

      if (elements != NULL && (layout = layout_from_template (elements)) != NULL)
        g_hash_table_replace (self->layouts, id, layout);
    }
  g_hash_table_unref (state.templates);
  g_hash_table_unref (state.event_templates);
}

/**
 * sps_etl_manifest_add_chunk:
 * @self: a provider's manifest
 * @payload: a ManifestData event's payload
 * @len: its size
 *
 * Returns: %TRUE when the chunk completed a manifest other than the last
 *   one read (its names are known from then on); the same manifest again
 *   (written at the start of a session and at its end) is not read again
 */
gboolean
sps_etl_manifest_add_chunk (SpsEtlManifest *self,
                            const guint8   *payload,
                            gsize           len)
{
  guint total, chunk;

  g_return_val_if_fail (self != NULL, FALSE);

  if (len < ENVELOPE_SIZE || payload[0] != FORMAT_XML || payload[3] != ENVELOPE_MAGIC)
    return FALSE;
  total = sps_ms_read_u16 (payload + 4);
  chunk = sps_ms_read_u16 (payload + 6);
  if (chunk >= total)
    return FALSE;
  /* A manifest starts again at its chunk 0 (it is written at the start
   * of a session and again at its end) */
  if (chunk == 0)
    {
      g_byte_array_set_size (self->xml, 0);
      self->next_chunk = 0;
    }
  if (chunk != self->next_chunk || self->xml->len + (len - ENVELOPE_SIZE) > MAX_MANIFEST)
    {
      g_byte_array_set_size (self->xml, 0);
      self->next_chunk = G_MAXUINT;
      return FALSE;
    }
  g_byte_array_append (self->xml, payload + ENVELOPE_SIZE, (guint) (len - ENVELOPE_SIZE));
  self->next_chunk++;
  if (self->next_chunk < total)
    return FALSE;

  if (self->parsed != NULL && g_bytes_get_size (self->parsed) == self->xml->len &&
      memcmp (g_bytes_get_data (self->parsed, NULL), self->xml->data, self->xml->len) == 0)
    {
      g_byte_array_set_size (self->xml, 0);
      self->next_chunk = G_MAXUINT;
      return FALSE;
    }
  parse (self);
  g_clear_pointer (&self->parsed, g_bytes_unref);
  self->parsed = g_bytes_new (self->xml->data, self->xml->len);
  g_byte_array_set_size (self->xml, 0);
  self->next_chunk = G_MAXUINT;
  return TRUE;
}

/**
 * sps_etl_manifest_lookup:
 * @self: a provider's manifest
 * @id: an event id
 *
 * Returns: (nullable): the event's "Task[/Opcode]" name, or %NULL
 */
const char *
sps_etl_manifest_lookup (SpsEtlManifest *self,
                         guint           id)
{
  g_return_val_if_fail (self != NULL, NULL);

  return g_hash_table_lookup (self->names, GUINT_TO_POINTER (id));
}

/**
 * sps_etl_manifest_get_provider_name:
 * @self: a provider's manifest
 *
 * Returns: (nullable): the name the manifest gives its provider (an
 *   EventSource's name), or %NULL before a manifest that names it
 */
const char *
sps_etl_manifest_get_provider_name (SpsEtlManifest *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->provider_name;
}

/**
 * sps_etl_manifest_ref_layouts:
 * @self: a provider's manifest
 *
 * The payload layouts of the last manifest read, by event id. The table
 * is not changed after it is made: a manifest read again makes a new one.
 *
 * Returns: (transfer full): a reference to the table (id → SpsEtlLayout)
 */
GHashTable *
sps_etl_manifest_ref_layouts (SpsEtlManifest *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return g_hash_table_ref (self->layouts);
}
