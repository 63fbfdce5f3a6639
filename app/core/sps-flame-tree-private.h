/* sps-flame-tree-private.h: what the parts of SpsFlameTree share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "sps-flame-tree.h"

G_BEGIN_DECLS

/* Rows between two cancellation checks. */
#define SPS_FLAME_CHECK_STRIDE 65536

/* A node while the samples tree is built: only what every observation
 * touches (an SpsFlameNode is 88 bytes). Nodes are numbered in creation
 * order, a parent before its children; the finished pool is written from
 * these in pre-order. */
typedef struct
{
  guint32 parent;
  guint32 name;
  /* The children, newest first, through next_sibling; or
   * SPS_FLAME_INDEXED once there are many: they are then found through
   * the (parent, name) index */
  guint32 first_child;
  guint32 next_sibling;
  guint32 instance;
  guint32 n_instances;
  gint64  inclusive;
  /* Span trees: the longest instance's value while reading the slices,
   * then the self time. Samples tree: the sample count ending here */
  gint64  exclusive;
} SpsFlameBuildNode;

/* first_child of a node whose children are in the index */
#define SPS_FLAME_INDEXED (SPS_NO_INDEX - 1)

/* Children a node keeps in its list before they move to the index: a
 * short list costs a few reads, where the index costs a cache miss per
 * lookup once it outgrows the cache */
#define SPS_FLAME_LIST_MAX 8

/* Samples tree only, per build node */
typedef struct
{
  double  cpu_inclusive;
  double  cpu_exclusive;
  guint64 n_estimated_inclusive;
  guint64 n_estimated_exclusive;
} SpsFlameSampleExtra;

/* (parent, name) → build node, open addressing; the slot keeps the
 * hash, so that probing past other keys and growing read no node */
typedef struct
{
  guint32 hash;
  guint32 node_plus_one;  /* 0: empty */
} SpsFlameIndexSlot;

/* The tree; its doc comment is at its type, in sps-flame-tree.c */
struct _SpsFlameTree
{
  gatomicrefcount   ref_count;
  SpsTrace         *trace;
  SpsFlameTreeKind  kind;

  /* The finished pool, in pre-order */
  SpsFlameNode     *nodes;
  guint             n_nodes;

  /* While building */
  SpsFlameBuildNode   *build;
  SpsFlameSampleExtra *extra;     /* samples tree only */
  guint                n_build;
  guint                build_capacity;
  SpsFlameIndexSlot   *index;      /* the children of crowded nodes */
  guint                index_size; /* a power of two */
  guint                n_indexed;

  /* Span trees: slice row slice_node_first + i → node slice_node[i] - 1
   * in level order, 0 when not in the tree; the rows of the tracks in
   * scope, in pages the kernel zeroes when first touched, so that a
   * thread's or a range's tree does not clear a whole trace's.
   * node_of_build maps a node in level order to its node in the pool
   * (the samples tree: a build node) */
  guint32          *slice_node;
  guint32          *node_of_build;
  guint             slice_node_first;
  guint             n_slice_node;

  GArray           *functions;    /* SpsFlameFunction, sorted by name id */
};

/* Times near the ends of gint64 (a producer's garbage, or an end of
 * time) must not overflow the sums: they saturate. */
static inline void
sat_add (gint64 *acc,
         gint64  v)
{
  if (__builtin_add_overflow (*acc, v, acc))
    *acc = v < 0 ? G_MININT64 : G_MAXINT64;
}

static inline void
sat_sub (gint64 *acc,
         gint64  v)
{
  if (__builtin_sub_overflow (*acc, v, acc))
    *acc = v > 0 ? G_MININT64 : G_MAXINT64;
}

static inline guint32
_sps_flame_index_hash (guint32 parent,
                       guint32 name)
{
  guint64 key = ((guint64) parent << 32) | name;

  key ^= key >> 33;
  key *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  key ^= key >> 33;

  return (guint32) key;
}

guint32  _sps_flame_tree_add_child        (SpsFlameTree             *self,
                                           guint32                   parent,
                                           guint32                   name,
                                           guint                     n_children);
guint32  _sps_flame_tree_add_indexed      (SpsFlameTree             *self,
                                           guint32                   parent,
                                           guint32                   name,
                                           guint32                   hash);

/* The child of @parent named @name, created when missing: from the
 * parent's list while it is short, else through the index */
static inline guint32
_sps_flame_tree_child (SpsFlameTree *self,
                       guint32       parent,
                       guint32       name)
{
  const SpsFlameBuildNode *build = self->build;
  guint32 c = build[parent].first_child;
  guint32 hash;
  guint mask;
  guint n = 0;

  if (c != SPS_FLAME_INDEXED)
    {
      for (; c != SPS_NO_INDEX; c = build[c].next_sibling, n++)
        {
          if (build[c].name == name)
            return c;
        }

      return _sps_flame_tree_add_child (self, parent, name, n);
    }

  hash = _sps_flame_index_hash (parent, name);
  mask = self->index_size - 1;
  for (guint slot = hash & mask; self->index[slot].node_plus_one != 0; slot = (slot + 1) & mask)
    {
      if (self->index[slot].hash == hash)
        {
          guint32 node = self->index[slot].node_plus_one - 1;

          if (build[node].parent == parent && build[node].name == name)
            return node;
        }
    }

  return _sps_flame_tree_add_indexed (self, parent, name, hash);
}

/* Per-function sums, over the pool in pre-order. A
 * node is "outermost" for its name when no ancestor has the same name:
 * only those count inclusive values and observations, so recursion is
 * counted once. @on_path counts each name on the current path, which
 * @path_name holds per depth. */
typedef struct
{
  GArray  *functions;    /* SpsFlameFunction, in order of first use */
  guint32 *function_of;  /* per string id; SPS_NO_INDEX when unused */
  guint32 *on_path;      /* per string id */
  guint32 *path_name;    /* per depth, 1 up to path_len */
  guint    path_len;
  guint    n_strings;
  gboolean samples;
} SpsFlameFunctionSums;

void     _sps_flame_function_sums_init    (SpsFlameFunctionSums     *sums,
                                           SpsFlameTree             *self,
                                           guint                     n_nodes);
GArray  *_sps_flame_function_sums_finish  (SpsFlameFunctionSums     *sums);

/* Counts @n, at @depth (at least 1), whose ancestors are the nodes
 * counted last at depths 1 up to @depth − 1 */
static inline void
_sps_flame_function_sums_add (SpsFlameFunctionSums *sums,
                              const SpsFlameNode   *n,
                              guint                 depth)
{
  SpsFlameFunction *f;

  /* Leave the subtrees that ended before this node */
  for (; sums->path_len >= depth; sums->path_len--)
    sums->on_path[sums->path_name[sums->path_len]]--;

  g_assert (n->name < sums->n_strings);
  if (sums->function_of[n->name] == SPS_NO_INDEX)
    {
      SpsFlameFunction fresh = { 0 };

      fresh.name = n->name;
      sums->function_of[n->name] = sums->functions->len;
      g_array_append_val (sums->functions, fresh);
    }
  f = &g_array_index (sums->functions, SpsFlameFunction, sums->function_of[n->name]);
  sat_add (&f->exclusive, n->exclusive);
  f->cpu_exclusive += n->cpu_exclusive;
  if (sums->on_path[n->name] == 0)
    {
      sat_add (&f->inclusive, n->inclusive);
      f->cpu_inclusive += n->cpu_inclusive;
      f->n_observations += sums->samples ? (guint64) n->inclusive : n->n_instances;
    }

  sums->on_path[n->name]++;
  sums->path_name[depth] = n->name;
  sums->path_len = depth;
}

gboolean _sps_flame_tree_check_cancelled  (SpsProgress              *progress,
                                           GError                  **error);
gboolean _sps_flame_tree_build_spans      (SpsFlameTree             *self,
                                           const SpsFlameTreeParams *params,
                                           SpsProgress              *progress,
                                           GError                  **error);
void     _sps_flame_tree_finish_nodes     (SpsFlameTree             *self);
void     _sps_flame_tree_sum_functions    (SpsFlameTree             *self);
int      _sps_flame_tree_compare_names    (gconstpointer            a,
                                           gconstpointer            b,
                                           gpointer                 user_data);
int      _sps_flame_tree_compare_functions (gconstpointer            a,
                                            gconstpointer            b);

G_END_DECLS
