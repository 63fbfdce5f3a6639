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
 * rows of a trace (stack repair, statistics…), in one of two places.
 *
 * `run` works on the #SpsTraceBuilder after an importer has read
 * everything and before the trace is finished, so it may rewrite rows.
 * Importers run the analyses their format needs (the nettrace importer
 * runs #SpsStackRepair), driven by their load options.
 *
 * `analyze` is what analysis plugins implement: the load pipeline runs it
 * on every finished trace, on the load's worker thread, and adds the rows
 * it makes (tracks, slices, instants, counters, warnings, metadata) to the
 * trace before anything shows it. The rows land in the same columnar
 * tables that SQL and the views read, without a copy of the trace. Either
 * way, every program that loads the file (the CLI and the application)
 * gets the same result.
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

/* The interface's contract for @method's result (see
 * _sps_plugin_engine_check_result()) */
static gboolean
check_result (SpsAnalysis  *self,
              const char   *method,
              gboolean      ret,
              GError      **local_error,
              GError      **error)
{
  /* Translators: %s is the name of an analysis, e.g. stack-repair */
  g_autofree char *silent = g_strdup_printf (_("The %s analysis failed without giving a reason"),
                                             sps_analysis_get_name (self));

  return _sps_plugin_engine_check_result (self, method, ret, local_error, error, silent);
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

  return check_result (self, "SpsAnalysis.run", ret, &local_error, error);
}

/**
 * sps_analysis_can_analyze:
 * @self: a #SpsAnalysis
 *
 * Whether @self implements `analyze`, which the load pipeline runs on
 * every finished trace. An analysis that only implements `run` is one
 * that importers call on their builder.
 *
 * Returns: %TRUE if sps_analysis_analyze() does something
 */
gboolean
sps_analysis_can_analyze (SpsAnalysis *self)
{
  g_return_val_if_fail (SPS_IS_ANALYSIS (self), FALSE);

  return SPS_ANALYSIS_GET_IFACE (self)->analyze != NULL;
}

/**
 * sps_analysis_analyze:
 * @self: a #SpsAnalysis
 * @trace: a finished trace
 * @results: where the analysis adds what it finds: a builder made for
 *   @trace (its strings, processes and threads), not finished yet
 * @progress: (nullable): where to report progress and check for
 *   cancellation
 * @error: return location for a #GError
 *
 * Runs the analysis on a finished trace. The load pipeline calls this for
 * every analysis plugin and adds what @results holds to the trace; see
 * #SpsAnalysisInterface for what an analysis may add.
 *
 * Returns: %TRUE on success; %FALSE with @error set otherwise (an
 *   analysis that fails without a reason, or sets an error and returns
 *   %TRUE, has its plugin blamed)
 */
gboolean
sps_analysis_analyze (SpsAnalysis      *self,
                      SpsTrace         *trace,
                      SpsTraceBuilder  *results,
                      SpsProgress      *progress,
                      GError          **error)
{
  g_autoptr(GError) local_error = NULL;
  SpsAnalysisInterface *iface;
  gboolean ret;

  g_return_val_if_fail (SPS_IS_ANALYSIS (self), FALSE);
  g_return_val_if_fail (SPS_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (results), FALSE);
  g_return_val_if_fail (progress == NULL || SPS_IS_PROGRESS (progress), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  iface = SPS_ANALYSIS_GET_IFACE (self);
  g_return_val_if_fail (iface->analyze != NULL, FALSE);

  ret = iface->analyze (self, trace, results, progress, &local_error);

  return check_result (self, "SpsAnalysis.analyze", ret, &local_error, error);
}
