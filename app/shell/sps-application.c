/* sps-application.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-application"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-application-private.h"
#include "sps-preferences-window.h"
#include "sps-screenshot-job.h"
#include "sps-shortcuts.h"
#include "sps-window.h"

/**
 * SpsApplication:
 *
 * The `spanscope` application: one #SpsWindow per trace file, the
 * settings that apply to every window (theme, font scale, key bindings),
 * the recent files, and the headless `--screenshot` mode used by tests and
 * documentation.
 */

G_DEFINE_FINAL_TYPE (SpsApplication, sps_application, GTK_TYPE_APPLICATION)

/* Whether a key moves around in lists, trees and tables (a docked panel
 * keeps these while it has the focus) */
static gboolean
is_navigation_key (guint           keyval,
                   GdkModifierType mods)
{
  if ((mods & (GDK_CONTROL_MASK | GDK_ALT_MASK | GDK_SUPER_MASK)) != 0)
    return FALSE;

  switch (keyval)
    {
    case GDK_KEY_Up: case GDK_KEY_Down: case GDK_KEY_Left: case GDK_KEY_Right:
    case GDK_KEY_KP_Up: case GDK_KEY_KP_Down: case GDK_KEY_KP_Left: case GDK_KEY_KP_Right:
    case GDK_KEY_Page_Up: case GDK_KEY_Page_Down: case GDK_KEY_Home: case GDK_KEY_End:
    case GDK_KEY_space: case GDK_KEY_Return: case GDK_KEY_KP_Enter: case GDK_KEY_Tab:
      return TRUE;
    default:
      return FALSE;
    }
}



static SpsWindow *
sps_application_find_window (SpsApplication *self,
                             GFile          *file)
{
  g_assert (SPS_IS_APPLICATION (self));
  g_assert (G_IS_FILE (file));

  for (const GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL; l = l->next)
    {
      GFile *shown;

      if (!SPS_IS_WINDOW (l->data))
        continue;

      shown = sps_window_get_file (l->data);
      if (sps_window_get_state (l->data) == SPS_WINDOW_STATE_LOADED &&
          shown != NULL && g_file_equal (shown, file))
        return l->data;
    }

  return NULL;
}

static gboolean
window_is_unused (GtkWindow *window)
{
  return SPS_IS_WINDOW (window) &&
         (sps_window_get_state (SPS_WINDOW (window)) == SPS_WINDOW_STATE_EMPTY ||
          sps_window_get_state (SPS_WINDOW (window)) == SPS_WINDOW_STATE_FAILED);
}

/* Settings applied to every window */

static void
sps_application_apply_theme (SpsApplication *self)
{
  GtkSettings *gtk_settings;
  Theme theme;

  g_assert (SPS_IS_APPLICATION (self));

  if (!(gtk_settings = gtk_settings_get_default ()))
    return;

  theme = g_settings_get_enum (self->settings, "theme");

  if (theme == THEME_SYSTEM)
    gtk_settings_reset_property (gtk_settings, "gtk-application-prefer-dark-theme");
  else
    g_object_set (gtk_settings,
                  "gtk-application-prefer-dark-theme", theme == THEME_DARK,
                  NULL);
}

static void
sps_application_apply_css (SpsApplication *self)
{
  g_autoptr(GString) css = g_string_new (NULL);
  g_autofree char *color = NULL;
  double scale;
  GdkRGBA rgba;

  g_assert (SPS_IS_APPLICATION (self));

  scale = g_settings_get_double (self->settings, "font-scale");

  /* Percentages relative to the theme's font, so every label and the
   * timeline's text (which uses the widget's Pango context) follow.
   * Integral percent: no locale-dependent decimal separator in CSS. */
  g_string_append_printf (css, "window.sps-window { font-size: %d%%; }\n",
                          (int) CLAMP (scale * 100.0 + 0.5, 10.0, 1000.0));

  /* The timeline looks this colour up before the theme's accent
   * (sps-timeline-style.c). gdk_rgba_to_string() writes no locale's
   * decimal comma; anything that does not parse keeps the theme's. */
  color = g_settings_get_string (self->settings, "selection-color");
  if (color[0] != '\0' && gdk_rgba_parse (&rgba, color))
    {
      g_autofree char *text = gdk_rgba_to_string (&rgba);

      g_string_append_printf (css, "@define-color sps_selection_color %s;\n", text);
      /* A named colour alone is no part of any widget's style, so
       * changing it restyles nothing; this rule makes the timeline's
       * style depend on it, so that it reads the colour again. */
      g_string_append (css, "timeline { caret-color: @sps_selection_color; }\n");
    }

  gtk_css_provider_load_from_data (self->settings_provider, css->str, css->len);
}

static void
sps_application_update_help_overlays (SpsApplication *self)
{
  g_assert (SPS_IS_APPLICATION (self));

  for (const GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL; l = l->next)
    {
      GtkApplicationWindow *window;
      g_autoptr(GtkWidget) old = NULL;
      g_autoptr(GtkWidget) overlay = NULL;

      if (!GTK_IS_APPLICATION_WINDOW (l->data))
        continue;

      window = l->data;
      /* The window only drops its reference to the one it replaces,
       * which may be the last: keep it until it is destroyed */
      if (gtk_application_window_get_help_overlay (window) != NULL)
        old = g_object_ref (GTK_WIDGET (gtk_application_window_get_help_overlay (window)));
      overlay = _sps_shortcuts_window_new (GTK_APPLICATION (self));
      gtk_application_window_set_help_overlay (window, GTK_SHORTCUTS_WINDOW (overlay));
      if (old != NULL)
        gtk_window_destroy (GTK_WINDOW (old));
    }
}

static void
sps_application_apply_keybinding (SpsApplication    *self,
                                  const SpsShortcut *shortcut)
{
  g_autoptr(GStrvBuilder) builder = NULL;
  g_autoptr(GStrvBuilder) nav_builder = NULL;
  g_auto(GStrv) accels = NULL;
  g_auto(GStrv) valid = NULL;
  g_auto(GStrv) nav = NULL;

  g_assert (SPS_IS_APPLICATION (self));
  g_assert (shortcut != NULL);

  accels = g_settings_get_strv (self->keybindings, shortcut->settings_key);
  builder = g_strv_builder_new ();
  nav_builder = g_strv_builder_new ();

  for (guint j = 0; accels[j] != NULL; j++)
    {
      guint keyval;
      GdkModifierType mods;

      /* A primary binding cleared in the Preferences, its alternate kept */
      if (accels[j][0] == '\0')
        continue;
      if (!gtk_accelerator_parse (accels[j], &keyval, &mods) || keyval == 0)
        g_warning ("Ignoring the key binding “%s” of “%s”: not an accelerator",
                   accels[j], shortcut->settings_key);
      else if (shortcut->timeline && is_navigation_key (keyval, mods))
        g_strv_builder_add (nav_builder, accels[j]);
      else
        g_strv_builder_add (builder, accels[j]);
    }

  valid = g_strv_builder_end (builder);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self),
                                         shortcut->action,
                                         (const char * const *) valid);
  if (shortcut->timeline)
    {
      g_autofree char *twin = g_strconcat (shortcut->action, SPS_WINDOW_NAV_SUFFIX, NULL);

      nav = g_strv_builder_end (nav_builder);
      gtk_application_set_accels_for_action (GTK_APPLICATION (self), twin, (const char * const *) nav);
    }
}

static void
on_keybinding_changed (SpsApplication *self,
                       const char     *key,
                       GSettings      *settings)
{
  const SpsShortcut *table;
  guint n;

  g_assert (SPS_IS_APPLICATION (self));

  table = _sps_shortcuts_get (&n);
  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (table[i].settings_key, key) == 0)
      {
        sps_application_apply_keybinding (self, &table[i]);
        sps_application_update_help_overlays (self);
        return;
      }
}

static void
sps_application_update_recent_menu (SpsApplication *self)
{
  g_auto(GStrv) uris = NULL;
  GMenu *section;

  g_assert (SPS_IS_APPLICATION (self));

  if (!(section = gtk_application_get_menu_by_id (GTK_APPLICATION (self), "recent-files-section")))
    return;

  g_menu_remove_all (section);
  uris = g_settings_get_strv (self->settings, "recent-files");

  for (guint i = 0; uris[i] != NULL && i < SPS_APPLICATION_MAX_RECENT; i++)
    {
      g_autoptr(GFile) file = g_file_new_for_uri (uris[i]);
      g_autoptr(GMenuItem) item = NULL;
      g_autofree char *basename = g_file_get_basename (file);
      g_autofree char *display = g_filename_display_name (basename);
      g_auto(GStrv) parts = NULL;
      g_autofree char *label = NULL;

      /* Menu labels take mnemonics: a file name's "_" must stay literal. */
      parts = g_strsplit (display, "_", -1);
      label = g_strjoinv ("__", parts);

      item = g_menu_item_new (label, NULL);
      g_menu_item_set_action_and_target_value (item, "app.open-recent",
                                               g_variant_new_string (uris[i]));
      g_menu_append_item (section, item);
    }

  if (uris[0] == NULL)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (_("No Recent Traces"), "app.no-recent");

      g_menu_append_item (section, item);
    }
}

/* Actions */

static void
action_quit (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  SpsApplication *self = user_data;

  g_assert (SPS_IS_APPLICATION (self));

  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL;)
    {
      GtkWindow *window = l->data;

      l = l->next;
      gtk_window_destroy (window);
    }
}

static void
action_about (GSimpleAction *action,
              GVariant      *param,
              gpointer       user_data)
{
  SpsApplication *self = user_data;
  const char *developers[] = { _("The Spanscope developers"), NULL };

  g_assert (SPS_IS_APPLICATION (self));

  gtk_show_about_dialog (gtk_application_get_active_window (GTK_APPLICATION (self)),
                         "program-name", _("Spanscope"),
                         "logo-icon-name", APP_ID,
                         "version", PACKAGE_VERSION,
                         "comments", _("Explore traces of what programs did, and when"),
                         "license-type", GTK_LICENSE_LGPL_2_1,
                         "authors", developers,
                         /* Translators: your names, one per line */
                         "translator-credits", _("translator-credits"),
                         NULL);
}

static void
action_preferences (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       user_data)
{
  sps_application_show_preferences (SPS_APPLICATION (user_data), NULL);
}

/* The plugin manager is the Preferences' Plugins page */
static void
action_plugins (GSimpleAction *action,
                GVariant      *param,
                gpointer       user_data)
{
  sps_application_show_preferences (SPS_APPLICATION (user_data), "plugins");
}

static void
action_open_recent (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       user_data)
{
  SpsApplication *self = user_data;
  g_autoptr(GFile) file = NULL;

  g_assert (SPS_IS_APPLICATION (self));
  g_assert (g_variant_is_of_type (param, G_VARIANT_TYPE_STRING));

  file = g_file_new_for_uri (g_variant_get_string (param, NULL));
  sps_application_open_file (self, file, gtk_application_get_active_window (GTK_APPLICATION (self)));
}

static const GActionEntry app_actions[] = {
  { "quit", action_quit },
  { "about", action_about },
  { "preferences", action_preferences },
  { "plugins", action_plugins },
  { "open-recent", action_open_recent, "s" },
  /* Always disabled: the placeholder of an empty recent-files menu. */
  { "no-recent", NULL },
};

/* GApplication */

static gboolean
sps_application_local_command_line (GApplication   *app,
                                    char         ***arguments,
                                    int            *exit_status)
{
  g_autofree char *preload = NULL;

  _sps_application_rewrite_arguments (*arguments);

  /* The trace named here starts loading now, while GTK starts */
  if ((preload = _sps_application_preload_path (*arguments)) != NULL)
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (preload);

      /* GLib makes the C locale of g_ascii_strto*() once, on first use.
       * An import thread making it while the main thread parses --size
       * makes the main thread wait for it, which can leave errno set,
       * and g_ascii_string_to_unsigned() then refuses a valid number
       * (seen once in the sanitizer build: "“900x560” is not a size").
       * Made here, before the import's threads start. */
      (void) g_ascii_strtoull ("0", NULL, 10);

      _sps_application_preload (SPS_APPLICATION (app), file);
    }

  return G_APPLICATION_CLASS (sps_application_parent_class)->local_command_line (app, arguments, exit_status);
}

static int
sps_application_handle_local_options (GApplication *app,
                                      GVariantDict *options)
{
  int status = _sps_application_read_options (SPS_APPLICATION (app), options);

  if (status >= 0)
    return status;

  return G_APPLICATION_CLASS (sps_application_parent_class)->handle_local_options (app, options);
}

static void
sps_application_startup (GApplication *app)
{
  SpsApplication *self = SPS_APPLICATION (app);
  g_autoptr(GtkCssProvider) style_provider = NULL;
  g_autoptr(GAction) theme_action = NULL;
  g_autoptr(GAction) flows_action = NULL;
  const SpsShortcut *shortcuts;
  guint n_shortcuts;
  GAction *action;
  GdkDisplay *display;

  G_APPLICATION_CLASS (sps_application_parent_class)->startup (app);

  self->settings = g_settings_new (APP_ID);
  self->keybindings = g_settings_get_child (self->settings, "keybindings");

  display = gdk_display_get_default ();

  style_provider = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (style_provider, "/io/github/spanscope/Spanscope/style.css");
  gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (style_provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);

  self->settings_provider = gtk_css_provider_new ();
  gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (self->settings_provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  sps_application_apply_css (self);
  g_signal_connect_object (self->settings, "changed::font-scale",
                           G_CALLBACK (sps_application_apply_css),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed::selection-color",
                           G_CALLBACK (sps_application_apply_css),
                           self, G_CONNECT_SWAPPED);

  sps_application_apply_theme (self);
  g_signal_connect_object (self->settings, "changed::theme",
                           G_CALLBACK (sps_application_apply_theme),
                           self, G_CONNECT_SWAPPED);

  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions,
                                   G_N_ELEMENTS (app_actions), self);
  action = g_action_map_lookup_action (G_ACTION_MAP (self), "no-recent");
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), FALSE);

  /* Stateful actions that read and write the settings directly, so the
   * menu's check and radio items always show the stored values. */
  theme_action = g_settings_create_action (self->settings, "theme");
  g_action_map_add_action (G_ACTION_MAP (self), theme_action);
  flows_action = g_settings_create_action (self->settings, "show-flows");
  g_action_map_add_action (G_ACTION_MAP (self), flows_action);

  shortcuts = _sps_shortcuts_get (&n_shortcuts);
  for (guint i = 0; i < n_shortcuts; i++)
    sps_application_apply_keybinding (self, &shortcuts[i]);
  g_signal_connect_object (self->keybindings, "changed",
                           G_CALLBACK (on_keybinding_changed),
                           self, G_CONNECT_SWAPPED);

  sps_application_update_recent_menu (self);
  g_signal_connect_object (self->settings, "changed::recent-files",
                           G_CALLBACK (sps_application_update_recent_menu),
                           self, G_CONNECT_SWAPPED);
}

static void
sps_application_activate (GApplication *app)
{
  SpsApplication *self = SPS_APPLICATION (app);
  GtkWindow *window;

  if (self->screenshot_path != NULL)
    {
      g_printerr ("spanscope: %s\n", _("--screenshot needs exactly one trace file"));
      self->exit_status = 2;
      return;
    }

  if (!(window = gtk_application_get_active_window (GTK_APPLICATION (self))))
    window = GTK_WINDOW (sps_window_new (self));

  gtk_window_present (window);
}

static void
sps_application_open (GApplication  *app,
                      GFile        **files,
                      int            n_files,
                      const char    *hint)
{
  SpsApplication *self = SPS_APPLICATION (app);

  if (self->screenshot_path != NULL)
    {
      if (n_files != 1)
        {
          g_printerr ("spanscope: %s\n", _("--screenshot needs exactly one trace file"));
          self->exit_status = 2;
          return;
        }

      _sps_application_screenshot (self, files[0]);
      return;
    }

  for (int i = 0; i < n_files; i++)
    sps_application_open_file_with_options (self, files[i], NULL, self->import_options);
}

static void
sps_application_dispose (GObject *object)
{
  SpsApplication *self = SPS_APPLICATION (object);

  g_clear_object (&self->screenshot_job);
  g_clear_pointer (&self->preload, _sps_preload_drop);
  if (self->preferences != NULL)
    gtk_window_destroy (self->preferences);

  g_clear_object (&self->keybindings);
  g_clear_object (&self->settings);
  g_clear_object (&self->settings_provider);

  G_OBJECT_CLASS (sps_application_parent_class)->dispose (object);
}

static void
sps_application_finalize (GObject *object)
{
  SpsApplication *self = SPS_APPLICATION (object);

  g_clear_pointer (&self->screenshot_path, g_free);
  g_clear_pointer (&self->import_options, g_variant_unref);

  G_OBJECT_CLASS (sps_application_parent_class)->finalize (object);
}

/* Every application window gets the shortcuts window generated from the
 * key binding table (there is no help-overlay.ui resource for GTK to load) */
static void
sps_application_window_added (GtkApplication *application,
                              GtkWindow      *window)
{
  GTK_APPLICATION_CLASS (sps_application_parent_class)->window_added (application, window);

  if (GTK_IS_APPLICATION_WINDOW (window) &&
      gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)) == NULL)
    {
      g_autoptr(GtkWidget) overlay = _sps_shortcuts_window_new (application);

      gtk_application_window_set_help_overlay (GTK_APPLICATION_WINDOW (window), GTK_SHORTCUTS_WINDOW (overlay));
    }
}

static void
sps_application_class_init (SpsApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);
  GtkApplicationClass *gtk_app_class = GTK_APPLICATION_CLASS (klass);

  object_class->dispose = sps_application_dispose;
  object_class->finalize = sps_application_finalize;

  app_class->local_command_line = sps_application_local_command_line;
  app_class->handle_local_options = sps_application_handle_local_options;
  app_class->startup = sps_application_startup;
  app_class->activate = sps_application_activate;
  app_class->open = sps_application_open;

  gtk_app_class->window_added = sps_application_window_added;
}

static void
sps_application_init (SpsApplication *self)
{
  self->screenshot_width = 1280;
  self->screenshot_height = 800;

  _sps_application_add_options (self);
  g_application_set_option_context_parameter_string (G_APPLICATION (self), _("[FILE…]"));
  g_application_set_option_context_summary (G_APPLICATION (self),
                                            _("Open traces and explore them on a timeline."));
  g_application_set_option_context_description (G_APPLICATION (self),
                                                _("Formats: Chrome JSON traces (.json, also gzip-compressed "
                                                  ".json.gz), .NET EventPipe traces (.nettrace) and embedded "
                                                  "trace streams (.etrace, .bin)."));
}

/**
 * sps_application_new:
 *
 * Returns: (transfer full): the application
 */
SpsApplication *
sps_application_new (void)
{
  return g_object_new (SPS_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", "/io/github/spanscope/Spanscope",
                       NULL);
}

/**
 * sps_application_get_settings:
 * @self: a #SpsApplication
 *
 * Returns: (transfer none): the application's settings (after startup)
 */
GSettings *
sps_application_get_settings (SpsApplication *self)
{
  g_return_val_if_fail (SPS_IS_APPLICATION (self), NULL);

  return self->settings;
}

/**
 * sps_application_open_file:
 * @self: a #SpsApplication
 * @file: a trace file
 * @preferred: (nullable): the window the request came from
 *
 * Shows @file: the window that already shows it is raised; otherwise it
 * is loaded into @preferred (or the active window) if that window has no
 * trace yet, or into a new window, one window per trace.
 */
void
sps_application_open_file (SpsApplication *self,
                           GFile          *file,
                           GtkWindow      *preferred)
{
  sps_application_open_file_with_options (self, file, preferred, NULL);
}

/**
 * sps_application_open_file_with_options:
 * @self: a #SpsApplication
 * @file: a trace file
 * @preferred: (nullable): the window the request came from
 * @options: (nullable): importer options for sps_window_load_with_options()
 *
 * Like sps_application_open_file(), loading with @options.
 */
void
sps_application_open_file_with_options (SpsApplication *self,
                                        GFile          *file,
                                        GtkWindow      *preferred,
                                        GVariant       *options)
{
  g_autoptr(GVariant) defaults = NULL;
  GtkWindow *window;

  g_return_if_fail (SPS_IS_APPLICATION (self));
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (preferred == NULL || GTK_IS_WINDOW (preferred));

  if ((window = GTK_WINDOW (sps_application_find_window (self, file))))
    {
      gtk_window_present (window);
      return;
    }

  if (preferred == NULL)
    preferred = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (preferred != NULL && window_is_unused (preferred))
    window = preferred;
  else
    window = GTK_WINDOW (sps_window_new (self));

  defaults = sps_application_dup_import_options (self, options);
  sps_window_load_with_options (SPS_WINDOW (window), file, defaults);
  gtk_window_present (window);
}

/**
 * sps_application_add_recent:
 * @self: a #SpsApplication
 * @file: a trace that was opened
 *
 * Puts @file first in the recent files, in the settings (for the menu and
 * the welcome page) and in the desktop's recent files.
 */
void
sps_application_add_recent (SpsApplication *self,
                            GFile          *file)
{
  g_autoptr(GStrvBuilder) builder = NULL;
  g_autofree char *uri = NULL;
  g_auto(GStrv) old = NULL;
  g_auto(GStrv) uris = NULL;
  guint n = 1;

  g_return_if_fail (SPS_IS_APPLICATION (self));
  g_return_if_fail (G_IS_FILE (file));

  /* A screenshot is no use of the file by the user */
  if (self->screenshot_path != NULL)
    return;

  uri = g_file_get_uri (file);
  gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);

  if (self->settings == NULL)
    return;

  builder = g_strv_builder_new ();
  g_strv_builder_add (builder, uri);

  old = g_settings_get_strv (self->settings, "recent-files");
  for (guint i = 0; old[i] != NULL && n < SPS_APPLICATION_MAX_RECENT; i++)
    {
      if (g_str_equal (old[i], uri))
        continue;
      g_strv_builder_add (builder, old[i]);
      n++;
    }

  uris = g_strv_builder_end (builder);
  g_settings_set_strv (self->settings, "recent-files", (const char * const *) uris);
}

/**
 * sps_application_get_exit_status:
 * @self: a #SpsApplication
 *
 * Returns: what the process should exit with after g_application_run():
 *   non-zero when `--screenshot` failed
 */
int
sps_application_get_exit_status (SpsApplication *self)
{
  g_return_val_if_fail (SPS_IS_APPLICATION (self), 1);

  return self->exit_status;
}

/**
 * sps_application_dup_import_options:
 * @self: a #SpsApplication
 * @options: (nullable): importer options the user gave for a file
 *
 * The importer options a file is opened with: @options when given (the
 * command line's --ns and --us), else the Preferences' unit of Chrome
 * JSON timestamps when it is not the importer's own default
 * (microseconds), so that a file opened with the defaults records no
 * options in a profile saved from it.
 *
 * Returns: (transfer full) (nullable): the options, %NULL for none
 */
GVariant *
sps_application_dup_import_options (SpsApplication *self,
                                    GVariant       *options)
{
  g_autofree char *unit = NULL;

  g_return_val_if_fail (SPS_IS_APPLICATION (self), NULL);

  if (options != NULL)
    return g_variant_ref_sink (options);
  if (self->settings == NULL)
    return NULL;

  unit = g_settings_get_string (self->settings, "timestamp-unit");
  return _sps_application_unit_options (unit);
}

/* The importer options that say @unit, the settings' timestamp unit:
 * none for microseconds, the importers' own default */
GVariant *
_sps_application_unit_options (const char *unit)
{
  GVariantDict dict;

  if (g_str_equal (unit, "us"))
    return NULL;

  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert (&dict, "timestamp-unit", "s", unit);

  return g_variant_ref_sink (g_variant_dict_end (&dict));
}

/**
 * sps_application_show_preferences:
 * @self: a #SpsApplication
 * @page: (nullable): the page to show ("appearance", "plugins",
 *   "keyboard"), or %NULL for the one shown last
 *
 * Presents the Preferences window, transient for the active window:
 * there is one per application, raised when it is open already.
 *
 * Returns: (transfer none): the Preferences window
 */
GtkWindow *
sps_application_show_preferences (SpsApplication *self,
                                  const char     *page)
{
  GtkWindow *active;

  g_return_val_if_fail (SPS_IS_APPLICATION (self), NULL);

  active = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (self->preferences == NULL)
    {
      self->preferences = GTK_WINDOW (sps_preferences_window_new (self, sps_plugin_engine_get_default ()));
      g_object_add_weak_pointer (G_OBJECT (self->preferences), (gpointer *) &self->preferences);
    }

  if (active != self->preferences)
    gtk_window_set_transient_for (self->preferences, active);
  if (page != NULL)
    sps_preferences_window_set_page (SPS_PREFERENCES_WINDOW (self->preferences), page);
  gtk_window_present (self->preferences);

  return self->preferences;
}
