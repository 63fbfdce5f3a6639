/* sps-flame-tree-spans.c: span trees (measured slices, sampled spans)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each slice of the scope counts in the child named like it under the
 * node of its nearest visible ancestor. Finding that child slice by slice
 * costs a cache miss or two per slice once the tree outgrows the cache
 * (a node's children are made at scattered times), so the tree is built
 * level by level instead, in passes that read and write memory in order:
 *
 * 1. A pass over the slices in scope (per track, in row order) notes each
 *    visible slice as a "visit": its row, its (clipped) value and the
 *    visit of its nearest visible ancestor, hence its level in the tree.
 *    A track's slices come in depth-first order of its call forest, so the
 *    parent is the last slice read at the depth above; a path per depth
 *    gives it, and the slice table's parent column checks it, so that a
 *    producer's odd nesting (ties, overlaps, a range that leaves an
 *    ancestor out) falls back to walking the parent chain.
 * 2. For each level, the keys (parent's node, name's rank) of its visits
 *    are radix-sorted (stably, so a node's visits stay in row order); each
 *    run of equal keys is one node. The nodes of a level are thus numbered
 *    by parent, then by name: the tree in level order with siblings in
 *    name order, which is what the pre-order pool needs. A level whose
 *    keys can take few values (stacks that repeat, as real ones do) is
 *    counted in a table indexed by key instead, which numbers its nodes
 *    the same way without moving its visits.
 * 3. Self times are sums over that order, backwards; then a depth-first
 *    walk writes the pool in pre-order, reading each level front to back
 *    (a node's children are the next nodes of the level below whose
 *    parent it is).
 *
 * exclusive = inclusive − the children's inclusive, which is the self time
 * when nothing is clipped.
 */

#define G_LOG_DOMAIN "sps-flame-tree"

#include "config.h"

#include <string.h>

#include "sps-flame-tree-private.h"
#include "sps-trace-private.h"

/* The widest radix digit of the level sort: 2^12 buckets keep the lines
 * being written in the L2 cache */
#define MAX_DIGIT_BITS 12

/* Levels with fewer visits are sorted by insertion */
#define SMALL_LEVEL 64

/* A level whose keys (parent's node in the level above, name's rank) can
 * take at most this many values, and no more than it has visits, counts
 * its visits in a table indexed by key instead of sorting them: the
 * stacks of real traces repeat, so their levels have few distinct keys */
#define DIRECT_MAX_KEYS (1u << 16)

static gboolean
track_in_scope (const SpsTrackTable      *tracks,
                guint                     track,
                const SpsFlameTreeParams *params)
{
  guint8 want = params->kind == SPS_FLAME_TREE_MEASURED ? SPS_TRACK_THREAD_SLICES
                                                        : SPS_TRACK_THREAD_SAMPLED_SLICES;

  if (tracks->kind[track] != want)
    return FALSE;

  return params->thread == SPS_NO_INDEX || tracks->thread[track] == params->thread;
}

/* A visit's key within its level, above its number */
/* A visit, with its level's other visits: its key (first its parent's
 * row + 1, then (parent's node, name's rank)), value, row and name */
typedef struct
{
  guint64 key;
  SpsTime value;
  guint32 row;
  guint32 name;
} LevelItem;

/* A node in level order, before it is written to the pool */
typedef struct
{
  guint32 parent;
  guint32 name;
  guint32 instance;
  guint32 n_instances;
  gint64  inclusive;
  /* What the children subtract, then the self time */
  gint64  exclusive;
} LevelNode;

/* What the passes keep */
typedef struct
{
  SpsFlameTree             *self;
  const SpsFlameTreeParams *params;
  const SpsSliceTable      *slices;
  SpsProgress              *progress;
  GError                  **error;
  /* Per depth: the row last read there, and its row + 1 (its nearest
   * visible ancestor's when it is hidden; 0 is the root) */
  guint32                  *path_row;
  guint32                  *path_parent;
  guint                     n_path;
  guint64                   done;
  gboolean                  failed;

  /* The visits (visible slices in scope), in the order read: row and
   * the nearest visible ancestor's row + 1 (0: the root). While they
   * are read, slice_node holds each visited row's level (1: a child of
   * the root); then its node */
  guint32                  *visit_row;
  guint32                  *visit_parent;
  guint                     n_visits;
  guint                     visits_capacity;

  /* Visits per level; levels_capacity entries */
  guint32                  *level_count;
  guint                     n_levels;     /* the deepest level + 1 */
  guint                     levels_capacity;

  /* Per string id: SPS_NO_INDEX, or (once seen) the name's rank */
  guint32                  *rank_of;
  guint                     n_strings;
  GArray                   *names;        /* the names seen, then by rank */
} SpanBuild;

static void
reserve_visits (SpanBuild *b,
                guint64    n)
{
  guint capacity;

  if (n <= b->visits_capacity)
    return;

  /* Visits are rows of one table, which holds fewer than 2^31 */
  capacity = (guint) MIN (MAX (n, (guint64) b->visits_capacity * 2), (guint64) G_MAXUINT32 - 1);
  b->visit_row = g_renew (guint32, b->visit_row, capacity);
  b->visit_parent = g_renew (guint32, b->visit_parent, capacity);
  _sps_advise_huge_pages (b->visit_row, sizeof (guint32) * capacity);
  _sps_advise_huge_pages (b->visit_parent, sizeof (guint32) * capacity);
  b->visits_capacity = capacity;
}

/* The row + 1 of the nearest visited ancestor of @r, the slow way: for
 * slices the path does not explain */
static guint32
walk_to_parent (SpanBuild *b,
                guint32    r)
{
  const SpsSliceTable *slices = b->slices;
  SpsFlameTree *self = b->self;
  guint64 steps = 0;

  for (guint32 p = slices->parent[r]; p != SPS_NO_INDEX && p < slices->n_rows; p = slices->parent[p])
    {
      guint32 i = p - self->slice_node_first;

      if (p >= self->slice_node_first && i < self->n_slice_node && self->slice_node[i] != 0)
        return p + 1;
      /* A cycle cannot come from finish(), but stay finite */
      if (++steps > slices->n_rows)
        break;
    }

  return 0;
}

/* Notes slice @r as a visit */
static inline void
add_span (SpanBuild *b,
          guint32    r)
{
  SpsFlameTree *self = b->self;
  const SpsSliceTable *slices = b->slices;
  guint d = slices->depth[r];
  guint32 p = slices->parent[r];
  guint32 name = slices->name[r];
  guint32 parent;
  guint32 level;
  guint32 v;

  if (d == 0 && p == SPS_NO_INDEX)
    parent = 0;
  else if (d > 0 && d <= b->n_path && b->path_row[d - 1] == p)
    parent = b->path_parent[d - 1];
  else
    parent = walk_to_parent (b, r);

  if (b->params->slice_visible != NULL &&
      !b->params->slice_visible (self->trace, r, b->params->user_data))
    {
      if (d < b->n_path)
        {
          b->path_row[d] = r;
          b->path_parent[d] = parent;
        }
      return;
    }

  if (b->n_visits >= b->visits_capacity)
    reserve_visits (b, (guint64) b->n_visits + 1);
  v = b->n_visits++;
  /* The parent's entry is its level + 1: the child's level */
  level = parent == 0 ? 1 : self->slice_node[parent - 1 - self->slice_node_first];
  b->visit_row[v] = r;
  b->visit_parent[v] = parent;
  self->slice_node[r - self->slice_node_first] = level + 1;
  if (d < b->n_path)
    {
      b->path_row[d] = r;
      b->path_parent[d] = r + 1;
    }

  if (level >= b->levels_capacity)
    {
      guint capacity = MAX (level + 1, b->levels_capacity * 2);

      b->level_count = g_renew (guint32, b->level_count, capacity);
      memset (b->level_count + b->levels_capacity, 0, sizeof (guint32) * (capacity - b->levels_capacity));
      b->levels_capacity = capacity;
    }
  b->level_count[level]++;
  b->n_levels = MAX (b->n_levels, level + 1);

  g_assert (name < b->n_strings);
  if (b->rank_of[name] == SPS_NO_INDEX)
    {
      b->rank_of[name] = 0;
      g_array_append_val (b->names, name);
    }
}

static inline SpsTime
span_end (const SpsSliceTable *slices,
          guint32              r)
{
  SpsTime end = slices->ts[r];

  sat_add (&end, MAX (slices->dur[r], 0));
  return end;
}

/* The value of slice @r: its length, clipped to the range */
static inline SpsTime
span_value (const SpanBuild *b,
            guint32          r)
{
  SpsTime end = span_end (b->slices, r);

  if (b->params->has_range)
    return MAX (MIN (end, b->params->range_end) - MAX (b->slices->ts[r], b->params->range_start), 0);

  return end - b->slices->ts[r];
}

/* A slice that overlaps the range, as sps_trace_foreach_slice_in_range()
 * finds them (a zero-length one when its ts is inside): counted clipped */
static gboolean
add_span_in_range (SpsTrace *trace,
                   guint     r,
                   gpointer  user_data)
{
  SpanBuild *b = user_data;

  if ((++b->done % SPS_FLAME_CHECK_STRIDE) == 0 && _sps_flame_tree_check_cancelled (b->progress, b->error))
    {
      b->failed = TRUE;
      return FALSE;
    }
  add_span (b, r);
  return TRUE;
}

/* Pass 1: the visits of every track in scope */
static void
read_visits (SpanBuild *b)
{
  SpsFlameTree *self = b->self;
  SpsTrace *trace = self->trace;
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  const SpsFlameTreeParams *params = b->params;

  for (guint t = 0; t < tracks->n_rows && !b->failed; t++)
    {
      guint first;
      guint end;

      if (!track_in_scope (tracks, t, params))
        continue;

      /* A range reads only the slices that overlap it, through the block
       * index (in row order, so parents still come first) */
      if (params->has_range)
        {
          if (params->range_start < params->range_end)
            sps_trace_foreach_slice_in_range (trace, t, params->range_start, params->range_end,
                                              add_span_in_range, b);
          continue;
        }

      first = tracks->first_row[t];
      end = first + tracks->n_rows_in_track[t];
      for (guint r = first; r < end; r++)
        {
          if ((++b->done % SPS_FLAME_CHECK_STRIDE) == 0 && _sps_flame_tree_check_cancelled (b->progress, b->error))
            {
              b->failed = TRUE;
              break;
            }
          add_span (b, r);
        }
    }
}

static guint
bits_for (guint64 max_value)
{
  guint bits = 0;

  while (bits < 64 && (max_value >> bits) != 0)
    bits++;
  return bits;
}

/* Sorts @n items on the low @bits of their keys, stably (least
 * significant digit first, in as few passes of digits as wide as each
 * other as MAX_DIGIT_BITS allows, all digits counted in one read); @tmp
 * has room for @n. Returns the array that holds the result */
static LevelItem *
sort_items (LevelItem *items,
            LevelItem *tmp,
            gsize      n,
            guint      bits)
{
  guint n_passes = MAX ((bits + MAX_DIGIT_BITS - 1) / MAX_DIGIT_BITS, 1);
  guint digit_bits = (bits + n_passes - 1) / n_passes;
  guint32 n_digits = 1u << digit_bits;
  guint64 mask = n_digits - 1;
  g_autofree guint32 *counts = NULL;

  /* A small level (deep recursion makes thousands of them) would cost
   * more in clearing counters than in sorting: insertion sort, stable
   * too */
  if (n < SMALL_LEVEL)
    {
      for (gsize i = 1; i < n; i++)
        {
          LevelItem item = items[i];
          gsize j = i;

          for (; j > 0 && items[j - 1].key > item.key; j--)
            items[j] = items[j - 1];
          items[j] = item;
        }
      return items;
    }

  counts = g_new0 (guint32, (gsize) n_passes * n_digits);

  for (gsize i = 0; i < n; i++)
    for (guint d = 0; d < n_passes; d++)
      counts[d * n_digits + ((items[i].key >> (d * digit_bits)) & mask)]++;

  for (guint d = 0; d < n_passes; d++)
    {
      guint32 *count = counts + d * n_digits;
      guint shift = d * digit_bits;
      guint32 at = 0;
      LevelItem *swap;

      /* A digit that every key shares orders nothing */
      if (count[(items[0].key >> shift) & mask] == n)
        continue;

      for (guint32 k = 0; k < n_digits; k++)
        {
          guint32 c = count[k];

          count[k] = at;
          at += c;
        }
      for (gsize i = 0; i < n; i++)
        tmp[count[(items[i].key >> shift) & mask]++] = items[i];
      swap = items;
      items = tmp;
      tmp = swap;
    }

  return items;
}

/* A level's nodes by a stable sort of its @n visits on their keys
 * (@key_bits wide; @tmp has room for @n): each run of equal keys is a
 * node, from @n_nodes on, whose visits are in row order. Returns the new
 * count of nodes */
static guint32
make_level_sorted (SpanBuild *b,
                   LevelItem *items,
                   LevelItem *tmp,
                   guint32    n,
                   guint      key_bits,
                   guint      rank_bits,
                   guint32    level_base,
                   LevelNode *nodes,
                   guint32    n_nodes)
{
  SpsFlameTree *self = b->self;
  guint32 *slice_node = self->slice_node;
  guint32 first_row = self->slice_node_first;
  guint64 rank_mask = (G_GUINT64_CONSTANT (1) << rank_bits) - 1;
  const LevelItem *sorted = n > 1 ? sort_items (items, tmp, n, key_bits) : items;
  guint64 prev_key = G_MAXUINT64;
  LevelNode *node = NULL;
  SpsTime longest = 0;

  for (guint32 i = 0; i < n; i++)
    {
      const LevelItem *item = &sorted[i];

      if (item->key != prev_key)
        {
          prev_key = item->key;
          node = &nodes[n_nodes++];
          node->parent = level_base + (guint32) (prev_key >> rank_bits);
          node->name = g_array_index (b->names, guint32, prev_key & rank_mask);
          node->instance = item->row;
          node->n_instances = 0;
          node->inclusive = 0;
          node->exclusive = 0;
          longest = item->value;
        }
      else if (item->value > longest)
        {
          longest = item->value;
          node->instance = item->row;
        }
      sat_add (&node->inclusive, item->value);
      node->n_instances++;
      slice_node[item->row - first_row] = n_nodes;
    }

  return n_nodes;
}

/* A level's nodes from a table indexed by key (@slot, @key_space zeros
 * or more, left zeroed): the keys present, in order, are the level's nodes
 * from @n_nodes on, as the sort would number them; each visit, in row
 * order, then adds to its node, so that the longest is the first in row
 * order on ties, as a run of the stable sort gives. Returns the new
 * count of nodes */
static guint32
make_level_direct (SpanBuild       *b,
                   const LevelItem *items,
                   guint32          n,
                   guint32          key_space,
                   guint            rank_bits,
                   guint32          level_base,
                   LevelNode       *nodes,
                   guint32          n_nodes,
                   guint32         *slot)
{
  SpsFlameTree *self = b->self;
  guint32 *slice_node = self->slice_node;
  guint32 first_row = self->slice_node_first;
  guint32 rank_mask = (1u << rank_bits) - 1;
  guint32 first = n_nodes;

  for (guint32 i = 0; i < n; i++)
    slot[items[i].key] = 1;

  for (guint32 k = 0; k < key_space; k++)
    if (slot[k] != 0)
      {
        LevelNode *node = &nodes[n_nodes];

        node->parent = level_base + (k >> rank_bits);
        node->name = g_array_index (b->names, guint32, k & rank_mask);
        node->instance = SPS_NO_INDEX;
        node->n_instances = 0;
        node->inclusive = 0;
        node->exclusive = 0;
        slot[k] = n_nodes++;
      }

  for (guint32 i = 0; i < n; i++)
    {
      const LevelItem *item = &items[i];
      guint32 id = slot[item->key];
      LevelNode *node = &nodes[id];

      /* exclusive holds the longest value until the level is done */
      if (node->n_instances == 0 || item->value > node->exclusive)
        {
          node->exclusive = item->value;
          node->instance = item->row;
        }
      sat_add (&node->inclusive, item->value);
      node->n_instances++;
      slice_node[item->row - first_row] = id + 1;
    }

  for (guint32 id = first; id < n_nodes; id++)
    nodes[id].exclusive = 0;
  memset (slot, 0, sizeof (guint32) * key_space);

  return n_nodes;
}

/* Pass 2: the nodes, level by level, in level order. @items holds the
 * visits by level (stably), those of level l from @level_start[l], and
 * then room for the largest level, where it is sorted; @level_first
 * (n_levels + 1 entries) receives the first node of each level and the
 * end; slice_node each visited row's node. Returns the nodes, or NULL
 * when cancelled */
static LevelNode *
make_nodes (SpanBuild     *b,
            LevelItem     *all_items,
            const guint32 *level_start,
            guint32       *level_first)
{
  SpsFlameTree *self = b->self;
  guint32 *slice_node = self->slice_node;
  guint32 first_row = self->slice_node_first;
  guint rank_bits = bits_for (b->names->len > 0 ? b->names->len - 1 : 0);
  LevelItem *tmp = all_items + b->n_visits;
  g_autofree LevelNode *nodes = NULL;
  g_autofree guint32 *slot = NULL;
  guint32 n_slots = 0;
  guint32 n_nodes = 1;
  guint32 level_base = 0;   /* the first node of the level above */
  guint32 n_above = 1;      /* its nodes; level 0 is the root */

  /* At most one node per visit, and the root */
  nodes = _sps_alloc_large (sizeof (LevelNode) * ((gsize) b->n_visits + 1));
  nodes[0].parent = SPS_NO_INDEX;
  nodes[0].name = 0;
  nodes[0].instance = SPS_NO_INDEX;
  nodes[0].n_instances = 0;
  nodes[0].inclusive = 0;
  nodes[0].exclusive = 0;
  level_first[0] = 0;
  level_first[1] = 1;

  for (guint l = 1; l < b->n_levels; l++)
    {
      LevelItem *items = all_items + level_start[l];
      guint32 n = b->level_count[l];
      guint key_bits = bits_for (n_above - 1) + rank_bits;
      guint32 first = n_nodes;
      guint64 key_space = (guint64) n_above << rank_bits;

      if (_sps_flame_tree_check_cancelled (b->progress, b->error))
        return NULL;

      /* In visit order, the parents go forwards */
      for (guint32 i = 0; i < n; i++)
        {
          guint32 parent = (guint32) items[i].key;
          guint32 above = parent == 0 ? 0 : slice_node[parent - 1 - first_row] - 1 - level_base;

          items[i].key = ((guint64) above << rank_bits) | b->rank_of[items[i].name];
        }

      if (n >= SMALL_LEVEL && key_space <= MIN ((guint64) n, DIRECT_MAX_KEYS))
        {
          /* As large as the largest level needs: a small range's tree
           * clears little */
          if (key_space > n_slots)
            {
              g_free (slot);
              n_slots = (guint32) key_space;
              slot = g_new0 (guint32, n_slots);
            }
          n_nodes = make_level_direct (b, items, n, (guint32) key_space, rank_bits, level_base,
                                       nodes, n_nodes, slot);
        }
      else
        n_nodes = make_level_sorted (b, items, tmp, n, key_bits, rank_bits, level_base, nodes, n_nodes);

      level_base = first;
      n_above = n_nodes - first;
      level_first[l + 1] = n_nodes;
    }

  return g_steal_pointer (&nodes);
}

/* Self times and the root's total, children before parents (backwards in
 * level order); each node's exclusive starts as what its children
 * subtracted */
static void
sum_spans (LevelNode *nodes,
           guint32    n)
{
  for (guint32 i = n; i-- > 1;)
    {
      LevelNode *node = &nodes[i];

      sat_add (&node->exclusive, node->inclusive);
      /* Clipping keeps children inside their parents, but guard against
       * producers that do not */
      if (node->exclusive < 0)
        node->exclusive = 0;
      if (node->parent == 0)
        sat_add (&nodes[0].inclusive, node->inclusive);
      else
        sat_sub (&nodes[node->parent].exclusive, node->inclusive);
    }
  nodes[0].exclusive = 0;
}

/* Pass 3: the pool in pre-order from the @n nodes in level order, where
 * a node's children are consecutive and in name order, into @nodes.
 * @level_first holds the first node of each of the @n_levels levels, and
 * the end. A depth-first walk meets each level's nodes in level order,
 * so it reads every level front to back and writes the pool front to
 * back */
static void
write_pool (SpsFlameTree    *self,
            const LevelNode *from,
            guint32          n,
            const guint32   *level_first,
            guint            n_levels,
            SpsFlameNode    *nodes)
{
  guint32 *place = _sps_alloc_large (sizeof (guint32) * n);
  g_autofree guint32 *next = g_memdup2 (level_first, sizeof (guint32) * (n_levels + 1));
  /* Per depth on the walk: the node (level order) and its place, and the
   * place of the last child written below it */
  g_autofree guint32 *open = g_new (guint32, n_levels);
  g_autofree guint32 *open_place = g_new (guint32, n_levels);
  g_autofree guint32 *last_child = g_new (guint32, n_levels + 1);
  SpsFlameFunctionSums sums;
  guint32 at = 1;
  guint d = 0;

  /* The function sums are made on the walk too, while each node is at
   * hand, instead of reading the pool again */
  _sps_flame_function_sums_init (&sums, self, n);

  /* Span trees have no CPU estimates: those stay 0 */
  nodes[0] = (SpsFlameNode) {
    .parent = SPS_NO_INDEX, .first_child = SPS_NO_INDEX, .next_sibling = SPS_NO_INDEX,
    .inclusive = from[0].inclusive, .exclusive = from[0].exclusive, .instance = SPS_NO_INDEX,
  };
  place[0] = 0;
  next[0] = 1;
  open[0] = 0;
  open_place[0] = 0;
  last_child[1] = SPS_NO_INDEX;

  for (;;)
    {
      guint32 c = d + 1 < n_levels ? next[d + 1] : SPS_NO_INDEX;

      /* The open node's subtree is done: back to its parent */
      if (c == SPS_NO_INDEX || c >= level_first[d + 2] || from[c].parent != open[d])
        {
          if (d == 0)
            break;
          d--;
          continue;
        }

      next[d + 1]++;
      if (last_child[d + 1] == SPS_NO_INDEX)
        nodes[open_place[d]].first_child = at;
      else
        nodes[last_child[d + 1]].next_sibling = at;
      last_child[d + 1] = at;
      nodes[at] = (SpsFlameNode) {
        .parent = open_place[d], .first_child = SPS_NO_INDEX, .next_sibling = SPS_NO_INDEX,
        .name = from[c].name, .depth = d + 1,
        .inclusive = from[c].inclusive, .exclusive = from[c].exclusive,
        .n_instances = from[c].n_instances, .instance = from[c].instance,
      };
      place[c] = at;
      _sps_flame_function_sums_add (&sums, &nodes[at], d + 1);

      d++;
      open[d] = c;
      open_place[d] = at;
      if (d + 1 <= n_levels)
        last_child[d + 1] = SPS_NO_INDEX;
      at++;
    }

  g_assert (at == n);
  /* Shrinking keeps the pool where it is */
  self->nodes = g_realloc (nodes, sizeof (SpsFlameNode) * n);
  self->n_nodes = n;
  self->node_of_build = place;
  self->functions = _sps_flame_function_sums_finish (&sums);
}

static void
span_build_clear (SpanBuild *b)
{
  g_free (b->path_row);
  g_free (b->path_parent);
  g_free (b->visit_row);
  g_free (b->visit_parent);
  g_free (b->level_count);
  g_free (b->rank_of);
  g_clear_pointer (&b->names, g_array_unref);
}

/* Builds a span tree to its finished pool, functions and slice map */
gboolean
_sps_flame_tree_build_spans (SpsFlameTree              *self,
                             const SpsFlameTreeParams  *params,
                             SpsProgress               *progress,
                             GError                   **error)
{
  SpsTrace *trace = self->trace;
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  SpsStringPool *strings = sps_trace_get_strings (trace);
  SpanBuild b = { 0 };
  g_autofree guint32 *level_start = NULL;
  gpointer block;
  LevelItem *items;
  g_autofree guint32 *level_first = NULL;
  g_autofree LevelNode *nodes = NULL;
  guint64 n_rows = 0;
  guint row_lo = G_MAXUINT;
  guint row_hi = 0;
  guint n_levels;

  b.self = self;
  b.params = params;
  b.slices = sps_trace_get_slices (trace);
  b.progress = progress;
  b.error = error;

  for (guint t = 0; t < tracks->n_rows; t++)
    {
      if (track_in_scope (tracks, t, params) && tracks->n_rows_in_track[t] > 0)
        {
          n_rows += tracks->n_rows_in_track[t];
          b.n_path = MAX (b.n_path, tracks->max_depth[t]);
          row_lo = MIN (row_lo, tracks->first_row[t]);
          row_hi = MAX (row_hi, tracks->first_row[t] + tracks->n_rows_in_track[t]);
        }
    }
  if (row_lo > row_hi)
    row_lo = row_hi = 0;

  /* Slice row slice_node_first + i → its level + 1 while reading, its
   * node in level order + 1 after; 0 when not in the tree. The rows of
   * the tracks in scope, zeroed as the allocator gives a large block: in
   * a mapping of its own (sps_setup_allocator()), whose pages the kernel
   * zeroes when first touched, so that a range's tree touches the pages
   * of its slices' rows only, not every row of the tracks in scope. A
   * tree without a range touches every page: huge ones, fewer faults */
  self->slice_node_first = row_lo;
  self->n_slice_node = row_hi - row_lo;
  self->slice_node = g_new0 (guint32, MAX (self->n_slice_node, 1));
  if (!params->has_range)
    _sps_advise_huge_pages (self->slice_node, sizeof (guint32) * MAX (self->n_slice_node, 1));

  /* Not cleared between tracks: an entry is used only when its row is
   * the slice's parent, and then it is that parent's, whichever track
   * left it there (clearing would cost tracks × depth) */
  b.path_row = g_new (guint32, MAX (b.n_path, 1));
  b.path_parent = g_new0 (guint32, MAX (b.n_path, 1));
  memset (b.path_row, 0xff, sizeof (guint32) * MAX (b.n_path, 1));

  b.n_strings = sps_string_pool_get_size (strings);
  b.rank_of = g_new (guint32, MAX (b.n_strings, 1));
  memset (b.rank_of, 0xff, sizeof (guint32) * MAX (b.n_strings, 1));
  b.names = g_array_new (FALSE, FALSE, sizeof (guint32));

  /* Every row in scope when there is no range; a range grows them as it
   * finds its slices, so that it costs what its slices cost */
  reserve_visits (&b, params->has_range ? 1024 : MAX (n_rows, 1));

  read_visits (&b);
  if (b.failed)
    {
      span_build_clear (&b);
      return FALSE;
    }

  g_array_sort_with_data (b.names, _sps_flame_tree_compare_names, strings);
  for (guint k = 0; k < b.names->len; k++)
    b.rank_of[g_array_index (b.names, guint32, k)] = k;

  /* The visits by level, stably (the levels are in slice_node), with
   * what the level pass needs: read here in row order, rather than
   * level after level across the columns */
  n_levels = MAX (b.n_levels, 1);
  level_start = g_new0 (guint32, n_levels + 1);
  for (guint l = 1; l < b.n_levels; l++)
    level_start[l + 1] = level_start[l] + b.level_count[l];
  /* The items, then room to sort the largest level; then, once they are
   * done with, the pool: its pages are zeroed by the kernel once, not
   * once for each. No level holds more than every visit */
  block = _sps_alloc_large (MAX (sizeof (LevelItem) * 2 * ((gsize) b.n_visits + 1),
                                 sizeof (SpsFlameNode) * ((gsize) b.n_visits + 1)));
  items = block;
  {
    g_autofree guint32 *fill = g_memdup2 (level_start, sizeof (guint32) * (n_levels + 1));

    for (guint v = 0; v < b.n_visits; v++)
      {
        guint32 row = b.visit_row[v];
        LevelItem *item = &items[fill[self->slice_node[row - self->slice_node_first] - 1]++];

        item->key = b.visit_parent[v];
        item->value = span_value (&b, row);
        item->row = row;
        item->name = b.slices->name[row];
      }
  }
  g_clear_pointer (&b.visit_row, g_free);
  g_clear_pointer (&b.visit_parent, g_free);

  level_first = g_new (guint32, n_levels + 1);
  nodes = make_nodes (&b, items, level_start, level_first);
  span_build_clear (&b);
  if (nodes == NULL)
    {
      g_free (block);
      return FALSE;
    }

  sum_spans (nodes, level_first[n_levels]);
  write_pool (self, nodes, level_first[n_levels], level_first, n_levels, block);

  return TRUE;
}
