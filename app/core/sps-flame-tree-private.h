/* sps-flame-tree-private.h: what the parts of SpsFlameTree share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "sps-flame-tree.h"

G_BEGIN_DECLS

typedef struct
{
  guint32 parent;
  guint32 name;
  guint32 node_plus_one;  /* 0: empty */
} SpsFlameIndexSlot;

/* The tree; its doc comment is at its type, in sps-flame-tree.c */
struct _SpsFlameTree
{
  gatomicrefcount   ref_count;
  SpsTrace         *trace;
  SpsFlameTreeKind  kind;

  GArray           *nodes;        /* SpsFlameNode */

  /* (parent, name) → node, open addressing; the key is in the slot, so
   * a lookup reads one slot, not the node it names */
  SpsFlameIndexSlot *index;
  guint             index_size;   /* a power of two */

  /* Span trees: slice row → node, SPS_NO_INDEX when not in the tree */
  guint32          *slice_node;
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

void _sps_flame_tree_link_children     (SpsFlameTree  *self);
void _sps_flame_tree_build_functions   (SpsFlameTree  *self);
int  _sps_flame_tree_compare_functions (gconstpointer  a,
                                        gconstpointer  b);

G_END_DECLS
