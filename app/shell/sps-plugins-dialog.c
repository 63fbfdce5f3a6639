/* sps-plugins-dialog.c: the plugins found, and why any failed
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-plugins-dialog"

#include "config.h"

#include <glib/gi18n.h>

#include "sps-panel-util.h"
#include "sps-plugins-dialog.h"

/**
 * SpsPluginsDialog:
 *
 * Lists every plugin the engine found, one row each: its name, what it
 * provides, its module and folder, and whether it is loaded or failed,
 * with the reason. Failed plugins come first, so that what needs
 * attention is on top. The list is a snapshot taken when the dialog
 * opens.
 */

struct _SpsPluginsDialog
{
  GtkWindow   parent_instance;

  GtkListBox *list;
  GtkLabel   *summary;
};

G_DEFINE_FINAL_TYPE (SpsPluginsDialog, sps_plugins_dialog, GTK_TYPE_WINDOW)

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

static GtkWidget *
create_row (SpsPluginStatus *status)
{
  const char * const *kinds = sps_plugin_status_get_kinds (status);
  const char *module = sps_plugin_status_get_module_name (status);
  const char *name = sps_plugin_status_get_name (status);
  gboolean loaded = sps_plugin_status_get_state (status) == SPS_PLUGIN_STATE_LOADED;
  g_autofree char *folder = g_path_get_dirname (sps_plugin_status_get_plugin_file (status));
  g_autofree char *basename = g_path_get_basename (sps_plugin_status_get_plugin_file (status));
  g_autoptr(GString) details = g_string_new (NULL);
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);
  GtkWidget *top = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *title;
  GtkWidget *state;

  title = new_label (name != NULL ? name : basename, "heading");
  gtk_widget_set_hexpand (title, TRUE);
  gtk_box_append (GTK_BOX (top), title);

  state = gtk_label_new (loaded ? _("Loaded") : _("Failed"));
  gtk_widget_set_valign (state, GTK_ALIGN_START);
  gtk_widget_add_css_class (state, loaded ? "success" : "error");
  gtk_widget_add_css_class (state, "caption-heading");
  gtk_box_append (GTK_BOX (top), state);
  gtk_box_append (GTK_BOX (box), top);

  /* "Importer, exporter · module lines" */
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
  if (details->len > 0)
    gtk_box_append (GTK_BOX (box), new_label (details->str, "caption"));

  gtk_box_append (GTK_BOX (box), new_label (folder, "dim-label"));
  gtk_widget_add_css_class (gtk_widget_get_last_child (box), "caption");

  if (!loaded)
    gtk_box_append (GTK_BOX (box), new_label (sps_plugin_status_get_error (status), "error"));

  gtk_widget_set_margin_top (box, 9);
  gtk_widget_set_margin_bottom (box, 9);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_widget_set_name (row, module != NULL ? module : basename);

  return row;
}

static void
sps_plugins_dialog_fill (SpsPluginsDialog *self,
                         SpsPluginEngine  *engine)
{
  g_autoptr(GListModel) list = sps_plugin_engine_list_status (engine);
  guint n = g_list_model_get_n_items (list);
  guint n_failed = 0;
  g_autofree char *summary = NULL;

  g_assert (SPS_IS_PLUGINS_DIALOG (self));

  /* Failed ones first, then the rest, each in precedence order. */
  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < n; i++)
      {
        g_autoptr(SpsPluginStatus) status = g_list_model_get_item (list, i);
        gboolean failed = sps_plugin_status_get_state (status) == SPS_PLUGIN_STATE_FAILED;

        if (failed != (pass == 0))
          continue;
        n_failed += failed;
        gtk_list_box_append (self->list, create_row (status));
      }

  if (n == 0)
    summary = g_strdup (_("No plugins were found. Spanscope can open no traces without them."));
  else if (n_failed == 0)
    summary = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u plugin, all loaded.",
                                            "%u plugins, all loaded.", n), n);
  else
    /* Translators: the first %u counts plugins that failed, the second all plugins */
    summary = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u of %u plugins failed and is skipped; "
                                            "the others work.",
                                            "%u of %u plugins failed and are skipped; the others work.",
                                            n_failed), n_failed, n);
  gtk_label_set_text (self->summary, summary);
}

static void
sps_plugins_dialog_class_init (SpsPluginsDialogClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
sps_plugins_dialog_init (SpsPluginsDialog *self)
{
  GtkWidget *header = gtk_header_bar_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *scrolled = gtk_scrolled_window_new ();

  gtk_window_set_title (GTK_WINDOW (self), _("Plugins"));
  gtk_window_set_default_size (GTK_WINDOW (self), 560, 520);
  gtk_window_set_modal (GTK_WINDOW (self), TRUE);
  gtk_window_set_destroy_with_parent (GTK_WINDOW (self), TRUE);
  gtk_window_set_titlebar (GTK_WINDOW (self), header);

  self->summary = GTK_LABEL (new_label ("", "dim-label"));
  gtk_label_set_selectable (self->summary, FALSE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->summary));

  self->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->list, GTK_SELECTION_NONE);
  gtk_widget_add_css_class (GTK_WIDGET (self->list), "boxed-list");
  gtk_widget_set_valign (GTK_WIDGET (self->list), GTK_ALIGN_START);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->list));

  gtk_widget_set_margin_top (box, 18);
  gtk_widget_set_margin_bottom (box, 18);
  gtk_widget_set_margin_start (box, 18);
  gtk_widget_set_margin_end (box, 18);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), box);
  gtk_window_set_child (GTK_WINDOW (self), scrolled);
}

/**
 * sps_plugins_dialog_new:
 * @parent: (nullable): the window the dialog belongs to
 * @engine: the engine whose plugins to list
 *
 * Returns: (transfer none): a new dialog, not shown yet
 */
SpsPluginsDialog *
sps_plugins_dialog_new (GtkWindow       *parent,
                        SpsPluginEngine *engine)
{
  SpsPluginsDialog *self;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (SPS_IS_PLUGIN_ENGINE (engine), NULL);

  self = g_object_new (SPS_TYPE_PLUGINS_DIALOG,
                       "transient-for", parent,
                       NULL);
  sps_plugins_dialog_fill (self, engine);

  return self;
}
