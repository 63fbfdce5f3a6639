/* sps-timeline-gutter.c: the labels of the rows, and the corner above them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-timeline"

#include "config.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include <spanscope-core.h>
#include "sps-timeline-private.h"

/* @id's string, or @fallback when it has none or an empty one */
const char *
_sps_timeline_string_or (SpsTrace   *trace,
                         guint32     id,
                         const char *fallback)
{
  const char *str = sps_trace_get_string (trace, id);

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

/* Whether the thread's label can fold it: it has more than one lane, or
 * is folded already; not the representative lane of a collapsed process
 * (unless pinned: a pinned thread shows its lanes whatever its process's
 * state), which shows one lane whatever the thread's state. */
static gboolean
thread_collapsible (SpsTimeline *self,
                    guint32      thread)
{
  SpsViewFilter *filter = sps_session_get_view_filter (self->session);
  guint32 process = sps_trace_get_threads (self->trace)->process[thread];

  if (process < sps_trace_get_processes (self->trace)->n_rows &&
      sps_session_get_process_collapsed (self->session, process) &&
      !sps_session_get_thread_pinned (self->session, thread))
    return FALSE;

  return sps_session_get_thread_collapsed (self->session, thread) ||
         sps_view_filter_get_group_lanes (filter, sps_view_filter_get_thread_group (filter, thread)) > 1;
}

/* ▸ collapsed, ▾ expanded; nothing for a thread of one lane */
static const char *
thread_chevron (SpsTimeline *self,
                guint32      thread)
{
  if (!thread_collapsible (self, thread))
    return "";
  return sps_session_get_thread_collapsed (self->session, thread) ? "\u25B8 " : "\u25BE ";
}

/**
 * _sps_timeline_gutter_toggle_thread:
 * @self: a #SpsTimeline
 * @index: the row clicked in the gutter
 *
 * A click on a thread's label (its first row) collapses the thread to its
 * representative lane, or expands it.
 *
 * Returns: %TRUE when the click was a thread's label
 */
gboolean
_sps_timeline_gutter_toggle_thread (SpsTimeline *self,
                                    guint        index)
{
  const SpsTimelineRow *row = _sps_timeline_layout_get_row (self->layout, index);

  if (row->thread == SPS_NO_INDEX || !(row->flags & SPS_TIMELINE_ROW_FIRST) ||
      !starts_group (self, index, row) || !thread_collapsible (self, row->thread))
    return FALSE;

  sps_session_set_thread_collapsed (self->session, row->thread,
                                    !sps_session_get_thread_collapsed (self->session, row->thread));
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

      name = g_markup_escape_text (_sps_timeline_string_or (self->trace, processes->name[row->process], _("Process")), -1);
      /* ▸ collapsed, ▾ expanded */
      return g_strdup_printf ("%s  <b>%s</b>  <span fgalpha=\"60%%\">%" G_GINT64_FORMAT "</span>",
                              collapsed ? "\u25B8" : "\u25BE", name, processes->pid[row->process]);
    }

  /* A stack chart's first lane says what the lanes are and whose */
  if (row->kind == SPS_TIMELINE_ROW_STACK)
    return row->depth == 0 && row->thread != SPS_NO_INDEX
      ? g_markup_printf_escaped ("<span fgalpha=\"70%%\">%s</span> %s <span fgalpha=\"60%%\">%" G_GINT64_FORMAT "</span>",
                                 _("Stack"),
                                 _sps_timeline_string_or (self->trace, threads->name[row->thread], _("Thread")),
                                 threads->tid[row->thread])
      : NULL;

  if (!(row->flags & SPS_TIMELINE_ROW_FIRST))
    return NULL;

  kind = tracks->kind[row->track];
  switch (kind)
    {
    case SPS_TRACK_THREAD_SAMPLED_SLICES:
      sub = _("sampled");
      break;
    case SPS_TRACK_THREAD_INSTANTS:
      sub = _sps_timeline_track_has_events (self->trace, row->track) ? _("events") : _("instants");
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
                                        _sps_timeline_string_or (self->trace, tracks->name[row->track], _("Counter")),
                                        _sps_timeline_string_or (self->trace, tracks->series[row->track], ""));
      return g_markup_printf_escaped ("%s", _sps_timeline_string_or (self->trace, tracks->name[row->track], _("Counter")));
    case SPS_TRACK_THREAD_SLICES:
    default:
      break;
    }

  if (row->thread == SPS_NO_INDEX)
    return NULL;

  if (!starts_group (self, index, row))
    return g_markup_printf_escaped ("<span fgalpha=\"60%%\">%s</span>", sub != NULL ? sub : "");

  /* Pinned above every process: say which one it belongs to */
  if (sps_session_get_thread_pinned (self->session, row->thread) &&
      threads->process[row->thread] < processes->n_rows)
    sub = _sps_timeline_string_or (self->trace, processes->name[threads->process[row->thread]], _("Process"));

  if (sub != NULL)
    return g_markup_printf_escaped ("%s%s <span fgalpha=\"60%%\">%" G_GINT64_FORMAT " · %s</span>",
                                    thread_chevron (self, row->thread),
                                    _sps_timeline_string_or (self->trace, threads->name[row->thread], _("Thread")),
                                    threads->tid[row->thread], sub);

  return g_markup_printf_escaped ("%s%s <span fgalpha=\"60%%\">%" G_GINT64_FORMAT "</span>",
                                  thread_chevron (self, row->thread),
                                  _sps_timeline_string_or (self->trace, threads->name[row->thread], _("Thread")),
                                  threads->tid[row->thread]);
}

static const SpsTimelineLabel *
get_gutter_label (SpsTimeline          *self,
                  guint                 index,
                  const SpsTimelineRow *row,
                  int                   available)
{
  guint64 key;
  SpsTimelineLabel *label;
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
      label = g_new0 (SpsTimelineLabel, 1);
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
      label->node = _sps_timeline_layout_to_node (self->text_layout, &self->style.fg);
      pango_layout_set_attributes (self->text_layout, NULL);
      pango_layout_set_width (self->text_layout, -1);
      pango_layout_set_ellipsize (self->text_layout, PANGO_ELLIPSIZE_NONE);
    }

  return label;
}

/* Where the label of @row starts in the gutter */
static int
label_indent (const SpsTimelineRow *row)
{
  return row->kind == SPS_TIMELINE_ROW_PROCESS ? SPS_TIMELINE_LABEL_PADDING + 4 : SPS_TIMELINE_LABEL_PADDING + 16;
}

/* The room a label leaves right of it, to the splitter */
#define LABEL_END_ROOM (SPS_TIMELINE_LABEL_PADDING + 2)

/* At most this many labels are measured: a trace with more rows gets the
 * width of its first ones, so fitting costs a few milliseconds at most. */
#define MAX_MEASURED_LABELS 4096

/**
 * _sps_timeline_fit_gutter:
 * @self: a timeline with a session
 * @limit: the widest to return
 *
 * The gutter width that shows the longest row label whole (of the first
 * MAX_MEASURED_LABELS), at most @limit and at least the gutter's
 * minimum; what sps_timeline_set_gutter_width() then clamps.
 *
 * Returns: the width, px
 */
int
_sps_timeline_fit_gutter (SpsTimeline *self,
                          int          limit)
{
  guint n_rows = _sps_timeline_layout_get_n_rows (self->layout);
  int widest = 0;
  guint measured = 0;

  for (guint i = 0; i < n_rows && measured < MAX_MEASURED_LABELS && widest < limit; i++)
    {
      const SpsTimelineRow *row = _sps_timeline_layout_get_row (self->layout, i);
      g_autofree char *markup = row_label_markup (self, i, row);
      int text_width = 0;

      if (markup == NULL)
        continue;
      pango_layout_set_markup (self->text_layout, markup, -1);
      pango_layout_get_pixel_size (self->text_layout, &text_width, NULL);
      widest = MAX (widest, label_indent (row) + text_width + LABEL_END_ROOM);
      measured++;
    }
  pango_layout_set_attributes (self->text_layout, NULL);

  return MIN (widest, limit);
}

/* The labels of rows [@first, @last) in the gutter */
void
_sps_timeline_draw_gutter (SpsTimeline               *self,
                           GtkSnapshot               *snapshot,
                           const SpsTimelineGeometry *g,
                           guint                      first,
                           guint                      last)
{
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, g->ruler_height, MAX (g->gutter - 1, 0),
                                                         MAX (g->height - g->ruler_height, 0)));
  for (guint i = first; i < last; i++)
    {
      const SpsTimelineRow *row = _sps_timeline_layout_get_row (self->layout, i);
      int indent = label_indent (row);
      const SpsTimelineLabel *label = get_gutter_label (self, i, row, g->gutter - indent - LABEL_END_ROOM);
      float text_top;

      if (label->node == NULL)
        continue;

      text_top = row->kind == SPS_TIMELINE_ROW_COUNTER
        ? 3
        : floorf ((MIN (row->height, self->header_height) - self->text_height) / 2.f);
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (indent, _sps_timeline_row_top (g, row) + text_top));
      gtk_snapshot_append_node (snapshot, label->node);
      gtk_snapshot_restore (snapshot);
    }
  gtk_snapshot_pop (snapshot);
}

/* The corner above the gutter, with the span of the window */
void
_sps_timeline_draw_corner (SpsTimeline               *self,
                           GtkSnapshot               *snapshot,
                           const SpsTimelineGeometry *g)
{
  g_autofree char *span = sps_time_format ((SpsTime) MIN (_sps_time_span (g->start, g->end), (guint64) G_MAXINT64));

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

      pango_layout_set_width (self->text_layout, MAX (g->gutter - 2 * SPS_TIMELINE_LABEL_PADDING - 8, 1) * PANGO_SCALE);
      pango_layout_set_ellipsize (self->text_layout, PANGO_ELLIPSIZE_END);
      pango_layout_set_markup (self->text_layout, markup, -1);
      pango_layout_get_pixel_size (self->text_layout, NULL, &text_height);
      gtk_snapshot_translate (corner, &GRAPHENE_POINT_INIT (SPS_TIMELINE_LABEL_PADDING + 4,
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


/**
 * _sps_timeline_popup_label_menu:
 * @self: a #SpsTimeline with a session
 * @index: the row whose label was right-clicked
 * @y: where, in widget coordinates
 *
 * A thread's label has a menu that pins the thread to the band under the
 * ruler, or unpins it.
 *
 * Returns: (transfer none) (nullable): the menu's popover, or %NULL when
 *   the row is no thread's
 */
GtkWidget *
_sps_timeline_popup_label_menu (SpsTimeline *self,
                                guint        index,
                                double       y)
{
  const SpsTimelineRow *row;
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenuItem) item = NULL;
  gboolean pinned;

  g_return_val_if_fail (SPS_IS_TIMELINE (self), NULL);

  if (self->session == NULL || self->layout == NULL || index >= _sps_timeline_layout_get_n_rows (self->layout))
    return NULL;
  row = _sps_timeline_layout_get_row (self->layout, index);
  if (row->thread == SPS_NO_INDEX)
    return NULL;

  pinned = sps_session_get_thread_pinned (self->session, row->thread);
  item = g_menu_item_new (pinned ? _("Unpin") : _("Pin to Top"), NULL);
  g_menu_item_set_action_and_target (item, "timeline.toggle-pin", "u", row->thread);
  g_menu_append_item (menu, item);

  if (self->label_menu == NULL)
    {
      self->label_menu = gtk_popover_menu_new_from_model (G_MENU_MODEL (menu));
      gtk_widget_set_parent (self->label_menu, GTK_WIDGET (self));
      gtk_popover_set_has_arrow (GTK_POPOVER (self->label_menu), FALSE);
      gtk_popover_set_position (GTK_POPOVER (self->label_menu), GTK_POS_RIGHT);
    }
  else
    gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (self->label_menu), G_MENU_MODEL (menu));

  gtk_popover_set_pointing_to (GTK_POPOVER (self->label_menu),
                               &(GdkRectangle) { 0, (int) floor (y), MAX (self->gutter_width - 1, 1), 1 });
  gtk_popover_popup (GTK_POPOVER (self->label_menu));

  return self->label_menu;
}
