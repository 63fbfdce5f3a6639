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
 */

#define G_LOG_DOMAIN "sps-etrace"

#include "config.h"

#include "sps-etrace-analysis.h"
#include "sps-etrace-decoder.h"
#include "sps-etrace-live-decoder.h"

struct _SpsEtraceLiveDecoder
{
  GObject           parent_instance;

  SpsEtraceDecoder *decoder;
  gboolean          built;
};

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

  return SPS_LIVE_DECODER (copy);
}

static gboolean
sps_etrace_live_decoder_build (SpsLiveDecoder   *decoder,
                               SpsTraceBuilder  *builder,
                               SpsProgress      *progress,
                               GError          **error)
{
  SpsEtraceLiveDecoder *self = SPS_ETRACE_LIVE_DECODER (decoder);

  g_return_val_if_fail (!self->built, FALSE);

  self->built = TRUE;

  return sps_etrace_build_stream (self->decoder, builder, progress, error);
}

static void
sps_etrace_live_decoder_iface_init (SpsLiveDecoderInterface *iface)
{
  iface->feed = sps_etrace_live_decoder_feed;
  iface->copy = sps_etrace_live_decoder_copy;
  iface->build = sps_etrace_live_decoder_build;
}

static void
sps_etrace_live_decoder_finalize (GObject *object)
{
  SpsEtraceLiveDecoder *self = SPS_ETRACE_LIVE_DECODER (object);

  g_clear_pointer (&self->decoder, sps_etrace_decoder_free);

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
}

/* @source: (nullable): names the stream in messages */
SpsLiveDecoder *
sps_etrace_live_decoder_new (const char *source)
{
  SpsEtraceLiveDecoder *self = g_object_new (SPS_TYPE_ETRACE_LIVE_DECODER, NULL);

  self->decoder = sps_etrace_decoder_new ();
  sps_etrace_decoder_set_source (self->decoder, source);

  return SPS_LIVE_DECODER (self);
}
