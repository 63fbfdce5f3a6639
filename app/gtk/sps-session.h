/* sps-session.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_GTK_INSIDE) && !defined (SPANSCOPE_GTK_COMPILATION)
# error "Only <spanscope-gtk.h> can be included directly."
#endif

#include <spanscope-core.h>

#include "sps-gtk-version-macros.h"

G_BEGIN_DECLS

#define SPS_TYPE_SESSION (sps_session_get_type ())

SPS_GTK_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (SpsSession, sps_session, SPS, SESSION, GObject)

/* The interaction state shared by every view of one trace: what is visible,
 * selected, hovered, the time range selection, collapsed processes and
 * display toggles. Not a widget: tests drive it without a display.
 *
 * Properties (all notify with G_PARAM_EXPLICIT_NOTIFY, only on change):
 *   "trace"          SpsTrace*  construct-only
 *   "visible-start"  gint64     ns, start of the visible window
 *   "visible-end"    gint64     ns, end of the visible window (> start)
 *   "selected-slice" guint      slice index or SPS_NO_INDEX
 *   "hovered-slice"  guint      slice index or SPS_NO_INDEX
 *   "has-range"      gboolean   a time range is selected
 *   "range-start"    gint64     ns
 *   "range-end"      gint64     ns (>= range-start)
 *   "show-flows"     gboolean   draw flow arrows (default TRUE)
 *
 * Signals:
 *   "layout-changed" ()         the set of visible rows changed (collapse,
 *                               filters); views rebuild their layout
 */

SPS_GTK_AVAILABLE_IN_ALL
SpsSession *sps_session_new                  (SpsTrace   *trace);
SPS_GTK_AVAILABLE_IN_ALL
SpsTrace   *sps_session_get_trace            (SpsSession *self);

SPS_GTK_AVAILABLE_IN_ALL
SpsTime     sps_session_get_visible_start    (SpsSession *self);
SPS_GTK_AVAILABLE_IN_ALL
SpsTime     sps_session_get_visible_end      (SpsSession *self);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_set_visible          (SpsSession *self,
                                              SpsTime     start,
                                              SpsTime     end);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_zoom                 (SpsSession *self,
                                              double      factor,
                                              SpsTime     anchor);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_pan                  (SpsSession *self,
                                              SpsTime     delta);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_fit                  (SpsSession *self);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_fit_trace            (SpsSession *self);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_go_to_time           (SpsSession *self,
                                              SpsTime     time);

SPS_GTK_AVAILABLE_IN_ALL
guint       sps_session_get_selected_slice   (SpsSession *self);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_set_selected_slice   (SpsSession *self,
                                              guint       slice);
SPS_GTK_AVAILABLE_IN_ALL
gboolean    sps_session_select_parent        (SpsSession *self);
SPS_GTK_AVAILABLE_IN_ALL
gboolean    sps_session_select_first_child   (SpsSession *self);
SPS_GTK_AVAILABLE_IN_ALL
gboolean    sps_session_select_sibling       (SpsSession *self,
                                              int         direction);
SPS_GTK_AVAILABLE_IN_ALL
guint       sps_session_get_hovered_slice    (SpsSession *self);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_set_hovered_slice    (SpsSession *self,
                                              guint       slice);

SPS_GTK_AVAILABLE_IN_ALL
gboolean    sps_session_get_range            (SpsSession *self,
                                              SpsTime    *start,
                                              SpsTime    *end);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_set_range            (SpsSession *self,
                                              SpsTime     start,
                                              SpsTime     end);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_clear_range          (SpsSession *self);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_clear                (SpsSession *self);

SPS_GTK_AVAILABLE_IN_ALL
gboolean    sps_session_get_show_flows       (SpsSession *self);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_set_show_flows       (SpsSession *self,
                                              gboolean    show_flows);
SPS_GTK_AVAILABLE_IN_ALL
gboolean    sps_session_get_process_collapsed (SpsSession *self,
                                              guint       process);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_set_process_collapsed (SpsSession *self,
                                              guint       process,
                                              gboolean    collapsed);

G_END_DECLS
