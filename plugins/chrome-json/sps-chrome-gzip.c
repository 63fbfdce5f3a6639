/* sps-chrome-gzip.c: gzip input (detected by magic, decompressed with GIO)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-chrome-gzip"

#include "config.h"

#include <string.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>

#include "sps-chrome-gzip.h"

/* Output produced per converter call, so that progress and cancellation
 * are looked at regularly. */
#define STEP (((gsize) 4) * 1024 * 1024)

/**
 * sps_chrome_gzip_default_limit:
 *
 * The most a gzip file may decompress to: the smaller of
 * %SPS_CHROME_GZIP_MAX_SIZE and half the machine's physical memory (the
 * text stays in memory, args point into it, and the model beside it takes
 * about as much again). A small file that inflates beyond it (a
 * decompression bomb) stops there, with what was decompressed kept.
 *
 * Returns: the limit in bytes
 */
guint64
sps_chrome_gzip_default_limit (void)
{
  guint64 limit = SPS_CHROME_GZIP_MAX_SIZE;
  long pages = sysconf (_SC_PHYS_PAGES);
  long page_size = sysconf (_SC_PAGESIZE);

  if (pages > 0 && page_size > 0)
    limit = MIN (limit, (guint64) pages * (guint64) page_size / 2);
  return limit;
}

gboolean
sps_chrome_gzip_has_magic (const guint8 *data,
                           gsize         len)
{
  return len >= 2 && data[0] == 0x1f && data[1] == 0x8b;
}

/**
 * sps_chrome_gunzip_head:
 * @data: the first bytes of a gzip file
 * @len: how many
 * @out: where the start of the decompressed text goes
 * @out_size: its size
 *
 * Decompresses as much of the start as @data allows, for probing.
 *
 * Returns: the number of bytes written to @out (0 if @data is not gzip)
 */
gsize
sps_chrome_gunzip_head (const guint8 *data,
                        gsize         len,
                        char         *out,
                        gsize         out_size)
{
  g_autoptr(GZlibDecompressor) decompressor = NULL;
  gsize in_pos = 0;
  gsize out_pos = 0;

  if (!sps_chrome_gzip_has_magic (data, len))
    return 0;

  decompressor = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  while (in_pos < len && out_pos < out_size)
    {
      gsize bytes_read = 0;
      gsize bytes_written = 0;
      GConverterResult res;

      res = g_converter_convert (G_CONVERTER (decompressor),
                                 data + in_pos, len - in_pos,
                                 out + out_pos, out_size - out_pos,
                                 G_CONVERTER_NO_FLAGS,
                                 &bytes_read, &bytes_written, NULL);
      in_pos += bytes_read;
      out_pos += bytes_written;
      if (res == G_CONVERTER_ERROR || res == G_CONVERTER_FINISHED ||
          (bytes_read == 0 && bytes_written == 0))
        break;
    }

  return out_pos;
}

/**
 * sps_chrome_gunzip:
 * @data: a whole gzip file, possibly several members one after another
 * @len: its length
 * @limit: the most it may decompress to, in bytes
 * @progress: (nullable): reports the READING fraction (of the input, or
 *   of @limit when the output grows faster), and cancellation
 * @truncated: (out): set when the compressed data ends early (what was
 *   decompressed is returned)
 * @limited: (out): set when the output reached @limit (the first @limit
 *   bytes are returned)
 * @error_offset: (out): the compressed byte offset where an error happened
 * @error: a #GError (%G_IO_ERROR_CANCELLED, or the converter's error for
 *   corrupt data)
 *
 * Decompresses until the end of the input, restarting the decompressor
 * after each member, as `gzip -d` does for concatenated members.
 *
 * Returns: (transfer full): the decompressed bytes, or %NULL on error
 */
GBytes *
sps_chrome_gunzip (const guint8 *data,
                   gsize         len,
                   guint64       limit,
                   SpsProgress  *progress,
                   gboolean     *truncated,
                   gboolean     *limited,
                   gsize        *error_offset,
                   GError      **error)
{
  g_autoptr(GZlibDecompressor) decompressor = NULL;
  g_autofree char *out = NULL;
  gsize capacity;
  gsize in_pos = 0;
  gsize out_pos = 0;

  *truncated = FALSE;
  *limited = FALSE;
  *error_offset = 0;
  limit = MIN (limit, (guint64) G_MAXSIZE / 2);

  /* The trailer of the last member holds its size mod 2^32: a good first
   * guess for the usual single-member file. It is only a guess (a cut or
   * damaged file ends with anything), so it is bounded by a generous
   * compression ratio; the buffer grows if it was too small. */
  capacity = MAX (len * 4, ((gsize) 64) * 1024);
  if (len >= 18)
    {
      guint32 isize = (guint32) data[len - 4] | ((guint32) data[len - 3] << 8) |
                      ((guint32) data[len - 2] << 16) | ((guint32) data[len - 1] << 24);

      if (isize >= len && isize < G_MAXUINT32 && isize / 64 <= len)
        capacity = (gsize) isize + 1;
    }
  capacity = (gsize) MIN ((guint64) capacity, limit + 1);
  out = g_try_malloc (capacity);
  if (out == NULL)
    {
      capacity = ((gsize) 64) * 1024;
      out = g_malloc (capacity);
    }

  decompressor = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);

  /* Until the last member finishes: a cut stream is consumed to its last
   * byte without complaint, and only the call after that, with no input
   * left, reports it (G_IO_ERROR_PARTIAL_INPUT). */
  for (;;)
    {
      g_autoptr(GError) local_error = NULL;
      gsize bytes_read = 0;
      gsize bytes_written = 0;
      GConverterResult res;

      if (progress != NULL)
        {
          if (sps_progress_is_cancelled (progress))
            {
              g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                   _("Loading was cancelled"));
              return NULL;
            }
          /* A member that inflates a lot moves the input little: the
           * output's way to the limit moves too. */
          sps_progress_set_fraction (progress, MAX ((double) in_pos / (double) len,
                                                    (double) out_pos / (double) MAX (limit, 1)));
        }

      /* One byte past the limit (capacity allows it) says there is more */
      if (out_pos > limit)
        {
          *limited = TRUE;
          out_pos = (gsize) limit;
          break;
        }

      if (out_pos == capacity)
        {
          gsize want = (gsize) MIN ((guint64) capacity * 2, limit + 1);
          char *bigger = capacity <= G_MAXSIZE / 2 ? g_try_realloc (out, want) : NULL;

          /* A decompression bomb must not abort the program */
          if (bigger == NULL)
            {
              *error_offset = in_pos;
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                           /* Translators: %zu is a size in bytes */
                           _("the decompressed data (more than %zu bytes) does not fit in memory"),
                           capacity);
              return NULL;
            }
          out = bigger;
          capacity = want;
        }

      res = g_converter_convert (G_CONVERTER (decompressor),
                                 data + in_pos, len - in_pos,
                                 out + out_pos, MIN (MIN (capacity, limit + 1) - out_pos, STEP),
                                 G_CONVERTER_INPUT_AT_END,
                                 &bytes_read, &bytes_written, &local_error);
      in_pos += bytes_read;
      out_pos += bytes_written;

      if (res == G_CONVERTER_ERROR)
        {
          if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT))
            {
              *truncated = TRUE;
              break;
            }
          *error_offset = in_pos;
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }

      if (res == G_CONVERTER_FINISHED)
        {
          /* Another member follows: start over. Anything else after a
           * member (padding written by some tools) is ignored. */
          if (sps_chrome_gzip_has_magic (data + in_pos, len - in_pos))
            {
              g_converter_reset (G_CONVERTER (decompressor));
              continue;
            }
          break;
        }

      if (bytes_read == 0 && bytes_written == 0 && out_pos < capacity)
        {
          /* No progress with input and room left: the stream is cut. */
          *truncated = TRUE;
          break;
        }
    }

  if (progress != NULL)
    sps_progress_set_fraction (progress, 1.0);

  if (out_pos < capacity)
    out = g_realloc (out, MAX (out_pos, 1));
  return g_bytes_new_take (g_steal_pointer (&out), out_pos);
}
