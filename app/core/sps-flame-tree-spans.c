/* sps-flame-tree-spans.c: span trees (measured slices, sampled spans)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each slice of the scope counts in the child named like it under the
 * node of its nearest visible ancestor. A track's slices are sorted by
 * (track, ts), so they come in depth-first order of its call forest: a
 * slice's parent is the last slice read at the depth above it. The pass
 * keeps that path per depth (row and node) and takes the parent's node
 * from it, with no lookup; only the child is looked up (in the parent's
 * list of children, or the index for a crowded parent). Whether the path
 * holds the slice's parent is checked against the slice table's parent
 * column, so a producer's odd nesting (ties, overlaps, a range that
 * leaves an ancestor out) falls back to walking the parent chain: the
 * tree is the same either way.
 *
 * The clipped durations are added as inclusive values; exclusive =
 * inclusive − the children's inclusive, which is the self time when
 * nothing is clipped.
 */

#define G_LOG_DOMAIN "sps-flame-tree"

#include "config.h"

#include <string.h>

#include "sps-flame-tree-private.h"
#include "sps-trace-private.h"

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

/* What the pass keeps while it reads the slices */
typedef struct
{
  SpsFlameTree             *self;
  const SpsFlameTreeParams *params;
  const SpsSliceTable      *slices;
  SpsProgress              *progress;
  GError                  **error;
  /* Per depth: the row last read there, and its node (its nearest
   * visible ancestor's when it is hidden; 0 is the root) */
  guint32                  *path_row;
  guint32                  *path_node;
  guint                     n_path;
  guint64                   done;
  gboolean                  failed;
} SpanBuild;

/* The node of the nearest ancestor of @r in the tree, the slow way: for
 * slices the path does not explain */
static guint32
walk_to_parent_node (SpanBuild *b,
                     guint32    r)
{
  const SpsSliceTable *slices = b->slices;
  SpsFlameTree *self = b->self;
  guint64 steps = 0;

  for (guint32 p = slices->parent[r]; p != SPS_NO_INDEX && p < slices->n_rows; p = slices->parent[p])
    {
      guint32 i = p - self->slice_node_first;

      if (p >= self->slice_node_first && i < self->n_slice_node && self->slice_node[i] != SPS_NO_INDEX)
        return self->slice_node[i];
      /* A cycle cannot come from finish(), but stay finite */
      if (++steps > slices->n_rows)
        break;
    }

  return 0;
}

/* Adds slice @r, whose (clipped) length is @value, to the tree */
static inline void
add_span (SpanBuild *b,
          guint32    r,
          SpsTime    value)
{
  SpsFlameTree *self = b->self;
  const SpsSliceTable *slices = b->slices;
  guint d = slices->depth[r];
  guint32 p = slices->parent[r];
  guint32 name = slices->name[r];
  guint32 parent_node;
  guint32 node;
  SpsFlameBuildNode *n;

  if (d == 0 && p == SPS_NO_INDEX)
    parent_node = 0;
  else if (d > 0 && d <= b->n_path && b->path_row[d - 1] == p)
    parent_node = b->path_node[d - 1];
  else
    parent_node = walk_to_parent_node (b, r);

  if (b->params->slice_visible != NULL &&
      !b->params->slice_visible (self->trace, r, b->params->user_data))
    {
      if (d < b->n_path)
        {
          b->path_row[d] = r;
          b->path_node[d] = parent_node;
        }
      return;
    }

  node = _sps_flame_tree_child (self, parent_node, name);
  self->slice_node[r - self->slice_node_first] = node;
  if (d < b->n_path)
    {
      b->path_row[d] = r;
      b->path_node[d] = node;
    }

  n = &self->build[node];
  sat_add (&n->inclusive, value);
  if (n->n_instances == 0 || value > n->exclusive)
    {
      n->exclusive = value;
      n->instance = r;
    }
  n->n_instances++;
}

static inline SpsTime
span_end (const SpsSliceTable *slices,
          guint32              r)
{
  SpsTime end = slices->ts[r];

  sat_add (&end, MAX (slices->dur[r], 0));
  return end;
}

/* A slice that overlaps the range, as sps_trace_foreach_slice_in_range()
 * finds them (a zero-length one when its ts is inside): counted clipped */
static gboolean
add_span_in_range (SpsTrace *trace,
                   guint     r,
                   gpointer  user_data)
{
  SpanBuild *b = user_data;
  SpsTime lo = MAX (b->slices->ts[r], b->params->range_start);
  SpsTime hi = MIN (span_end (b->slices, r), b->params->range_end);

  if ((++b->done % SPS_FLAME_CHECK_STRIDE) == 0 && _sps_flame_tree_check_cancelled (b->progress, b->error))
    {
      b->failed = TRUE;
      return FALSE;
    }
  add_span (b, r, MAX (hi - lo, 0));
  return TRUE;
}

/* Self times, and the root's total. The build pool has parents before
 * children, so a reverse walk visits children first; @acc holds what a
 * node's children subtracted, in the order the straightforward build
 * subtracted it (the sums saturate, so the order matters at the edges). */
static void
sum_spans (SpsFlameTree *self)
{
  SpsFlameBuildNode *build = self->build;
  g_autofree gint64 *acc = g_new0 (gint64, self->n_build);

  _sps_advise_huge_pages (acc, sizeof (gint64) * self->n_build);

  for (guint i = self->n_build; i-- > 1;)
    {
      SpsFlameBuildNode *n = &build[i];

      n->exclusive = acc[i];
      sat_add (&n->exclusive, n->inclusive);
      /* Clipping keeps children inside their parents, but guard against
       * producers that do not */
      if (n->exclusive < 0)
        n->exclusive = 0;
      if (n->parent == 0)
        sat_add (&build[0].inclusive, n->inclusive);
      else
        sat_sub (&acc[n->parent], n->inclusive);
    }
  build[0].exclusive = 0;
}

gboolean
_sps_flame_tree_build_spans (SpsFlameTree              *self,
                             const SpsFlameTreeParams  *params,
                             SpsProgress               *progress,
                             GError                   **error)
{
  SpsTrace *trace = self->trace;
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  SpanBuild b = { self, params, slices, progress, error, NULL, NULL, 0, 0, FALSE };
  guint64 n_rows = 0;
  guint64 n_expected;
  guint row_lo = G_MAXUINT;
  guint row_hi = 0;

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

  /* Room for half the rows as nodes from the start (the generated traces
   * make a node for nearly every other slice): growing copies the pool
   * and rehashes the index, and reserved but untouched memory costs
   * nothing. A range gets its share of them, as its share of the trace's
   * time: a range costs what its slices cost */
  n_expected = n_rows / 2 + 1;
  if (params->has_range)
    {
      double whole = (double) sps_trace_get_end_time (trace) - (double) sps_trace_get_start_time (trace);
      double part = (double) params->range_end - (double) params->range_start;

      if (whole > 0 && part < whole)
        n_expected = MIN (n_expected, (guint64) (n_expected * MAX (part, 0) / whole) + 1024);
    }
  _sps_flame_tree_reserve (self, n_expected);

  self->slice_node_first = row_lo;
  self->n_slice_node = row_hi - row_lo;
  self->slice_node = _sps_alloc_large (sizeof (guint32) * MAX (self->n_slice_node, 1));
  memset (self->slice_node, 0xff, sizeof (guint32) * MAX (self->n_slice_node, 1));

  /* Not cleared between tracks: an entry is used only when its row is
   * the slice's parent, and then it is that parent's, whichever track
   * left it there (clearing would cost tracks × depth) */
  b.path_row = g_new (guint32, MAX (b.n_path, 1));
  b.path_node = g_new0 (guint32, MAX (b.n_path, 1));
  memset (b.path_row, 0xff, sizeof (guint32) * MAX (b.n_path, 1));

  for (guint t = 0; t < tracks->n_rows && !b.failed; t++)
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
                                              add_span_in_range, &b);
          continue;
        }

      first = tracks->first_row[t];
      end = first + tracks->n_rows_in_track[t];
      for (guint r = first; r < end; r++)
        {
          if ((++b.done % SPS_FLAME_CHECK_STRIDE) == 0 && _sps_flame_tree_check_cancelled (progress, error))
            {
              b.failed = TRUE;
              break;
            }
          add_span (&b, r, span_end (slices, r) - slices->ts[r]);
        }
    }
  g_free (b.path_row);
  g_free (b.path_node);
  if (b.failed)
    return FALSE;

  sum_spans (self);

  return TRUE;
}
