/* sps-flame-export-util.h: what the folded and speedscope exporters share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

G_BEGIN_DECLS

/* The scope an exporter's options select. */
typedef struct
{
  SpsTrace         *trace;
  SpsFlameTreeKind  kind;
  gboolean          has_tid;
  gint64            tid;
} SpsFlameExportScope;

/* Output goes through a buffer written out past this size. */
#define SPS_FLAME_EXPORT_CHUNK (64 * 1024)

gboolean sps_flame_export_parse_options   (SpsTrace             *trace,
                                           GVariant             *options,
                                           SpsFlameExportScope  *scope,
                                           GError              **error);
gboolean sps_flame_export_thread_in_scope (const SpsFlameExportScope *scope,
                                           guint32               thread);
gboolean sps_flame_export_slice_in_scope  (SpsTrace             *trace,
                                           guint                 slice,
                                           gpointer              user_data);
gboolean sps_flame_export_sample_in_scope (SpsTrace             *trace,
                                           guint                 sample,
                                           gpointer              user_data);
gboolean sps_flame_export_flush           (GOutputStream        *stream,
                                           GString              *buf,
                                           gboolean              force,
                                           SpsProgress          *progress,
                                           GError              **error);

G_END_DECLS
