/* sps-allocator.h: how a process using Spanscope's tables allocates
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_CORE_INSIDE) && !defined (SPANSCOPE_CORE_COMPILATION)
# error "Only <spanscope-core.h> can be included directly."
#endif

#include <glib.h>

#include "sps-version-macros.h"

G_BEGIN_DECLS

SPS_AVAILABLE_IN_ALL
void sps_setup_allocator (void);

G_END_DECLS
