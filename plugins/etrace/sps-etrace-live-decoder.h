/* sps-etrace-live-decoder.h: an embedded trace stream decoded as it arrives
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

G_BEGIN_DECLS

#define SPS_TYPE_ETRACE_LIVE_DECODER (sps_etrace_live_decoder_get_type ())

G_DECLARE_FINAL_TYPE (SpsEtraceLiveDecoder, sps_etrace_live_decoder, SPS, ETRACE_LIVE_DECODER, GObject)

SpsLiveDecoder *sps_etrace_live_decoder_new (const char *source);

G_END_DECLS
