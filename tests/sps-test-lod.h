/* sps-test-lod.h: comparisons of two timeline summaries, for the tests
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "sps-timeline-lod-private.h"

G_BEGIN_DECLS

void sps_test_lod_assert_same_buckets (SpsTimelineLod *a,
                                       SpsTimelineLod *b,
                                       guint           track,
                                       guint           level,
                                       SpsTime         start,
                                       SpsTime         end);
void sps_test_lod_assert_same_points  (SpsTimelineLod *a,
                                       SpsTimelineLod *b,
                                       guint           track,
                                       guint           level,
                                       SpsTime         start,
                                       SpsTime         end);

G_END_DECLS
