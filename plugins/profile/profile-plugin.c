/* profile-plugin.c: registers the saved profile importer and exporter
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-profile-plugin"

#include "config.h"

#include <libpeas/peas.h>
#include <spanscope-core.h>

#include "sps-profile-exporter.h"
#include "sps-profile-importer.h"

G_MODULE_EXPORT void peas_register_types (PeasObjectModule *module);

G_MODULE_EXPORT void
peas_register_types (PeasObjectModule *module)
{
  g_return_if_fail (PEAS_IS_OBJECT_MODULE (module));

  peas_object_module_register_extension_type (module,
                                              SPS_TYPE_IMPORTER,
                                              SPS_TYPE_PROFILE_IMPORTER);
  peas_object_module_register_extension_type (module,
                                              SPS_TYPE_EXPORTER,
                                              SPS_TYPE_PROFILE_EXPORTER);
}
