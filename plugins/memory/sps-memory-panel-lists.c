/* sps-memory-panel-lists.c: the Memory panel's function list (sortable,
 * with heat bars), a function's allocation paths as a tree, and a path's
 * frames
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-memory-panel"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "sps-memory-item.h"
#include "sps-memory-panel-private.h"

/* Numbers as the table shows them: digits grouped as the locale groups
 * them, so that 1234567 bytes read at a glance */
char *
_sps_memory_format_count (guint64 value)
{
  return g_strdup_printf ("%'" G_GUINT64_FORMAT, value);
}

static guint64
function_value (const SpsOutstandingFunction *fn,
                MemoryColumn                  column)
{
  switch (column)
    {
    case COLUMN_INCLUSIVE_BYTES:
      return fn->inclusive.bytes;
    case COLUMN_INCLUSIVE_COUNT:
      return fn->inclusive.count;
    case COLUMN_EXCLUSIVE_BYTES:
      return fn->exclusive.bytes;
    case COLUMN_EXCLUSIVE_COUNT:
      return fn->exclusive.count;
    case COLUMN_UNCERTAIN_BYTES:
      return fn->inclusive_uncertain.bytes;
    case COLUMN_UNCERTAIN_COUNT:
      return fn->inclusive_uncertain.count;
    case COLUMN_FUNCTION:
    case COLUMN_NOTE:
    case N_COLUMNS:
    default:
      return 0;
    }
}

static const char *
function_name (SpsMemoryPanel               *self,
               const SpsOutstandingFunction *fn)
{
  return fn->name != 0 ? sps_trace_get_string (self->trace, fn->name) : _("[no stack]");
}

static const SpsOutstandingFunction *
item_function (SpsMemoryPanel *self,
               gpointer        item)
{
  return sps_outstanding_tree_get_function (self->tree, sps_memory_item_get_index (item));
}

static int
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  const ColumnRef *ref = user_data;
  SpsMemoryPanel *self = ref->self;
  const SpsOutstandingFunction *fa;
  const SpsOutstandingFunction *fb;
  guint64 va;
  guint64 vb;

  if (self->tree == NULL)
    return GTK_ORDERING_EQUAL;
  fa = item_function (self, (gpointer) a);
  fb = item_function (self, (gpointer) b);
  if (ref->column == COLUMN_FUNCTION || ref->column == COLUMN_NOTE)
    {
      int cmp = g_utf8_collate (function_name (self, fa), function_name (self, fb));

      return cmp < 0 ? GTK_ORDERING_SMALLER : cmp > 0 ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
    }
  va = function_value (fa, ref->column);
  vb = function_value (fb, ref->column);
  return va < vb ? GTK_ORDERING_SMALLER : va > vb ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
}

static gboolean
is_bytes_column (MemoryColumn column)
{
  return column == COLUMN_INCLUSIVE_BYTES || column == COLUMN_EXCLUSIVE_BYTES ||
         column == COLUMN_UNCERTAIN_BYTES;
}

/* A cell: a label, and for byte columns a heat bar in front of it */
static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            gpointer                  user_data)
{
  const ColumnRef *ref = user_data;
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *label = gtk_label_new (NULL);

  if (is_bytes_column (ref->column))
    {
      GtkWidget *bar = gtk_level_bar_new ();

      gtk_level_bar_set_mode (GTK_LEVEL_BAR (bar), GTK_LEVEL_BAR_MODE_CONTINUOUS);
      /* No offsets: one colour whatever the value */
      gtk_level_bar_remove_offset_value (GTK_LEVEL_BAR (bar), GTK_LEVEL_BAR_OFFSET_LOW);
      gtk_level_bar_remove_offset_value (GTK_LEVEL_BAR (bar), GTK_LEVEL_BAR_OFFSET_HIGH);
      gtk_level_bar_remove_offset_value (GTK_LEVEL_BAR (bar), GTK_LEVEL_BAR_OFFSET_FULL);
      gtk_widget_set_size_request (bar, 48, -1);
      gtk_widget_set_valign (bar, GTK_ALIGN_CENTER);
      gtk_box_append (GTK_BOX (box), bar);
    }
  gtk_label_set_xalign (GTK_LABEL (label), ref->column == COLUMN_FUNCTION || ref->column == COLUMN_NOTE ? 0 : 1);
  gtk_widget_set_hexpand (label, TRUE);
  /* "Module!Namespace.Type.Method(args)": both ends say the most */
  gtk_label_set_ellipsize (GTK_LABEL (label), ref->column == COLUMN_FUNCTION ? PANGO_ELLIPSIZE_MIDDLE
                                                                               : PANGO_ELLIPSIZE_NONE);
  gtk_box_append (GTK_BOX (box), label);
  gtk_list_item_set_child (list_item, box);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           gpointer                  user_data)
{
  const ColumnRef *ref = user_data;
  SpsMemoryPanel *self = ref->self;
  GtkWidget *box = gtk_list_item_get_child (list_item);
  GtkWidget *label = gtk_widget_get_last_child (box);
  const SpsOutstandingFunction *fn;
  g_autofree char *text = NULL;

  if (self->tree == NULL)
    return;
  fn = item_function (self, gtk_list_item_get_item (list_item));

  if (ref->column == COLUMN_FUNCTION)
    {
      text = g_strdup (function_name (self, fn));
      gtk_widget_set_tooltip_text (label, text);
    }
  else if (ref->column == COLUMN_NOTE)
    {
      text = sps_outstanding_tree_dup_note (self->tree, sps_memory_item_get_index (gtk_list_item_get_item (list_item)));
    }
  else
    {
      guint64 value = function_value (fn, ref->column);

      text = _sps_memory_format_count (value);
      if (is_bytes_column (ref->column))
        gtk_level_bar_set_value (GTK_LEVEL_BAR (gtk_widget_get_first_child (box)),
                                 self->max[ref->column] > 0 ? (double) value / (double) self->max[ref->column] : 0);
    }
  gtk_label_set_text (GTK_LABEL (label), text);
}

static void
add_column (SpsMemoryPanel *self,
            MemoryColumn    column,
            const char     *title)
{
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
  g_autoptr(GtkColumnViewColumn) col = NULL;
  GtkSorter *sorter;

  self->refs[column] = (ColumnRef) { self, column };
  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), &self->refs[column]);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), &self->refs[column]);
  col = gtk_column_view_column_new (title, g_object_ref (factory));
  sorter = GTK_SORTER (gtk_custom_sorter_new (compare_rows, &self->refs[column], NULL));
  gtk_column_view_column_set_sorter (col, sorter);
  g_object_unref (sorter);
  gtk_column_view_column_set_resizable (col, TRUE);
  gtk_column_view_column_set_expand (col, column == COLUMN_FUNCTION || column == COLUMN_NOTE);
  if (column == COLUMN_FUNCTION)
    gtk_column_view_column_set_fixed_width (col, 340);
  gtk_column_view_append_column (self->function_view, col);
}

/* The frames of the selected path, root first, with their source
 * locations */
static void
show_frames (SpsMemoryPanel *self,
             guint32         callsite)
{
  const SpsCallsiteTable *cs;
  const SpsFrameTable *frames;
  g_autoptr(GArray) chain = g_array_new (FALSE, FALSE, sizeof (guint32));
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->frames))) != NULL)
    gtk_list_box_remove (self->frames, child);
  if (callsite == SPS_NO_INDEX)
    return;

  cs = sps_trace_get_callsites (self->trace);
  frames = sps_trace_get_frames (self->trace);

  for (guint32 c = callsite; c != SPS_NO_INDEX; c = cs->parent[c])
    g_array_append_val (chain, c);
  for (guint i = chain->len; i > 0; i--)
    {
      guint32 frame = cs->frame[g_array_index (chain, guint32, i - 1)];
      g_autofree char *location = sps_trace_dup_frame_location (self->trace, frame);
      GtkWidget *label = gtk_label_new (sps_trace_get_string (self->trace, frames->name[frame]));

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_selectable (GTK_LABEL (label), TRUE);
      if (location != NULL && location[0] != '\0')
        gtk_widget_set_tooltip_text (label, location);
      gtk_list_box_append (self->frames, label);
    }
}

static void
on_path_selected (SpsMemoryPanel *self)
{
  GtkTreeListRow *row = gtk_single_selection_get_selected_item (self->path_selection);
  guint32 callsite = SPS_NO_INDEX;

  if (row != NULL && self->paths != NULL)
    {
      SpsMemoryItem *item = gtk_tree_list_row_get_item (row);

      callsite = g_array_index (self->paths, SpsOutstandingPath, sps_memory_item_get_index (item)).callsite;
      g_object_unref (item);
    }
  show_frames (self, callsite);
}

static GListModel *
create_path_children (gpointer item,
                      gpointer user_data)
{
  GListStore *children = sps_memory_item_get_children (item);

  return g_list_model_get_n_items (G_LIST_MODEL (children)) > 0 ? g_object_ref (G_LIST_MODEL (children)) : NULL;
}

static void
on_function_selected (SpsMemoryPanel *self)
{
  SpsMemoryItem *item = gtk_single_selection_get_selected_item (self->function_selection);
  g_autoptr(GListStore) roots = g_list_store_new (SPS_TYPE_MEMORY_ITEM);
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  GtkTreeListModel *model;

  g_clear_pointer (&self->paths, g_array_unref);
  if (item != NULL && self->tree != NULL)
    {
      self->paths = sps_outstanding_tree_dup_paths (self->tree, sps_memory_item_get_index (item));
      for (guint i = 0; i < self->paths->len; i++)
        {
          guint32 parent = g_array_index (self->paths, SpsOutstandingPath, i).parent;
          SpsMemoryItem *node = sps_memory_item_new (i);

          g_ptr_array_add (items, node);
          /* Parents come first, so a parent's item already exists */
          g_list_store_append (parent == SPS_NO_INDEX ? roots
                                                      : sps_memory_item_get_children (g_ptr_array_index (items, parent)),
                               node);
        }
    }

  model = gtk_tree_list_model_new (G_LIST_MODEL (g_steal_pointer (&roots)), FALSE, TRUE,
                                   create_path_children, NULL, NULL);
  gtk_single_selection_set_model (self->path_selection, G_LIST_MODEL (model));
  g_object_unref (model);
  on_path_selected (self);
}

static void
setup_path_cell (GtkSignalListItemFactory *factory,
                 GtkListItem              *list_item,
                 gpointer                  user_data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), GPOINTER_TO_UINT (user_data) == 0 ? 0 : 1);
  if (GPOINTER_TO_UINT (user_data) == 0)
    {
      GtkWidget *expander = gtk_tree_expander_new ();

      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_START);
      gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), label);
      gtk_list_item_set_child (list_item, expander);
    }
  else
    gtk_list_item_set_child (list_item, label);
}

static void
bind_path_cell (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item,
                gpointer                  user_data)
{
  SpsMemoryPanel *self = g_object_get_data (G_OBJECT (factory), "sps-panel");
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);
  g_autoptr(SpsMemoryItem) item = gtk_tree_list_row_get_item (row);
  const SpsOutstandingPath *path;
  GtkWidget *child = gtk_list_item_get_child (list_item);
  g_autofree char *text = NULL;

  if (self->paths == NULL)
    return;
  path = &g_array_index (self->paths, SpsOutstandingPath, sps_memory_item_get_index (item));
  switch (GPOINTER_TO_UINT (user_data))
    {
    case 0:
      {
        const SpsCallsiteTable *cs = sps_trace_get_callsites (self->trace);
        guint32 frame = cs->frame[path->callsite];

        gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (child), row);
        child = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (child));
        text = g_strdup (sps_trace_get_string (self->trace, sps_trace_get_frames (self->trace)->name[frame]));
        gtk_widget_set_tooltip_text (child, text);
      }
      break;
    case 1:
      text = _sps_memory_format_count (path->known.bytes);
      break;
    case 2:
      text = _sps_memory_format_count (path->known.count);
      break;
    default:
      text = _sps_memory_format_count (path->uncertain.bytes);
      break;
    }
  gtk_label_set_text (GTK_LABEL (child), text);
}

static GtkWidget *
create_path_view (SpsMemoryPanel *self)
{
  const char *titles[] = { N_("Allocation Path"), N_("Bytes"), N_("Count"), N_("Uncertain Bytes") };

  self->path_selection = gtk_single_selection_new (NULL);
  gtk_single_selection_set_autoselect (self->path_selection, FALSE);
  gtk_single_selection_set_can_unselect (self->path_selection, TRUE);
  g_signal_connect_object (self->path_selection, "notify::selected-item", G_CALLBACK (on_path_selected),
                           self, G_CONNECT_SWAPPED);
  self->path_view = GTK_COLUMN_VIEW (gtk_column_view_new (GTK_SELECTION_MODEL (g_object_ref (self->path_selection))));
  gtk_widget_set_name (GTK_WIDGET (self->path_view), "memory-paths");
  for (guint i = 0; i < G_N_ELEMENTS (titles); i++)
    {
      g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
      g_autoptr(GtkColumnViewColumn) col = NULL;

      g_object_set_data (G_OBJECT (factory), "sps-panel", self);
      g_signal_connect (factory, "setup", G_CALLBACK (setup_path_cell), GUINT_TO_POINTER (i));
      g_signal_connect (factory, "bind", G_CALLBACK (bind_path_cell), GUINT_TO_POINTER (i));
      col = gtk_column_view_column_new (_(titles[i]), g_object_ref (factory));
      gtk_column_view_column_set_expand (col, i == 0);
      gtk_column_view_column_set_resizable (col, TRUE);
      gtk_column_view_append_column (self->path_view, col);
    }
  return GTK_WIDGET (self->path_view);
}

static GtkWidget *
scrolled (GtkWidget *child)
{
  GtkWidget *scroller = gtk_scrolled_window_new ();

  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), child);
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_widget_set_hexpand (scroller, TRUE);
  return scroller;
}

/* Keeps the selected function across rebuilds (a new time, a new birth
 * filter) when it is still outstanding */
void
_sps_memory_panel_fill_functions (SpsMemoryPanel *self)
{
  gboolean had_selection = gtk_single_selection_get_selected_item (self->function_selection) != NULL;
  guint32 selected_name = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (self), "sps-selected-name"));
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  guint n = self->tree != NULL ? sps_outstanding_tree_get_n_functions (self->tree) : 0;
  guint select = GTK_INVALID_LIST_POSITION;

  memset (self->max, 0, sizeof self->max);
  for (guint i = 0; i < n; i++)
    {
      const SpsOutstandingFunction *fn = sps_outstanding_tree_get_function (self->tree, i);

      for (guint c = 0; c < N_COLUMNS; c++)
        self->max[c] = MAX (self->max[c], function_value (fn, c));
      g_ptr_array_add (items, sps_memory_item_new (i));
    }

  g_list_store_splice (self->functions, 0, g_list_model_get_n_items (G_LIST_MODEL (self->functions)),
                       items->pdata, items->len);

  for (guint p = 0; had_selection && p < g_list_model_get_n_items (G_LIST_MODEL (self->function_selection)); p++)
    {
      g_autoptr(SpsMemoryItem) item = g_list_model_get_item (G_LIST_MODEL (self->function_selection), p);

      if (item_function (self, item)->name == selected_name)
        select = p;
    }
  gtk_single_selection_set_selected (self->function_selection, select);
  on_function_selected (self);
}

static void
remember_selected_name (SpsMemoryPanel *self)
{
  SpsMemoryItem *item = gtk_single_selection_get_selected_item (self->function_selection);

  if (item != NULL && self->tree != NULL)
    g_object_set_data (G_OBJECT (self), "sps-selected-name", GUINT_TO_POINTER (item_function (self, item)->name));
  on_function_selected (self);
}

/* The function list on the left; the selected function's paths and the
 * selected path's frames on the right */
GtkWidget *
_sps_memory_panel_create_lists (SpsMemoryPanel *self)
{
  g_autoptr(GtkColumnViewColumn) by_bytes = NULL;
  GtkSortListModel *sorted;
  GtkWidget *paned;
  GtkWidget *right;

  self->functions = g_list_store_new (SPS_TYPE_MEMORY_ITEM);
  self->function_view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  gtk_widget_set_name (GTK_WIDGET (self->function_view), "memory-functions");
  add_column (self, COLUMN_FUNCTION, _("Function"));
  add_column (self, COLUMN_INCLUSIVE_BYTES, _("Inclusive Bytes"));
  add_column (self, COLUMN_INCLUSIVE_COUNT, _("Inclusive Count"));
  add_column (self, COLUMN_EXCLUSIVE_BYTES, _("Exclusive Bytes"));
  add_column (self, COLUMN_EXCLUSIVE_COUNT, _("Exclusive Count"));
  add_column (self, COLUMN_UNCERTAIN_BYTES, _("Uncertain Bytes"));
  add_column (self, COLUMN_UNCERTAIN_COUNT, _("Uncertain Count"));
  add_column (self, COLUMN_NOTE, _("Why Uncertain"));

  sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->functions)),
                                    g_object_ref (gtk_column_view_get_sorter (self->function_view)));
  self->function_selection = gtk_single_selection_new (G_LIST_MODEL (sorted));
  gtk_single_selection_set_autoselect (self->function_selection, FALSE);
  gtk_single_selection_set_can_unselect (self->function_selection, TRUE);
  g_signal_connect_object (self->function_selection, "notify::selected-item", G_CALLBACK (remember_selected_name),
                           self, G_CONNECT_SWAPPED);
  gtk_column_view_set_model (self->function_view, GTK_SELECTION_MODEL (self->function_selection));
  by_bytes = g_list_model_get_item (gtk_column_view_get_columns (self->function_view), COLUMN_INCLUSIVE_BYTES);
  gtk_column_view_sort_by_column (self->function_view, by_bytes, GTK_SORT_DESCENDING);

  self->frames = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_widget_set_name (GTK_WIDGET (self->frames), "memory-frames");
  gtk_list_box_set_selection_mode (self->frames, GTK_SELECTION_NONE);

  right = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  gtk_paned_set_start_child (GTK_PANED (right), scrolled (create_path_view (self)));
  gtk_paned_set_end_child (GTK_PANED (right), scrolled (GTK_WIDGET (self->frames)));
  gtk_paned_set_position (GTK_PANED (right), 160);

  paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  gtk_paned_set_start_child (GTK_PANED (paned), scrolled (GTK_WIDGET (self->function_view)));
  gtk_paned_set_end_child (GTK_PANED (paned), right);
  gtk_paned_set_position (GTK_PANED (paned), 900);
  gtk_widget_set_vexpand (paned, TRUE);

  on_function_selected (self);
  return paned;
}
