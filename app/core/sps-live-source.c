/* sps-live-source.c: a device or stream that appends to a live trace
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-live-source"

#include "config.h"

#include "sps-live-source.h"

G_DEFINE_QUARK (sps-live-source-error-quark, sps_live_source_error)

G_DEFINE_INTERFACE (SpsLiveSource, sps_live_source, G_TYPE_OBJECT)

enum {
  DATA,
  ENDED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
sps_live_source_default_init (SpsLiveSourceInterface *iface)
{
  /**
   * SpsLiveSource::data:
   * @self: the source
   * @bytes: the bytes that arrived, unchanged
   *
   * Emitted in the main context the source was started in.
   */
  signals[DATA] =
    g_signal_new ("data",
                  G_TYPE_FROM_INTERFACE (iface),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_BYTES);

  /**
   * SpsLiveSource::ended:
   * @self: the source
   * @error: (nullable): why, or %NULL when stopped or at a clean end of
   *   the stream (EOF, the device was unplugged)
   *
   * Emitted once when the source stops delivering data. Everything
   * received before stays valid.
   */
  signals[ENDED] =
    g_signal_new ("ended",
                  G_TYPE_FROM_INTERFACE (iface),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_ERROR);
}

/**
 * sps_live_source_get_name:
 * @self: a #SpsLiveSource
 *
 * Returns: (transfer none): a name to show
 */
const char *
sps_live_source_get_name (SpsLiveSource *self)
{
  SpsLiveSourceInterface *iface;

  g_return_val_if_fail (SPS_IS_LIVE_SOURCE (self), NULL);

  iface = SPS_LIVE_SOURCE_GET_IFACE (self);
  return iface->get_name != NULL ? iface->get_name (self) : G_OBJECT_TYPE_NAME (self);
}

/**
 * sps_live_source_start:
 * @self: a #SpsLiveSource
 * @error: return location for a %SPS_LIVE_SOURCE_ERROR
 *
 * Starts reading in the thread-default main context.
 *
 * Returns: %TRUE if the source runs
 */
gboolean
sps_live_source_start (SpsLiveSource  *self,
                       GError        **error)
{
  SpsLiveSourceInterface *iface;

  g_return_val_if_fail (SPS_IS_LIVE_SOURCE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  iface = SPS_LIVE_SOURCE_GET_IFACE (self);
  g_return_val_if_fail (iface->start != NULL, FALSE);

  return iface->start (self, error);
}

/**
 * sps_live_source_stop:
 * @self: a #SpsLiveSource
 *
 * Stops reading; the source emits #SpsLiveSource::ended unless it ended
 * already.
 */
void
sps_live_source_stop (SpsLiveSource *self)
{
  SpsLiveSourceInterface *iface;

  g_return_if_fail (SPS_IS_LIVE_SOURCE (self));

  iface = SPS_LIVE_SOURCE_GET_IFACE (self);
  if (iface->stop != NULL)
    iface->stop (self);
}

/**
 * sps_live_source_emit_data:
 * @self: a #SpsLiveSource
 * @bytes: what arrived
 *
 * For implementations: delivers @bytes to the consumers.
 */
void
sps_live_source_emit_data (SpsLiveSource *self,
                           GBytes        *bytes)
{
  g_return_if_fail (SPS_IS_LIVE_SOURCE (self));
  g_return_if_fail (bytes != NULL);

  g_signal_emit (self, signals[DATA], 0, bytes);
}

/**
 * sps_live_source_emit_ended:
 * @self: a #SpsLiveSource
 * @error: (nullable): why the source ended, %NULL for a clean end
 *
 * For implementations: tells the consumers that no more data comes.
 */
void
sps_live_source_emit_ended (SpsLiveSource *self,
                            const GError  *error)
{
  g_return_if_fail (SPS_IS_LIVE_SOURCE (self));

  g_signal_emit (self, signals[ENDED], 0, error);
}
