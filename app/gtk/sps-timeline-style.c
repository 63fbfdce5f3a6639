/* sps-timeline-style.c: the timeline's colours, font metrics and cached text
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-timeline"

#include "config.h"

#include "sps-timeline-private.h"

/* Labels are cached per width in steps of this many pixels. */
#define LABEL_WIDTH_STEP     8
#define MAX_CACHED_LABELS    8192

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
  SpsTimelineStyle *s = &self->style;
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
    /* The Preferences' selection colour, defined by the application */
    has_selected = gtk_style_context_lookup_color (context, "sps_selection_color", &selected) ||
                   gtk_style_context_lookup_color (context, "theme_selected_bg_color", &selected);
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
  /* Text on the accent (the range's badge) stays readable on a light
   * selection colour */
  s->accent_text = luminance (&selected) > 0.6f ? (GdkRGBA) { 0.f, 0.f, 0.f, 1.f } : with_alpha (&selected_fg, 1.f);
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

      s->fill_pixel[i] = _sps_timeline_canvas_pixel (&s->fill[i]);
      s->sampled_pixel[i] = _sps_timeline_canvas_pixel (&s->sampled[i]);
      s->merged_pixel[i] = _sps_timeline_canvas_pixel (&s->merged[i]);
      line = mix (fill, &s->fg, 0.35f);
      s->line_pixel[i] = _sps_timeline_canvas_pixel (&line);
      s->area_pixel[i] = _sps_timeline_canvas_pixel (&s->area[i]);
    }
  s->dim_pixel = _sps_timeline_canvas_pixel (&s->dim);

  _sps_timeline_clear_marks (self);
  self->style_valid = TRUE;
}

/* Drops the pixels of instant marks and the hatching of sampled spans,
 * drawn in the colours of the style */
void
_sps_timeline_clear_marks (SpsTimeline *self)
{
  for (guint i = 0; i < SPS_PALETTE_SIZE; i++)
    {
      g_clear_pointer (&self->diamonds[i], g_free);
      g_clear_pointer (&self->hatch_tiles[i], gsk_render_node_unref);
    }
}

void
_sps_timeline_label_free (gpointer data)
{
  SpsTimelineLabel *label = data;

  g_clear_pointer (&label->node, gsk_render_node_unref);
  g_free (label);
}

void
_sps_timeline_invalidate_labels (SpsTimeline *self)
{
  g_hash_table_remove_all (self->labels);
  g_hash_table_remove_all (self->gutter_labels);
  g_clear_pointer (&self->ruler_cache, _sps_time_ruler_cache_free);
  self->ruler_cache = _sps_time_ruler_cache_new ();
  g_clear_pointer (&self->corner_text, g_free);
  g_clear_pointer (&self->corner_node, gsk_render_node_unref);
}

void
_sps_timeline_ensure_metrics (SpsTimeline *self)
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

void
_sps_timeline_invalidate_metrics (SpsTimeline *self)
{
  self->metrics_valid = FALSE;
  self->style_valid = FALSE;
  self->style_serial++;
  _sps_timeline_invalidate_row_cache (self);
  _sps_timeline_invalidate_labels (self);
}

/* Labels on slices */

GskRenderNode *
_sps_timeline_layout_to_node (PangoLayout   *layout,
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
    if (((SpsTimelineLabel *) value)->used + 2 < self->frame)
      g_hash_table_iter_remove (&iter);
}

/* The text node of @name in at most @available px (ellipsised), cached by
 * name and width step: setting text on a layout shapes it, which is
 * what costs; appending a cached node costs nothing. */
const SpsTimelineLabel *
_sps_timeline_get_slice_label (SpsTimeline *self,
                               guint32      name,
                               int          available)
{
  guint64 full_key = (guint64) name << 16;
  guint64 key;
  SpsTimelineLabel *full;
  SpsTimelineLabel *label;
  int step;

  full = g_hash_table_lookup (self->labels, &full_key);
  if (full == NULL)
    {
      const char *text = sps_trace_get_string (self->trace, name);
      guint64 *k = g_new (guint64, 1);

      pango_layout_set_width (self->text_layout, -1);
      pango_layout_set_ellipsize (self->text_layout, PANGO_ELLIPSIZE_NONE);
      pango_layout_set_text (self->text_layout, text != NULL ? text : "", -1);

      full = g_new0 (SpsTimelineLabel, 1);
      pango_layout_get_pixel_size (self->text_layout, &full->width, NULL);
      full->node = full->width > 0 ? _sps_timeline_layout_to_node (self->text_layout, &self->style.text) : NULL;
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

      label = g_new0 (SpsTimelineLabel, 1);
      pango_layout_get_pixel_size (self->text_layout, &label->width, NULL);
      label->node = _sps_timeline_layout_to_node (self->text_layout, &self->style.text);
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

