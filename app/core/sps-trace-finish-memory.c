/* sps-trace-finish-memory.c: the "Outstanding bytes" counter series
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-trace-finish"

#include "config.h"

#include "sps-trace-finish-private.h"
#include "sps-self-trace.h"

/* finish() turns the allocations into counters, one per process and heap
 * kind, so that the timeline, SQL, the CLI and anything saved see the
 * same series (the Memory panel's sums at a time, as a step function):
 *
 *   "Outstanding bytes (HEAP)" "known": the bytes of the allocations
 *     surely alive (exact ones from birth to death_after, in_gap ones
 *     until their gap), exact at every birth and death;
 *   "Outstanding bytes (HEAP)" "known + uncertain": the bytes of every
 *     allocation possibly alive (from birth, or the trace's start when
 *     unknown, to death_by), only when some allocation of the heap is
 *     ever uncertain.
 *
 * Unknown sizes count 0; a heap whose sizes are all unknown gets no
 * counter. Sums are 128-bit, so no size a file gives can
 * wrap them; a double holds them exactly up to 2^53 bytes. */

enum
{
  STEP_KNOWN_UP   = 1 << 0,
  STEP_KNOWN_DOWN = 1 << 1,
  STEP_ALL_UP     = 1 << 2,
  STEP_ALL_DOWN   = 1 << 3,
};

typedef struct
{
  SpsTime ts;
  guint64 size;
  guint32 group;              /* process * SPS_N_HEAPS + heap */
  guint32 flags;
} Step;

#define SPS_N_HEAPS (SPS_HEAP_OBJECT + 1)

static const char * const heap_names[SPS_N_HEAPS] = {
  "Outstanding bytes (managed)",
  "Outstanding bytes (native)",
  "Outstanding bytes (object)",
};

static int
compare_steps (gconstpointer a,
               gconstpointer b)
{
  const Step *sa = a;
  const Step *sb = b;

  if (sa->group != sb->group)
    return sa->group < sb->group ? -1 : 1;
  return sa->ts < sb->ts ? -1 : sa->ts > sb->ts;
}

static gboolean
is_known_kind (SpsTraceBuilder *b,
               guint            r)
{
  return (b->alloc_certainty[r] == SPS_ALLOCATION_EXACT || b->alloc_certainty[r] == SPS_ALLOCATION_IN_GAP) &&
         b->alloc_birth[r] != SPS_TIME_MIN;
}

static void
add_step (GArray  *steps,
          SpsTime  ts,
          guint64  size,
          guint32  group,
          guint32  flags)
{
  Step step = { ts, size == SPS_SIZE_UNKNOWN ? 0 : size, group, flags };

  g_array_append_val (steps, step);
}

/* Whether the steps of @group from @i on change a series at @ts (sorted:
 * only the first ones can be at the start) */
static gboolean
has_step_at (GArray  *steps,
             guint    i,
             guint32  group,
             SpsTime  ts,
             guint32  flags)
{
  for (; i < steps->len; i++)
    {
      const Step *step = &g_array_index (steps, Step, i);

      if (step->group != group || step->ts != ts)
        return FALSE;
      if (step->flags & flags)
        return TRUE;
    }
  return FALSE;
}

static gboolean
has_counter (SpsTraceBuilder *b,
             guint32          process,
             guint32          name)
{
  for (guint c = 0; c < b->n_counters; c++)
    if (b->counter_process[c] == process && b->counter_name[c] == name)
      return TRUE;
  return FALSE;
}

void
_sps_add_outstanding_counters (SpsTraceBuilder *b)
{
  g_autoptr(GArray) steps = NULL;
  g_autofree guint8 *group_kinds = NULL;
  SpsTime start;
  SpsTime end;
  guint n_groups;
  SPS_SELF_TRACE_SCOPE ("finish/outstanding-counters");

  if (b->n_allocations == 0)
    return;

  _sps_builder_time_range (b, &start, &end);
  n_groups = b->n_processes * SPS_N_HEAPS;
  /* Per group: bit 0 some allocation is ever known, bit 1 some is ever
   * uncertain (then the second series says more than the first), bit 2
   * some size is known (without one, both series would be 0 throughout,
   * as for Chrome objects without snapshot sizes: no counter then) */
  group_kinds = g_new0 (guint8, MAX (n_groups, 1));
  steps = g_array_sized_new (FALSE, FALSE, sizeof (Step), b->n_allocations * 2);

  for (guint r = 0; r < b->n_allocations; r++)
    {
      guint32 group;
      gboolean known = is_known_kind (b, r);
      SpsTime after = b->alloc_death_after[r];
      SpsTime by = b->alloc_death_by[r];

      if (b->alloc_process[r] >= b->n_processes || b->alloc_heap[r] >= SPS_N_HEAPS)
        continue;
      group = b->alloc_process[r] * SPS_N_HEAPS + b->alloc_heap[r];
      if (b->alloc_size[r] != SPS_SIZE_UNKNOWN)
        group_kinds[group] |= 4;

      if (known)
        {
          group_kinds[group] |= 1;
          add_step (steps, b->alloc_birth[r], b->alloc_size[r], group, STEP_KNOWN_UP | STEP_ALL_UP);
          if (after != by)
            group_kinds[group] |= 2;
          if (after != SPS_TIME_MAX && after == by)
            add_step (steps, after, b->alloc_size[r], group, STEP_KNOWN_DOWN | STEP_ALL_DOWN);
          else
            {
              if (after != SPS_TIME_MAX)
                add_step (steps, after, b->alloc_size[r], group, STEP_KNOWN_DOWN);
              if (by != SPS_TIME_MAX)
                add_step (steps, by, b->alloc_size[r], group, STEP_ALL_DOWN);
            }
        }
      else
        {
          group_kinds[group] |= 2;
          add_step (steps, b->alloc_birth[r] == SPS_TIME_MIN ? start : b->alloc_birth[r],
                    b->alloc_size[r], group, STEP_ALL_UP);
          if (by != SPS_TIME_MAX)
            add_step (steps, by, b->alloc_size[r], group, STEP_ALL_DOWN);
        }
    }

  g_array_sort (steps, compare_steps);

  for (guint i = 0; i < steps->len;)
    {
      guint32 group = g_array_index (steps, Step, i).group;
      guint32 process = group / SPS_N_HEAPS;
      guint32 name;
      guint32 known_track = SPS_NO_INDEX;
      guint32 all_track = SPS_NO_INDEX;
      __int128 known = 0;
      __int128 all = 0;

      if ((group_kinds[group] & 4) == 0)
        {
          while (i < steps->len && g_array_index (steps, Step, i).group == group)
            i++;
          continue;
        }
      name = sps_trace_builder_intern (b, heap_names[group % SPS_N_HEAPS], -1);
      /* A trace read back from rows that already hold these series (a
       * saved profile) keeps them as they are, not twice */
      if (has_counter (b, process, name))
        {
          while (i < steps->len && g_array_index (steps, Step, i).group == group)
            i++;
          continue;
        }
      if (group_kinds[group] & 1)
        known_track = sps_trace_builder_ensure_counter_track (b, process, name,
                                                              sps_trace_builder_intern (b, "known", -1));
      if (group_kinds[group] & 2)
        all_track = sps_trace_builder_ensure_counter_track (b, process, name,
                                                            sps_trace_builder_intern (b, "known + uncertain", -1));

      /* Both series are defined from the trace's start: a point there
       * unless the steps make one */
      if (known_track != SPS_NO_INDEX && !has_step_at (steps, i, group, start, STEP_KNOWN_UP | STEP_KNOWN_DOWN))
        sps_trace_builder_add_counter_value (b, known_track, start, 0);
      if (all_track != SPS_NO_INDEX && !has_step_at (steps, i, group, start, STEP_ALL_UP | STEP_ALL_DOWN))
        sps_trace_builder_add_counter_value (b, all_track, start, 0);

      while (i < steps->len && g_array_index (steps, Step, i).group == group)
        {
          SpsTime ts = g_array_index (steps, Step, i).ts;
          guint32 changed = 0;

          for (; i < steps->len && g_array_index (steps, Step, i).group == group &&
                 g_array_index (steps, Step, i).ts == ts; i++)
            {
              const Step *step = &g_array_index (steps, Step, i);

              if (step->flags & STEP_KNOWN_UP)
                known += step->size;
              if (step->flags & STEP_KNOWN_DOWN)
                known -= step->size;
              if (step->flags & STEP_ALL_UP)
                all += step->size;
              if (step->flags & STEP_ALL_DOWN)
                all -= step->size;
              changed |= step->flags;
            }

          if (known_track != SPS_NO_INDEX && (changed & (STEP_KNOWN_UP | STEP_KNOWN_DOWN)))
            sps_trace_builder_add_counter_value (b, known_track, ts, (double) known);
          if (all_track != SPS_NO_INDEX && (changed & (STEP_ALL_UP | STEP_ALL_DOWN)))
            sps_trace_builder_add_counter_value (b, all_track, ts, (double) all);
        }
    }
}
