/* sps-exporter.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-exporter"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-exporter.h"
#include "sps-plugin-engine-private.h"

/**
 * SpsExporter:
 *
 * The interface of trace exporters: writes a finished #SpsTrace to a
 * stream in one file format. `spanscope-cli convert --format NAME` finds
 * the exporter whose [method@Exporter.get_name] is NAME.
 */

G_DEFINE_INTERFACE (SpsExporter, sps_exporter, G_TYPE_OBJECT)

static void
sps_exporter_default_init (SpsExporterInterface *iface)
{
}

/**
 * sps_exporter_get_name:
 * @self: a #SpsExporter
 *
 * Returns: (transfer none): the exporter's format name; the type name
 *   when the exporter does not give one
 */
const char *
sps_exporter_get_name (SpsExporter *self)
{
  SpsExporterInterface *iface;

  g_return_val_if_fail (SPS_IS_EXPORTER (self), NULL);

  iface = SPS_EXPORTER_GET_IFACE (self);
  if (iface->get_name != NULL)
    {
      const char *name = iface->get_name (self);

      if (name != NULL)
        return name;
    }

  return G_OBJECT_TYPE_NAME (self);
}

/**
 * sps_exporter_get_suffix:
 * @self: a #SpsExporter
 *
 * The usual file name suffix of the format, with its leading dot, so that
 * a tool can derive an output name from the input's (`in.nettrace` →
 * `in.speedscope.json`).
 *
 * Returns: (transfer none) (nullable): the suffix, or %NULL when the
 *   format has none
 */
const char *
sps_exporter_get_suffix (SpsExporter *self)
{
  SpsExporterInterface *iface;

  g_return_val_if_fail (SPS_IS_EXPORTER (self), NULL);

  iface = SPS_EXPORTER_GET_IFACE (self);

  return iface->get_suffix != NULL ? iface->get_suffix (self) : NULL;
}

/**
 * sps_exporter_write:
 * @self: a #SpsExporter
 * @trace: a finished trace
 * @options: (nullable): exporter options as an `a{sv}` dictionary (for
 *   example `thread`, `tree`); a floating reference is sunk
 * @stream: where to write
 * @progress: (nullable): where to report progress and find cancellation;
 *   a private one is used when %NULL, so implementations always get one
 * @error: return location for a #GError
 *
 * Writes @trace to @stream. Blocks; may be called from any thread. The
 * stream is not closed.
 *
 * Returns: %TRUE on success
 */
gboolean
sps_exporter_write (SpsExporter    *self,
                    SpsTrace       *trace,
                    GVariant       *options,
                    GOutputStream  *stream,
                    SpsProgress    *progress,
                    GError        **error)
{
  SpsExporterInterface *iface;
  g_autoptr(SpsProgress) own_progress = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GVariant) own_options = NULL;
  g_autofree char *silent = NULL;
  gboolean ret;

  g_return_val_if_fail (SPS_IS_EXPORTER (self), FALSE);
  g_return_val_if_fail (SPS_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (options == NULL || g_variant_is_of_type (options, G_VARIANT_TYPE_VARDICT), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);
  g_return_val_if_fail (progress == NULL || SPS_IS_PROGRESS (progress), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (progress == NULL)
    progress = own_progress = sps_progress_new (NULL);

  if (options == NULL)
    options = g_variant_new ("a{sv}", NULL);
  own_options = g_variant_ref_sink (options);

  if (g_cancellable_set_error_if_cancelled (sps_progress_get_cancellable (progress), error))
    return FALSE;

  iface = SPS_EXPORTER_GET_IFACE (self);
  if (iface->write == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   /* Translators: %s is the name of a trace format, e.g. chrome-json */
                   _("The %s exporter cannot write traces"),
                   sps_exporter_get_name (self));
      return FALSE;
    }

  ret = iface->write (self, trace, own_options, stream, progress, &local_error);

  /* Translators: %s is the name of a trace format, e.g. chrome-json */
  silent = g_strdup_printf (_("The %s exporter failed without giving a reason"),
                            sps_exporter_get_name (self));

  return _sps_plugin_engine_check_result (self, "SpsExporter.write", ret,
                                          &local_error, error, silent);
}
