/* sps-flamegraph-chart.h: an icicle chart of a flame tree
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-gtk.h>

G_BEGIN_DECLS

#define SPS_TYPE_FLAMEGRAPH_CHART (sps_flamegraph_chart_get_type ())

G_DECLARE_FINAL_TYPE (SpsFlamegraphChart, sps_flamegraph_chart, SPS, FLAMEGRAPH_CHART, GtkWidget)

/* Height of one stack level in pixels. */
#define SPS_FLAMEGRAPH_ROW_HEIGHT 20

GtkWidget    *sps_flamegraph_chart_new           (SpsSession         *session);
void          sps_flamegraph_chart_set_tree      (SpsFlamegraphChart *self,
                                                  SpsFlameTree       *tree);
SpsFlameTree *sps_flamegraph_chart_get_tree      (SpsFlamegraphChart *self);
void          sps_flamegraph_chart_set_zoom      (SpsFlamegraphChart *self,
                                                  guint               node);
guint         sps_flamegraph_chart_get_zoom      (SpsFlamegraphChart *self);
void          sps_flamegraph_chart_set_selected  (SpsFlamegraphChart *self,
                                                  guint               node);
guint         sps_flamegraph_chart_get_selected  (SpsFlamegraphChart *self);
guint         sps_flamegraph_chart_node_at       (SpsFlamegraphChart *self,
                                                  double              x,
                                                  double              y);
gboolean      sps_flamegraph_chart_get_node_bounds (SpsFlamegraphChart *self,
                                                  guint               node,
                                                  graphene_rect_t    *bounds);
char         *sps_flamegraph_chart_dup_tooltip   (SpsFlamegraphChart *self,
                                                  guint               node);

G_END_DECLS
