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
  /* Its key in the keybindings schema */
  const char *settings_key;
  const char *action;
  /* A timeline action: its navigation keys go to the twin action
   * (SPS_WINDOW_NAV_SUFFIX), which a focused docked panel turns off */
  gboolean    timeline;
  guint       group;
  /* Untranslated (N_()), as the shortcuts window lists it */
  const char *title;
} SpsShortcut;

/* The bindings the Keyboard page edits: the first two of each key */
typedef enum
{
  SPS_SHORTCUT_PRIMARY,
  SPS_SHORTCUT_ALTERNATE,
  SPS_SHORTCUT_N_SLOTS
} SpsShortcutSlot;

const SpsShortcut *_sps_shortcuts_get          (guint             *n_shortcuts);
const char        *_sps_shortcuts_get_group_title (guint           group);
guint              _sps_shortcuts_get_n_groups (void);
const SpsShortcut *_sps_shortcuts_find         (const char        *settings_key);
char              *_sps_shortcuts_dup_accels   (GtkApplication    *application,
                                                const SpsShortcut *shortcut);
GtkWidget         *_sps_shortcuts_window_new   (GtkApplication    *application);
char              *_sps_shortcuts_canonical    (guint              keyval,
                                                GdkModifierType    mods);
char              *_sps_shortcuts_canonical_accel (const char     *accel);
const SpsShortcut *_sps_shortcuts_find_user    (GSettings         *keybindings,
                                                const char        *accel,
                                                const SpsShortcut *except,
                                                SpsShortcutSlot    except_slot);
void               _sps_shortcuts_set_slot     (GSettings         *keybindings,
                                                const SpsShortcut *shortcut,
                                                SpsShortcutSlot    slot,
                                                const char        *accel);

G_END_DECLS
