/* sps-etrace-span-args.h: the args of spans and markers, made into text
 * when they are read
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

#include "sps-etrace-decoder.h"

G_BEGIN_DECLS

/* A span's place in a store: none yet */
#define SPS_ETRACE_NO_ARGS G_MAXUINT32

/* What a span's args start with, from its name (type, priority, deadline) */
typedef struct
{
  char     *prefix;
  gsize     len;
  gboolean  has_deadline;
  gint64    deadline_ns;
} SpsEtraceNameArgs;

/* The spans whose args were handed out, append-only: a live capture's
 * generations share it, each reading the spans it had */
typedef struct _SpsEtraceSpanStore SpsEtraceSpanStore;

SpsEtraceSpanStore *sps_etrace_span_store_new   (void);
SpsEtraceSpanStore *sps_etrace_span_store_ref   (SpsEtraceSpanStore *self);
void                sps_etrace_span_store_unref (SpsEtraceSpanStore *self);
guint32             sps_etrace_span_store_add   (SpsEtraceSpanStore *self,
                                                 gint64              start,
                                                 gint64              end,
                                                 guint32             name);
guint32             sps_etrace_span_store_get_count (SpsEtraceSpanStore *self);

#define SPS_TYPE_ETRACE_SPAN_ARGS (sps_etrace_span_args_get_type ())

G_DECLARE_FINAL_TYPE (SpsEtraceSpanArgs, sps_etrace_span_args, SPS, ETRACE_SPAN_ARGS, GObject)

SpsEtraceSpanArgs       *sps_etrace_span_args_new       (SpsEtraceSpanStore *store,
                                                         GPtrArray          *names);
const SpsEtraceNameArgs *sps_etrace_span_args_get_name  (SpsEtraceSpanArgs  *self,
                                                         guint32             name);
SpsArgsRef               sps_etrace_span_args_span      (SpsEtraceSpanArgs  *self,
                                                         guint               decoder,
                                                         guint32             id);
SpsArgsRef               sps_etrace_span_args_marker    (guint               decoder,
                                                         guint32             value);
void                     sps_etrace_span_args_seal      (SpsEtraceSpanArgs  *self);
gboolean                 sps_etrace_span_missed         (const SpsEtraceNameArgs *name,
                                                         gint64                   start,
                                                         gint64                   end,
                                                         gint64                  *deadline);
void                     sps_etrace_append_span_args    (GString                 *args,
                                                         const SpsEtraceNameArgs *name,
                                                         gint64                   start,
                                                         gint64                   end);

G_END_DECLS
