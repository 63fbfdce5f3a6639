/* sps-result-table-selection.c: which row a result table shows where, and
 * selecting one from code
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-result-table"

#include "config.h"

#include "sps-result-table-private.h"

/**
 * sps_result_table_get_row_at:
 * @self: a table
 * @position: a position in the view, from the top, in the current sort
 *
 * Returns: the index in append order of the row shown at @position, or
 *   %G_MAXUINT past the end
 */
guint
sps_result_table_get_row_at (SpsResultTable *self,
                             guint           position)
{
  g_return_val_if_fail (SPS_IS_RESULT_TABLE (self), G_MAXUINT);

  _sps_result_table_flush_pending (self);
  return _sps_result_table_row_at (self, position);
}

/* The list view inside the column view: it has the scrolling action. */
static GtkWidget *
find_list_view (GtkWidget *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      return child;
  return NULL;
}

/**
 * sps_result_table_select_row:
 * @self: a table
 * @row: a row's index in append order, or %G_MAXUINT for none
 *
 * Selects @row wherever the current sort shows it and scrolls it into
 * view, as the current item of something the user moves through (the
 * instance browser's current instance). Unlike the user picking a row,
 * this does not emit #SpsResultTable::row-activated. A row past the end
 * selects nothing.
 */
void
sps_result_table_select_row (SpsResultTable *self,
                             guint           row)
{
  guint n;
  guint position = GTK_INVALID_LIST_POSITION;

  g_return_if_fail (SPS_IS_RESULT_TABLE (self));

  _sps_result_table_flush_pending (self);
  n = g_list_model_get_n_items (G_LIST_MODEL (self->sorted));
  for (guint i = 0; row != G_MAXUINT && i < n; i++)
    if (_sps_result_table_row_at (self, i) == row)
      {
        position = i;
        break;
      }

  /* What the selection reports next is ours, not the user's pick. */
  self->last_emitted = position == GTK_INVALID_LIST_POSITION ? G_MAXUINT : row;
  gtk_single_selection_set_selected (self->selection, position);

  if (position != GTK_INVALID_LIST_POSITION)
    {
      GtkWidget *list = find_list_view (GTK_WIDGET (self->view));

      if (list != NULL)
        gtk_widget_activate_action (list, "list.scroll-to-item", "u", position);
    }
}

/**
 * sps_result_table_get_selected_row:
 * @self: a table
 *
 * Returns: the selected row's index in append order, or %G_MAXUINT when
 *   none is selected
 */
guint
sps_result_table_get_selected_row (SpsResultTable *self)
{
  g_return_val_if_fail (SPS_IS_RESULT_TABLE (self), G_MAXUINT);

  return _sps_result_table_row_at (self, gtk_single_selection_get_selected (self->selection));
}
