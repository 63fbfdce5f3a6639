/* sps-result-table.c: a sortable, exportable table of typed cells
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-result-table"

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "sps-result-cell-private.h"
#include "sps-result-row-private.h"
#include "sps-result-table-private.h"
#include <spanscope-core.h>

enum {
  ROW_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/**
 * SpsResultTable:
 *
 * Rows of typed cells (integer, real, text or NULL) in a `GtkColumnView`
 * with sortable columns, a row count, a note (for instance the elapsed
 * time of the query that made the rows) and an "Export…" button that
 * writes the rows, in the order shown, as CSV or TSV.
 *
 * Fill it with [method@ResultTable.set_columns] and then
 * [method@ResultTable.append_row] for each row. Sorting by a column
 * compares numbers numerically in integer and real columns and text by
 * collation otherwise; NULL cells always come last.
 *
 * The `row-activated` signal reports the row the user picked, by its
 * index in append order, whatever the current sort.
 */
G_DEFINE_FINAL_TYPE (SpsResultTable, sps_result_table, GTK_TYPE_WIDGET)

static const Cell *
get_cell (SpsResultTable *self,
          guint           row,
          guint           column)
{
  g_assert (row < self->n_rows);
  g_assert (column < self->n_columns);

  return &g_array_index (self->cells, Cell, (gsize) row * self->n_columns + column);
}

static const char *
collate_key (SpsResultTable *self,
             guint           row,
             guint           column)
{
  GPtrArray *keys;

  g_assert (column < self->n_columns);

  if (self->collate_keys[column] == NULL)
    self->collate_keys[column] = g_ptr_array_new_with_free_func (g_free);
  keys = self->collate_keys[column];
  if (keys->len < self->n_rows)
    g_ptr_array_set_size (keys, self->n_rows);

  if (g_ptr_array_index (keys, row) == NULL)
    {
      g_autofree char *text = _sps_result_cell_format (get_cell (self, row, column));

      g_ptr_array_index (keys, row) = g_utf8_collate_key (text != NULL ? text : "", -1);
    }

  return g_ptr_array_index (keys, row);
}

static GtkOrdering
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  ColumnData *data = user_data;
  SpsResultTable *self = data->self;
  guint ra = sps_result_row_get_index ((SpsResultRow *) a);
  guint rb = sps_result_row_get_index ((SpsResultRow *) b);
  GtkOrdering null_last;
  const Cell *ca;
  const Cell *cb;
  int result;

  if (ra >= SPS_RESULT_ROW_PROBE_LOW || rb >= SPS_RESULT_ROW_PROBE_LOW)
    return gtk_ordering_from_cmpfunc ((ra > rb) - (ra < rb));

  ca = get_cell (self, ra, data->column);
  cb = get_cell (self, rb, data->column);

  /* The column view inverts the result for a descending sort. */
  null_last = self->sort_descending ? GTK_ORDERING_SMALLER : GTK_ORDERING_LARGER;
  if (ca->kind == CELL_NULL || cb->kind == CELL_NULL)
    {
      if (ca->kind == cb->kind)
        return GTK_ORDERING_EQUAL;
      return ca->kind == CELL_NULL ? null_last : -null_last;
    }

  if (self->types[data->column] != SPS_RESULT_COLUMN_TEXT)
    {
      gboolean na = ca->kind != CELL_TEXT;
      gboolean nb = cb->kind != CELL_TEXT;

      if (na && nb)
        return gtk_ordering_from_cmpfunc (_sps_result_cell_compare_numbers (ca, cb));
      if (na != nb)
        return na ? GTK_ORDERING_SMALLER : GTK_ORDERING_LARGER;
    }

  result = strcmp (collate_key (self, ra, data->column),
                   collate_key (self, rb, data->column));
  return gtk_ordering_from_cmpfunc (result);
}

static void
update_count (SpsResultTable *self)
{
  g_autofree char *text = NULL;

  g_assert (SPS_IS_RESULT_TABLE (self));

  /* Translators: the number of rows in a result table */
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u row", "%u rows", self->n_rows),
                          self->n_rows);
  gtk_label_set_text (self->count_label, text);
  gtk_widget_set_visible (GTK_WIDGET (self->count_label), self->n_columns > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "result-table.export", self->n_columns > 0);
}

void
_sps_result_table_flush_pending (SpsResultTable *self)
{
  g_assert (SPS_IS_RESULT_TABLE (self));

  g_clear_handle_id (&self->flush_id, g_source_remove);
  if (self->pending->len > 0)
    {
      g_list_store_splice (self->rows,
                           g_list_model_get_n_items (G_LIST_MODEL (self->rows)), 0,
                           self->pending->pdata, self->pending->len);
      g_ptr_array_set_size (self->pending, 0);
    }
  update_count (self);
}

static gboolean
flush_pending_cb (gpointer user_data)
{
  SpsResultTable *self = user_data;

  self->flush_id = 0;
  _sps_result_table_flush_pending (self);
  return G_SOURCE_REMOVE;
}

static void
on_sorter_changed (SpsResultTable *self,
                   GtkSorterChange change,
                   GtkSorter      *sorter)
{
  g_assert (SPS_IS_RESULT_TABLE (self));
  g_assert (GTK_IS_SORTER (sorter));

  self->sort_descending =
    gtk_sorter_compare (sorter, self->probe_low, self->probe_high) == GTK_ORDERING_LARGER;
}

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            gpointer                  user_data)
{
  ColumnData *data = user_data;
  GtkWidget *label = gtk_label_new (NULL);

  if (data->self->types[data->column] != SPS_RESULT_COLUMN_TEXT)
    {
      gtk_label_set_xalign (GTK_LABEL (label), 1.0);
      gtk_widget_add_css_class (label, "numeric");
    }
  else
    {
      gtk_label_set_xalign (GTK_LABEL (label), 0.0);
    }
  gtk_label_set_single_line_mode (GTK_LABEL (label), TRUE);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 60);
  gtk_list_item_set_child (item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  user_data)
{
  ColumnData *data = user_data;
  SpsResultRow *row = gtk_list_item_get_item (item);
  GtkWidget *label = gtk_list_item_get_child (item);
  g_autofree char *text = NULL;
  const Cell *cell;

  cell = get_cell (data->self, sps_result_row_get_index (row), data->column);
  if (data->self->types[data->column] == SPS_RESULT_COLUMN_DURATION &&
      (cell->kind == CELL_INTEGER || (cell->kind == CELL_REAL && isfinite (cell->v.d))))
    text = sps_time_format (cell->kind == CELL_INTEGER ? cell->v.i : (SpsTime) llround (cell->v.d));
  else
    text = _sps_result_cell_format (cell);
  if (text != NULL)
    {
      char *newline;

      /* A cell is one line: show multi-line text up to its first break. */
      if ((newline = strpbrk (text, "\r\n")) != NULL)
        strcpy (newline, "…");
      gtk_label_set_text (GTK_LABEL (label), text);
      gtk_widget_remove_css_class (label, "dim-label");
    }
  else
    {
      gtk_label_set_text (GTK_LABEL (label), data->self->null_text);
      gtk_widget_add_css_class (label, "dim-label");
    }
}

guint
_sps_result_table_row_at (SpsResultTable *self,
                          guint           position)
{
  g_autoptr(SpsResultRow) row = NULL;

  g_assert (SPS_IS_RESULT_TABLE (self));

  if (!(row = g_list_model_get_item (G_LIST_MODEL (self->sorted), position)))
    return G_MAXUINT;
  return sps_result_row_get_index (row);
}

static void
emit_row_activated (SpsResultTable *self,
                    guint           row)
{
  g_assert (SPS_IS_RESULT_TABLE (self));

  if (row == G_MAXUINT)
    return;
  self->last_emitted = row;
  g_signal_emit (self, signals[ROW_ACTIVATED], 0, row);
}

static void
on_view_activate (SpsResultTable *self,
                  guint           position,
                  GtkColumnView  *view)
{
  g_assert (SPS_IS_RESULT_TABLE (self));

  emit_row_activated (self, _sps_result_table_row_at (self, position));
}

static void
on_selection_changed (SpsResultTable     *self,
                      guint               position,
                      guint               n_items,
                      GtkSingleSelection *selection)
{
  guint row;

  g_assert (SPS_IS_RESULT_TABLE (self));

  /* Re-sorting moves the selected row and reports a change too: only a
   * different row counts as the user picking one. */
  row = _sps_result_table_row_at (self, gtk_single_selection_get_selected (selection));
  if (row != G_MAXUINT && row != self->last_emitted)
    emit_row_activated (self, row);
}

static void
export_response_cb (SpsResultTable       *self,
                    int                   response,
                    GtkFileChooserNative *chooser)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  SpsResultFormat format;
  const char *choice;

  g_assert (SPS_IS_RESULT_TABLE (self));
  g_assert (GTK_IS_FILE_CHOOSER_NATIVE (chooser));

  if (response == GTK_RESPONSE_ACCEPT &&
      (file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser))) != NULL)
    {
      choice = gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (chooser), "format");
      format = g_strcmp0 (choice, "tsv") == 0 ? SPS_RESULT_FORMAT_TSV : SPS_RESULT_FORMAT_CSV;

      if (!sps_result_table_export_to_file (self, file, format, &error))
        {
          /* Translators: %s is the reason, e.g. "Permission denied" */
          g_autofree char *message = g_strdup_printf (_("Export failed: %s"), error->message);

          sps_result_table_set_note (self, message);
          gtk_widget_add_css_class (GTK_WIDGET (self->note_label), "error");
        }
    }

  g_clear_object (&self->chooser);
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  SpsResultTable *self = SPS_RESULT_TABLE (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  const char *ids[] = { "csv", "tsv", NULL };
  const char *labels[] = { _("CSV (comma-separated)"), _("TSV (tab-separated)"), NULL };

  if (self->chooser != NULL)
    return;

  self->chooser = gtk_file_chooser_native_new (_("Export Results"),
                                               GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                               GTK_FILE_CHOOSER_ACTION_SAVE,
                                               _("_Export"),
                                               _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (self->chooser), "format", _("Format"), ids, labels);
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (self->chooser), "format", "csv");
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), _("results.csv"));
  g_signal_connect_object (self->chooser, "response",
                           G_CALLBACK (export_response_cb), self, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
sps_result_table_dispose (GObject *object)
{
  SpsResultTable *self = SPS_RESULT_TABLE (object);
  GtkWidget *child;

  g_clear_handle_id (&self->flush_id, g_source_remove);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);

  g_clear_object (&self->selection);
  g_clear_object (&self->sorted);
  g_clear_object (&self->rows);
  g_clear_pointer (&self->pending, g_ptr_array_unref);
  g_clear_object (&self->probe_low);
  g_clear_object (&self->probe_high);

  G_OBJECT_CLASS (sps_result_table_parent_class)->dispose (object);
}

static void
free_columns (SpsResultTable *self)
{
  for (guint i = 0; self->collate_keys != NULL && i < self->n_columns; i++)
    g_clear_pointer (&self->collate_keys[i], g_ptr_array_unref);
  g_clear_pointer (&self->collate_keys, g_free);
  g_clear_pointer (&self->names, g_strfreev);
  g_clear_pointer (&self->types, g_free);
  self->n_columns = 0;
}

static void
sps_result_table_finalize (GObject *object)
{
  SpsResultTable *self = SPS_RESULT_TABLE (object);

  free_columns (self);
  g_clear_pointer (&self->cells, g_array_unref);
  g_clear_pointer (&self->null_text, g_free);

  G_OBJECT_CLASS (sps_result_table_parent_class)->finalize (object);
}

static void
sps_result_table_class_init (SpsResultTableClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sps_result_table_dispose;
  object_class->finalize = sps_result_table_finalize;

  /**
   * SpsResultTable::row-activated:
   * @self: the table
   * @row: the row's index in append order
   *
   * The user selected or activated a row.
   */
  signals[ROW_ACTIVATED] =
    g_signal_new ("row-activated",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_UINT);

  gtk_widget_class_install_action (widget_class, "result-table.export", NULL, export_action);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "resulttable");
}

static void
sps_result_table_init (SpsResultTable *self)
{
  GtkWidget *scrolled;
  GtkWidget *bar;
  GtkWidget *button;
  GtkSorter *sorter;

  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);

  self->cells = g_array_new (FALSE, TRUE, sizeof (Cell));
  g_array_set_clear_func (self->cells, _sps_result_cell_clear);
  self->pending = g_ptr_array_new_with_free_func (g_object_unref);
  self->rows = g_list_store_new (SPS_TYPE_RESULT_ROW);
  self->probe_low = sps_result_row_new (SPS_RESULT_ROW_PROBE_LOW);
  self->probe_high = sps_result_row_new (SPS_RESULT_ROW_PROBE_HIGH);
  self->last_emitted = G_MAXUINT;
  self->null_text = g_strdup ("NULL");

  self->view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  gtk_column_view_set_show_column_separators (self->view, TRUE);
  gtk_column_view_set_reorderable (self->view, FALSE);
  gtk_widget_add_css_class (GTK_WIDGET (self->view), "data-table");

  /* Connected before the sort model connects, so the direction is known
   * before it re-sorts. */
  sorter = gtk_column_view_get_sorter (self->view);
  g_signal_connect_object (sorter, "changed", G_CALLBACK (on_sorter_changed), self, G_CONNECT_SWAPPED);
  self->sorted = gtk_sort_list_model_new (g_object_ref (G_LIST_MODEL (self->rows)),
                                          g_object_ref (sorter));
  self->selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->sorted)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_column_view_set_model (self->view, GTK_SELECTION_MODEL (self->selection));
  g_signal_connect_object (self->selection, "selection-changed",
                           G_CALLBACK (on_selection_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->view, "activate", G_CALLBACK (on_view_activate), self, G_CONNECT_SWAPPED);

  self->stack = GTK_STACK (gtk_stack_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->stack), TRUE);
  gtk_widget_set_parent (GTK_WIDGET (self->stack), GTK_WIDGET (self));

  self->placeholder = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->placeholder, TRUE);
  gtk_label_set_justify (self->placeholder, GTK_JUSTIFY_CENTER);
  gtk_widget_add_css_class (GTK_WIDGET (self->placeholder), "dim-label");
  gtk_stack_add_named (self->stack, GTK_WIDGET (self->placeholder), "placeholder");

  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (self->view));
  gtk_stack_add_named (self->stack, scrolled, "table");
  gtk_stack_set_visible_child_name (self->stack, "placeholder");

  bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_widget_add_css_class (bar, "toolbar");
  gtk_widget_set_parent (bar, GTK_WIDGET (self));

  self->count_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->count_label));

  self->note_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->note_label, 0.0);
  gtk_label_set_ellipsize (self->note_label, PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (GTK_WIDGET (self->note_label), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->note_label), "dim-label");
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->note_label));

  button = gtk_button_new_with_mnemonic (_("E_xport…"));
  gtk_widget_set_tooltip_text (button, _("Save the rows as CSV or TSV"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "result-table.export");
  gtk_box_append (GTK_BOX (bar), button);

  update_count (self);
}

/**
 * sps_result_table_new:
 *
 * Returns: (transfer floating): an empty table showing its placeholder
 */
GtkWidget *
sps_result_table_new (void)
{
  return g_object_new (SPS_TYPE_RESULT_TABLE, NULL);
}

/**
 * sps_result_table_set_columns:
 * @self: a table
 * @n_columns: the number of columns
 * @names: (array length=n_columns): the column titles (not translated: they
 *   are data, e.g. SQL column names)
 * @types: (array length=n_columns): how each column sorts and aligns
 *
 * Replaces the columns and removes every row and the sort. With no
 * columns the table shows its placeholder.
 */
void
sps_result_table_set_columns (SpsResultTable            *self,
                              guint                      n_columns,
                              const char * const        *names,
                              const SpsResultColumnType *types)
{
  GListModel *columns;
  guint first_text = G_MAXUINT;

  g_return_if_fail (SPS_IS_RESULT_TABLE (self));
  g_return_if_fail (n_columns == 0 || names != NULL);
  g_return_if_fail (n_columns == 0 || types != NULL);

  gtk_column_view_sort_by_column (self->view, NULL, GTK_SORT_ASCENDING);
  sps_result_table_clear (self);

  columns = gtk_column_view_get_columns (self->view);
  while (g_list_model_get_n_items (columns) > 0)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, 0);

      gtk_column_view_remove_column (self->view, column);
    }
  free_columns (self);

  self->n_columns = n_columns;
  self->names = g_new0 (char *, n_columns + 1);
  self->types = g_new0 (SpsResultColumnType, MAX (n_columns, 1));
  self->collate_keys = g_new0 (GPtrArray *, MAX (n_columns, 1));
  for (guint i = 0; i < n_columns && first_text == G_MAXUINT; i++)
    if (types[i] == SPS_RESULT_COLUMN_TEXT)
      first_text = i;

  for (guint i = 0; i < n_columns; i++)
    {
      g_autoptr(GtkColumnViewColumn) column = NULL;
      GtkListItemFactory *factory;
      GtkSorter *sorter;
      ColumnData *data;

      self->names[i] = g_strdup (names[i] != NULL ? names[i] : "");
      self->types[i] = types[i];

      factory = gtk_signal_list_item_factory_new ();
      data = g_new0 (ColumnData, 1);
      data->self = self;
      data->column = i;
      g_signal_connect_data (factory, "setup", G_CALLBACK (setup_cell), data,
                             (GClosureNotify) (void (*) (void)) g_free, 0);
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), data);

      data = g_new0 (ColumnData, 1);
      data->self = self;
      data->column = i;
      sorter = GTK_SORTER (gtk_custom_sorter_new (compare_rows, data, g_free));

      column = gtk_column_view_column_new (self->names[i], factory);
      gtk_column_view_column_set_sorter (column, sorter);
      gtk_column_view_column_set_resizable (column, TRUE);
      /* The first text column (a name, usually) takes the spare width,
       * or the last column when all are numbers. */
      if (i == first_text || (first_text == G_MAXUINT && i + 1 == n_columns))
        gtk_column_view_column_set_expand (column, TRUE);
      g_object_unref (sorter);
      gtk_column_view_append_column (self->view, column);
    }

  gtk_stack_set_visible_child_name (self->stack, n_columns > 0 ? "table" : "placeholder");
  update_count (self);
}

/**
 * sps_result_table_append_row:
 * @self: a table
 * @row: a tuple with one child per column; a floating reference is sunk
 *
 * Appends a row. Each child is an integer (any GVariant integer type or a
 * boolean), a double, a string, a maybe (`Nothing` is SQL NULL) or a
 * variant holding one of these; anything else is shown printed.
 *
 * The view catches up once the main loop runs, so appending many rows in
 * a loop costs one re-sort.
 */
void
sps_result_table_append_row (SpsResultTable *self,
                             GVariant       *row)
{
  g_autoptr(GVariant) owned = NULL;
  guint first;

  g_return_if_fail (SPS_IS_RESULT_TABLE (self));
  g_return_if_fail (row != NULL);
  g_return_if_fail (g_variant_is_of_type (row, G_VARIANT_TYPE_TUPLE));

  owned = g_variant_ref_sink (row);
  g_return_if_fail (g_variant_n_children (owned) == self->n_columns);
  g_return_if_fail (self->n_rows < SPS_RESULT_ROW_PROBE_LOW);

  first = self->cells->len;
  g_array_set_size (self->cells, first + self->n_columns);
  for (guint i = 0; i < self->n_columns; i++)
    {
      g_autoptr(GVariant) child = g_variant_get_child_value (owned, i);

      _sps_result_cell_from_variant (child, &g_array_index (self->cells, Cell, first + i));
    }

  g_ptr_array_add (self->pending, sps_result_row_new (self->n_rows));
  self->n_rows++;

  if (self->flush_id == 0)
    /* Before GTK lays out and draws the next frame. */
    self->flush_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, flush_pending_cb, self, NULL);
}

/**
 * sps_result_table_clear:
 * @self: a table
 *
 * Removes every row and the note; keeps the columns.
 */
void
sps_result_table_clear (SpsResultTable *self)
{
  g_return_if_fail (SPS_IS_RESULT_TABLE (self));

  g_clear_handle_id (&self->flush_id, g_source_remove);
  g_ptr_array_set_size (self->pending, 0);
  g_list_store_remove_all (self->rows);
  g_array_set_size (self->cells, 0);
  for (guint i = 0; i < self->n_columns; i++)
    g_clear_pointer (&self->collate_keys[i], g_ptr_array_unref);
  self->n_rows = 0;
  self->last_emitted = G_MAXUINT;
  sps_result_table_set_note (self, NULL);
  update_count (self);
}

/**
 * sps_result_table_get_n_columns:
 * @self: a table
 *
 * Returns: the number of columns
 */
guint
sps_result_table_get_n_columns (SpsResultTable *self)
{
  g_return_val_if_fail (SPS_IS_RESULT_TABLE (self), 0);

  return self->n_columns;
}

/**
 * sps_result_table_get_column_name:
 * @self: a table
 * @column: a column index
 *
 * Returns: the column's title
 */
const char *
sps_result_table_get_column_name (SpsResultTable *self,
                                  guint           column)
{
  g_return_val_if_fail (SPS_IS_RESULT_TABLE (self), NULL);
  g_return_val_if_fail (column < self->n_columns, NULL);

  return self->names[column];
}

/**
 * sps_result_table_get_column_type:
 * @self: a table
 * @column: a column index
 *
 * Returns: how the column sorts and aligns
 */
SpsResultColumnType
sps_result_table_get_column_type (SpsResultTable *self,
                                  guint           column)
{
  g_return_val_if_fail (SPS_IS_RESULT_TABLE (self), SPS_RESULT_COLUMN_TEXT);
  g_return_val_if_fail (column < self->n_columns, SPS_RESULT_COLUMN_TEXT);

  return self->types[column];
}

/**
 * sps_result_table_find_column:
 * @self: a table
 * @name: a column name
 *
 * Looks a column up by its name, ignoring ASCII case as SQL does.
 *
 * Returns: the index of the first column called @name, or -1
 */
int
sps_result_table_find_column (SpsResultTable *self,
                              const char     *name)
{
  g_return_val_if_fail (SPS_IS_RESULT_TABLE (self), -1);
  g_return_val_if_fail (name != NULL, -1);

  for (guint i = 0; i < self->n_columns; i++)
    if (g_ascii_strcasecmp (self->names[i], name) == 0)
      return (int) i;
  return -1;
}

/**
 * sps_result_table_get_n_rows:
 * @self: a table
 *
 * Returns: the number of rows appended since the columns were set
 */
guint
sps_result_table_get_n_rows (SpsResultTable *self)
{
  g_return_val_if_fail (SPS_IS_RESULT_TABLE (self), 0);

  return self->n_rows;
}

/**
 * sps_result_table_get_cell:
 * @self: a table
 * @row: a row index in append order
 * @column: a column index
 *
 * Returns: (transfer full) (nullable): the cell as an `x` (integer), `d`
 *   (real) or `s` (text) variant, or %NULL for SQL NULL
 */
GVariant *
sps_result_table_get_cell (SpsResultTable *self,
                           guint           row,
                           guint           column)
{
  g_return_val_if_fail (SPS_IS_RESULT_TABLE (self), NULL);
  g_return_val_if_fail (row < self->n_rows, NULL);
  g_return_val_if_fail (column < self->n_columns, NULL);

  return _sps_result_cell_to_variant (get_cell (self, row, column));
}

/**
 * sps_result_table_dup_cell_text:
 * @self: a table
 * @row: a row index in append order
 * @column: a column index
 *
 * Returns: (transfer full) (nullable): the cell as it is exported: decimal
 *   integers, the shortest exact form of reals, text; %NULL for SQL NULL
 */
char *
sps_result_table_dup_cell_text (SpsResultTable *self,
                                guint           row,
                                guint           column)
{
  g_return_val_if_fail (SPS_IS_RESULT_TABLE (self), NULL);
  g_return_val_if_fail (row < self->n_rows, NULL);
  g_return_val_if_fail (column < self->n_columns, NULL);

  return _sps_result_cell_format (get_cell (self, row, column));
}

/**
 * sps_result_table_sort:
 * @self: a table
 * @column: a column index, or -1 for the append order
 * @order: the direction
 *
 * Sorts as a click on the column header does.
 */
void
sps_result_table_sort (SpsResultTable *self,
                       int             column,
                       GtkSortType     order)
{
  g_autoptr(GtkColumnViewColumn) view_column = NULL;

  g_return_if_fail (SPS_IS_RESULT_TABLE (self));
  g_return_if_fail (column < (int) self->n_columns);

  if (column >= 0)
    view_column = g_list_model_get_item (gtk_column_view_get_columns (self->view), column);
  gtk_column_view_sort_by_column (self->view, view_column, order);
}

/**
 * sps_result_table_set_note:
 * @self: a table
 * @note: (nullable): a short text shown after the row count
 *
 * Sets a note such as the time the query took.
 */
void
sps_result_table_set_note (SpsResultTable *self,
                           const char     *note)
{
  g_return_if_fail (SPS_IS_RESULT_TABLE (self));

  gtk_label_set_text (self->note_label, note != NULL ? note : "");
  gtk_widget_remove_css_class (GTK_WIDGET (self->note_label), "error");
}

/**
 * sps_result_table_get_note:
 * @self: a table
 *
 * Returns: the note shown after the row count ("" for none)
 */
const char *
sps_result_table_get_note (SpsResultTable *self)
{
  g_return_val_if_fail (SPS_IS_RESULT_TABLE (self), NULL);

  return gtk_label_get_text (self->note_label);
}

/**
 * sps_result_table_set_null_text:
 * @self: a table
 * @text: how NULL cells show, "NULL" by default (they export as empty
 *   fields whatever this says)
 *
 * Sets the text of NULL cells, e.g. "—" where NULL means "does not
 * apply". Takes effect for the rows shown from then on.
 */
void
sps_result_table_set_null_text (SpsResultTable *self,
                                const char     *text)
{
  g_return_if_fail (SPS_IS_RESULT_TABLE (self));
  g_return_if_fail (text != NULL);

  g_free (self->null_text);
  self->null_text = g_strdup (text);
}

/**
 * sps_result_table_set_placeholder:
 * @self: a table
 * @text: (nullable): what to show while there are no columns
 */
void
sps_result_table_set_placeholder (SpsResultTable *self,
                                  const char     *text)
{
  g_return_if_fail (SPS_IS_RESULT_TABLE (self));

  gtk_label_set_text (self->placeholder, text != NULL ? text : "");
}
