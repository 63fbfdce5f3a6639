/* sps-stack-repair.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_CORE_INSIDE) && !defined (SPANSCOPE_CORE_COMPILATION)
# error "Only <spanscope-core.h> can be included directly."
#endif

#include <gio/gio.h>

#include "sps-analysis.h"
#include "sps-trace.h"

G_BEGIN_DECLS

/**
 * SPS_STACK_REPAIR_METADATA_KEY:
 *
 * The trace metadata key under which #SpsStackRepair records what it did,
 * as a JSON object: `depth_cap`, `samples` (before), `repaired`,
 * `unrecoverable`, `kept_unrecoverable` (boolean), `filtered_out`
 * (samples dropped by the span filters) and `threads`, an array of
 * `{"tid", "count", "ranges": [[first_ns, last_ns], …]}` for the threads
 * that had unrecoverable samples, in ascending tid.
 */
#define SPS_STACK_REPAIR_METADATA_KEY "stack-repair"

#define SPS_TYPE_STACK_REPAIR (sps_stack_repair_get_type ())

SPS_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (SpsStackRepair, sps_stack_repair, SPS, STACK_REPAIR, GObject)

SPS_AVAILABLE_IN_ALL
SpsStackRepair *sps_stack_repair_new            (void);
SPS_AVAILABLE_IN_ALL
void            sps_stack_repair_set_deferred_stacks (SpsStackRepair *self,
                                                      guint           n_rows,
                                                      const guint32  *row_stack,
                                                      guint           n_stacks,
                                                      const guint32  *stack_start,
                                                      const guint32  *stack_len,
                                                      const guint32  *frames);
SPS_AVAILABLE_IN_ALL
gboolean        sps_stack_repair_match_pattern  (const char  *pattern,
                                                 const char  *frame_name);
SPS_AVAILABLE_IN_ALL
gboolean        sps_stack_repair_get_summary    (SpsTrace    *trace,
                                                 guint64     *n_samples,
                                                 guint64     *n_repaired,
                                                 guint64     *n_unrecoverable,
                                                 gboolean    *kept);
SPS_AVAILABLE_IN_ALL
char           *sps_stack_repair_format_report  (SpsTrace    *trace);

G_END_DECLS
