/* sps-etl-reader.c: the buffers and records of a Windows ETW trace (.etl)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * An ETL file is a run of buffers, each a 72-byte header and records
 * packed at 8-byte boundaries; a compressed file's buffers after the first
 * hold their records compressed. The reader walks them in file order and
 * hands each record, its header decoded, to a callback; what a record
 * means is the importer's business. Every size read from the file is
 * checked against the bytes that are left: a buffer that cannot be read
 * is skipped with a warning, since its size still says where the next one
 * is, and a buffer whose size cannot be trusted ends the walk, keeping
 * every record before it.
 */

#define G_LOG_DOMAIN "sps-etl"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>
#ifdef G_OS_UNIX
#include <sys/mman.h>
#endif
#include <spanscope-core.h>

#include "sps-etl-buffer-private.h"
#include "sps-etl-expander.h"
#include "sps-etl-private.h"
#include "sps-etl-reader.h"
#include "sps-ms-events.h"

#define BUFFER_HEADER_SIZE    SPS_ETL_BUFFER_HEADER_SIZE

/* The first record's payload: the log file header, up to its session
 * name, for pointers of @p bytes */
#define LOG_HEADER_SIZE(p)    (264 + 2 * (p))

typedef struct
{
  const char              *display_name;
  const SpsEtlReaderFuncs *funcs;
  gpointer                 user_data;
  SpsEtlStats             *stats;
  SpsEtlHeader             header;
  gboolean                 have_header;
  gboolean                 expanded;   /* the buffer being read was */
} Reader;

static void
warn (Reader     *self,
      const char *kind,
      gsize       offset,
      const char *message)
{
  g_autofree char *text = NULL;

  if (self->funcs->warning == NULL)
    return;
  /* Translators: a file name, a byte offset in it, then what is wrong there */
  text = g_strdup_printf (_("%s (byte %zu): %s"), self->display_name, offset, message);
  self->funcs->warning (kind, text, self->user_data);
}

static gboolean
fail (Reader          *self,
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

/**
 * sps_etl_utf16_string:
 * @p: (array length=len): bytes
 * @len: their number
 *
 * Returns: (transfer full): the UTF-16LE string at @p, up to a NUL unit or
 *   the end of the bytes, as UTF-8 ("" when it is not valid UTF-16)
 */
char *
sps_etl_utf16_string (const guint8 *p,
                      gsize         len)
{
  char *text = sps_ms_dup_utf16 (p, len / 2);

  return text != NULL ? text : g_strdup ("");
}

/**
 * sps_etl_block_new:
 * @size: bytes
 *
 * A block of what waits for the end of the files (samples, events), that
 * the import frees block by block as it hands them to the builder. A
 * mapping of its own, not malloc's: glibc serves blocks below its dynamic
 * mmap threshold (which grows to 32 MiB) from the heap, which kept them
 * while the builder's columns grew elsewhere. Its pages are not resident
 * until written.
 *
 * Returns: (transfer full): the block, for sps_etl_block_free()
 */
gpointer
sps_etl_block_new (gsize size)
{
#ifdef G_OS_UNIX
  gpointer block = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

  /* As g_malloc() does when memory runs out */
  if (block == MAP_FAILED)
    g_error ("%s: failed to map %" G_GSIZE_FORMAT " bytes", G_STRLOC, size);
  return block;
#else
  return g_malloc (size);
#endif
}

/**
 * sps_etl_block_free:
 * @block: (nullable): from sps_etl_block_new()
 * @size: its size
 */
void
sps_etl_block_free (gpointer block,
                    gsize    size)
{
  if (block == NULL)
    return;
#ifdef G_OS_UNIX
  munmap (block, size);
#else
  g_free (block);
#endif
}

/* The log file header from the first record (a system record of group 0,
 * opcode 0) */
static gboolean
read_log_header (Reader             *self,
                 const SpsEtlRecord *record,
                 guint32             buffer_state,
                 GError            **error)
{
  SpsEtlHeader *h = &self->header;
  const guint8 *p = record->payload;
  guint ptr;

  if (record->kind != SPS_ETL_RECORD_SYSTEM || record->group != 0 || record->opcode != 0)
    return fail (self, error, SPS_IMPORT_ERROR_MALFORMED, record->offset,
                 _("the first record is not the trace's header"));
  if (record->payload_len < 48)
    return fail (self, error, SPS_IMPORT_ERROR_MALFORMED, record->offset,
                 _("the trace's header record is too short"));

  ptr = sps_ms_read_u32 (p + 44);
  if (ptr != 4 && ptr != 8)
    return fail (self, error, SPS_IMPORT_ERROR_MALFORMED, record->offset + 44,
                 _("the trace's header gives a pointer size other than 4 or 8"));
  if (record->payload_len < LOG_HEADER_SIZE (ptr))
    return fail (self, error, SPS_IMPORT_ERROR_MALFORMED, record->offset,
                 _("the trace's header record is too short"));

  h->pointer_size = ptr;
  h->n_processors = sps_ms_read_u32 (p + 12);
  h->log_file_mode = sps_ms_read_u32 (p + 32);
  h->events_lost = sps_ms_read_u32 (p + 48);
  h->boot_time = (gint64) sps_ms_read_u64 (p + 232 + 2 * ptr);
  h->perf_freq = sps_ms_read_u64 (p + 240 + 2 * ptr);
  h->start_time = (gint64) sps_ms_read_u64 (p + 248 + 2 * ptr);
  h->clock_type = sps_ms_read_u32 (p + 256 + 2 * ptr);
  h->buffers_lost = sps_ms_read_u32 (p + 260 + 2 * ptr);
  h->start_ticks = record->timestamp;
  h->compression = (h->log_file_mode & SPS_ETL_LOG_FILE_MODE_COMPRESSED) != 0 ? buffer_state & 0xffff : 0;
  h->session_name = sps_etl_utf16_string (p + LOG_HEADER_SIZE (ptr), record->payload_len - LOG_HEADER_SIZE (ptr));

  if (h->perf_freq == 0)
    return fail (self, error, SPS_IMPORT_ERROR_MALFORMED, record->offset + 240 + 2 * ptr,
                 _("the trace's clock frequency is 0"));

  self->have_header = TRUE;
  if (self->funcs->header != NULL)
    self->funcs->header (h, self->user_data);
  return TRUE;
}

/* Decodes the header of the record at @r (with @left bytes up to the end
 * of the buffer's data) into @record; returns its size, 0 when it cannot
 * be read (with a warning: the rest of the buffer is skipped), G_MAXSIZE
 * for an event whose size is sound but whose insides are not (with a
 * warning: the event is skipped) */
static gsize
decode_record (Reader       *self,
               const guint8 *r,
               gsize         left,
               gsize         offset,
               SpsEtlRecord *record)
{
  guint8 type = r[2];
  gsize header_size;
  gsize size;

  memset (record, 0, sizeof *record);
  record->offset = offset;
  record->pid = record->tid = SPS_ETL_NO_ID;

  switch (type)
    {
    case 1: case 2:             /* system */
    case 3: case 4:             /* compact */
      record->kind = type <= 2 ? SPS_ETL_RECORD_SYSTEM : SPS_ETL_RECORD_COMPACT;
      record->pointer_size = type % 2 == 1 ? 4 : 8;
      header_size = type <= 2 ? 32 : 24;
      break;

    case 16: case 17:           /* PerfInfo */
      {
        guint16 version = sps_ms_read_u16 (r);

        record->kind = SPS_ETL_RECORD_PERFINFO;
        record->pointer_size = type == 16 ? 4 : 8;
        /* PEBS index and PMC counters follow the 16 bytes */
        header_size = 16 + ((version & 0x8000) != 0 ? 8 : 0) + 8 * ((version >> 8) & 0x7);
      }
      break;

    case 10: case 20:           /* classic, with a GUID */
      record->kind = SPS_ETL_RECORD_FULL;
      record->pointer_size = type == 10 ? 4 : 8;
      header_size = 48;
      break;

    case 11: case 21:
      record->kind = SPS_ETL_RECORD_INSTANCE;
      record->pointer_size = type == 11 ? 4 : 8;
      header_size = 72;
      break;

    case 18: case 19:
      record->kind = SPS_ETL_RECORD_EVENT_HEADER;
      record->pointer_size = type == 18 ? 4 : 8;
      header_size = 80;
      break;

    default:
      warn (self, "etl-unknown-record", offset,
            _("a record of an unknown header type; the rest of its buffer is skipped"));
      return 0;
    }

  if (left < header_size || left < 8)
    {
      warn (self, "etl-truncated-record", offset,
            _("a record's header runs past the end of its buffer; the rest of the buffer is skipped"));
      return 0;
    }

  switch (record->kind)
    {
    case SPS_ETL_RECORD_SYSTEM:
    case SPS_ETL_RECORD_COMPACT:
    case SPS_ETL_RECORD_PERFINFO:
      record->version = sps_ms_read_u16 (r);
      size = sps_ms_read_u16 (r + 4);
      record->opcode = r[6];
      record->group = r[7];
      if (record->kind == SPS_ETL_RECORD_PERFINFO)
        {
          record->version &= 0x00ff;
          record->timestamp = sps_ms_read_u64 (r + 8);
        }
      else
        {
          record->tid = sps_ms_read_u32 (r + 8);
          record->pid = sps_ms_read_u32 (r + 12);
          record->timestamp = sps_ms_read_u64 (r + 16);
        }
      break;

    case SPS_ETL_RECORD_FULL:
    case SPS_ETL_RECORD_INSTANCE:
      size = sps_ms_read_u16 (r);
      record->opcode = r[4];
      record->level = r[5];
      record->version = sps_ms_read_u16 (r + 6);
      record->tid = sps_ms_read_u32 (r + 8);
      record->pid = sps_ms_read_u32 (r + 12);
      record->timestamp = sps_ms_read_u64 (r + 16);
      record->provider = r + 24;
      break;

    case SPS_ETL_RECORD_EVENT_HEADER:
      size = sps_ms_read_u16 (r);
      record->flags = sps_ms_read_u16 (r + 4);
      record->tid = sps_ms_read_u32 (r + 8);
      record->pid = sps_ms_read_u32 (r + 12);
      record->timestamp = sps_ms_read_u64 (r + 16);
      record->provider = r + 24;
      record->id = sps_ms_read_u16 (r + 40);
      record->version = r[42];
      record->level = r[44];
      record->opcode = r[45];
      /* The flags say the payload's pointer size when they say it */
      if ((record->flags & 0x0020) != 0)
        record->pointer_size = 4;
      else if ((record->flags & 0x0040) != 0)
        record->pointer_size = 8;
      break;

    case SPS_ETL_N_RECORD_KINDS:
    default:
      g_assert_not_reached ();
    }

  if (size < header_size || size > left)
    {
      warn (self, "etl-truncated-record", offset,
            size < header_size ?
            _("a record is smaller than its header; the rest of its buffer is skipped") :
            _("a record runs past the end of its buffer; the rest of the buffer is skipped"));
      return 0;
    }

  record->payload = r + header_size;
  record->payload_len = size - header_size;

  /* EventHeader extended data items come before the payload */
  if (record->kind == SPS_ETL_RECORD_EVENT_HEADER && (record->flags & 0x0001) != 0)
    {
      gsize pos = header_size;

      for (;;)
        {
          guint16 item_flags;
          gsize item_end;

          if (size - pos < 8)
            {
              warn (self, "etl-bad-extended-data", offset + pos,
                    _("an event's extended data runs past the end of the event; the event is skipped"));
              return G_MAXSIZE;
            }
          item_flags = sps_ms_read_u16 (r + pos + 4);
          item_end = pos + 8 + sps_ms_read_u16 (r + pos + 6);
          if (item_end > size)
            {
              warn (self, "etl-bad-extended-data", offset + pos,
                    _("an event's extended data runs past the end of the event; the event is skipped"));
              return G_MAXSIZE;
            }
          pos = MIN (size, (item_end + 7) & ~(gsize) 7);
          if ((item_flags & 0x0001) == 0)
            break;
        }
      record->extended = r + header_size;
      record->extended_len = pos - header_size;
      record->payload = r + pos;
      record->payload_len = size - pos;
    }

  return size;
}

/* The records in a buffer's data (@data, @len bytes after the buffer's
 * header); @base is the offset reported for data[0] */
static gboolean
read_records (Reader       *self,
              const guint8 *data,
              gsize         len,
              gsize         base,
              gsize         buffer_offset,
              guint16       processor,
              gboolean      first_buffer,
              guint32       buffer_state,
              GError      **error)
{
  gsize pos = 0;

  while (pos + 4 <= len)
    {
      SpsEtlRecord record;
      gsize size;

      /* The unused end of a buffer */
      if (sps_ms_read_u32 (data + pos) == G_MAXUINT32)
        break;

      size = decode_record (self, data + pos, len - pos, base + pos, &record);
      if (size == 0)
        {
          if (first_buffer && !self->have_header)
            return fail (self, error, SPS_IMPORT_ERROR_MALFORMED, base + pos,
                         _("the trace's header record cannot be read"));
          break;
        }

      if (size != G_MAXSIZE)
        {
          record.processor = processor;
          record.buffer_offset = buffer_offset;
          record.buffer_pos = pos;
          record.buffer_expanded = self->expanded;
          if (!self->have_header)
            {
              if (!read_log_header (self, &record, buffer_state, error))
                return FALSE;
            }
          self->stats->n_records[record.kind]++;
          if (record.pointer_size == 4)
            self->stats->n_records_32++;
          if (self->funcs->record != NULL)
            self->funcs->record (&record, self->user_data);
        }
      else
        size = sps_ms_read_u16 (data + pos);   /* a bad event: skipped by its size */

      pos += (size + 7) & ~(gsize) 7;
    }

  if (!self->have_header)
    return fail (self, error, SPS_IMPORT_ERROR_MALFORMED, base,
                 _("the first buffer holds no trace header"));
  return TRUE;
}

/**
 * sps_etl_read:
 * @data: (array length=len): the whole file
 * @len: its size
 * @display_name: the file's name for messages
 * @funcs: what to call for the header, each record and each warning
 * @user_data: for @funcs
 * @stats: (out caller-allocates): what was read
 * @error: the reason when the file is not an ETL trace at all
 *
 * Walks the buffers of an ETL file and their records in file order.
 * Damage after the trace header (a truncated or corrupt buffer, a bad
 * record) is a warning: what comes before it is kept, and a buffer whose
 * size is intact does not stop the walk.
 *
 * Returns: %FALSE when the trace header cannot be read
 */
gboolean
sps_etl_read (const guint8            *data,
              gsize                    len,
              const char              *display_name,
              const SpsEtlReaderFuncs *funcs,
              gpointer                 user_data,
              SpsEtlStats             *stats,
              GError                 **error)
{
  Reader self = { display_name, funcs, user_data, stats, { 0, }, FALSE, FALSE };
  g_autoptr(SpsEtlExpander) expander = NULL;
  gsize offset = 0;
  gboolean ok = TRUE;

  g_return_val_if_fail (data != NULL || len == 0, FALSE);
  g_return_val_if_fail (funcs != NULL && stats != NULL, FALSE);

  memset (stats, 0, sizeof *stats);

  if (len < BUFFER_HEADER_SIZE)
    return fail (&self, error, SPS_IMPORT_ERROR_TRUNCATED, len,
                 _("the file is shorter than an ETL buffer's header"));

  while (ok && len - offset >= BUFFER_HEADER_SIZE)
    {
      const guint8 *b = data + offset;
      gsize left = len - offset;
      guint16 processor = sps_ms_read_u16 (b + 40);
      guint32 state = sps_ms_read_u32 (b + 44);
      gboolean first = offset == 0;
      guint32 size;
      gsize out_len;
      /* The first buffer is read as it is, its compression flag or not:
       * the header it holds says whether the file is compressed */
      SpsEtlBufferKind kind = sps_etl_buffer_classify (b, left, self.have_header && self.header.compression != 0,
                                                       &size, &out_len);

      if (funcs->buffer != NULL && !funcs->buffer (offset, len, user_data))
        break;
      if (kind == SPS_ETL_BUFFER_BAD_SIZE)
        {
          if (first)
            return fail (&self, error, SPS_IMPORT_ERROR_MALFORMED, offset,
                         _("not an ETL trace (the first buffer's size is invalid)"));
          warn (&self, "etl-bad-buffer", offset,
                _("a buffer's size is invalid; the rest of the file is skipped"));
          break;
        }
      stats->n_buffers++;

      if (kind == SPS_ETL_BUFFER_PLAIN)
        {
          gsize end = MIN (sps_ms_read_u32 (b + 4), size);

          if (end > left)
            {
              /* A cut buffer: its complete records are kept */
              warn (&self, "etl-truncated", len,
                    _("the file ends inside a buffer; its records up to there are kept"));
              end = left;
            }
          self.expanded = FALSE;
          if (end > BUFFER_HEADER_SIZE)
            ok = read_records (&self, b + BUFFER_HEADER_SIZE, end - BUFFER_HEADER_SIZE,
                               offset + BUFFER_HEADER_SIZE, offset, processor, first, state, error);
          else if (first)
            ok = fail (&self, error, SPS_IMPORT_ERROR_MALFORMED, offset,
                       _("the first buffer holds no trace header"));
          if (size > left)
            break;
          offset += size;
          continue;
        }

      stats->n_compressed_buffers++;
      if (kind == SPS_ETL_BUFFER_CUT)
        {
          warn (&self, "etl-truncated", offset,
                _("the file ends inside a compressed buffer; the buffer is skipped"));
          stats->n_skipped_buffers++;
          break;
        }
      if (kind == SPS_ETL_BUFFER_BAD_EXPANDED)
        {
          warn (&self, "etl-bad-buffer", offset + 4,
                _("a compressed buffer's expanded size is invalid; the buffer is skipped"));
          stats->n_skipped_buffers++;
        }
      else if (funcs->decompress == NULL)
        {
          warn (&self, "etl-compressed-buffer", offset,
                _("a compressed buffer cannot be expanded; the buffer is skipped"));
          stats->n_skipped_buffers++;
        }
      else
        {
          g_autoptr(GError) local_error = NULL;
          const guint8 *expanded;
          gssize got;

          /* From the first compressed buffer on, the next ones are
           * expanded ahead while this one's records are read */
          if (expander == NULL)
            expander = sps_etl_expander_new (data, len, offset, self.header.compression,
                                             funcs->decompress, TRUE);
          got = sps_etl_expander_take (expander, offset, &expanded, &local_error);
          if (got < 0)
            {
              g_autofree char *message =
                /* Translators: %s is what is wrong with the compressed data */
                g_strdup_printf (_("a compressed buffer cannot be expanded (%s); the buffer is skipped"),
                                 local_error->message);

              warn (&self, "etl-corrupt-buffer", offset, message);
              stats->n_skipped_buffers++;
            }
          else
            {
              self.expanded = TRUE;
              ok = read_records (&self, expanded, MIN ((gsize) got, out_len), BUFFER_HEADER_SIZE,
                                 offset, processor, first, state, error);
            }
        }
      offset += size;
    }

  if (ok && offset < len && len - offset < BUFFER_HEADER_SIZE)
    warn (&self, "etl-truncated", offset, _("the file ends inside a buffer's header"));

  g_free (self.header.session_name);
  return ok;
}

typedef struct
{
  SpsEtlHeader *header;
  gboolean      found;
} HeaderPeek;

static void
peek_header (const SpsEtlHeader *header,
             gpointer            user_data)
{
  HeaderPeek *peek = user_data;

  *peek->header = *header;
  peek->header->session_name = g_strdup (header->session_name);
  peek->found = TRUE;
}

static gboolean
peek_first_buffer (gsize    offset,
                   gsize    len,
                   gpointer user_data)
{
  return offset == 0;
}

/**
 * sps_etl_read_header:
 * @data: (array length=len): an ETL file
 * @len: its size
 * @header: (out caller-allocates): its trace header; free its
 *   @session_name
 *
 * Reads the trace header alone (the first buffer's first record).
 *
 * Returns: %FALSE when the file has no readable header
 */
gboolean
sps_etl_read_header (const guint8 *data,
                     gsize         len,
                     SpsEtlHeader *header)
{
  const SpsEtlReaderFuncs funcs = { peek_header, NULL, NULL, NULL, peek_first_buffer };
  HeaderPeek peek = { header, FALSE };
  SpsEtlStats stats;

  memset (header, 0, sizeof *header);
  sps_etl_read (data, len, "", &funcs, &peek, &stats, NULL);
  return peek.found;
}

/**
 * sps_etl_buffer_data:
 * @data: (array length=len): the whole file, as sps_etl_read() read it
 * @len: its size
 * @offset: where a buffer that sps_etl_read() read starts
 * @expanded: whether sps_etl_read() expanded it (its records'
 *   @buffer_expanded)
 * @compression: the file's compression (its header's)
 * @decompress: what expands a compressed buffer
 * @expanded: (out) (transfer full): the memory of an expanded buffer, to
 *   free; %NULL when the data is the file's
 * @data_len: (out): the size of the data
 * @error: why the buffer cannot be read again
 *
 * Finds a buffer's records again, for what reads a record later
 * (sps_etl_record_at() with a record's @buffer_pos).
 *
 * Returns: (nullable): the buffer's data after its header
 */
const guint8 *
sps_etl_buffer_data (const guint8          *data,
                     gsize                  len,
                     gsize                  offset,
                     gboolean               expanded_by_reader,
                     guint32                compression,
                     SpsEtlDecompressFunc   decompress,
                     guint8               **expanded,
                     gsize                 *data_len,
                     GError               **error)
{
  const guint8 *b = data + offset;
  guint32 size;
  guint32 saved;

  *expanded = NULL;
  *data_len = 0;
  if (offset > len || len - offset < BUFFER_HEADER_SIZE)
    goto bad;
  size = sps_ms_read_u32 (b);
  saved = sps_ms_read_u32 (b + 4);
  if (size < BUFFER_HEADER_SIZE)
    goto bad;

  if (expanded_by_reader)
    {
      gsize out_len;
      gssize got;

      /* The reader expanded it: its header says so again */
      if (sps_etl_buffer_classify (b, len - offset, TRUE, &size, &out_len) != SPS_ETL_BUFFER_COMPRESSED ||
          out_len == 0 || decompress == NULL)
        goto bad;
      *expanded = g_malloc (out_len);
      got = decompress (compression, b + BUFFER_HEADER_SIZE, size - BUFFER_HEADER_SIZE,
                        *expanded, out_len, error);
      if (got < 0)
        {
          g_clear_pointer (expanded, g_free);
          return NULL;
        }
      *data_len = MIN ((gsize) got, out_len);
      return *expanded;
    }

  *data_len = MIN (MIN (saved, size), len - offset);
  if (*data_len <= BUFFER_HEADER_SIZE)
    goto bad;
  *data_len -= BUFFER_HEADER_SIZE;
  return b + BUFFER_HEADER_SIZE;

bad:
  g_set_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_MALFORMED,
               /* Translators: a byte offset in an ETL file */
               _("the buffer at byte %zu cannot be read again"), offset);
  return NULL;
}

/**
 * sps_etl_record_at:
 * @data: (array length=len): a buffer's data (sps_etl_buffer_data())
 * @len: its size
 * @pos: a record's @buffer_pos
 * @record: (out caller-allocates): the record
 *
 * Reads one record of a buffer again. Its @offset is @pos; @processor
 * and @buffer_offset are not known here.
 *
 * Returns: %FALSE when no sound record is at @pos
 */
gboolean
sps_etl_record_at (const guint8 *data,
                   gsize         len,
                   gsize         pos,
                   SpsEtlRecord *record)
{
  static const SpsEtlReaderFuncs funcs = { NULL, };
  Reader reader = { "", &funcs, NULL, NULL, { 0, }, TRUE, FALSE };
  gsize size;

  if (pos > len || len - pos < 4)
    return FALSE;
  size = decode_record (&reader, data + pos, len - pos, pos, record);
  record->buffer_pos = pos;
  return size != 0 && size != G_MAXSIZE;
}

/**
 * sps_etl_guid_to_string:
 * @guid: 16 bytes as ETW stores a GUID (the first three fields
 *   little-endian)
 *
 * Returns: (transfer full): the GUID as "{xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}"
 */
char *
sps_etl_guid_to_string (const guint8 *guid)
{
  return g_strdup_printf ("{%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x}",
                          sps_ms_read_u32 (guid), sps_ms_read_u16 (guid + 4), sps_ms_read_u16 (guid + 6),
                          guid[8], guid[9], guid[10], guid[11], guid[12], guid[13], guid[14], guid[15]);
}

static gint
hex_value (char c)
{
  return g_ascii_xdigit_value (c);
}

/**
 * sps_etl_guid_parse:
 * @text: "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", with or without braces
 * @guid: (out caller-allocates) (array fixed-size=16): the GUID as ETW
 *   stores it
 *
 * Returns: %TRUE when @text is a GUID
 */
gboolean
sps_etl_guid_parse (const char *text,
                    guint8      guid[16])
{
  static const guint8 order[16] = { 3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15 };
  gsize len = strlen (text);
  guint8 bytes[16];
  guint n = 0;

  if (len == 38 && text[0] == '{' && text[37] == '}')
    {
      text++;
      len -= 2;
    }
  if (len != 36)
    return FALSE;

  for (gsize i = 0; i < 36; )
    {
      gint hi, lo;

      if (i == 8 || i == 13 || i == 18 || i == 23)
        {
          if (text[i] != '-')
            return FALSE;
          i++;
          continue;
        }
      hi = hex_value (text[i]);
      lo = hex_value (text[i + 1]);
      if (hi < 0 || lo < 0)
        return FALSE;
      bytes[n++] = (guint8) (hi << 4 | lo);
      i += 2;
    }

  /* Text order is big-endian in the first three fields */
  for (guint i = 0; i < 16; i++)
    guid[order[i]] = bytes[i];
  return TRUE;
}

/**
 * sps_etl_has_magic:
 * @data: (array length=len): the first bytes of a file
 * @len: how many
 *
 * An ETL file has no magic number, but its first buffer always starts the
 * same way: a header buffer (type 4) whose first record is the trace
 * header, a system record (type 1 or 2, flags 0xc0) of version 2, group 0
 * and type 0.
 *
 * Returns: whether @data starts like an ETL trace
 */
gboolean
sps_etl_has_magic (const guint8 *data,
                   gsize         len)
{
  const guint8 *r;

  /* Before any pointer arithmetic: an empty file's bytes may be NULL */
  if (data == NULL || len < BUFFER_HEADER_SIZE + 8 || sps_ms_read_u16 (data + 54) != 4)
    return FALSE;
  r = data + BUFFER_HEADER_SIZE;
  return sps_ms_read_u16 (r) == 2 && (r[2] == 1 || r[2] == 2) && r[3] == 0xc0 && r[6] == 0 && r[7] == 0;
}
