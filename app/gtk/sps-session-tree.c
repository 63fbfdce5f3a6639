/* sps-session-tree.c: SpsSession's navigation of the slice tree
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-session"

#include "config.h"

#include <string.h>

#include "sps-session.h"
#include "sps-session-private.h"
#include "sps-session-state-private.h"
#include "sps-time-math-private.h"

/* Navigation of the slice tree.
 *
 * Slices are sorted by (track, ts), longer first among equal times, so a
 * parent comes before its children. On thread tracks nesting comes from
 * containment: every slice after S that starts before S ends (or at its
 * end with zero duration) descends from S, so a subtree is a contiguous
 * run after its root, sorted by time. That gives the bounded costs:
 * the first descendant is a child, the next sibling is the first slice
 * at S's depth from the end of S on (a binary search), and walking back
 * from S lands in the previous sibling's subtree, whose root is a few
 * parent links away. Async lanes hold whole async trees one after
 * another, but siblings inside a tree may overlap in time, so there the
 * search walks the slice's tree instead. */

typedef struct
{
  const SpsSliceTable *slices;
  guint32              first;    /* the track's rows */
  guint32              end;
  gboolean             nested;   /* containment nesting (not async) */
} TrackRows;

static void
track_rows_init (TrackRows *rows,
                 SpsTrace  *trace,
                 guint      slice)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  guint32 track;

  rows->slices = sps_trace_get_slices (trace);
  track = rows->slices->track[slice];
  rows->first = tracks->first_row[track];
  rows->end = rows->first + tracks->n_rows_in_track[track];
  rows->nested = tracks->kind[track] != SPS_TRACK_ASYNC;
}

/* The ancestor of @slice at @depth (itself when already there), or
 * SPS_NO_INDEX when the parent links end first. */
static guint
ancestor_at_depth (const SpsSliceTable *slices,
                   guint                slice,
                   guint16              depth)
{
  while (slice != SPS_NO_INDEX && slices->depth[slice] > depth)
    slice = slices->parent[slice];

  return slice;
}

/* The first row in [lo, hi) whose ts is >= @key (hi if none). */
static guint32
lower_bound_ts (const SpsSliceTable *slices,
                guint32              lo,
                guint32              hi,
                SpsTime              key)
{
  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;

      if (slices->ts[mid] < key)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

guint
_sps_slice_first_child (SpsTrace *trace,
                        guint     slice)
{
  TrackRows rows;
  guint16 depth;

  g_assert (SPS_IS_TRACE (trace));
  g_assert (slice < sps_trace_get_slices (trace)->n_rows);

  track_rows_init (&rows, trace, slice);
  depth = rows.slices->depth[slice];

  for (guint32 i = slice + 1; i < rows.end; i++)
    {
      if (rows.slices->parent[i] == slice)
        return i;

      /* On a thread track the first descendant is a child, so anything
       * else means no children; an async tree ends at the next root. */
      if (rows.nested || rows.slices->depth[i] <= depth || rows.slices->depth[i] == 0)
        break;
    }

  return SPS_NO_INDEX;
}

guint
_sps_slice_next_sibling (SpsTrace *trace,
                         guint     slice)
{
  TrackRows rows;
  guint32 parent;
  guint16 depth;
  guint32 i = slice + 1;

  g_assert (SPS_IS_TRACE (trace));
  g_assert (slice < sps_trace_get_slices (trace)->n_rows);

  track_rows_init (&rows, trace, slice);
  parent = rows.slices->parent[slice];
  depth = rows.slices->depth[slice];

  if (rows.nested)
    {
      SpsTime end = _sps_time_add (rows.slices->ts[slice], MAX (rows.slices->dur[slice], 0));

      i = lower_bound_ts (rows.slices, i, rows.end, end);
    }

  for (; i < rows.end; i++)
    {
      guint16 d = rows.slices->depth[i];
      guint a;

      if (d < depth)
        {
          /* Shallower: past the parent on a thread track; on an async
           * lane only a new tree ends the search. */
          if (rows.nested || d == 0)
            break;
          continue;
        }

      a = ancestor_at_depth (rows.slices, i, depth);
      if (a == SPS_NO_INDEX || a == slice)
        continue;   /* inside the slice's own subtree */

      if (rows.slices->parent[a] == parent && a > slice)
        return a;

      if (rows.nested)
        break;
    }

  return SPS_NO_INDEX;
}

guint
_sps_slice_prev_sibling (SpsTrace *trace,
                         guint     slice)
{
  TrackRows rows;
  guint32 parent;
  guint16 depth;
  guint32 i = slice;

  g_assert (SPS_IS_TRACE (trace));
  g_assert (slice < sps_trace_get_slices (trace)->n_rows);

  track_rows_init (&rows, trace, slice);
  parent = rows.slices->parent[slice];
  depth = rows.slices->depth[slice];

  while (i > rows.first)
    {
      guint a;

      i--;

      /* Earlier siblings come after the parent. */
      if (i == parent)
        break;

      if (rows.slices->depth[i] < depth)
        {
          if (rows.nested)
            break;
          continue;
        }

      a = ancestor_at_depth (rows.slices, i, depth);
      if (a == SPS_NO_INDEX)
        continue;

      if (rows.slices->parent[a] == parent)
        return a;

      if (rows.nested)
        break;
    }

  return SPS_NO_INDEX;
}
