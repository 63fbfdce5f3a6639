/* sps-sql-schema.c: the SQL panel's schema inspector, tables ▸ columns
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-sql-schema"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-sql-schema.h"

struct _SpsSqlSchema
{
  GtkWidget     parent_instance;

  GtkListView  *list;
  /* Table names in the engine's order (trace tables first); per table
   * the column names, and "table\x1fcolumn" → declared type. */
  GtkStringList *tables;
  GHashTable   *columns;
  GHashTable   *types;
};

enum {
  ACTIVATE_NAME,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SpsSqlSchema, sps_sql_schema, GTK_TYPE_WIDGET)

static GListModel *
create_children (gpointer item,
                 gpointer user_data)
{
  SpsSqlSchema *self = user_data;
  GtkStringList *columns;

  g_assert (SPS_IS_SQL_SCHEMA (self));

  if (!GTK_IS_STRING_OBJECT (item) ||
      !(columns = g_hash_table_lookup (self->columns, gtk_string_object_get_string (item))))
    return NULL;
  return g_object_ref (G_LIST_MODEL (columns));
}

static void
setup_row (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  user_data)
{
  GtkWidget *expander = gtk_tree_expander_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *name = gtk_label_new (NULL);
  GtkWidget *type = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (name), 0.0);
  gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (name, TRUE);
  gtk_label_set_xalign (GTK_LABEL (type), 1.0);
  gtk_widget_add_css_class (type, "dim-label");
  gtk_widget_add_css_class (type, "caption");
  gtk_box_append (GTK_BOX (box), name);
  gtk_box_append (GTK_BOX (box), type);
  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), box);
  gtk_list_item_set_child (item, expander);
}

static void
bind_row (GtkSignalListItemFactory *factory,
          GtkListItem              *item,
          gpointer                  user_data)
{
  SpsSqlSchema *self = user_data;
  GtkTreeListRow *row = gtk_list_item_get_item (item);
  GtkWidget *expander = gtk_list_item_get_child (item);
  GtkWidget *box = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (expander));
  GtkWidget *name = gtk_widget_get_first_child (box);
  GtkWidget *type = gtk_widget_get_next_sibling (name);
  g_autoptr(GObject) object = gtk_tree_list_row_get_item (row);
  const char *text = gtk_string_object_get_string (GTK_STRING_OBJECT (object));

  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (expander), row);
  gtk_label_set_text (GTK_LABEL (name), text);

  if (gtk_tree_list_row_get_depth (row) == 0)
    {
      gtk_widget_add_css_class (name, "heading");
      gtk_label_set_text (GTK_LABEL (type), "");
    }
  else
    {
      g_autoptr(GtkTreeListRow) parent = gtk_tree_list_row_get_parent (row);
      g_autoptr(GObject) table = gtk_tree_list_row_get_item (parent);

      gtk_widget_remove_css_class (name, "heading");
      gtk_label_set_text (GTK_LABEL (type),
                          sps_sql_schema_get_column_type (self,
                                                          gtk_string_object_get_string (GTK_STRING_OBJECT (table)),
                                                          text));
    }
}

static void
on_activate (SpsSqlSchema *self,
             guint         position,
             GtkListView  *list)
{
  g_autoptr(GtkTreeListRow) row = NULL;
  g_autoptr(GObject) object = NULL;

  g_assert (SPS_IS_SQL_SCHEMA (self));

  row = g_list_model_get_item (G_LIST_MODEL (gtk_list_view_get_model (list)), position);
  if (row == NULL)
    return;
  object = gtk_tree_list_row_get_item (row);
  g_signal_emit (self, signals[ACTIVATE_NAME], 0,
                 gtk_string_object_get_string (GTK_STRING_OBJECT (object)));
}

static void
sps_sql_schema_dispose (GObject *object)
{
  SpsSqlSchema *self = SPS_SQL_SCHEMA (object);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->tables);
  g_clear_pointer (&self->columns, g_hash_table_unref);
  g_clear_pointer (&self->types, g_hash_table_unref);

  G_OBJECT_CLASS (sps_sql_schema_parent_class)->dispose (object);
}

static void
sps_sql_schema_class_init (SpsSqlSchemaClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sps_sql_schema_dispose;

  /* A table or column was activated; the panel inserts its name. */
  signals[ACTIVATE_NAME] =
    g_signal_new ("activate-name",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "sqlschema");
}

static void
sps_sql_schema_init (SpsSqlSchema *self)
{
  GtkTreeListModel *tree;
  GtkSingleSelection *selection;
  GtkListItemFactory *factory;
  GtkWidget *scrolled;

  self->tables = gtk_string_list_new (NULL);
  self->columns = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->types = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  tree = gtk_tree_list_model_new (g_object_ref (G_LIST_MODEL (self->tables)),
                                  FALSE, FALSE, create_children, self, NULL);
  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_row), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row), self);

  selection = gtk_single_selection_new (G_LIST_MODEL (tree));
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  gtk_single_selection_set_selected (selection, GTK_INVALID_LIST_POSITION);
  self->list = GTK_LIST_VIEW (gtk_list_view_new (GTK_SELECTION_MODEL (selection), factory));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->list),
                               _("Double-click a table or column to insert its name"));
  g_signal_connect_object (self->list, "activate", G_CALLBACK (on_activate), self, G_CONNECT_SWAPPED);

  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (self->list));
  gtk_widget_set_parent (scrolled, GTK_WIDGET (self));
}

GtkWidget *
sps_sql_schema_new (void)
{
  return g_object_new (SPS_TYPE_SQL_SCHEMA, NULL);
}

/* @description is the result of sps_sql_engine_describe(): one row per
 * column with table_name, position, column_name and column_type. */
void
sps_sql_schema_set_description (SpsSqlSchema *self,
                                SpsSqlResult *description)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  int table_column = -1;
  int name_column = -1;
  int type_column = -1;
  guint n_columns;

  g_return_if_fail (SPS_IS_SQL_SCHEMA (self));
  g_return_if_fail (SPS_IS_SQL_RESULT (description));

  n_columns = sps_sql_result_get_n_columns (description);
  for (guint c = 0; c < n_columns; c++)
    {
      const char *name = sps_sql_result_get_column_name (description, c);

      if (g_str_equal (name, "table_name"))
        table_column = c;
      else if (g_str_equal (name, "column_name"))
        name_column = c;
      else if (g_str_equal (name, "column_type"))
        type_column = c;
    }
  g_return_if_fail (table_column >= 0 && name_column >= 0 && type_column >= 0);

  g_hash_table_remove_all (self->columns);
  g_hash_table_remove_all (self->types);

  for (guint r = 0; r < sps_sql_result_get_n_rows (description); r++)
    {
      const char *table = sps_sql_result_get_text (description, r, table_column);
      const char *column = sps_sql_result_get_text (description, r, name_column);
      const char *type = sps_sql_result_get_text (description, r, type_column);
      GtkStringList *columns;

      if (table == NULL || column == NULL)
        continue;
      if (!(columns = g_hash_table_lookup (self->columns, table)))
        {
          columns = gtk_string_list_new (NULL);
          g_hash_table_insert (self->columns, g_strdup (table), columns);
          g_ptr_array_add (names, (gpointer) table);
        }
      gtk_string_list_append (columns, column);
      g_hash_table_insert (self->types,
                           g_strdup_printf ("%s\x1f%s", table, column),
                           g_strdup (type != NULL ? type : ""));
    }
  g_ptr_array_add (names, NULL);

  gtk_string_list_splice (self->tables, 0, g_list_model_get_n_items (G_LIST_MODEL (self->tables)),
                          (const char * const *) names->pdata);
}

guint
sps_sql_schema_get_n_tables (SpsSqlSchema *self)
{
  g_return_val_if_fail (SPS_IS_SQL_SCHEMA (self), 0);

  return g_list_model_get_n_items (G_LIST_MODEL (self->tables));
}

const char *
sps_sql_schema_get_table (SpsSqlSchema *self,
                          guint         table)
{
  g_return_val_if_fail (SPS_IS_SQL_SCHEMA (self), NULL);

  return gtk_string_list_get_string (self->tables, table);
}

GStrv
sps_sql_schema_dup_columns (SpsSqlSchema *self,
                            const char   *table)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  GtkStringList *columns;

  g_return_val_if_fail (SPS_IS_SQL_SCHEMA (self), NULL);
  g_return_val_if_fail (table != NULL, NULL);

  if ((columns = g_hash_table_lookup (self->columns, table)))
    for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (columns)); i++)
      g_strv_builder_add (builder, gtk_string_list_get_string (columns, i));
  return g_strv_builder_end (builder);
}

const char *
sps_sql_schema_get_column_type (SpsSqlSchema *self,
                                const char   *table,
                                const char   *column)
{
  g_autofree char *key = NULL;
  const char *type;

  g_return_val_if_fail (SPS_IS_SQL_SCHEMA (self), NULL);
  g_return_val_if_fail (table != NULL && column != NULL, NULL);

  key = g_strdup_printf ("%s\x1f%s", table, column);
  type = g_hash_table_lookup (self->types, key);
  return type != NULL ? type : "";
}
