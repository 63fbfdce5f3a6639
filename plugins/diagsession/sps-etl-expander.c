/* sps-etl-expander.c: an ETL file's compressed buffers expanded ahead of
 * their reading, on a thread of their own
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Expanding a compressed buffer is about a third of an import's work and
 * needs nothing the reading of the records learns, so a second core can
 * do it while the records of the buffers before are read. The thread
 * walks the buffers as the reader does (sps_etl_buffer_classify() takes
 * the same decisions for both) and fills a ring of slots in file order;
 * the reader takes them in the same order. A buffer the thread did not
 * expand (it stopped, or could not start) is expanded by the reader
 * itself, so what the reader gets never depends on the thread's timing.
 */

#define G_LOG_DOMAIN "sps-etl"

#include "config.h"

#include "sps-etl-buffer-private.h"
#include "sps-etl-expander.h"
#include "sps-etl-private.h"

/* How far ahead the thread may run: in buffers, and in bytes held (a
 * crafted file's buffers may each claim SPS_ETL_MAX_EXPANDED_SIZE; one
 * such buffer at a time is then held, as without the thread) */
#define N_SLOTS      8
#define AHEAD_BYTES  ((gsize) 8 << 20)

/* A slot's memory above this is given back once a smaller buffer reuses it */
#define KEEP_BYTES   ((gsize) 1 << 20)

typedef struct
{
  gsize   offset;     /* of the buffer in the file */
  guint8 *data;
  gsize   capacity;
  gssize  got;        /* bytes expanded, or -1 with @error */
  GError *error;
} Slot;

struct _SpsEtlExpander
{
  const guint8         *data;
  gsize                 len;
  gsize                 start;
  guint32               compression;
  SpsEtlDecompressFunc  decompress;

  GThread              *thread;
  GMutex                lock;
  GCond                 cond;
  Slot                  slots[N_SLOTS];
  guint                 head;        /* the oldest filled slot */
  guint                 n_filled;    /* the one the reader holds included */
  gsize                 held_bytes;  /* the filled slots' capacity */
  gboolean              holding;     /* the reader holds slots[head] */
  gboolean              done;        /* the thread has stopped */
  gboolean              stop;        /* asked to stop */
  guint64               n_ahead;     /* buffers the reader took from the thread */

  /* For a buffer the thread did not expand */
  Slot                  own;
};

static gssize
expand_into (SpsEtlExpander *self,
             Slot           *slot,
             gsize           offset,
             guint32         size,
             gsize           out_len)
{
  /* Reused as it is unless too small, or large enough to be worth giving
   * back for a smaller buffer. Mapped, not from the allocator: this
   * thread's malloc arena would keep what it freed resident after the
   * import. */
  if (slot->capacity < out_len || (slot->capacity > KEEP_BYTES && slot->capacity > out_len))
    {
      sps_etl_block_free (slot->data, slot->capacity);
      slot->data = out_len > 0 ? sps_etl_block_new (out_len) : NULL;
      slot->capacity = out_len;
    }
  g_clear_error (&slot->error);
  slot->offset = offset;
  slot->got = self->decompress (self->compression, self->data + offset + SPS_ETL_BUFFER_HEADER_SIZE,
                                size - SPS_ETL_BUFFER_HEADER_SIZE, slot->data, out_len, &slot->error);
  return slot->got;
}

static gpointer
expand_ahead (gpointer user_data)
{
  SpsEtlExpander *self = user_data;
  gsize offset = self->start;

  while (self->len - offset >= SPS_ETL_BUFFER_HEADER_SIZE)
    {
      const guint8 *b = self->data + offset;
      guint32 size;
      gsize out_len;
      SpsEtlBufferKind kind = sps_etl_buffer_classify (b, self->len - offset, TRUE, &size, &out_len);

      if (kind == SPS_ETL_BUFFER_BAD_SIZE || kind == SPS_ETL_BUFFER_CUT)
        break;

      if (kind == SPS_ETL_BUFFER_COMPRESSED)
        {
          Slot *slot;

          g_mutex_lock (&self->lock);
          while (!self->stop &&
                 (self->n_filled == N_SLOTS ||
                  (self->n_filled > 0 && self->held_bytes + MAX (out_len, KEEP_BYTES) > AHEAD_BYTES)))
            g_cond_wait (&self->cond, &self->lock);
          if (self->stop)
            {
              g_mutex_unlock (&self->lock);
              break;
            }
          /* Not filled, so the reader does not look at it */
          slot = &self->slots[(self->head + self->n_filled) % N_SLOTS];
          g_mutex_unlock (&self->lock);

          expand_into (self, slot, offset, size, out_len);

          g_mutex_lock (&self->lock);
          self->n_filled++;
          self->held_bytes += slot->capacity;
          g_cond_broadcast (&self->cond);
          g_mutex_unlock (&self->lock);
        }

      /* A plain buffer cut by the end of the file ends the walk */
      if (size > self->len - offset)
        break;
      offset += size;
    }

  g_mutex_lock (&self->lock);
  self->done = TRUE;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
  return NULL;
}

/**
 * sps_etl_expander_new:
 * @data: (array length=len): the whole file
 * @len: its size
 * @start: the offset of the first buffer to expand (the one after the
 *   trace header's)
 * @compression: the file's compression (its header's)
 * @decompress: what expands a buffer; called on the expander's thread
 * @threaded: whether to expand ahead on a thread (else each buffer is
 *   expanded when taken)
 *
 * Returns: (transfer full): a new expander; @data must outlive it
 */
SpsEtlExpander *
sps_etl_expander_new (const guint8         *data,
                      gsize                 len,
                      gsize                 start,
                      guint32               compression,
                      SpsEtlDecompressFunc  decompress,
                      gboolean              threaded)
{
  SpsEtlExpander *self;

  g_return_val_if_fail (data != NULL || len == 0, NULL);
  g_return_val_if_fail (start <= len, NULL);
  g_return_val_if_fail (decompress != NULL, NULL);

  self = g_new0 (SpsEtlExpander, 1);
  self->data = data;
  self->len = len;
  self->start = start;
  self->compression = compression;
  self->decompress = decompress;
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  if (threaded)
    self->thread = g_thread_try_new ("etl-expand", expand_ahead, self, NULL);
  if (self->thread == NULL)
    self->done = TRUE;
  return self;
}

/* Called with the lock held */
static void
release_head (SpsEtlExpander *self)
{
  Slot *slot = &self->slots[self->head];

  g_clear_error (&slot->error);
  self->held_bytes -= slot->capacity;
  self->head = (self->head + 1) % N_SLOTS;
  self->n_filled--;
  g_cond_broadcast (&self->cond);
}

/**
 * sps_etl_expander_take:
 * @self: an expander
 * @offset: the offset of a compressed buffer (one that
 *   sps_etl_buffer_classify() calls so), after those taken before
 * @out: (out) (transfer none): its expanded records, valid until the next
 *   call or sps_etl_expander_free()
 * @error: what the decompressor found wrong
 *
 * Returns: the number of bytes expanded into @out, or -1 with @error set
 */
gssize
sps_etl_expander_take (SpsEtlExpander  *self,
                       gsize            offset,
                       const guint8   **out,
                       GError         **error)
{
  Slot *slot = NULL;
  guint32 size;
  gsize out_len;

  g_return_val_if_fail (self != NULL, -1);
  g_return_val_if_fail (offset < self->len && self->len - offset >= SPS_ETL_BUFFER_HEADER_SIZE, -1);

  g_mutex_lock (&self->lock);
  if (self->holding)
    {
      release_head (self);
      self->holding = FALSE;
    }
  for (;;)
    {
      while (self->n_filled == 0 && !self->done)
        g_cond_wait (&self->cond, &self->lock);
      /* Buffers the reader went past, had the walks parted */
      if (self->n_filled > 0 && self->slots[self->head].offset < offset)
        {
          release_head (self);
          continue;
        }
      break;
    }
  if (self->n_filled > 0 && self->slots[self->head].offset == offset)
    {
      slot = &self->slots[self->head];
      self->holding = TRUE;
      self->n_ahead++;
    }
  g_mutex_unlock (&self->lock);

  if (slot == NULL)
    {
      if (sps_etl_buffer_classify (self->data + offset, self->len - offset, TRUE,
                                   &size, &out_len) != SPS_ETL_BUFFER_COMPRESSED)
        g_return_val_if_reached (-1);
      slot = &self->own;
      expand_into (self, slot, offset, size, out_len);
    }

  *out = slot->data;
  if (slot->got < 0)
    {
      g_propagate_error (error, g_steal_pointer (&slot->error));
      return -1;
    }
  return slot->got;
}

/**
 * sps_etl_expander_get_n_ahead:
 * @self: an expander
 *
 * Returns: how many of the buffers taken the thread had expanded
 */
guint64
sps_etl_expander_get_n_ahead (SpsEtlExpander *self)
{
  guint64 n;

  g_return_val_if_fail (self != NULL, 0);

  g_mutex_lock (&self->lock);
  n = self->n_ahead;
  g_mutex_unlock (&self->lock);
  return n;
}

/**
 * sps_etl_expander_free:
 * @self: (transfer full): an expander
 *
 * Stops its thread (after the buffer it is expanding, if any) and frees it.
 */
void
sps_etl_expander_free (SpsEtlExpander *self)
{
  if (self == NULL)
    return;

  if (self->thread != NULL)
    {
      g_mutex_lock (&self->lock);
      self->stop = TRUE;
      g_cond_broadcast (&self->cond);
      g_mutex_unlock (&self->lock);
      g_thread_join (self->thread);
    }
  for (guint i = 0; i < N_SLOTS; i++)
    {
      sps_etl_block_free (self->slots[i].data, self->slots[i].capacity);
      g_clear_error (&self->slots[i].error);
    }
  sps_etl_block_free (self->own.data, self->own.capacity);
  g_clear_error (&self->own.error);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);
  g_free (self);
}
