/* sps-search.c: case-insensitive search over slice names or categories
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-search"

#include "config.h"

#include <string.h>

#include "sps-search.h"

/* How many slices are scanned between two looks at the cancellable: often
 * enough that a keystroke stops a 5e6-slice scan within a millisecond or
 * so, rarely enough that the check costs nothing. */
#define CANCEL_CHECK_STRIDE 65536

/* What is known of a string id while scanning. */
#define MEMO_UNKNOWN  0
#define MEMO_NO_MATCH 1
#define MEMO_MATCH    2

/* Whether string @id matches @pattern, each id matched once per search */
static inline gboolean
memo_matches (guint8                 *memo,
              const SpsSearchPattern *pattern,
              SpsStringPool          *strings,
              guint32                 id)
{
  if (G_UNLIKELY (memo[id] == MEMO_UNKNOWN))
    {
      gsize len;
      const char *str = sps_string_pool_get (strings, id, &len);

      memo[id] = sps_search_pattern_match (pattern, str, len) ? MEMO_MATCH : MEMO_NO_MATCH;
    }
  return memo[id] == MEMO_MATCH;
}

/**
 * SpsSearchPattern:
 *
 * A compiled case-insensitive substring pattern (see
 * sps_search_pattern_new()). Immutable: share it between threads freely.
 */
struct _SpsSearchPattern
{
  char     *text;       /* as given */
  char     *folded;     /* g_utf8_casefold()ed */
  gsize     folded_len;
  gboolean  ascii;      /* the folded needle is plain ASCII */
};

G_DEFINE_BOXED_TYPE (SpsSearchPattern, sps_search_pattern,
                     sps_search_pattern_copy, sps_search_pattern_free)

/**
 * SpsSearchResult:
 *
 * What sps_search_run() found: the matching slices in table order and
 * their sums per name (#SpsSearchGroup). Immutable and reference
 * counted, so a worker thread can hand it to the main thread.
 */
struct _SpsSearchResult
{
  gatomicrefcount  ref_count;
  SpsTrace        *trace;
  guint32         *matches;   /* slice indices, in table order */
  guint            n_matches;
  guint            matches_capacity;
  GArray          *sample_matches;  /* guint32 sample indices, in table order */
  GArray          *event_matches;   /* guint32 instant indices of events, in table order */
  GArray          *groups;    /* SpsSearchGroup, in order of first sight */
  GHashTable      *by_name;   /* name id → group index + 1 */
};

G_DEFINE_BOXED_TYPE (SpsSearchResult, sps_search_result,
                     sps_search_result_ref, sps_search_result_unref)

/**
 * sps_search_pattern_new:
 * @text: (nullable): what to look for
 *
 * Compiles @text into a case-insensitive substring pattern. Case is
 * folded with g_utf8_casefold(), so "straße" also finds "STRASSE"; plain
 * ASCII text against plain ASCII strings takes a fast path that never
 * allocates.
 *
 * Returns: (transfer full) (nullable): a pattern, or %NULL when @text is
 *   %NULL or empty (no search)
 */
SpsSearchPattern *
sps_search_pattern_new (const char *text)
{
  SpsSearchPattern *self;
  gsize i;

  if (text == NULL || text[0] == '\0')
    return NULL;

  g_return_val_if_fail (g_utf8_validate (text, -1, NULL), NULL);

  self = g_new0 (SpsSearchPattern, 1);
  self->text = g_strdup (text);
  self->folded = g_utf8_casefold (text, -1);
  self->folded_len = strlen (self->folded);
  self->ascii = TRUE;
  for (i = 0; i < self->folded_len; i++)
    if ((guchar) self->folded[i] >= 0x80)
      self->ascii = FALSE;

  return self;
}

/**
 * sps_search_pattern_copy:
 * @self: a #SpsSearchPattern
 *
 * Returns: (transfer full): a copy of @self
 */
SpsSearchPattern *
sps_search_pattern_copy (const SpsSearchPattern *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return sps_search_pattern_new (self->text);
}

/**
 * sps_search_pattern_free:
 * @self: (nullable): a #SpsSearchPattern
 *
 * Frees @self.
 */
void
sps_search_pattern_free (SpsSearchPattern *self)
{
  if (self == NULL)
    return;

  g_free (self->text);
  g_free (self->folded);
  g_free (self);
}

/**
 * sps_search_pattern_get_text:
 * @self: a #SpsSearchPattern
 *
 * Returns: the text the pattern was made from
 */
const char *
sps_search_pattern_get_text (const SpsSearchPattern *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->text;
}

/* Case-insensitive ASCII substring search of a lower-case needle. */
static gboolean
ascii_contains (const char *hay,
                gsize       hay_len,
                const char *needle,
                gsize       needle_len)
{
  guchar first;
  gsize i;

  g_assert (needle_len > 0);

  if (hay_len < needle_len)
    return FALSE;

  first = (guchar) needle[0];
  for (i = 0; i + needle_len <= hay_len; i++)
    {
      gsize j;

      if ((guchar) g_ascii_tolower (hay[i]) != first)
        continue;
      for (j = 1; j < needle_len; j++)
        if (g_ascii_tolower (hay[i + j]) != needle[j])
          break;
      if (j == needle_len)
        return TRUE;
    }

  return FALSE;
}

/**
 * sps_search_pattern_match:
 * @self: a #SpsSearchPattern
 * @str: the string to test (UTF-8)
 * @len: its length in bytes, or -1 when nul-terminated
 *
 * Returns: whether @str contains the pattern, ignoring case
 */
gboolean
sps_search_pattern_match (const SpsSearchPattern *self,
                          const char             *str,
                          gssize                  len)
{
  g_autofree char *folded = NULL;
  gsize n;
  gsize i;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (str != NULL, FALSE);

  n = len < 0 ? strlen (str) : (gsize) len;

  if (self->ascii)
    {
      gboolean ascii = TRUE;

      for (i = 0; i < n; i++)
        if ((guchar) str[i] >= 0x80)
          {
            ascii = FALSE;
            break;
          }
      if (ascii)
        return ascii_contains (str, n, self->folded, self->folded_len);
    }

  /* Invalid UTF-8 (producers write anything) folds as far as it is
   * valid, so a bad byte late in a name does not hide an early match. */
  if (!g_utf8_validate_len (str, n, NULL))
    {
      g_autofree char *valid = g_utf8_make_valid (str, n);

      folded = g_utf8_casefold (valid, -1);
    }
  else
    folded = g_utf8_casefold (str, n);

  return strstr (folded, self->folded) != NULL;
}

/**
 * sps_search_result_ref:
 * @self: a #SpsSearchResult
 *
 * Returns: (transfer full): @self
 */
SpsSearchResult *
sps_search_result_ref (SpsSearchResult *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

/**
 * sps_search_result_unref:
 * @self: (transfer full): a #SpsSearchResult
 *
 * Drops a reference.
 */
void
sps_search_result_unref (SpsSearchResult *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_clear_object (&self->trace);
  g_clear_pointer (&self->matches, g_free);
  g_clear_pointer (&self->sample_matches, g_array_unref);
  g_clear_pointer (&self->event_matches, g_array_unref);
  g_clear_pointer (&self->groups, g_array_unref);
  g_clear_pointer (&self->by_name, g_hash_table_unref);
  g_free (self);
}

/**
 * sps_search_result_get_trace:
 * @self: a #SpsSearchResult
 *
 * Returns: (transfer none): the trace searched
 */
SpsTrace *
sps_search_result_get_trace (SpsSearchResult *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->trace;
}

/**
 * sps_search_result_get_n_matches:
 * @self: a #SpsSearchResult
 *
 * Returns: how many slices matched
 */
guint
sps_search_result_get_n_matches (SpsSearchResult *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_matches;
}

/**
 * sps_search_result_get_matches:
 * @self: a #SpsSearchResult
 *
 * The matching slices in slice-table order, that is by track, then
 * start.
 *
 * Returns: (array) (transfer none): sps_search_result_get_n_matches()
 *   slice indices
 */
const guint32 *
sps_search_result_get_matches (SpsSearchResult *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->matches;
}

/**
 * sps_search_result_get_n_sample_matches:
 * @self: a #SpsSearchResult
 *
 * Returns: how many stack samples matched (by the name of their leaf
 *   frame; a category search matches none)
 */
guint
sps_search_result_get_n_sample_matches (SpsSearchResult *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->sample_matches->len;
}

/**
 * sps_search_result_get_sample_matches:
 * @self: a #SpsSearchResult
 *
 * The matching samples in sample-table order (by track, then time).
 *
 * Returns: (array) (transfer none): sps_search_result_get_n_sample_matches()
 *   sample indices
 */
const guint32 *
sps_search_result_get_sample_matches (SpsSearchResult *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return (const guint32 *) (gpointer) self->sample_matches->data;
}

/**
 * sps_search_result_get_n_event_matches:
 * @self: a #SpsSearchResult
 *
 * Returns: how many decoded events matched (by name, or by provider in a
 *   category search)
 */
guint
sps_search_result_get_n_event_matches (SpsSearchResult *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->event_matches->len;
}

/**
 * sps_search_result_get_event_matches:
 * @self: a #SpsSearchResult
 *
 * The matching events in instant-table order (by track, then time).
 *
 * Returns: (array) (transfer none): sps_search_result_get_n_event_matches()
 *   instant indices
 */
const guint32 *
sps_search_result_get_event_matches (SpsSearchResult *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return (const guint32 *) (gpointer) self->event_matches->data;
}

/**
 * sps_search_result_get_n_groups:
 * @self: a #SpsSearchResult
 *
 * Returns: how many distinct names matched
 */
guint
sps_search_result_get_n_groups (SpsSearchResult *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->groups->len;
}

/**
 * sps_search_result_get_group:
 * @self: a #SpsSearchResult
 * @i: a group index below sps_search_result_get_n_groups()
 *
 * Returns: (transfer none): the matches of one name
 */
const SpsSearchGroup *
sps_search_result_get_group (SpsSearchResult *self,
                             guint            i)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (i < self->groups->len, NULL);

  return &g_array_index (self->groups, SpsSearchGroup, i);
}

/**
 * sps_search_result_find_group:
 * @self: a #SpsSearchResult
 * @name: a string id
 *
 * Returns: the index of the group of @name, or %SPS_NO_INDEX when no
 *   slice of that name matched
 */
guint
sps_search_result_find_group (SpsSearchResult *self,
                              guint32          name)
{
  gpointer value;

  g_return_val_if_fail (self != NULL, SPS_NO_INDEX);

  value = g_hash_table_lookup (self->by_name, GUINT_TO_POINTER (name));
  if (value == NULL)
    return SPS_NO_INDEX;
  return GPOINTER_TO_UINT (value) - 1;
}

/* Orders slices by start, then index: the order Enter walks. */
static inline gboolean
slice_before (const SpsSliceTable *slices,
              guint32              a,
              guint32              b)
{
  if (slices->ts[a] != slices->ts[b])
    return slices->ts[a] < slices->ts[b];
  return a < b;
}

/**
 * sps_search_result_step:
 * @self: a #SpsSearchResult
 * @from_slice: the current slice, or %SPS_NO_INDEX
 * @direction: 1 for the next match, -1 for the previous one
 *
 * The match after (or before) @from_slice in time order (start, then slice
 * index), wrapping around at the ends. Without a current slice, the first
 * (or last) match. @from_slice need not be a match itself. One pass over
 * the matches: no sorted copy is kept, so a search over millions of
 * slices stays fast to build.
 *
 * Returns: a slice index, or %SPS_NO_INDEX when nothing matched
 */
guint
sps_search_result_step (SpsSearchResult *self,
                        guint            from_slice,
                        int              direction)
{
  const SpsSliceTable *slices;
  const guint32 *m;
  guint32 best = SPS_NO_INDEX;
  guint32 extreme = SPS_NO_INDEX;   /* first (or last) overall, to wrap */
  guint i;

  g_return_val_if_fail (self != NULL, SPS_NO_INDEX);
  g_return_val_if_fail (direction == 1 || direction == -1, SPS_NO_INDEX);

  if (self->n_matches == 0)
    return SPS_NO_INDEX;

  slices = sps_trace_get_slices (self->trace);
  if (from_slice != SPS_NO_INDEX && from_slice >= slices->n_rows)
    from_slice = SPS_NO_INDEX;

  m = self->matches;
  for (i = 0; i < self->n_matches; i++)
    {
      guint32 s = m[i];

      if (direction > 0)
        {
          if (extreme == SPS_NO_INDEX || slice_before (slices, s, extreme))
            extreme = s;
          if (from_slice != SPS_NO_INDEX
              && slice_before (slices, from_slice, s)
              && (best == SPS_NO_INDEX || slice_before (slices, s, best)))
            best = s;
        }
      else
        {
          if (extreme == SPS_NO_INDEX || slice_before (slices, extreme, s))
            extreme = s;
          if (from_slice != SPS_NO_INDEX
              && slice_before (slices, s, from_slice)
              && (best == SPS_NO_INDEX || slice_before (slices, best, s)))
            best = s;
        }
    }

  return best != SPS_NO_INDEX ? best : extreme;
}

static SpsSearchResult *
search_result_new (SpsTrace *trace)
{
  SpsSearchResult *self = g_new0 (SpsSearchResult, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->trace = g_object_ref (trace);
  self->groups = g_array_new (FALSE, FALSE, sizeof (SpsSearchGroup));
  self->sample_matches = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->event_matches = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->by_name = g_hash_table_new (NULL, NULL);

  return self;
}

/* The group of @name, created on first sight. @group_of is indexed by
 * string id and holds group index + 1 (0 = none yet). */
static guint
ensure_group (SpsSearchResult *result,
              guint32         *group_of,
              guint32          name)
{
  SpsSearchGroup group = { 0, };

  g_assert (result != NULL);
  g_assert (group_of != NULL);

  if (group_of[name] != 0)
    return group_of[name] - 1;

  group.name = name;
  group.first_slice = SPS_NO_INDEX;
  group.first_event = SPS_NO_INDEX;
  g_array_append_val (result->groups, group);
  group_of[name] = result->groups->len;
  g_hash_table_insert (result->by_name,
                       GUINT_TO_POINTER (name),
                       GUINT_TO_POINTER (result->groups->len));

  return result->groups->len - 1;
}

/* Samples go by the name of their leaf frame, events by their name (or
 * provider: @keys); the memo of the slice pass is shared, so a name is
 * matched once for all. Rows of @kinds other than @kind are skipped (no
 * @kinds: every row). Matches go to @out, and count in their group's
 * samples or events. */
static gboolean
search_rows (SpsSearchResult        *result,
             const SpsSearchPattern *pattern,
             guint8                 *memo,
             guint32                *group_of,
             guint                   n_rows,
             const guint32          *keys,
             const guint32          *names,
             const guint8           *kinds,
             guint8                  kind,
             const SpsTime          *ts,
             GArray                 *out,
             GCancellable           *cancellable,
             GError                **error)
{
  SpsStringPool *strings = sps_trace_get_strings (result->trace);
  guint n_strings = sps_string_pool_get_size (strings);
  gboolean events = out == result->event_matches;

  for (guint base = 0; base < n_rows; base += CANCEL_CHECK_STRIDE)
    {
      guint stop = MIN (base + CANCEL_CHECK_STRIDE, n_rows);

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;

      for (guint32 i = base; i < stop; i++)
        {
          SpsSearchGroup *group;
          guint32 id = keys[i];
          guint g;

          if (kinds != NULL && kinds[i] != kind)
            continue;
          if (G_UNLIKELY (id >= n_strings || names[i] >= n_strings))
            continue;
          if (!memo_matches (memo, pattern, strings, id))
            continue;

          g_array_append_val (out, i);
          /* ensure_group() may move the groups: look them up after it */
          g = ensure_group (result, group_of, names[i]);
          group = &g_array_index (result->groups, SpsSearchGroup, g);
          if (!events)
            group->n_samples++;
          else if (group->n_events++ == 0 || ts[i] < ts[group->first_event])
            group->first_event = i;
        }
    }
  return TRUE;
}

/**
 * sps_search_run:
 * @trace: a finished trace
 * @text: (nullable): what to look for; %NULL or empty matches nothing
 * @field: whether to match names or categories
 * @slice_visible: (nullable) (array): one byte per slice, nonzero when the
 *   slice may be found (filters); %NULL searches every slice
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Finds every slice whose name (or category) contains @text, ignoring case,
 * every stack sample whose leaf frame's name does (name searches) and
 * every decoded event whose name (or provider) does, and sums them per
 * name. Each distinct string is matched once, however
 * many slices use it, so the cost is one pass over the slice table plus
 * one match per distinct string. Safe to call from any thread while
 * nothing adds strings to the trace.
 *
 * Returns: (transfer full): the matches, or %NULL with
 *   %G_IO_ERROR_CANCELLED when @cancellable was triggered
 */
SpsSearchResult *
sps_search_run (SpsTrace       *trace,
                const char     *text,
                SpsSearchField  field,
                const guint8   *slice_visible,
                GCancellable   *cancellable,
                GError        **error)
{
  g_autoptr(SpsSearchResult) result = NULL;
  g_autoptr(SpsSearchPattern) pattern = NULL;
  g_autofree guint8 *memo = NULL;
  g_autofree guint32 *group_of = NULL;
  const SpsSliceTable *slices;
  SpsStringPool *strings;
  const guint32 *key;
  guint n_strings;
  guint base;
  guint stop;
  guint i;

  g_return_val_if_fail (SPS_IS_TRACE (trace), NULL);
  g_return_val_if_fail (field == SPS_SEARCH_NAME || field == SPS_SEARCH_CATEGORY, NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  result = search_result_new (trace);
  pattern = sps_search_pattern_new (text);
  if (pattern == NULL)
    return g_steal_pointer (&result);

  slices = sps_trace_get_slices (trace);
  strings = sps_trace_get_strings (trace);
  n_strings = sps_string_pool_get_size (strings);
  key = field == SPS_SEARCH_NAME ? slices->name : slices->category;

  /* Indexed by string id; calloc'ed pages that are never touched cost
   * nothing, so a big pool with few names used is cheap. */
  memo = g_new0 (guint8, MAX (n_strings, 1));
  group_of = g_new0 (guint32, MAX (n_strings, 1));

  /* In strides, so the cancellable is looked at between them and the
   * inner loop stays tight: for a one-letter text nearly every slice
   * matches, and this loop is then the whole cost. */
  for (base = 0; base < slices->n_rows; base = stop)
    {
      stop = MIN (base + CANCEL_CHECK_STRIDE, slices->n_rows);

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;

      for (i = base; i < stop; i++)
        {
          guint32 id = key[i];
          SpsSearchGroup *group;
          guint g;

          if (slice_visible != NULL && slice_visible[i] == 0)
            continue;
          if (G_UNLIKELY (id >= n_strings))
            continue;

          if (!memo_matches (memo, pattern, strings, id))
            continue;

          if (G_UNLIKELY (result->n_matches == result->matches_capacity))
            {
              result->matches_capacity = MAX (1024, result->matches_capacity * 2);
              result->matches = g_renew (guint32, result->matches, result->matches_capacity);
            }
          result->matches[result->n_matches++] = i;

          g = group_of[slices->name[i]];
          if (G_UNLIKELY (g == 0))
            g = ensure_group (result, group_of, slices->name[i]);
          else
            g--;

          group = &g_array_index (result->groups, SpsSearchGroup, g);
          group->count++;
          if ((slices->flags[i] & (SPS_SLICE_SAMPLED | SPS_SLICE_UNFINISHED)) == 0)
            {
              group->n_measured++;
              group->measured_total += slices->dur[i];
            }
          if (group->first_slice == SPS_NO_INDEX || slice_before (slices, i, group->first_slice))
            group->first_slice = i;
        }
    }

  if (field == SPS_SEARCH_NAME)
    {
      const SpsSampleTable *samples = sps_trace_get_samples (trace);

      if (!search_rows (result, pattern, memo, group_of, samples->n_rows, samples->name, samples->name,
                        NULL, 0, samples->ts, result->sample_matches, cancellable, error))
        return NULL;
    }
  {
    const SpsInstantTable *instants = sps_trace_get_instants (trace);

    if (!search_rows (result, pattern, memo, group_of, instants->n_rows,
                      field == SPS_SEARCH_NAME ? instants->name : instants->category, instants->name,
                      instants->kind, SPS_INSTANT_KIND_EVENT, instants->ts, result->event_matches,
                      cancellable, error))
      return NULL;
  }

  return g_steal_pointer (&result);
}

typedef struct
{
  char           *text;
  SpsSearchField  field;
  GBytes         *slice_visible;
} SearchJob;

static void
search_job_free (SearchJob *job)
{
  g_free (job->text);
  g_clear_pointer (&job->slice_visible, g_bytes_unref);
  g_free (job);
}

static void
search_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  SearchJob *job = task_data;
  SpsTrace *trace = source_object;
  const guint8 *visible = NULL;
  GError *error = NULL;
  SpsSearchResult *result;

  g_assert (G_IS_TASK (task));
  g_assert (SPS_IS_TRACE (trace));
  g_assert (job != NULL);

  if (job->slice_visible != NULL)
    visible = g_bytes_get_data (job->slice_visible, NULL);

  result = sps_search_run (trace, job->text, job->field, visible, cancellable, &error);
  if (result == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, result, (GDestroyNotify) sps_search_result_unref);
}

/**
 * sps_search_run_async:
 * @trace: a finished trace
 * @text: (nullable): what to look for
 * @field: whether to match names or categories
 * @slice_visible: (nullable): one byte per slice, nonzero when the slice
 *   may be found; %NULL searches every slice
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the search is done
 * @user_data: closure data for @callback
 *
 * Runs sps_search_run() on a worker thread. Cancelling stops the scan
 * within one stride of 65536 slices.
 */
void
sps_search_run_async (SpsTrace            *trace,
                      const char          *text,
                      SpsSearchField       field,
                      GBytes              *slice_visible,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  SearchJob *job;

  g_return_if_fail (SPS_IS_TRACE (trace));
  g_return_if_fail (field == SPS_SEARCH_NAME || field == SPS_SEARCH_CATEGORY);
  g_return_if_fail (slice_visible == NULL
                    || g_bytes_get_size (slice_visible) >= sps_trace_get_slices (trace)->n_rows);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  job = g_new0 (SearchJob, 1);
  job->text = g_strdup (text);
  job->field = field;
  job->slice_visible = slice_visible != NULL ? g_bytes_ref (slice_visible) : NULL;

  task = g_task_new (trace, cancellable, callback, user_data);
  g_task_set_source_tag (task, sps_search_run_async);
  g_task_set_name (task, "[sps] search");
  g_task_set_task_data (task, job, (GDestroyNotify) search_job_free);
  g_task_set_check_cancellable (task, TRUE);
  g_task_run_in_thread (task, search_thread);
}

/**
 * sps_search_run_finish:
 * @result: the #GAsyncResult passed to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the matches, or %NULL with
 *   %G_IO_ERROR_CANCELLED when the search was cancelled
 */
SpsSearchResult *
sps_search_run_finish (GAsyncResult  *result,
                       GError       **error)
{
  g_return_val_if_fail (G_IS_TASK (result), NULL);
  g_return_val_if_fail (g_task_is_valid (result, g_task_get_source_object (G_TASK (result))), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == sps_search_run_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
