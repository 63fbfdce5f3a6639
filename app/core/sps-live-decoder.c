/* sps-live-decoder.c: a stream decoded as it arrives, shown as it grows
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A live capture used to load its whole file again for every update:
 * reading, decoding and building everything received, each time. A live
 * decoder keeps the format decoder's state between updates instead, so
 * that the bytes of each update are decoded once, as they arrive; an
 * update then builds a trace from a copy of that state on a worker
 * thread, the same way a load of the same bytes does (builder, the
 * importer's build, finish, the analysis plugins), so the two give the
 * same trace (tests/test-etrace-live.c checks it row for row).
 */

#define G_LOG_DOMAIN "sps-live-decoder"

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n-lib.h>

#include "sps-analysis.h"
#include "sps-live-decoder.h"
#include "sps-plugin-engine.h"
#include "sps-trace-analyze-private.h"
#include "sps-trace-grow-private.h"
#include "sps-trace-private.h"

G_DEFINE_INTERFACE (SpsLiveDecoder, sps_live_decoder, G_TYPE_OBJECT)

static void
sps_live_decoder_default_init (SpsLiveDecoderInterface *iface)
{
}

/**
 * sps_live_decoder_feed:
 * @self: a #SpsLiveDecoder
 * @data: (array length=len): the next bytes of the stream
 * @len: their length
 *
 * Decodes the bytes that arrived since the last call.
 */
void
sps_live_decoder_feed (SpsLiveDecoder *self,
                       const guint8   *data,
                       gsize           len)
{
  g_return_if_fail (SPS_IS_LIVE_DECODER (self));
  g_return_if_fail (data != NULL || len == 0);

  SPS_LIVE_DECODER_GET_IFACE (self)->feed (self, data, len);
}

/**
 * sps_live_decoder_copy:
 * @self: a #SpsLiveDecoder
 *
 * Returns: (transfer full): an independent decoder in the same state
 */
SpsLiveDecoder *
sps_live_decoder_copy (SpsLiveDecoder *self)
{
  g_return_val_if_fail (SPS_IS_LIVE_DECODER (self), NULL);

  return SPS_LIVE_DECODER_GET_IFACE (self)->copy (self);
}

/**
 * sps_live_decoder_build:
 * @self: a #SpsLiveDecoder, not built before
 * @builder: where the trace goes
 * @progress: (nullable): progress and cancellation
 * @error: return location for a #GError
 *
 * Ends the stream as if it stopped here and writes everything decoded
 * into @builder. @self can not be fed afterwards.
 *
 * Returns: %TRUE, or %FALSE with @error set (cancelled)
 */
gboolean
sps_live_decoder_build (SpsLiveDecoder   *self,
                        SpsTraceBuilder  *builder,
                        SpsProgress      *progress,
                        GError          **error)
{
  g_return_val_if_fail (SPS_IS_LIVE_DECODER (self), FALSE);
  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (builder), FALSE);
  g_return_val_if_fail (progress == NULL || SPS_IS_PROGRESS (progress), FALSE);

  return SPS_LIVE_DECODER_GET_IFACE (self)->build (self, builder, progress, error);
}

/* Bytes read from the capture file and fed at a time */
#define FEED_CHUNK (1024 * 1024)

typedef struct
{
  SpsLiveDecoder *decoder;
  GFile          *file;
  guint64         offset;
  guint64         end;
  GPtrArray      *analyses;
  SpsLiveDecoderAddFunc add_func;
  gpointer        add_data;
  GDestroyNotify  add_destroy;
} LoadData;

static void
load_data_free (gpointer user_data)
{
  LoadData *data = user_data;

  g_clear_object (&data->decoder);
  g_clear_object (&data->file);
  g_clear_pointer (&data->analyses, g_ptr_array_unref);
  if (data->add_destroy != NULL)
    data->add_destroy (data->add_data);
  g_free (data);
}

static LoadData *
load_data_new (SpsLiveDecoder  *self,
               SpsPluginEngine *engine,
               GFile           *file)
{
  LoadData *data = g_new0 (LoadData, 1);

  data->decoder = g_object_ref (self);
  data->file = file != NULL ? g_object_ref (file) : NULL;
  /* Created on the calling thread: libpeas is only used from the
   * threads that call into the engine */
  data->analyses = sps_plugin_engine_create_extensions (engine != NULL ? engine : sps_plugin_engine_get_default (),
                                                        SPS_TYPE_ANALYSIS);

  return data;
}

/* What sps_trace_load() does after the importer's load, so that both
 * give the same trace for the same bytes. Builds @decoder. */
static SpsTrace *
build_trace (SpsLiveDecoder  *decoder,
             LoadData        *data,
             SpsProgress     *progress,
             GError         **error)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  SpsTrace *trace;

  if (!sps_live_decoder_build (decoder, builder, progress, error))
    return NULL;
  if (data->add_func != NULL)
    data->add_func (builder, data->add_data);
  if (!(trace = sps_trace_builder_finish (builder, progress, error)))
    return NULL;
  if (data->file != NULL)
    _sps_trace_set_file (trace, data->file);
  if (!_sps_trace_run_analyses (trace, data->analyses, progress, error))
    {
      g_object_unref (trace);
      return NULL;
    }

  return trace;
}

/* Whether an analysis plugin added rows to @trace: growing would keep
 * them and the analysis add them again */
static gboolean
was_analysed (SpsTrace *trace)
{
  for (guint i = 0; i < sps_trace_get_n_metadata (trace); i++)
    if (g_str_has_prefix (sps_trace_get_metadata (trace, i, NULL), "analysis:"))
      return TRUE;
  return FALSE;
}

/* The trace of a copy of @original grown from @base: the copy writes only
 * what @base lacks (build_part), _sps_trace_grow() adds it to what @base
 * keeps. NULL without an error when it cannot be grown: the caller
 * builds another copy whole (the same trace, at the cost of the whole
 * capture). */
static SpsTrace *
grow_trace (SpsLiveDecoder  *original,
            SpsTrace        *base,
            LoadData        *data,
            SpsProgress     *progress,
            GError         **error)
{
  SpsLiveDecoderInterface *iface = SPS_LIVE_DECODER_GET_IFACE (original);
  g_autoptr(SpsLiveDecoder) copy = NULL;
  g_autoptr(SpsTraceBuilder) builder = NULL;
  g_autoptr(SpsTrace) part = NULL;
  g_autoptr(SpsTrace) grown = NULL;
  g_autoptr(GError) local_error = NULL;
  const char *refused = NULL;

  if (base == NULL || iface->build_part == NULL || was_analysed (base))
    return NULL;

  copy = sps_live_decoder_copy (original);
  builder = _sps_trace_builder_new_for_growth (base);
  if (!iface->build_part (copy, base, builder, progress, &local_error))
    {
      if (local_error != NULL)
        g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  if (data->add_func != NULL)
    data->add_func (builder, data->add_data);
  if (!(part = sps_trace_builder_finish (builder, progress, error)))
    return NULL;
  if (!(grown = _sps_trace_grow (base, part, &refused)))
    {
      g_debug ("Live update built whole: %s", refused);
      return NULL;
    }
  if (data->file != NULL)
    _sps_trace_set_file (grown, data->file);
  if (!_sps_trace_run_analyses (grown, data->analyses, progress, error))
    return NULL;

  return g_steal_pointer (&grown);
}

/* Feeds bytes offset…end of the file. Not cancellable: the decoder must
 * have seen every byte up to @end whatever happens to this update. */
static gboolean
feed_file (LoadData  *data,
           GError   **error)
{
  g_autoptr(GFileInputStream) in = NULL;
  g_autofree guint8 *buffer = NULL;
  guint64 pos = data->offset;

  if (pos >= data->end)
    return TRUE;

  if (!(in = g_file_read (data->file, NULL, error)) ||
      !g_seekable_seek (G_SEEKABLE (in), (goffset) pos, G_SEEK_SET, NULL, error))
    return FALSE;

  buffer = g_malloc (FEED_CHUNK);
  while (pos < data->end)
    {
      gsize want = (gsize) MIN ((guint64) FEED_CHUNK, data->end - pos);
      gsize got = 0;

      if (!g_input_stream_read_all (G_INPUT_STREAM (in), buffer, want, &got, NULL, error))
        return FALSE;
      sps_live_decoder_feed (data->decoder, buffer, got);
      pos += got;
      if (got < want)
        {
          g_autofree char *name = g_file_get_parse_name (data->file);

          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                       /* Translators: %s is a file name, %lu a byte offset */
                       _("%s: the capture ends at byte %" PRIu64 ", before the bytes received"),
                       name, pos);
          return FALSE;
        }
    }

  return TRUE;
}

static void
update_worker (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  LoadData *data = task_data;
  g_autoptr(SpsProgress) progress = sps_progress_new (cancellable);
  g_autoptr(SpsLiveDecoder) copy = NULL;
  g_autoptr(GError) error = NULL;
  SpsTrace *trace = NULL;

  /* Built whole from the kept pairing, not grown (sps_live_decoder_grow()):
   * growing copies every kept row once, which measured no cheaper than
   * finishing them again (docs/architecture.md, "Live updates") */
  if (feed_file (data, &error))
    {
      copy = sps_live_decoder_copy (data->decoder);
      trace = build_trace (copy, data, progress, &error);
    }

  if (trace != NULL)
    g_task_return_pointer (task, trace, g_object_unref);
  else
    g_task_return_error (task, g_steal_pointer (&error));
}

/**
 * sps_live_decoder_update_async:
 * @self: a #SpsLiveDecoder that was fed the first @offset bytes of @file
 * @engine: (nullable): where the analysis plugins come from, or %NULL
 *   for sps_plugin_engine_get_default()
 * @file: the file the capture is kept in
 * @offset: where the bytes @self has not seen begin
 * @end: how many bytes of @file to show
 * @add_func: (nullable) (scope notified) (closure add_data) (destroy add_destroy):
 *   adds rows of the viewer's own to the trace, or %NULL
 * @add_data: (nullable): data for @add_func
 * @add_destroy: (nullable): frees @add_data
 * @cancellable: (nullable): a #GCancellable
 * @callback: called on the thread-default main context when done
 * @user_data: data for @callback
 *
 * On a worker thread: feeds bytes @offset to @end of @file to @self
 * (whatever else happens, so the next update starts at @end), then
 * builds the trace of a copy of @self, which is the trace
 * sps_trace_load() gives for the first @end bytes (with @add_func's rows,
 * when given). @self must not be used
 * until @callback runs; the cost of decoding is that of the new bytes.
 */
void
sps_live_decoder_update_async (SpsLiveDecoder      *self,
                               SpsPluginEngine     *engine,
                               GFile               *file,
                               guint64              offset,
                               guint64              end,
                               SpsLiveDecoderAddFunc add_func,
                               gpointer             add_data,
                               GDestroyNotify       add_destroy,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  LoadData *data;

  g_return_if_fail (SPS_IS_LIVE_DECODER (self));
  g_return_if_fail (engine == NULL || SPS_IS_PLUGIN_ENGINE (engine));
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (offset <= end);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  data = load_data_new (self, engine, file);
  data->offset = offset;
  data->end = end;
  data->add_func = add_func;
  data->add_data = add_data;
  data->add_destroy = add_destroy;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, sps_live_decoder_update_async);
  g_task_set_name (task, "[sps-live-decoder-update]");
  /* Not dropped on cancellation: the feed must run to keep @self whole */
  g_task_set_check_cancellable (task, FALSE);
  g_task_set_task_data (task, data, load_data_free);
  g_task_run_in_thread (task, update_worker);
}

/**
 * sps_live_decoder_update_finish:
 * @result: the result given to the callback of sps_live_decoder_update_async()
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the trace, or %NULL with @error set
 */
SpsTrace *
sps_live_decoder_update_finish (GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (G_IS_TASK (result), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == sps_live_decoder_update_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * sps_live_decoder_load:
 * @self: a #SpsLiveDecoder, built here (pass a copy to go on decoding)
 * @engine: (nullable): where the analysis plugins come from, or %NULL
 * @file: (nullable): the file the stream is kept in, which the trace
 *   names as its file
 * @error: return location for a #GError
 *
 * Builds the trace of what @self decoded, on the calling thread: the same
 * trace sps_trace_load() gives for the same bytes.
 *
 * Returns: (transfer full): the trace, or %NULL with @error set
 */
SpsTrace *
sps_live_decoder_load (SpsLiveDecoder   *self,
                       SpsPluginEngine  *engine,
                       GFile            *file,
                       GError          **error)
{
  g_autoptr(SpsProgress) progress = sps_progress_new (NULL);
  LoadData *data;
  SpsTrace *trace;

  g_return_val_if_fail (SPS_IS_LIVE_DECODER (self), NULL);
  g_return_val_if_fail (engine == NULL || SPS_IS_PLUGIN_ENGINE (engine), NULL);
  g_return_val_if_fail (file == NULL || G_IS_FILE (file), NULL);

  data = load_data_new (self, engine, file);
  trace = build_trace (self, data, progress, error);
  load_data_free (data);

  return trace;
}

/**
 * sps_live_decoder_grow:
 * @self: a #SpsLiveDecoder that goes on decoding (copies of it are built)
 * @engine: (nullable): where the analysis plugins come from, or %NULL
 * @file: (nullable): the file the stream is kept in
 * @base: (nullable): the trace of an earlier build of @self's copies
 * @grown: (out) (optional): whether @base was grown
 * @error: return location for a #GError
 *
 * The trace sps_live_decoder_load() gives for a copy of @self, on the
 * calling thread. When @self's format can (#SpsLiveDecoderInterface's
 * build_part) the trace is @base grown by the rows @base lacks: the new
 * spans and markers are written and finished, and the columns of @base
 * copied once, instead of writing, sorting, pairing and indexing every
 * row of the capture again (sps_live_decoder_update_async() builds whole: see
 * docs/architecture.md, "Live updates", for why).
 *
 * Returns: (transfer full): the trace, or %NULL with @error set
 */
SpsTrace *
sps_live_decoder_grow (SpsLiveDecoder   *self,
                       SpsPluginEngine  *engine,
                       GFile            *file,
                       SpsTrace         *base,
                       gboolean         *grown,
                       GError          **error)
{
  g_autoptr(SpsProgress) progress = sps_progress_new (NULL);
  g_autoptr(GError) local_error = NULL;
  LoadData *data;
  SpsTrace *trace;

  g_return_val_if_fail (SPS_IS_LIVE_DECODER (self), NULL);
  g_return_val_if_fail (engine == NULL || SPS_IS_PLUGIN_ENGINE (engine), NULL);
  g_return_val_if_fail (file == NULL || G_IS_FILE (file), NULL);
  g_return_val_if_fail (base == NULL || SPS_IS_TRACE (base), NULL);

  data = load_data_new (self, engine, file);
  trace = grow_trace (self, base, data, progress, &local_error);
  if (grown != NULL)
    *grown = trace != NULL;
  if (trace == NULL && local_error == NULL)
    {
      g_autoptr(SpsLiveDecoder) copy = sps_live_decoder_copy (self);

      trace = build_trace (copy, data, progress, &local_error);
    }
  load_data_free (data);
  if (local_error != NULL)
    g_propagate_error (error, g_steal_pointer (&local_error));

  return trace;
}
