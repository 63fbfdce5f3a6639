/* sps-ms-type-name.h: .NET type names as C# writes them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *sps_ms_type_display_name (const char *name);

G_END_DECLS
