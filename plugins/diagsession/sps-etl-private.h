/* sps-etl-private.h: what the ETL reading files share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <string.h>

#include <glib.h>

#include "sps-mstrace-bytes.h"

G_BEGIN_DECLS

char *sps_etl_utf16_string (const guint8 *p,
                            gsize         len);

G_END_DECLS
