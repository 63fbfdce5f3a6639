/* sps-plugin-status-private.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "sps-plugin-status.h"

G_BEGIN_DECLS

SpsPluginStatus *_sps_plugin_status_new (const char         *module_name,
                                         const char         *name,
                                         const char         *plugin_file,
                                         const char * const *kinds,
                                         SpsPluginState      state,
                                         const char         *error);

G_END_DECLS
