/* sps-selection.h: what is selected in a session
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

/**
 * SpsSelectionKind:
 * @SPS_SELECTION_NONE: nothing is selected
 * @SPS_SELECTION_SLICE: a slice (`index` is its row)
 * @SPS_SELECTION_INSTANT: an instant or a decoded event (`index` is its
 *   row of the instant table)
 * @SPS_SELECTION_SAMPLE: a stack sample (`index` is its row of the sample
 *   table)
 * @SPS_SELECTION_STACK_BOX: a box of a thread's stack chart: a frame at
 *   one depth over a run of consecutive samples
 *
 * What kind of item an #SpsSelection is.
 */
typedef enum
{
  SPS_SELECTION_NONE,
  SPS_SELECTION_SLICE,
  SPS_SELECTION_INSTANT,
  SPS_SELECTION_SAMPLE,
  SPS_SELECTION_STACK_BOX,
} SpsSelectionKind;

#define SPS_TYPE_SELECTION (sps_selection_get_type ())

typedef struct _SpsSelection SpsSelection;

/**
 * SpsSelection:
 * @kind: what is selected
 * @index: the row of the item's table (slice, instant, sample);
 *   %SPS_NO_INDEX for a box or nothing
 * @track: the item's track, or %SPS_NO_INDEX
 * @depth: a box's depth in its chart (0: the roots); else 0
 * @callsite: a box's callsite at @depth (its frame is the box's frame);
 *   else %SPS_NO_INDEX
 * @first_sample: a box's first sample; else %SPS_NO_INDEX
 * @n_samples: a box's number of samples; else 0
 * @raw: a box of the raw (unrepaired) stacks: @first_sample is a row of
 *   sps_trace_get_raw_samples()
 * @start: when the item starts, in ns (an instant's or sample's time)
 * @end: when it ends (a slice's end, a box's end; @start for instants and
 *   samples)
 *
 * One selected item of a trace, by value: a slice, an instant or decoded
 * event, a sample, or a box of a stack chart. A box is not a row of any
 * table, so the selection describes it whole.
 */
struct _SpsSelection
{
  SpsSelectionKind kind;
  guint            index;
  guint32          track;
  guint            depth;
  guint32          callsite;
  guint            first_sample;
  guint            n_samples;
  gboolean         raw;
  SpsTime          start;
  SpsTime          end;
};

SPS_GTK_AVAILABLE_IN_ALL
GType         sps_selection_get_type (void) G_GNUC_CONST;
SPS_GTK_AVAILABLE_IN_ALL
SpsSelection *sps_selection_copy     (const SpsSelection *self);
SPS_GTK_AVAILABLE_IN_ALL
void          sps_selection_free     (SpsSelection       *self);
SPS_GTK_AVAILABLE_IN_ALL
gboolean      sps_selection_equal    (const SpsSelection *a,
                                      const SpsSelection *b);
SPS_GTK_AVAILABLE_IN_ALL
void          sps_selection_init_none (SpsSelection      *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpsSelection, sps_selection_free)

G_END_DECLS
