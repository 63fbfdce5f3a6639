/* sps-timeline-counter-painter.c: counter rows, as step functions
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-timeline"

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include <spanscope-core.h>
#include "sps-timeline-private.h"

typedef struct
{
  SpsTimelineCanvas canvas;
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
    _sps_timeline_canvas_fill (&c->canvas, c->seg_x, x_end, y, c->zero, c->area);
  else if (y > c->zero)
    _sps_timeline_canvas_fill (&c->canvas, c->seg_x, x_end, c->zero, y, c->area);
  _sps_timeline_canvas_fill (&c->canvas, c->seg_x, x_end, y, y + 1, c->line);
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
      _sps_timeline_canvas_fill (&c->canvas, x, x + 1, y0, y1 + 1, c->line);
      c->seg_x = x + 1;
    }
}

static void
paint_counter (SpsTimeline               *self,
               const SpsTimelineGeometry *g,
               const SpsTimelineArea     *a,
               const SpsTimelineRow      *row,
               SpsTimelinePaint          *paint)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (self->trace);
  CounterDraw c = { 0, };
  SpsLodIter iter;
  SpsLodBucket bucket;
  guint color = _sps_timeline_name_color (self, tracks->name[row->track]);
  double value;
  int column = -1;
  double col_min = 0, col_max = 0, col_last = 0;
  double end_x;
  SpsTime trace_end = sps_trace_get_end_time (self->trace);
  SpsTime start = _sps_timeline_area_start (a, g);
  double px_per_ns = 1.0 / g->ns_per_px;

  if (!_sps_timeline_counter_axis (self->lod, row->track, &c.lo, &c.hi))
    return;

  c.line = self->style.line_pixel[color];
  c.area = self->style.area_pixel[color];
  c.top = 3;
  c.bottom = row->height - 2;
  c.zero = floorf (counter_y (&c, 0.0));
  _sps_timeline_canvas_init (&c.canvas, a->width, row->height, g->scale);

  if (_sps_timeline_lod_get_counter_value (self->lod, row->track, start, &value))
    {
      c.has_segment = TRUE;
      c.seg_x = 0;
      c.seg_value = value;
    }

  _sps_timeline_lod_buckets_init (self->lod, &iter, row->track, _sps_timeline_draw_level (g), start, _sps_timeline_area_end (a, g));
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

/* The series' name, its value at the pointer's time and that time (from
 * the start of the trace, as everywhere else) */
static char *
counter_tooltip (const SpsTimelineSource   *source,
                 const SpsTimelineGeometry *g,
                 const SpsTimelineRow      *row,
                 guint                      item,
                 double                     x)
{
  SpsTime t = _sps_timeline_x_to_time (g, x);
  g_autofree char *name = NULL;
  g_autofree char *unit = NULL;
  g_autofree char *text = NULL;
  g_autofree char *when = NULL;
  double value;

  if (!_sps_timeline_lod_get_counter_value (source->lod, row->track, t, &value))
    return NULL;

  name = _sps_timeline_counter_dup_title (source->trace, row->track);
  unit = _sps_timeline_counter_dup_unit (source->trace, row->track);
  text = _sps_timeline_counter_format_value (value, unit);
  when = sps_time_format (_sps_time_sub (t, sps_trace_get_start_time (source->trace)));

  /* Translators: a counter's tooltip: the series' name, its value, then
   * the time of the pointer from the start of the trace */
  return g_markup_printf_escaped (_("<b>%s</b>\n%s at %s"), name, text, when);
}

/**
 * _sps_timeline_counter_axis:
 * @lod: the summaries
 * @track: a counter track
 * @lo: (out): the value at the bottom of the row
 * @hi: (out): the value at the top of the row
 *
 * The range a counter row is drawn over, its y axis: the series' minimum
 * and maximum, stretched to include 0 so that areas grow from a zero
 * line, and one unit tall when the series is flat.
 *
 * Returns: FALSE when the series has no value
 */
gboolean
_sps_timeline_counter_axis (SpsTimelineLod *lod,
                            guint32         track,
                            double         *lo,
                            double         *hi)
{
  double min;
  double max;

  if (!_sps_timeline_lod_get_counter_range (lod, track, &min, &max))
    return FALSE;

  *lo = MIN (min, 0.0);
  *hi = MAX (max, 0.0);
  if (*hi <= *lo)
    *hi = *lo + 1.0;
  return TRUE;
}

/* The counter's name and its series' name, as the gutter shows them */
char *
_sps_timeline_counter_dup_title (SpsTrace *trace,
                                 guint32   track)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  const char *name = _sps_timeline_string_or (trace, tracks->name[track], _("Counter"));
  const char *series = _sps_timeline_string_or (trace, tracks->series[track], NULL);

  return series != NULL ? g_strdup_printf ("%s %s", name, series) : g_strdup (name);
}

/* Units written as a last word of a series' name (“heap_bytes”,
 * “gpu.util pct”), a convention of Chrome and Perfetto counters, and
 * what is shown for them. */
static const struct
{
  const char *word;
  const char *unit;
} unit_words[] = {
  { "bytes", "B" },
  { "kb", "KiB" },
  { "mb", "MiB" },
  { "ns", "ns" },
  { "us", "µs" },
  { "ms", "ms" },
  { "pct", "%" },
  { "percent", "%" },
};

#define MAX_UNIT_LENGTH 16

static char *
unit_of_name (const char *name)
{
  gsize len;
  const char *word;

  if (name == NULL)
    return NULL;

  len = strlen (name);
  /* “Heap (MB)”, “rss [KiB]”: a short unit in brackets at the end, after
   * a space (“counter[3]” is an instance, not a unit) */
  if (len >= 3 && (name[len - 1] == ')' || name[len - 1] == ']'))
    {
      char open = name[len - 1] == ')' ? '(' : '[';
      const char *start = strrchr (name, open);

      if (start != NULL && start > name && start[-1] == ' ' &&
          name + len - 1 - (start + 1) > 0 && name + len - 1 - (start + 1) <= MAX_UNIT_LENGTH)
        return g_strstrip (g_strndup (start + 1, name + len - 1 - (start + 1)));
      return NULL;
    }

  word = name + len;
  while (word > name && g_ascii_isalpha (word[-1]))
    word--;
  if (word == name || (word[-1] != '_' && word[-1] != '.' && word[-1] != ' '))
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (unit_words); i++)
    if (g_ascii_strcasecmp (word, unit_words[i].word) == 0)
      return g_strdup (unit_words[i].unit);

  return NULL;
}

/* The unit of a counter series, from its series' name, else its
 * counter's name (the trace format has no field for it); NULL when none
 * is written */
char *
_sps_timeline_counter_dup_unit (SpsTrace *trace,
                                guint32   track)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  char *unit = unit_of_name (sps_trace_get_string (trace, tracks->series[track]));

  if (unit == NULL)
    unit = unit_of_name (sps_trace_get_string (trace, tracks->name[track]));
  if (unit != NULL && *unit == '\0')
    g_clear_pointer (&unit, g_free);
  return unit;
}

/* A counter's value as the axis, tooltip and hover show it: whole
 * numbers exactly (up to 15 digits, all a double holds), others with 4
 * significant digits; bytes in binary multiples. Always with a '.', as
 * times are, so what is shown is data, not locale. */
char *
_sps_timeline_counter_format_value (double      value,
                                    const char *unit)
{
  static const char *binary[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
  char number[G_ASCII_DTOSTR_BUF_SIZE];

  if (g_strcmp0 (unit, "B") == 0)
    {
      guint step = 0;

      while (fabs (value) >= 1024 && step + 1 < G_N_ELEMENTS (binary))
        {
          value /= 1024;
          step++;
        }
      unit = binary[step];
    }

  if (isfinite (value) && value == floor (value) && fabs (value) < 1e15)
    g_ascii_formatd (number, sizeof number, "%.0f", value);
  else
    g_ascii_formatd (number, sizeof number, "%.4g", value);

  /* -0 reads as 0 */
  if (strcmp (number, "-0") == 0)
    strcpy (number, "0");

  return unit != NULL ? g_strdup_printf ("%s %s", number, unit) : g_strdup (number);
}

/* The y axis of the counter rows among [@first, @last): the top and
 * bottom values at the left of the row, over a backdrop so that they stay
 * readable on the series' area. */
void
_sps_timeline_draw_counter_axes (SpsTimeline               *self,
                                 GtkSnapshot               *snapshot,
                                 const SpsTimelineGeometry *g,
                                 guint                      first,
                                 guint                      last)
{
  if (self->lod == NULL)
    return;

  for (guint i = first; i < last; i++)
    {
      const SpsTimelineRow *row = _sps_timeline_layout_get_row (self->layout, i);
      g_autofree char *unit = NULL;
      double lo, hi;
      int top;

      if (row->kind != SPS_TIMELINE_ROW_COUNTER || !_sps_timeline_counter_axis (self->lod, row->track, &lo, &hi))
        continue;

      unit = _sps_timeline_counter_dup_unit (self->trace, row->track);
      top = _sps_timeline_row_top (g, row);
      for (guint end = 0; end < 2; end++)
        {
          g_autofree char *text = _sps_timeline_counter_format_value (end == 0 ? hi : lo, unit);
          int text_width = 0, text_height = 0;
          float y;

          pango_layout_set_text (self->text_layout, text, -1);
          pango_layout_get_pixel_size (self->text_layout, &text_width, &text_height);
          y = end == 0 ? top + 1 : top + row->height - text_height - 1;
          gtk_snapshot_append_color (snapshot, &self->style.panel,
                                     &GRAPHENE_RECT_INIT (g->gutter, y, text_width + 6, text_height));
          gtk_snapshot_save (snapshot);
          gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (g->gutter + 3, y));
          gtk_snapshot_append_layout (snapshot, self->text_layout, &self->style.dim);
          gtk_snapshot_restore (snapshot);
        }
    }
}

const SpsTimelinePainter _sps_timeline_counter_painter = {
  .name = "counter",
  .paint = paint_counter,
  .tooltip = counter_tooltip,
};
