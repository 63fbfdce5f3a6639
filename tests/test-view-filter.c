/* test-view-filter.c: SpsViewFilter, the interaction pipeline (seed 002)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <spanscope-core.h>

/* For the invalid process/thread mapping: a trace whose columns disagree,
 * as a damaged or hostile import could leave them. */
#include "sps-trace-private.h"

#include "sps-test-util.h"

/*
 * The small trace every rule is checked on, with exact expectations:
 *
 *   process pid 10: thread tid 1  A [0,100]  cat1
 *                                   B [10,30]   cat "cat2, error"   (flow B → E)
 *                                   C [40,90]
 *                                     D [50,60] args {"status":"failed"}
 *                   thread tid 2  E [200,250] (flow E → G)
 *                                   F [210,220]
 *                                 one instant (its own lane)
 *   process pid 20: thread tid 3  G [0,1000] cat gc
 *                                   H [500,505] args {"status":"ok"}
 *
 * Lanes: tid 1 has 3 (depths 0–2), tid 2 has 3 (2 depths + instants),
 * tid 3 has 2. Groups: 0 global, tid 1, tid 2, pid 10's own, tid 3,
 * pid 20's own.
 */

typedef struct
{
  SpsTrace      *trace;
  SpsViewFilter *filter;
  guint          s[8];   /* A … H */
  guint          thread[3];
  guint          process[2];
} Fixture;

enum { A, B, C, D, E, F, G, H };

static void
fixture_setup (Fixture       *fx,
               gconstpointer  data)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  const SpsThreadTable *threads;
  const SpsProcessTable *processes;
  const char *names[] = { "A", "B", "C", "D", "E", "F", "G", "H" };
  guint32 p1 = sps_trace_builder_ensure_process (b, 10);
  guint32 p2 = sps_trace_builder_ensure_process (b, 20);
  guint32 t1 = sps_trace_builder_ensure_thread (b, p1, 1);
  guint32 t2 = sps_trace_builder_ensure_thread (b, p1, 2);
  guint32 t3 = sps_trace_builder_ensure_thread (b, p2, 3);
  guint32 hb;
  guint32 he;
  guint32 hg;

  sps_test_add_complete (b, t1, 0, 100, "A", "cat1", NULL, SPS_SLICE_NONE);
  hb = sps_test_add_complete (b, t1, 10, 20, "B", "cat2, error", NULL, SPS_SLICE_NONE);
  sps_test_add_complete (b, t1, 40, 50, "C", "cat1", NULL, SPS_SLICE_NONE);
  sps_test_add_complete (b, t1, 50, 10, "D", "cat1", "{\"status\":\"failed\"}", SPS_SLICE_NONE);
  he = sps_test_add_complete (b, t2, 200, 50, "E", "cat1", NULL, SPS_SLICE_NONE);
  sps_test_add_complete (b, t2, 210, 10, "F", "cat1", NULL, SPS_SLICE_NONE);
  hg = sps_test_add_complete (b, t3, 0, 1000, "G", "gc", NULL, SPS_SLICE_NONE);
  sps_test_add_complete (b, t3, 500, 5, "H", "gc", "{\"status\":\"ok\"}", SPS_SLICE_NONE);
  sps_trace_builder_add_instant (b, SPS_INSTANT_KIND_INSTANT, SPS_INSTANT_SCOPE_THREAD, p1, t2, 230,
                                 sps_trace_builder_intern (b, "tick", -1), 0, SPS_ARGS_REF_NONE);
  sps_test_add_flow (b, 1, t1, 15, hb, t2, 200, he);
  sps_test_add_flow (b, 2, t2, 240, he, t3, 600, hg);

  fx->trace = sps_trace_builder_finish (b, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sps_trace_get_slices (fx->trace)->n_rows, ==, 8);
  g_assert_cmpuint (sps_trace_get_flows (fx->trace)->n_rows, ==, 2);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    fx->s[i] = sps_test_find_slice (fx->trace, names[i], 0);

  threads = sps_trace_get_threads (fx->trace);
  processes = sps_trace_get_processes (fx->trace);
  for (guint i = 0; i < threads->n_rows; i++)
    fx->thread[threads->tid[i] - 1] = i;
  for (guint i = 0; i < processes->n_rows; i++)
    fx->process[processes->pid[i] / 10 - 1] = i;

  if (data != NULL)
    {
      /* Thread tid 2 claims a process that does not exist */
      ((guint32 *) threads->process)[fx->thread[1]] = 99;
    }

  fx->filter = sps_view_filter_new (fx->trace);
}

static void
fixture_teardown (Fixture       *fx,
                  gconstpointer  data)
{
  g_clear_object (&fx->filter);
  g_clear_object (&fx->trace);
}

/* The visible slices as letters, in source order: "AEFGH" */
static char *
visible_letters (Fixture *fx)
{
  g_autofree guint32 *rows = NULL;
  g_autoptr(GBytes) mask = sps_view_filter_dup_mask (fx->filter);
  const guint8 *m = g_bytes_get_data (mask, NULL);
  GString *out = g_string_new (NULL);
  guint n = 0;
  guint n_mask = 0;

  rows = sps_view_filter_dup_visible_slices (fx->filter, &n);
  g_assert_cmpuint (n, ==, sps_view_filter_get_visible_count (fx->filter));
  for (guint i = 0; i < n; i++)
    {
      const char *name = sps_trace_get_string (fx->trace, sps_trace_get_slices (fx->trace)->name[rows[i]]);

      if (i > 0)
        g_assert_cmpuint (rows[i - 1], <, rows[i]);
      g_assert_true (sps_view_filter_is_slice_visible (fx->filter, rows[i]));
      g_string_append (out, name);
    }

  /* The mask says the same, slice by slice */
  for (guint s = 0; s < sps_trace_get_slices (fx->trace)->n_rows; s++)
    {
      g_assert_cmpint (!!m[s], ==, sps_view_filter_is_slice_visible (fx->filter, s));
      n_mask += m[s];
    }
  g_assert_cmpuint (n_mask, ==, n);

  /* Sorted by letter for a stable comparison (rows are by track, ts) */
  {
    g_autofree char *text = g_string_free (out, FALSE);
    gsize len = strlen (text);

    for (gsize i = 1; i < len; i++)
      for (gsize j = i; j > 0 && text[j - 1] > text[j]; j--)
        {
          char c = text[j];

          text[j] = text[j - 1];
          text[j - 1] = c;
        }
    return g_steal_pointer (&text);
  }
}

#define assert_visible(fx, letters) \
  G_STMT_START { g_autofree char *_v = visible_letters (fx); g_assert_cmpstr (_v, ==, letters); } G_STMT_END

static guint
group_of_thread (Fixture *fx,
                 guint    tid)
{
  return sps_view_filter_get_thread_group (fx->filter, fx->thread[tid - 1]);
}

static void
assert_heights (Fixture     *fx,
                const guint *heights,
                const guint *offsets,
                guint        total)
{
  /* tid 1, tid 2, pid 10 own, tid 3, pid 20 own */
  guint groups[5];

  groups[0] = group_of_thread (fx, 1);
  groups[1] = group_of_thread (fx, 2);
  groups[2] = sps_view_filter_get_process_group (fx->filter, fx->process[0]);
  groups[3] = group_of_thread (fx, 3);
  groups[4] = sps_view_filter_get_process_group (fx->filter, fx->process[1]);

  for (guint i = 0; i < 5; i++)
    {
      g_assert_cmpuint (sps_view_filter_get_group_height (fx->filter, groups[i]), ==, heights[i]);
      g_assert_cmpuint (sps_view_filter_get_group_offset (fx->filter, groups[i]), ==, offsets[i]);
    }
  g_assert_cmpuint (sps_view_filter_get_total_height (fx->filter), ==, total);
}

static void
test_layout_expanded (Fixture       *fx,
                      gconstpointer  data)
{
  const guint heights[] = { 3, 3, 0, 2, 0 };
  const guint offsets[] = { 0, 3, 6, 6, 8 };

  /* Display order: global, pid 10 (tid 1, tid 2, own), pid 20 (tid 3, own) */
  g_assert_cmpuint (sps_view_filter_get_n_groups (fx->filter), ==, 6);
  g_assert_cmpuint (group_of_thread (fx, 1), ==, 1);
  g_assert_cmpuint (group_of_thread (fx, 2), ==, 2);
  g_assert_cmpuint (group_of_thread (fx, 3), ==, 4);
  g_assert_cmpuint (sps_view_filter_get_group_lanes (fx->filter, 2), ==, 3);

  assert_heights (fx, heights, offsets, 8);
  assert_visible (fx, "ABCDEFGH");

  g_assert_cmpuint (sps_view_filter_get_slice_lane (fx->filter, fx->s[D]), ==, 2);
  g_assert_cmpuint (sps_view_filter_get_slice_lane (fx->filter, fx->s[F]), ==, 4);
  g_assert_cmpuint (sps_view_filter_get_slice_lane (fx->filter, fx->s[H]), ==, 7);
}

static void
test_layout_thread_collapsed (Fixture       *fx,
                              gconstpointer  data)
{
  const guint heights[] = { 1, 3, 0, 2, 0 };
  const guint offsets[] = { 0, 1, 4, 4, 6 };

  sps_view_filter_set_thread_expansion (fx->filter, fx->thread[0], SPS_EXPANSION_COLLAPSED);
  assert_heights (fx, heights, offsets, 6);
  /* The collapsed thread keeps its first lane: depth 0 */
  assert_visible (fx, "AEFGH");
  g_assert_cmpuint (sps_view_filter_get_visible_count (fx->filter), ==, 5);
  /* Hidden slices are drawn at the representative lane */
  g_assert_cmpuint (sps_view_filter_get_slice_lane (fx->filter, fx->s[D]), ==, 0);
  g_assert_cmpuint (sps_view_filter_get_slice_lane (fx->filter, fx->s[E]), ==, 1);
  g_assert_cmpuint (sps_view_filter_get_track_lanes_shown (fx->filter, fx->trace->slices.track[fx->s[A]]), ==, 1);

  sps_view_filter_set_thread_expansion (fx->filter, fx->thread[0], SPS_EXPANSION_EXPANDED);
  assert_visible (fx, "ABCDEFGH");
}

static void
test_layout_process_collapsed (Fixture       *fx,
                               gconstpointer  data)
{
  const guint heights[] = { 1, 0, 0, 2, 0 };
  const guint offsets[] = { 0, 1, 1, 1, 3 };

  sps_view_filter_set_process_expansion (fx->filter, fx->process[0], SPS_EXPANSION_COLLAPSED);
  /* Only the first lane of the first thread; tid 2 takes no height */
  assert_heights (fx, heights, offsets, 3);
  assert_visible (fx, "AGH");
  /* E and F (tid 2) route to the process's representative lane */
  g_assert_cmpuint (sps_view_filter_get_slice_lane (fx->filter, fx->s[E]), ==, 0);
  g_assert_cmpuint (sps_view_filter_get_slice_lane (fx->filter, fx->s[F]), ==, 0);
  g_assert_cmpuint (sps_view_filter_get_slice_lane (fx->filter, fx->s[G]), ==, 1);

  /* The first thread hidden: the representative is the next one's lane */
  sps_view_filter_set_thread_expansion (fx->filter, fx->thread[0], SPS_EXPANSION_HIDDEN);
  g_assert_cmpuint (sps_view_filter_get_group_height (fx->filter, group_of_thread (fx, 1)), ==, 0);
  g_assert_cmpuint (sps_view_filter_get_group_height (fx->filter, group_of_thread (fx, 2)), ==, 1);
  assert_visible (fx, "EGH");

  sps_view_filter_set_process_expansion (fx->filter, fx->process[1], SPS_EXPANSION_HIDDEN);
  assert_visible (fx, "E");
  g_assert_cmpuint (sps_view_filter_get_total_height (fx->filter), ==, 1);
  g_assert_cmpuint (sps_view_filter_get_slice_lane (fx->filter, fx->s[G]), ==, SPS_NO_INDEX);
}

static void
test_invalid_mapping (Fixture       *fx,
                      gconstpointer  data)
{
  guint process;
  guint thread;

  /* tid 2's tracks are invisible and take no lane, under no process */
  g_assert_false (sps_view_filter_get_group (fx->filter, group_of_thread (fx, 2), &process, &thread));
  g_assert_cmpuint (thread, ==, fx->thread[1]);
  g_assert_false (sps_view_filter_is_track_valid (fx->filter, fx->trace->slices.track[fx->s[E]]));
  g_assert_true (sps_view_filter_is_track_valid (fx->filter, fx->trace->slices.track[fx->s[A]]));
  assert_visible (fx, "ABCDGH");
  g_assert_cmpuint (sps_view_filter_get_total_height (fx->filter), ==, 5);
  g_assert_cmpuint (sps_view_filter_get_group_offset (fx->filter, group_of_thread (fx, 3)), ==, 3);
  g_assert_cmpuint (sps_view_filter_get_slice_lane (fx->filter, fx->s[E]), ==, SPS_NO_INDEX);
  g_assert_cmpuint (sps_view_filter_project (fx->filter, fx->s[F]), ==, SPS_NO_INDEX);

  /* Collapsing either process never brings them back */
  sps_view_filter_set_process_expansion (fx->filter, fx->process[0], SPS_EXPANSION_COLLAPSED);
  sps_view_filter_set_process_expansion (fx->filter, fx->process[1], SPS_EXPANSION_COLLAPSED);
  assert_visible (fx, "AG");
  sps_view_filter_set_thread_expansion (fx->filter, fx->thread[1], SPS_EXPANSION_EXPANDED);
  assert_visible (fx, "AG");
}

/* A thread that names an existing but different process than its track */
static void
test_mismatched_mapping (void)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsViewFilter) filter = NULL;
  g_autoptr(GError) error = NULL;
  guint32 p1 = sps_trace_builder_ensure_process (b, 1);
  guint32 p2 = sps_trace_builder_ensure_process (b, 2);
  guint32 t1 = sps_trace_builder_ensure_thread (b, p1, 11);
  guint32 t2 = sps_trace_builder_ensure_thread (b, p2, 22);
  const SpsThreadTable *threads;

  sps_test_add_complete (b, t1, 0, 10, "X", "", NULL, SPS_SLICE_NONE);
  sps_test_add_complete (b, t2, 0, 10, "Y", "", NULL, SPS_SLICE_NONE);
  trace = sps_trace_builder_finish (b, NULL, &error);
  g_assert_no_error (error);

  /* tid 11 now says it belongs to pid 2, its track still says pid 1 */
  threads = sps_trace_get_threads (trace);
  for (guint i = 0; i < threads->n_rows; i++)
    if (threads->tid[i] == 11)
      ((guint32 *) threads->process)[i] = sps_trace_get_tracks (trace)->process[sps_trace_get_slices (trace)->track[sps_test_find_slice (trace, "Y", 0)]];

  filter = sps_view_filter_new (trace);
  g_assert_cmpuint (sps_view_filter_get_visible_count (filter), ==, 1);
  g_assert_false (sps_view_filter_is_slice_visible (filter, sps_test_find_slice (trace, "X", 0)));
  g_assert_true (sps_view_filter_is_slice_visible (filter, sps_test_find_slice (trace, "Y", 0)));
  /* pid 2 shows only Y's lane: X is not assigned to it */
  g_assert_cmpuint (sps_view_filter_get_total_height (filter), ==, 1);
}

static void
test_window (Fixture       *fx,
             gconstpointer  data)
{
  sps_view_filter_set_window (fx->filter, 45, 55);
  assert_visible (fx, "ACDG");
  /* Closed ends: B ends at 30, C starts at 40 */
  sps_view_filter_set_window (fx->filter, 30, 30);
  assert_visible (fx, "ABG");
  sps_view_filter_set_window (fx->filter, 40, 40);
  assert_visible (fx, "ACG");
  /* Moving right, across E and F */
  sps_view_filter_set_window (fx->filter, 205, 215);
  assert_visible (fx, "EFG");
  sps_view_filter_set_window (fx->filter, 1000, 2000);
  assert_visible (fx, "G");
  sps_view_filter_set_window (fx->filter, 1001, 2000);
  assert_visible (fx, "");
  /* Inverted: empty, not an error, not everything */
  sps_view_filter_set_window (fx->filter, 55, 45);
  assert_visible (fx, "");
  g_assert_cmpuint (sps_view_filter_get_visible_count (fx->filter), ==, 0);
  sps_view_filter_set_window (fx->filter, 0, 1000);
  assert_visible (fx, "ABCDEFGH");
  sps_view_filter_set_window (fx->filter, SPS_TIME_MIN, SPS_TIME_MAX);
  assert_visible (fx, "ABCDEFGH");
}

static void
test_min_duration (Fixture       *fx,
                   gconstpointer  data)
{
  sps_view_filter_set_min_duration (fx->filter, 50);
  assert_visible (fx, "ACEG");
  sps_view_filter_set_min_duration (fx->filter, 10);
  assert_visible (fx, "ABCDEFG");
  sps_view_filter_set_min_duration (fx->filter, 1001);
  assert_visible (fx, "");
  sps_view_filter_set_min_duration (fx->filter, 20);
  sps_view_filter_set_window (fx->filter, 0, 60);
  assert_visible (fx, "ABCG");
  sps_view_filter_set_min_duration (fx->filter, 0);
  assert_visible (fx, "ABCDG");
}

static void
test_classes (Fixture       *fx,
              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  int error_bit;
  int instr_bit;
  int failed_bit;
  int status_bit;

  /* Category tokens, names (globs) and args (with and without a value) */
  g_assert_true (sps_view_filter_add_rule (fx->filter, "error", SPS_CLASS_RULE_CATEGORY, "error", NULL, &error));
  g_assert_true (sps_view_filter_add_rule (fx->filter, "instrumentation", SPS_CLASS_RULE_NAME, "F", NULL, &error));
  g_assert_true (sps_view_filter_add_rule (fx->filter, "failed", SPS_CLASS_RULE_ARG, "status", "failed", &error));
  g_assert_true (sps_view_filter_add_rule (fx->filter, "status", SPS_CLASS_RULE_ARG, "status", NULL, &error));
  g_assert_true (sps_view_filter_add_rule (fx->filter, "gc", SPS_CLASS_RULE_CATEGORY, "g?", NULL, &error));
  g_assert_no_error (error);

  error_bit = sps_view_filter_lookup_class (fx->filter, "error");
  instr_bit = sps_view_filter_lookup_class (fx->filter, "instrumentation");
  failed_bit = sps_view_filter_lookup_class (fx->filter, "failed");
  status_bit = sps_view_filter_lookup_class (fx->filter, "status");
  g_assert_cmpint (error_bit, ==, 0);
  g_assert_cmpint (instr_bit, ==, 1);
  g_assert_cmpuint (sps_view_filter_get_n_classes (fx->filter), ==, 5);

  /* Bits of classes that do not exist are ignored */
  sps_view_filter_set_class_masks (fx->filter, 1u << 7, 1u << 9);
  g_assert_cmphex (sps_view_filter_get_require_mask (fx->filter), ==, 0);
  g_assert_cmphex (sps_view_filter_get_exclude_mask (fx->filter), ==, 0);

  g_assert_cmphex (sps_view_filter_get_slice_classes (fx->filter, fx->s[B]), ==, 1u << error_bit);
  g_assert_cmphex (sps_view_filter_get_slice_classes (fx->filter, fx->s[F]), ==, 1u << instr_bit);
  g_assert_cmphex (sps_view_filter_get_slice_classes (fx->filter, fx->s[D]), ==,
                   (1u << failed_bit) | (1u << status_bit));
  g_assert_cmphex (sps_view_filter_get_slice_classes (fx->filter, fx->s[H]), ==, (1u << status_bit) | (1u << 4));
  g_assert_cmphex (sps_view_filter_get_slice_classes (fx->filter, fx->s[A]), ==, 0);
  assert_visible (fx, "ABCDEFGH");

  sps_view_filter_set_class_masks (fx->filter, 1u << error_bit, 0);
  assert_visible (fx, "B");
  sps_view_filter_set_class_masks (fx->filter, 0, 1u << error_bit);
  assert_visible (fx, "ACDEFGH");
  sps_view_filter_set_class_masks (fx->filter, 0, (1u << error_bit) | (1u << instr_bit));
  assert_visible (fx, "ACDEGH");
  sps_view_filter_set_class_masks (fx->filter, 1u << status_bit, 0);
  assert_visible (fx, "DH");
  /* Require all: both bits */
  sps_view_filter_set_class_masks (fx->filter, (1u << status_bit) | (1u << failed_bit), 0);
  assert_visible (fx, "D");
  sps_view_filter_set_class_masks (fx->filter, 1u << status_bit, 1u << failed_bit);
  assert_visible (fx, "H");
  /* With collapse: D is below the kept lane */
  sps_view_filter_set_class_masks (fx->filter, 1u << status_bit, 0);
  sps_view_filter_set_thread_expansion (fx->filter, fx->thread[0], SPS_EXPANSION_COLLAPSED);
  assert_visible (fx, "H");
  sps_view_filter_set_class_masks (fx->filter, 0, 0);
  assert_visible (fx, "AEFGH");
}

static void
test_too_many_classes (Fixture       *fx,
                       gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  for (int i = 0; i < SPS_VIEW_FILTER_MAX_CLASSES; i++)
    {
      g_autofree char *name = g_strdup_printf ("c%d", i);

      g_assert_cmpint (sps_view_filter_add_class (fx->filter, name, &error), ==, i);
    }
  g_assert_cmpint (sps_view_filter_add_class (fx->filter, "c3", &error), ==, 3);
  g_assert_cmpint (sps_view_filter_add_class (fx->filter, "one more", &error), ==, -1);
  g_assert_error (error, SPS_VIEW_FILTER_ERROR, SPS_VIEW_FILTER_ERROR_TOO_MANY_CLASSES);
}

static void
test_focus (Fixture       *fx,
            gconstpointer  data)
{
  guint32 seed_b = fx->s[B];
  guint32 seed_e = fx->s[E];
  guint32 seed_d = fx->s[D];

  /* Focus on without a seed erases nothing */
  sps_view_filter_set_focus_enabled (fx->filter, TRUE);
  g_assert_false (sps_view_filter_is_focus_active (fx->filter));
  assert_visible (fx, "ABCDEFGH");

  sps_view_filter_set_focus_seeds (fx->filter, &seed_b, 1);
  g_assert_true (sps_view_filter_is_focus_active (fx->filter));
  assert_visible (fx, "BE");
  sps_view_filter_set_focus_depth (fx->filter, 2);
  assert_visible (fx, "BEG");
  sps_view_filter_set_focus_depth (fx->filter, 0);
  assert_visible (fx, "B");

  /* Directions, from the middle of the chain B → E → G */
  sps_view_filter_set_focus_seeds (fx->filter, &seed_e, 1);
  sps_view_filter_set_focus_depth (fx->filter, 1);
  assert_visible (fx, "BEG");
  sps_view_filter_set_focus_direction (fx->filter, SPS_FOCUS_INCOMING);
  assert_visible (fx, "BE");
  sps_view_filter_set_focus_direction (fx->filter, SPS_FOCUS_OUTGOING);
  assert_visible (fx, "EG");
  g_assert_true (sps_view_filter_is_slice_reached (fx->filter, fx->s[G]));
  g_assert_false (sps_view_filter_is_slice_reached (fx->filter, fx->s[B]));

  /* Parent/child edges only when asked */
  sps_view_filter_set_focus_seeds (fx->filter, &seed_d, 1);
  sps_view_filter_set_focus_direction (fx->filter, SPS_FOCUS_BOTH);
  assert_visible (fx, "D");
  sps_view_filter_set_focus_parent_child (fx->filter, TRUE);
  assert_visible (fx, "CD");
  sps_view_filter_set_focus_depth (fx->filter, 2);
  assert_visible (fx, "ACD");
  sps_view_filter_set_focus_depth (fx->filter, 3);
  /* A's children B and C; B's flow to E comes at depth 4 */
  assert_visible (fx, "ABCD");
  sps_view_filter_set_focus_depth (fx->filter, 4);
  assert_visible (fx, "ABCDE");

  /* Intersected with the other rules: collapse hides the deeper ones */
  sps_view_filter_set_thread_expansion (fx->filter, fx->thread[0], SPS_EXPANSION_COLLAPSED);
  assert_visible (fx, "AE");
  sps_view_filter_set_min_duration (fx->filter, 60);
  assert_visible (fx, "A");

  sps_view_filter_set_focus_enabled (fx->filter, FALSE);
  assert_visible (fx, "AG");
}

static void
test_projection (Fixture       *fx,
                 gconstpointer  data)
{
  g_autofree guint32 *projected = NULL;
  guint n;

  g_assert_cmpuint (sps_view_filter_project (fx->filter, fx->s[D]), ==, fx->s[D]);

  sps_view_filter_set_min_duration (fx->filter, 50);
  /* D hidden, its parent C visible */
  g_assert_cmpuint (sps_view_filter_project (fx->filter, fx->s[D]), ==, fx->s[C]);
  g_assert_cmpuint (sps_view_filter_project (fx->filter, fx->s[B]), ==, fx->s[A]);
  g_assert_cmpuint (sps_view_filter_project (fx->filter, fx->s[F]), ==, fx->s[E]);
  g_assert_cmpuint (sps_view_filter_project (fx->filter, fx->s[H]), ==, fx->s[G]);

  sps_view_filter_set_thread_expansion (fx->filter, fx->thread[0], SPS_EXPANSION_COLLAPSED);
  g_assert_cmpuint (sps_view_filter_project (fx->filter, fx->s[D]), ==, fx->s[A]);

  /* No visible ancestor: the invalid sentinel */
  sps_view_filter_set_window (fx->filter, 300, 400);
  g_assert_cmpuint (sps_view_filter_project (fx->filter, fx->s[D]), ==, SPS_NO_INDEX);
  g_assert_cmpuint (sps_view_filter_project (fx->filter, fx->s[H]), ==, fx->s[G]);

  projected = sps_view_filter_dup_projected_ancestors (fx->filter, &n);
  g_assert_cmpuint (n, ==, 8);
  for (guint i = A; i <= H; i++)
    g_assert_cmpuint (projected[fx->s[i]], ==, i == G || i == H ? fx->s[G] : SPS_NO_INDEX);
}

static void
test_pick (Fixture       *fx,
           gconstpointer  data)
{
  /* Expanded: lane 1 is tid 1's depth 1 */
  g_assert_cmpuint (sps_view_filter_pick (fx->filter, 1, 20, 0), ==, fx->s[B]);
  g_assert_cmpuint (sps_view_filter_pick (fx->filter, 1, 35, 0), ==, SPS_NO_INDEX);
  /* Equally near B's end and C's start: the first in source order */
  g_assert_cmpuint (sps_view_filter_pick (fx->filter, 1, 35, 5), ==, fx->s[B]);
  g_assert_cmpuint (sps_view_filter_pick (fx->filter, 1, 37, 5), ==, fx->s[C]);
  g_assert_cmpuint (sps_view_filter_pick (fx->filter, 2, 55, 0), ==, fx->s[D]);
  g_assert_cmpuint (sps_view_filter_pick (fx->filter, 7, 502, 0), ==, fx->s[H]);
  /* The instants lane of tid 2 has no slice */
  g_assert_cmpuint (sps_view_filter_pick (fx->filter, 5, 230, 0), ==, SPS_NO_INDEX);
  g_assert_cmpuint (sps_view_filter_pick (fx->filter, 8, 0, 0), ==, SPS_NO_INDEX);

  /* After collapse, lane 1 is tid 2's depth 0 */
  sps_view_filter_set_thread_expansion (fx->filter, fx->thread[0], SPS_EXPANSION_COLLAPSED);
  g_assert_cmpuint (sps_view_filter_pick (fx->filter, 1, 220, 0), ==, fx->s[E]);
  g_assert_cmpuint (sps_view_filter_pick (fx->filter, 2, 215, 0), ==, fx->s[F]);
  g_assert_cmpuint (sps_view_filter_pick (fx->filter, 0, 20, 0), ==, fx->s[A]);
  g_assert_cmpuint (sps_view_filter_pick (fx->filter, 5, 502, 0), ==, fx->s[H]);

  /* Hidden slices are not hit */
  sps_view_filter_set_min_duration (fx->filter, 50);
  g_assert_cmpuint (sps_view_filter_pick (fx->filter, 2, 215, 0), ==, SPS_NO_INDEX);
}

static void
test_json_roundtrip (Fixture       *fx,
                     gconstpointer  data)
{
  g_autoptr(SpsViewFilter) copy = sps_view_filter_new (fx->trace);
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  g_autofree char *json2 = NULL;
  g_autofree char *file_path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autofree char *dir = g_dir_make_tmp ("sps-filter-XXXXXX", &error);
  guint32 seed = fx->s[B];

  g_assert_no_error (error);
  g_assert_true (sps_view_filter_add_rule (fx->filter, "error", SPS_CLASS_RULE_CATEGORY, "error", NULL, NULL));
  g_assert_true (sps_view_filter_add_rule (fx->filter, "st\"atus", SPS_CLASS_RULE_ARG, "status", "ok", NULL));
  sps_view_filter_set_class_masks (fx->filter, 0, 1);
  sps_view_filter_set_thread_expansion (fx->filter, fx->thread[1], SPS_EXPANSION_COLLAPSED);
  sps_view_filter_set_process_expansion (fx->filter, fx->process[1], SPS_EXPANSION_HIDDEN);
  sps_view_filter_set_window (fx->filter, 5, 900);
  sps_view_filter_set_min_duration (fx->filter, 10);
  sps_view_filter_set_focus_seeds (fx->filter, &seed, 1);
  sps_view_filter_set_focus_depth (fx->filter, 3);
  sps_view_filter_set_focus_direction (fx->filter, SPS_FOCUS_OUTGOING);
  json = sps_view_filter_to_json (fx->filter);

  g_assert_true (sps_view_filter_load_json (copy, json, -1, &error));
  g_assert_no_error (error);
  json2 = sps_view_filter_to_json (copy);
  g_assert_cmpstr (json, ==, json2);
  {
    g_autofree char *a = visible_letters (fx);
    Fixture other = *fx;
    g_autofree char *b = NULL;

    other.filter = copy;
    b = visible_letters (&other);
    g_assert_cmpstr (a, ==, b);
    g_assert_cmpstr (a, ==, "ACDE");
  }

  file_path = sps_test_write_file (dir, "f.json", json);
  file = g_file_new_for_path (file_path);
  sps_view_filter_reset (copy);
  g_assert_cmpuint (sps_view_filter_get_visible_count (copy), ==, 8);
  g_assert_true (sps_view_filter_load_file (copy, file, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (sps_view_filter_get_visible_count (copy), ==, 4);
  sps_test_remove_tree (dir);
}

static void
test_json_errors (Fixture       *fx,
                  gconstpointer  data)
{
  const struct {
    const char *json;
    const char *message;
  } cases[] = {
    { "{", "not valid JSON" },
    { "[]", "a filter is a JSON object" },
    { "{\"windw\": [1, 2]}", "member “(top level)”: unknown member “windw”" },
    { "{\"version\": 2}", "member “version”: version 2 is not supported" },
    { "{\"window\": [1]}", "member “window”: expected [start, end]" },
    { "{\"window\": [1, \"2\"]}", "member “window”: expected an integer" },
    { "{\"min_duration\": -1}", "member “min_duration”: a duration cannot be negative" },
    { "{\"min_duration\": 1.5}", "member “min_duration”: expected an integer" },
    { "{\"require\": [\"error\"]}", "member “require”: unknown class “error”" },
    { "{\"classes\": [{\"name\": \"e\", \"rules\": [{\"name\": \"x\", \"arg\": \"y\"}]}]}",
      "member “classes[0].rules[0]”: a rule has exactly one of" },
    { "{\"classes\": [{\"name\": \"e\", \"rules\": [{\"name\": \"x\", \"value\": \"y\"}]}]}",
      "member “classes[0].rules[0]”: only an “arg” rule has a “value”" },
    { "{\"classes\": [{\"name\": \"e\"}, {\"name\": \"e\"}]}", "member “classes[1]”: the class “e” is defined twice" },
    { "{\"processes\": [{\"pid\": 30, \"state\": \"collapsed\"}]}",
      "member “processes[0]”: the trace has no process with pid 30" },
    { "{\"processes\": [{\"pid\": 10, \"state\": \"folded\"}]}", "member “processes[0]”: unknown value “folded”" },
    { "{\"threads\": [{\"pid\": 20, \"tid\": 1, \"state\": \"hidden\"}]}",
      "member “threads[0]”: the trace has no thread with pid 20 and tid 1" },
    { "{\"focus\": {\"depth\": 17}}", "member “focus.depth”: 17 is not between 0 and 16" },
    { "{\"focus\": {\"slices\": [8]}}", "member “focus.slices”: the trace has no slice 8 (it has 8)" },
    { "{\"focus\": {\"direction\": \"sideways\"}}", "member “focus.direction”: unknown value “sideways”" },
    { "{\"focus\": {\"enabled\": 1}}", "member “focus.enabled”: expected true or false" },
  };

  sps_view_filter_set_min_duration (fx->filter, 50);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_false (sps_view_filter_load_json (fx->filter, cases[i].json, -1, &error));
      g_assert_error (error, SPS_VIEW_FILTER_ERROR, SPS_VIEW_FILTER_ERROR_INVALID);
      if (strstr (error->message, cases[i].message) == NULL)
        g_error ("%s: “%s” does not contain “%s”", cases[i].json, error->message, cases[i].message);
      /* Nothing applied */
      g_assert_cmpint (sps_view_filter_get_min_duration (fx->filter), ==, 50);
    }

  /* A file's errors name the file */
  {
    g_autoptr(GError) error = NULL;
    g_autofree char *dir = g_dir_make_tmp ("sps-filter-XXXXXX", NULL);
    g_autofree char *path = sps_test_write_file (dir, "bad.json", "{\"require\": [\"x\"]}");
    g_autoptr(GFile) file = g_file_new_for_path (path);

    g_assert_false (sps_view_filter_load_file (fx->filter, file, &error));
    g_assert_true (g_str_has_prefix (error->message, path));
    g_assert_nonnull (strstr (error->message, "unknown class “x”"));
    sps_test_remove_tree (dir);
  }

  /* A FIFO (no writer: reading it would block for ever) is refused at
   * once, and so is a file far larger than any filter; nothing applied */
  {
    g_autoptr(GError) fifo_error = NULL;
    g_autoptr(GError) big_error = NULL;
    g_autofree char *dir = g_dir_make_tmp ("sps-filter-XXXXXX", NULL);
    g_autofree char *fifo_path = g_build_filename (dir, "filter.fifo", NULL);
    g_autofree char *big_path = g_build_filename (dir, "big.json", NULL);
    g_autoptr(GFile) fifo = g_file_new_for_path (fifo_path);
    g_autoptr(GFile) big = g_file_new_for_path (big_path);
    g_autofree char *expected = NULL;
    FILE *out;

    g_assert_cmpint (mkfifo (fifo_path, 0600), ==, 0);
    g_assert_false (sps_view_filter_load_file (fx->filter, fifo, &fifo_error));
    g_assert_error (fifo_error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE);
    g_assert_true (g_str_has_prefix (fifo_error->message, fifo_path));

    /* 16 MiB + 1 byte, sparse */
    out = fopen (big_path, "w");
    g_assert_nonnull (out);
    g_assert_cmpint (fseek (out, 16 << 20, SEEK_SET), ==, 0);
    g_assert_cmpint (fputc (' ', out), ==, ' ');
    g_assert_cmpint (fclose (out), ==, 0);
    g_assert_false (sps_view_filter_load_file (fx->filter, big, &big_error));
    g_assert_error (big_error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
    expected = g_strdup_printf ("%s: 16777217 bytes is too large for a filter file (at most 16777216)", big_path);
    g_assert_cmpstr (big_error->message, ==, expected);
    g_assert_cmpint (sps_view_filter_get_min_duration (fx->filter), ==, 50);
    sps_test_remove_tree (dir);
  }
}

static void
count_changed (SpsViewFilter *filter,
               guint         *n)
{
  (*n)++;
}

static void
test_changed_signal (Fixture       *fx,
                     gconstpointer  data)
{
  guint n = 0;

  g_signal_connect (fx->filter, "changed", G_CALLBACK (count_changed), &n);
  sps_view_filter_set_window (fx->filter, 0, 10);
  sps_view_filter_set_window (fx->filter, 0, 10);
  sps_view_filter_set_min_duration (fx->filter, 5);
  sps_view_filter_set_process_expansion (fx->filter, fx->process[0], SPS_EXPANSION_COLLAPSED);
  g_assert_cmpuint (n, ==, 3);
}

/* Which of A … H a predicate lets through, as a string of 0/1 */
static char *
slice_bits (Fixture  *fx,
            gboolean (*pred) (SpsViewFilter *, guint))
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < 8; i++)
    g_string_append_c (out, pred (fx->filter, fx->s[i]) ? '1' : '0');
  return g_string_free (out, FALSE);
}

#define assert_bits(fx, pred, expected) \
  G_STMT_START { \
    g_autofree char *got_ = slice_bits (fx, pred); \
    g_assert_cmpstr (got_, ==, expected); \
  } G_STMT_END

/* The mask agrees with the predicate on every slice */
static void
assert_matched_mask (Fixture *fx)
{
  g_autoptr(GBytes) mask = sps_view_filter_dup_matched_mask (fx->filter);
  g_autoptr(GBytes) again = sps_view_filter_dup_matched_mask (fx->filter);
  gsize size;
  const guint8 *bytes = g_bytes_get_data (mask, &size);

  g_assert_cmpuint (size, ==, 8);
  for (guint i = 0; i < 8; i++)
    g_assert_cmpint (bytes[i], ==, sps_view_filter_is_slice_matched (fx->filter, i));
  /* Shared until the next change */
  g_assert_true (mask == again);
}

/* Matched = visible with every collapsed process and thread expanded:
 * what a session's search, flame graph and statistics take. Expected
 * values from the picture at the top: collapsing pid 10 keeps tid 1's
 * first lane (A only); hiding tid 3 takes G and H from both answers; a
 * 15 ns minimum drops D (10), F (10) and H (5). */
static void
test_matched (Fixture       *fx,
              gconstpointer  data)
{
  assert_bits (fx, sps_view_filter_is_slice_matched, "11111111");
  assert_matched_mask (fx);

  sps_view_filter_set_process_expansion (fx->filter, fx->process[0], SPS_EXPANSION_COLLAPSED);
  assert_bits (fx, sps_view_filter_is_slice_visible, "10000011");
  assert_bits (fx, sps_view_filter_is_slice_matched, "11111111");
  assert_matched_mask (fx);

  sps_view_filter_set_thread_expansion (fx->filter, fx->thread[2], SPS_EXPANSION_HIDDEN);
  assert_bits (fx, sps_view_filter_is_slice_visible, "10000000");
  assert_bits (fx, sps_view_filter_is_slice_matched, "11111100");
  assert_matched_mask (fx);

  sps_view_filter_set_min_duration (fx->filter, 15);
  assert_bits (fx, sps_view_filter_is_slice_matched, "11101000");
  assert_matched_mask (fx);

  /* A collapsed thread hides its deeper lanes from visibility only */
  sps_view_filter_set_process_expansion (fx->filter, fx->process[0], SPS_EXPANSION_EXPANDED);
  sps_view_filter_set_thread_expansion (fx->filter, fx->thread[0], SPS_EXPANSION_COLLAPSED);
  assert_bits (fx, sps_view_filter_is_slice_visible, "10001000");
  assert_bits (fx, sps_view_filter_is_slice_matched, "11101000");
  assert_matched_mask (fx);
}

/* Replacing a class's rules: the bits follow the new patterns only (by
 * hand from the categories at the top: cat1 is A C D E F; gc and error
 * are B G H) */
static void
test_replace_rules (Fixture       *fx,
                    gconstpointer  data)
{
  const char *cat1[] = { "cat1", NULL };
  const char *gc_error[] = { "gc", "error", NULL };
  const char *none[] = { NULL };
  g_autoptr(GError) error = NULL;
  int bit;

  g_assert_true (sps_view_filter_replace_rules (fx->filter, "shown", SPS_CLASS_RULE_CATEGORY, cat1, &error));
  g_assert_no_error (error);
  bit = sps_view_filter_lookup_class (fx->filter, "shown");
  g_assert_cmpint (bit, ==, 0);
  sps_view_filter_set_class_masks (fx->filter, 1u << bit, 0);
  assert_bits (fx, sps_view_filter_is_slice_matched, "10111100");
  g_assert_cmpuint (sps_view_filter_get_visible_count (fx->filter), ==, 5);

  g_assert_true (sps_view_filter_replace_rules (fx->filter, "shown", SPS_CLASS_RULE_CATEGORY, gc_error, &error));
  assert_bits (fx, sps_view_filter_is_slice_matched, "01000011");
  g_assert_cmpuint (sps_view_filter_get_visible_count (fx->filter), ==, 3);
  g_assert_cmpuint (sps_view_filter_get_n_classes (fx->filter), ==, 1);

  g_assert_true (sps_view_filter_replace_rules (fx->filter, "shown", SPS_CLASS_RULE_CATEGORY, none, &error));
  assert_bits (fx, sps_view_filter_is_slice_matched, "00000000");
  g_assert_cmpuint (sps_view_filter_get_visible_count (fx->filter), ==, 0);
}

/* The tracks of each group, in track order: tid 1 its slices, tid 2 its
 * slices then its instants, tid 3 its slices; the global group and the
 * processes' own groups have none in this trace */
static void
test_group_tracks (Fixture       *fx,
                   gconstpointer  data)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (fx->trace);
  static const guint expected_n[] = { 0, 1, 2, 0, 1, 0 };
  const guint32 *list;
  guint n;

  g_assert_cmpuint (sps_view_filter_get_n_groups (fx->filter), ==, 6);
  for (guint g = 0; g < 6; g++)
    {
      list = sps_view_filter_get_group_tracks (fx->filter, g, &n);
      g_assert_cmpuint (n, ==, expected_n[g]);
    }
  list = sps_view_filter_get_group_tracks (fx->filter, 2, &n);
  g_assert_cmpuint (tracks->kind[list[0]], ==, SPS_TRACK_THREAD_SLICES);
  g_assert_cmpuint (tracks->kind[list[1]], ==, SPS_TRACK_THREAD_INSTANTS);
  g_assert_cmpuint (tracks->thread[list[0]], ==, fx->thread[1]);
  g_assert_cmpuint (list[0], <, list[1]);
}

/* All of a track's lanes, whatever collapse or hiding shows: tid 1's
 * slice track has depths 0–2 (A, B/C, D), tid 2's two (E, F) and its
 * instant track one (the picture at the top). */
static void
test_track_lanes (Fixture       *fx,
                  gconstpointer  data)
{
  guint t1 = fx->trace->slices.track[fx->s[A]];
  guint t2 = fx->trace->slices.track[fx->s[E]];
  const guint32 *tracks;
  guint n;

  sps_view_filter_set_process_expansion (fx->filter, fx->process[0], SPS_EXPANSION_HIDDEN);
  g_assert_cmpuint (sps_view_filter_get_track_lanes_shown (fx->filter, t1), ==, 0);
  g_assert_cmpuint (sps_view_filter_get_track_lanes (fx->filter, t1), ==, 3);
  g_assert_cmpuint (sps_view_filter_get_track_lanes (fx->filter, t2), ==, 2);
  tracks = sps_view_filter_get_group_tracks (fx->filter, group_of_thread (fx, 2), &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (sps_view_filter_get_track_lanes (fx->filter, tracks[1]), ==, 1);
}

/* The rules on slices alone, whatever hides or folds their thread or
 * process: with pid 10 hidden, A … F are not matched but pass; a 15 ns
 * minimum then fails D (10 ns) and F (10 ns) and H (5 ns) whatever the
 * expansion; excluding the "error" class (B's category) fails B too. */
static void
test_passes_rules (Fixture       *fx,
                   gconstpointer  data)
{
  int error;

  sps_view_filter_set_process_expansion (fx->filter, fx->process[0], SPS_EXPANSION_HIDDEN);
  sps_view_filter_set_thread_expansion (fx->filter, fx->thread[2], SPS_EXPANSION_COLLAPSED);
  assert_bits (fx, sps_view_filter_is_slice_matched, "00000011");
  assert_bits (fx, sps_view_filter_slice_passes_rules, "11111111");

  sps_view_filter_set_min_duration (fx->filter, 15);
  assert_bits (fx, sps_view_filter_slice_passes_rules, "11101010");

  g_assert_true (sps_view_filter_add_rule (fx->filter, "error", SPS_CLASS_RULE_CATEGORY, "error", NULL, NULL));
  error = sps_view_filter_lookup_class (fx->filter, "error");
  g_assert_cmpint (error, >=, 0);
  sps_view_filter_set_class_masks (fx->filter, 0, 1u << error);
  assert_bits (fx, sps_view_filter_slice_passes_rules, "10101010");
  assert_bits (fx, sps_view_filter_is_slice_matched, "00000010");
}

#define TEST(path, func) \
  g_test_add ("/core/view-filter/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  TEST ("layout/expanded", test_layout_expanded);
  TEST ("layout/thread-collapsed", test_layout_thread_collapsed);
  TEST ("layout/process-collapsed", test_layout_process_collapsed);
  g_test_add ("/core/view-filter/layout/invalid-mapping", Fixture, GINT_TO_POINTER (1),
              fixture_setup, test_invalid_mapping, fixture_teardown);
  g_test_add_func ("/core/view-filter/layout/mismatched-mapping", test_mismatched_mapping);
  TEST ("time/window", test_window);
  TEST ("time/min-duration", test_min_duration);
  TEST ("classes/masks", test_classes);
  TEST ("classes/too-many", test_too_many_classes);
  TEST ("focus/depth-direction", test_focus);
  TEST ("projection", test_projection);
  TEST ("pick", test_pick);
  TEST ("json/roundtrip", test_json_roundtrip);
  TEST ("json/errors", test_json_errors);
  TEST ("changed-signal", test_changed_signal);
  TEST ("matched", test_matched);
  TEST ("classes/replace-rules", test_replace_rules);
  TEST ("layout/group-tracks", test_group_tracks);
  TEST ("layout/track-lanes", test_track_lanes);
  TEST ("passes-rules", test_passes_rules);

  return g_test_run ();
}
