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

#include <string.h>

#include "sps-flame-tree-private.h"

typedef struct
{
  SpsStringPool *strings;
  GArray        *nodes;
} SortContext;

static int
compare_children (gconstpointer a,
                  gconstpointer b,
                  gpointer      user_data)
{
  const SortContext *ctx = user_data;
  guint32 na = g_array_index (ctx->nodes, SpsFlameNode, *(const guint32 *) a).name;
  guint32 nb = g_array_index (ctx->nodes, SpsFlameNode, *(const guint32 *) b).name;
  gsize la;
  gsize lb;
  const char *sa = sps_string_pool_get (ctx->strings, na, &la);
  const char *sb = sps_string_pool_get (ctx->strings, nb, &lb);
  int cmp = memcmp (sa, sb, MIN (la, lb));

  if (cmp != 0)
    return cmp;
  if (la != lb)
    return la < lb ? -1 : 1;
  return na < nb ? -1 : (na > nb ? 1 : 0);
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

  nodes = g_array_sized_new (FALSE, TRUE, sizeof (SpsFlameNode), n);
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
  SortContext ctx = { sps_trace_get_strings (self->trace), self->nodes };
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
        g_qsort_with_data (order + start[p], (gint) count, sizeof (guint32), compare_children, &ctx);

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
