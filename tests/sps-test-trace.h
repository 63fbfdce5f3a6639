/* sps-test-trace.h: two traces compared table by table, row by row
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

G_BEGIN_DECLS

void sps_test_assert_same_trace      (SpsTrace *a,
                                      SpsTrace *b);
void sps_test_assert_same_trace_args (SpsTrace *a,
                                      SpsTrace *b,
                                      gboolean  same_arena);

G_END_DECLS
