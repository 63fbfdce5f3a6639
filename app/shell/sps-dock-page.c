/* sps-dock-page.c: a page of a dock whose panel is made when first needed
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A panel costs its widgets (list rows, a source view, tooltips that ask
 * the display server where the pointer is) and often a pass over the
 * trace, and most panels sit behind tabs nobody opens before the trace is
 * on screen. A dock page stands in for its panel: it makes the panel when
 * it is first shown, or when the window fills it (after the timeline's
 * first complete frame), whichever comes first, and then holds it as its
 * only child.
 */

#define G_LOG_DOMAIN "sps-dock-page"

#include "config.h"

#include "sps-dock-page.h"

struct _SpsDockPage
{
  GtkWidget       parent_instance;

  SpsDockPageFunc func;
  gpointer        user_data;
  GDestroyNotify  destroy;

  GtkWidget      *panel;
  gboolean        filled;
};

G_DEFINE_FINAL_TYPE (SpsDockPage, sps_dock_page, GTK_TYPE_WIDGET)

static void
sps_dock_page_forget_func (SpsDockPage *self)
{
  GDestroyNotify destroy = g_steal_pointer (&self->destroy);
  gpointer user_data = g_steal_pointer (&self->user_data);

  self->func = NULL;
  if (destroy != NULL)
    destroy (user_data);
}

/* Made before the page maps its children, so that the panel is mapped
 * with it, in the same frame */
static void
sps_dock_page_map (GtkWidget *widget)
{
  sps_dock_page_fill (SPS_DOCK_PAGE (widget));

  GTK_WIDGET_CLASS (sps_dock_page_parent_class)->map (widget);
}

static void
sps_dock_page_dispose (GObject *object)
{
  SpsDockPage *self = SPS_DOCK_PAGE (object);

  sps_dock_page_forget_func (self);
  g_clear_pointer (&self->panel, gtk_widget_unparent);

  G_OBJECT_CLASS (sps_dock_page_parent_class)->dispose (object);
}

static void
sps_dock_page_class_init (SpsDockPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sps_dock_page_dispose;
  widget_class->map = sps_dock_page_map;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
sps_dock_page_init (SpsDockPage *self)
{
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
}

/**
 * sps_dock_page_new:
 * @func: (scope notified): makes the panel, once
 * @user_data: for @func
 * @destroy: (nullable): frees @user_data once the panel is made or the
 *   page is destroyed
 *
 * Returns: (transfer floating): a page whose panel @func makes
 */
GtkWidget *
sps_dock_page_new (SpsDockPageFunc func,
                   gpointer        user_data,
                   GDestroyNotify  destroy)
{
  SpsDockPage *self;

  g_return_val_if_fail (func != NULL, NULL);

  self = g_object_new (SPS_TYPE_DOCK_PAGE, NULL);
  self->func = func;
  self->user_data = user_data;
  self->destroy = destroy;

  return GTK_WIDGET (self);
}

/**
 * sps_dock_page_fill:
 * @self: a #SpsDockPage
 *
 * Makes the panel now, unless it was made before.
 *
 * Returns: (transfer none) (nullable): the panel; %NULL when the
 *   function made none
 */
GtkWidget *
sps_dock_page_fill (SpsDockPage *self)
{
  g_autoptr(SpsDockPage) hold = NULL;
  GtkWidget *panel;

  g_return_val_if_fail (SPS_IS_DOCK_PAGE (self), NULL);

  if (self->filled || self->func == NULL)
    return self->panel;

  /* The function must not take the page out of its dock (this may run in
   * the page's map); it may drop the last other reference to it */
  hold = g_object_ref (self);
  self->filled = TRUE;
  panel = self->func (self, self->user_data);
  sps_dock_page_forget_func (self);

  if (panel != NULL)
    {
      self->panel = panel;
      gtk_widget_set_parent (panel, GTK_WIDGET (self));
    }

  return self->panel;
}

/**
 * sps_dock_page_cancel:
 * @self: a #SpsDockPage
 *
 * Lets the page make no panel any more, for a page about to go.
 */
void
sps_dock_page_cancel (SpsDockPage *self)
{
  g_return_if_fail (SPS_IS_DOCK_PAGE (self));

  sps_dock_page_forget_func (self);
}

/**
 * sps_dock_page_get_filled:
 * @self: a #SpsDockPage
 *
 * Returns: whether the page's function ran
 */
gboolean
sps_dock_page_get_filled (SpsDockPage *self)
{
  g_return_val_if_fail (SPS_IS_DOCK_PAGE (self), FALSE);

  return self->filled;
}
