/* bench-xca.c: throughput of the MS-XCA buffer decompressors
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Usage: bench-xca [PERFVIEW-ETL-ZIP]
 *
 * The data: the payloads of the PerfView CPU trace's ETL buffers (its
 * 275 compressed buffers expanded, about 17.7 MB) when the zip is given
 * and present, else generated ETL-like records of the same volume. Each
 * 64 KiB payload is compressed with each of the three formats by the
 * small greedy compressor of xca-compress.c (inputs for the benchmark and
 * the tests only: the project decompresses, it never compresses), and
 * every buffer is checked to expand back to its payload. Then, best of 5
 * after a warm-up, in CPU time (the machine may be busy), in the same
 * run:
 *
 * - memcpy of the same payloads, buffer by buffer: the floor;
 * - each decoder over its buffers, in MB/s of decompressed output;
 * - with the zip: plain LZ77 over the trace's own buffers, as Windows
 *   compressed them.
 */

#define G_LOG_DOMAIN "sps-bench-xca"

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "sps-bench-util.h"
#include "sps-xca.h"
#include "xca-compress.h"

#define BUFFER_SIZE (64 * 1024)
#define RUNS        5

typedef struct
{
  GPtrArray *plain;      /* GBytes: payloads */
  GPtrArray *packed[3];  /* GBytes per format, same order */
  GPtrArray *native;     /* GBytes: the trace's own LZ77 buffers (or empty) */
} Corpus;

/* ---- the data ---------------------------------------------------------- */

static guint32
get_u32 (const guint8 *p)
{
  return (guint32) p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16 | (guint32) p[3] << 24;
}

/* The trace's compressed buffers (kept in corpus->native) and their
 * payloads; FALSE when the zip or unzip is missing. */
static gboolean
load_trace (const char *zip,
            Corpus     *corpus)
{
  g_autoptr(GBytes) contents = sps_bench_unzip_member (zip, "net.4.5.2.x86.etl");
  const guint8 *d;
  gsize len;

  if (contents == NULL)
    return FALSE;
  d = g_bytes_get_data (contents, &len);
  for (gsize off = 0; off + 72 <= len;)
    {
      guint32 size = get_u32 (d + off);
      guint32 saved = get_u32 (d + off + 4);

      if (size < 72 || size > len - off || saved < 72 || saved - 72 > BUFFER_SIZE)
        break;
      if (d[off + 52] & 0x40)
        {
          guint8 *out = g_malloc (saved - 72);
          g_autoptr(GError) error = NULL;

          if (sps_xca_lz77_decompress (d + off + 72, size - 72, out, saved - 72, &error) != (gssize) (saved - 72))
            g_error ("buffer at byte %zu: %s", off, error != NULL ? error->message : "short");
          g_ptr_array_add (corpus->native, g_bytes_new (d + off + 72, size - 72));
          g_ptr_array_add (corpus->plain, g_bytes_new_take (out, saved - 72));
        }
      off += size;
    }
  return corpus->plain->len > 0;
}

/* ETL-like payloads: 8-byte aligned records with a header of rising
 * timestamps, a few threads and event kinds, pointer-sized stack entries
 * from a set of hot frames, and some text. */
static void
generate (Corpus *corpus,
          gsize   total)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (15);
  guint64 ts = 1000000;

  for (gsize done = 0; done < total; done += BUFFER_SIZE - 72)
    {
      GByteArray *b = g_byte_array_sized_new (BUFFER_SIZE);

      while (b->len + 256 <= BUFFER_SIZE - 72)
        {
          guint depth = (guint) g_rand_int_range (rand, 2, 24);
          guint size = 24 + 8 * depth + (g_rand_int_range (rand, 0, 4) == 0 ? 32 : 0);
          guint32 tid = 1000 + 4 * (guint32) g_rand_int_range (rand, 0, 12);
          guint8 header[24] = { (guint8) size, (guint8) (size >> 8), 17, 0xc0, 2, 0, 46, 15 };

          ts += (guint64) g_rand_int_range (rand, 1, 5000);
          memcpy (header + 8, &tid, 4);
          memcpy (header + 16, &ts, 8);
          g_byte_array_append (b, header, 24);
          for (guint i = 0; i < depth; i++)
            {
              guint64 ip = 0x7ff800000000ull + (guint64) g_rand_int_range (rand, 0, 200) * 0x1234;

              g_byte_array_append (b, (const guint8 *) &ip, 8);
            }
          if (size > 24 + 8 * depth)
            g_byte_array_append (b, (const guint8 *) "C:\\Windows\\System32\\ntdll.dll\0\0", 32);
        }
      g_ptr_array_add (corpus->plain, g_byte_array_free_to_bytes (b));
    }
}

/* ---- timing ------------------------------------------------------------ */

typedef gssize (*Decoder) (const guint8 *, gsize, guint8 *, gsize, GError **);

static double
time_decoder (Decoder    decode,
              GPtrArray *packed,
              GPtrArray *plain,
              guint8    *out)
{
  double best = INFINITY;

  for (guint run = 0; run <= RUNS; run++)
    {
      double t0 = sps_bench_cpu_seconds ();
      double s;

      for (guint i = 0; i < packed->len; i++)
        {
          gsize in_len;
          const guint8 *in = g_bytes_get_data (packed->pdata[i], &in_len);
          gsize out_len = g_bytes_get_size (plain->pdata[i]);

          if (decode (in, in_len, out, out_len, NULL) != (gssize) out_len)
            g_error ("buffer %u does not decode", i);
        }
      s = sps_bench_cpu_seconds () - t0;
      if (run > 0)
        best = MIN (best, s);
    }
  return best;
}

static gssize
copy_buffer (const guint8  *in,
             gsize          in_len,
             guint8        *out,
             gsize          out_len,
             GError       **error)
{
  memcpy (out, in, MIN (in_len, out_len));
  return (gssize) out_len;
}

int
main (int   argc,
      char *argv[])
{
  static const struct
  {
    const char *name;
    Decoder     decode;
    GBytes   *(*compress) (const guint8 *, gsize);
  } formats[] = {
    { "plain LZ77", sps_xca_lz77_decompress, xca_compress_lz77 },
    { "LZ77+Huffman", sps_xca_huffman_decompress, xca_compress_huffman },
    { "LZNT1", sps_xca_lznt1_decompress, xca_compress_lznt1 },
  };
  Corpus corpus = { g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref), { NULL },
                    g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref) };
  g_autofree guint8 *out = g_malloc (BUFFER_SIZE);
  g_autofree char *loadavg = NULL;
  gsize plain_bytes = 0;
  gsize packed_total[G_N_ELEMENTS (formats)] = { 0 };
  gsize native_bytes = 0;
  double t_copy;
  double mb;

  if (g_file_get_contents ("/proc/loadavg", &loadavg, NULL, NULL))
    printf ("load average before: %s", loadavg);
  if (load_trace (argc > 1 ? argv[1] : NULL, &corpus))
    printf ("data: the %u compressed buffers of %s, expanded\n", corpus.plain->len, argv[1]);
  else
    {
      generate (&corpus, 17707800);
      printf ("data: %u generated ETL-like buffers (no PerfView trace given or found)\n", corpus.plain->len);
    }
  for (guint i = 0; i < corpus.plain->len; i++)
    plain_bytes += g_bytes_get_size (corpus.plain->pdata[i]);
  mb = (double) plain_bytes / 1e6;
  printf ("decompressed size: %.1f MB\n", mb);

  /* Compress each payload, and check that it expands back. */
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    {
      gsize packed_bytes = 0;

      corpus.packed[f] = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
      for (guint i = 0; i < corpus.plain->len; i++)
        {
          gsize len;
          const guint8 *p = g_bytes_get_data (corpus.plain->pdata[i], &len);
          GBytes *packed = formats[f].compress (p, len);
          g_autoptr(GError) error = NULL;
          gsize in_len;
          const guint8 *in = g_bytes_get_data (packed, &in_len);

          if (formats[f].decode (in, in_len, out, len, &error) != (gssize) len || memcmp (out, p, len) != 0)
            g_error ("%s: buffer %u does not expand back: %s", formats[f].name, i,
                     error != NULL ? error->message : "different bytes");
          packed_bytes += in_len;
          g_ptr_array_add (corpus.packed[f], packed);
        }
      packed_total[f] = packed_bytes;
      printf ("%-13s compressed here: %.1f MB (%.1f %%), every buffer expands back\n", formats[f].name,
              (double) packed_bytes / 1e6, 100.0 * (double) packed_bytes / (double) plain_bytes);
    }

  t_copy = time_decoder (copy_buffer, corpus.plain, corpus.plain, out);
  printf ("memcpy of the payloads:            %7.1f MB/s\n", mb / t_copy);
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    {
      double t = time_decoder (formats[f].decode, corpus.packed[f], corpus.plain, out);

      printf ("%-13s decompression:       %7.1f MB/s  (%.1fx the memcpy time; %.1f MB/s of input)\n",
              formats[f].name, mb / t, t / t_copy, (double) packed_total[f] / 1e6 / t);
    }
  if (corpus.native->len > 0)
    {
      double t = time_decoder (sps_xca_lz77_decompress, corpus.native, corpus.plain, out);

      for (guint i = 0; i < corpus.native->len; i++)
        native_bytes += g_bytes_get_size (corpus.native->pdata[i]);
      printf ("plain LZ77, the trace's own buffers: %5.1f MB/s  (%.1fx the memcpy time; %.1f MB/s of input)\n",
              mb / t, t / t_copy, (double) native_bytes / 1e6 / t);
    }

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    g_ptr_array_unref (corpus.packed[f]);
  g_ptr_array_unref (corpus.plain);
  g_ptr_array_unref (corpus.native);
  return 0;
}
