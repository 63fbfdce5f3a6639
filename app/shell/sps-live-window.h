/* sps-live-window.h: a trace that grows while a device sends it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-gtk.h>

#include "sps-live-capture.h"

G_BEGIN_DECLS

/* What the capture is doing, as the bar above the trace says */
typedef enum
{
  SPS_LIVE_STATE_RECEIVING,
  SPS_LIVE_STATE_NO_FRAMES,
  SPS_LIVE_STATE_GARBLED,
  SPS_LIVE_STATE_BEHIND,
  SPS_LIVE_STATE_STOPPED,
  SPS_LIVE_STATE_DISCONNECTED,
  SPS_LIVE_STATE_FAILED,
} SpsLiveState;

#define SPS_TYPE_LIVE_WINDOW (sps_live_window_get_type ())

G_DECLARE_FINAL_TYPE (SpsLiveWindow, sps_live_window, SPS, LIVE_WINDOW, GtkApplicationWindow)

SpsLiveWindow  *sps_live_window_new            (GtkApplication *application,
                                                SpsLiveCapture *capture);
SpsLiveCapture *sps_live_window_get_capture    (SpsLiveWindow  *self);
SpsSession     *sps_live_window_get_session    (SpsLiveWindow  *self);
guint           sps_live_window_get_generation (SpsLiveWindow  *self);
gboolean        sps_live_window_get_follow     (SpsLiveWindow  *self);
SpsLiveState    sps_live_window_get_state      (SpsLiveWindow  *self);
const char     *sps_live_window_get_state_text (SpsLiveWindow  *self);
void            sps_live_window_set_follow     (SpsLiveWindow  *self,
                                                gboolean        follow);
void            sps_live_window_save           (SpsLiveWindow  *self,
                                                GFile          *file);
gboolean        sps_live_window_get_saving     (SpsLiveWindow  *self);

G_END_DECLS
