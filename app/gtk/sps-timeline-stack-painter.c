/* sps-timeline-stack-painter.c: the lanes of a thread's stack chart
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-timeline"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "sps-time-format.h"
#include "sps-timeline-private.h"

/*
 * One lane per depth of the boxes of sps-timeline-stacks.c. A frame
 * costs a binary search per pixel column at most, whatever the number of
 * boxes: a box a pixel wide or more is drawn as a box (labelled when
 * there is room), and a column whose boxes are all narrower than a pixel
 * is filled once, in the lighter "merged" colour of the first of them,
 * after which the search jumps to the next column. So a zoomed-out lane
 * of millions of boxes draws as a few hundred runs, and reads as covered
 * where samples are, empty where none are.
 */

/* The first box of @boxes[@from..@n) ending after @t: galloping from
 * @from, since the next column's box is usually a few boxes on, so a
 * zoomed-out frame touches a few nearby boxes per column instead of a
 * whole binary search's worth. */
static guint
first_box_after (const SpsTimelineStackBox *boxes,
                 guint                      from,
                 guint                      n,
                 SpsTime                    t)
{
  guint bound = 1;
  guint lo;
  guint hi;

  if (from >= n || boxes[from].end > t)
    return from;

  /* boxes[from + bound / 2].end <= t throughout */
  while (bound < n - from && boxes[from + bound].end <= t)
    bound *= 2;
  lo = from + bound / 2 + 1;
  hi = bound < n - from ? from + bound : n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (boxes[mid].end <= t)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

static guint32
box_name (SpsTrace                  *trace,
          const SpsTimelineStackBox *box)
{
  const SpsCallsiteTable *callsites = sps_trace_get_callsites (trace);
  const SpsFrameTable *frames = sps_trace_get_frames (trace);
  guint32 frame = callsites->frame[box->callsite];

  return frame < frames->n_rows ? frames->name[frame] : 0;
}

static void
paint_stack (SpsTimeline               *self,
             const SpsTimelineGeometry *g,
             const SpsTimelineArea     *a,
             const SpsTimelineRow      *row,
             SpsTimelinePaint          *paint)
{
  guint n;
  const SpsTimelineStackBox *boxes = _sps_timeline_stacks_get_boxes (self->stacks, row->track, row->depth, &n);
  double px_per_ns = 1.0 / g->ns_per_px;
  gboolean labels = self->text_height <= row->height - 2;
  float text_y = floorf ((row->height - self->text_height) / 2.f);
  guint i = 0;
  int x = 0;

  _sps_timeline_canvas_init_strip (&paint->canvas, a->width, g->scale);
  paint->y = 1;
  paint->height = row->height - 2;

  while (x < a->width && i < n)
    {
      SpsTime t = _sps_time_offset (a->base, floor ((a->base_px + x) * g->ns_per_px));
      const SpsTimelineStackBox *box;
      double x0, x1;
      guint32 name;
      guint color;

      i = first_box_after (boxes, i, n, t);
      if (i >= n)
        break;

      box = &boxes[i];
      x0 = _sps_time_distance (box->start, a->base) * px_per_ns - a->base_px;
      x1 = _sps_time_distance (box->end, a->base) * px_per_ns - a->base_px;
      if (x0 >= a->width)
        break;

      name = box_name (self->trace, box);
      color = _sps_timeline_name_color (self, name);

      if (x1 - x0 >= 1.0)
        {
          gint64 left = MAX (_sps_timeline_round_any (x0), x);
          gint64 right = MIN (_sps_timeline_round_any (x1), a->width);
          gint64 fill_right = _sps_timeline_slice_keeps_gap (x0, x1) ? right - 1 : right;

          if (fill_right > left)
            {
              _sps_timeline_canvas_fill_columns (&paint->canvas, left, fill_right, self->style.fill_pixel[color]);
              paint->drawn = TRUE;
            }

          /* In a tile, where a label may go (the tile's row places it,
           * as for slices, by the box's whole width); in the window, the
           * label now */
          if (labels && a->spots != NULL && x1 - x0 >= SPS_TIMELINE_MIN_LABEL_WIDTH - 1)
            {
              SpsTimelineLabelSpot spot = { x0 + a->base_px, x1 + a->base_px, name, i };

              g_array_append_val (a->spots, spot);
            }
          else if (labels && a->spots == NULL && fill_right - left >= SPS_TIMELINE_MIN_LABEL_WIDTH)
            {
              int available = fill_right - left - 2 * SPS_TIMELINE_LABEL_PADDING;
              const SpsTimelineLabel *label = _sps_timeline_get_slice_label (self, name, available);

              if (label->node != NULL)
                _sps_timeline_add_translated (self->overlay_nodes, label->node,
                                              left + SPS_TIMELINE_LABEL_PADDING, text_y);
            }

          x = MAX (x, right);
          i++;
        }
      else
        {
          /* Narrower than a pixel: its column (or the first column it
           * reaches in the area) in the merged colour, once. */
          int column = MAX (x, (int) MIN (_sps_timeline_round_any (floor (x0)), a->width));

          if (column >= a->width)
            break;
          _sps_timeline_canvas_fill_columns (&paint->canvas, column, column + 1, self->style.merged_pixel[color]);
          paint->drawn = TRUE;
          x = column + 1;
        }
    }
}

static guint
stack_hit_test (const SpsTimelineSource   *source,
                const SpsTimelineGeometry *g,
                const SpsTimelineRow      *row,
                double                     x,
                double                     y)
{
  if (source->stacks == NULL)
    return SPS_NO_INDEX;

  return _sps_timeline_stacks_find_box (source->stacks, row->track, row->depth, _sps_timeline_x_to_time (g, x));
}

/**
 * _sps_timeline_stack_box_markup:
 * @trace: a trace
 * @stacks: its stack charts
 * @track: a sample track
 * @depth: a depth of its chart
 * @box: a box of @depth
 *
 * Returns: (transfer full): the frame's name, the box's number of
 *   samples, their estimated CPU time (when their weights have a time
 *   unit), and the times of its first and last samples, as markup
 */
char *
_sps_timeline_stack_box_markup (SpsTrace          *trace,
                                SpsTimelineStacks *stacks,
                                guint32            track,
                                guint              depth,
                                guint              box)
{
  const SpsSampleTable *samples = _sps_timeline_stacks_get_samples (stacks);
  const SpsTimelineStackBox *b;
  SpsTime origin = sps_trace_get_start_time (trace);
  g_autofree char *first = NULL;
  g_autofree char *last = NULL;
  g_autofree char *span = NULL;
  g_autofree char *name = NULL;
  GString *out = g_string_new (NULL);
  double cpu = 0;
  guint n_estimated;
  guint n;

  b = _sps_timeline_stacks_get_boxes (stacks, track, depth, &n);
  g_return_val_if_fail (box < n, NULL);
  b = &b[box];

  n_estimated = _sps_timeline_stacks_estimate_cpu (samples, b->first_sample, b->n_samples, &cpu);

  first = sps_time_format_duration (_sps_time_sub (samples->ts[b->first_sample], origin), 3);
  last = sps_time_format_duration (_sps_time_sub (samples->ts[b->first_sample + b->n_samples - 1], origin), 3);
  span = sps_time_format_duration (_sps_time_sub (b->end, b->start), 3);

  name = g_markup_escape_text (_sps_timeline_string_or (trace, box_name (trace, b), "?"), -1);
  g_string_append_printf (out, "<b>%s</b>\n", name);
  /* Translators: a box of the stack chart of samples: how many
   * consecutive samples have this frame, and how long they span */
  g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "%u sample over %s", "%u samples over %s", b->n_samples),
                          b->n_samples, span);
  if (n_estimated > 0)
    {
      g_autofree char *cpu_text = sps_time_format_duration ((SpsTime) MIN (cpu, 9e18), 3);

      /* Translators: the CPU time estimated from the samples' weights */
      g_string_append_printf (out, _("\nEstimated CPU: %s"), cpu_text);
    }
  /* Translators: times of a box's first and last samples, from the start
   * of the trace */
  g_string_append_printf (out, _("\nFirst sample at %s, last at %s"), first, last);

  return g_string_free (out, FALSE);
}

static char *
stack_tooltip (const SpsTimelineSource   *source,
               const SpsTimelineGeometry *g,
               const SpsTimelineRow      *row,
               guint                      box,
               double                     x)
{
  return _sps_timeline_stack_box_markup (source->trace, source->stacks, row->track, row->depth, box);
}

const SpsTimelinePainter _sps_timeline_stack_painter = {
  .name = "stack",
  .paint = paint_stack,
  .hit_test = stack_hit_test,
  .tooltip = stack_tooltip,
};
