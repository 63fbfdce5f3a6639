/* sps-session.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined (SPANSCOPE_GTK_INSIDE) && !defined (SPANSCOPE_GTK_COMPILATION)
# error "Only <spanscope-gtk.h> can be included directly."
#endif

#include <spanscope-core.h>

#include "sps-flag.h"
#include "sps-gtk-version-macros.h"
#include "sps-selection.h"

G_BEGIN_DECLS

#define SPS_TYPE_SESSION (sps_session_get_type ())

SPS_GTK_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (SpsSession, sps_session, SPS, SESSION, GObject)

/* The interaction state shared by every view of one trace: what is visible,
 * selected, hovered, the time range selection, collapsed processes and
 * display toggles. Not a widget: tests drive it without a display.
 *
 * Properties (all notify with G_PARAM_EXPLICIT_NOTIFY, only on change):
 *   "trace"          SpsTrace*  construct-only
 *   "visible-start"  gint64     ns, start of the visible window
 *   "visible-end"    gint64     ns, end of the visible window (> start)
 *   "selected-slice" guint      slice index or SPS_NO_INDEX (the selection
 *                               when it is a slice)
 *   "hovered-slice"  guint      slice index or SPS_NO_INDEX
 *   "has-range"      gboolean   a time range is selected
 *   "range-start"    gint64     ns
 *   "range-end"      gint64     ns (>= range-start)
 *   "show-flows"     gboolean   draw flow arrows (default TRUE)
 *   "search-text"    char*      the search panel's text; NULL = no search
 *   "search-in-category" gboolean search matches categories, not names
 *   "raw-stacks"     gboolean   sample views read the raw (unrepaired)
 *                               stacks (default FALSE)
 *
 * Signals:
 *   "selection-changed" ()      the selection (any kind of item) changed
 *   "layout-changed" ()         the set of visible rows changed (collapse,
 *                               filters); views rebuild their layout
 *   "filters-changed" ()        a thread, process or category was hidden
 *                               or shown; views recompute what they show
 *
 * Filters: a slice is visible when its track is (not on a hidden thread,
 * nor in a hidden process) and at least one token of its category is
 * shown. The controls are forwarded to the session's SpsViewFilter
 * (sps_session_get_view_filter()), which answers for slices; collapse
 * changes the filter's lanes, not which slices are visible here. Chrome writes category lists such as "gpu,benchmark"; the
 * session splits them at commas (trimming blanks) and filters per token,
 * so hiding "gpu" keeps "gpu,benchmark" slices while "benchmark" is
 * shown, and "only this" on "gpu" keeps them too.
 */

SPS_GTK_AVAILABLE_IN_ALL
SpsSession *sps_session_new                  (SpsTrace   *trace);
SPS_GTK_AVAILABLE_IN_ALL
SpsTrace   *sps_session_get_trace            (SpsSession *self);

SPS_GTK_AVAILABLE_IN_ALL
SpsTime     sps_session_get_visible_start    (SpsSession *self);
SPS_GTK_AVAILABLE_IN_ALL
SpsTime     sps_session_get_visible_end      (SpsSession *self);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_set_visible          (SpsSession *self,
                                              SpsTime     start,
                                              SpsTime     end);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_zoom                 (SpsSession *self,
                                              double      factor,
                                              SpsTime     anchor);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_pan                  (SpsSession *self,
                                              SpsTime     delta);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_fit                  (SpsSession *self);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_fit_trace            (SpsSession *self);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_go_to_time           (SpsSession *self,
                                              SpsTime     time);

SPS_GTK_AVAILABLE_IN_ALL
guint       sps_session_get_selected_slice   (SpsSession *self);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_set_selected_slice   (SpsSession *self,
                                              guint       slice);
SPS_GTK_AVAILABLE_IN_ALL
const SpsSelection *sps_session_get_selection (SpsSession         *self);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_set_selection        (SpsSession         *self,
                                              const SpsSelection *selection);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_select_instant       (SpsSession *self,
                                              guint       instant);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_select_sample        (SpsSession *self,
                                              guint       sample);
SPS_GTK_AVAILABLE_IN_ALL
gboolean    sps_session_select_parent        (SpsSession *self);
SPS_GTK_AVAILABLE_IN_ALL
gboolean    sps_session_select_first_child   (SpsSession *self);
SPS_GTK_AVAILABLE_IN_ALL
gboolean    sps_session_select_sibling       (SpsSession *self,
                                              int         direction);
SPS_GTK_AVAILABLE_IN_ALL
guint       sps_session_get_hovered_slice    (SpsSession *self);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_set_hovered_slice    (SpsSession *self,
                                              guint       slice);

SPS_GTK_AVAILABLE_IN_ALL
gboolean    sps_session_get_range            (SpsSession *self,
                                              SpsTime    *start,
                                              SpsTime    *end);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_set_range            (SpsSession *self,
                                              SpsTime     start,
                                              SpsTime     end);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_clear_range          (SpsSession *self);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_clear                (SpsSession *self);

SPS_GTK_AVAILABLE_IN_ALL
gboolean    sps_session_get_show_flows       (SpsSession *self);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_set_show_flows       (SpsSession *self,
                                              gboolean    show_flows);
SPS_GTK_AVAILABLE_IN_ALL
gboolean    sps_session_get_raw_stacks       (SpsSession *self);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_set_raw_stacks       (SpsSession *self,
                                              gboolean    raw_stacks);
SPS_GTK_AVAILABLE_IN_ALL
gboolean    sps_session_get_process_collapsed (SpsSession *self,
                                              guint       process);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_set_process_collapsed (SpsSession *self,
                                              guint       process,
                                              gboolean    collapsed);

SPS_GTK_AVAILABLE_IN_ALL
gboolean    sps_session_get_thread_hidden    (SpsSession *self,
                                              guint       thread);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_set_thread_hidden    (SpsSession *self,
                                              guint       thread,
                                              gboolean    hidden);
SPS_GTK_AVAILABLE_IN_ALL
gboolean    sps_session_get_process_hidden   (SpsSession *self,
                                              guint       process);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_set_process_hidden   (SpsSession *self,
                                              guint       process,
                                              gboolean    hidden);
SPS_GTK_AVAILABLE_IN_ALL
const guint32 *sps_session_get_categories    (SpsSession *self,
                                              guint      *n_categories);
SPS_GTK_AVAILABLE_IN_ALL
gboolean    sps_session_get_category_hidden  (SpsSession *self,
                                              guint32     category_string_id);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_set_category_hidden  (SpsSession *self,
                                              guint32     category_string_id,
                                              gboolean    hidden);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_show_all             (SpsSession *self);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_show_only_process    (SpsSession *self,
                                              guint       process);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_show_only_thread     (SpsSession *self,
                                              guint       thread);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_show_only_category   (SpsSession *self,
                                              guint32     category_string_id);
SPS_GTK_AVAILABLE_IN_ALL
gboolean    sps_session_has_filters          (SpsSession *self);
SPS_GTK_AVAILABLE_IN_ALL
gboolean    sps_session_is_track_visible     (SpsSession *self,
                                              guint       track);
SPS_GTK_AVAILABLE_IN_ALL
gboolean    sps_session_is_slice_visible     (SpsSession *self,
                                              guint       slice);
SPS_GTK_AVAILABLE_IN_ALL
gboolean    sps_session_is_instant_visible   (SpsSession *self,
                                              guint       instant);
SPS_GTK_AVAILABLE_IN_ALL
gboolean    sps_session_is_sample_visible    (SpsSession *self,
                                              guint       sample);
SPS_GTK_AVAILABLE_IN_ALL
gboolean    sps_session_is_category_visible  (SpsSession *self,
                                              guint32     category_string_id);
SPS_GTK_AVAILABLE_IN_ALL
GBytes     *sps_session_dup_slice_mask       (SpsSession *self);
SPS_GTK_AVAILABLE_IN_ALL
SpsViewFilter *sps_session_get_view_filter   (SpsSession *self);

/**
 * SPS_SESSION_MAX_FOCUS_DEPTH:
 *
 * The most flow hops focus mode follows from the selection.
 */
#define SPS_SESSION_MAX_FOCUS_DEPTH 5

/**
 * SpsClassState:
 * @SPS_CLASS_ANY: the class does not filter
 * @SPS_CLASS_REQUIRED: only slices of the class show
 * @SPS_CLASS_EXCLUDED: slices of the class are hidden
 *
 * The state of a classification chip.
 */
typedef enum
{
  SPS_CLASS_ANY,
  SPS_CLASS_REQUIRED,
  SPS_CLASS_EXCLUDED,
} SpsClassState;

SPS_GTK_AVAILABLE_IN_ALL
gboolean    sps_session_get_thread_collapsed (SpsSession *self,
                                              guint       thread);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_set_thread_collapsed (SpsSession *self,
                                              guint       thread,
                                              gboolean    collapsed);
SPS_GTK_AVAILABLE_IN_ALL
SpsTime     sps_session_get_min_duration     (SpsSession *self);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_set_min_duration     (SpsSession *self,
                                              SpsTime     min_duration);
SPS_GTK_AVAILABLE_IN_ALL
gboolean    sps_session_get_focus            (SpsSession *self);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_set_focus            (SpsSession *self,
                                              gboolean    focus);
SPS_GTK_AVAILABLE_IN_ALL
guint       sps_session_get_focus_depth      (SpsSession *self);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_set_focus_depth      (SpsSession *self,
                                              guint       depth);
SPS_GTK_AVAILABLE_IN_ALL
SpsFocusDirection sps_session_get_focus_direction (SpsSession *self);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_set_focus_direction  (SpsSession        *self,
                                              SpsFocusDirection  direction);
SPS_GTK_AVAILABLE_IN_ALL
gboolean    sps_session_get_focus_parent_child (SpsSession *self);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_set_focus_parent_child (SpsSession *self,
                                                gboolean    follow);
SPS_GTK_AVAILABLE_IN_ALL
char      **sps_session_dup_class_names      (SpsSession *self);
SPS_GTK_AVAILABLE_IN_ALL
gboolean    sps_session_add_class_rule       (SpsSession        *self,
                                              const char        *class_name,
                                              SpsClassRuleKind   kind,
                                              const char        *pattern,
                                              const char        *value,
                                              GError           **error);
SPS_GTK_AVAILABLE_IN_ALL
SpsClassState sps_session_get_class_state    (SpsSession *self,
                                              const char *class_name);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_set_class_state      (SpsSession    *self,
                                              const char    *class_name,
                                              SpsClassState  state);

SPS_GTK_AVAILABLE_IN_ALL
gboolean    sps_session_get_thread_pinned    (SpsSession *self,
                                              guint       thread);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_set_thread_pinned    (SpsSession *self,
                                              guint       thread,
                                              gboolean    pinned);
SPS_GTK_AVAILABLE_IN_ALL
const guint32 *sps_session_get_pinned_threads (SpsSession *self,
                                              guint      *n_threads);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_carry_over           (SpsSession *self,
                                              SpsSession *from);
SPS_GTK_AVAILABLE_IN_ALL
GListModel *sps_session_get_flags            (SpsSession *self);
SPS_GTK_AVAILABLE_IN_ALL
SpsFlag    *sps_session_add_flag             (SpsSession *self,
                                              SpsTime     time,
                                              const char *name);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_remove_flag          (SpsSession *self,
                                              SpsFlag    *flag);
SPS_GTK_AVAILABLE_IN_ALL
SpsFlag    *sps_session_mark_go_to_time      (SpsSession *self,
                                              SpsTime     time);
SPS_GTK_AVAILABLE_IN_ALL
gboolean    sps_session_is_go_to_flag        (SpsSession *self,
                                              SpsFlag    *flag);

SPS_GTK_AVAILABLE_IN_ALL
const char *sps_session_get_search_text      (SpsSession *self);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_set_search_text      (SpsSession *self,
                                              const char *text);
SPS_GTK_AVAILABLE_IN_ALL
gboolean    sps_session_get_search_in_category (SpsSession *self);
SPS_GTK_AVAILABLE_IN_ALL
void        sps_session_set_search_in_category (SpsSession *self,
                                              gboolean    in_category);
SPS_GTK_AVAILABLE_IN_ALL
gboolean    sps_session_search_matches       (SpsSession *self,
                                              guint32     string_id);
SPS_GTK_AVAILABLE_IN_ALL
gboolean    sps_session_slice_matches_search (SpsSession *self,
                                              guint       slice);

SPS_GTK_AVAILABLE_IN_ALL
SpsSqlEngine      *sps_session_get_sql_engine        (SpsSession     *session,
                                                      GError        **error);
SPS_GTK_AVAILABLE_IN_ALL
void               sps_session_reveal_slice          (SpsSession     *session,
                                                      guint           slice);

G_END_DECLS
