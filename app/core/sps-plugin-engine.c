/* sps-plugin-engine.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-plugin-engine"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include <libpeas/peas.h>

#include "sps-plugin-engine.h"
#include "sps-plugin-engine-private.h"
#include "sps-plugin-engine-load-private.h"
#include "sps-plugin-files-private.h"
#include "sps-plugin-status-private.h"

/**
 * SpsPluginEngine:
 *
 * Finds, loads and instantiates Spanscope plugins.
 *
 * This is the only file that talks to libpeas, so that moving to libpeas 2
 * stays a local change. Plugins are shared modules, each in its own folder
 * with its `.plugin` keyfile; a search directory is scanned together with
 * one level of subfolders.
 *
 * Search paths, highest precedence first:
 *
 * 1. every directory of the `SPANSCOPE_PLUGIN_PATH` environment variable,
 *    in order (colon-separated);
 * 2. the installed plugin directory (`$libdir/spanscope/plugins`);
 * 3. the user's plugins, `$XDG_DATA_HOME/spanscope/plugins`;
 * 4. directories added with [method@PluginEngine.add_search_path], in the
 *    order they were added.
 *
 * When two directories provide a plugin with the same module name, the one
 * with the higher precedence is used and the other is ignored. libpeas
 * keeps the first module of a name it sees, so the environment directories
 * are handed to it first: that way an uninstalled build (and the test
 * suite) runs its freshly built plugins even when an older copy is
 * installed, while a stray copy in the user's data directory cannot shadow
 * an installed plugin.
 *
 * A broken plugin never stops the others: a `.plugin` file that cannot be
 * parsed, a missing shared module, a module without `peas_register_types`
 * or any other failure to load is recorded as a human-readable problem
 * (see [method@PluginEngine.get_problems]) and the plugin is skipped.
 * libpeas reports such failures with g_warning(); while the engine calls
 * into libpeas it captures those warnings into the problem list instead of
 * printing them (and keeps them from being fatal in test programs).
 *
 * A plugin that loads but provides none of the extension points Spanscope
 * knows (importer, exporter, analysis, view) is a failure too. So is a
 * plugin whose extension breaks the contract of an interface method
 * (fails without saying why, reports an error with success, makes no
 * panel): the caller reports it with sps_plugin_engine_report_failure(),
 * and the engine creates no more extensions of that plugin. Errors about
 * the input itself (a malformed file) are not the plugin's fault and are
 * not recorded. [method@PluginEngine.list_status] lists every plugin with
 * its state and translated reason, for the CLI and the Plugins dialog.
 *
 * Plugins can be turned off by module name ([method@PluginEngine.set_disabled],
 * or the `disabled-plugins` setting through
 * [method@PluginEngine.bind_settings]): they are not loaded, or once
 * loaded make no more extensions. That code, and the list of plugins with
 * their states, is in sps-plugin-engine-manage.c.
 *
 * The engine serialises its own use of libpeas with a mutex, so its
 * methods may be called from any thread. Each failure is also announced
 * by [signal@PluginEngine::plugin-failed], in the main context the engine
 * was made in, so that a window shows failures that happen after it
 * showed its trace (an importer on a worker thread, a view later on).
 */

/* A weak reference to an engine and a name: what an extension made by
 * the engine remembers of its origin (the module name), and a pending
 * ::plugin-failed (the plugin file). */
typedef struct
{
  GWeakRef  engine;
  char     *name;
} EngineRef;

static GQuark extension_origin_quark;
/* Set on an extension that was blamed for its plugin's failure */
static GQuark extension_blamed_quark;

G_DEFINE_FINAL_TYPE (SpsPluginEngine, sps_plugin_engine, G_TYPE_OBJECT)

enum {
  PLUGIN_FAILED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static EngineRef *
engine_ref_new (SpsPluginEngine *self,
                const char      *name)
{
  EngineRef *ref = g_new0 (EngineRef, 1);

  g_weak_ref_init (&ref->engine, self);
  ref->name = g_strdup (name);

  return ref;
}

static void
engine_ref_free (gpointer data)
{
  EngineRef *ref = data;

  g_weak_ref_clear (&ref->engine);
  g_free (ref->name);
  g_free (ref);
}

static gboolean
emit_plugin_failed (gpointer data)
{
  EngineRef *emission = data;
  g_autoptr(SpsPluginEngine) self = g_weak_ref_get (&emission->engine);

  if (self != NULL)
    g_signal_emit (self, signals[PLUGIN_FAILED], 0, emission->name);

  return G_SOURCE_REMOVE;
}

/* Emits ::plugin-failed later, in the engine's context: the failure may
 * be reported on any thread, and with the mutex held, which handlers
 * need to read the new state. A weak reference, so that a context no
 * one iterates (the CLI's) keeps no engine alive. */
static void
sps_plugin_engine_announce_failure (SpsPluginEngine *self,
                                    const char      *plugin_file)
{
  g_autoptr(GSource) source = g_idle_source_new ();

  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, emit_plugin_failed, engine_ref_new (self, plugin_file), engine_ref_free);
  g_source_set_static_name (source, "[spanscope] plugin-failed");
  g_source_attach (source, self->context);
}

static void
plugin_entry_free (gpointer data)
{
  PluginEntry *entry = data;

  g_free (entry->module_name);
  g_free (entry->name);
  g_free (entry->plugin_file);
  g_free (entry->error);
  g_strfreev (entry->kinds);
  g_strfreev (entry->formats);
  g_free (entry);
}

static void
search_path_free (gpointer data)
{
  SearchPath *sp = data;

  g_free (sp->module_dir);
  g_free (sp->data_dir);
  g_free (sp);
}

void
_sps_plugin_engine_add_problem (SpsPluginEngine *self,
                                const char      *path,
                                const char      *format,
                                ...)
{
  g_autofree char *what = NULL;
  va_list args;

  g_assert (SPS_IS_PLUGIN_ENGINE (self));
  g_assert (path != NULL);

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  g_debug ("%s: %s", path, what);
  g_ptr_array_add (self->problems, g_strdup_printf ("%s: %s", path, what));
}

/* Marks @entry broken for the reason @what (translated), and records the
 * problem. Called with the mutex held. */
void
_sps_plugin_engine_fail (SpsPluginEngine *self,
                         PluginEntry     *entry,
                         const char      *what)
{
  g_assert (SPS_IS_PLUGIN_ENGINE (self));
  g_assert (entry != NULL);
  g_assert (what != NULL);

  entry->state = PLUGIN_BROKEN;
  g_free (entry->error);
  entry->error = g_strdup (what);
  g_clear_pointer (&entry->kinds, g_strfreev);
  _sps_plugin_engine_add_problem (self, entry->plugin_file, "%s", what);
  sps_plugin_engine_announce_failure (self, entry->plugin_file);
}

static void
sps_plugin_engine_finalize (GObject *object)
{
  SpsPluginEngine *self = (SpsPluginEngine *)object;

  g_clear_object (&self->peas);
  g_clear_pointer (&self->plugins_by_name, g_hash_table_unref);
  g_clear_pointer (&self->plugins, g_ptr_array_unref);
  g_clear_pointer (&self->rejected, g_ptr_array_unref);
  g_clear_pointer (&self->search_paths, g_ptr_array_unref);
  g_clear_pointer (&self->problems, g_ptr_array_unref);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_clear_pointer (&self->disabled, g_hash_table_unref);
  g_clear_object (&self->settings);
  g_mutex_clear (&self->mutex);

  G_OBJECT_CLASS (sps_plugin_engine_parent_class)->finalize (object);
}

static void
sps_plugin_engine_class_init (SpsPluginEngineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sps_plugin_engine_finalize;

  /**
   * SpsPluginEngine::plugin-failed:
   * @self: the engine
   * @plugin_file: the `.plugin` file of the plugin that failed
   *
   * A plugin was marked failed (at load time, or when one of its
   * extensions broke an interface's contract). Emitted in the main
   * context that was the thread-default one when the engine was made,
   * shortly after the failure, whichever thread reported it; the
   * engine's state ([method@PluginEngine.list_status]) already says so.
   */
  signals[PLUGIN_FAILED] =
    g_signal_new ("plugin-failed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  extension_origin_quark = g_quark_from_static_string ("sps-plugin-engine-origin");
  extension_blamed_quark = g_quark_from_static_string ("sps-plugin-engine-blamed");
}

static void
sps_plugin_engine_init (SpsPluginEngine *self)
{
  const char *env;
  g_autofree char *user_dir = NULL;

  g_mutex_init (&self->mutex);
  self->context = g_main_context_ref_thread_default ();
  self->kinds = SPS_PLUGIN_KIND_ALL;
  self->search_paths = g_ptr_array_new_with_free_func (search_path_free);
  self->plugins = g_ptr_array_new_with_free_func (plugin_entry_free);
  self->plugins_by_name = g_hash_table_new (g_str_hash, g_str_equal);
  self->rejected = g_ptr_array_new_with_free_func (plugin_entry_free);
  self->problems = g_ptr_array_new_with_free_func (g_free);
  self->disabled = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  self->peas = peas_engine_new ();

  /* Cheap: the loader itself is only opened when a plugin asks for it. */
  peas_engine_enable_loader (self->peas, "python3");

  /* See the precedence rules in the type's documentation. */
  if ((env = g_getenv ("SPANSCOPE_PLUGIN_PATH")))
    {
      g_auto(GStrv) dirs = g_strsplit (env, G_SEARCHPATH_SEPARATOR_S, -1);

      for (guint i = 0; dirs[i] != NULL; i++)
        _sps_plugin_engine_insert_search_path (self, dirs[i], NULL);
    }

  _sps_plugin_engine_insert_search_path (self, SPS_PLUGIN_DIR, SPS_PLUGIN_DATA_DIR);

  user_dir = g_build_filename (g_get_user_data_dir (), "spanscope", "plugins", NULL);
  _sps_plugin_engine_insert_search_path (self, user_dir, NULL);
}

/**
 * sps_plugin_engine_new:
 *
 * Creates an engine with the default search paths (read from the
 * environment now). Nothing is scanned or loaded before
 * [method@PluginEngine.load_all].
 *
 * Returns: (transfer full): a new #SpsPluginEngine
 */
SpsPluginEngine *
sps_plugin_engine_new (void)
{
  return g_object_new (SPS_TYPE_PLUGIN_ENGINE, NULL);
}

/**
 * sps_plugin_engine_get_default:
 *
 * Gets the process-wide engine, created on first use with every plugin of
 * the kinds sps_plugin_engine_set_default_kinds() set (all by default)
 * loaded, except the ones the application's `disabled-plugins` setting
 * turns off (when its settings schema is installed; the engine follows
 * later changes of the setting).
 *
 * Returns: (transfer none): the default #SpsPluginEngine
 */
static SpsPluginKind default_kinds = SPS_PLUGIN_KIND_ALL;
static gboolean default_made;

/**
 * sps_plugin_engine_set_default_kinds:
 * @kinds: what the program needs
 *
 * Sets the kinds of plugins the process-wide engine loads, before it is
 * made (the first sps_plugin_engine_get_default()): `spanscope-cli` loads
 * no views, so that it never maps GTK.
 */
void
sps_plugin_engine_set_default_kinds (SpsPluginKind kinds)
{
  g_return_if_fail (!default_made);

  default_kinds = kinds & SPS_PLUGIN_KIND_ALL;
}

SpsPluginEngine *
sps_plugin_engine_get_default (void)
{
  static SpsPluginEngine *default_engine;

  if (g_once_init_enter (&default_engine))
    {
      SpsPluginEngine *engine = sps_plugin_engine_new ();

      default_made = TRUE;
      engine->kinds = default_kinds;
      _sps_plugin_engine_bind_app_settings (engine);
      sps_plugin_engine_load_all (engine);
      g_once_init_leave (&default_engine, engine);
    }

  return default_engine;
}

/**
 * sps_plugin_engine_set_kinds:
 * @self: a #SpsPluginEngine
 * @kinds: the kinds of plugins to load
 *
 * Restricts [method@PluginEngine.load_all] to plugins that declare one of
 * @kinds (`X-Spanscope-Kind` in their `.plugin` file); the others are
 * listed as not needed. Plugins loaded already stay loaded.
 */
void
sps_plugin_engine_set_kinds (SpsPluginEngine *self,
                             SpsPluginKind    kinds)
{
  g_return_if_fail (SPS_IS_PLUGIN_ENGINE (self));

  g_mutex_lock (&self->mutex);
  self->kinds = kinds & SPS_PLUGIN_KIND_ALL;
  g_mutex_unlock (&self->mutex);
}

/**
 * sps_plugin_engine_get_kinds:
 * @self: a #SpsPluginEngine
 *
 * Returns: the kinds of plugins @self loads
 */
SpsPluginKind
sps_plugin_engine_get_kinds (SpsPluginEngine *self)
{
  g_return_val_if_fail (SPS_IS_PLUGIN_ENGINE (self), 0);

  return self->kinds;
}

/**
 * sps_plugin_engine_add_search_path:
 * @self: a #SpsPluginEngine
 * @dir: a directory holding plugin folders
 *
 * Adds @dir after the existing search paths, so its plugins do not
 * replace plugins of the same module name found earlier. It is scanned by
 * the next [method@PluginEngine.load_all].
 */
void
sps_plugin_engine_add_search_path (SpsPluginEngine *self,
                                   const char      *dir)
{
  g_return_if_fail (SPS_IS_PLUGIN_ENGINE (self));
  g_return_if_fail (dir != NULL);

  g_mutex_lock (&self->mutex);
  _sps_plugin_engine_insert_search_path (self, dir, NULL);
  g_mutex_unlock (&self->mutex);
}

/**
 * sps_plugin_engine_load_all:
 * @self: a #SpsPluginEngine
 *
 * Scans the search paths not scanned yet and loads every plugin found
 * that is not loaded yet, except those turned off
 * ([method@PluginEngine.set_disabled]). Broken plugins are skipped and
 * recorded in [method@PluginEngine.get_problems]; this never fails.
 * Calling it again only picks up new search paths.
 */
void
sps_plugin_engine_load_all (SpsPluginEngine *self)
{
  g_return_if_fail (SPS_IS_PLUGIN_ENGINE (self));

  g_mutex_lock (&self->mutex);
  _sps_plugin_engine_scan_pending_paths (self);
  _sps_plugin_engine_load_pending (self);
  g_mutex_unlock (&self->mutex);
}

/**
 * sps_plugin_engine_list_plugins:
 * @self: a #SpsPluginEngine
 *
 * Lists the module names of the plugins found so far with a valid
 * `.plugin` file, loaded or not, by precedence.
 *
 * Returns: (transfer full) (array zero-terminated=1): module names
 */
char **
sps_plugin_engine_list_plugins (SpsPluginEngine *self)
{
  GStrvBuilder *builder;
  char **names;

  g_return_val_if_fail (SPS_IS_PLUGIN_ENGINE (self), NULL);

  builder = g_strv_builder_new ();

  g_mutex_lock (&self->mutex);
  for (guint i = 0; i < self->plugins->len; i++)
    {
      const PluginEntry *entry = g_ptr_array_index (self->plugins, i);

      g_strv_builder_add (builder, entry->module_name);
    }
  g_mutex_unlock (&self->mutex);

  names = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);

  return names;
}

/**
 * sps_plugin_engine_is_loaded:
 * @self: a #SpsPluginEngine
 * @module_name: the `Module` of a plugin
 *
 * Returns: %TRUE if that plugin is loaded
 */
gboolean
sps_plugin_engine_is_loaded (SpsPluginEngine *self,
                             const char      *module_name)
{
  const PluginEntry *entry;
  gboolean ret;

  g_return_val_if_fail (SPS_IS_PLUGIN_ENGINE (self), FALSE);
  g_return_val_if_fail (module_name != NULL, FALSE);

  g_mutex_lock (&self->mutex);
  entry = g_hash_table_lookup (self->plugins_by_name, module_name);
  ret = entry != NULL && entry->state == PLUGIN_LOADED;
  g_mutex_unlock (&self->mutex);

  return ret;
}

/**
 * sps_plugin_engine_get_problems:
 * @self: a #SpsPluginEngine
 *
 * Gets what went wrong while scanning and loading, one human-readable
 * string per problem, `PATH: what`, where PATH is the `.plugin` file (or
 * the search directory when no file is to blame). The array grows when
 * [method@PluginEngine.load_all] runs; do not hold it across such a call
 * on another thread.
 *
 * Returns: (transfer none) (element-type utf8): the problems
 */
const GPtrArray *
sps_plugin_engine_get_problems (SpsPluginEngine *self)
{
  g_return_val_if_fail (SPS_IS_PLUGIN_ENGINE (self), NULL);

  return self->problems;
}

static void
sps_plugin_engine_mark_origin (SpsPluginEngine   *self,
                               const PluginEntry *entry,
                               GObject           *extension)
{
  g_object_set_qdata_full (extension, extension_origin_quark,
                           engine_ref_new (self, entry->module_name), engine_ref_free);
}

/* Called with the mutex held. */
/* Whether some loaded plugin lists @format in X-Trace-Formats. Called
 * with the mutex held. */
static gboolean
any_plugin_lists_format (SpsPluginEngine *self,
                         const char      *format)
{
  for (guint i = 0; i < self->plugins->len; i++)
    {
      const PluginEntry *entry = g_ptr_array_index (self->plugins, i);

      if (entry->state == PLUGIN_LOADED && entry->formats != NULL &&
          g_strv_contains ((const char * const *) entry->formats, format))
        return TRUE;
    }
  return FALSE;
}

/* Extensions of @type from every loaded plugin, or with @format, from the
 * plugins that list it in X-Trace-Formats (when any does: a plugin that
 * lists none is asked too otherwise). Called with the mutex held. */
static GPtrArray *
sps_plugin_engine_create_extensions_locked (SpsPluginEngine *self,
                                            GType            type,
                                            const char      *format)
{
  gboolean by_format = format != NULL && any_plugin_lists_format (self, format);

  g_autoptr(GPtrArray) ret = g_ptr_array_new_with_free_func (g_object_unref);

  g_assert (SPS_IS_PLUGIN_ENGINE (self));

  for (guint i = 0; i < self->plugins->len; i++)
    {
      const PluginEntry *entry = g_ptr_array_index (self->plugins, i);
      g_autoptr(GPtrArray) messages = NULL;
      PeasPluginInfo *info;
      PeasExtension *extension;
      SpsPluginLogCapture capture;

      if (!(info = _sps_plugin_engine_get_loaded_info (self, entry)))
        continue;

      if (by_format && (entry->formats == NULL || !g_strv_contains ((const char * const *) entry->formats, format)))
        continue;

      if (!peas_engine_provides_extension (self->peas, info, type))
        continue;

      _sps_plugin_log_capture_begin (&capture);
      extension = peas_engine_create_extension (self->peas, info, type, NULL);
      messages = _sps_plugin_log_capture_end (&capture);

      for (guint j = 0; j < messages->len; j++)
        _sps_plugin_engine_add_problem (self, entry->plugin_file, "%s",
                                        (const char *)g_ptr_array_index (messages, j));

      if (extension == NULL)
        continue;

      if (!G_TYPE_CHECK_INSTANCE_TYPE (extension, type))
        {
          _sps_plugin_engine_add_problem (self, entry->plugin_file,
                                          /* Translators: the module name of a plugin, then
                                           * the names of two types (e.g. GObject, SpsImporter) */
                                          _("plugin “%s” made a %s that is not a %s"),
                                          entry->module_name,
                                          G_OBJECT_TYPE_NAME (extension),
                                          g_type_name (type));
          g_object_unref (extension);
          continue;
        }

      sps_plugin_engine_mark_origin (self, entry, G_OBJECT (extension));
      g_ptr_array_add (ret, extension);
    }

  return g_steal_pointer (&ret);
}

/**
 * sps_plugin_engine_create_importers:
 * @self: a #SpsPluginEngine
 *
 * Creates one new importer for every loaded plugin that provides one, by
 * plugin precedence.
 *
 * The array owns the extensions: freeing it (g_ptr_array_unref()) drops
 * them, which is why bindings see it as (transfer container).
 *
 * Returns: (transfer container) (element-type SpsImporter): new importers
 */
GPtrArray *
sps_plugin_engine_create_importers (SpsPluginEngine *self)
{
  GPtrArray *ret;

  g_return_val_if_fail (SPS_IS_PLUGIN_ENGINE (self), NULL);

  g_mutex_lock (&self->mutex);
  ret = sps_plugin_engine_create_extensions_locked (self, SPS_TYPE_IMPORTER, NULL);
  g_mutex_unlock (&self->mutex);

  return ret;
}

/**
 * sps_plugin_engine_create_exporters:
 * @self: a #SpsPluginEngine
 *
 * Creates one new exporter for every loaded plugin that provides one, by
 * plugin precedence.
 *
 * The array owns the extensions: freeing it (g_ptr_array_unref()) drops
 * them, which is why bindings see it as (transfer container).
 *
 * Returns: (transfer container) (element-type SpsExporter): new exporters
 */
GPtrArray *
sps_plugin_engine_create_exporters (SpsPluginEngine *self)
{
  GPtrArray *ret;

  g_return_val_if_fail (SPS_IS_PLUGIN_ENGINE (self), NULL);

  g_mutex_lock (&self->mutex);
  ret = sps_plugin_engine_create_extensions_locked (self, SPS_TYPE_EXPORTER, NULL);
  g_mutex_unlock (&self->mutex);

  return ret;
}

/**
 * sps_plugin_engine_create_extensions:
 * @self: a #SpsPluginEngine
 * @iface: an interface type, such as `SPS_TYPE_VIEW` of libspanscope-gtk
 *
 * Creates one new extension of @iface for every loaded plugin that
 * provides one, by plugin precedence. This is how the libraries built on
 * top of the core (which the engine cannot know) instantiate their own
 * extension points.
 *
 * The array owns the extensions: freeing it (g_ptr_array_unref()) drops
 * them, which is why bindings see it as (transfer container).
 *
 * Returns: (transfer container) (element-type GObject): new extensions
 */
GPtrArray *
sps_plugin_engine_create_extensions (SpsPluginEngine *self,
                                     GType            iface)
{
  GPtrArray *ret;

  g_return_val_if_fail (SPS_IS_PLUGIN_ENGINE (self), NULL);
  g_return_val_if_fail (G_TYPE_IS_INTERFACE (iface), NULL);

  g_mutex_lock (&self->mutex);
  ret = sps_plugin_engine_create_extensions_locked (self, iface, NULL);
  g_mutex_unlock (&self->mutex);

  return ret;
}

/**
 * sps_plugin_engine_create_importer:
 * @self: a #SpsPluginEngine
 * @format: a format name, as plugins list them in `X-Trace-Formats`
 *   (`etl`, `nettrace`…)
 *
 * The importer of a format, without probing a file: the first importer of
 * the plugins that list @format, else the importer named @format
 * (sps_importer_get_name()).
 *
 * Returns: (transfer full) (nullable): a new importer, or %NULL when no
 *   loaded plugin reads @format
 */
SpsImporter *
sps_plugin_engine_create_importer (SpsPluginEngine *self,
                                   const char      *format)
{
  g_autoptr(GPtrArray) importers = NULL;
  gboolean listed;

  g_return_val_if_fail (SPS_IS_PLUGIN_ENGINE (self), NULL);
  g_return_val_if_fail (format != NULL, NULL);

  g_mutex_lock (&self->mutex);
  listed = any_plugin_lists_format (self, format);
  importers = sps_plugin_engine_create_extensions_locked (self, SPS_TYPE_IMPORTER, format);
  g_mutex_unlock (&self->mutex);

  for (guint i = 0; i < importers->len; i++)
    {
      SpsImporter *importer = g_ptr_array_index (importers, i);

      if (listed || g_str_equal (sps_importer_get_name (importer), format))
        return g_object_ref (importer);
    }

  return NULL;
}

/**
 * sps_plugin_engine_create_exporter:
 * @self: a #SpsPluginEngine
 * @name: a format name, as given by sps_exporter_get_name()
 *
 * Only the plugins that list @name in `X-Trace-Formats` are asked, when
 * one does (the others' modules are then not touched), else every plugin.
 *
 * Returns: (transfer full) (nullable): a new exporter for @name, or %NULL
 *   when no loaded plugin writes that format
 */
SpsExporter *
sps_plugin_engine_create_exporter (SpsPluginEngine *self,
                                   const char      *name)
{
  g_autoptr(GPtrArray) exporters = NULL;

  g_return_val_if_fail (SPS_IS_PLUGIN_ENGINE (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  /* Only the plugins that say they write @name, when one does */
  g_mutex_lock (&self->mutex);
  exporters = sps_plugin_engine_create_extensions_locked (self, SPS_TYPE_EXPORTER, name);
  g_mutex_unlock (&self->mutex);

  for (guint i = 0; i < exporters->len; i++)
    {
      SpsExporter *exporter = g_ptr_array_index (exporters, i);

      if (g_str_equal (sps_exporter_get_name (exporter), name))
        return g_object_ref (exporter);
    }

  return NULL;
}

/**
 * sps_plugin_engine_report_failure:
 * @extension: (type GObject): an object, typically made by a plugin engine
 * @method: the interface method that failed, such as "SpsImporter.load"
 * @error: what went wrong
 *
 * Records that @extension broke the contract of @method (failed without
 * a reason, reported an error with success, made nothing): its plugin is
 * marked failed with that reason, and its engine creates no more
 * extensions of it. Objects that no plugin engine made are ignored, so
 * callers need not know where an extension came from.
 *
 * Returns: %TRUE if a plugin was blamed
 */
gboolean
sps_plugin_engine_report_failure (gpointer      extension,
                                  const char   *method,
                                  const GError *error)
{
  g_autoptr(SpsPluginEngine) self = NULL;
  g_autofree char *what = NULL;
  EngineRef *origin;
  PluginEntry *entry;

  g_return_val_if_fail (G_IS_OBJECT (extension), FALSE);
  g_return_val_if_fail (method != NULL, FALSE);
  g_return_val_if_fail (error != NULL, FALSE);

  if (extension_origin_quark == 0 ||
      !(origin = g_object_get_qdata (extension, extension_origin_quark)) ||
      !(self = g_weak_ref_get (&origin->engine)))
    return FALSE;

  g_mutex_lock (&self->mutex);
  if ((entry = g_hash_table_lookup (self->plugins_by_name, origin->name)) &&
      entry->state == PLUGIN_LOADED)
    {
      what = g_strdup_printf (/* Translators: the module name of a plugin, a method
                               * name such as SpsImporter.load (keep it), and why */
                              _("plugin “%s” failed in %s and is skipped: %s"),
                              entry->module_name, method, error->message);
      _sps_plugin_engine_fail (self, entry, what);
      g_object_set_qdata (extension, extension_blamed_quark, GINT_TO_POINTER (TRUE));
    }
  g_mutex_unlock (&self->mutex);

  return what != NULL;
}

/* Whether sps_plugin_engine_report_failure() blamed @extension's plugin. */
gboolean
_sps_plugin_engine_is_blamed (gpointer extension)
{
  g_return_val_if_fail (G_IS_OBJECT (extension), FALSE);

  return extension_blamed_quark != 0 &&
         g_object_get_qdata (extension, extension_blamed_quark) != NULL;
}

/* Enforces the contract of a method with a boolean result and an error,
 * for the wrappers of the interfaces: an error with success is a failure,
 * a failure gets @silent_message as its reason, and either way the
 * extension's plugin is to blame. Moves @local_error into @error. */
gboolean
_sps_plugin_engine_check_result (gpointer      extension,
                                 const char   *method,
                                 gboolean      ret,
                                 GError      **local_error,
                                 GError      **error,
                                 const char   *silent_message)
{
  g_assert (G_IS_OBJECT (extension));
  g_assert (local_error != NULL);

  if (*local_error != NULL)
    {
      if (ret)
        sps_plugin_engine_report_failure (extension, method, *local_error);
      g_propagate_error (error, g_steal_pointer (local_error));
      return FALSE;
    }

  if (!ret)
    {
      g_autoptr(GError) silent = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_FAILED, silent_message);

      sps_plugin_engine_report_failure (extension, method, silent);
      g_propagate_error (error, g_steal_pointer (&silent));
    }

  return ret;
}
