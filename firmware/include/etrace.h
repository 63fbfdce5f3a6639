/* etrace.h: embedded execution tracing for bare-metal targets
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Records named spans (an ISR or task activation: start and end) and point
 * markers, and encodes them as execution-trace wire format v2 frames
 * (firmware/proto/tracing.proto) for any byte transport: UART, USB, an
 * RTT-style RAM ring buffer read by a debug probe, a buffer dumped after a
 * crash.
 *
 * Plain C99 with no heap and no OS: the library uses only <stdint.h>,
 * <stddef.h>, <stdbool.h> and <string.h>, and all of its state lives in the
 * objects the application passes in.
 *
 * Two layers:
 *
 * - etrace_encoder_t turns events into bytes. It keeps the per-stream state
 *   the format needs: the name dictionary, the timestamp the next delta is
 *   taken against, the sequence counter and the 64-bit extension of a 32-bit
 *   cycle counter. Use it directly when events pass through a queue and are
 *   encoded later by a lower-priority task.
 * - etrace_t is the recorder on top: it reads the clock, numbers the event,
 *   encodes it and hands the bytes to the transport, all in one critical
 *   section.
 *
 * Configuration macros (define them on the compiler command line, or in a
 * header named by ETRACE_CONFIG_FILE):
 *
 * - ETRACE_ENABLED (default 1): 0 turns every function below into an empty
 *   inline function, so call sites need no #if and an optimised build
 *   contains nothing of the library.
 * - ETRACE_NAME_CAPACITY (default 40, at most 255): dictionary entries. Each
 *   costs 10 bytes of RAM on a 32-bit target.
 * - ETRACE_REEMIT_PERIOD_MS (default 2000, 0 = never): how often the stream
 *   header and the whole dictionary are sent again so that a host attaching
 *   mid-run can resolve names.
 * - ETRACE_LOCK_DECL, ETRACE_LOCK(), ETRACE_UNLOCK(): the critical section
 *   around the recorder's encoder and transport calls. The default is empty,
 *   which is right for single-context use only; see firmware/README.md for
 *   Cortex-M PRIMASK versions.
 */

#ifndef ETRACE_H
#define ETRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef ETRACE_CONFIG_FILE
# include ETRACE_CONFIG_FILE
#endif

#ifdef __cplusplus
extern "C" {
#endif

#ifndef ETRACE_ENABLED
# define ETRACE_ENABLED 1
#endif

#ifndef ETRACE_NAME_CAPACITY
# define ETRACE_NAME_CAPACITY 40
#endif

#ifndef ETRACE_REEMIT_PERIOD_MS
# define ETRACE_REEMIT_PERIOD_MS 2000u
#endif

#ifndef ETRACE_LOCK_DECL
# define ETRACE_LOCK_DECL
# define ETRACE_LOCK() ((void) 0)
# define ETRACE_UNLOCK() ((void) 0)
#endif

#if ETRACE_NAME_CAPACITY < 1 || ETRACE_NAME_CAPACITY > 255
# error "ETRACE_NAME_CAPACITY must be between 1 and 255"
#endif

/* Limits of the wire format (execution-trace v2). */

/** Largest frame, length prefix included. */
#define ETRACE_MAX_FRAME_SIZE 128
/** Most bytes one call of the upstream encoder may write (two frames). */
#define ETRACE_MAX_BURST_SIZE 256
/** Longest name in bytes (UTF-8, no terminator); longer names are refused. */
#define ETRACE_MAX_NAME_LENGTH 32
/** Sequence numbers count modulo this. */
#define ETRACE_SEQUENCE_MODULUS 16384u
/** etrace_event_t.sequence value asking the encoder to number the event
 * itself, as when it is recorded and encoded at once. */
#define ETRACE_SEQUENCE_AUTO 0xffffu

/* Worst cases of this encoder, prefix included, from the field table: the
 * timestamp takes up to 1 + 10 bytes, a name id 1 + 2 (ids <= 255), the
 * event type 2, the sequence 1 + 2, a marker value 1 + 5, a name 2 + 32, a
 * source type 2, a priority 1 + 2 (<= 255), a deadline 1 + 4, a timebase 2,
 * the core frequency and the source mask 1 + 5 each. */

/** Largest SPAN_START, SPAN_END or MARKER frame. */
#define ETRACE_MAX_EVENT_FRAME_SIZE 26
/** Largest NAME_REGISTERED frame. */
#define ETRACE_MAX_NAME_FRAME_SIZE 64
/** Largest TRACE_START frame. */
#define ETRACE_MAX_HEADER_FRAME_SIZE 31
/** Buffer that always holds one encoder call: a dictionary entry (or a
 * re-emitted header) followed by the event. Far below
 * ETRACE_MAX_BURST_SIZE, which keeps the recorder's stack use small. */
#define ETRACE_ENCODE_BUFFER_SIZE \
  (ETRACE_MAX_NAME_FRAME_SIZE + ETRACE_MAX_EVENT_FRAME_SIZE)

/**
 * etrace_status_t:
 * @ETRACE_OK: the frames were written
 * @ETRACE_DICTIONARY_FULL: written, but the name did not fit in the
 *   dictionary and went out with the reserved id 0; the host cannot name it
 * @ETRACE_ERR_NAME: the name is NULL, empty or longer than
 *   %ETRACE_MAX_NAME_LENGTH bytes; nothing was written
 * @ETRACE_ERR_ARGUMENT: another argument is invalid; nothing was written
 * @ETRACE_ERR_BUFFER: the output buffer is too small; nothing was written
 * @ETRACE_ERR_TRANSPORT: the transport refused the bytes; the encoder state
 *   was rolled back, and the host sees the frames' sequence numbers missing
 *
 * Negative values are errors; 0 and positive values mean bytes were written.
 */
typedef enum
{
  ETRACE_OK = 0,
  ETRACE_DICTIONARY_FULL = 1,
  ETRACE_ERR_NAME = -1,
  ETRACE_ERR_ARGUMENT = -2,
  ETRACE_ERR_BUFFER = -3,
  ETRACE_ERR_TRANSPORT = -4,
} etrace_status_t;

/** Where a span runs (wire enum TraceEventSourceType). */
typedef enum
{
  ETRACE_SOURCE_UNSPECIFIED = 0,
  ETRACE_SOURCE_ISR = 1,
  ETRACE_SOURCE_TASK = 2,
} etrace_source_t;

/** Event frame classes (wire enum TraceEventType, values 1-3). */
typedef enum
{
  ETRACE_EVENT_SPAN_START = 1,
  ETRACE_EVENT_SPAN_END = 2,
  ETRACE_EVENT_MARKER = 3,
} etrace_event_type_t;

/** Unit of the timestamps (wire enum TimeBase). */
typedef enum
{
  /* Timestamps are 64-bit nanoseconds. */
  ETRACE_TIMEBASE_NANOSECONDS = 0,
  /* Timestamps are a free-running 32-bit core cycle counter (e.g. DWT
   * CYCCNT); the encoder extends it to 64 bits. */
  ETRACE_TIMEBASE_CYCLES = 1,
} etrace_timebase_t;

/**
 * etrace_event_t:
 * @timestamp: when the event happened: nanoseconds, or in CYCLES mode the raw
 *   counter (only the low 32 bits are read)
 * @name: the span or marker name; must stay valid and unchanged while the
 *   encoder lives (normally a string literal), because the dictionary keeps
 *   the pointer rather than a copy
 * @sequence: from etrace_encoder_next_sequence(), taken when the event was
 *   recorded, or %ETRACE_SEQUENCE_AUTO
 * @type: an #etrace_event_type_t
 * @source: an #etrace_source_t (SPAN_START only)
 * @priority: scheduler priority, 0 = unknown (SPAN_START only)
 * @has_deadline: whether @deadline_ms is set (SPAN_START only)
 * @has_value: whether @value is set (MARKER only)
 * @deadline_ms: deadline relative to the span start, in milliseconds
 * @value: marker payload
 */
typedef struct
{
  uint64_t timestamp;
  const char *name;
  uint16_t sequence;
  uint8_t type;
  uint8_t source;
  uint8_t priority;
  bool has_deadline;
  bool has_value;
  float deadline_ms;
  uint32_t value;
} etrace_event_t;

/**
 * etrace_encoded_t:
 * @len: bytes written
 * @name_registry_full: the event went out with name id 0 because the
 *   dictionary is full
 *
 * What one encoder call wrote. The remaining members are private: they let
 * etrace_encoder_discard() undo the call.
 */
typedef struct
{
  size_t len;
  bool name_registry_full;
  /* < private > */
  uint64_t prev_clock_;
  uint16_t prev_cursor_;
  uint8_t announced_;
} etrace_encoded_t;

/**
 * etrace_write_fn:
 * @user: the config's transport_user
 * @data: one or two whole frames
 * @len: at most %ETRACE_ENCODE_BUFFER_SIZE
 *
 * The transport. Called inside the recorder's critical section, so it must
 * not block for long (queue the bytes; see the ring-buffer example).
 *
 * Returns: true if all @len bytes were accepted, false if none were (never
 *   accept part of a call: the stream would lose its framing).
 */
typedef bool (*etrace_write_fn) (void           *user,
                                 const uint8_t  *data,
                                 size_t          len);

/**
 * etrace_now_fn:
 * @user: the config's clock_user
 *
 * The clock: nanoseconds, or the raw 32-bit cycle counter in CYCLES mode (one
 * volatile load, e.g. `return DWT->CYCCNT;`).
 */
typedef uint64_t (*etrace_now_fn) (void *user);

/**
 * etrace_config_t:
 * @write: the transport
 * @transport_user: passed to @write
 * @now_ticks: the clock
 * @clock_user: passed to @now_ticks
 * @timebase: unit of @now_ticks
 * @core_frequency_hz: core clock in CYCLES mode, 0 for nanoseconds
 */
typedef struct
{
  etrace_write_fn write;
  void *transport_user;
  etrace_now_fn now_ticks;
  void *clock_user;
  etrace_timebase_t timebase;
  uint32_t core_frequency_hz;
} etrace_config_t;

#if ETRACE_ENABLED

/* Private: the encoder's state. Only the functions below touch it. The
 * dictionary is kept as parallel arrays, which saves the padding a struct
 * per entry would need: 10 bytes per entry on a 32-bit target. */
typedef struct
{
  uint64_t clock;
  uint64_t cycles;
  uint64_t next_reemit;
  uint64_t reemit_period;
  uint32_t core_frequency_hz;
  uint32_t source_mask;
  uint16_t sequence;
  uint16_t cursor;
  uint8_t timebase;
  uint8_t count;
  uint8_t flags;
  const char *names[ETRACE_NAME_CAPACITY];
  float deadlines_ms[ETRACE_NAME_CAPACITY];
  uint8_t priorities[ETRACE_NAME_CAPACITY];
  uint8_t name_flags[ETRACE_NAME_CAPACITY];
} etrace_encoder_t;

/* The recorder. Private members; use the functions below. */
typedef struct
{
  etrace_encoder_t encoder;
  etrace_write_fn write;
  void *transport_user;
  etrace_now_fn now_ticks;
  void *clock_user;
  uint32_t transport_failures;
} etrace_t;

/* Encoder. */

void            etrace_encoder_init               (etrace_encoder_t       *enc,
                                                   etrace_timebase_t       timebase,
                                                   uint32_t                core_frequency_hz);
void            etrace_encoder_set_reemit_period  (etrace_encoder_t       *enc,
                                                   uint64_t                ticks);
uint16_t        etrace_encoder_next_sequence      (etrace_encoder_t       *enc);
etrace_status_t etrace_encoder_trace_start        (etrace_encoder_t       *enc,
                                                   uint64_t                timestamp,
                                                   uint32_t                source_mask,
                                                   uint8_t                *buf,
                                                   size_t                  cap,
                                                   etrace_encoded_t       *out);
etrace_status_t etrace_encoder_encode             (etrace_encoder_t       *enc,
                                                   const etrace_event_t   *event,
                                                   uint8_t                *buf,
                                                   size_t                  cap,
                                                   etrace_encoded_t       *out);
etrace_status_t etrace_encoder_poll               (etrace_encoder_t       *enc,
                                                   uint64_t                timestamp,
                                                   uint8_t                *buf,
                                                   size_t                  cap,
                                                   etrace_encoded_t       *out);
void            etrace_encoder_discard            (etrace_encoder_t       *enc,
                                                   const etrace_encoded_t *encoded);
size_t          etrace_name_length                (const char             *name);

/* Recorder. */

void            etrace_init                       (etrace_t               *trace,
                                                   const etrace_config_t  *config);
etrace_status_t etrace_start                      (etrace_t               *trace,
                                                   uint32_t                source_mask);
etrace_status_t etrace_span_start                 (etrace_t               *trace,
                                                   const char             *name,
                                                   etrace_source_t         source,
                                                   uint8_t                 priority);
etrace_status_t etrace_span_start_deadline        (etrace_t               *trace,
                                                   const char             *name,
                                                   etrace_source_t         source,
                                                   uint8_t                 priority,
                                                   float                   deadline_ms);
etrace_status_t etrace_span_end                   (etrace_t               *trace,
                                                   const char             *name);
etrace_status_t etrace_marker                     (etrace_t               *trace,
                                                   const char             *name);
etrace_status_t etrace_marker_value               (etrace_t               *trace,
                                                   const char             *name,
                                                   uint32_t                value);
etrace_status_t etrace_poll                       (etrace_t               *trace);
uint32_t        etrace_transport_failures         (const etrace_t         *trace);

#else /* !ETRACE_ENABLED */

/* Disabled: the same API as empty inline functions. Arguments are still
 * evaluated (as for a real call), and the optimiser removes the rest,
 * including string literals and callbacks used only here. */

#if defined(__GNUC__) || defined(__clang__)
# define ETRACE_INLINE_ static inline __attribute__ ((always_inline))
#else
# define ETRACE_INLINE_ static inline
#endif

typedef struct
{
  uint8_t unused_;
} etrace_encoder_t;

typedef struct
{
  uint8_t unused_;
} etrace_t;

ETRACE_INLINE_ void
etrace_encoder_init (etrace_encoder_t  *enc,
                     etrace_timebase_t  timebase,
                     uint32_t           core_frequency_hz)
{
  (void) enc; (void) timebase; (void) core_frequency_hz;
}

ETRACE_INLINE_ void
etrace_encoder_set_reemit_period (etrace_encoder_t *enc,
                                  uint64_t          ticks)
{
  (void) enc; (void) ticks;
}

ETRACE_INLINE_ uint16_t
etrace_encoder_next_sequence (etrace_encoder_t *enc)
{
  (void) enc;
  return 0;
}

ETRACE_INLINE_ etrace_status_t
etrace_encoder_trace_start (etrace_encoder_t *enc,
                            uint64_t          timestamp,
                            uint32_t          source_mask,
                            uint8_t          *buf,
                            size_t            cap,
                            etrace_encoded_t *out)
{
  (void) enc; (void) timestamp; (void) source_mask; (void) buf; (void) cap;
  out->len = 0;
  out->name_registry_full = false;
  return ETRACE_OK;
}

ETRACE_INLINE_ etrace_status_t
etrace_encoder_encode (etrace_encoder_t     *enc,
                       const etrace_event_t *event,
                       uint8_t              *buf,
                       size_t                cap,
                       etrace_encoded_t     *out)
{
  (void) enc; (void) event; (void) buf; (void) cap;
  out->len = 0;
  out->name_registry_full = false;
  return ETRACE_OK;
}

ETRACE_INLINE_ etrace_status_t
etrace_encoder_poll (etrace_encoder_t *enc,
                     uint64_t          timestamp,
                     uint8_t          *buf,
                     size_t            cap,
                     etrace_encoded_t *out)
{
  (void) enc; (void) timestamp; (void) buf; (void) cap;
  out->len = 0;
  out->name_registry_full = false;
  return ETRACE_OK;
}

ETRACE_INLINE_ void
etrace_encoder_discard (etrace_encoder_t       *enc,
                        const etrace_encoded_t *encoded)
{
  (void) enc; (void) encoded;
}

ETRACE_INLINE_ size_t
etrace_name_length (const char *name)
{
  (void) name;
  return 0;
}

ETRACE_INLINE_ void
etrace_init (etrace_t              *trace,
             const etrace_config_t *config)
{
  (void) trace; (void) config;
}

ETRACE_INLINE_ etrace_status_t
etrace_start (etrace_t *trace,
              uint32_t  source_mask)
{
  (void) trace; (void) source_mask;
  return ETRACE_OK;
}

ETRACE_INLINE_ etrace_status_t
etrace_span_start (etrace_t        *trace,
                   const char      *name,
                   etrace_source_t  source,
                   uint8_t          priority)
{
  (void) trace; (void) name; (void) source; (void) priority;
  return ETRACE_OK;
}

ETRACE_INLINE_ etrace_status_t
etrace_span_start_deadline (etrace_t        *trace,
                            const char      *name,
                            etrace_source_t  source,
                            uint8_t          priority,
                            float            deadline_ms)
{
  (void) trace; (void) name; (void) source; (void) priority;
  (void) deadline_ms;
  return ETRACE_OK;
}

ETRACE_INLINE_ etrace_status_t
etrace_span_end (etrace_t   *trace,
                 const char *name)
{
  (void) trace; (void) name;
  return ETRACE_OK;
}

ETRACE_INLINE_ etrace_status_t
etrace_marker (etrace_t   *trace,
               const char *name)
{
  (void) trace; (void) name;
  return ETRACE_OK;
}

ETRACE_INLINE_ etrace_status_t
etrace_marker_value (etrace_t   *trace,
                     const char *name,
                     uint32_t    value)
{
  (void) trace; (void) name; (void) value;
  return ETRACE_OK;
}

ETRACE_INLINE_ etrace_status_t
etrace_poll (etrace_t *trace)
{
  (void) trace;
  return ETRACE_OK;
}

ETRACE_INLINE_ uint32_t
etrace_transport_failures (const etrace_t *trace)
{
  (void) trace;
  return 0;
}

#endif /* ETRACE_ENABLED */

#ifdef __cplusplus
}
#endif

#endif /* ETRACE_H */
