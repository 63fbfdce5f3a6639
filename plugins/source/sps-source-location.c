/* sps-source-location.c: where in which source file a slice, sample or frame comes from
 *
 * The conventions, each as the importers store it (docs/source-viewer.md):
 *
 * - frames (V8 CPU profiles, `stackFrames`): the frame table's
 *   source_file/line/column, already 1-based (the Chrome importer adds 1 to
 *   V8's 0-based lineNumber/columnNumber); a sample's own line (V8's
 *   `lines`, 1-based) is more precise than its leaf frame's first line;
 * - Chrome args: `src_file`/`src_func`/`src_line` (Chrome's task posting
 *   locations), `file`/`line`(/`column`), and DevTools' `data.url`/
 *   `data.lineNumber`/`data.columnNumber`/`data.functionName`
 *   (FunctionCall, EvaluateScript, v8.compile, v8.produceCache; 1-based as
 *   Chrome writes them, 0 when unknown), else the top frame of
 *   `data.stackTrace` (TimerInstall, ResourceSendRequest,
 *   XHRReadyStateChange…; 1-based too: V8's stack frame positions);
 * - names: `func (file:line)` (VizTracer), `file:line` and
 *   `file:line:column`.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-source-location"

#include "config.h"

#include <string.h>

#include "sps-source-location.h"

SpsSourceLocation *
sps_source_location_new (const char *file,
                         const char *function,
                         guint       line,
                         guint       column)
{
  SpsSourceLocation *self;

  g_return_val_if_fail (file != NULL, NULL);

  self = g_new0 (SpsSourceLocation, 1);
  self->file = g_strdup (file);
  self->function = function != NULL && function[0] != '\0' ? g_strdup (function) : NULL;
  self->line = line;
  self->column = line != 0 ? column : 0;

  return self;
}

void
sps_source_location_free (SpsSourceLocation *self)
{
  if (self == NULL)
    return;

  g_free (self->file);
  g_free (self->function);
  g_free (self);
}

/* "file:line:column", "file:line" or "file", as compilers print them */
char *
sps_source_location_to_string (const SpsSourceLocation *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (self->line == 0)
    return g_strdup (self->file);
  if (self->column == 0)
    return g_strdup_printf ("%s:%u", self->file, self->line);
  return g_strdup_printf ("%s:%u:%u", self->file, self->line, self->column);
}

/* A line or column number as producers write it: an integer, an integral
 * double or a decimal string. Anything else (negative, fractional, too
 * big) is 0, unknown. */
static guint
member_number (JsonObject *object,
               const char *name)
{
  JsonNode *node = json_object_get_member (object, name);
  GType type;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return 0;

  type = json_node_get_value_type (node);
  if (type == G_TYPE_INT64)
    {
      gint64 value = json_node_get_int (node);

      return value > 0 && value <= G_MAXINT32 ? (guint) value : 0;
    }
  if (type == G_TYPE_DOUBLE)
    {
      double value = json_node_get_double (node);

      return value >= 1 && value <= G_MAXINT32 && value == (double) (gint64) value ? (guint) value : 0;
    }
  if (type == G_TYPE_STRING)
    {
      guint64 value;

      if (g_ascii_string_to_unsigned (json_node_get_string (node), 10, 1, G_MAXINT32, &value, NULL))
        return (guint) value;
    }

  return 0;
}

static const char *
member_string (JsonObject *object,
               const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (node);
}

static SpsSourceLocation *
from_members (JsonObject *object,
              const char *file_key,
              const char *function_key,
              const char *line_key,
              const char *column_key)
{
  const char *file = member_string (object, file_key);

  if (file == NULL || file[0] == '\0')
    return NULL;

  return sps_source_location_new (file,
                                  function_key != NULL ? member_string (object, function_key) : NULL,
                                  member_number (object, line_key),
                                  member_number (object, column_key));
}

/* DevTools' data: its own position (data.url with data.lineNumber), else
 * where the JavaScript stood that caused the event (the top frame of
 * data.stackTrace), else data.url alone (a script without a line) */
static SpsSourceLocation *
from_devtools_data (JsonObject *data)
{
  JsonNode *stack = json_object_get_member (data, "stackTrace");

  if (!json_object_has_member (data, "lineNumber") &&
      stack != NULL && JSON_NODE_HOLDS_ARRAY (stack) && json_array_get_length (json_node_get_array (stack)) > 0)
    {
      JsonNode *top = json_array_get_element (json_node_get_array (stack), 0);
      SpsSourceLocation *location;

      if (JSON_NODE_HOLDS_OBJECT (top) &&
          (location = from_members (json_node_get_object (top), "url", "functionName", "lineNumber", "columnNumber")))
        return location;
    }

  return from_members (data, "url", "functionName", "lineNumber", "columnNumber");
}

/**
 * sps_source_location_from_args:
 * @args: (nullable): an event's parsed args
 *
 * Returns: (transfer full) (nullable): the location the args name, by the
 *   first convention that has a file: `src_file`, `file`, then DevTools'
 *   `data` (its `url` and `lineNumber`, else the top of its `stackTrace`)
 */
SpsSourceLocation *
sps_source_location_from_args (JsonNode *args)
{
  JsonObject *object;
  JsonNode *data;
  SpsSourceLocation *location;

  if (args == NULL || !JSON_NODE_HOLDS_OBJECT (args))
    return NULL;

  object = json_node_get_object (args);
  if ((location = from_members (object, "src_file", "src_func", "src_line", "src_column")))
    return location;
  if ((location = from_members (object, "file", "function", "line", "column")))
    return location;

  data = json_object_get_member (object, "data");
  if (data != NULL && JSON_NODE_HOLDS_OBJECT (data))
    return from_devtools_data (json_node_get_object (data));

  return NULL;
}

/* Reads the decimal number that ends at @end (exclusive) and follows a
 * ':' at or after @start; returns where that ':' is, or NULL. */
static const char *
number_before (const char *start,
               const char *end,
               guint      *value)
{
  const char *p = end;
  g_autofree char *digits = NULL;
  guint64 number;

  while (p > start && g_ascii_isdigit (p[-1]))
    p--;
  if (p == end || end - p > 10 || p == start || p[-1] != ':')
    return NULL;

  digits = g_strndup (p, end - p);
  if (!g_ascii_string_to_unsigned (digits, 10, 1, G_MAXINT32, &number, NULL))
    return NULL;

  *value = (guint) number;
  return p - 1;
}

/* Whether @file (of @len bytes) looks like a file rather than a C++ scope
 * or a phrase: it has a separator or an extension and no blank unless it
 * has a separator, and a URL has a path after its host. */
static gboolean
looks_like_file (const char *file,
                 gsize       len)
{
  g_autofree char *copy = g_strndup (file, len);
  gboolean separator = strpbrk (copy, "/\\") != NULL;
  const char *scheme;

  if (len == 0 || (strchr (copy, ' ') != NULL && !separator))
    return FALSE;
  if ((scheme = strstr (copy, "://")) != NULL)
    return strchr (scheme + 3, '/') != NULL;
  return separator || strchr (copy, '.') != NULL;
}

/* "file:line" or "file:line:column" filling the whole of [@start, @end) */
static SpsSourceLocation *
parse_file_line (const char *start,
                 const char *end,
                 const char *function)
{
  const char *colon;
  const char *colon2;
  guint line;
  guint column = 0;
  g_autofree char *file = NULL;

  if (!(colon = number_before (start, end, &line)))
    return NULL;
  if ((colon2 = number_before (start, colon, &column)))
    {
      /* file:line:column: what was read first is the column */
      guint swap = line;

      line = column;
      column = swap;
      colon = colon2;
    }
  if (!looks_like_file (start, colon - start))
    return NULL;

  file = g_strndup (start, colon - start);
  return sps_source_location_new (file, function, line, column);
}

/**
 * sps_source_location_from_name:
 * @name: (nullable): a slice's or frame's name
 *
 * Returns: (transfer full) (nullable): the location written in the name,
 *   as `function (file:line)` or as the whole name `file:line[:column]`
 */
SpsSourceLocation *
sps_source_location_from_name (const char *name)
{
  gsize len;
  const char *open;

  if (name == NULL || (len = strlen (name)) < 3)
    return NULL;

  if (name[len - 1] == ')' && (open = g_strrstr_len (name, len, " (")) != NULL)
    {
      g_autofree char *function = g_strndup (name, open - name);
      SpsSourceLocation *location = parse_file_line (open + 2, name + len - 1, function);

      if (location != NULL)
        return location;
    }

  return parse_file_line (name, name + len, NULL);
}

/**
 * sps_source_location_from_frame:
 * @trace: a #SpsTrace
 * @frame: a row of its frame table
 *
 * Returns: (transfer full) (nullable): the frame's source columns, else
 *   the location written in its name
 */
SpsSourceLocation *
sps_source_location_from_frame (SpsTrace *trace,
                                guint32   frame)
{
  const SpsFrameTable *frames;

  g_return_val_if_fail (SPS_IS_TRACE (trace), NULL);

  frames = sps_trace_get_frames (trace);
  if (frame >= frames->n_rows)
    return NULL;

  if (frames->source_file[frame] != 0)
    {
      const char *file = sps_trace_get_string (trace, frames->source_file[frame]);

      if (file != NULL && file[0] != '\0')
        return sps_source_location_new (file, sps_trace_get_string (trace, frames->name[frame]),
                                        frames->source_line[frame], frames->source_column[frame]);
    }

  return sps_source_location_from_name (sps_trace_get_string (trace, frames->name[frame]));
}

static SpsSourceLocation *
from_callsite (SpsTrace *trace,
               guint32   callsite)
{
  const SpsCallsiteTable *callsites = sps_trace_get_callsites (trace);

  if (callsite >= callsites->n_rows)
    return NULL;

  return sps_source_location_from_frame (trace, callsites->frame[callsite]);
}

static SpsSourceLocation *
from_event (SpsTrace   *trace,
            SpsArgsRef  args_ref,
            guint32     name,
            guint32     callsite)
{
  g_autoptr(JsonNode) args = NULL;
  g_autoptr(GError) error = NULL;
  SpsSourceLocation *location;

  /* Args that do not parse carry no location; the details panel shows why */
  args = sps_trace_parse_args (trace, args_ref, &error);
  if ((location = sps_source_location_from_args (args)))
    return location;
  if ((location = sps_source_location_from_name (sps_trace_get_string (trace, name))))
    return location;

  return from_callsite (trace, callsite);
}

/**
 * sps_source_location_find:
 * @trace: a #SpsTrace
 * @selection: what is selected in a session of @trace
 *
 * The source location of the selected item: a slice's or instant's args,
 * then its name, then (slices) the leaf frame of its stack; a sample's
 * leaf frame with the sample's own line; a stack box's frame.
 *
 * Returns: (transfer full) (nullable): the location, or %NULL when the
 *   item carries none
 */
SpsSourceLocation *
sps_source_location_find (SpsTrace           *trace,
                          const SpsSelection *selection)
{
  g_return_val_if_fail (SPS_IS_TRACE (trace), NULL);
  g_return_val_if_fail (selection != NULL, NULL);

  switch (selection->kind)
    {
    case SPS_SELECTION_SLICE:
      {
        const SpsSliceTable *slices = sps_trace_get_slices (trace);
        guint row = selection->index;

        if (row >= slices->n_rows)
          return NULL;
        return from_event (trace, slices->args[row], slices->name[row],
                           sps_slice_table_get_callsite (slices, row));
      }

    case SPS_SELECTION_INSTANT:
      {
        const SpsInstantTable *instants = sps_trace_get_instants (trace);
        guint row = selection->index;

        if (row >= instants->n_rows)
          return NULL;
        return from_event (trace, instants->args[row], instants->name[row], SPS_NO_INDEX);
      }

    case SPS_SELECTION_SAMPLE:
      {
        const SpsSampleTable *samples = sps_trace_get_samples (trace);
        guint row = selection->index;
        SpsSourceLocation *location;
        guint line;

        if (row >= samples->n_rows || !(location = from_callsite (trace, samples->callsite[row])))
          return NULL;
        /* The line the sample was taken at, not the function's first */
        if ((line = sps_sample_table_get_line (samples, row)) != 0 && line != location->line)
          {
            location->line = line;
            location->column = 0;
          }
        return location;
      }

    case SPS_SELECTION_STACK_BOX:
      return from_callsite (trace, selection->callsite);

    case SPS_SELECTION_NONE:
    default:
      return NULL;
    }
}
