/* test-ui-selection.c: clicking what is not a slice (a decoded event of a
 * .nettrace, a box of a stack chart) selects it, the detail panel shows
 * it, the timeline outlines it and Escape clears it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-ui-selection"

#include "config.h"

#include <math.h>
#include <string.h>

#include <spanscope-gtk.h>

#include "nettrace-gen/nettrace-writer.h"
#include "sps-timeline-private.h"

#include "sps-test-ui.h"
#include "sps-test-util.h"

#define SYNC_QPC  G_GINT64_CONSTANT (123456789000)
#define FREQUENCY G_GINT64_CONSTANT (10000000)
#define WIDTH     1000
#define TIMELINE_HEIGHT 300
#define HEIGHT    600

typedef struct
{
  GtkWidget *window;
  GtkWidget *timeline;
  GtkWidget *panel;
} Ui;

/* A timeline over a detail panel, as the window docks them */
static void
ui_present (Ui         *ui,
            SpsSession *session)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  ui->window = gtk_window_new ();
  ui->timeline = sps_timeline_new (session);
  ui->panel = sps_detail_panel_new (session);
  gtk_widget_set_size_request (ui->timeline, WIDTH, TIMELINE_HEIGHT);
  gtk_widget_set_vexpand (ui->panel, TRUE);
  gtk_box_append (GTK_BOX (box), ui->timeline);
  gtk_box_append (GTK_BOX (box), ui->panel);
  gtk_window_set_child (GTK_WINDOW (ui->window), box);
  gtk_window_set_default_size (GTK_WINDOW (ui->window), WIDTH, HEIGHT);
  gtk_window_set_decorated (GTK_WINDOW (ui->window), FALSE);
  gtk_window_present (GTK_WINDOW (ui->window));
  gtk_test_widget_wait_for_draw (ui->window);
}

/* A primary-button click at (@x, @y) of the timeline, through its click
 * gesture as a real click reaches it */
static void
click (GtkWidget *timeline,
       double     x,
       double     y)
{
  /* The primary button's gesture: the secondary one opens menus */
  g_signal_emit_by_name (sps_test_find_controller (timeline, GTK_TYPE_GESTURE_CLICK, GDK_BUTTON_PRIMARY),
                         "released", 1, x, y);
}

static const char *
label_text (GtkWidget  *panel,
            const char *name)
{
  GtkWidget *label = sps_test_find_named (panel, name);

  g_assert_nonnull (label);
  return gtk_label_get_text (GTK_LABEL (label));
}

/* The item page's args are one row, @key = @value */
static void
assert_one_arg (GtkWidget  *panel,
                const char *key,
                const char *value)
{
  GtkWidget *view = sps_test_find_named (panel, "item-arguments-view");
  GListModel *args = G_LIST_MODEL (gtk_column_view_get_model (GTK_COLUMN_VIEW (view)));
  g_autoptr(GtkTreeListRow) row = NULL;
  g_autoptr(GObject) item = NULL;
  g_autofree char *row_key = NULL;
  g_autofree char *row_value = NULL;

  g_assert_cmpuint (g_list_model_get_n_items (args), ==, 1);
  row = g_list_model_get_item (args, 0);
  item = gtk_tree_list_row_get_item (row);
  g_object_get (item, "name", &row_key, "value", &row_value, NULL);
  g_assert_cmpstr (row_key, ==, key);
  g_assert_cmpstr (row_value, ==, value);
}

/* The middle of the first row of @kind (of @track when not SPS_NO_INDEX),
 * in widget coordinates */
static int
row_middle (GtkWidget *timeline,
            guint      kind,
            guint      track,
            guint      depth)
{
  SpsTimelineLayout *layout = _sps_timeline_get_layout (SPS_TIMELINE (timeline));
  guint n = _sps_timeline_layout_get_n_rows (layout);

  for (guint i = 0; i < n; i++)
    {
      const SpsTimelineRow *row = _sps_timeline_layout_get_row (layout, i);

      if (row->kind == kind && (track == SPS_NO_INDEX || row->track == track) && row->depth == depth)
        return SPS_TIMELINE (timeline)->ruler_height + row->y + row->height / 2;
    }
  g_assert_not_reached ();
  return -1;
}

/* The x of time @t in the timeline's visible window */
static int
time_x (GtkWidget  *timeline,
        SpsSession *session,
        SpsTime     t)
{
  int gutter = sps_timeline_get_gutter_width (SPS_TIMELINE (timeline));
  SpsTime start = sps_session_get_visible_start (session);
  SpsTime end = sps_session_get_visible_end (session);

  return gutter + (int) floor ((double) (t - start) * (WIDTH - gutter) / (double) (end - start));
}

static void
put_u32 (GByteArray *a,
         guint32     v)
{
  v = GUINT32_TO_LE (v);
  g_byte_array_append (a, (const guint8 *) &v, 4);
}

/* Thread 77 logs two events "Tick" (provider Demo-Provider, id 7,
 * version 2, one UInt32 field Count) 1 s and 1.002 s after the sync
 * point, with Count 41 and 42; nothing else happens on it. */
static char *
write_events (void)
{
  NtWriter *w = nt_writer_new (8, FREQUENCY, SYNC_QPC);
  g_autoptr(GByteArray) fields = g_byte_array_new ();
  g_autoptr(GByteArray) payload = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *dir = g_dir_make_tmp ("spanscope-ui-selection-XXXXXX", NULL);
  char *path = g_build_filename (dir, "events.nettrace", NULL);
  static const char field_name[] = "Count";
  guint32 tick;

  /* One field: TypeCode 10 (UInt32), then its UTF-16 name */
  put_u32 (fields, 1);
  put_u32 (fields, 10);
  for (guint i = 0; i < sizeof field_name; i++)
    {
      guint16 c = GUINT16_TO_LE ((guint16) field_name[i]);

      g_byte_array_append (fields, (const guint8 *) &c, 2);
    }
  tick = nt_writer_add_versioned_event_type (w, "Demo-Provider", 7, "Tick", 2, fields->data, fields->len);

  put_u32 (payload, 41);
  nt_writer_event (w, tick, 77, SYNC_QPC + FREQUENCY, payload->data, payload->len);
  g_byte_array_set_size (payload, 0);
  put_u32 (payload, 42);
  nt_writer_event (w, tick, 77, SYNC_QPC + FREQUENCY + FREQUENCY / 500, payload->data, payload->len);

  bytes = nt_writer_finish (w, SYNC_QPC + 2 * FREQUENCY, TRUE);
  nt_writer_free (w);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), NULL));

  return path;
}

/* The instant of @name on thread @tid at its @nth occurrence */
static guint
find_instant (SpsTrace   *trace,
              const char *name,
              guint       nth)
{
  const SpsInstantTable *instants = sps_trace_get_instants (trace);

  for (guint i = 0; i < instants->n_rows; i++)
    if (g_strcmp0 (sps_trace_get_string (trace, instants->name[i]), name) == 0 && nth-- == 0)
      return i;
  return SPS_NO_INDEX;
}

static void
test_event (void)
{
  g_autofree char *path = write_events ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsSession) session = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *shot = NULL;
  const SpsInstantTable *instants;
  const SpsSelection *sel;
  guint first, second;
  Ui ui;
  int x, y;

  trace = sps_trace_load (file, sps_plugin_engine_get_default (), NULL, SPS_LOAD_FLAGS_NONE, NULL, NULL, &error);
  g_assert_no_error (error);
  instants = sps_trace_get_instants (trace);
  first = find_instant (trace, "Demo-Provider/Tick", 0);
  second = find_instant (trace, "Demo-Provider/Tick", 1);
  g_assert_cmpuint (second, !=, SPS_NO_INDEX);
  /* 2 ms apart, the first one the trace's start */
  g_assert_cmpint (instants->ts[second] - instants->ts[first], ==, 2000000);
  g_assert_cmpint (instants->ts[first], ==, sps_trace_get_start_time (trace));

  session = sps_session_new (trace);
  ui_present (&ui, session);
  sps_session_set_visible (session, instants->ts[first] + 1000000, instants->ts[first] + 3000000);
  gtk_test_widget_wait_for_draw (ui.window);

  /* Click the second event's tick, 2 px to its right (within the 6 px
   * the hit test allows) */
  y = row_middle (ui.timeline, SPS_TIMELINE_ROW_INSTANTS, instants->track[second], 0);
  x = time_x (ui.timeline, session, instants->ts[second]);
  click (ui.timeline, x + 2, y);

  sel = sps_session_get_selection (session);
  g_assert_cmpint (sel->kind, ==, SPS_SELECTION_INSTANT);
  g_assert_cmpuint (sel->index, ==, second);
  g_assert_cmpuint (sps_session_get_selected_slice (session), ==, SPS_NO_INDEX);

  /* The panel: provider, name, id, version, opcode, thread, time (2 ms
   * after the first event, the trace's start) and the decoded field */
  g_assert_cmpstr (label_text (ui.panel, "item-name-value"), ==, "Demo-Provider/Tick");
  g_assert_cmpstr (label_text (ui.panel, "item-kind-value"), ==, "Event");
  g_assert_cmpstr (label_text (ui.panel, "item-provider-value"), ==, "Demo-Provider");
  g_assert_cmpstr (label_text (ui.panel, "item-id-value"), ==, "7");
  g_assert_cmpstr (label_text (ui.panel, "item-version-value"), ==, "2");
  g_assert_cmpstr (label_text (ui.panel, "item-opcode-value"), ==, "0");
  g_assert_cmpstr (label_text (ui.panel, "item-time-value"), ==, "2 ms");
  g_assert_cmpstr (label_text (ui.panel, "item-thread-value"), ==, "Thread 77");
  assert_one_arg (ui.panel, "Count", "42");

  /* Outlined: the 3 px accent frame starts 5 px left of the tick's
   * column (a square of 9 px around it, grown by a pixel) */
  gtk_widget_queue_draw (ui.timeline);
  gtk_test_widget_wait_for_draw (ui.window);
  shot = g_test_build_filename (G_TEST_BUILT, "ui-selection-event.png", NULL);
  texture = sps_test_save_screenshot (gtk_window_get_child (GTK_WINDOW (ui.window)), shot);
  g_assert_cmphex (sps_test_pixel_at (texture, x - 4, y) & 0xffffff, ==,
                   sps_test_rgb_of (&SPS_TIMELINE (ui.timeline)->style.accent));

  /* Escape (the timeline's "clear") clears it, and the panel */
  g_assert_true (gtk_widget_activate_action (ui.timeline, "timeline.clear", NULL));
  g_assert_cmpint (sps_session_get_selection (session)->kind, ==, SPS_SELECTION_NONE);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (sps_test_find_named (ui.panel, "detail-stack"))),
                   ==, "empty");

  gtk_window_destroy (GTK_WINDOW (ui.window));
  sps_test_remove_tree (dir);
}

/* One thread sampled every µs, each sample weighing 1 µs: Main>Work at 0,
 * 1 and 2 µs, Main>Idle at 3 µs. So Work is the box [0, 3 µs) at depth 1:
 * 3 samples, 3 µs of CPU, first at 0, last at 2 µs. */
static SpsTrace *
make_box_trace (void)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  guint32 process = sps_trace_builder_ensure_process (b, 1);
  guint32 thread = sps_trace_builder_ensure_thread (b, process, 5);
  guint32 main_name = sps_trace_builder_intern (b, "Main", -1);
  guint32 work_name = sps_trace_builder_intern (b, "Work", -1);
  guint32 idle_name = sps_trace_builder_intern (b, "Idle", -1);
  guint32 module = sps_trace_builder_intern (b, "app.dll", -1);
  guint32 main_cs = sps_trace_builder_intern_callsite (b, SPS_NO_INDEX,
                                                       sps_trace_builder_intern_frame (b, main_name, 0, module, 1));
  guint32 work = sps_trace_builder_intern_callsite (b, main_cs, sps_trace_builder_intern_frame (b, work_name, 0, module, 2));
  guint32 idle = sps_trace_builder_intern_callsite (b, main_cs, sps_trace_builder_intern_frame (b, idle_name, 0, module, 3));
  const guint32 stacks[] = { work, work, work, idle };
  SpsTrace *trace;

  for (guint i = 0; i < G_N_ELEMENTS (stacks); i++)
    sps_trace_builder_add_sample (b, thread, 1000 * i, stacks[i] == work ? work_name : idle_name, stacks[i], 0,
                                  1.0, SPS_WEIGHT_UNIT_US, SPS_SAMPLE_HAS_WEIGHT);
  trace = sps_trace_builder_finish (b, NULL, &error);
  g_assert_no_error (error);
  return trace;
}

static void
test_stack_box (void)
{
  g_autoptr(SpsTrace) trace = make_box_trace ();
  g_autoptr(SpsSession) session = sps_session_new (trace);
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *shot = NULL;
  const SpsSelection *sel;
  Ui ui;
  int x, y;

  ui_present (&ui, session);
  sps_session_set_visible (session, 0, 4000);
  gtk_test_widget_wait_for_draw (ui.window);

  /* Work's lane (depth 1 of the chart), at 1.5 µs */
  y = row_middle (ui.timeline, SPS_TIMELINE_ROW_STACK, SPS_NO_INDEX, 1);
  x = time_x (ui.timeline, session, 1500);
  click (ui.timeline, x, y);

  sel = sps_session_get_selection (session);
  g_assert_cmpint (sel->kind, ==, SPS_SELECTION_STACK_BOX);
  g_assert_cmpuint (sel->depth, ==, 1);
  g_assert_cmpuint (sel->first_sample, ==, 0);
  g_assert_cmpuint (sel->n_samples, ==, 3);
  g_assert_cmpint (sel->start, ==, 0);
  g_assert_cmpint (sel->end, ==, 3000);
  g_assert_false (sel->raw);

  g_assert_cmpstr (label_text (ui.panel, "item-name-value"), ==, "Work");
  g_assert_cmpstr (label_text (ui.panel, "item-kind-value"), ==, "Stack chart frame");
  g_assert_cmpstr (label_text (ui.panel, "item-module-value"), ==, "app.dll");
  g_assert_cmpstr (label_text (ui.panel, "item-samples-value"), ==, "3");
  g_assert_cmpstr (label_text (ui.panel, "item-cpu-value"), ==, "3 µs");
  g_assert_cmpstr (label_text (ui.panel, "item-first-value"), ==, "0 ns");
  g_assert_cmpstr (label_text (ui.panel, "item-last-value"), ==, "2 µs");
  g_assert_cmpstr (label_text (ui.panel, "item-span-value"), ==, "3 µs");
  g_assert_cmpstr (label_text (ui.panel, "item-thread-value"), ==, "Thread 5");

  /* Outlined: the frame's left edge a pixel left of the box's first
   * column (the gutter), so the first column inside is accent */
  gtk_widget_queue_draw (ui.timeline);
  gtk_test_widget_wait_for_draw (ui.window);
  shot = g_test_build_filename (G_TEST_BUILT, "ui-selection-box.png", NULL);
  texture = sps_test_save_screenshot (gtk_window_get_child (GTK_WINDOW (ui.window)), shot);
  g_assert_cmphex (sps_test_pixel_at (texture, time_x (ui.timeline, session, 0) + 1, y) & 0xffffff, ==,
                   sps_test_rgb_of (&SPS_TIMELINE (ui.timeline)->style.accent));
  /* … and the middle of the box stays Work's colour */
  g_assert_cmphex (sps_test_pixel_at (texture, x, y) & 0xffffff, !=,
                   sps_test_rgb_of (&SPS_TIMELINE (ui.timeline)->style.accent));

  gtk_window_destroy (GTK_WINDOW (ui.window));
}

/* A selected event's deferred args are decoded through the trace for the
 * panel; args that cannot be decoded say why. Events: Kernel
 * Process/Start (id 1, version 2, opcode 1) at 10 ns with cookie 7, and
 * at 20 ns with cookie 99. */
static void
test_deferred_args (void)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  g_autoptr(SpsTestDecoder) decoder = sps_test_decoder_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsSession) session = NULL;
  guint32 process = sps_trace_builder_ensure_process (b, 4);
  guint32 thread = sps_trace_builder_ensure_thread (b, process, 40);
  guint32 provider = sps_trace_builder_intern (b, "Kernel", -1);
  guint32 name = sps_trace_builder_intern (b, "Kernel/Process/Start", -1);
  guint number = sps_trace_builder_add_args_decoder (b, SPS_ARGS_DECODER (decoder));
  Ui ui;

  sps_trace_builder_add_event (b, thread, 10, provider, name, SPS_EVENT_DESCRIPTOR (1, 2, 1),
                               sps_args_ref_new_deferred (number, 7));
  sps_trace_builder_add_event (b, thread, 20, provider, name, SPS_EVENT_DESCRIPTOR (1, 2, 1),
                               sps_args_ref_new_deferred (number, 99));
  trace = sps_trace_builder_finish (b, NULL, &error);
  g_assert_no_error (error);
  session = sps_session_new (trace);
  ui_present (&ui, session);

  sps_session_select_instant (session, 0);
  g_assert_cmpstr (label_text (ui.panel, "item-name-value"), ==, "Kernel/Process/Start");
  g_assert_cmpstr (label_text (ui.panel, "item-provider-value"), ==, "Kernel");
  g_assert_cmpstr (label_text (ui.panel, "item-id-value"), ==, "1");
  g_assert_cmpstr (label_text (ui.panel, "item-version-value"), ==, "2");
  g_assert_cmpstr (label_text (ui.panel, "item-opcode-value"), ==, "1");
  g_assert_cmpstr (label_text (ui.panel, "item-time-value"), ==, "0 ns");
  assert_one_arg (ui.panel, "n", "7");

  sps_session_select_instant (session, 1);
  g_assert_cmpstr (label_text (ui.panel, "item-time-value"), ==, "10 ns");
  g_assert_cmpstr (label_text (ui.panel, "item-arguments-message"), ==, "The arguments could not be read: cookie 99");

  gtk_window_destroy (GTK_WINDOW (ui.window));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ui/selection/event", test_event);
  g_test_add_func ("/ui/selection/stack-box", test_stack_box);
  g_test_add_func ("/ui/selection/deferred-args", test_deferred_args);

  return g_test_run ();
}
