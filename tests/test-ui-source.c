/* test-ui-source.c: the source viewer's panel under Xvfb (in English,
 * and again in German: texts are compared with their translations) on
 * tests/fixtures/source-locations.json, whose paths name a CI checkout
 * (/ci/builds/spanscope/…): through a path rule the panel shows
 * tests/fixtures/source-sample.py with the slice's line marked; a missing
 * file lists the paths tried and offers a rule; an item without a location
 * says so
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-ui-source"

#include "config.h"

#include <locale.h>

#include <glib/gi18n.h>
#include <spanscope-gtk.h>

#include "sps-source-panel.h"
#include "sps-source-remap.h"
#include "sps-source-rules-editor.h"

#include "sps-test-ui.h"

#include "sps-test-util.h"

#define SCHEMA "io.github.spanscope.Spanscope.source"

typedef struct
{
  SpsTrace   *trace;
  SpsSession *session;
  GSettings  *settings;
  char       *folder;   /* tests/fixtures, where the trace is */
  char       *root;     /* the source tree: the CI checkout's counterpart */
  GtkWidget  *window;
  GtkWidget  *panel;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *path = sps_test_fixture_path ("source-locations.json");
  g_autoptr(GPtrArray) rules = sps_source_rules_new ();
  g_autofree char *tests = NULL;
  g_autofree char *to = NULL;

  fixture->trace = sps_test_load_path (path);
  fixture->session = sps_session_new (fixture->trace);
  fixture->settings = g_settings_new (SCHEMA);
  fixture->folder = g_path_get_dirname (path);
  tests = g_path_get_dirname (fixture->folder);
  fixture->root = g_path_get_dirname (tests);

  /* The CI checkout is this source tree; a rule that matches nothing of
   * the trace comes first, so order matters */
  to = g_strconcat (fixture->root, "/", NULL);
  g_ptr_array_add (rules, sps_source_rule_new ("/ci/other/", "/nowhere/"));
  g_ptr_array_add (rules, sps_source_rule_new ("/ci/builds/spanscope/", to));
  sps_source_rules_save (fixture->settings, fixture->folder, rules);

  fixture->panel = sps_source_panel_new (fixture->session);
  fixture->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 900, 500);
  gtk_window_set_child (GTK_WINDOW (fixture->window), fixture->panel);
  gtk_window_present (GTK_WINDOW (fixture->window));
  gtk_test_widget_wait_for_draw (fixture->window);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  g_settings_reset (fixture->settings, "path-rules");
  g_clear_object (&fixture->settings);
  g_clear_object (&fixture->session);
  g_clear_object (&fixture->trace);
  g_free (fixture->folder);
  g_free (fixture->root);
}

static gboolean
panel_idle (gpointer data)
{
  return !sps_source_panel_is_busy (data);
}

static void
select_slice (Fixture    *fixture,
              const char *name)
{
  sps_session_set_selected_slice (fixture->session, sps_test_find_slice (fixture->trace, name, 0));
  sps_test_wait_until (panel_idle, fixture->panel);
}

static char *
line_text (GtkTextBuffer *buffer,
           int            line)
{
  GtkTextIter start, end;

  g_assert_true (gtk_text_buffer_get_iter_at_line (buffer, &start, line));
  end = start;
  if (!gtk_text_iter_ends_line (&end))
    gtk_text_iter_forward_to_line_end (&end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

/* The mark and the cursor are on the line of index @index */
static void
assert_marked (GtkSourceBuffer *buffer,
               int              index)
{
  GSList *marks = gtk_source_buffer_get_source_marks_at_line (buffer, index, SPS_SOURCE_PANEL_LINE_MARK);
  GtkTextIter cursor;

  g_assert_cmpuint (g_slist_length (marks), ==, 1);
  g_slist_free (marks);
  gtk_text_buffer_get_iter_at_mark (GTK_TEXT_BUFFER (buffer), &cursor,
                                    gtk_text_buffer_get_insert (GTK_TEXT_BUFFER (buffer)));
  g_assert_cmpint (gtk_text_iter_get_line (&cursor), ==, index);
}

/* RunTask's args: src_file /ci/builds/spanscope/tests/fixtures/
 * source-sample.py, src_line 9. The second rule maps it into this tree;
 * line 9 of the file is "    for i in range(n):" (read with sed -n 9p). */
static void
test_shows_marked_line (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autofree char *expected = g_build_filename (fixture->folder, "source-sample.py", NULL);
  GtkSourceBuffer *buffer = sps_source_panel_get_buffer (SPS_SOURCE_PANEL (fixture->panel));
  g_autofree char *text = NULL;
  GSList *marks;
  GtkSourceLanguage *language;

  /* Nothing selected yet */
  g_assert_cmpstr (sps_test_label_text (fixture->panel, "source-message"), ==,
                   _("Select a slice, a sample or a stack frame to see its source."));

  select_slice (fixture, "RunTask");
  g_assert_cmpstr (sps_source_panel_get_path (SPS_SOURCE_PANEL (fixture->panel)), ==, expected);
  g_assert_cmpuint (sps_source_panel_get_line (SPS_SOURCE_PANEL (fixture->panel)), ==, 9);
  g_assert_cmpstr (sps_test_label_text (fixture->panel, "source-location"), ==,
                   "compute — /ci/builds/spanscope/tests/fixtures/source-sample.py:9");

  /* The whole file: 16 lines (wc -l), and the empty one after the last newline */
  g_assert_cmpint (gtk_text_buffer_get_line_count (GTK_TEXT_BUFFER (buffer)), ==, 17);
  text = line_text (GTK_TEXT_BUFFER (buffer), 8);
  g_assert_cmpstr (text, ==, "    for i in range(n):");

  /* The mark and the cursor are on line 9 (index 8), and only there */
  assert_marked (buffer, 8);

  /* Highlighted as Python (the language from the file name), read-only */
  language = gtk_source_buffer_get_language (buffer);
  g_assert_nonnull (language);
  g_assert_true (g_str_has_prefix (gtk_source_language_get_id (language), "python"));
  g_assert_false (gtk_text_view_get_editable (GTK_TEXT_VIEW (sps_source_panel_get_view (SPS_SOURCE_PANEL (fixture->panel)))));

  sps_test_maybe_screenshot (fixture->window, "source-viewer");

  /* The name convention: "compute (…/source-sample.py:7)", line 7 */
  select_slice (fixture, "compute (/ci/builds/spanscope/tests/fixtures/source-sample.py:7)");
  g_clear_pointer (&text, g_free);
  text = line_text (GTK_TEXT_BUFFER (buffer), 6);
  g_assert_cmpstr (text, ==, "def compute(n):");
  g_assert_cmpuint (sps_source_panel_get_line (SPS_SOURCE_PANEL (fixture->panel)), ==, 7);
  marks = gtk_source_buffer_get_source_marks_at_line (buffer, 6, SPS_SOURCE_PANEL_LINE_MARK);
  g_assert_cmpuint (g_slist_length (marks), ==, 1);
  g_slist_free (marks);
  /* the previous file's mark went with it */
  marks = gtk_source_buffer_get_source_marks_at_line (buffer, 8, SPS_SOURCE_PANEL_LINE_MARK);
  g_assert_null (marks);
}

/* Missing's src_file /ci/builds/spanscope/src/missing.py exists nowhere:
 * the panel tried the mapped path, then the path as written; "Add Rule…"
 * puts a rule for the file's folder first (the first match wins), saved
 * for the trace's folder */
static void
test_missing_file (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *mapped = g_build_filename (fixture->root, "src", "missing.py", NULL);
  g_autofree char *message = g_strdup_printf ("%s\n%s\n/ci/builds/spanscope/src/missing.py",
                                              _("Tried, in order:"), mapped);
  GPtrArray *tried;
  GtkWidget *button;
  g_autoptr(GPtrArray) rules = NULL;

  select_slice (fixture, "Missing");
  g_assert_null (sps_source_panel_get_path (SPS_SOURCE_PANEL (fixture->panel)));
  tried = sps_source_panel_get_tried (SPS_SOURCE_PANEL (fixture->panel));
  g_assert_nonnull (tried);
  g_assert_cmpuint (tried->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (tried, 0), ==, mapped);
  g_assert_cmpstr (g_ptr_array_index (tried, 1), ==, "/ci/builds/spanscope/src/missing.py");
  g_assert_cmpstr (sps_test_label_text (fixture->panel, "source-message"), ==, message);

  button = sps_test_find_named (fixture->panel, "add-rule-for-file");
  g_assert_true (gtk_widget_get_visible (button));
  g_signal_emit_by_name (button, "clicked");
  sps_test_wait_until (panel_idle, fixture->panel);

  rules = sps_source_rules_load (fixture->settings, fixture->folder);
  g_assert_cmpuint (rules->len, ==, 3);
  g_assert_cmpstr (((SpsSourceRule *) rules->pdata[0])->from, ==, "/ci/builds/spanscope/src/");
  g_assert_cmpstr (((SpsSourceRule *) rules->pdata[0])->to, ==, "");
  g_assert_cmpstr (((SpsSourceRule *) rules->pdata[1])->from, ==, "/ci/other/");
  g_assert_cmpstr (((SpsSourceRule *) rules->pdata[2])->from, ==, "/ci/builds/spanscope/");

  sps_test_maybe_screenshot (fixture->window, "source-viewer-missing");
}

static const char *
rule_from (GSettings  *settings,
           const char *folder,
           guint       index)
{
  static char buffer[256];
  g_autoptr(GPtrArray) rules = sps_source_rules_load (settings, folder);

  if (index >= rules->len)
    return NULL;
  g_strlcpy (buffer, ((SpsSourceRule *) rules->pdata[index])->from, sizeof buffer);
  return buffer;
}

/* Reordering and removing rows is saved at once; a rule typed in the
 * panel applies as soon as the typing pauses */
static void
test_edit_rules (Fixture       *fixture,
                 gconstpointer  data)
{
  SpsSourceRulesEditor *editor = SPS_SOURCE_RULES_EDITOR (sps_test_find_type_name (fixture->panel,
                                                                                   "SpsSourceRulesEditor"));
  g_autofree char *expected = g_build_filename (fixture->folder, "source-sample.py", NULL);
  g_autofree char *to = g_strconcat (fixture->folder, "/", NULL);
  g_autoptr(GPtrArray) rules = NULL;
  GPtrArray *tried;
  GtkWidget *entry;

  sps_source_rules_editor_move_rule (editor, 1, -1);
  g_assert_cmpstr (rule_from (fixture->settings, fixture->folder, 0), ==, "/ci/builds/spanscope/");
  g_assert_cmpstr (rule_from (fixture->settings, fixture->folder, 1), ==, "/ci/other/");
  /* Past either end: nothing moves */
  sps_source_rules_editor_move_rule (editor, 0, -1);
  sps_source_rules_editor_move_rule (editor, 1, 1);
  g_assert_cmpstr (rule_from (fixture->settings, fixture->folder, 0), ==, "/ci/builds/spanscope/");

  sps_source_rules_editor_remove_rule (editor, 0);
  rules = sps_source_rules_load (fixture->settings, fixture->folder);
  g_assert_cmpuint (rules->len, ==, 1);
  g_assert_cmpstr (((SpsSourceRule *) rules->pdata[0])->from, ==, "/ci/other/");
  sps_test_wait_until (panel_idle, fixture->panel);

  /* Without the CI rule, only the path as written is left to try */
  select_slice (fixture, "RunTask");
  tried = sps_source_panel_get_tried (SPS_SOURCE_PANEL (fixture->panel));
  g_assert_nonnull (tried);
  g_assert_cmpuint (tried->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (tried, 0), ==, "/ci/builds/spanscope/tests/fixtures/source-sample.py");

  /* Add Rule… for the file's folder, then type where it is here */
  g_signal_emit_by_name (sps_test_find_named (fixture->panel, "add-rule-for-file"), "clicked");
  g_assert_cmpstr (rule_from (fixture->settings, fixture->folder, 0), ==, "/ci/builds/spanscope/tests/fixtures/");
  entry = sps_test_find_named (GTK_WIDGET (editor), "to");
  g_assert_nonnull (entry);
  gtk_editable_set_text (GTK_EDITABLE (entry), to);
  sps_test_wait_until (panel_idle, fixture->panel);

  g_assert_cmpstr (sps_source_panel_get_path (SPS_SOURCE_PANEL (fixture->panel)), ==, expected);
  g_assert_cmpuint (sps_source_panel_get_line (SPS_SOURCE_PANEL (fixture->panel)), ==, 9);
  sps_test_maybe_screenshot (fixture->window, "source-viewer-rules");
}

/* DevTools' FunctionCall: data.url http://localhost:10200/tests/fixtures/
 * source-sample.py, lineNumber 10, columnNumber 9, which Chrome writes
 * 1-based (docs/source-viewer.md): line 10 is "        total += i * i"
 * (sed -n 10p), its "total" at column 9. A rule maps the server onto the
 * source tree. */
static void
test_devtools_line (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *expected = g_build_filename (fixture->folder, "source-sample.py", NULL);
  g_autofree char *to = g_strconcat (fixture->root, "/", NULL);
  GtkSourceBuffer *buffer = sps_source_panel_get_buffer (SPS_SOURCE_PANEL (fixture->panel));
  SpsSourceRulesEditor *editor = SPS_SOURCE_RULES_EDITOR (sps_test_find_type_name (fixture->panel,
                                                                                   "SpsSourceRulesEditor"));
  g_autofree char *text = NULL;

  sps_source_rules_editor_add_rule (editor, 0, "http://localhost:10200/", to);
  sps_test_wait_until (panel_idle, fixture->panel);

  select_slice (fixture, "FunctionCall");
  g_assert_cmpstr (sps_source_panel_get_path (SPS_SOURCE_PANEL (fixture->panel)), ==, expected);
  g_assert_cmpuint (sps_source_panel_get_line (SPS_SOURCE_PANEL (fixture->panel)), ==, 10);
  g_assert_cmpstr (sps_test_label_text (fixture->panel, "source-location"), ==,
                   "compute — http://localhost:10200/tests/fixtures/source-sample.py:10:9");
  text = line_text (GTK_TEXT_BUFFER (buffer), 9);
  g_assert_cmpstr (text, ==, "        total += i * i");
  assert_marked (buffer, 9);

  sps_test_maybe_screenshot (fixture->window, "source-viewer-devtools");
}

static const char *
scheme_id (GtkSourceBuffer *buffer)
{
  GtkSourceStyleScheme *scheme = gtk_source_buffer_get_style_scheme (buffer);

  return scheme != NULL ? gtk_source_style_scheme_get_id (scheme) : NULL;
}

/* The view's colours follow the app's light or dark theme (Preferences ▸
 * Colour scheme sets the GtkSettings property), through
 * sps_source_scheme_follow() */
static void
test_follows_theme (Fixture       *fixture,
                    gconstpointer  data)
{
  GtkSourceBuffer *buffer = sps_source_panel_get_buffer (SPS_SOURCE_PANEL (fixture->panel));
  GtkSettings *settings = gtk_widget_get_settings (fixture->panel);

  g_assert_cmpstr (scheme_id (buffer), ==, "Adwaita");
  g_object_set (settings, "gtk-application-prefer-dark-theme", TRUE, NULL);
  g_assert_cmpstr (scheme_id (buffer), ==, "Adwaita-dark");
  g_object_set (settings, "gtk-application-prefer-dark-theme", FALSE, NULL);
  g_assert_cmpstr (scheme_id (buffer), ==, "Adwaita");
}

static void
test_no_location (Fixture       *fixture,
                  gconstpointer  data)
{
  select_slice (fixture, "Plain");
  g_assert_null (sps_source_panel_get_path (SPS_SOURCE_PANEL (fixture->panel)));
  g_assert_cmpstr (sps_test_label_text (fixture->panel, "source-message"), ==, _("The selected item names no source file."));
  g_assert_false (gtk_widget_get_visible (sps_test_find_named (fixture->panel, "add-rule-for-file")));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  /* Under LANGUAGE=de the panel speaks German (ui-source-de): the
   * environment's locale (gtk_test_init() set a fixed one), our catalogue,
   * and _() here reads it too */
  setlocale (LC_ALL, "");
  sps_test_bind_locale ();
  textdomain (GETTEXT_PACKAGE);

#define TEST(path, func) \
  g_test_add ("/ui/source/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  TEST ("marked-line", test_shows_marked_line);
  TEST ("missing-file", test_missing_file);
  TEST ("edit-rules", test_edit_rules);
  TEST ("no-location", test_no_location);
  TEST ("devtools-line", test_devtools_line);
  TEST ("follows-theme", test_follows_theme);

#undef TEST

  return g_test_run ();
}
