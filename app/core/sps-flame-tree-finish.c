/* sps-flame-tree-finish.c: a built flame tree put in order
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Once every node is made: the finished pool written in depth-first
 * pre-order with each node's children linked in name order, and the per-function
 * sums (a function's inclusive time counted once per outermost call).
 */

#define G_LOG_DOMAIN "sps-flame-tree"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "sps-flame-tree-private.h"
#include "sps-trace-private.h"

static int
compare_keys (const void *a,
              const void *b)
{
  guint64 ka = *(const guint64 *) a;
  guint64 kb = *(const guint64 *) b;

  return ka < kb ? -1 : (ka > kb ? 1 : 0);
}

int
_sps_flame_tree_compare_names (gconstpointer a,
                               gconstpointer b,
                               gpointer      user_data)
{
  SpsStringPool *strings = user_data;
  guint32 na = *(const guint32 *) a;
  guint32 nb = *(const guint32 *) b;
  gsize la;
  gsize lb;
  const char *sa = sps_string_pool_get (strings, na, &la);
  const char *sb = sps_string_pool_get (strings, nb, &lb);
  int cmp = memcmp (sa, sb, MIN (la, lb));

  if (cmp != 0)
    return cmp;
  if (la != lb)
    return la < lb ? -1 : 1;
  return na < nb ? -1 : (na > nb ? 1 : 0);
}

/* The rank of each name of the tree among its distinct names in byte
 * order, per string id (the array has one entry per string of the
 * trace). Trees have far fewer names than nodes (the generated
 * 1e6-event trace: 200 names, 290,339 nodes), so the strings are compared
 * once per name pair, not per sibling pair. On the same pass,
 * @n_children (n + 1 entries, zeroed) counts each node's children one
 * entry further on. */
static guint32 *
rank_names (SpsFlameTree *self,
            guint32      *n_children)
{
  SpsStringPool *strings = sps_trace_get_strings (self->trace);
  const SpsFlameBuildNode *nodes = self->build;
  guint n_strings = sps_string_pool_get_size (strings);
  guint n = self->n_build;
  guint32 *rank_of = g_new (guint32, MAX (n_strings, 1));
  g_autoptr(GArray) names = g_array_new (FALSE, FALSE, sizeof (guint32));

  memset (rank_of, 0xff, sizeof (guint32) * MAX (n_strings, 1));
  for (guint i = 1; i < n; i++)
    {
      guint32 name = nodes[i].name;

      g_assert (name < n_strings);
      if (rank_of[name] == SPS_NO_INDEX)
        {
          rank_of[name] = 0;
          g_array_append_val (names, name);
        }
      n_children[nodes[i].parent + 1]++;
    }
  g_array_sort_with_data (names, _sps_flame_tree_compare_names, strings);
  for (guint k = 0; k < names->len; k++)
    rank_of[g_array_index (names, guint32, k)] = k;

  return rank_of;
}

/* Sorts @count keys (a name's rank above a node id); most groups are a
 * few nodes, for which insertion sort beats a library sort's overhead.
 * Siblings have distinct names, so their ranks differ */
static void
sort_keys (guint64 *keys,
           guint32  count)
{
  if (count > 32)
    {
      qsort (keys, count, sizeof (guint64), compare_keys);
      return;
    }

  for (guint32 k = 1; k < count; k++)
    {
      guint64 key = keys[k];
      guint32 j = k;

      for (; j > 0 && keys[j - 1] > key; j--)
        keys[j] = keys[j - 1];
      keys[j] = key;
    }
}

void
_sps_flame_function_sums_init (SpsFlameFunctionSums *sums,
                               SpsFlameTree         *self,
                               guint                 n_nodes)
{
  sums->n_strings = sps_string_pool_get_size (sps_trace_get_strings (self->trace));
  sums->functions = g_array_new (FALSE, TRUE, sizeof (SpsFlameFunction));
  sums->function_of = g_new (guint32, MAX (sums->n_strings, 1));
  sums->on_path = g_new0 (guint32, MAX (sums->n_strings, 1));
  /* Touched only up to the deepest depth */
  sums->path_name = g_new (guint32, n_nodes + 1);
  sums->path_len = 0;
  sums->samples = self->kind == SPS_FLAME_TREE_SAMPLES;
  memset (sums->function_of, 0xff, sizeof (guint32) * MAX (sums->n_strings, 1));
}

/* The functions sorted by name id; frees the rest */
GArray *
_sps_flame_function_sums_finish (SpsFlameFunctionSums *sums)
{
  g_free (sums->function_of);
  g_free (sums->on_path);
  g_free (sums->path_name);
  g_array_sort (sums->functions, _sps_flame_tree_compare_functions);

  return sums->functions;
}

/* Writes the finished pool from the build nodes: in depth-first
 * pre-order (siblings in name order), so that walks over the tree read
 * the pool front to back and a node's subtree is the range that follows
 * it. Each node's place is computed first from the subtree sizes, in
 * small arrays, and then every record is written to its place in one pass
 * over the build records in creation order: a walk in pre-order read the
 * build records out of order, a cache miss each, one after the other. The
 * per-function sums then read the pool front to back. */
void
_sps_flame_tree_finish_nodes (SpsFlameTree *self)
{
  const SpsFlameBuildNode *build = self->build;
  guint n = self->n_build;
  g_autofree guint32 *start = g_new0 (guint32, n + 1);
  g_autofree guint32 *rank_of = rank_names (self, start);
  g_autofree guint64 *order = NULL;
  g_autofree guint32 *new_of = g_new (guint32, MAX (n, 1));
  g_autofree guint32 *size = g_new (guint32, MAX (n, 1));
  g_autofree guint32 *depth = g_new (guint32, MAX (n, 1));
  SpsFlameNode *nodes;

  /* Counting sort by parent (counted by rank_names()), then a name sort
   * inside each group. The keys carry the rank, so that sorting a group
   * reads only the group */
  for (guint i = 0; i < n; i++)
    start[i + 1] += start[i];

  order = g_new (guint64, MAX (n, 1));
  {
    g_autofree guint32 *fill = g_memdup2 (start, sizeof (guint32) * (n + 1));

    for (guint i = 1; i < n; i++)
      order[fill[build[i].parent]++] = ((guint64) rank_of[build[i].name] << 32) | i;
  }
  for (guint p = 0; p < n; p++)
    {
      guint32 count = start[p + 1] - start[p];

      if (count > 1)
        sort_keys (order + start[p], count);
    }

  /* Subtree sizes: children come after their parents in creation order */
  for (guint i = 0; i < n; i++)
    size[i] = 1;
  for (guint i = n; i-- > 1;)
    size[build[i].parent] += size[i];

  /* Places, parents first: a node's first child follows it, and each
   * next sibling follows the subtree before it. A child's size is read
   * once, here, and then replaced by its next sibling's place */
  new_of[0] = 0;
  depth[0] = 0;
  for (guint p = 0; p < n; p++)
    {
      guint32 at = new_of[p] + 1;

      for (guint32 k = start[p]; k < start[p + 1]; k++)
        {
          guint32 c = (guint32) order[k];
          guint32 after = at + size[c];

          new_of[c] = at;
          depth[c] = depth[p] + 1;
          size[c] = k + 1 < start[p + 1] ? after : SPS_NO_INDEX;
          at = after;
        }
    }

  /* Every element is written below: no clearing */
  nodes = _sps_alloc_large (sizeof (SpsFlameNode) * MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      const SpsFlameBuildNode *from = &build[i];
      SpsFlameNode *to = &nodes[new_of[i]];

      to->parent = i == 0 ? SPS_NO_INDEX : new_of[from->parent];
      to->first_child = start[i + 1] > start[i] ? new_of[i] + 1 : SPS_NO_INDEX;
      to->next_sibling = i == 0 ? SPS_NO_INDEX : size[i];
      to->name = from->name;
      to->depth = depth[i];
      to->inclusive = from->inclusive;
      to->exclusive = from->exclusive;
      to->n_instances = from->n_instances;
      to->instance = from->instance;
      if (self->extra != NULL)
        {
          to->cpu_inclusive = self->extra[i].cpu_inclusive;
          to->cpu_exclusive = self->extra[i].cpu_exclusive;
          to->n_estimated_inclusive = self->extra[i].n_estimated_inclusive;
          to->n_estimated_exclusive = self->extra[i].n_estimated_exclusive;
        }
      else
        {
          to->cpu_inclusive = 0;
          to->cpu_exclusive = 0;
          to->n_estimated_inclusive = 0;
          to->n_estimated_exclusive = 0;
        }
    }

  self->nodes = nodes;
  self->n_nodes = n;
  _sps_flame_tree_sum_functions (self);
  /* The slice map keeps build ids: a query reads one more entry, where
   * renumbering it here cost a pass with a random read per slice */
  self->node_of_build = g_steal_pointer (&new_of);
}

/* The per-function sums of the finished pool, which is in pre-order */
void
_sps_flame_tree_sum_functions (SpsFlameTree *self)
{
  SpsFlameFunctionSums sums;

  _sps_flame_function_sums_init (&sums, self, self->n_nodes);
  for (guint i = 1; i < self->n_nodes; i++)
    _sps_flame_function_sums_add (&sums, &self->nodes[i], self->nodes[i].depth);
  self->functions = _sps_flame_function_sums_finish (&sums);
}

int
_sps_flame_tree_compare_functions (gconstpointer a,
                                   gconstpointer b)
{
  guint32 na = ((const SpsFlameFunction *) a)->name;
  guint32 nb = ((const SpsFlameFunction *) b)->name;

  return na < nb ? -1 : (na > nb ? 1 : 0);
}
