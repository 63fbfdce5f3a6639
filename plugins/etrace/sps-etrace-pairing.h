/* sps-etrace-pairing.h: decoded events → spans in time order, kept
 * between the updates of a live capture
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

#include "sps-etrace-decoder.h"
#include "sps-etrace-span-args.h"

G_BEGIN_DECLS

/* A start and its end */
typedef struct
{
  gint64  start;
  gint64  end;
  guint32 name;             /* decoder names index */
  guint32 args;             /* place in the pairing's store, or
                             * SPS_ETRACE_NO_ARGS before a build put it there */
} SpsEtraceSpan;

/* A start that discarded an open one, or an end without a start */
typedef struct
{
  gint64  time_ns;
  guint32 name;
  guint8  health;           /* SpsEtraceHealth */
} SpsEtracePairNote;

/* Everything the analysis needs from the events, in the order a stable
 * sort by time puts them: the events are consumed once each, so a live
 * capture's update pairs only the events that arrived since the last
 * one (sps_etrace_pairing_advance()). */
typedef struct
{
  guint    n_events;        /* decoder events consumed, in stream order */
  gint64   start;           /* first and last time, once n_events > 0 */
  gint64   end;
  GArray  *open;            /* gint64 per name: its open start, or -1 */
  GArray  *seen;            /* guint8 per name: 1 as a span, 2 as a marker */
  GArray  *occurrences;     /* guint32: name << 1 | as a marker, in the
                             * order the names first occur */
  GArray  *segment_end;     /* gint64 per boot: its last event's time */
  GArray  *notes;           /* SpsEtracePairNote */
  GArray  *markers;         /* SpsEtraceEvent */
  GArray  *spans;           /* SpsEtraceSpan by (start, end, name) */
  SpsEtraceSpanStore *store;  /* the args of the spans built so far */
} SpsEtracePairing;

SpsEtracePairing *sps_etrace_pairing_new     (void);
void              sps_etrace_pairing_free    (SpsEtracePairing *self);
void              sps_etrace_pairing_reset   (SpsEtracePairing *self);
gboolean          sps_etrace_pairing_advance (SpsEtracePairing *self,
                                              GArray           *events,
                                              GPtrArray        *names,
                                              guint             end,
                                              gboolean          in_place);
int               sps_etrace_compare_events  (gconstpointer     a,
                                              gconstpointer     b);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpsEtracePairing, sps_etrace_pairing_free)

G_END_DECLS
