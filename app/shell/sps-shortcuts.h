/* sps-shortcuts.h: the application's key bindings, one table for the
 * accelerators and for the shortcuts window
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef struct
{
  /* In the keybindings schema; NULL for a fixed binding */
  const char *settings_key;
  /* The binding when there is no settings key */
  const char *fixed_accel;
  const char *action;
  /* A timeline action: its navigation keys go to the twin action
   * (SPS_WINDOW_NAV_SUFFIX), which a focused docked panel turns off */
  gboolean    timeline;
  guint       group;
  /* Untranslated (N_()), as the shortcuts window lists it */
  const char *title;
} SpsShortcut;

const SpsShortcut *_sps_shortcuts_get        (guint          *n_shortcuts);
char              *_sps_shortcuts_dup_accels (GtkApplication *application,
                                              const SpsShortcut *shortcut);
GtkWidget         *_sps_shortcuts_window_new (GtkApplication *application);

G_END_DECLS
