/* sps-memory-item.c: one row of the Memory panel's lists
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-memory-item"

#include "config.h"

#include "sps-memory-item.h"

/* A row names an index into the panel's current model (a function of
 * the outstanding tree, or a node of a function's paths); path nodes
 * carry their children for the tree list model. */
struct _SpsMemoryItem
{
  GObject     parent_instance;

  guint       index;
  GListStore *children;
};

G_DEFINE_FINAL_TYPE (SpsMemoryItem, sps_memory_item, G_TYPE_OBJECT)

static void
sps_memory_item_dispose (GObject *object)
{
  SpsMemoryItem *self = SPS_MEMORY_ITEM (object);

  g_clear_object (&self->children);

  G_OBJECT_CLASS (sps_memory_item_parent_class)->dispose (object);
}

static void
sps_memory_item_class_init (SpsMemoryItemClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = sps_memory_item_dispose;
}

static void
sps_memory_item_init (SpsMemoryItem *self)
{
}

SpsMemoryItem *
sps_memory_item_new (guint index)
{
  SpsMemoryItem *self = g_object_new (SPS_TYPE_MEMORY_ITEM, NULL);

  self->index = index;

  return self;
}

guint
sps_memory_item_get_index (SpsMemoryItem *self)
{
  g_return_val_if_fail (SPS_IS_MEMORY_ITEM (self), 0);

  return self->index;
}

/* The store of child rows, created on first use */
GListStore *
sps_memory_item_get_children (SpsMemoryItem *self)
{
  g_return_val_if_fail (SPS_IS_MEMORY_ITEM (self), NULL);

  if (self->children == NULL)
    self->children = g_list_store_new (SPS_TYPE_MEMORY_ITEM);

  return self->children;
}
