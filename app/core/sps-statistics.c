/* sps-statistics.c: per-name and per-thread statistics of a trace's slices
 *
 * The statistics panel's numbers, computed in one pass over the slice
 * columns instead of through SQL: the rows are those of
 * sps_sql_build_statistics()'s query, value for value (the tests compare
 * the two row by row), at a fraction of the cost (docs/performance.md).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-statistics"

#include "config.h"

#include <string.h>

#include "sps-sql-private.h"
#include "sps-sql-vtab-private.h"
#include "sps-statistics.h"

/* One row of the result before it is split by kind: the sums of a name
 * (on a thread) */
typedef struct
{
  guint32 thread;               /* SPS_NO_INDEX: async lanes, or by name */
  guint32 name;
  gint64  measured_count;
  gint64  measured_total;
  gint64  measured_self;
  gint64  measured_min;
  gint64  measured_max;
  double  measured_sum;         /* what SQLite's avg() divides */
  gint64  sampled_count;
  gint64  sampled_total;
  gint64  sampled_self;
} Group;

typedef struct
{
  SpsTrace            *trace;
  const SpsSliceTable *slices;
  const guint8        *mask;
  gsize                mask_len;
  gboolean             has_range;
  SpsTime              start;
  SpsTime              end;
  guint32              thread;  /* of the tracks being read */
  GArray              *groups;  /* Group */
  guint                bucket_first_group;
  guint32             *group_of_name;  /* this thread's, SPS_NO_INDEX for none */
  GCancellable        *cancellable;
  guint                countdown;
  gboolean             cancelled;
} Stats;

#define CANCEL_CHECK_ROWS 65536

static inline gint64
add_saturated (gint64 a,
               gint64 b)
{
  gint64 sum;

  if (__builtin_add_overflow (a, b, &sum))
    return b > 0 ? G_MAXINT64 : G_MININT64;
  return sum;
}

static inline gboolean
row_visible (const Stats *st,
             guint32      row)
{
  return st->mask == NULL || (row < st->mask_len && st->mask[row] != 0);
}

/* The index of the group of @name on the thread being read */
static inline guint32
group_index (Stats   *st,
             guint32  name)
{
  guint32 g = st->group_of_name[name];

  if G_UNLIKELY (g == SPS_NO_INDEX)
    {
      Group group = { st->thread, name, 0, 0, 0, G_MAXINT64, G_MININT64, 0.0, 0, 0, 0 };

      g = st->groups->len;
      g_array_append_val (st->groups, group);
      st->group_of_name[name] = g;
    }
  return g;
}

/* Counts slice @row, which overlaps the range when there is one. With a
 * range, as the SQL says: a slice wholly inside keeps its own self time,
 * and one that crosses an end of the range gets its clipped length less
 * the clipped lengths of its children (visible or not). Sums are
 * additive, so each child subtracts its overlap from its crossing
 * parent's group as it is read, in the same pass. */
static inline void
count_row (Stats   *st,
           guint32  row)
{
  const SpsSliceTable *t = st->slices;
  gboolean sampled = (t->flags[row] & SPS_SLICE_SAMPLED) != 0;
  SpsTime value = t->dur[row];
  SpsTime self = t->self_time[row];
  Group *group;
  guint32 g;

  if (st->has_range)
    {
      SpsTime end_ts = slice_end (t, row);
      guint32 parent = t->parent[row];

      value = MIN (end_ts, st->end) - MAX (t->ts[row], st->start);
      if (t->ts[row] < st->start || end_ts > st->end)
        self = value;

      if (parent != SPS_NO_INDEX && value > 0 &&
          (t->ts[parent] < st->start || slice_end (t, parent) > st->end) &&
          row_visible (st, parent))
        {
          /* Looked up before the array is read: it may grow */
          Group *p;

          g = group_index (st, t->name[parent]);
          p = &g_array_index (st->groups, Group, g);

          if (t->flags[parent] & SPS_SLICE_SAMPLED)
            p->sampled_self = add_saturated (p->sampled_self, -value);
          else
            p->measured_self = add_saturated (p->measured_self, -value);
        }
    }

  if (!row_visible (st, row))
    return;

  g = group_index (st, t->name[row]);
  group = &g_array_index (st->groups, Group, g);
  if (sampled)
    {
      group->sampled_count++;
      group->sampled_total = add_saturated (group->sampled_total, value);
      group->sampled_self = add_saturated (group->sampled_self, self);
    }
  else
    {
      group->measured_count++;
      group->measured_total = add_saturated (group->measured_total, value);
      group->measured_self = add_saturated (group->measured_self, self);
      group->measured_sum += (double) value;
      group->measured_min = MIN (group->measured_min, value);
      group->measured_max = MAX (group->measured_max, value);
    }
}

static gboolean
check_cancelled (Stats *st)
{
  if G_UNLIKELY (--st->countdown == 0)
    {
      st->countdown = CANCEL_CHECK_ROWS;
      st->cancelled = g_cancellable_is_cancelled (st->cancellable);
    }
  return st->cancelled;
}

static gboolean
count_in_range (SpsTrace *trace,
                guint     slice,
                gpointer  user_data)
{
  Stats *st = user_data;

  count_row (st, slice);
  return !check_cancelled (st);
}

static void
count_track (Stats   *st,
             guint32  track)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (st->trace);
  guint32 first = tracks->first_row[track];
  guint32 n = tracks->n_rows_in_track[track];

  if (st->has_range)
    {
      /* An empty range holds nothing, not even a zero-length slice */
      if (st->start < st->end)
        sps_trace_foreach_slice_in_range (st->trace, track, st->start, st->end, count_in_range, st);
      return;
    }

  for (guint32 row = first; row < first + n && !check_cancelled (st); row++)
    count_row (st, row);
}

/* Ends the groups of one thread: its names' slots are free again */
static void
end_bucket (Stats *st)
{
  for (guint g = st->bucket_first_group; g < st->groups->len; g++)
    st->group_of_name[g_array_index (st->groups, Group, g).name] = SPS_NO_INDEX;
  st->bucket_first_group = st->groups->len;
}

static gboolean
is_slice_track (guint8 kind)
{
  return kind == SPS_TRACK_THREAD_SLICES || kind == SPS_TRACK_THREAD_SAMPLED_SLICES || kind == SPS_TRACK_ASYNC;
}

/* Reads every slice track, thread by thread (async lanes last) when
 * grouping by thread. Tracks are read in ascending order within a
 * thread, so each group sees its rows in table order, as SQL does. */
static void
count_tracks (Stats            *st,
              SpsStatsGrouping  grouping)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (st->trace);
  guint n_threads = sps_trace_get_threads (st->trace)->n_rows;
  g_autofree guint32 *order = NULL;
  g_autofree guint32 *bucket_start = NULL;
  guint n_buckets = grouping == SPS_STATS_BY_THREAD ? n_threads + 1 : 1;

  /* A counting sort of the slice tracks by bucket (stable: ascending) */
  bucket_start = g_new0 (guint32, n_buckets + 1);
  order = g_new (guint32, MAX (tracks->n_rows, 1));
  for (guint32 k = 0; k < tracks->n_rows; k++)
    if (is_slice_track (tracks->kind[k]))
      bucket_start[(n_buckets == 1 ? 0 : MIN (tracks->thread[k], n_threads)) + 1]++;
  for (guint b = 0; b < n_buckets; b++)
    bucket_start[b + 1] += bucket_start[b];
  {
    g_autofree guint32 *fill = g_memdup2 (bucket_start, sizeof (guint32) * n_buckets);

    for (guint32 k = 0; k < tracks->n_rows; k++)
      if (is_slice_track (tracks->kind[k]))
        order[fill[n_buckets == 1 ? 0 : MIN (tracks->thread[k], n_threads)]++] = k;
  }

  for (guint b = 0; b < n_buckets && !st->cancelled; b++)
    {
      st->thread = n_buckets == 1 || b == n_threads ? SPS_NO_INDEX : b;
      for (guint32 i = bucket_start[b]; i < bucket_start[b + 1] && !st->cancelled; i++)
        count_track (st, order[i]);
      end_bucket (st);
    }
}

/* A result row: a group and a kind */
typedef struct
{
  guint32  group;
  gboolean sampled;
} Row;

typedef struct
{
  const Group   *groups;
  SpsStringPool *strings;
} SortData;

static int
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  const SortData *d = user_data;
  const Row *ra = a;
  const Row *rb = b;
  const Group *ga = &d->groups[ra->group];
  const Group *gb = &d->groups[rb->group];
  gint64 ta = ra->sampled ? ga->sampled_total : ga->measured_total;
  gint64 tb = rb->sampled ? gb->sampled_total : gb->measured_total;
  const char *na;
  const char *nb;
  gsize la;
  gsize lb;
  int cmp;

  /* ORDER BY total DESC, name, kind; then the thread, which SQL leaves
   * open */
  if (ta != tb)
    return ta > tb ? -1 : 1;
  if (ga->name != gb->name)
    {
      na = sps_string_pool_get (d->strings, ga->name, &la);
      nb = sps_string_pool_get (d->strings, gb->name, &lb);
      cmp = memcmp (na, nb, MIN (la, lb));
      if (cmp != 0)
        return cmp;
      if (la != lb)
        return la < lb ? -1 : 1;
    }
  if (ra->sampled != rb->sampled)
    return ra->sampled ? 1 : -1;
  if (ga->thread != gb->thread)
    return ga->thread < gb->thread ? -1 : 1;
  return 0;
}

/* "name tid", as the SQL's coalesce(t.name, 'Thread') || ' ' || t.tid
 * (a thread's name reads as '' in SQL when it has none, never NULL) */
static void
push_thread_label (SpsSqlResult *result,
                   SpsTrace     *trace,
                   guint32       thread)
{
  const SpsThreadTable *threads = sps_trace_get_threads (trace);
  g_autofree char *label = NULL;

  if (thread == SPS_NO_INDEX)
    {
      _sps_sql_result_push_null (result);
      return;
    }
  label = g_strdup_printf ("%s %" G_GINT64_FORMAT,
                           sps_string_pool_get (sps_trace_get_strings (trace), threads->name[thread], NULL),
                           threads->tid[thread]);
  _sps_sql_result_push_text (result, label, strlen (label));
}

static SpsSqlResult *
build_result (Stats            *st,
              SpsStatsGrouping  grouping)
{
  static const char * const by_name[] = {
    "name", "kind", "count", "total", "self_total", "average", "min", "max", NULL
  };
  static const char * const by_thread[] = {
    "thread", "name", "kind", "count", "total", "self_total", "average", "min", "max", NULL
  };
  SpsStringPool *strings = sps_trace_get_strings (st->trace);
  SpsSqlResult *result = _sps_sql_result_new_columns (grouping == SPS_STATS_BY_THREAD ? by_thread : by_name);
  g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (Row));
  const Group *groups = (const Group *) (gpointer) st->groups->data;
  SortData sort = { groups, strings };

  for (guint32 g = 0; g < st->groups->len; g++)
    {
      Row measured = { g, FALSE };
      Row sampled = { g, TRUE };

      if (groups[g].measured_count > 0)
        g_array_append_val (rows, measured);
      if (groups[g].sampled_count > 0)
        g_array_append_val (rows, sampled);
    }
  g_array_sort_with_data (rows, compare_rows, &sort);

  for (guint i = 0; i < rows->len; i++)
    {
      const Row *row = &g_array_index (rows, Row, i);
      const Group *group = &groups[row->group];
      gsize len;
      const char *name = sps_string_pool_get (strings, group->name, &len);

      if (grouping == SPS_STATS_BY_THREAD)
        push_thread_label (result, st->trace, group->thread);
      _sps_sql_result_push_text (result, name, len);
      if (row->sampled)
        {
          _sps_sql_result_push_text (result, "sampled_span", strlen ("sampled_span"));
          _sps_sql_result_push_int64 (result, group->sampled_count);
          _sps_sql_result_push_int64 (result, group->sampled_total);
          _sps_sql_result_push_int64 (result, group->sampled_self);
          _sps_sql_result_push_null (result);
          _sps_sql_result_push_null (result);
          _sps_sql_result_push_null (result);
        }
      else
        {
          _sps_sql_result_push_text (result, "measured", strlen ("measured"));
          _sps_sql_result_push_int64 (result, group->measured_count);
          _sps_sql_result_push_int64 (result, group->measured_total);
          _sps_sql_result_push_int64 (result, group->measured_self);
          _sps_sql_result_push_double (result, group->measured_sum / (double) group->measured_count);
          _sps_sql_result_push_int64 (result, group->measured_min);
          _sps_sql_result_push_int64 (result, group->measured_max);
        }
      _sps_sql_result_end_row (result);
    }

  return result;
}

/**
 * sps_statistics_compute:
 * @trace: a finished #SpsTrace
 * @grouping: a row per name, or per thread and name
 * @slice_mask: (nullable): one byte per slice, nonzero for the slices
 *   that count (sps_session_dup_slice_mask()); %NULL for all
 * @has_range: count only over [@start, @end)
 * @start: the range's start
 * @end: the range's end
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * The rows of sps_sql_build_statistics()'s query, with the same columns,
 * values and order (rows tied on total, name and kind come in thread
 * order), computed in one pass over the slices: without a range every
 * slice, with one only the slices that overlap it, found through the
 * block index. Safe to call from any thread.
 *
 * Returns: (transfer full) (nullable): the rows, or %NULL with
 *   %G_IO_ERROR_CANCELLED
 */
SpsSqlResult *
sps_statistics_compute (SpsTrace          *trace,
                        SpsStatsGrouping   grouping,
                        GBytes            *slice_mask,
                        gboolean           has_range,
                        SpsTime            start,
                        SpsTime            end,
                        GCancellable      *cancellable,
                        GError           **error)
{
  g_autofree guint32 *group_of_name = NULL;
  g_autoptr(GArray) groups = g_array_new (FALSE, FALSE, sizeof (Group));
  Stats st = { 0, };
  guint n_strings;

  g_return_val_if_fail (SPS_IS_TRACE (trace), NULL);
  g_return_val_if_fail (grouping == SPS_STATS_BY_NAME || grouping == SPS_STATS_BY_THREAD, NULL);
  g_return_val_if_fail (!has_range || start <= end, NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  n_strings = sps_string_pool_get_size (sps_trace_get_strings (trace));
  group_of_name = g_new (guint32, MAX (n_strings, 1));
  memset (group_of_name, 0xff, sizeof (guint32) * MAX (n_strings, 1));

  st.trace = trace;
  st.slices = sps_trace_get_slices (trace);
  if (slice_mask != NULL)
    st.mask = g_bytes_get_data (slice_mask, &st.mask_len);
  st.has_range = has_range;
  st.start = start;
  st.end = end;
  st.groups = groups;
  st.group_of_name = group_of_name;
  st.cancellable = cancellable;
  st.countdown = CANCEL_CHECK_ROWS;
  st.cancelled = g_cancellable_is_cancelled (cancellable);

  count_tracks (&st, grouping);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  return build_result (&st, grouping);
}

typedef struct
{
  SpsTrace         *trace;
  SpsStatsGrouping  grouping;
  GBytes           *slice_mask;
  gboolean          has_range;
  SpsTime           start;
  SpsTime           end;
} ComputeData;

static void
compute_data_free (ComputeData *data)
{
  g_clear_object (&data->trace);
  g_clear_pointer (&data->slice_mask, g_bytes_unref);
  g_free (data);
}

static void
compute_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  ComputeData *data = task_data;
  GError *error = NULL;
  SpsSqlResult *result;

  result = sps_statistics_compute (data->trace, data->grouping, data->slice_mask, data->has_range,
                                   data->start, data->end, cancellable, &error);
  if (result == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, result, g_object_unref);
}

/**
 * sps_statistics_compute_async:
 * @trace: a finished #SpsTrace
 * @grouping: a row per name, or per thread and name
 * @slice_mask: (nullable): as for sps_statistics_compute()
 * @has_range: count only over [@start, @end)
 * @start: the range's start
 * @end: the range's end
 * @cancellable: (nullable): a #GCancellable
 * @callback: called on the caller's main context when done
 * @user_data: data for @callback
 *
 * sps_statistics_compute() on a worker thread.
 */
void
sps_statistics_compute_async (SpsTrace            *trace,
                              SpsStatsGrouping     grouping,
                              GBytes              *slice_mask,
                              gboolean             has_range,
                              SpsTime              start,
                              SpsTime              end,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  ComputeData *data;

  g_return_if_fail (SPS_IS_TRACE (trace));
  g_return_if_fail (!has_range || start <= end);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, sps_statistics_compute_async);
  data = g_new0 (ComputeData, 1);
  data->trace = g_object_ref (trace);
  data->grouping = grouping;
  data->slice_mask = slice_mask != NULL ? g_bytes_ref (slice_mask) : NULL;
  data->has_range = has_range;
  data->start = start;
  data->end = end;
  g_task_set_task_data (task, data, (GDestroyNotify) compute_data_free);
  g_task_run_in_thread (task, compute_thread);
}

/**
 * sps_statistics_compute_finish:
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the rows, or %NULL with @error set
 */
SpsSqlResult *
sps_statistics_compute_finish (GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == sps_statistics_compute_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
