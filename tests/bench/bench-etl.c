/* bench-etl.c: ETL import throughput and memory (issue 15)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Usage: bench-etl [--default-allocator] PERFVIEW-ETL-ZIP DIR [MB]
 *
 * (MB, 200 unless given: a smaller input for callgrind or massif, whose
 * instruction counts compare changes where wall times cannot.
 * --default-allocator leaves glibc's malloc as it is; Spanscope's programs
 * call sps_setup_allocator(), and so does the benchmark unless told.)
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
 * Each import runs in a fresh process (this program again, with
 * --import-child), so that none starts on the heap another left, and
 * memory is read exactly rather than polled: the kernel's high-water mark
 * of the resident set (VmHWM) is reset at the start of each phase
 * (/proc/self/clear_refs) and read at its end; with every page of the
 * input faulted in first, the file's pages do not change during the
 * phases, so the peak of anonymous memory is VmHWM less the file-backed
 * and shared pages.
 *
 * Reported: MB/s of the file (compressed input), samples/s, the peak of
 * anonymous memory above what the process held before the import and
 * what the finished trace keeps, per sample, and the peak RSS. Targets:
 * at least 100 MB/s; at most 64 bytes of anonymous memory per sample.
 * Times and memory are the median of three imports. Times are wall
 * times, since the import expands buffers on a second thread while it
 * reads records (the CPU time of both threads beside them): read them on
 * a quiet machine (the load average is printed first).
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
#include <spanscope-core.h>

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

/* The anonymous memory at the peak of the resident set since the last
 * reset_peak(): the file's pages are all resident before the import
 * starts (fault_in()), so only anonymous memory moves the peak. */
static guint64
peak_anon (void)
{
  guint64 hwm = sps_bench_proc_status_bytes ("VmHWM");
  guint64 other = sps_bench_proc_status_bytes ("RssFile") + sps_bench_proc_status_bytes ("RssShmem");

  return hwm > other ? hwm - other : 0;
}

static gboolean
reset_peak (void)
{
  FILE *clear_refs = fopen ("/proc/self/clear_refs", "w");
  gboolean ok;

  if (clear_refs == NULL)
    return FALSE;
  /* "5" resets the high-water mark of the resident set (Linux 4.0) */
  ok = fputs ("5", clear_refs) >= 0;
  return fclose (clear_refs) == 0 && ok;
}

/* Brings every page of the input in, so that reading it adds none (the
 * sum goes to a volatile, so the reads are not optimised away) */
static volatile guint8 fault_sum;

static void
fault_in (const guint8 *d,
          gsize         len)
{
  guint8 x = 0;

  for (gsize off = 0; off < len; off += 4096)
    x ^= d[off];
  fault_sum = x;
}

typedef struct
{
  double   cpu_s;
  double   wall_s;
  /* Wall time of each phase (reading expands buffers on a second thread) */
  double   read_s;          /* reading the records */
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
  guint64  peak_rss;
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

/* The peak of the phase that ends now, above @before; the next phase
 * starts from what is resident now */
static guint64
take_phase_peak (guint64 before)
{
  guint64 peak = peak_anon ();

  reset_peak ();
  return peak > before ? peak - before : 0;
}

static void
import_once (GBytes       *input,
             Import       *result)
{
  g_autoptr(SpsTraceBuilder) builder = NULL;
  g_autoptr(SpsEtlImport) import = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  guint64 before = sps_bench_proc_status_bytes ("RssAnon");
  double cpu0, wall0;

  if (!reset_peak ())
    g_error ("/proc/self/clear_refs cannot be written: no exact peak");
  cpu0 = sps_bench_cpu_seconds ();
  wall0 = sps_bench_now_ms ();
  builder = sps_trace_builder_new ();
  import = sps_etl_import_new (builder, sps_xca_decompress_buffer);
  if (!sps_etl_import_read (import, input, "bench-etl-200mb.etl", &error))
    g_error ("import: %s", error->message);
  result->read_s = (sps_bench_now_ms () - wall0) / 1000.0;
  result->phase_peak[0] = take_phase_peak (before);
  measure_held (sps_etl_import_get_kernel (import), result);
  sps_etl_import_finish (import);
  g_clear_pointer (&import, sps_etl_import_free);
  result->samples_s = (sps_bench_now_ms () - wall0) / 1000.0 - result->read_s;
  result->phase_peak[1] = take_phase_peak (before);
  if ((trace = sps_trace_builder_finish (builder, NULL, &error)) == NULL)
    g_error ("finish: %s", error->message);
  result->cpu_s = sps_bench_cpu_seconds () - cpu0;
  result->wall_s = (sps_bench_now_ms () - wall0) / 1000.0;
  result->finish_s = result->wall_s - result->read_s - result->samples_s;
  g_clear_object (&builder);
  result->phase_peak[2] = take_phase_peak (before);

  result->samples = sps_trace_get_samples (trace)->n_rows;
  result->instants = sps_trace_get_instants (trace)->n_rows;
  result->model = sps_trace_get_memory_size (trace);
  result->strings = sps_string_pool_get_memory_size (sps_trace_get_strings (trace));
  result->kept_anon = sps_bench_proc_status_bytes ("RssAnon") - before;
  result->peak_anon = 0;
  for (guint i = 0; i < G_N_ELEMENTS (result->phase_peak); i++)
    result->peak_anon = MAX (result->peak_anon, result->phase_peak[i]);
#ifdef __GLIBC__
  /* Freed heap pages glibc keeps are not the trace's */
  malloc_trim (0);
#endif
  result->trimmed_anon = sps_bench_proc_status_bytes ("RssAnon") - before;
  result->peak_rss = sps_bench_peak_rss_bytes ();
}

static GMappedFile *
map_input (const char    *path,
           GBytes       **input)
{
  g_autoptr(GError) error = NULL;
  GMappedFile *mapped;

  if ((mapped = g_mapped_file_new (path, FALSE, &error)) == NULL)
    g_error ("%s", error->message);
  *input = g_mapped_file_get_bytes (mapped);
  return mapped;
}

/* The child: one import of @path, its Import written to stdout as hex
 * (the parent is the same program, so it reads the same layout) */
static int
import_child (const char *path,
              gboolean    default_allocator)
{
  g_autoptr(GMappedFile) mapped = NULL;
  g_autoptr(GBytes) input = NULL;
  Import result = { 0, };
  const guint8 *bytes = (const guint8 *) &result;

  if (!default_allocator)
    sps_setup_allocator ();
  mapped = map_input (path, &input);
  fault_in (g_bytes_get_data (input, NULL), g_bytes_get_size (input));
  import_once (input, &result);
  for (gsize i = 0; i < sizeof result; i++)
    printf ("%02x", bytes[i]);
  printf ("\n");
  return 0;
}

/* One import in a fresh process */
static void
run_child (const char *self_exe,
           const char *path,
           gboolean    default_allocator,
           Import     *result)
{
  const char *argv[] = { self_exe, "--import-child", path,
                         default_allocator ? "--default-allocator" : NULL, NULL };
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  int status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_CHILD_INHERITS_STDIN, NULL, NULL,
                     &out, NULL, &status, &error) ||
      !g_spawn_check_wait_status (status, &error))
    g_error ("import in a child process: %s", error->message);
  g_strchomp (out);
  if (strlen (out) != 2 * sizeof *result)
    g_error ("the child printed %zu characters, not %zu", strlen (out), 2 * sizeof *result);
  for (gsize i = 0; i < sizeof *result; i++)
    ((guint8 *) result)[i] = (guint8) (g_ascii_xdigit_value (out[2 * i]) << 4 |
                                       g_ascii_xdigit_value (out[2 * i + 1]));
}

static double
median_of (const Import *runs,
           gsize         offset,
           gboolean      is_u64)
{
  double values[RUNS];

  for (guint i = 0; i < RUNS; i++)
    {
      const char *field = (const char *) &runs[i] + offset;

      values[i] = is_u64 ? (double) *(const guint64 *) field : *(const double *) field;
    }
  return sps_bench_median (values, RUNS);
}

#define MEDIAN_U64(runs, field) median_of ((runs), G_STRUCT_OFFSET (Import, field), TRUE)
#define MEDIAN_S(runs, field)   median_of ((runs), G_STRUCT_OFFSET (Import, field), FALSE)

int
main (int   argc,
      char *argv[])
{
  g_autofree char *path = NULL;
  g_autofree char *loadavg = NULL;
  g_autofree char *self_exe = NULL;
  g_autoptr(GMappedFile) mapped = NULL;
  g_autoptr(GBytes) input = NULL;
  gboolean default_allocator = FALSE;
  Import runs[RUNS];
  const guint8 *d;
  gsize len;
  double mb, t_bare = INFINITY, t_import, n_samples;
  gsize expanded = 0;
  guint target_mb;

  if (argc >= 2 && strcmp (argv[1], "--default-allocator") == 0)
    {
      default_allocator = TRUE;
      argv++;
      argc--;
    }
  if (argc >= 3 && strcmp (argv[1], "--import-child") == 0)
    return import_child (argv[2], argc == 4 && strcmp (argv[3], "--default-allocator") == 0);

  target_mb = argc == 4 ? (guint) g_ascii_strtoull (argv[3], NULL, 10) : TARGET_MB;
  if ((argc != 3 && argc != 4) || target_mb == 0 || target_mb > 10000)
    {
      fprintf (stderr, "usage: bench-etl [--default-allocator] PERFVIEW-ETL-ZIP DIR [MB]\n");
      return 2;
    }
  if ((path = ensure_input (argv[1], argv[2], target_mb)) == NULL)
    {
      printf ("bench-etl: skipped, %s or unzip is missing\n", argv[1]);
      return 0;
    }
  if ((self_exe = g_file_read_link ("/proc/self/exe", NULL)) == NULL)
    g_error ("/proc/self/exe: this benchmark runs its imports in fresh processes of itself");
  mapped = map_input (path, &input);
  d = g_bytes_get_data (input, &len);
  mb = (double) len / 1e6;

  if (g_file_get_contents ("/proc/loadavg", &loadavg, NULL, NULL))
    printf ("load average before: %s", loadavg);
  printf ("data: %s, %.1f MB (PerfView's CPU trace, its buffers repeated)\n", path, mb);
  printf ("allocator: %s\n", default_allocator ? "glibc's default" : "sps_setup_allocator()");

  /* Best of three bare passes; the first also brings the file's pages in */
  for (guint run = 0; run <= RUNS; run++)
    {
      double t0 = sps_bench_now_ms ();

      expanded = bare_pass (d, len);
      if (run > 0)
        t_bare = MIN (t_bare, (sps_bench_now_ms () - t0) / 1000.0);
    }
  printf ("bare pass (headers + LZ77):  %7.1f MB/s of input  (%.0f ms, %.1f MB expanded)\n",
          mb / t_bare, t_bare * 1000, (double) expanded / 1e6);

  for (guint run = 0; run < RUNS; run++)
    {
      Import *r = &runs[run];
      double n;

      run_child (self_exe, path, default_allocator, r);
      n = MAX (r->samples, 1);
      printf ("import %u (own process): %.0f ms wall (read %.0f, samples %.0f, finish %.0f), %.0f ms CPU, "
              "%u samples, anonymous memory per sample: peak %.1f (reading %.1f, samples %.1f, "
              "finish %.1f), kept %.1f\n", run + 1, r->wall_s * 1000, r->read_s * 1000,
              r->samples_s * 1000, r->finish_s * 1000, r->cpu_s * 1000, r->samples,
              (double) r->peak_anon / n, (double) r->phase_peak[0] / n,
              (double) r->phase_peak[1] / n, (double) r->phase_peak[2] / n,
              (double) r->kept_anon / n);
    }
  /* The imports read the same input: one sample count */
  n_samples = MAX (runs[0].samples, 1);
  t_import = MEDIAN_S (runs, wall_s);

  printf ("import (median of %u):       %7.1f MB/s of input  (%.0f ms wall, %.0f ms CPU on two threads; "
          "%.1fx the bare pass)\n", RUNS, mb / t_import, t_import * 1000, MEDIAN_S (runs, cpu_s) * 1000,
          t_import / t_bare);
  printf ("samples/s:                   %7.2f M\n", runs[0].samples / t_import / 1e6);
  printf ("anonymous memory per sample (median of %u): %.1f bytes at the peak (reading %.1f, samples %.1f, "
          "finish %.1f), %.1f bytes kept by the trace (%.1f after malloc_trim)\n", RUNS,
          MEDIAN_U64 (runs, peak_anon) / n_samples, MEDIAN_U64 (runs, phase_peak[0]) / n_samples,
          MEDIAN_U64 (runs, phase_peak[1]) / n_samples, MEDIAN_U64 (runs, phase_peak[2]) / n_samples,
          MEDIAN_U64 (runs, kept_anon) / n_samples, MEDIAN_U64 (runs, trimmed_anon) / n_samples);
  printf ("the kernel reading holds at the end of reading, per sample: samples %.1f, stack IPs %.1f, "
          "stacks %.1f, stack key references %.1f bytes\n",
          (double) runs[0].held_samples / n_samples, (double) runs[0].held_ips / n_samples,
          (double) runs[0].held_stacks / n_samples, (double) runs[0].held_key_refs / n_samples);
  printf ("model size (sps_trace_get_memory_size): %.1f bytes per sample (string pool %.1f); "
          "%.2f events per sample\n", (double) runs[0].model / n_samples,
          (double) runs[0].strings / n_samples, (double) runs[0].instants / n_samples);
  printf ("peak RSS of an import's process: %.1f MB (the mapped input's pages included)\n",
          MEDIAN_U64 (runs, peak_rss) / 1e6);
  printf ("targets: >= 100 MB/s: %s; <= 64 bytes per sample: %s\n",
          mb / t_import >= 100 ? "met" : "NOT met",
          MEDIAN_U64 (runs, peak_anon) / n_samples <= 64 ? "met" : "NOT met");
  return 0;
}
