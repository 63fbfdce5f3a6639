/* sps-time-ruler.c: the time axis drawn above the timeline's tracks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-time-ruler"

#include "config.h"

#include <math.h>

#include <spanscope-core.h>
#include "sps-time-math-private.h"
#include "sps-time-ruler-private.h"

/* Space between two labels, and between a tick and its label, in px. */
#define LABEL_GAP      24
#define LABEL_PADDING  4

/* Minor ticks closer than this are not drawn. */
#define MIN_MINOR_PIXELS 6

/* Entries beyond this are dropped when unused in the last frames. */
#define MAX_CACHED_LABELS 256

typedef struct
{
  GskRenderNode *node;
  GdkRGBA        color;
  int            width;
  int            height;
  guint64        used;
} CachedLabel;

struct _SpsTimeRulerCache
{
  GHashTable *labels;    /* text → CachedLabel */
  guint64     frame;
};

/* Units of sps_time_format_duration(), largest first. */
static const SpsTime units[] = { 1000000000, 1000000, 1000, 1 };

static guint64
magnitude (SpsTime value)
{
  if (value >= 0)
    return (guint64) value;
  return (guint64) (-(value + 1)) + 1;
}

/**
 * _sps_time_ruler_precision:
 * @value: a label's time, ns
 * @step: the step between labels, ns
 *
 * Labels are formatted in the unit of their own value (1.25 ms, 800 µs),
 * so the decimals they need depend on both: enough for @step to change
 * the label.
 *
 * Returns: the decimals for sps_time_format_duration()
 */
guint
_sps_time_ruler_precision (SpsTime value,
                           SpsTime step)
{
  guint64 mag = magnitude (value);
  guint64 unit = 1;
  guint64 s = (guint64) MAX (step, 1);
  guint decimals = 0;

  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (mag >= (guint64) units[i])
      {
        unit = units[i];
        break;
      }

  while (s < unit)
    {
      s *= 10;
      decimals++;
    }

  return decimals;
}

/**
 * _sps_time_ruler_format_tick:
 * @scale: a scale
 * @tick: the time of a tick, ns
 *
 * Returns: (transfer full): the label of @tick: its time since the origin
 */
char *
_sps_time_ruler_format_tick (const SpsTimeRulerScale *scale,
                             SpsTime                  tick)
{
  SpsTime relative;

  g_return_val_if_fail (scale != NULL, NULL);

  /* Past the range of SpsTime only in traces spanning centuries, where
   * the step is whole seconds. */
  if (tick > scale->origin && (guint64) tick - (guint64) scale->origin > (guint64) G_MAXINT64)
    return g_strdup_printf ("%" G_GUINT64_FORMAT " s", ((guint64) tick - (guint64) scale->origin) / 1000000000);

  relative = _sps_time_sub (tick, scale->origin);

  return sps_time_format_duration (relative, _sps_time_ruler_precision (relative, scale->step));
}

static void
cached_label_free (gpointer data)
{
  CachedLabel *label = data;

  g_clear_pointer (&label->node, gsk_render_node_unref);
  g_free (label);
}

/**
 * _sps_time_ruler_cache_new:
 *
 * Returns: (transfer full): an empty cache of ruler labels
 */
SpsTimeRulerCache *
_sps_time_ruler_cache_new (void)
{
  SpsTimeRulerCache *cache = g_new0 (SpsTimeRulerCache, 1);

  cache->labels = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, cached_label_free);

  return cache;
}

/**
 * _sps_time_ruler_cache_free:
 * @cache: (nullable): a cache
 *
 * Frees @cache. A cache must be dropped when the font changes.
 */
void
_sps_time_ruler_cache_free (SpsTimeRulerCache *cache)
{
  if (cache == NULL)
    return;

  g_hash_table_unref (cache->labels);
  g_free (cache);
}

/* The label of @text: measured, and drawn in @color when @color is set. */
static CachedLabel *
lookup_label (SpsTimeRulerCache *cache,
              PangoLayout       *layout,
              const char        *text,
              const GdkRGBA     *color)
{
  CachedLabel *label = g_hash_table_lookup (cache->labels, text);

  if (label == NULL)
    {
      if (g_hash_table_size (cache->labels) >= MAX_CACHED_LABELS)
        {
          GHashTableIter iter;
          gpointer value;

          g_hash_table_iter_init (&iter, cache->labels);
          while (g_hash_table_iter_next (&iter, NULL, &value))
            if (((CachedLabel *) value)->used + 1 < cache->frame)
              g_hash_table_iter_remove (&iter);
        }

      label = g_new0 (CachedLabel, 1);
      pango_layout_set_text (layout, text, -1);
      pango_layout_get_pixel_size (layout, &label->width, &label->height);
      g_hash_table_insert (cache->labels, g_strdup (text), label);
    }

  if (color != NULL && (label->node == NULL || !gdk_rgba_equal (color, &label->color)))
    {
      GtkSnapshot *snapshot = gtk_snapshot_new ();

      g_clear_pointer (&label->node, gsk_render_node_unref);
      pango_layout_set_text (layout, text, -1);
      gtk_snapshot_append_layout (snapshot, layout, color);
      label->node = gtk_snapshot_free_to_node (snapshot);
      label->color = *color;
    }

  label->used = cache->frame;

  return label;
}

static int
measure (SpsTimeRulerCache *cache,
         PangoLayout       *layout,
         const char        *text)
{
  return lookup_label (cache, layout, text, NULL)->width;
}

static int
widest_label (const SpsTimeRulerScale *scale,
              SpsTimeRulerCache       *cache,
              PangoLayout             *layout)
{
  g_autofree char *first = _sps_time_ruler_format_tick (scale, scale->start);
  g_autofree char *last = _sps_time_ruler_format_tick (scale, scale->end);
  /* A tick between the ends can get a longer label than both (9.5 ms →
   * 10.5 ms): one more digit is room enough. */
  g_autofree char *more = g_strconcat (last, "0", NULL);

  return MAX (measure (cache, layout, first), measure (cache, layout, more));
}

/**
 * _sps_time_ruler_scale_init:
 * @scale: (out caller-allocates): the scale
 * @cache: the label cache
 * @layout: the layout labels are drawn with (to measure them)
 * @origin: the time labelled 0
 * @start: the time at the left edge
 * @end: the time at the right edge
 * @width: the width of the axis, px
 *
 * Picks the tick step: the smallest 1, 2 or 5 × 10^k ns that leaves room
 * for the widest label plus a gap, so that labels never overlap.
 */
void
_sps_time_ruler_scale_init (SpsTimeRulerScale *scale,
                            SpsTimeRulerCache *cache,
                            PangoLayout       *layout,
                            SpsTime            origin,
                            SpsTime            start,
                            SpsTime            end,
                            double             width)
{
  double minor_pixels;
  SpsTime mantissa;

  g_return_if_fail (scale != NULL);
  g_return_if_fail (cache != NULL);
  g_return_if_fail (PANGO_IS_LAYOUT (layout));

  scale->origin = origin;
  scale->start = start;
  /* A zero or reversed span still needs a scale: 1 ns, taken from below
   * when the start is the largest time. */
  if (end <= start)
    {
      if (start == G_MAXINT64)
        scale->start = start - 1;
      end = scale->start + 1;
    }
  scale->end = end;
  scale->width = MAX (width, 1.0);
  /* Unsigned: the span of two extreme times does not fit a gint64. */
  scale->ns_per_pixel = (double) ((guint64) scale->end - (guint64) scale->start) / scale->width;

  /* First a guess, then the step that fits the labels it gives; a larger
   * step has labels as short or shorter, so once is enough. */
  scale->step = sps_time_tick_step (scale->ns_per_pixel, 100);
  scale->step = sps_time_tick_step (scale->ns_per_pixel, widest_label (scale, cache, layout) + LABEL_GAP);
  scale->step = MAX (scale->step,
                     sps_time_tick_step (scale->ns_per_pixel, widest_label (scale, cache, layout) + LABEL_GAP));

  mantissa = scale->step;
  while (mantissa >= 10 && mantissa % 10 == 0)
    mantissa /= 10;
  scale->n_minor = mantissa == 2 ? 4 : 5;
  /* Steps of 1 and 2 ns cannot be divided into whole minor steps (a minor
   * step of 0 would divide by zero below). */
  if (scale->step % scale->n_minor != 0)
    scale->n_minor = 1;

  minor_pixels = (double) scale->step / scale->n_minor / scale->ns_per_pixel;
  if (minor_pixels < MIN_MINOR_PIXELS)
    scale->n_minor = 1;
}

/**
 * _sps_time_ruler_first_tick:
 * @scale: a scale
 *
 * Returns: the time of the first labelled tick at or after the start
 */
SpsTime
_sps_time_ruler_first_tick (const SpsTimeRulerScale *scale)
{
  guint64 step;
  guint64 offset;

  g_return_val_if_fail (scale != NULL, 0);

  /* Unsigned distances from the origin: the origin and the start may be
   * at opposite ends of the range of SpsTime. */
  step = (guint64) scale->step;
  if (scale->start >= scale->origin)
    {
      guint64 distance = (guint64) scale->start - (guint64) scale->origin;
      guint64 steps = distance / step + (distance % step != 0);
      /* G_MAXINT64 − origin, exact in unsigned arithmetic */
      guint64 room = (guint64) G_MAXINT64 - (guint64) scale->origin;

      /* A tick past the largest time is no tick: none is drawn. */
      if (steps > room / step)
        return G_MAXINT64;
      offset = steps * step;
      return (SpsTime) ((guint64) scale->origin + offset);
    }

  offset = ((guint64) scale->origin - (guint64) scale->start) / step * step;
  return (SpsTime) ((guint64) scale->origin - offset);
}

/* Ticks are at @first + i × @step for i < the count returned, all before
 * the end. Unsigned arithmetic: the ends may be anywhere in the range of
 * SpsTime without overflow. */
static guint
count_ticks (const SpsTimeRulerScale *scale,
             SpsTime                  first,
             SpsTime                  step)
{
  guint64 span;

  if (first >= scale->end)
    return 0;

  span = (guint64) scale->end - (guint64) first;

  /* A ruler never has more ticks than pixels. */
  return (guint) MIN ((span - 1) / (guint64) step + 1, (guint64) scale->width + 2);
}

static inline SpsTime
nth_tick (SpsTime first,
          SpsTime step,
          guint   i)
{
  return (SpsTime) ((guint64) first + (guint64) i * (guint64) step);
}

static inline float
tick_x (const SpsTimeRulerScale *scale,
        SpsTime                  tick)
{
  /* Ticks are never before the start; unsigned for extreme times. */
  return floorf ((float) ((double) ((guint64) tick - (guint64) scale->start) / scale->ns_per_pixel));
}

/**
 * _sps_time_ruler_label_x:
 * @tick_x: the x of a labelled tick
 * @label_width: the width of its label
 * @width: the width of the ruler
 * @label_end: where the label before it ends, padding included
 *
 * Where the label of a tick goes: right of the tick, or, where that
 * would cross the end of the ruler (the last tick of a window), left of
 * it, so that no label is ever cut. The step leaves room for every label;
 * a label that still would overlap the one before is not drawn.
 *
 * Returns: the x of the label's left edge, or NAN for no label
 */
float
_sps_time_ruler_label_x (float tick_x,
                         int   label_width,
                         float width,
                         float label_end)
{
  float x = tick_x + LABEL_PADDING;

  if (x + label_width > width)
    x = tick_x - LABEL_PADDING - label_width;
  if (x < label_end || x < 0)
    return NAN;
  return x;
}

/**
 * _sps_time_ruler_snapshot:
 * @snapshot: where to draw
 * @cache: the label cache
 * @layout: a layout in the widget's font
 * @scale: the scale
 * @colors: the colours
 * @height: the height of the ruler
 * @keep_x0: start of a span to leave free of labels (for a badge on top)
 * @keep_x1: its end; before @keep_x0 for none
 *
 * Draws the ruler at (0, 0), @scale's width wide: major ticks across its
 * height with their label to the right, minor ticks at the bottom.
 */
void
_sps_time_ruler_snapshot (GtkSnapshot              *snapshot,
                          SpsTimeRulerCache        *cache,
                          PangoLayout              *layout,
                          const SpsTimeRulerScale  *scale,
                          const SpsTimeRulerColors *colors,
                          float                     height,
                          float                     keep_x0,
                          float                     keep_x1)
{
  float width;
  float label_end = -G_MAXFLOAT;
  int text_height = 0;
  SpsTime first;

  g_return_if_fail (GTK_IS_SNAPSHOT (snapshot));
  g_return_if_fail (cache != NULL);
  g_return_if_fail (PANGO_IS_LAYOUT (layout));
  g_return_if_fail (scale != NULL && colors != NULL);

  cache->frame++;
  width = (float) scale->width;

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  gtk_snapshot_append_color (snapshot, &colors->background, &GRAPHENE_RECT_INIT (0, 0, width, height));
  gtk_snapshot_append_color (snapshot, &colors->border, &GRAPHENE_RECT_INIT (0, height - 1, width, 1));

  text_height = lookup_label (cache, layout, "0", NULL)->height;

  first = _sps_time_ruler_first_tick (scale);

  /* Minor ticks, from the step before the first labelled tick. */
  if (scale->n_minor > 1)
    {
      SpsTime minor = scale->step / scale->n_minor;

      guint64 offset = ((guint64) first - (guint64) scale->start) % (guint64) minor;
      /* Unsigned: past the end (none drawn) the sum could overflow. */
      SpsTime first_minor = (SpsTime) ((guint64) scale->start + offset);
      guint n = offset < (guint64) scale->end - (guint64) scale->start ? count_ticks (scale, first_minor, minor) : 0;

      for (guint i = 0; i < n; i++)
        gtk_snapshot_append_color (snapshot, &colors->tick,
                                   &GRAPHENE_RECT_INIT (tick_x (scale, nth_tick (first_minor, minor, i)),
                                                        height - 5, 1, 4));
    }

  for (guint i = 0, n = count_ticks (scale, first, scale->step); i < n; i++)
    {
      SpsTime t = nth_tick (first, scale->step, i);
      g_autofree char *text = _sps_time_ruler_format_tick (scale, t);
      float x = tick_x (scale, t);
      const CachedLabel *label;
      float label_x;

      gtk_snapshot_append_color (snapshot, &colors->tick, &GRAPHENE_RECT_INIT (x, 0, 1, height - 1));

      label = lookup_label (cache, layout, text, &colors->text);
      label_x = _sps_time_ruler_label_x (x, label->width, width, label_end);
      if (isnan (label_x))
        continue;
      if (keep_x0 <= keep_x1 && label_x < keep_x1 && label_x + label->width > keep_x0)
        continue;
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (label_x, floorf ((height - 1 - text_height) / 2)));
      gtk_snapshot_append_node (snapshot, label->node);
      gtk_snapshot_restore (snapshot);
      label_end = label_x + label->width + LABEL_PADDING;
    }

  gtk_snapshot_pop (snapshot);
}

/**
 * _sps_time_ruler_snapshot_grid:
 * @snapshot: where to draw
 * @scale: the scale
 * @color: colour of the lines
 * @height: their height
 *
 * Draws a vertical line at each labelled tick, from (x, 0) down @height.
 */
void
_sps_time_ruler_snapshot_grid (GtkSnapshot             *snapshot,
                               const SpsTimeRulerScale *scale,
                               const GdkRGBA           *color,
                               float                    height)
{
  SpsTime first;
  guint n;

  g_return_if_fail (GTK_IS_SNAPSHOT (snapshot));
  g_return_if_fail (scale != NULL && color != NULL);

  first = _sps_time_ruler_first_tick (scale);
  n = count_ticks (scale, first, scale->step);

  for (guint i = 0; i < n; i++)
    gtk_snapshot_append_color (snapshot, color,
                               &GRAPHENE_RECT_INIT (tick_x (scale, nth_tick (first, scale->step, i)), 0, 1, height));
}
