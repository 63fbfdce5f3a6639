/* sps-selection.c: what is selected in a session
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-session"

#include "config.h"

#include "sps-selection.h"

G_DEFINE_BOXED_TYPE (SpsSelection, sps_selection, sps_selection_copy, sps_selection_free)

/**
 * sps_selection_copy:
 * @self: a selection
 *
 * Returns: (transfer full): a copy of @self
 */
SpsSelection *
sps_selection_copy (const SpsSelection *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return g_memdup2 (self, sizeof *self);
}

/**
 * sps_selection_free:
 * @self: (nullable): a selection made by sps_selection_copy()
 */
void
sps_selection_free (SpsSelection *self)
{
  g_free (self);
}

/**
 * sps_selection_equal:
 * @a: a selection
 * @b: another
 *
 * Returns: whether @a and @b select the same item (every field equal)
 */
gboolean
sps_selection_equal (const SpsSelection *a,
                     const SpsSelection *b)
{
  g_return_val_if_fail (a != NULL, FALSE);
  g_return_val_if_fail (b != NULL, FALSE);

  return a->kind == b->kind && a->index == b->index && a->track == b->track &&
         a->depth == b->depth && a->callsite == b->callsite &&
         a->first_sample == b->first_sample && a->n_samples == b->n_samples &&
         !a->raw == !b->raw && a->start == b->start && a->end == b->end;
}

/**
 * sps_selection_init_none:
 * @self: (out caller-allocates): a selection to fill in
 *
 * Sets @self to "nothing selected": kind %SPS_SELECTION_NONE, every index
 * %SPS_NO_INDEX, counts and times 0.
 */
void
sps_selection_init_none (SpsSelection *self)
{
  g_return_if_fail (self != NULL);

  *self = (SpsSelection) {
    .kind = SPS_SELECTION_NONE,
    .index = SPS_NO_INDEX,
    .track = SPS_NO_INDEX,
    .callsite = SPS_NO_INDEX,
    .first_sample = SPS_NO_INDEX,
  };
}
