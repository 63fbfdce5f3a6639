/* sps-detail-columns.c: the columns of the detail panel's lists
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The call stack, the children statistics and the arguments are column
 * views of SpsDetailItem rows; each column kind has its cell factory
 * here: a name (with an expander in trees), an argument's value, a time
 * or a count, and the total with its heat bar.
 */

#define G_LOG_DOMAIN "sps-detail-panel"

#include "config.h"

#include "sps-detail-columns-private.h"
#include "sps-detail-item-private.h"
#include "sps-label-tooltip-private.h"
#include <spanscope-core.h>

static SpsDetailItem *
dup_list_item_item (GtkListItem *list_item)
{
  gpointer item = gtk_list_item_get_item (list_item);

  if (item == NULL)
    return NULL;
  if (GTK_IS_TREE_LIST_ROW (item))
    return gtk_tree_list_row_get_item (item);

  return g_object_ref (item);
}

static GtkWidget *
cell_label_new (float xalign)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), xalign);
  gtk_label_set_single_line_mode (GTK_LABEL (label), TRUE);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  _sps_label_show_cut_text (label);

  return label;
}

static void
setup_tree_name (GtkSignalListItemFactory *factory,
                 GtkListItem              *list_item,
                 gpointer                  user_data)
{
  GtkWidget *expander = gtk_tree_expander_new ();

  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), cell_label_new (0.0f));
  gtk_list_item_set_child (list_item, expander);
}

static void
bind_tree_name (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item,
                gpointer                  user_data)
{
  GtkTreeExpander *expander = GTK_TREE_EXPANDER (gtk_list_item_get_child (list_item));
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);
  g_autoptr(SpsDetailItem) item = gtk_tree_list_row_get_item (row);
  GtkWidget *label = gtk_tree_expander_get_child (expander);

  gtk_tree_expander_set_list_row (expander, row);
  gtk_label_set_text (GTK_LABEL (label), _sps_detail_item_get_name (item));
}

static void
unbind_tree_name (GtkSignalListItemFactory *factory,
                  GtkListItem              *list_item,
                  gpointer                  user_data)
{
  GtkTreeExpander *expander = GTK_TREE_EXPANDER (gtk_list_item_get_child (list_item));

  gtk_tree_expander_set_list_row (expander, NULL);
}

static void
setup_text (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            gpointer                  user_data)
{
  gtk_list_item_set_child (list_item, cell_label_new (0.0f));
}

static void
bind_name (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           gpointer                  user_data)
{
  g_autoptr(SpsDetailItem) item = dup_list_item_item (list_item);
  GtkWidget *label = gtk_list_item_get_child (list_item);

  gtk_label_set_text (GTK_LABEL (label), _sps_detail_item_get_name (item));
}

static void
bind_value (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            gpointer                  user_data)
{
  g_autoptr(SpsDetailItem) item = dup_list_item_item (list_item);
  GtkWidget *label = gtk_list_item_get_child (list_item);
  const char *value = _sps_detail_item_get_value (item);

  gtk_label_set_text (GTK_LABEL (label), value);

  /* Object and array summaries are not values: show them dimmed. */
  if (_sps_detail_item_get_node (item) != NULL)
    gtk_widget_add_css_class (label, "dim-label");
  else
    gtk_widget_remove_css_class (label, "dim-label");
}

static void
setup_number (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              gpointer                  user_data)
{
  GtkWidget *label = cell_label_new (1.0f);

  gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (list_item, label);
}

static char *
format_field (SpsDetailItem   *item,
              SpsDetailColumn  field)
{
  switch (field)
    {
    case SPS_DETAIL_COLUMN_WALL:
      return sps_time_format (_sps_detail_item_get_wall (item));
    case SPS_DETAIL_COLUMN_SELF:
      return sps_time_format (_sps_detail_item_get_self (item));
    case SPS_DETAIL_COLUMN_CHILD:
      return sps_time_format (_sps_detail_item_get_wall (item) - _sps_detail_item_get_self (item));
    case SPS_DETAIL_COLUMN_COUNT:
      return g_strdup_printf ("%u", _sps_detail_item_get_count (item));
    case SPS_DETAIL_COLUMN_AVERAGE:
      return sps_time_format (_sps_detail_item_get_average (item));
    case SPS_DETAIL_COLUMN_MIN:
      return sps_time_format (_sps_detail_item_get_min (item));
    case SPS_DETAIL_COLUMN_MAX:
      return sps_time_format (_sps_detail_item_get_max (item));
    default:
      g_assert_not_reached ();
    }
}

static void
bind_number (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             gpointer                  user_data)
{
  g_autoptr(SpsDetailItem) item = dup_list_item_item (list_item);
  g_autofree char *text = format_field (item, GPOINTER_TO_INT (user_data));

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (list_item)), text);
}

/* The heat bar: a track the width of the cell, filled by the group's
 * share of the largest total, coloured from yellow (small) to red. */
static void
draw_heat_bar (GtkDrawingArea *area,
               cairo_t        *cr,
               int             width,
               int             height,
               gpointer        user_data)
{
  SpsDetailItem *item = user_data;
  double fraction = _sps_detail_item_get_fraction (item);
  double bar_height = MIN (height, 8);
  double y = (height - bar_height) / 2;
  float r, g, b;

  gtk_hsv_to_rgb ((float) ((1.0 - fraction) * 50.0 / 360.0), 0.85f, 0.95f, &r, &g, &b);

  cairo_set_source_rgba (cr, 0.5, 0.5, 0.5, 0.18);
  cairo_rectangle (cr, 0, y, width, bar_height);
  cairo_fill (cr);

  cairo_set_source_rgb (cr, r, g, b);
  cairo_rectangle (cr, 0, y, MAX (1.0, fraction * width), bar_height);
  cairo_fill (cr);
}

static void
setup_total (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             gpointer                  user_data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *bar = gtk_drawing_area_new ();
  GtkWidget *label = cell_label_new (1.0f);

  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (bar), 72);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (bar), 12);
  gtk_widget_set_valign (bar, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (label, "numeric");
  gtk_widget_set_hexpand (label, TRUE);

  gtk_box_append (GTK_BOX (box), bar);
  gtk_box_append (GTK_BOX (box), label);
  gtk_list_item_set_child (list_item, box);
}

static void
bind_total (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            gpointer                  user_data)
{
  SpsDetailItem *item = dup_list_item_item (list_item);
  GtkWidget *box = gtk_list_item_get_child (list_item);
  GtkWidget *bar = gtk_widget_get_first_child (box);
  GtkWidget *label = gtk_widget_get_next_sibling (bar);
  g_autofree char *text = sps_time_format (_sps_detail_item_get_total (item));

  gtk_label_set_text (GTK_LABEL (label), text);
  /* The bar keeps the item until it is unbound or rebound. */
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (bar), draw_heat_bar, item, g_object_unref);
}

static void
unbind_total (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              gpointer                  user_data)
{
  GtkWidget *box = gtk_list_item_get_child (list_item);

  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (gtk_widget_get_first_child (box)), NULL, NULL, NULL);
}

static void
append_column (GtkColumnView *view,
               const char    *title,
               gboolean       expand,
               int            fixed_width,
               GCallback      setup,
               GCallback      bind,
               GCallback      unbind,
               gpointer       user_data)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *column;

  g_signal_connect (factory, "setup", setup, user_data);
  g_signal_connect (factory, "bind", bind, user_data);
  if (unbind != NULL)
    g_signal_connect (factory, "unbind", unbind, user_data);

  column = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_expand (column, expand);
  gtk_column_view_column_set_resizable (column, TRUE);
  gtk_column_view_column_set_fixed_width (column, fixed_width);
  gtk_column_view_append_column (view, column);
  g_object_unref (column);
}

GtkColumnView *
_sps_detail_column_view_new (const char *name)
{
  GtkWidget *view = gtk_column_view_new (NULL);

  gtk_widget_set_name (view, name);
  gtk_column_view_set_show_column_separators (GTK_COLUMN_VIEW (view), FALSE);
  gtk_column_view_set_reorderable (GTK_COLUMN_VIEW (view), FALSE);
  gtk_widget_add_css_class (view, "data-table");

  return GTK_COLUMN_VIEW (view);
}

GtkWidget *
_sps_detail_scrolled (GtkWidget *child)
{
  GtkWidget *scroller = gtk_scrolled_window_new ();

  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), child);
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_widget_set_hexpand (scroller, TRUE);

  return scroller;
}

GtkWidget *
_sps_detail_placeholder_label_new (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_widget_add_css_class (label, "dim-label");
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_justify (GTK_LABEL (label), GTK_JUSTIFY_CENTER);
  gtk_widget_set_margin_start (label, 12);
  gtk_widget_set_margin_end (label, 12);

  return label;
}

/* Appends a column of @kind: its cells made and filled by the factory
 * callbacks above */
void
_sps_detail_column_view_append (GtkColumnView   *view,
                                SpsDetailColumn  kind,
                                const char      *title,
                                gboolean         expand,
                                int              fixed_width)
{
  switch (kind)
    {
    case SPS_DETAIL_COLUMN_TREE_NAME:
      append_column (view, title, expand, fixed_width, G_CALLBACK (setup_tree_name),
                     G_CALLBACK (bind_tree_name), G_CALLBACK (unbind_tree_name), NULL);
      break;
    case SPS_DETAIL_COLUMN_NAME:
      append_column (view, title, expand, fixed_width, G_CALLBACK (setup_text), G_CALLBACK (bind_name),
                     NULL, NULL);
      break;
    case SPS_DETAIL_COLUMN_VALUE:
      append_column (view, title, expand, fixed_width, G_CALLBACK (setup_text), G_CALLBACK (bind_value),
                     NULL, NULL);
      break;
    case SPS_DETAIL_COLUMN_TOTAL:
      append_column (view, title, expand, fixed_width, G_CALLBACK (setup_total), G_CALLBACK (bind_total),
                     G_CALLBACK (unbind_total), NULL);
      break;
    default:
      append_column (view, title, expand, fixed_width, G_CALLBACK (setup_number), G_CALLBACK (bind_number),
                     NULL, GINT_TO_POINTER (kind));
      break;
    }
}

/* A key label and a value label (named @name, for the tests) on @row of
 * @grid, as the detail panel's summaries show fields; the value */
GtkLabel *
_sps_detail_field_new (GtkGrid    *grid,
                       int         row,
                       const char *key,
                       const char *name,
                       GtkWidget **key_out)
{
  GtkWidget *key_label = gtk_label_new (key);
  GtkWidget *value = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (key_label), 0.0f);
  gtk_widget_set_valign (key_label, GTK_ALIGN_START);
  gtk_widget_add_css_class (key_label, "dim-label");

  gtk_widget_set_name (value, name);
  gtk_label_set_xalign (GTK_LABEL (value), 0.0f);
  gtk_label_set_selectable (GTK_LABEL (value), TRUE);
  gtk_label_set_wrap (GTK_LABEL (value), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (value), PANGO_WRAP_WORD_CHAR);
  gtk_widget_set_hexpand (value, TRUE);
  gtk_widget_add_css_class (value, "numeric");

  gtk_grid_attach (grid, key_label, 0, row, 1, 1);
  gtk_grid_attach (grid, value, 1, row, 1, 1);

  if (key_out != NULL)
    *key_out = key_label;

  return GTK_LABEL (value);
}
