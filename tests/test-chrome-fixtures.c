/* test-chrome-fixtures.c: exact counts on real Chrome JSON files and on
 * our own sampled-profile fixtures
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every expected number below was checked by hand against the input file
 * (reading the JSON and counting phases, pids, tids and B/E pairs); the
 * comment above each number says how. The quantities are the ones
 * `spanscope-cli info --json` prints:
 *
 *   slices         = X + matched B/E pairs, not sampled, UNFINISHED excluded
 *   sampled_slices = the same for spans whose category holds `sampleEvent`
 *   async_slices   = completed b/e and S/F pairs
 *   instants       = i/I + R + n
 *   counter_tracks = tracks of kind COUNTER (pid, name[+"[id]"], series)
 *   counter_values = one per numeric series value (numeric strings count)
 *   flows          = arrows: a chain of k bound points gives k - 1
 *   samples        = P records; objects = N/O/D; metadata = M
 *   start_ns/end_ns = min ts / max end over stored slices, instants,
 *                    counters, samples, objects and async slices
 *
 * The real files live outside the project (../shared/fixtures/chrome, from
 * $SPANSCOPE_SHARED_FIXTURES); when that folder is missing, those tests
 * skip with a message. Our own fixtures are in tests/fixtures/.
 */

#define G_LOG_DOMAIN "sps-test-chrome-fixtures"

#include "config.h"

#include <math.h>
#include <string.h>

#include <spanscope-core.h>

#include "sps-test-util.h"

#define MAX_WARNINGS 4

typedef struct
{
  const char *name;
  guint64     count;
} ExpectedWarning;

typedef void (*SpotCheckFunc) (SpsTrace *trace);

typedef struct
{
  /* A file name in the shared folder, or "ours:NAME" for tests/fixtures */
  const char      *file;
  guint64          events_read;
  guint            processes;
  guint            threads;
  guint            slices;
  guint            sampled_slices;
  guint            async_slices;
  guint            instants;
  guint            counter_tracks;
  guint            counter_values;
  guint            flows;
  guint            samples;
  guint            objects;
  guint64          metadata;
  SpsTime          start_ns;
  SpsTime          end_ns;
  /* Every non-zero warning counter, terminated by a NULL name */
  ExpectedWarning  warnings[MAX_WARNINGS];
  SpotCheckFunc    spot_check;
} Expectation;

typedef struct
{
  guint64 events_read;
  guint   processes;
  guint   threads;
  guint   slices;
  guint   sampled_slices;
  guint   async_slices;
  guint   instants;
  guint   counter_tracks;
  guint   counter_values;
  guint   flows;
  guint   samples;
  guint   objects;
  guint64 metadata;
  SpsTime start_ns;
  SpsTime end_ns;
} Info;

/* The counts `spanscope-cli info --json` prints, in its key order, as
 * fields of both Info and Expectation */
#define INFO_FIELD(field) \
  { #field, G_STRUCT_OFFSET (Info, field), G_STRUCT_OFFSET (Expectation, field), \
    sizeof ((Info *) NULL)->field }

static const struct
{
  const char *key;
  gsize       info_offset;
  gsize       expected_offset;
  gsize       size;           /* 4: guint; 8: guint64 or SpsTime */
} info_fields[] = {
  INFO_FIELD (events_read), INFO_FIELD (processes), INFO_FIELD (threads),
  INFO_FIELD (slices), INFO_FIELD (sampled_slices), INFO_FIELD (async_slices),
  INFO_FIELD (instants), INFO_FIELD (counter_tracks), INFO_FIELD (counter_values),
  INFO_FIELD (flows), INFO_FIELD (samples), INFO_FIELD (objects), INFO_FIELD (metadata),
  INFO_FIELD (start_ns), INFO_FIELD (end_ns),
};

/* Field @i of an Info or an Expectation, at @offset in it */
static gint64
info_field_value (gconstpointer owner,
                  gsize         offset,
                  guint         i)
{
  const char *p = (const char *) owner + offset;

  if (info_fields[i].size == sizeof (guint))
    {
      guint value;

      memcpy (&value, p, sizeof value);
      return value;
    }
  else
    {
      gint64 value;

      g_assert_cmpuint (info_fields[i].size, ==, sizeof value);
      memcpy (&value, p, sizeof value);
      return value;
    }
}

static gint64
expected_value (const Expectation *expected,
                guint              i)
{
  return info_field_value (expected, info_fields[i].expected_offset, i);
}

/* Helpers */

static char *
dup_shared_chrome_dir (void)
{
  const char *shared = g_getenv ("SPANSCOPE_SHARED_FIXTURES");

  if (shared == NULL || *shared == '\0')
    return NULL;

  return g_build_filename (shared, "chrome", NULL);
}

static char *
dup_fixture_path (const char *file)
{
  g_autofree char *dir = NULL;

  if (g_str_has_prefix (file, "ours:"))
    return g_test_build_filename (G_TEST_DIST, "fixtures", file + strlen ("ours:"), NULL);

  dir = dup_shared_chrome_dir ();
  if (dir == NULL)
    return NULL;

  return g_build_filename (dir, file, NULL);
}

/* Returns FALSE (after g_test_skip()) when @path is a shared fixture that
 * is not there: a clone of the project alone has no ../shared. */
static gboolean
check_fixture_present (const char *file,
                       const char *path)
{
  g_autofree char *message = NULL;

  if (path != NULL && g_file_test (path, G_FILE_TEST_EXISTS))
    return TRUE;

  if (path == NULL)
    message = g_strdup ("SPANSCOPE_SHARED_FIXTURES is not set: no real Chrome JSON files to read");
  else if (g_str_has_prefix (file, "ours:"))
    g_error ("our own fixture %s is missing", path);
  else
    message = g_strdup_printf ("shared fixture %s does not exist (no ../shared next to the project)", path);

  g_test_skip (message);
  return FALSE;
}

static const char *
string_of (SpsTrace *trace,
           guint32   id)
{
  const char *str = sps_trace_get_string (trace, id);

  g_assert_nonnull (str);
  return str;
}

static SpsTrackKind
slice_track_kind (SpsTrace *trace,
                  guint     slice)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);

  g_assert_cmpuint (slice, <, slices->n_rows);
  g_assert_cmpuint (slices->track[slice], <, tracks->n_rows);

  return tracks->kind[slices->track[slice]];
}

static void
compute_info (SpsTrace *trace,
              Info     *info)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);

  memset (info, 0, sizeof *info);

  info->events_read = sps_trace_get_events_read (trace);
  info->processes = sps_trace_get_processes (trace)->n_rows;
  info->threads = sps_trace_get_threads (trace)->n_rows;

  for (guint i = 0; i < slices->n_rows; i++)
    {
      SpsTrackKind kind = slice_track_kind (trace, i);
      guint16 flags = slices->flags[i];

      /* An unfinished B, an async end without a begin and the steps
       * cutting a legacy async slice are kept for the view but are not
       * completed pairs, so info does not count them. */
      if (flags & (SPS_SLICE_UNFINISHED | SPS_SLICE_UNMATCHED_END | SPS_SLICE_STEP))
        continue;

      if (kind == SPS_TRACK_THREAD_SLICES)
        info->slices++;
      else if (kind == SPS_TRACK_THREAD_SAMPLED_SLICES)
        info->sampled_slices++;
      else if (kind == SPS_TRACK_ASYNC)
        info->async_slices++;
      else
        g_assert_not_reached ();
    }

  /* The trace's own count agrees with the one made here */
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES), ==, info->slices);
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_THREAD_SAMPLED_SLICES), ==, info->sampled_slices);
  g_assert_cmpuint (sps_trace_count_slices (trace, SPS_TRACK_ASYNC), ==, info->async_slices);

  for (guint i = 0; i < tracks->n_rows; i++)
    if (tracks->kind[i] == SPS_TRACK_COUNTER)
      info->counter_tracks++;

  info->instants = sps_trace_get_instants (trace)->n_rows;
  info->counter_values = sps_trace_get_counters (trace)->n_rows;
  info->flows = sps_trace_get_flows (trace)->n_rows;
  info->samples = sps_trace_get_samples (trace)->n_rows;
  info->objects = sps_trace_get_objects (trace)->n_rows;
  info->metadata = sps_trace_get_metadata_events (trace);
  info->start_ns = sps_trace_get_start_time (trace);
  info->end_ns = sps_trace_get_end_time (trace);
}

static void
assert_info (const Info        *info,
             const Expectation *expected)
{
  for (guint i = 0; i < G_N_ELEMENTS (info_fields); i++)
    {
      g_test_message ("%s", info_fields[i].key);
      g_assert_cmpint (info_field_value (info, info_fields[i].info_offset, i), ==,
                       expected_value (expected, i));
    }
}

static guint
count_expected_warnings (const Expectation *expected)
{
  guint n = 0;

  while (n < MAX_WARNINGS && expected->warnings[n].name != NULL)
    n++;

  return n;
}

static void
assert_warnings (SpsTrace          *trace,
                 const Expectation *expected)
{
  guint n_expected = count_expected_warnings (expected);
  guint n = sps_trace_get_n_warnings (trace);

  /* Print what was reported so that a failure says which counter is
   * unexpected. */
  for (guint i = 0; i < n; i++)
    {
      const char *first_message = NULL;
      guint64 count = 0;
      const char *name = sps_trace_get_warning (trace, i, &count, &first_message);

      g_test_message ("warning %s × %" G_GUINT64_FORMAT ": %s",
                      name, count, first_message ? first_message : "");
    }

  g_assert_cmpuint (n, ==, n_expected);

  for (guint i = 0; i < n_expected; i++)
    g_assert_cmpuint (sps_trace_count_warning (trace, expected->warnings[i].name),
                      ==, expected->warnings[i].count);
}

static guint
find_slice_at (SpsTrace   *trace,
               const char *name,
               SpsTime     ts)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);

  for (guint i = 0; i < slices->n_rows; i++)
    if (slices->ts[i] == ts && g_strcmp0 (string_of (trace, slices->name[i]), name) == 0)
      return i;

  g_error ("no slice named “%s” at %" G_GINT64_FORMAT, name, ts);
  return SPS_NO_INDEX;
}

static guint
count_slices_named (SpsTrace   *trace,
                    const char *name)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  guint n = 0;

  for (guint i = 0; i < slices->n_rows; i++)
    if (g_strcmp0 (string_of (trace, slices->name[i]), name) == 0)
      n++;

  return n;
}

static guint
find_process (SpsTrace *trace,
              gint64    pid)
{
  const SpsProcessTable *processes = sps_trace_get_processes (trace);

  for (guint i = 0; i < processes->n_rows; i++)
    if (processes->pid[i] == pid)
      return i;

  g_error ("no process %" G_GINT64_FORMAT, pid);
  return SPS_NO_INDEX;
}

static guint
find_thread (SpsTrace *trace,
             gint64    pid,
             gint64    tid)
{
  const SpsThreadTable *threads = sps_trace_get_threads (trace);
  guint process = find_process (trace, pid);

  for (guint i = 0; i < threads->n_rows; i++)
    if (threads->process[i] == process && threads->tid[i] == tid)
      return i;

  g_error ("no thread %" G_GINT64_FORMAT "/%" G_GINT64_FORMAT, pid, tid);
  return SPS_NO_INDEX;
}

static guint
find_process_named (SpsTrace   *trace,
                    const char *name)
{
  const SpsProcessTable *processes = sps_trace_get_processes (trace);

  for (guint i = 0; i < processes->n_rows; i++)
    if (g_strcmp0 (string_of (trace, processes->name[i]), name) == 0)
      return i;

  g_error ("no process named “%s”", name);
  return SPS_NO_INDEX;
}

static void
assert_slice (SpsTrace   *trace,
              guint       slice,
              SpsTime     ts,
              SpsTime     dur,
              guint       depth,
              const char *parent_name)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);

  g_assert_cmpint (slices->ts[slice], ==, ts);
  g_assert_cmpint (slices->dur[slice], ==, dur);
  g_assert_cmpuint (slices->depth[slice], ==, depth);

  if (parent_name == NULL)
    {
      g_assert_cmpuint (slices->parent[slice], ==, SPS_NO_INDEX);
    }
  else
    {
      g_assert_cmpuint (slices->parent[slice], !=, SPS_NO_INDEX);
      g_assert_cmpstr (string_of (trace, slices->name[slices->parent[slice]]), ==, parent_name);
    }
}

static guint
find_track (SpsTrace     *trace,
            SpsTrackKind  kind,
            const char   *name,
            const char   *series)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);

  for (guint i = 0; i < tracks->n_rows; i++)
    {
      if (tracks->kind[i] == kind &&
          g_strcmp0 (string_of (trace, tracks->name[i]), name) == 0 &&
          (series == NULL || g_strcmp0 (string_of (trace, tracks->series[i]), series) == 0))
        return i;
    }

  g_error ("no track “%s” / “%s” of kind %d", name, series ? series : "", kind);
  return SPS_NO_INDEX;
}

/* Counter values of one track in table order (sorted by ts). */
static GArray *
counter_values_of (SpsTrace *trace,
                   guint     track)
{
  const SpsCounterTable *counters = sps_trace_get_counters (trace);
  GArray *values = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < counters->n_rows; i++)
    if (counters->track[i] == track)
      g_array_append_val (values, i);

  return values;
}

static double
weight_to_us (double        weight,
              SpsWeightUnit unit)
{
  switch (unit)
    {
    case SPS_WEIGHT_UNIT_NS:
      return weight / 1000.0;
    case SPS_WEIGHT_UNIT_US:
      return weight;
    case SPS_WEIGHT_UNIT_MS:
      return weight * 1000.0;
    case SPS_WEIGHT_UNIT_S:
      return weight * 1000000.0;
    case SPS_WEIGHT_UNIT_NONE:
    default:
      return NAN;
    }
}

/* The flame graph does not exist yet, so the inclusive/exclusive figures
 * are computed here from the callsite tree and the sample table. */
static gboolean
callsite_has_ancestor (SpsTrace *trace,
                       guint32   callsite,
                       guint32   ancestor)
{
  const SpsCallsiteTable *callsites = sps_trace_get_callsites (trace);
  guint steps = 0;

  while (callsite != SPS_NO_INDEX)
    {
      g_assert_cmpuint (callsite, <, callsites->n_rows);
      if (callsite == ancestor)
        return TRUE;
      callsite = callsites->parent[callsite];
      /* A cycle in the prefix tree would be a builder bug */
      g_assert_cmpuint (++steps, <=, callsites->n_rows);
    }

  return FALSE;
}

static const char *
callsite_frame_name (SpsTrace *trace,
                     guint32   callsite)
{
  const SpsCallsiteTable *callsites = sps_trace_get_callsites (trace);
  const SpsFrameTable *frames = sps_trace_get_frames (trace);

  g_assert_cmpuint (callsite, <, callsites->n_rows);
  g_assert_cmpuint (callsites->frame[callsite], <, frames->n_rows);

  return string_of (trace, frames->name[callsites->frame[callsite]]);
}

/* "main;work" for the stack main -> work (root first) */
static char *
dup_callsite_path (SpsTrace *trace,
                   guint32   callsite)
{
  const SpsCallsiteTable *callsites = sps_trace_get_callsites (trace);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  GString *path = g_string_new (NULL);

  if (callsite == SPS_NO_INDEX)
    return g_string_free (path, FALSE);

  for (guint32 c = callsite; c != SPS_NO_INDEX; c = callsites->parent[c])
    {
      g_assert_cmpuint (names->len, <=, callsites->n_rows);
      g_ptr_array_add (names, (gpointer) callsite_frame_name (trace, c));
    }

  for (guint i = names->len; i > 0; i--)
    {
      if (path->len > 0)
        g_string_append_c (path, ';');
      g_string_append (path, g_ptr_array_index (names, i - 1));
    }

  return g_string_free (path, FALSE);
}

/* Spot checks, one per file. Each value was read off the file by hand. */

static void
spot_simple_partial (SpsTrace *trace)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  guint alpha = sps_test_find_slice (trace, "alpha", 0);
  guint beta = sps_test_find_slice (trace, "beta", 0);
  guint gamma = sps_test_find_slice (trace, "gamma", 0);
  guint epsilon = sps_test_find_slice (trace, "epsilon", 0);

  /* B alpha 0 … E alpha 14 */
  assert_slice (trace, alpha, 0, 14000, 0, NULL);
  /* B beta 1 … E beta 13, inside alpha */
  assert_slice (trace, beta, 1000, 12000, 1, "alpha");
  /* X gamma ts 2 dur 5, inside beta */
  assert_slice (trace, gamma, 2000, 5000, 2, "beta");
  /* X epsilon ts 7 has only "tdur": its wall end is unknown, so it is
   * unfinished and lasts to the trace end (E alpha at 14). It starts in
   * beta (gamma ended at 7) and outlasts it: a child anyway, warned. */
  assert_slice (trace, epsilon, 7000, 7000, 2, "beta");
  g_assert_true (slices->flags[epsilon] & SPS_SLICE_UNFINISHED);
  /* alpha's only child is beta (12 µs) */
  g_assert_cmpint (slices->self_time[alpha], ==, 2000);
  /* beta (12 µs) holds gamma (5 µs) and epsilon (7 µs) */
  g_assert_cmpint (slices->self_time[beta], ==, 0);
}

static void
spot_too_many_end_events (SpsTrace *trace)
{
  /* Sorted by ts: B alpha 0, B beta 1, E gamma 5, E delta 5, E beta 13,
   * E alpha 14. E closes the innermost open B whatever its name, so
   * "gamma" closes beta at 5 and "delta" closes alpha at 5; the last two
   * E find nothing open. */
  assert_slice (trace, sps_test_find_slice (trace, "alpha", 0), 0, 5000, 0, NULL);
  assert_slice (trace, sps_test_find_slice (trace, "beta", 0), 1000, 4000, 1, "alpha");
  g_assert_cmpuint (count_slices_named (trace, "gamma"), ==, 0);
  g_assert_cmpuint (count_slices_named (trace, "delta"), ==, 0);
}

static void
spot_empty_event (SpsTrace *trace)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  guint event2 = sps_test_find_slice (trace, "event2", 0);

  /* "pid":"13","tid":"13","ts":"456123455","dur":"2000": strings read as
   * numbers */
  assert_slice (trace, event2, G_GINT64_CONSTANT (456123455000), 2000000, 0, NULL);
  g_assert_cmpuint (tracks->thread[slices->track[event2]], ==, find_thread (trace, 13, 13));
  /* "ts":"456123453", "dur":"1000" */
  assert_slice (trace, sps_test_find_slice (trace, "event1", 0), G_GINT64_CONSTANT (456123453000), 1000000, 0, NULL);
}

static void
spot_tracecompass_log (SpsTrace *trace)
{
  const SpsThreadTable *threads = sps_trace_get_threads (trace);
  const SpsInstantTable *instants = sps_trace_get_instants (trace);

  /* "ts":"445191683049.142" … first E on tid 1 at "445191977985.942"
   * after createBookmarks' E at "445191975501.045" */
  assert_slice (trace, sps_test_find_slice (trace, "reopenTraceFromElement", 0),
                G_GINT64_CONSTANT (445191683049142),
                G_GINT64_CONSTANT (445191977985942) - G_GINT64_CONSTANT (445191683049142),
                0, NULL);
  assert_slice (trace, sps_test_find_slice (trace, "createBookmarks", 0),
                G_GINT64_CONSTANT (445191691275706),
                G_GINT64_CONSTANT (445191975501045) - G_GINT64_CONSTANT (445191691275706),
                1, "reopenTraceFromElement");
  /* "TimeGraphView:ZoomThreadCreated" occurs four times on tid 1 */
  g_assert_cmpuint (count_slices_named (trace, "TimeGraphView:ZoomThreadCreated"), ==, 4);
  /* "RefreshRequested" B events: pids 61, 1, 65, 63, 78, 80, 81, 85, 1 */
  g_assert_cmpuint (count_slices_named (trace, "RefreshRequested"), ==, 9);

  /* The only i: "445193245079.232" on pid 1 */
  g_assert_cmpuint (instants->n_rows, ==, 1);
  g_assert_cmpint (instants->ts[0], ==, G_GINT64_CONSTANT (445193245079232));
  g_assert_cmpstr (string_of (trace, instants->name[0]), ==, "TimeGraphView:LoadingTrace");

  /* tid 85 exists, in process 85 */
  g_assert_cmpint (threads->tid[find_thread (trace, 85, 85)], ==, 85);
}

static void
spot_simple_trace (SpsTrace *trace)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  const SpsThreadTable *threads = sps_trace_get_threads (trace);
  const SpsSampleTable *samples = sps_trace_get_samples (trace);
  const SpsCounterTable *counters = sps_trace_get_counters (trace);
  g_autoptr(GArray) values = NULL;
  guint long_x = sps_test_find_slice (trace, "Long X type", 0);
  guint long_name = sps_test_find_slice (trace, "A long name that doesnt fit but is exceedingly informative", 0);
  guint sample_c = SPS_NO_INDEX;
  guint track;

  /* X ts 820 dur 15: root (X1 818–820 ends where it starts) */
  assert_slice (trace, long_x, 820000, 15000, 0, NULL);
  /* B 826 … E "" at 833 (after "Asub" 827–828 and "Asub" 829–832),
   * inside Long X */
  assert_slice (trace, long_name, 826000, 7000, 1, "Long X type");
  /* 15 µs minus the 7 µs child */
  g_assert_cmpint (slices->self_time[long_x], ==, 8000);
  /* 7 µs minus children of 1 and 3 µs */
  g_assert_cmpint (slices->self_time[long_name], ==, 3000);
  /* B "Asub with…" 827 is closed by E "Asub" 828: the innermost */
  assert_slice (trace, sps_test_find_slice (trace, "Asub with a name that wont fit", 0), 827000, 1000, 2,
                "A long name that doesnt fit but is exceedingly informative");
  /* Two X at 818 with dur 2: the tie keeps file order, so the second
   * nests inside the first */
  assert_slice (trace, sps_test_find_slice (trace, "X1", 0), 818000, 2000, 0, NULL);
  assert_slice (trace, sps_test_find_slice (trace, "X same ts and dur as X1", 0), 818000, 2000, 1, "X1");
  /* B "B/E over X", X "X", B "B/E under X" all at 860 for 10 µs, in
   * that file order */
  assert_slice (trace, sps_test_find_slice (trace, "B/E over X", 0), 860000, 10000, 0, NULL);
  assert_slice (trace, sps_test_find_slice (trace, "X", 0), 860000, 10000, 1, "B/E over X");
  assert_slice (trace, sps_test_find_slice (trace, "B/E under X", 0), 860000, 10000, 2, "X");

  /* M thread_name for 22630/22631 */
  g_assert_cmpstr (string_of (trace, threads->name[find_thread (trace, 22630, 22630)]), ==, "threadA");
  g_assert_cmpstr (string_of (trace, threads->name[find_thread (trace, 22630, 22631)]), ==, "threadB");

  /* "counter" {"value": …} at 826, 832, 839, 848, 854: 10, 1, 5, 1, 10 */
  track = find_track (trace, SPS_TRACK_COUNTER, "counter", "value");
  values = counter_values_of (trace, track);
  g_assert_cmpuint (values->len, ==, 5);
  g_assert_cmpint (counters->ts[g_array_index (values, guint, 0)], ==, 826000);
  g_assert_cmpfloat (counters->value[g_array_index (values, guint, 0)], ==, 10.0);
  g_assert_cmpfloat (counters->value[g_array_index (values, guint, 2)], ==, 5.0);
  g_assert_cmpint (counters->ts[g_array_index (values, guint, 4)], ==, 854000);
  g_assert_cmpfloat (counters->value[g_array_index (values, guint, 4)], ==, 10.0);

  /* P "SampleC" at 878 with "sf": 8 → frame8 whose parent is "1" (main) */
  for (guint i = 0; i < samples->n_rows; i++)
    if (g_strcmp0 (string_of (trace, sps_sample_table_get_event_name (samples, i)), "SampleC") == 0)
      sample_c = i;
  g_assert_cmpuint (sample_c, !=, SPS_NO_INDEX);
  g_assert_cmpint (samples->ts[sample_c], ==, 878000);
  g_assert_cmpuint (samples->thread[sample_c], ==, find_thread (trace, 22630, 22631));
  g_assert_false (sps_sample_table_get_flags (samples, sample_c) & SPS_SAMPLE_UNRESOLVED);
  g_assert_cmpuint (samples->callsite[sample_c], !=, SPS_NO_INDEX);
  {
    g_autofree char *path = dup_callsite_path (trace, samples->callsite[sample_c]);
    g_assert_cmpstr (path, ==, "main;frame8");
  }
}

static void
spot_instance_counters (SpsTrace *trace)
{
  const SpsCounterTable *counters = sps_trace_get_counters (trace);
  g_autoptr(GArray) first = NULL;
  g_autoptr(GArray) second = NULL;

  /* "counter" with "id": "123": six values 2, 10, 5, 8, 4, 10 at
   * 9524…9631 */
  first = counter_values_of (trace, find_track (trace, SPS_TRACK_COUNTER, "counter[123]", "value"));
  g_assert_cmpuint (first->len, ==, 6);
  g_assert_cmpfloat (counters->value[g_array_index (first, guint, 0)], ==, 2.0);
  g_assert_cmpfloat (counters->value[g_array_index (first, guint, 3)], ==, 8.0);
  g_assert_cmpint (counters->ts[g_array_index (first, guint, 5)], ==, 9631000);

  /* "counter" with "id": "b": 10 at 9524, 0 at 9631 */
  second = counter_values_of (trace, find_track (trace, SPS_TRACK_COUNTER, "counter[b]", "value"));
  g_assert_cmpuint (second->len, ==, 2);
  g_assert_cmpfloat (counters->value[g_array_index (second, guint, 1)], ==, 0.0);

  /* B a 9524 … E 9560 */
  assert_slice (trace, sps_test_find_slice (trace, "a", 0), 9524000, 36000, 0, NULL);
}

static void
spot_instant_events (SpsTrace *trace)
{
  const SpsInstantTable *instants = sps_trace_get_instants (trace);
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  guint n_thread = 0, n_process = 0, n_global = 0;

  /* "s": "t" three times, "p" once, "g" once */
  for (guint i = 0; i < instants->n_rows; i++)
    {
      switch (tracks->kind[instants->track[i]])
        {
        case SPS_TRACK_THREAD_INSTANTS:
          n_thread++;
          break;
        case SPS_TRACK_PROCESS_INSTANTS:
          n_process++;
          g_assert_cmpstr (string_of (trace, instants->name[i]), ==, "Process size event");
          g_assert_cmpint (instants->ts[i], ==, G_GINT64_CONSTANT (510075907469000));
          g_assert_cmpuint (tracks->process[instants->track[i]], ==, find_process (trace, 36092));
          break;
        case SPS_TRACK_GLOBAL_INSTANTS:
          n_global++;
          g_assert_cmpstr (string_of (trace, instants->name[i]), ==, "Global size event");
          g_assert_cmpint (instants->ts[i], ==, G_GINT64_CONSTANT (510075958350000));
          break;
        default:
          g_assert_not_reached ();
        }
    }

  g_assert_cmpuint (n_thread, ==, 3);
  g_assert_cmpuint (n_process, ==, 1);
  g_assert_cmpuint (n_global, ==, 1);
}

static void
spot_nanoseconds (SpsTrace *trace)
{
  /* displayTimeUnit "ns" is display only: ts stay microseconds */
  g_assert_cmpstr (sps_trace_get_display_time_unit (trace), ==, "ns");
  /* E us1 and B us2 both at 1.1: the E comes first in the file */
  assert_slice (trace, sps_test_find_slice (trace, "us1", 0), 0, 1100, 0, NULL);
  assert_slice (trace, sps_test_find_slice (trace, "us2", 0), 1100, 200, 0, NULL);
  assert_slice (trace, sps_test_find_slice (trace, "us4", 0), 1700, 400, 0, NULL);
  /* 3.000 … 3.011, 3.013 … 3.016 */
  assert_slice (trace, sps_test_find_slice (trace, "ns1", 0), 3000, 11, 0, NULL);
  assert_slice (trace, sps_test_find_slice (trace, "ns3", 0), 3013, 3, 0, NULL);
  assert_slice (trace, sps_test_find_slice (trace, "ns4", 0), 3017, 4, 0, NULL);
}

static gboolean
has_flow (SpsTrace   *trace,
          const char *from,
          const char *to)
{
  const SpsFlowTable *flows = sps_trace_get_flows (trace);
  const SpsSliceTable *slices = sps_trace_get_slices (trace);

  for (guint i = 0; i < flows->n_rows; i++)
    {
      g_assert_cmpuint (flows->from_slice[i], <, slices->n_rows);
      g_assert_cmpuint (flows->to_slice[i], <, slices->n_rows);

      if (g_strcmp0 (string_of (trace, slices->name[flows->from_slice[i]]), from) == 0 &&
          g_strcmp0 (string_of (trace, slices->name[flows->to_slice[i]]), to) == 0)
        return TRUE;
    }

  return FALSE;
}

static void
spot_flow_simple (SpsTrace *trace)
{
  /* id 8780d402: s at 3002 inside SenderA (3002–3012), t at 3220 inside
   * OtherSlice (3200–3700), f at 3330 binds to the next slice,
   * SomeSlice at 3331 */
  g_assert_true (has_flow (trace, "SenderA", "OtherSlice"));
  g_assert_true (has_flow (trace, "OtherSlice", "SomeSlice"));
  /* id 8780d403: s at 1 inside SenderB (0–10), f at 1001 binds to
   * Blergh starting at that same ts */
  g_assert_true (has_flow (trace, "SenderB", "Blergh"));
}

static void
spot_flow_v2 (SpsTrace *trace)
{
  /* bind_id 0x403: SenderB flow_out → Blergh flow_in */
  g_assert_true (has_flow (trace, "SenderB", "Blergh"));
  /* bind_id 0x402: SenderA out → OtherSlice in+out, which binds to
   * every later flow_in of the id: SomeSlice and SomeOtherSlice. A
   * consumer is no producer: nothing goes from SomeSlice. */
  g_assert_true (has_flow (trace, "SenderA", "OtherSlice"));
  g_assert_true (has_flow (trace, "OtherSlice", "SomeSlice"));
  g_assert_true (has_flow (trace, "OtherSlice", "SomeOtherSlice"));
  g_assert_false (has_flow (trace, "SomeSlice", "SomeOtherSlice"));
  /* B 3333 … E 4330 */
  assert_slice (trace, sps_test_find_slice (trace, "SomeOtherSlice", 0), 3333000, 997000, 0, NULL);
}

static void
spot_clang11 (SpsTrace *trace)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  const SpsProcessTable *processes = sps_trace_get_processes (trace);
  const SpsThreadTable *threads = sps_trace_get_threads (trace);
  guint execute = sps_test_find_slice (trace, "ExecuteCompiler", 0);

  /* Written children first; nesting comes from containment:
   * ExecuteCompiler 11–7281 > Backend 3534–7071 > CodeGenPasses
   * 5410–7014 > OptModule 5433–6998 > OptFunction 5588–6300 > RunPass
   * 5589–6228 */
  assert_slice (trace, execute, 11000, 7270000, 0, NULL);
  assert_slice (trace, sps_test_find_slice (trace, "RunPass", 0), 5589000, 639000, 5, "OptFunction");
  assert_slice (trace, sps_test_find_slice (trace, "OptModule", 0), 5433000, 1565000, 3, "CodeGenPasses");
  /* 7270 − Frontend 1568 − Backend 3537 */
  g_assert_cmpint (slices->self_time[execute], ==, 2165000);
  /* "Total ExecuteCompiler" is alone on tid 43148 */
  assert_slice (trace, sps_test_find_slice (trace, "Total ExecuteCompiler", 0), 0, 7270000, 0, NULL);

  g_assert_cmpstr (string_of (trace, processes->name[find_process (trace, 43147)]), ==, "clang-11");
  g_assert_cmpstr (string_of (trace, threads->name[find_thread (trace, 43147, 43147)]), ==, "clang");
}

static void
spot_viztracer (SpsTrace *trace)
{
  const SpsObjectTable *objects = sps_trace_get_objects (trace);
  const SpsCounterTable *counters = sps_trace_get_counters (trace);
  g_autoptr(GArray) values = NULL;

  g_assert_cmpstr (sps_trace_get_display_time_unit (trace), ==, "ns");
  /* "t (…:25)" ts 14853617516.773 dur 186.4 holds everything */
  assert_slice (trace, sps_test_find_slice (trace, "t (/home/gaogaotiantian/programs/codesnap/tests/data/vdb_basic.py:25)", 0),
                G_GINT64_CONSTANT (14853617516773), 186400, 0, NULL);
  /* first "h (…:7)" by ts: 14853617550.373 dur 39.8, inside g (549.873,
   * 40.9) inside f (517.373, 105.5) inside t */
  assert_slice (trace, sps_test_find_slice (trace, "h (/home/gaogaotiantian/programs/codesnap/tests/data/vdb_basic.py:7)", 0),
                G_GINT64_CONSTANT (14853617550373), 39800, 3,
                "g (/home/gaogaotiantian/programs/codesnap/tests/data/vdb_basic.py:12)");
  /* second "h": 591.273 dur 31.4, directly inside f (ends 622.873) */
  assert_slice (trace, sps_test_find_slice (trace, "h (/home/gaogaotiantian/programs/codesnap/tests/data/vdb_basic.py:7)", 1),
                G_GINT64_CONSTANT (14853617591273), 31400, 2,
                "f (/home/gaogaotiantian/programs/codesnap/tests/data/vdb_basic.py:17)");

  /* six O snapshots of "b" */
  for (guint i = 0; i < objects->n_rows; i++)
    {
      g_assert_cmpuint (objects->phase[i], ==, SPS_OBJECT_SNAPSHOT);
      g_assert_cmpstr (string_of (trace, objects->name[i]), ==, "b");
    }

  /* C "a" {"a": 7, 36, 14, 36} */
  values = counter_values_of (trace, find_track (trace, SPS_TRACK_COUNTER, "a", "a"));
  g_assert_cmpuint (values->len, ==, 4);
  g_assert_cmpint (counters->ts[g_array_index (values, guint, 0)], ==, G_GINT64_CONSTANT (14853617570673));
  g_assert_cmpfloat (counters->value[g_array_index (values, guint, 0)], ==, 7.0);
  g_assert_cmpfloat (counters->value[g_array_index (values, guint, 2)], ==, 14.0);
}

static void
spot_unclosed_slices (SpsTrace *trace)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  const SpsThreadTable *threads = sps_trace_get_threads (trace);
  guint browser_main = sps_test_find_slice (trace, "BrowserMain", 0);
  guint n_unfinished = 0;

  /* The four B never closed: BrowserMain, BrowserMain:MESSAGE_LOOP and
   * one MessageLoop::RunTask on 12308/12308, one MessageLoop::RunTask on
   * 12308/12314; they are kept, flagged, and end at the trace end */
  for (guint i = 0; i < slices->n_rows; i++)
    if (slices->flags[i] & SPS_SLICE_UNFINISHED)
      {
        n_unfinished++;
        g_assert_cmpint (slices->ts[i] + slices->dur[i], ==, G_GINT64_CONSTANT (714012742060000));
      }
  g_assert_cmpuint (n_unfinished, ==, 4);

  g_assert_true (slices->flags[browser_main] & SPS_SLICE_UNFINISHED);
  /* BrowserMain begins at 714007690251 µs, the earliest ts in the file */
  assert_slice (trace, browser_main, G_GINT64_CONSTANT (714007690251000),
                G_GINT64_CONSTANT (714012742060000) - G_GINT64_CONSTANT (714007690251000), 0, NULL);

  g_assert_cmpstr (string_of (trace, threads->name[find_thread (trace, 12308, 12308)]), ==, "CrBrowserMain");
  g_assert_cmpstr (string_of (trace, threads->name[find_thread (trace, 12330, 12336)]), ==, "Chrome_ChildIOThread");
}

static void
spot_kineto (SpsTrace *trace)
{
  const SpsProcessTable *processes = sps_trace_get_processes (trace);
  guint spans;

  /* "ts": 4203669603614.869, "dur": 64.151 — 64.151 × 1000 through a
   * double truncates to 64150 */
  assert_slice (trace, find_slice_at (trace, "aten::t", G_GINT64_CONSTANT (4203669603614869)),
                G_GINT64_CONSTANT (4203669603614869), 64151, 2, "aten::linear");
  /* pid 2 tid 0: "ts": 4203669603454.205, "dur": 1031.368 */
  assert_slice (trace, find_slice_at (trace, "ProfilerStep#1", G_GINT64_CONSTANT (4203669603454205)),
                G_GINT64_CONSTANT (4203669603454205), 1031368, 0, NULL);
  /* "pid": "Spans" is a string: a synthetic process named after it */
  spans = find_process_named (trace, "Spans");
  assert_slice (trace, sps_test_find_slice (trace, "PyTorch Profiler (0)", 0),
                G_GINT64_CONSTANT (4203669603018756), 9761878, 0, NULL);
  g_assert_cmpint (processes->sort_index[spans], ==, 536870912);
  g_assert_cmpstr (string_of (trace, processes->labels[find_process (trace, 3)]), ==, "GPU 3");
  g_assert_cmpint (processes->sort_index[find_process (trace, 597913)], ==, 597913);

  /* fwdbwd id 1: s at 4203669604220.787 in aten::mse_loss (597913),
   * f (bp e) at 4203669604613.811 in MseLossBackward0 (598009); the f
   * comes first in the file */
  g_assert_true (has_flow (trace, "aten::mse_loss", "MseLossBackward0"));
}

static void
spot_bazel (SpsTrace *trace)
{
  const SpsCounterTable *counters = sps_trace_get_counters (trace);
  const SpsThreadTable *threads = sps_trace_get_threads (trace);
  g_autoptr(GArray) values = NULL;

  /* "Launch Blaze" "ts": -33000, "dur": 33000 */
  assert_slice (trace, sps_test_find_slice (trace, "Launch Blaze", 0), -33000000, 33000000, 0, NULL);

  /* "action count" {"action": "1.8599999999999997"} at 810939, the
   * first of 66 values, all strings */
  values = counter_values_of (trace, find_track (trace, SPS_TRACK_COUNTER, "action count", "action"));
  g_assert_cmpuint (values->len, ==, 66);
  g_assert_cmpint (counters->ts[g_array_index (values, guint, 0)], ==, 810939000);
  g_assert_cmpfloat_with_epsilon (counters->value[g_array_index (values, guint, 0)], 1.86, 1e-9);

  g_assert_cmpstr (string_of (trace, threads->name[find_thread (trace, 1, 21)]), ==, "Main Thread");
  g_assert_cmpstr (string_of (trace, threads->name[find_thread (trace, 1, 0)]), ==, "Critical Path");
}

static void
spot_nestable_async (SpsTrace *trace)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  guint bar = sps_test_find_slice (trace, "REQUEST_BAR", 0);
  guint open;

  /* b REQUEST_BAR 10 … e REQUEST_BAR 100 (the e skips the open
   * URL_REQUEST_DELEGATE_UNMATCHED_BEGIN above it) */
  g_assert_cmpint (slices->ts[bar], ==, 10000);
  g_assert_cmpint (slices->dur[bar], ==, 90000);
  g_assert_true (slices->flags[bar] & SPS_SLICE_ASYNC);
  /* b URL_REQUEST_INNER 50 … e 60 under START_JOB 40 … 70 under
   * REQUEST_BAR */
  g_assert_cmpuint (slices->depth[sps_test_find_slice (trace, "URL_REQUEST_INNER", 0)], ==, 2);
  /* left open by e REQUEST_BAR, it lasts to the trace end (200) */
  open = sps_test_find_slice (trace, "URL_REQUEST_DELEGATE_UNMATCHED_BEGIN", 0);
  g_assert_cmpint (slices->ts[open], ==, 80000);
  g_assert_cmpint (slices->dur[open], ==, 120000);
  g_assert_true (slices->flags[open] & SPS_SLICE_UNFINISHED);
  /* the 8 pairs and the open one: the stray e made no slice */
  g_assert_cmpuint (slices->n_rows, ==, 9);
}

static void
spot_sampled_stacks (SpsTrace *trace)
{
  const SpsThreadTable *threads = sps_trace_get_threads (trace);

  g_assert_cmpstr (string_of (trace, threads->name[find_thread (trace, 7, 11)]), ==, "worker");
}

static void
spot_perfview_spans (SpsTrace *trace)
{
  /* spans are not samples: no stack was made up for them */
  g_assert_cmpuint (sps_trace_get_callsites (trace)->n_rows, ==, 0);
}

/* The table. Fields in order: events_read, processes, threads, slices,
 * sampled_slices, async_slices, instants, counter_tracks, counter_values,
 * flows, samples, objects, metadata, start_ns, end_ns, warnings. */

static const Expectation expectations[] = {
  {
    .file = "speedscope__simple-partial.json",
    /* six objects; the array has no closing "]" */
    .events_read = 6,
    /* every event is pid 0 tid 0 */
    .processes = 1, .threads = 1,
    /* X gamma + B/E alpha (0–14) and beta (1–13); X epsilon has no
     * "dur", so it is unfinished and not counted */
    .slices = 3,
    /* B alpha at 0 */
    .start_ns = 0,
    /* E alpha at 14 */
    .end_ns = 14000,
    /* X epsilon has "tdur" but no "dur", and lasting to the trace end
     * it outlasts beta. The missing "]" after the last complete event is
     * how the array form may end: no warning for it. */
    .warnings = { { "missing_duration", 1 }, { "overlapping_slice", 1 } },
    .spot_check = spot_simple_partial,
  },
  {
    .file = "speedscope__too-many-end-events.json",
    /* 2 B + 4 E */
    .events_read = 6,
    /* every event is pid 0 tid 0 */
    .processes = 1, .threads = 1,
    /* after the stable ts sort E gamma (5) closes beta and E delta (5)
     * closes alpha: 2 pairs */
    .slices = 2,
    /* B alpha at 0 */
    .start_ns = 0,
    /* the last stored end is alpha's at 5; the dropped E at 13 and 14 are
     * not stored */
    .end_ns = 5000,
    /* E gamma closes beta and E delta closes alpha, each by another
     * name; E beta (13) and E alpha (14) find the stack empty */
    .warnings = { { "begin_end_name_mismatch", 2 }, { "unmatched_end", 2 } },
    .spot_check = spot_too_many_end_events,
  },
  {
    .file = "tracecompass__empty_event.json",
    /* 2 X + 2 {} */
    .events_read = 4,
    /* pids "12" and "13", tids "12" and "13" */
    .processes = 2, .threads = 2,
    /* X event1, X event2 on different threads */
    .slices = 2,
    /* event1 "ts":"456123453" */
    .start_ns = G_GINT64_CONSTANT (456123453000),
    /* event2 "ts":"456123455" + "dur":"2000" */
    .end_ns = G_GINT64_CONSTANT (456125455000),
    .spot_check = spot_empty_event,
  },
  {
    .file = "tracecompass__tracecompassLog_small.json",
    /* 27 B + 27 E + 15 s + 12 t + 1 i */
    .events_read = 82,
    /* pid == tid on every event: 1 56 61 63 65 78 80 81 85 */
    .processes = 9, .threads = 9,
    /* every B is closed: 27 pairs */
    .slices = 27,
    /* "TimeGraphView:LoadingTrace" */
    .instants = 1,
    /* flow v1 identity is (cat, name, id) and every t has a name that no
     * s of the same cat and id has (e.g. s reopenTraceFromElement / t
     * createBookmarks, both id 0x1): each chain is a single point */
    .flows = 0,
    /* first B "445191683049.142" */
    .start_ns = G_GINT64_CONSTANT (445191683049142),
    /* last E "445198269104.085" */
    .end_ns = G_GINT64_CONSTANT (445198269104085),
    /* the 12 t events have no s with their (cat, name, id) */
    .warnings = { { "flow_without_start", 12 } },
    .spot_check = spot_tracecompass_log,
  },
  {
    .file = "catapult__simple_trace.json",
    /* B 8, E 8, I 6, C 5, X 4, P 3, M 3 */
    .events_read = 37,
    /* pid 22630 only; the "g" instant has no pid */
    .processes = 1,
    /* tids 22630 and 22631 carry events, 22632 only an M thread_name (the
     * importer creates the thread it names) */
    .threads = 3,
    /* 4 X + 7 B/E pairs on 22630 + 1 on 22631 */
    .slices = 12,
    /* 6 I: 1 "p", 1 "g", 4 thread */
    .instants = 6,
    /* one "counter" (pid 22630) with series "value", 5 C events */
    .counter_tracks = 1, .counter_values = 5,
    /* SampleA, SampleB (no sf), SampleC (sf 8) */
    .samples = 3,
    /* three thread_name */
    .metadata = 3,
    /* X1 at 818 */
    .start_ns = 818000,
    /* GlobalEvent1 at 880 */
    .end_ns = 880000,
    /* E "Asub" at 828 closes B "Asub with a name that wont fit" */
    .warnings = { { "begin_end_name_mismatch", 1 } },
    .spot_check = spot_simple_trace,
  },
  {
    .file = "catapult__instance_counters.json",
    /* 8 C + 2 B + 2 E */
    .events_read = 12,
    /* pid 52 tid 53 */
    .processes = 1, .threads = 1,
    /* a 9524–9560, b 9629–9631 */
    .slices = 2,
    /* "counter" with id "123" (6 values) and id "b" (2 values) */
    .counter_tracks = 2, .counter_values = 8,
    /* B a and both first counter values at 9524 */
    .start_ns = 9524000,
    /* E b and the last counter values at 9631 */
    .end_ns = 9631000,
    .spot_check = spot_instance_counters,
  },
  {
    .file = "catapult__instant_events.json",
    /* 5 i */
    .events_read = 5,
    /* pids 36092 and 36091 */
    .processes = 2,
    /* 36092/28163, 36092/28164, 36091/28160 */
    .threads = 3,
    /* 3 "t", 1 "p", 1 "g" */
    .instants = 5,
    /* "Thread size event" 510075891653 */
    .start_ns = G_GINT64_CONSTANT (510075891653000),
    /* "Thread size event" 510075964350 */
    .end_ns = G_GINT64_CONSTANT (510075964350000),
    .spot_check = spot_instant_events,
  },
  {
    .file = "catapult__nanoseconds.json",
    /* 8 B + 8 E */
    .events_read = 16,
    /* pid 1 tid 1 */
    .processes = 1, .threads = 1,
    /* 8 B/E pairs, none nested */
    .slices = 8,
    /* B us1 at 0 */
    .start_ns = 0,
    /* E ns4 at 3.021 µs */
    .end_ns = 3021,
    .spot_check = spot_nanoseconds,
  },
  {
    .file = "catapult__flow_simple.json",
    /* X 5, s 2, f 2, t 1 */
    .events_read = 10,
    /* pids 15902 15903 15875 15774 15874, one tid each */
    .processes = 5, .threads = 5,
    /* SenderA, SenderB, Blergh, OtherSlice, SomeSlice */
    .slices = 5,
    /* 8780d402: s → t → f = 2 arrows; 8780d403: s → f = 1 */
    .flows = 3,
    /* SenderB at 0 */
    .start_ns = 0,
    /* SomeSlice 3331 + 400 */
    .end_ns = 3731000,
    .spot_check = spot_flow_simple,
  },
  {
    .file = "perfetto__flow_events_json_v2.json",
    /* X 5, B 1, E 1, i 1 */
    .events_read = 8,
    /* the same five pid/tid as catapult__flow_simple.json */
    .processes = 5, .threads = 5,
    /* 5 X + SomeOtherSlice B/E */
    .slices = 6,
    /* SomeOtherSliceInstant (its "dur" means nothing) */
    .instants = 1,
    /* 0x403: SenderB → Blergh; 0x402: SenderA → OtherSlice, which binds
     * to both later flow_in: SomeSlice and SomeOtherSlice */
    .flows = 4,
    /* SenderB at 0 */
    .start_ns = 0,
    /* E SomeOtherSlice at 4330 */
    .end_ns = 4330000,
    .spot_check = spot_flow_v2,
  },
  {
    .file = "clangbuildanalyzer__clang11-pid-45.json",
    /* X 19, M 2 */
    .events_read = 21,
    /* pid 43147; tids 43147 … 43158 */
    .processes = 1, .threads = 12,
    /* 19 X */
    .slices = 19,
    /* process_name, thread_name */
    .metadata = 2,
    /* the "Total …" slices start at 0 */
    .start_ns = 0,
    /* ExecuteCompiler 11 + 7270 */
    .end_ns = 7281000,
    .spot_check = spot_clang11,
  },
  {
    .file = "viztracer__vdb_basic.json",
    /* X 9, O 6, C 4 */
    .events_read = 19,
    /* pid 3218 tid 3218 */
    .processes = 1, .threads = 1,
    /* 9 X */
    .slices = 9,
    /* C "a" with series "a" */
    .counter_tracks = 1, .counter_values = 4,
    /* 6 O */
    .objects = 6,
    /* X "t (…:25)" at 14853617516.773 */
    .start_ns = G_GINT64_CONSTANT (14853617516773),
    /* the same X ends 186.4 µs later */
    .end_ns = G_GINT64_CONSTANT (14853617703173),
    .spot_check = spot_viztracer,
  },
  {
    .file = "catapult__main_thread_has_unclosed_slices.json",
    /* B 1684, E 1680, M 22 */
    .events_read = 3386,
    /* pids 12308 and 12330; 22 (pid, tid), each named by an M */
    .processes = 2, .threads = 22,
    /* per-thread stack pairing: 1680 pairs, 4 B left open */
    .slices = 1680,
    /* 22 thread_name */
    .metadata = 22,
    /* the unclosed BrowserMain B at 714007690251 */
    .start_ns = G_GINT64_CONSTANT (714007690251000),
    /* the last ts in the file, the unclosed MessageLoop::RunTask B at
     * 714012742060 (the last pair ends at 714012742042) */
    .end_ns = G_GINT64_CONSTANT (714012742060000),
    /* 3 open B on 12308/12308, 1 on 12308/12314. 124 args are given by
     * both a B and its E (counted pair by pair over the sorted events:
     * "id" and "extra" mostly); the E's value is kept. */
    .warnings = { { "arg_overwritten", 124 }, { "unmatched_begin", 4 } },
    .spot_check = spot_unclosed_slices,
  },
  {
    .file = "hta__kineto-rocm-mi250-minitoy.json.gz",
    /* X 113, M 60, f 25, s 20, i 2 */
    .events_read = 220,
    /* numeric pids 597913 and 0…15 (named by M process_name), plus the
     * string pid "Spans" (an X and an M); the two "g" instants carry pids
     * "Traces" and "" but the importer resolves no pid for a global
     * instant */
    .processes = 18,
    /* 597913/597913, 597913/598009, 2/0, "Spans"/"PyTorch Profiler";
     * process_* M events name processes only */
    .threads = 4,
    /* 113 X */
    .slices = 113,
    /* "Iteration Start: PyTorch Profiler", "Record Window End" */
    .instants = 2,
    /* 4 fwdbwd s/f pairs + 16 ac2g s/f pairs, every point bound; the 5
     * ac2g f without an s (ids 119 120 130 131 137) give no arrow */
    .flows = 20,
    /* 17 × 3 process M + 1 process_sort_index for "Spans" + 8 thread M */
    .metadata = 60,
    /* "PyTorch Profiler (0)" X and the first "g" instant at
     * 4203669603018.756 */
    .start_ns = G_GINT64_CONSTANT (4203669603018756),
    /* "Record Window End" instant at 4203669613175.703 */
    .end_ns = G_GINT64_CONSTANT (4203669613175703),
    /* ac2g f with ids 119 120 130 131 137 have no s */
    .warnings = { { "flow_without_start", 5 } },
    .spot_check = spot_kineto,
  },
  {
    .file = "bazel-invocation-analyzer__tiny-profile.json.gz",
    /* X 528, C 122, M 50, i 7 */
    .events_read = 707,
    /* pid 1; 25 tids, each named by an M */
    .processes = 1, .threads = 25,
    /* 528 X */
    .slices = 528,
    /* 6 "build phase marker" + "Finishing" */
    .instants = 7,
    /* action count/action, CPU usage (Bazel)/cpu, Memory usage
     * (Bazel)/memory, CPU usage (total)/system cpu, Memory usage
     * (total)/system memory; every value is a numeric string */
    .counter_tracks = 5, .counter_values = 122,
    /* 25 thread_name + 25 thread_sort_index */
    .metadata = 50,
    /* "Launch Blaze" at -33000 */
    .start_ns = -33000000,
    /* the "Finishing" instant at 13980839 */
    .end_ns = G_GINT64_CONSTANT (13980839000),
    .spot_check = spot_bazel,
  },
  {
    .file = "catapult__nestable_async.json",
    /* b 9, e 9, n 2 */
    .events_read = 20,
    /* pid 26037 */
    .processes = 1,
    /* async events (and n) belong to the process, so tid 26065 is never
     * created */
    .threads = 0,
    /* (bar, 0x313): DELEGATE, INNER, START_JOB, REQUEST_BAR;
     * (foo, 0x314): INNER, START_JOB, DELEGATE, REQUEST_FOO */
    .async_slices = 8,
    /* two n */
    .instants = 2,
    /* b REQUEST_BAR at 10 */
    .start_ns = 10000,
    /* e REQUEST_FOO at 200 */
    .end_ns = 200000,
    /* URL_REQUEST_DELEGATE_UNMATCHED_BEGIN is never closed (e
     * REQUEST_BAR closes its parent and leaves it open); e
     * URL_REQUEST_DELEGATE_UNMATCHED_END has no b of that name. Each of
     * the 8 pairs gives "source_type" and "params" on both ends: 16. */
    .warnings = { { "arg_overwritten", 16 }, { "unmatched_async_begin", 1 },
                  { "unmatched_async_end", 1 } },
    .spot_check = spot_nestable_async,
  },
  {
    .file = "ours:sampled_stacks.json",
    /* 3 P + 1 M */
    .events_read = 4,
    /* pid 7, tids 11 and 12 */
    .processes = 1, .threads = 2,
    /* one per P */
    .samples = 3,
    /* thread_name of tid 11 */
    .metadata = 1,
    /* samples at 100 … 10,000 µs (4,000 on tid 12) */
    .start_ns = 100000,
    .end_ns = 10000000,
    .spot_check = spot_sampled_stacks,
  },
  {
    .file = "ours:sampled_stacks_reordered.json",
    /* the same events as sampled_stacks.json, keys reordered */
    .events_read = 4,
    .processes = 1, .threads = 2,
    .samples = 3,
    .metadata = 1,
    .start_ns = 100000,
    .end_ns = 10000000,
    .spot_check = spot_sampled_stacks,
  },
  {
    .file = "ours:perfview_spans.json",
    /* 3 B + 3 E */
    .events_read = 6,
    /* pid 3 tid 4 */
    .processes = 1, .threads = 1,
    /* all three pairs carry cat "sampleEvent" */
    .sampled_slices = 3,
    /* B at 0 */
    .start_ns = 0,
    /* E at 10 */
    .end_ns = 10000,
    .spot_check = spot_perfview_spans,
  },
};

/* Tests */

static void
test_open (gconstpointer data)
{
  const char *path = data;
  g_autoptr(SpsTrace) trace = sps_test_load_path (path);

  /* Opening is the test; a loaded trace always has a format name */
  g_assert_cmpstr (sps_trace_get_format (trace), ==, "chrome-json");
}

static void
test_shared_missing (gconstpointer data)
{
  const char *dir = data;
  g_autofree char *message = NULL;

  if (dir == NULL)
    message = g_strdup ("SPANSCOPE_SHARED_FIXTURES is not set: no real Chrome JSON files to open");
  else
    message = g_strdup_printf ("%s does not exist (no ../shared next to the project): skipping the real files", dir);

  g_test_skip (message);
}

static void
test_counts (gconstpointer data)
{
  const Expectation *expected = data;
  g_autofree char *path = dup_fixture_path (expected->file);
  g_autoptr(SpsTrace) trace = NULL;
  Info info;

  if (!check_fixture_present (expected->file, path))
    return;

  trace = sps_test_load_path (path);
  compute_info (trace, &info);
  assert_info (&info, expected);
  assert_warnings (trace, expected);

  if (expected->spot_check != NULL)
    expected->spot_check (trace);
}

/* The same figures through `spanscope-cli info --json`, key order
 * included. */
static void
test_cli_info (gconstpointer data)
{
  const Expectation *expected = data;
  const char *cli = g_getenv ("SPANSCOPE_CLI");
  g_autofree char *path = dup_fixture_path (expected->file);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GList) members = NULL;
  JsonObject *object;
  JsonObject *warnings;
  const char *argv[5];
  int status = 0;
  guint i = 0;

  if (!check_fixture_present (expected->file, path))
    return;

  if (cli == NULL || !g_file_test (cli, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("SPANSCOPE_CLI does not name an executable");
      return;
    }

  argv[0] = cli;
  argv[1] = "info";
  argv[2] = "--json";
  argv[3] = path;
  argv[4] = NULL;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error);
  g_assert_no_error (error);
  g_test_message ("stderr: %s", err);
  g_spawn_check_wait_status (status, &error);
  g_assert_no_error (error);

  parser = json_parser_new ();
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  object = json_node_get_object (json_parser_get_root (parser));

  /* json-glib keeps members in file order: "format", the counts,
   * "warnings" */
  members = json_object_get_members (object);
  /* "events" (decoded ETW/EventPipe events) comes right after
   * "instants": Chrome JSON has none */
  {
    GList *events = g_list_find_custom (members, "events", (GCompareFunc) g_strcmp0);

    g_assert_nonnull (events);
    g_assert_cmpstr (events->prev->data, ==, "instants");
    g_assert_cmpint (json_object_get_int_member (object, "events"), ==, 0);
    members = g_list_delete_link (members, events);
  }
  /* "allocations" and "gc_observations" come right after "objects": a
   * Chrome trace's allocations are its objects' lives (at most one per
   * object event), and it has no GC */
  {
    GList *allocations = g_list_find_custom (members, "allocations", (GCompareFunc) g_strcmp0);

    g_assert_nonnull (allocations);
    g_assert_cmpstr (allocations->prev->data, ==, "objects");
    g_assert_cmpstr (allocations->next->data, ==, "gc_observations");
    g_assert_cmpint (json_object_get_int_member (object, "allocations"), <=,
                     json_object_get_int_member (object, "objects"));
    g_assert_cmpint (json_object_get_int_member (object, "gc_observations"), ==, 0);
    members = g_list_delete_link (members, allocations->next);
    members = g_list_delete_link (members, allocations);
  }
  g_assert_cmpuint (g_list_length (members), ==, G_N_ELEMENTS (info_fields) + 2);
  g_assert_cmpstr (g_list_nth_data (members, 0), ==, "format");
  for (i = 0; i < G_N_ELEMENTS (info_fields); i++)
    g_assert_cmpstr (g_list_nth_data (members, i + 1), ==, info_fields[i].key);
  g_assert_cmpstr (g_list_nth_data (members, i + 1), ==, "warnings");

  g_assert_cmpstr (json_object_get_string_member (object, "format"), ==, "chrome-json");
  for (i = 0; i < G_N_ELEMENTS (info_fields); i++)
    g_assert_cmpint (json_object_get_int_member (object, info_fields[i].key), ==, expected_value (expected, i));

  warnings = json_object_get_object_member (object, "warnings");
  g_assert_nonnull (warnings);
  g_assert_cmpuint (json_object_get_size (warnings), ==, count_expected_warnings (expected));
  for (i = 0; i < count_expected_warnings (expected); i++)
    g_assert_cmpint (json_object_get_int_member (warnings, expected->warnings[i].name),
                     ==, (gint64) expected->warnings[i].count);
}

/* Our sampled fixtures (tests/fixtures, invented content) */

static guint
find_sample_at (SpsTrace *trace,
                guint     thread,
                SpsTime   ts)
{
  const SpsSampleTable *samples = sps_trace_get_samples (trace);

  for (guint i = 0; i < samples->n_rows; i++)
    if (samples->thread[i] == thread && samples->ts[i] == ts)
      return i;

  g_error ("no sample at %" G_GINT64_FORMAT, ts);
  return SPS_NO_INDEX;
}

static void
assert_sampled_stacks (SpsTrace *trace)
{
  const SpsSampleTable *samples = sps_trace_get_samples (trace);
  const SpsCallsiteTable *callsites = sps_trace_get_callsites (trace);
  guint t11 = find_thread (trace, 7, 11);
  guint t12 = find_thread (trace, 7, 12);
  guint first, second, other;
  guint32 work, root;
  guint inclusive = 0, exclusive = 0;
  double inclusive_us = 0, total_us = 0;

  /* one sample per P record */
  g_assert_cmpuint (samples->n_rows, ==, 3);

  /* thread 11: "sf": "2" (work, parent 1 = main) at 100 µs, weight 250 us */
  first = find_sample_at (trace, t11, 100000);
  /* thread 11: "sf": 1 (main, a root) at 10,000 µs, weight 500 us */
  second = find_sample_at (trace, t11, 10000000);
  /* thread 12: "sf": "2" at 4,000 µs, no weight */
  other = find_sample_at (trace, t12, 4000000);

  work = samples->callsite[first];
  g_assert_cmpuint (work, !=, SPS_NO_INDEX);
  g_assert_cmpstr (callsite_frame_name (trace, work), ==, "work");
  root = callsites->parent[work];
  g_assert_cmpuint (root, !=, SPS_NO_INDEX);
  g_assert_cmpstr (callsite_frame_name (trace, root), ==, "main");
  g_assert_cmpuint (callsites->parent[root], ==, SPS_NO_INDEX);
  g_assert_cmpuint (callsites->depth[root], ==, 0);
  g_assert_cmpuint (callsites->depth[work], ==, 1);

  /* the second sample's leaf is the root callsite itself (the prefix
   * tree is shared) */
  g_assert_cmpuint (samples->callsite[second], ==, root);

  /* valid samples keep the event's name beside the leaf frame's, which
   * names them for navigation; the raw sf is kept as written */
  g_assert_cmpstr (string_of (trace, sps_sample_table_get_event_name (samples, first)), ==, "cpu");
  g_assert_cmpstr (string_of (trace, samples->name[first]),
                   ==, string_of (trace, sps_trace_get_frames (trace)->name[
                         sps_trace_get_callsites (trace)->frame[samples->callsite[first]]]));
  g_assert_cmpstr (string_of (trace, sps_sample_table_get_raw_stack_ref (samples, first)), ==, "2");
  g_assert_cmpstr (string_of (trace, sps_sample_table_get_raw_stack_ref (samples, second)), ==, "1");

  g_assert_cmpuint (sps_sample_table_get_flags (samples, first), ==, SPS_SAMPLE_HAS_WEIGHT);
  g_assert_cmpuint (sps_sample_table_get_flags (samples, second), ==, SPS_SAMPLE_HAS_WEIGHT);
  g_assert_cmpfloat (sps_sample_table_get_weight (samples, first), ==, 250.0);
  g_assert_cmpfloat (sps_sample_table_get_weight (samples, second), ==, 500.0);
  g_assert_cmpuint (sps_sample_table_get_weight_unit (samples, first), ==, SPS_WEIGHT_UNIT_US);
  g_assert_cmpuint (sps_sample_table_get_weight_unit (samples, second), ==, SPS_WEIGHT_UNIT_US);

  /* thread 12's observation is resolved but carries no weight */
  g_assert_false (sps_sample_table_get_flags (samples, other) & SPS_SAMPLE_HAS_WEIGHT);
  g_assert_false (sps_sample_table_get_flags (samples, other) & SPS_SAMPLE_UNRESOLVED);
  g_assert_true (isnan (sps_sample_table_get_weight (samples, other)));
  g_assert_cmpuint (sps_sample_table_get_weight_unit (samples, other), ==, SPS_WEIGHT_UNIT_NONE);
  g_assert_cmpuint (samples->callsite[other], ==, work);

  /* The per-thread sample tree of thread 11: main has 2 inclusive samples
   * and 1 exclusive sample, and 250 + 500 = 750 µs estimated CPU. */
  for (guint i = 0; i < samples->n_rows; i++)
    {
      double us = NAN;

      if (sps_sample_table_get_flags (samples, i) & SPS_SAMPLE_HAS_WEIGHT)
        us = weight_to_us (sps_sample_table_get_weight (samples, i), sps_sample_table_get_weight_unit (samples, i));
      if (!isnan (us))
        total_us += us;

      if (samples->thread[i] != t11)
        continue;

      if (callsite_has_ancestor (trace, samples->callsite[i], root))
        {
          inclusive++;
          if (!isnan (us))
            inclusive_us += us;
        }
      if (samples->callsite[i] == root)
        exclusive++;
    }

  g_assert_cmpuint (inclusive, ==, 2);
  g_assert_cmpuint (exclusive, ==, 1);
  g_assert_cmpfloat (inclusive_us, ==, 750.0);
  /* The gap between thread 11's samples (9,900 µs) never becomes time:
   * all estimates together are the two weights */
  g_assert_cmpfloat (total_us, ==, 750.0);
  g_assert_cmpint (samples->ts[second] - samples->ts[first], ==, 9900000);
}

static void
test_sampled_stacks (gconstpointer data)
{
  const char *name = data;
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", name, NULL);
  g_autoptr(SpsTrace) trace = sps_test_load_path (path);

  assert_sampled_stacks (trace);
}

/* A text form of the sample, callsite and frame tables that does not
 * depend on row numbers */
static char *
dump_samples (SpsTrace *trace)
{
  const SpsSampleTable *samples = sps_trace_get_samples (trace);
  const SpsThreadTable *threads = sps_trace_get_threads (trace);
  const SpsCallsiteTable *callsites = sps_trace_get_callsites (trace);
  const SpsFrameTable *frames = sps_trace_get_frames (trace);
  GString *dump = g_string_new (NULL);

  for (guint i = 0; i < samples->n_rows; i++)
    {
      g_autofree char *stack = dup_callsite_path (trace, samples->callsite[i]);

      g_string_append_printf (dump,
                              "%" G_GINT64_FORMAT " tid=%" G_GINT64_FORMAT " %s [%s] sf=%s w=%g unit=%u flags=%u\n",
                              samples->ts[i],
                              threads->tid[samples->thread[i]],
                              string_of (trace, sps_sample_table_get_event_name (samples, i)),
                              stack,
                              string_of (trace, sps_sample_table_get_raw_stack_ref (samples, i)),
                              sps_sample_table_get_weight (samples, i),
                              sps_sample_table_get_weight_unit (samples, i),
                              sps_sample_table_get_flags (samples, i));
    }

  for (guint i = 0; i < callsites->n_rows; i++)
    {
      g_autofree char *stack = dup_callsite_path (trace, i);
      g_string_append_printf (dump, "callsite %s depth=%u\n", stack, callsites->depth[i]);
    }

  for (guint i = 0; i < frames->n_rows; i++)
    g_string_append_printf (dump, "frame %s category=%s\n",
                            string_of (trace, frames->name[i]),
                            string_of (trace, frames->category[i]));

  return g_string_free (dump, FALSE);
}

static void
test_sampled_field_order (void)
{
  g_autofree char *path1 = g_test_build_filename (G_TEST_DIST, "fixtures", "sampled_stacks.json", NULL);
  g_autofree char *path2 = g_test_build_filename (G_TEST_DIST, "fixtures", "sampled_stacks_reordered.json", NULL);
  g_autoptr(SpsTrace) trace1 = sps_test_load_path (path1);
  g_autoptr(SpsTrace) trace2 = sps_test_load_path (path2);
  g_autofree char *dump1 = dump_samples (trace1);
  g_autofree char *dump2 = dump_samples (trace2);
  Info info1, info2;

  g_test_message ("%s", dump1);

  /* stackFrames after or before traceEvents, keys in any order: the same
   * tables */
  g_assert_cmpstr (dump1, ==, dump2);

  compute_info (trace1, &info1);
  compute_info (trace2, &info2);
  g_assert_cmpmem (&info1, sizeof info1, &info2, sizeof info2);
}

typedef struct
{
  const char *name;
  SpsTime     ts;
  const char *raw_sf;
  const char *stack;
  guint       flags;
  double      weight;
  guint       unit;
} ExpectedSample;

static void
test_sampled_unresolved (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "sampled_unresolved.json", NULL);
  g_autoptr(SpsTrace) trace = sps_test_load_path (path);
  const SpsSampleTable *samples = sps_trace_get_samples (trace);
  const SpsCallsiteTable *callsites = sps_trace_get_callsites (trace);
  const ExpectedSample expected[] = {
    /* "sf": "missing" names no frame: the stack is a single frame named
     * after the event, the raw sf and the weight stay */
    { "no-such-frame", 10000, "missing", "no-such-frame",
      SPS_SAMPLE_UNRESOLVED | SPS_SAMPLE_HAS_WEIGHT, 3, SPS_WEIGHT_UNIT_US },
    /* a → b → a */
    { "in-a-cycle", 20000, "a", "in-a-cycle", SPS_SAMPLE_UNRESOLVED, NAN, SPS_WEIGHT_UNIT_NONE },
    /* c's parent "gone" is not defined */
    { "lost-parent", 30000, "c", "lost-parent", SPS_SAMPLE_UNRESOLVED, NAN, SPS_WEIGHT_UNIT_NONE },
    /* "d": 42 is not a frame object */
    { "bad-frame", 40000, "d", "bad-frame", SPS_SAMPLE_UNRESOLVED, NAN, SPS_WEIGHT_UNIT_NONE },
    /* "e" is defined twice: the last definition wins; weight 0 is a valid
     * explicit weight */
    { "redefined", 50000, "e", "second", SPS_SAMPLE_HAS_WEIGHT, 0, SPS_WEIGHT_UNIT_NS },
    /* weight 2 ms; "dur": 500 on a P is ignored */
    { "good", 60000, "f", "root;leaf", SPS_SAMPLE_HAS_WEIGHT, 2, SPS_WEIGHT_UNIT_MS },
  };

  g_assert_cmpuint (samples->n_rows, ==, G_N_ELEMENTS (expected));

  /* one thread, so table order is ts order */
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autofree char *stack = NULL;

      g_assert_cmpstr (string_of (trace, sps_sample_table_get_event_name (samples, i)), ==, expected[i].name);
      g_assert_cmpint (samples->ts[i], ==, expected[i].ts);
      g_assert_cmpstr (string_of (trace, sps_sample_table_get_raw_stack_ref (samples, i)), ==, expected[i].raw_sf);
      g_assert_cmpuint (sps_sample_table_get_flags (samples, i), ==, expected[i].flags);
      g_assert_cmpuint (sps_sample_table_get_weight_unit (samples, i), ==, expected[i].unit);
      if (isnan (expected[i].weight))
        g_assert_true (isnan (sps_sample_table_get_weight (samples, i)));
      else
        g_assert_cmpfloat (sps_sample_table_get_weight (samples, i), ==, expected[i].weight);

      g_assert_cmpuint (samples->callsite[i], !=, SPS_NO_INDEX);
      stack = dup_callsite_path (trace, samples->callsite[i]);
      g_assert_cmpstr (stack, ==, expected[i].stack);

      if (expected[i].flags & SPS_SAMPLE_UNRESOLVED)
        g_assert_cmpuint (callsites->parent[samples->callsite[i]], ==, SPS_NO_INDEX);
    }

  /* one warning per unresolved sample: missing id, cycle, missing
   * ancestor, invalid frame */
  g_assert_cmpuint (sps_trace_count_warning (trace, "unresolved_stack"), ==, 4);
  g_assert_cmpuint (sps_trace_get_n_warnings (trace), ==, 1);

  /* 2 ms = 2000 µs */
  g_assert_cmpfloat (weight_to_us (sps_sample_table_get_weight (samples, 5), sps_sample_table_get_weight_unit (samples, 5)), ==, 2000.0);
  /* the P with "dur": 500 at 60 µs is the last event: the trace ends at
   * its ts */
  g_assert_cmpint (sps_trace_get_end_time (trace), ==, 60000);
  g_assert_cmpint (sps_trace_get_start_time (trace), ==, 10000);
}

static void
test_perfview_spans (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "fixtures", "perfview_spans.json", NULL);
  g_autoptr(SpsTrace) trace = sps_test_load_path (path);
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  guint outer, inner1, inner2;
  Info info;

  compute_info (trace, &info);
  /* three spans with cat "sampleEvent": sampled, none measured */
  g_assert_cmpuint (info.sampled_slices, ==, 3);
  g_assert_cmpuint (info.slices, ==, 0);
  /* no sample counts are inferred from spans */
  g_assert_cmpuint (info.samples, ==, 0);
  g_assert_cmpuint (slices->n_rows, ==, 3);

  /* All named "Recurse": B 0, B 0, E 5, B 5, E 10, E 10. Ties keep file
   * order, so the first B is the outer frame. */
  outer = sps_test_find_slice (trace, "Recurse", 0);
  inner1 = sps_test_find_slice (trace, "Recurse", 1);
  inner2 = sps_test_find_slice (trace, "Recurse", 2);

  for (guint i = 0; i < slices->n_rows; i++)
    {
      g_assert_cmpuint (slice_track_kind (trace, i), ==, SPS_TRACK_THREAD_SAMPLED_SLICES);
      g_assert_cmpuint (slices->flags[i], ==, SPS_SLICE_SAMPLED);
      g_assert_cmpuint (slices->track[i], ==, slices->track[outer]);
    }

  /* outer 0–10 µs: 10 µs inclusive, zero self (the two inner spans
   * cover it) */
  assert_slice (trace, outer, 0, 10000, 0, NULL);
  g_assert_cmpint (slices->self_time[outer], ==, 0);
  /* same-name recursive frames stay distinct */
  assert_slice (trace, inner1, 0, 5000, 1, "Recurse");
  g_assert_cmpuint (slices->parent[inner1], ==, outer);
  g_assert_cmpint (slices->self_time[inner1], ==, 5000);
  assert_slice (trace, inner2, 5000, 5000, 1, "Recurse");
  g_assert_cmpuint (slices->parent[inner2], ==, outer);
  g_assert_cmpint (slices->self_time[inner2], ==, 5000);
}

static char *
dup_test_path (const char *prefix,
               const char *file)
{
  if (g_str_has_prefix (file, "ours:"))
    return g_strconcat (prefix, "/ours/", file + strlen ("ours:"), NULL);
  return g_strconcat (prefix, "/", file, NULL);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  const char * const *name_a = a;
  const char * const *name_b = b;

  return strcmp (*name_a, *name_b);
}

static void
add_open_tests (void)
{
  g_autofree char *dir = dup_shared_chrome_dir ();
  g_autoptr(GDir) listing = NULL;
  g_autoptr(GPtrArray) names = NULL;
  const char *name;

  if (dir == NULL || !g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_test_add_data_func_full ("/chrome/fixtures/open/missing",
                                 g_steal_pointer (&dir), test_shared_missing, g_free);
      return;
    }

  listing = g_dir_open (dir, 0, NULL);
  g_assert_nonnull (listing);

  names = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (listing)) != NULL)
    if (g_str_has_suffix (name, ".json") || g_str_has_suffix (name, ".json.gz"))
      g_ptr_array_add (names, g_strdup (name));

  /* Stable test order whatever the directory order */
  g_ptr_array_sort (names, compare_names);

  for (guint i = 0; i < names->len; i++)
    {
      const char *file = g_ptr_array_index (names, i);
      g_autofree char *test_path = g_strconcat ("/chrome/fixtures/open/", file, NULL);

      g_test_add_data_func_full (test_path, g_build_filename (dir, file, NULL), test_open, g_free);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  add_open_tests ();

  for (guint i = 0; i < G_N_ELEMENTS (expectations); i++)
    {
      g_autofree char *counts_path = dup_test_path ("/chrome/fixtures/counts", expectations[i].file);
      g_autofree char *cli_path = dup_test_path ("/chrome/fixtures/cli-info", expectations[i].file);

      g_test_add_data_func (counts_path, &expectations[i], test_counts);
      g_test_add_data_func (cli_path, &expectations[i], test_cli_info);
    }

  g_test_add_data_func ("/chrome/fixtures/sampled/stacks", "sampled_stacks.json", test_sampled_stacks);
  g_test_add_data_func ("/chrome/fixtures/sampled/stacks-reordered", "sampled_stacks_reordered.json", test_sampled_stacks);
  g_test_add_func ("/chrome/fixtures/sampled/field-order", test_sampled_field_order);
  g_test_add_func ("/chrome/fixtures/sampled/unresolved", test_sampled_unresolved);
  g_test_add_func ("/chrome/fixtures/perfview/spans", test_perfview_spans);

  return g_test_run ();
}
