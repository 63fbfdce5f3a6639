/* sps-chrome-importer.c: imports Chrome trace JSON (plain or gzip)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The file is read (or, for gzip, decompressed once into memory) and
 * becomes the builder's source, so args stay references into it. The
 * scanner reads one event at a time into a fixed record; this file turns
 * records into builder calls. Nothing per event is allocated: strings go
 * through a cache in front of the string pool, and process/thread lookups
 * through small direct-mapped caches in front of the builder's indexes.
 *
 * Options (a{sv}): "timestamp-unit" (s) "us" (default), "ns", "ms" or
 * "s": the unit of ts and dur, which the files do not state; "threads"
 * (u) how many threads may scan the event array (default: 2 when the
 * machine has two cores or more; 1 reads everything on the calling
 * thread, which tests use to compare both paths); "max-decompressed-size"
 * (t) the most a gzip file may inflate to (default: the smaller of 16 GiB
 * and half the physical memory, sps_chrome_gzip_default_limit()).
 */

#define G_LOG_DOMAIN "sps-chrome-importer"

#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "sps-chrome-cpu-profile.h"
#include "sps-chrome-event-reader.h"
#include "sps-chrome-gzip.h"
#include "sps-chrome-importer.h"
#include "sps-chrome-importer-private.h"
#include "sps-chrome-interner.h"
#include "sps-chrome-scanner.h"
#include "sps-chrome-stack-frames.h"
#include "sps-chrome-top-samples.h"

struct _SpsChromeImporter
{
  GObject parent_instance;
};


static void sps_chrome_importer_iface_init (SpsImporterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SpsChromeImporter, sps_chrome_importer, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SPS_TYPE_IMPORTER, sps_chrome_importer_iface_init))

/* Locations and messages */

/* How messages name @file: its path, or its URI when it has none. */
static char *
dup_display_name (GFile *file)
{
  const char *path = g_file_peek_path (file);

  return path != NULL ? g_strdup (path) : g_file_get_parse_name (file);
}

/* "FILE:LINE:COLUMN (byte OFFSET)". Lines are counted only here, from
 * where the previous call stopped, since reports come in file order. */
static char *
loader_where (Loader *self,
              gsize   offset)
{
  const char *p;
  const char *end;

  g_assert (offset <= self->len);

  if (offset < self->loc_offset)
    {
      self->loc_offset = 0;
      self->loc_line_start = 0;
      self->loc_line = 1;
    }

  p = self->base + self->loc_offset;
  end = self->base + offset;
  while (p < end)
    {
      const char *nl = memchr (p, '\n', (gsize) (end - p));

      if (nl == NULL)
        break;
      self->loc_line++;
      p = nl + 1;
      self->loc_line_start = (gsize) (p - self->base);
    }
  self->loc_offset = offset;

  /* Translators: a place in a file: its name, line, column and byte offset */
  return g_strdup_printf (_("%s:%" PRIu64 ":%zu (byte %zu)"),
                          self->display_name, self->loc_line,
                          offset - self->loc_line_start + 1, offset);
}

/* Counts warning @name; the first one of each name gets a message that
 * says where. @format is translated only then (callers mark it with N_()),
 * after the location, which keeps the same shape in every language. */
void
sps_chrome_loader_warn (Loader     *self,
                        const char *name,
                        gsize       offset,
                        const char *format,
                        ...)
{
  g_autofree char *where = NULL;
  g_autofree char *message = NULL;
  va_list args;

  if (g_hash_table_contains (self->warned, name))
    {
      sps_trace_builder_warn (self->builder, name, "%s", "");
      return;
    }
  g_hash_table_add (self->warned, (gpointer) name);

  where = loader_where (self, offset);
  va_start (args, format);
  message = g_strdup_vprintf (g_dgettext (GETTEXT_PACKAGE, format), args);
  va_end (args);
  sps_trace_builder_warn (self->builder, name, "%s: %s", where, message);
}

/* Warnings of the CPU profile reader: @message is marked with N_() */
static void
loader_warn_message (const char *name,
                     gsize       offset,
                     const char *message,
                     gpointer    user_data)
{
  sps_chrome_loader_warn (user_data, name, offset, "%s", g_dgettext (GETTEXT_PACKAGE, message));
}

static gboolean
loader_fail (Loader          *self,
             GError         **error,
             SpsImportError   code,
             gsize            offset,
             const char      *message)
{
  g_autofree char *where = loader_where (self, offset);

  g_set_error (error, SPS_IMPORT_ERROR, code, "%s: %s", where, message);
  return FALSE;
}

static gboolean
loader_fail_scan (Loader           *self,
                  SpsChromeScanner *scanner,
                  GError          **error)
{
  g_assert (scanner->error_message != NULL);

  return loader_fail (self, error, scanner->error_code,
                      scanner->error_offset, scanner->error_message);
}

/* Strings */

/* Counts a string the interner had to repair, where it was written. */
void
sps_chrome_loader_warn_replaced (Loader               *self,
                                 const SpsChromeValue *value)
{
  sps_chrome_loader_warn (self, "invalid_utf8", sps_chrome_loader_offset (self, value->ptr),
                          N_("a string holds invalid UTF-8 or \\u0000; replaced with U+FFFD"));
}

/* Appends the decoded text of a string (or the text of a number); as for
 * interned strings, invalid UTF-8 and \u0000 are replaced and counted. */
void
sps_chrome_loader_append_text (Loader               *self,
                               GString              *out,
                               const SpsChromeValue *value)
{
  if (value->type != SPS_CHROME_VALUE_STRING)
    g_string_append_len (out, value->ptr, (gssize) value->len);
  else if (sps_chrome_decode_string (value->ptr, value->len, out))
    sps_chrome_loader_warn_replaced (self, value);
}

/* The event loop */

static void
loader_on_event (const SpsChromeEvent *event,
                 gpointer              user_data)
{
  sps_chrome_loader_dispatch (user_data, event);
}

static gboolean
loader_on_tick (gsize    offset,
                gpointer user_data)
{
  Loader *self = user_data;

  if (self->progress == NULL)
    return TRUE;
  if (sps_progress_is_cancelled (self->progress))
    return FALSE;
  sps_progress_set_fraction (self->progress, (double) offset / (double) MAX (self->len, 1));
  return TRUE;
}

/* Reads the events of the array the scanner just entered. Returns END when
 * the array closed, EOF when the input ended, ERROR with @error set. */
static SpsChromeScanResult
loader_read_events (Loader           *self,
                    SpsChromeScanner *scanner,
                    GError          **error)
{
  SpsChromeScanResult r;

  r = sps_chrome_read_events (scanner, self->n_threads, loader_on_event, loader_on_tick, self);
  if (r == SPS_CHROME_SCAN_STOPPED)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Loading was cancelled"));
      return SPS_CHROME_SCAN_ERROR;
    }
  if (r == SPS_CHROME_SCAN_ERROR)
    loader_fail_scan (self, scanner, error);
  return r;
}

static void
loader_add_metadata_value (Loader               *self,
                           const SpsChromeValue *key,
                           const SpsChromeValue *value)
{
  const char *start = value->ptr;
  gsize len = value->len;

  /* The reference spans the JSON text of the value, quotes included */
  if (value->type == SPS_CHROME_VALUE_STRING)
    {
      start--;
      len += 2;
    }

  g_string_truncate (self->scratch, 0);
  sps_chrome_loader_append_text (self, self->scratch, key);
  sps_trace_builder_add_metadata (self->builder, self->scratch->str,
                                  sps_args_ref_new (FALSE, sps_chrome_loader_offset (self, start), len));
}

static void
loader_warn_truncated (Loader           *self,
                       SpsChromeScanner *scanner)
{
  if (self->gzip_limited)
    return;   /* the decompressed_size_limit warning says why it ends */
  if (scanner->eof_inside)
    sps_chrome_loader_warn (self, "truncated", sps_chrome_scanner_get_offset (scanner),
                            /* Translators: %zu is the size of the file in bytes */
                            N_("the file ends (at byte %zu) inside the value that starts here; "
                               "the complete events before it were kept"), self->len);
  else if (self->gzip_truncated)
    sps_chrome_loader_warn (self, "truncated", self->len,
                            N_("the compressed data ends early; every complete event was kept"));
  else
    sps_chrome_loader_warn (self, "truncated", self->len,
                            N_("the file ends before the trace is closed; every event was kept"));
}

static gboolean
loader_run (Loader  *self,
            GError **error)
{
  SpsChromeScanner scanner;
  SpsChromeScanResult r;
  char open_char;
  gboolean ret = FALSE;
  const SpsChromeReadContext read_context = {
    self->builder, self->interner, self->base, self->time_exp, loader_warn_message, self,
  };
  SPS_SELF_TRACE_SCOPE ("chrome/events");

  sps_chrome_scanner_init (&scanner, self->base, self->len, self->time_exp);
  self->profiles = sps_chrome_cpu_profiles_new (&read_context);
  self->top_samples = sps_chrome_top_samples_new (&read_context);

  r = sps_chrome_scanner_begin_document (&scanner, &open_char);
  if (r == SPS_CHROME_SCAN_EOF)
    {
      loader_fail (self, error, SPS_IMPORT_ERROR_MALFORMED, sps_chrome_scanner_get_offset (&scanner),
                   _("the file holds no JSON"));
      goto out;
    }
  if (r == SPS_CHROME_SCAN_ERROR)
    {
      loader_fail_scan (self, &scanner, error);
      goto out;
    }

  if (open_char == '[')
    {
      r = loader_read_events (self, &scanner, error);
      if (r == SPS_CHROME_SCAN_ERROR)
        goto out;
      if (r == SPS_CHROME_SCAN_EOF)
        {
          /* A missing final `]` (after the last event, with or without a
           * comma) is how several producers end the array form. */
          if (scanner.eof_inside || self->gzip_truncated)
            loader_warn_truncated (self, &scanner);
        }
      else if (sps_chrome_scanner_finish_document (&scanner) != SPS_CHROME_SCAN_OK)
        {
          loader_fail_scan (self, &scanner, error);
          goto out;
        }
    }
  else
    {
      SpsChromeValue key;
      SpsChromeValue value;

      while ((r = sps_chrome_scanner_next_member (&scanner, &key)) == SPS_CHROME_SCAN_OK)
        {
          if (sps_chrome_value_equals (&key, "traceEvents") ||
              (sps_chrome_value_equals (&key, "systemTraceEvents") &&
               sps_chrome_scanner_peek (&scanner) == '['))
            {
              if (sps_chrome_scanner_peek (&scanner) == '[')
                {
                  if ((r = sps_chrome_scanner_enter (&scanner, '[')) != SPS_CHROME_SCAN_OK)
                    break;
                  r = loader_read_events (self, &scanner, error);
                  if (r == SPS_CHROME_SCAN_ERROR)
                    goto out;
                  if (r != SPS_CHROME_SCAN_END)
                    break;
                  continue;
                }
              if ((r = sps_chrome_scanner_read_value (&scanner, &value)) != SPS_CHROME_SCAN_OK)
                break;
              sps_chrome_loader_warn (self, "invalid_trace_events", sps_chrome_loader_offset (self, value.ptr),
                                      N_("traceEvents is not an array; ignored"));
            }
          else if (sps_chrome_value_equals (&key, "stackFrames") &&
                   sps_chrome_scanner_peek (&scanner) == '{')
            {
              if ((r = sps_chrome_loader_read_stack_frames (self, &scanner)) != SPS_CHROME_SCAN_OK)
                break;
            }
          else if (sps_chrome_value_equals (&key, "samples") &&
                   sps_chrome_scanner_peek (&scanner) == '[')
            {
              if ((r = sps_chrome_top_samples_read (self->top_samples, &scanner)) != SPS_CHROME_SCAN_OK)
                break;
            }
          else if (sps_chrome_value_equals (&key, "displayTimeUnit"))
            {
              if ((r = sps_chrome_scanner_read_value (&scanner, &value)) != SPS_CHROME_SCAN_OK)
                break;
              if (value.type == SPS_CHROME_VALUE_STRING)
                {
                  g_string_truncate (self->scratch, 0);
                  sps_chrome_loader_append_text (self, self->scratch, &value);
                  sps_trace_builder_set_display_time_unit (self->builder, self->scratch->str);
                }
            }
          else
            {
              /* Everything else is kept, unparsed, as trace metadata */
              if ((r = sps_chrome_scanner_read_value (&scanner, &value)) != SPS_CHROME_SCAN_OK)
                break;
              loader_add_metadata_value (self, &key, &value);
            }
        }

      if (r == SPS_CHROME_SCAN_ERROR)
        {
          loader_fail_scan (self, &scanner, error);
          goto out;
        }
      if (r == SPS_CHROME_SCAN_EOF)
        loader_warn_truncated (self, &scanner);
      else if (sps_chrome_scanner_finish_document (&scanner) != SPS_CHROME_SCAN_OK)
        {
          loader_fail_scan (self, &scanner, error);
          goto out;
        }
      else if (self->gzip_truncated)
        loader_warn_truncated (self, &scanner);
    }

  ret = TRUE;

out:
  /* Samples read before an error stay valid, so they get their stacks too */
  sps_chrome_loader_resolve_samples (self);
  sps_chrome_cpu_profiles_finish (self->profiles);
  sps_chrome_top_samples_finish (self->top_samples, self->frames);
  sps_chrome_objects_finish (self->objects, self->builder);
  for (guint n = sps_chrome_stack_frames_resolve_slices (self->frames, self->builder); n > 0; n--)
    sps_trace_builder_warn (self->builder, "unresolved_slice_stack",
                            /* Translators: the file name; keep “%s: ” first */
                            N_("%s: the stack (sf or esf) of a slice cannot be resolved; "
                               "the slice is kept without it"), self->display_name);
  sps_chrome_scanner_clear (&scanner);
  return ret;
}

static void
loader_init (Loader          *self,
             GFile           *file,
             SpsTraceBuilder *builder,
             SpsProgress     *progress,
             guint            time_exp)
{
  memset (self, 0, sizeof *self);
  self->builder = builder;
  self->strings = sps_trace_builder_get_strings (builder);
  self->progress = progress;
  self->interner = sps_chrome_interner_new (self->strings);
  self->frames = sps_chrome_stack_frames_new ();
  self->objects = sps_chrome_objects_new ();
  self->scratch = g_string_new (NULL);
  self->display_name = dup_display_name (file);
  self->time_exp = time_exp;
  /* This thread and one worker scan chunks, and this thread also feeds
   * the builder in order; more workers would only wait for it. */
  self->n_threads = MIN (g_get_num_processors (), 2);
  self->synthetic_pids = g_hash_table_new (NULL, NULL);
  self->synthetic_tids = g_hash_table_new (NULL, NULL);
  self->named_threads = g_hash_table_new (NULL, NULL);
  self->pending_samples = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->warned = g_hash_table_new (g_str_hash, g_str_equal);
  self->loc_line = 1;
}

static void
loader_clear (Loader *self)
{
  g_clear_pointer (&self->interner, sps_chrome_interner_free);
  g_clear_pointer (&self->frames, sps_chrome_stack_frames_free);
  g_clear_pointer (&self->profiles, sps_chrome_cpu_profiles_free);
  g_clear_pointer (&self->top_samples, sps_chrome_top_samples_free);
  g_clear_pointer (&self->objects, sps_chrome_objects_free);
  g_string_free (self->scratch, TRUE);
  g_free (self->display_name);
  g_hash_table_unref (self->synthetic_pids);
  g_hash_table_unref (self->synthetic_tids);
  g_hash_table_unref (self->named_threads);
  g_array_unref (self->pending_samples);
  g_hash_table_unref (self->warned);
}

/* Input */

static gboolean
contains (const char *text,
          gsize       len,
          const char *needle)
{
  gsize n = strlen (needle);
  const char *end = text + len;
  const char *p = text;

  while ((gsize) (end - p) >= n)
    {
      p = memchr (p, needle[0], (gsize) (end - p) - n + 1);
      if (p == NULL)
        return FALSE;
      if (memcmp (p, needle, n) == 0)
        return TRUE;
      p++;
    }
  return FALSE;
}

static guint
probe_text (const char *text,
            gsize       len)
{
  const char *p = text;
  const char *end = text + len;

  if (len >= 3 && memcmp (p, "\xef\xbb\xbf", 3) == 0)
    p += 3;
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
    p++;
  if (p >= end)
    return 0;

  if (*p == '{')
    {
      if (contains (p, (gsize) (end - p), "\"traceEvents\""))
        return 90;
      if (contains (p, (gsize) (end - p), "\"ph\""))
        return 40;
      return 10;
    }

  if (*p == '[')
    {
      p++;
      while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
      if (p >= end || *p == ']')
        return 20;
      if (*p != '{')
        return 5;
      if (contains (p, (gsize) (end - p), "\"ph\""))
        return 90;
      return 20;
    }

  return 0;
}

/* SpsImporter */

static const char *
sps_chrome_importer_get_name (SpsImporter *importer)
{
  return "chrome-json";
}

static guint
sps_chrome_importer_probe (SpsImporter *importer,
                           GFile       *file,
                           GBytes      *head)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (head, &len);

  g_assert (SPS_IS_CHROME_IMPORTER (importer));

  if (data == NULL || len == 0)
    return 0;

  if (sps_chrome_gzip_has_magic (data, len))
    {
      char buf[16384];
      gsize n = sps_chrome_gunzip_head (data, len, buf, sizeof buf);

      /* Nothing decompresses: a damaged file, which only the load can
       * explain, so claim it weakly. */
      if (n == 0)
        return 5;
      return probe_text (buf, n);
    }

  return probe_text ((const char *) data, len);
}

static gboolean
sps_chrome_importer_load (SpsImporter      *importer,
                          GFile            *file,
                          GVariant         *options,
                          SpsTraceBuilder  *builder,
                          SpsProgress      *progress,
                          GError          **error)
{
  g_autoptr(GBytes) mapped = NULL;
  g_autoptr(GBytes) text = NULL;
  g_autofree char *unit = NULL;
  guint time_exp;
  Loader loader;
  guint threads = 0;
  gboolean gzip_truncated = FALSE;
  gboolean gzip_limited = FALSE;
  guint64 gzip_limit = sps_chrome_gzip_default_limit ();
  gboolean ret;
  gsize len;
  const guint8 *data;

  g_assert (SPS_IS_CHROME_IMPORTER (importer));
  g_assert (G_IS_FILE (file));
  g_assert (SPS_IS_TRACE_BUILDER (builder));

  if (options != NULL)
    {
      g_variant_lookup (options, "timestamp-unit", "s", &unit);
      g_variant_lookup (options, "threads", "u", &threads);
      g_variant_lookup (options, "max-decompressed-size", "t", &gzip_limit);
    }

  if (unit == NULL)
    time_exp = 3;
  else if (!sps_chrome_time_unit_exponent (unit, &time_exp))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   /* Translators: %s is what was given; ns, us, ms and s are unit symbols */
                   _("Unknown timestamp unit “%s” (ns, us, ms or s)"), unit);
      return FALSE;
    }

  if (progress != NULL)
    sps_progress_set_phase (progress, SPS_PROGRESS_PHASE_READING, _("Reading the file"));

  /* Read, not mapped: a file cut while being read stays valid
   * (sps_file_read()). */
  if (!(mapped = sps_file_read (file, builder, progress, error)))
    return FALSE;
  data = g_bytes_get_data (mapped, &len);

  if (sps_chrome_gzip_has_magic (data, len))
    {
      g_autoptr(GError) local_error = NULL;
      gsize error_offset = 0;

      text = sps_chrome_gunzip (data, len, gzip_limit, progress, &gzip_truncated, &gzip_limited,
                                &error_offset, &local_error);
      if (text == NULL)
        {
          g_autofree char *name = dup_display_name (file);

          if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            g_propagate_error (error, g_steal_pointer (&local_error));
          else if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NO_SPACE))
            g_set_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_TOO_LARGE,
                         /* Translators: a file name, a byte offset in it, then an error message */
                         _("%s (byte %zu): %s"),
                         name, error_offset, local_error->message);
          else
            {
              /* Translators: %s says what is wrong with the data */
              g_autofree char *what = g_strdup_printf (_("corrupt gzip data: %s"),
                                                       local_error->message);

              g_set_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_MALFORMED,
                           /* Translators: a file name, a byte offset in it, then an error message */
                           _("%s (byte %zu): %s"),
                           name, error_offset, what);
            }
          return FALSE;
        }
    }
  else
    text = g_bytes_ref (mapped);

  /* The decompressed text replaces the mapping; args point into it */
  g_clear_pointer (&mapped, g_bytes_unref);

  sps_trace_builder_set_source (builder, text);
  sps_trace_builder_set_format (builder, "chrome-json");

  loader_init (&loader, file, builder, progress, time_exp);
  if (threads > 0)
    loader.n_threads = threads;
  loader.base = g_bytes_get_data (text, &loader.len);
  if (loader.base == NULL)
    loader.base = "";
  /* Cut at the limit: the complete events before it are kept, as for a
   * cut file, and the warning says why it ends there */
  loader.gzip_truncated = gzip_truncated || gzip_limited;
  loader.gzip_limited = gzip_limited;
  if (gzip_limited)
    {
      g_autofree char *limit_text = g_format_size_full (gzip_limit, G_FORMAT_SIZE_IEC_UNITS);

      sps_trace_builder_warn (builder, "decompressed_size_limit",
                              /* Translators: a file name, then a size ("16.0 GiB") */
                              _("%s: the decompressed data is larger than the limit of %s "
                                "(the smaller of 16 GiB and half the memory); the events in the "
                                "first %s were kept"),
                              loader.display_name, limit_text, limit_text);
    }

  if (progress != NULL)
    sps_progress_set_phase (progress, SPS_PROGRESS_PHASE_PARSING, _("Reading events"));

  ret = loader_run (&loader, error);

  sps_trace_builder_add_events_read (builder, loader.events_read);
  sps_trace_builder_add_metadata_events (builder, loader.metadata_events);
  if (ret && progress != NULL)
    sps_progress_set_fraction (progress, 1.0);

  loader_clear (&loader);
  return ret;
}

static void
sps_chrome_importer_iface_init (SpsImporterInterface *iface)
{
  iface->get_name = sps_chrome_importer_get_name;
  iface->probe = sps_chrome_importer_probe;
  iface->load = sps_chrome_importer_load;
}

static void
sps_chrome_importer_class_init (SpsChromeImporterClass *klass)
{
}

static void
sps_chrome_importer_init (SpsChromeImporter *self)
{
}
