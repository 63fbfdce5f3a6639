/* sps-timeline-actions.c: the timeline's widget actions, and revealing a slice
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-timeline"

#include "config.h"

#include "sps-timeline-private.h"

/* How much one key press zooms, and pans (a fraction of the window) */
#define KEY_ZOOM_FACTOR      1.5
#define PAN_FRACTION         0.15

/* Scrolls the rows, or the pinned band for a pinned row, until row
 * @index is in view */
static void
scroll_to_row (SpsTimeline *self,
               guint        index)
{
  SpsTimelineGeometry g;
  const SpsTimelineRow *row;
  int top, bottom;
  double value;
  double page;

  if (self->vadjustment == NULL || index == SPS_NO_INDEX)
    return;

  row = _sps_timeline_layout_get_row (self->layout, index);
  _sps_timeline_get_geometry (self, gtk_widget_get_width (GTK_WIDGET (self)),
                              gtk_widget_get_height (GTK_WIDGET (self)), &g);
  if (_sps_timeline_row_pinned (&g, row))
    {
      _sps_timeline_row_bounds (&g, row, &top, &bottom);
      if (row->y < g.pinned_scroll)
        self->pinned_scroll = row->y;
      else if (row->y + row->height > g.pinned_scroll + (bottom - top))
        self->pinned_scroll = row->y + row->height - (bottom - top);
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }

  value = gtk_adjustment_get_value (self->vadjustment);
  page = gtk_adjustment_get_page_size (self->vadjustment);

  if (page <= 0)
    return;
  /* The adjustment counts from the first row below the pinned ones */
  if (row->y - g.pinned_height < value)
    gtk_adjustment_set_value (self->vadjustment, row->y - g.pinned_height);
  else if (row->y - g.pinned_height + row->height > value + page)
    gtk_adjustment_set_value (self->vadjustment, row->y - g.pinned_height + row->height - page);
}

void
_sps_timeline_reveal_slice (SpsTimeline *self,
                            guint        slice)
{
  const SpsSliceTable *slices;
  const SpsTrackTable *tracks;
  SpsTime start, end, visible_start, visible_end;
  guint32 process;
  guint32 thread;

  if (self->trace == NULL || slice == SPS_NO_INDEX)
    return;

  slices = sps_trace_get_slices (self->trace);
  tracks = sps_trace_get_tracks (self->trace);
  if (slice >= slices->n_rows)
    return;

  process = tracks->process[slices->track[slice]];
  thread = tracks->thread[slices->track[slice]];
  /* A pinned thread shows its lanes in the band whatever its process's
   * state: nothing to unfold */
  if (process != SPS_NO_INDEX && sps_session_get_process_collapsed (self->session, process) &&
      (thread == SPS_NO_INDEX || !sps_session_get_thread_pinned (self->session, thread)))
    sps_session_set_process_collapsed (self->session, process, FALSE);

  start = slices->ts[slice];
  end = start + slices->dur[slice];
  visible_start = sps_session_get_visible_start (self->session);
  visible_end = sps_session_get_visible_end (self->session);
  if (end < visible_start || start >= visible_end)
    sps_session_go_to_time (self->session, _sps_time_add_span (start, _sps_time_span (start, end) / 2));

  scroll_to_row (self, _sps_timeline_layout_find_slice_row (self->layout, slice));
}

static void
action_zoom (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  SpsTimeline *self = SPS_TIMELINE (widget);
  double factor = g_str_equal (action_name, "timeline.zoom-in") ? KEY_ZOOM_FACTOR : 1 / KEY_ZOOM_FACTOR;

  if (self->session != NULL)
    sps_session_zoom (self->session, factor, _sps_timeline_pointer_time (self, TRUE));
}

static void
action_pan (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  SpsTimeline *self = SPS_TIMELINE (widget);
  double span;
  SpsTime delta;

  if (self->session == NULL)
    return;

  span = (double) _sps_time_span (sps_session_get_visible_start (self->session),
                                  sps_session_get_visible_end (self->session));
  delta = MAX (_sps_time_offset (0, span * PAN_FRACTION), 1);
  sps_session_pan (self->session, g_str_equal (action_name, "timeline.pan-left") ? -delta : delta);
}

static void
action_scroll (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  SpsTimeline *self = SPS_TIMELINE (widget);
  double step;

  if (self->vadjustment == NULL)
    return;

  _sps_timeline_ensure_metrics (self);
  step = self->lane_height * 3;
  if (g_str_equal (action_name, "timeline.scroll-up"))
    step = -step;

  gtk_adjustment_set_value (self->vadjustment, gtk_adjustment_get_value (self->vadjustment) + step);
}

static void
action_fit (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  SpsTimeline *self = SPS_TIMELINE (widget);

  if (self->session != NULL)
    sps_session_fit (self->session);
}

static void
action_navigate (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  SpsTimeline *self = SPS_TIMELINE (widget);

  if (self->session == NULL)
    return;

  if (g_str_equal (action_name, "timeline.select-parent"))
    sps_session_select_parent (self->session);
  else if (g_str_equal (action_name, "timeline.select-child"))
    sps_session_select_first_child (self->session);
  else if (g_str_equal (action_name, "timeline.select-prev"))
    sps_session_select_sibling (self->session, -1);
  else
    sps_session_select_sibling (self->session, 1);
}

static void
action_clear (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  SpsTimeline *self = SPS_TIMELINE (widget);

  if (self->session != NULL)
    sps_session_clear (self->session);
}

static void
action_select (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  SpsTimeline *self = SPS_TIMELINE (widget);
  guint slice = g_variant_get_uint32 (parameter);

  if (self->session == NULL)
    return;

  if (slice != SPS_NO_INDEX && slice >= sps_trace_get_slices (self->trace)->n_rows)
    return;

  sps_session_set_selected_slice (self->session, slice);
  _sps_timeline_reveal_slice (self, slice);
}

static void
action_toggle_process (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  SpsTimeline *self = SPS_TIMELINE (widget);
  guint process = g_variant_get_uint32 (parameter);

  if (self->session == NULL || process >= sps_trace_get_processes (self->trace)->n_rows)
    return;

  sps_session_set_process_collapsed (self->session, process,
                                     !sps_session_get_process_collapsed (self->session, process));
}

/* Pins a thread to the band under the ruler, or unpins it (the thread
 * labels' menu) */
static void
action_toggle_pin (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  SpsTimeline *self = SPS_TIMELINE (widget);
  guint thread = g_variant_get_uint32 (parameter);

  if (self->session == NULL || thread >= sps_trace_get_threads (self->trace)->n_rows)
    return;

  sps_session_set_thread_pinned (self->session, thread,
                                 !sps_session_get_thread_pinned (self->session, thread));
}

/* A flag at the pointer's time over the tracks, else the view's middle */
static void
action_add_flag (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  SpsTimeline *self = SPS_TIMELINE (widget);

  if (self->session == NULL)
    return;

  _sps_timeline_add_flag_at (self, self->pointer_inside ? self->pointer_x : -1);
}

void
_sps_timeline_actions_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "timeline.zoom-in", NULL, action_zoom);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-out", NULL, action_zoom);
  gtk_widget_class_install_action (widget_class, "timeline.pan-left", NULL, action_pan);
  gtk_widget_class_install_action (widget_class, "timeline.pan-right", NULL, action_pan);
  gtk_widget_class_install_action (widget_class, "timeline.scroll-up", NULL, action_scroll);
  gtk_widget_class_install_action (widget_class, "timeline.scroll-down", NULL, action_scroll);
  gtk_widget_class_install_action (widget_class, "timeline.fit", NULL, action_fit);
  gtk_widget_class_install_action (widget_class, "timeline.select-parent", NULL, action_navigate);
  gtk_widget_class_install_action (widget_class, "timeline.select-child", NULL, action_navigate);
  gtk_widget_class_install_action (widget_class, "timeline.select-prev", NULL, action_navigate);
  gtk_widget_class_install_action (widget_class, "timeline.select-next", NULL, action_navigate);
  gtk_widget_class_install_action (widget_class, "timeline.clear", NULL, action_clear);
  gtk_widget_class_install_action (widget_class, "timeline.select", "u", action_select);
  gtk_widget_class_install_action (widget_class, "timeline.toggle-process", "u", action_toggle_process);
  gtk_widget_class_install_action (widget_class, "timeline.toggle-pin", "u", action_toggle_pin);
  gtk_widget_class_install_action (widget_class, "timeline.add-flag", NULL, action_add_flag);

  /* No key bindings of its own: the keys are the application's
   * accelerators, read from the settings so that users can rebind them
   * (app/shell), and a binding here would keep a default key working
   * after it was rebound. */
}
