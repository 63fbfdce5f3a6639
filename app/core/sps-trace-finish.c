/* sps-trace-finish.c: turns a builder's rows into an immutable trace
 *
 * sps_trace_builder_finish() and its list of passes, with the small
 * passes that only move columns (processes, threads, tracks, metadata and
 * warnings) or take one look at every table (the time range). The
 * sorting, placement, pairing and per-table passes are in the other
 * sps-trace-finish-*.c files (see sps-trace-finish-private.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-trace-finish"

#include "config.h"

#ifdef HAVE_MALLOC_TRIM
#include <malloc.h>
#endif

#include <glib/gi18n-lib.h>

#include "sps-trace-finish-private.h"
#include "sps-self-trace.h"

/* finish() runs a fixed list of passes over the builder's columns, each
 * linear except where something is out of order. Tables are reordered by
 * "placing" rows: one sequential pass deals each row to its track's next
 * position and notices which tracks are out of time order; only those are
 * sorted (a stable LSD radix sort on 8-byte keys that pack the time offset
 * above the position, falling back to 16-byte (key, row) items for spans
 * too wide to pack). Columns are then scattered to their positions one at
 * a time, each builder column freed as soon as it is consumed, which
 * keeps the peak close to builder + one column and reads sequential even
 * when threads interleave. */

typedef void (*FinishPass) (Finish *f);

/* Widens [*start, *end] to the times of a table of points. */
static void
extend_range (const SpsTime *ts,
              guint          n,
              SpsTime       *start,
              SpsTime       *end)
{
  for (guint r = 0; r < n; r++)
    {
      *start = MIN (*start, ts[r]);
      *end = MAX (*end, ts[r]);
    }
}

/**
 * _sps_builder_time_range:
 * @b: a builder
 * @start_out: (out): the earliest time of its rows
 * @end_out: (out): the latest
 *
 * The trace's bounds: slices, instants, counters, samples, object events,
 * GC observations and the known births and deaths of allocations (a
 * capture of allocations alone has a real time span). 0 and 0 when
 * nothing has a time.
 */
void
_sps_builder_time_range (SpsTraceBuilder *b,
                         SpsTime         *start_out,
                         SpsTime         *end_out)
{
  SpsTime start = SPS_TIME_MAX;
  SpsTime end = SPS_TIME_MIN;

  /* Unfinished slices have dur 0 until the end is known. */
  for (guint r = 0; r < b->n_slice_records; r++)
    {
      if (b->slice_kind[r] == SPS_SLICE_RECORD_END)
        continue;
      start = MIN (start, b->slice_ts[r]);
      end = MAX (end, b->slice_ts[r] + b->slice_dur[r]);
    }

  extend_range (b->instant_ts, b->n_instants, &start, &end);
  extend_range (b->value_ts, b->n_counter_values, &start, &end);
  extend_range (b->sample_ts, b->n_samples, &start, &end);
  extend_range (b->object_ts, b->n_objects, &start, &end);
  extend_range (b->gc_ts, b->n_gc_observations, &start, &end);
  /* Unknown births and deaths are not times */
  for (guint r = 0; r < b->n_allocations; r++)
    {
      if (b->alloc_birth[r] != SPS_TIME_MIN)
        {
          start = MIN (start, b->alloc_birth[r]);
          end = MAX (end, b->alloc_birth[r]);
        }
      if (b->alloc_death[r] != SPS_TIME_MAX)
        end = MAX (end, b->alloc_death[r]);
    }

  if (start > end)
    start = end = 0;

  *start_out = start;
  *end_out = end;
}

static void
time_range (Finish *f)
{
  SPS_SELF_TRACE_SCOPE ("finish/time-range");

  _sps_builder_time_range (f->builder, &f->trace->start_time, &f->trace->end_time);
}

static void
close_unfinished (Finish *f)
{
  SPS_SELF_TRACE_SCOPE ("finish/close-unfinished");
  SpsTraceBuilder *b = f->builder;
  SpsTime end = f->trace->end_time;

  g_array_append_vals (f->unfinished, b->open_complete->data, b->open_complete->len);
  g_array_set_size (b->open_complete, 0);

  for (guint i = 0; i < f->unfinished->len; i++)
    {
      guint32 row = g_array_index (f->unfinished, guint32, i);

      b->slice_dur[row] = time_span (b->slice_ts[row], end);
    }

  g_clear_pointer (&f->unfinished, g_array_unref);
  f->unfinished = g_array_new (FALSE, FALSE, sizeof (guint32));
}

static void
move_processes_and_threads (Finish *f)
{
  SPS_SELF_TRACE_SCOPE ("finish/processes-and-threads");
  SpsTraceBuilder *b = f->builder;
  SpsTrace *trace = f->trace;
  guint np = b->n_processes;
  guint nt = b->n_threads;

  trace->processes.n_rows = np;
  trace->processes.pid = STEAL_COLUMN (b->process_pid, np);
  trace->processes.name = STEAL_COLUMN (b->process_name, np);
  trace->processes.sort_index = STEAL_COLUMN (b->process_sort_index, np);
  trace->processes.labels = STEAL_COLUMN (b->process_labels, np);
  trace->processes.display = STEAL_COLUMN (b->process_display, np);

  trace->threads.n_rows = nt;
  trace->threads.process = STEAL_COLUMN (b->thread_process, nt);
  trace->threads.tid = STEAL_COLUMN (b->thread_tid, nt);
  trace->threads.name = STEAL_COLUMN (b->thread_name, nt);
  trace->threads.sort_index = STEAL_COLUMN (b->thread_sort_index, nt);
}

static void
move_tracks (Finish *f)
{
  SPS_SELF_TRACE_SCOPE ("finish/move-tracks");
  SpsTrackTable *tracks = &f->trace->tracks;
  guint n = f->n_tracks;

  tracks->n_rows = n;
  tracks->kind = STEAL_COLUMN (f->track_kind, n);
  tracks->process = STEAL_COLUMN (f->track_process, n);
  tracks->thread = STEAL_COLUMN (f->track_thread, n);
  tracks->name = STEAL_COLUMN (f->track_name, n);
  tracks->series = STEAL_COLUMN (f->track_series, n);
  tracks->first_row = STEAL_COLUMN (f->track_first_row, n);
  tracks->n_rows_in_track = STEAL_COLUMN (f->track_n_rows, n);
  tracks->max_depth = STEAL_COLUMN (f->track_max_depth, n);
}

static int
compare_warning_names (gconstpointer a,
                       gconstpointer b,
                       gpointer      user_data)
{
  GPtrArray *names = user_data;
  guint ia = *(const guint *) a;
  guint ib = *(const guint *) b;

  return strcmp (g_ptr_array_index (names, ia), g_ptr_array_index (names, ib));
}

static void
move_metadata_and_warnings (Finish *f)
{
  SPS_SELF_TRACE_SCOPE ("finish/metadata-and-warnings");
  SpsTraceBuilder *b = f->builder;
  SpsTrace *trace = f->trace;
  guint n = b->warning_names->len;
  g_autofree guint *sorted = g_new (guint, MAX (n, 1));

  trace->strings = sps_string_pool_ref (b->strings);
  trace->source = b->source != NULL ? g_bytes_ref (b->source) : NULL;
  trace->arena = g_byte_array_free_to_bytes (g_steal_pointer (&b->arena));
  trace->decoders = g_ptr_array_ref (b->decoders);
  trace->format = g_steal_pointer (&b->format);
  trace->display_time_unit = g_steal_pointer (&b->display_time_unit);
  trace->events_read = b->events_read;
  trace->metadata_events = b->metadata_events;

  trace->n_metadata = b->metadata_keys->len;
  trace->metadata_keys = (guint32 *) (gpointer) g_array_free (g_steal_pointer (&b->metadata_keys),
                                                              trace->n_metadata == 0);
  trace->metadata_values = (SpsArgsRef *) (gpointer) g_array_free (g_steal_pointer (&b->metadata_values),
                                                                   trace->n_metadata == 0);

  trace->n_info_sections = b->info_names->len;
  trace->info_names = (guint32 *) (gpointer) g_array_free (g_steal_pointer (&b->info_names),
                                                           trace->n_info_sections == 0);
  trace->info_values = (SpsArgsRef *) (gpointer) g_array_free (g_steal_pointer (&b->info_values),
                                                               trace->n_info_sections == 0);

  for (guint i = 0; i < n; i++)
    sorted[i] = i;
  g_qsort_with_data (sorted, n, sizeof (guint), compare_warning_names, b->warning_names);

  trace->n_warnings = n;
  trace->warning_names = g_new (char *, MAX (n, 1));
  trace->warning_counts = g_new (guint64, MAX (n, 1));
  trace->warning_messages = g_new (char *, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      guint k = sorted[i];

      trace->warning_names[i] = g_strdup (g_ptr_array_index (b->warning_names, k));
      trace->warning_counts[i] = g_array_index (b->warning_counts, guint64, k);
      trace->warning_messages[i] = g_strdup (g_ptr_array_index (b->warning_messages, k));
    }
}

static void
finish_clear (Finish *f)
{
  _sps_table_free (f, &async_slice_table);
  _sps_table_free (f, &track_table);
  g_clear_pointer (&f->unfinished, g_array_unref);
  g_clear_pointer (&f->async_slice_lane, g_free);
  g_clear_pointer (&f->async_record_slice, g_free);
  g_clear_pointer (&f->process_n_lanes, g_free);
  g_clear_pointer (&f->thread_slices_track, g_free);
  g_clear_pointer (&f->thread_sampled_track, g_free);
  g_clear_pointer (&f->thread_instants_track, g_free);
  g_clear_pointer (&f->thread_samples_track, g_free);
  g_clear_pointer (&f->process_instants_track, g_free);
  g_clear_pointer (&f->process_first_lane, g_free);
  g_clear_pointer (&f->process_n_gc_lanes, g_free);
  g_clear_pointer (&f->counter_track, g_free);
  g_clear_pointer (&f->record_slice, g_free);
}

/* Passes in order, with the fraction of the work done after each. */
static const struct
{
  FinishPass  pass;
  double      done;
} finish_passes[] = {
  { _sps_pair_begin_end, 0.15 },
  { _sps_pair_async, 0.25 },
  { time_range, 0.30 },
  { close_unfinished, 0.32 },
  { _sps_pack_async_lanes, 0.35 },
  { move_processes_and_threads, 0.36 },
  { _sps_build_tracks, 0.40 },
  { _sps_build_slices, 0.70 },
  { _sps_build_instants, 0.75 },
  { _sps_build_counters, 0.80 },
  { _sps_build_samples, 0.85 },
  { _sps_build_raw_samples, 0.855 },
  { move_tracks, 0.86 },
  { _sps_build_block_index, 0.90 },
  { _sps_build_flows, 0.95 },
  { _sps_build_objects_and_stacks, 0.97 },
  { _sps_build_allocations, 0.98 },
  { move_metadata_and_warnings, 1.0 },
};

/**
 * sps_trace_builder_finish:
 * @self: a #SpsTraceBuilder
 * @progress: (nullable): where to report progress and check for
 *   cancellation
 * @error: return location for a #GError
 *
 * Sorts, pairs and indexes what was added: B/E pairing per thread, async
 * trees on lanes, parent/depth/self time, the block index for range
 * queries, flow arrows. Can be called once; the builder's rows are freed
 * whether it succeeds or not, and the builder takes no more events. A
 * builder that read a saved profile (sps_trace_builder_load_profile())
 * returns the trace that was read, whose tables were finished already.
 *
 * Returns: (transfer full) (nullable): the trace, or %NULL with
 *   %G_IO_ERROR_CANCELLED if @progress was cancelled
 */
SpsTrace *
sps_trace_builder_finish (SpsTraceBuilder  *self,
                          SpsProgress      *progress,
                          GError          **error)
{
  g_autoptr(SpsTrace) trace = NULL;
  Finish f = { 0, };
  SPS_SELF_TRACE_SCOPE ("finish");

  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (self), NULL);
  g_return_val_if_fail (!self->finished, NULL);
  g_return_val_if_fail (progress == NULL || SPS_IS_PROGRESS (progress), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  /* Derived rows go in while the builder still takes rows */
  _sps_add_outstanding_counters (self);
  _sps_trace_builder_check_string_limit (self);

  self->finished = TRUE;

  /* A saved profile's tables were finished when it was saved */
  if (self->profile_trace != NULL)
    {
      _sps_trace_builder_free_records (self);
      return g_steal_pointer (&self->profile_trace);
    }

#ifdef HAVE_MALLOC_TRIM
  /* What the importer freed before finishing (an ETL import's reading
   * state, 7 bytes per sample) is mostly heap that glibc keeps: given
   * back first, finish()'s peak does not stand on it */
  malloc_trim (0);
#endif

  trace = g_object_new (SPS_TYPE_TRACE, NULL);

  f.builder = self;
  f.trace = trace;
  f.unfinished = g_array_new (FALSE, FALSE, sizeof (guint32));
  f.async_first = self->n_slice_records;

  if (progress != NULL)
    {
      sps_progress_set_phase (progress, SPS_PROGRESS_PHASE_INDEXING, _("Indexing"));
      sps_progress_set_fraction (progress, 0.0);
    }

  for (guint i = 0; i < G_N_ELEMENTS (finish_passes); i++)
    {
      if (progress != NULL && sps_progress_is_cancelled (progress))
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                               _("Indexing was cancelled"));
          finish_clear (&f);
          _sps_trace_builder_free_records (self);
          return NULL;
        }

      finish_passes[i].pass (&f);

      if (progress != NULL)
        sps_progress_set_fraction (progress, finish_passes[i].done);
    }

  /* A column the builder had to store per row may hold one value after
   * all (the ends paired away had the only stacks) */
  _sps_trace_store_constants (trace);
  finish_clear (&f);
  _sps_trace_builder_free_records (self);
#ifdef HAVE_MALLOC_TRIM
  /* The builder's records and finish()'s work arrays (hundreds of MB for a
   * large trace) were freed, many of them in glibc's heap, whose dynamic
   * mmap threshold grows with the columns freed before: without a trim the
   * process keeps those pages (a quarter of an ETL trace's size) for good */
  malloc_trim (0);
#endif

  return g_steal_pointer (&trace);
}
