/* sps-timeline-draw.c: a frame of the timeline: rows, overlays, ruler
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-timeline"

#include "config.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include <spanscope-core.h>
#include "sps-timeline-private.h"

/* The rectangle of [@x0, @x1) of row @index in widget coordinates,
 * clipped to the tracks. */
static gboolean
row_span_area (SpsTimeline               *self,
               const SpsTimelineGeometry *g,
               guint                      index,
               double                     x0,
               double                     x1,
               graphene_rect_t           *area)
{
  const SpsTimelineRow *row;
  float left, right, top, bottom;
  int area_top, area_bottom;

  if (index == SPS_NO_INDEX)
    return FALSE;

  row = _sps_timeline_layout_get_row (self->layout, index);
  left = roundf ((float) CLAMP (x0, g->gutter - 2.0, g->width + 2.0));
  right = roundf ((float) CLAMP (x1, g->gutter - 2.0, g->width + 2.0));
  if (right - left < 1)
    right = left + 1;
  if (_sps_timeline_slice_keeps_gap (x0, x1))
    right -= 1;

  left = MAX (left, (float) g->gutter);
  right = MIN (right, (float) g->width);
  /* Within the row's area: the pinned band, or the rows below it */
  _sps_timeline_row_bounds (g, row, &area_top, &area_bottom);
  top = MAX ((float) _sps_timeline_row_top (g, row) + 1, (float) area_top);
  bottom = MIN ((float) (_sps_timeline_row_top (g, row) + row->height - 1), (float) area_bottom);

  if (right <= left || bottom <= top)
    return FALSE;

  *area = GRAPHENE_RECT_INIT (left, top, right - left, bottom - top);

  return TRUE;
}

/* The rectangle of @slice in widget coordinates, clipped to the tracks. */
static gboolean
slice_area (SpsTimeline               *self,
            const SpsTimelineGeometry *g,
            guint                      slice,
            graphene_rect_t           *area)
{
  const SpsSliceTable *slices = sps_trace_get_slices (self->trace);

  if (self->layout == NULL || slice >= slices->n_rows)
    return FALSE;

  return row_span_area (self, g, _sps_timeline_layout_find_slice_row (self->layout, slice),
                        _sps_timeline_time_to_x (g, slices->ts[slice]),
                        _sps_timeline_time_to_x (g, slices->ts[slice] + slices->dur[slice]), area);
}

/* Half the width of the frame around a selected instant or sample, px */
#define POINT_SELECTION_HALF 4

/* The rectangle of what @sel selects: a slice or a stack chart's box as
 * drawn, an instant or sample as a small square around its time. */
static gboolean
selection_area (SpsTimeline               *self,
                const SpsTimelineGeometry *g,
                const SpsSelection        *sel,
                graphene_rect_t           *area)
{
  guint index;
  double x;

  if (self->layout == NULL || sel->kind == SPS_SELECTION_NONE)
    return FALSE;
  if (sel->kind == SPS_SELECTION_SLICE)
    return slice_area (self, g, sel->index, area);

  index = _sps_timeline_layout_find_track_row (self->layout, sel->track, 0);
  if (index == SPS_NO_INDEX)
    return FALSE;

  if (sel->kind == SPS_SELECTION_STACK_BOX)
    {
      const SpsTimelineRow *row;

      /* The chart's lanes follow the samples row, one per depth */
      index += 1 + sel->depth;
      if (index >= _sps_timeline_layout_get_n_rows (self->layout))
        return FALSE;
      row = _sps_timeline_layout_get_row (self->layout, index);
      if (row->kind != SPS_TIMELINE_ROW_STACK || row->track != sel->track || row->depth != sel->depth)
        return FALSE;
      return row_span_area (self, g, index, _sps_timeline_time_to_x (g, sel->start),
                            _sps_timeline_time_to_x (g, sel->end), area);
    }

  x = floor (_sps_timeline_time_to_x (g, sel->start));
  return row_span_area (self, g, index, x - POINT_SELECTION_HALF, x + POINT_SELECTION_HALF + 1, area);
}

static void
draw_outline (GtkSnapshot           *snapshot,
              const graphene_rect_t *rect,
              float                  width,
              const GdkRGBA         *color)
{
  GskRoundedRect outline;
  float widths[4] = { width, width, width, width };
  GdkRGBA colors[4] = { *color, *color, *color, *color };

  gsk_rounded_rect_init_from_rect (&outline, rect, 0);
  gtk_snapshot_append_border (snapshot, &outline, widths, colors);
}

/* Where the range selection and the badge with its duration go. */
typedef struct
{
  double  x0;
  double  x1;
  float   left;
  float   right;
  char   *text;
  float   badge_x;
  int     text_width;
  int     text_height;
} RangeView;

static gboolean
get_range_view (SpsTimeline               *self,
                const SpsTimelineGeometry *g,
                RangeView                 *r)
{
  SpsTime start, end;

  if (!sps_session_get_range (self->session, &start, &end))
    return FALSE;

  r->x0 = _sps_timeline_time_to_x (g, start);
  r->x1 = _sps_timeline_time_to_x (g, end);
  if (r->x1 < g->gutter || r->x0 > g->width)
    return FALSE;

  r->left = (float) MAX (r->x0, (double) g->gutter);
  r->right = MAX ((float) MIN (r->x1, (double) g->width), r->left + 1);

  r->text = sps_time_format ((SpsTime) MIN (_sps_time_span (start, end), (guint64) G_MAXINT64));
  pango_layout_set_text (self->text_layout, r->text, -1);
  pango_layout_get_pixel_size (self->text_layout, &r->text_width, &r->text_height);
  r->badge_x = (r->left + r->right - r->text_width) / 2;
  r->badge_x = CLAMP (r->badge_x, (float) g->gutter + 6, (float) g->width - r->text_width - 6);

  return TRUE;
}

static void
draw_range (SpsTimeline               *self,
            GtkSnapshot               *snapshot,
            const SpsTimelineGeometry *g,
            const RangeView           *r)
{
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (g->gutter, 0, g->track_width, g->height));
  gtk_snapshot_append_color (snapshot, &self->style.range,
                             &GRAPHENE_RECT_INIT (r->left, 0, r->right - r->left, g->height));
  if (r->x0 >= g->gutter)
    gtk_snapshot_append_color (snapshot, &self->style.accent,
                               &GRAPHENE_RECT_INIT (floorf ((float) r->x0), 0, 1, g->height));
  if (r->x1 <= g->width)
    gtk_snapshot_append_color (snapshot, &self->style.accent,
                               &GRAPHENE_RECT_INIT (floorf ((float) r->x1), 0, 1, g->height));

  /* Its duration, in a badge on the ruler (whose labels leave room) */
  pango_layout_set_text (self->text_layout, r->text, -1);
  gtk_snapshot_append_color (snapshot, &self->style.accent,
                             &GRAPHENE_RECT_INIT (r->badge_x - 4, 2, r->text_width + 8, g->ruler_height - 5));
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot,
                          &GRAPHENE_POINT_INIT (r->badge_x, floorf ((g->ruler_height - 1 - r->text_height) / 2.f)));
  gtk_snapshot_append_layout (snapshot, self->text_layout, &self->style.accent_text);
  gtk_snapshot_restore (snapshot);
  gtk_snapshot_pop (snapshot);
}

/* The row under widget y @y: in the pinned band, a pinned row; below it,
 * one of the scrolled rows; SPS_NO_INDEX on the ruler, the band's
 * separator or past the last row */
guint
_sps_timeline_hit_row (SpsTimeline               *self,
                       const SpsTimelineGeometry *g,
                       double                     y)
{
  int py = (int) floor (y);

  if (self->layout == NULL || y < g->ruler_height || y >= g->height)
    return SPS_NO_INDEX;

  if (py < _sps_timeline_tracks_top (g))
    {
      int content = py - g->ruler_height + g->pinned_scroll;

      if (py >= _sps_timeline_tracks_top (g) - SPS_TIMELINE_PIN_SEPARATOR || content >= g->pinned_height)
        return SPS_NO_INDEX;
      return _sps_timeline_layout_row_at_y (self->layout, content);
    }

  return _sps_timeline_layout_row_at_y (self->layout, py - _sps_timeline_tracks_top (g) + g->scroll);
}

static void
draw_counter_hover (SpsTimeline               *self,
                    GtkSnapshot               *snapshot,
                    const SpsTimelineGeometry *g)
{
  const SpsTimelineRow *row;
  guint index;
  double value;
  double lo, hi;
  float y;
  g_autofree char *text = NULL;
  g_autofree char *unit = NULL;
  int text_width = 0, text_height = 0;
  float tx;

  if (!self->pointer_inside || self->pointer_x < g->gutter || self->drag_mode != SPS_TIMELINE_DRAG_NONE ||
      self->lod == NULL)
    return;

  index = _sps_timeline_hit_row (self, g, self->pointer_y);
  if (index == SPS_NO_INDEX)
    return;
  row = _sps_timeline_layout_get_row (self->layout, index);
  if (row->kind != SPS_TIMELINE_ROW_COUNTER)
    return;

  if (!_sps_timeline_lod_get_counter_value (self->lod, row->track, _sps_timeline_x_to_time (g, self->pointer_x), &value) ||
      !_sps_timeline_counter_axis (self->lod, row->track, &lo, &hi))
    return;
  y = _sps_timeline_row_top (g, row) + 3 + (float) ((hi - value) / (hi - lo)) * (row->height - 5);

  gtk_snapshot_append_color (snapshot, &self->style.fg,
                             &GRAPHENE_RECT_INIT ((float) floor (self->pointer_x) - 2, floorf (y) - 2, 5, 5));

  unit = _sps_timeline_counter_dup_unit (self->trace, row->track);
  text = _sps_timeline_counter_format_value (value, unit);
  pango_layout_set_text (self->text_layout, text, -1);
  pango_layout_get_pixel_size (self->text_layout, &text_width, &text_height);
  tx = (float) self->pointer_x + 8;
  if (tx + text_width + 4 > g->width)
    tx = (float) self->pointer_x - 8 - text_width;
  gtk_snapshot_append_color (snapshot, &self->style.panel,
                             &GRAPHENE_RECT_INIT (tx - 3, _sps_timeline_row_top (g, row) + 1, text_width + 6, text_height));
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (tx, _sps_timeline_row_top (g, row) + 1));
  gtk_snapshot_append_layout (snapshot, self->text_layout, &self->style.fg);
  gtk_snapshot_restore (snapshot);
}

/* The background, and the grid lines under the tracks */
static void
draw_background (SpsTimeline               *self,
                 GtkSnapshot               *snapshot,
                 const SpsTimelineGeometry *g)
{
  gtk_snapshot_append_color (snapshot, &self->style.base, &GRAPHENE_RECT_INIT (0, 0, g->width, g->height));
  gtk_snapshot_append_color (snapshot, &self->style.panel,
                             &GRAPHENE_RECT_INIT (0, g->ruler_height, g->gutter, MAX (g->height - g->ruler_height, 0)));
}

static void
draw_grid (SpsTimeline               *self,
           GtkSnapshot               *snapshot,
           const SpsTimelineGeometry *g,
           const graphene_rect_t     *tracks_area,
           const SpsTimeRulerScale   *scale)
{
  gtk_snapshot_push_clip (snapshot, tracks_area);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (g->gutter, g->ruler_height));
  _sps_time_ruler_snapshot_grid (snapshot, scale, &self->style.grid, tracks_area->size.height);
  gtk_snapshot_restore (snapshot);
  gtk_snapshot_pop (snapshot);
}

/* Rows from @first on, while they start above @bottom and are among the
 * first @end rows: headers across the whole width, each row's cached
 * node in the tracks area, then the gutter's labels, within [@top,
 * @bottom). Returns the row after the last drawn. */
static guint
draw_row_range (SpsTimeline               *self,
                GtkSnapshot               *snapshot,
                const SpsTimelineGeometry *g,
                guint                      first,
                guint                      end,
                int                        top,
                int                        bottom)
{
  guint last = first;

  if (bottom <= top)
    return first;

  /* Headers and labels stay in their area (the band's or the rows'
   * below it); with nothing pinned the ruler, drawn last, covers what
   * reaches above, so the frame needs no clip node more */
  if (g->band > 0)
    gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, top, g->width, bottom - top));
  for (guint i = first; i < end; i++)
    {
      const SpsTimelineRow *row = _sps_timeline_layout_get_row (self->layout, i);
      int row_top = _sps_timeline_row_top (g, row);

      if (row_top >= bottom)
        break;
      last = i + 1;

      if (row->kind == SPS_TIMELINE_ROW_PROCESS)
        {
          gtk_snapshot_append_color (snapshot, &self->style.panel,
                                     &GRAPHENE_RECT_INIT (0, row_top, g->width, row->height));
          gtk_snapshot_append_color (snapshot, &self->style.border,
                                     &GRAPHENE_RECT_INIT (0, row_top, g->width, 1));
          continue;
        }

      if (row->flags & SPS_TIMELINE_ROW_FIRST)
        gtk_snapshot_append_color (snapshot, &self->style.border,
                                   &GRAPHENE_RECT_INIT (0, row_top, g->width, 1));
    }

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (g->gutter, top, g->track_width, bottom - top));
  for (guint i = first; i < last; i++)
    {
      const SpsTimelineRow *row = _sps_timeline_layout_get_row (self->layout, i);
      GskRenderNode *node;

      /* Headers are drawn above, and show nothing in the tracks */
      if (row->kind == SPS_TIMELINE_ROW_PROCESS)
        continue;

      node = _sps_timeline_get_row_node (self, i, row, g);
      if (node == NULL)
        continue;

      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (g->gutter, _sps_timeline_row_top (g, row)));
      gtk_snapshot_append_node (snapshot, node);
      gtk_snapshot_restore (snapshot);
    }
  _sps_timeline_draw_counter_axes (self, snapshot, g, first, last);
  gtk_snapshot_pop (snapshot);

  _sps_timeline_draw_gutter (self, snapshot, g, first, last);
  if (g->band > 0)
    gtk_snapshot_pop (snapshot);

  return last;
}

/* The line under the pinned band and, when its rows are higher than the
 * band, a thumb at its right edge saying which part of them shows */
static void
draw_band_edge (SpsTimeline               *self,
                GtkSnapshot               *snapshot,
                const SpsTimelineGeometry *g)
{
  int view = g->band - SPS_TIMELINE_PIN_SEPARATOR;

  gtk_snapshot_append_color (snapshot, &self->style.shadow,
                             &GRAPHENE_RECT_INIT (0, _sps_timeline_tracks_top (g) - SPS_TIMELINE_PIN_SEPARATOR,
                                                  g->width, SPS_TIMELINE_PIN_SEPARATOR));
  if (g->pinned_height > view && view > 0)
    {
      float length = MAX (view * (float) view / g->pinned_height, 6.f);
      float y = g->ruler_height + (view - length) * g->pinned_scroll / (float) (g->pinned_height - view);

      gtk_snapshot_append_color (snapshot, &self->style.dim,
                                 &GRAPHENE_RECT_INIT (g->width - 4, y, 3, length));
    }
}

/* The rows in view: the pinned band's, then the scrolled ones below it */
static void
draw_rows (SpsTimeline               *self,
           GtkSnapshot               *snapshot,
           const SpsTimelineGeometry *g,
           const graphene_rect_t     *tracks_area)
{
  guint n_rows = _sps_timeline_layout_get_n_rows (self->layout);
  guint n_pinned = _sps_timeline_layout_get_n_pinned_rows (self->layout);
  guint pinned_first = n_pinned;
  guint pinned_last = n_pinned;
  guint first;
  guint last;

  if (n_rows == 0 || tracks_area->size.height <= 0)
    return;

  if (n_pinned > 0)
    {
      pinned_first = _sps_timeline_layout_row_at_y (self->layout, g->pinned_scroll);
      pinned_last = draw_row_range (self, snapshot, g, pinned_first, n_pinned, g->ruler_height,
                                    MIN (_sps_timeline_tracks_top (g) - SPS_TIMELINE_PIN_SEPARATOR, g->height));
      draw_band_edge (self, snapshot, g);
    }

  first = _sps_timeline_layout_row_at_y (self->layout, g->scroll);
  if (first == SPS_NO_INDEX)
    first = n_rows;
  last = draw_row_range (self, snapshot, g, first, n_rows, _sps_timeline_tracks_top (g), g->height);

  /* Rows out of sight give their nodes back. */
  for (guint i = 0; i < self->n_row_cache; i++)
    if ((i < pinned_first || i >= pinned_last) && (i < first || i >= last) &&
        (self->row_cache[i].valid || self->row_cache[i].tiles != NULL))
      _sps_timeline_row_cache_clear (&self->row_cache[i]);

  /* The tiles to come, for the scrolled rows in view and the pinned ones */
  _sps_timeline_queue_prefetch (self, g, n_pinned > 0 ? pinned_first : first, last);
}

/* What the track area shows while the summaries are built ahead on
 * worker threads (sps-timeline.c, start_prepare()): a line saying so,
 * never rows drawn from anything else */
static void
draw_preparing (SpsTimeline               *self,
                GtkSnapshot               *snapshot,
                const graphene_rect_t     *tracks_area)
{
  int width, height;

  /* Translators: shown in the timeline while it prepares to draw a
   * large trace, usually for a second or less */
  pango_layout_set_text (self->text_layout, _("Preparing the timeline…"), -1);
  pango_layout_get_pixel_size (self->text_layout, &width, &height);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot,
                          &GRAPHENE_POINT_INIT (floorf (tracks_area->origin.x + (tracks_area->size.width - width) / 2),
                                                tracks_area->origin.y + 2 * height));
  gtk_snapshot_append_layout (snapshot, self->text_layout, &self->style.fg);
  gtk_snapshot_restore (snapshot);
}

/* Flows, selection and hover on top of the cached rows */
static void
draw_overlays (SpsTimeline               *self,
               GtkSnapshot               *snapshot,
               const SpsTimelineGeometry *g,
               const graphene_rect_t     *tracks_area)
{
  guint selected, hovered;
  graphene_rect_t rect;

  _sps_timeline_draw_flows (self, snapshot, g);

  gtk_snapshot_push_clip (snapshot, tracks_area);
  hovered = sps_session_get_hovered_slice (self->session);
  selected = sps_session_get_selected_slice (self->session);
  if (hovered != SPS_NO_INDEX && hovered != selected && slice_area (self, g, hovered, &rect))
    {
      gtk_snapshot_append_color (snapshot, &self->style.hover, &rect);
      draw_outline (snapshot, &rect, 1, &self->style.shadow);
    }
  if (selection_area (self, g, sps_session_get_selection (self->session), &rect))
    {
      graphene_rect_t outer;

      /* A frame of the accent colour over the slice's edge, a pixel
       * into the gap around it */
      graphene_rect_inset_r (&rect, -1, -1, &outer);
      draw_outline (snapshot, &outer, 3, &self->style.accent);
    }

  /* Where the pointer is in time */
  if (self->pointer_inside && self->pointer_x >= g->gutter && self->drag_mode != SPS_TIMELINE_DRAG_GUTTER)
    gtk_snapshot_append_color (snapshot, &self->style.grid,
                               &GRAPHENE_RECT_INIT ((float) floor (self->pointer_x), g->ruler_height,
                                                    1, tracks_area->size.height));
  draw_counter_hover (self, snapshot, g);
  gtk_snapshot_pop (snapshot);
}

/* The ruler with the range selection's badge, the corner above the
 * gutter and the splitter */
static void
draw_ruler (SpsTimeline               *self,
            GtkSnapshot               *snapshot,
            const SpsTimelineGeometry *g,
            const SpsTimeRulerScale   *scale)
{
  SpsTimeRulerColors ruler_colors;
  RangeView range;
  gboolean has_range;

  ruler_colors.background = self->style.panel;
  ruler_colors.text = self->style.fg;
  ruler_colors.tick = self->style.border;
  ruler_colors.border = self->style.border;
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (g->gutter, 0));
  has_range = get_range_view (self, g, &range);
  _sps_time_ruler_snapshot (snapshot, self->ruler_cache, self->text_layout, scale, &ruler_colors, g->ruler_height,
                            has_range ? range.badge_x - 8 - g->gutter : 1,
                            has_range ? range.badge_x + range.text_width + 8 - g->gutter : 0);
  gtk_snapshot_restore (snapshot);

  if (has_range)
    {
      draw_range (self, snapshot, g, &range);
      g_free (range.text);
    }
  _sps_timeline_draw_corner (self, snapshot, g);

  /* Splitter */
  gtk_snapshot_append_color (snapshot, &self->style.border,
                             &GRAPHENE_RECT_INIT (MAX (g->gutter - 1, 0), 0, 1, g->height));
}

/* The whole widget */
void
_sps_timeline_draw (SpsTimeline *self,
                    GtkSnapshot *snapshot,
                    int          width,
                    int          height)
{
  SpsTimelineGeometry g;
  SpsTimeRulerScale scale;
  graphene_rect_t tracks_area;
  /* Times of the split, only for the diagnostics panel or --trace */
  gboolean timed = G_UNLIKELY (self->collect_stats || g_atomic_int_get (&sps_self_trace_on));
  gint64 t[5] = { 0, };

  if (width <= 0 || height <= 0)
    return;

  if (timed)
    t[0] = sps_self_trace_get_time ();
  _sps_timeline_get_geometry (self, width, height, &g);
  self->frame++;
  self->stats.frames = self->frame;
  self->painted_items = 0;
  self->merged_items = 0;
  self->painted_lanes = 0;
  self->stats.tiles_reused = 0;
  self->stats.tiles_built = 0;

  tracks_area = GRAPHENE_RECT_INIT (g.gutter, g.ruler_height, g.track_width, MAX (height - g.ruler_height, 0));
  draw_background (self, snapshot, &g);

  if (self->trace == NULL || self->layout == NULL)
    return;

  _sps_time_ruler_scale_init (&scale, self->ruler_cache, self->text_layout, sps_trace_get_start_time (self->trace),
                              g.start, g.end, g.track_width);
  if (timed)
    t[1] = sps_self_trace_get_time ();
  draw_grid (self, snapshot, &g, &tracks_area, &scale);
  /* While the summaries are prepared, no rows and nothing over them
   * (flows, hover, selection): only a line saying so */
  if (self->lod != NULL)
    draw_rows (self, snapshot, &g, &tracks_area);
  else
    draw_preparing (self, snapshot, &tracks_area);
  if (timed)
    t[2] = sps_self_trace_get_time ();
  if (self->lod != NULL)
    draw_overlays (self, snapshot, &g, &tracks_area);
  if (timed)
    t[3] = sps_self_trace_get_time ();
  draw_ruler (self, snapshot, &g, &scale);
  _sps_timeline_draw_flags (self, snapshot, &g);
  /* A frame that only put cached rows together keeps the counts of the
   * last one that painted */
  if (self->painted_lanes > 0)
    {
      self->stats.items_drawn = self->painted_items;
      self->stats.items_merged = self->merged_items;
    }
  if (timed)
    {
      t[4] = sps_self_trace_get_time ();
      self->stats.build_ns = t[4] - t[0];
      self->stats.rows_ns = t[2] - t[1];
      self->stats.overlays_ns = t[3] - t[2];
      self->stats.ruler_ns = t[4] - t[3];
      /* Children strictly inside their frame, in the order drawn */
      sps_self_trace_add_complete ("frame", t[0], t[4]);
      sps_self_trace_add_complete ("frame/rows", t[1], t[2]);
      sps_self_trace_add_complete ("frame/overlays", t[2], t[3]);
      sps_self_trace_add_complete ("frame/ruler", t[3], t[4]);
    }
}

/**
 * sps_timeline_get_slice_area:
 * @self: a #SpsTimeline
 * @slice: a slice index
 * @area: (out): where @slice is drawn, in widget coordinates
 *
 * Returns: %FALSE when @slice is not visible (scrolled away, out of the
 *   window, or in a collapsed process)
 */
gboolean
sps_timeline_get_slice_area (SpsTimeline     *self,
                             guint            slice,
                             graphene_rect_t *area)
{
  SpsTimelineGeometry g;

  g_return_val_if_fail (SPS_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (area != NULL, FALSE);

  if (self->trace == NULL)
    return FALSE;

  _sps_timeline_get_geometry (self, gtk_widget_get_width (GTK_WIDGET (self)), gtk_widget_get_height (GTK_WIDGET (self)), &g);

  return slice_area (self, &g, slice, area);
}

/**
 * sps_timeline_build_node:
 * @self: a #SpsTimeline
 * @width: width to draw at, px
 * @height: height to draw at, px
 *
 * Builds the render node of the whole widget as it would be drawn at
 * @width × @height, without a renderer: benchmarks and tests of node
 * building use it.
 *
 * Returns: (transfer full) (nullable): the node, or %NULL for an empty size
 */
GskRenderNode *
sps_timeline_build_node (SpsTimeline *self,
                         int          width,
                         int          height)
{
  GtkSnapshot *snapshot;

  g_return_val_if_fail (SPS_IS_TIMELINE (self), NULL);

  snapshot = gtk_snapshot_new ();
  _sps_timeline_draw (self, snapshot, width, height);

  return gtk_snapshot_free_to_node (snapshot);
}
