/* sps-chrome-export-metadata.c: metadata and objects of the Chrome JSON exporter
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-chrome-exporter"

#include "config.h"

#include <string.h>

#include "sps-chrome-exporter-private.h"

/* Metadata: names, sort indexes and labels */

/* Opens an M event @name about @thread, or about @process when @thread is
 * SPS_NO_INDEX, up to the value of its one argument @arg. */
static void
begin_metadata (Writer     *w,
                const char *name,
                guint32     process,
                guint32     thread,
                const char *arg)
{
  sps_chrome_writer_begin_event (w, 'M');
  sps_chrome_writer_key (w, "name");
  sps_chrome_out_string (w->buf, name, strlen (name));
  if (thread != SPS_NO_INDEX)
    sps_chrome_writer_append_thread (w, thread);
  else
    sps_chrome_writer_append_process (w, process);
  sps_chrome_writer_key (w, "args");
  g_string_append_c (w->buf, '{');
  sps_chrome_out_string (w->buf, arg, strlen (arg));
  g_string_append_c (w->buf, ':');
}

static gboolean
write_metadata_string (Writer      *w,
                       const char  *name,
                       guint32      process,
                       guint32      thread,
                       const char  *arg,
                       guint32      value,
                       GError     **error)
{
  begin_metadata (w, name, process, thread, arg);
  sps_chrome_writer_append_string_id (w, value);
  g_string_append_c (w->buf, '}');
  return sps_chrome_writer_end_event (w, error);
}

static gboolean
write_metadata_int (Writer      *w,
                    const char  *name,
                    guint32      process,
                    guint32      thread,
                    const char  *arg,
                    gint64       value,
                    GError     **error)
{
  begin_metadata (w, name, process, thread, arg);
  sps_json_append_int64 (w->buf, value);
  g_string_append_c (w->buf, '}');
  return sps_chrome_writer_end_event (w, error);
}

gboolean
sps_chrome_write_process_metadata (Writer  *w,
                                   GError **error)
{
  const SpsProcessTable *processes = w->processes;
  const SpsThreadTable *threads = w->threads;
  const SpsObjectTable *objects = sps_trace_get_objects (w->trace);
  const SpsSampleTable *samples = sps_trace_get_samples (w->trace);
  g_autofree gboolean *process_used = g_new0 (gboolean, processes->n_rows + 1);
  g_autofree gboolean *thread_used = g_new0 (gboolean, threads->n_rows + 1);

  /* A process or thread that no event of the output mentions (its only
   * events were dropped or moved by finish()) is created again by a name
   * event, with the empty name it has. */
  for (guint t = 0; t < w->tracks->n_rows; t++)
    {
      guint32 process = sps_chrome_writer_track_process (w, t);

      if (w->tracks->thread[t] < threads->n_rows)
        thread_used[w->tracks->thread[t]] = TRUE;
      if (process < processes->n_rows)
        process_used[process] = TRUE;
    }
  for (guint i = 0; i < samples->n_rows; i++)
    if (samples->thread[i] < threads->n_rows)
      thread_used[samples->thread[i]] = TRUE;
  for (guint i = 0; i < objects->n_rows; i++)
    if (objects->process[i] < processes->n_rows)
      process_used[objects->process[i]] = TRUE;
  for (guint i = 0; i < threads->n_rows; i++)
    if (thread_used[i] || threads->name[i] != 0 || threads->sort_index[i] != G_MAXINT32)
      process_used[threads->process[i]] = TRUE;

  for (guint i = 0; i < processes->n_rows; i++)
    {
      if ((processes->name[i] != 0 ||
           (!process_used[i] && processes->sort_index[i] == G_MAXINT32 && processes->labels[i] == 0)) &&
          !write_metadata_string (w, "process_name", i, SPS_NO_INDEX, "name", processes->name[i], error))
        return FALSE;
      if (processes->sort_index[i] != G_MAXINT32 &&
          !write_metadata_int (w, "process_sort_index", i, SPS_NO_INDEX, "sort_index",
                               processes->sort_index[i], error))
        return FALSE;
      if (processes->labels[i] != 0 &&
          !write_metadata_string (w, "process_labels", i, SPS_NO_INDEX, "labels",
                                  processes->labels[i], error))
        return FALSE;
    }

  for (guint i = 0; i < threads->n_rows; i++)
    {
      if ((threads->name[i] != 0 || (!thread_used[i] && threads->sort_index[i] == G_MAXINT32)) &&
          !write_metadata_string (w, "thread_name", SPS_NO_INDEX, i, "name", threads->name[i], error))
        return FALSE;
      if (threads->sort_index[i] != G_MAXINT32 &&
          !write_metadata_int (w, "thread_sort_index", SPS_NO_INDEX, i, "sort_index",
                               threads->sort_index[i], error))
        return FALSE;
    }

  return TRUE;
}

/* Objects: N, O and D under their key, written as a hex string id. */
gboolean
sps_chrome_write_objects (Writer  *w,
                          GError **error)
{
  const SpsObjectTable *objects = sps_trace_get_objects (w->trace);

  for (guint i = 0; i < objects->n_rows; i++)
    {
      char phase;

      switch ((SpsObjectPhase) objects->phase[i])
        {
        case SPS_OBJECT_CREATED:
          phase = 'N';
          break;
        case SPS_OBJECT_DESTROYED:
          phase = 'D';
          break;
        case SPS_OBJECT_SNAPSHOT:
        default:
          phase = 'O';
          break;
        }

      sps_chrome_writer_begin_event (w, phase);
      sps_chrome_writer_append_name (w, objects->name[i]);
      sps_chrome_writer_key (w, "id");
      g_string_append_printf (w->buf, "\"0x%" G_GINT64_MODIFIER "x\"", objects->key[i]);
      sps_chrome_writer_append_process (w, objects->process[i]);
      sps_chrome_writer_ts (w, "ts", objects->ts[i]);
      sps_chrome_writer_append_args (w, objects->args[i]);
      if (!sps_chrome_writer_end_event (w, error) || !sps_chrome_writer_advance (w, error))
        return FALSE;
    }

  return TRUE;
}

/* Top-level keys other than the ones this exporter writes itself, copied
 * verbatim (otherData, metadata, TraceConfig…). A systemTraceEvents
 * array was read as events; one that is text (ftrace output) is kept
 * here, as it is not imported. */
gboolean
sps_chrome_write_top_level_metadata (Writer  *w,
                                     GError **error)
{
  static const char * const reserved[] = {
    "traceEvents", "stackFrames", "displayTimeUnit", "samples",
  };
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  guint n = sps_trace_get_n_metadata (w->trace);

  for (guint i = 0; i < n; i++)
    {
      SpsArgsRef value = SPS_ARGS_REF_NONE;
      const char *key = sps_trace_get_metadata (w->trace, i, &value);
      g_autofree char *decoded = NULL;
      const char *json;
      gsize len = 0;
      gboolean skip = FALSE;

      if (key == NULL || value == SPS_ARGS_REF_NONE)
        continue;
      for (guint r = 0; r < G_N_ELEMENTS (reserved); r++)
        skip |= strcmp (key, reserved[r]) == 0;
      if (skip || !g_hash_table_add (seen, (gpointer) key))
        continue;
      json = sps_chrome_writer_args_text (w, value, &len, &decoded);
      if (json == NULL || len == 0)
        continue;

      sps_chrome_out_literal (w->buf, ",\n");
      sps_chrome_out_string (w->buf, key, strlen (key));
      g_string_append_c (w->buf, ':');
      sps_chrome_out_value (w->buf, json, len);
      if (w->buf->len >= CHUNK_SIZE && !sps_chrome_writer_flush (w, error))
        return FALSE;
    }

  return TRUE;
}
