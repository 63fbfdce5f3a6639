/* sps-etl-event-info.c: the event descriptions a merged ETL carries
 *
 * When a trace is merged on the machine that recorded it (xperf, PerfView,
 * WPR), KernelTraceControl adds a MetaData/EventInfo event for each event
 * type of a manifest provider: the TRACE_EVENT_INFO that TDH gave for it
 * there, with the provider's, task's and opcode's names. Elsewhere they
 * are the only names such providers have (Microsoft-Windows-Kernel-File,
 * -Kernel-Process, …), and the ones PerfView shows when it reads the file
 * on the recording machine.
 *
 * Layout (little-endian): provider GUID (0), event GUID (16), the event's
 * descriptor (32: id u16, version u8, channel u8, level u8, opcode u8,
 * task u16, keyword u64), the decoding source (48), then offsets from the
 * payload's start of the provider's name (52), the level's, channel's and
 * keywords' (56–64), the task's (68) and the opcode's (72), each a
 * NUL-terminated UTF-16 string; 0 when there is none. Properties follow
 * (not read: the payloads keep their bytes).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-diagsession"

#include "config.h"

#include "sps-etl-event-info.h"
#include "sps-etl-private.h"

#define FIXED_SIZE         112
#define PROVIDER_NAME_AT    52
#define TASK_NAME_AT        68
#define OPCODE_NAME_AT      72

/* The string at the offset read at @at, or NULL when there is none or it
 * points outside the payload */
static char *
string_at (const guint8 *payload,
           gsize         len,
           gsize         at)
{
  guint32 offset = sps_ms_read_u32 (payload + at);

  if (offset < FIXED_SIZE || offset >= len - 1)
    return NULL;
  return sps_etl_utf16_string (payload + offset, len - offset);
}

/**
 * sps_etl_event_info_parse:
 * @payload: a MetaData/EventInfo event's payload
 * @len: its size
 * @info: (out caller-allocates): what it describes
 *
 * Reads an event type's description. The event's name is built as
 * TraceEvent builds it from the same description: the task's name, then
 * `/` and the opcode's without `win:`, unless the opcode is Info (or has
 * no name).
 *
 * Returns: %FALSE (and @info cleared) when the payload is too short, or
 *   names no provider or no task
 */
gboolean
sps_etl_event_info_parse (const guint8    *payload,
                          gsize            len,
                          SpsEtlEventInfo *info)
{
  g_autofree char *task = NULL;
  g_autofree char *opcode = NULL;

  g_return_val_if_fail (info != NULL, FALSE);

  memset (info, 0, sizeof *info);
  if (payload == NULL || len < FIXED_SIZE)
    return FALSE;
  memcpy (info->provider, payload, 16);
  info->id = sps_ms_read_u16 (payload + 32);
  info->version = payload[34];
  info->opcode = payload[37];
  info->task = sps_ms_read_u16 (payload + 38);
  info->provider_name = string_at (payload, len, PROVIDER_NAME_AT);
  task = string_at (payload, len, TASK_NAME_AT);
  opcode = string_at (payload, len, OPCODE_NAME_AT);
  if (info->provider_name == NULL || info->provider_name[0] == '\0' || task == NULL || task[0] == '\0')
    {
      sps_etl_event_info_clear (info);
      return FALSE;
    }
  if (opcode != NULL && g_str_has_prefix (opcode, "win:"))
    memmove (opcode, opcode + 4, strlen (opcode + 4) + 1);
  if (info->opcode == 0 || opcode == NULL || opcode[0] == '\0' || g_str_equal (opcode, "Info"))
    info->event_name = g_steal_pointer (&task);
  else
    info->event_name = g_strconcat (task, "/", opcode, NULL);
  return TRUE;
}

void
sps_etl_event_info_clear (SpsEtlEventInfo *info)
{
  g_clear_pointer (&info->provider_name, g_free);
  g_clear_pointer (&info->event_name, g_free);
}

void
sps_etl_event_info_free (SpsEtlEventInfo *info)
{
  if (info == NULL)
    return;
  sps_etl_event_info_clear (info);
  g_free (info);
}
