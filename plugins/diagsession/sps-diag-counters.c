/* sps-diag-counters.c: the counters resource of a .diagsession package
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * DiagnosticsHub.Resource.CountersFile: UTF-16LE JSON (with or without a
 * byte order mark) holding the CPU and memory swimlanes of a session. Its
 * 64-bit numbers are objects of two 32-bit halves, {"h": high, "l": low},
 * each written signed. A counter's points may come in several chunks of
 * the same id, which become one counter.
 */

#define G_LOG_DOMAIN "sps-diagsession"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <spanscope-core.h>

#include "sps-diag-counters.h"

/* Far deeper than the format's five levels: json-glib's parser recurses
 * once per level, so deeper input is refused before it is parsed */
#define MAX_DEPTH 64

static void
counter_free (gpointer data)
{
  SpsDiagCounter *counter = data;

  g_free (counter->id);
  g_array_unref (counter->points);
  g_free (counter);
}

void
sps_diag_counters_free (SpsDiagCounters *counters)
{
  if (counters == NULL)
    return;
  g_ptr_array_unref (counters->counters);
  g_free (counters);
}

/* The deepest nesting of arrays and objects in @text, strings skipped */
static guint
max_depth (const char *text,
           gsize       len)
{
  guint depth = 0;
  guint deepest = 0;
  gboolean in_string = FALSE;

  for (gsize i = 0; i < len; i++)
    {
      char c = text[i];

      if (in_string)
        {
          if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
        }
      else if (c == '"')
        in_string = TRUE;
      else if (c == '[' || c == '{')
        {
          depth++;
          deepest = MAX (deepest, depth);
        }
      else if ((c == ']' || c == '}') && depth > 0)
        depth--;
    }
  return deepest;
}

static gboolean
half (JsonObject *object,
      const char *name,
      guint32    *out)
{
  JsonNode *node = json_object_get_member (object, name);
  gint64 v;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64)
    return FALSE;
  v = json_node_get_int (node);
  /* Written signed; unsigned halves are accepted too */
  if (v < G_MININT32 || v > G_MAXUINT32)
    return FALSE;
  *out = (guint32) v;
  return TRUE;
}

/* A 64-bit number as {"h": high, "l": low} */
static gboolean
read_hl (JsonNode *node,
         guint64  *out)
{
  JsonObject *object;
  guint32 h, l;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return FALSE;
  object = json_node_get_object (node);
  if (!half (object, "h", &h) || !half (object, "l", &l))
    return FALSE;
  *out = (guint64) h << 32 | l;
  return TRUE;
}

static gboolean
read_number (JsonNode *node,
             double   *out)
{
  GType type;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  type = json_node_get_value_type (node);
  if (type != G_TYPE_DOUBLE && type != G_TYPE_INT64)
    return FALSE;
  *out = json_node_get_double (node);
  return TRUE;
}

static gboolean
fail (GError     **error,
      const char  *display_name,
      const char  *message)
{
  /* Translators: a file name, then what is wrong with it */
  g_set_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_MALFORMED, _("%s: %s"), display_name, message);
  return FALSE;
}

static void
read_counters (SpsDiagCounters *self,
               JsonArray       *array)
{
  g_autoptr(GHashTable) by_id = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      JsonObject *object;
      const char *id;
      JsonNode *points;
      SpsDiagCounter *counter;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      object = json_node_get_object (node);
      id = json_object_get_string_member_with_default (object, "id", NULL);
      points = json_object_get_member (object, "p");
      if (id == NULL || points == NULL || !JSON_NODE_HOLDS_ARRAY (points))
        continue;

      counter = g_hash_table_lookup (by_id, id);
      if (counter == NULL)
        {
          counter = g_new0 (SpsDiagCounter, 1);
          counter->id = g_strdup (id);
          counter->points = g_array_new (FALSE, FALSE, sizeof (SpsDiagCounterPoint));
          g_ptr_array_add (self->counters, counter);
          g_hash_table_insert (by_id, counter->id, counter);
        }

      for (guint k = 0; k < json_array_get_length (json_node_get_array (points)); k++)
        {
          JsonNode *p = json_array_get_element (json_node_get_array (points), k);
          SpsDiagCounterPoint point;

          if (!JSON_NODE_HOLDS_OBJECT (p) ||
              !read_hl (json_object_get_member (json_node_get_object (p), "t"), &point.t) ||
              !read_number (json_object_get_member (json_node_get_object (p), "v"), &point.v))
            {
              self->n_bad_points++;
              continue;
            }
          g_array_append_val (counter->points, point);
        }
    }
}

/**
 * sps_diag_counters_parse:
 * @data: (array length=len): the resource's bytes
 * @len: their number
 * @display_name: the resource's name for messages
 * @error: why it cannot be read
 *
 * Returns: (transfer full) (nullable): the counters, or %NULL with @error
 */
SpsDiagCounters *
sps_diag_counters_parse (const guint8  *data,
                         gsize          len,
                         const char    *display_name,
                         GError       **error)
{
  g_autoptr(SpsDiagCounters) self = NULL;
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *text = NULL;
  gsize bom = len >= 2 && data[0] == 0xff && data[1] == 0xfe ? 2 : 0;
  gsize bytes_read = 0;
  gsize text_len = 0;
  JsonNode *root;
  JsonObject *object;
  JsonNode *counters;

  if ((len - bom) % 2 != 0)
    {
      g_autofree char *message =
        /* Translators: %zu is a byte offset */
        g_strdup_printf (_("UTF-16 text cut in the middle of a character at byte %zu"), len - 1);

      fail (error, display_name, message);
      return NULL;
    }

  text = g_convert ((const char *) data + bom, (gssize) (len - bom), "UTF-8", "UTF-16LE",
                    &bytes_read, &text_len, &local_error);
  if (text == NULL)
    {
      g_autofree char *message =
        g_strdup_printf (_("not UTF-16 text (byte %zu)"), bom + bytes_read);

      fail (error, display_name, message);
      return NULL;
    }

  if (max_depth (text, text_len) > MAX_DEPTH)
    {
      g_autofree char *message =
        /* Translators: %d is a number of levels */
        g_strdup_printf (_("JSON nested deeper than %d levels"), MAX_DEPTH);

      fail (error, display_name, message);
      return NULL;
    }

  parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser, text, (gssize) text_len, &local_error))
    {
      fail (error, display_name, local_error->message);
      return NULL;
    }

  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      fail (error, display_name, _("not a counters file (no JSON object)"));
      return NULL;
    }
  object = json_node_get_object (root);
  counters = json_object_get_member (object, "counters");
  if (counters == NULL || !JSON_NODE_HOLDS_ARRAY (counters))
    {
      fail (error, display_name, _("not a counters file (no “counters” array)"));
      return NULL;
    }

  self = g_new0 (SpsDiagCounters, 1);
  self->counters = g_ptr_array_new_with_free_func (counter_free);
  /* Absent or unreadable header numbers stay 0: the times are then only
   * relative */
  read_hl (json_object_get_member (object, "beginTime"), (guint64 *) &self->begin_time);
  read_hl (json_object_get_member (object, "beginTimeQpc"), &self->begin_ticks);
  read_hl (json_object_get_member (object, "qpcFrequency"), &self->frequency);
  read_hl (json_object_get_member (object, "duration"), &self->duration);
  read_counters (self, json_node_get_array (counters));

  return g_steal_pointer (&self);
}
