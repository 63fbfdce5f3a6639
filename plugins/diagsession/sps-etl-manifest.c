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
 * "win:" prefix (Info, the default, is left out). Chunks out of order,
 * a bad envelope or XML that does not parse leave the names unknown.
 */

#define G_LOG_DOMAIN "sps-etl"

#include "config.h"

#include <string.h>

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
};

SpsEtlManifest *
sps_etl_manifest_new (void)
{
  SpsEtlManifest *self = g_new0 (SpsEtlManifest, 1);

  self->xml = g_byte_array_new ();
  self->names = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  return self;
}

void
sps_etl_manifest_free (SpsEtlManifest *self)
{
  if (self == NULL)
    return;
  g_byte_array_unref (self->xml);
  g_hash_table_unref (self->names);
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
  SpsEtlManifest *self = user_data;
  const char *value, *task, *opcode;
  guint64 id;
  char *end = NULL;

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

  if (opcode != NULL && g_str_has_prefix (opcode, "win:"))
    opcode += 4;
  if (opcode == NULL || opcode[0] == '\0' || g_str_equal (opcode, "Info"))
    g_hash_table_replace (self->names, GUINT_TO_POINTER ((guint) id), g_strdup (task));
  else
    g_hash_table_replace (self->names, GUINT_TO_POINTER ((guint) id), g_strdup_printf ("%s/%s", task, opcode));
}

static void
parse (SpsEtlManifest *self)
{
  static const GMarkupParser parser = { start_element, NULL, NULL, NULL, NULL };
  g_autoptr(GMarkupParseContext) context = NULL;

  if (!g_utf8_validate ((const char *) self->xml->data, self->xml->len, NULL))
    return;
  context = g_markup_parse_context_new (&parser, G_MARKUP_PREFIX_ERROR_POSITION, self, NULL);
  /* What parsed before an error keeps its names */
  if (g_markup_parse_context_parse (context, (const char *) self->xml->data, self->xml->len, NULL))
    g_markup_parse_context_end_parse (context, NULL);
}

/**
 * sps_etl_manifest_add_chunk:
 * @self: a provider's manifest
 * @payload: a ManifestData event's payload
 * @len: its size
 *
 * Returns: %TRUE when the chunk completed the manifest (its names are
 *   known from then on)
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

  parse (self);
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
