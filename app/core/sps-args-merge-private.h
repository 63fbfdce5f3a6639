/* sps-args-merge-private.h: reading raw args text inside the core
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "sps-trace-private.h"

G_BEGIN_DECLS

gsize      _sps_json_value_length          (const char      *text,
                                            gsize            size);
const char *_sps_args_ref_text            (const char      *data,
                                            gsize            size,
                                            SpsArgsRef       ref,
                                            gsize           *len);
SpsArgsRef _sps_trace_builder_arena_add    (SpsTraceBuilder *self,
                                            const char      *json,
                                            gsize            len);
gboolean   _sps_args_decode                (GPtrArray       *decoders,
                                            SpsArgsRef       ref,
                                            GString         *out,
                                            GError         **error);
SpsArgsRef _sps_args_merge                 (SpsTraceBuilder *self,
                                            SpsArgsRef       into,
                                            SpsArgsRef       from,
                                            guint           *n_overwritten);

G_END_DECLS
