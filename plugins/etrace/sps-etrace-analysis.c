/* sps-etrace-analysis.c: decoded events → spans, analysis, trace model
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Spans are paired by name in timestamp order (formats/embedded-trace.md
 * §2.5; sps-etrace-pairing.c, which a live capture keeps between its
 * updates). One open span per name: a second start discards the first,
 * an end without a start is dropped, starts still open at the end stay
 * unfinished. Everything dropped is counted and marked on the "Capture
 * health" track.
 *
 * The model: a process "ISRs" and a process "Tasks" with one thread per
 * name, highest priority first; a process "Markers" with one thread per
 * marker name; CPU load per name and the running count of deadline misses
 * as counters; a summary for `info --json` in the info section
 * "embedded".
 */

#define G_LOG_DOMAIN "sps-etrace"

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "sps-etrace-analysis.h"
#include "sps-etrace-pairing.h"
#include "sps-etrace-span-args.h"

enum
{
  PID_ISRS = 1,
  PID_TASKS,
  PID_MARKERS,
  PID_HEALTH,
};

/* How many CPU load values at most per name */
#define LOAD_WINDOWS 400
/* The metadata lists the first misses only; all are counted and flagged */
#define MAX_LISTED_MISSES 10000

/* One track: a name string in a process */
typedef struct
{
  const char *text;
  guint32     text_id;
  guint32     process;      /* builder process index */
  guint32     thread;       /* builder thread index */
  guint32     priority;
  gint        pid;
  guint       n_spans;
  guint       n_misses;
  gint64      min_ns;
  gint64      max_ns;
  gint64      sum_ns;
  gint64      busy_window;  /* CPU load: window being summed */
  guint32     load_track;
  GArray     *busy;         /* gint64 per window */
} Track;

typedef struct
{
  SpsEtraceDecoder *decoder;
  SpsTraceBuilder  *builder;
  GPtrArray        *names;
  SpsEtracePairing *pairing;
  SpsEtraceSpanArgs *args;          /* the spans' and markers' args */
  guint             args_decoder;   /* its number in the builder, 0: text */
  GHashTable       *tracks;         /* "pid/text" → Track */
  GPtrArray        *track_list;
  guint32          *track_of_name;  /* decoder name → Track index, spans */
  guint32          *marker_of_name; /* decoder name → Track index, markers */
  guint64           health[SPS_ETRACE_N_HEALTH];
  char             *messages[SPS_ETRACE_N_HEALTH];
  const char       *source;         /* the stream's name, or NULL */
  guint32           health_process;
  guint32           health_tracks[SPS_ETRACE_N_HEALTH];
  guint32           processes[PID_HEALTH + 1];
  guint32           misses_track[PID_TASKS + 1];
  guint             misses[PID_TASKS + 1];
  GString          *miss_list;
  guint             n_misses;
  gint64            start;
  gint64            end;
  /* Rows a live trace keeps from its last build: spans stored below
   * kept_spans and the first kept_markers markers are not written */
  guint32           kept_spans;
  guint             kept_markers;
} Build;

static void
track_free (gpointer data)
{
  Track *track = data;

  g_clear_pointer (&track->busy, g_array_unref);
  g_free (track);
}

/* A borrowed view (a copy of the array would share its free function) */
static GPtrArray *
copy_tracks (Build *b)
{
  GPtrArray *copy = g_ptr_array_sized_new (b->track_list->len);

  for (guint i = 0; i < b->track_list->len; i++)
    g_ptr_array_add (copy, g_ptr_array_index (b->track_list, i));

  return copy;
}

static const char *
process_label (gint pid)
{
  switch (pid)
    {
    case PID_ISRS:
      return _("ISRs");
    case PID_TASKS:
      return _("Tasks");
    case PID_MARKERS:
      return _("Markers");
    default:
      return _("Capture health");
    }
}

static guint32
ensure_process (Build *b,
                gint   pid)
{
  guint32 process;

  g_assert (pid >= PID_ISRS && pid <= PID_HEALTH);

  if (b->processes[pid] != SPS_NO_INDEX)
    return b->processes[pid];

  process = sps_trace_builder_ensure_process (b->builder, pid);
  sps_trace_builder_set_process_name (b->builder, process,
                                      sps_trace_builder_intern (b->builder, process_label (pid), -1));
  sps_trace_builder_set_process_sort_index (b->builder, process, pid);
  b->processes[pid] = process;

  return process;
}

static gint
pid_of_name (const SpsEtraceName *name)
{
  return name->source == SPS_ETRACE_SOURCE_ISR ? PID_ISRS : PID_TASKS;
}

/* The track of @name in @pid, made on first use (threads come later,
 * once every priority is known). */
static guint32
ensure_track (Build               *b,
              gint                 pid,
              const SpsEtraceName *name)
{
  g_autofree char *key = g_strdup_printf ("%d/%s", pid, name->name);
  gpointer found = g_hash_table_lookup (b->tracks, key);
  Track *track;

  if (found != NULL)
    {
      track = g_ptr_array_index (b->track_list, GPOINTER_TO_UINT (found) - 1);
      track->priority = MAX (track->priority, name->priority);
      return GPOINTER_TO_UINT (found) - 1;
    }

  track = g_new0 (Track, 1);
  track->text = name->name;
  track->pid = pid;
  track->priority = name->priority;
  track->min_ns = G_MAXINT64;
  track->thread = SPS_NO_INDEX;
  g_ptr_array_add (b->track_list, track);
  g_hash_table_insert (b->tracks, g_steal_pointer (&key), GUINT_TO_POINTER (b->track_list->len));

  return b->track_list->len - 1;
}

/* A problem of the capture: counted, and a step of its counter on the
 * "Capture health" track, so the timeline shows when problems happened and
 * how many. Counters rather than instants: a trace's instants are the
 * firmware's markers and nothing else (what `info` reports). Where in the
 * file the first of each kind was is in its warning's message. */
/* @message, after the name of the stream when it has one (the decoder's
 * own messages have it already) */
static char *
with_source (Build *b,
             char  *message)
{
  char *named;

  if (b->source == NULL)
    return message;
  named = g_strdup_printf ("%s: %s", b->source, message);
  g_free (message);
  return named;
}

static void
health (Build           *b,
        SpsEtraceHealth  what,
        gint64           time,
        guint64          count,
        const char      *message)
{
  if (count == 0)
    return;

  b->health[what] += count;
  if (b->messages[what] == NULL && message != NULL)
    b->messages[what] = g_strdup (message);

  if (b->health_tracks[what] == SPS_NO_INDEX)
    {
      if (b->health_process == SPS_NO_INDEX)
        b->health_process = ensure_process (b, PID_HEALTH);
      b->health_tracks[what] =
        sps_trace_builder_ensure_counter_track (b->builder, b->health_process,
                                                sps_trace_builder_intern (b->builder, sps_etrace_health_name (what), -1),
                                                0);
    }

  sps_trace_builder_add_counter_value (b->builder, b->health_tracks[what], time, (double) b->health[what]);
}

/* What the pairing found, in the order it found it */

static void
emit_pairing (Build *b)
{
  const SpsEtracePairing *p = b->pairing;
  guint32 category_marker = sps_trace_builder_intern (b->builder, "marker", -1);
  g_autoptr(GString) value = g_string_new (NULL);

  /* Problems and markers go to different tables (and only problems add
   * strings), so each list replayed in its own order builds what the
   * events in time order would. */
  for (guint i = 0; i < p->notes->len; i++)
    {
      const SpsEtracePairNote *n = &g_array_index (p->notes, SpsEtracePairNote, i);
      const SpsEtraceName *name = g_ptr_array_index (b->names, n->name);
      g_autofree char *message = NULL;

      if (n->health == SPS_ETRACE_HEALTH_DISCARDED_RESTARTS)
        /* Translators: %s is a span name */
        message = with_source (b, g_strdup_printf (_("“%s” started again before it ended; the earlier start was discarded"),
                                                   name->name));
      else
        /* Translators: %s is a span name */
        message = with_source (b, g_strdup_printf (_("“%s” ended without a start; the end was dropped"), name->name));
      health (b, n->health, n->time_ns, 1, message);
    }

  for (guint i = b->kept_markers; i < p->markers->len; i++)
    {
      const SpsEtraceEvent *e = &g_array_index (p->markers, SpsEtraceEvent, i);
      const Track *track = g_ptr_array_index (b->track_list, b->marker_of_name[e->name]);

      SpsArgsRef ref = SPS_ARGS_REF_NONE;

      /* Deferred as a span's are; as text only in a builder that holds
       * the most decoders already */
      if (e->has_value && b->args_decoder != 0)
        ref = sps_etrace_span_args_marker (b->args_decoder, e->value);
      else if (e->has_value)
        {
          g_string_assign (value, "{\"value\":");
          sps_json_append_uint64 (value, e->value);
          g_string_append_c (value, '}');
          ref = sps_trace_builder_add_args_text (b->builder, value->str, (gssize) value->len);
        }
      sps_trace_builder_add_instant (b->builder, SPS_INSTANT_KIND_INSTANT, SPS_INSTANT_SCOPE_THREAD,
                                     track->process, track->thread, e->time_ns,
                                     track->text_id, category_marker, ref);
    }

  for (guint i = 0; i < MIN (b->names->len, p->open->len); i++)
    {
      const SpsEtraceName *name = g_ptr_array_index (b->names, i);
      gint64 open = g_array_index (p->open, gint64, i);
      const Track *track;
      g_autofree char *message = NULL;
      g_autofree char *args = NULL;

      if (open < 0)
        continue;

      track = g_ptr_array_index (b->track_list, b->track_of_name[i]);
      /* Translators: %s is a span name */
      message = with_source (b, g_strdup_printf (_("“%s” was still running when the capture ended"), name->name));
      health (b, SPS_ETRACE_HEALTH_OPEN_AT_END, open, 1, message);
      args = g_strdup_printf ("{\"type\":\"%s\",\"priority\":%u}",
                              name->source == SPS_ETRACE_SOURCE_ISR ? "isr" : "task", name->priority);
      /* Unfinished up to the end of its boot (of the capture, mostly),
       * as an unmatched begin would be, but without the core's own "unmatched_begin" warning
       * for the same fact. */
      sps_trace_builder_add_complete (b->builder, track->thread, open,
                                      g_array_index (p->segment_end, gint64, name->segment) - open, track->text_id,
                                      sps_trace_builder_intern (b->builder,
                                                                name->source == SPS_ETRACE_SOURCE_ISR ? "isr" : "task", -1),
                                      sps_trace_builder_add_args_text (b->builder, args, -1),
                                      SPS_SLICE_UNFINISHED);
    }
}

/* Tracks and threads */

static int
compare_tracks (gconstpointer a,
                gconstpointer b)
{
  const Track *ta = *(const Track **) a;
  const Track *tb = *(const Track **) b;

  if (ta->pid != tb->pid)
    return ta->pid - tb->pid;
  if (ta->priority != tb->priority)
    return ta->priority > tb->priority ? -1 : 1;
  return strcmp (ta->text, tb->text);
}

static void
make_tracks (Build *b)
{
  g_autoptr(GPtrArray) sorted = NULL;
  guint n_names = b->names->len;

  b->track_of_name = g_new (guint32, MAX (n_names, 1));
  b->marker_of_name = g_new (guint32, MAX (n_names, 1));
  for (guint i = 0; i < n_names; i++)
    b->track_of_name[i] = b->marker_of_name[i] = SPS_NO_INDEX;

  /* Only names that occur get a track, in the order they first occur */
  for (guint i = 0; i < b->pairing->occurrences->len; i++)
    {
      guint32 occurrence = g_array_index (b->pairing->occurrences, guint32, i);
      guint32 index = occurrence >> 1;
      const SpsEtraceName *name = g_ptr_array_index (b->names, index);

      if (occurrence & 1)
        b->marker_of_name[index] = ensure_track (b, PID_MARKERS, name);
      else
        b->track_of_name[index] = ensure_track (b, pid_of_name (name), name);
    }

  sorted = copy_tracks (b);
  g_ptr_array_sort (sorted, compare_tracks);

  for (guint i = 0, in_process = 0; i < sorted->len; i++)
    {
      Track *track = g_ptr_array_index (sorted, i);

      /* Thread ids count 1, 2, 3… within each group, in priority order */
      if (i > 0 && ((Track *) g_ptr_array_index (sorted, i - 1))->pid != track->pid)
        in_process = 0;
      track->text_id = sps_trace_builder_intern (b->builder, track->text, -1);
      track->process = ensure_process (b, track->pid);
      track->thread = sps_trace_builder_ensure_thread (b->builder, track->process, ++in_process);
      sps_trace_builder_set_thread_name (b->builder, track->thread, track->text_id);
      sps_trace_builder_set_thread_sort_index (b->builder, track->thread, (gint32) i);
    }
}

/* Spans, deadlines, response times */

static void
emit_spans (Build *b)
{
  g_autoptr(GString) args = g_string_new (NULL);
  guint32 category[2];

  category[0] = sps_trace_builder_intern (b->builder, "task", -1);
  category[1] = sps_trace_builder_intern (b->builder, "isr", -1);

  /* The pairing keeps them in this order: (start, end, name) */
  for (guint i = 0; i < b->pairing->spans->len; i++)
    {
      SpsEtraceSpan *span = &g_array_index (b->pairing->spans, SpsEtraceSpan, i);
      const SpsEtraceName *name = g_ptr_array_index (b->names, span->name);
      Track *track = g_ptr_array_index (b->track_list, b->track_of_name[span->name]);
      gboolean isr = name->source == SPS_ETRACE_SOURCE_ISR;
      gint64 dur = span->end - span->start;
      const SpsEtraceNameArgs *prefix = sps_etrace_span_args_get_name (b->args, span->name);
      SpsArgsRef ref = SPS_ARGS_REF_NONE;
      gboolean kept = span->args != SPS_ETRACE_NO_ARGS && span->args < b->kept_spans;
      gint64 deadline;

      track->n_spans++;
      track->min_ns = MIN (track->min_ns, dur);
      track->max_ns = MAX (track->max_ns, dur);
      /* Saturating: spans of up to 2^63 ns each cannot overflow the sum */
      if (__builtin_add_overflow (track->sum_ns, dur, &track->sum_ns))
        track->sum_ns = G_MAXINT64;

      if (sps_etrace_span_missed (prefix, span->start, span->end, &deadline))
        {
          gint pid = track->pid;

          track->n_misses++;
          b->n_misses++;

          if (b->n_misses <= MAX_LISTED_MISSES)
            {
              if (b->miss_list->len > 1)
                g_string_append_c (b->miss_list, ',');
              g_string_append (b->miss_list, "{\"name\":");
              sps_json_append_string (b->miss_list, name->name, -1);
              g_string_append (b->miss_list, ",\"start_us\":");
              sps_json_append_time_us (b->miss_list, span->start);
              g_string_append (b->miss_list, ",\"end_us\":");
              sps_json_append_time_us (b->miss_list, span->end);
              g_string_append (b->miss_list, ",\"deadline_us\":");
              sps_json_append_time_us (b->miss_list, deadline);
              g_string_append (b->miss_list, "}");
            }

          /* The visible mark: a step of the process's running count of
           * misses at the moment the span overran. */
          if (b->misses_track[pid] == SPS_NO_INDEX)
            {
              b->misses_track[pid] =
                sps_trace_builder_ensure_counter_track (b->builder, track->process,
                                                        sps_trace_builder_intern (b->builder, _("Deadline misses"), -1),
                                                        0);
              sps_trace_builder_add_counter_value (b->builder, b->misses_track[pid], b->start, 0);
            }
          b->misses[pid]++;
          sps_trace_builder_add_counter_value (b->builder, b->misses_track[pid], deadline, b->misses[pid]);
        }

      /* The live trace this part grows holds it: its counts and misses
       * above are the trace's, its row is there already */
      if (kept)
        continue;

      /* Deferred: a span's args are stored once, when a build first
       * hands them out, and made into text only when read */
      if (b->args_decoder != 0)
        {
          if (span->args == SPS_ETRACE_NO_ARGS)
            span->args = sps_etrace_span_store_add (b->pairing->store, span->start, span->end, span->name);
          if (span->args != SPS_ETRACE_NO_ARGS)
            ref = sps_etrace_span_args_span (b->args, b->args_decoder, span->args);
        }
      if (ref == SPS_ARGS_REF_NONE)
        {
          g_string_truncate (args, 0);
          sps_etrace_append_span_args (args, prefix, span->start, span->end);
          ref = sps_trace_builder_add_args_text (b->builder, args->str, (gssize) args->len);
        }

      sps_trace_builder_add_complete (b->builder, track->thread, span->start, dur, track->text_id,
                                      category[isr], ref, SPS_SLICE_NONE);
    }

  sps_etrace_span_args_seal (b->args);
}

/* @start + @windows × @window, saturated: a capture whose times reach the
 * ends of gint64 must not wrap the window arithmetic */
static gint64
window_time (gint64  start,
             guint64 windows,
             gint64  window)
{
  gint64 offset;
  gint64 time;

  if (windows > G_MAXINT64 ||
      __builtin_mul_overflow ((gint64) windows, window, &offset) ||
      __builtin_add_overflow (start, offset, &time))
    return G_MAXINT64;
  return time;
}

/* CPU load: the share of each window a name's spans cover, in percent. */
static void
emit_load (Build *b)
{
  gint64 range;
  gint64 window = 1000;
  static const gint64 steps[] = { 1, 2, 5 };
  guint32 series = sps_trace_builder_intern (b->builder, _("CPU %"), -1);
  guint n_windows;

  if (__builtin_sub_overflow (b->end, b->start, &range))
    range = G_MAXINT64;
  if (b->pairing->spans->len == 0 || range <= 0)
    return;

  /* A 1-2-5 window of at least 1 µs giving at most LOAD_WINDOWS values */
  for (gint64 decade = 1000; ; decade *= 10)
    {
      gboolean found = FALSE;

      for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
        {
          window = decade * steps[i];
          if (range / window < LOAD_WINDOWS)
            {
              found = TRUE;
              break;
            }
        }
      if (found)
        break;
    }
  n_windows = (guint) (range / window) + 1;

  for (guint i = 0; i < b->pairing->spans->len; i++)
    {
      const SpsEtraceSpan *span = &g_array_index (b->pairing->spans, SpsEtraceSpan, i);
      Track *track = g_ptr_array_index (b->track_list, b->track_of_name[span->name]);
      gint64 t = span->start;

      if (track->busy == NULL)
        {
          track->busy = g_array_sized_new (FALSE, TRUE, sizeof (gint64), n_windows);
          g_array_set_size (track->busy, n_windows);
        }

      while (t < span->end)
        {
          /* t ≥ start: the difference fits unsigned */
          guint w = (guint) (((guint64) t - (guint64) b->start) / (guint64) window);
          gint64 w_end = window_time (b->start, (guint64) w + 1, window);
          gint64 until = MIN (w_end, span->end);
          gint64 *busy;

          if (w >= n_windows)
            break;
          busy = &g_array_index (track->busy, gint64, w);

          /* Overlapping spans of one track add up past a window: saturate
           * rather than overflow (the value is a percentage of a window
           * anyway) */
          if (__builtin_add_overflow (*busy, until - t, busy))
            *busy = G_MAXINT64;
          t = until;
        }
    }

  for (guint i = 0; i < b->track_list->len; i++)
    {
      Track *track = g_ptr_array_index (b->track_list, i);
      guint32 counter;

      if (track->busy == NULL)
        continue;

      counter = sps_trace_builder_ensure_counter_track (b->builder, track->process, track->text_id, series);
      for (guint w = 0; w < n_windows; w++)
        sps_trace_builder_add_counter_value (b->builder, counter, window_time (b->start, w, window),
                                             100.0 * (double) g_array_index (track->busy, gint64, w) / (double) window);
    }
}

static int
compare_track_names (gconstpointer a,
                     gconstpointer b)
{
  const Track *ta = *(const Track **) a;
  const Track *tb = *(const Track **) b;

  return strcmp (ta->text, tb->text);
}

/* The "embedded" info section, the response times and the list of
 * deadline misses. */
static void
emit_summary (Build *b)
{
  g_autoptr(JsonBuilder) json = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GPtrArray) sorted = copy_tracks (b);
  g_autoptr(GString) times = g_string_new ("{");
  g_autofree char *text = NULL;
  static const SpsEtraceHealth counted[] = {
    SPS_ETRACE_HEALTH_LOST_FRAMES,
    SPS_ETRACE_HEALTH_UNKNOWN_NAME_EVENTS,
    SPS_ETRACE_HEALTH_UNMATCHED_END,
    SPS_ETRACE_HEALTH_DISCARDED_RESTARTS,
    SPS_ETRACE_HEALTH_OPEN_AT_END,
    SPS_ETRACE_HEALTH_DEVICE_RESETS,
  };

  g_ptr_array_sort (sorted, compare_track_names);

  json_builder_begin_object (json);
  json_builder_set_member_name (json, "timebase");
  json_builder_add_string_value (json, sps_etrace_decoder_get_cycles (b->decoder, NULL) ? "cycles" : "nanoseconds");
  json_builder_set_member_name (json, "spans_per_name");
  json_builder_begin_object (json);
  for (guint i = 0; i < sorted->len; i++)
    {
      const Track *track = g_ptr_array_index (sorted, i);

      if (track->n_spans == 0)
        continue;
      json_builder_set_member_name (json, track->text);
      json_builder_add_int_value (json, track->n_spans);
    }
  json_builder_end_object (json);
  json_builder_set_member_name (json, "deadline_misses");
  json_builder_add_int_value (json, b->n_misses);
  for (guint i = 0; i < G_N_ELEMENTS (counted); i++)
    {
      json_builder_set_member_name (json, sps_etrace_health_name (counted[i]));
      json_builder_add_int_value (json, (gint64) b->health[counted[i]]);
    }
  json_builder_set_member_name (json, "desync");
  json_builder_add_int_value (json, (gint64) b->health[SPS_ETRACE_HEALTH_DESYNC]);
  json_builder_set_member_name (json, "skipped_bytes");
  json_builder_add_int_value (json, (gint64) sps_etrace_decoder_get_skipped_bytes (b->decoder));
  json_builder_end_object (json);

  root = json_builder_get_root (json);
  json_generator_set_root (generator, root);
  text = json_generator_to_data (generator, NULL);
  sps_trace_builder_set_info_section (b->builder, "embedded", text);

  for (guint i = 0; i < sorted->len; i++)
    {
      const Track *track = g_ptr_array_index (sorted, i);

      if (track->n_spans == 0)
        continue;
      if (times->len > 1)
        g_string_append_c (times, ',');
      sps_json_append_string (times, track->text, -1);
      g_string_append_printf (times, ":{\"count\":%u,\"min_us\":", track->n_spans);
      sps_json_append_time_us (times, track->min_ns);
      /* The mean to the nearest nanosecond, in integers */
      g_string_append (times, ",\"avg_us\":");
      sps_json_append_time_us (times, (gint64) (((guint64) track->sum_ns + track->n_spans / 2) / track->n_spans));
      g_string_append (times, ",\"max_us\":");
      sps_json_append_time_us (times, track->max_ns);
      g_string_append (times, ",\"jitter_us\":");
      sps_json_append_time_us (times, track->max_ns - track->min_ns);
      g_string_append_printf (times, ",\"deadline_misses\":%u}", track->n_misses);
    }
  g_string_append_c (times, '}');
  g_string_append_c (b->miss_list, ']');

  sps_trace_builder_add_metadata (b->builder, "response_times",
                                  sps_trace_builder_add_args_text (b->builder, times->str, times->len));
  sps_trace_builder_add_metadata (b->builder, "deadline_misses",
                                  sps_trace_builder_add_args_text (b->builder, b->miss_list->str, b->miss_list->len));
}

static void
emit_warnings (Build *b)
{
  for (guint i = 0; i < SPS_ETRACE_N_HEALTH; i++)
    {
      const char *message = b->messages[i];

      for (guint64 k = 0; k < b->health[i]; k++)
        sps_trace_builder_warn (b->builder, sps_etrace_health_name (i),
                                message != NULL ? "%s" : NULL, message);
    }
}

/**
 * sps_etrace_build_paired:
 * @decoder: a finished decoder
 * @pairing: the pairing of all of @decoder's events
 * @builder: where the trace goes
 * @progress: (nullable): progress and cancellation
 * @error: return location for an error (cancellation only)
 *
 * Analyses and adds everything @decoder read to @builder, with the spans
 * @pairing found (a live capture keeps its pairing between updates).
 */
gboolean
sps_etrace_build_paired (SpsEtraceDecoder *decoder,
                         SpsEtracePairing *pairing,
                         SpsTraceBuilder  *builder,
                         SpsProgress      *progress,
                         GError          **error)
{
  return sps_etrace_build_part (decoder, pairing, 0, 0, builder, progress, error);
}

/**
 * sps_etrace_build_part:
 * @decoder: a finished decoder
 * @pairing: the pairing of all of @decoder's events
 * @kept_spans: the spans stored in @pairing's store below this place are
 *   not written (a live trace keeps them), nor are
 * @kept_markers: the first markers
 * @builder: where the rows go
 * @progress: (nullable): progress and cancellation
 * @error: return location for an error (cancellation only)
 *
 * sps_etrace_build_paired() without the rows of the spans and markers a
 * live trace built before holds (see _sps_trace_grow()): everything else
 * (open spans, counters, the summary) is derived from all of them.
 */
gboolean
sps_etrace_build_part (SpsEtraceDecoder *decoder,
                       SpsEtracePairing *pairing,
                       guint32           kept_spans,
                       guint             kept_markers,
                       SpsTraceBuilder  *builder,
                       SpsProgress      *progress,
                       GError          **error)
{
  Build b = { 0 };
  GArray *marks;
  gboolean ret = FALSE;

  g_return_val_if_fail (decoder != NULL, FALSE);
  g_return_val_if_fail (pairing != NULL, FALSE);
  g_return_val_if_fail (pairing->n_events == sps_etrace_decoder_get_events (decoder)->len, FALSE);
  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (builder), FALSE);

  marks = sps_etrace_decoder_get_marks (decoder);
  b.decoder = decoder;
  b.source = sps_etrace_decoder_get_source (decoder);
  b.builder = builder;
  b.names = sps_etrace_decoder_get_names (decoder);
  b.pairing = pairing;
  b.kept_spans = kept_spans;
  b.kept_markers = MIN (kept_markers, pairing->markers->len);
  b.tracks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  b.track_list = g_ptr_array_new_with_free_func (track_free);
  b.miss_list = g_string_new ("[");
  b.health_process = SPS_NO_INDEX;
  for (guint i = 0; i < G_N_ELEMENTS (b.health_tracks); i++)
    b.health_tracks[i] = SPS_NO_INDEX;
  for (guint i = 0; i < G_N_ELEMENTS (b.processes); i++)
    b.processes[i] = SPS_NO_INDEX;
  for (guint i = 0; i < G_N_ELEMENTS (b.misses_track); i++)
    b.misses_track[i] = SPS_NO_INDEX;

  if (pairing->n_events > 0)
    {
      b.start = pairing->start;
      b.end = pairing->end;
    }

  if (progress != NULL && sps_progress_is_cancelled (progress))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Operation was cancelled"));
      goto out;
    }

  for (guint i = 0; i < marks->len; i++)
    {
      const SpsEtraceMark *mark = &g_array_index (marks, SpsEtraceMark, i);

      health (&b, mark->health, mark->time_ns, mark->count,
              sps_etrace_decoder_get_first_message (decoder, mark->health));
    }

  b.args = sps_etrace_span_args_new (pairing->store, b.names);
  b.args_decoder = sps_trace_builder_add_args_decoder (builder, SPS_ARGS_DECODER (b.args));
  make_tracks (&b);
  emit_pairing (&b);
  emit_spans (&b);
  emit_load (&b);
  emit_summary (&b);
  emit_warnings (&b);
  ret = TRUE;

out:
  g_clear_object (&b.args);
  g_hash_table_unref (b.tracks);
  g_ptr_array_unref (b.track_list);
  g_string_free (b.miss_list, TRUE);
  g_free (b.track_of_name);
  g_free (b.marker_of_name);
  for (guint i = 0; i < SPS_ETRACE_N_HEALTH; i++)
    g_free (b.messages[i]);

  return ret;
}

/**
 * sps_etrace_build:
 * @decoder: a finished decoder
 * @builder: where the trace goes
 * @progress: (nullable): progress and cancellation
 * @error: return location for an error (cancellation only)
 *
 * Pairs, analyses and adds everything @decoder read to @builder. The
 * decoder's events may be sorted by time in place.
 */
gboolean
sps_etrace_build (SpsEtraceDecoder *decoder,
                  SpsTraceBuilder  *builder,
                  SpsProgress      *progress,
                  GError          **error)
{
  g_autoptr(SpsEtracePairing) pairing = sps_etrace_pairing_new ();
  GArray *events;

  g_return_val_if_fail (decoder != NULL, FALSE);
  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (builder), FALSE);

  events = sps_etrace_decoder_get_events (decoder);
  /* From the first event nothing is older than what was paired */
  if (!sps_etrace_pairing_advance (pairing, events, sps_etrace_decoder_get_names (decoder), events->len, TRUE))
    g_return_val_if_reached (FALSE);

  return sps_etrace_build_paired (decoder, pairing, builder, progress, error);
}

/**
 * sps_etrace_end_stream:
 * @decoder: a decoder that was fed the whole stream, not finished
 * @builder: where the trace goes
 *
 * Ends the stream and writes what the builder of every etrace trace
 * holds before the analysis: the format, its unit, the frames read.
 */
void
sps_etrace_end_stream (SpsEtraceDecoder *decoder,
                       SpsTraceBuilder  *builder)
{
  g_return_if_fail (decoder != NULL);
  g_return_if_fail (SPS_IS_TRACE_BUILDER (builder));

  sps_trace_builder_set_format (builder, "etrace");
  sps_trace_builder_set_display_time_unit (builder, "ns");
  sps_etrace_decoder_finish (decoder);
  sps_trace_builder_add_events_read (builder, sps_etrace_decoder_get_frames (decoder));
}

/**
 * sps_etrace_build_stream:
 * @decoder: a decoder that was fed the whole stream, not finished
 * @builder: where the trace goes
 * @progress: (nullable): progress and cancellation
 * @error: return location for an error (cancellation only)
 *
 * Ends the stream and builds its trace: what a load of a file does once
 * the bytes are decoded (a live capture's update the same, with the
 * pairing it keeps).
 */
gboolean
sps_etrace_build_stream (SpsEtraceDecoder *decoder,
                         SpsTraceBuilder  *builder,
                         SpsProgress      *progress,
                         GError          **error)
{
  g_return_val_if_fail (decoder != NULL, FALSE);
  g_return_val_if_fail (SPS_IS_TRACE_BUILDER (builder), FALSE);

  sps_etrace_end_stream (decoder, builder);

  return sps_etrace_build (decoder, builder, progress, error);
}
