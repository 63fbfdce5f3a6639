/* sps-timeline-prepare.c: a large trace's summaries built ahead, off the main thread
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-timeline"

#include "config.h"

#include "sps-timeline-private.h"
#include "sps-time-math-private.h"

/* Traces with at least this many rows to summarise (slices, counter
 * values, instants, samples) get one level of their summaries built
 * ahead on worker threads before the timeline draws them; a smaller one
 * builds its levels when a frame first asks, in milliseconds. */
static guint64 prepare_threshold = SPS_TIMELINE_PREPARE_THRESHOLD;

static guint64
count_summarised_rows (SpsTrace *trace)
{
  return (guint64) sps_trace_get_slices (trace)->n_rows +
         sps_trace_get_counters (trace)->n_rows +
         sps_trace_get_instants (trace)->n_rows +
         sps_trace_get_samples (trace)->n_rows;
}

typedef struct
{
  SpsTimelineLod      *lod;
  guint                level;
  SpsTrace            *trace;
  SpsTimelineFlowIndex flow_index;
} PrepareData;

static void
prepare_data_free (PrepareData *data)
{
  g_clear_pointer (&data->lod, _sps_timeline_lod_free);
  _sps_timeline_flow_index_clear (&data->flow_index);
  g_clear_object (&data->trace);
  g_free (data);
}

static void
prepare_worker (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  SPS_SELF_TRACE_SCOPE ("timeline/prepare");
  PrepareData *data = task_data;

  g_assert (G_IS_TASK (task));
  g_assert (data != NULL);

  /* The flows' index too: the first frame draws the flows in view */
  if (_sps_timeline_lod_prepare (data->lod, data->level, g_get_num_processors (), cancellable) &&
      !g_cancellable_is_cancelled (cancellable))
    _sps_timeline_flow_index_build (data->trace, &data->flow_index);

  if (!g_task_return_error_if_cancelled (task))
    g_task_return_boolean (task, TRUE);
}

/* The summaries are ready: the painters get them. */
static void
prepare_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  SpsTimeline *self = SPS_TIMELINE (object);
  PrepareData *data = g_task_get_task_data (G_TASK (result));

  g_assert (g_task_is_valid (result, self));

  /* FALSE when cancelled: the timeline was disposed. (What the task
   * built goes with its data.) */
  if (!g_task_propagate_boolean (G_TASK (result), NULL) || self->session == NULL || self->lod != NULL)
    return;

  _sps_timeline_take_prepared (self, g_steal_pointer (&data->lod), &data->flow_index);
}

/* For a large trace, builds the level a zoomed-out frame is made from on
 * worker threads (_sps_timeline_lod_prepare()), and the flows' index, so
 * that the main thread never walks every slice or sorts every flow for
 * the first frame; until then the painters have no summaries and the
 * track area says that it is being prepared. */
void
_sps_timeline_maybe_prepare (SpsTimeline *self)
{
  g_autoptr(GTask) task = NULL;
  PrepareData *data;

  g_assert (SPS_IS_TIMELINE (self));
  g_assert (self->lod != NULL);

  if (count_summarised_rows (self->trace) < prepare_threshold)
    return;

  data = g_new0 (PrepareData, 1);
  data->lod = g_steal_pointer (&self->lod);
  data->trace = g_object_ref (self->trace);
  data->level = _sps_timeline_lod_level_ahead (_sps_time_sub (sps_trace_get_end_time (self->trace),
                                                              sps_trace_get_start_time (self->trace)));
  self->lod_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->lod_cancellable, prepare_cb, NULL);
  g_task_set_source_tag (task, _sps_timeline_maybe_prepare);
  g_task_set_name (task, "sps-timeline-prepare");
  g_task_set_task_data (task, data, (GDestroyNotify) prepare_data_free);
  g_task_run_in_thread (task, prepare_worker);
}

/**
 * _sps_timeline_set_prepare_threshold:
 * @rows: a number of rows
 *
 * Sets, for the whole process, how many rows to summarise (slices,
 * counter values, instants, samples) a trace needs for the timelines
 * created after to build their summaries ahead on worker threads: tests
 * lower it to take that path with a small trace.
 */
void
_sps_timeline_set_prepare_threshold (guint64 rows)
{
  prepare_threshold = rows;
}

/**
 * sps_timeline_get_preparing:
 * @self: a #SpsTimeline
 *
 * Returns: whether the timeline still prepares to draw its trace (see
 *   #SpsTimeline:preparing); a frame drawn meanwhile shows no rows
 */
gboolean
sps_timeline_get_preparing (SpsTimeline *self)
{
  g_return_val_if_fail (SPS_IS_TIMELINE (self), FALSE);

  return self->session != NULL && self->lod == NULL;
}
