/* sps-timeline-flags.c: the session's flags over the timeline
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-timeline"

#include "config.h"

#include "sps-timeline-painter-private.h"
#include "sps-timeline-private.h"

/* A flag's colour: an orange that neither the accent nor the palette's
 * slices use, the same in light and dark styles */
static const GdkRGBA flag_color = { 0.90f, 0.38f, 0.0f, 1.0f };

/**
 * _sps_timeline_flag_color:
 *
 * Returns: (transfer none): the colour flags are drawn in
 */
const GdkRGBA *
_sps_timeline_flag_color (void)
{
  return &flag_color;
}

/* Each flag in the window: a 1 px line over the tracks at its time, and
 * in the ruler a small flag with its name (drawn after the ruler, so on
 * top of it). Costs the flags, which the user makes by hand. */
void
_sps_timeline_draw_flags (SpsTimeline               *self,
                          GtkSnapshot               *snapshot,
                          const SpsTimelineGeometry *g)
{
  GListModel *flags = sps_session_get_flags (self->session);
  guint n = g_list_model_get_n_items (flags);
  graphene_rect_t area = GRAPHENE_RECT_INIT (g->gutter, 0, g->track_width, g->height);

  if (n == 0)
    return;

  gtk_snapshot_push_clip (snapshot, &area);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SpsFlag) flag = g_list_model_get_item (flags, i);
      double x = _sps_timeline_time_to_x (g, sps_flag_get_time (flag));
      float left;
      int text_width;
      int text_height;
      g_autoptr(GskRenderNode) text = NULL;

      if (x < g->gutter - 1 || x > g->width)
        continue;

      left = (float) floor (x);
      gtk_snapshot_append_color (snapshot, &flag_color,
                                 &GRAPHENE_RECT_INIT (left, 0, 1, g->height));

      /* The name on a flag at the ruler's top, 2 px padding */
      pango_layout_set_text (self->text_layout, sps_flag_get_name (flag), -1);
      pango_layout_get_pixel_size (self->text_layout, &text_width, &text_height);
      text_height = MIN (text_height, g->ruler_height / 2 + 4);
      gtk_snapshot_append_color (snapshot, &flag_color,
                                 &GRAPHENE_RECT_INIT (left, 0, text_width + 6, text_height));
      text = _sps_timeline_layout_to_node (self->text_layout, &self->style.accent_text);
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (left + 3, 0));
      gtk_snapshot_append_node (snapshot, text);
      gtk_snapshot_restore (snapshot);
    }
  gtk_snapshot_pop (snapshot);
}

/**
 * _sps_timeline_add_flag_at:
 * @self: a #SpsTimeline
 * @x: a widget x over the tracks, or a negative one for the middle of the
 *   view
 *
 * Adds a flag (named "Flag N") at the time under @x.
 *
 * Returns: (transfer none) (nullable): the flag
 */
SpsFlag *
_sps_timeline_add_flag_at (SpsTimeline *self,
                           double       x)
{
  SpsTimelineGeometry g;

  if (self->session == NULL)
    return NULL;

  _sps_timeline_get_geometry (self, gtk_widget_get_width (GTK_WIDGET (self)), gtk_widget_get_height (GTK_WIDGET (self)), &g);
  if (x < g.gutter || x > g.width)
    x = g.gutter + g.track_width / 2.0;
  return sps_session_add_flag (self->session, _sps_timeline_x_to_time (&g, x), NULL);
}

static void
flag_renamed_cb (SpsTimeline *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * _sps_timeline_flags_changed:
 * @self: a #SpsTimeline
 * @position: where the session's flags changed
 * @removed: flags removed there
 * @added: flags added there
 * @flags: the session's flags
 *
 * Redraws, and redraws again whenever an added flag is renamed (the
 * handlers go with the flag or the widget, whichever goes first).
 */
void
_sps_timeline_flags_changed (SpsTimeline *self,
                             guint        position,
                             guint        removed,
                             guint        added,
                             GListModel  *flags)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(SpsFlag) flag = g_list_model_get_item (flags, i);

      g_signal_connect_object (flag, "notify::name", G_CALLBACK (flag_renamed_cb), self, G_CONNECT_SWAPPED);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
