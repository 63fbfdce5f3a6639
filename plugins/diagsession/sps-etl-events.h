/* sps-etl-events.h: every ETL event kept, named as PerfView names it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

#include "sps-etl-fields.h"
#include "sps-etl-kernel.h"
#include "sps-etl-reader.h"

G_BEGIN_DECLS

typedef struct _SpsEtlEvents SpsEtlEvents;

/* One event as read, waiting for the session's clock and threads: in 40
 * bytes (a benchmark's 200 MB file keeps 600,000 of them waiting) */
typedef struct
{
  guint64            ticks;
  SpsArgsRef         args;
  guint32            pid;          /* SPS_ETL_NO_ID when the header has none */
  guint32            tid;
  guint32            provider;     /* string ids */
  guint32            name;
  SpsEventDescriptor descriptor;
  guint16            provider_index;  /* 0: a kernel system record */
  guint8             named_by_id;     /* "EventID(N)": a manifest may name it */
} SpsEtlEvent;

/* Whether a record of the kernel's @group (-1: none) and @opcode is a
 * CPU sample or a stack walk: the samples' and their stacks', not an
 * event (15: PerfInfo, 46: SampledProfile; 24: StackWalk) */
static inline gboolean
sps_etl_events_is_sample_data (gint  group,
                               guint opcode)
{
  return group == 24 || (group == 15 && opcode == 46);
}

SpsEtlEvents      *sps_etl_events_new      (SpsTraceBuilder      *builder,
                                            SpsEtlDecompressFunc  decompress);
void               sps_etl_events_free     (SpsEtlEvents       *self);
void               sps_etl_events_begin_file (SpsEtlEvents     *self,
                                            GBytes             *etl,
                                            const char         *display_name);
void               sps_etl_events_set_compression (SpsEtlEvents *self,
                                            guint32             compression);
SpsEtlFieldsStatus sps_etl_events_append_args (GString          *out,
                                            const SpsEtlRecord *record,
                                            GHashTable         *layouts);
SpsEtlFieldsStatus sps_etl_events_check_args (const SpsEtlRecord *record,
                                            GHashTable         *layouts,
                                            GString            *scratch);
const SpsEtlEvent *sps_etl_events_add      (SpsEtlEvents       *self,
                                            const SpsEtlRecord *record);
guint              sps_etl_events_prepare  (SpsEtlEvents       *self);
const SpsEtlEvent *sps_etl_events_at       (SpsEtlEvents       *self,
                                            guint               event);
void               sps_etl_events_release  (SpsEtlEvents       *self,
                                            guint               end);
guint32            sps_etl_events_add_memory (SpsEtlEvents     *self,
                                            guint               event,
                                            guint32             process,
                                            guint32             thread,
                                            SpsTime             ts,
                                            guint32            *event_stack);
void               sps_etl_events_want_stacks (SpsEtlEvents    *self,
                                            SpsEtlKernel       *kernel);
void               sps_etl_events_finish_memory (SpsEtlEvents  *self,
                                            gboolean            events_lost);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpsEtlEvents, sps_etl_events_free)

G_END_DECLS
