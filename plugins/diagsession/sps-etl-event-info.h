/* sps-etl-event-info.h: the event descriptions a merged ETL carries
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What KernelTraceControl's MetaData/EventInfo event says of one event
 * type (a TRACE_EVENT_INFO, as TDH gives it on the recording machine) */
typedef struct
{
  guint8   provider[16];   /* the provider's GUID, as in a record */
  guint16  id;
  guint8   version;
  guint8   opcode;
  guint16  task;
  char    *provider_name;  /* never NULL */
  char    *event_name;     /* "Task[/Opcode]", never NULL */
} SpsEtlEventInfo;

gboolean sps_etl_event_info_parse (const guint8    *payload,
                                   gsize            len,
                                   SpsEtlEventInfo *info);
void     sps_etl_event_info_clear (SpsEtlEventInfo *info);
void     sps_etl_event_info_free  (SpsEtlEventInfo *info);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (SpsEtlEventInfo, sps_etl_event_info_clear)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpsEtlEventInfo, sps_etl_event_info_free)

G_END_DECLS
