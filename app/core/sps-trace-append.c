/* sps-trace-append.c: adding an analysis' rows to a finished trace
 *
 * An analysis plugin reads a finished trace and writes what it finds into
 * a builder made for that trace: it shares the trace's string pool and
 * starts with the trace's processes and threads at the same indices, so
 * the ids and indices the analysis reads from the trace are valid in the
 * builder. That builder is finished on its own, then its tables are
 * appended to the trace's: its tracks come after the trace's, with their
 * rows after the trace's rows of the same table, which keeps every table
 * sorted by (track, time) without moving a row of the trace. Only the
 * block index and the per-kind counts are rebuilt. This happens before
 * the load hands the trace to anyone, so nothing reads it meanwhile.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-trace"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "sps-trace-append-private.h"
#include "sps-trace-finish-private.h"

/**
 * _sps_trace_builder_new_for_trace:
 * @trace: a finished trace
 *
 * Returns: (transfer full): a builder sharing @trace's strings, holding its
 *   processes and threads (same indices, names, sort order and labels)
 */
SpsTraceBuilder *
_sps_trace_builder_new_for_trace (SpsTrace *trace)
{
  SpsTraceBuilder *builder;

  g_assert (SPS_IS_TRACE (trace));

  builder = sps_trace_builder_new ();
  sps_string_pool_unref (builder->strings);
  builder->strings = sps_string_pool_ref (trace->strings);

  /* Processes and threads are unique by (pid) and (process, tid), so
   * ensuring them in order gives each its index in the trace. */
  for (guint p = 0; p < trace->processes.n_rows; p++)
    {
      guint32 row = sps_trace_builder_ensure_process (builder, trace->processes.pid[p]);

      g_assert (row == p);
      builder->process_name[row] = trace->processes.name[p];
      builder->process_sort_index[row] = trace->processes.sort_index[p];
      builder->process_labels[row] = trace->processes.labels[p];
      builder->process_display[row] = trace->processes.display[p];
    }

  for (guint t = 0; t < trace->threads.n_rows; t++)
    {
      guint32 row = sps_trace_builder_ensure_thread (builder, trace->threads.process[t],
                                                     trace->threads.tid[t]);

      g_assert (row == t);
      builder->thread_name[row] = trace->threads.name[t];
      builder->thread_sort_index[row] = trace->threads.sort_index[t];
    }

  return builder;
}

/* The trace's table of @name, among _sps_trace_get_layouts() */
static const SpsTableLayout *
trace_layout (gsize n_rows_offset)
{
  const SpsTableLayout *layouts;
  guint n;

  layouts = _sps_trace_get_layouts (&n);
  for (guint i = 0; i < n; i++)
    if (layouts[i].n_rows == n_rows_offset)
      return &layouts[i];

  g_assert_not_reached ();
}

#define TABLE(field) trace_layout (G_STRUCT_OFFSET (SpsTrace, field.n_rows))

static guint *
rows_of (gpointer              owner,
         const SpsTableLayout *layout)
{
  return (guint *) G_STRUCT_MEMBER_P (owner, layout->n_rows);
}

/* Appends rows @skip… of @src's table to @dst's, column by column. */
static void
append_rows (SpsTrace             *dst,
             SpsTrace             *src,
             const SpsTableLayout *layout,
             guint                 skip)
{
  guint n_dst = *rows_of (dst, layout);
  guint n_src = *rows_of (src, layout);
  guint n_new;

  g_assert (skip <= n_src);

  n_new = n_src - skip;
  if (n_new == 0)
    return;

  for (const SpsColumn *c = layout->columns; c < layout->columns + SPS_MAX_COLUMNS && c->element_size != 0; c++)
    {
      gpointer *dst_column = (gpointer *) G_STRUCT_MEMBER_P (dst, c->offset);
      const guint8 *src_column = G_STRUCT_MEMBER (gpointer, src, c->offset);
      gsize size = c->element_size;

      if (c->constant != 0 && src_column == NULL)
        {
          gconstpointer value = G_STRUCT_MEMBER_P (src, c->constant);

          /* One value on both sides, or the destination had no rows */
          if (*dst_column == NULL &&
              (n_dst == 0 || memcmp (G_STRUCT_MEMBER_P (dst, c->constant), value, size) == 0))
            {
              memcpy (G_STRUCT_MEMBER_P (dst, c->constant), value, size);
              continue;
            }
          if (*dst_column == NULL)
            _sps_column_materialise (dst, layout, c);
          *dst_column = g_realloc_n (*dst_column, (gsize) n_dst + n_new, size);
          for (guint r = 0; r < n_new; r++)
            memcpy ((guint8 *) *dst_column + ((gsize) n_dst + r) * size, value, size);
          continue;
        }

      if (*dst_column == NULL && c->constant != 0 && n_dst > 0)
        _sps_column_materialise (dst, layout, c);
      *dst_column = g_realloc_n (*dst_column, (gsize) n_dst + n_new, size);
      memcpy ((guint8 *) *dst_column + (gsize) n_dst * size,
              src_column + (gsize) skip * size,
              (gsize) n_new * size);
    }

  *rows_of (dst, layout) = n_dst + n_new;
}

/* Points an args reference of @results' arena into the trace's arena,
 * where @results' arena starts at @base. */
static gboolean
rebase_args (SpsArgsRef *ref,
             guint64     base)
{
  guint64 offset;

  if (*ref == SPS_ARGS_REF_NONE)
    return TRUE;
  if ((*ref & SPS_ARGS_REF_ARENA_BIT) == 0 || (*ref & SPS_ARGS_REF_DEFERRED_BIT) != 0)
    return FALSE;

  offset = (*ref & SPS_ARGS_REF_OFFSET_MASK) + base;
  if (offset > SPS_ARGS_REF_OFFSET_MASK)
    return FALSE;

  *ref = (*ref & ~SPS_ARGS_REF_OFFSET_MASK) | offset;
  return TRUE;
}

static gboolean
rebase_args_column (SpsArgsRef *refs,
                    guint       first,
                    guint       end,
                    guint64     base)
{
  for (guint i = first; i < end; i++)
    if (!rebase_args (&refs[i], base))
      return FALSE;
  return TRUE;
}

/* What an analysis may not add after the import, by table */
static const char *
refused_rows (SpsTrace *results)
{
  if (results->flows.n_rows > 0)
    return "flows";
  if (results->samples.n_rows > 0 || results->raw_samples.n_rows > 0)
    return "samples";
  if (results->callsites.n_rows > 0 || results->frames.n_rows > 0)
    return "stacks";
  if (results->objects.n_rows > 0)
    return "object events";
  if (results->allocations.n_rows > 0 || results->gc_observations.n_rows > 0)
    return "allocations";
  return NULL;
}

static gboolean
trace_has_times (SpsTrace *trace)
{
  return trace->slices.n_rows > 0 || trace->instants.n_rows > 0 || trace->counters.n_rows > 0 ||
         trace->samples.n_rows > 0 || trace->objects.n_rows > 0 || trace->allocations.n_rows > 0 ||
         trace->gc_observations.n_rows > 0;
}

static int
compare_warning_order (gconstpointer a,
                       gconstpointer b,
                       gpointer      user_data)
{
  char **names = user_data;

  return strcmp (names[*(const guint *) a], names[*(const guint *) b]);
}

/* Adds @results' warnings to the trace's, keeping them sorted by name and
 * the first message of each. */
static void
merge_warnings (SpsTrace *trace,
                SpsTrace *results)
{
  guint n = trace->n_warnings;
  guint cap = n + results->n_warnings;
  g_autofree guint *order = NULL;
  char **names = g_new (char *, MAX (cap, 1));
  guint64 *counts = g_new (guint64, MAX (cap, 1));
  char **messages = g_new (char *, MAX (cap, 1));

  /* A trace without warnings has no arrays: memcpy() takes no NULL */
  if (n > 0)
    {
      memcpy (names, trace->warning_names, n * sizeof (char *));
      memcpy (counts, trace->warning_counts, n * sizeof (guint64));
      memcpy (messages, trace->warning_messages, n * sizeof (char *));
    }

  for (guint i = 0; i < results->n_warnings; i++)
    {
      guint k;

      for (k = 0; k < n; k++)
        if (g_str_equal (names[k], results->warning_names[i]))
          break;

      if (k < n)
        {
          counts[k] = counts[k] > G_MAXUINT64 - results->warning_counts[i]
                      ? G_MAXUINT64 : counts[k] + results->warning_counts[i];
          continue;
        }

      names[n] = g_strdup (results->warning_names[i]);
      counts[n] = results->warning_counts[i];
      messages[n] = g_strdup (results->warning_messages[i]);
      n++;
    }

  order = g_new (guint, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    order[i] = i;
  g_qsort_with_data (order, n, sizeof (guint), compare_warning_order, names);

  g_free (trace->warning_names);
  g_free (trace->warning_counts);
  g_free (trace->warning_messages);
  trace->warning_names = g_new (char *, MAX (n, 1));
  trace->warning_counts = g_new (guint64, MAX (n, 1));
  trace->warning_messages = g_new (char *, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      trace->warning_names[i] = names[order[i]];
      trace->warning_counts[i] = counts[order[i]];
      trace->warning_messages[i] = messages[order[i]];
    }
  trace->n_warnings = n;

  g_free (names);
  g_free (counts);
  g_free (messages);
}

/* Appends @n key/value pairs; with @replace, a key the trace has already
 * gets the new value instead. */
static void
merge_pairs (guint32          **keys,
             SpsArgsRef       **values,
             guint             *n,
             const guint32     *new_keys,
             const SpsArgsRef  *new_values,
             guint              n_new,
             gboolean           replace)
{
  *keys = g_renew (guint32, *keys, *n + n_new + 1);
  *values = g_renew (SpsArgsRef, *values, *n + n_new + 1);

  for (guint i = 0; i < n_new; i++)
    {
      guint k = *n;

      if (replace)
        for (k = 0; k < *n; k++)
          if ((*keys)[k] == new_keys[i])
            break;

      (*keys)[k] = new_keys[i];
      (*values)[k] = new_values[i];
      if (k == *n)
        (*n)++;
    }
}

/**
 * _sps_trace_append_results:
 * @trace: a finished trace no one else reads yet
 * @results: the finished builder of _sps_trace_builder_new_for_trace()
 *   (@trace), which only added processes, threads, slices, instants,
 *   counters, warnings, metadata and info sections
 * @error: return location for a #GError
 *
 * Adds @results' rows to @trace (see the top of this file).
 *
 * Returns: %FALSE, with @trace untouched, when @results holds rows an
 *   analysis may not add or args that do not come from its own arena
 */
gboolean
_sps_trace_append_results (SpsTrace  *trace,
                           SpsTrace  *results,
                           GError   **error)
{
  guint old_tracks = trace->tracks.n_rows;
  guint old_slices = trace->slices.n_rows;
  guint old_instants = trace->instants.n_rows;
  guint old_counters = trace->counters.n_rows;
  gsize base = trace->arena != NULL ? g_bytes_get_size (trace->arena) : 0;
  const char *refused;
  gboolean had_times;

  g_assert (SPS_IS_TRACE (trace));
  g_assert (SPS_IS_TRACE (results));
  g_assert (results->strings == trace->strings);

  if ((refused = refused_rows (results)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   /* Translators: %s names rows of a trace, e.g. "samples"; untranslated */
                   _("an analysis can add slices, instants, counters and warnings, not %s"),
                   refused);
      return FALSE;
    }

  /* The builder kept the trace's processes and threads first */
  if (results->processes.n_rows < trace->processes.n_rows ||
      results->threads.n_rows < trace->threads.n_rows ||
      results->source != NULL ||
      !rebase_args_column ((SpsArgsRef *) results->slices.args, 0, results->slices.n_rows, base) ||
      !rebase_args_column ((SpsArgsRef *) results->instants.args, 0, results->instants.n_rows, base) ||
      !rebase_args_column (results->metadata_values, 0, results->n_metadata, base) ||
      !rebase_args_column (results->info_values, 0, results->n_info_sections, base))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("an analysis added args that are not in its own builder’s arena"));
      return FALSE;
    }

  had_times = trace_has_times (trace);

  append_rows (trace, results, TABLE (processes), trace->processes.n_rows);
  append_rows (trace, results, TABLE (threads), trace->threads.n_rows);
  append_rows (trace, results, TABLE (tracks), 0);
  append_rows (trace, results, TABLE (slices), 0);
  append_rows (trace, results, TABLE (instants), 0);
  append_rows (trace, results, TABLE (counters), 0);

  for (guint t = old_tracks; t < trace->tracks.n_rows; t++)
    {
      guint32 *first_row = (guint32 *) trace->tracks.first_row;

      switch ((SpsTrackKind) trace->tracks.kind[t])
        {
        case SPS_TRACK_THREAD_SLICES:
        case SPS_TRACK_THREAD_SAMPLED_SLICES:
        case SPS_TRACK_ASYNC:
          first_row[t] += old_slices;
          break;
        case SPS_TRACK_COUNTER:
          first_row[t] += old_counters;
          break;
        case SPS_TRACK_THREAD_INSTANTS:
        case SPS_TRACK_PROCESS_INSTANTS:
        case SPS_TRACK_GLOBAL_INSTANTS:
          first_row[t] += old_instants;
          break;
        case SPS_TRACK_THREAD_SAMPLES:
        default:
          /* refused_rows() let no samples through */
          g_assert (trace->tracks.n_rows_in_track[t] == 0);
          break;
        }
    }

  for (guint i = old_slices; i < trace->slices.n_rows; i++)
    {
      ((guint32 *) trace->slices.track)[i] += old_tracks;
      if (trace->slices.parent[i] != SPS_NO_INDEX)
        ((guint32 *) trace->slices.parent)[i] += old_slices;
    }
  for (guint i = old_instants; i < trace->instants.n_rows; i++)
    ((guint32 *) trace->instants.track)[i] += old_tracks;
  for (guint i = old_counters; i < trace->counters.n_rows; i++)
    ((guint32 *) trace->counters.track)[i] += old_tracks;

  if (results->arena != NULL && g_bytes_get_size (results->arena) > 0)
    {
      GByteArray *arena = g_byte_array_sized_new (base + g_bytes_get_size (results->arena));

      if (trace->arena != NULL)
        g_byte_array_append (arena, g_bytes_get_data (trace->arena, NULL), base);
      g_byte_array_append (arena, g_bytes_get_data (results->arena, NULL), g_bytes_get_size (results->arena));
      g_clear_pointer (&trace->arena, g_bytes_unref);
      trace->arena = g_byte_array_free_to_bytes (arena);
    }

  merge_warnings (trace, results);
  merge_pairs (&trace->metadata_keys, &trace->metadata_values, &trace->n_metadata,
               results->metadata_keys, results->metadata_values, results->n_metadata, FALSE);
  merge_pairs (&trace->info_names, &trace->info_values, &trace->n_info_sections,
               results->info_names, results->info_values, results->n_info_sections, TRUE);

  if (trace_has_times (results))
    {
      trace->start_time = had_times ? MIN (trace->start_time, results->start_time) : results->start_time;
      trace->end_time = had_times ? MAX (trace->end_time, results->end_time) : results->end_time;
    }

  _sps_trace_derive (trace);

  return TRUE;
}

/**
 * _sps_trace_derive:
 * @trace: a trace whose tables are complete
 *
 * (Re)builds what finish() derives from the tables besides them: the block
 * index of the slice tracks and the count of completed slices per track
 * kind.
 */
void
_sps_trace_derive (SpsTrace *trace)
{
  Finish f = { 0, };

  g_assert (SPS_IS_TRACE (trace));

  g_clear_pointer (&trace->track_first_block, g_free);
  g_clear_pointer (&trace->block_tree, g_free);
  memset (trace->slice_counts, 0, sizeof trace->slice_counts);

  f.trace = trace;
  _sps_build_block_index (&f);

  for (guint t = 0; t < trace->tracks.n_rows; t++)
    {
      guint32 first = trace->tracks.first_row[t];
      guint32 end = first + trace->tracks.n_rows_in_track[t];
      guint8 kind = trace->tracks.kind[t];

      if ((SLICE_TRACK_KINDS & (1u << kind)) == 0)
        continue;
      for (guint32 i = first; i < end; i++)
        if ((trace->slices.flags[i] & (SPS_SLICE_UNFINISHED | SPS_SLICE_UNMATCHED_END | SPS_SLICE_STEP)) == 0)
          trace->slice_counts[kind]++;
    }
}
