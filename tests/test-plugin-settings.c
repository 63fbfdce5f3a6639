/* test-plugin-settings.c: turning plugins off and on (the
 * disabled-plugins setting): at start, live, through GSettings, and in
 * spanscope-cli
 *
 * The plugin turned off is the bundled Chrome JSON plugin (module
 * chrome-json, from SPANSCOPE_PLUGIN_PATH); the settings schema is the
 * application's, from the build (GSETTINGS_SCHEMA_DIR), with the memory
 * backend here and a key file for the CLI.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include <spanscope-core.h>

#include "sps-test-util.h"

static SpsPluginState
state_of (SpsPluginEngine *engine,
          const char      *module)
{
  g_autoptr(SpsPluginStatus) status = sps_test_find_plugin_status (engine, module);

  g_assert_nonnull (status);
  return sps_plugin_status_get_state (status);
}

/* chrome-phase-x.json has 5 complete events; without the Chrome importer
 * no plugin reads it */
static void
assert_reads_json (SpsPluginEngine *engine,
                   gboolean         reads)
{
  g_autofree char *path = sps_test_fixture_path ("chrome-phase-x.json");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) trace = sps_trace_load (file, engine, NULL, SPS_LOAD_FLAGS_NONE, NULL, NULL, &error);

  if (reads)
    {
      g_assert_no_error (error);
      g_assert_cmpuint (sps_trace_get_n_slices (trace), ==, 5);
    }
  else
    {
      g_assert_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_UNKNOWN_FORMAT);
      g_assert_null (trace);
    }
}

/* Off before loading: never loaded, listed with what it declares */
static void
test_disabled_at_start (void)
{
  g_autoptr(SpsPluginEngine) engine = sps_plugin_engine_new ();
  const char * const off[] = { "chrome-json", NULL };
  g_autoptr(SpsPluginStatus) status = NULL;
  g_auto(GStrv) disabled = NULL;
  const char * const *kinds;

  sps_plugin_engine_set_disabled (engine, off);
  sps_plugin_engine_load_all (engine);

  g_assert_false (sps_plugin_engine_is_loaded (engine, "chrome-json"));
  status = sps_test_find_plugin_status (engine, "chrome-json");
  g_assert_cmpint (sps_plugin_status_get_state (status), ==, SPS_PLUGIN_STATE_DISABLED);
  g_assert_null (sps_plugin_status_get_error (status));
  kinds = sps_plugin_status_get_kinds (status);
  g_assert_cmpuint (g_strv_length ((char **) kinds), ==, 2);
  g_assert_cmpstr (kinds[0], ==, "importer");
  g_assert_cmpstr (kinds[1], ==, "exporter");
  /* Its .plugin file's Name and Description (plugins/chrome-json) */
  g_assert_cmpstr (sps_plugin_status_get_name (status), ==, "Chrome JSON");
  g_assert_nonnull (sps_plugin_status_get_description (status));
  g_assert_cmpuint (sps_plugin_engine_count_failed (engine), ==, 0);

  disabled = sps_plugin_engine_dup_disabled (engine);
  g_assert_cmpuint (g_strv_length (disabled), ==, 1);
  g_assert_cmpstr (disabled[0], ==, "chrome-json");

  assert_reads_json (engine, FALSE);
}

/* Off and on again while the engine is in use */
static void
test_live (void)
{
  g_autoptr(SpsPluginEngine) engine = sps_plugin_engine_new ();
  const char * const off[] = { "chrome-json", NULL };

  sps_plugin_engine_load_all (engine);
  g_assert_cmpint (state_of (engine, "chrome-json"), ==, SPS_PLUGIN_STATE_LOADED);
  assert_reads_json (engine, TRUE);

  sps_plugin_engine_set_disabled (engine, off);
  g_assert_cmpint (state_of (engine, "chrome-json"), ==, SPS_PLUGIN_STATE_DISABLED);
  assert_reads_json (engine, FALSE);

  sps_plugin_engine_set_disabled (engine, NULL);
  g_assert_cmpint (state_of (engine, "chrome-json"), ==, SPS_PLUGIN_STATE_LOADED);
  g_assert_true (sps_plugin_engine_is_loaded (engine, "chrome-json"));
  assert_reads_json (engine, TRUE);
}

static gboolean
wait_for_state (SpsPluginEngine *engine,
                const char      *module,
                SpsPluginState   state)
{
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  while (state_of (engine, module) != state && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);

  return state_of (engine, module) == state;
}

/* The engine follows the settings key, now and when it changes */
static void
test_settings (void)
{
  g_autoptr(SpsPluginEngine) engine = sps_plugin_engine_new ();
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  const char * const off[] = { "chrome-json", "no-such-plugin", NULL };

  g_assert_true (g_settings_set_strv (settings, "disabled-plugins", off));
  sps_plugin_engine_bind_settings (engine, settings);
  sps_plugin_engine_load_all (engine);
  g_assert_cmpint (state_of (engine, "chrome-json"), ==, SPS_PLUGIN_STATE_DISABLED);

  g_assert_true (g_settings_set_strv (settings, "disabled-plugins", NULL));
  g_assert_true (wait_for_state (engine, "chrome-json", SPS_PLUGIN_STATE_LOADED));
  assert_reads_json (engine, TRUE);

  g_settings_reset (settings, "disabled-plugins");
}

/* spanscope-cli reads the same setting (from a key file here) */
static void
test_cli (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *config = g_dir_make_tmp ("sps-plugin-settings-XXXXXX", &error);
  g_autofree char *keyfile = NULL;
  g_autofree char *fixture = sps_test_fixture_path ("chrome-phase-x.json");
  g_autofree char *old_backend = g_strdup (g_getenv ("GSETTINGS_BACKEND"));
  g_autofree char *old_config = g_strdup (g_getenv ("XDG_CONFIG_HOME"));
  g_autofree char *unread = NULL;

  g_assert_no_error (error);
  keyfile = sps_test_write_file (config, "glib-2.0/settings/keyfile",
                                 "[io/github/spanscope/Spanscope]\n"
                                 "disabled-plugins=['chrome-json']\n");
  g_setenv ("GSETTINGS_BACKEND", "keyfile", TRUE);
  g_setenv ("XDG_CONFIG_HOME", config, TRUE);

  {
    g_auto(SpsTestRun) text = { 0 };
    g_auto(SpsTestRun) json = { 0 };

    sps_test_run_cli_va (&text, "plugins", NULL);
    g_assert_cmpint (text.status, ==, 0);
    g_assert_nonnull (strstr (text.out, "chrome-json  disabled  importer, exporter\n    name: Chrome JSON\n"));

    sps_test_run_cli_va (&json, "plugins", "--json", NULL);
    g_assert_cmpint (json.status, ==, 0);
    g_assert_nonnull (strstr (json.out, "\"module\" : \"chrome-json\""));
    g_assert_nonnull (strstr (json.out, "\"state\" : \"disabled\""));
  }

  {
    g_auto(SpsTestRun) info = { 0 };

    sps_test_run_cli_va (&info, "info", fixture, NULL);
    g_assert_cmpint (info.status, !=, 0);
    unread = g_strdup_printf ("%s: not a trace format Spanscope can read", fixture);
    g_assert_nonnull (strstr (info.err, unread));
  }

  g_setenv ("GSETTINGS_BACKEND", old_backend, TRUE);
  if (old_config != NULL)
    g_setenv ("XDG_CONFIG_HOME", old_config, TRUE);
  else
    g_unsetenv ("XDG_CONFIG_HOME");
  sps_test_remove_tree (config);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/plugin-settings/disabled-at-start", test_disabled_at_start);
  g_test_add_func ("/core/plugin-settings/live", test_live);
  g_test_add_func ("/core/plugin-settings/settings", test_settings);
  g_test_add_func ("/core/plugin-settings/cli", test_cli);

  return g_test_run ();
}
