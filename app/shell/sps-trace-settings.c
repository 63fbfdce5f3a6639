/* sps-trace-settings.c: what the user marked on a trace, kept for the next
 * time it opens (pinned threads, flags, the user's classes)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-trace-settings"

#include "config.h"

#include <errno.h>

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "sps-trace-settings.h"

/*
 * One JSON file per trace, in $XDG_CONFIG_HOME/spanscope/traces/, named by
 * the SHA-256 of the trace's URI:
 *
 *   { "version": 1, "file": URI,
 *     "pinned": [ { "pid": 10, "tid": 7 } ],
 *     "flags": [ { "time": 1500000, "name": "Flag 1" } ],
 *     "classes": [ { "name": "gc", "rules": [ { "name": "GC*" } ] } ] }
 *
 * Threads are named by pid and tid, which stay the same when the trace is
 * read again; the Go to Time flag is a mark of the moment, not kept; classes are the view filter's serialised classes other than
 * the ones every session makes. The file is written whenever one of these
 * changes and read once when the trace opens; a file that does not parse
 * is ignored (and overwritten by the next change).
 */

/* The classes a session makes by itself: not the user's to save */
static gboolean
is_own_class (const char *name)
{
  return g_strcmp0 (name, "categories-shown") == 0 ||
         g_strcmp0 (name, "error") == 0 ||
         g_strcmp0 (name, "instrumentation") == 0;
}

/**
 * sps_trace_settings_path:
 * @trace_file: a trace
 *
 * Returns: (transfer full): where the trace's settings are kept
 */
char *
sps_trace_settings_path (GFile *trace_file)
{
  g_autofree char *uri = g_file_get_uri (trace_file);
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, uri, -1);
  g_autofree char *name = g_strconcat (hash, ".json", NULL);

  return g_build_filename (g_get_user_config_dir (), "spanscope", "traces", name, NULL);
}

/* The settings file is the user's: a member of the wrong type, or an
 * array element that is not an object, is skipped rather than handed to
 * json-glib's accessors, which would warn (and abort under fatal
 * criticals). */
static JsonArray *
get_array_member (JsonObject *object,
                  const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

static JsonObject *
get_object_element (JsonArray *array,
                    guint      index)
{
  JsonNode *node = json_array_get_element (array, index);

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

static void
add_classes (JsonBuilder   *builder,
             SpsViewFilter *filter)
{
  g_autofree char *text = sps_view_filter_to_json (filter);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root;
  JsonArray *classes;

  json_builder_set_member_name (builder, "classes");
  json_builder_begin_array (builder);
  if (json_parser_load_from_data (parser, text, -1, NULL) &&
      JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)) &&
      (root = json_node_get_object (json_parser_get_root (parser))) != NULL &&
      (classes = get_array_member (root, "classes")) != NULL)
    for (guint i = 0; i < json_array_get_length (classes); i++)
      {
        JsonObject *klass = get_object_element (classes, i);

        if (klass == NULL || is_own_class (json_object_get_string_member_with_default (klass, "name", NULL)))
          continue;
        json_builder_add_value (builder, json_node_copy (json_array_get_element (classes, i)));
      }
  json_builder_end_array (builder);
}

/**
 * sps_trace_settings_to_json:
 * @session: a session
 * @trace_file: (nullable): its trace's file
 *
 * Returns: (transfer full): @session's pinned threads, flags and user
 *   classes as the settings file holds them
 */
char *
sps_trace_settings_to_json (SpsSession *session,
                            GFile      *trace_file)
{
  SpsTrace *trace = sps_session_get_trace (session);
  const SpsThreadTable *threads = sps_trace_get_threads (trace);
  const SpsProcessTable *processes = sps_trace_get_processes (trace);
  GListModel *flags = sps_session_get_flags (session);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  const guint32 *pinned;
  guint n_pinned;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "version");
  json_builder_add_int_value (builder, 1);
  if (trace_file != NULL)
    {
      g_autofree char *uri = g_file_get_uri (trace_file);

      json_builder_set_member_name (builder, "file");
      json_builder_add_string_value (builder, uri);
    }

  json_builder_set_member_name (builder, "pinned");
  json_builder_begin_array (builder);
  pinned = sps_session_get_pinned_threads (session, &n_pinned);
  for (guint i = 0; i < n_pinned; i++)
    {
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "pid");
      json_builder_add_int_value (builder, processes->pid[threads->process[pinned[i]]]);
      json_builder_set_member_name (builder, "tid");
      json_builder_add_int_value (builder, threads->tid[pinned[i]]);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "flags");
  json_builder_begin_array (builder);
  for (guint i = 0; i < g_list_model_get_n_items (flags); i++)
    {
      g_autoptr(SpsFlag) flag = g_list_model_get_item (flags, i);

      if (sps_session_is_go_to_flag (session, flag))
        continue;
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "time");
      json_builder_add_int_value (builder, sps_flag_get_time (flag));
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, sps_flag_get_name (flag));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  add_classes (builder, sps_session_get_view_filter (session));
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  return json_generator_to_data (generator, NULL);
}

static guint
find_thread (SpsTrace *trace,
             gint64    pid,
             gint64    tid)
{
  const SpsThreadTable *threads = sps_trace_get_threads (trace);
  const SpsProcessTable *processes = sps_trace_get_processes (trace);

  for (guint t = 0; t < threads->n_rows; t++)
    if (threads->tid[t] == tid && threads->process[t] < processes->n_rows &&
        processes->pid[threads->process[t]] == pid)
      return t;
  return SPS_NO_INDEX;
}

static void
apply_classes (SpsSession *session,
               JsonArray  *classes)
{
  static const struct { const char *key; SpsClassRuleKind kind; } kinds[] = {
    { "category", SPS_CLASS_RULE_CATEGORY },
    { "name", SPS_CLASS_RULE_NAME },
    { "arg", SPS_CLASS_RULE_ARG },
  };

  for (guint i = 0; i < json_array_get_length (classes); i++)
    {
      JsonObject *klass = get_object_element (classes, i);
      const char *name;
      JsonArray *rules;

      if (klass == NULL ||
          (name = json_object_get_string_member_with_default (klass, "name", NULL)) == NULL ||
          *name == '\0' || is_own_class (name) ||
          (rules = get_array_member (klass, "rules")) == NULL)
        continue;

      for (guint r = 0; r < json_array_get_length (rules); r++)
        {
          JsonObject *rule = get_object_element (rules, r);

          for (guint k = 0; rule != NULL && k < G_N_ELEMENTS (kinds); k++)
            {
              const char *pattern = json_object_get_string_member_with_default (rule, kinds[k].key, NULL);
              g_autoptr(GError) error = NULL;

              if (pattern == NULL)
                continue;
              /* More classes than the filter holds: the rest is dropped */
              if (!sps_session_add_class_rule (session, name, kinds[k].kind, pattern,
                                               json_object_get_string_member_with_default (rule, "value", NULL),
                                               &error))
                return;
            }
        }
    }
}

/**
 * sps_trace_settings_apply:
 * @session: a session with no pin, flag or class of the user yet
 * @json: a settings file's text
 * @error: return location for a #GError
 *
 * Pins the threads, adds the flags and makes the classes @json lists.
 * Threads the trace does not have are skipped.
 *
 * Returns: %FALSE with @error set when @json is not a settings object
 */
gboolean
sps_trace_settings_apply (SpsSession  *session,
                          const char  *json,
                          GError     **error)
{
  SpsTrace *trace = sps_session_get_trace (session);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root;
  JsonArray *array;

  if (!json_parser_load_from_data (parser, json, -1, error))
    return FALSE;
  if (!JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("The trace's settings are not a JSON object"));
      return FALSE;
    }
  root = json_node_get_object (json_parser_get_root (parser));

  if ((array = get_array_member (root, "pinned")) != NULL)
    for (guint i = 0; i < json_array_get_length (array); i++)
      {
        JsonObject *pin = get_object_element (array, i);
        guint thread;

        if (pin == NULL)
          continue;
        thread = find_thread (trace, json_object_get_int_member_with_default (pin, "pid", G_MININT64),
                              json_object_get_int_member_with_default (pin, "tid", G_MININT64));
        if (thread != SPS_NO_INDEX)
          sps_session_set_thread_pinned (session, thread, TRUE);
      }

  if ((array = get_array_member (root, "flags")) != NULL)
    for (guint i = 0; i < json_array_get_length (array); i++)
      {
        JsonObject *flag = get_object_element (array, i);

        JsonNode *time = flag != NULL ? json_object_get_member (flag, "time") : NULL;

        if (time == NULL || json_node_get_value_type (time) != G_TYPE_INT64)
          continue;
        sps_session_add_flag (session, json_node_get_int (time),
                              json_object_get_string_member_with_default (flag, "name", ""));
      }

  if ((array = get_array_member (root, "classes")) != NULL)
    apply_classes (session, array);

  return TRUE;
}

/* Saving */

typedef struct
{
  GWeakRef  session;
  GFile    *file;
  char     *last;   /* what was written last, so unchanged state is not */
  guint     idle;
} Saver;

static void
saver_free (gpointer data)
{
  Saver *saver = data;

  g_clear_handle_id (&saver->idle, g_source_remove);
  g_weak_ref_clear (&saver->session);
  g_clear_object (&saver->file);
  g_free (saver->last);
  g_free (saver);
}

static gboolean
save_now (gpointer data)
{
  Saver *saver = data;
  g_autoptr(SpsSession) session = g_weak_ref_get (&saver->session);
  g_autofree char *json = NULL;
  g_autofree char *path = NULL;
  g_autofree char *dir = NULL;
  g_autoptr(GError) error = NULL;

  saver->idle = 0;
  if (session == NULL)
    return G_SOURCE_REMOVE;

  json = sps_trace_settings_to_json (session, saver->file);
  if (g_strcmp0 (json, saver->last) == 0)
    return G_SOURCE_REMOVE;

  path = sps_trace_settings_path (saver->file);
  dir = g_path_get_dirname (path);
  if (g_mkdir_with_parents (dir, 0700) != 0 || !g_file_set_contents (path, json, -1, &error))
    {
      g_warning ("Cannot save the trace's settings to %s: %s", path,
                 error != NULL ? error->message : g_strerror (errno));
      return G_SOURCE_REMOVE;
    }
  g_free (saver->last);
  saver->last = g_steal_pointer (&json);
  return G_SOURCE_REMOVE;
}

/* Changes come in bursts (a settings file read, typing a flag's name):
 * one write after them. The session's saver is looked up from the
 * session, so that no handler outlives it. */
static void
schedule_save (SpsSession *session)
{
  Saver *saver = g_object_get_data (G_OBJECT (session), "sps-trace-settings");

  if (saver != NULL && saver->idle == 0)
    saver->idle = g_idle_add (save_now, saver);
}

static void
watch_flags (SpsSession *session,
             guint       position,
             guint       added)
{
  GListModel *flags = sps_session_get_flags (session);

  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(SpsFlag) flag = g_list_model_get_item (flags, i);

      g_signal_connect_object (flag, "notify::name", G_CALLBACK (schedule_save), session, G_CONNECT_SWAPPED);
    }
}

static void
flags_changed_cb (SpsSession *session,
                  guint       position,
                  guint       removed,
                  guint       added)
{
  watch_flags (session, position, added);
  schedule_save (session);
}

/**
 * sps_trace_settings_attach:
 * @session: the session of a trace just opened
 * @trace_file: (nullable): the trace's file; %NULL keeps nothing
 *
 * Reads @trace_file's settings into @session, then writes them whenever
 * a pin, a flag or a class changes, as long as @session lives.
 */
void
sps_trace_settings_attach (SpsSession *session,
                           GFile      *trace_file)
{
  g_autofree char *path = NULL;
  g_autofree char *json = NULL;
  g_autoptr(GError) error = NULL;
  Saver *saver;

  g_return_if_fail (SPS_IS_SESSION (session));

  if (trace_file == NULL)
    return;

  path = sps_trace_settings_path (trace_file);
  if (g_file_get_contents (path, &json, NULL, NULL) && !sps_trace_settings_apply (session, json, &error))
    g_message ("Ignoring the trace's settings in %s: %s", path, error->message);

  saver = g_new0 (Saver, 1);
  g_weak_ref_init (&saver->session, session);
  saver->file = g_object_ref (trace_file);
  saver->last = sps_trace_settings_to_json (session, trace_file);
  g_object_set_data_full (G_OBJECT (session), "sps-trace-settings", saver, saver_free);

  g_signal_connect (session, "layout-changed", G_CALLBACK (schedule_save), NULL);
  g_signal_connect (session, "filters-changed", G_CALLBACK (schedule_save), NULL);
  g_signal_connect_object (sps_session_get_flags (session), "items-changed", G_CALLBACK (flags_changed_cb), session,
                           G_CONNECT_SWAPPED);
  watch_flags (session, 0, g_list_model_get_n_items (sps_session_get_flags (session)));
}
