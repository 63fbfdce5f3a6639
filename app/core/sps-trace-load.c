/* sps-trace-load.c: loading a trace with the importer plugins
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-trace-load"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-analysis.h"
#include "sps-importer.h"
#include "sps-plugin-engine.h"
#include "sps-file-read.h"
#include "sps-file-read-private.h"
#include "sps-plugin-engine-private.h"
#include "sps-trace-analyze-private.h"
#include "sps-trace-builder.h"
#include "sps-trace-private.h"
#include "sps-trace.h"
#include "sps-self-trace.h"

/* How much of the file every importer's probe sees. */
#define PROBE_SIZE 4096

typedef struct
{
  GFile        *file;
  GVariant     *options;
  SpsProgress  *progress;
  GPtrArray    *importers;
  GPtrArray    *analyses;
  GCancellable *cancellable;
  gulong        cancelled_id;
  SpsLoadFlags  flags;
} LoadData;

static void
load_data_free (gpointer user_data)
{
  LoadData *data = user_data;

  if (data->cancelled_id != 0)
    g_cancellable_disconnect (data->cancellable, data->cancelled_id);

  g_clear_object (&data->cancellable);
  g_clear_object (&data->file);
  g_clear_pointer (&data->options, g_variant_unref);
  g_clear_object (&data->progress);
  g_clear_pointer (&data->importers, g_ptr_array_unref);
  g_clear_pointer (&data->analyses, g_ptr_array_unref);
  g_free (data);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoadData, load_data_free)

static void
cancel_progress (GCancellable *cancellable,
                 gpointer      user_data)
{
  SpsProgress *progress = user_data;

  g_assert (SPS_IS_PROGRESS (progress));

  sps_progress_cancel (progress);
}

static GBytes *
read_head (GFile         *file,
           GCancellable  *cancellable,
           GError       **error)
{
  g_autoptr(GFileInputStream) stream = NULL;
  guint8 buffer[PROBE_SIZE];
  gsize n_read = 0;
  GBytes *spooled;

  g_assert (G_IS_FILE (file));

  if ((spooled = _sps_file_get_spooled (file)))
    return g_bytes_new_from_bytes (spooled, 0, MIN (g_bytes_get_size (spooled), PROBE_SIZE));

  /* A FIFO without a writer would block the open for ever. */
  if (!sps_file_check_regular (file, error))
    return NULL;

  if (!(stream = g_file_read (file, cancellable, error)))
    return NULL;

  if (!g_input_stream_read_all (G_INPUT_STREAM (stream), buffer, sizeof buffer,
                                &n_read, cancellable, error))
    return NULL;

  return g_bytes_new (buffer, n_read);
}

typedef struct
{
  SpsImporter *importer;
  guint        score;
  guint        index;
} Candidate;

static int
compare_candidates (gconstpointer a,
                    gconstpointer b)
{
  const Candidate *ca = a;
  const Candidate *cb = b;

  if (ca->score != cb->score)
    return ca->score > cb->score ? -1 : 1;

  return ca->index < cb->index ? -1 : ca->index > cb->index;
}

/* The importers that score above 0, best first (by precedence on a tie):
 * the first reads the file; the next ones are there in case its plugin
 * breaks down. */
static GArray *
rank_importers (GPtrArray *importers,
                GFile     *file,
                GBytes    *head)
{
  g_autoptr(GArray) ranked = g_array_new (FALSE, FALSE, sizeof (Candidate));

  g_assert (importers != NULL);
  g_assert (G_IS_FILE (file));
  g_assert (head != NULL);

  for (guint i = 0; i < importers->len; i++)
    {
      Candidate c = { g_ptr_array_index (importers, i), 0, i };

      c.score = sps_importer_probe (c.importer, file, head);
      g_debug ("%s scores %u", sps_importer_get_name (c.importer), c.score);

      if (c.score > 0)
        g_array_append_val (ranked, c);
    }

  g_array_sort (ranked, compare_candidates);

  return g_steal_pointer (&ranked);
}

static gboolean
is_cancelled (SpsProgress  *progress,
              const GError *error)
{
  return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
         sps_progress_is_cancelled (progress);
}

static SpsTrace *
sps_trace_load_run (LoadData  *data,
                    GError   **error)
{
  SPS_SELF_TRACE_SCOPE ("load");
  GCancellable *cancellable = sps_progress_get_cancellable (data->progress);
  g_autoptr(SpsTraceBuilder) builder = NULL;
  g_autoptr(GError) import_error = NULL;
  g_autoptr(GBytes) head = NULL;
  g_autoptr(GArray) ranked = NULL;
  g_autofree char *display_name = NULL;
  SpsImporter *importer;
  SpsTrace *trace;

  g_assert (data != NULL);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  /* A FIFO can be read once: it is read whole first, onto a copy of the
   * GFile that only this load sees (sps_file_read() and read_head() give
   * its bytes), then detected and imported like a file. */
  if (_sps_file_is_fifo (data->file))
    {
      GFile *own = g_file_dup (data->file);

      g_object_unref (data->file);
      data->file = own;
      if (!_sps_file_spool (data->file, data->progress, error))
        return NULL;
    }

  sps_progress_set_phase (data->progress, SPS_PROGRESS_PHASE_READING, _("Detecting the format"));

  if (!(head = read_head (data->file, cancellable, error)))
    return NULL;

  ranked = rank_importers (data->importers, data->file, head);

  for (guint i = 0; i < ranked->len; i++)
    {
      importer = g_array_index (ranked, Candidate, i).importer;

      g_clear_object (&builder);
      g_clear_error (&import_error);
      builder = sps_trace_builder_new ();
      sps_trace_builder_set_format (builder, sps_importer_get_name (importer));

      if (sps_importer_load (importer, data->file, data->options, builder,
                             data->progress, &import_error))
        break;

      /* A plugin that broke down is skipped (the engine recorded why); the
       * next importer that recognises the file gets its turn. */
      if (!_sps_plugin_engine_is_blamed (importer) ||
          is_cancelled (data->progress, import_error) ||
          i + 1 == ranked->len)
        break;

      g_debug ("%s broke down, trying the next importer: %s",
               sps_importer_get_name (importer), import_error->message);
    }

  if (builder == NULL)
    {
      display_name = g_file_get_parse_name (data->file);
      /* An empty file (or a FIFO that sent nothing) is no format at all:
       * saying so tells the user what is wrong with it */
      g_set_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_UNKNOWN_FORMAT,
                   "%s: %s", display_name,
                   g_bytes_get_size (head) == 0 ? _("the file is empty")
                                                : _("not a trace format Spanscope can read"));
      return NULL;
    }

  if (import_error != NULL)
    {
      if (is_cancelled (data->progress, import_error))
        {
          g_cancellable_set_error_if_cancelled (cancellable, error);
          if (error != NULL && *error == NULL)
            g_propagate_error (error, g_steal_pointer (&import_error));
          return NULL;
        }

      if (!(data->flags & SPS_LOAD_FLAGS_KEEP_PARTIAL))
        {
          g_propagate_error (error, g_steal_pointer (&import_error));
          return NULL;
        }

      g_debug ("Keeping what was read before: %s", import_error->message);
    }

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  sps_progress_set_phase (data->progress, SPS_PROGRESS_PHASE_INDEXING, _("Indexing"));

  if (!(trace = sps_trace_builder_finish (builder, data->progress, error)))
    return NULL;

  /* A trace kept with SPS_LOAD_FLAGS_KEEP_PARTIAL remembers why it is
   * partial. */
  if (import_error != NULL)
    _sps_trace_set_load_error (trace, import_error);
  _sps_trace_set_file (trace, data->file);

  /* Analysis plugins add their rows before anyone sees the trace */
  if (!_sps_trace_run_analyses (trace, data->analyses, data->progress, error))
    {
      g_object_unref (trace);
      return NULL;
    }

  return trace;
}

static void
sps_trace_load_worker (GTask        *task,
                       gpointer      source_object,
                       gpointer      task_data,
                       GCancellable *cancellable)
{
  LoadData *data = task_data;
  g_autoptr(GError) error = NULL;
  SpsTrace *trace;

  g_assert (G_IS_TASK (task));
  g_assert (data != NULL);

  trace = sps_trace_load_run (data, &error);

  if (trace != NULL)
    {
      sps_progress_set_phase (data->progress, SPS_PROGRESS_PHASE_DONE, _("Loaded"));
      g_task_return_pointer (task, trace, g_object_unref);
    }
  else
    {
      g_assert (error != NULL);

      sps_progress_set_phase (data->progress, SPS_PROGRESS_PHASE_DONE,
                              is_cancelled (data->progress, error) ? _("Cancelled") : _("Failed"));
      g_task_return_error (task, g_steal_pointer (&error));
    }
}

/**
 * sps_trace_load_async:
 * @file: the trace file
 * @engine: (nullable): where the importers come from, or %NULL for
 *   sps_plugin_engine_get_default()
 * @options: (nullable): an a{sv} dictionary of importer options (see
 *   #SpsImporterInterface), or %NULL; a floating reference is sunk
 * @flags: #SpsLoadFlags
 * @progress: (nullable): where to report progress, or %NULL
 * @cancellable: (nullable): a #GCancellable, or %NULL
 * @callback: called on the thread-default main context of the caller
 * @user_data: data for @callback
 *
 * Loads @file on a worker thread: every importer probes the first 4096
 * bytes, the one with the highest score (above 0; the first one on a tie)
 * reads the file, and the builder is finished into a trace. Then every
 * analysis plugin of @engine runs on the trace (sps_analysis_analyze()),
 * in plugin precedence, and its rows are added to it; an analysis that
 * fails is skipped and its plugin reported as failed.
 *
 * Cancelling @cancellable also cancels @progress, and cancelling
 * @progress stops the load too. A cancelled load frees everything it
 * built and fails with %G_IO_ERROR_CANCELLED, even with
 * %SPS_LOAD_FLAGS_KEEP_PARTIAL.
 */
void
sps_trace_load_async (GFile               *file,
                      SpsPluginEngine     *engine,
                      GVariant            *options,
                      SpsLoadFlags         flags,
                      SpsProgress         *progress,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(LoadData) data = NULL;

  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (engine == NULL || SPS_IS_PLUGIN_ENGINE (engine));
  g_return_if_fail (options == NULL ||
                    g_variant_is_of_type (options, G_VARIANT_TYPE_VARDICT));
  g_return_if_fail (progress == NULL || SPS_IS_PROGRESS (progress));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  if (engine == NULL)
    engine = sps_plugin_engine_get_default ();

  data = g_new0 (LoadData, 1);
  data->file = g_object_ref (file);
  data->options = options != NULL ? g_variant_ref_sink (options) : NULL;
  data->flags = flags;
  data->progress = progress != NULL ? g_object_ref (progress) : sps_progress_new (cancellable);

  /* Importers watch the progress's cancellable only. */
  if (cancellable != NULL &&
      cancellable != sps_progress_get_cancellable (data->progress))
    {
      data->cancellable = g_object_ref (cancellable);
      data->cancelled_id = g_cancellable_connect (cancellable,
                                                  G_CALLBACK (cancel_progress),
                                                  g_object_ref (data->progress),
                                                  g_object_unref);
    }

  /* Created here, not on the worker, so libpeas is only used from the
   * threads that call into the engine. */
  data->importers = sps_plugin_engine_create_importers (engine);
  data->analyses = sps_plugin_engine_create_extensions (engine, SPS_TYPE_ANALYSIS);

  task = g_task_new (NULL,
                     cancellable != NULL ? cancellable : sps_progress_get_cancellable (data->progress),
                     callback, user_data);
  g_task_set_source_tag (task, sps_trace_load_async);
  g_task_set_name (task, "[sps-trace-load]");
  g_task_set_task_data (task, g_steal_pointer (&data), load_data_free);
  g_task_run_in_thread (task, sps_trace_load_worker);
}

/**
 * sps_trace_load_finish:
 * @result: the result given to the callback of sps_trace_load_async()
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the trace, or %NULL with @error set
 *   (%SPS_IMPORT_ERROR_UNKNOWN_FORMAT when no importer recognises the
 *   file, %G_IO_ERROR_CANCELLED when cancelled, an I/O error or the
 *   importer's error otherwise)
 */
SpsTrace *
sps_trace_load_finish (GAsyncResult  *result,
                       GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == sps_trace_load_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
sps_trace_load_sync_cb (GObject      *object,
                        GAsyncResult *result,
                        gpointer      user_data)
{
  GAsyncResult **out = user_data;

  g_assert (G_IS_TASK (result));
  g_assert (out != NULL && *out == NULL);

  *out = g_object_ref (result);
}

/**
 * sps_trace_load:
 * @file: the trace file
 * @engine: (nullable): where the importers come from, or %NULL for
 *   sps_plugin_engine_get_default()
 * @options: (nullable): an a{sv} dictionary of importer options, or %NULL
 * @flags: #SpsLoadFlags
 * @progress: (nullable): where to report progress, or %NULL
 * @cancellable: (nullable): a #GCancellable, or %NULL
 * @error: return location for a #GError
 *
 * Like sps_trace_load_async(), but blocks until the trace is loaded. The
 * work still happens on a worker thread while this thread iterates a
 * private main context, so it may be called from any thread and does not
 * dispatch the caller's other sources.
 *
 * Returns: (transfer full): the trace, or %NULL with @error set
 */
SpsTrace *
sps_trace_load (GFile            *file,
                SpsPluginEngine  *engine,
                GVariant         *options,
                SpsLoadFlags      flags,
                SpsProgress      *progress,
                GCancellable     *cancellable,
                GError          **error)
{
  g_autoptr(GMainContext) context = NULL;
  g_autoptr(GAsyncResult) result = NULL;

  g_return_val_if_fail (G_IS_FILE (file), NULL);
  g_return_val_if_fail (engine == NULL || SPS_IS_PLUGIN_ENGINE (engine), NULL);
  g_return_val_if_fail (progress == NULL || SPS_IS_PROGRESS (progress), NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  context = g_main_context_new ();
  g_main_context_push_thread_default (context);

  sps_trace_load_async (file, engine, options, flags, progress, cancellable,
                        sps_trace_load_sync_cb, &result);

  while (result == NULL)
    g_main_context_iteration (context, TRUE);

  g_main_context_pop_thread_default (context);

  return sps_trace_load_finish (result, error);
}
