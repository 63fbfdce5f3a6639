/* sps-chrome-top-samples.c: the top-level "samples" array of Chrome traces
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Linux perf (and tools built on it) merge their samples into a Chrome
 * trace as a top-level array beside traceEvents: {cpu, tid, ts, name, sf,
 * weight}, sf naming an entry of stackFrames. A sample names its thread by
 * tid only, and stackFrames and the events may come after it, so the
 * samples are kept as read and added once the whole file was read.
 */

#define G_LOG_DOMAIN "sps-chrome-top-samples"

#include "config.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include "sps-chrome-cpu-profile.h"
#include "sps-chrome-stack-frames.h"
#include "sps-chrome-top-samples.h"

typedef struct
{
  SpsTime ts;
  gint64  tid;
  double  weight;
  guint32 name;
  guint32 sf;             /* string id, 0 when absent */
  gsize   offset;
} TopSample;

struct _SpsChromeTopSamples
{
  SpsChromeReadContext ctx;
  GHashTable        *threads;     /* gint64 tid → thread + 1 (first seen) */
  GArray            *samples;     /* TopSample */
};

/**
 * sps_chrome_top_samples_note_thread:
 * @self: the top-level samples of a file
 * @tid: a tid events use
 * @thread: its thread in the builder
 *
 * Top-level samples name their thread by tid only; the first thread
 * events gave that tid is theirs.
 */
void
sps_chrome_top_samples_note_thread (SpsChromeTopSamples *self,
                                    gint64               tid,
                                    guint32              thread)
{
  if (!g_hash_table_contains (self->threads, &tid))
    {
      gint64 *key = g_new (gint64, 1);

      *key = tid;
      g_hash_table_insert (self->threads, key, GUINT_TO_POINTER (thread + 1));
    }
}

static void
read_top_sample (SpsChromeTopSamples *self,
                 const SpsChromeValue *object)
{
  static const char * const members[] = { "tid", "ts", "name", "sf", "weight" };
  enum { TID, TS, NAME, SF, WEIGHT };
  SpsChromeValue m[G_N_ELEMENTS (members)];
  TopSample sample = { 0, 0, NAN, 0, 0, sps_chrome_read_context_offset (&self->ctx, object) };

  if (object->type != SPS_CHROME_VALUE_OBJECT)
    {
      sps_chrome_read_context_warn (&self->ctx, "invalid_sample", sps_chrome_read_context_offset (&self->ctx, object),
            N_("an element of the samples array is not an object; skipped"));
      return;
    }
  sps_chrome_get_members (self->ctx.base, object, members, m, G_N_ELEMENTS (m));
  if (!sps_chrome_value_to_int64 (&m[TID], &sample.tid))
    {
      sps_chrome_read_context_warn (&self->ctx, "invalid_sample", sample.offset,
            N_("a sample of the samples array has no integer tid; skipped"));
      return;
    }
  if ((m[TS].type != SPS_CHROME_VALUE_NUMBER &&
       (m[TS].type != SPS_CHROME_VALUE_STRING || m[TS].escaped)) ||
      sps_chrome_parse_time (m[TS].ptr, m[TS].len, self->ctx.time_exp, &sample.ts) != SPS_CHROME_NUMBER_OK)
    {
      sps_chrome_read_context_warn (&self->ctx, "invalid_sample", sample.offset,
            N_("a sample of the samples array has no usable ts; skipped"));
      return;
    }
  if (m[NAME].type == SPS_CHROME_VALUE_STRING)
    sample.name = sps_chrome_read_context_intern (&self->ctx, &m[NAME]);
  if (m[SF].type == SPS_CHROME_VALUE_STRING || m[SF].type == SPS_CHROME_VALUE_NUMBER)
    sample.sf = sps_chrome_read_context_intern (&self->ctx, &m[SF]);
  if (!sps_chrome_value_to_double (&m[WEIGHT], &sample.weight))
    sample.weight = NAN;
  g_array_append_val (self->samples, sample);
}

/**
 * sps_chrome_top_samples_read:
 * @self: the top-level samples of a file
 * @scanner: a scanner before the value of the top-level "samples" member
 *
 * Reads the array; its samples are added by
 * sps_chrome_top_samples_finish(), when threads and stack frames are
 * known.
 *
 * Returns: how the scan went, as sps_chrome_scanner_read_value() says
 */
SpsChromeScanResult
sps_chrome_top_samples_read (SpsChromeTopSamples *self,
                                      SpsChromeScanner     *scanner)
{
  SpsChromeValue value;
  SpsChromeScanResult r;

  if ((r = sps_chrome_scanner_enter (scanner, '[')) != SPS_CHROME_SCAN_OK)
    return r;
  while ((r = sps_chrome_scanner_next_element (scanner)) == SPS_CHROME_SCAN_OK)
    {
      if ((r = sps_chrome_scanner_read_value (scanner, &value)) != SPS_CHROME_SCAN_OK)
        return r;
      read_top_sample (self, &value);
    }
  return r == SPS_CHROME_SCAN_END ? SPS_CHROME_SCAN_OK : r;
}

static guint32
thread_for_tid (SpsChromeTopSamples *self,
                gint64                tid,
                gsize                 offset)
{
  guint32 thread = GPOINTER_TO_UINT (g_hash_table_lookup (self->threads, &tid));

  if (thread != 0)
    return thread - 1;

  sps_chrome_read_context_warn (&self->ctx, "sample_thread_unknown", offset,
        N_("a sample of the samples array names a tid no event uses; "
           "it goes to a thread of its own, in a process of the same id"));
  thread = sps_trace_builder_ensure_thread (self->ctx.builder,
                                            sps_trace_builder_ensure_process (self->ctx.builder, tid),
                                            tid);
  sps_chrome_top_samples_note_thread (self, tid, thread);
  return thread;
}

/**
 * sps_chrome_top_samples_finish:
 * @self: the top-level samples of a file
 * @frames: the file's stack frames, for top-level samples
 *
 * Adds the samples read, resolving their stacks; call once the whole file
 * was read.
 */
void
sps_chrome_top_samples_finish (SpsChromeTopSamples *self,
                                SpsChromeStackFrames *frames)
{
  for (guint i = 0; i < self->samples->len; i++)
    {
      TopSample *s = &g_array_index (self->samples, TopSample, i);
      guint32 thread = thread_for_tid (self, s->tid, s->offset);
      SpsSampleFlags flags = isnan (s->weight) ? SPS_SAMPLE_NONE : SPS_SAMPLE_HAS_WEIGHT;
      guint32 callsite = s->sf != 0 ? sps_chrome_stack_frames_resolve (frames, self->ctx.builder, s->sf)
                                    : SPS_NO_INDEX;

      if (callsite == SPS_NO_INDEX)
        {
          if (s->sf != 0)
            sps_chrome_read_context_warn (&self->ctx, "unresolved_stack", s->offset,
                  N_("the stack of a sample cannot be resolved "
                     "(missing or invalid frame, missing ancestor or cycle)"));
          callsite = sps_chrome_single_frame_callsite (self->ctx.builder, s->name);
          flags |= SPS_SAMPLE_UNRESOLVED;
        }
      sps_trace_builder_add_sample (self->ctx.builder, thread, s->ts, s->name, callsite, s->sf,
                                    s->weight, SPS_WEIGHT_UNIT_NONE, flags);
    }
  g_array_set_size (self->samples, 0);
}


/**
 * sps_chrome_top_samples_new:
 * @ctx: the builder, strings, input and warnings of the file
 *
 * Returns: (transfer full): the reader of one file's top-level samples
 */
SpsChromeTopSamples *
sps_chrome_top_samples_new (const SpsChromeReadContext *ctx)
{
  SpsChromeTopSamples *self = g_new0 (SpsChromeTopSamples, 1);

  self->ctx = *ctx;
  self->threads = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->samples = g_array_new (FALSE, FALSE, sizeof (TopSample));
  return self;
}

void
sps_chrome_top_samples_free (SpsChromeTopSamples *self)
{
  g_hash_table_unref (self->threads);
  g_array_unref (self->samples);
  g_free (self);
}
