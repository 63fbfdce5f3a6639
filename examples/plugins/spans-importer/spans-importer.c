/* spans-importer.c: an importer plugin for a made-up text format
 *
 * A span list is text: a first line "# spans 1", then comments ("#…")
 * and one span a line,
 *
 *   THREAD START DURATION NAME [CATEGORY [ARGS]]
 *
 * the thread's id, the start and duration in nanoseconds (integers), the
 * span's name (a word), optionally its category (a word, "-" for none)
 * and its args: the rest of the line, a JSON object. Every thread is in
 * process 1.
 *
 * What it shows of the plugin API: the registration (peas_register_types)
 * with a dynamic type, probing by content, reading the file with
 * sps_file_read() (limits, progress and changed-file checks included),
 * adding processes, threads and slices with their args to the builder,
 * and errors that say where (FILE:LINE: what).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>

#include <libpeas/peas.h>
#include <spanscope-core.h>

#define SPANS_HEADER "# spans 1"

#define EXAMPLE_TYPE_SPANS_IMPORTER (example_spans_importer_get_type ())
G_DECLARE_FINAL_TYPE (ExampleSpansImporter, example_spans_importer, EXAMPLE, SPANS_IMPORTER, GObject)

struct _ExampleSpansImporter
{
  GObject parent_instance;
};

static void example_spans_importer_iface_init (SpsImporterInterface *iface);

/* Dynamic: the type belongs to the module libpeas loads */
G_DEFINE_DYNAMIC_TYPE_EXTENDED (ExampleSpansImporter, example_spans_importer, G_TYPE_OBJECT, 0,
                                G_IMPLEMENT_INTERFACE_DYNAMIC (SPS_TYPE_IMPORTER,
                                                               example_spans_importer_iface_init))

static const char *
example_spans_importer_get_name (SpsImporter *importer)
{
  return "spans";
}

/* From the first bytes only: 100 is "certainly mine", 0 "not mine" */
static guint
example_spans_importer_probe (SpsImporter *importer,
                              GFile       *file,
                              GBytes      *head)
{
  gsize size;
  const char *data = g_bytes_get_data (head, &size);

  return size >= strlen (SPANS_HEADER) && memcmp (data, SPANS_HEADER, strlen (SPANS_HEADER)) == 0 ? 100 : 0;
}

static gboolean
fail (GError     **error,
      GFile       *file,
      guint        line,
      const char  *what)
{
  g_autofree char *name = sps_file_dup_display_name (file);

  g_set_error (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_MALFORMED, "%s:%u: %s", name, line, what);
  return FALSE;
}

/* The args text, checked: the trace keeps it as written and parses it
 * when a view or a query reads it, so what goes in must be an object */
static gboolean
add_args (SpsTraceBuilder  *builder,
          const char       *text,
          SpsArgsRef       *ref,
          GFile            *file,
          guint             line,
          GError          **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();

  if (!json_parser_load_from_data (parser, text, -1, NULL) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return fail (error, file, line, "the args must be a JSON object");

  *ref = sps_trace_builder_add_args_text (builder, text, -1);
  return TRUE;
}

/* "THREAD START DURATION NAME [CATEGORY [ARGS]]" into the builder; FALSE
 * with @error */
static gboolean
add_span (SpsTraceBuilder  *builder,
          guint32           process,
          const char       *text,
          GFile            *file,
          guint             line,
          GError          **error)
{
  g_auto(GStrv) fields = g_strsplit (text, " ", 6);
  guint n_fields = g_strv_length (fields);
  SpsArgsRef args = SPS_ARGS_REF_NONE;
  guint32 category = 0;
  gint64 tid, start, duration;

  if (n_fields < 4 || fields[3][0] == '\0')
    return fail (error, file, line, "a span needs a thread, a start, a duration and a name");
  if (!g_ascii_string_to_signed (fields[0], 10, 0, G_MAXINT32, &tid, NULL) ||
      !g_ascii_string_to_signed (fields[1], 10, G_MININT64 / 4, G_MAXINT64 / 4, &start, NULL) ||
      !g_ascii_string_to_signed (fields[2], 10, 0, G_MAXINT64 / 4, &duration, NULL))
    return fail (error, file, line, "the thread, start and duration must be integers (the duration not negative)");
  if (n_fields >= 5 && !g_str_equal (fields[4], "-"))
    category = sps_trace_builder_intern (builder, fields[4], -1);
  if (n_fields == 6 && !add_args (builder, fields[5], &args, file, line, error))
    return FALSE;

  sps_trace_builder_add_complete (builder,
                                  sps_trace_builder_ensure_thread (builder, process, tid),
                                  start, duration,
                                  sps_trace_builder_intern (builder, fields[3], -1),
                                  category, args, 0);
  return TRUE;
}

/* Runs on a worker thread: everything it needs comes in its arguments */
static gboolean
example_spans_importer_load (SpsImporter      *importer,
                             GFile            *file,
                             GVariant         *options,
                             SpsTraceBuilder  *builder,
                             SpsProgress      *progress,
                             GError          **error)
{
  g_autoptr(GBytes) contents = NULL;
  g_auto(GStrv) lines = NULL;
  g_autofree char *text = NULL;
  guint32 process;
  gsize size;
  const char *data;

  /* Read, not mapped: a file being written keeps what was there */
  if (!(contents = sps_file_read (file, builder, progress, error)))
    return FALSE;
  data = g_bytes_get_data (contents, &size);
  text = g_strndup (data, size);
  if (!g_utf8_validate (text, -1, NULL))
    return fail (error, file, 1, "the file is not UTF-8 text");

  process = sps_trace_builder_ensure_process (builder, 1);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 1; lines[i] != NULL; i++)
    {
      g_strchomp (lines[i]);
      if (lines[i][0] == '\0' || lines[i][0] == '#')
        continue;
      if (!add_span (builder, process, lines[i], file, i + 1, error))
        return FALSE;
      if (progress != NULL &&
          g_cancellable_set_error_if_cancelled (sps_progress_get_cancellable (progress), error))
        return FALSE;
    }
  return TRUE;
}

static void
example_spans_importer_iface_init (SpsImporterInterface *iface)
{
  iface->get_name = example_spans_importer_get_name;
  iface->probe = example_spans_importer_probe;
  iface->load = example_spans_importer_load;
}

static void
example_spans_importer_class_init (ExampleSpansImporterClass *klass)
{
}

static void
example_spans_importer_class_finalize (ExampleSpansImporterClass *klass)
{
}

static void
example_spans_importer_init (ExampleSpansImporter *self)
{
}

G_MODULE_EXPORT void peas_register_types (PeasObjectModule *module);

G_MODULE_EXPORT void
peas_register_types (PeasObjectModule *module)
{
  example_spans_importer_register_type (G_TYPE_MODULE (module));
  peas_object_module_register_extension_type (module, SPS_TYPE_IMPORTER, EXAMPLE_TYPE_SPANS_IMPORTER);
}
