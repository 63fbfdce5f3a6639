/* lines-plugin.c: a minimal importer/exporter plugin for the tests
 *
 * The "spslines" format is text, one record per line:
 *
 *   SPSLINES            the header, always the first line
 *   # anything          a comment
 *   TS DUR NAME         a slice of thread 1 of process 1; TS and DUR are
 *                       integer nanoseconds (DUR >= 0), NAME is the rest
 *                       of the line
 *   #pause              waits until the load is cancelled, so that tests
 *                       can cancel a load in the middle; the progress
 *                       message says "paused" meanwhile
 *
 * Errors say where, as every importer must: FILE:LINE:COLUMN (byte N).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "sps-test-lines"

#include "config.h"

#include <string.h>

#include <libpeas/peas.h>
#include <spanscope-core.h>

#define LINES_HEADER "SPSLINES"

/* How long "#pause" waits for a cancellation before giving up. */
#define PAUSE_LIMIT_MS 30000

#define SPS_TEST_TYPE_LINES_IMPORTER (sps_test_lines_importer_get_type ())
G_DECLARE_FINAL_TYPE (SpsTestLinesImporter, sps_test_lines_importer, SPS_TEST, LINES_IMPORTER, GObject)

#define SPS_TEST_TYPE_LINES_EXPORTER (sps_test_lines_exporter_get_type ())
G_DECLARE_FINAL_TYPE (SpsTestLinesExporter, sps_test_lines_exporter, SPS_TEST, LINES_EXPORTER, GObject)

struct _SpsTestLinesImporter
{
  GObject parent_instance;
};

struct _SpsTestLinesExporter
{
  GObject parent_instance;
};

static void sps_test_lines_importer_iface_init (SpsImporterInterface *iface);
static void sps_test_lines_exporter_iface_init (SpsExporterInterface *iface);

G_DEFINE_DYNAMIC_TYPE_EXTENDED (SpsTestLinesImporter, sps_test_lines_importer, G_TYPE_OBJECT, 0,
                                G_IMPLEMENT_INTERFACE_DYNAMIC (SPS_TYPE_IMPORTER,
                                                               sps_test_lines_importer_iface_init))

G_DEFINE_DYNAMIC_TYPE_EXTENDED (SpsTestLinesExporter, sps_test_lines_exporter, G_TYPE_OBJECT, 0,
                                G_IMPLEMENT_INTERFACE_DYNAMIC (SPS_TYPE_EXPORTER,
                                                               sps_test_lines_exporter_iface_init))

#define LINES_FORMAT "spslines"

static const char *
sps_test_lines_importer_get_name (SpsImporter *importer)
{
  return LINES_FORMAT;
}

static const char *
sps_test_lines_exporter_get_name (SpsExporter *exporter)
{
  return LINES_FORMAT;
}

static guint
sps_test_lines_importer_probe (SpsImporter *importer,
                               GFile       *file,
                               GBytes      *head)
{
  gsize size;
  const char *data = g_bytes_get_data (head, &size);

  if (size >= strlen (LINES_HEADER) && memcmp (data, LINES_HEADER, strlen (LINES_HEADER)) == 0)
    return 100;

  return 0;
}

static gboolean
lines_error (GError     **error,
             GFile       *file,
             guint        line,
             gsize        column,
             gsize        offset,
             const char  *what)
{
  g_autofree char *name = g_file_get_parse_name (file);

  g_set_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_MALFORMED,
               "%s:%u:%" G_GSIZE_FORMAT " (byte %" G_GSIZE_FORMAT "): %s",
               name, line, column, offset, what);
  return FALSE;
}

static gboolean
parse_int (const char *start,
           const char *end,
           gint64      min,
           gint64     *value)
{
  g_autofree char *text = g_strndup (start, end - start);

  return g_ascii_string_to_signed (text, 10, min, G_MAXINT64, value, NULL);
}

/* Parses "TS DUR NAME" in @text (one line, not terminated) and adds it. */
static gboolean
parse_row (SpsTraceBuilder  *builder,
           guint32           thread,
           GFile            *file,
           guint             line,
           gsize             line_offset,
           const char       *text,
           gsize             len,
           GError          **error)
{
  const char *end = text + len;
  const char *ts_end = memchr (text, ' ', len);
  const char *dur_start;
  const char *dur_end;
  gint64 ts;
  gint64 dur;

  if (ts_end == NULL || !parse_int (text, ts_end, G_MININT64, &ts))
    return lines_error (error, file, line, 1, line_offset, "expected an integer timestamp");

  dur_start = ts_end + 1;
  dur_end = memchr (dur_start, ' ', end - dur_start);
  if (dur_end == NULL || !parse_int (dur_start, dur_end, 0, &dur))
    return lines_error (error, file, line, dur_start - text + 1, line_offset + (dur_start - text),
                        "expected a duration that is an integer >= 0");

  if (dur_end + 1 >= end)
    return lines_error (error, file, line, dur_end - text + 2, line_offset + (dur_end + 1 - text),
                        "expected a name");

  sps_trace_builder_add_complete (builder, thread, ts, dur,
                                  sps_trace_builder_intern (builder, dur_end + 1, end - dur_end - 1),
                                  0, SPS_ARGS_REF_NONE, SPS_SLICE_NONE);
  sps_trace_builder_add_events_read (builder, 1);

  return TRUE;
}

static gboolean
sps_test_lines_importer_load (SpsImporter      *importer,
                              GFile            *file,
                              GVariant         *options,
                              SpsTraceBuilder  *builder,
                              SpsProgress      *progress,
                              GError          **error)
{
  GCancellable *cancellable = sps_progress_get_cancellable (progress);
  g_autofree char *contents = NULL;
  gsize length = 0;
  guint32 thread;
  guint line = 0;

  sps_progress_set_phase (progress, SPS_PROGRESS_PHASE_READING, "Reading");

  if (!g_file_load_contents (file, cancellable, &contents, &length, NULL, error))
    return FALSE;

  sps_progress_set_phase (progress, SPS_PROGRESS_PHASE_PARSING, "Parsing");

  thread = sps_trace_builder_ensure_thread (builder,
                                            sps_trace_builder_ensure_process (builder, 1),
                                            1);

  for (gsize pos = 0; pos < length;)
    {
      const char *text = contents + pos;
      const char *newline = memchr (text, '\n', length - pos);
      gsize len = newline != NULL ? (gsize) (newline - text) : length - pos;

      line++;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;

      if (line == 1)
        {
          if (len != strlen (LINES_HEADER) || memcmp (text, LINES_HEADER, len) != 0)
            return lines_error (error, file, 1, 1, 0, "expected the SPSLINES header");
        }
      else if (len == strlen ("#pause") && memcmp (text, "#pause", len) == 0)
        {
          sps_progress_set_phase (progress, SPS_PROGRESS_PHASE_PARSING, "paused");

          for (guint waited = 0; !g_cancellable_is_cancelled (cancellable); waited++)
            {
              if (waited >= PAUSE_LIMIT_MS)
                return lines_error (error, file, line, 1, pos, "paused and never cancelled");
              g_usleep (1000);
            }
        }
      else if (len > 0 && text[0] != '#')
        {
          if (!parse_row (builder, thread, file, line, pos, text, len, error))
            return FALSE;
        }

      pos += len + (newline != NULL ? 1 : 0);
      sps_progress_set_fraction (progress, (double) pos / (double) length);
    }

  if (line == 0)
    return lines_error (error, file, 1, 1, 0, "expected the SPSLINES header");

  return TRUE;
}

static gboolean
sps_test_lines_exporter_write (SpsExporter    *exporter,
                               SpsTrace       *trace,
                               GVariant       *options,
                               GOutputStream  *stream,
                               SpsProgress    *progress,
                               GError        **error)
{
  const SpsSliceTable *slices = sps_trace_get_slices (trace);
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);
  g_autoptr(GString) out = g_string_new (LINES_HEADER "\n");

  for (guint i = 0; i < slices->n_rows; i++)
    {
      if (tracks->kind[slices->track[i]] != SPS_TRACK_THREAD_SLICES)
        continue;

      g_string_append_printf (out, "%" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %s\n",
                              slices->ts[i], slices->dur[i],
                              sps_trace_get_string (trace, slices->name[i]));
    }

  return g_output_stream_write_all (stream, out->str, out->len, NULL,
                                    sps_progress_get_cancellable (progress), error);
}

static void
sps_test_lines_importer_iface_init (SpsImporterInterface *iface)
{
  iface->get_name = sps_test_lines_importer_get_name;
  iface->probe = sps_test_lines_importer_probe;
  iface->load = sps_test_lines_importer_load;
}

static void
sps_test_lines_exporter_iface_init (SpsExporterInterface *iface)
{
  iface->get_name = sps_test_lines_exporter_get_name;
  iface->write = sps_test_lines_exporter_write;
}

static void
sps_test_lines_importer_class_init (SpsTestLinesImporterClass *klass)
{
}

static void
sps_test_lines_importer_class_finalize (SpsTestLinesImporterClass *klass)
{
}

static void
sps_test_lines_importer_init (SpsTestLinesImporter *self)
{
}

static void
sps_test_lines_exporter_class_init (SpsTestLinesExporterClass *klass)
{
}

static void
sps_test_lines_exporter_class_finalize (SpsTestLinesExporterClass *klass)
{
}

static void
sps_test_lines_exporter_init (SpsTestLinesExporter *self)
{
}

G_MODULE_EXPORT void peas_register_types (PeasObjectModule *module);

G_MODULE_EXPORT void
peas_register_types (PeasObjectModule *module)
{
  sps_test_lines_importer_register_type (G_TYPE_MODULE (module));
  sps_test_lines_exporter_register_type (G_TYPE_MODULE (module));

  peas_object_module_register_extension_type (module, SPS_TYPE_IMPORTER, SPS_TEST_TYPE_LINES_IMPORTER);
  peas_object_module_register_extension_type (module, SPS_TYPE_EXPORTER, SPS_TEST_TYPE_LINES_EXPORTER);
}
