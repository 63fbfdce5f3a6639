/* sps-plugin-engine-load-private.h: the state of SpsPluginEngine, shared
 * by the engine (sps-plugin-engine.c) and its finding and loading of
 * plugins (sps-plugin-engine-load.c)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <libpeas/peas.h>

#include "sps-plugin-engine.h"

G_BEGIN_DECLS

typedef enum
{
  PLUGIN_PENDING,
  PLUGIN_LOADED,
  PLUGIN_BROKEN,
  PLUGIN_NOT_NEEDED,   /* of kinds the program does not load */
  PLUGIN_DISABLED,     /* turned off by the user */
} PluginState;

typedef struct
{
  char        *module_name;
  char        *name;
  char        *plugin_file;
  /* Why it is broken, translated; NULL unless PLUGIN_BROKEN */
  char        *error;
  /* Kind ids it provides (see extension_kinds), once loaded */
  GStrv        kinds;
  /* What its .plugin file declares (X-Spanscope-Kind, X-Trace-Formats) */
  SpsPluginKind declared;
  GStrv        formats;
  PluginState  state;
} PluginEntry;

typedef struct
{
  char *module_dir;
  char *data_dir;
} SearchPath;

struct _SpsPluginEngine
{
  GObject      parent_instance;

  GMutex       mutex;
  PeasEngine   *peas;

  /* SearchPath*, by precedence; the first n_scanned were given to libpeas */
  GPtrArray    *search_paths;
  guint        n_scanned;

  /* PluginEntry*, by precedence, one per module name */
  GPtrArray    *plugins;
  GHashTable   *plugins_by_name;
  /* PluginEntry* without a module name: .plugin files that are invalid */
  GPtrArray    *rejected;

  /* Human-readable "PATH: what" strings */
  GPtrArray    *problems;

  /* Where ::plugin-failed is emitted */
  GMainContext *context;

  /* The kinds this program loads */
  SpsPluginKind kinds;

  /* Module names the user turned off, and the settings that say so */
  GHashTable   *disabled;
  GSettings    *settings;
};

void                  _sps_plugin_engine_add_problem        (SpsPluginEngine *self,
                                                             const char      *path,
                                                             const char      *format,
                                                             ...) G_GNUC_PRINTF (3, 4);
void                  _sps_plugin_engine_fail               (SpsPluginEngine *self,
                                                             PluginEntry     *entry,
                                                             const char      *what);
void                  _sps_plugin_engine_insert_search_path (SpsPluginEngine *self,
                                                             const char      *module_dir,
                                                             const char      *data_dir);
void                  _sps_plugin_engine_scan_pending_paths (SpsPluginEngine *self);
PeasPluginInfo       *_sps_plugin_engine_get_loaded_info    (SpsPluginEngine   *self,
                                                             const PluginEntry *entry);
void                  _sps_plugin_engine_load_entry         (SpsPluginEngine *self,
                                                             PluginEntry     *entry);
void                  _sps_plugin_engine_load_pending       (SpsPluginEngine *self);
void                  _sps_plugin_engine_bind_app_settings  (SpsPluginEngine *self);

G_END_DECLS
