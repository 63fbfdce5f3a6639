/* sps-time-ruler-private.h: the time axis drawn above the timeline's tracks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <gtk/gtk.h>
#include <spanscope-core.h>

#include "sps-gtk-version-macros.h"

G_BEGIN_DECLS

/* Where the ticks of an axis go. Ticks are at origin + k × step; labels
 * show k × step (the time since the origin, usually the trace start). */
typedef struct
{
  SpsTime origin;
  SpsTime start;          /* time at x = 0 */
  SpsTime end;            /* time at x = width */
  double  width;
  double  ns_per_pixel;
  SpsTime step;           /* between labelled ticks */
  guint   n_minor;        /* minor ticks per step */
} SpsTimeRulerScale;

typedef struct
{
  GdkRGBA background;
  GdkRGBA text;
  GdkRGBA tick;
  GdkRGBA border;
} SpsTimeRulerColors;

/* Label nodes and widths by text, kept across frames: shaping a label
 * costs more than the rest of the ruler. */
typedef struct _SpsTimeRulerCache SpsTimeRulerCache;

/* Exported (but not installed) for the tests. */
SPS_GTK_AVAILABLE_IN_ALL
SpsTimeRulerCache *_sps_time_ruler_cache_new  (void);
SPS_GTK_AVAILABLE_IN_ALL
void               _sps_time_ruler_cache_free (SpsTimeRulerCache *cache);
SPS_GTK_AVAILABLE_IN_ALL
void   _sps_time_ruler_scale_init    (SpsTimeRulerScale        *scale,
                                      SpsTimeRulerCache        *cache,
                                      PangoLayout              *layout,
                                      SpsTime                   origin,
                                      SpsTime                   start,
                                      SpsTime                   end,
                                      double                    width);
SPS_GTK_AVAILABLE_IN_ALL
guint  _sps_time_ruler_precision     (SpsTime                   value,
                                      SpsTime                   step);
SPS_GTK_AVAILABLE_IN_ALL
char  *_sps_time_ruler_format_tick   (const SpsTimeRulerScale  *scale,
                                      SpsTime                   tick);
SPS_GTK_AVAILABLE_IN_ALL
SpsTime _sps_time_ruler_first_tick   (const SpsTimeRulerScale  *scale);
SPS_GTK_AVAILABLE_IN_ALL
float  _sps_time_ruler_label_x       (float                     tick_x,
                                      int                       label_width,
                                      float                     width,
                                      float                     label_end);
SPS_GTK_AVAILABLE_IN_ALL
void   _sps_time_ruler_snapshot      (GtkSnapshot              *snapshot,
                                      SpsTimeRulerCache        *cache,
                                      PangoLayout              *layout,
                                      const SpsTimeRulerScale  *scale,
                                      const SpsTimeRulerColors *colors,
                                      float                     height,
                                      float                     keep_x0,
                                      float                     keep_x1);
SPS_GTK_AVAILABLE_IN_ALL
void   _sps_time_ruler_snapshot_grid (GtkSnapshot              *snapshot,
                                      const SpsTimeRulerScale  *scale,
                                      const GdkRGBA            *color,
                                      float                     height);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpsTimeRulerCache, _sps_time_ruler_cache_free)

G_END_DECLS
