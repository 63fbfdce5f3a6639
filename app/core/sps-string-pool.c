/* sps-string-pool.c: interned strings with explicit lengths
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-string-pool"

#include "config.h"

#include <string.h>

#include "sps-string-pool-private.h"
#include "sps-types.h"

/* Strings live in an arena of chunks that never move, so a pointer
 * returned by sps_string_pool_get() stays valid while interning goes on
 * (the importer keeps them while it reads). Ids index three parallel
 * columns; the hash table is an open-addressing array of ids, so a string
 * costs its bytes + 1 (NUL) plus 16–24 bytes of bookkeeping. */

#define MIN_CHUNK_SIZE   (16 * 1024)
#define MAX_CHUNK_SIZE   (1024 * 1024)
#define MIN_SLOTS        64

struct _SpsStringPool
{
  gatomicrefcount   ref_count;

  guint             n_strings;
  guint             capacity;
  const char      **strings;
  guint32          *lengths;
  guint32          *hashes;

  /* Open addressing, linear probing; a slot holds an id, 0 = empty (the
   * empty string, id 0, is never looked up through the table). */
  guint32          *slots;
  guint             n_slots;

  char            **chunks;
  guint             n_chunks;
  guint             chunks_capacity;
  char             *chunk_pos;
  gsize             chunk_left;
  gsize             next_chunk_size;
  gsize             chunk_bytes;

  /* Ids the pool hands out, the empty string's included (see
   * _sps_string_pool_set_max_strings()); new strings past it intern as
   * the empty string and are counted */
  guint             max_strings;
  guint64           n_dropped;
};

G_DEFINE_BOXED_TYPE (SpsStringPool, sps_string_pool,
                     sps_string_pool_ref, sps_string_pool_unref)

static inline guint64
load_u64 (const char *p)
{
  guint64 v;

  memcpy (&v, p, sizeof v);
  return v;
}

static inline guint64
rotl64 (guint64 x,
        guint   r)
{
  return (x << r) | (x >> (64 - r));
}

/* A word-at-a-time hash (murmur-style rounds with a 64-bit finaliser):
 * names and categories are short, so the per-call cost matters more than
 * throughput on long keys. */
static guint32
hash_bytes (const char *str,
            gsize       len)
{
  const guint64 c1 = G_GUINT64_CONSTANT (0x87c37b91114253d5);
  const guint64 c2 = G_GUINT64_CONSTANT (0x4cf5ad432745937f);
  guint64 h = G_GUINT64_CONSTANT (0x9e3779b97f4a7c15) ^ (guint64) len;

  while (len >= 8)
    {
      guint64 k = load_u64 (str) * c1;

      h ^= rotl64 (k, 31) * c2;
      h = rotl64 (h, 27) * 5 + 0x52dce729;
      str += 8;
      len -= 8;
    }

  if (len > 0)
    {
      guint64 k = 0;

      memcpy (&k, str, len);
      k *= c1;
      h ^= rotl64 (k, 31) * c2;
    }

  h ^= h >> 33;
  h *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  h ^= h >> 33;
  h *= G_GUINT64_CONSTANT (0xc4ceb9fe1a85ec53);
  h ^= h >> 33;

  return (guint32) h;
}

static void
grow_slots (SpsStringPool *self)
{
  guint n_slots = self->n_slots * 2;
  guint mask = n_slots - 1;
  guint32 *slots = g_new0 (guint32, n_slots);

  g_assert (n_slots > self->n_slots);

  for (guint id = 1; id < self->n_strings; id++)
    {
      guint i = self->hashes[id] & mask;

      while (slots[i] != 0)
        i = (i + 1) & mask;
      slots[i] = id;
    }

  g_free (self->slots);
  self->slots = slots;
  self->n_slots = n_slots;
}

static void
grow_columns (SpsStringPool *self)
{
  guint capacity;

  g_assert (self->n_strings == self->capacity);
  g_assert (self->capacity < self->max_strings);

  capacity = MIN (self->capacity * 2, self->max_strings);
  self->strings = g_renew (const char *, self->strings, capacity);
  self->lengths = g_renew (guint32, self->lengths, capacity);
  self->hashes = g_renew (guint32, self->hashes, capacity);
  self->capacity = capacity;
}

static void
add_chunk (SpsStringPool *self,
           char          *chunk,
           gsize          size)
{
  if (self->n_chunks == self->chunks_capacity)
    {
      self->chunks_capacity = MAX (16, self->chunks_capacity * 2);
      self->chunks = g_renew (char *, self->chunks, self->chunks_capacity);
    }

  self->chunks[self->n_chunks++] = chunk;
  self->chunk_bytes += size;
}

/* Copies @len bytes plus a NUL into the arena. Big strings get a chunk of
 * their own so that they do not waste the tail of the current chunk. */
static const char *
store_bytes (SpsStringPool *self,
             const char    *str,
             gsize          len)
{
  gsize need = len + 1;
  char *dest;

  if (need > self->next_chunk_size / 4)
    {
      dest = g_malloc (need);
      add_chunk (self, dest, need);
    }
  else
    {
      if (need > self->chunk_left)
        {
          gsize size = self->next_chunk_size;

          self->chunk_pos = g_malloc (size);
          self->chunk_left = size;
          add_chunk (self, self->chunk_pos, size);
          if (self->next_chunk_size < MAX_CHUNK_SIZE)
            self->next_chunk_size *= 2;
        }

      dest = self->chunk_pos;
      self->chunk_pos += need;
      self->chunk_left -= need;
    }

  memcpy (dest, str, len);
  dest[len] = '\0';

  return dest;
}

static inline gboolean
find (SpsStringPool *self,
      const char    *str,
      gsize          len,
      guint32        hash,
      guint         *slot)
{
  guint mask = self->n_slots - 1;
  guint i = hash & mask;

  for (;;)
    {
      guint32 id = self->slots[i];

      if (id == 0)
        {
          *slot = i;
          return FALSE;
        }

      if (self->hashes[id] == hash &&
          self->lengths[id] == len &&
          memcmp (self->strings[id], str, len) == 0)
        {
          *slot = i;
          return TRUE;
        }

      i = (i + 1) & mask;
    }
}

/**
 * sps_string_pool_new:
 *
 * Creates an empty pool. Id 0 is the empty string.
 *
 * Returns: (transfer full): a new #SpsStringPool
 */
SpsStringPool *
sps_string_pool_new (void)
{
  SpsStringPool *self = g_new0 (SpsStringPool, 1);

  g_atomic_ref_count_init (&self->ref_count);

  self->capacity = 64;
  self->strings = g_new (const char *, self->capacity);
  self->lengths = g_new (guint32, self->capacity);
  self->hashes = g_new (guint32, self->capacity);
  self->n_slots = MIN_SLOTS;
  self->slots = g_new0 (guint32, self->n_slots);
  self->next_chunk_size = MIN_CHUNK_SIZE;
  self->max_strings = SPS_STRING_POOL_MAX_STRINGS;

  self->strings[0] = "";
  self->lengths[0] = 0;
  self->hashes[0] = 0;
  self->n_strings = 1;

  return self;
}

/**
 * sps_string_pool_ref:
 * @self: a #SpsStringPool
 *
 * Returns: (transfer full): @self
 */
SpsStringPool *
sps_string_pool_ref (SpsStringPool *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);

  return self;
}

/**
 * sps_string_pool_unref:
 * @self: (transfer full): a #SpsStringPool
 *
 * Drops a reference; the last one frees the pool and every string in it.
 */
void
sps_string_pool_unref (SpsStringPool *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  for (guint i = 0; i < self->n_chunks; i++)
    g_free (self->chunks[i]);
  g_free (self->chunks);
  g_free (self->strings);
  g_free (self->lengths);
  g_free (self->hashes);
  g_free (self->slots);
  g_free (self);
}

/**
 * sps_string_pool_intern:
 * @self: a #SpsStringPool
 * @str: the bytes of the string (from a binding: a string; from C they may
 *   contain NUL when @len gives their number)
 * @len: the length of @str in bytes, or -1 if it is NUL-terminated
 *
 * Finds or adds a string. Equal byte sequences always get the same id.
 * A pool is not thread-safe while strings are being added.
 *
 * Returns: the id of the string; 0 for the empty string
 */
guint32
sps_string_pool_intern (SpsStringPool *self,
                        const char    *str,
                        gssize         len)
{
  guint32 hash;
  guint32 id;
  guint slot;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (str != NULL || len == 0, 0);

  if (len < 0)
    len = strlen (str);

  g_return_val_if_fail ((gsize) len <= G_MAXUINT32, 0);

  if (len == 0)
    return 0;

  hash = hash_bytes (str, len);
  if (find (self, str, len, hash, &slot))
    return self->slots[slot];

  if G_UNLIKELY (self->n_strings >= self->max_strings)
    {
      self->n_dropped++;
      return 0;
    }
  if (self->n_strings == self->capacity)
    grow_columns (self);

  id = self->n_strings++;
  self->strings[id] = store_bytes (self, str, len);
  self->lengths[id] = len;
  self->hashes[id] = hash;
  self->slots[slot] = id;

  /* Keep the load factor at or below 1/2 so probes stay short. */
  if ((gsize) self->n_strings * 2 > self->n_slots)
    grow_slots (self);

  return id;
}

/**
 * sps_string_pool_lookup:
 * @self: a #SpsStringPool
 * @str: the bytes of the string
 * @len: the length of @str in bytes, or -1 if it is NUL-terminated
 *
 * Finds a string without adding it.
 *
 * Returns: the id of the string, 0 for the empty string, or
 *   %SPS_NO_INDEX if the pool does not hold it
 */
guint32
sps_string_pool_lookup (SpsStringPool *self,
                        const char    *str,
                        gssize         len)
{
  guint slot;
  guint32 hash;

  g_return_val_if_fail (self != NULL, SPS_NO_INDEX);
  g_return_val_if_fail (str != NULL || len == 0, SPS_NO_INDEX);

  if (len < 0)
    len = strlen (str);

  if (len == 0)
    return 0;
  if ((gsize) len > G_MAXUINT32)
    return SPS_NO_INDEX;

  hash = hash_bytes (str, len);
  if (find (self, str, len, hash, &slot))
    return self->slots[slot];

  return SPS_NO_INDEX;
}

/**
 * sps_string_pool_get:
 * @self: a #SpsStringPool
 * @id: an id returned by sps_string_pool_intern()
 * @len: (out) (optional): the length of the string in bytes
 *
 * The returned bytes are followed by a NUL byte, and may contain NUL bytes
 * of their own (check @len). They stay valid for the life of the pool.
 *
 * Returns: (transfer none): the string
 */
const char *
sps_string_pool_get (SpsStringPool *self,
                     guint32        id,
                     gsize         *len)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (id < self->n_strings, NULL);

  if (len != NULL)
    *len = self->lengths[id];

  return self->strings[id];
}

/**
 * sps_string_pool_get_size:
 * @self: a #SpsStringPool
 *
 * Returns: the number of strings, the empty string included (ids are
 *   0 … size − 1)
 */
guint
sps_string_pool_get_size (SpsStringPool *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_strings;
}

/**
 * sps_string_pool_get_memory_size:
 * @self: a #SpsStringPool
 *
 * Returns: the bytes the pool has allocated (strings, ids, hash table)
 */
gsize
sps_string_pool_get_memory_size (SpsStringPool *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return sizeof *self +
         self->chunk_bytes +
         (gsize) self->chunks_capacity * sizeof (char *) +
         (gsize) self->capacity * (sizeof (const char *) + 2 * sizeof (guint32)) +
         (gsize) self->n_slots * sizeof (guint32);
}

/**
 * _sps_string_pool_set_max_strings:
 * @self: a #SpsStringPool
 * @max_strings: the ids it may hand out, the empty string's included:
 *   at least the strings it holds, at most
 *   %SPS_STRING_POOL_MAX_STRINGS
 *
 * Lowers the pool's limit, so that a test reaches it with a few strings.
 */
void
_sps_string_pool_set_max_strings (SpsStringPool *self,
                                  guint          max_strings)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (max_strings >= self->n_strings && max_strings <= SPS_STRING_POOL_MAX_STRINGS);

  self->max_strings = max_strings;
}

/**
 * _sps_string_pool_get_n_dropped:
 * @self: a #SpsStringPool
 *
 * Returns: how many times a new string came after the pool was full (and
 *   was given the empty string's id instead)
 */
guint64
_sps_string_pool_get_n_dropped (SpsStringPool *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_dropped;
}
