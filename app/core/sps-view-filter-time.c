/* sps-view-filter-time.c: the time window and minimum duration of SpsViewFilter
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-view-filter"

#include "config.h"

#include <string.h>

#include "sps-trace-finish-private.h"
#include "sps-view-filter-private.h"

/* Slices fetched ahead by the minimum-duration update */
#define PREFETCH_DISTANCE 16

static inline gsize
slice_cell (SpsViewFilter *self,
            guint32        s)
{
  guint32 t = self->slices->track[s];

  return self->track_cells[t] + (gsize) self->slices->depth[s] * self->patterns->len + self->slice_pattern[s];
}

static inline gboolean
compute_in_window (SpsViewFilter *self,
                   guint32        s)
{
  SpsTime ts = self->slices->ts[s];
  SpsTime dur = self->slices->dur[s];
  SpsTime end;

  if (__builtin_add_overflow (ts, dur, &end))
    end = dur > 0 ? SPS_TIME_MAX : SPS_TIME_MIN;
  return self->window_start <= self->window_end &&
         ts <= self->window_end && end >= self->window_start;
}

static gboolean
rewindow_slice (SpsTrace *trace,
                guint     slice,
                gpointer  user_data)
{
  SpsViewFilter *self = user_data;
  gboolean in = compute_in_window (self, slice);

  if (self->in_window[slice] == in)
    return TRUE;
  self->in_window[slice] = in;
  /* The duration test is read from the column: no byte of its own */
  if (self->slices->dur[slice] >= self->min_duration)
    _sps_view_filter_count_cell (self, slice_cell (self, slice), in ? 1 : -1);
  return TRUE;
}

/* Re-evaluates every slice that intersects [a, b] (closed). */
static void
repass_interval (SpsViewFilter *self,
                 SpsTime        a,
                 SpsTime        b)
{
  /* foreach_slice_in_range() takes [start, end): widen by one on each side
   * so that closed ends and zero-length slices at a are all visited. */
  SpsTime start = a == SPS_TIME_MIN ? a : a - 1;
  SpsTime end = b == SPS_TIME_MAX ? b : b + 1;

  if (a > b)
    return;
  for (guint t = 0; t < self->tracks->n_rows; t++)
    if (_sps_view_filter_is_slice_track (self->tracks->kind[t]) &&
        self->tracks->n_rows_in_track[t] > 0)
      sps_trace_foreach_slice_in_range (self->trace, t, start, end, rewindow_slice, self);
}

/* Slices whose test changes between two windows intersect one of them and
 * not the other, so they intersect the part of one outside the other. */
static void
repass_difference (SpsViewFilter *self,
                   SpsTime        s1,
                   SpsTime        e1,
                   SpsTime        s2,
                   SpsTime        e2)
{
  if (s1 > e1)
    return;
  if (s2 > e2 || e2 < s1 || s2 > e1)
    {
      repass_interval (self, s1, e1);
      return;
    }
  if (s1 < s2)
    repass_interval (self, s1, s2 - 1);
  if (e1 > e2)
    repass_interval (self, e2 + 1, e1);
}

/**
 * sps_view_filter_set_window:
 * @self: a #SpsViewFilter
 * @start: inclusive start, ns
 * @end: inclusive end, ns
 *
 * A slice participates when [ts, ts + dur] intersects [@start, @end]. An
 * inverted window (@start > @end) lets nothing through. Costs the slices
 * that intersect the part of either window outside the other.
 */
void
sps_view_filter_set_window (SpsViewFilter *self,
                            SpsTime        start,
                            SpsTime        end)
{
  SpsTime old_start;
  SpsTime old_end;

  g_return_if_fail (SPS_IS_VIEW_FILTER (self));

  if (start == self->window_start && end == self->window_end)
    return;

  old_start = self->window_start;
  old_end = self->window_end;
  self->window_start = start;
  self->window_end = end;

  repass_difference (self, old_start, old_end, start, end);
  repass_difference (self, start, end, old_start, old_end);
  _sps_view_filter_changed (self);
}

/**
 * sps_view_filter_get_window:
 * @self: a #SpsViewFilter
 * @start: (out) (optional): inclusive start
 * @end: (out) (optional): inclusive end
 *
 * The window; %SPS_TIME_MIN, %SPS_TIME_MAX when unbounded.
 */
void
sps_view_filter_get_window (SpsViewFilter *self,
                            SpsTime       *start,
                            SpsTime       *end)
{
  g_return_if_fail (SPS_IS_VIEW_FILTER (self));

  if (start != NULL)
    *start = self->window_start;
  if (end != NULL)
    *end = self->window_end;
}

/* First position in dur_order whose duration is ≥ @d */
static guint
lower_bound_duration (SpsViewFilter *self,
                      SpsTime        d)
{
  guint lo = 0;
  guint hi = self->slices->n_rows;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->slices->dur[self->dur_order[mid]] < d)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/**
 * sps_view_filter_set_min_duration:
 * @self: a #SpsViewFilter
 * @min_duration: the shortest duration shown, ns
 *
 * Hides slices shorter than @min_duration. The first call sorts the slices
 * by duration once; later changes cost the slices whose duration lies
 * between the old and new minimum.
 */
void
sps_view_filter_set_min_duration (SpsViewFilter *self,
                                  SpsTime        min_duration)
{
  SpsTime old;
  SpsTime lo;
  SpsTime hi;
  guint a;
  guint b;
  int delta;

  g_return_if_fail (SPS_IS_VIEW_FILTER (self));

  if (min_duration == self->min_duration)
    return;

  if (self->dur_order == NULL)
    {
      guint n = self->slices->n_rows;

      self->dur_order = g_new (guint32, MAX (n, 1));
      for (guint i = 0; i < n; i++)
        self->dur_order[i] = i;
      /* By duration, ties in row order: finish()'s radix sort (qsort()
       * made the first change of a 5e6-event trace wait half a second) */
      _sps_sort_rows_by_time (self->dur_order, self->slices->dur, n);
    }

  if (self->dur_cell == NULL)
    {
      guint n = self->slices->n_rows;

      g_autofree guint32 *row_cell = g_new (guint32, MAX (n, 1));

      /* Each row's cell in row order, then gathered: one scattered read a
       * row instead of the three slice_cell() makes */
      for (guint i = 0; i < n; i++)
        row_cell[i] = slice_cell (self, i);
      self->dur_cell = g_new (guint32, MAX (n, 1));
      for (guint i = 0; i < n; i++)
        self->dur_cell[i] = row_cell[self->dur_order[i]];
    }

  old = self->min_duration;
  lo = MIN (min_duration, self->min_duration);
  hi = MAX (min_duration, self->min_duration);
  self->min_duration = min_duration;

  a = lower_bound_duration (self, lo);
  b = lower_bound_duration (self, hi);

  /* Exactly the slices with lo ≤ dur < hi change their duration test,
   * all the same way. Only those in the window count; their cells are
   * kept in duration order, so this reads two sequential arrays and one
   * byte per slice. */
  delta = min_duration < old ? 1 : -1;
  for (guint i = a; i < b; i++)
    {
      if (i + PREFETCH_DISTANCE < b)
        __builtin_prefetch (&self->in_window[self->dur_order[i + PREFETCH_DISTANCE]]);
      if (self->in_window[self->dur_order[i]])
        _sps_view_filter_count_cell (self, self->dur_cell[i], delta);
    }
  _sps_view_filter_changed (self);
}

/**
 * sps_view_filter_get_min_duration:
 * @self: a #SpsViewFilter
 *
 * Returns: the shortest duration shown, ns
 */
SpsTime
sps_view_filter_get_min_duration (SpsViewFilter *self)
{
  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), 0);

  return self->min_duration;
}

