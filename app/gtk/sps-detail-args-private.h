/* sps-detail-args-private.h: an item's args as a tree, for the detail panel
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>
#include <spanscope-core.h>

G_BEGIN_DECLS

/* The widgets of an "Arguments" page: a tree of keys and values, or a
 * message when there are none or they cannot be read */
typedef struct
{
  GtkColumnView *view;
  GtkStack      *stack;
  GtkLabel      *message;
} SpsDetailArgs;

G_GNUC_INTERNAL
GtkWidget *_sps_detail_args_page_new (SpsDetailArgs *args,
                                      const char    *view_name,
                                      const char    *message_name);
G_GNUC_INTERNAL
void       _sps_detail_args_show     (SpsDetailArgs *args,
                                      SpsTrace      *trace,
                                      SpsArgsRef     ref);
G_GNUC_INTERNAL
void       _sps_detail_set_model     (GtkColumnView *view,
                                      GListModel    *model);

G_END_DECLS
