/* sps-memory-panel.h: allocations outstanding at a time
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-gtk.h>

G_BEGIN_DECLS

#define SPS_TYPE_MEMORY_PANEL (sps_memory_panel_get_type ())

G_DECLARE_FINAL_TYPE (SpsMemoryPanel, sps_memory_panel, SPS, MEMORY_PANEL, GtkWidget)

GtkWidget          *sps_memory_panel_new          (SpsSession     *session);
SpsOutstandingTree *sps_memory_panel_get_tree     (SpsMemoryPanel *self);
gboolean            sps_memory_panel_get_building (SpsMemoryPanel *self);
SpsTime             sps_memory_panel_get_time     (SpsMemoryPanel *self);
void                sps_memory_panel_set_time     (SpsMemoryPanel *self,
                                                   SpsTime         time);
void                sps_memory_panel_set_birth_range (SpsMemoryPanel *self,
                                                   SpsTime         start,
                                                   SpsTime         end);
guint32             sps_memory_panel_get_process  (SpsMemoryPanel *self);
void                sps_memory_panel_set_process  (SpsMemoryPanel *self,
                                                   guint32         process);

G_END_DECLS
