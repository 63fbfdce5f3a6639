/* test-ui-preferences.c: the Preferences window (Ctrl+,): its pages, the
 * settings its controls change and what the windows do with them, and the
 * shortcut editor of its Keyboard page
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The key presses the Keyboard page reads are synthesised on its key
 * controller (PLATFORM.md §5); the keys that then drive the trace window
 * are real ones, through xdotool, as in test-ui-sql-window.c.
 * Set SPS_TEST_SCREENSHOT_DIR to a folder to keep preferences-*.png.
 */

#define G_LOG_DOMAIN "test-ui-preferences"

#include "config.h"

#include <locale.h>
#include <math.h>
#include <string.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <spanscope-gtk.h>

#include "sps-application.h"
#include "sps-plugins-page.h"
#include "sps-preferences-keyboard.h"
#include "sps-preferences-window.h"
#include "sps-timeline-private.h"
#include "sps-window.h"

#include "sps-test-shell.h"
#include "sps-test-ui.h"

static SpsApplication *app;

static char *
demo_path (void)
{
  return g_test_build_filename (G_TEST_DIST, "..", "data", "samples", "demo.trace.json", NULL);
}

static SpsWindow *
open_demo (void)
{
  g_autofree char *path = demo_path ();
  SpsWindow *window = sps_test_open_file (app, path, 1200, 800);

  sps_test_wait_for_load (window);
  g_assert_cmpint (sps_window_get_state (window), ==, SPS_WINDOW_STATE_LOADED);

  return window;
}

static SpsPreferencesWindow *
find_preferences (void)
{
  g_autoptr(GList) toplevels = gtk_window_list_toplevels ();
  SpsPreferencesWindow *found = NULL;

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (SPS_IS_PREFERENCES_WINDOW (l->data) && gtk_widget_get_visible (l->data))
      {
        /* One per application */
        g_assert_null (found);
        found = l->data;
      }

  return found;
}

static SpsPreferencesWindow *
open_preferences (const char *page)
{
  SpsPreferencesWindow *prefs;

  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (app), "preferences"));
  g_action_group_activate_action (G_ACTION_GROUP (app), "preferences", NULL);
  prefs = find_preferences ();
  g_assert_nonnull (prefs);
  sps_preferences_window_set_page (prefs, page);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (prefs));

  return prefs;
}

static void
close_preferences (SpsPreferencesWindow *prefs)
{
  gtk_window_destroy (GTK_WINDOW (prefs));
  sps_test_spin (10);
  g_assert_null (find_preferences ());
}

static GtkWidget *
named (gpointer    root,
       const char *name)
{
  GtkWidget *widget = sps_test_find_named (GTK_WIDGET (root), name);

  g_assert_nonnull (widget);
  return widget;
}

static void
assert_strv (GSettings  *settings,
             const char *key,
             const char *expected)
{
  g_auto(GStrv) value = g_settings_get_strv (settings, key);
  g_autofree char *joined = g_strjoinv (" ", value);

  g_assert_cmpstr (joined, ==, expected);
}

static void
assert_accels (const char *action,
               const char *expected)
{
  g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), action);
  g_autofree char *joined = g_strjoinv (" ", accels);

  g_assert_cmpstr (joined, ==, expected);
}

/* Presses @keyval with @state on the Keyboard page (as the window's
 * capture phase hands it the press); returns whether it took it */
static gboolean
press (GtkWidget       *page,
       guint            keyval,
       GdkModifierType  state)
{
  GtkEventController *keys = sps_test_find_controller (page, GTK_TYPE_EVENT_CONTROLLER_KEY, 0);
  gboolean handled = FALSE;

  g_signal_emit_by_name (keys, "key-pressed", keyval, 0, state, &handled);

  return handled;
}

static const char *
message (GtkWidget *page)
{
  return sps_preferences_keyboard_get_message (SPS_PREFERENCES_KEYBOARD (page));
}

static const char *
button_label (GtkWidget  *page,
              const char *name)
{
  return gtk_label_get_text (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (named (page, name)))));
}

static void
click (GtkWidget  *page,
       const char *name)
{
  g_signal_emit_by_name (named (page, name), "clicked");
}

static SpsTime
visible_span (SpsSession *session)
{
  return sps_session_get_visible_end (session) - sps_session_get_visible_start (session);
}

static gboolean
span_changed (gpointer data)
{
  gint64 *wait = data;

  return visible_span ((SpsSession *) (gsize) wait[1]) != wait[0];
}

/* Ctrl+, and the menu open one window per application, transient for the
 * active window; presenting it again raises the same window, and the
 * banner's and the old menu entry's app.plugins shows its Plugins page */
static void
test_one_window (void)
{
  SpsWindow *window = open_demo ();
  SpsPreferencesWindow *prefs;
  g_autoptr(GMenuModel) menu = NULL;

  assert_accels ("app.preferences", "<Control>comma");

  prefs = open_preferences ("appearance");
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (prefs)) == GTK_WINDOW (window));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (prefs)), ==, "Preferences");

  g_action_group_activate_action (G_ACTION_GROUP (app), "preferences", NULL);
  g_assert_true (find_preferences () == prefs);
  g_action_group_activate_action (G_ACTION_GROUP (app), "plugins", NULL);
  g_assert_true (find_preferences () == prefs);
  g_assert_cmpstr (sps_preferences_window_get_page (prefs), ==, "plugins");
  g_assert_nonnull (sps_test_find_descendant (GTK_WIDGET (prefs), SPS_TYPE_PLUGINS_PAGE));

  close_preferences (prefs);
  sps_test_close_window (window);
}

/* The Appearance page's controls write the settings and every window
 * follows at once */
/* The colour the selection colour's button shows */
static GdkRGBA
shown_color (SpsPreferencesWindow *prefs)
{
  GdkRGBA rgba;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_color_chooser_get_rgba (GTK_COLOR_CHOOSER (named (prefs, "selection-color")), &rgba);
  G_GNUC_END_IGNORE_DEPRECATIONS
  return rgba;
}

/* @shown is the accent colour of the theme in use */
static void
assert_theme_accent (SpsPreferencesWindow *prefs,
                     const GdkRGBA        *shown)
{
  GdkRGBA accent;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  g_assert_true (gtk_style_context_lookup_color (gtk_widget_get_style_context (named (prefs, "selection-color")),
                                                 "theme_selected_bg_color", &accent));
  G_GNUC_END_IGNORE_DEPRECATIONS
  g_assert_true (gdk_rgba_equal (shown, &accent));
}

/* @key of @settings, a string, is @expected */
static void
assert_setting (GSettings  *settings,
                const char *key,
                const char *expected)
{
  g_autofree char *value = g_settings_get_string (settings, key);

  g_assert_cmpstr (value, ==, expected);
}

static void
test_appearance (void)
{
  GSettings *settings = sps_application_get_settings (app);
  SpsWindow *window = open_demo ();
  SpsWindow *second = open_demo ();
  SpsPreferencesWindow *prefs = open_preferences ("appearance");
  SpsTimeline *timeline = sps_window_get_timeline (window);
  SpsTimeline *timeline2 = sps_window_get_timeline (second);
  GtkSettings *gtk_settings = gtk_settings_get_default ();
  GdkRGBA red = { 224 / 255.f, 27 / 255.f, 36 / 255.f, 1.f };
  GdkRGBA light_accent, dark_accent;
  gboolean dark = TRUE;
  g_autofree char *color = NULL;
  int min_lane;

  /* Track height: the spin button, the setting, both timelines' rows */
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (named (prefs, "track-height")), 30);
  g_assert_cmpint (g_settings_get_int (settings, "track-height"), ==, 30);
  g_assert_cmpint (sps_timeline_get_track_height (timeline), ==, 30);
  g_assert_cmpint (sps_timeline_get_track_height (timeline2), ==, 30);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  g_assert_cmpint (SPS_TIMELINE (timeline)->lane_height, ==, 30);
  /* 12 px is less than a line of text: the lane keeps the text's height
   * plus 4 (sps-timeline-style.c) */
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (named (prefs, "track-height")), 12);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  min_lane = SPS_TIMELINE (timeline)->text_height + 4;
  g_assert_cmpint (min_lane, >, 12);
  g_assert_cmpint (SPS_TIMELINE (timeline)->lane_height, ==, min_lane);
  g_settings_reset (settings, "track-height");
  g_assert_cmpint (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (named (prefs, "track-height"))), ==, 20);

  /* Theme: the drop-down, the setting, GTK's dark preference; the
   * selection colour's button shows the accent of the theme in use */
  light_accent = shown_color (prefs);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (named (prefs, "theme")), 2);
  assert_setting (settings, "theme", "dark");
  g_object_get (gtk_settings, "gtk-application-prefer-dark-theme", &dark, NULL);
  g_assert_true (dark);
  dark_accent = shown_color (prefs);
  g_assert_false (gdk_rgba_equal (&light_accent, &dark_accent));
  assert_theme_accent (prefs, &dark_accent);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (prefs));
  sps_test_maybe_screenshot (GTK_WIDGET (prefs), "preferences-appearance-dark");
  gtk_drop_down_set_selected (GTK_DROP_DOWN (named (prefs, "theme")), 1);
  assert_setting (settings, "theme", "light");
  g_object_get (gtk_settings, "gtk-application-prefer-dark-theme", &dark, NULL);
  g_assert_false (dark);
  light_accent = shown_color (prefs);
  assert_theme_accent (prefs, &light_accent);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (named (prefs, "theme")), 2);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (named (prefs, "theme")), 0);
  assert_setting (settings, "theme", "system");
  /* Back to what the (absent) desktop says: no preference under Xvfb */
  g_object_get (gtk_settings, "gtk-application-prefer-dark-theme", &dark, NULL);
  g_assert_false (dark);

  /* Font size in percent of a factor */
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (named (prefs, "font-scale")), 150);
  g_assert_cmpfloat (g_settings_get_double (settings, "font-scale"), ==, 1.5);
  g_settings_reset (settings, "font-scale");

  /* Flows: the second choice is every flow */
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (named (prefs, "show-flows"))), ==, 0);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (named (prefs, "show-flows")), 1);
  g_assert_true (g_settings_get_boolean (settings, "show-flows"));
  g_assert_true (sps_session_get_show_flows (sps_window_get_session (second)));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (named (prefs, "show-flows")), 0);
  g_assert_false (sps_session_get_show_flows (sps_window_get_session (second)));

  /* Chrome JSON timestamps: the four units from the smallest; the
   * default is µs */
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (named (prefs, "timestamp-unit"))), ==, 1);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (named (prefs, "timestamp-unit")), 0);
  assert_setting (settings, "timestamp-unit", "ns");
  gtk_drop_down_set_selected (GTK_DROP_DOWN (named (prefs, "timestamp-unit")), 2);
  assert_setting (settings, "timestamp-unit", "ms");
  gtk_drop_down_set_selected (GTK_DROP_DOWN (named (prefs, "timestamp-unit")), 3);
  assert_setting (settings, "timestamp-unit", "s");
  gtk_test_widget_wait_for_draw (GTK_WIDGET (prefs));
  sps_test_maybe_screenshot (GTK_WIDGET (prefs), "preferences-units");
  g_settings_set_string (settings, "timestamp-unit", "us");
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (named (prefs, "timestamp-unit"))), ==, 1);

  /* Selection colour: the setting, then the timeline's accent */
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_color_chooser_set_rgba (GTK_COLOR_CHOOSER (named (prefs, "selection-color")), &red);
  G_GNUC_END_IGNORE_DEPRECATIONS
  color = g_settings_get_string (settings, "selection-color");
  g_assert_cmpstr (color, ==, "rgb(224,27,36)");
  g_assert_true (gtk_widget_get_sensitive (named (prefs, "selection-color-reset")));
  gtk_widget_queue_draw (GTK_WIDGET (timeline2));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (second));
  g_assert_cmphex (sps_test_rgb_of (&SPS_TIMELINE (timeline2)->style.accent), ==, 0xe01b24);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (prefs));
  sps_test_maybe_screenshot (GTK_WIDGET (prefs), "preferences-appearance");
  click (GTK_WIDGET (prefs), "selection-color-reset");
  g_clear_pointer (&color, g_free);
  color = g_settings_get_string (settings, "selection-color");
  g_assert_cmpstr (color, ==, "");
  g_assert_false (gtk_widget_get_sensitive (named (prefs, "selection-color-reset")));
  gtk_widget_queue_draw (GTK_WIDGET (timeline2));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (second));
  g_assert_cmphex (sps_test_rgb_of (&SPS_TIMELINE (timeline2)->style.accent), !=, 0xe01b24);

  close_preferences (prefs);
  sps_test_close_window (second);
  sps_test_close_window (window);
}

/* The unit of Chrome JSON timestamps applies to files opened afterwards:
 * ts 1000, dur 500 are 1 ms and 0.5 ms in µs, 1 µs and 0.5 µs in ns,
 * 1 s and 0.5 s in ms, 1000 s and 500 s in s */
static void
test_timestamp_unit (void)
{
  GSettings *settings = sps_application_get_settings (app);
  g_autofree char *dir = g_dir_make_tmp ("spanscope-prefs-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "unit.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  const char *units[] = { "us", "ns", "ms", "s" };
  const SpsTime starts[] = { 1000000, 1000, 1000000000, G_GINT64_CONSTANT (1000000000000) };
  const SpsTime durations[] = { 500000, 500, 500000000, G_GINT64_CONSTANT (500000000000) };

  g_assert_true (g_file_set_contents (path, "[{\"name\":\"a\",\"ph\":\"X\",\"ts\":1000,\"dur\":500,"
                                            "\"pid\":1,\"tid\":1}]", -1, NULL));

  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    {
      SpsWindow *window;
      SpsTrace *trace;
      SpsTime ts;
      SpsTime dur;

      g_settings_set_string (settings, "timestamp-unit", units[i]);
      sps_application_open_file (app, file, NULL);
      window = SPS_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));
      g_assert_nonnull (window);
      sps_test_wait_for_load (window);
      trace = sps_session_get_trace (sps_window_get_session (window));
      g_assert_true (sps_trace_get_slice (trace, 0, NULL, &ts, &dur, NULL, NULL, NULL));
      g_assert_cmpint (ts, ==, starts[i]);
      g_assert_cmpint (dur, ==, durations[i]);
      sps_test_close_window (window);
    }

  g_settings_reset (settings, "timestamp-unit");
  g_unlink (path);
  g_rmdir (dir);
}

/* A binding changed through the capture: the setting, the accelerators,
 * the shortcuts window, and real key presses in the trace window */
static void
test_capture (void)
{
  g_autoptr(GSettings) keys = g_settings_get_child (sps_application_get_settings (app), "keybindings");
  SpsWindow *window = open_demo ();
  SpsSession *session = sps_window_get_session (window);
  SpsPreferencesWindow *prefs = open_preferences ("keyboard");
  GtkWidget *page = sps_test_find_descendant (GTK_WIDGET (prefs), SPS_TYPE_PREFERENCES_KEYBOARD);
  g_autoptr(GHashTable) shown = NULL;
  gint64 wait[2];
  SpsTime span;

  g_assert_nonnull (page);
  g_assert_cmpstr (message (page), ==, "Click a shortcut to change it.");
  g_assert_cmpstr (button_label (page, "zoom-in-primary"), ==, "W");
  g_assert_cmpstr (button_label (page, "zoom-in-alternate"), ==, "=");
  g_assert_false (gtk_widget_get_sensitive (named (page, "zoom-in-reset")));

  /* Keys are only read after a click */
  g_assert_false (press (page, GDK_KEY_z, 0));

  click (page, "zoom-in-primary");
  g_assert_cmpstr (message (page), ==, "Press the new shortcut for “Zoom in”… Esc cancels, Backspace clears.");
  g_assert_cmpstr (button_label (page, "zoom-in-primary"), ==, "New shortcut…");
  /* A modifier alone waits for its key */
  g_assert_true (press (page, GDK_KEY_Control_L, 0));
  g_assert_cmpstr (button_label (page, "zoom-in-primary"), ==, "New shortcut…");
  g_assert_true (press (page, GDK_KEY_z, 0));

  assert_strv (keys, "zoom-in", "z equal plus KP_Add");
  assert_accels ("win.zoom-in", "z equal plus KP_Add");
  g_assert_cmpstr (button_label (page, "zoom-in-primary"), ==, "Z");
  g_assert_cmpstr (message (page), ==, "Click a shortcut to change it.");
  g_assert_true (gtk_widget_get_sensitive (named (page, "zoom-in-reset")));

  /* The shortcuts window shows it */
  shown = sps_test_shortcuts_of (window);
  g_assert_cmpstr (g_hash_table_lookup (shown, "Zoom in"), ==, "z equal plus KP_Add");
  gtk_test_widget_wait_for_draw (GTK_WIDGET (prefs));
  sps_test_maybe_screenshot (GTK_WIDGET (prefs), "preferences-keyboard");

  /* Real keys in the trace window: Z zooms in (by 1.5, as W did), W no
   * longer does */
  gtk_widget_set_visible (GTK_WIDGET (prefs), FALSE);
  gtk_widget_grab_focus (GTK_WIDGET (sps_window_get_timeline (window)));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  span = visible_span (session);
  sps_test_press_keys (GTK_WIDGET (window), "z");
  wait[0] = span;
  wait[1] = (gint64) (gsize) session;
  sps_test_wait_until (span_changed, wait);
  g_assert_cmpint (visible_span (session), ==, (gint64) llround ((double) span / 1.5));
  span = visible_span (session);
  sps_test_press_keys (GTK_WIDGET (window), "w");
  sps_test_spin (500);
  g_assert_cmpint (visible_span (session), ==, span);

  /* Reset: the defaults, and W zooms again */
  gtk_widget_set_visible (GTK_WIDGET (prefs), TRUE);
  click (page, "zoom-in-reset");
  assert_strv (keys, "zoom-in", "w equal plus KP_Add");
  assert_accels ("win.zoom-in", "w equal plus KP_Add");
  g_assert_cmpstr (button_label (page, "zoom-in-primary"), ==, "W");
  g_assert_false (gtk_widget_get_sensitive (named (page, "zoom-in-reset")));
  gtk_widget_set_visible (GTK_WIDGET (prefs), FALSE);
  gtk_widget_grab_focus (GTK_WIDGET (sps_window_get_timeline (window)));
  span = visible_span (session);
  sps_test_press_keys (GTK_WIDGET (window), "w");
  wait[0] = span;
  sps_test_wait_until (span_changed, wait);
  g_assert_cmpint (visible_span (session), ==, (gint64) llround ((double) span / 1.5));

  close_preferences (prefs);
  sps_test_close_window (window);
}

/* A key another action has is refused and named; Escape cancels;
 * Backspace clears a primary and keeps the alternate; Reset All */
static void
test_conflicts_and_clearing (void)
{
  g_autoptr(GSettings) keys = g_settings_get_child (sps_application_get_settings (app), "keybindings");
  SpsWindow *window = open_demo ();
  SpsPreferencesWindow *prefs = open_preferences ("keyboard");
  GtkWidget *page = sps_test_find_descendant (GTK_WIDGET (prefs), SPS_TYPE_PREFERENCES_KEYBOARD);
  g_autoptr(GHashTable) shown = NULL;

  /* S is zoom out's */
  click (page, "zoom-in-alternate");
  g_assert_true (press (page, GDK_KEY_s, 0));
  g_assert_cmpstr (message (page), ==, "S is used by “Zoom out”: not changed.");
  g_assert_true (gtk_widget_has_css_class (named (page, "shortcut-message"), "error"));
  assert_strv (keys, "zoom-in", "w equal plus KP_Add");
  g_assert_cmpstr (button_label (page, "zoom-in-alternate"), ==, "=");
  gtk_test_widget_wait_for_draw (GTK_WIDGET (prefs));
  sps_test_maybe_screenshot (GTK_WIDGET (prefs), "preferences-keyboard-conflict");

  /* Ctrl+? typed with Shift held is the same binding as Ctrl+? */
  click (page, "search-primary");
  g_assert_true (press (page, GDK_KEY_question, GDK_CONTROL_MASK | GDK_SHIFT_MASK));
  g_assert_cmpstr (message (page), ==, "Ctrl+? is used by “Keyboard shortcuts”: not changed.");
  assert_strv (keys, "search", "<Control>f");

  /* A further key of the action's own (zoom in's +) is taken too */
  click (page, "zoom-in-alternate");
  g_assert_true (press (page, GDK_KEY_KP_Add, 0));
  /* GTK writes "KP +" with a thin space */
  g_assert_cmpstr (message (page), ==, "KP\xe2\x80\x89+ is used by “Zoom in”: not changed.");

  /* Escape cancels: nothing changes */
  click (page, "fit-primary");
  g_assert_true (press (page, GDK_KEY_Escape, 0));
  g_assert_cmpstr (message (page), ==, "Click a shortcut to change it.");
  assert_strv (keys, "fit", "f");
  g_assert_cmpstr (button_label (page, "fit-primary"), ==, "F");

  /* An alternate of its own, with a modifier */
  click (page, "fit-alternate");
  g_assert_true (press (page, GDK_KEY_F, GDK_SHIFT_MASK));
  assert_strv (keys, "fit", "f <Shift>f");
  g_assert_cmpstr (button_label (page, "fit-alternate"), ==, "Shift+F");

  /* Backspace clears the primary; the alternate keeps its place */
  click (page, "fit-primary");
  g_assert_true (press (page, GDK_KEY_BackSpace, 0));
  assert_strv (keys, "fit", " <Shift>f");
  g_assert_cmpstr (button_label (page, "fit-primary"), ==, "None");
  g_assert_cmpstr (button_label (page, "fit-alternate"), ==, "Shift+F");
  assert_accels ("win.fit", "<Shift>f");
  shown = sps_test_shortcuts_of (window);
  g_assert_cmpstr (g_hash_table_lookup (shown, "Fit the selection, the range or the trace"), ==, "<Shift>f");

  /* An action without keys today got a key: Quit */
  click (page, "quit-primary");
  g_assert_true (press (page, GDK_KEY_q, GDK_CONTROL_MASK | GDK_SHIFT_MASK));
  assert_strv (keys, "quit", "<Shift><Control>q");
  assert_accels ("app.quit", "<Shift><Control>q");

  /* F is free again: zoom in's alternate takes it */
  click (page, "zoom-in-alternate");
  g_assert_true (press (page, GDK_KEY_f, 0));
  assert_strv (keys, "zoom-in", "w f plus KP_Add");

  click (page, "reset-all");
  assert_strv (keys, "fit", "f");
  assert_strv (keys, "quit", "<Control>q");
  assert_strv (keys, "zoom-in", "w equal plus KP_Add");
  assert_accels ("win.fit", "f");
  assert_accels ("app.quit", "<Control>q");
  g_assert_cmpstr (button_label (page, "fit-primary"), ==, "F");
  g_assert_cmpstr (button_label (page, "fit-alternate"), ==, "None");

  close_preferences (prefs);
  sps_test_close_window (window);
}

/* The Plugins page lists the plugins (and is looked at in
 * SPS_TEST_SCREENSHOT_DIR) */
static void
test_pages (void)
{
  SpsPreferencesWindow *prefs = open_preferences ("plugins");

  gtk_window_set_default_size (GTK_WINDOW (prefs), 640, 720);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (prefs));
  sps_test_maybe_screenshot (GTK_WIDGET (prefs), "preferences-plugins");
  g_assert_nonnull (sps_test_find_label (GTK_WIDGET (prefs), "Chrome JSON 0.1.0"));

  close_preferences (prefs);
}

/* In German: the pages' titles, rows and the editor's messages, and a
 * look at each page (SPS_TEST_SCREENSHOT_DIR) */
static void
test_german (void)
{
  g_autoptr(GSettings) keys = g_settings_get_child (sps_application_get_settings (app), "keybindings");
  g_autofree char *old_language = g_strdup (g_getenv ("LANGUAGE"));
  SpsPreferencesWindow *prefs;
  GtkWidget *page;

  /* glibc rereads LANGUAGE once setlocale() bumps its catalogue counter */
  g_setenv ("LANGUAGE", "de", TRUE);
  setlocale (LC_ALL, "");

  prefs = open_preferences ("appearance");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (prefs)), ==, "Einstellungen");
  g_assert_nonnull (sps_test_find_label (GTK_WIDGET (prefs), "Auswahlfarbe"));
  g_assert_nonnull (sps_test_find_label (GTK_WIDGET (prefs), "Zeitstempel in Chrome-JSON"));
  /* The units in German, milliseconds chosen */
  g_settings_set_string (sps_application_get_settings (app), "timestamp-unit", "ms");
  g_assert_cmpstr (gtk_string_object_get_string (GTK_STRING_OBJECT (gtk_drop_down_get_selected_item (
                     GTK_DROP_DOWN (named (prefs, "timestamp-unit"))))), ==, "Millisekunden");
  gtk_test_widget_wait_for_draw (GTK_WIDGET (prefs));
  sps_test_maybe_screenshot (GTK_WIDGET (prefs), "preferences-appearance-de");
  g_settings_reset (sps_application_get_settings (app), "timestamp-unit");

  sps_preferences_window_set_page (prefs, "plugins");
  gtk_test_widget_wait_for_draw (GTK_WIDGET (prefs));
  sps_test_maybe_screenshot (GTK_WIDGET (prefs), "preferences-plugins-de");

  sps_preferences_window_set_page (prefs, "keyboard");
  gtk_test_widget_wait_for_draw (GTK_WIDGET (prefs));
  page = sps_test_find_descendant (GTK_WIDGET (prefs), SPS_TYPE_PREFERENCES_KEYBOARD);
  g_assert_cmpstr (message (page), ==, "Klicken Sie auf ein Tastenkürzel, um es zu ändern.");
  g_assert_cmpstr (button_label (page, "fit-alternate"), ==, "Keines");
  click (page, "zoom-in-alternate");
  g_assert_cmpstr (message (page), ==, "Drücken Sie das neue Tastenkürzel für „Vergrößern“ … Esc bricht ab, "
                                       "Rücktaste löscht es.");
  g_assert_true (press (page, GDK_KEY_s, 0));
  g_assert_cmpstr (message (page), ==, "S gehört schon zu „Verkleinern“: nicht geändert.");
  assert_strv (keys, "zoom-in", "w equal plus KP_Add");
  gtk_test_widget_wait_for_draw (GTK_WIDGET (prefs));
  sps_test_maybe_screenshot (GTK_WIDGET (prefs), "preferences-keyboard-de");

  close_preferences (prefs);

  if (old_language != NULL)
    g_setenv ("LANGUAGE", old_language, TRUE);
  else
    g_unsetenv ("LANGUAGE");
  setlocale (LC_ALL, "");
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  gtk_test_init (&argc, &argv, NULL);
  sps_test_bind_locale ();

  app = sps_test_register_app ();

  g_test_add_func ("/ui/preferences/one-window", test_one_window);
  g_test_add_func ("/ui/preferences/appearance", test_appearance);
  g_test_add_func ("/ui/preferences/timestamp-unit", test_timestamp_unit);
  g_test_add_func ("/ui/preferences/keyboard/capture", test_capture);
  g_test_add_func ("/ui/preferences/keyboard/conflicts-and-clearing", test_conflicts_and_clearing);
  g_test_add_func ("/ui/preferences/pages", test_pages);
  g_test_add_func ("/ui/preferences/german", test_german);

  ret = g_test_run ();

  g_clear_object (&app);

  return ret;
}
