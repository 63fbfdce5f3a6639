/* sps-stack-repair.c: restores the root frames of stacks cut by a depth cap
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-stack-repair"

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "sps-frame-glob-private.h"
#include "sps-stack-repair.h"
#include "sps-trace-private.h"

/**
 * SpsStackRepair:
 *
 * An #SpsAnalysis for sample streams whose stacks were cut at a known
 * depth (EventPipe keeps the 100 frames nearest the leaf and silently
 * drops the rest, so the *root* frames are lost).
 *
 * Per thread, in time order, a sample with exactly `depth-cap` frames
 * whose root frame differs from the root of the previous sample (as
 * repaired) is matched against every position of its root frame in that
 * previous sample; the position with the longest run of equal frames
 * toward the leaf wins (on a tie the most rootward one), and the previous
 * sample's frames above it are prepended. Frames are compared by *name*,
 * so two call sites in one method are the same frame. A sample without
 * any such position is unrecoverable: it is deleted (or, with
 * `keep-unrecoverable`, kept and flagged %SPS_SAMPLE_TRUNCATED) and the
 * next sample is compared with the last recovered or complete one. The
 * first sample of a thread is never changed.
 *
 * Then, in this order, `first-span` drops the frames from the root up to
 * the first one that matches its pattern (samples with no match are
 * dropped) and `span-filter` drops every frame that does not match
 * (samples left with no frame are dropped). Patterns are Unix wildcards
 * (`*`, `?`) matched case-insensitively against the whole frame name
 * without its `module!` prefix.
 *
 * Options (`a{sv}`): "repair" (b, default %TRUE), "depth-cap" (u, default
 * 100), "keep-unrecoverable" (b), "first-span" (s), "span-filter" (s),
 * "keep-raw" (b, default %TRUE: keep the raw sample table).
 *
 * When anything changed, the samples as read are kept in the raw sample
 * table (sps_trace_get_raw_samples()) and a summary is stored under
 * %SPS_STACK_REPAIR_METADATA_KEY.
 */

struct _SpsStackRepair
{
  GObject        parent_instance;

  /* Deferred stacks (see sps_stack_repair_set_deferred_stacks()),
   * borrowed for the next run */
  guint          n_deferred_rows;
  const guint32 *row_stack;
  guint          n_stacks;
  const guint32 *stack_start;
  const guint32 *stack_len;
  const guint32 *stack_frames;
};

static void sps_stack_repair_iface_init (SpsAnalysisInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SpsStackRepair, sps_stack_repair, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SPS_TYPE_ANALYSIS, sps_stack_repair_iface_init))

#define DEFAULT_DEPTH_CAP 100

/* Why a sample row goes */
#define REMOVED_UNRECOVERABLE 1
#define REMOVED_FILTERED      2

typedef struct
{
  SpsTime first;
  SpsTime last;
} Range;

typedef struct
{
  guint32  thread;
  guint    count;
  GArray  *ranges;             /* Range */
} ThreadReport;

typedef struct
{
  SpsTraceBuilder *b;
  SpsStackRepair  *self;

  /* Callsite of each deferred stack once interned, else SPS_NO_INDEX */
  guint32         *deferred_callsite;

  guint            depth_cap;
  gboolean         keep_raw;
  gboolean         repair;
  gboolean         keep;
  GPatternSpec    *first_span;
  GPatternSpec    *span_filter;

  /* Per sample row */
  guint32         *callsite;
  guint8          *flags;
  guint8          *remove;

  /* Root frame name of each callsite that existed before the repair */
  guint32         *root_name;
  guint            n_raw_callsites;

  /* Scratch stacks, root first */
  GArray          *prev_frames;
  GArray          *prev_callsites;
  GArray          *cur_frames;

  /* (previous leaf, current raw leaf) → repaired leaf + 1, or 0 for
   * unrecoverable: a hot spot repeats one stack for many samples, and the
   * answer depends only on the two stacks */
  guint64         *memo_keys;
  guint32         *memo_values;
  guint            n_memo;
  guint            memo_capacity;

  guint64          n_repaired;
  guint64          n_unrecoverable;
  guint64          n_filtered_out;
  GArray          *reports;    /* ThreadReport */
} Repair;

static void
thread_report_clear (gpointer data)
{
  ThreadReport *report = data;

  g_clear_pointer (&report->ranges, g_array_unref);
}

static inline guint32
frame_name (SpsTraceBuilder *b,
            guint32          frame)
{
  return b->frame_name[frame];
}

/* Fills @frames (frame indexes) and, if not NULL, @callsites with the
 * stack ending at @leaf, root first. */
static void
materialise (SpsTraceBuilder *b,
             guint32          leaf,
             GArray          *frames,
             GArray          *callsites)
{
  guint depth = 0;
  guint32 c;

  for (c = leaf; c != SPS_NO_INDEX; c = b->callsite_parent[c])
    depth++;

  g_array_set_size (frames, depth);
  if (callsites != NULL)
    g_array_set_size (callsites, depth);

  for (c = leaf; c != SPS_NO_INDEX; c = b->callsite_parent[c])
    {
      depth--;
      g_array_index (frames, guint32, depth) = b->callsite_frame[c];
      if (callsites != NULL)
        g_array_index (callsites, guint32, depth) = c;
    }
}

/* The seed's rule: every position of the current root in the previous
 * stack is a candidate; the longest leafward overlap wins, the first
 * (most rootward) on a tie. Returns the position or -1. */
static gint
best_candidate (SpsTraceBuilder *b,
                GArray          *prev,
                GArray          *cur)
{
  const guint32 *p = (const guint32 *) (gpointer) prev->data;
  const guint32 *q = (const guint32 *) (gpointer) cur->data;
  guint32 root = frame_name (b, q[0]);
  gint best = -1;
  guint best_overlap = 0;

  for (guint i = 0; i < prev->len; i++)
    {
      guint overlap = 0;

      if (frame_name (b, p[i]) != root)
        continue;

      while (i + overlap < prev->len && overlap < cur->len &&
             frame_name (b, p[i + overlap]) == frame_name (b, q[overlap]))
        overlap++;

      if (best < 0 || overlap > best_overlap)
        {
          best = (gint) i;
          best_overlap = overlap;
        }
    }

  return best;
}

/* Memo keys of deferred stacks: apart from callsite indexes */
#define DEFERRED_KEY_BIT (1u << 31)

static inline guint32
row_deferred (Repair  *r,
              guint32  row)
{
  return row < r->self->n_deferred_rows ? r->self->row_stack[row] : SPS_NO_INDEX;
}

/* The callsite chain of deferred stack @stack, interned on first use */
static guint32
deferred_chain (Repair  *r,
                guint32  stack)
{
  const guint32 *frames;
  guint32 callsite = SPS_NO_INDEX;

  if (r->deferred_callsite[stack] != SPS_NO_INDEX)
    return r->deferred_callsite[stack];

  frames = r->self->stack_frames + r->self->stack_start[stack];
  for (guint i = 0; i < r->self->stack_len[stack]; i++)
    callsite = sps_trace_builder_intern_callsite (r->b, callsite, frames[i]);
  r->deferred_callsite[stack] = callsite;

  return callsite;
}

#define MEMO_EMPTY G_MAXUINT64

static inline guint
memo_slot (guint64 key,
           guint   capacity)
{
  key ^= key >> 31;
  key *= G_GUINT64_CONSTANT (0x7fb5d329728ea185);
  key ^= key >> 27;

  return (guint) key & (capacity - 1);
}

/* Returns TRUE and sets @value when (@prev, @cur) was seen */
static gboolean
memo_lookup (Repair  *r,
             guint32  prev,
             guint32  cur,
             guint32 *value)
{
  guint64 key = (guint64) prev << 32 | cur;
  guint slot;

  if (r->memo_capacity == 0)
    return FALSE;

  for (slot = memo_slot (key, r->memo_capacity); r->memo_keys[slot] != MEMO_EMPTY;
       slot = (slot + 1) & (r->memo_capacity - 1))
    if (r->memo_keys[slot] == key)
      {
        *value = r->memo_values[slot];
        return TRUE;
      }

  return FALSE;
}

static void
memo_insert (Repair  *r,
             guint32  prev,
             guint32  cur,
             guint32  value)
{
  guint64 key = (guint64) prev << 32 | cur;
  guint slot;

  if ((r->n_memo + 1) * 2 > r->memo_capacity)
    {
      guint64 *old_keys = r->memo_keys;
      guint32 *old_values = r->memo_values;
      guint old_capacity = r->memo_capacity;

      r->memo_capacity = MAX (old_capacity * 2, 1024);
      r->memo_keys = g_new (guint64, r->memo_capacity);
      r->memo_values = g_new (guint32, r->memo_capacity);
      memset (r->memo_keys, 0xff, r->memo_capacity * sizeof (guint64));
      for (guint i = 0; i < old_capacity; i++)
        if (old_keys[i] != MEMO_EMPTY)
          {
            for (slot = memo_slot (old_keys[i], r->memo_capacity); r->memo_keys[slot] != MEMO_EMPTY;
                 slot = (slot + 1) & (r->memo_capacity - 1))
              ;
            r->memo_keys[slot] = old_keys[i];
            r->memo_values[slot] = old_values[i];
          }
      g_free (old_keys);
      g_free (old_values);
    }

  for (slot = memo_slot (key, r->memo_capacity); r->memo_keys[slot] != MEMO_EMPTY;
       slot = (slot + 1) & (r->memo_capacity - 1))
    ;
  r->memo_keys[slot] = key;
  r->memo_values[slot] = value;
  r->n_memo++;
}

static void
note_unrecoverable (Repair  *r,
                    guint32  row,
                    gboolean after_unrecoverable)
{
  SpsTraceBuilder *b = r->b;
  ThreadReport *report = NULL;
  SpsTime ts = b->sample_ts[row];

  if (r->reports->len > 0)
    {
      report = &g_array_index (r->reports, ThreadReport, r->reports->len - 1);
      if (report->thread != b->sample_thread[row])
        report = NULL;
    }

  if (report == NULL)
    {
      ThreadReport fresh = { b->sample_thread[row], 0, g_array_new (FALSE, FALSE, sizeof (Range)) };

      g_array_append_val (r->reports, fresh);
      report = &g_array_index (r->reports, ThreadReport, r->reports->len - 1);
    }

  report->count++;
  if (after_unrecoverable && report->ranges->len > 0)
    g_array_index (report->ranges, Range, report->ranges->len - 1).last = ts;
  else
    {
      Range range = { ts, ts };

      g_array_append_val (report->ranges, range);
    }

  r->n_unrecoverable++;
}

/* Repairs the samples @rows (one thread's, in time order). */
static void
repair_thread (Repair        *r,
               const guint32 *rows,
               guint          n_rows)
{
  SpsTraceBuilder *b = r->b;
  guint32 prev_leaf = SPS_NO_INDEX;
  guint32 prev_root = 0;
  guint32 materialised_leaf = SPS_NO_INDEX;
  gboolean after_unrecoverable = FALSE;

  for (guint i = 0; i < n_rows; i++)
    {
      guint32 row = rows[i];
      guint32 leaf = b->sample_callsite[row];
      guint32 deferred = row_deferred (r, row);
      guint32 key;
      guint32 root;
      guint depth;
      gint best;
      guint32 base;

      if (deferred != SPS_NO_INDEX)
        {
          root = frame_name (b, r->self->stack_frames[r->self->stack_start[deferred]]);
          depth = r->self->stack_len[deferred];
          key = deferred | DEFERRED_KEY_BIT;
        }
      else if (leaf != SPS_NO_INDEX)
        {
          root = r->root_name[leaf];
          depth = (guint) b->callsite_depth[leaf] + 1;
          key = leaf;
        }
      else
        continue;

      if (prev_leaf == SPS_NO_INDEX || depth != r->depth_cap || root == prev_root)
        {
          if (deferred != SPS_NO_INDEX)
            r->callsite[row] = leaf = deferred_chain (r, deferred);
          prev_leaf = leaf;
          prev_root = root;
          after_unrecoverable = FALSE;
          continue;
        }

      if (!memo_lookup (r, prev_leaf, key, &base))
        {
          if (materialised_leaf != prev_leaf)
            {
              materialise (b, prev_leaf, r->prev_frames, r->prev_callsites);
              materialised_leaf = prev_leaf;
            }
          if (deferred != SPS_NO_INDEX)
            {
              g_array_set_size (r->cur_frames, 0);
              g_array_append_vals (r->cur_frames, r->self->stack_frames + r->self->stack_start[deferred], depth);
            }
          else
            materialise (b, leaf, r->cur_frames, NULL);

          best = best_candidate (b, r->prev_frames, r->cur_frames);
          if (best < 0)
            base = 0;
          else
            {
              const guint32 *pf = (const guint32 *) (gpointer) r->prev_frames->data;
              const guint32 *pc = (const guint32 *) (gpointer) r->prev_callsites->data;
              const guint32 *cf = (const guint32 *) (gpointer) r->cur_frames->data;
              guint k = 0;

              /* best > 0: position 0 would mean equal roots. Where the
               * previous stack goes on with the very same frames, its
               * callsites are the result's: no need to intern them. */
              base = pc[best - 1];
              while (best + k < r->prev_frames->len && k < r->cur_frames->len && pf[best + k] == cf[k])
                base = pc[best + k++];
              for (; k < r->cur_frames->len; k++)
                base = sps_trace_builder_intern_callsite (b, base, cf[k]);
              base++;
            }
          memo_insert (r, prev_leaf, key, base);
        }

      if (base == 0)
        {
          note_unrecoverable (r, row, after_unrecoverable);
          after_unrecoverable = TRUE;
          if (r->keep)
            {
              r->flags[row] |= SPS_SAMPLE_TRUNCATED;
              if (deferred != SPS_NO_INDEX)
                r->callsite[row] = deferred_chain (r, deferred);
            }
          else
            r->remove[row] = REMOVED_UNRECOVERABLE;
          continue;
        }
      base--;

      r->callsite[row] = base;
      r->flags[row] |= SPS_SAMPLE_REPAIRED;
      r->n_repaired++;
      prev_leaf = base;
      /* prev_root stays: the repaired stack has the previous root */
      after_unrecoverable = FALSE;
    }
}

static gboolean
frame_matches (SpsTraceBuilder *b,
               GPatternSpec    *spec,
               guint32          frame)
{
  return _sps_frame_glob_match (spec,
                                sps_string_pool_get (b->strings, b->frame_name[frame], NULL),
                                b->frame_module[frame] != 0 ?
                                sps_string_pool_get (b->strings, b->frame_module[frame], NULL) : NULL);
}

/* -1 unknown, 0 no, 1 yes, per frame */
static gboolean
cached_match (SpsTraceBuilder *b,
              GPatternSpec    *spec,
              gint8           *cache,
              guint32          frame)
{
  if (cache[frame] < 0)
    cache[frame] = frame_matches (b, spec, frame) ? 1 : 0;

  return cache[frame] == 1;
}

/* Applies first-span then span-filter to every kept sample. */
static void
filter_samples (Repair *r)
{
  SpsTraceBuilder *b = r->b;
  guint n_callsites = b->n_callsites;
  guint n_frames = b->n_frames;
  g_autofree guint32 *mapped = g_new (guint32, MAX (n_callsites, 1));
  g_autofree guint8 *known = g_new0 (guint8, MAX (n_callsites, 1));
  g_autofree gint8 *first_cache = g_new (gint8, MAX (n_frames, 1));
  g_autofree gint8 *filter_cache = g_new (gint8, MAX (n_frames, 1));
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (guint32));

  memset (first_cache, -1, MAX (n_frames, 1));
  memset (filter_cache, -1, MAX (n_frames, 1));

  for (guint32 row = 0; row < b->n_samples; row++)
    {
      guint32 leaf = r->callsite[row];
      guint32 result;

      if (r->remove[row] || leaf == SPS_NO_INDEX)
        continue;

      if (!known[leaf])
        {
          guint start = 0;

          materialise (b, leaf, frames, NULL);

          if (r->first_span != NULL)
            {
              while (start < frames->len &&
                     !cached_match (b, r->first_span, first_cache, g_array_index (frames, guint32, start)))
                start++;
            }

          result = SPS_NO_INDEX;
          for (guint k = start; k < frames->len; k++)
            {
              guint32 frame = g_array_index (frames, guint32, k);

              if (r->span_filter != NULL && !cached_match (b, r->span_filter, filter_cache, frame))
                continue;
              result = sps_trace_builder_intern_callsite (b, result, frame);
            }

          mapped[leaf] = result;
          known[leaf] = TRUE;
        }

      result = mapped[leaf];
      if (result == SPS_NO_INDEX)
        {
          r->remove[row] = REMOVED_FILTERED;
          r->n_filtered_out++;
        }
      else
        r->callsite[row] = result;
    }
}

static GPatternSpec *
compile_pattern (GVariant    *options,
                 const char  *key,
                 GError     **error)
{
  g_autofree char *pattern = NULL;

  if (options == NULL || !g_variant_lookup (options, key, "s", &pattern))
    return NULL;

  return _sps_frame_glob_new (pattern, key, error);
}

static int
compare_rows_by_time (gconstpointer a,
                      gconstpointer b,
                      gpointer      user_data)
{
  const SpsTime *ts = user_data;
  guint32 ra = *(const guint32 *) a;
  guint32 rb = *(const guint32 *) b;

  if (ts[ra] != ts[rb])
    return ts[ra] < ts[rb] ? -1 : 1;

  return ra < rb ? -1 : (ra > rb);
}

/* Rows grouped by thread (ascending thread index), each group in time
 * order (input order on ties); @start receives the groups' bounds. */
static guint32 *
order_by_thread (SpsTraceBuilder *b,
                 guint32         *start)
{
  guint n = b->n_samples;
  guint nt = b->n_threads;
  guint32 *order = g_new (guint32, MAX (n, 1));
  g_autofree guint32 *cursor = g_new (guint32, MAX (nt, 1));

  memset (start, 0, (nt + 1) * sizeof (guint32));
  for (guint32 row = 0; row < n; row++)
    start[b->sample_thread[row] + 1]++;
  for (guint t = 0; t < nt; t++)
    start[t + 1] += start[t];
  memcpy (cursor, start, nt * sizeof (guint32));
  for (guint32 row = 0; row < n; row++)
    order[cursor[b->sample_thread[row]]++] = row;

  for (guint t = 0; t < nt; t++)
    {
      gboolean sorted = TRUE;

      for (guint32 i = start[t] + 1; i < start[t + 1] && sorted; i++)
        sorted = b->sample_ts[order[i - 1]] <= b->sample_ts[order[i]];
      if (!sorted)
        g_qsort_with_data (order + start[t], (gint) (start[t + 1] - start[t]), sizeof (guint32),
                      compare_rows_by_time, b->sample_ts);
    }

  return order;
}

static int
compare_reports (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  SpsTraceBuilder *builder = user_data;
  gint64 ta = builder->thread_tid[((const ThreadReport *) a)->thread];
  gint64 tb = builder->thread_tid[((const ThreadReport *) b)->thread];

  return ta < tb ? -1 : (ta > tb);
}

static void
store_summary (Repair *r,
               guint64 n_samples)
{
  SpsTraceBuilder *b = r->b;
  g_autoptr(GString) json = g_string_new (NULL);

  g_qsort_with_data (r->reports->data, (gint) r->reports->len, sizeof (ThreadReport), compare_reports, b);

  g_string_append_printf (json,
                          "{\"depth_cap\":%u,\"samples\":%" G_GUINT64_FORMAT
                          ",\"repaired\":%" G_GUINT64_FORMAT ",\"unrecoverable\":%" G_GUINT64_FORMAT
                          ",\"kept_unrecoverable\":%s,\"filtered_out\":%" G_GUINT64_FORMAT ",\"threads\":[",
                          r->depth_cap, n_samples, r->n_repaired, r->n_unrecoverable,
                          r->keep ? "true" : "false", r->n_filtered_out);

  for (guint i = 0; i < r->reports->len; i++)
    {
      const ThreadReport *report = &g_array_index (r->reports, ThreadReport, i);

      g_string_append_printf (json, "%s{\"tid\":%" G_GINT64_FORMAT ",\"count\":%u,\"ranges\":[",
                              i > 0 ? "," : "", b->thread_tid[report->thread], report->count);
      for (guint k = 0; k < report->ranges->len; k++)
        {
          const Range *range = &g_array_index (report->ranges, Range, k);

          g_string_append_printf (json, "%s[%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "]",
                                  k > 0 ? "," : "", range->first, range->last);
        }
      g_string_append (json, "]}");
    }
  g_string_append (json, "]}");

  sps_trace_builder_add_metadata (b, SPS_STACK_REPAIR_METADATA_KEY,
                                  sps_trace_builder_add_args_text (b, json->str, json->len));
}

static gboolean
sps_stack_repair_run (SpsAnalysis      *analysis,
                      SpsTraceBuilder  *b,
                      GVariant         *options,
                      SpsProgress      *progress,
                      GError          **error)
{
  g_autofree guint32 *order = NULL;
  g_autofree guint32 *start = NULL;
  g_autoptr(GError) local_error = NULL;
  Repair r = { 0, };
  guint64 n_samples = b->n_samples;
  gboolean changed;

  g_assert (SPS_IS_STACK_REPAIR (analysis));
  g_assert (SPS_STACK_REPAIR (analysis)->n_deferred_rows <= b->n_samples);

  r.b = b;
  r.self = SPS_STACK_REPAIR (analysis);
  r.depth_cap = DEFAULT_DEPTH_CAP;
  r.repair = TRUE;
  r.keep_raw = TRUE;
  if (options != NULL)
    {
      g_variant_lookup (options, "keep-raw", "b", &r.keep_raw);
      g_variant_lookup (options, "depth-cap", "u", &r.depth_cap);
      g_variant_lookup (options, "repair", "b", &r.repair);
      g_variant_lookup (options, "keep-unrecoverable", "b", &r.keep);
    }

  r.first_span = compile_pattern (options, "first-span", &local_error);
  if (local_error == NULL)
    r.span_filter = compile_pattern (options, "span-filter", &local_error);
  if (local_error != NULL)
    {
      g_clear_pointer (&r.first_span, g_pattern_spec_free);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  if (progress != NULL)
    sps_progress_set_phase (progress, SPS_PROGRESS_PHASE_PARSING, _("Repairing stacks"));

  r.callsite = g_memdup2 (b->sample_callsite, MAX (b->n_samples, 1) * sizeof (guint32));
  r.flags = g_new (guint8, MAX (b->n_samples, 1));
  for (guint32 row = 0; row < b->n_samples; row++)
    r.flags[row] = SPS_SAMPLE_VALUE_OF_BUILDER (b, flags, row);
  r.remove = g_new0 (guint8, MAX (b->n_samples, 1));
  r.reports = g_array_new (FALSE, FALSE, sizeof (ThreadReport));
  g_array_set_clear_func (r.reports, thread_report_clear);
  r.prev_frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  r.prev_callsites = g_array_new (FALSE, FALSE, sizeof (guint32));
  r.cur_frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  r.deferred_callsite = g_new (guint32, MAX (r.self->n_stacks, 1));
  for (guint i = 0; i < r.self->n_stacks; i++)
    r.deferred_callsite[i] = SPS_NO_INDEX;

  if (r.repair && r.depth_cap > 0)
    {
      /* Callsites are created after their parents, so one pass in index
       * order gives every root. */
      r.n_raw_callsites = b->n_callsites;
      r.root_name = g_new (guint32, MAX (r.n_raw_callsites, 1));
      for (guint32 c = 0; c < r.n_raw_callsites; c++)
        {
          guint32 parent = b->callsite_parent[c];

          r.root_name[c] = parent == SPS_NO_INDEX ? frame_name (b, b->callsite_frame[c]) : r.root_name[parent];
        }

      start = g_new (guint32, b->n_threads + 1);
      order = order_by_thread (b, start);
      for (guint t = 0; t < b->n_threads; t++)
        {
          if (progress != NULL)
            {
              if (sps_progress_is_cancelled (progress))
                break;
              sps_progress_set_fraction (progress, (double) start[t] / (double) MAX (b->n_samples, 1));
            }
          repair_thread (&r, order + start[t], start[t + 1] - start[t]);
        }
    }

  if (progress == NULL || !sps_progress_is_cancelled (progress))
    {
      /* Deferred stacks the repair did not decide on (no repair, or rows
       * it skipped) become callsites as read, before the filters */
      for (guint32 row = 0; row < b->n_samples; row++)
        {
          guint32 deferred = row_deferred (&r, row);

          if (deferred != SPS_NO_INDEX && r.callsite[row] == SPS_NO_INDEX && !r.remove[row])
            r.callsite[row] = deferred_chain (&r, deferred);
        }

      if (r.first_span != NULL || r.span_filter != NULL)
        filter_samples (&r);

      changed = r.n_repaired > 0 || r.n_unrecoverable > 0 || r.first_span != NULL || r.span_filter != NULL;
      for (guint32 row = 0; row < b->n_samples; row++)
        {
          guint32 deferred = row_deferred (&r, row);
          guint32 raw_callsite = b->sample_callsite[row];
          guint8 raw_flags = SPS_SAMPLE_VALUE_OF_BUILDER (b, flags, row);

          if (!changed || !r.keep_raw)
            continue;

          if (deferred != SPS_NO_INDEX)
            raw_callsite = deferred_chain (&r, deferred);

          /* The raw view shows what the input holds; the cut stacks that
           * could not be repaired are marked as such there. */
          if (r.remove[row] == REMOVED_UNRECOVERABLE || (r.flags[row] & SPS_SAMPLE_TRUNCATED) != 0)
            raw_flags |= SPS_SAMPLE_TRUNCATED;
          sps_trace_builder_add_raw_sample (b, b->sample_thread[row], b->sample_ts[row],
                                            SPS_SAMPLE_VALUE_OF_BUILDER (b, name, row), raw_callsite,
                                            SPS_SAMPLE_VALUE_OF_BUILDER (b, raw_stack_ref, row),
                                            SPS_SAMPLE_VALUE_OF_BUILDER (b, weight, row),
                                            SPS_SAMPLE_VALUE_OF_BUILDER (b, weight_unit, row), raw_flags);
        }

      /* (No samples: the builder has no columns yet, NULL pointers.) */
      if (b->n_samples > 0)
        {
          memcpy (b->sample_callsite, r.callsite, b->n_samples * sizeof (guint32));
          _sps_trace_builder_set_sample_flags (b, r.flags);
        }
      if (changed)
        _sps_trace_builder_remove_samples (b, r.remove);

      if (r.repair || changed)
        store_summary (&r, n_samples);
    }

  g_clear_pointer (&r.first_span, g_pattern_spec_free);
  g_clear_pointer (&r.span_filter, g_pattern_spec_free);
  g_clear_pointer (&r.callsite, g_free);
  g_clear_pointer (&r.flags, g_free);
  g_clear_pointer (&r.remove, g_free);
  g_clear_pointer (&r.root_name, g_free);
  g_clear_pointer (&r.memo_keys, g_free);
  g_clear_pointer (&r.memo_values, g_free);
  g_clear_pointer (&r.deferred_callsite, g_free);
  g_clear_pointer (&r.reports, g_array_unref);
  g_clear_pointer (&r.prev_frames, g_array_unref);
  g_clear_pointer (&r.prev_callsites, g_array_unref);
  g_clear_pointer (&r.cur_frames, g_array_unref);

  sps_stack_repair_set_deferred_stacks (r.self, 0, NULL, 0, NULL, NULL, NULL);

  if (progress != NULL && sps_progress_is_cancelled (progress))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Stack repair was cancelled"));
      return FALSE;
    }

  return TRUE;
}

static const char *
sps_stack_repair_get_name (SpsAnalysis *analysis)
{
  return "stack-repair";
}

static void
sps_stack_repair_iface_init (SpsAnalysisInterface *iface)
{
  iface->get_name = sps_stack_repair_get_name;
  iface->run = sps_stack_repair_run;
}

static void
sps_stack_repair_class_init (SpsStackRepairClass *klass)
{
}

static void
sps_stack_repair_init (SpsStackRepair *self)
{
}

/**
 * sps_stack_repair_new:
 *
 * Returns: (transfer full): a new stack repair analysis
 */
SpsStackRepair *
sps_stack_repair_new (void)
{
  return g_object_new (SPS_TYPE_STACK_REPAIR, NULL);
}

/**
 * sps_stack_repair_set_deferred_stacks:
 * @self: a #SpsStackRepair
 * @n_rows: how many entries @row_stack has
 * @row_stack: (array length=n_rows) (nullable): per sample row of the
 *   builder, the index of its deferred stack, or %SPS_NO_INDEX for a row
 *   whose callsite is set
 * @n_stacks: the number of deferred stacks
 * @stack_start: (array length=n_stacks) (nullable): where each stack's
 *   frames start in @frames
 * @stack_len: (array length=n_stacks) (nullable): how many frames each has
 * @frames: (nullable): frame indexes, each stack root first
 *
 * Gives the next run stacks that the importer has not turned into
 * callsites: samples of those rows have %SPS_NO_INDEX as callsite. Interning
 * a cut stack's 100 frames costs far more than anything else in an import,
 * and a repaired sample never needs the cut chain, so the run interns one
 * only when a sample keeps it (not repaired, kept truncated) or when the
 * raw sample table is kept (option "keep-raw", default %TRUE). The arrays
 * are borrowed until the run returns; the run forgets them.
 */
void
sps_stack_repair_set_deferred_stacks (SpsStackRepair *self,
                                      guint           n_rows,
                                      const guint32  *row_stack,
                                      guint           n_stacks,
                                      const guint32  *stack_start,
                                      const guint32  *stack_len,
                                      const guint32  *frames)
{
  g_return_if_fail (SPS_IS_STACK_REPAIR (self));
  g_return_if_fail (n_rows == 0 || row_stack != NULL);
  g_return_if_fail (n_stacks == 0 || (stack_start != NULL && stack_len != NULL && frames != NULL));
  g_return_if_fail (n_stacks < DEFERRED_KEY_BIT);

  self->n_deferred_rows = n_rows;
  self->row_stack = row_stack;
  self->n_stacks = n_stacks;
  self->stack_start = stack_start;
  self->stack_len = stack_len;
  self->stack_frames = frames;
}

/**
 * sps_stack_repair_match_pattern:
 * @pattern: a Unix wildcard pattern (`*`, `?`)
 * @frame_name: a frame name without its `module!` prefix
 *
 * Matches the way `first-span` and `span-filter` do: the whole name,
 * case-insensitively.
 *
 * Returns: %TRUE if @frame_name matches @pattern
 */
gboolean
sps_stack_repair_match_pattern (const char *pattern,
                                const char *frame_name)
{
  g_autofree char *folded_pattern = NULL;
  g_autofree char *folded_name = NULL;
  g_autoptr(GPatternSpec) spec = NULL;

  g_return_val_if_fail (pattern != NULL, FALSE);
  g_return_val_if_fail (frame_name != NULL, FALSE);

  folded_pattern = g_utf8_casefold (pattern, -1);
  folded_name = g_utf8_casefold (frame_name, -1);
  spec = g_pattern_spec_new (folded_pattern);

  return g_pattern_spec_match_string (spec, folded_name);
}
