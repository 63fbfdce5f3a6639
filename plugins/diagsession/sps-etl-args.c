/* sps-etl-args.c: the args of ETL events, decoded when they are read
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Writing every event's payload as JSON during the import cost three
 * times the file in text and most of the import's time, for args that
 * few are ever looked at. The import keeps a cookie per event instead:
 * which file, which of its buffers, where in the buffer's data. Reading
 * the args finds the buffer again in the file's bytes (which the trace
 * keeps, as a JSON trace keeps its text), expands it when it is
 * compressed, reads the record there and writes its args as the import
 * would have (sps_etl_events_append_args()). Expanded buffers are kept in
 * a small cache: a query over every event visits each buffer a few times.
 *
 * The cookie: bits 54–57 the file, 23–53 the buffer's number in its file,
 * 0–22 the record's position in the buffer's data in units of 8 bytes
 * (records are 8-byte aligned; buffers expand to at most 64 MiB).
 */

#define G_LOG_DOMAIN "sps-etl"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-etl-args.h"
#include "sps-etl-events.h"
#include "sps-etl-fields.h"
#include "sps-etl-private.h"

#define FILE_BITS     4
#define BUFFER_BITS   31
#define POS_BITS      23
#define MAX_FILES     (1u << FILE_BITS)
#define CACHE_BUFFERS 16
#define CACHE_BYTES   ((gsize) 16 << 20)
#define BUFFER_EXPANDED (G_GUINT64_CONSTANT (1) << 63)

typedef struct
{
  GBytes  *bytes;
  guint32  compression;
  GArray  *buffers;       /* guint64: each buffer's offset, in file order,
                           * with BUFFER_EXPANDED when the reader expanded it */
} EtlFile;

typedef struct
{
  guint64       key;      /* file << BUFFER_BITS | buffer, G_MAXUINT64: empty */
  guint8       *expanded; /* NULL: the data is the file's */
  const guint8 *data;
  gsize         len;
  guint64       used;     /* for the least recently used */
} CachedBuffer;

struct _SpsEtlArgs
{
  GObject               parent_instance;

  SpsEtlDecompressFunc  decompress;
  GArray               *files;       /* EtlFile */
  GHashTable           *layouts;     /* provider GUID → its manifest's
                                      * layouts (id → SpsEtlLayout) */

  /* Decoding runs on any thread */
  GMutex                lock;
  CachedBuffer          cache[CACHE_BUFFERS];
  gsize                 cache_bytes;
  guint64               clock;
};

static void decoder_iface_init (SpsArgsDecoderInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SpsEtlArgs, sps_etl_args, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SPS_TYPE_ARGS_DECODER, decoder_iface_init))

static void
clear_file (gpointer data)
{
  EtlFile *file = data;

  g_clear_pointer (&file->bytes, g_bytes_unref);
  g_clear_pointer (&file->buffers, g_array_unref);
}

static void
sps_etl_args_finalize (GObject *object)
{
  SpsEtlArgs *self = SPS_ETL_ARGS (object);

  for (guint i = 0; i < CACHE_BUFFERS; i++)
    g_free (self->cache[i].expanded);
  g_array_unref (self->files);
  g_hash_table_unref (self->layouts);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (sps_etl_args_parent_class)->finalize (object);
}

static void
sps_etl_args_class_init (SpsEtlArgsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sps_etl_args_finalize;
}

static void
sps_etl_args_init (SpsEtlArgs *self)
{
  self->files = g_array_new (FALSE, TRUE, sizeof (EtlFile));
  g_array_set_clear_func (self->files, clear_file);
  self->layouts = g_hash_table_new_full (sps_etl_guid_hash, sps_etl_guid_equal, g_free,
                                         (GDestroyNotify) g_hash_table_unref);
  g_mutex_init (&self->lock);
  for (guint i = 0; i < CACHE_BUFFERS; i++)
    self->cache[i].key = G_MAXUINT64;
}

/**
 * sps_etl_args_new:
 * @decompress: what expands the files' compressed buffers
 *
 * Returns: (transfer full): a decoder without files
 */
SpsEtlArgs *
sps_etl_args_new (SpsEtlDecompressFunc decompress)
{
  SpsEtlArgs *self = g_object_new (SPS_TYPE_ETL_ARGS, NULL);

  self->decompress = decompress;
  return self;
}

/**
 * sps_etl_args_add_file:
 * @self: a decoder
 * @etl: the bytes of the ETL file read next, kept as long as the decoder
 *
 * Makes @etl the file whose records sps_etl_args_get_cookie() is given.
 *
 * Returns: %FALSE when the decoder has as many files as its cookies can
 *   tell apart (the file's args are then written as text)
 */
gboolean
sps_etl_args_add_file (SpsEtlArgs *self,
                       GBytes     *etl)
{
  EtlFile file = { 0, };

  g_return_val_if_fail (SPS_IS_ETL_ARGS (self), FALSE);
  g_return_val_if_fail (etl != NULL, FALSE);

  if (self->files->len >= MAX_FILES)
    return FALSE;
  file.bytes = g_bytes_ref (etl);
  file.buffers = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_array_append_val (self->files, file);
  return TRUE;
}

/**
 * sps_etl_args_set_compression:
 * @self: a decoder
 * @compression: the current file's compression, from its header
 */
void
sps_etl_args_set_compression (SpsEtlArgs *self,
                              guint32     compression)
{
  g_return_if_fail (SPS_IS_ETL_ARGS (self));
  g_return_if_fail (self->files->len > 0);

  g_array_index (self->files, EtlFile, self->files->len - 1).compression = compression;
}

/**
 * sps_etl_args_get_cookie:
 * @self: a decoder
 * @record: a record of the current file, as sps_etl_read() gave it
 * @cookie: (out): where the record is, for sps_args_ref_new_deferred()
 *
 * Returns: %FALSE when the record's place does not fit in a cookie
 */
gboolean
sps_etl_args_get_cookie (SpsEtlArgs         *self,
                         const SpsEtlRecord *record,
                         guint64            *cookie)
{
  EtlFile *file;
  guint64 buffer;

  g_return_val_if_fail (SPS_IS_ETL_ARGS (self), FALSE);

  if (self->files->len == 0 || record->buffer_pos % 8 != 0 ||
      record->buffer_pos >> 3 >= (G_GUINT64_CONSTANT (1) << POS_BITS))
    return FALSE;
  file = &g_array_index (self->files, EtlFile, self->files->len - 1);
  /* Records come in file order: a new buffer is the last one */
  if (file->buffers->len == 0 ||
      (g_array_index (file->buffers, guint64, file->buffers->len - 1) & ~BUFFER_EXPANDED) != record->buffer_offset)
    {
      guint64 offset = record->buffer_offset | (record->buffer_expanded ? BUFFER_EXPANDED : 0);

      if (file->buffers->len >= (1u << BUFFER_BITS) - 1)
        return FALSE;
      g_array_append_val (file->buffers, offset);
    }
  buffer = file->buffers->len - 1;
  *cookie = (guint64) (self->files->len - 1) << (BUFFER_BITS + POS_BITS) |
            buffer << POS_BITS | record->buffer_pos >> 3;
  return TRUE;
}

/* The cached buffer of @key, expanded now if it is not in the cache.
 * Called with the lock held. */
static const CachedBuffer *
cached_buffer (SpsEtlArgs  *self,
               guint64      key,
               GError     **error)
{
  const EtlFile *file = &g_array_index (self->files, EtlFile, key >> BUFFER_BITS);
  guint64 buffer = key & ((G_GUINT64_CONSTANT (1) << BUFFER_BITS) - 1);
  CachedBuffer *slot = &self->cache[0];
  const guint8 *data;
  guint8 *expanded;
  guint64 place;
  gsize size;
  gsize len;

  for (guint i = 0; i < CACHE_BUFFERS; i++)
    {
      if (self->cache[i].key == key)
        {
          self->cache[i].used = ++self->clock;
          return &self->cache[i];
        }
      if (self->cache[i].used < slot->used)
        slot = &self->cache[i];
    }

  if (buffer >= file->buffers->len)
    {
      g_set_error_literal (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_MALFORMED,
                           _("The event’s buffer is not in the file"));
      return NULL;
    }
  data = g_bytes_get_data (file->bytes, &size);
  place = g_array_index (file->buffers, guint64, buffer);
  /* Expanded again as the reader did, or read in place */
  data = sps_etl_buffer_data (data, size, place & ~BUFFER_EXPANDED, (place & BUFFER_EXPANDED) != 0,
                              file->compression, self->decompress, &expanded, &len, error);
  if (data == NULL)
    return NULL;

  /* Room for it: the least recently used goes, and more while the
   * expanded buffers are over their budget */
  for (;;)
    {
      if (slot->expanded != NULL)
        self->cache_bytes -= slot->len;
      g_clear_pointer (&slot->expanded, g_free);
      slot->key = G_MAXUINT64;
      slot->used = 0;
      if (expanded == NULL || self->cache_bytes + len <= CACHE_BYTES || self->cache_bytes == 0)
        break;
      for (guint i = 0; i < CACHE_BUFFERS; i++)
        if (self->cache[i].expanded != NULL && (slot->expanded == NULL || self->cache[i].used < slot->used))
          slot = &self->cache[i];
    }
  slot->key = key;
  slot->expanded = expanded;
  slot->data = data;
  slot->len = len;
  slot->used = ++self->clock;
  if (expanded != NULL)
    self->cache_bytes += len;
  return slot;
}

/**
 * sps_etl_args_set_layouts:
 * @self: a decoder
 * @provider: a provider's GUID (16 bytes, as stored)
 * @layouts: the payload layouts of its manifest (id → SpsEtlLayout), which
 *   are not changed afterwards
 *
 * Makes the events of @provider decoded by the layouts of its manifest
 * (replacing those of a manifest read earlier).
 */
void
sps_etl_args_set_layouts (SpsEtlArgs   *self,
                          const guint8 *provider,
                          GHashTable   *layouts)
{
  g_autoptr(GMutexLocker) locker = NULL;

  g_return_if_fail (SPS_IS_ETL_ARGS (self));
  g_return_if_fail (provider != NULL && layouts != NULL);

  locker = g_mutex_locker_new (&self->lock);
  g_hash_table_replace (self->layouts, g_memdup2 (provider, 16), g_hash_table_ref (layouts));
}

/* Called with the lock held */
/* The record of @cookie, read again from its buffer */
static gboolean
record_locked (SpsEtlArgs    *self,
               guint64        cookie,
               SpsEtlRecord  *record,
               GError       **error)
{
  guint64 key = cookie >> POS_BITS;
  gsize pos = (gsize) (cookie & ((G_GUINT64_CONSTANT (1) << POS_BITS) - 1)) << 3;
  const CachedBuffer *buffer;

  if ((key >> BUFFER_BITS) >= self->files->len)
    {
      g_set_error_literal (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_MALFORMED,
                           _("The event’s file is not in the trace"));
      return FALSE;
    }
  if (!(buffer = cached_buffer (self, key, error)))
    return FALSE;
  if (!sps_etl_record_at (buffer->data, buffer->len, pos, record))
    {
      g_set_error_literal (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_MALFORMED,
                           _("The event cannot be read again"));
      return FALSE;
    }
  return TRUE;
}

static GHashTable *
record_layouts (SpsEtlArgs         *self,
                const SpsEtlRecord *record)
{
  return record->provider != NULL ? g_hash_table_lookup (self->layouts, record->provider) : NULL;
}

static gboolean
decode_locked (SpsEtlArgs          *self,
               guint64              cookie,
               GString             *json,
               GError             **error)
{
  SpsEtlRecord record;

  if (!record_locked (self, cookie, &record, error))
    return FALSE;
  sps_etl_events_append_args (json, &record, record_layouts (self, &record));
  return TRUE;
}

static gboolean
sps_etl_args_decode (SpsArgsDecoder *decoder,
                     guint64         cookie,
                     GString        *json,
                     GError        **error)
{
  SpsEtlArgs *self = SPS_ETL_ARGS (decoder);
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&self->lock);

  return decode_locked (self, cookie, json, error);
}

/**
 * sps_etl_args_is_complete:
 * @self: a decoder
 * @cookie: an event's cookie
 * @scratch: a string to reuse
 *
 * Where a manifest's layout describes the event's payload, only the
 * sizes of its fields are walked (sps_etl_events_check_args()).
 *
 * Returns: %FALSE when a field of the event's layout ran past its payload
 *   (or the event cannot be read again)
 */
gboolean
sps_etl_args_is_complete (SpsEtlArgs *self,
                          guint64     cookie,
                          GString    *scratch)
{
  g_autoptr(GMutexLocker) locker = NULL;
  SpsEtlRecord record;

  g_return_val_if_fail (SPS_IS_ETL_ARGS (self), FALSE);

  locker = g_mutex_locker_new (&self->lock);
  return record_locked (self, cookie, &record, NULL) &&
         sps_etl_events_check_args (&record, record_layouts (self, &record), scratch) == SPS_ETL_FIELDS_COMPLETE;
}

static void
decoder_iface_init (SpsArgsDecoderInterface *iface)
{
  iface->decode = sps_etl_args_decode;
}
