/* test-ui-memory.c: the Memory view plugin under Xvfb on allocTrace (the
 * shared fixture; skipped when ../shared is missing) and on a capture of
 * allocations alone. A screenshot of the timeline above the panel is
 * written to the build directory (memory-alloctrace.png) for a person to
 * look at.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-ui-memory"

#include "config.h"

#include <string.h>

#include <spanscope-gtk.h>

#include "sps-test-ui.h"

#include "sps-test-util.h"

#define WIDTH  1280
#define HEIGHT 820

#define MAIN "CoreConsoleAp!CoreConsoleAp.Program.Main(class System.String[])"

typedef struct
{
  SpsTrace   *trace;
  SpsSession *session;
  GtkWidget  *window;
  GtkWidget  *panel;
} Fixture;

static SpsView *
memory_view (GPtrArray *views)
{
  for (guint i = 0; i < views->len; i++)
    {
      if (g_str_equal (sps_view_get_title (g_ptr_array_index (views, i)), "Memory"))
        return g_ptr_array_index (views, i);
    }
  g_assert_not_reached ();
}

static gboolean
built (gpointer data)
{
  Fixture *fixture = data;
  gboolean building = TRUE;

  g_object_get (fixture->panel, "building", &building, NULL);
  return !building;
}

static void
wait_until_built (Fixture *fixture)
{
  sps_test_wait_until (built, fixture);
  gtk_test_widget_wait_for_draw (fixture->window);
}

/* The timeline above the panel, as the window docks a bottom view */
static void
show (Fixture  *fixture,
      SpsTrace *trace)
{
  g_autoptr(GPtrArray) views = sps_plugin_engine_create_extensions (sps_plugin_engine_get_default (), SPS_TYPE_VIEW);
  SpsView *view = memory_view (views);
  GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  GtkWidget *scroller = gtk_scrolled_window_new ();

  g_assert_cmpint (sps_view_get_area (view), ==, SPS_VIEW_AREA_BOTTOM);
  fixture->trace = trace;
  fixture->session = sps_session_new (trace);
  fixture->window = gtk_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), sps_timeline_new (fixture->session));
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_EXTERNAL);
  gtk_paned_set_start_child (GTK_PANED (paned), scroller);
  fixture->panel = sps_view_create_panel (view, fixture->session);
  gtk_paned_set_end_child (GTK_PANED (paned), fixture->panel);
  gtk_paned_set_position (GTK_PANED (paned), 250);
  gtk_window_set_child (GTK_WINDOW (fixture->window), paned);
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), WIDTH, HEIGHT);
  gtk_window_set_decorated (GTK_WINDOW (fixture->window), FALSE);
  gtk_window_present (GTK_WINDOW (fixture->window));
  wait_until_built (fixture);
}

static void
fixture_tear_down (Fixture *fixture)
{
  if (fixture->window != NULL)
    gtk_window_destroy (GTK_WINDOW (g_steal_pointer (&fixture->window)));
  g_clear_object (&fixture->session);
  g_clear_object (&fixture->trace);
}

/* The window as a PNG in the build directory, for a person to look at */
static void
save_screenshot (Fixture    *fixture,
                 const char *name)
{
  g_autofree char *shot = g_build_filename (g_getenv ("MESON_BUILD_ROOT") != NULL ? g_getenv ("MESON_BUILD_ROOT") : ".",
                                            name, NULL);

  g_object_unref (sps_test_save_screenshot (fixture->window, shot));
}

static const char *
label_text (Fixture    *fixture,
            const char *name)
{
  GtkWidget *label = sps_test_find_named (fixture->panel, name);

  g_assert_nonnull (label);
  return gtk_label_get_text (GTK_LABEL (label));
}

static GtkSingleSelection *
selection_of (Fixture    *fixture,
              const char *name)
{
  GtkWidget *view = sps_test_find_named (fixture->panel, name);

  g_assert_nonnull (view);
  return GTK_SINGLE_SELECTION (gtk_column_view_get_model (GTK_COLUMN_VIEW (view)));
}

/* allocTrace's one "Suspension" slice, on the GC track */
static guint
suspension_slice (SpsTrace *trace)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);

  for (guint i = 0; i < slices->n_rows; i++)
    if (g_strcmp0 (sps_trace_get_string (trace, slices->name[i]), "Suspension") == 0)
      return i;
  g_assert_not_reached ();
}

static guint
n_children (GtkWidget *widget)
{
  guint n = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    n++;
  return n;
}

/* allocTrace at its end (its last event at 7,429,420,900 ns, 7.427175 s after its start
 * at 2,246,200): the totals of test-memory (717 allocations, 64,762
 * bytes, nothing uncertain); Main first, on every stack. Selecting it
 * shows its paths; selecting the first path's deepest first node shows
 * that many frames. Then T typed as "0.5ms" (2,746,200 ns, before GC #1
 * at 3,096,400): only the 83 objects of unknown birth, uncertain. */
static void
test_alloc_trace (void)
{
  g_autofree char *path = sps_test_shared_fixture_path ("nettrace", "shirhatti__allocTrace.nettrace");
  Fixture fixture = { 0, };
  GtkSingleSelection *functions;
  GtkSingleSelection *paths;
  g_autoptr(GObject) first = NULL;
  GtkWidget *entry;
  SpsTime time = 0;
  guint n_paths;
  guint last = 0;

  if (path == NULL)
    return;

  show (&fixture, sps_test_load_path (path));
  g_object_get (fixture.panel, "time", &time, NULL);
  g_assert_cmpint (time, ==, G_GINT64_CONSTANT (7429420900));
  g_assert_cmpstr (label_text (&fixture, "memory-summary"), ==,
                   "At 7.427 s — known: 64762 bytes (allocations: 717) · uncertain: 0 bytes (allocations: 0)");
  g_assert_cmpstr (label_text (&fixture, "memory-note"), ==, "Nothing is uncertain at this time.");
  g_assert_nonnull (strstr (label_text (&fixture, "memory-explanation"), "not the process's memory use (RAM)"));

  /* Sorted by inclusive bytes, biggest first: Main on every stack */
  functions = selection_of (&fixture, "memory-functions");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (functions)), >, 10);
  g_assert_nonnull (sps_test_find_label (fixture.panel, MAIN));
  g_assert_nonnull (sps_test_find_label (fixture.panel, "64762"));

  gtk_single_selection_set_selected (functions, 0);
  paths = selection_of (&fixture, "memory-paths");
  n_paths = g_list_model_get_n_items (G_LIST_MODEL (paths));
  g_assert_cmpuint (n_paths, >, 1);
  first = g_list_model_get_item (G_LIST_MODEL (paths), 0);
  g_assert_cmpuint (gtk_tree_list_row_get_depth (GTK_TREE_LIST_ROW (first)), ==, 0);
  /* The first path is expanded; walk down its first children */
  for (guint i = 1; i < n_paths; i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (paths), i);

      if (gtk_tree_list_row_get_depth (row) != i)
        break;
      last = i;
    }
  gtk_single_selection_set_selected (paths, last);
  g_assert_cmpuint (n_children (sps_test_find_named (fixture.panel, "memory-frames")), ==, last + 1);
  g_assert_nonnull (sps_test_find_label (sps_test_find_named (fixture.panel, "memory-frames"), MAIN));

  gtk_test_widget_wait_for_draw (fixture.window);
  save_screenshot (&fixture, "memory-alloctrace.png");

  entry = sps_test_find_named (fixture.panel, "memory-time");
  gtk_editable_set_text (GTK_EDITABLE (entry), "0.5ms");
  g_signal_emit_by_name (entry, "activate");
  wait_until_built (&fixture);
  g_object_get (fixture.panel, "time", &time, NULL);
  g_assert_cmpint (time, ==, 2746200);
  g_assert_cmpstr (label_text (&fixture, "memory-summary"), ==,
                   "At 500 µs — known: 0 bytes (allocations: 0) · uncertain: 0 bytes (allocations: 83)");
  g_assert_cmpstr (label_text (&fixture, "memory-note"), ==,
                   "Uncertain: 83 of unknown birth; 83 of unknown size (counted as 0 bytes).");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (functions)), ==, 1);
  g_assert_nonnull (sps_test_find_label (fixture.panel, "[no stack]"));
  g_assert_nonnull (sps_test_find_label (fixture.panel, "83 of unknown birth"));

  /* The selected event's time: the GC suspension slice (2,649,800 ns,
   * see test-memory's GC test), also before GC #1: the same 83 */
  g_assert_false (gtk_widget_get_sensitive (sps_test_find_named (fixture.panel, "memory-use-selected")));
  sps_session_set_selected_slice (fixture.session, suspension_slice (fixture.trace));
  g_assert_true (gtk_widget_get_sensitive (sps_test_find_named (fixture.panel, "memory-use-selected")));
  g_signal_emit_by_name (sps_test_find_named (fixture.panel, "memory-use-selected"), "clicked");
  wait_until_built (&fixture);
  g_object_get (fixture.panel, "time", &time, NULL);
  g_assert_cmpint (time, ==, 2649800);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "403.6 µs");
  g_assert_cmpstr (label_text (&fixture, "memory-summary"), ==,
                   "At 403.6 µs — known: 0 bytes (allocations: 0) · uncertain: 0 bytes (allocations: 83)");

  /* A bad time is an error under the entry; T stays */
  gtk_editable_set_text (GTK_EDITABLE (entry), "12 parsecs");
  g_signal_emit_by_name (entry, "activate");
  g_assert_true (gtk_widget_get_visible (sps_test_find_named (fixture.panel, "memory-error")));
  g_object_get (fixture.panel, "time", &time, NULL);
  g_assert_cmpint (time, ==, 2649800);

  fixture_tear_down (&fixture);
}

/* Allocations alone (no slices, samples or GCs): the window's session
 * spans them, [50, 90] ns, and the panel shows the one still alive at
 * the end (8 bytes; the 4-byte one died at 90). The birth filter copied
 * from a timeline range [60, 80) keeps only the dead one, so nothing. */
static void
test_allocations_only (void)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  Fixture fixture = { 0, };
  guint32 process = sps_trace_builder_ensure_process (b, 9);
  guint32 a;
  SpsTrace *trace;
  SpsTime start = 0;

  sps_trace_builder_add_allocation (b, process, SPS_NO_INDEX, 50, 8, 0, 1, SPS_HEAP_NATIVE, SPS_ALLOCATION_EXACT);
  a = sps_trace_builder_add_allocation (b, process, SPS_NO_INDEX, 70, 4, 0, 2, SPS_HEAP_NATIVE, SPS_ALLOCATION_EXACT);
  sps_trace_builder_set_allocation_death (b, a, 90, 90);
  trace = sps_trace_builder_finish (b, NULL, &error);
  g_assert_no_error (error);

  show (&fixture, trace);
  g_assert_cmpint (sps_session_get_visible_start (fixture.session), <=, 50);
  g_assert_cmpint (sps_session_get_visible_end (fixture.session), >=, 90);
  g_assert_cmpstr (label_text (&fixture, "memory-summary"), ==,
                   "At 40 ns — known: 8 bytes (allocations: 1) · uncertain: 0 bytes (allocations: 0)");

  sps_session_set_range (fixture.session, 60, 80);
  g_signal_emit_by_name (sps_test_find_named (fixture.panel, "memory-copy-range"), "clicked");
  wait_until_built (&fixture);
  g_object_get (fixture.panel, "birth-start", &start, NULL);
  g_assert_cmpint (start, ==, 60);
  g_assert_cmpstr (label_text (&fixture, "memory-summary"), ==,
                   "At 40 ns — known: 0 bytes (allocations: 0) · uncertain: 0 bytes (allocations: 0)");

  g_signal_emit_by_name (sps_test_find_named (fixture.panel, "memory-clear-range"), "clicked");
  wait_until_built (&fixture);
  g_assert_cmpstr (label_text (&fixture, "memory-summary"), ==,
                   "At 40 ns — known: 8 bytes (allocations: 1) · uncertain: 0 bytes (allocations: 0)");

  fixture_tear_down (&fixture);
}

/* Two processes with allocations: "alpha" (pid 10: 100 + 50 bytes) and
 * "beta" (pid 20: 400 bytes). The picker offers both, biggest first, and
 * starts on beta; choosing alpha makes the totals and the tree alpha's.
 * When the producer collapses beta (alpha is the profiled process, as
 * Diagnostics Hub's target is shown), the picker starts on alpha. A
 * screenshot (memory-processes.png) shows the picker. */
static SpsTrace *
two_processes (gboolean alpha_profiled)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  guint32 alpha = sps_trace_builder_ensure_process (b, 10);
  guint32 beta = sps_trace_builder_ensure_process (b, 20);
  guint32 frame = sps_trace_builder_intern_frame (b, sps_trace_builder_intern (b, "alpha_alloc", -1), 0, 0, 0);
  guint32 callsite = sps_trace_builder_intern_callsite (b, SPS_NO_INDEX, frame);
  guint32 a;
  SpsTrace *trace;

  sps_trace_builder_set_process_name (b, alpha, sps_trace_builder_intern (b, "alpha", -1));
  sps_trace_builder_set_process_name (b, beta, sps_trace_builder_intern (b, "beta", -1));
  a = sps_trace_builder_add_allocation (b, alpha, SPS_NO_INDEX, 10, 100, 0, 1, SPS_HEAP_MANAGED, SPS_ALLOCATION_EXACT);
  sps_trace_builder_set_allocation_callsite (b, a, callsite);
  a = sps_trace_builder_add_allocation (b, alpha, SPS_NO_INDEX, 20, 50, 0, 2, SPS_HEAP_MANAGED, SPS_ALLOCATION_EXACT);
  sps_trace_builder_set_allocation_callsite (b, a, callsite);
  sps_trace_builder_add_allocation (b, beta, SPS_NO_INDEX, 30, 400, 0, 3, SPS_HEAP_MANAGED, SPS_ALLOCATION_EXACT);
  if (alpha_profiled)
    sps_trace_builder_set_process_display (b, beta, SPS_PROCESS_DISPLAY_COLLAPSED);
  trace = sps_trace_builder_finish (b, NULL, &error);
  g_assert_no_error (error);
  return trace;
}

static guint32
process_of_pid (SpsTrace *trace,
                gint64    pid)
{
  const SpsProcessTable *processes = sps_trace_get_processes (trace);

  for (guint32 p = 0; p < processes->n_rows; p++)
    if (processes->pid[p] == pid)
      return p;
  g_assert_not_reached ();
}

static void
test_process_picker (void)
{
  Fixture fixture = { 0, };
  Fixture profiled = { 0, };
  GtkDropDown *dropdown;
  GListModel *items;
  guint process = 0;

  show (&fixture, two_processes (FALSE));
  dropdown = GTK_DROP_DOWN (sps_test_find_named (fixture.panel, "memory-process"));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dropdown)));
  items = gtk_drop_down_get_model (dropdown);
  g_assert_cmpuint (g_list_model_get_n_items (items), ==, 2);
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (items), 0), ==, "beta (20) — 400 bytes allocated");
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (items), 1), ==, "alpha (10) — 150 bytes allocated");
  g_object_get (fixture.panel, "process", &process, NULL);
  g_assert_cmpuint (process, ==, process_of_pid (fixture.trace, 20));
  g_assert_cmpstr (label_text (&fixture, "memory-summary"), ==,
                   "At 20 ns — known: 400 bytes (allocations: 1) · uncertain: 0 bytes (allocations: 0)");
  g_assert_null (sps_test_find_label (fixture.panel, "alpha_alloc"));

  gtk_drop_down_set_selected (dropdown, 1);
  wait_until_built (&fixture);
  g_object_get (fixture.panel, "process", &process, NULL);
  g_assert_cmpuint (process, ==, process_of_pid (fixture.trace, 10));
  g_assert_cmpstr (label_text (&fixture, "memory-summary"), ==,
                   "At 20 ns — known: 150 bytes (allocations: 2) · uncertain: 0 bytes (allocations: 0)");
  g_assert_nonnull (sps_test_find_label (fixture.panel, "alpha_alloc"));
  g_assert_nonnull (sps_test_find_label (fixture.panel, "150"));

  save_screenshot (&fixture, "memory-processes.png");
  fixture_tear_down (&fixture);

  show (&profiled, two_processes (TRUE));
  g_object_get (profiled.panel, "process", &process, NULL);
  g_assert_cmpuint (process, ==, process_of_pid (profiled.trace, 10));
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (sps_test_find_named (profiled.panel, "memory-process"))),
                    ==, 1);
  g_assert_cmpstr (label_text (&profiled, "memory-summary"), ==,
                   "At 20 ns — known: 150 bytes (allocations: 2) · uncertain: 0 bytes (allocations: 0)");
  fixture_tear_down (&profiled);
}

#ifdef HAVE_DIAGSESSION_PLUGIN
/* PerfView's CPU trace (net.4.5.2.x86.etl): GCAllocationTick in two
 * processes. The bytes are the sums of the events' AllocationAmount64
 * (u64 at payload byte 10, decoded from events_raw's raw payloads by a
 * throw-away script): 340,681,108 in Test.x86.exe (3,190 events),
 * 660,172 in PerfView.exe (6). No target named: the biggest first.
 * Screenshot: memory-net452.png. */
static void
test_process_picker_etl (void)
{
  g_autofree char *path = sps_test_shared_fixture_path ("diagsession", "perfview__net.4.5.2.x86.etl.zip");
  Fixture fixture = { 0, };
  GtkDropDown *dropdown;
  GListModel *items;

  if (path == NULL)
    return;

  show (&fixture, sps_test_load_path (path));
  dropdown = GTK_DROP_DOWN (sps_test_find_named (fixture.panel, "memory-process"));
  items = gtk_drop_down_get_model (dropdown);
  g_assert_cmpuint (g_list_model_get_n_items (items), ==, 2);
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (items), 0), ==,
                   "Test.x86.exe (3644) — 340681108 bytes allocated");
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (items), 1), ==,
                   "PerfView.exe (3988) — 660172 bytes allocated");
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 0);
  /* Sampled allocations: never known, all uncertain at the end */
  g_assert_nonnull (strstr (label_text (&fixture, "memory-summary"),
                            "known: 0 bytes (allocations: 0) · uncertain: 340681108 bytes (allocations: 3190)"));

  save_screenshot (&fixture, "memory-net452.png");
  fixture_tear_down (&fixture);
}
#endif

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ui/memory/alloctrace", test_alloc_trace);
  g_test_add_func ("/ui/memory/allocations-only", test_allocations_only);
  g_test_add_func ("/ui/memory/process-picker", test_process_picker);
#ifdef HAVE_DIAGSESSION_PLUGIN
  g_test_add_func ("/ui/memory/process-picker-etl", test_process_picker_etl);
#endif

  return g_test_run ();
}
