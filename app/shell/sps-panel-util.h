/* sps-panel-util.h: helpers shared by the search, filter and instance panels
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-gtk.h>

G_BEGIN_DECLS

char *_sps_panel_thread_label  (SpsTrace   *trace,
                                guint32     thread);
char *_sps_panel_process_label (SpsTrace   *trace,
                                guint32     process);
char *_sps_panel_track_label   (SpsTrace   *trace,
                                guint32     track);
void  _sps_panel_show_slice    (SpsSession *session,
                                guint       slice);
double _sps_panel_ms           (SpsTime     ns);
char *_sps_panel_capitalized   (const char *text);

G_END_DECLS
