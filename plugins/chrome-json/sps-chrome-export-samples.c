/* sps-chrome-export-samples.c: samples and stack frames of the Chrome JSON exporter
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-chrome-exporter"

#include "config.h"

#include <math.h>
#include <string.h>

#include "sps-chrome-exporter-private.h"

/* Samples: those of V8 CPU profiles as profiles again (see
 * write_profiles()), the others as P events whose `sf` is a callsite
 * index, the key of the top-level stackFrames dictionary written from the
 * callsite tree. */

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
    decimal &= g_ascii_isdigit (str[i]) || (i == 0 && str[i] == '-');

  sps_chrome_writer_key (w, "sf");
  if (str == NULL || len == 0 || decimal)
    sps_chrome_out_literal (w->buf, "null");
  else
    sps_chrome_out_string (w->buf, str, len);
}

/* A frame's source location in V8's terms: `url`, and `lineNumber` and
 * `columnNumber` 0-based (-1 unknown), which the importer reads back 1-based
 * in frames and in stackFrames entries alike. @always writes the unknown
 * ones too, as a V8 call frame has them. */
static void
append_location (Writer   *w,
                 guint32   frame,
                 gboolean  always)
{
  const SpsFrameTable *frames = sps_trace_get_frames (w->trace);
  guint32 line = frames->source_line[frame];
  guint32 column = frames->source_column[frame];

  if (always || !sps_chrome_writer_string_id_is_empty (w, frames->source_file[frame]))
    {
      sps_chrome_out_literal (w->buf, ",\"url\":");
      sps_chrome_writer_append_string_id (w, frames->source_file[frame]);
    }
  if (always || line != 0)
    {
      sps_chrome_out_literal (w->buf, ",\"lineNumber\":");
      sps_json_append_int64 (w->buf, (gint64) line - 1);
    }
  if (always || column != 0)
    {
      sps_chrome_out_literal (w->buf, ",\"columnNumber\":");
      sps_json_append_int64 (w->buf, (gint64) column - 1);
    }
}

/* V8 CPU profiles. A sample that came in one (event name ProfileChunk or
 * CpuProfile, one observation without weight, a stack of frames that a V8
 * call frame can hold, or unresolved) is written back as a profile of its
 * thread: a Profile event and ProfileChunk events, or one CpuProfile
 * event. DevTools then reads them as the JavaScript samples they were, and
 * the importer gives the same samples: stacks, frames with their source
 * locations, times, lines and event names. Nodes are callsites (id =
 * callsite + 2, under a "(root)" node 1), all in the first chunk. */

typedef enum
{
  PROFILE_NONE,
  PROFILE_STREAMED,
  PROFILE_WHOLE,
} ProfileForm;

/* Samples per ProfileChunk: V8 writes small chunks, and a small event
 * keeps the reader's scratch arrays small */
#define SAMPLES_PER_CHUNK 8192

#define V8_CATEGORY "disabled-by-default-v8.cpu_profiler"

typedef struct
{
  Writer  *w;
  guint8  *callsite_ok;   /* 0 unknown, 1 a V8 stack, 2 not */
  guint32 *node_mark;     /* group + 1 that lists the callsite as a node */
  GArray  *nodes;         /* guint32 callsites of the current group */
  GArray  *chain;         /* scratch */
  guint32  chunk_name;    /* "ProfileChunk", SPS_NO_INDEX when no string is */
  guint32  whole_name;    /* "CpuProfile" */
  SpsTime *last_ts;       /* per group: the time of its last sample */
  gboolean *has_last;
} Profiles;

/* Whether every frame from @callsite up to the root is one a V8 call frame
 * holds (a name, no category, module or address), memoized; the empty
 * stack (a sample of the root node) is one too. */
static gboolean
callsite_is_v8 (Profiles *p,
                guint32   callsite)
{
  const SpsCallsiteTable *callsites = sps_trace_get_callsites (p->w->trace);
  const SpsFrameTable *frames = sps_trace_get_frames (p->w->trace);
  guint8 state = 1;

  g_array_set_size (p->chain, 0);
  for (guint32 c = callsite; c != SPS_NO_INDEX; c = callsites->parent[c])
    {
      guint32 f;

      if (c >= callsites->n_rows)
        {
          state = 2;
          break;
        }
      if (p->callsite_ok[c] != 0)
        {
          state = p->callsite_ok[c];
          break;
        }
      g_array_append_val (p->chain, c);
      f = callsites->frame[c];
      if (f >= frames->n_rows || frames->category[f] != 0 || frames->module[f] != 0 ||
          frames->address[f] != 0 || sps_chrome_writer_string_id_is_empty (p->w, frames->name[f]))
        {
          state = 2;
          break;
        }
    }
  for (guint i = 0; i < p->chain->len; i++)
    p->callsite_ok[g_array_index (p->chain, guint32, i)] = state;
  return state == 1;
}

static ProfileForm
sample_profile_form (Profiles *p,
                     guint     row)
{
  const SpsSampleTable *samples = sps_trace_get_samples (p->w->trace);
  guint32 event_name = sps_sample_table_get_event_name (samples, row);
  SpsSampleFlags flags = sps_sample_table_get_flags (samples, row);
  ProfileForm form;
  guint32 group;
  SpsTime ts = samples->ts[row];

  if (event_name == p->chunk_name && event_name != 0)
    form = PROFILE_STREAMED;
  else if (event_name == p->whole_name && event_name != 0)
    form = PROFILE_WHOLE;
  else
    return PROFILE_NONE;
  /* An unresolved sample of a profile (its node was never defined) names
   * node 0, which no profile defines either: it reads back unresolved,
   * with its line */
  if ((flags != SPS_SAMPLE_NONE && flags != SPS_SAMPLE_UNRESOLVED) ||
      sps_sample_table_get_raw_stack_ref (samples, row) != 0 ||
      sps_sample_table_get_weight_unit (samples, row) != SPS_WEIGHT_UNIT_NONE ||
      samples->thread[row] >= p->w->threads->n_rows ||
      (flags == SPS_SAMPLE_NONE && !callsite_is_v8 (p, samples->callsite[row])))
    return PROFILE_NONE;

  /* Deltas go forward and fit in 64 bits (a P event holds any time) */
  group = 2 * samples->thread[row] + (form == PROFILE_WHOLE);
  if (p->has_last[group] &&
      (ts < p->last_ts[group] || (guint64) ts - (guint64) p->last_ts[group] > G_MAXINT64))
    return PROFILE_NONE;
  p->has_last[group] = TRUE;
  p->last_ts[group] = ts;
  return form;
}

/* A callsite's node; the empty stack (a sample of the root) is the root */
static guint64
node_id (guint32 callsite)
{
  return callsite == SPS_NO_INDEX ? 1 : (guint64) callsite + 2;
}

/* The node a sample names (0: none, for an unresolved one) */
static guint64
sample_node (const SpsSampleTable *samples,
             guint                 row)
{
  if ((sps_sample_table_get_flags (samples, row) & SPS_SAMPLE_UNRESOLVED) != 0)
    return 0;
  return node_id (samples->callsite[row]);
}

static void
append_node (Profiles *p,
             guint32   callsite)
{
  const SpsCallsiteTable *callsites = sps_trace_get_callsites (p->w->trace);
  const SpsFrameTable *frames = sps_trace_get_frames (p->w->trace);
  guint32 frame = callsites->frame[callsite];
  guint32 parent = callsites->parent[callsite];

  sps_chrome_out_literal (p->w->buf, ",\n{\"id\":");
  sps_json_append_uint64 (p->w->buf, node_id (callsite));
  sps_chrome_out_literal (p->w->buf, ",\"parent\":");
  sps_json_append_uint64 (p->w->buf, node_id (parent));
  sps_chrome_out_literal (p->w->buf, ",\"callFrame\":{\"functionName\":");
  sps_chrome_writer_append_string_id (p->w, frames->name[frame]);
  sps_chrome_out_literal (p->w->buf, ",\"scriptId\":0");
  append_location (p->w, frame, TRUE);
  sps_chrome_out_literal (p->w->buf, "}}");
}

/* The nodes of @group's samples and their ancestors, the "(root)" first */
static gboolean
append_nodes (Profiles      *p,
              const guint32 *rows,
              guint          n_rows,
              guint32        group,
              GError       **error)
{
  const SpsSampleTable *samples = sps_trace_get_samples (p->w->trace);
  const SpsCallsiteTable *callsites = sps_trace_get_callsites (p->w->trace);

  g_array_set_size (p->nodes, 0);
  for (guint i = 0; i < n_rows; i++)
    for (guint32 c = sample_node (samples, rows[i]) != 0 ? samples->callsite[rows[i]] : SPS_NO_INDEX;
         c != SPS_NO_INDEX && p->node_mark[c] != group + 1;
         c = callsites->parent[c])
      {
        p->node_mark[c] = group + 1;
        g_array_append_val (p->nodes, c);
      }

  sps_chrome_out_literal (p->w->buf, "\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\","
                                     "\"scriptId\":0,\"url\":\"\",\"lineNumber\":-1,\"columnNumber\":-1}}");
  for (guint i = 0; i < p->nodes->len; i++)
    {
      append_node (p, g_array_index (p->nodes, guint32, i));
      if (p->w->buf->len >= CHUNK_SIZE && !sps_chrome_writer_flush (p->w, error))
        return FALSE;
    }
  g_string_append_c (p->w->buf, ']');
  return TRUE;
}

/* `"samples":[…]`, or with @deltas the time deltas in µs from @*time
 * (which moves on), or the lines (0 for unknown) */
typedef enum
{
  COLUMN_NODES,
  COLUMN_DELTAS,
  COLUMN_LINES,
} SampleColumn;

static gboolean
append_sample_column (Profiles      *p,
                      const guint32 *rows,
                      guint          n_rows,
                      SampleColumn   column,
                      SpsTime       *time,
                      GError       **error)
{
  const SpsSampleTable *samples = sps_trace_get_samples (p->w->trace);
  static const char * const keys[] = { "\"samples\":[", "\"timeDeltas\":[", "\"lines\":[" };

  g_string_append (p->w->buf, keys[column]);
  for (guint i = 0; i < n_rows; i++)
    {
      guint row = rows[i];

      if (i > 0)
        g_string_append_c (p->w->buf, ',');
      if (column == COLUMN_NODES)
        sps_json_append_uint64 (p->w->buf, sample_node (samples, row));
      else if (column == COLUMN_LINES)
        sps_json_append_uint64 (p->w->buf, sps_sample_table_get_line (samples, row));
      else
        {
          sps_json_append_time_us (p->w->buf, samples->ts[row] - *time);
          *time = samples->ts[row];
        }
      if (p->w->buf->len >= CHUNK_SIZE && !sps_chrome_writer_flush (p->w, error))
        return FALSE;
    }
  g_string_append_c (p->w->buf, ']');
  return TRUE;
}

static gboolean
has_lines (const SpsSampleTable *samples,
           const guint32        *rows,
           guint                 n_rows)
{
  for (guint i = 0; i < n_rows; i++)
    if (sps_sample_table_get_line (samples, rows[i]) != 0)
      return TRUE;
  return FALSE;
}

static void
begin_profile_event (Profiles   *p,
                     char        phase,
                     const char *name,
                     guint32     group,
                     guint32     thread,
                     SpsTime     ts)
{
  sps_chrome_writer_begin_event (p->w, phase);
  sps_chrome_writer_key (p->w, "name");
  sps_chrome_out_string (p->w->buf, name, strlen (name));
  sps_chrome_writer_key (p->w, "cat");
  sps_chrome_out_literal (p->w->buf, "\"" V8_CATEGORY "\"");
  if (phase == 'P')
    {
      sps_chrome_writer_key (p->w, "id");
      g_string_append_printf (p->w->buf, "\"0x%x\"", group + 1);
    }
  sps_chrome_writer_append_thread (p->w, thread);
  sps_chrome_writer_ts (p->w, "ts", ts);
}

/* One profile: @rows, samples of one thread in time order */
static gboolean
write_profile (Profiles       *p,
               ProfileForm     form,
               guint32         group,
               const guint32  *rows,
               guint           n_rows,
               GError        **error)
{
  const SpsSampleTable *samples = sps_trace_get_samples (p->w->trace);
  guint32 thread = samples->thread[rows[0]];
  SpsTime start = samples->ts[rows[0]];
  SpsTime time = start;

  if (form == PROFILE_WHOLE)
    {
      begin_profile_event (p, 'I', "CpuProfile", group, thread, start);
      sps_chrome_out_literal (p->w->buf, ",\"s\":\"t\",\"args\":{\"data\":{\"cpuProfile\":{");
      if (!append_nodes (p, rows, n_rows, group, error))
        return FALSE;
      sps_chrome_writer_ts (p->w, "startTime", start);
      sps_chrome_writer_ts (p->w, "endTime", samples->ts[rows[n_rows - 1]]);
      g_string_append_c (p->w->buf, ',');
      if (!append_sample_column (p, rows, n_rows, COLUMN_NODES, NULL, error))
        return FALSE;
      g_string_append_c (p->w->buf, ',');
      if (!append_sample_column (p, rows, n_rows, COLUMN_DELTAS, &time, error))
        return FALSE;
      if (has_lines (samples, rows, n_rows))
        {
          g_string_append_c (p->w->buf, ',');
          if (!append_sample_column (p, rows, n_rows, COLUMN_LINES, NULL, error))
            return FALSE;
        }
      sps_chrome_out_literal (p->w->buf, "}}}");
      return sps_chrome_writer_end_event (p->w, error);
    }

  begin_profile_event (p, 'P', "Profile", group, thread, start);
  sps_chrome_out_literal (p->w->buf, ",\"args\":{\"data\":{\"startTime\":");
  sps_json_append_time_us (p->w->buf, start);
  sps_chrome_out_literal (p->w->buf, "}}");
  if (!sps_chrome_writer_end_event (p->w, error))
    return FALSE;

  for (guint first = 0; first < n_rows; first += SAMPLES_PER_CHUNK)
    {
      guint n = MIN (SAMPLES_PER_CHUNK, n_rows - first);

      begin_profile_event (p, 'P', "ProfileChunk", group, thread, samples->ts[rows[first]]);
      sps_chrome_out_literal (p->w->buf, ",\"args\":{\"data\":{\"cpuProfile\":{");
      if (first == 0)
        {
          if (!append_nodes (p, rows, n_rows, group, error))
            return FALSE;
          g_string_append_c (p->w->buf, ',');
        }
      if (!append_sample_column (p, rows + first, n, COLUMN_NODES, NULL, error))
        return FALSE;
      sps_chrome_out_literal (p->w->buf, "},");
      if (!append_sample_column (p, rows + first, n, COLUMN_DELTAS, &time, error))
        return FALSE;
      if (has_lines (samples, rows + first, n))
        {
          g_string_append_c (p->w->buf, ',');
          if (!append_sample_column (p, rows + first, n, COLUMN_LINES, NULL, error))
            return FALSE;
        }
      sps_chrome_out_literal (p->w->buf, "}}");
      if (!sps_chrome_writer_end_event (p->w, error))
        return FALSE;
    }
  return TRUE;
}

/* Writes the samples of profiles, one profile per thread and form, and
 * marks them in @as_profile. Counting sort by group keeps each group's
 * rows in table order, by time. */
static gboolean
write_profiles (Writer    *w,
                gboolean  *as_profile,
                GError   **error)
{
  const SpsSampleTable *samples = sps_trace_get_samples (w->trace);
  guint n_callsites = sps_trace_get_callsites (w->trace)->n_rows;
  guint n_groups = 2 * w->threads->n_rows;
  g_autofree guint32 *group = g_new (guint32, MAX (samples->n_rows, 1));
  g_autofree guint32 *start = g_new0 (guint32, n_groups + 1);
  g_autofree guint32 *rows = NULL;
  g_autofree guint32 *fill = NULL;
  g_autofree guint8 *callsite_ok = g_new0 (guint8, MAX (n_callsites, 1));
  g_autofree guint32 *node_mark = g_new0 (guint32, MAX (n_callsites, 1));
  g_autoptr(GArray) nodes = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) chain = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree SpsTime *last_ts = g_new0 (SpsTime, n_groups + 1);
  g_autofree gboolean *has_last = g_new0 (gboolean, n_groups + 1);
  Profiles p = {
    .w = w, .callsite_ok = callsite_ok, .node_mark = node_mark, .nodes = nodes, .chain = chain,
    .chunk_name = sps_string_pool_lookup (w->strings, "ProfileChunk", -1),
    .whole_name = sps_string_pool_lookup (w->strings, "CpuProfile", -1),
    .last_ts = last_ts, .has_last = has_last,
  };
  guint n = 0;

  if (p.chunk_name == SPS_NO_INDEX && p.whole_name == SPS_NO_INDEX)
    return TRUE;

  for (guint i = 0; i < samples->n_rows; i++)
    {
      ProfileForm form = sample_profile_form (&p, i);

      group[i] = SPS_NO_INDEX;
      if (form == PROFILE_NONE)
        continue;
      group[i] = 2 * samples->thread[i] + (form == PROFILE_WHOLE);
      start[group[i] + 1]++;
      as_profile[i] = TRUE;
      n++;
    }
  if (n == 0)
    return TRUE;

  for (guint g = 0; g < n_groups; g++)
    start[g + 1] += start[g];
  rows = g_new (guint32, n);
  fill = g_memdup2 (start, (n_groups + 1) * sizeof (guint32));
  for (guint i = 0; i < samples->n_rows; i++)
    if (group[i] != SPS_NO_INDEX)
      rows[fill[group[i]]++] = i;

  for (guint g = 0; g < n_groups; g++)
    {
      if (start[g + 1] == start[g])
        continue;
      if (!write_profile (&p, (g & 1) ? PROFILE_WHOLE : PROFILE_STREAMED, g,
                          rows + start[g], start[g + 1] - start[g], error))
        return FALSE;
      for (guint i = start[g]; i < start[g + 1]; i++)
        if (!sps_chrome_writer_advance (w, error))
          return FALSE;
    }
  return TRUE;
}

gboolean
sps_chrome_write_samples (Writer  *w,
                          GError **error)
{
  const SpsSampleTable *samples = sps_trace_get_samples (w->trace);
  const SpsCallsiteTable *callsites = sps_trace_get_callsites (w->trace);
  g_autofree gboolean *as_profile = g_new0 (gboolean, MAX (samples->n_rows, 1));

  if (!write_profiles (w, as_profile, error))
    return FALSE;

  for (guint i = 0; i < samples->n_rows; i++)
    {
      guint8 flags = sps_sample_table_get_flags (samples, i);
      guint32 thread = samples->thread[i];
      const char *unit;
      double weight;

      if (as_profile[i])
        continue;
      if (thread == SPS_NO_INDEX)
        thread = sps_chrome_writer_track_thread (w, samples->track[i]);

      sps_chrome_writer_begin_event (w, 'P');
      sps_chrome_writer_append_name (w, sps_sample_table_get_event_name (samples, i));
      sps_chrome_writer_append_thread (w, thread);
      sps_chrome_writer_ts (w, "ts", samples->ts[i]);
      if ((flags & SPS_SAMPLE_UNRESOLVED) != 0)
        {
          append_unresolved_stack (w, sps_sample_table_get_raw_stack_ref (samples, i));
        }
      else if (samples->callsite[i] < callsites->n_rows)
        {
          sps_chrome_writer_key (w, "sf");
          g_string_append_c (w->buf, '"');
          sps_json_append_uint64 (w->buf, samples->callsite[i]);
          g_string_append_c (w->buf, '"');
        }
      weight = sps_sample_table_get_weight (samples, i);
      if ((flags & SPS_SAMPLE_HAS_WEIGHT) != 0 && !isnan (weight))
        {
          sps_chrome_writer_key (w, "weight");
          sps_chrome_out_double (w->buf, weight);
        }
      /* The unit was kept without a usable weight too */
      unit = weight_unit_name (sps_sample_table_get_weight_unit (samples, i));
      if (unit != NULL)
        {
          sps_chrome_writer_key (w, "weightUnit");
          sps_chrome_out_string (w->buf, unit, strlen (unit));
        }
      if (!sps_chrome_writer_end_event (w, error) || !sps_chrome_writer_advance (w, error))
        return FALSE;
    }

  return TRUE;
}

gboolean
sps_chrome_write_stack_frames (Writer  *w,
                               GError **error)
{
  const SpsCallsiteTable *callsites = sps_trace_get_callsites (w->trace);
  const SpsFrameTable *frames = sps_trace_get_frames (w->trace);

  sps_chrome_out_literal (w->buf, ",\n\"stackFrames\":{");
  for (guint i = 0; i < callsites->n_rows; i++)
    {
      guint32 frame = callsites->frame[i];

      if (i > 0)
        sps_chrome_out_literal (w->buf, ",\n");
      g_string_append_c (w->buf, '"');
      sps_json_append_uint64 (w->buf, i);
      sps_chrome_out_literal (w->buf, "\":{\"name\":");
      if (frame < frames->n_rows)
        sps_chrome_writer_append_string_id (w, frames->name[frame]);
      else
        sps_chrome_out_literal (w->buf, "\"\"");
      if (frame < frames->n_rows && !sps_chrome_writer_string_id_is_empty (w, frames->category[frame]))
        {
          sps_chrome_out_literal (w->buf, ",\"category\":");
          sps_chrome_writer_append_string_id (w, frames->category[frame]);
        }
      if (frame < frames->n_rows)
        append_location (w, frame, FALSE);
      if (callsites->parent[i] != SPS_NO_INDEX)
        {
          sps_chrome_out_literal (w->buf, ",\"parent\":\"");
          sps_json_append_uint64 (w->buf, callsites->parent[i]);
          g_string_append_c (w->buf, '"');
        }
      g_string_append_c (w->buf, '}');
      if (w->buf->len >= CHUNK_SIZE && !sps_chrome_writer_flush (w, error))
        return FALSE;
    }
  g_string_append_c (w->buf, '}');

  return TRUE;
}
