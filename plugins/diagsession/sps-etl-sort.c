/* sps-etl-sort.c: a stable radix sort for the kernel reading's arrays
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The stack parts (by sample) and the stack key definitions (by key, then
 * time) are sorted once per import, tens of thousands of elements or
 * more: g_array_sort() called a comparison and copied each element
 * through function pointers some 15 times per element. Here each pass
 * moves every element once by one byte of its key, and the bytes that
 * are the same in every element (the high bytes of times and addresses)
 * cost no pass.
 */

#define G_LOG_DOMAIN "sps-etl"

#include "config.h"

#include <string.h>

#include "sps-etl-private.h"

static inline guint64
key_of (const guint8 *element,
        gsize         key_offset,
        guint         key_size)
{
  guint32 k32;
  guint64 k64;

  if (key_size == 4)
    {
      memcpy (&k32, element + key_offset, 4);
      return k32;
    }
  memcpy (&k64, element + key_offset, 8);
  return k64;
}

/* One element moved: a move of a constant size for the sizes sorted here */
static inline void
move_element (guint8       *dst,
              const guint8 *src,
              gsize         size)
{
  if (size == 8)
    memcpy (dst, src, 8);
  else if (size == 24)
    memcpy (dst, src, 24);
  else
    memcpy (dst, src, size);
}

/**
 * sps_etl_radix_sort:
 * @elements: (array length=n): the elements
 * @n: their number
 * @size: an element's size in bytes
 * @key_offset: where the key is in an element
 * @key_size: the key's size: 4 or 8 bytes, an unsigned integer in the
 *   machine's order
 *
 * Sorts @elements by their keys, stably: elements of equal keys stay in
 * their order. Sorting by a second key and then by a first orders by the
 * first, then the second.
 */
void
sps_etl_radix_sort (gpointer elements,
                    guint    n,
                    gsize    size,
                    gsize    key_offset,
                    guint    key_size)
{
  guint8 *from = elements;
  g_autofree guint8 *scratch = NULL;
  g_autofree guint *counts = NULL;
  guint8 *to;

  g_return_if_fail (key_size == 4 || key_size == 8);
  g_return_if_fail (key_offset + key_size <= size);

  if (n < 2)
    return;

  /* Every byte's histogram in one pass */
  counts = g_new0 (guint, 8 * 256);
  for (guint i = 0; i < n; i++)
    {
      guint64 key = key_of (from + (gsize) i * size, key_offset, key_size);

      for (guint b = 0; b < key_size; b++)
        counts[b * 256 + (guint) ((key >> (8 * b)) & 0xff)]++;
    }

  scratch = g_malloc ((gsize) n * size);
  to = scratch;
  for (guint b = 0; b < key_size; b++)
    {
      guint *count = &counts[b * 256];
      guint sum = 0;
      guint8 *swap;

      /* The same byte everywhere: already in order by it */
      if (count[(key_of (from, key_offset, key_size) >> (8 * b)) & 0xff] == n)
        continue;
      for (guint d = 0; d < 256; d++)
        {
          guint c = count[d];

          count[d] = sum;
          sum += c;
        }
      for (guint i = 0; i < n; i++)
        {
          const guint8 *element = from + (gsize) i * size;
          guint d = (guint) ((key_of (element, key_offset, key_size) >> (8 * b)) & 0xff);

          move_element (to + (gsize) count[d]++ * size, element, size);
        }
      swap = from;
      from = to;
      to = swap;
    }
  if (from != elements)
    memcpy (elements, from, (gsize) n * size);
}
