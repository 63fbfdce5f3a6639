/* sps-plugin-files-private.h: helpers of SpsPluginEngine
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  GPtrArray      *messages;
  guint           handler_id;
  guint           default_handler_id;
  GLogLevelFlags  old_always_fatal;
} SpsPluginLogCapture;

void       _sps_plugin_log_capture_begin    (SpsPluginLogCapture  *capture);
GPtrArray *_sps_plugin_log_capture_end      (SpsPluginLogCapture  *capture);
char      *_sps_plugin_file_check           (const char           *path,
                                             char                **name_out,
                                             guint                *kinds_out,
                                             GStrv                *formats_out,
                                             char                **reason);
guint      _sps_plugin_kind_from_id         (const char           *id);
GPtrArray *_sps_plugin_list_dir_sorted      (const char           *dir,
                                             GError              **error);
gboolean   _sps_plugin_message_mentions_any (const char           *message,
                                             GPtrArray            *paths);

G_END_DECLS
