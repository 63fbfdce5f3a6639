/* sps-filter-bar.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include <spanscope-gtk.h>

G_BEGIN_DECLS

#define SPS_TYPE_FILTER_BAR (sps_filter_bar_get_type ())

G_DECLARE_FINAL_TYPE (SpsFilterBar, sps_filter_bar, SPS, FILTER_BAR, GtkBox)

GtkWidget  *sps_filter_bar_new              (void);
SpsSession *sps_filter_bar_get_session      (SpsFilterBar *self);
void        sps_filter_bar_set_session      (SpsFilterBar *self,
                                             SpsSession   *session);
double      sps_filter_bar_value_for_duration (SpsFilterBar *self,
                                             SpsTime       duration);

G_END_DECLS
