/* sps-plugin-status.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_CORE_INSIDE) && !defined (SPANSCOPE_CORE_COMPILATION)
# error "Only <spanscope-core.h> can be included directly."
#endif

#include <glib-object.h>

#include "sps-version-macros.h"

G_BEGIN_DECLS

/**
 * SpsPluginState:
 * @SPS_PLUGIN_STATE_LOADED: the plugin is loaded and in use
 * @SPS_PLUGIN_STATE_FAILED: the plugin could not be loaded, registers
 *   nothing Spanscope uses, or broke the contract of one of its interface
 *   methods; it is skipped
 * @SPS_PLUGIN_STATE_NOT_NEEDED: the plugin provides only kinds this
 *   program does not load (views, in `spanscope-cli`); its kinds are the
 *   ones its plugin file declares
 * @SPS_PLUGIN_STATE_DISABLED: the user turned the plugin off (the
 *   `disabled-plugins` setting); its kinds are the ones its plugin file
 *   declares
 *
 * What became of a plugin.
 */
typedef enum
{
  SPS_PLUGIN_STATE_LOADED,
  SPS_PLUGIN_STATE_FAILED,
  SPS_PLUGIN_STATE_NOT_NEEDED,
  SPS_PLUGIN_STATE_DISABLED,
} SpsPluginState;

#define SPS_TYPE_PLUGIN_STATUS (sps_plugin_status_get_type ())

SPS_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (SpsPluginStatus, sps_plugin_status, SPS, PLUGIN_STATUS, GObject)

SPS_AVAILABLE_IN_ALL
const char         *sps_plugin_status_get_module_name (SpsPluginStatus *self);
SPS_AVAILABLE_IN_ALL
const char         *sps_plugin_status_get_name        (SpsPluginStatus *self);
SPS_AVAILABLE_IN_ALL
const char         *sps_plugin_status_get_plugin_file (SpsPluginStatus *self);
SPS_AVAILABLE_IN_ALL
const char * const *sps_plugin_status_get_kinds       (SpsPluginStatus *self);
SPS_AVAILABLE_IN_ALL
SpsPluginState      sps_plugin_status_get_state       (SpsPluginStatus *self);
SPS_AVAILABLE_IN_ALL
const char         *sps_plugin_status_get_error       (SpsPluginStatus *self);
SPS_AVAILABLE_IN_ALL
const char         *sps_plugin_status_get_description (SpsPluginStatus *self);
SPS_AVAILABLE_IN_ALL
const char * const *sps_plugin_status_get_authors     (SpsPluginStatus *self);
SPS_AVAILABLE_IN_ALL
const char         *sps_plugin_status_get_version     (SpsPluginStatus *self);
SPS_AVAILABLE_IN_ALL
const char         *sps_plugin_status_get_website     (SpsPluginStatus *self);

SPS_AVAILABLE_IN_ALL
const char         *sps_plugin_kind_get_label         (const char      *kind);

G_END_DECLS
