/* test-ui-diagnostics.c: the diagnostics panel, the memory in the header
 * bar, and `spanscope --trace` of a window's frames
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Set SPS_TEST_DIAGNOSTICS_PNG to a file name to keep a screenshot of
 * the window with the panel open, SPS_TEST_DIAGNOSTICS_FILE to open
 * another trace than the demo, SPS_TEST_DIAGNOSTICS_LANGUAGE to show it
 * in another language (de).
 */

#define G_LOG_DOMAIN "test-ui-diagnostics"

#include "config.h"

#include <locale.h>
#include <string.h>
#include <unistd.h>

#include <spanscope-gtk.h>

#include "sps-application.h"
#include "sps-diagnostics-panel.h"
#include "sps-window.h"

#include "sps-test-shell.h"
#include "sps-test-ui.h"
#include "sps-test-util.h"

static SpsApplication *app;

static SpsWindow *
open_trace (const char *path)
{
  SpsWindow *window = sps_test_open_loaded (app, path, 1200, 800);

  /* Past the stack's crossfade from the loading page. */
  sps_test_spin (400);

  return window;
}

/* The demo, or SPS_TEST_DIAGNOSTICS_FILE (to look at the panel on a
 * denser trace) */
static SpsWindow *
open_demo (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "samples", "demo.trace.json", NULL);
  const char *other = g_getenv ("SPS_TEST_DIAGNOSTICS_FILE");

  return open_trace (other != NULL ? other : path);
}

static void
set_diagnostics (SpsWindow *window,
                 gboolean   on)
{
  g_action_group_change_action_state (G_ACTION_GROUP (window), "diagnostics", g_variant_new_boolean (on));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  sps_test_spin (50);
}

static SpsDiagnosticsPanel *
find_panel (SpsWindow *window)
{
  GtkWidget *panel = sps_test_find_descendant (GTK_WIDGET (window), SPS_TYPE_DIAGNOSTICS_PANEL);

  return panel != NULL ? SPS_DIAGNOSTICS_PANEL (panel) : NULL;
}

/* One frame of the timeline, drawn by the window. (Not
 * sps_test_redraw(): its render into a texture finds no node when the
 * panel's timer queued a draw in between.) */
static void
redraw (SpsWindow   *window,
        SpsTimeline *timeline)
{
  gtk_widget_queue_draw (GTK_WIDGET (timeline));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
}

/* Frames are counted as they are drawn: N redraws of the timeline, N
 * more frames in the panel; the measured split adds up; closing the
 * panel turns the measuring off again. */
static void
test_diagnostics_frames (void)
{
  SpsWindow *window = open_demo ();
  SpsTimeline *timeline = SPS_TIMELINE (sps_test_find_descendant (GTK_WIDGET (window), SPS_TYPE_TIMELINE));
  SpsDiagnosticsPanel *panel;
  SpsTimelineStats stats;
  GtkWidget *notebook;
  guint64 before;

  /* Not there until asked for, and the timeline does not measure */
  g_assert_null (find_panel (window));
  g_assert_false (sps_timeline_get_collect_stats (timeline));

  set_diagnostics (window, TRUE);
  panel = find_panel (window);
  g_assert_nonnull (panel);
  notebook = gtk_widget_get_ancestor (GTK_WIDGET (panel), GTK_TYPE_NOTEBOOK);
  gtk_notebook_set_current_page (GTK_NOTEBOOK (notebook),
                                 gtk_notebook_page_num (GTK_NOTEBOOK (notebook), GTK_WIDGET (panel)));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  sps_test_spin (50);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (panel)));
  g_assert_true (sps_timeline_get_collect_stats (timeline));

  /* A new scale: the rows are painted again, not taken from the cache */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.zoom-in", NULL));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));

  before = sps_diagnostics_panel_get_frames (panel);
  g_assert_cmpuint (before, >, 0);
  for (guint i = 0; i < 5; i++)
    redraw (window, timeline);
  /* Five frames drawn, five counted */
  g_assert_cmpuint (sps_diagnostics_panel_get_frames (panel), ==, before + 5);

  sps_timeline_get_stats (timeline, &stats);
  g_assert_cmpuint (stats.frames, ==, before + 5);
  /* Measured while the panel shows: the split is part of the whole */
  g_assert_cmpint (stats.build_ns, >, 0);
  g_assert_cmpint (stats.rows_ns, >, 0);
  g_assert_cmpint (stats.rows_ns + stats.overlays_ns + stats.ruler_ns, <=, stats.build_ns);
  g_assert_cmpuint (stats.render_nodes, >, 10);
  /* The frame at the new scale painted the slices: drawn or merged */
  g_assert_cmpuint (stats.items_drawn + stats.items_merged, >, 0);

  /* Two updates a tick apart: the frame rate of the redraws above */
  sps_diagnostics_panel_update (panel);
  redraw (window, timeline);
  sps_test_spin (300);
  sps_diagnostics_panel_update (panel);

  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  if (g_getenv ("SPS_TEST_DIAGNOSTICS_PNG") != NULL)
    g_object_unref (sps_test_save_screenshot (GTK_WIDGET (window), g_getenv ("SPS_TEST_DIAGNOSTICS_PNG")));

  /* Closed: gone, and frames are neither timed nor their nodes counted
   * (the last measured numbers stay), while frames are still counted */
  set_diagnostics (window, FALSE);
  g_assert_null (find_panel (window));
  g_assert_false (sps_timeline_get_collect_stats (timeline));
  sps_timeline_get_stats (timeline, &stats);
  before = stats.frames;
  {
    SpsTimelineStats after;

    redraw (window, timeline);
    sps_timeline_get_stats (timeline, &after);
    g_assert_cmpuint (after.frames, ==, before + 1);
    g_assert_cmpint (after.build_ns, ==, stats.build_ns);
    g_assert_cmpuint (after.render_nodes, ==, stats.render_nodes);
  }

  sps_test_close_window (window);
}

static gboolean
match_name (GtkWidget     *widget,
            gconstpointer  name)
{
  return g_strcmp0 (gtk_widget_get_name (widget), name) == 0;
}

/* The header bar's memory: "N MB" with N between 1 and the machine's
 * memory */
static void
test_diagnostics_memory_label (void)
{
  SpsWindow *window = open_demo ();
  GtkWidget *titlebar = gtk_window_get_titlebar (GTK_WINDOW (window));
  GtkWidget *label = sps_test_find_widget (titlebar, match_name, "memory-label");
  guint64 machine = (guint64) sysconf (_SC_PHYS_PAGES) * (guint64) sysconf (_SC_PAGESIZE) / 1000000;
  const char *text;
  guint64 mb;
  char *end;

  g_assert_nonnull (label);
  g_assert_true (gtk_widget_get_mapped (label));
  text = gtk_label_get_text (GTK_LABEL (label));
  g_test_message ("memory label: %s (machine %" G_GUINT64_FORMAT " MB)", text, machine);
  mb = g_ascii_strtoull (text, &end, 10);
  g_assert_cmpstr (end, ==, " MB");
  g_assert_cmpuint (mb, >=, 1);
  g_assert_cmpuint (mb, <=, machine);
  g_assert_cmpuint (sps_diagnostics_read_rss () / 1000000, >=, 1);

  sps_test_close_window (window);
}

static guint32
thread_of (SpsTrace *trace,
           guint     slice)
{
  return sps_trace_get_tracks (trace)->thread[sps_trace_get_slices (trace)->track[slice]];
}

/* `spanscope --trace OUT.json --screenshot PNG FILE`: the window's frames
 * are in OUT.json, each with its rows, overlays and ruler inside it */
static void
test_diagnostics_trace_window (void)
{
  const char *exe = g_getenv ("SPANSCOPE_EXE");
  g_autofree char *demo = g_test_build_filename (G_TEST_DIST, "..", "data", "samples", "demo.trace.json", NULL);
  g_autofree char *dir = g_dir_make_tmp ("spanscope-test-trace-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "self.json", NULL);
  g_autofree char *png = g_build_filename (dir, "shot.png", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  const SpsSliceTable *slices;
  guint frames = 0;
  guint rows = 0;

  g_assert_nonnull (exe);
  process = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, &error, exe, "--trace", out, "--screenshot", png, demo, NULL);
  g_assert_no_error (error);
  g_subprocess_wait_check (process, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_file_test (png, G_FILE_TEST_EXISTS));

  trace = sps_test_load_path (out);
  slices = sps_trace_get_slices (trace);
  for (guint i = 0; i < slices->n_rows; i++)
    {
      const char *name = sps_trace_get_string (trace, slices->name[i]);
      const char *parent = slices->parent[i] != SPS_NO_INDEX ? sps_trace_get_string (trace, slices->name[slices->parent[i]]) : NULL;

      if (g_str_equal (name, "frame"))
        frames++;
      if (g_str_equal (name, "frame/rows"))
        rows++;
      if (g_str_equal (name, "frame/rows") || g_str_equal (name, "frame/overlays") ||
               g_str_equal (name, "frame/ruler"))
        g_assert_cmpstr (parent, ==, "frame");
    }
  g_assert_cmpuint (frames, >=, 1);
  g_assert_cmpuint (rows, ==, frames);
  /* The load is there too, on another thread than the frames */
  g_assert_cmpint (thread_of (trace, sps_test_find_slice (trace, "finish", 0)), !=,
                   thread_of (trace, sps_test_find_slice (trace, "frame", 0)));

  sps_test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  sps_test_bind_locale ();
  /* To look at the panel in another language, before anything is
   * translated (GLib decides once whether to translate; glibc rereads
   * LANGUAGE once setlocale() runs again) */
  if (g_getenv ("SPS_TEST_DIAGNOSTICS_LANGUAGE") != NULL)
    {
      g_setenv ("LANGUAGE", g_getenv ("SPS_TEST_DIAGNOSTICS_LANGUAGE"), TRUE);
      setlocale (LC_ALL, "");
    }

  app = sps_test_register_app ();

  g_test_add_func ("/ui/diagnostics/frames", test_diagnostics_frames);
  g_test_add_func ("/ui/diagnostics/memory-label", test_diagnostics_memory_label);
  g_test_add_func ("/ui/diagnostics/trace-window", test_diagnostics_trace_window);

  return g_test_run ();
}
