/* sps-analysis.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_CORE_INSIDE) && !defined (SPANSCOPE_CORE_COMPILATION)
# error "Only <spanscope-core.h> can be included directly."
#endif

#include <gio/gio.h>

#include "sps-progress.h"
#include "sps-trace.h"
#include "sps-trace-builder.h"

G_BEGIN_DECLS

#define SPS_ANALYSIS_ERROR (sps_analysis_error_quark ())

/**
 * SpsAnalysisError:
 * @SPS_ANALYSIS_ERROR_INVALID_OPTION: an option has the wrong type or an
 *   unusable value (e.g. an empty pattern)
 *
 * Errors of analyses.
 */
typedef enum
{
  SPS_ANALYSIS_ERROR_INVALID_OPTION,
} SpsAnalysisError;

SPS_AVAILABLE_IN_ALL
GQuark sps_analysis_error_quark (void);

#define SPS_TYPE_ANALYSIS (sps_analysis_get_type ())

SPS_AVAILABLE_IN_ALL
G_DECLARE_INTERFACE (SpsAnalysis, sps_analysis, SPS, ANALYSIS, GObject)

/**
 * SpsAnalysisInterface:
 * @get_name: a short, stable name such as "stack-repair"
 * @run: computes derived rows from what @builder holds once the importer
 *   has read the whole input and before sps_trace_builder_finish(): it
 *   may add rows (tracks, samples, raw samples, metadata) and rewrite
 *   samples. Runs on the import's worker thread. @options is an `a{sv}`
 *   dictionary or %NULL. Importers call it for the analyses their format
 *   needs (sps_analysis_run()).
 * @analyze: what an analysis plugin implements: the load pipeline calls it
 *   after the importer's trace is finished (and on a reopened profile), on
 *   the load's worker thread, before any window shows the trace. It reads
 *   @trace (immutable; see sps_trace_get_n_slices() and its siblings) and
 *   adds what it finds to @results, a builder that shares @trace's strings
 *   and holds its processes and threads at the same indices: slices,
 *   async slices, instants, counters, warnings, metadata and info sections.
 *   Those rows are added to the trace; anything else (samples, flows,
 *   allocations…) fails the analysis.
 */
struct _SpsAnalysisInterface
{
  GTypeInterface parent_iface;

  const char *(*get_name) (SpsAnalysis     *self);
  gboolean    (*run)      (SpsAnalysis     *self,
                           SpsTraceBuilder *builder,
                           GVariant        *options,
                           SpsProgress     *progress,
                           GError         **error);
  gboolean    (*analyze)  (SpsAnalysis     *self,
                           SpsTrace        *trace,
                           SpsTraceBuilder *results,
                           SpsProgress     *progress,
                           GError         **error);
};

SPS_AVAILABLE_IN_ALL
const char *sps_analysis_get_name (SpsAnalysis     *self);
SPS_AVAILABLE_IN_ALL
gboolean    sps_analysis_run      (SpsAnalysis     *self,
                                   SpsTraceBuilder *builder,
                                   GVariant        *options,
                                   SpsProgress     *progress,
                                   GError         **error);
SPS_AVAILABLE_IN_ALL
gboolean    sps_analysis_can_analyze (SpsAnalysis     *self);
SPS_AVAILABLE_IN_ALL
gboolean    sps_analysis_analyze  (SpsAnalysis     *self,
                                   SpsTrace        *trace,
                                   SpsTraceBuilder *results,
                                   SpsProgress     *progress,
                                   GError         **error);

G_END_DECLS
