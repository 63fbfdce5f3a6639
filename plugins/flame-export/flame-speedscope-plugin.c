/* flame-speedscope-plugin.c: registers the speedscope exporter
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * libpeas makes one extension of an interface per plugin, so each of the
 * folder's two exporters is a plugin module of its own.
 */

#define G_LOG_DOMAIN "sps-flame-export"

#include "config.h"

#include <libpeas/peas.h>
#include <spanscope-core.h>

#include "sps-speedscope-exporter.h"

G_MODULE_EXPORT void peas_register_types (PeasObjectModule *module);

G_MODULE_EXPORT void
peas_register_types (PeasObjectModule *module)
{
  g_return_if_fail (PEAS_IS_OBJECT_MODULE (module));

  peas_object_module_register_extension_type (module,
                                              SPS_TYPE_EXPORTER,
                                              SPS_TYPE_SPEEDSCOPE_EXPORTER);
}
