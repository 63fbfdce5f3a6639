/* sps-detail-item.c: the row objects of the detail panel's lists
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-detail-item"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-detail-item-private.h"

/* One row of the detail panel's three lists: a call stack node (a slice
 * with its wall and self time), a group of children with the same name
 * (count, total, average, min, max and the share of the largest total
 * that sizes its bar), or an argument (key, value text and, for objects
 * and arrays, the JSON node its children come from). The values are
 * read-only properties so the cells bind to them and UI tests read them
 * without private symbols. */
struct _SpsDetailItem
{
  GObject   parent_instance;

  char     *name;
  char     *value;
  JsonNode *node;
  guint     slice;
  guint     path_target;
  guint     count;
  SpsTime   wall;
  SpsTime   self_time;
  SpsTime   total;
  SpsTime   min;
  SpsTime   max;
  double    fraction;
};

enum {
  PROP_0,
  PROP_NAME,
  PROP_VALUE,
  PROP_SLICE,
  PROP_WALL,
  PROP_SELF,
  PROP_CHILD,
  PROP_COUNT,
  PROP_TOTAL,
  PROP_AVERAGE,
  PROP_MIN,
  PROP_MAX,
  PROP_FRACTION,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (SpsDetailItem, sps_detail_item, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static SpsTime
average_of (SpsDetailItem *self)
{
  if (self->count == 0)
    return 0;

  /* Rounded to the nearest ns. */
  return (self->total + (SpsTime) self->count / 2) / (SpsTime) self->count;
}

/* The shortest of %.15g and %.17g that reads back as the same double. */
static char *
format_double (double value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_formatd (buf, sizeof buf, "%.15g", value);
  if (g_ascii_strtod (buf, NULL) != value)
    g_ascii_formatd (buf, sizeof buf, "%.17g", value);

  return g_strdup (buf);
}

static char *
describe_node (JsonNode *node)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        guint n = json_object_get_size (json_node_get_object (node));

        return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u key", "%u keys", n), n);
      }

    case JSON_NODE_ARRAY:
      {
        guint n = json_array_get_length (json_node_get_array (node));

        return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u item", "%u items", n), n);
      }

    case JSON_NODE_NULL:
      return g_strdup ("null");

    case JSON_NODE_VALUE:
    default:
      break;
    }

  switch (json_node_get_value_type (node))
    {
    case G_TYPE_STRING:
      return g_strdup (json_node_get_string (node));

    case G_TYPE_BOOLEAN:
      return g_strdup (json_node_get_boolean (node) ? "true" : "false");

    case G_TYPE_DOUBLE:
      return format_double (json_node_get_double (node));

    case G_TYPE_INT64:
      return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));

    default:
      return g_strdup ("");
    }
}

static void
sps_detail_item_finalize (GObject *object)
{
  SpsDetailItem *self = (SpsDetailItem *)object;

  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->value, g_free);
  g_clear_pointer (&self->node, json_node_unref);

  G_OBJECT_CLASS (sps_detail_item_parent_class)->finalize (object);
}

static void
sps_detail_item_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  SpsDetailItem *self = SPS_DETAIL_ITEM (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;

    case PROP_VALUE:
      g_value_set_string (value, self->value);
      break;

    case PROP_SLICE:
      g_value_set_uint (value, self->slice);
      break;

    case PROP_WALL:
      g_value_set_int64 (value, self->wall);
      break;

    case PROP_SELF:
      g_value_set_int64 (value, self->self_time);
      break;

    case PROP_CHILD:
      g_value_set_int64 (value, self->wall - self->self_time);
      break;

    case PROP_COUNT:
      g_value_set_uint (value, self->count);
      break;

    case PROP_TOTAL:
      g_value_set_int64 (value, self->total);
      break;

    case PROP_AVERAGE:
      g_value_set_int64 (value, average_of (self));
      break;

    case PROP_MIN:
      g_value_set_int64 (value, self->min);
      break;

    case PROP_MAX:
      g_value_set_int64 (value, self->max);
      break;

    case PROP_FRACTION:
      g_value_set_double (value, self->fraction);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static GParamSpec *
time_property (const char *name)
{
  return g_param_spec_int64 (name, NULL, NULL,
                             G_MININT64, G_MAXINT64, 0,
                             G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
}

static void
sps_detail_item_class_init (SpsDetailItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sps_detail_item_finalize;
  object_class->get_property = sps_detail_item_get_property;

  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_VALUE] =
    g_param_spec_string ("value", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_SLICE] =
    g_param_spec_uint ("slice", NULL, NULL, 0, G_MAXUINT32, SPS_NO_INDEX,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_WALL] = time_property ("wall");
  properties[PROP_SELF] = time_property ("self");
  properties[PROP_CHILD] = time_property ("child");
  properties[PROP_COUNT] =
    g_param_spec_uint ("count", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_TOTAL] = time_property ("total");
  properties[PROP_AVERAGE] = time_property ("average");
  properties[PROP_MIN] = time_property ("min");
  properties[PROP_MAX] = time_property ("max");
  properties[PROP_FRACTION] =
    g_param_spec_double ("fraction", NULL, NULL, 0.0, 1.0, 0.0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sps_detail_item_init (SpsDetailItem *self)
{
  self->slice = SPS_NO_INDEX;
  self->path_target = SPS_NO_INDEX;
}

SpsDetailItem *
_sps_detail_item_new_call (const char *name,
                           guint       slice,
                           SpsTime     wall,
                           SpsTime     self_time)
{
  SpsDetailItem *self = g_object_new (SPS_TYPE_DETAIL_ITEM, NULL);

  self->name = g_strdup (name);
  self->slice = slice;
  self->wall = wall;
  self->self_time = self_time;

  return self;
}

SpsDetailItem *
_sps_detail_item_new_group (const char *name,
                            guint       count,
                            SpsTime     total,
                            SpsTime     min,
                            SpsTime     max,
                            double      fraction)
{
  SpsDetailItem *self = g_object_new (SPS_TYPE_DETAIL_ITEM, NULL);

  self->name = g_strdup (name);
  self->count = count;
  self->total = total;
  self->min = min;
  self->max = max;
  self->fraction = CLAMP (fraction, 0.0, 1.0);

  return self;
}

SpsDetailItem *
_sps_detail_item_new_arg (const char *key,
                          JsonNode   *node)
{
  SpsDetailItem *self;

  g_assert (key != NULL);
  g_assert (node != NULL);

  self = g_object_new (SPS_TYPE_DETAIL_ITEM, NULL);
  self->name = g_strdup (key);
  self->value = describe_node (node);
  if (JSON_NODE_HOLDS_OBJECT (node) || JSON_NODE_HOLDS_ARRAY (node))
    self->node = json_node_ref (node);

  return self;
}

const char *
_sps_detail_item_get_name (SpsDetailItem *self)
{
  g_assert (SPS_IS_DETAIL_ITEM (self));

  return self->name;
}

const char *
_sps_detail_item_get_value (SpsDetailItem *self)
{
  g_assert (SPS_IS_DETAIL_ITEM (self));

  return self->value;
}

guint
_sps_detail_item_get_slice (SpsDetailItem *self)
{
  g_assert (SPS_IS_DETAIL_ITEM (self));

  return self->slice;
}

SpsTime
_sps_detail_item_get_wall (SpsDetailItem *self)
{
  g_assert (SPS_IS_DETAIL_ITEM (self));

  return self->wall;
}

SpsTime
_sps_detail_item_get_self (SpsDetailItem *self)
{
  g_assert (SPS_IS_DETAIL_ITEM (self));

  return self->self_time;
}

guint
_sps_detail_item_get_count (SpsDetailItem *self)
{
  g_assert (SPS_IS_DETAIL_ITEM (self));

  return self->count;
}

SpsTime
_sps_detail_item_get_total (SpsDetailItem *self)
{
  g_assert (SPS_IS_DETAIL_ITEM (self));

  return self->total;
}

SpsTime
_sps_detail_item_get_average (SpsDetailItem *self)
{
  g_assert (SPS_IS_DETAIL_ITEM (self));

  return average_of (self);
}

SpsTime
_sps_detail_item_get_min (SpsDetailItem *self)
{
  g_assert (SPS_IS_DETAIL_ITEM (self));

  return self->min;
}

SpsTime
_sps_detail_item_get_max (SpsDetailItem *self)
{
  g_assert (SPS_IS_DETAIL_ITEM (self));

  return self->max;
}

double
_sps_detail_item_get_fraction (SpsDetailItem *self)
{
  g_assert (SPS_IS_DETAIL_ITEM (self));

  return self->fraction;
}

JsonNode *
_sps_detail_item_get_node (SpsDetailItem *self)
{
  g_assert (SPS_IS_DETAIL_ITEM (self));

  return self->node;
}

/* A call row that is an ancestor of @target: its row opens only on the
 * next slice of the path down to @target, not on all its children. */
void
_sps_detail_item_set_path_target (SpsDetailItem *self,
                                  guint          target)
{
  g_return_if_fail (SPS_IS_DETAIL_ITEM (self));

  self->path_target = target;
}

guint
_sps_detail_item_get_path_target (SpsDetailItem *self)
{
  g_return_val_if_fail (SPS_IS_DETAIL_ITEM (self), SPS_NO_INDEX);

  return self->path_target;
}
