/* sps-live-capture.h: the bytes of a running capture, kept and snapshotted
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

G_BEGIN_DECLS

#define SPS_TYPE_LIVE_CAPTURE (sps_live_capture_get_type ())

G_DECLARE_FINAL_TYPE (SpsLiveCapture, sps_live_capture, SPS, LIVE_CAPTURE, GObject)

SpsLiveCapture *sps_live_capture_new              (SpsLiveSource   *source);
SpsLiveSource  *sps_live_capture_get_source       (SpsLiveCapture  *self);
gboolean        sps_live_capture_start            (SpsLiveCapture  *self,
                                                   GError         **error);
void            sps_live_capture_stop             (SpsLiveCapture  *self);
gboolean        sps_live_capture_get_running      (SpsLiveCapture  *self);
gboolean        sps_live_capture_get_stopped      (SpsLiveCapture  *self);
guint64         sps_live_capture_get_n_bytes      (SpsLiveCapture  *self);
GFile          *sps_live_capture_get_file         (SpsLiveCapture  *self);
GBytes         *sps_live_capture_read_head        (SpsLiveCapture  *self);
const GError   *sps_live_capture_get_error        (SpsLiveCapture  *self);
gboolean        sps_live_capture_save             (SpsLiveCapture  *self,
                                                   GFile           *file,
                                                   GError         **error);
void            sps_live_capture_save_async       (SpsLiveCapture      *self,
                                                   GFile               *file,
                                                   GCancellable        *cancellable,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
gboolean        sps_live_capture_save_finish      (SpsLiveCapture  *self,
                                                   GAsyncResult    *result,
                                                   GError         **error);

G_END_DECLS
