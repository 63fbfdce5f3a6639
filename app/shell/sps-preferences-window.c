/* sps-preferences-window.c: the Preferences (Ctrl+,)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-preferences-window"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-plugins-page.h"
#include "sps-preferences-keyboard.h"
#include "sps-preferences-private.h"
#include "sps-preferences-window.h"

/**
 * SpsPreferencesWindow:
 *
 * The application's preferences, in GNOME's layout built from plain GTK
 * widgets (the project does not use libadwaita, see docs/architecture.md):
 * a header bar whose switcher chooses a page, each page a column of boxed
 * lists. Appearance edits the settings that every window follows at once
 * (they are bound, there is no Apply button), Plugins is the plugin
 * manager and Keyboard edits every key binding of the binding table.
 */

struct _SpsPreferencesWindow
{
  GtkWindow  parent_instance;

  GSettings *settings;
  GtkStack  *stack;
};

G_DEFINE_FINAL_TYPE (SpsPreferencesWindow, sps_preferences_window, GTK_TYPE_WINDOW)

/* Page helpers shared by the pages (sps-preferences-private.h) */

/**
 * _sps_preferences_page_new:
 *
 * Returns: (transfer floating): a scrolled column for groups; add them
 *   with _sps_preferences_group_new()
 */
GtkWidget *
_sps_preferences_page_new (void)
{
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *column = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);

  gtk_widget_add_css_class (column, "sps-preferences-page");
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), column);
  gtk_widget_set_vexpand (scrolled, TRUE);

  return scrolled;
}

/**
 * _sps_preferences_group_new:
 * @page: a page from _sps_preferences_page_new()
 * @title: (nullable): the group's heading
 * @description: (nullable): a line under the heading
 *
 * Returns: (transfer none): the group's list, to add rows to
 */
GtkWidget *
_sps_preferences_group_new (GtkWidget  *page,
                            const char *title,
                            const char *description)
{
  GtkWidget *column = gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (page));
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *list = gtk_list_box_new ();

  /* The scrolled window wraps the column in a viewport */
  if (GTK_IS_VIEWPORT (column))
    column = gtk_viewport_get_child (GTK_VIEWPORT (column));

  if (title != NULL)
    {
      GtkWidget *label = gtk_label_new (title);

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_add_css_class (label, "heading");
      gtk_box_append (GTK_BOX (box), label);
    }
  if (description != NULL)
    {
      GtkWidget *label = gtk_label_new (description);

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_box_append (GTK_BOX (box), label);
    }

  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (list, "boxed-list");
  gtk_widget_add_css_class (list, "sps-boxed-list");
  gtk_box_append (GTK_BOX (box), list);
  gtk_widget_set_margin_bottom (box, 18);
  gtk_box_append (GTK_BOX (column), box);

  return list;
}

/**
 * _sps_preferences_row_new:
 * @group: a group's list
 * @name: (nullable): the row's widget name (tests find rows by it)
 * @title: what the row sets
 * @subtitle: (nullable): a line under the title
 * @suffix: (nullable): the control, at the row's end
 *
 * Returns: (transfer none): the row, added to @group
 */
GtkWidget *
_sps_preferences_row_new (GtkWidget  *group,
                          const char *name,
                          const char *title,
                          const char *subtitle,
                          GtkWidget  *suffix)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *texts = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *label = gtk_label_new (title);
  GtkWidget *sub = gtk_label_new (subtitle);

  /* Wrapped labels ask for a line of up to 40 characters at most, so a
   * long translation wraps instead of squeezing the control */
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 40);
  gtk_box_append (GTK_BOX (texts), label);

  gtk_label_set_xalign (GTK_LABEL (sub), 0);
  gtk_label_set_wrap (GTK_LABEL (sub), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (sub), 40);
  gtk_widget_add_css_class (sub, "dim-label");
  gtk_widget_add_css_class (sub, "caption");
  gtk_widget_set_visible (sub, subtitle != NULL && subtitle[0] != '\0');
  gtk_box_append (GTK_BOX (texts), sub);

  gtk_widget_set_hexpand (texts, TRUE);
  gtk_widget_set_valign (texts, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (box), texts);
  if (suffix != NULL)
    {
      gtk_widget_set_valign (suffix, GTK_ALIGN_CENTER);
      gtk_box_append (GTK_BOX (box), suffix);
    }

  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  if (name != NULL)
    gtk_widget_set_name (row, name);
  g_object_set_data (G_OBJECT (row), "sps-subtitle", sub);
  gtk_list_box_append (GTK_LIST_BOX (group), row);

  return row;
}

void
_sps_preferences_row_set_subtitle (GtkWidget  *row,
                                   const char *subtitle)
{
  GtkLabel *sub = g_object_get_data (G_OBJECT (row), "sps-subtitle");

  g_assert (GTK_IS_LABEL (sub));

  gtk_label_set_text (sub, subtitle != NULL ? subtitle : "");
  gtk_widget_set_visible (GTK_WIDGET (sub), subtitle != NULL && subtitle[0] != '\0');
}

/* The window */

static void
sps_preferences_window_dispose (GObject *object)
{
  SpsPreferencesWindow *self = SPS_PREFERENCES_WINDOW (object);

  g_clear_object (&self->settings);

  G_OBJECT_CLASS (sps_preferences_window_parent_class)->dispose (object);
}

static void
sps_preferences_window_class_init (SpsPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sps_preferences_window_dispose;

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close", NULL);
}

static void
sps_preferences_window_init (SpsPreferencesWindow *self)
{
  GtkWidget *header = gtk_header_bar_new ();
  GtkWidget *switcher = gtk_stack_switcher_new ();

  self->stack = GTK_STACK (gtk_stack_new ());
  gtk_stack_set_transition_type (self->stack, GTK_STACK_TRANSITION_TYPE_CROSSFADE);
  gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (switcher), self->stack);
  gtk_header_bar_set_title_widget (GTK_HEADER_BAR (header), switcher);

  gtk_window_set_title (GTK_WINDOW (self), _("Preferences"));
  gtk_window_set_default_size (GTK_WINDOW (self), 640, 640);
  gtk_window_set_destroy_with_parent (GTK_WINDOW (self), TRUE);
  gtk_window_set_titlebar (GTK_WINDOW (self), header);
  gtk_window_set_child (GTK_WINDOW (self), GTK_WIDGET (self->stack));
}

/**
 * sps_preferences_window_new:
 * @application: the application whose settings the window edits
 * @engine: the plugin engine of the Plugins page
 *
 * The window is not one of @application's windows (so that the
 * application's key bindings stay out of the Keyboard page's way while
 * it reads a new shortcut); sps_application_show_preferences() keeps
 * one per application.
 *
 * Returns: (transfer none): a new Preferences window, not shown yet
 */
SpsPreferencesWindow *
sps_preferences_window_new (SpsApplication  *application,
                            SpsPluginEngine *engine)
{
  SpsPreferencesWindow *self;
  GSettings *settings;
  g_autoptr(GSettings) keybindings = NULL;

  g_return_val_if_fail (SPS_IS_APPLICATION (application), NULL);
  g_return_val_if_fail (SPS_IS_PLUGIN_ENGINE (engine), NULL);

  settings = sps_application_get_settings (application);
  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  self = g_object_new (SPS_TYPE_PREFERENCES_WINDOW, NULL);
  self->settings = g_object_ref (settings);
  keybindings = g_settings_get_child (settings, "keybindings");

  gtk_stack_add_titled (self->stack, _sps_preferences_appearance_new (settings),
                        "appearance", _("Appearance"));
  gtk_stack_add_titled (self->stack, sps_plugins_page_new (engine), "plugins", _("Plugins"));
  gtk_stack_add_titled (self->stack, sps_preferences_keyboard_new (keybindings), "keyboard", _("Keyboard"));

  return self;
}

/**
 * sps_preferences_window_set_page:
 * @self: a #SpsPreferencesWindow
 * @page: "appearance", "plugins" or "keyboard"
 */
void
sps_preferences_window_set_page (SpsPreferencesWindow *self,
                                 const char           *page)
{
  g_return_if_fail (SPS_IS_PREFERENCES_WINDOW (self));
  g_return_if_fail (page != NULL);
  g_return_if_fail (gtk_stack_get_child_by_name (self->stack, page) != NULL);

  gtk_stack_set_visible_child_name (self->stack, page);
}

/**
 * sps_preferences_window_get_page:
 * @self: a #SpsPreferencesWindow
 *
 * Returns: the name of the page shown
 */
const char *
sps_preferences_window_get_page (SpsPreferencesWindow *self)
{
  g_return_val_if_fail (SPS_IS_PREFERENCES_WINDOW (self), NULL);

  return gtk_stack_get_visible_child_name (self->stack);
}
