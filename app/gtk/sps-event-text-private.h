/* sps-event-text-private.h: instants and decoded events as text for tooltips
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

G_BEGIN_DECLS

G_GNUC_INTERNAL
guint    _sps_find_nearest_point         (const SpsTime *ts,
                                          guint          first,
                                          guint          n,
                                          SpsTime        t,
                                          SpsTime        tolerance);
G_GNUC_INTERNAL
guint    _sps_event_text_find_instant    (SpsTrace      *trace,
                                          guint32        track,
                                          SpsTime        t,
                                          SpsTime        tolerance);
G_GNUC_INTERNAL
char    *_sps_event_text_instant_markup  (SpsTrace      *trace,
                                          guint          instant);

G_END_DECLS
