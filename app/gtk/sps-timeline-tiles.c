/* sps-timeline-tiles.c: rows cached whole and in tiles, and the tiles
 * built between frames
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-timeline"

#include "config.h"

#include <math.h>

#include "sps-timeline-private.h"

/* Longest a prefetch of tiles between frames runs before letting the main
 * loop go on, µs */
#define PREFETCH_BUDGET_US   2000
/* How long the scale must stay the same before the window's tiles are
 * built between frames, ms */
#define PREFETCH_SETTLE_MS   150

static void
row_tile_clear (gpointer data)
{
  SpsTimelineTile *tile = data;

  g_clear_pointer (&tile->content, gsk_render_node_unref);
  g_clear_pointer (&tile->labels, gsk_render_node_unref);
  g_clear_pointer (&tile->inner, g_array_unref);
  g_clear_pointer (&tile->crossing, g_array_unref);
}

void
_sps_timeline_row_cache_clear (SpsTimelineRowCache *cache)
{
  g_clear_pointer (&cache->node, gsk_render_node_unref);
  g_clear_pointer (&cache->tiles, g_array_unref);
  g_clear_pointer (&cache->tiles_node, gsk_render_node_unref);
  cache->tiles_node_valid = FALSE;
  cache->valid = FALSE;
}

/* Also the flows: what changes rows (layout, filters, style) moves them. */
void
_sps_timeline_invalidate_row_cache (SpsTimeline *self)
{
  g_clear_handle_id (&self->prefetch_id, g_source_remove);
  for (guint i = 0; i < self->n_row_cache; i++)
    _sps_timeline_row_cache_clear (&self->row_cache[i]);
  _sps_timeline_invalidate_flow_cache (self);
}

void
_sps_timeline_resize_row_cache (SpsTimeline *self)
{
  guint n = self->layout != NULL ? _sps_timeline_layout_get_n_rows (self->layout) : 0;

  _sps_timeline_invalidate_row_cache (self);
  g_free (self->row_cache);
  self->row_cache = g_new0 (SpsTimelineRowCache, MAX (n, 1));
  self->n_row_cache = n;
}

/* Where a label for @spot goes when the columns [@offset, @offset +
 * @width) of the pixel grid are shown from x = 0: its node, and its x;
 * NULL when the visible part of the slice is too narrow. */
static const SpsTimelineLabel *
spot_label (SpsTimeline                *self,
            const SpsTimelineLabelSpot *spot,
            gint64                      offset,
            int                         width,
            int                        *x)
{
  double x0 = spot->x0 - (double) offset;
  double x1 = spot->x1 - (double) offset;
  int left = _sps_timeline_round_px (CLAMP (x0, -2.0, width + 2.0));
  int right = _sps_timeline_round_px (CLAMP (x1, -2.0, width + 2.0));
  int visible;
  const SpsTimelineLabel *label;

  /* As draw_slice() leaves a pixel between neighbours */
  if (_sps_timeline_slice_keeps_gap (x0, x1))
    right -= 1;
  visible = MIN (right, width) - MAX (left, 0);
  if (visible < SPS_TIMELINE_MIN_LABEL_WIDTH)
    return NULL;

  label = _sps_timeline_get_slice_label (self, spot->name, visible - 2 * SPS_TIMELINE_LABEL_PADDING);
  *x = MAX (left, 0) + SPS_TIMELINE_LABEL_PADDING;

  return label->node != NULL ? label : NULL;
}

/* A label for @spot where its slice is visible in the window. */
static void
place_label (SpsTimeline                *self,
             GPtrArray                  *nodes,
             const SpsTimelineGeometry  *g,
             const SpsTimelineLabelSpot *spot,
             float                       text_y)
{
  int x;
  const SpsTimelineLabel *label = spot_label (self, spot, g->origin_px, g->track_width, &x);

  if (label != NULL)
    _sps_timeline_add_translated (nodes, label->node, x, text_y);
}

/* Sorts the spots of a new tile: those of slices wholly inside it
 * (their labels are made now, in the tile's coordinates: where the whole
 * tile is in the window, the window puts them at the same place) and the
 * others. */
static void
sort_tile_spots (SpsTimeline          *self,
                 SpsTimelineTile      *tile,
                 GArray               *spots,
                 const SpsTimelineRow *row)
{
  gint64 offset = tile->index * SPS_TIMELINE_TILE_WIDTH;
  float text_y = floorf ((row->height - self->text_height) / 2.f);
  GPtrArray *nodes = self->overlay_nodes;

  for (guint k = 0; k < spots->len; k++)
    {
      const SpsTimelineLabelSpot *spot = &g_array_index (spots, SpsTimelineLabelSpot, k);
      double x0 = spot->x0 - (double) offset;
      double x1 = spot->x1 - (double) offset;
      gboolean inside = x0 >= -0.5 && x1 < SPS_TIMELINE_TILE_WIDTH + 0.5;
      GArray **list = inside ? &tile->inner : &tile->crossing;
      const SpsTimelineLabel *label;
      int x;

      if (*list == NULL)
        *list = g_array_new (FALSE, FALSE, sizeof (SpsTimelineLabelSpot));
      g_array_append_val (*list, *spot);

      if (inside && (label = spot_label (self, spot, offset, SPS_TIMELINE_TILE_WIDTH, &x)) != NULL)
        _sps_timeline_add_translated (nodes, label->node, x, text_y);
    }

  tile->labels = _sps_timeline_nodes_to_node (nodes);
}

/* Whether the slice of @spot lies wholly in the columns [@from, @to) of
 * the pixel grid, as draw_slice() rounds its ends: then its label does
 * not depend on where the window is, as long as those columns are in it. */
static inline gboolean
spot_within (const SpsTimelineLabelSpot *spot,
             gint64                      from,
             gint64                      to)
{
  return _sps_timeline_round_any (spot->x0 - (double) from) >= 0 && _sps_timeline_round_any (spot->x1 - (double) to) <= 0;
}

static SpsTimelineTile *
find_row_tile (SpsTimelineRowCache *cache,
               gint64               index)
{
  for (guint i = 0; i < cache->tiles->len; i++)
    {
      SpsTimelineTile *t = &g_array_index (cache->tiles, SpsTimelineTile, i);

      if (t->index == index)
        return t;
    }

  return NULL;
}

static SpsTimelineTile *
get_row_tile (SpsTimeline               *self,
              SpsTimelineRowCache       *cache,
              const SpsTimelineGeometry *g,
              const SpsTimelineRow      *row,
              gint64                     index)
{
  SpsTimelineTile tile = { index, };
  SpsTimelineArea area = { g->origin, (double) index * SPS_TIMELINE_TILE_WIDTH, SPS_TIMELINE_TILE_WIDTH, NULL };
  g_autoptr(GArray) spots = NULL;
  g_autoptr(GPtrArray) content = NULL;
  SpsTimelineTile *found;
  SpsTimelinePaint paint;

  if ((found = find_row_tile (cache, index)) != NULL)
    return found;

  if (row->kind == SPS_TIMELINE_ROW_SLICES || row->kind == SPS_TIMELINE_ROW_STACK)
    area.spots = spots = g_array_new (FALSE, FALSE, sizeof (SpsTimelineLabelSpot));

  /* Not in row_nodes: the row being put together may be there. */
  content = g_ptr_array_new_with_free_func ((GDestroyNotify) gsk_render_node_unref);
  _sps_timeline_paint_row (self, g, &area, row, &paint);
  _sps_timeline_paint_to_nodes (self, &paint, SPS_TIMELINE_TILE_WIDTH, content);
  tile.content = _sps_timeline_nodes_to_node (content);
  if (spots != NULL && spots->len > 0)
    sort_tile_spots (self, &tile, spots, row);

  g_array_append_val (cache->tiles, tile);

  return &g_array_index (cache->tiles, SpsTimelineTile, cache->tiles->len - 1);
}

/* Labels for @spots, but those of slices wholly in the grid columns
 * [@from, @to), which the row's node has. */
static void
place_spot_labels (SpsTimeline               *self,
                   GPtrArray                 *nodes,
                   const SpsTimelineGeometry *g,
                   const GArray              *spots,
                   float                      text_y,
                   gint64                     from,
                   gint64                     to,
                   guint32                   *last_labelled)
{
  for (guint k = 0; spots != NULL && k < spots->len; k++)
    {
      const SpsTimelineLabelSpot *spot = &g_array_index (spots, SpsTimelineLabelSpot, k);

      if (from < to && spot_within (spot, from, to))
        continue;

      /* A slice across tiles is a spot in each, one after the other */
      if (last_labelled != NULL)
        {
          if (spot->slice == *last_labelled)
            continue;
          *last_labelled = spot->slice;
        }
      place_label (self, nodes, g, spot, text_y);
    }
}

/* Whether @cache holds tiles drawn at @g's scale for @row */
static gboolean
row_tiles_match (SpsTimeline               *self,
                 const SpsTimelineRowCache *cache,
                 const SpsTimelineGeometry *g,
                 const SpsTimelineRow      *row)
{
  return cache->tiles != NULL &&
         cache->tile_ns_per_px == g->ns_per_px && cache->tile_height == row->height &&
         cache->tile_scale == g->scale && cache->tile_serial == self->style_serial;
}

/* Empties @cache's tiles unless they were drawn at @g's scale for @row */
static void
ensure_row_tiles (SpsTimeline               *self,
                  SpsTimelineRowCache       *cache,
                  const SpsTimelineGeometry *g,
                  const SpsTimelineRow      *row)
{
  if (row_tiles_match (self, cache, g, row))
    return;

  g_clear_pointer (&cache->tiles, g_array_unref);
  g_clear_pointer (&cache->tiles_node, gsk_render_node_unref);
  cache->tiles_node_valid = FALSE;
  cache->tiles = g_array_new (FALSE, FALSE, sizeof (SpsTimelineTile));
  g_array_set_clear_func (cache->tiles, row_tile_clear);
  cache->tile_ns_per_px = g->ns_per_px;
  cache->tile_height = row->height;
  cache->tile_scale = g->scale;
  cache->tile_serial = self->style_serial;
}

/* A row put together from the tiles under the window, building those it
 * lacks; tiles out of sight are dropped. The tiles sit side by side at
 * whole device pixels, drawn 1:1 across, so their edges meet without a
 * seam. */
static void
draw_tiled_row (SpsTimeline               *self,
                SpsTimelineRowCache       *cache,
                GPtrArray                 *nodes,
                const SpsTimelineGeometry *g,
                const SpsTimelineRow      *row)
{
  gint64 first = _sps_timeline_floor_div (g->origin_px, SPS_TIMELINE_TILE_WIDTH);
  gint64 last = _sps_timeline_floor_div (g->origin_px + g->track_width - 1, SPS_TIMELINE_TILE_WIDTH);
  /* The tiles wholly in the window */
  gint64 whole_first = first + (first * SPS_TIMELINE_TILE_WIDTH < g->origin_px);
  gint64 whole_last = last - ((last + 1) * SPS_TIMELINE_TILE_WIDTH > g->origin_px + g->track_width);
  float text_y = floorf ((row->height - self->text_height) / 2.f);
  guint32 last_labelled = SPS_NO_INDEX;
  guint i = 0;
  guint built_before = self->stats.tiles_built;

  ensure_row_tiles (self, cache, g, row);

  /* Out of sight: a tile each side stays, for panning back and forth. */
  while (i < cache->tiles->len)
    {
      const SpsTimelineTile *t = &g_array_index (cache->tiles, SpsTimelineTile, i);

      if (t->index < first - 1 || t->index > last + 1)
        g_array_remove_index_fast (cache->tiles, i);
      else
        i++;
    }

  if (!cache->tiles_node_valid ||
      cache->tiles_first != first || cache->tiles_last != last ||
      cache->whole_first != whole_first || cache->whole_last != whole_last)
    {
      g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func ((GDestroyNotify) gsk_render_node_unref);

      /* Every tile first: building one may move the others in the array */
      for (gint64 index = first; index <= last; index++)
        if (find_row_tile (cache, index) == NULL)
          {
            get_row_tile (self, cache, g, row, index);
            self->frame_tile_builds++;
            self->stats.tiles_built++;
          }

      for (gint64 index = first; index <= last; index++)
        {
          const SpsTimelineTile *tile = find_row_tile (cache, index);

          if (tile->content != NULL)
            _sps_timeline_add_translated (parts, tile->content, (float) ((index - first) * SPS_TIMELINE_TILE_WIDTH), 0);
        }
      for (gint64 index = whole_first; index <= whole_last; index++)
        {
          const SpsTimelineTile *tile = find_row_tile (cache, index);

          if (tile->labels != NULL)
            _sps_timeline_add_translated (parts, tile->labels, (float) ((index - first) * SPS_TIMELINE_TILE_WIDTH), 0);

          /* And those of slices across tiles that are all in view: each
           * is a spot of every tile it crosses; the one it starts in adds
           * it */
          for (guint k = 0; tile->crossing != NULL && k < tile->crossing->len; k++)
            {
              const SpsTimelineLabelSpot *spot = &g_array_index (tile->crossing, SpsTimelineLabelSpot, k);
              const SpsTimelineLabel *label;
              int x;

              if (_sps_timeline_round_any (spot->x0) < index * SPS_TIMELINE_TILE_WIDTH ||
                  !spot_within (spot, whole_first * SPS_TIMELINE_TILE_WIDTH, (whole_last + 1) * SPS_TIMELINE_TILE_WIDTH))
                continue;
              label = spot_label (self, spot, first * SPS_TIMELINE_TILE_WIDTH, (int) ((last - first + 1) * SPS_TIMELINE_TILE_WIDTH), &x);
              if (label != NULL)
                _sps_timeline_add_translated (parts, label->node, x, text_y);
            }
        }

      g_clear_pointer (&cache->tiles_node, gsk_render_node_unref);
      cache->tiles_node = _sps_timeline_nodes_to_node (parts);
      cache->tiles_node_valid = TRUE;
      cache->tiles_first = first;
      cache->tiles_last = last;
      cache->whole_first = whole_first;
      cache->whole_last = whole_last;
    }

  if (cache->tiles_node != NULL)
    _sps_timeline_add_translated (nodes, cache->tiles_node, (float) (first * SPS_TIMELINE_TILE_WIDTH - g->origin_px), 0);

  /* Labels that depend on where the window is: those of the tiles at
   * the window's edges, and of slices that reach into one. */
  for (gint64 index = first; index <= last; index++)
    {
      const SpsTimelineTile *tile = find_row_tile (cache, index);

      if (index < whole_first || index > whole_last)
        place_spot_labels (self, nodes, g, tile->inner, text_y, 0, 0, NULL);
      place_spot_labels (self, nodes, g, tile->crossing, text_y, whole_first * SPS_TIMELINE_TILE_WIDTH,
                         (whole_last + 1) * SPS_TIMELINE_TILE_WIDTH, &last_labelled);
    }

  self->stats.tiles_reused += (guint) (last - first + 1) - (self->stats.tiles_built - built_before);
}

/* Builds the prefetched tiles of one row after another, for at most
 * PREFETCH_BUDGET_US at a time, so that input and frames are not kept
 * waiting. */
static gboolean
prefetch_tiles (gpointer user_data)
{
  SpsTimeline *self = user_data;
  const SpsTimelineGeometry *g = &self->prefetch_geometry;
  gint64 deadline = g_get_monotonic_time () + PREFETCH_BUDGET_US;
  guint n_rows = self->layout != NULL ? _sps_timeline_layout_get_n_rows (self->layout) : 0;

  for (; self->prefetch_row < MIN (self->prefetch_end, MIN (n_rows, self->n_row_cache)); self->prefetch_row++)
    {
      const SpsTimelineRow *row = _sps_timeline_layout_get_row (self->layout, self->prefetch_row);
      SpsTimelineRowCache *cache = &self->row_cache[self->prefetch_row];

      /* Rows the last frame drew at this scale (not those between the
       * pinned band and the rows below it, out of sight) */
      if (cache->drawn_ns_per_px != g->ns_per_px || (!cache->valid && cache->tiles == NULL))
        continue;

      ensure_row_tiles (self, cache, g, row);
      for (gint64 index = self->prefetch_first; index <= self->prefetch_last; index++)
        {
          if (find_row_tile (cache, index) != NULL)
            continue;

          get_row_tile (self, cache, g, row, index);
          /* The next call goes on with this row's other tiles */
          if (g_get_monotonic_time () >= deadline)
            return G_SOURCE_CONTINUE;
        }
    }

  self->prefetch_id = 0;

  return G_SOURCE_REMOVE;
}

/* The first frame at a new scale is drawn without tiles: the frames of a
 * zoom come one after another. Once the scale has stayed the same for a
 * while, the tiles under the window and one each side are built, so that
 * the first frame of a pan does not build them all. */
static gboolean
prefetch_settled (gpointer user_data)
{
  SpsTimeline *self = user_data;

  self->prefetch_id = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, prefetch_tiles, self, NULL);

  return G_SOURCE_REMOVE;
}

/* A pan draws rows from tiles, and builds the tiles coming into view: all
 * rows at once, in the frame where the window reaches a new tile. After a
 * frame that moved the window at the same scale, the tile beyond it in
 * the direction of the move is built for each row while the main loop is
 * idle, so that such a frame only puts tiles together. */
void
_sps_timeline_queue_prefetch (SpsTimeline               *self,
                              const SpsTimelineGeometry *g,
                              guint                      first,
                              guint                      last)
{
  gint64 moved = g->origin_px - self->last_origin_px;
  gboolean same_scale = g->ns_per_px == self->last_ns_per_px;

  self->last_origin_px = g->origin_px;
  self->last_ns_per_px = g->ns_per_px;

  if (!g->tiled || self->tiles_disabled || (same_scale && moved == 0))
    return;

  g_clear_handle_id (&self->prefetch_id, g_source_remove);
  self->prefetch_geometry = *g;
  self->prefetch_row = first;
  self->prefetch_end = last;

  if (!same_scale)
    {
      /* And one each side, for a pan either way */
      self->prefetch_first = _sps_timeline_floor_div (g->origin_px, SPS_TIMELINE_TILE_WIDTH) - 1;
      self->prefetch_last = _sps_timeline_floor_div (g->origin_px + g->track_width - 1, SPS_TIMELINE_TILE_WIDTH) + 1;
      self->prefetch_id = g_timeout_add (PREFETCH_SETTLE_MS, prefetch_settled, self);
      return;
    }

  self->prefetch_first = self->prefetch_last = moved > 0
    ? _sps_timeline_floor_div (g->origin_px + g->track_width - 1, SPS_TIMELINE_TILE_WIDTH) + 1
    : _sps_timeline_floor_div (g->origin_px, SPS_TIMELINE_TILE_WIDTH) - 1;
  self->prefetch_id = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, prefetch_tiles, self, NULL);
}

/* The node of one row's content, at (0, 0) in the row, cached. */
GskRenderNode *
_sps_timeline_get_row_node (SpsTimeline               *self,
                            guint                      index,
                            const SpsTimelineRow      *row,
                            const SpsTimelineGeometry *g)
{
  SpsTimelineRowCache *cache = &self->row_cache[index];

  if (cache->valid &&
      cache->start == g->start && cache->end == g->end &&
      cache->width == g->track_width && cache->height == row->height &&
      cache->scale == g->scale && cache->serial == self->style_serial)
    return cache->node;

  g_clear_pointer (&cache->node, gsk_render_node_unref);

  /* Tiles pay off when the next frames show the same scale: panning.
   * The first frame at a new scale (each frame of a wheel zoom) is drawn
   * for the window alone, which costs half of drawing the tiles under it. */
  if (g->tiled && !self->tiles_disabled && cache->drawn_ns_per_px == g->ns_per_px)
    {
      draw_tiled_row (self, cache, self->row_nodes, g, row);
    }
  else
    {
      SpsTimelineArea area;
      SpsTimelinePaint paint;

      _sps_timeline_window_area (g, &area);
      _sps_timeline_paint_row (self, g, &area, row, &paint);
      _sps_timeline_paint_to_nodes (self, &paint, area.width, self->row_nodes);
    }

  cache->node = _sps_timeline_nodes_to_node (self->row_nodes);
  cache->drawn_ns_per_px = g->ns_per_px;
  cache->valid = TRUE;
  cache->start = g->start;
  cache->end = g->end;
  cache->width = g->track_width;
  cache->height = row->height;
  cache->scale = g->scale;
  cache->serial = self->style_serial;

  return cache->node;
}

