/* test-flame-tree.c: SpsFlameTree built from our fixtures
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every expected number was worked out by hand from the fixture's JSON;
 * the comment next to it says how. Times are nanoseconds (the fixtures'
 * µs × 1000).
 */

#define G_LOG_DOMAIN "sps-test-flame-tree"

#include "config.h"

#include <string.h>

#include <spanscope-core.h>

#include "sps-test-util.h"

static guint32
thread_row (SpsTrace *trace,
            gint64    tid)
{
  const SpsThreadTable *threads = sps_trace_get_threads (trace);

  for (guint i = 0; i < threads->n_rows; i++)
    {
      if (threads->tid[i] == tid)
        return i;
    }
  g_assert_not_reached ();
}

static SpsFlameTree *
build (SpsTrace                 *trace,
       const SpsFlameTreeParams *params)
{
  g_autoptr(GError) error = NULL;
  SpsFlameTree *tree = sps_flame_tree_build (trace, params, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (tree);

  return tree;
}

static SpsFlameTree *
build_simple (SpsTrace         *trace,
              SpsFlameTreeKind  kind,
              gint64            tid)
{
  SpsFlameTreeParams params;

  sps_flame_tree_params_init (&params, kind);
  if (tid >= 0)
    params.thread = thread_row (trace, tid);

  return build (trace, &params);
}

/* The node at a `;`-separated path from the root, which must exist. */
static const SpsFlameNode *
node_at (SpsFlameTree *tree,
         const char   *path)
{
  SpsTrace *trace = sps_flame_tree_get_trace (tree);
  g_auto(GStrv) parts = g_strsplit (path, ";", -1);
  guint node = 0;

  for (guint i = 0; parts[i] != NULL; i++)
    {
      guint32 name = sps_string_pool_lookup (sps_trace_get_strings (trace), parts[i], -1);

      g_assert_cmpuint (name, !=, SPS_NO_INDEX);
      node = sps_flame_tree_find_child (tree, node, name);
      if (node == SPS_NO_INDEX)
        g_error ("no node %s", path);
    }

  return sps_flame_tree_get_node (tree, node);
}

static guint
n_children (SpsFlameTree       *tree,
            const SpsFlameNode *node)
{
  guint n = 0;

  for (guint32 c = node->first_child; c != SPS_NO_INDEX; c = sps_flame_tree_get_node (tree, c)->next_sibling)
    n++;

  return n;
}

static const SpsFlameFunction *
function_named (SpsFlameTree *tree,
                const char   *name)
{
  SpsTrace *trace = sps_flame_tree_get_trace (tree);
  guint32 id = sps_string_pool_lookup (sps_trace_get_strings (trace), name, -1);
  const SpsFlameFunction *f = sps_flame_tree_lookup_function (tree, id);

  g_assert_nonnull (f);

  return f;
}

/* sampled_stacks.json, thread 11: P at 100 µs, sf "2" (work, parent
 * main), weight 250 us; P at 10,000 µs, sf 1 (main), weight 500 us. */
static void
test_samples_thread11 (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("sampled_stacks.json");
  g_autoptr(SpsFlameTree) tree = build_simple (trace, SPS_FLAME_TREE_SAMPLES, 11);
  const SpsFlameNode *root = sps_flame_tree_get_node (tree, 0);
  const SpsFlameNode *main_node = node_at (tree, "main");
  const SpsFlameNode *work = node_at (tree, "main;work");

  g_assert_cmpint (sps_flame_tree_get_kind (tree), ==, SPS_FLAME_TREE_SAMPLES);
  g_assert_false (sps_flame_tree_get_values_are_estimates (tree));
  g_assert_cmpint (root->inclusive, ==, 2);
  g_assert_cmpuint (n_children (tree, root), ==, 1);

  /* The seed: 2 inclusive samples, 1 exclusive, 750 µs estimated CPU */
  g_assert_cmpint (main_node->inclusive, ==, 2);
  g_assert_cmpint (main_node->exclusive, ==, 1);
  g_assert_cmpfloat (main_node->cpu_inclusive, ==, 750000.0);
  g_assert_cmpfloat (main_node->cpu_exclusive, ==, 500000.0);
  g_assert_cmpuint (main_node->n_estimated_inclusive, ==, 2);
  g_assert_cmpuint (main_node->n_estimated_exclusive, ==, 1);
  g_assert_cmpuint (main_node->depth, ==, 1);

  g_assert_cmpint (work->inclusive, ==, 1);
  g_assert_cmpint (work->exclusive, ==, 1);
  g_assert_cmpfloat (work->cpu_inclusive, ==, 250000.0);
  g_assert_cmpuint (work->depth, ==, 2);
  g_assert_cmpuint (work->first_child, ==, SPS_NO_INDEX);

  /* The gaps between samples (9,900 µs here) are no CPU time: the root's
   * estimate is the sum of the two weights and nothing else */
  g_assert_cmpfloat (root->cpu_inclusive, ==, 750000.0);
}

/* Thread 12: one P at 4,000 µs, sf "2", no weight. */
static void
test_samples_thread12 (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("sampled_stacks.json");
  g_autoptr(SpsFlameTree) tree = build_simple (trace, SPS_FLAME_TREE_SAMPLES, 12);
  const SpsFlameNode *main_node = node_at (tree, "main");
  const SpsFlameNode *work = node_at (tree, "main;work");

  g_assert_cmpint (main_node->inclusive, ==, 1);
  g_assert_cmpint (main_node->exclusive, ==, 0);
  g_assert_cmpint (work->inclusive, ==, 1);
  g_assert_cmpint (work->exclusive, ==, 1);
  /* Unweighted: no estimate, coverage 0 of 1 */
  g_assert_cmpuint (work->n_estimated_inclusive, ==, 0);
  g_assert_cmpfloat (work->cpu_inclusive, ==, 0.0);
}

/* All threads merged: main;work twice (t11 at 100, t12), main once. */
static void
test_samples_merged (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("sampled_stacks.json");
  g_autoptr(SpsFlameTree) tree = build_simple (trace, SPS_FLAME_TREE_SAMPLES, -1);
  const SpsFlameNode *root = sps_flame_tree_get_node (tree, 0);
  const SpsFlameNode *main_node = node_at (tree, "main");
  const SpsFlameNode *work = node_at (tree, "main;work");
  guint n_nodes;

  sps_flame_tree_get_nodes (tree, &n_nodes);
  g_assert_cmpuint (n_nodes, ==, 3);
  /* Pre-order numbering */
  g_assert_true (main_node == sps_flame_tree_get_node (tree, 1));
  g_assert_true (work == sps_flame_tree_get_node (tree, 2));
  g_assert_cmpuint (work->parent, ==, 1);
  g_assert_cmpint (root->inclusive, ==, 3);
  g_assert_cmpint (main_node->inclusive, ==, 3);
  g_assert_cmpint (main_node->exclusive, ==, 1);
  g_assert_cmpint (work->inclusive, ==, 2);
  /* Time-weight coverage: 2 of the 3 samples carry an estimate */
  g_assert_cmpuint (root->n_estimated_inclusive, ==, 2);
  g_assert_cmpuint (work->n_estimated_inclusive, ==, 1);
  g_assert_cmpfloat (root->cpu_inclusive, ==, 750000.0);
  /* The first sample of work in table order (sorted by track, ts) is
   * thread 11's at 100 µs */
  g_assert_cmpint (sps_trace_get_samples (trace)->ts[work->instance], ==, 100000);
}

static void
assert_same_tree (SpsFlameTree *a,
                  SpsFlameTree *b)
{
  guint na;
  guint nb;
  const SpsFlameNode *nodes_a = sps_flame_tree_get_nodes (a, &na);

  sps_flame_tree_get_nodes (b, &nb);
  g_assert_cmpuint (na, ==, nb);

  for (guint i = 1; i < na; i++)
    {
      g_autofree char *path = sps_flame_tree_dup_path (a, i, ";");
      const SpsFlameNode *other = node_at (b, path);

      g_assert_cmpint (nodes_a[i].inclusive, ==, other->inclusive);
      g_assert_cmpint (nodes_a[i].exclusive, ==, other->exclusive);
      g_assert_cmpfloat (nodes_a[i].cpu_inclusive, ==, other->cpu_inclusive);
      g_assert_cmpfloat (nodes_a[i].cpu_exclusive, ==, other->cpu_exclusive);
      g_assert_cmpuint (nodes_a[i].n_estimated_inclusive, ==, other->n_estimated_inclusive);
    }
}

/* sampled_stacks_reordered.json has the same events with stackFrames
 * first and every object's keys reversed. */
static void
test_samples_field_orders (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("sampled_stacks.json");
  g_autoptr(SpsTrace) reordered = sps_test_load_fixture ("sampled_stacks_reordered.json");

  for (gint64 tid = 11; tid <= 12; tid++)
    {
      g_autoptr(SpsFlameTree) a = build_simple (trace, SPS_FLAME_TREE_SAMPLES, tid);
      g_autoptr(SpsFlameTree) b = build_simple (reordered, SPS_FLAME_TREE_SAMPLES, tid);

      assert_same_tree (a, b);
      assert_same_tree (b, a);
    }
}

/* perfview_spans.json: sampleEvent B/E on tid 4: Recurse 0–10 µs holding
 * Recurse 0–5 and Recurse 5–10. */
static void
test_sampled_spans (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("perfview_spans.json");
  g_autoptr(SpsFlameTree) tree = build_simple (trace, SPS_FLAME_TREE_SAMPLED, -1);
  g_autoptr(SpsFlameTree) samples = build_simple (trace, SPS_FLAME_TREE_SAMPLES, -1);
  g_autoptr(SpsFlameTree) measured = build_simple (trace, SPS_FLAME_TREE_MEASURED, -1);
  const SpsFlameNode *outer = node_at (tree, "Recurse");
  const SpsFlameNode *inner = node_at (tree, "Recurse;Recurse");
  const SpsFlameFunction *f = function_named (tree, "Recurse");
  guint n_nodes;

  g_assert_true (sps_flame_tree_get_values_are_estimates (tree));
  sps_flame_tree_get_nodes (tree, &n_nodes);
  g_assert_cmpuint (n_nodes, ==, 3);

  /* The seed: outer 10 µs inclusive, zero self */
  g_assert_cmpint (outer->inclusive, ==, 10000);
  g_assert_cmpint (outer->exclusive, ==, 0);
  g_assert_cmpuint (outer->n_instances, ==, 1);
  /* The two inner spans stay one stack position below the outer one */
  g_assert_cmpint (inner->inclusive, ==, 10000);
  g_assert_cmpint (inner->exclusive, ==, 10000);
  g_assert_cmpuint (inner->n_instances, ==, 2);

  /* No sample counts are inferred from the spans */
  g_assert_cmpint (sps_flame_tree_get_node (samples, 0)->inclusive, ==, 0);
  g_assert_cmpuint (sps_flame_tree_get_node (samples, 0)->first_child, ==, SPS_NO_INDEX);
  g_assert_cmpfloat (outer->cpu_inclusive, ==, 0.0);
  g_assert_cmpuint (outer->n_estimated_inclusive, ==, 0);
  /* …and sampled spans are not measured slices */
  g_assert_cmpint (sps_flame_tree_get_node (measured, 0)->inclusive, ==, 0);

  /* The recursive function counts once per observation */
  g_assert_cmpuint (f->n_observations, ==, 1);
  g_assert_cmpint (f->inclusive, ==, 10000);
  g_assert_cmpint (f->exclusive, ==, 10000);

  g_assert_cmpint (sps_flame_tree_get_default_kind (trace), ==, SPS_FLAME_TREE_SAMPLED);
  g_assert_false (sps_flame_tree_trace_has_kind (trace, SPS_FLAME_TREE_SAMPLES));
  g_assert_true (sps_flame_tree_trace_has_kind (trace, SPS_FLAME_TREE_SAMPLED));
}

/* cli-small.json: tid 1: X main 100–150 µs, B/E inner 110–120; tid 2:
 * X job 130–160 and a sampleEvent X hot 150–154 (another tree). */
static void
test_measured (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("cli-small.json");
  g_autoptr(SpsFlameTree) tree = build_simple (trace, SPS_FLAME_TREE_MEASURED, -1);
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  const SpsFlameNode *main_node = node_at (tree, "main");
  const SpsFlameNode *inner = node_at (tree, "main;inner");
  const SpsFlameNode *job = node_at (tree, "job");
  guint node;

  g_assert_cmpint (sps_flame_tree_get_node (tree, 0)->inclusive, ==, 80000);
  g_assert_cmpint (main_node->inclusive, ==, 50000);
  g_assert_cmpint (main_node->exclusive, ==, 40000);
  g_assert_cmpint (inner->inclusive, ==, 10000);
  g_assert_cmpint (inner->exclusive, ==, 10000);
  g_assert_cmpint (job->inclusive, ==, 30000);
  g_assert_false (sps_flame_tree_get_values_are_estimates (tree));

  /* Selection sync: the slice of a node and the node of a slice */
  g_assert_cmpstr (sps_trace_get_string (trace, slices->name[inner->instance]), ==, "inner");
  node = sps_flame_tree_get_slice_node (tree, inner->instance);
  g_assert_true (sps_flame_tree_get_node (tree, node) == inner);
  g_assert_cmpint (slices->ts[main_node->instance], ==, 100000);
}

/* Ranges: observations in [start, end), spans clipped. */
static void
test_range (void)
{
  g_autoptr(SpsTrace) stacks = sps_test_load_fixture ("sampled_stacks.json");
  g_autoptr(SpsTrace) spans = sps_test_load_fixture ("perfview_spans.json");
  g_autoptr(SpsTrace) small = sps_test_load_fixture ("cli-small.json");
  SpsFlameTreeParams params;

  /* [100 µs, 10,000 µs): t11's sample at 100 and t12's at 4,000; the one
   * at 10,000 is the excluded end */
  sps_flame_tree_params_init (&params, SPS_FLAME_TREE_SAMPLES);
  params.has_range = TRUE;
  params.range_start = 100000;
  params.range_end = 10000000;
  {
    g_autoptr(SpsFlameTree) tree = build (stacks, &params);

    g_assert_cmpint (node_at (tree, "main")->inclusive, ==, 2);
    g_assert_cmpint (node_at (tree, "main")->exclusive, ==, 0);
    g_assert_cmpint (node_at (tree, "main;work")->inclusive, ==, 2);
    g_assert_cmpfloat (node_at (tree, "main")->cpu_inclusive, ==, 250000.0);
    g_assert_cmpuint (node_at (tree, "main")->n_estimated_inclusive, ==, 1);
  }

  /* [100 µs + 1 ns, 10,000 µs + 1 ns): only t12's and the last one */
  params.range_start = 100001;
  params.range_end = 10000001;
  {
    g_autoptr(SpsFlameTree) tree = build (stacks, &params);

    g_assert_cmpint (node_at (tree, "main")->inclusive, ==, 2);
    g_assert_cmpint (node_at (tree, "main")->exclusive, ==, 1);
    g_assert_cmpfloat (node_at (tree, "main")->cpu_inclusive, ==, 500000.0);
  }

  /* [2 µs, 7 µs) of the sampled spans: outer 2–7 (5 µs), inner 2–5 and
   * 5–7 (3 + 2 µs) */
  sps_flame_tree_params_init (&params, SPS_FLAME_TREE_SAMPLED);
  params.has_range = TRUE;
  params.range_start = 2000;
  params.range_end = 7000;
  {
    g_autoptr(SpsFlameTree) tree = build (spans, &params);

    g_assert_cmpint (node_at (tree, "Recurse")->inclusive, ==, 5000);
    g_assert_cmpint (node_at (tree, "Recurse")->exclusive, ==, 0);
    g_assert_cmpint (node_at (tree, "Recurse;Recurse")->inclusive, ==, 5000);
    g_assert_cmpuint (node_at (tree, "Recurse;Recurse")->n_instances, ==, 2);
  }

  /* [6 µs, 10 µs): only the second inner span overlaps, with the outer */
  params.range_start = 6000;
  params.range_end = 10000;
  {
    g_autoptr(SpsFlameTree) tree = build (spans, &params);

    g_assert_cmpint (node_at (tree, "Recurse")->inclusive, ==, 4000);
    g_assert_cmpuint (node_at (tree, "Recurse;Recurse")->n_instances, ==, 1);
  }

  /* [115 µs, 200 µs) of cli-small: main 115–150 (35 µs), inner 115–120
   * (5 µs), job 130–160 (30 µs) */
  sps_flame_tree_params_init (&params, SPS_FLAME_TREE_MEASURED);
  params.has_range = TRUE;
  params.range_start = 115000;
  params.range_end = 200000;
  {
    g_autoptr(SpsFlameTree) tree = build (small, &params);

    g_assert_cmpint (node_at (tree, "main")->inclusive, ==, 35000);
    g_assert_cmpint (node_at (tree, "main")->exclusive, ==, 30000);
    g_assert_cmpint (node_at (tree, "main;inner")->inclusive, ==, 5000);
    g_assert_cmpint (node_at (tree, "job")->inclusive, ==, 30000);
  }

  /* [121 µs, 125 µs): inner (110–120) is out */
  params.range_start = 121000;
  params.range_end = 125000;
  {
    g_autoptr(SpsFlameTree) tree = build (small, &params);
    guint n_nodes;

    sps_flame_tree_get_nodes (tree, &n_nodes);
    g_assert_cmpuint (n_nodes, ==, 2);
    g_assert_cmpint (node_at (tree, "main")->exclusive, ==, 4000);
  }
}

static gboolean
hide_inner (SpsTrace *trace,
            guint     slice,
            gpointer  user_data)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);

  g_assert_cmpstr (user_data, ==, "inner");

  return !g_str_equal (sps_trace_get_string (trace, slices->name[slice]), user_data);
}

static gboolean
only_late_samples (SpsTrace *trace,
                   guint     sample,
                   gpointer  user_data)
{
  return sps_trace_get_samples (trace)->ts[sample] >= 4000000;
}

/* Visibility predicates (the session's filters) */
static void
test_filters (void)
{
  g_autoptr(SpsTrace) small = sps_test_load_fixture ("cli-small.json");
  g_autoptr(SpsTrace) stacks = sps_test_load_fixture ("sampled_stacks.json");
  SpsFlameTreeParams params;

  /* A hidden slice's time is its parent's self time */
  sps_flame_tree_params_init (&params, SPS_FLAME_TREE_MEASURED);
  params.slice_visible = hide_inner;
  params.user_data = (gpointer) "inner";
  {
    g_autoptr(SpsFlameTree) tree = build (small, &params);
    const SpsFlameNode *main_node = node_at (tree, "main");

    g_assert_cmpint (main_node->inclusive, ==, 50000);
    g_assert_cmpint (main_node->exclusive, ==, 50000);
    g_assert_cmpuint (main_node->first_child, ==, SPS_NO_INDEX);
  }

  /* Samples at 4,000 and 10,000 µs: t12's main;work and t11's main */
  sps_flame_tree_params_init (&params, SPS_FLAME_TREE_SAMPLES);
  params.sample_visible = only_late_samples;
  {
    g_autoptr(SpsFlameTree) tree = build (stacks, &params);

    g_assert_cmpint (node_at (tree, "main")->inclusive, ==, 2);
    g_assert_cmpint (node_at (tree, "main")->exclusive, ==, 1);
    g_assert_cmpint (node_at (tree, "main;work")->inclusive, ==, 1);
  }
}

/* recursive_samples.json: tid 5: a;b;a twice (1 ms and 2 ms weights), a
 * once (no weight); tid 6: a;"c;d" once. */
static void
test_recursion (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("flame/recursive_samples.json");
  g_autoptr(SpsFlameTree) tree = build_simple (trace, SPS_FLAME_TREE_SAMPLES, 5);
  const SpsFlameFunction *a = function_named (tree, "a");
  const SpsFlameFunction *b = function_named (tree, "b");
  guint n_functions;

  /* Recursive frames stay separate stack positions */
  g_assert_cmpint (node_at (tree, "a")->inclusive, ==, 3);
  g_assert_cmpint (node_at (tree, "a")->exclusive, ==, 1);
  g_assert_cmpint (node_at (tree, "a;b")->inclusive, ==, 2);
  g_assert_cmpint (node_at (tree, "a;b")->exclusive, ==, 0);
  g_assert_cmpint (node_at (tree, "a;b;a")->inclusive, ==, 2);
  g_assert_cmpint (node_at (tree, "a;b;a")->exclusive, ==, 2);
  g_assert_cmpfloat (node_at (tree, "a;b;a")->cpu_inclusive, ==, 3e6);
  /* Pre-order: a, a;b, a;b;a */
  g_assert_true (node_at (tree, "a;b;a") == sps_flame_tree_get_node (tree, 3));
  g_assert_true (node_at (tree, "a;b") == sps_flame_tree_get_node (tree, 2));

  /* Per function, a recursive function counts once per observation: a is
   * in 3 samples (not 5 positions), b in 2 */
  sps_flame_tree_get_functions (tree, &n_functions);
  g_assert_cmpuint (n_functions, ==, 2);
  g_assert_cmpuint (a->n_observations, ==, 3);
  g_assert_cmpint (a->inclusive, ==, 3);
  g_assert_cmpint (a->exclusive, ==, 3);
  g_assert_cmpfloat (a->cpu_inclusive, ==, 3e6);
  g_assert_cmpfloat (a->cpu_exclusive, ==, 3e6);
  g_assert_cmpuint (b->n_observations, ==, 2);
  g_assert_cmpint (b->inclusive, ==, 2);
  g_assert_cmpint (b->exclusive, ==, 0);
}

/* sampled_unresolved.json: four unresolvable stacks fold as one frame
 * named after their event; "e" resolves to its last definition. */
static void
test_unresolved (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("sampled_unresolved.json");
  g_autoptr(SpsFlameTree) tree = build_simple (trace, SPS_FLAME_TREE_SAMPLES, -1);
  const SpsFlameNode *root = sps_flame_tree_get_node (tree, 0);
  const char *expected[] = { "bad-frame", "in-a-cycle", "lost-parent", "no-such-frame", "root", "second" };
  guint i = 0;

  /* Children in byte order of their names */
  for (guint32 c = root->first_child; c != SPS_NO_INDEX; c = sps_flame_tree_get_node (tree, c)->next_sibling)
    {
      g_assert_cmpuint (i, <, G_N_ELEMENTS (expected));
      g_assert_cmpstr (sps_trace_get_string (trace, sps_flame_tree_get_node (tree, c)->name), ==, expected[i]);
      i++;
    }
  g_assert_cmpuint (i, ==, G_N_ELEMENTS (expected));

  g_assert_cmpint (node_at (tree, "no-such-frame")->inclusive, ==, 1);
  /* weight 3 us */
  g_assert_cmpfloat (node_at (tree, "no-such-frame")->cpu_inclusive, ==, 3000.0);
  /* weight 0 ns: an estimate of zero, still an estimate */
  g_assert_cmpuint (node_at (tree, "second")->n_estimated_inclusive, ==, 1);
  g_assert_cmpfloat (node_at (tree, "second")->cpu_inclusive, ==, 0.0);
  /* weight 2 ms; its dur (500) is ignored */
  g_assert_cmpfloat (node_at (tree, "root;leaf")->cpu_inclusive, ==, 2e6);
  g_assert_cmpint (root->inclusive, ==, 6);
  g_assert_cmpuint (root->n_estimated_inclusive, ==, 3);
  g_assert_cmpfloat (root->cpu_inclusive, ==, 2003000.0);
}

/* A caller's sample table replaces the trace's (stack repair hook):
 * keep only thread 11's second sample (main at 10,000 µs). */
static void
test_sample_override (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("sampled_stacks.json");
  const SpsSampleTable *samples = sps_trace_get_samples (trace);
  SpsSampleTable one = *samples;
  SpsFlameTreeParams params;
  guint row = SPS_NO_INDEX;

  for (guint i = 0; i < samples->n_rows; i++)
    {
      if (samples->ts[i] == 10000000)
        row = i;
    }
  g_assert_cmpuint (row, !=, SPS_NO_INDEX);

  one.n_rows = 1;
  one.ts += row;
  one.track += row;
  one.thread += row;
  one.name += row;
  one.callsite += row;
  /* Columns stored once (NULL) hold their value for the one row too */
  if (one.event_name != NULL)
    one.event_name += row;
  if (one.raw_stack_ref != NULL)
    one.raw_stack_ref += row;
  if (one.weight != NULL)
    one.weight += row;
  if (one.weight_unit != NULL)
    one.weight_unit += row;
  if (one.flags != NULL)
    one.flags += row;
  if (one.line != NULL)
    one.line += row;

  sps_flame_tree_params_init (&params, SPS_FLAME_TREE_SAMPLES);
  params.samples = &one;
  {
    g_autoptr(SpsFlameTree) tree = build (trace, &params);
    guint n_nodes;

    sps_flame_tree_get_nodes (tree, &n_nodes);
    g_assert_cmpuint (n_nodes, ==, 2);
    g_assert_cmpint (node_at (tree, "main")->exclusive, ==, 1);
    g_assert_cmpfloat (node_at (tree, "main")->cpu_inclusive, ==, 500000.0);
    /* instance refers to the table in use */
    g_assert_cmpuint (node_at (tree, "main")->instance, ==, 0);
  }

  /* A callsite table without its samples is refused */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(SpsFlameTree) tree = NULL;

    sps_flame_tree_params_init (&params, SPS_FLAME_TREE_SAMPLES);
    params.callsites = sps_trace_get_callsites (trace);
    tree = sps_flame_tree_build (trace, &params, NULL, &error);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
    g_assert_null (tree);
  }
}

static void
test_cancelled (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("sampled_stacks.json");
  g_autoptr(SpsProgress) progress = sps_progress_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsFlameTree) tree = NULL;
  SpsFlameTreeParams params;

  sps_flame_tree_params_init (&params, SPS_FLAME_TREE_SAMPLES);
  sps_progress_cancel (progress);
  tree = sps_flame_tree_build (trace, &params, progress, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (tree);
}

static void
on_built (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  SpsFlameTree **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = sps_flame_tree_build_finish (result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (*out);
}

static void
test_async (void)
{
  g_autoptr(SpsTrace) trace = sps_test_load_fixture ("sampled_stacks.json");
  g_autoptr(SpsFlameTree) sync = build_simple (trace, SPS_FLAME_TREE_SAMPLES, -1);
  g_autoptr(SpsFlameTree) tree = NULL;
  SpsFlameTreeParams params;

  sps_flame_tree_params_init (&params, SPS_FLAME_TREE_SAMPLES);
  sps_flame_tree_build_async (trace, &params, NULL, NULL, on_built, &tree);
  while (tree == NULL)
    g_main_context_iteration (NULL, TRUE);

  assert_same_tree (tree, sync);
  assert_same_tree (sync, tree);
}

static void
test_kind_names (void)
{
  SpsFlameTreeKind kind = SPS_FLAME_TREE_MEASURED;

  g_assert_true (sps_flame_tree_kind_from_string ("sampled", &kind));
  g_assert_cmpint (kind, ==, SPS_FLAME_TREE_SAMPLED);
  g_assert_true (sps_flame_tree_kind_from_string ("samples", &kind));
  g_assert_cmpint (kind, ==, SPS_FLAME_TREE_SAMPLES);
  g_assert_false (sps_flame_tree_kind_from_string ("Samples", &kind));
  g_assert_cmpint (kind, ==, SPS_FLAME_TREE_SAMPLES);
  g_assert_cmpstr (sps_flame_tree_kind_to_string (SPS_FLAME_TREE_MEASURED), ==, "measured");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/flame/tree/samples/thread-11", test_samples_thread11);
  g_test_add_func ("/flame/tree/samples/thread-12", test_samples_thread12);
  g_test_add_func ("/flame/tree/samples/merged", test_samples_merged);
  g_test_add_func ("/flame/tree/samples/field-orders", test_samples_field_orders);
  g_test_add_func ("/flame/tree/samples/recursion", test_recursion);
  g_test_add_func ("/flame/tree/samples/unresolved", test_unresolved);
  g_test_add_func ("/flame/tree/samples/override", test_sample_override);
  g_test_add_func ("/flame/tree/sampled/perfview", test_sampled_spans);
  g_test_add_func ("/flame/tree/measured/self-time", test_measured);
  g_test_add_func ("/flame/tree/range", test_range);
  g_test_add_func ("/flame/tree/filters", test_filters);
  g_test_add_func ("/flame/tree/cancelled", test_cancelled);
  g_test_add_func ("/flame/tree/async", test_async);
  g_test_add_func ("/flame/tree/kind-names", test_kind_names);

  return g_test_run ();
}
