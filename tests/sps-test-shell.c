/* sps-test-shell.c: helpers for the UI tests of the application's windows
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-test-shell"

#include "config.h"

#include <gdk/x11/gdkx.h>

#include "sps-test-shell.h"
#include "sps-warning-banner.h"
#include "sps-test-ui.h"

/* A registered application that is not unique, so that tests running at
 * the same time on one session bus do not hand their windows to each
 * other. */
SpsApplication *
sps_test_register_app (void)
{
  g_autoptr(SpsApplication) app = sps_application_new ();
  g_autoptr(GError) error = NULL;

  g_application_set_flags (G_APPLICATION (app),
                           g_application_get_flags (G_APPLICATION (app)) | G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);
  /* As for --screenshot: a page or a revealer shows its end state at once,
   * so what a test renders is what it asserted, not a crossfade's first
   * frame (on a loaded machine a transition outlasts the test's checks) */
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);

  return g_steal_pointer (&app);
}

/* A new window of @app, @width × @height, shown and loading @path. */
SpsWindow *
sps_test_open_file (SpsApplication *app,
                    const char     *path,
                    int             width,
                    int             height)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  SpsWindow *window = sps_window_new (app);

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  sps_window_load (window, file);

  return window;
}

static gboolean
load_done (gpointer data)
{
  return sps_window_get_state (data) != SPS_WINDOW_STATE_LOADING && !sps_window_get_panels_pending (data);
}

/* Runs the main loop until @window has loaded or failed to, and has made
 * its panels. */
void
sps_test_wait_for_load (SpsWindow *window)
{
  sps_test_wait_until (load_done, window);
}

/* Opens @path in a new window of @width × @height, waits until it is
 * loaded (asserting it loaded) and drawn. */
SpsWindow *
sps_test_open_loaded (SpsApplication *app,
                      const char     *path,
                      int             width,
                      int             height)
{
  SpsWindow *window = sps_test_open_file (app, path, width, height);

  sps_test_wait_for_load (window);
  g_assert_cmpint (sps_window_get_state (window), ==, SPS_WINDOW_STATE_LOADED);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));

  return window;
}

/* Brings the page of the dock that holds @widget to the front (a panel
 * sits in a page of its own) and lets it draw. */
void
sps_test_show_dock_page (GtkWidget *widget)
{
  GtkWidget *notebook = gtk_widget_get_ancestor (widget, GTK_TYPE_NOTEBOOK);
  GtkWidget *page = widget;

  g_assert_nonnull (notebook);
  while (gtk_widget_get_parent (page) != NULL &&
         gtk_notebook_page_num (GTK_NOTEBOOK (notebook), page) < 0)
    page = gtk_widget_get_parent (page);
  gtk_notebook_set_current_page (GTK_NOTEBOOK (notebook), gtk_notebook_page_num (GTK_NOTEBOOK (notebook), page));
  gtk_test_widget_wait_for_draw (widget);
  g_assert_true (gtk_widget_get_mapped (widget));
  sps_test_spin (50);
}

/* Destroys @window and lets the main loop finish with it. */
void
sps_test_close_window (SpsWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  sps_test_spin (10);
}

/* The labels of a row of the Plugins dialog, in order, joined with "|"
 * (the switch on the title line left out). */
char *
sps_test_plugin_row_text (GtkWidget *row)
{
  g_autoptr(GString) text = g_string_new (NULL);
  GtkWidget *box = gtk_list_box_row_get_child (GTK_LIST_BOX_ROW (row));

  for (GtkWidget *child = gtk_widget_get_first_child (box); child; child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_BOX (child))
        {
          for (GtkWidget *c = gtk_widget_get_first_child (child); c; c = gtk_widget_get_next_sibling (c))
            if (GTK_IS_LABEL (c))
              g_string_append_printf (text, "%s|", gtk_label_get_text (GTK_LABEL (c)));
        }
      else
        g_string_append_printf (text, "%s|", gtk_label_get_text (GTK_LABEL (child)));
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}

typedef struct
{
  GtkWidget *banner;
  guint      n_failures;
} BannerWait;

static gboolean
banner_counts (gpointer data)
{
  BannerWait *wait = data;

  return sps_warning_banner_get_n_plugin_failures (SPS_WARNING_BANNER (wait->banner)) == wait->n_failures;
}

/* Waits until a window's warning banner counts @n_failures plugins that
 * failed (the engine announces failures from an idle). */
void
sps_test_wait_for_banner_failures (GtkWidget *banner,
                                   guint      n_failures)
{
  BannerWait wait = { banner, n_failures };

  sps_test_wait_until (banner_counts, &wait);
}

/* The shortcuts of @widget and its descendants inside a section, title →
 * accelerator. The window also keeps a copy of each for its search page,
 * outside the sections. */
static void
collect_shortcuts (GtkWidget  *widget,
                   GHashTable *by_title,
                   gboolean    in_section)
{
  in_section = in_section || GTK_IS_SHORTCUTS_SECTION (widget);

  if (in_section && GTK_IS_SHORTCUTS_SHORTCUT (widget))
    {
      g_autofree char *title = NULL;
      g_autofree char *accelerator = NULL;
      g_autofree char *action = NULL;

      g_object_get (widget, "title", &title, "accelerator", &accelerator, "action-name", &action, NULL);
      /* Each row shows the keys it was given, not what GTK finds for an
       * action (which would miss the navigation twins) */
      g_assert_null (action);
      g_assert_false (g_hash_table_contains (by_title, title));
      g_hash_table_insert (by_title, g_steal_pointer (&title), g_steal_pointer (&accelerator));
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_shortcuts (child, by_title, in_section);
}

/* The rows of @window's shortcuts window (Ctrl+?): title → the
 * accelerators it shows, separated by spaces */
GHashTable *
sps_test_shortcuts_of (SpsWindow *window)
{
  GHashTable *by_title = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  GtkShortcutsWindow *overlay = gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window));

  g_assert_nonnull (overlay);
  collect_shortcuts (GTK_WIDGET (overlay), by_title, FALSE);

  return by_title;
}

/* Sends real key presses to @window through xdotool (XTEST). */
void
sps_test_press_keys (GtkWidget  *window,
                     const char *keys)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *xid = NULL;
  g_autofree char *xdotool = g_find_program_in_path ("xdotool");
  const char *move[] = { NULL, "mousemove", "--window", NULL, "600", "700", NULL };
  const char *key[] = { NULL, "key", keys, NULL };
  int status = 0;

  g_assert_true (GDK_IS_X11_SURFACE (gtk_native_get_surface (GTK_NATIVE (window))));
  g_assert_nonnull (xdotool);
  xid = g_strdup_printf ("%lu", (gulong) gdk_x11_surface_get_xid (gtk_native_get_surface (GTK_NATIVE (window))));
  move[0] = key[0] = xdotool;
  move[3] = xid;

  g_assert_true (g_spawn_sync (NULL, (char **) move, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, &error));
  g_assert_true (g_spawn_sync (NULL, (char **) key, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, &error));
}
