/* sps-flame-tree.c: call trees for flame graphs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A tree is a flat pool of SpsFlameNode, node 0 being a synthetic root.
 *
 * Span trees are built level by level, in passes that read memory in
 * order, in sps-flame-tree-spans.c.
 *
 * The samples tree maps each callsite to a node once (a callsite is a
 * path of frames, so its node does not depend on the sample), then counts
 * each sample at its leaf and sums upwards. Its nodes are small
 * SpsFlameBuildNode records while it is built, each created after its
 * parent, so a reverse walk over them visits children before parents:
 * that is how inclusive sums are made. (parent, name) → child walks the
 * parent's list of children while it is short, and goes through a small
 * open-addressing index for crowded parents. Once built, the finished
 * pool is written in pre-order (sps-flame-tree-finish.c).
 */

#define G_LOG_DOMAIN "sps-flame-tree"

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "sps-flame-tree-private.h"
#include "sps-trace-private.h"
#include "sps-self-trace.h"

/**
 * SpsFlameTree:
 *
 * An immutable, reference-counted call tree of one trace: measured
 * slices, stack samples or sampled spans, for one thread or all threads
 * merged, optionally limited to a time range and to what a visibility
 * predicate keeps. Build it with sps_flame_tree_build() (any thread) or
 * sps_flame_tree_build_async() (a worker thread), then read the node pool
 * with sps_flame_tree_get_nodes(); node 0 is the root, which holds the
 * total. Safe to share between threads once built.
 */
G_DEFINE_BOXED_TYPE (SpsFlameTree, sps_flame_tree, sps_flame_tree_ref, sps_flame_tree_unref)

static const char * const kind_names[] = { "measured", "samples", "sampled" };

/* Makes room for @n_nodes build nodes */
static void
reserve_build (SpsFlameTree *self,
               guint64       n_nodes)
{
  guint capacity;

  if (n_nodes <= self->build_capacity)
    return;

  /* Node ids stop below the two markers of first_child. Tables hold
   * fewer than 2^31 rows, so no tree comes near */
  if (n_nodes >= SPS_FLAME_INDEXED)
    g_error ("A flame tree cannot hold %" G_GUINT64_FORMAT " nodes", n_nodes);

  capacity = (guint) MIN (MAX (n_nodes, (guint64) self->build_capacity * 2), (guint64) SPS_FLAME_INDEXED - 1);
  self->build = g_realloc_n (self->build, capacity, sizeof (SpsFlameBuildNode));
  _sps_advise_huge_pages (self->build, (gsize) capacity * sizeof (SpsFlameBuildNode));
  if (self->kind == SPS_FLAME_TREE_SAMPLES)
    self->extra = g_renew (SpsFlameSampleExtra, self->extra, capacity);
  self->build_capacity = capacity;
}

/* Grows the index so that one more entry keeps its load under three
 * quarters: the slots keep the hash, eight to a cache line, so probing
 * further stays in the line. It holds only the children of crowded
 * nodes, so it starts small and stays in the cache longer */
static void
index_make_room (SpsFlameTree *self)
{
  SpsFlameIndexSlot *old = self->index;
  guint old_size = self->index_size;
  guint size = MAX (old_size, 1024);

  while ((guint64) size * 3 < ((guint64) self->n_indexed + 1) * 4 && size < (1u << 31))
    size *= 2;
  if (size == old_size)
    return;

  self->index = g_new0 (SpsFlameIndexSlot, size);
  _sps_advise_huge_pages (self->index, (gsize) size * sizeof (SpsFlameIndexSlot));
  self->index_size = size;
  for (guint i = 0; i < old_size; i++)
    {
      guint slot = old[i].hash & (size - 1);

      if (old[i].node_plus_one == 0)
        continue;
      while (self->index[slot].node_plus_one != 0)
        slot = (slot + 1) & (size - 1);
      self->index[slot] = old[i];
    }
  g_free (old);
}

static void
index_insert (SpsFlameTree *self,
              guint32       node,
              guint32       hash)
{
  guint mask;
  guint slot;

  index_make_room (self);
  mask = self->index_size - 1;
  for (slot = hash & mask; self->index[slot].node_plus_one != 0; slot = (slot + 1) & mask)
    ;
  self->index[slot].hash = hash;
  self->index[slot].node_plus_one = node + 1;
  self->n_indexed++;
}

/* A new node, not linked anywhere yet. Children are put in name order at
 * the end. */
static guint32
new_node (SpsFlameTree *self,
          guint32       parent,
          guint32       name)
{
  guint32 id = self->n_build;
  SpsFlameBuildNode *node;

  if (id >= self->build_capacity)
    reserve_build (self, (guint64) id + 1);

  node = &self->build[id];
  node->parent = parent;
  node->name = name;
  node->first_child = SPS_NO_INDEX;
  node->next_sibling = SPS_NO_INDEX;
  node->instance = SPS_NO_INDEX;
  node->n_instances = 0;
  node->inclusive = 0;
  node->exclusive = 0;
  if (self->extra != NULL)
    memset (&self->extra[id], 0, sizeof self->extra[id]);
  self->n_build++;

  return id;
}

/* Makes the child of @parent named @name, which is not among its
 * @n_children listed children; past SPS_FLAME_LIST_MAX the list moves
 * to the index. */
guint32
_sps_flame_tree_add_child (SpsFlameTree *self,
                           guint32       parent,
                           guint32       name,
                           guint         n_children)
{
  guint32 id = new_node (self, parent, name);
  SpsFlameBuildNode *build = self->build;

  if (n_children < SPS_FLAME_LIST_MAX)
    {
      build[id].next_sibling = build[parent].first_child;
      build[parent].first_child = id;
      return id;
    }

  for (guint32 c = build[parent].first_child; c != SPS_NO_INDEX; c = build[c].next_sibling)
    index_insert (self, c, _sps_flame_index_hash (parent, build[c].name));
  index_insert (self, id, _sps_flame_index_hash (parent, name));
  build[parent].first_child = SPS_FLAME_INDEXED;

  return id;
}

/* Makes the child of @parent, whose children are in the index, named
 * @name, which the index does not hold; @hash is its key's */
guint32
_sps_flame_tree_add_indexed (SpsFlameTree *self,
                             guint32       parent,
                             guint32       name,
                             guint32       hash)
{
  guint32 id = new_node (self, parent, name);

  index_insert (self, id, hash);

  return id;
}

gboolean
_sps_flame_tree_check_cancelled (SpsProgress  *progress,
                                 GError      **error)
{
  if (progress != NULL && sps_progress_is_cancelled (progress))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                           _("Building the flame graph was cancelled"));
      return TRUE;
    }

  return FALSE;
}

/* Samples tree */

/**
 * sps_flame_tree_sample_estimate_ns: (skip)
 * @samples: a sample table
 * @row: a row of @samples
 *
 * The estimated CPU time of a sample, from its weight: what the samples
 * tree sums into its CPU values.
 *
 * Returns: nanoseconds, or NAN when the weight is absent, negative, not
 *   finite or has no time unit
 */
double
sps_flame_tree_sample_estimate_ns (const SpsSampleTable *samples,
                                   guint                 row)
{
  double weight;
  double factor;

  g_return_val_if_fail (samples != NULL, NAN);
  g_return_val_if_fail (row < samples->n_rows, NAN);

  weight = SPS_SAMPLE_VALUE (samples, weight, row);
  if ((SPS_SAMPLE_VALUE (samples, flags, row) & SPS_SAMPLE_HAS_WEIGHT) == 0 || !isfinite (weight) || weight < 0)
    return NAN;

  switch ((SpsWeightUnit) SPS_SAMPLE_VALUE (samples, weight_unit, row))
    {
    case SPS_WEIGHT_UNIT_NS: factor = 1.0; break;
    case SPS_WEIGHT_UNIT_US: factor = 1e3; break;
    case SPS_WEIGHT_UNIT_MS: factor = 1e6; break;
    case SPS_WEIGHT_UNIT_S:  factor = 1e9; break;
    case SPS_WEIGHT_UNIT_NONE:
    default:
      return NAN;
    }

  return weight * factor;
}

/* The node of @callsite, made (with its ancestors) on first use. */
static guint32
callsite_node (SpsFlameTree           *self,
               const SpsCallsiteTable *callsites,
               const SpsFrameTable    *frames,
               guint32                *memo,
               GArray                 *chain,
               guint32                 callsite)
{
  guint32 node = 0;

  g_array_set_size (chain, 0);
  for (guint32 c = callsite; c != SPS_NO_INDEX; c = callsites->parent[c])
    {
      if (memo[c] != SPS_NO_INDEX)
        {
          node = memo[c];
          break;
        }
      g_array_append_val (chain, c);
      /* A cycle cannot come from a builder, but a caller's table could */
      if (chain->len > callsites->n_rows)
        break;
    }

  for (guint i = chain->len; i-- > 0;)
    {
      guint32 c = g_array_index (chain, guint32, i);
      guint32 frame = callsites->frame[c];
      guint32 name = frame < frames->n_rows ? frames->name[frame] : 0;

      node = _sps_flame_tree_child (self, node, name);
      memo[c] = node;
    }

  return node;
}

static gboolean
build_samples (SpsFlameTree              *self,
               const SpsFlameTreeParams  *params,
               SpsProgress               *progress,
               GError                   **error)
{
  SpsTrace *trace = self->trace;
  const SpsSampleTable *samples = params->samples != NULL ? params->samples : sps_trace_get_samples (trace);
  const SpsCallsiteTable *callsites = params->callsites != NULL ? params->callsites : sps_trace_get_callsites (trace);
  const SpsFrameTable *frames = sps_trace_get_frames (trace);
  g_autofree guint32 *memo = g_new (guint32, MAX (callsites->n_rows, 1));
  g_autoptr(GArray) chain = g_array_new (FALSE, FALSE, sizeof (guint32));

  memset (memo, 0xff, sizeof (guint32) * MAX (callsites->n_rows, 1));

  for (guint r = 0; r < samples->n_rows; r++)
    {
      guint32 callsite = samples->callsite[r];
      SpsFlameBuildNode *n;
      guint32 node;
      double estimate;

      if (((r + 1) % SPS_FLAME_CHECK_STRIDE) == 0 && _sps_flame_tree_check_cancelled (progress, error))
        return FALSE;

      if (params->thread != SPS_NO_INDEX && samples->thread[r] != params->thread)
        continue;
      if (params->has_range &&
          (samples->ts[r] < params->range_start || samples->ts[r] >= params->range_end))
        continue;
      if (params->sample_visible != NULL &&
          !params->sample_visible (trace, r, params->user_data))
        continue;

      /* An unresolved stack is one frame named after the event */
      if (callsite == SPS_NO_INDEX || callsite >= callsites->n_rows)
        node = _sps_flame_tree_child (self, 0, samples->name[r]);
      else
        node = callsite_node (self, callsites, frames, memo, chain, callsite);

      n = &self->build[node];
      if (n->n_instances == 0)
        n->instance = r;
      n->n_instances++;
      n->exclusive++;
      estimate = sps_flame_tree_sample_estimate_ns (samples, r);
      if (!isnan (estimate))
        {
          self->extra[node].cpu_exclusive += estimate;
          self->extra[node].n_estimated_exclusive++;
        }
    }

  /* Parents come before their children in the build pool */
  for (guint i = 0; i < self->n_build; i++)
    {
      self->build[i].inclusive = self->build[i].exclusive;
      self->extra[i].cpu_inclusive = self->extra[i].cpu_exclusive;
      self->extra[i].n_estimated_inclusive = self->extra[i].n_estimated_exclusive;
    }
  for (guint i = self->n_build; i-- > 1;)
    {
      guint32 parent = self->build[i].parent;

      self->build[parent].inclusive += self->build[i].inclusive;
      self->extra[parent].cpu_inclusive += self->extra[i].cpu_inclusive;
      self->extra[parent].n_estimated_inclusive += self->extra[i].n_estimated_inclusive;
    }

  return TRUE;
}

/**
 * sps_flame_tree_params_init:
 * @params: (out caller-allocates): parameters to fill
 * @kind: the tree to build
 *
 * Sets @params to @kind over all threads merged, no range, no
 * predicates, the trace's own samples.
 */
void
sps_flame_tree_params_init (SpsFlameTreeParams *params,
                            SpsFlameTreeKind    kind)
{
  g_return_if_fail (params != NULL);
  g_return_if_fail (kind <= SPS_FLAME_TREE_SAMPLED);

  memset (params, 0, sizeof *params);
  params->kind = kind;
  params->thread = SPS_NO_INDEX;
}

/**
 * sps_flame_tree_kind_from_string:
 * @name: `measured`, `samples` or `sampled`
 * @kind: (out): where to store the kind
 *
 * Returns: %TRUE when @name names a kind
 */
gboolean
sps_flame_tree_kind_from_string (const char       *name,
                                 SpsFlameTreeKind *kind)
{
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (kind != NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (kind_names); i++)
    {
      if (g_str_equal (name, kind_names[i]))
        {
          *kind = (SpsFlameTreeKind) i;
          return TRUE;
        }
    }

  return FALSE;
}

/**
 * sps_flame_tree_kind_to_string:
 * @kind: a kind
 *
 * Returns: its name as used by options and the command line
 */
const char *
sps_flame_tree_kind_to_string (SpsFlameTreeKind kind)
{
  g_return_val_if_fail (kind <= SPS_FLAME_TREE_SAMPLED, NULL);

  return kind_names[kind];
}

/**
 * sps_flame_tree_trace_has_kind:
 * @trace: a trace
 * @kind: a kind
 *
 * Returns: %TRUE when @trace has something for a tree of @kind: samples,
 *   measured thread slices or sampled spans
 */
gboolean
sps_flame_tree_trace_has_kind (SpsTrace         *trace,
                               SpsFlameTreeKind  kind)
{
  g_return_val_if_fail (SPS_IS_TRACE (trace), FALSE);

  switch (kind)
    {
    case SPS_FLAME_TREE_SAMPLES:
      return sps_trace_get_samples (trace)->n_rows > 0;
    case SPS_FLAME_TREE_MEASURED:
      return sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES) > 0;
    case SPS_FLAME_TREE_SAMPLED:
      return sps_trace_count_slices (trace, SPS_TRACK_THREAD_SAMPLED_SLICES) > 0;
    default:
      g_return_val_if_reached (FALSE);
    }
}

/**
 * sps_flame_tree_get_default_kind:
 * @trace: a trace
 *
 * The tree to show first: samples when the trace has some, else measured
 * slices when it has some, else sampled spans when it has some, else
 * measured (an empty tree).
 *
 * Returns: the kind
 */
SpsFlameTreeKind
sps_flame_tree_get_default_kind (SpsTrace *trace)
{
  g_return_val_if_fail (SPS_IS_TRACE (trace), SPS_FLAME_TREE_MEASURED);

  if (sps_flame_tree_trace_has_kind (trace, SPS_FLAME_TREE_SAMPLES))
    return SPS_FLAME_TREE_SAMPLES;
  if (!sps_flame_tree_trace_has_kind (trace, SPS_FLAME_TREE_MEASURED) &&
      sps_flame_tree_trace_has_kind (trace, SPS_FLAME_TREE_SAMPLED))
    return SPS_FLAME_TREE_SAMPLED;

  return SPS_FLAME_TREE_MEASURED;
}

/**
 * sps_flame_tree_build:
 * @trace: a trace
 * @params: what to build
 * @progress: (nullable): checked for cancellation
 * @error: return location for an error
 *
 * Builds a tree. Safe to call on any thread while nothing modifies the
 * trace (a loaded trace is immutable).
 *
 * Returns: (transfer full): the tree, or %NULL with @error set when
 *   cancelled or when @params are invalid
 */
SpsFlameTree *
sps_flame_tree_build (SpsTrace                  *trace,
                      const SpsFlameTreeParams  *params,
                      SpsProgress               *progress,
                      GError                   **error)
{
  g_autoptr(SpsFlameTree) self = NULL;
  gboolean ok;
  SPS_SELF_TRACE_SCOPE ("flame-tree/build");

  g_return_val_if_fail (SPS_IS_TRACE (trace), NULL);
  g_return_val_if_fail (params != NULL, NULL);
  g_return_val_if_fail (progress == NULL || SPS_IS_PROGRESS (progress), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (params->kind > SPS_FLAME_TREE_SAMPLED)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("Unknown flame tree kind %u"), (guint) params->kind);
      return NULL;
    }
  if (params->thread != SPS_NO_INDEX && params->thread >= sps_trace_get_threads (trace)->n_rows)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("No thread row %u in the trace"), params->thread);
      return NULL;
    }
  if (params->callsites != NULL && params->samples == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("A callsite table was given without its sample table"));
      return NULL;
    }

  self = g_new0 (SpsFlameTree, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->trace = g_object_ref (trace);
  self->kind = params->kind;

  /* The samples tree is finished here, from build nodes that start with
   * the root; span trees make their pool themselves, from nodes made in
   * another order */
  if (params->kind == SPS_FLAME_TREE_SAMPLES)
    {
      reserve_build (self, 1024);
      new_node (self, SPS_NO_INDEX, 0);
      ok = build_samples (self, params, progress, error);
    }
  else
    {
      ok = _sps_flame_tree_build_spans (self, params, progress, error);
    }

  if (!ok)
    return NULL;

  /* The lookup index is only needed while building */
  g_clear_pointer (&self->index, g_free);
  self->index_size = 0;
  self->n_indexed = 0;

  if (params->kind == SPS_FLAME_TREE_SAMPLES)
    _sps_flame_tree_finish_nodes (self);
  g_clear_pointer (&self->build, g_free);
  g_clear_pointer (&self->extra, g_free);
  self->n_build = self->build_capacity = 0;

  if (_sps_flame_tree_check_cancelled (progress, error))
    return NULL;

  return g_steal_pointer (&self);
}

static void
build_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  const SpsFlameTreeParams *params = task_data;
  SpsProgress *progress = g_object_get_data (G_OBJECT (task), "sps-progress");
  SpsTrace *trace = g_object_get_data (G_OBJECT (task), "sps-trace");
  g_autoptr(SpsProgress) own = NULL;
  SpsFlameTree *tree;
  GError *error = NULL;

  if (progress == NULL)
    progress = own = sps_progress_new (cancellable);

  if ((tree = sps_flame_tree_build (trace, params, progress, &error)))
    g_task_return_pointer (task, tree, (GDestroyNotify) sps_flame_tree_unref);
  else
    g_task_return_error (task, error);
}

/**
 * sps_flame_tree_build_async:
 * @trace: a trace
 * @params: what to build; copied. Its predicates are called on a worker
 *   thread and its user data and tables must live until @callback runs
 * @progress: (nullable): for cancellation; when %NULL, @cancellable is used
 * @cancellable: (nullable): a #GCancellable
 * @callback: called on the calling thread's main context when done
 * @user_data: data for @callback
 *
 * Builds a tree on a worker thread.
 */
void
sps_flame_tree_build_async (SpsTrace                 *trace,
                            const SpsFlameTreeParams *params,
                            SpsProgress              *progress,
                            GCancellable             *cancellable,
                            GAsyncReadyCallback       callback,
                            gpointer                  user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (SPS_IS_TRACE (trace));
  g_return_if_fail (params != NULL);
  g_return_if_fail (progress == NULL || SPS_IS_PROGRESS (progress));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, sps_flame_tree_build_async);
  g_task_set_task_data (task, g_memdup2 (params, sizeof *params), g_free);
  g_object_set_data_full (G_OBJECT (task), "sps-trace", g_object_ref (trace), g_object_unref);
  if (progress != NULL)
    g_object_set_data_full (G_OBJECT (task), "sps-progress", g_object_ref (progress), g_object_unref);
  g_task_run_in_thread (task, build_thread);
}

/**
 * sps_flame_tree_build_finish:
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Returns: (transfer full): the tree, or %NULL with @error set
 */
SpsFlameTree *
sps_flame_tree_build_finish (GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == sps_flame_tree_build_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * sps_flame_tree_ref:
 * @self: a tree
 *
 * Returns: (transfer full): @self
 */
SpsFlameTree *
sps_flame_tree_ref (SpsFlameTree *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);

  return self;
}

/**
 * sps_flame_tree_unref:
 * @self: (transfer full): a tree
 *
 * Releases a reference.
 */
void
sps_flame_tree_unref (SpsFlameTree *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_clear_object (&self->trace);
  g_free (self->nodes);
  g_clear_pointer (&self->functions, g_array_unref);
  g_free (self->build);
  g_free (self->extra);
  g_free (self->index);
  g_free (self->slice_node);
  g_free (self->node_of_build);
  g_free (self);
}

/**
 * sps_flame_tree_get_trace:
 * @self: a tree
 *
 * Returns: (transfer none): the trace it was built from
 */
SpsTrace *
sps_flame_tree_get_trace (SpsFlameTree *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->trace;
}

/**
 * sps_flame_tree_get_kind:
 * @self: a tree
 *
 * Returns: its kind
 */
SpsFlameTreeKind
sps_flame_tree_get_kind (SpsFlameTree *self)
{
  g_return_val_if_fail (self != NULL, SPS_FLAME_TREE_MEASURED);

  return self->kind;
}

/**
 * sps_flame_tree_get_values_are_estimates:
 * @self: a tree
 *
 * Returns: %TRUE for a sampled-spans tree, whose nanoseconds are
 *   estimates of CPU time rather than measurements
 */
gboolean
sps_flame_tree_get_values_are_estimates (SpsFlameTree *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return self->kind == SPS_FLAME_TREE_SAMPLED;
}

/**
 * sps_flame_tree_get_nodes:
 * @self: a tree
 * @n_nodes: (out) (optional): the number of nodes, at least 1
 *
 * Returns: (array length=n_nodes) (transfer none): the node pool; node 0
 *   is the root, whose inclusive value is the total of the tree
 */
const SpsFlameNode *
sps_flame_tree_get_nodes (SpsFlameTree *self,
                          guint        *n_nodes)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (n_nodes != NULL)
    *n_nodes = self->n_nodes;

  return self->nodes;
}

/**
 * sps_flame_tree_get_node:
 * @self: a tree
 * @node: a node index
 *
 * Returns: (transfer none): the node
 */
const SpsFlameNode *
sps_flame_tree_get_node (SpsFlameTree *self,
                         guint         node)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (node < self->n_nodes, NULL);

  return &self->nodes[node];
}

/**
 * sps_flame_tree_find_child:
 * @self: a tree
 * @node: a node index
 * @name: a string id of the trace
 *
 * Returns: the child of @node named @name, or %SPS_NO_INDEX
 */
guint
sps_flame_tree_find_child (SpsFlameTree *self,
                           guint         node,
                           guint32       name)
{
  const SpsFlameNode *n;

  g_return_val_if_fail (self != NULL, SPS_NO_INDEX);
  g_return_val_if_fail (node < self->n_nodes, SPS_NO_INDEX);

  n = &self->nodes[node];
  for (guint32 c = n->first_child; c != SPS_NO_INDEX; c = self->nodes[c].next_sibling)
    {
      if (self->nodes[c].name == name)
        return c;
    }

  return SPS_NO_INDEX;
}

/**
 * sps_flame_tree_get_slice_node:
 * @self: a tree
 * @slice: a row of the slice table
 *
 * Returns: the node @slice was counted in, or %SPS_NO_INDEX when it is not
 *   part of the tree (another kind, scope, range or hidden)
 */
guint
sps_flame_tree_get_slice_node (SpsFlameTree *self,
                               guint         slice)
{
  guint32 node;

  g_return_val_if_fail (self != NULL, SPS_NO_INDEX);

  if (self->slice_node == NULL || slice < self->slice_node_first ||
      slice - self->slice_node_first >= self->n_slice_node)
    return SPS_NO_INDEX;

  node = self->slice_node[slice - self->slice_node_first];

  /* The node + 1 in build order; 0 when not in the tree */
  return node == 0 ? SPS_NO_INDEX : self->node_of_build[node - 1];
}

/**
 * sps_flame_tree_get_functions:
 * @self: a tree
 * @n_functions: (out) (optional): their number
 *
 * Returns: (array length=n_functions) (transfer none): per-function sums,
 *   sorted by name id
 */
const SpsFlameFunction *
sps_flame_tree_get_functions (SpsFlameTree *self,
                              guint        *n_functions)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (n_functions != NULL)
    *n_functions = self->functions->len;

  return (const SpsFlameFunction *) (gpointer) self->functions->data;
}

/**
 * sps_flame_tree_lookup_function:
 * @self: a tree
 * @name: a string id of the trace
 *
 * Returns: (nullable) (transfer none): the sums of the function @name, or
 *   %NULL when it is not in the tree
 */
const SpsFlameFunction *
sps_flame_tree_lookup_function (SpsFlameTree *self,
                                guint32       name)
{
  SpsFlameFunction key = { 0 };

  g_return_val_if_fail (self != NULL, NULL);

  key.name = name;

  return bsearch (&key, self->functions->data, self->functions->len,
                  sizeof (SpsFlameFunction), _sps_flame_tree_compare_functions);
}

/**
 * sps_flame_tree_dup_path:
 * @self: a tree
 * @node: a node index
 * @separator: put between the frame names
 *
 * Returns: (transfer full): the frame names from the outermost one down to
 *   @node; empty for the root
 */
char *
sps_flame_tree_dup_path (SpsFlameTree *self,
                         guint         node,
                         const char   *separator)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  GString *path = g_string_new (NULL);

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (node < self->n_nodes, NULL);
  g_return_val_if_fail (separator != NULL, NULL);

  for (guint32 n = node; n != 0 && n != SPS_NO_INDEX; n = self->nodes[n].parent)
    g_ptr_array_add (names, (gpointer) sps_trace_get_string (self->trace, self->nodes[n].name));

  for (guint i = names->len; i-- > 0;)
    {
      g_string_append (path, g_ptr_array_index (names, i));
      if (i > 0)
        g_string_append (path, separator);
    }

  return g_string_free (path, FALSE);
}
