/* fuzz-flame-tree.c: flame trees over whatever a fuzzed Chrome JSON import
 * produced: every kind the trace has, for all threads and for each
 * thread, whole and over a range taken from the input's own times
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include "sps-chrome-importer.h"
#include "sps-fuzz.h"

SPS_FUZZ_LIMITS (2048, 10);

static void
build (SpsTrace         *trace,
       SpsFlameTreeKind  kind,
       guint32           thread,
       gboolean          has_range)
{
  g_autoptr(SpsFlameTree) tree = NULL;
  g_autoptr(GError) error = NULL;
  SpsFlameTreeParams params;
  SpsTime start = sps_trace_get_start_time (trace);
  SpsTime end = sps_trace_get_end_time (trace);

  sps_flame_tree_params_init (&params, kind);
  params.thread = thread;
  if (has_range && start <= end)
    {
      params.has_range = TRUE;
      /* The middle half, so that slices cross both ends */
      params.range_start = start / 2 + end / 2 - (end / 4 - start / 4);
      params.range_end = start / 2 + end / 2 + (end / 4 - start / 4);
    }
  tree = sps_flame_tree_build (trace, &params, NULL, &error);
  if (tree == NULL)
    g_assert_nonnull (error);
}

int
sps_fuzz_test_one_input (const uint8_t *data,
                         size_t         size)
{
  static const SpsFlameTreeKind kinds[] = {
    SPS_FLAME_TREE_MEASURED, SPS_FLAME_TREE_SAMPLES, SPS_FLAME_TREE_SAMPLED,
  };
  g_autoptr(SpsImporter) importer = NULL;
  g_autoptr(GVariant) options = sps_fuzz_chrome_options ();
  g_autoptr(SpsTrace) trace = NULL;
  guint n_threads;

  sps_fuzz_init ();
  importer = g_object_new (SPS_TYPE_CHROME_IMPORTER, NULL);
  if (!(trace = sps_fuzz_import (importer, data, size, options)))
    return 0;

  n_threads = sps_trace_get_threads (trace)->n_rows;
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      if (!sps_flame_tree_trace_has_kind (trace, kinds[k]))
        continue;
      build (trace, kinds[k], SPS_NO_INDEX, FALSE);
      build (trace, kinds[k], SPS_NO_INDEX, TRUE);
      for (guint t = 0; t < MIN (n_threads, 16); t++)
        build (trace, kinds[k], t, t % 2 == 1);
    }
  return 0;
}
