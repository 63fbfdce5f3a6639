/* sps-preferences-private.h: what the Preferences window's pages share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

GtkWidget *_sps_preferences_page_new      (void);
GtkWidget *_sps_preferences_group_new     (GtkWidget  *page,
                                           const char *title,
                                           const char *description);
GtkWidget *_sps_preferences_row_new       (GtkWidget  *group,
                                           const char *name,
                                           const char *title,
                                           const char *subtitle,
                                           GtkWidget  *suffix);
void       _sps_preferences_row_set_subtitle (GtkWidget  *row,
                                              const char *subtitle);
GtkWidget *_sps_preferences_appearance_new (GSettings *settings);

G_END_DECLS
