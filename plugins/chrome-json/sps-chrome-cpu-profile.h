/* sps-chrome-cpu-profile.h: V8 CPU profiles and top-level samples inside
 * Chrome traces
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

#include "sps-chrome-interner.h"
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

/* Reports a warning @name at byte @offset; @message is untranslated
 * (marked with N_()). */
typedef void (*SpsChromeWarnFunc) (const char *name,
                                   gsize       offset,
                                   const char *message,
                                   gpointer    user_data);

typedef struct _SpsChromeCpuProfiles SpsChromeCpuProfiles;

SpsChromeCpuProfiles   *sps_chrome_cpu_profiles_new          (SpsTraceBuilder      *builder,
                                                              SpsChromeInterner    *interner,
                                                              const char           *base,
                                                              gboolean              ns,
                                                              SpsChromeWarnFunc     warn,
                                                              gpointer              user_data);
void                    sps_chrome_cpu_profiles_free         (SpsChromeCpuProfiles *self);
SpsChromeCpuProfileKind sps_chrome_cpu_profile_kind          (const SpsChromeEvent *ev);
void                    sps_chrome_cpu_profiles_add_event    (SpsChromeCpuProfiles *self,
                                                              SpsChromeCpuProfileKind kind,
                                                              const SpsChromeEvent *ev,
                                                              gint64                pid,
                                                              guint32               thread);
void                    sps_chrome_cpu_profiles_note_thread  (SpsChromeCpuProfiles *self,
                                                              gint64                tid,
                                                              guint32               thread);
SpsChromeScanResult     sps_chrome_cpu_profiles_read_samples (SpsChromeCpuProfiles *self,
                                                              SpsChromeScanner     *scanner);
void                    sps_chrome_cpu_profiles_finish       (SpsChromeCpuProfiles *self,
                                                              SpsChromeStackFrames *frames);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpsChromeCpuProfiles, sps_chrome_cpu_profiles_free)

G_END_DECLS
