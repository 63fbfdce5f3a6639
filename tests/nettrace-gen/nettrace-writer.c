/* nettrace-writer.c: writes EventPipe V5 (.nettrace) files the way the
 * .NET runtime does, for tests and benchmarks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "nettrace-writer.h"

/* Layout as the runtime writes it: the 102-byte header with the Trace
 * object, then per flush a MetadataBlock (new metadata), a StackBlock
 * (stacks new since the last sequence point) and an EventBlock, each a
 * FastSerialization object whose content is aligned to 4 bytes from the
 * start of the file; compressed event headers whose "previous header"
 * restarts with every block; a sequence point (SPBlock) resets the stack
 * ids; the end rundown names the methods at the end. */

enum
{
  META_SAMPLE = 1,
  META_DCEND_V1,
  META_DCEND_V2,
  META_MODULE_DCEND_V2,
  META_DOMAIN_MODULE_DCEND_V1,
  META_RUNTIME_INFO,
  META_DCEND_COMPLETE,
  META_METHOD_LOAD_V1,
  META_OTHER,
  N_META,
};

#define SAMPLER_THREAD  0x5a3f1
#define OTHER_THREAD    0x5a3f2
#define RUNDOWN_THREAD  0x5a3f3
#define FLUSH_BYTES     (100 * 1024)

typedef struct
{
  guint64  start;
  guint32  size;
  guint64  module_id;
  char    *ns;
  char    *name;
  char    *signature;
  gboolean jitted;
} Method;

typedef struct
{
  guint32 metadata_id;
  guint32 sequence;
  guint64 capture_thread;
  guint32 processor;
  guint64 thread;
  guint32 stack_id;
  guint64 timestamp;
  guint32 payload_size;
} Header;

struct _NtWriter
{
  GByteArray *file;
  guint       pointer_size;
  gint64      qpc_frequency;

  gboolean    metadata_written;
  GByteArray *metadata;          /* pending MetadataBlock blobs */
  Header      meta_prev;

  GHashTable *region_stacks;     /* GBytes (IPs) → id */
  guint32     next_stack_id;
  guint32     next_metadata_id;  /* of the caller's event types */
  guint32     first_pending_id;
  guint32     n_pending_stacks;
  GByteArray *stacks;            /* pending StackBlock entries */

  GByteArray *events;
  Header      prev;
  gint64      min_ts;
  gint64      max_ts;
  /* Sequence numbers count per capture thread, as the runtime's do */
  guint32     sampler_sequence;
  guint32     other_sequence;

  GArray     *methods;           /* Method */
  GPtrArray  *module_paths;
  GArray     *module_ids;        /* guint64 */
  GArray     *block_offsets;     /* gsize */
  GArray     *block_samples;     /* guint: samples in EventBlocks before */
  guint       n_samples_pending;
  guint       n_samples_written;
};

static void
put_u8 (GByteArray *a,
        guint8      v)
{
  g_byte_array_append (a, &v, 1);
}

static void
put_u16 (GByteArray *a,
         guint16     v)
{
  guint16 le = GUINT16_TO_LE (v);

  g_byte_array_append (a, (const guint8 *) &le, 2);
}

static void
put_u32 (GByteArray *a,
         guint32     v)
{
  guint32 le = GUINT32_TO_LE (v);

  g_byte_array_append (a, (const guint8 *) &le, 4);
}

static void
put_u64 (GByteArray *a,
         guint64     v)
{
  guint64 le = GUINT64_TO_LE (v);

  g_byte_array_append (a, (const guint8 *) &le, 8);
}

static void
put_varint (GByteArray *a,
            guint64     v)
{
  do
    {
      guint8 b = v & 0x7f;

      v >>= 7;
      if (v != 0)
        b |= 0x80;
      put_u8 (a, b);
    }
  while (v != 0);
}

static void
put_utf16z (GByteArray *a,
            const char *s)
{
  glong n = 0;
  g_autofree gunichar2 *units = g_utf8_to_utf16 (s, -1, NULL, &n, NULL);

  for (glong i = 0; i < n; i++)
    put_u16 (a, units[i]);
  put_u16 (a, 0);
}

static void
set_u32 (GByteArray *a,
         gsize       at,
         guint32     v)
{
  guint32 le = GUINT32_TO_LE (v);

  memcpy (a->data + at, &le, 4);
}

static void
write_block (NtWriter   *self,
             const char *name,
             const guint8 *content,
             gsize       size)
{
  GByteArray *f = self->file;
  static const guint8 zeros[4] = { 0, };
  gsize offset = f->len;

  g_array_append_val (self->block_offsets, offset);
  g_array_append_val (self->block_samples, self->n_samples_written);
  put_u8 (f, 5);
  put_u8 (f, 5);
  put_u8 (f, 1);
  put_u32 (f, 2);
  put_u32 (f, 2);
  put_u32 (f, strlen (name));
  g_byte_array_append (f, (const guint8 *) name, strlen (name));
  put_u8 (f, 6);
  put_u32 (f, size);
  /* Aligned from the start of the file */
  g_byte_array_append (f, zeros, (4 - f->len % 4) % 4);
  g_byte_array_append (f, content, size);
  put_u8 (f, 6);
}

/* One compressed header (and its payload) into @out, relative to
 * @prev, which is updated. */
static void
put_event (GByteArray   *out,
           Header       *prev,
           const Header *h,
           const guint8 *payload)
{
  guint8 flags = 0;
  gboolean thread_info;

  if (h->metadata_id != prev->metadata_id)
    flags |= 0x01;
  thread_info = h->capture_thread != prev->capture_thread || h->processor != prev->processor ||
                h->sequence != prev->sequence + (h->metadata_id != 0 ? 1 : 0);
  if (thread_info)
    flags |= 0x02;
  if (h->thread != prev->thread)
    flags |= 0x04;
  if (h->stack_id != prev->stack_id)
    flags |= 0x08;
  if (h->payload_size != prev->payload_size)
    flags |= 0x80;

  put_u8 (out, flags);
  if (flags & 0x01)
    put_varint (out, h->metadata_id);
  if (flags & 0x02)
    {
      put_varint (out, (guint32) (h->sequence - prev->sequence - 1));
      put_varint (out, h->capture_thread);
      put_varint (out, h->processor);
    }
  if (flags & 0x04)
    put_varint (out, h->thread);
  if (flags & 0x08)
    put_varint (out, h->stack_id);
  /* Unsigned difference: wraps when this event is older */
  put_varint (out, h->timestamp - prev->timestamp);
  if (flags & 0x80)
    put_varint (out, h->payload_size);
  g_byte_array_append (out, payload, h->payload_size);

  *prev = *h;
}

/* A metadata record: @fields are the bytes after the level (the V1 field
 * count and descriptors, then V5 tags), or none (no field count) */
static void
put_metadata (NtWriter     *self,
              guint32       id,
              const char   *provider,
              gint32        event_id,
              const char   *name,
              gint32        version,
              const guint8 *fields,
              gsize         fields_len)
{
  g_autoptr(GByteArray) record = g_byte_array_new ();
  Header h = { 0, };

  put_u32 (record, id);
  put_utf16z (record, provider);
  put_u32 (record, event_id);
  put_utf16z (record, name);
  put_u64 (record, 0);
  put_u32 (record, version);
  put_u32 (record, 4);
  g_byte_array_append (record, fields, (guint) fields_len);

  /* Like the runtime: the first record of a block carries the thread
   * fields, with a sequence step of 0xFFFFFFFF and processor 0xFFFFFFFF */
  h.metadata_id = 0;
  h.capture_thread = SAMPLER_THREAD;
  h.processor = 0xffffffff;
  h.payload_size = record->len;
  put_event (self->metadata, &self->meta_prev, &h, record->data);
}

static void
add_metadata (NtWriter   *self,
              guint32     id,
              const char *provider,
              gint32      event_id,
              gint32      version,
              gboolean    with_field)
{
  g_autoptr(GByteArray) fields = g_byte_array_new ();

  if (with_field)
    {
      put_u32 (fields, 1);
      put_u32 (fields, 9);
      put_utf16z (fields, "value");
    }
  else
    put_u32 (fields, 0);
  put_metadata (self, id, provider, event_id, "", version, fields->data, fields->len);
}

static void
start_event_content (GByteArray *a)
{
  g_byte_array_set_size (a, 0);
  put_u16 (a, 20);
  put_u16 (a, 1);
  put_u64 (a, 0);
  put_u64 (a, 0);
}

static void
flush (NtWriter *self)
{
  if (self->metadata->len > 20)
    {
      write_block (self, "MetadataBlock", self->metadata->data, self->metadata->len);
      start_event_content (self->metadata);
      memset (&self->meta_prev, 0, sizeof self->meta_prev);
    }

  if (self->n_pending_stacks > 0)
    {
      set_u32 (self->stacks, 0, self->first_pending_id);
      set_u32 (self->stacks, 4, self->n_pending_stacks);
      write_block (self, "StackBlock", self->stacks->data, self->stacks->len);
      g_byte_array_set_size (self->stacks, 8);
      self->n_pending_stacks = 0;
    }

  if (self->events->len > 20)
    {
      guint64 min_ts = GUINT64_TO_LE ((guint64) self->min_ts);
      guint64 max_ts = GUINT64_TO_LE ((guint64) self->max_ts);

      memcpy (self->events->data + 4, &min_ts, 8);
      memcpy (self->events->data + 12, &max_ts, 8);
      write_block (self, "EventBlock", self->events->data, self->events->len);
      start_event_content (self->events);
      self->n_samples_written += self->n_samples_pending;
      self->n_samples_pending = 0;
    }

  memset (&self->prev, 0, sizeof self->prev);
  self->min_ts = G_MAXINT64;
  self->max_ts = G_MININT64;
}

static void
ensure_metadata (NtWriter *self)
{
  if (self->metadata_written)
    return;
  self->metadata_written = TRUE;
  add_metadata (self, META_SAMPLE, "Microsoft-DotNETCore-SampleProfiler", 0, 0, FALSE);
  add_metadata (self, META_DCEND_V1, "Microsoft-Windows-DotNETRuntimeRundown", 144, 1, FALSE);
  add_metadata (self, META_DCEND_V2, "Microsoft-Windows-DotNETRuntimeRundown", 144, 2, FALSE);
  add_metadata (self, META_MODULE_DCEND_V2, "Microsoft-Windows-DotNETRuntimeRundown", 154, 2, FALSE);
  add_metadata (self, META_DOMAIN_MODULE_DCEND_V1, "Microsoft-Windows-DotNETRuntimeRundown", 152, 1, FALSE);
  add_metadata (self, META_RUNTIME_INFO, "Microsoft-Windows-DotNETRuntimeRundown", 187, 0, FALSE);
  add_metadata (self, META_DCEND_COMPLETE, "Microsoft-Windows-DotNETRuntimeRundown", 146, 1, FALSE);
  add_metadata (self, META_METHOD_LOAD_V1, "Microsoft-Windows-DotNETRuntime", 143, 1, FALSE);
  add_metadata (self, META_OTHER, "Spanscope-Test-Events", 1, 0, TRUE);
}

static guint32
stack_id (NtWriter      *self,
          const guint64 *ips,
          guint          n)
{
  g_autoptr(GBytes) key = NULL;
  g_autofree guint8 *bytes = g_malloc (MAX (n, 1) * self->pointer_size);
  gpointer value;
  guint32 id;

  for (guint i = 0; i < n; i++)
    {
      if (self->pointer_size == 8)
        {
          guint64 le = GUINT64_TO_LE (ips[i]);

          memcpy (bytes + 8 * i, &le, 8);
        }
      else
        {
          guint32 le = GUINT32_TO_LE ((guint32) ips[i]);

          memcpy (bytes + 4 * i, &le, 4);
        }
    }
  key = g_bytes_new_take (g_steal_pointer (&bytes), n * self->pointer_size);

  if ((value = g_hash_table_lookup (self->region_stacks, key)) != NULL)
    return GPOINTER_TO_UINT (value);

  id = self->next_stack_id++;
  g_hash_table_insert (self->region_stacks, g_bytes_ref (key), GUINT_TO_POINTER (id));
  if (self->n_pending_stacks == 0)
    self->first_pending_id = id;
  self->n_pending_stacks++;
  put_u32 (self->stacks, g_bytes_get_size (key));
  g_byte_array_append (self->stacks, g_bytes_get_data (key, NULL), g_bytes_get_size (key));

  return id;
}

static void
add_event (NtWriter     *self,
           guint32       metadata_id,
           guint64       capture_thread,
           guint64       thread,
           guint32       stack,
           gint64        ticks,
           const guint8 *payload,
           guint32       payload_size)
{
  Header h;

  ensure_metadata (self);

  h.metadata_id = metadata_id;
  h.capture_thread = capture_thread;
  h.processor = capture_thread == SAMPLER_THREAD ? 1 : 3;
  h.sequence = capture_thread == SAMPLER_THREAD ? ++self->sampler_sequence : ++self->other_sequence;
  h.thread = thread;
  h.stack_id = stack;
  h.timestamp = (guint64) ticks;
  h.payload_size = payload_size;
  put_event (self->events, &self->prev, &h, payload);

  self->min_ts = MIN (self->min_ts, ticks);
  self->max_ts = MAX (self->max_ts, ticks);

  if (self->events->len + self->stacks->len >= FLUSH_BYTES)
    flush (self);
}

NtWriter *
nt_writer_new (guint  pointer_size,
               gint64 qpc_frequency,
               gint64 sync_qpc)
{
  NtWriter *self = g_new0 (NtWriter, 1);
  GByteArray *f;

  g_assert (pointer_size == 4 || pointer_size == 8);

  self->file = f = g_byte_array_new ();
  self->pointer_size = pointer_size;
  self->qpc_frequency = qpc_frequency;
  self->metadata = g_byte_array_new ();
  self->next_metadata_id = META_OTHER + 1;
  self->stacks = g_byte_array_new ();
  self->events = g_byte_array_new ();
  start_event_content (self->metadata);
  start_event_content (self->events);
  g_byte_array_set_size (self->stacks, 8);
  self->region_stacks = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, NULL);
  self->next_stack_id = 1;
  self->methods = g_array_new (FALSE, FALSE, sizeof (Method));
  self->module_paths = g_ptr_array_new_with_free_func (g_free);
  self->module_ids = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->block_offsets = g_array_new (FALSE, FALSE, sizeof (gsize));
  self->block_samples = g_array_new (FALSE, FALSE, sizeof (guint));
  self->min_ts = G_MAXINT64;
  self->max_ts = G_MININT64;

  g_byte_array_append (f, (const guint8 *) "Nettrace", 8);
  put_u32 (f, 20);
  g_byte_array_append (f, (const guint8 *) "!FastSerialization.1", 20);
  put_u8 (f, 5);
  put_u8 (f, 5);
  put_u8 (f, 1);
  put_u32 (f, 4);
  put_u32 (f, 4);
  put_u32 (f, 5);
  g_byte_array_append (f, (const guint8 *) "Trace", 5);
  put_u8 (f, 6);
  /* SyncTimeUTC 2026-11-30 (a Monday) 04:00:00.000 */
  put_u16 (f, 2026);
  put_u16 (f, 11);
  put_u16 (f, 1);
  put_u16 (f, 30);
  put_u16 (f, 4);
  put_u16 (f, 0);
  put_u16 (f, 0);
  put_u16 (f, 0);
  put_u64 (f, (guint64) sync_qpc);
  put_u64 (f, (guint64) qpc_frequency);
  put_u32 (f, pointer_size);
  put_u32 (f, 4242);
  put_u32 (f, 8);
  put_u32 (f, 1000000);
  put_u8 (f, 6);
  g_assert_cmpuint (f->len, ==, 102);

  return self;
}

void
nt_writer_free (NtWriter *self)
{
  for (guint i = 0; i < self->methods->len; i++)
    {
      Method *m = &g_array_index (self->methods, Method, i);

      g_free (m->ns);
      g_free (m->name);
      g_free (m->signature);
    }
  g_array_unref (self->methods);
  g_ptr_array_unref (self->module_paths);
  g_array_unref (self->module_ids);
  g_array_unref (self->block_offsets);
  g_array_unref (self->block_samples);
  g_hash_table_unref (self->region_stacks);
  g_byte_array_unref (self->metadata);
  g_byte_array_unref (self->stacks);
  g_byte_array_unref (self->events);
  if (self->file != NULL)
    g_byte_array_unref (self->file);
  g_free (self);
}

static void
method_payload (GByteArray   *p,
                const Method *m,
                guint         index,
                guint         version)
{
  put_u64 (p, 0x1000 + index);
  put_u64 (p, m->module_id);
  put_u64 (p, m->start);
  put_u32 (p, m->size);
  put_u32 (p, 0x06000000 + index);
  put_u32 (p, 0x8);
  put_utf16z (p, m->ns);
  put_utf16z (p, m->name);
  put_utf16z (p, m->signature);
  put_u16 (p, 9);
  if (version >= 2)
    put_u64 (p, 0);
}

void
nt_writer_add_method (NtWriter   *self,
                      guint64     start,
                      guint32     size,
                      guint64     module_id,
                      const char *ns,
                      const char *name,
                      const char *signature,
                      gboolean    jitted)
{
  Method m = { start, size, module_id, g_strdup (ns), g_strdup (name), g_strdup (signature), jitted };

  g_array_append_val (self->methods, m);

  if (jitted)
    {
      g_autoptr(GByteArray) p = g_byte_array_new ();
      guint32 empty = stack_id (self, NULL, 0);

      method_payload (p, &m, self->methods->len - 1, 1);
      add_event (self, META_METHOD_LOAD_V1, OTHER_THREAD, OTHER_THREAD, empty,
                 self->max_ts > G_MININT64 ? self->max_ts : 0, p->data, p->len);
    }
}

void
nt_writer_add_module (NtWriter   *self,
                      guint64     module_id,
                      const char *il_path)
{
  g_ptr_array_add (self->module_paths, g_strdup (il_path));
  g_array_append_val (self->module_ids, module_id);
}

void
nt_writer_sample (NtWriter      *self,
                  guint64        tid,
                  gint64         ticks,
                  const guint64 *ips,
                  guint          n,
                  guint32        sample_type)
{
  guint32 payload = GUINT32_TO_LE (sample_type);
  guint32 id;

  ensure_metadata (self);
  id = stack_id (self, ips, MIN (n, NT_MAX_STACK_DEPTH));
  self->n_samples_pending++;
  add_event (self, META_SAMPLE, SAMPLER_THREAD, tid, id, ticks, (const guint8 *) &payload, 4);
}

/**
 * nt_writer_add_event_type:
 * @self: a writer
 * @provider: the provider's name
 * @event_id: the event's id
 * @name: the event's name (may be empty)
 * @fields: (array length=fields_len): what follows the level in the
 *   record: V1 field count and descriptors, V5 tags
 * @fields_len: their size
 *
 * Returns: the metadata id of a new event type, for nt_writer_event()
 */
guint32
nt_writer_add_event_type (NtWriter     *self,
                          const char   *provider,
                          gint32        event_id,
                          const char   *name,
                          const guint8 *fields,
                          gsize         fields_len)
{
  return nt_writer_add_versioned_event_type (self, provider, event_id, name, 0, fields, fields_len);
}

/**
 * nt_writer_add_versioned_event_type:
 * @self: a writer
 * @provider: the provider's name
 * @event_id: the event's id
 * @name: the event's name (may be empty)
 * @version: the event's version, which picks its layout
 * @fields: (array length=fields_len): what follows the level in the record
 * @fields_len: their size
 *
 * Returns: the metadata id of a new event type, for nt_writer_event()
 */
guint32
nt_writer_add_versioned_event_type (NtWriter     *self,
                                    const char   *provider,
                                    gint32        event_id,
                                    const char   *name,
                                    gint32        version,
                                    const guint8 *fields,
                                    gsize         fields_len)
{
  ensure_metadata (self);
  put_metadata (self, self->next_metadata_id, provider, event_id, name, version, fields, fields_len);
  return self->next_metadata_id++;
}

/**
 * nt_writer_event:
 * @self: a writer
 * @metadata_id: from nt_writer_add_event_type()
 * @tid: the thread
 * @ticks: its time
 * @payload: (array length=len): the payload
 * @len: its size
 *
 * Writes one event of a type of the caller's, without a stack.
 */
void
nt_writer_event (NtWriter     *self,
                 guint32       metadata_id,
                 guint64       tid,
                 gint64        ticks,
                 const guint8 *payload,
                 guint32       len)
{
  ensure_metadata (self);
  add_event (self, metadata_id, OTHER_THREAD, tid, stack_id (self, NULL, 0), ticks, payload, len);
}

void
nt_writer_other_event (NtWriter *self,
                       guint64   tid,
                       gint64    ticks)
{
  guint32 payload = GUINT32_TO_LE (42);
  guint32 id;

  ensure_metadata (self);
  id = stack_id (self, NULL, 0);
  add_event (self, META_OTHER, OTHER_THREAD, tid, id, ticks, (const guint8 *) &payload, 4);
}

/**
 * nt_writer_lose_events:
 * @self: a writer
 * @n: how many events the runtime could not write
 *
 * Skips @n sequence numbers of the thread of nt_writer_event(), as when
 * the runtime drops events (its buffers full).
 */
void
nt_writer_lose_events (NtWriter *self,
                       guint32   n)
{
  self->other_sequence += n;
}

void
nt_writer_sequence_point (NtWriter *self,
                          gint64    ticks)
{
  g_autoptr(GByteArray) sp = g_byte_array_new ();

  flush (self);
  put_u64 (sp, (guint64) ticks);
  put_u32 (sp, 1);
  put_u64 (sp, SAMPLER_THREAD);
  put_u32 (sp, self->sampler_sequence);
  write_block (self, "SPBlock", sp->data, sp->len);

  g_hash_table_remove_all (self->region_stacks);
  self->next_stack_id = 1;
}

GBytes *
nt_writer_finish (NtWriter *self,
                  gint64    ticks,
                  gboolean  end_tag)
{
  guint32 empty;

  ensure_metadata (self);
  empty = stack_id (self, NULL, 0);

  for (guint i = 0; i < self->methods->len; i++)
    {
      const Method *m = &g_array_index (self->methods, Method, i);
      g_autoptr(GByteArray) p = g_byte_array_new ();
      guint version = i % 2 == 0 ? 1 : 2;

      if (m->jitted)
        continue;
      method_payload (p, m, i, version);
      add_event (self, version == 1 ? META_DCEND_V1 : META_DCEND_V2, RUNDOWN_THREAD, RUNDOWN_THREAD,
                 empty, ticks, p->data, p->len);
    }

  for (guint i = 0; i < self->module_ids->len; i++)
    {
      g_autoptr(GByteArray) p = g_byte_array_new ();
      const char *path = g_ptr_array_index (self->module_paths, i);
      guint64 id = g_array_index (self->module_ids, guint64, i);
      static const guint8 guid[16] = { 0, };

      put_u64 (p, id);
      put_u64 (p, id + 1);
      put_u32 (p, 0);
      put_u32 (p, 0);
      put_utf16z (p, path);
      put_utf16z (p, "");
      put_u16 (p, 9);
      g_byte_array_append (p, guid, 16);
      put_u32 (p, 1);
      put_utf16z (p, "");
      g_byte_array_append (p, guid, 16);
      put_u32 (p, 0);
      put_utf16z (p, "");
      add_event (self, META_MODULE_DCEND_V2, RUNDOWN_THREAD, RUNDOWN_THREAD, empty, ticks, p->data, p->len);

      /* The rundown's DomainModuleDCEnd (152) has an AppDomainID more */
      g_byte_array_set_size (p, 0);
      put_u64 (p, id);
      put_u64 (p, id + 1);
      put_u64 (p, 1);
      put_u32 (p, 0);
      put_u32 (p, 0);
      put_utf16z (p, path);
      put_utf16z (p, "");
      put_u16 (p, 9);
      add_event (self, META_DOMAIN_MODULE_DCEND_V1, RUNDOWN_THREAD, RUNDOWN_THREAD, empty, ticks,
                 p->data, p->len);
    }

  /* RuntimeInformationDCStart: ClrInstanceID, Sku, BCL and VM versions,
   * StartupFlags, StartupMode, CommandLine, ComObjectGuid, RuntimeDllPath */
  {
    g_autoptr(GByteArray) p = g_byte_array_new ();
    static const guint8 guid[16] = { 0, };

    put_u16 (p, 9);
    put_u16 (p, 2);
    for (guint i = 0; i < 8; i++)
      put_u16 (p, i % 4 == 0 ? 8 : 0);   /* 8.0.0.0 twice */
    put_u32 (p, 0);
    put_u8 (p, 0);
    put_utf16z (p, "/usr/share/dotnet/dotnet /app/bin/Cmf.Test.Services.dll --serve");
    g_byte_array_append (p, guid, 16);
    put_utf16z (p, "/usr/share/dotnet/shared/Microsoft.NETCore.App/8.0.10/libcoreclr.so");
    add_event (self, META_RUNTIME_INFO, RUNDOWN_THREAD, RUNDOWN_THREAD, empty, ticks, p->data, p->len);
  }

  {
    guint16 clr = GUINT16_TO_LE (9);

    add_event (self, META_DCEND_COMPLETE, RUNDOWN_THREAD, RUNDOWN_THREAD, empty, ticks,
               (const guint8 *) &clr, 2);
  }

  nt_writer_sequence_point (self, ticks);
  if (end_tag)
    put_u8 (self->file, 1);

  return g_byte_array_free_to_bytes (g_steal_pointer (&self->file));
}

const GArray *
nt_writer_get_block_offsets (NtWriter *self)
{
  return self->block_offsets;
}

/* For each block of nt_writer_get_block_offsets(): how many samples the
 * EventBlocks before it hold. */
const GArray *
nt_writer_get_block_samples (NtWriter *self)
{
  return self->block_samples;
}
