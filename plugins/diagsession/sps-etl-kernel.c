/* sps-etl-kernel.c: what the kernel's events in an ETL say about processes,
 * threads, images, CPU samples and their stacks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Kernel events are named by (group, opcode) and laid out by version and
 * pointer size. A CPU sample (PerfInfo SampledProfile) carries a thread
 * and an IP but no process; its stack comes in separate StackWalk events
 * that name the sample by its thread and its timestamp, as up to two
 * parts (kernel side, user side) or, with stack caching, as references to
 * stack keys whose IPs are given by definition events. Every field is read
 * only when the payload holds it; an event too short for its fields is
 * counted and skipped.
 * counted and skipped. The stacks are matched to their samples in
 * sps-etl-kernel-stacks.c.
 */

#define G_LOG_DOMAIN "sps-etl"

#include "config.h"

#include <string.h>

#include <glib.h>

#include "sps-etl-kernel-private.h"
#include "sps-etl-kernel.h"
#include "sps-etl-private.h"

/* Kernel groups and their opcodes */
#define GROUP_PROCESS     3
#define GROUP_THREAD      5
#define GROUP_PERFINFO    15
#define GROUP_IMAGE       20
#define GROUP_STACKWALK   24

#define OP_START          1
#define OP_END            2
#define OP_DC_START       3
#define OP_DC_END         4
#define OP_IMAGE_LOAD     10        /* in the process group, for history's sake */
#define OP_DEFUNCT        39
#define OP_THREAD_NAME    72
#define OP_SAMPLE         46
#define OP_SET_INTERVAL   72
#define OP_COLLECTION_START 73
#define OP_COLLECTION_END 74

/* Diagnostics Hub's provider {9e5f9046-43c6-4f62-ba13-7b19896253ff}, as
 * stored: TargetProfilingStarted names the target */
static const guint8 diagnostics_hub[16] = {
  0x46, 0x90, 0x5f, 0x9e, 0xc6, 0x43, 0x62, 0x4f, 0xba, 0x13, 0x7b, 0x19, 0x89, 0x62, 0x53, 0xff
};

static guint
image_key_hash (gconstpointer key)
{
  const SpsEtlImage *image = key;

  return g_int64_hash (&image->base) ^ (image->pid * 0x9e3779b1u);
}

static gboolean
image_key_equal (gconstpointer a,
                 gconstpointer b)
{
  const SpsEtlImage *ia = a;
  const SpsEtlImage *ib = b;

  return ia->base == ib->base && ia->pid == ib->pid;
}

static void
process_free (gpointer data)
{
  SpsEtlProcess *p = data;

  g_free (p->image);
  g_free (p->command_line);
  g_free (p);
}

static void
thread_free (gpointer data)
{
  SpsEtlThread *t = data;

  g_free (t->name);
  g_free (t);
}

static void
image_free (gpointer data)
{
  SpsEtlImage *i = data;

  g_free (i->name);
  g_free (i);
}

#define SAMPLE_BLOCK_BYTES ((gsize) SPS_ETL_SAMPLE_BLOCK_SIZE * sizeof (SpsEtlSample))

static SpsEtlSample *
sample_block_new (void)
{
  return sps_etl_block_new (SAMPLE_BLOCK_BYTES);
}

static void
sample_block_free (gpointer block)
{
  sps_etl_block_free (block, SAMPLE_BLOCK_BYTES);
}

SpsEtlKernel *
sps_etl_kernel_new (void)
{
  SpsEtlKernel *self = g_new0 (SpsEtlKernel, 1);

  self->processes = g_ptr_array_new_with_free_func (process_free);
  self->threads = g_ptr_array_new_with_free_func (thread_free);
  self->images = g_ptr_array_new_with_free_func (image_free);
  self->samples.blocks = g_ptr_array_new_with_free_func (sample_block_free);
  self->sample_ips = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->sample_parts = g_array_new (FALSE, FALSE, sizeof (SpsEtlSamplePart));
  self->sample_stacks = g_array_new (FALSE, FALSE, sizeof (SpsEtlSampleStacks));
  self->stacks = g_array_new (FALSE, FALSE, sizeof (SpsEtlStack));
  self->ips = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->wide_ips = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->event_stacks = g_array_new (FALSE, FALSE, sizeof (SpsEtlEventStack));
  self->target_pid = SPS_ETL_NO_ID;
  self->open_processes = g_hash_table_new (NULL, NULL);
  self->open_threads = g_hash_table_new (NULL, NULL);
  self->open_images = g_hash_table_new (image_key_hash, image_key_equal);
  sps_etl_map_init (&self->last_samples);
  self->ip_mask = 1023;
  self->ip_slots = g_new0 (guint32, self->ip_mask + 1);
  self->last_ip_id = SPS_ETL_NO_ID;
  _sps_etl_kernel_init_stacks (self);
  return self;
}

void
_sps_etl_kernel_clear_reading_state (SpsEtlKernel *self)
{
  g_clear_pointer (&self->open_processes, g_hash_table_unref);
  g_clear_pointer (&self->open_threads, g_hash_table_unref);
  g_clear_pointer (&self->open_images, g_hash_table_unref);
  sps_etl_map_clear (&self->last_samples);
  g_clear_pointer (&self->key_defs, g_array_unref);
  g_clear_pointer (&self->key_refs, g_array_unref);
  g_clear_pointer (&self->key_ref_places, g_array_unref);
  g_clear_pointer (&self->pending_parts, g_array_unref);
  g_clear_pointer (&self->sample_parts, g_array_unref);
  g_clear_pointer (&self->ip_slots, g_free);
}

void
sps_etl_kernel_free (SpsEtlKernel *self)
{
  if (self == NULL)
    return;
  _sps_etl_kernel_clear_reading_state (self);
  g_ptr_array_unref (self->processes);
  g_ptr_array_unref (self->threads);
  g_ptr_array_unref (self->images);
  g_ptr_array_unref (self->samples.blocks);
  g_array_unref (self->sample_ips);
  g_array_unref (self->sample_stacks);
  g_array_unref (self->stacks);
  g_array_unref (self->ips);
  g_array_unref (self->wide_ips);
  g_array_unref (self->event_stacks);
  g_free (self);
}

/* Strings */

/* A NUL-terminated 8-bit string at @p (at most @len bytes): UTF-8 when
 * valid, else Windows-1252 as the kernel writes file names */
static char *
ansi_string (const guint8 *p,
             gsize         len,
             gsize        *used)
{
  const guint8 *nul = memchr (p, 0, len);
  gsize n = nul != NULL ? (gsize) (nul - p) : len;
  char *text;

  *used = nul != NULL ? n + 1 : len;
  if (g_utf8_validate ((const char *) p, (gssize) n, NULL))
    return g_strndup ((const char *) p, n);
  text = g_convert ((const char *) p, (gssize) n, "UTF-8", "WINDOWS-1252", NULL, NULL, NULL);
  return text != NULL ? text : g_strdup ("");
}

/* "\Device\HarddiskVolume3\Windows\System32\ntdll.dll" → "ntdll.dll" */
static char *
base_name (char *path)
{
  const char *slash = strrchr (path, '\\');
  char *name;

  if (slash == NULL)
    slash = strrchr (path, '/');
  if (slash == NULL)
    return path;
  name = g_strdup (slash + 1);
  g_free (path);
  return name;
}

/* Processes */

static void
add_process (SpsEtlKernel       *self,
             const SpsEtlRecord *r)
{
  const guint8 *p = r->payload;
  gsize len = r->payload_len;
  guint ptr = r->pointer_size;
  guint32 pid;
  SpsEtlProcess *process;

  if (len < (gsize) ptr + 16)
    {
      self->n_bad_payloads++;
      return;
    }
  pid = sps_ms_read_u32 (p + ptr);
  process = g_hash_table_lookup (self->open_processes, GUINT_TO_POINTER (pid));

  if (r->opcode == OP_END || r->opcode == OP_DEFUNCT)
    {
      if (process != NULL)
        {
          process->end = r->timestamp;
          g_hash_table_remove (self->open_processes, GUINT_TO_POINTER (pid));
        }
      return;
    }

  if (process == NULL)
    {
      process = g_new0 (SpsEtlProcess, 1);
      process->pid = pid;
      process->end = G_MAXUINT64;
      /* Started before the trace when the rundown first shows it */
      process->start = r->opcode == OP_START ? r->timestamp : 0;
      g_ptr_array_add (self->processes, process);
      g_hash_table_insert (self->open_processes, GUINT_TO_POINTER (pid), process);
    }
  process->parent_pid = sps_ms_read_u32 (p + ptr + 4);

  if (process->image != NULL || r->version < 3)
    return;
  if (!sps_etl_process_names (r, &process->image, &process->command_line))
    self->n_bad_payloads++;
}

/**
 * sps_etl_process_names:
 * @record: a kernel Process event (start, end, rundown) of version 3 or
 *   later
 * @image: (out) (transfer full): the image file name
 * @command_line: (out) (transfer full) (nullable): the command line, or
 *   %NULL when the payload ends first
 *
 * Reads the names that follow the user's SID, whose size varies: a 0
 * when there is none, else two pointers and a SID of 8 + 4 bytes per
 * sub-authority.
 *
 * Returns: %FALSE when the payload ends before the image name
 */
gboolean
sps_etl_process_names (const SpsEtlRecord  *record,
                       char               **image,
                       char               **command_line)
{
  const guint8 *p = record->payload;
  gsize len = record->payload_len;
  guint ptr = record->pointer_size;
  gsize at = 2 * (gsize) ptr + 16 + (record->version >= 4 ? 4 : 0);
  gsize used;

  *image = *command_line = NULL;
  if (record->version < 3 || len < at + 4)
    return FALSE;
  if (sps_ms_read_u32 (p + at) == 0)
    at += 4;
  else
    {
      at += 2 * ptr;
      if (len < at + 8)
        return FALSE;
      at += 8 + 4 * (gsize) p[at + 1];
    }
  if (at >= len)
    return FALSE;
  *image = ansi_string (p + at, len - at, &used);
  at += used;
  if (at < len)
    *command_line = sps_etl_utf16_string (p + at, len - at);
  return TRUE;
}

/* Threads */

static void
add_thread (SpsEtlKernel       *self,
            const SpsEtlRecord *r)
{
  const guint8 *p = r->payload;
  guint32 pid, tid;
  SpsEtlThread *thread;

  if (r->payload_len < 8)
    {
      self->n_bad_payloads++;
      return;
    }
  pid = sps_ms_read_u32 (p);
  tid = sps_ms_read_u32 (p + 4);
  thread = g_hash_table_lookup (self->open_threads, GUINT_TO_POINTER (tid));

  if (r->opcode == OP_END)
    {
      if (thread != NULL)
        {
          thread->end = r->timestamp;
          g_hash_table_remove (self->open_threads, GUINT_TO_POINTER (tid));
        }
      return;
    }

  /* A tid reused by another process is another thread */
  if (thread != NULL && thread->pid != pid)
    {
      thread->end = r->timestamp;
      thread = NULL;
    }
  if (thread == NULL)
    {
      thread = g_new0 (SpsEtlThread, 1);
      thread->tid = tid;
      thread->pid = pid;
      thread->end = G_MAXUINT64;
      thread->start = r->opcode == OP_START ? r->timestamp : 0;
      g_ptr_array_add (self->threads, thread);
      g_hash_table_insert (self->open_threads, GUINT_TO_POINTER (tid), thread);
    }
  if (r->opcode == OP_THREAD_NAME && r->payload_len > 8)
    {
      g_free (thread->name);
      thread->name = sps_etl_utf16_string (p + 8, r->payload_len - 8);
    }
}

/* Images */

static void
add_image (SpsEtlKernel       *self,
           const SpsEtlRecord *r)
{
  const guint8 *p = r->payload;
  guint ptr = r->pointer_size;
  gsize name_at = 3 * (gsize) ptr + 32;
  SpsEtlImage *image;
  guint64 base;
  guint32 pid;

  if (r->payload_len < name_at)
    {
      self->n_bad_payloads++;
      return;
    }
  base = sps_ms_read_ptr (p, ptr);
  pid = sps_ms_read_u32 (p + 2 * ptr);

  /* The same image in the rundown at the start and at the end: one
   * entry per loaded image, looked up in a table (a session's kernel
   * file holds tens of thousands of image events) */
  {
    SpsEtlImage key = { .pid = pid, .base = base };

    if ((image = g_hash_table_lookup (self->open_images, &key)) != NULL)
      {
        if (r->opcode == OP_END)
          {
            image->unload = r->timestamp;
            g_hash_table_remove (self->open_images, image);
          }
        return;
      }
  }
  if (r->opcode == OP_END)
    return;

  image = g_new0 (SpsEtlImage, 1);
  image->pid = pid;
  image->base = base;
  image->size = sps_ms_read_ptr (p + ptr, ptr);
  image->name = base_name (sps_etl_utf16_string (p + name_at, r->payload_len - name_at));
  image->load = r->group == GROUP_PROCESS ? r->timestamp : 0;
  image->unload = G_MAXUINT64;
  g_ptr_array_add (self->images, image);
  g_hash_table_add (self->open_images, image);
}

/* Samples and stacks */

G_STATIC_ASSERT (sizeof (SpsEtlSample) == 16);

static guint
ip_slot (guint64 ip,
         guint   mask)
{
  return (guint) ((ip * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)) >> 32) & mask;
}

/* The id of @ip among the samples' distinct IPs, added when new: an open
 * addressing table of ids (4 bytes a slot, at most half full) over
 * sample_ips, whose lookups cost a few instructions, not a GHashTable's
 * call and hashing per sample */
static guint32
sample_ip_id (SpsEtlKernel *self,
              guint64       ip)
{
  const guint64 *ips = (const guint64 *) (gpointer) self->sample_ips->data;
  guint slot;
  guint32 id;

  /* Samples of one CPU in a row are often at one IP (the idle loop) */
  if (self->last_ip_id != SPS_ETL_NO_ID && ip == self->last_ip)
    return self->last_ip_id;

  for (slot = ip_slot (ip, self->ip_mask); self->ip_slots[slot] != 0; slot = (slot + 1) & self->ip_mask)
    if (ips[self->ip_slots[slot] - 1] == ip)
      {
        id = self->ip_slots[slot] - 1;
        goto found;
      }

  id = self->sample_ips->len;
  g_array_append_val (self->sample_ips, ip);
  self->ip_slots[slot] = id + 1;
  if (self->sample_ips->len > (self->ip_mask + 1) / 2)
    {
      /* Twice as many slots, the ids put in again */
      guint mask = self->ip_mask * 2 + 1;
      guint32 *slots = g_new0 (guint32, (gsize) mask + 1);

      ips = (const guint64 *) (gpointer) self->sample_ips->data;
      for (guint32 i = 0; i < self->sample_ips->len; i++)
        {
          for (slot = ip_slot (ips[i], mask); slots[slot] != 0; slot = (slot + 1) & mask)
            ;
          slots[slot] = i + 1;
        }
      g_free (self->ip_slots);
      self->ip_slots = slots;
      self->ip_mask = mask;
    }

found:
  self->last_ip = ip;
  self->last_ip_id = id;
  return id;
}

/* The index + 1 of @tid's latest sample, 0 when it has none. It is
 * found once per stack part and replaced once per sample: a table of its
 * own, not a GHashTable's call and hashing. */
guint
_sps_etl_kernel_last_sample (const SpsEtlKernel *self,
                             guint32             tid)
{
  guint32 index;

  return sps_etl_map_lookup (&self->last_samples, tid, &index) ? index : 0;
}

static void
add_sample (SpsEtlKernel       *self,
            const SpsEtlRecord *r)
{
  guint ptr = r->pointer_size;
  SpsEtlSample sample;
  guint16 flags;

  if (r->payload_len < (gsize) ptr + 4)
    {
      self->n_bad_payloads++;
      return;
    }
  self->n_samples++;
  sample.ts = r->timestamp;
  sample.ip = sample_ip_id (self, sps_ms_read_ptr (r->payload, ptr));
  sample.tid = sps_ms_read_u32 (r->payload + ptr);
  flags = r->payload_len >= (gsize) ptr + 8 ? sps_ms_read_u16 (r->payload + ptr + 6) : 0;
  if (sample.tid == 0)
    {
      self->n_idle_samples++;
      if ((flags & (SPS_ETL_SAMPLE_IN_DPC | SPS_ETL_SAMPLE_IN_ISR)) != 0)
        self->n_idle_interrupts++;
    }
  if (self->samples.len % SPS_ETL_SAMPLE_BLOCK_SIZE == 0)
    g_ptr_array_add (self->samples.blocks, sample_block_new ());
  *sps_etl_samples_at (&self->samples, self->samples.len++) = sample;
  sps_etl_map_insert (&self->last_samples, sample.tid, self->samples.len);
}

/* SampledProfileInterval: u32 source (0 the timer), u32 new and u32 old
 * interval in 100 ns units. The first that says gives the interval of the
 * whole trace (PerfView assumes one too): at the start the new one, at the
 * end the old one, which was in force until then. */
static void
read_interval (SpsEtlKernel       *self,
               const SpsEtlRecord *r)
{
  guint32 interval;

  if (self->sample_interval != 0 || r->payload_len < 12 || sps_ms_read_u32 (r->payload) != 0)
    return;
  interval = sps_ms_read_u32 (r->payload + (r->opcode == OP_COLLECTION_END ? 8 : 4));
  self->sample_interval = interval;
}

/**
 * sps_etl_kernel_add:
 * @self: the kernel state of one import
 * @record: a record of the ETL, in file order
 *
 * Returns: %TRUE when @record was one of the events this reads
 */
gboolean
sps_etl_kernel_add (SpsEtlKernel       *self,
                    const SpsEtlRecord *record)
{
  g_return_val_if_fail (self->open_processes != NULL, FALSE);

  if (record->provider != NULL)
    {
      /* TargetProfilingStarted: u32 pid first */
      if (record->kind == SPS_ETL_RECORD_EVENT_HEADER && record->id == 1 &&
          memcmp (record->provider, diagnostics_hub, 16) == 0 && record->payload_len >= 4 &&
          self->target_pid == SPS_ETL_NO_ID)
        {
          self->target_pid = sps_ms_read_u32 (record->payload);
          return TRUE;
        }
      return FALSE;
    }

  switch (record->group)
    {
    case GROUP_PROCESS:
      if (record->opcode == OP_IMAGE_LOAD)
        add_image (self, record);
      else if (record->opcode == OP_START || record->opcode == OP_END || record->opcode == OP_DC_START ||
               record->opcode == OP_DC_END || record->opcode == OP_DEFUNCT)
        add_process (self, record);
      else
        return FALSE;
      return TRUE;

    case GROUP_THREAD:
      if (record->opcode > OP_DC_END && record->opcode != OP_THREAD_NAME)
        return FALSE;
      add_thread (self, record);
      return TRUE;

    case GROUP_IMAGE:
      if (record->opcode < OP_END || record->opcode > OP_DC_END)
        return FALSE;
      add_image (self, record);
      return TRUE;

    case GROUP_PERFINFO:
      if (record->opcode >= OP_SET_INTERVAL && record->opcode <= OP_COLLECTION_END)
        {
          /* Read, not consumed: they are events of their own too */
          read_interval (self, record);
          return FALSE;
        }
      if (record->opcode != OP_SAMPLE)
        return FALSE;
      add_sample (self, record);
      return TRUE;

    case GROUP_STACKWALK:
      _sps_etl_kernel_add_stack_walk (self, record);
      return TRUE;

    default:
      return FALSE;
    }
}

/**
 * sps_etl_kernel_release_samples:
 * @self: a finished kernel reading
 * @end: samples below this index are not needed any more
 *
 * Frees the blocks of samples that lie wholly below @end; their samples
 * must not be read after this.
 */
void
sps_etl_kernel_release_samples (SpsEtlKernel *self,
                                guint         end)
{
  for (guint b = 0; b < self->samples.blocks->len && (b + 1) * (guint64) SPS_ETL_SAMPLE_BLOCK_SIZE <= end; b++)
    g_clear_pointer (&g_ptr_array_index (self->samples.blocks, b), sample_block_free);
}
