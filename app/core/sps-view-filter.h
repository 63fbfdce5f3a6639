/* sps-view-filter.h: the interaction pipeline (seed 002) over a trace
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_CORE_INSIDE) && !defined (SPANSCOPE_CORE_COMPILATION)
# error "Only <spanscope-core.h> can be included directly."
#endif

#include <gio/gio.h>

#include "sps-trace.h"
#include "sps-types.h"

G_BEGIN_DECLS

/**
 * SPS_VIEW_FILTER_MAX_CLASSES:
 *
 * How many classification classes a filter holds (bits 0 to 15 of the
 * masks).
 */
#define SPS_VIEW_FILTER_MAX_CLASSES      16

/**
 * SPS_VIEW_FILTER_MAX_FOCUS_DEPTH:
 *
 * The largest hop count of linked-span focus.
 */
#define SPS_VIEW_FILTER_MAX_FOCUS_DEPTH  16

/**
 * SPS_VIEW_FILTER_MAX_PROJECTION:
 *
 * How many parents ancestor projection walks before it gives up and
 * answers %SPS_NO_INDEX.
 */
#define SPS_VIEW_FILTER_MAX_PROJECTION   1024

#define SPS_VIEW_FILTER_ERROR (sps_view_filter_error_quark ())

/**
 * SpsViewFilterError:
 * @SPS_VIEW_FILTER_ERROR_INVALID: a serialised filter is malformed or names
 *   something the trace does not have
 * @SPS_VIEW_FILTER_ERROR_TOO_MANY_CLASSES: more than
 *   %SPS_VIEW_FILTER_MAX_CLASSES classes
 *
 * Errors of #SpsViewFilter.
 */
typedef enum
{
  SPS_VIEW_FILTER_ERROR_INVALID,
  SPS_VIEW_FILTER_ERROR_TOO_MANY_CLASSES,
} SpsViewFilterError;

/**
 * SpsExpansion:
 * @SPS_EXPANSION_EXPANDED: every lane shows
 * @SPS_EXPANSION_COLLAPSED: a collapsed thread keeps its first lane; a
 *   collapsed process keeps only the first lane of its first thread
 * @SPS_EXPANSION_HIDDEN: no lane shows
 *
 * The expansion state of a process or a thread.
 */
typedef enum
{
  SPS_EXPANSION_EXPANDED,
  SPS_EXPANSION_COLLAPSED,
  SPS_EXPANSION_HIDDEN,
} SpsExpansion;

/**
 * SpsFocusDirection:
 * @SPS_FOCUS_INCOMING: follow edges backwards (flow sources; parents)
 * @SPS_FOCUS_OUTGOING: follow edges forwards (flow targets; children)
 * @SPS_FOCUS_BOTH: both ways at every hop
 *
 * Which edges linked-span focus follows from its seeds.
 */
typedef enum /*< flags >*/
{
  SPS_FOCUS_INCOMING = 1 << 0,
  SPS_FOCUS_OUTGOING = 1 << 1,
  SPS_FOCUS_BOTH     = SPS_FOCUS_INCOMING | SPS_FOCUS_OUTGOING,
} SpsFocusDirection;

/**
 * SpsClassRuleKind:
 * @SPS_CLASS_RULE_CATEGORY: a glob matched against each comma-separated
 *   token of the slice's category
 * @SPS_CLASS_RULE_NAME: a glob matched against the slice's name
 * @SPS_CLASS_RULE_ARG: a top-level member of the slice's args, with a given
 *   value when one is set
 *
 * What a classification rule looks at.
 */
typedef enum
{
  SPS_CLASS_RULE_CATEGORY,
  SPS_CLASS_RULE_NAME,
  SPS_CLASS_RULE_ARG,
} SpsClassRuleKind;

#define SPS_TYPE_VIEW_FILTER (sps_view_filter_get_type ())

SPS_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (SpsViewFilter, sps_view_filter, SPS, VIEW_FILTER, GObject)

SPS_AVAILABLE_IN_ALL
GQuark          sps_view_filter_error_quark          (void);

SPS_AVAILABLE_IN_ALL
SpsViewFilter  *sps_view_filter_new                  (SpsTrace           *trace);
SPS_AVAILABLE_IN_ALL
SpsTrace       *sps_view_filter_get_trace            (SpsViewFilter      *self);
SPS_AVAILABLE_IN_ALL
void            sps_view_filter_reset                (SpsViewFilter      *self);

/* Hierarchy and layout */
SPS_AVAILABLE_IN_ALL
void            sps_view_filter_set_process_expansion (SpsViewFilter     *self,
                                                      guint               process,
                                                      SpsExpansion        expansion);
SPS_AVAILABLE_IN_ALL
SpsExpansion    sps_view_filter_get_process_expansion (SpsViewFilter     *self,
                                                      guint               process);
SPS_AVAILABLE_IN_ALL
void            sps_view_filter_set_thread_expansion (SpsViewFilter      *self,
                                                      guint               thread,
                                                      SpsExpansion        expansion);
SPS_AVAILABLE_IN_ALL
SpsExpansion    sps_view_filter_get_thread_expansion (SpsViewFilter      *self,
                                                      guint               thread);
SPS_AVAILABLE_IN_ALL
guint           sps_view_filter_get_n_groups         (SpsViewFilter      *self);
SPS_AVAILABLE_IN_ALL
gboolean        sps_view_filter_get_group            (SpsViewFilter      *self,
                                                      guint               group,
                                                      guint              *process,
                                                      guint              *thread);
SPS_AVAILABLE_IN_ALL
guint           sps_view_filter_get_group_lanes      (SpsViewFilter      *self,
                                                      guint               group);
SPS_AVAILABLE_IN_ALL
guint           sps_view_filter_get_group_height     (SpsViewFilter      *self,
                                                      guint               group);
SPS_AVAILABLE_IN_ALL
guint           sps_view_filter_get_group_offset     (SpsViewFilter      *self,
                                                      guint               group);
SPS_AVAILABLE_IN_ALL
guint           sps_view_filter_get_thread_group     (SpsViewFilter      *self,
                                                      guint               thread);
SPS_AVAILABLE_IN_ALL
guint           sps_view_filter_get_process_group    (SpsViewFilter      *self,
                                                      guint               process);
SPS_AVAILABLE_IN_ALL
guint           sps_view_filter_get_total_height     (SpsViewFilter      *self);
SPS_AVAILABLE_IN_ALL
gboolean        sps_view_filter_is_track_valid       (SpsViewFilter      *self,
                                                      guint               track);
SPS_AVAILABLE_IN_ALL
guint           sps_view_filter_get_track_lane       (SpsViewFilter      *self,
                                                      guint               track);
SPS_AVAILABLE_IN_ALL
guint           sps_view_filter_get_track_lanes_shown (SpsViewFilter     *self,
                                                      guint               track);
SPS_AVAILABLE_IN_ALL
guint           sps_view_filter_get_track_lanes      (SpsViewFilter      *self,
                                                      guint               track);
SPS_AVAILABLE_IN_ALL
guint           sps_view_filter_get_slice_lane       (SpsViewFilter      *self,
                                                      guint               slice);
SPS_AVAILABLE_IN_ALL
const guint32  *sps_view_filter_get_group_tracks     (SpsViewFilter      *self,
                                                      guint               group,
                                                      guint              *n_tracks);

/* Time */
SPS_AVAILABLE_IN_ALL
void            sps_view_filter_set_window           (SpsViewFilter      *self,
                                                      SpsTime             start,
                                                      SpsTime             end);
SPS_AVAILABLE_IN_ALL
void            sps_view_filter_get_window           (SpsViewFilter      *self,
                                                      SpsTime            *start,
                                                      SpsTime            *end);
SPS_AVAILABLE_IN_ALL
void            sps_view_filter_set_min_duration     (SpsViewFilter      *self,
                                                      SpsTime             min_duration);
SPS_AVAILABLE_IN_ALL
SpsTime         sps_view_filter_get_min_duration     (SpsViewFilter      *self);

/* Classification */
SPS_AVAILABLE_IN_ALL
int             sps_view_filter_add_class            (SpsViewFilter      *self,
                                                      const char         *name,
                                                      GError            **error);
SPS_AVAILABLE_IN_ALL
int             sps_view_filter_lookup_class         (SpsViewFilter      *self,
                                                      const char         *name);
SPS_AVAILABLE_IN_ALL
guint           sps_view_filter_get_n_classes        (SpsViewFilter      *self);
SPS_AVAILABLE_IN_ALL
const char     *sps_view_filter_get_class_name       (SpsViewFilter      *self,
                                                      guint               bit);
SPS_AVAILABLE_IN_ALL
gboolean        sps_view_filter_add_rule             (SpsViewFilter      *self,
                                                      const char         *class_name,
                                                      SpsClassRuleKind    kind,
                                                      const char         *pattern,
                                                      const char         *value,
                                                      GError            **error);
SPS_AVAILABLE_IN_ALL
gboolean        sps_view_filter_replace_rules        (SpsViewFilter      *self,
                                                      const char         *class_name,
                                                      SpsClassRuleKind    kind,
                                                      const char * const *patterns,
                                                      GError            **error);
SPS_AVAILABLE_IN_ALL
void            sps_view_filter_set_class_masks      (SpsViewFilter      *self,
                                                      guint32             require_all,
                                                      guint32             exclude_any);
SPS_AVAILABLE_IN_ALL
guint32         sps_view_filter_get_require_mask     (SpsViewFilter      *self);
SPS_AVAILABLE_IN_ALL
guint32         sps_view_filter_get_exclude_mask     (SpsViewFilter      *self);
SPS_AVAILABLE_IN_ALL
guint32         sps_view_filter_get_slice_classes    (SpsViewFilter      *self,
                                                      guint               slice);

/* Linked-span focus */
SPS_AVAILABLE_IN_ALL
void            sps_view_filter_set_focus_seeds      (SpsViewFilter      *self,
                                                      const guint32      *seeds,
                                                      guint               n_seeds);
SPS_AVAILABLE_IN_ALL
const guint32  *sps_view_filter_get_focus_seeds      (SpsViewFilter      *self,
                                                      guint              *n_seeds);
SPS_AVAILABLE_IN_ALL
void            sps_view_filter_set_focus_enabled    (SpsViewFilter      *self,
                                                      gboolean            enabled);
SPS_AVAILABLE_IN_ALL
gboolean        sps_view_filter_get_focus_enabled    (SpsViewFilter      *self);
SPS_AVAILABLE_IN_ALL
void            sps_view_filter_set_focus_depth      (SpsViewFilter      *self,
                                                      guint               depth);
SPS_AVAILABLE_IN_ALL
guint           sps_view_filter_get_focus_depth      (SpsViewFilter      *self);
SPS_AVAILABLE_IN_ALL
void            sps_view_filter_set_focus_direction  (SpsViewFilter      *self,
                                                      SpsFocusDirection   direction);
SPS_AVAILABLE_IN_ALL
SpsFocusDirection sps_view_filter_get_focus_direction (SpsViewFilter     *self);
SPS_AVAILABLE_IN_ALL
void            sps_view_filter_set_focus_parent_child (SpsViewFilter    *self,
                                                      gboolean            follow);
SPS_AVAILABLE_IN_ALL
gboolean        sps_view_filter_get_focus_parent_child (SpsViewFilter    *self);
SPS_AVAILABLE_IN_ALL
gboolean        sps_view_filter_is_focus_active      (SpsViewFilter      *self);
SPS_AVAILABLE_IN_ALL
gboolean        sps_view_filter_is_slice_reached     (SpsViewFilter      *self,
                                                      guint               slice);

/* Results */
SPS_AVAILABLE_IN_ALL
gboolean        sps_view_filter_is_slice_visible     (SpsViewFilter      *self,
                                                      guint               slice);
SPS_AVAILABLE_IN_ALL
gboolean        sps_view_filter_is_slice_matched     (SpsViewFilter      *self,
                                                      guint               slice);
SPS_AVAILABLE_IN_ALL
gboolean        sps_view_filter_slice_passes_rules   (SpsViewFilter      *self,
                                                      guint               slice);
SPS_AVAILABLE_IN_ALL
GBytes         *sps_view_filter_dup_matched_mask     (SpsViewFilter      *self);
SPS_AVAILABLE_IN_ALL
guint           sps_view_filter_get_visible_count    (SpsViewFilter      *self);
SPS_AVAILABLE_IN_ALL
guint           sps_view_filter_get_track_visible_count (SpsViewFilter   *self,
                                                      guint               track);
SPS_AVAILABLE_IN_ALL
GBytes         *sps_view_filter_dup_mask             (SpsViewFilter      *self);
SPS_AVAILABLE_IN_ALL
guint32        *sps_view_filter_dup_visible_slices   (SpsViewFilter      *self,
                                                      guint              *n_visible);
SPS_AVAILABLE_IN_ALL
guint           sps_view_filter_project              (SpsViewFilter      *self,
                                                      guint               slice);
SPS_AVAILABLE_IN_ALL
guint32        *sps_view_filter_dup_projected_ancestors (SpsViewFilter   *self,
                                                      guint              *n_slices);
SPS_AVAILABLE_IN_ALL
guint           sps_view_filter_pick                 (SpsViewFilter      *self,
                                                      guint               lane,
                                                      SpsTime             time,
                                                      SpsTime             tolerance);

/* Serialisation */
SPS_AVAILABLE_IN_ALL
gboolean        sps_view_filter_load_json            (SpsViewFilter      *self,
                                                      const char         *text,
                                                      gssize              length,
                                                      GError            **error);
SPS_AVAILABLE_IN_ALL
gboolean        sps_view_filter_load_file            (SpsViewFilter      *self,
                                                      GFile              *file,
                                                      GError            **error);
SPS_AVAILABLE_IN_ALL
char           *sps_view_filter_to_json              (SpsViewFilter      *self);

G_END_DECLS
