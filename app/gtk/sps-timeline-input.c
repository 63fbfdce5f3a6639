/* sps-timeline-input.c: pointer, wheel, drags, clicks and tooltips
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-timeline"

#include "config.h"

#include <math.h>

#include "sps-timeline-private.h"

/* Pixels either side of the splitter line that grab it. */
#define SPLITTER_GRAB        4
/* How much one wheel notch zooms. */
#define WHEEL_ZOOM_FACTOR    1.25
/* Moving less than this (px) is a click, not a drag. */
#define DRAG_THRESHOLD       3

static gboolean
in_splitter (SpsTimeline *self,
             double       x)
{
  return fabs (x - self->gutter_width) <= SPLITTER_GRAB;
}

SpsTime
_sps_timeline_pointer_time (SpsTimeline *self,
                            gboolean     use_pointer)
{
  SpsTimelineGeometry g;

  _sps_timeline_get_geometry (self, gtk_widget_get_width (GTK_WIDGET (self)), gtk_widget_get_height (GTK_WIDGET (self)), &g);

  if (use_pointer && self->pointer_inside && self->pointer_x >= g.gutter)
    return _sps_timeline_x_to_time (&g, self->pointer_x);

  return _sps_time_add_span (g.start, _sps_time_span (g.start, g.end) / 2);
}

/* The slice under (@x, @y), allowing 2 px of slack for thin ones. */
static guint
hit_slice (SpsTimeline *self,
           double       x,
           double       y)
{
  SpsTimelineGeometry g;
  SpsTimelineSource source;
  const SpsTimelineRow *row;
  guint index;

  /* While the summaries are prepared no row is drawn: nothing to hit */
  if (self->layout == NULL || self->lod == NULL)
    return SPS_NO_INDEX;

  _sps_timeline_get_geometry (self, gtk_widget_get_width (GTK_WIDGET (self)), gtk_widget_get_height (GTK_WIDGET (self)), &g);
  if (x < g.gutter)
    return SPS_NO_INDEX;

  index = _sps_timeline_hit_row (self, &g, y);
  if (index == SPS_NO_INDEX)
    return SPS_NO_INDEX;

  row = _sps_timeline_layout_get_row (self->layout, index);
  if (row->kind != SPS_TIMELINE_ROW_SLICES)
    return SPS_NO_INDEX;

  source = _sps_timeline_get_source (self);
  return _sps_timeline_painter_hit_test (&_sps_timeline_slice_painter, &source, &g, row, x, y);
}

/**
 * _sps_timeline_hit_item:
 * @self: a #SpsTimeline
 * @x: widget coordinates
 * @y: widget coordinates
 * @selection: (out caller-allocates): what a click at (@x, @y) selects
 *
 * The item under (@x, @y) as a selection: a slice, an instant or decoded
 * event, a sample, or a box of a stack chart, found by the row's
 * painter; kind %SPS_SELECTION_NONE over nothing (a click there clears
 * the selection).
 */
void
_sps_timeline_hit_item (SpsTimeline  *self,
                        double        x,
                        double        y,
                        SpsSelection *selection)
{
  SpsTimelineGeometry g;
  SpsTimelineSource source;
  const SpsTimelineRow *row;
  guint index;
  guint item;

  g_return_if_fail (SPS_IS_TIMELINE (self));
  g_return_if_fail (selection != NULL);

  sps_selection_init_none (selection);
  if (self->layout == NULL || self->lod == NULL)
    return;

  _sps_timeline_get_geometry (self, gtk_widget_get_width (GTK_WIDGET (self)), gtk_widget_get_height (GTK_WIDGET (self)), &g);
  if (x < g.gutter || (index = _sps_timeline_hit_row (self, &g, y)) == SPS_NO_INDEX)
    return;

  row = _sps_timeline_layout_get_row (self->layout, index);
  source = _sps_timeline_get_source (self);
  item = _sps_timeline_painter_hit_test (_sps_timeline_painter_for_row (row), &source, &g, row, x, y);
  if (item == SPS_NO_INDEX)
    return;

  switch ((SpsTimelineRowKind) row->kind)
    {
    case SPS_TIMELINE_ROW_SLICES:
      selection->kind = SPS_SELECTION_SLICE;
      selection->index = item;
      break;
    case SPS_TIMELINE_ROW_INSTANTS:
      selection->kind = SPS_SELECTION_INSTANT;
      selection->index = item;
      break;
    case SPS_TIMELINE_ROW_SAMPLES:
      selection->kind = SPS_SELECTION_SAMPLE;
      selection->index = item;
      break;
    case SPS_TIMELINE_ROW_STACK:
      _sps_timeline_stacks_box_selection (self->stacks, self->trace, row->track, row->depth, item, selection);
      break;
    case SPS_TIMELINE_ROW_PROCESS:
    case SPS_TIMELINE_ROW_COUNTER:
    default:
      break;
    }
}

static void
update_hover (SpsTimeline *self)
{
  const char *cursor = NULL;
  guint slice = SPS_NO_INDEX;

  if (self->session == NULL)
    return;

  if (self->pointer_inside && self->drag_mode == SPS_TIMELINE_DRAG_NONE)
    {
      if (in_splitter (self, self->pointer_x))
        cursor = "col-resize";
      else
        slice = hit_slice (self, self->pointer_x, self->pointer_y);
    }
  else if (self->drag_mode == SPS_TIMELINE_DRAG_GUTTER)
    cursor = "col-resize";
  else if (self->drag_mode == SPS_TIMELINE_DRAG_PAN)
    cursor = "grabbing";

  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), cursor);
  sps_session_set_hovered_slice (self->session, slice);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* The pointer crossing into the widget says where it is but not that the
 * user points at anything: a window that appears under a resting pointer
 * (or a headless screenshot, whose pointer rests in the middle of the
 * screen) would show a hovered slice nobody chose. So hover waits for
 * the pointer to move: GDK also sends motion events when the layout
 * changes under a resting pointer, which are told apart by the pointer's
 * position in the window, unchanged since it entered. */
static gboolean
get_window_position (GtkEventController *controller,
                     double             *x,
                     double             *y)
{
  GdkEvent *event = gtk_event_controller_get_current_event (controller);

  return event != NULL && gdk_event_get_position (event, x, y);
}

/* The same when entering: GTK also makes up crossings, without an event,
 * when a widget appears under the pointer; then the pointer is asked. */
static gboolean
get_entry_position (SpsTimeline        *self,
                    GtkEventController *controller,
                    double             *x,
                    double             *y)
{
  GtkNative *native;
  GdkSurface *surface;
  GdkDevice *pointer;

  if (gtk_event_controller_get_current_event (controller) != NULL)
    return get_window_position (controller, x, y);

  native = gtk_widget_get_native (GTK_WIDGET (self));
  surface = native != NULL ? gtk_native_get_surface (native) : NULL;
  if (surface == NULL)
    return FALSE;

  pointer = gdk_seat_get_pointer (gdk_display_get_default_seat (gdk_surface_get_display (surface)));

  return pointer != NULL && gdk_surface_get_device_position (surface, pointer, x, y, NULL);
}

static void
motion_cb (SpsTimeline              *self,
           double                    x,
           double                    y,
           GtkEventControllerMotion *motion)
{
  double wx, wy;

  self->pointer_x = x;
  self->pointer_y = y;

  if (self->resting &&
      get_window_position (GTK_EVENT_CONTROLLER (motion), &wx, &wy) &&
      wx == self->rest_x && wy == self->rest_y)
    return;

  self->resting = FALSE;
  self->pointer_inside = TRUE;
  update_hover (self);
}

static void
enter_cb (SpsTimeline              *self,
          double                    x,
          double                    y,
          GtkEventControllerMotion *motion)
{
  self->pointer_x = x;
  self->pointer_y = y;
  self->resting = get_entry_position (self, GTK_EVENT_CONTROLLER (motion), &self->rest_x, &self->rest_y);
}

static void
leave_cb (SpsTimeline              *self,
          GtkEventControllerMotion *motion)
{
  self->resting = FALSE;
  self->pointer_inside = FALSE;
  update_hover (self);
}

/* Scrolls the pinned band by @delta px when the pointer is over it and
 * its rows are higher than it */
static gboolean
scroll_band (SpsTimeline *self,
             double       delta)
{
  SpsTimelineGeometry g;
  int view;

  if (!self->pointer_inside)
    return FALSE;

  _sps_timeline_get_geometry (self, gtk_widget_get_width (GTK_WIDGET (self)), gtk_widget_get_height (GTK_WIDGET (self)), &g);
  view = g.band - SPS_TIMELINE_PIN_SEPARATOR;
  if (self->pointer_y < g.ruler_height || self->pointer_y >= _sps_timeline_tracks_top (&g) || g.pinned_height <= view)
    return FALSE;

  self->pinned_scroll = CLAMP (g.pinned_scroll + (int) round (delta), 0, g.pinned_height - view);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return TRUE;
}

static gboolean
scroll_cb (SpsTimeline              *self,
           double                    dx,
           double                    dy,
           GtkEventControllerScroll *scroll)
{
  GdkModifierType state;

  if (self->session == NULL)
    return FALSE;

  state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (scroll));

  /* Shift+wheel, or the wheel over the labels, scrolls the rows (over
   * the pinned band, the band's rows). */
  if ((state & GDK_SHIFT_MASK) != 0 || (self->pointer_inside && self->pointer_x < self->gutter_width))
    {
      if (scroll_band (self, (dy != 0 ? dy : dx) * self->lane_height * 3))
        return TRUE;
      if (self->vadjustment != NULL)
        gtk_adjustment_set_value (self->vadjustment,
                                  gtk_adjustment_get_value (self->vadjustment) +
                                  (dy != 0 ? dy : dx) * self->lane_height * 3);
      return TRUE;
    }

  if (dx != 0 && dy == 0)
    {
      double span = (double) _sps_time_span (sps_session_get_visible_start (self->session),
                                             sps_session_get_visible_end (self->session));

      sps_session_pan (self->session, _sps_time_offset (0, dx * span * 0.1));
      return TRUE;
    }

  if (dy != 0)
    sps_session_zoom (self->session, pow (WHEEL_ZOOM_FACTOR, -dy), _sps_timeline_pointer_time (self, TRUE));

  return TRUE;
}

static void
drag_begin_cb (SpsTimeline    *self,
               double          x,
               double          y,
               GtkGestureDrag *gesture)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));

  if (_sps_timeline_drag_begin (self, x, y, button, state))
    gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

static void
drag_update_cb (SpsTimeline    *self,
                double          ox,
                double          oy,
                GtkGestureDrag *gesture)
{
  SpsTimelineGeometry g;
  double npp;

  if (self->session == NULL || self->drag_mode == SPS_TIMELINE_DRAG_NONE)
    return;

  if (fabs (ox) >= DRAG_THRESHOLD || fabs (oy) >= DRAG_THRESHOLD)
    self->drag_moved = TRUE;

  _sps_timeline_get_geometry (self, gtk_widget_get_width (GTK_WIDGET (self)), gtk_widget_get_height (GTK_WIDGET (self)), &g);
  npp = (double) _sps_time_span (self->drag_start, self->drag_end) / g.track_width;

  switch (self->drag_mode)
    {
    case SPS_TIMELINE_DRAG_GUTTER:
      /* The user's width from now on */
      if (self->drag_moved)
        sps_timeline_set_gutter_auto (self, FALSE);
      sps_timeline_set_gutter_width (self, self->drag_gutter + (int) ox);
      break;

    case SPS_TIMELINE_DRAG_PAN:
      {
        SpsTime delta = _sps_time_offset (0, -ox * npp);
        SpsTime start = _sps_time_add (self->drag_start, delta);

        /* The window keeps its width at the ends of the time range */
        start = MIN (start, _sps_time_sub_span (G_MAXINT64, _sps_time_span (self->drag_start, self->drag_end)));
        sps_session_set_visible (self->session, start,
                                 _sps_time_add_span (start, _sps_time_span (self->drag_start, self->drag_end)));
        if (self->vadjustment != NULL)
          gtk_adjustment_set_value (self->vadjustment, self->drag_scroll - oy);
      }
      break;

    case SPS_TIMELINE_DRAG_RANGE:
      if (self->drag_moved)
        {
          SpsTime a = _sps_timeline_x_to_time (&g, self->drag_x);
          SpsTime b = _sps_timeline_x_to_time (&g, self->drag_x + ox);

          sps_session_set_range (self->session, MIN (a, b), MAX (a, b));
        }
      break;

    case SPS_TIMELINE_DRAG_NONE:
    default:
      break;
    }
}

static void
drag_end_cb (SpsTimeline    *self,
             double          ox,
             double          oy,
             GtkGestureDrag *gesture)
{
  if (self->session != NULL && self->drag_mode == SPS_TIMELINE_DRAG_RANGE && !self->drag_moved && self->drag_y < self->ruler_height)
    sps_session_clear_range (self->session);

  self->drag_mode = SPS_TIMELINE_DRAG_NONE;
  update_hover (self);
}

static void
click_released_cb (SpsTimeline     *self,
                   int              n_press,
                   double           x,
                   double           y,
                   GtkGestureClick *gesture)
{
  SpsTimelineGeometry g;
  guint index;
  const SpsTimelineRow *row;
  SpsSelection selection;

  /* A double click on the splitter fits the gutter to its labels again */
  if (self->session != NULL && in_splitter (self, x) && n_press == 2)
    sps_timeline_set_gutter_auto (self, TRUE);

  /* After a drag the click gesture is cancelled: no release comes. */
  if (self->session == NULL || in_splitter (self, x))
    return;

  _sps_timeline_get_geometry (self, gtk_widget_get_width (GTK_WIDGET (self)), gtk_widget_get_height (GTK_WIDGET (self)), &g);
  if (y < g.ruler_height)
    {
      /* A double click on the ruler flags its time */
      if (n_press == 2 && x >= g.gutter)
        _sps_timeline_add_flag_at (self, x);
      return;
    }

  index = _sps_timeline_hit_row (self, &g, y);
  if (index != SPS_NO_INDEX)
    {
      row = _sps_timeline_layout_get_row (self->layout, index);
      if (row->kind == SPS_TIMELINE_ROW_PROCESS)
        {
          sps_session_set_process_collapsed (self->session, row->process,
                                             !(row->flags & SPS_TIMELINE_ROW_COLLAPSED));
          return;
        }
      /* A thread's label folds the thread */
      if (x < g.gutter && _sps_timeline_gutter_toggle_thread (self, index))
        return;
    }

  if (x < g.gutter)
    return;

  _sps_timeline_hit_item (self, x, y, &selection);
  self->selecting_from_click = TRUE;
  sps_session_set_selection (self->session, &selection);
  self->selecting_from_click = FALSE;
}

/* A right click on the ruler opens its menu, one on a thread's label
 * the label's (pin, unpin) */
static void
secondary_pressed_cb (SpsTimeline     *self,
                      int              n_press,
                      double           x,
                      double           y,
                      GtkGestureClick *gesture)
{
  SpsTimelineGeometry g;

  if (self->session == NULL || in_splitter (self, x))
    return;

  if (y < self->ruler_height)
    {
      if (x < self->gutter_width)
        return;
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
      _sps_timeline_popup_ruler_menu (self, x);
      return;
    }

  _sps_timeline_get_geometry (self, gtk_widget_get_width (GTK_WIDGET (self)), gtk_widget_get_height (GTK_WIDGET (self)), &g);
  if (x < g.gutter && _sps_timeline_popup_label_menu (self, _sps_timeline_hit_row (self, &g, y), y) != NULL)
    gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

/**
 * _sps_timeline_dup_tooltip_markup:
 * @self: a #SpsTimeline
 * @x: pointer position in widget coordinates
 * @y: pointer position in widget coordinates
 *
 * What the tooltip at (@x, @y) shows: a slice, a sample, an instant or
 * event (with its args), a counter value.
 *
 * Returns: (transfer full) (nullable): Pango markup, or %NULL for no tooltip
 */
char *
_sps_timeline_dup_tooltip_markup (SpsTimeline *self,
                                  int          x,
                                  int          y)
{
  GtkWidget *widget = GTK_WIDGET (self);
  SpsTimelineGeometry g;
  SpsTimelineSource source;
  const SpsTimelineRow *row;
  guint index;

  g_return_val_if_fail (SPS_IS_TIMELINE (self), NULL);

  if (self->trace == NULL || self->layout == NULL || self->lod == NULL)
    return NULL;

  _sps_timeline_get_geometry (self, gtk_widget_get_width (widget), gtk_widget_get_height (widget), &g);
  if (x < g.gutter)
    return NULL;
  index = _sps_timeline_hit_row (self, &g, y);
  if (index == SPS_NO_INDEX)
    return NULL;

  /* The row's painter says what is under the pointer */
  row = _sps_timeline_layout_get_row (self->layout, index);
  source = _sps_timeline_get_source (self);

  return _sps_timeline_painter_tooltip (_sps_timeline_painter_for_row (row), &source, &g, row, x, y);
}

gboolean
_sps_timeline_query_tooltip (GtkWidget  *widget,
                             int         x,
                             int         y,
                             gboolean    keyboard,
                             GtkTooltip *tooltip)
{
  g_autofree char *markup = NULL;

  if (keyboard)
    return FALSE;
  markup = _sps_timeline_dup_tooltip_markup (SPS_TIMELINE (widget), x, y);
  if (markup == NULL)
    return FALSE;
  gtk_tooltip_set_markup (tooltip, markup);
  return TRUE;
}

/* The pointer, wheel, drag and click controllers of @self */
void
_sps_timeline_input_init (SpsTimeline *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkEventController *controller;
  GtkGesture *gesture;

  controller = gtk_event_controller_motion_new ();
  g_signal_connect_swapped (controller, "enter", G_CALLBACK (enter_cb), self);
  g_signal_connect_swapped (controller, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect_swapped (controller, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (widget, controller);

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect_swapped (controller, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (widget, controller);

  /* Left and middle button drags: one gesture, the mode set at its start */
  gesture = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), 0);
  g_signal_connect_swapped (gesture, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect_swapped (gesture, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect_swapped (gesture, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_PRIMARY);
  g_signal_connect_swapped (gesture, "released", G_CALLBACK (click_released_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_SECONDARY);
  g_signal_connect_swapped (gesture, "pressed", G_CALLBACK (secondary_pressed_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));
}

/**
 * _sps_timeline_drag_begin:
 * @self: a #SpsTimeline
 * @x: where the drag starts, in widget coordinates
 * @y: where the drag starts, in widget coordinates
 * @button: the button pressed
 * @state: the modifiers held
 *
 * Starts a drag of the timeline's drag gesture: the middle button, or
 * the primary one with Control in the tracks, pans; Shift in the tracks,
 * or the primary button on the ruler, selects a time range
 * (the secondary one opens the ruler's menu); the splitter resizes
 * the gutter. The gesture's "drag-begin" handler reads @button and
 * @state from the event; tests, whose emitted signals have no event,
 * call this and then emit "drag-update" and "drag-end".
 *
 * Returns: %TRUE when the drag is one of those (the gesture claims it)
 */
gboolean
_sps_timeline_drag_begin (SpsTimeline     *self,
                          double           x,
                          double           y,
                          guint            button,
                          GdkModifierType  state)
{
  SpsTimelineGeometry g;

  g_return_val_if_fail (SPS_IS_TIMELINE (self), FALSE);

  if (self->session == NULL)
    return FALSE;

  _sps_timeline_get_geometry (self, gtk_widget_get_width (GTK_WIDGET (self)), gtk_widget_get_height (GTK_WIDGET (self)), &g);

  self->drag_x = x;
  self->drag_y = y;
  self->drag_moved = FALSE;
  self->drag_start = g.start;
  self->drag_end = g.end;
  self->drag_gutter = self->gutter_width;
  self->drag_scroll = self->vadjustment != NULL ? gtk_adjustment_get_value (self->vadjustment) : 0;

  /* The secondary button opens menus (the ruler's): no drag */
  if (button == GDK_BUTTON_SECONDARY)
    self->drag_mode = SPS_TIMELINE_DRAG_NONE;
  else if (button == GDK_BUTTON_MIDDLE)
    self->drag_mode = SPS_TIMELINE_DRAG_PAN;
  else if (in_splitter (self, x))
    self->drag_mode = SPS_TIMELINE_DRAG_GUTTER;
  else if (x >= g.gutter && (y < g.ruler_height || (state & GDK_SHIFT_MASK) != 0))
    self->drag_mode = SPS_TIMELINE_DRAG_RANGE;
  else if (x >= g.gutter && (state & GDK_CONTROL_MASK) != 0)
    self->drag_mode = SPS_TIMELINE_DRAG_PAN;
  else
    self->drag_mode = SPS_TIMELINE_DRAG_NONE;

  gtk_widget_grab_focus (GTK_WIDGET (self));

  return self->drag_mode != SPS_TIMELINE_DRAG_NONE;
}
