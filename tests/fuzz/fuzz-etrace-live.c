/* fuzz-etrace-live.c: the embedded-trace decoder as a live capture drives
 * it, the stream arriving in chunks of random sizes (from 1 byte up). A
 * stream decodes to the same events, names and health counts however it
 * is cut, so the chunked result is compared with the decoder fed the
 * whole input at once. Then the live decoder's path and the analysis
 * that builds the trace: copies built at two cuts pair on from the
 * pairing the decoder keeps, and the last one's trace must hold the rows
 * of a build that pairs everything at once (the analysis of a load),
 * with the same args text (deferred: read through each trace's decoder).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "sps-etrace-decoder.h"
#include "sps-etrace-live-decoder.h"
#include "sps-fuzz.h"

SPS_FUZZ_LIMITS (2048, 10);

static SpsEtraceDecoder *
decode (const guint8 *data,
        gsize         len,
        guint32       seed)
{
  SpsEtraceDecoder *decoder = sps_etrace_decoder_new ();
  g_autoptr(GRand) rand = seed != 0 ? g_rand_new_with_seed (seed) : NULL;
  gsize pos = 0;

  while (pos < len)
    {
      /* Mostly short reads, as a serial port delivers them, some long. */
      gsize n = rand == NULL ? len - pos
                : g_rand_int_range (rand, 0, 4) == 0 ? (gsize) g_rand_int_range (rand, 1, 4096)
                : (gsize) g_rand_int_range (rand, 1, 24);

      n = MIN (n, len - pos);
      sps_etrace_decoder_feed (decoder, data + pos, n);
      pos += n;
    }
  sps_etrace_decoder_finish (decoder);
  return decoder;
}

static void
assert_same (SpsEtraceDecoder *a,
             SpsEtraceDecoder *b)
{
  GArray *ea = sps_etrace_decoder_get_events (a);
  GArray *eb = sps_etrace_decoder_get_events (b);
  GPtrArray *na = sps_etrace_decoder_get_names (a);
  GPtrArray *nb = sps_etrace_decoder_get_names (b);

  g_assert_cmpuint (sps_etrace_decoder_get_frames (a), ==, sps_etrace_decoder_get_frames (b));
  for (guint h = 0; h < SPS_ETRACE_N_HEALTH; h++)
    g_assert_cmpuint (sps_etrace_decoder_get_count (a, h), ==, sps_etrace_decoder_get_count (b, h));
  g_assert_cmpuint (ea->len, ==, eb->len);
  for (guint i = 0; i < ea->len; i++)
    {
      const SpsEtraceEvent *x = &g_array_index (ea, SpsEtraceEvent, i);
      const SpsEtraceEvent *y = &g_array_index (eb, SpsEtraceEvent, i);

      g_assert_cmpint (x->time_ns, ==, y->time_ns);
      g_assert_cmpuint (x->name, ==, y->name);
      g_assert_cmpuint (x->kind, ==, y->kind);
      g_assert_cmpuint (x->has_value, ==, y->has_value);
      g_assert_cmpuint (x->value, ==, y->value);
    }
  g_assert_cmpuint (na->len, ==, nb->len);
  for (guint i = 0; i < na->len; i++)
    g_assert_cmpstr (((SpsEtraceName *) na->pdata[i])->name, ==, ((SpsEtraceName *) nb->pdata[i])->name);
}

static SpsTrace *
build_copy (SpsLiveDecoder *decoder)
{
  g_autoptr(SpsLiveDecoder) copy = sps_live_decoder_copy (decoder);
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;

  if (!sps_live_decoder_build (copy, builder, NULL, &error))
    return NULL;
  return sps_trace_builder_finish (builder, NULL, NULL);
}

/* The same text, however each build keeps it (a span's deferred args
 * name its place in the store of the pairing that built it) */
static void
assert_same_args (SpsTrace   *a,
                  SpsArgsRef  ref_a,
                  SpsTrace   *b,
                  SpsArgsRef  ref_b)
{
  g_autofree char *text_a = NULL;
  g_autofree char *text_b = NULL;
  gsize len_a = 0, len_b = 0;

  if (ref_a == SPS_ARGS_REF_NONE || ref_b == SPS_ARGS_REF_NONE)
    {
      g_assert_cmpuint (ref_a, ==, ref_b);
      return;
    }
  text_a = sps_trace_dup_args_json (a, ref_a, &len_a);
  text_b = sps_trace_dup_args_json (b, ref_b, &len_b);
  g_assert_nonnull (text_a);
  g_assert_nonnull (text_b);
  g_assert_cmpmem (text_a, len_a, text_b, len_b);
}

static void
assert_same_rows (SpsTrace *a,
                  SpsTrace *b)
{
  const SpsSliceTable *sa = sps_trace_get_slices (a);
  const SpsSliceTable *sb = sps_trace_get_slices (b);
  const SpsInstantTable *ia = sps_trace_get_instants (a);
  const SpsInstantTable *ib = sps_trace_get_instants (b);
  const SpsCounterTable *ca = sps_trace_get_counters (a);
  const SpsCounterTable *cb = sps_trace_get_counters (b);

  g_assert_cmpuint (sa->n_rows, ==, sb->n_rows);
  for (guint i = 0; i < sa->n_rows; i++)
    {
      g_assert_cmpint (sa->ts[i], ==, sb->ts[i]);
      g_assert_cmpint (sa->dur[i], ==, sb->dur[i]);
      g_assert_cmpuint (sa->name[i], ==, sb->name[i]);
      g_assert_cmpuint (sa->track[i], ==, sb->track[i]);
      assert_same_args (a, sa->args[i], b, sb->args[i]);
    }
  g_assert_cmpuint (ia->n_rows, ==, ib->n_rows);
  for (guint i = 0; i < ia->n_rows; i++)
    {
      g_assert_cmpint (ia->ts[i], ==, ib->ts[i]);
      assert_same_args (a, ia->args[i], b, ib->args[i]);
    }
  g_assert_cmpuint (ca->n_rows, ==, cb->n_rows);
  for (guint i = 0; i < ca->n_rows; i++)
    {
      g_assert_cmpint (ca->ts[i], ==, cb->ts[i]);
      g_assert_cmpuint (ca->track[i], ==, cb->track[i]);
    }
  g_assert_cmpuint (sps_trace_get_n_warnings (a), ==, sps_trace_get_n_warnings (b));
}

/* The live path: fed in the same chunks as @seed cuts them, built at a
 * third and two thirds of the input (pairing on each time), then at the
 * end, against one build of a decoder that pairs everything apart */
static void
check_live (const guint8 *data,
            gsize         size)
{
  g_autoptr(SpsLiveDecoder) live = sps_etrace_live_decoder_new (NULL);
  g_autoptr(SpsLiveDecoder) apart = NULL;
  g_autoptr(SpsTrace) kept = NULL;
  g_autoptr(SpsTrace) whole = NULL;
  gsize cuts[] = { size / 3, 2 * size / 3, size };
  gsize pos = 0;

  for (guint k = 0; k < G_N_ELEMENTS (cuts); k++)
    {
      sps_live_decoder_feed (live, data + pos, cuts[k] - pos);
      pos = cuts[k];
      g_clear_object (&kept);
      kept = build_copy (live);
    }

  apart = sps_live_decoder_copy (live);
  sps_etrace_live_decoder_set_incremental (apart, FALSE);
  whole = build_copy (apart);
  assert_same_rows (kept, whole);
}

int
sps_fuzz_test_one_input (const uint8_t *data,
                         size_t         size)
{
  g_autoptr(SpsEtraceDecoder) whole = NULL;
  g_autoptr(SpsEtraceDecoder) chunked = NULL;
  guint32 seed = 1;

  sps_fuzz_init ();
  /* The cuts depend on the input, so that a crash replays exactly. */
  for (gsize i = 0; i < size; i++)
    seed = seed * 31 + data[i];
  seed |= 1;

  whole = decode (data, size, 0);
  chunked = decode (data, size, seed);
  assert_same (whole, chunked);

  /* The analysis of these events (sps_etrace_build(), what a load runs)
   * is the build check_live() compares with: building the trace of
   * @chunked as well ran it twice on the same events, for a fifth of the
   * harness's time */
  check_live (data, size);
  return 0;
}
