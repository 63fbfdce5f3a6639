/* sps-diagnostics-panel.c: how the viewer itself is doing
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Frames per second over the last 10 s, the last frame's build time and
 * its split (rows, overlays, ruler), its render nodes, the slices drawn
 * one by one against those merged below a pixel, the tiles reused
 * against those built, and the process's resident memory over the last
 * two minutes. Everything is read from the timeline's SpsTimelineStats
 * and /proc/self/statm, four times a second, only while the panel is
 * shown: then the timeline also times its frames and counts their nodes
 * (sps_timeline_set_collect_stats()); closed or hidden, it costs nothing.
 */

#define G_LOG_DOMAIN "sps-diagnostics"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-diagnostics-panel.h"
#include "sps-sparkline.h"

#define TICK_MS       250
#define TICKS_PER_RSS 4
/* 10 s of frames per second, 2 min of memory */
#define FPS_POINTS    (10 * 1000 / TICK_MS)
#define RSS_POINTS    120

struct _SpsDiagnosticsPanel
{
  GtkWidget    parent_instance;

  SpsTimeline *timeline;      /* weak */
  GtkWidget   *scroller;
  GtkWidget   *fps_label;
  GtkWidget   *fps_line;
  GtkWidget   *frame_label;
  GtkWidget   *split_label;
  GtkWidget   *nodes_label;
  GtkWidget   *items_label;
  GtkWidget   *tiles_label;
  GtkWidget   *rss_label;
  GtkWidget   *rss_line;

  guint        tick_id;
  guint        ticks;
  guint64      last_frames;
  gint64       last_time;
};

G_DEFINE_FINAL_TYPE (SpsDiagnosticsPanel, sps_diagnostics_panel, GTK_TYPE_WIDGET)

/**
 * sps_diagnostics_read_rss:
 *
 * Returns: the process's resident memory in bytes, from
 *   `/proc/self/statm` (0 where there is none)
 */
guint64
sps_diagnostics_read_rss (void)
{
  guint64 rss;

  sps_self_trace_read_memory (&rss, NULL);
  return rss;
}

/**
 * sps_diagnostics_format_rss:
 * @bytes: a size
 *
 * Returns: (transfer full): @bytes as the header bar shows memory: whole
 *   megabytes (MB, 10⁶ bytes, as GNOME's system monitor shows them)
 */
char *
sps_diagnostics_format_rss (guint64 bytes)
{
  g_autofree char *number = g_strdup_printf ("%" G_GUINT64_FORMAT, bytes / 1000000 + (bytes % 1000000 >= 500000));

  /* Translators: the memory Spanscope uses, in megabytes (10^6 bytes) */
  return g_strdup_printf (_("%s MB"), number);
}

static GtkWidget *
add_row (GtkGrid    *grid,
         int         row,
         const char *title)
{
  GtkWidget *name = gtk_label_new (title);
  GtkWidget *value = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_widget_add_css_class (name, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (value), 0);
  gtk_label_set_selectable (GTK_LABEL (value), TRUE);
  gtk_widget_add_css_class (value, "numeric");
  gtk_grid_attach (grid, name, 0, row, 1, 1);
  gtk_grid_attach (grid, value, 1, row, 1, 1);

  return value;
}

static void
set_label_printf (GtkWidget  *label,
                  const char *format,
                  ...) G_GNUC_PRINTF (2, 3);

static void
set_label_printf (GtkWidget  *label,
                  const char *format,
                  ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  gtk_label_set_text (GTK_LABEL (label), text);
}

/**
 * sps_diagnostics_panel_update:
 * @self: a #SpsDiagnosticsPanel
 *
 * Reads the timeline's numbers and the process's memory now (the panel
 * does four times a second while shown), and adds a point to the frame
 * rate's sparkline (and every fourth time to the memory's).
 */
void
sps_diagnostics_panel_update (SpsDiagnosticsPanel *self)
{
  SpsTimelineStats stats = { 0, };
  gint64 now = g_get_monotonic_time ();
  guint64 rss = sps_diagnostics_read_rss ();
  g_autofree char *rss_text = sps_diagnostics_format_rss (rss);
  g_autofree char *build = NULL;
  g_autofree char *rows = NULL;
  g_autofree char *overlays = NULL;
  g_autofree char *ruler = NULL;
  g_autofree char *frames = NULL;
  double fps = 0;

  g_return_if_fail (SPS_IS_DIAGNOSTICS_PANEL (self));

  if (self->timeline != NULL)
    sps_timeline_get_stats (self->timeline, &stats);

  if (self->last_time != 0 && now > self->last_time)
    fps = (double) (stats.frames - MIN (self->last_frames, stats.frames)) * G_USEC_PER_SEC / (double) (now - self->last_time);
  self->last_frames = stats.frames;
  self->last_time = now;

  sps_sparkline_push (SPS_SPARKLINE (self->fps_line), fps);
  frames = g_strdup_printf ("%" G_GUINT64_FORMAT, stats.frames);
  /* Translators: frames per second, then the frames drawn since the trace was opened */
  set_label_printf (self->fps_label, _("%.1f per second (%s in all)"), fps, frames);

  build = sps_time_format (stats.build_ns);
  rows = sps_time_format (stats.rows_ns);
  overlays = sps_time_format (stats.overlays_ns);
  ruler = sps_time_format (stats.ruler_ns);
  gtk_label_set_text (GTK_LABEL (self->frame_label), build);
  /* Translators: the parts of a frame's build time: rows, overlays (flows, selection, hover) and the ruler */
  set_label_printf (self->split_label, _("rows %s · overlays %s · ruler %s"), rows, overlays, ruler);
  set_label_printf (self->nodes_label, "%u", stats.render_nodes);
  /* Translators: slices drawn one by one, and slices merged because they are narrower than a pixel */
  set_label_printf (self->items_label, _("%u drawn · %u merged"), stats.items_drawn, stats.items_merged);
  /* Translators: timeline tiles taken from the cache, and tiles built for the frame */
  set_label_printf (self->tiles_label, _("%u reused · %u built"), stats.tiles_reused, stats.tiles_built);

  gtk_label_set_text (GTK_LABEL (self->rss_label), rss_text);
  if (self->ticks++ % TICKS_PER_RSS == 0)
    sps_sparkline_push (SPS_SPARKLINE (self->rss_line), (double) rss);
}

/**
 * sps_diagnostics_panel_get_frames:
 * @self: a #SpsDiagnosticsPanel
 *
 * Returns: the frames the timeline drew, as the panel shows them
 */
guint64
sps_diagnostics_panel_get_frames (SpsDiagnosticsPanel *self)
{
  SpsTimelineStats stats = { 0, };

  g_return_val_if_fail (SPS_IS_DIAGNOSTICS_PANEL (self), 0);

  if (self->timeline != NULL)
    sps_timeline_get_stats (self->timeline, &stats);
  return stats.frames;
}

static gboolean
on_tick (gpointer user_data)
{
  sps_diagnostics_panel_update (user_data);
  return G_SOURCE_CONTINUE;
}

/* Measuring and the timer run only while the panel is on screen */
static void
sps_diagnostics_panel_map (GtkWidget *widget)
{
  SpsDiagnosticsPanel *self = SPS_DIAGNOSTICS_PANEL (widget);

  GTK_WIDGET_CLASS (sps_diagnostics_panel_parent_class)->map (widget);

  if (self->timeline != NULL)
    sps_timeline_set_collect_stats (self->timeline, TRUE);
  self->last_time = 0;
  sps_diagnostics_panel_update (self);
  if (self->tick_id == 0)
    self->tick_id = g_timeout_add (TICK_MS, on_tick, self);
}

static void
sps_diagnostics_panel_unmap (GtkWidget *widget)
{
  SpsDiagnosticsPanel *self = SPS_DIAGNOSTICS_PANEL (widget);

  g_clear_handle_id (&self->tick_id, g_source_remove);
  if (self->timeline != NULL)
    sps_timeline_set_collect_stats (self->timeline, FALSE);

  GTK_WIDGET_CLASS (sps_diagnostics_panel_parent_class)->unmap (widget);
}

static void
sps_diagnostics_panel_dispose (GObject *object)
{
  SpsDiagnosticsPanel *self = SPS_DIAGNOSTICS_PANEL (object);

  g_clear_handle_id (&self->tick_id, g_source_remove);
  g_clear_weak_pointer (&self->timeline);
  g_clear_pointer (&self->scroller, gtk_widget_unparent);

  G_OBJECT_CLASS (sps_diagnostics_panel_parent_class)->dispose (object);
}

static void
sps_diagnostics_panel_class_init (SpsDiagnosticsPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sps_diagnostics_panel_dispose;
  widget_class->map = sps_diagnostics_panel_map;
  widget_class->unmap = sps_diagnostics_panel_unmap;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "diagnostics");
}

static void
sps_diagnostics_panel_init (SpsDiagnosticsPanel *self)
{
  GtkGrid *grid = GTK_GRID (gtk_grid_new ());
  int row = 0;

  gtk_grid_set_row_spacing (grid, 6);
  gtk_grid_set_column_spacing (grid, 12);
  gtk_widget_set_margin_start (GTK_WIDGET (grid), 12);
  gtk_widget_set_margin_end (GTK_WIDGET (grid), 12);
  gtk_widget_set_margin_top (GTK_WIDGET (grid), 12);
  gtk_widget_set_margin_bottom (GTK_WIDGET (grid), 12);

  self->fps_label = add_row (grid, row++, _("Frames"));
  self->fps_line = sps_sparkline_new (FPS_POINTS);
  gtk_widget_set_hexpand (self->fps_line, TRUE);
  gtk_widget_set_tooltip_text (self->fps_line, _("Frames per second over the last 10 seconds"));
  gtk_grid_attach (grid, self->fps_line, 1, row++, 1, 1);
  self->frame_label = add_row (grid, row++, _("Last frame"));
  self->split_label = add_row (grid, row++, "");
  self->nodes_label = add_row (grid, row++, _("Render nodes"));
  self->items_label = add_row (grid, row++, _("Slices"));
  self->tiles_label = add_row (grid, row++, _("Tiles"));
  self->rss_label = add_row (grid, row++, _("Memory"));
  self->rss_line = sps_sparkline_new (RSS_POINTS);
  gtk_widget_set_hexpand (self->rss_line, TRUE);
  gtk_widget_set_tooltip_text (self->rss_line, _("Resident memory of Spanscope over the last 2 minutes"));
  gtk_grid_attach (grid, self->rss_line, 1, row++, 1, 1);

  self->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), GTK_WIDGET (grid));
  gtk_widget_set_parent (self->scroller, GTK_WIDGET (self));
}

/**
 * sps_diagnostics_panel_new:
 * @timeline: the timeline whose frames it shows
 *
 * Returns: (transfer floating): a new panel
 */
GtkWidget *
sps_diagnostics_panel_new (SpsTimeline *timeline)
{
  SpsDiagnosticsPanel *self;

  g_return_val_if_fail (SPS_IS_TIMELINE (timeline), NULL);

  self = g_object_new (SPS_TYPE_DIAGNOSTICS_PANEL, NULL);
  g_set_weak_pointer (&self->timeline, timeline);

  return GTK_WIDGET (self);
}
