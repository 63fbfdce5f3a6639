/* sps-chrome-exporter-private.h: what the parts of the Chrome JSON exporter share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The exporter is one class spread over several files by concern: the
 * events of slices and the trace in sps-chrome-exporter.c, arrows in
 * sps-chrome-export-flows.c, metadata and objects in
 * sps-chrome-export-metadata.c, samples and stack frames in
 * sps-chrome-export-samples.c. They all write through one Writer.
 */

#pragma once

#include <spanscope-core.h>

#include "sps-chrome-json-out.h"

G_BEGIN_DECLS

/* The output is produced in a small buffer that is written out whenever it
 * grows past this size, so exporting a multi-gigabyte trace never holds
 * more than one chunk of text in memory. */
#define CHUNK_SIZE (64 * 1024)

/* How many rows are written between two progress updates and
 * cancellation checks. */
#define PROGRESS_STRIDE 65536

typedef struct
{
  SpsTrace               *trace;
  SpsStringPool          *strings;
  GOutputStream          *stream;
  GCancellable           *cancellable;
  SpsProgress            *progress;
  GString                *buf;
  gboolean                first_event;

  const SpsProcessTable  *processes;
  const SpsThreadTable   *threads;
  const SpsTrackTable    *tracks;
  const SpsSliceTable    *slices;

  /* slice + 1 → (flow << 1) | is_start, for arrows written as flow v2 */
  GHashTable             *bind_ids;

  guint64                 rows_total;
  guint64                 rows_done;
} Writer;

/* `,"KEY":` for a literal KEY */
#define sps_chrome_writer_key(w, key) sps_chrome_out_literal ((w)->buf, ",\"" key "\":")

#define sps_chrome_writer_ts(w, key, ns) \
  G_STMT_START { sps_chrome_writer_key ((w), key); sps_json_append_time_us ((w)->buf, (ns)); } G_STMT_END

#define sps_chrome_writer_int_field(w, key, value) \
  G_STMT_START { sps_chrome_writer_key ((w), key); sps_json_append_int64 ((w)->buf, (value)); } G_STMT_END

/* Event fields (sps-chrome-exporter.c) */
void     sps_chrome_writer_append_string_id   (Writer     *w,
                                               guint32     id);
gboolean sps_chrome_writer_string_id_is_empty (Writer     *w,
                                               guint32     id);
void     sps_chrome_writer_begin_event        (Writer     *w,
                                               char        phase);
void     sps_chrome_writer_append_name        (Writer     *w,
                                               guint32     name);
void     sps_chrome_writer_append_category    (Writer     *w,
                                               guint32     category);
void     sps_chrome_writer_append_process     (Writer     *w,
                                               guint32     process);
void     sps_chrome_writer_append_thread      (Writer     *w,
                                               guint32     thread);
guint32  sps_chrome_writer_track_process      (Writer     *w,
                                               guint32     track);
guint32  sps_chrome_writer_track_thread       (Writer     *w,
                                               guint32     track);
const char *sps_chrome_writer_args_text        (Writer     *w,
                                              SpsArgsRef  ref,
                                              gsize      *len,
                                              char      **decoded);
void     sps_chrome_writer_append_args        (Writer     *w,
                                               SpsArgsRef  ref);
void     sps_chrome_writer_append_stack_ref   (Writer     *w,
                                               const char *key,
                                               guint32     callsite);
void     sps_chrome_writer_begin_id_event     (Writer     *w,
                                               char        phase,
                                               guint32     name,
                                               guint32     category,
                                               guint64     id);
gboolean sps_chrome_writer_flush              (Writer     *w,
                                               GError    **error);
gboolean sps_chrome_writer_end_event          (Writer     *w,
                                               GError    **error);
gboolean sps_chrome_writer_advance            (Writer     *w,
                                               GError    **error);

/* Arrows (sps-chrome-export-flows.c) */
typedef struct
{
  guint8  *form;         /* FlowForm */
  SpsTime *start_ts;
  SpsTime *end_ts;
} SpsChromeFlowPlan;

void     sps_chrome_plan_flows      (Writer                  *w,
                                     SpsChromeFlowPlan       *plan);
void     sps_chrome_flow_plan_clear (SpsChromeFlowPlan       *plan);
void     sps_chrome_append_bind_id  (Writer                  *w,
                                     guint32                  slice);
gboolean sps_chrome_write_flows     (Writer                  *w,
                                     const SpsChromeFlowPlan *plan,
                                     GError                 **error);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (SpsChromeFlowPlan, sps_chrome_flow_plan_clear)

/* Metadata and objects (sps-chrome-export-metadata.c) */
gboolean sps_chrome_write_process_metadata   (Writer  *w,
                                              GError **error);
gboolean sps_chrome_write_objects            (Writer  *w,
                                              GError **error);
gboolean sps_chrome_write_top_level_metadata (Writer  *w,
                                              GError **error);

/* Samples and stack frames (sps-chrome-export-samples.c) */
gboolean sps_chrome_write_samples      (Writer  *w,
                                        GError **error);
gboolean sps_chrome_write_stack_frames (Writer  *w,
                                        GError **error);

G_END_DECLS
