/* sps-detail-panel.c: what the selected slice is, its children and args
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-detail-panel"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-detail-args-private.h"
#include "sps-detail-columns-private.h"
#include "sps-detail-item-private.h"
#include "sps-detail-panel.h"
#include "sps-detail-selection-private.h"
#include "sps-session-private.h"
#include "sps-stack-text-private.h"
#include <spanscope-core.h>

/* The call stack opens on the slice's children when there are at most
 * this many; a slice with more (a run loop with a million tasks) stays
 * closed until the user asks, since the tree list holds a node per row. */
#define CALL_STACK_AUTOEXPAND_LIMIT 5000


/**
 * SpsDetailPanel:
 *
 * The bottom-dock panel for the session's selected slice. On the left a
 * summary: name, category, start (from the start of the trace), duration,
 * self time, thread and process, and the slice's stacks when it was
 * recorded with them (start and end, leaf first); on the right three tabs:
 *
 * - "Call stack": the slice's ancestors, then the slice and its
 *   descendants as a tree, with wall,
 *   self and child time per node (children are listed when a node is
 *   expanded, so a slice with a huge subtree costs nothing up front);
 * - "Children": the direct children grouped by name, with count, total,
 *   average, min and max, and a bar coloured from cool to hot by the
 *   group's share of the largest total;
 * - "Arguments": the slice's args, parsed with json-glib only when the
 *   slice is shown, as a tree of keys and values.
 *
 * Any other selection (an instant or decoded event, a sample, a stack
 * chart's box) gets the page of sps-detail-selection.c: its fields and,
 * for instants and events, its args.
 *
 * Widgets that tests look up carry names: "name-value", "category-value",
 * "start-value", "duration-value", "self-time-value", "thread-value",
 * "process-value", "stack-value", "end-stack-value", "note-label",
 * "call-stack-view", "children-view",
 * "arguments-view", "empty-label". The list rows are objects with
 * read-only properties ("name", "value", "slice", "wall", "self", "child",
 * "count", "total", "average", "min", "max", "fraction").
 */
struct _SpsDetailPanel
{
  GtkWidget      parent_instance;

  SpsSession    *session;

  GtkWidget     *stack;
  GtkLabel      *name_value;
  GtkLabel      *category_value;
  GtkLabel      *start_value;
  GtkLabel      *duration_value;
  GtkLabel      *self_time_value;
  GtkWidget     *thread_key;
  GtkLabel      *thread_value;
  GtkLabel      *process_value;
  GtkLabel      *stack_value;
  GtkWidget     *stack_key;
  GtkLabel      *end_stack_value;
  GtkWidget     *end_stack_key;
  GtkLabel      *note_label;

  GtkColumnView *call_stack_view;
  GtkColumnView *children_view;
  GtkWidget     *children_stack;
  SpsDetailArgs  args;

  SpsDetailSelection item;  /* the page of anything but a slice */
};

enum {
  PROP_0,
  PROP_SESSION,
  N_PROPS
};


G_DEFINE_FINAL_TYPE (SpsDetailPanel, sps_detail_panel, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];

/* Direct children of @slice in time order, through the bounded sibling
 * search of the session. */
static GArray *
collect_children (SpsTrace *trace,
                  guint     slice)
{
  GArray *children = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint c = _sps_slice_first_child (trace, slice);
       c != SPS_NO_INDEX;
       c = _sps_slice_next_sibling (trace, c))
    g_array_append_val (children, c);

  return children;
}

static const char *
slice_name (SpsTrace *trace,
            guint     slice)
{
  const char *name = sps_trace_get_string (trace, sps_trace_get_slices (trace)->name[slice]);

  return name != NULL && *name != '\0' ? name : _("(unnamed)");
}

static SpsDetailItem *
call_item_new (SpsTrace *trace,
               guint     slice)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);

  return _sps_detail_item_new_call (slice_name (trace, slice), slice,
                                    slices->dur[slice], slices->self_time[slice]);
}

/* The row of the ancestor path below @ancestor: the next slice on the
 * way down to @target (itself marked as an ancestor unless it is @target). */
static GListModel *
path_child (SpsTrace *trace,
            guint     ancestor,
            guint     target)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  g_autoptr(SpsDetailItem) child = NULL;
  GListStore *store;
  guint next = target;

  while (next != SPS_NO_INDEX && slices->parent[next] != ancestor)
    next = slices->parent[next];
  if (next == SPS_NO_INDEX)
    return NULL;

  child = call_item_new (trace, next);
  if (next != target)
    _sps_detail_item_set_path_target (child, target);
  store = g_list_store_new (SPS_TYPE_DETAIL_ITEM);
  g_list_store_append (store, child);
  return G_LIST_MODEL (store);
}

static GListModel *
create_call_children (gpointer item,
                      gpointer user_data)
{
  SpsTrace *trace = user_data;
  guint slice = _sps_detail_item_get_slice (item);
  g_autoptr(GArray) children = NULL;
  GListStore *store;
  guint target;

  g_assert (SPS_IS_DETAIL_ITEM (item));
  g_assert (SPS_IS_TRACE (trace));

  target = _sps_detail_item_get_path_target (item);
  if (target != SPS_NO_INDEX)
    return path_child (trace, slice, target);

  if (_sps_slice_first_child (trace, slice) == SPS_NO_INDEX)
    return NULL;

  children = collect_children (trace, slice);
  store = g_list_store_new (SPS_TYPE_DETAIL_ITEM);
  for (guint i = 0; i < children->len; i++)
    {
      g_autoptr(SpsDetailItem) child = call_item_new (trace, g_array_index (children, guint, i));

      g_list_store_append (store, child);
    }

  return G_LIST_MODEL (store);
}

/* Filling in */

/* The slice's ancestors from the root down, then the slice opened on its
 * children: where it was called from as well as what it called. The slice's
 * row is selected. */
static void
show_call_stack (SpsDetailPanel *self,
                 SpsTrace       *trace,
                 guint           slice,
                 guint           n_children)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  g_autoptr(GListStore) root = g_list_store_new (SPS_TYPE_DETAIL_ITEM);
  g_autoptr(SpsDetailItem) item = NULL;
  g_autoptr(GtkTreeListModel) tree = NULL;
  GtkSelectionModel *selection;
  guint outermost = slice;
  guint depth = 0;

  while (slices->parent[outermost] != SPS_NO_INDEX)
    {
      outermost = slices->parent[outermost];
      depth++;
    }

  item = call_item_new (trace, outermost);
  if (outermost != slice)
    _sps_detail_item_set_path_target (item, slice);
  g_list_store_append (root, item);
  tree = gtk_tree_list_model_new (G_LIST_MODEL (g_steal_pointer (&root)), FALSE, FALSE,
                                  create_call_children, g_object_ref (trace), g_object_unref);
  _sps_detail_set_model (self->call_stack_view, G_LIST_MODEL (tree));

  /* Each ancestor's row opens on the next; the slice itself on its
   * children. */
  for (guint i = 0; i <= depth; i++)
    {
      g_autoptr(GtkTreeListRow) row = gtk_tree_list_model_get_row (tree, i);

      if (row != NULL && (i < depth || n_children <= CALL_STACK_AUTOEXPAND_LIMIT))
        gtk_tree_list_row_set_expanded (row, TRUE);
    }

  selection = gtk_column_view_get_model (self->call_stack_view);
  gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (selection), depth);
}

typedef struct
{
  guint32 name;
  guint   count;
  SpsTime total;
  SpsTime min;
  SpsTime max;
} Group;

static int
compare_groups (gconstpointer a,
                gconstpointer b)
{
  const Group *ga = *(const Group * const *) a;
  const Group *gb = *(const Group * const *) b;

  if (ga->total != gb->total)
    return ga->total > gb->total ? -1 : 1;
  if (ga->count != gb->count)
    return ga->count > gb->count ? -1 : 1;
  return ga->name < gb->name ? -1 : ga->name > gb->name;
}

static void
show_children (SpsDetailPanel *self,
               SpsTrace       *trace,
               GArray         *children)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  g_autoptr(GHashTable) by_name = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr(GPtrArray) groups = g_ptr_array_new ();
  g_autoptr(GListStore) store = g_list_store_new (SPS_TYPE_DETAIL_ITEM);
  SpsTime largest = 0;

  for (guint i = 0; i < children->len; i++)
    {
      guint c = g_array_index (children, guint, i);
      guint32 name = slices->name[c];
      SpsTime dur = slices->dur[c];
      Group *group = g_hash_table_lookup (by_name, GUINT_TO_POINTER (name));

      if (group == NULL)
        {
          group = g_new0 (Group, 1);
          group->name = name;
          group->min = dur;
          group->max = dur;
          g_hash_table_insert (by_name, GUINT_TO_POINTER (name), group);
          g_ptr_array_add (groups, group);
        }

      group->count++;
      group->total += dur;
      group->min = MIN (group->min, dur);
      group->max = MAX (group->max, dur);
    }

  g_ptr_array_sort (groups, compare_groups);

  for (guint i = 0; i < groups->len; i++)
    largest = MAX (largest, ((Group *) g_ptr_array_index (groups, i))->total);

  for (guint i = 0; i < groups->len; i++)
    {
      const Group *group = g_ptr_array_index (groups, i);
      const char *name = sps_trace_get_string (trace, group->name);
      g_autoptr(SpsDetailItem) item = NULL;

      item = _sps_detail_item_new_group (name != NULL && *name != '\0' ? name : _("(unnamed)"),
                                         group->count, group->total, group->min, group->max,
                                         largest > 0 ? (double) group->total / (double) largest : 0.0);
      g_list_store_append (store, item);
    }

  _sps_detail_set_model (self->children_view, G_LIST_MODEL (store));
  gtk_stack_set_visible_child_name (GTK_STACK (self->children_stack),
                                    groups->len > 0 ? "list" : "empty");
}

/* A slice's stack (sf, esf or an inline stack), leaf first; the field is
 * hidden when the slice has none */
static void
show_stack (GtkLabel  *value,
            GtkWidget *key,
            SpsTrace  *trace,
            guint32    callsite)
{
  g_autofree char *text = NULL;

  if (callsite != SPS_NO_INDEX)
    text = _sps_stack_text_dup (trace, callsite);
  gtk_label_set_text (value, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (value), text != NULL);
  gtk_widget_set_visible (key, text != NULL);
}

static char *
format_time_field (SpsTime  time,
                   gboolean estimate)
{
  g_autofree char *text = sps_time_format (time);

  if (!estimate)
    return g_steal_pointer (&text);

  /* TRANSLATORS: a duration of a sampled span, e.g. "1.5 ms (estimated)" */
  return g_strdup_printf (_("%s (estimated)"), text);
}

static void
show_summary (SpsDetailPanel *self,
              SpsTrace       *trace,
              guint           slice)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  guint32 track = slices->track[slice];
  guint32 thread = tracks->thread[track];
  guint32 process = tracks->process[track];
  guint flags = slices->flags[slice];
  gboolean estimate = (flags & SPS_SLICE_SAMPLED) != 0;
  const char *category = sps_trace_get_string (trace, slices->category[slice]);
  g_autofree char *start = NULL;
  g_autofree char *duration = NULL;
  g_autofree char *self_time = NULL;
  GString *note = g_string_new (NULL);

  gtk_label_set_text (self->name_value, slice_name (trace, slice));
  gtk_label_set_text (self->category_value,
                      category != NULL && *category != '\0' ? category : "—");

  start = sps_time_format (slices->ts[slice] - sps_trace_get_start_time (trace));
  duration = format_time_field (slices->dur[slice], estimate);
  self_time = format_time_field (slices->self_time[slice], estimate);
  gtk_label_set_text (self->start_value, start);
  gtk_label_set_text (self->duration_value, duration);
  gtk_label_set_text (self->self_time_value, self_time);

  if (thread != SPS_NO_INDEX)
    {
      g_autofree char *text = _sps_detail_dup_thread_text (trace, thread);

      gtk_label_set_text (self->thread_value, text);
    }
  gtk_widget_set_visible (self->thread_key, thread != SPS_NO_INDEX);
  gtk_widget_set_visible (GTK_WIDGET (self->thread_value), thread != SPS_NO_INDEX);

  {
    g_autofree char *text = _sps_detail_dup_process_text (trace, process);

    gtk_label_set_text (self->process_value, text);
  }

  show_stack (self->stack_value, self->stack_key, trace, sps_slice_table_get_callsite (slices, slice));
  show_stack (self->end_stack_value, self->end_stack_key, trace, sps_slice_table_get_end_callsite (slices, slice));

  if (estimate)
    g_string_append (note, _("A sampled span: its times are estimated from stack samples."));
  if ((flags & SPS_SLICE_UNFINISHED) != 0)
    {
      if (note->len > 0)
        g_string_append_c (note, '\n');
      g_string_append (note, _("This slice had not ended when the trace ended."));
    }
  gtk_label_set_text (self->note_label, note->str);
  gtk_widget_set_visible (GTK_WIDGET (self->note_label), note->len > 0);
  g_string_free (note, TRUE);
}

static void
sps_detail_panel_update (SpsDetailPanel *self)
{
  g_autoptr(GArray) children = NULL;
  const SpsSelection *selection = NULL;
  guint slice = SPS_NO_INDEX;
  SpsTrace *trace = NULL;

  g_assert (SPS_IS_DETAIL_PANEL (self));

  if (self->session != NULL)
    {
      selection = sps_session_get_selection (self->session);
      slice = sps_session_get_selected_slice (self->session);
      trace = sps_session_get_trace (self->session);
    }

  if (selection != NULL && selection->kind != SPS_SELECTION_NONE && selection->kind != SPS_SELECTION_SLICE)
    {
      _sps_detail_selection_show (&self->item, trace, selection);
      gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "item");
      return;
    }

  if (slice == SPS_NO_INDEX)
    {
      /* Drop the models so nothing of the old slice stays alive. */
      _sps_detail_set_model (self->call_stack_view, NULL);
      _sps_detail_set_model (self->children_view, NULL);
      _sps_detail_set_model (self->args.view, NULL);
      gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "empty");
      return;
    }

  show_summary (self, trace, slice);
  children = collect_children (trace, slice);

  show_call_stack (self, trace, slice, children->len);
  show_children (self, trace, children);
  _sps_detail_args_show (&self->args, trace, sps_trace_get_slices (trace)->args[slice]);
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "slice");
}

static void
on_selection_changed (SpsDetailPanel *self,
                      SpsSession     *session)
{
  g_assert (SPS_IS_DETAIL_PANEL (self));
  g_assert (SPS_IS_SESSION (session));

  sps_detail_panel_update (self);
}

/* Building the widgets */


static GtkWidget *
build_summary (SpsDetailPanel *self)
{
  GtkWidget *grid = gtk_grid_new ();
  GtkWidget *name = gtk_label_new (NULL);
  GtkWidget *note = gtk_label_new (NULL);

  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_widget_set_margin_start (grid, 12);
  gtk_widget_set_margin_end (grid, 12);
  gtk_widget_set_margin_top (grid, 12);
  gtk_widget_set_margin_bottom (grid, 12);

  gtk_widget_set_name (name, "name-value");
  gtk_widget_add_css_class (name, "heading");
  gtk_label_set_xalign (GTK_LABEL (name), 0.0f);
  gtk_label_set_selectable (GTK_LABEL (name), TRUE);
  gtk_label_set_wrap (GTK_LABEL (name), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (name), PANGO_WRAP_WORD_CHAR);
  gtk_widget_set_margin_bottom (name, 4);
  gtk_grid_attach (GTK_GRID (grid), name, 0, 0, 2, 1);
  self->name_value = GTK_LABEL (name);

  self->category_value = _sps_detail_field_new (GTK_GRID (grid), 1, _("Category"), "category-value", NULL);
  self->start_value = _sps_detail_field_new (GTK_GRID (grid), 2, _("Start"), "start-value", NULL);
  self->duration_value = _sps_detail_field_new (GTK_GRID (grid), 3, _("Duration"), "duration-value", NULL);
  self->self_time_value = _sps_detail_field_new (GTK_GRID (grid), 4, _("Self time"), "self-time-value", NULL);
  self->thread_value = _sps_detail_field_new (GTK_GRID (grid), 5, _("Thread"), "thread-value", &self->thread_key);
  self->process_value = _sps_detail_field_new (GTK_GRID (grid), 6, _("Process"), "process-value", NULL);
  /* Translators: the call stack a slice was recorded with (sf), leaf first */
  self->stack_value = _sps_detail_field_new (GTK_GRID (grid), 7, _("Stack"), "stack-value", &self->stack_key);
  /* Translators: the call stack at the end of a slice (esf), leaf first */
  self->end_stack_value = _sps_detail_field_new (GTK_GRID (grid), 8, _("End stack"), "end-stack-value",
                                     &self->end_stack_key);

  gtk_widget_set_name (note, "note-label");
  gtk_widget_add_css_class (note, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (note), 0.0f);
  gtk_label_set_wrap (GTK_LABEL (note), TRUE);
  gtk_widget_set_margin_top (note, 6);
  gtk_widget_set_visible (note, FALSE);
  gtk_grid_attach (GTK_GRID (grid), note, 0, 9, 2, 1);
  self->note_label = GTK_LABEL (note);

  return grid;
}

static GtkWidget *
build_call_stack_page (SpsDetailPanel *self)
{
  self->call_stack_view = _sps_detail_column_view_new ("call-stack-view");

  _sps_detail_column_view_append (self->call_stack_view, SPS_DETAIL_COLUMN_TREE_NAME, _("Name"), TRUE, 200);
  _sps_detail_column_view_append (self->call_stack_view, SPS_DETAIL_COLUMN_WALL, _("Wall time"), FALSE, 110);
  _sps_detail_column_view_append (self->call_stack_view, SPS_DETAIL_COLUMN_SELF, _("Self time"), FALSE, 110);
  _sps_detail_column_view_append (self->call_stack_view, SPS_DETAIL_COLUMN_CHILD, _("Child time"), FALSE, 110);

  return _sps_detail_scrolled (GTK_WIDGET (self->call_stack_view));
}

static GtkWidget *
build_children_page (SpsDetailPanel *self)
{
  self->children_view = _sps_detail_column_view_new ("children-view");

  _sps_detail_column_view_append (self->children_view, SPS_DETAIL_COLUMN_NAME, _("Name"), TRUE, 160);
  _sps_detail_column_view_append (self->children_view, SPS_DETAIL_COLUMN_COUNT, _("Count"), FALSE, 64);
  _sps_detail_column_view_append (self->children_view, SPS_DETAIL_COLUMN_TOTAL, _("Total"), FALSE, 170);
  _sps_detail_column_view_append (self->children_view, SPS_DETAIL_COLUMN_AVERAGE, _("Average"), FALSE, 96);
  _sps_detail_column_view_append (self->children_view, SPS_DETAIL_COLUMN_MIN, _("Min"), FALSE, 96);
  _sps_detail_column_view_append (self->children_view, SPS_DETAIL_COLUMN_MAX, _("Max"), FALSE, 96);

  self->children_stack = gtk_stack_new ();
  gtk_stack_add_named (GTK_STACK (self->children_stack),
                       _sps_detail_scrolled (GTK_WIDGET (self->children_view)), "list");
  gtk_stack_add_named (GTK_STACK (self->children_stack),
                       _sps_detail_placeholder_label_new (_("This slice has no child slices")), "empty");

  return self->children_stack;
}

static void
sps_detail_panel_constructed (GObject *object)
{
  SpsDetailPanel *self = (SpsDetailPanel *)object;

  G_OBJECT_CLASS (sps_detail_panel_parent_class)->constructed (object);

  if (self->session != NULL)
    g_signal_connect_object (self->session, "selection-changed",
                             G_CALLBACK (on_selection_changed), self,
                             G_CONNECT_SWAPPED);

  sps_detail_panel_update (self);
}

static void
sps_detail_panel_dispose (GObject *object)
{
  SpsDetailPanel *self = (SpsDetailPanel *)object;

  g_clear_pointer (&self->stack, gtk_widget_unparent);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (sps_detail_panel_parent_class)->dispose (object);
}

static void
sps_detail_panel_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  SpsDetailPanel *self = SPS_DETAIL_PANEL (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sps_detail_panel_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  SpsDetailPanel *self = SPS_DETAIL_PANEL (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      self->session = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sps_detail_panel_class_init (SpsDetailPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = sps_detail_panel_constructed;
  object_class->dispose = sps_detail_panel_dispose;
  object_class->get_property = sps_detail_panel_get_property;
  object_class->set_property = sps_detail_panel_set_property;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL,
                         SPS_TYPE_SESSION,
                         (G_PARAM_READWRITE |
                          G_PARAM_CONSTRUCT_ONLY |
                          G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "spsdetailpanel");
}

static void
sps_detail_panel_init (SpsDetailPanel *self)
{
  GtkWidget *content = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *summary = gtk_scrolled_window_new ();
  GtkWidget *notebook = gtk_notebook_new ();
  GtkWidget *empty = _sps_detail_placeholder_label_new (_("No slice selected"));

  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (summary), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_width (GTK_SCROLLED_WINDOW (summary), FALSE);
  /* The value labels expand, which would spread to the summary and give
   * it half the panel: it keeps a fixed width and the tabs take the rest. */
  gtk_widget_set_size_request (summary, 300, -1);
  gtk_widget_set_hexpand (summary, FALSE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (summary), build_summary (self));

  gtk_notebook_append_page (GTK_NOTEBOOK (notebook), build_call_stack_page (self),
                            gtk_label_new (_("Call stack")));
  gtk_notebook_append_page (GTK_NOTEBOOK (notebook), build_children_page (self),
                            gtk_label_new (_("Children")));
  gtk_notebook_append_page (GTK_NOTEBOOK (notebook), _sps_detail_args_page_new (&self->args, "arguments-view", "arguments-message"),
                            gtk_label_new (_("Arguments")));
  gtk_widget_set_name (notebook, "detail-tabs");
  gtk_notebook_set_show_border (GTK_NOTEBOOK (notebook), FALSE);
  gtk_widget_set_hexpand (notebook, TRUE);

  gtk_box_append (GTK_BOX (content), summary);
  gtk_box_append (GTK_BOX (content), gtk_separator_new (GTK_ORIENTATION_VERTICAL));
  gtk_box_append (GTK_BOX (content), notebook);

  gtk_widget_set_name (empty, "empty-label");

  self->stack = gtk_stack_new ();
  gtk_widget_set_name (self->stack, "detail-stack");
  gtk_stack_add_named (GTK_STACK (self->stack), empty, "empty");
  gtk_stack_add_named (GTK_STACK (self->stack), content, "slice");
  gtk_stack_add_named (GTK_STACK (self->stack), _sps_detail_selection_page_new (&self->item), "item");
  gtk_widget_set_parent (self->stack, GTK_WIDGET (self));
}

/**
 * sps_detail_panel_new:
 * @session: the session whose selected slice to show
 *
 * Returns: (transfer floating): a new #SpsDetailPanel
 */
GtkWidget *
sps_detail_panel_new (SpsSession *session)
{
  g_return_val_if_fail (SPS_IS_SESSION (session), NULL);

  return g_object_new (SPS_TYPE_DETAIL_PANEL,
                       "session", session,
                       NULL);
}

/**
 * sps_detail_panel_get_session:
 * @self: a #SpsDetailPanel
 *
 * Returns: (transfer none): the session
 */
SpsSession *
sps_detail_panel_get_session (SpsDetailPanel *self)
{
  g_return_val_if_fail (SPS_IS_DETAIL_PANEL (self), NULL);

  return self->session;
}
