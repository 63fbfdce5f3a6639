/* sps-etl-expander.c: an ETL file's compressed buffers expanded ahead of
 * their reading, on a thread of their own
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Expanding a compressed buffer is about a third of an import's work and
 * needs nothing the reading of the records learns, so a second core can
 * do it while the records of the buffers before are read. The thread and
 * the reader share one walk over the buffers (sps_etl_buffer_classify()
 * takes the reader's decisions): whoever claims the next compressed
 * buffer expands it into a slot of a ring, and the reader takes the slots
 * in file order. The reader expands a buffer itself when it is not
 * claimed yet (the thread is behind, or could not start), and a later
 * one rather than wait for the thread, so what it gets never depends on
 * the thread's timing.
 */

#define G_LOG_DOMAIN "sps-etl"

#include "config.h"

#include "sps-etl-buffer-private.h"
#include "sps-etl-expander.h"
#include "sps-etl-private.h"

/* How far ahead of the reader buffers may be expanded: in buffers, and in
 * bytes (a crafted file's buffers may each claim
 * SPS_ETL_MAX_EXPANDED_SIZE; one such buffer at a time is then expanded,
 * as without the thread) */
#define N_SLOTS      8
#define AHEAD_BYTES  ((gsize) 8 << 20)

/* A slot's memory above this is given back once a smaller buffer reuses it */
#define KEEP_BYTES   ((gsize) 1 << 20)

typedef enum
{
  SLOT_FREE,
  SLOT_WORKING,     /* claimed, being expanded */
  SLOT_READY,
} SlotState;

typedef struct
{
  SlotState state;
  gsize     offset;     /* of the buffer in the file */
  guint32   size;
  gsize     out_len;
  gsize     charged;    /* what it counts against AHEAD_BYTES */
  gboolean  by_thread;
  guint8   *data;
  gsize     capacity;
  gssize    got;        /* bytes expanded, or -1 with @error */
  GError   *error;
} Slot;

struct _SpsEtlExpander
{
  const guint8         *data;
  gsize                 len;
  guint32               compression;
  SpsEtlDecompressFunc  decompress;

  GThread              *thread;
  GMutex                lock;
  GCond                 cond;
  /* The walk over the buffers, shared by the thread and the reader: the
   * next buffer to claim is looked for from @cursor */
  gsize                 cursor;
  gboolean              walked;      /* the walk reached its end */
  guint64               next_seq;    /* of the next claim */
  guint64               want_seq;    /* of the next buffer the reader takes */
  gboolean              holding;     /* the reader holds want_seq − 1's slot */
  gsize                 charged;     /* of the slots in use */
  gboolean              stop;        /* the thread is asked to stop */
  gboolean              parted;      /* a buffer taken was not the next claimed */
  Slot                  slots[N_SLOTS];
  guint64               n_ahead;     /* buffers taken that the thread expanded */

  /* For a buffer taken out of the walk's order */
  Slot                  own;
};

static void
expand_into (SpsEtlExpander *self,
             Slot           *slot)
{
  /* Reused as it is unless too small, or large enough to be worth giving
   * back for a smaller buffer. Mapped, not from the allocator: the
   * thread's malloc arena would keep what it freed resident after the
   * import. */
  if (slot->capacity < slot->out_len || (slot->capacity > KEEP_BYTES && slot->capacity > slot->out_len))
    {
      sps_etl_block_free (slot->data, slot->capacity);
      slot->data = slot->out_len > 0 ? sps_etl_block_new (slot->out_len) : NULL;
      slot->capacity = slot->out_len;
    }
  g_clear_error (&slot->error);
  slot->got = self->decompress (self->compression, self->data + slot->offset + SPS_ETL_BUFFER_HEADER_SIZE,
                                slot->size - SPS_ETL_BUFFER_HEADER_SIZE, slot->data, slot->out_len,
                                &slot->error);
}

/* Called with the lock held: claims the next compressed buffer of the walk
 * for expanding, or returns NULL when the walk has ended or the buffer
 * would be too far ahead of the reader */
static Slot *
claim (SpsEtlExpander *self)
{
  while (!self->walked)
    {
      const guint8 *b = self->data + self->cursor;
      gsize left = self->len - self->cursor;
      guint64 first_in_use = self->holding ? self->want_seq - 1 : self->want_seq;
      guint64 in_use = self->next_seq - first_in_use;
      SpsEtlBufferKind kind;
      guint32 size;
      gsize out_len;
      Slot *slot;

      if (left < SPS_ETL_BUFFER_HEADER_SIZE)
        break;
      kind = sps_etl_buffer_classify (b, left, TRUE, &size, &out_len);
      if (kind == SPS_ETL_BUFFER_BAD_SIZE || kind == SPS_ETL_BUFFER_CUT)
        break;
      if (kind != SPS_ETL_BUFFER_COMPRESSED)
        {
          /* A plain buffer cut by the end of the file ends the walk */
          if (size > left)
            break;
          self->cursor += size;
          continue;
        }

      if (in_use == N_SLOTS || (in_use > 0 && self->charged + MAX (out_len, KEEP_BYTES) > AHEAD_BYTES))
        return NULL;

      slot = &self->slots[self->next_seq % N_SLOTS];
      g_assert (slot->state == SLOT_FREE);
      slot->state = SLOT_WORKING;
      self->next_seq++;
      slot->offset = self->cursor;
      slot->size = size;
      slot->out_len = out_len;
      slot->charged = MAX (out_len, KEEP_BYTES);
      self->charged += slot->charged;
      self->cursor += size;
      return slot;
    }
  self->walked = TRUE;
  return NULL;
}

/* Called with the lock held: expands @slot with the lock released */
static void
expand_unlocked (SpsEtlExpander *self,
                 Slot           *slot,
                 gboolean        by_thread)
{
  g_mutex_unlock (&self->lock);
  expand_into (self, slot);
  g_mutex_lock (&self->lock);
  slot->by_thread = by_thread;
  slot->state = SLOT_READY;
  g_cond_broadcast (&self->cond);
}

static gpointer
expand_ahead (gpointer user_data)
{
  SpsEtlExpander *self = user_data;

  g_mutex_lock (&self->lock);
  while (!self->stop)
    {
      Slot *slot = claim (self);

      if (slot != NULL)
        expand_unlocked (self, slot, TRUE);
      else if (self->walked)
        break;
      else
        g_cond_wait (&self->cond, &self->lock);
    }
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
 *   and on the reader's
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
  self->cursor = start;
  self->compression = compression;
  self->decompress = decompress;
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  if (threaded)
    self->thread = g_thread_try_new ("etl-expand", expand_ahead, self, NULL);
  return self;
}

/* Called with the lock held: the slot the reader held goes back */
static void
release_held (SpsEtlExpander *self)
{
  Slot *slot = &self->slots[(self->want_seq - 1) % N_SLOTS];

  g_clear_error (&slot->error);
  self->charged -= slot->charged;
  slot->state = SLOT_FREE;
  self->holding = FALSE;
  g_cond_broadcast (&self->cond);
}

/* Called with the lock held: the slot of the next buffer in the walk's
 * order, expanded; NULL when the walk has no more */
static Slot *
next_expanded (SpsEtlExpander *self)
{
  for (;;)
    {
      Slot *slot;

      if (self->want_seq == self->next_seq)
        {
          /* Not claimed yet (the thread is behind, or there is none) */
          if ((slot = claim (self)) == NULL)
            return NULL;
          expand_unlocked (self, slot, FALSE);
          return slot;
        }

      slot = &self->slots[self->want_seq % N_SLOTS];
      if (slot->state == SLOT_READY)
        return slot;

      /* The thread is expanding it: rather than wait, expand a buffer
       * after it, if one may be expanded that far ahead */
      if ((slot = claim (self)) != NULL)
        expand_unlocked (self, slot, FALSE);
      else
        g_cond_wait (&self->cond, &self->lock);
    }
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

  g_return_val_if_fail (self != NULL, -1);
  g_return_val_if_fail (offset < self->len && self->len - offset >= SPS_ETL_BUFFER_HEADER_SIZE, -1);

  g_mutex_lock (&self->lock);
  if (self->holding)
    release_held (self);
  if (!self->parted)
    {
      slot = next_expanded (self);
      if (slot != NULL && slot->offset == offset)
        {
          self->holding = TRUE;
          self->want_seq++;
          if (slot->by_thread)
            self->n_ahead++;
        }
      else
        {
          /* The reader's walk and the expander's parted (they classify
           * buffers alike, so this is a bug): from here on the reader
           * expands what it takes */
          g_critical ("%s: the buffer at %zu is not the next to expand", G_STRFUNC, offset);
          self->parted = TRUE;
          self->stop = TRUE;
          g_cond_broadcast (&self->cond);
          slot = NULL;
        }
    }
  g_mutex_unlock (&self->lock);

  if (slot == NULL)
    {
      slot = &self->own;
      slot->offset = offset;
      if (sps_etl_buffer_classify (self->data + offset, self->len - offset, TRUE,
                                   &slot->size, &slot->out_len) != SPS_ETL_BUFFER_COMPRESSED)
        g_return_val_if_reached (-1);
      expand_into (self, slot);
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
