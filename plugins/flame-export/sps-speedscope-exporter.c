/* sps-speedscope-exporter.c: writes speedscope's JSON file format
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One file: `shared.frames` holds every frame name once, and each thread
 * of the scope gets a profile, in thread table order:
 *
 * - samples tree: a "sampled" profile with unit "none"; each sample is
 *   its stack (frame indexes, root first) with weight 1, in time order,
 *   so widths are sample counts. An unresolved stack is one frame named
 *   after its event.
 * - measured and sampled span trees: an "evented" profile in nanoseconds,
 *   an open (O) and a close (C) event per slice of the thread's track.
 *
 * The "thread" option keeps the threads with that id; "tree" picks the
 * kind (default: samples when the trace has some, else measured).
 */

#define G_LOG_DOMAIN "sps-flame-export"

#include "config.h"

#include "sps-flame-export-util.h"
#include "sps-speedscope-exporter.h"

struct _SpsSpeedscopeExporter
{
  GObject parent_instance;
};

static void sps_speedscope_exporter_iface_init (SpsExporterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SpsSpeedscopeExporter, sps_speedscope_exporter, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SPS_TYPE_EXPORTER,
                                                      sps_speedscope_exporter_iface_init))

typedef struct
{
  SpsFlameExportScope  scope;
  SpsTrace            *trace;
  GOutputStream       *stream;
  SpsProgress         *progress;
  GString             *buf;

  const SpsSampleTable   *samples;
  const SpsCallsiteTable *callsites;
  const SpsFrameTable    *frames;
  const SpsSliceTable    *slices;
  const SpsTrackTable    *tracks;
  const SpsThreadTable   *threads;

  /* string id + 1 → frame index + 1, in order of first use */
  GHashTable          *frame_index;
  GArray              *frame_names;  /* guint32 string ids */
  GArray              *stack;        /* scratch */
  gboolean             first_profile;
} Writer;

static guint32
frame_of_name (Writer  *w,
               guint32  name)
{
  gpointer pos = g_hash_table_lookup (w->frame_index, GUINT_TO_POINTER (name + 1));

  if (pos == NULL)
    {
      g_array_append_val (w->frame_names, name);
      pos = GUINT_TO_POINTER (w->frame_names->len);
      g_hash_table_insert (w->frame_index, GUINT_TO_POINTER (name + 1), pos);
    }

  return GPOINTER_TO_UINT (pos) - 1;
}

/* The stack of sample @row as frame indexes, root first, in w->stack. */
static void
sample_stack (Writer *w,
              guint   row)
{
  guint32 callsite = w->samples->callsite[row];

  g_array_set_size (w->stack, 0);
  if (callsite == SPS_NO_INDEX || callsite >= w->callsites->n_rows)
    {
      guint32 f = frame_of_name (w, w->samples->name[row]);

      g_array_append_val (w->stack, f);
      return;
    }

  /* Names leaf first, then frame indexes root first, so that frames are
   * numbered from the root down */
  for (guint32 c = callsite; c != SPS_NO_INDEX; c = w->callsites->parent[c])
    {
      guint32 frame = w->callsites->frame[c];
      guint32 name = frame < w->frames->n_rows ? w->frames->name[frame] : 0;

      g_array_append_val (w->stack, name);
    }
  for (guint i = 0, j = w->stack->len - 1; i < j; i++, j--)
    {
      guint32 tmp = g_array_index (w->stack, guint32, i);

      g_array_index (w->stack, guint32, i) = g_array_index (w->stack, guint32, j);
      g_array_index (w->stack, guint32, j) = tmp;
    }
  for (guint i = 0; i < w->stack->len; i++)
    g_array_index (w->stack, guint32, i) = frame_of_name (w, g_array_index (w->stack, guint32, i));
}

static guint
slice_track_of_thread (Writer  *w,
                       guint32  thread)
{
  guint8 want = w->scope.kind == SPS_FLAME_TREE_SAMPLED ? SPS_TRACK_THREAD_SAMPLED_SLICES
                                                        : SPS_TRACK_THREAD_SLICES;

  for (guint t = 0; t < w->tracks->n_rows; t++)
    {
      if (w->tracks->kind[t] == want && w->tracks->thread[t] == thread)
        return t;
    }

  return SPS_NO_INDEX;
}

/* Frames are written before the profiles, so a first pass names them, in
 * order of first use. */
static void
collect_frames (Writer *w)
{
  if (w->scope.kind == SPS_FLAME_TREE_SAMPLES)
    {
      for (guint r = 0; r < w->samples->n_rows; r++)
        {
          if (sps_flame_export_thread_in_scope (&w->scope, w->samples->thread[r]))
            sample_stack (w, r);
        }
      return;
    }

  for (guint32 th = 0; th < w->threads->n_rows; th++)
    {
      guint track;

      if (!sps_flame_export_thread_in_scope (&w->scope, th) ||
          (track = slice_track_of_thread (w, th)) == SPS_NO_INDEX)
        continue;
      for (guint r = w->tracks->first_row[track];
           r < w->tracks->first_row[track] + w->tracks->n_rows_in_track[track]; r++)
        frame_of_name (w, w->slices->name[r]);
    }
}

static void
append_profile_name (Writer  *w,
                     guint32  thread)
{
  const char *name = sps_trace_get_string (w->trace, w->threads->name[thread]);
  const SpsProcessTable *processes = sps_trace_get_processes (w->trace);
  guint32 process = w->threads->process[thread];
  g_autofree char *text = NULL;
  gint64 pid = process < processes->n_rows ? processes->pid[process] : 0;

  if (name[0] != '\0')
    text = g_strdup_printf ("%s (pid %" G_GINT64_FORMAT ", tid %" G_GINT64_FORMAT ")",
                            name, pid, w->threads->tid[thread]);
  else
    text = g_strdup_printf ("pid %" G_GINT64_FORMAT ", tid %" G_GINT64_FORMAT,
                            pid, w->threads->tid[thread]);
  sps_json_append_string (w->buf, text, -1);
}

static gboolean
write_sampled_profile (Writer  *w,
                       guint32  thread,
                       GArray  *rows,
                       GError **error)
{
  g_string_append (w->buf, w->first_profile ? "\n" : ",\n");
  w->first_profile = FALSE;
  g_string_append (w->buf, "{\"type\":\"sampled\",\"name\":");
  append_profile_name (w, thread);
  g_string_append_printf (w->buf, ",\"unit\":\"none\",\"startValue\":0,\"endValue\":%u,\"samples\":[",
                          rows->len);

  for (guint i = 0; i < rows->len; i++)
    {
      sample_stack (w, g_array_index (rows, guint, i));
      if (i > 0)
        g_string_append_c (w->buf, ',');
      g_string_append_c (w->buf, '[');
      for (guint k = 0; k < w->stack->len; k++)
        g_string_append_printf (w->buf, k > 0 ? ",%u" : "%u", g_array_index (w->stack, guint32, k));
      g_string_append_c (w->buf, ']');
      if (!sps_flame_export_flush (w->stream, w->buf, FALSE, w->progress, error))
        return FALSE;
    }

  g_string_append (w->buf, "],\"weights\":[");
  for (guint i = 0; i < rows->len; i++)
    {
      g_string_append (w->buf, i > 0 ? ",1" : "1");
      if (!sps_flame_export_flush (w->stream, w->buf, FALSE, w->progress, error))
        return FALSE;
    }
  g_string_append (w->buf, "]}");

  return TRUE;
}

static void
append_event (GString *buf,
              gboolean first,
              char     type,
              guint32  frame,
              SpsTime  at)
{
  g_string_append_printf (buf, "%s{\"type\":\"%c\",\"frame\":%u,\"at\":%" G_GINT64_FORMAT "}",
                          first ? "" : ",", type, frame, at);
}

/* Opens and closes follow the slices' parent links: a slice closes every
 * open slice that is not its ancestor. Times never go backwards and a
 * child never closes after its parent, as speedscope requires. */
static gboolean
write_evented_profile (Writer  *w,
                       guint32  thread,
                       guint    track,
                       GError **error)
{
  guint first = w->tracks->first_row[track];
  guint end = first + w->tracks->n_rows_in_track[track];
  g_autoptr(GArray) open = g_array_new (FALSE, FALSE, sizeof (guint32));
  SpsTime start_value = end > first ? w->slices->ts[first] : 0;
  SpsTime end_value = start_value;
  SpsTime last = start_value;
  gboolean first_event = TRUE;

  for (guint r = first; r < end; r++)
    end_value = MAX (end_value, w->slices->ts[r] + MAX (w->slices->dur[r], 0));

  g_string_append (w->buf, w->first_profile ? "\n" : ",\n");
  w->first_profile = FALSE;
  g_string_append (w->buf, "{\"type\":\"evented\",\"name\":");
  append_profile_name (w, thread);
  g_string_append_printf (w->buf,
                          ",\"unit\":\"nanoseconds\",\"startValue\":%" G_GINT64_FORMAT
                          ",\"endValue\":%" G_GINT64_FORMAT ",\"events\":[",
                          start_value, end_value);

  for (guint r = first; r <= end; r++)
    {
      guint32 parent = r < end ? w->slices->parent[r] : SPS_NO_INDEX;

      while (open->len > 0 && g_array_index (open, guint32, open->len - 1) != parent)
        {
          guint32 top = g_array_index (open, guint32, open->len - 1);
          SpsTime at = w->slices->ts[top] + MAX (w->slices->dur[top], 0);

          at = CLAMP (at, last, MAX (last, end_value));
          append_event (w->buf, first_event, 'C', frame_of_name (w, w->slices->name[top]), at);
          first_event = FALSE;
          last = at;
          g_array_set_size (open, open->len - 1);
        }

      if (r == end)
        break;

      last = MAX (last, w->slices->ts[r]);
      append_event (w->buf, first_event, 'O', frame_of_name (w, w->slices->name[r]), last);
      first_event = FALSE;
      g_array_append_val (open, r);

      if (!sps_flame_export_flush (w->stream, w->buf, FALSE, w->progress, error))
        return FALSE;
    }

  g_string_append (w->buf, "]}");

  return TRUE;
}

static void
free_rows (gpointer rows)
{
  if (rows != NULL)
    g_array_unref (rows);
}

static gboolean
write_profiles (Writer  *w,
                GError **error)
{
  if (w->scope.kind == SPS_FLAME_TREE_SAMPLES)
    {
      g_autoptr(GPtrArray) per_thread = g_ptr_array_new_with_free_func (free_rows);

      g_ptr_array_set_size (per_thread, (gint) w->threads->n_rows);
      for (guint r = 0; r < w->samples->n_rows; r++)
        {
          guint32 th = w->samples->thread[r];
          GArray *rows;

          if (th >= w->threads->n_rows || !sps_flame_export_thread_in_scope (&w->scope, th))
            continue;
          if (!(rows = g_ptr_array_index (per_thread, th)))
            rows = g_ptr_array_index (per_thread, th) = g_array_new (FALSE, FALSE, sizeof (guint));
          g_array_append_val (rows, r);
        }

      for (guint th = 0; th < w->threads->n_rows; th++)
        {
          GArray *rows = g_ptr_array_index (per_thread, th);

          if (rows != NULL && !write_sampled_profile (w, th, rows, error))
            return FALSE;
        }
      return TRUE;
    }

  for (guint32 th = 0; th < w->threads->n_rows; th++)
    {
      guint track;

      if (!sps_flame_export_thread_in_scope (&w->scope, th) ||
          (track = slice_track_of_thread (w, th)) == SPS_NO_INDEX)
        continue;
      if (!write_evented_profile (w, th, track, error))
        return FALSE;
    }

  return TRUE;
}

static gboolean
write_file (Writer  *w,
            GError **error)
{
  collect_frames (w);

  g_string_append (w->buf,
                   "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
                   "\"exporter\":\"spanscope " PACKAGE_VERSION "\",\"name\":\"");
  g_string_append (w->buf, sps_flame_tree_kind_to_string (w->scope.kind));
  g_string_append (w->buf, "\",\"activeProfileIndex\":0,\"shared\":{\"frames\":[");
  for (guint i = 0; i < w->frame_names->len; i++)
    {
      g_string_append (w->buf, i > 0 ? ",\n{\"name\":" : "\n{\"name\":");
      sps_json_append_string (w->buf, sps_trace_get_string (w->trace, g_array_index (w->frame_names, guint32, i)), -1);
      g_string_append_c (w->buf, '}');
      if (!sps_flame_export_flush (w->stream, w->buf, FALSE, w->progress, error))
        return FALSE;
    }
  g_string_append (w->buf, "]},\"profiles\":[");

  if (!write_profiles (w, error))
    return FALSE;

  g_string_append (w->buf, "]}\n");

  return sps_flame_export_flush (w->stream, w->buf, TRUE, w->progress, error);
}

/* SpsExporter */

static const char *
sps_speedscope_exporter_get_name (SpsExporter *exporter)
{
  return "speedscope";
}

static const char *
sps_speedscope_exporter_get_suffix (SpsExporter *exporter)
{
  return ".speedscope.json";
}

static gboolean
sps_speedscope_exporter_write (SpsExporter    *exporter,
                               SpsTrace       *trace,
                               GVariant       *options,
                               GOutputStream  *stream,
                               SpsProgress    *progress,
                               GError        **error)
{
  Writer w = { 0 };
  gboolean ret;

  g_assert (SPS_IS_SPEEDSCOPE_EXPORTER (exporter));
  g_assert (SPS_IS_TRACE (trace));
  g_assert (G_IS_OUTPUT_STREAM (stream));
  g_assert (progress == NULL || SPS_IS_PROGRESS (progress));

  if (!sps_flame_export_parse_options (trace, options, &w.scope, error))
    return FALSE;

  w.trace = trace;
  w.stream = stream;
  w.progress = progress;
  w.buf = g_string_sized_new (SPS_FLAME_EXPORT_CHUNK + 4096);
  w.samples = sps_trace_get_samples (trace);
  w.callsites = sps_trace_get_callsites (trace);
  w.frames = sps_trace_get_frames (trace);
  w.slices = sps_trace_get_slices (trace);
  w.tracks = sps_trace_get_tracks (trace);
  w.threads = sps_trace_get_threads (trace);
  w.frame_index = g_hash_table_new (NULL, NULL);
  w.frame_names = g_array_new (FALSE, FALSE, sizeof (guint32));
  w.stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  w.first_profile = TRUE;

  ret = write_file (&w, error);
  if (ret && progress != NULL)
    sps_progress_set_fraction (progress, 1.0);

  g_string_free (w.buf, TRUE);
  g_hash_table_unref (w.frame_index);
  g_array_unref (w.frame_names);
  g_array_unref (w.stack);

  return ret;
}

static void
sps_speedscope_exporter_iface_init (SpsExporterInterface *iface)
{
  iface->get_name = sps_speedscope_exporter_get_name;
  iface->get_suffix = sps_speedscope_exporter_get_suffix;
  iface->write = sps_speedscope_exporter_write;
}

static void
sps_speedscope_exporter_class_init (SpsSpeedscopeExporterClass *klass)
{
}

static void
sps_speedscope_exporter_init (SpsSpeedscopeExporter *self)
{
}
