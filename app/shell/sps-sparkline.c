/* sps-sparkline.c: a small line chart of the last values of a series
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The diagnostics panel's frames per second and memory: the newest value
 * at the right edge, scaled from 0 to the largest value shown, in the
 * theme's accent colour over a faint area.
 */

#define G_LOG_DOMAIN "sps-sparkline"

#include "config.h"

#include "sps-sparkline.h"

struct _SpsSparkline
{
  GtkWidget  parent_instance;

  GArray    *values;    /* double, oldest first */
  guint      capacity;
};

G_DEFINE_FINAL_TYPE (SpsSparkline, sps_sparkline, GTK_TYPE_WIDGET)

static void
sps_sparkline_snapshot (GtkWidget   *widget,
                        GtkSnapshot *snapshot)
{
  SpsSparkline *self = SPS_SPARKLINE (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  double max = 0;
  double step;
  GdkRGBA color;
  cairo_t *cr;

  if (self->values->len < 2 || width <= 0 || height <= 2)
    return;

  for (guint i = 0; i < self->values->len; i++)
    max = MAX (max, g_array_index (self->values, double, i));
  if (max <= 0)
    max = 1;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &color);
  G_GNUC_END_IGNORE_DEPRECATIONS

  /* The newest value at the right edge; a series not yet full starts
   * further right */
  step = (double) width / MAX (self->capacity - 1, 1);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  cairo_set_line_width (cr, 1.5);
  for (guint i = 0; i < self->values->len; i++)
    {
      double x = width - (self->values->len - 1 - i) * step;
      double y = 1 + (height - 2) * (1 - g_array_index (self->values, double, i) / max);

      if (i == 0)
        cairo_move_to (cr, x, y);
      else
        cairo_line_to (cr, x, y);
    }
  cairo_set_source_rgba (cr, color.red, color.green, color.blue, color.alpha);
  cairo_stroke_preserve (cr);
  cairo_line_to (cr, width, height);
  cairo_line_to (cr, width - (self->values->len - 1) * step, height);
  cairo_close_path (cr);
  cairo_set_source_rgba (cr, color.red, color.green, color.blue, color.alpha * 0.15);
  cairo_fill (cr);
  cairo_destroy (cr);
}

static void
sps_sparkline_measure (GtkWidget      *widget,
                       GtkOrientation  orientation,
                       int             for_size,
                       int            *minimum,
                       int            *natural,
                       int            *minimum_baseline,
                       int            *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 60 : 24;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 240 : 32;
}

static void
sps_sparkline_finalize (GObject *object)
{
  SpsSparkline *self = SPS_SPARKLINE (object);

  g_clear_pointer (&self->values, g_array_unref);

  G_OBJECT_CLASS (sps_sparkline_parent_class)->finalize (object);
}

static void
sps_sparkline_class_init (SpsSparklineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = sps_sparkline_finalize;
  widget_class->snapshot = sps_sparkline_snapshot;
  widget_class->measure = sps_sparkline_measure;
  gtk_widget_class_set_css_name (widget_class, "sparkline");
}

static void
sps_sparkline_init (SpsSparkline *self)
{
  self->values = g_array_new (FALSE, FALSE, sizeof (double));
}

/**
 * sps_sparkline_new:
 * @capacity: how many values it shows (the oldest go)
 *
 * Returns: (transfer floating): a new sparkline
 */
GtkWidget *
sps_sparkline_new (guint capacity)
{
  SpsSparkline *self = g_object_new (SPS_TYPE_SPARKLINE, NULL);

  self->capacity = MAX (capacity, 2);

  return GTK_WIDGET (self);
}

/**
 * sps_sparkline_push:
 * @self: a #SpsSparkline
 * @value: the newest value
 */
void
sps_sparkline_push (SpsSparkline *self,
                    double        value)
{
  g_return_if_fail (SPS_IS_SPARKLINE (self));

  if (self->values->len == self->capacity)
    g_array_remove_index (self->values, 0);
  g_array_append_val (self->values, value);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
sps_sparkline_get_n_values (SpsSparkline *self)
{
  g_return_val_if_fail (SPS_IS_SPARKLINE (self), 0);

  return self->values->len;
}

double
sps_sparkline_get_value (SpsSparkline *self,
                         guint         index)
{
  g_return_val_if_fail (SPS_IS_SPARKLINE (self), 0);
  g_return_val_if_fail (index < self->values->len, 0);

  return g_array_index (self->values, double, index);
}
