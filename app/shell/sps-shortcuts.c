/* sps-shortcuts.c: the application's key bindings, one table for the
 * accelerators and for the shortcuts window
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The application sets its accelerators from this table (reading each
 * action's keys from the settings), the Preferences' Keyboard page edits
 * those settings, and the shortcuts window (Ctrl+?)
 * is generated from the same table and from the accelerators the
 * application actually set, so it lists every binding of every action,
 * alternates and navigation keys included, and nothing else.
 */

#define G_LOG_DOMAIN "sps-shortcuts"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-shortcuts.h"
#include "sps-window.h"

enum {
  GROUP_TRACES,
  GROUP_VIEW,
  GROUP_SELECTION,
  N_GROUPS
};

static const char * const group_titles[N_GROUPS] = {
  N_("Traces"),
  N_("View"),
  N_("Selection"),
};

static const SpsShortcut shortcuts[] = {
  { "open", "win.open", FALSE, GROUP_TRACES, N_("Open a trace") },
  { "close", "win.close", FALSE, GROUP_TRACES, N_("Close the window") },
  { "quit", "app.quit", FALSE, GROUP_TRACES, N_("Quit") },
  { "search", "win.search", FALSE, GROUP_TRACES, N_("Search slices") },
  /* Enter is a navigation key: on the twin, so a docked list keeps it */
  { "search-next", "win.search-next", TRUE, GROUP_TRACES, N_("Select the next search match") },
  { "search-prev", "win.search-prev", TRUE, GROUP_TRACES, N_("Select the previous search match") },
  { "preferences", "app.preferences", FALSE, GROUP_TRACES, N_("Preferences") },
  { "shortcuts", "win.show-help-overlay", FALSE, GROUP_TRACES, N_("Keyboard shortcuts") },
  { "zoom-in", "win.zoom-in", TRUE, GROUP_VIEW, N_("Zoom in") },
  { "zoom-out", "win.zoom-out", TRUE, GROUP_VIEW, N_("Zoom out") },
  { "pan-left", "win.pan-left", TRUE, GROUP_VIEW, N_("Pan left") },
  { "pan-right", "win.pan-right", TRUE, GROUP_VIEW, N_("Pan right") },
  { "scroll-up", "win.scroll-up", TRUE, GROUP_VIEW, N_("Scroll up") },
  { "scroll-down", "win.scroll-down", TRUE, GROUP_VIEW, N_("Scroll down") },
  { "fit", "win.fit", TRUE, GROUP_VIEW, N_("Fit the selection, the range or the trace") },
  { "go-to-time", "win.go-to-time", FALSE, GROUP_VIEW, N_("Go to a time") },
  { "add-flag", "win.add-flag", TRUE, GROUP_VIEW, N_("Flag the time under the pointer") },
  { "ruler-menu", "win.ruler-menu", TRUE, GROUP_VIEW, N_("Open the ruler's menu") },
  { "select-parent", "win.select-parent", TRUE, GROUP_SELECTION, N_("Select the parent slice") },
  { "select-child", "win.select-child", TRUE, GROUP_SELECTION, N_("Select the first child") },
  { "select-prev", "win.select-prev", TRUE, GROUP_SELECTION, N_("Select the previous sibling") },
  { "select-next", "win.select-next", TRUE, GROUP_SELECTION, N_("Select the next sibling") },
  { "clear", "win.clear", TRUE, GROUP_SELECTION, N_("Clear the selection and the range") },
};

/**
 * _sps_shortcuts_get:
 * @n_shortcuts: (out): the number of entries
 *
 * Returns: the table of every key binding the application sets
 */
const SpsShortcut *
_sps_shortcuts_get (guint *n_shortcuts)
{
  g_assert (n_shortcuts != NULL);

  *n_shortcuts = G_N_ELEMENTS (shortcuts);
  return shortcuts;
}

const char *
_sps_shortcuts_get_group_title (guint group)
{
  g_assert (group < N_GROUPS);

  return _(group_titles[group]);
}

guint
_sps_shortcuts_get_n_groups (void)
{
  return N_GROUPS;
}

/**
 * _sps_shortcuts_find:
 * @settings_key: a key of the keybindings schema
 *
 * Returns: (nullable): the entry of the table for @settings_key
 */
const SpsShortcut *
_sps_shortcuts_find (const char *settings_key)
{
  g_assert (settings_key != NULL);

  for (guint i = 0; i < G_N_ELEMENTS (shortcuts); i++)
    if (g_str_equal (shortcuts[i].settings_key, settings_key))
      return &shortcuts[i];

  return NULL;
}

static gboolean
is_modifier_key (guint keyval)
{
  switch (keyval)
    {
    case GDK_KEY_Shift_L: case GDK_KEY_Shift_R: case GDK_KEY_Control_L: case GDK_KEY_Control_R:
    case GDK_KEY_Alt_L: case GDK_KEY_Alt_R: case GDK_KEY_Meta_L: case GDK_KEY_Meta_R:
    case GDK_KEY_Super_L: case GDK_KEY_Super_R: case GDK_KEY_Hyper_L: case GDK_KEY_Hyper_R:
    case GDK_KEY_Caps_Lock: case GDK_KEY_Shift_Lock: case GDK_KEY_ISO_Level3_Shift:
    case GDK_KEY_ISO_Level5_Shift: case GDK_KEY_Num_Lock:
      return TRUE;
    default:
      return FALSE;
    }
}

/* Whether the keyboard types @keyval only with Shift held (“?” is Shift
 * and “/” on a US keyboard): then Shift is part of the key, and Ctrl+?
 * is the same binding as Ctrl+Shift+?, so it is dropped. */
static gboolean
shift_is_consumed (guint keyval)
{
  GdkDisplay *display = gdk_display_get_default ();
  g_autofree GdkKeymapKey *keys = NULL;
  int n_keys = 0;

  if (display == NULL || !gdk_display_map_keyval (display, keyval, &keys, &n_keys))
    return FALSE;

  for (int i = 0; i < n_keys; i++)
    if (keys[i].level == 0)
      return FALSE;

  return n_keys > 0;
}

/**
 * _sps_shortcuts_canonical:
 * @keyval: the key pressed
 * @mods: the modifiers held
 *
 * One spelling for each key press, so that two bindings that a press
 * would match compare equal as strings: letters in lower case (Shift+A
 * is "<Shift>a"), Shift dropped when it only selects the symbol
 * ("<Control>question"), modifiers GTK does not bind (Caps Lock, Num
 * Lock) ignored.
 *
 * Returns: (transfer full) (nullable): the accelerator, or %NULL for a
 *   modifier key on its own
 */
char *
_sps_shortcuts_canonical (guint           keyval,
                          GdkModifierType mods)
{
  guint lower = gdk_keyval_to_lower (keyval);

  if (keyval == 0 || is_modifier_key (keyval))
    return NULL;

  /* An upper-case letter is Shift and the letter, unless Caps Lock
   * made it upper case */
  if (lower != keyval && (mods & GDK_LOCK_MASK) == 0)
    mods |= GDK_SHIFT_MASK;
  mods &= gtk_accelerator_get_default_mod_mask ();
  if (lower == keyval && (mods & GDK_SHIFT_MASK) != 0 && shift_is_consumed (keyval))
    mods &= ~GDK_SHIFT_MASK;

  return gtk_accelerator_name (lower, mods);
}

/**
 * _sps_shortcuts_canonical_accel:
 * @accel: an accelerator as the settings hold it
 *
 * Returns: (transfer full) (nullable): _sps_shortcuts_canonical() of
 *   @accel, %NULL when it is not an accelerator
 */
char *
_sps_shortcuts_canonical_accel (const char *accel)
{
  GdkModifierType mods;
  guint keyval;

  g_assert (accel != NULL);

  if (!gtk_accelerator_parse (accel, &keyval, &mods) || keyval == 0)
    return NULL;

  return _sps_shortcuts_canonical (keyval, mods);
}

/**
 * _sps_shortcuts_find_user:
 * @keybindings: the keybindings settings
 * @accel: an accelerator
 * @except: (nullable): an action whose binding is being replaced
 * @except_slot: which of @except's bindings is being replaced
 *
 * Which action already uses @accel, any of its keys (alternates and
 * further keys included), except the binding being replaced.
 *
 * Returns: (nullable): the action that has @accel, %NULL when it is free
 */
const SpsShortcut *
_sps_shortcuts_find_user (GSettings         *keybindings,
                          const char        *accel,
                          const SpsShortcut *except,
                          SpsShortcutSlot    except_slot)
{
  g_autofree char *wanted = NULL;

  g_assert (G_IS_SETTINGS (keybindings));
  g_assert (accel != NULL);

  if (!(wanted = _sps_shortcuts_canonical_accel (accel)))
    return NULL;

  for (guint i = 0; i < G_N_ELEMENTS (shortcuts); i++)
    {
      g_auto(GStrv) accels = g_settings_get_strv (keybindings, shortcuts[i].settings_key);

      for (guint j = 0; accels[j] != NULL; j++)
        {
          g_autofree char *have = NULL;

          if (&shortcuts[i] == except && j == except_slot)
            continue;
          if ((have = _sps_shortcuts_canonical_accel (accels[j])) && g_str_equal (have, wanted))
            return &shortcuts[i];
        }
    }

  return NULL;
}

/**
 * _sps_shortcuts_set_slot:
 * @keybindings: the keybindings settings
 * @shortcut: an entry of the table
 * @slot: its primary or alternate binding
 * @accel: (nullable): the new binding, %NULL or "" to clear it
 *
 * Replaces one binding of @shortcut's key, keeping the others in their
 * places: a cleared primary stays as "" while an alternate follows, and
 * empty places at the end are dropped.
 */
void
_sps_shortcuts_set_slot (GSettings         *keybindings,
                         const SpsShortcut *shortcut,
                         SpsShortcutSlot    slot,
                         const char        *accel)
{
  g_auto(GStrv) old = NULL;
  g_autoptr(GPtrArray) accels = g_ptr_array_new ();
  guint n_old;

  g_assert (G_IS_SETTINGS (keybindings));
  g_assert (shortcut != NULL);
  g_assert (slot < SPS_SHORTCUT_N_SLOTS);

  old = g_settings_get_strv (keybindings, shortcut->settings_key);
  n_old = g_strv_length (old);

  for (guint i = 0; i < MAX (n_old, (guint) slot + 1); i++)
    {
      if (i == slot)
        g_ptr_array_add (accels, (gpointer) (accel != NULL ? accel : ""));
      else
        g_ptr_array_add (accels, i < n_old ? old[i] : (char *) "");
    }
  while (accels->len > 0 && ((const char *) g_ptr_array_index (accels, accels->len - 1))[0] == '\0')
    g_ptr_array_set_size (accels, accels->len - 1);
  g_ptr_array_add (accels, NULL);

  g_settings_set_strv (keybindings, shortcut->settings_key, (const char * const *) accels->pdata);
}

/**
 * _sps_shortcuts_dup_accels:
 * @application: the application
 * @shortcut: an entry of the table
 *
 * The accelerators @application has set for @shortcut's action and, for
 * a timeline action, its navigation twin, in the order set, separated by
 * spaces (the syntax of #GtkShortcutsShortcut:accelerator).
 *
 * Returns: (transfer full): the accelerators, "" when none is set
 */
char *
_sps_shortcuts_dup_accels (GtkApplication    *application,
                           const SpsShortcut *shortcut)
{
  g_autoptr(GString) text = g_string_new (NULL);

  g_assert (GTK_IS_APPLICATION (application));
  g_assert (shortcut != NULL);

  for (guint twin = 0; twin < (shortcut->timeline ? 2u : 1u); twin++)
    {
      g_autofree char *action = g_strconcat (shortcut->action, twin ? SPS_WINDOW_NAV_SUFFIX : "", NULL);
      g_auto(GStrv) accels = gtk_application_get_accels_for_action (application, action);

      for (guint i = 0; accels[i] != NULL; i++)
        {
          if (text->len > 0)
            g_string_append_c (text, ' ');
          g_string_append (text, accels[i]);
        }
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
append_property (GString    *xml,
                 const char *name,
                 const char *value)
{
  g_autofree char *escaped = g_markup_escape_text (value, -1);

  g_string_append_printf (xml, "<property name=\"%s\">%s</property>", name, escaped);
}

/**
 * _sps_shortcuts_window_new:
 * @application: the application, its accelerators set
 *
 * Builds the shortcuts window: one row per action of the table that has
 * a binding, showing all of its accelerators (the settings' alternates
 * and the navigation twin's keys). GTK 4.8 has no API to add sections
 * and groups to a #GtkShortcutsWindow from code, so the window is
 * described in GtkBuilder XML generated from the table.
 *
 * Returns: (transfer full): a new #GtkShortcutsWindow
 */
GtkWidget *
_sps_shortcuts_window_new (GtkApplication *application)
{
  g_autoptr(GString) xml = g_string_new (NULL);
  g_autoptr(GtkBuilder) builder = NULL;
  g_autoptr(GError) error = NULL;
  GObject *window;

  g_assert (GTK_IS_APPLICATION (application));

  g_string_append (xml,
                   "<interface>"
                   "<object class=\"GtkShortcutsWindow\" id=\"window\">"
                   "<property name=\"modal\">True</property>"
                   "<child><object class=\"GtkShortcutsSection\">"
                   "<property name=\"section-name\">shortcuts</property>"
                   "<property name=\"max-height\">20</property>");

  for (guint group = 0; group < N_GROUPS; group++)
    {
      g_string_append (xml, "<child><object class=\"GtkShortcutsGroup\">");
      append_property (xml, "title", _(group_titles[group]));

      for (guint i = 0; i < G_N_ELEMENTS (shortcuts); i++)
        {
          g_autofree char *accels = NULL;

          if (shortcuts[i].group != group)
            continue;
          /* An action the user left without a key has nothing to show */
          accels = _sps_shortcuts_dup_accels (application, &shortcuts[i]);
          if (accels[0] == '\0')
            continue;

          g_string_append (xml, "<child><object class=\"GtkShortcutsShortcut\">");
          append_property (xml, "title", _(shortcuts[i].title));
          append_property (xml, "accelerator", accels);
          g_string_append (xml, "</object></child>");
        }

      g_string_append (xml, "</object></child>");
    }

  g_string_append (xml, "</object></child></object></interface>");

  builder = gtk_builder_new ();
  /* The XML is ours and every value is escaped: a failure is a bug. */
  if (!gtk_builder_add_from_string (builder, xml->str, xml->len, &error))
    g_error ("The shortcuts window does not build: %s", error->message);

  window = gtk_builder_get_object (builder, "window");

  return GTK_WIDGET (g_object_ref_sink (window));
}
