/* sps-session.c: the interaction state of one trace window
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-session"

#include "config.h"

#include <math.h>
#include <string.h>

#include "sps-session.h"
#include "sps-session-private.h"
#include "sps-session-selection-private.h"
#include "sps-session-state-private.h"
#include "sps-time-math-private.h"

/**
 * SpsSession:
 *
 * The interaction state shared by every view of one trace: the visible
 * window, the selected and hovered slices, the time range selection,
 * collapsed processes and display toggles. It is not a widget, so the
 * viewport rules (clamping, zoom around an anchor, fit) and the keyboard
 * navigation of the slice tree are tested without a display.
 *
 * The visible window is kept inside [trace start − 5 %, trace end + 5 %]
 * of the trace's span and is never narrower than 10 ns (a trace shorter
 * than that gets a 10 ns window around its centre).
 */
G_DEFINE_FINAL_TYPE (SpsSession, sps_session, G_TYPE_OBJECT)

GParamSpec *_sps_session_properties[N_PROPS];
guint _sps_session_signals[N_SIGNALS];

/* Shared by the setters of the slice-valued properties (selected,
 * hovered): stores @slice in @field and notifies @prop_id on change. */
static void
set_slice_property (SpsSession *self,
                    guint      *field,
                    guint       slice,
                    guint       prop_id)
{
  g_assert (SPS_IS_SESSION (self));
  g_assert (prop_id < N_PROPS);

  if (*field == slice)
    return;

  *field = slice;
  g_object_notify_by_pspec (G_OBJECT (self), _sps_session_properties[prop_id]);
}

static void
select_and_reveal (SpsSession *self,
                   guint       slice)
{
  sps_session_set_selected_slice (self, slice);
  _sps_session_reveal_slice (self, slice);
}

/* A step from one slice to a related one in the slice tree, or
 * SPS_NO_INDEX when there is none. */
typedef guint (*SliceStep) (SpsTrace *trace,
                            guint     slice);

static guint
slice_parent (SpsTrace *trace,
              guint     slice)
{
  return sps_trace_get_slices (trace)->parent[slice];
}

/* Shared by the select_ navigation: moves the selection one @step from
 * where it is and reveals it; nothing changes when there is no selection
 * or the step leads nowhere. */
static gboolean
select_related (SpsSession *self,
                SliceStep   step)
{
  guint target;

  g_assert (SPS_IS_SESSION (self));

  if (self->selected_slice == SPS_NO_INDEX)
    return FALSE;

  target = step (self->trace, self->selected_slice);
  if (target == SPS_NO_INDEX)
    return FALSE;

  select_and_reveal (self, target);

  return TRUE;
}

static void
sps_session_constructed (GObject *object)
{
  SpsSession *self = (SpsSession *)object;

  G_OBJECT_CLASS (sps_session_parent_class)->constructed (object);

  g_assert (SPS_IS_TRACE (self->trace));

  self->n_processes = sps_trace_get_processes (self->trace)->n_rows;
  self->collapsed = g_new0 (guint8, MAX (self->n_processes, 1));

  _sps_session_init_filters (self);
  _sps_session_apply_default_display (self);

  _sps_session_compute_bounds (self);
  self->visible_start = self->bound_start;
  self->visible_end = self->bound_end;
  sps_session_fit_trace (self);
}

static void
sps_session_dispose (GObject *object)
{
  SpsSession *self = (SpsSession *)object;

  g_clear_object (&self->trace);

  G_OBJECT_CLASS (sps_session_parent_class)->dispose (object);
}

static void
sps_session_finalize (GObject *object)
{
  SpsSession *self = (SpsSession *)object;

  g_clear_pointer (&self->collapsed, g_free);
  g_clear_pointer (&self->process_hidden, g_free);
  g_clear_pointer (&self->thread_hidden, g_free);
  g_clear_pointer (&self->track_visible, g_free);
  g_clear_pointer (&self->categories, g_array_unref);
  g_clear_pointer (&self->token_index, g_hash_table_unref);
  g_clear_pointer (&self->token_hidden, g_free);
  g_clear_pointer (&self->category_tokens, g_hash_table_unref);
  g_clear_pointer (&self->category_visible, g_free);
  g_clear_pointer (&self->slice_mask, g_bytes_unref);
  g_clear_pointer (&self->search_text, g_free);
  g_clear_pointer (&self->search_pattern, sps_search_pattern_free);
  g_clear_pointer (&self->search_memo, g_free);
  _sps_session_finalize_filters (self);

  G_OBJECT_CLASS (sps_session_parent_class)->finalize (object);
}

static void
sps_session_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  SpsSession *self = SPS_SESSION (object);

  switch (prop_id)
    {
    case PROP_TRACE:
      g_value_set_object (value, self->trace);
      break;

    case PROP_VISIBLE_START:
      g_value_set_int64 (value, self->visible_start);
      break;

    case PROP_VISIBLE_END:
      g_value_set_int64 (value, self->visible_end);
      break;

    case PROP_SELECTED_SLICE:
      g_value_set_uint (value, self->selected_slice);
      break;

    case PROP_HOVERED_SLICE:
      g_value_set_uint (value, self->hovered_slice);
      break;

    case PROP_HAS_RANGE:
      g_value_set_boolean (value, self->has_range);
      break;

    case PROP_RANGE_START:
      g_value_set_int64 (value, self->range_start);
      break;

    case PROP_RANGE_END:
      g_value_set_int64 (value, self->range_end);
      break;

    case PROP_SHOW_FLOWS:
      g_value_set_boolean (value, self->show_flows);
      break;

    case PROP_RAW_STACKS:
      g_value_set_boolean (value, self->raw_stacks);
      break;

    case PROP_SEARCH_TEXT:
      g_value_set_string (value, self->search_text);
      break;

    case PROP_SEARCH_IN_CATEGORY:
      g_value_set_boolean (value, self->search_in_category);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sps_session_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  SpsSession *self = SPS_SESSION (object);

  switch (prop_id)
    {
    case PROP_TRACE:
      self->trace = g_value_dup_object (value);
      break;

    case PROP_SELECTED_SLICE:
      sps_session_set_selected_slice (self, g_value_get_uint (value));
      break;

    case PROP_HOVERED_SLICE:
      sps_session_set_hovered_slice (self, g_value_get_uint (value));
      break;

    case PROP_SHOW_FLOWS:
      sps_session_set_show_flows (self, g_value_get_boolean (value));
      break;

    case PROP_RAW_STACKS:
      sps_session_set_raw_stacks (self, g_value_get_boolean (value));
      break;

    case PROP_SEARCH_TEXT:
      sps_session_set_search_text (self, g_value_get_string (value));
      break;

    case PROP_SEARCH_IN_CATEGORY:
      sps_session_set_search_in_category (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sps_session_class_init (SpsSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = sps_session_constructed;
  object_class->dispose = sps_session_dispose;
  object_class->finalize = sps_session_finalize;
  object_class->get_property = sps_session_get_property;
  object_class->set_property = sps_session_set_property;

  _sps_session_properties[PROP_TRACE] =
    g_param_spec_object ("trace", NULL, NULL,
                         SPS_TYPE_TRACE,
                         (G_PARAM_READWRITE |
                          G_PARAM_CONSTRUCT_ONLY |
                          G_PARAM_STATIC_STRINGS));

  _sps_session_properties[PROP_VISIBLE_START] =
    g_param_spec_int64 ("visible-start", NULL, NULL,
                        G_MININT64, G_MAXINT64, 0,
                        (G_PARAM_READABLE |
                         G_PARAM_EXPLICIT_NOTIFY |
                         G_PARAM_STATIC_STRINGS));

  _sps_session_properties[PROP_VISIBLE_END] =
    g_param_spec_int64 ("visible-end", NULL, NULL,
                        G_MININT64, G_MAXINT64, 0,
                        (G_PARAM_READABLE |
                         G_PARAM_EXPLICIT_NOTIFY |
                         G_PARAM_STATIC_STRINGS));

  _sps_session_properties[PROP_SELECTED_SLICE] =
    g_param_spec_uint ("selected-slice", NULL, NULL,
                       0, G_MAXUINT32, SPS_NO_INDEX,
                       (G_PARAM_READWRITE |
                        G_PARAM_EXPLICIT_NOTIFY |
                        G_PARAM_STATIC_STRINGS));

  _sps_session_properties[PROP_HOVERED_SLICE] =
    g_param_spec_uint ("hovered-slice", NULL, NULL,
                       0, G_MAXUINT32, SPS_NO_INDEX,
                       (G_PARAM_READWRITE |
                        G_PARAM_EXPLICIT_NOTIFY |
                        G_PARAM_STATIC_STRINGS));

  _sps_session_properties[PROP_HAS_RANGE] =
    g_param_spec_boolean ("has-range", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE |
                           G_PARAM_EXPLICIT_NOTIFY |
                           G_PARAM_STATIC_STRINGS));

  _sps_session_properties[PROP_RANGE_START] =
    g_param_spec_int64 ("range-start", NULL, NULL,
                        G_MININT64, G_MAXINT64, 0,
                        (G_PARAM_READABLE |
                         G_PARAM_EXPLICIT_NOTIFY |
                         G_PARAM_STATIC_STRINGS));

  _sps_session_properties[PROP_RANGE_END] =
    g_param_spec_int64 ("range-end", NULL, NULL,
                        G_MININT64, G_MAXINT64, 0,
                        (G_PARAM_READABLE |
                         G_PARAM_EXPLICIT_NOTIFY |
                         G_PARAM_STATIC_STRINGS));

  _sps_session_properties[PROP_SHOW_FLOWS] =
    g_param_spec_boolean ("show-flows", NULL, NULL,
                          TRUE,
                          (G_PARAM_READWRITE |
                           G_PARAM_EXPLICIT_NOTIFY |
                           G_PARAM_STATIC_STRINGS));

  _sps_session_properties[PROP_RAW_STACKS] =
    g_param_spec_boolean ("raw-stacks", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE |
                           G_PARAM_EXPLICIT_NOTIFY |
                           G_PARAM_STATIC_STRINGS));

  _sps_session_properties[PROP_SEARCH_TEXT] =
    g_param_spec_string ("search-text", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE |
                          G_PARAM_EXPLICIT_NOTIFY |
                          G_PARAM_STATIC_STRINGS));

  _sps_session_properties[PROP_SEARCH_IN_CATEGORY] =
    g_param_spec_boolean ("search-in-category", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE |
                           G_PARAM_EXPLICIT_NOTIFY |
                           G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, _sps_session_properties);

  /**
   * SpsSession::layout-changed:
   * @self: the session
   *
   * The set of visible rows changed (a process was collapsed or
   * expanded); views rebuild their row layout.
   */
  _sps_session_signals[LAYOUT_CHANGED] =
    g_signal_new ("layout-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 0);

  /**
   * SpsSession::filters-changed:
   * @self: the session
   *
   * A thread, process or category was hidden or shown. Views that
   * aggregate slices or samples recompute with
   * sps_session_is_slice_visible() and sps_session_is_sample_visible().
   * When threads or processes changed, #SpsSession::layout-changed is
   * emitted first.
   */
  _sps_session_selection_class_init (object_class);

  _sps_session_signals[FILTERS_CHANGED] =
    g_signal_new ("filters-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 0);
}

static void
sps_session_init (SpsSession *self)
{
  self->selected_slice = SPS_NO_INDEX;
  sps_selection_init_none (&self->selection);
  self->hovered_slice = SPS_NO_INDEX;
  self->show_flows = TRUE;
}

/**
 * sps_session_new:
 * @trace: a finished trace
 *
 * Creates the interaction state for @trace, showing the whole trace.
 *
 * Returns: (transfer full): a new #SpsSession
 */
SpsSession *
sps_session_new (SpsTrace *trace)
{
  g_return_val_if_fail (SPS_IS_TRACE (trace), NULL);

  return g_object_new (SPS_TYPE_SESSION,
                       "trace", trace,
                       NULL);
}

/**
 * sps_session_get_trace:
 * @self: a #SpsSession
 *
 * Returns: (transfer none): the trace
 */
SpsTrace *
sps_session_get_trace (SpsSession *self)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), NULL);

  return self->trace;
}

/**
 * sps_session_get_selected_slice:
 * @self: a #SpsSession
 *
 * Returns: the selected slice index, or %SPS_NO_INDEX
 */
guint
sps_session_get_selected_slice (SpsSession *self)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), SPS_NO_INDEX);

  return self->selected_slice;
}

/**
 * sps_session_set_selected_slice:
 * @self: a #SpsSession
 * @slice: a slice index, or %SPS_NO_INDEX to clear
 *
 * Selects @slice (sps_session_set_selection() with a slice). The window
 * does not move (see the select_ functions for navigation that reveals
 * its target).
 */
void
sps_session_set_selected_slice (SpsSession *self,
                                guint       slice)
{
  SpsSelection sel;

  g_return_if_fail (SPS_IS_SESSION (self));
  g_return_if_fail (slice == SPS_NO_INDEX || slice < sps_trace_get_slices (self->trace)->n_rows);

  sps_selection_init_none (&sel);
  if (slice != SPS_NO_INDEX)
    {
      sel.kind = SPS_SELECTION_SLICE;
      sel.index = slice;
    }
  sps_session_set_selection (self, &sel);
}

/**
 * sps_session_select_parent:
 * @self: a #SpsSession
 *
 * Selects the parent of the selected slice and brings it into view.
 *
 * Returns: %TRUE if it moved; %FALSE (selection unchanged) when nothing
 *   is selected or the selection is a root
 */
gboolean
sps_session_select_parent (SpsSession *self)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), FALSE);

  return select_related (self, slice_parent);
}

/**
 * sps_session_select_first_child:
 * @self: a #SpsSession
 *
 * Selects the first child of the selected slice (the earliest; the first
 * in table order after it whose parent it is) and brings it into view.
 *
 * Returns: %TRUE if it moved; %FALSE (selection unchanged) when nothing
 *   is selected or the selection has no children
 */
gboolean
sps_session_select_first_child (SpsSession *self)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), FALSE);

  return select_related (self, _sps_slice_first_child);
}

/**
 * sps_session_select_sibling:
 * @self: a #SpsSession
 * @direction: -1 for the previous sibling, 1 for the next
 *
 * Selects the previous or next slice of the same track with the same
 * parent (roots of a track are siblings), and brings it into view.
 *
 * Returns: %TRUE if it moved; %FALSE (selection unchanged) when nothing
 *   is selected or there is no sibling that way
 */
gboolean
sps_session_select_sibling (SpsSession *self,
                            int         direction)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), FALSE);
  g_return_val_if_fail (direction != 0, FALSE);

  return select_related (self, direction < 0 ? _sps_slice_prev_sibling
                                             : _sps_slice_next_sibling);
}

/**
 * sps_session_get_hovered_slice:
 * @self: a #SpsSession
 *
 * Returns: the slice under the pointer, or %SPS_NO_INDEX
 */
guint
sps_session_get_hovered_slice (SpsSession *self)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), SPS_NO_INDEX);

  return self->hovered_slice;
}

/**
 * sps_session_set_hovered_slice:
 * @self: a #SpsSession
 * @slice: a slice index, or %SPS_NO_INDEX
 *
 * Sets the slice under the pointer.
 */
void
sps_session_set_hovered_slice (SpsSession *self,
                               guint       slice)
{
  g_return_if_fail (SPS_IS_SESSION (self));
  g_return_if_fail (slice == SPS_NO_INDEX || slice < sps_trace_get_slices (self->trace)->n_rows);

  set_slice_property (self, &self->hovered_slice, slice, PROP_HOVERED_SLICE);
}

/**
 * sps_session_clear:
 * @self: a #SpsSession
 *
 * What Escape does: clears the selection (of any kind) and the range
 * selection. The window, hover and collapsed processes stay.
 */
void
sps_session_clear (SpsSession *self)
{
  g_return_if_fail (SPS_IS_SESSION (self));

  g_object_freeze_notify (G_OBJECT (self));
  sps_session_set_selection (self, NULL);
  sps_session_clear_range (self);
  g_object_thaw_notify (G_OBJECT (self));
}

/**
 * sps_session_get_show_flows:
 * @self: a #SpsSession
 *
 * Returns: whether flow arrows are drawn
 */
gboolean
sps_session_get_show_flows (SpsSession *self)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), FALSE);

  return self->show_flows;
}

/**
 * sps_session_set_show_flows:
 * @self: a #SpsSession
 * @show_flows: whether to draw flow arrows
 */
void
sps_session_set_show_flows (SpsSession *self,
                            gboolean    show_flows)
{
  g_return_if_fail (SPS_IS_SESSION (self));

  show_flows = !!show_flows;
  if (self->show_flows == (guint) show_flows)
    return;

  self->show_flows = show_flows;
  g_object_notify_by_pspec (G_OBJECT (self), _sps_session_properties[PROP_SHOW_FLOWS]);
}

/**
 * sps_session_get_raw_stacks:
 * @self: a #SpsSession
 *
 * Returns: whether views of samples read the stacks as the file wrote
 *   them (sps_trace_get_raw_samples()) instead of as repaired
 */
gboolean
sps_session_get_raw_stacks (SpsSession *self)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), FALSE);

  return self->raw_stacks;
}

/**
 * sps_session_set_raw_stacks:
 * @self: a #SpsSession
 * @raw_stacks: whether views of samples show the raw stacks
 *
 * Has an effect only for traces whose stacks were repaired (whose raw
 * sample table is not empty); the others have one set of stacks. A
 * selected stack-chart box is found again in the stacks now shown (the
 * box of the same frame at the same time), or the selection is cleared
 * when those stacks have no such box.
 */
void
sps_session_set_raw_stacks (SpsSession *self,
                            gboolean    raw_stacks)
{
  g_return_if_fail (SPS_IS_SESSION (self));

  raw_stacks = !!raw_stacks;
  if (self->raw_stacks == (guint) raw_stacks)
    return;

  self->raw_stacks = raw_stacks;
  /* A selected stack-chart box is one of the table shown until now */
  _sps_session_selection_follow_stacks (self);
  g_object_notify_by_pspec (G_OBJECT (self), _sps_session_properties[PROP_RAW_STACKS]);
}
