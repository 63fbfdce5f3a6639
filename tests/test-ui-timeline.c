/* test-ui-timeline.c: the timeline widget under a display
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <spanscope-gtk.h>

#include "sps-palette-private.h"
#include "sps-time-ruler-private.h"
#include "sps-timeline-private.h"

#include "sps-test-ui.h"

#include "sps-test-util.h"

#define WIDTH  800
#define HEIGHT 400

typedef struct
{
  SpsTrace    *trace;
  SpsSession  *session;
  GtkWidget   *window;
  GtkWidget   *timeline;
} Fixture;

static void
present (Fixture  *fixture,
         SpsTrace *trace)
{
  fixture->trace = trace;
  fixture->session = sps_session_new (trace);
  fixture->window = sps_test_present_timeline (fixture->session, WIDTH, HEIGHT, &fixture->timeline);
  /* The positions below are for a gutter of 200 px, not one fitted to
   * the labels (test-ui-timeline-controls.c tests that) */
  sps_timeline_set_gutter_auto (SPS_TIMELINE (fixture->timeline), FALSE);
  sps_timeline_set_gutter_width (SPS_TIMELINE (fixture->timeline), 200);
  gtk_widget_queue_draw (fixture->timeline);
  gtk_test_widget_wait_for_draw (fixture->window);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  present (fixture, sps_test_load_fixture ("chrome-phase-x.json"));
}

static void
fixture_set_up_v8 (Fixture       *fixture,
                   gconstpointer  data)
{
  present (fixture, sps_test_load_fixture ("chrome-v8-chunks.json"));
}

/* Two decoded events on thread 10 (GC/Start at 1 ms with fields, GC/Stop
 * at 1.5 ms without) and plain instants on thread 11, one at 1.2 ms whose
 * arg needs escaping */
static void
fixture_set_up_events (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  guint32 process = sps_trace_builder_ensure_process (b, 1);
  guint32 t10 = sps_trace_builder_ensure_thread (b, process, 10);
  guint32 t11 = sps_trace_builder_ensure_thread (b, process, 11);
  guint32 clr = sps_trace_builder_intern (b, "Microsoft-Windows-DotNETRuntime", -1);
  SpsTrace *trace;

  sps_trace_builder_add_event (b, t10, 1000000, clr,
                               sps_trace_builder_intern (b, "Microsoft-Windows-DotNETRuntime/GC/Start", -1),
                               SPS_EVENT_DESCRIPTOR (1, 2, 1),
                               sps_trace_builder_add_args_text (b, "{\"Count\":1,\"Reason\":\"AllocSmall\",\"Depth\":0}", -1));
  sps_trace_builder_add_event (b, t10, 1500000, clr,
                               sps_trace_builder_intern (b, "Microsoft-Windows-DotNETRuntime/GC/Stop", -1),
                               SPS_EVENT_DESCRIPTOR (2, 1, 2), SPS_ARGS_REF_NONE);
  sps_trace_builder_add_instant (b, SPS_INSTANT_KIND_INSTANT, SPS_INSTANT_SCOPE_THREAD, process, t11, 1200000,
                                 sps_trace_builder_intern (b, "marker", -1), 0,
                                 sps_trace_builder_add_args_text (b, "{\"note\":\"a<b\"}", -1));
  /* An event of 18 fields at 2 ms: f0 … f17 */
  {
    g_autoptr(GString) many = g_string_new ("{");

    for (guint i = 0; i < 18; i++)
      g_string_append_printf (many, "%s\"f%u\":%u", i > 0 ? "," : "", i, i);
    g_string_append_c (many, '}');
    sps_trace_builder_add_event (b, t10, 2000000, clr,
                                 sps_trace_builder_intern (b, "Microsoft-Windows-DotNETRuntime/GC/HeapStats", -1),
                                 SPS_EVENT_DESCRIPTOR (4, 1, 0),
                                 sps_trace_builder_add_args_text (b, many->str, (gssize) many->len));
  }
  /* Marks at 0 and 3 ms, so that the windows below are inside the trace */
  sps_trace_builder_add_instant (b, SPS_INSTANT_KIND_INSTANT, SPS_INSTANT_SCOPE_THREAD, process, t11, 0,
                                 sps_trace_builder_intern (b, "begin", -1), 0, SPS_ARGS_REF_NONE);
  sps_trace_builder_add_instant (b, SPS_INSTANT_KIND_INSTANT, SPS_INSTANT_SCOPE_THREAD, process, t11, 3000000,
                                 sps_trace_builder_intern (b, "end", -1), 0, SPS_ARGS_REF_NONE);
  trace = sps_trace_builder_finish (b, NULL, &error);
  g_assert_no_error (error);
  present (fixture, trace);
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

/* round() of a positive value, without libm */
static double
round_px (double x)
{
  return (double) (gint64) (x + 0.5);
}

static guint
find_process (SpsTrace *trace,
              gint64    pid)
{
  const SpsProcessTable *processes = sps_trace_get_processes (trace);

  for (guint i = 0; i < processes->n_rows; i++)
    if (processes->pid[i] == pid)
      return i;

  g_assert_not_reached ();
  return SPS_NO_INDEX;
}

static void
wait_for_draw (Fixture *fixture)
{
  gtk_widget_queue_draw (fixture->timeline);
  gtk_test_widget_wait_for_draw (fixture->window);
}

static void
check_visible (Fixture *fixture,
               SpsTime  start,
               SpsTime  end)
{
  g_assert_cmpint (sps_session_get_visible_start (fixture->session), ==, start);
  g_assert_cmpint (sps_session_get_visible_end (fixture->session), ==, end);
}

static void
test_zoom_pan (Fixture       *fixture,
               gconstpointer  data)
{
  sps_session_set_visible (fixture->session, 0, 150000);
  check_visible (fixture, 0, 150000);

  /* Keys zoom by 1.5 around the middle when the pointer is elsewhere. */
  g_assert_true (gtk_widget_activate_action (fixture->timeline, "timeline.zoom-in", NULL));
  check_visible (fixture, 25000, 125000);
  g_assert_true (gtk_widget_activate_action (fixture->timeline, "timeline.zoom-out", NULL));
  check_visible (fixture, 0, 150000);

  /* Panning moves by 15 % of the window. */
  g_assert_true (gtk_widget_activate_action (fixture->timeline, "timeline.pan-right", NULL));
  check_visible (fixture, 22500, 172500);
  g_assert_true (gtk_widget_activate_action (fixture->timeline, "timeline.pan-left", NULL));
  g_assert_true (gtk_widget_activate_action (fixture->timeline, "timeline.pan-left", NULL));
  check_visible (fixture, -22500, 127500);

  /* Fit, without a selection or a range: the whole trace. */
  g_assert_true (gtk_widget_activate_action (fixture->timeline, "timeline.fit", NULL));
  check_visible (fixture, sps_trace_get_start_time (fixture->trace), sps_trace_get_end_time (fixture->trace));

  g_assert_false (gtk_widget_activate_action (fixture->timeline, "timeline.no-such-action", NULL));
}

static void
test_select (Fixture       *fixture,
             gconstpointer  data)
{
  SpsTimeline *timeline = SPS_TIMELINE (fixture->timeline);
  guint outer = sps_test_find_slice (fixture->trace, "outer", 0);
  guint inner = sps_test_find_slice (fixture->trace, "inner", 0);
  guint leaf = sps_test_find_slice (fixture->trace, "leaf", 0);
  int gutter = sps_timeline_get_gutter_width (timeline);
  double npp;
  graphene_rect_t area;
  graphene_rect_t outer_area;

  sps_session_set_visible (fixture->session, 100000, 150000);
  wait_for_draw (fixture);

  g_assert_true (gtk_widget_activate_action (fixture->timeline, "timeline.select", "u", inner));
  g_assert_cmpuint (sps_session_get_selected_slice (fixture->session), ==, inner);

  /* inner is [110.5, 130.75] µs of a 50 µs window over 600 px: from
   * 126 px to 369 px, less the pixel between neighbours. */
  npp = 50000.0 / (WIDTH - gutter);
  g_assert_true (sps_timeline_get_slice_area (timeline, inner, &area));
  g_assert_cmpfloat_with_epsilon (area.origin.x, gutter + round_px (10500 / npp), 0.01);
  g_assert_cmpfloat_with_epsilon (area.origin.x + area.size.width, gutter + round_px (30750 / npp) - 1, 0.01);

  /* One lane below outer's */
  g_assert_true (sps_timeline_get_slice_area (timeline, outer, &outer_area));
  g_assert_cmpfloat (area.origin.y, >, outer_area.origin.y);
  g_assert_cmpfloat (area.size.height, ==, outer_area.size.height);
  g_assert_cmpfloat_with_epsilon (outer_area.origin.x, gutter, 0.01);
  g_assert_cmpfloat_with_epsilon (outer_area.origin.x + outer_area.size.width, WIDTH - 1, 0.01);

  /* W/S/A/D */
  g_assert_true (gtk_widget_activate_action (fixture->timeline, "timeline.select-parent", NULL));
  g_assert_cmpuint (sps_session_get_selected_slice (fixture->session), ==, outer);
  g_assert_true (gtk_widget_activate_action (fixture->timeline, "timeline.select-child", NULL));
  g_assert_cmpuint (sps_session_get_selected_slice (fixture->session), ==, inner);
  g_assert_true (gtk_widget_activate_action (fixture->timeline, "timeline.select-child", NULL));
  g_assert_cmpuint (sps_session_get_selected_slice (fixture->session), ==, leaf);
  g_assert_true (gtk_widget_activate_action (fixture->timeline, "timeline.clear", NULL));
  g_assert_cmpuint (sps_session_get_selected_slice (fixture->session), ==, SPS_NO_INDEX);

  /* Selecting a slice out of the window centres the window on it. */
  g_assert_false (sps_timeline_get_slice_area (timeline, sps_test_find_slice (fixture->trace, "neg", 0), &area));
  g_assert_true (gtk_widget_activate_action (fixture->timeline, "timeline.select", "u",
                                             sps_test_find_slice (fixture->trace, "neg", 0)));
  check_visible (fixture, -32500000 - 25000, -32500000 + 25000);
  g_assert_true (sps_timeline_get_slice_area (timeline, sps_test_find_slice (fixture->trace, "neg", 0), &area));
}

static GdkTexture *
render (Fixture *fixture)
{
  /* The paintable takes its image from the widget as it is drawn now. */
  wait_for_draw (fixture);

  return sps_test_render (fixture->timeline, WIDTH, HEIGHT);
}

static void
check_slice_color (Fixture    *fixture,
                   const char *name,
                   gboolean    dark)
{
  g_autoptr(GdkTexture) texture = render (fixture);
  guint slice = sps_test_find_slice (fixture->trace, name, 0);
  graphene_rect_t area;
  guint32 pixel;
  int x, y;

  g_assert_true (sps_timeline_get_slice_area (SPS_TIMELINE (fixture->timeline), slice, &area));

  /* Right of the middle: clear of the label, which starts at the left. */
  x = (int) (area.origin.x + area.size.width * 0.75);
  y = (int) (area.origin.y + area.size.height / 2);
  pixel = sps_test_pixel_at (texture, x, y);

  g_test_message ("%s at %d,%d: %08x", name, x, y, pixel);
  g_assert_cmphex (pixel >> 24, ==, 0xff);
  g_assert_cmphex (pixel & 0xffffff, ==, sps_test_rgb_of (_sps_palette_color_for_name (name, dark)));
}

static void
test_pixels (Fixture       *fixture,
             gconstpointer  data)
{
  GtkSettings *settings = gtk_widget_get_settings (fixture->timeline);
  g_autoptr(GdkTexture) texture = NULL;
  graphene_rect_t area;

  sps_session_set_visible (fixture->session, 100000, 150000);
  sps_session_set_selected_slice (fixture->session, SPS_NO_INDEX);
  check_slice_color (fixture, "outer", FALSE);
  check_slice_color (fixture, "inner", FALSE);
  check_slice_color (fixture, "leaf", FALSE);

  /* The gutter is not the tracks: left of the splitter is no slice
   * colour. */
  texture = render (fixture);
  g_assert_true (sps_timeline_get_slice_area (SPS_TIMELINE (fixture->timeline),
                                              sps_test_find_slice (fixture->trace, "outer", 0), &area));
  g_assert_cmphex (sps_test_pixel_at (texture, 10, (int) (area.origin.y + area.size.height / 2)) & 0xffffff, !=,
                   sps_test_rgb_of (_sps_palette_color_for_name ("outer", FALSE)));

  /* Dark theme: the dark palette */
  g_object_set (settings, "gtk-application-prefer-dark-theme", TRUE, NULL);
  check_slice_color (fixture, "outer", TRUE);
  check_slice_color (fixture, "leaf", TRUE);
  g_object_set (settings, "gtk-application-prefer-dark-theme", FALSE, NULL);
  check_slice_color (fixture, "outer", FALSE);
}

static void
test_collapse (Fixture       *fixture,
               gconstpointer  data)
{
  SpsTimeline *timeline = SPS_TIMELINE (fixture->timeline);
  SpsTimelineLayout *layout = _sps_timeline_get_layout (timeline);
  guint process = find_process (fixture->trace, 1);
  guint inner = sps_test_find_slice (fixture->trace, "inner", 0);
  guint rows;
  graphene_rect_t area;

  sps_session_set_visible (fixture->session, 100000, 150000);
  wait_for_draw (fixture);

  /* pid 1 (3 lanes of tid 10, 1 of tid 11) then pid 2 (1 lane) */
  rows = _sps_timeline_layout_get_n_rows (layout);
  g_assert_cmpuint (rows, ==, 1 + 3 + 1 + 1 + 1);
  g_assert_true (sps_timeline_get_slice_area (timeline, inner, &area));

  g_assert_true (gtk_widget_activate_action (fixture->timeline, "timeline.toggle-process", "u", process));
  g_assert_true (sps_session_get_process_collapsed (fixture->session, process));
  /* pid 1's header and representative lane (tid 10's first), pid 2 */
  g_assert_cmpuint (_sps_timeline_layout_get_n_rows (layout), ==, 1 + 1 + 1 + 1);
  wait_for_draw (fixture);
  g_assert_false (sps_timeline_get_slice_area (timeline, inner, &area));

  g_assert_true (gtk_widget_activate_action (fixture->timeline, "timeline.toggle-process", "u", process));
  g_assert_false (sps_session_get_process_collapsed (fixture->session, process));
  g_assert_cmpuint (_sps_timeline_layout_get_n_rows (layout), ==, rows);
  g_assert_true (sps_timeline_get_slice_area (timeline, inner, &area));
}

/* Controllers' signals run the handlers' logic (PLATFORM.md §5). */
static void
test_pointer (Fixture       *fixture,
              gconstpointer  data)
{
  SpsTimeline *timeline = SPS_TIMELINE (fixture->timeline);
  GtkEventController *drag = sps_test_find_controller (fixture->timeline, GTK_TYPE_GESTURE_DRAG, 0);
  GtkEventController *click = sps_test_find_controller (fixture->timeline, GTK_TYPE_GESTURE_CLICK, GDK_BUTTON_PRIMARY);
  int gutter = sps_timeline_get_gutter_width (timeline);
  guint process = find_process (fixture->trace, 1);
  SpsTime start, end;
  graphene_rect_t area;
  const SpsTimelineRow *row;

  sps_session_set_visible (fixture->session, 100000, 160000);
  wait_for_draw (fixture);

  /* Dragging on the ruler from 100 px to 400 px into the tracks: a range
   * of 300 px of 100 ns. */
  g_signal_emit_by_name (drag, "drag-begin", (double) gutter + 100, 5.0);
  g_signal_emit_by_name (drag, "drag-update", 300.0, 2.0);
  g_signal_emit_by_name (drag, "drag-end", 300.0, 2.0);
  g_assert_true (sps_session_get_range (fixture->session, &start, &end));
  g_assert_cmpint (start, ==, 110000);
  g_assert_cmpint (end, ==, 140000);

  /* Dragging the splitter resizes the gutter, and the width is the
   * user's from then on: it no longer fits the labels. (Fitting waits
   * for the next allocation, after the drag.) */
  sps_timeline_set_gutter_auto (timeline, TRUE);
  g_signal_emit_by_name (drag, "drag-begin", (double) gutter + 2, 100.0);
  g_signal_emit_by_name (drag, "drag-update", 48.0, 3.0);
  g_signal_emit_by_name (drag, "drag-end", 48.0, 3.0);
  g_assert_cmpint (sps_timeline_get_gutter_width (timeline), ==, gutter + 48);
  g_assert_false (sps_timeline_get_gutter_auto (timeline));
  sps_timeline_set_gutter_width (timeline, gutter);
  wait_for_draw (fixture);

  /* A click on a slice selects it... */
  g_assert_true (sps_timeline_get_slice_area (timeline, sps_test_find_slice (fixture->trace, "leaf", 0), &area));
  g_signal_emit_by_name (click, "released", 1, (double) area.origin.x + 2, (double) area.origin.y + 2);
  g_assert_cmpuint (sps_session_get_selected_slice (fixture->session), ==, sps_test_find_slice (fixture->trace, "leaf", 0));

  /* ...one on nothing clears the selection... */
  g_signal_emit_by_name (click, "released", 1, (double) WIDTH - 5, (double) HEIGHT - 5);
  g_assert_cmpuint (sps_session_get_selected_slice (fixture->session), ==, SPS_NO_INDEX);

  /* ...and one on a process header (just above its first lane, where
   * outer is) collapses it. */
  row = _sps_timeline_layout_get_row (_sps_timeline_get_layout (timeline),
                                      _sps_timeline_layout_find_process_row (_sps_timeline_get_layout (timeline),
                                                                             process));
  g_assert_cmpint (row->kind, ==, SPS_TIMELINE_ROW_PROCESS);
  g_assert_true (sps_timeline_get_slice_area (timeline, sps_test_find_slice (fixture->trace, "outer", 0), &area));
  g_signal_emit_by_name (click, "released", 1, 20.0, (double) area.origin.y - 4);
  g_assert_true (sps_session_get_process_collapsed (fixture->session, process));
}

/* Shift+drag in the tracks selects a range, Ctrl+drag and the middle
 * button pan; a plain drag in the tracks does neither (a click selects).
 * Emitted signals have no event to read the button and modifiers from,
 * so the drag starts with what the "drag-begin" handler would pass. */
static void
test_drag_modifiers (Fixture       *fixture,
                     gconstpointer  data)
{
  SpsTimeline *timeline = SPS_TIMELINE (fixture->timeline);
  GtkEventController *drag = sps_test_find_controller (fixture->timeline, GTK_TYPE_GESTURE_DRAG, 0);
  int gutter = sps_timeline_get_gutter_width (timeline);
  SpsTime start, end;

  /* 60 µs over 600 px: 100 ns per pixel */
  g_assert_cmpint (WIDTH - gutter, ==, 600);
  sps_session_set_visible (fixture->session, 100000, 160000);
  wait_for_draw (fixture);

  /* Shift, from 100 px into the tracks (below the ruler) to 400 px */
  g_assert_true (_sps_timeline_drag_begin (timeline, gutter + 100, 150, GDK_BUTTON_PRIMARY, GDK_SHIFT_MASK));
  g_signal_emit_by_name (drag, "drag-update", 300.0, 2.0);
  g_signal_emit_by_name (drag, "drag-end", 300.0, 2.0);
  g_assert_true (sps_session_get_range (fixture->session, &start, &end));
  g_assert_cmpint (start, ==, 110000);
  g_assert_cmpint (end, ==, 140000);
  check_visible (fixture, 100000, 160000);

  /* Right to left gives the same kind of range. */
  g_assert_true (_sps_timeline_drag_begin (timeline, gutter + 500, 150, GDK_BUTTON_PRIMARY, GDK_SHIFT_MASK));
  g_signal_emit_by_name (drag, "drag-update", -50.0, 0.0);
  g_signal_emit_by_name (drag, "drag-end", -50.0, 0.0);
  g_assert_true (sps_session_get_range (fixture->session, &start, &end));
  g_assert_cmpint (start, ==, 145000);
  g_assert_cmpint (end, ==, 150000);
  sps_session_clear_range (fixture->session);

  /* Without Shift, a drag in the tracks is not the timeline's: nothing
   * moves, nothing is selected. */
  g_assert_false (_sps_timeline_drag_begin (timeline, gutter + 100, 150, GDK_BUTTON_PRIMARY, 0));
  g_signal_emit_by_name (drag, "drag-update", 300.0, 2.0);
  g_signal_emit_by_name (drag, "drag-end", 300.0, 2.0);
  g_assert_false (sps_session_get_range (fixture->session, NULL, NULL));
  check_visible (fixture, 100000, 160000);

  /* Ctrl: dragging the contents 50 px left shows 5 µs later. */
  g_assert_true (_sps_timeline_drag_begin (timeline, gutter + 300, 150, GDK_BUTTON_PRIMARY, GDK_CONTROL_MASK));
  g_signal_emit_by_name (drag, "drag-update", -20.0, 0.0);
  check_visible (fixture, 102000, 162000);
  /* Offsets are from the start of the drag, not cumulative. */
  g_signal_emit_by_name (drag, "drag-update", -50.0, 0.0);
  g_signal_emit_by_name (drag, "drag-end", -50.0, 0.0);
  check_visible (fixture, 105000, 165000);
  g_assert_false (sps_session_get_range (fixture->session, NULL, NULL));

  /* The middle button pans without a modifier, over the gutter too. */
  g_assert_true (_sps_timeline_drag_begin (timeline, 50, 150, GDK_BUTTON_MIDDLE, 0));
  g_signal_emit_by_name (drag, "drag-update", 120.0, 0.0);
  g_signal_emit_by_name (drag, "drag-end", 120.0, 0.0);
  check_visible (fixture, 93000, 153000);

  /* Ctrl over the gutter is no pan; Shift on the ruler is a range. */
  g_assert_false (_sps_timeline_drag_begin (timeline, 50, 150, GDK_BUTTON_PRIMARY, GDK_CONTROL_MASK));
  g_signal_emit_by_name (drag, "drag-end", 0.0, 0.0);
  check_visible (fixture, 93000, 153000);
}

/* Entering says nothing about what the user points at (a window that
 * appears under a resting pointer); moving does. */
static void
test_hover (Fixture       *fixture,
            gconstpointer  data)
{
  SpsTimeline *timeline = SPS_TIMELINE (fixture->timeline);
  GtkEventController *motion = sps_test_find_controller (fixture->timeline, GTK_TYPE_EVENT_CONTROLLER_MOTION, 0);
  guint leaf = sps_test_find_slice (fixture->trace, "leaf", 0);
  graphene_rect_t area;
  double x, y;

  sps_session_set_visible (fixture->session, 100000, 160000);
  wait_for_draw (fixture);
  g_assert_true (sps_timeline_get_slice_area (timeline, leaf, &area));
  x = area.origin.x + area.size.width / 2;
  y = area.origin.y + area.size.height / 2;

  g_signal_emit_by_name (motion, "enter", x, y);
  g_assert_cmpuint (sps_session_get_hovered_slice (fixture->session), ==, SPS_NO_INDEX);

  g_signal_emit_by_name (motion, "motion", x, y);
  g_assert_cmpuint (sps_session_get_hovered_slice (fixture->session), ==, leaf);

  g_signal_emit_by_name (motion, "leave");
  g_assert_cmpuint (sps_session_get_hovered_slice (fixture->session), ==, SPS_NO_INDEX);
}

/* The keys are the application's, rebindable in its settings: the widget
 * binds none itself (one would keep a default working after it was
 * rebound), only its actions. */
static void
test_no_key_bindings (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (fixture->timeline);
  guint n_shortcuts = 0;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      g_assert_false (GTK_IS_EVENT_CONTROLLER_KEY (controller));
      if (GTK_IS_SHORTCUT_CONTROLLER (controller))
        n_shortcuts += g_list_model_get_n_items (G_LIST_MODEL (controller));
    }
  g_assert_cmpuint (n_shortcuts, ==, 0);

  sps_session_set_visible (fixture->session, 0, 150000);
  g_assert_true (gtk_widget_activate_action (fixture->timeline, "timeline.zoom-in", NULL));
  check_visible (fixture, 25000, 125000);
}

/* 40 threads of one slice each: taller than the window. */
static SpsTrace *
build_tall_trace (void)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  guint32 process = sps_trace_builder_ensure_process (builder, 1);
  SpsTrace *trace;

  for (guint i = 0; i < 40; i++)
    {
      g_autofree char *name = g_strdup_printf ("slice%u", i);
      guint32 thread = sps_trace_builder_ensure_thread (builder, process, i + 1);

      sps_trace_builder_add_complete (builder, thread, i * 1000, 5000,
                                      sps_trace_builder_intern (builder, name, -1),
                                      0, SPS_ARGS_REF_NONE, SPS_SLICE_NONE);
    }

  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);

  return trace;
}

static void
test_scroll (void)
{
  Fixture fixture = { 0, };
  GtkAdjustment *vadjustment;
  graphene_rect_t area;
  guint last;

  present (&fixture, build_tall_trace ());
  vadjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (fixture.timeline));

  g_assert_cmpfloat (gtk_adjustment_get_value (vadjustment), ==, 0);
  g_assert_cmpfloat (gtk_adjustment_get_upper (vadjustment), ==,
                     _sps_timeline_layout_get_height (_sps_timeline_get_layout (SPS_TIMELINE (fixture.timeline))));
  g_assert_cmpfloat (gtk_adjustment_get_upper (vadjustment), >, gtk_adjustment_get_page_size (vadjustment));

  g_assert_true (gtk_widget_activate_action (fixture.timeline, "timeline.scroll-down", NULL));
  g_assert_cmpfloat (gtk_adjustment_get_value (vadjustment), >, 0);
  g_assert_true (gtk_widget_activate_action (fixture.timeline, "timeline.scroll-up", NULL));
  g_assert_cmpfloat (gtk_adjustment_get_value (vadjustment), ==, 0);

  /* Selecting the last thread's slice scrolls down to it. */
  last = sps_test_find_slice (fixture.trace, "slice39", 0);
  wait_for_draw (&fixture);
  g_assert_false (sps_timeline_get_slice_area (SPS_TIMELINE (fixture.timeline), last, &area));
  g_assert_true (gtk_widget_activate_action (fixture.timeline, "timeline.select", "u", last));
  wait_for_draw (&fixture);
  g_assert_cmpfloat (gtk_adjustment_get_value (vadjustment), >, 0);
  g_assert_true (sps_timeline_get_slice_area (SPS_TIMELINE (fixture.timeline), last, &area));
  g_assert_cmpfloat (area.origin.y + area.size.height, <=, HEIGHT);

  fixture_tear_down (&fixture, NULL);
}

static void
test_build_node (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(GskRenderNode) node = NULL;
  graphene_rect_t bounds;

  node = sps_timeline_build_node (SPS_TIMELINE (fixture->timeline), 1920, 1080);
  g_assert_nonnull (node);
  gsk_render_node_get_bounds (node, &bounds);
  g_assert_cmpfloat (bounds.origin.x, ==, 0);
  g_assert_cmpfloat (bounds.origin.y, ==, 0);
  g_assert_cmpfloat (bounds.size.width, ==, 1920);
  g_assert_cmpfloat (bounds.size.height, ==, 1080);

  g_assert_null (sps_timeline_build_node (SPS_TIMELINE (fixture->timeline), 0, 100));
}

static void
test_properties (Fixture       *fixture,
                 gconstpointer  data)
{
  SpsTimeline *timeline = SPS_TIMELINE (fixture->timeline);
  int gutter = 0, height = 0;

  g_assert_true (sps_timeline_get_session (timeline) == fixture->session);

  sps_timeline_set_gutter_width (timeline, 250);
  sps_timeline_set_track_height (timeline, 30);
  g_object_get (timeline, "gutter-width", &gutter, "track-height", &height, NULL);
  g_assert_cmpint (gutter, ==, 250);
  g_assert_cmpint (height, ==, 30);

  /* Clamped to the GSettings ranges' limits */
  sps_timeline_set_gutter_width (timeline, 10);
  g_assert_cmpint (sps_timeline_get_gutter_width (timeline), ==, 80);

  /* Taller lanes: the layout follows. */
  wait_for_draw (fixture);
  g_assert_cmpint (_sps_timeline_layout_get_row (_sps_timeline_get_layout (timeline), 1)->height, ==, 30);
}

/* For windows from 10 ns to 100 s wide and anywhere in time, the tick
 * step leaves room for every label shown between the ends, plus a gap. */
static void
test_ruler (Fixture       *fixture,
            gconstpointer  data)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (fixture->timeline, NULL);
  g_autoptr(SpsTimeRulerCache) cache = _sps_time_ruler_cache_new ();
  static const SpsTime spans[] = { 10, 999, 12345, 1000000, 7777777, 250000000, 100000000000 };
  static const SpsTime starts[] = { 0, 1, -4999999, 123456789, 999999999, 98765432101 };
  guint checked = 0;

  for (guint i = 0; i < G_N_ELEMENTS (spans); i++)
    for (guint j = 0; j < G_N_ELEMENTS (starts); j++)
      for (double width = 150; width <= 2000; width *= 2.3)
        {
          SpsTimeRulerScale scale;
          SpsTime tick;
          double step_px;

          _sps_time_ruler_scale_init (&scale, cache, layout, 0, starts[j], starts[j] + spans[i], width);
          step_px = (double) scale.step / scale.ns_per_pixel;
          tick = _sps_time_ruler_first_tick (&scale);
          g_assert_cmpint (tick, >=, starts[j]);
          g_assert_cmpint (tick - scale.step, <, starts[j]);
          g_assert_cmpint (tick % scale.step, ==, 0);

          for (; tick < scale.end; tick += scale.step)
            {
              g_autofree char *text = _sps_time_ruler_format_tick (&scale, tick);
              int text_width = 0;

              pango_layout_set_text (layout, text, -1);
              pango_layout_get_pixel_size (layout, &text_width, NULL);
              /* label, its padding and some space before the next tick */
              g_assert_cmpfloat (text_width + 8, <, step_px);
              checked++;
            }
        }

  g_assert_cmpuint (checked, >, 100);

  /* Labels say enough digits to tell ticks apart. */
  g_assert_cmpuint (_sps_time_ruler_precision (12340000, 2000), ==, 3);
  g_assert_cmpuint (_sps_time_ruler_precision (800000, 200000), ==, 0);
  g_assert_cmpuint (_sps_time_ruler_precision (1200000, 200000), ==, 1);
  g_assert_cmpuint (_sps_time_ruler_precision (0, 5), ==, 0);
  g_assert_cmpuint (_sps_time_ruler_precision (-2500, 500), ==, 1);
}

/* The tooltip over the samples row of a thread: the sample nearest the
 * pointer, by its leaf frame's name, time, event, line and stack with the
 * frames' source locations (chrome-v8-chunks.json, thread tid 1). The row
 * is found by asking each pixel row at the sample's x, so the test does
 * not depend on the heights of rows: the first tooltip there that has
 * @needle (NULL: any). */
static char *
dup_tooltip (Fixture    *fixture,
             SpsTime     start,
             SpsTime     end,
             SpsTime     ts,
             const char *needle)
{
  SpsTimeline *timeline = SPS_TIMELINE (fixture->timeline);
  int gutter = sps_timeline_get_gutter_width (timeline);
  double x;

  sps_session_set_visible (fixture->session, start, end);
  wait_for_draw (fixture);
  x = gutter + (double) (ts - start) * (WIDTH - gutter) / (double) (end - start);
  for (int y = 0; y < HEIGHT; y++)
    {
      g_autofree char *markup = _sps_timeline_dup_tooltip_markup (timeline, (int) x, y);

      if (markup != NULL && (needle == NULL || strstr (markup, needle) != NULL))
        return g_steal_pointer (&markup);
    }
  return NULL;
}

static void
test_sample_tooltip (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autofree char *at_32 = sps_time_format_duration (32000, 3);
  g_autofree char *at_12 = sps_time_format_duration (12000, 3);
  g_autofree char *work_expected = NULL;
  g_autofree char *main_expected = NULL;
  g_autofree char *work = NULL;
  g_autofree char *main_line = NULL;
  g_autofree char *between = NULL;

  /* work at 1032 µs (32 µs after the trace starts at Work), 1 µs before
   * the next sample: 5 µs across the view. V8's 0-based lines and
   * columns are shown 1-based. */
  work = dup_tooltip (fixture, 1030000, 1035000, 1032000, "\nSample at ");
  work_expected = g_strdup_printf ("<b>work</b>\nSample at %s (ProfileChunk)\n\n"
                                   "work  <small>https://x.test/lib.js:3:16</small>\n"
                                   "main  <small>https://x.test/app.js:10:5</small>\n"
                                   "(anonymous)  <small>https://x.test/app.js:1:1</small>", at_32);
  g_assert_cmpstr (work, ==, work_expected);

  /* main at 1012 µs, on line 13 of the sample's lines */
  main_line = dup_tooltip (fixture, 1010000, 1014000, 1012000, "\nSample at ");
  main_expected = g_strdup_printf ("<b>main</b>\nSample at %s (ProfileChunk)\nLine 13\n\n"
                                   "main  <small>https://x.test/app.js:10:5</small>\n"
                                   "(anonymous)  <small>https://x.test/app.js:1:1</small>", at_12);
  g_assert_cmpstr (main_line, ==, main_expected);

  /* Halfway between two samples 100 µs apart, nothing is near */
  between = dup_tooltip (fixture, 1040000, 1130000, 1089000, "\nSample at ");
  g_assert_null (between);
}

/* An event's tooltip: its name, when, its fields one a line; a plain
 * instant's, with its args escaped; nothing between two marks */
static void
test_event_tooltip (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *at_1000 = sps_time_format_duration (1000000, 3);
  g_autofree char *at_1200 = sps_time_format_duration (1200000, 3);
  g_autofree char *start_expected = NULL;
  g_autofree char *marker_expected = NULL;
  g_autofree char *start = NULL;
  g_autofree char *marker = NULL;
  g_autofree char *between = NULL;
  g_autofree char *many = NULL;

  start = dup_tooltip (fixture, 900000, 1100000, 1000000, NULL);
  start_expected = g_strdup_printf ("<b>Microsoft-Windows-DotNETRuntime/GC/Start</b>\nEvent at %s\n\n"
                                    "Count: 1\nReason: AllocSmall\nDepth: 0", at_1000);
  g_assert_cmpstr (start, ==, start_expected);

  marker = dup_tooltip (fixture, 1100000, 1300000, 1200000, NULL);
  marker_expected = g_strdup_printf ("<b>marker</b>\nInstant at %s\n\nnote: a&lt;b", at_1200);
  g_assert_cmpstr (marker, ==, marker_expected);

  /* The first 16 fields of 18, then how many more */
  many = dup_tooltip (fixture, 1900000, 2100000, 2000000, NULL);
  g_assert_nonnull (many);
  g_assert_true (g_str_has_suffix (many, "\nf14: 14\nf15: 15\n… 2 more fields"));

  /* 1.3 ms, 200 µs from the nearest marks at 1 px per 0.5 µs */
  between = dup_tooltip (fixture, 1100000, 1500000, 1350000, NULL);
  g_assert_null (between);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add ("/ui/timeline/zoom-pan", Fixture, NULL, fixture_set_up, test_zoom_pan, fixture_tear_down);
  g_test_add ("/ui/timeline/select", Fixture, NULL, fixture_set_up, test_select, fixture_tear_down);
  g_test_add ("/ui/timeline/pixels", Fixture, NULL, fixture_set_up, test_pixels, fixture_tear_down);
  g_test_add ("/ui/timeline/collapse", Fixture, NULL, fixture_set_up, test_collapse, fixture_tear_down);
  g_test_add ("/ui/timeline/pointer", Fixture, NULL, fixture_set_up, test_pointer, fixture_tear_down);
  g_test_add ("/ui/timeline/drag-modifiers", Fixture, NULL, fixture_set_up, test_drag_modifiers, fixture_tear_down);
  g_test_add ("/ui/timeline/hover", Fixture, NULL, fixture_set_up, test_hover, fixture_tear_down);
  g_test_add ("/ui/timeline/no-key-bindings", Fixture, NULL, fixture_set_up, test_no_key_bindings,
              fixture_tear_down);
  g_test_add ("/ui/timeline/build-node", Fixture, NULL, fixture_set_up, test_build_node, fixture_tear_down);
  g_test_add ("/ui/timeline/properties", Fixture, NULL, fixture_set_up, test_properties, fixture_tear_down);
  g_test_add ("/ui/timeline/ruler", Fixture, NULL, fixture_set_up, test_ruler, fixture_tear_down);
  g_test_add ("/ui/timeline/sample-tooltip", Fixture, NULL, fixture_set_up_v8, test_sample_tooltip,
              fixture_tear_down);
  g_test_add ("/ui/timeline/event-tooltip", Fixture, NULL, fixture_set_up_events, test_event_tooltip,
              fixture_tear_down);
  g_test_add_func ("/ui/timeline/scroll", test_scroll);

  return g_test_run ();
}
