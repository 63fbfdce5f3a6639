/* sps-shortcuts.c: the application's key bindings, one table for the
 * accelerators and for the shortcuts window
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The application sets its accelerators from this table (reading the
 * rebindable ones from the settings), and the shortcuts window (Ctrl+?)
 * is generated from the same table and from the accelerators the
 * application actually set, so it lists every binding of every action,
 * alternates and navigation keys included, and nothing else.
 */

#define G_LOG_DOMAIN "sps-shortcuts"

#include "config.h"

#include <glib/gi18n.h>

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
  { "open", NULL, "win.open", FALSE, GROUP_TRACES, N_("Open a trace") },
  { NULL, "<Control>w", "win.close", FALSE, GROUP_TRACES, N_("Close the window") },
  { NULL, "<Control>q", "app.quit", FALSE, GROUP_TRACES, N_("Quit") },
  { "search", NULL, "win.search", FALSE, GROUP_TRACES, N_("Search slices") },
  /* Enter is a navigation key: on the twin, so a docked list keeps it */
  { "search-next", NULL, "win.search-next", TRUE, GROUP_TRACES, N_("Select the next search match") },
  { "search-prev", NULL, "win.search-prev", TRUE, GROUP_TRACES, N_("Select the previous search match") },
  { NULL, "<Control>question", "win.show-help-overlay", FALSE, GROUP_TRACES, N_("Keyboard shortcuts") },
  { "zoom-in", NULL, "win.zoom-in", TRUE, GROUP_VIEW, N_("Zoom in") },
  { "zoom-out", NULL, "win.zoom-out", TRUE, GROUP_VIEW, N_("Zoom out") },
  { "pan-left", NULL, "win.pan-left", TRUE, GROUP_VIEW, N_("Pan left") },
  { "pan-right", NULL, "win.pan-right", TRUE, GROUP_VIEW, N_("Pan right") },
  { "scroll-up", NULL, "win.scroll-up", TRUE, GROUP_VIEW, N_("Scroll up") },
  { "scroll-down", NULL, "win.scroll-down", TRUE, GROUP_VIEW, N_("Scroll down") },
  { "fit", NULL, "win.fit", TRUE, GROUP_VIEW, N_("Fit the selection, the range or the trace") },
  { "go-to-time", NULL, "win.go-to-time", FALSE, GROUP_VIEW, N_("Go to a time") },
  { "add-flag", NULL, "win.add-flag", TRUE, GROUP_VIEW, N_("Flag the time under the pointer") },
  { "ruler-menu", NULL, "win.ruler-menu", TRUE, GROUP_VIEW, N_("Open the ruler's menu") },
  { "select-parent", NULL, "win.select-parent", TRUE, GROUP_SELECTION, N_("Select the parent slice") },
  { "select-child", NULL, "win.select-child", TRUE, GROUP_SELECTION, N_("Select the first child") },
  { "select-prev", NULL, "win.select-prev", TRUE, GROUP_SELECTION, N_("Select the previous sibling") },
  { "select-next", NULL, "win.select-next", TRUE, GROUP_SELECTION, N_("Select the next sibling") },
  { "clear", NULL, "win.clear", TRUE, GROUP_SELECTION, N_("Clear the selection and the range") },
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
