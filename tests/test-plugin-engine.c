/* test-plugin-engine.c: the plugin engine and sps_trace_load*() with the
 * test plugins of tests/plugins (see tests/plugins/meson.build)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-plugin-engine"

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include <spanscope-core.h>

#include "sps-test-util.h"

/* The build directory of tests/plugins, a plugin search path */
static char *test_plugin_dir;
/* Scratch space: trace files, extra plugin folders, XDG_DATA_HOME */
static char *scratch_dir;
static char *user_data_dir;
/* Shared by the load tests: SPANSCOPE_PLUGIN_PATH = test_plugin_dir */
static SpsPluginEngine *engine;

static GFile *
write_trace_file (const char *name,
                  const char *contents)
{
  g_autofree char *path = sps_test_write_file (scratch_dir, name, contents);

  return g_file_new_for_path (path);
}

/* The problem that starts with "@path: ", or NULL. */
static const char *
find_problem (SpsPluginEngine *self,
              const char      *path)
{
  const GPtrArray *problems = sps_plugin_engine_get_problems (self);
  g_autofree char *prefix = g_strdup_printf ("%s: ", path);
  const char *found = NULL;

  for (guint i = 0; i < problems->len; i++)
    {
      const char *problem = g_ptr_array_index (problems, i);

      if (g_str_has_prefix (problem, prefix))
        {
          g_assert_null (found);
          found = problem;
        }
    }

  return found;
}

static gboolean
has_name (GPtrArray  *objects,
          const char *name,
          gboolean    importers)
{
  for (guint i = 0; i < objects->len; i++)
    {
      gpointer object = g_ptr_array_index (objects, i);
      const char *other = importers ? sps_importer_get_name (object) : sps_exporter_get_name (object);

      if (g_str_equal (other, name))
        return TRUE;
    }

  return FALSE;
}

static SpsPluginEngine *
new_engine_with_path (const char *path)
{
  g_autofree char *saved = g_strdup (g_getenv ("SPANSCOPE_PLUGIN_PATH"));
  SpsPluginEngine *self;

  g_setenv ("SPANSCOPE_PLUGIN_PATH", path, TRUE);
  self = sps_plugin_engine_new ();
  g_setenv ("SPANSCOPE_PLUGIN_PATH", saved, TRUE);

  sps_plugin_engine_load_all (self);

  return self;
}

static void
test_engine_env_path (void)
{
  g_autoptr(SpsPluginEngine) self = sps_plugin_engine_new ();
  g_auto(GStrv) plugins = NULL;

  /* Nothing is scanned before load_all(). */
  plugins = sps_plugin_engine_list_plugins (self);
  g_assert_cmpuint (g_strv_length (plugins), ==, 0);
  g_clear_pointer (&plugins, g_strfreev);

  sps_plugin_engine_load_all (self);

  /* Valid .plugin files, by folder name; the two broken keyfiles are not
   * plugins at all. */
  plugins = sps_plugin_engine_list_plugins (self);
  g_assert_cmpuint (g_strv_length (plugins), >=, 4);
  g_assert_cmpstr (plugins[0], ==, "decoy");
  g_assert_cmpstr (plugins[1], ==, "lines");
  g_assert_cmpstr (plugins[2], ==, "missing");
  g_assert_cmpstr (plugins[3], ==, "noregister");

  g_assert_true (sps_plugin_engine_is_loaded (self, "lines"));
  g_assert_true (sps_plugin_engine_is_loaded (self, "decoy"));
  g_assert_false (sps_plugin_engine_is_loaded (self, "missing"));
  g_assert_false (sps_plugin_engine_is_loaded (self, "noregister"));
  g_assert_false (sps_plugin_engine_is_loaded (self, "broken"));
  g_assert_false (sps_plugin_engine_is_loaded (self, "no-such-plugin"));
}

static void
test_engine_problems (void)
{
  g_autoptr(SpsPluginEngine) self = sps_plugin_engine_new ();
  g_autofree char *broken = g_build_filename (test_plugin_dir, "broken-keyfile", "broken.plugin", NULL);
  g_autofree char *no_module = g_build_filename (test_plugin_dir, "no-module-key", "nomodule.plugin", NULL);
  g_autofree char *missing = g_build_filename (test_plugin_dir, "missing-module", "missing.plugin", NULL);
  g_autofree char *no_register = g_build_filename (test_plugin_dir, "no-register", "noregister.plugin", NULL);
  const GPtrArray *problems;
  const char *problem;
  GLogLevelFlags always_fatal;

  /* This program makes warnings fatal: libpeas's warnings about the broken
   * plugins must not reach GLib's default handler. */
  sps_plugin_engine_load_all (self);

  problems = sps_plugin_engine_get_problems (self);
  for (guint i = 0; i < problems->len; i++)
    g_test_message ("problem: %s", (const char *)g_ptr_array_index (problems, i));
  g_assert_cmpuint (problems->len, ==, 4);

  problem = find_problem (self, broken);
  g_assert_nonnull (problem);
  g_assert_true (g_str_has_prefix (problem + strlen (broken), ": not a valid plugin file: "));

  problem = find_problem (self, no_module);
  g_assert_nonnull (problem);
  g_assert_true (g_str_has_suffix (problem, ": not a valid plugin file: no Module key in [Plugin]"));

  problem = find_problem (self, missing);
  g_assert_nonnull (problem);
  g_assert_true (g_str_has_prefix (problem + strlen (missing), ": plugin “missing” could not be loaded: "));
  g_assert_nonnull (strstr (problem, "libmissing.so"));

  problem = find_problem (self, no_register);
  g_assert_nonnull (problem);
  g_assert_true (g_str_has_prefix (problem + strlen (no_register), ": plugin “noregister” could not be loaded: "));
  g_assert_nonnull (strstr (problem, "peas_register_types"));

  /* The capture put the fatal mask back. */
  always_fatal = g_log_set_always_fatal (G_LOG_FATAL_MASK);
  g_log_set_always_fatal (always_fatal);
  g_assert_true (always_fatal & G_LOG_LEVEL_WARNING);
  g_assert_true (always_fatal & G_LOG_LEVEL_CRITICAL);

  /* Loading again neither retries nor repeats anything. */
  sps_plugin_engine_load_all (self);
  g_assert_cmpuint (sps_plugin_engine_get_problems (self)->len, ==, 4);
  g_assert_true (sps_plugin_engine_is_loaded (self, "lines"));
}

static void
test_engine_importers (void)
{
  g_autoptr(SpsPluginEngine) self = new_engine_with_path (test_plugin_dir);
  g_autoptr(GPtrArray) importers = sps_plugin_engine_create_importers (self);
  g_autoptr(GPtrArray) again = sps_plugin_engine_create_importers (self);

  g_assert_true (has_name (importers, "spslines", TRUE));
  g_assert_true (has_name (importers, "decoy", TRUE));

  /* New objects every time, so loads never share importer state. */
  g_assert_cmpuint (importers->len, ==, again->len);
  for (guint i = 0; i < importers->len; i++)
    {
      g_assert_true (SPS_IS_IMPORTER (g_ptr_array_index (importers, i)));
      g_assert_true (g_ptr_array_index (importers, i) != g_ptr_array_index (again, i));
    }
}

static void
test_engine_exporters (void)
{
  g_autoptr(SpsPluginEngine) self = new_engine_with_path (test_plugin_dir);
  g_autoptr(GPtrArray) exporters = sps_plugin_engine_create_exporters (self);
  g_autoptr(SpsExporter) lines = sps_plugin_engine_create_exporter (self, "spslines");
  g_autoptr(SpsExporter) none = sps_plugin_engine_create_exporter (self, "no-such-format");

  /* "lines" provides both an importer and an exporter; "decoy" only an
   * importer. */
  g_assert_true (has_name (exporters, "spslines", FALSE));
  g_assert_false (has_name (exporters, "decoy", FALSE));
  g_assert_nonnull (lines);
  g_assert_true (SPS_IS_EXPORTER (lines));
  g_assert_cmpstr (sps_exporter_get_name (lines), ==, "spslines");
  g_assert_null (none);
}

static void
test_engine_precedence (void)
{
  g_autofree char *shadow = sps_test_write_file (scratch_dir, "shadow/lines/lines.plugin",
                                                "[Plugin]\n"
                                                "Module=lines\n"
                                                "Name=Shadowing lines\n"
                                                "X-Spanscope-API=1\n"
                                                "X-Spanscope-Kind=importer\n");
  g_autofree char *shadow_dir = g_build_filename (scratch_dir, "shadow", NULL);
  g_autofree char *first = g_strjoin (G_SEARCHPATH_SEPARATOR_S, shadow_dir, test_plugin_dir, NULL);
  g_autofree char *second = g_strjoin (G_SEARCHPATH_SEPARATOR_S, test_plugin_dir, shadow_dir, NULL);
  g_autoptr(SpsPluginEngine) shadowed = NULL;
  g_autoptr(SpsPluginEngine) shadowing = NULL;
  g_autoptr(SpsPluginEngine) added = sps_plugin_engine_new ();
  const char *problem;

  /* The first directory of SPANSCOPE_PLUGIN_PATH wins: here its "lines"
   * has no module, so the working one is not used. */
  shadowing = new_engine_with_path (first);
  g_assert_false (sps_plugin_engine_is_loaded (shadowing, "lines"));
  g_assert_true (sps_plugin_engine_is_loaded (shadowing, "decoy"));
  problem = find_problem (shadowing, shadow);
  g_assert_nonnull (problem);
  g_assert_true (g_str_has_prefix (problem + strlen (shadow), ": plugin “lines” could not be loaded: "));

  /* The other way round the copy is ignored without a problem. */
  shadowed = new_engine_with_path (second);
  g_assert_true (sps_plugin_engine_is_loaded (shadowed, "lines"));
  g_assert_null (find_problem (shadowed, shadow));
  g_assert_cmpuint (sps_plugin_engine_get_problems (shadowed)->len, ==, 4);

  /* A path added later comes after the environment's. */
  sps_plugin_engine_add_search_path (added, shadow_dir);
  sps_plugin_engine_load_all (added);
  g_assert_true (sps_plugin_engine_is_loaded (added, "lines"));
  g_assert_null (find_problem (added, shadow));

  sps_test_remove_tree (shadow_dir);
}

static void
test_engine_user_data_dir (void)
{
  g_autofree char *dir = g_build_filename (user_data_dir, "spanscope", "plugins", "mine", NULL);
  g_autofree char *path = g_build_filename (dir, "mine.plugin", NULL);
  g_autoptr(SpsPluginEngine) self = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) plugins = NULL;
  const char *problem;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_file_set_contents (path, "[Plugin]\nModule=mine\nName=Mine\nX-Spanscope-API=1\nX-Spanscope-Kind=view\n", -1, &error);
  g_assert_no_error (error);

  self = new_engine_with_path (test_plugin_dir);

  plugins = sps_plugin_engine_list_plugins (self);
  g_assert_true (g_strv_contains ((const char * const *) plugins, "mine"));
  g_assert_false (sps_plugin_engine_is_loaded (self, "mine"));
  problem = find_problem (self, path);
  g_assert_nonnull (problem);
  g_assert_nonnull (strstr (problem, "libmine.so"));

  sps_test_remove_tree (dir);
}

static void
test_engine_default (void)
{
  SpsPluginEngine *self = sps_plugin_engine_get_default ();

  g_assert_true (SPS_IS_PLUGIN_ENGINE (self));
  g_assert_true (sps_plugin_engine_get_default () == self);
  g_assert_true (sps_plugin_engine_is_loaded (self, "lines"));
}

/* Loading */

typedef struct
{
  GAsyncResult *result;
  GThread      *callback_thread;
  GArray       *phases;             /* SpsProgressPhase per "changed" */
  GPtrArray    *messages;
  GCancellable *cancel_when_paused;
} LoadState;

static void
load_state_init (LoadState *state)
{
  memset (state, 0, sizeof *state);
  state->phases = g_array_new (FALSE, FALSE, sizeof (SpsProgressPhase));
  state->messages = g_ptr_array_new_with_free_func (g_free);
}

static void
load_state_clear (LoadState *state)
{
  g_clear_object (&state->result);
  g_clear_pointer (&state->phases, g_array_unref);
  g_clear_pointer (&state->messages, g_ptr_array_unref);
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  LoadState *state = user_data;

  state->callback_thread = g_thread_self ();
  state->result = g_object_ref (result);
}

static void
on_progress_changed (SpsProgress *progress,
                     LoadState   *state)
{
  SpsProgressPhase phase = sps_progress_get_phase (progress);
  char *message = sps_progress_dup_message (progress);

  g_array_append_val (state->phases, phase);
  g_ptr_array_add (state->messages, message);

  if (state->cancel_when_paused != NULL && g_strcmp0 (message, "paused") == 0)
    g_cancellable_cancel (state->cancel_when_paused);
}

/* Runs sps_trace_load_async() on the default main context; @state
 * records what @progress (if any) reports meanwhile. */
static SpsTrace *
load_async (GFile         *file,
            SpsLoadFlags   flags,
            SpsProgress   *progress,
            GCancellable  *cancellable,
            LoadState     *state,
            GError       **error)
{
  SpsTrace *trace;
  gulong changed_id = 0;

  if (progress != NULL)
    changed_id = g_signal_connect (progress, "changed", G_CALLBACK (on_progress_changed), state);

  sps_trace_load_async (file, engine, NULL, flags, progress, cancellable, load_cb, state);

  while (state->result == NULL)
    g_main_context_iteration (NULL, TRUE);

  g_assert_true (state->callback_thread == g_thread_self ());

  trace = sps_trace_load_finish (state->result, error);

  /* Progress is reported at idle priority: let the last report arrive. */
  while (g_main_context_iteration (NULL, FALSE))
    ;

  if (progress != NULL)
    g_clear_signal_handler (&changed_id, progress);

  return trace;
}

/* Loads @file with the shared engine, which must succeed. */
static SpsTrace *
load_ok (GFile        *file,
         SpsLoadFlags  flags)
{
  g_autoptr(GError) error = NULL;
  SpsTrace *trace = sps_trace_load (file, engine, NULL, flags, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (trace);
  return trace;
}

static void
test_load_best_probe (void)
{
  g_autoptr(GFile) file = write_trace_file ("best.lines",
                                            "SPSLINES\n"
                                            "100 50 alpha\n"
                                            "# a comment\n"
                                            "300 0 gamma\n"
                                            "200 10 beta\n");
  g_autoptr(SpsTrace) trace = NULL;
  const SpsSliceTable *slices;

  /* Both "lines" (100) and "decoy" (10) claim the file. */
  trace = load_ok (file, SPS_LOAD_FLAGS_NONE);

  g_assert_cmpstr (sps_trace_get_format (trace), ==, "spslines");
  g_assert_null (sps_trace_get_load_error (trace));
  g_assert_cmpuint (sps_trace_get_events_read (trace), ==, 3);
  g_assert_cmpuint (sps_trace_get_processes (trace)->n_rows, ==, 1);
  g_assert_cmpuint (sps_trace_get_threads (trace)->n_rows, ==, 1);
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES), ==, 3);
  g_assert_cmpint (sps_trace_get_start_time (trace), ==, 100);
  g_assert_cmpint (sps_trace_get_end_time (trace), ==, 300);

  slices = sps_trace_get_slices (trace);
  g_assert_cmpuint (slices->n_rows, ==, 3);
  g_assert_cmpstr (sps_trace_get_string (trace, slices->name[0]), ==, "alpha");
  g_assert_cmpstr (sps_trace_get_string (trace, slices->name[1]), ==, "beta");
  g_assert_cmpstr (sps_trace_get_string (trace, slices->name[2]), ==, "gamma");
  g_assert_cmpint (slices->dur[1], ==, 10);
}

/* Loads @file with the shared engine, which must fail with @domain and
 * @code, and with @message unless it is NULL. */
static void
assert_load_fails (GFile        *file,
                   SpsLoadFlags  flags,
                   GQuark        domain,
                   int           code,
                   const char   *message)
{
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;

  trace = sps_trace_load (file, engine, NULL, flags, NULL, NULL, &error);
  g_assert_error (error, domain, code);
  if (message != NULL)
    g_assert_cmpstr (error->message, ==, message);
  g_assert_null (trace);
}

static void
test_load_lower_score_chosen (void)
{
  g_autoptr(GFile) file = write_trace_file ("decoy.txt", "SPSX not lines\n");
  g_autofree char *expected = g_strdup_printf ("%s (byte 0): the decoy importer reads nothing",
                                               g_file_peek_path (file));

  /* Only the decoy claims it, and its error reaches the caller as is. */
  assert_load_fails (file, SPS_LOAD_FLAGS_NONE, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_UNSUPPORTED, expected);
}

static void
test_load_unknown_format (void)
{
  g_autoptr(GFile) text = write_trace_file ("hello.txt", "hello, world\n");
  g_autoptr(GFile) empty = write_trace_file ("empty.txt", "");
  g_autofree char *expected = g_strdup_printf ("%s: not a trace format Spanscope can read",
                                               g_file_peek_path (text));

  assert_load_fails (text, SPS_LOAD_FLAGS_KEEP_PARTIAL,
                     SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_UNKNOWN_FORMAT, expected);
  assert_load_fails (empty, SPS_LOAD_FLAGS_NONE, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_UNKNOWN_FORMAT, NULL);
}

static void
test_load_not_found (void)
{
  g_autofree char *path = g_build_filename (scratch_dir, "no-such-file.lines", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);

  assert_load_fails (file, SPS_LOAD_FLAGS_NONE, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, NULL);
}

/* Line 3 starts at byte 9 + 6 = 15; its second field at byte 17. */
#define MALFORMED_LINES "SPSLINES\n1 2 a\n3 x b\n4 1 c\n"
#define MALFORMED_LINES_ERROR "%s:3:3 (byte 17): expected a duration that is an integer >= 0"

static void
test_load_malformed (void)
{
  g_autoptr(GFile) file = write_trace_file ("malformed.lines", MALFORMED_LINES);
  g_autofree char *expected = g_strdup_printf (MALFORMED_LINES_ERROR, g_file_peek_path (file));

  assert_load_fails (file, SPS_LOAD_FLAGS_NONE, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_MALFORMED, expected);
}

static void
test_load_keep_partial (void)
{
  g_autoptr(GFile) file = write_trace_file ("partial.lines", MALFORMED_LINES);
  g_autofree char *expected = g_strdup_printf (MALFORMED_LINES_ERROR, g_file_peek_path (file));
  g_autoptr(SpsTrace) trace = NULL;
  const GError *load_error;

  /* What was read before the error is kept, and the error with it. */
  trace = load_ok (file, SPS_LOAD_FLAGS_KEEP_PARTIAL);
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES), ==, 1);
  g_assert_cmpuint (sps_trace_get_events_read (trace), ==, 1);

  load_error = sps_trace_get_load_error (trace);
  g_assert_nonnull (load_error);
  g_assert_true (g_error_matches (load_error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_MALFORMED));
  g_assert_cmpstr (load_error->message, ==, expected);
}

static void
test_load_async_progress (void)
{
  g_autoptr(GFile) file = write_trace_file ("async.lines",
                                            "SPSLINES\n"
                                            "0 10 one\n"
                                            "5 2 two\n"
                                            "20 5 three\n");
  g_autoptr(SpsProgress) progress = sps_progress_new (NULL);
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  LoadState state;

  load_state_init (&state);

  trace = load_async (file, SPS_LOAD_FLAGS_NONE, progress, NULL, &state, &error);
  g_assert_no_error (error);
  g_assert_nonnull (trace);
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES), ==, 3);
  g_assert_cmpint (sps_trace_get_end_time (trace), ==, 25);

  /* Updates are coalesced, so phases may be skipped, never reordered; the
   * last one is DONE. */
  g_assert_cmpuint (state.phases->len, >=, 1);
  for (guint i = 1; i < state.phases->len; i++)
    g_assert_cmpint (g_array_index (state.phases, SpsProgressPhase, i - 1), <=,
                     g_array_index (state.phases, SpsProgressPhase, i));
  g_assert_cmpint (g_array_index (state.phases, SpsProgressPhase, state.phases->len - 1), ==,
                   SPS_PROGRESS_PHASE_DONE);
  g_assert_cmpstr (g_ptr_array_index (state.messages, state.messages->len - 1), ==, "Loaded");
  g_assert_cmpfloat (sps_progress_get_fraction (progress), ==, 1.0);

  load_state_clear (&state);
}

static void
test_load_async_failure (void)
{
  g_autoptr(GFile) file = write_trace_file ("async-unknown.txt", "nothing to see\n");
  g_autoptr(SpsProgress) progress = sps_progress_new (NULL);
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  LoadState state;

  load_state_init (&state);

  trace = load_async (file, SPS_LOAD_FLAGS_NONE, progress, NULL, &state, &error);
  g_assert_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_UNKNOWN_FORMAT);
  g_assert_null (trace);

  g_assert_cmpint (sps_progress_get_phase (progress), ==, SPS_PROGRESS_PHASE_DONE);
  g_assert_cmpuint (state.messages->len, >=, 1);
  g_assert_cmpstr (g_ptr_array_index (state.messages, state.messages->len - 1), ==, "Failed");

  load_state_clear (&state);
}

static void
test_load_cancel_before (void)
{
  g_autoptr(GFile) file = write_trace_file ("cancel-before.lines", "SPSLINES\n1 1 a\n");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(SpsProgress) cancelled_progress = sps_progress_new (NULL);
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  LoadState state;

  /* Through the cancellable … */
  g_cancellable_cancel (cancellable);
  load_state_init (&state);
  trace = load_async (file, SPS_LOAD_FLAGS_KEEP_PARTIAL, NULL, cancellable, &state, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (trace);
  g_clear_error (&error);
  load_state_clear (&state);

  /* … or through the progress. */
  sps_progress_cancel (cancelled_progress);
  load_state_init (&state);
  trace = load_async (file, SPS_LOAD_FLAGS_NONE, cancelled_progress, NULL, &state, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (trace);
  load_state_clear (&state);
}

static void
test_load_cancel_during (void)
{
  g_autoptr(GFile) file = write_trace_file ("cancel-during.lines",
                                            "SPSLINES\n"
                                            "1 1 before\n"
                                            "#pause\n"
                                            "2 1 after\n");
  const SpsLoadFlags flags[] = { SPS_LOAD_FLAGS_NONE, SPS_LOAD_FLAGS_KEEP_PARTIAL };

  for (guint i = 0; i < G_N_ELEMENTS (flags); i++)
    {
      g_autoptr(GCancellable) cancellable = g_cancellable_new ();
      g_autoptr(SpsProgress) progress = sps_progress_new (NULL);
      g_autoptr(SpsTrace) trace = NULL;
      g_autoptr(GError) error = NULL;
      LoadState state;

      /* The importer waits at "#pause" until the caller's cancellable
       * (not the progress's own) is cancelled from the main thread. */
      load_state_init (&state);
      state.cancel_when_paused = cancellable;

      trace = load_async (file, flags[i], progress, cancellable, &state, &error);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_assert_null (trace);
      g_assert_true (sps_progress_is_cancelled (progress));
      g_assert_cmpint (sps_progress_get_phase (progress), ==, SPS_PROGRESS_PHASE_DONE);
      g_assert_cmpstr (g_ptr_array_index (state.messages, state.messages->len - 1), ==, "Cancelled");

      load_state_clear (&state);
    }
}

static gpointer
load_in_thread (gpointer data)
{
  GFile *file = data;
  g_autoptr(GError) error = NULL;
  SpsTrace *trace;

  trace = sps_trace_load (file, engine, NULL, SPS_LOAD_FLAGS_NONE, NULL, NULL, &error);
  g_assert_no_error (error);

  return trace;
}

static void
test_load_sync_in_thread (void)
{
  g_autoptr(GFile) file = write_trace_file ("thread.lines", "SPSLINES\n7 3 only\n");
  g_autoptr(SpsTrace) trace = NULL;
  GThread *thread;

  thread = g_thread_new ("load", load_in_thread, file);
  trace = g_thread_join (thread);

  g_assert_nonnull (trace);
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES), ==, 1);
  g_assert_cmpint (sps_trace_get_start_time (trace), ==, 7);
  g_assert_cmpint (sps_trace_get_end_time (trace), ==, 10);
}

static void
test_load_default_engine (void)
{
  g_autoptr(GFile) file = write_trace_file ("default.lines", "SPSLINES\n1 1 a\n2 1 b\n");
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;

  trace = sps_trace_load (file, NULL, NULL, SPS_LOAD_FLAGS_NONE, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES), ==, 2);
}

static void
test_export_round_trip (void)
{
  g_autoptr(GFile) file = write_trace_file ("export.lines", "SPSLINES\n30 5 c\n10 40 a\n20 5 b\n");
  g_autoptr(SpsExporter) exporter = sps_plugin_engine_create_exporter (engine, "spslines");
  g_autoptr(GOutputStream) stream = g_memory_output_stream_new_resizable ();
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  trace = sps_trace_load (file, engine, NULL, SPS_LOAD_FLAGS_NONE, NULL, NULL, &error);
  g_assert_no_error (error);

  g_assert_true (sps_exporter_write (exporter, trace, NULL, stream, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_write_all (stream, "", 1, NULL, NULL, &error));
  g_output_stream_close (stream, NULL, &error);
  g_assert_no_error (error);

  text = g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (stream));
  g_assert_cmpstr (text, ==, "SPSLINES\n10 40 a\n20 5 b\n30 5 c\n");
}

/* The contract the wrappers of sps-importer.c and sps-exporter.c keep
 * whatever an implementation does: TestAddin breaks it as told (and
 * probes too high); TestBareAddin implements no method at all. */

typedef enum
{
  BEHAVE_FAIL_SILENTLY,        /* FALSE without an error */
  BEHAVE_SUCCEED_WITH_ERROR,   /* TRUE with an error set */
} Behaviour;

struct _TestAddin
{
  GObject   parent_instance;
  Behaviour behaviour;
  guint     n_calls;
  gboolean  had_progress;
};

#define TEST_TYPE_ADDIN (test_addin_get_type ())
G_DECLARE_FINAL_TYPE (TestAddin, test_addin, TEST, ADDIN, GObject)

static gboolean
test_addin_run (TestAddin    *self,
                SpsProgress  *progress,
                GError      **error)
{
  self->n_calls++;
  self->had_progress = SPS_IS_PROGRESS (progress);

  if (self->behaviour == BEHAVE_SUCCEED_WITH_ERROR)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT, "half done");
      return TRUE;
    }

  return FALSE;
}

static guint
test_addin_probe (SpsImporter *importer,
                  GFile       *file,
                  GBytes      *head)
{
  return 250;
}

static gboolean
test_addin_load (SpsImporter      *importer,
                 GFile            *file,
                 GVariant         *options,
                 SpsTraceBuilder  *builder,
                 SpsProgress      *progress,
                 GError          **error)
{
  return test_addin_run (TEST_ADDIN (importer), progress, error);
}

static gboolean
test_addin_write (SpsExporter    *exporter,
                  SpsTrace       *trace,
                  GVariant       *options,
                  GOutputStream  *stream,
                  SpsProgress    *progress,
                  GError        **error)
{
  return test_addin_run (TEST_ADDIN (exporter), progress, error);
}

static void
test_addin_importer_init (SpsImporterInterface *iface)
{
  iface->probe = test_addin_probe;
  iface->load = test_addin_load;
}

static void
test_addin_exporter_init (SpsExporterInterface *iface)
{
  iface->write = test_addin_write;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (TestAddin, test_addin, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SPS_TYPE_IMPORTER, test_addin_importer_init)
                               G_IMPLEMENT_INTERFACE (SPS_TYPE_EXPORTER, test_addin_exporter_init))

static void
test_addin_class_init (TestAddinClass *klass)
{
}

static void
test_addin_init (TestAddin *self)
{
}

struct _TestBareAddin
{
  GObject parent_instance;
};

#define TEST_TYPE_BARE_ADDIN (test_bare_addin_get_type ())
G_DECLARE_FINAL_TYPE (TestBareAddin, test_bare_addin, TEST, BARE_ADDIN, GObject)

G_DEFINE_FINAL_TYPE_WITH_CODE (TestBareAddin, test_bare_addin, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SPS_TYPE_IMPORTER, NULL)
                               G_IMPLEMENT_INTERFACE (SPS_TYPE_EXPORTER, NULL))

static void
test_bare_addin_class_init (TestBareAddinClass *klass)
{
}

static void
test_bare_addin_init (TestBareAddin *self)
{
}

/* Runs @addin as an importer (a load into a new builder) or as an
 * exporter (a write of an empty trace to memory). */
static gboolean
run_addin (gpointer      addin,
           gboolean      as_importer,
           SpsProgress  *progress,
           GError      **error)
{
  g_autoptr(GFile) file = g_file_new_for_path ("/nonexistent/contract.trace");
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GOutputStream) stream = NULL;

  if (as_importer)
    return sps_importer_load (addin, file, NULL, builder, progress, error);

  trace = sps_trace_builder_finish (builder, NULL, NULL);
  stream = g_memory_output_stream_new_resizable ();
  return sps_exporter_write (addin, trace, NULL, stream, progress, error);
}

static const char *
kind_name (gboolean as_importer)
{
  return as_importer ? "importer" : "exporter";
}

static void
test_contract_defaults (void)
{
  g_autoptr(TestBareAddin) bare = g_object_new (TEST_TYPE_BARE_ADDIN, NULL);
  g_autoptr(TestAddin) addin = g_object_new (TEST_TYPE_ADDIN, NULL);
  g_autoptr(GFile) file = g_file_new_for_path ("/nonexistent/contract.trace");
  g_autoptr(GBytes) head = g_bytes_new_static ("SPS", 3);

  /* Without get_name the type name serves; without probe nothing is
   * claimed; a probe above 100 breaks the contract and counts as 0 (no
   * engine made this one, so no plugin is blamed: see
   * test-plugin-failures for one that is). */
  g_assert_cmpstr (sps_importer_get_name (SPS_IMPORTER (bare)), ==, "TestBareAddin");
  g_assert_cmpstr (sps_exporter_get_name (SPS_EXPORTER (bare)), ==, "TestBareAddin");
  g_assert_cmpuint (sps_importer_probe (SPS_IMPORTER (bare), file, head), ==, 0);
  g_assert_cmpuint (sps_importer_probe (SPS_IMPORTER (addin), file, head), ==, 0);

  for (guint k = 0; k < 2; k++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *expected = g_strdup_printf (k ? "The TestBareAddin importer cannot load files"
                                                     : "The TestBareAddin exporter cannot write traces");

      g_assert_false (run_addin (bare, k, NULL, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
      g_assert_cmpstr (error->message, ==, expected);
    }
}

static void
test_contract_silent_failure (void)
{
  for (guint k = 0; k < 2; k++)
    {
      g_autoptr(TestAddin) addin = g_object_new (TEST_TYPE_ADDIN, NULL);
      g_autoptr(GError) error = NULL;
      g_autofree char *expected = g_strdup_printf ("The TestAddin %s failed without giving a reason",
                                                   kind_name (k));

      /* A failure gets a reason; without a progress of the caller's the
       * implementation gets one of its own. */
      addin->behaviour = BEHAVE_FAIL_SILENTLY;
      g_assert_false (run_addin (addin, k, NULL, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_FAILED);
      g_assert_cmpstr (error->message, ==, expected);
      g_assert_cmpuint (addin->n_calls, ==, 1);
      g_assert_true (addin->had_progress);
    }
}

static void
test_contract_error_with_success (void)
{
  for (guint k = 0; k < 2; k++)
    {
      g_autoptr(TestAddin) addin = g_object_new (TEST_TYPE_ADDIN, NULL);
      g_autoptr(SpsProgress) progress = sps_progress_new (NULL);
      g_autoptr(GError) error = NULL;

      /* An error set with a success value is a failure */
      addin->behaviour = BEHAVE_SUCCEED_WITH_ERROR;
      g_test_message ("%s", kind_name (k));
      g_assert_false (run_addin (addin, k, progress, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT);
      g_assert_cmpstr (error->message, ==, "half done");
      g_assert_cmpuint (addin->n_calls, ==, 1);
    }
}

static void
test_contract_cancelled (void)
{
  for (guint k = 0; k < 2; k++)
    {
      g_autoptr(TestAddin) addin = g_object_new (TEST_TYPE_ADDIN, NULL);
      g_autoptr(SpsProgress) progress = sps_progress_new (NULL);
      g_autoptr(GError) error = NULL;

      /* A cancelled operation does not start */
      sps_progress_cancel (progress);
      g_test_message ("%s", kind_name (k));
      g_assert_false (run_addin (addin, k, progress, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_assert_cmpuint (addin->n_calls, ==, 0);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);

  /* Only the test plugins, and a private user data directory that the
   * user-dir test fills; set before anything reads them. */
  test_plugin_dir = g_test_build_filename (G_TEST_BUILT, "plugins", NULL);
  scratch_dir = g_dir_make_tmp ("spanscope-test-engine-XXXXXX", &error);
  g_assert_no_error (error);
  user_data_dir = g_build_filename (scratch_dir, "xdg-data", NULL);
  g_setenv ("SPANSCOPE_PLUGIN_PATH", test_plugin_dir, TRUE);
  g_setenv ("XDG_DATA_HOME", user_data_dir, TRUE);

  engine = sps_plugin_engine_new ();
  sps_plugin_engine_load_all (engine);

  g_test_add_func ("/core/plugin-engine/env-path", test_engine_env_path);
  g_test_add_func ("/core/plugin-engine/problems", test_engine_problems);
  g_test_add_func ("/core/plugin-engine/importers", test_engine_importers);
  g_test_add_func ("/core/plugin-engine/exporters", test_engine_exporters);
  g_test_add_func ("/core/plugin-engine/precedence", test_engine_precedence);
  g_test_add_func ("/core/plugin-engine/user-data-dir", test_engine_user_data_dir);
  g_test_add_func ("/core/plugin-engine/default", test_engine_default);
  g_test_add_func ("/core/load/best-probe", test_load_best_probe);
  g_test_add_func ("/core/load/lower-score-chosen", test_load_lower_score_chosen);
  g_test_add_func ("/core/load/unknown-format", test_load_unknown_format);
  g_test_add_func ("/core/load/not-found", test_load_not_found);
  g_test_add_func ("/core/load/malformed", test_load_malformed);
  g_test_add_func ("/core/load/keep-partial", test_load_keep_partial);
  g_test_add_func ("/core/load/async-progress", test_load_async_progress);
  g_test_add_func ("/core/load/async-failure", test_load_async_failure);
  g_test_add_func ("/core/load/cancel-before", test_load_cancel_before);
  g_test_add_func ("/core/load/cancel-during", test_load_cancel_during);
  g_test_add_func ("/core/load/sync-in-thread", test_load_sync_in_thread);
  g_test_add_func ("/core/load/default-engine", test_load_default_engine);
  g_test_add_func ("/core/export/round-trip", test_export_round_trip);
  g_test_add_func ("/core/addin-contract/defaults", test_contract_defaults);
  g_test_add_func ("/core/addin-contract/silent-failure", test_contract_silent_failure);
  g_test_add_func ("/core/addin-contract/error-with-success", test_contract_error_with_success);
  g_test_add_func ("/core/addin-contract/cancelled", test_contract_cancelled);

  ret = g_test_run ();

  g_clear_object (&engine);
  sps_test_remove_tree (scratch_dir);
  g_clear_pointer (&scratch_dir, g_free);
  g_clear_pointer (&user_data_dir, g_free);
  g_clear_pointer (&test_plugin_dir, g_free);

  return ret;
}
