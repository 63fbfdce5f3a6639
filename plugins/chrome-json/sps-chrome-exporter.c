/* sps-chrome-exporter.c: writes a trace as Chrome JSON (object form)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The output is written so that importing it again gives the same tables:
 *
 * - M events for process and thread names, sort indexes and labels;
 * - measured slices as X, unfinished ones as B without E; sampled spans
 *   the same way with the category token `sampleEvent`;
 * - async slices as b/e, one id per tree of a lane; legacy ones cut by
 *   steps as S/T/F (or S/p/F);
 * - instants as i with their scope, marks as R, async instants as n;
 * - counter values as C, one per value;
 * - flows as s/f pairs or flow v2 bind ids (see plan_flows());
 * - samples as P whose `sf` indexes a top-level stackFrames dictionary
 *   written from the callsite tree (key = callsite index);
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
#include "sps-chrome-interner.h"

/* The output is produced in a small buffer that is written out whenever it
 * grows past this size, so exporting a multi-gigabyte trace never holds
 * more than one chunk of text in memory. */
#define CHUNK_SIZE (64 * 1024)

/* How many rows are written between two progress updates and
 * cancellation checks. */
#define PROGRESS_STRIDE 65536

struct _SpsChromeExporter
{
  GObject parent_instance;
};

static void sps_chrome_exporter_iface_init (SpsExporterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SpsChromeExporter, sps_chrome_exporter, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SPS_TYPE_EXPORTER,
                                                      sps_chrome_exporter_iface_init))

typedef struct
{
  SpsTrace               *trace;
  SpsStringPool          *strings;
  GOutputStream          *stream;
  GCancellable           *cancellable;
  SpsProgress            *progress;
  GString                *buf;
  gboolean                first_event;

  const SpsProcessTable  *processes;
  const SpsThreadTable   *threads;
  const SpsTrackTable    *tracks;
  const SpsSliceTable    *slices;

  /* slice + 1 → (flow << 1) | is_start, for arrows written as flow v2 */
  GHashTable             *bind_ids;

  guint64                 rows_total;
  guint64                 rows_done;
} Writer;

/* Text helpers. GString's own append goes through g_string_insert_len();
 * the exporter appends many short pieces, so it copies in place when
 * they fit, as g_string_append_c() does. */

static inline void
out_append_len (GString    *out,
                const char *text,
                gsize       len)
{
  if G_LIKELY (out->len + len < out->allocated_len)
    {
      memcpy (out->str + out->len, text, len);
      out->len += len;
      out->str[out->len] = '\0';
    }
  else
    {
      g_string_append_len (out, text, len);
    }
}

#define out_append_literal(out, literal) out_append_len ((out), "" literal "", sizeof (literal) - 1)


static void
append_uint64 (GString *out,
               guint64  value)
{
  char digits[24];
  guint pos = sizeof digits;

  do
    {
      digits[--pos] = (char) ('0' + value % 10);
      value /= 10;
    }
  while (value != 0);

  out_append_len (out, digits + pos, sizeof digits - pos);
}

static void
append_int64 (GString *out,
              gint64   value)
{
  if (value < 0)
    {
      g_string_append_c (out, '-');
      /* Negate in unsigned arithmetic: -G_MININT64 does not fit a gint64. */
      append_uint64 (out, (guint64) 0 - (guint64) value);
    }
  else
    {
      append_uint64 (out, (guint64) value);
    }
}

/* Writes @ns nanoseconds as microseconds in exact decimal: the integer
 * part, then up to three digits of fraction without trailing zeros. No
 * floating point is involved, so every nanosecond survives a round trip
 * whatever the magnitude of the timestamp. */
static void
append_time_us (GString *out,
                SpsTime  ns)
{
  guint64 magnitude;
  guint frac;

  if (ns < 0)
    {
      g_string_append_c (out, '-');
      magnitude = (guint64) 0 - (guint64) ns;
    }
  else
    {
      magnitude = (guint64) ns;
    }

  append_uint64 (out, magnitude / 1000);
  frac = (guint) (magnitude % 1000);
  if (frac != 0)
    {
      g_string_append_c (out, '.');
      g_string_append_c (out, (char) ('0' + frac / 100));
      frac %= 100;
      if (frac != 0)
        {
          g_string_append_c (out, (char) ('0' + frac / 10));
          frac %= 10;
          if (frac != 0)
            g_string_append_c (out, (char) ('0' + frac));
        }
    }
}

/* JSON has no NaN or infinity. An infinity is written as a literal that
 * every parser reads back as an infinity; NaN has no number form. */
static void
append_double (GString *out,
               double   value)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  if (isnan (value))
    {
      out_append_literal (out, "null");
      return;
    }
  if (isinf (value))
    {
      g_string_append (out, value < 0 ? "-1e999" : "1e999");
      return;
    }
  if (value == floor (value) && fabs (value) < 1e15)
    {
      append_int64 (out, (gint64) value);
      return;
    }

  /* The shortest of %.15g and %.17g that reads back as the same double. */
  g_ascii_formatd (text, sizeof text, "%.15g", value);
  if (g_ascii_strtod (text, NULL) != value)
    g_ascii_formatd (text, sizeof text, "%.17g", value);
  g_string_append (out, text);
}

static void
append_escaped_char (GString *out,
                     guchar   c)
{
  /* The characters with a short escape, and the letter of each */
  static const char shorts[] = "\"\\\n\r\t\b\f";
  static const char letters[] = "\"\\nrtbf";
  static const char hex[] = "0123456789abcdef";
  const char *hit = c != '\0' ? strchr (shorts, c) : NULL;

  if (hit != NULL)
    {
      g_string_append_c (out, '\\');
      g_string_append_c (out, letters[hit - shorts]);
    }
  else
    {
      out_append_literal (out, "\\u00");
      g_string_append_c (out, hex[c >> 4]);
      g_string_append_c (out, hex[c & 0xf]);
    }
}

/* Appends @str (@len bytes, may hold NULs) as a JSON string literal.
 * Invalid UTF-8 is replaced by U+FFFD so the output is always valid JSON. */
static void
append_json_string (GString    *out,
                    const char *str,
                    gsize       len)
{
  const char *end = str + len;
  const char *run = str;
  const char *p = str;

  g_string_append_c (out, '"');

  while (p < end)
    {
      guchar c = (guchar) *p;

      if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\')
        {
          p++;
          continue;
        }

      if (c >= 0x80)
        {
          gunichar ch = g_utf8_get_char_validated (p, end - p);

          if (ch != (gunichar) -1 && ch != (gunichar) -2)
            {
              p = g_utf8_next_char (p);
              continue;
            }

          out_append_len (out, run, p - run);
          out_append_literal (out, "\xef\xbf\xbd");
          p++;
          run = p;
          continue;
        }

      out_append_len (out, run, p - run);
      append_escaped_char (out, c);
      p++;
      run = p;
    }

  out_append_len (out, run, p - run);
  g_string_append_c (out, '"');
}

static gboolean
is_json_space (char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static gboolean
is_digit (char c)
{
  return c >= '0' && c <= '9';
}

/* Copies the text of a JSON value as the importer accepted it, made
 * strictly valid on the way. The importer's scanner checks the structure
 * but, like the producers it reads, lets through trailing commas, numbers
 * with leading zeros, raw control characters, unknown escapes and invalid
 * UTF-8 inside strings; stricter readers refuse all of them. Valid text
 * is copied unchanged, in runs. */
static void
append_json_value (GString    *out,
                   const char *text,
                   gsize       len)
{
  const char *end = text + len;
  const char *run = text;
  const char *p = text;

  while (p < end)
    {
      char c;

      /* Outside strings only quotes, commas and numbers matter. */
      while (p < end && (c = *p) != '"' && c != ',' && c != '-' && !is_digit (c))
        p++;
      if (p >= end)
        break;

      if (c == ',')
        {
          const char *next = p + 1;

          while (next < end && is_json_space (*next))
            next++;
          if (next < end && (*next == '}' || *next == ']'))
            {
              out_append_len (out, run, p - run);
              run = p + 1;
            }
          p++;
          continue;
        }

      if (c != '"')
        {
          const char *digits = c == '-' ? p + 1 : p;

          if (digits + 1 < end && digits[0] == '0' && is_digit (digits[1]))
            {
              const char *first = digits;

              while (first + 1 < end && first[0] == '0' && is_digit (first[1]))
                first++;
              out_append_len (out, run, digits - run);
              run = first;
            }
          p = digits;
          while (p < end && (is_digit (*p) || *p == '.' || *p == 'e' || *p == 'E' ||
                             *p == '+' || *p == '-'))
            p++;
          continue;
        }

      /* A string */
      p++;
      while (p < end)
        {
          guchar b = (guchar) *p;

          if (b >= 0x20 && b < 0x80 && b != '"' && b != '\\')
            {
              p++;
              continue;
            }
          if (b == '"')
            {
              p++;
              break;
            }

          if (b == '\\')
            {
              if (p + 1 < end && p[1] != '\0' && strchr ("\"\\/bfnrt", p[1]) != NULL)
                {
                  p += 2;
                  continue;
                }
              if (p + 5 < end && p[1] == 'u' && g_ascii_isxdigit (p[2]) &&
                  g_ascii_isxdigit (p[3]) && g_ascii_isxdigit (p[4]) && g_ascii_isxdigit (p[5]))
                {
                  p += 6;
                  continue;
                }
              /* An unknown escape keeps its backslash as a character. */
              out_append_len (out, run, p - run);
              out_append_literal (out, "\\\\");
            }
          else if (b < 0x20)
            {
              out_append_len (out, run, p - run);
              append_escaped_char (out, b);
            }
          else
            {
              gunichar ch = g_utf8_get_char_validated (p, end - p);

              if (ch != (gunichar) -1 && ch != (gunichar) -2)
                {
                  p = g_utf8_next_char (p);
                  continue;
                }
              out_append_len (out, run, p - run);
              out_append_literal (out, "\xef\xbf\xbd");
            }
          p++;
          run = p;
        }
    }

  out_append_len (out, run, end - run);
}

static void
append_string_id (Writer  *w,
                  guint32  id)
{
  gsize len = 0;
  const char *str = sps_string_pool_get (w->strings, id, &len);

  if (str == NULL)
    {
      str = "";
      len = 0;
    }
  append_json_string (w->buf, str, len);
}

static gboolean
string_id_is_empty (Writer  *w,
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

static void
begin_event (Writer *w,
             char    phase)
{
  if (!w->first_event)
    out_append_literal (w->buf, ",\n");
  w->first_event = FALSE;
  out_append_literal (w->buf, "{\"ph\":\"");
  g_string_append_c (w->buf, phase);
  g_string_append_c (w->buf, '"');
}

/* `,"KEY":` for a literal KEY */
#define append_key(w, key) out_append_literal ((w)->buf, ",\"" key "\":")

static void
append_name (Writer  *w,
             guint32  name)
{
  append_key (w, "name");
  append_string_id (w, name);
}

static void
append_category (Writer  *w,
                 guint32  category)
{
  if (string_id_is_empty (w, category))
    return;
  append_key (w, "cat");
  append_string_id (w, category);
}

#define append_ts(w, key, ns) \
  G_STMT_START { append_key ((w), key); append_time_us ((w)->buf, (ns)); } G_STMT_END

#define append_int_field(w, key, value) \
  G_STMT_START { append_key ((w), key); append_int64 ((w)->buf, (value)); } G_STMT_END

static void
append_process (Writer  *w,
                guint32  process)
{
  if (process >= w->processes->n_rows)
    return;
  append_int_field (w, "pid", w->processes->pid[process]);
}

static void
append_thread (Writer  *w,
               guint32  thread)
{
  if (thread >= w->threads->n_rows)
    return;
  append_process (w, w->threads->process[thread]);
  append_int_field (w, "tid", w->threads->tid[thread]);
}

/* The process a track belongs to, directly or through its thread. */
static guint32
track_process (Writer  *w,
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

static guint32
track_thread (Writer  *w,
              guint32  track)
{
  if (track >= w->tracks->n_rows)
    return SPS_NO_INDEX;
  return w->tracks->thread[track];
}

static void
append_args (Writer     *w,
             SpsArgsRef  ref)
{
  const char *json;
  gsize len = 0;

  if (ref == SPS_ARGS_REF_NONE)
    return;
  json = sps_trace_get_args_json (w->trace, ref, &len);
  if (json == NULL || len == 0)
    return;
  append_key (w, "args");
  append_json_value (w->buf, json, len);
}

/* Opens an event of a flow or async tree: its category is part of the
 * tree's identity, so it is written even when empty. */
static void
begin_id_event (Writer  *w,
                char     phase,
                guint32  name,
                guint32  category,
                guint64  id)
{
  begin_event (w, phase);
  append_name (w, name);
  append_key (w, "cat");
  append_string_id (w, category);
  append_key (w, "id");
  append_uint64 (w->buf, id);
}

static gboolean
flush (Writer  *w,
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
static gboolean
end_event (Writer  *w,
           GError **error)
{
  g_string_append_c (w->buf, '}');
  if (w->buf->len >= CHUNK_SIZE)
    return flush (w, error);
  return TRUE;
}

static gboolean
advance (Writer  *w,
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
  begin_event (w, 'M');
  append_key (w, "name");
  append_json_string (w->buf, name, strlen (name));
  if (thread != SPS_NO_INDEX)
    append_thread (w, thread);
  else
    append_process (w, process);
  append_key (w, "args");
  g_string_append_c (w->buf, '{');
  append_json_string (w->buf, arg, strlen (arg));
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
  append_string_id (w, value);
  g_string_append_c (w->buf, '}');
  return end_event (w, error);
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
  append_int64 (w->buf, value);
  g_string_append_c (w->buf, '}');
  return end_event (w, error);
}

static gboolean
write_process_metadata (Writer  *w,
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
      guint32 process = track_process (w, t);

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

/* Flows. Each arrow becomes a flow of its own (its own id), written one of
 * two ways so that an importer binds it to the same two slices again:
 *
 * - an s/f pair with `bp: "e"`, both bound to the deepest slice of their
 *   thread that encloses their time. The times are chosen where the from-
 *   and to-slices are that deepest slice (in their self time), the end no
 *   earlier than the start, by asking the trace's own tables the question
 *   the importer will ask;
 * - when no such times exist (a slice covered by its children, an end that
 *   precedes the start, a sampled or async slice, which thread binding
 *   never reaches), flow v2: `bind_id` with `flow_out`/`flow_in` on the two
 *   slice events themselves. A slice event carries one bind_id, so this
 *   serves one arrow per slice.
 *
 * What neither form can hold is written as an s/f pair at the two slices'
 * start times, the best approximation. */

typedef enum
{
  FLOW_SKIP,
  FLOW_POINTS,
  FLOW_BIND_ID,
} FlowForm;

typedef struct
{
  guint8  *form;         /* FlowForm */
  SpsTime *start_ts;
  SpsTime *end_ts;
} FlowPlan;

static SpsTrackKind
slice_track_kind (Writer  *w,
                  guint32  slice,
                  guint32 *track)
{
  *track = w->slices->track[slice];
  if (*track >= w->tracks->n_rows)
    return SPS_TRACK_GLOBAL_INSTANTS;
  return (SpsTrackKind) w->tracks->kind[*track];
}

/* The deepest slice of @track whose closed interval holds @ts: the last
 * one starting at or before @ts, or its nearest ancestor still covering
 * it (how finish() binds a flow point with `bp: "e"`). */
static guint32
find_enclosing (Writer  *w,
                guint32  track,
                SpsTime  ts)
{
  const SpsSliceTable *slices = w->slices;
  guint32 first = w->tracks->first_row[track];
  guint32 lo = first;
  guint32 hi = first + w->tracks->n_rows_in_track[track];

  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;

      if (slices->ts[mid] <= ts)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == first)
    return SPS_NO_INDEX;

  for (guint32 row = lo - 1; row != SPS_NO_INDEX; row = slices->parent[row])
    if (slices->ts[row] + slices->dur[row] >= ts)
      return row;

  return SPS_NO_INDEX;
}

/* The earliest time at or after @not_before at which @slice is the slice
 * find_enclosing() answers, looked for by stepping past the child that
 * covers each candidate. Gives up after a bounded number of children. */
static gboolean
find_binding_time (Writer  *w,
                   guint32  slice,
                   SpsTime  not_before,
                   SpsTime *out)
{
  const SpsSliceTable *slices = w->slices;
  guint32 track = slices->track[slice];
  SpsTime end = slices->ts[slice] + slices->dur[slice];
  SpsTime candidate = MAX (slices->ts[slice], not_before);

  for (guint tries = 0; tries < 64 && candidate <= end; tries++)
    {
      guint32 hit = find_enclosing (w, track, candidate);
      guint32 child = hit;

      if (hit == slice)
        {
          *out = candidate;
          return TRUE;
        }
      if (hit == SPS_NO_INDEX || slices->depth[hit] <= slices->depth[slice])
        return FALSE;

      while (child != SPS_NO_INDEX && slices->parent[child] != slice)
        child = slices->parent[child];
      if (child == SPS_NO_INDEX || slices->ts[child] + slices->dur[child] >= end)
        return FALSE;
      candidate = slices->ts[child] + slices->dur[child] + 1;
    }

  return FALSE;
}

/* Whether @slice is written as one event (X, B or b) that can carry a
 * bind_id no other arrow has taken. */
static gboolean
can_bind_id (Writer  *w,
             guint32  slice)
{
  const SpsSliceTable *slices = w->slices;
  guint32 track;

  if ((slices->flags[slice] & (SPS_SLICE_STEP | SPS_SLICE_UNMATCHED_END)) != 0)
    return FALSE;
  if (g_hash_table_contains (w->bind_ids, GUINT_TO_POINTER (slice + 1)))
    return FALSE;

  switch (slice_track_kind (w, slice, &track))
    {
    case SPS_TRACK_THREAD_SLICES:
    case SPS_TRACK_THREAD_SAMPLED_SLICES:
      return TRUE;
    case SPS_TRACK_ASYNC:
      /* A legacy slice is written as S/T/F, not as one b. */
      return !(slice + 1 < slices->n_rows && slices->parent[slice + 1] == slice &&
               (slices->flags[slice + 1] & SPS_SLICE_STEP) != 0);
    case SPS_TRACK_COUNTER:
    case SPS_TRACK_THREAD_INSTANTS:
    case SPS_TRACK_PROCESS_INSTANTS:
    case SPS_TRACK_GLOBAL_INSTANTS:
    case SPS_TRACK_THREAD_SAMPLES:
    default:
      return FALSE;
    }
}

static gboolean
slice_thread (Writer  *w,
              guint32  slice,
              guint32 *thread)
{
  guint32 track;
  SpsTrackKind kind = slice_track_kind (w, slice, &track);

  if (kind != SPS_TRACK_THREAD_SLICES && kind != SPS_TRACK_THREAD_SAMPLED_SLICES)
    return FALSE;
  *thread = w->tracks->thread[track];
  return *thread != SPS_NO_INDEX;
}

static void
plan_flows (Writer   *w,
            FlowPlan *plan)
{
  const SpsFlowTable *flows = sps_trace_get_flows (w->trace);
  const SpsSliceTable *slices = w->slices;
  guint n_approximate = 0;
  guint n_skipped = 0;

  plan->form = g_new0 (guint8, MAX (flows->n_rows, 1));
  plan->start_ts = g_new0 (SpsTime, MAX (flows->n_rows, 1));
  plan->end_ts = g_new0 (SpsTime, MAX (flows->n_rows, 1));

  for (guint i = 0; i < flows->n_rows; i++)
    {
      guint32 from = flows->from_slice[i];
      guint32 to = flows->to_slice[i];
      guint32 from_track;
      guint32 to_track;
      guint32 from_thread;
      guint32 to_thread;
      gboolean in_order;

      if (from >= slices->n_rows || to >= slices->n_rows)
        {
          plan->form[i] = FLOW_SKIP;
          n_skipped++;
          continue;
        }

      if (slice_track_kind (w, from, &from_track) == SPS_TRACK_THREAD_SLICES &&
          slice_track_kind (w, to, &to_track) == SPS_TRACK_THREAD_SLICES &&
          find_binding_time (w, from, SPS_TIME_MIN, &plan->start_ts[i]) &&
          find_binding_time (w, to, plan->start_ts[i], &plan->end_ts[i]))
        {
          plan->form[i] = FLOW_POINTS;
          continue;
        }

      /* The importer orders a flow's points by time, ties in file order;
       * thread slices are written in slice order, async ones are not. */
      in_order = slices->ts[from] < slices->ts[to] ||
                 (slices->ts[from] == slices->ts[to] && from < to &&
                  slice_track_kind (w, from, &from_track) != SPS_TRACK_ASYNC &&
                  slice_track_kind (w, to, &to_track) != SPS_TRACK_ASYNC);
      if (from != to && in_order && can_bind_id (w, from) && can_bind_id (w, to))
        {
          plan->form[i] = FLOW_BIND_ID;
          g_hash_table_insert (w->bind_ids, GUINT_TO_POINTER (from + 1),
                               GSIZE_TO_POINTER (((gsize) i << 1) | 1));
          g_hash_table_insert (w->bind_ids, GUINT_TO_POINTER (to + 1),
                               GSIZE_TO_POINTER ((gsize) i << 1));
          continue;
        }

      if (slice_thread (w, from, &from_thread) && slice_thread (w, to, &to_thread))
        {
          plan->form[i] = FLOW_POINTS;
          plan->start_ts[i] = slices->ts[from];
          plan->end_ts[i] = MAX (slices->ts[to], slices->ts[from]);
          n_approximate++;
          continue;
        }

      plan->form[i] = FLOW_SKIP;
      n_skipped++;
    }

  if (n_approximate > 0 || n_skipped > 0)
    g_debug ("%u flows written at approximate times, %u not written", n_approximate, n_skipped);
}

static void
flow_plan_clear (FlowPlan *plan)
{
  g_clear_pointer (&plan->form, g_free);
  g_clear_pointer (&plan->start_ts, g_free);
  g_clear_pointer (&plan->end_ts, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (FlowPlan, flow_plan_clear)

/* `bind_id` and direction on the event of a slice that ends or starts an
 * arrow written as flow v2. */
static void
append_bind_id (Writer  *w,
                guint32  slice)
{
  gpointer value;
  gsize packed;

  if (g_hash_table_size (w->bind_ids) == 0 ||
      !g_hash_table_lookup_extended (w->bind_ids, GUINT_TO_POINTER (slice + 1), NULL, &value))
    return;

  packed = GPOINTER_TO_SIZE (value);
  append_key (w, "bind_id");
  append_uint64 (w->buf, (guint64) (packed >> 1) + 1);
  g_string_append (w->buf, (packed & 1) != 0 ? ",\"flow_out\":true" : ",\"flow_in\":true");
}

static void
write_flow_point (Writer  *w,
                  char     phase,
                  guint64  id,
                  guint32  name,
                  guint32  category,
                  guint32  thread,
                  SpsTime  ts)
{
  begin_id_event (w, phase, name, category, id);
  append_thread (w, thread);
  append_ts (w, "ts", ts);
  out_append_literal (w->buf, ",\"bp\":\"e\"");
}

static gboolean
write_flows (Writer          *w,
             const FlowPlan  *plan,
             GError         **error)
{
  const SpsFlowTable *flows = sps_trace_get_flows (w->trace);

  for (guint i = 0; i < flows->n_rows; i++)
    {
      guint32 from_thread;
      guint32 to_thread;

      if (plan->form[i] == FLOW_POINTS &&
          slice_thread (w, flows->from_slice[i], &from_thread) &&
          slice_thread (w, flows->to_slice[i], &to_thread))
        {
          write_flow_point (w, 's', (guint64) i + 1, flows->name[i], flows->category[i],
                            from_thread, plan->start_ts[i]);
          if (!end_event (w, error))
            return FALSE;
          write_flow_point (w, 'f', (guint64) i + 1, flows->name[i], flows->category[i],
                            to_thread, plan->end_ts[i]);
          if (!end_event (w, error))
            return FALSE;
        }

      if (!advance (w, error))
        return FALSE;
    }

  return TRUE;
}

/* Thread slices: measured (X, or B for an unfinished one) and sampled spans
 * (the same, with the `sampleEvent` category token the importer keys on). */

static void
append_sampled_category (Writer  *w,
                         guint32  category)
{
  gsize len = 0;
  const char *str = sps_string_pool_get (w->strings, category, &len);
  g_autoptr(GString) cat = NULL;

  if (str == NULL)
    len = 0;

  append_key (w, "cat");
  if (len > 0 && sps_chrome_has_token (str, len, "sampleEvent"))
    {
      append_json_string (w->buf, str, len);
      return;
    }

  cat = g_string_sized_new (len + 16);
  if (len > 0)
    {
      out_append_len (cat, str, len);
      g_string_append_c (cat, ',');
    }
  out_append_literal (cat, "sampleEvent");
  append_json_string (w->buf, cat->str, cat->len);
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

  begin_event (w, unfinished ? 'B' : 'X');
  append_name (w, slices->name[row]);
  if (sampled)
    append_sampled_category (w, slices->category[row]);
  else
    append_category (w, slices->category[row]);
  append_thread (w, thread);
  append_ts (w, "ts", slices->ts[row]);
  if (!unfinished)
    append_ts (w, "dur", slices->dur[row]);
  append_bind_id (w, row);
  append_args (w, slices->args[row]);
  return end_event (w, error);
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

  begin_id_event (w, point->is_end ? 'e' : 'b', slices->name[row], slices->category[row], id);
  append_process (w, process);
  append_ts (w, "ts", point->is_end ? slices->ts[row] + slices->dur[row] : slices->ts[row]);
  if (!point->is_end)
    append_bind_id (w, row);
  if (!point->is_end || (slices->flags[row] & SPS_SLICE_UNMATCHED_END) != 0)
    append_args (w, slices->args[row]);
  return end_event (w, error);
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
  begin_id_event (w, phase, w->slices->name[root], w->slices->category[root], id);
  append_process (w, process);
  append_ts (w, "ts", ts);
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
  const char *json = NULL;
  gsize len = 0;

  begin_legacy_event (w, phase, process, id, root, ts);
  if (slices->args[step] != SPS_ARGS_REF_NONE)
    json = sps_trace_get_args_json (w->trace, slices->args[step], &len);
  append_key (w, "args");
  if (json != NULL && len > 0)
    {
      append_json_value (w->buf, json, len);
    }
  else
    {
      out_append_literal (w->buf, "{\"step\":");
      append_string_id (w, slices->name[step]);
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
  append_args (w, slices->args[root_row]);
  if (!end_event (w, error))
    return FALSE;

  for (guint i = 0; i + 1 < steps->len; i++)
    {
      guint32 step = g_array_index (steps, guint32, into ? i + 1 : i);

      if (into)
        write_legacy_step (w, 'T', process, id, root_row, step, slices->ts[step]);
      else
        write_legacy_step (w, 'p', process, id, root_row, step,
                           slices->ts[step] + slices->dur[step]);
      if (!end_event (w, error))
        return FALSE;
    }

  if ((slices->flags[root_row] & SPS_SLICE_UNFINISHED) != 0)
    return TRUE;

  begin_legacy_event (w, 'F', process, id, root_row, slices->ts[root_row] + slices->dur[root_row]);
  return end_event (w, error);
}

static gboolean
write_async_track (Writer  *w,
                   guint32  track,
                   GError **error)
{
  const SpsSliceTable *slices = w->slices;
  guint32 first = w->tracks->first_row[track];
  guint32 n = w->tracks->n_rows_in_track[track];
  guint32 process = track_process (w, track);
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

              if (!write_thread_slice (w, track_thread (w, track), first + i, sampled, error) ||
                  !advance (w, error))
                return FALSE;
            }
          break;

        case SPS_TRACK_ASYNC:
          if (!write_async_track (w, track, error))
            return FALSE;
          for (guint32 i = 0; i < n; i++)
            if (!advance (w, error))
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
          begin_id_event (w, phase, instants->name[i], instants->category[i], n_slices + 1 + i);
        }
      else
        {
          begin_event (w, phase);
          append_name (w, instants->name[i]);
          append_category (w, instants->category[i]);
        }

      if (kind == SPS_TRACK_THREAD_INSTANTS && track_thread (w, track) != SPS_NO_INDEX)
        {
          append_thread (w, track_thread (w, track));
          scope = "t";
        }
      else if (kind != SPS_TRACK_GLOBAL_INSTANTS && track_process (w, track) != SPS_NO_INDEX)
        {
          append_process (w, track_process (w, track));
          scope = "p";
        }

      append_ts (w, "ts", instants->ts[i]);
      if (phase != 'n')
        {
          append_key (w, "s");
          append_json_string (w->buf, scope, strlen (scope));
        }
      append_args (w, instants->args[i]);
      if (!end_event (w, error) || !advance (w, error))
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

      begin_event (w, 'C');
      append_name (w, tracks->name[track]);
      append_process (w, track_process (w, track));
      append_ts (w, "ts", counters->ts[i]);
      append_key (w, "args");
      g_string_append_c (w->buf, '{');
      append_string_id (w, tracks->series[track]);
      g_string_append_c (w->buf, ':');
      append_double (w->buf, counters->value[i]);
      g_string_append_c (w->buf, '}');
      if (!end_event (w, error) || !advance (w, error))
        return FALSE;
    }

  return TRUE;
}

/* Samples: P events whose `sf` is a callsite index, the key of the
 * top-level stackFrames dictionary written from the callsite tree. */

static const char *
weight_unit_name (SpsWeightUnit unit)
{
  switch (unit)
    {
    case SPS_WEIGHT_UNIT_NS:
      return "ns";
    case SPS_WEIGHT_UNIT_US:
      return "us";
    case SPS_WEIGHT_UNIT_MS:
      return "ms";
    case SPS_WEIGHT_UNIT_S:
      return "s";
    case SPS_WEIGHT_UNIT_NONE:
    default:
      return NULL;
    }
}

/* An unresolved stack keeps its raw `sf`, which again names no frame: the
 * stackFrames written here only have decimal keys, so a decimal raw
 * reference, which could name one of them, is written as null instead
 * (a reference that is not text: unresolved too). */
static void
append_unresolved_stack (Writer  *w,
                         guint32  raw)
{
  gsize len = 0;
  const char *str = raw != 0 ? sps_string_pool_get (w->strings, raw, &len) : NULL;
  gboolean decimal = TRUE;

  for (gsize i = 0; str != NULL && i < len; i++)
    decimal &= is_digit (str[i]) || (i == 0 && str[i] == '-');

  append_key (w, "sf");
  if (str == NULL || len == 0 || decimal)
    out_append_literal (w->buf, "null");
  else
    append_json_string (w->buf, str, len);
}

static gboolean
write_samples (Writer  *w,
               GError **error)
{
  const SpsSampleTable *samples = sps_trace_get_samples (w->trace);
  const SpsCallsiteTable *callsites = sps_trace_get_callsites (w->trace);

  for (guint i = 0; i < samples->n_rows; i++)
    {
      guint8 flags = samples->flags[i];
      guint32 thread = samples->thread[i];
      const char *unit;

      if (thread == SPS_NO_INDEX)
        thread = track_thread (w, samples->track[i]);

      begin_event (w, 'P');
      append_name (w, samples->event_name[i]);
      append_thread (w, thread);
      append_ts (w, "ts", samples->ts[i]);
      if ((flags & SPS_SAMPLE_UNRESOLVED) != 0)
        {
          append_unresolved_stack (w, samples->raw_stack_ref[i]);
        }
      else if (samples->callsite[i] < callsites->n_rows)
        {
          append_key (w, "sf");
          g_string_append_c (w->buf, '"');
          append_uint64 (w->buf, samples->callsite[i]);
          g_string_append_c (w->buf, '"');
        }
      if ((flags & SPS_SAMPLE_HAS_WEIGHT) != 0 && !isnan (samples->weight[i]))
        {
          append_key (w, "weight");
          append_double (w->buf, samples->weight[i]);
          unit = weight_unit_name ((SpsWeightUnit) samples->weight_unit[i]);
          if (unit != NULL)
            {
              append_key (w, "weightUnit");
              append_json_string (w->buf, unit, strlen (unit));
            }
        }
      if (!end_event (w, error) || !advance (w, error))
        return FALSE;
    }

  return TRUE;
}

static gboolean
write_stack_frames (Writer  *w,
                    GError **error)
{
  const SpsCallsiteTable *callsites = sps_trace_get_callsites (w->trace);
  const SpsFrameTable *frames = sps_trace_get_frames (w->trace);

  out_append_literal (w->buf, ",\n\"stackFrames\":{");
  for (guint i = 0; i < callsites->n_rows; i++)
    {
      guint32 frame = callsites->frame[i];

      if (i > 0)
        out_append_literal (w->buf, ",\n");
      g_string_append_c (w->buf, '"');
      append_uint64 (w->buf, i);
      out_append_literal (w->buf, "\":{\"name\":");
      if (frame < frames->n_rows)
        append_string_id (w, frames->name[frame]);
      else
        out_append_literal (w->buf, "\"\"");
      if (frame < frames->n_rows && !string_id_is_empty (w, frames->category[frame]))
        {
          out_append_literal (w->buf, ",\"category\":");
          append_string_id (w, frames->category[frame]);
        }
      if (callsites->parent[i] != SPS_NO_INDEX)
        {
          out_append_literal (w->buf, ",\"parent\":\"");
          append_uint64 (w->buf, callsites->parent[i]);
          g_string_append_c (w->buf, '"');
        }
      g_string_append_c (w->buf, '}');
      if (w->buf->len >= CHUNK_SIZE && !flush (w, error))
        return FALSE;
    }
  g_string_append_c (w->buf, '}');

  return TRUE;
}

/* Objects: N, O and D under their key, written as a hex string id. */
static gboolean
write_objects (Writer  *w,
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

      begin_event (w, phase);
      append_name (w, objects->name[i]);
      append_key (w, "id");
      g_string_append_printf (w->buf, "\"0x%" G_GINT64_MODIFIER "x\"", objects->key[i]);
      append_process (w, objects->process[i]);
      append_ts (w, "ts", objects->ts[i]);
      append_args (w, objects->args[i]);
      if (!end_event (w, error) || !advance (w, error))
        return FALSE;
    }

  return TRUE;
}

/* Top-level keys other than the ones this exporter writes itself, copied
 * verbatim (otherData, metadata, TraceConfig…). A systemTraceEvents
 * array was read as events; one that is text (ftrace output) is kept
 * here, as it is not imported. */
static gboolean
write_top_level_metadata (Writer  *w,
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
      const char *json;
      gsize len = 0;
      gboolean skip = FALSE;

      if (key == NULL || value == SPS_ARGS_REF_NONE)
        continue;
      for (guint r = 0; r < G_N_ELEMENTS (reserved); r++)
        skip |= strcmp (key, reserved[r]) == 0;
      if (skip || !g_hash_table_add (seen, (gpointer) key))
        continue;
      json = sps_trace_get_args_json (w->trace, value, &len);
      if (json == NULL || len == 0)
        continue;

      out_append_literal (w->buf, ",\n");
      append_json_string (w->buf, key, strlen (key));
      g_string_append_c (w->buf, ':');
      append_json_value (w->buf, json, len);
      if (w->buf->len >= CHUNK_SIZE && !flush (w, error))
        return FALSE;
    }

  return TRUE;
}

static gboolean
write_trace (Writer  *w,
             GError **error)
{
  const char *display_unit = sps_trace_get_display_time_unit (w->trace);
  g_auto(FlowPlan) plan = { NULL, };

  /* Flows first: those written as v2 put their ids on slice events. */
  plan_flows (w, &plan);

  out_append_literal (w->buf, "{\"traceEvents\":[\n");

  if (!write_process_metadata (w, error) ||
      !write_slices (w, error) ||
      !write_instants (w, error) ||
      !write_counters (w, error) ||
      !write_flows (w, &plan, error) ||
      !write_samples (w, error) ||
      !write_objects (w, error))
    return FALSE;

  out_append_literal (w->buf, "\n]");

  if (display_unit != NULL && display_unit[0] != '\0')
    {
      out_append_literal (w->buf, ",\n\"displayTimeUnit\":");
      append_json_string (w->buf, display_unit, strlen (display_unit));
    }

  if (!write_stack_frames (w, error) ||
      !write_top_level_metadata (w, error))
    return FALSE;

  out_append_literal (w->buf, "}\n");

  return flush (w, error);
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
