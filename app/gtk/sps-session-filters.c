/* sps-session-filters.c: what SpsSession hides: processes, threads, category tokens
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The session keeps the user's flags and forwards them to its
 * SpsViewFilter, which answers for slices (visibility, masks, lanes):
 *
 * - a hidden process or thread is HIDDEN, a collapsed one COLLAPSED
 *   (hidden wins), otherwise EXPANDED;
 * - category tokens: the session shows a slice while *any* of its tokens
 *   is shown, but an exclude mask hides a slice with *any* excluded bit.
 *   So the hidden tokens are not excluded one class each (a trace has far
 *   more tokens than the filter has classes): one class, CATEGORY_CLASS,
 *   has a category rule per *shown* token and is required while some
 *   token is hidden. A slice has that bit exactly when one of its tokens
 *   is shown: what users saw before, in one bit whatever the number of
 *   tokens. Changing a token replaces the class's rules (one pass over
 *   the slices); showing every token again only drops the bit from the
 *   require mask.
 *
 * Instants and samples are not slices: their visibility stays the
 * per-track and per-category bytes derived here.
 */

#define G_LOG_DOMAIN "sps-session"

#include "config.h"

#include <string.h>

#include "sps-session.h"
#include "sps-session-private.h"
#include "sps-session-state-private.h"

/* The class of slices with at least one shown category token */
#define CATEGORY_CLASS "categories-shown"

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

  self->view_filter = sps_view_filter_new (self->trace);
  self->thread_collapsed = g_new0 (guint8, MAX (self->n_threads, 1));
  _sps_session_init_controls (self);
  _sps_session_init_marks (self);
}

void
_sps_session_finalize_filters (SpsSession *self)
{
  g_assert (SPS_IS_SESSION (self));

  g_clear_object (&self->view_filter);
  g_clear_pointer (&self->thread_collapsed, g_free);
  _sps_session_finalize_marks (self);
}

gboolean
_sps_session_is_category_class (const char *name)
{
  return g_strcmp0 (name, CATEGORY_CLASS) == 0;
}

static SpsExpansion
expansion_of (gboolean hidden,
              gboolean collapsed)
{
  if (hidden)
    return SPS_EXPANSION_HIDDEN;
  return collapsed ? SPS_EXPANSION_COLLAPSED : SPS_EXPANSION_EXPANDED;
}

/* The processes' and threads' states to the filter; a state that did
 * not change costs nothing there. */
static void
sync_hierarchy (SpsSession *self)
{
  g_assert (SPS_IS_SESSION (self));

  for (guint p = 0; p < self->n_processes; p++)
    sps_view_filter_set_process_expansion (self->view_filter, p,
                                           expansion_of (self->process_hidden[p], self->collapsed[p]));
  for (guint t = 0; t < self->n_threads; t++)
    sps_view_filter_set_thread_expansion (self->view_filter, t,
                                          expansion_of (self->thread_hidden[t], self->thread_collapsed[t]));
}

/* The filter's class masks: the chips' masks, and CATEGORY_CLASS
 * required while a token is hidden. */
void
_sps_session_sync_masks (SpsSession *self)
{
  int bit = sps_view_filter_lookup_class (self->view_filter, CATEGORY_CLASS);
  guint32 require = self->user_require;
  gboolean tokens_hidden = FALSE;

  g_assert (SPS_IS_SESSION (self));

  for (guint i = 0; i < self->categories->len && !tokens_hidden; i++)
    tokens_hidden = self->token_hidden[i];
  if (tokens_hidden && bit >= 0)
    require |= 1u << bit;
  sps_view_filter_set_class_masks (self->view_filter, require, self->user_exclude);
}

/* The category tokens to the filter (see the top of this file). */
static void
sync_categories (SpsSession *self)
{
  g_autoptr(GPtrArray) shown = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  gboolean any_hidden = FALSE;

  g_assert (SPS_IS_SESSION (self));

  for (guint i = 0; i < self->categories->len; i++)
    {
      /* The filter's rules see tokens trimmed, and an all-blank category
       * as the empty token */
      const char *text = sps_trace_get_string (self->trace, g_array_index (self->categories, guint32, i));

      if (self->token_hidden[i])
        any_hidden = TRUE;
      else
        g_ptr_array_add (shown, g_strstrip (g_strdup (text != NULL ? text : "")));
    }
  g_ptr_array_add (shown, NULL);

  if (any_hidden &&
      !sps_view_filter_replace_rules (self->view_filter, CATEGORY_CLASS, SPS_CLASS_RULE_CATEGORY,
                                      (const char * const *) shown->pdata, &error))
    {
      /* Only when the chips took every class: categories are then not
       * filtered, which shows too much rather than too little */
      g_warning ("Cannot filter categories: %s", error->message);
    }
  _sps_session_sync_masks (self);
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
  /* Tokens change alone (or all shown again, from show_all()); the
   * hierarchy costs nothing where it did not change */
  sync_hierarchy (self);
  if (!rows_changed)
    sync_categories (self);
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
  sync_hierarchy (self);
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
  sync_hierarchy (self);
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
  sync_categories (self);
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

/* Whether the filter's own controls (minimum duration, chips, focus)
 * hide any slice, hierarchy and categories aside */
static gboolean
filter_hides_slices (SpsSession *self)
{
  g_assert (SPS_IS_SESSION (self));

  return sps_view_filter_get_min_duration (self->view_filter) > 0 ||
         self->user_require != 0 || self->user_exclude != 0 ||
         sps_view_filter_is_focus_active (self->view_filter);
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

  return self->n_hidden != 0 || filter_hides_slices (self);
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
 * Whether the filters let @slice through: neither its thread nor its
 * process is hidden, one of its category tokens is shown, and it passes
 * the minimum duration, the classification chips and focus. Collapse is
 * no filter: a collapsed thread's or process's slices are visible here
 * (its representative lane stands for them on the timeline). A few array
 * reads (sps_view_filter_is_slice_matched()); cheap enough for every
 * slice of a frame or of an aggregation pass.
 *
 * Returns: whether @slice is shown
 */
gboolean
sps_session_is_slice_visible (SpsSession *self,
                              guint       slice)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), FALSE);

  return sps_view_filter_is_slice_matched (self->view_filter, slice);
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
 * The filters as one byte per slice (nonzero = visible, as
 * sps_session_is_slice_visible() says), for workers that must not call
 * into the session from their thread: the view filter's
 * sps_view_filter_dup_matched_mask(), built on first use after each
 * change and shared until the next one.
 *
 * Returns: (transfer full) (nullable): the mask, or %NULL when nothing is
 *   hidden
 */
GBytes *
sps_session_dup_slice_mask (SpsSession *self)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), NULL);

  if (!sps_session_has_filters (self))
    return NULL;

  return sps_view_filter_dup_matched_mask (self->view_filter);
}

/**
 * sps_session_get_view_filter:
 * @self: a #SpsSession
 *
 * The interaction pipeline the session's controls are forwarded to: the
 * timeline takes its lanes from it, SQL its mask. Read it; change the
 * controls through the session, which keeps both in step.
 *
 * Returns: (transfer none): the session's view filter
 */
SpsViewFilter *
sps_session_get_view_filter (SpsSession *self)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), NULL);

  return self->view_filter;
}
