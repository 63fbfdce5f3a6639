/* etrace-test-util.h: decoding helpers for the firmware tests
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

#include "etrace.h"
#include "tracing.pb-c.h"

G_BEGIN_DECLS

/* One decoded frame, with the running clock of formats/embedded-trace.md
 * §2.2 applied. */
typedef struct
{
  Tracing__TraceEventType type;
  gsize offset;        /* of the length prefix in the stream */
  gsize size;          /* bytes, prefix included */
  gint64 ticks;        /* the timestamp field as sent */
  gint64 clock;        /* absolute time of the frame */
  guint32 name_id;
  guint32 sequence;
  gboolean has_value;
  guint32 value;
  char *name;          /* NAME_REGISTERED */
  guint source;
  guint priority;
  gboolean has_deadline;
  float deadline_ms;
  guint timebase;
  guint32 core_frequency_hz;
  guint32 source_mask;
} EtFrame;

GArray     *et_decode_stream      (const guint8 *data,
                                   gsize         len);
const char *et_resolve_name       (GArray       *frames,
                                   guint         index);
const EtFrame *et_frame           (GArray       *frames,
                                   guint         index);

G_END_DECLS
