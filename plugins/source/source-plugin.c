/* source-plugin.c: registers the source view
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-source"

#include "config.h"

#include <libpeas/peas.h>
#include <spanscope-gtk.h>

#include "sps-source-view.h"

G_MODULE_EXPORT void peas_register_types (PeasObjectModule *module);

G_MODULE_EXPORT void
peas_register_types (PeasObjectModule *module)
{
  g_return_if_fail (PEAS_IS_OBJECT_MODULE (module));

  peas_object_module_register_extension_type (module, SPS_TYPE_VIEW, SPS_TYPE_SOURCE_VIEW);
}
