/* test-ui-plugins.c: the plugin manager (the Preferences' Plugins page)
 * with deliberately broken plugins
 * present (tests/plugins/faulty), and a trace window that still works
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Set SPS_TEST_SCREENSHOT_DIR to a folder to keep plugins-dialog.png.
 */

#define G_LOG_DOMAIN "test-ui-plugins"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include <spanscope-gtk.h>

#include "sps-application.h"
#include "sps-plugins-page.h"
#include "sps-warning-banner.h"
#include "sps-window.h"

#include "sps-test-shell.h"
#include "sps-test-util.h"
#include "sps-test-ui.h"

static SpsApplication *app;

static void
test_plugins_dialog (void)
{
  SpsPluginEngine *engine = sps_plugin_engine_get_default ();
  GtkWidget *dialog = gtk_window_new ();
  GtkWidget *page = sps_plugins_page_new (engine);
  g_autofree char *faulty_dir = g_test_build_filename (G_TEST_BUILT, "plugins", "faulty", NULL);
  g_autofree char *noext_expected = NULL;
  g_autofree char *noext_text = NULL;
  g_autofree char *lines_text = NULL;
  g_autofree char *lines_expected = NULL;
  g_autofree char *plugin_dir = g_test_build_filename (G_TEST_BUILT, "plugins", "lines", NULL);
  GtkWidget *list;
  GtkWidget *noext;
  GtkWidget *lines;
  guint n_rows = 0;
  guint n_failed = 0;
  gboolean seen_loaded = FALSE;
  guint n_failed_engine = sps_plugin_engine_count_failed (engine);
  g_autofree char *summary = NULL;

  gtk_window_set_child (GTK_WINDOW (dialog), page);
  gtk_window_set_default_size (GTK_WINDOW (dialog), 620, 900);
  gtk_window_present (GTK_WINDOW (dialog));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (dialog));

  list = sps_test_find_descendant (page, GTK_TYPE_LIST_BOX);
  g_assert_nonnull (list);

  /* Failed ones first */
  for (GtkWidget *row = gtk_widget_get_first_child (list); row; row = gtk_widget_get_next_sibling (row))
    {
      g_autofree char *text = sps_test_plugin_row_text (row);
      gboolean failed = strstr (text, "|Failed|") != NULL;

      n_rows++;
      n_failed += failed;
      if (!failed)
        seen_loaded = TRUE;
      else
        g_assert_false (seen_loaded);
    }

  /* faulty/ (8, 7 failing at load) and tests/plugins (6, two unreadable) and build/plugins */
  g_assert_cmpuint (n_failed, ==, 7);
  g_assert_cmpuint (n_failed, ==, n_failed_engine);
  g_assert_cmpuint (n_rows, >, 13);

  noext = sps_test_find_named (list, "noext");
  g_assert_nonnull (noext);
  noext_text = sps_test_plugin_row_text (noext);
  noext_expected = g_strdup_printf ("No extensions|Failed|Loads, but registers no extension|module noext|"
                                    "%s/no-extensions|"
                                    "plugin “noext” loaded but registers nothing Spanscope uses "
                                    "(importer, exporter, analysis or view)|", faulty_dir);
  g_assert_cmpstr (noext_text, ==, noext_expected);

  lines = sps_test_find_named (list, "lines");
  g_assert_nonnull (lines);
  lines_text = sps_test_plugin_row_text (lines);
  lines_expected = g_strdup_printf ("Lines|Loaded|Reads and writes the \"spslines\" test format|"
                                    "Importer, exporter · module lines|%s|", plugin_dir);
  g_assert_cmpstr (lines_text, ==, lines_expected);

  summary = g_strdup_printf ("7 of %u plugins failed and are skipped; the others work.", n_rows);
  g_assert_nonnull (sps_test_find_label (GTK_WIDGET (dialog), summary));

  sps_test_maybe_screenshot (GTK_WIDGET (dialog), "plugins-dialog");
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static void
test_plugins_trace_still_loads (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "samples", "demo.trace.json", NULL);
  SpsWindow *window = sps_test_open_file (app, path, 1200, 800);
  g_autoptr(SpsPluginStatus) status = NULL;
  GtkWidget *banner;

  /* The broken plugins are skipped; the Chrome importer reads the file.
   * The view that makes no panel is blamed and left out. */
  sps_test_wait_for_load (window);
  g_assert_cmpint (sps_window_get_state (window), ==, SPS_WINDOW_STATE_LOADED);
  g_assert_null (sps_test_find_label (GTK_WIDGET (window), "Faulty"));
  status = sps_test_find_plugin_status (sps_plugin_engine_get_default (), "faultyview");
  g_assert_cmpint (sps_plugin_status_get_state (status), ==, SPS_PLUGIN_STATE_FAILED);
  g_assert_cmpstr (sps_plugin_status_get_error (status), ==,
                   "plugin “faultyview” failed in SpsView.create_panel and is skipped: "
                   "The SpsTestFaultyView view made no panel");
  g_assert_cmpuint (sps_plugin_engine_count_failed (sps_plugin_engine_get_default ()), ==, 8);

  /* The banner follows the engine: the view was blamed after the trace
   * was shown, and is counted with the 7 that failed at load time; its
   * reason is in the details. The demo trace itself has no warnings. */
  banner = sps_test_find_descendant (GTK_WIDGET (window), SPS_TYPE_WARNING_BANNER);
  g_assert_nonnull (banner);
  sps_test_wait_for_banner_failures (banner, 8);
  g_assert_true (gtk_widget_get_visible (banner));
  g_assert_cmpuint (sps_warning_banner_get_n_warnings (SPS_WARNING_BANNER (banner)), ==, 0);
  g_assert_cmpstr (sps_warning_banner_get_summary (SPS_WARNING_BANNER (banner)), ==,
                   "8 plugins failed and are skipped");
  g_assert_nonnull (sps_test_find_label (banner, "plugin “faultyview” failed in SpsView.create_panel and is "
                                                 "skipped: The SpsTestFaultyView view made no panel"));

  /* A failure later still, while the window shows the trace: the faulty
   * importer fails on a file of its own, and the banner counts it. */
  {
    g_autoptr(GError) error = NULL;
    g_autofree char *dir = g_dir_make_tmp ("test-ui-plugins-XXXXXX", &error);
    g_autofree char *lines = g_build_filename (dir, "two.lines", NULL);
    g_autoptr(GFile) file = g_file_new_for_path (lines);
    g_autoptr(SpsTrace) other = NULL;

    g_assert_no_error (error);
    g_assert_true (g_file_set_contents (lines, "SPSLINES\n100 50 alpha\n", -1, &error));
    other = sps_trace_load (file, sps_plugin_engine_get_default (), NULL, SPS_LOAD_FLAGS_NONE, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (sps_trace_get_events_read (other), ==, 1);
    g_assert_cmpuint (sps_plugin_engine_count_failed (sps_plugin_engine_get_default ()), ==, 10);
    sps_test_wait_for_banner_failures (banner, 10);
    g_assert_cmpstr (sps_warning_banner_get_summary (SPS_WARNING_BANNER (banner)), ==,
                     "10 plugins failed and are skipped");
    g_unlink (lines);
    g_rmdir (dir);
  }
  sps_test_spin (400);
  sps_test_maybe_screenshot (GTK_WIDGET (window), "plugins-banner");
  sps_test_close_window (window);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *faulty_dir = NULL;
  g_autofree char *test_dir = NULL;
  g_autofree char *path = NULL;

  gtk_test_init (&argc, &argv, NULL);

  /* The broken plugins before the real ones, read by the default engine
   * on first use. */
  faulty_dir = g_test_build_filename (G_TEST_BUILT, "plugins", "faulty", NULL);
  test_dir = g_test_build_filename (G_TEST_BUILT, "plugins", NULL);
  path = g_strjoin (G_SEARCHPATH_SEPARATOR_S, faulty_dir, test_dir, g_getenv ("SPANSCOPE_PLUGIN_PATH"), NULL);
  g_setenv ("SPANSCOPE_PLUGIN_PATH", path, TRUE);

  app = sps_test_register_app ();

  g_test_add_func ("/ui/plugins/dialog", test_plugins_dialog);
  g_test_add_func ("/ui/plugins/trace-still-loads", test_plugins_trace_still_loads);

  return g_test_run ();
}
