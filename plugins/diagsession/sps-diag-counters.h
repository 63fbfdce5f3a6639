/* sps-diag-counters.h: the counters resource of a .diagsession package
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint64 t;                /* clock ticks: QPC when the file gives its frequency */
  double  v;
} SpsDiagCounterPoint;

typedef struct
{
  char   *id;               /* e.g. "DiagnosticsHub.Counters.Process.CPU" */
  GArray *points;           /* SpsDiagCounterPoint, in file order */
} SpsDiagCounter;

typedef struct
{
  gint64     begin_time;    /* FILETIME: 100 ns since 1601; 0 when absent */
  guint64    begin_ticks;   /* beginTimeQpc */
  guint64    frequency;     /* qpcFrequency; 0 when absent */
  guint64    duration;
  GPtrArray *counters;      /* SpsDiagCounter, one per id, in order of first appearance */
  guint      n_bad_points;  /* points skipped: a time or value that is not one */
} SpsDiagCounters;

SpsDiagCounters *sps_diag_counters_parse (const guint8     *data,
                                          gsize             len,
                                          const char       *display_name,
                                          GError          **error);
void             sps_diag_counters_free  (SpsDiagCounters  *counters);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpsDiagCounters, sps_diag_counters_free)

G_END_DECLS
