/* sps-result-row-private.h: one row of an SpsResultTable in its list model
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define SPS_TYPE_RESULT_ROW (sps_result_row_get_type ())

G_GNUC_INTERNAL
G_DECLARE_FINAL_TYPE (SpsResultRow, sps_result_row, SPS, RESULT_ROW, GObject)

/* Rows only carry their index into the table's cell store; two reserved
 * indexes mark the probe rows the table uses to learn the sort order. */
#define SPS_RESULT_ROW_PROBE_LOW  (G_MAXUINT - 1)
#define SPS_RESULT_ROW_PROBE_HIGH (G_MAXUINT)

G_GNUC_INTERNAL
SpsResultRow *sps_result_row_new       (guint         index);
G_GNUC_INTERNAL
guint         sps_result_row_get_index (SpsResultRow *self);

G_END_DECLS
