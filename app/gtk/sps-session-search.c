/* sps-session-search.c: SpsSession's search text and its matches
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-session"

#include "config.h"

#include <string.h>

#include "sps-session.h"
#include "sps-session-private.h"
#include "sps-session-state-private.h"

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

  g_object_notify_by_pspec (G_OBJECT (self), _sps_session_properties[PROP_SEARCH_TEXT]);
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
  g_object_notify_by_pspec (G_OBJECT (self), _sps_session_properties[PROP_SEARCH_IN_CATEGORY]);
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
