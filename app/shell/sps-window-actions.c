/* sps-window-actions.c: the actions of SpsWindow (open, close, reload,
 * search, go to time, open a device), its recent files and
 * drag and drop
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-window"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "sps-window-private.h"

/* Actions */

static void
sps_window_open_response (SpsWindow            *self,
                          int                   response,
                          GtkFileChooserNative *native)
{
  g_autoptr(GListModel) files = NULL;
  SpsApplication *app;

  g_assert (SPS_IS_WINDOW (self));
  g_assert (GTK_IS_FILE_CHOOSER_NATIVE (native));

  if (response == GTK_RESPONSE_ACCEPT &&
      (app = _sps_window_get_application (self)))
    {
      files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (native));

      for (guint i = 0; i < g_list_model_get_n_items (files); i++)
        {
          g_autoptr(GFile) file = g_list_model_get_item (files, i);

          sps_application_open_file (app, file, GTK_WINDOW (self));
        }
    }

  gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (native));
  if (self->file_chooser == native)
    g_clear_object (&self->file_chooser);
}

void
_sps_window_add_file_filter (GtkFileChooser *chooser,
                             const char     *name,
                             const char     *pattern,
                             ...)
{
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  va_list args;

  gtk_file_filter_set_name (filter, name);

  va_start (args, pattern);
  for (const char *p = pattern; p != NULL; p = va_arg (args, const char *))
    gtk_file_filter_add_pattern (filter, p);
  va_end (args);

  gtk_file_chooser_add_filter (chooser, filter);
}

static void
action_open (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  SpsWindow *self = user_data;
  GtkFileChooser *chooser;

  g_assert (SPS_IS_WINDOW (self));

  if (self->file_chooser != NULL)
    {
      gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->file_chooser));
      return;
    }

  self->file_chooser = gtk_file_chooser_native_new (_("Open a Trace"),
                                                    GTK_WINDOW (self),
                                                    GTK_FILE_CHOOSER_ACTION_OPEN,
                                                    _("_Open"),
                                                    _("_Cancel"));
  chooser = GTK_FILE_CHOOSER (self->file_chooser);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->file_chooser), TRUE);
  gtk_file_chooser_set_select_multiple (chooser, TRUE);

  _sps_window_add_file_filter (chooser, _("All Supported Traces"),
              "*.json", "*.json.gz", "*.nettrace", "*.etrace", "*.bin", NULL);
  _sps_window_add_file_filter (chooser, _("Chrome JSON Traces"), "*.json", "*.json.gz", NULL);
  _sps_window_add_file_filter (chooser, _("EventPipe Traces"), "*.nettrace", NULL);
  _sps_window_add_file_filter (chooser, _("Embedded Captures"), "*.etrace", "*.bin", NULL);
  _sps_window_add_file_filter (chooser, _("All Files"), "*", NULL);

  if (self->file != NULL)
    {
      g_autoptr(GFile) folder = g_file_get_parent (self->file);

      if (folder != NULL)
        gtk_file_chooser_set_current_folder (chooser, folder, NULL);
    }

  g_signal_connect_object (self->file_chooser, "response",
                           G_CALLBACK (sps_window_open_response),
                           self, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->file_chooser));
}

static void
action_close (GSimpleAction *action,
              GVariant      *param,
              gpointer       user_data)
{
  gtk_window_close (GTK_WINDOW (user_data));
}

static void
action_reload (GSimpleAction *action,
               GVariant      *param,
               gpointer       user_data)
{
  SpsWindow *self = user_data;
  g_autoptr(GFile) file = NULL;

  g_assert (SPS_IS_WINDOW (self));

  if (self->file != NULL)
    {
      g_autoptr(GVariant) options = self->load_options ? g_variant_ref (self->load_options) : NULL;

      file = g_object_ref (self->file);
      sps_window_load_with_options (self, file, options);
    }
}

static void
action_cancel_load (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       user_data)
{
  sps_window_cancel_load (SPS_WINDOW (user_data));
}

static void
action_go_to_time (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       user_data)
{
  SpsWindow *self = user_data;

  g_assert (SPS_IS_WINDOW (self));

  gtk_menu_button_popup (self->go_to_time_button);
}

/* Brings the search panel to the front with the focus in its entry (the
 * "search" action, Ctrl+F by default, and the header bar button). */
void
_sps_window_show_search (SpsWindow *self)
{
  GtkWidget *notebook;

  g_assert (SPS_IS_WINDOW (self));

  if (self->search_panel == NULL ||
      !(notebook = gtk_widget_get_ancestor (self->search_panel, GTK_TYPE_NOTEBOOK)))
    return;

  /* In whichever dock the user put it */
  gtk_notebook_set_current_page (GTK_NOTEBOOK (notebook),
                                 gtk_notebook_page_num (GTK_NOTEBOOK (notebook), self->search_panel));
  sps_search_panel_focus (SPS_SEARCH_PANEL (self->search_panel));
}

static void
action_search (GSimpleAction *action,
               GVariant      *param,
               gpointer       user_data)
{
  SpsWindow *self = user_data;

  g_assert (SPS_IS_WINDOW (self));

  _sps_window_show_search (self);
}

void
_sps_window_action_timeline (GSimpleAction *action,
                             GVariant      *param,
                             gpointer       user_data)
{
  SpsWindow *self = user_data;
  g_autofree char *name = NULL;

  g_assert (SPS_IS_WINDOW (self));

  if (self->timeline == NULL)
    return;

  /* NAME and its twin NAME-nav both run the timeline's NAME */
  name = g_strconcat ("timeline.", g_action_get_name (G_ACTION (action)), NULL);
  if (g_str_has_suffix (name, SPS_WINDOW_NAV_SUFFIX))
    name[strlen (name) - strlen (SPS_WINDOW_NAV_SUFFIX)] = '\0';
  if (!gtk_widget_activate_action (self->timeline, name, NULL))
    g_debug ("The timeline has no action %s", name);
}

/* search-next and search-prev (and their twins): the search panel's next
 * or previous match after the selection, as Enter and Shift+Enter do in
 * its entry; nothing before a search */
void
_sps_window_action_search_step (GSimpleAction *action,
                                GVariant      *param,
                                gpointer       user_data)
{
  SpsWindow *self = user_data;

  g_assert (SPS_IS_WINDOW (self));

  if (self->search_panel == NULL)
    return;

  sps_search_panel_step (SPS_SEARCH_PANEL (self->search_panel),
                         g_str_has_prefix (g_action_get_name (G_ACTION (action)), "search-next") ? 1 : -1);
}

/* Recent files and drag and drop */

void
_sps_window_on_recent_row_activated (SpsWindow     *self,
                                     GtkListBoxRow *row,
                                     GtkListBox    *list)
{
  const char *uri;
  g_autoptr(GFile) file = NULL;
  SpsApplication *app;

  g_assert (SPS_IS_WINDOW (self));

  uri = g_object_get_data (G_OBJECT (row), "uri");
  if (uri == NULL || !(app = _sps_window_get_application (self)))
    return;

  file = g_file_new_for_uri (uri);
  sps_application_open_file (app, file, GTK_WINDOW (self));
}

static GtkWidget *
create_recent_row (const char *uri)
{
  g_autoptr(GFile) file = g_file_new_for_uri (uri);
  g_autoptr(GFile) parent = g_file_get_parent (file);
  g_autofree char *basename = g_file_get_basename (file);
  g_autofree char *name = g_filename_display_name (basename);
  g_autofree char *folder = parent != NULL ? g_file_get_parse_name (parent) : g_strdup ("");
  GtkWidget *row;
  GtkWidget *box;
  GtkWidget *label;

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);

  label = gtk_label_new (name);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_box_append (GTK_BOX (box), label);

  label = gtk_label_new (folder);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_START);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_add_css_class (label, "caption");
  gtk_box_append (GTK_BOX (box), label);

  row = gtk_list_box_row_new ();
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_widget_set_tooltip_text (row, uri);
  g_object_set_data_full (G_OBJECT (row), "uri", g_strdup (uri), g_free);

  return row;
}

void
_sps_window_update_recent (SpsWindow *self)
{
  g_auto(GStrv) uris = NULL;
  GtkWidget *child;

  g_assert (SPS_IS_WINDOW (self));

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->recent_list))))
    gtk_list_box_remove (self->recent_list, child);

  uris = g_settings_get_strv (self->settings, "recent-files");

  for (guint i = 0; uris[i] != NULL && i < SPS_APPLICATION_MAX_RECENT; i++)
    gtk_list_box_append (self->recent_list, create_recent_row (uris[i]));

  gtk_widget_set_visible (self->recent_box, uris[0] != NULL);
}

gboolean
_sps_window_on_drop (SpsWindow     *self,
                     const GValue  *value,
                     double         x,
                     double         y,
                     GtkDropTarget *target)
{
  SpsApplication *app;

  g_assert (SPS_IS_WINDOW (self));

  if (!(app = _sps_window_get_application (self)))
    return FALSE;

  if (G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    {
      GSList *files = g_value_get_boxed (value);

      if (files == NULL)
        return FALSE;

      for (const GSList *l = files; l != NULL; l = l->next)
        sps_application_open_file (app, l->data, GTK_WINDOW (self));

      return TRUE;
    }

  if (G_VALUE_HOLDS (value, G_TYPE_FILE) && g_value_get_object (value) != NULL)
    {
      sps_application_open_file (app, g_value_get_object (value), GTK_WINDOW (self));
      return TRUE;
    }

  return FALSE;
}

/* Live capture (File ▸ Open Device…): the chosen port opens in a live
 * window of its own (sps-live-window.c); this window stays as it is. */
static void
sps_window_device_chosen (SpsWindow       *self,
                          const char      *path,
                          guint            baud,
                          SpsDeviceDialog *dialog)
{
  g_autoptr(SpsSerialSource) source = sps_serial_source_new (path, baud);
  g_autoptr(SpsLiveCapture) capture = sps_live_capture_new (SPS_LIVE_SOURCE (source));
  g_autoptr(GError) error = NULL;
  SpsLiveWindow *live;

  g_assert (SPS_IS_WINDOW (self));

  if (!sps_live_capture_start (capture, &error))
    {
      GtkWidget *message = gtk_message_dialog_new (GTK_WINDOW (self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                                   GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE,
                                                   "%s", _("Could Not Start the Capture"));

      gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (message), "%s", error->message);
      g_signal_connect (message, "response", G_CALLBACK (gtk_window_destroy), NULL);
      gtk_window_present (GTK_WINDOW (message));
      return;
    }

  live = sps_live_window_new (gtk_window_get_application (GTK_WINDOW (self)), capture);
  gtk_window_present (GTK_WINDOW (live));
}

static void
action_open_device (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       user_data)
{
  SpsWindow *self = user_data;
  SpsDeviceDialog *dialog;

  g_assert (SPS_IS_WINDOW (self));

  dialog = sps_device_dialog_new (GTK_WINDOW (self));
  g_signal_connect_object (dialog, "device-chosen", G_CALLBACK (sps_window_device_chosen),
                           self, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}

static const GActionEntry win_actions[] = {
  { "open", action_open },
  { "close", action_close },
  { "reload", action_reload },
  { "save-profile", _sps_window_action_save_profile },
  { "cancel-load", action_cancel_load },
  { "go-to-time", action_go_to_time },
  { "search", action_search },
  { "open-device", action_open_device },
};

void
_sps_window_add_actions (SpsWindow *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), win_actions,
                                   G_N_ELEMENTS (win_actions), self);
}
