/* sps-gtk-version-macros.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_GTK_INSIDE) && !defined (SPANSCOPE_GTK_COMPILATION)
# error "Only <spanscope-gtk.h> can be included directly."
#endif

#include <glib.h>

#if defined (_WIN32)
# define _SPS_GTK_EXTERN __declspec(dllexport) extern
#else
# define _SPS_GTK_EXTERN __attribute__((visibility ("default"))) extern
#endif

#define SPS_GTK_AVAILABLE_IN_ALL _SPS_GTK_EXTERN
