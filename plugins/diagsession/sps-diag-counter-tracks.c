/* sps-diag-counter-tracks.c: a session's counters as counter tracks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The counters resource times its points in the machine's performance
 * counter (QPC) ticks, the clock of the session's ETL files: a point is
 * placed at (t − the trace's start) / the ETL's frequency, in 128-bit
 * integers, so that a counter and a sample taken at the same tick land on
 * the same nanosecond. Without an ETL the counters' own start
 * (beginTimeQpc) is the origin. A file without qpcFrequency (hand-written
 * ones) has no clock to share: its times are read as 100 ns units (the
 * unit of its beginTime) from the session's start.
 */

#define G_LOG_DOMAIN "sps-diagsession"

#include "config.h"

#include "sps-diag-counter-tracks.h"

/* Times of the model stay within ±2^62 ns */
#define TIME_LIMIT (G_GINT64_CONSTANT (1) << 62)
#define NS_PER_S 1000000000
/* beginTime's unit, for files that give no frequency */
#define FILETIME_FREQUENCY 10000000

static SpsTime
clamp_time (__int128 t)
{
  return (SpsTime) CLAMP (t, -TIME_LIMIT, TIME_LIMIT);
}

/**
 * sps_diag_counter_time:
 * @counters: a parsed counters resource
 * @clock: (nullable): the session's ETL clock, or %NULL without an ETL
 * @ticks: a point's time
 *
 * Returns: @ticks in nanoseconds on the session's time axis
 */
SpsTime
sps_diag_counter_time (const SpsDiagCounters *counters,
                       const SpsDiagClock    *clock,
                       guint64                ticks)
{
  guint64 frequency = counters->frequency;

  if (frequency == 0)
    return clamp_time (((__int128) ticks - (__int128) counters->begin_ticks) * NS_PER_S / FILETIME_FREQUENCY);
  if (clock == NULL || clock->frequency == 0)
    return clamp_time (((__int128) ticks - (__int128) counters->begin_ticks) * NS_PER_S /
                       (__int128) frequency);

  if (frequency == clock->frequency)
    return clamp_time (((__int128) ticks - (__int128) clock->start_ticks) * NS_PER_S /
                       (__int128) frequency);

  /* Two clocks: each side to ns on its own, then the difference */
  return clamp_time ((__int128) ticks * NS_PER_S / (__int128) frequency -
                     (__int128) clock->start_ticks * NS_PER_S / (__int128) clock->frequency);
}

/* The names the Diagnostics Hub shows for its own counters; others keep
 * their id. Data, not user interface: not translated. */
static const char *
counter_name (const char *id)
{
  static const struct { const char *id; const char *name; } known[] = {
    { "DiagnosticsHub.Counters.Process.CPU", "CPU (%)" },
    { "DiagnosticsHub.Counters.Process.PrivateBytes", "Private bytes" },
    { "DotNetAlloc.Counters.LiveObjects", "Live objects" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (known); i++)
    if (g_strcmp0 (id, known[i].id) == 0)
      return known[i].name;
  return id;
}

/**
 * sps_diag_counters_add_tracks:
 * @counters: a parsed counters resource
 * @builder: the trace being built
 * @process: the builder's process the counters belong to
 * @clock: (nullable): the session's ETL clock
 *
 * Adds one counter track per counter, its points in file order.
 *
 * Returns: how many points were added
 */
guint64
sps_diag_counters_add_tracks (const SpsDiagCounters *counters,
                              SpsTraceBuilder       *builder,
                              guint32                process,
                              const SpsDiagClock    *clock)
{
  guint64 n = 0;

  for (guint i = 0; i < counters->counters->len; i++)
    {
      const SpsDiagCounter *counter = g_ptr_array_index (counters->counters, i);
      guint32 track = sps_trace_builder_ensure_counter_track (builder, process,
                                                              sps_trace_builder_intern (builder,
                                                                                        counter_name (counter->id),
                                                                                        -1),
                                                              0);

      for (guint j = 0; j < counter->points->len; j++)
        {
          const SpsDiagCounterPoint *point = &g_array_index (counter->points, SpsDiagCounterPoint, j);

          sps_trace_builder_add_counter_value (builder, track, sps_diag_counter_time (counters, clock, point->t),
                                               point->v);
          n++;
        }
    }
  return n;
}
