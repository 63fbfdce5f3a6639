/* sps-window.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-gtk.h>

#include "sps-application.h"

G_BEGIN_DECLS

/* The timeline's window actions each have a twin, NAME + this suffix,
 * bound to the plain navigation keys of NAME's accelerators (arrows,
 * Page Up/Down, Home, End): the twin is off while a docked panel has the
 * focus, which needs those keys, and NAME stays on. */
#define SPS_WINDOW_NAV_SUFFIX "-nav"

/**
 * SpsWindowState:
 * @SPS_WINDOW_STATE_EMPTY: nothing opened yet, the welcome page shows
 * @SPS_WINDOW_STATE_LOADING: a trace is being loaded
 * @SPS_WINDOW_STATE_LOADED: a trace is shown
 * @SPS_WINDOW_STATE_FAILED: the last load failed, its error shows
 *
 * What a trace window shows.
 */
typedef enum
{
  SPS_WINDOW_STATE_EMPTY,
  SPS_WINDOW_STATE_LOADING,
  SPS_WINDOW_STATE_LOADED,
  SPS_WINDOW_STATE_FAILED,
} SpsWindowState;

#define SPS_TYPE_WINDOW (sps_window_get_type ())

G_DECLARE_FINAL_TYPE (SpsWindow, sps_window, SPS, WINDOW, GtkApplicationWindow)

SpsWindow      *sps_window_new               (SpsApplication *application);
void            sps_window_load              (SpsWindow      *self,
                                              GFile          *file);
void            sps_window_load_with_options (SpsWindow      *self,
                                              GFile          *file,
                                              GVariant       *options);
void            sps_window_cancel_load       (SpsWindow      *self);
SpsWindowState  sps_window_get_state         (SpsWindow      *self);
GFile          *sps_window_get_file          (SpsWindow      *self);
SpsSession     *sps_window_get_session       (SpsWindow      *self);
SpsTimeline    *sps_window_get_timeline      (SpsWindow      *self);
const char     *sps_window_get_error_message (SpsWindow      *self);
gboolean        sps_window_get_panels_pending (SpsWindow     *self);

G_END_DECLS
