/* sps-chrome-cpu-profile.h: V8 CPU profiles inside Chrome traces
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

/* What the readers of a file share: the builder, the importer's string
 * cache, the input values point into, the time unit and where warnings go */
typedef struct
{
  SpsTraceBuilder   *builder;
  SpsChromeInterner *interner;
  const char        *base;
  gboolean           ns;
  SpsChromeWarnFunc  warn;
  gpointer           user_data;
} SpsChromeReadContext;

void                    sps_chrome_read_context_warn         (const SpsChromeReadContext *ctx,
                                                              const char           *name,
                                                              gsize                 offset,
                                                              const char           *message);
guint32                 sps_chrome_read_context_intern       (const SpsChromeReadContext *ctx,
                                                              const SpsChromeValue *value);
gsize                   sps_chrome_read_context_offset       (const SpsChromeReadContext *ctx,
                                                              const SpsChromeValue *value);

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

/* Small readers of validated JSON values, shared with the top-level
 * samples */
gboolean                sps_chrome_value_to_int64            (const SpsChromeValue *value,
                                                              gint64               *out);
guint32                 sps_chrome_value_to_one_based        (const SpsChromeValue *value);
void                    sps_chrome_get_members               (const char           *base,
                                                              const SpsChromeValue *object,
                                                              const char * const   *names,
                                                              SpsChromeValue       *values,
                                                              guint                 n);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpsChromeCpuProfiles, sps_chrome_cpu_profiles_free)

G_END_DECLS
