/* sps-progress.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-progress"

#include "config.h"

#include <math.h>

#include "sps-core-enums.h"
#include "sps-progress.h"

/**
 * SpsProgress:
 *
 * Reports the state of a long operation (phase, fraction of the phase done,
 * a short message) and carries the cancellable that stops it.
 *
 * The setters may be called from any thread: a worker thread updates the
 * state while the thread that created the object listens. Listeners are
 * never called from the worker: every update only marks the state dirty and
 * makes sure one idle source is pending on the main context that was the
 * thread default when the progress was created. That idle emits
 * #GObject::notify for the properties that changed and then
 * #SpsProgress::changed, once for any number of updates made in between, so
 * a worker may report as often as it likes without flooding the main loop.
 * A listener may therefore see fewer phases than were set, but never out
 * of order.
 *
 * The idle runs at %G_PRIORITY_DEFAULT_IDLE so that a busy worker cannot
 * starve drawing; the last notification of an operation may thus arrive
 * after the operation's own completion callback.
 */

typedef enum
{
  DIRTY_PHASE    = 1 << 0,
  DIRTY_FRACTION = 1 << 1,
  DIRTY_MESSAGE  = 1 << 2,
} DirtyFlags;

struct _SpsProgress
{
  GObject           parent_instance;

  /* Set during construction, read-only afterwards */
  GMainContext     *context;
  GCancellable     *cancellable;

  /* Everything below is guarded by mutex */
  GMutex            mutex;
  SpsProgressPhase  phase;
  double            fraction;
  char             *message;
  GSource          *idle;
  guint             dirty;
};

G_DEFINE_FINAL_TYPE (SpsProgress, sps_progress, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_CANCELLABLE,
  PROP_FRACTION,
  PROP_MESSAGE,
  PROP_PHASE,
  N_PROPS
};

enum {
  CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
weak_ref_free (gpointer data)
{
  GWeakRef *weak = data;

  g_weak_ref_clear (weak);
  g_free (weak);
}

static gboolean
sps_progress_dispatch (gpointer user_data)
{
  GWeakRef *weak = user_data;
  g_autoptr(SpsProgress) self = NULL;
  guint dirty;

  g_assert (weak != NULL);

  /* The idle only holds a weak reference, so dropping the last reference
   * to a progress never waits for its main context to be iterated. */
  self = g_weak_ref_get (weak);
  if (self == NULL)
    return G_SOURCE_REMOVE;

  g_mutex_lock (&self->mutex);
  dirty = self->dirty;
  self->dirty = 0;
  g_clear_pointer (&self->idle, g_source_unref);
  g_mutex_unlock (&self->mutex);

  if (dirty == 0)
    return G_SOURCE_REMOVE;

  g_object_freeze_notify (G_OBJECT (self));
  if (dirty & DIRTY_PHASE)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PHASE]);
  if (dirty & DIRTY_FRACTION)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRACTION]);
  if (dirty & DIRTY_MESSAGE)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MESSAGE]);
  g_object_thaw_notify (G_OBJECT (self));

  g_signal_emit (self, signals[CHANGED], 0);

  return G_SOURCE_REMOVE;
}

/* Called with the mutex held. */
static void
sps_progress_queue_locked (SpsProgress *self,
                           guint        dirty)
{
  GWeakRef *weak;
  GSource *source;

  g_assert (SPS_IS_PROGRESS (self));

  if (dirty == 0)
    return;

  self->dirty |= dirty;

  if (self->idle != NULL)
    return;

  weak = g_new0 (GWeakRef, 1);
  g_weak_ref_init (weak, self);

  source = g_idle_source_new ();
  g_source_set_priority (source, G_PRIORITY_DEFAULT_IDLE);
  g_source_set_static_name (source, "[sps-progress]");
  g_source_set_callback (source, sps_progress_dispatch, weak, weak_ref_free);
  self->idle = source;
  g_source_attach (source, self->context);
}

static void
sps_progress_constructed (GObject *object)
{
  SpsProgress *self = (SpsProgress *)object;

  G_OBJECT_CLASS (sps_progress_parent_class)->constructed (object);

  if (self->cancellable == NULL)
    self->cancellable = g_cancellable_new ();
}

static void
sps_progress_finalize (GObject *object)
{
  SpsProgress *self = (SpsProgress *)object;

  if (self->idle != NULL)
    {
      g_source_destroy (self->idle);
      g_clear_pointer (&self->idle, g_source_unref);
    }

  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_clear_pointer (&self->message, g_free);
  g_mutex_clear (&self->mutex);

  G_OBJECT_CLASS (sps_progress_parent_class)->finalize (object);
}

static void
sps_progress_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  SpsProgress *self = SPS_PROGRESS (object);

  switch (prop_id)
    {
    case PROP_CANCELLABLE:
      g_value_set_object (value, self->cancellable);
      break;

    case PROP_FRACTION:
      g_value_set_double (value, sps_progress_get_fraction (self));
      break;

    case PROP_MESSAGE:
      g_value_take_string (value, sps_progress_dup_message (self));
      break;

    case PROP_PHASE:
      g_value_set_enum (value, sps_progress_get_phase (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sps_progress_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  SpsProgress *self = SPS_PROGRESS (object);

  switch (prop_id)
    {
    case PROP_CANCELLABLE:
      self->cancellable = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sps_progress_class_init (SpsProgressClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = sps_progress_constructed;
  object_class->finalize = sps_progress_finalize;
  object_class->get_property = sps_progress_get_property;
  object_class->set_property = sps_progress_set_property;

  /**
   * SpsProgress:cancellable:
   *
   * The cancellable that stops the operation. One is created when none is
   * given at construction.
   */
  properties[PROP_CANCELLABLE] =
    g_param_spec_object ("cancellable", NULL, NULL,
                         G_TYPE_CANCELLABLE,
                         (G_PARAM_READWRITE |
                          G_PARAM_CONSTRUCT_ONLY |
                          G_PARAM_STATIC_STRINGS));

  /**
   * SpsProgress:fraction:
   *
   * How much of the current phase is done, from 0 to 1.
   */
  properties[PROP_FRACTION] =
    g_param_spec_double ("fraction", NULL, NULL,
                         0.0, 1.0, 0.0,
                         (G_PARAM_READABLE |
                          G_PARAM_EXPLICIT_NOTIFY |
                          G_PARAM_STATIC_STRINGS));

  /**
   * SpsProgress:message:
   *
   * A short description of what is being done, or %NULL.
   */
  properties[PROP_MESSAGE] =
    g_param_spec_string ("message", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE |
                          G_PARAM_EXPLICIT_NOTIFY |
                          G_PARAM_STATIC_STRINGS));

  /**
   * SpsProgress:phase:
   *
   * The current phase.
   */
  properties[PROP_PHASE] =
    g_param_spec_enum ("phase", NULL, NULL,
                       SPS_TYPE_PROGRESS_PHASE,
                       SPS_PROGRESS_PHASE_NONE,
                       (G_PARAM_READABLE |
                        G_PARAM_EXPLICIT_NOTIFY |
                        G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * SpsProgress::changed:
   * @self: the progress
   *
   * Emitted on the main context the progress was created in, after one or
   * more updates, once the notifications of the changed properties have
   * been emitted.
   */
  signals[CHANGED] =
    g_signal_new ("changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 0);
}

static void
sps_progress_init (SpsProgress *self)
{
  g_mutex_init (&self->mutex);
  self->context = g_main_context_ref_thread_default ();
  self->phase = SPS_PROGRESS_PHASE_NONE;
}

/**
 * sps_progress_new:
 * @cancellable: (nullable): the cancellable of the operation, or %NULL to
 *   create one
 *
 * Creates a progress whose notifications are delivered on the calling
 * thread's default main context.
 *
 * Returns: (transfer full): a new #SpsProgress
 */
SpsProgress *
sps_progress_new (GCancellable *cancellable)
{
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);

  return g_object_new (SPS_TYPE_PROGRESS,
                       "cancellable", cancellable,
                       NULL);
}

/**
 * sps_progress_get_cancellable:
 * @self: a #SpsProgress
 *
 * Returns: (transfer none): the cancellable of the operation
 */
GCancellable *
sps_progress_get_cancellable (SpsProgress *self)
{
  g_return_val_if_fail (SPS_IS_PROGRESS (self), NULL);

  return self->cancellable;
}

/**
 * sps_progress_cancel:
 * @self: a #SpsProgress
 *
 * Cancels the operation. May be called from any thread.
 */
void
sps_progress_cancel (SpsProgress *self)
{
  g_return_if_fail (SPS_IS_PROGRESS (self));

  g_cancellable_cancel (self->cancellable);
}

/**
 * sps_progress_is_cancelled:
 * @self: a #SpsProgress
 *
 * Returns: %TRUE once the operation was cancelled
 */
gboolean
sps_progress_is_cancelled (SpsProgress *self)
{
  g_return_val_if_fail (SPS_IS_PROGRESS (self), FALSE);

  return g_cancellable_is_cancelled (self->cancellable);
}

/**
 * sps_progress_set_phase:
 * @self: a #SpsProgress
 * @phase: the new phase
 * @message: (nullable): what is being done, or %NULL for no message
 *
 * Enters @phase and replaces the message. Entering a different phase
 * resets the fraction to 0, or sets it to 1 for
 * %SPS_PROGRESS_PHASE_DONE. May be called from any thread.
 */
void
sps_progress_set_phase (SpsProgress      *self,
                        SpsProgressPhase  phase,
                        const char       *message)
{
  guint dirty = 0;

  g_return_if_fail (SPS_IS_PROGRESS (self));
  g_return_if_fail (phase >= SPS_PROGRESS_PHASE_NONE && phase <= SPS_PROGRESS_PHASE_DONE);

  g_mutex_lock (&self->mutex);

  if (self->phase != phase)
    {
      double fraction = phase == SPS_PROGRESS_PHASE_DONE ? 1.0 : 0.0;

      self->phase = phase;
      dirty |= DIRTY_PHASE;

      if (self->fraction != fraction)
        {
          self->fraction = fraction;
          dirty |= DIRTY_FRACTION;
        }
    }

  if (g_strcmp0 (self->message, message) != 0)
    {
      g_free (self->message);
      self->message = g_strdup (message);
      dirty |= DIRTY_MESSAGE;
    }

  sps_progress_queue_locked (self, dirty);

  g_mutex_unlock (&self->mutex);
}

/**
 * sps_progress_set_fraction:
 * @self: a #SpsProgress
 * @fraction: how much of the current phase is done, clamped to [0, 1]
 *
 * May be called from any thread, as often as convenient: notifications
 * are coalesced.
 */
void
sps_progress_set_fraction (SpsProgress *self,
                           double       fraction)
{
  g_return_if_fail (SPS_IS_PROGRESS (self));
  g_return_if_fail (!isnan (fraction));

  fraction = CLAMP (fraction, 0.0, 1.0);

  g_mutex_lock (&self->mutex);
  if (self->fraction != fraction)
    {
      self->fraction = fraction;
      sps_progress_queue_locked (self, DIRTY_FRACTION);
    }
  g_mutex_unlock (&self->mutex);
}

/**
 * sps_progress_get_phase:
 * @self: a #SpsProgress
 *
 * Returns: the latest phase set, from any thread
 */
SpsProgressPhase
sps_progress_get_phase (SpsProgress *self)
{
  SpsProgressPhase phase;

  g_return_val_if_fail (SPS_IS_PROGRESS (self), SPS_PROGRESS_PHASE_NONE);

  g_mutex_lock (&self->mutex);
  phase = self->phase;
  g_mutex_unlock (&self->mutex);

  return phase;
}

/**
 * sps_progress_get_fraction:
 * @self: a #SpsProgress
 *
 * Returns: the latest fraction set, from 0 to 1
 */
double
sps_progress_get_fraction (SpsProgress *self)
{
  double fraction;

  g_return_val_if_fail (SPS_IS_PROGRESS (self), 0.0);

  g_mutex_lock (&self->mutex);
  fraction = self->fraction;
  g_mutex_unlock (&self->mutex);

  return fraction;
}

/**
 * sps_progress_dup_message:
 * @self: a #SpsProgress
 *
 * Returns: (transfer full) (nullable): a copy of the latest message
 */
char *
sps_progress_dup_message (SpsProgress *self)
{
  char *message;

  g_return_val_if_fail (SPS_IS_PROGRESS (self), NULL);

  g_mutex_lock (&self->mutex);
  message = g_strdup (self->message);
  g_mutex_unlock (&self->mutex);

  return message;
}
