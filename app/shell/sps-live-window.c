/* sps-live-window.c: a trace that grows while a device sends it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Shows a running SpsLiveCapture: each time the capture changes, the new
 * bytes of its file are decoded on a worker thread by a live decoder of
 * the format (kept for the whole capture, so nothing is decoded twice)
 * and the trace built from what it holds (the trace a load of the same
 * bytes gives) replaces the shown one. A format whose importer has no
 * live decoder is loaded whole again (sps_trace_load_async()). Updates
 * keep to UPDATE_BUDGET of one core. With "Follow" on, the view keeps its
 * width and slides to the newest time; off, it stays where the user put
 * it. Stop ends the capture
 * and keeps everything; Save writes the raw stream as an .etrace file,
 * which reopens as the same trace.
 *
 * A bar above the trace says what is wrong, if anything: the device went
 * away (with how many events were kept), bytes keep coming but none of
 * them made a frame for NO_FRAMES_US (a wrong baud rate, or not a
 * Spanscope device), or data comes faster than the view can reload it
 * (a load has taken longer than BEHIND_US with more data waiting; nothing
 * is dropped, the view just lags). Reloads run on a worker thread and
 * the source reads in bounded slices, so none of this blocks the UI.
 */

#define G_LOG_DOMAIN "sps-live-window"

#include "config.h"

#include <inttypes.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "sps-live-memory.h"
#include "sps-live-window.h"

/* Bytes without a frame for this long: probably not a frame stream */
#define NO_FRAMES_US (5 * G_USEC_PER_SEC)
/* A load still running after this long with newer data waiting */
#define BEHIND_US (G_USEC_PER_SEC / 2)
#define STATE_TICK_MS 250
/* Updates take at most this share of one core: an update's cost still
 * grows with the capture, so a long one refreshes the view less often
 * instead of taking the machine (docs/architecture.md, "Live updates") */
#define UPDATE_BUDGET 0.1

struct _SpsLiveWindow
{
  GtkApplicationWindow  parent_instance;

  SpsLiveCapture       *capture;
  SpsSession           *session;
  GtkWidget            *timeline;
  GCancellable         *cancellable;
  GtkFileChooserNative *save_chooser;
  /* Where a save under way writes, and what the status line says of
   * the last one */
  GFile                *save_file;
  char                 *save_note;
  /* The format's decoder once the first bytes were recognised, and how
   * many bytes of the capture it has seen; whole_loads: the format has
   * none */
  SpsLiveDecoder       *decoder;
  guint64               decoded;
  gboolean              whole_loads;
  /* Waiting after an update so updates keep to UPDATE_BUDGET */
  guint                 budget_wait;
  /* The "Spanscope memory" track (the menu's toggle) */
  SpsLiveMemory        *memory;
  guint                 generation;
  gboolean              loading;
  gboolean              pending;
  gboolean              follow;

  /* For the state bar (monotonic times) */
  SpsLiveState          state;
  guint                 state_tick;
  gint64                load_started;
  guint64               load_bytes;
  guint64               frames_seen;
  guint64               bytes_at_frame;
  gint64                unframed_since;

  GtkLabel             *title_label;
  GtkButton            *stop_button;
  GtkButton            *save_button;
  GtkToggleButton      *follow_button;
  GtkStack             *stack;
  GtkLabel             *waiting_label;
  GtkScrolledWindow    *scroller;
  GtkLabel             *status_label;
  GtkInfoBar           *state_bar;
  GtkLabel             *state_label;
};

G_DEFINE_FINAL_TYPE (SpsLiveWindow, sps_live_window, GTK_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_FOLLOW,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void sps_live_window_reload (SpsLiveWindow *self);

/* The newest time: the end of the trace, with the visible width kept */
static void
follow_newest (SpsLiveWindow *self)
{
  SpsTrace *trace;
  SpsTime start, end, width;

  if (self->session == NULL)
    return;

  trace = sps_session_get_trace (self->session);
  start = sps_trace_get_start_time (trace);
  end = sps_trace_get_end_time (trace);
  width = sps_session_get_visible_end (self->session) - sps_session_get_visible_start (self->session);

  if (width <= 0 || width > end - start)
    sps_session_fit_trace (self->session);
  else
    sps_session_set_visible (self->session, end - width, end);
}

static guint64
shown_events (SpsLiveWindow *self)
{
  return self->session != NULL ? sps_trace_get_events_read (sps_session_get_trace (self->session)) : 0;
}

static const char *
device_name (SpsLiveWindow *self)
{
  return sps_live_source_get_name (sps_live_capture_get_source (self->capture));
}

/* What the embedded-stream decoder said about bytes it had to skip
 * ("desync", "invalid_frames"), without the file it names, or NULL */
static const char *
garbled_message (SpsLiveWindow *self)
{
  SpsTrace *trace;

  if (self->session == NULL)
    return NULL;

  trace = sps_session_get_trace (self->session);
  for (guint i = 0; i < sps_trace_get_n_warnings (trace); i++)
    {
      const char *first = NULL;
      const char *name = sps_trace_get_warning (trace, i, NULL, &first);

      if (g_str_equal (name, "desync") || g_str_equal (name, "invalid_frames"))
        {
          GFile *file = sps_live_capture_get_file (self->capture);
          g_autofree char *path = file != NULL ? g_file_get_parse_name (file) : NULL;

          if (first == NULL)
            return g_str_equal (name, "desync") ? _("some bytes were not frames and were skipped")
                                                : _("some frames did not decode and were skipped");
          /* Messages name the file: here a temporary one the user never
           * sees; the state bar names the device instead. */
          if (path != NULL && g_str_has_prefix (first, path) && g_str_has_prefix (first + strlen (path), ": "))
            return first + strlen (path) + 2;
          return first;
        }
    }

  return NULL;
}

/* @garbled: garbled_message(), looked up once per update */
static SpsLiveState
compute_state (SpsLiveWindow *self,
               const char    *garbled)
{
  gint64 now = g_get_monotonic_time ();

  if (!sps_live_capture_get_running (self->capture))
    {
      if (sps_live_capture_get_error (self->capture) != NULL)
        return SPS_LIVE_STATE_FAILED;
      return sps_live_capture_get_stopped (self->capture) ? SPS_LIVE_STATE_STOPPED
                                                          : SPS_LIVE_STATE_DISCONNECTED;
    }

  if ((self->loading || self->budget_wait != 0) && self->pending && now - self->load_started >= BEHIND_US)
    return SPS_LIVE_STATE_BEHIND;

  if (self->unframed_since != 0 && now - self->unframed_since >= NO_FRAMES_US)
    return SPS_LIVE_STATE_NO_FRAMES;

  if (garbled != NULL)
    return SPS_LIVE_STATE_GARBLED;

  return SPS_LIVE_STATE_RECEIVING;
}

static void
update_state (SpsLiveWindow *self)
{
  g_autofree char *events = g_strdup_printf ("%'" G_GUINT64_FORMAT, shown_events (self));
  g_autofree char *text = NULL;
  SpsTrace *trace = self->session != NULL ? sps_session_get_trace (self->session) : NULL;
  const GError *load_error = trace != NULL ? sps_trace_get_load_error (trace) : NULL;
  GtkMessageType type = GTK_MESSAGE_WARNING;
  const char *garbled = garbled_message (self);
  const char *name = device_name (self);

  self->state = compute_state (self, garbled);

  switch (self->state)
    {
    case SPS_LIVE_STATE_RECEIVING:
      break;

    case SPS_LIVE_STATE_NO_FRAMES:
      /* Translators: %s is a device path */
      text = g_strdup_printf (_("%s: no valid frames in the last 5 s — wrong baud rate, or not a "
                                "Spanscope device? Everything received is kept."), name);
      break;

    case SPS_LIVE_STATE_GARBLED:
      /* Translators: the first %s is a device path, the second the decoder's message,
       * e.g. "byte 232: 12 bytes that are not frames were skipped; …" */
      text = g_strdup_printf (_("%s: %s. Everything received is kept."), name, garbled);
      break;

    case SPS_LIVE_STATE_BEHIND:
      /* Translators: %s is a device path */
      text = g_strdup_printf (_("%s: receiving faster than it can be shown; nothing is lost, "
                                "the view catches up when the device slows down or stops."), name);
      type = GTK_MESSAGE_INFO;
      break;

    case SPS_LIVE_STATE_STOPPED:
      /* Translators: %s are a device path and a number of events */
      text = g_strdup_printf (_("%s: capture stopped — %s events kept"), name, events);
      type = GTK_MESSAGE_INFO;
      break;

    case SPS_LIVE_STATE_DISCONNECTED:
      /* Translators: %s are a device path and a number of events */
      text = g_strdup_printf (_("%s: device disconnected — %s events kept"), name, events);
      break;

    case SPS_LIVE_STATE_FAILED:
      /* Translators: %s are a device path, a number of events, and why */
      text = g_strdup_printf (_("%s: capture failed — %s events kept: %s"), name, events,
                              sps_live_capture_get_error (self->capture)->message);
      type = GTK_MESSAGE_ERROR;
      break;

    default:
      g_assert_not_reached ();
    }

  /* A device unplugged mid-frame leaves a cut-off frame at the end; the
   * embedded-stream importer counts it as a "truncated_frame" warning. */
  if (text != NULL && self->state >= SPS_LIVE_STATE_STOPPED &&
      (g_error_matches (load_error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_TRUNCATED) ||
       (trace != NULL && sps_trace_count_warning (trace, "truncated_frame") > 0)))
    {
      g_autofree char *full = g_strdup_printf ("%s %s", text, _("(the last frame was cut off)"));

      g_free (text);
      text = g_steal_pointer (&full);
    }

  gtk_label_set_text (self->state_label, text != NULL ? text : "");
  gtk_info_bar_set_message_type (self->state_bar, type);
  gtk_info_bar_set_revealed (self->state_bar, text != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->state_bar), text != NULL);

  if (self->state >= SPS_LIVE_STATE_STOPPED)
    g_clear_handle_id (&self->state_tick, g_source_remove);
}

/* Learns from a finished load whether the bytes it read made frames. */
static void
note_load (SpsLiveWindow *self)
{
  guint64 frames = shown_events (self);

  if (frames > self->frames_seen)
    {
      self->frames_seen = frames;
      self->bytes_at_frame = self->load_bytes;
      self->unframed_since = 0;
    }
  else if (self->load_bytes > self->bytes_at_frame && self->unframed_since == 0)
    {
      self->unframed_since = self->load_started;
    }
}

static gboolean
on_state_tick (gpointer user_data)
{
  SpsLiveWindow *self = user_data;

  update_state (self);

  return self->state_tick != 0 ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

static void
update_status (SpsLiveWindow *self)
{
  g_autoptr(GString) status = g_string_new (NULL);
  const GError *error = sps_live_capture_get_error (self->capture);
  gboolean running = sps_live_capture_get_running (self->capture);
  guint64 n_bytes = sps_live_capture_get_n_bytes (self->capture);

  g_string_append (status, running ? _("Capturing") : _("Stopped"));
  g_string_append (status, " · ");
  /* Translators: %lu is a number of bytes received from the device */
  g_string_append_printf (status, g_dngettext (GETTEXT_PACKAGE, "%" PRIu64 " byte",
                                               "%" PRIu64 " bytes", n_bytes), n_bytes);

  if (self->session != NULL)
    {
      SpsTrace *trace = sps_session_get_trace (self->session);
      guint64 frames = sps_trace_get_events_read (trace);
      guint64 warnings = 0;

      for (guint i = 0; i < sps_trace_get_n_warnings (trace); i++)
        {
          guint64 count = 0;

          sps_trace_get_warning (trace, i, &count, NULL);
          warnings += count;
        }

      g_string_append (status, " · ");
      /* Translators: %lu is a number of decoded frames */
      g_string_append_printf (status, g_dngettext (GETTEXT_PACKAGE, "%" PRIu64 " frame",
                                                   "%" PRIu64 " frames", frames), frames);
      if (warnings > 0)
        {
          g_string_append (status, " · ");
          /* Translators: %lu counts problems in the stream (lost frames…) */
          g_string_append_printf (status, g_dngettext (GETTEXT_PACKAGE, "%" PRIu64 " warning",
                                                       "%" PRIu64 " warnings", warnings), warnings);
        }
    }

  if (error != NULL)
    {
      g_string_append (status, " · ");
      g_string_append (status, error->message);
    }

  if (self->save_note != NULL)
    {
      g_string_append (status, " · ");
      g_string_append (status, self->save_note);
    }

  /* Bytes came, but nothing could be read from them yet */
  if (self->session == NULL && n_bytes > 0)
    {
      const char *name = device_name (self);
      /* Translators: %s is a device path */
      g_autofree char *waiting = g_strdup_printf (_("Receiving from %s; no trace frames recognised yet…"), name);

      gtk_label_set_text (self->waiting_label, waiting);
    }

  gtk_label_set_text (self->status_label, status->str);
  gtk_widget_set_sensitive (GTK_WIDGET (self->stop_button), running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->save_button), n_bytes > 0 && self->save_file == NULL);

  update_state (self);
}

static void
show_trace (SpsLiveWindow *self,
            SpsTrace      *trace)
{
  g_autoptr(SpsSession) previous = g_steal_pointer (&self->session);

  self->session = sps_session_new (trace);
  /* A new timeline at every update: one that prepared its summaries
   * first would show its placeholder at every update */
  self->timeline = g_object_new (SPS_TYPE_TIMELINE,
                                 "session", self->session,
                                 "prepare-ahead", FALSE,
                                 NULL);
  gtk_widget_set_focusable (self->timeline, TRUE);
  gtk_scrolled_window_set_child (self->scroller, self->timeline);
  gtk_stack_set_visible_child_name (self->stack, "trace");

  /* The selection, range, flags and filters stay from update to update */
  if (previous != NULL)
    sps_session_carry_over (self->session, previous);

  if (previous != NULL && !self->follow)
    sps_session_set_visible (self->session,
                             sps_session_get_visible_start (previous),
                             sps_session_get_visible_end (previous));
  else if (previous != NULL)
    {
      sps_session_set_visible (self->session,
                               sps_session_get_visible_start (previous),
                               sps_session_get_visible_end (previous));
      follow_newest (self);
    }
  else
    sps_session_fit_trace (self->session);

  self->generation++;
}

static gboolean
on_budget_wait_over (gpointer user_data)
{
  SpsLiveWindow *self = user_data;

  self->budget_wait = 0;
  sps_live_window_reload (self);

  return G_SOURCE_REMOVE;
}

/* A load or update is done: @trace (nullable) is the newest generation */
static void
loaded (SpsLiveWindow *self,
        SpsTrace      *trace,
        const GError  *error)
{
  self->loading = FALSE;
  g_debug ("Update to %" G_GUINT64_FORMAT " bytes took %.0f ms", self->load_bytes,
           (g_get_monotonic_time () - self->load_started) / 1000.0);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  /* Not a trace yet (too few bytes to be recognised): wait for more */
  if (trace != NULL)
    {
      /* The newest frame had arrived when the update started */
      sps_live_memory_anchor (self->memory, self->load_started, sps_trace_get_end_time (trace));
      show_trace (self, trace);
    }
  else
    g_debug ("Live capture not readable yet: %s", error->message);
  note_load (self);

  update_status (self);

  if (self->pending)
    {
      /* The update took `took` of one worker: wait 1 / UPDATE_BUDGET − 1
       * times as long before the next */
      gint64 took = g_get_monotonic_time () - self->load_started;
      guint wait_ms = (guint) MIN (took * (1 / UPDATE_BUDGET - 1) / 1000, G_MAXUINT);

      if (wait_ms == 0)
        sps_live_window_reload (self);
      else
        self->budget_wait = g_timeout_add (wait_ms, on_budget_wait_over, self);
    }
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(SpsLiveWindow) self = user_data;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;

  trace = sps_trace_load_finish (result, &error);
  loaded (self, trace, error);
}

static void
update_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(SpsLiveWindow) self = user_data;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;

  trace = sps_live_decoder_update_finish (result, &error);
  loaded (self, trace, error);
}

/* Picks the format from the first bytes, as a load does (the importer
 * that recognises them best), and takes its live decoder; until some
 * importer recognises them, updates load the file whole and fail. */
static void
start_decoder (SpsLiveWindow *self,
               GFile         *file)
{
  g_autoptr(GPtrArray) importers = sps_plugin_engine_create_importers (sps_plugin_engine_get_default ());
  g_autoptr(GBytes) head = sps_live_capture_read_head (self->capture);
  g_autofree char *name = NULL;
  SpsImporter *best = NULL;
  guint best_score = 0;

  for (guint i = 0; i < importers->len; i++)
    {
      SpsImporter *importer = g_ptr_array_index (importers, i);
      guint score = sps_importer_probe (importer, file, head);

      if (score > best_score)
        {
          best = importer;
          best_score = score;
        }
    }

  if (best == NULL)
    return;

  /* Messages name the stream as a load of the file would */
  name = g_file_get_parse_name (file);
  self->decoder = sps_importer_new_live_decoder (best, name);
  self->whole_loads = self->decoder == NULL;
  g_debug ("Live capture in %s format, %s", sps_importer_get_name (best),
           self->decoder != NULL ? "decoded as it arrives" : "loaded whole at each update");
}

static void
sps_live_window_reload (SpsLiveWindow *self)
{
  GFile *file = sps_live_capture_get_file (self->capture);

  g_assert (SPS_IS_LIVE_WINDOW (self));

  if (file == NULL || sps_live_capture_get_n_bytes (self->capture) == 0)
    {
      update_status (self);
      return;
    }

  if (self->loading || self->budget_wait != 0)
    {
      self->pending = TRUE;
      return;
    }

  self->loading = TRUE;
  self->pending = FALSE;
  self->load_started = g_get_monotonic_time ();
  self->load_bytes = sps_live_capture_get_n_bytes (self->capture);

  if (self->decoder == NULL && !self->whole_loads)
    start_decoder (self, file);

  if (self->decoder != NULL)
    {
      /* A cancelled update still feeds its bytes (the decoder stays
       * whole), so they count as decoded from here on */
      gboolean memory = sps_live_memory_get_n_samples (self->memory) > 0;

      sps_live_decoder_update_async (self->decoder, NULL, file, self->decoded, self->load_bytes,
                                     memory ? sps_live_memory_add_rows : NULL,
                                     memory ? sps_live_memory_dup_samples (self->memory) : NULL,
                                     memory ? (GDestroyNotify) g_array_unref : NULL,
                                     self->cancellable, update_cb, g_object_ref (self));
      self->decoded = self->load_bytes;
    }
  else
    sps_trace_load_async (file, NULL, NULL, SPS_LOAD_FLAGS_KEEP_PARTIAL, NULL, self->cancellable,
                          load_cb, g_object_ref (self));
}

static void
on_stop_clicked (SpsLiveWindow *self)
{
  sps_live_capture_stop (self->capture);
}

static char *
dup_display_basename (GFile *file)
{
  g_autofree char *name = g_file_get_basename (file);

  return g_filename_display_name (name);
}

static void
save_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(SpsLiveWindow) self = user_data;
  g_autoptr(GFile) file = g_steal_pointer (&self->save_file);
  g_autofree char *shown = NULL;
  g_autoptr(GError) error = NULL;

  /* Closed meanwhile: the save went on, there is nothing to show it in */
  if (self->capture == NULL)
    {
      sps_live_capture_save_finish (SPS_LIVE_CAPTURE (object), result, NULL);
      return;
    }

  shown = dup_display_basename (file);
  g_free (self->save_note);
  if (sps_live_capture_save_finish (SPS_LIVE_CAPTURE (object), result, &error))
    /* Translators: %s is a file name */
    self->save_note = g_strdup_printf (_("saved as %s"), shown);
  else
    /* Translators: %s is a file name, then a system error message */
    self->save_note = g_strdup_printf (_("could not save %s: %s"), shown, error->message);

  update_status (self);
}

/**
 * sps_live_window_save:
 * @self: a #SpsLiveWindow
 * @file: where to write the capture
 *
 * Writes what was received so far to @file on a worker thread, saying so
 * in the status line, and how it ended. The save completes even if the
 * window is closed meanwhile.
 */
void
sps_live_window_save (SpsLiveWindow *self,
                      GFile         *file)
{
  g_autofree char *shown = NULL;

  g_return_if_fail (SPS_IS_LIVE_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (self->save_file == NULL);

  self->save_file = g_object_ref (file);
  shown = dup_display_basename (file);
  g_free (self->save_note);
  /* Translators: %s is a file name */
  self->save_note = g_strdup_printf (_("saving as %s…"), shown);
  update_status (self);

  sps_live_capture_save_async (self->capture, file, NULL, save_cb, g_object_ref (self));
}

gboolean
sps_live_window_get_saving (SpsLiveWindow *self)
{
  g_return_val_if_fail (SPS_IS_LIVE_WINDOW (self), FALSE);

  return self->save_file != NULL;
}

static void
on_save_response (SpsLiveWindow        *self,
                  int                   response,
                  GtkFileChooserNative *native)
{
  g_autoptr(GFile) file = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
      if (file != NULL && self->save_file == NULL)
        sps_live_window_save (self, file);
    }

  gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (native));
  if (self->save_chooser == native)
    g_clear_object (&self->save_chooser);
}

static void
on_save_clicked (SpsLiveWindow *self)
{
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

  if (self->save_chooser != NULL)
    {
      gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->save_chooser));
      return;
    }

  self->save_chooser = gtk_file_chooser_native_new (_("Save the Capture"), GTK_WINDOW (self),
                                                    GTK_FILE_CHOOSER_ACTION_SAVE,
                                                    _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->save_chooser), TRUE);
  gtk_file_filter_set_name (filter, _("Embedded Captures"));
  gtk_file_filter_add_pattern (filter, "*.etrace");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->save_chooser), filter);
  /* Translators: the proposed file name of a saved capture */
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->save_chooser), _("capture.etrace"));
  g_signal_connect_object (self->save_chooser, "response", G_CALLBACK (on_save_response),
                           self, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->save_chooser));
}

static void
on_follow_toggled (SpsLiveWindow   *self,
                   GtkToggleButton *button)
{
  sps_live_window_set_follow (self, gtk_toggle_button_get_active (button));
}

static void
on_memory_track (GSimpleAction *action,
                 GVariant      *state,
                 gpointer       user_data)
{
  SpsLiveWindow *self = user_data;

  g_simple_action_set_state (action, state);
  sps_live_memory_set_enabled (self->memory, g_variant_get_boolean (state));
  /* Off: the track goes at once, not with the next bytes */
  if (!g_variant_get_boolean (state))
    sps_live_window_reload (self);
}

static void
sps_live_window_dispose (GObject *object)
{
  SpsLiveWindow *self = SPS_LIVE_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->state_tick, g_source_remove);
  g_clear_handle_id (&self->budget_wait, g_source_remove);
  if (self->capture != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->capture, self);
      sps_live_capture_stop (self->capture);
    }
  if (self->save_chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->save_chooser));
  g_clear_object (&self->save_chooser);
  g_clear_object (&self->capture);
  g_clear_object (&self->session);
  g_clear_object (&self->decoder);
  g_clear_object (&self->memory);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->save_note, g_free);
  g_clear_object (&self->save_file);

  G_OBJECT_CLASS (sps_live_window_parent_class)->dispose (object);
}

static void
sps_live_window_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  SpsLiveWindow *self = SPS_LIVE_WINDOW (object);

  switch (prop_id)
    {
    case PROP_FOLLOW:
      g_value_set_boolean (value, self->follow);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sps_live_window_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  SpsLiveWindow *self = SPS_LIVE_WINDOW (object);

  switch (prop_id)
    {
    case PROP_FOLLOW:
      sps_live_window_set_follow (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sps_live_window_class_init (SpsLiveWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sps_live_window_dispose;
  object_class->get_property = sps_live_window_get_property;
  object_class->set_property = sps_live_window_set_property;

  properties[PROP_FOLLOW] =
    g_param_spec_boolean ("follow", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sps_live_window_init (SpsLiveWindow *self)
{
  GtkWidget *header = gtk_header_bar_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *status_bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GSimpleAction) action = NULL;
  GtkWidget *menu_button;

  self->follow = TRUE;
  self->cancellable = g_cancellable_new ();

  self->title_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->title_label), "title");
  gtk_label_set_ellipsize (self->title_label, PANGO_ELLIPSIZE_MIDDLE);
  gtk_header_bar_set_title_widget (GTK_HEADER_BAR (header), GTK_WIDGET (self->title_label));

  self->stop_button = GTK_BUTTON (gtk_button_new_with_mnemonic (_("_Stop")));
  gtk_widget_add_css_class (GTK_WIDGET (self->stop_button), "destructive-action");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->stop_button), _("Stop the capture and keep what was received"));
  g_signal_connect_swapped (self->stop_button, "clicked", G_CALLBACK (on_stop_clicked), self);
  gtk_header_bar_pack_start (GTK_HEADER_BAR (header), GTK_WIDGET (self->stop_button));

  self->save_button = GTK_BUTTON (gtk_button_new_with_mnemonic (_("_Save…")));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->save_button), _("Save the raw stream as an .etrace file"));
  g_signal_connect_swapped (self->save_button, "clicked", G_CALLBACK (on_save_clicked), self);
  gtk_header_bar_pack_start (GTK_HEADER_BAR (header), GTK_WIDGET (self->save_button));

  self->follow_button = GTK_TOGGLE_BUTTON (gtk_toggle_button_new_with_mnemonic (_("_Follow")));
  gtk_toggle_button_set_active (self->follow_button, TRUE);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->follow_button), _("Keep the newest data in view"));
  g_signal_connect_swapped (self->follow_button, "toggled", G_CALLBACK (on_follow_toggled), self);
  self->memory = sps_live_memory_new ();
  action = g_simple_action_new_stateful ("memory-track", NULL, g_variant_new_boolean (FALSE));
  g_signal_connect_object (action, "change-state", G_CALLBACK (on_memory_track), self, 0);
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (action));
  g_menu_append (menu, _("Spanscope _Memory Track"), "win.memory-track");
  menu_button = gtk_menu_button_new ();
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (menu_button), "open-menu-symbolic");
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (menu_button), G_MENU_MODEL (menu));
  gtk_widget_set_tooltip_text (menu_button, _("Capture options"));
  gtk_header_bar_pack_end (GTK_HEADER_BAR (header), menu_button);

  gtk_header_bar_pack_end (GTK_HEADER_BAR (header), GTK_WIDGET (self->follow_button));

  gtk_window_set_titlebar (GTK_WINDOW (self), header);

  self->state_bar = GTK_INFO_BAR (gtk_info_bar_new ());
  self->state_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->state_label, TRUE);
  gtk_label_set_xalign (self->state_label, 0);
  gtk_widget_set_hexpand (GTK_WIDGET (self->state_label), TRUE);
  gtk_info_bar_add_child (self->state_bar, GTK_WIDGET (self->state_label));
  gtk_widget_set_visible (GTK_WIDGET (self->state_bar), FALSE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->state_bar));

  self->stack = GTK_STACK (gtk_stack_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->stack), TRUE);
  self->waiting_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->waiting_label), "dim-label");
  gtk_stack_add_named (self->stack, GTK_WIDGET (self->waiting_label), "waiting");
  self->scroller = GTK_SCROLLED_WINDOW (gtk_scrolled_window_new ());
  gtk_scrolled_window_set_policy (self->scroller, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_stack_add_named (self->stack, GTK_WIDGET (self->scroller), "trace");
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->stack));

  self->status_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_set_name (GTK_WIDGET (self->status_label), "live-status");
  gtk_label_set_xalign (self->status_label, 0);
  gtk_label_set_ellipsize (self->status_label, PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (GTK_WIDGET (self->status_label), TRUE);
  gtk_widget_set_margin_start (GTK_WIDGET (self->status_label), 12);
  gtk_widget_set_margin_end (GTK_WIDGET (self->status_label), 12);
  gtk_widget_set_margin_top (GTK_WIDGET (self->status_label), 6);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->status_label), 6);
  gtk_box_append (GTK_BOX (status_bar), GTK_WIDGET (self->status_label));
  gtk_box_append (GTK_BOX (box), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));
  gtk_box_append (GTK_BOX (box), status_bar);

  gtk_window_set_child (GTK_WINDOW (self), box);
  gtk_window_set_default_size (GTK_WINDOW (self), 1000, 600);
}

/**
 * sps_live_window_new:
 * @application: (nullable): the application
 * @capture: a capture; started here if it was not yet
 *
 * Returns: (transfer full): a window showing @capture as it grows
 */
SpsLiveWindow *
sps_live_window_new (GtkApplication *application,
                     SpsLiveCapture *capture)
{
  SpsLiveWindow *self;
  const char *name;
  g_autofree char *title = NULL;
  g_autofree char *waiting = NULL;

  g_return_val_if_fail (application == NULL || GTK_IS_APPLICATION (application), NULL);
  g_return_val_if_fail (SPS_IS_LIVE_CAPTURE (capture), NULL);

  self = g_object_new (SPS_TYPE_LIVE_WINDOW, "application", application, NULL);
  self->capture = g_object_ref (capture);
  g_signal_connect_object (capture, "changed", G_CALLBACK (sps_live_window_reload), self, G_CONNECT_SWAPPED);
  /* Stopped or unplugged shows at once, before the last reload is done */
  g_signal_connect_object (capture, "notify::running", G_CALLBACK (update_status), self, G_CONNECT_SWAPPED);

  name = sps_live_source_get_name (sps_live_capture_get_source (capture));
  /* Translators: the title of a live capture window; %s is a device path */
  title = g_strdup_printf (_("Live Capture: %s"), name);
  gtk_label_set_text (self->title_label, title);
  gtk_window_set_title (GTK_WINDOW (self), title);
  /* Translators: %s is a device path */
  waiting = g_strdup_printf (_("Waiting for data from %s…"), name);
  gtk_label_set_text (self->waiting_label, waiting);

  self->state_tick = g_timeout_add (STATE_TICK_MS, on_state_tick, self);
  sps_live_window_reload (self);
  update_status (self);

  return self;
}

SpsLiveCapture *
sps_live_window_get_capture (SpsLiveWindow *self)
{
  g_return_val_if_fail (SPS_IS_LIVE_WINDOW (self), NULL);

  return self->capture;
}

/* (nullable): the session of the newest generation shown */
SpsSession *
sps_live_window_get_session (SpsLiveWindow *self)
{
  g_return_val_if_fail (SPS_IS_LIVE_WINDOW (self), NULL);

  return self->session;
}

/* How many generations of the trace were shown */
guint
sps_live_window_get_generation (SpsLiveWindow *self)
{
  g_return_val_if_fail (SPS_IS_LIVE_WINDOW (self), 0);

  return self->generation;
}

gboolean
sps_live_window_get_follow (SpsLiveWindow *self)
{
  g_return_val_if_fail (SPS_IS_LIVE_WINDOW (self), FALSE);

  return self->follow;
}

void
sps_live_window_set_follow (SpsLiveWindow *self,
                            gboolean       follow)
{
  g_return_if_fail (SPS_IS_LIVE_WINDOW (self));

  follow = !!follow;
  if (self->follow == follow)
    return;

  self->follow = follow;
  gtk_toggle_button_set_active (self->follow_button, follow);
  if (follow)
    follow_newest (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLLOW]);
}

/**
 * sps_live_window_get_state:
 * @self: a #SpsLiveWindow
 *
 * Returns: what the state bar shows: receiving, no frames, garbled,
 *   behind, stopped, disconnected or failed
 */
SpsLiveState
sps_live_window_get_state (SpsLiveWindow *self)
{
  g_return_val_if_fail (SPS_IS_LIVE_WINDOW (self), SPS_LIVE_STATE_RECEIVING);

  return self->state;
}

/**
 * sps_live_window_get_state_text:
 * @self: a #SpsLiveWindow
 *
 * Returns: (nullable): what the state bar says, or %NULL when it is hidden
 */
const char *
sps_live_window_get_state_text (SpsLiveWindow *self)
{
  g_return_val_if_fail (SPS_IS_LIVE_WINDOW (self), NULL);

  return gtk_widget_get_visible (GTK_WIDGET (self->state_bar)) ? gtk_label_get_text (self->state_label) : NULL;
}
