/* test-ui-flamegraph.c: the flame graph view plugin under Xvfb: breadcrumb
 * zoom, selection sync both ways with the session (and so the timeline),
 * range scoping, filters and search highlighting; screenshots of the
 * timeline above the panel are written to the build directory
 * (flamegraph-*.png) for a person to look at.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-ui-flamegraph"

#include "config.h"

#include <string.h>

#include <spanscope-gtk.h>

#include "sps-test-ui.h"

#include "sps-test-util.h"

#define WIDTH  1280
#define HEIGHT 720

/* The trace (ns), process 7 "Browser":
 *
 * thread 42 "Main" (measured):
 *   boot   [0, 400000)                       startup
 *   frame  [1000000, 17667000)               gfx
 *     layout [2000000, 4000000)              gfx
 *     paint  [5000000, 8000000)              gfx
 *     layout [9000000, 10000000)             gfx
 *     script [11000000, 15500000)            js
 *       gc   [12000000, 13250000)            js
 * thread 42, sampled span tick [20000000, 21500000)
 * thread 43 "Worker":
 *   job    [0, 5000000)                      work
 *     layout [1000000, 2000000)              gfx
 *
 * Measured tree, all threads: root 0.4 + 16.667 + 5 = 22.067 ms; root's
 * children in byte order boot, frame, job; frame's layout, paint,
 * script. */

typedef struct
{
  SpsTrace   *trace;
  SpsSession *session;
  GtkWidget  *window;
  GtkWidget  *timeline;
  GtkWidget  *panel;
  GtkWidget  *chart;
} Fixture;

static void
add_x (SpsTraceBuilder *builder,
       guint32          thread,
       SpsTime          ts,
       SpsTime          dur,
       const char      *name,
       const char      *category,
       SpsSliceFlags    flags)
{
  sps_test_add_complete (builder, thread, ts, dur, name, category, NULL, flags);
}

static SpsTrace *
build_trace (void)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  guint32 process = sps_trace_builder_ensure_process (builder, 7);
  guint32 main_thread = sps_trace_builder_ensure_thread (builder, process, 42);
  guint32 worker = sps_trace_builder_ensure_thread (builder, process, 43);
  SpsTrace *trace;

  sps_trace_builder_set_process_name (builder, process, sps_trace_builder_intern (builder, "Browser", -1));
  sps_trace_builder_set_thread_name (builder, main_thread, sps_trace_builder_intern (builder, "Main", -1));
  sps_trace_builder_set_thread_name (builder, worker, sps_trace_builder_intern (builder, "Worker", -1));

  add_x (builder, main_thread, 0, 400000, "boot", "startup", 0);
  add_x (builder, main_thread, 1000000, 16667000, "frame", "gfx", 0);
  add_x (builder, main_thread, 2000000, 2000000, "layout", "gfx", 0);
  add_x (builder, main_thread, 5000000, 3000000, "paint", "gfx", 0);
  add_x (builder, main_thread, 9000000, 1000000, "layout", "gfx", 0);
  add_x (builder, main_thread, 11000000, 4500000, "script", "js", 0);
  add_x (builder, main_thread, 12000000, 1250000, "gc", "js", 0);
  add_x (builder, main_thread, 20000000, 1500000, "tick", "sampleEvent", SPS_SLICE_SAMPLED);
  add_x (builder, worker, 0, 5000000, "job", "work", 0);
  add_x (builder, worker, 1000000, 1000000, "layout", "gfx", 0);

  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);

  return trace;
}

/* The slice called @name that starts at @ts */
static guint
find_slice (SpsTrace   *trace,
            const char *name,
            SpsTime     ts)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);

  for (guint i = 0; i < slices->n_rows; i++)
    {
      if (slices->ts[i] == ts && g_str_equal (sps_trace_get_string (trace, slices->name[i]), name))
        return i;
    }
  g_assert_not_reached ();
}

static void
wait_until_built (Fixture *fixture)
{
  gboolean building = TRUE;

  for (guint i = 0; i < 10000; i++)
    {
      g_object_get (fixture->panel, "building", &building, NULL);
      if (!building)
        break;
      g_main_context_iteration (NULL, TRUE);
    }
  g_assert_false (building);
  gtk_widget_queue_draw (fixture->chart);
  gtk_test_widget_wait_for_draw (fixture->window);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GPtrArray) views = NULL;
  GtkWidget *paned;
  GtkWidget *scroller;
  SpsView *view = NULL;

  fixture->trace = build_trace ();
  fixture->session = sps_session_new (fixture->trace);

  /* The view comes from the plugin, as the window gets it */
  views = sps_plugin_engine_create_extensions (sps_plugin_engine_get_default (), SPS_TYPE_VIEW);
  for (guint i = 0; i < views->len; i++)
    {
      if (g_str_equal (sps_view_get_title (g_ptr_array_index (views, i)), "Flame Graph"))
        view = g_ptr_array_index (views, i);
    }
  g_assert_nonnull (view);
  g_assert_cmpint (sps_view_get_area (view), ==, SPS_VIEW_AREA_BOTTOM);

  fixture->window = gtk_window_new ();
  paned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  scroller = gtk_scrolled_window_new ();
  fixture->timeline = sps_timeline_new (fixture->session);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), fixture->timeline);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_EXTERNAL);
  gtk_paned_set_start_child (GTK_PANED (paned), scroller);
  fixture->panel = sps_view_create_panel (view, fixture->session);
  gtk_paned_set_end_child (GTK_PANED (paned), fixture->panel);
  gtk_paned_set_position (GTK_PANED (paned), 330);
  gtk_window_set_child (GTK_WINDOW (fixture->window), paned);
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), WIDTH, HEIGHT);
  gtk_window_set_decorated (GTK_WINDOW (fixture->window), FALSE);
  gtk_window_present (GTK_WINDOW (fixture->window));

  fixture->chart = sps_test_find_named (fixture->panel, "flame-chart");
  g_assert_nonnull (fixture->chart);
  wait_until_built (fixture);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  if (fixture->window != NULL)
    gtk_window_destroy (GTK_WINDOW (g_steal_pointer (&fixture->window)));
  g_clear_object (&fixture->session);
  g_clear_object (&fixture->trace);
}

/* The panel's tree, built again here with the same parameters: node
 * numbers are deterministic, so they name the panel's nodes. */
static SpsFlameTree *
measured_tree (Fixture *fixture)
{
  g_autoptr(GError) error = NULL;
  SpsFlameTreeParams params;
  SpsFlameTree *tree;

  sps_flame_tree_params_init (&params, SPS_FLAME_TREE_MEASURED);
  tree = sps_flame_tree_build (fixture->trace, &params, NULL, &error);
  g_assert_no_error (error);

  return tree;
}

static guint
node_at (SpsFlameTree *tree,
         const char   *path)
{
  SpsTrace *trace = sps_flame_tree_get_trace (tree);
  g_auto(GStrv) parts = g_strsplit (path, ";", -1);
  guint node = 0;

  for (guint i = 0; parts[i] != NULL; i++)
    {
      node = sps_flame_tree_find_child (tree, node,
                                        sps_string_pool_lookup (sps_trace_get_strings (trace), parts[i], -1));
      g_assert_cmpuint (node, !=, SPS_NO_INDEX);
    }

  return node;
}

static guint
chart_uint (Fixture    *fixture,
            const char *property)
{
  guint value = 0;

  g_object_get (fixture->chart, property, &value, NULL);

  return value;
}

/* The breadcrumb buttons' labels joined with '/' */
static char *
breadcrumbs (Fixture *fixture)
{
  GtkWidget *box = sps_test_find_named (fixture->panel, "flame-breadcrumbs");
  GString *out = g_string_new (NULL);

  g_assert_nonnull (box);
  for (GtkWidget *child = gtk_widget_get_first_child (box); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      if (!GTK_IS_BUTTON (child))
        continue;
      if (out->len > 0)
        g_string_append_c (out, '/');
      g_string_append (out, gtk_button_get_label (GTK_BUTTON (child)));
    }

  return g_string_free (out, FALSE);
}

static void
click_breadcrumb (Fixture    *fixture,
                  const char *label)
{
  GtkWidget *box = sps_test_find_named (fixture->panel, "flame-breadcrumbs");

  for (GtkWidget *child = gtk_widget_get_first_child (box); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_BUTTON (child) && g_str_equal (gtk_button_get_label (GTK_BUTTON (child)), label))
        {
          g_assert_true (gtk_widget_get_sensitive (child));
          g_signal_emit_by_name (child, "clicked");
          return;
        }
    }
  g_assert_not_reached ();
}

static void
save_screenshot (Fixture    *fixture,
                 const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_BUILT, name, NULL);
  GtkWidget *content = gtk_window_get_child (GTK_WINDOW (fixture->window));

  gtk_widget_queue_draw (content);
  gtk_test_widget_wait_for_draw (fixture->window);
  g_object_unref (sps_test_save_screenshot (content, path));
}

/* Moves the pointer over the chart (the motion controller's signal, as
 * GTK would emit it) and returns the chart's tooltip. */
static char *
hover (Fixture *fixture,
       double   x,
       double   y)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (fixture->chart);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_MOTION (controller))
        g_signal_emit_by_name (controller, "motion", x, y);
    }

  return g_strdup (gtk_widget_get_tooltip_text (fixture->chart));
}

static void
test_zoom_breadcrumbs (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(SpsFlameTree) tree = measured_tree (fixture);
  guint script = node_at (tree, "frame;script");
  guint frame = node_at (tree, "frame");
  g_autofree char *start = breadcrumbs (fixture);
  g_autofree char *zoomed = NULL;
  g_autofree char *back = NULL;
  g_autofree char *home = NULL;
  GtkWidget *status = sps_test_find_named (fixture->panel, "flame-status");

  /* The trace has measured and sampled spans but no samples: measured
   * first; 22.067 ms in all */
  g_assert_cmpstr (start, ==, "all");
  g_assert_cmpuint (chart_uint (fixture, "zoom"), ==, 0);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (status)), ==, "22.07 ms");
  save_screenshot (fixture, "flamegraph-start.png");

  /* Tooltips: script is 4.5 ms of 22.067 (20.4 %), 4.5 − 1.25 ms self;
   * it sits after layout (3 ms) and paint (3 ms) from 0.4 ms on row 2 */
  {
    double width = gtk_widget_get_width (fixture->chart);
    g_autofree char *tip = hover (fixture, width * (6400000.0 + 2250000.0) / 22067000.0, 2 * 20 + 10);

    g_assert_cmpstr (tip, ==,
                     "script\n"
                     "Inclusive: 4.5 ms (20.4%)\n"
                     "Exclusive (self): 3.25 ms\n"
                     "Instances: 1\n"
                     "This function in all stacks: 4.5 ms in 1 outermost call");
  }

  /* Clicking a frame zooms to it */
  g_signal_emit_by_name (fixture->chart, "node-clicked", script);
  g_assert_cmpuint (chart_uint (fixture, "zoom"), ==, script);
  zoomed = breadcrumbs (fixture);
  g_assert_cmpstr (zoomed, ==, "all/frame/script");
  save_screenshot (fixture, "flamegraph-zoomed.png");

  /* The breadcrumb bar goes back one step… */
  click_breadcrumb (fixture, "frame");
  g_assert_cmpuint (chart_uint (fixture, "zoom"), ==, frame);
  back = breadcrumbs (fixture);
  g_assert_cmpstr (back, ==, "all/frame");

  /* …or to the root */
  click_breadcrumb (fixture, "all");
  g_assert_cmpuint (chart_uint (fixture, "zoom"), ==, 0);
  home = breadcrumbs (fixture);
  g_assert_cmpstr (home, ==, "all");
}

static void
test_selection_sync (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(SpsFlameTree) tree = measured_tree (fixture);
  guint layout_node = node_at (tree, "frame;layout");
  guint gc_node = node_at (tree, "frame;script;gc");
  guint job_node = node_at (tree, "job");
  guint layout_long = find_slice (fixture->trace, "layout", 2000000);
  guint layout_short = find_slice (fixture->trace, "layout", 9000000);
  guint gc = find_slice (fixture->trace, "gc", 12000000);
  guint tick = find_slice (fixture->trace, "tick", 20000000);

  /* Frame → timeline: the longest instance (2 ms, not the 1 ms one) */
  g_signal_emit_by_name (fixture->chart, "node-clicked", layout_node);
  g_assert_cmpuint (sps_session_get_selected_slice (fixture->session), ==, layout_long);
  g_assert_cmpuint (chart_uint (fixture, "selected"), ==, layout_node);

  /* Timeline → frame: the other instance is the same frame */
  sps_session_set_selected_slice (fixture->session, layout_short);
  g_assert_cmpuint (chart_uint (fixture, "selected"), ==, layout_node);

  /* A frame outside the zoomed subtree zooms out to show it */
  g_signal_emit_by_name (fixture->chart, "node-clicked", job_node);
  g_assert_cmpuint (chart_uint (fixture, "zoom"), ==, job_node);
  sps_session_set_selected_slice (fixture->session, gc);
  g_assert_cmpuint (chart_uint (fixture, "selected"), ==, gc_node);
  g_assert_cmpuint (chart_uint (fixture, "zoom"), ==, 0);
  save_screenshot (fixture, "flamegraph-selected.png");

  /* A sampled span is not in the measured tree */
  sps_session_set_selected_slice (fixture->session, tick);
  g_assert_cmpuint (chart_uint (fixture, "selected"), ==, SPS_NO_INDEX);

  sps_session_set_selected_slice (fixture->session, SPS_NO_INDEX);
  g_assert_cmpuint (chart_uint (fixture, "selected"), ==, SPS_NO_INDEX);
}

static void
test_scope (Fixture       *fixture,
            gconstpointer  data)
{
  GtkWidget *status = sps_test_find_named (fixture->panel, "flame-status");
  GtkWidget *kind = sps_test_find_named (fixture->panel, "flame-tree-kind");
  GtkWidget *thread = sps_test_find_named (fixture->panel, "flame-thread");
  const SpsThreadTable *threads = sps_trace_get_threads (fixture->trace);
  guint worker = threads->tid[0] == 43 ? 0 : 1;

  /* [11 ms, 14 ms): only frame (and script, gc) overlap: 3 ms */
  sps_session_set_range (fixture->session, 11000000, 14000000);
  wait_until_built (fixture);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (status)), ==, "3 ms");

  sps_session_clear_range (fixture->session);
  wait_until_built (fixture);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (status)), ==, "22.07 ms");

  /* Hiding the worker thread leaves 0.4 + 16.667 ms */
  sps_session_set_thread_hidden (fixture->session, worker, TRUE);
  wait_until_built (fixture);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (status)), ==, "17.07 ms");
  sps_session_set_thread_hidden (fixture->session, worker, FALSE);
  wait_until_built (fixture);

  /* One thread: the worker's job, 5 ms (dropdown: all threads first,
   * then the thread table's order) */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (thread), worker + 1);
  wait_until_built (fixture);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (status)), ==, "5 ms");
  gtk_drop_down_set_selected (GTK_DROP_DOWN (thread), 0);
  wait_until_built (fixture);

  /* Tree kinds: measured and sampled spans (no samples in this trace);
   * the sampled tree has tick's 1.5 ms, an estimate */
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (GTK_DROP_DOWN (kind))), ==, 2);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (kind), 1);
  wait_until_built (fixture);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (status)), ==, "1.5 ms estimated");
  {
    g_autofree char *tip = hover (fixture, 100, 20 + 10);

    /* Estimates say so */
    g_assert_cmpstr (tip, ==,
                     "tick\n"
                     "Estimated CPU time, inclusive: 1.5 ms (100.0%)\n"
                     "Estimated CPU time, exclusive: 1.5 ms\n"
                     "Instances: 1\n"
                     "Sampled spans: the original sample counts are unknown\n"
                     "This function in all stacks: 1.5 ms in 1 outermost call");
  }
}

static void
test_search (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(GdkTexture) texture = NULL;
  int width = gtk_widget_get_width (fixture->chart);
  int height = gtk_widget_get_height (fixture->chart);
  double total = 22067000.0;
  /* Row 2 (depth 2): frame's children start where frame does, after
   * boot's 0.4 ms; layout is 3 ms wide, then paint 3 ms. Probe near the
   * right end of each box, below the labels' ink. */
  int layout_x = (int) (width * (400000.0 + 3000000.0) / total) - 4;
  int paint_x = (int) (width * (400000.0 + 6000000.0) / total) - 4;
  int y = 2 * 20 + 17;

  sps_session_set_search_text (fixture->session, "LAYOUT");
  save_screenshot (fixture, "flamegraph-search.png");
  texture = sps_test_render (fixture->chart, width, height);

  /* The match keeps its colour, the rest is dimmed */
  g_assert_cmphex ((sps_test_pixel_at (texture, layout_x, y) & 0xffffff), ==, sps_test_rgb_of (sps_palette_get_fill_for_name ("layout", FALSE)));
  g_assert_cmphex ((sps_test_pixel_at (texture, paint_x, y) & 0xffffff), !=, sps_test_rgb_of (sps_palette_get_fill_for_name ("paint", FALSE)));

  sps_session_set_search_text (fixture->session, NULL);
  gtk_widget_queue_draw (fixture->chart);
  gtk_test_widget_wait_for_draw (fixture->window);
  g_clear_object (&texture);
  texture = sps_test_render (fixture->chart, width, height);
  g_assert_cmphex ((sps_test_pixel_at (texture, paint_x, y) & 0xffffff), ==, sps_test_rgb_of (sps_palette_get_fill_for_name ("paint", FALSE)));
}

/* A window with the timeline of @path over the flame graph panel, built */
static void
open_trace_window (Fixture    *fixture,
                   const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) views = NULL;
  GtkWidget *paned;
  GtkWidget *scroller;

  fixture->trace = sps_trace_load (file, NULL, NULL, SPS_LOAD_FLAGS_NONE, NULL, NULL, &error);
  g_assert_no_error (error);
  fixture->session = sps_session_new (fixture->trace);

  views = sps_plugin_engine_create_extensions (sps_plugin_engine_get_default (), SPS_TYPE_VIEW);
  fixture->window = gtk_window_new ();
  paned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  scroller = gtk_scrolled_window_new ();
  fixture->timeline = sps_timeline_new (fixture->session);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), fixture->timeline);
  gtk_paned_set_start_child (GTK_PANED (paned), scroller);
  for (guint i = 0; i < views->len; i++)
    {
      if (g_str_equal (sps_view_get_title (g_ptr_array_index (views, i)), "Flame Graph"))
        fixture->panel = sps_view_create_panel (g_ptr_array_index (views, i), fixture->session);
    }
  g_assert_nonnull (fixture->panel);
  gtk_paned_set_end_child (GTK_PANED (paned), fixture->panel);
  gtk_paned_set_position (GTK_PANED (paned), 330);
  gtk_window_set_child (GTK_WINDOW (fixture->window), paned);
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), WIDTH, HEIGHT);
  gtk_window_set_decorated (GTK_WINDOW (fixture->window), FALSE);
  gtk_window_present (GTK_WINDOW (fixture->window));
  fixture->chart = sps_test_find_named (fixture->panel, "flame-chart");
  wait_until_built (fixture);
}

/* A hidden panel builds nothing when the scope changes (the window's
 * other tabs hide it, and a tree of a large trace costs a core for a
 * while); it builds the tree of the scope of the moment when shown. */
static void
test_hidden (Fixture       *fixture,
             gconstpointer  data)
{
  GtkWidget *status = sps_test_find_named (fixture->panel, "flame-status");
  gboolean building = FALSE;

  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (status)), ==, "22.07 ms");
  gtk_widget_set_visible (fixture->panel, FALSE);
  g_assert_false (gtk_widget_get_mapped (fixture->panel));

  /* Two changes while hidden, then half a second: still waiting */
  sps_session_set_range (fixture->session, 2000000, 5000000);
  sps_session_set_range (fixture->session, 11000000, 14000000);
  sps_test_spin (500);
  g_object_get (fixture->panel, "building", &building, NULL);
  g_assert_true (building);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (status)), ==, "Building…");

  /* Shown: the last range's tree, frame (with script, gc) for 3 ms */
  gtk_widget_set_visible (fixture->panel, TRUE);
  wait_until_built (fixture);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (status)), ==, "3 ms");
}

/* The demo trace has all three trees; samples come first. The picture
 * is for a person to look at (flamegraph-samples.png). */
static void
test_demo_samples (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "samples", "demo.trace.json", NULL);
  Fixture fixture = { 0 };
  GtkWidget *kind;
  GtkWidget *status;

  open_trace_window (&fixture, path);

  kind = sps_test_find_named (fixture.panel, "flame-tree-kind");
  status = sps_test_find_named (fixture.panel, "flame-status");
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (GTK_DROP_DOWN (kind))), ==, 3);
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (kind)), ==, 1);
  g_assert_true (g_str_has_suffix (gtk_label_get_text (GTK_LABEL (status)), " samples"));
  {
    g_autofree char *tip = hover (&fixture, 10, 10);

    /* demo.trace.json: 64 P records, 60 of them with "weight": 1,
     * "weightUnit": "ms" (counted with a script over the JSON) */
    g_assert_cmpstr (tip, ==,
                     "all\n"
                     "Samples: 64 inclusive (100.0%), 0 exclusive\n"
                     "Estimated CPU time: 60 ms inclusive, 0 ns exclusive\n"
                     "Time-weight coverage: 60 of 64 samples (94%)");
  }
  save_screenshot (&fixture, "flamegraph-samples.png");

  fixture_tear_down (&fixture, NULL);
}

/* PerfView's CPU trace (the diagsession plugin): the Idle process starts
 * hidden, so the samples tree holds the other 6,681 samples, each worth the
 * trace's sampling interval (PerfInfo CollectionStart: 10,000 × 100 ns);
 * managed frames have their names. The picture is for a person to look at
 * (flamegraph-etl.png). */
static void
test_etl_samples (void)
{
  g_autofree char *path = sps_test_shared_fixture_path ("diagsession", "perfview__net.4.5.2.x86.etl.zip");
  Fixture fixture = { 0 };

  g_test_summary ("PerfView's ETL CPU trace in the flame graph: idle hidden, managed names");
  if (path == NULL)
    return;

  open_trace_window (&fixture, path);
  {
    g_autofree char *tip = hover (&fixture, 10, 10);

    /* Each sample is the trace's 1 ms sampling interval */
    g_assert_cmpstr (tip, ==,
                     "all\n"
                     "Samples: 6681 inclusive (100.0%), 0 exclusive\n"
                     "Estimated CPU time: 6.681 s inclusive, 0 ns exclusive");
  }
  save_screenshot (&fixture, "flamegraph-etl.png");
  fixture_tear_down (&fixture, NULL);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add ("/ui/flamegraph/zoom-breadcrumbs", Fixture, NULL, fixture_set_up, test_zoom_breadcrumbs,
              fixture_tear_down);
  g_test_add ("/ui/flamegraph/selection-sync", Fixture, NULL, fixture_set_up, test_selection_sync,
              fixture_tear_down);
  g_test_add ("/ui/flamegraph/scope", Fixture, NULL, fixture_set_up, test_scope, fixture_tear_down);
  g_test_add ("/ui/flamegraph/search", Fixture, NULL, fixture_set_up, test_search, fixture_tear_down);
  g_test_add ("/ui/flamegraph/hidden", Fixture, NULL, fixture_set_up, test_hidden, fixture_tear_down);
  g_test_add_func ("/ui/flamegraph/demo-samples", test_demo_samples);
  g_test_add_func ("/ui/flamegraph/etl-samples", test_etl_samples);

  return g_test_run ();
}
