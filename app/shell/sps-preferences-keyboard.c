/* sps-preferences-keyboard.c: the Preferences' Keyboard page, the
 * shortcut editor
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-preferences-keyboard"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-preferences-keyboard.h"
#include "sps-preferences-private.h"
#include "sps-shortcuts.h"

/**
 * SpsPreferencesKeyboard:
 *
 * Every action of the binding table (sps-shortcuts.c), grouped as the
 * shortcuts window groups them, with its primary and alternate binding
 * (the first two accelerators of its key in the keybindings settings;
 * further ones, such as zoom in's “+” and keypad “+”, are listed under
 * the title and kept). Clicking a binding reads the next key press:
 * Escape cancels, Backspace clears the binding, a key that another
 * binding already uses is refused and the message names its action.
 * Reset restores an action's default keys, Reset All every action's.
 * The application follows the settings at once (its accelerators and
 * the shortcuts window), so the page only writes them.
 */

struct _SpsPreferencesKeyboard
{
  GtkWidget          parent_instance;

  GSettings         *keybindings;
  GtkLabel          *message;
  /* Settings key → row */
  GHashTable        *rows;

  /* The binding being read, NULL when none */
  const SpsShortcut *capture;
  SpsShortcutSlot    capture_slot;
};

G_DEFINE_FINAL_TYPE (SpsPreferencesKeyboard, sps_preferences_keyboard, GTK_TYPE_WIDGET)

static const char * const slot_names[SPS_SHORTCUT_N_SLOTS] = { "primary", "alternate" };

static void
set_message (SpsPreferencesKeyboard *self,
             const char             *text,
             gboolean                error)
{
  g_assert (SPS_IS_PREFERENCES_KEYBOARD (self));

  gtk_label_set_text (self->message, text);
  if (error)
    gtk_widget_add_css_class (GTK_WIDGET (self->message), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->message), "error");
}

static void
set_hint (SpsPreferencesKeyboard *self)
{
  set_message (self, _("Click a shortcut to change it."), FALSE);
}

static GtkWidget *
row_button (SpsPreferencesKeyboard *self,
            const SpsShortcut      *shortcut,
            const char             *what)
{
  GtkWidget *row = g_hash_table_lookup (self->rows, shortcut->settings_key);
  g_autofree char *name = g_strdup_printf ("%s-%s", shortcut->settings_key, what);

  g_assert (row != NULL);

  return g_object_get_data (G_OBJECT (row), name);
}

/* How a binding reads on a button: "Ctrl+O", or "None" */
static void
update_row (SpsPreferencesKeyboard *self,
            const SpsShortcut      *shortcut)
{
  g_auto(GStrv) accels = g_settings_get_strv (self->keybindings, shortcut->settings_key);
  g_autoptr(GVariant) value = g_settings_get_value (self->keybindings, shortcut->settings_key);
  g_autoptr(GVariant) defaults = g_settings_get_default_value (self->keybindings, shortcut->settings_key);
  g_autoptr(GString) extra = g_string_new (NULL);
  guint n = g_strv_length (accels);
  GtkWidget *row = g_hash_table_lookup (self->rows, shortcut->settings_key);

  for (guint slot = 0; slot < SPS_SHORTCUT_N_SLOTS; slot++)
    {
      GtkWidget *button = row_button (self, shortcut, slot_names[slot]);
      GdkModifierType mods = 0;
      guint keyval = 0;

      GtkLabel *text = GTK_LABEL (gtk_button_get_child (GTK_BUTTON (button)));

      if (self->capture == shortcut && self->capture_slot == slot)
        gtk_label_set_text (text, _("New shortcut…"));
      else if (slot < n && gtk_accelerator_parse (accels[slot], &keyval, &mods) && keyval != 0)
        {
          g_autofree char *label = gtk_accelerator_get_label (keyval, mods);

          gtk_label_set_text (text, label);
        }
      else
        /* Translators: a place for a key binding that has none */
        gtk_label_set_text (text, C_("shortcut", "None"));
      /* The label may be cut short in the button */
      gtk_widget_set_tooltip_text (button, gtk_label_get_text (text));

      if (keyval == 0 && !(self->capture == shortcut && self->capture_slot == slot))
        gtk_widget_add_css_class (button, "dim-label");
      else
        gtk_widget_remove_css_class (button, "dim-label");
    }

  for (guint i = SPS_SHORTCUT_N_SLOTS; i < n; i++)
    {
      GdkModifierType mods;
      guint keyval;
      g_autofree char *label = NULL;

      if (!gtk_accelerator_parse (accels[i], &keyval, &mods) || keyval == 0)
        continue;
      label = gtk_accelerator_get_label (keyval, mods);
      if (extra->len > 0)
        g_string_append (extra, ", ");
      g_string_append (extra, label);
    }
  if (extra->len > 0)
    {
      /* Translators: %s lists further keys of an action, "Plus, KP Add" */
      g_autofree char *text = g_strdup_printf (_("Also %s"), extra->str);

      _sps_preferences_row_set_subtitle (row, text);
    }
  else
    _sps_preferences_row_set_subtitle (row, NULL);

  if (self->capture == shortcut)
    gtk_widget_add_css_class (row, "sps-capturing");
  else
    gtk_widget_remove_css_class (row, "sps-capturing");

  gtk_widget_set_sensitive (row_button (self, shortcut, "reset"), !g_variant_equal (value, defaults));
}

static void
update_all (SpsPreferencesKeyboard *self)
{
  const SpsShortcut *table;
  guint n;

  table = _sps_shortcuts_get (&n);
  for (guint i = 0; i < n; i++)
    update_row (self, &table[i]);
}

static void
end_capture (SpsPreferencesKeyboard *self)
{
  const SpsShortcut *was = self->capture;

  self->capture = NULL;
  if (was != NULL)
    update_row (self, was);
}

static void
on_binding_clicked (GtkButton              *button,
                    SpsPreferencesKeyboard *self)
{
  const SpsShortcut *shortcut = g_object_get_data (G_OBJECT (button), "sps-shortcut");
  SpsShortcutSlot slot = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "sps-slot"));
  g_autofree char *text = NULL;

  g_assert (SPS_IS_PREFERENCES_KEYBOARD (self));
  g_assert (shortcut != NULL);

  end_capture (self);
  self->capture = shortcut;
  self->capture_slot = slot;
  update_row (self, shortcut);

  /* Translators: %s is an action, "Zoom in" */
  text = g_strdup_printf (_("Press the new shortcut for “%s”… Esc cancels, Backspace clears."),
                          _(shortcut->title));
  set_message (self, text, FALSE);
  gtk_widget_grab_focus (GTK_WIDGET (button));
}

static void
on_reset_clicked (GtkButton              *button,
                  SpsPreferencesKeyboard *self)
{
  const SpsShortcut *shortcut = g_object_get_data (G_OBJECT (button), "sps-shortcut");

  g_assert (SPS_IS_PREFERENCES_KEYBOARD (self));

  end_capture (self);
  g_settings_reset (self->keybindings, shortcut->settings_key);
  set_hint (self);
}

static void
on_reset_all_clicked (GtkButton              *button,
                      SpsPreferencesKeyboard *self)
{
  const SpsShortcut *table;
  guint n;

  g_assert (SPS_IS_PREFERENCES_KEYBOARD (self));

  end_capture (self);
  table = _sps_shortcuts_get (&n);
  for (guint i = 0; i < n; i++)
    g_settings_reset (self->keybindings, table[i].settings_key);
  set_hint (self);
}

/* While a binding is being read, every key press of the window comes
 * here first (capture phase), Escape and Tab included. */
static gboolean
on_key_pressed (GtkEventControllerKey  *controller,
                guint                   keyval,
                guint                   keycode,
                GdkModifierType         state,
                SpsPreferencesKeyboard *self)
{
  GdkModifierType mods = state & gtk_accelerator_get_default_mod_mask ();
  const SpsShortcut *shortcut = self->capture;
  const SpsShortcut *user;
  g_autofree char *accel = NULL;

  g_assert (SPS_IS_PREFERENCES_KEYBOARD (self));

  if (shortcut == NULL)
    return FALSE;

  if (keyval == GDK_KEY_Escape && mods == 0)
    {
      end_capture (self);
      set_hint (self);
      return TRUE;
    }

  if (keyval == GDK_KEY_BackSpace && mods == 0)
    {
      end_capture (self);
      _sps_shortcuts_set_slot (self->keybindings, shortcut, self->capture_slot, NULL);
      set_hint (self);
      return TRUE;
    }

  /* A modifier alone: wait for the key it modifies */
  if (!(accel = _sps_shortcuts_canonical (keyval, state)))
    return TRUE;

  if ((user = _sps_shortcuts_find_user (self->keybindings, accel, shortcut, self->capture_slot)))
    {
      g_autofree char *label = NULL;
      g_autofree char *text = NULL;
      GdkModifierType accel_mods;
      guint accel_key;

      /* The key as it was read, "Ctrl+?" */
      gtk_accelerator_parse (accel, &accel_key, &accel_mods);
      label = gtk_accelerator_get_label (accel_key, accel_mods);
      /* Translators: a key, then the action that has it: "W is used by “Zoom in”" */
      text = g_strdup_printf (_("%s is used by “%s”: not changed."), label, _(user->title));

      end_capture (self);
      set_message (self, text, TRUE);
      return TRUE;
    }

  end_capture (self);
  _sps_shortcuts_set_slot (self->keybindings, shortcut, self->capture_slot, accel);
  set_hint (self);

  return TRUE;
}

static void
on_keybinding_changed (SpsPreferencesKeyboard *self,
                       const char             *key,
                       GSettings              *settings)
{
  const SpsShortcut *shortcut;

  g_assert (SPS_IS_PREFERENCES_KEYBOARD (self));

  if (key != NULL && (shortcut = _sps_shortcuts_find (key)) != NULL)
    update_row (self, shortcut);
}

static GtkWidget *
create_row (SpsPreferencesKeyboard *self,
            GtkWidget              *group,
            const SpsShortcut      *shortcut)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *reset = gtk_button_new_from_icon_name ("edit-undo-symbolic");
  GtkWidget *suffix = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *row;
  g_autofree char *reset_name = g_strdup_printf ("%s-reset", shortcut->settings_key);

  gtk_widget_add_css_class (box, "linked");
  for (guint slot = 0; slot < SPS_SHORTCUT_N_SLOTS; slot++)
    {
      GtkWidget *button = gtk_button_new ();
      GtkWidget *label = gtk_label_new (NULL);
      g_autofree char *name = g_strdup_printf ("%s-%s", shortcut->settings_key, slot_names[slot]);

      /* Every button as wide, whatever its keys: the columns line up */
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_label_set_width_chars (GTK_LABEL (label), 14);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 14);
      gtk_button_set_child (GTK_BUTTON (button), label);
      gtk_widget_set_name (button, name);
      gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                      slot == SPS_SHORTCUT_PRIMARY ? _("Primary shortcut") : _("Alternate shortcut"),
                                      -1);
      g_object_set_data (G_OBJECT (button), "sps-shortcut", (gpointer) shortcut);
      g_object_set_data (G_OBJECT (button), "sps-slot", GUINT_TO_POINTER (slot));
      g_signal_connect_object (button, "clicked", G_CALLBACK (on_binding_clicked), self, 0);
      gtk_box_append (GTK_BOX (box), button);
    }

  gtk_widget_set_name (reset, reset_name);
  gtk_widget_set_tooltip_text (reset, _("Reset to the default keys"));
  gtk_widget_add_css_class (reset, "flat");
  gtk_widget_set_margin_start (reset, 6);
  g_object_set_data (G_OBJECT (reset), "sps-shortcut", (gpointer) shortcut);
  g_signal_connect_object (reset, "clicked", G_CALLBACK (on_reset_clicked), self, 0);

  gtk_box_append (GTK_BOX (suffix), box);
  gtk_box_append (GTK_BOX (suffix), reset);
  row = _sps_preferences_row_new (group, shortcut->settings_key, _(shortcut->title), NULL, suffix);

  for (GtkWidget *child = gtk_widget_get_first_child (box); child != NULL; child = gtk_widget_get_next_sibling (child))
    g_object_set_data (G_OBJECT (row), gtk_widget_get_name (child), child);
  g_object_set_data (G_OBJECT (row), reset_name, reset);
  g_hash_table_insert (self->rows, (gpointer) shortcut->settings_key, row);

  return row;
}

static void
sps_preferences_keyboard_unmap (GtkWidget *widget)
{
  SpsPreferencesKeyboard *self = SPS_PREFERENCES_KEYBOARD (widget);

  /* Leaving the page (or closing the window) cancels a capture */
  end_capture (self);
  set_hint (self);

  GTK_WIDGET_CLASS (sps_preferences_keyboard_parent_class)->unmap (widget);
}

static void
sps_preferences_keyboard_dispose (GObject *object)
{
  SpsPreferencesKeyboard *self = SPS_PREFERENCES_KEYBOARD (object);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))))
    gtk_widget_unparent (child);
  g_clear_pointer (&self->rows, g_hash_table_unref);
  g_clear_object (&self->keybindings);

  G_OBJECT_CLASS (sps_preferences_keyboard_parent_class)->dispose (object);
}

static void
sps_preferences_keyboard_class_init (SpsPreferencesKeyboardClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sps_preferences_keyboard_dispose;
  widget_class->unmap = sps_preferences_keyboard_unmap;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
}

static void
sps_preferences_keyboard_init (SpsPreferencesKeyboard *self)
{
  GtkEventController *keys = gtk_event_controller_key_new ();

  self->rows = g_hash_table_new (g_str_hash, g_str_equal);
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);

  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect_object (keys, "key-pressed", G_CALLBACK (on_key_pressed), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);
}

/**
 * sps_preferences_keyboard_new:
 * @keybindings: the application's keybindings settings
 *
 * Returns: (transfer floating): the Keyboard page
 */
GtkWidget *
sps_preferences_keyboard_new (GSettings *keybindings)
{
  SpsPreferencesKeyboard *self;
  GtkWidget *page = _sps_preferences_page_new ();
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *reset_all = gtk_button_new_with_mnemonic (_("_Reset All"));
  GtkWidget *groups[8] = { NULL };
  const SpsShortcut *table;
  guint n;

  g_return_val_if_fail (G_IS_SETTINGS (keybindings), NULL);
  g_return_val_if_fail (_sps_shortcuts_get_n_groups () <= G_N_ELEMENTS (groups), NULL);

  self = g_object_new (SPS_TYPE_PREFERENCES_KEYBOARD, NULL);
  self->keybindings = g_object_ref (keybindings);

  for (guint group = 0; group < _sps_shortcuts_get_n_groups (); group++)
    groups[group] = _sps_preferences_group_new (page, _sps_shortcuts_get_group_title (group), NULL);
  table = _sps_shortcuts_get (&n);
  for (guint i = 0; i < n; i++)
    create_row (self, groups[table[i].group], &table[i]);

  gtk_widget_set_parent (page, GTK_WIDGET (self));

  /* Under the lists, always in view: what a click does, what the capture
   * waits for, why a key was refused */
  self->message = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_set_name (GTK_WIDGET (self->message), "shortcut-message");
  gtk_label_set_xalign (self->message, 0);
  gtk_label_set_wrap (self->message, TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self->message), TRUE);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->message));
  gtk_widget_set_name (reset_all, "reset-all");
  gtk_widget_set_tooltip_text (reset_all, _("Give every action its default keys"));
  gtk_widget_set_valign (reset_all, GTK_ALIGN_CENTER);
  g_signal_connect_object (reset_all, "clicked", G_CALLBACK (on_reset_all_clicked), self, 0);
  gtk_box_append (GTK_BOX (bar), reset_all);
  gtk_widget_set_margin_top (bar, 6);
  gtk_widget_set_margin_bottom (bar, 6);
  gtk_widget_set_margin_start (bar, 36);
  gtk_widget_set_margin_end (bar, 36);
  gtk_widget_set_parent (gtk_separator_new (GTK_ORIENTATION_HORIZONTAL), GTK_WIDGET (self));
  gtk_widget_set_parent (bar, GTK_WIDGET (self));

  set_hint (self);
  update_all (self);
  g_signal_connect_object (keybindings, "changed", G_CALLBACK (on_keybinding_changed), self, G_CONNECT_SWAPPED);

  return GTK_WIDGET (self);
}

/**
 * sps_preferences_keyboard_get_message:
 * @self: a #SpsPreferencesKeyboard
 *
 * Returns: the line under the lists: the hint, what a capture waits for,
 *   or why a key was refused
 */
const char *
sps_preferences_keyboard_get_message (SpsPreferencesKeyboard *self)
{
  g_return_val_if_fail (SPS_IS_PREFERENCES_KEYBOARD (self), NULL);

  return gtk_label_get_text (self->message);
}
