/* sps-trace-grow.c: a live trace grown by an update's rows
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A live capture's update used to build the whole capture's trace again.
 * Growing keeps what cannot change any more from the trace shown before
 * (the *base*) and adds a *part*: a trace finished from a builder that
 * holds only the update's rows, made by _sps_trace_builder_new_for_growth()
 * so that it knows every string of the base under the same id.
 *
 * What the base keeps: its completed slices and instants on thread
 * tracks. Its unfinished slices (they end with the capture, so they
 * change) and its counters (derived series: the part gives them all
 * again) are dropped; anything else in the base refuses the growth. The
 * part gives everything else: processes, threads, counters, metadata,
 * info sections, warnings, the format, the args decoders.
 *
 * The result is the trace sps_trace_builder_finish() gives for a builder
 * holding the kept rows followed by the part's rows, or nothing (the
 * caller builds the whole trace then) where that cannot be told without
 * reading the rows: a kept row's thread is not the same thread in the
 * part, a track's new rows start before its kept rows end (they would
 * nest or sort otherwise), a kept slice is not a prefix of its track, a
 * decoder of the base is not the part's. tests/test-trace-grow.c checks
 * the result against a finish of all the rows, row for row.
 *
 * The tables stay one array per column, sorted by (track, ts), so the
 * rows of a track that is not the last move: growing copies every column
 * once (a sequential copy, no sort, no pairing, no nesting), while the
 * block index keeps the leaves of the blocks the kept rows fill and the
 * per-kind counts are added. The base is only read, so the trace shown
 * meanwhile stays whole for the threads that read it.
 */

#define G_LOG_DOMAIN "sps-trace-grow"

#include "config.h"

#include <string.h>

#include "sps-trace-finish-private.h"
#include "sps-trace-grow-private.h"

/* A track of the result: where its rows come from */
typedef struct
{
  guint8  kind;
  guint8  rank;             /* order among a thread's tracks */
  guint32 process;
  guint32 thread;
  guint32 base;             /* base track, or SPS_NO_INDEX */
  guint32 part;             /* part track, or SPS_NO_INDEX */
  guint32 kept;             /* rows of the base track kept */
} GrowTrack;

typedef struct
{
  SpsTrace  *base;
  SpsTrace  *part;
  SpsTrace  *out;
  GArray    *tracks;        /* GrowTrack, the result's order */
  guint64    arena_offset;  /* added to the part's arena refs */
  gboolean   base_arena;    /* a kept row's args are in the base's arena */
  gboolean   base_source;   /* … in the base's source bytes */
} Grow;

/**
 * _sps_trace_builder_new_for_growth:
 * @base: a finished trace
 *
 * A builder whose strings are a copy of @base's, under the same ids: the
 * base goes on being read (its pool is not thread-safe for writing), while
 * the update's rows name its strings with their ids. Costs ∝ @base's
 * strings, not its rows.
 *
 * Returns: (transfer full): a builder for the part of _sps_trace_grow()
 */
SpsTraceBuilder *
_sps_trace_builder_new_for_growth (SpsTrace *base)
{
  SpsTraceBuilder *builder;
  guint n;

  g_return_val_if_fail (SPS_IS_TRACE (base), NULL);

  builder = sps_trace_builder_new ();
  n = sps_string_pool_get_size (base->strings);
  for (guint32 i = 1; i < n; i++)
    {
      gsize len;
      const char *str = sps_string_pool_get (base->strings, i, &len);
      G_GNUC_UNUSED guint32 id = sps_string_pool_intern (builder->strings, str, (gssize) len);

      /* The base's strings are distinct: they intern in order */
      g_assert (id == i);
    }

  return builder;
}

static guint8
thread_rank (guint8 kind)
{
  switch (kind)
    {
    case SPS_TRACK_THREAD_SLICES:
      return 0;
    case SPS_TRACK_THREAD_SAMPLED_SLICES:
      return 1;
    case SPS_TRACK_THREAD_INSTANTS:
      return 2;
    case SPS_TRACK_THREAD_SAMPLES:
      return 3;
    default:
      return G_MAXUINT8;
    }
}

static gboolean
is_slice_kind (guint8 kind)
{
  return (SLICE_TRACK_KINDS & (1u << kind)) != 0;
}

static int
compare_thread_tracks (gconstpointer a,
                       gconstpointer b)
{
  const GrowTrack *ta = a;
  const GrowTrack *tb = b;

  if (ta->process != tb->process)
    return ta->process < tb->process ? -1 : 1;
  if (ta->thread != tb->thread)
    return ta->thread < tb->thread ? -1 : 1;
  return (int) ta->rank - (int) tb->rank;
}

/* Rows of the base's slice track @t that are kept: all but an unfinished
 * suffix, which must not be the children of kept rows. G_MAXUINT: the
 * suffix hangs under a kept slice. */
static guint
kept_slices (SpsTrace *base,
             guint32   t)
{
  const SpsSliceTable *s = &base->slices;
  guint32 first = base->tracks.first_row[t];
  guint32 end = first + base->tracks.n_rows_in_track[t];
  guint32 keep = end;

  while (keep > first && (s->flags[keep - 1] & SPS_SLICE_UNFINISHED) != 0)
    keep--;
  for (guint32 r = keep; r < end; r++)
    if (s->parent[r] != SPS_NO_INDEX && s->parent[r] < keep)
      return G_MAXUINT;

  return keep - first;
}

static gboolean
same_thread (SpsTrace *base,
             SpsTrace *part,
             guint32   thread)
{
  guint32 process;

  if (thread >= part->threads.n_rows)
    return FALSE;
  process = base->threads.process[thread];
  return part->threads.process[thread] == process &&
         part->threads.tid[thread] == base->threads.tid[thread] &&
         process < part->processes.n_rows &&
         part->processes.pid[process] == base->processes.pid[process];
}

/* Whether every base decoder is the part's of the same number (the part's
 * are the base's with the update's additions) */
static gboolean
same_decoders (SpsTrace *base,
               SpsTrace *part)
{
  if (base->decoders->len > part->decoders->len)
    return FALSE;
  for (guint i = 0; i < base->decoders->len; i++)
    if (G_OBJECT_TYPE (g_ptr_array_index (base->decoders, i)) !=
        G_OBJECT_TYPE (g_ptr_array_index (part->decoders, i)))
      return FALSE;
  return TRUE;
}

static gboolean
has_other_rows (SpsTrace *trace)
{
  return trace->flows.n_rows > 0 || trace->samples.n_rows > 0 || trace->raw_samples.n_rows > 0 ||
         trace->callsites.n_rows > 0 || trace->frames.n_rows > 0 || trace->objects.n_rows > 0 ||
         trace->allocations.n_rows > 0 || trace->gc_observations.n_rows > 0;
}

/* The result's tracks in finish()'s order (sps-trace-finish-tracks.c):
 * process by process, each thread's tracks in thread order, then the
 * process's other tracks; the global track last. */
static const char *
plan_tracks (Grow *g)
{
  SpsTrace *base = g->base;
  SpsTrace *part = g->part;
  const SpsTrackTable *bt = &base->tracks;
  const SpsTrackTable *pt = &part->tracks;
  g_autoptr(GArray) threads = g_array_new (FALSE, FALSE, sizeof (GrowTrack));
  guint kept_total = 0;
  guint n_threads = 0;
  guint i = 0, j = 0;

  for (guint32 t = 0; t < bt->n_rows; t++)
    {
      GrowTrack track = { bt->kind[t], thread_rank (bt->kind[t]), bt->process[t], bt->thread[t],
                          t, SPS_NO_INDEX, 0 };

      switch (bt->kind[t])
        {
        case SPS_TRACK_COUNTER:
          continue;
        case SPS_TRACK_THREAD_SLICES:
        case SPS_TRACK_THREAD_SAMPLED_SLICES:
          if ((track.kept = kept_slices (base, t)) == G_MAXUINT)
            return "an unfinished slice holds a kept one";
          kept_total += track.kept;
          break;
        case SPS_TRACK_THREAD_INSTANTS:
          track.kept = bt->n_rows_in_track[t];
          break;
        default:
          if (bt->n_rows_in_track[t] > 0)
            return "the base has rows that are not kept";
          continue;
        }
      if (track.kept == 0)
        continue;
      if (!same_thread (base, part, track.thread))
        return "a kept row's thread is another thread in the part";
      g_array_append_val (threads, track);
    }

  /* An unfinished slice before the suffix of its track would go
   * unnoticed above: the completed ones are exactly the kept ones */
  if (kept_total != base->slice_counts[SPS_TRACK_THREAD_SLICES] +
                    base->slice_counts[SPS_TRACK_THREAD_SAMPLED_SLICES])
    return "an unfinished slice is not the last of its track";

  for (guint32 t = 0; t < pt->n_rows; t++)
    {
      GrowTrack track = { pt->kind[t], thread_rank (pt->kind[t]), pt->process[t], pt->thread[t],
                          SPS_NO_INDEX, t, 0 };

      if (pt->kind[t] == SPS_TRACK_ASYNC && pt->n_rows_in_track[t] > 0)
        return "the part has async slices";
      if (track.rank != G_MAXUINT8)
        g_array_append_val (threads, track);
    }

  /* Base and part tracks of one thread and kind become one */
  g_array_sort (threads, compare_thread_tracks);
  for (guint k = 0; k < threads->len; k++)
    {
      GrowTrack *t = &g_array_index (threads, GrowTrack, k);
      GrowTrack *last = n_threads > 0 ? &g_array_index (threads, GrowTrack, n_threads - 1) : NULL;

      if (last == NULL || compare_thread_tracks (last, t) != 0)
        g_array_index (threads, GrowTrack, n_threads++) = *t;
      else if (t->base != SPS_NO_INDEX)
        {
          last->base = t->base;
          last->kept = t->kept;
        }
      else
        last->part = t->part;
    }
  g_array_set_size (threads, n_threads);

  for (guint32 p = 0; p <= part->processes.n_rows; p++)
    {
      /* p == n_rows: the tracks of no process (the global one) */
      guint32 process = p < part->processes.n_rows ? p : SPS_NO_INDEX;

      for (; i < threads->len && g_array_index (threads, GrowTrack, i).process == process; i++)
        g_array_append_val (g->tracks, g_array_index (threads, GrowTrack, i));
      for (; j < pt->n_rows && pt->process[j] == process; j++)
        if (thread_rank (pt->kind[j]) == G_MAXUINT8)
          {
            GrowTrack t = { pt->kind[j], G_MAXUINT8, process, pt->thread[j], SPS_NO_INDEX, j, 0 };

            g_array_append_val (g->tracks, t);
          }
    }
  if (i < threads->len || j < pt->n_rows)
    return "the part's tracks are not in process order";

  return NULL;
}

/* The latest end among the kept rows of base slice track @t, from the
 * leaves of the blocks they fill and the rows of the last one */
static SpsTime
kept_max_end (SpsTrace        *base,
              const GrowTrack *t)
{
  guint32 first = base->tracks.first_row[t->base];
  guint32 full = t->kept / SPS_SLICE_BLOCK_SIZE;
  const SpsTime *leaves = base->block_tree + base->n_block_leaves + base->track_first_block[t->base];
  SpsTime max_end = SPS_TIME_MIN;

  for (guint32 b = 0; b < full; b++)
    max_end = MAX (max_end, leaves[b]);
  for (guint32 r = first + full * SPS_SLICE_BLOCK_SIZE; r < first + t->kept; r++)
    max_end = MAX (max_end, base->slices.ts[r] + base->slices.dur[r]);

  return max_end;
}

/* The part's rows of a track come after the kept ones: they start at or
 * after every kept slice's end (so none nests in a kept one, as finish
 * would nest it) and after the last kept start (ties would sort by input
 * order, which growing cannot see); instants at or after the last one. */
static const char *
check_order (Grow *g)
{
  for (guint k = 0; k < g->tracks->len; k++)
    {
      const GrowTrack *t = &g_array_index (g->tracks, GrowTrack, k);
      guint32 base_last, part_first;

      if (t->base == SPS_NO_INDEX || t->part == SPS_NO_INDEX || t->kept == 0 ||
          g->part->tracks.n_rows_in_track[t->part] == 0)
        continue;
      base_last = g->base->tracks.first_row[t->base] + t->kept - 1;
      part_first = g->part->tracks.first_row[t->part];
      if (is_slice_kind (t->kind))
        {
          SpsTime ts = g->part->slices.ts[part_first];

          if (ts <= g->base->slices.ts[base_last] || ts < kept_max_end (g->base, t))
            return "new slices start before the kept ones end";
        }
      else if (g->part->instants.ts[part_first] < g->base->instants.ts[base_last])
        return "new instants are older than the kept ones";
    }

  return NULL;
}

static SpsArgsRef
rebase_ref (SpsArgsRef ref,
            guint64    offset)
{
  if ((ref & SPS_ARGS_REF_ARENA_BIT) == 0 || offset == 0)
    return ref;
  return ref + offset;
}

/* Which table a track's rows are in, with its layout */
static gsize
table_of (guint8 kind)
{
  if (is_slice_kind (kind))
    return G_STRUCT_OFFSET (SpsTrace, slices.n_rows);
  if (kind == SPS_TRACK_COUNTER)
    return G_STRUCT_OFFSET (SpsTrace, counters.n_rows);
  if (kind == SPS_TRACK_THREAD_SAMPLES)
    return G_STRUCT_OFFSET (SpsTrace, samples.n_rows);
  return G_STRUCT_OFFSET (SpsTrace, instants.n_rows);
}

static const SpsTableLayout *
layout_of (gsize table)
{
  guint n;
  const SpsTableLayout *layouts = _sps_trace_get_layouts (&n);

  for (guint i = 0; i < n; i++)
    if (layouts[i].n_rows == table)
      return &layouts[i];
  g_assert_not_reached ();
}

/* Copies rows @from… (@n) of @src's column @c to row @to of @dst's */
static void
copy_rows (SpsTrace        *dst,
           SpsTrace        *src,
           const SpsColumn *c,
           guint32          from,
           guint32          to,
           guint32          n)
{
  guint8 *out = G_STRUCT_MEMBER (gpointer, dst, c->offset);
  const guint8 *in = G_STRUCT_MEMBER (gpointer, src, c->offset);
  gsize size = c->element_size;

  out += (gsize) to * size;
  if (in != NULL)
    {
      memcpy (out, in + (gsize) from * size, (gsize) n * size);
      return;
    }
  /* Stored once in @src */
  for (guint32 r = 0; r < n; r++)
    memcpy (out + (gsize) r * size, G_STRUCT_MEMBER_P (src, c->constant), size);
}

static gboolean
is_column (const SpsColumn *c,
           gsize            offset)
{
  return c->offset == offset;
}

/* The rows of one source (@base: the kept rows; else the part's) of the
 * table at @table into the result's, track by track: columns copied, the
 * track, parent and args columns rewritten where they change */
static void
copy_table (Grow     *g,
            gsize     table,
            gboolean  base)
{
  const SpsTableLayout *layout = layout_of (table);
  SpsTrace *src = base ? g->base : g->part;
  gboolean slices = table == G_STRUCT_OFFSET (SpsTrace, slices.n_rows);

  for (guint k = 0; k < g->tracks->len; k++)
    {
      const GrowTrack *t = &g_array_index (g->tracks, GrowTrack, k);
      guint32 src_track = base ? t->base : t->part;
      guint32 from, to, n;

      if (src_track == SPS_NO_INDEX || table_of (t->kind) != table)
        continue;
      from = src->tracks.first_row[src_track];
      n = base ? t->kept : src->tracks.n_rows_in_track[src_track];
      to = g->out->tracks.first_row[k] + (base ? 0 : t->kept);
      if (n == 0)
        continue;

      for (const SpsColumn *c = layout->columns; c < layout->columns + SPS_MAX_COLUMNS && c->element_size != 0; c++)
        {
          gpointer column = G_STRUCT_MEMBER (gpointer, g->out, c->offset);

          if (column == NULL)
            continue;

          if (is_column (c, G_STRUCT_OFFSET (SpsTrace, slices.track)) ||
              is_column (c, G_STRUCT_OFFSET (SpsTrace, instants.track)) ||
              is_column (c, G_STRUCT_OFFSET (SpsTrace, counters.track)))
            {
              guint32 *track = (guint32 *) column + to;

              for (guint32 r = 0; r < n; r++)
                track[r] = k;
              continue;
            }

          copy_rows (g->out, src, c, from, to, n);

          if (slices && is_column (c, G_STRUCT_OFFSET (SpsTrace, slices.parent)) && from != to)
            {
              guint32 *parent = (guint32 *) column + to;

              /* A parent is on its child's track, which moved as a whole */
              for (guint32 r = 0; r < n; r++)
                if (parent[r] != SPS_NO_INDEX)
                  parent[r] = parent[r] - from + to;
            }
          else if (is_column (c, G_STRUCT_OFFSET (SpsTrace, slices.args)) ||
                   is_column (c, G_STRUCT_OFFSET (SpsTrace, instants.args)))
            {
              SpsArgsRef *args = (SpsArgsRef *) column + to;

              for (guint32 r = 0; r < n; r++)
                {
                  if (base && args[r] != SPS_ARGS_REF_NONE && !sps_args_ref_is_deferred (args[r]))
                    {
                      if (args[r] & SPS_ARGS_REF_ARENA_BIT)
                        g->base_arena = TRUE;
                      else
                        g->base_source = TRUE;
                    }
                  else if (!base)
                    args[r] = rebase_ref (args[r], g->arena_offset);
                }
            }
        }
    }
}

/* The result's track table and each table's columns, allocated */
static void
lay_out (Grow *g)
{
  SpsTrace *out = g->out;
  SpsTrackTable *tracks = &out->tracks;
  guint n = g->tracks->len;
  guint *kind_rows[3] = { &out->slices.n_rows, &out->instants.n_rows, &out->counters.n_rows };
  guint8 *kind = g_new (guint8, MAX (n, 1));
  guint32 *process = g_new (guint32, MAX (n, 1));
  guint32 *thread = g_new (guint32, MAX (n, 1));
  guint32 *name = g_new (guint32, MAX (n, 1));
  guint32 *series = g_new (guint32, MAX (n, 1));
  guint32 *first_row = g_new (guint32, MAX (n, 1));
  guint32 *n_rows = g_new (guint32, MAX (n, 1));
  guint16 *max_depth = g_new (guint16, MAX (n, 1));

  for (guint k = 0; k < n; k++)
    {
      const GrowTrack *t = &g_array_index (g->tracks, GrowTrack, k);
      gsize table = table_of (t->kind);
      guint *rows = table == G_STRUCT_OFFSET (SpsTrace, slices.n_rows) ? kind_rows[0]
                  : table == G_STRUCT_OFFSET (SpsTrace, counters.n_rows) ? kind_rows[2]
                  : kind_rows[1];
      guint part_rows = t->part != SPS_NO_INDEX ? g->part->tracks.n_rows_in_track[t->part] : 0;
      SpsTrace *from = t->part != SPS_NO_INDEX ? g->part : g->base;
      guint32 row = t->part != SPS_NO_INDEX ? t->part : t->base;

      kind[k] = t->kind;
      process[k] = t->process;
      thread[k] = t->thread;
      name[k] = from->tracks.name[row];
      series[k] = from->tracks.series[row];
      first_row[k] = *rows;
      n_rows[k] = t->kept + part_rows;
      *rows += n_rows[k];
      max_depth[k] = t->part != SPS_NO_INDEX ? g->part->tracks.max_depth[t->part] : 0;
      if (t->base != SPS_NO_INDEX && t->kept > 0)
        {
          guint16 depth = g->base->tracks.max_depth[t->base];

          /* Dropping an unfinished suffix may leave shallower rows: only
           * then, and only when some row nests, are the kept rows read */
          if (is_slice_kind (t->kind) && t->kept < g->base->tracks.n_rows_in_track[t->base])
            {
              guint32 f = g->base->tracks.first_row[t->base];

              if (depth > 1)
                {
                  depth = 0;
                  for (guint32 r = f; r < f + t->kept; r++)
                    depth = MAX (depth, g->base->slices.depth[r] + 1);
                }
              else
                depth = 1;
            }
          max_depth[k] = MAX (max_depth[k], depth);
        }
    }

  tracks->n_rows = n;
  tracks->kind = kind;
  tracks->process = process;
  tracks->thread = thread;
  tracks->name = name;
  tracks->series = series;
  tracks->first_row = first_row;
  tracks->n_rows_in_track = n_rows;
  tracks->max_depth = max_depth;

  for (guint i = 0; i < G_N_ELEMENTS (kind_rows); i++)
    {
      gsize table = (gsize) ((guint8 *) kind_rows[i] - (guint8 *) out);
      const SpsTableLayout *layout = layout_of (table);

      for (const SpsColumn *c = layout->columns; c < layout->columns + SPS_MAX_COLUMNS && c->element_size != 0; c++)
        {
          /* Stored once on both sides with one value (or no rows): stored
           * once, as finish() leaves it */
          if (c->constant != 0 && G_STRUCT_MEMBER (gpointer, g->part, c->offset) == NULL &&
              G_STRUCT_MEMBER (gpointer, g->base, c->offset) == NULL &&
              memcmp (G_STRUCT_MEMBER_P (g->part, c->constant), G_STRUCT_MEMBER_P (g->base, c->constant),
                      c->element_size) == 0)
            memcpy (G_STRUCT_MEMBER_P (out, c->constant), G_STRUCT_MEMBER_P (g->part, c->constant), c->element_size);
          else if (*kind_rows[i] == 0 && c->constant != 0)
            memcpy (G_STRUCT_MEMBER_P (out, c->constant), G_STRUCT_MEMBER_P (g->part, c->constant), c->element_size);
          else
            /* Huge pages: faulting a fresh column in 4 KiB pages costs
             * about what copying it does */
            G_STRUCT_MEMBER (gpointer, out, c->offset) = _sps_alloc_large (MAX ((gsize) *kind_rows[i], 1) * c->element_size);
        }
    }
}

/* Leaves of the blocks the kept rows fill are the base's; the rest are
 * read from the rows (the last block of a track and the part's rows) */
static void
build_block_index (Grow *g)
{
  SpsTrace *out = g->out;
  SpsTrace *base = g->base;
  const SpsTrackTable *tracks = &out->tracks;
  SpsTime *tree = _sps_block_index_new (out);
  guint leaves = out->n_block_leaves;

  for (guint t = 0; t < tracks->n_rows; t++)
    {
      const GrowTrack *gt = &g_array_index (g->tracks, GrowTrack, t);
      guint32 first = tracks->first_row[t];
      guint32 end = first + tracks->n_rows_in_track[t];
      guint32 block = out->track_first_block[t];
      guint32 row = first;

      if (!is_slice_kind (tracks->kind[t]))
        continue;
      if (gt->base != SPS_NO_INDEX)
        {
          guint32 full = gt->kept / SPS_SLICE_BLOCK_SIZE;

          memcpy (tree + leaves + block,
                  base->block_tree + base->n_block_leaves + base->track_first_block[gt->base],
                  full * sizeof (SpsTime));
          block += full;
          row += full * SPS_SLICE_BLOCK_SIZE;
        }
      for (; row < end; row += SPS_SLICE_BLOCK_SIZE, block++)
        {
          guint32 last = MIN (row + SPS_SLICE_BLOCK_SIZE, end);
          SpsTime max_end = SPS_TIME_MIN;

          for (guint32 r = row; r < last; r++)
            max_end = MAX (max_end, out->slices.ts[r] + out->slices.dur[r]);
          tree[leaves + block] = max_end;
        }
    }

  for (guint i = leaves - 1; i > 0; i--)
    tree[i] = MAX (tree[2 * i], tree[2 * i + 1]);
}

/* finish()'s time range: the part's, widened by the kept rows (each
 * track's first start, its last instant, the block tree's latest end) */
static void
time_range (Grow *g)
{
  SpsTrace *out = g->out;
  SpsTrace *part = g->part;
  SpsTime start = SPS_TIME_MAX;
  SpsTime end = SPS_TIME_MIN;

  if (part->slices.n_rows + part->instants.n_rows + part->counters.n_rows > 0)
    {
      start = part->start_time;
      end = part->end_time;
    }
  for (guint t = 0; t < g->tracks->len; t++)
    {
      const GrowTrack *gt = &g_array_index (g->tracks, GrowTrack, t);
      guint32 first = out->tracks.first_row[t];

      if (gt->kept == 0)
        continue;
      if (is_slice_kind (gt->kind))
        start = MIN (start, out->slices.ts[first]);
      else
        {
          start = MIN (start, out->instants.ts[first]);
          end = MAX (end, out->instants.ts[first + gt->kept - 1]);
        }
    }
  if (out->slices.n_rows > 0)
    end = MAX (end, out->block_tree[1]);
  if (start > end)
    start = end = 0;
  out->start_time = start;
  out->end_time = end;
}

static gpointer
dup_column (gconstpointer column,
            guint         n,
            gsize         size)
{
  return column != NULL ? g_memdup2 (column, MAX ((gsize) n, 1) * size) : NULL;
}

/* Processes, threads, metadata, info sections, warnings and the rest of
 * what the part gives whole */
static void
take_part (Grow *g)
{
  SpsTrace *out = g->out;
  SpsTrace *part = g->part;
  guint np = part->processes.n_rows;
  guint nt = part->threads.n_rows;

  out->strings = sps_string_pool_ref (part->strings);
  out->source = part->source != NULL ? g_bytes_ref (part->source) : NULL;
  out->decoders = g_ptr_array_ref (part->decoders);
  out->format = g_strdup (part->format);
  out->display_time_unit = g_strdup (part->display_time_unit);
  out->events_read = part->events_read;
  out->metadata_events = part->metadata_events;
  out->file = part->file != NULL ? g_object_ref (part->file) : NULL;
  if (part->load_error != NULL)
    out->load_error = g_error_copy (part->load_error);

  out->processes.n_rows = np;
  out->processes.pid = dup_column (part->processes.pid, np, sizeof (gint64));
  out->processes.name = dup_column (part->processes.name, np, sizeof (guint32));
  out->processes.sort_index = dup_column (part->processes.sort_index, np, sizeof (gint32));
  out->processes.labels = dup_column (part->processes.labels, np, sizeof (guint32));
  out->processes.display = dup_column (part->processes.display, np, sizeof (guint8));
  out->threads.n_rows = nt;
  out->threads.process = dup_column (part->threads.process, nt, sizeof (guint32));
  out->threads.tid = dup_column (part->threads.tid, nt, sizeof (gint64));
  out->threads.name = dup_column (part->threads.name, nt, sizeof (guint32));
  out->threads.sort_index = dup_column (part->threads.sort_index, nt, sizeof (gint32));

  out->n_metadata = part->n_metadata;
  out->metadata_keys = dup_column (part->metadata_keys, part->n_metadata, sizeof (guint32));
  out->metadata_values = dup_column (part->metadata_values, part->n_metadata, sizeof (SpsArgsRef));
  for (guint i = 0; i < out->n_metadata; i++)
    out->metadata_values[i] = rebase_ref (out->metadata_values[i], g->arena_offset);
  out->n_info_sections = part->n_info_sections;
  out->info_names = dup_column (part->info_names, part->n_info_sections, sizeof (guint32));
  out->info_values = dup_column (part->info_values, part->n_info_sections, sizeof (SpsArgsRef));
  for (guint i = 0; i < out->n_info_sections; i++)
    out->info_values[i] = rebase_ref (out->info_values[i], g->arena_offset);

  out->n_warnings = part->n_warnings;
  out->warning_names = g_new (char *, MAX (part->n_warnings, 1));
  out->warning_counts = dup_column (part->warning_counts, part->n_warnings, sizeof (guint64));
  out->warning_messages = g_new (char *, MAX (part->n_warnings, 1));
  for (guint i = 0; i < part->n_warnings; i++)
    {
      out->warning_names[i] = g_strdup (part->warning_names[i]);
      out->warning_messages[i] = g_strdup (part->warning_messages[i]);
    }

  for (guint k = 0; k < SPS_N_TRACK_KINDS; k++)
    out->slice_counts[k] = g->base->slice_counts[k] + part->slice_counts[k];
}

/* The arena: the part's alone when no kept row reads the base's, which
 * then holds only what was dropped */
static void
join_arenas (Grow *g)
{
  gsize base_len = 0;
  gsize part_len = 0;
  const guint8 *base_bytes = g->base->arena != NULL ? g_bytes_get_data (g->base->arena, &base_len) : NULL;
  const guint8 *part_bytes = g->part->arena != NULL ? g_bytes_get_data (g->part->arena, &part_len) : NULL;
  guint8 *joined;

  if (!g->base_arena || base_len == 0)
    {
      g->out->arena = g->part->arena != NULL ? g_bytes_ref (g->part->arena) : NULL;
      g->arena_offset = 0;
      return;
    }

  joined = g_malloc (MAX (base_len + part_len, 1));
  memcpy (joined, base_bytes, base_len);
  if (part_len > 0)
    memcpy (joined + base_len, part_bytes, part_len);
  g->out->arena = g_bytes_new_take (joined, base_len + part_len);
  g->arena_offset = base_len;
}

static const char *
check_traces (SpsTrace *base,
              SpsTrace *part)
{
  guint n_base = sps_string_pool_get_size (base->strings);

  if (has_other_rows (base) || has_other_rows (part))
    return "a table other than slices, instants and counters has rows";
  if (sps_string_pool_get_size (part->strings) < n_base ||
      (n_base > 1 && strcmp (sps_string_pool_get (part->strings, n_base - 1, NULL),
                             sps_string_pool_get (base->strings, n_base - 1, NULL)) != 0))
    return "the part's strings do not begin with the base's";
  if (!same_decoders (base, part))
    return "the base's args decoders are not the part's";
  /* Warnings finish() gives from the rows: the kept rows' cannot be told */
  for (guint i = 0; i < base->n_warnings; i++)
    if (g_str_equal (base->warning_names[i], "overlapping_slice") ||
        g_str_equal (base->warning_names[i], "max_depth_exceeded"))
      return "the base's slices overlap or nest too deep";

  return NULL;
}

/**
 * _sps_trace_grow:
 * @base: the trace shown so far
 * @part: the update's rows, finished from a builder of
 *   _sps_trace_builder_new_for_growth() (@base)
 * @refused: (out) (optional): why the growth was refused, a static
 *   string, when %NULL is returned
 *
 * Returns: (transfer full) (nullable): the trace a finish of @base's kept
 *   rows and @part's rows gives, or %NULL when growing cannot tell it
 */
SpsTrace *
_sps_trace_grow (SpsTrace    *base,
                 SpsTrace    *part,
                 const char **refused)
{
  g_autoptr(SpsTrace) out = NULL;
  Grow g = { 0 };
  const char *why;
  gsize tables[] = { G_STRUCT_OFFSET (SpsTrace, slices.n_rows), G_STRUCT_OFFSET (SpsTrace, instants.n_rows),
                     G_STRUCT_OFFSET (SpsTrace, counters.n_rows) };

  g_return_val_if_fail (SPS_IS_TRACE (base), NULL);
  g_return_val_if_fail (SPS_IS_TRACE (part), NULL);

  g.base = base;
  g.part = part;
  g.tracks = g_array_new (FALSE, FALSE, sizeof (GrowTrack));

  if ((why = check_traces (base, part)) == NULL &&
      (why = plan_tracks (&g)) == NULL &&
      (why = check_order (&g)) == NULL)
    {
      out = g_object_new (SPS_TYPE_TRACE, NULL);
      g.out = out;
      lay_out (&g);
      /* The kept rows first: they tell whether the base's arena stays */
      for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
        copy_table (&g, tables[i], TRUE);
      if (g.base_source && base->source != part->source)
        why = "kept args are in the base's source bytes";
      else
        {
          join_arenas (&g);
          for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
            copy_table (&g, tables[i], FALSE);
          take_part (&g);
          build_block_index (&g);
          time_range (&g);
          /* A part's slice that ends with the trace ended with the part */
          if (out->end_time != part->end_time && part->slices.n_rows > 0 &&
              part->slice_counts[SPS_TRACK_THREAD_SLICES] + part->slice_counts[SPS_TRACK_THREAD_SAMPLED_SLICES] <
              part->slices.n_rows)
            why = "the part has unfinished slices and ends before the base";
          _sps_trace_store_constants (out);
        }
    }

  g_array_unref (g.tracks);
  if (refused != NULL)
    *refused = why;
  if (why != NULL)
    return NULL;

  return g_steal_pointer (&out);
}
