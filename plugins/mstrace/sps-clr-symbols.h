/* sps-clr-symbols.h: the names of .NET methods from the runtime's events
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Shared by the importers of .nettrace (EventPipe) and ETL (ETW) traces,
 * whose CLR events have the same payloads: a managed frame is named the
 * same way from either.
 */

#pragma once

#include <spanscope-core.h>

G_BEGIN_DECLS

typedef struct _SpsClrSymbols SpsClrSymbols;

/* The two providers of the runtime's events: the same ids mean other
 * events in each */
typedef enum
{
  SPS_CLR_PROVIDER_RUNTIME,     /* Microsoft-Windows-DotNETRuntime */
  SPS_CLR_PROVIDER_RUNDOWN,     /* Microsoft-Windows-DotNETRuntimeRundown */
} SpsClrProvider;

typedef enum
{
  SPS_CLR_EVENT_OTHER,
  SPS_CLR_EVENT_METHOD,         /* MethodLoad/UnloadVerbose, MethodDCStart/EndVerbose */
  SPS_CLR_EVENT_MODULE,         /* ModuleLoad, ModuleDCStart/End */
  SPS_CLR_EVENT_DOMAIN_MODULE,  /* DomainModuleLoad, DomainModuleDCStart/End */
  SPS_CLR_EVENT_RUNTIME_INFO,   /* the rundown's RuntimeInformationDCStart */
} SpsClrEvent;

SpsClrEvent    sps_clr_event_kind           (SpsClrProvider   provider,
                                             guint            id);

SpsClrSymbols *sps_clr_symbols_new          (SpsTraceBuilder *builder);
void           sps_clr_symbols_free         (SpsClrSymbols   *self);
gboolean       sps_clr_symbols_add_method   (SpsClrSymbols   *self,
                                             const guint8    *payload,
                                             gsize            len);
gboolean       sps_clr_symbols_add_module   (SpsClrSymbols   *self,
                                             const guint8    *payload,
                                             gsize            len,
                                             gboolean         domain);
gboolean       sps_clr_symbols_add_event    (SpsClrSymbols   *self,
                                             SpsClrProvider   provider,
                                             guint            id,
                                             const guint8    *payload,
                                             gsize            len);
guint          sps_clr_symbols_get_n_methods (SpsClrSymbols  *self);
void           sps_clr_symbols_seal         (SpsClrSymbols   *self);
guint32        sps_clr_symbols_frame        (SpsClrSymbols   *self,
                                             guint64          ip);

char          *sps_clr_read_utf16z          (const guint8   **pos,
                                             const guint8    *end);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpsClrSymbols, sps_clr_symbols_free)

G_END_DECLS
