/* sps-filter-item.c: one row of the filter panel
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-filter-item"

#include "config.h"

#include "sps-filter-item.h"

/**
 * SpsFilterItem:
 *
 * A process, thread or category token of the filter panel. "shown"
 * mirrors the session's flag (the check box binds to it); "enabled" is
 * FALSE for the threads of a hidden process, which stay checked but
 * cannot show anything. A process holds its threads as children.
 */
struct _SpsFilterItem
{
  GObject            parent_instance;

  SpsFilterItemKind  kind;
  guint32            index;
  char              *label;
  GListStore        *children;
  gboolean           shown;
  gboolean           enabled;
};

enum {
  PROP_0,
  PROP_LABEL,
  PROP_SHOWN,
  PROP_ENABLED,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (SpsFilterItem, sps_filter_item, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static void
sps_filter_item_finalize (GObject *object)
{
  SpsFilterItem *self = (SpsFilterItem *)object;

  g_clear_pointer (&self->label, g_free);
  g_clear_object (&self->children);

  G_OBJECT_CLASS (sps_filter_item_parent_class)->finalize (object);
}

static void
sps_filter_item_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  SpsFilterItem *self = SPS_FILTER_ITEM (object);

  switch (prop_id)
    {
    case PROP_LABEL:
      g_value_set_string (value, self->label);
      break;

    case PROP_SHOWN:
      g_value_set_boolean (value, self->shown);
      break;

    case PROP_ENABLED:
      g_value_set_boolean (value, self->enabled);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sps_filter_item_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  SpsFilterItem *self = SPS_FILTER_ITEM (object);

  switch (prop_id)
    {
    case PROP_SHOWN:
      sps_filter_item_set_shown (self, g_value_get_boolean (value));
      break;

    case PROP_ENABLED:
      sps_filter_item_set_enabled (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sps_filter_item_class_init (SpsFilterItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sps_filter_item_finalize;
  object_class->get_property = sps_filter_item_get_property;
  object_class->set_property = sps_filter_item_set_property;

  properties[PROP_LABEL] =
    g_param_spec_string ("label", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  properties[PROP_SHOWN] =
    g_param_spec_boolean ("shown", NULL, NULL,
                          TRUE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_ENABLED] =
    g_param_spec_boolean ("enabled", NULL, NULL,
                          TRUE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sps_filter_item_init (SpsFilterItem *self)
{
  self->shown = TRUE;
  self->enabled = TRUE;
}

SpsFilterItem *
sps_filter_item_new (SpsFilterItemKind  kind,
                     guint32            index,
                     const char        *label)
{
  SpsFilterItem *self;

  g_return_val_if_fail (label != NULL, NULL);

  self = g_object_new (SPS_TYPE_FILTER_ITEM, NULL);
  self->kind = kind;
  self->index = index;
  self->label = g_strdup (label);
  if (kind == SPS_FILTER_ITEM_PROCESS)
    self->children = g_list_store_new (SPS_TYPE_FILTER_ITEM);

  return self;
}

SpsFilterItemKind
sps_filter_item_get_kind (SpsFilterItem *self)
{
  g_return_val_if_fail (SPS_IS_FILTER_ITEM (self), 0);

  return self->kind;
}

guint32
sps_filter_item_get_index (SpsFilterItem *self)
{
  g_return_val_if_fail (SPS_IS_FILTER_ITEM (self), SPS_NO_INDEX);

  return self->index;
}

const char *
sps_filter_item_get_label (SpsFilterItem *self)
{
  g_return_val_if_fail (SPS_IS_FILTER_ITEM (self), NULL);

  return self->label;
}

/* Returns: (transfer none) (nullable): the threads of a process */
GListStore *
sps_filter_item_get_children (SpsFilterItem *self)
{
  g_return_val_if_fail (SPS_IS_FILTER_ITEM (self), NULL);

  return self->children;
}

gboolean
sps_filter_item_get_shown (SpsFilterItem *self)
{
  g_return_val_if_fail (SPS_IS_FILTER_ITEM (self), FALSE);

  return self->shown;
}

void
sps_filter_item_set_shown (SpsFilterItem *self,
                           gboolean       shown)
{
  g_return_if_fail (SPS_IS_FILTER_ITEM (self));

  shown = !!shown;
  if (self->shown == shown)
    return;

  self->shown = shown;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOWN]);
}

gboolean
sps_filter_item_get_enabled (SpsFilterItem *self)
{
  g_return_val_if_fail (SPS_IS_FILTER_ITEM (self), FALSE);

  return self->enabled;
}

void
sps_filter_item_set_enabled (SpsFilterItem *self,
                             gboolean       enabled)
{
  g_return_if_fail (SPS_IS_FILTER_ITEM (self));

  enabled = !!enabled;
  if (self->enabled == enabled)
    return;

  self->enabled = enabled;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ENABLED]);
}
