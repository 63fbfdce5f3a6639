/* sps-plugin-engine-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "sps-plugin-engine.h"

G_BEGIN_DECLS

gboolean _sps_plugin_engine_check_result (gpointer      extension,
                                          const char   *method,
                                          gboolean      ret,
                                          GError      **local_error,
                                          GError      **error,
                                          const char   *silent_message);
gboolean _sps_plugin_engine_is_blamed    (gpointer      extension);

G_END_DECLS
