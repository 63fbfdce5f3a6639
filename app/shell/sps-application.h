/* sps-application.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SPS_TYPE_APPLICATION (sps_application_get_type ())

G_DECLARE_FINAL_TYPE (SpsApplication, sps_application, SPS, APPLICATION, GtkApplication)

/* Recent traces kept in the settings and shown in the menu. */
#define SPS_APPLICATION_MAX_RECENT 10

SpsApplication *sps_application_new             (void);
GSettings      *sps_application_get_settings    (SpsApplication *self);
void            sps_application_open_file       (SpsApplication *self,
                                                 GFile          *file,
                                                 GtkWindow      *preferred);
void            sps_application_open_file_with_options (SpsApplication *self,
                                                        GFile          *file,
                                                        GtkWindow      *preferred,
                                                        GVariant       *options);
void            sps_application_add_recent      (SpsApplication *self,
                                                 GFile          *file);
int             sps_application_get_exit_status (SpsApplication *self);
GVariant       *sps_application_dup_import_options (SpsApplication *self,
                                                    GVariant       *options);
GtkWindow      *sps_application_show_preferences (SpsApplication *self,
                                                  const char     *page);

G_END_DECLS
