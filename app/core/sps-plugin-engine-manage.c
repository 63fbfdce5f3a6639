/* sps-plugin-engine-manage.c: what SpsPluginEngine tells about its
 * plugins, and turning plugins off and on
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The list of plugins with their state and the `disabled-plugins`
 * setting (see the top of sps-plugin-engine.c for the rules).
 */

#define G_LOG_DOMAIN "sps-plugin-engine"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "sps-plugin-engine-load-private.h"
#include "sps-plugin-status-private.h"

/* The settings key that lists the module names the user turned off */
#define DISABLED_KEY "disabled-plugins"

/* Loads the plugins found and not decided yet. Called with the mutex
 * held. */
void
_sps_plugin_engine_load_pending (SpsPluginEngine *self)
{
  g_assert (SPS_IS_PLUGIN_ENGINE (self));

  for (guint i = 0; i < self->plugins->len; i++)
    {
      PluginEntry *entry = g_ptr_array_index (self->plugins, i);

      if (entry->state == PLUGIN_NOT_NEEDED && (entry->declared & self->kinds) != 0)
        entry->state = PLUGIN_PENDING;
      if (entry->state == PLUGIN_PENDING && g_hash_table_contains (self->disabled, entry->module_name))
        entry->state = PLUGIN_DISABLED;
      if (entry->state != PLUGIN_PENDING)
        continue;
      if ((entry->declared & self->kinds) == 0)
        entry->state = PLUGIN_NOT_NEEDED;
      else
        _sps_plugin_engine_load_entry (self, entry);
    }
}

static void
add_status (SpsPluginEngine   *self,
            GListStore        *store,
            const PluginEntry *entry)
{
  g_autoptr(SpsPluginStatus) status = NULL;

  SpsPluginState state = entry->state == PLUGIN_LOADED ? SPS_PLUGIN_STATE_LOADED :
                         entry->state == PLUGIN_NOT_NEEDED ? SPS_PLUGIN_STATE_NOT_NEEDED :
                         entry->state == PLUGIN_DISABLED ? SPS_PLUGIN_STATE_DISABLED :
                         SPS_PLUGIN_STATE_FAILED;
  g_auto(GStrv) declared = NULL;
  PeasPluginInfo *info;

  /* What a plugin not loaded provides: what it declares */
  if (entry->state == PLUGIN_NOT_NEEDED || entry->state == PLUGIN_DISABLED)
    {
      static const char * const ids[] = { "importer", "exporter", "analysis", "view" };
      g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

      for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
        if ((entry->declared & (1u << i)) != 0)
          g_strv_builder_add (builder, ids[i]);
      declared = g_strv_builder_end (builder);
    }
  status = _sps_plugin_status_new (entry->module_name, entry->name, entry->plugin_file,
                                   (const char * const *) (declared != NULL ? declared : entry->kinds),
                                   state, state == SPS_PLUGIN_STATE_FAILED ? entry->error : NULL);

  /* libpeas read the rest of a valid .plugin file, translated */
  if (entry->module_name != NULL && (info = peas_engine_get_plugin_info (self->peas, entry->module_name)))
    _sps_plugin_status_set_about (status,
                                  peas_plugin_info_get_description (info),
                                  (const char * const *) peas_plugin_info_get_authors (info),
                                  peas_plugin_info_get_version (info),
                                  peas_plugin_info_get_website (info));

  g_list_store_append (store, status);
}

/**
 * sps_plugin_engine_list_status:
 * @self: a #SpsPluginEngine
 *
 * Lists every plugin found so far, loaded, failed, disabled or not needed
 * (of a kind this program does not load), by precedence, followed by the
 * `.plugin` files that could not be read. Plugins not
 * loaded yet (before [method@PluginEngine.load_all]) are not listed.
 *
 * Returns: (transfer full): a list model of #SpsPluginStatus
 */
GListModel *
sps_plugin_engine_list_status (SpsPluginEngine *self)
{
  GListStore *store;

  g_return_val_if_fail (SPS_IS_PLUGIN_ENGINE (self), NULL);

  store = g_list_store_new (SPS_TYPE_PLUGIN_STATUS);

  g_mutex_lock (&self->mutex);
  for (guint i = 0; i < self->plugins->len; i++)
    {
      const PluginEntry *entry = g_ptr_array_index (self->plugins, i);

      if (entry->state != PLUGIN_PENDING)
        add_status (self, store, entry);
    }
  for (guint i = 0; i < self->rejected->len; i++)
    add_status (self, store, g_ptr_array_index (self->rejected, i));
  g_mutex_unlock (&self->mutex);

  return G_LIST_MODEL (store);
}

/**
 * sps_plugin_engine_count_failed:
 * @self: a #SpsPluginEngine
 *
 * Returns: how many plugins (and unreadable `.plugin` files) failed
 */
guint
sps_plugin_engine_count_failed (SpsPluginEngine *self)
{
  guint n;

  g_return_val_if_fail (SPS_IS_PLUGIN_ENGINE (self), 0);

  g_mutex_lock (&self->mutex);
  n = self->rejected->len;
  for (guint i = 0; i < self->plugins->len; i++)
    {
      const PluginEntry *entry = g_ptr_array_index (self->plugins, i);

      if (entry->state == PLUGIN_BROKEN)
        n++;
    }
  g_mutex_unlock (&self->mutex);

  return n;
}

/**
 * sps_plugin_engine_set_disabled:
 * @self: a #SpsPluginEngine
 * @module_names: (array zero-terminated=1) (nullable): the `Module` names
 *   of the plugins to turn off; %NULL or empty for none
 *
 * Turns plugins off and on. A plugin turned off is not loaded by
 * [method@PluginEngine.load_all] and is listed as
 * %SPS_PLUGIN_STATE_DISABLED. Called after plugins were loaded, it takes
 * effect at once for what is made afterwards: a plugin turned on is
 * loaded now, a plugin turned off makes no more extensions (no importer
 * for the next load, no panel in the next window). Extensions made
 * already stay, and a module stays in memory until the program ends:
 * libpeas 1.x cannot take back the types a C module registered nor a
 * Python module it imported while objects of them may live.
 */
void
sps_plugin_engine_set_disabled (SpsPluginEngine    *self,
                                const char * const *module_names)
{
  g_return_if_fail (SPS_IS_PLUGIN_ENGINE (self));

  g_mutex_lock (&self->mutex);

  g_hash_table_remove_all (self->disabled);
  for (guint i = 0; module_names != NULL && module_names[i] != NULL; i++)
    g_hash_table_add (self->disabled, g_strdup (module_names[i]));

  for (guint i = 0; i < self->plugins->len; i++)
    {
      PluginEntry *entry = g_ptr_array_index (self->plugins, i);
      gboolean off = g_hash_table_contains (self->disabled, entry->module_name);

      if (off && entry->state != PLUGIN_DISABLED && entry->state != PLUGIN_PENDING)
        {
          /* A failed plugin turned off is no longer a failure */
          entry->state = PLUGIN_DISABLED;
          g_clear_pointer (&entry->error, g_free);
        }
      else if (!off && entry->state == PLUGIN_DISABLED)
        entry->state = PLUGIN_PENDING;
    }

  /* Only once load_all() ran: before, it decides */
  if (self->n_scanned > 0)
    _sps_plugin_engine_load_pending (self);

  g_mutex_unlock (&self->mutex);
}

static int
compare_names (const void *a,
               const void *b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

/**
 * sps_plugin_engine_dup_disabled:
 * @self: a #SpsPluginEngine
 *
 * Returns: (transfer full) (array zero-terminated=1): the module names
 *   turned off, sorted
 */
char **
sps_plugin_engine_dup_disabled (SpsPluginEngine *self)
{
  g_autofree const char **keys = NULL;
  char **ret;
  guint n;

  g_return_val_if_fail (SPS_IS_PLUGIN_ENGINE (self), NULL);

  g_mutex_lock (&self->mutex);
  keys = (const char **) g_hash_table_get_keys_as_array (self->disabled, &n);
  ret = g_strdupv ((char **) keys);
  g_mutex_unlock (&self->mutex);

  qsort (ret, n, sizeof (char *), compare_names);

  return ret;
}

static void
on_disabled_changed (GSettings       *settings,
                     const char      *key,
                     SpsPluginEngine *self)
{
  g_auto(GStrv) names = NULL;

  g_assert (G_IS_SETTINGS (settings));
  g_assert (SPS_IS_PLUGIN_ENGINE (self));

  names = g_settings_get_strv (settings, DISABLED_KEY);
  sps_plugin_engine_set_disabled (self, (const char * const *) names);
}

/**
 * sps_plugin_engine_bind_settings:
 * @self: a #SpsPluginEngine
 * @settings: settings with a `disabled-plugins` key of type `as`
 *
 * Makes @self follow @settings' list of plugins turned off: now (see
 * [method@PluginEngine.set_disabled]) and whenever it changes. The
 * process-wide engine does this by itself with the application's
 * settings.
 */
void
sps_plugin_engine_bind_settings (SpsPluginEngine *self,
                                 GSettings       *settings)
{
  g_return_if_fail (SPS_IS_PLUGIN_ENGINE (self));
  g_return_if_fail (G_IS_SETTINGS (settings));

  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_func (self->settings, on_disabled_changed, self);
  g_set_object (&self->settings, settings);

  g_signal_connect_object (settings, "changed::" DISABLED_KEY, G_CALLBACK (on_disabled_changed), self, 0);
  on_disabled_changed (settings, DISABLED_KEY, self);
}

/* The application's settings, when their schema is installed (the CLI
 * and the application share them; an uninstalled build points
 * GSETTINGS_SCHEMA_DIR at its own). */
void
_sps_plugin_engine_bind_app_settings (SpsPluginEngine *self)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GSettings) settings = NULL;

  g_assert (SPS_IS_PLUGIN_ENGINE (self));

  if (source == NULL ||
      !(schema = g_settings_schema_source_lookup (source, APP_ID, TRUE)) ||
      !g_settings_schema_has_key (schema, DISABLED_KEY))
    return;

  settings = g_settings_new_full (schema, NULL, NULL);
  sps_plugin_engine_bind_settings (self, settings);
}
