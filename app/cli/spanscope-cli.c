/* spanscope-cli.c: the command-line tool (core only, no GTK)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "spanscope-cli"

#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

#include <spanscope-core.h>

/* Exit statuses: 0 success, 1 bad input (unreadable, unknown or malformed
 * file, failed write), 2 usage error. */
#define EXIT_OK         0
#define EXIT_BAD_INPUT  1
#define EXIT_USAGE      2

static const char usage_text[] =
  "Usage:\n"
  "  spanscope-cli info [--json] [--ns] FILE\n"
  "  spanscope-cli convert FILE --format FORMAT -o OUT [--ns]\n"
  "  spanscope-cli --version\n"
  "\n"
  "Commands:\n"
  "  info       Print what a trace holds\n"
  "  convert    Write a trace in another format\n"
  "\n"
  "Run “spanscope-cli COMMAND --help” for the options of a command.\n";

typedef struct
{
  const char *format;
  gint64      events_read;
  gint64      processes;
  gint64      threads;
  gint64      slices;
  gint64      sampled_slices;
  gint64      async_slices;
  gint64      instants;
  gint64      counter_tracks;
  gint64      counter_values;
  gint64      flows;
  gint64      samples;
  gint64      objects;
  gint64      metadata;
  gint64      start_ns;
  gint64      end_ns;
} Counts;

typedef struct
{
  const char *name;
  guint64     count;
  const char *first_message;
} Warning;

static void
print_usage_error (GOptionContext *context,
                   const char     *format,
                   ...) G_GNUC_PRINTF (2, 3);

static void
print_usage_error (GOptionContext *context,
                   const char     *format,
                   ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  fprintf (stderr, "%s: %s\n\n", g_get_prgname (), message);

  if (context != NULL)
    {
      g_autofree char *help = g_option_context_get_help (context, TRUE, NULL);

      fputs (help, stderr);
    }
  else
    {
      fputs (usage_text, stderr);
    }
}

static void
print_plugin_notes (SpsPluginEngine *engine)
{
  const GPtrArray *problems = sps_plugin_engine_get_problems (engine);
  g_auto(GStrv) plugins = sps_plugin_engine_list_plugins (engine);

  if (plugins[0] == NULL)
    fprintf (stderr,
             "%s: note: no plugins were found (installed in %s, or in "
             "SPANSCOPE_PLUGIN_PATH)\n",
             g_get_prgname (), SPS_PLUGIN_DIR);

  for (guint i = 0; i < problems->len; i++)
    fprintf (stderr, "%s: note: plugin problem: %s\n",
             g_get_prgname (), (const char *)g_ptr_array_index (problems, i));
}

static SpsTrace *
load_trace (const char    *path,
            gboolean       ns,
            SpsLoadFlags   flags,
            GError       **error)
{
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);
  g_autoptr(GVariant) options = NULL;

  if (ns)
    {
      GVariantDict dict;

      g_variant_dict_init (&dict, NULL);
      g_variant_dict_insert (&dict, "timestamp-unit", "s", "ns");
      options = g_variant_ref_sink (g_variant_dict_end (&dict));
    }

  return sps_trace_load (file, sps_plugin_engine_get_default (), options, flags,
                         NULL, NULL, error);
}

static int
report_load_error (const GError *error)
{
  fprintf (stderr, "%s: %s\n", g_get_prgname (), error->message);

  if (g_error_matches (error, SPS_IMPORT_ERROR, SPS_IMPORT_ERROR_UNKNOWN_FORMAT))
    print_plugin_notes (sps_plugin_engine_get_default ());

  return EXIT_BAD_INPUT;
}

static void
collect_counts (SpsTrace *trace,
                Counts   *counts)
{
  const SpsTrackTable *tracks = sps_trace_get_tracks (trace);

  memset (counts, 0, sizeof *counts);

  counts->format = sps_trace_get_format (trace);
  counts->events_read = (gint64) sps_trace_get_events_read (trace);
  counts->processes = sps_trace_get_processes (trace)->n_rows;
  counts->threads = sps_trace_get_threads (trace)->n_rows;
  counts->slices = sps_trace_count_slices (trace, SPS_TRACK_THREAD_SLICES);
  counts->sampled_slices = sps_trace_count_slices (trace, SPS_TRACK_THREAD_SAMPLED_SLICES);
  counts->async_slices = sps_trace_count_slices (trace, SPS_TRACK_ASYNC);
  counts->instants = sps_trace_get_instants (trace)->n_rows;
  counts->counter_values = sps_trace_get_counters (trace)->n_rows;
  counts->flows = sps_trace_get_flows (trace)->n_rows;
  counts->samples = sps_trace_get_samples (trace)->n_rows;
  counts->objects = sps_trace_get_objects (trace)->n_rows;
  counts->metadata = (gint64) sps_trace_get_metadata_events (trace);
  counts->start_ns = sps_trace_get_start_time (trace);
  counts->end_ns = sps_trace_get_end_time (trace);

  for (guint i = 0; i < tracks->n_rows; i++)
    {
      if (tracks->kind[i] == SPS_TRACK_COUNTER)
        counts->counter_tracks++;
    }
}

static int
compare_warnings (gconstpointer a,
                  gconstpointer b)
{
  const Warning *wa = a;
  const Warning *wb = b;

  return strcmp (wa->name, wb->name);
}

/* Warnings with a non-zero count, sorted by name. */
static GArray *
collect_warnings (SpsTrace *trace)
{
  GArray *warnings = g_array_new (FALSE, FALSE, sizeof (Warning));
  guint n = sps_trace_get_n_warnings (trace);

  for (guint i = 0; i < n; i++)
    {
      Warning w = { 0 };

      w.name = sps_trace_get_warning (trace, i, &w.count, &w.first_message);
      if (w.name != NULL && w.count > 0)
        g_array_append_val (warnings, w);
    }

  g_array_sort (warnings, compare_warnings);

  return warnings;
}

static void
add_int_member (JsonBuilder *builder,
                const char  *name,
                gint64       value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, value);
}

static void
print_json (SpsTrace *trace)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GArray) warnings = collect_warnings (trace);
  g_autofree char *text = NULL;
  Counts counts;

  collect_counts (trace, &counts);

  /* The key order is part of the output's contract. */
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, counts.format != NULL ? counts.format : "");
  add_int_member (builder, "events_read", counts.events_read);
  add_int_member (builder, "processes", counts.processes);
  add_int_member (builder, "threads", counts.threads);
  add_int_member (builder, "slices", counts.slices);
  add_int_member (builder, "sampled_slices", counts.sampled_slices);
  add_int_member (builder, "async_slices", counts.async_slices);
  add_int_member (builder, "instants", counts.instants);
  add_int_member (builder, "counter_tracks", counts.counter_tracks);
  add_int_member (builder, "counter_values", counts.counter_values);
  add_int_member (builder, "flows", counts.flows);
  add_int_member (builder, "samples", counts.samples);
  add_int_member (builder, "objects", counts.objects);
  add_int_member (builder, "metadata", counts.metadata);
  add_int_member (builder, "start_ns", counts.start_ns);
  add_int_member (builder, "end_ns", counts.end_ns);
  json_builder_set_member_name (builder, "warnings");
  json_builder_begin_object (builder);
  for (guint i = 0; i < warnings->len; i++)
    {
      const Warning *w = &g_array_index (warnings, Warning, i);

      add_int_member (builder, w->name, (gint64) w->count);
    }
  json_builder_end_object (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  text = json_generator_to_data (generator, NULL);

  printf ("%s\n", text);
}

static char *
format_duration (gint64 ns)
{
  /* Shown with the largest unit that keeps at least one integer digit. */
  if (ns < 0)
    return g_strdup_printf ("%" G_GINT64_FORMAT " ns", ns);
  if (ns < 1000)
    return g_strdup_printf ("%" G_GINT64_FORMAT " ns", ns);
  if (ns < 1000000)
    return g_strdup_printf ("%.3f us", ns / 1e3);
  if (ns < 1000000000)
    return g_strdup_printf ("%.3f ms", ns / 1e6);
  return g_strdup_printf ("%.3f s", ns / 1e9);
}

static void
print_table (const char *path,
             SpsTrace   *trace)
{
  g_autoptr(GArray) warnings = collect_warnings (trace);
  const GError *load_error = sps_trace_get_load_error (trace);
  g_autofree char *duration = NULL;
  Counts counts;
  struct {
    const char *label;
    gint64      value;
  } rows[] = {
    { "Events read", 0 },
    { "Processes", 0 },
    { "Threads", 0 },
    { "Slices", 0 },
    { "Sampled slices", 0 },
    { "Async slices", 0 },
    { "Instants", 0 },
    { "Counter tracks", 0 },
    { "Counter values", 0 },
    { "Flows", 0 },
    { "Samples", 0 },
    { "Objects", 0 },
    { "Metadata events", 0 },
    { "Start (ns)", 0 },
    { "End (ns)", 0 },
  };
  int label_width = 0;
  int number_width = 0;

  collect_counts (trace, &counts);
  rows[0].value = counts.events_read;
  rows[1].value = counts.processes;
  rows[2].value = counts.threads;
  rows[3].value = counts.slices;
  rows[4].value = counts.sampled_slices;
  rows[5].value = counts.async_slices;
  rows[6].value = counts.instants;
  rows[7].value = counts.counter_tracks;
  rows[8].value = counts.counter_values;
  rows[9].value = counts.flows;
  rows[10].value = counts.samples;
  rows[11].value = counts.objects;
  rows[12].value = counts.metadata;
  rows[13].value = counts.start_ns;
  rows[14].value = counts.end_ns;

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      g_autofree char *digits = g_strdup_printf ("%" G_GINT64_FORMAT, rows[i].value);

      label_width = MAX (label_width, (int) strlen (rows[i].label));
      number_width = MAX (number_width, (int) strlen (digits));
    }

  for (guint i = 0; i < warnings->len; i++)
    {
      const Warning *w = &g_array_index (warnings, Warning, i);

      label_width = MAX (label_width, (int) strlen (w->name) + 2);
    }

  label_width += 2;

  printf ("%-*s%s\n", label_width, "File", path);
  printf ("%-*s%s\n", label_width, "Format", counts.format != NULL ? counts.format : "");

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    printf ("%-*s%*" G_GINT64_FORMAT "\n", label_width, rows[i].label, number_width, rows[i].value);

  duration = format_duration (counts.end_ns - counts.start_ns);
  printf ("%-*s%s\n", label_width, "Duration", duration);

  if (warnings->len == 0)
    {
      printf ("%-*s%s\n", label_width, "Warnings", "none");
    }
  else
    {
      printf ("Warnings\n");
      for (guint i = 0; i < warnings->len; i++)
        {
          const Warning *w = &g_array_index (warnings, Warning, i);

          printf ("  %-*s%*" G_GUINT64_FORMAT "  %s\n",
                  label_width - 2, w->name, number_width, w->count,
                  w->first_message != NULL ? w->first_message : "");
        }
    }

  /* Only with --keep-partial: what is shown above was read before this. */
  if (load_error != NULL)
    printf ("%-*s%s\n", label_width, "Load error", load_error->message);
}

static int
cmd_info (int    argc,
          char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) args = NULL;
  gboolean json = FALSE;
  gboolean ns = FALSE;
  gboolean keep_partial = FALSE;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      "Print the counts as a JSON object", NULL },
    { "ns", 0, 0, G_OPTION_ARG_NONE, &ns,
      "Read timestamps and durations as nanoseconds instead of microseconds", NULL },
    { "keep-partial", 0, 0, G_OPTION_ARG_NONE, &keep_partial,
      "On an error, still print what was read before it (the exit status stays 1)", NULL },
    { NULL }
  };

  g_set_prgname ("spanscope-cli info");

  context = g_option_context_new ("FILE");
  g_option_context_set_summary (context, "Print what a trace holds.");
  g_option_context_add_main_entries (context, entries, NULL);

  args = g_new0 (char *, argc + 1);
  for (int i = 0; i < argc; i++)
    args[i] = g_strdup (argv[i]);

  if (!g_option_context_parse_strv (context, &args, &error))
    {
      print_usage_error (context, "%s", error->message);
      return EXIT_USAGE;
    }

  if (g_strv_length (args) != 2)
    {
      print_usage_error (context, "%s", args[1] == NULL ? "missing FILE" : "expected one FILE");
      return EXIT_USAGE;
    }

  trace = load_trace (args[1], ns,
                      keep_partial ? SPS_LOAD_FLAGS_KEEP_PARTIAL : SPS_LOAD_FLAGS_NONE,
                      &error);
  if (trace == NULL)
    return report_load_error (error);

  if (json)
    print_json (trace);
  else
    print_table (args[1], trace);

  if (sps_trace_get_load_error (trace) != NULL)
    return report_load_error (sps_trace_get_load_error (trace));

  return EXIT_OK;
}

static char *
list_exporter_names (SpsPluginEngine *engine)
{
  g_autoptr(GPtrArray) exporters = sps_plugin_engine_create_exporters (engine);
  g_autoptr(GString) names = g_string_new (NULL);

  for (guint i = 0; i < exporters->len; i++)
    {
      if (names->len > 0)
        g_string_append (names, ", ");
      g_string_append (names, sps_exporter_get_name (g_ptr_array_index (exporters, i)));
    }

  if (names->len == 0)
    g_string_append (names, "none");

  return g_string_free (g_steal_pointer (&names), FALSE);
}

/* Writes to a temporary file renamed over @file only once everything was
 * written, so a failed conversion never leaves a half-written output. */
static gboolean
write_trace (SpsExporter  *exporter,
             SpsTrace     *trace,
             GFile        *file,
             GError      **error)
{
  g_autoptr(GFileOutputStream) out = NULL;
  g_autoptr(GOutputStream) buffered = NULL;

  if (!(out = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION, NULL, error)))
    return FALSE;

  buffered = g_buffered_output_stream_new_sized (G_OUTPUT_STREAM (out), 1 << 20);

  if (!sps_exporter_write (exporter, trace, buffered, NULL, error))
    {
      g_autoptr(GCancellable) cancelled = g_cancellable_new ();

      /* Closing with a cancelled cancellable drops the temporary file. */
      g_cancellable_cancel (cancelled);
      g_output_stream_close (buffered, cancelled, NULL);
      return FALSE;
    }

  return g_output_stream_close (buffered, NULL, error);
}

static int
cmd_convert (int    argc,
             char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(SpsExporter) exporter = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GFile) output_file = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *format = NULL;
  g_autofree char *output = NULL;
  g_auto(GStrv) args = NULL;
  SpsPluginEngine *engine;
  gboolean ns = FALSE;
  const GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format,
      "The format to write (required), e.g. chrome-json", "FORMAT" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      "The file to write (required); replaced only once complete", "OUT" },
    { "ns", 0, 0, G_OPTION_ARG_NONE, &ns,
      "Read timestamps and durations as nanoseconds instead of microseconds", NULL },
    { NULL }
  };

  g_set_prgname ("spanscope-cli convert");

  context = g_option_context_new ("FILE");
  g_option_context_set_summary (context, "Write a trace in another format.");
  g_option_context_add_main_entries (context, entries, NULL);

  args = g_new0 (char *, argc + 1);
  for (int i = 0; i < argc; i++)
    args[i] = g_strdup (argv[i]);

  if (!g_option_context_parse_strv (context, &args, &error))
    {
      print_usage_error (context, "%s", error->message);
      return EXIT_USAGE;
    }

  if (g_strv_length (args) != 2)
    {
      print_usage_error (context, "%s", args[1] == NULL ? "missing FILE" : "expected one FILE");
      return EXIT_USAGE;
    }

  if (format == NULL)
    {
      print_usage_error (context, "missing --format FORMAT");
      return EXIT_USAGE;
    }

  if (output == NULL)
    {
      print_usage_error (context, "missing -o OUT");
      return EXIT_USAGE;
    }

  engine = sps_plugin_engine_get_default ();

  if (!(exporter = sps_plugin_engine_create_exporter (engine, format)))
    {
      g_autofree char *names = list_exporter_names (engine);

      print_usage_error (context, "unknown format “%s” (available: %s)", format, names);
      print_plugin_notes (engine);
      return EXIT_USAGE;
    }

  if (!(trace = load_trace (args[1], ns, SPS_LOAD_FLAGS_NONE, &error)))
    return report_load_error (error);

  output_file = g_file_new_for_commandline_arg (output);

  if (!write_trace (exporter, trace, output_file, &error))
    {
      fprintf (stderr, "%s: %s\n", g_get_prgname (), error->message);
      return EXIT_BAD_INPUT;
    }

  return EXIT_OK;
}

int
main (int    argc,
      char **argv)
{
  const char *command;

  setlocale (LC_ALL, "");
  g_set_prgname ("spanscope-cli");

  if (argc < 2)
    {
      print_usage_error (NULL, "missing COMMAND");
      return EXIT_USAGE;
    }

  command = argv[1];

  if (g_str_equal (command, "--version") || g_str_equal (command, "-V"))
    {
      printf ("spanscope-cli %s\n", PACKAGE_VERSION);
      return EXIT_OK;
    }

  if (g_str_equal (command, "--help") || g_str_equal (command, "-h") ||
      g_str_equal (command, "help"))
    {
      fputs (usage_text, stdout);
      return EXIT_OK;
    }

  if (g_str_equal (command, "info"))
    return cmd_info (argc - 1, argv + 1);

  if (g_str_equal (command, "convert"))
    return cmd_convert (argc - 1, argv + 1);

  print_usage_error (NULL, "unknown command “%s”", command);
  return EXIT_USAGE;
}
