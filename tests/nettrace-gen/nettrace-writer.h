/* nettrace-writer.h: writes EventPipe V5 (.nettrace) files the way the
 * .NET runtime does, for tests and benchmarks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* EP_MAX_STACK_DEPTH of the runtime */
#define NT_MAX_STACK_DEPTH 100

typedef struct _NtWriter NtWriter;

NtWriter *nt_writer_new              (guint          pointer_size,
                                      gint64         qpc_frequency,
                                      gint64         sync_qpc);
void      nt_writer_free             (NtWriter      *self);

/* A method whose code is [start, start + size); named by the end rundown
 * (MethodDCEndVerbose v1 or v2, alternating), or, with @jitted, by a
 * MethodLoadVerbose written during the session. */
void      nt_writer_add_method       (NtWriter      *self,
                                      guint64        start,
                                      guint32        size,
                                      guint64        module_id,
                                      const char    *ns,
                                      const char    *name,
                                      const char    *signature,
                                      gboolean       jitted);
void      nt_writer_add_module       (NtWriter      *self,
                                      guint64        module_id,
                                      const char    *il_path);

/* A SampleProfiler sample of thread @tid at @ticks with @n IPs, leaf
 * first; kept to its first NT_MAX_STACK_DEPTH IPs as the runtime does. */
void      nt_writer_sample           (NtWriter      *self,
                                      guint64        tid,
                                      gint64         ticks,
                                      const guint64 *ips,
                                      guint          n,
                                      guint32        sample_type);
/* A self-describing event of another capture thread (its timestamp may
 * be earlier than the previous event's: a negative delta). */
guint32   nt_writer_add_event_type   (NtWriter      *self,
                                      const char    *provider,
                                      gint32         event_id,
                                      const char    *name,
                                      const guint8  *fields,
                                      gsize          fields_len);
guint32   nt_writer_add_versioned_event_type (NtWriter *self,
                                      const char    *provider,
                                      gint32         event_id,
                                      const char    *name,
                                      gint32         version,
                                      const guint8  *fields,
                                      gsize          fields_len);
void      nt_writer_event            (NtWriter      *self,
                                      guint32        metadata_id,
                                      guint64        tid,
                                      gint64         ticks,
                                      const guint8  *payload,
                                      guint32        len);
void      nt_writer_other_event      (NtWriter      *self,
                                      guint64        tid,
                                      gint64         ticks);
void      nt_writer_lose_events      (NtWriter      *self,
                                      guint32        n);
/* Flushes and writes a sequence point; stack ids restart after it. */
void      nt_writer_sequence_point   (NtWriter      *self,
                                      gint64         ticks);

/* Writes the rundown at @ticks, the last blocks and, with @end_tag, the
 * end-of-stream tag. */
GBytes   *nt_writer_finish           (NtWriter      *self,
                                      gint64         ticks,
                                      gboolean       end_tag);

/* Byte offsets where each block object starts in the finished file. */
const GArray *nt_writer_get_block_offsets (NtWriter *self);
const GArray *nt_writer_get_block_samples (NtWriter *self);

G_END_DECLS
