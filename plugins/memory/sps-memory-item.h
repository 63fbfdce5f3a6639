/* sps-memory-item.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define SPS_TYPE_MEMORY_ITEM (sps_memory_item_get_type ())

G_DECLARE_FINAL_TYPE (SpsMemoryItem, sps_memory_item, SPS, MEMORY_ITEM, GObject)

SpsMemoryItem *sps_memory_item_new          (guint          index);
guint          sps_memory_item_get_index    (SpsMemoryItem *self);
GListStore    *sps_memory_item_get_children (SpsMemoryItem *self);

G_END_DECLS
