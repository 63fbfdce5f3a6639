/* sps-flame-tree.h: call trees for flame graphs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_CORE_INSIDE) && !defined (SPANSCOPE_CORE_COMPILATION)
# error "Only <spanscope-core.h> can be included directly."
#endif

#include <gio/gio.h>

#include "sps-progress.h"
#include "sps-trace.h"
#include "sps-types.h"

G_BEGIN_DECLS

/**
 * SpsFlameTreeKind:
 * @SPS_FLAME_TREE_MEASURED: measured slices (X, B/E) of thread slice
 *   tracks; values are nanoseconds: inclusive is the (clipped) duration,
 *   exclusive the self time
 * @SPS_FLAME_TREE_SAMPLES: stack samples (P records); values are sample
 *   counts, with CPU estimates from the weights that have a time unit
 * @SPS_FLAME_TREE_SAMPLED: sampled spans (category token `sampleEvent`);
 *   values are nanoseconds, but they are estimates of CPU time and no
 *   sample count is known
 *
 * The three separate trees a thread can have.
 */
typedef enum
{
  SPS_FLAME_TREE_MEASURED,
  SPS_FLAME_TREE_SAMPLES,
  SPS_FLAME_TREE_SAMPLED,
} SpsFlameTreeKind;

/**
 * SpsFlameSliceFunc:
 * @trace: the trace
 * @slice: a row of the slice table
 * @user_data: the params' user data
 *
 * Returns: %TRUE when @slice takes part in the tree. A hidden slice's
 *   time counts as its parent's self time and its visible descendants hang
 *   below its nearest visible ancestor.
 */
typedef gboolean (*SpsFlameSliceFunc)  (SpsTrace *trace,
                                        guint     slice,
                                        gpointer  user_data);

/**
 * SpsFlameSampleFunc:
 * @trace: the trace
 * @sample: a row of the sample table in use
 * @user_data: the params' user data
 *
 * Returns: %TRUE when @sample takes part in the tree
 */
typedef gboolean (*SpsFlameSampleFunc) (SpsTrace *trace,
                                        guint     sample,
                                        gpointer  user_data);

/**
 * SpsFlameTreeParams:
 * @kind: which tree
 * @thread: a row of the thread table, or %SPS_NO_INDEX for all threads
 *   merged
 * @has_range: whether @range_start and @range_end apply
 * @range_start: with @has_range, the first nanosecond of the range
 * @range_end: with @has_range, the end of the range (excluded). Samples
 *   count when their timestamp is in [start, end); span intervals are
 *   clipped to the range
 * @slice_visible: (nullable): which slices take part (e.g. the session's
 *   filters); %NULL for all. Called on the building thread
 * @sample_visible: (nullable): which samples take part; %NULL for all
 * @user_data: data for the two predicates; must stay valid until the build
 *   returns
 * @samples: (nullable): a sample table to use instead of the trace's (for
 *   instance stacks repaired by an importer); %NULL for the trace's
 * @callsites: (nullable): the callsite table @samples refers to; %NULL for
 *   the trace's. Frames and strings are always the trace's
 *
 * What to build. Initialise it with sps_flame_tree_params_init() so that
 * fields added later get their defaults.
 */
typedef struct
{
  SpsFlameTreeKind        kind;
  guint32                 thread;
  gboolean                has_range;
  SpsTime                 range_start;
  SpsTime                 range_end;
  SpsFlameSliceFunc       slice_visible;
  SpsFlameSampleFunc      sample_visible;
  gpointer                user_data;
  const SpsSampleTable   *samples;
  const SpsCallsiteTable *callsites;

  /*< private >*/
  gpointer                padding[8];
} SpsFlameTreeParams;

/**
 * SpsFlameNode:
 * @parent: the parent node, %SPS_NO_INDEX for the root (node 0)
 * @first_child: the first child, %SPS_NO_INDEX for a leaf
 * @next_sibling: the next child of the same parent, %SPS_NO_INDEX for the
 *   last one. Siblings are in byte order of their names
 * @name: the frame name, a string id of the trace; the root's is 0
 * @depth: 0 for the root, 1 for the outermost frames
 * @inclusive: nanoseconds (measured, sampled) or sample count (samples) of
 *   this stack position and everything below it
 * @exclusive: the same without the children
 * @n_instances: observations that end at this position: slices (measured,
 *   sampled) or samples
 * @instance: the longest slice of the node (first in row order on ties),
 *   or its first sample (a row of the sample table in use); %SPS_NO_INDEX
 *   for the root
 * @cpu_inclusive: samples tree: estimated CPU time in ns of the samples
 *   below that carry a time weight; 0 otherwise
 * @cpu_exclusive: the same for the samples that end here
 * @n_estimated_inclusive: samples tree: how many samples counted in
 *   @inclusive carry a time weight (the time-weight coverage is this
 *   divided by @inclusive)
 * @n_estimated_exclusive: the same for @exclusive
 *
 * One stack position of a flame tree. Recursive frames stay separate
 * positions: `a;a` is a child of `a`. The pool is in depth-first
 * pre-order with siblings in byte order of their names: a node's subtree
 * is the range of nodes that follows it, and node numbers are the same
 * for the same input.
 */
typedef struct
{
  guint32 parent;
  guint32 first_child;
  guint32 next_sibling;
  guint32 name;
  guint32 depth;
  gint64  inclusive;
  gint64  exclusive;
  guint64 n_instances;
  guint32 instance;
  double  cpu_inclusive;
  double  cpu_exclusive;
  guint64 n_estimated_inclusive;
  guint64 n_estimated_exclusive;
} SpsFlameNode;

/**
 * SpsFlameFunction:
 * @name: the function's name (a string id of the trace)
 * @n_observations: samples (samples tree) or slices (span trees) whose
 *   stack holds the function; a recursive function counts once per
 *   observation
 * @inclusive: nanoseconds or samples below the function, recursion counted
 *   once (only its outermost positions)
 * @exclusive: nanoseconds or samples in the function itself
 * @cpu_inclusive: samples tree: estimated CPU ns, recursion counted once
 * @cpu_exclusive: samples tree: estimated CPU ns of the samples ending in
 *   the function
 *
 * What a function name adds up to over the whole tree.
 */
typedef struct
{
  guint32 name;
  guint64 n_observations;
  gint64  inclusive;
  gint64  exclusive;
  double  cpu_inclusive;
  double  cpu_exclusive;
} SpsFlameFunction;

#define SPS_TYPE_FLAME_TREE (sps_flame_tree_get_type ())

typedef struct _SpsFlameTree SpsFlameTree;

SPS_AVAILABLE_IN_ALL
GType                   sps_flame_tree_get_type            (void) G_GNUC_CONST;
SPS_AVAILABLE_IN_ALL
void                    sps_flame_tree_params_init         (SpsFlameTreeParams       *params,
                                                            SpsFlameTreeKind          kind);
SPS_AVAILABLE_IN_ALL
gboolean                sps_flame_tree_kind_from_string    (const char               *name,
                                                            SpsFlameTreeKind         *kind);
SPS_AVAILABLE_IN_ALL
const char             *sps_flame_tree_kind_to_string      (SpsFlameTreeKind          kind);
SPS_AVAILABLE_IN_ALL
gboolean                sps_flame_tree_trace_has_kind      (SpsTrace                 *trace,
                                                            SpsFlameTreeKind          kind);
SPS_AVAILABLE_IN_ALL
SpsFlameTreeKind        sps_flame_tree_get_default_kind    (SpsTrace                 *trace);
SPS_AVAILABLE_IN_ALL
SpsFlameTree           *sps_flame_tree_build               (SpsTrace                 *trace,
                                                            const SpsFlameTreeParams *params,
                                                            SpsProgress              *progress,
                                                            GError                  **error);
SPS_AVAILABLE_IN_ALL
void                    sps_flame_tree_build_async         (SpsTrace                 *trace,
                                                            const SpsFlameTreeParams *params,
                                                            SpsProgress              *progress,
                                                            GCancellable             *cancellable,
                                                            GAsyncReadyCallback       callback,
                                                            gpointer                  user_data);
SPS_AVAILABLE_IN_ALL
SpsFlameTree           *sps_flame_tree_build_finish        (GAsyncResult             *result,
                                                            GError                  **error);
SPS_AVAILABLE_IN_ALL
SpsFlameTree           *sps_flame_tree_ref                 (SpsFlameTree             *self);
SPS_AVAILABLE_IN_ALL
void                    sps_flame_tree_unref               (SpsFlameTree             *self);
SPS_AVAILABLE_IN_ALL
SpsTrace               *sps_flame_tree_get_trace           (SpsFlameTree             *self);
SPS_AVAILABLE_IN_ALL
SpsFlameTreeKind        sps_flame_tree_get_kind            (SpsFlameTree             *self);
SPS_AVAILABLE_IN_ALL
gboolean                sps_flame_tree_get_values_are_estimates (SpsFlameTree        *self);
SPS_AVAILABLE_IN_ALL
const SpsFlameNode     *sps_flame_tree_get_nodes           (SpsFlameTree             *self,
                                                            guint                    *n_nodes);
SPS_AVAILABLE_IN_ALL
const SpsFlameNode     *sps_flame_tree_get_node            (SpsFlameTree             *self,
                                                            guint                     node);
SPS_AVAILABLE_IN_ALL
guint                   sps_flame_tree_find_child          (SpsFlameTree             *self,
                                                            guint                     node,
                                                            guint32                   name);
SPS_AVAILABLE_IN_ALL
guint                   sps_flame_tree_get_slice_node      (SpsFlameTree             *self,
                                                            guint                     slice);
SPS_AVAILABLE_IN_ALL
const SpsFlameFunction *sps_flame_tree_get_functions       (SpsFlameTree             *self,
                                                            guint                    *n_functions);
SPS_AVAILABLE_IN_ALL
const SpsFlameFunction *sps_flame_tree_lookup_function     (SpsFlameTree             *self,
                                                            guint32                   name);
SPS_AVAILABLE_IN_ALL
char                   *sps_flame_tree_dup_path            (SpsFlameTree             *self,
                                                            guint                     node,
                                                            const char               *separator);
SPS_AVAILABLE_IN_ALL
double                  sps_flame_tree_sample_estimate_ns  (const SpsSampleTable     *samples,
                                                            guint                     row);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpsFlameTree, sps_flame_tree_unref)

G_END_DECLS
