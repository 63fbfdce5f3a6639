/* sps-sql-view.h: the view that docks the SQL panel: query editor tabs, results, schema and query builder
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-gtk.h>

G_BEGIN_DECLS

#define SPS_TYPE_SQL_VIEW (sps_sql_view_get_type ())

G_DECLARE_FINAL_TYPE (SpsSqlView, sps_sql_view, SPS, SQL_VIEW, GObject)

G_END_DECLS
