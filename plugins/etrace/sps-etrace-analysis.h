/* sps-etrace-analysis.h: decoded events → spans, analysis, trace model
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

#include "sps-etrace-decoder.h"
#include "sps-etrace-pairing.h"

G_BEGIN_DECLS

gboolean sps_etrace_build (SpsEtraceDecoder *decoder,
                           SpsTraceBuilder  *builder,
                           SpsProgress      *progress,
                           GError          **error);
gboolean sps_etrace_build_paired (SpsEtraceDecoder *decoder,
                                  SpsEtracePairing *pairing,
                                  SpsTraceBuilder  *builder,
                                  SpsProgress      *progress,
                                  GError          **error);
gboolean sps_etrace_build_part   (SpsEtraceDecoder *decoder,
                                  SpsEtracePairing *pairing,
                                  guint32           kept_spans,
                                  guint             kept_markers,
                                  SpsTraceBuilder  *builder,
                                  SpsProgress      *progress,
                                  GError          **error);
void     sps_etrace_end_stream   (SpsEtraceDecoder *decoder,
                                  SpsTraceBuilder  *builder);
gboolean sps_etrace_build_stream (SpsEtraceDecoder *decoder,
                                  SpsTraceBuilder  *builder,
                                  SpsProgress      *progress,
                                  GError          **error);

G_END_DECLS
