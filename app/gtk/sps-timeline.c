/* sps-timeline.c: the GSK-drawn timeline of a trace
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-timeline"

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "sps-palette-private.h"
#include "sps-event-text-private.h"
#include "sps-stack-text-private.h"
#include "sps-time-format.h"
#include "sps-time-math-private.h"
#include "sps-time-ruler-private.h"
#include "sps-timeline.h"
#include "sps-timeline-private.h"

#define DEFAULT_GUTTER_WIDTH 200
#define MIN_GUTTER_WIDTH     80
#define MAX_GUTTER_WIDTH     800
#define DEFAULT_TRACK_HEIGHT 20
#define MIN_TRACK_HEIGHT     8
#define MAX_TRACK_HEIGHT     128

/* Pixels either side of the splitter line that grab it. */
#define SPLITTER_GRAB        4
/* Slices narrower than this get no label. */
#define MIN_LABEL_WIDTH      20
#define LABEL_PADDING        4
/* Labels are cached per width in steps of this many pixels. */
#define LABEL_WIDTH_STEP     8
#define MAX_CACHED_LABELS    8192
/* How much one key press or wheel notch zooms. */
#define KEY_ZOOM_FACTOR      1.5
#define WHEEL_ZOOM_FACTOR    1.25
#define PAN_FRACTION         0.15
/* Moving less than this (px) is a click, not a drag. */
#define DRAG_THRESHOLD       3
/* Above this many flows in the window only the selected slice's are
 * drawn: thousands of curves would cost more than all the slices and
 * show nothing but a tangle. */
#define MAX_FLOWS            1000
/* How far a flow's curve leaves its ends horizontally, at least, px: a
 * curve bulges past its ends by less than that. */
#define FLOW_MIN_BEND        24.0
/* Gap between instant markers, px. */
#define INSTANT_SPACING      3
/* Size of the tile that hatches sampled spans */
#define HATCH_TILE           6
/* Slice lanes are drawn in tiles of this many px, aligned to a pixel grid
 * that starts at the trace's start, so that panning redraws only the
 * tiles that come into view. */
#define LANE_TILE            256
/* Longest a prefetch of tiles between frames runs before letting the main
 * loop go on, µs */
#define PREFETCH_BUDGET_US   2000
/* How long the scale must stay the same before the window's tiles are
 * built between frames, ms */
#define PREFETCH_SETTLE_MS   150
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

typedef enum
{
  DRAG_NONE,
  DRAG_PAN,
  DRAG_RANGE,
  DRAG_GUTTER,
} DragMode;

typedef struct
{
  GdkRGBA  fg;
  GdkRGBA  dim;
  GdkRGBA  base;
  GdkRGBA  panel;        /* gutter, ruler and headers */
  GdkRGBA  border;
  GdkRGBA  grid;
  GdkRGBA  accent;
  GdkRGBA  accent_text;  /* on the accent colour */
  GdkRGBA  range;
  GdkRGBA  hover;
  GdkRGBA  shadow;
  GdkRGBA  flow;
  GdkRGBA  text;         /* on slices */
  GdkRGBA  fill[SPS_PALETTE_SIZE];
  GdkRGBA  sampled[SPS_PALETTE_SIZE];
  GdkRGBA  merged[SPS_PALETTE_SIZE];
  GdkRGBA  area[SPS_PALETTE_SIZE];  /* counter areas */
  /* The same as pixels of a canvas */
  guint32  fill_pixel[SPS_PALETTE_SIZE];
  guint32  sampled_pixel[SPS_PALETTE_SIZE];
  guint32  merged_pixel[SPS_PALETTE_SIZE];
  guint32  line_pixel[SPS_PALETTE_SIZE];
  guint32  area_pixel[SPS_PALETTE_SIZE];
  guint32  dim_pixel;
  guint32  summary_pixel;  /* activity of a collapsed process */
  gboolean dark;
} Style;

/* Where a label may go: a slice of its own wide enough for one, in px of
 * the pixel grid of its tile (see LANE_TILE). */
typedef struct
{
  double  x0;
  double  x1;
  guint32 name;
  guint32 slice;
} LabelSpot;

/* One tile of a row: columns [index × LANE_TILE, (index + 1) ×
 * LANE_TILE) of the pixel grid, as nodes in the tile's coordinates. A
 * label goes at the left of the visible part of its slice, so only the
 * labels of slices wholly inside the tile can be made with it, and only
 * used while the whole tile is in the window; the others are placed per
 * frame from their spots. */
typedef struct
{
  gint64         index;
  GskRenderNode *content;  /* its canvas, hatching and notches; NULL
                            * when nothing was drawn */
  GskRenderNode *labels;   /* the labels of @inner; NULL when none */
  GArray        *inner;    /* LabelSpot of slices wholly inside it */
  GArray        *crossing; /* LabelSpot of slices reaching past an edge */
} RowTile;

typedef struct
{
  GskRenderNode *node;     /* NULL for an empty row */
  gboolean       valid;
  SpsTime        start;
  SpsTime        end;
  int            width;
  int            height;
  int            scale;
  guint          serial;
  double         drawn_ns_per_px;  /* the scale of the last frame */
  /* Tiles of the row, for one zoom (tile_ns_per_px) */
  GArray        *tiles;    /* RowTile, on the pixel grid */
  /* The tiles from tiles_first to tiles_last put together, with the
   * labels of those from whole_first to whole_last, at x = 0 for the
   * left edge of tile tiles_first: a pan frame only moves it, until a
   * tile comes into view. */
  GskRenderNode *tiles_node;
  gboolean       tiles_node_valid;
  gint64         tiles_first;
  gint64         tiles_last;
  gint64         whole_first;
  gint64         whole_last;
  double         tile_ns_per_px;
  int            tile_height;
  int            tile_scale;
  guint          tile_serial;
} RowCache;

typedef struct
{
  GskRenderNode *node;   /* NULL when nothing fits */
  int            width;
  guint64        used;
} Label;

typedef struct
{
  int     width;
  int     height;
  int     gutter;          /* x where the tracks start */
  int     track_width;
  int     ruler_height;
  int     scroll;          /* content y at the top of the tracks */
  int     scale;           /* device pixels per px */
  SpsTime start;
  SpsTime end;
  double  ns_per_px;
  /* Slice lanes in tiles: the window starts on the pixel grid of the
   * trace (origin_px columns from its start at ns_per_px). */
  gboolean tiled;
  SpsTime  origin;
  gint64   origin_px;
} Geometry;

typedef struct
{
  SpsTime tmin;
  SpsTime tmax;
  guint32 flow;
} FlowKey;

/* The flows of a stretch of time wider than the window, so that panning
 * moves them instead of drawing them again: each costs a row lookup, two
 * visibility checks and a curve. */
typedef struct
{
  GskRenderNode *node;      /* NULL when there is nothing to draw */
  gboolean       valid;
  SpsTime        start;     /* the stretch, at x = 0 of the node */
  SpsTime        end;
  double         ns_per_px;
  int            scroll;
  int            width;
  int            height;
  gboolean       show_all;
} FlowCache;

struct _SpsTimeline
{
  GtkWidget          parent_instance;

  SpsSession        *session;
  SpsTrace          *trace;
  SpsTimelineLayout *layout;
  SpsTimelineLod    *lod;

  GtkAdjustment     *hadjustment;
  GtkAdjustment     *vadjustment;
  guint              hscroll_policy : 1;
  guint              vscroll_policy : 1;
  guint              configuring : 1;
  guint              style_valid : 1;
  guint              metrics_valid : 1;
  guint              selecting_from_click : 1;
  guint              pointer_inside : 1;
  guint              tiles_disabled : 1;  /* tests compare with and without */
  guint              resting : 1;       /* not moved since it entered */

  int                gutter_width;
  int                track_height;

  /* From the font */
  PangoLayout       *text_layout;
  int                text_height;
  int                ellipsis_width;
  int                min_letter_width;
  Label              no_label;
  int                lane_height;
  int                header_height;
  int                ruler_height;

  Style              style;
  guint              style_serial;
  guint32           *diamonds[SPS_PALETTE_SIZE];  /* pixels of the marks */
  GskRenderNode     *hatch_tiles[SPS_PALETTE_SIZE];
  GPtrArray         *row_nodes;       /* scratch lists of nodes */
  GPtrArray         *overlay_nodes;
  int                diamond_size;
  int                diamond_scale;

  RowCache          *row_cache;
  guint              n_row_cache;
  /* The tile coming into view next, built between frames: see
   * queue_prefetch() */
  guint              prefetch_id;
  Geometry           prefetch_geometry;
  gint64             prefetch_first;  /* the tiles to build, on the grid */
  gint64             prefetch_last;
  guint              prefetch_row;
  guint              prefetch_end;
  gint64             last_origin_px;
  double             last_ns_per_px;
  guint              frame_tile_builds;
  GHashTable        *labels;        /* name id << 16 | width step → Label */
  GHashTable        *gutter_labels; /* row key → Label */
  SpsTimeRulerCache *ruler_cache;
  char              *corner_text;
  GskRenderNode     *corner_node;
  int                corner_width;
  guint64            frame;
  guint8            *name_color;    /* palette entry per string id */
  guint              n_names;

  /* Flows sorted by their earlier end, and the later ends sorted, so the
   * flows crossing a window are counted with two binary searches; the
   * running maximum of the later ends finds the first one to draw. */
  FlowKey           *flows_by_min;
  SpsTime           *flow_max_sorted;
  SpsTime           *flow_running_max;
  guint              n_flow_keys;
  GArray            *selected_flows;
  FlowCache          flow_cache;

  /* Pointer and drags */
  double             pointer_x;
  double             pointer_y;
  double             rest_x;          /* where it entered, in the window */
  double             rest_y;
  DragMode           drag_mode;
  double             drag_x;
  double             drag_y;
  SpsTime            drag_start;
  SpsTime            drag_end;
  int                drag_gutter;
  double             drag_scroll;
  gboolean           drag_moved;
};

enum {
  PROP_0,
  PROP_SESSION,
  PROP_GUTTER_WIDTH,
  PROP_TRACK_HEIGHT,
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

/* Colours */

static guint32
pixel_from_rgba (const GdkRGBA *c)
{
  float a = CLAMP (c->alpha, 0.f, 1.f);
  guint32 alpha = (guint32) (a * 255.f + .5f);
  guint32 red = (guint32) (CLAMP (c->red, 0.f, 1.f) * a * 255.f + .5f);
  guint32 green = (guint32) (CLAMP (c->green, 0.f, 1.f) * a * 255.f + .5f);
  guint32 blue = (guint32) (CLAMP (c->blue, 0.f, 1.f) * a * 255.f + .5f);

  /* Premultiplied; GDK_MEMORY_DEFAULT is 0xAARRGGBB in native byte order. */
  return (alpha << 24) | (red << 16) | (green << 8) | blue;
}

static GdkRGBA
mix (const GdkRGBA *a,
     const GdkRGBA *b,
     float          t)
{
  GdkRGBA c;

  c.red = a->red + (b->red - a->red) * t;
  c.green = a->green + (b->green - a->green) * t;
  c.blue = a->blue + (b->blue - a->blue) * t;
  c.alpha = a->alpha + (b->alpha - a->alpha) * t;

  return c;
}

static GdkRGBA
with_alpha (const GdkRGBA *a,
            float          alpha)
{
  GdkRGBA c = *a;

  c.alpha = alpha;
  return c;
}

static float
luminance (const GdkRGBA *c)
{
  return 0.2126f * c->red + 0.7152f * c->green + 0.0722f * c->blue;
}

static void
update_style (SpsTimeline *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  Style *s = &self->style;
  GdkRGBA bg;
  GdkRGBA selected;
  GdkRGBA grey = { 0.5f, 0.5f, 0.5f, 1.f };
  GdkRGBA line;
  GdkRGBA selected_fg;
  gboolean has_bg, has_base, has_selected, has_selected_fg;

  /* GTK 4.8 has no gtk_widget_get_color(); the style context is how
   * colours are read there. */
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  {
    GtkStyleContext *context = gtk_widget_get_style_context (widget);

    gtk_style_context_get_color (context, &s->fg);
    has_bg = gtk_style_context_lookup_color (context, "theme_bg_color", &bg);
    has_base = gtk_style_context_lookup_color (context, "theme_base_color", &s->base);
    has_selected = gtk_style_context_lookup_color (context, "theme_selected_bg_color", &selected);
    has_selected_fg = gtk_style_context_lookup_color (context, "theme_selected_fg_color", &selected_fg);
  }
  G_GNUC_END_IGNORE_DEPRECATIONS

  s->fg.alpha = 1.f;
  s->dark = luminance (&s->fg) > 0.5f;

  if (!has_base)
    s->base = s->dark ? (GdkRGBA) { 0.14f, 0.14f, 0.14f, 1.f } : (GdkRGBA) { 1.f, 1.f, 1.f, 1.f };
  if (!has_bg)
    bg = mix (&s->base, &s->fg, 0.05f);
  if (!has_selected)
    selected = (GdkRGBA) { 0.21f, 0.52f, 0.89f, 1.f };
  if (!has_selected_fg)
    selected_fg = (GdkRGBA) { 1.f, 1.f, 1.f, 1.f };

  s->base.alpha = 1.f;
  s->panel = with_alpha (&bg, 1.f);
  s->dim = mix (&s->fg, &s->base, 0.45f);
  s->border = with_alpha (&s->fg, s->dark ? 0.14f : 0.12f);
  s->grid = with_alpha (&s->fg, s->dark ? 0.07f : 0.06f);
  s->accent = with_alpha (&selected, 1.f);
  s->accent_text = with_alpha (&selected_fg, 1.f);
  s->range = with_alpha (&selected, 0.16f);
  s->hover = s->dark ? (GdkRGBA) { 1.f, 1.f, 1.f, 0.14f } : (GdkRGBA) { 1.f, 1.f, 1.f, 0.3f };
  s->shadow = with_alpha (&s->fg, 0.55f);
  s->flow = with_alpha (&s->fg, 0.55f);
  s->text = *_sps_palette_get_text_color (0, s->dark);

  for (guint i = 0; i < SPS_PALETTE_SIZE; i++)
    {
      const GdkRGBA *fill = _sps_palette_get_color (i, s->dark);

      s->fill[i] = *fill;
      /* Sampled spans are estimates: paler, and hatched when wide. */
      s->sampled[i] = mix (fill, &s->base, 0.5f);
      /* Runs of merged slices: the colour of the longest, greyed. */
      s->merged[i] = mix (fill, &grey, 0.45f);
      s->area[i] = with_alpha (fill, 0.55f);

      s->fill_pixel[i] = pixel_from_rgba (&s->fill[i]);
      s->sampled_pixel[i] = pixel_from_rgba (&s->sampled[i]);
      s->merged_pixel[i] = pixel_from_rgba (&s->merged[i]);
      line = mix (fill, &s->fg, 0.35f);
      s->line_pixel[i] = pixel_from_rgba (&line);
      s->area_pixel[i] = pixel_from_rgba (&s->area[i]);
    }
  s->dim_pixel = pixel_from_rgba (&s->dim);
  line = mix (&s->panel, &s->fg, s->dark ? 0.4f : 0.32f);
  s->summary_pixel = pixel_from_rgba (&line);

  for (guint i = 0; i < SPS_PALETTE_SIZE; i++)
    {
      g_clear_pointer (&self->diamonds[i], g_free);
      g_clear_pointer (&self->hatch_tiles[i], gsk_render_node_unref);
    }

  self->style_valid = TRUE;
}

static void
row_tile_clear (gpointer data)
{
  RowTile *tile = data;

  g_clear_pointer (&tile->content, gsk_render_node_unref);
  g_clear_pointer (&tile->labels, gsk_render_node_unref);
  g_clear_pointer (&tile->inner, g_array_unref);
  g_clear_pointer (&tile->crossing, g_array_unref);
}

static void
row_cache_clear (RowCache *cache)
{
  g_clear_pointer (&cache->node, gsk_render_node_unref);
  g_clear_pointer (&cache->tiles, g_array_unref);
  g_clear_pointer (&cache->tiles_node, gsk_render_node_unref);
  cache->tiles_node_valid = FALSE;
  cache->valid = FALSE;
}

static void
invalidate_flow_cache (SpsTimeline *self)
{
  g_clear_pointer (&self->flow_cache.node, gsk_render_node_unref);
  self->flow_cache.valid = FALSE;
}

/* Also the flows: what changes rows (layout, filters, style) moves them. */
static void
invalidate_row_cache (SpsTimeline *self)
{
  g_clear_handle_id (&self->prefetch_id, g_source_remove);
  for (guint i = 0; i < self->n_row_cache; i++)
    row_cache_clear (&self->row_cache[i]);
  invalidate_flow_cache (self);
}

static void
resize_row_cache (SpsTimeline *self)
{
  guint n = self->layout != NULL ? _sps_timeline_layout_get_n_rows (self->layout) : 0;

  invalidate_row_cache (self);
  g_free (self->row_cache);
  self->row_cache = g_new0 (RowCache, MAX (n, 1));
  self->n_row_cache = n;
}

static void
label_free (gpointer data)
{
  Label *label = data;

  g_clear_pointer (&label->node, gsk_render_node_unref);
  g_free (label);
}

static void
invalidate_labels (SpsTimeline *self)
{
  g_hash_table_remove_all (self->labels);
  g_hash_table_remove_all (self->gutter_labels);
  g_clear_pointer (&self->ruler_cache, _sps_time_ruler_cache_free);
  self->ruler_cache = _sps_time_ruler_cache_new ();
  g_clear_pointer (&self->corner_text, g_free);
  g_clear_pointer (&self->corner_node, gsk_render_node_unref);
}

static void
ensure_metrics (SpsTimeline *self)
{
  PangoRectangle logical;

  if (!self->style_valid)
    update_style (self);

  if (self->metrics_valid)
    return;

  g_clear_object (&self->text_layout);
  self->text_layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), "XM0");
  pango_layout_set_single_paragraph_mode (self->text_layout, TRUE);
  pango_layout_get_pixel_extents (self->text_layout, NULL, &logical);

  self->text_height = MAX (logical.height, 1);
  pango_layout_set_text (self->text_layout, "…", -1);
  pango_layout_get_pixel_size (self->text_layout, &self->ellipsis_width, NULL);
  /* A wide letter: what an ellipsised label shows at least */
  pango_layout_set_text (self->text_layout, "W", -1);
  pango_layout_get_pixel_size (self->text_layout, &self->min_letter_width, NULL);
  self->lane_height = MAX (self->track_height, self->text_height + 4);
  self->header_height = MAX (self->lane_height + 6, self->text_height + 10);
  self->ruler_height = self->text_height + 10;
  self->metrics_valid = TRUE;

  if (self->layout != NULL)
    _sps_timeline_layout_set_heights (self->layout, self->lane_height, self->header_height);
}

static void
invalidate_metrics (SpsTimeline *self)
{
  self->metrics_valid = FALSE;
  self->style_valid = FALSE;
  self->style_serial++;
  invalidate_row_cache (self);
  invalidate_labels (self);
}

static guint
name_color (SpsTimeline *self,
            guint32      name)
{
  if (name >= self->n_names)
    return 0;

  if (self->name_color[name] == 0xff)
    {
      const char *str = sps_trace_get_string (self->trace, name);

      self->name_color[name] = _sps_palette_index_for_name (str != NULL ? str : "", -1);
    }

  return self->name_color[name];
}

/* Geometry */

static int
get_scroll (SpsTimeline *self,
            int          page)
{
  int content = self->layout != NULL ? _sps_timeline_layout_get_height (self->layout) : 0;
  int value = self->vadjustment != NULL ? (int) gtk_adjustment_get_value (self->vadjustment) : 0;

  return CLAMP (value, 0, MAX (content - page, 0));
}

static void
get_geometry (SpsTimeline *self,
              int          width,
              int          height,
              Geometry    *g)
{
  ensure_metrics (self);

  g->width = width;
  g->height = height;
  g->ruler_height = self->ruler_height;
  g->gutter = CLAMP (self->gutter_width, 0, MAX (width - 40, 0));
  g->track_width = MAX (width - g->gutter, 1);
  g->scroll = get_scroll (self, MAX (height - g->ruler_height, 0));
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

static inline double
time_to_x (const Geometry *g,
           SpsTime         t)
{
  return g->gutter + _sps_time_distance (t, g->start) / g->ns_per_px;
}

static inline SpsTime
x_to_time (const Geometry *g,
           double          x)
{
  return _sps_time_offset (g->start, (x - g->gutter) * g->ns_per_px);
}

static inline int
row_top (const Geometry       *g,
         const SpsTimelineRow *row)
{
  return g->ruler_height + row->y - g->scroll;
}

/* Labels on slices */

static GskRenderNode *
layout_to_node (PangoLayout   *layout,
                const GdkRGBA *color)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();

  gtk_snapshot_append_layout (snapshot, layout, color);

  return gtk_snapshot_free_to_node (snapshot);
}

static void
evict_labels (SpsTimeline *self)
{
  GHashTableIter iter;
  gpointer value;

  /* Keep what the last few frames used; whatever else goes. */
  g_hash_table_iter_init (&iter, self->labels);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (((Label *) value)->used + 2 < self->frame)
      g_hash_table_iter_remove (&iter);
}

/* The text node of @name in at most @available px (ellipsised), cached by
 * name and width step: setting text on a layout shapes it, which is
 * what costs; appending a cached node costs nothing. */
static const Label *
get_slice_label (SpsTimeline *self,
                 guint32      name,
                 int          available)
{
  guint64 full_key = (guint64) name << 16;
  guint64 key;
  Label *full;
  Label *label;
  int step;

  full = g_hash_table_lookup (self->labels, &full_key);
  if (full == NULL)
    {
      const char *text = sps_trace_get_string (self->trace, name);
      guint64 *k = g_new (guint64, 1);

      pango_layout_set_width (self->text_layout, -1);
      pango_layout_set_ellipsize (self->text_layout, PANGO_ELLIPSIZE_NONE);
      pango_layout_set_text (self->text_layout, text != NULL ? text : "", -1);

      full = g_new0 (Label, 1);
      pango_layout_get_pixel_size (self->text_layout, &full->width, NULL);
      full->node = full->width > 0 ? layout_to_node (self->text_layout, &self->style.text) : NULL;
      *k = full_key;
      g_hash_table_insert (self->labels, k, full);
    }
  full->used = self->frame;

  if (full->width <= available)
    return full;

  /* Room for a letter and the ellipsis at least: a lone "…" tells
   * nothing. */
  if (available < self->ellipsis_width + self->min_letter_width)
    return &self->no_label;

  step = available / LABEL_WIDTH_STEP;
  key = full_key | (guint64) (step + 1);
  label = g_hash_table_lookup (self->labels, &key);
  if (label == NULL)
    {
      const char *text = sps_trace_get_string (self->trace, name);
      guint64 *k = g_new (guint64, 1);

      pango_layout_set_width (self->text_layout, step * LABEL_WIDTH_STEP * PANGO_SCALE);
      pango_layout_set_ellipsize (self->text_layout, PANGO_ELLIPSIZE_END);
      pango_layout_set_text (self->text_layout, text != NULL ? text : "", -1);

      label = g_new0 (Label, 1);
      pango_layout_get_pixel_size (self->text_layout, &label->width, NULL);
      label->node = layout_to_node (self->text_layout, &self->style.text);
      *k = key;
      g_hash_table_insert (self->labels, k, label);
      pango_layout_set_width (self->text_layout, -1);
      pango_layout_set_ellipsize (self->text_layout, PANGO_ELLIPSIZE_NONE);

      if (g_hash_table_size (self->labels) > MAX_CACHED_LABELS)
        evict_labels (self);
    }
  label->used = self->frame;

  return label;
}

/* Rows
 *
 * Why: a zoomed-out lane has a run or a slice in most pixel columns, and a
 * render node per rectangle costs far more than the pixel it covers
 * (allocation, reference counting, bounds). So the rectangles of a row are
 * written into a small premultiplied ARGB buffer, in device pixels, that
 * becomes one texture node: a lane is one pixel high (every column is a
 * vertical bar of one colour, stretched to the lane's height), a counter
 * its row's height. Labels, hatching and marks are nodes on top: there are
 * few of them, bounded by the width. Nodes are made directly, without a
 * GtkSnapshot per row. */

typedef struct
{
  guint32 *pixels;
  int      width;
  int      height;
  int      scale;
} Canvas;

static void
canvas_init (Canvas *canvas,
             int     width,
             int     height,
             int     scale)
{
  canvas->scale = MAX (scale, 1);
  canvas->width = MAX (width, 1) * canvas->scale;
  canvas->height = MAX (height, 1) * canvas->scale;
  canvas->pixels = g_malloc0_n ((gsize) canvas->width * canvas->height, sizeof (guint32));
}

/* Pixels past the end of a strip, so that short runs can be written in
 * one go of this many pixels. */
#define STRIP_SLACK 8

/* A canvas one device pixel high, stretched over its row by the texture
 * node, of @width logical pixels at @scale device pixels each. */
static void
canvas_init_strip (Canvas *canvas,
                   int     width,
                   int     scale)
{
  canvas->scale = MAX (scale, 1);
  canvas->width = MAX (width, 1) * canvas->scale;
  canvas->height = 1;
  canvas->pixels = g_malloc0_n ((gsize) canvas->width + STRIP_SLACK, sizeof (guint32));
}

/* Fills [x0, x1) × [y0, y1), in logical pixels, clipped. */
static void
canvas_fill (Canvas  *canvas,
             double   x0,
             double   x1,
             double   y0,
             double   y1,
             guint32  pixel)
{
  int left = (int) CLAMP (floor (x0 * canvas->scale + .5), 0.0, (double) canvas->width);
  int right = (int) CLAMP (floor (x1 * canvas->scale + .5), 0.0, (double) canvas->width);
  int top = (int) CLAMP (floor (y0 * canvas->scale + .5), 0.0, (double) canvas->height);
  int bottom = (int) CLAMP (floor (y1 * canvas->scale + .5), 0.0, (double) canvas->height);

  for (int y = top; y < bottom; y++)
    {
      guint32 *row = canvas->pixels + (gsize) y * canvas->width;

      for (int x = left; x < right; x++)
        row[x] = pixel;
    }
}

/* The canvas as a texture node covering @bounds; frees the canvas. */
static GskRenderNode *
canvas_free_to_node (Canvas                *canvas,
                     const graphene_rect_t *bounds)
{
  gsize size = (gsize) canvas->width * canvas->height * sizeof (guint32);
  g_autoptr(GBytes) bytes = g_bytes_new_take (g_steal_pointer (&canvas->pixels), size);
  g_autoptr(GdkTexture) texture = gdk_memory_texture_new (canvas->width, canvas->height, GDK_MEMORY_DEFAULT,
                                                          bytes, canvas->width * sizeof (guint32));

  return gsk_texture_node_new (texture, bounds);
}

static void
canvas_clear (Canvas *canvas)
{
  g_clear_pointer (&canvas->pixels, g_free);
}

static void
add_translated (GPtrArray     *nodes,
                GskRenderNode *node,
                float          x,
                float          y)
{
  GskTransform *transform = gsk_transform_translate (NULL, &GRAPHENE_POINT_INIT (x, y));

  /* No offset is no transform at all (NULL) */
  if (transform == NULL)
    {
      g_ptr_array_add (nodes, gsk_render_node_ref (node));
      return;
    }

  g_ptr_array_add (nodes, gsk_transform_node_new (node, transform));
  gsk_transform_unref (transform);
}

/* One node of @nodes, or a container of them; empties @nodes. */
static GskRenderNode *
nodes_to_node (GPtrArray *nodes)
{
  GskRenderNode *node = NULL;

  if (nodes->len == 1)
    node = gsk_render_node_ref (g_ptr_array_index (nodes, 0));
  else if (nodes->len > 1)
    node = gsk_container_node_new ((GskRenderNode **) nodes->pdata, nodes->len);

  g_ptr_array_set_size (nodes, 0);

  return node;
}

/* The level drawn at: the first whose resolution is coarser than a
 * pixel, so every slice of its own is at least a pixel wide and the gaps
 * between runs are wider than a pixel. Counter buckets at that level span
 * one or two pixel columns; each goes to the column of its first value. */
static guint
draw_level (const Geometry *g)
{
  return MIN (_sps_timeline_lod_level_for_resolution (g->ns_per_px) + 1, SPS_LOD_N_LEVELS - 1);
}

/* Where a row is drawn: the window, or a tile of the trace's pixel grid
 * (see LANE_TILE). Column 0 is @base_px px after @base; on the grid
 * (Geometry.tiled) @base is the trace's origin and @base_px the column's
 * place on the grid, so the window and its tiles compute every position
 * with the same arithmetic and agree to the pixel. */
typedef struct
{
  SpsTime base;
  double  base_px;
  int     width;
  GArray *spots;    /* a tile's LabelSpots; NULL: labels are drawn now */
} Area;

/* What drawing a row makes: a canvas over (0, @y, width, @height) of the
 * row; nodes on top of it go to SpsTimeline.overlay_nodes. */
typedef struct
{
  Canvas   canvas;
  gboolean drawn;
  float    y;
  float    height;
} Paint;

static void
window_area (const Geometry *g,
             Area           *a)
{
  a->width = g->track_width;
  a->spots = NULL;
  a->base = g->tiled ? g->origin : g->start;
  a->base_px = g->tiled ? (double) g->origin_px : 0.0;
}

/* The times of the area's first column and just past its last */
static inline SpsTime
area_start (const Area     *a,
            const Geometry *g)
{
  return _sps_time_offset (a->base, floor (a->base_px * g->ns_per_px));
}

static inline SpsTime
area_end (const Area     *a,
          const Geometry *g)
{
  return _sps_time_offset (a->base, ceil ((a->base_px + a->width) * g->ns_per_px));
}

/* Slice lanes */

typedef struct
{
  SpsTimeline         *self;
  const Geometry      *g;
  const SpsSliceTable *slices;
  const Area          *area;
  Canvas               strip;
  gboolean             drawn;
  GPtrArray           *overlay;
  float                y;
  float                height;
  gboolean             labels;
  float                text_y;
  /* Whether the lane holds sampled spans; the flags of other slices are
   * only read for those that reach the end of the trace (where the
   * unfinished ones end), so that drawing a slice reads nothing from the
   * slice table. */
  gboolean             sampled;
  SpsTime              trace_end;
  /* The pending run of sub-pixel items, in px */
  gboolean             pending;
  double               px0;
  double               px1;
  guint32              dominant_name;
  SpsTime              dominant_length;
} LaneDraw;

/* floor() for x >= -1, without a libm call in the inner loops */
static inline int
floor_px (double x)
{
  return (int) (x + 1.0) - 1;
}

/* floor (x + 0.5) for x >= -2.5, the same */
static inline int
round_px (double x)
{
  return (int) (x + 2.5) - 2;
}

/* Four pixels at once (GCC and Clang vector extensions; plain code where
 * the processor has no vectors) */
typedef gint32 StripVec __attribute__ ((vector_size (16)));

/* floor (x + 0.5) for any x, without a libm call: beyond ±2^30 px the
 * value is clamped, which changes no decision taken with it. */
static inline gint64
round_any (double x)
{
  x = CLAMP (x, -1073741824.0, 1073741824.0);
  return (gint64) (x + 1073741824.5) - G_GINT64_CONSTANT (1073741824);
}

/* Whether a slice from @x0 to @x1 (px) leaves a pixel of space before the
 * next: when it is 4 px wide or more. Measured on the whole slice, not on
 * the part an area shows, so that a tile and the window, which cut it at
 * different places, draw it alike. */
static inline gboolean
slice_keeps_gap (double x0,
                 double x1)
{
  return round_any (x1) - round_any (x0) >= 4;
}

/* Fills columns [@left, @right) (logical pixels) of a strip. */
static inline void
strip_fill (Canvas  *strip,
            int      left,
            int      right,
            guint32  pixel)
{
  guint32 *p;
  int n;

  left = CLAMP (left, 0, strip->width) * strip->scale;
  left = MIN (left, strip->width);
  right = MIN (right, strip->width) * strip->scale;
  right = MIN (right, strip->width);
  p = strip->pixels + left;
  n = right - left;

  /* Most runs of a zoomed-out lane are a few pixels wide: the first
   * STRIP_SLACK pixels are written as two blends of four, which costs
   * less than a loop whose end the processor cannot predict (compiled
   * plainly, that loop is a branch per pixel). The strip has room for
   * them past its end. */
  {
    const StripVec first = { 0, 1, 2, 3 };
    const StripVec second = { 4, 5, 6, 7 };
    StripVec count = { n, n, n, n };
    StripVec value = { (gint32) pixel, (gint32) pixel, (gint32) pixel, (gint32) pixel };
    StripVec a, b, in_a, in_b;

    G_STATIC_ASSERT (STRIP_SLACK == 8);
    memcpy (&a, p, sizeof a);
    memcpy (&b, p + 4, sizeof b);
    in_a = first < count;
    in_b = second < count;
    a = (value & in_a) | (a & ~in_a);
    b = (value & in_b) | (b & ~in_b);
    memcpy (p, &a, sizeof a);
    memcpy (p + 4, &b, sizeof b);
  }

  for (int i = STRIP_SLACK; i < n; i++)
    p[i] = pixel;
}

static void
flush_merged (LaneDraw *d)
{
  SpsTimeline *self = d->self;
  int left;
  int right;

  if (!d->pending)
    return;

  left = floor_px (d->px0);
  right = MAX (left + 1, -floor_px (-d->px1));
  strip_fill (&d->strip, left, right, self->style.merged_pixel[name_color (self, d->dominant_name)]);
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
draw_slice (LaneDraw        *d,
            const SpsLodRun *run,
            double           x0,
            double           x1)
{
  SpsTimeline *self = d->self;
  int width = d->area->width;
  guint16 flags = SPS_SLICE_NONE;
  guint color = name_color (self, run->name);
  int left = round_px (CLAMP (x0, -2.0, width + 2.0));
  int right = round_px (CLAMP (x1, -2.0, width + 2.0));
  int visible;

  if (d->sampled || run->end >= d->trace_end)
    flags = d->slices->flags[run->slice];

  if (right - left < 1)
    right = left + 1;
  /* A pixel of space between neighbours that are wide enough. */
  if (slice_keeps_gap (x0, x1))
    right -= 1;

  d->drawn = TRUE;
  visible = MIN (right, width) - MAX (left, 0);

  if (flags & SPS_SLICE_SAMPLED)
    {
      /* Estimates: paler, and hatched when there is room */
      strip_fill (&d->strip, left, right, self->style.sampled_pixel[color]);
      if (visible >= 6)
        g_ptr_array_add (d->overlay,
                         gsk_repeat_node_new (&GRAPHENE_RECT_INIT (MAX (left, 0), d->y, visible, d->height),
                                              get_hatch_tile (self, color),
                                              /* In phase with the pixel grid, so
                                               * the dots move with the slice */
                                              &GRAPHENE_RECT_INIT (-(float) fmod (d->area->base_px, HATCH_TILE), 0,
                                                                   HATCH_TILE, HATCH_TILE)));
    }
  else
    {
      strip_fill (&d->strip, left, right, self->style.fill_pixel[color]);
    }

  /* An unfinished slice ends where the trace ends: a dark notch there
   * says it had not ended. */
  if ((flags & SPS_SLICE_UNFINISHED) != 0 && right - left >= 6 && x1 <= width + 1)
    {
      float w = MIN (4.f, (right - left) / 3.f);

      g_ptr_array_add (d->overlay,
                       gsk_color_node_new (&self->style.shadow,
                                           &GRAPHENE_RECT_INIT (right - w, d->y, w, d->height)));
    }

  /* A tile keeps a spot by the slice's whole width, not by its part in
   * the tile: the window may show more of it. place_label() decides. */
  if (d->labels && d->area->spots != NULL && x1 - x0 >= MIN_LABEL_WIDTH - 1)
    {
      LabelSpot spot = { x0 + d->area->base_px, x1 + d->area->base_px, run->name, run->slice };

      g_array_append_val (d->area->spots, spot);
    }
  else if (d->labels && d->area->spots == NULL && visible >= MIN_LABEL_WIDTH)
    {
      int available = visible - 2 * LABEL_PADDING;
      const Label *label = get_slice_label (self, run->name, available);

      if (label->node != NULL)
        add_translated (d->overlay, label->node, MAX (left, 0) + LABEL_PADDING, d->text_y);
    }
}

/* The items of a coarse level, from the level's own array of records
 * (_sps_timeline_lod_runs_records()): what a zoomed-out frame spends its
 * time on, thousands of items a pixel or a few wide. Each is drawn as
 * paint_slice_lane() would, but at once: at the level drawn, short items
 * are further apart than a pixel (see draw_level()), so no pending run
 * would grow. Slice or run is chosen without a branch, which the
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
  const Area *a = d->area;
  double px_per_ns = 1.0 / d->g->ns_per_px;
  double width = a->width;
  /* From this width on a slice may be labelled */
  double label_width = d->labels ? MIN_LABEL_WIDTH - 2 : G_MAXDOUBLE;

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

      if (single && (x1 - x0 >= label_width || r->end >= d->trace_end))
        {
          SpsLodRun run = { r->start, r->end, r->slice, 1, r->name };

          draw_slice (d, &run, x0, x1);
          continue;
        }

      color = name_color (self, r->name);

      /* As draw_slice() draws a slice */
      ls = round_px (CLAMP (x0, -2.0, width + 2.0));
      rs = round_px (CLAMP (x1, -2.0, width + 2.0));
      rs = MAX (rs, ls + 1);
      rs -= slice_keeps_gap (x0, x1);
      /* As flush_merged() draws a run */
      lr = floor_px (MAX (x0, -1.0));
      rr = MAX (lr + 1, -floor_px (-MIN (x1, width + 1.0)));

      strip_fill (&d->strip, single ? ls : lr, single ? rs : rr,
                  single ? self->style.fill_pixel[color] : self->style.merged_pixel[color]);
      d->drawn = TRUE;
    }
}

/* Paints the items of a slice lane in the area. */
static void
paint_slice_lane (SpsTimeline          *self,
                  const Geometry       *g,
                  const Area           *a,
                  const SpsTimelineRow *row,
                  Paint                *paint)
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

  /* Labels and marks go on top of the strip, so they wait in their own
   * list until the strip is done. */
  d.self = self;
  d.g = g;
  d.slices = sps_trace_get_slices (self->trace);
  d.area = a;
  d.overlay = self->overlay_nodes;
  d.y = 1;
  d.height = row->height - 2;
  d.labels = self->text_height <= d.height;
  d.text_y = floorf ((row->height - self->text_height) / 2.f);
  d.sampled = sps_trace_get_tracks (self->trace)->kind[row->track] == SPS_TRACK_THREAD_SAMPLED_SLICES;
  d.trace_end = sps_trace_get_end_time (self->trace);
  canvas_init_strip (&d.strip, a->width, g->scale);

  /* A nanosecond of margin each side: items touching the edges of a
   * tile are drawn by both tiles, each its part. */
  _sps_timeline_lod_runs_init (self->lod, &iter, row->track, row->depth, draw_level (g),
                               _sps_time_sub (area_start (a, g), 1), _sps_time_add (area_end (a, g), 1));

  /* Sampled lanes read each slice's flags, and filters each slice's
   * visibility: those take the general path. A level that does not keep
   * its items as records is read through the lane's window when the
   * whole window is drawn: the frames of a zoom draw it again and again.
   * (A tile is drawn once.) */
  if (!filtered && !d.sampled)
    {
      records = _sps_timeline_lod_runs_records (&iter, &n_records);
      if (records == NULL && a->spots == NULL)
        records = _sps_timeline_lod_runs_window (self->lod, row->track, row->depth, draw_level (g),
                                                 _sps_time_sub (area_start (a, g), 1), _sps_time_add (area_end (a, g), 1), &n_records);
      if (records != NULL)
        {
          paint_lane_records (&d, records, n_records, _sps_time_sub (area_start (a, g), 1), _sps_time_add (area_end (a, g), 1));
          goto done;
        }
    }

  while ((n = _sps_timeline_lod_runs_next_n (&iter, runs, G_N_ELEMENTS (runs))) > 0)
    for (guint i = 0; i < n; i++)
      {
        const SpsLodRun *run = &runs[i];
        double x0 = _sps_time_distance (run->start, a->base) * px_per_ns - a->base_px;
        double x1 = _sps_time_distance (run->end, a->base) * px_per_ns - a->base_px;

        if (filtered && !sps_session_is_slice_visible (self->session, run->slice))
          continue;

        if (run->count == 1 && x1 - x0 >= 1.0)
          {
            flush_merged (&d);
            draw_slice (&d, run, x0, x1);
            continue;
          }

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
  paint->canvas = d.strip;
  paint->drawn = d.drawn;
  paint->y = d.y;
  paint->height = d.height;
}

/* Counters */

typedef struct
{
  Canvas   canvas;
  guint32  line;
  guint32  area;
  double   lo;
  double   hi;
  float    top;
  float    bottom;
  float    zero;
  gboolean has_segment;
  int      seg_x;
  double   seg_value;
} CounterDraw;

static inline float
counter_y (const CounterDraw *c,
           double             v)
{
  if (isnan (v))
    return c->zero;
  return c->top + (float) ((c->hi - v) / (c->hi - c->lo)) * (c->bottom - c->top);
}

static void
counter_segment (CounterDraw *c,
                 int          x_end)
{
  float y;

  if (!c->has_segment || x_end <= c->seg_x)
    return;

  y = floorf (counter_y (c, c->seg_value));
  if (y < c->zero)
    canvas_fill (&c->canvas, c->seg_x, x_end, y, c->zero, c->area);
  else if (y > c->zero)
    canvas_fill (&c->canvas, c->seg_x, x_end, c->zero, y, c->area);
  canvas_fill (&c->canvas, c->seg_x, x_end, y, y + 1, c->line);
}

/* Closes pixel column @x, whose values span [@min, @max] and end at
 * @last: the segment before it ends, a vertical line covers the spread
 * (sub-pixel merging: one line per column whatever the points in it) and
 * a new segment starts at @last. */
static void
counter_column (CounterDraw *c,
                int          x,
                double       min,
                double       max,
                double       last)
{
  if (c->has_segment && min == max && max == c->seg_value)
    return;

  counter_segment (c, x);

  c->has_segment = TRUE;
  c->seg_x = x;
  c->seg_value = last;

  if (min < max)
    {
      float y0 = floorf (counter_y (c, max));
      float y1 = floorf (counter_y (c, min));

      counter_segment (c, x + 1);
      canvas_fill (&c->canvas, x, x + 1, y0, y1 + 1, c->line);
      c->seg_x = x + 1;
    }
}

static void
paint_counter (SpsTimeline          *self,
               const Geometry       *g,
               const Area           *a,
               const SpsTimelineRow *row,
               Paint                *paint)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (self->trace);
  CounterDraw c = { 0, };
  SpsLodIter iter;
  SpsLodBucket bucket;
  guint color = name_color (self, tracks->name[row->track]);
  double min;
  double max;
  double value;
  int column = -1;
  double col_min = 0, col_max = 0, col_last = 0;
  double end_x;
  SpsTime trace_end = sps_trace_get_end_time (self->trace);
  SpsTime start = area_start (a, g);
  double px_per_ns = 1.0 / g->ns_per_px;

  if (!_sps_timeline_lod_get_counter_range (self->lod, row->track, &min, &max))
    return;

  c.line = self->style.line_pixel[color];
  c.area = self->style.area_pixel[color];
  c.lo = MIN (min, 0.0);
  c.hi = MAX (max, 0.0);
  if (c.hi <= c.lo)
    c.hi = c.lo + 1.0;
  c.top = 3;
  c.bottom = row->height - 2;
  c.zero = floorf (counter_y (&c, 0.0));
  canvas_init (&c.canvas, a->width, row->height, g->scale);

  if (_sps_timeline_lod_get_counter_value (self->lod, row->track, start, &value))
    {
      c.has_segment = TRUE;
      c.seg_x = 0;
      c.seg_value = value;
    }

  _sps_timeline_lod_buckets_init (self->lod, &iter, row->track, draw_level (g), start, area_end (a, g));
  while (_sps_timeline_lod_buckets_next (&iter, &bucket))
    {
      double fx = _sps_time_distance (bucket.ts, a->base) * px_per_ns - a->base_px;
      int x;

      /* A bucket that began before the area is the value in force at
       * its start, which the segment above already holds: drawing it in
       * column 0 would draw it twice where tiles meet. */
      if (fx < 0)
        continue;
      x = (int) fx;
      if (x >= a->width)
        break;

      if (x != column)
        {
          if (column >= 0)
            counter_column (&c, column, col_min, col_max, col_last);
          column = x;
          /* The value in force when the column starts counts too. */
          if (c.has_segment)
            col_min = col_max = c.seg_value;
          else
            col_min = col_max = bucket.min;
        }

      if (bucket.min < col_min || isnan (col_min))
        col_min = bucket.min;
      if (bucket.max > col_max || isnan (col_max))
        col_max = bucket.max;
      col_last = bucket.last;
    }
  if (column >= 0)
    counter_column (&c, column, col_min, col_max, col_last);

  /* The last value holds until the trace ends. */
  end_x = MIN (_sps_time_distance (trace_end, a->base) * px_per_ns - a->base_px, (double) a->width);
  counter_segment (&c, (int) ceil (MAX (end_x, 0.0)));

  paint->canvas = c.canvas;
  paint->drawn = TRUE;
  paint->y = 0;
  paint->height = row->height;
}

/* Instants and samples: the first point of each bucket of a pixel or two
 * (sps-timeline-lod.c) is all that can show, so the cost is bounded by
 * the pixels, not the points. Marks are copied into the row's canvas: a
 * node per mark would cost more than its pixels. */

/* The pixels of a diamond of @size px in @color, size × @scale square */
static const guint32 *
get_diamond (SpsTimeline *self,
             guint        color,
             int          size,
             int          scale)
{
  cairo_surface_t *surface;
  cairo_t *cr;
  int device = size * scale;
  int stride;
  const guchar *data;

  if (self->diamonds[color] != NULL && self->diamond_size == size && self->diamond_scale == scale)
    return self->diamonds[color];

  if (self->diamond_size != size || self->diamond_scale != scale)
    for (guint i = 0; i < SPS_PALETTE_SIZE; i++)
      g_clear_pointer (&self->diamonds[i], g_free);
  self->diamond_size = size;
  self->diamond_scale = scale;

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, device, device);
  cr = cairo_create (surface);
  cairo_move_to (cr, device / 2.0, 0.5);
  cairo_line_to (cr, device - 0.5, device / 2.0);
  cairo_line_to (cr, device / 2.0, device - 0.5);
  cairo_line_to (cr, 0.5, device / 2.0);
  cairo_close_path (cr);
  gdk_cairo_set_source_rgba (cr, &self->style.fill[color]);
  cairo_fill_preserve (cr);
  gdk_cairo_set_source_rgba (cr, &self->style.shadow);
  cairo_set_line_width (cr, scale);
  cairo_stroke (cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);

  /* Cairo's ARGB32 is premultiplied 0xAARRGGBB in native byte order,
   * like the canvas. */
  stride = cairo_image_surface_get_stride (surface);
  data = cairo_image_surface_get_data (surface);
  self->diamonds[color] = g_new (guint32, (gsize) device * device);
  for (int y = 0; y < device; y++)
    memcpy (self->diamonds[color] + (gsize) y * device, data + (gsize) y * stride, device * sizeof (guint32));
  cairo_surface_destroy (surface);

  return self->diamonds[color];
}

/* Copies a square of @size device pixels to column @left (device pixels)
 * of @canvas, which is as high as the square. Marks never overlap, so
 * there is nothing to blend. */
static void
canvas_put_square (Canvas        *canvas,
                   int            left,
                   const guint32 *square,
                   int            size)
{
  int from = MAX (-left, 0);
  int to = MIN (size, canvas->width - left);

  if (to <= from)
    return;

  for (int y = 0; y < MIN (size, canvas->height); y++)
    memcpy (canvas->pixels + (gsize) y * canvas->width + left + from,
            square + (gsize) y * size + from,
            (gsize) (to - from) * sizeof (guint32));
}

/* Whether the first point of bucket @bucket, at @x px, gets a mark when
 * the first point of the bucket before is at @prev_x (@prev_bucket the
 * bucket it is in): not when it is within @spacing px of a point of the
 * bucket just before. The rule looks at one bucket back only, so a tile
 * of the trace decides as the window does; with buckets at least
 * @spacing px wide, no two marks are nearer than @spacing. */
static inline gboolean
point_marked (gint64 bucket,
              int    x,
              gint64 prev_bucket,
              int    prev_x,
              int    spacing)
{
  return prev_bucket != bucket - 1 || x - prev_x >= spacing;
}

static inline gint64
floor_div (gint64 a,
           gint64 b)
{
  return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

/* Starts @iter two buckets before the one holding the area's start: a
 * mark of the bucket before can reach into the area, and its own
 * decision needs the bucket before it, as seen from further left. */
static void
points_init (SpsTimeline          *self,
             const Geometry       *g,
             const Area           *a,
             const SpsTimelineRow *row,
             guint                 level,
             SpsLodIter           *iter)
{
  SpsTime width = (SpsTime) 1 << level;
  SpsTime start = area_start (a, g);
  SpsTime from = start < G_MININT64 + 3 * width ? G_MININT64 : (floor_div (start, width) - 2) * width;

  _sps_timeline_lod_points_init (self->lod, iter, row->track, level, from, area_end (a, g));
}

/* Whether a thread's instant track holds decoded events: importers that
 * write events (ETW, EventPipe) write nothing else there, so its first
 * instant tells */
static gboolean
track_has_events (SpsTrace *trace,
                  guint32   track)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  const SpsInstantTable *instants = sps_trace_get_instants (trace);

  return track < tracks->n_rows && tracks->kind[track] == SPS_TRACK_THREAD_INSTANTS &&
         tracks->first_row[track] < instants->n_rows &&
         instants->kind[tracks->first_row[track]] == SPS_INSTANT_KIND_EVENT;
}

static void paint_ticks (SpsTimeline          *self,
                         const Geometry       *g,
                         const Area           *a,
                         const SpsTimelineRow *row,
                         Paint                *paint,
                         gboolean              events);

static void
paint_instants (SpsTimeline          *self,
                const Geometry       *g,
                const Area           *a,
                const SpsTimelineRow *row,
                Paint                *paint)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (self->trace);
  const SpsInstantTable *instants = sps_trace_get_instants (self->trace);
  guint first = tracks->first_row[row->track];
  int size = CLAMP (row->height - 8, 6, 11) | 1;
  double px_per_ns = 1.0 / g->ns_per_px;
  /* Buckets at least a mark and its spacing wide */
  guint level = MIN (_sps_timeline_lod_level_for_resolution (g->ns_per_px * (size + INSTANT_SPACING)) + 1,
                     SPS_LOD_N_LEVELS - 1);
  gint64 prev_bucket = G_MININT64;
  int prev_x = 0;
  SpsLodIter iter;
  guint32 points[256];
  guint n;
  /* Without filters every instant is shown: no lookup per mark */
  gboolean filtered = sps_session_has_filters (self->session);

  /* A thread's decoded events (ETW, EventPipe) are thousands of marks of
   * hundreds of names: thin ticks, as PerfView's events are lines */
  if (track_has_events (self->trace, row->track))
    {
      paint_ticks (self, g, a, row, paint, TRUE);
      return;
    }

  points_init (self, g, a, row, level, &iter);
  if ((n = _sps_timeline_lod_points_next_n (&iter, points, G_N_ELEMENTS (points))) == 0)
    return;

  canvas_init (&paint->canvas, a->width, size, g->scale);
  paint->y = floorf ((row->height - size) / 2.f);
  paint->height = size;

  do
    for (guint i = 0; i < n; i++)
      {
        guint row_index = first + points[i];
        SpsTime ts = instants->ts[row_index];
        double fx = _sps_time_distance (ts, a->base) * px_per_ns - a->base_px;
        gint64 bucket = ts >> level;
        int x;

        /* floor, for the few px left of the area the margin reads */
        x = fx >= -1.0 ? floor_px (fx) : (int) floor (MAX (fx, -1e6));

        /* A filtered-out instant is not drawn but still counts as the
         * point before the next one, so marks do not move with filters
         * and tiles keep agreeing. */
        if (point_marked (bucket, x, prev_bucket, prev_x, size + INSTANT_SPACING) &&
            (!filtered || sps_session_is_instant_visible (self->session, row_index)))
          {
            canvas_put_square (&paint->canvas, (x - size / 2) * paint->canvas.scale,
                               get_diamond (self, name_color (self, instants->name[row_index]), size,
                                            paint->canvas.scale),
                               size * paint->canvas.scale);
            paint->drawn = TRUE;
          }
        prev_bucket = bucket;
        prev_x = x;
      }
  while ((n = _sps_timeline_lod_points_next_n (&iter, points, G_N_ELEMENTS (points))) > 0);
}

/* Thin ticks for the points of a row: samples in the dim colour; decoded
 * events (@events) in their name's colour, hidden as their instants are
 * by the filters. */
static void
paint_ticks (SpsTimeline          *self,
             const Geometry       *g,
             const Area           *a,
             const SpsTimelineRow *row,
             Paint                *paint,
             gboolean              events)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (self->trace);
  guint first = tracks->first_row[row->track];
  const SpsInstantTable *instants = sps_trace_get_instants (self->trace);
  const SpsTime *ts = (events ? instants->ts : sps_trace_get_samples (self->trace)->ts) + first;
  gboolean filtered = events && sps_session_has_filters (self->session);
  double px_per_ns = 1.0 / g->ns_per_px;
  guint level = draw_level (g);
  gint64 prev_bucket = G_MININT64;
  int prev_x = 0;
  SpsLodIter iter;
  guint32 points[256];
  guint n;

  canvas_init_strip (&paint->canvas, a->width, g->scale);
  paint->y = 3;
  paint->height = row->height - 6;

  /* A tick per sample, 2 px apart where they crowd: the first sample of
   * each bucket of a pixel or two is all that can show. */
  points_init (self, g, a, row, level, &iter);
  while ((n = _sps_timeline_lod_points_next_n (&iter, points, G_N_ELEMENTS (points))) > 0)
    for (guint i = 0; i < n; i++)
      {
        double fx = _sps_time_distance (ts[points[i]], a->base) * px_per_ns - a->base_px;
        gint64 bucket = ts[points[i]] >> level;
        int x = fx >= -1.0 ? floor_px (fx) : -2;

        if (point_marked (bucket, x, prev_bucket, prev_x, 2) && x >= 0 &&
            (!filtered || sps_session_is_instant_visible (self->session, first + points[i])))
          {
            strip_fill (&paint->canvas, x, x + 1,
                        events ? self->style.fill_pixel[name_color (self, instants->name[first + points[i]])]
                               : self->style.dim_pixel);
            paint->drawn = TRUE;
          }
        prev_bucket = bucket;
        prev_x = x;
      }
}

/* A collapsed process: where any of its threads is busy, that is the
 * merged coverage of their outermost slices, in one strip. Each thread
 * costs what its top lane costs to draw, so the summary stays O(pixels)
 * per thread. */
static void
paint_process_summary (SpsTimeline          *self,
                       const Geometry       *g,
                       const Area           *a,
                       const SpsTimelineRow *row,
                       Paint                *paint)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (self->trace);
  double px_per_ns = 1.0 / g->ns_per_px;
  guint level = draw_level (g);
  float bar = MAX (row->height - 2 * 7, 4);
  SpsTime start = _sps_time_sub (area_start (a, g), 1);
  SpsTime end = _sps_time_add (area_end (a, g), 1);

  canvas_init_strip (&paint->canvas, a->width, g->scale);
  paint->y = floorf ((row->height - bar) / 2);
  paint->height = bar;

  for (guint t = 0; t < tracks->n_rows; t++)
    {
      SpsLodIter iter;
      SpsLodRun runs[128];
      guint n;
      int covered = G_MININT;   /* the strip is filled up to here */

      if (tracks->process[t] != row->process ||
          (tracks->kind[t] != SPS_TRACK_THREAD_SLICES && tracks->kind[t] != SPS_TRACK_THREAD_SAMPLED_SLICES) ||
          !sps_session_is_track_visible (self->session, t))
        continue;

      _sps_timeline_lod_runs_init (self->lod, &iter, t, 0, level, start, end);
      while ((n = _sps_timeline_lod_runs_next_n (&iter, runs, G_N_ELEMENTS (runs))) > 0)
        for (guint i = 0; i < n; i++)
          {
            double x0 = MAX (_sps_time_distance (runs[i].start, a->base) * px_per_ns - a->base_px, -1.0);
            double x1 = MIN (_sps_time_distance (runs[i].end, a->base) * px_per_ns - a->base_px, a->width + 1.0);
            int left = MAX (floor_px (x0), covered);
            int right = MAX (floor_px (x0) + 1, -floor_px (-x1));

            if (right > left)
              {
                strip_fill (&paint->canvas, left, right, self->style.summary_pixel);
                covered = right;
                paint->drawn = TRUE;
              }
          }
    }
}

static void
paint_row (SpsTimeline          *self,
           const Geometry       *g,
           const Area           *a,
           const SpsTimelineRow *row,
           Paint                *paint)
{
  memset (paint, 0, sizeof *paint);

  switch ((SpsTimelineRowKind) row->kind)
    {
    case SPS_TIMELINE_ROW_SLICES:
      paint_slice_lane (self, g, a, row, paint);
      break;
    case SPS_TIMELINE_ROW_COUNTER:
      paint_counter (self, g, a, row, paint);
      break;
    case SPS_TIMELINE_ROW_INSTANTS:
      paint_instants (self, g, a, row, paint);
      break;
    case SPS_TIMELINE_ROW_SAMPLES:
      paint_ticks (self, g, a, row, paint, FALSE);
      break;
    case SPS_TIMELINE_ROW_PROCESS:
      if (row->flags & SPS_TIMELINE_ROW_COLLAPSED)
        paint_process_summary (self, g, a, row, paint);
      break;
    default:
      break;
    }
}

/* Appends the paint's canvas, then what is on top of it, to @nodes. */
static void
paint_to_nodes (SpsTimeline *self,
                Paint       *paint,
                int          width,
                GPtrArray   *nodes)
{
  GPtrArray *overlay = self->overlay_nodes;

  if (paint->drawn)
    g_ptr_array_add (nodes, canvas_free_to_node (&paint->canvas,
                                                 &GRAPHENE_RECT_INIT (0, paint->y, width, paint->height)));
  else
    canvas_clear (&paint->canvas);

  for (guint i = 0; i < overlay->len; i++)
    g_ptr_array_add (nodes, g_ptr_array_index (overlay, i));
  /* The nodes moved to @nodes, with their references. */
  g_ptr_array_set_free_func (overlay, NULL);
  g_ptr_array_set_size (overlay, 0);
  g_ptr_array_set_free_func (overlay, (GDestroyNotify) gsk_render_node_unref);
}

/* Where a label for @spot goes when the columns [@offset, @offset +
 * @width) of the pixel grid are shown from x = 0: its node, and its x;
 * NULL when the visible part of the slice is too narrow. */
static const Label *
spot_label (SpsTimeline     *self,
            const LabelSpot *spot,
            gint64           offset,
            int              width,
            int             *x)
{
  double x0 = spot->x0 - (double) offset;
  double x1 = spot->x1 - (double) offset;
  int left = round_px (CLAMP (x0, -2.0, width + 2.0));
  int right = round_px (CLAMP (x1, -2.0, width + 2.0));
  int visible;
  const Label *label;

  /* As draw_slice() leaves a pixel between neighbours */
  if (slice_keeps_gap (x0, x1))
    right -= 1;
  visible = MIN (right, width) - MAX (left, 0);
  if (visible < MIN_LABEL_WIDTH)
    return NULL;

  label = get_slice_label (self, spot->name, visible - 2 * LABEL_PADDING);
  *x = MAX (left, 0) + LABEL_PADDING;

  return label->node != NULL ? label : NULL;
}

/* A label for @spot where its slice is visible in the window. */
static void
place_label (SpsTimeline     *self,
             GPtrArray       *nodes,
             const Geometry  *g,
             const LabelSpot *spot,
             float            text_y)
{
  int x;
  const Label *label = spot_label (self, spot, g->origin_px, g->track_width, &x);

  if (label != NULL)
    add_translated (nodes, label->node, x, text_y);
}

/* Sorts the spots of a new tile: those of slices wholly inside it
 * (their labels are made now, in the tile's coordinates: where the whole
 * tile is in the window, the window puts them at the same place) and the
 * others. */
static void
sort_tile_spots (SpsTimeline          *self,
                 RowTile              *tile,
                 GArray               *spots,
                 const SpsTimelineRow *row)
{
  gint64 offset = tile->index * LANE_TILE;
  float text_y = floorf ((row->height - self->text_height) / 2.f);
  GPtrArray *nodes = self->overlay_nodes;

  for (guint k = 0; k < spots->len; k++)
    {
      const LabelSpot *spot = &g_array_index (spots, LabelSpot, k);
      double x0 = spot->x0 - (double) offset;
      double x1 = spot->x1 - (double) offset;
      gboolean inside = x0 >= -0.5 && x1 < LANE_TILE + 0.5;
      GArray **list = inside ? &tile->inner : &tile->crossing;
      const Label *label;
      int x;

      if (*list == NULL)
        *list = g_array_new (FALSE, FALSE, sizeof (LabelSpot));
      g_array_append_val (*list, *spot);

      if (inside && (label = spot_label (self, spot, offset, LANE_TILE, &x)) != NULL)
        add_translated (nodes, label->node, x, text_y);
    }

  tile->labels = nodes_to_node (nodes);
}

/* Whether the slice of @spot lies wholly in the columns [@from, @to) of
 * the pixel grid, as draw_slice() rounds its ends: then its label does
 * not depend on where the window is, as long as those columns are in it. */
static inline gboolean
spot_within (const LabelSpot *spot,
             gint64           from,
             gint64           to)
{
  return round_any (spot->x0 - (double) from) >= 0 && round_any (spot->x1 - (double) to) <= 0;
}

static RowTile *
find_row_tile (RowCache *cache,
               gint64    index)
{
  for (guint i = 0; i < cache->tiles->len; i++)
    {
      RowTile *t = &g_array_index (cache->tiles, RowTile, i);

      if (t->index == index)
        return t;
    }

  return NULL;
}

static RowTile *
get_row_tile (SpsTimeline          *self,
              RowCache             *cache,
              const Geometry       *g,
              const SpsTimelineRow *row,
              gint64                index)
{
  RowTile tile = { index, };
  Area area = { g->origin, (double) index * LANE_TILE, LANE_TILE, NULL };
  g_autoptr(GArray) spots = NULL;
  g_autoptr(GPtrArray) content = NULL;
  RowTile *found;
  Paint paint;

  if ((found = find_row_tile (cache, index)) != NULL)
    return found;

  if (row->kind == SPS_TIMELINE_ROW_SLICES)
    area.spots = spots = g_array_new (FALSE, FALSE, sizeof (LabelSpot));

  /* Not in row_nodes: the row being put together may be there. */
  content = g_ptr_array_new_with_free_func ((GDestroyNotify) gsk_render_node_unref);
  paint_row (self, g, &area, row, &paint);
  paint_to_nodes (self, &paint, LANE_TILE, content);
  tile.content = nodes_to_node (content);
  if (spots != NULL && spots->len > 0)
    sort_tile_spots (self, &tile, spots, row);

  g_array_append_val (cache->tiles, tile);

  return &g_array_index (cache->tiles, RowTile, cache->tiles->len - 1);
}

/* Labels for @spots, but those of slices wholly in the grid columns
 * [@from, @to), which the row's node has. */
static void
place_spot_labels (SpsTimeline    *self,
                   GPtrArray      *nodes,
                   const Geometry *g,
                   const GArray   *spots,
                   float           text_y,
                   gint64          from,
                   gint64          to,
                   guint32        *last_labelled)
{
  for (guint k = 0; spots != NULL && k < spots->len; k++)
    {
      const LabelSpot *spot = &g_array_index (spots, LabelSpot, k);

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
row_tiles_match (SpsTimeline          *self,
                 const RowCache       *cache,
                 const Geometry       *g,
                 const SpsTimelineRow *row)
{
  return cache->tiles != NULL &&
         cache->tile_ns_per_px == g->ns_per_px && cache->tile_height == row->height &&
         cache->tile_scale == g->scale && cache->tile_serial == self->style_serial;
}

/* Empties @cache's tiles unless they were drawn at @g's scale for @row */
static void
ensure_row_tiles (SpsTimeline          *self,
                  RowCache             *cache,
                  const Geometry       *g,
                  const SpsTimelineRow *row)
{
  if (row_tiles_match (self, cache, g, row))
    return;

  g_clear_pointer (&cache->tiles, g_array_unref);
  g_clear_pointer (&cache->tiles_node, gsk_render_node_unref);
  cache->tiles_node_valid = FALSE;
  cache->tiles = g_array_new (FALSE, FALSE, sizeof (RowTile));
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
draw_tiled_row (SpsTimeline          *self,
                RowCache             *cache,
                GPtrArray            *nodes,
                const Geometry       *g,
                const SpsTimelineRow *row)
{
  gint64 first = floor_div (g->origin_px, LANE_TILE);
  gint64 last = floor_div (g->origin_px + g->track_width - 1, LANE_TILE);
  /* The tiles wholly in the window */
  gint64 whole_first = first + (first * LANE_TILE < g->origin_px);
  gint64 whole_last = last - ((last + 1) * LANE_TILE > g->origin_px + g->track_width);
  float text_y = floorf ((row->height - self->text_height) / 2.f);
  guint32 last_labelled = SPS_NO_INDEX;
  guint i = 0;

  ensure_row_tiles (self, cache, g, row);

  /* Out of sight: a tile each side stays, for panning back and forth. */
  while (i < cache->tiles->len)
    {
      const RowTile *t = &g_array_index (cache->tiles, RowTile, i);

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
          }

      for (gint64 index = first; index <= last; index++)
        {
          const RowTile *tile = find_row_tile (cache, index);

          if (tile->content != NULL)
            add_translated (parts, tile->content, (float) ((index - first) * LANE_TILE), 0);
        }
      for (gint64 index = whole_first; index <= whole_last; index++)
        {
          const RowTile *tile = find_row_tile (cache, index);

          if (tile->labels != NULL)
            add_translated (parts, tile->labels, (float) ((index - first) * LANE_TILE), 0);

          /* And those of slices across tiles that are all in view: each
           * is a spot of every tile it crosses; the one it starts in adds
           * it */
          for (guint k = 0; tile->crossing != NULL && k < tile->crossing->len; k++)
            {
              const LabelSpot *spot = &g_array_index (tile->crossing, LabelSpot, k);
              const Label *label;
              int x;

              if (round_any (spot->x0) < index * LANE_TILE ||
                  !spot_within (spot, whole_first * LANE_TILE, (whole_last + 1) * LANE_TILE))
                continue;
              label = spot_label (self, spot, first * LANE_TILE, (int) ((last - first + 1) * LANE_TILE), &x);
              if (label != NULL)
                add_translated (parts, label->node, x, text_y);
            }
        }

      g_clear_pointer (&cache->tiles_node, gsk_render_node_unref);
      cache->tiles_node = nodes_to_node (parts);
      cache->tiles_node_valid = TRUE;
      cache->tiles_first = first;
      cache->tiles_last = last;
      cache->whole_first = whole_first;
      cache->whole_last = whole_last;
    }

  if (cache->tiles_node != NULL)
    add_translated (nodes, cache->tiles_node, (float) (first * LANE_TILE - g->origin_px), 0);

  /* Labels that depend on where the window is: those of the tiles at
   * the window's edges, and of slices that reach into one. */
  for (gint64 index = first; index <= last; index++)
    {
      const RowTile *tile = find_row_tile (cache, index);

      if (index < whole_first || index > whole_last)
        place_spot_labels (self, nodes, g, tile->inner, text_y, 0, 0, NULL);
      place_spot_labels (self, nodes, g, tile->crossing, text_y, whole_first * LANE_TILE,
                         (whole_last + 1) * LANE_TILE, &last_labelled);
    }
}

/* Builds the prefetched tiles of one row after another, for at most
 * PREFETCH_BUDGET_US at a time, so that input and frames are not kept
 * waiting. */
static gboolean
prefetch_tiles (gpointer user_data)
{
  SpsTimeline *self = user_data;
  const Geometry *g = &self->prefetch_geometry;
  gint64 deadline = g_get_monotonic_time () + PREFETCH_BUDGET_US;
  guint n_rows = self->layout != NULL ? _sps_timeline_layout_get_n_rows (self->layout) : 0;

  for (; self->prefetch_row < MIN (self->prefetch_end, MIN (n_rows, self->n_row_cache)); self->prefetch_row++)
    {
      const SpsTimelineRow *row = _sps_timeline_layout_get_row (self->layout, self->prefetch_row);
      RowCache *cache = &self->row_cache[self->prefetch_row];

      /* Rows the last frame drew at this scale */
      if (cache->drawn_ns_per_px != g->ns_per_px)
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
static void
queue_prefetch (SpsTimeline    *self,
                const Geometry *g,
                guint           first,
                guint           last)
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
      self->prefetch_first = floor_div (g->origin_px, LANE_TILE) - 1;
      self->prefetch_last = floor_div (g->origin_px + g->track_width - 1, LANE_TILE) + 1;
      self->prefetch_id = g_timeout_add (PREFETCH_SETTLE_MS, prefetch_settled, self);
      return;
    }

  self->prefetch_first = self->prefetch_last = moved > 0
    ? floor_div (g->origin_px + g->track_width - 1, LANE_TILE) + 1
    : floor_div (g->origin_px, LANE_TILE) - 1;
  self->prefetch_id = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, prefetch_tiles, self, NULL);
}

/* The node of one row's content, at (0, 0) in the row, cached. */
static GskRenderNode *
get_row_node (SpsTimeline          *self,
              guint                 index,
              const SpsTimelineRow *row,
              const Geometry       *g)
{
  RowCache *cache = &self->row_cache[index];

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
      Area area;
      Paint paint;

      window_area (g, &area);
      paint_row (self, g, &area, row, &paint);
      paint_to_nodes (self, &paint, area.width, self->row_nodes);
    }

  cache->node = nodes_to_node (self->row_nodes);
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

/* Gutter */

static const char *
string_or (SpsTimeline *self,
           guint32      id,
           const char  *fallback)
{
  const char *str = sps_trace_get_string (self->trace, id);

  return str != NULL && *str != '\0' ? str : fallback;
}

/* Whether @index is the first row of its thread (where the thread's name
 * goes) or of the process's async lanes. */
static gboolean
starts_group (SpsTimeline          *self,
              guint                 index,
              const SpsTimelineRow *row)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (self->trace);
  const SpsTimelineRow *prev;

  if (index == 0)
    return TRUE;

  prev = _sps_timeline_layout_get_row (self->layout, index - 1);
  if (prev->kind == SPS_TIMELINE_ROW_PROCESS)
    return TRUE;
  if (row->thread != SPS_NO_INDEX)
    return prev->thread != row->thread;
  if (tracks->kind[row->track] == SPS_TRACK_ASYNC)
    return tracks->kind[prev->track] != SPS_TRACK_ASYNC || prev->thread != SPS_NO_INDEX;
  return TRUE;
}

static char *
row_label_markup (SpsTimeline          *self,
                  guint                 index,
                  const SpsTimelineRow *row)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (self->trace);
  const SpsThreadTable *threads = sps_trace_get_threads (self->trace);
  const SpsProcessTable *processes = sps_trace_get_processes (self->trace);
  g_autofree char *name = NULL;
  const char *sub = NULL;
  SpsTrackKind kind;

  if (row->kind == SPS_TIMELINE_ROW_PROCESS)
    {
      gboolean collapsed = (row->flags & SPS_TIMELINE_ROW_COLLAPSED) != 0;

      name = g_markup_escape_text (string_or (self, processes->name[row->process], _("Process")), -1);
      /* ▸ collapsed, ▾ expanded */
      return g_strdup_printf ("%s  <b>%s</b>  <span fgalpha=\"60%%\">%" G_GINT64_FORMAT "</span>",
                              collapsed ? "\u25B8" : "\u25BE", name, processes->pid[row->process]);
    }

  if (!(row->flags & SPS_TIMELINE_ROW_FIRST))
    return NULL;

  kind = tracks->kind[row->track];
  switch (kind)
    {
    case SPS_TRACK_THREAD_SAMPLED_SLICES:
      sub = _("sampled");
      break;
    case SPS_TRACK_THREAD_INSTANTS:
      sub = track_has_events (self->trace, row->track) ? _("events") : _("instants");
      break;
    case SPS_TRACK_THREAD_SAMPLES:
      sub = _("samples");
      break;
    case SPS_TRACK_ASYNC:
      if (!starts_group (self, index, row))
        return NULL;
      return g_markup_printf_escaped ("<span fgalpha=\"70%%\">%s</span>", _("Async"));
    case SPS_TRACK_PROCESS_INSTANTS:
      return g_markup_printf_escaped ("<span fgalpha=\"70%%\">%s</span>", _("Process instants"));
    case SPS_TRACK_GLOBAL_INSTANTS:
      return g_markup_printf_escaped ("%s", _("Global instants"));
    case SPS_TRACK_COUNTER:
      if (tracks->series[row->track] != 0)
        return g_markup_printf_escaped ("%s <span fgalpha=\"60%%\">%s</span>",
                                        string_or (self, tracks->name[row->track], _("Counter")),
                                        string_or (self, tracks->series[row->track], ""));
      return g_markup_printf_escaped ("%s", string_or (self, tracks->name[row->track], _("Counter")));
    case SPS_TRACK_THREAD_SLICES:
    default:
      break;
    }

  if (row->thread == SPS_NO_INDEX)
    return NULL;

  if (!starts_group (self, index, row))
    return g_markup_printf_escaped ("<span fgalpha=\"60%%\">%s</span>", sub != NULL ? sub : "");

  if (sub != NULL)
    return g_markup_printf_escaped ("%s <span fgalpha=\"60%%\">%" G_GINT64_FORMAT " · %s</span>",
                                    string_or (self, threads->name[row->thread], _("Thread")),
                                    threads->tid[row->thread], sub);

  return g_markup_printf_escaped ("%s <span fgalpha=\"60%%\">%" G_GINT64_FORMAT "</span>",
                                  string_or (self, threads->name[row->thread], _("Thread")),
                                  threads->tid[row->thread]);
}

static const Label *
get_gutter_label (SpsTimeline          *self,
                  guint                 index,
                  const SpsTimelineRow *row,
                  int                   available)
{
  guint64 key;
  Label *label;
  g_autofree char *markup = NULL;

  if (row->kind == SPS_TIMELINE_ROW_PROCESS)
    key = (G_GUINT64_CONSTANT (1) << 40) | ((guint64) ((row->flags & SPS_TIMELINE_ROW_COLLAPSED) != 0) << 39) | row->process;
  else
    key = index;

  label = g_hash_table_lookup (self->gutter_labels, &key);
  if (label != NULL && label->width == available)
    return label;

  if (label == NULL)
    {
      guint64 *k = g_new (guint64, 1);

      *k = key;
      label = g_new0 (Label, 1);
      g_hash_table_insert (self->gutter_labels, k, label);
    }

  g_clear_pointer (&label->node, gsk_render_node_unref);
  label->width = available;

  markup = row_label_markup (self, index, row);
  if (markup != NULL && available > 0)
    {
      pango_layout_set_width (self->text_layout, available * PANGO_SCALE);
      pango_layout_set_ellipsize (self->text_layout, PANGO_ELLIPSIZE_END);
      pango_layout_set_markup (self->text_layout, markup, -1);
      label->node = layout_to_node (self->text_layout, &self->style.fg);
      pango_layout_set_attributes (self->text_layout, NULL);
      pango_layout_set_width (self->text_layout, -1);
      pango_layout_set_ellipsize (self->text_layout, PANGO_ELLIPSIZE_NONE);
    }

  return label;
}

/* Flows */

static int
compare_flow_keys (gconstpointer a,
                   gconstpointer b)
{
  const FlowKey *x = a;
  const FlowKey *y = b;

  if (x->tmin != y->tmin)
    return x->tmin < y->tmin ? -1 : 1;
  return x->flow < y->flow ? -1 : x->flow > y->flow;
}

static int
compare_times (gconstpointer a,
               gconstpointer b)
{
  SpsTime x = *(const SpsTime *) a;
  SpsTime y = *(const SpsTime *) b;

  return x < y ? -1 : x > y;
}

static void
flow_span (SpsTimeline *self,
           guint        flow,
           SpsTime     *from,
           SpsTime     *to)
{
  const SpsFlowTable *flows = sps_trace_get_flows (self->trace);
  const SpsSliceTable *slices = sps_trace_get_slices (self->trace);
  guint32 a = flows->from_slice[flow];
  guint32 b = flows->to_slice[flow];

  /* The table keeps the slices a flow binds, not its own times. The
   * arrow reaches the start of its target; it leaves its source at that
   * same time when the source still runs then (a long task that posts
   * work goes on after it), else at the source's end (or start). */
  *to = slices->ts[b];
  *from = CLAMP (*to, slices->ts[a], slices->ts[a] + slices->dur[a]);
}

static void
ensure_flow_index (SpsTimeline *self)
{
  const SpsFlowTable *flows = sps_trace_get_flows (self->trace);
  const SpsSliceTable *slices = sps_trace_get_slices (self->trace);
  guint n = 0;

  if (self->flows_by_min != NULL)
    return;

  self->flows_by_min = g_new (FlowKey, MAX (flows->n_rows, 1));
  self->flow_max_sorted = g_new (SpsTime, MAX (flows->n_rows, 1));

  for (guint i = 0; i < flows->n_rows; i++)
    {
      SpsTime from, to;

      if (flows->from_slice[i] >= slices->n_rows || flows->to_slice[i] >= slices->n_rows)
        continue;

      flow_span (self, i, &from, &to);
      self->flows_by_min[n].tmin = MIN (from, to);
      self->flows_by_min[n].tmax = MAX (from, to);
      self->flows_by_min[n].flow = i;
      self->flow_max_sorted[n] = MAX (from, to);
      n++;
    }

  self->n_flow_keys = n;
  qsort (self->flows_by_min, n, sizeof (FlowKey), compare_flow_keys);
  qsort (self->flow_max_sorted, n, sizeof (SpsTime), compare_times);

  self->flow_running_max = g_new (SpsTime, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    self->flow_running_max[i] = MAX (i > 0 ? self->flow_running_max[i - 1] : SPS_TIME_MIN,
                                     self->flows_by_min[i].tmax);
}

/* The first flow (in order of earlier end) that may reach @start. */
static guint
first_flow_reaching (SpsTimeline *self,
                     SpsTime      start)
{
  guint lo = 0;
  guint hi = self->n_flow_keys;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->flow_running_max[mid] < start)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

static void
update_selected_flows (SpsTimeline *self)
{
  const SpsFlowTable *flows;
  guint selected;

  g_array_set_size (self->selected_flows, 0);
  invalidate_flow_cache (self);

  if (self->session == NULL)
    return;

  selected = sps_session_get_selected_slice (self->session);
  if (selected == SPS_NO_INDEX)
    return;

  flows = sps_trace_get_flows (self->trace);
  for (guint i = 0; i < flows->n_rows; i++)
    if (flows->from_slice[i] == selected || flows->to_slice[i] == selected)
      g_array_append_val (self->selected_flows, i);
}

/* Where a flow ends on screen: the middle of the slice's row, or of its
 * process header when the process is collapsed. */
static gboolean
flow_point_y (SpsTimeline    *self,
              const Geometry *g,
              guint           slice,
              double         *y)
{
  const SpsSliceTable *slices = sps_trace_get_slices (self->trace);
  const SpsTrackTable *tracks = sps_trace_get_tracks (self->trace);
  guint index = _sps_timeline_layout_find_slice_row (self->layout, slice);
  const SpsTimelineRow *row;

  /* A filtered-out end: no arrow (a collapsed one points at its header). */
  if (!sps_session_is_slice_visible (self->session, slice))
    return FALSE;

  if (index == SPS_NO_INDEX)
    {
      guint32 process = tracks->process[slices->track[slice]];

      if (process == SPS_NO_INDEX)
        return FALSE;
      index = _sps_timeline_layout_find_process_row (self->layout, process);
      if (index == SPS_NO_INDEX)
        return FALSE;
    }

  row = _sps_timeline_layout_get_row (self->layout, index);
  *y = row_top (g, row) + row->height / 2.0;

  return TRUE;
}

/* Adds the curve of @flow to the path of @cr, or its arrow head (which
 * points right, into the slice it reaches) when @head is set: curves are
 * stroked and heads filled all at once, not one by one. */
static void
flow_path (SpsTimeline    *self,
           cairo_t        *cr,
           const Geometry *g,
           guint           flow,
           gboolean        head)
{
  const SpsFlowTable *flows = sps_trace_get_flows (self->trace);
  SpsTime from, to;
  double x0, y0, x1, y1, dx;

  flow_span (self, flow, &from, &to);
  if (!flow_point_y (self, g, flows->from_slice[flow], &y0) ||
      !flow_point_y (self, g, flows->to_slice[flow], &y1))
    return;

  x0 = time_to_x (g, from);
  x1 = time_to_x (g, to);
  /* Keep far ends finite for cairo. */
  x0 = CLAMP (x0, -1e6, 1e6);
  x1 = CLAMP (x1, -1e6, 1e6);
  dx = MAX (fabs (x1 - x0) / 2, FLOW_MIN_BEND);

  if (head)
    {
      cairo_move_to (cr, x1, y1);
      cairo_line_to (cr, x1 - 6, y1 - 3.5);
      cairo_line_to (cr, x1 - 6, y1 + 3.5);
      cairo_close_path (cr);
    }
  else
    {
      cairo_move_to (cr, x0, y0);
      cairo_curve_to (cr, x0 + dx, y0, x1 - dx, y1, x1, y1);
    }
}

/* Draws the flows that reach the window of @g, or the selected ones when
 * @selected is set. */
static void
draw_flow_set (SpsTimeline    *self,
               cairo_t        *cr,
               const Geometry *g,
               gboolean        selected)
{
  for (int head = 0; head < 2; head++)
    {
      if (selected)
        {
          for (guint i = 0; i < self->selected_flows->len; i++)
            flow_path (self, cr, g, g_array_index (self->selected_flows, guint, i), head);
        }
      else
        {
          /* With the curves of flows that end just outside */
          SpsTime margin = _sps_time_offset (0, ceil (FLOW_MIN_BEND * g->ns_per_px));
          SpsTime start = _sps_time_sub (g->start, margin);
          SpsTime end = _sps_time_add (g->end, margin);

          for (guint i = first_flow_reaching (self, start);
               i < self->n_flow_keys && self->flows_by_min[i].tmin < end;
               i++)
            if (self->flows_by_min[i].tmax >= start)
              flow_path (self, cr, g, self->flows_by_min[i].flow, head);
        }

      if (head)
        cairo_fill (cr);
      else
        cairo_stroke (cr);
    }
}

static void
draw_flows (SpsTimeline    *self,
            GtkSnapshot    *snapshot,
            const Geometry *g)
{
  graphene_rect_t area = GRAPHENE_RECT_INIT (g->gutter, g->ruler_height,
                                             g->track_width, MAX (g->height - g->ruler_height, 0));
  gboolean show_all;
  guint lo = 0, hi, n_before, n_in_window = 0;
  FlowCache *cache;
  cairo_t *cr;

  if (area.size.height <= 0)
    return;

  show_all = sps_session_get_show_flows (self->session) && sps_trace_get_flows (self->trace)->n_rows > 0;
  if (show_all)
    {
      ensure_flow_index (self);

      /* Flows whose earlier end is before the window's end, minus those
       * whose later end is before its start (those come first). */
      hi = self->n_flow_keys;
      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;

          if (self->flows_by_min[mid].tmin < g->end)
            lo = mid + 1;
          else
            hi = mid;
        }
      n_in_window = lo;

      lo = 0;
      hi = self->n_flow_keys;
      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;

          if (self->flow_max_sorted[mid] < g->start)
            lo = mid + 1;
          else
            hi = mid;
        }
      n_before = lo;
      n_in_window -= MIN (n_before, n_in_window);

      if (n_in_window > MAX_FLOWS)
        show_all = FALSE;
    }

  show_all = show_all && n_in_window > 0;
  if (!show_all && self->selected_flows->len == 0)
    return;

  cache = &self->flow_cache;
  if (!cache->valid || cache->show_all != show_all || cache->ns_per_px != g->ns_per_px ||
      cache->scroll != g->scroll || cache->width != g->track_width || cache->height != g->height ||
      g->start < cache->start || g->end > cache->end)
    {
      /* Half a window more each side, for the pan frames to come; not
       * on the first frame at a new scale: zoom frames come in series. */
      guint64 margin = cache->valid && cache->ns_per_px == g->ns_per_px ? _sps_time_span (g->start, g->end) / 2 : 0;
      Geometry wide = *g;
      g_autoptr(GtkSnapshot) flows = gtk_snapshot_new ();

      wide.start = _sps_time_sub_span (g->start, margin);
      wide.end = _sps_time_add_span (g->end, margin);
      wide.gutter = 0;

      cr = gtk_snapshot_append_cairo (flows, &GRAPHENE_RECT_INIT (0, area.origin.y,
                                                                  (float) ((double) _sps_time_span (wide.start, wide.end) / g->ns_per_px),
                                                                  area.size.height));
      cairo_set_line_width (cr, 1.2);
      gdk_cairo_set_source_rgba (cr, &self->style.flow);

      if (show_all)
        draw_flow_set (self, cr, &wide, FALSE);

      cairo_set_line_width (cr, 2.0);
      gdk_cairo_set_source_rgba (cr, &self->style.accent);
      draw_flow_set (self, cr, &wide, TRUE);
      cairo_destroy (cr);

      g_clear_pointer (&cache->node, gsk_render_node_unref);
      cache->node = gtk_snapshot_free_to_node (g_steal_pointer (&flows));
      cache->valid = TRUE;
      cache->start = wide.start;
      cache->end = wide.end;
      cache->ns_per_px = g->ns_per_px;
      cache->scroll = g->scroll;
      cache->width = g->track_width;
      cache->height = g->height;
      cache->show_all = show_all;
    }

  if (cache->node == NULL)
    return;

  gtk_snapshot_push_clip (snapshot, &area);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float) time_to_x (g, cache->start), 0));
  gtk_snapshot_append_node (snapshot, cache->node);
  gtk_snapshot_restore (snapshot);
  gtk_snapshot_pop (snapshot);
}

/* Overlays */

/* The rectangle of @slice in widget coordinates, clipped to the tracks. */
static gboolean
slice_area (SpsTimeline     *self,
            const Geometry  *g,
            guint            slice,
            graphene_rect_t *area)
{
  const SpsSliceTable *slices = sps_trace_get_slices (self->trace);
  const SpsTimelineRow *row;
  guint index;
  double x0, x1;
  float left, right, top, bottom;

  if (self->layout == NULL || slice >= slices->n_rows)
    return FALSE;

  index = _sps_timeline_layout_find_slice_row (self->layout, slice);
  if (index == SPS_NO_INDEX)
    return FALSE;

  row = _sps_timeline_layout_get_row (self->layout, index);
  x0 = time_to_x (g, slices->ts[slice]);
  x1 = time_to_x (g, slices->ts[slice] + slices->dur[slice]);
  left = roundf ((float) CLAMP (x0, g->gutter - 2.0, g->width + 2.0));
  right = roundf ((float) CLAMP (x1, g->gutter - 2.0, g->width + 2.0));
  if (right - left < 1)
    right = left + 1;
  if (slice_keeps_gap (x0, x1))
    right -= 1;

  left = MAX (left, (float) g->gutter);
  right = MIN (right, (float) g->width);
  top = MAX ((float) row_top (g, row) + 1, (float) g->ruler_height);
  bottom = MIN ((float) (row_top (g, row) + row->height - 1), (float) g->height);

  if (right <= left || bottom <= top)
    return FALSE;

  *area = GRAPHENE_RECT_INIT (left, top, right - left, bottom - top);

  return TRUE;
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
get_range_view (SpsTimeline    *self,
                const Geometry *g,
                RangeView      *r)
{
  SpsTime start, end;

  if (!sps_session_get_range (self->session, &start, &end))
    return FALSE;

  r->x0 = time_to_x (g, start);
  r->x1 = time_to_x (g, end);
  if (r->x1 < g->gutter || r->x0 > g->width)
    return FALSE;

  r->left = (float) MAX (r->x0, (double) g->gutter);
  r->right = MAX ((float) MIN (r->x1, (double) g->width), r->left + 1);

  r->text = sps_time_format_duration ((SpsTime) MIN (_sps_time_span (start, end), (guint64) G_MAXINT64), 3);
  pango_layout_set_text (self->text_layout, r->text, -1);
  pango_layout_get_pixel_size (self->text_layout, &r->text_width, &r->text_height);
  r->badge_x = (r->left + r->right - r->text_width) / 2;
  r->badge_x = CLAMP (r->badge_x, (float) g->gutter + 6, (float) g->width - r->text_width - 6);

  return TRUE;
}

static void
draw_range (SpsTimeline     *self,
            GtkSnapshot     *snapshot,
            const Geometry  *g,
            const RangeView *r)
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

static guint
hit_row (SpsTimeline    *self,
         const Geometry *g,
         double          y)
{
  if (self->layout == NULL || y < g->ruler_height || y >= g->height)
    return SPS_NO_INDEX;

  return _sps_timeline_layout_row_at_y (self->layout, (int) floor (y) - g->ruler_height + g->scroll);
}

static void
draw_counter_hover (SpsTimeline    *self,
                    GtkSnapshot    *snapshot,
                    const Geometry *g)
{
  const SpsTimelineRow *row;
  guint index;
  double value;
  double min, max, lo, hi;
  float y;
  g_autofree char *text = NULL;
  int text_width = 0, text_height = 0;
  float tx;

  if (!self->pointer_inside || self->pointer_x < g->gutter || self->drag_mode != DRAG_NONE)
    return;

  index = hit_row (self, g, self->pointer_y);
  if (index == SPS_NO_INDEX)
    return;
  row = _sps_timeline_layout_get_row (self->layout, index);
  if (row->kind != SPS_TIMELINE_ROW_COUNTER)
    return;

  if (!_sps_timeline_lod_get_counter_value (self->lod, row->track, x_to_time (g, self->pointer_x), &value) ||
      !_sps_timeline_lod_get_counter_range (self->lod, row->track, &min, &max))
    return;

  lo = MIN (min, 0.0);
  hi = MAX (max, 0.0);
  if (hi <= lo)
    hi = lo + 1;
  y = row_top (g, row) + 3 + (float) ((hi - value) / (hi - lo)) * (row->height - 5);

  gtk_snapshot_append_color (snapshot, &self->style.fg,
                             &GRAPHENE_RECT_INIT ((float) floor (self->pointer_x) - 2, floorf (y) - 2, 5, 5));

  text = g_strdup_printf ("%.6g", value);
  pango_layout_set_text (self->text_layout, text, -1);
  pango_layout_get_pixel_size (self->text_layout, &text_width, &text_height);
  tx = (float) self->pointer_x + 8;
  if (tx + text_width + 4 > g->width)
    tx = (float) self->pointer_x - 8 - text_width;
  gtk_snapshot_append_color (snapshot, &self->style.panel,
                             &GRAPHENE_RECT_INIT (tx - 3, row_top (g, row) + 1, text_width + 6, text_height));
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (tx, row_top (g, row) + 1));
  gtk_snapshot_append_layout (snapshot, self->text_layout, &self->style.fg);
  gtk_snapshot_restore (snapshot);
}

static void
draw_corner (SpsTimeline    *self,
             GtkSnapshot    *snapshot,
             const Geometry *g)
{
  g_autofree char *span = sps_time_format_duration ((SpsTime) MIN (_sps_time_span (g->start, g->end),
                                                                    (guint64) G_MAXINT64), 2);

  gtk_snapshot_append_color (snapshot, &self->style.panel,
                             &GRAPHENE_RECT_INIT (0, 0, g->gutter, g->ruler_height));
  gtk_snapshot_append_color (snapshot, &self->style.border,
                             &GRAPHENE_RECT_INIT (0, g->ruler_height - 1, g->gutter, 1));

  /* The span of the window, dim: it changes with every zoom, so its node
   * is kept for as long as the text stays the same. */
  if (self->corner_node == NULL || g_strcmp0 (span, self->corner_text) != 0 ||
      self->corner_width != g->gutter)
    {
      g_autofree char *markup = g_markup_printf_escaped ("<span fgalpha=\"60%%\">%s</span>", span);
      int text_height = 0;
      GtkSnapshot *corner = gtk_snapshot_new ();

      pango_layout_set_width (self->text_layout, MAX (g->gutter - 2 * LABEL_PADDING - 8, 1) * PANGO_SCALE);
      pango_layout_set_ellipsize (self->text_layout, PANGO_ELLIPSIZE_END);
      pango_layout_set_markup (self->text_layout, markup, -1);
      pango_layout_get_pixel_size (self->text_layout, NULL, &text_height);
      gtk_snapshot_translate (corner, &GRAPHENE_POINT_INIT (LABEL_PADDING + 4,
                                                            floorf ((g->ruler_height - 1 - text_height) / 2.f)));
      gtk_snapshot_append_layout (corner, self->text_layout, &self->style.fg);
      pango_layout_set_attributes (self->text_layout, NULL);
      pango_layout_set_width (self->text_layout, -1);
      pango_layout_set_ellipsize (self->text_layout, PANGO_ELLIPSIZE_NONE);

      g_clear_pointer (&self->corner_node, gsk_render_node_unref);
      self->corner_node = gtk_snapshot_free_to_node (corner);
      g_free (self->corner_text);
      self->corner_text = g_steal_pointer (&span);
      self->corner_width = g->gutter;
    }

  if (self->corner_node != NULL)
    gtk_snapshot_append_node (snapshot, self->corner_node);
}

/* The whole widget */

static void
draw (SpsTimeline *self,
      GtkSnapshot *snapshot,
      int          width,
      int          height)
{
  Geometry g;
  SpsTimeRulerScale scale;
  SpsTimeRulerColors ruler_colors;
  graphene_rect_t tracks_area;
  guint n_rows;
  guint first = 0;
  guint last = 0;
  guint selected, hovered;
  graphene_rect_t rect;
  RangeView range;
  gboolean has_range;

  if (width <= 0 || height <= 0)
    return;

  get_geometry (self, width, height, &g);
  self->frame++;

  tracks_area = GRAPHENE_RECT_INIT (g.gutter, g.ruler_height, g.track_width, MAX (height - g.ruler_height, 0));

  gtk_snapshot_append_color (snapshot, &self->style.base, &GRAPHENE_RECT_INIT (0, 0, width, height));
  gtk_snapshot_append_color (snapshot, &self->style.panel,
                             &GRAPHENE_RECT_INIT (0, g.ruler_height, g.gutter, MAX (height - g.ruler_height, 0)));

  if (self->trace == NULL || self->layout == NULL)
    return;

  _sps_time_ruler_scale_init (&scale, self->ruler_cache, self->text_layout, sps_trace_get_start_time (self->trace),
                              g.start, g.end, g.track_width);

  /* Grid lines under the tracks */
  gtk_snapshot_push_clip (snapshot, &tracks_area);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (g.gutter, g.ruler_height));
  _sps_time_ruler_snapshot_grid (snapshot, &scale, &self->style.grid, tracks_area.size.height);
  gtk_snapshot_restore (snapshot);
  gtk_snapshot_pop (snapshot);

  n_rows = _sps_timeline_layout_get_n_rows (self->layout);
  if (n_rows > 0 && tracks_area.size.height > 0)
    {
      first = _sps_timeline_layout_row_at_y (self->layout, g.scroll);
      if (first == SPS_NO_INDEX)
        first = n_rows;
      last = first;

      /* Rows: headers across the whole width, lanes in the tracks area */
      for (guint i = first; i < n_rows; i++)
        {
          const SpsTimelineRow *row = _sps_timeline_layout_get_row (self->layout, i);
          int top = row_top (&g, row);

          if (top >= height)
            break;
          last = i + 1;

          if (row->kind == SPS_TIMELINE_ROW_PROCESS)
            {
              gtk_snapshot_append_color (snapshot, &self->style.panel,
                                         &GRAPHENE_RECT_INIT (0, top, width, row->height));
              gtk_snapshot_append_color (snapshot, &self->style.border,
                                         &GRAPHENE_RECT_INIT (0, top, width, 1));
              continue;
            }

          if (row->flags & SPS_TIMELINE_ROW_FIRST)
            gtk_snapshot_append_color (snapshot, &self->style.border,
                                       &GRAPHENE_RECT_INIT (0, top, width, 1));
        }

      gtk_snapshot_push_clip (snapshot, &tracks_area);
      for (guint i = first; i < last; i++)
        {
          const SpsTimelineRow *row = _sps_timeline_layout_get_row (self->layout, i);
          GskRenderNode *node;

          /* Headers are drawn above; a collapsed one shows its activity. */
          if (row->kind == SPS_TIMELINE_ROW_PROCESS && !(row->flags & SPS_TIMELINE_ROW_COLLAPSED))
            continue;

          node = get_row_node (self, i, row, &g);
          if (node == NULL)
            continue;

          gtk_snapshot_save (snapshot);
          gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (g.gutter, row_top (&g, row)));
          gtk_snapshot_append_node (snapshot, node);
          gtk_snapshot_restore (snapshot);
        }
      gtk_snapshot_pop (snapshot);

      /* Rows out of sight give their nodes back. */
      for (guint i = 0; i < self->n_row_cache; i++)
        if ((i < first || i >= last) && (self->row_cache[i].valid || self->row_cache[i].tiles != NULL))
          row_cache_clear (&self->row_cache[i]);

      queue_prefetch (self, &g, first, last);

      /* Gutter labels */
      gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, g.ruler_height, MAX (g.gutter - 1, 0),
                                                             tracks_area.size.height));
      for (guint i = first; i < last; i++)
        {
          const SpsTimelineRow *row = _sps_timeline_layout_get_row (self->layout, i);
          int indent = row->kind == SPS_TIMELINE_ROW_PROCESS ? LABEL_PADDING + 4 : LABEL_PADDING + 16;
          const Label *label = get_gutter_label (self, i, row, g.gutter - indent - LABEL_PADDING - 2);
          float text_top;

          if (label->node == NULL)
            continue;

          text_top = row->kind == SPS_TIMELINE_ROW_COUNTER
            ? 3
            : floorf ((MIN (row->height, self->header_height) - self->text_height) / 2.f);
          gtk_snapshot_save (snapshot);
          gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (indent, row_top (&g, row) + text_top));
          gtk_snapshot_append_node (snapshot, label->node);
          gtk_snapshot_restore (snapshot);
        }
      gtk_snapshot_pop (snapshot);
    }

  /* Flows, range, selection and hover on top of the cached rows */
  draw_flows (self, snapshot, &g);

  gtk_snapshot_push_clip (snapshot, &tracks_area);
  hovered = sps_session_get_hovered_slice (self->session);
  selected = sps_session_get_selected_slice (self->session);
  if (hovered != SPS_NO_INDEX && hovered != selected && slice_area (self, &g, hovered, &rect))
    {
      gtk_snapshot_append_color (snapshot, &self->style.hover, &rect);
      draw_outline (snapshot, &rect, 1, &self->style.shadow);
    }
  if (selected != SPS_NO_INDEX && slice_area (self, &g, selected, &rect))
    {
      graphene_rect_t outer;

      /* A frame of the accent colour over the slice's edge, a pixel
       * into the gap around it */
      graphene_rect_inset_r (&rect, -1, -1, &outer);
      draw_outline (snapshot, &outer, 3, &self->style.accent);
    }

  /* Where the pointer is in time */
  if (self->pointer_inside && self->pointer_x >= g.gutter && self->drag_mode != DRAG_GUTTER)
    gtk_snapshot_append_color (snapshot, &self->style.grid,
                               &GRAPHENE_RECT_INIT ((float) floor (self->pointer_x), g.ruler_height,
                                                    1, tracks_area.size.height));
  draw_counter_hover (self, snapshot, &g);
  gtk_snapshot_pop (snapshot);

  /* Ruler */
  ruler_colors.background = self->style.panel;
  ruler_colors.text = self->style.fg;
  ruler_colors.tick = self->style.border;
  ruler_colors.border = self->style.border;
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (g.gutter, 0));
  has_range = get_range_view (self, &g, &range);
  _sps_time_ruler_snapshot (snapshot, self->ruler_cache, self->text_layout, &scale, &ruler_colors, g.ruler_height,
                            has_range ? range.badge_x - 8 - g.gutter : 1,
                            has_range ? range.badge_x + range.text_width + 8 - g.gutter : 0);
  gtk_snapshot_restore (snapshot);

  if (has_range)
    {
      draw_range (self, snapshot, &g, &range);
      g_free (range.text);
    }
  draw_corner (self, snapshot, &g);

  /* Splitter */
  gtk_snapshot_append_color (snapshot, &self->style.border,
                             &GRAPHENE_RECT_INIT (MAX (g.gutter - 1, 0), 0, 1, height));
}

static void
sps_timeline_snapshot (GtkWidget   *widget,
                       GtkSnapshot *snapshot)
{
  SpsTimeline *self = SPS_TIMELINE (widget);

  draw (self, snapshot, gtk_widget_get_width (widget), gtk_widget_get_height (widget));
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

  ensure_metrics (self);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = MIN (self->gutter_width, MIN_GUTTER_WIDTH) + 100;
      *natural = MAX (*minimum, self->gutter_width + 600);
    }
  else
    {
      int content = self->layout != NULL ? _sps_timeline_layout_get_height (self->layout) : 0;

      *minimum = self->ruler_height + self->lane_height * 2;
      *natural = MAX (*minimum, self->ruler_height + content);
    }
}

static void
configure_adjustments (SpsTimeline *self,
                       int          width,
                       int          height)
{
  Geometry g;

  if (width <= 0 || height <= 0)
    return;

  get_geometry (self, width, height, &g);
  self->configuring = TRUE;

  if (self->vadjustment != NULL)
    {
      int page = MAX (height - g.ruler_height, 1);
      int content = self->layout != NULL ? _sps_timeline_layout_get_height (self->layout) : 0;
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
  configure_adjustments (SPS_TIMELINE (widget), width, height);
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

  ensure_metrics (self);
  border->top = self->ruler_height;

  return TRUE;
}

static void
scrollable_iface_init (GtkScrollableInterface *iface)
{
  iface->get_border = sps_timeline_get_border;
}

/* Revealing things */

static void
scroll_to_row (SpsTimeline *self,
               guint        index)
{
  const SpsTimelineRow *row;
  double value;
  double page;

  if (self->vadjustment == NULL || index == SPS_NO_INDEX)
    return;

  row = _sps_timeline_layout_get_row (self->layout, index);
  value = gtk_adjustment_get_value (self->vadjustment);
  page = gtk_adjustment_get_page_size (self->vadjustment);

  if (page <= 0)
    return;
  if (row->y < value)
    gtk_adjustment_set_value (self->vadjustment, row->y);
  else if (row->y + row->height > value + page)
    gtk_adjustment_set_value (self->vadjustment, row->y + row->height - page);
}

static void
reveal_slice (SpsTimeline *self,
              guint        slice)
{
  const SpsSliceTable *slices;
  const SpsTrackTable *tracks;
  SpsTime start, end, visible_start, visible_end;
  guint32 process;

  if (self->trace == NULL || slice == SPS_NO_INDEX)
    return;

  slices = sps_trace_get_slices (self->trace);
  tracks = sps_trace_get_tracks (self->trace);
  if (slice >= slices->n_rows)
    return;

  process = tracks->process[slices->track[slice]];
  if (process != SPS_NO_INDEX && sps_session_get_process_collapsed (self->session, process))
    sps_session_set_process_collapsed (self->session, process, FALSE);

  start = slices->ts[slice];
  end = start + slices->dur[slice];
  visible_start = sps_session_get_visible_start (self->session);
  visible_end = sps_session_get_visible_end (self->session);
  if (end < visible_start || start >= visible_end)
    sps_session_go_to_time (self->session, _sps_time_add_span (start, _sps_time_span (start, end) / 2));

  scroll_to_row (self, _sps_timeline_layout_find_slice_row (self->layout, slice));
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
  update_selected_flows (self);
  if (!self->selecting_from_click)
    reveal_slice (self, sps_session_get_selected_slice (self->session));
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
  invalidate_row_cache (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
layout_changed (SpsTimeline *self)
{
  sync_collapsed (self);
  resize_row_cache (self);
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
  self->layout = _sps_timeline_layout_new (self->trace);
  self->lod = _sps_timeline_lod_new (self->trace);
  self->n_names = sps_string_pool_get_size (sps_trace_get_strings (self->trace));
  self->name_color = g_malloc (MAX (self->n_names, 1));
  memset (self->name_color, 0xff, MAX (self->n_names, 1));

  sync_collapsed (self);
  resize_row_cache (self);

  g_signal_connect_object (session, "notify::visible-start", G_CALLBACK (visible_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::visible-end", G_CALLBACK (visible_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::selected-slice", G_CALLBACK (selection_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::hovered-slice", G_CALLBACK (session_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::has-range", G_CALLBACK (session_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::range-start", G_CALLBACK (session_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::range-end", G_CALLBACK (session_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::show-flows", G_CALLBACK (session_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "layout-changed", G_CALLBACK (layout_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "filters-changed", G_CALLBACK (filters_changed), self, G_CONNECT_SWAPPED);

  update_selected_flows (self);
}

/* Input */

static gboolean
in_splitter (SpsTimeline *self,
             double       x)
{
  return fabs (x - self->gutter_width) <= SPLITTER_GRAB;
}

static SpsTime
pointer_time (SpsTimeline *self,
              gboolean     use_pointer)
{
  Geometry g;

  get_geometry (self, gtk_widget_get_width (GTK_WIDGET (self)), gtk_widget_get_height (GTK_WIDGET (self)), &g);

  if (use_pointer && self->pointer_inside && self->pointer_x >= g.gutter)
    return x_to_time (&g, self->pointer_x);

  return _sps_time_add_span (g.start, _sps_time_span (g.start, g.end) / 2);
}

/* The slice under (@x, @y), allowing 2 px of slack for thin ones. */
static guint
hit_slice (SpsTimeline *self,
           double       x,
           double       y)
{
  Geometry g;
  const SpsTimelineRow *row;
  guint index;
  guint slice;

  if (self->layout == NULL)
    return SPS_NO_INDEX;

  get_geometry (self, gtk_widget_get_width (GTK_WIDGET (self)), gtk_widget_get_height (GTK_WIDGET (self)), &g);
  if (x < g.gutter)
    return SPS_NO_INDEX;

  index = hit_row (self, &g, y);
  if (index == SPS_NO_INDEX)
    return SPS_NO_INDEX;

  row = _sps_timeline_layout_get_row (self->layout, index);
  if (row->kind != SPS_TIMELINE_ROW_SLICES)
    return SPS_NO_INDEX;

  slice = _sps_timeline_lod_slice_at (self->lod, row->track, row->depth, x_to_time (&g, x),
                                      (SpsTime) ceil (2 * g.ns_per_px));
  if (slice != SPS_NO_INDEX && !sps_session_is_slice_visible (self->session, slice))
    return SPS_NO_INDEX;
  return slice;
}

static void
update_hover (SpsTimeline *self)
{
  const char *cursor = NULL;
  guint slice = SPS_NO_INDEX;

  if (self->session == NULL)
    return;

  if (self->pointer_inside && self->drag_mode == DRAG_NONE)
    {
      if (in_splitter (self, self->pointer_x))
        cursor = "col-resize";
      else
        slice = hit_slice (self, self->pointer_x, self->pointer_y);
    }
  else if (self->drag_mode == DRAG_GUTTER)
    cursor = "col-resize";
  else if (self->drag_mode == DRAG_PAN)
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

  /* Shift+wheel, or the wheel over the labels, scrolls the rows. */
  if ((state & GDK_SHIFT_MASK) != 0 || (self->pointer_inside && self->pointer_x < self->gutter_width))
    {
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
    sps_session_zoom (self->session, pow (WHEEL_ZOOM_FACTOR, -dy), pointer_time (self, TRUE));

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
  Geometry g;
  double npp;

  if (self->session == NULL || self->drag_mode == DRAG_NONE)
    return;

  if (fabs (ox) >= DRAG_THRESHOLD || fabs (oy) >= DRAG_THRESHOLD)
    self->drag_moved = TRUE;

  get_geometry (self, gtk_widget_get_width (GTK_WIDGET (self)), gtk_widget_get_height (GTK_WIDGET (self)), &g);
  npp = (double) _sps_time_span (self->drag_start, self->drag_end) / g.track_width;

  switch (self->drag_mode)
    {
    case DRAG_GUTTER:
      sps_timeline_set_gutter_width (self, self->drag_gutter + (int) ox);
      break;

    case DRAG_PAN:
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

    case DRAG_RANGE:
      if (self->drag_moved)
        {
          SpsTime a = x_to_time (&g, self->drag_x);
          SpsTime b = x_to_time (&g, self->drag_x + ox);

          sps_session_set_range (self->session, MIN (a, b), MAX (a, b));
        }
      break;

    case DRAG_NONE:
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
  if (self->session != NULL && self->drag_mode == DRAG_RANGE && !self->drag_moved && self->drag_y < self->ruler_height)
    sps_session_clear_range (self->session);

  self->drag_mode = DRAG_NONE;
  update_hover (self);
}

static void
click_released_cb (SpsTimeline     *self,
                   int              n_press,
                   double           x,
                   double           y,
                   GtkGestureClick *gesture)
{
  Geometry g;
  guint index;
  const SpsTimelineRow *row;
  guint slice;

  /* After a drag the click gesture is cancelled: no release comes. */
  if (self->session == NULL || in_splitter (self, x))
    return;

  get_geometry (self, gtk_widget_get_width (GTK_WIDGET (self)), gtk_widget_get_height (GTK_WIDGET (self)), &g);
  if (y < g.ruler_height)
    return;

  index = hit_row (self, &g, y);
  if (index != SPS_NO_INDEX)
    {
      row = _sps_timeline_layout_get_row (self->layout, index);
      if (row->kind == SPS_TIMELINE_ROW_PROCESS)
        {
          sps_session_set_process_collapsed (self->session, row->process,
                                             !(row->flags & SPS_TIMELINE_ROW_COLLAPSED));
          return;
        }
    }

  if (x < g.gutter)
    return;

  slice = hit_slice (self, x, y);
  self->selecting_from_click = TRUE;
  sps_session_set_selected_slice (self->session, slice);
  self->selecting_from_click = FALSE;
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
  const SpsSliceTable *slices;
  g_autofree char *dur = NULL;
  g_autofree char *self_time = NULL;
  const char *name;
  guint slice;
  guint16 flags;

  g_return_val_if_fail (SPS_IS_TIMELINE (self), NULL);

  if (self->trace == NULL)
    return NULL;

  slice = hit_slice (self, x, y);
  if (slice == SPS_NO_INDEX)
    {
      Geometry g;
      guint index;
      const SpsTimelineRow *row;
      double value;

      get_geometry (self, gtk_widget_get_width (widget), gtk_widget_get_height (widget), &g);
      index = hit_row (self, &g, y);
      if (index == SPS_NO_INDEX || x < g.gutter)
        return NULL;
      row = _sps_timeline_layout_get_row (self->layout, index);
      if (row->kind == SPS_TIMELINE_ROW_SAMPLES)
        {
          /* The sample nearest the pointer, within a few pixels */
          guint sample = _sps_stack_text_find_sample (self->trace, row->track, x_to_time (&g, x),
                                                      (SpsTime) ceil (4 * g.ns_per_px));

          if (sample == SPS_NO_INDEX)
            return NULL;
          return _sps_stack_text_sample_markup (self->trace, sample);
        }
      if (row->kind == SPS_TIMELINE_ROW_INSTANTS)
        {
          /* The instant (or event) nearest the pointer, within half a mark */
          guint instant = _sps_event_text_find_instant (self->trace, row->track, x_to_time (&g, x),
                                                        (SpsTime) ceil (6 * g.ns_per_px));

          if (instant == SPS_NO_INDEX || !sps_session_is_instant_visible (self->session, instant))
            return NULL;
          return _sps_event_text_instant_markup (self->trace, instant);
        }
      if (row->kind != SPS_TIMELINE_ROW_COUNTER ||
          !_sps_timeline_lod_get_counter_value (self->lod, row->track, x_to_time (&g, x), &value))
        return NULL;

      return g_markup_printf_escaped ("<b>%s</b>\n%.6g",
                                      string_or (self, sps_trace_get_tracks (self->trace)->name[row->track], _("Counter")),
                                      value);
    }

  slices = sps_trace_get_slices (self->trace);
  name = string_or (self, slices->name[slice], _("(unnamed)"));
  flags = slices->flags[slice];
  dur = sps_time_format_duration (slices->dur[slice], 3);
  self_time = sps_time_format_duration (slices->self_time[slice], 3);

  if (flags & SPS_SLICE_SAMPLED)
    /* TRANSLATORS: sampled spans are estimated from stack samples */
    return g_markup_printf_escaped (_("<b>%s</b>\nDuration: ~%s (estimate from samples)\nSelf time: ~%s (estimate)"),
                                    name, dur, self_time);
  if (flags & SPS_SLICE_UNFINISHED)
    return g_markup_printf_escaped (_("<b>%s</b>\nDuration: at least %s (did not end)\nSelf time: %s"),
                                    name, dur, self_time);
  return g_markup_printf_escaped (_("<b>%s</b>\nDuration: %s\nSelf time: %s"), name, dur, self_time);
}

static gboolean
sps_timeline_query_tooltip (GtkWidget  *widget,
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

/* Actions */

static void
action_zoom (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  SpsTimeline *self = SPS_TIMELINE (widget);
  double factor = g_str_equal (action_name, "timeline.zoom-in") ? KEY_ZOOM_FACTOR : 1 / KEY_ZOOM_FACTOR;

  if (self->session != NULL)
    sps_session_zoom (self->session, factor, pointer_time (self, TRUE));
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

  ensure_metrics (self);
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
  reveal_slice (self, slice);
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

/* GObject */

static void
sps_timeline_css_changed (GtkWidget         *widget,
                          GtkCssStyleChange *change)
{
  SpsTimeline *self = SPS_TIMELINE (widget);

  GTK_WIDGET_CLASS (sps_timeline_parent_class)->css_changed (widget, change);

  invalidate_metrics (self);
  gtk_widget_queue_resize (widget);
}

static void
sps_timeline_root (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (sps_timeline_parent_class)->root (widget);

  /* Another display or settings: new fonts. */
  invalidate_metrics (SPS_TIMELINE (widget));
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

  invalidate_row_cache (self);
  if (self->labels != NULL)
    invalidate_labels (self);
  g_clear_object (&self->text_layout);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  for (guint i = 0; i < SPS_PALETTE_SIZE; i++)
    {
      g_clear_pointer (&self->diamonds[i], g_free);
      g_clear_pointer (&self->hatch_tiles[i], gsk_render_node_unref);
    }

  G_OBJECT_CLASS (sps_timeline_parent_class)->dispose (object);
}

static void
sps_timeline_finalize (GObject *object)
{
  SpsTimeline *self = (SpsTimeline *)object;

  g_clear_pointer (&self->layout, _sps_timeline_layout_free);
  g_clear_pointer (&self->lod, _sps_timeline_lod_free);
  g_clear_object (&self->trace);
  g_free (self->row_cache);
  g_clear_pointer (&self->labels, g_hash_table_unref);
  g_clear_pointer (&self->gutter_labels, g_hash_table_unref);
  g_clear_pointer (&self->ruler_cache, _sps_time_ruler_cache_free);
  g_clear_pointer (&self->corner_text, g_free);
  g_clear_pointer (&self->corner_node, gsk_render_node_unref);
  g_free (self->name_color);
  g_free (self->flows_by_min);
  g_free (self->flow_max_sorted);
  g_free (self->flow_running_max);
  g_clear_pointer (&self->selected_flows, g_array_unref);
  invalidate_flow_cache (self);
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
    case PROP_TRACK_HEIGHT:
      g_value_set_int (value, self->track_height);
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
    case PROP_GUTTER_WIDTH:
      sps_timeline_set_gutter_width (self, g_value_get_int (value));
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

  object_class->dispose = sps_timeline_dispose;
  object_class->finalize = sps_timeline_finalize;
  object_class->get_property = sps_timeline_get_property;
  object_class->set_property = sps_timeline_set_property;

  widget_class->snapshot = sps_timeline_snapshot;
  widget_class->measure = sps_timeline_measure;
  widget_class->size_allocate = sps_timeline_size_allocate;
  widget_class->css_changed = sps_timeline_css_changed;
  widget_class->root = sps_timeline_root;
  widget_class->query_tooltip = sps_timeline_query_tooltip;

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
   * SpsTimeline:track-height:
   *
   * Height of one lane, in px; lanes grow when the font needs more.
   */
  properties[PROP_TRACK_HEIGHT] =
    g_param_spec_int ("track-height", NULL, NULL,
                      MIN_TRACK_HEIGHT, MAX_TRACK_HEIGHT, DEFAULT_TRACK_HEIGHT,
                      (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_object_class_override_property (object_class, PROP_HADJUSTMENT, "hadjustment");
  g_object_class_override_property (object_class, PROP_VADJUSTMENT, "vadjustment");
  g_object_class_override_property (object_class, PROP_HSCROLL_POLICY, "hscroll-policy");
  g_object_class_override_property (object_class, PROP_VSCROLL_POLICY, "vscroll-policy");

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

  /* No key bindings of its own: the keys are the application's
   * accelerators, read from the settings so that users can rebind them
   * (app/shell), and a binding here would keep a default key working
   * after it was rebound. */

  gtk_widget_class_set_css_name (widget_class, "timeline");
}

static void
sps_timeline_init (SpsTimeline *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkEventController *controller;
  GtkGesture *gesture;

  self->gutter_width = DEFAULT_GUTTER_WIDTH;
  self->track_height = DEFAULT_TRACK_HEIGHT;
  self->labels = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, label_free);
  self->gutter_labels = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, label_free);
  self->ruler_cache = _sps_time_ruler_cache_new ();
  self->selected_flows = g_array_new (FALSE, FALSE, sizeof (guint));
  self->row_nodes = g_ptr_array_new_with_free_func ((GDestroyNotify) gsk_render_node_unref);
  self->overlay_nodes = g_ptr_array_new_with_free_func ((GDestroyNotify) gsk_render_node_unref);
  self->drag_mode = DRAG_NONE;

  gtk_widget_set_focusable (widget, TRUE);
  gtk_widget_set_has_tooltip (widget, TRUE);
  gtk_widget_set_overflow (widget, GTK_OVERFLOW_HIDDEN);

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
  if (self->gutter_width == width)
    return;

  self->gutter_width = width;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GUTTER_WIDTH]);
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
  invalidate_row_cache (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TRACK_HEIGHT]);
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
  Geometry g;

  g_return_val_if_fail (SPS_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (area != NULL, FALSE);

  if (self->trace == NULL)
    return FALSE;

  get_geometry (self, gtk_widget_get_width (GTK_WIDGET (self)), gtk_widget_get_height (GTK_WIDGET (self)), &g);

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
  draw (self, snapshot, width, height);

  return gtk_snapshot_free_to_node (snapshot);
}

/**
 * _sps_timeline_get_lod:
 * @self: a #SpsTimeline
 *
 * Returns: (transfer none) (nullable): the level-of-detail summaries the
 *   timeline draws with
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
  invalidate_row_cache (self);
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
 * or any button on the ruler, selects a time range; the splitter resizes
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
  Geometry g;

  g_return_val_if_fail (SPS_IS_TIMELINE (self), FALSE);

  if (self->session == NULL)
    return FALSE;

  get_geometry (self, gtk_widget_get_width (GTK_WIDGET (self)), gtk_widget_get_height (GTK_WIDGET (self)), &g);

  self->drag_x = x;
  self->drag_y = y;
  self->drag_moved = FALSE;
  self->drag_start = g.start;
  self->drag_end = g.end;
  self->drag_gutter = self->gutter_width;
  self->drag_scroll = self->vadjustment != NULL ? gtk_adjustment_get_value (self->vadjustment) : 0;

  if (button == GDK_BUTTON_MIDDLE)
    self->drag_mode = DRAG_PAN;
  else if (in_splitter (self, x))
    self->drag_mode = DRAG_GUTTER;
  else if (x >= g.gutter && (y < g.ruler_height || (state & GDK_SHIFT_MASK) != 0))
    self->drag_mode = DRAG_RANGE;
  else if (x >= g.gutter && (state & GDK_CONTROL_MASK) != 0)
    self->drag_mode = DRAG_PAN;
  else
    self->drag_mode = DRAG_NONE;

  gtk_widget_grab_focus (GTK_WIDGET (self));

  return self->drag_mode != DRAG_NONE;
}
