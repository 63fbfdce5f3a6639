/* sps-session-state-private.h: SpsSession's fields, shared only by the
 * files the class is split over (sps-session.c: window, selection, range;
 * -filters.c: what is hidden; -search.c: the search; -tree.c: slice tree
 * navigation)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "sps-flag.h"
#include "sps-session.h"
#include "sps-search.h"

G_BEGIN_DECLS

struct _SpsSession
{
  GObject   parent_instance;

  SpsTrace *trace;

  /* Where the visible window may go: the trace plus the overscroll. */
  SpsTime   bound_start;
  SpsTime   bound_end;

  SpsTime   visible_start;
  SpsTime   visible_end;

  guint     selected_slice;
  guint     hovered_slice;

  SpsTime   range_start;
  SpsTime   range_end;

  guint8   *collapsed;          /* one per process */
  guint     n_processes;

  /* Filters. The per-process and per-thread flags are what the user set;
   * track_visible and category_visible are derived from them so the
   * per-slice test is two array reads. */
  guint8   *process_hidden;     /* one per process */
  guint8   *thread_hidden;      /* one per thread */
  guint     n_threads;
  guint8   *track_visible;      /* one per track */
  guint     n_tracks;
  GArray   *categories;         /* guint32 token string ids, by text */
  GHashTable *token_index;      /* token id → index in categories + 1 */
  guint8   *token_hidden;       /* one per category token */
  GHashTable *category_tokens;  /* category string id → GArray of token
                                 * indices (guint) */
  guint8   *category_visible;   /* one per string id: 0 only for a used
                                 * category with every token hidden */
  guint     n_strings;
  guint     n_hidden;           /* hidden processes + threads + tokens */
  GBytes   *slice_mask;         /* cache of dup_slice_mask() */

  /* Search */
  char             *search_text;
  SpsSearchPattern *search_pattern;
  guint8           *search_memo;  /* per string id: 0 unknown, 1 no, 2 yes */

  guint     has_range : 1;
  guint     show_flows : 1;
  guint     search_in_category : 1;
  guint     raw_stacks : 1;

  /* The selection (sps-session-selection.c); selected_slice mirrors it */
  SpsSelection selection;

  /* The interaction pipeline (issue 17): every control above that hides
   * or collapses is forwarded to it, and the slices' visibility, the
   * masks and the timeline's lanes come from it (sps-session-filters.c). */
  SpsViewFilter *view_filter;
  guint8   *thread_collapsed;   /* one per thread */
  guint32   user_require;       /* class masks of the classification chips */
  guint32   user_exclude;

  /* Pinned threads and flags (sps-session-marks.c) */
  GArray     *pinned;           /* guint32 thread, in the order pinned */
  GListStore *flags;            /* SpsFlag, by time */
  SpsFlag    *go_to_flag;       /* the last go-to-time target, in flags */
  guint       n_flags_made;     /* for the default names */
};

enum {
  PROP_0,
  PROP_TRACE,
  PROP_VISIBLE_START,
  PROP_VISIBLE_END,
  PROP_SELECTED_SLICE,
  PROP_HOVERED_SLICE,
  PROP_HAS_RANGE,
  PROP_RANGE_START,
  PROP_RANGE_END,
  PROP_SHOW_FLOWS,
  PROP_SEARCH_TEXT,
  PROP_SEARCH_IN_CATEGORY,
  PROP_RAW_STACKS,
  N_PROPS
};

enum {
  LAYOUT_CHANGED,
  FILTERS_CHANGED,
  N_SIGNALS
};

G_GNUC_INTERNAL extern GParamSpec *_sps_session_properties[N_PROPS];
G_GNUC_INTERNAL extern guint _sps_session_signals[N_SIGNALS];

/* sps-session-filters.c: set up while the session is constructed */
G_GNUC_INTERNAL
void  _sps_session_init_filters            (SpsSession *self);
G_GNUC_INTERNAL
void  _sps_session_apply_default_display   (SpsSession *self);
G_GNUC_INTERNAL
void  _sps_session_finalize_filters        (SpsSession *self);
G_GNUC_INTERNAL
void  _sps_session_sync_masks              (SpsSession *self);
G_GNUC_INTERNAL
gboolean _sps_session_is_category_class    (const char *name);

/* sps-session-controls.c */
G_GNUC_INTERNAL
void  _sps_session_init_controls           (SpsSession *self);

/* sps-session-marks.c */
G_GNUC_INTERNAL
void  _sps_session_init_marks              (SpsSession *self);
G_GNUC_INTERNAL
void  _sps_session_finalize_marks          (SpsSession *self);

/* sps-session-viewport.c */
G_GNUC_INTERNAL
void  _sps_session_compute_bounds          (SpsSession *self);
G_GNUC_INTERNAL
void  _sps_session_reveal_slice            (SpsSession *self,
                                            guint       slice);

G_END_DECLS
