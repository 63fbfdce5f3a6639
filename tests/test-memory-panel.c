/* test-memory-panel.c: the Memory panel's model (SpsOutstandingTree) and
 * the "Outstanding bytes" counter series (issue 16, the panel)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * On allocTrace (the shared fixture, skipped when ../shared is missing)
 * and on a capture built here whose births, deaths and GCs are known.
 * Every expected value was checked by hand, as each test's comment says.
 */

#include <string.h>

#include <spanscope-core.h>

#include "sps-test-util.h"

/* Helpers */

static void
assert_summary (SpsOutstandingTree *tree,
                guint64             known_count,
                guint64             known_bytes,
                guint64             uncertain_count,
                guint64             uncertain_bytes,
                guint64             unknown_size_count)
{
  SpsOutstanding sum;

  sps_outstanding_tree_get_summary (tree, &sum);
  g_test_message ("at %" G_GINT64_FORMAT " ns", sps_outstanding_tree_get_time (tree));
  g_assert_cmpuint (sum.known_count, ==, known_count);
  g_assert_cmpuint (sum.known_bytes, ==, known_bytes);
  g_assert_cmpuint (sum.uncertain_count, ==, uncertain_count);
  g_assert_cmpuint (sum.uncertain_bytes, ==, uncertain_bytes);
  g_assert_cmpuint (sum.unknown_size_count, ==, unknown_size_count);
}

/* One line per function, in the tree's order: name, then known inclusive
 * bytes/count, exclusive bytes/count, uncertain inclusive bytes/count and
 * exclusive bytes/count, then the note */
static char *
function_rows (SpsOutstandingTree *tree,
               guint               max_rows)
{
  SpsTrace *trace = sps_outstanding_tree_get_trace (tree);
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < MIN (max_rows, sps_outstanding_tree_get_n_functions (tree)); i++)
    {
      const SpsOutstandingFunction *fn = sps_outstanding_tree_get_function (tree, i);
      g_autofree char *note = sps_outstanding_tree_dup_note (tree, i);

      g_string_append_printf (out, "%s %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "/%"
                              G_GUINT64_FORMAT " ~%" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT " ~%" G_GUINT64_FORMAT
                              "/%" G_GUINT64_FORMAT "%s%s\n",
                              fn->name != 0 ? sps_trace_get_string (trace, fn->name) : "-",
                              fn->inclusive.bytes, fn->inclusive.count, fn->exclusive.bytes, fn->exclusive.count,
                              fn->inclusive_uncertain.bytes, fn->inclusive_uncertain.count,
                              fn->exclusive_uncertain.bytes, fn->exclusive_uncertain.count,
                              note[0] != '\0' ? " | " : "", note);
    }
  return g_string_free (out, FALSE);
}

static void
assert_functions (SpsOutstandingTree *tree,
                  guint               max_rows,
                  const char         *expected)
{
  g_autofree char *rows = function_rows (tree, max_rows);

  g_assert_cmpstr (rows, ==, expected);
}

/* A counter series as "ts:value" pairs */
static char *
counter_points (SpsTrace   *trace,
                const char *name,
                const char *series)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  const SpsCounterTable *counters = sps_trace_get_counters (trace);
  GString *out = g_string_new (NULL);

  for (guint t = 0; t < tracks->n_rows; t++)
    {
      if (tracks->kind[t] != SPS_TRACK_COUNTER ||
          g_strcmp0 (sps_trace_get_string (trace, tracks->name[t]), name) != 0 ||
          g_strcmp0 (sps_trace_get_string (trace, tracks->series[t]), series) != 0)
        continue;
      for (guint r = 0; r < counters->n_rows; r++)
        if (counters->track[r] == t)
          g_string_append_printf (out, "%s%" G_GINT64_FORMAT ":%.0f", out->len > 0 ? " " : "",
                                  counters->ts[r], counters->value[r]);
    }
  return g_string_free (out, FALSE);
}

static void
assert_counter (SpsTrace   *trace,
                const char *name,
                const char *series,
                const char *expected)
{
  g_autofree char *points = counter_points (trace, name, series);

  g_assert_cmpstr (points, ==, expected);
}

/* The trace of @b, which must finish without an error */
static SpsTrace *
finish (SpsTraceBuilder *b)
{
  g_autoptr(GError) error = NULL;
  SpsTrace *trace = sps_trace_builder_finish (b, NULL, &error);

  g_assert_no_error (error);
  return trace;
}

/* allocTrace */

static SpsTrace *
load_alloc_trace (void)
{
  g_autofree char *path = sps_test_shared_fixture_path ("nettrace", "shirhatti__allocTrace.nettrace");

  return path != NULL ? sps_test_load_path (path) : NULL;
}

#define MAIN "CoreConsoleAp!CoreConsoleAp.Program.Main(class System.String[])"
#define GET_FILES "System.IO.FileSystem!System.IO.Directory.GetFiles(class System.String)"
#define STRING_CTOR "System.Private.CoreLib!System.String.Ctor(value class System.ReadOnlySpan`1<wchar>)"
#define WRITER_CTOR \
  "System.Private.CoreLib!System.IO.StreamWriter..ctor(class System.IO.Stream,class System.Text.Encoding,int32,bool)"

/* The top functions at the capture's end and at 7.3 s. Checked by a
 * different route than the tree's: SQL over the allocations, callsites
 * and frames tables, a recursive walk of each exact allocation's stack to
 * its root, DISTINCT (allocation, frame name) pairs (so recursion counts
 * once) summed per name for inclusive, and the leaf frame's name for
 * exclusive (GetFiles allocates one 46-byte object itself, before
 * 7.3 s). The totals are those of test-memory's outstanding test
 * (717 allocations, 64,762 bytes at the end; 436, 29,572 at 7.3 s) and
 * Main is on every stack, so its inclusive row is the total. Nothing
 * born is reported dead, and the 83 objects of unknown birth are dead by
 * GC #1 (3.0964 ms), so nothing is uncertain at these times. */
static void
test_alloc_trace_functions (void)
{
  g_autoptr(SpsTrace) trace = load_alloc_trace ();
  g_autoptr(SpsOutstandingTree) end = NULL;
  g_autoptr(SpsOutstandingTree) mid = NULL;
  guint row;

  if (trace == NULL)
    return;

  end = sps_outstanding_tree_new (trace, sps_trace_get_end_time (trace), SPS_TIME_MIN, SPS_TIME_MAX, SPS_NO_INDEX);
  assert_summary (end, 717, 64762, 0, 0, 0);
  assert_functions (end, 2,
                    MAIN " 64762/717 0/0 ~0/0 ~0/0\n"
                    GET_FILES " 30436/362 46/1 ~0/0 ~0/0\n");
  row = sps_outstanding_tree_find_function (end, STRING_CTOR);
  g_assert_cmpuint (row, !=, SPS_NO_INDEX);
  g_assert_cmpuint (sps_outstanding_tree_get_function (end, row)->exclusive.bytes, ==, 16064);
  g_assert_cmpuint (sps_outstanding_tree_get_function (end, row)->exclusive.count, ==, 157);

  mid = sps_outstanding_tree_new (trace, G_GINT64_CONSTANT (7300000000), SPS_TIME_MIN, SPS_TIME_MAX, SPS_NO_INDEX);
  assert_summary (mid, 436, 29572, 0, 0, 0);
  assert_functions (mid, 3,
                    MAIN " 29572/436 0/0 ~0/0 ~0/0\n"
                    GET_FILES " 17118/265 46/1 ~0/0 ~0/0\n"
                    "System.Console!System.Console.WriteLine(class System.String) 12216/165 0/0 ~0/0 ~0/0\n");
  row = sps_outstanding_tree_find_function (mid, WRITER_CTOR);
  g_assert_cmpuint (sps_outstanding_tree_get_function (mid, row)->exclusive.bytes, ==, 4170);
  g_assert_cmpuint (sps_outstanding_tree_get_function (mid, row)->exclusive.count, ==, 3);
}

/* Before GC #1 only the 83 objects of unknown birth (no stack, no size)
 * are outstanding, and only possibly: one row without a stack, said to
 * be of unknown birth. */
static void
test_alloc_trace_unknown_births (void)
{
  g_autoptr(SpsTrace) trace = load_alloc_trace ();
  g_autoptr(SpsOutstandingTree) tree = NULL;
  g_autofree char *note = NULL;
  g_autoptr(GArray) paths = NULL;

  if (trace == NULL)
    return;

  tree = sps_outstanding_tree_new (trace, 3000000, SPS_TIME_MIN, SPS_TIME_MAX, SPS_NO_INDEX);
  assert_summary (tree, 0, 0, 83, 0, 83);
  assert_functions (tree, 10, "- 0/0 0/0 ~0/83 ~0/83 | 83 of unknown birth\n");
  note = sps_outstanding_tree_dup_summary_note (tree);
  g_assert_cmpstr (note, ==, "83 of unknown birth");
  paths = sps_outstanding_tree_dup_paths (tree, 0);
  g_assert_cmpuint (paths->len, ==, 0);
}

/* The capture's counter: the known series rises by each allocation's
 * size at its birth (717 points, the births all at distinct times) and
 * ends at the total; the second series also carries the 83 objects of
 * unknown birth (no size) until GC #1 */
static void
test_alloc_trace_counter (void)
{
  g_autoptr(SpsTrace) trace = load_alloc_trace ();
  g_autofree char *known = NULL;
  g_auto(GStrv) points = NULL;

  if (trace == NULL)
    return;

  known = counter_points (trace, "Outstanding bytes (managed)", "known");
  g_assert_true (g_str_has_prefix (known, "2246200:0 7195745700:48 "));
  g_assert_true (g_str_has_suffix (known, " 7382369200:64762"));
  points = g_strsplit (known, " ", -1);
  g_assert_cmpuint (g_strv_length (points), ==, 718);
}

/* A capture built here. Process 1, times in ns:
 *
 *   GC #1 1000–1100, GC #2 2000–2100, GC #3 3000–3100
 *   a1 birth  100,  10 B, Main;A.make           exact, never dead
 *   a2 birth  200,  20 B, Main;mid;B.make       exact, reported dead at GC #3:
 *                                               alive until GC #2 (2000), dead by 3000
 *   a3 birth 1500,  40 B, Main;mid;mid;B.make   exact, reported dead at GC #2,
 *                                               born after GC #1: bounds 1500, 2000
 *   a4 birth 2500,  80 B, no stack              sampled
 *   a5 birth  300, 160 B, Main;A.make           in_gap: events lost from 2600
 *   a6 birth unknown, size unknown, Main;A.make unknown_birth, dead by GC #1
 *
 * The bounds are what the .NET importer gives (see test-memory); here
 * the builder gets them directly so that the stacks can be chosen. */
static SpsTrace *
build_capture (void)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  guint32 process = sps_trace_builder_ensure_process (b, 1);
  guint32 main_frame = sps_trace_builder_intern_frame (b, sps_trace_builder_intern (b, "Main", -1), 0, 0, 1);
  guint32 a_frame = sps_trace_builder_intern_frame (b, sps_trace_builder_intern (b, "A.make", -1), 0, 0, 2);
  guint32 mid_frame = sps_trace_builder_intern_frame (b, sps_trace_builder_intern (b, "mid", -1), 0, 0, 3);
  guint32 b_frame = sps_trace_builder_intern_frame (b, sps_trace_builder_intern (b, "B.make", -1), 0, 0, 4);
  guint32 main_cs = sps_trace_builder_intern_callsite (b, SPS_NO_INDEX, main_frame);
  guint32 a_cs = sps_trace_builder_intern_callsite (b, main_cs, a_frame);
  guint32 mid_cs = sps_trace_builder_intern_callsite (b, main_cs, mid_frame);
  guint32 b_cs = sps_trace_builder_intern_callsite (b, mid_cs, b_frame);
  guint32 deep_b_cs = sps_trace_builder_intern_callsite (b, sps_trace_builder_intern_callsite (b, mid_cs, mid_frame),
                                                         b_frame);
  guint32 a;

  for (guint n = 1; n <= 3; n++)
    {
      sps_trace_builder_add_gc_observation (b, process, SPS_NO_INDEX, n * 1000, SPS_GC_START, n, 0, 0);
      sps_trace_builder_add_gc_observation (b, process, SPS_NO_INDEX, n * 1000 + 100, SPS_GC_END, n, 0, 0);
    }

  a = sps_trace_builder_add_allocation (b, process, SPS_NO_INDEX, 100, 10, 0, 0xa1, SPS_HEAP_MANAGED,
                                        SPS_ALLOCATION_EXACT);
  sps_trace_builder_set_allocation_callsite (b, a, a_cs);
  a = sps_trace_builder_add_allocation (b, process, SPS_NO_INDEX, 200, 20, 0, 0xa2, SPS_HEAP_MANAGED,
                                        SPS_ALLOCATION_EXACT);
  sps_trace_builder_set_allocation_callsite (b, a, b_cs);
  sps_trace_builder_set_allocation_death (b, a, 2000, 3000);
  a = sps_trace_builder_add_allocation (b, process, SPS_NO_INDEX, 1500, 40, 0, 0xa3, SPS_HEAP_MANAGED,
                                        SPS_ALLOCATION_EXACT);
  sps_trace_builder_set_allocation_callsite (b, a, deep_b_cs);
  sps_trace_builder_set_allocation_death (b, a, 1500, 2000);
  sps_trace_builder_add_allocation (b, process, SPS_NO_INDEX, 2500, 80, 0, 0xa4, SPS_HEAP_MANAGED,
                                    SPS_ALLOCATION_SAMPLED);
  a = sps_trace_builder_add_allocation (b, process, SPS_NO_INDEX, 300, 160, 0, 0xa5, SPS_HEAP_MANAGED,
                                        SPS_ALLOCATION_IN_GAP);
  sps_trace_builder_set_allocation_callsite (b, a, a_cs);
  sps_trace_builder_set_allocation_death (b, a, 2600, SPS_TIME_MAX);
  a = sps_trace_builder_add_allocation (b, process, SPS_NO_INDEX, SPS_TIME_MIN, SPS_SIZE_UNKNOWN, 0, 0xa6,
                                        SPS_HEAP_MANAGED, SPS_ALLOCATION_UNKNOWN_BIRTH);
  sps_trace_builder_set_allocation_callsite (b, a, a_cs);
  sps_trace_builder_set_allocation_death (b, a, SPS_TIME_MIN, 1000);

  return finish (b);
}

/* At 1700: a1, a2 and a5 surely alive (190 B); a3 between its bounds
 * (born after GC #1, dead by GC #2: "before GC 2"); a4 not born; a6
 * dead. mid is on a3's stack twice but counts it once; mid and B.make
 * tie and go by name. */
static void
test_generated_functions (void)
{
  g_autoptr(SpsTrace) trace = build_capture ();
  g_autoptr(SpsOutstandingTree) tree = sps_outstanding_tree_new (trace, 1700, SPS_TIME_MIN, SPS_TIME_MAX,
                                                                 SPS_NO_INDEX);
  g_autofree char *note = NULL;

  assert_summary (tree, 3, 190, 1, 40, 0);
  assert_functions (tree, 10,
                    "Main 190/3 0/0 ~40/1 ~0/0 | 1 may have died before GC 2\n"
                    "A.make 170/2 170/2 ~0/0 ~0/0\n"
                    "B.make 20/1 20/1 ~40/1 ~40/1 | 1 may have died before GC 2\n"
                    "mid 20/1 0/0 ~40/1 ~0/0 | 1 may have died before GC 2\n");
  note = sps_outstanding_tree_dup_summary_note (tree);
  g_assert_cmpstr (note, ==, "1 may have died before GC 2");
}

/* GC bounds and the other uncertain kinds, at chosen times:
 *   2500: a2 is past GC #2 and before GC #3, so unknown "between GC 2
 *         and GC 3", never counted as known; a3 dead by GC #2; a4
 *         (sampled) just born; a1 and a5 known (170 B)
 *   2700: a5's gap began at 2600: uncertain from then on
 *    500: a6, of unknown birth and size, possibly alive until GC #1 */
static void
test_generated_uncertain (void)
{
  g_autoptr(SpsTrace) trace = build_capture ();
  g_autoptr(SpsOutstandingTree) at_2500 = sps_outstanding_tree_new (trace, 2500, SPS_TIME_MIN, SPS_TIME_MAX,
                                                                    SPS_NO_INDEX);
  g_autoptr(SpsOutstandingTree) at_2700 = sps_outstanding_tree_new (trace, 2700, SPS_TIME_MIN, SPS_TIME_MAX,
                                                                    SPS_NO_INDEX);
  g_autoptr(SpsOutstandingTree) at_500 = sps_outstanding_tree_new (trace, 500, SPS_TIME_MIN, SPS_TIME_MAX,
                                                                   SPS_NO_INDEX);
  g_autofree char *note = NULL;
  SpsCountBytes sampled;
  SpsCountBytes bounded;

  assert_summary (at_2500, 2, 170, 2, 100, 0);
  assert_functions (at_2500, 10,
                    "Main 170/2 0/0 ~20/1 ~0/0 | 1 may have died between GC 2 and GC 3\n"
                    "A.make 170/2 170/2 ~0/0 ~0/0\n"
                    "- 0/0 0/0 ~80/1 ~80/1 | 1 sampled\n"
                    "B.make 0/0 0/0 ~20/1 ~20/1 | 1 may have died between GC 2 and GC 3\n"
                    "mid 0/0 0/0 ~20/1 ~0/0 | 1 may have died between GC 2 and GC 3\n");
  note = sps_outstanding_tree_dup_summary_note (at_2500);
  g_assert_cmpstr (note, ==, "1 may have died between GC 2 and GC 3; 1 sampled");
  sps_outstanding_tree_get_uncertain (at_2500, SPS_UNCERTAIN_SAMPLED, &sampled);
  g_assert_cmpuint (sampled.count, ==, 1);
  g_assert_cmpuint (sampled.bytes, ==, 80);
  sps_outstanding_tree_get_uncertain (at_2500, SPS_UNCERTAIN_GC_BOUNDS, &bounded);
  g_assert_cmpuint (bounded.count, ==, 1);
  g_assert_cmpuint (bounded.bytes, ==, 20);

  assert_summary (at_2700, 1, 10, 3, 260, 0);
  g_clear_pointer (&note, g_free);
  note = sps_outstanding_tree_dup_summary_note (at_2700);
  g_assert_cmpstr (note, ==, "1 may have died between GC 2 and GC 3; 1 in a capture gap; 1 sampled");

  assert_summary (at_500, 3, 190, 1, 0, 1);
  assert_functions (at_500, 2,
                    "Main 190/3 0/0 ~0/1 ~0/0 | 1 of unknown birth\n"
                    "A.make 170/2 170/2 ~0/1 ~0/1 | 1 of unknown birth\n");
}

/* Born in [150, 1600) at 1700: a2 (200) and a5 (300) known, a3 (1500)
 * uncertain; a1 (100) born before, a6's birth unknown so not in any
 * range that has a start. [unbounded, 250) at 500 keeps a6, a1, a2. */
static void
test_generated_birth_filter (void)
{
  g_autoptr(SpsTrace) trace = build_capture ();
  g_autoptr(SpsOutstandingTree) ranged = sps_outstanding_tree_new (trace, 1700, 150, 1600, SPS_NO_INDEX);
  g_autoptr(SpsOutstandingTree) early = sps_outstanding_tree_new (trace, 500, SPS_TIME_MIN, 250, SPS_NO_INDEX);
  g_autoptr(SpsOutstandingTree) empty = sps_outstanding_tree_new (trace, 1700, 1600, 1700, SPS_NO_INDEX);

  assert_summary (ranged, 2, 180, 1, 40, 0);
  assert_functions (ranged, 2,
                    "Main 180/2 0/0 ~40/1 ~0/0 | 1 may have died before GC 2\n"
                    "A.make 160/1 160/1 ~0/0 ~0/0\n");
  assert_summary (early, 2, 30, 1, 0, 1);
  assert_summary (empty, 0, 0, 0, 0, 0);
  g_assert_cmpuint (sps_outstanding_tree_get_n_functions (empty), ==, 0);
}

/* mid's allocation paths at 1700: a2's Main;mid;B.make (20 B known) and
 * a3's Main;mid;mid;B.make (40 B uncertain), merged on their prefix;
 * siblings by known bytes, so B.make (20) before the inner mid (0) */
static void
test_generated_paths (void)
{
  g_autoptr(SpsTrace) trace = build_capture ();
  g_autoptr(SpsOutstandingTree) tree = sps_outstanding_tree_new (trace, 1700, SPS_TIME_MIN, SPS_TIME_MAX,
                                                                 SPS_NO_INDEX);
  g_autoptr(GArray) paths = sps_outstanding_tree_dup_paths (tree, sps_outstanding_tree_find_function (tree, "mid"));
  const SpsCallsiteTable *cs = sps_trace_get_callsites (trace);
  const SpsFrameTable *frames = sps_trace_get_frames (trace);
  GString *out = g_string_new (NULL);
  g_autofree char *text = NULL;

  for (guint i = 0; i < paths->len; i++)
    {
      const SpsOutstandingPath *p = &g_array_index (paths, SpsOutstandingPath, i);

      g_string_append_printf (out, "%u %s %d %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT " ~%" G_GUINT64_FORMAT "\n",
                              p->depth, sps_trace_get_string (trace, frames->name[cs->frame[p->callsite]]),
                              p->parent == SPS_NO_INDEX ? -1 : (int) p->parent,
                              p->known.bytes, p->known.count, p->uncertain.bytes);
    }
  text = g_string_free (out, FALSE);
  g_assert_cmpstr (text, ==,
                   "0 Main -1 20/1 ~40\n"
                   "1 mid 0 20/1 ~40\n"
                   "2 B.make 1 20/1 ~0\n"
                   "2 mid 1 0/0 ~40\n"
                   "3 B.make 3 0/0 ~40\n");
}

/* The counter series, step by step from the design above. The trace
 * starts at a1's birth (100; a6's birth is unknown) and ends at GC #3's
 * end (3100).
 *   known: +10@100 +20@200 +160@300, a3 +40−40@1500 (its death_after
 *     is its birth), −20@2000 (a2's death_after), −160@2600 (a5's gap)
 *   known + uncertain: a6 (no size) from the start to 1000, a3 until
 *     2000, a2 until 3000, a4 from 2500, a5 to the end */
static void
test_generated_counter (void)
{
  g_autoptr(SpsTrace) trace = build_capture ();
  SpsOutstanding out;

  g_assert_cmpint (sps_trace_get_start_time (trace), ==, 100);
  g_assert_cmpint (sps_trace_get_end_time (trace), ==, 3100);
  assert_counter (trace, "Outstanding bytes (managed)", "known",
                  "100:10 200:30 300:190 1500:190 2000:170 2600:10");
  assert_counter (trace, "Outstanding bytes (managed)", "known + uncertain",
                  "100:10 200:30 300:190 1000:190 1500:230 2000:190 2500:270 3000:250");

  /* The panel's sums agree with the series at a step (2500: known 170,
   * known + uncertain 270) */
  sps_trace_sum_outstanding (trace, 2500, SPS_NO_INDEX, &out);
  g_assert_cmpuint (out.known_bytes, ==, 170);
  g_assert_cmpuint (out.known_bytes + out.uncertain_bytes, ==, 270);
}

/* A capture of allocations alone (no slices, samples or GCs) spans its
 * births and deaths: [50, 90] here, not zero; exact lives only, so one
 * series */
static void
test_allocations_only_span (void)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  g_autoptr(SpsTrace) trace = NULL;
  guint32 process = sps_trace_builder_ensure_process (b, 9);
  guint32 a;

  sps_trace_builder_add_allocation (b, process, SPS_NO_INDEX, 50, 8, 0, 1, SPS_HEAP_NATIVE, SPS_ALLOCATION_EXACT);
  a = sps_trace_builder_add_allocation (b, process, SPS_NO_INDEX, 70, 4, 0, 2, SPS_HEAP_NATIVE, SPS_ALLOCATION_EXACT);
  sps_trace_builder_set_allocation_death (b, a, 90, 90);
  trace = finish (b);

  g_assert_cmpint (sps_trace_get_start_time (trace), ==, 50);
  g_assert_cmpint (sps_trace_get_end_time (trace), ==, 90);
  assert_counter (trace, "Outstanding bytes (native)", "known", "50:8 70:12 90:8");
  assert_counter (trace, "Outstanding bytes (native)", "known + uncertain", "");
}

/* Rows that already hold the series (as a saved profile read back would
 * give them) are kept as they are: no second copy of the points */
static void
test_counter_not_twice (void)
{
  g_autoptr(SpsTraceBuilder) b = sps_trace_builder_new ();
  g_autoptr(SpsTrace) trace = NULL;
  guint32 process = sps_trace_builder_ensure_process (b, 9);
  guint32 track = sps_trace_builder_ensure_counter_track (b, process,
                                                          sps_trace_builder_intern (b, "Outstanding bytes (native)", -1),
                                                          sps_trace_builder_intern (b, "known", -1));

  sps_trace_builder_add_counter_value (b, track, 50, 8);
  sps_trace_builder_add_allocation (b, process, SPS_NO_INDEX, 50, 8, 0, 1, SPS_HEAP_NATIVE, SPS_ALLOCATION_EXACT);
  trace = finish (b);

  assert_counter (trace, "Outstanding bytes (native)", "known", "50:8");
  g_assert_cmpuint (sps_trace_get_counters (trace)->n_rows, ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/memory-panel/alloctrace/functions", test_alloc_trace_functions);
  g_test_add_func ("/memory-panel/alloctrace/unknown-births", test_alloc_trace_unknown_births);
  g_test_add_func ("/memory-panel/alloctrace/counter", test_alloc_trace_counter);
  g_test_add_func ("/memory-panel/generated/functions", test_generated_functions);
  g_test_add_func ("/memory-panel/generated/uncertain", test_generated_uncertain);
  g_test_add_func ("/memory-panel/generated/birth-filter", test_generated_birth_filter);
  g_test_add_func ("/memory-panel/generated/paths", test_generated_paths);
  g_test_add_func ("/memory-panel/generated/counter", test_generated_counter);
  g_test_add_func ("/memory-panel/allocations-only/time-span", test_allocations_only_span);
  g_test_add_func ("/memory-panel/counter/not-twice", test_counter_not_twice);

  return g_test_run ();
}
