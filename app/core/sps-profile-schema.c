/* sps-profile-schema.c: the tables of a saved profile
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-profile"

#include "config.h"

#include <string.h>

#include "sps-profile-private.h"

#define TABLE(field) G_STRUCT_OFFSET (SpsTrace, field.n_rows)
#define COL(table, field, kind) \
  { #field, G_STRUCT_OFFSET (SpsTrace, table.field), SPS_PROFILE_KIND_##kind, SPS_PROFILE_REF_NONE, 0, 0, 0 }
#define REF(table, field, ref, nullable) \
  { #field, G_STRUCT_OFFSET (SpsTrace, table.field), SPS_PROFILE_KIND_U32, SPS_PROFILE_REF_##ref, nullable, 0, 0 }
#define ENUM(table, field, max) \
  { #field, G_STRUCT_OFFSET (SpsTrace, table.field), SPS_PROFILE_KIND_U8, SPS_PROFILE_REF_NONE, 0, max, 0 }
/* A sample column that may be stored once (SpsSampleConstants) */
#define SAMPLE_CONSTANT(table, field, kind, max) \
  { #field, G_STRUCT_OFFSET (SpsTrace, table.field), SPS_PROFILE_KIND_##kind, SPS_PROFILE_REF_NONE, 0, max, \
    G_STRUCT_OFFSET (SpsTrace, table.constants.field) }
/* A nullable reference that may be stored once (SpsSliceConstants) */
#define REF_CONSTANT(table, field, ref) \
  { #field, G_STRUCT_OFFSET (SpsTrace, table.field), SPS_PROFILE_KIND_U32, SPS_PROFILE_REF_##ref, 1, 0, \
    G_STRUCT_OFFSET (SpsTrace, table.constants.field) }
#define SAMPLE_COLUMNS(t) \
  COL (t, ts, I64), REF (t, track, TRACK, 0), REF (t, thread, THREAD, 0), \
  COL (t, name, STRING), SAMPLE_CONSTANT (t, event_name, STRING, 0), REF (t, callsite, CALLSITE, 1), \
  SAMPLE_CONSTANT (t, raw_stack_ref, STRING, 0), SAMPLE_CONSTANT (t, weight, F64, 0), \
  SAMPLE_CONSTANT (t, weight_unit, U8, SPS_WEIGHT_UNIT_S), SAMPLE_CONSTANT (t, flags, U8, 0), \
  SAMPLE_CONSTANT (t, line, U32, 0)

/* Referenced tables come before the tables that refer to them, so that
 * the reader checks each reference against a table it already has. */
const SpsProfileTable _sps_profile_tables[] = {
  { "processes", TABLE (processes), SPS_PROFILE_REF_PROCESS,
    { COL (processes, pid, I64), COL (processes, name, STRING),
      COL (processes, sort_index, I32), COL (processes, labels, STRING),
      ENUM (processes, display, SPS_PROCESS_DISPLAY_COLLAPSED | SPS_PROCESS_DISPLAY_HIDDEN) } },
  { "threads", TABLE (threads), SPS_PROFILE_REF_THREAD,
    { REF (threads, process, PROCESS, 0), COL (threads, tid, I64),
      COL (threads, name, STRING), COL (threads, sort_index, I32) } },
  { "tracks", TABLE (tracks), SPS_PROFILE_REF_TRACK,
    { ENUM (tracks, kind, SPS_TRACK_THREAD_SAMPLES), REF (tracks, process, PROCESS, 1),
      REF (tracks, thread, THREAD, 1), COL (tracks, name, STRING), COL (tracks, series, STRING),
      COL (tracks, first_row, U32), COL (tracks, n_rows_in_track, U32),
      COL (tracks, max_depth, U16) } },
  { "frames", TABLE (frames), SPS_PROFILE_REF_FRAME,
    { COL (frames, name, STRING), COL (frames, category, STRING), COL (frames, module, STRING),
      COL (frames, address, U64), COL (frames, source_file, STRING),
      COL (frames, source_line, U32), COL (frames, source_column, U32) } },
  { "callsites", TABLE (callsites), SPS_PROFILE_REF_CALLSITE,
    { REF (callsites, parent, CALLSITE, 1), REF (callsites, frame, FRAME, 0),
      COL (callsites, depth, U16) } },
  { "slices", TABLE (slices), SPS_PROFILE_REF_SLICE,
    { COL (slices, ts, I64), COL (slices, dur, I64), COL (slices, self_time, I64),
      COL (slices, name, STRING), COL (slices, category, STRING), REF (slices, track, TRACK, 0),
      REF (slices, parent, SLICE, 1), COL (slices, depth, U16), COL (slices, flags, U16),
      COL (slices, args, ARGS), REF_CONSTANT (slices, callsite, CALLSITE),
      REF_CONSTANT (slices, end_callsite, CALLSITE) } },
  { "instants", TABLE (instants), SPS_PROFILE_REF_NONE,
    { COL (instants, ts, I64), COL (instants, name, STRING), COL (instants, category, STRING),
      REF (instants, track, TRACK, 0), ENUM (instants, kind, SPS_INSTANT_KIND_EVENT),
      COL (instants, args, ARGS), COL (instants, event, U32) } },
  { "counters", TABLE (counters), SPS_PROFILE_REF_NONE,
    { COL (counters, ts, I64), COL (counters, value, F64), REF (counters, track, TRACK, 0) } },
  { "flows", TABLE (flows), SPS_PROFILE_REF_NONE,
    { REF (flows, from_slice, SLICE, 1), REF (flows, to_slice, SLICE, 1), COL (flows, key, U64),
      COL (flows, name, STRING), COL (flows, category, STRING) } },
  { "samples", TABLE (samples), SPS_PROFILE_REF_NONE, { SAMPLE_COLUMNS (samples) } },
  { "raw_samples", TABLE (raw_samples), SPS_PROFILE_REF_NONE, { SAMPLE_COLUMNS (raw_samples) } },
  { "objects", TABLE (objects), SPS_PROFILE_REF_NONE,
    { COL (objects, ts, I64), ENUM (objects, phase, SPS_OBJECT_DESTROYED),
      REF (objects, process, PROCESS, 0), COL (objects, key, U64), COL (objects, name, STRING),
      COL (objects, args, ARGS) } },
  { "allocations", TABLE (allocations), SPS_PROFILE_REF_NONE,
    { COL (allocations, birth, I64), COL (allocations, death, I64),
      COL (allocations, death_after, I64), COL (allocations, death_by, I64),
      COL (allocations, size, U64), COL (allocations, address, U64),
      COL (allocations, type, STRING), REF (allocations, callsite, CALLSITE, 1),
      REF (allocations, process, PROCESS, 0), REF (allocations, thread, THREAD, 1),
      ENUM (allocations, heap, SPS_HEAP_OBJECT),
      ENUM (allocations, certainty, SPS_ALLOCATION_IN_GAP) } },
  { "gc_observations", TABLE (gc_observations), SPS_PROFILE_REF_NONE,
    { COL (gc_observations, ts, I64), REF (gc_observations, process, PROCESS, 0),
      REF (gc_observations, thread, THREAD, 1), ENUM (gc_observations, kind, SPS_GC_RESTART),
      COL (gc_observations, gc_number, U32), COL (gc_observations, generation, I32),
      COL (gc_observations, reason, STRING), COL (gc_observations, bytes, U64) } },
  /* Not SpsTrace tables, but columns all the same */
  { "metadata", G_STRUCT_OFFSET (SpsTrace, n_metadata), SPS_PROFILE_REF_NONE,
    { { "key", G_STRUCT_OFFSET (SpsTrace, metadata_keys), SPS_PROFILE_KIND_STRING, 0, 0, 0, 0 },
      { "value", G_STRUCT_OFFSET (SpsTrace, metadata_values), SPS_PROFILE_KIND_ARGS, 0, 0, 0, 0 } } },
  { "info_sections", G_STRUCT_OFFSET (SpsTrace, n_info_sections), SPS_PROFILE_REF_NONE,
    { { "name", G_STRUCT_OFFSET (SpsTrace, info_names), SPS_PROFILE_KIND_STRING, 0, 0, 0, 0 },
      { "value", G_STRUCT_OFFSET (SpsTrace, info_values), SPS_PROFILE_KIND_ARGS, 0, 0, 0, 0 } } },
};

const guint _sps_profile_n_tables = G_N_ELEMENTS (_sps_profile_tables);

/* The cookie's table position must fit above its row bits. */
G_STATIC_ASSERT (G_N_ELEMENTS (_sps_profile_tables) < (1u << (58 - SPS_PROFILE_COOKIE_ROW_BITS)));
