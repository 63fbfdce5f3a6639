/* sps-live-memory.c: Spanscope's own memory as a counter track of a live
 * capture
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * While it is enabled (the live window's menu, off by default), the
 * process's resident memory is sampled once a second and shown as the
 * counter "Spanscope memory" of a process "Spanscope" in each update's
 * trace, so a capture shows what watching it costs.
 *
 * The device's clock is not the host's: a sample's time on the capture's
 * clock comes from one anchor, the newest frame's time of the first
 * update after the track was enabled and the host time that update
 * started (its bytes had arrived by then, within one update interval),
 * and host time since. The anchor is taken once: taken again at every
 * update, it would be moved by the memory samples themselves (they end
 * the trace). The device and host clocks drift apart by what their
 * crystals differ (some ppm), and a device reset moves the capture's
 * clock; the samples keep the host's pace.
 */

#define G_LOG_DOMAIN "sps-live-memory"

#include "config.h"

#include <unistd.h>

#include "sps-diagnostics-panel.h"
#include "sps-live-memory.h"

#define SAMPLE_INTERVAL_S 1

typedef struct
{
  SpsTime ts;
  double  bytes;
} Sample;

struct _SpsLiveMemory
{
  GObject  parent_instance;

  GArray  *samples;         /* Sample, in time order */
  gboolean enabled;
  gboolean anchored;
  gint64   anchor_host_us;
  SpsTime  anchor_ns;
  guint    tick;
};

G_DEFINE_FINAL_TYPE (SpsLiveMemory, sps_live_memory, G_TYPE_OBJECT)

static gboolean
on_tick (gpointer user_data)
{
  SpsLiveMemory *self = user_data;

  sps_live_memory_sample (self, g_get_monotonic_time (), sps_diagnostics_read_rss ());

  return G_SOURCE_CONTINUE;
}

static void
sps_live_memory_dispose (GObject *object)
{
  SpsLiveMemory *self = SPS_LIVE_MEMORY (object);

  g_clear_handle_id (&self->tick, g_source_remove);

  G_OBJECT_CLASS (sps_live_memory_parent_class)->dispose (object);
}

static void
sps_live_memory_finalize (GObject *object)
{
  SpsLiveMemory *self = SPS_LIVE_MEMORY (object);

  g_array_unref (self->samples);

  G_OBJECT_CLASS (sps_live_memory_parent_class)->finalize (object);
}

static void
sps_live_memory_class_init (SpsLiveMemoryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sps_live_memory_dispose;
  object_class->finalize = sps_live_memory_finalize;
}

static void
sps_live_memory_init (SpsLiveMemory *self)
{
  self->samples = g_array_new (FALSE, FALSE, sizeof (Sample));
}

SpsLiveMemory *
sps_live_memory_new (void)
{
  return g_object_new (SPS_TYPE_LIVE_MEMORY, NULL);
}

gboolean
sps_live_memory_get_enabled (SpsLiveMemory *self)
{
  g_return_val_if_fail (SPS_IS_LIVE_MEMORY (self), FALSE);

  return self->enabled;
}

/* Starts sampling once a second (from scratch: a new anchor), or stops
 * and forgets the samples. */
void
sps_live_memory_set_enabled (SpsLiveMemory *self,
                             gboolean       enabled)
{
  g_return_if_fail (SPS_IS_LIVE_MEMORY (self));

  enabled = !!enabled;
  if (self->enabled == enabled)
    return;

  self->enabled = enabled;
  self->anchored = FALSE;
  g_array_set_size (self->samples, 0);
  g_clear_handle_id (&self->tick, g_source_remove);
  if (enabled)
    self->tick = g_timeout_add_seconds (SAMPLE_INTERVAL_S, on_tick, self);
}

/**
 * sps_live_memory_anchor:
 * @self: a #SpsLiveMemory
 * @host_us: a monotonic host time (g_get_monotonic_time())
 * @capture_ns: the capture's time of the newest frame that had arrived
 *   at @host_us
 *
 * Ties the host's clock to the capture's, the first time only after the
 * track was enabled.
 */
void
sps_live_memory_anchor (SpsLiveMemory *self,
                        gint64         host_us,
                        SpsTime        capture_ns)
{
  g_return_if_fail (SPS_IS_LIVE_MEMORY (self));

  if (!self->enabled || self->anchored)
    return;

  self->anchored = TRUE;
  self->anchor_host_us = host_us;
  self->anchor_ns = capture_ns;
}

/**
 * sps_live_memory_sample:
 * @self: a #SpsLiveMemory
 * @host_us: when, in monotonic host time
 * @bytes: the resident memory then
 *
 * Returns: whether the sample was kept: not before the anchor (until the
 *   first update nothing maps host time to the capture's)
 */
gboolean
sps_live_memory_sample (SpsLiveMemory *self,
                        gint64         host_us,
                        guint64        bytes)
{
  Sample sample;
  gint64 elapsed_ns;

  g_return_val_if_fail (SPS_IS_LIVE_MEMORY (self), FALSE);

  if (!self->enabled || !self->anchored || host_us < self->anchor_host_us)
    return FALSE;

  /* Saturating: neither a long capture nor a capture clock near the end
   * of time may wrap */
  if (__builtin_mul_overflow (host_us - self->anchor_host_us, (gint64) 1000, &elapsed_ns) ||
      __builtin_add_overflow (self->anchor_ns, elapsed_ns, &sample.ts))
    sample.ts = G_MAXINT64;
  if (self->samples->len > 0)
    sample.ts = MAX (sample.ts, g_array_index (self->samples, Sample, self->samples->len - 1).ts);
  sample.bytes = (double) bytes;
  g_array_append_val (self->samples, sample);

  return TRUE;
}

guint
sps_live_memory_get_n_samples (SpsLiveMemory *self)
{
  g_return_val_if_fail (SPS_IS_LIVE_MEMORY (self), 0);

  return self->samples->len;
}

/* (transfer full): the samples so far, for sps_live_memory_add_rows() on
 * an update's worker (freed with g_array_unref()) */
GArray *
sps_live_memory_dup_samples (SpsLiveMemory *self)
{
  g_return_val_if_fail (SPS_IS_LIVE_MEMORY (self), NULL);

  return g_array_copy (self->samples);
}

/**
 * sps_live_memory_add_rows:
 * @builder: an update's builder
 * @samples: what sps_live_memory_dup_samples() returned
 *
 * An #SpsLiveDecoderAddFunc: the counter "Spanscope memory", series
 * "rss_bytes", of a
 * process "Spanscope" with Spanscope's own process id, sorted after the
 * capture's processes.
 */
void
sps_live_memory_add_rows (SpsTraceBuilder *builder,
                          gpointer         samples)
{
  GArray *array = samples;
  guint32 process, counter;

  g_assert (SPS_IS_TRACE_BUILDER (builder));
  g_assert (array != NULL);

  if (array->len == 0)
    return;

  process = sps_trace_builder_ensure_process (builder, getpid ());
  sps_trace_builder_set_process_name (builder, process, sps_trace_builder_intern (builder, "Spanscope", -1));
  sps_trace_builder_set_process_sort_index (builder, process, G_MAXINT32);
  /* Names are data (SQL reads them), so not translated, as in the self
   * trace's counter, whose series name this one shares: "rss_bytes"
   * gives the values their unit on the timeline */
  counter = sps_trace_builder_ensure_counter_track (builder, process,
                                                    sps_trace_builder_intern (builder, "Spanscope memory", -1),
                                                    sps_trace_builder_intern (builder, "rss_bytes", -1));
  for (guint i = 0; i < array->len; i++)
    {
      const Sample *sample = &g_array_index (array, Sample, i);

      sps_trace_builder_add_counter_value (builder, counter, sample->ts, sample->bytes);
    }
}
