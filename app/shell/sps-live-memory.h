/* sps-live-memory.h: Spanscope's own memory as a counter track of a live
 * capture
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <spanscope-core.h>

G_BEGIN_DECLS

#define SPS_TYPE_LIVE_MEMORY (sps_live_memory_get_type ())

G_DECLARE_FINAL_TYPE (SpsLiveMemory, sps_live_memory, SPS, LIVE_MEMORY, GObject)

SpsLiveMemory *sps_live_memory_new          (void);
gboolean       sps_live_memory_get_enabled  (SpsLiveMemory *self);
void           sps_live_memory_set_enabled  (SpsLiveMemory *self,
                                             gboolean       enabled);
void           sps_live_memory_anchor       (SpsLiveMemory *self,
                                             gint64         host_us,
                                             SpsTime        capture_ns);
gboolean       sps_live_memory_sample       (SpsLiveMemory *self,
                                             gint64         host_us,
                                             guint64        bytes);
guint          sps_live_memory_get_n_samples (SpsLiveMemory *self);
GArray        *sps_live_memory_dup_samples  (SpsLiveMemory *self);
void           sps_live_memory_add_rows     (SpsTraceBuilder *builder,
                                             gpointer         samples);

G_END_DECLS
