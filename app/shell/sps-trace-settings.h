/* sps-trace-settings.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gio/gio.h>

#include <spanscope-gtk.h>

G_BEGIN_DECLS

char     *sps_trace_settings_path   (GFile       *trace_file);
char     *sps_trace_settings_to_json (SpsSession *session,
                                      GFile      *trace_file);
gboolean  sps_trace_settings_apply  (SpsSession  *session,
                                     const char  *json,
                                     GError     **error);
void      sps_trace_settings_attach (SpsSession  *session,
                                     GFile       *trace_file);

G_END_DECLS
