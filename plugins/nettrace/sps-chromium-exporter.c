/* sps-chromium-exporter.c: writes stack samples as a Chrome flame chart
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-nettrace"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "sps-chromium-exporter.h"

/* The "chromium" format of `dotnet-trace convert`: per thread, the
 * samples in time order become a flame chart of complete (X) events.
 * A frame's span starts at the first sample that has it at its depth
 * under the same callers and lasts until the first sample that does not;
 * spans still open after the thread's last sample end one sampling
 * period (1 ms) after it. Perfetto and chrome://tracing show the result
 * as the time-ordered flame chart of each thread.
 *
 * Options (`a{sv}`): "raw" (b): write the raw samples (the stacks as
 * read, before any repair) when the trace has them. */

struct _SpsChromiumExporter
{
  GObject parent_instance;
};

static void sps_chromium_exporter_iface_init (SpsExporterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SpsChromiumExporter, sps_chromium_exporter, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SPS_TYPE_EXPORTER, sps_chromium_exporter_iface_init))

#define FINAL_SPAN_NS G_GINT64_CONSTANT (1000000)
#define FLUSH_BYTES   (1 << 16)

typedef struct
{
  SpsTrace               *trace;
  GOutputStream          *stream;
  GString                *out;
  const SpsCallsiteTable *callsites;
  const SpsFrameTable    *frames;
  gboolean                first_event;
  gint64                  pid;
  gint64                  tid;

  /* The open spans, root first */
  GArray                 *open_name;     /* guint32 string id */
  GArray                 *open_start;    /* SpsTime */
  GArray                 *open_callsite; /* guint32 */
  GArray                 *stack;         /* guint32 callsite, scratch */
} Writer;

static gboolean
flush (Writer   *w,
       gboolean  force,
       GError  **error)
{
  if (w->out->len == 0 || (!force && w->out->len < FLUSH_BYTES))
    return TRUE;

  if (!g_output_stream_write_all (w->stream, w->out->str, w->out->len, NULL, NULL, error))
    return FALSE;
  g_string_truncate (w->out, 0);

  return TRUE;
}

static void
begin_event (Writer *w)
{
  g_string_append (w->out, w->first_event ? "\n" : ",\n");
  w->first_event = FALSE;
}

static void
close_spans (Writer  *w,
             guint    keep,
             SpsTime  ts)
{
  while (w->open_name->len > keep)
    {
      guint d = w->open_name->len - 1;
      SpsTime start = g_array_index (w->open_start, SpsTime, d);

      begin_event (w);
      g_string_append (w->out, "{\"name\":");
      sps_json_append_string (w->out, sps_trace_get_string (w->trace, g_array_index (w->open_name, guint32, d)), -1);
      g_string_append (w->out, ",\"cat\":\"sample\",\"ph\":\"X\",\"ts\":");
      sps_json_append_time_us (w->out, start);
      g_string_append (w->out, ",\"dur\":");
      sps_json_append_time_us (w->out, ts - start);
      g_string_append_printf (w->out, ",\"pid\":%" G_GINT64_FORMAT ",\"tid\":%" G_GINT64_FORMAT "}",
                              w->pid, w->tid);
      g_array_set_size (w->open_name, d);
      g_array_set_size (w->open_start, d);
      g_array_set_size (w->open_callsite, d);
    }
}

/* Moves the open spans to the stack of @callsite at @ts. The callsite
 * tree gives the common part cheaply: only the frames below the first
 * callsite the two stacks do not share are compared, by name. */
static void
apply_sample (Writer  *w,
              guint32  callsite,
              SpsTime  ts)
{
  guint depth = 0;
  guint d;
  guint keep;
  guint32 x = callsite;

  if (callsite != SPS_NO_INDEX)
    depth = (guint) w->callsites->depth[callsite] + 1;

  /* The callsites of the new stack below the shared part, leaf first */
  g_array_set_size (w->stack, 0);
  for (d = depth; d > w->open_name->len; d--)
    {
      g_array_append_val (w->stack, x);
      x = w->callsites->parent[x];
    }
  while (d > 0 && g_array_index (w->open_callsite, guint32, d - 1) != x)
    {
      g_array_append_val (w->stack, x);
      x = w->callsites->parent[x];
      d--;
    }

  /* Other callsites with the same frame names still continue a span */
  keep = d;
  while (keep < w->open_name->len && keep < depth)
    {
      guint32 c = g_array_index (w->stack, guint32, depth - 1 - keep);

      if (g_array_index (w->open_name, guint32, keep) != w->frames->name[w->callsites->frame[c]])
        break;
      g_array_index (w->open_callsite, guint32, keep) = c;
      keep++;
    }

  close_spans (w, keep, ts);
  for (d = keep; d < depth; d++)
    {
      guint32 c = g_array_index (w->stack, guint32, depth - 1 - d);
      guint32 name = w->frames->name[w->callsites->frame[c]];

      g_array_append_val (w->open_name, name);
      g_array_append_val (w->open_start, ts);
      g_array_append_val (w->open_callsite, c);
    }
}

static void
write_thread_name (Writer  *w,
                   guint32  thread)
{
  const SpsThreadTable *threads = sps_trace_get_threads (w->trace);
  const SpsProcessTable *processes = sps_trace_get_processes (w->trace);
  g_autofree char *fallback = NULL;
  const char *name;

  w->tid = threads->tid[thread];
  w->pid = processes->pid[threads->process[thread]];
  name = threads->name[thread] != 0 ? sps_trace_get_string (w->trace, threads->name[thread]) : NULL;
  if (name == NULL || name[0] == '\0')
    name = fallback = g_strdup_printf ("Thread %" G_GINT64_FORMAT, w->tid);

  begin_event (w);
  g_string_append_printf (w->out,
                          "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%" G_GINT64_FORMAT
                          ",\"tid\":%" G_GINT64_FORMAT ",\"args\":{\"name\":",
                          w->pid, w->tid);
  sps_json_append_string (w->out, name, -1);
  g_string_append (w->out, "}}");
}

static gboolean
sps_chromium_exporter_write (SpsExporter    *exporter,
                             SpsTrace       *trace,
                             GVariant       *options,
                             GOutputStream  *stream,
                             SpsProgress    *progress,
                             GError        **error)
{
  g_autoptr(GString) out = g_string_sized_new (FLUSH_BYTES + 4096);
  g_autoptr(GArray) open_name = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) open_start = g_array_new (FALSE, FALSE, sizeof (SpsTime));
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) open_callsite = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GVariant) raw_value = NULL;
  const SpsSampleTable *samples = sps_trace_get_samples (trace);
  gboolean raw = FALSE;
  Writer w = { 0, };
  guint32 thread = SPS_NO_INDEX;
  guint32 last_callsite = SPS_NO_INDEX;
  SpsTime last_ts = 0;

  g_assert (SPS_IS_CHROMIUM_EXPORTER (exporter));

  if (options != NULL && (raw_value = g_variant_lookup_value (options, "raw", NULL)) != NULL &&
      !g_variant_lookup (options, "raw", "b", &raw))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   /* Translators: an option name and the type it needs */
                   _("The option “%s” must be a %s"), "raw", "boolean");
      return FALSE;
    }
  if (raw && sps_trace_get_raw_samples (trace)->n_rows > 0)
    samples = sps_trace_get_raw_samples (trace);

  w.trace = trace;
  w.stream = stream;
  w.out = out;
  w.callsites = sps_trace_get_callsites (trace);
  w.frames = sps_trace_get_frames (trace);
  w.first_event = TRUE;
  w.open_name = open_name;
  w.open_start = open_start;
  w.open_callsite = open_callsite;
  w.stack = stack;

  if (progress != NULL)
    sps_progress_set_phase (progress, SPS_PROGRESS_PHASE_PARSING, _("Writing"));

  g_string_append (out, "{\"traceEvents\":[");

  /* Rows are sorted by (track, ts): one run of rows per thread */
  for (guint r = 0; r < samples->n_rows; r++)
    {
      if (samples->thread[r] != thread)
        {
          if (thread != SPS_NO_INDEX)
            close_spans (&w, 0, last_ts + FINAL_SPAN_NS);
          thread = samples->thread[r];
          last_callsite = SPS_NO_INDEX;
          write_thread_name (&w, thread);
        }

      /* The same stack as the previous sample changes no span */
      if (samples->callsite[r] != last_callsite || w.open_name->len == 0)
        apply_sample (&w, samples->callsite[r], samples->ts[r]);
      last_callsite = samples->callsite[r];
      last_ts = samples->ts[r];

      if ((r & 0xffff) == 0 && progress != NULL)
        {
          if (sps_progress_is_cancelled (progress))
            {
              g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Writing was cancelled"));
              return FALSE;
            }
          sps_progress_set_fraction (progress, (double) r / (double) samples->n_rows);
        }

      if (!flush (&w, FALSE, error))
        return FALSE;
    }
  if (thread != SPS_NO_INDEX)
    close_spans (&w, 0, last_ts + FINAL_SPAN_NS);

  g_string_append (out, "\n],\"displayTimeUnit\":\"ms\"}\n");
  if (!flush (&w, TRUE, error))
    return FALSE;

  if (progress != NULL)
    sps_progress_set_fraction (progress, 1.0);

  return TRUE;
}

static const char *
sps_chromium_exporter_get_name (SpsExporter *exporter)
{
  return "chromium";
}

static const char *
sps_chromium_exporter_get_suffix (SpsExporter *exporter)
{
  return ".chromium.json";
}

static void
sps_chromium_exporter_iface_init (SpsExporterInterface *iface)
{
  iface->get_name = sps_chromium_exporter_get_name;
  iface->get_suffix = sps_chromium_exporter_get_suffix;
  iface->write = sps_chromium_exporter_write;
}

static void
sps_chromium_exporter_class_init (SpsChromiumExporterClass *klass)
{
}

static void
sps_chromium_exporter_init (SpsChromiumExporter *self)
{
}
