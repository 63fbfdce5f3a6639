/* test-plugin-failures.c: deliberately broken plugins (tests/plugins/faulty)
 * are reported with their reason and skipped, and traces still load
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-plugin-failures"

#include "config.h"

#include <string.h>

#include <json-glib/json-glib.h>
#include <spanscope-core.h>

#include "sps-test-util.h"

static char *plugin_dir;
static char *faulty_dir;
static char *scratch_dir;

/* tests/plugins/faulty holds 8 plugins; its view needs libspanscope-gtk and
 * is not built with -Dgtk=false. tests/plugins holds 6 more .plugin files. */
#if SPS_TEST_HAVE_GTK
# define N_FAULTY 8
#else
# define N_FAULTY 7
#endif
#define N_PLUGIN_FILES (N_FAULTY + 6)

/* One engine for the whole program: libpeas opens a C module once per
 * process, so the tests run in order on the same engine. */
static SpsPluginEngine *engine;

static void
assert_failed (const char *module_name,
               const char *error)
{
  g_autoptr(SpsPluginStatus) status = sps_test_find_plugin_status (engine, module_name);

  g_assert_nonnull (status);
  g_assert_cmpint (sps_plugin_status_get_state (status), ==, SPS_PLUGIN_STATE_FAILED);
  g_assert_cmpstr (sps_plugin_status_get_error (status), ==, error);
  g_assert_cmpstr (sps_plugin_status_get_kinds (status)[0], ==, NULL);
  g_assert_false (sps_plugin_engine_is_loaded (engine, module_name));
}

static void
assert_loaded (const char *module_name,
               const char *kinds)
{
  g_autoptr(SpsPluginStatus) status = sps_test_find_plugin_status (engine, module_name);
  g_autofree char *joined = NULL;

  g_assert_nonnull (status);
  g_assert_cmpint (sps_plugin_status_get_state (status), ==, SPS_PLUGIN_STATE_LOADED);
  g_assert_null (sps_plugin_status_get_error (status));
  joined = g_strjoinv (",", (char **)sps_plugin_status_get_kinds (status));
  g_assert_cmpstr (joined, ==, kinds);
}

static void
test_failures_load_time (void)
{
  g_autoptr(SpsPluginStatus) badso = NULL;
  g_autofree char *badso_file = g_build_filename (faulty_dir, "bad-so", "badso.plugin", NULL);
  g_autofree char *badso_prefix = g_strdup_printf ("plugin “badso” could not be loaded: "
                                                   "Failed to load module 'badso': %s/bad-so/libbadso.so: ",
                                                   faulty_dir);
  g_autofree char *nomodule = g_build_filename (plugin_dir, "no-module-key", "nomodule.plugin", NULL);
  g_autoptr(GListModel) list = sps_plugin_engine_list_status (engine);

  /* faulty/ (8 plugins, 7 without GTK) first, then the 4 valid .plugin
   * files of tests/plugins, then its 2 unreadable ones. */
  g_assert_cmpuint (g_list_model_get_n_items (list), ==, N_PLUGIN_FILES);

  /* A shared module that is not one */
  badso = sps_test_find_plugin_status (engine, "badso");
  g_assert_nonnull (badso);
  g_assert_cmpstr (sps_plugin_status_get_plugin_file (badso), ==, badso_file);
  g_assert_cmpstr (sps_plugin_status_get_name (badso), ==, "Bad shared module");
  g_assert_cmpint (sps_plugin_status_get_state (badso), ==, SPS_PLUGIN_STATE_FAILED);
  g_assert_true (g_str_has_prefix (sps_plugin_status_get_error (badso), badso_prefix));

  /* A module that registers nothing */
  assert_failed ("noext", "plugin “noext” loaded but registers nothing Spanscope uses "
                          "(importer, exporter, analysis or view)");

  /* A Python exception at import: the loader's traceback is cut down to
   * what was raised. */
  assert_failed ("pyraise", "plugin “pyraise” could not be loaded: Error importing plugin 'pyraise': "
                            "RuntimeError: pyraise refuses to be imported");

  /* An unreadable .plugin file is listed by its path, without a module */
  {
    g_autoptr(SpsPluginStatus) last = g_list_model_get_item (list, N_PLUGIN_FILES - 1);

    g_assert_null (sps_plugin_status_get_module_name (last));
    g_assert_cmpstr (sps_plugin_status_get_plugin_file (last), ==, nomodule);
    g_assert_cmpstr (sps_plugin_status_get_error (last), ==, "not a valid plugin file: no Module key in [Plugin]");
  }

  /* The faulty importers, exporter, analysis and view load fine; their
   * faults only show when they are used. */
  assert_loaded ("faultyimporter", "importer");
  assert_loaded ("faultyprobe", "importer");
  assert_loaded ("faultyexporter", "exporter");
  assert_loaded ("faultyanalysis", "analysis");
#if SPS_TEST_HAVE_GTK
  assert_loaded ("faultyview", "view");
#endif
  assert_loaded ("lines", "importer,exporter");
  assert_loaded ("decoy", "importer");

  /* badso, noext, pyraise, missing, noregister, broken, nomodule */
  g_assert_cmpuint (sps_plugin_engine_count_failed (engine), ==, 7);
}

static guint
count_importers_named (const char *name)
{
  g_autoptr(GPtrArray) importers = sps_plugin_engine_create_importers (engine);
  guint n = 0;

  for (guint i = 0; i < importers->len; i++)
    n += g_str_equal (sps_importer_get_name (g_ptr_array_index (importers, i)), name);

  return n;
}

static void
on_plugin_failed (SpsPluginEngine *self,
                  const char      *plugin_file,
                  GPtrArray       *failed)
{
  g_ptr_array_add (failed, g_path_get_basename (plugin_file));
}

static void
test_failures_importer (void)
{
  g_autoptr(GPtrArray) failed = g_ptr_array_new_with_free_func (g_free);
  gulong handler;
  g_autofree char *path = sps_test_write_file (scratch_dir, "two.lines",
                                               "SPSLINES\n"
                                               "100 50 alpha\n"
                                               "200 10 beta\n");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsTrace) again = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpuint (count_importers_named ("faulty"), ==, 1);
  g_assert_cmpuint (count_importers_named ("faultyprobe"), ==, 1);

  /* (the announcements of the load-time failures first) */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  handler = g_signal_connect (engine, "plugin-failed", G_CALLBACK (on_plugin_failed), failed);

  /* The faulty probe answers a score out of range: it is blamed and its
   * importer left out. The faulty importer comes first (same score,
   * higher precedence) and fails without a reason: it is blamed and the
   * real one reads the file. */
  trace = sps_trace_load (file, engine, NULL, SPS_LOAD_FLAGS_NONE, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (trace);
  g_assert_cmpstr (sps_trace_get_format (trace), ==, "spslines");
  g_assert_null (sps_trace_get_load_error (trace));
  g_assert_cmpuint (sps_trace_get_events_read (trace), ==, 2);
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES), ==, 2);

  assert_failed ("faultyimporter", "plugin “faultyimporter” failed in SpsImporter.load and is skipped: "
                                   "The faulty importer failed without giving a reason");
  assert_failed ("faultyprobe", "plugin “faultyprobe” failed in SpsImporter.probe and is skipped: "
                                "The faultyprobe importer answered 4294967295, not a score from 0 to 100");
  g_assert_cmpuint (sps_plugin_engine_count_failed (engine), ==, 9);

  /* Both announced when this thread's main context runs, not from
   * inside the call that failed */
  g_assert_cmpuint (failed->len, ==, 0);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (failed->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (failed, 0), ==, "faultyprobe.plugin");
  g_assert_cmpstr (g_ptr_array_index (failed, 1), ==, "faultyimporter.plugin");
  g_signal_handler_disconnect (engine, handler);

  /* Skipped from now on */
  g_assert_cmpuint (count_importers_named ("faulty"), ==, 0);
  g_assert_cmpuint (count_importers_named ("faultyprobe"), ==, 0);
  again = sps_trace_load (file, engine, NULL, SPS_LOAD_FLAGS_NONE, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sps_trace_get_events_read (again), ==, 2);
  g_assert_cmpuint (sps_plugin_engine_count_failed (engine), ==, 9);
}

static void
test_failures_malformed_input (void)
{
  g_autofree char *path = sps_test_write_file (scratch_dir, "bad.lines", "SPSLINES\nnot a record\n");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  guint before = sps_plugin_engine_count_failed (engine);

  /* An importer that rejects a malformed file did its job: nobody is
   * blamed and the error is the file's. */
  trace = sps_trace_load (file, engine, NULL, SPS_LOAD_FLAGS_NONE, NULL, NULL, &error);
  g_assert_null (trace);
  g_assert_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_MALFORMED);
  g_assert_cmpuint (sps_plugin_engine_count_failed (engine), ==, before);
  assert_loaded ("lines", "importer,exporter");
}

static void
test_failures_exporter (void)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(SpsTrace) trace = sps_trace_builder_finish (builder, NULL, NULL);
  g_autoptr(GOutputStream) stream = g_memory_output_stream_new_resizable ();
  g_autoptr(SpsExporter) exporter = sps_plugin_engine_create_exporter (engine, "faulty");
  g_autoptr(SpsExporter) later = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (exporter);

  /* An error with success is a failure, blamed on the plugin */
  g_assert_false (sps_exporter_write (exporter, trace, NULL, stream, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_FAILED);
  g_assert_cmpstr (error->message, ==, "the faulty exporter gives up");

  assert_failed ("faultyexporter", "plugin “faultyexporter” failed in SpsExporter.write and is skipped: "
                                   "the faulty exporter gives up");
  later = sps_plugin_engine_create_exporter (engine, "faulty");
  g_assert_null (later);
  g_assert_nonnull ((later = sps_plugin_engine_create_exporter (engine, "spslines")));
}

static void
test_failures_analysis (void)
{
  g_autoptr(GPtrArray) analyses = sps_plugin_engine_create_extensions (engine, SPS_TYPE_ANALYSIS);
  g_autoptr(GPtrArray) later = NULL;
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;

  g_assert_cmpuint (analyses->len, ==, 1);
  g_assert_cmpstr (sps_analysis_get_name (g_ptr_array_index (analyses, 0)), ==, "faulty");

  /* A failure without a reason gets one, and the plugin the blame */
  g_assert_false (sps_analysis_run (g_ptr_array_index (analyses, 0), builder, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_FAILED);
  g_assert_cmpstr (error->message, ==, "The faulty analysis failed without giving a reason");
  assert_failed ("faultyanalysis", "plugin “faultyanalysis” failed in SpsAnalysis.run and is skipped: "
                                   "The faulty analysis failed without giving a reason");

  later = sps_plugin_engine_create_extensions (engine, SPS_TYPE_ANALYSIS);
  g_assert_cmpuint (later->len, ==, 0);
}

static void
test_failures_not_from_a_plugin (void)
{
  g_autoptr(GObject) object = g_object_new (G_TYPE_OBJECT, NULL);
  g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_FAILED, "whatever");

  /* Objects no engine made are nobody's fault. */
  g_assert_false (sps_plugin_engine_report_failure (object, "SpsView.create_panel", error));
}

/* The CLI loads the same plugins (it inherits SPANSCOPE_PLUGIN_PATH). */
static void
test_failures_cli (void)
{
  g_auto(SpsTestRun) json = { 0 };
  g_auto(SpsTestRun) text = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *folder = g_build_filename (faulty_dir, "no-extensions", NULL);
  g_autofree char *expected = NULL;
  JsonArray *plugins;
  JsonObject *noext = NULL;
  JsonObject *lines = NULL;
  JsonArray *kinds;

  sps_test_run_cli_va (&json, "plugins", "--json", NULL);
  g_assert_cmpint (json.status, ==, 0);
  json_parser_load_from_data (parser, json.out, -1, &error);
  g_assert_no_error (error);
  plugins = json_node_get_array (json_parser_get_root (parser));
  g_assert_cmpuint (json_array_get_length (plugins), ==, N_PLUGIN_FILES);

  for (guint i = 0; i < json_array_get_length (plugins); i++)
    {
      JsonObject *plugin = json_array_get_object_element (plugins, i);
      const char *module = json_object_get_string_member_with_default (plugin, "module", "");

      if (g_str_equal (module, "noext"))
        noext = plugin;
      else if (g_str_equal (module, "lines"))
        lines = plugin;
    }

  g_assert_nonnull (noext);
  g_assert_cmpstr (json_object_get_string_member (noext, "state"), ==, "failed");
  g_assert_cmpstr (json_object_get_string_member (noext, "name"), ==, "No extensions");
  g_assert_cmpstr (json_object_get_string_member (noext, "folder"), ==, folder);
  g_assert_cmpstr (json_object_get_string_member (noext, "error"), ==,
                   "plugin “noext” loaded but registers nothing Spanscope uses "
                   "(importer, exporter, analysis or view)");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (noext, "kinds")), ==, 0);

  g_assert_nonnull (lines);
  g_assert_cmpstr (json_object_get_string_member (lines, "state"), ==, "loaded");
  g_assert_true (json_object_get_null_member (lines, "error"));
  kinds = json_object_get_array_member (lines, "kinds");
  g_assert_cmpuint (json_array_get_length (kinds), ==, 2);
  g_assert_cmpstr (json_array_get_string_element (kinds, 0), ==, "importer");
  g_assert_cmpstr (json_array_get_string_element (kinds, 1), ==, "exporter");

  /* For people: one block per plugin, the reason under a failed one */
  sps_test_run_cli_va (&text, "plugins", NULL);
  g_assert_cmpint (text.status, ==, 0);
  expected = g_strdup_printf ("noext  failed\n"
                              "    name: No extensions\n"
                              "    description: Loads, but registers no extension\n"
                              "    folder: %s\n"
                              "    error: plugin “noext” loaded but registers nothing Spanscope uses "
                              "(importer, exporter, analysis or view)\n"
                              "pyraise  failed\n", folder);
  g_assert_nonnull (strstr (text.out, expected));
  g_assert_nonnull (strstr (text.out, "\nlines  loaded  importer, exporter\n    name: Lines\n"));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);

  plugin_dir = g_test_build_filename (G_TEST_BUILT, "plugins", NULL);
  faulty_dir = g_test_build_filename (G_TEST_BUILT, "plugins", "faulty", NULL);
  scratch_dir = g_dir_make_tmp ("spanscope-test-failures-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_strjoin (G_SEARCHPATH_SEPARATOR_S, faulty_dir, plugin_dir, NULL);
  g_setenv ("SPANSCOPE_PLUGIN_PATH", path, TRUE);
  g_setenv ("XDG_DATA_HOME", scratch_dir, TRUE);

  /* Loading them must not trip this program's fatal warnings. */
  engine = sps_plugin_engine_new ();
  sps_plugin_engine_load_all (engine);

  g_test_add_func ("/core/plugin-failures/load-time", test_failures_load_time);
  g_test_add_func ("/core/plugin-failures/importer", test_failures_importer);
  g_test_add_func ("/core/plugin-failures/malformed-input", test_failures_malformed_input);
  g_test_add_func ("/core/plugin-failures/exporter", test_failures_exporter);
  g_test_add_func ("/core/plugin-failures/analysis", test_failures_analysis);
  g_test_add_func ("/core/plugin-failures/not-from-a-plugin", test_failures_not_from_a_plugin);
  g_test_add_func ("/core/plugin-failures/cli", test_failures_cli);

  ret = g_test_run ();

  g_clear_object (&engine);
  sps_test_remove_tree (scratch_dir);
  g_clear_pointer (&scratch_dir, g_free);
  g_clear_pointer (&faulty_dir, g_free);
  g_clear_pointer (&plugin_dir, g_free);

  return ret;
}
