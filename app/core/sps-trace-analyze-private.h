/* sps-trace-analyze-private.h: the load pipeline's analysis step
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "sps-progress.h"
#include "sps-trace.h"

G_BEGIN_DECLS

gboolean _sps_trace_run_analyses (SpsTrace     *trace,
                                  GPtrArray    *analyses,
                                  SpsProgress  *progress,
                                  GError      **error);

G_END_DECLS
