/* test-ui-detail-panel.c: the detail panel under Xvfb: summary labels,
 * the Call stack, Children and Arguments tabs, heat bar colours, and the
 * built-in SpsView that docks it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-ui-detail-panel"

#include "config.h"

#include <string.h>

#include <spanscope-gtk.h>

#include "sps-label-tooltip-private.h"
#include "sps-test-ui.h"

#include "sps-test-util.h"

/* The trace (ns), process 7 "Browser", thread 42 "Main":
 *
 *   boot  [0, 400000)
 *   frame [1000000, 17667000)  category "gfx", nested args
 *     layout [2000000, 4000000)
 *     paint  [5000000, 8000000)
 *     layout [9000000, 10000000)
 *     script [11000000, 15500000)
 *       gc   [12000000, 13250000)
 *   sampled span "tick" [20000000, 21500000) on the same thread
 *   "broken" [30000000, 30001000) with args that are not JSON
 *   "huge" [40000000, 40001000) with an array of 300 numbers as args
 *
 * Table order: boot 0, frame 1, layout 2, paint 3, layout 4, script 5,
 * gc 6, broken 7, huge 8 on the measured track; tick 9 on the sampled
 * track. */
enum { BOOT, FRAME, LAYOUT_1, PAINT, LAYOUT_2, SCRIPT, GC, BROKEN, HUGE, TICK };

#define FRAME_ARGS \
  "{\"frame\": 12, \"viewport\": {\"w\": 1280, \"h\": 720}, " \
  "\"layers\": [1, \"two\", true, null, 2.5]}"

typedef struct
{
  SpsTrace   *trace;
  SpsSession *session;
  GtkWidget  *window;
  GtkWidget  *panel;
} Fixture;

static SpsTrace *
build_trace (void)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  guint32 process = sps_trace_builder_ensure_process (builder, 7);
  guint32 thread = sps_trace_builder_ensure_thread (builder, process, 42);
  g_autoptr(GString) huge_args = g_string_new (NULL);
  SpsTrace *trace;

  sps_trace_builder_set_process_name (builder, process, sps_trace_builder_intern (builder, "Browser", -1));
  sps_trace_builder_set_thread_name (builder, thread, sps_trace_builder_intern (builder, "Main", -1));

  sps_test_add_complete (builder, thread, 0, 400000, "boot", "startup", NULL, 0);
  sps_test_add_complete (builder, thread, 1000000, 16667000, "frame", "gfx", FRAME_ARGS, 0);
  sps_test_add_complete (builder, thread, 2000000, 2000000, "layout", "gfx", "{}", 0);
  sps_test_add_complete (builder, thread, 5000000, 3000000, "paint", "gfx", NULL, 0);
  sps_test_add_complete (builder, thread, 9000000, 1000000, "layout", "gfx", NULL, 0);
  sps_test_add_complete (builder, thread, 11000000, 4500000, "script", "js", "\"main.js\"", 0);
  sps_test_add_complete (builder, thread, 12000000, 1250000, "gc", "js", NULL, 0);
  sps_test_add_complete (builder, thread, 20000000, 1500000, "tick", "sampleEvent", NULL, SPS_SLICE_SAMPLED);
  sps_test_add_complete (builder, thread, 30000000, 1000, "broken", "", "{not json", 0);

  g_string_append (huge_args, "{\"values\": [0");
  for (guint i = 1; i < 300; i++)
    g_string_append_printf (huge_args, ", %u", i);
  g_string_append (huge_args, "]}");
  sps_test_add_complete (builder, thread, 40000000, 1000, "huge", "", huge_args->str, 0);

  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);

  return trace;
}

static const char *
label_text (Fixture    *fixture,
            const char *name)
{
  GtkWidget *label = sps_test_find_named (fixture->panel, name);

  g_assert_nonnull (label);
  g_assert_true (GTK_IS_LABEL (label));

  return gtk_label_get_text (GTK_LABEL (label));
}

static GListModel *
view_model (Fixture    *fixture,
            const char *name)
{
  GtkWidget *view = sps_test_find_named (fixture->panel, name);

  g_assert_nonnull (view);
  g_assert_true (GTK_IS_COLUMN_VIEW (view));

  return G_LIST_MODEL (gtk_column_view_get_model (GTK_COLUMN_VIEW (view)));
}

/* The row object at @position (through the GtkTreeListRow of trees). */
static GObject *
dup_row_item (GListModel *model,
              guint       position)
{
  g_autoptr(GObject) row = g_list_model_get_item (model, position);

  g_assert_nonnull (row);
  if (GTK_IS_TREE_LIST_ROW (row))
    return gtk_tree_list_row_get_item (GTK_TREE_LIST_ROW (row));

  return g_steal_pointer (&row);
}

static void
wait_for_draw (Fixture *fixture)
{
  gtk_test_widget_wait_for_draw (fixture->window);
}

static void
select_slice (Fixture *fixture,
              guint    slice)
{
  sps_session_set_selected_slice (fixture->session, slice);
  wait_for_draw (fixture);
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  static const char *names[] = { "boot", "frame", "layout", "paint", "layout", "script", "gc", "broken", "huge", "tick" };
  const SpsSliceTable *slices;

  fixture->trace = build_trace ();
  slices = sps_trace_get_slices (fixture->trace);
  g_assert_cmpuint (slices->n_rows, ==, G_N_ELEMENTS (names));
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_assert_cmpstr (sps_trace_get_string (fixture->trace, slices->name[i]), ==, names[i]);

  fixture->session = sps_session_new (fixture->trace);
  fixture->panel = sps_detail_panel_new (fixture->session);
  fixture->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 1100, 320);
  gtk_window_set_child (GTK_WINDOW (fixture->window), fixture->panel);
  gtk_window_present (GTK_WINDOW (fixture->window));
  wait_for_draw (fixture);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_object_add_weak_pointer (G_OBJECT (fixture->panel), (gpointer *) &fixture->panel);
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  g_assert_null (fixture->panel);

  g_object_add_weak_pointer (G_OBJECT (fixture->session), (gpointer *) &fixture->session);
  g_object_unref (fixture->session);
  g_assert_null (fixture->session);
  g_clear_object (&fixture->trace);
}

static void
test_empty_state (Fixture       *fixture,
                  gconstpointer  data)
{
  GtkWidget *stack = sps_test_find_named (fixture->panel, "detail-stack");

  g_assert_true (sps_detail_panel_get_session (SPS_DETAIL_PANEL (fixture->panel)) == fixture->session);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (stack)), ==, "empty");
  g_assert_cmpstr (label_text (fixture, "empty-label"), ==, "No slice selected");

  select_slice (fixture, FRAME);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (stack)), ==, "slice");

  /* Escape empties it again and lets go of the lists. */
  sps_session_clear (fixture->session);
  wait_for_draw (fixture);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (stack)), ==, "empty");
  g_assert_cmpuint (g_list_model_get_n_items (view_model (fixture, "call-stack-view")), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (view_model (fixture, "children-view")), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (view_model (fixture, "arguments-view")), ==, 0);
}

static void
test_summary (Fixture       *fixture,
              gconstpointer  data)
{
  select_slice (fixture, FRAME);

  g_assert_cmpstr (label_text (fixture, "name-value"), ==, "frame");
  g_assert_cmpstr (label_text (fixture, "category-value"), ==, "gfx");
  g_assert_cmpstr (label_text (fixture, "start-value"), ==, "1 ms");
  /* 16.667 ms to 4 significant digits */
  g_assert_cmpstr (label_text (fixture, "duration-value"), ==, "16.67 ms");
  /* 16.667 - (2 + 3 + 1 + 4.5) = 6.167 ms */
  g_assert_cmpstr (label_text (fixture, "self-time-value"), ==, "6.167 ms");
  g_assert_cmpstr (label_text (fixture, "thread-value"), ==, "Main (tid 42)");
  g_assert_cmpstr (label_text (fixture, "process-value"), ==, "Browser (pid 7)");
  g_assert_false (gtk_widget_get_visible (sps_test_find_named (fixture->panel, "note-label")));

  /* It follows the selection. */
  select_slice (fixture, GC);
  g_assert_cmpstr (label_text (fixture, "name-value"), ==, "gc");
  g_assert_cmpstr (label_text (fixture, "category-value"), ==, "js");
  g_assert_cmpstr (label_text (fixture, "start-value"), ==, "12 ms");
  g_assert_cmpstr (label_text (fixture, "duration-value"), ==, "1.25 ms");
  g_assert_cmpstr (label_text (fixture, "self-time-value"), ==, "1.25 ms");

  /* No category: a dash. */
  select_slice (fixture, BROKEN);
  g_assert_cmpstr (label_text (fixture, "category-value"), ==, "—");
  g_assert_cmpstr (label_text (fixture, "duration-value"), ==, "1 µs");
}

static void
test_sampled_estimates (Fixture       *fixture,
                        gconstpointer  data)
{
  select_slice (fixture, TICK);

  g_assert_cmpstr (label_text (fixture, "name-value"), ==, "tick");
  g_assert_cmpstr (label_text (fixture, "duration-value"), ==, "1.5 ms (estimated)");
  g_assert_cmpstr (label_text (fixture, "self-time-value"), ==, "1.5 ms (estimated)");
  g_assert_true (gtk_widget_get_visible (sps_test_find_named (fixture->panel, "note-label")));
  g_assert_cmpstr (label_text (fixture, "note-label"), ==,
                   "A sampled span: its times are estimated from stack samples.");
}

static void
assert_call_row (GListModel *model,
                 guint       position,
                 const char *name,
                 SpsTime     wall,
                 SpsTime     self_time,
                 SpsTime     child)
{
  g_autoptr(GObject) item = dup_row_item (model, position);
  g_autofree char *item_name = NULL;
  SpsTime item_wall, item_self, item_child;

  g_object_get (item, "name", &item_name, "wall", &item_wall, "self", &item_self, "child", &item_child, NULL);
  g_assert_cmpstr (item_name, ==, name);
  g_assert_cmpint (item_wall, ==, wall);
  g_assert_cmpint (item_self, ==, self_time);
  g_assert_cmpint (item_child, ==, child);
}

static void
test_call_stack (Fixture       *fixture,
                 gconstpointer  data)
{
  GListModel *model;
  g_autoptr(GtkTreeListRow) script_row = NULL;
  g_autoptr(GtkTreeListRow) paint_row = NULL;

  select_slice (fixture, FRAME);
  model = view_model (fixture, "call-stack-view");

  /* The slice, opened on its four children. */
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 5);
  assert_call_row (model, 0, "frame", 16667000, 6167000, 10500000);
  assert_call_row (model, 1, "layout", 2000000, 2000000, 0);
  assert_call_row (model, 2, "paint", 3000000, 3000000, 0);
  assert_call_row (model, 3, "layout", 1000000, 1000000, 0);
  assert_call_row (model, 4, "script", 4500000, 3250000, 1250000);

  /* Only script has children to expand. */
  paint_row = g_list_model_get_item (model, 2);
  g_assert_false (gtk_tree_list_row_is_expandable (paint_row));
  script_row = g_list_model_get_item (model, 4);
  g_assert_true (gtk_tree_list_row_is_expandable (script_row));
  gtk_tree_list_row_set_expanded (script_row, TRUE);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 6);
  assert_call_row (model, 5, "gc", 1250000, 1250000, 0);
  g_assert_cmpuint (gtk_tree_list_row_get_depth (script_row), ==, 1);

  /* Collapsing the root hides everything below it. */
  {
    g_autoptr(GtkTreeListRow) root = g_list_model_get_item (model, 0);

    gtk_tree_list_row_set_expanded (root, FALSE);
    g_assert_cmpuint (g_list_model_get_n_items (model), ==, 1);
  }

  /* A leaf is a single row. */
  select_slice (fixture, BOOT);
  model = view_model (fixture, "call-stack-view");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 1);
  assert_call_row (model, 0, "boot", 400000, 400000, 0);
  g_assert_cmpuint (gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (model)), ==, 0);

  /* A nested slice comes with its ancestors, root first: frame > script >
   * gc, each ancestor open on the next one only (frame's other three
   * children are not listed), and gc's row selected. */
  select_slice (fixture, GC);
  model = view_model (fixture, "call-stack-view");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 3);
  assert_call_row (model, 0, "frame", 16667000, 6167000, 10500000);
  assert_call_row (model, 1, "script", 4500000, 3250000, 1250000);
  assert_call_row (model, 2, "gc", 1250000, 1250000, 0);
  g_assert_cmpuint (gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (model)), ==, 2);
  {
    g_autoptr(GtkTreeListRow) gc_row = g_list_model_get_item (model, 2);

    g_assert_cmpuint (gtk_tree_list_row_get_depth (gc_row), ==, 2);
    g_assert_false (gtk_tree_list_row_is_expandable (gc_row));
  }

  /* Collapsing an ancestor and opening it again shows the path again. */
  {
    g_autoptr(GtkTreeListRow) frame_row = g_list_model_get_item (model, 0);

    gtk_tree_list_row_set_expanded (frame_row, FALSE);
    g_assert_cmpuint (g_list_model_get_n_items (model), ==, 1);
    gtk_tree_list_row_set_expanded (frame_row, TRUE);
    g_assert_cmpuint (g_list_model_get_n_items (model), ==, 2);
    assert_call_row (model, 1, "script", 4500000, 3250000, 1250000);
  }
}

static void
assert_group (GListModel *model,
              guint       position,
              const char *name,
              guint       count,
              SpsTime     total,
              SpsTime     average,
              SpsTime     min,
              SpsTime     max,
              double      fraction)
{
  g_autoptr(GObject) item = dup_row_item (model, position);
  g_autofree char *item_name = NULL;
  SpsTime item_total, item_average, item_min, item_max;
  guint item_count;
  double item_fraction;

  g_object_get (item,
                "name", &item_name,
                "count", &item_count,
                "total", &item_total,
                "average", &item_average,
                "min", &item_min,
                "max", &item_max,
                "fraction", &item_fraction,
                NULL);
  g_assert_cmpstr (item_name, ==, name);
  g_assert_cmpuint (item_count, ==, count);
  g_assert_cmpint (item_total, ==, total);
  g_assert_cmpint (item_average, ==, average);
  g_assert_cmpint (item_min, ==, min);
  g_assert_cmpint (item_max, ==, max);
  g_assert_cmpfloat_with_epsilon (item_fraction, fraction, 1e-12);
}

static void
test_children (Fixture       *fixture,
               gconstpointer  data)
{
  GtkWidget *stack;
  GListModel *model;

  select_slice (fixture, FRAME);
  model = view_model (fixture, "children-view");
  stack = gtk_widget_get_ancestor (gtk_widget_get_parent (sps_test_find_named (fixture->panel, "children-view")),
                                   GTK_TYPE_STACK);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (stack)), ==, "list");

  /* By total, then by count: script 4.5 ms; layout and paint 3 ms each,
   * layout first with two calls. */
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 3);
  assert_group (model, 0, "script", 1, 4500000, 4500000, 4500000, 4500000, 1.0);
  assert_group (model, 1, "layout", 2, 3000000, 1500000, 1000000, 2000000, 3.0 / 4.5);
  assert_group (model, 2, "paint", 1, 3000000, 3000000, 3000000, 3000000, 3.0 / 4.5);

  /* Only direct children: gc is not a child of frame. */
  select_slice (fixture, SCRIPT);
  model = view_model (fixture, "children-view");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 1);
  assert_group (model, 0, "gc", 1, 1250000, 1250000, 1250000, 1250000, 1.0);

  select_slice (fixture, PAINT);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (stack)), ==, "empty");
}

static void
assert_arg_row (GListModel *model,
                guint       position,
                guint       depth,
                const char *key,
                const char *value)
{
  g_autoptr(GtkTreeListRow) row = g_list_model_get_item (model, position);
  g_autoptr(GObject) item = gtk_tree_list_row_get_item (row);
  g_autofree char *item_key = NULL;
  g_autofree char *item_value = NULL;

  g_object_get (item, "name", &item_key, "value", &item_value, NULL);
  g_assert_cmpuint (gtk_tree_list_row_get_depth (row), ==, depth);
  g_assert_cmpstr (item_key, ==, key);
  g_assert_cmpstr (item_value, ==, value);
}

static void
test_arguments (Fixture       *fixture,
                gconstpointer  data)
{
  GListModel *model;
  GtkWidget *stack;

  select_slice (fixture, FRAME);
  model = view_model (fixture, "arguments-view");
  stack = gtk_widget_get_ancestor (gtk_widget_get_parent (sps_test_find_named (fixture->panel, "arguments-view")),
                                   GTK_TYPE_STACK);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (stack)), ==, "list");

  /* Small args open fully, keys in the order written. */
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 10);
  assert_arg_row (model, 0, 0, "frame", "12");
  assert_arg_row (model, 1, 0, "viewport", "2 keys");
  assert_arg_row (model, 2, 1, "w", "1280");
  assert_arg_row (model, 3, 1, "h", "720");
  assert_arg_row (model, 4, 0, "layers", "5 items");
  assert_arg_row (model, 5, 1, "[0]", "1");
  assert_arg_row (model, 6, 1, "[1]", "two");
  assert_arg_row (model, 7, 1, "[2]", "true");
  assert_arg_row (model, 8, 1, "[3]", "null");
  assert_arg_row (model, 9, 1, "[4]", "2.5");

  /* Collapsing "viewport" hides its two members. */
  {
    g_autoptr(GtkTreeListRow) viewport = g_list_model_get_item (model, 1);

    gtk_tree_list_row_set_expanded (viewport, FALSE);
    g_assert_cmpuint (g_list_model_get_n_items (model), ==, 8);
    assert_arg_row (model, 2, 0, "layers", "5 items");
  }

  /* A bare value is one "args" row. */
  select_slice (fixture, SCRIPT);
  model = view_model (fixture, "arguments-view");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 1);
  assert_arg_row (model, 0, 0, "args", "main.js");

  /* No args, empty args and broken args. */
  select_slice (fixture, PAINT);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (stack)), ==, "empty");
  g_assert_cmpstr (label_text (fixture, "arguments-message"), ==, "No arguments");

  select_slice (fixture, LAYOUT_1);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (stack)), ==, "empty");
  g_assert_cmpstr (label_text (fixture, "arguments-message"), ==, "No arguments");

  select_slice (fixture, BROKEN);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (stack)), ==, "empty");
  g_assert_true (g_str_has_prefix (label_text (fixture, "arguments-message"),
                                   "The arguments could not be read: "));

  /* Big args open at their first level only. */
  select_slice (fixture, HUGE);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (stack)), ==, "list");
  model = view_model (fixture, "arguments-view");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 1);
  assert_arg_row (model, 0, 0, "values", "300 items");
  {
    g_autoptr(GtkTreeListRow) values = g_list_model_get_item (model, 0);

    gtk_tree_list_row_set_expanded (values, TRUE);
    g_assert_cmpuint (g_list_model_get_n_items (model), ==, 301);
    assert_arg_row (model, 300, 1, "[299]", "299");
  }
}

/* Renders the window as GTK would and reads one pixel. */
static GdkTexture *
render_window (Fixture *fixture)
{
  GdkTexture *texture = sps_test_render (fixture->window, gtk_widget_get_width (fixture->window),
                                         gtk_widget_get_height (fixture->window));

  if (g_getenv ("SPS_TEST_DETAIL_PANEL_PNG") != NULL)
    gdk_texture_save_to_png (texture, g_getenv ("SPS_TEST_DETAIL_PANEL_PNG"));

  return texture;
}

static void
pixel_at (GdkTexture *texture,
          int         x,
          int         y,
          guint8      rgb[3])
{
  guint32 pixel = sps_test_pixel_at (texture, x, y);

  rgb[0] = (pixel >> 16) & 0xff;
  rgb[1] = (pixel >> 8) & 0xff;
  rgb[2] = pixel & 0xff;
}

static void
collect_drawing_areas (GtkWidget *root,
                       GPtrArray *out)
{
  if (GTK_IS_DRAWING_AREA (root) && gtk_widget_get_mapped (root))
    g_ptr_array_add (out, root);

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_drawing_areas (child, out);
}

/* The heat bars: the largest total fills its track in red; the others
 * are shorter and more yellow. */
static void
test_heat_bars (Fixture       *fixture,
                gconstpointer  data)
{
  GtkWidget *notebook = sps_test_find_named (fixture->panel, "detail-tabs");
  GtkWidget *view;
  g_autoptr(GPtrArray) bars = g_ptr_array_new ();
  g_autoptr(GdkTexture) texture = NULL;
  graphene_rect_t bounds[3];
  guint8 full[3] = { 0 }, part[3], empty_end[3];
  guint order[3];

  select_slice (fixture, FRAME);
  gtk_notebook_set_current_page (GTK_NOTEBOOK (notebook), 1);
  wait_for_draw (fixture);

  view = sps_test_find_named (fixture->panel, "children-view");
  collect_drawing_areas (view, bars);
  g_assert_cmpuint (bars->len, ==, 3);

  for (guint i = 0; i < 3; i++)
    g_assert_true (gtk_widget_compute_bounds (g_ptr_array_index (bars, i), fixture->window, &bounds[i]));

  /* Rows top to bottom: script (1.0), layout (2/3), paint (2/3). */
  for (guint i = 0; i < 3; i++)
    {
      order[i] = 0;
      for (guint j = 0; j < 3; j++)
        if (bounds[j].origin.y < bounds[i].origin.y)
          order[i]++;
    }

  texture = render_window (fixture);

  for (guint i = 0; i < 3; i++)
    {
      const graphene_rect_t *b = &bounds[i];
      int y = (int) (b->origin.y + b->size.height / 2);

      g_assert_cmpfloat (b->size.width, ==, 72);

      if (order[i] == 0)
        {
          /* Full: red at the right end. */
          pixel_at (texture, (int) (b->origin.x + b->size.width - 2), y, full);
          g_assert_cmpuint (full[0], >, 200);
          g_assert_cmpuint (full[1], <, 60);
          g_assert_cmpuint (full[2], <, 60);
        }
      else
        {
          /* Two thirds: orange at the start, the track past its end. */
          pixel_at (texture, (int) (b->origin.x + 2), y, part);
          g_assert_cmpuint (part[0], >, 200);
          g_assert_cmpuint (part[1], >, full[1] + 40);
          g_assert_cmpuint (part[2], <, 60);

          pixel_at (texture, (int) (b->origin.x + b->size.width - 2), y, empty_end);
          g_assert_cmpuint (ABS ((int) empty_end[0] - (int) empty_end[1]), <, 10);
          g_assert_cmpuint (ABS ((int) empty_end[1] - (int) empty_end[2]), <, 10);
        }
    }
}

/* A slice with more children than the call stack opens by itself: the
 * root stays closed (one row) but expandable, and the Children tab still
 * aggregates all of them. */
static void
test_many_children (void)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  guint32 process = sps_trace_builder_ensure_process (builder, 1);
  guint32 thread = sps_trace_builder_ensure_thread (builder, process, 1);
  const guint n = 5001;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsSession) session = NULL;
  g_autoptr(GtkTreeListRow) root = NULL;
  Fixture fixture = { NULL, };
  GListModel *model;

  sps_test_add_complete (builder, thread, 0, 10 * (SpsTime) n, "loop", "", NULL, 0);
  for (guint i = 0; i < n; i++)
    sps_test_add_complete (builder, thread, 10 * (SpsTime) i + 1, i % 1000 == 0 ? 7 : 5,
           i % 1000 == 0 ? "big" : "task", "", NULL, 0);
  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);

  session = sps_session_new (trace);
  fixture.panel = sps_detail_panel_new (session);
  fixture.window = gtk_window_new ();
  gtk_window_set_child (GTK_WINDOW (fixture.window), fixture.panel);
  gtk_window_present (GTK_WINDOW (fixture.window));
  sps_session_set_selected_slice (session, 0);
  wait_for_draw (&fixture);

  model = view_model (&fixture, "call-stack-view");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 1);
  root = g_list_model_get_item (model, 0);
  g_assert_true (gtk_tree_list_row_is_expandable (root));
  g_assert_false (gtk_tree_list_row_get_expanded (root));
  gtk_tree_list_row_set_expanded (root, TRUE);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, n + 1);
  assert_call_row (model, n - 1, "task", 5, 5, 0);
  assert_call_row (model, n, "big", 7, 7, 0);

  /* i = 0, 1000, …, 5000 are "big": 6 of them. */
  model = view_model (&fixture, "children-view");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 2);
  assert_group (model, 0, "task", n - 6, 5 * (SpsTime) (n - 6), 5, 5, 5, 1.0);
  assert_group (model, 1, "big", 6, 42, 7, 7, 7, 42.0 / (5.0 * (n - 6)));

  gtk_window_destroy (GTK_WINDOW (fixture.window));
}

/* A Chrome JSON file through the importer: args are read from the file's
 * own bytes, names from its metadata. */
static void
test_chrome_file (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "cli-small.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsSession) session = NULL;
  Fixture fixture = { NULL, };
  GListModel *model;

  trace = sps_trace_load (file, NULL, NULL, 0, NULL, NULL, &error);
  g_assert_no_error (error);
  session = sps_session_new (trace);
  fixture.panel = sps_detail_panel_new (session);
  fixture.window = gtk_window_new ();
  gtk_window_set_child (GTK_WINDOW (fixture.window), fixture.panel);
  gtk_window_present (GTK_WINDOW (fixture.window));

  /* main [100,150) µs holds inner [110,120). */
  sps_session_set_selected_slice (session, sps_test_find_slice (trace, "main", 0));
  wait_for_draw (&fixture);
  g_assert_cmpstr (label_text (&fixture, "name-value"), ==, "main");
  g_assert_cmpstr (label_text (&fixture, "category-value"), ==, "app");
  g_assert_cmpstr (label_text (&fixture, "start-value"), ==, "0 ns");
  g_assert_cmpstr (label_text (&fixture, "duration-value"), ==, "50 µs");
  g_assert_cmpstr (label_text (&fixture, "self-time-value"), ==, "40 µs");
  g_assert_cmpstr (label_text (&fixture, "thread-value"), ==, "Thread 1");
  g_assert_cmpstr (label_text (&fixture, "process-value"), ==, "cli-small (pid 1)");

  model = view_model (&fixture, "arguments-view");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 1);
  assert_arg_row (model, 0, 0, "n", "1");

  model = view_model (&fixture, "children-view");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 1);
  assert_group (model, 0, "inner", 1, 10000, 10000, 10000, 10000, 1.0);

  /* A sampled span on the named thread. */
  sps_session_set_selected_slice (session, sps_test_find_slice (trace, "hot", 0));
  wait_for_draw (&fixture);
  g_assert_cmpstr (label_text (&fixture, "start-value"), ==, "50 µs");
  g_assert_cmpstr (label_text (&fixture, "duration-value"), ==, "4 µs (estimated)");
  g_assert_cmpstr (label_text (&fixture, "thread-value"), ==, "worker (tid 2)");

  gtk_window_destroy (GTK_WINDOW (fixture.window));
}

/* Slices recorded with stacks (sf/esf, an inline stack on a B and the sf
 * of its E) show them leaf first; a slice without one hides the fields */
static void
test_slice_stacks (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "chrome-slice-stacks.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsSession) session = NULL;
  Fixture fixture = { NULL, };

  trace = sps_trace_load (file, NULL, NULL, 0, NULL, NULL, &error);
  g_assert_no_error (error);
  session = sps_session_new (trace);
  fixture.panel = sps_detail_panel_new (session);
  fixture.window = gtk_window_new ();
  gtk_window_set_child (GTK_WINDOW (fixture.window), fixture.panel);
  gtk_window_present (GTK_WINDOW (fixture.window));

  sps_session_set_selected_slice (session, sps_test_find_slice (trace, "X1", 0));
  wait_for_draw (&fixture);
  g_assert_cmpstr (label_text (&fixture, "stack-value"), ==, "run\nmain");
  g_assert_cmpstr (label_text (&fixture, "end-stack-value"), ==, "done\nrun\nmain");
  g_assert_true (gtk_widget_get_visible (sps_test_find_named (fixture.panel, "end-stack-value")));

  sps_session_set_selected_slice (session, sps_test_find_slice (trace, "B1", 0));
  wait_for_draw (&fixture);
  g_assert_cmpstr (label_text (&fixture, "stack-value"), ==, "loop\nmain");
  g_assert_cmpstr (label_text (&fixture, "end-stack-value"), ==, "main");

  sps_session_set_selected_slice (session, sps_test_find_slice (trace, "X4", 0));
  wait_for_draw (&fixture);
  g_assert_false (gtk_widget_get_visible (sps_test_find_named (fixture.panel, "stack-value")));
  g_assert_false (gtk_widget_get_visible (sps_test_find_named (fixture.panel, "end-stack-value")));

  gtk_window_destroy (GTK_WINDOW (fixture.window));
}

static void
test_detail_view (void)
{
  g_autoptr(SpsView) view = sps_detail_view_new ();
  g_autoptr(SpsTrace) trace = build_trace ();
  g_autoptr(SpsSession) session = sps_session_new (trace);
  GtkWidget *panel;

  g_assert_true (SPS_IS_VIEW (view));
  g_assert_true (SPS_IS_DETAIL_VIEW (view));
  g_assert_cmpstr (sps_view_get_title (view), ==, "Details");
  g_assert_cmpstr (sps_view_get_icon_name (view), ==, "dialog-information-symbolic");
  g_assert_cmpint (sps_view_get_area (view), ==, SPS_VIEW_AREA_BOTTOM);

  panel = g_object_ref_sink (sps_view_create_panel (view, session));
  g_assert_true (SPS_IS_DETAIL_PANEL (panel));
  g_assert_true (sps_detail_panel_get_session (SPS_DETAIL_PANEL (panel)) == session);
  g_object_unref (panel);
}

/* A cell gives its whole text as a tooltip only when it cuts it short,
 * and sets no tooltip when bound (sps-label-tooltip-private.h) */
static void
test_cut_text_tooltips (Fixture       *fixture,
                        gconstpointer  data)
{
  static const char long_text[] = "a name far too long for the sixty pixels it is given";
  GtkWidget *cell;
  GtkWidget *window;
  GtkWidget *label;
  g_autofree char *cut = NULL;

  select_slice (fixture, FRAME);
  cell = sps_test_find_label (sps_test_find_named (fixture->panel, "arguments-view"), "1280");
  g_assert_nonnull (cell);
  g_assert_true (gtk_widget_get_has_tooltip (cell));
  g_assert_null (gtk_widget_get_tooltip_text (cell));
  g_assert_null (_sps_label_dup_cut_text (GTK_LABEL (cell)));

  window = gtk_window_new ();
  label = gtk_label_new (long_text);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_window_set_default_size (GTK_WINDOW (window), 60, 20);
  gtk_window_set_child (GTK_WINDOW (window), label);
  gtk_window_present (GTK_WINDOW (window));
  gtk_test_widget_wait_for_draw (window);
  cut = _sps_label_dup_cut_text (GTK_LABEL (label));
  g_assert_cmpstr (cut, ==, long_text);
  gtk_window_destroy (GTK_WINDOW (window));
}

#define TEST(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  TEST ("/ui/detail-panel/empty-state", test_empty_state);
  TEST ("/ui/detail-panel/summary", test_summary);
  TEST ("/ui/detail-panel/sampled-estimates", test_sampled_estimates);
  TEST ("/ui/detail-panel/call-stack", test_call_stack);
  TEST ("/ui/detail-panel/children", test_children);
  TEST ("/ui/detail-panel/arguments", test_arguments);
  TEST ("/ui/detail-panel/heat-bars", test_heat_bars);
  TEST ("/ui/detail-panel/cut-text-tooltips", test_cut_text_tooltips);
  g_test_add_func ("/ui/detail-panel/many-children", test_many_children);
  g_test_add_func ("/ui/detail-panel/chrome-file", test_chrome_file);
  g_test_add_func ("/ui/detail-panel/slice-stacks", test_slice_stacks);
  g_test_add_func ("/ui/detail-panel/view", test_detail_view);

  return g_test_run ();
}
