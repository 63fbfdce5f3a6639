/* test-ui-plugin-manager.c: the Preferences' Plugins page as a plugin manager (what
 * it shows of each plugin, its switches and the disabled-plugins
 * setting), and an analysis plugin that fails in a window's load
 *
 * The plugins are the bundled ones and two test analyses of
 * tests/analysis-plugins: marks (adds an async slice over every slice of
 * 1 ms or longer) and marks-fail (fails with an error).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Set SPS_TEST_SCREENSHOT_DIR to a folder to keep plugin-manager.png.
 */

#define G_LOG_DOMAIN "test-ui-plugin-manager"

#include "config.h"

#include <string.h>

#include <spanscope-gtk.h>

#include "sps-application.h"
#include "sps-plugins-page.h"
#include "sps-preferences-window.h"
#include "sps-warning-banner.h"
#include "sps-window.h"

#include "sps-test-shell.h"
#include "sps-test-util.h"
#include "sps-test-ui.h"

static SpsApplication *app;
static char *plugins_root;

/* The async slices "long …" that marks adds to the demo trace: one per
 * slice of 1 ms or more with a process, 101: the 95 measured ones
 * (spanscope-cli query demo "SELECT count(*) FROM slices WHERE dur >=
 * 1000000 AND process_id IS NOT NULL") and 6 sampled spans (which SQL
 * keeps out of its slices table; counted with sps_trace_get_slice()) */
static guint
count_marks (SpsTrace *trace)
{
  guint n = 0;

  for (guint i = 0; i < sps_trace_get_n_slices (trace); i++)
    {
      const char *name;

      sps_trace_get_slice (trace, i, NULL, NULL, NULL, NULL, &name, NULL);
      n += g_str_has_prefix (name, "long ");
    }
  return n;
}

static char *
demo_path (void)
{
  return g_test_build_filename (G_TEST_DIST, "..", "data", "samples", "demo.trace.json", NULL);
}

static SpsTrace *
load_demo (void)
{
  g_autofree char *path = demo_path ();

  return sps_test_load_path (path);
}

/* The window's load ran both analyses: marks' rows are there, marks-fail
 * is reported in the banner */
static void
test_analysis_in_window (void)
{
  g_autofree char *path = demo_path ();
  SpsWindow *window = sps_test_open_file (app, path, 1200, 800);
  g_autoptr(SpsPluginStatus) status = NULL;
  GtkWidget *banner;

  sps_test_wait_for_load (window);
  g_assert_cmpint (sps_window_get_state (window), ==, SPS_WINDOW_STATE_LOADED);

  status = sps_test_find_plugin_status (sps_plugin_engine_get_default (), "marks_fail");
  g_assert_cmpint (sps_plugin_status_get_state (status), ==, SPS_PLUGIN_STATE_FAILED);

  banner = sps_test_find_descendant (GTK_WIDGET (window), SPS_TYPE_WARNING_BANNER);
  g_assert_nonnull (banner);
  sps_test_wait_for_banner_failures (banner, 1);
  /* marks warns once per slice it marks */
  g_assert_cmpstr (sps_warning_banner_get_summary (SPS_WARNING_BANNER (banner)), ==,
                   "101 × long_slice; 1 plugin failed and is skipped");
  g_assert_nonnull (sps_test_find_label (banner, "plugin “marks_fail” failed in SpsAnalysis.analyze and is "
                                                      "skipped: marks-fail gives up on purpose"));

  /* The page transition */
  sps_test_spin (400);
  sps_test_maybe_screenshot (GTK_WIDGET (window), "plugin-manager-banner");
  sps_test_close_window (window);
}

/* The Plugins page of the Preferences, as the warning banner's button
 * shows it (app.plugins) */
static GtkWidget *
open_dialog (void)
{
  g_autoptr(GList) toplevels = NULL;

  g_action_group_activate_action (G_ACTION_GROUP (app), "plugins", NULL);

  toplevels = gtk_window_list_toplevels ();
  for (GList *l = toplevels; l != NULL; l = l->next)
    if (SPS_IS_PREFERENCES_WINDOW (l->data))
      {
        g_assert_cmpstr (sps_preferences_window_get_page (l->data), ==, "plugins");
        return sps_test_find_descendant (l->data, SPS_TYPE_PLUGINS_PAGE);
      }

  g_assert_not_reached ();
}

static GtkWidget *
find_row (GtkWidget  *dialog,
          const char *module)
{
  GtkWidget *list = sps_test_find_descendant (dialog, GTK_TYPE_LIST_BOX);
  GtkWidget *row = sps_test_find_named (list, module);

  g_assert_nonnull (row);
  return row;
}

static gboolean
row_says (gpointer data)
{
  const char * const *what = data;
  g_autofree char *text = sps_test_plugin_row_text (find_row (GTK_WIDGET (what[0]), what[1]));

  return strstr (text, what[2]) != NULL;
}

/* Every field of a plugin, and a switch that turns it off and on: the
 * setting, the engine and the next load follow */
static void
test_dialog (void)
{
  SpsPluginEngine *engine = sps_plugin_engine_get_default ();
  GtkWidget *dialog = open_dialog ();
  GtkWidget *window = GTK_WIDGET (gtk_widget_get_root (dialog));
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autofree char *marks_folder = g_build_filename (plugins_root, "marks", NULL);
  g_autofree char *fail_folder = g_build_filename (plugins_root, "marks-fail", NULL);
  g_autofree char *expected = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) disabled = NULL;
  g_autoptr(SpsTrace) with = NULL;
  g_autoptr(SpsTrace) without = NULL;
  g_autoptr(SpsTrace) again = NULL;
  g_autoptr(SpsPluginStatus) status = NULL;
  GtkWidget *toggle;
  const char *off[] = { (const char *) dialog, "marks", "|Turned off|" };
  const char *on[] = { (const char *) dialog, "marks", "|Loaded|" };

  gtk_window_set_default_size (GTK_WINDOW (window), 620, 900);
  gtk_test_widget_wait_for_draw (window);

  /* marks.plugin.in: name, version, description, authors, website */
  text = sps_test_plugin_row_text (find_row (GTK_WIDGET (dialog), "marks"));
  expected = g_strdup_printf ("marks 1.0|Loaded|Marks long slices|Analysis · module marks|By Spanscope tests|"
                              "https://example.org/marks|%s|", marks_folder);
  g_assert_cmpstr (text, ==, expected);
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&expected, g_free);

  /* The failed one first, with its reason */
  text = sps_test_plugin_row_text (gtk_widget_get_first_child (sps_test_find_descendant (GTK_WIDGET (dialog), GTK_TYPE_LIST_BOX)));
  expected = g_strdup_printf ("marks-fail 1.0|Failed|Fails with an error|module marks_fail|By Spanscope tests|"
                              "https://example.org/marks_fail|%s|plugin “marks_fail” failed in "
                              "SpsAnalysis.analyze and is skipped: marks-fail gives up on purpose|", fail_folder);
  g_assert_cmpstr (text, ==, expected);

  with = load_demo ();
  g_assert_cmpuint (count_marks (with), ==, 101);

  /* Off: the setting lists it, the engine does not use it, the next load
   * has no marks */
  toggle = sps_test_find_named (GTK_WIDGET (dialog), "switch-marks");
  g_assert_nonnull (toggle);
  g_assert_true (gtk_switch_get_active (GTK_SWITCH (toggle)));
  gtk_switch_set_active (GTK_SWITCH (toggle), FALSE);

  disabled = g_settings_get_strv (settings, "disabled-plugins");
  g_assert_cmpuint (g_strv_length (disabled), ==, 1);
  g_assert_cmpstr (disabled[0], ==, "marks");
  status = sps_test_find_plugin_status (engine, "marks");
  g_assert_cmpint (sps_plugin_status_get_state (status), ==, SPS_PLUGIN_STATE_DISABLED);
  without = load_demo ();
  g_assert_cmpuint (count_marks (without), ==, 0);

  /* 14: the 12 bundled .plugin files of build/plugins (flame-export has
   * two; source is the 12th since the source viewer), marks and marks-fail */
  sps_test_wait_until (row_says, off);
  g_assert_nonnull (sps_test_find_label (GTK_WIDGET (dialog),
                                         "1 of 14 plugins failed and is skipped; the others work."));
  gtk_test_widget_wait_for_draw (window);
  sps_test_maybe_screenshot (window, "plugin-manager");

  /* On again, live */
  toggle = sps_test_find_named (GTK_WIDGET (dialog), "switch-marks");
  g_assert_false (gtk_switch_get_active (GTK_SWITCH (toggle)));
  gtk_switch_set_active (GTK_SWITCH (toggle), TRUE);
  sps_test_wait_until (row_says, on);
  g_clear_pointer (&disabled, g_strfreev);
  disabled = g_settings_get_strv (settings, "disabled-plugins");
  g_assert_cmpuint (g_strv_length (disabled), ==, 0);
  again = load_demo ();
  g_assert_cmpuint (count_marks (again), ==, 101);

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  const char * const analyses[] = { "marks", "marks-fail", NULL };
  g_autofree char *marks = NULL;
  g_autofree char *fail = NULL;
  g_autofree char *path = NULL;
  int ret;

  gtk_test_init (&argc, &argv, NULL);

  /* Read by the default engine on first use */
  plugins_root = sps_test_link_plugin_folders ("analysis-plugins", analyses);
  marks = g_build_filename (plugins_root, "marks", NULL);
  fail = g_build_filename (plugins_root, "marks-fail", NULL);
  path = g_strjoin (G_SEARCHPATH_SEPARATOR_S, g_getenv ("SPANSCOPE_PLUGIN_PATH"), marks, fail, NULL);
  g_setenv ("SPANSCOPE_PLUGIN_PATH", path, TRUE);

  app = sps_test_register_app ();

  g_test_add_func ("/ui/plugin-manager/analysis-in-window", test_analysis_in_window);
  g_test_add_func ("/ui/plugin-manager/dialog", test_dialog);

  ret = g_test_run ();
  sps_test_remove_tree (plugins_root);

  return ret;
}
