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
 *
 * A stack key is a slot of the kernel's stack cache: references name it
 * while the stack is cached, and the stack itself is written when the slot
 * is evicted (KeyDelete) or when the trace stops (KeyRundown). A slot is
 * reused, so a reference belongs to the first definition of its key that
 * comes after it, never to an earlier one (which described the slot's
 * previous stack). A KeyCreate, where a trace has them, defines the key
 * for the references that no later event defines.
 */

#define G_LOG_DOMAIN "sps-etl"

#include "config.h"

#include <string.h>

#include <glib.h>
#ifdef G_OS_UNIX
#include <sys/mman.h>
#endif

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
#define OP_STACK          32
#define OP_KEY_CREATE     34
#define OP_KEY_DELETE     35
#define OP_KEY_RUNDOWN    36
#define OP_KEY_KERNEL     37
#define OP_KEY_USER       38

/* Diagnostics Hub's provider {9e5f9046-43c6-4f62-ba13-7b19896253ff}, as
 * stored: TargetProfilingStarted names the target */
static const guint8 diagnostics_hub[16] = {
  0x46, 0x90, 0x5f, 0x9e, 0xc6, 0x43, 0x62, 0x4f, 0xba, 0x13, 0x7b, 0x19, 0x89, 0x62, 0x53, 0xff
};

typedef struct
{
  guint64 ts;
  guint32 tid;
} SampleKey;

/* A reference to a stack key, waiting for the key's definition. A trace
 * holds one or two per sample, so they are kept in 16 bytes: the
 * reference's (timestamp, thread) only matters when its sample was not
 * found while reading (a relogged trace), and is then kept apart, in
 * key_ref_places. */
typedef struct
{
  guint64  key;
  guint32  sample;        /* its sample's index; with REF_PLACE, the index of
                           * its (timestamp, thread) in key_ref_places */
  gboolean user;
} KeyRef;

#define REF_PLACE    0x80000000u

/* A definition of a stack key: the stack the slot held when it was
 * created, evicted (deleted) or listed by the rundown */
typedef struct
{
  guint64  key;
  guint64  ts;
  guint32  stack;
  guint32  opcode;        /* OP_KEY_CREATE, _DELETE or _RUNDOWN */
} KeyDef;

/* A stack part read before its sample (a relogged trace need not keep
 * the kernel's order): matched again at the end */
typedef struct
{
  guint64  ts;
  guint32  tid;
  guint32  stack;
  gboolean user;
} PendingPart;

static guint
sample_key_hash (gconstpointer key)
{
  const SampleKey *k = key;

  return g_int64_hash (&k->ts) ^ (k->tid * 0x9e3779b1u);
}

static gboolean
sample_key_equal (gconstpointer a,
                  gconstpointer b)
{
  const SampleKey *ka = a;
  const SampleKey *kb = b;

  return ka->ts == kb->ts && ka->tid == kb->tid;
}

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
#ifdef G_OS_UNIX
  gpointer block = mmap (NULL, SAMPLE_BLOCK_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

  /* As g_malloc() does when memory runs out */
  if (block == MAP_FAILED)
    g_error ("%s: failed to map %" G_GSIZE_FORMAT " bytes", G_STRLOC, SAMPLE_BLOCK_BYTES);
  return block;
#else
  return g_new (SpsEtlSample, SPS_ETL_SAMPLE_BLOCK_SIZE);
#endif
}

static void
sample_block_free (gpointer block)
{
  if (block == NULL)
    return;
#ifdef G_OS_UNIX
  munmap (block, SAMPLE_BLOCK_BYTES);
#else
  g_free (block);
#endif
}

SpsEtlKernel *
sps_etl_kernel_new (void)
{
  SpsEtlKernel *self = g_new0 (SpsEtlKernel, 1);

  self->processes = g_ptr_array_new_with_free_func (process_free);
  self->threads = g_ptr_array_new_with_free_func (thread_free);
  self->images = g_ptr_array_new_with_free_func (image_free);
  self->samples.blocks = g_ptr_array_new_with_free_func (sample_block_free);
  self->sample_stacks = g_array_new (FALSE, FALSE, sizeof (SpsEtlSampleStacks));
  self->stacks = g_array_new (FALSE, FALSE, sizeof (SpsEtlStack));
  self->ips = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->wide_ips = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->event_stacks = g_array_new (FALSE, FALSE, sizeof (SpsEtlEventStack));
  self->target_pid = SPS_ETL_NO_ID;
  self->open_processes = g_hash_table_new (NULL, NULL);
  self->open_threads = g_hash_table_new (NULL, NULL);
  self->open_images = g_hash_table_new (image_key_hash, image_key_equal);
  self->last_sample = g_hash_table_new (NULL, NULL);
  self->key_defs = g_array_new (FALSE, FALSE, sizeof (KeyDef));
  self->key_refs = g_array_new (FALSE, FALSE, sizeof (KeyRef));
  self->key_ref_places = g_array_new (FALSE, FALSE, sizeof (SampleKey));
  self->pending_parts = g_array_new (FALSE, FALSE, sizeof (PendingPart));
  return self;
}

static void
clear_reading_state (SpsEtlKernel *self)
{
  g_clear_pointer (&self->open_processes, g_hash_table_unref);
  g_clear_pointer (&self->open_threads, g_hash_table_unref);
  g_clear_pointer (&self->open_images, g_hash_table_unref);
  g_clear_pointer (&self->last_sample, g_hash_table_unref);
  g_clear_pointer (&self->key_defs, g_array_unref);
  g_clear_pointer (&self->key_refs, g_array_unref);
  g_clear_pointer (&self->key_ref_places, g_array_unref);
  g_clear_pointer (&self->pending_parts, g_array_unref);
}

void
sps_etl_kernel_free (SpsEtlKernel *self)
{
  if (self == NULL)
    return;
  clear_reading_state (self);
  g_ptr_array_unref (self->processes);
  g_ptr_array_unref (self->threads);
  g_ptr_array_unref (self->images);
  g_ptr_array_unref (self->samples.blocks);
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

G_STATIC_ASSERT (sizeof (SpsEtlSample) == 24);

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
  sample.ip = sps_ms_read_ptr (r->payload, ptr);
  sample.tid = sps_ms_read_u32 (r->payload + ptr);
  sample.stacks = SPS_ETL_NO_ID;
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
  g_hash_table_insert (self->last_sample, GUINT_TO_POINTER (sample.tid),
                       GUINT_TO_POINTER (self->samples.len));
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

/* The sample a stack part read now belongs to. The kernel logs a
 * sample's stack right after it, in the same per-CPU buffer, so it is the
 * latest sample of the part's thread; a part found elsewhere (a buffer
 * written out of order, a relogged trace) waits for the end. One entry
 * per thread instead of one per sample: millions of samples cost no
 * hash table. */
static guint
find_sample (SpsEtlKernel *self,
             guint64       ts,
             guint32       tid)
{
  guint index = GPOINTER_TO_UINT (g_hash_table_lookup (self->last_sample, GUINT_TO_POINTER (tid)));
  SpsEtlSample *sample;

  if (index == 0)
    return 0;
  sample = sps_etl_samples_at (&self->samples, index - 1);
  return sample->ts == ts ? index : 0;
}

/* For each of the @n (timestamp, thread) of @wanted, the index + 1 of the
 * last sample of the file with it, 0 when none: one pass over the samples
 * with a table of the wanted keys. */
static guint *
find_samples (SpsEtlKernel    *self,
              const SampleKey *wanted,
              guint            n)
{
  g_autoptr(GHashTable) slots = g_hash_table_new (sample_key_hash, sample_key_equal);
  g_autofree guint *found = g_new0 (guint, MAX (n, 1));
  guint *slot_of = g_new (guint, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    {
      gpointer slot;

      if (!g_hash_table_lookup_extended (slots, &wanted[i], NULL, &slot))
        {
          slot = GUINT_TO_POINTER (i);
          g_hash_table_insert (slots, (gpointer) &wanted[i], slot);
        }
      slot_of[i] = GPOINTER_TO_UINT (slot);
    }

  if (n > 0)
    for (guint s = 0; s < self->samples.len; s++)
      {
        const SpsEtlSample *sample = sps_etl_samples_at (&self->samples, s);
        SampleKey key = { sample->ts, sample->tid };
        gpointer slot;

        if (g_hash_table_lookup_extended (slots, &key, NULL, &slot))
          found[GPOINTER_TO_UINT (slot)] = s + 1;
      }

  for (guint i = 0; i < n; i++)
    slot_of[i] = found[slot_of[i]];
  return slot_of;
}

static guint32
add_stack (SpsEtlKernel *self,
           const guint8 *p,
           gsize         n,
           guint         ptr)
{
  SpsEtlStack stack = { 0, (guint32) n, 0, FALSE };

  stack.high = (guint32) (sps_ms_read_ptr (p, ptr) >> 32);
  for (gsize i = 1; i < n && !stack.wide; i++)
    stack.wide = (guint32) (sps_ms_read_ptr (p + i * ptr, ptr) >> 32) != stack.high;

  /* Grown once, not an append call per frame */
  if (stack.wide)
    {
      guint64 *ips;

      stack.start = self->wide_ips->len;
      stack.high = 0;
      g_array_set_size (self->wide_ips, self->wide_ips->len + (guint) n);
      ips = &g_array_index (self->wide_ips, guint64, stack.start);
      for (gsize i = 0; i < n; i++)
        ips[i] = sps_ms_read_ptr (p + i * ptr, ptr);
    }
  else
    {
      guint32 *ips;

      stack.start = self->ips->len;
      g_array_set_size (self->ips, self->ips->len + (guint) n);
      ips = &g_array_index (self->ips, guint32, stack.start);
      for (gsize i = 0; i < n; i++)
        ips[i] = (guint32) sps_ms_read_ptr (p + i * ptr, ptr);
    }
  g_array_append_val (self->stacks, stack);
  return self->stacks->len - 1;
}

static gboolean
is_kernel_address (guint64 ip,
                   guint   ptr)
{
  return ptr == 8 ? ip >= G_GUINT64_CONSTANT (0xffff800000000000) : ip >= 0x80000000u;
}

/* A stack part into an empty slot (the first part of a side wins) */
static void
fill_slot (guint32 *slot,
           guint32  stack,
           guint64 *count)
{
  if (*slot == SPS_ETL_NO_ID)
    {
      *slot = stack;
      (*count)++;
    }
}

static void
attach (SpsEtlKernel *self,
        SpsEtlSample *sample,
        guint32       stack,
        gboolean      user)
{
  SpsEtlSampleStacks *parts;

  /* A sample's first part gives it its entry */
  if (sample->stacks == SPS_ETL_NO_ID)
    {
      SpsEtlSampleStacks none = { SPS_ETL_NO_ID, SPS_ETL_NO_ID };

      g_array_append_val (self->sample_stacks, none);
      sample->stacks = self->sample_stacks->len - 1;
    }
  parts = &g_array_index (self->sample_stacks, SpsEtlSampleStacks, sample->stacks);
  fill_slot (user ? &parts->user : &parts->kernel, stack, &self->n_stacks_attached);
}

static void
add_stack_walk (SpsEtlKernel       *self,
                const SpsEtlRecord *r)
{
  const guint8 *p = r->payload;
  gsize len = r->payload_len;
  guint ptr = r->pointer_size;

  switch (r->opcode)
    {
    case OP_STACK:
      {
        gsize n = len >= 16 ? (len - 16) / ptr : 0;
        guint sample;
        guint32 stack;
        gboolean user;

        if (n == 0)
          {
            self->n_bad_payloads++;
            return;
          }
        self->n_stack_events++;
        sample = find_sample (self, sps_ms_read_u64 (p), sps_ms_read_u32 (p + 12));
        stack = add_stack (self, p + 16, n, ptr);
        user = !is_kernel_address (sps_ms_read_ptr (p + 16, ptr), ptr);
        if (sample != 0)
          attach (self, sps_etl_samples_at (&self->samples, sample - 1), stack, user);
        else
          {
            PendingPart part = { sps_ms_read_u64 (p), sps_ms_read_u32 (p + 12), stack, user };

            g_array_append_val (self->pending_parts, part);
          }
      }
      break;

    case OP_KEY_CREATE:
    case OP_KEY_DELETE:
    case OP_KEY_RUNDOWN:
      {
        gsize n = len >= ptr ? (len - ptr) / ptr : 0;
        if (n == 0)
          {
            self->n_bad_payloads++;
            return;
          }
        if (r->opcode == OP_KEY_RUNDOWN)
          self->n_key_rundowns++;
        else
          self->n_key_definitions++;
        {
          KeyDef def = { sps_ms_read_ptr (p, ptr), r->timestamp, add_stack (self, p + ptr, n, ptr), r->opcode };

          g_array_append_val (self->key_defs, def);
        }
      }
      break;

    case OP_KEY_KERNEL:
    case OP_KEY_USER:
      {
        SampleKey place;
        guint sample;
        KeyRef ref;

        if (len < 16 + (gsize) ptr)
          {
            self->n_bad_payloads++;
            return;
          }
        if (r->opcode == OP_KEY_USER)
          self->n_key_refs_user++;
        else
          self->n_key_refs_kernel++;
        place.ts = sps_ms_read_u64 (p);
        place.tid = sps_ms_read_u32 (p + 12);
        sample = find_sample (self, place.ts, place.tid);
        if (sample != 0 && sample - 1 < REF_PLACE)
          ref.sample = sample - 1;
        else if (self->key_ref_places->len < REF_PLACE)
          {
            ref.sample = REF_PLACE | self->key_ref_places->len;
            g_array_append_val (self->key_ref_places, place);
          }
        else
          {
            /* 2^31 references without a sample: no trace has them */
            self->n_stacks_unmatched++;
            return;
          }
        ref.key = sps_ms_read_ptr (p + 16, ptr);
        ref.user = r->opcode == OP_KEY_USER;
        g_array_append_val (self->key_refs, ref);
      }
      break;

    default:
      break;
    }
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
      add_stack_walk (self, record);
      return TRUE;

    default:
      return FALSE;
    }
}

/**
 * sps_etl_kernel_want_stack:
 * @self: the kernel state of one import, before sps_etl_kernel_finish()
 * @ts: an event's timestamp
 * @tid: its thread
 *
 * Asks for the stack of an event that is not a CPU sample (an
 * allocation): the stack walk the kernel logged for its timestamp and
 * thread, which sps_etl_kernel_finish() attaches to
 * `event_stacks[index]` (stack parts that a sample takes are not).
 *
 * Returns: the event's index in @self->event_stacks
 */
guint
sps_etl_kernel_want_stack (SpsEtlKernel *self,
                           guint64       ts,
                           guint32       tid)
{
  SpsEtlEventStack wanted = { ts, tid, SPS_ETL_NO_ID, SPS_ETL_NO_ID };

  g_return_val_if_fail (self != NULL, 0);

  g_array_append_val (self->event_stacks, wanted);
  return self->event_stacks->len - 1;
}

/**
 * sps_etl_kernel_add_event_stack:
 * @self: the kernel state of one import
 * @ts: an event's timestamp
 * @tid: its thread
 * @ips: its stack as the event's extended data gives it (leaf first)
 * @n: the number of addresses
 * @pointer_size: their size, 4 or 8
 *
 * Keeps the stack an event carries itself (ETW's stack trace items, for
 * providers enabled with stacks), as an event's stack.
 *
 * Returns: the event's index in @self->event_stacks
 */
guint
sps_etl_kernel_add_event_stack (SpsEtlKernel *self,
                                guint64       ts,
                                guint32       tid,
                                const guint8 *ips,
                                gsize         n,
                                guint         pointer_size)
{
  guint index;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (pointer_size == 4 || pointer_size == 8, 0);

  index = sps_etl_kernel_want_stack (self, ts, tid);
  if (n > 0 && n <= G_MAXUINT32)
    {
      g_array_index (self->event_stacks, SpsEtlEventStack, index).user_stack = add_stack (self, ips, n, pointer_size);
      self->n_event_stacks_attached++;
    }
  return index;
}

/* The events that want their stacks are found by (timestamp, thread):
 * an event starts as a SampleKey does */
G_STATIC_ASSERT (G_STRUCT_OFFSET (SpsEtlEventStack, ts) == G_STRUCT_OFFSET (SampleKey, ts));
G_STATIC_ASSERT (G_STRUCT_OFFSET (SpsEtlEventStack, tid) == G_STRUCT_OFFSET (SampleKey, tid));

/* The event of (@ts, @tid) among those that want their stacks, or NULL */
static SpsEtlEventStack *
find_event (SpsEtlKernel *self,
            GHashTable   *events,
            guint64       ts,
            guint32       tid)
{
  SampleKey key = { ts, tid };
  guint index = GPOINTER_TO_UINT (g_hash_table_lookup (events, &key));

  return index != 0 ? &g_array_index (self->event_stacks, SpsEtlEventStack, index - 1) : NULL;
}

static void
attach_to_event (SpsEtlKernel     *self,
                 SpsEtlEventStack *event,
                 guint32           stack,
                 gboolean          user)
{
  fill_slot (user ? &event->user_stack : &event->kernel_stack, stack, &self->n_event_stacks_attached);
}

static gint
compare_key_defs (gconstpointer a,
                  gconstpointer b)
{
  const KeyDef *da = a;
  const KeyDef *db = b;

  if (da->key != db->key)
    return da->key < db->key ? -1 : 1;
  if (da->ts != db->ts)
    return da->ts < db->ts ? -1 : 1;
  /* g_array_sort() is stable: equal times stay in file order */
  return 0;
}

/* The stack of stack key @key at @ts: the slot's first definition at or
 * after @ts in time (its eviction, or the rundown), else the creation
 * before it that nothing evicted; SPS_ETL_NO_ID when none. Time, not
 * file order: each processor logs into buffers of its own, so an
 * eviction logged on one processor is often read before or after a
 * reference logged on another, and a reused slot then gives the
 * reference the stack of the slot's previous or next use. */
static guint32
key_stack (SpsEtlKernel *self,
           guint64       key,
           guint64       ts)
{
  const KeyDef *defs = (const KeyDef *) (gpointer) self->key_defs->data;
  guint lo = 0;
  guint hi = self->key_defs->len;

  /* The first definition at or after (key, ts) */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (defs[mid].key < key || (defs[mid].key == key && defs[mid].ts < ts))
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo < self->key_defs->len && defs[lo].key == key)
    return defs[lo].stack;
  if (lo > 0 && defs[lo - 1].key == key && defs[lo - 1].opcode == OP_KEY_CREATE)
    return defs[lo - 1].stack;
  return SPS_ETL_NO_ID;
}

/**
 * sps_etl_kernel_finish:
 * @self: the kernel state of one import, after its last record
 *
 * Gives the samples the stacks of their stack key references, the events
 * that want theirs (sps_etl_kernel_want_stack()) the stack parts no sample
 * took, and drops what was only needed while reading.
 */
void
sps_etl_kernel_finish (SpsEtlKernel *self)
{
  g_autoptr(GArray) wanted = NULL;
  g_autoptr(GHashTable) events = NULL;
  g_autofree guint *found = NULL;
  guint n_parts;

  if (self->key_refs == NULL)
    return;

  /* The samples not found while reading: the parts read before theirs,
   * then the key references without a sample */
  wanted = g_array_new (FALSE, FALSE, sizeof (SampleKey));
  for (guint i = 0; i < self->pending_parts->len; i++)
    {
      const PendingPart *part = &g_array_index (self->pending_parts, PendingPart, i);
      SampleKey key = { part->ts, part->tid };

      g_array_append_val (wanted, key);
    }
  n_parts = wanted->len;
  g_array_append_vals (wanted, self->key_ref_places->data, self->key_ref_places->len);
  found = find_samples (self, (const SampleKey *) (gpointer) wanted->data, wanted->len);

  /* The events that want their stacks, by (timestamp, thread) */
  events = g_hash_table_new (sample_key_hash, sample_key_equal);
  for (guint i = 0; i < self->event_stacks->len; i++)
    g_hash_table_insert (events, &g_array_index (self->event_stacks, SpsEtlEventStack, i), GUINT_TO_POINTER (i + 1));

  for (guint i = 0; i < n_parts; i++)
    {
      const PendingPart *part = &g_array_index (self->pending_parts, PendingPart, i);
      SpsEtlEventStack *event;

      if (found[i] != 0)
        attach (self, sps_etl_samples_at (&self->samples, found[i] - 1), part->stack, part->user);
      else if ((event = find_event (self, events, part->ts, part->tid)) != NULL)
        attach_to_event (self, event, part->stack, part->user);
      else
        self->n_stacks_unmatched++;
    }

  /* The definitions by key, then time (then file order) */
  g_array_sort (self->key_defs, compare_key_defs);

  /* In file order, as the direct parts were attached */
  for (guint i = 0; i < self->key_refs->len; i++)
    {
      const KeyRef *ref = &g_array_index (self->key_refs, KeyRef, i);
      guint32 sample = ref->sample;
      const SampleKey *at = NULL;
      guint32 stack;
      SpsEtlEventStack *event;

      if ((sample & REF_PLACE) != 0)
        {
          guint place = sample & ~REF_PLACE;

          at = &g_array_index (self->key_ref_places, SampleKey, place);
          sample = found[n_parts + place] > 0 ? found[n_parts + place] - 1 : SPS_ETL_NO_ID;
        }
      stack = key_stack (self, ref->key,
                         at != NULL ? at->ts : sps_etl_samples_at (&self->samples, sample)->ts);
      if (sample == SPS_ETL_NO_ID)
        {
          if (stack != SPS_ETL_NO_ID && (event = find_event (self, events, at->ts, at->tid)) != NULL)
            attach_to_event (self, event, stack, ref->user);
          else
            self->n_stacks_unmatched++;
        }
      else if (stack == SPS_ETL_NO_ID)
        self->n_keys_unresolved++;
      else
        attach (self, sps_etl_samples_at (&self->samples, sample), stack, ref->user);
    }
  clear_reading_state (self);
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
