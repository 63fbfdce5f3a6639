/* test-search.c: sps_search_run() over the demo trace and a hand-built
 * one: counts, totals, averages over measured slices only, category mode,
 * filters, stepping and cancellation
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-search"

#include "config.h"

#include <math.h>
#include <string.h>

#include <spanscope-core.h>

#include "sps-test-util.h"

#define MS 1000000   /* ns */

static SpsTrace *
load_demo (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "samples", "demo.trace.json", NULL);

  return sps_test_load_path (path);
}

static const SpsSearchGroup *
group_named (SpsSearchResult *result,
             SpsTrace        *trace,
             const char      *name)
{
  guint32 id = sps_string_pool_lookup (sps_trace_get_strings (trace), name, -1);
  guint g;

  g_assert_cmpuint (id, !=, SPS_NO_INDEX);
  g = sps_search_result_find_group (result, id);
  g_assert_cmpuint (g, !=, SPS_NO_INDEX);

  return sps_search_result_get_group (result, g);
}

static void
test_pattern (void)
{
  g_autoptr(SpsSearchPattern) ascii = sps_search_pattern_new ("EnCo");
  g_autoptr(SpsSearchPattern) german = sps_search_pattern_new ("STRASSE");
  g_autoptr(SpsSearchPattern) copy = NULL;

  g_assert_null (sps_search_pattern_new (NULL));
  g_assert_null (sps_search_pattern_new (""));

  g_assert_true (sps_search_pattern_match (ascii, "Huffman::encode", -1));
  g_assert_true (sps_search_pattern_match (ascii, "ENCO", -1));
  g_assert_false (sps_search_pattern_match (ascii, "Huffman::enc", -1));
  /* The length bounds the haystack: "encode" cut to "enc". */
  g_assert_false (sps_search_pattern_match (ascii, "encode", 3));
  g_assert_true (sps_search_pattern_match (ascii, "Ünicode encoder", -1));

  /* Case folding, not just lower-casing: ß folds to "ss". */
  g_assert_true (sps_search_pattern_match (german, "Hauptstraße 5", -1));
  /* Invalid UTF-8 does not hide a match before it. */
  g_assert_true (sps_search_pattern_match (german, "strasse\xff\xfe", -1));

  copy = sps_search_pattern_copy (ascii);
  g_assert_cmpstr (sps_search_pattern_get_text (copy), ==, "EnCo");
}

/* Expected values from the demo's JSON (grep '"name":"…"' and sum the
 * "dur" fields by hand): names containing "encode" are
 *   JpegEncoder::encode         1 X    80000 µs   cat encode
 *   JpegEncoder::encode_stripe  8 X   8 × 9500 = 76000 µs
 *   Huffman::encode             8 X   8 × 5200 = 41600 µs
 *   lumen::encoder::run         1 X    78000 µs   cat sampleEvent (sampled)
 *   encode_mcu_huff             1 X    16000 µs   cat sampleEvent (sampled)
 *   Encode                      1 b/e  1229800 - 1149800 = 80000 µs (async)
 * so 20 slices in 6 groups; the sampled ones count but are not measured. */
static void
test_demo_names (void)
{
  g_autoptr(SpsTrace) trace = load_demo ();
  g_autoptr(SpsSearchResult) result = NULL;
  g_autoptr(GError) error = NULL;
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  const SpsSearchGroup *group;
  guint i;

  result = sps_search_run (trace, "ENCODE", SPS_SEARCH_NAME, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sps_search_result_get_n_matches (result), ==, 20);
  g_assert_cmpuint (sps_search_result_get_n_groups (result), ==, 6);
  g_assert_true (sps_search_result_get_trace (result) == trace);

  group = group_named (result, trace, "Huffman::encode");
  g_assert_cmpuint (group->count, ==, 8);
  g_assert_cmpuint (group->n_measured, ==, 8);
  g_assert_cmpint (group->measured_total, ==, 41600 * 1000);
  /* The first of the eight starts at ts 1154000 µs. */
  g_assert_cmpint (slices->ts[group->first_slice], ==, (SpsTime) 1154000 * 1000);
  g_assert_cmpstr (sps_trace_get_string (trace, slices->name[group->first_slice]), ==, "Huffman::encode");

  group = group_named (result, trace, "JpegEncoder::encode_stripe");
  g_assert_cmpuint (group->count, ==, 8);
  g_assert_cmpint (group->measured_total, ==, 76 * MS);

  group = group_named (result, trace, "JpegEncoder::encode");
  g_assert_cmpuint (group->count, ==, 1);
  g_assert_cmpint (group->measured_total, ==, 80 * MS);

  group = group_named (result, trace, "lumen::encoder::run");
  g_assert_cmpuint (group->count, ==, 1);
  g_assert_cmpuint (group->n_measured, ==, 0);
  g_assert_cmpint (group->measured_total, ==, 0);

  group = group_named (result, trace, "Encode");
  g_assert_cmpuint (group->count, ==, 1);
  g_assert_cmpuint (group->n_measured, ==, 1);
  g_assert_cmpint (group->measured_total, ==, 80 * MS);

  group = group_named (result, trace, "encode_mcu_huff");
  g_assert_cmpuint (group->count, ==, 1);
  g_assert_cmpuint (group->n_measured, ==, 0);

  /* Every match really matches, in table order. */
  for (i = 0; i < sps_search_result_get_n_matches (result); i++)
    {
      guint32 s = sps_search_result_get_matches (result)[i];
      g_autofree char *folded = g_utf8_casefold (sps_trace_get_string (trace, slices->name[s]), -1);

      g_assert_nonnull (strstr (folded, "encode"));
      if (i > 0)
        g_assert_cmpuint (s, >, sps_search_result_get_matches (result)[i - 1]);
    }

  g_clear_pointer (&result, sps_search_result_unref);
  result = sps_search_run (trace, "huffman::", SPS_SEARCH_NAME, NULL, NULL, &error);
  g_assert_cmpuint (sps_search_result_get_n_matches (result), ==, 8);
  g_assert_cmpuint (sps_search_result_get_n_groups (result), ==, 1);

  g_clear_pointer (&result, sps_search_result_unref);
  result = sps_search_run (trace, "no such slice", SPS_SEARCH_NAME, NULL, NULL, &error);
  g_assert_cmpuint (sps_search_result_get_n_matches (result), ==, 0);
  g_assert_cmpuint (sps_search_result_step (result, SPS_NO_INDEX, 1), ==, SPS_NO_INDEX);

  g_clear_pointer (&result, sps_search_result_unref);
  result = sps_search_run (trace, "", SPS_SEARCH_NAME, NULL, NULL, &error);
  g_assert_cmpuint (sps_search_result_get_n_matches (result), ==, 0);
}

/* Category mode: "sampleevent" is in "sampleEvent" (4 X slices) and in
 * "cpu,sampleEvent" (two B/E pairs): 6 slices, all sampled spans, so no
 * group has a measured slice. "gpu" is the category of 32 X events. */
static void
test_demo_categories (void)
{
  g_autoptr(SpsTrace) trace = load_demo ();
  g_autoptr(SpsSearchResult) result = NULL;
  g_autoptr(GError) error = NULL;
  guint i;

  result = sps_search_run (trace, "sampleevent", SPS_SEARCH_CATEGORY, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sps_search_result_get_n_matches (result), ==, 6);
  for (i = 0; i < sps_search_result_get_n_groups (result); i++)
    g_assert_cmpuint (sps_search_result_get_group (result, i)->n_measured, ==, 0);
  /* jpeg_write_scanlines: one X and one B/E pair. */
  g_assert_cmpuint (group_named (result, trace, "jpeg_write_scanlines")->count, ==, 2);

  g_clear_pointer (&result, sps_search_result_unref);
  result = sps_search_run (trace, "GPU", SPS_SEARCH_CATEGORY, NULL, NULL, &error);
  g_assert_cmpuint (sps_search_result_get_n_matches (result), ==, 32);
}

/* A hand-built trace, times in ns:
 *   thread 1: work [0,100) work [200,250) other [300,310)
 *   thread 2: work [50,60) (sampled span) work [120,∞) unfinished at 400
 * Measured "work": 100 + 50 = 150 over 2; the sampled span and the
 * unfinished slice count but do not enter the total. */
static SpsTrace *
build_trace (void)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  guint32 p = sps_trace_builder_ensure_process (b, 1);
  guint32 t1 = sps_trace_builder_ensure_thread (b, p, 1);
  guint32 t2 = sps_trace_builder_ensure_thread (b, p, 2);
  guint32 work = sps_trace_builder_intern (b, "work", -1);
  guint32 cat = sps_trace_builder_intern (b, "c", -1);
  SpsTrace *trace;

  sps_trace_builder_add_complete (b, t1, 0, 100, work, cat, SPS_ARGS_REF_NONE, 0);
  sps_trace_builder_add_complete (b, t1, 200, 50, work, cat, SPS_ARGS_REF_NONE, 0);
  sps_trace_builder_add_complete (b, t1, 300, 10, sps_trace_builder_intern (b, "other", -1),
                                  cat, SPS_ARGS_REF_NONE, 0);
  sps_trace_builder_add_complete (b, t2, 50, 10, work, cat, SPS_ARGS_REF_NONE, SPS_SLICE_SAMPLED);
  sps_trace_builder_add_begin (b, t2, 120, work, cat, SPS_ARGS_REF_NONE, 0);
  sps_trace_builder_add_complete (b, t2, 400, 1, sps_trace_builder_intern (b, "end", -1),
                                  cat, SPS_ARGS_REF_NONE, 0);

  trace = sps_trace_builder_finish (b, NULL, &error);
  g_assert_no_error (error);

  return trace;
}

static guint
slice_at (SpsTrace *trace,
          SpsTime   ts,
          gint64    tid)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  const SpsThreadTable *threads = sps_trace_get_threads (trace);
  guint i;

  for (i = 0; i < slices->n_rows; i++)
    if (slices->ts[i] == ts && threads->tid[tracks->thread[slices->track[i]]] == tid)
      return i;
  g_assert_not_reached ();
}

static void
test_measured_only (void)
{
  g_autoptr(SpsTrace) trace = build_trace ();
  g_autoptr(SpsSearchResult) result = NULL;
  const SpsSearchGroup *group;

  result = sps_search_run (trace, "WORK", SPS_SEARCH_NAME, NULL, NULL, NULL);
  g_assert_cmpuint (sps_search_result_get_n_matches (result), ==, 4);
  g_assert_cmpuint (sps_search_result_get_n_groups (result), ==, 1);
  group = sps_search_result_get_group (result, 0);
  g_assert_cmpuint (group->count, ==, 4);
  g_assert_cmpuint (group->n_measured, ==, 2);
  g_assert_cmpint (group->measured_total, ==, 150);
  g_assert_cmpuint (group->first_slice, ==, slice_at (trace, 0, 1));
}

/* Time order across threads: work@0(t1) work@50(t2) work@120(t2)
 * work@200(t1), wrapping at both ends. */
static void
test_step (void)
{
  g_autoptr(SpsTrace) trace = build_trace ();
  g_autoptr(SpsSearchResult) result = NULL;
  guint w0 = slice_at (trace, 0, 1);
  guint w50 = slice_at (trace, 50, 2);
  guint w120 = slice_at (trace, 120, 2);
  guint w200 = slice_at (trace, 200, 1);
  guint other = slice_at (trace, 300, 1);

  result = sps_search_run (trace, "work", SPS_SEARCH_NAME, NULL, NULL, NULL);
  g_assert_cmpuint (sps_search_result_step (result, SPS_NO_INDEX, 1), ==, w0);
  g_assert_cmpuint (sps_search_result_step (result, SPS_NO_INDEX, -1), ==, w200);
  g_assert_cmpuint (sps_search_result_step (result, w0, 1), ==, w50);
  g_assert_cmpuint (sps_search_result_step (result, w50, 1), ==, w120);
  g_assert_cmpuint (sps_search_result_step (result, w120, 1), ==, w200);
  g_assert_cmpuint (sps_search_result_step (result, w200, 1), ==, w0);
  g_assert_cmpuint (sps_search_result_step (result, w0, -1), ==, w200);
  g_assert_cmpuint (sps_search_result_step (result, w120, -1), ==, w50);
  /* From a slice that is no match: the next match after its start. */
  g_assert_cmpuint (sps_search_result_step (result, other, 1), ==, w0);
  g_assert_cmpuint (sps_search_result_step (result, other, -1), ==, w200);
}

static void
test_visible_mask (void)
{
  g_autoptr(SpsTrace) trace = build_trace ();
  g_autoptr(SpsSearchResult) result = NULL;
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  g_autofree guint8 *mask = g_malloc (slices->n_rows);

  /* Only thread 1's slices are let through. */
  for (guint i = 0; i < slices->n_rows; i++)
    mask[i] = sps_trace_get_threads (trace)->tid[sps_trace_get_tracks (trace)->thread[slices->track[i]]] == 1;

  result = sps_search_run (trace, "work", SPS_SEARCH_NAME, mask, NULL, NULL);
  g_assert_cmpuint (sps_search_result_get_n_matches (result), ==, 2);
  g_assert_cmpint (sps_search_result_get_group (result, 0)->measured_total, ==, 150);
}

static void
test_cancelled (void)
{
  g_autoptr(SpsTrace) trace = build_trace ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  SpsSearchResult *result;

  g_cancellable_cancel (cancellable);
  result = sps_search_run (trace, "work", SPS_SEARCH_NAME, NULL, cancellable, &error);
  g_assert_null (result);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

typedef struct
{
  SpsSearchResult *result;
  GError          *error;
  gboolean         done;
} AsyncState;

static void
on_search_done (GObject      *source,
                GAsyncResult *res,
                gpointer      user_data)
{
  AsyncState *state = user_data;

  state->result = sps_search_run_finish (res, &state->error);
  state->done = TRUE;
}

static void
wait_for (AsyncState *state)
{
  while (!state->done)
    g_main_context_iteration (NULL, TRUE);
}

/* The panel's pattern: a search starts, the next keystroke cancels it and
 * starts another; the first reports cancelled, the second its result. */
static void
test_async_superseded (void)
{
  g_autoptr(SpsTrace) trace = load_demo ();
  g_autoptr(GCancellable) first_cancel = g_cancellable_new ();
  AsyncState first = { 0, };
  AsyncState second = { 0, };

  sps_search_run_async (trace, "enc", SPS_SEARCH_NAME, NULL, first_cancel, on_search_done, &first);
  g_cancellable_cancel (first_cancel);
  sps_search_run_async (trace, "encode", SPS_SEARCH_NAME, NULL, NULL, on_search_done, &second);

  wait_for (&first);
  wait_for (&second);

  g_assert_null (first.result);
  g_assert_error (first.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&first.error);

  g_assert_no_error (second.error);
  g_assert_cmpuint (sps_search_result_get_n_matches (second.result), ==, 20);
  sps_search_result_unref (second.result);
}

/* Decoded events are found by name (or provider), counted per name apart
 * from slices and samples, with their earliest as the group's */
static void
test_events (void)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsSearchResult) result = NULL;
  g_autoptr(SpsSearchResult) by_provider = NULL;
  g_autoptr(GError) error = NULL;
  guint32 process = sps_trace_builder_ensure_process (b, 1);
  guint32 t1 = sps_trace_builder_ensure_thread (b, process, 10);
  guint32 t2 = sps_trace_builder_ensure_thread (b, process, 11);
  guint32 clr = sps_trace_builder_intern (b, "Microsoft-Windows-DotNETRuntime", -1);
  guint32 kernel = sps_trace_builder_intern (b, "Windows Kernel", -1);
  guint32 gc_start = sps_trace_builder_intern (b, "Microsoft-Windows-DotNETRuntime/GC/Start", -1);
  guint32 load = sps_trace_builder_intern (b, "Windows Kernel/Image/Load", -1);
  const SpsInstantTable *instants;
  const SpsSearchGroup *group;
  const guint32 *matches;

  sps_trace_builder_add_event (b, t2, 500, clr, gc_start, SPS_EVENT_DESCRIPTOR (1, 2, 1), SPS_ARGS_REF_NONE);
  sps_trace_builder_add_event (b, t1, 700, clr, gc_start, SPS_EVENT_DESCRIPTOR (1, 2, 1), SPS_ARGS_REF_NONE);
  sps_trace_builder_add_event (b, t1, 100, kernel, load, SPS_EVENT_DESCRIPTOR (0, 3, 10), SPS_ARGS_REF_NONE);
  /* An instant that is not an event is not among them */
  sps_trace_builder_add_instant (b, SPS_INSTANT_KIND_INSTANT, SPS_INSTANT_SCOPE_THREAD, process, t1, 300,
                                 sps_trace_builder_intern (b, "GC/Start marker", -1), 0, SPS_ARGS_REF_NONE);
  sps_test_add_complete (b, t1, 0, 50, "GC/Start", "cat", NULL, 0);
  trace = sps_trace_builder_finish (b, NULL, &error);
  g_assert_no_error (error);
  instants = sps_trace_get_instants (trace);

  result = sps_search_run (trace, "gc/start", SPS_SEARCH_NAME, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sps_search_result_get_n_matches (result), ==, 1);
  g_assert_cmpuint (sps_search_result_get_n_event_matches (result), ==, 2);
  matches = sps_search_result_get_event_matches (result);
  g_assert_cmpint (instants->ts[matches[0]], ==, 700);   /* table order: thread 10's track first */
  g_assert_cmpint (instants->ts[matches[1]], ==, 500);
  g_assert_cmpuint (sps_search_result_find_group (result, gc_start), !=, SPS_NO_INDEX);
  group = sps_search_result_get_group (result, sps_search_result_find_group (result, gc_start));
  g_assert_cmpuint (group->count, ==, 0);
  g_assert_cmpuint (group->n_events, ==, 2);
  g_assert_cmpint (instants->ts[group->first_event], ==, 500);
  g_assert_cmpuint (group->first_slice, ==, SPS_NO_INDEX);

  by_provider = sps_search_run (trace, "kernel", SPS_SEARCH_CATEGORY, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sps_search_result_get_n_event_matches (by_provider), ==, 1);
  g_assert_cmpstr (sps_trace_get_string (trace, instants->name[sps_search_result_get_event_matches (by_provider)[0]]),
                   ==, "Windows Kernel/Image/Load");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/search/pattern", test_pattern);
  g_test_add_func ("/core/search/demo/names", test_demo_names);
  g_test_add_func ("/core/search/demo/categories", test_demo_categories);
  g_test_add_func ("/core/search/measured-only", test_measured_only);
  g_test_add_func ("/core/search/step", test_step);
  g_test_add_func ("/core/search/events", test_events);
  g_test_add_func ("/core/search/visible-mask", test_visible_mask);
  g_test_add_func ("/core/search/cancel/sync", test_cancelled);
  g_test_add_func ("/core/search/cancel/superseded", test_async_superseded);

  return g_test_run ();
}
