/* sps-session-selection-private.h: the selection part of SpsSession, for
 * the files SpsSession is split over
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "sps-session.h"

G_BEGIN_DECLS

/* Installs "selection-changed" (called from class_init) */
G_GNUC_INTERNAL
void  _sps_session_selection_class_init  (GObjectClass *klass);
/* Re-finds a selected stack-chart box in the sample table the raw/repaired
 * switch now shows (called when the switch changed) */
G_GNUC_INTERNAL
void  _sps_session_selection_follow_stacks (SpsSession  *self);

G_END_DECLS
