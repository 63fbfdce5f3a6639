/* sps-chrome-top-samples.h: the top-level "samples" array of Chrome traces
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

#include "sps-chrome-cpu-profile.h"
#include "sps-chrome-interner.h"
#include "sps-chrome-scanner.h"
#include "sps-chrome-stack-frames.h"

G_BEGIN_DECLS

typedef struct _SpsChromeTopSamples SpsChromeTopSamples;

SpsChromeTopSamples *sps_chrome_top_samples_new         (const SpsChromeReadContext *ctx);
void                 sps_chrome_top_samples_free        (SpsChromeTopSamples  *self);
void                 sps_chrome_top_samples_note_thread (SpsChromeTopSamples  *self,
                                                         gint64                tid,
                                                         guint32               thread);
SpsChromeScanResult  sps_chrome_top_samples_read        (SpsChromeTopSamples  *self,
                                                         SpsChromeScanner     *scanner);
void                 sps_chrome_top_samples_finish      (SpsChromeTopSamples  *self,
                                                         SpsChromeStackFrames *frames);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpsChromeTopSamples, sps_chrome_top_samples_free)

G_END_DECLS
