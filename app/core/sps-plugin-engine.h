/* sps-plugin-engine.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_CORE_INSIDE) && !defined (SPANSCOPE_CORE_COMPILATION)
# error "Only <spanscope-core.h> can be included directly."
#endif

#include <gio/gio.h>

#include "sps-exporter.h"
#include "sps-importer.h"
#include "sps-plugin-status.h"

G_BEGIN_DECLS

/**
 * SPS_PLUGIN_API_VERSION:
 *
 * The plugin API this Spanscope offers. A plugin says which one it was
 * written for with `X-Spanscope-API=` in its `.plugin` file; the engine
 * refuses a plugin of another API.
 */
#define SPS_PLUGIN_API_VERSION 1

/**
 * SpsPluginKind:
 * @SPS_PLUGIN_KIND_IMPORTER: reads trace files (#SpsImporter)
 * @SPS_PLUGIN_KIND_EXPORTER: writes traces (#SpsExporter)
 * @SPS_PLUGIN_KIND_ANALYSIS: derives rows of a trace (#SpsAnalysis)
 * @SPS_PLUGIN_KIND_VIEW: a panel of the window (SpsView, in the GTK library)
 * @SPS_PLUGIN_KIND_ALL: every kind
 *
 * What a plugin provides, as its `.plugin` file declares it with
 * `X-Spanscope-Kind=` (a list: `importer;exporter`), and what a program
 * loads (sps_plugin_engine_set_kinds()).
 */
typedef enum /*< flags >*/
{
  SPS_PLUGIN_KIND_IMPORTER = 1 << 0,
  SPS_PLUGIN_KIND_EXPORTER = 1 << 1,
  SPS_PLUGIN_KIND_ANALYSIS = 1 << 2,
  SPS_PLUGIN_KIND_VIEW     = 1 << 3,
  SPS_PLUGIN_KIND_ALL      = 0xf,
} SpsPluginKind;

#define SPS_TYPE_PLUGIN_ENGINE (sps_plugin_engine_get_type ())

SPS_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (SpsPluginEngine, sps_plugin_engine, SPS, PLUGIN_ENGINE, GObject)

SPS_AVAILABLE_IN_ALL
SpsPluginEngine *sps_plugin_engine_new               (void);
SPS_AVAILABLE_IN_ALL
SpsPluginEngine *sps_plugin_engine_get_default       (void);
SPS_AVAILABLE_IN_ALL
void             sps_plugin_engine_set_default_kinds (SpsPluginKind    kinds);
SPS_AVAILABLE_IN_ALL
void             sps_plugin_engine_set_kinds         (SpsPluginEngine *self,
                                                      SpsPluginKind    kinds);
SPS_AVAILABLE_IN_ALL
SpsPluginKind    sps_plugin_engine_get_kinds         (SpsPluginEngine *self);
SPS_AVAILABLE_IN_ALL
void             sps_plugin_engine_add_search_path   (SpsPluginEngine *self,
                                                      const char      *dir);
SPS_AVAILABLE_IN_ALL
void             sps_plugin_engine_load_all          (SpsPluginEngine *self);
SPS_AVAILABLE_IN_ALL
void             sps_plugin_engine_set_disabled      (SpsPluginEngine    *self,
                                                      const char * const *module_names);
SPS_AVAILABLE_IN_ALL
char           **sps_plugin_engine_dup_disabled      (SpsPluginEngine *self);
SPS_AVAILABLE_IN_ALL
void             sps_plugin_engine_bind_settings     (SpsPluginEngine *self,
                                                      GSettings       *settings);
SPS_AVAILABLE_IN_ALL
char           **sps_plugin_engine_list_plugins      (SpsPluginEngine *self);
SPS_AVAILABLE_IN_ALL
gboolean         sps_plugin_engine_is_loaded         (SpsPluginEngine *self,
                                                      const char      *module_name);
SPS_AVAILABLE_IN_ALL
const GPtrArray *sps_plugin_engine_get_problems      (SpsPluginEngine *self);
SPS_AVAILABLE_IN_ALL
GPtrArray       *sps_plugin_engine_create_importers  (SpsPluginEngine *self);
SPS_AVAILABLE_IN_ALL
SpsImporter     *sps_plugin_engine_create_importer   (SpsPluginEngine *self,
                                                      const char      *format);
SPS_AVAILABLE_IN_ALL
SpsExporter     *sps_plugin_engine_create_exporter   (SpsPluginEngine *self,
                                                      const char      *name);
SPS_AVAILABLE_IN_ALL
GPtrArray       *sps_plugin_engine_create_exporters  (SpsPluginEngine *self);
SPS_AVAILABLE_IN_ALL
GPtrArray       *sps_plugin_engine_create_extensions (SpsPluginEngine *self,
                                                      GType            iface);
SPS_AVAILABLE_IN_ALL
GListModel      *sps_plugin_engine_list_status       (SpsPluginEngine *self);
SPS_AVAILABLE_IN_ALL
guint            sps_plugin_engine_count_failed      (SpsPluginEngine *self);
SPS_AVAILABLE_IN_ALL
gboolean         sps_plugin_engine_report_failure    (gpointer         extension,
                                                      const char      *method,
                                                      const GError    *error);

G_END_DECLS
