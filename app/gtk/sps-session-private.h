/* sps-session-private.h: slice tree navigation shared inside the library
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "sps-session.h"

G_BEGIN_DECLS

/* Relatives of a slice in the slice tree of @trace, or SPS_NO_INDEX.
 * Cost: O(log n) plus the depth of the tree on thread tracks; on async
 * lanes (where siblings may overlap in time) at most the slice's tree. */
G_GNUC_INTERNAL
guint _sps_slice_first_child   (SpsTrace *trace,
                                guint     slice);
G_GNUC_INTERNAL
guint _sps_slice_next_sibling  (SpsTrace *trace,
                                guint     slice);
G_GNUC_INTERNAL
guint _sps_slice_prev_sibling  (SpsTrace *trace,
                                guint     slice);

G_END_DECLS
