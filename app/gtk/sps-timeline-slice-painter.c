/* sps-timeline-slice-painter.c: slice lanes
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-timeline"

#include "config.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include <spanscope-core.h>
#include "sps-timeline-private.h"

/* Size of the tile that hatches sampled spans */
#define HATCH_TILE           6

typedef struct
{
  SpsTimeline               *self;
  const SpsTimelineGeometry *g;
  const SpsSliceTable       *slices;
  const SpsTimelineArea     *area;
  SpsTimelineCanvas          strip;
  gboolean                   drawn;
  GPtrArray                 *overlay;
  float                      y;
  float                      height;
  gboolean                   labels;
  float                      text_y;
  gboolean                   search;   /* outline the search's hits */
  const SpsTimelineRow      *row;
  gboolean                   mosaic;   /* merged runs as a mosaic */
  /* Whether the lane holds sampled spans; the flags of other slices are
   * only read for those that reach the end of the trace (where the
   * unfinished ones end), so that drawing a slice reads nothing from the
   * slice table. */
  gboolean                   sampled;
  SpsTime                    trace_end;
  /* The pending run of sub-pixel items, in px */
  gboolean                   pending;
  double                     px0;
  double                     px1;
  guint32                    dominant_name;
  SpsTime                    dominant_length;
  /* For the diagnostics panel (SpsTimelineStats) */
  guint                      n_drawn;
  guint                      n_merged;
} LaneDraw;

/* Merged runs wider than this many px are drawn column by column */
#define MOSAIC_MIN_WIDTH 3

/* Columns [@left, @right) covered by a run of merged slices, in the
 * merged (paler) colour of their names. A narrow run takes the colour of
 * its longest slice (@name); a wider one is a mosaic, as Perfetto draws
 * a zoomed-out track: each column the colour of the slice at its middle
 * (the one covering most of it, mostly), or of the column before where
 * it falls in a gap, so that a run of many short slices no longer reads
 * as one long slice. O(columns × log slices), never labelled; only in
 * tiles and untiled frames (see paint_slice_lane()). */
static void
fill_coverage (LaneDraw *d,
               int       left,
               int       right,
               guint32   name)
{
  SpsTimeline *self = d->self;
  const SpsTimelineArea *a = d->area;
  SpsTime half = (SpsTime) ceil (d->g->ns_per_px / 2);
  int from, to;

  if (!d->mosaic || right - left <= MOSAIC_MIN_WIDTH)
    {
      _sps_timeline_canvas_fill_columns (&d->strip, left, right, self->style.merged_pixel[_sps_timeline_name_color (self, name)]);
      return;
    }

  from = MAX (left, 0);
  to = MIN (right, a->width);
  for (int x = from; x < to;)
    {
      guint32 pixel = 0;
      int end = x;

      do
        {
          SpsTime t = _sps_time_offset (a->base, (a->base_px + end + 0.5) * d->g->ns_per_px);
          guint slice = _sps_timeline_lod_slice_at (self->lod, d->row->track, d->row->depth, t, half);
          guint32 column_name = slice != SPS_NO_INDEX ? d->slices->name[slice] : name;

          if (end == x)
            {
              name = column_name;
              pixel = self->style.merged_pixel[_sps_timeline_name_color (self, name)];
            }
          else if (column_name != name)
            {
              break;
            }
          end++;
        }
      while (end < to);

      _sps_timeline_canvas_fill_columns (&d->strip, x, end, pixel);
      x = end;
    }
}

static void
flush_merged (LaneDraw *d)
{
  int left;
  int right;

  if (!d->pending)
    return;

  left = _sps_timeline_floor_px (d->px0);
  right = MAX (left + 1, -_sps_timeline_floor_px (-d->px1));
  fill_coverage (d, left, right, d->dominant_name);
  d->drawn = TRUE;
  d->pending = FALSE;
}

static GskRenderNode *
get_hatch_tile (SpsTimeline *self,
                guint        color)
{
  if (self->hatch_tiles[color] == NULL)
    {
      GskRenderNode *dots[3];

      /* A diagonal of three 2×2 squares in a 6×6 tile */
      for (guint i = 0; i < 3; i++)
        dots[i] = gsk_color_node_new (&self->style.area[color],
                                      &GRAPHENE_RECT_INIT (2 * i, HATCH_TILE - 2 - 2 * i, 2, 2));
      self->hatch_tiles[color] = gsk_container_node_new (dots, 3);
      for (guint i = 0; i < 3; i++)
        gsk_render_node_unref (dots[i]);
    }

  return self->hatch_tiles[color];
}

static void
outline_hit (LaneDraw *d,
             int       left,
             int       right)
{
  const GdkRGBA *accent = &d->self->style.accent;
  int x0 = MAX (left, 0);
  int x1 = MIN (right, d->area->width);

  g_ptr_array_add (d->overlay, gsk_color_node_new (accent, &GRAPHENE_RECT_INIT (x0, d->y, x1 - x0, 1)));
  g_ptr_array_add (d->overlay, gsk_color_node_new (accent, &GRAPHENE_RECT_INIT (x0, d->y + d->height - 1, x1 - x0, 1)));
  if (left >= 0)
    g_ptr_array_add (d->overlay, gsk_color_node_new (accent, &GRAPHENE_RECT_INIT (left, d->y, 1, d->height)));
  if (right <= d->area->width)
    g_ptr_array_add (d->overlay, gsk_color_node_new (accent, &GRAPHENE_RECT_INIT (right - 1, d->y, 1, d->height)));
}

static void
draw_slice (LaneDraw        *d,
            const SpsLodRun *run,
            double           x0,
            double           x1)
{
  SpsTimeline *self = d->self;
  int width = d->area->width;
  guint16 flags = SPS_SLICE_NONE;
  guint color = _sps_timeline_name_color (self, run->name);
  int left = _sps_timeline_round_px (CLAMP (x0, -2.0, width + 2.0));
  int right = _sps_timeline_round_px (CLAMP (x1, -2.0, width + 2.0));
  /* The slice's whole width, whatever part the area shows: what is
   * drawn on it (hatching, the notch) must not depend on where a tile
   * or the window cuts it */
  gint64 whole = MAX (_sps_timeline_round_any (x1) - _sps_timeline_round_any (x0), 1);
  int visible;

  if (d->sampled || run->end >= d->trace_end)
    flags = d->slices->flags[run->slice];

  if (right - left < 1)
    right = left + 1;
  /* A pixel of space between neighbours that are wide enough. */
  if (_sps_timeline_slice_keeps_gap (x0, x1))
    {
      right -= 1;
      whole -= 1;
    }

  d->drawn = TRUE;
  visible = MIN (right, width) - MAX (left, 0);

  if (flags & SPS_SLICE_SAMPLED)
    {
      /* Estimates: paler, and hatched when there is room */
      _sps_timeline_canvas_fill_columns (&d->strip, left, right, self->style.sampled_pixel[color]);
      if (visible > 0 && whole >= 6)
        {
          /* In phase with the trace's pixel grid, so that the dots move
           * with the slice and tiles meet without a seam: the cells are
           * the hatch tile whole (a repeat node's child bounds choose
           * which part of the child is repeated, they do not shift it),
           * and the pattern is moved to the grid by a translation */
          float phase = (float) fmod (d->area->base_px, HATCH_TILE);
          g_autoptr(GskRenderNode) hatch = NULL;

          if (phase < 0)
            phase += HATCH_TILE;
          hatch = gsk_repeat_node_new (&GRAPHENE_RECT_INIT (MAX (left, 0) + phase, d->y, visible, d->height),
                                       get_hatch_tile (self, color),
                                       &GRAPHENE_RECT_INIT (0, 0, HATCH_TILE, HATCH_TILE));
          _sps_timeline_add_translated (d->overlay, hatch, -phase, 0);
        }
    }
  else
    {
      _sps_timeline_canvas_fill_columns (&d->strip, left, right, self->style.fill_pixel[color]);
    }

  /* An unfinished slice ends where the trace ends: a dark notch there
   * says it had not ended. */
  if ((flags & SPS_SLICE_UNFINISHED) != 0 && whole >= 6 && x1 <= width + 1)
    {
      float w = MIN (4.f, whole / 3.f);

      g_ptr_array_add (d->overlay,
                       gsk_color_node_new (&self->style.shadow,
                                           &GRAPHENE_RECT_INIT (right - w, d->y, w, d->height)));
    }

  /* A hit of the search panel's text: a thin frame of the accent
   * colour (the selection's is 3 px), a whole column when narrower than
   * the frame, so that even a pixel-wide hit shows. Only the part in the
   * area is drawn, and a side only where the slice ends in it, so that
   * tiles meet without a seam. */
  if (d->search && visible >= 1 && sps_session_slice_matches_search (self->session, run->slice))
    outline_hit (d, left, right);

  /* A tile keeps a spot by the slice's whole width, not by its part in
   * the tile: the window may show more of it. place_label() decides. */
  if (d->labels && d->area->spots != NULL && x1 - x0 >= SPS_TIMELINE_MIN_LABEL_WIDTH - 1)
    {
      SpsTimelineLabelSpot spot = { x0 + d->area->base_px, x1 + d->area->base_px, run->name, run->slice };

      g_array_append_val (d->area->spots, spot);
    }
  else if (d->labels && d->area->spots == NULL && visible >= SPS_TIMELINE_MIN_LABEL_WIDTH)
    {
      int available = visible - 2 * SPS_TIMELINE_LABEL_PADDING;
      const SpsTimelineLabel *label = _sps_timeline_get_slice_label (self, run->name, available);

      if (label->node != NULL)
        _sps_timeline_add_translated (d->overlay, label->node, MAX (left, 0) + SPS_TIMELINE_LABEL_PADDING, d->text_y);
    }
}

/* The items of a coarse level, from the level's own array of records
 * (_sps_timeline_lod_runs_records()): what a zoomed-out frame spends its
 * time on, thousands of items a pixel or a few wide. Each is drawn as
 * paint_slice_lane() would, but at once: at the level drawn, short items
 * are further apart than a pixel (see _sps_timeline_draw_level()), so no
 * pending run would grow. Slice or run is chosen without a branch, which the
 * processor could not predict in a lane where the two alternate. Slices
 * that may need a label or a notch go through draw_slice(). */
static void
paint_lane_records (LaneDraw           *d,
                    const SpsLodRecord *records,
                    guint               n_records,
                    SpsTime             start,
                    SpsTime             end)
{
  SpsTimeline *self = d->self;
  const SpsTimelineArea *a = d->area;
  double px_per_ns = 1.0 / d->g->ns_per_px;
  double width = a->width;
  /* From this width on a slice may be labelled */
  double label_width = d->labels ? SPS_TIMELINE_MIN_LABEL_WIDTH - 2 : G_MAXDOUBLE;

  for (guint i = 0; i < n_records; i++)
    {
      const SpsLodRecord *r = &records[i];
      double x0, x1;
      guint color;
      gboolean single;
      int ls, rs, lr, rr;

      if (r->start >= end)
        break;
      if (G_UNLIKELY (r->end <= start) && !(r->end == r->start && r->start >= start))
        continue;

      x0 = _sps_time_distance (r->start, a->base) * px_per_ns - a->base_px;
      x1 = _sps_time_distance (r->end, a->base) * px_per_ns - a->base_px;
      single = r->last - r->first == 1 && x1 - x0 >= 1.0;
      d->n_drawn += single;
      d->n_merged += single ? 0 : r->last - r->first;

      if (single && (x1 - x0 >= label_width || r->end >= d->trace_end))
        {
          SpsLodRun run = { r->start, r->end, r->slice, 1, r->name };

          draw_slice (d, &run, x0, x1);
          continue;
        }

      color = _sps_timeline_name_color (self, r->name);

      /* As draw_slice() draws a slice */
      ls = _sps_timeline_round_px (CLAMP (x0, -2.0, width + 2.0));
      rs = _sps_timeline_round_px (CLAMP (x1, -2.0, width + 2.0));
      rs = MAX (rs, ls + 1);
      rs -= _sps_timeline_slice_keeps_gap (x0, x1);
      /* As flush_merged() draws a run */
      lr = _sps_timeline_floor_px (MAX (x0, -1.0));
      rr = MAX (lr + 1, -_sps_timeline_floor_px (-MIN (x1, width + 1.0)));

      if (G_UNLIKELY (!single && rr - lr > MOSAIC_MIN_WIDTH))
        fill_coverage (d, lr, rr, r->name);
      else
        _sps_timeline_canvas_fill_columns (&d->strip, single ? ls : lr, single ? rs : rr,
                    single ? self->style.fill_pixel[color] : self->style.merged_pixel[color]);
      d->drawn = TRUE;
    }
}

/* Paints the items of a slice lane in the area. */
static void
paint_slice_lane (SpsTimeline               *self,
                  const SpsTimelineGeometry *g,
                  const SpsTimelineArea     *a,
                  const SpsTimelineRow      *row,
                  SpsTimelinePaint          *paint)
{
  LaneDraw d = { 0, };
  SpsLodIter iter;
  SpsLodRun runs[128];
  const SpsLodRecord *records;
  guint n, n_records;
  double px_per_ns = 1.0 / g->ns_per_px;
  double right_edge = a->width + 1.0;
  /* Category filters: a run is skipped when its own (or, merged, its
   * longest) slice is hidden. */
  gboolean filtered = sps_session_has_filters (self->session);
  const char *search = sps_session_get_search_text (self->session);

  /* Labels and marks go on top of the strip, so they wait in their own
   * list until the strip is done. */
  d.self = self;
  d.g = g;
  d.slices = sps_trace_get_slices (self->trace);
  d.area = a;
  d.overlay = self->overlay_nodes;
  d.row = row;
  /* The mosaic costs a search a column: a zoom frame, which paints the
   * window at a new scale, draws runs in one colour, and the tiles built
   * once the scale rests (or every frame, below the tiled zooms) draw
   * the mosaic. */
  d.mosaic = a->spots != NULL || !g->tiled;
  d.y = 1;
  d.height = row->height - 2;
  d.labels = self->text_height <= d.height;
  d.text_y = floorf ((row->height - self->text_height) / 2.f);
  d.sampled = sps_trace_get_tracks (self->trace)->kind[row->track] == SPS_TRACK_THREAD_SAMPLED_SLICES;
  d.trace_end = sps_trace_get_end_time (self->trace);
  d.search = search != NULL && *search != '\0';
  _sps_timeline_canvas_init_strip (&d.strip, a->width, g->scale);

  /* A nanosecond of margin each side: items touching the edges of a
   * tile are drawn by both tiles, each its part. */
  _sps_timeline_lod_runs_init (self->lod, &iter, row->track, row->depth, _sps_timeline_draw_level (g),
                               _sps_time_sub (_sps_timeline_area_start (a, g), 1), _sps_time_add (_sps_timeline_area_end (a, g), 1));

  /* Sampled lanes read each slice's flags, filters each slice's
   * visibility and a search each slice's name: those take the general
   * path. A level that does not keep its items as records is read
   * through the lane's window when the whole window is drawn: the
   * frames of a zoom draw it again and again. (A tile is drawn once.) */
  if (!filtered && !d.sampled && !d.search)
    {
      records = _sps_timeline_lod_runs_records (&iter, &n_records);
      if (records == NULL && a->spots == NULL)
        records = _sps_timeline_lod_runs_window (self->lod, row->track, row->depth, _sps_timeline_draw_level (g),
                                                 _sps_time_sub (_sps_timeline_area_start (a, g), 1), _sps_time_add (_sps_timeline_area_end (a, g), 1), &n_records);
      if (records != NULL)
        {
          paint_lane_records (&d, records, n_records, _sps_time_sub (_sps_timeline_area_start (a, g), 1), _sps_time_add (_sps_timeline_area_end (a, g), 1));
          goto done;
        }
    }

  while ((n = _sps_timeline_lod_runs_next_n (&iter, runs, G_N_ELEMENTS (runs))) > 0)
    for (guint i = 0; i < n; i++)
      {
        const SpsLodRun *run = &runs[i];
        double x0 = _sps_time_distance (run->start, a->base) * px_per_ns - a->base_px;
        double x1 = _sps_time_distance (run->end, a->base) * px_per_ns - a->base_px;

        if (filtered && !_sps_timeline_row_shows_slice (self->session, row, run->slice))
          continue;

        if (run->count == 1 && x1 - x0 >= 1.0)
          {
            flush_merged (&d);
            draw_slice (&d, run, x0, x1);
            d.n_drawn++;
            continue;
          }
        d.n_merged += run->count;

        /* Narrower than a pixel, or merged already: join the pending run
         * when it touches it (within a pixel), else start a new one. The
         * run takes the colour of its longest item. (At the level drawn,
         * items are further apart than a pixel, so a run is usually drawn
         * at once, when the next item comes.) */
        if (d.pending && x0 <= d.px1 + 1.0)
          {
            d.px1 = MAX (d.px1, MIN (x1, right_edge));
            if (run->end - run->start > d.dominant_length)
              {
                d.dominant_name = run->name;
                d.dominant_length = run->end - run->start;
              }
          }
        else
          {
            flush_merged (&d);
            d.pending = TRUE;
            d.px0 = MAX (x0, -1.0);
            d.px1 = MIN (x1, right_edge);
            d.dominant_name = run->name;
            d.dominant_length = run->end - run->start;
          }
      }

  flush_merged (&d);

done:
  self->painted_items += d.n_drawn;
  self->merged_items += d.n_merged;
  self->painted_lanes++;
  paint->canvas = d.strip;
  paint->drawn = d.drawn;
  paint->y = d.y;
  paint->height = d.height;
}

/* The slice under (@x, @y), allowing 2 px of slack for thin ones; hidden
 * slices are not hit. */
static guint
slice_hit_test (const SpsTimelineSource   *source,
                const SpsTimelineGeometry *g,
                const SpsTimelineRow      *row,
                double                     x,
                double                     y)
{
  guint slice = _sps_timeline_lod_slice_at (source->lod, row->track, row->depth, _sps_timeline_x_to_time (g, x),
                                            (SpsTime) ceil (2 * g->ns_per_px));

  if (slice != SPS_NO_INDEX && !_sps_timeline_row_shows_slice (source->session, row, slice))
    return SPS_NO_INDEX;
  return slice;
}

/* Slices counted at most, for the tooltip of a merged pixel */
#define MAX_COUNTED 1000000

/* The slices of @row's lane in the pixel column at @x */
static guint
count_in_pixel (const SpsTimelineSource   *source,
                const SpsTimelineGeometry *g,
                const SpsTimelineRow      *row,
                double                     x)
{
  SpsLodIter iter;
  SpsLodRun run;
  guint n = 0;

  _sps_timeline_lod_runs_init (source->lod, &iter, row->track, row->depth, 0,
                               _sps_timeline_x_to_time (g, floor (x)), _sps_timeline_x_to_time (g, floor (x) + 1));
  while (n < MAX_COUNTED && _sps_timeline_lod_runs_next (&iter, &run))
    n += run.count;
  return n;
}

/* Its name, duration and self time */
static char *
slice_tooltip (const SpsTimelineSource   *source,
               const SpsTimelineGeometry *g,
               const SpsTimelineRow      *row,
               guint                      slice,
               double                     x)
{
  const SpsSliceTable *slices = sps_trace_get_slices (source->trace);
  g_autofree char *dur = NULL;
  g_autofree char *self_time = NULL;
  const char *name;
  guint16 flags;

  name = _sps_timeline_string_or (source->trace, slices->name[slice], _("(unnamed)"));
  flags = slices->flags[slice];

  /* Narrower than a pixel: drawn merged with its neighbours, so the
   * tooltip says what the pointer's pixel merges */
  if ((double) slices->dur[slice] < g->ns_per_px)
    {
      guint n = count_in_pixel (source, g, row, x);

      if (n > 1)
        /* Translators: the tooltip of a zoomed-out stretch where many short
         * slices are drawn as one; %s is the name of one of them */
        return g_markup_printf_escaped (g_dngettext (GETTEXT_PACKAGE, "<b>%u slice merged</b>\nMostly %s here; zoom in to see each",
                                                     "<b>%u slices merged</b>\nMostly %s here; zoom in to see each", n),
                                        n, name);
    }

  dur = sps_time_format (slices->dur[slice]);
  self_time = sps_time_format (slices->self_time[slice]);

  if (flags & SPS_SLICE_SAMPLED)
    /* TRANSLATORS: sampled spans are estimated from stack samples */
    return g_markup_printf_escaped (_("<b>%s</b>\nDuration: ~%s (estimate from samples)\nSelf time: ~%s (estimate)"),
                                    name, dur, self_time);
  if (flags & SPS_SLICE_UNFINISHED)
    return g_markup_printf_escaped (_("<b>%s</b>\nDuration: at least %s (did not end)\nSelf time: %s"),
                                    name, dur, self_time);
  return g_markup_printf_escaped (_("<b>%s</b>\nDuration: %s\nSelf time: %s"), name, dur, self_time);
}

const SpsTimelinePainter _sps_timeline_slice_painter = {
  .name = "slices",
  .paint = paint_slice_lane,
  .hit_test = slice_hit_test,
  .tooltip = slice_tooltip,
};
