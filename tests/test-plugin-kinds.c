/* test-plugin-kinds.c: the plugin API version and the kinds a plugin
 * declares, and engines that load only some kinds
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-plugin-kinds"

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include <spanscope-core.h>

#include "sps-test-util.h"

static char *scratch_dir;

/* The problem that starts with "@path: ", or NULL */
static const char *
problem_of (SpsPluginEngine *engine,
            const char      *path)
{
  const GPtrArray *problems = sps_plugin_engine_get_problems (engine);
  g_autofree char *prefix = g_strdup_printf ("%s: ", path);

  for (guint i = 0; i < problems->len; i++)
    if (g_str_has_prefix (g_ptr_array_index (problems, i), prefix))
      return (const char *) g_ptr_array_index (problems, i) + strlen (prefix);
  return NULL;
}

static SpsPluginStatus *
find_status (GListModel *list,
             const char *module)
{
  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr(SpsPluginStatus) status = g_list_model_get_item (list, i);

      if (g_strcmp0 (sps_plugin_status_get_module_name (status), module) == 0)
        return g_steal_pointer (&status);
    }
  return NULL;
}

static void
test_declarations (void)
{
  g_autofree char *dir = g_build_filename (scratch_dir, "declarations", NULL);
  g_autofree char *api2 = sps_test_write_file (dir, "api2/apitwo.plugin",
                                              "[Plugin]\nModule=apitwo\nName=Two\n"
                                              "X-Spanscope-API=2\nX-Spanscope-Kind=importer\n");
  g_autofree char *no_api = sps_test_write_file (dir, "noapi/noapi.plugin",
                                                "[Plugin]\nModule=noapi\nName=None\n"
                                                "X-Spanscope-Kind=importer\n");
  g_autofree char *no_kind = sps_test_write_file (dir, "nokind/nokind.plugin",
                                                 "[Plugin]\nModule=nokind\nName=No kind\n"
                                                 "X-Spanscope-API=1\n");
  g_autofree char *bad_kind = sps_test_write_file (dir, "badkind/badkind.plugin",
                                                  "[Plugin]\nModule=badkind\nName=Widget\n"
                                                  "X-Spanscope-API=1\nX-Spanscope-Kind=importer;widget\n");
  g_autoptr(SpsPluginEngine) engine = sps_plugin_engine_new ();

  g_test_summary ("A plugin file must say it is written for plugin API 1 and what kinds it provides; "
                  "each other case is refused with its reason");

  sps_plugin_engine_add_search_path (engine, dir);
  sps_plugin_engine_load_all (engine);

  g_assert_cmpstr (problem_of (engine, api2), ==,
                   "the plugin is written for plugin API 2; this Spanscope offers API 1");
  g_assert_cmpstr (problem_of (engine, no_api), ==,
                   "the plugin file does not say which plugin API it is written for (X-Spanscope-API); "
                   "this Spanscope offers API 1");
  g_assert_cmpstr (problem_of (engine, no_kind), ==,
                   "the plugin file does not declare what the plugin provides (X-Spanscope-Kind: "
                   "importer, exporter, analysis or view)");
  g_assert_cmpstr (problem_of (engine, bad_kind), ==,
                   "the plugin file declares an unknown kind “widget” (X-Spanscope-Kind: "
                   "importer, exporter, analysis or view)");
  g_assert_false (sps_plugin_engine_is_loaded (engine, "apitwo"));
  g_assert_false (sps_plugin_engine_is_loaded (engine, "badkind"));
}

static void
test_kinds_loaded (void)
{
  g_autoptr(SpsPluginEngine) engine = sps_plugin_engine_new ();
  g_autoptr(GListModel) before = NULL;
  g_autoptr(GListModel) after = NULL;
  g_autoptr(SpsPluginStatus) flamegraph = NULL;
  g_autoptr(SpsPluginStatus) chrome = NULL;
  g_autoptr(GPtrArray) views = NULL;

  g_test_summary ("An engine set to importers and exporters leaves the view plugins unloaded and "
                  "lists them as not needed, with the kinds they declare; set to every kind, the "
                  "next load_all() loads them");

  if (!SPS_TEST_HAVE_FLAMEGRAPH)
    {
      g_test_skip ("the flamegraph view plugin is not built (-Dgtk=false or -Dplugin-flamegraph=false)");
      return;
    }

  g_assert_cmpuint (sps_plugin_engine_get_kinds (engine), ==, SPS_PLUGIN_KIND_ALL);
  sps_plugin_engine_set_kinds (engine, SPS_PLUGIN_KIND_IMPORTER | SPS_PLUGIN_KIND_EXPORTER);
  sps_plugin_engine_load_all (engine);

  g_assert_true (sps_plugin_engine_is_loaded (engine, "chrome-json"));
  g_assert_false (sps_plugin_engine_is_loaded (engine, "flamegraph"));
  g_assert_false (sps_plugin_engine_is_loaded (engine, "sql"));
  g_assert_cmpuint (sps_plugin_engine_count_failed (engine), ==, 0);

  before = sps_plugin_engine_list_status (engine);
  flamegraph = find_status (before, "flamegraph");
  chrome = find_status (before, "chrome-json");
  g_assert_nonnull (flamegraph);
  g_assert_cmpint (sps_plugin_status_get_state (flamegraph), ==, SPS_PLUGIN_STATE_NOT_NEEDED);
  g_assert_cmpstrv (sps_plugin_status_get_kinds (flamegraph), ((const char * const []) { "view", NULL }));
  g_assert_cmpint (sps_plugin_status_get_state (chrome), ==, SPS_PLUGIN_STATE_LOADED);

  sps_plugin_engine_set_kinds (engine, SPS_PLUGIN_KIND_ALL);
  sps_plugin_engine_load_all (engine);
  g_assert_true (sps_plugin_engine_is_loaded (engine, "flamegraph"));
  after = sps_plugin_engine_list_status (engine);
  g_clear_object (&flamegraph);
  flamegraph = find_status (after, "flamegraph");
  g_assert_cmpint (sps_plugin_status_get_state (flamegraph), ==, SPS_PLUGIN_STATE_LOADED);
}

/* In a process of its own: the test plugin "lines" must not be loaded
 * already by another engine */
static void
test_undeclared_kind (void)
{
  g_autofree char *dir = g_build_filename (scratch_dir, "undeclared", NULL);
  g_autofree char *module = g_test_build_filename (G_TEST_BUILT, "plugins", "lines", "liblines.so", NULL);
  g_autofree char *plugin = NULL;
  g_autofree char *link = NULL;
  g_autofree char *message = NULL;
  g_autoptr(SpsPluginEngine) engine = NULL;

  if (!g_test_subprocess ())
    {
      g_test_summary ("A plugin that provides a kind its plugin file does not declare fails to load, "
                      "saying which kind");
      g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
      g_test_trap_assert_passed ();
      return;
    }

  plugin = sps_test_write_file (dir, "lines.plugin",
                                "[Plugin]\nModule=lines\nName=Lines as a view\n"
                                "X-Spanscope-API=1\nX-Spanscope-Kind=view\n");
  link = g_build_filename (dir, "liblines.so", NULL);
  g_assert_cmpint (symlink (module, link), ==, 0);

  g_setenv ("SPANSCOPE_PLUGIN_PATH", dir, TRUE);
  engine = sps_plugin_engine_new ();
  sps_plugin_engine_load_all (engine);

  g_assert_false (sps_plugin_engine_is_loaded (engine, "lines"));
  message = g_strdup_printf ("plugin “lines” provides an extension of kind “importer”, which its plugin "
                             "file does not declare (X-Spanscope-Kind)");
  g_assert_cmpstr (problem_of (engine, plugin), ==, message);
}

static void
test_formats (void)
{
  SpsPluginEngine *engine = sps_plugin_engine_get_default ();
  g_autoptr(SpsImporter) etl = sps_plugin_engine_create_importer (engine, "etl");
  g_autoptr(SpsImporter) nettrace = sps_plugin_engine_create_importer (engine, "nettrace");
  g_autoptr(SpsImporter) none = sps_plugin_engine_create_importer (engine, "speedscope");
  g_autoptr(SpsExporter) chromium = sps_plugin_engine_create_exporter (engine, "chromium");
  g_autoptr(SpsExporter) folded = sps_plugin_engine_create_exporter (engine, "folded");
  g_autoptr(SpsExporter) unknown = sps_plugin_engine_create_exporter (engine, "nettrace");

  g_test_summary ("Importers and exporters are picked by the format names their plugins list in "
                  "X-Trace-Formats: etl is the diagsession plugin's importer; a plugin that lists "
                  "a format it only reads gives no exporter of it");

  g_assert_nonnull (etl);
  g_assert_cmpstr (sps_importer_get_name (etl), ==, "diagsession");
  g_assert_cmpstr (sps_importer_get_name (nettrace), ==, "nettrace");
  /* The speedscope plugin lists speedscope, but writes it only */
  g_assert_null (none);
  g_assert_cmpstr (sps_exporter_get_name (chromium), ==, "chromium");
  g_assert_cmpstr (sps_exporter_get_name (folded), ==, "folded");
  g_assert_null (unknown);
}

static void
test_version (void)
{
  g_test_summary ("The version macros say the project's version, and SPS_CHECK_VERSION compares "
                  "against it part by part");

  g_assert_cmpstr (SPS_VERSION_S, ==, PACKAGE_VERSION);
  g_assert_true (SPS_CHECK_VERSION (SPS_MAJOR_VERSION, SPS_MINOR_VERSION, SPS_MICRO_VERSION));
  g_assert_true (SPS_CHECK_VERSION (SPS_MAJOR_VERSION, SPS_MINOR_VERSION, 0));
  g_assert_false (SPS_CHECK_VERSION (SPS_MAJOR_VERSION, SPS_MINOR_VERSION, SPS_MICRO_VERSION + 1));
  g_assert_false (SPS_CHECK_VERSION (SPS_MAJOR_VERSION, SPS_MINOR_VERSION + 1, 0));
  g_assert_false (SPS_CHECK_VERSION (SPS_MAJOR_VERSION + 1, 0, 0));
  if (SPS_MAJOR_VERSION > 0)
    g_assert_true (SPS_CHECK_VERSION (SPS_MAJOR_VERSION - 1, 99, 99));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);

  scratch_dir = g_dir_make_tmp ("spanscope-test-kinds-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/core/plugin-kinds/declarations", test_declarations);
  g_test_add_func ("/core/plugin-kinds/loaded", test_kinds_loaded);
  g_test_add_func ("/core/plugin-kinds/undeclared", test_undeclared_kind);
  g_test_add_func ("/core/plugin-kinds/formats", test_formats);
  g_test_add_func ("/core/version", test_version);

  ret = g_test_run ();
  sps_test_remove_tree (scratch_dir);
  return ret;
}
