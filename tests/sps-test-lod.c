/* sps-test-lod.c: comparisons of two timeline summaries, for the tests
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config.h"

#include <spanscope-core.h>

#include "sps-test-lod.h"

/* The buckets of @track at @level in [@start, @end) are the same in @a
 * and @b, bit for bit (NaN included) */
void
sps_test_lod_assert_same_buckets (SpsTimelineLod *a,
                                  SpsTimelineLod *b,
                                  guint           track,
                                  guint           level,
                                  SpsTime         start,
                                  SpsTime         end)
{
  SpsLodIter ia, ib;
  SpsLodBucket ba, bb;

  _sps_timeline_lod_buckets_init (a, &ia, track, level, start, end);
  _sps_timeline_lod_buckets_init (b, &ib, track, level, start, end);
  while (_sps_timeline_lod_buckets_next (&ib, &bb))
    {
      g_assert_true (_sps_timeline_lod_buckets_next (&ia, &ba));
      g_assert_cmpint (ba.ts, ==, bb.ts);
      g_assert_cmpuint (ba.count, ==, bb.count);
      g_assert_cmpmem (&ba.min, sizeof ba.min, &bb.min, sizeof bb.min);
      g_assert_cmpmem (&ba.max, sizeof ba.max, &bb.max, sizeof bb.max);
      g_assert_cmpmem (&ba.last, sizeof ba.last, &bb.last, sizeof bb.last);
    }
  g_assert_false (_sps_timeline_lod_buckets_next (&ia, &ba));
}

/* All the points @iter returns, read @batch at a time */
static GArray *
read_points (SpsLodIter *iter,
             guint       batch)
{
  GArray *points = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint n;

  do
    {
      g_array_set_size (points, points->len + batch);
      n = _sps_timeline_lod_points_next_n (iter, &g_array_index (points, guint32, points->len - batch), batch);
      g_array_set_size (points, points->len - batch + n);
    }
  while (n > 0);
  return points;
}

/* The points of @track at @level in [@start, @end) are the same in @a and
 * @b, read in batches of different sizes (so that a batch's end falls
 * anywhere) */
void
sps_test_lod_assert_same_points (SpsTimelineLod *a,
                                 SpsTimelineLod *b,
                                 guint           track,
                                 guint           level,
                                 SpsTime         start,
                                 SpsTime         end)
{
  SpsLodIter ia, ib;
  g_autoptr(GArray) pa = NULL;
  g_autoptr(GArray) pb = NULL;

  _sps_timeline_lod_points_init (a, &ia, track, level, start, end);
  _sps_timeline_lod_points_init (b, &ib, track, level, start, end);
  pa = read_points (&ia, 7);
  pb = read_points (&ib, 64);
  g_assert_cmpmem (pa->data, pa->len * sizeof (guint32), pb->data, pb->len * sizeof (guint32));
}
