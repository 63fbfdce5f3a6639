/* test-ui-shortcuts.c: the shortcuts window lists exactly the
 * accelerators the application sets
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-ui-shortcuts"

#include "config.h"

#include <string.h>

#include <spanscope-gtk.h>

#include "sps-application.h"
#include "sps-window.h"

#include "sps-test-shell.h"
#include "sps-test-ui.h"

static SpsApplication *app;

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* Every accelerator @application has set, of every action, sorted */
static GPtrArray *
application_accels (GtkApplication *application)
{
  GPtrArray *all = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) actions = gtk_application_list_action_descriptions (application);

  for (guint i = 0; actions[i] != NULL; i++)
    {
      g_auto(GStrv) accels = gtk_application_get_accels_for_action (application, actions[i]);

      for (guint j = 0; accels[j] != NULL; j++)
        g_ptr_array_add (all, g_strdup (accels[j]));
    }
  g_ptr_array_sort (all, compare_strings);

  return all;
}

/* Every accelerator the window shows, sorted */
static GPtrArray *
window_accels (GHashTable *by_title)
{
  GPtrArray *all = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, by_title);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      g_auto(GStrv) accels = g_strsplit (value, " ", -1);

      for (guint j = 0; accels[j] != NULL; j++)
        g_ptr_array_add (all, g_strdup (accels[j]));
    }
  g_ptr_array_sort (all, compare_strings);

  return all;
}

static void
assert_same_accels (GPtrArray *expected,
                    GPtrArray *shown)
{
  for (guint i = 0; i < MIN (expected->len, shown->len); i++)
    g_assert_cmpstr (g_ptr_array_index (shown, i), ==, g_ptr_array_index (expected, i));
  g_assert_cmpuint (shown->len, ==, expected->len);
}

/* The defaults (the keybindings schema): 23 actions, 33 accelerators,
 * counted by hand from the schema. The
 * navigation keys (arrows) sit on the twin actions and still show on
 * their action's row. */
static void
test_shortcuts_every_accelerator (void)
{
  SpsWindow *window = sps_window_new (app);
  g_autoptr(GHashTable) by_title = NULL;
  g_autoptr(GPtrArray) expected = NULL;
  g_autoptr(GPtrArray) shown = NULL;

  gtk_window_present (GTK_WINDOW (window));
  by_title = sps_test_shortcuts_of (window);

  expected = application_accels (GTK_APPLICATION (app));
  shown = window_accels (by_title);
  assert_same_accels (expected, shown);
  /* 4 zoom-in + 3 zoom-out + 2 + 2 pans + 1 + 1 scrolls + 4 selects +
   * fit, go to time, flag, clear, open, search, close, quit, help,
   * preferences + 2 + 2 search steps + 2 for the ruler's menu */
  g_assert_cmpuint (shown->len, ==, 33);
  g_assert_cmpuint (g_hash_table_size (by_title), ==, 23);

  g_assert_cmpstr (g_hash_table_lookup (by_title, "Zoom in"), ==, "w equal plus KP_Add");
  g_assert_cmpstr (g_hash_table_lookup (by_title, "Pan left"), ==, "a Left");
  g_assert_cmpstr (g_hash_table_lookup (by_title, "Scroll down"), ==, "Down");
  g_assert_cmpstr (g_hash_table_lookup (by_title, "Select the parent slice"), ==, "<Alt>Up");
  g_assert_cmpstr (g_hash_table_lookup (by_title, "Flag the time under the pointer"), ==, "m");
  g_assert_cmpstr (g_hash_table_lookup (by_title, "Open the ruler's menu"), ==, "Menu <Shift>F10");
  g_assert_cmpstr (g_hash_table_lookup (by_title, "Keyboard shortcuts"), ==, "<Control>question");
  g_assert_cmpstr (g_hash_table_lookup (by_title, "Quit"), ==, "<Control>q");
  g_assert_cmpstr (g_hash_table_lookup (by_title, "Preferences"), ==, "<Control>comma");
  g_assert_cmpstr (g_hash_table_lookup (by_title, "Select the next search match"), ==, "Return KP_Enter");
  g_assert_cmpstr (g_hash_table_lookup (by_title, "Select the previous search match"), ==,
                   "<Shift>Return <Shift>KP_Enter");

  /* Ctrl+? opens it: the action the accelerator names exists */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)))));
  sps_test_maybe_screenshot (GTK_WIDGET (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window))),
                             "shortcuts-window");

  sps_test_close_window (window);
}

/* Rebinding a key in the settings rebuilds the window with the new keys */
static void
test_shortcuts_follow_settings (void)
{
  g_autoptr(GSettings) keys = g_settings_get_child (sps_application_get_settings (app), "keybindings");
  SpsWindow *window = sps_window_new (app);
  g_autoptr(GHashTable) by_title = NULL;
  g_autoptr(GHashTable) restored = NULL;
  g_autoptr(GPtrArray) expected = NULL;
  g_autoptr(GPtrArray) shown = NULL;
  const char *z[] = { "z", "<Shift>Up", NULL };
  const char *none[] = { NULL };

  gtk_window_present (GTK_WINDOW (window));

  g_settings_set_strv (keys, "zoom-in", z);
  g_settings_set_strv (keys, "fit", none);
  by_title = sps_test_shortcuts_of (window);
  /* <Shift>Up went to the twin and still shows on the row; an action
   * without keys has no row */
  g_assert_cmpstr (g_hash_table_lookup (by_title, "Zoom in"), ==, "z <Shift>Up");
  g_assert_false (g_hash_table_contains (by_title, "Fit the selection, the range or the trace"));
  expected = application_accels (GTK_APPLICATION (app));
  shown = window_accels (by_title);
  assert_same_accels (expected, shown);
  g_assert_cmpuint (shown->len, ==, 33 - 4 + 2 - 1);

  g_settings_reset (keys, "zoom-in");
  g_settings_reset (keys, "fit");
  restored = sps_test_shortcuts_of (window);
  g_assert_cmpstr (g_hash_table_lookup (restored, "Zoom in"), ==, "w equal plus KP_Add");
  g_assert_cmpstr (g_hash_table_lookup (restored, "Fit the selection, the range or the trace"), ==, "f");

  sps_test_close_window (window);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  gtk_test_init (&argc, &argv, NULL);

  app = sps_test_register_app ();

  g_test_add_func ("/ui/shortcuts/every-accelerator", test_shortcuts_every_accelerator);
  g_test_add_func ("/ui/shortcuts/follow-settings", test_shortcuts_follow_settings);

  ret = g_test_run ();

  g_clear_object (&app);

  return ret;
}
