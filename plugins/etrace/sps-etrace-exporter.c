/* sps-etrace-exporter.c: writes the intermediate CSV of embedded-etrace
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Columns `name,type,start_us,end_us,priority,deadline_us,value`
 * (formats/embedded-trace.md §2.5): one row per matched span (type "isr"
 * or "task", from the slice's category) and one per marker (type
 * "marker", end = start, priority 0), ordered by start time, spans before
 * markers at equal times, then by name. Times are microseconds with the
 * exact nanosecond decimals, trailing zeros dropped. Spans still open at
 * the end of the capture have no end and are left out, like the
 * reference tool does.
 */

#define G_LOG_DOMAIN "sps-etrace"

#include "config.h"

#include <math.h>
#include <string.h>

#include "sps-etrace-exporter.h"

struct _SpsEtraceExporter
{
  GObject parent_instance;
};

static void sps_etrace_exporter_iface_init (SpsExporterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SpsEtraceExporter, sps_etrace_exporter, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SPS_TYPE_EXPORTER, sps_etrace_exporter_iface_init))

typedef struct
{
  SpsTime start;
  guint32 name;
  guint32 row;
  gboolean marker;
} Row;

static int
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  const Row *ra = a;
  const Row *rb = b;
  SpsTrace *trace = user_data;
  int cmp;

  if (ra->start != rb->start)
    return ra->start < rb->start ? -1 : 1;
  if (ra->marker != rb->marker)
    return ra->marker ? 1 : -1;
  cmp = g_strcmp0 (sps_trace_get_string (trace, ra->name), sps_trace_get_string (trace, rb->name));
  if (cmp != 0)
    return cmp;
  return ra->row < rb->row ? -1 : ra->row > rb->row;
}

static void
append_field (GString    *out,
              const char *text)
{
  if (strpbrk (text, ",\"\r\n") == NULL)
    {
      g_string_append (out, text);
      return;
    }

  g_string_append_c (out, '"');
  for (const char *p = text; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

static gint64
member_int (JsonObject *object,
            const char *name,
            gboolean   *present)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  *present = node != NULL && JSON_NODE_HOLDS_VALUE (node);
  return *present ? json_node_get_int (node) : 0;
}

static double
member_double (JsonObject *object,
               const char *name,
               gboolean   *present)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  *present = node != NULL && JSON_NODE_HOLDS_VALUE (node);
  return *present ? json_node_get_double (node) : 0;
}

static void
write_span (GString  *out,
            SpsTrace *trace,
            guint     row)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  g_autoptr(JsonNode) args = sps_trace_parse_args (trace, slices->args[row], NULL);
  JsonObject *object = args != NULL && JSON_NODE_HOLDS_OBJECT (args) ? json_node_get_object (args) : NULL;
  const char *category = sps_trace_get_string (trace, slices->category[row]);
  gboolean has_priority, has_deadline;
  gint64 priority = member_int (object, "priority", &has_priority);
  double deadline_ms = member_double (object, "deadline_ms", &has_deadline);
  SpsTime start = slices->ts[row];

  append_field (out, sps_trace_get_string (trace, slices->name[row]));
  g_string_append (out, g_strcmp0 (category, "isr") == 0 ? ",isr," : ",task,");
  sps_json_append_time_us (out, start);
  g_string_append_c (out, ',');
  sps_json_append_time_us (out, start + slices->dur[row]);
  g_string_append_printf (out, ",%" G_GINT64_FORMAT ",", priority);
  /* (args of other formats may say anything) */
  if (has_deadline && deadline_ms >= 0 && deadline_ms <= 1e12)
    sps_json_append_time_us (out, start + (SpsTime) llround (deadline_ms * 1e6));
  g_string_append (out, ",\n");
}

static void
write_marker (GString  *out,
              SpsTrace *trace,
              guint     row)
{
  const SpsInstantTable *instants = sps_trace_get_instants (trace);
  g_autoptr(JsonNode) args = sps_trace_parse_args (trace, instants->args[row], NULL);
  JsonObject *object = args != NULL && JSON_NODE_HOLDS_OBJECT (args) ? json_node_get_object (args) : NULL;
  gboolean has_value;
  gint64 value = member_int (object, "value", &has_value);

  append_field (out, sps_trace_get_string (trace, instants->name[row]));
  g_string_append (out, ",marker,");
  sps_json_append_time_us (out, instants->ts[row]);
  g_string_append_c (out, ',');
  sps_json_append_time_us (out, instants->ts[row]);
  g_string_append (out, ",0,,");
  if (has_value)
    g_string_append_printf (out, "%" G_GINT64_FORMAT, value);
  g_string_append_c (out, '\n');
}

static const char *
sps_etrace_exporter_get_name (SpsExporter *exporter)
{
  return "etrace-csv";
}

static const char *
sps_etrace_exporter_get_suffix (SpsExporter *exporter)
{
  return ".csv";
}

static gboolean
sps_etrace_exporter_write (SpsExporter   *exporter,
                           SpsTrace      *trace,
                           GVariant      *options,
                           GOutputStream *stream,
                           SpsProgress   *progress,
                           GError       **error)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  const SpsInstantTable *instants = sps_trace_get_instants (trace);
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (Row));
  g_autoptr(GString) out = g_string_new ("name,type,start_us,end_us,priority,deadline_us,value\n");
  GCancellable *cancellable = progress != NULL ? sps_progress_get_cancellable (progress) : NULL;

  g_assert (SPS_IS_ETRACE_EXPORTER (exporter));
  g_assert (trace != NULL);
  g_assert (G_IS_OUTPUT_STREAM (stream));

  for (guint i = 0; i < slices->n_rows; i++)
    {
      Row row = { slices->ts[i], slices->name[i], i, FALSE };

      if (tracks->kind[slices->track[i]] != SPS_TRACK_THREAD_SLICES ||
          (slices->flags[i] & (SPS_SLICE_UNFINISHED | SPS_SLICE_UNMATCHED_END | SPS_SLICE_STEP)) != 0)
        continue;
      g_array_append_val (rows, row);
    }

  for (guint i = 0; i < instants->n_rows; i++)
    {
      Row row = { instants->ts[i], instants->name[i], i, TRUE };

      if (g_strcmp0 (sps_trace_get_string (trace, instants->category[i]), "marker") != 0)
        continue;
      g_array_append_val (rows, row);
    }

  g_array_sort_with_data (rows, compare_rows, trace);

  for (guint i = 0; i < rows->len; i++)
    {
      const Row *row = &g_array_index (rows, Row, i);

      if (row->marker)
        write_marker (out, trace, row->row);
      else
        write_span (out, trace, row->row);

      if (out->len >= 64 * 1024 || i + 1 == rows->len)
        {
          if (!g_output_stream_write_all (stream, out->str, out->len, NULL, cancellable, error))
            return FALSE;
          g_string_truncate (out, 0);
          if (progress != NULL)
            sps_progress_set_fraction (progress, (double) (i + 1) / rows->len);
        }
    }

  if (out->len > 0 &&
      !g_output_stream_write_all (stream, out->str, out->len, NULL, cancellable, error))
    return FALSE;

  return TRUE;
}

static void
sps_etrace_exporter_iface_init (SpsExporterInterface *iface)
{
  iface->get_name = sps_etrace_exporter_get_name;
  iface->get_suffix = sps_etrace_exporter_get_suffix;
  iface->write = sps_etrace_exporter_write;
}

static void
sps_etrace_exporter_class_init (SpsEtraceExporterClass *klass)
{
}

static void
sps_etrace_exporter_init (SpsEtraceExporter *self)
{
}
