/* sps-session-viewport.c: SpsSession's visible window (zoom, pan, fit,
 * go to a time) and its time range selection
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-session"

#include "config.h"

#include <math.h>

#include "sps-session.h"
#include "sps-session-state-private.h"
#include "sps-time-math-private.h"

/* The narrowest visible window. Below 10 ns nothing a trace records can be
 * told apart (Chrome timestamps are µs; even ns traces rarely resolve
 * less), and a floor keeps zoom-in from reaching a zero span. Traces
 * shorter than that are shown inside a 10 ns window around their centre. */
#define MIN_SPAN 10

/* How far past each end of the trace the window may go, in 1/n of the
 * trace's span: a little room so the first and last slices are not glued
 * to the edges when panning. */
#define OVERSCROLL_DIVISOR 20

/* The margin fit() leaves on each side of a selected slice, in 1/n of its
 * duration. */
#define FIT_MARGIN_DIVISOR 10

/* The window's limits, from the trace's times (at construction) */
void
_sps_session_compute_bounds (SpsSession *self)
{
  SpsTime start = sps_trace_get_start_time (self->trace);
  SpsTime end = sps_trace_get_end_time (self->trace);
  guint64 span;
  guint64 margin;

  if (end < start)
    end = start;

  span = _sps_time_span (start, end);
  margin = span / OVERSCROLL_DIVISOR;

  self->bound_start = _sps_time_sub_span (start, margin);
  self->bound_end = _sps_time_add_span (end, margin);

  if (_sps_time_span (self->bound_start, self->bound_end) < MIN_SPAN)
    {
      SpsTime centre = _sps_time_add_span (start, span / 2);

      self->bound_start = _sps_time_sub_span (centre, MIN_SPAN / 2);
      self->bound_end = _sps_time_add_span (self->bound_start, MIN_SPAN);
    }
}

/* Brings the window of @span ns from *start inside the bounds: at least
 * MIN_SPAN wide (grown around its centre), at most the bounds, and
 * shifted (keeping its width) when it sticks out. The window is a start
 * and a span, not two ends, so saturating arithmetic near the ends of
 * gint64 never changes its width. */
static void
clamp_window (SpsSession *self,
              SpsTime    *start,
              guint64    *span)
{
  guint64 max_span = _sps_time_span (self->bound_start, self->bound_end);
  SpsTime latest_start;

  if (*span >= max_span)
    {
      *start = self->bound_start;
      *span = max_span;
      return;
    }

  if (*span < MIN_SPAN)
    {
      SpsTime centre = _sps_time_add_span (*start, *span / 2);

      *start = _sps_time_sub_span (centre, MIN_SPAN / 2);
      *span = MIN_SPAN;
    }

  latest_start = _sps_time_sub_span (self->bound_end, *span);
  if (*start < self->bound_start)
    *start = self->bound_start;
  else if (*start > latest_start)
    *start = latest_start;
}

static void
apply_window (SpsSession *self,
              SpsTime     start,
              guint64     span)
{
  SpsTime end;

  clamp_window (self, &start, &span);
  end = _sps_time_add_span (start, span);

  g_object_freeze_notify (G_OBJECT (self));

  if (self->visible_start != start)
    {
      self->visible_start = start;
      g_object_notify_by_pspec (G_OBJECT (self), _sps_session_properties[PROP_VISIBLE_START]);
    }

  if (self->visible_end != end)
    {
      self->visible_end = end;
      g_object_notify_by_pspec (G_OBJECT (self), _sps_session_properties[PROP_VISIBLE_END]);
    }

  g_object_thaw_notify (G_OBJECT (self));
}

/* A window of the current width centred on @time (then clamped). */
static void
centre_on (SpsSession *self,
           SpsTime     time)
{
  guint64 span = _sps_time_span (self->visible_start, self->visible_end);

  apply_window (self, _sps_time_sub_span (time, span / 2), span);
}

/* Fits [@ts, @end] with a margin of a tenth of it on each side */
static void
fit_span (SpsSession *self,
          SpsTime     ts,
          SpsTime     end)
{
  guint64 margin = _sps_time_span (ts, MAX (ts, end)) / FIT_MARGIN_DIVISOR;
  SpsTime start = _sps_time_sub_span (ts, margin);

  apply_window (self, start, _sps_time_span (start, _sps_time_add_span (MAX (ts, end), margin)));
}

static void
fit_slice (SpsSession *self,
           guint       slice)
{
  const SpsSliceTable *slices = sps_trace_get_slices (self->trace);

  fit_span (self, slices->ts[slice], _sps_time_add (slices->ts[slice], MAX (slices->dur[slice], 0)));
}

/* After keyboard navigation: bring the new selection into view. A slice
 * that fits in the window is centred at the current zoom; one wider than
 * the window is left alone if part of it shows (W on a wide parent must
 * not zoom out), and fitted otherwise. */
void
_sps_session_reveal_slice (SpsSession *self,
                           guint       slice)
{
  const SpsSliceTable *slices = sps_trace_get_slices (self->trace);
  SpsTime ts = slices->ts[slice];
  SpsTime end = _sps_time_add (ts, MAX (slices->dur[slice], 0));

  if (ts >= self->visible_start && end <= self->visible_end)
    return;

  if (_sps_time_span (ts, end) <= _sps_time_span (self->visible_start, self->visible_end))
    centre_on (self, _sps_time_add_span (ts, _sps_time_span (ts, end) / 2));
  else if (!(ts < self->visible_end && end > self->visible_start))
    fit_slice (self, slice);
}

/**
 * sps_session_get_visible_start:
 * @self: a #SpsSession
 *
 * Returns: the start of the visible window, in ns
 */
SpsTime
sps_session_get_visible_start (SpsSession *self)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), 0);

  return self->visible_start;
}

/**
 * sps_session_get_visible_end:
 * @self: a #SpsSession
 *
 * Returns: the end of the visible window, in ns (always after the start)
 */
SpsTime
sps_session_get_visible_end (SpsSession *self)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), 0);

  return self->visible_end;
}

/**
 * sps_session_set_visible:
 * @self: a #SpsSession
 * @start: the wanted start, in ns
 * @end: the wanted end, in ns; after @start
 *
 * Shows [@start, @end], clamped: at least 10 ns wide (grown around its
 * centre), at most the trace plus 5 % of its span on each side, and
 * shifted inside those bounds when it sticks out.
 */
void
sps_session_set_visible (SpsSession *self,
                         SpsTime     start,
                         SpsTime     end)
{
  g_return_if_fail (SPS_IS_SESSION (self));
  g_return_if_fail (start < end);

  apply_window (self, start, _sps_time_span (start, end));
}

/**
 * sps_session_zoom:
 * @self: a #SpsSession
 * @factor: how much to magnify: 2 halves the visible span, 0.5 doubles it
 * @anchor: the time that stays at the same place on screen, in ns
 *
 * Zooms around @anchor: the new span is the old one divided by @factor
 * (then limited to 10 ns … the bounds), and @anchor keeps its relative
 * position in the window, unless the clamping has to shift the window.
 */
void
sps_session_zoom (SpsSession *self,
                  double      factor,
                  SpsTime     anchor)
{
  guint64 span;
  guint64 max_span;
  guint64 new_span;
  double wanted;
  double offset;
  SpsTime start;

  g_return_if_fail (SPS_IS_SESSION (self));
  g_return_if_fail (factor > 0 && isfinite (factor));

  span = _sps_time_span (self->visible_start, self->visible_end);
  max_span = _sps_time_span (self->bound_start, self->bound_end);
  wanted = (double) span / factor;

  if (wanted >= (double) max_span)
    new_span = max_span;
  else if (wanted <= MIN_SPAN)
    new_span = MIN_SPAN;
  else
    new_span = (guint64) llround (wanted);

  /* The anchor's distance to the start scales with the span. */
  offset = (double) _sps_time_sub (anchor, self->visible_start) * ((double) new_span / (double) span);
  start = _sps_time_sub (anchor, (SpsTime) llround (offset));

  apply_window (self, start, new_span);
}

/**
 * sps_session_pan:
 * @self: a #SpsSession
 * @delta: how far to move the window, in ns (negative: earlier)
 *
 * Moves the window by @delta, keeping its span, and stops at the bounds.
 */
void
sps_session_pan (SpsSession *self,
                 SpsTime     delta)
{
  guint64 span;
  SpsTime start;

  g_return_if_fail (SPS_IS_SESSION (self));

  span = _sps_time_span (self->visible_start, self->visible_end);
  start = _sps_time_add (self->visible_start, delta);

  apply_window (self, start, span);
}

/**
 * sps_session_fit:
 * @self: a #SpsSession
 *
 * Fits the selection (a slice or a stack chart's box, with 10 % of its
 * duration as margin on each side; an instant or a sample is centred at
 * the current zoom), or else the range selection, or else the whole
 * trace.
 */
void
sps_session_fit (SpsSession *self)
{
  g_return_if_fail (SPS_IS_SESSION (self));

  if (self->selection.kind == SPS_SELECTION_INSTANT || self->selection.kind == SPS_SELECTION_SAMPLE)
    centre_on (self, self->selection.start);
  else if (self->selection.kind != SPS_SELECTION_NONE)
    fit_span (self, self->selection.start, self->selection.end);
  else if (self->has_range)
    apply_window (self, self->range_start, _sps_time_span (self->range_start, self->range_end));
  else
    sps_session_fit_trace (self);
}

/**
 * sps_session_fit_trace:
 * @self: a #SpsSession
 *
 * Shows the whole trace, from its first to its last timestamp.
 */
void
sps_session_fit_trace (SpsSession *self)
{
  SpsTime start;
  SpsTime end;

  g_return_if_fail (SPS_IS_SESSION (self));

  start = sps_trace_get_start_time (self->trace);
  end = sps_trace_get_end_time (self->trace);

  apply_window (self, start, _sps_time_span (start, MAX (start, end)));
}

/**
 * sps_session_go_to_time:
 * @self: a #SpsSession
 * @time: a time in ns
 *
 * Centres the window on @time, keeping the zoom. Near the ends of the
 * trace the clamping may leave @time off-centre.
 */
void
sps_session_go_to_time (SpsSession *self,
                        SpsTime     time)
{
  g_return_if_fail (SPS_IS_SESSION (self));

  centre_on (self, time);
}

/**
 * sps_session_get_range:
 * @self: a #SpsSession
 * @start: (out) (optional): the start of the range, in ns
 * @end: (out) (optional): the end of the range, in ns
 *
 * Gets the time range selection. Without one, @start and @end are set
 * to 0.
 *
 * Returns: %TRUE if a range is selected
 */
gboolean
sps_session_get_range (SpsSession *self,
                       SpsTime    *start,
                       SpsTime    *end)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), FALSE);

  if (start != NULL)
    *start = self->has_range ? self->range_start : 0;
  if (end != NULL)
    *end = self->has_range ? self->range_end : 0;

  return self->has_range;
}

/**
 * sps_session_set_range:
 * @self: a #SpsSession
 * @start: one end of the range, in ns
 * @end: the other end, in ns
 *
 * Selects the time range between @start and @end, in either order (a
 * drag may go right to left).
 */
void
sps_session_set_range (SpsSession *self,
                       SpsTime     start,
                       SpsTime     end)
{
  g_return_if_fail (SPS_IS_SESSION (self));

  if (end < start)
    {
      SpsTime tmp = start;

      start = end;
      end = tmp;
    }

  g_object_freeze_notify (G_OBJECT (self));

  if (self->range_start != start)
    {
      self->range_start = start;
      g_object_notify_by_pspec (G_OBJECT (self), _sps_session_properties[PROP_RANGE_START]);
    }

  if (self->range_end != end)
    {
      self->range_end = end;
      g_object_notify_by_pspec (G_OBJECT (self), _sps_session_properties[PROP_RANGE_END]);
    }

  if (!self->has_range)
    {
      self->has_range = TRUE;
      g_object_notify_by_pspec (G_OBJECT (self), _sps_session_properties[PROP_HAS_RANGE]);
    }

  g_object_thaw_notify (G_OBJECT (self));
}

/**
 * sps_session_clear_range:
 * @self: a #SpsSession
 *
 * Removes the time range selection. "range-start" and "range-end" keep
 * their last values; they only mean something while "has-range" is set.
 */
void
sps_session_clear_range (SpsSession *self)
{
  g_return_if_fail (SPS_IS_SESSION (self));

  if (!self->has_range)
    return;

  self->has_range = FALSE;
  g_object_notify_by_pspec (G_OBJECT (self), _sps_session_properties[PROP_HAS_RANGE]);
}
