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

/* Payload value types: EventPipe's type codes (the same as TDH's where
 * both have the type), plus a pointer whose size is the trace's */
typedef enum
{
  SPS_MS_TYPE_BOOLEAN = 3,    /* 4 bytes */
  SPS_MS_TYPE_CHAR    = 4,    /* one UTF-16 unit */
  SPS_MS_TYPE_INT8    = 5,
  SPS_MS_TYPE_UINT8   = 6,
  SPS_MS_TYPE_INT16   = 7,
  SPS_MS_TYPE_UINT16  = 8,
  SPS_MS_TYPE_INT32   = 9,
  SPS_MS_TYPE_UINT32  = 10,
  SPS_MS_TYPE_INT64   = 11,
  SPS_MS_TYPE_UINT64  = 12,
  SPS_MS_TYPE_FLOAT   = 13,
  SPS_MS_TYPE_DOUBLE  = 14,
  SPS_MS_TYPE_DECIMAL = 15,   /* 16 bytes, kept as hex */
  SPS_MS_TYPE_DATE    = 16,   /* 64-bit ticks, kept as they are */
  SPS_MS_TYPE_GUID    = 17,
  SPS_MS_TYPE_STRING  = 18,   /* UTF-16, NUL-terminated */
  SPS_MS_TYPE_POINTER = 64,   /* 4 or 8 bytes, as the trace's pointers */
} SpsMsType;

/* A payload field of a layout known in advance (the manifest's) */
typedef struct
{
  const char *name;
  SpsMsType   type;
} SpsMsField;

SpsMsProvider  sps_ms_provider_from_name     (const char      *name);
const SpsMsField *sps_ms_manifest_fields   (SpsMsProvider    provider,
                                              guint            id,
                                              guint            version,
                                              guint           *n_fields);
char          *sps_ms_dup_utf16              (const guint8    *p,
                                              gsize            n);
gboolean       sps_ms_utf16_is_valid         (const guint8    *p,
                                              gsize            n);
gboolean       sps_ms_skip_value             (gint32           type,
                                              guint            pointer_size,
                                              const guint8   **pos,
                                              const guint8    *end,
                                              gsize           *text_bound);
gboolean       sps_ms_append_value           (GString         *out,
                                              gint32           type,
                                              guint            pointer_size,
                                              const guint8   **pos,
                                              const guint8    *end);
gboolean       sps_ms_append_fields          (GString         *out,
                                              const SpsMsField *fields,
                                              guint            n_fields,
                                              guint            pointer_size,
                                              const guint8    *payload,
                                              gsize            len);
const char    *sps_ms_manifest_event_name    (SpsMsProvider    provider,
                                              guint            id);
void           sps_ms_append_raw_payload     (GString         *out,
                                              const guint8    *payload,
                                              gsize            len);
SpsArgsRef     sps_ms_add_raw_payload_args   (SpsTraceBuilder *builder,
                                              GString         *scratch,
                                              const guint8    *payload,
                                              gsize            len);

G_END_DECLS
