/* sps-window.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-window"

#include "config.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include "sps-application-private.h"
#include "sps-trace-settings.h"
#include "sps-window-private.h"

/**
 * SpsWindow:
 *
 * One trace window: the welcome page while nothing is open, the progress
 * of a load, the error of a failed one, or the trace itself (the timeline
 * above a dock of panels: the detail panel and one per view plugin).
 *
 * Loading never blocks the window: the trace is read on a worker thread
 * by sps_trace_load_async() and its #SpsProgress drives the progress page.
 * Cancelling waits for the loader to stop, then shows what the window
 * showed before.
 *
 * The timeline's commands are window actions ("win.zoom-in", …) that
 * forward to the timeline's widget actions, so the application can bind
 * them to the accelerators kept in the settings. They act on the
 * timeline whichever panel has the focus (W zooms while the SQL results
 * have it), except while a text entry, a text view (the SQL editor) or a
 * menu has it, so that typing "ms" into "Go to Time" does not select a
 * child slice. Each has a twin, "win.NAME-nav", that the application
 * binds to the plain navigation keys of the action (arrows, Page Up…):
 * the twins are also disabled while a docked panel has the focus, whose
 * lists and trees move with those keys.
 */

G_DEFINE_FINAL_TYPE (SpsWindow, sps_window, GTK_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_STATE,
  PROP_PANELS_PENDING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Height of the bottom dock when a trace is first shown. */

typedef struct
{
  SpsWindow *self;
  GFile     *file;
  guint      serial;
} LoadOp;

static void
load_op_free (LoadOp *op)
{
  g_clear_object (&op->self);
  g_clear_object (&op->file);
  g_free (op);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoadOp, load_op_free)

/* Window actions that act on a shown trace; each forwards to the
 * timeline's widget action of the same name. */
static const char * const timeline_actions[] = {
  "zoom-in",
  "zoom-out",
  "pan-left",
  "pan-right",
  "scroll-up",
  "scroll-down",
  "fit",
  "select-parent",
  "select-child",
  "select-prev",
  "select-next",
  "clear",
  "add-flag",
  "ruler-menu",
};

/* Window actions (with their -nav twins, as the timeline's) that step
 * through the search panel's matches: Enter and Shift+Enter outside the
 * search entry */
static const char * const search_step_actions[] = {
  "search-next",
  "search-prev",
};

/* Adds the action NAME and its twin NAME-nav for each of @names, both
 * running @activate */
static void
add_actions_with_twins (SpsWindow          *self,
                        const char * const *names,
                        guint               n_names,
                        GCallback           activate)
{
  for (guint i = 0; i < n_names; i++)
    for (guint twin = 0; twin < 2; twin++)
      {
        g_autofree char *name = g_strconcat (names[i], twin ? SPS_WINDOW_NAV_SUFFIX : "", NULL);
        g_autoptr(GSimpleAction) simple = g_simple_action_new (name, NULL);

        g_signal_connect_object (simple, "activate", activate, self, 0);
        g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (simple));
      }
}

SpsApplication *
_sps_window_get_application (SpsWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  return SPS_IS_APPLICATION (app) ? SPS_APPLICATION (app) : NULL;
}

static void
sps_window_set_action_enabled (SpsWindow  *self,
                               const char *name,
                               gboolean    enabled)
{
  GAction *action;

  g_assert (SPS_IS_WINDOW (self));

  if ((action = g_action_map_lookup_action (G_ACTION_MAP (self), name)))
    g_simple_action_set_enabled (G_SIMPLE_ACTION (action), enabled);
}

/* NAME follows @keys; its twin NAME-nav is also off while a docked panel
 * has the focus */
static void
enable_actions_with_twins (SpsWindow          *self,
                           const char * const *names,
                           guint               n_names,
                           gboolean            keys)
{
  for (guint i = 0; i < n_names; i++)
    {
      g_autofree char *nav = g_strconcat (names[i], SPS_WINDOW_NAV_SUFFIX, NULL);

      sps_window_set_action_enabled (self, names[i], keys);
      sps_window_set_action_enabled (self, nav, keys && !self->focus_elsewhere);
    }
}

static void
sps_window_update_actions (SpsWindow *self)
{
  gboolean loaded;
  gboolean keys;

  g_assert (SPS_IS_WINDOW (self));

  loaded = self->state == SPS_WINDOW_STATE_LOADED && self->timeline != NULL;

  keys = loaded && !self->editing;

  enable_actions_with_twins (self, timeline_actions, G_N_ELEMENTS (timeline_actions), keys);
  enable_actions_with_twins (self, search_step_actions, G_N_ELEMENTS (search_step_actions), keys);

  /* These two actions are only the key bindings: the header bar buttons
   * open the popover and the search bar directly, whatever has the focus. */
  sps_window_set_action_enabled (self, "go-to-time", keys);
  sps_window_set_action_enabled (self, "search", loaded && !self->editing);

  sps_window_set_action_enabled (self, "cancel-load", self->state == SPS_WINDOW_STATE_LOADING &&
                                                      !g_cancellable_is_cancelled (self->cancellable));
  /* One save at a time: the first one's file is not even written yet */
  sps_window_set_action_enabled (self, "save-profile", loaded && !self->saving_profile);
  sps_window_set_action_enabled (self, "reload", self->file != NULL &&
                                                 self->state != SPS_WINDOW_STATE_LOADING);

  /* Commands without a trace have nothing to act on: hide them. */
  gtk_widget_set_visible (GTK_WIDGET (self->go_to_time_button), loaded);
  gtk_widget_set_visible (GTK_WIDGET (self->search_button), loaded);
}

/* The folder as the title bar shows it: under the home folder, as "~/…"
 * (as Files and Text Editor show it), so the name fits and says where. */
char *
_sps_window_dup_folder_label (GFile *folder)
{
  g_autoptr(GFile) home = g_file_new_for_path (g_get_home_dir ());
  g_autofree char *relative = NULL;

  if (g_file_equal (folder, home))
    return g_strdup ("~");
  relative = g_file_get_relative_path (home, folder);
  if (relative != NULL)
    {
      g_autofree char *display = g_filename_display_name (relative);

      return g_strconcat ("~" G_DIR_SEPARATOR_S, display, NULL);
    }
  return g_file_get_parse_name (folder);
}

void
_sps_window_update_actions (SpsWindow *self)
{
  g_assert (SPS_IS_WINDOW (self));

  sps_window_update_actions (self);
}

static void
sps_window_update_title (SpsWindow *self)
{
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;
  GFile *file = NULL;

  g_assert (SPS_IS_WINDOW (self));

  if (self->state == SPS_WINDOW_STATE_LOADING)
    file = self->loading_file;
  else if (self->state != SPS_WINDOW_STATE_EMPTY)
    file = self->file;

  if (file != NULL)
    {
      g_autoptr(GFile) parent = g_file_get_parent (file);
      g_autofree char *basename = g_file_get_basename (file);

      title = g_filename_display_name (basename);
      if (parent != NULL)
        subtitle = _sps_window_dup_folder_label (parent);
    }
  else
    {
      title = g_strdup (_("Spanscope"));
    }

  gtk_window_set_title (GTK_WINDOW (self), title);
  gtk_label_set_text (self->title_label, title);
  gtk_label_set_text (self->subtitle_label, subtitle != NULL ? subtitle : "");
  gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), subtitle != NULL);
}

static void
sps_window_set_state (SpsWindow      *self,
                      SpsWindowState  state)
{
  static const char * const pages[] = {
    [SPS_WINDOW_STATE_EMPTY] = "welcome",
    [SPS_WINDOW_STATE_LOADING] = "loading",
    [SPS_WINDOW_STATE_LOADED] = "trace",
    [SPS_WINDOW_STATE_FAILED] = "error",
  };

  g_assert (SPS_IS_WINDOW (self));
  g_assert (state < G_N_ELEMENTS (pages));

  gtk_stack_set_visible_child_name (self->stack, pages[state]);

  if (self->state != state)
    {
      self->state = state;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
    }

  sps_window_update_title (self);
  sps_window_update_actions (self);
}

/* The timeline's single-key bindings ("w", "Up", "Escape"…) are window
 * accelerators, which GTK runs before the focused widget sees the key.
 * They must not take keys from a text entry, a text view or a menu, so
 * they are disabled while one has the focus (a disabled action lets the
 * key through); a docked panel keeps only its navigation keys (the
 * "-nav" twins). */
static void
on_focus_widget_changed (SpsWindow  *self,
                         GParamSpec *pspec,
                         gpointer    unused)
{
  GtkWidget *focus;
  gboolean editing;
  gboolean elsewhere;

  g_assert (SPS_IS_WINDOW (self));

  /* Disposing the template moves the focus too. */
  if (self->disposed)
    return;

  focus = gtk_root_get_focus (GTK_ROOT (self));
  editing = focus != NULL &&
            (GTK_IS_EDITABLE (focus) || GTK_IS_TEXT_VIEW (focus) ||
             gtk_widget_get_ancestor (focus, GTK_TYPE_POPOVER) != NULL);
  elsewhere = focus != NULL &&
              (gtk_widget_is_ancestor (focus, GTK_WIDGET (self->bottom_notebook)) ||
               gtk_widget_is_ancestor (focus, GTK_WIDGET (self->side_notebook)));

  if (editing != self->editing || elsewhere != self->focus_elsewhere)
    {
      self->editing = editing;
      self->focus_elsewhere = elsewhere;
      sps_window_update_actions (self);
    }
}

/* Trace widgets */

static void
sps_window_remove_pages (GtkNotebook *notebook)
{
  g_assert (GTK_IS_NOTEBOOK (notebook));

  while (gtk_notebook_get_n_pages (notebook) > 0)
    gtk_notebook_remove_page (notebook, -1);
}

static void
sps_window_clear_trace (SpsWindow *self)
{
  g_assert (SPS_IS_WINDOW (self));

  if (self->warning_banner != NULL)
    sps_warning_banner_set_trace (self->warning_banner, NULL);
  if (self->no_tracks_label != NULL)
    gtk_widget_set_visible (self->no_tracks_label, FALSE);
  if (self->session != NULL)
    g_settings_unbind (self->session, "show-flows");
  if (self->timeline != NULL)
    {
      g_settings_unbind (self->timeline, "track-height");
      g_settings_unbind (self->timeline, "gutter-width");
      g_settings_unbind (self->timeline, "gutter-auto");
    }

  _sps_window_clear_trace_panels (self);
  if (self->bottom_notebook != NULL)
    sps_window_remove_pages (self->bottom_notebook);
  if (self->side_notebook != NULL)
    sps_window_remove_pages (self->side_notebook);
  if (self->timeline_scroller != NULL)
    gtk_scrolled_window_set_child (self->timeline_scroller, NULL);

  if (self->go_to_time != NULL)
    sps_go_to_time_set_session (self->go_to_time, NULL);
  if (self->filter_bar != NULL)
    sps_filter_bar_set_session (self->filter_bar, NULL);

  self->timeline = NULL;
  g_clear_pointer (&self->views, g_ptr_array_unref);
  g_clear_object (&self->session);
  self->search_panel = NULL;
}

static void
sps_window_show_trace (SpsWindow *self,
                       SpsTrace  *trace)
{
  SPS_SELF_TRACE_SCOPE ("window/show-trace");
  g_assert (SPS_IS_WINDOW (self));
  g_assert (SPS_IS_TRACE (trace));

  sps_window_clear_trace (self);

  sps_warning_banner_set_trace (self->warning_banner, trace);
  gtk_widget_set_visible (self->no_tracks_label, sps_trace_get_tracks (trace)->n_rows == 0);
  self->session = sps_session_new (trace);
  self->timeline = sps_timeline_new (self->session);
  self->views = g_ptr_array_new_with_free_func (g_object_unref);

  gtk_scrolled_window_set_child (self->timeline_scroller, self->timeline);
  gtk_widget_set_focusable (self->timeline, TRUE);
  sps_trace_settings_attach (self->session, self->file);
  sps_filter_bar_set_session (self->filter_bar, self->session);

  _sps_window_place_docks (self);

  g_settings_bind (self->settings, "show-flows", self->session, "show-flows", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "track-height", self->timeline, "track-height", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "gutter-width", self->timeline, "gutter-width", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "gutter-auto", self->timeline, "gutter-auto", G_SETTINGS_BIND_DEFAULT);

  _sps_window_add_trace_panels (self);

  sps_go_to_time_set_session (self->go_to_time, self->session);
  _sps_window_show_diagnostics (self);
}

/* Loading */

static const char *
phase_title (SpsProgressPhase phase)
{
  switch (phase)
    {
    case SPS_PROGRESS_PHASE_NONE:
    case SPS_PROGRESS_PHASE_READING:
      return _("Reading file");

    case SPS_PROGRESS_PHASE_PARSING:
      return _("Parsing events");

    case SPS_PROGRESS_PHASE_INDEXING:
      return _("Building indexes");

    case SPS_PROGRESS_PHASE_DONE:
      return _("Finishing");

    default:
      g_return_val_if_reached ("");
    }
}

#define PROGRESS_STEPS 200.0
/* The bar moves at most this often (µs) */
#define PROGRESS_INTERVAL (G_USEC_PER_SEC / 2)

static void
on_progress_changed (SpsWindow   *self,
                     SpsProgress *progress)
{
  double fraction;
  gint64 now;

  g_assert (SPS_IS_WINDOW (self));
  g_assert (SPS_IS_PROGRESS (progress));

  if (progress != self->progress || g_cancellable_is_cancelled (self->cancellable))
    return;

  gtk_label_set_text (self->phase_label, phase_title (sps_progress_get_phase (progress)));

  /* In steps of 1/PROGRESS_STEPS and at most twice a second: the import
   * reports after every chunk, and each move of the bar repaints the
   * window. Under a software GL renderer (Xvfb) a repaint rasterises the
   * whole window on the CPU in two threads: with steps alone (some 40
   * moves a second) that took 40 % of a core from the 5e6-event trace's
   * import, at five a second 20 %, at two 10 %. */
  fraction = floor (CLAMP (sps_progress_get_fraction (progress), 0.0, 1.0) * PROGRESS_STEPS) / PROGRESS_STEPS;
  now = g_get_monotonic_time ();
  if (fraction != gtk_progress_bar_get_fraction (self->progress_bar) &&
      now - self->progress_shown_at >= PROGRESS_INTERVAL)
    {
      gtk_progress_bar_set_fraction (self->progress_bar, fraction);
      self->progress_shown_at = now;
    }
}

static void
sps_window_release_load (SpsWindow *self)
{
  g_assert (SPS_IS_WINDOW (self));

  g_clear_signal_handler (&self->progress_changed_id, self->progress);
  g_clear_object (&self->progress);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->loading_file);
}

static void
sps_window_load_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(LoadOp) op = user_data;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  SpsWindow *self = op->self;
  SpsApplication *app;

  g_assert (SPS_IS_WINDOW (self));
  g_assert (G_IS_ASYNC_RESULT (result));

  trace = sps_trace_load_finish (result, &error);

  /* Held for the load so that quitting waits for the worker thread. */
  if ((app = _sps_window_get_application (self)))
    g_application_release (G_APPLICATION (app));

  if (self->disposed || op->serial != self->load_serial)
    return;

  sps_window_release_load (self);

  if (trace == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      sps_window_set_state (self, self->previous_state);
      return;
    }

  g_set_object (&self->file, op->file);

  if (trace == NULL)
    {
      g_autofree char *basename = g_file_get_basename (op->file);
      g_autofree char *display = g_filename_display_name (basename);
      g_autofree char *title = NULL;

      sps_window_clear_trace (self);

      g_free (self->error_message);
      self->error_message = g_strdup (error->message);

      /* Translators: %s is a file name */
      title = g_strdup_printf (_("Could Not Open “%s”"), display);
      gtk_label_set_text (self->error_title, title);
      gtk_label_set_text (self->error_message_label, error->message);

      g_debug ("Loading failed: %s", error->message);
      sps_window_set_state (self, SPS_WINDOW_STATE_FAILED);

      /* Not the selectable message: focusing it selects it all (and
       * the page switch may have done so already). */
      gtk_widget_grab_focus (GTK_WIDGET (self->open_another_button));
      gtk_label_select_region (self->error_message_label, 0, 0);
      return;
    }

  g_clear_pointer (&self->error_message, g_free);
  sps_window_show_trace (self, trace);

  if ((app = _sps_window_get_application (self)))
    sps_application_add_recent (app, op->file);

  sps_window_set_state (self, SPS_WINDOW_STATE_LOADED);
  gtk_widget_grab_focus (self->timeline);
}

/* GObject */

/* The menu is shared by every window; the application fills its
 * recent-files section. The application is set after construction. */
static void
on_application_changed (SpsWindow  *self,
                        GParamSpec *pspec,
                        gpointer    unused)
{
  GtkApplication *app;
  GMenu *menu = NULL;

  g_assert (SPS_IS_WINDOW (self));

  if ((app = gtk_window_get_application (GTK_WINDOW (self))))
    menu = gtk_application_get_menu_by_id (app, "primary-menu");

  gtk_menu_button_set_menu_model (self->primary_menu_button, G_MENU_MODEL (menu));
}

static gboolean
sps_window_close_request (GtkWindow *window)
{
  SpsWindow *self = SPS_WINDOW (window);
  int width;
  int height;

  _sps_window_save_docks (self);
  if (!gtk_window_is_maximized (window))
    {
      gtk_window_get_default_size (window, &width, &height);
      if (width > 0 && height > 0)
        {
          g_settings_set_int (self->settings, "window-width", width);
          g_settings_set_int (self->settings, "window-height", height);
        }
    }

  return GTK_WINDOW_CLASS (sps_window_parent_class)->close_request (window);
}

static void
sps_window_dispose (GObject *object)
{
  SpsWindow *self = SPS_WINDOW (object);

  self->disposed = TRUE;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  sps_window_release_load (self);
  /* A save in flight finishes (its task holds the window); its notice
   * has nowhere to show */
  g_clear_handle_id (&self->save_notice_id, g_source_remove);
  g_clear_handle_id (&self->memory_tick_id, g_source_remove);
  g_clear_object (&self->save_progress);

  if (self->file_chooser != NULL)
    {
      gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->file_chooser));
      g_clear_object (&self->file_chooser);
    }

  sps_window_clear_trace (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), SPS_TYPE_WINDOW);

  G_OBJECT_CLASS (sps_window_parent_class)->dispose (object);
}

static void
sps_window_finalize (GObject *object)
{
  SpsWindow *self = SPS_WINDOW (object);

  g_clear_object (&self->settings);
  g_clear_object (&self->file);
  g_clear_pointer (&self->load_options, g_variant_unref);
  g_clear_pointer (&self->error_message, g_free);

  G_OBJECT_CLASS (sps_window_parent_class)->finalize (object);
}

static void
sps_window_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  SpsWindow *self = SPS_WINDOW (object);

  switch (prop_id)
    {
    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;

    case PROP_PANELS_PENDING:
      g_value_set_boolean (value, sps_window_get_panels_pending (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sps_window_class_init (SpsWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = sps_window_dispose;
  object_class->finalize = sps_window_finalize;
  object_class->get_property = sps_window_get_property;

  window_class->close_request = sps_window_close_request;

  /**
   * SpsWindow:state:
   *
   * What the window shows; see #SpsWindowState.
   */
  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL,
                       SPS_TYPE_WINDOW_STATE,
                       SPS_WINDOW_STATE_EMPTY,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * SpsWindow:panels-pending:
   *
   * Whether panels of the shown trace are still to be made: those behind
   * tabs are made after the timeline's first complete frame, or when
   * first shown.
   */
  properties[PROP_PANELS_PENDING] =
    g_param_spec_boolean ("panels-pending", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (SPS_TYPE_GO_TO_TIME);
  g_type_ensure (SPS_TYPE_FILTER_BAR);
  g_type_ensure (SPS_TYPE_WARNING_BANNER);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/spanscope/Spanscope/sps-window.ui");
  gtk_widget_class_bind_template_child (widget_class, SpsWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, SpsWindow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, SpsWindow, primary_menu_button);
  gtk_widget_class_bind_template_child (widget_class, SpsWindow, go_to_time_button);
  gtk_widget_class_bind_template_child (widget_class, SpsWindow, go_to_time);
  gtk_widget_class_bind_template_child (widget_class, SpsWindow, warning_banner);
  gtk_widget_class_bind_template_child (widget_class, SpsWindow, save_revealer);
  gtk_widget_class_bind_template_child (widget_class, SpsWindow, save_label);
  gtk_widget_class_bind_template_child (widget_class, SpsWindow, save_progress_bar);
  gtk_widget_class_bind_template_child (widget_class, SpsWindow, save_cancel_button);
  gtk_widget_class_bind_template_child (widget_class, SpsWindow, save_dismiss_button);
  gtk_widget_class_bind_template_callback (widget_class, _sps_window_cancel_save);
  gtk_widget_class_bind_template_callback (widget_class, _sps_window_dismiss_save_status);
  gtk_widget_class_bind_template_child (widget_class, SpsWindow, no_tracks_label);
  gtk_widget_class_bind_template_child (widget_class, SpsWindow, search_button);
  gtk_widget_class_bind_template_child (widget_class, SpsWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, SpsWindow, recent_box);
  gtk_widget_class_bind_template_child (widget_class, SpsWindow, recent_list);
  gtk_widget_class_bind_template_child (widget_class, SpsWindow, loading_title);
  gtk_widget_class_bind_template_child (widget_class, SpsWindow, phase_label);
  gtk_widget_class_bind_template_child (widget_class, SpsWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, SpsWindow, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, SpsWindow, error_title);
  gtk_widget_class_bind_template_child_full (widget_class, "error_message", FALSE,
                                             G_STRUCT_OFFSET (SpsWindow, error_message_label));
  gtk_widget_class_bind_template_child (widget_class, SpsWindow, open_another_button);
  gtk_widget_class_bind_template_child (widget_class, SpsWindow, dock_paned);
  gtk_widget_class_bind_template_child (widget_class, SpsWindow, side_paned);
  gtk_widget_class_bind_template_child (widget_class, SpsWindow, timeline_scroller);
  gtk_widget_class_bind_template_child (widget_class, SpsWindow, filter_bar);
  gtk_widget_class_bind_template_child (widget_class, SpsWindow, side_notebook);
  gtk_widget_class_bind_template_child (widget_class, SpsWindow, bottom_notebook);
}

static void
sps_window_init (SpsWindow *self)
{
  GtkDropTarget *drop_target;

  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_widget_add_css_class (GTK_WIDGET (self), "sps-window");

  self->settings = g_settings_new (APP_ID);

  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));

  _sps_window_add_actions (self);
  _sps_window_init_docks (self);
  _sps_window_init_diagnostics (self);

  add_actions_with_twins (self, timeline_actions, G_N_ELEMENTS (timeline_actions),
                          G_CALLBACK (_sps_window_action_timeline));
  add_actions_with_twins (self, search_step_actions, G_N_ELEMENTS (search_step_actions),
                          G_CALLBACK (_sps_window_action_search_step));

  g_signal_connect_object (self->search_button, "clicked",
                           G_CALLBACK (_sps_window_show_search), self, G_CONNECT_SWAPPED);

  g_signal_connect_object (self->recent_list, "row-activated",
                           G_CALLBACK (_sps_window_on_recent_row_activated), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed::recent-files",
                           G_CALLBACK (_sps_window_update_recent), self, G_CONNECT_SWAPPED);
  _sps_window_update_recent (self);

  g_signal_connect (self, "notify::focus-widget", G_CALLBACK (on_focus_widget_changed), NULL);
  g_signal_connect (self, "notify::application", G_CALLBACK (on_application_changed), NULL);

  drop_target = gtk_drop_target_new (G_TYPE_INVALID, GDK_ACTION_COPY);
  gtk_drop_target_set_gtypes (drop_target, (GType[2]) { GDK_TYPE_FILE_LIST, G_TYPE_FILE }, 2);
  g_signal_connect_object (drop_target, "drop", G_CALLBACK (_sps_window_on_drop), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop_target));

  self->state = SPS_WINDOW_STATE_EMPTY;
  self->previous_state = SPS_WINDOW_STATE_EMPTY;
  sps_window_set_state (self, SPS_WINDOW_STATE_EMPTY);
}

/**
 * sps_window_new:
 * @application: the application
 *
 * Returns: (transfer full): a new, empty window showing the welcome page
 */
SpsWindow *
sps_window_new (SpsApplication *application)
{
  g_return_val_if_fail (SPS_IS_APPLICATION (application), NULL);

  return g_object_new (SPS_TYPE_WINDOW,
                       "application", application,
                       NULL);
}

/**
 * sps_window_load:
 * @self: a #SpsWindow
 * @file: the trace to open
 *
 * Starts loading @file on a worker thread and shows its progress. When it
 * is loaded, the window shows it (and it joins the recent files); when it
 * fails, the window shows the error. A load already running is cancelled.
 */
void
sps_window_load (SpsWindow *self,
                 GFile     *file)
{
  sps_window_load_with_options (self, file, NULL);
}

/**
 * sps_window_load_with_options:
 * @self: a #SpsWindow
 * @file: the trace to open
 * @options: (nullable): an a{sv} dictionary of importer options (see
 *   #SpsImporterInterface), or %NULL; a floating reference is sunk
 *
 * Like sps_window_load(), with options for the importer. A reload of the
 * window uses the same options.
 */
void
sps_window_load_with_options (SpsWindow *self,
                              GFile     *file,
                              GVariant  *options)
{
  g_autofree char *basename = NULL;
  g_autofree char *display = NULL;
  g_autofree char *title = NULL;
  SpsApplication *app;
  gboolean adopted;
  LoadOp *op;

  g_return_if_fail (SPS_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  if (options != NULL)
    g_variant_ref_sink (options);
  g_clear_pointer (&self->load_options, g_variant_unref);
  self->load_options = options;

  if (self->state == SPS_WINDOW_STATE_LOADING)
    {
      /* Superseded: its callback will see an old serial. */
      g_cancellable_cancel (self->cancellable);
      sps_window_release_load (self);
    }
  else
    {
      self->previous_state = self->state;
    }

  self->load_serial++;
  self->loading_file = g_object_ref (file);

  op = g_new0 (LoadOp, 1);
  op->self = g_object_ref (self);
  op->file = g_object_ref (file);
  op->serial = self->load_serial;

  app = _sps_window_get_application (self);
  /* The trace the application was started with may be loading already */
  adopted = app != NULL &&
            _sps_application_take_preload (app, file, self->load_options, &self->progress,
                                           &self->cancellable, sps_window_load_cb, op);
  if (!adopted)
    {
      self->cancellable = g_cancellable_new ();
      self->progress = sps_progress_new (self->cancellable);
    }
  self->progress_changed_id =
    g_signal_connect_object (self->progress, "changed",
                             G_CALLBACK (on_progress_changed),
                             self, G_CONNECT_SWAPPED);

  basename = g_file_get_basename (file);
  display = g_filename_display_name (basename);
  /* Translators: %s is a file name */
  title = g_strdup_printf (_("Opening “%s”"), display);
  gtk_label_set_text (self->loading_title, title);
  gtk_label_set_text (self->phase_label, phase_title (SPS_PROGRESS_PHASE_READING));
  gtk_progress_bar_set_fraction (self->progress_bar, 0.0);
  self->progress_shown_at = 0;

  if (app != NULL)
    g_application_hold (G_APPLICATION (app));

  if (!adopted)
    sps_trace_load_async (file, NULL, self->load_options, SPS_LOAD_FLAGS_NONE,
                          self->progress, self->cancellable,
                          sps_window_load_cb, op);

  sps_window_set_state (self, SPS_WINDOW_STATE_LOADING);
  gtk_widget_grab_focus (GTK_WIDGET (self->cancel_button));
}

/**
 * sps_window_cancel_load:
 * @self: a #SpsWindow
 *
 * Stops the running load, if any. The window goes back to what it showed
 * before as soon as the loader has stopped.
 */
void
sps_window_cancel_load (SpsWindow *self)
{
  g_return_if_fail (SPS_IS_WINDOW (self));

  if (self->state != SPS_WINDOW_STATE_LOADING || g_cancellable_is_cancelled (self->cancellable))
    return;

  g_cancellable_cancel (self->cancellable);

  gtk_label_set_text (self->phase_label, _("Cancelling…"));
  sps_window_update_actions (self);
}

/**
 * sps_window_get_state:
 * @self: a #SpsWindow
 *
 * Returns: what the window shows
 */
SpsWindowState
sps_window_get_state (SpsWindow *self)
{
  g_return_val_if_fail (SPS_IS_WINDOW (self), SPS_WINDOW_STATE_EMPTY);

  return self->state;
}

/**
 * sps_window_get_file:
 * @self: a #SpsWindow
 *
 * Returns: (transfer none) (nullable): the file of the trace shown, or of
 *   the trace that failed to load
 */
GFile *
sps_window_get_file (SpsWindow *self)
{
  g_return_val_if_fail (SPS_IS_WINDOW (self), NULL);

  return self->file;
}

/**
 * sps_window_get_session:
 * @self: a #SpsWindow
 *
 * Returns: (transfer none) (nullable): the session of the trace shown
 */
SpsSession *
sps_window_get_session (SpsWindow *self)
{
  g_return_val_if_fail (SPS_IS_WINDOW (self), NULL);

  return self->session;
}

/**
 * sps_window_get_timeline:
 * @self: a #SpsWindow
 *
 * Returns: (transfer none) (nullable): the timeline of the trace shown
 */
SpsTimeline *
sps_window_get_timeline (SpsWindow *self)
{
  g_return_val_if_fail (SPS_IS_WINDOW (self), NULL);

  return self->timeline != NULL ? SPS_TIMELINE (self->timeline) : NULL;
}

/**
 * sps_window_get_error_message:
 * @self: a #SpsWindow
 *
 * Returns: (nullable): the message of the failed load shown, or %NULL
 */
const char *
sps_window_get_error_message (SpsWindow *self)
{
  g_return_val_if_fail (SPS_IS_WINDOW (self), NULL);

  return self->state == SPS_WINDOW_STATE_FAILED ? self->error_message : NULL;
}
