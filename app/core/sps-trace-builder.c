/* sps-trace-builder.c: append-only columns an importer writes to
 *
 * The SpsTraceBuilder object itself, its trace-wide state (source,
 * format, warnings, metadata, info sections) and its process and thread
 * tables. The appends of events are in sps-trace-builder-events.c, those
 * of frames, callsites and samples in sps-trace-builder-samples.c, and
 * the growth of every table in sps-trace-builder-tables.c; they share
 * sps-trace-builder-private.h.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-trace-builder"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "sps-trace-builder-private.h"
#include "sps-args-merge-private.h"

/**
 * SpsTraceBuilder:
 *
 * The write side of a trace. An importer, on one worker thread, appends
 * events as they come: every add_*() call stores a row in struct-of-arrays
 * columns, with no sorting, no pairing and no per-event hashing (only
 * processes, threads, counter series, frames and callsites are looked up,
 * and importers cache those). sps_trace_builder_finish() then sorts,
 * pairs and indexes everything into an immutable #SpsTrace.
 */

G_DEFINE_FINAL_TYPE (SpsTraceBuilder, sps_trace_builder, G_TYPE_OBJECT)

static const SpsTableLayout * const builder_tables[] = {
  &process_table, &thread_table, &slice_record_table, &async_table, &instant_table,
  &counter_table, &counter_value_table, &flow_point_table, &object_table, &frame_table,
  &callsite_table, &sample_table, &raw_sample_table, &allocation_table, &gc_observation_table,
};

/* Key hashes, shared by the probes and by the rebuilds of the indexes */

static inline guint32
thread_key_hash (guint32 process,
                 gint64  tid)
{
  return hash_pair (process, (guint64) tid);
}

static guint32
process_row_hash (SpsTraceBuilder *self,
                  guint32          row)
{
  return mix64 ((guint64) self->process_pid[row]);
}

static guint32
thread_row_hash (SpsTraceBuilder *self,
                 guint32          row)
{
  return thread_key_hash (self->thread_process[row], self->thread_tid[row]);
}

static void
row_index_clear (SpsRowIndex *index)
{
  g_clear_pointer (&index->slots, g_free);
  index->n_slots = 0;
}

static void
row_index_init (SpsRowIndex *index)
{
  index->n_slots = 64;
  index->slots = g_new0 (guint32, index->n_slots);
}

static void
sps_trace_builder_finalize (GObject *object)
{
  SpsTraceBuilder *self = (SpsTraceBuilder *)object;

  _sps_trace_builder_free_records (self);

  g_clear_pointer (&self->strings, sps_string_pool_unref);
  g_clear_pointer (&self->source, g_bytes_unref);
  g_clear_pointer (&self->arena, g_byte_array_unref);
  g_clear_pointer (&self->decoders, g_ptr_array_unref);
  g_clear_pointer (&self->format, g_free);
  g_clear_pointer (&self->display_time_unit, g_free);
  g_clear_object (&self->profile_trace);
  g_clear_pointer (&self->warning_index, g_hash_table_unref);
  g_clear_pointer (&self->gc_open, g_hash_table_unref);
  g_clear_pointer (&self->warning_names, g_ptr_array_unref);
  g_clear_pointer (&self->warning_counts, g_array_unref);
  g_clear_pointer (&self->warning_messages, g_ptr_array_unref);
  g_clear_pointer (&self->metadata_keys, g_array_unref);
  g_clear_pointer (&self->metadata_values, g_array_unref);
  g_clear_pointer (&self->info_names, g_array_unref);
  g_clear_pointer (&self->info_values, g_array_unref);
  g_clear_pointer (&self->open_complete, g_array_unref);
  g_clear_pointer (&self->merge_members[0], g_array_unref);
  g_clear_pointer (&self->merge_members[1], g_array_unref);
  if (self->merge_text != NULL)
    g_string_free (g_steal_pointer (&self->merge_text), TRUE);

  G_OBJECT_CLASS (sps_trace_builder_parent_class)->finalize (object);
}

static void
sps_trace_builder_class_init (SpsTraceBuilderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sps_trace_builder_finalize;
}

static void
sps_trace_builder_init (SpsTraceBuilder *self)
{
  self->strings = sps_string_pool_new ();
  self->max_rows = G_MAXINT32;
  self->arena = g_byte_array_new ();
  self->decoders = g_ptr_array_new_with_free_func (g_object_unref);
  self->warning_index = g_hash_table_new (g_str_hash, g_str_equal);
  self->warning_names = g_ptr_array_new_with_free_func (g_free);
  self->warning_counts = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->warning_messages = g_ptr_array_new_with_free_func (g_free);
  self->metadata_keys = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->metadata_values = g_array_new (FALSE, FALSE, sizeof (SpsArgsRef));
  self->info_names = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->info_values = g_array_new (FALSE, FALSE, sizeof (SpsArgsRef));
  self->open_complete = g_array_new (FALSE, FALSE, sizeof (guint32));

  row_index_init (&self->process_index);
  row_index_init (&self->thread_index);
  row_index_init (&self->counter_index);
  row_index_init (&self->frame_index);
  row_index_init (&self->callsite_index);
}

/* Frees every row table (finish() does this as soon as it has consumed
 * them, so a builder kept alive after finish costs nothing). */
void
_sps_trace_builder_free_records (SpsTraceBuilder *self)
{
  g_assert (SPS_IS_TRACE_BUILDER (self));

  for (guint i = 0; i < G_N_ELEMENTS (builder_tables); i++)
    _sps_table_free (self, builder_tables[i]);
  self->n_begin_end_records = 0;

  row_index_clear (&self->process_index);
  row_index_clear (&self->thread_index);
  row_index_clear (&self->counter_index);
  row_index_clear (&self->frame_index);
  row_index_clear (&self->callsite_index);
}

void
_sps_trace_builder_warn_count (SpsTraceBuilder *self,
                               const char      *name,
                               guint64          count,
                               const char      *message)
{
  guint index;

  g_assert (SPS_IS_TRACE_BUILDER (self));
  g_assert (name != NULL);

  if (count == 0)
    return;

  index = GPOINTER_TO_UINT (g_hash_table_lookup (self->warning_index, name));
  if (index == 0)
    {
      char *key = g_strdup (name);

      g_ptr_array_add (self->warning_names, key);
      g_array_append_val (self->warning_counts, count);
      g_ptr_array_add (self->warning_messages, g_strdup (message));
      g_hash_table_insert (self->warning_index, key,
                           GUINT_TO_POINTER (self->warning_names->len));
      return;
    }

  g_array_index (self->warning_counts, guint64, index - 1) += count;
  if (g_ptr_array_index (self->warning_messages, index - 1) == NULL && message != NULL)
    g_ptr_array_index (self->warning_messages, index - 1) = g_strdup (message);
}

/**
 * sps_trace_builder_new:
 *
 * Returns: (transfer full): a new, empty #SpsTraceBuilder
 */
SpsTraceBuilder *
sps_trace_builder_new (void)
{
  return g_object_new (SPS_TYPE_TRACE_BUILDER, NULL);
}

/**
 * sps_trace_builder_set_source:
 * @self: a #SpsTraceBuilder
 * @source: (nullable): the bytes that args references without the arena
 *   bit point into (usually the mapped input file)
 *
 * The trace keeps a reference to @source for its whole life.
 */
void
sps_trace_builder_set_source (SpsTraceBuilder *self,
                              GBytes          *source)
{
  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  g_return_if_fail (!self->finished);

  if (source != NULL)
    g_bytes_ref (source);
  g_clear_pointer (&self->source, g_bytes_unref);
  self->source = source;
}

/**
 * sps_trace_builder_get_source:
 * @self: a #SpsTraceBuilder
 *
 * Returns: (transfer none) (nullable): the source bytes
 */
GBytes *
sps_trace_builder_get_source (SpsTraceBuilder *self)
{
  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (self), NULL);

  return self->source;
}

/**
 * sps_trace_builder_set_format:
 * @self: a #SpsTraceBuilder
 * @format: (nullable): the name of the input format, e.g. "chrome-json"
 */
void
sps_trace_builder_set_format (SpsTraceBuilder *self,
                              const char      *format)
{
  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  g_return_if_fail (!self->finished);

  g_free (self->format);
  self->format = g_strdup (format);
}

/**
 * sps_trace_builder_set_display_time_unit:
 * @self: a #SpsTraceBuilder
 * @unit: (nullable): the unit the producer asked times to be shown in
 *   ("ms", "ns"…); it does not change stored times
 */
void
sps_trace_builder_set_display_time_unit (SpsTraceBuilder *self,
                                         const char      *unit)
{
  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  g_return_if_fail (!self->finished);

  g_free (self->display_time_unit);
  self->display_time_unit = g_strdup (unit);
}

/**
 * sps_trace_builder_get_strings:
 * @self: a #SpsTraceBuilder
 *
 * Returns: (transfer none): the string pool every string id refers to
 */
SpsStringPool *
sps_trace_builder_get_strings (SpsTraceBuilder *self)
{
  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (self), NULL);

  return self->strings;
}

/**
 * sps_trace_builder_intern:
 * @self: a #SpsTraceBuilder
 * @str: the bytes of a string
 * @len: length in bytes, or -1 if @str is NUL-terminated
 *
 * Returns: the string's id in sps_trace_builder_get_strings()
 */
guint32
sps_trace_builder_intern (SpsTraceBuilder *self,
                          const char      *str,
                          gssize           len)
{
  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (self), 0);

  return sps_string_pool_intern (self->strings, str, len);
}

/**
 * sps_trace_builder_add_args_text:
 * @self: a #SpsTraceBuilder
 * @json: JSON text of an args value
 * @len: length in bytes, or -1 if @json is NUL-terminated
 *
 * Copies args text into the builder's own arena, for importers whose
 * input is not JSON text that could be referenced in place.
 *
 * Returns: a reference with the arena bit set, or %SPS_ARGS_REF_NONE for
 *   empty text
 */
SpsArgsRef
sps_trace_builder_add_args_text (SpsTraceBuilder *self,
                                 const char      *json,
                                 gssize           len)
{
  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (self), SPS_ARGS_REF_NONE);
  g_return_val_if_fail (!self->finished, SPS_ARGS_REF_NONE);
  g_return_val_if_fail (json != NULL || len == 0, SPS_ARGS_REF_NONE);

  if (len < 0)
    len = strlen (json);
  if (len == 0)
    return SPS_ARGS_REF_NONE;

  return _sps_trace_builder_arena_add (self, json, (gsize) len);
}

/**
 * sps_trace_builder_add_args_decoder:
 * @self: a #SpsTraceBuilder
 * @decoder: what makes the importer's deferred args into JSON
 *
 * Keeps @decoder (in the builder, then in the trace it finishes) for the
 * args the importer references with sps_args_ref_new_deferred() instead
 * of writing their text during the import: a binary format's payloads are
 * then decoded only when a view, a query or an exporter reads them. Adding
 * the same decoder again gives the same number.
 *
 * Returns: the decoder's number for sps_args_ref_new_deferred() (1–15),
 *   or 0 when the builder has %SPS_ARGS_REF_MAX_DECODERS already (the
 *   importer then writes the args' text)
 */
guint
sps_trace_builder_add_args_decoder (SpsTraceBuilder *self,
                                    SpsArgsDecoder  *decoder)
{
  guint index;

  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (self), 0);
  g_return_val_if_fail (SPS_IS_ARGS_DECODER (decoder), 0);
  g_return_val_if_fail (!self->finished, 0);

  /* Decoder n is at n - 1 */
  if (g_ptr_array_find (self->decoders, decoder, &index))
    return index + 1;
  if (self->decoders->len >= SPS_ARGS_REF_MAX_DECODERS)
    return 0;
  g_ptr_array_add (self->decoders, g_object_ref (decoder));
  return self->decoders->len;
}

/**
 * sps_trace_builder_add_events_read:
 * @self: a #SpsTraceBuilder
 * @n: how many more input events were read
 */
void
sps_trace_builder_add_events_read (SpsTraceBuilder *self,
                                   guint64          n)
{
  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));

  self->events_read += n;
}

/**
 * sps_trace_builder_add_metadata_events:
 * @self: a #SpsTraceBuilder
 * @n: how many more metadata events (Chrome "M") were read
 */
void
sps_trace_builder_add_metadata_events (SpsTraceBuilder *self,
                                       guint64          n)
{
  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));

  self->metadata_events += n;
}

/**
 * sps_trace_builder_warn:
 * @self: a #SpsTraceBuilder
 * @name: a snake_case warning name, e.g. "unmatched_end"
 * @format: (nullable): printf format of a message; only the first message
 *   of each name is kept
 * @...: arguments for @format
 *
 * Counts one occurrence of the warning @name. The message is only
 * formatted the first time, so warning about every bad event stays cheap.
 *
 * For the same reason @format is translated here, in the Spanscope
 * gettext domain, when it is formatted: mark a literal format with N_()
 * rather than _(). A format that has no translation there (one already
 * translated by the caller, say) is used as it is.
 */
void
sps_trace_builder_warn (SpsTraceBuilder *self,
                        const char      *name,
                        const char      *format,
                        ...)
{
  guint index;

  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  g_return_if_fail (name != NULL);

  index = GPOINTER_TO_UINT (g_hash_table_lookup (self->warning_index, name));
  if (index != 0 && g_ptr_array_index (self->warning_messages, index - 1) != NULL)
    {
      g_array_index (self->warning_counts, guint64, index - 1) += 1;
    }
  else
    {
      g_autofree char *message = NULL;

      if (format != NULL)
        {
          va_list args;

          /* (An empty msgid would look up the catalogue's header.) */
          va_start (args, format);
          message = g_strdup_vprintf (format[0] != '\0' ? g_dgettext (GETTEXT_PACKAGE, format) : format,
                                      args);
          va_end (args);
        }

      _sps_trace_builder_warn_count (self, name, 1, message);
    }
}

/**
 * sps_trace_builder_add_warning:
 * @self: a #SpsTraceBuilder
 * @name: a snake_case warning name, e.g. "long_slice"
 * @message: (nullable): the message, already translated; only the first
 *   message of each name is kept
 *
 * Counts one occurrence of the warning @name, like
 * sps_trace_builder_warn() without a format: for bindings, and for
 * plugins that translate their own messages.
 */
void
sps_trace_builder_add_warning (SpsTraceBuilder *self,
                               const char      *name,
                               const char      *message)
{
  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  g_return_if_fail (name != NULL);

  _sps_trace_builder_warn_count (self, name, 1, message);
}

/**
 * sps_trace_builder_add_metadata:
 * @self: a #SpsTraceBuilder
 * @key: the key (e.g. a top-level key of the input)
 * @value: the value as JSON text
 *
 * Adds a trace-level metadata entry; keys keep their order and may repeat.
 */
void
sps_trace_builder_add_metadata (SpsTraceBuilder *self,
                                const char      *key,
                                SpsArgsRef       value)
{
  guint32 id;

  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  g_return_if_fail (!self->finished);
  g_return_if_fail (key != NULL);

  id = sps_string_pool_intern (self->strings, key, -1);
  g_array_append_val (self->metadata_keys, id);
  g_array_append_val (self->metadata_values, value);
}

/**
 * sps_trace_builder_set_info_section:
 * @self: a #SpsTraceBuilder
 * @name: the section name, a JSON key such as "embedded"
 * @json: a JSON object with what the importer knows about the input
 *   beyond the common model (figures of its own format)
 *
 * Attaches a format-specific summary that `spanscope-cli info --json`
 * prints after "warnings" under @name. Setting a name again replaces it.
 */
void
sps_trace_builder_set_info_section (SpsTraceBuilder *self,
                                    const char      *name,
                                    const char      *json)
{
  SpsArgsRef value;
  guint32 id;

  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  g_return_if_fail (!self->finished);
  g_return_if_fail (name != NULL);
  g_return_if_fail (json != NULL);

  id = sps_string_pool_intern (self->strings, name, -1);
  value = sps_trace_builder_add_args_text (self, json, -1);

  for (guint i = 0; i < self->info_names->len; i++)
    {
      if (g_array_index (self->info_names, guint32, i) == id)
        {
          g_array_index (self->info_values, SpsArgsRef, i) = value;
          return;
        }
    }

  g_array_append_val (self->info_names, id);
  g_array_append_val (self->info_values, value);
}

/**
 * sps_trace_builder_ensure_process:
 * @self: a #SpsTraceBuilder
 * @pid: the process id as written in the input
 *
 * Returns: the index of the process with @pid, added if needed
 */
guint32
sps_trace_builder_ensure_process (SpsTraceBuilder *self,
                                  gint64           pid)
{
  guint32 row = 0;
  guint slot;

  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (self), SPS_NO_INDEX);
  g_return_val_if_fail (!self->finished, SPS_NO_INDEX);
  RETURN_IF_FULL (self, SPS_NO_INDEX);

  ROW_INDEX_PROBE (&self->process_index, mix64 ((guint64) pid), row,
                   self->process_pid[row] == pid, slot);
  if (self->process_index.slots[slot] != 0)
    return row;

  row = append_row (self, &process_table);
  if G_UNLIKELY (self->full)
    return SPS_NO_INDEX;
  self->process_pid[row] = pid;
  self->process_name[row] = 0;
  self->process_sort_index[row] = G_MAXINT32;
  self->process_labels[row] = 0;
  self->process_display[row] = SPS_PROCESS_DISPLAY_DEFAULT;
  _sps_row_index_insert (self, &self->process_index, slot, row, self->n_processes, process_row_hash);

  return row;
}

/**
 * sps_trace_builder_set_process_name:
 * @self: a #SpsTraceBuilder
 * @process: a process index
 * @name: a string id
 */
void
sps_trace_builder_set_process_name (SpsTraceBuilder *self,
                                    guint32          process,
                                    guint32          name)
{
  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  RETURN_IF_FULL (self, );
  g_return_if_fail (process < self->n_processes);

  self->process_name[process] = name;
}

/**
 * sps_trace_builder_set_process_sort_index:
 * @self: a #SpsTraceBuilder
 * @process: a process index
 * @sort_index: where the producer wants the process shown
 */
void
sps_trace_builder_set_process_sort_index (SpsTraceBuilder *self,
                                          guint32          process,
                                          gint32           sort_index)
{
  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  RETURN_IF_FULL (self, );
  g_return_if_fail (process < self->n_processes);

  self->process_sort_index[process] = sort_index;
}

/**
 * sps_trace_builder_set_process_display:
 * @self: a #SpsTraceBuilder
 * @process: a process index
 * @display: how to show it when the trace is opened
 *
 * Says whether a process starts collapsed or hidden in the window, e.g.
 * every process but the profiled one collapsed, the idle process hidden.
 * Nothing is removed: the rows stay in the trace.
 */
void
sps_trace_builder_set_process_display (SpsTraceBuilder   *self,
                                       guint32            process,
                                       SpsProcessDisplay  display)
{
  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  RETURN_IF_FULL (self, );
  g_return_if_fail (process < self->n_processes);

  self->process_display[process] = (guint8) display;
}

/**
 * sps_trace_builder_set_process_labels:
 * @self: a #SpsTraceBuilder
 * @process: a process index
 * @labels: a string id: labels separated by commas
 *
 * Adds labels to a process: each label is kept once, in the order it
 * first appears over all the calls; empty ones are left out. The
 * process's labels are the result, joined by commas.
 */
void
sps_trace_builder_set_process_labels (SpsTraceBuilder *self,
                                      guint32          process,
                                      guint32          labels)
{
  g_autoptr(GString) joined = NULL;
  g_autoptr(GPtrArray) seen = NULL;
  guint32 old;

  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  RETURN_IF_FULL (self, );
  g_return_if_fail (process < self->n_processes);

  old = self->process_labels[process];
  joined = g_string_new (NULL);
  seen = g_ptr_array_new_with_free_func (g_free);

  for (guint k = 0; k < 2; k++)
    {
      guint32 id = k == 0 ? old : labels;
      const char *text = id != 0 ? sps_string_pool_get (self->strings, id, NULL) : NULL;
      g_auto(GStrv) parts = text != NULL ? g_strsplit (text, ",", -1) : NULL;

      for (guint i = 0; parts != NULL && parts[i] != NULL; i++)
        {
          if (parts[i][0] == '\0' ||
              g_ptr_array_find_with_equal_func (seen, parts[i], g_str_equal, NULL))
            continue;
          g_ptr_array_add (seen, g_strdup (parts[i]));
          if (joined->len > 0)
            g_string_append_c (joined, ',');
          g_string_append (joined, parts[i]);
        }
    }

  self->process_labels[process] = joined->len > 0 ? sps_string_pool_intern (self->strings, joined->str,
                                                                              (gssize) joined->len)
                                                   : 0;
}

/**
 * sps_trace_builder_ensure_thread:
 * @self: a #SpsTraceBuilder
 * @process: a process index
 * @tid: the thread id as written in the input
 *
 * Returns: the index of the thread (@process, @tid), added if needed
 */
guint32
sps_trace_builder_ensure_thread (SpsTraceBuilder *self,
                                 guint32          process,
                                 gint64           tid)
{
  guint32 row = 0;
  guint slot;

  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (self), SPS_NO_INDEX);
  g_return_val_if_fail (!self->finished, SPS_NO_INDEX);
  RETURN_IF_FULL (self, SPS_NO_INDEX);
  g_return_val_if_fail (process < self->n_processes, SPS_NO_INDEX);

  ROW_INDEX_PROBE (&self->thread_index, thread_key_hash (process, tid), row,
                   self->thread_process[row] == process && self->thread_tid[row] == tid,
                   slot);
  if (self->thread_index.slots[slot] != 0)
    return row;

  row = append_row (self, &thread_table);
  if G_UNLIKELY (self->full)
    return SPS_NO_INDEX;
  self->thread_process[row] = process;
  self->thread_tid[row] = tid;
  self->thread_name[row] = 0;
  self->thread_sort_index[row] = G_MAXINT32;
  _sps_row_index_insert (self, &self->thread_index, slot, row, self->n_threads, thread_row_hash);

  return row;
}

/**
 * sps_trace_builder_set_thread_name:
 * @self: a #SpsTraceBuilder
 * @thread: a thread index
 * @name: a string id
 */
void
sps_trace_builder_set_thread_name (SpsTraceBuilder *self,
                                   guint32          thread,
                                   guint32          name)
{
  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  RETURN_IF_FULL (self, );
  g_return_if_fail (thread < self->n_threads);

  self->thread_name[thread] = name;
}

/**
 * sps_trace_builder_set_thread_sort_index:
 * @self: a #SpsTraceBuilder
 * @thread: a thread index
 * @sort_index: where the producer wants the thread shown
 */
void
sps_trace_builder_set_thread_sort_index (SpsTraceBuilder *self,
                                         guint32          thread,
                                         gint32           sort_index)
{
  g_return_if_fail (SPS_IS_TRACE_BUILDER (self));
  RETURN_IF_FULL (self, );
  g_return_if_fail (thread < self->n_threads);

  self->thread_sort_index[thread] = sort_index;
}
