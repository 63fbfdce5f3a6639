/* sps-etl-memory.h: the heap's events of an ETL session, kept until the
 * session's clock is known
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

#include "sps-etl-kernel.h"
#include "sps-etl-reader.h"
#include "sps-ms-memory.h"

G_BEGIN_DECLS

typedef struct _SpsEtlMemory SpsEtlMemory;

SpsEtlMemory *sps_etl_memory_new      (SpsTraceBuilder    *builder);
void          sps_etl_memory_free     (SpsEtlMemory       *self);
void          sps_etl_memory_set_file (SpsEtlMemory       *self,
                                       const char         *display_name);
void          sps_etl_memory_keep     (SpsEtlMemory       *self,
                                       guint               event,
                                       SpsMsMemoryEvent    kind,
                                       const SpsEtlRecord *record);
void          sps_etl_memory_want_stacks (SpsEtlMemory    *self,
                                       SpsEtlKernel       *kernel);
guint32       sps_etl_memory_add      (SpsEtlMemory       *self,
                                       guint               event,
                                       guint32             process,
                                       guint32             thread,
                                       SpsTime             ts,
                                       guint32            *event_stack);
void          sps_etl_memory_finish   (SpsEtlMemory       *self,
                                       gboolean            events_lost);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpsEtlMemory, sps_etl_memory_free)

G_END_DECLS
