/* sps-preferences-appearance.c: the Preferences' Appearance page
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every control is bound to its key in the application's settings, which
 * every window follows at once: the application applies the theme, the
 * font scale and the selection colour, each window binds the track height
 * and the flows to its timeline and session, and opening a file reads
 * the timestamp unit.
 */

#define G_LOG_DOMAIN "sps-preferences-appearance"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-preferences-private.h"

static const char * const theme_nicks[] = { "system", "light", "dark", NULL };
static const char * const unit_nicks[] = { "ns", "us", "ms", "s", NULL };

/* A drop-down's position ↔ a string key, the strings in @user_data */
static gboolean
get_nick_index (GValue   *value,
                GVariant *variant,
                gpointer  user_data)
{
  const char * const *nicks = user_data;
  const char *nick = g_variant_get_string (variant, NULL);

  for (guint i = 0; nicks[i] != NULL; i++)
    if (g_str_equal (nicks[i], nick))
      {
        g_value_set_uint (value, i);
        return TRUE;
      }

  return FALSE;
}

static GVariant *
set_nick_index (const GValue       *value,
                const GVariantType *expected_type,
                gpointer            user_data)
{
  const char * const *nicks = user_data;
  guint index = g_value_get_uint (value);

  if (index >= g_strv_length ((char **) nicks))
    return NULL;

  return g_variant_new_string (nicks[index]);
}

/* A drop-down of two ↔ a boolean key: the second item is TRUE */
static gboolean
get_bool_index (GValue   *value,
                GVariant *variant,
                gpointer  user_data)
{
  g_value_set_uint (value, g_variant_get_boolean (variant) ? 1 : 0);
  return TRUE;
}

static GVariant *
set_bool_index (const GValue       *value,
                const GVariantType *expected_type,
                gpointer            user_data)
{
  guint index = g_value_get_uint (value);

  return index <= 1 ? g_variant_new_boolean (index == 1) : NULL;
}

/* A spin button's value ↔ an integer key (pixels) */
static gboolean
get_int_value (GValue   *value,
               GVariant *variant,
               gpointer  user_data)
{
  g_value_set_double (value, g_variant_get_int32 (variant));
  return TRUE;
}

static GVariant *
set_int_value (const GValue       *value,
               const GVariantType *expected_type,
               gpointer            user_data)
{
  return g_variant_new_int32 ((gint32) (g_value_get_double (value) + 0.5));
}

/* A spin button in percent ↔ a factor */
static gboolean
get_percent (GValue   *value,
             GVariant *variant,
             gpointer  user_data)
{
  g_value_set_double (value, g_variant_get_double (variant) * 100.0);
  return TRUE;
}

static GVariant *
set_percent (const GValue       *value,
             const GVariantType *expected_type,
             gpointer            user_data)
{
  return g_variant_new_double (g_value_get_double (value) / 100.0);
}

static GtkWidget *
drop_down_new (const char *name,
               const char *first,
               ...) G_GNUC_NULL_TERMINATED;

static GtkWidget *
drop_down_new (const char *name,
               const char *first,
               ...)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) items = NULL;
  GtkWidget *drop_down;
  va_list args;

  va_start (args, first);
  for (const char *item = first; item != NULL; item = va_arg (args, const char *))
    g_strv_builder_add (builder, item);
  va_end (args);

  items = g_strv_builder_end (builder);
  drop_down = gtk_drop_down_new_from_strings ((const char * const *) items);
  gtk_widget_set_name (drop_down, name);
  /* GTK 4.8 measures the button a little short of some labels ("Der
   * Auswahl" lost its last letter); one width for all also lines the
   * drop-downs up */
  gtk_widget_set_size_request (drop_down, 170, -1);

  return drop_down;
}

static GtkWidget *
spin_new (const char *name,
          double      lower,
          double      upper,
          double      step)
{
  GtkWidget *spin = gtk_spin_button_new_with_range (lower, upper, step);

  gtk_spin_button_set_digits (GTK_SPIN_BUTTON (spin), 0);
  gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (spin), TRUE);
  gtk_widget_set_name (spin, name);

  return spin;
}

/* The selection colour: a colour button (GTK 4.8 has no
 * GtkColorDialogButton, which replaces it from 4.10) and a button back to
 * the theme's accent colour, which the empty setting stands for. */

static void
update_color (GtkWidget *box,
              GSettings *settings)
{
  GtkWidget *button = gtk_widget_get_first_child (box);
  GtkWidget *reset = gtk_widget_get_last_child (box);
  g_autofree char *text = g_settings_get_string (settings, "selection-color");
  GtkWidget *row = gtk_widget_get_ancestor (box, GTK_TYPE_LIST_BOX_ROW);
  GdkRGBA rgba;
  gboolean custom = text[0] != '\0' && gdk_rgba_parse (&rgba, text);

  if (!custom)
    {
      GtkStyleContext *context;

      /* Show the accent colour the timeline uses */
      G_GNUC_BEGIN_IGNORE_DEPRECATIONS
      context = gtk_widget_get_style_context (box);
      if (!gtk_style_context_lookup_color (context, "theme_selected_bg_color", &rgba))
        gdk_rgba_parse (&rgba, "#3584e4");
      G_GNUC_END_IGNORE_DEPRECATIONS
    }

  g_object_set_data (G_OBJECT (box), "sps-updating", GINT_TO_POINTER (TRUE));
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_color_chooser_set_rgba (GTK_COLOR_CHOOSER (button), &rgba);
  G_GNUC_END_IGNORE_DEPRECATIONS
  g_object_set_data (G_OBJECT (box), "sps-updating", NULL);

  gtk_widget_set_sensitive (reset, custom);
  if (row != NULL)
    _sps_preferences_row_set_subtitle (row, custom ? NULL : _("The theme’s accent colour"));
}

static void
on_color_changed (GtkWidget  *box,
                  const char *key,
                  GSettings  *settings)
{
  update_color (box, settings);
}

/* The theme's accent changes with the theme (Adwaita's dark one is
 * another blue): a button showing it follows */
static void
on_theme_changed (GtkSettings *gtk_settings,
                  GParamSpec  *pspec,
                  GtkWidget   *box)
{
  update_color (box, g_object_get_data (G_OBJECT (box), "sps-settings"));
}

static void
on_color_set (GtkWidget *button,
              GParamSpec *pspec,
              GSettings  *settings)
{
  GtkWidget *box = gtk_widget_get_parent (button);
  g_autofree char *text = NULL;
  GdkRGBA rgba;

  if (g_object_get_data (G_OBJECT (box), "sps-updating"))
    return;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_color_chooser_get_rgba (GTK_COLOR_CHOOSER (button), &rgba);
  G_GNUC_END_IGNORE_DEPRECATIONS
  text = gdk_rgba_to_string (&rgba);
  g_settings_set_string (settings, "selection-color", text);
}

static void
on_color_reset (GtkButton *reset,
                GSettings *settings)
{
  g_settings_reset (settings, "selection-color");
}

static GtkWidget *
color_box_new (GSettings *settings)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *button;
  GtkWidget *reset = gtk_button_new_from_icon_name ("edit-undo-symbolic");

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  button = gtk_color_button_new ();
  gtk_color_chooser_set_use_alpha (GTK_COLOR_CHOOSER (button), FALSE);
  gtk_color_button_set_title (GTK_COLOR_BUTTON (button), _("Selection Colour"));
  G_GNUC_END_IGNORE_DEPRECATIONS
  gtk_widget_set_name (button, "selection-color");
  gtk_box_append (GTK_BOX (box), button);

  gtk_widget_set_name (reset, "selection-color-reset");
  gtk_widget_set_tooltip_text (reset, _("Use the theme’s accent colour"));
  gtk_widget_add_css_class (reset, "flat");
  gtk_box_append (GTK_BOX (box), reset);

  g_signal_connect_object (button, "notify::rgba", G_CALLBACK (on_color_set), settings, 0);
  g_signal_connect_object (reset, "clicked", G_CALLBACK (on_color_reset), settings, 0);
  g_signal_connect_object (settings, "changed::selection-color", G_CALLBACK (on_color_changed), box,
                           G_CONNECT_SWAPPED);
  g_object_set_data_full (G_OBJECT (box), "sps-settings", g_object_ref (settings), g_object_unref);
  g_signal_connect_object (gtk_settings_get_default (), "notify::gtk-application-prefer-dark-theme",
                           G_CALLBACK (on_theme_changed), box, 0);
  g_signal_connect_object (gtk_settings_get_default (), "notify::gtk-theme-name",
                           G_CALLBACK (on_theme_changed), box, 0);

  return box;
}

/**
 * _sps_preferences_appearance_new:
 * @settings: the application's settings
 *
 * Returns: (transfer floating): the Appearance page
 */
GtkWidget *
_sps_preferences_appearance_new (GSettings *settings)
{
  GtkWidget *page = _sps_preferences_page_new ();
  GtkWidget *group;
  GtkWidget *widget;
  GtkWidget *color;

  g_assert (G_IS_SETTINGS (settings));

  group = _sps_preferences_group_new (page, _("Style"), NULL);

  widget = drop_down_new ("theme", _("Follow System"), _("Light"), _("Dark"), NULL);
  g_settings_bind_with_mapping (settings, "theme", widget, "selected", G_SETTINGS_BIND_DEFAULT,
                                get_nick_index, set_nick_index, (gpointer) theme_nicks, NULL);
  _sps_preferences_row_new (group, "theme-row", _("Colour scheme"),
                            _("Light or dark, or as the desktop prefers"), widget);

  widget = spin_new ("font-scale", 50, 300, 10);
  g_settings_bind_with_mapping (settings, "font-scale", gtk_spin_button_get_adjustment (GTK_SPIN_BUTTON (widget)),
                                "value", G_SETTINGS_BIND_DEFAULT, get_percent, set_percent, NULL, NULL);
  _sps_preferences_row_new (group, "font-scale-row", _("Text size"),
                            _("Percent of the desktop’s font size, in the trace windows"), widget);

  widget = spin_new ("track-height", 12, 64, 1);
  g_settings_bind_with_mapping (settings, "track-height", gtk_spin_button_get_adjustment (GTK_SPIN_BUTTON (widget)),
                                "value", G_SETTINGS_BIND_DEFAULT, get_int_value, set_int_value, NULL, NULL);
  _sps_preferences_row_new (group, "track-height-row", _("Track height"),
                            _("Pixels per lane of the timeline (at least the text’s height)"), widget);

  color = color_box_new (settings);
  _sps_preferences_row_new (group, "selection-color-row", _("Selection colour"),
                            NULL, color);
  update_color (color, settings);

  group = _sps_preferences_group_new (page, _("Traces"), NULL);

  widget = drop_down_new ("timestamp-unit", _("Nanoseconds"), _("Microseconds"),
                          _("Milliseconds"), _("Seconds"), NULL);
  g_settings_bind_with_mapping (settings, "timestamp-unit", widget, "selected", G_SETTINGS_BIND_DEFAULT,
                                get_nick_index, set_nick_index, (gpointer) unit_nicks, NULL);
  _sps_preferences_row_new (group, "timestamp-unit-row", _("Chrome JSON timestamps"),
                            _("The unit of “ts” and “dur”, which the files do not state; "
                              "applies to files opened from now on"), widget);

  widget = drop_down_new ("show-flows", _("Of the Selection"), _("All"), NULL);
  g_settings_bind_with_mapping (settings, "show-flows", widget, "selected", G_SETTINGS_BIND_DEFAULT,
                                get_bool_index, set_bool_index, NULL, NULL);
  _sps_preferences_row_new (group, "show-flows-row", _("Flow arrows"),
                            _("The arrows between related slices the timeline draws"), widget);

  return page;
}
