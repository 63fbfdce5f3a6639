/* xca-compress.c: a small greedy compressor for the three MS-XCA formats,
 * to make inputs for the decompressors' tests and benchmark only (the
 * project decompresses ETL buffers; it never compresses)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One hash-chain match finder (3-byte hash, 16 candidates, longest
 * match); the encoders follow the specification's formats: plain LZ77
 * with its shared half-byte lengths, LZ77+Huffman with length-limited
 * canonical codes per 64 KiB block and the long-length bytes placed where
 * the decoder's bit reader reads them, LZNT1 with 4 KiB chunks (stored
 * when compression does not pay).
 */

#include "config.h"

#include <string.h>

#include "xca-compress.h"

#define HASH_BITS   15
#define MAX_CHAIN   16

/* ---- a greedy match finder ----------------------------------------------- */

typedef struct
{
  gint32  head[1 << HASH_BITS];
  gint32 *prev;                  /* one per input byte */
} Matcher;

static Matcher *
matcher_new (gsize len)
{
  Matcher *m = g_new (Matcher, 1);

  m->prev = g_new (gint32, MAX (len, 1));
  return m;
}

static void
matcher_free (Matcher *m)
{
  g_free (m->prev);
  g_free (m);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Matcher, matcher_free)

static guint
hash3 (const guint8 *p)
{
  return ((guint) p[0] << 16 | (guint) p[1] << 8 | p[2]) * 2654435761u >> (32 - HASH_BITS);
}

static void
matcher_reset (Matcher *m)
{
  memset (m->head, 0xff, sizeof m->head);
}

static void
matcher_insert (Matcher      *m,
                const guint8 *d,
                gsize         pos,
                gsize         len)
{
  if (pos + 3 <= len)
    {
      guint h = hash3 (d + pos);

      m->prev[pos] = m->head[h];
      m->head[h] = (gint32) pos;
    }
}

/* The longest match at @pos starting at least @lo, at most @max_off back
 * and @max_len long; 0 when shorter than 3. */
static gsize
matcher_find (Matcher      *m,
              const guint8 *d,
              gsize         pos,
              gsize         len,
              gsize         lo,
              gsize         max_off,
              gsize         max_len,
              gsize        *offset)
{
  gsize best = 0;
  gint32 cand;

  if (pos + 3 > len)
    return 0;
  max_len = MIN (max_len, len - pos);
  cand = m->head[hash3 (d + pos)];
  for (guint chain = 0; cand >= 0 && chain < MAX_CHAIN; chain++, cand = m->prev[cand])
    {
      gsize c = (gsize) cand;
      gsize n = 0;

      if (c < lo || pos - c > max_off)
        break;
      while (n < max_len && d[c + n] == d[pos + n])
        n++;
      if (n > best)
        {
          best = n;
          *offset = pos - c;
        }
    }
  return best >= 3 ? best : 0;
}

/* ---- plain LZ77 --------------------------------------------------------- */

GBytes *
xca_compress_lz77 (const guint8 *d,
                   gsize         len)
{
  g_autoptr(Matcher) m = matcher_new (len);
  GByteArray *o = g_byte_array_new ();
  gsize flag_at = 0;
  guint32 flags = 0;
  guint n_flags = 0;
  gsize half = 0;
  gboolean have_half = FALSE;
  guint8 zero4[4] = { 0 };

  matcher_reset (m);
  g_byte_array_append (o, zero4, 4);
  for (gsize pos = 0; pos < len;)
    {
      gsize offset = 0;
      gsize n = matcher_find (m, d, pos, len, 0, 8192, G_MAXSIZE, &offset);

      if (n_flags == 32)
        {
          memcpy (o->data + flag_at, (guint8[]) { flags, flags >> 8, flags >> 16, flags >> 24 }, 4);
          flag_at = o->len;
          g_byte_array_append (o, zero4, 4);
          flags = 0;
          n_flags = 0;
        }
      flags <<= 1;
      n_flags++;
      if (n == 0)
        {
          g_byte_array_append (o, d + pos, 1);
          matcher_insert (m, d, pos, len);
          pos++;
          continue;
        }

      flags |= 1;
      {
        gsize l = n - 3;
        guint16 word = (guint16) ((offset - 1) << 3 | MIN (l, 7));

        g_byte_array_append (o, (guint8[]) { word, word >> 8 }, 2);
        if (l >= 7)
          {
            gsize nib = MIN (l - 7, 15);

            if (!have_half)
              {
                half = o->len;
                g_byte_array_append (o, (guint8[]) { (guint8) nib }, 1);
                have_half = TRUE;
              }
            else
              {
                o->data[half] |= (guint8) (nib << 4);
                have_half = FALSE;
              }
            if (nib == 15)
              {
                if (l - 22 < 255)
                  g_byte_array_append (o, (guint8[]) { (guint8) (l - 22) }, 1);
                else
                  {
                    g_byte_array_append (o, (guint8[]) { 255 }, 1);
                    if (l <= 0xffff)
                      g_byte_array_append (o, (guint8[]) { l, l >> 8 }, 2);
                    else
                      g_byte_array_append (o, (guint8[]) { 0, 0, l, l >> 8, l >> 16, l >> 24 }, 6);
                  }
              }
          }
      }
      for (gsize i = 0; i < n; i++)
        matcher_insert (m, d, pos + i, len);
      pos += n;
    }
  /* The unused flag bits are set, as the specification's compressor does. */
  flags = (flags << (32 - n_flags)) | (n_flags == 32 ? 0 : (1u << (32 - n_flags)) - 1);
  memcpy (o->data + flag_at, (guint8[]) { flags, flags >> 8, flags >> 16, flags >> 24 }, 4);
  return g_byte_array_free_to_bytes (o);
}

/* ---- LZNT1 -------------------------------------------------------------- */

GBytes *
xca_compress_lznt1 (const guint8 *d,
                    gsize         len)
{
  g_autoptr(Matcher) m = matcher_new (len);
  GByteArray *o = g_byte_array_new ();

  for (gsize start = 0; start < len; start += 4096)
    {
      gsize end = MIN (start + 4096, len);
      gsize header_at = o->len;
      gsize flag_at = 0;
      guint bit = 8;
      gsize body;

      matcher_reset (m);
      g_byte_array_append (o, (guint8[]) { 0, 0 }, 2);
      for (gsize pos = start; pos < end;)
        {
          gsize written = pos - start;
          guint obits = MAX (4, g_bit_storage (written > 0 ? written - 1 : 0));
          gsize offset = 0;
          gsize n = written == 0 ? 0
                    : matcher_find (m, d, pos, end, start, written, ((gsize) 1 << (16 - obits)) + 2, &offset);

          if (bit == 8)
            {
              flag_at = o->len;
              g_byte_array_append (o, (guint8[]) { 0 }, 1);
              bit = 0;
            }
          if (n == 0)
            {
              g_byte_array_append (o, d + pos, 1);
              matcher_insert (m, d, pos, end);
              pos++;
            }
          else
            {
              guint16 token = (guint16) ((offset - 1) << (16 - obits) | (n - 3));

              o->data[flag_at] |= (guint8) (1u << bit);
              g_byte_array_append (o, (guint8[]) { token, token >> 8 }, 2);
              for (gsize i = 0; i < n; i++)
                matcher_insert (m, d, pos + i, end);
              pos += n;
            }
          bit++;
        }
      body = o->len - header_at - 2;
      if (body >= end - start)
        {
          /* Stored: the compressed body would not be smaller. */
          g_byte_array_set_size (o, header_at + 2);
          g_byte_array_append (o, d + start, end - start);
          body = end - start;
          o->data[header_at] = (guint8) (body - 1);
          o->data[header_at + 1] = (guint8) (0x30 | (body - 1) >> 8);
        }
      else
        {
          o->data[header_at] = (guint8) (body - 1);
          o->data[header_at + 1] = (guint8) (0xb0 | (body - 1) >> 8);
        }
    }
  return g_byte_array_free_to_bytes (o);
}

/* ---- LZ77+Huffman ------------------------------------------------------- */

typedef struct
{
  guint16 symbol;
  guint32 offset;      /* matches: offset */
  guint32 length;      /* matches: length − 3 */
} Item;

/* Code lengths of at most 15 bits for @freq (a complete code over the
 * used symbols, at least two): plain Huffman, the counts halved until it
 * fits. */
static void
code_lengths (const guint32 *freq_in,
              guint8        *lengths)
{
  guint32 freq[512];
  gint parent[1024];
  guint64 weight[1024];
  gboolean done[1024];

  memcpy (freq, freq_in, sizeof freq);
  for (;;)
    {
      guint n = 0;
      guint nodes;
      guint max_len = 0;

      for (guint s = 0; s < 512; s++)
        {
          weight[s] = freq[s];
          done[s] = freq[s] == 0;
          parent[s] = -1;
          n += freq[s] != 0;
        }
      nodes = 512;
      for (guint merged = 0; merged + 1 < n; merged++)
        {
          gint a = -1;
          gint b = -1;

          for (guint i = 0; i < nodes; i++)
            {
              if (done[i])
                continue;
              if (a < 0 || weight[i] < weight[a])
                {
                  b = a;
                  a = (gint) i;
                }
              else if (b < 0 || weight[i] < weight[b])
                b = (gint) i;
            }
          weight[nodes] = weight[a] + weight[b];
          done[nodes] = FALSE;
          parent[nodes] = -1;
          parent[a] = parent[b] = (gint) nodes;
          done[a] = done[b] = TRUE;
          nodes++;
        }
      for (guint s = 0; s < 512; s++)
        {
          guint l = 0;

          if (freq[s] != 0)
            for (gint p = parent[s]; p >= 0; p = parent[p])
              l++;
          lengths[s] = (guint8) l;
          max_len = MAX (max_len, l);
        }
      if (max_len <= 15)
        return;
      for (guint s = 0; s < 512; s++)
        if (freq[s] != 0)
          freq[s] = MAX (1, freq[s] / 2);
    }
}

typedef struct
{
  GArray *words;       /* guint16, the bit stream */
  guint32 acc;
  guint   n_acc;
  guint64 bits;
} BitWriter;

static void
put_bits (BitWriter *w,
          guint32    value,
          guint      n)
{
  for (guint i = n; i-- > 0;)
    {
      w->acc = w->acc << 1 | (value >> i & 1);
      w->bits++;
      if (++w->n_acc == 16)
        {
          guint16 word = (guint16) w->acc;

          g_array_append_val (w->words, word);
          w->acc = 0;
          w->n_acc = 0;
        }
    }
}

GBytes *
xca_compress_huffman (const guint8 *d,
                      gsize         len)
{
  g_autoptr(Matcher) m = matcher_new (len);
  GByteArray *o = g_byte_array_new ();

  matcher_reset (m);
  for (gsize start = 0; start < len; start += 65536)
    {
      gsize end = MIN (start + 65536, len);
      g_autoptr(GArray) items = g_array_new (FALSE, FALSE, sizeof (Item));
      g_autoptr(GArray) extras = g_array_new (FALSE, FALSE, sizeof (guint64));  /* words loaded << 32 | bytes */
      g_autoptr(GByteArray) extra_bytes = g_byte_array_new ();
      guint32 freq[512] = { 0 };
      guint8 lengths[512];
      guint32 codes[512];
      guint8 table[256] = { 0 };
      BitWriter w = { g_array_new (FALSE, FALSE, sizeof (guint16)), 0, 0, 0 };
      guint32 code = 0;
      gsize loaded_words;
      gsize next_extra = 0;
      gsize extra_pos = 0;

      for (gsize pos = start; pos < end;)
        {
          gsize offset = 0;
          gsize n = matcher_find (m, d, pos, end, 0, 65535, 65535 + 3, &offset);
          Item it = { 0 };

          if (n == 0)
            {
              it.symbol = d[pos];
              matcher_insert (m, d, pos, len);
              pos++;
            }
          else
            {
              it.symbol = (guint16) (256 + (g_bit_storage (offset) - 1) * 16 + MIN (n - 3, 15));
              it.offset = (guint32) offset;
              it.length = (guint32) (n - 3);
              for (gsize i = 0; i < n; i++)
                matcher_insert (m, d, pos + i, len);
              pos += n;
            }
          freq[it.symbol]++;
          g_array_append_val (items, it);
        }
      if (end == len)
        {
          Item eof = { 256, 0, 0 };

          freq[256]++;
          g_array_append_val (items, eof);
        }
      /* A complete code needs two symbols. */
      {
        guint used = 0;

        for (guint s = 0; s < 512; s++)
          used += freq[s] != 0;
        if (used < 2)
          freq[freq[0] == 0 ? 0 : 1]++;
      }
      code_lengths (freq, lengths);
      /* Canonical codes: by (length, symbol), doubling at each length */
      for (guint l = 1; l <= 15; l++)
        {
          for (guint s = 0; s < 512; s++)
            if (lengths[s] == l)
              codes[s] = code++;
          code <<= 1;
        }
      for (guint s = 0; s < 512; s++)
        table[s / 2] |= (guint8) (lengths[s] << (4 * (s & 1)));

      for (guint i = 0; i < items->len; i++)
        {
          const Item *it = &g_array_index (items, Item, i);

          put_bits (&w, codes[it->symbol], lengths[it->symbol]);
          if (it->symbol < 256 || it->offset == 0)  /* a literal or the end symbol */
            continue;
          if (it->length >= 15)
            {
              /* Read after the symbol's bits, with this many words loaded */
              guint64 at = MAX (2, (w.bits + 15) / 16 + 1);
              guint64 e = at << 32 | extra_bytes->len;

              g_array_append_val (extras, e);
              if (it->length - 15 < 255)
                g_byte_array_append (extra_bytes, (guint8[]) { (guint8) (it->length - 15) }, 1);
              else
                g_byte_array_append (extra_bytes, (guint8[]) { 255, it->length, it->length >> 8 }, 3);
            }
          {
            guint k = g_bit_storage (it->offset) - 1;

            put_bits (&w, it->offset - (1u << k), k);
          }
        }

      /* Every word the decoder loads exists; then interleave the extra
       * bytes where the decoder reads them: after the words loaded by
       * then. */
      loaded_words = MAX (2, (w.bits + 15) / 16 + 1);
      put_bits (&w, 0, (guint) (loaded_words * 16 - w.bits));
      g_byte_array_append (o, table, 256);
      for (gsize k = 0; k < loaded_words; k++)
        {
          guint16 word = g_array_index (w.words, guint16, k);

          g_byte_array_append (o, (guint8[]) { word, word >> 8 }, 2);
          while (next_extra < extras->len &&
                 g_array_index (extras, guint64, next_extra) >> 32 == k + 1)
            {
              gsize from = (gsize) (g_array_index (extras, guint64, next_extra) & 0xffffffff);
              gsize to = next_extra + 1 < extras->len
                         ? (gsize) (g_array_index (extras, guint64, next_extra + 1) & 0xffffffff)
                         : extra_bytes->len;

              g_byte_array_append (o, extra_bytes->data + from, (guint) (to - from));
              extra_pos = to;
              next_extra++;
            }
        }
      g_assert (extra_pos == extra_bytes->len);
      g_array_free (w.words, TRUE);
    }
  return g_byte_array_free_to_bytes (o);
}
