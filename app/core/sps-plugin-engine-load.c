/* sps-plugin-engine-load.c: how SpsPluginEngine finds and loads plugins
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Search paths, the folders' .plugin files, and loading each module
 * through libpeas with its warnings captured (see the top of
 * sps-plugin-engine.c for the rules).
 */

#define G_LOG_DOMAIN "sps-plugin-engine"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "sps-plugin-engine-load-private.h"
#include "sps-plugin-files-private.h"
#include "sps-self-trace.h"

/* The extension points a plugin may provide, by type name so that the
 * core need not link the GTK library that defines SpsView: a plugin that
 * implements it has registered the type by the time it is loaded. */
static const struct {
  const char *type_name;
  const char *kind;
} extension_kinds[] = {
  { "SpsImporter", "importer" },
  { "SpsExporter", "exporter" },
  { "SpsAnalysis", "analysis" },
  { "SpsView", "view" },
};

/* Plugin file → why its module failed to load (see load_entry()) */
static GMutex load_failures_lock;
static GHashTable *load_failures;

void
_sps_plugin_engine_insert_search_path (SpsPluginEngine *self,
                                       const char      *module_dir,
                                       const char      *data_dir)
{
  g_autofree char *canonical = NULL;
  SearchPath *sp;

  g_assert (SPS_IS_PLUGIN_ENGINE (self));
  g_assert (module_dir != NULL);

  if (module_dir[0] == '\0')
    return;

  canonical = g_canonicalize_filename (module_dir, NULL);

  for (guint i = 0; i < self->search_paths->len; i++)
    {
      const SearchPath *other = g_ptr_array_index (self->search_paths, i);

      if (g_str_equal (other->module_dir, canonical))
        return;
    }

  sp = g_new0 (SearchPath, 1);
  sp->module_dir = g_steal_pointer (&canonical);
  sp->data_dir = g_strdup (data_dir != NULL ? data_dir : sp->module_dir);
  g_ptr_array_add (self->search_paths, sp);
}

static void
sps_plugin_engine_consider_plugin_file (SpsPluginEngine *self,
                                        const char      *path,
                                        GPtrArray       *rejected)
{
  g_autofree char *module_name = NULL;
  g_autofree char *name = NULL;
  g_autofree char *reason = NULL;
  g_auto(GStrv) formats = NULL;
  PluginEntry *entry;
  guint declared = 0;

  g_assert (SPS_IS_PLUGIN_ENGINE (self));
  g_assert (path != NULL);
  g_assert (rejected != NULL);

  if (!(module_name = _sps_plugin_file_check (path, &name, &declared, &formats, &reason)))
    {
      entry = g_new0 (PluginEntry, 1);
      entry->plugin_file = g_strdup (path);
      g_ptr_array_add (self->rejected, entry);
      _sps_plugin_engine_fail (self, entry, reason);
      g_ptr_array_add (rejected, g_strdup (path));
      return;
    }

  if ((entry = g_hash_table_lookup (self->plugins_by_name, module_name)))
    {
      g_debug ("%s: ignored, module “%s” is already provided by %s",
               path, module_name, entry->plugin_file);
      return;
    }

  entry = g_new0 (PluginEntry, 1);
  entry->module_name = g_steal_pointer (&module_name);
  entry->name = g_steal_pointer (&name);
  entry->plugin_file = g_strdup (path);
  entry->declared = declared;
  entry->formats = g_steal_pointer (&formats);
  entry->state = PLUGIN_PENDING;
  g_ptr_array_add (self->plugins, entry);
  g_hash_table_insert (self->plugins_by_name, entry->module_name, entry);
}

/* Mirrors libpeas's scan: *.plugin in the directory and in each of its
 * subfolders (one level). */
static void
sps_plugin_engine_scan_dir (SpsPluginEngine *self,
                            const char      *dir,
                            guint            depth,
                            GPtrArray       *rejected)
{
  g_autoptr(GPtrArray) names = NULL;
  g_autoptr(GError) error = NULL;

  g_assert (SPS_IS_PLUGIN_ENGINE (self));
  g_assert (dir != NULL);

  if (!(names = _sps_plugin_list_dir_sorted (dir, &error)))
    {
      /* A missing directory is normal: not every install has user plugins. */
      if (!g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT) &&
          !g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOTDIR))
        _sps_plugin_engine_add_problem (self, dir,
                                        /* Translators: %s says why */
                                        _("cannot read the folder: %s"), error->message);
      return;
    }

  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          if (depth > 0)
            sps_plugin_engine_scan_dir (self, path, depth - 1, rejected);
        }
      else if (g_str_has_suffix (name, ".plugin"))
        {
          sps_plugin_engine_consider_plugin_file (self, path, rejected);
        }
    }
}

/* Called with the mutex held. */
void
_sps_plugin_engine_scan_pending_paths (SpsPluginEngine *self)
{
  g_assert (SPS_IS_PLUGIN_ENGINE (self));

  for (; self->n_scanned < self->search_paths->len; self->n_scanned++)
    {
      const SearchPath *sp = g_ptr_array_index (self->search_paths, self->n_scanned);
      g_autoptr(GPtrArray) rejected = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(GPtrArray) messages = NULL;
      SpsPluginLogCapture capture;

      sps_plugin_engine_scan_dir (self, sp->module_dir, 1, rejected);

      _sps_plugin_log_capture_begin (&capture);
      peas_engine_add_search_path (self->peas, sp->module_dir, sp->data_dir);
      messages = _sps_plugin_log_capture_end (&capture);

      /* What libpeas says about files already reported is redundant;
       * anything else is a problem our own checks did not foresee. */
      for (guint i = 0; i < messages->len; i++)
        {
          const char *message = g_ptr_array_index (messages, i);

          if (!_sps_plugin_message_mentions_any (message, rejected))
            _sps_plugin_engine_add_problem (self, sp->module_dir, "%s", message);
        }
    }
}

/* Called with the mutex held. */
PeasPluginInfo *
_sps_plugin_engine_get_loaded_info (SpsPluginEngine   *self,
                                    const PluginEntry *entry)
{
  g_assert (SPS_IS_PLUGIN_ENGINE (self));
  g_assert (entry != NULL);

  if (entry->state != PLUGIN_LOADED)
    return NULL;

  return peas_engine_get_plugin_info (self->peas, entry->module_name);
}

/* Records what a freshly loaded plugin provides; one that provides
 * nothing is a failure. Called with the mutex held. */
static void
sps_plugin_engine_loaded (SpsPluginEngine *self,
                          PluginEntry     *entry,
                          PeasPluginInfo  *info)
{
  g_autoptr(GStrvBuilder) kinds = g_strv_builder_new ();

  g_assert (SPS_IS_PLUGIN_ENGINE (self));
  g_assert (entry != NULL);
  g_assert (info != NULL);

  for (guint i = 0; i < G_N_ELEMENTS (extension_kinds); i++)
    {
      GType type = g_type_from_name (extension_kinds[i].type_name);

      if (type != G_TYPE_INVALID && peas_engine_provides_extension (self->peas, info, type))
        g_strv_builder_add (kinds, extension_kinds[i].kind);
    }

  g_clear_pointer (&entry->kinds, g_strfreev);
  entry->kinds = g_strv_builder_end (kinds);

  /* A kind it does not declare would be loaded by programs that do not
   * want it (a view pulls GTK into the CLI) */
  for (guint i = 0; entry->kinds[i] != NULL; i++)
    if ((_sps_plugin_kind_from_id (entry->kinds[i]) & entry->declared) == 0)
      {
        g_autofree char *what = g_strdup_printf (/* Translators: the module name of a plugin, then a kind
                                                  * of plugin (importer, view…), untranslated */
                                                 _("plugin “%s” provides an extension of kind “%s”, which "
                                                   "its plugin file does not declare (X-Spanscope-Kind)"),
                                                 entry->module_name, entry->kinds[i]);

        _sps_plugin_engine_fail (self, entry, what);
        return;
      }

  if (entry->kinds[0] == NULL)
    {
      g_autofree char *what = g_strdup_printf (/* Translators: %s is the module name of a plugin;
                                                * keep the kinds in parentheses untranslated */
                                               _("plugin “%s” loaded but registers nothing Spanscope "
                                                 "uses (importer, exporter, analysis or view)"),
                                               entry->module_name);

      _sps_plugin_engine_fail (self, entry, what);
      return;
    }

  entry->state = PLUGIN_LOADED;
}

/* Called with the mutex held. */
void
_sps_plugin_engine_load_entry (SpsPluginEngine *self,
                               PluginEntry     *entry)
{
  g_autoptr(GPtrArray) messages = NULL;
  g_autoptr(GString) reason = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *redundant = NULL;
  g_autofree char *what = NULL;
  const char *cached;
  PeasPluginInfo *info;
  SpsPluginLogCapture capture;
  gboolean loaded;
  SPS_SELF_TRACE_SCOPE_ARG ("plugin/load", "plugin", entry->module_name);

  g_assert (SPS_IS_PLUGIN_ENGINE (self));
  g_assert (entry != NULL);
  g_assert (entry->state == PLUGIN_PENDING);

  if (!(info = peas_engine_get_plugin_info (self->peas, entry->module_name)))
    {
      what = g_strdup_printf (/* Translators: %s is the module name of a plugin */
                              _("plugin “%s” was rejected by the plugin loader"),
                              entry->module_name);
      _sps_plugin_engine_fail (self, entry, what);
      return;
    }

  if (peas_plugin_info_is_loaded (info))
    {
      sps_plugin_engine_loaded (self, entry, info);
      return;
    }

  _sps_plugin_log_capture_begin (&capture);
  loaded = peas_engine_load_plugin (self->peas, info) && peas_plugin_info_is_loaded (info);
  messages = _sps_plugin_log_capture_end (&capture);

  if (loaded)
    {
      for (guint i = 0; i < messages->len; i++)
        g_debug ("%s: %s", entry->plugin_file, (const char *)g_ptr_array_index (messages, i));
      sps_plugin_engine_loaded (self, entry, info);
      return;
    }

  /* libpeas says what failed, then that the plugin failed; keep the first. */
  redundant = g_strdup_printf ("Error loading plugin '%s'", entry->module_name);
  reason = g_string_new (NULL);
  for (guint i = 0; i < messages->len; i++)
    {
      const char *message = g_ptr_array_index (messages, i);

      if (g_str_equal (message, redundant))
        continue;
      if (reason->len > 0)
        g_string_append (reason, "; ");
      g_string_append (reason, message);
    }

  /* libpeas's C loader is shared by all engines and tries a module once
   * per process: later engines only learn that it failed, so remember why. */
  g_mutex_lock (&load_failures_lock);
  if (load_failures == NULL)
    load_failures = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  if (reason->len > 0)
    g_hash_table_replace (load_failures, g_strdup (entry->plugin_file), g_strdup (reason->str));
  else if ((cached = g_hash_table_lookup (load_failures, entry->plugin_file)))
    g_string_append (reason, cached);
  g_mutex_unlock (&load_failures_lock);

  if (reason->len == 0)
    {
      if (!peas_plugin_info_is_available (info, &error) && error != NULL)
        g_string_append (reason, error->message);
      else
        g_string_append (reason, _("unknown error"));
    }

  what = g_strdup_printf (/* Translators: the first %s is the module name of a
                          * plugin, the second says why */
                         _("plugin “%s” could not be loaded: %s"),
                         entry->module_name, reason->str);
  _sps_plugin_engine_fail (self, entry, what);
}
