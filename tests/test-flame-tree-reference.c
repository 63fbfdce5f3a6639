/* test-flame-tree-reference.c: the flame tree against a straightforward
 * build, node for node
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * sps_flame_tree_build() makes span trees level by level from sorted
 * keys, and the samples tree through per-node child lists. The
 * reference here does the obvious thing instead: for every observation
 * (a slice in scope, a sample) it walks to the nearest ancestor already
 * counted (or up the callsite chain) and finds the child in a GHashTable
 * keyed by (parent, name); sums are plain additions. The two must agree
 * on every node (path, depth, inclusive, exclusive, instances, longest
 * instance, CPU estimates), on each slice's node, and on every function's
 * sums: over our fixtures, the shared Chrome fixtures and a generated
 * trace; for all threads and each thread, whole and over ranges, with and
 * without a visibility filter.
 */

#define G_LOG_DOMAIN "sps-test-flame-tree-reference"

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>
#include <spanscope-core.h>

#include "sps-test-util.h"

typedef struct
{
  guint32 parent;
  guint32 name;
  gint64  inclusive;
  gint64  exclusive;
  guint64 n_instances;
  guint32 instance;
  SpsTime longest;
  double  cpu_inclusive;
  double  cpu_exclusive;
  guint64 n_estimated_inclusive;
  guint64 n_estimated_exclusive;
} RefNode;

typedef struct
{
  GArray     *nodes;      /* RefNode; 0 is the root */
  GHashTable *children;   /* (parent << 32 | name) → node + 1 */
  guint32    *slice_node; /* per slice row */
} Ref;

static void
ref_clear (Ref *ref)
{
  g_clear_pointer (&ref->nodes, g_array_unref);
  g_clear_pointer (&ref->children, g_hash_table_unref);
  g_clear_pointer (&ref->slice_node, g_free);
}

static guint32
ref_child (Ref     *ref,
           guint32  parent,
           guint32  name)
{
  guint64 key = ((guint64) parent << 32) | name;
  gpointer found = g_hash_table_lookup (ref->children, &key);
  RefNode node = { 0 };

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;

  node.parent = parent;
  node.name = name;
  node.instance = SPS_NO_INDEX;
  g_array_append_val (ref->nodes, node);
  g_hash_table_insert (ref->children, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (ref->nodes->len));

  return ref->nodes->len - 1;
}

static void
ref_init (Ref *ref)
{
  RefNode root = { 0 };

  root.parent = SPS_NO_INDEX;
  root.instance = SPS_NO_INDEX;
  ref->nodes = g_array_new (FALSE, TRUE, sizeof (RefNode));
  g_array_append_val (ref->nodes, root);
  ref->children = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
}

/* Span trees: each slice in scope under its nearest counted ancestor */
static void
ref_build_spans (Ref                      *ref,
                 SpsTrace                 *trace,
                 const SpsFlameTreeParams *params)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  guint8 want = params->kind == SPS_FLAME_TREE_MEASURED ? SPS_TRACK_THREAD_SLICES
                                                        : SPS_TRACK_THREAD_SAMPLED_SLICES;

  ref->slice_node = g_new (guint32, MAX (slices->n_rows, 1));
  memset (ref->slice_node, 0xff, sizeof (guint32) * MAX (slices->n_rows, 1));

  for (guint t = 0; t < tracks->n_rows; t++)
    {
      if (tracks->kind[t] != want || (params->thread != SPS_NO_INDEX && tracks->thread[t] != params->thread))
        continue;

      for (guint r = tracks->first_row[t]; r < tracks->first_row[t] + tracks->n_rows_in_track[t]; r++)
        {
          SpsTime ts = slices->ts[r];
          SpsTime end = ts + MAX (slices->dur[r], 0);
          SpsTime value = end - ts;
          guint32 parent = 0;
          guint32 node;
          RefNode *n;

          if (params->has_range)
            {
              /* Overlapping as sps_trace_foreach_slice_in_range() says */
              if (ts >= params->range_end || params->range_start >= params->range_end)
                continue;
              if (end == ts ? ts < params->range_start : end <= params->range_start)
                continue;
              value = MIN (end, params->range_end) - MAX (ts, params->range_start);
              value = MAX (value, 0);
            }
          if (params->slice_visible != NULL && !params->slice_visible (trace, r, params->user_data))
            continue;

          for (guint32 p = slices->parent[r]; p != SPS_NO_INDEX; p = slices->parent[p])
            {
              if (ref->slice_node[p] != SPS_NO_INDEX)
                {
                  parent = ref->slice_node[p];
                  break;
                }
            }

          node = ref_child (ref, parent, slices->name[r]);
          ref->slice_node[r] = node;
          n = &g_array_index (ref->nodes, RefNode, node);
          n->inclusive += value;
          if (n->n_instances == 0 || value > n->longest)
            {
              n->longest = value;
              n->instance = r;
            }
          n->n_instances++;
        }
    }

  /* Self time: inclusive − the children's inclusive, at least 0; the
   * root holds the sum of the outermost nodes */
  for (guint i = 1; i < ref->nodes->len; i++)
    {
      RefNode *n = &g_array_index (ref->nodes, RefNode, i);

      n->exclusive = n->inclusive;
    }
  for (guint i = 1; i < ref->nodes->len; i++)
    {
      RefNode *n = &g_array_index (ref->nodes, RefNode, i);
      RefNode *parent = &g_array_index (ref->nodes, RefNode, n->parent);

      if (n->parent == 0)
        parent->inclusive += n->inclusive;
      else
        parent->exclusive -= n->inclusive;
    }
  for (guint i = 1; i < ref->nodes->len; i++)
    {
      RefNode *n = &g_array_index (ref->nodes, RefNode, i);

      n->exclusive = MAX (n->exclusive, 0);
    }
}

/* The samples tree: each sample at the end of its callsite's path */
static void
ref_build_samples (Ref                      *ref,
                   SpsTrace                 *trace,
                   const SpsFlameTreeParams *params)
{
  const SpsSampleTable *samples = sps_trace_get_samples (trace);
  const SpsCallsiteTable *callsites = sps_trace_get_callsites (trace);
  const SpsFrameTable *frames = sps_trace_get_frames (trace);
  g_autoptr(GArray) chain = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint r = 0; r < samples->n_rows; r++)
    {
      guint32 callsite = samples->callsite[r];
      guint32 node = 0;
      double estimate;
      RefNode *n;

      if (params->thread != SPS_NO_INDEX && samples->thread[r] != params->thread)
        continue;
      if (params->has_range && (samples->ts[r] < params->range_start || samples->ts[r] >= params->range_end))
        continue;
      if (params->sample_visible != NULL && !params->sample_visible (trace, r, params->user_data))
        continue;

      g_array_set_size (chain, 0);
      if (callsite == SPS_NO_INDEX || callsite >= callsites->n_rows)
        g_array_append_val (chain, samples->name[r]);
      else
        for (guint32 c = callsite; c != SPS_NO_INDEX && chain->len <= callsites->n_rows; c = callsites->parent[c])
          {
            guint32 frame = callsites->frame[c];
            guint32 name = frame < frames->n_rows ? frames->name[frame] : 0;

            g_array_append_val (chain, name);
          }
      for (guint i = chain->len; i-- > 0;)
        node = ref_child (ref, node, g_array_index (chain, guint32, i));

      estimate = sps_flame_tree_sample_estimate_ns (samples, r);
      /* The sample counts at its leaf and at every node above it */
      for (guint32 up = node; up != SPS_NO_INDEX; up = g_array_index (ref->nodes, RefNode, up).parent)
        {
          n = &g_array_index (ref->nodes, RefNode, up);
          n->inclusive++;
          if (!isnan (estimate))
            {
              n->cpu_inclusive += estimate;
              n->n_estimated_inclusive++;
            }
        }
      n = &g_array_index (ref->nodes, RefNode, node);
      if (n->n_instances == 0)
        n->instance = r;
      n->n_instances++;
      n->exclusive++;
      if (!isnan (estimate))
        {
          n->cpu_exclusive += estimate;
          n->n_estimated_exclusive++;
        }
    }
}

static int
compare_name_bytes (SpsTrace *trace,
                    guint32   a,
                    guint32   b)
{
  return strcmp (sps_trace_get_string (trace, a), sps_trace_get_string (trace, b));
}

/* The CPU sums are of the same doubles in another order: equal to a
 * relative 1e-9 */
static void
assert_close (double a,
              double b)
{
  g_assert_cmpfloat (fabs (a - b), <=, 1e-9 * MAX (fabs (a), fabs (b)) + 1e-6);
}

static void
assert_matches (SpsFlameTree             *tree,
                Ref                      *ref,
                SpsTrace                 *trace,
                const SpsFlameTreeParams *params)
{
  guint n_nodes;
  const SpsFlameNode *nodes = sps_flame_tree_get_nodes (tree, &n_nodes);
  g_autofree guint32 *ref_of = g_new (guint32, n_nodes);
  g_autofree gboolean *seen = g_new0 (gboolean, ref->nodes->len);
  const RefNode *root = &g_array_index (ref->nodes, RefNode, 0);
  g_autoptr(GHashTable) function_sums = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  guint n_functions;
  const SpsFlameFunction *functions;

  g_assert_cmpuint (n_nodes, ==, ref->nodes->len);
  g_assert_cmpint (nodes[0].inclusive, ==, root->inclusive);
  g_assert_cmpuint (nodes[0].parent, ==, SPS_NO_INDEX);
  g_assert_cmpuint (nodes[0].depth, ==, 0);
  ref_of[0] = 0;

  for (guint i = 0; i < n_nodes; i++)
    {
      const SpsFlameNode *node = &nodes[i];
      guint32 prev = SPS_NO_INDEX;

      if (i > 0)
        {
          guint64 key;
          gpointer found;
          const RefNode *r;

          /* Pre-order: the parent comes first, the node is its depth */
          g_assert_cmpuint (node->parent, <, i);
          g_assert_cmpuint (node->depth, ==, nodes[node->parent].depth + 1);
          key = ((guint64) ref_of[node->parent] << 32) | node->name;
          found = g_hash_table_lookup (ref->children, &key);
          g_assert_nonnull (found);
          ref_of[i] = GPOINTER_TO_UINT (found) - 1;
          g_assert_false (seen[ref_of[i]]);
          seen[ref_of[i]] = TRUE;
          r = &g_array_index (ref->nodes, RefNode, ref_of[i]);

          g_assert_cmpint (node->inclusive, ==, r->inclusive);
          g_assert_cmpint (node->exclusive, ==, r->exclusive);
          g_assert_cmpuint (node->n_instances, ==, r->n_instances);
          g_assert_cmpuint (node->instance, ==, r->instance);
          assert_close (node->cpu_inclusive, r->cpu_inclusive);
          assert_close (node->cpu_exclusive, r->cpu_exclusive);
          g_assert_cmpuint (node->n_estimated_inclusive, ==, r->n_estimated_inclusive);
          g_assert_cmpuint (node->n_estimated_exclusive, ==, r->n_estimated_exclusive);
        }

      /* Children: the range that follows, in byte order of their names */
      if (node->first_child != SPS_NO_INDEX)
        g_assert_cmpuint (node->first_child, ==, i + 1);
      for (guint32 c = node->first_child; c != SPS_NO_INDEX; c = nodes[c].next_sibling)
        {
          g_assert_cmpuint (nodes[c].parent, ==, i);
          if (prev != SPS_NO_INDEX)
            {
              g_assert_cmpuint (c, >, prev);
              g_assert_cmpint (compare_name_bytes (trace, nodes[prev].name, nodes[c].name), <=, 0);
            }
          prev = c;
        }
    }

  /* Each slice's node */
  if (params->kind != SPS_FLAME_TREE_SAMPLES)
    {
      const SpsSliceTable *slices = sps_trace_get_slices (trace);
      g_autofree guint32 *new_of = g_new (guint32, ref->nodes->len);

      for (guint i = 0; i < n_nodes; i++)
        new_of[ref_of[i]] = i;
      for (guint r = 0; r < slices->n_rows; r++)
        {
          guint got = sps_flame_tree_get_slice_node (tree, r);

          if (ref->slice_node[r] == SPS_NO_INDEX)
            g_assert_cmpuint (got, ==, SPS_NO_INDEX);
          else
            g_assert_cmpuint (got, ==, new_of[ref->slice_node[r]]);
        }
    }

  /* Functions: self time of every position, inclusive of the outermost
   * ones only (recursion counted once) */
  for (guint i = 1; i < n_nodes; i++)
    {
      SpsFlameFunction *f = g_hash_table_lookup (function_sums, GUINT_TO_POINTER (nodes[i].name));
      gboolean outermost = TRUE;

      if (f == NULL)
        {
          f = g_new0 (SpsFlameFunction, 1);
          f->name = nodes[i].name;
          g_hash_table_insert (function_sums, GUINT_TO_POINTER (nodes[i].name), f);
        }
      for (guint32 a = nodes[i].parent; a != 0 && a != SPS_NO_INDEX; a = nodes[a].parent)
        if (nodes[a].name == nodes[i].name)
          outermost = FALSE;
      f->exclusive += nodes[i].exclusive;
      f->cpu_exclusive += nodes[i].cpu_exclusive;
      if (outermost)
        {
          f->inclusive += nodes[i].inclusive;
          f->cpu_inclusive += nodes[i].cpu_inclusive;
          f->n_observations += params->kind == SPS_FLAME_TREE_SAMPLES ? (guint64) nodes[i].inclusive
                                                                       : nodes[i].n_instances;
        }
    }
  functions = sps_flame_tree_get_functions (tree, &n_functions);
  g_assert_cmpuint (n_functions, ==, g_hash_table_size (function_sums));
  for (guint k = 0; k < n_functions; k++)
    {
      const SpsFlameFunction *f = g_hash_table_lookup (function_sums, GUINT_TO_POINTER (functions[k].name));

      g_assert_nonnull (f);
      g_assert_cmpint (functions[k].inclusive, ==, f->inclusive);
      g_assert_cmpint (functions[k].exclusive, ==, f->exclusive);
      g_assert_cmpuint (functions[k].n_observations, ==, f->n_observations);
      assert_close (functions[k].cpu_inclusive, f->cpu_inclusive);
      assert_close (functions[k].cpu_exclusive, f->cpu_exclusive);
    }
}

/* A filter that hides every slice or sample whose name id is odd: hidden
 * positions at every depth, so that children hang below grandparents */
static gboolean
hide_odd_slices (SpsTrace *trace,
                 guint     slice,
                 gpointer  user_data)
{
  return sps_trace_get_slices (trace)->name[slice] % 2 == 0;
}

static gboolean
hide_odd_samples (SpsTrace *trace,
                  guint     sample,
                  gpointer  user_data)
{
  return sps_trace_get_samples (trace)->name[sample] % 2 == 0;
}

static guint
check_one (SpsTrace                 *trace,
           const SpsFlameTreeParams *params)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsFlameTree) tree = sps_flame_tree_build (trace, params, NULL, &error);
  Ref ref = { 0 };
  guint n_nodes;

  g_assert_no_error (error);
  g_assert_nonnull (tree);

  ref_init (&ref);
  if (params->kind == SPS_FLAME_TREE_SAMPLES)
    ref_build_samples (&ref, trace, params);
  else
    ref_build_spans (&ref, trace, params);
  assert_matches (tree, &ref, trace, params);
  ref_clear (&ref);

  sps_flame_tree_get_nodes (tree, &n_nodes);
  return n_nodes - 1;
}

/* Every kind × (all threads, each thread) × (whole, three ranges) ×
 * (no filter, odd names hidden). Returns the nodes compared besides the
 * roots. */
static guint64
check_trace (SpsTrace *trace)
{
  static const SpsFlameTreeKind kinds[] = {
    SPS_FLAME_TREE_MEASURED, SPS_FLAME_TREE_SAMPLES, SPS_FLAME_TREE_SAMPLED,
  };
  SpsTime start = sps_trace_get_start_time (trace);
  SpsTime end = sps_trace_get_end_time (trace);
  SpsTime span = end > start ? end - start : 0;
  /* The middle half, the first tenth and an empty range */
  SpsTime ranges[3][2] = {
    { start + span / 4, end - span / 4 },
    { start, start + span / 10 },
    { start + span / 3, start + span / 3 },
  };
  guint n_threads = sps_trace_get_threads (trace)->n_rows;
  guint64 n_nodes = 0;

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    for (guint t = 0; t <= MIN (n_threads, 16); t++)
      for (guint r = 0; r <= G_N_ELEMENTS (ranges); r++)
        for (guint filter = 0; filter < 2; filter++)
          {
            SpsFlameTreeParams params;

            sps_flame_tree_params_init (&params, kinds[k]);
            params.thread = t == 0 ? SPS_NO_INDEX : t - 1;
            if (r > 0)
              {
                params.has_range = TRUE;
                params.range_start = ranges[r - 1][0];
                params.range_end = ranges[r - 1][1];
              }
            if (filter)
              {
                params.slice_visible = hide_odd_slices;
                params.sample_visible = hide_odd_samples;
              }
            n_nodes += check_one (trace, &params);
          }

  return n_nodes;
}

static void
test_fixtures (void)
{
  const char *names[] = {
    "cli-small.json", "perfview_spans.json", "sampled_stacks.json",
    "flame/recursive_samples.json", "sampled_unresolved.json",
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(SpsTrace) trace = sps_test_load_fixture (names[i]);

      /* Each has a stack somewhere */
      g_assert_cmpuint (check_trace (trace), >, 0);
    }
}

static void
test_shared_fixtures (void)
{
  g_autofree char *dir_path = sps_test_shared_fixture_path ("chrome", NULL);
  g_autoptr(GDir) dir = NULL;
  const char *name;
  guint n_traces = 0;

  if (dir_path == NULL)
    return;

  dir = g_dir_open (dir_path, 0, NULL);
  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir_path, name, NULL);
      g_autoptr(SpsTrace) trace = sps_test_load_path (path);

      if (trace == NULL)
        continue;
      g_test_message ("%s: %" G_GUINT64_FORMAT " nodes compared", name, check_trace (trace));
      n_traces++;
    }
  g_assert_cmpuint (n_traces, >, 0);
}

/* gen-trace's output (20,000 events, 13 threads, stacks up to 8 deep):
 * many stacks shared between threads and between calls */
static void
test_generated (void)
{
  const char *gen = g_getenv ("SPANSCOPE_GEN_TRACE");
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  const char *argv[4];
  int status = 0;

  if (gen == NULL || gen[0] == '\0')
    {
      g_test_skip ("SPANSCOPE_GEN_TRACE is not set");
      return;
    }

  dir = g_dir_make_tmp ("sps-flame-ref-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "gen.json", NULL);
  argv[0] = gen;
  argv[1] = "20000";
  argv[2] = path;
  argv[3] = NULL;
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  trace = sps_test_load_path (path);
  g_assert_nonnull (trace);
  /* The generator makes thousands of slices on 13 threads */
  g_assert_cmpuint (sps_trace_get_threads (trace)->n_rows, ==, 13);
  g_assert_cmpuint (sps_trace_get_slices (trace)->n_rows, >, 10000);
  g_assert_cmpuint (check_trace (trace), >, 10000);

  g_unlink (path);
  g_rmdir (dir);
}

/* Odd nesting, where the path kept per depth does not hold a slice's
 * parent and the build walks the parent chain instead. Thread 10 (read
 * first): d 100–200 at depth 0, e 102–108 below it. Thread 11: a 0–100,
 * b 50–150 (starts in a, ends after it: finish() still makes a its
 * parent, with a warning), c 60–140 inside b. Over [120, 200): d (80)
 * overlaps, e does not; on thread 11 only b (120–150: 30) and c (120–140:
 * 20) do, a does not, so b hangs at the root (not below d, which thread
 * 10 left at depth 0 of the path) and c below b. */
static void
test_odd_nesting (void)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  guint32 process = sps_trace_builder_ensure_process (builder, 1);
  guint32 t10 = sps_trace_builder_ensure_thread (builder, process, 10);
  guint32 t11 = sps_trace_builder_ensure_thread (builder, process, 11);
  SpsFlameTreeParams params;

  sps_test_add_complete (builder, t10, 100, 100, "d", "cat", NULL, 0);
  sps_test_add_complete (builder, t10, 102, 6, "e", "cat", NULL, 0);
  sps_test_add_complete (builder, t11, 0, 100, "a", "cat", NULL, 0);
  sps_test_add_complete (builder, t11, 50, 100, "b", "cat", NULL, 0);
  sps_test_add_complete (builder, t11, 60, 80, "c", "cat", NULL, 0);
  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);

  sps_flame_tree_params_init (&params, SPS_FLAME_TREE_MEASURED);
  params.has_range = TRUE;
  params.range_start = 120;
  params.range_end = 200;
  {
    g_autoptr(SpsFlameTree) tree = sps_flame_tree_build (trace, &params, NULL, &error);
    const SpsFlameNode *nodes;
    guint n_nodes;

    g_assert_no_error (error);
    nodes = sps_flame_tree_get_nodes (tree, &n_nodes);
    /* root, b, b;c, d */
    g_assert_cmpuint (n_nodes, ==, 4);
    g_assert_cmpint (nodes[0].inclusive, ==, 110);
    g_assert_cmpstr (sps_trace_get_string (trace, nodes[1].name), ==, "b");
    g_assert_cmpuint (nodes[1].parent, ==, 0);
    g_assert_cmpint (nodes[1].inclusive, ==, 30);
    g_assert_cmpint (nodes[1].exclusive, ==, 10);
    g_assert_cmpstr (sps_trace_get_string (trace, nodes[2].name), ==, "c");
    g_assert_cmpuint (nodes[2].parent, ==, 1);
    g_assert_cmpint (nodes[2].inclusive, ==, 20);
    g_assert_cmpstr (sps_trace_get_string (trace, nodes[3].name), ==, "d");
    g_assert_cmpint (nodes[3].inclusive, ==, 80);
    g_assert_cmpuint (nodes[3].first_child, ==, SPS_NO_INDEX);
  }

  /* The whole trace: a;b;c (a 100, b 100, c 80) and d;e (100, 6) */
  sps_flame_tree_params_init (&params, SPS_FLAME_TREE_MEASURED);
  {
    g_autoptr(SpsFlameTree) tree = sps_flame_tree_build (trace, &params, NULL, &error);
    const SpsFlameNode *nodes;
    guint n_nodes;

    g_assert_no_error (error);
    nodes = sps_flame_tree_get_nodes (tree, &n_nodes);
    g_assert_cmpuint (n_nodes, ==, 6);
    g_assert_cmpint (nodes[0].inclusive, ==, 200);
    /* Pre-order, names in byte order: a, a;b, a;b;c, d, d;e */
    g_assert_cmpstr (sps_trace_get_string (trace, nodes[4].name), ==, "d");
    g_assert_cmpstr (sps_trace_get_string (trace, nodes[5].name), ==, "e");
    g_assert_cmpuint (nodes[5].parent, ==, 4);
    g_assert_cmpint (nodes[5].inclusive, ==, 6);
    /* b ends after a: a's self time is clamped at 0 (100 − 100) */
    g_assert_cmpint (nodes[1].exclusive, ==, 0);
  }

  /* …and every other scope against the straightforward build */
  g_assert_cmpuint (check_trace (trace), >, 0);
}

/* The child of @node named @name, which must exist */
static guint
child_named (SpsFlameTree *tree,
             guint         node,
             const char   *name)
{
  SpsTrace *trace = sps_flame_tree_get_trace (tree);
  guint32 id = sps_string_pool_lookup (sps_trace_get_strings (trace), name, -1);
  guint child = sps_flame_tree_find_child (tree, node, id);

  g_assert_cmpuint (child, !=, SPS_NO_INDEX);

  return child;
}

/* A crowded parent (the samples tree walks a node's list of children
 * while it has at most eight, then moves them to the (parent, name)
 * index; span trees sort each level's keys instead). Thread
 * 10: p 0–1000 calls c00…c11 in turn (c<i> at 10 + 60 i, 30 long), so the
 * ninth child moves the list; then c00 again (800, 40; listed before the
 * move) and c09 (900, 50; indexed from the start). p 2000–2100 calls c03
 * (2010, 10), which calls g (2012, 5). Thread 11: p 0–100 calls c00 (10,
 * 10). Merged: p 1,100 + 100 = 1,200 in 3 calls; c00 30 + 40 + 10 = 80
 * in 3, c03 30 + 10 = 40 in 2 (self 35), c09 30 + 50 = 80 in 2, the
 * other nine 30 each; p's self time 1,200 − (80 + 40 + 80 + 9 × 30) =
 * 730. */
static void
test_crowded (void)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(SpsFlameTree) tree = NULL;
  g_autoptr(GError) error = NULL;
  guint32 process = sps_trace_builder_ensure_process (builder, 1);
  guint32 t10 = sps_trace_builder_ensure_thread (builder, process, 10);
  guint32 t11 = sps_trace_builder_ensure_thread (builder, process, 11);
  SpsFlameTreeParams params;
  const SpsFlameNode *nodes;
  guint n_nodes;
  guint p;

  sps_test_add_complete (builder, t10, 0, 1000, "p", "cat", NULL, 0);
  for (guint i = 0; i < 12; i++)
    {
      g_autofree char *name = g_strdup_printf ("c%02u", i);

      sps_test_add_complete (builder, t10, 10 + 60 * i, 30, name, "cat", NULL, 0);
    }
  sps_test_add_complete (builder, t10, 800, 40, "c00", "cat", NULL, 0);
  sps_test_add_complete (builder, t10, 900, 50, "c09", "cat", NULL, 0);
  sps_test_add_complete (builder, t10, 2000, 100, "p", "cat", NULL, 0);
  sps_test_add_complete (builder, t10, 2010, 10, "c03", "cat", NULL, 0);
  sps_test_add_complete (builder, t10, 2012, 5, "g", "cat", NULL, 0);
  sps_test_add_complete (builder, t11, 0, 100, "p", "cat", NULL, 0);
  sps_test_add_complete (builder, t11, 10, 10, "c00", "cat", NULL, 0);
  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);

  sps_flame_tree_params_init (&params, SPS_FLAME_TREE_MEASURED);
  tree = sps_flame_tree_build (trace, &params, NULL, &error);
  g_assert_no_error (error);
  nodes = sps_flame_tree_get_nodes (tree, &n_nodes);

  /* root, p, twelve children, g */
  g_assert_cmpuint (n_nodes, ==, 15);
  g_assert_cmpint (nodes[0].inclusive, ==, 1200);
  p = child_named (tree, 0, "p");
  g_assert_cmpint (nodes[p].inclusive, ==, 1200);
  g_assert_cmpint (nodes[p].exclusive, ==, 730);
  g_assert_cmpuint (nodes[p].n_instances, ==, 3);
  for (guint i = 0; i < 12; i++)
    {
      g_autofree char *name = g_strdup_printf ("c%02u", i);
      guint c = child_named (tree, p, name);
      gint64 inclusive = i == 0 || i == 9 ? 80 : (i == 3 ? 40 : 30);
      guint64 n = i == 0 ? 3 : (i == 3 || i == 9 ? 2 : 1);

      g_assert_cmpint (nodes[c].inclusive, ==, inclusive);
      g_assert_cmpint (nodes[c].exclusive, ==, i == 3 ? 35 : inclusive);
      g_assert_cmpuint (nodes[c].n_instances, ==, n);
    }
  g_assert_cmpint (nodes[child_named (tree, child_named (tree, p, "c03"), "g")].inclusive, ==, 5);

  /* …and every other scope against the straightforward build */
  g_assert_cmpuint (check_trace (trace), >, 0);
}

/* Wide levels: 90 top frames t00…t89 (t<i> at 100,000 i, 90,000 long)
 * each call c00…c89 (c<j> at +1,000 j, 900 long), and each c<j> calls
 * g<(90 i + j) mod 3000> (at +100, 500 long), twice when 90 i + j is a
 * multiple of 7 (again at +700, 100 long). 3,180 names (a rank of 12
 * bits) and 8,100 nodes at depth 2 (13 bits) make the depth-3 level's
 * keys 25 bits long: three radix passes, where the generated trace needs
 * at most two. t00/c07/g0007: 500 + 100 = 600 in 2; c07 above it: 900,
 * self 300; t00: 90,000, self 90,000 − 90 × 900 = 9,000. */
static SpsTrace *
make_wide_trace (void)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  guint32 t10 = sps_trace_builder_ensure_thread (builder, sps_trace_builder_ensure_process (builder, 1), 10);
  SpsTrace *trace;

  for (guint i = 0; i < 90; i++)
    {
      g_autofree char *top = g_strdup_printf ("t%02u", i);
      SpsTime ts = 100000 * (SpsTime) i;

      sps_test_add_complete (builder, t10, ts, 90000, top, "cat", NULL, 0);
      for (guint j = 0; j < 90; j++)
        {
          g_autofree char *call = g_strdup_printf ("c%02u", j);
          g_autofree char *leaf = g_strdup_printf ("g%04u", (90 * i + j) % 3000);
          SpsTime at = ts + 1000 * (SpsTime) j;

          sps_test_add_complete (builder, t10, at, 900, call, "cat", NULL, 0);
          sps_test_add_complete (builder, t10, at + 100, 500, leaf, "cat", NULL, 0);
          if ((90 * i + j) % 7 == 0)
            sps_test_add_complete (builder, t10, at + 700, 100, leaf, "cat", NULL, 0);
        }
    }
  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);

  return trace;
}

/* The measured tree of all threads; NULL when it fails to build */
static SpsFlameTree *
build_measured (SpsTrace *trace)
{
  SpsFlameTreeParams params;

  sps_flame_tree_params_init (&params, SPS_FLAME_TREE_MEASURED);
  return sps_flame_tree_build (trace, &params, NULL, NULL);
}

static void
test_wide (void)
{
  g_autoptr(SpsTrace) trace = make_wide_trace ();
  g_autoptr(SpsFlameTree) tree = build_measured (trace);
  const SpsFlameNode *nodes;
  guint n_nodes;
  guint top;
  guint call;
  guint leaf;

  /* root, 90 top frames, 8,100 calls, a leaf below each */
  g_assert_nonnull (tree);
  nodes = sps_flame_tree_get_nodes (tree, &n_nodes);
  g_assert_cmpuint (n_nodes, ==, 1 + 90 + 8100 + 8100);
  g_assert_cmpint (nodes[0].inclusive, ==, 90 * 90000);
  top = child_named (tree, 0, "t00");
  call = child_named (tree, top, "c07");
  leaf = child_named (tree, call, "g0007");
  g_assert_cmpint (nodes[top].inclusive, ==, 90000);
  g_assert_cmpint (nodes[top].exclusive, ==, 9000);
  g_assert_cmpint (nodes[call].inclusive, ==, 900);
  g_assert_cmpint (nodes[call].exclusive, ==, 300);
  g_assert_cmpint (nodes[leaf].inclusive, ==, 600);
  g_assert_cmpint (nodes[leaf].exclusive, ==, 600);
  g_assert_cmpuint (nodes[leaf].n_instances, ==, 2);
  g_assert_cmpuint (nodes[leaf].depth, ==, 3);

  /* …and every other scope against the straightforward build */
  g_assert_cmpuint (check_trace (trace), >, 0);
}

/* Stacks that repeat, as a real producer's do: two threads, each 40
 * times main → one of 3 steps → one of 2 leaves, with durations that tie
 * (the longest instance is then the first in row order). Every level has
 * 80 visits or more and few distinct keys, so it is counted in a table
 * rather than sorted: main 2 × 40 = 80 visits; the steps 80 × 2 = 160,
 * keys 1 parent × 3 names; the leaves 160 × 2 = 320, keys 3 parents × 2
 * names. main: 40 × 1000 per thread. Step s0 is (k + j + t) % 3 == 0:
 * on thread 10, 14 rounds for j = 0 (k = 0, 3 … 39) and 13 for j = 1
 * (k = 2, 5 … 38); on thread 11, 13 and 13 (k = 2 … 38, k = 1 … 37):
 * 53 instances of 300. */
static SpsTrace *
make_repeated_trace (void)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(GError) error = NULL;
  guint32 process = sps_trace_builder_ensure_process (builder, 1);
  SpsTrace *trace;

  for (guint t = 0; t < 2; t++)
    {
      guint32 thread = sps_trace_builder_ensure_thread (builder, process, 10 + t);

      for (guint k = 0; k < 40; k++)
        {
          SpsTime ts = 1000 * (SpsTime) k;

          sps_test_add_complete (builder, thread, ts, 1000, "main", "cat", NULL, 0);
          for (guint j = 0; j < 2; j++)
            {
              g_autofree char *step = g_strdup_printf ("s%u", (k + j + t) % 3);
              SpsTime at = ts + 10 + 400 * (SpsTime) j;

              sps_test_add_complete (builder, thread, at, 300, step, "cat", NULL, 0);
              /* Equal durations every other round: ties */
              sps_test_add_complete (builder, thread, at + 10, k % 2 == 0 ? 100 : 100 + k, "leaf-a", "cat", NULL, 0);
              sps_test_add_complete (builder, thread, at + 150, 100, "leaf-b", "cat", NULL, 0);
            }
        }
    }
  trace = sps_trace_builder_finish (builder, NULL, &error);
  g_assert_no_error (error);

  return trace;
}

static void
test_repeated (void)
{
  g_autoptr(SpsTrace) trace = make_repeated_trace ();
  g_autoptr(SpsFlameTree) tree = build_measured (trace);
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  const SpsFlameNode *nodes;
  guint n_nodes;
  guint main_node;
  guint step;
  guint leaf;

  /* root, main, 3 steps, 2 leaves under each */
  g_assert_nonnull (tree);
  nodes = sps_flame_tree_get_nodes (tree, &n_nodes);
  g_assert_cmpuint (n_nodes, ==, 1 + 1 + 3 + 6);
  main_node = child_named (tree, 0, "main");
  g_assert_cmpint (nodes[main_node].inclusive, ==, 2 * 40 * 1000);
  g_assert_cmpuint (nodes[main_node].n_instances, ==, 80);
  step = child_named (tree, main_node, "s0");
  g_assert_cmpuint (nodes[step].n_instances, ==, 53);
  g_assert_cmpint (nodes[step].inclusive, ==, 53 * 300);
  leaf = child_named (tree, step, "leaf-b");
  /* leaf-b is 100 everywhere: its instance is its first slice in row
   * order, on thread 10 in round 0 */
  g_assert_cmpuint (slices->ts[nodes[leaf].instance], ==, 10 + 150);
  g_assert_cmpint (slices->dur[nodes[leaf].instance], ==, 100);

  /* …and every scope against the straightforward build, instances and
   * the slice map included */
  g_assert_cmpuint (check_trace (trace), >, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/flame/tree/reference/fixtures", test_fixtures);
  g_test_add_func ("/flame/tree/reference/shared-fixtures", test_shared_fixtures);
  g_test_add_func ("/flame/tree/reference/generated", test_generated);
  g_test_add_func ("/flame/tree/reference/odd-nesting", test_odd_nesting);
  g_test_add_func ("/flame/tree/reference/crowded", test_crowded);
  g_test_add_func ("/flame/tree/reference/wide", test_wide);
  g_test_add_func ("/flame/tree/reference/repeated", test_repeated);

  return g_test_run ();
}
