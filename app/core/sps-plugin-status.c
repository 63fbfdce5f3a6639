/* sps-plugin-status.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-plugin-status"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-plugin-status-private.h"

/**
 * SpsPluginStatus:
 *
 * A snapshot of one plugin as the engine found it: which plugin, what it
 * provides, and whether it is in use or why not. Made by
 * [method@PluginEngine.list_status]; it does not change afterwards.
 */

struct _SpsPluginStatus
{
  GObject         parent_instance;

  char           *module_name;
  char           *name;
  char           *plugin_file;
  GStrv           kinds;
  char           *error;
  SpsPluginState  state;

  /* From the .plugin file, when libpeas could read it */
  char           *description;
  GStrv           authors;
  char           *version;
  char           *website;
};

G_DEFINE_FINAL_TYPE (SpsPluginStatus, sps_plugin_status, G_TYPE_OBJECT)

static void
sps_plugin_status_finalize (GObject *object)
{
  SpsPluginStatus *self = (SpsPluginStatus *)object;

  g_free (self->module_name);
  g_free (self->name);
  g_free (self->plugin_file);
  g_strfreev (self->kinds);
  g_free (self->error);
  g_free (self->description);
  g_strfreev (self->authors);
  g_free (self->version);
  g_free (self->website);

  G_OBJECT_CLASS (sps_plugin_status_parent_class)->finalize (object);
}

static void
sps_plugin_status_class_init (SpsPluginStatusClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sps_plugin_status_finalize;
}

static void
sps_plugin_status_init (SpsPluginStatus *self)
{
  self->authors = g_new0 (char *, 1);
}

SpsPluginStatus *
_sps_plugin_status_new (const char         *module_name,
                        const char         *name,
                        const char         *plugin_file,
                        const char * const *kinds,
                        SpsPluginState      state,
                        const char         *error)
{
  SpsPluginStatus *self;

  g_return_val_if_fail (plugin_file != NULL, NULL);

  self = g_object_new (SPS_TYPE_PLUGIN_STATUS, NULL);
  self->module_name = g_strdup (module_name);
  self->name = g_strdup (name);
  self->plugin_file = g_strdup (plugin_file);
  self->kinds = kinds != NULL ? g_strdupv ((char **)kinds) : g_new0 (char *, 1);
  self->state = state;
  self->error = g_strdup (error);

  return self;
}

/* Empty strings are absent keys */
static char *
dup_nonempty (const char *str)
{
  return str != NULL && str[0] != '\0' ? g_strdup (str) : NULL;
}

void
_sps_plugin_status_set_about (SpsPluginStatus    *self,
                              const char         *description,
                              const char * const *authors,
                              const char         *version,
                              const char         *website)
{
  g_return_if_fail (SPS_IS_PLUGIN_STATUS (self));

  g_free (self->description);
  self->description = dup_nonempty (description);
  g_strfreev (self->authors);
  self->authors = authors != NULL ? g_strdupv ((char **) authors) : g_new0 (char *, 1);
  g_free (self->version);
  self->version = dup_nonempty (version);
  g_free (self->website);
  self->website = dup_nonempty (website);
}

/**
 * sps_plugin_status_get_module_name:
 * @self: a #SpsPluginStatus
 *
 * Returns: (nullable): the `Module` of the plugin, or %NULL when its
 *   `.plugin` file could not be read
 */
const char *
sps_plugin_status_get_module_name (SpsPluginStatus *self)
{
  g_return_val_if_fail (SPS_IS_PLUGIN_STATUS (self), NULL);

  return self->module_name;
}

/**
 * sps_plugin_status_get_name:
 * @self: a #SpsPluginStatus
 *
 * Returns: (nullable): the plugin's display name (`Name`, translated when
 *   the `.plugin` file has a translation), or %NULL when unknown
 */
const char *
sps_plugin_status_get_name (SpsPluginStatus *self)
{
  g_return_val_if_fail (SPS_IS_PLUGIN_STATUS (self), NULL);

  return self->name;
}

/**
 * sps_plugin_status_get_plugin_file:
 * @self: a #SpsPluginStatus
 *
 * Returns: the path of the plugin's `.plugin` file; its folder is the
 *   plugin's folder
 */
const char *
sps_plugin_status_get_plugin_file (SpsPluginStatus *self)
{
  g_return_val_if_fail (SPS_IS_PLUGIN_STATUS (self), NULL);

  return self->plugin_file;
}

/**
 * sps_plugin_status_get_kinds:
 * @self: a #SpsPluginStatus
 *
 * What the plugin provides, as stable ids in this order: "importer",
 * "exporter", "analysis", "view". Empty when it is not loaded.
 *
 * Returns: (transfer none) (array zero-terminated=1): the kinds
 */
const char * const *
sps_plugin_status_get_kinds (SpsPluginStatus *self)
{
  g_return_val_if_fail (SPS_IS_PLUGIN_STATUS (self), NULL);

  return (const char * const *)self->kinds;
}

/**
 * sps_plugin_status_get_state:
 * @self: a #SpsPluginStatus
 *
 * Returns: whether the plugin is in use
 */
SpsPluginState
sps_plugin_status_get_state (SpsPluginStatus *self)
{
  g_return_val_if_fail (SPS_IS_PLUGIN_STATUS (self), SPS_PLUGIN_STATE_FAILED);

  return self->state;
}

/**
 * sps_plugin_status_get_error:
 * @self: a #SpsPluginStatus
 *
 * Returns: (nullable): why the plugin failed, translated, or %NULL
 *   unless it failed
 */
const char *
sps_plugin_status_get_error (SpsPluginStatus *self)
{
  g_return_val_if_fail (SPS_IS_PLUGIN_STATUS (self), NULL);

  return self->error;
}

/**
 * sps_plugin_status_get_description:
 * @self: a #SpsPluginStatus
 *
 * Returns: (nullable): the plugin's `Description`, translated when the
 *   `.plugin` file has a translation, or %NULL when it has none
 */
const char *
sps_plugin_status_get_description (SpsPluginStatus *self)
{
  g_return_val_if_fail (SPS_IS_PLUGIN_STATUS (self), NULL);

  return self->description;
}

/**
 * sps_plugin_status_get_authors:
 * @self: a #SpsPluginStatus
 *
 * Returns: (transfer none) (array zero-terminated=1): the plugin's
 *   `Authors`, empty when it names none
 */
const char * const *
sps_plugin_status_get_authors (SpsPluginStatus *self)
{
  g_return_val_if_fail (SPS_IS_PLUGIN_STATUS (self), NULL);

  return (const char * const *) self->authors;
}

/**
 * sps_plugin_status_get_version:
 * @self: a #SpsPluginStatus
 *
 * Returns: (nullable): the plugin's `Version`, or %NULL when it gives none
 */
const char *
sps_plugin_status_get_version (SpsPluginStatus *self)
{
  g_return_val_if_fail (SPS_IS_PLUGIN_STATUS (self), NULL);

  return self->version;
}

/**
 * sps_plugin_status_get_website:
 * @self: a #SpsPluginStatus
 *
 * Returns: (nullable): the plugin's `Website`, or %NULL when it gives none
 */
const char *
sps_plugin_status_get_website (SpsPluginStatus *self)
{
  g_return_val_if_fail (SPS_IS_PLUGIN_STATUS (self), NULL);

  return self->website;
}

/**
 * sps_plugin_kind_get_label:
 * @kind: a kind id, as in sps_plugin_status_get_kinds()
 *
 * Returns: (transfer none): @kind for people, translated ("importer",
 *   "exporter", "analysis", "view"); @kind itself when unknown
 */
const char *
sps_plugin_kind_get_label (const char *kind)
{
  g_return_val_if_fail (kind != NULL, NULL);

  if (g_str_equal (kind, "importer"))
    return C_("plugin kind", "importer");
  if (g_str_equal (kind, "exporter"))
    return C_("plugin kind", "exporter");
  if (g_str_equal (kind, "analysis"))
    return C_("plugin kind", "analysis");
  if (g_str_equal (kind, "view"))
    return C_("plugin kind", "view");

  return kind;
}
