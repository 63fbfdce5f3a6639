/* sps-etl-memory.c: the heap's events of an ETL session
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Allocations and GC observations (sps-ms-memory.c, shared with the
 * .nettrace importer) need the session's clock and the events' threads,
 * which are known only once every file was read, while a record's payload
 * lives only during the reader's callback. So the few heap events keep a
 * copy of their payload here, in file order, until the import adds the
 * events to the builder and hands each one back with its time and thread.
 * An allocation also keeps the stack its extended data carries, or asks
 * the kernel's reading for the stack walk of its time and thread.
 */

#define G_LOG_DOMAIN "sps-etl"

#include "config.h"

#include "sps-etl-fields.h"
#include "sps-etl-memory.h"

typedef struct
{
  guint            event;         /* index among the session's events */
  guint            payload;       /* offset in payloads */
  gsize            len;
  gsize            offset;        /* of the record's buffer in its file */
  guint            file;          /* index in files */
  guint16          version;
  guint8           pointer_size;
  SpsMsMemoryEvent kind;
  guint64          ticks;
  guint32          tid;
  guint            stack;         /* offset in payloads of the stack its
                                   * extended data carries */
  gsize            stack_len;     /* its addresses, 0: none */
  guint8           stack_pointer_size;
  guint32          event_stack;   /* its stack in the kernel's event_stacks,
                                   * SPS_ETL_NO_ID when it wants none */
} Kept;

struct _SpsEtlMemory
{
  SpsTraceBuilder *builder;
  SpsMsMemory     *memory;
  GPtrArray       *files;         /* char *: display names */
  GArray          *kept;          /* Kept, by event index */
  GByteArray      *payloads;
  guint            next;          /* first kept event not added yet */
};

SpsEtlMemory *
sps_etl_memory_new (SpsTraceBuilder *builder)
{
  SpsEtlMemory *self = g_new0 (SpsEtlMemory, 1);

  self->builder = g_object_ref (builder);
  self->files = g_ptr_array_new_with_free_func (g_free);
  self->kept = g_array_new (FALSE, FALSE, sizeof (Kept));
  self->payloads = g_byte_array_new ();
  return self;
}

void
sps_etl_memory_free (SpsEtlMemory *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->memory, sps_ms_memory_free);
  g_ptr_array_unref (self->files);
  g_array_unref (self->kept);
  g_byte_array_unref (self->payloads);
  g_object_unref (self->builder);
  g_free (self);
}

/**
 * sps_etl_memory_set_file:
 * @self: the heap events of an import
 * @display_name: the name of the file read next
 */
void
sps_etl_memory_set_file (SpsEtlMemory *self,
                         const char   *display_name)
{
  g_return_if_fail (self != NULL);

  g_ptr_array_add (self->files, g_strdup (display_name != NULL ? display_name : ""));
}

#define EXT_TYPE_STACK_TRACE32 5
#define EXT_TYPE_STACK_TRACE64 6

/* The stack an event carries in its extended data (a provider enabled
 * with stacks): a u64 match id, then the addresses, leaf first */
static void
keep_stack (SpsEtlMemory       *self,
            Kept               *kept,
            const SpsEtlRecord *record)
{
  gsize len = 0;
  const guint8 *item = sps_etl_record_find_item (record, EXT_TYPE_STACK_TRACE64, &len);
  guint pointer_size = 8;

  if (item == NULL)
    {
      item = sps_etl_record_find_item (record, EXT_TYPE_STACK_TRACE32, &len);
      pointer_size = 4;
    }
  if (item == NULL || len <= 8 || len - 8 > G_MAXUINT - self->payloads->len)
    return;
  kept->stack = self->payloads->len;
  kept->stack_len = (len - 8) / pointer_size;
  kept->stack_pointer_size = (guint8) pointer_size;
  g_byte_array_append (self->payloads, item + 8, (guint) (kept->stack_len * pointer_size));
}

/**
 * sps_etl_memory_keep:
 * @self: the heap events of an import
 * @event: the event's index among the session's events
 * @kind: which heap event it is
 * @record: its record (valid during the reader's callback only)
 *
 * Copies a heap event's payload until its time and thread are known.
 */
void
sps_etl_memory_keep (SpsEtlMemory       *self,
                     guint               event,
                     SpsMsMemoryEvent    kind,
                     const SpsEtlRecord *record)
{
  Kept kept = { 0, };

  g_return_if_fail (self != NULL);
  g_return_if_fail (record != NULL);

  if (kind == SPS_MS_MEMORY_NONE || record->payload_len > G_MAXUINT - self->payloads->len)
    return;

  kept.event = event;
  kept.payload = self->payloads->len;
  kept.len = record->payload_len;
  kept.offset = record->buffer_offset;
  kept.file = self->files->len > 0 ? self->files->len - 1 : 0;
  kept.version = record->version;
  kept.pointer_size = record->pointer_size == 4 ? 4 : 8;
  kept.kind = kind;
  kept.ticks = record->timestamp;
  kept.tid = record->tid;
  kept.event_stack = SPS_ETL_NO_ID;
  g_byte_array_append (self->payloads, record->payload, (guint) record->payload_len);
  if (kind == SPS_MS_MEMORY_ALLOCATION_TICK || kind == SPS_MS_MEMORY_OBJECT_ALLOCATION)
    keep_stack (self, &kept, record);
  g_array_append_val (self->kept, kept);
}

/**
 * sps_etl_memory_want_stacks:
 * @self: the heap events of an import, every file read
 * @kernel: its kernel state, not finished yet
 *
 * Gives the allocation events (the runtime's GCAllocationTick, the
 * allocation tool's ObjectAllocation) their stacks: the one an event
 * carries in its extended data, else the kernel's stack walk of its
 * timestamp and thread, found as a sample's is.
 */
void
sps_etl_memory_want_stacks (SpsEtlMemory *self,
                            SpsEtlKernel *kernel)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (kernel != NULL);

  for (guint i = 0; i < self->kept->len; i++)
    {
      Kept *kept = &g_array_index (self->kept, Kept, i);

      if ((kept->kind != SPS_MS_MEMORY_ALLOCATION_TICK && kept->kind != SPS_MS_MEMORY_OBJECT_ALLOCATION) ||
          kept->tid == SPS_ETL_NO_ID)
        continue;
      if (kept->stack_len > 0)
        kept->event_stack = sps_etl_kernel_add_event_stack (kernel, kept->ticks, kept->tid,
                                                            self->payloads->data + kept->stack, kept->stack_len,
                                                            kept->stack_pointer_size);
      else
        kept->event_stack = sps_etl_kernel_want_stack (kernel, kept->ticks, kept->tid);
    }
}

/**
 * sps_etl_memory_add:
 * @self: the heap events of an import
 * @event: an event's index among the session's events, in increasing order
 * @process: its process in the builder
 * @thread: its thread in the builder
 * @ts: its time on the session's clock
 * @event_stack: (out): the event's index in the kernel's event_stacks
 *   (sps_etl_memory_want_stacks()), or %SPS_ETL_NO_ID
 *
 * Adds the event's allocation or GC observation if it is a heap event.
 *
 * Returns: the allocation it added, or %SPS_NO_INDEX
 */
guint32
sps_etl_memory_add (SpsEtlMemory *self,
                    guint         event,
                    guint32       process,
                    guint32       thread,
                    SpsTime       ts,
                    guint32      *event_stack)
{
  const Kept *kept;

  *event_stack = SPS_ETL_NO_ID;
  g_return_val_if_fail (self != NULL, SPS_NO_INDEX);

  if (self->next >= self->kept->len)
    return SPS_NO_INDEX;
  kept = &g_array_index (self->kept, Kept, self->next);
  if (kept->event != event)
    return SPS_NO_INDEX;
  self->next++;
  *event_stack = kept->event_stack;

  if (self->memory == NULL)
    self->memory = sps_ms_memory_new (self->builder, NULL);
  sps_ms_memory_set_display_name (self->memory,
                                  self->files->len > 0 ? g_ptr_array_index (self->files, kept->file) : "");
  return sps_ms_memory_add (self->memory, kept->kind, kept->version, kept->pointer_size, process, thread, ts,
                            self->payloads->data + kept->payload, kept->len, kept->offset);
}

/**
 * sps_etl_memory_finish:
 * @self: the heap events of an import whose events were all added
 * @events_lost: whether a file's header counts lost events (at times
 *   it does not say)
 */
void
sps_etl_memory_finish (SpsEtlMemory *self,
                       gboolean      events_lost)
{
  g_return_if_fail (self != NULL);

  if (self->memory == NULL)
    return;
  /* The headers do not say when */
  if (events_lost)
    sps_ms_memory_mark_gap (self->memory, SPS_TIME_MIN, SPS_TIME_MAX);
  sps_ms_memory_finish (self->memory);
  g_array_set_size (self->kept, 0);
  g_byte_array_set_size (self->payloads, 0);
}
