/* sps-outstanding-tree.h: what is outstanding at a time, per function
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_CORE_INSIDE) && !defined (SPANSCOPE_CORE_COMPILATION)
# error "Only <spanscope-core.h> can be included directly."
#endif

#include <glib-object.h>

#include "sps-trace.h"
#include "sps-types.h"
#include "sps-version-macros.h"

G_BEGIN_DECLS

/**
 * SpsUncertainReason:
 * @SPS_UNCERTAIN_GC_BOUNDS: an exact allocation reported dead at a
 *   garbage collection, asked about between the collection before (or its
 *   birth) and that one: it may or may not have died yet
 * @SPS_UNCERTAIN_GAP: events were lost (or the capture stopped) after its
 *   birth, before anything reported it dead
 * @SPS_UNCERTAIN_SAMPLED: a sampled allocation (one event standing for
 *   many allocations)
 * @SPS_UNCERTAIN_UNKNOWN_BIRTH: seen only after its birth
 * @SPS_UNCERTAIN_UNKNOWN_DEATH: nothing could report its end
 * @SPS_N_UNCERTAIN_REASONS: the number of reasons
 *
 * Why an allocation counts as uncertain at a time.
 */
typedef enum
{
  SPS_UNCERTAIN_GC_BOUNDS,
  SPS_UNCERTAIN_GAP,
  SPS_UNCERTAIN_SAMPLED,
  SPS_UNCERTAIN_UNKNOWN_BIRTH,
  SPS_UNCERTAIN_UNKNOWN_DEATH,
  SPS_N_UNCERTAIN_REASONS,
} SpsUncertainReason;

/**
 * SpsCountBytes:
 * @count: allocations
 * @bytes: their bytes (those of unknown size count 0)
 *
 * A number of allocations and their bytes.
 */
typedef struct
{
  guint64 count;
  guint64 bytes;
} SpsCountBytes;

/**
 * SpsOutstandingFunction:
 * @name: the function's name (a frame name's string id), 0 for the
 *   allocations recorded without a stack
 * @inclusive: known outstanding allocations whose stack contains the
 *   function (each allocation once, however often the function recurs)
 * @exclusive: known outstanding allocations made by the function itself
 *   (it is the stack's leaf)
 * @inclusive_uncertain: as @inclusive, for the uncertain ones
 * @exclusive_uncertain: as @exclusive, for the uncertain ones
 * @uncertain: @inclusive_uncertain's allocations by #SpsUncertainReason
 * @gc_after: of the %SPS_UNCERTAIN_GC_BOUNDS ones, the earliest time
 *   before which they were surely alive
 * @gc_by: and the latest time by which they were surely dead
 *
 * One function's row of an #SpsOutstandingTree.
 */
typedef struct
{
  guint32       name;
  SpsCountBytes inclusive;
  SpsCountBytes exclusive;
  SpsCountBytes inclusive_uncertain;
  SpsCountBytes exclusive_uncertain;
  guint64       uncertain[SPS_N_UNCERTAIN_REASONS];
  SpsTime       gc_after;
  SpsTime       gc_by;
} SpsOutstandingFunction;

/**
 * SpsOutstandingPath:
 * @callsite: a callsite (a node of the trace's prefix tree of stacks)
 * @parent: the index of its parent in the same array, %SPS_NO_INDEX for
 *   a root
 * @depth: 0 for a root
 * @known: known outstanding allocations whose stack goes through
 *   @callsite
 * @uncertain: the uncertain ones
 *
 * A node of a function's allocation paths
 * (sps_outstanding_tree_dup_paths()).
 */
typedef struct
{
  guint32       callsite;
  guint32       parent;
  guint32       depth;
  SpsCountBytes known;
  SpsCountBytes uncertain;
} SpsOutstandingPath;

#define SPS_TYPE_OUTSTANDING_TREE (sps_outstanding_tree_get_type ())

SPS_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (SpsOutstandingTree, sps_outstanding_tree, SPS, OUTSTANDING_TREE, GObject)

SPS_AVAILABLE_IN_ALL
SpsOutstandingTree *sps_outstanding_tree_new           (SpsTrace           *trace,
                                                        SpsTime             time,
                                                        SpsTime             birth_start,
                                                        SpsTime             birth_end,
                                                        guint32             process);
SPS_AVAILABLE_IN_ALL
SpsTrace           *sps_outstanding_tree_get_trace     (SpsOutstandingTree *self);
SPS_AVAILABLE_IN_ALL
SpsTime             sps_outstanding_tree_get_time      (SpsOutstandingTree *self);
SPS_AVAILABLE_IN_ALL
void                sps_outstanding_tree_get_summary   (SpsOutstandingTree *self,
                                                        SpsOutstanding     *out);
SPS_AVAILABLE_IN_ALL
void                sps_outstanding_tree_get_uncertain (SpsOutstandingTree *self,
                                                        SpsUncertainReason  reason,
                                                        SpsCountBytes      *out);
SPS_AVAILABLE_IN_ALL
guint               sps_outstanding_tree_get_n_functions (SpsOutstandingTree *self);
SPS_AVAILABLE_IN_ALL
const SpsOutstandingFunction *
                    sps_outstanding_tree_get_function  (SpsOutstandingTree *self,
                                                        guint               function);
SPS_AVAILABLE_IN_ALL
guint               sps_outstanding_tree_find_function (SpsOutstandingTree *self,
                                                        const char         *name);
SPS_AVAILABLE_IN_ALL
char               *sps_outstanding_tree_dup_note      (SpsOutstandingTree *self,
                                                        guint               function);
SPS_AVAILABLE_IN_ALL
char               *sps_outstanding_tree_dup_summary_note (SpsOutstandingTree *self);
SPS_AVAILABLE_IN_ALL
GArray             *sps_outstanding_tree_dup_paths     (SpsOutstandingTree *self,
                                                        guint               function);

G_END_DECLS
