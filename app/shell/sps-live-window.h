/* sps-live-window.h: a trace that grows while a device sends it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-gtk.h>

#include "sps-live-capture.h"

G_BEGIN_DECLS

#define SPS_TYPE_LIVE_WINDOW (sps_live_window_get_type ())

G_DECLARE_FINAL_TYPE (SpsLiveWindow, sps_live_window, SPS, LIVE_WINDOW, GtkApplicationWindow)

SpsLiveWindow  *sps_live_window_new            (GtkApplication *application,
                                                SpsLiveCapture *capture);
SpsLiveCapture *sps_live_window_get_capture    (SpsLiveWindow  *self);
SpsSession     *sps_live_window_get_session    (SpsLiveWindow  *self);
guint           sps_live_window_get_generation (SpsLiveWindow  *self);
gboolean        sps_live_window_get_follow     (SpsLiveWindow  *self);
void            sps_live_window_set_follow     (SpsLiveWindow  *self,
                                                gboolean        follow);

G_END_DECLS
