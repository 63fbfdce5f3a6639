/* sps-flamegraph-chart.c: an icicle chart of a flame tree
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The root ("all") is the top row and callees grow downwards. The zoomed
 * node and its ancestors span the whole width; the zoomed node's
 * descendants get widths proportional to their inclusive value. Boxes
 * narrower than half a pixel are culled with their subtrees (children are
 * never wider than their parent). The box list is rebuilt only when the
 * tree, the zoom or the width changes; drawing and hit tests use it.
 */

#define G_LOG_DOMAIN "sps-flamegraph"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "sps-flamegraph-chart.h"

/* Narrowest box that is drawn, and narrowest that gets a label */
#define MIN_BOX_WIDTH    0.5
#define MIN_LABEL_WIDTH  24.0
#define LABEL_PADDING    4.0

typedef struct
{
  guint32 node;
  guint32 row;
  double  x;
  double  width;
} Box;

struct _SpsFlamegraphChart
{
  GtkWidget     parent_instance;

  SpsSession   *session;
  SpsFlameTree *tree;
  guint         zoom;
  guint         selected;
  guint         hovered;
  guint         max_depth;

  GArray       *boxes;          /* Box, in pre-order */
  int           boxes_width;    /* the width the boxes were made for */
  PangoLayout  *layout;

  GdkRGBA       fg;
  gboolean      dark;
};

enum {
  NODE_CLICKED,
  N_SIGNALS
};

/* Read-only, for tests and accessibility of the state */
enum {
  PROP_0,
  PROP_ZOOM,
  PROP_SELECTED,
  N_PROPS
};

static guint signals[N_SIGNALS];
static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (SpsFlamegraphChart, sps_flamegraph_chart, GTK_TYPE_WIDGET)

static const SpsFlameNode *
node_of (SpsFlamegraphChart *self,
         guint               node)
{
  g_assert (self->tree != NULL);

  return sps_flame_tree_get_node (self->tree, node);
}

static void
rebuild_boxes (SpsFlamegraphChart *self,
               int                 width)
{
  g_autoptr(GArray) stack = NULL;
  g_autoptr(GArray) ancestors = NULL;
  const SpsFlameNode *zoom;
  double total;

  g_array_set_size (self->boxes, 0);
  self->boxes_width = width;

  if (self->tree == NULL || width <= 0)
    return;

  /* The zoomed node's ancestors, root first, full width */
  ancestors = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint32 n = node_of (self, self->zoom)->parent; n != SPS_NO_INDEX; n = node_of (self, n)->parent)
    g_array_prepend_val (ancestors, n);
  for (guint i = 0; i < ancestors->len; i++)
    {
      guint32 n = g_array_index (ancestors, guint32, i);
      Box box = { n, node_of (self, n)->depth, 0, width };

      g_array_append_val (self->boxes, box);
    }

  zoom = node_of (self, self->zoom);
  total = (double) MAX (zoom->inclusive, 1);

  /* Pre-order from the zoomed node; a stack entry is a Box to emit */
  stack = g_array_new (FALSE, FALSE, sizeof (Box));
  {
    Box first = { self->zoom, zoom->depth, 0, width };

    g_array_append_val (stack, first);
  }

  while (stack->len > 0)
    {
      Box box = g_array_index (stack, Box, stack->len - 1);
      const SpsFlameNode *n = node_of (self, box.node);
      double x;
      guint before;

      g_array_set_size (stack, stack->len - 1);
      g_array_append_val (self->boxes, box);

      /* Children left to right: push in reverse so the first pops first */
      x = box.x;
      before = stack->len;
      for (guint32 c = n->first_child; c != SPS_NO_INDEX; c = node_of (self, c)->next_sibling)
        {
          const SpsFlameNode *child = node_of (self, c);
          double w = width * (double) child->inclusive / total;
          Box next = { c, child->depth, x, w };

          x += w;
          if (w < MIN_BOX_WIDTH)
            continue;
          g_array_append_val (stack, next);
        }
      for (guint i = before, j = stack->len > 0 ? stack->len - 1 : 0; i < j; i++, j--)
        {
          Box tmp = g_array_index (stack, Box, i);

          g_array_index (stack, Box, i) = g_array_index (stack, Box, j);
          g_array_index (stack, Box, j) = tmp;
        }
    }
}

static void
ensure_boxes (SpsFlamegraphChart *self)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));

  if (width != self->boxes_width)
    rebuild_boxes (self, width);
}

static const char *
node_name (SpsFlamegraphChart *self,
           guint               node)
{
  if (node == 0)
    /* Translators: the root of a flame graph, which holds everything */
    return _("all");

  return sps_trace_get_string (sps_flame_tree_get_trace (self->tree), node_of (self, node)->name);
}

static gboolean
search_active (SpsFlamegraphChart *self)
{
  const char *text = self->session != NULL ? sps_session_get_search_text (self->session) : NULL;

  return text != NULL && text[0] != '\0';
}

static gboolean
node_matches (SpsFlamegraphChart *self,
              guint               node)
{
  const SpsFlameNode *n = node_of (self, node);

  if (node == 0)
    return FALSE;

  /* Category search: spans have a category (their longest instance's);
   * sampled frames are matched by name */
  if (sps_session_get_search_in_category (self->session) &&
      sps_flame_tree_get_kind (self->tree) != SPS_FLAME_TREE_SAMPLES &&
      n->instance != SPS_NO_INDEX)
    {
      SpsTrace *trace = sps_flame_tree_get_trace (self->tree);

      return sps_session_search_matches (self->session, sps_trace_get_slices (trace)->category[n->instance]);
    }

  return sps_session_search_matches (self->session, n->name);
}

static void
sps_flamegraph_chart_snapshot (GtkWidget   *widget,
                               GtkSnapshot *snapshot)
{
  SpsFlamegraphChart *self = SPS_FLAMEGRAPH_CHART (widget);
  gboolean searching;
  GdkRGBA root_fill = self->fg;
  /* The selection outline: the accent blue the timeline outlines with */
  GdkRGBA border = self->dark ? (GdkRGBA) { 0.47f, 0.68f, 0.93f, 1.f } : (GdkRGBA) { 0.21f, 0.52f, 0.89f, 1.f };
  GdkRGBA hover = self->dark ? (GdkRGBA) { 1.f, 1.f, 1.f, 0.18f } : (GdkRGBA) { 1.f, 1.f, 1.f, 0.35f };

  if (self->tree == NULL)
    return;

  ensure_boxes (self);
  searching = search_active (self);
  root_fill.alpha = 0.12f;

  for (guint i = 0; i < self->boxes->len; i++)
    {
      const Box *box = &g_array_index (self->boxes, Box, i);
      const char *name = node_name (self, box->node);
      graphene_rect_t rect;
      GdkRGBA fill;
      GdkRGBA text;
      gboolean dim = FALSE;

      graphene_rect_init (&rect, (float) box->x, (float) (box->row * SPS_FLAMEGRAPH_ROW_HEIGHT),
                          (float) MAX (box->width - 1.0, 0.5), SPS_FLAMEGRAPH_ROW_HEIGHT - 1);

      if (box->node == 0)
        {
          fill = root_fill;
          text = self->fg;
        }
      else
        {
          fill = *sps_palette_get_fill_for_name (name, self->dark);
          text = *sps_palette_get_text_for_name (name, self->dark);
        }

      /* Matches stay as they are, the rest is dimmed */
      if (searching && !node_matches (self, box->node))
        dim = TRUE;
      if (dim)
        {
          fill.alpha *= 0.25f;
          text.alpha *= 0.45f;
        }

      gtk_snapshot_append_color (snapshot, &fill, &rect);
      if (box->node == self->hovered)
        gtk_snapshot_append_color (snapshot, &hover, &rect);

      if (box->width >= MIN_LABEL_WIDTH)
        {
          int label_height;

          pango_layout_set_text (self->layout, name, -1);
          pango_layout_set_width (self->layout, (int) ((box->width - 2 * LABEL_PADDING) * PANGO_SCALE));
          pango_layout_get_pixel_size (self->layout, NULL, &label_height);

          gtk_snapshot_save (snapshot);
          gtk_snapshot_push_clip (snapshot, &rect);
          gtk_snapshot_translate (snapshot,
                                  &GRAPHENE_POINT_INIT ((float) (box->x + LABEL_PADDING),
                                                        (float) (box->row * SPS_FLAMEGRAPH_ROW_HEIGHT) +
                                                        (SPS_FLAMEGRAPH_ROW_HEIGHT - 1 - label_height) / 2.f));
          gtk_snapshot_append_layout (snapshot, self->layout, &text);
          gtk_snapshot_pop (snapshot);
          gtk_snapshot_restore (snapshot);
        }

      if (box->node == self->selected)
        {
          GskRoundedRect outline;
          const float widths[4] = { 2, 2, 2, 2 };
          const GdkRGBA colors[4] = { border, border, border, border };

          gsk_rounded_rect_init_from_rect (&outline, &rect, 0);
          gtk_snapshot_append_border (snapshot, &outline, widths, colors);
        }
    }
}

static void
sps_flamegraph_chart_measure (GtkWidget      *widget,
                              GtkOrientation  orientation,
                              int             for_size,
                              int            *minimum,
                              int            *natural,
                              int            *minimum_baseline,
                              int            *natural_baseline)
{
  SpsFlamegraphChart *self = SPS_FLAMEGRAPH_CHART (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 100;
      *natural = 400;
    }
  else
    {
      *minimum = *natural = (int) (self->max_depth + 1) * SPS_FLAMEGRAPH_ROW_HEIGHT;
    }
}

static void
sps_flamegraph_chart_size_allocate (GtkWidget *widget,
                                    int        width,
                                    int        height,
                                    int        baseline)
{
  SpsFlamegraphChart *self = SPS_FLAMEGRAPH_CHART (widget);

  if (width != self->boxes_width)
    rebuild_boxes (self, width);
}

static void
sps_flamegraph_chart_css_changed (GtkWidget         *widget,
                                  GtkCssStyleChange *change)
{
  SpsFlamegraphChart *self = SPS_FLAMEGRAPH_CHART (widget);

  GTK_WIDGET_CLASS (sps_flamegraph_chart_parent_class)->css_changed (widget, change);

  /* gtk_widget_get_color() is GTK 4.10 */
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &self->fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  self->dark = (0.2126f * self->fg.red + 0.7152f * self->fg.green + 0.0722f * self->fg.blue) > 0.5f;

  g_clear_object (&self->layout);
  self->layout = gtk_widget_create_pango_layout (widget, NULL);
  pango_layout_set_ellipsize (self->layout, PANGO_ELLIPSIZE_END);
  pango_layout_set_single_paragraph_mode (self->layout, TRUE);

  gtk_widget_queue_draw (widget);
}

/* The tooltip follows the hovered frame; it is made only when that
 * changes, not on every motion. */
static void
set_hovered (SpsFlamegraphChart *self,
             guint               node)
{
  g_autofree char *tooltip = NULL;

  if (self->hovered == node)
    return;
  self->hovered = node;
  if (node != SPS_NO_INDEX && self->tree != NULL)
    tooltip = sps_flamegraph_chart_dup_tooltip (self, node);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self), tooltip);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_motion (GtkEventControllerMotion *motion,
           double                    x,
           double                    y,
           SpsFlamegraphChart       *self)
{
  set_hovered (self, sps_flamegraph_chart_node_at (self, x, y));
}

static void
on_leave (GtkEventControllerMotion *motion,
          SpsFlamegraphChart       *self)
{
  set_hovered (self, SPS_NO_INDEX);
}

static void
on_released (GtkGestureClick    *click,
             int                 n_press,
             double              x,
             double              y,
             SpsFlamegraphChart *self)
{
  guint node = sps_flamegraph_chart_node_at (self, x, y);

  if (node != SPS_NO_INDEX)
    g_signal_emit (self, signals[NODE_CLICKED], 0, node);
}

static void
sps_flamegraph_chart_dispose (GObject *object)
{
  SpsFlamegraphChart *self = SPS_FLAMEGRAPH_CHART (object);

  g_clear_object (&self->session);
  g_clear_pointer (&self->tree, sps_flame_tree_unref);
  g_clear_object (&self->layout);

  G_OBJECT_CLASS (sps_flamegraph_chart_parent_class)->dispose (object);
}

static void
sps_flamegraph_chart_finalize (GObject *object)
{
  SpsFlamegraphChart *self = SPS_FLAMEGRAPH_CHART (object);

  g_clear_pointer (&self->boxes, g_array_unref);

  G_OBJECT_CLASS (sps_flamegraph_chart_parent_class)->finalize (object);
}

static void
sps_flamegraph_chart_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  SpsFlamegraphChart *self = SPS_FLAMEGRAPH_CHART (object);

  switch (prop_id)
    {
    case PROP_ZOOM:
      g_value_set_uint (value, self->zoom);
      break;

    case PROP_SELECTED:
      g_value_set_uint (value, self->selected);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sps_flamegraph_chart_class_init (SpsFlamegraphChartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sps_flamegraph_chart_dispose;
  object_class->finalize = sps_flamegraph_chart_finalize;
  object_class->get_property = sps_flamegraph_chart_get_property;

  /* The node spanning the width, 0 for the root */
  properties[PROP_ZOOM] =
    g_param_spec_uint ("zoom", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* The outlined node, SPS_NO_INDEX for none */
  properties[PROP_SELECTED] =
    g_param_spec_uint ("selected", NULL, NULL, 0, G_MAXUINT, G_MAXUINT32,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  widget_class->snapshot = sps_flamegraph_chart_snapshot;
  widget_class->measure = sps_flamegraph_chart_measure;
  widget_class->size_allocate = sps_flamegraph_chart_size_allocate;
  widget_class->css_changed = sps_flamegraph_chart_css_changed;

  /**
   * SpsFlamegraphChart::node-clicked:
   * @self: the chart
   * @node: the node under the pointer
   *
   * A frame was clicked.
   */
  signals[NODE_CLICKED] =
    g_signal_new ("node-clicked",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 1, G_TYPE_UINT);

  gtk_widget_class_set_css_name (widget_class, "flamegraph");
}

static void
sps_flamegraph_chart_init (SpsFlamegraphChart *self)
{
  GtkEventController *motion = gtk_event_controller_motion_new ();
  GtkGesture *click = gtk_gesture_click_new ();

  self->boxes = g_array_new (FALSE, FALSE, sizeof (Box));
  self->boxes_width = -1;
  self->selected = SPS_NO_INDEX;
  self->hovered = SPS_NO_INDEX;
  self->fg = (GdkRGBA) { 0, 0, 0, 1 };

  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_PRIMARY);
  g_signal_connect (click, "released", G_CALLBACK (on_released), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
}

GtkWidget *
sps_flamegraph_chart_new (SpsSession *session)
{
  SpsFlamegraphChart *self;

  g_return_val_if_fail (SPS_IS_SESSION (session), NULL);

  self = g_object_new (SPS_TYPE_FLAMEGRAPH_CHART, NULL);
  self->session = g_object_ref (session);

  return GTK_WIDGET (self);
}

void
sps_flamegraph_chart_set_tree (SpsFlamegraphChart *self,
                               SpsFlameTree       *tree)
{
  guint n_nodes = 0;
  const SpsFlameNode *nodes;

  g_return_if_fail (SPS_IS_FLAMEGRAPH_CHART (self));

  if (tree != NULL)
    sps_flame_tree_ref (tree);
  g_clear_pointer (&self->tree, sps_flame_tree_unref);
  self->tree = tree;
  self->zoom = 0;
  self->selected = SPS_NO_INDEX;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED]);
  self->hovered = SPS_NO_INDEX;
  self->max_depth = 0;

  if (tree != NULL)
    {
      nodes = sps_flame_tree_get_nodes (tree, &n_nodes);
      for (guint i = 0; i < n_nodes; i++)
        self->max_depth = MAX (self->max_depth, nodes[i].depth);
    }

  rebuild_boxes (self, gtk_widget_get_width (GTK_WIDGET (self)));
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

SpsFlameTree *
sps_flamegraph_chart_get_tree (SpsFlamegraphChart *self)
{
  g_return_val_if_fail (SPS_IS_FLAMEGRAPH_CHART (self), NULL);

  return self->tree;
}

void
sps_flamegraph_chart_set_zoom (SpsFlamegraphChart *self,
                               guint               node)
{
  g_return_if_fail (SPS_IS_FLAMEGRAPH_CHART (self));
  g_return_if_fail (self->tree != NULL);
  g_return_if_fail (node != SPS_NO_INDEX);

  if (self->zoom == node)
    return;
  self->zoom = node;
  rebuild_boxes (self, gtk_widget_get_width (GTK_WIDGET (self)));
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
}

guint
sps_flamegraph_chart_get_zoom (SpsFlamegraphChart *self)
{
  g_return_val_if_fail (SPS_IS_FLAMEGRAPH_CHART (self), 0);

  return self->zoom;
}

void
sps_flamegraph_chart_set_selected (SpsFlamegraphChart *self,
                                   guint               node)
{
  g_return_if_fail (SPS_IS_FLAMEGRAPH_CHART (self));

  if (self->selected == node)
    return;
  self->selected = node;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED]);
}

guint
sps_flamegraph_chart_get_selected (SpsFlamegraphChart *self)
{
  g_return_val_if_fail (SPS_IS_FLAMEGRAPH_CHART (self), SPS_NO_INDEX);

  return self->selected;
}

/* The node drawn at (@x, @y), or SPS_NO_INDEX. */
guint
sps_flamegraph_chart_node_at (SpsFlamegraphChart *self,
                              double              x,
                              double              y)
{
  guint row;

  g_return_val_if_fail (SPS_IS_FLAMEGRAPH_CHART (self), SPS_NO_INDEX);

  if (self->tree == NULL || y < 0 || x < 0)
    return SPS_NO_INDEX;

  ensure_boxes (self);
  row = (guint) (y / SPS_FLAMEGRAPH_ROW_HEIGHT);

  for (guint i = 0; i < self->boxes->len; i++)
    {
      const Box *box = &g_array_index (self->boxes, Box, i);

      if (box->row == row && x >= box->x && x < box->x + box->width)
        return box->node;
    }

  return SPS_NO_INDEX;
}

/* Where @node is drawn; FALSE when it is not (culled or outside the
 * zoomed subtree). */
gboolean
sps_flamegraph_chart_get_node_bounds (SpsFlamegraphChart *self,
                                      guint               node,
                                      graphene_rect_t    *bounds)
{
  g_return_val_if_fail (SPS_IS_FLAMEGRAPH_CHART (self), FALSE);
  g_return_val_if_fail (bounds != NULL, FALSE);

  ensure_boxes (self);

  for (guint i = 0; i < self->boxes->len; i++)
    {
      const Box *box = &g_array_index (self->boxes, Box, i);

      if (box->node == node)
        {
          graphene_rect_init (bounds, (float) box->x, (float) (box->row * SPS_FLAMEGRAPH_ROW_HEIGHT),
                              (float) box->width, SPS_FLAMEGRAPH_ROW_HEIGHT);
          return TRUE;
        }
    }

  return FALSE;
}

static double
percent_of (gint64 part,
            gint64 total)
{
  return total > 0 ? 100.0 * (double) part / (double) total : 0.0;
}

/* The tooltip of @node: its name, then inclusive and exclusive values,
 * estimates labelled as estimates. */
char *
sps_flamegraph_chart_dup_tooltip (SpsFlamegraphChart *self,
                                  guint               node)
{
  const SpsFlameNode *n;
  const SpsFlameNode *root;
  GString *text;

  g_return_val_if_fail (SPS_IS_FLAMEGRAPH_CHART (self), NULL);
  g_return_val_if_fail (self->tree != NULL, NULL);

  n = node_of (self, node);
  root = node_of (self, 0);
  text = g_string_new (node_name (self, node));

  switch (sps_flame_tree_get_kind (self->tree))
    {
    case SPS_FLAME_TREE_SAMPLES:
      g_string_append_c (text, '\n');
      g_string_append_printf (text,
                              /* Translators: sample counts, then a percentage of all samples */
                              _("Samples: %" PRId64 " inclusive (%.1f%%), %" PRId64 " exclusive"),
                              n->inclusive, percent_of (n->inclusive, root->inclusive), n->exclusive);
      if (n->n_estimated_inclusive > 0)
        {
          g_autofree char *incl = sps_time_format ((SpsTime) (n->cpu_inclusive + 0.5));
          g_autofree char *excl = sps_time_format ((SpsTime) (n->cpu_exclusive + 0.5));

          g_string_append_c (text, '\n');
          /* Translators: two durations estimated from the samples' weights */
          g_string_append_printf (text, _("Estimated CPU time: %s inclusive, %s exclusive"), incl, excl);
          if (n->n_estimated_inclusive < (guint64) n->inclusive)
            {
              g_string_append_c (text, '\n');
              g_string_append_printf (text,
                                      /* Translators: how many of the samples carry a time weight */
                                      _("Time-weight coverage: %" PRIu64 " of %" PRId64 " samples (%.0f%%)"),
                                      n->n_estimated_inclusive, n->inclusive,
                                      percent_of ((gint64) n->n_estimated_inclusive, n->inclusive));
            }
        }
      else if (n->inclusive > 0)
        {
          g_string_append_c (text, '\n');
          g_string_append (text, _("No CPU time estimate: the samples carry no time weight"));
        }
      break;

    case SPS_FLAME_TREE_SAMPLED:
    case SPS_FLAME_TREE_MEASURED:
    default:
      {
        gboolean estimate = sps_flame_tree_get_values_are_estimates (self->tree);
        g_autofree char *incl = sps_time_format (n->inclusive);
        g_autofree char *excl = sps_time_format (n->exclusive);

        g_string_append_c (text, '\n');
        if (estimate)
          /* Translators: a duration estimated from sampled spans, then a percentage */
          g_string_append_printf (text, _("Estimated CPU time, inclusive: %s (%.1f%%)"),
                                  incl, percent_of (n->inclusive, root->inclusive));
        else
          /* Translators: a measured duration, then a percentage of the whole graph */
          g_string_append_printf (text, _("Inclusive: %s (%.1f%%)"),
                                  incl, percent_of (n->inclusive, root->inclusive));
        g_string_append_c (text, '\n');
        if (estimate)
          g_string_append_printf (text, _("Estimated CPU time, exclusive: %s"), excl);
        else
          g_string_append_printf (text, _("Exclusive (self): %s"), excl);
        if (node != 0)
          {
            g_string_append_c (text, '\n');
            /* Translators: how many spans were merged into this frame */
            g_string_append_printf (text, _("Instances: %" PRIu64), n->n_instances);
          }
        if (estimate)
          {
            g_string_append_c (text, '\n');
            g_string_append (text, _("Sampled spans: the original sample counts are unknown"));
          }
      }
      break;
    }

  if (node != 0)
    {
      const SpsFlameFunction *f = sps_flame_tree_lookup_function (self->tree, n->name);

      if (f != NULL && f->n_observations > 0)
        {
          g_string_append_c (text, '\n');
          if (sps_flame_tree_get_kind (self->tree) == SPS_FLAME_TREE_SAMPLES)
            g_string_append_printf (text,
                                    g_dngettext (GETTEXT_PACKAGE,
                                                 /* Translators: over the whole graph; recursion counted once */
                                                 "This function in all stacks: %" PRIu64 " sample",
                                                 "This function in all stacks: %" PRIu64 " samples",
                                                 (gulong) f->n_observations),
                                    f->n_observations);
          else
            {
              g_autofree char *total = sps_time_format (f->inclusive);

              g_string_append_printf (text,
                                      g_dngettext (GETTEXT_PACKAGE,
                                                   /* Translators: over the whole graph; recursion counted once */
                                                   "This function in all stacks: %s in %" PRIu64 " outermost call",
                                                   "This function in all stacks: %s in %" PRIu64 " outermost calls",
                                                   (gulong) f->n_observations),
                                      total, f->n_observations);
            }
        }
    }

  return g_string_free (text, FALSE);
}
