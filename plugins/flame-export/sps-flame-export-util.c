/* sps-flame-export-util.c: what the folded and speedscope exporters share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-flame-export"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "sps-flame-export-util.h"

/* Reads "tree" (s) and "thread" (x). Without "tree", the trace's
 * default kind (sps_flame_tree_get_default_kind()). */
gboolean
sps_flame_export_parse_options (SpsTrace             *trace,
                                GVariant             *options,
                                SpsFlameExportScope  *scope,
                                GError              **error)
{
  g_autoptr(GVariant) tree = NULL;
  g_autoptr(GVariant) thread = NULL;

  g_assert (SPS_IS_TRACE (trace));
  g_assert (options != NULL);
  g_assert (scope != NULL);

  scope->trace = trace;
  scope->kind = sps_flame_tree_get_default_kind (trace);
  scope->has_tid = FALSE;
  scope->tid = 0;

  if (!g_variant_is_of_type (options, G_VARIANT_TYPE_VARDICT))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   /* Translators: a GVariant type string follows */
                   _("The export options must be a dictionary a{sv}, not %s"),
                   g_variant_get_type_string (options));
      return FALSE;
    }

  tree = g_variant_lookup_value (options, "tree", NULL);
  if (tree != NULL)
    {
      if (!g_variant_is_of_type (tree, G_VARIANT_TYPE_STRING))
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                               /* Translators: keep “tree” and the three names untranslated */
                               _("The “tree” option must be a string: measured, samples or sampled"));
          return FALSE;
        }
      if (!sps_flame_tree_kind_from_string (g_variant_get_string (tree, NULL), &scope->kind))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       /* Translators: keep the three names untranslated */
                       _("Unknown flame tree “%s” (use measured, samples or sampled)"),
                       g_variant_get_string (tree, NULL));
          return FALSE;
        }
    }

  thread = g_variant_lookup_value (options, "thread", NULL);
  if (thread != NULL)
    {
      const SpsThreadTable *threads = sps_trace_get_threads (trace);
      gboolean found = FALSE;

      if (!g_variant_is_of_type (thread, G_VARIANT_TYPE_INT64))
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                               /* Translators: keep “thread” untranslated */
                               _("The “thread” option must be a thread id (int64)"));
          return FALSE;
        }
      scope->has_tid = TRUE;
      scope->tid = g_variant_get_int64 (thread);

      for (guint i = 0; i < threads->n_rows && !found; i++)
        found = threads->tid[i] == scope->tid;
      if (!found)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                       _("The trace has no thread with id %" PRId64),
                       scope->tid);
          return FALSE;
        }
    }

  return TRUE;
}

/* Every thread with the chosen tid takes part (processes may reuse one). */
gboolean
sps_flame_export_thread_in_scope (const SpsFlameExportScope *scope,
                                  guint32                    thread)
{
  const SpsThreadTable *threads;

  g_assert (scope != NULL);

  if (!scope->has_tid)
    return TRUE;
  threads = sps_trace_get_threads (scope->trace);

  return thread < threads->n_rows && threads->tid[thread] == scope->tid;
}

gboolean
sps_flame_export_slice_in_scope (SpsTrace *trace,
                                 guint     slice,
                                 gpointer  user_data)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);

  g_assert (SPS_IS_TRACE (trace));

  return sps_flame_export_thread_in_scope (user_data, tracks->thread[slices->track[slice]]);
}

gboolean
sps_flame_export_sample_in_scope (SpsTrace *trace,
                                  guint     sample,
                                  gpointer  user_data)
{
  g_assert (SPS_IS_TRACE (trace));

  return sps_flame_export_thread_in_scope (user_data, sps_trace_get_samples (trace)->thread[sample]);
}

/* Writes @buf out when it is past the chunk size (or always with @force)
 * and empties it. */
gboolean
sps_flame_export_flush (GOutputStream  *stream,
                        GString        *buf,
                        gboolean        force,
                        SpsProgress    *progress,
                        GError        **error)
{
  GCancellable *cancellable = progress != NULL ? sps_progress_get_cancellable (progress) : NULL;

  g_assert (G_IS_OUTPUT_STREAM (stream));
  g_assert (buf != NULL);

  if (!force && buf->len < SPS_FLAME_EXPORT_CHUNK)
    return TRUE;

  if (buf->len > 0 &&
      !g_output_stream_write_all (stream, buf->str, buf->len, NULL, cancellable, error))
    return FALSE;
  g_string_truncate (buf, 0);

  return TRUE;
}

