/* sps-go-to-time.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-gtk.h>

G_BEGIN_DECLS

#define SPS_TYPE_GO_TO_TIME (sps_go_to_time_get_type ())

G_DECLARE_FINAL_TYPE (SpsGoToTime, sps_go_to_time, SPS, GO_TO_TIME, GtkPopover)

GtkWidget  *sps_go_to_time_new         (void);
SpsSession *sps_go_to_time_get_session (SpsGoToTime  *self);
void        sps_go_to_time_set_session (SpsGoToTime  *self,
                                        SpsSession   *session);
gboolean    sps_go_to_time_submit      (SpsGoToTime  *self,
                                        const char   *text,
                                        GError      **error);

G_END_DECLS
