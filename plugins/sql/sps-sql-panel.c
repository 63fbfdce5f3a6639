/* sps-sql-panel.c: the SQL panel: query tabs, schema inspector, builder
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-sql-panel"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-sql-panel.h"

#define SETTINGS_SCHEMA "io.github.spanscope.Spanscope.sql"

#define EXAMPLE_QUERY \
  "SELECT name, count(*) AS count, sum(dur) AS total\n" \
  "FROM slices\n" \
  "GROUP BY name\n" \
  "ORDER BY total DESC"

struct _SpsSqlPanel
{
  GtkWidget      parent_instance;

  SpsSession    *session;
  GSettings     *settings;
  GCancellable  *cancellable;

  GtkNotebook   *notebook;
  GtkWidget     *run_button;
  GtkWidget     *cancel_button;
  GtkSpinner    *spinner;
  GtkEntry      *rename_entry;
  GtkPopover    *rename_popover;
  SpsSqlSchema  *schema;
  SpsSqlBuilder *builder;

  guint          save_id;
  guint          next_number;
  int            pending_page;
  gboolean       restoring;
  gboolean       described;
};

G_DEFINE_FINAL_TYPE (SpsSqlPanel, sps_sql_panel, GTK_TYPE_WIDGET)

static void update_actions (SpsSqlPanel *self);

static gboolean
save_cb (gpointer user_data)
{
  SpsSqlPanel *self = user_data;

  self->save_id = 0;
  sps_sql_panel_save (self);
  return G_SOURCE_REMOVE;
}

static void
queue_save (SpsSqlPanel *self)
{
  g_assert (SPS_IS_SQL_PANEL (self));

  if (self->restoring || self->settings == NULL)
    return;
  g_clear_handle_id (&self->save_id, g_source_remove);
  self->save_id = g_timeout_add (500, save_cb, self);
}

static void
describe_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(SpsSqlPanel) self = user_data;
  g_autoptr(SpsSqlResult) description = NULL;
  g_autoptr(GError) error = NULL;

  if (!(description = sps_sql_engine_describe_finish (SPS_SQL_ENGINE (object), result, &error)))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
          !g_error_matches (error, SPS_SQL_ERROR, SPS_SQL_ERROR_INTERRUPTED))
        g_warning ("Cannot list the SQL tables: %s", error->message);
      return;
    }
  if (self->schema == NULL)
    return;

  sps_sql_schema_set_description (self->schema, description);
  sps_sql_builder_refresh (self->builder);
}

/* Lists tables and columns again: queries may create temporary ones. */
static void
describe (SpsSqlPanel *self)
{
  SpsSqlEngine *engine;

  g_assert (SPS_IS_SQL_PANEL (self));

  if ((engine = sps_session_get_sql_engine (self->session, NULL)) != NULL)
    sps_sql_engine_describe_async (engine, self->cancellable, describe_cb, g_object_ref (self));
  self->described = TRUE;
}

static void
on_map (SpsSqlPanel *self)
{
  g_assert (SPS_IS_SQL_PANEL (self));

  if (self->pending_page > 0)
    {
      self->restoring = TRUE;
      gtk_notebook_set_current_page (self->notebook, self->pending_page);
      self->pending_page = -1;
      self->restoring = FALSE;
      update_actions (self);
    }
  if (!self->described)
    describe (self);
}

static void
on_tab_running (SpsSqlPanel *self,
                GParamSpec  *pspec,
                SpsSqlTab   *tab)
{
  g_assert (SPS_IS_SQL_PANEL (self));

  if (!sps_sql_tab_get_running (tab) && sps_sql_tab_get_error (tab) == NULL)
    describe (self);
  update_actions (self);
}

static void
update_actions (SpsSqlPanel *self)
{
  SpsSqlTab *tab = sps_sql_panel_get_current_tab (self);
  gboolean running = tab != NULL && sps_sql_tab_get_running (tab);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "sql.cancel", running);
  gtk_widget_set_visible (self->cancel_button, running);
  gtk_spinner_set_spinning (self->spinner, running);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), running);
}

static void
on_close_clicked (GtkButton *button,
                  SpsSqlTab *tab)
{
  GtkWidget *panel = gtk_widget_get_ancestor (GTK_WIDGET (tab), SPS_TYPE_SQL_PANEL);

  if (panel != NULL)
    sps_sql_panel_close_tab (SPS_SQL_PANEL (panel), tab);
}

static GtkWidget *
tab_label_new (SpsSqlTab *tab)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  GtkWidget *label = gtk_label_new (NULL);
  GtkWidget *close = gtk_button_new_from_icon_name ("window-close-symbolic");

  g_object_bind_property (tab, "title", label, "label", G_BINDING_SYNC_CREATE);
  gtk_widget_add_css_class (close, "flat");
  gtk_widget_add_css_class (close, "circular");
  gtk_widget_set_tooltip_text (close, _("Close Tab"));
  g_signal_connect_object (close, "clicked", G_CALLBACK (on_close_clicked), tab, 0);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), close);
  return box;
}

static void
run_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  SpsSqlTab *tab = sps_sql_panel_get_current_tab (SPS_SQL_PANEL (widget));

  if (tab != NULL)
    sps_sql_tab_run (tab);
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  SpsSqlTab *tab = sps_sql_panel_get_current_tab (SPS_SQL_PANEL (widget));

  if (tab != NULL)
    sps_sql_tab_cancel (tab);
}

static void
new_tab_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  SpsSqlPanel *self = SPS_SQL_PANEL (widget);
  SpsSqlTab *tab = sps_sql_panel_add_tab (self, NULL, "");

  sps_sql_panel_set_current_tab (self, gtk_notebook_page_num (self->notebook, GTK_WIDGET (tab)));
  gtk_widget_grab_focus (sps_sql_tab_get_editor (tab));
}

static void
close_tab_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  SpsSqlPanel *self = SPS_SQL_PANEL (widget);
  SpsSqlTab *tab = sps_sql_panel_get_current_tab (self);

  if (tab != NULL)
    sps_sql_panel_close_tab (self, tab);
}

/* "sql.rename-tab" with a string renames the current tab; without one it
 * opens the rename popover. */
static void
rename_tab_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  SpsSqlPanel *self = SPS_SQL_PANEL (widget);
  SpsSqlTab *tab = sps_sql_panel_get_current_tab (self);
  g_autofree char *title = NULL;

  if (tab == NULL)
    return;

  title = g_strdup (parameter != NULL ? g_variant_get_string (parameter, NULL)
                                      : gtk_editable_get_text (GTK_EDITABLE (self->rename_entry)));
  g_strstrip (title);
  if (title[0] != '\0')
    {
      sps_sql_tab_set_title (tab, title);
      queue_save (self);
    }
  gtk_popover_popdown (self->rename_popover);
}

static void
on_rename_shown (SpsSqlPanel *self)
{
  SpsSqlTab *tab = sps_sql_panel_get_current_tab (self);

  g_assert (SPS_IS_SQL_PANEL (self));

  if (tab != NULL)
    gtk_editable_set_text (GTK_EDITABLE (self->rename_entry), sps_sql_tab_get_title (tab));
  gtk_widget_grab_focus (GTK_WIDGET (self->rename_entry));
}

static void
on_rename_activate (SpsSqlPanel *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "sql.rename-tab", NULL);
}

static gboolean
update_actions_cb (gpointer user_data)
{
  SpsSqlPanel *self = user_data;

  if (self->notebook != NULL)
    update_actions (self);
  return G_SOURCE_REMOVE;
}

static void
on_switch_page (SpsSqlPanel *self)
{
  g_assert (SPS_IS_SQL_PANEL (self));

  /* The notebook reports the switch before the current page changes. */
  g_idle_add_full (G_PRIORITY_HIGH_IDLE, update_actions_cb, g_object_ref (self), g_object_unref);
  queue_save (self);
}

static void
on_schema_activate_name (SpsSqlPanel *self,
                         const char  *name)
{
  SpsSqlTab *tab = sps_sql_panel_get_current_tab (self);
  g_autoptr(GString) quoted = g_string_new (NULL);

  if (tab == NULL)
    return;
  sps_sql_append_identifier (quoted, name);
  sps_sql_tab_insert_text (tab, quoted->str);
}

static void
on_builder_write_sql (SpsSqlPanel *self,
                      const char  *sql)
{
  SpsSqlTab *tab = sps_sql_panel_get_current_tab (self);

  if (tab == NULL)
    tab = sps_sql_panel_add_tab (self, NULL, "");
  sps_sql_tab_set_text (tab, sql);
  gtk_widget_grab_focus (sps_sql_tab_get_editor (tab));
}

static void
restore (SpsSqlPanel *self)
{
  g_autoptr(GVariant) tabs = NULL;
  GVariantIter iter;
  const char *title;
  const char *text;
  int active;

  g_assert (SPS_IS_SQL_PANEL (self));

  self->restoring = TRUE;
  if (self->settings != NULL)
    {
      tabs = g_settings_get_value (self->settings, "query-tabs");
      g_variant_iter_init (&iter, tabs);
      while (g_variant_iter_next (&iter, "(&s&s)", &title, &text))
        sps_sql_panel_add_tab (self, title, text);
    }
  if (gtk_notebook_get_n_pages (self->notebook) == 0)
    sps_sql_panel_add_tab (self, NULL, EXAMPLE_QUERY);

  /* GTK 4.8's notebook needs a root to switch pages: the saved tab is
   * shown once the panel is mapped. */
  active = self->settings != NULL ? g_settings_get_int (self->settings, "active-query-tab") : 0;
  if (active > 0 && active < gtk_notebook_get_n_pages (self->notebook))
    self->pending_page = active;
  self->restoring = FALSE;
}

static void
sps_sql_panel_dispose (GObject *object)
{
  SpsSqlPanel *self = SPS_SQL_PANEL (object);
  GtkWidget *child;

  if (self->save_id != 0)
    {
      g_clear_handle_id (&self->save_id, g_source_remove);
      sps_sql_panel_save (self);
    }
  if (self->notebook != NULL)
    for (guint i = 0; i < sps_sql_panel_get_n_tabs (self); i++)
      sps_sql_tab_cancel (sps_sql_panel_get_tab (self, i));
  g_cancellable_cancel (self->cancellable);

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  self->notebook = NULL;
  self->schema = NULL;
  self->builder = NULL;

  g_clear_object (&self->cancellable);
  g_clear_object (&self->settings);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (sps_sql_panel_parent_class)->dispose (object);
}

/* Leaving the window (it closes, or the panel is taken out) stops the
 * queries: running ones hold the panel alive until they return. */
static void
sps_sql_panel_unroot (GtkWidget *widget)
{
  SpsSqlPanel *self = SPS_SQL_PANEL (widget);

  for (guint i = 0; self->notebook != NULL && i < sps_sql_panel_get_n_tabs (self); i++)
    sps_sql_tab_cancel (sps_sql_panel_get_tab (self, i));
  g_cancellable_cancel (self->cancellable);
  g_set_object (&self->cancellable, g_cancellable_new ());
  self->described = FALSE;

  GTK_WIDGET_CLASS (sps_sql_panel_parent_class)->unroot (widget);
}

static void
sps_sql_panel_class_init (SpsSqlPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sps_sql_panel_dispose;
  widget_class->unroot = sps_sql_panel_unroot;

  gtk_widget_class_install_action (widget_class, "sql.run", NULL, run_action);
  gtk_widget_class_install_action (widget_class, "sql.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "sql.new-tab", NULL, new_tab_action);
  gtk_widget_class_install_action (widget_class, "sql.close-tab", NULL, close_tab_action);
  gtk_widget_class_install_action (widget_class, "sql.rename-tab", "s", rename_tab_action);
  gtk_widget_class_install_action (widget_class, "sql.rename-current", NULL, rename_tab_action);


  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "sqlpanel");
}

static GtkWidget *
icon_button (const char *icon_name,
             const char *label,
             const char *tooltip,
             const char *action)
{
  GtkWidget *button = gtk_button_new ();
  GtkWidget *content = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  gtk_box_append (GTK_BOX (content), gtk_image_new_from_icon_name (icon_name));
  if (label != NULL)
    gtk_box_append (GTK_BOX (content), gtk_label_new_with_mnemonic (label));
  gtk_button_set_child (GTK_BUTTON (button), content);
  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  return button;
}

static void
add_shortcut (GtkEventController *controller,
              const char         *trigger,
              const char         *action)
{
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller),
                                        gtk_shortcut_new (gtk_shortcut_trigger_parse_string (trigger),
                                                          gtk_named_action_new (action)));
}

static void
sps_sql_panel_init (SpsSqlPanel *self)
{
  GtkEventController *shortcuts;
  GtkWidget *toolbar;
  GtkWidget *end_box;
  GtkWidget *paned;
  GtkWidget *sidebar;
  GtkWidget *stack;
  GtkWidget *switcher;
  GtkWidget *rename;
  GtkWidget *box;
  GtkWidget *button;

  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);
  self->cancellable = g_cancellable_new ();
  self->next_number = 1;
  self->pending_page = -1;

  /* The buttons sit beside the tabs, so the short bottom dock keeps its
   * height for the editor and the rows. */
  toolbar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_margin_start (toolbar, 6);
  gtk_widget_set_margin_end (toolbar, 6);
  gtk_widget_set_valign (toolbar, GTK_ALIGN_CENTER);
  self->run_button = icon_button ("media-playback-start-symbolic", _("_Run"),
                                  _("Run the query (Ctrl+Enter)"), "sql.run");
  gtk_widget_add_css_class (self->run_button, "suggested-action");
  gtk_box_append (GTK_BOX (toolbar), self->run_button);
  self->cancel_button = icon_button ("process-stop-symbolic", _("_Cancel"),
                                     _("Stop the running query"), "sql.cancel");
  gtk_box_append (GTK_BOX (toolbar), self->cancel_button);
  self->spinner = GTK_SPINNER (gtk_spinner_new ());
  gtk_box_append (GTK_BOX (toolbar), GTK_WIDGET (self->spinner));

  end_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 2);
  gtk_widget_set_margin_start (end_box, 6);
  gtk_widget_set_margin_end (end_box, 6);
  gtk_widget_set_valign (end_box, GTK_ALIGN_CENTER);
  button = icon_button ("tab-new-symbolic", NULL, _("New Query Tab (Ctrl+T)"), "sql.new-tab");
  gtk_widget_add_css_class (button, "flat");
  gtk_box_append (GTK_BOX (end_box), button);

  self->rename_popover = GTK_POPOVER (gtk_popover_new ());
  box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  self->rename_entry = GTK_ENTRY (gtk_entry_new ());
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->rename_entry),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Tab name"), -1);
  g_signal_connect_object (self->rename_entry, "activate", G_CALLBACK (on_rename_activate), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->rename_entry));
  button = gtk_button_new_with_mnemonic (_("_Rename"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "sql.rename-current");
  gtk_box_append (GTK_BOX (box), button);
  gtk_popover_set_child (self->rename_popover, box);
  g_signal_connect_object (self->rename_popover, "show", G_CALLBACK (on_rename_shown), self, G_CONNECT_SWAPPED);

  rename = gtk_menu_button_new ();
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (rename), "document-edit-symbolic");
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (rename), GTK_WIDGET (self->rename_popover));
  gtk_widget_set_tooltip_text (rename, _("Rename the Query Tab"));
  gtk_widget_add_css_class (rename, "flat");
  gtk_box_append (GTK_BOX (end_box), rename);

  paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  gtk_widget_set_vexpand (paned, TRUE);
  gtk_paned_set_resize_end_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (paned), FALSE);
  gtk_widget_set_parent (paned, GTK_WIDGET (self));

  self->notebook = GTK_NOTEBOOK (gtk_notebook_new ());
  gtk_notebook_set_scrollable (self->notebook, TRUE);
  gtk_notebook_set_action_widget (self->notebook, toolbar, GTK_PACK_START);
  gtk_notebook_set_action_widget (self->notebook, end_box, GTK_PACK_END);
  gtk_widget_set_hexpand (GTK_WIDGET (self->notebook), TRUE);
  g_signal_connect_object (self->notebook, "switch-page", G_CALLBACK (on_switch_page), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->notebook, "page-reordered", G_CALLBACK (queue_save), self, G_CONNECT_SWAPPED);
  gtk_paned_set_start_child (GTK_PANED (paned), GTK_WIDGET (self->notebook));

  sidebar = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_size_request (sidebar, 260, -1);
  stack = gtk_stack_new ();
  gtk_widget_set_vexpand (stack, TRUE);
  switcher = gtk_stack_switcher_new ();
  gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (switcher), GTK_STACK (stack));
  gtk_widget_set_halign (switcher, GTK_ALIGN_CENTER);
  gtk_widget_set_margin_top (switcher, 4);
  gtk_widget_set_margin_bottom (switcher, 4);
  gtk_box_append (GTK_BOX (sidebar), switcher);
  gtk_box_append (GTK_BOX (sidebar), stack);

  self->schema = SPS_SQL_SCHEMA (sps_sql_schema_new ());
  g_signal_connect_object (self->schema, "activate-name", G_CALLBACK (on_schema_activate_name), self, G_CONNECT_SWAPPED);
  gtk_stack_add_titled (GTK_STACK (stack), GTK_WIDGET (self->schema), "schema", _("Schema"));
  self->builder = SPS_SQL_BUILDER (sps_sql_builder_new (self->schema));
  g_signal_connect_object (self->builder, "write-sql", G_CALLBACK (on_builder_write_sql), self, G_CONNECT_SWAPPED);
  gtk_stack_add_titled (GTK_STACK (stack), GTK_WIDGET (self->builder), "builder", _("Builder"));
  gtk_paned_set_end_child (GTK_PANED (paned), sidebar);

  /* In the capture phase: the editor would otherwise take Ctrl+Enter as a
   * new line before the panel sees it. */
  shortcuts = gtk_shortcut_controller_new ();
  gtk_event_controller_set_propagation_phase (shortcuts, GTK_PHASE_CAPTURE);
  gtk_shortcut_controller_set_scope (GTK_SHORTCUT_CONTROLLER (shortcuts), GTK_SHORTCUT_SCOPE_LOCAL);
  add_shortcut (shortcuts, "<Control>Return", "sql.run");
  add_shortcut (shortcuts, "<Control>KP_Enter", "sql.run");
  add_shortcut (shortcuts, "<Control>t", "sql.new-tab");
  gtk_widget_add_controller (GTK_WIDGET (self), shortcuts);

  g_signal_connect (self, "map", G_CALLBACK (on_map), NULL);
}

GtkWidget *
sps_sql_panel_new (SpsSession *session)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;
  SpsSqlPanel *self;

  g_return_val_if_fail (SPS_IS_SESSION (session), NULL);

  self = g_object_new (SPS_TYPE_SQL_PANEL, NULL);
  self->session = g_object_ref (session);

  /* Without the application's schema (a plugin run elsewhere) the tabs
   * are simply not saved. */
  if (source != NULL && (schema = g_settings_schema_source_lookup (source, SETTINGS_SCHEMA, TRUE)))
    self->settings = g_settings_new (SETTINGS_SCHEMA);

  restore (self);
  update_actions (self);
  return GTK_WIDGET (self);
}

guint
sps_sql_panel_get_n_tabs (SpsSqlPanel *self)
{
  g_return_val_if_fail (SPS_IS_SQL_PANEL (self), 0);

  return gtk_notebook_get_n_pages (self->notebook);
}

SpsSqlTab *
sps_sql_panel_get_tab (SpsSqlPanel *self,
                       guint        index)
{
  GtkWidget *page;

  g_return_val_if_fail (SPS_IS_SQL_PANEL (self), NULL);

  page = gtk_notebook_get_nth_page (self->notebook, index);
  return page != NULL ? SPS_SQL_TAB (page) : NULL;
}

SpsSqlTab *
sps_sql_panel_get_current_tab (SpsSqlPanel *self)
{
  g_return_val_if_fail (SPS_IS_SQL_PANEL (self), NULL);

  if (self->notebook == NULL)
    return NULL;
  return sps_sql_panel_get_tab (self, gtk_notebook_get_current_page (self->notebook));
}

void
sps_sql_panel_set_current_tab (SpsSqlPanel *self,
                               guint        index)
{
  g_return_if_fail (SPS_IS_SQL_PANEL (self));

  gtk_notebook_set_current_page (self->notebook, index);
  update_actions (self);
}

/* Appends a tab; a NULL @title numbers it "Query N". */
SpsSqlTab *
sps_sql_panel_add_tab (SpsSqlPanel *self,
                       const char  *title,
                       const char  *text)
{
  g_autofree char *numbered = NULL;
  SpsSqlTab *tab;

  g_return_val_if_fail (SPS_IS_SQL_PANEL (self), NULL);

  if (title == NULL)
    {
      /* Translators: the name of a new SQL query tab; %u is a number */
      numbered = g_strdup_printf (_("Query %u"), self->next_number);
      title = numbered;
    }
  self->next_number++;

  tab = sps_sql_tab_new (self->session, title, text);
  gtk_notebook_append_page (self->notebook, GTK_WIDGET (tab), tab_label_new (tab));
  gtk_notebook_set_tab_reorderable (self->notebook, GTK_WIDGET (tab), TRUE);
  g_signal_connect_object (sps_sql_tab_get_buffer (tab), "changed", G_CALLBACK (queue_save), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (tab, "notify::title", G_CALLBACK (queue_save), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (tab, "notify::running", G_CALLBACK (on_tab_running), self, G_CONNECT_SWAPPED);
  queue_save (self);
  return tab;
}

/* Closes @tab, cancelling its query; the last tab is replaced by an empty
 * one so there is always an editor. */
void
sps_sql_panel_close_tab (SpsSqlPanel *self,
                         SpsSqlTab   *tab)
{
  int page;

  g_return_if_fail (SPS_IS_SQL_PANEL (self));
  g_return_if_fail (SPS_IS_SQL_TAB (tab));

  if ((page = gtk_notebook_page_num (self->notebook, GTK_WIDGET (tab))) < 0)
    return;
  sps_sql_tab_cancel (tab);
  gtk_notebook_remove_page (self->notebook, page);
  if (gtk_notebook_get_n_pages (self->notebook) == 0)
    sps_sql_panel_add_tab (self, NULL, "");
  queue_save (self);
  update_actions (self);
}

SpsSqlSchema *
sps_sql_panel_get_schema (SpsSqlPanel *self)
{
  g_return_val_if_fail (SPS_IS_SQL_PANEL (self), NULL);

  return self->schema;
}

SpsSqlBuilder *
sps_sql_panel_get_builder (SpsSqlPanel *self)
{
  g_return_val_if_fail (SPS_IS_SQL_PANEL (self), NULL);

  return self->builder;
}

/* Writes the tabs (title, text) and the current tab to GSettings. */
void
sps_sql_panel_save (SpsSqlPanel *self)
{
  g_auto(GVariantBuilder) builder = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("a(ss)"));

  g_return_if_fail (SPS_IS_SQL_PANEL (self));

  g_clear_handle_id (&self->save_id, g_source_remove);
  if (self->settings == NULL || self->notebook == NULL)
    return;

  for (guint i = 0; i < sps_sql_panel_get_n_tabs (self); i++)
    {
      SpsSqlTab *tab = sps_sql_panel_get_tab (self, i);
      g_autofree char *text = sps_sql_tab_dup_text (tab);

      g_variant_builder_add (&builder, "(ss)", sps_sql_tab_get_title (tab), text);
    }
  g_settings_set_value (self->settings, "query-tabs", g_variant_builder_end (&builder));
  g_settings_set_int (self->settings, "active-query-tab", gtk_notebook_get_current_page (self->notebook));
}
