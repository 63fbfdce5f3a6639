/* sps-trace-finish-pair.c: finish()'s pairing of begin/end and async events
 *
 * The passes that turn matched events into slices: B/E pairing per
 * thread, async trees per key (nestable b/e/n and legacy S/T/p/F), and
 * packing async trees on the lowest free lane of their process. They
 * only append slice records and set the async columns of the Finish
 * state; the per-table builders read them later.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-trace-finish"

#include "config.h"

#include <inttypes.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "sps-trace-finish-private.h"
#include "sps-trace-builder-private.h"
#include "sps-args-merge-private.h"
#include "sps-self-trace.h"

/* A legacy S still open: its slice and its steps' are made when the F
 * (or the end of its events) shows whether the steps agree. */
typedef struct
{
  guint32  start;             /* the S record */
  GArray  *steps;             /* its T and p records, in order; NULL if none */
} LegacyOpen;

typedef struct
{
  SpsTime key;
  guint32 lane;
} LaneHeapItem;

static void
push_row (GArray  *stack,
          guint32  row)
{
  g_array_append_val (stack, row);
}

/* The args of an end event belong to the slice it closes. */
static void
merge_end_args (SpsTraceBuilder *b,
                SpsArgsRef      *slice_args,
                SpsArgsRef       end_args)
{
  guint n_overwritten = 0;

  *slice_args = _sps_args_merge (b, *slice_args, end_args, &n_overwritten);
  if (n_overwritten > 0)
    _sps_trace_builder_warn_count (b, "arg_overwritten", n_overwritten,
                                   _("An end event gives an arg the begin gave too; the end's value is kept"));
}

/* B/E pairing: per thread, stably by time; an E closes the innermost open B
 * of the same sampled-ness. The stacks are linked through the rows: while
 * a B is open, its dur slot holds the row of the B it is nested in. */
void
_sps_pair_begin_end (Finish *f)
{
  SPS_SELF_TRACE_SCOPE ("finish/pair-begin-end");
  SpsTraceBuilder *b = f->builder;
  guint n = b->n_slice_records;
  guint nt = b->n_threads;
  g_autofree SpsTime *last_ts = NULL;
  g_autofree guint32 *order = NULL;
  g_autofree guint32 *top = NULL;
  gboolean sorted = TRUE;
  guint n_steps = n;

  if (b->n_begin_end_records == 0)
    return;

  /* Producers write each thread's B/E in time order; only when one does
   * not is the per-thread order computed. */
  last_ts = g_new (SpsTime, MAX (nt, 1));
  for (guint t = 0; t < nt; t++)
    last_ts[t] = SPS_TIME_MIN;
  for (guint r = 0; r < n && sorted; r++)
    if (b->slice_kind[r] != SPS_SLICE_RECORD_COMPLETE)
      {
        guint32 t = b->slice_thread[r];

        sorted = b->slice_ts[r] >= last_ts[t];
        last_ts[t] = b->slice_ts[r];
      }

  if (!sorted)
    {
      g_autofree guint32 *be_thread = g_new (guint32, n);
      g_autofree guint32 *start = g_new (guint32, nt + 1);

      for (guint r = 0; r < n; r++)
        be_thread[r] = b->slice_kind[r] == SPS_SLICE_RECORD_COMPLETE ? SPS_NO_INDEX : b->slice_thread[r];
      order = _sps_order_rows (be_thread, b->slice_ts, n, nt, start, &n_steps);
    }

  top = _sps_new_index_array (2 * nt);

  for (guint i = 0; i < n_steps; i++)
    {
      guint32 r = order != NULL ? order[i] : i;
      guint32 t = b->slice_thread[r];
      guint32 *slot;

      if (b->slice_kind[r] == SPS_SLICE_RECORD_COMPLETE)
        continue;

      slot = &top[2 * t + ((b->slice_flags[r] & SPS_SLICE_SAMPLED) != 0)];

      if (b->slice_kind[r] == SPS_SLICE_RECORD_BEGIN)
        {
          b->slice_dur[r] = *slot;
          *slot = r;
        }
      else if (*slot == SPS_NO_INDEX)
        {
          sps_trace_builder_warn (b, "unmatched_end",
                                  /* Translators: a time in nanoseconds, then a thread id */
                                  N_("An end at %" PRId64 " ns on thread %" PRId64
                                     " closes nothing; it is dropped"),
                                  b->slice_ts[r], b->thread_tid[t]);
        }
      else
        {
          guint32 open = *slot;

          /* The E's stack is where its slice ends */
          CONSTANT_COLUMN_WRITE (b, &slice_record_table, SLICE_COLUMN_END_CALLSITE, open, guint32,
                                 b->slice_callsite != NULL ? b->slice_callsite[r]
                                                           : b->slice_constants.callsite);
          *slot = (guint32) b->slice_dur[open];
          b->slice_dur[open] = time_span (b->slice_ts[open], b->slice_ts[r]);
          merge_end_args (b, &b->slice_args[open], b->slice_args[r]);
          /* The E closes it anyway, as the reference importers do. */
          if (b->slice_name[r] != 0 && b->slice_name[r] != b->slice_name[open])
            sps_trace_builder_warn (b, "begin_end_name_mismatch",
                                    /* Translators: a time in nanoseconds, then a thread id */
                                    N_("An end at %" PRId64 " ns on thread %" PRId64
                                       " names another slice than the begin it closes"),
                                    b->slice_ts[r], b->thread_tid[t]);
        }
    }

  for (guint s = 0; s < 2 * nt; s++)
    {
      guint32 next;

      for (guint32 open = top[s]; open != SPS_NO_INDEX; open = next)
        {
          next = (guint32) b->slice_dur[open];
          b->slice_dur[open] = 0;
          b->slice_flags[open] |= SPS_SLICE_UNFINISHED;
          g_array_append_val (f->unfinished, open);
          sps_trace_builder_warn (b, "unmatched_begin",
                                  /* Translators: a time in nanoseconds, then a thread id */
                                  N_("A begin at %" PRId64 " ns on thread %" PRId64
                                     " is never closed; it lasts to the end of the trace"),
                                  b->slice_ts[open], b->thread_tid[s / 2]);
        }
    }
}

/* Async slices */

static guint32
new_async_slice (Finish     *f,
                 guint32     record,
                 guint32     parent,
                 SpsTime     ts,
                 guint32     name,
                 guint32     category,
                 SpsArgsRef  args,
                 guint16     flags)
{
  SpsTraceBuilder *b = f->builder;
  guint32 a;
  guint16 depth = 0;

  if (parent != SPS_NO_INDEX)
    {
      if (f->async_slice_depth[parent] >= SPS_MAX_DEPTH)
        {
          sps_trace_builder_warn (b, "max_depth_exceeded",
                                  N_("Async slices nest deeper than %u levels; deeper ones are kept at the last level"),
                                  (guint) SPS_MAX_DEPTH);
          parent = f->async_slice_parent[parent];
          depth = SPS_MAX_DEPTH;
        }
      else
        depth = f->async_slice_depth[parent] + 1;
    }

  if (f->n_async_slices == f->async_slices_capacity)
    _sps_table_grow (f, &async_slice_table);

  a = f->n_async_slices++;
  /* The whole tree lives in the process of its root. */
  f->async_slice_process[a] = parent == SPS_NO_INDEX ? b->async_process[record]
                                                     : f->async_slice_process[parent];
  f->async_slice_parent[a] = parent;
  f->async_slice_depth[a] = depth;

  _sps_trace_builder_append_slice_record (b, SPS_SLICE_RECORD_ASYNC, SPS_NO_INDEX,
                                          ts, 0, name, category, args,
                                          flags | SPS_SLICE_ASYNC);
  g_assert (f->async_first + a == b->n_slice_records - 1);

  return a;
}

static void
close_async_slice (Finish  *f,
                   guint32  a,
                   SpsTime  ts)
{
  SpsTraceBuilder *b = f->builder;
  guint32 row = async_row (f, a);

  b->slice_dur[row] = time_span (b->slice_ts[row], MAX (ts, b->slice_ts[row]));
}

static void
leave_async_unfinished (Finish  *f,
                        guint32  a)
{
  SpsTraceBuilder *b = f->builder;
  guint32 row = async_row (f, a);

  b->slice_flags[row] |= SPS_SLICE_UNFINISHED;
  g_array_append_val (f->unfinished, row);
}

/* An async slice ends at @end_record's time, or, without one, with the
 * trace. */
static void
end_async_slice (Finish  *f,
                 guint32  a,
                 guint32  end_record)
{
  if (end_record != SPS_NO_INDEX)
    close_async_slice (f, a, f->builder->async_ts[end_record]);
  else
    leave_async_unfinished (f, a);
}

/* The slices of a legacy operation: the S (with @finish's args merged)
 * to @finish, SPS_NO_INDEX while it is open; a child per T from it to
 * the next step or the end, or a child per p from the step before it
 * (or the S) to it, and one from the last p to the end. Steps of both
 * kinds make no slice at all. */
static void
add_legacy_slices (Finish     *f,
                   LegacyOpen *open,
                   guint32     finish)
{
  SpsTraceBuilder *b = f->builder;
  guint32 start = open->start;
  guint n_steps = open->steps != NULL ? open->steps->len : 0;
  const guint32 *steps = n_steps > 0 ? (const guint32 *) open->steps->data : NULL;
  SpsArgsRef args = b->async_args[start];
  guint32 a;

  for (guint i = 1; i < n_steps; i++)
    if (b->async_phase[steps[i]] != b->async_phase[steps[0]])
      {
        sps_trace_builder_warn (b, "mixed_async_steps",
                                /* Translators: %<PRId64> is a time in nanoseconds */
                                N_("An async operation started at %" PRId64 " ns has both "
                                   "step-into and step-past steps; it is dropped"),
                                b->async_ts[start]);
        g_clear_pointer (&open->steps, g_array_unref);
        return;
      }

  if (finish != SPS_NO_INDEX)
    merge_end_args (b, &args, b->async_args[finish]);
  else
    sps_trace_builder_warn (b, "unmatched_async_begin",
                            /* Translators: %<PRId64> is a time in nanoseconds */
                            N_("An async start at %" PRId64 " ns is never finished"),
                            b->async_ts[start]);

  a = new_async_slice (f, start, SPS_NO_INDEX, b->async_ts[start], b->async_name[start],
                       b->async_category[start], args, SPS_SLICE_NONE);
  end_async_slice (f, a, finish);
  f->async_record_slice[start] = a;
  if (finish != SPS_NO_INDEX)
    f->async_record_slice[finish] = a;

  for (guint i = 0; i < n_steps; i++)
    {
      gboolean into = b->async_phase[steps[i]] == SPS_ASYNC_LEGACY_STEP_INTO;
      guint32 from = into ? steps[i] : i > 0 ? steps[i - 1] : start;
      guint32 to = into ? (i + 1 < n_steps ? steps[i + 1] : finish) : steps[i];
      guint32 child;

      child = new_async_slice (f, steps[i], a, b->async_ts[from], b->async_name[steps[i]],
                               b->async_category[start], b->async_args[steps[i]],
                               SPS_SLICE_STEP);
      if (to == SPS_NO_INDEX)
        b->slice_flags[async_row (f, child)] |= SPS_SLICE_UNFINISHED;
      end_async_slice (f, child, to);
      f->async_record_slice[steps[i]] = a;
    }

  /* After the last p, the rest of the operation is a child named by it,
   * as about:tracing shows it. */
  if (n_steps > 0 && b->async_phase[steps[0]] == SPS_ASYNC_LEGACY_STEP_PAST)
    {
      guint32 child = new_async_slice (f, steps[n_steps - 1], a, b->async_ts[steps[n_steps - 1]],
                                       b->async_name[start], b->async_category[start],
                                       SPS_ARGS_REF_NONE, SPS_SLICE_STEP);

      if (finish == SPS_NO_INDEX)
        b->slice_flags[async_row (f, child)] |= SPS_SLICE_UNFINISHED;
      end_async_slice (f, child, finish);
    }

  g_clear_pointer (&open->steps, g_array_unref);
}

/* Nestable: an e closes the innermost open b of its name (an e without
 * a name, the innermost); begins opened inside it stay open. */
static void
close_nestable (Finish  *f,
                guint32  record,
                GArray  *nestable)
{
  SpsTraceBuilder *b = f->builder;
  guint32 name = b->async_name[record];
  guint k = nestable->len;
  guint32 a;
  guint32 row;

  while (k > 0)
    {
      guint32 candidate = g_array_index (nestable, guint32, k - 1);

      if (name == 0 || b->slice_name[async_row (f, candidate)] == name)
        break;
      k--;
    }

  if (k == 0)
    {
      sps_trace_builder_warn (b, "unmatched_async_end",
                              /* Translators: %<PRId64> is a time in nanoseconds */
                              N_("An async end at %" PRId64 " ns closes nothing; it is dropped"),
                              b->async_ts[record]);
      return;
    }

  a = g_array_index (nestable, guint32, k - 1);
  row = async_row (f, a);
  close_async_slice (f, a, b->async_ts[record]);
  merge_end_args (b, &b->slice_args[row], b->async_args[record]);
  g_array_remove_index (nestable, k - 1);
  f->async_record_slice[record] = a;
}

static void
add_async_record (Finish  *f,
                  guint32  record,
                  GArray  *nestable,
                  GArray  *legacy)
{
  SpsTraceBuilder *b = f->builder;
  SpsTime ts = b->async_ts[record];
  guint32 top = nestable->len > 0 ? g_array_index (nestable, guint32, nestable->len - 1) : SPS_NO_INDEX;

  switch ((SpsAsyncPhase) b->async_phase[record])
    {
    case SPS_ASYNC_BEGIN:
      {
        guint32 a = new_async_slice (f, record, top, ts, b->async_name[record],
                                     b->async_category[record], b->async_args[record],
                                     SPS_SLICE_NONE);

        push_row (nestable, a);
        f->async_record_slice[record] = a;
      }
      break;

    case SPS_ASYNC_END:
      close_nestable (f, record, nestable);
      break;

    case SPS_ASYNC_LEGACY_START:
      {
        LegacyOpen open = { record, NULL };

        /* One operation per (name, id) at a time: a second S is an error
         * in the reference importer, and its steps and F go to the first. */
        if (legacy->len > 0)
          {
            sps_trace_builder_warn (b, "duplicate_async_start",
                                    /* Translators: %<PRId64> is a time in nanoseconds */
                                    N_("An async start at %" PRId64 " ns has the name and id of "
                                       "one still open; it is dropped"),
                                    ts);
            break;
          }
        g_array_append_val (legacy, open);
      }
      break;

    case SPS_ASYNC_LEGACY_STEP_INTO:
    case SPS_ASYNC_LEGACY_STEP_PAST:
      {
        LegacyOpen *open;

        if (legacy->len == 0)
          {
            sps_trace_builder_warn (b, "unmatched_async_step",
                                    /* Translators: %<PRId64> is a time in nanoseconds */
                                    N_("An async step at %" PRId64 " ns has no start; it is dropped"),
                                    ts);
            break;
          }

        open = &g_array_index (legacy, LegacyOpen, legacy->len - 1);
        if (open->steps == NULL)
          open->steps = g_array_new (FALSE, FALSE, sizeof (guint32));
        g_array_append_val (open->steps, record);
      }
      break;

    case SPS_ASYNC_LEGACY_FINISH:
      if (legacy->len == 0)
        {
          sps_trace_builder_warn (b, "unmatched_async_end",
                                  /* Translators: %<PRId64> is a time in nanoseconds */
                                  N_("An async finish at %" PRId64 " ns closes nothing; it is dropped"),
                                  ts);
          break;
        }

      add_legacy_slices (f, &g_array_index (legacy, LegacyOpen, legacy->len - 1), record);
      g_array_set_size (legacy, legacy->len - 1);
      break;

    default:
      g_assert_not_reached ();
    }
}

/* What is still open when a key's events run out lasts to the trace end. */
static void
leave_key_open (Finish *f,
                GArray *nestable,
                GArray *legacy)
{
  SpsTraceBuilder *b = f->builder;

  for (guint i = 0; i < nestable->len; i++)
    {
      guint32 a = g_array_index (nestable, guint32, i);

      leave_async_unfinished (f, a);
      sps_trace_builder_warn (b, "unmatched_async_begin",
                              /* Translators: %<PRId64> is a time in nanoseconds */
                              N_("An async begin at %" PRId64 " ns is never closed"),
                              b->slice_ts[async_row (f, a)]);
    }

  for (guint i = 0; i < legacy->len; i++)
    add_legacy_slices (f, &g_array_index (legacy, LegacyOpen, i), SPS_NO_INDEX);

  g_array_set_size (nestable, 0);
  g_array_set_size (legacy, 0);
}

void
_sps_pair_async (Finish *f)
{
  SPS_SELF_TRACE_SCOPE ("finish/pair-async");
  SpsTraceBuilder *b = f->builder;
  guint n = b->n_async;
  g_autofree guint32 *order = NULL;
  g_autoptr(GArray) nestable = NULL;
  g_autoptr(GArray) legacy = NULL;
  guint j;

  if (n == 0)
    return;

  order = _sps_order_by_key_and_time (b->async_key, b->async_ts, n);
  f->async_record_slice = _sps_new_index_array (n);
  nestable = g_array_new (FALSE, FALSE, sizeof (guint32));
  legacy = g_array_new (FALSE, FALSE, sizeof (LegacyOpen));

  for (guint i = 0; i < n; i = j)
    {
      guint64 key = b->async_key[order[i]];

      for (j = i; j < n && b->async_key[order[j]] == key; j++)
        add_async_record (f, order[j], nestable, legacy);

      leave_key_open (f, nestable, legacy);
    }
}

/* Binary min-heaps of lanes for lane packing: the busy lanes keyed by
 * the time they are free again, the free lanes keyed by their number. */

static void
lane_heap_push (GArray  *heap,
                SpsTime  key,
                guint32  lane)
{
  LaneHeapItem item = { key, lane };
  LaneHeapItem *h;
  guint i;

  g_array_append_val (heap, item);
  h = (LaneHeapItem *) (gpointer) heap->data;
  for (i = heap->len - 1; i > 0 && h[(i - 1) / 2].key > item.key; i = (i - 1) / 2)
    h[i] = h[(i - 1) / 2];
  h[i] = item;
}

static guint32
lane_heap_pop (GArray *heap)
{
  LaneHeapItem *h = (LaneHeapItem *) (gpointer) heap->data;
  guint32 lane = h[0].lane;
  LaneHeapItem last = h[heap->len - 1];
  guint n = heap->len - 1;
  guint i = 0;

  for (;;)
    {
      guint c = 2 * i + 1;

      if (c >= n)
        break;
      if (c + 1 < n && h[c + 1].key < h[c].key)
        c++;
      if (h[c].key >= last.key)
        break;
      h[i] = h[c];
      i = c;
    }
  if (n > 0)
    h[i] = last;
  g_array_set_size (heap, n);

  return lane;
}

/* Each async tree goes, in order of its root's start, on the lowest lane
 * of its process that is free from then on. */
void
_sps_pack_async_lanes (Finish *f)
{
  SPS_SELF_TRACE_SCOPE ("finish/pack-async-lanes");
  SpsTraceBuilder *b = f->builder;
  guint n = f->n_async_slices;
  const SpsTime *ts;
  const SpsTime *dur;
  g_autofree guint32 *root = NULL;
  g_autofree SpsTime *tree_end = NULL;
  g_autofree guint32 *root_process = NULL;
  g_autofree guint32 *order = NULL;
  g_autofree guint32 *start = NULL;
  g_autoptr(GArray) busy = NULL;
  g_autoptr(GArray) free_lanes = NULL;
  guint n_roots;

  f->process_n_lanes = g_new0 (guint32, MAX (b->n_processes, 1));
  f->process_n_gc_lanes = g_new0 (guint32, MAX (b->n_processes, 1));

  if (n == 0)
    return;

  ts = b->slice_ts + f->async_first;
  dur = b->slice_dur + f->async_first;

  root = g_new (guint32, n);
  tree_end = g_new (SpsTime, n);
  root_process = g_new (guint32, n);

  /* A parent is always created before its children. */
  for (guint a = 0; a < n; a++)
    {
      guint32 parent = f->async_slice_parent[a];

      root[a] = parent == SPS_NO_INDEX ? a : root[parent];
      root_process[a] = parent == SPS_NO_INDEX ? f->async_slice_process[a] : SPS_NO_INDEX;
      tree_end[a] = ts[a] + dur[a];
      if (tree_end[a] > tree_end[root[a]])
        tree_end[root[a]] = tree_end[a];
    }

  start = g_new (guint32, b->n_processes + 1);
  order = _sps_order_rows (root_process, ts, n, b->n_processes, start, &n_roots);
  g_clear_pointer (&root_process, g_free);

  f->async_slice_lane = g_new (guint32, n);
  busy = g_array_new (FALSE, FALSE, sizeof (LaneHeapItem));
  free_lanes = g_array_new (FALSE, FALSE, sizeof (LaneHeapItem));

  /* The GC slices' trees (category gc_category) are packed first, on
   * lanes of their own: the process's "GC" track */
  for (guint p = 0; p < b->n_processes; p++)
    {
      guint32 n_lanes = 0;

      for (guint gc_pass = b->gc_category != 0 ? 0 : 1; gc_pass < 2; gc_pass++)
        {
          guint32 first_lane = n_lanes;

          g_array_set_size (busy, 0);
          g_array_set_size (free_lanes, 0);

          for (guint i = start[p]; i < start[p + 1]; i++)
            {
              guint32 a = order[i];
              gboolean is_gc = b->gc_category != 0 &&
                               b->slice_category[async_row (f, a)] == b->gc_category;
              guint32 lane;

              if (is_gc != (gc_pass == 0))
                continue;

              while (busy->len > 0 && g_array_index (busy, LaneHeapItem, 0).key <= ts[a])
                {
                  guint32 freed = lane_heap_pop (busy);

                  lane_heap_push (free_lanes, freed, freed);
                }

              lane = free_lanes->len > 0 ? lane_heap_pop (free_lanes) : n_lanes++;
              lane_heap_push (busy, tree_end[a], lane);
              f->async_slice_lane[a] = lane;
            }

          if (gc_pass == 0)
            f->process_n_gc_lanes[p] = n_lanes - first_lane;
        }

      f->process_n_lanes[p] = n_lanes;
    }

  for (guint a = 0; a < n; a++)
    f->async_slice_lane[a] = f->async_slice_lane[root[a]];
}
