/* sps-etrace-decoder-private.h: the state of SpsEtraceDecoder, shared by
 * its framing (sps-etrace-decoder.c) and what frames do to it
 * (sps-etrace-frames.c)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "tracing.pb-c.h"
#include "tracing_v1.pb-c.h"

#include "sps-etrace-decoder.h"

G_BEGIN_DECLS

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

typedef enum
{
  FRAME_OK,
  FRAME_INCOMPLETE,
  FRAME_BAD,
} FrameStatus;

static inline void
arena_reset (Arena *arena)
{
  arena->used = 0;
}

/* Wire id → names index + 1, 0 when unknown */
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

void    *_sps_etrace_arena_alloc (void                          *data,
                                  size_t                         size);
void     _sps_etrace_arena_free  (void                          *data,
                                  void                          *pointer);
void     _sps_etrace_name_free   (gpointer                       data);
void     _sps_etrace_note_at     (SpsEtraceDecoder              *self,
                                  SpsEtraceHealth                health,
                                  guint64                        count,
                                  const char                    *message,
                                  guint64                        offset);
void     _sps_etrace_note        (SpsEtraceDecoder              *self,
                                  SpsEtraceHealth                health,
                                  guint64                        count,
                                  const char                    *message);
guint64  _sps_etrace_seq_flush   (SeqTracker                    *seq);
void     _sps_etrace_handle_v2   (SpsEtraceDecoder              *self,
                                  const Tracing__TraceFrame     *frame);
void     _sps_etrace_handle_v1   (SpsEtraceDecoder              *self,
                                  const Tracing__V1__TraceEvent *event);

G_END_DECLS
