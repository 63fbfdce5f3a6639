/* sps-file-read-private.h: a FIFO read whole before its trace is loaded
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <sys/types.h>

#include <gio/gio.h>

#include "sps-progress.h"

G_BEGIN_DECLS

/* Counted when a FIFO sent more than the limit of a stream */
#define SPS_STREAM_SIZE_LIMIT_WARNING "stream_size_limit"

gboolean  _sps_file_is_fifo     (GFile        *file);
gboolean  _sps_file_spool       (GFile        *file,
                                 SpsProgress  *progress,
                                 GError      **error);
GBytes   *_sps_file_get_spooled (GFile        *file);
void      _sps_file_unspool     (GFile        *file);

const char *_sps_file_describe_type (mode_t mode);

G_END_DECLS
