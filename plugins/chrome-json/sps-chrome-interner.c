/* sps-chrome-interner.c: interns strings read from the input, with a cache
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Names and categories repeat millions of times in a trace. Decoding each
 * occurrence (escapes, UTF-8 validation) and hashing it into the string
 * pool would cost more than scanning the event, so a direct-mapped cache
 * keyed by the raw bytes as written sits in front of the pool. Entries
 * point into the input buffer, which outlives the import, so a hit costs
 * one comparison of the raw bytes; their hash is computed by the scanning
 * threads.
 */

#define G_LOG_DOMAIN "sps-chrome-interner"

#include "config.h"

#include <string.h>

#include "sps-chrome-interner.h"

#define CACHE_BITS 12
#define CACHE_SIZE (1u << CACHE_BITS)

typedef struct
{
  const char *raw;
  guint32     len;
  guint32     hash;
  guint32     id;
  guint32     flags;
} Entry;

struct _SpsChromeInterner
{
  SpsStringPool *pool;
  GString       *scratch;
  Entry          entries[CACHE_SIZE];
};

SpsChromeInterner *
sps_chrome_interner_new (SpsStringPool *pool)
{
  SpsChromeInterner *self;

  g_assert (pool != NULL);

  self = g_new0 (SpsChromeInterner, 1);
  self->pool = sps_string_pool_ref (pool);
  self->scratch = g_string_sized_new (256);
  return self;
}

void
sps_chrome_interner_free (SpsChromeInterner *self)
{
  if (self == NULL)
    return;
  sps_string_pool_unref (self->pool);
  g_string_free (self->scratch, TRUE);
  g_free (self);
}

/* TRUE if the comma-separated @list holds @token (spaces around tokens
 * are ignored). */
gboolean
sps_chrome_has_token (const char *list,
                      gsize       len,
                      const char *token)
{
  gsize token_len = strlen (token);
  const char *p = list;
  const char *end = list + len;

  while (p < end)
    {
      const char *comma = memchr (p, ',', (gsize) (end - p));
      const char *item_end = comma != NULL ? comma : end;
      const char *a = p;
      const char *b = item_end;

      while (a < b && *a == ' ')
        a++;
      while (b > a && b[-1] == ' ')
        b--;
      if ((gsize) (b - a) == token_len && memcmp (a, token, token_len) == 0)
        return TRUE;
      if (comma == NULL)
        break;
      p = comma + 1;
    }
  return FALSE;
}

/* memcmp() without a call: names are short, and most comparisons succeed */
static inline gboolean
same_bytes (const char *a,
            const char *b,
            gsize       len)
{
  guint64 x;
  guint64 y;

  if (len >= 8)
    {
      gsize i;

      for (i = 0; i + 8 < len; i += 8)
        {
          memcpy (&x, a + i, 8);
          memcpy (&y, b + i, 8);
          if (x != y)
            return FALSE;
        }
      memcpy (&x, a + len - 8, 8);
      memcpy (&y, b + len - 8, 8);
      return x == y;
    }
  for (gsize i = 0; i < len; i++)
    {
      if (a[i] != b[i])
        return FALSE;
    }
  return TRUE;
}

static guint32
intern_slow (SpsChromeInterner *self,
             const char        *raw,
             gsize              len,
             gboolean           escaped,
             guint             *flags)
{
  const char *text = raw;
  gsize text_len = len;
  guint f = SPS_CHROME_STRING_NONE;

  if (escaped || !g_utf8_validate_len (raw, len, NULL))
    {
      g_string_truncate (self->scratch, 0);
      if (sps_chrome_decode_string (raw, len, self->scratch))
        f |= SPS_CHROME_STRING_REPLACED;
      text = self->scratch->str;
      text_len = self->scratch->len;
    }
  if (sps_chrome_has_token (text, text_len, "sampleEvent"))
    f |= SPS_CHROME_STRING_SAMPLE_EVENT;

  *flags = f;
  return sps_string_pool_intern (self->pool, text, (gssize) text_len);
}

/**
 * sps_chrome_interner_intern_hashed:
 * @raw: the string as written in the input (between the quotes), which
 *   must stay alive and unchanged while the interner is used
 * @len: its length
 * @escaped: whether @raw contains backslash escapes
 * @hash: sps_chrome_quick_hash() of @raw
 * @flags: (out): #SpsChromeStringFlags of the string
 *
 * Returns: the id of the decoded string in the pool
 */
guint32
sps_chrome_interner_intern_hashed (SpsChromeInterner *self,
                                   const char        *raw,
                                   gsize              len,
                                   gboolean           escaped,
                                   guint32            hash,
                                   guint             *flags)
{
  Entry *e;
  guint32 id;
  guint f;

  if (len == 0)
    {
      *flags = SPS_CHROME_STRING_NONE;
      return 0;
    }

  e = &self->entries[hash & (CACHE_SIZE - 1)];
  if G_LIKELY (e->hash == hash && e->len == len && e->raw != NULL &&
               same_bytes (e->raw, raw, len))
    {
      *flags = e->flags;
      return e->id;
    }

  id = intern_slow (self, raw, len, escaped, &f);
  *flags = f;

  /* A replaced string is not cached, so that each occurrence is counted
   * by the caller's warning. */
  if ((f & SPS_CHROME_STRING_REPLACED) == 0 && len <= G_MAXUINT32)
    {
      e->raw = raw;
      e->len = (guint32) len;
      e->hash = hash;
      e->id = id;
      e->flags = f;
    }
  return id;
}

/**
 * sps_chrome_interner_intern_raw:
 * @raw: the string as written in the input (between the quotes)
 * @len: its length
 * @escaped: whether @raw contains backslash escapes
 * @flags: (out): #SpsChromeStringFlags of the string
 *
 * Returns: the id of the decoded string in the pool
 */
guint32
sps_chrome_interner_intern_raw (SpsChromeInterner *self,
                                const char        *raw,
                                gsize              len,
                                gboolean           escaped,
                                guint             *flags)
{
  return sps_chrome_interner_intern_hashed (self, raw, len, escaped,
                                            sps_chrome_quick_hash (raw, len), flags);
}

/* Interns a string value, or the text of a number (ids, names given as
 * numbers). Other values intern as "". */
guint32
sps_chrome_interner_intern (SpsChromeInterner    *self,
                            const SpsChromeValue *value,
                            guint                *flags)
{
  if (value->type == SPS_CHROME_VALUE_STRING || value->type == SPS_CHROME_VALUE_NUMBER)
    return sps_chrome_interner_intern_raw (self, value->ptr, value->len, value->escaped, flags);
  *flags = SPS_CHROME_STRING_NONE;
  return 0;
}
