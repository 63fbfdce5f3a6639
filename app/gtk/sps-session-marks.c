/* sps-session-marks.c: what the user marks on a trace: pinned threads and
 * flags
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Both are the user's notes on a trace rather than filters: pinning moves
 * a thread's rows to the top of the timeline ("layout-changed"); flags are
 * a list model views follow through its "items-changed". The window saves
 * both with the trace's settings.
 */

#define G_LOG_DOMAIN "sps-session"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "sps-session.h"
#include "sps-session-state-private.h"
#include <spanscope-core.h>

void
_sps_session_init_marks (SpsSession *self)
{
  g_assert (SPS_IS_SESSION (self));

  self->pinned = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->flags = g_list_store_new (SPS_TYPE_FLAG);
}

void
_sps_session_finalize_marks (SpsSession *self)
{
  g_assert (SPS_IS_SESSION (self));

  g_clear_pointer (&self->pinned, g_array_unref);
  g_clear_object (&self->flags);
  self->go_to_flag = NULL;
}

/**
 * sps_session_get_thread_pinned:
 * @self: a #SpsSession
 * @thread: a thread index
 *
 * Returns: whether @thread is pinned to the top of the timeline
 */
gboolean
sps_session_get_thread_pinned (SpsSession *self,
                               guint       thread)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), FALSE);
  g_return_val_if_fail (thread < self->n_threads, FALSE);

  for (guint i = 0; i < self->pinned->len; i++)
    if (g_array_index (self->pinned, guint32, i) == thread)
      return TRUE;
  return FALSE;
}

/**
 * sps_session_set_thread_pinned:
 * @self: a #SpsSession
 * @thread: a thread index
 * @pinned: whether its rows go to the top of the timeline
 *
 * Pins @thread (after the threads pinned before it) or unpins it. Emits
 * #SpsSession::layout-changed when that changed.
 */
void
sps_session_set_thread_pinned (SpsSession *self,
                               guint       thread,
                               gboolean    pinned)
{
  guint32 t = thread;

  g_return_if_fail (SPS_IS_SESSION (self));
  g_return_if_fail (thread < self->n_threads);

  if (!!pinned == sps_session_get_thread_pinned (self, thread))
    return;

  if (pinned)
    g_array_append_val (self->pinned, t);
  else
    for (guint i = 0; i < self->pinned->len; i++)
      if (g_array_index (self->pinned, guint32, i) == thread)
        {
          g_array_remove_index (self->pinned, i);
          break;
        }
  g_signal_emit (self, _sps_session_signals[LAYOUT_CHANGED], 0);
}

/**
 * sps_session_get_pinned_threads:
 * @self: a #SpsSession
 * @n_threads: (out): how many
 *
 * Returns: (array length=n_threads) (transfer none): the pinned threads,
 *   in the order they were pinned (the order of their rows)
 */
const guint32 *
sps_session_get_pinned_threads (SpsSession *self,
                                guint      *n_threads)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), NULL);
  g_return_val_if_fail (n_threads != NULL, NULL);

  *n_threads = self->pinned->len;
  return (const guint32 *) (gpointer) self->pinned->data;
}

/**
 * sps_session_get_flags:
 * @self: a #SpsSession
 *
 * Returns: (transfer none): the flags (#SpsFlag), in time order
 */
GListModel *
sps_session_get_flags (SpsSession *self)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), NULL);

  return G_LIST_MODEL (self->flags);
}

static int
compare_flags (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  SpsTime x = sps_flag_get_time ((SpsFlag *) a);
  SpsTime y = sps_flag_get_time ((SpsFlag *) b);

  return x < y ? -1 : x > y;
}

/**
 * sps_session_add_flag:
 * @self: a #SpsSession
 * @time: ns from the trace's origin
 * @name: (nullable): its name; %NULL names it "Flag N"
 *
 * Adds a flag, in time order among the others (after those at the same
 * time).
 *
 * Returns: (transfer none): the new flag
 */
SpsFlag *
sps_session_add_flag (SpsSession *self,
                      SpsTime     time,
                      const char *name)
{
  g_autoptr(SpsFlag) flag = NULL;
  g_autofree char *made = NULL;

  g_return_val_if_fail (SPS_IS_SESSION (self), NULL);

  if (name == NULL)
    /* Translators: the default name of a flag (a time marker) */
    name = made = g_strdup_printf (_("Flag %u"), ++self->n_flags_made);
  flag = sps_flag_new (time, name);
  g_list_store_insert_sorted (self->flags, flag, compare_flags, NULL);
  return flag;
}

/**
 * sps_session_remove_flag:
 * @self: a #SpsSession
 * @flag: one of its flags
 */
void
sps_session_remove_flag (SpsSession *self,
                         SpsFlag    *flag)
{
  guint position;

  g_return_if_fail (SPS_IS_SESSION (self));
  g_return_if_fail (SPS_IS_FLAG (flag));

  if (!g_list_store_find (self->flags, flag, &position))
    return;
  if (flag == self->go_to_flag)
    self->go_to_flag = NULL;
  g_list_store_remove (self->flags, position);
}

/**
 * sps_session_is_go_to_flag:
 * @self: a #SpsSession
 * @flag: one of its flags
 *
 * Returns: whether @flag marks the last Go to Time target (a mark of the
 *   moment, which the trace's settings do not keep)
 */
gboolean
sps_session_is_go_to_flag (SpsSession *self,
                           SpsFlag    *flag)
{
  g_return_val_if_fail (SPS_IS_SESSION (self), FALSE);

  return flag != NULL && flag == self->go_to_flag;
}

/* @time from the trace's start, as the ruler shows it (the time itself
 * when the difference does not fit) */
static SpsTime
relative_time (SpsSession *self,
               SpsTime     time)
{
  SpsTime start = sps_trace_get_start_time (self->trace);
  SpsTime relative;

  if (__builtin_sub_overflow (time, start, &relative))
    return time;
  return relative;
}

/**
 * sps_session_mark_go_to_time:
 * @self: a #SpsSession
 * @time: the target of "Go to Time", ns
 *
 * Marks the go-to-time target with a flag, which replaces the previous
 * target's.
 *
 * Returns: (transfer none): the flag
 */
SpsFlag *
sps_session_mark_go_to_time (SpsSession *self,
                             SpsTime     time)
{
  g_autofree char *when = NULL;
  g_autofree char *name = NULL;

  g_return_val_if_fail (SPS_IS_SESSION (self), NULL);

  if (self->go_to_flag != NULL)
    sps_session_remove_flag (self, self->go_to_flag);
  when = sps_time_format (relative_time (self, time));
  /* Translators: the flag on the target of Go to Time; %s is the time */
  name = g_strdup_printf (_("Go to %s"), when);
  self->go_to_flag = sps_session_add_flag (self, time, name);
  return self->go_to_flag;
}
