/* sps-etl-import.h: one or more ETL files of a session into a trace builder
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

#include "sps-etl-kernel.h"
#include "sps-etl-reader.h"

G_BEGIN_DECLS

typedef struct _SpsEtlImport SpsEtlImport;

/* Before each buffer: %FALSE stops reading the file */
typedef gboolean (*SpsEtlBufferFunc) (gsize    offset,
                                      gsize    len,
                                      gpointer user_data);

/* What was read, over every file: the figures `info` reports */
typedef struct
{
  SpsEtlStats reader;
  guint64     events_lost;
  guint64     clr_method_events;
  guint64     samples_with_stack;
} SpsEtlImportStats;

SpsEtlImport *sps_etl_import_new        (SpsTraceBuilder          *builder,
                                         SpsEtlDecompressFunc      decompress);
void          sps_etl_import_free       (SpsEtlImport             *self);
void          sps_etl_import_add_clock  (SpsEtlImport             *self,
                                         GBytes                   *etl);
gboolean      sps_etl_import_read       (SpsEtlImport             *self,
                                         GBytes                   *etl,
                                         const char               *display_name,
                                         GError                  **error);
void          sps_etl_import_finish     (SpsEtlImport             *self);
const SpsEtlImportStats *
              sps_etl_import_get_stats  (SpsEtlImport             *self);
SpsEtlKernel *sps_etl_import_get_kernel (SpsEtlImport             *self);
gboolean      sps_etl_import_get_clock  (SpsEtlImport             *self,
                                         guint64                  *start_ticks,
                                         guint64                  *frequency);
guint         sps_etl_import_count_process_samples (SpsEtlImport *self,
                                                    guint32       pid);
GHashTable   *sps_etl_import_get_processes (SpsEtlImport          *self);
void          sps_etl_import_set_buffer_func (SpsEtlImport        *self,
                                         SpsEtlBufferFunc          func,
                                         gpointer                  user_data);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpsEtlImport, sps_etl_import_free)

G_END_DECLS
