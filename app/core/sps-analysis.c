/* sps-analysis.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-analysis"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-analysis.h"
#include "sps-plugin-engine-private.h"

/**
 * SpsAnalysis:
 *
 * The interface of analyses: computations that derive tables or rewrite
 * rows of a trace (stack repair, statistics…). An analysis runs on the
 * #SpsTraceBuilder after an importer has read everything and before the
 * trace is finished, so what it adds lands in the same columnar tables
 * that SQL and the views read, without a copy of the trace. Importers run
 * the analyses their format needs (the nettrace importer runs
 * #SpsStackRepair), driven by their load options, so that every program
 * that loads the file — the CLI and the application — gets the same
 * result.
 */

G_DEFINE_INTERFACE (SpsAnalysis, sps_analysis, G_TYPE_OBJECT)

/**
 * sps_analysis_error_quark:
 *
 * Returns: the error domain of analyses, %SPS_ANALYSIS_ERROR
 */
G_DEFINE_QUARK (sps-analysis-error-quark, sps_analysis_error)

static void
sps_analysis_default_init (SpsAnalysisInterface *iface)
{
}

/**
 * sps_analysis_get_name:
 * @self: a #SpsAnalysis
 *
 * Returns: (transfer none): the analysis' name; the type name when the
 *   analysis does not give one
 */
const char *
sps_analysis_get_name (SpsAnalysis *self)
{
  SpsAnalysisInterface *iface;

  g_return_val_if_fail (SPS_IS_ANALYSIS (self), NULL);

  iface = SPS_ANALYSIS_GET_IFACE (self);
  if (iface->get_name != NULL && iface->get_name (self) != NULL)
    return iface->get_name (self);

  return G_OBJECT_TYPE_NAME (self);
}

/**
 * sps_analysis_run:
 * @self: a #SpsAnalysis
 * @builder: a builder that holds a whole input, not finished yet
 * @options: (nullable): an `a{sv}` dictionary of options
 * @progress: (nullable): where to report progress and check for
 *   cancellation
 * @error: return location for a #GError
 *
 * Runs the analysis on what @builder holds.
 *
 * Returns: %TRUE on success; on error @builder is left as it was or with
 *   complete, consistent changes
 */
gboolean
sps_analysis_run (SpsAnalysis      *self,
                  SpsTraceBuilder  *builder,
                  GVariant         *options,
                  SpsProgress      *progress,
                  GError          **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *silent = NULL;
  SpsAnalysisInterface *iface;
  gboolean ret;

  g_return_val_if_fail (SPS_IS_ANALYSIS (self), FALSE);
  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (builder), FALSE);
  g_return_val_if_fail (options == NULL || g_variant_is_of_type (options, G_VARIANT_TYPE_VARDICT), FALSE);
  g_return_val_if_fail (progress == NULL || SPS_IS_PROGRESS (progress), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  iface = SPS_ANALYSIS_GET_IFACE (self);
  g_return_val_if_fail (iface->run != NULL, FALSE);

  ret = iface->run (self, builder, options, progress, &local_error);

  /* Translators: %s is the name of an analysis, e.g. stack-repair */
  silent = g_strdup_printf (_("The %s analysis failed without giving a reason"),
                            sps_analysis_get_name (self));

  return _sps_plugin_engine_check_result (self, "SpsAnalysis.run", ret,
                                          &local_error, error, silent);
}
