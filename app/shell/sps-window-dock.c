/* sps-window-dock.c: the docks of SpsWindow's panels
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Panels live in two notebooks: the bottom dock under the timeline and the
 * side dock beside it. Each panel has an id (its view's type name, or the
 * built-in panel's name) and a dock: the one its view asks for, until the
 * user moves it (by dragging its tab to the other dock, or with "Move to
 * Side Dock"/"Move to Bottom Dock" in the tab's context menu). Where the
 * user put each panel, and how tall the bottom dock and how wide the side
 * dock are, is kept in the settings for the next window.
 */

#define G_LOG_DOMAIN "sps-window"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-window-private.h"

#define PANEL_ID_KEY "sps-panel-id"
#define DOCK_GROUP "io.github.spanscope.Spanscope.dock"

/* The bottom dock's first height: 40 % of the window, within these. */
#define DOCK_MIN_HEIGHT 180
#define DOCK_SHARE 40
#define SIDE_DEFAULT_WIDTH 360

static const char *
dock_name (SpsWindow   *self,
           GtkNotebook *notebook)
{
  return notebook == self->side_notebook ? "side" : "bottom";
}

static GtkNotebook *
saved_dock (SpsWindow   *self,
            const char  *id,
            GtkNotebook *fallback)
{
  g_autoptr(GVariant) areas = g_settings_get_value (self->settings, "panel-docks");
  const char *area = NULL;

  if (g_variant_lookup (areas, id, "&s", &area))
    {
      if (g_strcmp0 (area, "side") == 0)
        return self->side_notebook;
      if (g_strcmp0 (area, "bottom") == 0)
        return self->bottom_notebook;
    }
  return fallback;
}

static void
save_dock (SpsWindow   *self,
           const char  *id,
           GtkNotebook *notebook)
{
  g_autoptr(GVariant) old = g_settings_get_value (self->settings, "panel-docks");
  GVariantBuilder builder;
  GVariantIter iter;
  const char *key;
  const char *value;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{ss}"));
  g_variant_iter_init (&iter, old);
  while (g_variant_iter_next (&iter, "{&s&s}", &key, &value))
    if (g_strcmp0 (key, id) != 0)
      g_variant_builder_add (&builder, "{ss}", key, value);
  g_variant_builder_add (&builder, "{ss}", id, dock_name (self, notebook));
  g_settings_set_value (self->settings, "panel-docks", g_variant_builder_end (&builder));
}

/* An empty side dock takes no room; a bottom dock of one panel shows no
 * tab. */
static void
update_docks (SpsWindow *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->side_notebook),
                          gtk_notebook_get_n_pages (self->side_notebook) > 0);
  gtk_notebook_set_show_tabs (self->bottom_notebook,
                              gtk_notebook_get_n_pages (self->bottom_notebook) > 1);
}

static GtkWidget *
find_panel (GtkNotebook *notebook,
            const char  *id)
{
  for (int i = 0; i < gtk_notebook_get_n_pages (notebook); i++)
    {
      GtkWidget *panel = gtk_notebook_get_nth_page (notebook, i);

      if (g_strcmp0 (g_object_get_data (G_OBJECT (panel), PANEL_ID_KEY), id) == 0)
        return panel;
    }
  return NULL;
}

/**
 * _sps_window_find_panel:
 * @self: a window
 * @id: a panel's id
 *
 * Returns: (transfer none) (nullable): the panel of that id, in either dock
 */
GtkWidget *
_sps_window_find_panel (SpsWindow  *self,
                        const char *id)
{
  GtkWidget *panel;

  g_return_val_if_fail (SPS_IS_WINDOW (self), NULL);

  if ((panel = find_panel (self->bottom_notebook, id)))
    return panel;
  return find_panel (self->side_notebook, id);
}

/**
 * _sps_window_remove_panel:
 * @self: a window
 * @id: a panel's id
 *
 * Takes the panel of that id out of its dock (it is destroyed).
 *
 * Returns: %TRUE if there was one
 */
gboolean
_sps_window_remove_panel (SpsWindow  *self,
                          const char *id)
{
  GtkNotebook *notebooks[] = { self->bottom_notebook, self->side_notebook };

  g_return_val_if_fail (SPS_IS_WINDOW (self), FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (notebooks); i++)
    {
      GtkWidget *panel = find_panel (notebooks[i], id);

      if (panel != NULL)
        {
          gtk_notebook_remove_page (notebooks[i], gtk_notebook_page_num (notebooks[i], panel));
          return TRUE;
        }
    }
  return FALSE;
}

/**
 * _sps_window_move_panel:
 * @self: a window
 * @id: a panel's id
 *
 * Moves the panel to the other dock, shows it there and remembers where
 * it is.
 *
 * Returns: %TRUE if a panel has that id
 */
gboolean
_sps_window_move_panel (SpsWindow  *self,
                        const char *id)
{
  GtkNotebook *from = self->bottom_notebook;
  GtkNotebook *to = self->side_notebook;
  g_autoptr(GtkWidget) panel = NULL;
  g_autoptr(GtkWidget) tab = NULL;
  GtkWidget *found;

  g_return_val_if_fail (SPS_IS_WINDOW (self), FALSE);

  if (!(found = find_panel (from, id)))
    {
      from = self->side_notebook;
      to = self->bottom_notebook;
      if (!(found = find_panel (from, id)))
        return FALSE;
    }

  panel = g_object_ref (found);
  tab = g_object_ref (gtk_notebook_get_tab_label (from, panel));
  gtk_notebook_detach_tab (from, panel);
  /* page-added records the new dock */
  gtk_notebook_append_page (to, panel, tab);
  gtk_notebook_set_current_page (to, gtk_notebook_page_num (to, panel));
  return TRUE;
}

static void
on_page_added (SpsWindow   *self,
               GtkWidget   *panel,
               guint        position,
               GtkNotebook *notebook)
{
  const char *id = g_object_get_data (G_OBJECT (panel), PANEL_ID_KEY);

  gtk_notebook_set_tab_reorderable (notebook, panel, TRUE);
  gtk_notebook_set_tab_detachable (notebook, panel, TRUE);
  /* Moved by the user (a drag or the menu), not placed when filling */
  if (!self->filling_docks && id != NULL)
    save_dock (self, id, notebook);
  update_docks (self);
}

static void
on_page_removed (SpsWindow   *self,
                 GtkWidget   *panel,
                 guint        position,
                 GtkNotebook *notebook)
{
  if (!self->disposed)
    update_docks (self);
}

static void
on_tab_pressed (GtkGestureClick *gesture,
                int              n_press,
                double           x,
                double           y,
                GtkWidget       *tab)
{
  GtkWidget *menu = g_object_get_data (G_OBJECT (tab), "sps-tab-menu");

  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  gtk_popover_popup (GTK_POPOVER (menu));
}

/* The tab: the panel's icon and title; its context menu moves it to the
 * other dock (for those who do not drag). */
static GtkWidget *
tab_new (const char *id,
         const char *title,
         const char *icon_name)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenuItem) side = NULL;
  g_autoptr(GMenuItem) bottom = NULL;
  GtkWidget *tab = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *popover;
  GtkGesture *click;

  if (icon_name != NULL)
    gtk_box_append (GTK_BOX (tab), gtk_image_new_from_icon_name (icon_name));
  gtk_box_append (GTK_BOX (tab), gtk_label_new (title));

  side = g_menu_item_new (_("Move to Side Dock"), NULL);
  g_menu_item_set_action_and_target (side, "win.move-panel", "s", id);
  g_menu_append_item (menu, side);
  popover = gtk_popover_menu_new_from_model (G_MENU_MODEL (menu));
  gtk_widget_set_parent (popover, tab);
  g_object_set_data_full (G_OBJECT (tab), "sps-tab-menu", popover, (GDestroyNotify) gtk_widget_unparent);

  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  g_signal_connect (click, "pressed", G_CALLBACK (on_tab_pressed), tab);
  gtk_widget_add_controller (tab, GTK_EVENT_CONTROLLER (click));
  return tab;
}

/* The menu says where the panel goes from the dock it is in now. */
static void
on_tab_menu_show (GtkWidget *popover,
                  SpsWindow *self)
{
  GtkWidget *tab = gtk_widget_get_parent (popover);
  GMenuModel *model = gtk_popover_menu_get_menu_model (GTK_POPOVER_MENU (popover));
  gboolean in_side = gtk_widget_is_ancestor (tab, GTK_WIDGET (self->side_notebook));
  g_autoptr(GMenuItem) item = g_menu_item_new_from_model (model, 0);

  g_menu_item_set_label (item, in_side ? _("Move to Bottom Dock") : _("Move to Side Dock"));
  g_menu_remove (G_MENU (model), 0);
  g_menu_insert_item (G_MENU (model), 0, item);
}

/**
 * _sps_window_add_panel:
 * @self: a window
 * @id: the panel's id, kept in the settings with its dock
 * @panel: the panel
 * @title: its tab's title
 * @icon_name: (nullable): its tab's icon
 * @side: whether it goes to the side dock unless the user moved it
 *
 * Adds a panel to the dock the user last put it in, else to the one
 * @side says.
 */
void
_sps_window_add_panel (SpsWindow  *self,
                       const char *id,
                       GtkWidget  *panel,
                       const char *title,
                       const char *icon_name,
                       gboolean    side)
{
  GtkNotebook *notebook;
  GtkWidget *tab;

  g_return_if_fail (SPS_IS_WINDOW (self));
  g_return_if_fail (GTK_IS_WIDGET (panel));

  notebook = saved_dock (self, id, side ? self->side_notebook : self->bottom_notebook);
  g_object_set_data_full (G_OBJECT (panel), PANEL_ID_KEY, g_strdup (id), g_free);
  tab = tab_new (id, title, icon_name);
  g_signal_connect_object (g_object_get_data (G_OBJECT (tab), "sps-tab-menu"), "show",
                           G_CALLBACK (on_tab_menu_show), self, 0);

  self->filling_docks = TRUE;
  gtk_notebook_append_page (notebook, panel, tab);
  self->filling_docks = FALSE;
}

static void
place_docks (SpsWindow *self,
             int        height,
             int        width)
{
  int dock_height = g_settings_get_int (self->settings, "dock-height");
  int side_width = g_settings_get_int (self->settings, "side-dock-width");

  if (dock_height <= 0)
    dock_height = MAX (height * DOCK_SHARE / 100, DOCK_MIN_HEIGHT);
  dock_height = MIN (dock_height, height * 3 / 4);
  gtk_paned_set_position (self->dock_paned, height - dock_height);

  if (side_width <= 0)
    side_width = SIDE_DEFAULT_WIDTH;
  gtk_paned_set_position (self->side_paned, width - MIN (side_width, width / 2));
  self->dock_placed = TRUE;
}

/* The paned's first allocation (its maximum position follows it) */
static void
on_dock_allocated (SpsWindow  *self,
                   GParamSpec *pspec,
                   GtkPaned   *paned)
{
  int height = gtk_widget_get_height (GTK_WIDGET (self->dock_paned));
  int width = gtk_widget_get_width (GTK_WIDGET (self->dock_paned));

  if (self->dock_placed || height <= 0 || width <= 0)
    return;
  g_signal_handlers_disconnect_by_func (paned, on_dock_allocated, self);
  place_docks (self, height, width);
}

/**
 * _sps_window_place_docks:
 * @self: a window
 *
 * Sizes the docks when a trace is first shown in the window: as the user
 * left them last, else the bottom dock at 40 % of the height (the panels'
 * natural heights are too small to read). Done from the docks' own size
 * once they have one, so that the result does not depend on when the
 * window was last allocated.
 */
void
_sps_window_place_docks (SpsWindow *self)
{
  if (self->dock_placed)
    return;

  if (gtk_widget_get_height (GTK_WIDGET (self->dock_paned)) > 0)
    on_dock_allocated (self, NULL, self->dock_paned);
  else
    g_signal_connect_object (self->dock_paned, "notify::max-position",
                             G_CALLBACK (on_dock_allocated), self, G_CONNECT_SWAPPED);
}

/**
 * _sps_window_save_docks:
 * @self: a window
 *
 * Remembers the docks' sizes (when the window closes).
 */
void
_sps_window_save_docks (SpsWindow *self)
{
  int height = gtk_widget_get_height (GTK_WIDGET (self->dock_paned));
  int width = gtk_widget_get_width (GTK_WIDGET (self->side_paned));

  if (!self->dock_placed || height <= 0 || width <= 0)
    return;

  g_settings_set_int (self->settings, "dock-height",
                      height - gtk_paned_get_position (self->dock_paned));
  if (gtk_widget_get_visible (GTK_WIDGET (self->side_notebook)))
    g_settings_set_int (self->settings, "side-dock-width",
                        width - gtk_paned_get_position (self->side_paned));
}

/* Trace panels: each in a page of its own, made when first shown or
 * once the timeline has drawn the trace (sps-dock-page.c), so that
 * their widgets and first passes over the trace do not delay the first
 * frame */

/* How long after the trace is shown the panels are made even if the
 * timeline has not drawn it complete (ms) */
#define FILL_FALLBACK_MS 2000
/* How long after that frame (ms) */
#define FILL_SETTLE_MS 250

typedef struct
{
  SpsView    *view;     /* nullable: a built-in panel */
  SpsSession *session;
  GtkWidget *(*make) (SpsSession *session);
} PanelMaker;

static void
panel_maker_free (PanelMaker *maker)
{
  g_clear_object (&maker->view);
  g_clear_object (&maker->session);
  g_free (maker);
}

static gboolean
remove_empty_page (gpointer user_data)
{
  g_autoptr(GtkWidget) page = user_data;
  GtkWidget *notebook = gtk_widget_get_ancestor (page, GTK_TYPE_NOTEBOOK);

  if (notebook != NULL)
    gtk_notebook_remove_page (GTK_NOTEBOOK (notebook),
                              gtk_notebook_page_num (GTK_NOTEBOOK (notebook), page));
  return G_SOURCE_REMOVE;
}

static GtkWidget *
make_panel (SpsDockPage *page,
            gpointer     user_data)
{
  PanelMaker *maker = user_data;
  GtkWidget *panel;

  if (maker->view == NULL)
    return maker->make (maker->session);

  /* A view that makes no panel was reported (sps_view_create_panel());
   * its tab goes, outside of the map or the idle that asked */
  if (!(panel = sps_view_create_panel (maker->view, maker->session)))
    {
      g_debug ("%s made no panel", G_OBJECT_TYPE_NAME (maker->view));
      g_idle_add_full (G_PRIORITY_DEFAULT, remove_empty_page, g_object_ref (page), NULL);
    }
  return panel;
}

static void
add_lazy_panel (SpsWindow  *self,
                const char *id,
                const char *title,
                const char *icon_name,
                gboolean    side,
                PanelMaker *maker)
{
  GtkWidget *page;

  maker->session = g_object_ref (self->session);
  page = sps_dock_page_new (make_panel, maker, (GDestroyNotify) panel_maker_free);
  /* A dock's current page is made as it is added (it maps) */
  _sps_window_add_panel (self, id, page, title, icon_name, side);
  if (!sps_dock_page_get_filled (SPS_DOCK_PAGE (page)))
    g_ptr_array_add (self->pending_pages, g_object_ref (page));
}

static void
add_view (SpsWindow *self,
          SpsView   *view)
{
  PanelMaker *maker = g_new0 (PanelMaker, 1);

  maker->view = g_object_ref (view);
  add_lazy_panel (self, G_OBJECT_TYPE_NAME (view), sps_view_get_title (view), sps_view_get_icon_name (view),
                  sps_view_get_area (view) == SPS_VIEW_AREA_SIDE, maker);
  g_ptr_array_add (self->views, g_object_ref (view));
}

static void
add_builtin (SpsWindow  *self,
             const char *id,
             const char *title,
             const char *icon_name,
             GtkWidget *(*make) (SpsSession *session))
{
  PanelMaker *maker = g_new0 (PanelMaker, 1);

  maker->make = make;
  add_lazy_panel (self, id, title, icon_name, FALSE, maker);
}

static gboolean on_fill_timeout (gpointer user_data);

/* One panel a main loop turn, so that the window goes on answering */
static gboolean
fill_next_page (gpointer user_data)
{
  SpsWindow *self = user_data;

  /* Another file is loading: these panels may never be seen. Look again
   * later (a cancelled load shows this trace again) */
  if (self->state == SPS_WINDOW_STATE_LOADING)
    {
      self->fill_id = 0;
      self->fill_timeout_id = g_timeout_add (FILL_FALLBACK_MS, on_fill_timeout, self);
      return G_SOURCE_REMOVE;
    }

  while (self->pending_pages->len > 0)
    {
      g_autoptr(SpsDockPage) page = g_ptr_array_steal_index (self->pending_pages, 0);

      if (sps_dock_page_get_filled (page) || gtk_widget_get_parent (GTK_WIDGET (page)) == NULL)
        continue;
      sps_dock_page_fill (page);
      return G_SOURCE_CONTINUE;
    }

  self->fill_id = 0;
  g_object_notify (G_OBJECT (self), "panels-pending");
  return G_SOURCE_REMOVE;
}

static void
stop_waiting_to_fill (SpsWindow *self)
{
  g_clear_handle_id (&self->fill_timeout_id, g_source_remove);
  /* A clock disposed with the window's surface has dropped its handlers */
  if (self->fill_clock != NULL && g_signal_handler_is_connected (self->fill_clock, self->fill_paint_id))
    g_signal_handler_disconnect (self->fill_clock, self->fill_paint_id);
  self->fill_paint_id = 0;
  g_clear_object (&self->fill_clock);
}

static void
start_filling (SpsWindow *self)
{
  stop_waiting_to_fill (self);
  if (self->fill_id == 0)
    self->fill_id = g_idle_add_full (G_PRIORITY_LOW, fill_next_page, self, NULL);
}

static gboolean
on_fill_timeout (gpointer user_data)
{
  SpsWindow *self = user_data;

  self->fill_timeout_id = 0;
  start_filling (self);
  return G_SOURCE_REMOVE;
}

/* A while after a frame that drew the timeline complete (as
 * `--screenshot` waits for it): the frames right after it (a window that
 * settles its size, the user's first moves) go first, as a panel can
 * take a few tens of milliseconds to make */
static void
on_fill_after_paint (SpsWindow     *self,
                     GdkFrameClock *clock)
{
  if (self->timeline != NULL &&
      (!gtk_widget_get_mapped (self->timeline) ||
       sps_timeline_get_preparing (SPS_TIMELINE (self->timeline))))
    return;
  stop_waiting_to_fill (self);
  self->fill_timeout_id = g_timeout_add (FILL_SETTLE_MS, on_fill_timeout, self);
}

/**
 * _sps_window_add_trace_panels:
 * @self: a window showing a trace
 *
 * Adds the panels of the trace to the docks: the details (the built-in
 * view) first, then search, filters and instances, then the plugins'
 * views in plugin precedence. The docks' current pages are made at once,
 * the others when first shown or after the timeline's first complete
 * frame, one a main loop turn.
 */
void
_sps_window_add_trace_panels (SpsWindow *self)
{
  g_autoptr(GPtrArray) plugin_views = NULL;
  g_autoptr(SpsView) detail_view = NULL;
  GdkFrameClock *clock;

  g_return_if_fail (SPS_IS_WINDOW (self));
  g_return_if_fail (self->session != NULL);

  self->pending_pages = g_ptr_array_new_with_free_func (g_object_unref);

  detail_view = sps_detail_view_new ();
  add_view (self, detail_view);

  /* Search stays made: its actions reach into it */
  self->search_panel = sps_search_panel_new (self->session);
  _sps_window_add_panel (self, "search", self->search_panel,
                         _("Search"), "system-search-symbolic", FALSE);
  add_builtin (self, "filters", _("Filters"), "view-list-symbolic", sps_filter_panel_new);
  add_builtin (self, "instances", _("Instances"), "view-continuous-symbolic", sps_instance_browser_new);

  plugin_views = sps_plugin_engine_create_extensions (sps_plugin_engine_get_default (), SPS_TYPE_VIEW);
  for (guint i = 0; i < plugin_views->len; i++)
    add_view (self, g_ptr_array_index (plugin_views, i));

  if (self->pending_pages->len == 0)
    return;
  g_object_notify (G_OBJECT (self), "panels-pending");
  if ((clock = gtk_widget_get_frame_clock (GTK_WIDGET (self))) == NULL)
    {
      start_filling (self);
      return;
    }
  self->fill_clock = g_object_ref (clock);
  self->fill_paint_id = g_signal_connect_object (clock, "after-paint", G_CALLBACK (on_fill_after_paint),
                                                 self, G_CONNECT_SWAPPED);
  self->fill_timeout_id = g_timeout_add (FILL_FALLBACK_MS, on_fill_timeout, self);
}

/**
 * _sps_window_clear_trace_panels:
 * @self: a window
 *
 * Forgets the panels still to be made: their pages make none from now
 * on (they are about to go).
 */
void
_sps_window_clear_trace_panels (SpsWindow *self)
{
  gboolean pending;

  g_return_if_fail (SPS_IS_WINDOW (self));

  pending = sps_window_get_panels_pending (self);
  stop_waiting_to_fill (self);
  g_clear_handle_id (&self->fill_id, g_source_remove);
  /* A page that becomes current as the pages before it go makes nothing */
  if (self->pending_pages != NULL)
    for (guint i = 0; i < self->pending_pages->len; i++)
      sps_dock_page_cancel (g_ptr_array_index (self->pending_pages, i));
  g_clear_pointer (&self->pending_pages, g_ptr_array_unref);
  if (pending && !self->disposed)
    g_object_notify (G_OBJECT (self), "panels-pending");
}

/**
 * sps_window_get_panels_pending:
 * @self: a #SpsWindow
 *
 * Returns: whether panels of the shown trace are still to be made
 */
gboolean
sps_window_get_panels_pending (SpsWindow *self)
{
  g_return_val_if_fail (SPS_IS_WINDOW (self), FALSE);

  return self->pending_pages != NULL && (self->pending_pages->len > 0 || self->fill_id != 0);
}

static void
action_move_panel (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       user_data)
{
  SpsWindow *self = user_data;

  if (!_sps_window_move_panel (self, g_variant_get_string (param, NULL)))
    g_debug ("no panel %s to move", g_variant_get_string (param, NULL));
}

static const GActionEntry dock_actions[] = {
  { "move-panel", action_move_panel, "s" },
};

/**
 * _sps_window_init_docks:
 * @self: a window
 *
 * Lets tabs be dragged between the two docks, and keeps each dock's
 * visibility and the user's moves up to date.
 */
void
_sps_window_init_docks (SpsWindow *self)
{
  GtkNotebook *notebooks[] = { self->bottom_notebook, self->side_notebook };

  g_action_map_add_action_entries (G_ACTION_MAP (self), dock_actions,
                                   G_N_ELEMENTS (dock_actions), self);

  for (guint i = 0; i < G_N_ELEMENTS (notebooks); i++)
    {
      gtk_notebook_set_group_name (notebooks[i], DOCK_GROUP);
      g_signal_connect_object (notebooks[i], "page-added", G_CALLBACK (on_page_added), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (notebooks[i], "page-removed", G_CALLBACK (on_page_removed), self, G_CONNECT_SWAPPED);
    }
}
