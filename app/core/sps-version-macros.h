/* sps-version-macros.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_CORE_INSIDE) && !defined (SPANSCOPE_CORE_COMPILATION)
# error "Only <spanscope-core.h> can be included directly."
#endif

#include <glib.h>

/* Public symbols are exported explicitly; everything else is hidden by
 * gnu_symbol_visibility: 'hidden' in meson.build. */
#if defined (_WIN32)
# define _SPS_EXTERN __declspec(dllexport) extern
#else
# define _SPS_EXTERN __attribute__((visibility ("default"))) extern
#endif

#define SPS_AVAILABLE_IN_ALL _SPS_EXTERN
