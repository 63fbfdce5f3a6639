/* sps-ms-profiler.h: the payloads of Visual Studio's .NET Object
 * Allocation provider (DhCorProfilerProvider), read once for the
 * allocations and for the events' args
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <string.h>

#include <glib.h>

#include "sps-ms-memory.h"

G_BEGIN_DECLS

/* ObjectAllocation v3 */
typedef struct
{
  guint64       object_id;
  guint32       size;
  const guint8 *types;        /* the type descriptor, types_size bytes */
  guint32       types_size;
} SpsMsObjectAllocation;

/* DeadObjects v1 */
typedef struct
{
  gint32        reserve;
  guint32       count;
  const guint8 *ids;          /* count u64 object ids */
} SpsMsDeadObjects;

/* TypeDefinition v1 */
typedef struct
{
  guint64  module;
  guint32  token;
  char    *name;              /* owned */
  guint32  parent_token;
  guint32  n_generic_params;
  gboolean is_value_type;
  gboolean has_tail;          /* the three fields after the name are there */
} SpsMsTypeDefinition;

gboolean sps_ms_read_object_allocation (const guint8          *payload,
                                        gsize                  len,
                                        SpsMsObjectAllocation *out,
                                        const char           **problem);
gboolean sps_ms_read_dead_objects      (const guint8          *payload,
                                        gsize                  len,
                                        SpsMsDeadObjects      *out,
                                        const char           **problem);
gboolean sps_ms_read_type_definition   (const guint8          *payload,
                                        gsize                  len,
                                        SpsMsTypeDefinition   *out,
                                        const char           **problem);
/* What a TypeDefinition said of a type: FALSE when none defined it */
typedef gboolean (*SpsMsTypeNameLookup) (guint64      module,
                                         guint32      token,
                                         const char **name,
                                         guint32     *parent_token,
                                         guint32     *n_generic_params,
                                         gpointer     user_data);

char    *sps_ms_type_descriptor_name   (const guint8          *types,
                                        gsize                  len,
                                        SpsMsTypeNameLookup    lookup,
                                        gpointer               user_data);
gboolean sps_ms_profiler_append_args   (GString               *out,
                                        SpsMsMemoryEvent       event,
                                        guint                  version,
                                        const guint8          *payload,
                                        gsize                  len);

static inline guint64
sps_ms_dead_object_id (const SpsMsDeadObjects *dead,
                       guint32                 i)
{
  guint64 v;

  memcpy (&v, dead->ids + 8 * (gsize) i, 8);
  return GUINT64_FROM_LE (v);
}

G_END_DECLS
