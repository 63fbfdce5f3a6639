/* sps-flag.c: a named time marker on the timeline
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-flag"

#include "config.h"

#include "sps-flag.h"

/**
 * SpsFlag:
 *
 * A flag: a time of the trace the user marked, with a name. A session
 * keeps its flags in a list model (sps_session_get_flags()); the timeline
 * draws each as a line over the tracks with its name in the ruler.
 *
 * Properties: "time" (gint64 ns, construct-only), "name" (string).
 */
struct _SpsFlag
{
  GObject  parent_instance;

  SpsTime  time;
  char    *name;
};

G_DEFINE_FINAL_TYPE (SpsFlag, sps_flag, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_TIME,
  PROP_NAME,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
sps_flag_finalize (GObject *object)
{
  SpsFlag *self = SPS_FLAG (object);

  g_clear_pointer (&self->name, g_free);

  G_OBJECT_CLASS (sps_flag_parent_class)->finalize (object);
}

static void
sps_flag_get_property (GObject    *object,
                       guint       prop_id,
                       GValue     *value,
                       GParamSpec *pspec)
{
  SpsFlag *self = SPS_FLAG (object);

  switch (prop_id)
    {
    case PROP_TIME:
      g_value_set_int64 (value, self->time);
      break;
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sps_flag_set_property (GObject      *object,
                       guint         prop_id,
                       const GValue *value,
                       GParamSpec   *pspec)
{
  SpsFlag *self = SPS_FLAG (object);

  switch (prop_id)
    {
    case PROP_TIME:
      self->time = g_value_get_int64 (value);
      break;
    case PROP_NAME:
      sps_flag_set_name (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sps_flag_class_init (SpsFlagClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sps_flag_finalize;
  object_class->get_property = sps_flag_get_property;
  object_class->set_property = sps_flag_set_property;

  properties[PROP_TIME] =
    g_param_spec_int64 ("time", NULL, NULL, G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sps_flag_init (SpsFlag *self)
{
  self->name = g_strdup ("");
}

/**
 * sps_flag_new:
 * @time: ns from the trace's origin
 * @name: what the user calls it
 *
 * Returns: (transfer full): a new flag
 */
SpsFlag *
sps_flag_new (SpsTime     time,
              const char *name)
{
  return g_object_new (SPS_TYPE_FLAG, "time", (gint64) time, "name", name, NULL);
}

/**
 * sps_flag_get_time:
 * @self: a #SpsFlag
 *
 * Returns: the flag's time, ns
 */
SpsTime
sps_flag_get_time (SpsFlag *self)
{
  g_return_val_if_fail (SPS_IS_FLAG (self), 0);

  return self->time;
}

/**
 * sps_flag_get_name:
 * @self: a #SpsFlag
 *
 * Returns: (transfer none): the flag's name
 */
const char *
sps_flag_get_name (SpsFlag *self)
{
  g_return_val_if_fail (SPS_IS_FLAG (self), NULL);

  return self->name;
}

/**
 * sps_flag_set_name:
 * @self: a #SpsFlag
 * @name: (nullable): the new name (%NULL is "")
 */
void
sps_flag_set_name (SpsFlag    *self,
                   const char *name)
{
  g_return_if_fail (SPS_IS_FLAG (self));

  if (name == NULL)
    name = "";
  if (g_strcmp0 (self->name, name) == 0)
    return;

  g_free (self->name);
  self->name = g_strdup (name);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NAME]);
}
