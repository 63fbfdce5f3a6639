/* sps-view-filter-json.c: the serialised form of SpsViewFilter
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-view-filter"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-json.h"
#include "sps-view-filter-private.h"
#include "sps-file-read.h"

/* The largest filter file read, in bytes */
#define MAX_FILTER_FILE_SIZE (16 << 20)

/*
 * A filter file is one JSON object (docs/architecture.md lists it):
 *
 *   { "version": 1,
 *     "window": [start_ns, end_ns], "min_duration": ns,
 *     "classes": [ { "name": "error",
 *                    "rules": [ { "name": "*Error*" }, { "category": "gc" },
 *                               { "arg": "status", "value": "failed" } ] } ],
 *     "require": ["error"], "exclude": ["instrumentation"],
 *     "processes": [ { "pid": 1, "state": "collapsed" } ],
 *     "threads": [ { "pid": 1, "tid": 7, "state": "hidden" } ],
 *     "focus": { "enabled": true, "slices": [12], "depth": 2,
 *                "direction": "both", "parent_child": false } }
 *
 * Processes and threads are named by pid and tid, which survive a reload
 * of the trace; focus seeds are slice indices of this trace. Every member
 * is optional. The whole file is checked before anything is applied, so a
 * bad file leaves the filter as it was; an unknown member is an error, so
 * a misspelt control is never silently ignored.
 */

static const char * const state_names[] = { "expanded", "collapsed", "hidden" };
static const char * const direction_names[] = { NULL, "incoming", "outgoing", "both" };
static const char * const rule_names[] = { "category", "name", "arg" };

typedef struct
{
  guint32      index;
  SpsExpansion state;
} StateItem;

typedef struct
{
  char             *class_name;
  SpsClassRuleKind  kind;
  char             *pattern;
  char             *value;
} RuleItem;

typedef struct
{
  gboolean   has_window;
  SpsTime    window_start;
  SpsTime    window_end;
  SpsTime    min_duration;
  GPtrArray *class_names;     /* char * */
  GArray    *rules;           /* RuleItem */
  GPtrArray *require;         /* char * */
  GPtrArray *exclude;
  GArray    *processes;       /* StateItem */
  GArray    *threads;
  gboolean   focus_enabled;
  GArray    *seeds;           /* guint32 */
  guint      focus_depth;
  SpsFocusDirection focus_direction;
  gboolean   focus_parent_child;
} Parsed;

static void
rule_item_clear (gpointer data)
{
  RuleItem *item = data;

  g_free (item->class_name);
  g_free (item->pattern);
  g_free (item->value);
}

static void
parsed_clear (Parsed *parsed)
{
  g_clear_pointer (&parsed->class_names, g_ptr_array_unref);
  g_clear_pointer (&parsed->rules, g_array_unref);
  g_clear_pointer (&parsed->require, g_ptr_array_unref);
  g_clear_pointer (&parsed->exclude, g_ptr_array_unref);
  g_clear_pointer (&parsed->processes, g_array_unref);
  g_clear_pointer (&parsed->threads, g_array_unref);
  g_clear_pointer (&parsed->seeds, g_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Parsed, parsed_clear)

static gboolean G_GNUC_PRINTF (3, 4)
fail (GError    **error,
      const char *where,
      const char *format,
      ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  /* Translators: %s is where in the filter file (a member's path), then
   * what is wrong there */
  g_set_error (error, SPS_VIEW_FILTER_ERROR, SPS_VIEW_FILTER_ERROR_INVALID,
               _("member “%s”: %s"), where, message);
  return FALSE;
}

static gboolean
check_members (JsonObject         *object,
               const char         *where,
               const char * const *allowed,
               GError            **error)
{
  g_autoptr(GList) members = json_object_get_members (object);

  for (GList *l = members; l != NULL; l = l->next)
    if (!g_strv_contains (allowed, l->data))
      return fail (error, where, _("unknown member “%s”"), (const char *) l->data);
  return TRUE;
}

static gboolean
get_integer (JsonNode   *node,
             const char *where,
             gint64     *out,
             GError    **error)
{
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64)
    return fail (error, where, _("expected an integer"));
  *out = json_node_get_int (node);
  return TRUE;
}

static gboolean
get_string (JsonNode     *node,
            const char   *where,
            const char  **out,
            GError      **error)
{
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return fail (error, where, _("expected a string"));
  *out = json_node_get_string (node);
  return TRUE;
}

static gboolean
get_enum (JsonNode           *node,
          const char         *where,
          const char * const *names,
          guint               n_names,
          guint              *out,
          GError            **error)
{
  const char *text = NULL;

  if (!get_string (node, where, &text, error))
    return FALSE;
  for (guint i = 0; i < n_names; i++)
    if (names[i] != NULL && g_strcmp0 (names[i], text) == 0)
      {
        *out = i;
        return TRUE;
      }
  return fail (error, where, _("unknown value “%s”"), text);
}

static JsonArray *
get_array (JsonNode   *node,
           const char *where,
           GError    **error)
{
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      fail (error, where, _("expected an array"));
      return NULL;
    }
  return json_node_get_array (node);
}

static JsonObject *
get_object (JsonNode   *node,
            const char *where,
            GError    **error)
{
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      fail (error, where, _("expected an object"));
      return NULL;
    }
  return json_node_get_object (node);
}

static gboolean
parse_classes (JsonArray  *array,
               Parsed     *parsed,
               GError    **error)
{
  static const char * const class_members[] = { "name", "rules", NULL };

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      g_autofree char *where = g_strdup_printf ("classes[%u]", i);
      JsonObject *object = get_object (json_array_get_element (array, i), where, error);
      const char *name = NULL;
      JsonArray *rules;

      if (object == NULL || !check_members (object, where, class_members, error))
        return FALSE;
      if (!json_object_has_member (object, "name"))
        return fail (error, where, _("a class needs a “name”"));
      if (!get_string (json_object_get_member (object, "name"), where, &name, error))
        return FALSE;
      if (*name == '\0')
        return fail (error, where, _("a class name cannot be empty"));
      for (guint k = 0; k < parsed->class_names->len; k++)
        if (g_strcmp0 (g_ptr_array_index (parsed->class_names, k), name) == 0)
          return fail (error, where, _("the class “%s” is defined twice"), name);
      if (parsed->class_names->len >= SPS_VIEW_FILTER_MAX_CLASSES)
        return fail (error, where, _("more than %d classes"), SPS_VIEW_FILTER_MAX_CLASSES);
      g_ptr_array_add (parsed->class_names, g_strdup (name));

      if (!json_object_has_member (object, "rules"))
        continue;
      g_free (where);
      where = g_strdup_printf ("classes[%u].rules", i);
      rules = get_array (json_object_get_member (object, "rules"), where, error);
      if (rules == NULL)
        return FALSE;

      for (guint r = 0; r < json_array_get_length (rules); r++)
        {
          static const char * const rule_members[] = { "category", "name", "arg", "value", NULL };
          g_autofree char *rule_where = g_strdup_printf ("classes[%u].rules[%u]", i, r);
          JsonObject *rule = get_object (json_array_get_element (rules, r), rule_where, error);
          RuleItem item = { NULL, 0, NULL, NULL };
          const char *pattern = NULL;
          guint n_kinds = 0;

          if (rule == NULL || !check_members (rule, rule_where, rule_members, error))
            return FALSE;
          for (guint k = 0; k < G_N_ELEMENTS (rule_names); k++)
            if (json_object_has_member (rule, rule_names[k]))
              {
                if (!get_string (json_object_get_member (rule, rule_names[k]), rule_where, &pattern, error))
                  return FALSE;
                item.kind = k;
                n_kinds++;
              }
          if (n_kinds != 1)
            return fail (error, rule_where, _("a rule has exactly one of “category”, “name” or “arg”"));
          if (json_object_has_member (rule, "value"))
            {
              const char *value = NULL;

              if (item.kind != SPS_CLASS_RULE_ARG)
                return fail (error, rule_where, _("only an “arg” rule has a “value”"));
              if (!get_string (json_object_get_member (rule, "value"), rule_where, &value, error))
                return FALSE;
              item.value = g_strdup (value);
            }
          item.class_name = g_strdup (name);
          item.pattern = g_strdup (pattern);
          g_array_append_val (parsed->rules, item);
        }
    }
  return TRUE;
}

static gboolean
parse_class_list (JsonNode   *node,
                  const char *where,
                  Parsed     *parsed,
                  GPtrArray  *out,
                  GError    **error)
{
  JsonArray *array = get_array (node, where, error);

  if (array == NULL)
    return FALSE;
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      const char *name = NULL;

      if (!get_string (json_array_get_element (array, i), where, &name, error))
        return FALSE;
      if (!g_ptr_array_find_with_equal_func (parsed->class_names, name, g_str_equal, NULL))
        return fail (error, where, _("unknown class “%s” (not in “classes”)"), name);
      g_ptr_array_add (out, g_strdup (name));
    }
  return TRUE;
}

/* Processes by pid, threads by pid and tid: every match gets the state */
static gboolean
parse_states (SpsViewFilter *self,
              JsonNode      *node,
              gboolean       threads,
              Parsed        *parsed,
              GError       **error)
{
  static const char * const process_members[] = { "pid", "state", NULL };
  static const char * const thread_members[] = { "pid", "tid", "state", NULL };
  const SpsProcessTable *ptable = sps_trace_get_processes (self->trace);
  const SpsThreadTable *ttable = sps_trace_get_threads (self->trace);
  const char *list = threads ? "threads" : "processes";
  JsonArray *array = get_array (node, list, error);

  if (array == NULL)
    return FALSE;

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      g_autofree char *where = g_strdup_printf ("%s[%u]", list, i);
      JsonObject *object = get_object (json_array_get_element (array, i), where, error);
      gint64 pid = 0;
      gint64 tid = 0;
      guint state = 0;
      guint found = 0;

      if (object == NULL ||
          !check_members (object, where, threads ? thread_members : process_members, error))
        return FALSE;
      if (!json_object_has_member (object, "pid") || !json_object_has_member (object, "state") ||
          (threads && !json_object_has_member (object, "tid")))
        return fail (error, where, threads ? _("a thread needs “pid”, “tid” and “state”")
                                           : _("a process needs “pid” and “state”"));
      if (!get_integer (json_object_get_member (object, "pid"), where, &pid, error) ||
          (threads && !get_integer (json_object_get_member (object, "tid"), where, &tid, error)) ||
          !get_enum (json_object_get_member (object, "state"), where, state_names,
                     G_N_ELEMENTS (state_names), &state, error))
        return FALSE;

      if (!threads)
        {
          for (guint p = 0; p < ptable->n_rows; p++)
            if (ptable->pid[p] == pid)
              {
                StateItem item = { p, state };

                g_array_append_val (parsed->processes, item);
                found++;
              }
          if (found == 0)
            return fail (error, where, _("the trace has no process with pid %" G_GINT64_FORMAT), pid);
        }
      else
        {
          for (guint t = 0; t < ttable->n_rows; t++)
            if (ttable->tid[t] == tid && ttable->process[t] < ptable->n_rows &&
                ptable->pid[ttable->process[t]] == pid)
              {
                StateItem item = { t, state };

                g_array_append_val (parsed->threads, item);
                found++;
              }
          if (found == 0)
            return fail (error, where,
                         _("the trace has no thread with pid %" G_GINT64_FORMAT " and tid %" G_GINT64_FORMAT),
                         pid, tid);
        }
    }
  return TRUE;
}

static gboolean
parse_focus (SpsViewFilter *self,
             JsonNode      *node,
             Parsed        *parsed,
             GError       **error)
{
  static const char * const focus_members[] = { "enabled", "slices", "depth", "direction", "parent_child", NULL };
  JsonObject *object = get_object (node, "focus", error);
  guint n_slices = self->slices->n_rows;

  if (object == NULL || !check_members (object, "focus", focus_members, error))
    return FALSE;

  if (json_object_has_member (object, "enabled"))
    {
      JsonNode *member = json_object_get_member (object, "enabled");

      if (!JSON_NODE_HOLDS_VALUE (member) || json_node_get_value_type (member) != G_TYPE_BOOLEAN)
        return fail (error, "focus.enabled", _("expected true or false"));
      parsed->focus_enabled = json_node_get_boolean (member);
    }
  if (json_object_has_member (object, "parent_child"))
    {
      JsonNode *member = json_object_get_member (object, "parent_child");

      if (!JSON_NODE_HOLDS_VALUE (member) || json_node_get_value_type (member) != G_TYPE_BOOLEAN)
        return fail (error, "focus.parent_child", _("expected true or false"));
      parsed->focus_parent_child = json_node_get_boolean (member);
    }
  if (json_object_has_member (object, "depth"))
    {
      gint64 depth = 0;

      if (!get_integer (json_object_get_member (object, "depth"), "focus.depth", &depth, error))
        return FALSE;
      if (depth < 0 || depth > SPS_VIEW_FILTER_MAX_FOCUS_DEPTH)
        return fail (error, "focus.depth", _("%" G_GINT64_FORMAT " is not between 0 and %d"),
                     depth, SPS_VIEW_FILTER_MAX_FOCUS_DEPTH);
      parsed->focus_depth = depth;
    }
  if (json_object_has_member (object, "direction"))
    {
      guint direction = SPS_FOCUS_BOTH;

      if (!get_enum (json_object_get_member (object, "direction"), "focus.direction",
                     direction_names, G_N_ELEMENTS (direction_names), &direction, error))
        return FALSE;
      parsed->focus_direction = direction;
    }
  if (json_object_has_member (object, "slices"))
    {
      JsonArray *array = get_array (json_object_get_member (object, "slices"), "focus.slices", error);

      if (array == NULL)
        return FALSE;
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          gint64 slice = 0;
          guint32 s;

          if (!get_integer (json_array_get_element (array, i), "focus.slices", &slice, error))
            return FALSE;
          if (slice < 0 || slice >= n_slices)
            return fail (error, "focus.slices", _("the trace has no slice %" G_GINT64_FORMAT " (it has %u)"),
                         slice, n_slices);
          s = slice;
          g_array_append_val (parsed->seeds, s);
        }
    }
  return TRUE;
}

static gboolean
parse (SpsViewFilter *self,
       JsonNode      *root,
       Parsed        *parsed,
       GError       **error)
{
  static const char * const members[] = {
    "version", "window", "min_duration", "classes", "require", "exclude",
    "processes", "threads", "focus", NULL
  };
  JsonObject *object;

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error_literal (error, SPS_VIEW_FILTER_ERROR, SPS_VIEW_FILTER_ERROR_INVALID,
                           _("a filter is a JSON object"));
      return FALSE;
    }
  object = json_node_get_object (root);
  if (!check_members (object, "(top level)", members, error))
    return FALSE;

  if (json_object_has_member (object, "version"))
    {
      gint64 version = 0;

      if (!get_integer (json_object_get_member (object, "version"), "version", &version, error))
        return FALSE;
      if (version != 1)
        return fail (error, "version", _("version %" G_GINT64_FORMAT " is not supported (only 1)"), version);
    }

  if (json_object_has_member (object, "window"))
    {
      JsonArray *array = get_array (json_object_get_member (object, "window"), "window", error);

      if (array == NULL)
        return FALSE;
      if (json_array_get_length (array) != 2)
        return fail (error, "window", _("expected [start, end] in nanoseconds"));
      if (!get_integer (json_array_get_element (array, 0), "window", &parsed->window_start, error) ||
          !get_integer (json_array_get_element (array, 1), "window", &parsed->window_end, error))
        return FALSE;
      /* An inverted window is valid: it shows nothing */
      parsed->has_window = TRUE;
    }

  if (json_object_has_member (object, "min_duration"))
    {
      if (!get_integer (json_object_get_member (object, "min_duration"), "min_duration",
                        &parsed->min_duration, error))
        return FALSE;
      if (parsed->min_duration < 0)
        return fail (error, "min_duration", _("a duration cannot be negative"));
    }

  if (json_object_has_member (object, "classes"))
    {
      JsonArray *array = get_array (json_object_get_member (object, "classes"), "classes", error);

      if (array == NULL || !parse_classes (array, parsed, error))
        return FALSE;
    }

  if (json_object_has_member (object, "require") &&
      !parse_class_list (json_object_get_member (object, "require"), "require", parsed, parsed->require, error))
    return FALSE;
  if (json_object_has_member (object, "exclude") &&
      !parse_class_list (json_object_get_member (object, "exclude"), "exclude", parsed, parsed->exclude, error))
    return FALSE;

  if (json_object_has_member (object, "processes") &&
      !parse_states (self, json_object_get_member (object, "processes"), FALSE, parsed, error))
    return FALSE;
  if (json_object_has_member (object, "threads") &&
      !parse_states (self, json_object_get_member (object, "threads"), TRUE, parsed, error))
    return FALSE;

  if (json_object_has_member (object, "focus") &&
      !parse_focus (self, json_object_get_member (object, "focus"), parsed, error))
    return FALSE;

  return TRUE;
}

static guint32
class_mask (SpsViewFilter *self,
            GPtrArray     *names)
{
  guint32 mask = 0;

  for (guint i = 0; i < names->len; i++)
    mask |= 1u << sps_view_filter_lookup_class (self, g_ptr_array_index (names, i));
  return mask;
}

static void
apply (SpsViewFilter *self,
       Parsed        *parsed)
{
  sps_view_filter_reset (self);

  for (guint i = 0; i < parsed->class_names->len; i++)
    sps_view_filter_add_class (self, g_ptr_array_index (parsed->class_names, i), NULL);
  for (guint i = 0; i < parsed->rules->len; i++)
    {
      RuleItem *item = &g_array_index (parsed->rules, RuleItem, i);

      _sps_view_filter_append_rule (self, item->class_name, item->kind, item->pattern, item->value, NULL);
    }
  if (parsed->rules->len > 0)
    {
      _sps_view_filter_classify (self);
      _sps_view_filter_rebuild_counts (self);
    }
  sps_view_filter_set_class_masks (self, class_mask (self, parsed->require), class_mask (self, parsed->exclude));

  for (guint i = 0; i < parsed->processes->len; i++)
    {
      StateItem *item = &g_array_index (parsed->processes, StateItem, i);

      sps_view_filter_set_process_expansion (self, item->index, item->state);
    }
  for (guint i = 0; i < parsed->threads->len; i++)
    {
      StateItem *item = &g_array_index (parsed->threads, StateItem, i);

      sps_view_filter_set_thread_expansion (self, item->index, item->state);
    }

  if (parsed->has_window)
    sps_view_filter_set_window (self, parsed->window_start, parsed->window_end);
  sps_view_filter_set_min_duration (self, parsed->min_duration);

  self->focus_depth = parsed->focus_depth;
  self->focus_direction = parsed->focus_direction;
  self->focus_parent_child = parsed->focus_parent_child;
  self->focus_enabled = parsed->focus_enabled;
  g_array_append_vals (self->seeds, parsed->seeds->data, parsed->seeds->len);
  _sps_view_filter_update_focus (self);
  _sps_view_filter_changed (self);
}

/**
 * sps_view_filter_load_json:
 * @self: a #SpsViewFilter
 * @text: a serialised filter (see sps_view_filter_to_json())
 * @length: its length, or -1 when nul-terminated
 * @error: return location for a #GError
 *
 * Replaces every control with the serialised filter's. The text is checked
 * completely first: on an error nothing changes.
 *
 * Returns: %FALSE with @error set (%SPS_VIEW_FILTER_ERROR_INVALID, saying
 *   which member is wrong and how) when the text is not a valid filter
 *   for this trace
 */
gboolean
sps_view_filter_load_json (SpsViewFilter  *self,
                           const char     *text,
                           gssize          length,
                           GError        **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) parse_error = NULL;
  g_auto(Parsed) parsed = { 0, };

  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser, text, length, &parse_error))
    {
      g_set_error (error, SPS_VIEW_FILTER_ERROR, SPS_VIEW_FILTER_ERROR_INVALID,
                   /* Translators: %s is json-glib's message, with line and column */
                   _("not valid JSON: %s"), parse_error->message);
      return FALSE;
    }

  parsed.class_names = g_ptr_array_new_with_free_func (g_free);
  parsed.rules = g_array_new (FALSE, TRUE, sizeof (RuleItem));
  g_array_set_clear_func (parsed.rules, rule_item_clear);
  parsed.require = g_ptr_array_new_with_free_func (g_free);
  parsed.exclude = g_ptr_array_new_with_free_func (g_free);
  parsed.processes = g_array_new (FALSE, FALSE, sizeof (StateItem));
  parsed.threads = g_array_new (FALSE, FALSE, sizeof (StateItem));
  parsed.seeds = g_array_new (FALSE, FALSE, sizeof (guint32));
  parsed.focus_depth = 1;
  parsed.focus_direction = SPS_FOCUS_BOTH;

  if (!parse (self, json_parser_get_root (parser), &parsed, error))
    return FALSE;

  apply (self, &parsed);
  return TRUE;
}

/**
 * sps_view_filter_load_file:
 * @self: a #SpsViewFilter
 * @file: a filter file
 * @error: return location for a #GError
 *
 * sps_view_filter_load_json() of a file's contents; an error message starts
 * with the file's name. Only a regular file of at most 16 MiB is read (a
 * FIFO or a device is refused at once rather than read).
 *
 * Returns: %FALSE with @error set when the file cannot be read or is not
 *   a valid filter
 */
gboolean
sps_view_filter_load_file (SpsViewFilter  *self,
                           GFile          *file,
                           GError        **error)
{
  g_autoptr(GFileInfo) info = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *name = NULL;
  gsize length;

  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* A FIFO or a device would block or never end; its error names it. */
  if (!sps_file_check_regular (file, error))
    return FALSE;

  name = g_file_get_parse_name (file);
  if (!(info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE, G_FILE_QUERY_INFO_NONE, NULL, error)))
    {
      g_prefix_error (error, "%s: ", name);
      return FALSE;
    }
  /* A filter is a few lines of JSON: anything this large is not one, and
   * reading it whole would only cost memory. */
  if (g_file_info_get_size (info) > MAX_FILTER_FILE_SIZE)
    {
      g_autofree char *size = g_strdup_printf ("%" G_GINT64_FORMAT, (gint64) g_file_info_get_size (info));

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: %s bytes is too large for a filter file (at most %d)"),
                   name, size, MAX_FILTER_FILE_SIZE);
      return FALSE;
    }
  if (!g_file_load_contents (file, NULL, &contents, &length, NULL, error) ||
      !sps_view_filter_load_json (self, contents, length, error))
    {
      g_prefix_error (error, "%s: ", name);
      return FALSE;
    }
  return TRUE;
}

static void
append_class_list (GString       *out,
                   SpsViewFilter *self,
                   guint32        mask)
{
  gboolean first = TRUE;

  g_string_append_c (out, '[');
  for (guint b = 0; b < self->class_names->len; b++)
    if (mask & (1u << b))
      {
        if (!first)
          g_string_append (out, ", ");
        sps_json_append_string (out, g_ptr_array_index (self->class_names, b), -1);
        first = FALSE;
      }
  g_string_append_c (out, ']');
}

/**
 * sps_view_filter_to_json:
 * @self: a #SpsViewFilter
 *
 * Serialises every control (processes and threads that are not expanded,
 * by pid and tid), in the form sps_view_filter_load_json() reads.
 *
 * Returns: (transfer full): the JSON text
 */
char *
sps_view_filter_to_json (SpsViewFilter *self)
{
  const SpsProcessTable *processes;
  const SpsThreadTable *threads;
  GString *out;
  gboolean first;

  g_return_val_if_fail (SPS_IS_VIEW_FILTER (self), NULL);

  processes = sps_trace_get_processes (self->trace);
  threads = sps_trace_get_threads (self->trace);
  out = g_string_new ("{\n  \"version\": 1,\n");

  if (self->window_start != SPS_TIME_MIN || self->window_end != SPS_TIME_MAX)
    g_string_append_printf (out, "  \"window\": [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "],\n",
                            self->window_start, self->window_end);
  g_string_append_printf (out, "  \"min_duration\": %" G_GINT64_FORMAT ",\n", self->min_duration);

  g_string_append (out, "  \"classes\": [");
  for (guint b = 0; b < self->class_names->len; b++)
    {
      gboolean first_rule = TRUE;

      g_string_append (out, b > 0 ? ",\n    { \"name\": " : "\n    { \"name\": ");
      sps_json_append_string (out, g_ptr_array_index (self->class_names, b), -1);
      g_string_append (out, ", \"rules\": [");
      for (guint r = 0; r < self->rules->len; r++)
        {
          SpsClassRule *rule = g_ptr_array_index (self->rules, r);

          if (rule->bit != b)
            continue;
          g_string_append (out, first_rule ? "{ " : ", { ");
          sps_json_append_string (out, rule_names[rule->kind], -1);
          g_string_append (out, ": ");
          sps_json_append_string (out, rule->pattern, -1);
          if (rule->value != NULL)
            {
              g_string_append (out, ", \"value\": ");
              sps_json_append_string (out, rule->value, -1);
            }
          g_string_append (out, " }");
          first_rule = FALSE;
        }
      g_string_append (out, "] }");
    }
  g_string_append (out, self->class_names->len > 0 ? "\n  ],\n" : "],\n");

  g_string_append (out, "  \"require\": ");
  append_class_list (out, self, self->require_mask);
  g_string_append (out, ",\n  \"exclude\": ");
  append_class_list (out, self, self->exclude_mask);

  g_string_append (out, ",\n  \"processes\": [");
  first = TRUE;
  for (guint p = 0; p < processes->n_rows; p++)
    if (self->process_expansion[p] != SPS_EXPANSION_EXPANDED)
      {
        g_string_append_printf (out, "%s{ \"pid\": %" G_GINT64_FORMAT ", \"state\": \"%s\" }",
                                first ? "" : ", ", processes->pid[p],
                                state_names[self->process_expansion[p]]);
        first = FALSE;
      }
  g_string_append (out, "],\n  \"threads\": [");
  first = TRUE;
  for (guint t = 0; t < threads->n_rows; t++)
    if (self->thread_expansion[t] != SPS_EXPANSION_EXPANDED && threads->process[t] < processes->n_rows)
      {
        g_string_append_printf (out, "%s{ \"pid\": %" G_GINT64_FORMAT ", \"tid\": %" G_GINT64_FORMAT
                                ", \"state\": \"%s\" }",
                                first ? "" : ", ", processes->pid[threads->process[t]], threads->tid[t],
                                state_names[self->thread_expansion[t]]);
        first = FALSE;
      }

  g_string_append_printf (out, "],\n  \"focus\": { \"enabled\": %s, \"slices\": [",
                          self->focus_enabled ? "true" : "false");
  for (guint i = 0; i < self->seeds->len; i++)
    g_string_append_printf (out, "%s%u", i > 0 ? ", " : "", g_array_index (self->seeds, guint32, i));
  g_string_append_printf (out, "], \"depth\": %u, \"direction\": \"%s\", \"parent_child\": %s }\n}\n",
                          self->focus_depth, direction_names[self->focus_direction],
                          self->focus_parent_child ? "true" : "false");

  return g_string_free (out, FALSE);
}
