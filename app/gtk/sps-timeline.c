/* sps-timeline.c: the GSK-drawn timeline of a trace
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-timeline"

#include "config.h"

#include <math.h>
#include <string.h>

#include "sps-timeline-private.h"

#define DEFAULT_GUTTER_WIDTH 200
#define MIN_GUTTER_WIDTH     80
#define MAX_GUTTER_WIDTH     800
/* The widest the gutter grows by itself to fit its labels */
#define MAX_AUTO_GUTTER_WIDTH 360
#define DEFAULT_TRACK_HEIGHT 20
#define MIN_TRACK_HEIGHT     8
#define MAX_TRACK_HEIGHT     128

/* Tiles only from this zoom out: the window then snaps to the pixel grid
 * with an error under 1/128 px, invisible next to what is drawn without
 * tiles (selection, flows). Nearer in, a window holds few slices anyway. */
#define MIN_TILED_NS_PER_PX  64.0

/**
 * SpsTimeline:
 *
 * The timeline of one #SpsSession: a time ruler, a label gutter on the
 * left (resizable with its splitter) and one row per lane of every
 * process, thread, async lane and counter, drawn with GSK render nodes.
 *
 * Drawing costs time in proportion to the pixels on screen: each lane
 * asks the level-of-detail summaries (sps-timeline-lod.c) for what
 * intersects the window at about the screen's resolution, merges what is
 * narrower than a pixel, and keeps the node it built for as long as the
 * window, width and style stay the same, so hovering, selecting and
 * vertical scrolling only draw the overlays again.
 *
 * The widget implements #GtkScrollable: vertically in pixels, and
 * horizontally as the visible window, in ns since the trace start.
 */

enum {
  PROP_0,
  PROP_SESSION,
  PROP_GUTTER_WIDTH,
  PROP_GUTTER_AUTO,
  PROP_TRACK_HEIGHT,
  PROP_PREPARING,
  PROP_PREPARE_AHEAD,
  N_PROPS,

  PROP_HADJUSTMENT = N_PROPS,
  PROP_VADJUSTMENT,
  PROP_HSCROLL_POLICY,
  PROP_VSCROLL_POLICY,
};

static void scrollable_iface_init (GtkScrollableInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SpsTimeline, sps_timeline, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE, scrollable_iface_init))

static GParamSpec *properties[N_PROPS];

/* Geometry */

/* The scrolled rows' offset: content y below the pinned rows */
static int
get_scroll (SpsTimeline *self,
            int          page)
{
  int content = self->layout != NULL
    ? _sps_timeline_layout_get_height (self->layout) - _sps_timeline_layout_get_pinned_height (self->layout)
    : 0;
  int value = self->vadjustment != NULL ? (int) gtk_adjustment_get_value (self->vadjustment) : 0;

  return CLAMP (value, 0, MAX (content - page, 0));
}

/* The pinned band: at most SPS_TIMELINE_PIN_FRACTION of the rows' height
 * (at least a lane), scrolling inside itself beyond that */
static void
get_band (SpsTimeline         *self,
          SpsTimelineGeometry *g)
{
  int rows = MAX (g->height - g->ruler_height, 0);
  int view;

  g->pinned_height = self->layout != NULL ? _sps_timeline_layout_get_pinned_height (self->layout) : 0;
  g->band = 0;
  g->pinned_scroll = 0;
  if (g->pinned_height > 0)
    {
      view = MIN (g->pinned_height, MAX ((int) (rows * SPS_TIMELINE_PIN_FRACTION), self->lane_height));
      g->band = view + SPS_TIMELINE_PIN_SEPARATOR;
      g->pinned_scroll = CLAMP (self->pinned_scroll, 0, g->pinned_height - view);
    }
}

void
_sps_timeline_get_geometry (SpsTimeline         *self,
                            int                  width,
                            int                  height,
                            SpsTimelineGeometry *g)
{
  _sps_timeline_ensure_metrics (self);

  g->width = width;
  g->height = height;
  g->ruler_height = self->ruler_height;
  g->gutter = CLAMP (self->gutter_width, 0, MAX (width - 40, 0));
  g->track_width = MAX (width - g->gutter, 1);
  get_band (self, g);
  g->scroll = g->pinned_height + get_scroll (self, MAX (height - _sps_timeline_tracks_top (g), 0));
  g->scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));

  if (self->session != NULL)
    {
      g->start = sps_session_get_visible_start (self->session);
      g->end = sps_session_get_visible_end (self->session);
    }
  else
    {
      g->start = 0;
      g->end = 1;
    }
  if (g->end <= g->start)
    g->end = _sps_time_add (g->start, 1);
  if (g->end <= g->start)
    g->start = g->end - 1;
  g->ns_per_px = (double) _sps_time_span (g->start, g->end) / g->track_width;

  g->origin = self->trace != NULL ? sps_trace_get_start_time (self->trace) : 0;
  g->tiled = g->ns_per_px >= MIN_TILED_NS_PER_PX;
  g->origin_px = 0;
  if (g->tiled)
    {
      guint64 span = _sps_time_span (g->start, g->end);

      /* Onto the pixel grid, less than half a pixel away */
      g->origin_px = llround (_sps_time_distance (g->start, g->origin) / g->ns_per_px);
      g->start = _sps_time_offset (g->origin, (double) g->origin_px * g->ns_per_px);
      g->end = _sps_time_add_span (g->start, span);
    }
}

/* The stack charts of the samples the session's "raw-stacks" picks,
 * computed once per switch, not per frame */
static void
stacks_changed (SpsTimeline *self)
{
  const SpsSampleTable *samples = sps_trace_get_samples (self->trace);
  const SpsSampleTable *raw = sps_trace_get_raw_samples (self->trace);

  if (sps_session_get_raw_stacks (self->session) && raw->n_rows > 0)
    samples = raw;

  if (self->stacks != NULL && _sps_timeline_stacks_get_samples (self->stacks) == samples)
    return;

  g_clear_pointer (&self->stacks, _sps_timeline_stacks_free);
  self->stacks = _sps_timeline_stacks_new (self->trace, samples);
  _sps_timeline_invalidate_row_cache (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* What painters read, for hit tests and tooltips */
SpsTimelineSource
_sps_timeline_get_source (SpsTimeline *self)
{
  SpsTimelineSource source = { self->trace, self->session, self->lod, self->stacks };

  return source;
}

static void
sps_timeline_snapshot (GtkWidget   *widget,
                       GtkSnapshot *snapshot)
{
  SpsTimeline *self = SPS_TIMELINE (widget);

  if (G_UNLIKELY (self->collect_stats))
    _sps_timeline_snapshot_counted (self, snapshot, gtk_widget_get_width (widget), gtk_widget_get_height (widget));
  else
    _sps_timeline_draw (self, snapshot, gtk_widget_get_width (widget), gtk_widget_get_height (widget));
}

/* Size and scrolling */

static void
sps_timeline_measure (GtkWidget      *widget,
                      GtkOrientation  orientation,
                      int             for_size,
                      int            *minimum,
                      int            *natural,
                      int            *minimum_baseline,
                      int            *natural_baseline)
{
  SpsTimeline *self = SPS_TIMELINE (widget);

  _sps_timeline_ensure_metrics (self);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = MIN (self->gutter_width, MIN_GUTTER_WIDTH) + 100;
      *natural = MAX (*minimum, self->gutter_width + 600);
    }
  else
    {
      int content = self->layout != NULL ? _sps_timeline_layout_get_height (self->layout) : 0;

      *minimum = self->ruler_height + self->lane_height * 2;
      /* The pinned band adds its separator */
      if (self->layout != NULL && _sps_timeline_layout_get_pinned_height (self->layout) > 0)
        content += SPS_TIMELINE_PIN_SEPARATOR;
      *natural = MAX (*minimum, self->ruler_height + content);
    }
}

static void
configure_adjustments (SpsTimeline *self,
                       int          width,
                       int          height)
{
  SpsTimelineGeometry g;

  if (width <= 0 || height <= 0)
    return;

  _sps_timeline_get_geometry (self, width, height, &g);
  self->configuring = TRUE;

  if (self->vadjustment != NULL)
    {
      int page = MAX (height - _sps_timeline_tracks_top (&g), 1);
      int content = self->layout != NULL ? _sps_timeline_layout_get_height (self->layout) - g.pinned_height : 0;
      double value = gtk_adjustment_get_value (self->vadjustment);

      gtk_adjustment_configure (self->vadjustment,
                                CLAMP (value, 0, MAX (content - page, 0)),
                                0, MAX (content, page),
                                self->lane_height, page * 0.9, page);
    }

  /* Horizontally, the adjustment is the visible window in ns since the
   * trace start (doubles are exact to 2^53 ns, about 104 days). */
  if (self->hadjustment != NULL && self->trace != NULL)
    {
      SpsTime origin = sps_trace_get_start_time (self->trace);
      double lower = MIN (0.0, _sps_time_distance (g.start, origin));
      double upper = MAX (_sps_time_distance (sps_trace_get_end_time (self->trace), origin), _sps_time_distance (g.end, origin));
      double page = _sps_time_distance (g.end, g.start);

      gtk_adjustment_configure (self->hadjustment, _sps_time_distance (g.start, origin), lower, upper,
                                page / 10, page * 0.9, page);
    }

  self->configuring = FALSE;
}

static void
sps_timeline_size_allocate (GtkWidget *widget,
                            int        width,
                            int        height,
                            int        baseline)
{
  SpsTimeline *self = SPS_TIMELINE (widget);

  /* The labels are measured once per trace and font, not per collapse or
   * filter: the gutter does not jump while the user works. */
  if (self->gutter_auto && !self->gutter_fitted && self->layout != NULL)
    {
      _sps_timeline_ensure_metrics (self);
      self->gutter_fitted = TRUE;
      self->fitting_gutter = TRUE;
      sps_timeline_set_gutter_width (self, _sps_timeline_fit_gutter (self, MAX_AUTO_GUTTER_WIDTH));
      self->fitting_gutter = FALSE;
    }
  configure_adjustments (self, width, height);
  if (self->ruler_menu != NULL)
    gtk_popover_present (GTK_POPOVER (self->ruler_menu));
  if (self->label_menu != NULL)
    gtk_popover_present (GTK_POPOVER (self->label_menu));
}

static void
vadjustment_value_changed (SpsTimeline   *self,
                           GtkAdjustment *adjustment)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
hadjustment_value_changed (SpsTimeline   *self,
                           GtkAdjustment *adjustment)
{
  SpsTime origin;
  SpsTime start;
  guint64 span;

  if (self->configuring || self->session == NULL || self->trace == NULL)
    return;

  origin = sps_trace_get_start_time (self->trace);
  span = _sps_time_span (sps_session_get_visible_start (self->session), sps_session_get_visible_end (self->session));
  start = _sps_time_offset (origin, gtk_adjustment_get_value (adjustment));
  /* At the largest time the window starts earlier rather than collapse */
  start = MIN (start, _sps_time_sub_span (G_MAXINT64, span));
  sps_session_set_visible (self->session, start, _sps_time_add_span (start, span));
}

static void
set_adjustment (SpsTimeline    *self,
                GtkAdjustment **slot,
                GtkAdjustment  *adjustment,
                GCallback       callback)
{
  if (adjustment != NULL && *slot == adjustment)
    return;

  if (*slot != NULL)
    {
      g_signal_handlers_disconnect_by_func (*slot, callback, self);
      g_clear_object (slot);
    }

  if (adjustment == NULL)
    adjustment = gtk_adjustment_new (0, 0, 0, 0, 0, 0);

  *slot = g_object_ref_sink (adjustment);
  g_signal_connect_swapped (adjustment, "value-changed", callback, self);

  configure_adjustments (self, gtk_widget_get_width (GTK_WIDGET (self)),
                         gtk_widget_get_height (GTK_WIDGET (self)));
}

static gboolean
sps_timeline_get_border (GtkScrollable *scrollable,
                         GtkBorder     *border)
{
  SpsTimeline *self = SPS_TIMELINE (scrollable);

  _sps_timeline_ensure_metrics (self);
  border->top = self->ruler_height;

  return TRUE;
}

static void
scrollable_iface_init (GtkScrollableInterface *iface)
{
  iface->get_border = sps_timeline_get_border;
}

/* Session */

static void
session_changed (SpsTimeline *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
visible_changed (SpsTimeline *self)
{
  configure_adjustments (self, gtk_widget_get_width (GTK_WIDGET (self)),
                         gtk_widget_get_height (GTK_WIDGET (self)));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
selection_changed (SpsTimeline *self)
{
  _sps_timeline_update_selected_flows (self);
  if (!self->selecting_from_click)
    _sps_timeline_reveal_slice (self, sps_session_get_selected_slice (self->session));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
sync_collapsed (SpsTimeline *self)
{
  guint n = sps_trace_get_processes (self->trace)->n_rows;

  for (guint p = 0; p < n; p++)
    _sps_timeline_layout_set_process_collapsed (self->layout, p,
                                                sps_session_get_process_collapsed (self->session, p));
  _sps_timeline_layout_sync_filters (self->layout, self->session);
}

static void
filters_changed (SpsTimeline *self)
{
  _sps_timeline_invalidate_row_cache (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
layout_changed (SpsTimeline *self)
{
  sync_collapsed (self);
  _sps_timeline_resize_row_cache (self);
  g_hash_table_remove_all (self->gutter_labels);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  configure_adjustments (self, gtk_widget_get_width (GTK_WIDGET (self)),
                         gtk_widget_get_height (GTK_WIDGET (self)));
}

static void
set_session (SpsTimeline *self,
             SpsSession  *session)
{
  g_assert (SPS_IS_TIMELINE (self));
  g_assert (session == NULL || SPS_IS_SESSION (session));

  if (session == NULL)
    return;

  self->session = g_object_ref (session);
  self->trace = g_object_ref (sps_session_get_trace (session));
  self->layout = _sps_timeline_layout_new (self->trace, sps_session_get_view_filter (session));
  /* Built on demand, unless constructed() hands them to a preparation;
   * the stack charts there too, once it has started */
  self->lod = _sps_timeline_lod_new (self->trace);
  self->n_names = sps_string_pool_get_size (sps_trace_get_strings (self->trace));
  self->name_color = g_malloc (MAX (self->n_names, 1));
  memset (self->name_color, 0xff, MAX (self->n_names, 1));

  sync_collapsed (self);
  _sps_timeline_resize_row_cache (self);

  g_signal_connect_object (session, "notify::visible-start", G_CALLBACK (visible_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::visible-end", G_CALLBACK (visible_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "selection-changed", G_CALLBACK (selection_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::hovered-slice", G_CALLBACK (session_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::has-range", G_CALLBACK (session_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::range-start", G_CALLBACK (session_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::range-end", G_CALLBACK (session_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::show-flows", G_CALLBACK (session_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (sps_session_get_flags (session), "items-changed", G_CALLBACK (_sps_timeline_flags_changed),
                           self, G_CONNECT_SWAPPED);
  _sps_timeline_flags_changed (self, 0, 0, g_list_model_get_n_items (sps_session_get_flags (session)),
                               sps_session_get_flags (session));
  g_signal_connect_object (session, "notify::raw-stacks", G_CALLBACK (stacks_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "layout-changed", G_CALLBACK (layout_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "filters-changed", G_CALLBACK (filters_changed), self, G_CONNECT_SWAPPED);
  /* Search hits are outlined in the rows' cached nodes */
  g_signal_connect_object (session, "notify::search-text", G_CALLBACK (filters_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::search-in-category", G_CALLBACK (filters_changed), self, G_CONNECT_SWAPPED);

  _sps_timeline_update_selected_flows (self);
}

/* The summaries prepared ahead (sps-timeline-prepare.c) are ready: the
 * painters get them, with the flows' index built beside them */
void
_sps_timeline_take_prepared (SpsTimeline          *self,
                             SpsTimelineLod       *lod,
                             SpsTimelineFlowIndex *flow_index)
{
  g_assert (SPS_IS_TIMELINE (self));
  g_assert (self->lod == NULL);

  self->lod = lod;
  if (self->flow_index.by_min == NULL)
    {
      self->flow_index = *flow_index;
      memset (flow_index, 0, sizeof *flow_index);
    }
  g_clear_object (&self->lod_cancellable);
  _sps_timeline_invalidate_row_cache (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PREPARING]);
}

/* GObject */

static void
sps_timeline_constructed (GObject *object)
{
  SpsTimeline *self = SPS_TIMELINE (object);

  G_OBJECT_CLASS (sps_timeline_parent_class)->constructed (object);

  /* Every construct property is set now: "prepare-ahead" too. The
   * preparation first, so that its workers start while the stack
   * charts are computed here */
  if (self->session != NULL && self->prepare_ahead)
    _sps_timeline_maybe_prepare (self);
  if (self->session != NULL)
    stacks_changed (self);
}

static void
sps_timeline_css_changed (GtkWidget         *widget,
                          GtkCssStyleChange *change)
{
  SpsTimeline *self = SPS_TIMELINE (widget);

  GTK_WIDGET_CLASS (sps_timeline_parent_class)->css_changed (widget, change);

  _sps_timeline_invalidate_metrics (self);
  self->gutter_fitted = FALSE;
  gtk_widget_queue_resize (widget);
}

static void
sps_timeline_root (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (sps_timeline_parent_class)->root (widget);

  /* Another display or settings: new fonts. */
  _sps_timeline_invalidate_metrics (SPS_TIMELINE (widget));
}

static void
sps_timeline_dispose (GObject *object)
{
  SpsTimeline *self = (SpsTimeline *)object;

  if (self->hadjustment != NULL)
    g_signal_handlers_disconnect_by_func (self->hadjustment, hadjustment_value_changed, self);
  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_func (self->vadjustment, vadjustment_value_changed, self);
  g_clear_object (&self->hadjustment);
  g_clear_object (&self->vadjustment);

  g_clear_pointer (&self->ruler_menu, gtk_widget_unparent);
  g_clear_pointer (&self->label_menu, gtk_widget_unparent);
  _sps_timeline_invalidate_row_cache (self);
  if (self->labels != NULL)
    _sps_timeline_invalidate_labels (self);
  g_clear_object (&self->text_layout);
  if (self->lod_cancellable != NULL)
    g_cancellable_cancel (self->lod_cancellable);
  g_clear_object (&self->lod_cancellable);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  _sps_timeline_clear_marks (self);

  G_OBJECT_CLASS (sps_timeline_parent_class)->dispose (object);
}

static void
sps_timeline_finalize (GObject *object)
{
  SpsTimeline *self = (SpsTimeline *)object;

  g_clear_pointer (&self->layout, _sps_timeline_layout_free);
  g_clear_pointer (&self->lod, _sps_timeline_lod_free);
  g_clear_pointer (&self->stacks, _sps_timeline_stacks_free);
  g_clear_object (&self->trace);
  g_free (self->row_cache);
  g_clear_pointer (&self->labels, g_hash_table_unref);
  g_clear_pointer (&self->gutter_labels, g_hash_table_unref);
  g_clear_pointer (&self->ruler_cache, _sps_time_ruler_cache_free);
  g_clear_pointer (&self->corner_text, g_free);
  g_clear_pointer (&self->corner_node, gsk_render_node_unref);
  g_free (self->name_color);
  _sps_timeline_flow_index_clear (&self->flow_index);
  g_clear_pointer (&self->selected_flows, g_array_unref);
  _sps_timeline_invalidate_flow_cache (self);
  g_clear_pointer (&self->row_nodes, g_ptr_array_unref);
  g_clear_pointer (&self->overlay_nodes, g_ptr_array_unref);

  G_OBJECT_CLASS (sps_timeline_parent_class)->finalize (object);
}

static void
sps_timeline_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  SpsTimeline *self = SPS_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_GUTTER_WIDTH:
      g_value_set_int (value, self->gutter_width);
      break;
    case PROP_GUTTER_AUTO:
      g_value_set_boolean (value, self->gutter_auto);
      break;
    case PROP_TRACK_HEIGHT:
      g_value_set_int (value, self->track_height);
      break;
    case PROP_PREPARING:
      g_value_set_boolean (value, sps_timeline_get_preparing (self));
      break;
    case PROP_PREPARE_AHEAD:
      g_value_set_boolean (value, self->prepare_ahead);
      break;
    case PROP_HADJUSTMENT:
      g_value_set_object (value, self->hadjustment);
      break;
    case PROP_VADJUSTMENT:
      g_value_set_object (value, self->vadjustment);
      break;
    case PROP_HSCROLL_POLICY:
      g_value_set_enum (value, self->hscroll_policy);
      break;
    case PROP_VSCROLL_POLICY:
      g_value_set_enum (value, self->vscroll_policy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sps_timeline_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  SpsTimeline *self = SPS_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      set_session (self, g_value_get_object (value));
      break;
    case PROP_PREPARE_AHEAD:
      self->prepare_ahead = g_value_get_boolean (value);
      break;
    case PROP_GUTTER_WIDTH:
      sps_timeline_set_gutter_width (self, g_value_get_int (value));
      break;
    case PROP_GUTTER_AUTO:
      sps_timeline_set_gutter_auto (self, g_value_get_boolean (value));
      break;
    case PROP_TRACK_HEIGHT:
      sps_timeline_set_track_height (self, g_value_get_int (value));
      break;
    case PROP_HADJUSTMENT:
      set_adjustment (self, &self->hadjustment, g_value_get_object (value),
                      G_CALLBACK (hadjustment_value_changed));
      break;
    case PROP_VADJUSTMENT:
      set_adjustment (self, &self->vadjustment, g_value_get_object (value),
                      G_CALLBACK (vadjustment_value_changed));
      break;
    case PROP_HSCROLL_POLICY:
      if (self->hscroll_policy != (guint) g_value_get_enum (value))
        {
          self->hscroll_policy = g_value_get_enum (value);
          gtk_widget_queue_resize (GTK_WIDGET (self));
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_VSCROLL_POLICY:
      if (self->vscroll_policy != (guint) g_value_get_enum (value))
        {
          self->vscroll_policy = g_value_get_enum (value);
          gtk_widget_queue_resize (GTK_WIDGET (self));
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sps_timeline_class_init (SpsTimelineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = sps_timeline_constructed;
  object_class->dispose = sps_timeline_dispose;
  object_class->finalize = sps_timeline_finalize;
  object_class->get_property = sps_timeline_get_property;
  object_class->set_property = sps_timeline_set_property;

  widget_class->snapshot = sps_timeline_snapshot;
  widget_class->measure = sps_timeline_measure;
  widget_class->size_allocate = sps_timeline_size_allocate;
  widget_class->css_changed = sps_timeline_css_changed;
  widget_class->root = sps_timeline_root;
  widget_class->query_tooltip = _sps_timeline_query_tooltip;

  /**
   * SpsTimeline:session:
   *
   * The session drawn and driven by the timeline.
   */
  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL,
                         SPS_TYPE_SESSION,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /**
   * SpsTimeline:gutter-width:
   *
   * Width of the label gutter, in px.
   */
  properties[PROP_GUTTER_WIDTH] =
    g_param_spec_int ("gutter-width", NULL, NULL,
                      MIN_GUTTER_WIDTH, MAX_GUTTER_WIDTH, DEFAULT_GUTTER_WIDTH,
                      (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * SpsTimeline:gutter-auto:
   *
   * Whether the gutter takes the width of its longest label (up to a
   * limit) when the trace or the font changes. Dragging the splitter
   * turns it off; double-clicking the splitter turns it on again.
   */
  properties[PROP_GUTTER_AUTO] =
    g_param_spec_boolean ("gutter-auto", NULL, NULL,
                          TRUE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * SpsTimeline:track-height:
   *
   * Height of one lane, in px; lanes grow when the font needs more.
   */
  properties[PROP_TRACK_HEIGHT] =
    g_param_spec_int ("track-height", NULL, NULL,
                      MIN_TRACK_HEIGHT, MAX_TRACK_HEIGHT, DEFAULT_TRACK_HEIGHT,
                      (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * SpsTimeline:preparing:
   *
   * Whether the timeline is still preparing to draw its trace: a large
   * trace gets the summaries that zoomed-out frames are drawn from built
   * on worker threads first, and until then the track area shows a line
   * saying so instead of rows.
   */
  properties[PROP_PREPARING] =
    g_param_spec_boolean ("preparing", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * SpsTimeline:prepare-ahead:
   *
   * Whether a large trace's summaries are built on worker threads before
   * the timeline draws (see #SpsTimeline:preparing). A view that puts a
   * new timeline in place of the last one at every update of a growing
   * trace turns it off, so that it never shows the placeholder instead
   * of rows; its timelines then build what each frame needs when it is
   * drawn, as a small trace's do.
   */
  properties[PROP_PREPARE_AHEAD] =
    g_param_spec_boolean ("prepare-ahead", NULL, NULL,
                          TRUE,
                          (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_object_class_override_property (object_class, PROP_HADJUSTMENT, "hadjustment");
  g_object_class_override_property (object_class, PROP_VADJUSTMENT, "vadjustment");
  g_object_class_override_property (object_class, PROP_HSCROLL_POLICY, "hscroll-policy");
  g_object_class_override_property (object_class, PROP_VSCROLL_POLICY, "vscroll-policy");

  _sps_timeline_actions_class_init (widget_class);
  _sps_timeline_ruler_menu_class_init (widget_class);

  gtk_widget_class_set_css_name (widget_class, "timeline");
}

static void
sps_timeline_init (SpsTimeline *self)
{
  GtkWidget *widget = GTK_WIDGET (self);

  self->gutter_width = DEFAULT_GUTTER_WIDTH;
  self->gutter_auto = TRUE;
  self->track_height = DEFAULT_TRACK_HEIGHT;
  self->prepare_ahead = TRUE;
  self->labels = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, _sps_timeline_label_free);
  self->gutter_labels = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, _sps_timeline_label_free);
  self->ruler_cache = _sps_time_ruler_cache_new ();
  self->selected_flows = g_array_new (FALSE, FALSE, sizeof (guint));
  self->row_nodes = g_ptr_array_new_with_free_func ((GDestroyNotify) gsk_render_node_unref);
  self->overlay_nodes = g_ptr_array_new_with_free_func ((GDestroyNotify) gsk_render_node_unref);
  self->drag_mode = SPS_TIMELINE_DRAG_NONE;

  gtk_widget_set_focusable (widget, TRUE);
  gtk_widget_set_has_tooltip (widget, TRUE);
  gtk_widget_set_overflow (widget, GTK_OVERFLOW_HIDDEN);

  _sps_timeline_input_init (self);
}

/**
 * sps_timeline_new:
 * @session: the session to show
 *
 * Returns: (transfer floating): a new timeline
 */
GtkWidget *
sps_timeline_new (SpsSession *session)
{
  g_return_val_if_fail (SPS_IS_SESSION (session), NULL);

  return g_object_new (SPS_TYPE_TIMELINE, "session", session, NULL);
}

/**
 * sps_timeline_get_session:
 * @self: a #SpsTimeline
 *
 * Returns: (transfer none): the session of @self
 */
SpsSession *
sps_timeline_get_session (SpsTimeline *self)
{
  g_return_val_if_fail (SPS_IS_TIMELINE (self), NULL);

  return self->session;
}

/**
 * sps_timeline_get_gutter_width:
 * @self: a #SpsTimeline
 *
 * Returns: the width of the label gutter, in px
 */
int
sps_timeline_get_gutter_width (SpsTimeline *self)
{
  g_return_val_if_fail (SPS_IS_TIMELINE (self), 0);

  return self->gutter_width;
}

/**
 * sps_timeline_set_gutter_width:
 * @self: a #SpsTimeline
 * @width: the width of the label gutter, in px (clamped to 80–800)
 */
void
sps_timeline_set_gutter_width (SpsTimeline *self,
                               int          width)
{
  g_return_if_fail (SPS_IS_TIMELINE (self));

  width = CLAMP (width, MIN_GUTTER_WIDTH, MAX_GUTTER_WIDTH);
  /* While the gutter fits its labels, a width set from outside (the
   * settings of the last window) lasts until the next allocation fits
   * it again. */
  if (self->gutter_auto && !self->fitting_gutter && self->gutter_fitted)
    {
      self->gutter_fitted = FALSE;
      gtk_widget_queue_allocate (GTK_WIDGET (self));
    }
  if (self->gutter_width == width)
    return;

  self->gutter_width = width;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GUTTER_WIDTH]);
}

/**
 * sps_timeline_get_gutter_auto:
 * @self: a #SpsTimeline
 *
 * Returns: whether the gutter fits its longest label
 */
gboolean
sps_timeline_get_gutter_auto (SpsTimeline *self)
{
  g_return_val_if_fail (SPS_IS_TIMELINE (self), FALSE);

  return self->gutter_auto;
}

/**
 * sps_timeline_set_gutter_auto:
 * @self: a #SpsTimeline
 * @gutter_auto: whether the gutter takes the width of its longest label
 *
 * Turning it on fits the gutter at the next allocation.
 */
void
sps_timeline_set_gutter_auto (SpsTimeline *self,
                              gboolean     gutter_auto)
{
  g_return_if_fail (SPS_IS_TIMELINE (self));

  gutter_auto = !!gutter_auto;
  if (self->gutter_auto == (guint) gutter_auto)
    return;

  self->gutter_auto = gutter_auto;
  self->gutter_fitted = FALSE;
  gtk_widget_queue_allocate (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GUTTER_AUTO]);
}

/**
 * sps_timeline_get_track_height:
 * @self: a #SpsTimeline
 *
 * Returns: the height of a lane, in px, as set
 */
int
sps_timeline_get_track_height (SpsTimeline *self)
{
  g_return_val_if_fail (SPS_IS_TIMELINE (self), 0);

  return self->track_height;
}

/**
 * sps_timeline_set_track_height:
 * @self: a #SpsTimeline
 * @height: the height of a lane, in px (clamped to 8–128); lanes are made
 *   taller when the font needs it
 */
void
sps_timeline_set_track_height (SpsTimeline *self,
                               int          height)
{
  g_return_if_fail (SPS_IS_TIMELINE (self));

  height = CLAMP (height, MIN_TRACK_HEIGHT, MAX_TRACK_HEIGHT);
  if (self->track_height == height)
    return;

  self->track_height = height;
  self->metrics_valid = FALSE;
  _sps_timeline_invalidate_row_cache (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TRACK_HEIGHT]);
}

/**
 * _sps_timeline_get_lod:
 * @self: a #SpsTimeline
 *
 * Returns: (transfer none) (nullable): the level-of-detail summaries the
 *   timeline draws with; %NULL while they are prepared
 */
SpsTimelineLod *
_sps_timeline_get_lod (SpsTimeline *self)
{
  g_return_val_if_fail (SPS_IS_TIMELINE (self), NULL);

  return self->lod;
}

/**
 * _sps_timeline_set_tiles_enabled:
 * @self: a #SpsTimeline
 * @enabled: whether slice lanes are drawn in cached tiles
 *
 * Tiles are on by default; tests turn them off to compare the two ways of
 * drawing a lane.
 */
void
_sps_timeline_set_tiles_enabled (SpsTimeline *self,
                                 gboolean     enabled)
{
  g_return_if_fail (SPS_IS_TIMELINE (self));

  self->tiles_disabled = !enabled;
  _sps_timeline_invalidate_row_cache (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * _sps_timeline_get_frame_tile_builds:
 * @self: a #SpsTimeline
 *
 * Returns: how many tiles frames have built so far, not counting those
 *   built between frames
 */
guint
_sps_timeline_get_frame_tile_builds (SpsTimeline *self)
{
  g_return_val_if_fail (SPS_IS_TIMELINE (self), 0);

  return self->frame_tile_builds;
}

/**
 * _sps_timeline_get_layout:
 * @self: a #SpsTimeline
 *
 * Returns: (transfer none) (nullable): the rows the timeline draws
 */
SpsTimelineLayout *
_sps_timeline_get_layout (SpsTimeline *self)
{
  g_return_val_if_fail (SPS_IS_TIMELINE (self), NULL);

  return self->layout;
}
