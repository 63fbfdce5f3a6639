/* sps-chrome-exporter.c: writes a trace as Chrome JSON (object form)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The output is written so that importing it again gives the same tables:
 *
 * - M events for process and thread names, sort indexes and labels;
 * - measured slices as X, unfinished ones as X without `dur`; sampled
 *   spans the same way with the category token `sampleEvent`; their
 *   stacks as `sf`/`esf`;
 * - async slices as b/e, one id per tree of a lane; legacy ones cut by
 *   steps as S/T/F (or S/p/F);
 * - instants as i with their scope, marks as R, async instants as n;
 * - counter values as C, one per value;
 * - flows as s/f pairs or flow v2 bind ids (see sps_chrome_plan_flows());
 * - samples of V8 CPU profiles as the profile they came in (Profile and
 *   ProfileChunk, or CpuProfile); other samples as P whose `sf` indexes a
 *   top-level stackFrames dictionary written from the callsite tree (key =
 *   callsite index, with the frames' source locations);
 * - objects as N/O/D; other top-level keys copied.
 *
 * Times are absolute, in microseconds with exact nanosecond decimals;
 * args are copied from the input text (repaired where the importer was
 * more lenient than JSON). Everything streams through a small buffer.
 */

#define G_LOG_DOMAIN "sps-chrome-exporter"

#include "config.h"

#include <math.h>
#include <string.h>

#include "sps-chrome-exporter.h"
#include "sps-chrome-exporter-private.h"
#include "sps-chrome-interner.h"

struct _SpsChromeExporter
{
  GObject parent_instance;
};

static void sps_chrome_exporter_iface_init (SpsExporterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SpsChromeExporter, sps_chrome_exporter, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SPS_TYPE_EXPORTER,
                                                      sps_chrome_exporter_iface_init))

void
sps_chrome_writer_append_string_id (Writer  *w,
                                    guint32  id)
{
  gsize len = 0;
  const char *str = sps_string_pool_get (w->strings, id, &len);

  if (str == NULL)
    {
      str = "";
      len = 0;
    }
  sps_chrome_out_string (w->buf, str, len);
}

gboolean
sps_chrome_writer_string_id_is_empty (Writer  *w,
                                      guint32  id)
{
  gsize len = 0;
  const char *str;

  if (id == 0)
    return TRUE;
  str = sps_string_pool_get (w->strings, id, &len);
  return str == NULL || len == 0;
}

/* Event fields */

void
sps_chrome_writer_begin_event (Writer *w,
                               char    phase)
{
  if (!w->first_event)
    sps_chrome_out_literal (w->buf, ",\n");
  w->first_event = FALSE;
  sps_chrome_out_literal (w->buf, "{\"ph\":\"");
  g_string_append_c (w->buf, phase);
  g_string_append_c (w->buf, '"');
}

void
sps_chrome_writer_append_name (Writer  *w,
                               guint32  name)
{
  sps_chrome_writer_key (w, "name");
  sps_chrome_writer_append_string_id (w, name);
}

void
sps_chrome_writer_append_category (Writer  *w,
                                   guint32  category)
{
  if (sps_chrome_writer_string_id_is_empty (w, category))
    return;
  sps_chrome_writer_key (w, "cat");
  sps_chrome_writer_append_string_id (w, category);
}

void
sps_chrome_writer_append_process (Writer  *w,
                                  guint32  process)
{
  if (process >= w->processes->n_rows)
    return;
  sps_chrome_writer_int_field (w, "pid", w->processes->pid[process]);
}

void
sps_chrome_writer_append_thread (Writer  *w,
                                 guint32  thread)
{
  if (thread >= w->threads->n_rows)
    return;
  sps_chrome_writer_append_process (w, w->threads->process[thread]);
  sps_chrome_writer_int_field (w, "tid", w->threads->tid[thread]);
}

/* The process a track belongs to, directly or through its thread. */
guint32
sps_chrome_writer_track_process (Writer  *w,
                                 guint32  track)
{
  if (track >= w->tracks->n_rows)
    return SPS_NO_INDEX;
  if (w->tracks->process[track] != SPS_NO_INDEX)
    return w->tracks->process[track];
  if (w->tracks->thread[track] < w->threads->n_rows)
    return w->threads->process[w->tracks->thread[track]];
  return SPS_NO_INDEX;
}

guint32
sps_chrome_writer_track_thread (Writer  *w,
                                guint32  track)
{
  if (track >= w->tracks->n_rows)
    return SPS_NO_INDEX;
  return w->tracks->thread[track];
}

/* The text of @ref's args: in place, or decoded into *@decoded (the
 * caller frees it) when the importer deferred them */
const char *
sps_chrome_writer_args_text (Writer     *w,
                             SpsArgsRef  ref,
                             gsize      *len,
                             char      **decoded)
{
  *decoded = NULL;
  *len = 0;
  if (ref == SPS_ARGS_REF_NONE)
    return NULL;
  if (sps_args_ref_is_deferred (ref))
    return *decoded = sps_trace_dup_args_json (w->trace, ref, len);
  return sps_trace_get_args_json (w->trace, ref, len);
}

void
sps_chrome_writer_append_args (Writer     *w,
                               SpsArgsRef  ref)
{
  g_autofree char *decoded = NULL;
  const char *json;
  gsize len = 0;

  json = sps_chrome_writer_args_text (w, ref, &len, &decoded);
  if (json == NULL || len == 0)
    return;
  sps_chrome_writer_key (w, "args");
  sps_chrome_out_value (w->buf, json, len);
}

/* `,"KEY":"callsite"` naming an entry of stackFrames, when there is one */
void
sps_chrome_writer_append_stack_ref (Writer     *w,
                                    const char *key,
                                    guint32     callsite)
{
  if (callsite >= sps_trace_get_callsites (w->trace)->n_rows)
    return;
  sps_chrome_out_literal (w->buf, ",\"");
  sps_chrome_out_len (w->buf, key, strlen (key));
  sps_chrome_out_literal (w->buf, "\":\"");
  sps_json_append_uint64 (w->buf, callsite);
  g_string_append_c (w->buf, '"');
}

/* Opens an event of a flow or async tree: its category is part of the
 * tree's identity, so it is written even when empty. */
void
sps_chrome_writer_begin_id_event (Writer  *w,
                                  char     phase,
                                  guint32  name,
                                  guint32  category,
                                  guint64  id)
{
  sps_chrome_writer_begin_event (w, phase);
  sps_chrome_writer_append_name (w, name);
  sps_chrome_writer_key (w, "cat");
  sps_chrome_writer_append_string_id (w, category);
  sps_chrome_writer_key (w, "id");
  sps_json_append_uint64 (w->buf, id);
}

gboolean
sps_chrome_writer_flush (Writer  *w,
                         GError **error)
{
  if (w->buf->len == 0)
    return TRUE;
  if (!g_output_stream_write_all (w->stream, w->buf->str, w->buf->len,
                                  NULL, w->cancellable, error))
    return FALSE;
  g_string_truncate (w->buf, 0);
  return TRUE;
}

/* Closes the current event and hands a full chunk to the stream. */
gboolean
sps_chrome_writer_end_event (Writer  *w,
                             GError **error)
{
  g_string_append_c (w->buf, '}');
  if (w->buf->len >= CHUNK_SIZE)
    return sps_chrome_writer_flush (w, error);
  return TRUE;
}

gboolean
sps_chrome_writer_advance (Writer  *w,
                           GError **error)
{
  w->rows_done++;
  if (w->rows_done % PROGRESS_STRIDE != 0)
    return TRUE;
  if (g_cancellable_set_error_if_cancelled (w->cancellable, error))
    return FALSE;
  if (w->progress != NULL && w->rows_total > 0)
    sps_progress_set_fraction (w->progress, (double) w->rows_done / (double) w->rows_total);
  return TRUE;
}

/* Thread slices: measured (X, without `dur` for an unfinished one) and
 * sampled spans (the same, with the `sampleEvent` category token the
 * importer keys on), with their stacks as `sf`/`esf`. */

static void
append_sampled_category (Writer  *w,
                         guint32  category)
{
  gsize len = 0;
  const char *str = sps_string_pool_get (w->strings, category, &len);
  g_autoptr(GString) cat = NULL;

  if (str == NULL)
    len = 0;

  sps_chrome_writer_key (w, "cat");
  if (len > 0 && sps_chrome_has_token (str, len, "sampleEvent"))
    {
      sps_chrome_out_string (w->buf, str, len);
      return;
    }

  cat = g_string_sized_new (len + 16);
  if (len > 0)
    {
      sps_chrome_out_len (cat, str, len);
      g_string_append_c (cat, ',');
    }
  sps_chrome_out_literal (cat, "sampleEvent");
  sps_chrome_out_string (w->buf, cat->str, cat->len);
}

static gboolean
write_thread_slice (Writer  *w,
                    guint32  thread,
                    guint    row,
                    gboolean sampled,
                    GError **error)
{
  const SpsSliceTable *slices = w->slices;
  guint16 flags = slices->flags[row];
  gboolean unfinished = (flags & SPS_SLICE_UNFINISHED) != 0;

  /* A measured E with no B never becomes a row; an error slice on a
   * thread track has no Chrome form. */
  if ((flags & SPS_SLICE_UNMATCHED_END) != 0)
    return TRUE;

  /* An unfinished slice is an X without `dur`: the importer reads it as
   * one that lasts to the trace end, with its stacks on the one event. */
  sps_chrome_writer_begin_event (w, 'X');
  sps_chrome_writer_append_name (w, slices->name[row]);
  if (sampled)
    append_sampled_category (w, slices->category[row]);
  else
    sps_chrome_writer_append_category (w, slices->category[row]);
  sps_chrome_writer_append_thread (w, thread);
  sps_chrome_writer_ts (w, "ts", slices->ts[row]);
  if (!unfinished)
    sps_chrome_writer_ts (w, "dur", slices->dur[row]);
  sps_chrome_writer_append_stack_ref (w, "sf", sps_slice_table_get_callsite (slices, row));
  sps_chrome_writer_append_stack_ref (w, "esf", sps_slice_table_get_end_callsite (slices, row));
  sps_chrome_append_bind_id (w, row);
  sps_chrome_writer_append_args (w, slices->args[row]);
  return sps_chrome_writer_end_event (w, error);
}

/* Async slices: every tree of a lane gets one id, and its begins and ends
 * are written in depth-first order, then stably sorted by time, which is
 * exactly the order in which an importer pairs them again. */

typedef struct
{
  SpsTime  ts;
  guint32  seq;
  guint32  row;
  gboolean is_end;
} AsyncPoint;

static gint
async_point_compare (gconstpointer a,
                     gconstpointer b,
                     gpointer      user_data)
{
  const AsyncPoint *pa = a;
  const AsyncPoint *pb = b;

  if (pa->ts != pb->ts)
    return pa->ts < pb->ts ? -1 : 1;
  if (pa->seq != pb->seq)
    return pa->seq < pb->seq ? -1 : 1;
  return 0;
}

static gboolean
write_async_point (Writer           *w,
                   guint32           process,
                   guint64           id,
                   const AsyncPoint *point,
                   GError          **error)
{
  const SpsSliceTable *slices = w->slices;
  guint row = point->row;

  sps_chrome_writer_begin_id_event (w, point->is_end ? 'e' : 'b', slices->name[row], slices->category[row], id);
  sps_chrome_writer_append_process (w, process);
  sps_chrome_writer_ts (w, "ts", point->is_end ? slices->ts[row] + slices->dur[row] : slices->ts[row]);
  if (!point->is_end)
    sps_chrome_append_bind_id (w, row);
  if (!point->is_end || (slices->flags[row] & SPS_SLICE_UNMATCHED_END) != 0)
    sps_chrome_writer_append_args (w, slices->args[row]);
  return sps_chrome_writer_end_event (w, error);
}

/* A legacy async slice (S/F) whose steps (T, p) cut it into sub-slices.
 * The importer names a sub-slice after the T that starts it, or after the
 * p that ends it, and the remaining one after the S; so T events rebuild
 * the cuts when the first sub-slice bears the S's name, p events when the
 * last one does. A step's args (which hold its "step" name) are the
 * sub-slice's own. */
static void
begin_legacy_event (Writer  *w,
                    char     phase,
                    guint32  process,
                    guint64  id,
                    guint    root,
                    SpsTime  ts)
{
  sps_chrome_writer_begin_id_event (w, phase, w->slices->name[root], w->slices->category[root], id);
  sps_chrome_writer_append_process (w, process);
  sps_chrome_writer_ts (w, "ts", ts);
}

static void
write_legacy_step (Writer  *w,
                   char     phase,
                   guint32  process,
                   guint64  id,
                   guint    root,
                   guint    step,
                   SpsTime  ts)
{
  const SpsSliceTable *slices = w->slices;
  g_autofree char *decoded = NULL;
  const char *json;
  gsize len = 0;

  begin_legacy_event (w, phase, process, id, root, ts);
  json = sps_chrome_writer_args_text (w, slices->args[step], &len, &decoded);
  sps_chrome_writer_key (w, "args");
  if (json != NULL && len > 0)
    {
      sps_chrome_out_value (w->buf, json, len);
    }
  else
    {
      sps_chrome_out_literal (w->buf, "{\"step\":");
      sps_chrome_writer_append_string_id (w, slices->name[step]);
      g_string_append_c (w->buf, '}');
    }
}

/* Steps partition their slice into consecutive intervals: in time order,
 * a zero-length one before the one that starts where it ends. */
static gint
step_compare (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  const SpsSliceTable *slices = user_data;
  guint32 ra = *(const guint32 *) a;
  guint32 rb = *(const guint32 *) b;
  SpsTime end_a = slices->ts[ra] + slices->dur[ra];
  SpsTime end_b = slices->ts[rb] + slices->dur[rb];

  if (slices->ts[ra] != slices->ts[rb])
    return slices->ts[ra] < slices->ts[rb] ? -1 : 1;
  if (end_a != end_b)
    return end_a < end_b ? -1 : 1;
  return ra < rb ? -1 : ra > rb ? 1 : 0;
}

static gboolean
write_legacy_async (Writer         *w,
                    guint32         process,
                    guint32         first,
                    guint32         root,
                    const guint32  *first_child,
                    const guint32  *next_sibling,
                    GError        **error)
{
  const SpsSliceTable *slices = w->slices;
  guint root_row = first + root;
  guint64 id = (guint64) root_row + 1;
  g_autoptr(GArray) steps = g_array_new (FALSE, FALSE, sizeof (guint32));
  gboolean into;

  for (guint32 c = first_child[root]; c != SPS_NO_INDEX; c = next_sibling[c])
    {
      guint32 row = first + c;

      g_array_append_val (steps, row);
    }
  g_array_sort_with_data (steps, step_compare, (gpointer) slices);

  into = slices->name[g_array_index (steps, guint32, 0)] == slices->name[root_row];

  begin_legacy_event (w, 'S', process, id, root_row, slices->ts[root_row]);
  sps_chrome_writer_append_args (w, slices->args[root_row]);
  if (!sps_chrome_writer_end_event (w, error))
    return FALSE;

  for (guint i = 0; i + 1 < steps->len; i++)
    {
      guint32 step = g_array_index (steps, guint32, into ? i + 1 : i);

      if (into)
        write_legacy_step (w, 'T', process, id, root_row, step, slices->ts[step]);
      else
        write_legacy_step (w, 'p', process, id, root_row, step,
                           slices->ts[step] + slices->dur[step]);
      if (!sps_chrome_writer_end_event (w, error))
        return FALSE;
    }

  if ((slices->flags[root_row] & SPS_SLICE_UNFINISHED) != 0)
    return TRUE;

  begin_legacy_event (w, 'F', process, id, root_row, slices->ts[root_row] + slices->dur[root_row]);
  return sps_chrome_writer_end_event (w, error);
}

static gboolean
write_async_track (Writer  *w,
                   guint32  track,
                   GError **error)
{
  const SpsSliceTable *slices = w->slices;
  guint32 first = w->tracks->first_row[track];
  guint32 n = w->tracks->n_rows_in_track[track];
  guint32 process = sps_chrome_writer_track_process (w, track);
  g_autofree guint32 *first_child = NULL;
  g_autofree guint32 *next_sibling = NULL;
  g_autofree guint32 *stack = NULL;
  g_autoptr(GArray) points = NULL;

  if (n == 0)
    return TRUE;

  /* Children lists (local indexes), in row order. */
  first_child = g_new (guint32, n);
  next_sibling = g_new (guint32, n);
  for (guint32 i = 0; i < n; i++)
    first_child[i] = next_sibling[i] = SPS_NO_INDEX;
  for (guint32 i = n; i-- > 0;)
    {
      guint32 parent = slices->parent[first + i];

      if (parent != SPS_NO_INDEX && parent >= first && parent - first < n && parent - first != i)
        {
          next_sibling[i] = first_child[parent - first];
          first_child[parent - first] = i;
        }
    }

  stack = g_new (guint32, n);
  points = g_array_new (FALSE, FALSE, sizeof (AsyncPoint));

  for (guint32 root = 0; root < n; root++)
    {
      guint32 parent = slices->parent[first + root];
      guint32 depth_of_stack = 0;
      guint32 seq = 0;
      guint64 id = (guint64) first + root + 1;

      if (parent != SPS_NO_INDEX && parent >= first && parent - first < n && parent - first != root)
        continue;

      if (first_child[root] != SPS_NO_INDEX &&
          (slices->flags[first + first_child[root]] & SPS_SLICE_STEP) != 0)
        {
          if (!write_legacy_async (w, process, first, root, first_child, next_sibling, error))
            return FALSE;
          continue;
        }

      g_array_set_size (points, 0);

      /* Iterative depth-first walk; a node is pushed when entered (its
       * begin) and popped after its last child (its end). The stack holds
       * local indexes; the next child to visit is found from the sibling
       * links of the node that was just finished. */
      stack[depth_of_stack++] = root;
      while (depth_of_stack > 0)
        {
          guint32 node = stack[depth_of_stack - 1];
          AsyncPoint point = { slices->ts[first + node], seq++, first + node, FALSE };
          guint16 flags = slices->flags[first + node];

          if ((flags & SPS_SLICE_UNMATCHED_END) == 0)
            g_array_append_val (points, point);

          if (first_child[node] != SPS_NO_INDEX)
            {
              stack[depth_of_stack++] = first_child[node];
              continue;
            }

          /* A leaf: close it and every ancestor whose children are done,
           * then move on to the next sibling. */
          for (;;)
            {
              guint32 done = stack[--depth_of_stack];
              guint16 done_flags = slices->flags[first + done];

              if ((done_flags & SPS_SLICE_UNFINISHED) == 0)
                {
                  AsyncPoint end = { slices->ts[first + done] + slices->dur[first + done],
                                     seq++, first + done, TRUE };
                  g_array_append_val (points, end);
                }

              if (depth_of_stack == 0)
                break;
              if (next_sibling[done] != SPS_NO_INDEX)
                {
                  stack[depth_of_stack++] = next_sibling[done];
                  break;
                }
            }
        }

      g_qsort_with_data (points->data, points->len, sizeof (AsyncPoint),
                         async_point_compare, NULL);

      /* An end that closed nothing is written at its place in the tree:
       * the same begins are open there again, so it closes nothing again. */
      for (guint i = 0; i < points->len; i++)
        if (!write_async_point (w, process, id, &g_array_index (points, AsyncPoint, i), error))
          return FALSE;
    }

  return TRUE;
}

static gboolean
write_slices (Writer  *w,
              GError **error)
{
  const SpsTrackTable *tracks = w->tracks;

  for (guint32 track = 0; track < tracks->n_rows; track++)
    {
      guint32 first = tracks->first_row[track];
      guint32 n = tracks->n_rows_in_track[track];

      switch ((SpsTrackKind) tracks->kind[track])
        {
        case SPS_TRACK_THREAD_SLICES:
        case SPS_TRACK_THREAD_SAMPLED_SLICES:
          for (guint32 i = 0; i < n; i++)
            {
              gboolean sampled = tracks->kind[track] == SPS_TRACK_THREAD_SAMPLED_SLICES ||
                                 (w->slices->flags[first + i] & SPS_SLICE_SAMPLED) != 0;

              if (!write_thread_slice (w, sps_chrome_writer_track_thread (w, track), first + i, sampled, error) ||
                  !sps_chrome_writer_advance (w, error))
                return FALSE;
            }
          break;

        case SPS_TRACK_ASYNC:
          if (!write_async_track (w, track, error))
            return FALSE;
          for (guint32 i = 0; i < n; i++)
            if (!sps_chrome_writer_advance (w, error))
              return FALSE;
          break;

        case SPS_TRACK_COUNTER:
        case SPS_TRACK_THREAD_INSTANTS:
        case SPS_TRACK_PROCESS_INSTANTS:
        case SPS_TRACK_GLOBAL_INSTANTS:
        case SPS_TRACK_THREAD_SAMPLES:
        default:
          break;
        }
    }

  return TRUE;
}

/* Instants: i with a scope, R for marks, n for async instants (each under
 * an id of its own, past every id used by async slices). */

static gboolean
write_instants (Writer  *w,
                GError **error)
{
  const SpsInstantTable *instants = sps_trace_get_instants (w->trace);
  const SpsTrackTable *tracks = w->tracks;
  guint64 n_slices = w->slices->n_rows;

  for (guint i = 0; i < instants->n_rows; i++)
    {
      guint32 track = instants->track[i];
      SpsTrackKind kind = track < tracks->n_rows ? (SpsTrackKind) tracks->kind[track]
                                                 : SPS_TRACK_GLOBAL_INSTANTS;
      const char *scope = "g";
      char phase;

      switch ((SpsInstantKind) instants->kind[i])
        {
        case SPS_INSTANT_KIND_MARK:
          phase = 'R';
          break;
        case SPS_INSTANT_KIND_ASYNC:
          phase = 'n';
          break;
        case SPS_INSTANT_KIND_INSTANT:
        default:
          phase = 'i';
          break;
        }

      if (phase == 'n')
        {
          sps_chrome_writer_begin_id_event (w, phase, instants->name[i], instants->category[i], n_slices + 1 + i);
        }
      else
        {
          sps_chrome_writer_begin_event (w, phase);
          sps_chrome_writer_append_name (w, instants->name[i]);
          sps_chrome_writer_append_category (w, instants->category[i]);
        }

      if (kind == SPS_TRACK_THREAD_INSTANTS && sps_chrome_writer_track_thread (w, track) != SPS_NO_INDEX)
        {
          sps_chrome_writer_append_thread (w, sps_chrome_writer_track_thread (w, track));
          scope = "t";
        }
      else if (kind != SPS_TRACK_GLOBAL_INSTANTS && sps_chrome_writer_track_process (w, track) != SPS_NO_INDEX)
        {
          sps_chrome_writer_append_process (w, sps_chrome_writer_track_process (w, track));
          scope = "p";
        }

      sps_chrome_writer_ts (w, "ts", instants->ts[i]);
      if (phase != 'n')
        {
          sps_chrome_writer_key (w, "s");
          sps_chrome_out_string (w->buf, scope, strlen (scope));
        }
      sps_chrome_writer_append_args (w, instants->args[i]);
      if (!sps_chrome_writer_end_event (w, error) || !sps_chrome_writer_advance (w, error))
        return FALSE;
    }

  return TRUE;
}

/* Counters: one C event per value, its series as the only argument. */
static gboolean
write_counters (Writer  *w,
                GError **error)
{
  const SpsCounterTable *counters = sps_trace_get_counters (w->trace);
  const SpsTrackTable *tracks = w->tracks;

  for (guint i = 0; i < counters->n_rows; i++)
    {
      guint32 track = counters->track[i];

      if (track >= tracks->n_rows)
        continue;

      sps_chrome_writer_begin_event (w, 'C');
      sps_chrome_writer_append_name (w, tracks->name[track]);
      sps_chrome_writer_append_process (w, sps_chrome_writer_track_process (w, track));
      sps_chrome_writer_ts (w, "ts", counters->ts[i]);
      sps_chrome_writer_key (w, "args");
      g_string_append_c (w->buf, '{');
      sps_chrome_writer_append_string_id (w, tracks->series[track]);
      g_string_append_c (w->buf, ':');
      sps_chrome_out_double (w->buf, counters->value[i]);
      g_string_append_c (w->buf, '}');
      if (!sps_chrome_writer_end_event (w, error) || !sps_chrome_writer_advance (w, error))
        return FALSE;
    }

  return TRUE;
}

static gboolean
write_trace (Writer  *w,
             GError **error)
{
  const char *display_unit = sps_trace_get_display_time_unit (w->trace);
  g_auto(SpsChromeFlowPlan) plan = { NULL, };

  /* Flows first: those written as v2 put their ids on slice events. */
  sps_chrome_plan_flows (w, &plan);

  sps_chrome_out_literal (w->buf, "{\"traceEvents\":[\n");

  if (!sps_chrome_write_process_metadata (w, error) ||
      !write_slices (w, error) ||
      !write_instants (w, error) ||
      !write_counters (w, error) ||
      !sps_chrome_write_flows (w, &plan, error) ||
      !sps_chrome_write_samples (w, error) ||
      !sps_chrome_write_objects (w, error))
    return FALSE;

  sps_chrome_out_literal (w->buf, "\n]");

  if (display_unit != NULL && display_unit[0] != '\0')
    {
      sps_chrome_out_literal (w->buf, ",\n\"displayTimeUnit\":");
      sps_chrome_out_string (w->buf, display_unit, strlen (display_unit));
    }

  if (!sps_chrome_write_stack_frames (w, error) ||
      !sps_chrome_write_top_level_metadata (w, error))
    return FALSE;

  sps_chrome_out_literal (w->buf, "}\n");

  return sps_chrome_writer_flush (w, error);
}

/* SpsExporter */

static const char *
sps_chrome_exporter_get_name (SpsExporter *exporter)
{
  return "chrome-json";
}

static const char *
sps_chrome_exporter_get_suffix (SpsExporter *exporter)
{
  return ".trace.json";
}

static gboolean
sps_chrome_exporter_write (SpsExporter    *exporter,
                           SpsTrace       *trace,
                           GVariant       *options,
                           GOutputStream  *stream,
                           SpsProgress    *progress,
                           GError        **error)
{
  Writer w = { 0 };
  gboolean ret;

  g_assert (SPS_IS_CHROME_EXPORTER (exporter));
  g_assert (SPS_IS_TRACE (trace));
  g_assert (G_IS_OUTPUT_STREAM (stream));
  g_assert (progress == NULL || SPS_IS_PROGRESS (progress));

  w.trace = trace;
  w.strings = sps_trace_get_strings (trace);
  w.stream = stream;
  w.progress = progress;
  w.cancellable = progress != NULL ? sps_progress_get_cancellable (progress) : NULL;
  w.buf = g_string_sized_new (CHUNK_SIZE + 4096);
  w.first_event = TRUE;
  w.processes = sps_trace_get_processes (trace);
  w.threads = sps_trace_get_threads (trace);
  w.tracks = sps_trace_get_tracks (trace);
  w.slices = sps_trace_get_slices (trace);
  w.rows_total = (guint64) w.slices->n_rows +
                 sps_trace_get_instants (trace)->n_rows +
                 sps_trace_get_counters (trace)->n_rows +
                 sps_trace_get_flows (trace)->n_rows +
                 sps_trace_get_samples (trace)->n_rows +
                 sps_trace_get_objects (trace)->n_rows;

  w.bind_ids = g_hash_table_new (NULL, NULL);

  ret = write_trace (&w, error);
  if (ret && progress != NULL)
    sps_progress_set_fraction (progress, 1.0);

  g_string_free (w.buf, TRUE);
  g_hash_table_unref (w.bind_ids);

  return ret;
}

static void
sps_chrome_exporter_iface_init (SpsExporterInterface *iface)
{
  iface->get_name = sps_chrome_exporter_get_name;
  iface->get_suffix = sps_chrome_exporter_get_suffix;
  iface->write = sps_chrome_exporter_write;
}

static void
sps_chrome_exporter_class_init (SpsChromeExporterClass *klass)
{
}

static void
sps_chrome_exporter_init (SpsChromeExporter *self)
{
}
