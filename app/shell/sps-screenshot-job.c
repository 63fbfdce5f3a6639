/* sps-screenshot-job.c: `spanscope --screenshot`, one window to one image
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-screenshot-job"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-screenshot.h"
#include "sps-screenshot-job.h"
#include "sps-time-math-private.h"

/**
 * SpsScreenshotJob:
 *
 * The headless `--screenshot` mode: a window of exactly the requested
 * size (also larger than the screen), the trace loaded however long that
 * takes, and the image written after the first frame that shows it
 * complete. A file that fails to load gives the image of the error page
 * and the status 1.
 */

struct _SpsScreenshotJob
{
  GObject         parent_instance;

  char           *path;
  int             width;
  int             height;
  gboolean        has_range;
  SpsTime         range_start;
  SpsTime         range_end;
  SpsWindow      *window;
  gulong          state_id;
  gulong          paint_id;
  guint           timeout_id;
  GdkFrameClock  *clock;
  guint           resizes;
  guint           retries;
  /* 1 when the image shows the error of a trace that did not load */
  int             status;
  gboolean        finished;
  /* The size asked of the surface: the image's plus what the client-side
   * decorations add around it, learnt from the first frames. */
  int             surface_width;
  int             surface_height;
};

G_DEFINE_FINAL_TYPE (SpsScreenshotJob, sps_screenshot_job, G_TYPE_OBJECT)

enum {
  FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* How long the job may wait for the first frame once its trace has
 * loaded (the load itself may take as long as it takes). */
#define TIMEOUT_SECONDS 120
/* Frames to wait for one that has drawn something */
#define MAX_RETRIES 50

/* Stops listening to the window, its frames and the clock */
static void
sps_screenshot_job_disconnect (SpsScreenshotJob *self)
{
  g_clear_handle_id (&self->timeout_id, g_source_remove);
  if (self->clock != NULL)
    g_clear_signal_handler (&self->paint_id, self->clock);
  g_clear_object (&self->clock);
  if (self->window != NULL)
    g_clear_signal_handler (&self->state_id, self->window);
  g_clear_weak_pointer (&self->window);
}

static void
sps_screenshot_job_finish (SpsScreenshotJob *self,
                           int               exit_status)
{
  g_assert (SPS_IS_SCREENSHOT_JOB (self));

  if (self->window != NULL)
    gtk_window_destroy (GTK_WINDOW (self->window));
  sps_screenshot_job_disconnect (self);

  if (!self->finished)
    {
      self->finished = TRUE;
      g_signal_emit (self, signals[FINISHED], 0, exit_status);
    }
}

static void sps_screenshot_job_wait_for_frame (SpsScreenshotJob *self);

static gboolean
sps_screenshot_job_take (gpointer user_data)
{
  SpsScreenshotJob *self = user_data;
  g_autoptr(GError) error = NULL;

  g_assert (SPS_IS_SCREENSHOT_JOB (self));

  if (self->window == NULL)
    return G_SOURCE_REMOVE;

  /* Nobody points at anything in a picture (a headless display's pointer
   * rests in the middle of the screen). */
  if (sps_window_get_session (self->window) != NULL)
    sps_session_set_hovered_slice (sps_window_get_session (self->window), SPS_NO_INDEX);

  /* A window that cannot be as small as asked: its top-left part, so that
   * the image still has the requested size */
  if (gtk_widget_get_width (GTK_WIDGET (self->window)) > self->width ||
      gtk_widget_get_height (GTK_WIDGET (self->window)) > self->height)
    g_printerr ("spanscope: %s\n", _("The window cannot be that small; the image shows its top-left part"));

  if (!sps_screenshot_save_area (GTK_WIDGET (self->window), self->width, self->height, self->path, &error))
    {
      /* Nothing drawn yet: the next frame will have it. */
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED) &&
          self->retries++ < MAX_RETRIES)
        {
          sps_screenshot_job_wait_for_frame (self);
          return G_SOURCE_REMOVE;
        }

      g_printerr ("spanscope: %s\n", error->message);
      sps_screenshot_job_finish (self, 1);
    }
  else
    {
      sps_screenshot_job_finish (self, self->status);
    }

  return G_SOURCE_REMOVE;
}

/* The first frame painted after the trace page got its final size: the
 * layout is complete, so what is rendered now is what a user would see. */
static void
on_screenshot_after_paint (SpsScreenshotJob *self,
                           GdkFrameClock    *clock)
{
  GtkWidget *window;
  SpsTimeline *timeline;
  int default_width;
  int default_height;
  int width;
  int height;

  g_assert (SPS_IS_SCREENSHOT_JOB (self));

  if (self->window == NULL)
    return;

  /* A trace is complete once its timeline is laid out and draws its
   * rows (a large trace's summaries are built on worker threads first;
   * the timeline draws again when they are ready); an error page once
   * the window is. */
  if (sps_window_get_state (self->window) == SPS_WINDOW_STATE_LOADED &&
      (!(timeline = sps_window_get_timeline (self->window)) ||
       !gtk_widget_get_mapped (GTK_WIDGET (timeline)) ||
       gtk_widget_get_width (GTK_WIDGET (timeline)) <= 0 ||
       sps_timeline_get_preparing (timeline)))
    return;

  /* The default size includes what the window manager side of the
   * client-side decorations takes (resize borders, shadows); the image
   * must be the requested size of the window itself, so correct once
   * the difference is known and wait for the next frame. */
  window = GTK_WIDGET (self->window);
  width = gtk_widget_get_width (window);
  height = gtk_widget_get_height (window);

  if ((width != self->width || height != self->height) &&
      self->resizes++ < 3)
    {
      self->surface_width += self->width - width;
      self->surface_height += self->height - height;
      gtk_window_get_default_size (GTK_WINDOW (window), &default_width, &default_height);
      gtk_window_set_default_size (GTK_WINDOW (window),
                                   default_width + self->width - width,
                                   default_height + self->height - height);
      return;
    }

  g_clear_signal_handler (&self->paint_id, clock);
  g_idle_add_full (G_PRIORITY_HIGH_IDLE, sps_screenshot_job_take, self, NULL);
}

static gboolean
on_screenshot_timeout (gpointer user_data)
{
  SpsScreenshotJob *self = user_data;

  g_assert (SPS_IS_SCREENSHOT_JOB (self));

  self->timeout_id = 0;
  g_printerr ("spanscope: %s\n", _("The window did not draw the trace in time"));
  sps_screenshot_job_finish (self, 1);

  return G_SOURCE_REMOVE;
}

/* Takes the image after the next frame that shows the window complete. */
static void
sps_screenshot_job_wait_for_frame (SpsScreenshotJob *self)
{
  GtkWidget *window = GTK_WIDGET (self->window);

  if (self->clock == NULL)
    self->clock = g_object_ref (gtk_widget_get_frame_clock (window));
  if (self->paint_id == 0)
    self->paint_id =
      g_signal_connect_object (self->clock, "after-paint",
                               G_CALLBACK (on_screenshot_after_paint),
                               self, G_CONNECT_SWAPPED);
  if (self->timeout_id == 0)
    self->timeout_id =
      g_timeout_add_seconds (TIMEOUT_SECONDS, on_screenshot_timeout, self);
  gtk_widget_queue_draw (window);
}

static void
on_screenshot_state (SpsScreenshotJob *self,
                     GParamSpec       *pspec,
                     SpsWindow        *window)
{
  g_assert (SPS_IS_SCREENSHOT_JOB (self));
  g_assert (SPS_IS_WINDOW (window));

  switch (sps_window_get_state (window))
    {
    case SPS_WINDOW_STATE_LOADING:
      break;

    case SPS_WINDOW_STATE_FAILED:
      /* The image shows the error page; the exit status still fails. */
      g_printerr ("spanscope: %s\n", sps_window_get_error_message (window));
      self->status = 1;
      sps_screenshot_job_wait_for_frame (self);
      break;

    case SPS_WINDOW_STATE_EMPTY:
      g_printerr ("spanscope: %s\n", _("Loading was cancelled"));
      sps_screenshot_job_finish (self, 1);
      break;

    case SPS_WINDOW_STATE_LOADED:
      if (self->has_range)
        {
          SpsSession *session = sps_window_get_session (window);
          SpsTime start = sps_trace_get_start_time (sps_session_get_trace (session));
          SpsTime from = _sps_time_add (start, self->range_start);
          SpsTime to = _sps_time_add (start, self->range_end);

          /* Past the largest time both ends saturate to one */
          if (from < to)
            sps_session_set_visible (session, from, to);
        }

      sps_screenshot_job_wait_for_frame (self);
      break;

    default:
      g_assert_not_reached ();
    }
}

/* After the window's own handler, which keeps a toplevel inside the
 * monitor: an image may be larger than the screen. The surface stays
 * where the window system puts it (off the screen in part); the image is
 * rendered from the widgets, not read from the screen. */
static void
on_screenshot_compute_size (SpsScreenshotJob *self,
                            GdkToplevelSize  *size)
{
  g_assert (SPS_IS_SCREENSHOT_JOB (self));

  gdk_toplevel_size_set_size (size, self->surface_width, self->surface_height);
}

static void
on_screenshot_realize (SpsScreenshotJob *self,
                       GtkWidget        *window)
{
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (window));

  g_assert (SPS_IS_SCREENSHOT_JOB (self));

  if (GDK_IS_TOPLEVEL (surface))
    g_signal_connect_object (surface, "compute-size",
                             G_CALLBACK (on_screenshot_compute_size),
                             self, G_CONNECT_SWAPPED | G_CONNECT_AFTER);
}

/**
 * sps_screenshot_job_run:
 * @self: a #SpsScreenshotJob
 * @window: a new window, not shown yet
 * @file: the trace to show
 * @options: (nullable): importer options, see sps_window_load_with_options()
 *
 * Shows @window at the job's size, loads @file into it and, once the
 * trace (or the error page of a file that failed to load) is drawn,
 * writes the image, destroys @window and emits #SpsScreenshotJob::finished.
 */
void
sps_screenshot_job_run (SpsScreenshotJob *self,
                        SpsWindow        *window,
                        GFile            *file,
                        GVariant         *options)
{
  g_return_if_fail (SPS_IS_SCREENSHOT_JOB (self));
  g_return_if_fail (SPS_IS_WINDOW (window));
  g_return_if_fail (G_IS_FILE (file));

  /* What is drawn must not depend on how far an animation has got. */
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);

  gtk_window_set_default_size (GTK_WINDOW (window),
                               self->width,
                               self->height);
  g_set_weak_pointer (&self->window, window);
  self->surface_width = self->width;
  self->surface_height = self->height;
  g_signal_connect_object (window, "realize",
                           G_CALLBACK (on_screenshot_realize),
                           self, G_CONNECT_SWAPPED | G_CONNECT_AFTER);

  self->state_id =
    g_signal_connect_object (window, "notify::state",
                             G_CALLBACK (on_screenshot_state),
                             self, G_CONNECT_SWAPPED);
  /* The import's threads start before the window is shown, as when the
   * application opens a file: realising the window (with GL, its context
   * and shaders: 1 s of a loaded machine under Xvfb) then overlaps the
   * import instead of delaying it */
  sps_window_load_with_options (window, file, options);
  gtk_window_present (GTK_WINDOW (window));
}

static void
sps_screenshot_job_dispose (GObject *object)
{
  SpsScreenshotJob *self = SPS_SCREENSHOT_JOB (object);

  sps_screenshot_job_disconnect (self);

  G_OBJECT_CLASS (sps_screenshot_job_parent_class)->dispose (object);
}

static void
sps_screenshot_job_finalize (GObject *object)
{
  SpsScreenshotJob *self = SPS_SCREENSHOT_JOB (object);

  g_free (self->path);

  G_OBJECT_CLASS (sps_screenshot_job_parent_class)->finalize (object);
}

static void
sps_screenshot_job_class_init (SpsScreenshotJobClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sps_screenshot_job_dispose;
  object_class->finalize = sps_screenshot_job_finalize;

  /**
   * SpsScreenshotJob::finished:
   * @self: the job
   * @status: the exit status: 0 when the trace was drawn, 1 when the
   *   image shows an error page or none could be written
   *
   * Emitted once, after the window was destroyed.
   */
  signals[FINISHED] =
    g_signal_new ("finished",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 1, G_TYPE_INT);
}

static void
sps_screenshot_job_init (SpsScreenshotJob *self)
{
}

/**
 * sps_screenshot_job_new:
 * @path: where to write the PNG image
 * @width: the image's width, px
 * @height: its height
 *
 * Returns: (transfer full): a new job
 */
SpsScreenshotJob *
sps_screenshot_job_new (const char *path,
                        int         width,
                        int         height)
{
  SpsScreenshotJob *self;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (width > 0 && height > 0, NULL);

  self = g_object_new (SPS_TYPE_SCREENSHOT_JOB, NULL);
  self->path = g_strdup (path);
  self->width = width;
  self->height = height;

  return self;
}

/**
 * sps_screenshot_job_set_range:
 * @self: a #SpsScreenshotJob
 * @start: the start of the window, ns from the start of the trace
 * @end: its end
 *
 * Shows [@start, @end] of the trace instead of all of it.
 */
void
sps_screenshot_job_set_range (SpsScreenshotJob *self,
                              SpsTime           start,
                              SpsTime           end)
{
  g_return_if_fail (SPS_IS_SCREENSHOT_JOB (self));
  g_return_if_fail (start < end);

  self->has_range = TRUE;
  self->range_start = start;
  self->range_end = end;
}
