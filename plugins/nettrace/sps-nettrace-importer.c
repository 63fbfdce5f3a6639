/* sps-nettrace-importer.c: imports .NET EventPipe (.nettrace) traces
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-nettrace"

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "sps-nettrace-loader-private.h"

/* The V4/V5 container (the one dotnet-trace and the runtime write):
 * "Nettrace", the FastSerialization signature, the Trace object at fixed
 * offsets, then block objects (MetadataBlock, StackBlock, EventBlock,
 * SPBlock) whose content is 4-byte aligned from the start of the file.
 * Blocks are decoded one at a time straight from the file's bytes; only
 * complete blocks are used, so a cut-off file keeps everything before the
 * cut. Symbols come from method events, most of them in the rundown at the
 * end of the file, so samples are added with their stacks unresolved and
 * resolved once the whole file was read. */

struct _SpsNettraceImporter
{
  GObject parent_instance;
};

static void sps_nettrace_importer_iface_init (SpsImporterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SpsNettraceImporter, sps_nettrace_importer, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SPS_TYPE_IMPORTER, sps_nettrace_importer_iface_init))

static gboolean
fail (Loader          *self,
      GError         **error,
      SpsImportError   code,
      gsize            offset,
      const char      *message)
{
  /* Translators: a file name, a byte offset in it, then what is wrong there */
  g_set_error (error, SPS_IMPORT_ERROR, code, _("%s (byte %zu): %s"),
               self->display_name, offset, message);
  return FALSE;
}

static void
warn (Loader     *self,
      const char *name,
      gsize       offset,
      const char *message)
{
  /* Translators: a file name, a byte offset in it, then what is wrong there */
  sps_trace_builder_warn (self->builder, name, _("%s (byte %zu): %s"),
                          self->display_name, offset, message);
}


/* Times of the model stay within ±2^62 ns (±146 years) so that the
 * difference of any two of them is representable. */
#define TIME_LIMIT (G_GINT64_CONSTANT (1) << 62)

/* @ticks as nanoseconds since the sync point, in 128 bits (ticks × 10⁹
 * overflows 64 bits after a few seconds at a 1 GHz clock, and a crafted
 * frequency or timestamp anywhere). FALSE when the time is out of range:
 * the event is dropped and counted as a warning. */
static gboolean
ticks_to_ns (Loader  *self,
             guint64  ticks,
             SpsTime *ns)
{
  __int128 delta = (__int128) ticks - (__int128) self->sync_qpc;
  __int128 t = delta * 1000000000 / self->qpc_frequency;

  if (t < -TIME_LIMIT || t > TIME_LIMIT)
    return FALSE;
  *ns = (SpsTime) t;
  return TRUE;
}

static gboolean
parse_stack_block (Loader       *self,
                   const guint8 *p,
                   const guint8 *end,
                   gsize         offset,
                   GError      **error)
{
  const guint8 *begin = p;
  guint32 first_id;
  guint32 count;

  if (end - p < 8)
    return fail (self, error, SPS_IMPORT_ERROR_MALFORMED, offset, _("stack block too short"));
  first_id = sps_ms_read_u32 (p);
  count = sps_ms_read_u32 (p + 4);
  p += 8;
  /* Every stack takes at least its 4-byte size */
  if (count > (gsize) (end - p) / 4)
    return fail (self, error, SPS_IMPORT_ERROR_MALFORMED, offset + 4,
                 _("stack count larger than the block can hold"));

  for (guint32 i = 0; i < count; i++)
    {
      guint32 size;
      guint32 id = first_id + i;

      if (end - p < 4)
        return fail (self, error, SPS_IMPORT_ERROR_MALFORMED, offset + (gsize) (p - begin),
                     _("stack block ends inside a stack"));
      size = sps_ms_read_u32 (p);
      p += 4;
      if (size > (gsize) (end - p) || size % self->pointer_size != 0)
        return fail (self, error, SPS_IMPORT_ERROR_MALFORMED, offset + (gsize) (p - begin),
                     _("stack size does not fit the block or the pointer size"));

      /* Ids are dense from 1 and every stack takes 4 bytes of the
       * file: a larger id is not from a writer, and would make the id
       * map as large as the id (gigabytes, minutes of filling) */
      if (id > self->len / 4)
        warn (self, "nettrace-stack-id-out-of-range", offset + (gsize) (p - begin),
              _("stack id larger than the file can hold; the stack is ignored"));
      else
        {
          guint32 stack = sps_nettrace_intern_stack (self, p, size / self->pointer_size);

          if (id >= self->region_stacks->len)
            {
              guint old = self->region_stacks->len;

              g_array_set_size (self->region_stacks, id + 1);
              for (guint k = old; k < id; k++)
                g_array_index (self->region_stacks, guint32, k) = SPS_NO_INDEX;
            }
          g_array_index (self->region_stacks, guint32, id) = stack;
        }
      p += size;
    }

  return TRUE;
}

static void
add_sample (Loader            *self,
            const EventHeader *h,
            const guint8      *payload,
            gsize              at)
{
  guint32 thread;
  guint32 stack = SPS_NO_INDEX;
  guint32 name;
  SpsTime ts;

  switch (h->payload_size >= 4 ? sps_ms_read_u32 (payload) : 0)
    {
    case 1:
      name = self->name_external;
      break;
    case 2:
      name = self->name_managed;
      break;
    default:
      name = self->name_error;
      break;
    }

  if (h->stack_id < self->region_stacks->len)
    stack = g_array_index (self->region_stacks, guint32, h->stack_id);

  if (!ticks_to_ns (self, h->timestamp, &ts))
    {
      warn (self, "nettrace-time-out-of-range", at,
            _("a sample time more than 146 years from the trace start; the sample is dropped"));
      return;
    }
  thread = sps_trace_builder_ensure_thread (self->builder, self->process, (gint64) h->thread);
  sps_trace_builder_add_sample (self->builder, thread, ts, name,
                                SPS_NO_INDEX, 0, NAN, SPS_WEIGHT_UNIT_NONE, SPS_SAMPLE_NONE);
  g_array_append_val (self->sample_stacks, stack);
}

static void
keep_event (Loader            *self,
            const EventHeader *h,
            const guint8      *payload,
            gsize              at)
{
  const SpsNettraceEventType *type = NULL;
  guint32 thread;
  guint32 allocation;
  SpsTime ts;

  if (h->metadata_id < self->event_types->len)
    type = g_ptr_array_index (self->event_types, h->metadata_id);
  if (type == NULL)
    {
      warn (self, "nettrace-event-without-metadata", at,
            _("an event names a metadata id that no metadata record described; the event is dropped"));
      return;
    }
  if (!ticks_to_ns (self, h->timestamp, &ts))
    {
      warn (self, "nettrace-time-out-of-range", at,
            _("an event time more than 146 years from the trace start; the event is dropped"));
      return;
    }
  thread = sps_trace_builder_ensure_thread (self->builder, self->process, (gint64) h->thread);
  sps_nettrace_add_event (self, type, thread, ts, payload, h->payload_size);
  self->last_event_ts = MAX (self->last_event_ts, ts);

  /* Allocations get their stack once the methods are known */
  allocation = sps_nettrace_add_memory_event (self, type, thread, ts, payload, h->payload_size, at);
  if (allocation != SPS_NO_INDEX && h->stack_id < self->region_stacks->len &&
      g_array_index (self->region_stacks, guint32, h->stack_id) != SPS_NO_INDEX)
    {
      guint32 pair[2] = { allocation, g_array_index (self->region_stacks, guint32, h->stack_id) };

      g_array_append_vals (self->allocation_stacks, pair, 2);
    }
}

/* Each capture thread numbers its events; a number skipped is an event
 * the runtime dropped (its buffers were full). Objects alive then may
 * have died in what was lost. */
typedef struct
{
  guint32 sequence;
  guint64 timestamp;
} LastEvent;

static void
note_sequence (Loader            *self,
               const EventHeader *h,
               gsize              at)
{
  LastEvent *last = self->last_sequence;
  guint32 lost;
  SpsTime from, to;

  /* Events come in runs of one capture thread: one lookup per run */
  if (last == NULL || self->last_capture_thread != h->capture_thread)
    {
      last = g_hash_table_lookup (self->sequences, &h->capture_thread);
      self->last_sequence = last;
      self->last_capture_thread = h->capture_thread;
    }
  if (last == NULL)
    {
      last = g_new (LastEvent, 1);
      g_hash_table_insert (self->sequences, sps_nettrace_new_u64 (h->capture_thread), last);
      self->last_sequence = last;
    }
  else
    {
      lost = h->sequence - last->sequence - 1;
      /* A number far behind is a thread id reused, not 4 billion losses */
      if (lost != 0 && lost < G_MAXINT32)
        {
          g_autofree char *message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                                   "%u event of this thread was lost before this one",
                                                                   "%u events of this thread were lost before this one",
                                                                   lost), lost);

          warn (self, "nettrace-events-lost", at, message);
          /* Lost between the thread's previous event and this one */
          if (ticks_to_ns (self, last->timestamp, &from) && ticks_to_ns (self, h->timestamp, &to))
            sps_ms_memory_mark_gap (self->memory, from, to);
          else
            sps_ms_memory_mark_gap (self->memory, SPS_TIME_MIN, SPS_TIME_MAX);
        }
    }
  last->sequence = h->sequence;
  last->timestamp = h->timestamp;
}

static gboolean
parse_event_block (Loader       *self,
                   const guint8 *p,
                   const guint8 *end,
                   gsize         offset,
                   gboolean      metadata,
                   GError      **error)
{
  const guint8 *begin = p;
  EventHeader h = { 0, };
  guint16 header_size;
  guint16 flags;
  gboolean compressed;

  if (end - p < 20)
    return fail (self, error, SPS_IMPORT_ERROR_MALFORMED, offset, _("block header too short"));
  header_size = sps_ms_read_u16 (p);
  flags = sps_ms_read_u16 (p + 2);
  if (header_size < 20 || header_size > end - p)
    return fail (self, error, SPS_IMPORT_ERROR_MALFORMED, offset, _("invalid block header size"));
  compressed = (flags & 1) != 0;
  p += header_size;

  while (p < end)
    {
      gsize at = offset + (gsize) (p - begin);
      const guint8 *payload;

      if (compressed)
        {
          guint8 f = *p++;
          guint64 v;

          /* The header only holds what changed since the previous one */
          if ((f & 0x01) && !read_varint (&p, end, 5, &v))
            goto bad_header;
          if (f & 0x01)
            h.metadata_id = (guint32) v;
          if (f & 0x02)
            {
              guint64 d, c, n;

              if (!read_varint (&p, end, 5, &d) || !read_varint (&p, end, 10, &c) ||
                  !read_varint (&p, end, 5, &n))
                goto bad_header;
              h.sequence += (guint32) d + 1;
              h.capture_thread = c;
              h.processor = (guint32) n;
            }
          else if (h.metadata_id != 0)
            h.sequence++;
          else if (h.metadata_id != 0)
            h.sequence++;
          if (f & 0x04)
            {
              if (!read_varint (&p, end, 10, &v))
                goto bad_header;
              h.thread = v;
            }
          if (f & 0x08)
            {
              if (!read_varint (&p, end, 5, &v))
                goto bad_header;
              h.stack_id = (guint32) v;
            }
          if (!read_varint (&p, end, 10, &v))
            goto bad_header;
          /* Deltas wrap modulo 2⁶⁴: events of several capture threads mix */
          h.timestamp += v;
          if (f & 0x10)
            p += 16;
          if (f & 0x20)
            p += 16;
          if (p > end)
            goto bad_header;
          if (f & 0x80)
            {
              if (!read_varint (&p, end, 5, &v))
                goto bad_header;
              h.payload_size = (guint32) v;
            }
          payload = p;
          if (h.payload_size > (gsize) (end - p))
            return fail (self, error, SPS_IMPORT_ERROR_MALFORMED, at, _("event payload runs past its block"));
          p += h.payload_size;
        }
      else
        {
          guint32 event_size;

          if (end - p < 80)
            goto bad_header;
          event_size = sps_ms_read_u32 (p);
          h.metadata_id = sps_ms_read_u32 (p + 4) & 0x7fffffff;
          h.sequence = sps_ms_read_u32 (p + 8);
          h.thread = sps_ms_read_u64 (p + 12);
          h.capture_thread = sps_ms_read_u64 (p + 20);
          h.processor = sps_ms_read_u32 (p + 28);
          h.stack_id = sps_ms_read_u32 (p + 32);
          h.timestamp = sps_ms_read_u64 (p + 36);
          h.payload_size = sps_ms_read_u32 (p + 76);
          payload = p + 80;
          if (event_size < 76 || event_size > (gsize) (end - p) - 4 || h.payload_size > event_size - 76)
            return fail (self, error, SPS_IMPORT_ERROR_MALFORMED, at, _("event size runs past its block"));
          p += 4 + event_size;
        }

      if (metadata)
        sps_nettrace_parse_metadata (self, payload, payload + h.payload_size);
      else
        {
          EventKind kind = h.metadata_id < self->kinds->len ?
                           g_array_index (self->kinds, guint8, h.metadata_id) : EVENT_OTHER;

          note_sequence (self, &h, at);
          self->events++;
          switch (kind)
            {
            case EVENT_SAMPLE:
              add_sample (self, &h, payload, at);
              break;
            case EVENT_METHOD:
              sps_clr_symbols_add_method (self->symbols, payload, h.payload_size);
              break;
            case EVENT_MODULE:
              sps_clr_symbols_add_module (self->symbols, payload, h.payload_size, FALSE);
              break;
            case EVENT_DOMAIN_MODULE:
              sps_clr_symbols_add_module (self->symbols, payload, h.payload_size, TRUE);
              break;
            case EVENT_PROCESS_INFO:
              sps_nettrace_parse_command_line (self, payload, payload + h.payload_size, TRUE);
              break;
            case EVENT_RUNTIME_INFO:
              sps_nettrace_parse_command_line (self, payload, payload + h.payload_size, FALSE);
              break;
            case EVENT_OTHER:
            default:
              break;
            }
          /* Samples are the samples table; every other event is kept */
          if (kind != EVENT_SAMPLE)
            keep_event (self, &h, payload, at);
        }
      continue;

    bad_header:
      return fail (self, error, SPS_IMPORT_ERROR_MALFORMED, at, _("invalid event header"));
    }

  return TRUE;
}

static void
parse_sequence_point (Loader *self)
{
  /* Stack ids restart after every sequence point */
  g_array_set_size (self->region_stacks, 0);
  self->n_sequence_points++;
}

typedef enum
{
  BLOCK_OK,
  BLOCK_END,          /* the end-of-stream tag */
  BLOCK_EOF,          /* the file ends at an object boundary */
  BLOCK_CUT,          /* the file ends inside a block */
  BLOCK_ERROR,
} BlockResult;

static BlockResult
parse_block (Loader  *self,
             gsize   *offset,
             GError **error)
{
  const guint8 *d = self->data;
  gsize o = *offset;
  gsize name_len;
  gsize size;
  gsize content;
  const char *name;

  if (o >= self->len)
    return BLOCK_EOF;
  if (d[o] == TAG_NULL)
    return BLOCK_END;

  if (self->len - o < 15)
    return BLOCK_CUT;
  if (d[o] != TAG_BEGIN_PRIV || d[o + 1] != TAG_BEGIN_PRIV || d[o + 2] != TAG_NULL)
    {
      fail (self, error, SPS_IMPORT_ERROR_MALFORMED, o, _("expected the start of a block object"));
      return BLOCK_ERROR;
    }
  name_len = sps_ms_read_u32 (d + o + 11);
  if (name_len > 64)
    {
      fail (self, error, SPS_IMPORT_ERROR_MALFORMED, o + 11, _("invalid block type name"));
      return BLOCK_ERROR;
    }
  if (self->len - o < 15 + name_len + 5)
    return BLOCK_CUT;
  name = (const char *) d + o + 15;
  if (d[o + 15 + name_len] != TAG_END)
    {
      fail (self, error, SPS_IMPORT_ERROR_MALFORMED, o + 15 + name_len, _("invalid block type object"));
      return BLOCK_ERROR;
    }
  size = sps_ms_read_u32 (d + o + 15 + name_len + 1);
  content = o + 15 + name_len + 5;
  /* Aligned from the start of the file, not of the block */
  content = (content + 3) & ~(gsize) 3;
  if (content > self->len || self->len - content < size + 1)
    return BLOCK_CUT;
  if (d[content + size] != TAG_END)
    {
      fail (self, error, SPS_IMPORT_ERROR_MALFORMED, content + size, _("block does not end with an end tag"));
      return BLOCK_ERROR;
    }

#define IS_BLOCK(n) (name_len == strlen (n) && memcmp (name, n, name_len) == 0)
  if (IS_BLOCK ("EventBlock"))
    {
      if (!parse_event_block (self, d + content, d + content + size, content, FALSE, error))
        return BLOCK_ERROR;
    }
  else if (IS_BLOCK ("MetadataBlock"))
    {
      if (!parse_event_block (self, d + content, d + content + size, content, TRUE, error))
        return BLOCK_ERROR;
    }
  else if (IS_BLOCK ("StackBlock"))
    {
      if (!parse_stack_block (self, d + content, d + content + size, content, error))
        return BLOCK_ERROR;
    }
  else if (IS_BLOCK ("SPBlock"))
    parse_sequence_point (self);
  else
    {
      g_autofree char *type = g_strndup (name, name_len);
      /* Translators: %s is a block type name from the file */
      g_autofree char *message = g_strdup_printf (_("unknown block type “%s”"), type);

      fail (self, error, SPS_IMPORT_ERROR_MALFORMED, o + 15, message);
      return BLOCK_ERROR;
    }
#undef IS_BLOCK

  *offset = content + size + 1;
  return BLOCK_OK;
}

static gboolean
parse_header (Loader  *self,
              GError **error)
{
  const guint8 *d = self->data;

  if (self->len >= 24 && sps_ms_read_u32 (d) == 20 && memcmp (d + 4, SERIALIZATION, 20) == 0)
    return fail (self, error, SPS_IMPORT_ERROR_UNSUPPORTED, 0,
                 _("this is the NetPerf format of .NET Core 2.x (EventPipe versions 1–3), which is not "
                   "supported; record the trace again with .NET Core 3.0 or later"));

  if (self->len < 8 || memcmp (d, MAGIC, 8) != 0)
    return fail (self, error, SPS_IMPORT_ERROR_MALFORMED, 0, _("not a .nettrace file (no “Nettrace” signature)"));

  if (self->len >= 12 && sps_ms_read_u32 (d + 8) == 0)
    return fail (self, error, SPS_IMPORT_ERROR_UNSUPPORTED, 8,
                 _("the NetTrace version 6 block layout is not supported, only versions 4 and 5"));

  if (self->len < TRACE_END)
    return fail (self, error, SPS_IMPORT_ERROR_TRUNCATED, self->len, _("the file ends inside its header"));

  if (sps_ms_read_u32 (d + 8) != 20 || memcmp (d + 12, SERIALIZATION, 20) != 0)
    return fail (self, error, SPS_IMPORT_ERROR_MALFORMED, 8, _("missing the FastSerialization signature"));

  if (d[32] != TAG_BEGIN_PRIV || d[33] != TAG_BEGIN_PRIV || d[34] != TAG_NULL ||
      sps_ms_read_u32 (d + 43) != 5 || memcmp (d + 47, "Trace", 5) != 0 || d[52] != TAG_END || d[101] != TAG_END)
    return fail (self, error, SPS_IMPORT_ERROR_MALFORMED, 32, _("invalid Trace object"));

  if ((gint32) sps_ms_read_u32 (d + 35) < 4)
    return fail (self, error, SPS_IMPORT_ERROR_UNSUPPORTED, 35,
                 _("Trace object versions below 4 (NetPerf) are not supported"));

  self->sync_qpc = (gint64) sps_ms_read_u64 (d + 69);
  self->qpc_frequency = (gint64) sps_ms_read_u64 (d + 77);
  self->pointer_size = sps_ms_read_u32 (d + 85);
  self->pid = (gint32) sps_ms_read_u32 (d + 89);

  if (self->qpc_frequency <= 0)
    return fail (self, error, SPS_IMPORT_ERROR_MALFORMED, 77, _("invalid clock frequency"));
  if (self->pointer_size != 4 && self->pointer_size != 8)
    return fail (self, error, SPS_IMPORT_ERROR_MALFORMED, 85, _("invalid pointer size"));

  return TRUE;
}

static void
add_trace_metadata (Loader *self)
{
  const guint8 *d = self->data;
  g_autofree char *sync = NULL;
  g_autofree char *text = NULL;

  /* SyncTimeUTC is a SYSTEMTIME: year, month, day of week, day, hour,
   * minute, second, millisecond */
  sync = g_strdup_printf ("\"%04u-%02u-%02uT%02u:%02u:%02u.%03uZ\"",
                          sps_ms_read_u16 (d + 53), sps_ms_read_u16 (d + 55), sps_ms_read_u16 (d + 59), sps_ms_read_u16 (d + 61),
                          sps_ms_read_u16 (d + 63), sps_ms_read_u16 (d + 65), sps_ms_read_u16 (d + 67));
  sps_trace_builder_add_metadata (self->builder, "sync-time-utc",
                                  sps_trace_builder_add_args_text (self->builder, sync, -1));

  text = g_strdup_printf ("%" G_GINT64_FORMAT, self->qpc_frequency);
  sps_trace_builder_add_metadata (self->builder, "clock-frequency",
                                  sps_trace_builder_add_args_text (self->builder, text, -1));
  g_free (text);
  text = g_strdup_printf ("%u", self->pointer_size);
  sps_trace_builder_add_metadata (self->builder, "pointer-size",
                                  sps_trace_builder_add_args_text (self->builder, text, -1));
  g_free (text);
  text = g_strdup_printf ("%u", sps_ms_read_u32 (d + 93));
  sps_trace_builder_add_metadata (self->builder, "processor-count",
                                  sps_trace_builder_add_args_text (self->builder, text, -1));
  g_free (text);
  /* Named a rate in the format, really the period */
  text = g_strdup_printf ("%u", sps_ms_read_u32 (d + 97));
  sps_trace_builder_add_metadata (self->builder, "sampling-period-ns",
                                  sps_trace_builder_add_args_text (self->builder, text, -1));
}

static void
loader_clear (Loader *self)
{
  g_clear_pointer (&self->display_name, g_free);
  g_clear_pointer (&self->command_line, g_free);
  g_clear_pointer (&self->kinds, g_array_unref);
  g_clear_pointer (&self->event_types, g_ptr_array_unref);
  if (self->scratch != NULL)
    g_string_free (g_steal_pointer (&self->scratch), TRUE);
  g_clear_pointer (&self->ips, g_array_unref);
  g_clear_pointer (&self->stack_start, g_array_unref);
  g_clear_pointer (&self->stack_len, g_array_unref);
  g_clear_pointer (&self->stack_slots, g_free);
  g_clear_pointer (&self->region_stacks, g_array_unref);
  g_clear_pointer (&self->sample_stacks, g_array_unref);
  g_clear_pointer (&self->symbols, sps_clr_symbols_free);
  g_clear_pointer (&self->memory, sps_ms_memory_free);
  g_clear_pointer (&self->allocation_stacks, g_array_unref);
  g_clear_pointer (&self->sequences, g_hash_table_unref);
  g_clear_pointer (&self->deferred_frames, g_array_unref);
  g_clear_pointer (&self->deferred_start, g_array_unref);
  g_clear_pointer (&self->deferred_len, g_array_unref);
  g_clear_pointer (&self->row_stack, g_free);
}

static GVariant *
repair_options (GVariant *options)
{
  GVariantDict dict;
  static const char * const keys[] = { "repair", "keep-unrecoverable", "first-span", "span-filter", "keep-raw" };

  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert (&dict, "depth-cap", "u", DEPTH_CAP);
  for (guint i = 0; options != NULL && i < G_N_ELEMENTS (keys); i++)
    {
      g_autoptr(GVariant) value = g_variant_lookup_value (options, keys[i], NULL);

      if (value != NULL)
        g_variant_dict_insert_value (&dict, keys[i], value);
    }

  return g_variant_ref_sink (g_variant_dict_end (&dict));
}

static gboolean
sps_nettrace_importer_load (SpsImporter      *importer,
                            GFile            *file,
                            GVariant         *options,
                            SpsTraceBuilder  *builder,
                            SpsProgress      *progress,
                            GError          **error)
{
  g_autoptr(GBytes) contents = NULL;
  g_autoptr(GError) local_error = NULL;
  Loader self = { 0, };
  gsize offset = TRACE_END;
  gboolean ret = TRUE;
  gsize last_report = 0;

  g_assert (SPS_IS_NETTRACE_IMPORTER (importer));
  g_assert (G_IS_FILE (file));
  g_assert (SPS_IS_TRACE_BUILDER (builder));

  if (progress != NULL)
    sps_progress_set_phase (progress, SPS_PROGRESS_PHASE_READING, _("Reading the file"));

  /* Read, not mapped: a file cut while being read stays valid
   * (sps_file_read()). */
  if (!(contents = sps_file_read (file, builder, progress, error)))
    return FALSE;

  self.builder = builder;
  self.progress = progress;
  self.display_name = sps_file_dup_display_name (file);
  self.data = g_bytes_get_data (contents, &self.len);

  sps_trace_builder_set_format (builder, "nettrace");

  if (!parse_header (&self, error))
    {
      loader_clear (&self);
      return FALSE;
    }

  self.kinds = g_array_new (FALSE, TRUE, sizeof (guint8));
  self.event_types = g_ptr_array_new_with_free_func (sps_nettrace_event_type_free);
  self.scratch = g_string_new (NULL);
  /* Reserved, so that its data is never NULL: stacks point into it,
   * the empty ones too */
  self.ips = g_array_sized_new (FALSE, FALSE, sizeof (guint64), 256);
  self.stack_start = g_array_new (FALSE, FALSE, sizeof (guint32));
  self.stack_len = g_array_new (FALSE, FALSE, sizeof (guint32));
  self.region_stacks = g_array_new (FALSE, FALSE, sizeof (guint32));
  self.sample_stacks = g_array_new (FALSE, FALSE, sizeof (guint32));
  self.symbols = sps_clr_symbols_new (builder);
  self.memory = sps_ms_memory_new (builder, self.display_name);
  self.allocation_stacks = g_array_new (FALSE, FALSE, sizeof (guint32));
  self.last_event_ts = SPS_TIME_MIN;
  self.sequences = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  self.process = sps_trace_builder_ensure_process (builder, self.pid);
  self.first_sample = sps_trace_builder_get_n_samples (builder);
  self.name_managed = sps_trace_builder_intern (builder, "Managed", -1);
  self.name_external = sps_trace_builder_intern (builder, "External", -1);
  self.name_error = sps_trace_builder_intern (builder, "Error", -1);
  add_trace_metadata (&self);

  if (progress != NULL)
    sps_progress_set_phase (progress, SPS_PROGRESS_PHASE_PARSING, _("Reading events"));

  for (;;)
    {
      BlockResult result;

      if (progress != NULL)
        {
          /* Blocks are at most about 100 KiB: a check per block */
          if (sps_progress_is_cancelled (progress))
            {
              g_set_error_literal (&local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Loading was cancelled"));
              break;
            }
          if (offset - last_report >= (1 << 20))
            {
              sps_progress_set_fraction (progress, 0.9 * (double) offset / (double) MAX (self.len, 1));
              last_report = offset;
            }
        }

      result = parse_block (&self, &offset, &local_error);
      if (result == BLOCK_OK)
        continue;

      if (result == BLOCK_EOF)
        warn (&self, "nettrace-no-end-tag", offset,
              _("the file has no end-of-stream tag (the capture was not stopped cleanly); "
                "everything up to here was read"));
      else if (result == BLOCK_CUT)
        warn (&self, "nettrace-truncated", offset,
              _("the file ends inside a block; the complete blocks before it were read"));
      /* A stream that stopped early may have lost the deaths of the
       * objects still alive */
      if (result != BLOCK_END)
        sps_ms_memory_mark_gap (self.memory, self.last_event_ts, SPS_TIME_MAX);
      break;
    }

  if (local_error != NULL && g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      loader_clear (&self);
      return FALSE;
    }

  /* Even after a format error: what was read so far stays usable; the
   * repair only runs on a complete read */
  self.defer_cut_stacks = local_error == NULL && self.sample_stacks->len > 0;
  if (self.defer_cut_stacks && options != NULL)
    g_variant_lookup (options, "repair", "b", &self.defer_cut_stacks);
  self.deferred_frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  self.deferred_start = g_array_new (FALSE, FALSE, sizeof (guint32));
  self.deferred_len = g_array_new (FALSE, FALSE, sizeof (guint32));
  if (progress != NULL)
    {
      /* Translators: progress message while method names are matched to
       * stack addresses */
      sps_progress_set_phase (progress, SPS_PROGRESS_PHASE_PARSING, _("Naming frames"));
      sps_progress_set_fraction (progress, 0.9);
    }
  sps_nettrace_resolve_stacks (&self);
  sps_ms_memory_finish (self.memory);
  sps_nettrace_name_process (&self);
  sps_trace_builder_add_events_read (builder, self.events);
  sps_trace_builder_add_metadata_events (builder, self.metadata_events);

  if (self.sample_stacks->len == 0)
    sps_trace_builder_warn (builder, "nettrace-no-samples", "%s: %s", self.display_name,
                            _("the trace holds no CPU samples (Microsoft-DotNETCore-SampleProfiler)"));

  if (local_error == NULL && self.sample_stacks->len > 0)
    {
      g_autoptr(SpsStackRepair) repair = sps_stack_repair_new ();
      g_autoptr(GVariant) repair_opts = repair_options (options);

      if (self.defer_cut_stacks)
        sps_stack_repair_set_deferred_stacks (repair, self.n_rows, self.row_stack, self.deferred_len->len,
                                              (const guint32 *) (gpointer) self.deferred_start->data,
                                              (const guint32 *) (gpointer) self.deferred_len->data,
                                              (const guint32 *) (gpointer) self.deferred_frames->data);

      ret = sps_analysis_run (SPS_ANALYSIS (repair), builder, repair_opts, progress, &local_error);
    }

  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      ret = FALSE;
    }
  else if (progress != NULL)
    sps_progress_set_fraction (progress, 1.0);

  loader_clear (&self);
  return ret;
}

static const char *
sps_nettrace_importer_get_name (SpsImporter *importer)
{
  return "nettrace";
}

static guint
sps_nettrace_importer_probe (SpsImporter *importer,
                             GFile       *file,
                             GBytes      *head)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (head, &len);

  if (len >= 8 && memcmp (data, MAGIC, 8) == 0)
    return 100;

  /* NetPerf: claimed so that loading it says why it is not supported */
  if (len >= 24 && sps_ms_read_u32 (data) == 20 && memcmp (data + 4, SERIALIZATION, 20) == 0)
    return 90;

  return 0;
}

static void
sps_nettrace_importer_iface_init (SpsImporterInterface *iface)
{
  iface->get_name = sps_nettrace_importer_get_name;
  iface->probe = sps_nettrace_importer_probe;
  iface->load = sps_nettrace_importer_load;
}

static void
sps_nettrace_importer_class_init (SpsNettraceImporterClass *klass)
{
}

static void
sps_nettrace_importer_init (SpsNettraceImporter *self)
{
}
