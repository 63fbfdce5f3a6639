/* sps-test-ui.c: helpers shared by the UI test programs (under Xvfb)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-test-ui"

#include "config.h"

#include <glib/gi18n.h>

#include "sps-test-ui.h"

static gboolean
wake_up (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* Runs the main loop until done (data) holds; a test that waits more than
 * 30 s fails rather than hangs.  The timeout keeps the loop from sleeping
 * through a condition that no source reports.
 */
void
sps_test_wait_until (gboolean (*done) (gpointer),
                     gpointer   data)
{
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  guint tick = g_timeout_add (20, wake_up, NULL);

  while (!done (data))
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("Timed out waiting");
      g_main_context_iteration (NULL, TRUE);
    }

  g_source_remove (tick);
}

/* Runs the main loop for @ms milliseconds. */
void
sps_test_spin (guint ms)
{
  gint64 until = g_get_monotonic_time () + ms * 1000;
  guint tick = g_timeout_add (10, wake_up, NULL);

  while (g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, TRUE);

  g_source_remove (tick);
}

/* The first widget under @root (itself included, depth first) for which
 * @match (widget, data) holds.
 */
GtkWidget *
sps_test_find_widget (GtkWidget      *root,
                      gboolean      (*match) (GtkWidget *, gconstpointer),
                      gconstpointer   data)
{
  if (match (root, data))
    return root;

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = sps_test_find_widget (child, match, data);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static gboolean
has_name (GtkWidget     *widget,
          gconstpointer  name)
{
  return g_strcmp0 (gtk_widget_get_name (widget), name) == 0;
}

static gboolean
is_type (GtkWidget     *widget,
         gconstpointer  type)
{
  return G_TYPE_CHECK_INSTANCE_TYPE (widget, *(const GType *) type);
}

static gboolean
has_type_name (GtkWidget     *widget,
               gconstpointer  type_name)
{
  return g_str_equal (G_OBJECT_TYPE_NAME (widget), type_name);
}

static gboolean
is_label (GtkWidget     *widget,
          gconstpointer  text)
{
  return GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_label (GTK_LABEL (widget)), text) == 0;
}

/* The first widget under @root named @name (gtk_widget_set_name()). */
GtkWidget *
sps_test_find_named (GtkWidget  *root,
                     const char *name)
{
  return sps_test_find_widget (root, has_name, name);
}

/* The first widget under @root that is a @type. */
GtkWidget *
sps_test_find_descendant (GtkWidget *root,
                          GType      type)
{
  return sps_test_find_widget (root, is_type, &type);
}

/* The first widget under @root whose type is called @type_name, for types
 * a test cannot name in C (they live in a plugin module).
 */
GtkWidget *
sps_test_find_type_name (GtkWidget  *root,
                         const char *type_name)
{
  return sps_test_find_widget (root, has_type_name, type_name);
}

/* The first GtkLabel under @root showing exactly @text. */
GtkWidget *
sps_test_find_label (GtkWidget  *root,
                     const char *text)
{
  return sps_test_find_widget (root, is_label, text);
}

/* The text of the label named @name under @root, which must be there */
const char *
sps_test_label_text (GtkWidget  *root,
                     const char *name)
{
  GtkWidget *label = sps_test_find_named (root, name);

  g_assert_true (GTK_IS_LABEL (label));
  return gtk_label_get_text (GTK_LABEL (label));
}

/* @widget as it is drawn now, @width × @height, rendered by its window's
 * renderer.
 */
GdkTexture *
sps_test_render (GtkWidget *widget,
                 int        width,
                 int        height)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr(GskRenderNode) node = NULL;
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));

  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);

  return gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
}

/* Renders @widget at its size, saves it as PNG at @path, and returns it. */
GdkTexture *
sps_test_save_screenshot (GtkWidget  *widget,
                          const char *path)
{
  g_autoptr(GdkTexture) texture = NULL;

  texture = sps_test_render (widget, gtk_widget_get_width (widget), gtk_widget_get_height (widget));
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("screenshot: %s", path);

  return g_steal_pointer (&texture);
}

/* With SPS_TEST_SCREENSHOT_DIR set, saves @window (after its next draw) as
 * $SPS_TEST_SCREENSHOT_DIR/@name.png, for looking at by hand.
 */
void
sps_test_maybe_screenshot (GtkWidget  *window,
                           const char *name)
{
  const char *dir = g_getenv ("SPS_TEST_SCREENSHOT_DIR");
  g_autofree char *file = NULL;
  g_autofree char *path = NULL;

  if (dir == NULL)
    return;

  gtk_test_widget_wait_for_draw (window);
  file = g_strconcat (name, ".png", NULL);
  path = g_build_filename (dir, file, NULL);
  g_object_unref (sps_test_save_screenshot (window, path));
}

/* The pixel at (@x, @y) as 0xAARRGGBB: GDK_MEMORY_DEFAULT is B G R A in
 * memory, which is that in native (little-endian) byte order.
 */
guint32
sps_test_pixel_at (GdkTexture *texture,
                   int         x,
                   int         y)
{
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  g_autofree guint32 *pixels = g_new (guint32, (gsize) width * height);

  g_assert_cmpint (x, >=, 0);
  g_assert_cmpint (y, >=, 0);
  g_assert_cmpint (x, <, width);
  g_assert_cmpint (y, <, height);

  gdk_texture_download (texture, (guchar *) pixels, width * sizeof (guint32));

  return pixels[(gsize) y * width + x];
}

/* @rgba as 0xRRGGBB, rounded like the renderer rounds. */
guint32
sps_test_rgb_of (const GdkRGBA *rgba)
{
  return ((guint32) (rgba->red * 255 + .5f) << 16) |
         ((guint32) (rgba->green * 255 + .5f) << 8) |
         (guint32) (rgba->blue * 255 + .5f);
}

/* A window of @width × @height px with no title bar, holding a timeline
 * of @session (stored in @timeline) in a scrolled window, presented and
 * drawn once. */
GtkWidget *
sps_test_present_timeline (SpsSession  *session,
                           int          width,
                           int          height,
                           GtkWidget  **timeline)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *scroller = gtk_scrolled_window_new ();

  *timeline = sps_timeline_new (session);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), *timeline);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_EXTERNAL);
  gtk_window_set_child (GTK_WINDOW (window), scroller);
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  /* No title bar: the timeline gets the whole window. */
  gtk_window_set_decorated (GTK_WINDOW (window), FALSE);
  gtk_window_present (GTK_WINDOW (window));
  gtk_test_widget_wait_for_draw (window);

  g_assert_cmpint (gtk_widget_get_width (*timeline), ==, width);
  g_assert_cmpint (gtk_widget_get_height (*timeline), ==, height);

  return window;
}

/* The first controller of @widget of @type (a gesture of @button, unless
 * @button is 0); aborts the test when there is none. The controllers'
 * signals, emitted by a test, run their handlers (PLATFORM.md §5). */
GtkEventController *
sps_test_find_controller (GtkWidget *widget,
                          GType      type,
                          guint      button)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (controller, type) &&
          (button == 0 || gtk_gesture_single_get_button (GTK_GESTURE_SINGLE (controller)) == button))
        return controller;
    }

  g_assert_not_reached ();
  return NULL;
}

/* Draws @widget of @window again, then renders it at @width × @height */
GdkTexture *
sps_test_redraw (GtkWidget *window,
                 GtkWidget *widget,
                 int        width,
                 int        height)
{
  gtk_widget_queue_draw (widget);
  gtk_test_widget_wait_for_draw (window);

  return sps_test_render (widget, width, height);
}

/* Translations from the build's catalogues (SPANSCOPE_LOCALEDIR, as the
 * application binds them), for the tests that look at another language */
void
sps_test_bind_locale (void)
{
  const char *localedir = g_getenv ("SPANSCOPE_LOCALEDIR");

  if (localedir == NULL)
    return;
  bindtextdomain (GETTEXT_PACKAGE, localedir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
}
