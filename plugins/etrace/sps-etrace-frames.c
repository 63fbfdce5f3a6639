/* sps-etrace-frames.c: what each frame of an embedded execution trace
 * does to SpsEtraceDecoder: names, dictionary, health, sequence numbers,
 * clock, events
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-etrace"

#include "config.h"

#include <inttypes.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "sps-etrace-decoder-private.h"

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

void *
_sps_etrace_arena_alloc (void   *data,
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

void
_sps_etrace_arena_free (void *data,
                        void *pointer)
{
  /* Everything goes at once in arena_reset() */
}


/* Names */

void
_sps_etrace_name_free (gpointer data)
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
void
_sps_etrace_note_at (SpsEtraceDecoder *self,
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

void
_sps_etrace_note (SpsEtraceDecoder *self,
                  SpsEtraceHealth   health,
                  guint64           count,
                  const char       *message)
{
  _sps_etrace_note_at (self, health, count, message, self->offset);
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
guint64
_sps_etrace_seq_flush (SeqTracker *seq)
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

      _sps_etrace_note (self, SPS_ETRACE_HEALTH_LOST_FRAMES, (guint64) lost, message);
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

  _sps_etrace_note (self, SPS_ETRACE_HEALTH_DEVICE_RESETS, 1, message);
  _sps_etrace_note (self, SPS_ETRACE_HEALTH_LOST_FRAMES, _sps_etrace_seq_flush (&self->seq), NULL);

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

void
_sps_etrace_handle_v2 (SpsEtraceDecoder          *self,
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
          _sps_etrace_note (self, SPS_ETRACE_HEALTH_INVALID_FRAMES, 1,
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
          _sps_etrace_note (self, SPS_ETRACE_HEALTH_UNKNOWN_NAME_EVENTS, 1, message);
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
        _sps_etrace_note (self, SPS_ETRACE_HEALTH_INVALID_FRAMES, 1, message);
      }
      return;
    }
}

/* v1: every frame carries its name and an absolute time */

void
_sps_etrace_handle_v1 (SpsEtraceDecoder              *self,
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
      _sps_etrace_note (self, SPS_ETRACE_HEALTH_INVALID_FRAMES, 1, message);
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

      _sps_etrace_note (self, SPS_ETRACE_HEALTH_LOST_FRAMES, (guint64) lost, message);
    }

  set_clock (self, ticks);

  found = g_hash_table_lookup (self->by_text, event->name);
  if (found == NULL)
    {
      index = add_name (self, event->name);
      if (index == G_MAXUINT32)
        {
          _sps_etrace_note (self, SPS_ETRACE_HEALTH_UNKNOWN_NAME_EVENTS, 1, NULL);
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
