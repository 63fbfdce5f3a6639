/* sps-plugins-page.c: the plugin manager (the Preferences' Plugins
 * page): the plugins found, why any failed, and switches to turn them off
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-plugins-page"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-panel-util.h"
#include "sps-plugins-page.h"

/**
 * SpsPluginsPage:
 *
 * The plugin manager, the Preferences' Plugins page: every plugin the engine found, one row each, with
 * its name, version, description, authors, website, what it provides,
 * its module and folder, and whether it is loaded, failed (with the
 * reason) or turned off. A switch per plugin turns it off or on: the
 * module names turned off are the `disabled-plugins` setting, which the
 * engine follows (see sps_plugin_engine_set_disabled()). Failed plugins
 * come first, so that what needs attention is on top.
 */

struct _SpsPluginsPage
{
  GtkWidget        parent_instance;

  SpsPluginEngine *engine;
  GSettings       *settings;
  GtkListBox      *list;
  GtkLabel        *summary;
  guint            refill_id;
};

G_DEFINE_FINAL_TYPE (SpsPluginsPage, sps_plugins_page, GTK_TYPE_WIDGET)

static void sps_plugins_page_fill (SpsPluginsPage *self);

static GtkWidget *
new_label (const char *text,
           const char *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);

  return label;
}

static gboolean
refill_idle (gpointer data)
{
  SpsPluginsPage *self = data;

  self->refill_id = 0;
  sps_plugins_page_fill (self);

  return G_SOURCE_REMOVE;
}

/* The switch of a plugin's row: turns its module off or on in the
 * settings and in the engine (which also follows the settings; telling
 * it here makes the new state visible at once), then shows the list again
 * once the switch's own handler has returned. */
static void
on_switch_active (GtkSwitch        *toggle,
                  GParamSpec       *pspec,
                  SpsPluginsPage *self)
{
  const char *module = g_object_get_data (G_OBJECT (toggle), "module");
  g_auto(GStrv) old = g_settings_get_strv (self->settings, "disabled-plugins");
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) disabled = NULL;

  g_assert (GTK_IS_SWITCH (toggle));
  g_assert (SPS_IS_PLUGINS_PAGE (self));
  g_assert (module != NULL);

  for (guint i = 0; old[i] != NULL; i++)
    if (!g_str_equal (old[i], module))
      g_strv_builder_add (builder, old[i]);
  if (!gtk_switch_get_active (toggle))
    g_strv_builder_add (builder, module);
  disabled = g_strv_builder_end (builder);

  g_settings_set_strv (self->settings, "disabled-plugins", (const char * const *) disabled);
  sps_plugin_engine_set_disabled (self->engine, (const char * const *) disabled);

  if (self->refill_id == 0)
    self->refill_id = g_idle_add_full (G_PRIORITY_DEFAULT, refill_idle, self, NULL);
}

static const char *
state_text (SpsPluginState state)
{
  switch (state)
    {
    case SPS_PLUGIN_STATE_LOADED:
      return _("Loaded");
    case SPS_PLUGIN_STATE_DISABLED:
      return _("Turned off");
    case SPS_PLUGIN_STATE_NOT_NEEDED:
      /* Translators: a plugin of a kind the program does not load */
      return _("Not used");
    case SPS_PLUGIN_STATE_FAILED:
    default:
      return _("Failed");
    }
}

/* "Importer, exporter · module lines" */
static char *
format_kinds_and_module (SpsPluginStatus *status)
{
  const char * const *kinds = sps_plugin_status_get_kinds (status);
  const char *module = sps_plugin_status_get_module_name (status);
  g_autoptr(GString) details = g_string_new (NULL);

  for (guint k = 0; kinds[k] != NULL; k++)
    {
      const char *label = sps_plugin_kind_get_label (kinds[k]);

      if (details->len > 0)
        g_string_append (details, ", ");
      if (details->len == 0)
        {
          g_autofree char *first = _sps_panel_capitalized (label);

          g_string_append (details, first);
        }
      else
        g_string_append (details, label);
    }
  if (module != NULL)
    {
      if (details->len > 0)
        g_string_append (details, " · ");
      /* Translators: %s is the module name of a plugin */
      g_string_append_printf (details, _("module %s"), module);
    }

  return g_string_free (g_steal_pointer (&details), FALSE);
}

static GtkWidget *
create_row (SpsPluginsPage *self,
            SpsPluginStatus  *status)
{
  const char * const *authors = sps_plugin_status_get_authors (status);
  const char *module = sps_plugin_status_get_module_name (status);
  const char *name = sps_plugin_status_get_name (status);
  const char *description = sps_plugin_status_get_description (status);
  const char *version = sps_plugin_status_get_version (status);
  const char *website = sps_plugin_status_get_website (status);
  SpsPluginState state = sps_plugin_status_get_state (status);
  g_autofree char *folder = g_path_get_dirname (sps_plugin_status_get_plugin_file (status));
  g_autofree char *basename = g_path_get_basename (sps_plugin_status_get_plugin_file (status));
  g_autofree char *details = format_kinds_and_module (status);
  g_autofree char *title_text = NULL;
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);
  GtkWidget *top = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *title;
  GtkWidget *label;

  /* Translators: a plugin's name and version, "Chrome JSON 1.0" */
  title_text = version != NULL ? g_strdup_printf (C_("plugin name", "%s %s"), name != NULL ? name : basename, version)
                               : g_strdup (name != NULL ? name : basename);
  title = new_label (title_text, "heading");
  gtk_widget_set_hexpand (title, TRUE);
  gtk_box_append (GTK_BOX (top), title);

  label = gtk_label_new (state_text (state));
  gtk_widget_set_valign (label, GTK_ALIGN_START);
  gtk_widget_add_css_class (label, state == SPS_PLUGIN_STATE_LOADED ? "success" :
                                   state == SPS_PLUGIN_STATE_FAILED ? "error" : "dim-label");
  gtk_widget_add_css_class (label, "caption-heading");
  gtk_box_append (GTK_BOX (top), label);

  /* A plugin whose file could not be read has no module to turn off */
  if (module != NULL)
    {
      GtkWidget *toggle = gtk_switch_new ();
      g_autofree char *toggle_name = g_strdup_printf ("switch-%s", module);

      gtk_switch_set_active (GTK_SWITCH (toggle), state != SPS_PLUGIN_STATE_DISABLED);
      gtk_widget_set_valign (toggle, GTK_ALIGN_START);
      gtk_widget_set_name (toggle, toggle_name);
      /* Translators: the tooltip of the switch of a plugin */
      gtk_widget_set_tooltip_text (toggle, _("Use this plugin"));
      g_object_set_data_full (G_OBJECT (toggle), "module", g_strdup (module), g_free);
      g_signal_connect_object (toggle, "notify::active", G_CALLBACK (on_switch_active), self, 0);
      gtk_box_append (GTK_BOX (top), toggle);
    }
  gtk_box_append (GTK_BOX (box), top);

  if (description != NULL)
    gtk_box_append (GTK_BOX (box), new_label (description, NULL));
  if (details[0] != '\0')
    gtk_box_append (GTK_BOX (box), new_label (details, "caption"));
  if (authors[0] != NULL)
    {
      g_autofree char *joined = g_strjoinv (", ", (char **) authors);
      /* Translators: %s lists the authors of a plugin */
      g_autofree char *text = g_strdup_printf (_("By %s"), joined);

      gtk_box_append (GTK_BOX (box), new_label (text, "caption"));
    }
  if (website != NULL)
    {
      g_autofree char *markup = g_markup_printf_escaped ("<a href=\"%s\">%s</a>", website, website);

      label = new_label (NULL, "caption");
      gtk_label_set_markup (GTK_LABEL (label), markup);
      gtk_box_append (GTK_BOX (box), label);
    }

  gtk_box_append (GTK_BOX (box), new_label (folder, "dim-label"));
  gtk_widget_add_css_class (gtk_widget_get_last_child (box), "caption");

  if (state == SPS_PLUGIN_STATE_FAILED)
    gtk_box_append (GTK_BOX (box), new_label (sps_plugin_status_get_error (status), "error"));

  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_widget_set_name (row, module != NULL ? module : basename);

  return row;
}

static void
sps_plugins_page_fill (SpsPluginsPage *self)
{
  g_autoptr(GListModel) list = sps_plugin_engine_list_status (self->engine);
  guint n = g_list_model_get_n_items (list);
  guint n_failed = 0;
  guint n_off = 0;
  g_autofree char *summary = NULL;
  GtkWidget *child;

  g_assert (SPS_IS_PLUGINS_PAGE (self));

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list))))
    gtk_list_box_remove (self->list, child);

  /* Failed ones first, then the rest, each in precedence order. */
  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < n; i++)
      {
        g_autoptr(SpsPluginStatus) status = g_list_model_get_item (list, i);
        SpsPluginState state = sps_plugin_status_get_state (status);
        gboolean failed = state == SPS_PLUGIN_STATE_FAILED;

        if (failed != (pass == 0))
          continue;
        n_failed += failed;
        n_off += state == SPS_PLUGIN_STATE_DISABLED;
        gtk_list_box_append (self->list, create_row (self, status));
      }

  if (n == 0)
    summary = g_strdup (_("No plugins were found. Spanscope can open no traces without them."));
  else if (n_failed == 0 && n_off == 0)
    summary = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u plugin, all loaded.",
                                            "%u plugins, all loaded.", n), n);
  else if (n_failed == 0)
    /* Translators: the first %u counts plugins turned off, the second all plugins */
    summary = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u of %u plugins is turned off.",
                                            "%u of %u plugins are turned off.", n_off), n_off, n);
  else
    /* Translators: the first %u counts plugins that failed, the second all plugins */
    summary = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u of %u plugins failed and is skipped; "
                                            "the others work.",
                                            "%u of %u plugins failed and are skipped; the others work.",
                                            n_failed), n_failed, n);
  gtk_label_set_text (self->summary, summary);
}

static void
sps_plugins_page_dispose (GObject *object)
{
  SpsPluginsPage *self = (SpsPluginsPage *)object;
  GtkWidget *child;

  g_clear_handle_id (&self->refill_id, g_source_remove);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))))
    gtk_widget_unparent (child);
  g_clear_object (&self->engine);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (sps_plugins_page_parent_class)->dispose (object);
}

static void
sps_plugins_page_class_init (SpsPluginsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sps_plugins_page_dispose;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
sps_plugins_page_init (SpsPluginsPage *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *clamp = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  self->summary = GTK_LABEL (new_label ("", "dim-label"));
  gtk_label_set_selectable (self->summary, FALSE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->summary));

  self->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->list, GTK_SELECTION_NONE);
  gtk_widget_add_css_class (GTK_WIDGET (self->list), "boxed-list");
  gtk_widget_add_css_class (GTK_WIDGET (self->list), "sps-boxed-list");
  gtk_widget_set_valign (GTK_WIDGET (self->list), GTK_ALIGN_START);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->list));

  gtk_widget_add_css_class (clamp, "sps-preferences-page");
  gtk_box_append (GTK_BOX (clamp), box);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), clamp);
  gtk_widget_set_parent (scrolled, GTK_WIDGET (self));
}

/**
 * sps_plugins_page_new:
 * @engine: the engine whose plugins to list and turn off or on
 *
 * Returns: (transfer floating): a new plugin manager
 */
GtkWidget *
sps_plugins_page_new (SpsPluginEngine *engine)
{
  SpsPluginsPage *self;

  g_return_val_if_fail (SPS_IS_PLUGIN_ENGINE (engine), NULL);

  self = g_object_new (SPS_TYPE_PLUGINS_PAGE, NULL);
  self->engine = g_object_ref (engine);
  self->settings = g_settings_new (APP_ID);
  sps_plugins_page_fill (self);

  return GTK_WIDGET (self);
}
