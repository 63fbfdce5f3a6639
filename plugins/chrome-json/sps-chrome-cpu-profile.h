/* sps-chrome-cpu-profile.h: V8 CPU profiles inside Chrome traces
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

#include "sps-chrome-interner.h"
#include "sps-chrome-read-context.h"
#include "sps-chrome-scanner.h"
#include "sps-chrome-stack-frames.h"

G_BEGIN_DECLS

typedef enum
{
  SPS_CHROME_CPU_PROFILE_NONE,
  SPS_CHROME_CPU_PROFILE_START,   /* "Profile": startTime of a streamed profile */
  SPS_CHROME_CPU_PROFILE_CHUNK,   /* "ProfileChunk": nodes and samples of one */
  SPS_CHROME_CPU_PROFILE_LEGACY,  /* "CpuProfile": a whole profile */
} SpsChromeCpuProfileKind;

typedef struct _SpsChromeCpuProfiles SpsChromeCpuProfiles;

SpsChromeCpuProfiles   *sps_chrome_cpu_profiles_new          (const SpsChromeReadContext *ctx);
void                    sps_chrome_cpu_profiles_free         (SpsChromeCpuProfiles *self);
SpsChromeCpuProfileKind sps_chrome_cpu_profile_kind          (const SpsChromeEvent *ev);
void                    sps_chrome_cpu_profiles_add_event    (SpsChromeCpuProfiles *self,
                                                              SpsChromeCpuProfileKind kind,
                                                              const SpsChromeEvent *ev,
                                                              gint64                pid,
                                                              guint32               thread);
void                    sps_chrome_cpu_profiles_finish       (SpsChromeCpuProfiles *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpsChromeCpuProfiles, sps_chrome_cpu_profiles_free)

G_END_DECLS
