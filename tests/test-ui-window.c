/* test-ui-window.c: the spanscope application and its trace window
 *
 * Runs under Xvfb (tests/meson.build). Some tests run the built program
 * (SPANSCOPE_EXE) for its headless --screenshot mode; the others create
 * the application and its windows in this process and drive them through
 * their actions, as the key bindings do.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <libintl.h>
#include <locale.h>
#include <string.h>

#include <glib/gstdio.h>
#include <spanscope-gtk.h>

#include "sps-application.h"
#include "sps-application-private.h"
#include "sps-window-private.h"
#include "sps-go-to-time.h"
#include "sps-instance-browser.h"
#include "sps-search-panel.h"
#include "sps-window.h"

#include "sps-test-shell.h"
#include "sps-test-ui.h"

#include "sps-test-util.h"

/* Demo trace bounds (data/samples/demo.trace.json, read by hand:
 * the first event at ts 1000000 µs, the last one ends at 1247800 µs). */
#define DEMO_START G_GINT64_CONSTANT (1000000000)
#define DEMO_END   G_GINT64_CONSTANT (1247800000)

static SpsApplication *app;

/* Helpers */

static char *
demo_path (void)
{
  return g_test_build_filename (G_TEST_DIST, "..", "data", "samples", "demo.trace.json", NULL);
}

static SpsWindow *
open_window (const char *path)
{
  SpsWindow *window = sps_test_open_file (app, path, 1000, 700);

  g_assert_cmpint (sps_window_get_state (window), ==, SPS_WINDOW_STATE_LOADING);
  sps_test_wait_for_load (window);

  return window;
}

static SpsWindow *
open_demo (void)
{
  g_autofree char *path = demo_path ();
  SpsWindow *window = open_window (path);

  g_assert_cmpint (sps_window_get_state (window), ==, SPS_WINDOW_STATE_LOADED);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));

  return window;
}

static GtkMenuButton *
find_main_menu_button (GtkWidget *widget)
{
  if (GTK_IS_MENU_BUTTON (widget) && gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (widget)) != NULL)
    return GTK_MENU_BUTTON (widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkMenuButton *found = find_main_menu_button (child);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* Gives the focus to the first focusable widget inside @widget. */
static gboolean
focus_first (GtkWidget *widget)
{
  if (gtk_widget_get_focusable (widget) && gtk_widget_get_can_focus (widget) &&
      gtk_widget_grab_focus (widget))
    return TRUE;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (focus_first (child))
      return TRUE;

  return FALSE;
}

static void
activate (SpsWindow  *window,
          const char *action)
{
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), action));
  g_action_group_activate_action (G_ACTION_GROUP (window), action, NULL);
}

/* Runs spanscope with @args; returns the exit status, stderr in @err. */
static int
run_spanscope (const char * const  *args,
               char               **err)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  const char *exe = g_getenv ("SPANSCOPE_EXE");
  int status = 0;

  g_assert_nonnull (exe);

  g_ptr_array_add (argv, (char *) exe);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);

  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT,
                NULL, NULL, NULL, err, &status, &error);
  g_assert_no_error (error);

  if (WIFEXITED (status))
    return WEXITSTATUS (status);

  g_test_message ("spanscope died: wait status %d, stderr: %s", status, *err);
  return -1;
}

typedef struct
{
  int     width;
  int     height;
  gsize   stride;
  guchar *data;  /* B8G8R8A8 premultiplied, GDK_MEMORY_DEFAULT */
} Image;

static void
image_clear (Image *image)
{
  g_clear_pointer (&image->data, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Image, image_clear)

static void
load_image (const char *path,
            Image      *image)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkTexture) texture = gdk_texture_new_from_filename (path, &error);

  g_assert_no_error (error);

  image->width = gdk_texture_get_width (texture);
  image->height = gdk_texture_get_height (texture);
  image->stride = (gsize) image->width * 4;
  image->data = g_malloc ((gsize) image->height * image->stride);
  gdk_texture_download (texture, image->data, image->stride);
}

static guint32
image_pixel (const Image *image,
             int          x,
             int          y)
{
  const guchar *p = image->data + (gsize) y * image->stride + (gsize) x * 4;

  return ((guint32) p[2] << 16) | ((guint32) p[1] << 8) | p[0];
}

static int
colour_distance (guint32 a,
                 guint32 b)
{
  return ABS ((int) ((a >> 16) & 0xff) - (int) ((b >> 16) & 0xff)) +
         ABS ((int) ((a >> 8) & 0xff) - (int) ((b >> 8) & 0xff)) +
         ABS ((int) (a & 0xff) - (int) (b & 0xff));
}

/* The share of pixels in the rectangle that differ clearly from its most
 * common colour (the background). */
static double
foreground_share (const Image *image,
                  int          x0,
                  int          y0,
                  int          x1,
                  int          y1)
{
  g_autoptr(GHashTable) counts = g_hash_table_new (NULL, NULL);
  GHashTableIter iter;
  gpointer key;
  gpointer value;
  guint32 background = 0;
  guint best = 0;
  guint foreground = 0;
  guint total = 0;

  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++)
      {
        gpointer k = GUINT_TO_POINTER (image_pixel (image, x, y) + 1);

        g_hash_table_insert (counts, k, GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, k)) + 1));
      }

  g_hash_table_iter_init (&iter, counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      if (GPOINTER_TO_UINT (value) > best)
        {
          best = GPOINTER_TO_UINT (value);
          background = GPOINTER_TO_UINT (key) - 1;
        }
    }

  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++)
      {
        total++;
        if (colour_distance (image_pixel (image, x, y), background) > 60)
          foreground++;
      }

  return (double) foreground / MAX (total, 1);
}

static gboolean
images_differ (const Image *a,
               const Image *b,
               int          x0,
               int          y0,
               int          x1,
               int          y1)
{
  guint differ = 0;

  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++)
      if (colour_distance (image_pixel (a, x, y), image_pixel (b, x, y)) > 60)
        differ++;

  return differ > (guint) ((x1 - x0) * (y1 - y0) / 100);
}

/* Headless screenshots, through the program */

static void
test_screenshot_demo (void)
{
  g_autofree char *demo = demo_path ();
  g_autofree char *dir = g_dir_make_tmp ("spanscope-shot-XXXXXX", NULL);
  g_autofree char *full = g_build_filename (dir, "full.png", NULL);
  g_autofree char *zoomed = g_build_filename (dir, "zoomed.png", NULL);
  g_autofree char *err = NULL;
  g_autofree char *err2 = NULL;
  g_auto(Image) image = { 0 };
  g_auto(Image) zoomed_image = { 0 };
  const char *args[] = { "--screenshot", full, "--size", "1000x700", demo, NULL };
  const char *zoom_args[] = { "--screenshot", zoomed, "--size", "1000x700",
                              "--range", "10ms..20ms", demo, NULL };
  double share;

  /* Nothing went wrong on the way (a sanitizer may add its own report). */
  g_assert_cmpint (run_spanscope (args, &err), ==, 0);
  g_assert_null (strstr (err, "spanscope:"));
  g_assert_null (strstr (err, "WARNING"));
  g_assert_null (strstr (err, "CRITICAL"));
  g_assert_true (g_file_test (full, G_FILE_TEST_IS_REGULAR));

  load_image (full, &image);
  g_assert_cmpint (image.width, ==, 1000);
  g_assert_cmpint (image.height, ==, 700);

  /* The tracks, right of the label gutter and below the header bar and
   * the ruler, hold the demo's slices. */
  share = foreground_share (&image, 300, 100, 980, 300);
  g_test_message ("foreground share of the track area: %.3f", share);
  g_assert_cmpfloat (share, >, 0.05);

  /* 10 ms of the 247.8 ms trace: other slices, at another scale. */
  g_assert_cmpint (run_spanscope (zoom_args, &err2), ==, 0);
  load_image (zoomed, &zoomed_image);
  g_assert_cmpint (zoomed_image.width, ==, 1000);
  g_assert_cmpint (zoomed_image.height, ==, 700);
  g_assert_true (images_differ (&image, &zoomed_image, 300, 60, 980, 300));

  g_unlink (full);
  g_unlink (zoomed);
  g_rmdir (dir);
}

static void
test_screenshot_malformed (void)
{
  g_autofree char *garbage = sps_test_fixture_path ("chrome-garbage.json");
  g_autofree char *dir = g_dir_make_tmp ("spanscope-shot-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "out.png", NULL);
  g_autofree char *err = NULL;
  g_auto(Image) image = { 0 };
  const char *args[] = { "--screenshot", out, "--size", "900x600", garbage, NULL };

  g_assert_cmpint (run_spanscope (args, &err), ==, 1);

  /* The importer's position of the missing comma: line 3, column 29. */
  g_assert_nonnull (strstr (err, "chrome-garbage.json:3:29"));

  /* The image shows the window's error page, at the requested size: the
   * page's text is in the middle of a plain window. */
  load_image (out, &image);
  g_assert_cmpint (image.width, ==, 900);
  g_assert_cmpint (image.height, ==, 600);
  g_assert_cmpfloat (foreground_share (&image, 150, 300, 750, 400), >, 0.01);

  g_unlink (out);
  g_rmdir (dir);
}

static void
test_screenshot_bad_options (void)
{
  g_autofree char *demo = demo_path ();
  g_autofree char *err = NULL;
  g_autofree char *err2 = NULL;
  const char *bad_size[] = { "--screenshot", "/nonexistent/x.png", "--size", "0x10", demo, NULL };
  const char *bad_range[] = { "--screenshot", "/nonexistent/x.png", "--range", "20ms..10ms", demo, NULL };

  g_assert_cmpint (run_spanscope (bad_size, &err), ==, 2);
  g_assert_nonnull (strstr (err, "0x10"));

  g_assert_cmpint (run_spanscope (bad_range, &err2), ==, 2);
  g_assert_nonnull (strstr (err2, "20ms..10ms"));
}

/* The window, in this process */

static void
test_window_title (void)
{
  g_autofree char *demo = demo_path ();
  SpsWindow *window = sps_window_new (app);
  g_autoptr(GFile) file = g_file_new_for_path (demo);
  SpsTrace *trace;

  g_assert_cmpint (sps_window_get_state (window), ==, SPS_WINDOW_STATE_EMPTY);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "Spanscope");
  g_assert_null (sps_window_get_session (window));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "zoom-in"));

  gtk_window_present (GTK_WINDOW (window));
  sps_window_load (window, file);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "demo.trace.json");
  sps_test_wait_for_load (window);

  g_assert_cmpint (sps_window_get_state (window), ==, SPS_WINDOW_STATE_LOADED);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "demo.trace.json");
  g_assert_true (g_file_equal (sps_window_get_file (window), file));
  g_assert_null (sps_window_get_error_message (window));

  trace = sps_session_get_trace (sps_window_get_session (window));
  g_assert_cmpint (sps_trace_get_start_time (trace), ==, DEMO_START);
  g_assert_cmpint (sps_trace_get_end_time (trace), ==, DEMO_END);
  g_assert_true (SPS_IS_TIMELINE (sps_window_get_timeline (window)));
  g_assert_true (gtk_widget_is_ancestor (GTK_WIDGET (sps_window_get_timeline (window)),
                                         GTK_WIDGET (window)));

  /* The built-in detail view is docked. */
  g_assert_nonnull (sps_test_find_descendant (GTK_WIDGET (window), SPS_TYPE_DETAIL_PANEL));

  sps_test_close_window (window);
}

static void
test_window_actions (void)
{
  SpsWindow *window = open_demo ();
  SpsSession *session = sps_window_get_session (window);
  GtkMenuButton *menu_button;
  GtkWidget *popover;
  SpsTime start;
  SpsTime end;
  SpsTime span;

  g_assert_cmpint (sps_session_get_visible_start (session), ==, DEMO_START);
  g_assert_cmpint (sps_session_get_visible_end (session), ==, DEMO_END);

  activate (window, "zoom-in");
  start = sps_session_get_visible_start (session);
  end = sps_session_get_visible_end (session);
  span = end - start;
  g_assert_cmpint (span, <, DEMO_END - DEMO_START);
  g_assert_cmpint (start, >=, DEMO_START);
  g_assert_cmpint (end, <=, DEMO_END);

  activate (window, "zoom-out");
  g_assert_cmpint (sps_session_get_visible_end (session) - sps_session_get_visible_start (session), >, span);

  activate (window, "zoom-in");
  activate (window, "zoom-in");
  start = sps_session_get_visible_start (session);
  span = sps_session_get_visible_end (session) - start;

  activate (window, "pan-right");
  g_assert_cmpint (sps_session_get_visible_start (session), >, start);
  g_assert_cmpint (sps_session_get_visible_end (session) - sps_session_get_visible_start (session), ==, span);

  activate (window, "pan-left");
  g_assert_cmpint (sps_session_get_visible_start (session), ==, start);

  /* No selection and no range: Fit shows the whole trace. */
  activate (window, "fit");
  g_assert_cmpint (sps_session_get_visible_start (session), ==, DEMO_START);
  g_assert_cmpint (sps_session_get_visible_end (session), ==, DEMO_END);

  /* Escape clears a range. */
  sps_session_set_range (session, DEMO_START + 1000, DEMO_START + 2000);
  g_assert_true (sps_session_get_range (session, NULL, NULL));
  activate (window, "clear");
  g_assert_false (sps_session_get_range (session, NULL, NULL));

  /* A panel of the dock keeps its own arrow keys (the "-nav" twins are
   * off), while the timeline's other keys still act on it. */
  g_assert_true (focus_first (sps_test_find_descendant (GTK_WIDGET (window), SPS_TYPE_DETAIL_PANEL)));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "scroll-down-nav"));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "pan-left-nav"));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "scroll-down"));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "clear"));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "open"));

  gtk_widget_grab_focus (GTK_WIDGET (sps_window_get_timeline (window)));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "scroll-down-nav"));

  /* So does the open main menu: Escape closes it, Up and Down move in it. */
  menu_button = find_main_menu_button (GTK_WIDGET (window));
  g_assert_nonnull (menu_button);
  popover = GTK_WIDGET (gtk_menu_button_get_popover (menu_button));
  gtk_menu_button_popup (menu_button);
  sps_test_wait_until ((gboolean (*) (gpointer)) gtk_widget_get_mapped, popover);
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (window)), popover));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "clear"));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "scroll-up-nav"));
  gtk_menu_button_popdown (menu_button);

  sps_test_close_window (window);
}

static void
test_window_keybindings (void)
{
  g_autoptr(GSettings) keys = g_settings_get_child (sps_application_get_settings (app), "keybindings");
  g_auto(GStrv) accels = NULL;
  g_auto(GStrv) rebound = NULL;
  g_auto(GStrv) restored = NULL;
  const char *z[] = { "z", "<Shift>Up", NULL };

  accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.zoom-in");
  g_assert_cmpstrv (accels, ((const char *[]) { "w", "equal", "plus", "KP_Add", NULL }));
  g_strfreev (accels);
  accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.select-parent");
  g_assert_cmpstrv (accels, ((const char *[]) { "<Alt>Up", NULL }));
  g_strfreev (accels);
  /* The arrow of pan-left goes to its twin, which a docked panel's focus
   * turns off; "a" stays with the action */
  accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.pan-left");
  g_assert_cmpstrv (accels, ((const char *[]) { "a", NULL }));
  g_strfreev (accels);
  accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.pan-left-nav");
  g_assert_cmpstrv (accels, ((const char *[]) { "Left", NULL }));
  g_strfreev (accels);
  accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.open");
  g_assert_cmpstrv (accels, ((const char *[]) { "<Control>o", NULL }));

  /* Rebinding in the settings rebinds the action at once. */
  g_settings_set_strv (keys, "zoom-in", z);
  rebound = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.zoom-in");
  g_assert_cmpstrv (rebound, ((const char *[]) { "z", NULL }));
  g_strfreev (rebound);
  /* Shift+Up moves in lists: it goes to the twin */
  rebound = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.zoom-in-nav");
  g_assert_cmpstrv (rebound, ((const char *[]) { "<Shift>Up", NULL }));

  g_settings_reset (keys, "zoom-in");
  restored = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.zoom-in");
  g_assert_cmpstrv (restored, ((const char *[]) { "w", "equal", "plus", "KP_Add", NULL }));
}

static void
test_window_keyboard_navigation (void)
{
  SpsWindow *window = open_demo ();
  SpsSession *session = sps_window_get_session (window);
  const SpsSliceTable *slices = sps_trace_get_slices (sps_session_get_trace (session));
  guint root = SPS_NO_INDEX;
  guint child;

  /* The first root slice that has a child. */
  for (guint i = 0; i < slices->n_rows && root == SPS_NO_INDEX; i++)
    if (slices->parent[i] != SPS_NO_INDEX && slices->parent[slices->parent[i]] == SPS_NO_INDEX)
      root = slices->parent[i];
  g_assert_cmpuint (root, !=, SPS_NO_INDEX);

  sps_session_set_selected_slice (session, root);
  activate (window, "select-child");
  child = sps_session_get_selected_slice (session);
  g_assert_cmpuint (child, !=, root);
  g_assert_cmpuint (slices->parent[child], ==, root);

  activate (window, "select-parent");
  g_assert_cmpuint (sps_session_get_selected_slice (session), ==, root);

  activate (window, "clear");
  g_assert_cmpuint (sps_session_get_selected_slice (session), ==, SPS_NO_INDEX);

  sps_test_close_window (window);
}

static void
test_window_go_to_time (void)
{
  SpsWindow *window = open_demo ();
  SpsSession *session = sps_window_get_session (window);
  g_autoptr(GError) error = NULL;
  SpsGoToTime *popover;
  GtkWidget *entry;
  SpsTime start;
  SpsTime end;

  popover = SPS_GO_TO_TIME (sps_test_find_descendant (GTK_WIDGET (window), SPS_TYPE_GO_TO_TIME));
  g_assert_nonnull (popover);
  g_assert_true (sps_go_to_time_get_session (popover) == session);

  /* Narrow the view so that 12.5 ms can be centred without clamping. */
  sps_session_set_visible (session, DEMO_START, DEMO_START + 5000000);

  activate (window, "go-to-time");
  sps_test_wait_until ((gboolean (*) (gpointer)) gtk_widget_get_mapped, popover);

  /* Typing into the entry must not trigger the single-key bindings. */
  entry = sps_test_find_descendant (GTK_WIDGET (popover), GTK_TYPE_TEXT);
  g_assert_nonnull (entry);
  g_assert_true (gtk_widget_has_focus (entry));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "select-child"));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "clear"));

  g_assert_true (sps_go_to_time_submit (popover, "12.5ms", &error));
  g_assert_no_error (error);
  start = sps_session_get_visible_start (session);
  end = sps_session_get_visible_end (session);
  g_assert_cmpint (end - start, ==, 5000000);
  g_assert_cmpint (start + (end - start) / 2, ==, DEMO_START + 12500000);

  g_assert_true (sps_go_to_time_submit (popover, "300us", &error));
  start = sps_session_get_visible_start (session);
  end = sps_session_get_visible_end (session);
  g_assert_cmpint (start + (end - start) / 2, ==, DEMO_START + 300000);

  g_assert_true (sps_go_to_time_submit (popover, "0.2s", &error));
  start = sps_session_get_visible_start (session);
  end = sps_session_get_visible_end (session);
  g_assert_cmpint (start + (end - start) / 2, ==, DEMO_START + 200000000);

  /* A bad time leaves the view alone and shows the error inline. */
  g_assert_false (sps_go_to_time_submit (popover, "twelve", &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_cmpint (sps_session_get_visible_start (session), ==, start);

  gtk_popover_popup (GTK_POPOVER (popover));
  gtk_editable_set_text (GTK_EDITABLE (entry), "twelve");
  g_signal_emit_by_name (gtk_widget_get_parent (entry), "activate");
  g_assert_cmpint (sps_session_get_visible_start (session), ==, start);
  {
    GtkWidget *label = sps_test_find_descendant (GTK_WIDGET (popover), GTK_TYPE_LABEL);
    gboolean shown = FALSE;

    for (; label != NULL; label = gtk_widget_get_next_sibling (label))
      if (GTK_IS_LABEL (label) && gtk_widget_has_css_class (label, "error") &&
          gtk_widget_get_visible (label) && gtk_label_get_text (GTK_LABEL (label))[0] != '\0')
        shown = TRUE;
    g_assert_true (shown);
  }
  gtk_popover_popdown (GTK_POPOVER (popover));

  sps_test_close_window (window);
}

/* The docks: the bottom one opens at 40 % of the height (180 px at
 * least); a panel moved to the side dock, and the docks' sizes, are kept
 * for the next window. */
static int
dock_height_of (SpsWindow *window)
{
  GtkWidget *paned = sps_test_find_named (GTK_WIDGET (window), "dock-paned");

  return gtk_widget_get_height (paned) - gtk_paned_get_position (GTK_PANED (paned));
}

static gboolean
is_docked_in (SpsWindow  *window,
              GType       panel_type,
              const char *dock)
{
  GtkWidget *panel = sps_test_find_descendant (GTK_WIDGET (window), panel_type);

  return gtk_widget_is_ancestor (panel, sps_test_find_named (GTK_WIDGET (window), dock));
}

static void
test_window_docks (void)
{
  GSettings *settings = sps_application_get_settings (app);
  g_autoptr(GVariant) docks = NULL;
  const char *where = NULL;
  SpsWindow *window;
  GtkWidget *paned;
  GtkWidget *side;
  int height;

  g_settings_reset (settings, "dock-height");
  g_settings_reset (settings, "side-dock-width");
  g_settings_reset (settings, "panel-docks");

  window = open_demo ();
  paned = sps_test_find_named (GTK_WIDGET (window), "dock-paned");
  side = sps_test_find_named (GTK_WIDGET (window), "side-dock");
  height = gtk_widget_get_height (paned);
  g_assert_cmpint (height, >, 0);
  g_assert_cmpint (dock_height_of (window), ==, MAX (height * 40 / 100, 180));
  g_assert_true (is_docked_in (window, SPS_TYPE_INSTANCE_BROWSER, "bottom-dock"));

  /* The instances move to the side dock, which appears, and stay there. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "move-panel", g_variant_new_string ("instances"));
  g_assert_true (is_docked_in (window, SPS_TYPE_INSTANCE_BROWSER, "side-dock"));
  g_assert_true (gtk_widget_get_visible (side));
  docks = g_settings_get_value (settings, "panel-docks");
  g_assert_true (g_variant_lookup (docks, "instances", "&s", &where));
  g_assert_cmpstr (where, ==, "side");

  /* The user makes the bottom dock 250 px tall and closes the window. */
  gtk_paned_set_position (GTK_PANED (paned), height - 250);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  gtk_window_close (GTK_WINDOW (window));
  sps_test_spin (10);
  g_assert_cmpint (g_settings_get_int (settings, "dock-height"), ==, 250);

  /* The next window opens as it was left. */
  window = open_demo ();
  g_assert_cmpint (dock_height_of (window), ==, 250);
  g_assert_true (is_docked_in (window, SPS_TYPE_INSTANCE_BROWSER, "side-dock"));

  /* And back: the side dock, empty, takes no room. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "move-panel", g_variant_new_string ("instances"));
  g_assert_true (is_docked_in (window, SPS_TYPE_INSTANCE_BROWSER, "bottom-dock"));
  g_clear_pointer (&docks, g_variant_unref);
  docks = g_settings_get_value (settings, "panel-docks");
  g_assert_true (g_variant_lookup (docks, "instances", "&s", &where));
  g_assert_cmpstr (where, ==, "bottom");
  g_assert_false (gtk_widget_get_visible (sps_test_find_named (GTK_WIDGET (window), "side-dock")));

  sps_test_close_window (window);
  g_settings_reset (settings, "dock-height");
  g_settings_reset (settings, "side-dock-width");
  g_settings_reset (settings, "panel-docks");
}

static void
test_window_collapse (void)
{
  SpsWindow *window = open_demo ();
  SpsSession *session = sps_window_get_session (window);
  GtkWidget *timeline = GTK_WIDGET (sps_window_get_timeline (window));

  g_assert_false (sps_session_get_process_collapsed (session, 0));
  g_assert_true (gtk_widget_activate_action (timeline, "timeline.toggle-process", "u", 0));
  g_assert_true (sps_session_get_process_collapsed (session, 0));
  g_assert_false (sps_session_get_process_collapsed (session, 1));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));

  g_assert_true (gtk_widget_activate_action (timeline, "timeline.toggle-process", "u", 0));
  g_assert_false (sps_session_get_process_collapsed (session, 0));

  sps_test_close_window (window);
}

static void
test_window_error (void)
{
  g_autofree char *garbage = sps_test_fixture_path ("chrome-garbage.json");
  SpsWindow *window = open_window (garbage);
  const char *message;

  g_assert_cmpint (sps_window_get_state (window), ==, SPS_WINDOW_STATE_FAILED);
  g_assert_null (sps_window_get_session (window));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "chrome-garbage.json");

  message = sps_window_get_error_message (window);
  g_assert_nonnull (message);
  g_assert_nonnull (strstr (message, "chrome-garbage.json:3:29"));

  /* It is shown in the window, not only kept. */
  g_assert_nonnull (sps_test_find_label (GTK_WIDGET (window), message));
  g_assert_true (gtk_widget_is_drawable (sps_test_find_label (GTK_WIDGET (window), message)));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "zoom-in"));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "reload"));

  sps_test_close_window (window);
}

static void
test_window_cancel (void)
{
  g_autofree char *demo = demo_path ();
  g_autofree char *garbage = sps_test_fixture_path ("chrome-garbage.json");
  g_autoptr(GFile) demo_file = g_file_new_for_path (demo);
  SpsWindow *window = sps_window_new (app);
  g_autofree char *message = NULL;

  gtk_window_present (GTK_WINDOW (window));

  /* From the welcome page back to the welcome page. */
  sps_window_load (window, demo_file);
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "cancel-load"));
  activate (window, "cancel-load");
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "cancel-load"));
  sps_test_wait_for_load (window);
  g_assert_cmpint (sps_window_get_state (window), ==, SPS_WINDOW_STATE_EMPTY);
  g_assert_null (sps_window_get_session (window));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "Spanscope");

  sps_test_close_window (window);

  /* From an error back to the same error. */
  window = open_window (garbage);
  g_assert_cmpint (sps_window_get_state (window), ==, SPS_WINDOW_STATE_FAILED);
  message = g_strdup (sps_window_get_error_message (window));

  sps_window_load (window, demo_file);
  sps_window_cancel_load (window);
  sps_test_wait_for_load (window);
  g_assert_cmpint (sps_window_get_state (window), ==, SPS_WINDOW_STATE_FAILED);
  g_assert_cmpstr (sps_window_get_error_message (window), ==, message);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "chrome-garbage.json");

  /* Without cancelling, the same window then shows the trace. */
  sps_window_load (window, demo_file);
  sps_test_wait_for_load (window);
  g_assert_cmpint (sps_window_get_state (window), ==, SPS_WINDOW_STATE_LOADED);

  sps_test_close_window (window);
}

static void
test_window_recent (void)
{
  GSettings *settings = sps_application_get_settings (app);
  g_autofree char *demo = demo_path ();
  g_autoptr(GFile) file = g_file_new_for_path (demo);
  g_autofree char *uri = g_file_get_uri (file);
  g_auto(GStrv) recent = NULL;
  g_autofree char *label = NULL;
  g_autofree char *target = NULL;
  GMenu *section;
  SpsWindow *window;

  g_settings_reset (settings, "recent-files");
  section = gtk_application_get_menu_by_id (GTK_APPLICATION (app), "recent-files-section");
  g_assert_nonnull (section);
  g_assert_cmpint (g_menu_model_get_n_items (G_MENU_MODEL (section)), ==, 1);
  g_assert_true (g_menu_model_get_item_attribute (G_MENU_MODEL (section), 0, "action", "s", &target));
  g_assert_cmpstr (target, ==, "app.no-recent");
  g_clear_pointer (&target, g_free);

  window = open_demo ();
  recent = g_settings_get_strv (settings, "recent-files");
  g_assert_cmpstrv (recent, ((const char *[]) { uri, NULL }));

  g_assert_cmpint (g_menu_model_get_n_items (G_MENU_MODEL (section)), ==, 1);
  g_assert_true (g_menu_model_get_item_attribute (G_MENU_MODEL (section), 0, "label", "s", &label));
  g_assert_cmpstr (label, ==, "demo.trace.json");
  g_assert_true (g_menu_model_get_item_attribute (G_MENU_MODEL (section), 0, "target", "s", &target));
  g_assert_cmpstr (target, ==, uri);

  /* Opening it again raises its window instead of loading it twice. */
  sps_application_open_file (app, file, NULL);
  g_assert_cmpuint (g_list_length (gtk_application_get_windows (GTK_APPLICATION (app))), ==, 1);
  g_assert_cmpint (sps_window_get_state (window), ==, SPS_WINDOW_STATE_LOADED);

  sps_test_close_window (window);

  /* A new window lists it on its welcome page. */
  window = sps_window_new (app);
  g_assert_nonnull (sps_test_find_label (GTK_WIDGET (window), "demo.trace.json"));
  sps_test_close_window (window);

  g_settings_reset (settings, "recent-files");
}

static void
test_window_drop (void)
{
  g_autofree char *demo = demo_path ();
  g_autoptr(GFile) file = g_file_new_for_path (demo);
  g_autoptr(GListModel) controllers = NULL;
  SpsWindow *window = sps_window_new (app);
  GtkDropTarget *target = NULL;
  GValue value = G_VALUE_INIT;
  GSList *files;
  gboolean handled = FALSE;

  gtk_window_present (GTK_WINDOW (window));

  controllers = gtk_widget_observe_controllers (GTK_WIDGET (window));
  for (guint i = 0; i < g_list_model_get_n_items (controllers) && target == NULL; i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_DROP_TARGET (controller))
        target = GTK_DROP_TARGET (controller);
    }
  g_assert_nonnull (target);

  files = g_slist_append (NULL, file);
  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_set_boxed (&value, files);
  g_signal_emit_by_name (target, "drop", &value, 10.0, 10.0, &handled);
  g_value_unset (&value);
  g_slist_free (files);

  g_assert_true (handled);
  /* Dropped on an empty window, it loads there. */
  g_assert_cmpint (sps_window_get_state (window), ==, SPS_WINDOW_STATE_LOADING);
  sps_test_wait_for_load (window);
  g_assert_cmpint (sps_window_get_state (window), ==, SPS_WINDOW_STATE_LOADED);
  g_assert_true (g_file_equal (sps_window_get_file (window), file));

  sps_test_close_window (window);
}

static gboolean
search_done (gpointer data)
{
  return !sps_search_panel_is_busy (data);
}

static void
test_window_search (void)
{
  SpsWindow *window = open_demo ();
  SpsSession *session = sps_window_get_session (window);
  SpsTrace *trace = sps_session_get_trace (session);
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  GtkWidget *panel;
  GtkWidget *entry;
  guint first;
  guint second;

  activate (window, "search");
  panel = sps_test_find_descendant (GTK_WIDGET (window), SPS_TYPE_SEARCH_PANEL);
  g_assert_nonnull (panel);
  g_assert_true (gtk_widget_get_mapped (panel));
  entry = sps_test_find_descendant (panel, GTK_TYPE_SEARCH_ENTRY);
  g_assert_nonnull (entry);
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (window)), entry));

  /* Case-insensitive substring of "Huffman::encode" (8 slices). Enter
   * before the worker answers: the first match is selected when it does. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "huffman::");
  g_signal_emit_by_name (entry, "activate");
  sps_test_wait_until (search_done, panel);
  first = sps_session_get_selected_slice (session);
  g_assert_cmpuint (first, !=, SPS_NO_INDEX);
  g_assert_cmpstr (sps_trace_get_string (trace, slices->name[first]), ==, "Huffman::encode");
  g_assert_nonnull (sps_test_find_label (GTK_WIDGET (window), "8 slices, 1 name"));
  g_assert_cmpstr (sps_session_get_search_text (session), ==, "huffman::");

  g_signal_emit_by_name (entry, "next-match");
  second = sps_session_get_selected_slice (session);
  g_assert_cmpuint (second, >, first);
  g_assert_cmpstr (sps_trace_get_string (trace, slices->name[second]), ==, "Huffman::encode");

  g_signal_emit_by_name (entry, "previous-match");
  g_assert_cmpuint (sps_session_get_selected_slice (session), ==, first);

  /* Enter and Shift+Enter step from the timeline too (the twins of
   * search-next and search-prev, on while the timeline has the focus) */
  gtk_widget_grab_focus (sps_test_find_descendant (GTK_WIDGET (window), SPS_TYPE_TIMELINE));
  sps_test_spin (5);
  activate (window, "search-next-nav");
  g_assert_cmpuint (sps_session_get_selected_slice (session), ==, second);
  activate (window, "search-prev-nav");
  g_assert_cmpuint (sps_session_get_selected_slice (session), ==, first);
  gtk_widget_grab_focus (entry);
  sps_test_spin (5);

  gtk_editable_set_text (GTK_EDITABLE (entry), "no such slice");
  g_signal_emit_by_name (entry, "activate");
  sps_test_wait_until (search_done, panel);
  g_assert_nonnull (sps_test_find_label (GTK_WIDGET (window), "No slice matches “no such slice”"));
  g_assert_cmpuint (sps_session_get_selected_slice (session), ==, first);

  sps_test_close_window (window);
}

static void
test_window_theme (void)
{
  GSettings *settings = sps_application_get_settings (app);
  GtkSettings *gtk_settings = gtk_settings_get_default ();
  g_autofree char *theme = NULL;
  gboolean dark = TRUE;
  GVariant *state;

  g_settings_set_string (settings, "theme", "dark");
  g_object_get (gtk_settings, "gtk-application-prefer-dark-theme", &dark, NULL);
  g_assert_true (dark);

  /* The menu's radio items show the stored value. */
  state = g_action_group_get_action_state (G_ACTION_GROUP (app), "theme");
  g_assert_cmpstr (g_variant_get_string (state, NULL), ==, "dark");
  g_variant_unref (state);

  g_action_group_change_action_state (G_ACTION_GROUP (app), "theme", g_variant_new_string ("light"));
  g_object_get (gtk_settings, "gtk-application-prefer-dark-theme", &dark, NULL);
  g_assert_false (dark);
  theme = g_settings_get_string (settings, "theme");
  g_assert_cmpstr (theme, ==, "light");

  g_settings_reset (settings, "theme");
  g_object_get (gtk_settings, "gtk-application-prefer-dark-theme", &dark, NULL);
  g_assert_false (dark);
}

static void
test_window_show_flows (void)
{
  GSettings *settings = sps_application_get_settings (app);
  SpsWindow *window = open_demo ();
  SpsSession *session = sps_window_get_session (window);

  /* By default only the selected slice's flows are drawn, as in Perfetto */
  g_assert_false (sps_session_get_show_flows (session));

  /* View ▸ Show All Flows toggles the setting and the session. */
  g_action_group_activate_action (G_ACTION_GROUP (app), "show-flows", NULL);
  g_assert_true (g_settings_get_boolean (settings, "show-flows"));
  g_assert_true (sps_session_get_show_flows (session));

  g_action_group_activate_action (G_ACTION_GROUP (app), "show-flows", NULL);
  g_assert_false (sps_session_get_show_flows (session));

  sps_test_close_window (window);
  g_settings_reset (settings, "show-flows");
}

/* The size of the font @widget draws its text with, in Pango units. */
static int
font_size (GtkWidget *widget)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, "X");
  const PangoFontDescription *font = pango_context_get_font_description (pango_layout_get_context (layout));

  return pango_font_description_get_size (font);
}

static void
test_window_settings (void)
{
  GSettings *settings = sps_application_get_settings (app);
  SpsWindow *window = open_demo ();
  SpsTimeline *timeline = sps_window_get_timeline (window);
  int normal;
  int scaled;

  g_settings_set_int (settings, "track-height", 28);
  g_settings_set_int (settings, "gutter-width", 240);
  g_assert_cmpint (sps_timeline_get_track_height (timeline), ==, 28);
  g_assert_cmpint (sps_timeline_get_gutter_width (timeline), ==, 240);

  /* Dragging the gutter's splitter is remembered. */
  sps_timeline_set_gutter_width (timeline, 260);
  g_assert_cmpint (g_settings_get_int (settings, "gutter-width"), ==, 260);

  /* The font scale reaches the timeline's text. */
  normal = font_size (GTK_WIDGET (timeline));
  g_settings_set_double (settings, "font-scale", 1.5);
  gtk_widget_queue_draw (GTK_WIDGET (window));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  scaled = font_size (GTK_WIDGET (timeline));
  g_test_message ("font size %d → %d", normal, scaled);
  g_assert_cmpint (ABS (scaled - normal * 3 / 2), <=, PANGO_SCALE);

  sps_test_close_window (window);
  g_settings_reset (settings, "track-height");
  g_settings_reset (settings, "gutter-width");
  g_settings_reset (settings, "font-scale");
}

static void
test_view_extensions (void)
{
  SpsPluginEngine *engine = sps_plugin_engine_get_default ();
  g_autoptr(GPtrArray) importers = NULL;
  g_autoptr(GPtrArray) views = NULL;
  gboolean chrome = FALSE;

  /* The engine creates extensions of any interface, including ones of
   * libraries above the core. */
  importers = sps_plugin_engine_create_extensions (engine, SPS_TYPE_IMPORTER);
  for (guint i = 0; i < importers->len; i++)
    {
      g_assert_true (SPS_IS_IMPORTER (g_ptr_array_index (importers, i)));
      if (g_str_equal (sps_importer_get_name (g_ptr_array_index (importers, i)), "chrome-json"))
        chrome = TRUE;
    }
  g_assert_true (chrome);

  views = sps_plugin_engine_create_extensions (engine, SPS_TYPE_VIEW);
  for (guint i = 0; i < views->len; i++)
    g_assert_true (SPS_IS_VIEW (g_ptr_array_index (views, i)));
}

/* Translations */

static gboolean
find_menu_label (GMenuModel *model,
                 const char *action,
                 char      **label)
{
  for (int i = 0; i < g_menu_model_get_n_items (model); i++)
    {
      g_autofree char *item_action = NULL;
      g_autoptr(GMenuLinkIter) links = NULL;

      if (g_menu_model_get_item_attribute (model, i, "action", "s", &item_action) &&
          g_str_equal (item_action, action))
        return g_menu_model_get_item_attribute (model, i, "label", "s", label);

      links = g_menu_model_iterate_item_links (model, i);
      while (g_menu_link_iter_next (links))
        {
          g_autoptr(GMenuModel) linked = g_menu_link_iter_get_value (links);

          if (find_menu_label (linked, action, label))
            return TRUE;
        }
    }

  return FALSE;
}

/* The number of messages, header included, in the compiled German
 * catalogue (the GNU .mo format: magic, revision, then the count). */
static guint32
count_german_messages (void)
{
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;
  guint32 magic;
  guint32 count;

  path = g_build_filename (g_getenv ("SPANSCOPE_LOCALEDIR"), "de", "LC_MESSAGES",
                           GETTEXT_PACKAGE ".mo", NULL);
  if (!g_file_get_contents (path, &contents, &length, NULL) || length < 12)
    return 0;

  memcpy (&magic, contents, 4);
  memcpy (&count, contents + 8, 4);

  if (magic == 0x950412de)
    return count;
  if (magic == GUINT32_SWAP_LE_BE (0x950412de))
    return GUINT32_SWAP_LE_BE (count);

  return 0;
}

static void
test_german_menus (void)
{
  g_autofree char *old_language = g_strdup (g_getenv ("LANGUAGE"));
  g_autoptr(GtkBuilder) builder = NULL;
  g_autofree char *open_label = NULL;
  g_autofree char *about_label = NULL;
  SpsWindow *window;
  const char *header;
  const char *open_de;
  const char *welcome_de;

  /* glibc rereads LANGUAGE once setlocale() bumps its catalogue counter. */
  g_setenv ("LANGUAGE", "de", TRUE);
  setlocale (LC_ALL, "");

  header = dgettext (GETTEXT_PACKAGE, "");
  if (header == NULL || header[0] == '\0')
    {
      g_test_message ("No German catalogue for %s under %s",
                      GETTEXT_PACKAGE, g_getenv ("SPANSCOPE_LOCALEDIR"));
      g_test_fail ();
      goto out;
    }

  /* Until po/de.po has its first entry (it is written apart from the
   * code), there is nothing to check yet; any entry makes this strict. */
  if (count_german_messages () <= 1)
    {
      g_test_incomplete ("po/de.po has no translations yet: only its header is compiled");
      goto out;
    }

  open_de = dgettext (GETTEXT_PACKAGE, "_Open…");
  welcome_de = dgettext (GETTEXT_PACKAGE, "Open a Trace");
  g_test_message ("“_Open…” → “%s”, “Open a Trace” → “%s”", open_de, welcome_de);
  g_assert_cmpstr (open_de, !=, "_Open…");
  g_assert_cmpstr (welcome_de, !=, "Open a Trace");

  /* The menu as built from the resource shows the German labels. */
  builder = gtk_builder_new_from_resource ("/io/github/spanscope/Spanscope/gtk/menus.ui");
  g_assert_true (find_menu_label (G_MENU_MODEL (gtk_builder_get_object (builder, "primary-menu")),
                                  "win.open", &open_label));
  g_assert_cmpstr (open_label, ==, open_de);
  g_assert_true (find_menu_label (G_MENU_MODEL (gtk_builder_get_object (builder, "primary-menu")),
                                  "app.about", &about_label));
  g_assert_cmpstr (about_label, !=, "_About Spanscope");

  /* So does a new window. */
  window = sps_window_new (app);
  g_assert_nonnull (sps_test_find_label (GTK_WIDGET (window), welcome_de));
  sps_test_close_window (window);

out:
  if (old_language != NULL)
    g_setenv ("LANGUAGE", old_language, TRUE);
  else
    g_unsetenv ("LANGUAGE");
  setlocale (LC_ALL, "");
}

static void
test_german_command_line (void)
{
  const char *args[] = { "--help", NULL };
  const char *english = "Print the version and quit";
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) envp = g_get_environ ();
  const char *translated;
  int status = 0;

  /* The program binds its catalogue from SPANSCOPE_LOCALEDIR. */
  envp = g_environ_setenv (envp, "LANGUAGE", "de", TRUE);
  envp = g_environ_setenv (envp, "LANG", "C.UTF-8", TRUE);

  g_ptr_array_add (argv, (char *) g_getenv ("SPANSCOPE_EXE"));
  g_ptr_array_add (argv, (char *) args[0]);
  g_ptr_array_add (argv, NULL);

  g_spawn_sync (NULL, (char **) argv->pdata, envp, G_SPAWN_DEFAULT,
                NULL, NULL, &out, &err, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  if (count_german_messages () <= 1)
    {
      g_test_incomplete ("po/de.po has no translations yet: only its header is compiled");
      return;
    }

  g_setenv ("LANGUAGE", "de", TRUE);
  setlocale (LC_ALL, "");
  translated = dgettext (GETTEXT_PACKAGE, english);
  g_unsetenv ("LANGUAGE");
  setlocale (LC_ALL, "");

  g_assert_cmpstr (translated, !=, english);
  g_assert_nonnull (strstr (out, translated));
  g_assert_null (strstr (out, english));
}

/* The trace named on the command line: found there exactly as GApplication
 * would take it as the file to open (options' values passed over), and
 * not when the command line names more than one or asks for other
 * importer options or a self trace */
static void
test_preload_path (void)
{
  g_autofree char *demo = demo_path ();
  g_autofree char *dash = NULL;
  g_autofree char *dir = NULL;
  g_autoptr(GError) error = NULL;
  struct
  {
    const char *args[6];
    gboolean    expected;
  } cases[] = {
    { { "DEMO" }, TRUE },
    { { "--screenshot", "out.png", "DEMO" }, TRUE },
    { { "--screenshot=out.png", "--size", "800x600", "--range=1ms..2ms", "DEMO" }, TRUE },
    { { "DEMO", "--broadway", "8085" }, TRUE },
    { { "--version", "DEMO" }, TRUE },
    { { "--ns", "DEMO" }, FALSE },
    { { "--us=1", "DEMO" }, FALSE },
    { { "--trace", "self.json", "DEMO" }, FALSE },
    { { "DEMO", "DEMO" }, FALSE },
    { { "-x", "DEMO" }, FALSE },
    { { "--unknown", "DEMO" }, FALSE },
    { { "--screenshot", "DEMO" }, FALSE },
    { { "missing.json" }, FALSE },
    { { }, FALSE },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(GPtrArray) argv = g_ptr_array_new ();
      g_autofree char *path = NULL;

      g_ptr_array_add (argv, (gpointer) "spanscope");
      for (guint i = 0; cases[c].args[i] != NULL; i++)
        g_ptr_array_add (argv, g_str_equal (cases[c].args[i], "DEMO") ? demo : (char *) cases[c].args[i]);
      g_ptr_array_add (argv, NULL);

      path = _sps_application_preload_path ((char **) argv->pdata);
      if (cases[c].expected)
        g_assert_cmpstr (path, ==, demo);
      else
        g_assert_null (path);
    }

  /* After "--", a file whose name starts with a dash */
  dir = g_dir_make_tmp ("test-ui-window-XXXXXX", &error);
  g_assert_no_error (error);
  dash = g_build_filename (dir, "-trace.json", NULL);
  g_assert_true (g_file_set_contents (dash, "[]", -1, NULL));
  {
    const char *argv[] = { "spanscope", "--", dash, NULL };
    g_autofree char *path = _sps_application_preload_path ((char **) argv);

    g_assert_cmpstr (path, ==, dash);
  }
  sps_test_remove_tree (dir);
}

/* A load started before the application ran is taken over by the window
 * that opens that file (and by no other: another file drops it) */
static void
test_preload_taken (void)
{
  g_autofree char *demo = demo_path ();
  g_autofree char *other = sps_test_fixture_path ("chrome-phase-x.json");
  g_autoptr(GFile) file = g_file_new_for_path (demo);
  g_autoptr(GFile) other_file = g_file_new_for_path (other);
  SpsApplication *self = app;
  SpsProgress *progress;
  SpsWindow *window;

  _sps_application_preload (self, file);
  progress = _sps_application_get_preload_progress (self);
  g_assert_nonnull (progress);
  sps_application_open_file (self, file, NULL);
  g_assert_null (self->preload);
  window = SPS_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (self)));
  /* The window shows the running load's progress: it started none */
  g_assert_true (window->progress == progress);
  sps_test_wait_for_load (window);
  g_assert_cmpint (sps_window_get_state (window), ==, SPS_WINDOW_STATE_LOADED);
  g_assert_cmpuint (sps_trace_get_slices (sps_session_get_trace (sps_window_get_session (window)))->n_rows, >, 0);
  sps_test_close_window (window);

  /* The preload has finished before the window asks */
  _sps_application_preload (self, file);
  while (!_sps_application_preload_finished (self))
    g_main_context_iteration (NULL, TRUE);
  sps_application_open_file (self, file, NULL);
  window = SPS_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (self)));
  sps_test_wait_for_load (window);
  g_assert_cmpint (sps_window_get_state (window), ==, SPS_WINDOW_STATE_LOADED);
  sps_test_close_window (window);

  /* Another file: the preload is dropped, the window loads its own */
  _sps_application_preload (self, file);
  progress = _sps_application_get_preload_progress (self);
  sps_application_open_file (self, other_file, NULL);
  g_assert_null (self->preload);
  window = SPS_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (self)));
  g_assert_true (window->progress != progress);
  sps_test_wait_for_load (window);
  g_assert_cmpint (sps_window_get_state (window), ==, SPS_WINDOW_STATE_LOADED);
  g_assert_true (g_file_equal (sps_window_get_file (window), other_file));
  sps_test_close_window (window);
}

int
main (int   argc,
      char *argv[])
{
  const char *localedir = g_getenv ("SPANSCOPE_LOCALEDIR");
  int ret;

  gtk_test_init (&argc, &argv, NULL);

  if (localedir != NULL)
    {
      bindtextdomain (GETTEXT_PACKAGE, localedir);
      bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
    }

  app = sps_test_register_app ();

  g_test_add_func ("/ui/window/screenshot/demo", test_screenshot_demo);
  g_test_add_func ("/ui/window/screenshot/malformed", test_screenshot_malformed);
  g_test_add_func ("/ui/window/screenshot/bad-options", test_screenshot_bad_options);
  g_test_add_func ("/ui/window/load/title", test_window_title);
  g_test_add_func ("/ui/window/load/error", test_window_error);
  g_test_add_func ("/ui/window/load/cancel", test_window_cancel);
  g_test_add_func ("/ui/window/load/drop", test_window_drop);
  g_test_add_func ("/ui/window/load/recent", test_window_recent);
  g_test_add_func ("/ui/window/load/preload-path", test_preload_path);
  g_test_add_func ("/ui/window/load/preload-taken", test_preload_taken);
  g_test_add_func ("/ui/window/actions/zoom-pan-fit", test_window_actions);
  g_test_add_func ("/ui/window/actions/keyboard-navigation", test_window_keyboard_navigation);
  g_test_add_func ("/ui/window/actions/go-to-time", test_window_go_to_time);
  g_test_add_func ("/ui/window/actions/collapse-process", test_window_collapse);
  g_test_add_func ("/ui/window/docks", test_window_docks);
  g_test_add_func ("/ui/window/actions/search", test_window_search);
  g_test_add_func ("/ui/window/settings/keybindings", test_window_keybindings);
  g_test_add_func ("/ui/window/settings/theme", test_window_theme);
  g_test_add_func ("/ui/window/settings/show-flows", test_window_show_flows);
  g_test_add_func ("/ui/window/settings/timeline", test_window_settings);
  g_test_add_func ("/ui/window/views/plugin-extensions", test_view_extensions);
  g_test_add_func ("/ui/window/i18n/german-menus", test_german_menus);
  g_test_add_func ("/ui/window/i18n/german-command-line", test_german_command_line);

  ret = g_test_run ();

  g_clear_object (&app);

  return ret;
}
