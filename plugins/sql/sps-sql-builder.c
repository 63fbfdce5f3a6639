/* sps-sql-builder.c: the SQL panel's visual query builder
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-sql-builder"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-sql-builder.h"

/* One filter (column, operator, value) or aggregate (function, column)
 * line; @op is the operator or the function. */
typedef struct
{
  GtkWidget   *box;
  GtkDropDown *column;
  GtkDropDown *op;
  GtkEntry    *value;
} Line;

struct _SpsSqlBuilder
{
  GtkWidget      parent_instance;

  SpsSqlSchema  *schema;

  GtkDropDown   *table;
  GtkStringList *tables;
  GtkBox        *filter_box;
  GtkBox        *aggregate_box;
  GtkDropDown   *group_by;
  GtkStringList *group_columns;

  GPtrArray     *filters;
  GPtrArray     *aggregates;
  /* The chosen table's columns; the group-by list has "—" first. */
  GStrv          columns;
};

enum {
  WRITE_SQL,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SpsSqlBuilder, sps_sql_builder, GTK_TYPE_WIDGET)

static void
line_free (gpointer data)
{
  Line *line = data;

  g_free (line);
}

static const char *
selected_string (GtkDropDown *drop_down)
{
  GObject *item = gtk_drop_down_get_selected_item (drop_down);

  return GTK_IS_STRING_OBJECT (item) ? gtk_string_object_get_string (GTK_STRING_OBJECT (item)) : NULL;
}

static gboolean
select_string (GtkDropDown *drop_down,
               const char  *text)
{
  GListModel *model = gtk_drop_down_get_model (drop_down);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GtkStringObject) item = g_list_model_get_item (model, i);

      if (g_strcmp0 (gtk_string_object_get_string (item), text) == 0)
        {
          gtk_drop_down_set_selected (drop_down, i);
          return TRUE;
        }
    }
  return FALSE;
}

static void
remove_line (GtkButton *button,
             GPtrArray *lines)
{
  for (guint i = 0; i < lines->len; i++)
    {
      Line *line = g_ptr_array_index (lines, i);

      if (gtk_widget_is_ancestor (GTK_WIDGET (button), line->box))
        {
          gtk_box_remove (GTK_BOX (gtk_widget_get_parent (line->box)), line->box);
          g_ptr_array_remove_index (lines, i);
          return;
        }
    }
}

static Line *
add_line (SpsSqlBuilder      *self,
          GtkBox             *parent,
          GPtrArray          *lines,
          const char * const *ops,
          gboolean            with_value,
          gboolean            column_first)
{
  g_autoptr(GtkStringList) columns = gtk_string_list_new ((const char * const *) self->columns);
  Line *line = g_new0 (Line, 1);
  GtkWidget *remove;

  g_assert (SPS_IS_SQL_BUILDER (self));

  /* Aggregates may count rows: "*" is their first column. */
  if (!column_first)
    gtk_string_list_splice (columns, 0, 0, (const char * const []) { "*", NULL });

  line->box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  line->column = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (g_steal_pointer (&columns)), NULL));
  line->op = GTK_DROP_DOWN (gtk_drop_down_new_from_strings (ops));
  gtk_widget_set_hexpand (GTK_WIDGET (line->column), TRUE);

  if (column_first)
    {
      gtk_box_append (GTK_BOX (line->box), GTK_WIDGET (line->column));
      gtk_box_append (GTK_BOX (line->box), GTK_WIDGET (line->op));
    }
  else
    {
      gtk_box_append (GTK_BOX (line->box), GTK_WIDGET (line->op));
      gtk_box_append (GTK_BOX (line->box), GTK_WIDGET (line->column));
    }

  if (with_value)
    {
      line->value = GTK_ENTRY (gtk_entry_new ());
      gtk_entry_set_placeholder_text (line->value, _("value"));
      gtk_editable_set_width_chars (GTK_EDITABLE (line->value), 8);
      gtk_widget_set_hexpand (GTK_WIDGET (line->value), TRUE);
      gtk_box_append (GTK_BOX (line->box), GTK_WIDGET (line->value));
    }

  remove = gtk_button_new_from_icon_name ("list-remove-symbolic");
  gtk_widget_add_css_class (remove, "flat");
  gtk_widget_set_tooltip_text (remove, _("Remove"));
  g_signal_connect (remove, "clicked", G_CALLBACK (remove_line), lines);
  gtk_box_append (GTK_BOX (line->box), remove);

  gtk_box_append (parent, line->box);
  g_ptr_array_add (lines, line);
  return line;
}

static const char * const *
op_labels (void)
{
  static const char *labels[SPS_SQL_N_OPS + 1];

  if (labels[0] == NULL)
    for (guint i = 0; i < SPS_SQL_N_OPS; i++)
      labels[i] = sps_sql_op_to_string (i);
  return labels;
}

static const char * const *
aggregate_labels (void)
{
  static const char *labels[SPS_SQL_N_AGGREGATES + 1];

  if (labels[0] == NULL)
    for (guint i = 0; i < SPS_SQL_N_AGGREGATES; i++)
      labels[i] = sps_sql_aggregate_to_string (i);
  return labels;
}

static void
on_add_filter (SpsSqlBuilder *self)
{
  g_assert (SPS_IS_SQL_BUILDER (self));

  if (self->columns != NULL && self->columns[0] != NULL)
    add_line (self, self->filter_box, self->filters, op_labels (), TRUE, TRUE);
}

static void
on_add_aggregate (SpsSqlBuilder *self)
{
  g_assert (SPS_IS_SQL_BUILDER (self));

  if (self->columns != NULL)
    add_line (self, self->aggregate_box, self->aggregates, aggregate_labels (), FALSE, FALSE);
}

static void
clear_lines (GPtrArray *lines)
{
  while (lines->len > 0)
    {
      Line *line = g_ptr_array_index (lines, lines->len - 1);

      gtk_box_remove (GTK_BOX (gtk_widget_get_parent (line->box)), line->box);
      g_ptr_array_remove_index (lines, lines->len - 1);
    }
}

/* A new table invalidates every column choice. */
static void
on_table_changed (SpsSqlBuilder *self)
{
  const char *table;

  g_assert (SPS_IS_SQL_BUILDER (self));

  clear_lines (self->filters);
  clear_lines (self->aggregates);
  g_clear_pointer (&self->columns, g_strfreev);

  table = selected_string (self->table);
  self->columns = table != NULL ? sps_sql_schema_dup_columns (self->schema, table) : g_new0 (char *, 1);

  gtk_string_list_splice (self->group_columns, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->group_columns)),
                          (const char * const []) { "—", NULL });
  gtk_string_list_splice (self->group_columns, 1, 0, (const char * const *) self->columns);
  gtk_drop_down_set_selected (self->group_by, 0);
}

static void
write_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  SpsSqlBuilder *self = SPS_SQL_BUILDER (widget);
  g_autofree char *sql = sps_sql_builder_dup_sql (self);

  if (sql != NULL)
    g_signal_emit (self, signals[WRITE_SQL], 0, sql);
}

static void
sps_sql_builder_dispose (GObject *object)
{
  SpsSqlBuilder *self = SPS_SQL_BUILDER (object);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_pointer (&self->filters, g_ptr_array_unref);
  g_clear_pointer (&self->aggregates, g_ptr_array_unref);
  g_clear_object (&self->tables);
  g_clear_object (&self->group_columns);
  g_clear_object (&self->schema);

  G_OBJECT_CLASS (sps_sql_builder_parent_class)->dispose (object);
}

static void
sps_sql_builder_finalize (GObject *object)
{
  SpsSqlBuilder *self = SPS_SQL_BUILDER (object);

  g_clear_pointer (&self->columns, g_strfreev);

  G_OBJECT_CLASS (sps_sql_builder_parent_class)->finalize (object);
}

static void
sps_sql_builder_class_init (SpsSqlBuilderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sps_sql_builder_dispose;
  object_class->finalize = sps_sql_builder_finalize;

  /* "Write SQL" was pressed; the panel puts the text in the editor. */
  signals[WRITE_SQL] =
    g_signal_new ("write-sql",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_install_action (widget_class, "builder.write", NULL, write_action);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "sqlbuilder");
}

static GtkWidget *
heading (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_widget_add_css_class (label, "heading");
  return label;
}

static GtkWidget *
add_button (const char *text)
{
  GtkWidget *button = gtk_button_new ();
  GtkWidget *content = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);

  gtk_box_append (GTK_BOX (content), gtk_image_new_from_icon_name ("list-add-symbolic"));
  gtk_box_append (GTK_BOX (content), gtk_label_new_with_mnemonic (text));
  gtk_button_set_child (GTK_BUTTON (button), content);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_halign (button, GTK_ALIGN_START);
  return button;
}

static void
sps_sql_builder_init (SpsSqlBuilder *self)
{
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *button;

  self->filters = g_ptr_array_new_with_free_func (line_free);
  self->aggregates = g_ptr_array_new_with_free_func (line_free);
  self->tables = gtk_string_list_new (NULL);
  self->group_columns = gtk_string_list_new (NULL);
  self->columns = g_new0 (char *, 1);

  gtk_widget_set_margin_start (box, 8);
  gtk_widget_set_margin_end (box, 8);
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);

  gtk_box_append (GTK_BOX (box), heading (_("Table")));
  self->table = GTK_DROP_DOWN (gtk_drop_down_new (g_object_ref (G_LIST_MODEL (self->tables)), NULL));
  g_signal_connect_object (self->table, "notify::selected", G_CALLBACK (on_table_changed), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->table));

  gtk_box_append (GTK_BOX (box), heading (_("Filters")));
  self->filter_box = GTK_BOX (gtk_box_new (GTK_ORIENTATION_VERTICAL, 4));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->filter_box));
  button = add_button (_("Add _Filter"));
  g_signal_connect_object (button, "clicked", G_CALLBACK (on_add_filter), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (box), button);

  gtk_box_append (GTK_BOX (box), heading (_("Group By")));
  self->group_by = GTK_DROP_DOWN (gtk_drop_down_new (g_object_ref (G_LIST_MODEL (self->group_columns)), NULL));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->group_by));

  gtk_box_append (GTK_BOX (box), heading (_("Aggregates")));
  self->aggregate_box = GTK_BOX (gtk_box_new (GTK_ORIENTATION_VERTICAL, 4));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->aggregate_box));
  button = add_button (_("Add _Aggregate"));
  g_signal_connect_object (button, "clicked", G_CALLBACK (on_add_aggregate), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (box), button);

  button = gtk_button_new_with_mnemonic (_("_Write SQL"));
  gtk_widget_set_tooltip_text (button, _("Replace the query in the editor with this one"));
  gtk_widget_add_css_class (button, "suggested-action");
  gtk_widget_set_halign (button, GTK_ALIGN_END);
  gtk_widget_set_margin_top (button, 6);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "builder.write");
  gtk_box_append (GTK_BOX (box), button);

  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), box);
  gtk_widget_set_parent (scrolled, GTK_WIDGET (self));
}

GtkWidget *
sps_sql_builder_new (SpsSqlSchema *schema)
{
  SpsSqlBuilder *self;

  g_return_val_if_fail (SPS_IS_SQL_SCHEMA (schema), NULL);

  self = g_object_new (SPS_TYPE_SQL_BUILDER, NULL);
  self->schema = g_object_ref (schema);
  return GTK_WIDGET (self);
}

/* Reloads the table list from the schema. The choices made so far stay
 * while their table still exists: the panel refreshes after every query. */
void
sps_sql_builder_refresh (SpsSqlBuilder *self)
{
  g_autofree char *current = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) names = NULL;
  guint n_tables;
  gboolean same = TRUE;

  g_return_if_fail (SPS_IS_SQL_BUILDER (self));

  n_tables = sps_sql_schema_get_n_tables (self->schema);
  same = n_tables == g_list_model_get_n_items (G_LIST_MODEL (self->tables));
  for (guint i = 0; i < n_tables; i++)
    {
      const char *name = sps_sql_schema_get_table (self->schema, i);

      g_strv_builder_add (builder, name);
      same = same && g_strcmp0 (name, gtk_string_list_get_string (self->tables, i)) == 0;
    }
  if (same)
    return;
  names = g_strv_builder_end (builder);

  current = g_strdup (selected_string (self->table));
  g_signal_handlers_block_by_func (self->table, on_table_changed, self);
  gtk_string_list_splice (self->tables, 0, g_list_model_get_n_items (G_LIST_MODEL (self->tables)),
                          (const char * const *) names);
  g_signal_handlers_unblock_by_func (self->table, on_table_changed, self);

  if (current == NULL || !select_string (self->table, current) ||
      g_strcmp0 (current, selected_string (self->table)) != 0)
    on_table_changed (self);
}

gboolean
sps_sql_builder_set_table (SpsSqlBuilder *self,
                           const char    *table)
{
  g_return_val_if_fail (SPS_IS_SQL_BUILDER (self), FALSE);
  g_return_val_if_fail (table != NULL, FALSE);

  if (g_strcmp0 (selected_string (self->table), table) == 0)
    return TRUE;
  return select_string (self->table, table);
}

gboolean
sps_sql_builder_add_filter (SpsSqlBuilder *self,
                            const char    *column,
                            SpsSqlOp       op,
                            const char    *value)
{
  Line *line;

  g_return_val_if_fail (SPS_IS_SQL_BUILDER (self), FALSE);
  g_return_val_if_fail (column != NULL, FALSE);
  g_return_val_if_fail (op < SPS_SQL_N_OPS, FALSE);

  if (!g_strv_contains ((const char * const *) self->columns, column))
    return FALSE;
  line = add_line (self, self->filter_box, self->filters, op_labels (), TRUE, TRUE);
  select_string (line->column, column);
  gtk_drop_down_set_selected (line->op, op);
  gtk_editable_set_text (GTK_EDITABLE (line->value), value != NULL ? value : "");
  return TRUE;
}

gboolean
sps_sql_builder_set_group_by (SpsSqlBuilder *self,
                              const char    *column)
{
  g_return_val_if_fail (SPS_IS_SQL_BUILDER (self), FALSE);

  if (column == NULL)
    {
      gtk_drop_down_set_selected (self->group_by, 0);
      return TRUE;
    }
  if (!g_strv_contains ((const char * const *) self->columns, column))
    return FALSE;
  return select_string (self->group_by, column);
}

gboolean
sps_sql_builder_add_aggregate (SpsSqlBuilder   *self,
                               SpsSqlAggregate  function,
                               const char      *column)
{
  Line *line;

  g_return_val_if_fail (SPS_IS_SQL_BUILDER (self), FALSE);
  g_return_val_if_fail (function < SPS_SQL_N_AGGREGATES, FALSE);

  if (column != NULL && !g_str_equal (column, "*") &&
      !g_strv_contains ((const char * const *) self->columns, column))
    return FALSE;
  line = add_line (self, self->aggregate_box, self->aggregates, aggregate_labels (), FALSE, FALSE);
  gtk_drop_down_set_selected (line->op, function);
  select_string (line->column, column != NULL ? column : "*");
  return TRUE;
}

/* The SQL of the current choices, or NULL without a table. */
char *
sps_sql_builder_dup_sql (SpsSqlBuilder *self)
{
  g_autofree SpsSqlFilter *filters = NULL;
  g_autofree SpsSqlAggregateSpec *aggregates = NULL;
  const char *table;
  const char *group_by = NULL;

  g_return_val_if_fail (SPS_IS_SQL_BUILDER (self), NULL);

  if (!(table = selected_string (self->table)))
    return NULL;

  filters = g_new0 (SpsSqlFilter, MAX (self->filters->len, 1));
  for (guint i = 0; i < self->filters->len; i++)
    {
      Line *line = g_ptr_array_index (self->filters, i);

      filters[i].column = selected_string (line->column);
      filters[i].op = gtk_drop_down_get_selected (line->op);
      filters[i].value = gtk_editable_get_text (GTK_EDITABLE (line->value));
    }

  aggregates = g_new0 (SpsSqlAggregateSpec, MAX (self->aggregates->len, 1));
  for (guint i = 0; i < self->aggregates->len; i++)
    {
      Line *line = g_ptr_array_index (self->aggregates, i);

      aggregates[i].function = gtk_drop_down_get_selected (line->op);
      aggregates[i].column = selected_string (line->column);
    }

  if (gtk_drop_down_get_selected (self->group_by) > 0)
    group_by = selected_string (self->group_by);

  return sps_sql_build_query (table, filters, self->filters->len, group_by,
                              aggregates, self->aggregates->len);
}
