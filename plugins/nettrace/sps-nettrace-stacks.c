/* sps-nettrace-stacks.c: the distinct stacks of a .nettrace file, and their frames
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Stack blocks repeat the same stacks many times, so each distinct one is
 * kept once (IPs leaf first). Frames can only be named once the whole
 * file was read, since most methods come in the rundown at its end: then
 * every IP is looked up among the methods' code ranges and each stack
 * becomes a callsite chain.
 */

#define G_LOG_DOMAIN "sps-nettrace"

#include "config.h"

#include "sps-nettrace-loader-private.h"

static guint32
hash_stack (const guint64 *ips,
            guint          n)
{
  guint64 h = 0x9e3779b97f4a7c15ull ^ n;

  for (guint i = 0; i < n; i++)
    {
      h ^= ips[i];
      h *= 0xff51afd7ed558ccdull;
      h ^= h >> 32;
    }

  return (guint32) h;
}

static void
grow_stack_slots (Loader *self)
{
  guint n_slots = MAX (self->n_stack_slots * 2, 1024);
  guint32 *slots = g_new0 (guint32, n_slots);

  for (guint s = 0; s < self->n_stack_slots; s++)
    {
      guint32 stack = self->stack_slots[s];
      guint slot;

      if (stack == 0)
        continue;
      slot = hash_stack (&g_array_index (self->ips, guint64, g_array_index (self->stack_start, guint32, stack - 1)),
                         g_array_index (self->stack_len, guint32, stack - 1)) & (n_slots - 1);
      while (slots[slot] != 0)
        slot = (slot + 1) & (n_slots - 1);
      slots[slot] = stack;
    }

  g_free (self->stack_slots);
  self->stack_slots = slots;
  self->n_stack_slots = n_slots;
}

/* The distinct stack of @n IPs read from @p */
guint32
sps_nettrace_intern_stack (Loader       *self,
              const guint8 *p,
              guint         n)
{
  g_autofree guint64 *ips = g_new (guint64, MAX (n, 1));
  guint32 start;
  guint32 stack;
  guint slot;

  for (guint i = 0; i < n; i++)
    ips[i] = self->pointer_size == 8 ? sps_ms_read_u64 (p + 8 * i) : sps_ms_read_u32 (p + 4 * i);

  if ((self->stack_len->len + 1) * 2 > self->n_stack_slots)
    grow_stack_slots (self);

  slot = hash_stack (ips, n) & (self->n_stack_slots - 1);
  while ((stack = self->stack_slots[slot]) != 0)
    {
      if (g_array_index (self->stack_len, guint32, stack - 1) == n &&
          memcmp (&g_array_index (self->ips, guint64, g_array_index (self->stack_start, guint32, stack - 1)),
                  ips, n * sizeof (guint64)) == 0)
        return stack - 1;
      slot = (slot + 1) & (self->n_stack_slots - 1);
    }

  start = self->ips->len;
  g_array_append_vals (self->ips, ips, n);
  g_array_append_val (self->stack_start, start);
  g_array_append_val (self->stack_len, n);
  stack = self->stack_len->len;
  self->stack_slots[slot] = stack;

  return stack - 1;
}

static guint32
unresolved_frame (Loader  *self,
                  guint64  ip)
{
  char name[32];

  g_snprintf (name, sizeof name, "0x%" G_GINT64_MODIFIER "x", ip);

  return sps_trace_builder_intern_frame (self->builder, sps_trace_builder_intern (self->builder, name, -1),
                                         0, 0, ip);
}

#define N_RECENT 8

/* A direct-mapped IP → frame cache in front of the method search: a
 * program runs in few distinct IPs, each seen in many stacks. It has up
 * to 2^16 entries, fewer for a trace with fewer IPs (a small file need
 * not fill a MiB). */
#define IP_CACHE_MAX_BITS 16

typedef struct
{
  guint64 ip;
  guint32 frame;
} IpCacheEntry;

typedef struct
{
  IpCacheEntry *entries;
  guint         bits;
} IpCache;

static guint32
resolve_ip (Loader       *self,
            GHashTable   *unresolved,
            IpCache      *cache,
            guint64       ip)
{
  IpCacheEntry *entry = &cache->entries[(ip * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)) >> (64 - cache->bits)];
  gpointer value;
  guint32 frame;

  if (entry->frame != SPS_NO_INDEX && entry->ip == ip)
    return entry->frame;

  /* A managed method's, else one frame per unknown address */
  frame = sps_clr_symbols_frame (self->symbols, ip);
  if (frame == SPS_NO_INDEX)
    {
      if ((value = g_hash_table_lookup (unresolved, &ip)) != NULL)
        frame = GPOINTER_TO_UINT (value) - 1;
      else
        {
          frame = unresolved_frame (self, ip);
          g_hash_table_insert (unresolved, sps_nettrace_new_u64 (ip), GUINT_TO_POINTER (frame + 1));
        }
    }

  entry->ip = ip;
  entry->frame = frame;

  return frame;
}

typedef struct
{
  const guint64 *ips;       /* leaf first */
  guint          len;
  guint32       *chain;     /* callsite at each depth, root first */
} Recent;

/* Names every distinct stack's frames and gives the samples their
 * callsites. */
void
sps_nettrace_resolve_stacks (Loader *self)
{
  guint n_stacks = self->stack_len->len;
  g_autofree guint32 *stack_callsite = g_new (guint32, MAX (n_stacks, 1));
  g_autofree guint32 *stack_deferred = g_new (guint32, MAX (n_stacks, 1));
  guint cache_bits = CLAMP (g_bit_storage (self->ips->len), 6, IP_CACHE_MAX_BITS);
  g_autofree IpCacheEntry *cache_entries = g_new (IpCacheEntry, 1u << cache_bits);
  IpCache cache_ = { cache_entries, cache_bits };
  IpCache *cache = &cache_;
  guint n_rows = sps_trace_builder_get_n_samples (self->builder);
  g_autoptr(GHashTable) unresolved = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  Recent recent[N_RECENT] = { { 0, }, };
  guint next_recent = 0;

  for (guint i = 0; i < 1u << cache_bits; i++)
    cache_entries[i].frame = SPS_NO_INDEX;

  sps_clr_symbols_seal (self->symbols);

  for (guint s = 0; s < n_stacks; s++)
    {
      const guint64 *ips = &g_array_index (self->ips, guint64, g_array_index (self->stack_start, guint32, s));
      guint n = g_array_index (self->stack_len, guint32, s);
      guint32 callsite = SPS_NO_INDEX;
      guint shared = 0;
      guint best_slot = 0;
      Recent *slot;

      /* A stack as deep as the cap may have been cut and be repaired:
       * its frames go to the repair, which interns a chain only if one
       * is needed */
      if (self->defer_cut_stacks && n == DEPTH_CAP)
        {
          guint32 start = self->deferred_frames->len;
          guint32 index = self->deferred_start->len;

          for (guint i = n; i > 0; i--)
            {
              guint32 frame = resolve_ip (self, unresolved, cache, ips[i - 1]);

              g_array_append_val (self->deferred_frames, frame);
            }
          g_array_append_val (self->deferred_start, start);
          g_array_append_val (self->deferred_len, n);
          stack_callsite[s] = SPS_NO_INDEX;
          stack_deferred[s] = index;
          continue;
        }
      stack_deferred[s] = SPS_NO_INDEX;

      /* Stacks of one thread share their root part: start from the
       * recent stack with the longest common root part */
      for (guint k = 0; k < N_RECENT; k++)
        {
          const Recent *r = &recent[k];
          guint common = 0;

          while (common < n && common < r->len &&
                 ips[n - 1 - common] == r->ips[r->len - 1 - common])
            common++;
          if (common > shared)
            {
              shared = common;
              best_slot = k;
            }
        }
      if (shared > 0)
        callsite = recent[best_slot].chain[shared - 1];

      slot = &recent[next_recent];
      next_recent = (next_recent + 1) % N_RECENT;
      slot->ips = ips;
      slot->len = n;
      slot->chain = g_renew (guint32, slot->chain, MAX (n, 1));
      if (shared > 0 && slot != &recent[best_slot])
        memcpy (slot->chain, recent[best_slot].chain, shared * sizeof (guint32));

      /* Leaf first in the file; the callsite tree grows from the root */
      for (guint i = n - shared; i > 0; i--)
        {
          guint32 frame = resolve_ip (self, unresolved, cache, ips[i - 1]);

          callsite = sps_trace_builder_intern_callsite (self->builder, callsite, frame);
          slot->chain[n - i] = callsite;
        }
      stack_callsite[s] = callsite;
    }

  for (guint k = 0; k < N_RECENT; k++)
    g_free (recent[k].chain);

  if (self->defer_cut_stacks)
    {
      self->row_stack = g_new (guint32, MAX (n_rows, 1));
      self->n_rows = n_rows;
      for (guint r = 0; r < n_rows; r++)
        self->row_stack[r] = SPS_NO_INDEX;
    }

  /* Allocation stacks: a deferred (cut) one gets its chain here, since
   * the repair only rewrites samples */
  for (guint i = 0; i + 1 < self->allocation_stacks->len; i += 2)
    {
      guint32 allocation = g_array_index (self->allocation_stacks, guint32, i);
      guint32 stack = g_array_index (self->allocation_stacks, guint32, i + 1);
      guint32 callsite = stack_callsite[stack];

      if (callsite == SPS_NO_INDEX && stack_deferred[stack] != SPS_NO_INDEX)
        {
          guint32 d = stack_deferred[stack];
          const guint32 *frames = &g_array_index (self->deferred_frames, guint32,
                                                  g_array_index (self->deferred_start, guint32, d));

          for (guint k = 0; k < g_array_index (self->deferred_len, guint32, d); k++)
            callsite = sps_trace_builder_intern_callsite (self->builder, callsite, frames[k]);
        }
      sps_trace_builder_set_allocation_callsite (self->builder, allocation, callsite);
    }

  for (guint i = 0; i < self->sample_stacks->len; i++)
    {
      guint32 stack = g_array_index (self->sample_stacks, guint32, i);

      if (stack != SPS_NO_INDEX && stack_deferred[stack] != SPS_NO_INDEX)
        self->row_stack[self->first_sample + i] = stack_deferred[stack];
      else if (stack != SPS_NO_INDEX && stack_callsite[stack] != SPS_NO_INDEX)
        sps_trace_builder_set_sample_callsite (self->builder, self->first_sample + i,
                                               stack_callsite[stack], SPS_SAMPLE_NONE);
      else
        sps_trace_builder_set_sample_callsite (self->builder, self->first_sample + i,
                                               SPS_NO_INDEX, SPS_SAMPLE_UNRESOLVED);
    }
}
