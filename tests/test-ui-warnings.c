/* test-ui-warnings.c: import warnings and the stack repair, in the window
 * and in `spanscope-cli info`; the window's timestamp unit options
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <locale.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "nettrace-gen/nettrace-writer.h"
#include "sps-import-warnings.h"
#include "sps-test-shell.h"
#include "sps-test-ui.h"
#include "sps-test-util.h"
#include "sps-warning-banner.h"

static SpsApplication *app;
static char *scratch_dir;

#define FREQUENCY 10000000
#define SYNC_QPC  G_GINT64_CONSTANT (5000000000)
#define METHODS   G_GUINT64_CONSTANT (0x7ff700000000)
#define LOST      G_GUINT64_CONSTANT (0x7ff800000000)

/* One thread (77), 40 samples 1 ms apart from 1 s after the session's
 * start: 60 frames (Main, Step001 …); samples 10–19 are 130 deep (cut to
 * 100 by the runtime, repaired from sample 9, which shares their root);
 * samples 25–27 are 150 deep under roots found in no other sample (Main,
 * Lost001 … Lost149: cut to Lost050 … Lost149), so the repair cannot
 * restore them and deletes them. */
static char *
write_repair_trace (void)
{
  NtWriter *w = nt_writer_new (8, FREQUENCY, SYNC_QPC);
  g_autoptr(GBytes) bytes = NULL;
  char *path = g_build_filename (scratch_dir, "repair.nettrace", NULL);
  guint64 ips[150];

  for (guint m = 0; m < 130; m++)
    {
      g_autofree char *name = g_strdup_printf (m == 0 ? "Main" : "Step%03u", m);

      nt_writer_add_method (w, METHODS + m * 0x100, 0x80, 0x42,
                            m == 0 ? "Program" : "Deep.Chain", name, "void  ()", FALSE);
    }
  for (guint m = 1; m < 150; m++)
    {
      g_autofree char *name = g_strdup_printf ("Lost%03u", m);

      nt_writer_add_method (w, LOST + m * 0x100, 0x80, 0x42, "Lost.Chain", name, "void  ()", FALSE);
    }
  nt_writer_add_module (w, 0x42, "/app/Deep.dll");

  for (guint k = 0; k < 40; k++)
    {
      gboolean lost = k >= 25 && k <= 27;
      guint depth = lost ? 150 : k >= 10 && k < 20 ? 130 : 60;

      /* Leaf first; the root is Main */
      for (guint i = 0; i < depth; i++)
        {
          guint m = depth - 1 - i;

          ips[i] = (m == 0 ? METHODS : lost ? LOST + m * 0x100 : METHODS + m * 0x100) + 0x10;
        }
      nt_writer_sample (w, 77, SYNC_QPC + FREQUENCY + k * (FREQUENCY / 1000), ips, depth, 2);
    }
  bytes = nt_writer_finish (w, SYNC_QPC + 2 * FREQUENCY, TRUE);
  nt_writer_free (w);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), NULL));

  return path;
}

/* `spanscope-cli info [--json] FILE` */
static char *
run_info (const char *path,
          gboolean    json,
          gboolean    keep)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  char *out = NULL;
  int status = 0;

  g_ptr_array_add (argv, (char *) g_getenv ("SPANSCOPE_CLI"));
  g_ptr_array_add (argv, (char *) "info");
  if (json)
    g_ptr_array_add (argv, (char *) "--json");
  if (keep)
    g_ptr_array_add (argv, (char *) "--keep-unrecoverable");
  g_ptr_array_add (argv, (char *) path);
  g_ptr_array_add (argv, NULL);

  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_test_message ("stderr: %s", err);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  return out;
}

/* Sample k is at 1 s + k ms of the session: 1.025 s … 1.027 s */
static void
check_stack_repair_json (const char *out,
                         gint64      deleted,
                         gint64      kept)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *repair;
  JsonArray *threads;
  JsonObject *thread;
  JsonArray *ranges;
  JsonArray *range;
  gint64 first;
  gint64 last;

  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  repair = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "stack_repair");
  g_assert_nonnull (repair);

  g_assert_cmpint (json_object_get_int_member (repair, "samples"), ==, 40);
  g_assert_cmpint (json_object_get_int_member (repair, "repaired"), ==, 10);
  g_assert_cmpint (json_object_get_int_member (repair, "deleted"), ==, deleted);
  g_assert_cmpint (json_object_get_int_member (repair, "kept_truncated"), ==, kept);

  threads = json_object_get_array_member (repair, "threads");
  g_assert_cmpuint (json_array_get_length (threads), ==, 1);
  thread = json_array_get_object_element (threads, 0);
  g_assert_cmpint (json_object_get_int_member (thread, "tid"), ==, 77);
  g_assert_cmpint (json_object_get_int_member (thread, "count"), ==, 3);
  ranges = json_object_get_array_member (thread, "ranges");
  g_assert_cmpuint (json_array_get_length (ranges), ==, 1);
  range = json_array_get_array_element (ranges, 0);
  first = json_array_get_int_element (range, 0);
  last = json_array_get_int_element (range, 1);
  /* Three consecutive samples: 2 ms from the first to the last */
  g_assert_cmpint (last - first, ==, 2000000);
}

static void
test_info_stack_repair (void)
{
  g_autofree char *path = write_repair_trace ();
  g_autofree char *json = run_info (path, TRUE, FALSE);
  g_autofree char *kept_json = run_info (path, TRUE, TRUE);
  g_autofree char *text = run_info (path, FALSE, FALSE);

  check_stack_repair_json (json, 3, 0);
  check_stack_repair_json (kept_json, 0, 3);

  /* The table: the counts, then the report convert prints */
  g_assert_nonnull (strstr (text, "\nStack repair\n"
                                  "  Samples before         40\n"
                                  "  Repaired               10\n"
                                  "  Deleted                 3\n"
                                  "  Kept truncated          0\n"));
  g_assert_nonnull (strstr (text, "\n  3 samples out of 40 could not be recovered and have been deleted (7.500%)\n"));
  g_assert_nonnull (strstr (text, "\n      Thread 77 (3): 1.025s-1.027s\n"));

  g_unlink (path);
}

/* A .json trace without a repair has no stack_repair member */
static void
test_info_no_stack_repair (void)
{
  g_autofree char *path = sps_test_fixture_path ("warnings-mixed.json");
  g_autofree char *json = run_info (path, TRUE, FALSE);

  g_assert_null (strstr (json, "stack_repair"));
}

static SpsWarningBanner *
open_and_find_banner (const char *path,
                      SpsWindow **window_out)
{
  SpsWindow *window = sps_test_open_file (app, path, 1100, 700);
  GtkWidget *banner;

  sps_test_wait_for_load (window);
  g_assert_cmpint (sps_window_get_state (window), ==, SPS_WINDOW_STATE_LOADED);
  banner = sps_test_find_type_name (GTK_WIDGET (window), "SpsWarningBanner");
  g_assert_nonnull (banner);
  *window_out = window;

  return SPS_WARNING_BANNER (banner);
}

/* warnings-mixed.json: 3 async begins that never end (ids 0x1–0x3), 2
 * events of unsupported phases (v, c), 1 of an unknown phase (Q) and an
 * E on thread 2 with nothing open: the bar names the two most frequent,
 * the details all four. */
static void
test_banner_warnings (void)
{
  g_autofree char *path = sps_test_fixture_path ("warnings-mixed.json");
  SpsWindow *window;
  SpsWarningBanner *banner = open_and_find_banner (path, &window);

  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (banner)));
  g_assert_cmpstr (sps_warning_banner_get_summary (banner), ==,
                   "3 async begins without an end, 2 events of unsupported phases…");
  g_assert_cmpuint (sps_warning_banner_get_n_warnings (banner), ==, 4);

  /* The popover's rows, most frequent first; ties by name */
  {
    g_autoptr(SpsTrace) trace = sps_test_load_path (path);
    g_autoptr(GPtrArray) warnings = sps_import_warnings_collect (trace);
    static const char * const names[] = {
      "unmatched_async_begin", "unsupported_phase", "unknown_phase", "unmatched_end",
    };
    static const char * const summaries[] = {
      "3 async begins without an end", "2 events of unsupported phases",
      "1 event of an unknown phase", "1 end without a begin",
    };

    g_assert_cmpuint (warnings->len, ==, G_N_ELEMENTS (names));
    for (guint i = 0; i < warnings->len; i++)
      {
        const SpsImportWarning *w = g_ptr_array_index (warnings, i);

        g_assert_cmpstr (w->name, ==, names[i]);
        g_assert_cmpstr (w->summary, ==, summaries[i]);
        g_assert_nonnull (w->meaning);
        g_assert_nonnull (w->example);
      }
    g_assert_nonnull (sps_test_find_label (GTK_WIDGET (banner), "1 end without a begin"));
  }
  /* Details shows every counter, the name as info prints it too */
  {
    GtkWidget *button = sps_test_find_type_name (GTK_WIDGET (banner), "GtkMenuButton");
    GtkPopover *popover = gtk_menu_button_get_popover (GTK_MENU_BUTTON (button));

    gtk_menu_button_popup (GTK_MENU_BUTTON (button));
    gtk_test_widget_wait_for_draw (GTK_WIDGET (popover));
    g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (popover)));
    g_assert_nonnull (sps_test_find_label (GTK_WIDGET (popover), "unmatched_end"));
    g_assert_nonnull (sps_test_find_label (GTK_WIDGET (popover), "2 events of unsupported phases"));
    sps_test_maybe_screenshot (GTK_WIDGET (popover), "warning-details");
    gtk_menu_button_popdown (GTK_MENU_BUTTON (button));
    /* Let the popover go before its window does */
    sps_test_spin (200);
  }

  sps_test_close_window (window);
}

static void
test_banner_clean (void)
{
  g_autofree char *path = sps_test_fixture_path ("span-negative.json");
  SpsWindow *window;
  SpsWarningBanner *banner = open_and_find_banner (path, &window);

  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (banner)));
  g_assert_cmpuint (sps_warning_banner_get_n_warnings (banner), ==, 0);
  g_assert_cmpstr (sps_warning_banner_get_summary (banner), ==, "");

  sps_test_close_window (window);
}

/* A trace with only metadata says why its timeline is empty; one with
 * events does not */
static void
test_no_tracks (void)
{
  static const char text[] = "This trace has no events to draw: no slices, instants, counters or samples.";
  g_autofree char *empty = sps_test_fixture_path ("span-metadata-only.json");
  g_autofree char *full = sps_test_fixture_path ("span-negative.json");
  SpsWindow *window;
  GtkWidget *label;

  open_and_find_banner (empty, &window);
  label = sps_test_find_label (GTK_WIDGET (window), text);
  g_assert_nonnull (label);
  g_assert_true (gtk_widget_get_visible (label));
  sps_test_close_window (window);

  open_and_find_banner (full, &window);
  label = sps_test_find_label (GTK_WIDGET (window), text);
  g_assert_nonnull (label);
  g_assert_false (gtk_widget_get_visible (label));
  sps_test_close_window (window);
}

static void
activate (SpsWindow  *window,
          const char *action)
{
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), action));
  g_action_group_activate_action (G_ACTION_GROUP (window), action, NULL);
}

/* Zooming, panning and fitting degenerate spans: the window stays a
 * valid, non-empty range, and every frame draws. Fit shows the whole
 * trace: the ends of gint64 exactly, a single instant as the 10 ns
 * around it. */
static void
test_degenerate_navigation (void)
{
  static const struct {
    const char *fixture;
    SpsTime     fit_start;
    SpsTime     fit_end;
  } cases[] = {
    { "span-one-instant.json", 1499995, 1500005 },
    { "span-same-timestamp.json", 41995, 42005 },
    { "span-negative.json", -5000000, -1000000 },
    { "span-int64-ends.json", G_GINT64_CONSTANT (-9223372036854775000), G_GINT64_CONSTANT (9223372036854775000) },
    { "span-metadata-only.json", -5, 5 },
  };
  static const struct {
    const char *action;
    guint       times;
  } steps[] = {
    { "zoom-in", 70 }, { "pan-right", 30 }, { "zoom-out", 140 }, { "pan-left", 60 },
    { "zoom-in", 20 }, { "pan-left", 200 }, { "fit", 1 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = sps_test_fixture_path (cases[i].fixture);
      SpsWindow *window;
      SpsSession *session;

      open_and_find_banner (path, &window);
      session = sps_window_get_session (window);

      for (guint k = 0; k < G_N_ELEMENTS (steps); k++)
        {
          for (guint n = 0; n < steps[k].times; n++)
            {
              activate (window, steps[k].action);
              g_assert_cmpint (sps_session_get_visible_start (session), <, sps_session_get_visible_end (session));
            }
          gtk_widget_queue_draw (GTK_WIDGET (window));
          gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
        }

      g_test_message ("%s: fit %" G_GINT64_FORMAT "..%" G_GINT64_FORMAT, cases[i].fixture,
                      sps_session_get_visible_start (session), sps_session_get_visible_end (session));
      g_assert_cmpint (sps_session_get_visible_start (session), ==, cases[i].fit_start);
      g_assert_cmpint (sps_session_get_visible_end (session), ==, cases[i].fit_end);
      sps_test_close_window (window);
    }
}

/* The repair's loss is a warning of its own, first; what it repaired
 * comes with it */
static void
test_banner_stack_repair (void)
{
  g_autofree char *path = write_repair_trace ();
  SpsWindow *window;
  SpsWarningBanner *banner = open_and_find_banner (path, &window);

  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (banner)));
  g_assert_cmpstr (sps_warning_banner_get_summary (banner), ==,
                   "3 samples with a cut stack deleted, 10 cut stacks repaired");
  g_assert_cmpuint (sps_warning_banner_get_n_warnings (banner), ==, 2);
  /* The per-thread report, as its first occurrence */
  g_assert_nonnull (sps_test_find_label (GTK_WIDGET (banner),
                                         "First: 3 samples out of 40 could not be recovered and have been "
                                         "deleted (7.500%)\n    Thread 77 (3): 1.025s-1.027s"));

  sps_test_close_window (window);
  g_unlink (path);
}

/* A counter of a third-party importer keeps its raw name and count */
static void
test_unknown_counter (void)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GPtrArray) warnings = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *summary = NULL;
  SpsWarningBanner *banner = SPS_WARNING_BANNER (g_object_ref_sink (sps_warning_banner_new ()));
  guint32 process = sps_trace_builder_ensure_process (builder, 1);

  sps_test_add_complete (builder, sps_trace_builder_ensure_thread (builder, process, 1), 5, 10,
                         "work", "", NULL, 0);
  for (guint i = 0; i < 7; i++)
    sps_trace_builder_warn (builder, "gizmo_overflow", "gizmo %u overflowed", i);
  sps_trace_builder_warn (builder, "unmatched_end", "an end");
  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);

  warnings = sps_import_warnings_collect (trace);
  g_assert_cmpuint (warnings->len, ==, 2);
  g_assert_cmpstr (((SpsImportWarning *) g_ptr_array_index (warnings, 0))->name, ==, "gizmo_overflow");
  g_assert_cmpuint (((SpsImportWarning *) g_ptr_array_index (warnings, 0))->count, ==, 7);
  g_assert_cmpstr (((SpsImportWarning *) g_ptr_array_index (warnings, 0))->example, ==, "gizmo 0 overflowed");

  sps_warning_banner_set_trace (banner, trace);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (banner)));
  g_assert_cmpstr (sps_warning_banner_get_summary (banner), ==, "7 × gizmo_overflow, 1 end without a begin");

  sps_warning_banner_set_trace (banner, NULL);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (banner)));
  g_object_unref (banner);
}

/* A file is cut off once: said without a count, first in the bar with a
 * capital letter (tied with unmatched_begin at 1, before it by name) */
static void
test_once_per_file (void)
{
  g_autofree char *path = sps_test_fixture_path ("span-truncated-one-event.json");
  g_autoptr(SpsTrace) trace = sps_test_load_path (path);
  g_autoptr(GPtrArray) warnings = sps_import_warnings_collect (trace);
  g_autofree char *summary = sps_import_warnings_format_summary (warnings, 2);
  g_autofree char *one = sps_import_warnings_format_summary (warnings, 1);

  g_assert_cmpuint (warnings->len, ==, 2);
  g_assert_cmpstr (summary, ==, "The end of the file is missing, 1 begin without an end");
  g_assert_cmpstr (one, ==, "The end of the file is missing…");
  g_assert_cmpstr (((SpsImportWarning *) g_ptr_array_index (warnings, 0))->summary, ==,
                   "the end of the file is missing");
}

/* The same counters in German, with the plural forms of each count */
static void
test_german (void)
{
  g_autofree char *old_language = g_strdup (g_getenv ("LANGUAGE"));
  g_autofree char *path = sps_test_fixture_path ("warnings-mixed.json");
  g_autoptr(SpsTrace) trace = sps_test_load_path (path);
  g_autoptr(GPtrArray) warnings = NULL;
  g_autofree char *summary = NULL;

  /* glibc rereads LANGUAGE once setlocale() bumps its catalogue counter */
  g_setenv ("LANGUAGE", "de", TRUE);
  setlocale (LC_ALL, "");

  warnings = sps_import_warnings_collect (trace);
  summary = sps_import_warnings_format_summary (warnings, 2);
  g_assert_cmpstr (summary, ==, "3 asynchrone Beginne ohne Ende, 2 Ereignisse nicht unterstützter Phasen…");
  g_assert_cmpstr (((SpsImportWarning *) g_ptr_array_index (warnings, 3))->summary, ==, "1 Ende ohne Beginn");
  g_assert_cmpstr (((SpsImportWarning *) g_ptr_array_index (warnings, 3))->meaning, ==,
                   "End-Ereignisse, zu denen auf ihrem Thread nichts offen war; sie wurden verworfen.");

  if (old_language != NULL)
    g_setenv ("LANGUAGE", old_language, TRUE);
  else
    g_unsetenv ("LANGUAGE");
  setlocale (LC_ALL, "");
}

/* `spanscope [-ns|--ns|-us|--us] FILE`, run in this process */

typedef struct
{
  SpsWindow *window;
  SpsTime    start;
  SpsTime    end;
  guint      check_id;
} RunResult;

static gboolean
check_loaded (gpointer user_data)
{
  RunResult *result = user_data;
  GApplication *application;
  SpsSession *session;

  if (result->window == NULL || sps_window_get_state (result->window) == SPS_WINDOW_STATE_LOADING)
    return G_SOURCE_CONTINUE;

  g_assert_cmpint (sps_window_get_state (result->window), ==, SPS_WINDOW_STATE_LOADED);
  session = sps_window_get_session (result->window);
  result->start = sps_trace_get_start_time (sps_session_get_trace (session));
  result->end = sps_trace_get_end_time (sps_session_get_trace (session));

  application = G_APPLICATION (gtk_window_get_application (GTK_WINDOW (result->window)));
  gtk_window_destroy (GTK_WINDOW (result->window));
  g_application_quit (application);
  result->check_id = 0;

  return G_SOURCE_REMOVE;
}

static void
on_window_added (GtkApplication *application,
                 GtkWindow      *window,
                 RunResult      *result)
{
  if (SPS_IS_WINDOW (window))
    result->window = SPS_WINDOW (window);
}

static void
run_with_option (const char *option,
                 const char *path,
                 RunResult  *result)
{
  g_autoptr(SpsApplication) application = sps_application_new ();
  char *argv[] = { (char *) "spanscope", (char *) option, (char *) path, NULL };
  int argc = option != NULL ? 3 : 2;
  if (option == NULL)
    argv[1] = (char *) path, argv[2] = NULL;

  g_application_set_flags (G_APPLICATION (application),
                           g_application_get_flags (G_APPLICATION (application)) | G_APPLICATION_NON_UNIQUE);
  memset (result, 0, sizeof *result);
  g_signal_connect (application, "window-added", G_CALLBACK (on_window_added), result);
  result->check_id = g_timeout_add (20, check_loaded, result);

  g_assert_cmpint (g_application_run (G_APPLICATION (application), argc, argv), ==, 0);
  g_clear_handle_id (&result->check_id, g_source_remove);
}

/* One slice at ts 1000, dur 500: µs by default, ns with -ns, ms with
 * --ms (1000 ms is 10^9 ns) and s with --s (1000 s is 10^12 ns) */
static void
test_timestamp_unit (void)
{
  g_autofree char *path = sps_test_write_file (scratch_dir, "unit.json",
                                               "[{\"name\":\"a\",\"ph\":\"X\",\"ts\":1000,\"dur\":500,"
                                               "\"pid\":1,\"tid\":1}]");
  static const struct {
    const char *option;
    SpsTime     start;
    SpsTime     end;
  } cases[] = {
    { NULL, 1000000, 1500000 },
    { "-ns", 1000, 1500 },
    { "--ns", 1000, 1500 },
    { "-us", 1000000, 1500000 },
    { "--us", 1000000, 1500000 },
    { "--ms", 1000000000, 1500000000 },
    { "--s", G_GINT64_CONSTANT (1000000000000), G_GINT64_CONSTANT (1500000000000) },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      RunResult result;

      run_with_option (cases[i].option, path, &result);
      g_test_message ("%s: %" G_GINT64_FORMAT "..%" G_GINT64_FORMAT,
                      cases[i].option ? cases[i].option : "(none)", result.start, result.end);
      g_assert_cmpint (result.start, ==, cases[i].start);
      g_assert_cmpint (result.end, ==, cases[i].end);
    }

  g_unlink (path);
}

static gboolean
strv_has (GStrv       strv,
          const char *text)
{
  return strv != NULL && g_strv_contains ((const char * const *) strv, text);
}

/* A --screenshot run (here in this process, sharing its settings) leaves
 * the recent files alone; opening the same file in a window adds it. */
static void
test_screenshot_not_recent (void)
{
  g_autofree char *path = sps_test_write_file (scratch_dir, "recent-shot.json",
                                               "[{\"name\":\"a\",\"ph\":\"X\",\"ts\":1,\"dur\":5,"
                                               "\"pid\":1,\"tid\":1}]");
  g_autofree char *png = g_build_filename (scratch_dir, "recent-shot.png", NULL);
  g_autofree char *uri = g_filename_to_uri (path, NULL, NULL);
  g_autoptr(SpsApplication) shooter = sps_application_new ();
  g_autoptr(GSettings) settings = g_settings_new ("io.github.spanscope.Spanscope");
  char *argv[] = { (char *) "spanscope", (char *) "--screenshot", png, (char *) "--size", (char *) "800x500",
                   path, NULL };
  g_auto(GStrv) after_shot = NULL;
  g_auto(GStrv) after_open = NULL;
  SpsWindow *window;

  g_assert_cmpint (g_application_run (G_APPLICATION (shooter), G_N_ELEMENTS (argv) - 1, argv), ==, 0);
  g_assert_true (g_file_test (png, G_FILE_TEST_IS_REGULAR));
  after_shot = g_settings_get_strv (settings, "recent-files");
  g_assert_false (strv_has (after_shot, uri));

  window = sps_test_open_file (app, path, 900, 600);
  sps_test_wait_for_load (window);
  after_open = g_settings_get_strv (settings, "recent-files");
  g_assert_true (strv_has (after_open, uri));
  sps_test_close_window (window);

  g_unlink (png);
  g_unlink (path);
}

/* --help and the welcome page name every format the importers read */
static void
test_formats_named (void)
{
  const char *argv[] = { g_getenv ("SPANSCOPE_EXE"), "--help", NULL };
  static const char * const formats[] = { "Chrome JSON", ".json.gz", ".nettrace", ".etrace", ".bin" };
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  SpsWindow *window = sps_window_new (app);
  GtkWidget *welcome;
  const char *text;
  int status = 0;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  welcome = sps_test_find_label (GTK_WIDGET (window),
                                 "Drop a trace file on this window or choose one. Spanscope reads Chrome JSON "
                                 "traces (.json, also gzip-compressed .json.gz), .NET EventPipe traces "
                                 "(.nettrace) and embedded trace streams (.etrace, .bin).");
  g_assert_nonnull (welcome);
  text = gtk_label_get_text (GTK_LABEL (welcome));

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_assert_nonnull (strstr (out, formats[i]));
      g_assert_nonnull (strstr (text, formats[i]));
    }

  sps_test_close_window (window);
}

/* Two units at once is a usage error (exit 2) that names both */
static void
test_timestamp_unit_conflict (void)
{
  static const struct {
    const char *first;
    const char *second;
    const char *message;
  } cases[] = {
    { "-ns", "--us", "--ns and --us cannot be used together" },
    { "--s", "--ms", "--ms and --s cannot be used together" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *argv[] = { g_getenv ("SPANSCOPE_EXE"), cases[i].first, cases[i].second, "/nonexistent.json", NULL };
      g_autofree char *err = NULL;
      g_autoptr(GError) error = NULL;
      int status = 0;

      g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, &err, &status, &error);
      g_assert_no_error (error);
      g_assert_true (WIFEXITED (status));
      g_assert_cmpint (WEXITSTATUS (status), ==, 2);
      g_assert_nonnull (strstr (err, cases[i].message));
    }
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  gtk_test_init (&argc, &argv, NULL);
  sps_test_bind_locale ();
  scratch_dir = g_dir_make_tmp ("spanscope-warnings-XXXXXX", NULL);
  app = sps_test_register_app ();

  g_test_add_func ("/ui/warnings/info/stack-repair", test_info_stack_repair);
  g_test_add_func ("/ui/warnings/info/no-stack-repair", test_info_no_stack_repair);
  g_test_add_func ("/ui/warnings/banner/counters", test_banner_warnings);
  g_test_add_func ("/ui/warnings/banner/clean", test_banner_clean);
  g_test_add_func ("/ui/warnings/banner/stack-repair", test_banner_stack_repair);
  g_test_add_func ("/ui/warnings/banner/unknown-counter", test_unknown_counter);
  g_test_add_func ("/ui/warnings/banner/once-per-file", test_once_per_file);
  g_test_add_func ("/ui/warnings/banner/german", test_german);
  g_test_add_func ("/ui/window/load/no-tracks", test_no_tracks);
  g_test_add_func ("/ui/window/actions/degenerate-spans", test_degenerate_navigation);
  g_test_add_func ("/ui/window/options/timestamp-unit", test_timestamp_unit);
  g_test_add_func ("/ui/window/options/timestamp-unit-conflict", test_timestamp_unit_conflict);
  g_test_add_func ("/ui/window/screenshot/not-recent", test_screenshot_not_recent);
  g_test_add_func ("/ui/window/formats-named", test_formats_named);

  ret = g_test_run ();

  g_object_unref (app);
  sps_test_remove_tree (scratch_dir);
  g_free (scratch_dir);

  return ret;
}
