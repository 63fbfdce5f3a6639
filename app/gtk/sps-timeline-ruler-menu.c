/* sps-timeline-ruler-menu.c: the ruler's context menu
 *
 * A right click on the ruler, or the ruler-menu key (Menu, Shift+F10:
 * an application accelerator, as all the timeline's keys are), opens a
 * menu for the time at that place: add
 * a flag there, remove the flag there, clear every flag, zoom to the
 * range selection or out to the whole trace, copy the time (as the
 * ruler counts it, from the trace's start, in the one time format). The
 * menu is a popover parented to the timeline, so its items are the
 * timeline's own widget actions; the time they act on is the one the
 * menu was opened for.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-timeline"

#include "config.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include <spanscope-core.h>
#include "sps-timeline-private.h"

/* How near a flag's line the pointer is on the flag, px either side */
#define FLAG_GRAB 3

/* The flag at @x: its line within FLAG_GRAB px, or its tab on the ruler
 * when @on_ruler; the nearest line when several are. */
static SpsFlag *
flag_at (SpsTimeline               *self,
         const SpsTimelineGeometry *g,
         double                     x,
         gboolean                   on_ruler)
{
  GListModel *flags = sps_session_get_flags (self->session);
  SpsFlag *found = NULL;
  double best = G_MAXDOUBLE;

  for (guint i = 0; i < g_list_model_get_n_items (flags); i++)
    {
      g_autoptr(SpsFlag) flag = g_list_model_get_item (flags, i);
      double left = floor (_sps_timeline_time_to_x (g, sps_flag_get_time (flag)));
      double distance = fabs (x - left);
      int tab_width = 0;

      if (distance > FLAG_GRAB && on_ruler && x > left)
        {
          /* The tab, as _sps_timeline_draw_flags() draws it */
          pango_layout_set_text (self->text_layout, sps_flag_get_name (flag), -1);
          pango_layout_get_pixel_size (self->text_layout, &tab_width, NULL);
          if (x <= left + tab_width + 6)
            distance = FLAG_GRAB;
        }
      if (distance <= FLAG_GRAB && distance < best)
        {
          best = distance;
          g_set_object (&found, flag);
        }
    }

  return found;
}

static void
get_geometry (SpsTimeline         *self,
              SpsTimelineGeometry *g)
{
  _sps_timeline_get_geometry (self, gtk_widget_get_width (GTK_WIDGET (self)),
                              gtk_widget_get_height (GTK_WIDGET (self)), g);
}

/* The menu's time, from the trace's start as the ruler counts */
static char *
dup_menu_time_text (SpsTimeline *self)
{
  return sps_time_format (_sps_time_sub (self->menu_time, sps_trace_get_start_time (self->trace)));
}

static GMenuModel *
build_menu (SpsTimeline *self)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenu) flags = g_menu_new ();
  g_autoptr(GMenu) zoom = g_menu_new ();
  g_autoptr(GMenu) copy = g_menu_new ();
  g_autoptr(GMenuItem) remove = NULL;
  g_autoptr(GMenuItem) range = NULL;
  g_autofree char *time = dup_menu_time_text (self);
  g_autofree char *copy_label = NULL;

  g_menu_append (flags, _("Add Flag Here"), "timeline.ruler-add-flag");
  remove = g_menu_item_new (_("Remove This Flag"), "timeline.ruler-remove-flag");
  g_menu_item_set_attribute (remove, "hidden-when", "s", "action-disabled");
  g_menu_append_item (flags, remove);
  g_menu_append (flags, _("Clear All Flags"), "timeline.ruler-clear-flags");

  range = g_menu_item_new (_("Zoom to Selected Range"), "timeline.ruler-zoom-range");
  g_menu_item_set_attribute (range, "hidden-when", "s", "action-disabled");
  g_menu_append_item (zoom, range);
  g_menu_append (zoom, _("Zoom Out Fully"), "timeline.ruler-zoom-all");

  /* Translators: a menu item that copies a time, such as "1.234 ms", to
   * the clipboard */
  copy_label = g_strdup_printf (_("Copy Time (%s)"), time);
  g_menu_append (copy, copy_label, "timeline.ruler-copy-time");

  g_menu_append_section (menu, NULL, G_MENU_MODEL (flags));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (zoom));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (copy));

  return G_MENU_MODEL (g_steal_pointer (&menu));
}

/**
 * _sps_timeline_popup_ruler_menu:
 * @self: a #SpsTimeline with a session
 * @x: where, in widget coordinates (outside the tracks: the window's
 *   middle)
 *
 * Opens the ruler's menu for the time at @x: "Remove This Flag" shows
 * when a flag is there, "Zoom to Selected Range" when there is a range
 * selection.
 *
 * Returns: (transfer none) (nullable): the menu's popover, or %NULL
 *   without a session
 */
GtkWidget *
_sps_timeline_popup_ruler_menu (SpsTimeline *self,
                                double       x)
{
  SpsTimelineGeometry g;
  g_autoptr(GMenuModel) model = NULL;
  g_autoptr(SpsFlag) flag = NULL;

  g_return_val_if_fail (SPS_IS_TIMELINE (self), NULL);

  if (self->session == NULL)
    return NULL;

  get_geometry (self, &g);
  if (x < g.gutter || x > g.width)
    x = g.gutter + g.track_width / 2.0;
  self->menu_x = x;
  self->menu_time = _sps_timeline_x_to_time (&g, x);

  flag = flag_at (self, &g, x, TRUE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.ruler-remove-flag", flag != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.ruler-zoom-range",
                                 sps_session_get_range (self->session, NULL, NULL));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.ruler-clear-flags",
                                 g_list_model_get_n_items (sps_session_get_flags (self->session)) > 0);

  model = build_menu (self);
  if (self->ruler_menu == NULL)
    {
      self->ruler_menu = gtk_popover_menu_new_from_model (model);
      gtk_widget_set_parent (self->ruler_menu, GTK_WIDGET (self));
      gtk_popover_set_has_arrow (GTK_POPOVER (self->ruler_menu), FALSE);
      gtk_popover_set_position (GTK_POPOVER (self->ruler_menu), GTK_POS_BOTTOM);
      gtk_widget_set_halign (self->ruler_menu, GTK_ALIGN_START);
    }
  else
    gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (self->ruler_menu), model);

  gtk_popover_set_pointing_to (GTK_POPOVER (self->ruler_menu),
                               &(GdkRectangle) { (int) floor (x), 0, 1, g.ruler_height });
  gtk_popover_popup (GTK_POPOVER (self->ruler_menu));

  return self->ruler_menu;
}

static void
action_add_flag (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  SpsTimeline *self = SPS_TIMELINE (widget);

  if (self->session != NULL)
    sps_session_add_flag (self->session, self->menu_time, NULL);
}

static void
action_remove_flag (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  SpsTimeline *self = SPS_TIMELINE (widget);
  SpsTimelineGeometry g;
  g_autoptr(SpsFlag) flag = NULL;

  if (self->session == NULL)
    return;

  /* The flag at the menu's place now (the view may have moved since the
   * menu opened: the time, not the place, is what was pointed at) */
  get_geometry (self, &g);
  flag = flag_at (self, &g, _sps_timeline_time_to_x (&g, self->menu_time), TRUE);
  if (flag != NULL)
    sps_session_remove_flag (self->session, flag);
}

static void
action_clear_flags (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  SpsTimeline *self = SPS_TIMELINE (widget);
  GListModel *flags;

  if (self->session == NULL)
    return;

  flags = sps_session_get_flags (self->session);
  while (g_list_model_get_n_items (flags) > 0)
    {
      g_autoptr(SpsFlag) flag = g_list_model_get_item (flags, g_list_model_get_n_items (flags) - 1);

      sps_session_remove_flag (self->session, flag);
    }
}

static void
action_zoom (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  SpsTimeline *self = SPS_TIMELINE (widget);
  SpsTime start, end;

  if (self->session == NULL)
    return;

  if (g_str_equal (action_name, "timeline.ruler-zoom-all"))
    sps_session_fit_trace (self->session);
  else if (sps_session_get_range (self->session, &start, &end))
    sps_session_set_visible (self->session, start, MAX (end, _sps_time_add (start, 1)));
}

static void
action_copy_time (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  SpsTimeline *self = SPS_TIMELINE (widget);
  g_autofree char *text = NULL;

  if (self->session == NULL)
    return;

  text = dup_menu_time_text (self);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
}

/* The Menu key: the menu at the pointer's time, else the window's middle */
static void
action_menu (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  SpsTimeline *self = SPS_TIMELINE (widget);

  _sps_timeline_popup_ruler_menu (self, self->pointer_inside ? self->pointer_x : -1);
}

void
_sps_timeline_ruler_menu_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "timeline.ruler-add-flag", NULL, action_add_flag);
  gtk_widget_class_install_action (widget_class, "timeline.ruler-remove-flag", NULL, action_remove_flag);
  gtk_widget_class_install_action (widget_class, "timeline.ruler-clear-flags", NULL, action_clear_flags);
  gtk_widget_class_install_action (widget_class, "timeline.ruler-zoom-range", NULL, action_zoom);
  gtk_widget_class_install_action (widget_class, "timeline.ruler-zoom-all", NULL, action_zoom);
  gtk_widget_class_install_action (widget_class, "timeline.ruler-copy-time", NULL, action_copy_time);
  /* Its keys (Menu, Shift+F10) are the application's, as all the
   * timeline's are */
  gtk_widget_class_install_action (widget_class, "timeline.ruler-menu", NULL, action_menu);
}
