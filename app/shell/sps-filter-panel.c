/* sps-filter-panel.c: hide processes, threads and categories
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-filter-panel"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-filter-item.h"
#include "sps-filter-panel.h"
#include "sps-label-tooltip-private.h"
#include "sps-panel-util.h"

/**
 * SpsFilterPanel:
 *
 * The filter panel of a trace window: on the left the processes, each
 * expanding to its threads, on the right the category tokens (Chrome's
 * "a,b" category lists are split, see #SpsSession), each row with a check
 * box and an "Only" button. Unchecking hides the rows from the timeline
 * and the slices from every view that asks sps_session_is_slice_visible()
 * (flame graph, statistics, search). The state lives in the #SpsSession;
 * the panel only mirrors it, so other views may change filters too.
 *
 * A thread's row has a "Pin" toggle too, which moves the thread's rows to
 * the top of the timeline.
 *
 * Widgets that tests look up carry names: "show-all", "filter-status",
 * "thread-filter-list", "category-filter-list"; each row's check box is
 * named "filter-check", its button "filter-only" and its pin "filter-pin".
 */
struct _SpsFilterPanel
{
  GtkWidget     parent_instance;

  SpsSession   *session;
  GListStore   *processes;   /* SpsFilterItem, threads as children */
  GListStore   *categories;  /* SpsFilterItem */
  gboolean      syncing;

  GtkButton    *show_all_button;
  GtkLabel     *status_label;
  GtkListView  *thread_view;
  GtkListView  *category_view;
};

G_DEFINE_FINAL_TYPE (SpsFilterPanel, sps_filter_panel, GTK_TYPE_WIDGET)

/* Copies the session's flags into the items. */
static void
sync_items (SpsFilterPanel *self)
{
  guint n;
  guint hidden = 0;

  g_assert (SPS_IS_FILTER_PANEL (self));

  self->syncing = TRUE;

  n = g_list_model_get_n_items (G_LIST_MODEL (self->processes));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SpsFilterItem) process = g_list_model_get_item (G_LIST_MODEL (self->processes), i);
      GListModel *children = G_LIST_MODEL (sps_filter_item_get_children (process));
      gboolean shown = !sps_session_get_process_hidden (self->session, sps_filter_item_get_index (process));

      sps_filter_item_set_shown (process, shown);
      hidden += !shown;

      for (guint j = 0; j < g_list_model_get_n_items (children); j++)
        {
          g_autoptr(SpsFilterItem) thread = g_list_model_get_item (children, j);
          gboolean thread_shown = !sps_session_get_thread_hidden (self->session, sps_filter_item_get_index (thread));

          sps_filter_item_set_shown (thread, thread_shown);
          sps_filter_item_set_enabled (thread, shown);
          hidden += !thread_shown;
        }
    }

  n = g_list_model_get_n_items (G_LIST_MODEL (self->categories));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SpsFilterItem) category = g_list_model_get_item (G_LIST_MODEL (self->categories), i);
      gboolean shown = !sps_session_get_category_hidden (self->session, sps_filter_item_get_index (category));

      sps_filter_item_set_shown (category, shown);
      hidden += !shown;
    }

  self->syncing = FALSE;

  gtk_widget_set_sensitive (GTK_WIDGET (self->show_all_button), hidden > 0);
  if (hidden == 0)
    gtk_label_set_text (self->status_label, _("Everything is shown"));
  else
    {
      g_autofree char *text = NULL;

      /* Translators: %u counts processes, threads and categories that
       * the user unchecked */
      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u item hidden", "%u items hidden", hidden),
                              hidden);
      gtk_label_set_text (self->status_label, text);
    }
}

static void
on_item_shown (SpsFilterPanel *self,
               GParamSpec     *pspec,
               SpsFilterItem  *item)
{
  gboolean hidden = !sps_filter_item_get_shown (item);
  guint32 index = sps_filter_item_get_index (item);

  g_assert (SPS_IS_FILTER_PANEL (self));

  if (self->syncing)
    return;

  switch (sps_filter_item_get_kind (item))
    {
    case SPS_FILTER_ITEM_PROCESS:
      sps_session_set_process_hidden (self->session, index, hidden);
      break;

    case SPS_FILTER_ITEM_THREAD:
      sps_session_set_thread_hidden (self->session, index, hidden);
      break;

    case SPS_FILTER_ITEM_CATEGORY:
      sps_session_set_category_hidden (self->session, index, hidden);
      break;

    default:
      g_assert_not_reached ();
    }
}

static void
on_only_clicked (SpsFilterPanel *self,
                 GtkButton      *button)
{
  SpsFilterItem *item = g_object_get_data (G_OBJECT (button), "sps-filter-item");
  guint32 index;

  g_assert (SPS_IS_FILTER_PANEL (self));

  if (item == NULL)
    return;

  index = sps_filter_item_get_index (item);
  switch (sps_filter_item_get_kind (item))
    {
    case SPS_FILTER_ITEM_PROCESS:
      sps_session_show_only_process (self->session, index);
      break;

    case SPS_FILTER_ITEM_THREAD:
      sps_session_show_only_thread (self->session, index);
      break;

    case SPS_FILTER_ITEM_CATEGORY:
      sps_session_show_only_category (self->session, index);
      break;

    default:
      g_assert_not_reached ();
    }
}

static void
on_show_all (SpsFilterPanel *self)
{
  sps_session_show_all (self->session);
}

static SpsFilterItem *
new_item (SpsFilterPanel    *self,
          SpsFilterItemKind  kind,
          guint32            index,
          const char        *label)
{
  SpsFilterItem *item = sps_filter_item_new (kind, index, label);

  g_signal_connect_object (item, "notify::shown", G_CALLBACK (on_item_shown), self, G_CONNECT_SWAPPED);
  return item;
}

static int
compare_by_pid (gconstpointer a,
                gconstpointer b,
                gpointer      user_data)
{
  const SpsProcessTable *processes = user_data;
  /* g_ptr_array_sort_with_data() passes pointers to the elements. */
  gint64 pa = processes->pid[sps_filter_item_get_index (*(SpsFilterItem * const *) a)];
  gint64 pb = processes->pid[sps_filter_item_get_index (*(SpsFilterItem * const *) b)];

  return (pa > pb) - (pa < pb);
}

static void
build_items (SpsFilterPanel *self)
{
  SpsTrace *trace = sps_session_get_trace (self->session);
  const SpsProcessTable *processes = sps_trace_get_processes (trace);
  const SpsThreadTable *threads = sps_trace_get_threads (trace);
  g_autoptr(GPtrArray) process_items = g_ptr_array_new ();
  const guint32 *categories;
  guint n_categories = 0;

  g_assert (SPS_IS_FILTER_PANEL (self));

  for (guint p = 0; p < processes->n_rows; p++)
    {
      g_autofree char *label = _sps_panel_process_label (trace, p);
      SpsFilterItem *item = new_item (self, SPS_FILTER_ITEM_PROCESS, p, label);

      g_ptr_array_add (process_items, item);
    }

  /* Threads in table order (the order they first appeared); each under
   * its process. */
  for (guint t = 0; t < threads->n_rows; t++)
    {
      g_autofree char *label = _sps_panel_thread_label (trace, t);
      g_autoptr(SpsFilterItem) item = new_item (self, SPS_FILTER_ITEM_THREAD, t, label);
      guint32 p = threads->process[t];

      if (p < process_items->len)
        g_list_store_append (sps_filter_item_get_children (g_ptr_array_index (process_items, p)), item);
    }

  g_ptr_array_sort_with_data (process_items, (GCompareDataFunc) compare_by_pid, (gpointer) processes);
  for (guint i = 0; i < process_items->len; i++)
    {
      g_list_store_append (self->processes, g_ptr_array_index (process_items, i));
      g_object_unref (g_ptr_array_index (process_items, i));
    }

  categories = sps_session_get_categories (self->session, &n_categories);
  for (guint i = 0; i < n_categories; i++)
    {
      const char *text = sps_trace_get_string (trace, categories[i]);
      g_autoptr(SpsFilterItem) item = new_item (self, SPS_FILTER_ITEM_CATEGORY, categories[i],
                                                text[0] != '\0' ? text : _("(no category)"));

      g_list_store_append (self->categories, item);
    }
}

/* A thread's pin: its rows go to the top of the timeline */
static void
on_pin_toggled (SpsFilterPanel  *self,
                GtkToggleButton *pin)
{
  SpsFilterItem *item = g_object_get_data (G_OBJECT (pin), "sps-filter-item");

  g_assert (SPS_IS_FILTER_PANEL (self));

  if (item == NULL || sps_filter_item_get_kind (item) != SPS_FILTER_ITEM_THREAD)
    return;
  sps_session_set_thread_pinned (self->session, sps_filter_item_get_index (item),
                                 gtk_toggle_button_get_active (pin));
}

/* Rows */

static GtkWidget *
make_row_box (SpsFilterPanel *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *check = gtk_check_button_new ();
  GtkWidget *label = gtk_label_new (NULL);
  /* Translators: a toggle that pins a thread to the top of the timeline */
  GtkWidget *pin = gtk_toggle_button_new_with_label (C_("filter", "Pin"));
  GtkWidget *only = gtk_button_new_with_label (C_("filter", "Only"));

  gtk_widget_set_name (check, "filter-check");
  gtk_widget_set_name (only, "filter-only");
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  _sps_label_show_cut_text (label);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_widget_add_css_class (only, "flat");
  gtk_widget_add_css_class (only, "sps-filter-only");
  gtk_widget_set_tooltip_text (only, _("Show only this and hide the others"));
  g_signal_connect_object (only, "clicked", G_CALLBACK (on_only_clicked), self, G_CONNECT_SWAPPED);
  gtk_widget_set_name (pin, "filter-pin");
  gtk_widget_add_css_class (pin, "flat");
  gtk_widget_set_tooltip_text (pin, _("Pin this thread to the top of the timeline"));
  g_object_set_data (G_OBJECT (box), "sps-filter-panel", self);
  g_signal_connect_object (pin, "toggled", G_CALLBACK (on_pin_toggled), self, G_CONNECT_SWAPPED);

  gtk_box_append (GTK_BOX (box), check);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), only);
  gtk_box_append (GTK_BOX (box), pin);

  return box;
}

static void
bind_row_box (GtkWidget     *box,
              SpsFilterItem *item)
{
  GtkWidget *check = gtk_widget_get_first_child (box);
  GtkWidget *label = gtk_widget_get_next_sibling (check);
  GtkWidget *only = gtk_widget_get_next_sibling (label);
  GtkWidget *pin = gtk_widget_get_next_sibling (only);
  SpsFilterPanel *self = g_object_get_data (G_OBJECT (box), "sps-filter-panel");
  gboolean thread = sps_filter_item_get_kind (item) == SPS_FILTER_ITEM_THREAD;
  GBinding *shown;
  GBinding *enabled;

  g_assert (SPS_IS_FILTER_ITEM (item));

  gtk_label_set_text (GTK_LABEL (label), sps_filter_item_get_label (item));
  gtk_accessible_update_property (GTK_ACCESSIBLE (check),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, sps_filter_item_get_label (item),
                                  -1);
  shown = g_object_bind_property (item, "shown", check, "active",
                                  G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  enabled = g_object_bind_property (item, "enabled", box, "sensitive", G_BINDING_SYNC_CREATE);
  g_object_set_data (G_OBJECT (box), "sps-binding-shown", shown);
  g_object_set_data (G_OBJECT (box), "sps-binding-enabled", enabled);
  g_object_set_data_full (G_OBJECT (only), "sps-filter-item", g_object_ref (item), g_object_unref);

  gtk_widget_set_visible (pin, thread);
  g_object_set_data (G_OBJECT (pin), "sps-filter-item", NULL);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (pin),
                                thread && sps_session_get_thread_pinned (self->session, sps_filter_item_get_index (item)));
  g_object_set_data_full (G_OBJECT (pin), "sps-filter-item", g_object_ref (item), g_object_unref);
}

static void
unbind_row_box (GtkWidget *box)
{
  GtkWidget *pin = gtk_widget_get_last_child (box);
  GtkWidget *only = gtk_widget_get_prev_sibling (pin);
  GBinding *binding;

  if ((binding = g_object_get_data (G_OBJECT (box), "sps-binding-shown")))
    g_binding_unbind (binding);
  if ((binding = g_object_get_data (G_OBJECT (box), "sps-binding-enabled")))
    g_binding_unbind (binding);
  g_object_set_data (G_OBJECT (box), "sps-binding-shown", NULL);
  g_object_set_data (G_OBJECT (box), "sps-binding-enabled", NULL);
  g_object_set_data (G_OBJECT (only), "sps-filter-item", NULL);
  g_object_set_data (G_OBJECT (pin), "sps-filter-item", NULL);
}

static void
setup_tree_row (SpsFilterPanel           *self,
                GtkListItem              *list_item,
                GtkSignalListItemFactory *factory)
{
  GtkWidget *expander = gtk_tree_expander_new ();

  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), make_row_box (self));
  gtk_list_item_set_child (list_item, expander);
  gtk_list_item_set_activatable (list_item, FALSE);
}

static void
bind_tree_row (SpsFilterPanel           *self,
               GtkListItem              *list_item,
               GtkSignalListItemFactory *factory)
{
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);
  GtkWidget *expander = gtk_list_item_get_child (list_item);
  g_autoptr(SpsFilterItem) item = gtk_tree_list_row_get_item (row);

  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (expander), row);
  bind_row_box (gtk_tree_expander_get_child (GTK_TREE_EXPANDER (expander)), item);
}

static void
unbind_tree_row (SpsFilterPanel           *self,
                 GtkListItem              *list_item,
                 GtkSignalListItemFactory *factory)
{
  GtkWidget *expander = gtk_list_item_get_child (list_item);

  unbind_row_box (gtk_tree_expander_get_child (GTK_TREE_EXPANDER (expander)));
  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (expander), NULL);
}

static void
setup_category_row (SpsFilterPanel           *self,
                    GtkListItem              *list_item,
                    GtkSignalListItemFactory *factory)
{
  gtk_list_item_set_child (list_item, make_row_box (self));
  gtk_list_item_set_activatable (list_item, FALSE);
}

static void
bind_category_row (SpsFilterPanel           *self,
                   GtkListItem              *list_item,
                   GtkSignalListItemFactory *factory)
{
  bind_row_box (gtk_list_item_get_child (list_item), gtk_list_item_get_item (list_item));
}

static void
unbind_category_row (SpsFilterPanel           *self,
                     GtkListItem              *list_item,
                     GtkSignalListItemFactory *factory)
{
  unbind_row_box (gtk_list_item_get_child (list_item));
}

static GListModel *
create_children (gpointer item,
                 gpointer user_data)
{
  GListStore *children = sps_filter_item_get_children (item);

  if (children == NULL || g_list_model_get_n_items (G_LIST_MODEL (children)) == 0)
    return NULL;

  return g_object_ref (G_LIST_MODEL (children));
}

static void
sps_filter_panel_dispose (GObject *object)
{
  SpsFilterPanel *self = (SpsFilterPanel *)object;
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (self), SPS_TYPE_FILTER_PANEL);
  /* The template's unnamed children too. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->processes);
  g_clear_object (&self->categories);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (sps_filter_panel_parent_class)->dispose (object);
}

static void
sps_filter_panel_class_init (SpsFilterPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sps_filter_panel_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/spanscope/Spanscope/sps-filter-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, SpsFilterPanel, show_all_button);
  gtk_widget_class_bind_template_child (widget_class, SpsFilterPanel, status_label);
  gtk_widget_class_bind_template_child (widget_class, SpsFilterPanel, thread_view);
  gtk_widget_class_bind_template_child (widget_class, SpsFilterPanel, category_view);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "filterpanel");
}

static void
sps_filter_panel_init (SpsFilterPanel *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);

  self->processes = g_list_store_new (SPS_TYPE_FILTER_ITEM);
  self->categories = g_list_store_new (SPS_TYPE_FILTER_ITEM);

  g_signal_connect_object (self->show_all_button, "clicked", G_CALLBACK (on_show_all), self, G_CONNECT_SWAPPED);
}

/**
 * sps_filter_panel_new:
 * @session: the window's session
 *
 * Returns: (transfer floating): a new filter panel
 */
GtkWidget *
sps_filter_panel_new (SpsSession *session)
{
  SpsFilterPanel *self;
  GtkTreeListModel *tree;
  GtkListItemFactory *factory;

  g_return_val_if_fail (SPS_IS_SESSION (session), NULL);

  self = g_object_new (SPS_TYPE_FILTER_PANEL, NULL);
  self->session = g_object_ref (session);

  build_items (self);

  /* Processes start expanded: most traces have a handful. */
  tree = gtk_tree_list_model_new (g_object_ref (G_LIST_MODEL (self->processes)), FALSE, TRUE,
                                  create_children, NULL, NULL);
  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect_object (factory, "setup", G_CALLBACK (setup_tree_row), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (factory, "bind", G_CALLBACK (bind_tree_row), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (factory, "unbind", G_CALLBACK (unbind_tree_row), self, G_CONNECT_SWAPPED);
  gtk_list_view_set_factory (self->thread_view, factory);
  gtk_list_view_set_model (self->thread_view, GTK_SELECTION_MODEL (gtk_no_selection_new (G_LIST_MODEL (tree))));
  g_object_unref (factory);

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect_object (factory, "setup", G_CALLBACK (setup_category_row), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (factory, "bind", G_CALLBACK (bind_category_row), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (factory, "unbind", G_CALLBACK (unbind_category_row), self, G_CONNECT_SWAPPED);
  gtk_list_view_set_factory (self->category_view, factory);
  gtk_list_view_set_model (self->category_view,
                           GTK_SELECTION_MODEL (gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->categories)))));
  g_object_unref (factory);

  g_signal_connect_object (session, "filters-changed", G_CALLBACK (sync_items), self, G_CONNECT_SWAPPED);
  sync_items (self);

  return GTK_WIDGET (self);
}
