/* sps-sql-engine-cache.h: one SQL engine per session, created on first use
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-gtk.h>

G_BEGIN_DECLS

SpsSqlEngine *sps_sql_engine_cache_get       (SpsSession *session,
                                              GError    **error);
void          sps_sql_select_slice           (SpsSession *session,
                                              guint       slice);
guint         sps_sql_find_slice             (SpsTrace   *trace,
                                              guint       track,
                                              SpsTime     ts);

G_END_DECLS
