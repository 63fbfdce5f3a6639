/* args-view.c: a view plugin, a panel listing the selected slice's args
 *
 * The panel follows the window's selection. With a slice selected it
 * shows the slice's name and one row per argument, key and value, in the
 * order the trace gives them (a string value as it is, any other value as
 * JSON text); with nothing selected, or a slice without args, it says so.
 * For tests and scripts the heading is named "args-title" and row I's
 * labels "arg-key-I" and "arg-value-I" (from 0).
 *
 * What it shows of the plugin API: a view (SpsView) registered from a
 * module with dynamic types, a panel built for one window's SpsSession
 * that follows the session (notify::selected-slice) for as long as the
 * panel lives, and reading a slice's args from the trace
 * (sps_trace_parse_args(), which also decodes args an importer stored
 * compactly).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <libpeas/peas.h>
#include <spanscope-gtk.h>

/* The panel: a heading over a list of key/value rows */

#define EXAMPLE_TYPE_ARGS_PANEL (example_args_panel_get_type ())
G_DECLARE_FINAL_TYPE (ExampleArgsPanel, example_args_panel, EXAMPLE, ARGS_PANEL, GtkWidget)

struct _ExampleArgsPanel
{
  GtkWidget   parent_instance;

  SpsSession *session;
  GtkWidget  *box;
  GtkWidget  *title;
  GtkWidget  *list;
};

G_DEFINE_DYNAMIC_TYPE (ExampleArgsPanel, example_args_panel, GTK_TYPE_WIDGET)

static void
add_row (ExampleArgsPanel *self,
         guint             i,
         const char       *key,
         JsonNode         *value)
{
  g_autofree char *key_name = g_strdup_printf ("arg-key-%u", i);
  g_autofree char *value_name = g_strdup_printf ("arg-value-%u", i);
  g_autofree char *text = NULL;
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *label;

  if (JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING)
    text = g_strdup (json_node_get_string (value));
  else
    text = json_to_string (value, FALSE);

  label = gtk_label_new (key);
  gtk_widget_set_name (label, key_name);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_box_append (GTK_BOX (row), label);

  label = gtk_label_new (text);
  gtk_widget_set_name (label, value_name);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_box_append (GTK_BOX (row), label);

  gtk_widget_set_margin_start (row, 12);
  gtk_widget_set_margin_end (row, 12);
  gtk_widget_set_margin_top (row, 4);
  gtk_widget_set_margin_bottom (row, 4);
  gtk_list_box_append (GTK_LIST_BOX (self->list), row);
}

/* Shows the args of the session's selected slice */
static void
example_args_panel_update (ExampleArgsPanel *self)
{
  SpsTrace *trace = sps_session_get_trace (self->session);
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  guint slice = sps_session_get_selected_slice (self->session);
  g_autoptr(JsonNode) args = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *title = NULL;
  const char *name;
  GtkWidget *child;
  guint n = 0;

  while ((child = gtk_widget_get_first_child (self->list)) != NULL)
    gtk_list_box_remove (GTK_LIST_BOX (self->list), child);

  /* A real plugin translates these with its own gettext domain */
  if (slice == SPS_NO_INDEX || slice >= slices->n_rows)
    {
      gtk_label_set_text (GTK_LABEL (self->title), "No slice selected");
      return;
    }

  name = sps_trace_get_string (trace, slices->name[slice]);
  /* Parsed on demand: the trace keeps args as text, or decodes them */
  if (!(args = sps_trace_parse_args (trace, slices->args[slice], &error)) && error != NULL)
    {
      title = g_strdup_printf ("%s: the args cannot be read (%s)", name, error->message);
      gtk_label_set_text (GTK_LABEL (self->title), title);
      return;
    }

  if (args != NULL && JSON_NODE_HOLDS_OBJECT (args))
    {
      JsonObject *object = json_node_get_object (args);
      /* In the order the trace gives them (a JsonObjectIter goes in hash
       * order) */
      g_autoptr(GList) keys = json_object_get_members (object);

      for (const GList *l = keys; l != NULL; l = l->next)
        add_row (self, n++, l->data, json_object_get_member (object, l->data));
    }
  else if (args != NULL && !JSON_NODE_HOLDS_NULL (args))
    add_row (self, n++, "(value)", args);

  if (n == 0)
    title = g_strdup_printf ("%s: no args", name);
  else
    title = g_strdup_printf (n == 1 ? "%s: %u arg" : "%s: %u args", name, n);
  gtk_label_set_text (GTK_LABEL (self->title), title);
}

static GtkWidget *
example_args_panel_new (SpsSession *session)
{
  ExampleArgsPanel *self = g_object_new (EXAMPLE_TYPE_ARGS_PANEL, NULL);
  GtkWidget *scrolled = gtk_scrolled_window_new ();

  self->session = g_object_ref (session);

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  self->title = gtk_label_new (NULL);
  gtk_widget_set_name (self->title, "args-title");
  gtk_label_set_xalign (GTK_LABEL (self->title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (self->title), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (self->title, "heading");
  gtk_widget_set_margin_start (self->title, 12);
  gtk_widget_set_margin_top (self->title, 6);
  gtk_box_append (GTK_BOX (self->box), self->title);

  self->list = gtk_list_box_new ();
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (self->list), GTK_SELECTION_NONE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), self->list);
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_box_append (GTK_BOX (self->box), scrolled);

  /* The session outlives the panel: the handler goes with the panel */
  g_signal_connect_object (session, "notify::selected-slice",
                           G_CALLBACK (example_args_panel_update), self, G_CONNECT_SWAPPED);
  example_args_panel_update (self);

  return GTK_WIDGET (self);
}

static void
example_args_panel_dispose (GObject *object)
{
  ExampleArgsPanel *self = EXAMPLE_ARGS_PANEL (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (example_args_panel_parent_class)->dispose (object);
}

static void
example_args_panel_class_init (ExampleArgsPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = example_args_panel_dispose;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
example_args_panel_class_finalize (ExampleArgsPanelClass *klass)
{
}

static void
example_args_panel_init (ExampleArgsPanel *self)
{
}

/* The view: what the window asks for its panel */

#define EXAMPLE_TYPE_ARGS_VIEW (example_args_view_get_type ())
G_DECLARE_FINAL_TYPE (ExampleArgsView, example_args_view, EXAMPLE, ARGS_VIEW, GObject)

struct _ExampleArgsView
{
  GObject parent_instance;
};

static void example_args_view_iface_init (SpsViewInterface *iface);

/* Dynamic: the types belong to the module libpeas loads */
G_DEFINE_DYNAMIC_TYPE_EXTENDED (ExampleArgsView, example_args_view, G_TYPE_OBJECT, 0,
                                G_IMPLEMENT_INTERFACE_DYNAMIC (SPS_TYPE_VIEW, example_args_view_iface_init))

static const char *
example_args_view_get_title (SpsView *view)
{
  /* A real plugin translates this with its own gettext domain */
  return "Slice args";
}

static const char *
example_args_view_get_icon_name (SpsView *view)
{
  return "view-list-symbolic";
}

static SpsViewArea
example_args_view_get_area (SpsView *view)
{
  return SPS_VIEW_AREA_SIDE;
}

/* On the UI thread, once per window */
static GtkWidget *
example_args_view_create_panel (SpsView    *view,
                                SpsSession *session)
{
  return example_args_panel_new (session);
}

static void
example_args_view_iface_init (SpsViewInterface *iface)
{
  iface->get_title = example_args_view_get_title;
  iface->get_icon_name = example_args_view_get_icon_name;
  iface->get_area = example_args_view_get_area;
  iface->create_panel = example_args_view_create_panel;
}

static void
example_args_view_class_init (ExampleArgsViewClass *klass)
{
}

static void
example_args_view_class_finalize (ExampleArgsViewClass *klass)
{
}

static void
example_args_view_init (ExampleArgsView *self)
{
}

G_MODULE_EXPORT void peas_register_types (PeasObjectModule *module);

G_MODULE_EXPORT void
peas_register_types (PeasObjectModule *module)
{
  example_args_panel_register_type (G_TYPE_MODULE (module));
  example_args_view_register_type (G_TYPE_MODULE (module));
  peas_object_module_register_extension_type (module, SPS_TYPE_VIEW, EXAMPLE_TYPE_ARGS_VIEW);
}
