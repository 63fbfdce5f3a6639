/* sps-flame-tree-finish.c: a built flame tree put in order
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Once every node is made: the pool renumbered in depth-first pre-order
 * with each node's children linked in name order, and the per-function
 * sums (a function's inclusive time counted once per outermost call).
 */

#define G_LOG_DOMAIN "sps-flame-tree"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "sps-flame-tree-private.h"

static int
compare_keys (const void *a,
              const void *b)
{
  guint64 ka = *(const guint64 *) a;
  guint64 kb = *(const guint64 *) b;

  return ka < kb ? -1 : (ka > kb ? 1 : 0);
}

static int
compare_names (gconstpointer a,
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

/* Each node's rank among the distinct names of the tree in byte order.
 * Trees have far fewer names than nodes (the generated 1e6-event trace:
 * 200 names, 290,339 nodes), so the strings are compared once per name
 * pair, not per sibling pair. */
static guint32 *
rank_nodes (SpsFlameTree *self)
{
  SpsStringPool *strings = sps_trace_get_strings (self->trace);
  const SpsFlameNode *nodes = (const SpsFlameNode *) (gpointer) self->nodes->data;
  guint n_strings = sps_string_pool_get_size (strings);
  guint n = self->nodes->len;
  g_autofree guint32 *rank_of = g_new (guint32, MAX (n_strings, 1));
  g_autoptr(GArray) names = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 *rank = g_new (guint32, MAX (n, 1));

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
    }
  g_array_sort_with_data (names, compare_names, strings);
  for (guint k = 0; k < names->len; k++)
    rank_of[g_array_index (names, guint32, k)] = k;

  rank[0] = 0;
  for (guint i = 1; i < n; i++)
    rank[i] = rank_of[nodes[i].name];
  return rank;
}

/* Sorts @count children by their names' ranks; most groups are a few
 * nodes, for which insertion sort beats a library sort's overhead */
static void
sort_by_rank (guint32       *children,
              guint32        count,
              const guint32 *rank)
{
  if (count > 32)
    {
      g_autofree guint64 *keys = g_new (guint64, count);

      for (guint32 k = 0; k < count; k++)
        keys[k] = ((guint64) rank[children[k]] << 32) | children[k];
      qsort (keys, count, sizeof (guint64), compare_keys);
      for (guint32 k = 0; k < count; k++)
        children[k] = (guint32) keys[k];
      return;
    }

  for (guint32 k = 1; k < count; k++)
    {
      guint32 child = children[k];
      guint32 j = k;

      for (; j > 0 && rank[children[j - 1]] > rank[child]; j--)
        children[j] = children[j - 1];
      children[j] = child;
    }
}

/* Renumbers the nodes in depth-first pre-order (siblings in name order),
 * so that walks over the tree read the pool front to back and a node's
 * subtree is the range that follows it. @order and @start hold the
 * children of each node, sorted, as _sps_flame_tree_link_children() made them. */
static void
renumber_pre_order (SpsFlameTree  *self,
                    const guint32 *order,
                    const guint32 *start)
{
  guint n = self->nodes->len;
  g_autofree guint32 *new_of = g_new (guint32, MAX (n, 1));
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  const SpsFlameNode *old = (const SpsFlameNode *) (gpointer) self->nodes->data;
  GArray *nodes;
  guint32 root = 0;
  guint next = 0;

  g_array_append_val (stack, root);
  while (stack->len > 0)
    {
      guint32 id = g_array_index (stack, guint32, stack->len - 1);

      g_array_set_size (stack, stack->len - 1);
      new_of[id] = next++;
      for (guint32 k = start[id + 1]; k-- > start[id];)
        g_array_append_val (stack, order[k]);
    }
  g_assert (next == n);

  /* Every element is written below: no clearing */
  nodes = g_array_sized_new (FALSE, FALSE, sizeof (SpsFlameNode), n);
  g_array_set_size (nodes, n);
  for (guint i = 0; i < n; i++)
    {
      SpsFlameNode *to = &g_array_index (nodes, SpsFlameNode, new_of[i]);

      *to = old[i];
      if (to->parent != SPS_NO_INDEX)
        to->parent = new_of[to->parent];
      if (to->first_child != SPS_NO_INDEX)
        to->first_child = new_of[to->first_child];
      if (to->next_sibling != SPS_NO_INDEX)
        to->next_sibling = new_of[to->next_sibling];
    }
  g_array_unref (self->nodes);
  self->nodes = nodes;

  for (guint r = 0; r < self->n_slice_node; r++)
    {
      if (self->slice_node[r] != SPS_NO_INDEX)
        self->slice_node[r] = new_of[self->slice_node[r]];
    }
}

/* Links every node's children, sorted by name bytes. */
void
_sps_flame_tree_link_children (SpsFlameTree *self)
{
  g_autofree guint32 *rank = rank_nodes (self);
  g_autofree guint32 *order = NULL;
  g_autofree guint32 *start = NULL;
  guint n = self->nodes->len;

  /* Counting sort by parent, then a name sort inside each group */
  start = g_new0 (guint32, n + 1);
  for (guint i = 1; i < n; i++)
    start[g_array_index (self->nodes, SpsFlameNode, i).parent + 1]++;
  for (guint i = 0; i < n; i++)
    start[i + 1] += start[i];

  order = g_new (guint32, MAX (n, 1));
  {
    g_autofree guint32 *fill = g_memdup2 (start, sizeof (guint32) * (n + 1));

    for (guint i = 1; i < n; i++)
      order[fill[g_array_index (self->nodes, SpsFlameNode, i).parent]++] = i;
  }

  for (guint p = 0; p < n; p++)
    {
      SpsFlameNode *parent = &g_array_index (self->nodes, SpsFlameNode, p);
      guint32 count = start[p + 1] - start[p];

      if (count > 1)
        sort_by_rank (order + start[p], count, rank);

      parent->first_child = count > 0 ? order[start[p]] : SPS_NO_INDEX;
      for (guint32 k = 0; k < count; k++)
        {
          SpsFlameNode *child = &g_array_index (self->nodes, SpsFlameNode, order[start[p] + k]);

          child->next_sibling = k + 1 < count ? order[start[p] + k + 1] : SPS_NO_INDEX;
        }
    }

  renumber_pre_order (self, order, start);
}

int
_sps_flame_tree_compare_functions (gconstpointer a,
                                   gconstpointer b)
{
  guint32 na = ((const SpsFlameFunction *) a)->name;
  guint32 nb = ((const SpsFlameFunction *) b)->name;

  return na < nb ? -1 : (na > nb ? 1 : 0);
}

/* Per-function sums. A node is "outermost" for its name when no ancestor
 * has the same name: only those count inclusive values and observations,
 * so recursion is counted once. The nodes are in pre-order, so one scan
 * with a stack of the current path visits them; `on_path` counts each
 * name on that path. */
void
_sps_flame_tree_build_functions (SpsFlameTree *self)
{
  guint n_strings = sps_string_pool_get_size (sps_trace_get_strings (self->trace));
  g_autofree guint32 *function_of = g_new (guint32, MAX (n_strings, 1));
  g_autofree guint32 *on_path = g_new0 (guint32, MAX (n_strings, 1));
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));
  const SpsFlameNode *nodes = (const SpsFlameNode *) (gpointer) self->nodes->data;

  memset (function_of, 0xff, sizeof (guint32) * MAX (n_strings, 1));
  self->functions = g_array_new (FALSE, TRUE, sizeof (SpsFlameFunction));

  for (guint i = 1; i < self->nodes->len; i++)
    {
      const SpsFlameNode *n = &nodes[i];
      SpsFlameFunction *f;

      /* Leave the subtrees that ended before this node */
      while (path->len > 0 && g_array_index (path, guint32, path->len - 1) != n->parent)
        {
          on_path[nodes[g_array_index (path, guint32, path->len - 1)].name]--;
          g_array_set_size (path, path->len - 1);
        }

      g_assert (n->name < n_strings);
      if (function_of[n->name] == SPS_NO_INDEX)
        {
          SpsFlameFunction fresh = { 0 };

          fresh.name = n->name;
          function_of[n->name] = self->functions->len;
          g_array_append_val (self->functions, fresh);
        }
      f = &g_array_index (self->functions, SpsFlameFunction, function_of[n->name]);
      sat_add (&f->exclusive, n->exclusive);
      f->cpu_exclusive += n->cpu_exclusive;
      if (on_path[n->name] == 0)
        {
          sat_add (&f->inclusive, n->inclusive);
          f->cpu_inclusive += n->cpu_inclusive;
          f->n_observations += self->kind == SPS_FLAME_TREE_SAMPLES ? (guint64) n->inclusive : n->n_instances;
        }

      on_path[n->name]++;
      g_array_append_val (path, i);
    }

  g_array_sort (self->functions, _sps_flame_tree_compare_functions);
}
