/* sps-outstanding-tree.c: what is outstanding at a time, per function
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-outstanding-tree"

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n-lib.h>

#include "sps-outstanding-tree.h"
#include "sps-trace-private.h"

/**
 * SpsOutstandingTree:
 *
 * The allocations outstanding at one time (optionally only those born in
 * a range), summed per function over their allocation paths: the model of
 * the Memory panel, built without a display and, since a trace is
 * read-only, on any thread.
 *
 * Building it is one pass over the allocations born up to the time, which
 * sums them per leaf callsite (distinct stacks are far fewer than
 * allocations), then one walk up each distinct stack. Known allocations
 * (surely alive) and uncertain ones (possibly alive, see
 * #SpsUncertainReason) are kept apart everywhere, as
 * sps_trace_sum_outstanding() keeps them; the summary counts each
 * allocation once, while a function's inclusive row counts every
 * allocation whose stack contains it, so rows overlap.
 */

/* The sums of the allocations of one leaf callsite */
typedef struct
{
  guint32       callsite;           /* SPS_NO_INDEX: no stack */
  SpsCountBytes known;
  SpsCountBytes uncertain;
  guint64       reasons[SPS_N_UNCERTAIN_REASONS];
  guint64       reason_bytes[SPS_N_UNCERTAIN_REASONS];
  SpsTime       gc_after;
  SpsTime       gc_by;
} Leaf;

struct _SpsOutstandingTree
{
  GObject         parent_instance;

  SpsTrace       *trace;
  SpsTime         time;
  SpsOutstanding  summary;
  Leaf            total;            /* the summary's reasons and GC bounds */
  GArray         *leaves;           /* Leaf */
  GArray         *functions;        /* SpsOutstandingFunction, sorted */
};

G_DEFINE_FINAL_TYPE (SpsOutstandingTree, sps_outstanding_tree, G_TYPE_OBJECT)

static void
count_add (SpsCountBytes       *sum,
           const SpsCountBytes *add)
{
  sum->count += add->count;
  sum->bytes = _sps_add_bytes (sum->bytes, add->bytes);
}

static SpsUncertainReason
uncertain_reason (guint8 certainty)
{
  switch ((SpsAllocationCertainty) certainty)
    {
    case SPS_ALLOCATION_IN_GAP:
      return SPS_UNCERTAIN_GAP;
    case SPS_ALLOCATION_SAMPLED:
      return SPS_UNCERTAIN_SAMPLED;
    case SPS_ALLOCATION_UNKNOWN_BIRTH:
      return SPS_UNCERTAIN_UNKNOWN_BIRTH;
    case SPS_ALLOCATION_UNKNOWN_DEATH:
      return SPS_UNCERTAIN_UNKNOWN_DEATH;
    case SPS_ALLOCATION_EXACT:
    default:
      return SPS_UNCERTAIN_GC_BOUNDS;
    }
}

static void
leaf_init (Leaf    *leaf,
           guint32  callsite)
{
  *leaf = (Leaf) { .callsite = callsite, .gc_after = SPS_TIME_MAX, .gc_by = SPS_TIME_MIN };
}

static void
leaf_add (Leaf                     *leaf,
          const SpsAllocationTable *a,
          guint                     r,
          SpsAllocationState        state)
{
  SpsCountBytes one = { 1, a->size[r] == SPS_SIZE_UNKNOWN ? 0 : a->size[r] };
  SpsUncertainReason reason;

  if (state == SPS_ALLOCATION_STATE_KNOWN)
    {
      count_add (&leaf->known, &one);
      return;
    }

  count_add (&leaf->uncertain, &one);
  reason = uncertain_reason (a->certainty[r]);
  leaf->reasons[reason]++;
  leaf->reason_bytes[reason] = _sps_add_bytes (leaf->reason_bytes[reason], one.bytes);
  if (reason == SPS_UNCERTAIN_GC_BOUNDS)
    {
      leaf->gc_after = MIN (leaf->gc_after, a->death_after[r]);
      leaf->gc_by = MAX (leaf->gc_by, a->death_by[r]);
    }
}

static void
leaf_merge (Leaf       *into,
            const Leaf *leaf)
{
  count_add (&into->known, &leaf->known);
  count_add (&into->uncertain, &leaf->uncertain);
  for (guint i = 0; i < SPS_N_UNCERTAIN_REASONS; i++)
    {
      into->reasons[i] += leaf->reasons[i];
      into->reason_bytes[i] = _sps_add_bytes (into->reason_bytes[i], leaf->reason_bytes[i]);
    }
  into->gc_after = MIN (into->gc_after, leaf->gc_after);
  into->gc_by = MAX (into->gc_by, leaf->gc_by);
}

static guint32
frame_name (SpsTrace *trace,
            guint32   callsite)
{
  const SpsCallsiteTable *cs = sps_trace_get_callsites (trace);

  return sps_trace_get_frames (trace)->name[cs->frame[callsite]];
}

static SpsOutstandingFunction *
function_for (GArray     *functions,
              GHashTable *index,
              guint32     name)
{
  gpointer found;

  if (!g_hash_table_lookup_extended (index, GUINT_TO_POINTER (name), NULL, &found))
    {
      SpsOutstandingFunction fn = { .name = name, .gc_after = SPS_TIME_MAX, .gc_by = SPS_TIME_MIN };

      found = GUINT_TO_POINTER (functions->len);
      g_array_append_val (functions, fn);
      g_hash_table_insert (index, GUINT_TO_POINTER (name), found);
    }
  return &g_array_index (functions, SpsOutstandingFunction, GPOINTER_TO_UINT (found));
}

/* Biggest first; ties by name so that the order does not depend on hashing */
static int
compare_functions (gconstpointer a,
                   gconstpointer b,
                   gpointer      user_data)
{
  const SpsOutstandingFunction *fa = a;
  const SpsOutstandingFunction *fb = b;
  SpsTrace *trace = user_data;

  if (fa->inclusive.bytes != fb->inclusive.bytes)
    return fa->inclusive.bytes > fb->inclusive.bytes ? -1 : 1;
  if (fa->inclusive_uncertain.bytes != fb->inclusive_uncertain.bytes)
    return fa->inclusive_uncertain.bytes > fb->inclusive_uncertain.bytes ? -1 : 1;
  if (fa->inclusive.count != fb->inclusive.count)
    return fa->inclusive.count > fb->inclusive.count ? -1 : 1;
  return g_strcmp0 (sps_trace_get_string (trace, fa->name), sps_trace_get_string (trace, fb->name));
}

static void
build_functions (SpsOutstandingTree *self)
{
  const SpsCallsiteTable *cs = sps_trace_get_callsites (self->trace);
  g_autoptr(GHashTable) index = g_hash_table_new (NULL, NULL);
  g_autoptr(GArray) stamp = g_array_new (FALSE, TRUE, sizeof (guint));

  for (guint l = 0; l < self->leaves->len; l++)
    {
      const Leaf *leaf = &g_array_index (self->leaves, Leaf, l);
      SpsOutstandingFunction *fn;

      fn = function_for (self->functions, index,
                         leaf->callsite == SPS_NO_INDEX ? 0 : frame_name (self->trace, leaf->callsite));
      count_add (&fn->exclusive, &leaf->known);
      count_add (&fn->exclusive_uncertain, &leaf->uncertain);

      /* Every function on the stack once, however often it recurs: the
       * stamp remembers the leaf that last counted it */
      for (guint32 c = leaf->callsite; ; c = cs->parent[c])
        {
          guint i;

          fn = function_for (self->functions, index,
                             c == SPS_NO_INDEX ? 0 : frame_name (self->trace, c));
          i = fn - &g_array_index (self->functions, SpsOutstandingFunction, 0);
          if (stamp->len <= i)
            g_array_set_size (stamp, i + 1);
          if (g_array_index (stamp, guint, i) != l + 1)
            {
              g_array_index (stamp, guint, i) = l + 1;
              count_add (&fn->inclusive, &leaf->known);
              count_add (&fn->inclusive_uncertain, &leaf->uncertain);
              for (guint k = 0; k < SPS_N_UNCERTAIN_REASONS; k++)
                fn->uncertain[k] += leaf->reasons[k];
              fn->gc_after = MIN (fn->gc_after, leaf->gc_after);
              fn->gc_by = MAX (fn->gc_by, leaf->gc_by);
            }
          if (c == SPS_NO_INDEX || cs->parent[c] == SPS_NO_INDEX)
            break;
        }
    }

  g_array_sort_with_data (self->functions, compare_functions, self->trace);
}

static void
build (SpsOutstandingTree *self,
       SpsTime             birth_start,
       SpsTime             birth_end,
       guint32             process)
{
  const SpsAllocationTable *a = sps_trace_get_allocations (self->trace);
  g_autoptr(GHashTable) by_callsite = g_hash_table_new (NULL, NULL);

  leaf_init (&self->total, SPS_NO_INDEX);

  /* Sorted by birth: the rows born after the time, or at or after the
   * filter's end, end the scan */
  for (guint r = 0; r < a->n_rows && a->birth[r] <= self->time && a->birth[r] < birth_end; r++)
    {
      SpsAllocationState state;
      gpointer found;
      Leaf *leaf;

      if (a->birth[r] < birth_start || (process != SPS_NO_INDEX && a->process[r] != process))
        continue;
      state = _sps_allocation_state (a, r, self->time);
      if (state == SPS_ALLOCATION_STATE_GONE)
        continue;

      if (!g_hash_table_lookup_extended (by_callsite, GUINT_TO_POINTER (a->callsite[r]), NULL, &found))
        {
          Leaf fresh;

          leaf_init (&fresh, a->callsite[r]);
          found = GUINT_TO_POINTER (self->leaves->len);
          g_array_append_val (self->leaves, fresh);
          g_hash_table_insert (by_callsite, GUINT_TO_POINTER (a->callsite[r]), found);
        }
      leaf = &g_array_index (self->leaves, Leaf, GPOINTER_TO_UINT (found));
      leaf_add (leaf, a, r, state);
      if (a->size[r] == SPS_SIZE_UNKNOWN)
        self->summary.unknown_size_count++;
    }

  for (guint l = 0; l < self->leaves->len; l++)
    leaf_merge (&self->total, &g_array_index (self->leaves, Leaf, l));
  self->summary.known_count = self->total.known.count;
  self->summary.known_bytes = self->total.known.bytes;
  self->summary.uncertain_count = self->total.uncertain.count;
  self->summary.uncertain_bytes = self->total.uncertain.bytes;

  build_functions (self);
}

static void
sps_outstanding_tree_finalize (GObject *object)
{
  SpsOutstandingTree *self = SPS_OUTSTANDING_TREE (object);

  g_clear_object (&self->trace);
  g_clear_pointer (&self->leaves, g_array_unref);
  g_clear_pointer (&self->functions, g_array_unref);

  G_OBJECT_CLASS (sps_outstanding_tree_parent_class)->finalize (object);
}

static void
sps_outstanding_tree_class_init (SpsOutstandingTreeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sps_outstanding_tree_finalize;
}

static void
sps_outstanding_tree_init (SpsOutstandingTree *self)
{
  self->leaves = g_array_new (FALSE, FALSE, sizeof (Leaf));
  self->functions = g_array_new (FALSE, FALSE, sizeof (SpsOutstandingFunction));
}

/**
 * sps_outstanding_tree_new:
 * @trace: a finished trace
 * @time: the moment asked about
 * @birth_start: only allocations born at or after this; %SPS_TIME_MIN for
 *   no lower bound (which also keeps those of unknown birth)
 * @birth_end: only allocations born before this; %SPS_TIME_MAX for no
 *   upper bound
 * @process: a process index, or %SPS_NO_INDEX for every process
 *
 * Sums the allocations outstanding at @time (see
 * sps_trace_sum_outstanding()) born in [@birth_start, @birth_end), per
 * function. Runs on any thread.
 *
 * Returns: (transfer full): the tree
 */
SpsOutstandingTree *
sps_outstanding_tree_new (SpsTrace *trace,
                          SpsTime   time,
                          SpsTime   birth_start,
                          SpsTime   birth_end,
                          guint32   process)
{
  SpsOutstandingTree *self;

  g_return_val_if_fail (SPS_IS_TRACE (trace), NULL);

  self = g_object_new (SPS_TYPE_OUTSTANDING_TREE, NULL);
  self->trace = g_object_ref (trace);
  self->time = time;
  build (self, birth_start, birth_end, process);

  return self;
}

/**
 * sps_outstanding_tree_get_trace:
 * @self: a #SpsOutstandingTree
 *
 * Returns: (transfer none): the trace
 */
SpsTrace *
sps_outstanding_tree_get_trace (SpsOutstandingTree *self)
{
  g_return_val_if_fail (SPS_IS_OUTSTANDING_TREE (self), NULL);

  return self->trace;
}

/**
 * sps_outstanding_tree_get_time:
 * @self: a #SpsOutstandingTree
 *
 * Returns: the moment the tree describes
 */
SpsTime
sps_outstanding_tree_get_time (SpsOutstandingTree *self)
{
  g_return_val_if_fail (SPS_IS_OUTSTANDING_TREE (self), 0);

  return self->time;
}

/**
 * sps_outstanding_tree_get_summary:
 * @self: a #SpsOutstandingTree
 * @out: (out caller-allocates): the totals, each allocation once
 */
void
sps_outstanding_tree_get_summary (SpsOutstandingTree *self,
                                  SpsOutstanding     *out)
{
  g_return_if_fail (SPS_IS_OUTSTANDING_TREE (self));
  g_return_if_fail (out != NULL);

  *out = self->summary;
}

/**
 * sps_outstanding_tree_get_uncertain:
 * @self: a #SpsOutstandingTree
 * @reason: why
 * @out: (out caller-allocates): the uncertain allocations of @reason,
 *   counted once each, and their bytes
 */
void
sps_outstanding_tree_get_uncertain (SpsOutstandingTree *self,
                                    SpsUncertainReason  reason,
                                    SpsCountBytes      *out)
{
  g_return_if_fail (SPS_IS_OUTSTANDING_TREE (self));
  g_return_if_fail (reason < SPS_N_UNCERTAIN_REASONS);
  g_return_if_fail (out != NULL);

  *out = (SpsCountBytes) { self->total.reasons[reason], self->total.reason_bytes[reason] };
}

/**
 * sps_outstanding_tree_get_n_functions:
 * @self: a #SpsOutstandingTree
 *
 * Returns: the number of function rows
 */
guint
sps_outstanding_tree_get_n_functions (SpsOutstandingTree *self)
{
  g_return_val_if_fail (SPS_IS_OUTSTANDING_TREE (self), 0);

  return self->functions->len;
}

/**
 * sps_outstanding_tree_get_function:
 * @self: a #SpsOutstandingTree
 * @function: a row, below sps_outstanding_tree_get_n_functions()
 *
 * Rows come biggest first (known inclusive bytes, then uncertain ones,
 * then count), ties by name.
 *
 * Returns: (transfer none): the row
 */
const SpsOutstandingFunction *
sps_outstanding_tree_get_function (SpsOutstandingTree *self,
                                   guint               function)
{
  g_return_val_if_fail (SPS_IS_OUTSTANDING_TREE (self), NULL);
  g_return_val_if_fail (function < self->functions->len, NULL);

  return &g_array_index (self->functions, SpsOutstandingFunction, function);
}

/**
 * sps_outstanding_tree_find_function:
 * @self: a #SpsOutstandingTree
 * @name: (nullable): a function's name, %NULL for the allocations
 *   without a stack
 *
 * Returns: the row of @name, or %SPS_NO_INDEX
 */
guint
sps_outstanding_tree_find_function (SpsOutstandingTree *self,
                                    const char         *name)
{
  g_return_val_if_fail (SPS_IS_OUTSTANDING_TREE (self), SPS_NO_INDEX);

  for (guint i = 0; i < self->functions->len; i++)
    {
      guint32 id = g_array_index (self->functions, SpsOutstandingFunction, i).name;

      if (name == NULL ? id == 0 : id != 0 && g_strcmp0 (sps_trace_get_string (self->trace, id), name) == 0)
        return i;
    }
  return SPS_NO_INDEX;
}

/* The number of the garbage collection that started at @ts, 0 if none */
static guint32
gc_number_at (SpsTrace *trace,
              SpsTime   ts)
{
  const SpsGcObservationTable *gc = sps_trace_get_gc_observations (trace);
  guint lo = 0;
  guint hi = gc->n_rows;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (gc->ts[mid] < ts)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (; lo < gc->n_rows && gc->ts[lo] == ts; lo++)
    if (gc->kind[lo] == SPS_GC_START && gc->gc_number[lo] != 0)
      return gc->gc_number[lo];
  return 0;
}

static void
append_part (GString    *note,
             const char *part)
{
  if (note->len > 0)
    g_string_append (note, _("; "));
  g_string_append (note, part);
}

/* @part (owned) is appended only when @n is not 0 */
static void
append_count (GString *note,
              guint64  n,
              char    *part)
{
  g_autofree char *owned = part;

  if (n > 0)
    append_part (note, owned);
}

static char *
describe (SpsTrace      *trace,
          const guint64 *reasons,
          SpsTime        gc_after,
          SpsTime        gc_by)
{
  GString *note = g_string_new (NULL);
  guint64 n;

  n = reasons[SPS_UNCERTAIN_GC_BOUNDS];
  if (n > 0)
    {
      guint32 after = gc_number_at (trace, gc_after);
      guint32 by = gc_number_at (trace, gc_by);
      g_autofree char *part = NULL;

      /* Never a guess: the two collections are all that is known */
      if (after != 0 && by != 0)
        part = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%" PRIu64 " may have died between GC %u and GC %u",
                                             "%" PRIu64 " may have died between GC %u and GC %u", n),
                                n, after, by);
      else if (by != 0)
        part = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%" PRIu64 " may have died before GC %u",
                                             "%" PRIu64 " may have died before GC %u", n),
                                n, by);
      else
        part = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%" PRIu64 " may have died",
                                             "%" PRIu64 " may have died", n),
                                n);
      append_part (note, part);
    }

  append_count (note, reasons[SPS_UNCERTAIN_GAP],
                g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%" PRIu64 " in a capture gap", "%" PRIu64 " in a capture gap",
                                              reasons[SPS_UNCERTAIN_GAP]),
                                 reasons[SPS_UNCERTAIN_GAP]));
  append_count (note, reasons[SPS_UNCERTAIN_SAMPLED],
                g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%" PRIu64 " sampled", "%" PRIu64 " sampled",
                                              reasons[SPS_UNCERTAIN_SAMPLED]),
                                 reasons[SPS_UNCERTAIN_SAMPLED]));
  append_count (note, reasons[SPS_UNCERTAIN_UNKNOWN_BIRTH],
                g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%" PRIu64 " of unknown birth", "%" PRIu64 " of unknown birth",
                                              reasons[SPS_UNCERTAIN_UNKNOWN_BIRTH]),
                                 reasons[SPS_UNCERTAIN_UNKNOWN_BIRTH]));
  append_count (note, reasons[SPS_UNCERTAIN_UNKNOWN_DEATH],
                g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%" PRIu64 " of unknown end", "%" PRIu64 " of unknown end",
                                              reasons[SPS_UNCERTAIN_UNKNOWN_DEATH]),
                                 reasons[SPS_UNCERTAIN_UNKNOWN_DEATH]));

  return g_string_free (note, FALSE);
}

/**
 * sps_outstanding_tree_dup_note:
 * @self: a #SpsOutstandingTree
 * @function: a row
 *
 * Says why the row's uncertain allocations are uncertain, for instance
 * "2 may have died between GC 1 and GC 2; 1 sampled" (translated). An
 * allocation reported dead at GC n is surely alive before GC n−1 and
 * unknown between the two: the note names them instead of guessing.
 *
 * Returns: (transfer full): the note, empty when nothing is uncertain
 */
char *
sps_outstanding_tree_dup_note (SpsOutstandingTree *self,
                               guint               function)
{
  const SpsOutstandingFunction *fn;

  g_return_val_if_fail (SPS_IS_OUTSTANDING_TREE (self), NULL);
  g_return_val_if_fail (function < self->functions->len, NULL);

  fn = &g_array_index (self->functions, SpsOutstandingFunction, function);
  return describe (self->trace, fn->uncertain, fn->gc_after, fn->gc_by);
}

/**
 * sps_outstanding_tree_dup_summary_note:
 * @self: a #SpsOutstandingTree
 *
 * As sps_outstanding_tree_dup_note(), for all the uncertain allocations.
 *
 * Returns: (transfer full): the note, empty when nothing is uncertain
 */
char *
sps_outstanding_tree_dup_summary_note (SpsOutstandingTree *self)
{
  g_return_val_if_fail (SPS_IS_OUTSTANDING_TREE (self), NULL);

  return describe (self->trace, self->total.reasons, self->total.gc_after, self->total.gc_by);
}

/* Siblings biggest first */
static int
compare_nodes (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  const SpsOutstandingPath *nodes = user_data;
  const SpsOutstandingPath *na = &nodes[*(const guint *) a];
  const SpsOutstandingPath *nb = &nodes[*(const guint *) b];

  if (na->known.bytes != nb->known.bytes)
    return na->known.bytes > nb->known.bytes ? -1 : 1;
  if (na->uncertain.bytes != nb->uncertain.bytes)
    return na->uncertain.bytes > nb->uncertain.bytes ? -1 : 1;
  return na->callsite < nb->callsite ? -1 : na->callsite > nb->callsite;
}

/**
 * sps_outstanding_tree_dup_paths:
 * @self: a #SpsOutstandingTree
 * @function: a row
 *
 * The allocation paths through @function as a tree: the stacks (root
 * first) of the outstanding allocations that contain it, merged where
 * they share a prefix, each node with the allocations below it. Nodes
 * come depth first, parents before children, siblings biggest first.
 * Empty for the row of allocations without a stack.
 *
 * Returns: (transfer full) (element-type SpsOutstandingPath): the nodes
 */
GArray *
sps_outstanding_tree_dup_paths (SpsOutstandingTree *self,
                                guint               function)
{
  const SpsCallsiteTable *cs;
  g_autoptr(GHashTable) index = g_hash_table_new (NULL, NULL);
  g_autoptr(GArray) nodes = g_array_new (FALSE, FALSE, sizeof (SpsOutstandingPath));
  g_autoptr(GArray) roots = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GPtrArray) children = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint));
  GArray *out;
  guint32 name;

  g_return_val_if_fail (SPS_IS_OUTSTANDING_TREE (self), NULL);
  g_return_val_if_fail (function < self->functions->len, NULL);

  out = g_array_new (FALSE, FALSE, sizeof (SpsOutstandingPath));
  name = g_array_index (self->functions, SpsOutstandingFunction, function).name;
  if (name == 0)
    return out;
  cs = sps_trace_get_callsites (self->trace);

  for (guint l = 0; l < self->leaves->len; l++)
    {
      const Leaf *leaf = &g_array_index (self->leaves, Leaf, l);
      gboolean through = FALSE;

      if (leaf->callsite == SPS_NO_INDEX)
        continue;
      for (guint32 c = leaf->callsite; c != SPS_NO_INDEX && !through; c = cs->parent[c])
        through = frame_name (self->trace, c) == name;
      if (!through)
        continue;

      for (guint32 c = leaf->callsite; c != SPS_NO_INDEX; c = cs->parent[c])
        {
          gpointer found;
          SpsOutstandingPath *node;

          if (!g_hash_table_lookup_extended (index, GUINT_TO_POINTER (c), NULL, &found))
            {
              SpsOutstandingPath fresh = { .callsite = c, .depth = cs->depth[c] };

              found = GUINT_TO_POINTER (nodes->len);
              g_array_append_val (nodes, fresh);
              g_hash_table_insert (index, GUINT_TO_POINTER (c), found);
            }
          node = &g_array_index (nodes, SpsOutstandingPath, GPOINTER_TO_UINT (found));
          count_add (&node->known, &leaf->known);
          count_add (&node->uncertain, &leaf->uncertain);
        }
    }

  /* Link each node to its parent's list of children */
  for (guint i = 0; i < nodes->len; i++)
    g_ptr_array_add (children, g_array_new (FALSE, FALSE, sizeof (guint)));
  for (guint i = 0; i < nodes->len; i++)
    {
      guint32 parent = cs->parent[g_array_index (nodes, SpsOutstandingPath, i).callsite];

      if (parent == SPS_NO_INDEX)
        g_array_append_val (roots, i);
      else
        g_array_append_val ((GArray *) g_ptr_array_index (children,
                                                          GPOINTER_TO_UINT (g_hash_table_lookup (index,
                                                                                                 GUINT_TO_POINTER (parent)))),
                            i);
    }

  /* Depth first with an explicit stack (stacks can be deep), pushing
   * children in reverse so that the biggest comes out first */
  g_array_sort_with_data (roots, compare_nodes, nodes->data);
  for (guint i = roots->len; i > 0; i--)
    {
      guint pair[2] = { g_array_index (roots, guint, i - 1), SPS_NO_INDEX };

      g_array_append_vals (stack, pair, 2);
    }
  while (stack->len > 0)
    {
      guint node = g_array_index (stack, guint, stack->len - 2);
      guint parent_out = g_array_index (stack, guint, stack->len - 1);
      GArray *kids = g_ptr_array_index (children, node);
      SpsOutstandingPath copy = g_array_index (nodes, SpsOutstandingPath, node);
      guint here = out->len;

      g_array_set_size (stack, stack->len - 2);
      copy.parent = parent_out;
      g_array_append_val (out, copy);

      g_array_sort_with_data (kids, compare_nodes, nodes->data);
      for (guint i = kids->len; i > 0; i--)
        {
          guint pair[2] = { g_array_index (kids, guint, i - 1), here };

          g_array_append_vals (stack, pair, 2);
        }
    }

  return out;
}
