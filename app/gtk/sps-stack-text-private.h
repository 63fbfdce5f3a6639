/* sps-stack-text-private.h: call stacks and samples as text for tooltips
 * and the detail panel
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

G_BEGIN_DECLS

G_GNUC_INTERNAL
void     _sps_stack_text_append_markup (GString  *out,
                                        SpsTrace *trace,
                                        guint32   callsite,
                                        guint     max_frames);
G_GNUC_INTERNAL
char    *_sps_stack_text_dup           (SpsTrace *trace,
                                        guint32   callsite);
G_GNUC_INTERNAL
guint    _sps_stack_text_find_sample   (SpsTrace *trace,
                                        guint32   track,
                                        SpsTime   t,
                                        SpsTime   tolerance);
G_GNUC_INTERNAL
char    *_sps_stack_text_sample_markup (SpsTrace *trace,
                                        guint     sample);

G_END_DECLS
