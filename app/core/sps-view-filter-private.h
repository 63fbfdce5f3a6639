/* sps-view-filter-private.h: what the files of SpsViewFilter share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * sps-view-filter.c holds the object, the layout and the visibility counts;
 * sps-view-filter-time.c the time window and minimum duration;
 * sps-view-filter-classes.c the classification rules;
 * sps-view-filter-focus.c linked-span focus, projection, picking and the
 * compacted results; sps-view-filter-json.c the serialised form.
 */

#pragma once

#include "sps-trace-private.h"
#include "sps-view-filter.h"

G_BEGIN_DECLS

typedef struct
{
  SpsClassRuleKind  kind;
  guint             bit;
  char             *pattern;
  char             *value;       /* arg rules: the wanted value, or NULL */
  GPatternSpec     *spec;        /* category and name rules */
} SpsClassRule;

struct _SpsViewFilter
{
  GObject              parent_instance;

  SpsTrace            *trace;
  const SpsSliceTable *slices;
  const SpsTrackTable *tracks;

  /* Layout: groups of lanes in display order. Group 0 holds the global
   * tracks; then per process (by sort index, pid) its threads' groups (by
   * sort index, tid) and one group of its own tracks (async, counters,
   * process instants). */
  guint                n_groups;
  guint32             *group_process;     /* SPS_NO_INDEX: global */
  guint32             *group_thread;      /* SPS_NO_INDEX: the process's own */
  guint32             *group_lanes;       /* every lane */
  guint32             *group_height;      /* effective lanes */
  guint32             *group_offset;      /* exclusive scan of the heights */
  guint32             *thread_group;
  guint32             *process_group;     /* the process's own group */
  guint32             *process_first_group; /* first group of the process in order */
  guint32             *process_last_group;  /* one past its last group */
  guint8              *process_expansion; /* SpsExpansion */
  guint8              *thread_expansion;
  guint8              *group_valid;       /* FALSE: invalid process/thread mapping */
  guint32             *group_track_start; /* group → its tracks (CSR), in track order */
  guint32             *group_tracks;
  guint                total_height;

  /* Per track */
  guint32             *track_group;       /* SPS_NO_INDEX: invalid mapping */
  guint32             *track_lane;        /* first lane within its group */
  guint32             *track_lanes;       /* lanes of the track */
  guint32             *track_limit;       /* depths shown: 0 … limit − 1 */
  guint32             *track_visible;     /* visible slices without focus */
  guint32             *track_cells;       /* first count cell (slice tracks) */

  /* Time window and minimum duration */
  SpsTime              window_start;
  SpsTime              window_end;
  SpsTime              min_duration;
  guint8              *in_window;         /* per slice: the window test */
  guint32             *dur_order;         /* slices by duration (lazy) */
  guint32             *dur_cell;          /* their count cells, in that order (lazy) */

  /* Classes: per slice a pattern (distinct class bit set) */
  GPtrArray           *class_names;
  GPtrArray           *rules;             /* SpsClassRule */
  guint16             *slice_pattern;
  GArray              *patterns;          /* guint32 bits of pattern p */
  guint8              *pattern_ok;
  guint32              require_mask;
  guint32              exclude_mask;

  /* Counts: per slice track, per depth, per pattern, the slices that pass
   * the window and the minimum duration; and what each cell stands for */
  guint32             *cells;
  gsize                n_cells;
  guint32             *cell_track;
  guint16             *cell_depth;
  guint16             *cell_pattern;
  guint64              visible_total;

  /* Focus */
  GArray              *seeds;             /* guint32 */
  gboolean             focus_enabled;
  guint                focus_depth;
  SpsFocusDirection    focus_direction;
  gboolean             focus_parent_child;
  guint8              *reached;           /* per slice, lazy */
  GArray              *reached_list;      /* guint32 */
  guint                focus_visible;
  guint32             *flow_out_start;    /* CSR of flows by source (lazy) */
  guint32             *flow_out;
  guint32             *flow_in_start;     /* by target */
  guint32             *flow_in;
  guint32             *child_start;       /* CSR of children (lazy) */
  guint32             *children;

  GBytes              *mask;              /* cached until the next change */
  GBytes              *matched_mask;      /* likewise, collapse aside */
};

static inline gboolean
_sps_view_filter_is_slice_track (guint8 kind)
{
  return kind == SPS_TRACK_THREAD_SLICES ||
         kind == SPS_TRACK_THREAD_SAMPLED_SLICES ||
         kind == SPS_TRACK_ASYNC;
}

/* Visibility of one slice, focus aside. */
static inline gboolean
_sps_view_filter_passes (SpsViewFilter *self,
                         guint32        slice)
{
  guint32 track = self->slices->track[slice];

  return self->in_window[slice] &&
         self->slices->dur[slice] >= self->min_duration &&
         self->pattern_ok[self->slice_pattern[slice]] &&
         self->track_group[track] != SPS_NO_INDEX &&
         self->slices->depth[slice] < self->track_limit[track];
}

static inline gboolean
_sps_view_filter_focus_active (SpsViewFilter *self)
{
  return self->focus_enabled && self->seeds->len > 0;
}

/* The rules on the slice itself (focus, window, minimum duration,
 * classes), whatever its thread's and process's expansion */
static inline gboolean
_sps_view_filter_passes_rules (SpsViewFilter *self,
                               guint32        slice)
{
  if (_sps_view_filter_focus_active (self) && !self->reached[slice])
    return FALSE;
  return self->in_window[slice] &&
         self->slices->dur[slice] >= self->min_duration &&
         self->pattern_ok[self->slice_pattern[slice]];
}

/* Visibility were every collapsed process and thread expanded: hidden
 * ones and invalid mappings still hide their slices. */
static inline gboolean
_sps_view_filter_matches (SpsViewFilter *self,
                          guint32        slice)
{
  guint32 g = self->track_group[self->slices->track[slice]];
  guint32 process;
  guint32 thread;

  if (g == SPS_NO_INDEX)
    return FALSE;
  process = self->group_process[g];
  thread = self->group_thread[g];
  if (process != SPS_NO_INDEX && self->process_expansion[process] == SPS_EXPANSION_HIDDEN)
    return FALSE;
  if (thread != SPS_NO_INDEX && self->thread_expansion[thread] == SPS_EXPANSION_HIDDEN)
    return FALSE;
  return _sps_view_filter_passes_rules (self, slice);
}

static inline gboolean
_sps_view_filter_visible (SpsViewFilter *self,
                          guint32        slice)
{
  if (_sps_view_filter_focus_active (self) && !self->reached[slice])
    return FALSE;
  return _sps_view_filter_passes (self, slice);
}

void     _sps_view_filter_changed          (SpsViewFilter *self);
void     _sps_view_filter_count_cell       (SpsViewFilter *self,
                                            gsize          cell,
                                            int            delta);
void     _sps_view_filter_rebuild_counts   (SpsViewFilter *self);
void     _sps_view_filter_recount_all      (SpsViewFilter *self);
void     _sps_view_filter_recount_focus    (SpsViewFilter *self);

void     _sps_view_filter_classify         (SpsViewFilter *self);
void     _sps_view_filter_update_patterns  (SpsViewFilter *self);
void     _sps_view_filter_clear_classes    (SpsViewFilter *self);
void     _sps_class_rule_free              (gpointer       rule);
gboolean _sps_view_filter_append_rule      (SpsViewFilter    *self,
                                            const char       *class_name,
                                            SpsClassRuleKind  kind,
                                            const char       *pattern,
                                            const char       *value,
                                            GError          **error);

void     _sps_view_filter_update_focus     (SpsViewFilter *self);
void     _sps_view_filter_free_focus       (SpsViewFilter *self);

G_END_DECLS
