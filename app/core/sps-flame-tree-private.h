/* sps-flame-tree-private.h: what the parts of SpsFlameTree share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "sps-flame-tree.h"

G_BEGIN_DECLS

/* Rows between two cancellation checks. */
#define SPS_FLAME_CHECK_STRIDE 65536

/* A node while the tree is built: only what every observation touches,
 * two to a cache line (an SpsFlameNode is 88 bytes). Nodes are numbered
 * in creation order, a parent before its children; the finished pool is
 * written from these in pre-order. */
typedef struct
{
  guint32 parent;
  guint32 name;
  guint32 instance;
  guint32 n_instances;
  gint64  inclusive;
  /* Span trees: the longest instance's value while reading the slices,
   * then the self time. Samples tree: the sample count ending here */
  gint64  exclusive;
} SpsFlameBuildNode;

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
  SpsFlameIndexSlot   *index;
  guint                index_size; /* a power of two */

  /* Span trees: slice row slice_node_first + i → node slice_node[i],
   * SPS_NO_INDEX when not in the tree; the rows of the tracks in scope,
   * so that a thread's tree does not clear and remap a whole trace's */
  guint32          *slice_node;
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

void     _sps_flame_tree_reserve          (SpsFlameTree             *self,
                                           guint64                   n_nodes);
guint32  _sps_flame_tree_add_node         (SpsFlameTree             *self,
                                           guint32                   parent,
                                           guint32                   name,
                                           guint32                   hash);

/* The child of @parent named @name, created when missing. */
static inline guint32
_sps_flame_tree_child (SpsFlameTree *self,
                       guint32       parent,
                       guint32       name)
{
  guint32 hash = _sps_flame_index_hash (parent, name);
  guint mask = self->index_size - 1;

  for (guint slot = hash & mask; self->index[slot].node_plus_one != 0; slot = (slot + 1) & mask)
    {
      if (self->index[slot].hash == hash)
        {
          guint32 node = self->index[slot].node_plus_one - 1;

          if (self->build[node].parent == parent && self->build[node].name == name)
            return node;
        }
    }

  return _sps_flame_tree_add_node (self, parent, name, hash);
}

gboolean _sps_flame_tree_check_cancelled  (SpsProgress              *progress,
                                           GError                  **error);
gboolean _sps_flame_tree_build_spans      (SpsFlameTree             *self,
                                           const SpsFlameTreeParams *params,
                                           SpsProgress              *progress,
                                           GError                  **error);
void     _sps_flame_tree_finish_nodes     (SpsFlameTree             *self);
void     _sps_flame_tree_build_functions  (SpsFlameTree             *self);
int      _sps_flame_tree_compare_functions (gconstpointer            a,
                                            gconstpointer            b);

G_END_DECLS
