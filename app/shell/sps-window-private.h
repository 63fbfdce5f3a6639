/* sps-window-private.h: the state of SpsWindow, shared by sps-window.c
 * and its actions (sps-window-actions.c)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "sps-device-dialog.h"
#include "sps-dock-page.h"
#include "sps-go-to-time.h"
#include "sps-search-panel.h"
#include "sps-filter-bar.h"
#include "sps-filter-panel.h"
#include "sps-instance-browser.h"
#include "sps-live-window.h"
#include "sps-shell-enums.h"
#include "sps-warning-banner.h"
#include "sps-window.h"

G_BEGIN_DECLS

struct _SpsWindow
{
  GtkApplicationWindow  parent_instance;

  GSettings            *settings;

  SpsWindowState        state;
  /* The shown trace's file, or the file that failed to load. */
  GFile                *file;
  /* The importer options of the last load (e.g. the timestamp unit of
   * `spanscope --ns FILE`), for reloads; may be NULL. */
  GVariant             *load_options;
  SpsSession           *session;
  GtkWidget            *timeline;
  GPtrArray            *views;
  char                 *error_message;

  /* The load in flight, if any. Callbacks of loads that were superseded
   * carry an older serial and are ignored. */
  GFile                *loading_file;
  GCancellable         *cancellable;
  SpsProgress          *progress;
  gulong                progress_changed_id;
  gint64                progress_shown_at; /* monotonic µs of the bar's last move */
  guint                 load_serial;
  SpsWindowState        previous_state;

  GtkFileChooserNative *file_chooser;

  /* Docked panels of the shown trace (owned by the notebooks) */
  GtkWidget            *search_panel;
  /* Their pages whose panels are still to be made, once the timeline has
   * drawn (sps-window-dock.c) */
  GPtrArray            *pending_pages;
  guint                 fill_id;
  guint                 fill_timeout_id;
  gulong                fill_paint_id;
  GdkFrameClock        *fill_clock;

  gboolean              saving_profile;
  SpsProgress          *save_progress;       /* of the save in flight */
  guint                 save_notice_id;      /* hides "Saved profile to …" */
  gboolean              editing;          /* text entry, text view or menu */
  gboolean              focus_elsewhere;  /* a docked panel */
  gboolean              disposed;
  gboolean              dock_placed;
  gboolean              filling_docks;

  /* Spanscope's memory in the header bar (sps-window-diagnostics.c) */
  GtkLabel             *memory_label;
  guint                 memory_tick_id;

  /* Template children */
  GtkLabel             *title_label;
  GtkLabel             *subtitle_label;
  GtkMenuButton        *primary_menu_button;
  GtkMenuButton        *go_to_time_button;
  SpsGoToTime          *go_to_time;
  GtkButton            *search_button;
  SpsWarningBanner     *warning_banner;
  GtkRevealer          *save_revealer;
  GtkLabel             *save_label;
  GtkProgressBar       *save_progress_bar;
  GtkButton            *save_cancel_button;
  GtkButton            *save_dismiss_button;
  GtkStack             *stack;
  GtkWidget            *recent_box;
  GtkListBox           *recent_list;
  GtkLabel             *loading_title;
  GtkLabel             *phase_label;
  GtkProgressBar       *progress_bar;
  GtkButton            *cancel_button;
  GtkLabel             *error_title;
  GtkLabel             *error_message_label;
  GtkButton            *open_another_button;
  GtkPaned             *dock_paned;
  GtkPaned             *side_paned;
  GtkScrolledWindow    *timeline_scroller;
  GtkWidget            *no_tracks_label;
  GtkNotebook          *side_notebook;
  GtkNotebook          *bottom_notebook;
  SpsFilterBar         *filter_bar;
};

SpsApplication *_sps_window_get_application         (SpsWindow     *self);
void            _sps_window_init_docks              (SpsWindow     *self);
void            _sps_window_add_panel               (SpsWindow     *self,
                                                     const char    *id,
                                                     GtkWidget     *panel,
                                                     const char    *title,
                                                     const char    *icon_name,
                                                     gboolean       side);
void            _sps_window_add_trace_panels        (SpsWindow     *self);
void            _sps_window_clear_trace_panels      (SpsWindow     *self);
gboolean        _sps_window_move_panel              (SpsWindow     *self,
                                                     const char    *id);
GtkWidget      *_sps_window_find_panel              (SpsWindow     *self,
                                                     const char    *id);
gboolean        _sps_window_remove_panel            (SpsWindow     *self,
                                                     const char    *id);
void            _sps_window_init_diagnostics        (SpsWindow     *self);
void            _sps_window_show_diagnostics        (SpsWindow     *self);
void            _sps_window_update_memory           (SpsWindow     *self);
void            _sps_window_place_docks             (SpsWindow     *self);
void            _sps_window_save_docks              (SpsWindow     *self);
void            _sps_window_add_actions             (SpsWindow     *self);
void            _sps_window_action_timeline         (GSimpleAction *action,
                                                     GVariant      *param,
                                                     gpointer       user_data);
void            _sps_window_action_search_step      (GSimpleAction *action,
                                                     GVariant      *param,
                                                     gpointer       user_data);
void            _sps_window_show_search             (SpsWindow     *self);
void            _sps_window_update_recent           (SpsWindow     *self);
void            _sps_window_update_actions          (SpsWindow     *self);
char           *_sps_window_dup_folder_label        (GFile         *folder);
void            _sps_window_add_file_filter         (GtkFileChooser *chooser,
                                                     const char     *name,
                                                     const char     *pattern,
                                                     ...) G_GNUC_NULL_TERMINATED;
void            _sps_window_action_save_profile     (GSimpleAction *action,
                                                     GVariant      *param,
                                                     gpointer       user_data);
void            _sps_window_cancel_save             (SpsWindow     *self);
void            _sps_window_dismiss_save_status     (SpsWindow     *self);
void            _sps_window_save_profile            (SpsWindow           *self,
                                                     GFile               *output,
                                                     GAsyncReadyCallback  callback,
                                                     gpointer             user_data);
void            _sps_window_on_recent_row_activated (SpsWindow     *self,
                                                     GtkListBoxRow *row,
                                                     GtkListBox    *list);
gboolean        _sps_window_on_drop                 (SpsWindow     *self,
                                                     const GValue  *value,
                                                     double         x,
                                                     double         y,
                                                     GtkDropTarget *target);

G_END_DECLS
