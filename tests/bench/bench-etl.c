/* bench-etl.c: ETL import throughput and memory (issue 15)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Usage: bench-etl PERFVIEW-ETL-ZIP DIR [MB]
 *
 * (MB, 200 unless given: a smaller input for callgrind or massif, whose
 * instruction counts compare changes where wall times cannot.)
 *
 * The data: PerfView's 4.4 MB CPU trace (plain LZ77 buffers) grown to at
 * least 200 MB by keeping its first buffer (the trace header) and then
 * repeating its other buffers, written once to DIR/bench-etl-200mb.etl and
 * mapped, so that the input's pages are the file's and not anonymous
 * memory. In one run:
 *
 * - the floor: a bare pass over the same buffers, each compressed one
 *   expanded into one scratch buffer, nothing else;
 * - the import: every record read and dispatched, processes, images,
 *   samples and stacks into a builder, stacks and managed names resolved,
 *   and the trace finished (sorted, indexed), as the importer does.
 *
 * Reported: MB/s of the file (compressed input), samples/s, the peak of
 * anonymous memory above what the process held before (polled every
 * 2 ms) and what the finished trace keeps, per sample, and the peak RSS.
 * Targets: at least 100 MB/s; at most 64 bytes of anonymous memory per
 * sample. Times are the median of three imports, in CPU time of the
 * process (the machine may be busy), wall time beside it.
 */

#define G_LOG_DOMAIN "sps-bench-etl"

#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <glib.h>
#include <glib/gstdio.h>

#include "sps-bench-util.h"
#include "sps-etl-import.h"
#include "sps-xca.h"

#define TARGET_MB    200
#define HEADER_SIZE  72
#define RUNS         3

static guint32
get_u32 (const guint8 *p)
{
  return (guint32) p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16 | (guint32) p[3] << 24;
}

/* The size of the buffer at @off, or 0 when none fits there */
static guint32
buffer_size (const guint8 *d,
             gsize         len,
             gsize         off)
{
  guint32 size;

  if (len - off < HEADER_SIZE)
    return 0;
  size = get_u32 (d + off);
  return size >= HEADER_SIZE && size <= len - off ? size : 0;
}

/* DIR/bench-etl-{target_mb}mb.etl, written when missing */
static char *
ensure_input (const char *zip,
              const char *dir,
              guint       target_mb)
{
  g_autofree char *name = g_strdup_printf ("bench-etl-%umb.etl", target_mb);
  char *path = g_build_filename (dir, name, NULL);
  gsize target = (gsize) target_mb * 1000 * 1000;
  g_autoptr(GBytes) etl = NULL;
  g_autoptr(GByteArray) out = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *tmp = NULL;
  const guint8 *d;
  gsize len;
  guint32 first;

  if (g_file_test (path, G_FILE_TEST_EXISTS))
    return path;
  if ((etl = sps_bench_unzip_member (zip, "net.4.5.2.x86.etl")) == NULL)
    {
      g_free (path);
      return NULL;
    }
  d = g_bytes_get_data (etl, &len);
  if ((first = buffer_size (d, len, 0)) == 0)
    g_error ("%s: no first buffer", zip);

  out = g_byte_array_sized_new (target + len);
  g_byte_array_append (out, d, first);
  while (out->len < target)
    {
      guint32 size;

      for (gsize off = first; (size = buffer_size (d, len, off)) != 0; off += size)
        g_byte_array_append (out, d + off, size);
    }

  tmp = g_strconcat (path, ".tmp", NULL);
  if (!g_file_set_contents (tmp, (const char *) out->data, out->len, &error) ||
      g_rename (tmp, path) != 0)
    g_error ("%s: %s", path, error != NULL ? error->message : g_strerror (errno));
  return path;
}

/* The floor: each buffer's header read, each compressed buffer expanded
 * (the trace's buffers are plain LZ77). Returns the bytes expanded. */
static gsize
bare_pass (const guint8 *d,
           gsize         len)
{
  g_autofree guint8 *scratch = g_malloc (1 << 20);
  gsize expanded = 0;
  guint32 size;

  for (gsize off = 0; (size = buffer_size (d, len, off)) != 0; off += size)
    {
      guint32 saved = get_u32 (d + off + 4);
      gssize n;

      if (!(d[off + 52] & 0x40) || saved < HEADER_SIZE || saved - HEADER_SIZE > (1 << 20))
        continue;
      n = sps_xca_lz77_decompress (d + off + HEADER_SIZE, size - HEADER_SIZE, scratch,
                                   saved - HEADER_SIZE, NULL);
      if (n != (gssize) (saved - HEADER_SIZE))
        g_error ("buffer at byte %zu does not expand", off);
      expanded += (gsize) n;
    }
  return expanded;
}

/* The peak of RssAnon while an import runs, polled by a thread */
typedef struct
{
  gint     stop;
  guint64  peak;
} Poll;

static gpointer
poll_anon (gpointer data)
{
  Poll *poll = data;

  while (!g_atomic_int_get (&poll->stop))
    {
      poll->peak = MAX (poll->peak, sps_bench_proc_status_bytes ("RssAnon"));
      g_usleep (2000);
    }
  return NULL;
}

/* The peak since the last call, polled once more now; the next phase
 * starts from zero */
static guint64
poll_take_peak (Poll *poll)
{
  guint64 now = sps_bench_proc_status_bytes ("RssAnon");
  guint64 peak = MAX (poll->peak, now);

  poll->peak = 0;
  return peak;
}

typedef struct
{
  double   cpu_s;
  double   wall_s;
  double   read_s;          /* CPU: reading the records */
  double   samples_s;       /* the samples into the builder */
  double   finish_s;        /* the trace finished */
  guint    samples;
  guint    instants;
  gsize    model;
  gsize    strings;
  guint64  peak_anon;
  guint64  phase_peak[3];   /* peak of each phase: read, samples, finish */
  guint64  kept_anon;
  guint64  trimmed_anon;    /* kept after malloc_trim() */
  /* What the kernel reading holds at the end of reading, in bytes (the
   * arrays' lengths, not their capacity) */
  gsize    held_samples;
  gsize    held_ips;
  gsize    held_stacks;      /* the stacks' records and the samples' parts */
  gsize    held_key_refs;
} Import;

static gsize
array_bytes (GArray *array)
{
  return array != NULL ? (gsize) array->len * g_array_get_element_size (array) : 0;
}

static void
measure_held (SpsEtlKernel *kernel,
              Import       *result)
{
  result->held_samples = (gsize) kernel->samples.len * sizeof (SpsEtlSample);
  result->held_ips = array_bytes (kernel->ips) + array_bytes (kernel->wide_ips) + array_bytes (kernel->sample_ips);
  result->held_stacks = array_bytes (kernel->stacks) + array_bytes (kernel->sample_parts);
  result->held_key_refs = array_bytes (kernel->key_refs) + array_bytes (kernel->key_ref_places);
}

static void
import_once (GBytes       *input,
             Import       *result)
{
  g_autoptr(SpsTraceBuilder) builder = sps_trace_builder_new ();
  g_autoptr(SpsEtlImport) import = sps_etl_import_new (builder, sps_xca_decompress_buffer);
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  Poll poll = { 0, 0 };
  GThread *poller;
  guint64 before = sps_bench_proc_status_bytes ("RssAnon");
  double cpu0 = sps_bench_cpu_seconds ();
  double wall0 = sps_bench_now_ms ();

  poller = g_thread_new ("poll-anon", poll_anon, &poll);
  if (!sps_etl_import_read (import, input, "bench-etl-200mb.etl", &error))
    g_error ("import: %s", error->message);
  result->read_s = sps_bench_cpu_seconds () - cpu0;
  result->phase_peak[0] = poll_take_peak (&poll);
  measure_held (sps_etl_import_get_kernel (import), result);
  sps_etl_import_finish (import);
  g_clear_pointer (&import, sps_etl_import_free);
  result->samples_s = sps_bench_cpu_seconds () - cpu0 - result->read_s;
  result->phase_peak[1] = poll_take_peak (&poll);
  if ((trace = sps_trace_builder_finish (builder, NULL, &error)) == NULL)
    g_error ("finish: %s", error->message);
  result->phase_peak[2] = poll_take_peak (&poll);
  result->cpu_s = sps_bench_cpu_seconds () - cpu0;
  result->finish_s = result->cpu_s - result->read_s - result->samples_s;
  result->wall_s = (sps_bench_now_ms () - wall0) / 1000.0;
  g_clear_object (&builder);
  g_atomic_int_set (&poll.stop, 1);
  g_thread_join (poller);

  result->samples = sps_trace_get_samples (trace)->n_rows;
  result->instants = sps_trace_get_instants (trace)->n_rows;
  result->model = sps_trace_get_memory_size (trace);
  result->strings = sps_string_pool_get_memory_size (sps_trace_get_strings (trace));
  result->kept_anon = sps_bench_proc_status_bytes ("RssAnon") - before;
  result->peak_anon = MAX (poll.peak, before + result->kept_anon) - before;
  for (guint i = 0; i < G_N_ELEMENTS (result->phase_peak); i++)
    {
      result->phase_peak[i] = result->phase_peak[i] > before ? result->phase_peak[i] - before : 0;
      result->peak_anon = MAX (result->peak_anon, result->phase_peak[i]);
    }
#ifdef __GLIBC__
  /* Freed heap pages glibc keeps are not the trace's */
  malloc_trim (0);
#endif
  result->trimmed_anon = sps_bench_proc_status_bytes ("RssAnon") - before;
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *path = NULL;
  g_autofree char *loadavg = NULL;
  g_autoptr(GMappedFile) mapped = NULL;
  g_autoptr(GBytes) input = NULL;
  g_autoptr(GError) error = NULL;
  Import runs[RUNS];
  double cpu[RUNS], wall[RUNS];
  const guint8 *d;
  gsize len;
  double mb, t_bare = INFINITY, t_import, per_sample_peak, per_sample_kept;
  gsize expanded = 0;

  guint target_mb = argc == 4 ? (guint) g_ascii_strtoull (argv[3], NULL, 10) : TARGET_MB;

  if ((argc != 3 && argc != 4) || target_mb == 0 || target_mb > 10000)
    {
      fprintf (stderr, "usage: bench-etl PERFVIEW-ETL-ZIP DIR [MB]\n");
      return 2;
    }
  if ((path = ensure_input (argv[1], argv[2], target_mb)) == NULL)
    {
      printf ("bench-etl: skipped, %s or unzip is missing\n", argv[1]);
      return 0;
    }
  if ((mapped = g_mapped_file_new (path, FALSE, &error)) == NULL)
    g_error ("%s", error->message);
  d = (const guint8 *) g_mapped_file_get_contents (mapped);
  len = g_mapped_file_get_length (mapped);
  input = g_mapped_file_get_bytes (mapped);
  mb = (double) len / 1e6;

  if (g_file_get_contents ("/proc/loadavg", &loadavg, NULL, NULL))
    printf ("load average before: %s", loadavg);
  printf ("data: %s, %.1f MB (PerfView's CPU trace, its buffers repeated)\n", path, mb);

  /* Best of three bare passes; the first also brings the file's pages in */
  for (guint run = 0; run <= RUNS; run++)
    {
      double t0 = sps_bench_cpu_seconds ();

      expanded = bare_pass (d, len);
      if (run > 0)
        t_bare = MIN (t_bare, sps_bench_cpu_seconds () - t0);
    }
  printf ("bare pass (headers + LZ77):  %7.1f MB/s of input  (%.0f ms CPU, %.1f MB expanded)\n",
          mb / t_bare, t_bare * 1000, (double) expanded / 1e6);

  for (guint run = 0; run < RUNS; run++)
    {
      import_once (input, &runs[run]);
      cpu[run] = runs[run].cpu_s;
      wall[run] = runs[run].wall_s;
      printf ("import %u: %.0f ms CPU (read %.0f, samples %.0f, finish %.0f), %.0f ms wall, %u samples, "
              "anonymous memory: peak %.1f MB, kept %.1f MB\n", run + 1, runs[run].cpu_s * 1000,
              runs[run].read_s * 1000, runs[run].samples_s * 1000, runs[run].finish_s * 1000,
              runs[run].wall_s * 1000, runs[run].samples, (double) runs[run].peak_anon / 1e6,
              (double) runs[run].kept_anon / 1e6);
    }
  t_import = sps_bench_median (cpu, RUNS);
  /* The first import's memory: later ones reuse what the allocator kept */
  per_sample_peak = (double) runs[0].peak_anon / MAX (runs[0].samples, 1);
  per_sample_kept = (double) runs[0].kept_anon / MAX (runs[0].samples, 1);

  printf ("import (median of %u):       %7.1f MB/s of input  (%.0f ms CPU, %.0f ms wall; %.1fx the bare pass)\n",
          RUNS, mb / t_import, t_import * 1000, sps_bench_median (wall, RUNS) * 1000, t_import / t_bare);
  printf ("samples/s:                   %7.2f M\n", runs[0].samples / t_import / 1e6);
  printf ("anonymous memory per sample: %.1f bytes at the peak (reading %.1f, samples %.1f, finish %.1f), "
          "%.1f bytes kept by the trace (%.1f after malloc_trim)\n", per_sample_peak,
          (double) runs[0].phase_peak[0] / MAX (runs[0].samples, 1),
          (double) runs[0].phase_peak[1] / MAX (runs[0].samples, 1),
          (double) runs[0].phase_peak[2] / MAX (runs[0].samples, 1), per_sample_kept,
          (double) runs[0].trimmed_anon / MAX (runs[0].samples, 1));
  printf ("the kernel reading holds at the end of reading, per sample: samples %.1f, stack IPs %.1f, "
          "stacks %.1f, stack key references %.1f bytes\n",
          (double) runs[0].held_samples / MAX (runs[0].samples, 1),
          (double) runs[0].held_ips / MAX (runs[0].samples, 1),
          (double) runs[0].held_stacks / MAX (runs[0].samples, 1),
          (double) runs[0].held_key_refs / MAX (runs[0].samples, 1));
  printf ("model size (sps_trace_get_memory_size): %.1f bytes per sample (string pool %.1f); "
          "%.2f events per sample\n", (double) runs[0].model / MAX (runs[0].samples, 1),
          (double) runs[0].strings / MAX (runs[0].samples, 1),
          (double) runs[0].instants / MAX (runs[0].samples, 1));
  printf ("peak RSS: %.1f MB (the mapped input's pages included)\n",
          (double) sps_bench_peak_rss_bytes () / 1e6);
  printf ("targets: >= 100 MB/s: %s; <= 64 bytes per sample: %s\n",
          mb / t_import >= 100 ? "met" : "NOT met", per_sample_peak <= 64 ? "met" : "NOT met");
  return 0;
}
