/* sps-session.c: the interaction state of one trace window
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-session"

#include "config.h"

#include <math.h>
#include <string.h>

#include "sps-session.h"
#include "sps-session-private.h"
#include "sps-time-math-private.h"

/* The narrowest visible window. Below 10 ns nothing a trace records can be
 * told apart (Chrome timestamps are µs; even ns traces rarely resolve
 * less), and a floor keeps zoom-in from reaching a zero span. Traces
 * shorter than that are shown inside a 10 ns window around their centre. */
#define MIN_SPAN 10

/* How far past each end of the trace the window may go, in 1/n of the
 * trace's span: a little room so the first and last slices are not glued
 * to the edges when panning. */
#define OVERSCROLL_DIVISOR 20

/* The margin fit() leaves on each side of a selected slice, in 1/n of its
 * duration. */
#define FIT_MARGIN_DIVISOR 10

/**
 * SpsSession:
 *
 * The interaction state shared by every view of one trace: the visible
 * window, the selected and hovered slices, the time range selection,
 * collapsed processes and display toggles. It is not a widget, so the
 * viewport rules (clamping, zoom around an anchor, fit) and the keyboard
 * navigation of the slice tree are tested without a display.
 *
 * The visible window is kept inside [trace start − 5 %, trace end + 5 %]
 * of the trace's span and is never narrower than 10 ns (a trace shorter
 * than that gets a 10 ns window around its centre).
 */
struct _SpsSession
{
  GObject   parent_instance;

  SpsTrace *trace;

  /* Where the visible window may go: the trace plus the overscroll. */
  SpsTime   bound_start;
  SpsTime   bound_end;

  SpsTime   visible_start;
  SpsTime   visible_end;

  guint     selected_slice;
  guint     hovered_slice;

  SpsTime   range_start;
  SpsTime   range_end;

  guint8   *collapsed;          /* one per process */
  guint     n_processes;

  /* Filters. The per-process and per-thread flags are what the user set;
   * track_visible and category_visible are derived from them so the
   * per-slice test is two array reads. */
  guint8   *process_hidden;     /* one per process */
  guint8   *thread_hidden;      /* one per thread */
  guint     n_threads;
  guint8   *track_visible;      /* one per track */
  guint     n_tracks;
  GArray   *categories;         /* guint32 token string ids, by text */
  GHashTable *token_index;      /* token id → index in categories + 1 */
  guint8   *token_hidden;       /* one per category token */
  GHashTable *category_tokens;  /* category string id → GArray of token
                                 * indices (guint) */
  guint8   *category_visible;   /* one per string id: 0 only for a used
                                 * category with every token hidden */
  guint     n_strings;
  guint     n_hidden;           /* hidden processes + threads + tokens */
  GBytes   *slice_mask;         /* cache of dup_slice_mask() */

  /* Search */
  char             *search_text;
  SpsSearchPattern *search_pattern;
  guint8           *search_memo;  /* per string id: 0 unknown, 1 no, 2 yes */

  guint     has_range : 1;
  guint     show_flows : 1;
  guint     search_in_category : 1;
  guint     raw_stacks : 1;
};

enum {
  PROP_0,
  PROP_TRACE,
  PROP_VISIBLE_START,
  PROP_VISIBLE_END,
  PROP_SELECTED_SLICE,
  PROP_HOVERED_SLICE,
  PROP_HAS_RANGE,
  PROP_RANGE_START,
  PROP_RANGE_END,
  PROP_SHOW_FLOWS,
  PROP_SEARCH_TEXT,
  PROP_SEARCH_IN_CATEGORY,
  PROP_RAW_STACKS,
  N_PROPS
};

enum {
  LAYOUT_CHANGED,
  FILTERS_CHANGED,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (SpsSession, sps_session, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
compute_bounds (SpsSession *self)
{
  SpsTime start = sps_trace_get_start_time (self->trace);
  SpsTime end = sps_trace_get_end_time (self->trace);
  guint64 span;
  guint64 margin;

  if (end < start)
    end = start;

  span = _sps_time_span (start, end);
  margin = span / OVERSCROLL_DIVISOR;

  self->bound_start = _sps_time_sub_span (start, margin);
  self->bound_end = _sps_time_add_span (end, margin);

  if (_sps_time_span (self->bound_start, self->bound_end) < MIN_SPAN)
    {
      SpsTime centre = _sps_time_add_span (start, span / 2);

      self->bound_start = _sps_time_sub_span (centre, MIN_SPAN / 2);
      self->bound_end = _sps_time_add_span (self->bound_start, MIN_SPAN);
    }
}

/* Brings the window of @span ns from *start inside the bounds: at least
 * MIN_SPAN wide (grown around its centre), at most the bounds, and
 * shifted (keeping its width) when it sticks out. The window is a start
 * and a span, not two ends, so saturating arithmetic near the ends of
 * gint64 never changes its width. */
static void
clamp_window (SpsSession *self,
              SpsTime    *start,
              guint64    *span)
{
  guint64 max_span = _sps_time_span (self->bound_start, self->bound_end);
  SpsTime latest_start;

  if (*span >= max_span)
    {
      *start = self->bound_start;
      *span = max_span;
      return;
    }

  if (*span < MIN_SPAN)
    {
      SpsTime centre = _sps_time_add_span (*start, *span / 2);

      *start = _sps_time_sub_span (centre, MIN_SPAN / 2);
      *span = MIN_SPAN;
    }

  latest_start = _sps_time_sub_span (self->bound_end, *span);
  if (*start < self->bound_start)
    *start = self->bound_start;
  else if (*start > latest_start)
    *start = latest_start;
}

static void
apply_window (SpsSession *self,
              SpsTime     start,
              guint64     span)
{
  SpsTime end;

  clamp_window (self, &start, &span);
  end = _sps_time_add_span (start, span);

  g_object_freeze_notify (G_OBJECT (self));

  if (self->visible_start != start)
    {
      self->visible_start = start;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VISIBLE_START]);
    }

  if (self->visible_end != end)
    {
      self->visible_end = end;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VISIBLE_END]);
    }

  g_object_thaw_notify (G_OBJECT (self));
}

/* A window of the current width centred on @time (then clamped). */
static void
centre_on (SpsSession *self,
           SpsTime     time)
{
  guint64 span = _sps_time_span (self->visible_start, self->visible_end);

  apply_window (self, _sps_time_sub_span (time, span / 2), span);
}

static void
fit_slice (SpsSession *self,
           guint       slice)
{
  const SpsSliceTable *slices = sps_trace_get_slices (self->trace);
  SpsTime ts = slices->ts[slice];
  SpsTime dur = MAX (slices->dur[slice], 0);
  SpsTime margin = dur / FIT_MARGIN_DIVISOR;
  SpsTime start = _sps_time_sub (ts, margin);

  apply_window (self, start, _sps_time_span (start, _sps_time_add (_sps_time_add (ts, dur), margin)));
}

/* After keyboard navigation: bring the new selection into view. A slice
 * that fits in the window is centred at the current zoom; one wider than
 * the window is left alone if part of it shows (W on a wide parent must
 * not zoom out), and fitted otherwise. */
static void
reveal_slice (SpsSession *self,
              guint       slice)
{
  const SpsSliceTable *slices = sps_trace_get_slices (self->trace);
  SpsTime ts = slices->ts[slice];
  SpsTime end = _sps_time_add (ts, MAX (slices->dur[slice], 0));

  if (ts >= self->visible_start && end <= self->visible_end)
    return;

  if (_sps_time_span (ts, end) <= _sps_time_span (self->visible_start, self->visible_end))
    centre_on (self, _sps_time_add_span (ts, _sps_time_span (ts, end) / 2));
  else if (!(ts < self->visible_end && end > self->visible_start))
    fit_slice (self, slice);
}

/* Shared by the setters of the slice-valued properties (selected,
 * hovered): stores @slice in @field and notifies @prop_id on change. */
static void
set_slice_property (SpsSession *self,
                    guint      *field,
                    guint       slice,
                    guint       prop_id)
{
  g_assert (SPS_IS_SESSION (self));
  g_assert (prop_id < N_PROPS);

  if (*field == slice)
    return;

  *field = slice;
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
}

static void
select_and_reveal (SpsSession *self,
                   guint       slice)
{
  sps_session_set_selected_slice (self, slice);
  reveal_slice (self, slice);
}

/* A step from one slice to a related one in the slice tree, or
 * SPS_NO_INDEX when there is none. */
typedef guint (*SliceStep) (SpsTrace *trace,
                            guint     slice);

static guint
slice_parent (SpsTrace *trace,
              guint     slice)
{
  return sps_trace_get_slices (trace)->parent[slice];
}

/* Shared by the select_ navigation: moves the selection one @step from
 * where it is and reveals it; nothing changes when there is no selection
 * or the step leads nowhere. */
static gboolean
select_related (SpsSession *self,
                SliceStep   step)
{
  guint target;

  g_assert (SPS_IS_SESSION (self));

  if (self->selected_slice == SPS_NO_INDEX)
    return FALSE;

  target = step (self->trace, self->selected_slice);
  if (target == SPS_NO_INDEX)
    return FALSE;

  select_and_reveal (self, target);

  return TRUE;
}

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

static int
compare_token_text (gconstpointer a,
                    gconstpointer b,
                    gpointer      user_data)
{
  SpsTrace *trace = user_data;
  guint32 ia = *(const guint32 *) a;
  guint32 ib = *(const guint32 *) b;

  return g_utf8_collate (sps_trace_get_string (trace, ia),
                         sps_trace_get_string (trace, ib));
}

/* The token indices of one category string, interning new tokens. Runs
 * while the session is constructed, before any view starts a worker
 * that reads the pool, since the pool is not thread-safe while strings
 * are added. */
static GArray *
split_category (SpsSession   *self,
                SpsStringPool *strings,
                GHashTable   *token_ids,
                guint32       category)
{
  GArray *tokens = g_array_new (FALSE, FALSE, sizeof (guint));
  gsize len;
  /* Strings live in chunks that never move, so @str stays valid while
   * tokens are interned. */
  const char *str = sps_string_pool_get (strings, category, &len);
  gsize pos = 0;

  g_assert (SPS_IS_SESSION (self));

  while (pos <= len)
    {
      const char *comma = memchr (str + pos, ',', len - pos);
      gsize end = comma != NULL ? (gsize) (comma - str) : len;
      gsize a = pos;
      gsize b = end;
      guint32 id;
      gpointer value;
      guint index;

      while (a < b && g_ascii_isspace (str[a]))
        a++;
      while (b > a && g_ascii_isspace (str[b - 1]))
        b--;

      if (b > a)
        {
          /* The whole category is its own single token: no interning. */
          if (a == 0 && b == len)
            id = category;
          else
            id = sps_string_pool_intern (strings, str + a, b - a);

          value = g_hash_table_lookup (token_ids, GUINT_TO_POINTER (id));
          if (value == NULL)
            {
              g_array_append_val (self->categories, id);
              value = GUINT_TO_POINTER (self->categories->len);
              g_hash_table_insert (token_ids, GUINT_TO_POINTER (id), value);
            }
          index = GPOINTER_TO_UINT (value) - 1;
          g_array_append_val (tokens, index);
        }

      if (comma == NULL)
        break;
      pos = end + 1;
    }

  /* An empty (or all-blank) category is one token of its own, so slices
   * without a category can be hidden too. */
  if (tokens->len == 0)
    {
      gpointer value = g_hash_table_lookup (token_ids, GUINT_TO_POINTER (category));
      guint index;

      if (value == NULL)
        {
          g_array_append_val (self->categories, category);
          value = GUINT_TO_POINTER (self->categories->len);
          g_hash_table_insert (token_ids, GUINT_TO_POINTER (category), value);
        }
      index = GPOINTER_TO_UINT (value) - 1;
      g_array_append_val (tokens, index);
    }

  return tokens;
}

static void
add_category (SpsSession    *self,
              SpsStringPool *strings,
              GHashTable    *token_ids,
              guint32        category)
{
  g_assert (SPS_IS_SESSION (self));

  if (g_hash_table_contains (self->category_tokens, GUINT_TO_POINTER (category)))
    return;

  g_hash_table_insert (self->category_tokens,
                       GUINT_TO_POINTER (category),
                       split_category (self, strings, token_ids, category));
}

static void
init_filters (SpsSession *self)
{
  const SpsSliceTable *slices = sps_trace_get_slices (self->trace);
  const SpsInstantTable *instants = sps_trace_get_instants (self->trace);
  SpsStringPool *strings = sps_trace_get_strings (self->trace);
  g_autoptr(GHashTable) token_ids = g_hash_table_new (NULL, NULL);
  g_autofree guint *order = NULL;
  GHashTableIter iter;
  gpointer key;
  gpointer value;
  g_autofree guint8 *seen = NULL;
  guint n_before;
  guint i;

  g_assert (SPS_IS_SESSION (self));

  self->n_threads = sps_trace_get_threads (self->trace)->n_rows;
  self->n_tracks = sps_trace_get_tracks (self->trace)->n_rows;
  self->process_hidden = g_new0 (guint8, MAX (self->n_processes, 1));
  self->thread_hidden = g_new0 (guint8, MAX (self->n_threads, 1));
  self->track_visible = g_new (guint8, MAX (self->n_tracks, 1));
  memset (self->track_visible, 1, MAX (self->n_tracks, 1));

  self->categories = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->category_tokens = g_hash_table_new_full (NULL, NULL, NULL,
                                                 (GDestroyNotify) g_array_unref);

  /* One byte per string id says whether a category was split already,
   * so millions of slices cost an array read each, not a hash lookup.
   * (Ids of slice categories are below the size taken here; tokens
   * interned while splitting come after.) */
  n_before = sps_string_pool_get_size (strings);
  seen = g_new0 (guint8, MAX (n_before, 1));
  for (i = 0; i < slices->n_rows; i++)
    {
      guint32 category = slices->category[i];

      if (category < n_before && !seen[category])
        {
          seen[category] = TRUE;
          add_category (self, strings, token_ids, category);
        }
    }
  for (i = 0; i < instants->n_rows; i++)
    {
      guint32 category = instants->category[i];

      if (category < n_before && !seen[category])
        {
          seen[category] = TRUE;
          add_category (self, strings, token_ids, category);
        }
    }

  /* Sort the tokens by text for the filter panel, then renumber. */
  g_array_sort_with_data (self->categories, compare_token_text, self->trace);
  order = g_new0 (guint, MAX (self->categories->len, 1));
  self->token_index = g_hash_table_new (NULL, NULL);
  for (i = 0; i < self->categories->len; i++)
    {
      guint32 id = g_array_index (self->categories, guint32, i);
      guint old = GPOINTER_TO_UINT (g_hash_table_lookup (token_ids, GUINT_TO_POINTER (id))) - 1;

      order[old] = i;
      g_hash_table_insert (self->token_index, GUINT_TO_POINTER (id), GUINT_TO_POINTER (i + 1));
    }
  g_hash_table_iter_init (&iter, self->category_tokens);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      GArray *tokens = value;

      for (i = 0; i < tokens->len; i++)
        g_array_index (tokens, guint, i) = order[g_array_index (tokens, guint, i)];
    }

  self->token_hidden = g_new0 (guint8, MAX (self->categories->len, 1));
  self->n_strings = sps_string_pool_get_size (strings);
  self->category_visible = g_new (guint8, MAX (self->n_strings, 1));
  memset (self->category_visible, 1, MAX (self->n_strings, 1));
}

/* Recomputes the derived visibility after a flag changed. */
static void
update_visibility (SpsSession *self)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (self->trace);
  GHashTableIter iter;
  gpointer key;
  gpointer value;
  guint i;

  g_assert (SPS_IS_SESSION (self));

  for (i = 0; i < tracks->n_rows; i++)
    {
      guint32 process = tracks->process[i];
      guint32 thread = tracks->thread[i];
      gboolean visible = TRUE;

      if (process != SPS_NO_INDEX && process < self->n_processes
          && self->process_hidden[process])
        visible = FALSE;
      if (thread != SPS_NO_INDEX && thread < self->n_threads
          && self->thread_hidden[thread])
        visible = FALSE;
      self->track_visible[i] = visible;
    }

  g_hash_table_iter_init (&iter, self->category_tokens);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      GArray *tokens = value;
      guint32 category = GPOINTER_TO_UINT (key);
      gboolean visible = FALSE;

      for (i = 0; i < tokens->len && !visible; i++)
        visible = !self->token_hidden[g_array_index (tokens, guint, i)];
      if (category < self->n_strings)
        self->category_visible[category] = visible;
    }

  g_clear_pointer (&self->slice_mask, g_bytes_unref);
}

static void
filters_changed (SpsSession *self,
                 gboolean    rows_changed)
{
  g_assert (SPS_IS_SESSION (self));

  update_visibility (self);
  if (rows_changed)
    g_signal_emit (self, signals[LAYOUT_CHANGED], 0);
  g_signal_emit (self, signals[FILTERS_CHANGED], 0);
}

static gboolean
set_flag (guint8   *flags,
          guint     i,
          gboolean  value,
          guint    *n_set)
{
  g_assert (flags != NULL);
  g_assert (n_set != NULL);

  value = !!value;
  if (flags[i] == value)
    return FALSE;

  flags[i] = value;
  if (value)
    (*n_set)++;
  else
    (*n_set)--;

  return TRUE;
}

/* What the importer asked for: processes that start collapsed or hidden
 * (sps_trace_builder_set_process_display()) */
static void
apply_default_display (SpsSession *self)
{
  const SpsProcessTable *processes = sps_trace_get_processes (self->trace);

  g_assert (SPS_IS_SESSION (self));

  for (guint p = 0; p < processes->n_rows; p++)
    {
      if ((processes->display[p] & SPS_PROCESS_DISPLAY_COLLAPSED) != 0)
        self->collapsed[p] = TRUE;
      if ((processes->display[p] & SPS_PROCESS_DISPLAY_HIDDEN) != 0)
        set_flag (self->process_hidden, p, TRUE, &self->n_hidden);
    }
  update_visibility (self);
}

static void
sps_session_constructed (GObject *object)
{
  SpsSession *self = (SpsSession *)object;

  G_OBJECT_CLASS (sps_session_parent_class)->constructed (object);

  g_assert (SPS_IS_TRACE (self->trace));

  self->n_processes = sps_trace_get_processes (self->trace)->n_rows;
  self->collapsed = g_new0 (guint8, MAX (self->n_processes, 1));

  init_filters (self);
  apply_default_display (self);

  compute_bounds (self);
  self->visible_start = self->bound_start;
  self->visible_end = self->bound_end;
  sps_session_fit_trace (self);
}

static void
sps_session_dispose (GObject *object)
{
  SpsSession *self = (SpsSession *)object;

  g_clear_object (&self->trace);

  G_OBJECT_CLASS (sps_session_parent_class)->dispose (object);
}

static void
sps_session_finalize (GObject *object)
{
  SpsSession *self = (SpsSession *)object;

  g_clear_pointer (&self->collapsed, g_free);
  g_clear_pointer (&self->process_hidden, g_free);
  g_clear_pointer (&self->thread_hidden, g_free);
  g_clear_pointer (&self->track_visible, g_free);
  g_clear_pointer (&self->categories, g_array_unref);
  g_clear_pointer (&self->token_index, g_hash_table_unref);
  g_clear_pointer (&self->token_hidden, g_free);
  g_clear_pointer (&self->category_tokens, g_hash_table_unref);
  g_clear_pointer (&self->category_visible, g_free);
  g_clear_pointer (&self->slice_mask, g_bytes_unref);
  g_clear_pointer (&self->search_text, g_free);
  g_clear_pointer (&self->search_pattern, sps_search_pattern_free);
  g_clear_pointer (&self->search_memo, g_free);

  G_OBJECT_CLASS (sps_session_parent_class)->finalize (object);
}

static void
sps_session_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  SpsSession *self = SPS_SESSION (object);

  switch (prop_id)
    {
    case PROP_TRACE:
      g_value_set_object (value, self->trace);
      break;

    case PROP_VISIBLE_START:
      g_value_set_int64 (value, self->visible_start);
      break;

    case PROP_VISIBLE_END:
      g_value_set_int64 (value, self->visible_end);
      break;

    case PROP_SELECTED_SLICE:
      g_value_set_uint (value, self->selected_slice);
      break;

    case PROP_HOVERED_SLICE:
      g_value_set_uint (value, self->hovered_slice);
      break;

    case PROP_HAS_RANGE:
      g_value_set_boolean (value, self->has_range);
      break;

    case PROP_RANGE_START:
      g_value_set_int64 (value, self->range_start);
      break;

    case PROP_RANGE_END:
      g_value_set_int64 (value, self->range_end);
      break;

    case PROP_SHOW_FLOWS:
      g_value_set_boolean (value, self->show_flows);
      break;

    case PROP_RAW_STACKS:
      g_value_set_boolean (value, self->raw_stacks);
      break;

    case PROP_SEARCH_TEXT:
      g_value_set_string (value, self->search_text);
      break;

    case PROP_SEARCH_IN_CATEGORY:
      g_value_set_boolean (value, self->search_in_category);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sps_session_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  SpsSession *self = SPS_SESSION (object);

  switch (prop_id)
    {
    case PROP_TRACE:
      self->trace = g_value_dup_object (value);
      break;

    case PROP_SELECTED_SLICE:
      sps_session_set_selected_slice (self, g_value_get_uint (value));
      break;

    case PROP_HOVERED_SLICE:
      sps_session_set_hovered_slice (self, g_value_get_uint (value));
      break;

    case PROP_SHOW_FLOWS:
      sps_session_set_show_flows (self, g_value_get_boolean (value));
      break;

    case PROP_RAW_STACKS:
      sps_session_set_raw_stacks (self, g_value_get_boolean (value));
      break;

    case PROP_SEARCH_TEXT:
      sps_session_set_search_text (self, g_value_get_string (value));
      break;

    case PROP_SEARCH_IN_CATEGORY:
      sps_session_set_search_in_category (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sps_session_class_init (SpsSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = sps_session_constructed;
  object_class->dispose = sps_session_dispose;
  object_class->finalize = sps_session_finalize;
  object_class->get_property = sps_session_get_property;
  object_class->set_property = sps_session_set_property;

  properties[PROP_TRACE] =
    g_param_spec_object ("trace", NULL, NULL,
                         SPS_TYPE_TRACE,
                         (G_PARAM_READWRITE |
                          G_PARAM_CONSTRUCT_ONLY |
                          G_PARAM_STATIC_STRINGS));

  properties[PROP_VISIBLE_START] =
    g_param_spec_int64 ("visible-start", NULL, NULL,
                        G_MININT64, G_MAXINT64, 0,
                        (G_PARAM_READABLE |
                         G_PARAM_EXPLICIT_NOTIFY |
                         G_PARAM_STATIC_STRINGS));

  properties[PROP_VISIBLE_END] =
    g_param_spec_int64 ("visible-end", NULL, NULL,
                        G_MININT64, G_MAXINT64, 0,
                        (G_PARAM_READABLE |
                         G_PARAM_EXPLICIT_NOTIFY |
                         G_PARAM_STATIC_STRINGS));

  properties[PROP_SELECTED_SLICE] =
    g_param_spec_uint ("selected-slice", NULL, NULL,
                       0, G_MAXUINT32, SPS_NO_INDEX,
                       (G_PARAM_READWRITE |
                        G_PARAM_EXPLICIT_NOTIFY |
                        G_PARAM_STATIC_STRINGS));

  properties[PROP_HOVERED_SLICE] =
    g_param_spec_uint ("hovered-slice", NULL, NULL,
                       0, G_MAXUINT32, SPS_NO_INDEX,
                       (G_PARAM_READWRITE |
                        G_PARAM_EXPLICIT_NOTIFY |
                        G_PARAM_STATIC_STRINGS));

  properties[PROP_HAS_RANGE] =
    g_param_spec_boolean ("has-range", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE |
                           G_PARAM_EXPLICIT_NOTIFY |
                           G_PARAM_STATIC_STRINGS));

  properties[PROP_RANGE_START] =
    g_param_spec_int64 ("range-start", NULL, NULL,
                        G_MININT64, G_MAXINT64, 0,
                        (G_PARAM_READABLE |
                         G_PARAM_EXPLICIT_NOTIFY |
                         G_PARAM_STATIC_STRINGS));

  properties[PROP_RANGE_END] =
    g_param_spec_int64 ("range-end", NULL, NULL,
                        G_MININT64, G_MAXINT64, 0,
                        (G_PARAM_READABLE |
                         G_PARAM_EXPLICIT_NOTIFY |
                         G_PARAM_STATIC_STRINGS));

  properties[PROP_SHOW_FLOWS] =
    g_param_spec_boolean ("show-flows", NULL, NULL,
                          TRUE,
                          (G_PARAM_READWRITE |
                           G_PARAM_EXPLICIT_NOTIFY |
                           G_PARAM_STATIC_STRINGS));

  properties[PROP_RAW_STACKS] =
    g_param_spec_boolean ("raw-stacks", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE |
                           G_PARAM_EXPLICIT_NOTIFY |
                           G_PARAM_STATIC_STRINGS));

  properties[PROP_SEARCH_TEXT] =
    g_param_spec_string ("search-text", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE |
                          G_PARAM_EXPLICIT_NOTIFY |
                          G_PARAM_STATIC_STRINGS));

  properties[PROP_SEARCH_IN_CATEGORY] =
    g_param_spec_boolean ("search-in-category", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE |
                           G_PARAM_EXPLICIT_NOTIFY |
                           G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * SpsSession::layout-changed:
   * @self: the session
   *
   * The set of visible rows changed (a process was collapsed or
   * expanded); views rebuild their row layout.
   */
  signals[LAYOUT_CHANGED] =
    g_signal_new ("layout-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 0);

  /**
   * SpsSession::filters-changed:
   * @self: the session
   *
   * A thread, process or category was hidden or shown. Views that
   * aggregate slices or samples recompute with
   * sps_session_is_slice_visible() and sps_session_is_sample_visible().
   * When threads or processes changed, #SpsSession::layout-changed is
   * emitted first.
   */
  signals[FILTERS_CHANGED] =
    g_signal_new ("filters-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 0);
}

static void
sps_session_init (SpsSession *self)
{
  self->selected_slice = SPS_NO_INDEX;
  self->hovered_slice = SPS_NO_INDEX;
  self->show_flows = TRUE;
}

/**
 * sps_session_new:
 * @trace: a finished trace
 *
 * Creates the interaction state for @trace, showing the whole trace.
 *
 * Returns: (transfer full): a new #SpsSession
 */
SpsSession *
sps_session_new (SpsTrace *trace)
{
  g_return_val_if_fail (SPS_IS_TRACE (trace), NULL);

  return g_object_new (SPS_TYPE_SESSION,
                       "trace", trace,
                       NULL);
}

/**
 * sps_session_get_trace:
 * @self: a #SpsSession
 *
 * Returns: (transfer none): the trace
 */
SpsTrace *
sps_session_get_trace (SpsSession *self)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), NULL);

  return self->trace;
}

/**
 * sps_session_get_visible_start:
 * @self: a #SpsSession
 *
 * Returns: the start of the visible window, in ns
 */
SpsTime
sps_session_get_visible_start (SpsSession *self)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), 0);

  return self->visible_start;
}

/**
 * sps_session_get_visible_end:
 * @self: a #SpsSession
 *
 * Returns: the end of the visible window, in ns (always after the start)
 */
SpsTime
sps_session_get_visible_end (SpsSession *self)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), 0);

  return self->visible_end;
}

/**
 * sps_session_set_visible:
 * @self: a #SpsSession
 * @start: the wanted start, in ns
 * @end: the wanted end, in ns; after @start
 *
 * Shows [@start, @end], clamped: at least 10 ns wide (grown around its
 * centre), at most the trace plus 5 % of its span on each side, and
 * shifted inside those bounds when it sticks out.
 */
void
sps_session_set_visible (SpsSession *self,
                         SpsTime     start,
                         SpsTime     end)
{
  g_return_if_fail (SPS_IS_SESSION (self));
  g_return_if_fail (start < end);

  apply_window (self, start, _sps_time_span (start, end));
}

/**
 * sps_session_zoom:
 * @self: a #SpsSession
 * @factor: how much to magnify: 2 halves the visible span, 0.5 doubles it
 * @anchor: the time that stays at the same place on screen, in ns
 *
 * Zooms around @anchor: the new span is the old one divided by @factor
 * (then limited to 10 ns … the bounds), and @anchor keeps its relative
 * position in the window, unless the clamping has to shift the window.
 */
void
sps_session_zoom (SpsSession *self,
                  double      factor,
                  SpsTime     anchor)
{
  guint64 span;
  guint64 max_span;
  guint64 new_span;
  double wanted;
  double offset;
  SpsTime start;

  g_return_if_fail (SPS_IS_SESSION (self));
  g_return_if_fail (factor > 0 && isfinite (factor));

  span = _sps_time_span (self->visible_start, self->visible_end);
  max_span = _sps_time_span (self->bound_start, self->bound_end);
  wanted = (double) span / factor;

  if (wanted >= (double) max_span)
    new_span = max_span;
  else if (wanted <= MIN_SPAN)
    new_span = MIN_SPAN;
  else
    new_span = (guint64) llround (wanted);

  /* The anchor's distance to the start scales with the span. */
  offset = (double) _sps_time_sub (anchor, self->visible_start) * ((double) new_span / (double) span);
  start = _sps_time_sub (anchor, (SpsTime) llround (offset));

  apply_window (self, start, new_span);
}

/**
 * sps_session_pan:
 * @self: a #SpsSession
 * @delta: how far to move the window, in ns (negative: earlier)
 *
 * Moves the window by @delta, keeping its span, and stops at the bounds.
 */
void
sps_session_pan (SpsSession *self,
                 SpsTime     delta)
{
  guint64 span;
  SpsTime start;

  g_return_if_fail (SPS_IS_SESSION (self));

  span = _sps_time_span (self->visible_start, self->visible_end);
  start = _sps_time_add (self->visible_start, delta);

  apply_window (self, start, span);
}

/**
 * sps_session_fit:
 * @self: a #SpsSession
 *
 * Fits the selected slice (with 10 % of its duration as margin on each
 * side), or else the range selection, or else the whole trace.
 */
void
sps_session_fit (SpsSession *self)
{
  g_return_if_fail (SPS_IS_SESSION (self));

  if (self->selected_slice != SPS_NO_INDEX)
    fit_slice (self, self->selected_slice);
  else if (self->has_range)
    apply_window (self, self->range_start, _sps_time_span (self->range_start, self->range_end));
  else
    sps_session_fit_trace (self);
}

/**
 * sps_session_fit_trace:
 * @self: a #SpsSession
 *
 * Shows the whole trace, from its first to its last timestamp.
 */
void
sps_session_fit_trace (SpsSession *self)
{
  SpsTime start;
  SpsTime end;

  g_return_if_fail (SPS_IS_SESSION (self));

  start = sps_trace_get_start_time (self->trace);
  end = sps_trace_get_end_time (self->trace);

  apply_window (self, start, _sps_time_span (start, MAX (start, end)));
}

/**
 * sps_session_go_to_time:
 * @self: a #SpsSession
 * @time: a time in ns
 *
 * Centres the window on @time, keeping the zoom. Near the ends of the
 * trace the clamping may leave @time off-centre.
 */
void
sps_session_go_to_time (SpsSession *self,
                        SpsTime     time)
{
  g_return_if_fail (SPS_IS_SESSION (self));

  centre_on (self, time);
}

/**
 * sps_session_get_selected_slice:
 * @self: a #SpsSession
 *
 * Returns: the selected slice index, or %SPS_NO_INDEX
 */
guint
sps_session_get_selected_slice (SpsSession *self)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), SPS_NO_INDEX);

  return self->selected_slice;
}

/**
 * sps_session_set_selected_slice:
 * @self: a #SpsSession
 * @slice: a slice index, or %SPS_NO_INDEX to clear
 *
 * Selects @slice. The window does not move (see the select_ functions
 * for navigation that reveals its target).
 */
void
sps_session_set_selected_slice (SpsSession *self,
                                guint       slice)
{
  g_return_if_fail (SPS_IS_SESSION (self));
  g_return_if_fail (slice == SPS_NO_INDEX || slice < sps_trace_get_slices (self->trace)->n_rows);

  set_slice_property (self, &self->selected_slice, slice, PROP_SELECTED_SLICE);
}

/**
 * sps_session_select_parent:
 * @self: a #SpsSession
 *
 * Selects the parent of the selected slice and brings it into view.
 *
 * Returns: %TRUE if it moved; %FALSE (selection unchanged) when nothing
 *   is selected or the selection is a root
 */
gboolean
sps_session_select_parent (SpsSession *self)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), FALSE);

  return select_related (self, slice_parent);
}

/**
 * sps_session_select_first_child:
 * @self: a #SpsSession
 *
 * Selects the first child of the selected slice (the earliest; the first
 * in table order after it whose parent it is) and brings it into view.
 *
 * Returns: %TRUE if it moved; %FALSE (selection unchanged) when nothing
 *   is selected or the selection has no children
 */
gboolean
sps_session_select_first_child (SpsSession *self)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), FALSE);

  return select_related (self, _sps_slice_first_child);
}

/**
 * sps_session_select_sibling:
 * @self: a #SpsSession
 * @direction: -1 for the previous sibling, 1 for the next
 *
 * Selects the previous or next slice of the same track with the same
 * parent (roots of a track are siblings), and brings it into view.
 *
 * Returns: %TRUE if it moved; %FALSE (selection unchanged) when nothing
 *   is selected or there is no sibling that way
 */
gboolean
sps_session_select_sibling (SpsSession *self,
                            int         direction)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), FALSE);
  g_return_val_if_fail (direction != 0, FALSE);

  return select_related (self, direction < 0 ? _sps_slice_prev_sibling
                                             : _sps_slice_next_sibling);
}

/**
 * sps_session_get_hovered_slice:
 * @self: a #SpsSession
 *
 * Returns: the slice under the pointer, or %SPS_NO_INDEX
 */
guint
sps_session_get_hovered_slice (SpsSession *self)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), SPS_NO_INDEX);

  return self->hovered_slice;
}

/**
 * sps_session_set_hovered_slice:
 * @self: a #SpsSession
 * @slice: a slice index, or %SPS_NO_INDEX
 *
 * Sets the slice under the pointer.
 */
void
sps_session_set_hovered_slice (SpsSession *self,
                               guint       slice)
{
  g_return_if_fail (SPS_IS_SESSION (self));
  g_return_if_fail (slice == SPS_NO_INDEX || slice < sps_trace_get_slices (self->trace)->n_rows);

  set_slice_property (self, &self->hovered_slice, slice, PROP_HOVERED_SLICE);
}

/**
 * sps_session_get_range:
 * @self: a #SpsSession
 * @start: (out) (optional): the start of the range, in ns
 * @end: (out) (optional): the end of the range, in ns
 *
 * Gets the time range selection. Without one, @start and @end are set
 * to 0.
 *
 * Returns: %TRUE if a range is selected
 */
gboolean
sps_session_get_range (SpsSession *self,
                       SpsTime    *start,
                       SpsTime    *end)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), FALSE);

  if (start != NULL)
    *start = self->has_range ? self->range_start : 0;
  if (end != NULL)
    *end = self->has_range ? self->range_end : 0;

  return self->has_range;
}

/**
 * sps_session_set_range:
 * @self: a #SpsSession
 * @start: one end of the range, in ns
 * @end: the other end, in ns
 *
 * Selects the time range between @start and @end, in either order (a
 * drag may go right to left).
 */
void
sps_session_set_range (SpsSession *self,
                       SpsTime     start,
                       SpsTime     end)
{
  g_return_if_fail (SPS_IS_SESSION (self));

  if (end < start)
    {
      SpsTime tmp = start;

      start = end;
      end = tmp;
    }

  g_object_freeze_notify (G_OBJECT (self));

  if (self->range_start != start)
    {
      self->range_start = start;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RANGE_START]);
    }

  if (self->range_end != end)
    {
      self->range_end = end;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RANGE_END]);
    }

  if (!self->has_range)
    {
      self->has_range = TRUE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HAS_RANGE]);
    }

  g_object_thaw_notify (G_OBJECT (self));
}

/**
 * sps_session_clear_range:
 * @self: a #SpsSession
 *
 * Removes the time range selection. "range-start" and "range-end" keep
 * their last values; they only mean something while "has-range" is set.
 */
void
sps_session_clear_range (SpsSession *self)
{
  g_return_if_fail (SPS_IS_SESSION (self));

  if (!self->has_range)
    return;

  self->has_range = FALSE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HAS_RANGE]);
}

/**
 * sps_session_clear:
 * @self: a #SpsSession
 *
 * What Escape does: clears the selected slice and the range selection.
 * The window, hover and collapsed processes stay.
 */
void
sps_session_clear (SpsSession *self)
{
  g_return_if_fail (SPS_IS_SESSION (self));

  g_object_freeze_notify (G_OBJECT (self));
  sps_session_set_selected_slice (self, SPS_NO_INDEX);
  sps_session_clear_range (self);
  g_object_thaw_notify (G_OBJECT (self));
}

/**
 * sps_session_get_show_flows:
 * @self: a #SpsSession
 *
 * Returns: whether flow arrows are drawn
 */
gboolean
sps_session_get_show_flows (SpsSession *self)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), FALSE);

  return self->show_flows;
}

/**
 * sps_session_set_show_flows:
 * @self: a #SpsSession
 * @show_flows: whether to draw flow arrows
 */
void
sps_session_set_show_flows (SpsSession *self,
                            gboolean    show_flows)
{
  g_return_if_fail (SPS_IS_SESSION (self));

  show_flows = !!show_flows;
  if (self->show_flows == (guint) show_flows)
    return;

  self->show_flows = show_flows;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_FLOWS]);
}

/**
 * sps_session_get_raw_stacks:
 * @self: a #SpsSession
 *
 * Returns: whether views of samples read the stacks as the file wrote
 *   them (sps_trace_get_raw_samples()) instead of as repaired
 */
gboolean
sps_session_get_raw_stacks (SpsSession *self)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), FALSE);

  return self->raw_stacks;
}

/**
 * sps_session_set_raw_stacks:
 * @self: a #SpsSession
 * @raw_stacks: whether views of samples show the raw stacks
 *
 * Has an effect only for traces whose stacks were repaired (whose raw
 * sample table is not empty); the others have one set of stacks.
 */
void
sps_session_set_raw_stacks (SpsSession *self,
                            gboolean    raw_stacks)
{
  g_return_if_fail (SPS_IS_SESSION (self));

  raw_stacks = !!raw_stacks;
  if (self->raw_stacks == (guint) raw_stacks)
    return;

  self->raw_stacks = raw_stacks;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RAW_STACKS]);
}

/**
 * sps_session_get_process_collapsed:
 * @self: a #SpsSession
 * @process: a process index
 *
 * Returns: whether @process is collapsed
 */
gboolean
sps_session_get_process_collapsed (SpsSession *self,
                                   guint       process)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), FALSE);
  g_return_val_if_fail (process < self->n_processes, FALSE);

  return self->collapsed[process] != 0;
}

/**
 * sps_session_set_process_collapsed:
 * @self: a #SpsSession
 * @process: a process index
 * @collapsed: whether to collapse it
 *
 * Collapses or expands @process; emits #SpsSession::layout-changed when
 * that changes something.
 */
void
sps_session_set_process_collapsed (SpsSession *self,
                                   guint       process,
                                   gboolean    collapsed)
{
  g_return_if_fail (SPS_IS_SESSION (self));
  g_return_if_fail (process < self->n_processes);

  collapsed = !!collapsed;
  if (self->collapsed[process] == (guint8) collapsed)
    return;

  self->collapsed[process] = collapsed;
  g_signal_emit (self, signals[LAYOUT_CHANGED], 0);
}

/**
 * sps_session_get_thread_hidden:
 * @self: a #SpsSession
 * @thread: a thread index
 *
 * Returns: whether the user hid @thread (its process may hide it too)
 */
gboolean
sps_session_get_thread_hidden (SpsSession *self,
                               guint       thread)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), FALSE);
  g_return_val_if_fail (thread < self->n_threads, FALSE);

  return self->thread_hidden[thread] != 0;
}

/**
 * sps_session_set_thread_hidden:
 * @self: a #SpsSession
 * @thread: a thread index
 * @hidden: whether to hide it
 *
 * Hides or shows every track of @thread (slices, sampled spans, instants,
 * samples). Emits #SpsSession::layout-changed and
 * #SpsSession::filters-changed when the state changed.
 */
void
sps_session_set_thread_hidden (SpsSession *self,
                               guint       thread,
                               gboolean    hidden)
{
  g_return_if_fail (SPS_IS_SESSION (self));
  g_return_if_fail (thread < self->n_threads);

  if (set_flag (self->thread_hidden, thread, hidden, &self->n_hidden))
    filters_changed (self, TRUE);
}

/**
 * sps_session_get_process_hidden:
 * @self: a #SpsSession
 * @process: a process index
 *
 * Returns: whether @process is hidden
 */
gboolean
sps_session_get_process_hidden (SpsSession *self,
                                guint       process)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), FALSE);
  g_return_val_if_fail (process < self->n_processes, FALSE);

  return self->process_hidden[process] != 0;
}

/**
 * sps_session_set_process_hidden:
 * @self: a #SpsSession
 * @process: a process index
 * @hidden: whether to hide it
 *
 * Hides or shows @process with all its tracks (its threads' flags are
 * kept, so showing the process again restores them as they were).
 */
void
sps_session_set_process_hidden (SpsSession *self,
                                guint       process,
                                gboolean    hidden)
{
  g_return_if_fail (SPS_IS_SESSION (self));
  g_return_if_fail (process < self->n_processes);

  if (set_flag (self->process_hidden, process, hidden, &self->n_hidden))
    filters_changed (self, TRUE);
}

/**
 * sps_session_get_categories:
 * @self: a #SpsSession
 * @n_categories: (out): how many
 *
 * The category tokens used by the trace's slices and instants, sorted by
 * text: each comma-separated part of a category, trimmed. A slice with an
 * empty category counts under the empty string.
 *
 * Returns: (array length=n_categories) (transfer none): string ids
 */
const guint32 *
sps_session_get_categories (SpsSession *self,
                            guint      *n_categories)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), NULL);
  g_return_val_if_fail (n_categories != NULL, NULL);

  *n_categories = self->categories->len;
  return (const guint32 *) (gpointer) self->categories->data;
}

static guint
token_index_of (SpsSession *self,
                guint32     category_string_id)
{
  gpointer value;

  g_assert (SPS_IS_SESSION (self));

  value = g_hash_table_lookup (self->token_index, GUINT_TO_POINTER (category_string_id));
  return value != NULL ? GPOINTER_TO_UINT (value) - 1 : SPS_NO_INDEX;
}

/**
 * sps_session_get_category_hidden:
 * @self: a #SpsSession
 * @category_string_id: a token from sps_session_get_categories()
 *
 * Returns: whether the token is hidden; %FALSE for a string that is no
 *   category token
 */
gboolean
sps_session_get_category_hidden (SpsSession *self,
                                 guint32     category_string_id)
{
  guint index;

  g_return_val_if_fail (SPS_IS_SESSION (self), FALSE);

  index = token_index_of (self, category_string_id);
  return index != SPS_NO_INDEX && self->token_hidden[index];
}

/**
 * sps_session_set_category_hidden:
 * @self: a #SpsSession
 * @category_string_id: a token from sps_session_get_categories()
 * @hidden: whether to hide it
 *
 * Hides or shows a category token. A slice stays visible while at least
 * one token of its category is shown (the way Chrome records an event
 * when any of its categories is enabled). A string that is not a token of
 * this trace is ignored.
 */
void
sps_session_set_category_hidden (SpsSession *self,
                                 guint32     category_string_id,
                                 gboolean    hidden)
{
  guint index;

  g_return_if_fail (SPS_IS_SESSION (self));

  index = token_index_of (self, category_string_id);
  if (index == SPS_NO_INDEX)
    return;

  if (set_flag (self->token_hidden, index, hidden, &self->n_hidden))
    filters_changed (self, FALSE);
}

/**
 * sps_session_show_all:
 * @self: a #SpsSession
 *
 * Clears every filter: all processes, threads and categories are shown.
 */
void
sps_session_show_all (SpsSession *self)
{
  g_return_if_fail (SPS_IS_SESSION (self));

  if (self->n_hidden == 0)
    return;

  memset (self->process_hidden, 0, MAX (self->n_processes, 1));
  memset (self->thread_hidden, 0, MAX (self->n_threads, 1));
  memset (self->token_hidden, 0, MAX (self->categories->len, 1));
  self->n_hidden = 0;
  filters_changed (self, TRUE);
}

/* Sets every flag of @flags (n of them) to hidden except @keep, and
 * recounts n_hidden; TRUE when anything changed. */
static gboolean
hide_all_but (guint8 *flags,
              guint   n,
              guint   keep)
{
  gboolean changed = FALSE;

  g_assert (flags != NULL || n == 0);

  for (guint i = 0; i < n; i++)
    {
      guint8 hidden = i != keep;

      changed |= flags[i] != hidden;
      flags[i] = hidden;
    }

  return changed;
}

static void
recount_hidden (SpsSession *self)
{
  g_assert (SPS_IS_SESSION (self));

  self->n_hidden = 0;
  for (guint i = 0; i < self->n_processes; i++)
    self->n_hidden += self->process_hidden[i];
  for (guint i = 0; i < self->n_threads; i++)
    self->n_hidden += self->thread_hidden[i];
  for (guint i = 0; i < self->categories->len; i++)
    self->n_hidden += self->token_hidden[i];
}

/**
 * sps_session_show_only_process:
 * @self: a #SpsSession
 * @process: a process index
 *
 * Hides every other process and shows @process with all its threads
 * (category filters stay). One #SpsSession::filters-changed.
 */
void
sps_session_show_only_process (SpsSession *self,
                               guint       process)
{
  const SpsThreadTable *threads;
  gboolean changed;

  g_return_if_fail (SPS_IS_SESSION (self));
  g_return_if_fail (process < self->n_processes);

  threads = sps_trace_get_threads (self->trace);
  changed = hide_all_but (self->process_hidden, self->n_processes, process);
  for (guint t = 0; t < self->n_threads; t++)
    if (threads->process[t] == process && self->thread_hidden[t])
      {
        self->thread_hidden[t] = FALSE;
        changed = TRUE;
      }

  if (changed)
    {
      recount_hidden (self);
      filters_changed (self, TRUE);
    }
}

/**
 * sps_session_show_only_thread:
 * @self: a #SpsSession
 * @thread: a thread index
 *
 * Hides every other thread and every other process (with their async
 * lanes and counters), and shows @thread and its process (category
 * filters stay). One #SpsSession::filters-changed.
 */
void
sps_session_show_only_thread (SpsSession *self,
                              guint       thread)
{
  const SpsThreadTable *threads;
  gboolean changed;

  g_return_if_fail (SPS_IS_SESSION (self));
  g_return_if_fail (thread < self->n_threads);

  threads = sps_trace_get_threads (self->trace);
  changed = hide_all_but (self->thread_hidden, self->n_threads, thread);
  changed |= hide_all_but (self->process_hidden, self->n_processes, threads->process[thread]);

  if (changed)
    {
      recount_hidden (self);
      filters_changed (self, TRUE);
    }
}

/**
 * sps_session_show_only_category:
 * @self: a #SpsSession
 * @category_string_id: a token from sps_session_get_categories()
 *
 * Hides every other category token (threads and processes stay). Slices
 * whose category lists this token among others stay visible. A string
 * that is no token of this trace is ignored.
 */
void
sps_session_show_only_category (SpsSession *self,
                                guint32     category_string_id)
{
  guint index;

  g_return_if_fail (SPS_IS_SESSION (self));

  index = token_index_of (self, category_string_id);
  if (index == SPS_NO_INDEX)
    return;

  if (hide_all_but (self->token_hidden, self->categories->len, index))
    {
      recount_hidden (self);
      filters_changed (self, FALSE);
    }
}

/**
 * sps_session_has_filters:
 * @self: a #SpsSession
 *
 * Returns: whether anything is hidden
 */
gboolean
sps_session_has_filters (SpsSession *self)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), FALSE);

  return self->n_hidden != 0;
}

/**
 * sps_session_is_track_visible:
 * @self: a #SpsSession
 * @track: a track index
 *
 * Returns: whether @track is shown: neither its thread nor its process is
 *   hidden (the global instants track is always shown)
 */
gboolean
sps_session_is_track_visible (SpsSession *self,
                              guint       track)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), FALSE);
  g_return_val_if_fail (track < self->n_tracks, FALSE);

  return self->track_visible[track];
}

/**
 * sps_session_is_category_visible:
 * @self: a #SpsSession
 * @category_string_id: the category of a slice or instant, as stored
 *
 * Returns: whether at least one token of the category is shown (%TRUE for
 *   a string no slice or instant uses as category)
 */
gboolean
sps_session_is_category_visible (SpsSession *self,
                                 guint32     category_string_id)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), FALSE);

  if (category_string_id >= self->n_strings)
    return TRUE;
  return self->category_visible[category_string_id];
}

/**
 * sps_session_is_slice_visible:
 * @self: a #SpsSession
 * @slice: a slice index
 *
 * Whether the filters let @slice through: its track is visible and one of
 * its category tokens is shown. Two array reads; cheap enough for every
 * slice of a frame or of an aggregation pass.
 *
 * Returns: whether @slice is shown
 */
gboolean
sps_session_is_slice_visible (SpsSession *self,
                              guint       slice)
{
  const SpsSliceTable *slices;

  g_return_val_if_fail (SPS_IS_SESSION (self), FALSE);

  slices = sps_trace_get_slices (self->trace);
  g_return_val_if_fail (slice < slices->n_rows, FALSE);

  return self->track_visible[slices->track[slice]]
         && (slices->category[slice] >= self->n_strings
             || self->category_visible[slices->category[slice]]);
}

/**
 * sps_session_is_instant_visible:
 * @self: a #SpsSession
 * @instant: an instant index
 *
 * Returns: whether @instant is shown (its track and category, as for
 *   slices)
 */
gboolean
sps_session_is_instant_visible (SpsSession *self,
                                guint       instant)
{
  const SpsInstantTable *instants;

  g_return_val_if_fail (SPS_IS_SESSION (self), FALSE);

  instants = sps_trace_get_instants (self->trace);
  g_return_val_if_fail (instant < instants->n_rows, FALSE);

  return self->track_visible[instants->track[instant]]
         && (instants->category[instant] >= self->n_strings
             || self->category_visible[instants->category[instant]]);
}

/**
 * sps_session_is_sample_visible:
 * @self: a #SpsSession
 * @sample: a sample index
 *
 * Samples carry no category, so only their thread and process filter
 * them.
 *
 * Returns: whether @sample is shown
 */
gboolean
sps_session_is_sample_visible (SpsSession *self,
                               guint       sample)
{
  const SpsSampleTable *samples;

  g_return_val_if_fail (SPS_IS_SESSION (self), FALSE);

  samples = sps_trace_get_samples (self->trace);
  g_return_val_if_fail (sample < samples->n_rows, FALSE);

  return self->track_visible[samples->track[sample]];
}

/**
 * sps_session_dup_slice_mask:
 * @self: a #SpsSession
 *
 * The filters as one byte per slice (nonzero = visible), for workers that
 * must not call into the session from their thread. Built on first use
 * after each change of the filters and shared until the next one.
 *
 * Returns: (transfer full) (nullable): the mask, or %NULL when nothing is
 *   hidden
 */
GBytes *
sps_session_dup_slice_mask (SpsSession *self)
{
  const SpsSliceTable *slices;
  guint8 *mask;
  guint i;

  g_return_val_if_fail (SPS_IS_SESSION (self), NULL);

  if (self->n_hidden == 0)
    return NULL;

  if (self->slice_mask == NULL)
    {
      const SpsTrackTable *tracks = sps_trace_get_tracks (self->trace);
      gboolean categories_filtered = FALSE;

      for (i = 0; i < self->categories->len; i++)
        categories_filtered |= self->token_hidden[i];

      slices = sps_trace_get_slices (self->trace);
      mask = g_malloc (MAX (slices->n_rows, 1));

      /* A track's slices are contiguous rows: whole tracks at once, and
       * the categories only where some are hidden. */
      for (i = 0; i < tracks->n_rows; i++)
        {
          guint first;
          guint n;

          if (tracks->kind[i] != SPS_TRACK_THREAD_SLICES &&
              tracks->kind[i] != SPS_TRACK_THREAD_SAMPLED_SLICES &&
              tracks->kind[i] != SPS_TRACK_ASYNC)
            continue;

          first = tracks->first_row[i];
          n = tracks->n_rows_in_track[i];
          g_assert (first + n <= slices->n_rows);

          if (!self->track_visible[i] || !categories_filtered)
            {
              memset (mask + first, self->track_visible[i], n);
              continue;
            }

          for (guint r = first; r < first + n; r++)
            mask[r] = slices->category[r] >= self->n_strings
                      || self->category_visible[slices->category[r]];
        }
      self->slice_mask = g_bytes_new_take (mask, MAX (slices->n_rows, 1));
    }

  return g_bytes_ref (self->slice_mask);
}

/**
 * sps_session_get_search_text:
 * @self: a #SpsSession
 *
 * Returns: (nullable): the search text, or %NULL when there is no search
 */
const char *
sps_session_get_search_text (SpsSession *self)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), NULL);

  return self->search_text;
}

/**
 * sps_session_set_search_text:
 * @self: a #SpsSession
 * @text: (nullable): the text; %NULL or empty ends the search
 *
 * Sets what views highlight as search matches. The empty string is
 * stored as %NULL.
 */
void
sps_session_set_search_text (SpsSession *self,
                             const char *text)
{
  g_return_if_fail (SPS_IS_SESSION (self));
  g_return_if_fail (text == NULL || g_utf8_validate (text, -1, NULL));

  if (text != NULL && text[0] == '\0')
    text = NULL;
  if (g_strcmp0 (text, self->search_text) == 0)
    return;

  g_free (self->search_text);
  self->search_text = g_strdup (text);
  g_clear_pointer (&self->search_pattern, sps_search_pattern_free);
  self->search_pattern = sps_search_pattern_new (text);
  if (self->search_memo != NULL)
    memset (self->search_memo, 0, MAX (self->n_strings, 1));

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEARCH_TEXT]);
}

/**
 * sps_session_get_search_in_category:
 * @self: a #SpsSession
 *
 * Returns: whether the search matches categories instead of names
 */
gboolean
sps_session_get_search_in_category (SpsSession *self)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), FALSE);

  return self->search_in_category;
}

/**
 * sps_session_set_search_in_category:
 * @self: a #SpsSession
 * @in_category: %TRUE to match categories, %FALSE for names
 *
 * Chooses what sps_session_slice_matches_search() looks at.
 */
void
sps_session_set_search_in_category (SpsSession *self,
                                    gboolean    in_category)
{
  g_return_if_fail (SPS_IS_SESSION (self));

  in_category = !!in_category;
  if (self->search_in_category == (guint) in_category)
    return;

  self->search_in_category = in_category;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEARCH_IN_CATEGORY]);
}

/**
 * sps_session_search_matches:
 * @self: a #SpsSession
 * @string_id: a string id of the trace
 *
 * Whether the string contains the search text, ignoring case (see
 * sps_search_pattern_match()). The answer is remembered per string id
 * until the text changes, so calling this for every slice of a frame
 * costs one array read per slice after the first sight of each name.
 * Main thread only.
 *
 * Returns: %TRUE on a match; %FALSE when there is no search
 */
gboolean
sps_session_search_matches (SpsSession *self,
                            guint32     string_id)
{
  const char *str;
  gsize len;
  gboolean match;

  g_return_val_if_fail (SPS_IS_SESSION (self), FALSE);

  if (self->search_pattern == NULL)
    return FALSE;

  if (string_id >= self->n_strings)
    return FALSE;

  if (self->search_memo == NULL)
    self->search_memo = g_new0 (guint8, MAX (self->n_strings, 1));
  if (self->search_memo[string_id] != 0)
    return self->search_memo[string_id] == 2;

  str = sps_string_pool_get (sps_trace_get_strings (self->trace), string_id, &len);
  match = sps_search_pattern_match (self->search_pattern, str, len);
  self->search_memo[string_id] = match ? 2 : 1;

  return match;
}

/**
 * sps_session_slice_matches_search:
 * @self: a #SpsSession
 * @slice: a slice index
 *
 * Returns: whether the slice's name (or category, with
 *   #SpsSession:search-in-category) matches the search text
 */
gboolean
sps_session_slice_matches_search (SpsSession *self,
                                  guint       slice)
{
  const SpsSliceTable *slices;

  g_return_val_if_fail (SPS_IS_SESSION (self), FALSE);

  slices = sps_trace_get_slices (self->trace);
  g_return_val_if_fail (slice < slices->n_rows, FALSE);

  return sps_session_search_matches (self,
                                     self->search_in_category
                                     ? slices->category[slice]
                                     : slices->name[slice]);
}
