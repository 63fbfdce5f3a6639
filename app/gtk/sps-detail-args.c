/* sps-detail-args.c: an item's args as a tree, for the detail panel
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-detail-panel"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-detail-args-private.h"
#include "sps-detail-columns-private.h"
#include "sps-detail-item-private.h"

/* Argument trees with at most this many JSON nodes open fully expanded;
 * bigger ones open at their first level so a huge array costs nothing
 * until the user asks for it. */
#define ARGS_AUTOEXPAND_LIMIT 200

static GListModel *
create_arg_children (gpointer item,
                     gpointer user_data)
{
  JsonNode *node;
  GListStore *store;

  g_assert (SPS_IS_DETAIL_ITEM (item));

  node = _sps_detail_item_get_node (item);
  if (node == NULL)
    return NULL;

  store = g_list_store_new (SPS_TYPE_DETAIL_ITEM);

  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObjectIter iter;
      const char *key;
      JsonNode *member;

      json_object_iter_init_ordered (&iter, json_node_get_object (node));
      while (json_object_iter_next_ordered (&iter, &key, &member))
        {
          g_autoptr(SpsDetailItem) child = _sps_detail_item_new_arg (key, member);

          g_list_store_append (store, child);
        }
    }
  else
    {
      JsonArray *array = json_node_get_array (node);
      guint n = json_array_get_length (array);

      for (guint i = 0; i < n; i++)
        {
          g_autofree char *key = g_strdup_printf ("[%u]", i);
          g_autoptr(SpsDetailItem) child = _sps_detail_item_new_arg (key, json_array_get_element (array, i));

          g_list_store_append (store, child);
        }
    }

  if (g_list_model_get_n_items (G_LIST_MODEL (store)) == 0)
    {
      g_object_unref (store);
      return NULL;
    }

  return G_LIST_MODEL (store);
}

/* Whether @node has at most *budget nodes (objects, arrays and values),
 * spending the budget as it goes so that neither the work nor the
 * recursion depth exceed the limit, whatever the shape of the args. */
static gboolean
json_fits_budget (JsonNode *node,
                  guint    *budget)
{
  if (*budget == 0)
    return FALSE;
  (*budget)--;

  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObjectIter iter;
      JsonNode *member;

      json_object_iter_init (&iter, json_node_get_object (node));
      while (json_object_iter_next (&iter, NULL, &member))
        if (!json_fits_budget (member, budget))
          return FALSE;
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);
      guint len = json_array_get_length (array);

      for (guint i = 0; i < len; i++)
        if (!json_fits_budget (json_array_get_element (array, i), budget))
          return FALSE;
    }

  return TRUE;
}

/* Shows @model (or nothing) in @view. GTK 4.8's list views crash when
 * their model is set back to NULL, so "nothing" is an empty list. */
void
_sps_detail_set_model (GtkColumnView *view,
           GListModel    *model)
{
  g_autoptr(GListModel) empty = NULL;
  GtkSingleSelection *selection;

  if (model == NULL)
    model = empty = G_LIST_MODEL (g_list_store_new (SPS_TYPE_DETAIL_ITEM));

  selection = gtk_single_selection_new (g_object_ref (model));
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  gtk_single_selection_set_selected (selection, GTK_INVALID_LIST_POSITION);

  gtk_column_view_set_model (view, GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);
}

/* Parses @ref's args (deferred ones are decoded through @trace) and shows
 * them in @args */
void
_sps_detail_args_show (SpsDetailArgs *args,
                       SpsTrace      *trace,
                       SpsArgsRef     ref)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GListModel) top = NULL;
  g_autoptr(SpsDetailItem) holder = NULL;
  g_autoptr(GtkTreeListModel) tree = NULL;
  guint budget;

  _sps_detail_set_model (args->view, NULL);

  root = sps_trace_parse_args (trace, ref, &error);
  if (root == NULL)
    {
      if (error != NULL)
        {
          g_autofree char *message = g_strdup_printf (_("The arguments could not be read: %s"), error->message);

          gtk_label_set_text (args->message, message);
        }
      else
        gtk_label_set_text (args->message, _("No arguments"));

      gtk_stack_set_visible_child_name (args->stack, "empty");
      return;
    }

  /* The top level of an object or array is the list itself; anything
   * else is shown as a single "args" row. */
  holder = _sps_detail_item_new_arg ("args", root);
  if (JSON_NODE_HOLDS_OBJECT (root) || JSON_NODE_HOLDS_ARRAY (root))
    top = create_arg_children (holder, NULL);
  else
    {
      GListStore *store = g_list_store_new (SPS_TYPE_DETAIL_ITEM);

      g_list_store_append (store, holder);
      top = G_LIST_MODEL (store);
    }

  if (top == NULL)
    {
      gtk_label_set_text (args->message, _("No arguments"));
      gtk_stack_set_visible_child_name (args->stack, "empty");
      return;
    }

  budget = ARGS_AUTOEXPAND_LIMIT;
  tree = gtk_tree_list_model_new (g_steal_pointer (&top), FALSE,
                                  json_fits_budget (root, &budget),
                                  create_arg_children, NULL, NULL);
  _sps_detail_set_model (args->view, G_LIST_MODEL (tree));
  gtk_stack_set_visible_child_name (args->stack, "list");
}

/* The page, with @view_name as the name of its list and @message_name
 * of its message (tests look them up) */
GtkWidget *
_sps_detail_args_page_new (SpsDetailArgs *args,
                           const char    *view_name,
                           const char    *message_name)
{
  GtkWidget *message;
  GtkWidget *stack;

  args->view = _sps_detail_column_view_new (view_name);

  _sps_detail_column_view_append (args->view, SPS_DETAIL_COLUMN_TREE_NAME, _("Key"), FALSE, 220);
  _sps_detail_column_view_append (args->view, SPS_DETAIL_COLUMN_VALUE, _("Value"), TRUE, 200);

  message = _sps_detail_placeholder_label_new (NULL);
  gtk_widget_set_name (message, message_name);
  gtk_label_set_selectable (GTK_LABEL (message), TRUE);
  args->message = GTK_LABEL (message);

  stack = gtk_stack_new ();
  args->stack = GTK_STACK (stack);
  gtk_stack_add_named (args->stack, _sps_detail_scrolled (GTK_WIDGET (args->view)), "list");
  gtk_stack_add_named (args->stack, message, "empty");

  return stack;
}
