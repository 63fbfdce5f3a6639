/* sps-detail-selection-private.h: the detail panel's page for a selected
 * event, instant, sample or stack chart box
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "sps-detail-args-private.h"
#include "sps-selection.h"

G_BEGIN_DECLS

typedef struct
{
  GtkLabel      *name;
  GtkLabel      *kind;
  GtkGrid       *fields;     /* one row per field, made for each item */
  int            n_fields;
  GtkWidget     *args_page;  /* shown for instants and events */
  SpsDetailArgs  args;
} SpsDetailSelection;

G_GNUC_INTERNAL
GtkWidget *_sps_detail_selection_page_new (SpsDetailSelection *page);
G_GNUC_INTERNAL
void       _sps_detail_selection_show     (SpsDetailSelection *page,
                                           SpsTrace           *trace,
                                           const SpsSelection *selection);
G_GNUC_INTERNAL
char      *_sps_detail_dup_thread_text    (SpsTrace           *trace,
                                           guint32             thread);
G_GNUC_INTERNAL
char      *_sps_detail_dup_process_text   (SpsTrace           *trace,
                                           guint32             process);

G_END_DECLS
