/* sps-etrace-live-decoder.h: an embedded trace stream decoded as it arrives
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

G_BEGIN_DECLS

#define SPS_TYPE_ETRACE_LIVE_DECODER (sps_etrace_live_decoder_get_type ())

G_DECLARE_FINAL_TYPE (SpsEtraceLiveDecoder, sps_etrace_live_decoder, SPS, ETRACE_LIVE_DECODER, GObject)

/* What the builds of a decoder and its copies did (tests, benchmark) */
typedef struct
{
  guint kept;               /* built from the kept pairing (new events paired) */
  guint restarted;          /* of those, paired again from the first event: an
                             * event older than the newest one paired */
  guint apart;              /* paired everything on their own: a copy older
                             * than the pairing, events that only the end
                             * of the stream gave, or not incremental */
} SpsEtraceLiveCounts;

SpsLiveDecoder *sps_etrace_live_decoder_new             (const char          *source);
void            sps_etrace_live_decoder_set_incremental (SpsLiveDecoder      *decoder,
                                                         gboolean             incremental);
void            sps_etrace_live_decoder_get_counts      (SpsLiveDecoder      *decoder,
                                                         SpsEtraceLiveCounts *counts);

G_END_DECLS
