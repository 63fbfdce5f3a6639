/* sps-etrace-live-decoder.c: an embedded trace stream decoded as it arrives
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The decoder is incremental already (it keeps an incomplete frame, the
 * clock, the dictionary and the sequence tracker between feeds); this
 * keeps one alive for the whole capture. An update copies it and ends
 * the copy the way the end of a file ends a load (an incomplete last
 * frame, frames still missing), so the trace of the copy is the one a
 * load of the same bytes gives, while the original goes on decoding as
 * if the update had not happened.
 *
 * The decoder and its copies also share the pairing of the events
 * (sps-etrace-pairing.c): each build of a copy pairs only the events
 * that arrived since the pairing last moved, then analyses from it, so
 * the sort and pairing of a whole capture are not done again at every
 * update. A build that cannot use it (a copy older than the pairing,
 * events that only the end of the stream gave) pairs everything on its
 * own as a load does; the trace is the same either way.
 */

#define G_LOG_DOMAIN "sps-etrace"

#include "config.h"

#include "sps-etrace-analysis.h"
#include "sps-etrace-decoder.h"
#include "sps-etrace-live-decoder.h"
#include "sps-etrace-pairing.h"

/* A build from the shared pairing: what its trace holds, so that a later
 * build can write only the rows that trace does not (build_part) */
typedef struct
{
  guint64             frames;     /* the trace's events read */
  SpsEtraceSpanStore *store;      /* the pairing's store then (not a ref:
                                   * compared only) */
  guint32             stored;     /* spans stored: places below it */
  guint               markers;
} BuildRecord;

/* Builds remembered: a live window grows the trace of the last one */
#define MAX_RECORDS 8

/* The pairing a decoder and its copies share (reference counted) */
typedef struct
{
  GMutex               lock;
  SpsEtracePairing    *pairing;
  SpsEtraceLiveCounts  counts;
  GArray              *records;   /* BuildRecord, oldest first */
} Shared;

struct _SpsEtraceLiveDecoder
{
  GObject           parent_instance;

  SpsEtraceDecoder *decoder;
  Shared           *shared;
  gboolean          built;
  gboolean          is_copy;
  gboolean          incremental;
};

static Shared *
shared_new (void)
{
  Shared *shared = g_atomic_rc_box_new0 (Shared);

  g_mutex_init (&shared->lock);
  shared->pairing = sps_etrace_pairing_new ();
  shared->records = g_array_new (FALSE, FALSE, sizeof (BuildRecord));

  return shared;
}

static void
shared_clear (gpointer data)
{
  Shared *shared = data;

  g_mutex_clear (&shared->lock);
  sps_etrace_pairing_free (shared->pairing);
  g_array_unref (shared->records);
}

/* Called with the lock held, after a build from the pairing */
static void
remember_build (Shared           *shared,
                SpsEtraceDecoder *decoder)
{
  BuildRecord record = {
    sps_etrace_decoder_get_frames (decoder),
    shared->pairing->store,
    sps_etrace_span_store_get_count (shared->pairing->store),
    shared->pairing->markers->len,
  };

  if (shared->records->len == MAX_RECORDS)
    g_array_remove_index (shared->records, 0);
  g_array_append_val (shared->records, record);
}

/* Advances the shared pairing to @n events of @self's (built): FALSE when
 * it had to start over (its store is new: no earlier trace's spans are
 * in it). Called with the lock held. */
static gboolean
advance_shared (SpsEtraceLiveDecoder *self,
                guint                 n)
{
  Shared *shared = self->shared;
  GArray *events = sps_etrace_decoder_get_events (self->decoder);
  GPtrArray *names = sps_etrace_decoder_get_names (self->decoder);

  shared->counts.kept++;
  /* This decoder is built: its events may be sorted in place */
  if (sps_etrace_pairing_advance (shared->pairing, events, names, n, TRUE))
    return TRUE;

  shared->counts.restarted++;
  sps_etrace_pairing_reset (shared->pairing);
  g_array_set_size (shared->records, 0);
  if (!sps_etrace_pairing_advance (shared->pairing, events, names, n, TRUE))
    g_return_val_if_reached (FALSE);

  return FALSE;
}

static void
shared_unref (Shared *shared)
{
  g_atomic_rc_box_release_full (shared, shared_clear);
}

static void sps_etrace_live_decoder_iface_init (SpsLiveDecoderInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SpsEtraceLiveDecoder, sps_etrace_live_decoder, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SPS_TYPE_LIVE_DECODER, sps_etrace_live_decoder_iface_init))

static void
sps_etrace_live_decoder_feed (SpsLiveDecoder *decoder,
                              const guint8   *data,
                              gsize           len)
{
  SpsEtraceLiveDecoder *self = SPS_ETRACE_LIVE_DECODER (decoder);

  g_return_if_fail (!self->built);

  /* A copy that goes on decodes other bytes than its original: its
   * events are paired apart from the original's from now on */
  if (self->is_copy)
    {
      g_clear_pointer (&self->shared, shared_unref);
      self->shared = shared_new ();
      self->is_copy = FALSE;
    }

  sps_etrace_decoder_feed (self->decoder, data, len);
}

static SpsLiveDecoder *
sps_etrace_live_decoder_copy (SpsLiveDecoder *decoder)
{
  SpsEtraceLiveDecoder *self = SPS_ETRACE_LIVE_DECODER (decoder);
  SpsEtraceLiveDecoder *copy;

  g_return_val_if_fail (!self->built, NULL);

  copy = g_object_new (SPS_TYPE_ETRACE_LIVE_DECODER, NULL);
  copy->decoder = sps_etrace_decoder_copy (self->decoder);
  copy->shared = g_atomic_rc_box_acquire (self->shared);
  copy->is_copy = TRUE;
  copy->incremental = self->incremental;

  return SPS_LIVE_DECODER (copy);
}

static gboolean
sps_etrace_live_decoder_build (SpsLiveDecoder   *decoder,
                               SpsTraceBuilder  *builder,
                               SpsProgress      *progress,
                               GError          **error)
{
  SpsEtraceLiveDecoder *self = SPS_ETRACE_LIVE_DECODER (decoder);
  GArray *events = sps_etrace_decoder_get_events (self->decoder);
  Shared *shared = self->shared;
  guint n = events->len;

  g_return_val_if_fail (!self->built, FALSE);

  self->built = TRUE;
  sps_etrace_end_stream (self->decoder, builder);

  /* The pairing holds a prefix of these events (a copy shares it with its
   * original only while it is not fed) */
  if (self->incremental && events->len == n)
    {
      g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&shared->lock);

      if (shared->pairing->n_events <= n)
        {
          advance_shared (self, n);
          if (!sps_etrace_build_paired (self->decoder, shared->pairing, builder, progress, error))
            return FALSE;
          remember_build (shared, self->decoder);
          return TRUE;
        }
    }

  g_mutex_lock (&shared->lock);
  shared->counts.apart++;
  g_mutex_unlock (&shared->lock);

  return sps_etrace_build (self->decoder, builder, progress, error);
}

/* Only the rows @base lacks, when @base is the trace of a build from the
 * shared pairing that is still remembered (same store: the pairing did
 * not start over since) */
static gboolean
sps_etrace_live_decoder_build_part (SpsLiveDecoder   *decoder,
                                    SpsTrace         *base,
                                    SpsTraceBuilder  *builder,
                                    SpsProgress      *progress,
                                    GError          **error)
{
  SpsEtraceLiveDecoder *self = SPS_ETRACE_LIVE_DECODER (decoder);
  GArray *events = sps_etrace_decoder_get_events (self->decoder);
  Shared *shared = self->shared;
  g_autoptr(GMutexLocker) locker = NULL;
  const BuildRecord *record = NULL;
  BuildRecord kept;
  guint n = events->len;

  g_return_val_if_fail (!self->built, FALSE);

  if (!self->incremental || g_strcmp0 (sps_trace_get_format (base), "etrace") != 0)
    return FALSE;

  locker = g_mutex_locker_new (&shared->lock);
  for (guint i = 0; i < shared->records->len && record == NULL; i++)
    {
      const BuildRecord *r = &g_array_index (shared->records, BuildRecord, i);

      if (r->frames == sps_trace_get_events_read (base) && r->store == shared->pairing->store)
        record = r;
    }
  if (record == NULL || shared->pairing->n_events > n)
    return FALSE;
  kept = *record;

  self->built = TRUE;
  sps_etrace_end_stream (self->decoder, builder);
  /* Frames only the end of the stream gave: the whole build pairs apart */
  if (events->len != n)
    return FALSE;
  if (!advance_shared (self, n))
    return FALSE;
  if (!sps_etrace_build_part (self->decoder, shared->pairing, kept.stored, kept.markers, builder, progress, error))
    return FALSE;
  remember_build (shared, self->decoder);

  return TRUE;
}

static void
sps_etrace_live_decoder_iface_init (SpsLiveDecoderInterface *iface)
{
  iface->feed = sps_etrace_live_decoder_feed;
  iface->copy = sps_etrace_live_decoder_copy;
  iface->build = sps_etrace_live_decoder_build;
  iface->build_part = sps_etrace_live_decoder_build_part;
}

static void
sps_etrace_live_decoder_finalize (GObject *object)
{
  SpsEtraceLiveDecoder *self = SPS_ETRACE_LIVE_DECODER (object);

  g_clear_pointer (&self->decoder, sps_etrace_decoder_free);
  g_clear_pointer (&self->shared, shared_unref);

  G_OBJECT_CLASS (sps_etrace_live_decoder_parent_class)->finalize (object);
}

static void
sps_etrace_live_decoder_class_init (SpsEtraceLiveDecoderClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sps_etrace_live_decoder_finalize;
}

static void
sps_etrace_live_decoder_init (SpsEtraceLiveDecoder *self)
{
  self->incremental = TRUE;
}

/* @source: (nullable): names the stream in messages */
SpsLiveDecoder *
sps_etrace_live_decoder_new (const char *source)
{
  SpsEtraceLiveDecoder *self = g_object_new (SPS_TYPE_ETRACE_LIVE_DECODER, NULL);

  self->decoder = sps_etrace_decoder_new ();
  sps_etrace_decoder_set_source (self->decoder, source);
  self->shared = shared_new ();

  return SPS_LIVE_DECODER (self);
}

/* FALSE: builds pair every event again, as before the pairing was kept
 * (the benchmark's baseline); copies made afterwards inherit it */
void
sps_etrace_live_decoder_set_incremental (SpsLiveDecoder *decoder,
                                         gboolean        incremental)
{
  g_return_if_fail (SPS_IS_ETRACE_LIVE_DECODER (decoder));

  SPS_ETRACE_LIVE_DECODER (decoder)->incremental = incremental != FALSE;
}

/* Of @decoder and every copy sharing its pairing */
void
sps_etrace_live_decoder_get_counts (SpsLiveDecoder      *decoder,
                                    SpsEtraceLiveCounts *counts)
{
  SpsEtraceLiveDecoder *self;

  g_return_if_fail (SPS_IS_ETRACE_LIVE_DECODER (decoder));
  g_return_if_fail (counts != NULL);

  self = SPS_ETRACE_LIVE_DECODER (decoder);
  g_mutex_lock (&self->shared->lock);
  *counts = self->shared->counts;
  g_mutex_unlock (&self->shared->lock);
}
