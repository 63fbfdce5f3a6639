/* fuzz-stack-repair.c: the stack repair (SpsStackRepair) over samples
 * whose stacks, times, threads and options come from the input, then
 * finish()
 *
 * The input: a byte of option flags, a depth cap, the first-span and
 * span-filter patterns when their flags are set (each up to a NUL), then
 * samples: thread, time step (signed, so that samples go back in time
 * too), depth, and one byte per frame from root to leaf.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <string.h>

#include "sps-fuzz.h"

SPS_FUZZ_LIMITS (2048, 10);

#define N_THREADS 3
#define MAX_DEPTH 40

/* Names that the patterns can tell apart: modules, wildcards' favourites */
static const char * const frame_names[] = {
  "Main", "Program.Main", "mod!Run", "mod!Step", "Cmf.Order.Save",
  "Cmf.Order.Create", "System.Threading.Wait", "Task.Run", "a", "b", "c",
  "lib.so!memcpy", "[unknown]", "", "*", "?x", "A.B.C.D.E.F", "Other!a",
  "run", "RUN", "Loop", "Loop", "leaf", "x!y!z",
};

static char *
take_pattern (SpsFuzzInput *in)
{
  const guint8 *nul = memchr (in->data, 0, MIN (in->len, 32));
  gsize n = nul != NULL ? (gsize) (nul - in->data) : MIN (in->len, 32);
  char *pattern = g_strndup ((const char *) in->data, n);

  in->data += MIN (in->len, n + 1);
  in->len -= MIN (in->len, n + 1);
  if (!g_utf8_validate (pattern, -1, NULL))
    {
      g_free (pattern);
      pattern = g_strdup ("*");
    }
  return pattern;
}

int
sps_fuzz_test_one_input (const uint8_t *data,
                         size_t         size)
{
  g_autoptr(SpsTraceBuilder) builder = NULL;
  g_autoptr(SpsStackRepair) repair = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GVariant) options = NULL;
  g_autoptr(GError) error = NULL;
  SpsFuzzInput in = { data, size };
  guint32 frames[G_N_ELEMENTS (frame_names)];
  guint32 threads[N_THREADS];
  GVariantDict dict;
  guint8 flags;
  guint depth_cap;
  SpsTime ts = 1000000;

  sps_fuzz_init ();
  flags = sps_fuzz_take_u8 (&in);
  depth_cap = 1 + sps_fuzz_take_u8 (&in) % 16;

  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert (&dict, "repair", "b", (gboolean) !(flags & 1));
  g_variant_dict_insert (&dict, "keep-unrecoverable", "b", (gboolean) !!(flags & 2));
  g_variant_dict_insert (&dict, "keep-raw", "b", (gboolean) !!(flags & 4));
  g_variant_dict_insert (&dict, "depth-cap", "u", depth_cap);
  if (flags & 8)
    {
      g_autofree char *pattern = take_pattern (&in);

      g_variant_dict_insert (&dict, "first-span", "s", pattern);
    }
  if (flags & 16)
    {
      g_autofree char *pattern = take_pattern (&in);

      g_variant_dict_insert (&dict, "span-filter", "s", pattern);
    }
  options = g_variant_ref_sink (g_variant_dict_end (&dict));

  builder = sps_trace_builder_new ();
  sps_trace_builder_set_format (builder, "fuzz");
  for (guint i = 0; i < N_THREADS; i++)
    threads[i] = sps_trace_builder_ensure_thread (builder, sps_trace_builder_ensure_process (builder, 1), 10 + i);
  for (guint i = 0; i < G_N_ELEMENTS (frame_names); i++)
    frames[i] = sps_trace_builder_intern_frame (builder,
                                                sps_trace_builder_intern (builder, frame_names[i], -1),
                                                0, 0, 0x1000 + i);

  while (in.len >= 3)
    {
      guint thread = sps_fuzz_take_u8 (&in) % N_THREADS;
      gint8 step = (gint8) sps_fuzz_take_u8 (&in);
      guint depth = sps_fuzz_take_u8 (&in) % (MAX_DEPTH + 1);
      guint32 callsite = SPS_NO_INDEX;

      ts += (SpsTime) step * 1000;
      for (guint d = 0; d < depth && in.len > 0; d++)
        callsite = sps_trace_builder_intern_callsite (builder, callsite,
                                                      frames[sps_fuzz_take_u8 (&in) % G_N_ELEMENTS (frames)]);
      sps_trace_builder_add_sample (builder, threads[thread], ts, 0, callsite, SPS_NO_INDEX,
                                    1.0, SPS_WEIGHT_UNIT_NONE, 0);
    }

  repair = sps_stack_repair_new ();
  if (!sps_analysis_run (SPS_ANALYSIS (repair), builder, options, NULL, &error))
    {
      g_assert_nonnull (error);
      g_clear_error (&error);
    }
  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);
  if (trace != NULL)
    {
      g_autofree char *report = sps_stack_repair_format_report (trace);
    }
  return 0;
}
