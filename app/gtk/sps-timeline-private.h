/* sps-timeline-private.h: the timeline's insides, shared by its files
 *
 * SpsTimeline is one widget drawn by several files, as GNOME Text
 * Editor's window is: sps-timeline.c (the GObject, size, scrolling and
 * the session), -style.c (colours, font metrics, cached text),
 * -canvas.c (the pixels of a row), -painter.c and the -*-painter.c files
 * (one per kind of row), -tiles.c (cached tiles and their prefetch),
 * -flows.c, -gutter.c, -draw.c (the frame: rows, overlays, ruler),
 * -input.c (pointer, drags, tooltips) and -actions.c. The instance
 * struct below is theirs; nothing outside app/gtk's timeline files
 * reads it but tests and the frame benchmark, through the functions
 * marked for export.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "sps-palette-private.h"
#include "sps-time-ruler-private.h"
#include "sps-timeline.h"
#include "sps-timeline-canvas-private.h"
#include "sps-timeline-layout-private.h"
#include "sps-timeline-lod-private.h"
#include "sps-timeline-painter-private.h"

G_BEGIN_DECLS

/* Exported (but not installed) for the tests and the frame benchmark. */
SPS_GTK_AVAILABLE_IN_ALL
SpsTimelineLod    *_sps_timeline_get_lod    (SpsTimeline *self);
SPS_GTK_AVAILABLE_IN_ALL
SpsTimelineLayout *_sps_timeline_get_layout (SpsTimeline *self);
/* Rows to summarise from which a trace's summaries are built ahead on
 * worker threads (see _sps_timeline_set_prepare_threshold()) */
#define SPS_TIMELINE_PREPARE_THRESHOLD 1000000
SPS_GTK_AVAILABLE_IN_ALL
void               _sps_timeline_set_prepare_threshold (guint64 rows);
SPS_GTK_AVAILABLE_IN_ALL
void               _sps_timeline_set_tiles_enabled (SpsTimeline *self,
                                                    gboolean     enabled);
SPS_GTK_AVAILABLE_IN_ALL
guint              _sps_timeline_get_frame_tile_builds (SpsTimeline *self);
SPS_GTK_AVAILABLE_IN_ALL
gboolean           _sps_timeline_drag_begin (SpsTimeline     *self,
                                             double           x,
                                             double           y,
                                             guint            button,
                                             GdkModifierType  state);
SPS_GTK_AVAILABLE_IN_ALL
void               _sps_timeline_hit_item   (SpsTimeline  *self,
                                             double        x,
                                             double        y,
                                             SpsSelection *selection);
SPS_GTK_AVAILABLE_IN_ALL
char              *_sps_timeline_dup_tooltip_markup (SpsTimeline *self,
                                                     int          x,
                                                     int          y);

/* Slices narrower than this get no label. */
#define SPS_TIMELINE_MIN_LABEL_WIDTH  20
#define SPS_TIMELINE_LABEL_PADDING    4
/* Slice lanes are drawn in tiles of this many px, aligned to a pixel grid
 * that starts at the trace's start, so that panning redraws only the
 * tiles that come into view. */
#define SPS_TIMELINE_TILE_WIDTH       256
/* The pinned band takes at most this much of the rows' height */
#define SPS_TIMELINE_PIN_FRACTION     0.4

typedef enum
{
  SPS_TIMELINE_DRAG_NONE,
  SPS_TIMELINE_DRAG_PAN,
  SPS_TIMELINE_DRAG_RANGE,
  SPS_TIMELINE_DRAG_GUTTER,
} SpsTimelineDragMode;

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
  gboolean dark;
} SpsTimelineStyle;

/* Where a label may go: a slice of its own wide enough for one, in px of
 * the pixel grid of its tile (see SPS_TIMELINE_TILE_WIDTH). */
typedef struct
{
  double  x0;
  double  x1;
  guint32 name;
  guint32 slice;
} SpsTimelineLabelSpot;

/* One tile of a row: columns [index × SPS_TIMELINE_TILE_WIDTH, (index + 1) ×
 * SPS_TIMELINE_TILE_WIDTH) of the pixel grid, as nodes in the tile's coordinates. A
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
  GArray        *inner;    /* SpsTimelineLabelSpot of slices wholly inside it */
  GArray        *crossing; /* SpsTimelineLabelSpot of slices reaching past an edge */
} SpsTimelineTile;

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
  GArray        *tiles;    /* SpsTimelineTile, on the pixel grid */
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
} SpsTimelineRowCache;

typedef struct
{
  GskRenderNode *node;   /* NULL when nothing fits */
  int            width;
  guint64        used;
} SpsTimelineLabel;

typedef struct
{
  SpsTime tmin;
  SpsTime tmax;
  guint32 flow;
} SpsTimelineFlowKey;

/* Flows sorted by their earlier end, and the later ends sorted, so the
 * flows crossing a window are counted with two binary searches; the
 * running maximum of the later ends finds the first one to draw. Made
 * from the trace alone, so any thread may build it. */
typedef struct
{
  SpsTimelineFlowKey *by_min;      /* NULL until built */
  SpsTime            *max_sorted;
  SpsTime            *running_max;
  guint               n;
} SpsTimelineFlowIndex;

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
  int            pinned_scroll;
  int            band;
  int            width;
  int            height;
  gboolean       show_all;
} SpsTimelineFlowCache;

struct _SpsTimeline
{
  GtkWidget             parent_instance;

  SpsSession           *session;
  SpsTrace             *trace;
  SpsTimelineLayout    *layout;
  SpsTimelineLod       *lod;           /* NULL while being prepared */
  GCancellable         *lod_cancellable; /* of the preparation running */

  GtkAdjustment        *hadjustment;
  GtkAdjustment        *vadjustment;
  guint                 hscroll_policy : 1;
  guint                 vscroll_policy : 1;
  guint                 configuring : 1;
  guint                 style_valid : 1;
  guint                 metrics_valid : 1;
  guint                 selecting_from_click : 1;
  guint                 pointer_inside : 1;
  guint                 tiles_disabled : 1;  /* tests compare with and without */
  guint                 resting : 1;       /* not moved since it entered */
  guint                 collect_stats : 1; /* the diagnostics panel is open */
  guint                 prepare_ahead : 1; /* SpsTimeline:prepare-ahead */

  int                   gutter_width;
  int                   track_height;
  int                   pinned_scroll;   /* inside the pinned band */

  /* From the font */
  PangoLayout          *text_layout;
  int                   text_height;
  int                   ellipsis_width;
  int                   min_letter_width;
  SpsTimelineLabel      no_label;
  int                   lane_height;
  int                   header_height;
  int                   ruler_height;

  SpsTimelineStyle      style;
  guint                 style_serial;
  guint32              *diamonds[SPS_PALETTE_SIZE];  /* pixels of the marks */
  GskRenderNode        *hatch_tiles[SPS_PALETTE_SIZE];
  GPtrArray            *row_nodes;       /* scratch lists of nodes */
  GPtrArray            *overlay_nodes;
  int                   diamond_size;
  int                   diamond_scale;

  SpsTimelineRowCache  *row_cache;
  guint                 n_row_cache;
  /* The tile coming into view next, built between frames: see
   * _sps_timeline_queue_prefetch() */
  guint                 prefetch_id;
  SpsTimelineGeometry   prefetch_geometry;
  gint64                prefetch_first;  /* the tiles to build, on the grid */
  gint64                prefetch_last;
  guint                 prefetch_row;
  guint                 prefetch_end;
  gint64                last_origin_px;
  double                last_ns_per_px;
  guint                 frame_tile_builds;
  SpsTimelineStats      stats;             /* sps-timeline-stats.c */
  /* Slices the painters drew and merged since the frame began, and the
   * lanes they painted: published to stats when a frame painted any */
  guint                 painted_items;
  guint                 merged_items;
  guint                 painted_lanes;
  GHashTable           *labels;        /* name id << 16 | width step → Label */
  GHashTable           *gutter_labels; /* row key → Label */
  SpsTimeRulerCache    *ruler_cache;
  char                 *corner_text;
  GskRenderNode        *corner_node;
  int                   corner_width;
  guint64               frame;
  guint8               *name_color;    /* palette entry per string id */
  guint                 n_names;

  SpsTimelineFlowIndex  flow_index;    /* built on first use, or ahead */
  GArray               *selected_flows;
  SpsTimelineFlowCache  flow_cache;

  /* Pointer and drags */
  double                pointer_x;
  double                pointer_y;
  double                rest_x;          /* where it entered, in the window */
  double                rest_y;
  SpsTimelineDragMode   drag_mode;
  double                drag_x;
  double                drag_y;
  SpsTime               drag_start;
  SpsTime               drag_end;
  int                   drag_gutter;
  double                drag_scroll;
  gboolean              drag_moved;

  /* The gutter fits its longest label until the user drags it */
  guint                 gutter_auto : 1;
  guint                 gutter_fitted : 1;  /* for this trace and font */
  guint                 fitting_gutter : 1;
  /* Stack charts of samples (sps-timeline-stacks.c), of the sample table
   * the session's "raw-stacks" picks */
  SpsTimelineStacks    *stacks;

  /* The ruler's menu (sps-timeline-ruler-menu.c) and the time it was
   * opened for */
  GtkWidget            *ruler_menu;
  GtkWidget            *label_menu;     /* a thread label's: pin, unpin */
  double                menu_x;
  SpsTime               menu_time;
};

/* sps-timeline-style.c */
void                    _sps_timeline_clear_marks        (SpsTimeline   *self);
void                    _sps_timeline_ensure_metrics     (SpsTimeline   *self);
void                    _sps_timeline_invalidate_metrics (SpsTimeline   *self);
void                    _sps_timeline_label_free         (gpointer       data);
void                    _sps_timeline_invalidate_labels  (SpsTimeline   *self);
GskRenderNode          *_sps_timeline_layout_to_node     (PangoLayout   *layout,
                                                          const GdkRGBA *color);
const SpsTimelineLabel *_sps_timeline_get_slice_label    (SpsTimeline   *self,
                                                          guint32        name,
                                                          int            available);

/* The palette entry of a string id, looked up once per name: the slice
 * painter asks for every item it draws. */
static inline guint
_sps_timeline_name_color (SpsTimeline *self,
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

/* sps-timeline.c */
void           _sps_timeline_get_geometry          (SpsTimeline         *self,
                                                    int                  width,
                                                    int                  height,
                                                    SpsTimelineGeometry *g);
SpsTimelineSource _sps_timeline_get_source       (SpsTimeline         *self);

/* sps-timeline-tiles.c */
void           _sps_timeline_row_cache_clear       (SpsTimelineRowCache       *cache);
void           _sps_timeline_invalidate_row_cache  (SpsTimeline               *self);
void           _sps_timeline_resize_row_cache      (SpsTimeline               *self);
GskRenderNode *_sps_timeline_get_row_node          (SpsTimeline               *self,
                                                    guint                      index,
                                                    const SpsTimelineRow      *row,
                                                    const SpsTimelineGeometry *g);
void           _sps_timeline_queue_prefetch        (SpsTimeline               *self,
                                                    const SpsTimelineGeometry *g,
                                                    guint                      first,
                                                    guint                      last);

/* sps-timeline.c and sps-timeline-prepare.c */
void           _sps_timeline_maybe_prepare         (SpsTimeline               *self);
void           _sps_timeline_take_prepared         (SpsTimeline               *self,
                                                    SpsTimelineLod            *lod,
                                                    SpsTimelineFlowIndex      *flow_index);

/* sps-timeline-flows.c */
SPS_GTK_AVAILABLE_IN_ALL
void           _sps_timeline_flow_index_build      (SpsTrace                  *trace,
                                                    SpsTimelineFlowIndex      *index);
SPS_GTK_AVAILABLE_IN_ALL
void           _sps_timeline_flow_index_clear      (SpsTimelineFlowIndex      *index);
void           _sps_timeline_invalidate_flow_cache (SpsTimeline               *self);
void           _sps_timeline_update_selected_flows (SpsTimeline               *self);
void           _sps_timeline_draw_flows            (SpsTimeline               *self,
                                                    GtkSnapshot               *snapshot,
                                                    const SpsTimelineGeometry *g);

/* sps-timeline-gutter.c */
void           _sps_timeline_draw_gutter           (SpsTimeline               *self,
                                                    GtkSnapshot               *snapshot,
                                                    const SpsTimelineGeometry *g,
                                                    guint                      first,
                                                    guint                      last);
SPS_GTK_AVAILABLE_IN_ALL
int            _sps_timeline_fit_gutter            (SpsTimeline               *self,
                                                    int                        limit);
void           _sps_timeline_draw_corner           (SpsTimeline               *self,
                                                    GtkSnapshot               *snapshot,
                                                    const SpsTimelineGeometry *g);
SPS_GTK_AVAILABLE_IN_ALL
gboolean       _sps_timeline_gutter_toggle_thread  (SpsTimeline               *self,
                                                    guint                      index);
SPS_GTK_AVAILABLE_IN_ALL
GtkWidget     *_sps_timeline_popup_label_menu      (SpsTimeline               *self,
                                                    guint                      index,
                                                    double                     y);

/* sps-timeline-flags.c */
void           _sps_timeline_draw_flags            (SpsTimeline               *self,
                                                    GtkSnapshot               *snapshot,
                                                    const SpsTimelineGeometry *g);
SPS_GTK_AVAILABLE_IN_ALL
const GdkRGBA *_sps_timeline_flag_color            (void);
SPS_GTK_AVAILABLE_IN_ALL
SpsFlag       *_sps_timeline_add_flag_at           (SpsTimeline               *self,
                                                    double                     x);
void           _sps_timeline_flags_changed         (SpsTimeline               *self,
                                                    guint                      position,
                                                    guint                      removed,
                                                    guint                      added,
                                                    GListModel                *flags);

/* sps-timeline-stats.c */
_SPS_GTK_EXTERN
guint          _sps_render_node_count              (GskRenderNode             *node);
void           _sps_timeline_snapshot_counted      (SpsTimeline               *self,
                                                    GtkSnapshot               *snapshot,
                                                    int                        width,
                                                    int                        height);

/* sps-timeline-draw.c */
void           _sps_timeline_draw                  (SpsTimeline               *self,
                                                    GtkSnapshot               *snapshot,
                                                    int                        width,
                                                    int                        height);
guint          _sps_timeline_hit_row               (SpsTimeline               *self,
                                                    const SpsTimelineGeometry *g,
                                                    double                     y);

/* sps-timeline-input.c */
void           _sps_timeline_input_init            (SpsTimeline               *self);
SpsTime        _sps_timeline_pointer_time          (SpsTimeline               *self,
                                                    gboolean                   use_pointer);
gboolean       _sps_timeline_query_tooltip         (GtkWidget                 *widget,
                                                    int                        x,
                                                    int                        y,
                                                    gboolean                   keyboard,
                                                    GtkTooltip                *tooltip);

/* sps-timeline-counter-painter.c: the counters' y axis and values, shared
 * with the hover badge; exported for the tests */
SPS_GTK_AVAILABLE_IN_ALL
gboolean       _sps_timeline_counter_axis          (SpsTimelineLod            *lod,
                                                    guint32                    track,
                                                    double                    *lo,
                                                    double                    *hi);
SPS_GTK_AVAILABLE_IN_ALL
char          *_sps_timeline_counter_dup_title     (SpsTrace                  *trace,
                                                    guint32                    track);
SPS_GTK_AVAILABLE_IN_ALL
char          *_sps_timeline_counter_dup_unit      (SpsTrace                  *trace,
                                                    guint32                    track);
SPS_GTK_AVAILABLE_IN_ALL
char          *_sps_timeline_counter_format_value  (double                     value,
                                                    const char                *unit);
void           _sps_timeline_draw_counter_axes     (SpsTimeline               *self,
                                                    GtkSnapshot               *snapshot,
                                                    const SpsTimelineGeometry *g,
                                                    guint                      first,
                                                    guint                      last);

/* sps-timeline-ruler-menu.c */
void           _sps_timeline_ruler_menu_class_init (GtkWidgetClass            *widget_class);
SPS_GTK_AVAILABLE_IN_ALL
GtkWidget     *_sps_timeline_popup_ruler_menu      (SpsTimeline               *self,
                                                    double                     x);

/* sps-timeline-actions.c */
void           _sps_timeline_actions_class_init    (GtkWidgetClass            *widget_class);
void           _sps_timeline_reveal_slice          (SpsTimeline               *self,
                                                    guint                      slice);

G_END_DECLS
