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
 * Nothing here pairs spans: wire order is not time order, so that is done
 * after a sort, by sps-etrace-analysis.c.
 */

#define G_LOG_DOMAIN "sps-etrace"

#include "config.h"

#include <inttypes.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "tracing.pb-c.h"
#include "tracing_v1.pb-c.h"

#include "sps-etrace-decoder.h"

#define MAX_FRAME_SIZE      128
/* Frames in a row that must make sense for decoding to start again
 * after garbage (see resync_at()), and the bytes they may take */
#define RESYNC_FRAMES       3
#define LOOKAHEAD           (RESYNC_FRAMES * MAX_FRAME_SIZE)
#define V2_SEQUENCE_MODULUS 16384
/* How far ahead of the oldest missing number a frame may arrive before
 * the missing ones are declared lost: ISRs preempting the producer and
 * dictionary frames (numbered after the event that triggered them)
 * reorder a few frames. */
#define REORDER_WINDOW      16
#define ARENA_SIZE          4096
/* Devices number names 1, 2, 3…: these ids are looked up in an array */
#define DICT_SMALL          4096

typedef struct
{
  ProtobufCAllocator base;
  gsize              used;
  guint8             data[ARENA_SIZE] G_GNUC_MAY_ALIAS;
} Arena;

typedef struct
{
  guint64  modulus;
  guint64  next;
  guint64  seen;            /* bit i: next + i arrived */
  guint64  lost;            /* bit i: next - 1 - i was counted lost */
  gboolean started;
} SeqTracker;

struct _SpsEtraceDecoder
{
  Arena            arena;

  SpsEtraceVersion version;
  gboolean         keep_events;

  /* Bytes of an incomplete frame (or of the frames that tell whether
   * frames start again after garbage) from the previous feed() */
  guint8           pending[2 * LOOKAHEAD];
  gsize            n_pending;
  guint64          offset;          /* stream offset of the next byte */
  guint64          stream_end;      /* bytes fed so far */
  gboolean         desynced;        /* skipping bytes that are not frames */
  guint64          desync_offset;   /* where they began */
  guint64          skipped_bytes;
  gboolean         finished;

  /* Clock in ticks and the unit of a tick */
  gint64           clock;
  gboolean         have_start;
  gboolean         cycles;
  guint32          core_frequency_hz;
  gint64           offset_ns;       /* added after a device reset */
  gint64           last_ns;

  SeqTracker       seq;
  guint16          segment;

  GArray          *dict_small;      /* wire id → names index + 1 */
  GHashTable      *dict;            /* the same for ids ≥ DICT_SMALL */
  GHashTable      *by_text;         /* v1: name text → names index + 1 */

  guint64          frames;
  guint64          counts[SPS_ETRACE_N_HEALTH];
  char            *messages[SPS_ETRACE_N_HEALTH];
  char            *source;          /* names the stream in messages */

  GPtrArray       *names;           /* SpsEtraceName */
  GArray          *events;          /* SpsEtraceEvent */
  GArray          *marks;           /* SpsEtraceMark */
};

static const char *health_names[SPS_ETRACE_N_HEALTH] = {
  "lost_frames",
  "unknown_name_events",
  "unmatched_end",
  "discarded_restarts",
  "open_at_end",
  "device_resets",
  "desync",
  "invalid_frames",
  "truncated_frame",
};

const char *
sps_etrace_health_name (SpsEtraceHealth health)
{
  g_return_val_if_fail (health < SPS_ETRACE_N_HEALTH, NULL);

  return health_names[health];
}

/* Arena */

static void *
arena_alloc (void   *data,
             size_t  size)
{
  Arena *arena = data;
  gsize aligned = (size + 15) & ~(gsize) 15;
  void *ret;

  if (aligned > ARENA_SIZE - arena->used)
    return NULL;

  ret = arena->data + arena->used;
  arena->used += aligned;

  return ret;
}

static void
arena_free (void *data,
            void *pointer)
{
  /* Everything goes at once in arena_reset() */
}

static inline void
arena_reset (Arena *arena)
{
  arena->used = 0;
}

/* Names */

static void
name_free (gpointer data)
{
  SpsEtraceName *name = data;

  g_free (name->name);
  g_free (name);
}

static guint32
add_name (SpsEtraceDecoder *self,
          const char       *text)
{
  SpsEtraceName *name;

  /* Only a hostile stream gets here: its further names stay unknown */
  if (self->names->len >= SPS_ETRACE_MAX_NAMES - 1)
    return G_MAXUINT32;

  name = g_new0 (SpsEtraceName, 1);

  name->name = g_strdup (text);
  name->segment = self->segment;
  g_ptr_array_add (self->names, name);

  return self->names->len - 1;
}

static void
set_attributes (SpsEtraceName *name,
                guint          source,
                guint32        priority,
                gboolean       has_deadline,
                float          deadline_ms)
{
  /* A bare entry (registered by an end or a marker) does not wipe what a
   * complete one said. */
  if (source == SPS_ETRACE_SOURCE_UNKNOWN && priority == 0 && !has_deadline)
    return;

  name->source = source <= SPS_ETRACE_SOURCE_TASK ? source : SPS_ETRACE_SOURCE_UNKNOWN;
  name->priority = priority;
  /* A negative, NaN or absurd (over 30 years) deadline is no deadline */
  name->has_deadline = has_deadline && deadline_ms >= 0 && deadline_ms <= 1e12f;
  name->deadline_ms = name->has_deadline ? deadline_ms : 0;
}

/* Dictionary: wire id → names index + 1, 0 when unknown */

static inline guint32
dict_get (SpsEtraceDecoder *self,
          guint32           id)
{
  if (id < self->dict_small->len)
    return g_array_index (self->dict_small, guint32, id);
  if (id < DICT_SMALL)
    return 0;
  return GPOINTER_TO_UINT (g_hash_table_lookup (self->dict, GUINT_TO_POINTER (id)));
}

static void
dict_set (SpsEtraceDecoder *self,
          guint32           id,
          guint32           value)
{
  if (id < DICT_SMALL)
    {
      if (id >= self->dict_small->len)
        g_array_set_size (self->dict_small, id + 1);
      g_array_index (self->dict_small, guint32, id) = value;
    }
  else
    g_hash_table_insert (self->dict, GUINT_TO_POINTER (id), GUINT_TO_POINTER (value));
}

/* Health */

static gint64
now_ns (SpsEtraceDecoder *self)
{
  return self->last_ns;
}

/* Counts @count of @health, and marks it at stream offset @offset. */
static void
note_at (SpsEtraceDecoder *self,
         SpsEtraceHealth   health,
         guint64           count,
         const char       *message,
         guint64           offset)
{
  SpsEtraceMark mark = { 0 };

  g_assert (health < SPS_ETRACE_N_HEALTH);

  if (count == 0)
    return;

  self->counts[health] += count;
  if (self->messages[health] == NULL && message != NULL)
    self->messages[health] = self->source != NULL ? g_strdup_printf ("%s: %s", self->source, message)
                                                  : g_strdup (message);

  /* A run of the same problem is one mark, so a stream full of unknown
   * ids does not bury the timeline under marks. */
  if (self->marks->len > 0)
    {
      SpsEtraceMark *last = &g_array_index (self->marks, SpsEtraceMark, self->marks->len - 1);

      if (last->health == health && last->time_ns == now_ns (self))
        {
          last->count += count;
          return;
        }
    }

  mark.time_ns = now_ns (self);
  mark.count = count;
  mark.offset = offset;
  mark.health = health;
  g_array_append_val (self->marks, mark);
}

static void
note (SpsEtraceDecoder *self,
      SpsEtraceHealth   health,
      guint64           count,
      const char       *message)
{
  note_at (self, health, count, message, self->offset);
}

/* Sequence numbers */

static void
seq_restart (SeqTracker *seq,
             guint64     s)
{
  seq->next = s;
  seq->seen = 0;
  seq->lost = 0;
  seq->started = TRUE;
}

/* Moves the oldest missing number on by one */
static void
seq_advance (SeqTracker *seq)
{
  seq->seen >>= 1;
  seq->lost <<= 1;
  seq->next = (seq->next + 1) & (seq->modulus - 1);
}

/* Returns how many numbers were declared lost by @s, less one when @s
 * itself had been declared lost (it arrived late, behind a jump: it is
 * not missing after all, and would otherwise count one frame too many);
 * *backwards is set when @s lies far behind (a restarted counter). */
static gint64
seq_track (SeqTracker *seq,
           guint64     s,
           gboolean   *backwards)
{
  guint64 d;
  gint64 lost = 0;

  *backwards = FALSE;

  if (!seq->started)
    seq_restart (seq, s);

  d = (s - seq->next) & (seq->modulus - 1);

  if (d >= seq->modulus / 2)
    {
      guint64 behind = seq->modulus - d;   /* @s is next - behind */

      /* Behind the oldest missing number: a straggler that was already
       * declared lost, or a counter that started again. */
      if (behind > REORDER_WINDOW)
        {
          *backwards = TRUE;
          seq_restart (seq, s);
          d = 0;
        }
      else
        {
          guint64 bit = G_GUINT64_CONSTANT (1) << (behind - 1);

          if (!(seq->lost & bit))
            return 0;   /* a duplicate */
          seq->lost &= ~bit;
          return -1;
        }
    }

  if (d >= REORDER_WINDOW)
    {
      /* Too far ahead to be reordering: everything skipped is lost, and
       * remembered as lost for the window behind @s, so that a straggler
       * among them takes its count back. */
      lost = (gint64) (d - (guint64) __builtin_popcountll (seq->seen));
      for (guint64 i = 0; i < d; i++)
        {
          gboolean arrived = i < 64 && (seq->seen & (G_GUINT64_CONSTANT (1) << i)) != 0;

          seq->lost <<= 1;
          seq->lost |= arrived ? 0 : 1;
          if (i >= 64 && seq->lost == G_MAXUINT64)
            {
              /* The rest of the jump is all lost: the mask is full */
              break;
            }
        }
      seq->seen = 0;
      seq->next = s;
      d = 0;
    }

  seq->seen |= G_GUINT64_CONSTANT (1) << d;
  while (seq->seen & 1)
    seq_advance (seq);

  return lost;
}

/* Numbers still missing below the newest one that arrived. */
static guint64
seq_flush (SeqTracker *seq)
{
  guint64 lost;

  if (seq->seen == 0)
    return 0;

  lost = (guint64) (64 - __builtin_clzll (seq->seen)) - (guint64) __builtin_popcountll (seq->seen);
  while (seq->seen != 0)
    {
      seq->lost = (seq->lost << 1) | ((seq->seen & 1) ? 0 : 1);
      seq->seen >>= 1;
      seq->next = (seq->next + 1) & (seq->modulus - 1);
    }

  return lost;
}

/* A frame counted lost arrived after all: one lost frame less, in the
 * count and in the newest mark of lost frames. */
static void
take_back_lost (SpsEtraceDecoder *self)
{
  if (self->counts[SPS_ETRACE_HEALTH_LOST_FRAMES] > 0)
    self->counts[SPS_ETRACE_HEALTH_LOST_FRAMES]--;
  for (guint i = self->marks->len; i-- > 0;)
    {
      SpsEtraceMark *mark = &g_array_index (self->marks, SpsEtraceMark, i);

      if (mark->health != SPS_ETRACE_HEALTH_LOST_FRAMES)
        continue;
      if (--mark->count == 0)
        g_array_remove_index (self->marks, i);
      break;
    }
}

static void
track_sequence (SpsEtraceDecoder *self,
                guint64           s)
{
  gboolean backwards;
  gint64 lost = seq_track (&self->seq, s, &backwards);

  if (lost < 0)
    take_back_lost (self);
  else if (lost > 0)
    {
      g_autofree char *message =
        /* Translators: %lu are a count, a stream offset and a sequence number */
        g_strdup_printf (_("byte %" PRIu64 ": %" PRIu64 " frames lost before sequence number %" PRIu64),
                         self->offset, (guint64) lost, s);

      note (self, SPS_ETRACE_HEALTH_LOST_FRAMES, (guint64) lost, message);
    }
}

/* Time */

/* Times are kept within ±2^62 ns (±146 years), so that differences of
 * two of them never overflow, whatever a damaged stream says. */
#define TIME_LIMIT ((G_GINT64_CONSTANT (1) << 62) - 1)

static gint64
clamp_time (gint64 ns)
{
  return CLAMP (ns, -TIME_LIMIT, TIME_LIMIT);
}

static gint64
ticks_to_ns (SpsEtraceDecoder *self,
             gint64            ticks)
{
  gint64 f = self->core_frequency_hz;
  gint64 whole;
  gint64 rest;
  gint64 ns;

  if (!self->cycles || f == 0)
    return clamp_time (ticks);

  /* Split so the fraction cannot overflow; the whole seconds saturate. */
  whole = ticks / f;
  rest = ticks % f;
  if (__builtin_mul_overflow (whole, G_GINT64_CONSTANT (1000000000), &ns))
    return whole < 0 ? -TIME_LIMIT : TIME_LIMIT;

  /* Clamped before the fraction (under a second) is added: whole seconds
   * just below the overflow would overflow with it. */
  return clamp_time (clamp_time (ns) + rest * G_GINT64_CONSTANT (1000000000) / f);
}

static void
set_clock (SpsEtraceDecoder *self,
           gint64            ticks)
{
  self->clock = ticks;
  self->last_ns = clamp_time (ticks_to_ns (self, ticks) + self->offset_ns);
}

static void
advance_clock (SpsEtraceDecoder *self,
               gint64            delta)
{
  /* Wrapping add: a hostile delta must not be undefined behaviour. */
  set_clock (self, (gint64) ((guint64) self->clock + (guint64) delta));
}

static void
device_reset (SpsEtraceDecoder *self,
              const char       *message)
{
  gint64 before = self->last_ns;

  note (self, SPS_ETRACE_HEALTH_DEVICE_RESETS, 1, message);
  note (self, SPS_ETRACE_HEALTH_LOST_FRAMES, seq_flush (&self->seq), NULL);

  self->seq.started = FALSE;
  g_hash_table_remove_all (self->dict);
  g_array_set_size (self->dict_small, 0);
  g_hash_table_remove_all (self->by_text);
  if (self->segment < G_MAXUINT16)
    self->segment++;

  /* The device clock started again: the new boot's times are counted
   * from the last time of the old one, so the boots follow each other on
   * the timeline instead of overlapping. */
  self->offset_ns = before;
}

static void
add_event (SpsEtraceDecoder *self,
           guint             kind,
           guint32           name,
           gboolean          has_value,
           guint32           value)
{
  SpsEtraceEvent event;

  self->frames++;
  if (!self->keep_events)
    return;

  event.time_ns = self->last_ns;
  event.value = has_value ? value : 0;
  event.name = name;
  event.kind = kind;
  event.has_value = has_value != FALSE;
  g_array_append_val (self->events, event);
}

/* v2 */

static void
handle_v2 (SpsEtraceDecoder          *self,
           const Tracing__TraceFrame *frame)
{
  guint kind = frame->event_type;
  guint32 found;

  switch (kind)
    {
    case SPS_ETRACE_TRACE_START:
      self->frames++;
      if (self->have_start && frame->timestamp_ticks < self->clock)
        {
          g_autofree char *message =
            /* Translators: %lu is a byte offset in the stream */
            g_strdup_printf (_("byte %" PRIu64 ": the device restarted (its clock went backwards)"),
                             self->offset);

          device_reset (self, message);
        }
      self->have_start = TRUE;
      self->cycles = frame->timebase == TRACING__TIME_BASE__CYCLES;
      self->core_frequency_hz = frame->core_frequency_hz;
      track_sequence (self, frame->sequence);
      set_clock (self, frame->timestamp_ticks);
      return;

    case SPS_ETRACE_NAME_REGISTERED:
      self->frames++;
      track_sequence (self, frame->sequence);
      set_clock (self, frame->timestamp_ticks);
      if (frame->name_id == 0 || frame->name == NULL || frame->name[0] == '\0')
        {
          note (self, SPS_ETRACE_HEALTH_INVALID_FRAMES, 1,
                _("a dictionary entry without an id or a name"));
          return;
        }
      found = dict_get (self, frame->name_id);
      if (found == 0 ||
          strcmp (((SpsEtraceName *) g_ptr_array_index (self->names, found - 1))->name, frame->name) != 0)
        {
          guint32 index = add_name (self, frame->name);

          if (index == G_MAXUINT32)
            return;
          found = index + 1;
          dict_set (self, frame->name_id, found);
        }
      set_attributes (g_ptr_array_index (self->names, found - 1),
                      frame->source_type, frame->priority,
                      frame->has_relative_deadline_ms_case == TRACING__TRACE_FRAME__HAS_RELATIVE_DEADLINE_MS_RELATIVE_DEADLINE_MS,
                      frame->relative_deadline_ms);
      return;

    case SPS_ETRACE_SPAN_START:
    case SPS_ETRACE_SPAN_END:
    case SPS_ETRACE_MARKER:
      track_sequence (self, frame->sequence);
      advance_clock (self, frame->timestamp_ticks);
      found = dict_get (self, frame->name_id);
      if (found == 0)
        {
          g_autofree char *message =
            /* Translators: %lu is a byte offset, %u a dictionary id */
            g_strdup_printf (_("byte %" PRIu64 ": an event with the unknown name id %u was dropped"),
                             self->offset, frame->name_id);

          self->frames++;
          note (self, SPS_ETRACE_HEALTH_UNKNOWN_NAME_EVENTS, 1, message);
          return;
        }
      add_event (self, kind, found - 1,
                 frame->has_marker_value_case == TRACING__TRACE_FRAME__HAS_MARKER_VALUE_MARKER_VALUE,
                 frame->marker_value);
      return;

    default:
      {
        g_autofree char *message =
          /* Translators: %lu is a byte offset, %u the frame class found */
          g_strdup_printf (_("byte %" PRIu64 ": a frame of the unknown class %u was skipped"),
                           self->offset, kind);

        self->frames++;
        note (self, SPS_ETRACE_HEALTH_INVALID_FRAMES, 1, message);
      }
      return;
    }
}

/* v1: every frame carries its name and an absolute time */

static void
handle_v1 (SpsEtraceDecoder              *self,
           const Tracing__V1__TraceEvent *event)
{
  gboolean backwards;
  gint64 lost;
  gpointer found;
  guint32 index;
  gint64 ticks = (gint64) event->timestamp_ns;
  guint kind = event->event_type;

  if (kind < SPS_ETRACE_SPAN_START || kind > SPS_ETRACE_MARKER ||
      event->name == NULL || event->name[0] == '\0')
    {
      g_autofree char *message =
        /* Translators: %lu is a byte offset in the stream */
        g_strdup_printf (_("byte %" PRIu64 ": an event without a name or with an unknown type was skipped"),
                         self->offset);

      self->frames++;
      note (self, SPS_ETRACE_HEALTH_INVALID_FRAMES, 1, message);
      return;
    }

  lost = seq_track (&self->seq, event->sequence, &backwards);
  if (backwards)
    {
      g_autofree char *message =
        /* Translators: %lu is a byte offset in the stream */
        g_strdup_printf (_("byte %" PRIu64 ": the device restarted (its sequence numbers started again)"),
                         self->offset);

      device_reset (self, message);
      seq_restart (&self->seq, event->sequence);
      seq_track (&self->seq, event->sequence, &backwards);
    }
  if (lost < 0)
    take_back_lost (self);
  else if (lost > 0)
    {
      g_autofree char *message =
        g_strdup_printf (_("byte %" PRIu64 ": %" PRIu64 " frames lost before sequence number %" PRIu64),
                         self->offset, (guint64) lost, (guint64) event->sequence);

      note (self, SPS_ETRACE_HEALTH_LOST_FRAMES, (guint64) lost, message);
    }

  set_clock (self, ticks);

  found = g_hash_table_lookup (self->by_text, event->name);
  if (found == NULL)
    {
      index = add_name (self, event->name);
      if (index == G_MAXUINT32)
        {
          note (self, SPS_ETRACE_HEALTH_UNKNOWN_NAME_EVENTS, 1, NULL);
          return;
        }
      g_hash_table_insert (self->by_text,
                           ((SpsEtraceName *) g_ptr_array_index (self->names, index))->name,
                           GUINT_TO_POINTER (index + 1));
    }
  else
    index = GPOINTER_TO_UINT (found) - 1;

  if (kind == SPS_ETRACE_SPAN_START)
    set_attributes (g_ptr_array_index (self->names, index),
                    event->source_type, event->priority,
                    event->has_relative_deadline_ms_case == TRACING__V1__TRACE_EVENT__HAS_RELATIVE_DEADLINE_MS_RELATIVE_DEADLINE_MS,
                    event->relative_deadline_ms);

  add_event (self, kind, index,
             event->has_marker_value_case == TRACING__V1__TRACE_EVENT__HAS_MARKER_VALUE_MARKER_VALUE,
             event->marker_value);
}

/* Framing */

typedef enum
{
  FRAME_OK,
  FRAME_INCOMPLETE,
  FRAME_BAD,
} FrameStatus;

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
          handle_v2 (self, frame);
          ok = TRUE;
        }
    }
  else
    {
      Tracing__V1__TraceEvent *event = tracing__v1__trace_event__unpack (&self->arena.base, len, p);

      if (event != NULL)
        {
          handle_v1 (self, event);
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
  note_at (self, SPS_ETRACE_HEALTH_DESYNC, 1, message, self->desync_offset);
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

          note (self, SPS_ETRACE_HEALTH_TRUNCATED_FRAME, 1, message);
        }
      self->offset += self->n_pending - used;
      self->n_pending = 0;
    }
  if (self->desynced)
    end_desync (self);

  note (self, SPS_ETRACE_HEALTH_LOST_FRAMES, seq_flush (&self->seq), NULL);
  self->finished = TRUE;
}

SpsEtraceDecoder *
sps_etrace_decoder_new (void)
{
  SpsEtraceDecoder *self = g_new0 (SpsEtraceDecoder, 1);

  self->arena.base.alloc = arena_alloc;
  self->arena.base.free = arena_free;
  self->arena.base.allocator_data = &self->arena;
  self->keep_events = TRUE;
  self->dict = g_hash_table_new (NULL, NULL);
  self->dict_small = g_array_new (FALSE, TRUE, sizeof (guint32));
  self->by_text = g_hash_table_new (g_str_hash, g_str_equal);
  self->names = g_ptr_array_new_with_free_func (name_free);
  self->events = g_array_new (FALSE, FALSE, sizeof (SpsEtraceEvent));
  self->marks = g_array_new (FALSE, FALSE, sizeof (SpsEtraceMark));
  self->seq.modulus = V2_SEQUENCE_MODULUS;

  return self;
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
