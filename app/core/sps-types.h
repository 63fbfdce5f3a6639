/* sps-types.h: basic types shared by the whole trace model
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_CORE_INSIDE) && !defined (SPANSCOPE_CORE_COMPILATION)
# error "Only <spanscope-core.h> can be included directly."
#endif

#include <glib-object.h>

#include "sps-version-macros.h"

G_BEGIN_DECLS

/**
 * SpsTime:
 *
 * A point in time or a duration, in nanoseconds. Timestamps are kept as the
 * producer wrote them (converted to ns), so they may be negative.
 */
typedef gint64 SpsTime;

#define SPS_TIME_MIN G_MININT64
#define SPS_TIME_MAX G_MAXINT64

/**
 * SPS_NO_INDEX:
 *
 * The value of a row reference (parent slice, thread, callsite…) that
 * refers to nothing.
 */
#define SPS_NO_INDEX G_MAXUINT32

/**
 * SpsArgsRef:
 *
 * A reference to the arguments of an event, without a copy. 0 means "no
 * arguments". Bits 62 and 63 select the store:
 *
 * - 0: JSON text in the trace's source bytes (the input file);
 * - bit 63 (%SPS_ARGS_REF_ARENA_BIT): JSON text in the builder's own arena
 *   (for importers whose input is not JSON);
 * - bit 62 (%SPS_ARGS_REF_DEFERRED_BIT): args kept as the file has them,
 *   made into JSON when they are read by the #SpsArgsDecoder the importer
 *   added to the builder (see sps_args_ref_new_deferred()).
 *
 * For text, bits 0–39 are the byte offset and bits 40–61 the length; a
 * length of %SPS_ARGS_REF_LENGTH_UNKNOWN means the text is longer than the
 * field holds and its end is found by scanning the balanced JSON value
 * from the offset. For deferred args, bits 58–61 are the decoder's number
 * and bits 0–57 the importer's cookie.
 */
typedef guint64 SpsArgsRef;

#define SPS_ARGS_REF_NONE            ((SpsArgsRef) 0)
#define SPS_ARGS_REF_OFFSET_BITS     40
#define SPS_ARGS_REF_LENGTH_BITS     22
#define SPS_ARGS_REF_OFFSET_MASK     ((G_GUINT64_CONSTANT (1) << SPS_ARGS_REF_OFFSET_BITS) - 1)
#define SPS_ARGS_REF_LENGTH_UNKNOWN  ((G_GUINT64_CONSTANT (1) << SPS_ARGS_REF_LENGTH_BITS) - 1)
#define SPS_ARGS_REF_ARENA_BIT       (G_GUINT64_CONSTANT (1) << 63)
#define SPS_ARGS_REF_DEFERRED_BIT    (G_GUINT64_CONSTANT (1) << 62)
#define SPS_ARGS_REF_DECODER_SHIFT   58
#define SPS_ARGS_REF_MAX_DECODERS    15
#define SPS_ARGS_REF_COOKIE_MASK     ((G_GUINT64_CONSTANT (1) << SPS_ARGS_REF_DECODER_SHIFT) - 1)

/**
 * sps_args_ref_new:
 * @in_arena: %TRUE when the text is in the builder's arena, %FALSE when it is
 *   in the trace's source bytes
 * @offset: byte offset of the JSON text
 * @length: its length in bytes; longer than the field holds is stored as
 *   %SPS_ARGS_REF_LENGTH_UNKNOWN
 *
 * Packs a reference to argument text. An empty text or an offset beyond
 * 2^40 gives %SPS_ARGS_REF_NONE.
 *
 * Returns: the reference
 */
#ifndef __GI_SCANNER__
static inline SpsArgsRef
sps_args_ref_new (gboolean in_arena,
                  guint64  offset,
                  guint64  length)
{
  if (length == 0 || offset > SPS_ARGS_REF_OFFSET_MASK)
    return SPS_ARGS_REF_NONE;
  if (length > SPS_ARGS_REF_LENGTH_UNKNOWN)
    length = SPS_ARGS_REF_LENGTH_UNKNOWN;
  return (in_arena ? SPS_ARGS_REF_ARENA_BIT : 0) |
         (length << SPS_ARGS_REF_OFFSET_BITS) |
         offset;
}

/**
 * sps_args_ref_new_deferred:
 * @decoder: what sps_trace_builder_add_args_decoder() returned (1–15)
 * @cookie: where the importer finds the args again (below 2^58)
 *
 * Packs a reference to args that @decoder makes into JSON when they are
 * read. A @decoder or @cookie out of range gives %SPS_ARGS_REF_NONE.
 *
 * Returns: the reference
 */
static inline SpsArgsRef
sps_args_ref_new_deferred (guint   decoder,
                           guint64 cookie)
{
  if (decoder == 0 || decoder > SPS_ARGS_REF_MAX_DECODERS || cookie > SPS_ARGS_REF_COOKIE_MASK)
    return SPS_ARGS_REF_NONE;
  return SPS_ARGS_REF_DEFERRED_BIT | (guint64) decoder << SPS_ARGS_REF_DECODER_SHIFT | cookie;
}

/**
 * sps_args_ref_is_deferred:
 * @ref: a reference
 *
 * Returns: %TRUE when @ref names args that a decoder makes into text
 */
static inline gboolean
sps_args_ref_is_deferred (SpsArgsRef ref)
{
  return (ref & SPS_ARGS_REF_DEFERRED_BIT) != 0 && (ref & SPS_ARGS_REF_ARENA_BIT) == 0;
}
#endif

/**
 * SpsTrackKind:
 * @SPS_TRACK_THREAD_SLICES: measured slices (X, B/E) of one thread
 * @SPS_TRACK_THREAD_SAMPLED_SLICES: sampled spans (category token
 *   `sampleEvent`) of one thread, kept apart from measured slices
 * @SPS_TRACK_ASYNC: one lane of async slices of a process
 * @SPS_TRACK_COUNTER: one series of a counter of a process
 * @SPS_TRACK_THREAD_INSTANTS: instants of one thread
 * @SPS_TRACK_PROCESS_INSTANTS: process-scoped instants
 * @SPS_TRACK_GLOBAL_INSTANTS: trace-wide instants (one track)
 * @SPS_TRACK_THREAD_SAMPLES: stack samples of one thread
 *
 * What a track holds.
 */
typedef enum
{
  SPS_TRACK_THREAD_SLICES,
  SPS_TRACK_THREAD_SAMPLED_SLICES,
  SPS_TRACK_ASYNC,
  SPS_TRACK_COUNTER,
  SPS_TRACK_THREAD_INSTANTS,
  SPS_TRACK_PROCESS_INSTANTS,
  SPS_TRACK_GLOBAL_INSTANTS,
  SPS_TRACK_THREAD_SAMPLES,
} SpsTrackKind;

/**
 * SpsSliceFlags:
 * @SPS_SLICE_NONE: a measured slice
 * @SPS_SLICE_SAMPLED: a sampled span: its interval is an estimate of CPU
 *   time and its original sample count is unknown
 * @SPS_SLICE_UNFINISHED: a B with no matching E; its end is the end of the
 *   trace
 * @SPS_SLICE_ASYNC: an async slice (b/e, S/F)
 * @SPS_SLICE_UNMATCHED_END: an async end with no begin, kept as a zero
 *   length error slice
 * @SPS_SLICE_STEP: a sub-slice of a legacy async slice (S/F) cut by its
 *   steps (T, p); not a begin/end pair of its own
 *
 * Flags of a slice.
 */
typedef enum /*< flags >*/
{
  SPS_SLICE_NONE           = 0,
  SPS_SLICE_SAMPLED        = 1 << 0,
  SPS_SLICE_UNFINISHED     = 1 << 1,
  SPS_SLICE_ASYNC          = 1 << 2,
  SPS_SLICE_UNMATCHED_END  = 1 << 3,
  SPS_SLICE_STEP           = 1 << 4,
} SpsSliceFlags;

/**
 * SpsInstantScope:
 * @SPS_INSTANT_SCOPE_THREAD: on a thread
 * @SPS_INSTANT_SCOPE_PROCESS: spans its process
 * @SPS_INSTANT_SCOPE_GLOBAL: spans the whole trace
 *
 * The scope of an instant event.
 */
typedef enum
{
  SPS_INSTANT_SCOPE_THREAD,
  SPS_INSTANT_SCOPE_PROCESS,
  SPS_INSTANT_SCOPE_GLOBAL,
} SpsInstantScope;

/**
 * SpsInstantKind:
 * @SPS_INSTANT_KIND_INSTANT: an instant event (i, I)
 * @SPS_INSTANT_KIND_MARK: a mark (R)
 * @SPS_INSTANT_KIND_ASYNC: a nestable async instant (n)
 * @SPS_INSTANT_KIND_EVENT: a decoded ETW or EventPipe event, named
 *   `Provider/Task/Opcode`, whose category is its provider and whose args
 *   are its payload fields (the `events_raw` SQL view)
 *
 * Where an instant came from.
 */
typedef enum
{
  SPS_INSTANT_KIND_INSTANT,
  SPS_INSTANT_KIND_MARK,
  SPS_INSTANT_KIND_ASYNC,
  SPS_INSTANT_KIND_EVENT,
} SpsInstantKind;

/**
 * SpsEventDescriptor:
 *
 * The numbers that identify a decoded event within its provider, packed
 * in 32 bits so that keeping them costs 4 bytes per instant: the event id
 * (16 bits, as ETW and EventPipe define it), its version (8 bits) and its
 * opcode (8 bits). Instants that are not events have 0.
 */
typedef guint32 SpsEventDescriptor;

#define SPS_EVENT_DESCRIPTOR(id, version, opcode) \
  ((SpsEventDescriptor) ((((guint32) (id) & 0xffff) << 16) | \
                         (((guint32) (version) & 0xff) << 8) | \
                         ((guint32) (opcode) & 0xff)))
#define SPS_EVENT_DESCRIPTOR_ID(d)      ((guint) ((d) >> 16))
#define SPS_EVENT_DESCRIPTOR_VERSION(d) ((guint) (((d) >> 8) & 0xff))
#define SPS_EVENT_DESCRIPTOR_OPCODE(d)  ((guint) ((d) & 0xff))

/**
 * SpsFlowPhase:
 * @SPS_FLOW_START: the flow leaves here (s, flow_out)
 * @SPS_FLOW_STEP: an intermediate point (t, flow_in + flow_out)
 * @SPS_FLOW_END: the flow arrives here (f, flow_in)
 *
 * The role of one point of a flow.
 */
typedef enum
{
  SPS_FLOW_START,
  SPS_FLOW_STEP,
  SPS_FLOW_END,
} SpsFlowPhase;

/**
 * SpsFlowBind:
 * @SPS_FLOW_BIND_ENCLOSING: the deepest slice of the thread that encloses
 *   the point's time
 * @SPS_FLOW_BIND_NEXT: the first slice of the thread that begins at or after
 *   the point's time
 * @SPS_FLOW_BIND_SLICE: a given slice (flow v2, `bind_id` on the slice)
 *
 * How a flow point finds its slice.
 */
typedef enum
{
  SPS_FLOW_BIND_ENCLOSING,
  SPS_FLOW_BIND_NEXT,
  SPS_FLOW_BIND_SLICE,
} SpsFlowBind;

/**
 * SpsAsyncPhase:
 * @SPS_ASYNC_BEGIN: nestable begin (b)
 * @SPS_ASYNC_END: nestable end (e)
 * @SPS_ASYNC_LEGACY_START: legacy start (S)
 * @SPS_ASYNC_LEGACY_STEP_INTO: legacy step into (T)
 * @SPS_ASYNC_LEGACY_STEP_PAST: legacy step past (p)
 * @SPS_ASYNC_LEGACY_FINISH: legacy finish (F)
 *
 * The phase of an async event. Nestable instants (n) are instants.
 */
typedef enum
{
  SPS_ASYNC_BEGIN,
  SPS_ASYNC_END,
  SPS_ASYNC_LEGACY_START,
  SPS_ASYNC_LEGACY_STEP_INTO,
  SPS_ASYNC_LEGACY_STEP_PAST,
  SPS_ASYNC_LEGACY_FINISH,
} SpsAsyncPhase;

/**
 * SpsObjectPhase:
 * @SPS_OBJECT_CREATED: N
 * @SPS_OBJECT_SNAPSHOT: O
 * @SPS_OBJECT_DESTROYED: D
 *
 * The phase of an object event.
 */
typedef enum
{
  SPS_OBJECT_CREATED,
  SPS_OBJECT_SNAPSHOT,
  SPS_OBJECT_DESTROYED,
} SpsObjectPhase;

/**
 * SpsWeightUnit:
 * @SPS_WEIGHT_UNIT_NONE: the weight (if any) has no time unit: no CPU
 *   estimate
 * @SPS_WEIGHT_UNIT_NS: nanoseconds
 * @SPS_WEIGHT_UNIT_US: microseconds
 * @SPS_WEIGHT_UNIT_MS: milliseconds
 * @SPS_WEIGHT_UNIT_S: seconds
 *
 * The unit of a sample's weight.
 */
typedef enum
{
  SPS_WEIGHT_UNIT_NONE,
  SPS_WEIGHT_UNIT_NS,
  SPS_WEIGHT_UNIT_US,
  SPS_WEIGHT_UNIT_MS,
  SPS_WEIGHT_UNIT_S,
} SpsWeightUnit;

/**
 * SpsSampleFlags:
 * @SPS_SAMPLE_NONE: a resolved sample
 * @SPS_SAMPLE_UNRESOLVED: the stack could not be resolved (missing frame,
 *   invalid frame, missing ancestor, cycle); the sample's callsite is a
 *   single frame named after the event
 * @SPS_SAMPLE_HAS_WEIGHT: the raw weight is present
 * @SPS_SAMPLE_TRUNCATED: the stack was cut by a depth cap and not repaired
 * @SPS_SAMPLE_REPAIRED: missing root frames were restored
 *
 * Flags of a sample.
 */
typedef enum /*< flags >*/
{
  SPS_SAMPLE_NONE       = 0,
  SPS_SAMPLE_UNRESOLVED = 1 << 0,
  SPS_SAMPLE_HAS_WEIGHT = 1 << 1,
  SPS_SAMPLE_TRUNCATED  = 1 << 2,
  SPS_SAMPLE_REPAIRED   = 1 << 3,
} SpsSampleFlags;

/**
 * SpsProcessDisplay:
 * @SPS_PROCESS_DISPLAY_DEFAULT: shown expanded, like every process
 * @SPS_PROCESS_DISPLAY_COLLAPSED: shown collapsed when a trace is opened
 *   (the producer knows it is not what the user profiled)
 * @SPS_PROCESS_DISPLAY_HIDDEN: hidden by the filters when a trace is
 *   opened (its rows and samples stay in the trace, in SQL and exports;
 *   the Filters panel shows it again), as profilers hide the idle process
 *
 * How the producer wants a process shown when the trace is opened. The
 * user's choices in the window override it.
 */
typedef enum /*< flags >*/
{
  SPS_PROCESS_DISPLAY_DEFAULT   = 0,
  SPS_PROCESS_DISPLAY_COLLAPSED = 1 << 0,
  SPS_PROCESS_DISPLAY_HIDDEN    = 1 << 1,
} SpsProcessDisplay;

/**
 * SPS_SIZE_UNKNOWN:
 *
 * The size of an allocation whose producer did not say it.
 */
#define SPS_SIZE_UNKNOWN G_MAXUINT64

/**
 * SpsHeapKind:
 * @SPS_HEAP_MANAGED: the .NET runtime's garbage-collected heap
 * @SPS_HEAP_NATIVE: native memory (malloc and the like)
 * @SPS_HEAP_OBJECT: objects a producer tracks by identity (Chrome `N`/`D`)
 *
 * Where an allocation lives.
 */
typedef enum
{
  SPS_HEAP_MANAGED,
  SPS_HEAP_NATIVE,
  SPS_HEAP_OBJECT,
} SpsHeapKind;

/**
 * SpsAllocationCertainty:
 * @SPS_ALLOCATION_EXACT: born when the producer said, and dead when it said
 *   (or between the two garbage collections that bound the death), or seen
 *   alive until the end
 * @SPS_ALLOCATION_SAMPLED: one sample standing for many allocations (.NET
 *   `GCAllocationTick`): never counted as an exact object
 * @SPS_ALLOCATION_UNKNOWN_BIRTH: seen only after its birth (a death or a
 *   snapshot without a creation)
 * @SPS_ALLOCATION_UNKNOWN_DEATH: born, but nothing that could report its
 *   death came after its birth
 * @SPS_ALLOCATION_IN_GAP: events were lost (or the capture stopped) while
 *   it was alive, so its death may be among them: alive for sure until
 *   the gap (its `death_after`), perhaps dead after it
 *
 * How much the producer's events say about an allocation's life.
 */
typedef enum
{
  SPS_ALLOCATION_EXACT,
  SPS_ALLOCATION_SAMPLED,
  SPS_ALLOCATION_UNKNOWN_BIRTH,
  SPS_ALLOCATION_UNKNOWN_DEATH,
  SPS_ALLOCATION_IN_GAP,
} SpsAllocationCertainty;

/**
 * SpsGcKind:
 * @SPS_GC_START: a garbage collection starts
 * @SPS_GC_END: it ends
 * @SPS_GC_MARK: a mark phase reports what it marked
 * @SPS_GC_SUSPEND: the runtime starts suspending threads (for a GC or
 *   otherwise)
 * @SPS_GC_RESTART: the threads run again
 *
 * What a garbage collector observation is.
 */
typedef enum
{
  SPS_GC_START,
  SPS_GC_END,
  SPS_GC_MARK,
  SPS_GC_SUSPEND,
  SPS_GC_RESTART,
} SpsGcKind;

G_END_DECLS
