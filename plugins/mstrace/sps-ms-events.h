/* sps-ms-events.h: what the .nettrace and ETL importers share about events
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The names PerfView gives the .NET runtime's events (`Task/Opcode`, from
 * the runtime's manifest, which neither format carries in the file), and
 * the args of a payload that is kept undecoded.
 */

#pragma once

#include <spanscope-core.h>

G_BEGIN_DECLS

/* Providers whose events both formats name from the manifest */
typedef enum
{
  SPS_MS_PROVIDER_OTHER,
  SPS_MS_PROVIDER_CLR_RUNTIME,   /* Microsoft-Windows-DotNETRuntime */
  SPS_MS_PROVIDER_CLR_RUNDOWN,   /* Microsoft-Windows-DotNETRuntimeRundown */
  SPS_MS_PROVIDER_CLR_PRIVATE,   /* Microsoft-Windows-DotNETRuntimePrivate */
  SPS_MS_PROVIDER_SAMPLER,       /* Microsoft-DotNETCore-SampleProfiler */
} SpsMsProvider;

SpsMsProvider  sps_ms_provider_from_name     (const char      *name);
const char    *sps_ms_manifest_event_name    (SpsMsProvider    provider,
                                              guint            id);
SpsArgsRef     sps_ms_add_raw_payload_args   (SpsTraceBuilder *builder,
                                              GString         *scratch,
                                              const guint8    *payload,
                                              gsize            len);

G_END_DECLS
