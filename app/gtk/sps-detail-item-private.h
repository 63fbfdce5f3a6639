/* sps-detail-item-private.h: the row objects of the detail panel's lists
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "sps-session.h"

G_BEGIN_DECLS

#define SPS_TYPE_DETAIL_ITEM (sps_detail_item_get_type ())

G_GNUC_INTERNAL
G_DECLARE_FINAL_TYPE (SpsDetailItem, sps_detail_item, SPS, DETAIL_ITEM, GObject)

G_GNUC_INTERNAL
SpsDetailItem *_sps_detail_item_new_call      (const char    *name,
                                               guint          slice,
                                               SpsTime        wall,
                                               SpsTime        self_time);
G_GNUC_INTERNAL
SpsDetailItem *_sps_detail_item_new_group     (const char    *name,
                                               guint          count,
                                               SpsTime        total,
                                               SpsTime        min,
                                               SpsTime        max,
                                               double         fraction);
G_GNUC_INTERNAL
SpsDetailItem *_sps_detail_item_new_arg       (const char    *key,
                                               JsonNode      *node);

G_GNUC_INTERNAL
const char    *_sps_detail_item_get_name      (SpsDetailItem *self);
G_GNUC_INTERNAL
const char    *_sps_detail_item_get_value     (SpsDetailItem *self);
G_GNUC_INTERNAL
guint          _sps_detail_item_get_slice     (SpsDetailItem *self);
G_GNUC_INTERNAL
SpsTime        _sps_detail_item_get_wall      (SpsDetailItem *self);
G_GNUC_INTERNAL
SpsTime        _sps_detail_item_get_self      (SpsDetailItem *self);
G_GNUC_INTERNAL
guint          _sps_detail_item_get_count     (SpsDetailItem *self);
G_GNUC_INTERNAL
SpsTime        _sps_detail_item_get_total     (SpsDetailItem *self);
G_GNUC_INTERNAL
SpsTime        _sps_detail_item_get_average   (SpsDetailItem *self);
G_GNUC_INTERNAL
SpsTime        _sps_detail_item_get_min       (SpsDetailItem *self);
G_GNUC_INTERNAL
SpsTime        _sps_detail_item_get_max       (SpsDetailItem *self);
G_GNUC_INTERNAL
double         _sps_detail_item_get_fraction  (SpsDetailItem *self);
G_GNUC_INTERNAL
JsonNode      *_sps_detail_item_get_node      (SpsDetailItem *self);
G_GNUC_INTERNAL
void           _sps_detail_item_set_path_target (SpsDetailItem *self,
                                                 guint          target);
G_GNUC_INTERNAL
guint          _sps_detail_item_get_path_target (SpsDetailItem *self);

G_END_DECLS
