/* fuzz-etrace-live.c: the embedded-trace decoder as a live capture drives
 * it, the stream arriving in chunks of random sizes (from 1 byte up),
 * then the analysis that builds the trace. A stream decodes to the same
 * events, names and health counts however it is cut, so the chunked
 * result is compared with the decoder fed the whole input at once.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "sps-etrace-analysis.h"
#include "sps-etrace-decoder.h"
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

int
sps_fuzz_test_one_input (const uint8_t *data,
                         size_t         size)
{
  g_autoptr(SpsEtraceDecoder) whole = NULL;
  g_autoptr(SpsEtraceDecoder) chunked = NULL;
  g_autoptr(SpsTraceBuilder) builder = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  guint32 seed = 1;

  sps_fuzz_init ();
  /* The cuts depend on the input, so that a crash replays exactly. */
  for (gsize i = 0; i < size; i++)
    seed = seed * 31 + data[i];
  seed |= 1;

  whole = decode (data, size, 0);
  chunked = decode (data, size, seed);
  assert_same (whole, chunked);

  builder = sps_trace_builder_new ();
  sps_trace_builder_set_format (builder, "etrace");
  if (!sps_etrace_build (chunked, builder, NULL, &error))
    g_clear_error (&error);
  trace = sps_trace_builder_finish (builder, NULL, &error);
  return 0;
}
