/* sps-etrace-decoder.h: frames of an embedded execution trace → events
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Wire values shared by v1 and v2 (formats/embedded-trace.md §2) */
typedef enum
{
  SPS_ETRACE_SPAN_START      = 1,
  SPS_ETRACE_SPAN_END        = 2,
  SPS_ETRACE_MARKER          = 3,
  SPS_ETRACE_NAME_REGISTERED = 4,
  SPS_ETRACE_TRACE_START     = 5,
} SpsEtraceKind;

typedef enum
{
  SPS_ETRACE_SOURCE_UNKNOWN = 0,
  SPS_ETRACE_SOURCE_ISR     = 1,
  SPS_ETRACE_SOURCE_TASK    = 2,
} SpsEtraceSource;

typedef enum
{
  SPS_ETRACE_VERSION_UNKNOWN = 0,
  SPS_ETRACE_VERSION_1       = 1,
  SPS_ETRACE_VERSION_2       = 2,
} SpsEtraceVersion;

/* What the capture-health track shows; the names are the warning names. */
typedef enum
{
  SPS_ETRACE_HEALTH_LOST_FRAMES,
  SPS_ETRACE_HEALTH_UNKNOWN_NAME_EVENTS,
  SPS_ETRACE_HEALTH_UNMATCHED_END,
  SPS_ETRACE_HEALTH_DISCARDED_RESTARTS,
  SPS_ETRACE_HEALTH_OPEN_AT_END,
  SPS_ETRACE_HEALTH_DEVICE_RESETS,
  SPS_ETRACE_HEALTH_DESYNC,
  SPS_ETRACE_HEALTH_INVALID_FRAMES,
  SPS_ETRACE_HEALTH_TRUNCATED_FRAME,
  SPS_ETRACE_N_HEALTH,
} SpsEtraceHealth;

const char *sps_etrace_health_name (SpsEtraceHealth health);

/* One resolved name (per boot of the device: a reset starts new entries). */
typedef struct
{
  char    *name;
  guint32  priority;
  float    deadline_ms;
  guint16  segment;         /* boot of the device, counted from 0 */
  guint8   source;          /* SpsEtraceSource */
  gboolean has_deadline;
} SpsEtraceName;

/* Names of one stream at most (the index shares a word with the kind) */
#define SPS_ETRACE_MAX_NAMES (1u << 29)

/* One span start/end or marker, in stream order, with its absolute time.
 * 16 bytes: a capture holds one per frame, and writing them is a good
 * part of the decoding time. */
typedef struct
{
  gint64  time_ns;
  guint32 value;
  guint32 name : 29;        /* index into names */
  guint32 kind : 2;         /* SpsEtraceKind, SPAN_START to MARKER */
  guint32 has_value : 1;
} SpsEtraceEvent;

G_STATIC_ASSERT (sizeof (SpsEtraceEvent) == 16);

typedef struct
{
  gint64  time_ns;
  guint64 count;
  guint64 offset;           /* byte offset in the stream */
  guint8  health;           /* SpsEtraceHealth */
} SpsEtraceMark;

typedef struct _SpsEtraceDecoder SpsEtraceDecoder;

SpsEtraceDecoder *sps_etrace_decoder_new            (void);
void              sps_etrace_decoder_free           (SpsEtraceDecoder *self);
SpsEtraceDecoder *sps_etrace_decoder_copy           (SpsEtraceDecoder *self);
void              sps_etrace_decoder_set_keep_events (SpsEtraceDecoder *self,
                                                     gboolean          keep);
void              sps_etrace_decoder_reserve        (SpsEtraceDecoder *self,
                                                     guint64           n_bytes);
void              sps_etrace_decoder_set_source     (SpsEtraceDecoder *self,
                                                     const char       *source);
const char       *sps_etrace_decoder_get_source     (SpsEtraceDecoder *self);
gsize             sps_etrace_decoder_feed           (SpsEtraceDecoder *self,
                                                     const guint8     *data,
                                                     gsize             len);
void              sps_etrace_decoder_finish         (SpsEtraceDecoder *self);

SpsEtraceVersion  sps_etrace_decoder_get_version    (SpsEtraceDecoder *self);
gboolean          sps_etrace_decoder_get_cycles     (SpsEtraceDecoder *self,
                                                     guint32          *core_frequency_hz);
guint64           sps_etrace_decoder_get_frames     (SpsEtraceDecoder *self);
guint64           sps_etrace_decoder_get_skipped_bytes (SpsEtraceDecoder *self);
guint64           sps_etrace_decoder_get_count      (SpsEtraceDecoder *self,
                                                     SpsEtraceHealth   health);
const char       *sps_etrace_decoder_get_first_message (SpsEtraceDecoder *self,
                                                     SpsEtraceHealth   health);
GArray           *sps_etrace_decoder_get_events     (SpsEtraceDecoder *self);
GPtrArray        *sps_etrace_decoder_get_names      (SpsEtraceDecoder *self);
GArray           *sps_etrace_decoder_get_marks      (SpsEtraceDecoder *self);
guint             sps_etrace_decoder_get_n_segments (SpsEtraceDecoder *self);

guint             sps_etrace_probe                  (const guint8     *data,
                                                     gsize             len);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpsEtraceDecoder, sps_etrace_decoder_free)

G_END_DECLS
