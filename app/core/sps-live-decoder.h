/* sps-live-decoder.h: a stream decoded as it arrives, shown as it grows
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_CORE_INSIDE) && !defined (SPANSCOPE_CORE_COMPILATION)
# error "Only <spanscope-core.h> can be included directly."
#endif

#include <gio/gio.h>

#include "sps-progress.h"
#include "sps-trace-builder.h"
#include "sps-trace.h"
#include "sps-version-macros.h"

G_BEGIN_DECLS

#define SPS_TYPE_LIVE_DECODER (sps_live_decoder_get_type ())

SPS_AVAILABLE_IN_ALL
G_DECLARE_INTERFACE (SpsLiveDecoder, sps_live_decoder, SPS, LIVE_DECODER, GObject)

/**
 * SpsLiveDecoderInterface:
 * @feed: decodes the next bytes of the stream, in any chunks (an
 *   incomplete frame is kept for the next call); cost ∝ @len
 * @copy: an independent decoder in the same state, to be built while
 *   this one goes on decoding
 * @build: ends the stream as if it stopped here and writes everything
 *   decoded into @builder, exactly as the format's importer would for the
 *   same bytes; called once, on any thread
 * @build_part: (nullable): as @build, but writes only the rows that @base
 *   (the trace of an earlier build of this decoder or of a copy of it)
 *   does not hold: the completed slices and thread instants that @base
 *   holds are left out, everything else is written as @build would.
 *   Returns %FALSE without an error when it cannot (the decoder may then
 *   have been built: the caller builds another copy whole). See
 *   sps_live_decoder_grow().
 *
 * The state of a format's decoder kept between the reads of a live
 * capture (see sps_importer_new_live_decoder()), so that each update
 * decodes only the bytes that arrived since the last one.
 */
struct _SpsLiveDecoderInterface
{
  GTypeInterface parent_iface;

  void             (*feed)  (SpsLiveDecoder   *self,
                             const guint8     *data,
                             gsize             len);
  SpsLiveDecoder  *(*copy)  (SpsLiveDecoder   *self);
  gboolean         (*build) (SpsLiveDecoder   *self,
                             SpsTraceBuilder  *builder,
                             SpsProgress      *progress,
                             GError          **error);
  gboolean    (*build_part) (SpsLiveDecoder   *self,
                             SpsTrace         *base,
                             SpsTraceBuilder  *builder,
                             SpsProgress      *progress,
                             GError          **error);
};

/**
 * SpsLiveDecoderAddFunc:
 * @builder: the builder of an update, holding the stream's rows
 * @user_data: the data given with the function
 *
 * Adds rows of the viewer's own to an update's trace (such as its own
 * memory as a counter), on the update's worker thread, before the trace
 * is finished.
 */
typedef void (*SpsLiveDecoderAddFunc) (SpsTraceBuilder *builder,
                                       gpointer         user_data);

SPS_AVAILABLE_IN_ALL
void            sps_live_decoder_feed        (SpsLiveDecoder       *self,
                                              const guint8         *data,
                                              gsize                 len);
SPS_AVAILABLE_IN_ALL
SpsLiveDecoder *sps_live_decoder_copy        (SpsLiveDecoder       *self);
SPS_AVAILABLE_IN_ALL
gboolean        sps_live_decoder_build       (SpsLiveDecoder       *self,
                                              SpsTraceBuilder      *builder,
                                              SpsProgress          *progress,
                                              GError              **error);
SPS_AVAILABLE_IN_ALL
void            sps_live_decoder_update_async  (SpsLiveDecoder       *self,
                                                SpsPluginEngine      *engine,
                                                GFile                *file,
                                                guint64               offset,
                                                guint64               end,
                                                SpsLiveDecoderAddFunc add_func,
                                                gpointer              add_data,
                                                GDestroyNotify        add_destroy,
                                                GCancellable         *cancellable,
                                                GAsyncReadyCallback   callback,
                                                gpointer              user_data);
SPS_AVAILABLE_IN_ALL
SpsTrace       *sps_live_decoder_update_finish (GAsyncResult         *result,
                                                GError              **error);
SPS_AVAILABLE_IN_ALL
SpsTrace       *sps_live_decoder_load        (SpsLiveDecoder       *self,
                                              SpsPluginEngine      *engine,
                                              GFile                *file,
                                              GError              **error);
SPS_AVAILABLE_IN_ALL
SpsTrace       *sps_live_decoder_grow        (SpsLiveDecoder       *self,
                                              SpsPluginEngine      *engine,
                                              GFile                *file,
                                              SpsTrace             *base,
                                              gboolean             *grown,
                                              GError              **error);

G_END_DECLS
