/* test-progress.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "test-progress"

#include "config.h"

#include <string.h>

#include <spanscope-core.h>

/* What a listener saw, in order. */
typedef struct
{
  GThread   *owner;
  guint      n_changed;
  guint      n_phase_notify;
  guint      n_fraction_notify;
  guint      n_message_notify;
  GArray    *phases;           /* SpsProgressPhase at each "changed" */
  GPtrArray *messages;         /* message at each "changed" */
  gboolean   wrong_thread;
} Listener;

static void
on_changed (SpsProgress *progress,
            Listener    *listener)
{
  SpsProgressPhase phase = sps_progress_get_phase (progress);

  if (g_thread_self () != listener->owner)
    listener->wrong_thread = TRUE;

  listener->n_changed++;
  g_array_append_val (listener->phases, phase);
  g_ptr_array_add (listener->messages, sps_progress_dup_message (progress));
}

static void
on_notify (SpsProgress *progress,
           GParamSpec  *pspec,
           Listener    *listener)
{
  if (g_thread_self () != listener->owner)
    listener->wrong_thread = TRUE;

  if (g_str_equal (pspec->name, "phase"))
    listener->n_phase_notify++;
  else if (g_str_equal (pspec->name, "fraction"))
    listener->n_fraction_notify++;
  else if (g_str_equal (pspec->name, "message"))
    listener->n_message_notify++;
}

static void
listener_init (Listener    *listener,
               SpsProgress *progress)
{
  memset (listener, 0, sizeof *listener);
  listener->owner = g_thread_self ();
  listener->phases = g_array_new (FALSE, FALSE, sizeof (SpsProgressPhase));
  listener->messages = g_ptr_array_new_with_free_func (g_free);
  g_signal_connect (progress, "changed", G_CALLBACK (on_changed), listener);
  g_signal_connect (progress, "notify", G_CALLBACK (on_notify), listener);
}

static void
listener_clear (Listener    *listener,
                SpsProgress *progress)
{
  g_signal_handlers_disconnect_by_data (progress, listener);
  g_clear_pointer (&listener->phases, g_array_unref);
  g_clear_pointer (&listener->messages, g_ptr_array_unref);
}

static void
drain (GMainContext *context)
{
  while (g_main_context_iteration (context, FALSE))
    ;
}

static void
test_progress_defaults (void)
{
  g_autoptr(SpsProgress) progress = sps_progress_new (NULL);
  g_autoptr(GCancellable) cancellable = NULL;
  SpsProgressPhase phase;
  double fraction;
  char *message;

  g_assert_cmpint (sps_progress_get_phase (progress), ==, SPS_PROGRESS_PHASE_NONE);
  g_assert_cmpfloat (sps_progress_get_fraction (progress), ==, 0.0);
  g_assert_null (sps_progress_dup_message (progress));
  g_assert_true (G_IS_CANCELLABLE (sps_progress_get_cancellable (progress)));
  g_assert_false (sps_progress_is_cancelled (progress));

  g_object_get (progress,
                "phase", &phase,
                "fraction", &fraction,
                "message", &message,
                "cancellable", &cancellable,
                NULL);
  g_assert_cmpint (phase, ==, SPS_PROGRESS_PHASE_NONE);
  g_assert_cmpfloat (fraction, ==, 0.0);
  g_assert_null (message);
  g_assert_true (cancellable == sps_progress_get_cancellable (progress));
}

static void
test_progress_cancellable (void)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(SpsProgress) progress = sps_progress_new (cancellable);
  g_autoptr(SpsProgress) other = sps_progress_new (NULL);

  g_assert_true (sps_progress_get_cancellable (progress) == cancellable);
  g_assert_false (sps_progress_is_cancelled (progress));

  /* Cancelling through either side is seen by both. */
  sps_progress_cancel (progress);
  g_assert_true (g_cancellable_is_cancelled (cancellable));
  g_assert_true (sps_progress_is_cancelled (progress));

  g_assert_false (sps_progress_is_cancelled (other));
  g_cancellable_cancel (sps_progress_get_cancellable (other));
  g_assert_true (sps_progress_is_cancelled (other));
}

static void
test_progress_phase_resets_fraction (void)
{
  g_autoptr(SpsProgress) progress = sps_progress_new (NULL);
  g_autofree char *message = NULL;

  sps_progress_set_phase (progress, SPS_PROGRESS_PHASE_PARSING, "Parsing");
  sps_progress_set_fraction (progress, 0.25);
  g_assert_cmpfloat (sps_progress_get_fraction (progress), ==, 0.25);

  /* The same phase keeps the fraction, a new one starts from 0 … */
  sps_progress_set_phase (progress, SPS_PROGRESS_PHASE_PARSING, "Still parsing");
  g_assert_cmpfloat (sps_progress_get_fraction (progress), ==, 0.25);
  sps_progress_set_phase (progress, SPS_PROGRESS_PHASE_INDEXING, NULL);
  g_assert_cmpint (sps_progress_get_phase (progress), ==, SPS_PROGRESS_PHASE_INDEXING);
  g_assert_cmpfloat (sps_progress_get_fraction (progress), ==, 0.0);
  g_assert_null (sps_progress_dup_message (progress));

  /* … and DONE is complete. */
  sps_progress_set_phase (progress, SPS_PROGRESS_PHASE_DONE, "Loaded");
  g_assert_cmpfloat (sps_progress_get_fraction (progress), ==, 1.0);
  message = sps_progress_dup_message (progress);
  g_assert_cmpstr (message, ==, "Loaded");

  drain (NULL);
}

static void
test_progress_fraction_clamped (void)
{
  g_autoptr(SpsProgress) progress = sps_progress_new (NULL);

  sps_progress_set_fraction (progress, 1.5);
  g_assert_cmpfloat (sps_progress_get_fraction (progress), ==, 1.0);
  sps_progress_set_fraction (progress, -0.5);
  g_assert_cmpfloat (sps_progress_get_fraction (progress), ==, 0.0);
  sps_progress_set_fraction (progress, 0.5);
  g_assert_cmpfloat (sps_progress_get_fraction (progress), ==, 0.5);

  drain (NULL);
}

static void
test_progress_coalesced (void)
{
  g_autoptr(SpsProgress) progress = sps_progress_new (NULL);
  Listener listener;

  listener_init (&listener, progress);

  /* Updates never call listeners synchronously … */
  sps_progress_set_phase (progress, SPS_PROGRESS_PHASE_READING, "Reading");
  for (guint i = 1; i <= 10; i++)
    sps_progress_set_fraction (progress, i / 20.0);
  sps_progress_set_phase (progress, SPS_PROGRESS_PHASE_PARSING, "Parsing");
  sps_progress_set_fraction (progress, 0.75);
  g_assert_cmpuint (listener.n_changed, ==, 0);
  g_assert_cmpuint (listener.n_phase_notify, ==, 0);

  /* … but once from the main context, whatever the number of updates. */
  drain (NULL);
  g_assert_cmpuint (listener.n_changed, ==, 1);
  g_assert_cmpuint (listener.n_phase_notify, ==, 1);
  g_assert_cmpuint (listener.n_fraction_notify, ==, 1);
  g_assert_cmpuint (listener.n_message_notify, ==, 1);
  g_assert_cmpint (g_array_index (listener.phases, SpsProgressPhase, 0), ==, SPS_PROGRESS_PHASE_PARSING);
  g_assert_cmpstr (g_ptr_array_index (listener.messages, 0), ==, "Parsing");
  g_assert_cmpfloat (sps_progress_get_fraction (progress), ==, 0.75);

  /* Only what changed is notified. */
  sps_progress_set_fraction (progress, 0.75);
  drain (NULL);
  g_assert_cmpuint (listener.n_changed, ==, 1);

  sps_progress_set_fraction (progress, 0.8);
  drain (NULL);
  g_assert_cmpuint (listener.n_changed, ==, 2);
  g_assert_cmpuint (listener.n_phase_notify, ==, 1);
  g_assert_cmpuint (listener.n_fraction_notify, ==, 2);
  g_assert_cmpuint (listener.n_message_notify, ==, 1);

  g_assert_false (listener.wrong_thread);
  listener_clear (&listener, progress);
}

typedef struct
{
  SpsProgress *progress;
  GMutex       mutex;
  GCond        cond;
  guint        step;          /* the step the worker may do next */
} Worker;

static gpointer
worker_thread (gpointer data)
{
  Worker *worker = data;
  static const SpsProgressPhase phases[] = {
    SPS_PROGRESS_PHASE_READING,
    SPS_PROGRESS_PHASE_PARSING,
    SPS_PROGRESS_PHASE_INDEXING,
    SPS_PROGRESS_PHASE_DONE,
  };

  for (guint i = 0; i < G_N_ELEMENTS (phases); i++)
    {
      g_autofree char *message = g_strdup_printf ("step %u", i);

      /* Wait until the main thread saw the previous step. */
      g_mutex_lock (&worker->mutex);
      while (worker->step != i)
        g_cond_wait (&worker->cond, &worker->mutex);
      g_mutex_unlock (&worker->mutex);

      /* One update per step, so each step is exactly one "changed". */
      sps_progress_set_phase (worker->progress, phases[i], message);
    }

  return NULL;
}

static void
test_progress_from_worker_thread (void)
{
  g_autoptr(SpsProgress) progress = sps_progress_new (NULL);
  Worker worker = { progress };
  Listener listener;
  GThread *thread;

  listener_init (&listener, progress);
  g_mutex_init (&worker.mutex);
  g_cond_init (&worker.cond);

  thread = g_thread_new ("progress-worker", worker_thread, &worker);

  /* Every step is delivered on this thread, in order. */
  for (guint i = 0; i < 4; i++)
    {
      while (listener.n_changed < i + 1)
        g_main_context_iteration (NULL, TRUE);

      g_mutex_lock (&worker.mutex);
      worker.step = i + 1;
      g_cond_signal (&worker.cond);
      g_mutex_unlock (&worker.mutex);
    }

  g_thread_join (thread);
  drain (NULL);

  g_assert_false (listener.wrong_thread);
  g_assert_cmpuint (listener.phases->len, ==, 4);
  g_assert_cmpint (g_array_index (listener.phases, SpsProgressPhase, 0), ==, SPS_PROGRESS_PHASE_READING);
  g_assert_cmpint (g_array_index (listener.phases, SpsProgressPhase, 1), ==, SPS_PROGRESS_PHASE_PARSING);
  g_assert_cmpint (g_array_index (listener.phases, SpsProgressPhase, 2), ==, SPS_PROGRESS_PHASE_INDEXING);
  g_assert_cmpint (g_array_index (listener.phases, SpsProgressPhase, 3), ==, SPS_PROGRESS_PHASE_DONE);
  g_assert_cmpstr (g_ptr_array_index (listener.messages, 3), ==, "step 3");
  g_assert_cmpfloat (sps_progress_get_fraction (progress), ==, 1.0);

  g_mutex_clear (&worker.mutex);
  g_cond_clear (&worker.cond);
  listener_clear (&listener, progress);
}

static void
test_progress_creation_context (void)
{
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(SpsProgress) progress = NULL;
  Listener listener;

  /* A progress made while another context is the thread default reports
   * there, and not on the global default context. */
  g_main_context_push_thread_default (context);
  progress = sps_progress_new (NULL);
  g_main_context_pop_thread_default (context);

  listener_init (&listener, progress);
  sps_progress_set_phase (progress, SPS_PROGRESS_PHASE_PARSING, NULL);

  drain (NULL);
  g_assert_cmpuint (listener.n_changed, ==, 0);

  drain (context);
  g_assert_cmpuint (listener.n_changed, ==, 1);

  listener_clear (&listener, progress);
}

static void
test_progress_unref_pending (void)
{
  g_autoptr(GMainContext) context = g_main_context_new ();
  SpsProgress *progress;
  GWeakRef weak;

  g_main_context_push_thread_default (context);
  progress = sps_progress_new (NULL);
  g_main_context_pop_thread_default (context);

  sps_progress_set_phase (progress, SPS_PROGRESS_PHASE_READING, "Reading");
  g_weak_ref_init (&weak, progress);

  /* A pending notification does not keep the progress alive … */
  g_object_unref (progress);
  g_assert_null (g_weak_ref_get (&weak));

  /* … and does nothing once it runs. */
  drain (context);
  g_weak_ref_clear (&weak);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/progress/defaults", test_progress_defaults);
  g_test_add_func ("/core/progress/cancellable", test_progress_cancellable);
  g_test_add_func ("/core/progress/phase-resets-fraction", test_progress_phase_resets_fraction);
  g_test_add_func ("/core/progress/fraction-clamped", test_progress_fraction_clamped);
  g_test_add_func ("/core/progress/coalesced", test_progress_coalesced);
  g_test_add_func ("/core/progress/from-worker-thread", test_progress_from_worker_thread);
  g_test_add_func ("/core/progress/creation-context", test_progress_creation_context);
  g_test_add_func ("/core/progress/unref-pending", test_progress_unref_pending);

  return g_test_run ();
}
