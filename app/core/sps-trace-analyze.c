/* sps-trace-analyze.c: the load pipeline's analysis step
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-trace-load"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-analysis.h"
#include "sps-plugin-engine.h"
#include "sps-plugin-engine-private.h"
#include "sps-trace-analyze-private.h"
#include "sps-trace-append-private.h"
#include "sps-self-trace.h"

/* The metadata key under which a trace remembers that an analysis ran:
 * a saved profile keeps its metadata with the analysis' rows, so
 * reopening it must not add them twice. */
#define ANALYSIS_KEY_PREFIX "analysis:"

static gboolean
already_analyzed (SpsTrace   *trace,
                  const char *key)
{
  for (guint i = 0; i < sps_trace_get_n_metadata (trace); i++)
    if (g_strcmp0 (sps_trace_get_metadata (trace, i, NULL), key) == 0)
      return TRUE;
  return FALSE;
}

/* Runs one analysis and adds its rows; FALSE with @error when it failed
 * (and nothing was added). */
static gboolean
analyze_one (SpsTrace     *trace,
             SpsAnalysis  *analysis,
             const char   *key,
             SpsProgress  *progress,
             GError      **error)
{
  g_autoptr(SpsTraceBuilder) results = _sps_trace_builder_new_for_trace (trace);
  g_autoptr(SpsTrace) rows = NULL;
  g_autofree char *value = NULL;

  if (!sps_analysis_analyze (analysis, trace, results, progress, error))
    return FALSE;

  value = g_strdup_printf ("\"%s\"", G_OBJECT_TYPE_NAME (analysis));
  sps_trace_builder_add_metadata (results, key, sps_trace_builder_add_args_text (results, value, -1));

  if (!(rows = sps_trace_builder_finish (results, NULL, error)))
    return FALSE;

  return _sps_trace_append_results (trace, rows, error);
}

/**
 * _sps_trace_run_analyses:
 * @trace: a trace just finished by the load, that no one else reads yet
 * @analyses: (element-type SpsAnalysis): the analyses to run, in order
 * @progress: where the load reports progress
 * @error: return location for a #GError
 *
 * Runs each analysis that implements `analyze` on @trace and adds what it
 * found, so that each sees the rows of the ones before it. An analysis
 * that fails is skipped and its plugin blamed (reported like a plugin that
 * failed to load); one that already ran on @trace (a reopened profile) is
 * skipped.
 *
 * Returns: %FALSE with %G_IO_ERROR_CANCELLED when @progress was cancelled
 */
gboolean
_sps_trace_run_analyses (SpsTrace     *trace,
                         GPtrArray    *analyses,
                         SpsProgress  *progress,
                         GError      **error)
{
  SPS_SELF_TRACE_SCOPE ("analyses");

  g_assert (SPS_IS_TRACE (trace));
  g_assert (analyses != NULL);
  g_assert (SPS_IS_PROGRESS (progress));

  for (guint i = 0; i < analyses->len; i++)
    {
      SpsAnalysis *analysis = g_ptr_array_index (analyses, i);
      const char *name = sps_analysis_get_name (analysis);
      g_autofree char *key = g_strconcat (ANALYSIS_KEY_PREFIX, name, NULL);
      g_autofree char *message = NULL;
      g_autoptr(GError) local_error = NULL;

      if (!sps_analysis_can_analyze (analysis) || already_analyzed (trace, key))
        continue;

      if (sps_progress_is_cancelled (progress))
        break;

      /* Translators: %s is the name of an analysis, e.g. category-counts */
      message = g_strdup_printf (_("Running the analysis “%s”"), name);
      sps_progress_set_phase (progress, SPS_PROGRESS_PHASE_INDEXING, message);
      sps_progress_set_fraction (progress, 0.0);

      if (analyze_one (trace, analysis, key, progress, &local_error))
        continue;

      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
          sps_progress_is_cancelled (progress))
        break;

      /* The trace is a valid input: whatever went wrong is the plugin's
       * fault, unlike an importer's error about its file. */
      if (!_sps_plugin_engine_is_blamed (analysis))
        sps_plugin_engine_report_failure (analysis, "SpsAnalysis.analyze", local_error);
      g_debug ("The analysis %s failed and is skipped: %s", name, local_error->message);
    }

  if (sps_progress_is_cancelled (progress))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Loading was cancelled"));
      return FALSE;
    }

  return TRUE;
}
