/* sps-etl-kernel-stacks.c: the stacks of CPU samples and other events,
 * from the kernel's StackWalk events
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A sample's stack comes in separate StackWalk events that name the
 * sample by its thread and its timestamp, as up to two parts (kernel
 * side, user side) or, with stack caching, as references to stack keys
 * whose IPs are given by definition events.
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

#include "sps-etl-kernel-private.h"
#include "sps-etl-kernel.h"
#include "sps-etl-private.h"

/* StackWalk opcodes */
#define OP_STACK          32
#define OP_KEY_CREATE     34
#define OP_KEY_DELETE     35
#define OP_KEY_RUNDOWN    36
#define OP_KEY_KERNEL     37
#define OP_KEY_USER       38

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
  guint32  when;          /* REF_USER for a user-mode key, and how long after
                           * its sample the reference was logged (ticks,
                           * REF_LATER at most) */
} KeyRef;

#define REF_PLACE    0x80000000u
#define REF_USER     0x80000000u
#define REF_LATER    0x7fffffffu

/* A definition of a stack key: the stack the slot held when it was
 * created, evicted (deleted) or listed by the rundown */
typedef struct
{
  guint64  key;
  guint64  ts;
  guint32  stack;
  guint32  opcode;        /* OP_KEY_CREATE, _DELETE or _RUNDOWN */
  guint32  user;          /* the stack ends (at its root) in user mode */
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

  return (guint) (k->ts ^ k->ts >> 32) ^ (k->tid * 0x9e3779b1u);
}

static gboolean
sample_key_equal (gconstpointer a,
                  gconstpointer b)
{
  const SampleKey *ka = a;
  const SampleKey *kb = b;

  return ka->ts == kb->ts && ka->tid == kb->tid;
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
  guint index = _sps_etl_kernel_last_sample (self, tid);
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
  /* A bit per hash of the wanted keys, 8 to 16 bits per key: most
   * samples are not wanted, and one look at the bits says so without a
   * hash table lookup */
  guint bits = 1u << CLAMP (g_bit_storage (n) + 3, 6, 26);
  g_autofree guint64 *filter = g_new0 (guint64, bits / 64);

  for (guint i = 0; i < n; i++)
    {
      gpointer slot;
      guint bit = sample_key_hash (&wanted[i]) & (bits - 1);

      filter[bit / 64] |= G_GUINT64_CONSTANT (1) << (bit % 64);
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
        guint bit = sample_key_hash (&key) & (bits - 1);
        gpointer slot;

        if ((filter[bit / 64] & (G_GUINT64_CONSTANT (1) << (bit % 64))) != 0 &&
            g_hash_table_lookup_extended (slots, &key, NULL, &slot))
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

/* A stack part for sample @sample, kept in the order parts come: the
 * first of each side wins when sps_etl_kernel_finish() sorts them */
static void
attach (SpsEtlKernel *self,
        guint         sample,
        guint32       stack,
        gboolean      user)
{
  SpsEtlSamplePart part = { sample, stack | (user ? SPS_ETL_PART_USER : 0) };

  /* 2^31 stacks would not fit in memory */
  if (stack >= SPS_ETL_PART_USER)
    {
      self->n_stacks_unmatched++;
      return;
    }
  g_array_append_val (self->sample_parts, part);
}

/* The parts by sample, each side's first: sample_stacks */
static void
resolve_parts (SpsEtlKernel *self)
{
  GArray *parts = self->sample_parts;
  gboolean sorted = TRUE;
  guint split;
  SpsEtlSampleStacks *last = NULL;

  /* The parts read with their samples come in the samples' order, and
   * the key references' parts matched at the end mostly do too: two runs,
   * merged (ties from the first, as a stable sort leaves them); other
   * orders are sorted */
  for (split = 1; split < parts->len; split++)
    if (g_array_index (parts, SpsEtlSamplePart, split - 1).sample > g_array_index (parts, SpsEtlSamplePart, split).sample)
      break;
  for (guint i = split + 1; i < parts->len && sorted; i++)
    sorted = g_array_index (parts, SpsEtlSamplePart, i - 1).sample <= g_array_index (parts, SpsEtlSamplePart, i).sample;
  /* Stable: a sample's parts stay in the order read */
  if (!sorted)
    sps_etl_radix_sort (parts->data, parts->len, sizeof (SpsEtlSamplePart),
                        G_STRUCT_OFFSET (SpsEtlSamplePart, sample), sizeof (guint32));
  else if (split < parts->len)
    {
      const SpsEtlSamplePart *p = (const SpsEtlSamplePart *) (gpointer) parts->data;
      GArray *merged = g_array_sized_new (FALSE, FALSE, sizeof (SpsEtlSamplePart), parts->len);
      guint a = 0, b = split;

      while (a < split || b < parts->len)
        if (b == parts->len || (a < split && p[a].sample <= p[b].sample))
          g_array_append_val (merged, p[a++]);
        else
          g_array_append_val (merged, p[b++]);
      g_array_unref (parts);
      self->sample_parts = parts = merged;
    }

  g_array_set_size (self->sample_stacks, 0);
  for (guint i = 0; i < parts->len; i++)
    {
      const SpsEtlSamplePart *part = &g_array_index (parts, SpsEtlSamplePart, i);
      guint32 stack = part->stack & ~SPS_ETL_PART_USER;

      if (last == NULL || last->sample != part->sample)
        {
          SpsEtlSampleStacks none = { part->sample, SPS_ETL_NO_ID, SPS_ETL_NO_ID };

          g_array_append_val (self->sample_stacks, none);
          last = &g_array_index (self->sample_stacks, SpsEtlSampleStacks, self->sample_stacks->len - 1);
        }
      fill_slot ((part->stack & SPS_ETL_PART_USER) != 0 ? &last->user : &last->kernel, stack,
                 &self->n_stacks_attached);
    }
  g_clear_pointer (&self->sample_parts, g_array_unref);
}

/**
 * sps_etl_kernel_sample_stack:
 * @self: a finished kernel reading
 * @sample: a sample's index
 * @user: the user part, else the kernel part
 *
 * Returns: the part of @sample's stack, an index into @self's stacks, or
 *   %SPS_ETL_NO_ID
 */
guint32
sps_etl_kernel_sample_stack (const SpsEtlKernel *self,
                             guint               sample,
                             gboolean            user)
{
  const SpsEtlSampleStacks *stacks = (const SpsEtlSampleStacks *) (gpointer) self->sample_stacks->data;
  guint lo = 0;
  guint hi = self->sample_stacks->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (stacks[mid].sample < sample)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == self->sample_stacks->len || stacks[lo].sample != sample)
    return SPS_ETL_NO_ID;
  return user ? stacks[lo].user : stacks[lo].kernel;
}

void
_sps_etl_kernel_add_stack_walk (SpsEtlKernel       *self,
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
          attach (self, sample - 1, stack, user);
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
          KeyDef def = { sps_ms_read_ptr (p, ptr), r->timestamp, add_stack (self, p + ptr, n, ptr), r->opcode,
                         !is_kernel_address (sps_ms_read_ptr (p + n * ptr, ptr), ptr) };

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
        /* A user key is logged when the thread goes back to user mode,
         * which may be long after its sample */
        ref.when = r->timestamp <= place.ts ? 0 : (guint32) MIN (r->timestamp - place.ts, REF_LATER);
        if (r->opcode == OP_KEY_USER)
          ref.when |= REF_USER;
        g_array_append_val (self->key_refs, ref);
      }
      break;

    default:
      break;
    }
}

/* The arrays of the reading state that only the stacks use */
void
_sps_etl_kernel_init_stacks (SpsEtlKernel *self)
{
  self->key_defs = g_array_new (FALSE, FALSE, sizeof (KeyDef));
  self->key_refs = g_array_new (FALSE, FALSE, sizeof (KeyRef));
  self->key_ref_places = g_array_new (FALSE, FALSE, sizeof (SampleKey));
  self->pending_parts = g_array_new (FALSE, FALSE, sizeof (PendingPart));
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

/* The stack of stack key @key referenced at @ts: the slot's first
 * definition at or after @ts in time (its eviction, or the rundown),
 * else the creation before it that nothing evicted; SPS_ETL_NO_ID when
 * none. Time, not file order: each processor logs into buffers of its
 * own, so an eviction logged on one processor is often read before or
 * after a reference logged on another, and a reused slot then gives the
 * reference the stack of the slot's previous or next use. @ts is when the
 * reference was logged, not its sample's time: a user key is logged when
 * the thread returns to user mode, and the slot's previous use may be
 * evicted in between. Kernel and user stacks are matched apart (by the
 * mode of a definition's root), as TraceEvent does: a kernel and a user
 * stack can hold the same key at once. */
static guint32
key_stack (SpsEtlKernel *self,
           guint64       key,
           gboolean      user,
           guint64       ts)
{
  const KeyDef *defs = (const KeyDef *) (gpointer) self->key_defs->data;
  guint lo = 0;
  guint hi = self->key_defs->len;

  /* The first definition at or after (user, key, ts) */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const KeyDef *d = &defs[mid];

      if ((gboolean) d->user != user ? (gboolean) d->user < user :
          d->key != key ? d->key < key : d->ts < ts)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo < self->key_defs->len && defs[lo].key == key && (gboolean) defs[lo].user == user)
    return defs[lo].stack;
  if (lo > 0 && defs[lo - 1].key == key && (gboolean) defs[lo - 1].user == user &&
      defs[lo - 1].opcode == OP_KEY_CREATE)
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
  /* Each work array goes as soon as it has served: this function is the
   * peak of an import's memory, over everything read */
  g_clear_pointer (&wanted, g_array_unref);

  /* The events that want their stacks, by (timestamp, thread) */
  events = g_hash_table_new (sample_key_hash, sample_key_equal);
  for (guint i = 0; i < self->event_stacks->len; i++)
    g_hash_table_insert (events, &g_array_index (self->event_stacks, SpsEtlEventStack, i), GUINT_TO_POINTER (i + 1));

  for (guint i = 0; i < n_parts; i++)
    {
      const PendingPart *part = &g_array_index (self->pending_parts, PendingPart, i);
      SpsEtlEventStack *event;

      if (found[i] != 0)
        attach (self, found[i] - 1, part->stack, part->user);
      else if ((event = find_event (self, events, part->ts, part->tid)) != NULL)
        attach_to_event (self, event, part->stack, part->user);
      else
        self->n_stacks_unmatched++;
    }

  /* The definitions by mode, key, then time (then file order): stable
   * sorts by the time, the key, then the mode */
  sps_etl_radix_sort (self->key_defs->data, self->key_defs->len, sizeof (KeyDef),
                      G_STRUCT_OFFSET (KeyDef, ts), sizeof (guint64));
  sps_etl_radix_sort (self->key_defs->data, self->key_defs->len, sizeof (KeyDef),
                      G_STRUCT_OFFSET (KeyDef, key), sizeof (guint64));
  sps_etl_radix_sort (self->key_defs->data, self->key_defs->len, sizeof (KeyDef),
                      G_STRUCT_OFFSET (KeyDef, user), sizeof (guint32));

  /* In file order, as the direct parts were attached */
  for (guint i = 0; i < self->key_refs->len; i++)
    {
      const KeyRef *ref = &g_array_index (self->key_refs, KeyRef, i);
      guint32 sample = ref->sample;
      const SampleKey *at = NULL;
      guint32 stack;
      gboolean user;
      SpsEtlEventStack *event;

      if ((sample & REF_PLACE) != 0)
        {
          guint place = sample & ~REF_PLACE;

          at = &g_array_index (self->key_ref_places, SampleKey, place);
          sample = found[n_parts + place] > 0 ? found[n_parts + place] - 1 : SPS_ETL_NO_ID;
        }
      user = (ref->when & REF_USER) != 0;
      stack = key_stack (self, ref->key, user,
                         (at != NULL ? at->ts : sps_etl_samples_at (&self->samples, sample)->ts) +
                         (ref->when & REF_LATER));
      if (sample == SPS_ETL_NO_ID)
        {
          if (stack != SPS_ETL_NO_ID && (event = find_event (self, events, at->ts, at->tid)) != NULL)
            attach_to_event (self, event, stack, user);
          else
            self->n_stacks_unmatched++;
        }
      else if (stack == SPS_ETL_NO_ID)
        self->n_keys_unresolved++;
      else
        attach (self, sample, stack, user);
    }
  g_clear_pointer (&events, g_hash_table_unref);
  g_clear_pointer (&found, g_free);
  resolve_parts (self);
  _sps_etl_kernel_clear_reading_state (self);
}
