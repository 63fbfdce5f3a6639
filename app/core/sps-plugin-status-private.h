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
void             _sps_plugin_status_set_about (SpsPluginStatus    *self,
                                               const char         *description,
                                               const char * const *authors,
                                               const char         *version,
                                               const char         *website);

G_END_DECLS
