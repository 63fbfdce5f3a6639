/* sps-window-save.c: File ▸ Save Profile… of SpsWindow, and the status
 * line that shows the save's progress, lets it be cancelled, and says
 * where the profile went
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-window"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "sps-window-private.h"

/* How long "Saved profile to …" stays once the save is over */
#define SAVED_NOTICE_SECONDS 8

typedef struct
{
  SpsTrace    *trace;
  GFile       *output;
  GVariant    *options;
  SpsProgress *progress;
} SaveData;

static void
save_data_free (gpointer user_data)
{
  SaveData *data = user_data;

  g_clear_object (&data->trace);
  g_clear_object (&data->output);
  g_clear_pointer (&data->options, g_variant_unref);
  g_clear_object (&data->progress);
  g_free (data);
}

/* On a worker thread: the exporter plugin writes the database, through
 * sps_file_replace(), which writes a temporary file and renames it only
 * when the stream closes without an error, and refuses a target that is
 * not a file. */
static void
save_profile_worker (GTask        *task,
                     gpointer      source_object,
                     gpointer      task_data,
                     GCancellable *cancellable)
{
  SaveData *data = task_data;
  g_autoptr(SpsExporter) exporter = NULL;
  g_autoptr(GFileOutputStream) stream = NULL;
  g_autoptr(GError) error = NULL;

  exporter = sps_plugin_engine_create_exporter (sps_plugin_engine_get_default (), "spanscope-profile");
  if (exporter == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "%s",
                               _("The saved profile plugin is not available"));
      return;
    }

  if (!(stream = sps_file_replace (data->output, cancellable, &error)) ||
      !sps_exporter_write (exporter, data->trace, data->options, G_OUTPUT_STREAM (stream),
                           data->progress, &error))
    {
      if (stream != NULL)
        sps_file_replace_abandon (G_OUTPUT_STREAM (stream));
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (!g_output_stream_close (G_OUTPUT_STREAM (stream), cancellable, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  g_task_return_boolean (task, TRUE);
}

/* The status line: while saving, where to and how far, with Cancel; then
 * where the profile went, for a few seconds (or until dismissed). */
static gboolean
hide_save_status (gpointer user_data)
{
  SpsWindow *self = user_data;

  self->save_notice_id = 0;
  gtk_revealer_set_reveal_child (self->save_revealer, FALSE);
  return G_SOURCE_REMOVE;
}

static char *
dup_file_label (GFile *file)
{
  g_autoptr(GFile) folder = g_file_get_parent (file);
  g_autofree char *base = g_file_get_basename (file);
  g_autofree char *display = g_filename_display_name (base);
  g_autofree char *where = NULL;

  if (folder == NULL)
    return g_steal_pointer (&display);
  where = _sps_window_dup_folder_label (folder);
  return g_build_filename (where, display, NULL);
}

static void
show_save_status (SpsWindow  *self,
                  const char *text,
                  gboolean    saving)
{
  g_clear_handle_id (&self->save_notice_id, g_source_remove);
  gtk_label_set_text (self->save_label, text);
  gtk_widget_set_visible (GTK_WIDGET (self->save_progress_bar), saving);
  gtk_widget_set_visible (GTK_WIDGET (self->save_cancel_button), saving);
  gtk_widget_set_visible (GTK_WIDGET (self->save_dismiss_button), !saving);
  if (saving)
    gtk_progress_bar_set_fraction (self->save_progress_bar, 0.0);
  gtk_revealer_set_reveal_child (self->save_revealer, TRUE);
}

static void
on_save_progress_changed (SpsWindow   *self,
                          SpsProgress *progress)
{
  if (progress == self->save_progress)
    gtk_progress_bar_set_fraction (self->save_progress_bar,
                                   CLAMP (sps_progress_get_fraction (progress), 0.0, 1.0));
}

void
_sps_window_cancel_save (SpsWindow *self)
{
  g_assert (SPS_IS_WINDOW (self));

  if (self->save_progress != NULL)
    sps_progress_cancel (self->save_progress);
}

void
_sps_window_dismiss_save_status (SpsWindow *self)
{
  g_assert (SPS_IS_WINDOW (self));

  hide_save_status (self);
}

/* Who asked for the save: a test's callback, or the menu (NULL) */
typedef struct
{
  GAsyncReadyCallback callback;
  gpointer            user_data;
} SaveCaller;

static void
save_profile_done (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  SpsWindow *self = SPS_WINDOW (source);
  g_autofree SaveCaller *caller = user_data;
  g_autoptr(GError) error = NULL;
  GtkWidget *message;

  SaveData *data = g_task_get_task_data (G_TASK (result));
  gboolean saved;

  self->saving_profile = FALSE;
  g_clear_object (&self->save_progress);
  if (!self->disposed)
    {
      _sps_window_update_actions (self);
      /* Peeked, not taken: a test's callback reads the result too */
      saved = !g_task_had_error (G_TASK (result));
      if (saved)
        {
          g_autofree char *where = dup_file_label (data->output);
          g_autofree char *text = g_strdup_printf (_("Saved profile to %s"), where);

          show_save_status (self, text, FALSE);
          self->save_notice_id = g_timeout_add_seconds (SAVED_NOTICE_SECONDS, hide_save_status, self);
        }
      else
        hide_save_status (self);
    }

  if (caller->callback != NULL)
    {
      caller->callback (source, result, caller->user_data);
      return;
    }

  if (g_task_propagate_boolean (G_TASK (result), &error) ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->disposed)
    return;

  message = gtk_message_dialog_new (GTK_WINDOW (self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                    GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE,
                                    "%s", _("Could Not Save the Profile"));
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (message), "%s", error->message);
  g_signal_connect (message, "response", G_CALLBACK (gtk_window_destroy), NULL);
  gtk_window_present (GTK_WINDOW (message));
}

/**
 * _sps_window_save_profile:
 * @self: a window showing a trace
 * @output: the profile to write
 * @callback: (nullable): called when it is written or failed
 * @user_data: data for @callback
 *
 * Saves the shown trace as a profile on a worker thread, with its progress
 * and a Cancel button in the window's status line, which then says where
 * the profile went; the action is disabled until it is written. Without a
 * callback, a failure is shown in a dialog.
 */
void
_sps_window_save_profile (SpsWindow           *self,
                          GFile               *output,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GFile) folder = g_file_get_parent (output);
  g_autofree char *folder_path = folder != NULL ? g_file_get_path (folder) : NULL;
  g_autofree char *source = self->file != NULL ? g_file_get_path (self->file) : NULL;
  g_autofree char *where = dup_file_label (output);
  g_autofree char *text = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  SaveCaller *caller;
  SaveData *data;
  GVariantDict dict;

  g_assert (SPS_IS_WINDOW (self));
  g_assert (G_IS_FILE (output));

  g_variant_dict_init (&dict, NULL);
  if (source != NULL)
    g_variant_dict_insert (&dict, "source-file", "s", source);
  if (self->load_options != NULL)
    g_variant_dict_insert_value (&dict, "import-options", self->load_options);
  /* The database is built on the disk it is saved to */
  if (folder_path != NULL)
    g_variant_dict_insert (&dict, "scratch-directory", "s", folder_path);

  data = g_new0 (SaveData, 1);
  data->trace = g_object_ref (sps_session_get_trace (self->session));
  data->output = g_object_ref (output);
  data->options = g_variant_ref_sink (g_variant_dict_end (&dict));
  data->progress = sps_progress_new (cancellable);
  g_set_object (&self->save_progress, data->progress);
  g_signal_connect_object (data->progress, "changed", G_CALLBACK (on_save_progress_changed),
                           self, G_CONNECT_SWAPPED);

  caller = g_new0 (SaveCaller, 1);
  caller->callback = callback;
  caller->user_data = user_data;
  task = g_task_new (self, cancellable, save_profile_done, caller);
  g_task_set_source_tag (task, _sps_window_save_profile);
  g_task_set_task_data (task, data, save_data_free);
  g_task_run_in_thread (task, save_profile_worker);

  self->saving_profile = TRUE;
  _sps_window_update_actions (self);
  text = g_strdup_printf (_("Saving profile to %s…"), where);
  show_save_status (self, text, TRUE);
}

static void
sps_window_save_response (SpsWindow            *self,
                          int                   response,
                          GtkFileChooserNative *native)
{
  g_assert (SPS_IS_WINDOW (self));
  g_assert (GTK_IS_FILE_CHOOSER_NATIVE (native));

  if (response == GTK_RESPONSE_ACCEPT && self->session != NULL)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));

      if (file != NULL)
        _sps_window_save_profile (self, file, NULL, NULL);
    }
  gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (native));
  g_object_unref (native);
}

void
_sps_window_action_save_profile (GSimpleAction *action,
                                 GVariant      *param,
                                 gpointer       user_data)
{
  SpsWindow *self = user_data;
  GtkFileChooserNative *native;
  GtkFileChooser *chooser;

  g_assert (SPS_IS_WINDOW (self));

  if (self->session == NULL)
    return;

  native = gtk_file_chooser_native_new (_("Save Profile"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));
  chooser = GTK_FILE_CHOOSER (native);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
  _sps_window_add_file_filter (chooser, _("Spanscope Profiles"), "*.spprofile", NULL);

  if (self->file != NULL)
    {
      g_autoptr(GFile) folder = g_file_get_parent (self->file);
      g_autofree char *base = g_file_get_basename (self->file);
      g_autofree char *name = NULL;
      char *dot = strrchr (base, '.');

      if (dot != NULL && dot != base)
        *dot = '\0';
      name = g_strconcat (base, ".spprofile", NULL);
      if (folder != NULL)
        gtk_file_chooser_set_current_folder (chooser, folder, NULL);
      gtk_file_chooser_set_current_name (chooser, name);
    }

  g_signal_connect_object (native, "response", G_CALLBACK (sps_window_save_response),
                           self, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

