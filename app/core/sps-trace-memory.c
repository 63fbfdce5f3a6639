/* sps-trace-memory.c: a finished trace's allocations and GC observations
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-trace"

#include "config.h"

#include "sps-trace.h"
#include "sps-trace-private.h"

/**
 * sps_trace_get_allocations:
 * @self: a #SpsTrace
 *
 * Returns: (transfer none): the allocation table, sorted by birth
 */
const SpsAllocationTable *
sps_trace_get_allocations (SpsTrace *self)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), NULL);

  return &self->allocations;
}

/**
 * sps_trace_get_gc_observations:
 * @self: a #SpsTrace
 *
 * Returns: (transfer none): the garbage collector observations, sorted
 *   by time
 */
const SpsGcObservationTable *
sps_trace_get_gc_observations (SpsTrace *self)
{
  g_return_val_if_fail (SPS_IS_TRACE (self), NULL);

  return &self->gc_observations;
}

/**
 * sps_trace_sum_outstanding:
 * @self: a #SpsTrace
 * @time: the moment asked about
 * @process: a process index, or %SPS_NO_INDEX for every process
 * @out: (out caller-allocates): the sums
 *
 * Counts the allocations outstanding at @time (born at or before it, not
 * dead at it), the known ones apart from the uncertain ones: an exact
 * allocation is known to be alive before its `death_after` and uncertain
 * from then until its `death_by` (a death found at a garbage collection
 * happened somewhere between the previous collection and that one); one
 * in a capture gap is known until the gap (its `death_after`) and
 * uncertain after it; sampled allocations, and those of unknown birth or
 * death, are uncertain wherever they may be alive. One pass over the
 * allocations.
 */
void
sps_trace_sum_outstanding (SpsTrace       *self,
                           SpsTime         time,
                           guint32         process,
                           SpsOutstanding *out)
{
  const SpsAllocationTable *a;

  g_return_if_fail (SPS_IS_TRACE (self));
  g_return_if_fail (out != NULL);

  a = &self->allocations;
  *out = (SpsOutstanding) { 0, };

  /* Sorted by birth: the rows born after @time end the scan */
  for (guint r = 0; r < a->n_rows && a->birth[r] <= time; r++)
    {
      SpsAllocationState state;

      if (process != SPS_NO_INDEX && a->process[r] != process)
        continue;

      state = _sps_allocation_state (a, r, time);
      if (state == SPS_ALLOCATION_STATE_KNOWN)
        {
          out->known_count++;
          out->known_bytes = _sps_add_bytes (out->known_bytes, a->size[r]);
        }
      else if (state == SPS_ALLOCATION_STATE_UNCERTAIN)
        {
          out->uncertain_count++;
          out->uncertain_bytes = _sps_add_bytes (out->uncertain_bytes, a->size[r]);
        }
      if (state != SPS_ALLOCATION_STATE_GONE && a->size[r] == SPS_SIZE_UNKNOWN)
        out->unknown_size_count++;
    }
}
