/* sps-etrace-decoder.c: frames of an embedded execution trace → events
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The stream is a concatenation of `varint length, protobuf message`
 * frames (formats/embedded-trace.md §1). The decoder takes bytes in any
 * chunks, keeps an incomplete frame for the next call, and turns every
 * frame into state (clock, dictionary, sequence tracker) or into an
 * event with an absolute time. Messages are unpacked by protobuf-c with a
 * bump arena, since a frame is at most 128 bytes and is dropped right
 * after it is handled.
 *
 * This file reads the framing and resynchronises after garbage; what each
 * frame does to the state is in sps-etrace-frames.c.
 *
 * Nothing here pairs spans: wire order is not time order, so that is done
 * after a sort, by sps-etrace-analysis.c.
 */

#define G_LOG_DOMAIN "sps-etrace"

#include "config.h"

#include <inttypes.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "sps-etrace-decoder-private.h"

/* Framing */

/* Reads the length prefix at @p; a frame is at most 128 bytes with it. */
static FrameStatus
read_frame (const guint8 *p,
            gsize         avail,
            gsize        *prefix,
            gsize        *payload)
{
  guint64 len = 0;
  gsize i;

  for (i = 0; i < avail && i < 10; i++)
    {
      len |= (guint64) (p[i] & 0x7f) << (7 * i);
      if ((p[i] & 0x80) == 0)
        break;
    }

  if (i == avail)
    return FRAME_INCOMPLETE;
  /* Compared without adding to len: a prefix of ten bytes says up to
   * 2^64 - 1, and len + i + 1 would wrap to a small size that passes,
   * with a payload length far past the end of the data. */
  if (i == 10 || len == 0 || len > MAX_FRAME_SIZE - (i + 1))
    return FRAME_BAD;

  *prefix = i + 1;
  *payload = len;

  return avail >= *prefix + len ? FRAME_OK : FRAME_INCOMPLETE;
}

/* Walks the tags of a payload to tell v1 from v2 (§3 "Telling v1 and v2
 * apart"): a length-delimited field 2 is a v1 name, field 3 = 5 is a v2
 * stream header. */
static SpsEtraceVersion
guess_version (const guint8 *p,
               gsize         len)
{
  gsize i = 0;
  gboolean v2_event = FALSE;

  while (i < len)
    {
      guint tag = p[i++];
      guint64 value = 0;
      guint shift = 0;

      if (tag == 0x12)
        return SPS_ETRACE_VERSION_1;

      switch (tag & 7)
        {
        case 0:
          while (i < len && shift < 64)
            {
              value |= (guint64) (p[i] & 0x7f) << shift;
              shift += 7;
              if ((p[i++] & 0x80) == 0)
                break;
            }
          if (tag == 0x18 && value == SPS_ETRACE_TRACE_START)
            return SPS_ETRACE_VERSION_2;
          if (tag == 0x10)
            v2_event = TRUE;
          break;
        case 1:
          i += 8;
          break;
        case 2:
          if (i < len)
            i += 1 + p[i];
          break;
        case 5:
          i += 4;
          break;
        default:
          return SPS_ETRACE_VERSION_UNKNOWN;
        }
    }

  return v2_event ? SPS_ETRACE_VERSION_2 : SPS_ETRACE_VERSION_UNKNOWN;
}

/* Unpacks and handles one payload; FALSE if it is not a message. */
static gboolean
handle_payload (SpsEtraceDecoder *self,
                const guint8     *p,
                gsize             len)
{
  gboolean ok = FALSE;

  if (self->version == SPS_ETRACE_VERSION_UNKNOWN)
    {
      self->version = guess_version (p, len);
      if (self->version == SPS_ETRACE_VERSION_UNKNOWN)
        self->version = SPS_ETRACE_VERSION_2;
    }

  arena_reset (&self->arena);

  if (self->version == SPS_ETRACE_VERSION_2)
    {
      Tracing__TraceFrame *frame = tracing__trace_frame__unpack (&self->arena.base, len, p);

      if (frame != NULL)
        {
          _sps_etrace_handle_v2 (self, frame);
          ok = TRUE;
        }
    }
  else
    {
      Tracing__V1__TraceEvent *event = tracing__v1__trace_event__unpack (&self->arena.base, len, p);

      if (event != NULL)
        {
          _sps_etrace_handle_v1 (self, event);
          ok = TRUE;
        }
    }

  return ok;
}

/* Resynchronisation
 *
 * The format has no sync word and no checksum (§1), so after bytes that
 * are not a frame the decoder looks, byte by byte, for a place where
 * frames start again: a v2 stream header on its own, or RESYNC_FRAMES
 * frames in a row that each decode and make sense in this stream (a known
 * frame class, a name id the dictionary knows or the run registers, no
 * marker value on a span, names a device can send, sequence numbers close
 * to each other and not far behind the last one seen). Random bytes pass
 * that test at a given offset far less often than one in a million, and a
 * run of real frames always passes it, so the frames right after the
 * garbage are kept. A run cut short by the end of the stream is enough at
 * the end. What the garbage hid is gone: its frames count as lost
 * (sequence numbers), and in v2 the times of the events that follow may
 * be off by the time deltas those frames carried, until the next
 * dictionary entry or stream header sets the clock again. */

/* Longest name a device sends (the firmware refuses longer ones) */
#define MAX_NAME_LEN 32

typedef struct
{
  SpsEtraceVersion version;
  guint64          sequence;          /* of the previous frame of the run */
  guint32          registered[RESYNC_FRAMES];
  guint            n_registered;
  gboolean         trace_start;
} Run;

static gboolean
plausible_name (const char *name)
{
  gsize len = name != NULL ? strlen (name) : 0;

  return len > 0 && len <= MAX_NAME_LEN && g_utf8_validate (name, (gssize) len, NULL);
}

/* Whether @s may follow the run so far, or the stream so far for its
 * first frame: near the previous frame of the run, and for the first not
 * so far behind the tracker that it would read as a restarted device. */
static gboolean
plausible_sequence (SpsEtraceDecoder *self,
                    Run              *run,
                    guint             k,
                    guint64           s)
{
  guint64 modulus = self->seq.modulus;
  guint64 d;

  if (k == 0)
    {
      run->sequence = s;
      if (!self->seq.started)
        return TRUE;
      d = (s - self->seq.next) & (modulus - 1);
      return d < modulus / 2 || modulus - d <= REORDER_WINDOW;
    }

  d = (s - run->sequence) & (modulus - 1);
  run->sequence = s;

  return d <= 4 * REORDER_WINDOW || modulus - d <= 4 * REORDER_WINDOW;
}

static gboolean
plausible_v2 (SpsEtraceDecoder *self,
              Run              *run,
              guint             k,
              const guint8     *p,
              gsize             len)
{
  Tracing__TraceFrame *frame;

  arena_reset (&self->arena);
  frame = tracing__trace_frame__unpack (&self->arena.base, len, p);
  /* Devices write no field this format does not have */
  if (frame == NULL || frame->base.n_unknown_fields > 0)
    return FALSE;

  switch ((guint) frame->event_type)
    {
    case SPS_ETRACE_TRACE_START:
      /* Its sequence number may start again: a header is how a device
       * says it restarted (§2.4) */
      run->trace_start = frame->timebase <= TRACING__TIME_BASE__CYCLES;
      run->sequence = frame->sequence;
      return run->trace_start;

    case SPS_ETRACE_NAME_REGISTERED:
      if (frame->name_id == 0 || !plausible_name (frame->name) ||
          frame->source_type > TRACING__TRACE_EVENT_SOURCE_TYPE__TASK)
        return FALSE;
      run->registered[run->n_registered++] = frame->name_id;
      return plausible_sequence (self, run, k, frame->sequence);

    case SPS_ETRACE_SPAN_START:
    case SPS_ETRACE_SPAN_END:
    case SPS_ETRACE_MARKER:
      {
        gboolean known = dict_get (self, frame->name_id) != 0;
        gboolean valued = frame->has_marker_value_case == TRACING__TRACE_FRAME__HAS_MARKER_VALUE_MARKER_VALUE;

        for (guint i = 0; i < run->n_registered && !known; i++)
          known = run->registered[i] == frame->name_id;
        if (!known || (valued && frame->event_type != TRACING__TRACE_EVENT_TYPE__MARKER))
          return FALSE;
        return plausible_sequence (self, run, k, frame->sequence);
      }

    default:
      return FALSE;
    }
}

static gboolean
plausible_v1 (SpsEtraceDecoder *self,
              Run              *run,
              guint             k,
              const guint8     *p,
              gsize             len)
{
  Tracing__V1__TraceEvent *event;
  guint kind;

  arena_reset (&self->arena);
  event = tracing__v1__trace_event__unpack (&self->arena.base, len, p);
  if (event == NULL)
    return FALSE;
  kind = event->event_type;

  return event->base.n_unknown_fields == 0 &&
         kind >= SPS_ETRACE_SPAN_START && kind <= SPS_ETRACE_MARKER &&
         event->source_type <= TRACING__V1__TRACE_EVENT_SOURCE_TYPE__TASK &&
         plausible_name (event->name) &&
         (event->has_marker_value_case != TRACING__V1__TRACE_EVENT__HAS_MARKER_VALUE_MARKER_VALUE ||
          kind == SPS_ETRACE_MARKER) &&
         plausible_sequence (self, run, k, event->sequence);
}

/* Whether a frame that makes sense as the first of a run ends at @end,
 * starting between @p + 1 and @end. */
static gboolean
frame_inside (SpsEtraceDecoder *self,
              SpsEtraceVersion  version,
              const guint8     *p,
              gsize             end)
{
  for (gsize r = 1; r + 1 < end; r++)
    {
      Run run = { version, 0 };
      gsize prefix, payload;

      if (read_frame (p + r, end - r, &prefix, &payload) == FRAME_OK && r + prefix + payload == end &&
          (version == SPS_ETRACE_VERSION_1 ? plausible_v1 (self, &run, 0, p + r + prefix, payload)
                                           : plausible_v2 (self, &run, 0, p + r + prefix, payload)))
        return TRUE;
    }

  return FALSE;
}

/* Whether frames start again at @p: FRAME_OK (and the version they are
 * in), FRAME_BAD, or FRAME_INCOMPLETE when more bytes are needed to tell.
 *
 * A run is refused when its first frame holds another one that ends where
 * it ends: then a garbage byte or two and the length of a real frame
 * read as the start of a longer one, the real frame inside it, and the
 * run is taken from there, a few bytes on. */
static FrameStatus
resync_at (SpsEtraceDecoder *self,
           const guint8     *p,
           gsize             avail,
           gboolean          at_end,
           SpsEtraceVersion *version)
{
  Run run = { 0 };
  gsize pos = 0;
  gsize first_end = 0;

  for (guint k = 0; k < RESYNC_FRAMES; k++)
    {
      gsize prefix, payload;
      FrameStatus status;
      const guint8 *frame;
      gboolean ok;

      status = pos < avail ? read_frame (p + pos, avail - pos, &prefix, &payload) : FRAME_INCOMPLETE;
      if (status == FRAME_INCOMPLETE && at_end && k > 0)
        break;
      if (status == FRAME_INCOMPLETE)
        return at_end ? FRAME_BAD : FRAME_INCOMPLETE;
      if (status == FRAME_BAD)
        return FRAME_BAD;
      frame = p + pos + prefix;

      if (k == 0)
        {
          /* A stream header is a place to start on its own, in any
           * stream (a v1 device may have been flashed with v2). */
          run.version = SPS_ETRACE_VERSION_2;
          if (plausible_v2 (self, &run, 0, frame, payload) && run.trace_start)
            {
              *version = SPS_ETRACE_VERSION_2;
              return FRAME_OK;
            }
          run = (Run) { 0 };
          run.version = self->version != SPS_ETRACE_VERSION_UNKNOWN ? self->version : guess_version (frame, payload);
        }

      ok = run.version == SPS_ETRACE_VERSION_1 ? plausible_v1 (self, &run, k, frame, payload)
                                               : plausible_v2 (self, &run, k, frame, payload);
      if (!ok)
        return FRAME_BAD;
      pos += prefix + payload;
      if (k == 0)
        first_end = pos;
    }

  *version = run.version == SPS_ETRACE_VERSION_1 ? SPS_ETRACE_VERSION_1 : SPS_ETRACE_VERSION_2;

  return frame_inside (self, *version, p, first_end) ? FRAME_BAD : FRAME_OK;
}

static void
lose_sync (SpsEtraceDecoder *self)
{
  self->desynced = TRUE;
  self->desync_offset = self->offset;
}

/* The bytes since lose_sync() were skipped: counted, and said where. */
static void
end_desync (SpsEtraceDecoder *self)
{
  guint64 skipped = self->offset - self->desync_offset;
  g_autofree char *message = NULL;

  if (self->offset < self->stream_end)
    message =
      /* Translators: %lu are a byte offset, a number of bytes and the byte offset where
       * decoding went on */
      g_strdup_printf (_("byte %" PRIu64 ": %" PRIu64 " bytes that are not frames were skipped; "
                         "decoding resumed at byte %" PRIu64),
                       self->desync_offset, skipped, self->offset);
  else
    message =
      /* Translators: %lu are a byte offset and a number of bytes */
      g_strdup_printf (_("byte %" PRIu64 ": %" PRIu64 " bytes that are not frames were skipped, "
                         "up to the end of the stream"),
                       self->desync_offset, skipped);

  self->skipped_bytes += skipped;
  _sps_etrace_note_at (self, SPS_ETRACE_HEALTH_DESYNC, 1, message, self->desync_offset);
  self->desynced = FALSE;
}

/* Consumes whole frames from @data; returns how many bytes were used.
 * What is left is shorter than LOOKAHEAD. */
static gsize
consume (SpsEtraceDecoder *self,
         const guint8     *data,
         gsize             len,
         gboolean          at_end)
{
  gsize pos = 0;

  while (pos < len)
    {
      gsize prefix, payload;
      FrameStatus status;

      if (self->desynced)
        {
          SpsEtraceVersion version = SPS_ETRACE_VERSION_UNKNOWN;

          status = resync_at (self, data + pos, len - pos, at_end, &version);
          if (status == FRAME_INCOMPLETE)
            break;
          if (status == FRAME_BAD)
            {
              pos++;
              self->offset++;
              continue;
            }
          end_desync (self);
          self->version = version;
        }

      status = read_frame (data + pos, len - pos, &prefix, &payload);
      if (status == FRAME_INCOMPLETE)
        break;
      if (status == FRAME_BAD || !handle_payload (self, data + pos + prefix, payload))
        {
          lose_sync (self);
          /* Not a frame here, so not a place to start again either */
          pos++;
          self->offset++;
          continue;
        }

      pos += prefix + payload;
      self->offset += prefix + payload;
    }

  return pos;
}

/**
 * sps_etrace_decoder_set_source:
 * @self: a decoder
 * @source: (nullable): what the stream is read from: a file's name, a
 *   device
 *
 * Sets the name the health messages start with (they say at which byte of
 * the stream; this says of which stream).
 */
void
sps_etrace_decoder_set_source (SpsEtraceDecoder *self,
                               const char       *source)
{
  g_return_if_fail (self != NULL);

  g_free (self->source);
  self->source = g_strdup (source);
}

const char *
sps_etrace_decoder_get_source (SpsEtraceDecoder *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->source;
}

/**
 * sps_etrace_decoder_feed:
 * @self: a decoder
 * @data: the next bytes of the stream
 * @len: their length
 *
 * Decodes every whole frame; an incomplete one (or, after garbage, the
 * few frames needed to tell where frames start again) is kept for the
 * next call.
 *
 * Returns: the number of frames decoded so far
 */
gsize
sps_etrace_decoder_feed (SpsEtraceDecoder *self,
                         const guint8     *data,
                         gsize             len)
{
  gsize used;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (!self->finished, 0);
  g_return_val_if_fail (data != NULL || len == 0, 0);

  self->stream_end += len;

  /* Bytes kept from the previous call come first: new bytes are added to
   * them until what is decoded reaches into the new bytes, and from there
   * the new bytes are decoded where they are, without copying. */
  while (self->n_pending > 0 && len > 0)
    {
      gsize old = self->n_pending;
      gsize take = MIN (len, sizeof self->pending - old);

      memcpy (self->pending + old, data, take);
      self->n_pending += take;
      used = consume (self, self->pending, self->n_pending, FALSE);
      if (used >= old)
        {
          data += used - old;
          len -= used - old;
          self->n_pending = 0;
          break;
        }
      memmove (self->pending, self->pending + used, self->n_pending - used);
      self->n_pending -= used;
      data += take;
      len -= take;
    }

  if (self->n_pending == 0 && len > 0)
    {
      used = consume (self, data, len, FALSE);
      g_assert (len - used < LOOKAHEAD);
      memcpy (self->pending, data + used, len - used);
      self->n_pending = len - used;
    }

  return self->frames;
}

/**
 * sps_etrace_decoder_finish:
 * @self: a decoder
 *
 * Ends the stream: an incomplete last frame is reported, so are bytes
 * after which no frame started again, and missing sequence numbers below
 * the newest one are counted as lost.
 */
void
sps_etrace_decoder_finish (SpsEtraceDecoder *self)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (!self->finished);

  if (self->n_pending > 0)
    {
      gsize used = consume (self, self->pending, self->n_pending, TRUE);

      if (used < self->n_pending && !self->desynced)
        {
          g_autofree char *message =
            /* Translators: %lu are a byte offset and a number of bytes */
            g_strdup_printf (_("byte %" PRIu64 ": the stream ends inside a frame (%" PRIu64 " bytes left over)"),
                             self->offset, (guint64) (self->n_pending - used));

          _sps_etrace_note (self, SPS_ETRACE_HEALTH_TRUNCATED_FRAME, 1, message);
        }
      self->offset += self->n_pending - used;
      self->n_pending = 0;
    }
  if (self->desynced)
    end_desync (self);

  _sps_etrace_note (self, SPS_ETRACE_HEALTH_LOST_FRAMES, _sps_etrace_seq_flush (&self->seq), NULL);
  self->finished = TRUE;
}

SpsEtraceDecoder *
sps_etrace_decoder_new (void)
{
  SpsEtraceDecoder *self = g_new0 (SpsEtraceDecoder, 1);

  self->arena.base.alloc = _sps_etrace_arena_alloc;
  self->arena.base.free = _sps_etrace_arena_free;
  self->arena.base.allocator_data = &self->arena;
  self->keep_events = TRUE;
  self->dict = g_hash_table_new (NULL, NULL);
  self->dict_small = g_array_new (FALSE, TRUE, sizeof (guint32));
  self->by_text = g_hash_table_new (g_str_hash, g_str_equal);
  self->names = g_ptr_array_new_with_free_func (_sps_etrace_name_free);
  self->events = g_array_new (FALSE, FALSE, sizeof (SpsEtraceEvent));
  self->marks = g_array_new (FALSE, FALSE, sizeof (SpsEtraceMark));
  self->seq.modulus = V2_SEQUENCE_MODULUS;

  return self;
}

static GHashTable *
copy_dict (GHashTable *dict)
{
  GHashTable *copy = g_hash_table_new (NULL, NULL);
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, dict);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_insert (copy, key, value);

  return copy;
}

/**
 * sps_etrace_decoder_copy:
 * @self: a decoder that is not finished
 *
 * A live capture shows what arrived so far while more keeps coming: the
 * copy is finished and built (a worker thread may do it) while @self goes
 * on decoding. Everything is copied, so the two share nothing; the events
 * are one memcpy() of 16 bytes per frame.
 *
 * Returns: (transfer full): an independent decoder in the same state
 */
SpsEtraceDecoder *
sps_etrace_decoder_copy (SpsEtraceDecoder *self)
{
  SpsEtraceDecoder *copy;
  GHashTableIter iter;
  gpointer key, value;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (!self->finished, NULL);

  copy = g_new (SpsEtraceDecoder, 1);
  *copy = *self;
  copy->arena.base.allocator_data = &copy->arena;
  arena_reset (&copy->arena);

  copy->dict_small = g_array_copy (self->dict_small);
  copy->dict = copy_dict (self->dict);
  copy->events = g_array_copy (self->events);
  copy->marks = g_array_copy (self->marks);
  copy->source = g_strdup (self->source);
  for (guint i = 0; i < SPS_ETRACE_N_HEALTH; i++)
    copy->messages[i] = g_strdup (self->messages[i]);

  copy->names = g_ptr_array_new_full (self->names->len, _sps_etrace_name_free);
  for (guint i = 0; i < self->names->len; i++)
    {
      const SpsEtraceName *name = g_ptr_array_index (self->names, i);
      SpsEtraceName *dup = g_memdup2 (name, sizeof *name);

      dup->name = g_strdup (name->name);
      g_ptr_array_add (copy->names, dup);
    }

  /* v1's keys are the names' own text: point them at the copies */
  copy->by_text = g_hash_table_new (g_str_hash, g_str_equal);
  g_hash_table_iter_init (&iter, self->by_text);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const SpsEtraceName *name = g_ptr_array_index (copy->names, GPOINTER_TO_UINT (value) - 1);

      g_hash_table_insert (copy->by_text, name->name, value);
    }

  return copy;
}

void
sps_etrace_decoder_free (SpsEtraceDecoder *self)
{
  if (self == NULL)
    return;

  g_hash_table_unref (self->dict);
  g_array_unref (self->dict_small);
  g_hash_table_unref (self->by_text);
  g_ptr_array_unref (self->names);
  g_array_unref (self->events);
  g_array_unref (self->marks);
  for (guint i = 0; i < SPS_ETRACE_N_HEALTH; i++)
    g_free (self->messages[i]);
  g_free (self->source);
  g_free (self);
}

/* A hint: room for the events of @n_bytes of stream (frames are at
 * least 7 bytes), so a long capture does not grow the array by copying.
 * Pages that are not written are not used. */
void
sps_etrace_decoder_reserve (SpsEtraceDecoder *self,
                            guint64           n_bytes)
{
  /* At most 1 GiB up front: beyond, the array grows as usual */
  guint64 n = MIN (n_bytes / 7, G_GUINT64_CONSTANT (1) << 26);

  g_return_if_fail (self != NULL);

  if (n > self->events->len)
    {
      guint len = self->events->len;

      g_array_set_size (self->events, (guint) n);
      g_array_set_size (self->events, len);
    }
}

/* Without events only counts and health are kept (throughput tests). */
void
sps_etrace_decoder_set_keep_events (SpsEtraceDecoder *self,
                                    gboolean          keep)
{
  g_return_if_fail (self != NULL);

  self->keep_events = keep;
}

SpsEtraceVersion
sps_etrace_decoder_get_version (SpsEtraceDecoder *self)
{
  g_return_val_if_fail (self != NULL, SPS_ETRACE_VERSION_UNKNOWN);

  return self->version;
}

/* TRUE when ticks are core cycles (of the last stream header). */
gboolean
sps_etrace_decoder_get_cycles (SpsEtraceDecoder *self,
                               guint32          *core_frequency_hz)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (core_frequency_hz != NULL)
    *core_frequency_hz = self->core_frequency_hz;

  return self->cycles;
}

/* Frames read, valid or not (not counting skipped garbage). */
guint64
sps_etrace_decoder_get_frames (SpsEtraceDecoder *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->frames;
}

/* Bytes skipped because they were not frames (in "desync" stretches) */
guint64
sps_etrace_decoder_get_skipped_bytes (SpsEtraceDecoder *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->skipped_bytes;
}

guint64
sps_etrace_decoder_get_count (SpsEtraceDecoder *self,
                              SpsEtraceHealth   health)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (health < SPS_ETRACE_N_HEALTH, 0);

  return self->counts[health];
}

const char *
sps_etrace_decoder_get_first_message (SpsEtraceDecoder *self,
                                      SpsEtraceHealth   health)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (health < SPS_ETRACE_N_HEALTH, NULL);

  return self->messages[health];
}

/* (transfer none): SpsEtraceEvent in stream order */
GArray *
sps_etrace_decoder_get_events (SpsEtraceDecoder *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->events;
}

/* (transfer none): SpsEtraceName, indexed by SpsEtraceEvent.name */
GPtrArray *
sps_etrace_decoder_get_names (SpsEtraceDecoder *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->names;
}

/* (transfer none): SpsEtraceMark in stream order */
GArray *
sps_etrace_decoder_get_marks (SpsEtraceDecoder *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->marks;
}

guint
sps_etrace_decoder_get_n_segments (SpsEtraceDecoder *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return (guint) self->segment + 1;
}

/**
 * sps_etrace_probe:
 * @data: the first bytes of a file
 * @len: their length
 *
 * Recognises a stream by content: a v2 stream header first (certain), or
 * several leading frames that decode as v1 events or v2 frames.
 *
 * Returns: 0–100 like SpsImporter.probe
 */
guint
sps_etrace_probe (const guint8 *data,
                  gsize         len)
{
  g_autoptr(SpsEtraceDecoder) decoder = NULL;
  SpsEtraceVersion version;
  gsize pos = 0;
  guint good = 0;

  g_return_val_if_fail (data != NULL || len == 0, 0);

  decoder = sps_etrace_decoder_new ();

  while (pos < len && good < 4)
    {
      gsize prefix, payload;
      Tracing__TraceFrame *frame;
      Tracing__V1__TraceEvent *event;

      if (read_frame (data + pos, len - pos, &prefix, &payload) != FRAME_OK)
        break;

      version = guess_version (data + pos + prefix, payload);
      arena_reset (&decoder->arena);

      if (version == SPS_ETRACE_VERSION_1)
        {
          event = tracing__v1__trace_event__unpack (&decoder->arena.base, payload, data + pos + prefix);
          if (event == NULL || event->event_type < 1 || event->event_type > 3 ||
              event->source_type > 2)
            break;
        }
      else
        {
          frame = tracing__trace_frame__unpack (&decoder->arena.base, payload, data + pos + prefix);
          if (frame == NULL || frame->event_type < 1 || frame->event_type > 5)
            break;
          if (pos == 0 && frame->event_type == TRACING__TRACE_EVENT_TYPE__TRACE_START &&
              frame->timebase <= TRACING__TIME_BASE__CYCLES)
            return 100;
        }

      good++;
      pos += prefix + payload;
    }

  /* A file shorter than four frames counts if all of it decoded. */
  if (good >= 4 || (good > 0 && pos == len))
    return 60;

  return 0;
}
