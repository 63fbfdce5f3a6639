/* test-etrace-live.c: a live capture's trace, built from a decoder kept
 * between updates, is the trace a load of the same bytes gives
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>
#include <spanscope-core.h>

#include "etrace-stream.h"
#include "sps-etrace-live-decoder.h"
#include "sps-test-trace.h"
#include "sps-test-util.h"
#include "sps-trace-private.h"

#define START  1
#define END    2
#define MARKER 3
#define NONE   (-1)

#define N_ROUNDS 40

/* A capture with everything that crosses an update: spans open across
 * cuts (ctl_task runs over ten rounds), deadline misses (gyro_isr's
 * deadline is 500 ns; every third round it runs 700), lost frames
 * (round 15 skips three sequence numbers), garbage (round 25: bytes that
 * are not frames), an end without a start (round 30) and a span still
 * open at the end. @round_end: where each round's bytes end. */
static GByteArray *
make_capture (gsize *round_end)
{
  GByteArray *s = g_byte_array_new ();
  guint32 seq = 0;
  static const guint8 garbage[] = { 0xff, 0xff, 0x00, 0x7f, 0x13 };

  etrace_stream_start (s, 1000, seq++, FALSE, 0);
  etrace_stream_name (s, 1000, seq++, 1, "gyro_isr", 1, 8, 0.0005f);
  etrace_stream_name (s, 1000, seq++, 2, "ctl_task", 2, 3, NAN);
  etrace_stream_name (s, 1000, seq++, 3, "tick", 0, 0, NAN);

  for (guint i = 0; i < N_ROUNDS; i++)
    {
      if (i == 15)
        seq += 3;
      if (i == 25)
        g_byte_array_append (s, garbage, sizeof garbage);
      if (i % 10 == 0)
        etrace_stream_event (s, START, 10, seq++, 2, NONE);
      etrace_stream_event (s, START, 100, seq++, 1, NONE);
      etrace_stream_event (s, MARKER, 50, seq++, 3, i);
      etrace_stream_event (s, END, i % 3 == 0 ? 700 : 200, seq++, 1, NONE);
      if (i % 10 == 7)
        etrace_stream_event (s, END, 10, seq++, 2, NONE);
      if (i == 30)
        etrace_stream_event (s, END, 10, seq++, 1, NONE);
      round_end[i] = s->len;
    }
  /* Never ends */
  etrace_stream_event (s, START, 10, seq++, 2, NONE);

  return s;
}

/* A live decoder whose messages name @file, as a load of it does */
static SpsLiveDecoder *
decoder_for (GFile *file)
{
  g_autofree char *name = g_file_get_parse_name (file);

  return sps_etrace_live_decoder_new (name);
}

static void
remove_temp (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);

  sps_test_remove_tree (dir);
}

static void
write_prefix (const char   *path,
              GByteArray   *capture,
              gsize         len)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, (const char *) capture->data, (gssize) len, &error);
  g_assert_no_error (error);
}

static int
compare_offsets (gconstpointer a,
                 gconstpointer b)
{
  gsize oa = *(const gsize *) a;
  gsize ob = *(const gsize *) b;

  return oa < ob ? -1 : oa > ob;
}

/* What the builds of @decoder's pairing did: kept it, started it over,
 * paired apart */
static void
assert_counts (SpsLiveDecoder *decoder,
               guint           kept,
               guint           restarted,
               guint           apart)
{
  SpsEtraceLiveCounts counts;

  sps_etrace_live_decoder_get_counts (decoder, &counts);
  g_assert_cmpuint (counts.kept, ==, kept);
  g_assert_cmpuint (counts.restarted, ==, restarted);
  g_assert_cmpuint (counts.apart, ==, apart);
}

/* Every generation @kept (built at @kept_cuts) still reads as a load of
 * its bytes after the later builds: they add their spans to the args
 * store the generations share, or start a new one over */
static void
assert_kept (GPtrArray  *kept,
             GArray     *kept_cuts,
             GByteArray *capture,
             GFile      *file)
{
  g_autofree char *path = g_file_get_path (file);

  g_assert_cmpuint (kept->len, >, 0);
  for (guint k = 0; k < kept->len; k++)
    {
      g_autoptr(SpsTrace) loaded = NULL;
      g_autoptr(GError) error = NULL;

      write_prefix (path, capture, g_array_index (kept_cuts, gsize, k));
      loaded = sps_trace_load (file, NULL, NULL, SPS_LOAD_FLAGS_NONE, NULL, NULL, &error);
      g_assert_no_error (error);
      sps_test_assert_same_trace (g_ptr_array_index (kept, k), loaded);
    }
}

/* Builds @copy and compares its trace with a load of the first @cut
 * bytes written to @file (whose name the messages hold). Returns the
 * live trace, or %NULL with @error set when the load does not recognise
 * the bytes. */
static SpsTrace *
build_and_compare (SpsLiveDecoder  *copy,
                   GByteArray      *capture,
                   gsize            cut,
                   GFile           *file,
                   GError         **error)
{
  g_autoptr(SpsTrace) live = NULL;
  g_autoptr(SpsTrace) loaded = NULL;
  g_autofree char *path = g_file_get_path (file);

  live = sps_live_decoder_load (copy, NULL, file, NULL);
  g_assert_nonnull (live);

  write_prefix (path, capture, cut);
  if (!(loaded = sps_trace_load (file, NULL, NULL, SPS_LOAD_FLAGS_NONE, NULL, NULL, error)))
    return NULL;
  sps_test_assert_same_trace (live, loaded);

  return g_steal_pointer (&live);
}

/* Feeds @decoder the bytes from *@fed to @cut in reads of 1–17 bytes,
 * then builds a copy of it and compares it with a load of the same
 * bytes (build_and_compare()). */
static SpsTrace *
feed_and_compare (SpsLiveDecoder  *decoder,
                  GRand           *rand,
                  gsize           *fed,
                  GByteArray      *capture,
                  gsize            cut,
                  GFile           *file,
                  GError         **error)
{
  g_autoptr(SpsLiveDecoder) copy = NULL;

  while (*fed < cut)
    {
      gsize chunk = (gsize) g_rand_int_range (rand, 1, 18);
      gsize n = MIN (chunk, cut - *fed);

      sps_live_decoder_feed (decoder, capture->data + *fed, n);
      *fed += n;
    }

  copy = sps_live_decoder_copy (decoder);

  return build_and_compare (copy, capture, cut, file, error);
}

/* The decoder is fed the capture in chunks of 1–17 bytes (frames split
 * across reads everywhere), and at each cut a copy of it is built and
 * compared with a load of the bytes so far. The original goes on, so a
 * copy must leave it as it was. */
static void
test_cuts (void)
{
  gsize round_end[N_ROUNDS];
  g_autoptr(GByteArray) capture = make_capture (round_end);
  g_autofree char *path = sps_test_write_temp ("test-etrace-live-XXXXXX", "capture.etrace", "", 0);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(SpsLiveDecoder) decoder = decoder_for (file);
  g_autoptr(GArray) cuts = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autoptr(GRand) rand = g_rand_new_with_seed (19);
  g_autoptr(GByteArray) header = g_byte_array_new ();
  g_autoptr(GPtrArray) kept = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GArray) kept_cuts = g_array_new (FALSE, FALSE, sizeof (gsize));
  gsize fed = 0;
  guint n_checked = 0;
  guint n_unrecognised = 0;

  etrace_stream_start (header, 1000, 0, FALSE, 0);

  /* Between frames, inside a frame, inside the garbage, every 11 bytes,
   * and the end */
  for (guint i = 0; i < N_ROUNDS; i += 3)
    {
      gsize cut[] = { round_end[i], round_end[i] + 3 };

      g_array_append_vals (cuts, cut, G_N_ELEMENTS (cut));
    }
  for (gsize c = 1; c < capture->len; c += 11)
    g_array_append_val (cuts, c);
  g_array_append_val (cuts, round_end[24]);
  {
    gsize in_garbage = round_end[24] + 2;

    g_array_append_val (cuts, in_garbage);
  }
  g_array_append_val (cuts, capture->len);
  g_array_sort (cuts, compare_offsets);

  for (guint k = 0; k < cuts->len; k++)
    {
      gsize cut = MIN (g_array_index (cuts, gsize, k), capture->len);
      g_autoptr(SpsTrace) live = NULL;
      g_autoptr(GError) error = NULL;
      SpsEtraceLiveCounts before, after;

      sps_etrace_live_decoder_get_counts (decoder, &before);
      live = feed_and_compare (decoder, rand, &fed, capture, cut, file, &error);
      sps_etrace_live_decoder_get_counts (decoder, &after);
      /* Every build pairs on from the last, but while frames after the
       * garbage wait to be confirmed (the end of the stream decodes
       * them, which the original has not), and none starts over: v2's
       * times only grow */
      g_assert_cmpuint (after.kept + after.apart, ==, before.kept + before.apart + 1);
      g_assert_cmpuint (after.restarted, ==, 0);
      if (after.apart > before.apart)
        {
          g_assert_cmpuint (cut, >, round_end[24]);
          g_assert_cmpuint (cut, <, round_end[28]);
        }
      /* Before its stream header is whole no importer recognises the
       * file (the live window waits for more then) */
      if (cut < header->len)
        {
          g_assert_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_UNKNOWN_FORMAT);
          n_unrecognised++;
          continue;
        }
      g_assert_no_error (error);
      n_checked++;
      g_ptr_array_add (kept, g_object_ref (live));
      g_array_append_val (kept_cuts, cut);

      /* Rounds 0–9 by hand: ten gyro_isr spans, ten ticks, ctl_task
       * started once and open (unfinished) until round 7 ends it */
      if (cut == round_end[9])
        {
          g_assert_cmpuint (sps_trace_get_instants (live)->n_rows, ==, 10);
          g_assert_cmpuint (sps_trace_get_slices (live)->n_rows, ==, 11);
          g_assert_cmpuint (sps_trace_count_warning (live, "lost_frames"), ==, 0);
          g_assert_cmpuint (sps_trace_get_events_read (live), ==, 4 + 10 * 3 + 2);
        }
    }

  /* The whole capture, by hand: one stretch of garbage; the three
   * sequence numbers skipped at round 15 are lost (and whatever frames
   * the garbage swallowed: at least 3); round 30's second end of gyro_isr
   * has no start (so at least 1); ctl_task's last start never ends */
  {
    g_autoptr(SpsTrace) last = NULL;
    g_autoptr(SpsLiveDecoder) copy = sps_live_decoder_copy (decoder);

    last = sps_live_decoder_load (copy, NULL, file, NULL);
    g_assert_cmpuint (sps_trace_count_warning (last, "lost_frames"), >=, 3);
    g_assert_cmpuint (sps_trace_count_warning (last, "desync"), ==, 1);
    g_assert_cmpuint (sps_trace_count_warning (last, "unmatched_end"), >=, 1);
    g_assert_cmpuint (sps_trace_count_warning (last, "open_at_end"), ==, 1);
  }

  assert_kept (kept, kept_cuts, capture, file);

  /* Only the cut at byte 1 falls inside the header */
  g_assert_cmpuint (n_unrecognised, ==, 1);
  g_assert_cmpuint (n_checked, ==, cuts->len - 1);

  /* One build per cut and the last one: paired apart only in the stretch
   * after the garbage */
  {
    SpsEtraceLiveCounts counts;
    guint n_waiting = 0;

    for (guint k = 0; k < cuts->len; k++)
      if (g_array_index (cuts, gsize, k) > round_end[24] && g_array_index (cuts, gsize, k) < round_end[28])
        n_waiting++;
    sps_etrace_live_decoder_get_counts (decoder, &counts);
    g_assert_cmpuint (counts.kept + counts.apart, ==, cuts->len + 1);
    g_assert_cmpuint (counts.apart, <=, n_waiting);
    g_assert_cmpuint (counts.restarted, ==, 0);
  }
  remove_temp (path);
}

/* Each update grows the trace of the one before (sps_live_decoder_grow())
 * and is a load of the same bytes, row for row: cuts at random places
 * (1 byte to a few rounds apart; some with no new frame), so spans are
 * open across updates, and the lost frames, the garbage and the end
 * without a start fall inside updates. Updates that cannot grow (the
 * first, and those the end of the stream decodes more frames for: after
 * the garbage) build whole. */
static void
test_grown (void)
{
  gsize round_end[N_ROUNDS];
  g_autoptr(GByteArray) capture = make_capture (round_end);
  g_autofree char *path = sps_test_write_temp ("test-etrace-live-XXXXXX", "capture.etrace", "", 0);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(SpsTrace) shown = NULL;
  g_autoptr(GByteArray) header = g_byte_array_new ();
  guint n_grown = 0, n_whole = 0;

  etrace_stream_start (header, 1000, 0, FALSE, 0);

  for (guint32 seed = 1; seed <= 3; seed++)
    {
      g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
      g_autoptr(SpsLiveDecoder) line = decoder_for (file);
      gsize fed = 0;

      g_clear_object (&shown);
      while (fed < capture->len)
        {
          gsize cut = MIN (capture->len, fed + (g_rand_int_range (rand, 0, 6) == 0 ? 0 : g_rand_int_range (rand, 1, 120)));
          g_autoptr(SpsTrace) next = NULL;
          g_autoptr(SpsTrace) loaded = NULL;
          g_autoptr(GError) error = NULL;
          gboolean grown = FALSE;

          cut = MAX (cut, header->len);
          sps_live_decoder_feed (line, capture->data + fed, cut - fed);
          fed = cut;
          next = sps_live_decoder_grow (line, NULL, file, shown, &grown, &error);
          g_assert_no_error (error);
          write_prefix (path, capture, cut);
          loaded = sps_trace_load (file, NULL, NULL, SPS_LOAD_FLAGS_NONE, NULL, NULL, &error);
          g_assert_no_error (error);
          sps_test_assert_same_trace_args (next, loaded, FALSE);
          if (grown)
            n_grown++;
          else
            n_whole++;
          g_set_object (&shown, next);
        }
    }

  g_test_message ("%u updates grown, %u built whole", n_grown, n_whole);
  g_assert_cmpuint (n_grown, >, 4 * n_whole);
  remove_temp (path);
}

/* A v1 frame: ISRs (source 1) have priority 5, tasks 1 */
typedef struct
{
  guint       type;
  guint64     ts;
  guint32     seq;
  const char *name;
  guint       source;
} V1Event;

/* Writes @events as v1 frames; @frame_end: where each one ends */
static GByteArray *
write_v1 (const V1Event *events,
          guint          n_events,
          gsize         *frame_end)
{
  GByteArray *capture = g_byte_array_new ();

  for (guint i = 0; i < n_events; i++)
    {
      etrace_stream_v1 (capture, events[i].type, events[i].ts, events[i].seq, events[i].name,
                        events[i].source, events[i].source == 1 ? 5 : 1);
      frame_end[i] = capture->len;
    }

  return capture;
}

/* v1 keeps its dictionary by name text, which a copy must point at its
 * own names: a v1 capture with two names, a lost frame (sequence 6 never
 * comes), an end without a start (sequence 9) and a device reset
 * (sequence back to 0), compared with a load at every byte from where
 * the probe recognises it (four whole frames) and at the ends of the
 * first three frames. */
static void
test_v1_cuts (void)
{
  static const V1Event events[] = {
    { START, 1000, 0, "job", 2 }, { START, 1100, 1, "irq", 1 }, { END, 1150, 2, "irq", 1 },
    { END, 1400, 3, "job", 2 }, { MARKER, 1500, 4, "tick", 2 }, { START, 1600, 5, "job", 2 },
    { START, 1700, 7, "irq", 1 }, { END, 1750, 8, "irq", 1 }, { END, 1760, 9, "irq", 1 },
    { START, 100, 0, "job", 2 }, { END, 300, 1, "job", 2 }, { START, 400, 2, "irq", 1 },
  };
  gsize frame_end[G_N_ELEMENTS (events)];
  g_autoptr(GByteArray) capture = write_v1 (events, G_N_ELEMENTS (events), frame_end);
  g_autofree char *path = sps_test_write_temp ("test-etrace-live-XXXXXX", "capture.etrace", "", 0);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(SpsLiveDecoder) decoder = decoder_for (file);
  g_autoptr(GRand) rand = g_rand_new_with_seed (20);
  g_autoptr(GPtrArray) kept = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GArray) kept_cuts = g_array_new (FALSE, FALSE, sizeof (gsize));
  gsize fed = 0;
  guint n_checked = 0;

  for (gsize cut = frame_end[0]; cut <= capture->len; cut++)
    {
      g_autoptr(SpsTrace) live = NULL;
      g_autoptr(GError) error = NULL;

      if (cut < frame_end[3] && cut != frame_end[0] && cut != frame_end[1] && cut != frame_end[2])
        continue;
      live = feed_and_compare (decoder, rand, &fed, capture, cut, file, &error);
      g_assert_no_error (error);
      n_checked++;
      g_ptr_array_add (kept, g_object_ref (live));
      g_array_append_val (kept_cuts, cut);
    }
  /* Every byte from the fourth frame's end, and three frame ends */
  g_assert_cmpuint (n_checked, ==, capture->len - frame_end[3] + 1 + 3);
  assert_kept (kept, kept_cuts, capture, file);

  /* A copy outlives its original and decodes on: "irq" must still be
   * known by its text (MALLOC_PERTURB_ scribbles over what was freed) */
  {
    g_autoptr(SpsLiveDecoder) copy = sps_live_decoder_copy (decoder);
    g_autoptr(SpsTrace) live = NULL;
    g_autoptr(GError) error = NULL;

    g_clear_object (&decoder);
    etrace_stream_v1 (capture, END, 450, 3, "irq", 1, 5);
    live = feed_and_compare (copy, rand, &fed, capture, capture->len, file, &error);
    g_assert_no_error (error);
    /* By hand: the second boot's irq 400–450 */
    g_assert_cmpint (sps_trace_get_slices (live)->dur[sps_test_find_slice (live, "irq", 2)], ==, 50);

    /* Fed, the copy paired its events apart from its original's: from
     * the first, once */
    assert_counts (copy, 1, 0, 0);
  }

  remove_temp (path);
}

/* v1 carries absolute times, so a frame can come after a later one: the
 * pairing kept so far cannot take it and pairs everything again. A
 * capture where frames 4 and 5 (irq 1300–1350) come after job's end at
 * 1400, and job's end at 1450 after its start at 1600 (so that end has
 * no start in time order and the start stays open), compared with a
 * load at every byte from the fourth frame's end. */
static void
test_stragglers (void)
{
  static const V1Event events[] = {
    { START, 1000, 0, "job", 2 }, { START, 1100, 1, "irq", 1 }, { END, 1150, 2, "irq", 1 },
    { END, 1400, 3, "job", 2 }, { START, 1300, 4, "irq", 1 }, { END, 1350, 5, "irq", 1 },
    { MARKER, 1500, 6, "tick", 2 }, { START, 1600, 7, "job", 2 }, { END, 1450, 8, "job", 2 },
    { MARKER, 1700, 9, "tick", 2 },
  };
  gsize frame_end[G_N_ELEMENTS (events)];
  g_autoptr(GByteArray) capture = write_v1 (events, G_N_ELEMENTS (events), frame_end);
  g_autofree char *path = sps_test_write_temp ("test-etrace-live-XXXXXX", "capture.etrace", "", 0);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(SpsLiveDecoder) decoder = decoder_for (file);
  g_autoptr(GRand) rand = g_rand_new_with_seed (21);
  g_autoptr(SpsTrace) last = NULL;
  g_autoptr(GPtrArray) kept = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GArray) kept_cuts = g_array_new (FALSE, FALSE, sizeof (gsize));
  SpsEtraceLiveCounts counts;
  gsize fed = 0;

  for (gsize cut = frame_end[3]; cut <= capture->len; cut++)
    {
      g_autoptr(SpsTrace) live = NULL;
      g_autoptr(GError) error = NULL;

      live = feed_and_compare (decoder, rand, &fed, capture, cut, file, &error);
      g_assert_no_error (error);
      g_ptr_array_add (kept, g_object_ref (live));
      g_array_append_val (kept_cuts, cut);
    }
  /* Across the restarts too: each started a new store */
  assert_kept (kept, kept_cuts, capture, file);

  /* Started over where each of the three older frames arrived (1300
   * and 1350 after 1400, 1450 after 1600), and only there */
  sps_etrace_live_decoder_get_counts (decoder, &counts);
  g_assert_cmpuint (counts.kept + counts.apart, ==, capture->len - frame_end[3] + 1);
  g_assert_cmpuint (counts.restarted, ==, 3);

  /* By hand: irq 1100–1150 and 1300–1350, job 1000–1400; job's end at
   * 1450 has no start, its start at 1600 is open to the last event */
  {
    g_autoptr(SpsLiveDecoder) copy = sps_live_decoder_copy (decoder);
    g_autoptr(GError) error = NULL;
    const SpsSliceTable *slices;

    last = build_and_compare (copy, capture, capture->len, file, &error);
    g_assert_no_error (error);
    slices = sps_trace_get_slices (last);
    g_assert_cmpuint (slices->n_rows, ==, 4);
    g_assert_cmpint (slices->dur[sps_test_find_slice (last, "irq", 0)], ==, 50);
    g_assert_cmpint (slices->ts[sps_test_find_slice (last, "irq", 1)], ==, 1300);
    g_assert_cmpint (slices->dur[sps_test_find_slice (last, "job", 0)], ==, 400);
    g_assert_cmpint (slices->ts[sps_test_find_slice (last, "job", 1)], ==, 1600);
    g_assert_cmpint (slices->dur[sps_test_find_slice (last, "job", 1)], ==, 100);
    g_assert_cmpuint (sps_trace_count_warning (last, "unmatched_end"), ==, 1);
    g_assert_cmpuint (sps_trace_count_warning (last, "open_at_end"), ==, 1);
  }

  remove_temp (path);
}

/* Copies built out of order: the pairing has moved past an older copy's
 * events, which that copy then pairs on its own; a newer copy goes on
 * from the pairing. Each equals a load of its bytes. */
static void
test_copies_out_of_order (void)
{
  gsize round_end[N_ROUNDS];
  g_autoptr(GByteArray) capture = make_capture (round_end);
  g_autofree char *path = sps_test_write_temp ("test-etrace-live-XXXXXX", "capture.etrace", "", 0);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(SpsLiveDecoder) decoder = decoder_for (file);
  g_autoptr(SpsLiveDecoder) older = NULL;
  g_autoptr(SpsLiveDecoder) newer = NULL;
  g_autoptr(SpsLiveDecoder) newest = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;

  sps_live_decoder_feed (decoder, capture->data, round_end[10]);
  older = sps_live_decoder_copy (decoder);
  sps_live_decoder_feed (decoder, capture->data + round_end[10], round_end[20] - round_end[10]);
  newer = sps_live_decoder_copy (decoder);
  sps_live_decoder_feed (decoder, capture->data + round_end[20], round_end[24] - round_end[20]);
  newest = sps_live_decoder_copy (decoder);

  trace = build_and_compare (newer, capture, round_end[20], file, &error);
  g_assert_no_error (error);
  g_clear_object (&trace);
  trace = build_and_compare (older, capture, round_end[10], file, &error);
  g_assert_no_error (error);
  g_clear_object (&trace);
  trace = build_and_compare (newest, capture, round_end[24], file, &error);
  g_assert_no_error (error);

  assert_counts (decoder, 2, 0, 1);

  remove_temp (path);
}

static void
update_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  SpsTrace **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = sps_live_decoder_update_finish (result, &error);
  g_assert_no_error (error);
}

static SpsTrace *
update (SpsLiveDecoder *decoder,
        GFile          *file,
        guint64         offset,
        guint64         end)
{
  SpsTrace *trace = NULL;

  sps_live_decoder_update_async (decoder, NULL, file, offset, end, NULL, NULL, NULL, NULL, update_cb, &trace);
  while (trace == NULL)
    g_main_context_iteration (NULL, TRUE);

  return trace;
}

/* The window's path: each update reads only the new bytes of the file
 * on a worker and gives the trace of everything so far. */
static void
test_update_reads_new_bytes (void)
{
  gsize round_end[N_ROUNDS];
  g_autoptr(GByteArray) capture = make_capture (round_end);
  g_autofree char *path = sps_test_write_temp ("test-etrace-live-XXXXXX", "capture.etrace", "", 0);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(SpsLiveDecoder) decoder = decoder_for (file);
  gsize cuts[] = { round_end[0] - 1, round_end[3] + 1, round_end[20], capture->len };
  gsize fed = 0;

  /* The file holds everything from the start, as a capture file holds
   * more than the update asks for while bytes keep arriving */
  write_prefix (path, capture, capture->len);

  for (guint k = 0; k < G_N_ELEMENTS (cuts); k++)
    {
      g_autoptr(SpsTrace) live = update (decoder, file, fed, cuts[k]);
      g_autoptr(SpsTrace) loaded = NULL;

      /* Compared with a load of the bytes so far from the same file (its
       * name is in the messages), then the file holds everything again */
      fed = cuts[k];
      write_prefix (path, capture, fed);
      loaded = sps_test_load_path (path);
      sps_test_assert_same_trace (live, loaded);
      write_prefix (path, capture, capture->len);
    }

  remove_temp (path);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/etrace/live/cuts", test_cuts);
  g_test_add_func ("/etrace/live/update-reads-new-bytes", test_update_reads_new_bytes);
  g_test_add_func ("/etrace/live/v1-cuts", test_v1_cuts);
  g_test_add_func ("/etrace/live/stragglers", test_stragglers);
  g_test_add_func ("/etrace/live/copies-out-of-order", test_copies_out_of_order);
  g_test_add_func ("/etrace/live/grown", test_grown);

  return g_test_run ();
}
