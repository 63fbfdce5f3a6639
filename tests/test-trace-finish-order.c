/* test-trace-finish-order.c: how finish() orders the tables without durations
 *
 * Samples, raw samples, instants and counter values are ordered by
 * (track, ts), ties in input order, without a track column or a position
 * per row: finish() counts each track's rows, deals the rows to their
 * tracks, sorts only the tracks found out of time order, and moves each
 * column by that order, in place when few rows move. Each test builds
 * rows in one input pattern (already in order, tracks interleaved but each
 * in order, a few rows swapped, shuffled, times spread over 2^62 ns) and
 * checks every row against the straightforward answer: a comparison sort
 * of (track, ts, input index), where each row carries its input index in
 * a column of its own (the weight, the args, the value). Events also
 * check the instants' kind and scope, which the builder stores once until
 * a row differs.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <spanscope-core.h>

typedef enum
{
  PATTERN_SORTED,        /* one track after the other, each in time order */
  PATTERN_INTERLEAVED,   /* tracks take turns, each in time order */
  PATTERN_FEW_SWAPS,     /* sorted, one pair in 40 swapped in time */
  PATTERN_SHUFFLED,      /* random times with many ties */
  PATTERN_WIDE,          /* random times over 2^62 ns */
} Pattern;

static const Pattern patterns[] = {
  PATTERN_SORTED, PATTERN_INTERLEAVED, PATTERN_FEW_SWAPS, PATTERN_SHUFFLED, PATTERN_WIDE,
};

typedef struct
{
  guint32 track;
  SpsTime ts;
  guint   input;
} Expected;

static int
compare_expected (gconstpointer a,
                  gconstpointer b,
                  gpointer      user_data)
{
  const Expected *x = a;
  const Expected *y = b;

  if (x->track != y->track)
    return x->track < y->track ? -1 : 1;
  if (x->ts != y->ts)
    return x->ts < y->ts ? -1 : 1;
  return x->input < y->input ? -1 : x->input > y->input;
}

/* One test's input: @n rows, each of an owner (a thread, a scope, a
 * counter series) that decides its track */
typedef struct
{
  SpsTraceBuilder *b;
  GRand           *rng;
  Expected        *expected;
  guint           *owners;
  guint            n;
  guint32          process;
} Case;

static void
case_init (Case    *c,
           guint    n,
           guint32  seed)
{
  c->b = sps_trace_builder_new ();
  c->rng = g_rand_new_with_seed (seed);
  c->expected = g_new (Expected, n);
  c->owners = g_new (guint, n);
  c->n = n;
  c->process = sps_trace_builder_ensure_process (c->b, 1);
}

static void
case_clear (Case *c)
{
  g_clear_object (&c->b);
  g_clear_pointer (&c->rng, g_rand_free);
  g_clear_pointer (&c->expected, g_free);
  g_clear_pointer (&c->owners, g_free);
}

/* The straightforward answer: each row on its owner's track, sorted by
 * (track, ts, input) */
static void
case_sort (Case          *c,
           const guint32 *owner_track)
{
  for (guint i = 0; i < c->n; i++)
    {
      g_assert_cmpuint (owner_track[c->owners[i]], !=, SPS_NO_INDEX);
      c->expected[i].track = owner_track[c->owners[i]];
    }
  g_qsort_with_data (c->expected, c->n, sizeof (Expected), compare_expected, NULL);
}

/* The owner (0 … @n_owners − 1) and time of input row @i of @n in
 * @pattern */
static void
input_row (Pattern  pattern,
           guint    i,
           guint    n,
           guint    n_owners,
           GRand   *rng,
           guint   *owner,
           SpsTime *ts)
{
  guint per_owner = (n + n_owners - 1) / n_owners;

  switch (pattern)
    {
    case PATTERN_SORTED:
      *owner = i / per_owner;
      *ts = 1000 + 10 * (SpsTime) (i % per_owner);
      break;
    case PATTERN_INTERLEAVED:
      *owner = i % n_owners;
      *ts = 1000 + 10 * (SpsTime) (i / n_owners);
      break;
    case PATTERN_FEW_SWAPS:
      /* As sorted, but rows 40k and 40k + 1 of each owner trade their
       * times: one row in 20 moves, which finish() does in place */
      *owner = i / per_owner;
      *ts = 1000 + 10 * (SpsTime) (i % per_owner);
      if (i % per_owner % 40 == 0 && i % per_owner + 1 < per_owner && i + 1 < n)
        *ts += 10;
      else if (i % per_owner % 40 == 1)
        *ts -= 10;
      break;
    case PATTERN_SHUFFLED:
      *owner = g_rand_int_range (rng, 0, n_owners);
      *ts = g_rand_int_range (rng, 0, (gint32) MAX (n / 4, 2));
      break;
    case PATTERN_WIDE:
      *owner = g_rand_int_range (rng, 0, n_owners);
      *ts = (SpsTime) (((guint64) g_rand_int (rng) << 32 | g_rand_int (rng)) >> 2);
      break;
    default:
      g_assert_not_reached ();
    }
}

/* The track of @kind on @thread of @process (SPS_NO_INDEX: any), named
 * @name (0: any) */
static guint32
find_track (const SpsTrackTable *tracks,
            SpsTrackKind         kind,
            guint32              process,
            guint32              thread,
            guint32              name)
{
  for (guint32 t = 0; t < tracks->n_rows; t++)
    if (tracks->kind[t] == kind && tracks->thread[t] == thread &&
        (process == SPS_NO_INDEX || tracks->process[t] == process) &&
        (name == 0 || tracks->name[t] == name))
      return t;
  /* An owner without rows has no track */
  return SPS_NO_INDEX;
}

/* Each row's track is @expected's, and the tracks of @kind say where
 * their rows are (when @check_ranges: raw samples leave them to samples) */
static void
check_tracks (const SpsTrackTable *tracks,
              const guint32       *track,
              const Expected      *expected,
              guint                n,
              SpsTrackKind         kind,
              gboolean             check_ranges)
{
  for (guint i = 0; i < n; i++)
    g_assert_cmpuint (track[i], ==, expected[i].track);
  if (!check_ranges)
    return;
  for (guint32 t = 0; t < tracks->n_rows; t++)
    if (tracks->kind[t] == kind)
      for (guint32 i = 0; i < tracks->n_rows_in_track[t]; i++)
        g_assert_cmpuint (track[tracks->first_row[t] + i], ==, t);
}

#define N_THREADS 3

/* Samples (or raw samples) on N_THREADS threads, the weight holding each
 * row's input index, the callsite one of three */
static void
check_samples (Pattern  pattern,
               guint    n,
               gboolean raw)
{
  Case c;
  g_autoptr(SpsTrace) trace = NULL;
  guint32 name;
  guint32 threads[N_THREADS];
  guint32 owner_track[N_THREADS];
  guint32 callsites[3];
  guint32 frame_names[3];
  const SpsTrackTable *tracks;
  const SpsSampleTable *samples;

  case_init (&c, n, n * 7 + pattern);
  name = sps_trace_builder_intern (c.b, "cpu", -1);
  for (guint t = 0; t < N_THREADS; t++)
    threads[t] = sps_trace_builder_ensure_thread (c.b, c.process, 100 + t);
  for (guint k = 0; k < G_N_ELEMENTS (callsites); k++)
    {
      g_autofree char *frame_name = g_strdup_printf ("frame%u", k);
      guint32 frame;

      frame_names[k] = sps_trace_builder_intern (c.b, frame_name, -1);
      frame = sps_trace_builder_intern_frame (c.b, frame_names[k], 0, 0, 0);
      callsites[k] = sps_trace_builder_intern_callsite (c.b, SPS_NO_INDEX, frame);
    }
  /* Raw samples need a sample track: one sample per thread, at the end */
  if (raw)
    for (guint t = 0; t < N_THREADS; t++)
      sps_trace_builder_add_sample (c.b, threads[t], G_MAXINT64 - 1, name, SPS_NO_INDEX, 0, 0,
                                    SPS_WEIGHT_UNIT_NONE, SPS_SAMPLE_NONE);

  for (guint i = 0; i < n; i++)
    {
      SpsTime ts;

      input_row (pattern, i, n, N_THREADS, c.rng, &c.owners[i], &ts);
      if (raw)
        sps_trace_builder_add_raw_sample (c.b, threads[c.owners[i]], ts, name, callsites[i % 3], 0, i,
                                          SPS_WEIGHT_UNIT_NONE, SPS_SAMPLE_HAS_WEIGHT);
      else
        sps_trace_builder_add_sample (c.b, threads[c.owners[i]], ts, name, callsites[i % 3], 0, i,
                                      SPS_WEIGHT_UNIT_NONE, SPS_SAMPLE_HAS_WEIGHT);
      c.expected[i].ts = ts;
      c.expected[i].input = i;
    }

  trace = sps_trace_builder_finish (c.b, NULL, NULL);
  tracks = sps_trace_get_tracks (trace);
  for (guint t = 0; t < N_THREADS; t++)
    owner_track[t] = find_track (tracks, SPS_TRACK_THREAD_SAMPLES, c.process, threads[t], 0);
  case_sort (&c, owner_track);

  samples = raw ? sps_trace_get_raw_samples (trace) : sps_trace_get_samples (trace);
  g_assert_cmpuint (samples->n_rows, ==, n);
  for (guint i = 0; i < n; i++)
    {
      guint input = c.expected[i].input;

      g_assert_cmpint (samples->ts[i], ==, c.expected[i].ts);
      g_assert_cmpfloat (sps_sample_table_get_weight (samples, i), ==, input);
      g_assert_cmpuint (samples->thread[i], ==, threads[c.owners[input]]);
      g_assert_cmpuint (samples->callsite[i], ==, callsites[input % 3]);
      /* A sample is named by its leaf frame */
      g_assert_cmpuint (samples->name[i], ==, frame_names[input % 3]);
    }
  check_tracks (tracks, samples->track, c.expected, n, SPS_TRACK_THREAD_SAMPLES, !raw);
  case_clear (&c);
}

static void
test_samples (void)
{
  g_test_summary ("Samples ordered by (track, ts, input) in every input pattern, checked against "
                  "a comparison sort: every column follows its row");

  for (guint p = 0; p < G_N_ELEMENTS (patterns); p++)
    {
      check_samples (patterns[p], 5000, FALSE);
      check_samples (patterns[p], 1, FALSE);
    }
  /* 11-bit digits in the radix sort of one track */
  check_samples (PATTERN_SHUFFLED, 250000, FALSE);
}

static void
test_raw_samples (void)
{
  g_test_summary ("Raw samples ordered by (track, ts, input) on the sample tracks, whose row "
                  "ranges stay those of the samples");

  for (guint p = 0; p < G_N_ELEMENTS (patterns); p++)
    check_samples (patterns[p], 3000, TRUE);
}

/* Finishes @c's instants, owned by 2 threads (owners 0 and 1), their
 * process (owner 2) or no one (owner 3), and sorts the expected rows */
static SpsTrace *
finish_instants (Case          *c,
                 const guint32 *threads)
{
  SpsTrace *trace = sps_trace_builder_finish (c->b, NULL, NULL);
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  guint32 owner_track[4];

  owner_track[0] = find_track (tracks, SPS_TRACK_THREAD_INSTANTS, c->process, threads[0], 0);
  owner_track[1] = find_track (tracks, SPS_TRACK_THREAD_INSTANTS, c->process, threads[1], 0);
  owner_track[2] = find_track (tracks, SPS_TRACK_PROCESS_INSTANTS, c->process, SPS_NO_INDEX, 0);
  owner_track[3] = find_track (tracks, SPS_TRACK_GLOBAL_INSTANTS, SPS_NO_INDEX, SPS_NO_INDEX, 0);
  case_sort (c, owner_track);
  return trace;
}

/* Instants of each scope: 2 threads' (owners 0 and 1), their process's
 * (owner 2) and global ones (owner 3); the args hold the input index */
static void
check_instants (Pattern pattern,
                guint   n)
{
  Case c;
  g_autoptr(SpsTrace) trace = NULL;
  guint32 threads[2];
  guint32 names[4];
  const SpsTrackTable *tracks;
  const SpsInstantTable *instants;

  case_init (&c, n, n * 11 + pattern);
  threads[0] = sps_trace_builder_ensure_thread (c.b, c.process, 10);
  threads[1] = sps_trace_builder_ensure_thread (c.b, c.process, 11);
  for (guint o = 0; o < G_N_ELEMENTS (names); o++)
    {
      g_autofree char *name = g_strdup_printf ("instant%u", o);

      names[o] = sps_trace_builder_intern (c.b, name, -1);
    }

  for (guint i = 0; i < n; i++)
    {
      SpsInstantScope scope;
      guint owner;
      SpsTime ts;

      input_row (pattern, i, n, G_N_ELEMENTS (names), c.rng, &c.owners[i], &ts);
      owner = c.owners[i];
      scope = owner < 2 ? SPS_INSTANT_SCOPE_THREAD :
              owner == 2 ? SPS_INSTANT_SCOPE_PROCESS : SPS_INSTANT_SCOPE_GLOBAL;
      sps_trace_builder_add_instant (c.b, i % 2 ? SPS_INSTANT_KIND_MARK : SPS_INSTANT_KIND_INSTANT, scope,
                                     c.process, owner < 2 ? threads[owner] : SPS_NO_INDEX, ts,
                                     names[owner], 0, (SpsArgsRef) i);
      c.expected[i].ts = ts;
      c.expected[i].input = i;
    }

  trace = finish_instants (&c, threads);
  tracks = sps_trace_get_tracks (trace);

  instants = sps_trace_get_instants (trace);
  g_assert_cmpuint (instants->n_rows, ==, n);
  for (guint i = 0; i < n; i++)
    {
      guint input = c.expected[i].input;

      g_assert_cmpint (instants->ts[i], ==, c.expected[i].ts);
      g_assert_cmpuint (instants->args[i], ==, input);
      g_assert_cmpuint (instants->name[i], ==, names[c.owners[input]]);
      g_assert_cmpuint (instants->kind[i], ==, input % 2 ? SPS_INSTANT_KIND_MARK : SPS_INSTANT_KIND_INSTANT);
    }
  check_tracks (tracks, instants->track, c.expected, n, SPS_TRACK_THREAD_INSTANTS, TRUE);
  check_tracks (tracks, instants->track, c.expected, n, SPS_TRACK_PROCESS_INSTANTS, TRUE);
  check_tracks (tracks, instants->track, c.expected, n, SPS_TRACK_GLOBAL_INSTANTS, TRUE);
  case_clear (&c);
}

static void
test_instants (void)
{
  g_test_summary ("Thread, process and global instants ordered by (track, ts, input) in every "
                  "input pattern, checked against a comparison sort");

  for (guint p = 0; p < G_N_ELEMENTS (patterns); p++)
    check_instants (patterns[p], 4000);
}

/* Events on 2 threads (kind and scope stored once in the builder), in
 * shuffled time order; with @other_at < @n, the row @other_at is a mark
 * of the process instead, which stores both columns per row from there */
static void
check_events (guint n,
              guint other_at)
{
  Case c;
  g_autoptr(SpsTrace) trace = NULL;
  guint32 threads[2];
  guint32 name;
  const SpsInstantTable *instants;

  case_init (&c, n, n * 17 + other_at);
  threads[0] = sps_trace_builder_ensure_thread (c.b, c.process, 10);
  threads[1] = sps_trace_builder_ensure_thread (c.b, c.process, 11);
  name = sps_trace_builder_intern (c.b, "Provider/Task/Opcode", -1);
  for (guint i = 0; i < n; i++)
    {
      SpsTime ts;

      input_row (PATTERN_SHUFFLED, i, n, 2, c.rng, &c.owners[i], &ts);
      if (i == other_at)
        {
          c.owners[i] = 2;
          sps_trace_builder_add_instant (c.b, SPS_INSTANT_KIND_MARK, SPS_INSTANT_SCOPE_PROCESS, c.process,
                                         SPS_NO_INDEX, ts, name, 0, (SpsArgsRef) i);
        }
      else
        sps_trace_builder_add_event (c.b, threads[c.owners[i]], ts, 0, name, 0, (SpsArgsRef) i);
      c.expected[i].ts = ts;
      c.expected[i].input = i;
    }

  trace = finish_instants (&c, threads);

  instants = sps_trace_get_instants (trace);
  g_assert_cmpuint (instants->n_rows, ==, n);
  for (guint i = 0; i < n; i++)
    {
      guint input = c.expected[i].input;

      g_assert_cmpint (instants->ts[i], ==, c.expected[i].ts);
      g_assert_cmpuint (instants->args[i], ==, input);
      g_assert_cmpuint (instants->kind[i], ==, input == other_at ? SPS_INSTANT_KIND_MARK : SPS_INSTANT_KIND_EVENT);
      g_assert_cmpuint (instants->track[i], ==, c.expected[i].track);
    }
  case_clear (&c);
}

static void
test_events (void)
{
  g_test_summary ("Events of one kind and scope (both stored once in the builder), then one "
                  "process mark first, in the middle and last: every row keeps its kind and track");

  check_events (3000, G_MAXUINT);
  check_events (3000, 0);
  check_events (3000, 1);
  check_events (3000, 1500);
  check_events (3000, 2999);
}

/* Values of 3 counter series, each value its input index */
static void
check_counters (Pattern pattern,
                guint   n)
{
  Case c;
  g_autoptr(SpsTrace) trace = NULL;
  guint32 counters[3];
  guint32 names[3];
  guint32 owner_track[3];
  const SpsTrackTable *tracks;
  const SpsCounterTable *values;

  case_init (&c, n, n * 13 + pattern);
  for (guint k = 0; k < G_N_ELEMENTS (counters); k++)
    {
      g_autofree char *name = g_strdup_printf ("counter%u", k);

      names[k] = sps_trace_builder_intern (c.b, name, -1);
      counters[k] = sps_trace_builder_ensure_counter_track (c.b, c.process, names[k], 0);
    }
  for (guint i = 0; i < n; i++)
    {
      SpsTime ts;

      input_row (pattern, i, n, G_N_ELEMENTS (counters), c.rng, &c.owners[i], &ts);
      sps_trace_builder_add_counter_value (c.b, counters[c.owners[i]], ts, i);
      c.expected[i].ts = ts;
      c.expected[i].input = i;
    }

  trace = sps_trace_builder_finish (c.b, NULL, NULL);
  tracks = sps_trace_get_tracks (trace);
  for (guint k = 0; k < G_N_ELEMENTS (counters); k++)
    owner_track[k] = find_track (tracks, SPS_TRACK_COUNTER, c.process, SPS_NO_INDEX, names[k]);
  case_sort (&c, owner_track);

  values = sps_trace_get_counters (trace);
  g_assert_cmpuint (values->n_rows, ==, n);
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpint (values->ts[i], ==, c.expected[i].ts);
      g_assert_cmpfloat (values->value[i], ==, c.expected[i].input);
    }
  check_tracks (tracks, values->track, c.expected, n, SPS_TRACK_COUNTER, TRUE);
  case_clear (&c);
}

static void
test_counters (void)
{
  g_test_summary ("Counter values ordered by (track, ts, input) in every input pattern, checked "
                  "against a comparison sort");

  for (guint p = 0; p < G_N_ELEMENTS (patterns); p++)
    check_counters (patterns[p], 4000);
}

/* An empty table: no order, no columns, no crash */
static void
test_empty (void)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  g_autoptr(SpsTrace) trace = NULL;
  guint32 process = sps_trace_builder_ensure_process (b, 1);

  g_test_summary ("A trace with a process and no rows finishes with empty tables");

  sps_trace_builder_ensure_thread (b, process, 1);
  trace = sps_trace_builder_finish (b, NULL, NULL);
  g_assert_cmpuint (sps_trace_get_samples (trace)->n_rows, ==, 0);
  g_assert_cmpuint (sps_trace_get_raw_samples (trace)->n_rows, ==, 0);
  g_assert_cmpuint (sps_trace_get_instants (trace)->n_rows, ==, 0);
  g_assert_cmpuint (sps_trace_get_counters (trace)->n_rows, ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/finish/order/samples", test_samples);
  g_test_add_func ("/core/finish/order/raw-samples", test_raw_samples);
  g_test_add_func ("/core/finish/order/instants", test_instants);
  g_test_add_func ("/core/finish/order/events", test_events);
  g_test_add_func ("/core/finish/order/counters", test_counters);
  g_test_add_func ("/core/finish/order/empty", test_empty);

  return g_test_run ();
}
