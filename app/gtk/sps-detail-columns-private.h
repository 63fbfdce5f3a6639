/* sps-detail-columns-private.h: the columns of the detail panel's lists
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* What a column shows of its rows */
typedef enum
{
  SPS_DETAIL_COLUMN_WALL,
  SPS_DETAIL_COLUMN_SELF,
  SPS_DETAIL_COLUMN_CHILD,
  SPS_DETAIL_COLUMN_COUNT,
  SPS_DETAIL_COLUMN_AVERAGE,
  SPS_DETAIL_COLUMN_MIN,
  SPS_DETAIL_COLUMN_MAX,
  SPS_DETAIL_COLUMN_TREE_NAME,
  SPS_DETAIL_COLUMN_NAME,
  SPS_DETAIL_COLUMN_VALUE,
  SPS_DETAIL_COLUMN_TOTAL,
} SpsDetailColumn;

GtkColumnView *_sps_detail_column_view_new      (const char      *name);
void           _sps_detail_column_view_append   (GtkColumnView   *view,
                                                 SpsDetailColumn  kind,
                                                 const char      *title,
                                                 gboolean         expand,
                                                 int              fixed_width);
GtkWidget     *_sps_detail_scrolled             (GtkWidget       *child);
GtkWidget     *_sps_detail_placeholder_label_new (const char     *text);
GtkLabel      *_sps_detail_field_new            (GtkGrid         *grid,
                                                 int              row,
                                                 const char      *key,
                                                 const char      *name,
                                                 GtkWidget      **key_out);

G_END_DECLS
