/* sps-diagsession-importer.c: imports Visual Studio .diagsession packages
 * and Windows ETL traces
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Three inputs, told apart by their first bytes, never by their names:
 * a ZIP (a .diagsession package, whose metadata.xml lists its resources
 * by type, or PerfView's ZIP of ETL files), a bare ETL trace, and the OLE
 * compound form of .diagsession, which is refused with a message that
 * says so. Every ETL file of a session is read onto one clock and
 * merged (sps-etl-import.c); the counters resource becomes counter
 * tracks on the same clock. A resource that is missing or damaged is a
 * warning that names it: the others are still read.
 *
 * When Diagnostics Hub names the profiled process (its
 * TargetProfilingStarted event), that process comes first and the others
 * start collapsed; the idle process starts hidden, as PerfView hides it.
 * Nothing is dropped: SQL and the exporters see every process.
 */

#define G_LOG_DOMAIN "sps-diagsession"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "sps-diag-counter-tracks.h"
#include "sps-diag-package.h"
#include "sps-diagsession-importer.h"
#include "sps-etl-import.h"
#include "sps-mstrace-bytes.h"
#include "sps-xca.h"

#define PID_IDLE 0
/* Shares of the progress bar: reading the files' bytes, decoding them,
 * resolving stacks and the rest */
/* A counters resource is JSON text of a few points a second: a day of
 * several counters is tens of MiB */
#define MAX_COUNTERS_SIZE ((gsize) 256 << 20)
#define PROGRESS_READ   0.05
#define PROGRESS_DECODE 0.85

static const guint8 zip_magic[4] = { 'P', 'K', 3, 4 };
static const guint8 cfb_magic[8] = { 0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1 };

struct _SpsDiagsessionImporter
{
  GObject parent_instance;
};

static void sps_diagsession_importer_iface_init (SpsImporterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SpsDiagsessionImporter, sps_diagsession_importer, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SPS_TYPE_IMPORTER, sps_diagsession_importer_iface_init))

typedef struct
{
  SpsTraceBuilder *builder;
  SpsProgress     *progress;
  char            *display_name;
  SpsEtlImport    *import;
  guint            n_files;       /* ETL files to read */
  guint            file;          /* the one being read */
  guint            n_files_read;  /* with a trace header */
  guint            n_counter_files;
  guint64          n_counter_points;
  gboolean         cancelled;
  GError          *first_error;   /* why the first file could not be read */
} Load;

static gboolean
on_buffer (gsize    offset,
           gsize    len,
           gpointer user_data)
{
  Load *self = user_data;
  double done;

  if (self->progress == NULL)
    return TRUE;
  /* A buffer is 64 KiB or so: a check per buffer costs nothing */
  if (sps_progress_is_cancelled (self->progress))
    {
      self->cancelled = TRUE;
      return FALSE;
    }
  done = ((double) self->file + (double) offset / (double) MAX (len, 1)) / (double) MAX (self->n_files, 1);
  sps_progress_set_fraction (self->progress, PROGRESS_READ + PROGRESS_DECODE * done);
  return TRUE;
}

static gboolean
check_cancelled (Load    *self,
                 GError **error)
{
  if (self->cancelled || (self->progress != NULL && sps_progress_is_cancelled (self->progress)))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Loading was cancelled"));
      return TRUE;
    }
  return FALSE;
}

/* A resource that cannot be read: a warning, and the first such error is
 * kept in case nothing at all can be read */
static void
skip_resource (Load   *self,
               GError *error)
{
  sps_trace_builder_warn (self->builder, "diagsession-resource", "%s", error->message);
  if (self->first_error == NULL)
    self->first_error = g_error_copy (error);
}

static void
read_etl (Load         *self,
          GBytes       *bytes,
          const char   *name)
{
  g_autoptr(GError) error = NULL;

  if (self->progress != NULL)
    {
      /* Translators: progress message; %s is a file or a member of a
       * package. The two happen buffer by buffer. */
      g_autofree char *message = g_strdup_printf (_("Decompressing buffers and decoding events of %s"), name);

      sps_progress_set_phase (self->progress, SPS_PROGRESS_PHASE_PARSING, message);
    }
  if (sps_etl_import_read (self->import, bytes, name, &error))
    self->n_files_read++;
  else
    skip_resource (self, error);
}

static SpsDiagClock *
get_clock (Load         *self,
           SpsDiagClock *clock)
{
  return sps_etl_import_get_clock (self->import, &clock->start_ticks, &clock->frequency) ? clock : NULL;
}

#define COUNTERS_PID (-2)

/* The process the counters describe: Diagnostics Hub's target, else a
 * process of their own */
static guint32
counters_process (Load *self)
{
  SpsEtlKernel *kernel = sps_etl_import_get_kernel (self->import);
  GHashTable *processes = sps_etl_import_get_processes (self->import);
  gpointer process;
  guint32 row;

  if (kernel->target_pid != SPS_ETL_NO_ID && processes != NULL &&
      g_hash_table_lookup_extended (processes, GUINT_TO_POINTER (kernel->target_pid), NULL, &process))
    return GPOINTER_TO_UINT (process);

  /* Not -1: that is the ETL's events that name no process (PerfInfo's
   * without a thread), as TraceEvent reports them. Windows pids are never
   * negative. After every process of the ETLs. */
  row = sps_trace_builder_ensure_process (self->builder, COUNTERS_PID);
  sps_trace_builder_set_process_name (self->builder, row,
                                      sps_trace_builder_intern (self->builder, "Diagnostics Hub", -1));
  sps_trace_builder_set_process_sort_index (self->builder, row,
                                            processes != NULL ? (gint32) g_hash_table_size (processes) : 0);
  return row;
}

static void
read_counters (Load            *self,
               SpsDiagPackage  *package,
               GPtrArray       *resources)
{
  SpsDiagClock clock;
  guint32 process = SPS_NO_INDEX;

  for (guint i = 0; i < resources->len; i++)
    {
      const SpsDiagResource *r = g_ptr_array_index (resources, i);
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) bytes = sps_diag_package_read (package, r, MAX_COUNTERS_SIZE, &error);
      g_autoptr(SpsDiagCounters) counters = NULL;
      g_autofree char *name = g_strdup_printf ("%s: %s", self->display_name, r->member);

      if (bytes != NULL)
        counters = sps_diag_counters_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), name, &error);
      if (counters == NULL)
        {
          skip_resource (self, error);
          continue;
        }
      if (process == SPS_NO_INDEX)
        process = counters_process (self);
      self->n_counter_points += sps_diag_counters_add_tracks (counters, self->builder, process,
                                                              get_clock (self, &clock));
      self->n_counter_files++;
    }
}

typedef struct
{
  guint32  pid;
  guint32  row;
  guint    samples;
  gboolean last;
} ProcessRank;

/* Most samples first, then by pid; the idle process after all */
static int
compare_ranks (gconstpointer a,
               gconstpointer b)
{
  const ProcessRank *ra = a;
  const ProcessRank *rb = b;

  if (ra->last != rb->last)
    return ra->last ? 1 : -1;
  if (ra->samples != rb->samples)
    return ra->samples > rb->samples ? -1 : 1;
  return ra->pid < rb->pid ? -1 : ra->pid > rb->pid;
}

/* The profiled process first and expanded, the others collapsed; without
 * a target, the processes in order of their samples, as PerfView lists
 * them by CPU; the idle process hidden (its samples stay in the trace) */
static void
set_process_display (Load *self)
{
  SpsEtlKernel *kernel = sps_etl_import_get_kernel (self->import);
  GHashTable *processes = sps_etl_import_get_processes (self->import);
  g_autoptr(GArray) ranks = g_array_new (FALSE, FALSE, sizeof (ProcessRank));
  gboolean have_target = FALSE;
  GHashTableIter iter;
  gpointer pid, process;

  if (processes == NULL)
    return;
  if (kernel->target_pid != SPS_ETL_NO_ID)
    have_target = g_hash_table_contains (processes, GUINT_TO_POINTER (kernel->target_pid));

  g_hash_table_iter_init (&iter, processes);
  while (g_hash_table_iter_next (&iter, &pid, &process))
    {
      ProcessRank rank = { GPOINTER_TO_UINT (pid), GPOINTER_TO_UINT (process),
                           sps_etl_import_count_process_samples (self->import, GPOINTER_TO_UINT (pid)),
                           GPOINTER_TO_UINT (pid) == PID_IDLE };

      if (have_target && rank.pid == kernel->target_pid)
        rank.samples = G_MAXUINT;
      g_array_append_val (ranks, rank);
    }
  g_array_sort (ranks, compare_ranks);

  for (guint i = 0; i < ranks->len; i++)
    {
      const ProcessRank *rank = &g_array_index (ranks, ProcessRank, i);

      sps_trace_builder_set_process_sort_index (self->builder, rank->row, (gint32) i);
      if (rank->pid == PID_IDLE)
        sps_trace_builder_set_process_display (self->builder, rank->row, SPS_PROCESS_DISPLAY_HIDDEN);
      else if (have_target && rank->pid != kernel->target_pid)
        sps_trace_builder_set_process_display (self->builder, rank->row, SPS_PROCESS_DISPLAY_COLLAPSED);
    }
}

/* What `spanscope-cli info --json` prints as "etl" */
static void
set_info (Load       *self,
          const char *container)
{
  const SpsEtlImportStats *stats = sps_etl_import_get_stats (self->import);
  SpsEtlKernel *kernel = sps_etl_import_get_kernel (self->import);
  g_autoptr(GString) json = g_string_new ("{");
  guint64 records = 0;

  for (guint i = 0; i < SPS_ETL_N_RECORD_KINDS; i++)
    records += stats->reader.n_records[i];

  g_string_append_printf (json, "\"container\":\"%s\",\"files\":%u,", container, self->n_files_read);
  g_string_append_printf (json, "\"buffers\":%" G_GUINT64_FORMAT ",\"compressed_buffers\":%" G_GUINT64_FORMAT
                          ",\"skipped_buffers\":%" G_GUINT64_FORMAT ",\"records\":%" G_GUINT64_FORMAT
                          ",\"events_lost\":%" G_GUINT64_FORMAT ",",
                          stats->reader.n_buffers, stats->reader.n_compressed_buffers,
                          stats->reader.n_skipped_buffers, records, stats->events_lost);
  g_string_append_printf (json, "\"sampled_profile\":%" G_GUINT64_FORMAT ",\"stackwalk_direct\":%" G_GUINT64_FORMAT
                          ",\"stack_key_definitions\":%" G_GUINT64_FORMAT ",\"stack_key_rundowns\":%" G_GUINT64_FORMAT
                          ",\"stack_key_references_kernel\":%" G_GUINT64_FORMAT
                          ",\"stack_key_references_user\":%" G_GUINT64_FORMAT ",",
                          kernel->n_samples, kernel->n_stack_events, kernel->n_key_definitions,
                          kernel->n_key_rundowns, kernel->n_key_refs_kernel, kernel->n_key_refs_user);
  g_string_append_printf (json, "\"sample_interval_ns\":%" G_GUINT64_FORMAT ",",
                          (guint64) kernel->sample_interval * 100);
  g_string_append_printf (json, "\"idle_samples\":%" G_GUINT64_FORMAT ",\"idle_samples_in_dpc_or_isr\":%"
                          G_GUINT64_FORMAT ",", kernel->n_idle_samples, kernel->n_idle_interrupts);
  g_string_append_printf (json, "\"samples_with_stack\":%" G_GUINT64_FORMAT ",\"clr_method_events\":%" G_GUINT64_FORMAT
                          ",\"images\":%u,\"processes\":%u,\"threads\":%u,",
                          stats->samples_with_stack, stats->clr_method_events, kernel->images->len,
                          kernel->processes->len, kernel->threads->len);
  if (kernel->target_pid != SPS_ETL_NO_ID)
    g_string_append_printf (json, "\"target_pid\":%u,", kernel->target_pid);
  else
    g_string_append (json, "\"target_pid\":null,");
  g_string_append_printf (json, "\"counter_files\":%u,\"counter_points\":%" G_GUINT64_FORMAT "}",
                          self->n_counter_files, self->n_counter_points);
  sps_trace_builder_set_info_section (self->builder, "etl", json->str);
  sps_trace_builder_add_events_read (self->builder, records);
}

static void
load_clear (Load *self)
{
  g_clear_pointer (&self->display_name, g_free);
  g_clear_pointer (&self->import, sps_etl_import_free);
  g_clear_error (&self->first_error);
}

/* Reads the package's ETL resources; FALSE when cancelled. Every file is
 * read from the package first: their headers set the session's clock
 * before any event is added, and the import keeps their bytes anyway (the
 * events' args are decoded from them). */
static gboolean
read_package_etls (Load           *self,
                   SpsDiagPackage *package,
                   GPtrArray      *etls,
                   GError        **error)
{
  g_autoptr(GPtrArray) contents = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  for (guint i = 0; i < etls->len; i++)
    {
      const SpsDiagResource *r = g_ptr_array_index (etls, i);
      g_autoptr(GError) local_error = NULL;
      GBytes *bytes;

      if (self->progress != NULL)
        {
          /* Translators: progress message; %s is a member of a package */
          g_autofree char *message = g_strdup_printf (_("Reading the package: %s"), r->member);

          sps_progress_set_phase (self->progress, SPS_PROGRESS_PHASE_READING, message);
        }
      bytes = sps_diag_package_read (package, r, MIN (sps_file_get_expanded_limit (), G_MAXSIZE), &local_error);
      if (bytes == NULL)
        skip_resource (self, local_error);
      else
        sps_etl_import_add_clock (self->import, bytes);
      g_ptr_array_add (contents, bytes);
      if (check_cancelled (self, error))
        return FALSE;
    }

  for (guint i = 0; i < etls->len; i++)
    {
      const SpsDiagResource *r = g_ptr_array_index (etls, i);
      g_autofree char *name = NULL;

      if (g_ptr_array_index (contents, i) == NULL)
        continue;
      name = g_strdup_printf ("%s: %s", self->display_name, r->member);
      self->file = i;
      read_etl (self, g_ptr_array_index (contents, i), name);
      if (check_cancelled (self, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
sps_diagsession_importer_load (SpsImporter      *importer,
                               GFile            *file,
                               GVariant         *options,
                               SpsTraceBuilder  *builder,
                               SpsProgress      *progress,
                               GError          **error)
{
  g_autoptr(GBytes) contents = NULL;
  g_autoptr(SpsDiagPackage) package = NULL;
  g_autoptr(GPtrArray) etls = NULL;
  g_autoptr(GPtrArray) counters = NULL;
  Load self = { builder, progress, NULL, NULL, 0, };
  const char *container;
  gsize len;
  const guint8 *data;

  g_assert (SPS_IS_DIAGSESSION_IMPORTER (importer));
  g_assert (G_IS_FILE (file));
  g_assert (SPS_IS_TRACE_BUILDER (builder));

  if (progress != NULL)
    sps_progress_set_phase (progress, SPS_PROGRESS_PHASE_READING, _("Reading the file"));
  /* Read, not mapped: a file cut while being read stays valid */
  if (!(contents = sps_file_read (file, builder, progress, error)))
    return FALSE;
  data = g_bytes_get_data (contents, &len);
  self.display_name = sps_file_dup_display_name (file);

  if (sps_etl_has_magic (data, len))
    container = "etl";
  else if (!(package = sps_diag_package_open (contents, self.display_name, error)))
    {
      load_clear (&self);
      return FALSE;
    }
  else
    {
      container = sps_diag_package_has_manifest (package) ? "diagsession" : "zip";
      etls = sps_diag_package_find (package, SPS_DIAG_RESOURCE_ETL);
      counters = sps_diag_package_find (package, SPS_DIAG_RESOURCE_COUNTERS);
      if (etls->len == 0 && counters->len == 0)
        {
          g_set_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_UNSUPPORTED,
                       /* Translators: a file name, then two resource types */
                       _("%s: the package holds no resource this reads (%s, %s)"), self.display_name,
                       SPS_DIAG_RESOURCE_ETL, SPS_DIAG_RESOURCE_COUNTERS);
          load_clear (&self);
          return FALSE;
        }
    }

  sps_trace_builder_set_format (builder, g_str_equal (container, "diagsession") ? "diagsession" : "etl");
  self.import = sps_etl_import_new (builder, sps_xca_decompress_buffer);
  sps_etl_import_set_buffer_func (self.import, on_buffer, &self);

  if (package == NULL)
    {
      self.n_files = 1;
      read_etl (&self, contents, self.display_name);
    }
  else
    {
      self.n_files = etls->len;
      if (!read_package_etls (&self, package, etls, error))
        {
          load_clear (&self);
          return FALSE;
        }
    }
  if (check_cancelled (&self, error))
    {
      load_clear (&self);
      return FALSE;
    }

  if (progress != NULL)
    {
      /* Translators: progress message while samples get their stacks and
       * frames their names */
      sps_progress_set_phase (progress, SPS_PROGRESS_PHASE_PARSING, _("Resolving stacks"));
      sps_progress_set_fraction (progress, PROGRESS_READ + PROGRESS_DECODE);
    }
  sps_etl_import_finish (self.import);
  set_process_display (&self);
  if (counters != NULL)
    read_counters (&self, package, counters);

  if (self.n_files_read == 0 && self.n_counter_files == 0)
    {
      g_propagate_error (error, g_steal_pointer (&self.first_error));
      load_clear (&self);
      return FALSE;
    }

  set_info (&self, container);
  if (progress != NULL)
    sps_progress_set_fraction (progress, 1.0);
  load_clear (&self);
  return TRUE;
}

static const char *
sps_diagsession_importer_get_name (SpsImporter *importer)
{
  return "diagsession";
}

/* Whether a member of the ZIP that starts in @data (the first bytes of
 * the file) is a package's manifest or an ETL file: the local headers are
 * walked as far as @data reaches (names at byte 30, after them the extra
 * field and the member's data) */
static gboolean
zip_head_names_trace (const guint8 *data,
                      gsize         len)
{
  gsize at = 0;

  while (len - at >= 30 && memcmp (data + at, zip_magic, sizeof zip_magic) == 0)
    {
      const guint8 *h = data + at;
      gsize name_len = sps_ms_read_u16 (h + 26);
      gsize extra_len = sps_ms_read_u16 (h + 28);
      guint64 size = sps_ms_read_u32 (h + 18);
      g_autofree char *name = NULL;

      if (name_len > len - at - 30)
        break;
      name = g_ascii_strdown ((const char *) h + 30, name_len);
      if (g_str_equal (name, "metadata.xml") || g_str_has_suffix (name, ".etl"))
        return TRUE;
      /* Sizes after the data (flag 8): the next header cannot be found */
      if ((sps_ms_read_u16 (h + 6) & 8) != 0 || size > len)
        break;
      at += 30 + name_len + extra_len + size;
      if (at > len)
        break;
    }
  return FALSE;
}

static guint
sps_diagsession_importer_probe (SpsImporter *importer,
                                GFile       *file,
                                GBytes      *head)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (head, &len);
  g_autofree char *basename = file != NULL ? g_file_get_basename (file) : NULL;
  g_autofree char *lower = basename != NULL ? g_ascii_strdown (basename, -1) : NULL;
  gboolean named = lower != NULL && (g_str_has_suffix (lower, ".diagsession") || g_str_has_suffix (lower, ".etl.zip"));

  if (sps_etl_has_magic (data, len))
    return 100;
  if (len >= sizeof zip_magic && memcmp (data, zip_magic, sizeof zip_magic) == 0)
    {
      /* Or ZIPs whose first member is something else, e.g.
       * [Content_Types].xml: the name says it then */
      if (zip_head_names_trace (data, len))
        return 90;
      return named ? 80 : 0;
    }
  /* Claimed so that loading it says why it is not read */
  if (len >= sizeof cfb_magic && memcmp (data, cfb_magic, sizeof cfb_magic) == 0 && named)
    return 80;
  return 0;
}

static void
sps_diagsession_importer_iface_init (SpsImporterInterface *iface)
{
  iface->get_name = sps_diagsession_importer_get_name;
  iface->probe = sps_diagsession_importer_probe;
  iface->load = sps_diagsession_importer_load;
}

static void
sps_diagsession_importer_class_init (SpsDiagsessionImporterClass *klass)
{
}

static void
sps_diagsession_importer_init (SpsDiagsessionImporter *self)
{
}
