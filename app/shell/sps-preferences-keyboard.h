/* sps-preferences-keyboard.h: the Preferences' Keyboard page, the
 * shortcut editor
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SPS_TYPE_PREFERENCES_KEYBOARD (sps_preferences_keyboard_get_type ())

G_DECLARE_FINAL_TYPE (SpsPreferencesKeyboard, sps_preferences_keyboard, SPS, PREFERENCES_KEYBOARD, GtkWidget)

GtkWidget  *sps_preferences_keyboard_new         (GSettings              *keybindings);
const char *sps_preferences_keyboard_get_message (SpsPreferencesKeyboard *self);

G_END_DECLS
