/* sps-filter-item.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-gtk.h>

G_BEGIN_DECLS

typedef enum
{
  SPS_FILTER_ITEM_PROCESS,
  SPS_FILTER_ITEM_THREAD,
  SPS_FILTER_ITEM_CATEGORY,
} SpsFilterItemKind;

#define SPS_TYPE_FILTER_ITEM (sps_filter_item_get_type ())

G_DECLARE_FINAL_TYPE (SpsFilterItem, sps_filter_item, SPS, FILTER_ITEM, GObject)

SpsFilterItem     *sps_filter_item_new          (SpsFilterItemKind  kind,
                                                 guint32            index,
                                                 const char        *label);
SpsFilterItemKind  sps_filter_item_get_kind     (SpsFilterItem     *self);
guint32            sps_filter_item_get_index    (SpsFilterItem     *self);
const char        *sps_filter_item_get_label    (SpsFilterItem     *self);
GListStore        *sps_filter_item_get_children (SpsFilterItem     *self);
gboolean           sps_filter_item_get_shown    (SpsFilterItem     *self);
void               sps_filter_item_set_shown    (SpsFilterItem     *self,
                                                 gboolean           shown);
gboolean           sps_filter_item_get_enabled  (SpsFilterItem     *self);
void               sps_filter_item_set_enabled  (SpsFilterItem     *self,
                                                 gboolean           enabled);

G_END_DECLS
