/* sps-timeline-stack-painter.c: the lanes of a thread's stack chart
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-timeline"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include <spanscope-core.h>
#include "sps-timeline-private.h"

/*
 * One lane per depth of the boxes of sps-timeline-stacks.c, drawn from
 * the lane's level of detail for the scale (_sps_timeline_stacks_get_runs()):
 * one binary search for the area's start, then its runs in order, at
 * most one per pixel and one per change of colour, whatever the number
 * of boxes. A box a pixel wide or more is
 * drawn as a box (labelled when there is room); a run of merged boxes,
 * or a box narrower than a pixel, fills its columns in the lighter
 * "merged" colour of its first box. So a zoomed-out lane of millions of
 * boxes costs a few hundred runs, and reads as covered where samples
 * are, empty where none are.
 */

/* The first of @runs ending after @t */
static guint
first_run_after (const SpsTimelineStackRun *runs,
                 guint                      n,
                 SpsTime                    t)
{
  guint lo = 0;
  guint hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (runs[mid].end <= t)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

static void
paint_stack (SpsTimeline               *self,
             const SpsTimelineGeometry *g,
             const SpsTimelineArea     *a,
             const SpsTimelineRow      *row,
             SpsTimelinePaint          *paint)
{
  guint n;
  const SpsTimelineStackRun *runs = _sps_timeline_stacks_get_runs (self->stacks, row->track, row->depth,
                                                                   _sps_timeline_lod_level_for_resolution (g->ns_per_px),
                                                                   _sps_timeline_area_start (a, g),
                                                                   _sps_timeline_area_end (a, g), &n);
  double px_per_ns = 1.0 / g->ns_per_px;
  gboolean labels = self->text_height <= row->height - 2;
  float text_y = floorf ((row->height - self->text_height) / 2.f);
  int x = 0;

  _sps_timeline_canvas_init_strip (&paint->canvas, a->width, g->scale);
  paint->y = 1;
  paint->height = row->height - 2;

  for (guint i = first_run_after (runs, n, _sps_timeline_area_start (a, g)); i < n && x < a->width; i++)
    {
      const SpsTimelineStackRun *run = &runs[i];
      double x0 = _sps_time_distance (run->start, a->base) * px_per_ns - a->base_px;
      double x1 = _sps_time_distance (run->end, a->base) * px_per_ns - a->base_px;
      guint32 name;
      guint color;

      if (x0 >= a->width)
        break;

      name = run->name;
      color = _sps_timeline_name_color (self, name);

      if (run->n_boxes == 1 && x1 - x0 >= 1.0)
        {
          gint64 left = MAX (_sps_timeline_round_any (x0), x);
          gint64 end = _sps_timeline_round_any (x1);
          gint64 right = MIN (end, a->width);
          /* The pixel of space is at the box's end, not where the area
           * cuts it: a tile that ends inside the box fills its last
           * column, as the window does */
          gint64 fill_right = MIN (_sps_timeline_slice_keeps_gap (x0, x1) ? end - 1 : end, a->width);

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
              SpsTimelineLabelSpot spot = { x0 + a->base_px, x1 + a->base_px, name, run->box };

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
        }
      else
        {
          /* Narrower than a pixel, or merged: its columns (at least the
           * first it reaches in the area) in the merged colour */
          gint64 left = MAX (_sps_timeline_round_any (floor (x0)), x);
          gint64 right = MIN (MAX (_sps_timeline_round_any (ceil (x1)), left + 1), a->width);

          if (left >= a->width)
            break;
          _sps_timeline_canvas_fill_columns (&paint->canvas, left, right, self->style.merged_pixel[color]);
          paint->drawn = TRUE;
          x = right;
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

  name = g_markup_escape_text (_sps_timeline_string_or (trace, _sps_timeline_stacks_box_name (trace, b), "?"), -1);
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
