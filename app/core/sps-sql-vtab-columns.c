/* sps-sql-vtab-columns.c: the values of the virtual tables' columns
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each table's row is read straight from the trace's columns: text is the
 * string pool's (SQLITE_STATIC: the context holds the trace), absent
 * values are NULL, and the estimates are computed as they are read.
 */

#define G_LOG_DOMAIN "sps-sql"

#include "config.h"

#include <math.h>
#include <string.h>

#include "sps-sql-vtab-private.h"

static const char * const track_kind_names[] = {
  [SPS_TRACK_THREAD_SLICES] = "thread_slices",
  [SPS_TRACK_THREAD_SAMPLED_SLICES] = "thread_sampled_slices",
  [SPS_TRACK_ASYNC] = "async",
  [SPS_TRACK_COUNTER] = "counter",
  [SPS_TRACK_THREAD_INSTANTS] = "thread_instants",
  [SPS_TRACK_PROCESS_INSTANTS] = "process_instants",
  [SPS_TRACK_GLOBAL_INSTANTS] = "global_instants",
  [SPS_TRACK_THREAD_SAMPLES] = "thread_samples",
};

static const char * const weight_unit_names[] = {
  [SPS_WEIGHT_UNIT_NONE] = NULL,
  [SPS_WEIGHT_UNIT_NS] = "ns",
  [SPS_WEIGHT_UNIT_US] = "us",
  [SPS_WEIGHT_UNIT_MS] = "ms",
  [SPS_WEIGHT_UNIT_S] = "s",
};

static const double weight_unit_ns[] = {
  [SPS_WEIGHT_UNIT_NONE] = 0,
  [SPS_WEIGHT_UNIT_NS] = 1,
  [SPS_WEIGHT_UNIT_US] = 1e3,
  [SPS_WEIGHT_UNIT_MS] = 1e6,
  [SPS_WEIGHT_UNIT_S] = 1e9,
};

static inline void
result_string (sqlite3_context   *sctx,
               SpsSqlVtabContext *ctx,
               guint32            id,
               gboolean           empty_is_null)
{
  const char *str;
  gsize len;

  if (id == SPS_NO_INDEX || id >= ctx->n_strings || (empty_is_null && id == 0))
    return;     /* NULL */

  /* Interned strings live as long as the trace, which the context holds */
  str = sps_string_pool_get (ctx->strings, id, &len);
  sqlite3_result_text (sctx, str, (int) len, SQLITE_STATIC);
}

static inline void
result_index (sqlite3_context *sctx,
              guint32          index)
{
  if (index != SPS_NO_INDEX)
    sqlite3_result_int64 (sctx, index);
}

static inline void
result_args (sqlite3_context   *sctx,
             SpsSqlVtabContext *ctx,
             SpsArgsRef         ref)
{
  const char *json;
  gsize len = 0;

  if (ref == SPS_ARGS_REF_NONE)
    return;
  if (sps_args_ref_is_deferred (ref))
    {
      /* Decoded now: the text is the statement's to free */
      char *text = sps_trace_dup_args_json (ctx->trace, ref, &len);

      if (text != NULL && len <= G_MAXINT)
        sqlite3_result_text (sctx, text, (int) len, g_free);
      else
        g_free (text);
      return;
    }
  json = sps_trace_get_args_json (ctx->trace, ref, &len);
  if (json != NULL && len <= G_MAXINT)
    sqlite3_result_text (sctx, json, (int) len, SQLITE_STATIC);
}

static inline guint32
thread_process (SpsTrace *trace,
                guint32   thread)
{
  if (thread == SPS_NO_INDEX || thread >= trace->threads.n_rows)
    return SPS_NO_INDEX;
  return trace->threads.process[thread];
}


static void
column_processes (SpsSqlVtabContext *ctx,
                  sqlite3_context   *sctx,
                  guint32            row,
                  int                col)
{
  const SpsProcessTable *t = &ctx->trace->processes;

  switch (col)
    {
    case P_ID: sqlite3_result_int64 (sctx, row); break;
    case P_PID: sqlite3_result_int64 (sctx, t->pid[row]); break;
    case P_NAME: result_string (sctx, ctx, t->name[row], FALSE); break;
    case P_SORT_INDEX:
      if (t->sort_index[row] != G_MAXINT32)
        sqlite3_result_int64 (sctx, t->sort_index[row]);
      break;
    case P_LABELS: result_string (sctx, ctx, t->labels[row], TRUE); break;
    default: break;
    }
}

static void
column_threads (SpsSqlVtabContext *ctx,
                sqlite3_context   *sctx,
                guint32            row,
                int                col)
{
  const SpsThreadTable *t = &ctx->trace->threads;

  switch (col)
    {
    case TH_ID: sqlite3_result_int64 (sctx, row); break;
    case TH_PROCESS_ID: result_index (sctx, t->process[row]); break;
    case TH_PID:
      if (t->process[row] < ctx->trace->processes.n_rows)
        sqlite3_result_int64 (sctx, ctx->trace->processes.pid[t->process[row]]);
      break;
    case TH_TID: sqlite3_result_int64 (sctx, t->tid[row]); break;
    case TH_NAME: result_string (sctx, ctx, t->name[row], FALSE); break;
    case TH_SORT_INDEX:
      if (t->sort_index[row] != G_MAXINT32)
        sqlite3_result_int64 (sctx, t->sort_index[row]);
      break;
    default: break;
    }
}

static void
column_tracks (SpsSqlVtabContext *ctx,
               sqlite3_context   *sctx,
               guint32            row,
               int                col)
{
  const SpsTrackTable *t = &ctx->trace->tracks;

  switch (col)
    {
    case TR_ID: sqlite3_result_int64 (sctx, row); break;
    case TR_KIND:
      if (t->kind[row] < G_N_ELEMENTS (track_kind_names))
        sqlite3_result_text (sctx, track_kind_names[t->kind[row]], -1, SQLITE_STATIC);
      break;
    case TR_PROCESS_ID: result_index (sctx, t->process[row]); break;
    case TR_THREAD_ID: result_index (sctx, t->thread[row]); break;
    case TR_NAME: result_string (sctx, ctx, t->name[row], FALSE); break;
    case TR_SERIES: result_string (sctx, ctx, t->series[row], TRUE); break;
    case TR_ROW_COUNT: sqlite3_result_int64 (sctx, t->n_rows_in_track[row]); break;
    case TR_MAX_DEPTH:
      if ((SLICE_KINDS & KIND_BIT (t->kind[row])) != 0)
        sqlite3_result_int64 (sctx, t->max_depth[row]);
      break;
    default: break;
    }
}

static void
column_slices (SpsSqlVtabContext *ctx,
               sqlite3_context   *sctx,
               guint32            row,
               int                col)
{
  const SpsSliceTable *t = &ctx->trace->slices;
  const SpsTrackTable *tracks = &ctx->trace->tracks;
  /* Read only by the columns that need it: rows may come in any order and
   * every column read can be a cache miss */
#define sampled ((t->flags[row] & SPS_SLICE_SAMPLED) != 0)

  switch (col)
    {
    case S_ID: sqlite3_result_int64 (sctx, row); break;
    case S_TS: sqlite3_result_int64 (sctx, t->ts[row]); break;
    /* A sampled span's interval is an estimate, not a measurement: it is
     * only in estimated_cpu_time, so duration queries select measured
     * slices alone. */
    case S_DUR:
      if (!sampled)
        sqlite3_result_int64 (sctx, t->dur[row]);
      break;
    case S_END_TS: sqlite3_result_int64 (sctx, slice_end (t, row)); break;
    case S_NAME: result_string (sctx, ctx, t->name[row], FALSE); break;
    case S_CATEGORY: result_string (sctx, ctx, t->category[row], TRUE); break;
    case S_TRACK_ID: sqlite3_result_int64 (sctx, t->track[row]); break;
    case S_THREAD_ID: result_index (sctx, tracks->thread[t->track[row]]); break;
    case S_PROCESS_ID: result_index (sctx, tracks->process[t->track[row]]); break;
    case S_DEPTH: sqlite3_result_int64 (sctx, t->depth[row]); break;
    case S_PARENT_ID: result_index (sctx, t->parent[row]); break;
    case S_SELF_TIME:
      if (!sampled)
        sqlite3_result_int64 (sctx, t->self_time[row]);
      break;
    case S_KIND:
      sqlite3_result_text (sctx, sampled ? "sampled_span" : "measured", -1, SQLITE_STATIC);
      break;
    case S_ARGS: result_args (sctx, ctx, t->args[row]); break;
    case S_CALLSITE_ID: result_index (sctx, SPS_TABLE_VALUE (t, callsite, row)); break;
    case S_END_CALLSITE_ID: result_index (sctx, SPS_TABLE_VALUE (t, end_callsite, row)); break;
    case S_ASYNC: sqlite3_result_int (sctx, (t->flags[row] & SPS_SLICE_ASYNC) != 0); break;
    case S_UNFINISHED: sqlite3_result_int (sctx, (t->flags[row] & SPS_SLICE_UNFINISHED) != 0); break;
    /* A converted span's interval is the CPU estimate; its original
     * sample count and weight are not known. */
    case S_ESTIMATED_CPU_TIME:
      if (sampled)
        sqlite3_result_int64 (sctx, t->dur[row]);
      break;
    case S_ESTIMATED_SELF_CPU_TIME:
      if (sampled)
        sqlite3_result_int64 (sctx, t->self_time[row]);
      break;
    case S_SAMPLE_COUNT:
    case S_SAMPLE_WEIGHT:
    case S_WEIGHT_UNIT:
    case S_SF:
    default:
      break;
    }
#undef sampled
}

static void
column_instants (SpsSqlVtabContext *ctx,
                 sqlite3_context   *sctx,
                 guint32            row,
                 int                col)
{
  static const char * const scopes[] = {
    [SPS_TRACK_THREAD_INSTANTS] = "thread",
    [SPS_TRACK_PROCESS_INSTANTS] = "process",
    [SPS_TRACK_GLOBAL_INSTANTS] = "global",
  };
  static const char * const kinds[] = {
    [SPS_INSTANT_KIND_INSTANT] = "instant",
    [SPS_INSTANT_KIND_MARK] = "mark",
    [SPS_INSTANT_KIND_ASYNC] = "async",
    [SPS_INSTANT_KIND_EVENT] = "event",
  };
  const SpsInstantTable *t = &ctx->trace->instants;
  const SpsTrackTable *tracks = &ctx->trace->tracks;
  guint8 kind;

  switch (col)
    {
    case I_ID: sqlite3_result_int64 (sctx, row); break;
    case I_TS: sqlite3_result_int64 (sctx, t->ts[row]); break;
    case I_NAME: result_string (sctx, ctx, t->name[row], FALSE); break;
    case I_CATEGORY: result_string (sctx, ctx, t->category[row], TRUE); break;
    case I_TRACK_ID: sqlite3_result_int64 (sctx, t->track[row]); break;
    case I_THREAD_ID: result_index (sctx, tracks->thread[t->track[row]]); break;
    case I_PROCESS_ID: result_index (sctx, tracks->process[t->track[row]]); break;
    case I_SCOPE:
      kind = tracks->kind[t->track[row]];
      if (kind < G_N_ELEMENTS (scopes) && scopes[kind] != NULL)
        sqlite3_result_text (sctx, scopes[kind], -1, SQLITE_STATIC);
      break;
    case I_KIND:
      if (t->kind[row] < G_N_ELEMENTS (kinds))
        sqlite3_result_text (sctx, kinds[t->kind[row]], -1, SQLITE_STATIC);
      break;
    case I_ARGS: result_args (sctx, ctx, t->args[row]); break;
    /* NULL for instants that are not events, so that a 0 stays an id */
    case I_EVENT_ID:
      if (t->kind[row] == SPS_INSTANT_KIND_EVENT)
        sqlite3_result_int64 (sctx, SPS_EVENT_DESCRIPTOR_ID (t->event[row]));
      break;
    case I_EVENT_VERSION:
      if (t->kind[row] == SPS_INSTANT_KIND_EVENT)
        sqlite3_result_int64 (sctx, SPS_EVENT_DESCRIPTOR_VERSION (t->event[row]));
      break;
    case I_EVENT_OPCODE:
      if (t->kind[row] == SPS_INSTANT_KIND_EVENT)
        sqlite3_result_int64 (sctx, SPS_EVENT_DESCRIPTOR_OPCODE (t->event[row]));
      break;
    default: break;
    }
}

static void
column_counters (SpsSqlVtabContext *ctx,
                 sqlite3_context   *sctx,
                 guint32            row,
                 int                col)
{
  const SpsCounterTable *t = &ctx->trace->counters;
  const SpsTrackTable *tracks = &ctx->trace->tracks;

  switch (col)
    {
    case C_ID: sqlite3_result_int64 (sctx, row); break;
    case C_TS: sqlite3_result_int64 (sctx, t->ts[row]); break;
    case C_VALUE:
      if (!isnan (t->value[row]))
        sqlite3_result_double (sctx, t->value[row]);
      break;
    case C_TRACK_ID: sqlite3_result_int64 (sctx, t->track[row]); break;
    case C_NAME: result_string (sctx, ctx, tracks->name[t->track[row]], FALSE); break;
    case C_SERIES: result_string (sctx, ctx, tracks->series[t->track[row]], TRUE); break;
    case C_PROCESS_ID: result_index (sctx, tracks->process[t->track[row]]); break;
    default: break;
    }
}

static void
column_flows (SpsSqlVtabContext *ctx,
              sqlite3_context   *sctx,
              guint32            row,
              int                col)
{
  const SpsFlowTable *t = &ctx->trace->flows;

  switch (col)
    {
    case F_ID: sqlite3_result_int64 (sctx, row); break;
    case F_FROM_SLICE_ID: result_index (sctx, t->from_slice[row]); break;
    case F_TO_SLICE_ID: result_index (sctx, t->to_slice[row]); break;
    /* Keys above 2^63 read as negative: SQLite has no unsigned integer */
    case F_FLOW_KEY: sqlite3_result_int64 (sctx, (sqlite3_int64) t->key[row]); break;
    case F_NAME: result_string (sctx, ctx, t->name[row], FALSE); break;
    case F_CATEGORY: result_string (sctx, ctx, t->category[row], TRUE); break;
    default: break;
    }
}

static gboolean
sample_estimate (const SpsSampleTable *t,
                 guint32               row,
                 gint64               *ns)
{
  guint8 unit = SPS_SAMPLE_VALUE (t, weight_unit, row);
  double weight = SPS_SAMPLE_VALUE (t, weight, row);

  if ((SPS_SAMPLE_VALUE (t, flags, row) & SPS_SAMPLE_HAS_WEIGHT) == 0 ||
      unit == SPS_WEIGHT_UNIT_NONE || unit >= G_N_ELEMENTS (weight_unit_ns) ||
      !isfinite (weight) || weight < 0)
    return FALSE;

  weight *= weight_unit_ns[unit];
  if (weight >= 9.2e18)
    return FALSE;
  *ns = (gint64) llround (weight);
  return TRUE;
}

static void
column_samples (SpsSqlVtabContext *ctx,
                sqlite3_context   *sctx,
                guint32            row,
                int                col)
{
  const SpsSampleTable *t = &ctx->trace->samples;
  const SpsCallsiteTable *callsites = &ctx->trace->callsites;
  guint32 callsite;
  double weight;
  guint8 unit;
  gint64 ns;

  switch (col)
    {
    case SA_ID: sqlite3_result_int64 (sctx, row); break;
    case SA_TS: sqlite3_result_int64 (sctx, t->ts[row]); break;
    case SA_NAME: result_string (sctx, ctx, t->name[row], FALSE); break;
    case SA_TRACK_ID: sqlite3_result_int64 (sctx, t->track[row]); break;
    case SA_THREAD_ID: result_index (sctx, t->thread[row]); break;
    case SA_PROCESS_ID: result_index (sctx, thread_process (ctx->trace, t->thread[row])); break;
    case SA_CALLSITE_ID: result_index (sctx, t->callsite[row]); break;
    case SA_FRAME:
      callsite = t->callsite[row];
      if (callsite < callsites->n_rows &&
          callsites->frame[callsite] < ctx->trace->frames.n_rows)
        result_string (sctx, ctx, ctx->trace->frames.name[callsites->frame[callsite]], FALSE);
      break;
    case SA_KIND: sqlite3_result_text (sctx, "sample", -1, SQLITE_STATIC); break;
    case SA_SAMPLE_COUNT: sqlite3_result_int (sctx, 1); break;
    case SA_SAMPLE_WEIGHT:
      weight = SPS_SAMPLE_VALUE (t, weight, row);
      if ((SPS_SAMPLE_VALUE (t, flags, row) & SPS_SAMPLE_HAS_WEIGHT) != 0 && !isnan (weight))
        sqlite3_result_double (sctx, weight);
      break;
    case SA_WEIGHT_UNIT:
      unit = SPS_SAMPLE_VALUE (t, weight_unit, row);
      if (unit < G_N_ELEMENTS (weight_unit_names) && weight_unit_names[unit] != NULL)
        sqlite3_result_text (sctx, weight_unit_names[unit], -1, SQLITE_STATIC);
      break;
    /* A raw sample's CPU estimate belongs to its observed leaf: inclusive
     * and self are the same. */
    case SA_ESTIMATED_CPU_TIME:
    case SA_ESTIMATED_SELF_CPU_TIME:
      if (sample_estimate (t, row, &ns))
        sqlite3_result_int64 (sctx, ns);
      break;
    case SA_SF: result_string (sctx, ctx, SPS_SAMPLE_VALUE (t, raw_stack_ref, row), TRUE); break;
    case SA_UNRESOLVED: sqlite3_result_int (sctx, (SPS_SAMPLE_VALUE (t, flags, row) & SPS_SAMPLE_UNRESOLVED) != 0); break;
    case SA_EVENT_NAME: result_string (sctx, ctx, SPS_SAMPLE_VALUE (t, event_name, row), FALSE); break;
    case SA_LINE:
      if (SPS_SAMPLE_VALUE (t, line, row) != 0)
        sqlite3_result_int64 (sctx, SPS_SAMPLE_VALUE (t, line, row));
      break;
    case SA_DUR:
    case SA_SELF_TIME:
    default:
      break;
    }
}

static void
column_callsites (SpsSqlVtabContext *ctx,
                  sqlite3_context   *sctx,
                  guint32            row,
                  int                col)
{
  const SpsCallsiteTable *t = &ctx->trace->callsites;

  switch (col)
    {
    case CS_ID: sqlite3_result_int64 (sctx, row); break;
    case CS_PARENT_ID: result_index (sctx, t->parent[row]); break;
    case CS_FRAME_ID: result_index (sctx, t->frame[row]); break;
    case CS_DEPTH: sqlite3_result_int64 (sctx, t->depth[row]); break;
    case CS_NAME:
      if (t->frame[row] < ctx->trace->frames.n_rows)
        result_string (sctx, ctx, ctx->trace->frames.name[t->frame[row]], FALSE);
      break;
    default: break;
    }
}

static void
column_frames (SpsSqlVtabContext *ctx,
               sqlite3_context   *sctx,
               guint32            row,
               int                col)
{
  const SpsFrameTable *t = &ctx->trace->frames;

  switch (col)
    {
    case FR_ID: sqlite3_result_int64 (sctx, row); break;
    case FR_NAME: result_string (sctx, ctx, t->name[row], FALSE); break;
    case FR_CATEGORY: result_string (sctx, ctx, t->category[row], TRUE); break;
    case FR_MODULE: result_string (sctx, ctx, t->module[row], TRUE); break;
    case FR_ADDRESS: sqlite3_result_int64 (sctx, (sqlite3_int64) t->address[row]); break;
    case FR_SOURCE_FILE: result_string (sctx, ctx, t->source_file[row], TRUE); break;
    case FR_SOURCE_LINE:
      if (t->source_line[row] != 0)
        sqlite3_result_int64 (sctx, t->source_line[row]);
      break;
    case FR_SOURCE_COLUMN:
      if (t->source_column[row] != 0)
        sqlite3_result_int64 (sctx, t->source_column[row]);
      break;
    default: break;
    }
}

static void
column_objects (SpsSqlVtabContext *ctx,
                sqlite3_context   *sctx,
                guint32            row,
                int                col)
{
  static const char * const phases[] = {
    [SPS_OBJECT_CREATED] = "created",
    [SPS_OBJECT_SNAPSHOT] = "snapshot",
    [SPS_OBJECT_DESTROYED] = "destroyed",
  };
  const SpsObjectTable *t = &ctx->trace->objects;

  switch (col)
    {
    case O_ID: sqlite3_result_int64 (sctx, row); break;
    case O_TS: sqlite3_result_int64 (sctx, t->ts[row]); break;
    case O_PHASE:
      if (t->phase[row] < G_N_ELEMENTS (phases))
        sqlite3_result_text (sctx, phases[t->phase[row]], -1, SQLITE_STATIC);
      break;
    case O_PROCESS_ID: result_index (sctx, t->process[row]); break;
    case O_OBJECT_KEY: sqlite3_result_int64 (sctx, (sqlite3_int64) t->key[row]); break;
    case O_NAME: result_string (sctx, ctx, t->name[row], FALSE); break;
    case O_ARGS: result_args (sctx, ctx, t->args[row]); break;
    default: break;
    }
}

static inline void
result_time (sqlite3_context *sctx,
             SpsTime          t)
{
  /* The extremes stand for "unknown" and "never": NULL */
  if (t != SPS_TIME_MIN && t != SPS_TIME_MAX)
    sqlite3_result_int64 (sctx, t);
}

static inline void
result_size (sqlite3_context *sctx,
             guint64          size)
{
  if (size != SPS_SIZE_UNKNOWN)
    sqlite3_result_int64 (sctx, size > (guint64) G_MAXINT64 ? G_MAXINT64 : (sqlite3_int64) size);
}

static inline void
result_enum (sqlite3_context    *sctx,
             const char * const *names,
             guint               n_names,
             guint               value)
{
  if (value < n_names && names[value] != NULL)
    sqlite3_result_text (sctx, names[value], -1, SQLITE_STATIC);
}

static void
column_allocations (SpsSqlVtabContext *ctx,
                    sqlite3_context   *sctx,
                    guint32            row,
                    int                col)
{
  static const char * const heaps[] = {
    [SPS_HEAP_MANAGED] = "managed",
    [SPS_HEAP_NATIVE] = "native",
    [SPS_HEAP_OBJECT] = "object",
  };
  static const char * const certainties[] = {
    [SPS_ALLOCATION_EXACT] = "exact",
    [SPS_ALLOCATION_SAMPLED] = "sampled",
    [SPS_ALLOCATION_UNKNOWN_BIRTH] = "unknown_birth",
    [SPS_ALLOCATION_UNKNOWN_DEATH] = "unknown_death",
    [SPS_ALLOCATION_IN_GAP] = "in_gap",
  };
  const SpsAllocationTable *t = &ctx->trace->allocations;

  switch (col)
    {
    case AL_ID: sqlite3_result_int64 (sctx, row); break;
    case AL_BIRTH_TS: result_time (sctx, t->birth[row]); break;
    case AL_DEATH_TS: result_time (sctx, t->death[row]); break;
    case AL_DEATH_AFTER: result_time (sctx, t->death_after[row]); break;
    case AL_DEATH_BY: result_time (sctx, t->death_by[row]); break;
    case AL_SIZE: result_size (sctx, t->size[row]); break;
    case AL_ADDRESS:
      if (t->address[row] != 0)
        sqlite3_result_int64 (sctx, (sqlite3_int64) t->address[row]);
      break;
    case AL_TYPE: result_string (sctx, ctx, t->type[row], TRUE); break;
    case AL_CALLSITE_ID: result_index (sctx, t->callsite[row]); break;
    case AL_PROCESS_ID: result_index (sctx, t->process[row]); break;
    case AL_THREAD_ID: result_index (sctx, t->thread[row]); break;
    case AL_HEAP: result_enum (sctx, heaps, G_N_ELEMENTS (heaps), t->heap[row]); break;
    case AL_CERTAINTY:
      result_enum (sctx, certainties, G_N_ELEMENTS (certainties), t->certainty[row]);
      break;
    default: break;
    }
}

static void
column_gc_observations (SpsSqlVtabContext *ctx,
                        sqlite3_context   *sctx,
                        guint32            row,
                        int                col)
{
  static const char * const kinds[] = {
    [SPS_GC_START] = "start",
    [SPS_GC_END] = "end",
    [SPS_GC_MARK] = "mark",
    [SPS_GC_SUSPEND] = "suspend",
    [SPS_GC_RESTART] = "restart",
  };
  const SpsGcObservationTable *t = &ctx->trace->gc_observations;

  switch (col)
    {
    case GC_ID: sqlite3_result_int64 (sctx, row); break;
    case GC_TS: sqlite3_result_int64 (sctx, t->ts[row]); break;
    case GC_PROCESS_ID: result_index (sctx, t->process[row]); break;
    case GC_THREAD_ID: result_index (sctx, t->thread[row]); break;
    case GC_KIND: result_enum (sctx, kinds, G_N_ELEMENTS (kinds), t->kind[row]); break;
    case GC_NUMBER:
      if (t->gc_number[row] != 0)
        sqlite3_result_int64 (sctx, t->gc_number[row]);
      break;
    case GC_GENERATION:
      if (t->generation[row] >= 0)
        sqlite3_result_int64 (sctx, t->generation[row]);
      break;
    case GC_REASON: result_string (sctx, ctx, t->reason[row], TRUE); break;
    case GC_BYTES: result_size (sctx, t->bytes[row]); break;
    default: break;
    }
}

/* The reader of @table's columns */
SpsSqlVtabColumnFunc
_sps_sql_vtab_get_column_func (TableId table)
{
  static const SpsSqlVtabColumnFunc funcs[N_TABLES] = {
    [TABLE_PROCESSES] = column_processes,
    [TABLE_THREADS] = column_threads,
    [TABLE_TRACKS] = column_tracks,
    [TABLE_SLICES] = column_slices,
    [TABLE_INSTANTS] = column_instants,
    [TABLE_COUNTERS] = column_counters,
    [TABLE_FLOWS] = column_flows,
    [TABLE_SAMPLES] = column_samples,
    [TABLE_CALLSITES] = column_callsites,
    [TABLE_FRAMES] = column_frames,
    [TABLE_OBJECTS] = column_objects,
    [TABLE_ALLOCATIONS] = column_allocations,
    [TABLE_GC_OBSERVATIONS] = column_gc_observations,
  };

  g_assert (table < N_TABLES);
  return funcs[table];
}
