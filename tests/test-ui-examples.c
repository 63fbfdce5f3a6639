/* test-ui-examples.c: the four example plugins (examples/plugins/) in the
 * application's window: the C importer and the C view as built outside
 * the tree against the installed SDK by test-sdk-examples.sh, which runs
 * this program under Xvfb with SPANSCOPE_PLUGIN_PATH pointing at those
 * builds and at the Python examples' folders. Not a test on its own.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Set SPS_TEST_SCREENSHOT_DIR to a folder to keep examples-*.png.
 */

#define G_LOG_DOMAIN "test-ui-examples"

#include "config.h"

#include <spanscope-gtk.h>

#include "sps-timeline-layout-private.h"
#include "sps-timeline-private.h"
#include "sps-window.h"

#include "sps-test-shell.h"
#include "sps-test-ui.h"
#include "sps-test-util.h"

static SpsApplication *app;

static const char *
label_text (GtkWidget  *root,
            const char *name)
{
  GtkWidget *label = sps_test_find_named (root, name);

  g_assert_nonnull (label);
  return gtk_label_get_text (GTK_LABEL (label));
}

static SpsWindow *
open_example (const char *folder,
              const char *file)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "examples", "plugins", folder, file, NULL);

  return sps_test_open_loaded (app, path, 1280, 800);
}

/* The timeline row of the counter "Slices" of @process with @series;
 * SPS_NO_INDEX when the timeline has none */
static guint
counter_row (SpsWindow  *window,
             guint       process,
             const char *series)
{
  SpsTrace *trace = sps_session_get_trace (sps_window_get_session (window));
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  GtkWidget *timeline = sps_test_find_descendant (GTK_WIDGET (window), SPS_TYPE_TIMELINE);
  SpsTimelineLayout *layout = _sps_timeline_get_layout (SPS_TIMELINE (timeline));

  for (guint i = 0; i < _sps_timeline_layout_get_n_rows (layout); i++)
    {
      const SpsTimelineRow *row = _sps_timeline_layout_get_row (layout, i);

      if (row->kind == SPS_TIMELINE_ROW_COUNTER && row->process == process &&
          g_str_equal (sps_trace_get_string (trace, tracks->name[row->track]), "Slices") &&
          g_str_equal (sps_trace_get_string (trace, tracks->series[row->track]), series))
        return i;
    }
  return SPS_NO_INDEX;
}

/* Selects the slice @name, then asserts that the panel's heading is
 * @title and that its rows are exactly @args: key, value, key, value…,
 * NULL-terminated */
static void
select_and_check (SpsWindow   *window,
                  const char  *name,
                  const char  *title,
                  const char **args)
{
  SpsSession *session = sps_window_get_session (window);
  guint n = 0;
  g_autofree char *last = NULL;

  sps_session_set_selected_slice (session, sps_test_find_slice (sps_session_get_trace (session), name, 0));
  g_assert_cmpstr (label_text (GTK_WIDGET (window), "args-title"), ==, title);

  for (; args[2 * n] != NULL; n++)
    {
      g_autofree char *key = g_strdup_printf ("arg-key-%u", n);
      g_autofree char *value = g_strdup_printf ("arg-value-%u", n);

      g_assert_cmpstr (label_text (GTK_WIDGET (window), key), ==, args[2 * n]);
      g_assert_cmpstr (label_text (GTK_WIDGET (window), value), ==, args[2 * n + 1]);
    }
  last = g_strdup_printf ("arg-key-%u", n);
  g_assert_null (sps_test_find_named (GTK_WIDGET (window), last));
}

/* example.spans read by the C importer, counted by the Python analysis,
 * a slice's args listed by the C view. By hand from example.spans: parse
 * has {"bytes":4096,"cached":false}, render {"layers":["bg","text"],
 * "scale":1.5}, idle none; all is process 1 (index 0), with the
 * categories app, io (twice), gfx and one without. */
static void
test_examples_window (void)
{
  SpsWindow *window = open_example ("spans-importer", "example.spans");
  SpsSession *session = sps_window_get_session (window);
  SpsTrace *trace = sps_session_get_trace (session);
  const char *series[] = { "(none)", "app", "gfx", "io" };
  GtkWidget *title;

  g_assert_cmpstr (sps_trace_get_format (trace), ==, "spans");
  g_assert_cmpuint (sps_trace_get_slices (trace)->n_rows, ==, 5);

  /* The analysis' counters are rows of the timeline, one per category */
  for (guint i = 0; i < G_N_ELEMENTS (series); i++)
    g_assert_cmpuint (counter_row (window, 0, series[i]), !=, SPS_NO_INDEX);
  g_assert_cmpuint (counter_row (window, 0, "cpu"), ==, SPS_NO_INDEX);

  /* The view's panel, docked in the window, follows the selection */
  title = sps_test_find_named (GTK_WIDGET (window), "args-title");
  g_assert_nonnull (title);
  sps_test_show_dock_page (title);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (title)), ==, "No slice selected");

  select_and_check (window, "parse", "parse: 2 args",
                    (const char *[]) { "bytes", "4096", "cached", "false", NULL });
  select_and_check (window, "idle", "idle: no args", (const char *[]) { NULL });
  /* A string as it is, anything else as JSON text, in the file's order */
  select_and_check (window, "main", "main: 2 args",
                    (const char *[]) { "url", "/index", "frame", "1", NULL });
  select_and_check (window, "render", "render: 2 args",
                    (const char *[]) { "layers", "[\"bg\",\"text\"]", "scale", "1.5", NULL });

  sps_test_maybe_screenshot (GTK_WIDGET (window), "examples-spans");

  sps_session_set_selected_slice (session, SPS_NO_INDEX);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (title)), ==, "No slice selected");

  sps_test_close_window (window);
}

/* example.tiny read by the Python importer, counted by the Python
 * analysis: three slices without a category in process 10 (index 0) */
static void
test_examples_python_importer (void)
{
  SpsWindow *window = open_example ("tinytrace-importer", "example.tiny");
  SpsTrace *trace = sps_session_get_trace (sps_window_get_session (window));

  g_assert_cmpstr (sps_trace_get_format (trace), ==, "tinytrace");
  g_assert_cmpuint (sps_trace_get_slices (trace)->n_rows, ==, 3);
  g_assert_cmpuint (counter_row (window, 0, "(none)"), !=, SPS_NO_INDEX);

  sps_test_maybe_screenshot (GTK_WIDGET (window), "examples-tiny");
  sps_test_close_window (window);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  gtk_test_init (&argc, &argv, NULL);
  app = sps_test_register_app ();

  g_test_add_func ("/examples/window/spans", test_examples_window);
  g_test_add_func ("/examples/window/tinytrace", test_examples_python_importer);

  ret = g_test_run ();
  g_clear_object (&app);

  return ret;
}
