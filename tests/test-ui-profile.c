/* test-ui-profile.c: File ▸ Save Profile… in the window (issue 16)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The demo trace is opened in a window, saved through the window's
 * action code, and the profile is opened in a second window, which must
 * show the same trace.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <spanscope-gtk.h>

#include "sps-application.h"
#include "sps-window.h"
#include "sps-window-private.h"
#include "sps-test-shell.h"
#include "sps-test-ui.h"

#include "sps-test-util.h"

static SpsApplication *app;

static SpsWindow *
open_window (const char *path)
{
  SpsWindow *window = sps_test_open_file (app, path, 1000, 700);

  sps_test_wait_for_load (window);
  g_assert_cmpint (sps_window_get_state (window), ==, SPS_WINDOW_STATE_LOADED);
  return window;
}

static void
saved_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  GError **error = user_data;

  g_assert_true (g_task_propagate_boolean (G_TASK (result), error));
  /* Not NULL any more: the save is over */
  if (*error == NULL)
    *error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_EXISTS, "done");
}

static gboolean
is_set (gpointer data)
{
  return *(GError **) data != NULL;
}

/* The label of the item of @model (or of its sections and submenus) that
 * runs @action */
static char *
find_menu_item (GMenuModel *model,
                const char *action)
{
  for (int i = 0; i < g_menu_model_get_n_items (model); i++)
    {
      g_autofree char *item_action = NULL;
      g_autofree char *label = NULL;
      g_autoptr(GMenuLinkIter) links = NULL;

      if (g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_ACTION, "s", &item_action) &&
          g_strcmp0 (item_action, action) == 0 &&
          g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_LABEL, "s", &label))
        return g_steal_pointer (&label);

      links = g_menu_model_iterate_item_links (model, i);
      while (g_menu_link_iter_next (links))
        {
          g_autoptr(GMenuModel) link = g_menu_link_iter_get_value (links);
          char *found = find_menu_item (link, action);

          if (found != NULL)
            return found;
        }
    }
  return NULL;
}

/* The main menu has the item, enabled once a trace is shown */
static void
test_menu_item (void)
{
  g_autofree char *demo = g_test_build_filename (G_TEST_DIST, "..", "data", "samples",
                                                 "demo.trace.json", NULL);
  g_autofree char *label = NULL;
  GMenu *menu = gtk_application_get_menu_by_id (GTK_APPLICATION (app), "primary-menu");
  SpsWindow *window;

  g_assert_nonnull (menu);
  label = find_menu_item (G_MENU_MODEL (menu), "win.save-profile");
  g_assert_cmpstr (label, ==, "Sa_ve Profile…");

  window = open_window (demo);
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "save-profile"));
  sps_test_close_window (window);
}

static void
test_save_profile (void)
{
  g_autofree char *demo = g_test_build_filename (G_TEST_DIST, "..", "data", "samples",
                                                 "demo.trace.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-ui-profile-XXXXXX", &error);
  g_autofree char *out = g_build_filename (dir, "demo.spprofile", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (out);
  g_autofree char *saving = NULL;
  g_autofree char *saved = NULL;
  /* The temporary folder is not under the home folder, so it is shown
   * as it is, not as "~/…" */
  const char *where = out;
  SpsWindow *window;
  SpsWindow *reopened;
  SpsTrace *a;
  SpsTrace *b;

  g_assert_no_error (error);

  window = open_window (demo);
  /* Only a loaded trace can be saved */
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "save-profile"));

  _sps_window_save_profile (window, file, saved_cb, &error);
  /* One save at a time */
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "save-profile"));
  /* The status line says where it goes, how far it is, and offers Cancel */
  g_assert_true (gtk_revealer_get_reveal_child (window->save_revealer));
  saving = g_strdup_printf ("Saving profile to %s…", where);
  g_assert_cmpstr (gtk_label_get_text (window->save_label), ==, saving);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window->save_cancel_button)));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window->save_progress_bar)));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (window->save_dismiss_button)));
  sps_test_wait_until (is_set, &error);
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "save-profile"));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS);
  g_assert_true (g_file_test (out, G_FILE_TEST_IS_REGULAR));
  /* Then where it went, until dismissed */
  saved = g_strdup_printf ("Saved profile to %s", where);
  g_assert_cmpstr (gtk_label_get_text (window->save_label), ==, saved);
  g_assert_true (gtk_revealer_get_reveal_child (window->save_revealer));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (window->save_cancel_button)));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (window->save_progress_bar)));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window->save_dismiss_button)));
  sps_test_maybe_screenshot (GTK_WIDGET (window), "profile-saved");
  g_signal_emit_by_name (window->save_dismiss_button, "clicked");
  g_assert_false (gtk_revealer_get_reveal_child (window->save_revealer));

  reopened = open_window (out);
  sps_test_maybe_screenshot (GTK_WIDGET (reopened), "profile-reopened");
  a = sps_session_get_trace (sps_window_get_session (window));
  b = sps_session_get_trace (sps_window_get_session (reopened));
  g_assert_cmpstr (sps_trace_get_format (b), ==, "chrome-json");
  /* The demo's figures, as `spanscope-cli info` prints them for both */
  g_assert_cmpuint (sps_trace_get_slices (b)->n_rows, ==, sps_trace_get_slices (a)->n_rows);
  g_assert_cmpuint (sps_trace_count_slices (b, SPS_TRACK_THREAD_SLICES), ==, 102);
  g_assert_cmpuint (sps_trace_get_samples (b)->n_rows, ==, 64);
  g_assert_cmpint (sps_trace_get_start_time (b), ==, 1000000000);
  g_assert_cmpint (sps_trace_get_end_time (b), ==, 1247800000);

  sps_test_close_window (reopened);
  sps_test_close_window (window);
  g_unlink (out);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  gtk_test_init (&argc, &argv, NULL);
  app = sps_test_register_app ();

  g_test_add_func ("/ui/profile/menu-item", test_menu_item);
  g_test_add_func ("/ui/profile/save-and-reopen", test_save_profile);

  ret = g_test_run ();
  g_clear_object (&app);
  return ret;
}
