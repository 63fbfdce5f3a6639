/* sps-trace-grow-private.h: a live trace grown by an update's rows
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "sps-trace-private.h"

G_BEGIN_DECLS

/* Exported for the tests and the benchmark (the live decoders of the
 * plugins reach them through sps-live-decoder.h's growth) */
_SPS_EXTERN
SpsTraceBuilder *_sps_trace_builder_new_for_growth (SpsTrace    *base);
_SPS_EXTERN
SpsTrace        *_sps_trace_grow                   (SpsTrace    *base,
                                                    SpsTrace    *part,
                                                    const char **refused);

G_END_DECLS
