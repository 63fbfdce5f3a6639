/* sps-trace-append-private.h: adding an analysis' rows to a finished trace
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "sps-trace-private.h"

G_BEGIN_DECLS

SpsTraceBuilder *_sps_trace_builder_new_for_trace (SpsTrace  *trace);
gboolean         _sps_trace_append_results        (SpsTrace  *trace,
                                                   SpsTrace  *results,
                                                   GError   **error);
void             _sps_trace_derive                (SpsTrace  *trace);

G_END_DECLS
