/* sps-sql-stream.c: the rows of a running query, handed out as they come
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The engine's worker appends each row to the statement's result as
 * usual; the stream copies the rows added since its last batch into a new
 * result and posts it to the caller's main context: the first batch as
 * soon as there are a few rows (or a little time has passed), then one
 * every FLUSH_MS, so that a viewer fills while the statement runs without
 * being flooded with callbacks.
 */

#define G_LOG_DOMAIN "sps-sql"

#include "config.h"

#include "sps-sql-private.h"

/* The first batch: after this many rows or this long, whichever first */
#define FIRST_ROWS     64
#define FIRST_MS       20
#define FLUSH_MS       100

struct _SpsSqlStream
{
  GMainContext   *context;
  SpsSqlRowsFunc  func;
  gpointer        data;
  GDestroyNotify  destroy;

  /* Worker side only */
  SpsSqlResult   *current;
  guint           flushed;
  gint64          started;
  gint64          last_flush;
};

typedef struct
{
  SpsSqlStream *stream;
  SpsSqlResult *rows;
  guint         first;
} Batch;

static void
stream_clear (SpsSqlStream *stream)
{
  g_assert (stream != NULL);

  if (stream->destroy != NULL)
    stream->destroy (stream->data);
  g_clear_object (&stream->current);
  g_main_context_unref (stream->context);
}

SpsSqlStream *
_sps_sql_stream_new (SpsSqlRowsFunc func,
                     gpointer       data,
                     GDestroyNotify destroy)
{
  SpsSqlStream *stream = g_atomic_rc_box_new0 (SpsSqlStream);

  g_assert (func != NULL);

  stream->context = g_main_context_ref_thread_default ();
  stream->func = func;
  stream->data = data;
  stream->destroy = destroy;
  return stream;
}

void
_sps_sql_stream_unref (SpsSqlStream *stream)
{
  g_atomic_rc_box_release_full (stream, (GDestroyNotify) stream_clear);
}

static gboolean
deliver (gpointer user_data)
{
  Batch *batch = user_data;

  g_assert (batch != NULL);

  batch->stream->func (batch->rows, batch->first, batch->stream->data);
  return G_SOURCE_REMOVE;
}

static void
batch_free (gpointer user_data)
{
  Batch *batch = user_data;

  g_assert (batch != NULL);

  g_object_unref (batch->rows);
  _sps_sql_stream_unref (batch->stream);
  g_free (batch);
}

/* A new statement with columns starts: its rows restart at 0 */
void
_sps_sql_stream_begin (SpsSqlStream *stream,
                       SpsSqlResult *result)
{
  g_assert (stream != NULL);
  g_assert (SPS_IS_SQL_RESULT (result));

  g_set_object (&stream->current, result);
  stream->flushed = 0;
  stream->started = stream->last_flush = g_get_monotonic_time ();
}

static void
flush (SpsSqlStream *stream,
       gint64        now)
{
  guint n;
  Batch *batch;

  g_assert (stream != NULL);

  n = sps_sql_result_get_n_rows (stream->current);
  if (n == stream->flushed)
    return;

  batch = g_new0 (Batch, 1);
  batch->stream = g_atomic_rc_box_acquire (stream);
  batch->rows = _sps_sql_result_copy_rows (stream->current, stream->flushed, n - stream->flushed);
  batch->first = stream->flushed;
  stream->flushed = n;
  stream->last_flush = now;
  g_main_context_invoke_full (stream->context, G_PRIORITY_DEFAULT, deliver, batch, batch_free);
}

/* After each row of the current statement */
void
_sps_sql_stream_row_added (SpsSqlStream *stream)
{
  gint64 now;
  guint n;

  g_assert (stream != NULL);
  g_assert (stream->current != NULL);

  n = sps_sql_result_get_n_rows (stream->current);
  now = g_get_monotonic_time ();
  if (stream->flushed == 0
      ? n >= FIRST_ROWS || now - stream->started >= FIRST_MS * 1000
      : now - stream->last_flush >= FLUSH_MS * 1000)
    flush (stream, now);
}
