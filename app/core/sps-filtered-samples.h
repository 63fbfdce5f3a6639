/* sps-filtered-samples.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_CORE_INSIDE) && !defined (SPANSCOPE_CORE_COMPILATION)
# error "Only <spanscope-core.h> can be included directly."
#endif

#include "sps-trace.h"

G_BEGIN_DECLS

typedef struct _SpsFilteredSamples SpsFilteredSamples;

#define SPS_TYPE_FILTERED_SAMPLES (sps_filtered_samples_get_type ())

SPS_AVAILABLE_IN_ALL
GType                   sps_filtered_samples_get_type      (void) G_GNUC_CONST;

SPS_AVAILABLE_IN_ALL
SpsFilteredSamples     *sps_filtered_samples_new           (SpsTrace             *trace,
                                                            const SpsSampleTable *samples,
                                                            const char           *first_span,
                                                            const char           *span_filter,
                                                            GError              **error);
SPS_AVAILABLE_IN_ALL
const SpsSampleTable   *sps_filtered_samples_get_samples   (SpsFilteredSamples   *self);
SPS_AVAILABLE_IN_ALL
const SpsCallsiteTable *sps_filtered_samples_get_callsites (SpsFilteredSamples   *self);
SPS_AVAILABLE_IN_ALL
SpsFilteredSamples     *sps_filtered_samples_ref           (SpsFilteredSamples   *self);
SPS_AVAILABLE_IN_ALL
void                    sps_filtered_samples_free          (SpsFilteredSamples   *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpsFilteredSamples, sps_filtered_samples_free)

G_END_DECLS
