/* sps-importer.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-importer"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-importer.h"
#include "sps-plugin-engine-private.h"
#include "sps-self-trace.h"

/**
 * SpsImporter:
 *
 * The interface of trace importers. A plugin provides an importer for one
 * file format: [method@Importer.probe] says from the first bytes of a file
 * how sure it is that the file is in its format, and [method@Importer.load]
 * reads the whole file into a #SpsTraceBuilder on a worker thread.
 *
 * The plugin engine creates a new importer object for every load, so an
 * importer may keep per-load state in its instance.
 */

G_DEFINE_INTERFACE (SpsImporter, sps_importer, G_TYPE_OBJECT)

/**
 * sps_import_error_quark:
 *
 * Returns: the error domain of importers, %SPS_IMPORT_ERROR
 */
G_DEFINE_QUARK (sps-import-error-quark, sps_import_error)

static void
sps_importer_default_init (SpsImporterInterface *iface)
{
}

/**
 * sps_importer_get_name:
 * @self: a #SpsImporter
 *
 * Returns: (transfer none): the importer's format name, such as
 *   "chrome-json"; the type name when the importer does not give one
 */
const char *
sps_importer_get_name (SpsImporter *self)
{
  SpsImporterInterface *iface;

  g_return_val_if_fail (SPS_IS_IMPORTER (self), NULL);

  iface = SPS_IMPORTER_GET_IFACE (self);
  if (iface->get_name != NULL)
    {
      const char *name = iface->get_name (self);

      if (name != NULL)
        return name;
    }

  return G_OBJECT_TYPE_NAME (self);
}

/**
 * sps_importer_probe:
 * @self: a #SpsImporter
 * @file: the file
 * @head: the first bytes of @file (at most 4096, raw)
 *
 * Asks how well the importer recognises @file. Cheap and non-blocking.
 *
 * An answer above 100 breaks the contract (an importer that lost track
 * of its score, or a binding's error value such as -1 as an unsigned
 * number): it counts as 0, and the importer's plugin is reported as
 * failed and skipped from then on, like a failure of
 * [method@Importer.load].
 *
 * Returns: a score from 0 (not this format) to 100 (certainly this
 *   format)
 */
guint
sps_importer_probe (SpsImporter *self,
                    GFile       *file,
                    GBytes      *head)
{
  SpsImporterInterface *iface;
  g_autoptr(GError) error = NULL;
  guint score;

  g_return_val_if_fail (SPS_IS_IMPORTER (self), 0);
  g_return_val_if_fail (G_IS_FILE (file), 0);
  g_return_val_if_fail (head != NULL, 0);

  iface = SPS_IMPORTER_GET_IFACE (self);
  if (iface->probe == NULL)
    return 0;

  score = iface->probe (self, file, head);
  if (score <= 100)
    return score;

  error = g_error_new (G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       /* Translators: %s is the name of a trace format, e.g. chrome-json;
                        * %u a number */
                       _("The %s importer answered %u, not a score from 0 to 100"),
                       sps_importer_get_name (self), score);
  sps_plugin_engine_report_failure (self, "SpsImporter.probe", error);

  return 0;
}

/**
 * sps_importer_load:
 * @self: a #SpsImporter
 * @file: the file to read
 * @options: (nullable): an a{sv} dictionary of options, or %NULL
 * @builder: the builder that receives the trace
 * @progress: (nullable): where to report progress and find cancellation;
 *   a private one is used when %NULL, so implementations always get one
 * @error: return location for a #GError
 *
 * Reads @file into @builder. Blocks: call it on a worker thread. When the
 * progress is already cancelled the importer is not called at all.
 *
 * Returns: %TRUE on success; on failure what was added to @builder before
 *   the error stays valid
 */
gboolean
sps_importer_load (SpsImporter      *self,
                   GFile            *file,
                   GVariant         *options,
                   SpsTraceBuilder  *builder,
                   SpsProgress      *progress,
                   GError          **error)
{
  SpsImporterInterface *iface;
  g_autoptr(SpsProgress) own_progress = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *silent = NULL;
  gboolean ret;
  SPS_SELF_TRACE_SCOPE ("import");

  g_return_val_if_fail (SPS_IS_IMPORTER (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (options == NULL ||
                        g_variant_is_of_type (options, G_VARIANT_TYPE_VARDICT), FALSE);
  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (builder), FALSE);
  g_return_val_if_fail (progress == NULL || SPS_IS_PROGRESS (progress), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (progress == NULL)
    progress = own_progress = sps_progress_new (NULL);

  if (g_cancellable_set_error_if_cancelled (sps_progress_get_cancellable (progress), error))
    return FALSE;

  iface = SPS_IMPORTER_GET_IFACE (self);
  if (iface->load == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   /* Translators: %s is the name of a trace format, e.g. chrome-json */
                   _("The %s importer cannot load files"),
                   sps_importer_get_name (self));
      return FALSE;
    }

  ret = iface->load (self, file, options, builder, progress, &local_error);

  /* Importers written in other languages may fail without saying why, or
   * report an error with a success value; keep the contract either way,
   * and blame the plugin. */
  /* Translators: %s is the name of a trace format, e.g. chrome-json */
  silent = g_strdup_printf (_("The %s importer failed without giving a reason"),
                            sps_importer_get_name (self));

  return _sps_plugin_engine_check_result (self, "SpsImporter.load", ret,
                                          &local_error, error, silent);
}

/**
 * sps_importer_new_live_decoder:
 * @self: a #SpsImporter
 * @source: (nullable): names the stream in messages (a load names the
 *   file; a live capture passes its file's name, so both say the same)
 *
 * Returns: (transfer full) (nullable): a decoder that decodes a live
 *   stream in this format as it arrives, or %NULL when the importer can
 *   only load whole files
 */
SpsLiveDecoder *
sps_importer_new_live_decoder (SpsImporter *self,
                               const char  *source)
{
  SpsImporterInterface *iface;

  g_return_val_if_fail (SPS_IS_IMPORTER (self), NULL);

  iface = SPS_IMPORTER_GET_IFACE (self);
  return iface->new_live_decoder != NULL ? iface->new_live_decoder (self, source) : NULL;
}
