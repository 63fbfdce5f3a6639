/* sps-session-filters.c: what SpsSession hides: processes, threads, category tokens
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-session"

#include "config.h"

#include <string.h>

#include "sps-session.h"
#include "sps-session-private.h"
#include "sps-session-state-private.h"

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

void
_sps_session_init_filters (SpsSession *self)
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
    g_signal_emit (self, _sps_session_signals[LAYOUT_CHANGED], 0);
  g_signal_emit (self, _sps_session_signals[FILTERS_CHANGED], 0);
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
void
_sps_session_apply_default_display (SpsSession *self)
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
  g_signal_emit (self, _sps_session_signals[LAYOUT_CHANGED], 0);
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
