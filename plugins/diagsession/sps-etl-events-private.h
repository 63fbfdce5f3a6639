/* sps-etl-events-private.h: what the files of the ETL events share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

#include "sps-etl-events.h"
#include "sps-ms-events.h"

G_BEGIN_DECLS

#define KERNEL_PROVIDER "Windows Kernel"

/* Kernel groups (the high byte of a system record's type) */
enum
{
  GROUP_EVENT_TRACE = 0,
  GROUP_PROCESS     = 3,
  GROUP_THREAD      = 5,
  GROUP_CONFIG      = 11,
  GROUP_PERFINFO    = 15,
  GROUP_IMAGE       = 20,
  GROUP_STACKWALK   = 24,
  /* Not a system group: the SysConfig task's events, logged under a
   * GUID of their own by the kernel's merge */
  GROUP_SYSCONFIG   = 64,
};

/* The tasks of KernelTraceControl, each a classic GUID of its own, whose
 * events are named by their opcodes */
enum
{
  SYMBOL_TASK_NONE,
  SYMBOL_TASK_IMAGE_ID,
  SYMBOL_TASK_META_DATA,
};

/* A provider known by its GUID (as text); a kernel classic GUID names
 * its group */
typedef struct
{
  const char    *guid;
  const char    *name;
  SpsMsProvider  manifest;
  gint           kernel_group;
  guint8         symbol_task;
} SpsEtlKnownProvider;

/* sps-etl-names.c: the names of providers and events that tables give */
extern const SpsEtlKnownProvider _sps_etl_known_providers[];

gint        _sps_etl_known_provider      (const guint8 *guid);
void        _sps_etl_append_kernel_event (GString      *out,
                                          guint         group,
                                          guint         opcode);
const char *_sps_etl_symbol_task_name    (guint         task,
                                          guint8        opcode);

G_END_DECLS
