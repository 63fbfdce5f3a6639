/* sps-frame-glob-private.h: the --first-span / --span-filter patterns
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

G_GNUC_INTERNAL
GPatternSpec *_sps_frame_glob_new   (const char    *pattern,
                                     const char    *option,
                                     GError       **error);
G_GNUC_INTERNAL
gboolean      _sps_frame_glob_match (GPatternSpec  *glob,
                                     const char    *name,
                                     const char    *module);

G_END_DECLS
