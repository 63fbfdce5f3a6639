/* sps-sparkline.h: a small line chart of the last values of a series
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SPS_TYPE_SPARKLINE (sps_sparkline_get_type ())

G_DECLARE_FINAL_TYPE (SpsSparkline, sps_sparkline, SPS, SPARKLINE, GtkWidget)

GtkWidget *sps_sparkline_new        (guint         capacity);
void       sps_sparkline_push       (SpsSparkline *self,
                                     double        value);
guint      sps_sparkline_get_n_values (SpsSparkline *self);
double     sps_sparkline_get_value  (SpsSparkline *self,
                                     guint         index);

G_END_DECLS
