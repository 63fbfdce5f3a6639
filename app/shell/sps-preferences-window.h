/* sps-preferences-window.h: the Preferences (Ctrl+,)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>
#include <spanscope-core.h>

#include "sps-application.h"

G_BEGIN_DECLS

#define SPS_TYPE_PREFERENCES_WINDOW (sps_preferences_window_get_type ())

G_DECLARE_FINAL_TYPE (SpsPreferencesWindow, sps_preferences_window, SPS, PREFERENCES_WINDOW, GtkWindow)

SpsPreferencesWindow *sps_preferences_window_new      (SpsApplication       *application,
                                                       SpsPluginEngine      *engine);
void                  sps_preferences_window_set_page (SpsPreferencesWindow *self,
                                                       const char           *page);
const char           *sps_preferences_window_get_page (SpsPreferencesWindow *self);

G_END_DECLS
