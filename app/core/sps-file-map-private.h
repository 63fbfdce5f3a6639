/* sps-file-map-private.h: a trace file mapped under a read lease
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <sys/stat.h>

#include <glib.h>

#include "sps-version-macros.h"

G_BEGIN_DECLS

GBytes *_sps_file_map                    (int                fd,
                                          const struct stat *st);
/* For the tests */
_SPS_EXTERN
guint   _sps_file_map_get_snapshot_count (void);
_SPS_EXTERN
guint   _sps_file_map_get_fault_count    (void);
_SPS_EXTERN
void    _sps_file_map_set_min_size       (gsize              size);
_SPS_EXTERN
void    _sps_file_map_set_copy_on_change (gboolean           copy);

G_END_DECLS
