/* sps-test-shell.h: helpers for the UI tests of the application's windows
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "sps-application.h"
#include "sps-window.h"

G_BEGIN_DECLS

SpsApplication *sps_test_register_app  (void);
SpsWindow      *sps_test_open_file     (SpsApplication *app,
                                        const char     *path,
                                        int             width,
                                        int             height);
void            sps_test_wait_for_load (SpsWindow      *window);
SpsWindow      *sps_test_open_loaded   (SpsApplication *app,
                                        const char     *path,
                                        int             width,
                                        int             height);
void            sps_test_close_window  (SpsWindow      *window);
void            sps_test_show_dock_page (GtkWidget     *widget);
char           *sps_test_plugin_row_text (GtkWidget    *row);
void            sps_test_wait_for_banner_failures (GtkWidget *banner,
                                                   guint      n_failures);

GHashTable     *sps_test_shortcuts_of  (SpsWindow      *window);
void            sps_test_press_keys    (GtkWidget      *window,
                                        const char     *keys);

G_END_DECLS
