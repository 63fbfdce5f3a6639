/* sps-warning-banner.c: the import warnings of a trace, under the header bar
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-warning-banner"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-import-warnings.h"
#include "sps-warning-banner.h"

/**
 * SpsWarningBanner:
 *
 * A bar that says what the import of the shown trace warned about: the
 * most frequent counters in one line ("342 async begins without an end,
 * 16 events of unsupported phases…"), and a Details popover that lists
 * every counter with what it means for the data and its first message.
 * Plugins that failed (see SpsPluginEngine) are said there too, with
 * their reasons in the popover and a way to the Plugins dialog. It hides
 * itself when there is nothing to say; the user can close it.
 */

/* Counters named in the bar itself; the rest are in the popover. */
#define SUMMARY_ITEMS 2

struct _SpsWarningBanner
{
  GtkWidget   parent_instance;

  GtkWidget  *box;
  GtkLabel   *summary_label;
  GtkWidget  *details_button;
  GtkWidget  *details_list;
  SpsTrace   *trace;
  guint       n_warnings;
  guint       n_plugin_failures;
};

G_DEFINE_FINAL_TYPE (SpsWarningBanner, sps_warning_banner, GTK_TYPE_WIDGET)

static GtkWidget *
new_label (const char *text,
           const char *style_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 60);
  if (style_class != NULL)
    gtk_widget_add_css_class (label, style_class);

  return label;
}

/* One counter in the popover: its summary, what it means, an example */
static GtkWidget *
new_detail_row (const SpsImportWarning *warning)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *title = new_label (warning->title, "heading");
  GtkWidget *name = new_label (warning->name, "dim-label");

  gtk_widget_add_css_class (name, "caption");
  gtk_widget_add_css_class (name, "monospace");
  gtk_box_append (GTK_BOX (row), title);
  gtk_box_append (GTK_BOX (row), name);
  gtk_box_append (GTK_BOX (row), new_label (warning->meaning, NULL));

  if (warning->example != NULL && warning->example[0] != '\0')
    {
      /* Translators: before the message of a warning's first occurrence */
      g_autofree char *text = g_strdup_printf (_("First: %s"), warning->example);
      GtkWidget *example = new_label (text, "dim-label");

      gtk_label_set_selectable (GTK_LABEL (example), TRUE);
      /* Selectable for a drag, but not focused when the popover opens:
       * that would select all of the first message. */
      gtk_widget_set_can_focus (example, FALSE);
      gtk_widget_add_css_class (example, "caption");
      gtk_box_append (GTK_BOX (row), example);
    }

  return row;
}

/* The failed plugins in the popover; returns how many */
static guint
add_plugin_failures (SpsWarningBanner *self)
{
  g_autoptr(GListModel) list = sps_plugin_engine_list_status (sps_plugin_engine_get_default ());
  GtkWidget *button;
  guint n_failed = 0;

  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr(SpsPluginStatus) status = g_list_model_get_item (list, i);
      g_autofree char *basename = NULL;
      const char *name;
      GtkWidget *row;

      if (sps_plugin_status_get_state (status) != SPS_PLUGIN_STATE_FAILED)
        continue;

      if (n_failed++ == 0)
        /* Translators: the heading of the failed plugins in the popover of warnings */
        gtk_box_append (GTK_BOX (self->details_list), new_label (_("Plugins that failed"), "title-4"));

      basename = g_path_get_basename (sps_plugin_status_get_plugin_file (status));
      name = sps_plugin_status_get_name (status);
      row = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
      gtk_box_append (GTK_BOX (row), new_label (name != NULL ? name : basename, "heading"));
      gtk_box_append (GTK_BOX (row), new_label (sps_plugin_status_get_error (status), NULL));
      gtk_box_append (GTK_BOX (self->details_list), row);
    }

  if (n_failed > 0)
    {
      button = gtk_button_new_with_mnemonic (_("_Plugins…"));
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "app.plugins");
      gtk_widget_set_halign (button, GTK_ALIGN_START);
      gtk_box_append (GTK_BOX (self->details_list), button);
    }

  return n_failed;
}

static void
on_close_clicked (SpsWarningBanner *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

/* A plugin failed after the trace was shown (a view, an importer of a
 * later load): the banner counts it too. */
static void
on_plugin_failed (SpsWarningBanner *self)
{
  if (self->trace != NULL)
    sps_warning_banner_set_trace (self, self->trace);
}

static void
sps_warning_banner_dispose (GObject *object)
{
  SpsWarningBanner *self = SPS_WARNING_BANNER (object);

  g_clear_object (&self->trace);
  g_clear_pointer (&self->box, gtk_widget_unparent);

  G_OBJECT_CLASS (sps_warning_banner_parent_class)->dispose (object);
}

static void
sps_warning_banner_class_init (SpsWarningBannerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sps_warning_banner_dispose;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "warningbanner");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_STATUS);
}

static void
sps_warning_banner_init (SpsWarningBanner *self)
{
  GtkWidget *popover;
  GtkWidget *scroller;
  GtkWidget *close;
  GtkWidget *icon;

  self->box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  gtk_widget_add_css_class (GTK_WIDGET (self), "sps-warning-banner");

  icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");
  gtk_box_append (GTK_BOX (self->box), icon);

  self->summary_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->summary_label, 0);
  gtk_label_set_ellipsize (self->summary_label, PANGO_ELLIPSIZE_END);
  gtk_label_set_single_line_mode (self->summary_label, TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self->summary_label), TRUE);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->summary_label));

  self->details_list = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  gtk_widget_set_margin_start (self->details_list, 6);
  gtk_widget_set_margin_end (self->details_list, 6);
  gtk_widget_set_margin_top (self->details_list, 6);
  gtk_widget_set_margin_bottom (self->details_list, 6);

  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_propagate_natural_width (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroller), 420);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->details_list);

  popover = gtk_popover_new ();
  gtk_popover_set_child (GTK_POPOVER (popover), scroller);

  self->details_button = gtk_menu_button_new ();
  gtk_menu_button_set_label (GTK_MENU_BUTTON (self->details_button), _("_Details"));
  gtk_menu_button_set_use_underline (GTK_MENU_BUTTON (self->details_button), TRUE);
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (self->details_button), popover);
  gtk_widget_set_tooltip_text (self->details_button, _("Every warning of the import and what it means"));
  gtk_box_append (GTK_BOX (self->box), self->details_button);

  close = gtk_button_new_from_icon_name ("window-close-symbolic");
  gtk_widget_add_css_class (close, "flat");
  gtk_widget_set_tooltip_text (close, _("Hide the warnings"));
  g_signal_connect_object (close, "clicked", G_CALLBACK (on_close_clicked), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (self->box), close);

  g_signal_connect_object (sps_plugin_engine_get_default (), "plugin-failed",
                           G_CALLBACK (on_plugin_failed), self, G_CONNECT_SWAPPED);

  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

/**
 * sps_warning_banner_new:
 *
 * Returns: (transfer floating): a hidden banner
 */
GtkWidget *
sps_warning_banner_new (void)
{
  return g_object_new (SPS_TYPE_WARNING_BANNER, NULL);
}

/**
 * sps_warning_banner_set_trace:
 * @self: a #SpsWarningBanner
 * @trace: (nullable): the shown trace
 *
 * Shows the warnings of @trace, or hides the banner when it has none (or
 * for %NULL). With a trace, the banner also counts the plugins that
 * failed, and follows the default plugin engine: a plugin that fails
 * later is added (and the banner shown again).
 */
void
sps_warning_banner_set_trace (SpsWarningBanner *self,
                              SpsTrace         *trace)
{
  g_autoptr(GPtrArray) warnings = NULL;
  g_autofree char *summary = NULL;
  GtkWidget *child;

  g_return_if_fail (SPS_IS_WARNING_BANNER (self));
  g_return_if_fail (trace == NULL || SPS_IS_TRACE (trace));

  g_set_object (&self->trace, trace);

  while ((child = gtk_widget_get_first_child (self->details_list)))
    gtk_box_remove (GTK_BOX (self->details_list), child);

  warnings = trace != NULL ? sps_import_warnings_collect (trace) : g_ptr_array_new ();
  self->n_warnings = warnings->len;

  summary = sps_import_warnings_format_summary (warnings, SUMMARY_ITEMS);
  gtk_label_set_text (self->summary_label, summary);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->summary_label), summary);

  if (warnings->len > 0)
    {
      /* Translators: the heading of the popover of import warnings */
      GtkWidget *heading = new_label (_("The import reported"), "title-4");

      gtk_box_append (GTK_BOX (self->details_list), heading);
    }

  for (guint i = 0; i < warnings->len; i++)
    gtk_box_append (GTK_BOX (self->details_list), new_detail_row (g_ptr_array_index (warnings, i)));

  /* Broken plugins matter with or without a trace's warnings */
  self->n_plugin_failures = trace != NULL ? add_plugin_failures (self) : 0;
  if (self->n_plugin_failures > 0)
    {
      g_autofree char *plugins = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                               "%u plugin failed and is skipped",
                                                               "%u plugins failed and are skipped",
                                                               self->n_plugin_failures),
                                                  self->n_plugin_failures);
      g_autofree char *joined = summary[0] != '\0' ? g_strdup_printf ("%s; %s", summary, plugins)
                                                    : g_strdup (plugins);

      gtk_label_set_text (self->summary_label, joined);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->summary_label), joined);
    }

  gtk_widget_set_visible (GTK_WIDGET (self), warnings->len > 0 || self->n_plugin_failures > 0);
}

/**
 * sps_warning_banner_get_summary:
 * @self: a #SpsWarningBanner
 *
 * Returns: the text of the bar ("" without warnings)
 */
const char *
sps_warning_banner_get_summary (SpsWarningBanner *self)
{
  g_return_val_if_fail (SPS_IS_WARNING_BANNER (self), NULL);

  return gtk_label_get_text (self->summary_label);
}

/**
 * sps_warning_banner_get_n_warnings:
 * @self: a #SpsWarningBanner
 *
 * Returns: how many counters the details list
 */
guint
sps_warning_banner_get_n_warnings (SpsWarningBanner *self)
{
  g_return_val_if_fail (SPS_IS_WARNING_BANNER (self), 0);

  return self->n_warnings;
}

/**
 * sps_warning_banner_get_n_plugin_failures:
 * @self: a #SpsWarningBanner
 *
 * Returns: how many failed plugins the banner reports
 */
guint
sps_warning_banner_get_n_plugin_failures (SpsWarningBanner *self)
{
  g_return_val_if_fail (SPS_IS_WARNING_BANNER (self), 0);

  return self->n_plugin_failures;
}
