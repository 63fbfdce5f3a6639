/* sps-session-selection.c: SpsSession's selection of any kind of item
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-session"

#include "config.h"

#include "sps-session-selection-private.h"
#include "sps-session-state-private.h"
#include "sps-time-math-private.h"
#include "sps-timeline-stacks-private.h"

/*
 * The selection is one SpsSelection by value: a slice, an instant or
 * decoded event, a sample, or a box of a stack chart (which is no row of
 * any table). "selected-slice" mirrors it for the callers that know only
 * slices: the slice when a slice is selected, SPS_NO_INDEX otherwise.
 * Every change emits "selection-changed" once, and "selected-slice"
 * notifies when its value changed.
 */

static guint selection_changed_signal;

/* Completes @sel from the tables (track and times of a row) and checks
 * it against @trace; FALSE for an item the trace does not have. */
static gboolean
normalise (SpsTrace     *trace,
           SpsSelection *sel)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);

  switch (sel->kind)
    {
    case SPS_SELECTION_NONE:
      sps_selection_init_none (sel);
      return TRUE;

    case SPS_SELECTION_SLICE:
      {
        const SpsSliceTable *slices = sps_trace_get_slices (trace);
        guint index = sel->index;

        if (index >= slices->n_rows)
          return FALSE;
        sps_selection_init_none (sel);
        sel->kind = SPS_SELECTION_SLICE;
        sel->index = index;
        sel->track = slices->track[index];
        sel->start = slices->ts[index];
        sel->end = _sps_time_add (slices->ts[index], MAX (slices->dur[index], 0));
        return TRUE;
      }

    case SPS_SELECTION_INSTANT:
      {
        const SpsInstantTable *instants = sps_trace_get_instants (trace);
        guint index = sel->index;

        if (index >= instants->n_rows)
          return FALSE;
        sps_selection_init_none (sel);
        sel->kind = SPS_SELECTION_INSTANT;
        sel->index = index;
        sel->track = instants->track[index];
        sel->start = sel->end = instants->ts[index];
        return TRUE;
      }

    case SPS_SELECTION_SAMPLE:
      {
        const SpsSampleTable *samples = sps_trace_get_samples (trace);
        guint index = sel->index;

        if (index >= samples->n_rows)
          return FALSE;
        sps_selection_init_none (sel);
        sel->kind = SPS_SELECTION_SAMPLE;
        sel->index = index;
        sel->track = samples->track[index];
        sel->start = sel->end = samples->ts[index];
        return TRUE;
      }

    case SPS_SELECTION_STACK_BOX:
      {
        const SpsSampleTable *samples = sel->raw ? sps_trace_get_raw_samples (trace) : sps_trace_get_samples (trace);
        const SpsCallsiteTable *callsites = sps_trace_get_callsites (trace);

        if (sel->track >= tracks->n_rows || sel->callsite >= callsites->n_rows || sel->n_samples == 0 ||
            sel->first_sample >= samples->n_rows || sel->n_samples > samples->n_rows - sel->first_sample ||
            samples->track[sel->first_sample] != sel->track || sel->end < sel->start)
          return FALSE;
        sel->index = SPS_NO_INDEX;
        sel->raw = !!sel->raw;
        return TRUE;
      }

    default:
      return FALSE;
    }
}

/**
 * SpsSession::selection-changed:
 * @self: the session
 *
 * The selection changed (sps_session_get_selection()): another item, or
 * none. When it is a change of the selected slice, "selected-slice"
 * notifies as well.
 */
void
_sps_session_selection_class_init (GObjectClass *klass)
{
  selection_changed_signal =
    g_signal_new ("selection-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 0);
}

/**
 * sps_session_get_selection:
 * @self: a #SpsSession
 *
 * Returns: (transfer none): what is selected; its kind is
 *   %SPS_SELECTION_NONE when nothing is
 */
const SpsSelection *
sps_session_get_selection (SpsSession *self)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), NULL);

  return &self->selection;
}

/**
 * sps_session_set_selection:
 * @self: a #SpsSession
 * @selection: (nullable): what to select; %NULL clears the selection
 *
 * Selects an item of any kind. For a slice, instant or sample only @kind
 * and @index are read (the track and times are taken from the trace);
 * a box is taken as given, after checking that its track, callsite and
 * samples exist. An item the trace does not have is refused with a
 * critical. The window does not move.
 */
void
sps_session_set_selection (SpsSession         *self,
                           const SpsSelection *selection)
{
  SpsSelection sel;
  guint slice;

  g_return_if_fail (SPS_IS_SESSION (self));

  if (selection != NULL)
    sel = *selection;
  else
    sps_selection_init_none (&sel);

  g_return_if_fail (normalise (self->trace, &sel));

  if (sps_selection_equal (&sel, &self->selection))
    return;

  g_object_freeze_notify (G_OBJECT (self));

  self->selection = sel;
  slice = sel.kind == SPS_SELECTION_SLICE ? sel.index : SPS_NO_INDEX;
  if (self->selected_slice != slice)
    {
      self->selected_slice = slice;
      g_object_notify_by_pspec (G_OBJECT (self), _sps_session_properties[PROP_SELECTED_SLICE]);
    }
  g_signal_emit (self, selection_changed_signal, 0);

  g_object_thaw_notify (G_OBJECT (self));
}

/* Shared by the selectors of one row of a table */
static void
select_row (SpsSession       *self,
            SpsSelectionKind  kind,
            guint             index)
{
  SpsSelection sel;

  sps_selection_init_none (&sel);
  if (index != SPS_NO_INDEX)
    {
      sel.kind = kind;
      sel.index = index;
    }
  sps_session_set_selection (self, &sel);
}

/**
 * sps_session_select_instant:
 * @self: a #SpsSession
 * @instant: a row of the instant table (an instant or a decoded event),
 *   or %SPS_NO_INDEX to clear the selection
 *
 * Selects @instant.
 */
void
sps_session_select_instant (SpsSession *self,
                            guint       instant)
{
  g_return_if_fail (SPS_IS_SESSION (self));
  g_return_if_fail (instant == SPS_NO_INDEX || instant < sps_trace_get_instants (self->trace)->n_rows);

  select_row (self, SPS_SELECTION_INSTANT, instant);
}

/**
 * sps_session_select_sample:
 * @self: a #SpsSession
 * @sample: a row of the sample table, or %SPS_NO_INDEX to clear the
 *   selection
 *
 * Selects @sample.
 */
void
sps_session_select_sample (SpsSession *self,
                           guint       sample)
{
  g_return_if_fail (SPS_IS_SESSION (self));
  g_return_if_fail (sample == SPS_NO_INDEX || sample < sps_trace_get_samples (self->trace)->n_rows);

  select_row (self, SPS_SELECTION_SAMPLE, sample);
}

/* The box of @stacks at @sel's start whose frame is @sel's frame, at the
 * depth nearest @sel's (repair adds or removes frames above a frame, so
 * its depth can differ between the tables); FALSE when there is none. */
static gboolean
find_same_box (SpsSession         *self,
               SpsTimelineStacks  *stacks,
               const SpsSelection *sel,
               SpsSelection       *resolved)
{
  const SpsCallsiteTable *callsites = sps_trace_get_callsites (self->trace);
  guint n_depths = _sps_timeline_stacks_get_n_depths (stacks, sel->track);
  guint32 frame = callsites->frame[sel->callsite];

  for (guint distance = 0; distance < n_depths + sel->depth; distance++)
    for (guint side = 0; side < 2; side++)
      {
        guint depth;
        guint box;
        guint n_boxes;
        const SpsTimelineStackBox *boxes;

        if (side == 0 && distance > sel->depth)
          continue;
        if (side == 1 && distance == 0)
          continue;
        depth = side == 0 ? sel->depth - distance : sel->depth + distance;
        if (depth >= n_depths)
          continue;

        box = _sps_timeline_stacks_find_box (stacks, sel->track, depth, sel->start);
        if (box == SPS_NO_INDEX)
          continue;
        boxes = _sps_timeline_stacks_get_boxes (stacks, sel->track, depth, &n_boxes);
        if (callsites->frame[boxes[box].callsite] != frame)
          continue;

        _sps_timeline_stacks_box_selection (stacks, self->trace, sel->track, depth, box, resolved);
        return TRUE;
      }

  return FALSE;
}

/*
 * A stack-chart box is a run of rows of one sample table, the raw or the
 * repaired one. When the switch between them changes, the box is found
 * again in the table now shown (as the timeline chooses it: the raw table
 * only when there is one): the box that starts the selected box's run
 * with the same frame. Cleared when that table has no such box: the
 * frame is one the repair added or removed there.
 */
void
_sps_session_selection_follow_stacks (SpsSession *self)
{
  const SpsSampleTable *raw = sps_trace_get_raw_samples (self->trace);
  const SpsSampleTable *shown;
  const SpsSampleTable *selected;
  g_autoptr(SpsTimelineStacks) stacks = NULL;
  SpsSelection resolved;

  g_assert (SPS_IS_SESSION (self));

  if (self->selection.kind != SPS_SELECTION_STACK_BOX)
    return;

  shown = self->raw_stacks && raw->n_rows > 0 ? raw : sps_trace_get_samples (self->trace);
  selected = self->selection.raw ? raw : sps_trace_get_samples (self->trace);
  if (shown == selected)
    return;

  /* One pass over the samples, once per flip of the switch */
  stacks = _sps_timeline_stacks_new (self->trace, shown);
  if (!find_same_box (self, stacks, &self->selection, &resolved))
    sps_selection_init_none (&resolved);

  sps_session_set_selection (self, &resolved);
}
