/* sps-progress.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_CORE_INSIDE) && !defined (SPANSCOPE_CORE_COMPILATION)
# error "Only <spanscope-core.h> can be included directly."
#endif

#include <gio/gio.h>

#include "sps-version-macros.h"

G_BEGIN_DECLS

/**
 * SpsProgressPhase:
 * @SPS_PROGRESS_PHASE_NONE: nothing started yet
 * @SPS_PROGRESS_PHASE_READING: reading (mapping, decompressing) the file
 * @SPS_PROGRESS_PHASE_PARSING: parsing events
 * @SPS_PROGRESS_PHASE_INDEXING: sorting, pairing and building indexes
 * @SPS_PROGRESS_PHASE_DONE: finished (or failed, or cancelled)
 *
 * The phases of a long operation, in order.
 */
typedef enum
{
  SPS_PROGRESS_PHASE_NONE,
  SPS_PROGRESS_PHASE_READING,
  SPS_PROGRESS_PHASE_PARSING,
  SPS_PROGRESS_PHASE_INDEXING,
  SPS_PROGRESS_PHASE_DONE,
} SpsProgressPhase;

#define SPS_TYPE_PROGRESS (sps_progress_get_type ())

SPS_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (SpsProgress, sps_progress, SPS, PROGRESS, GObject)

SPS_AVAILABLE_IN_ALL
SpsProgress      *sps_progress_new             (GCancellable     *cancellable);
SPS_AVAILABLE_IN_ALL
GCancellable     *sps_progress_get_cancellable (SpsProgress      *self);
SPS_AVAILABLE_IN_ALL
void              sps_progress_cancel          (SpsProgress      *self);
SPS_AVAILABLE_IN_ALL
gboolean          sps_progress_is_cancelled    (SpsProgress      *self);
SPS_AVAILABLE_IN_ALL
void              sps_progress_set_phase       (SpsProgress      *self,
                                                SpsProgressPhase  phase,
                                                const char       *message);
SPS_AVAILABLE_IN_ALL
void              sps_progress_set_fraction    (SpsProgress      *self,
                                                double            fraction);
SPS_AVAILABLE_IN_ALL
SpsProgressPhase  sps_progress_get_phase       (SpsProgress      *self);
SPS_AVAILABLE_IN_ALL
double            sps_progress_get_fraction    (SpsProgress      *self);
SPS_AVAILABLE_IN_ALL
char             *sps_progress_dup_message     (SpsProgress      *self);

G_END_DECLS
