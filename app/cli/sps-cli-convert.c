/* sps-cli-convert.c: `spanscope-cli convert`, a trace in another format
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#define G_LOG_DOMAIN "spanscope-cli"

#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "sps-cli.h"

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
    /* Translators: the list of formats that can be written, when it is empty */
    g_string_append (names, C_("formats", "none"));

  return g_string_free (g_steal_pointer (&names), FALSE);
}

/* Progress on stderr, only on a terminal: a pipe or a log gets the
 * results, not a stream of carriage returns. */
typedef struct
{
  gboolean  done;
  GTask    *result;
  int       last_percent;
} Conversion;

static void
progress_changed_cb (SpsProgress *progress,
                     Conversion  *conversion)
{
  g_autofree char *message = sps_progress_dup_message (progress);
  int percent = (int) (sps_progress_get_fraction (progress) * 100.0);

  if (percent == conversion->last_percent)
    return;
  conversion->last_percent = percent;
  fprintf (stderr, "\r\033[K%s %3d%%", message != NULL ? message : "", percent);
  fflush (stderr);
}

static void
load_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Conversion *conversion = user_data;

  conversion->result = g_object_ref (G_TASK (result));
  conversion->done = TRUE;
}

static SpsTrace *
load_with_progress (GFile     *file,
                    GVariant  *options,
                    GError   **error)
{
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(SpsProgress) progress = NULL;
  Conversion conversion = { FALSE, NULL, -1 };
  SpsTrace *trace;
  gboolean tty = isatty (fileno (stderr));

  g_main_context_push_thread_default (context);
  progress = sps_progress_new (NULL);
  if (tty)
    g_signal_connect (progress, "changed", G_CALLBACK (progress_changed_cb), &conversion);

  sps_trace_load_async (file, sps_plugin_engine_get_default (), options, SPS_LOAD_FLAGS_NONE,
                        progress, NULL, load_cb, &conversion);
  while (!conversion.done)
    g_main_context_iteration (context, TRUE);

  trace = sps_trace_load_finish (G_ASYNC_RESULT (conversion.result), error);
  g_clear_object (&conversion.result);
  if (tty)
    {
      g_signal_handlers_disconnect_by_data (progress, &conversion);
      fputs ("\r\033[K", stderr);
    }
  g_main_context_pop_thread_default (context);

  return trace;
}

/* FILE.nettrace → FILE.chromium.json, like dotnet-trace */
static char *
default_output (const char *input,
                const char *suffix)
{
  g_autofree char *dir = g_path_get_dirname (input);
  g_autofree char *base = g_path_get_basename (input);
  g_autofree char *name = NULL;
  char *dot = strrchr (base, '.');

  if (dot != NULL && dot != base)
    *dot = '\0';
  name = g_strconcat (base, suffix, NULL);

  return g_str_equal (dir, ".") ? g_steal_pointer (&name) : g_build_filename (dir, name, NULL);
}

int
sps_cli_convert (char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(SpsExporter) exporter = NULL;
  g_autoptr(SpsTrace) trace = NULL;
  g_autoptr(GFile) input_file = NULL;
  g_autoptr(GFile) output_file = NULL;
  FILE *messages;
  g_autoptr(GVariant) load_options = NULL;
  g_autoptr(GVariant) write_options = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *format = NULL;
  g_autofree char *output = NULL;
  g_autofree char *first_span = NULL;
  g_autofree char *span_filter = NULL;
  g_auto(GStrv) args = NULL;
  SpsPluginEngine *engine;
  GVariantDict dict;
  SpsCliTimeUnit time_unit = { { FALSE } };
  const char *unit;
  gboolean keep_unrecoverable = FALSE;
  gboolean no_repair = FALSE;
  gboolean repaired;
  const GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format,
      N_("The format to write (required), e.g. chrome-json, chromium, speedscope, folded"), N_("FORMAT") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("The file to write; replaced only once complete (default: FILE with the format’s suffix "
         "instead of its extension)"), N_("OUT") },
    { "first-span", 0, 0, G_OPTION_ARG_STRING, &first_span,
      N_("Drop the frames of every stack from the root up to the first one matching PATTERN "
         "(wildcards * and ?, any case, name without module!); stacks without a match are dropped"),
      N_("PATTERN") },
    { "span-filter", 0, 0, G_OPTION_ARG_STRING, &span_filter,
      N_("Keep only the frames matching PATTERN"), N_("PATTERN") },
    { "keep-unrecoverable", 0, 0, G_OPTION_ARG_NONE, &keep_unrecoverable,
      N_("Keep samples whose stack was cut at 100 frames and cannot be repaired, instead of deleting them"),
      NULL },
    { "no-repair", 0, 0, G_OPTION_ARG_NONE, &no_repair,
      N_("Do not repair stacks cut at 100 frames (.nettrace)"), NULL },
    { NULL }
  };

  context = sps_cli_new_file_command ("convert", N_("Write a trace in another format."), entries);

  sps_cli_add_time_unit_options (context, &time_unit);

  if (!(args = sps_cli_parse_file_command (context, argv)) ||
      !sps_cli_get_time_unit (context, &time_unit, &unit))
    return SPS_CLI_EXIT_USAGE;

  if (format == NULL)
    {
      /* Translators: FORMAT as in the help of the command */
      sps_cli_print_usage_error (context, "%s", _("missing --format FORMAT"));
      return SPS_CLI_EXIT_USAGE;
    }

  engine = sps_plugin_engine_get_default ();

  /* dotnet-trace spells its formats Chromium and Speedscope */
  if (!(exporter = sps_plugin_engine_create_exporter (engine, format)))
    {
      g_autofree char *lower = g_ascii_strdown (format, -1);

      exporter = sps_plugin_engine_create_exporter (engine, lower);
    }

  if (exporter == NULL)
    {
      g_autofree char *names = list_exporter_names (engine);

      /* Translators: a format name, then a list of them */
      sps_cli_print_usage_error (context, _("unknown format “%s” (available: %s)"), format, names);
      sps_cli_print_plugin_notes (engine);
      return SPS_CLI_EXIT_USAGE;
    }

  if (output == NULL)
    {
      const char *suffix = sps_exporter_get_suffix (exporter);

      if (suffix == NULL)
        {
          /* Translators: OUT as in the help of the command */
          sps_cli_print_usage_error (context, "%s", _("missing -o OUT"));
          return SPS_CLI_EXIT_USAGE;
        }
      output = default_output (args[1], suffix);
    }

  if ((first_span != NULL && first_span[0] == '\0') || (span_filter != NULL && span_filter[0] == '\0'))
    {
      sps_cli_print_usage_error (context, "%s", _("a pattern must not be empty"));
      return SPS_CLI_EXIT_USAGE;
    }

  g_variant_dict_init (&dict, NULL);
  if (unit != NULL)
    g_variant_dict_insert (&dict, "timestamp-unit", "s", unit);
  if (first_span != NULL)
    g_variant_dict_insert (&dict, "first-span", "s", first_span);
  if (span_filter != NULL)
    g_variant_dict_insert (&dict, "span-filter", "s", span_filter);
  g_variant_dict_insert (&dict, "keep-unrecoverable", "b", keep_unrecoverable);
  g_variant_dict_insert (&dict, "repair", "b", !no_repair);
  /* A conversion writes the repaired stacks only: the raw copy of a cut
   * stack (a chain of 100 new callsites) is the most expensive thing to
   * build, and nothing here would read it */
  g_variant_dict_insert (&dict, "keep-raw", "b", FALSE);
  load_options = g_variant_ref_sink (g_variant_dict_end (&dict));

  input_file = g_file_new_for_commandline_arg (args[1]);
  if (!(trace = load_with_progress (input_file, load_options, &error)))
    return sps_cli_report_load_error (error);

  output_file = g_file_new_for_commandline_arg (output);
  /* With -o -, standard output is the converted file */
  messages = g_strcmp0 (output, "-") == 0 ? stderr : stdout;

  /* Sample streams that went through the stack repair get the messages
   * of `dotnet-trace convert`; other conversions stay silent. */
  repaired = sps_stack_repair_get_summary (trace, NULL, NULL, NULL, NULL);
  if (repaired)
    {
      g_autofree char *in_path = g_file_get_path (input_file);
      g_autofree char *out_path = g_file_get_path (output_file);
      g_autofree char *report = sps_stack_repair_format_report (trace);

      /* Translators: the input file, a format name, the output file */
      fprintf (messages, _("Processing trace data file '%s' to create a new %s file '%s'."),
               in_path != NULL ? in_path : args[1], format, out_path != NULL ? out_path : output);
      fputc ('\n', messages);
      if (report != NULL)
        fputs (report, messages);
      fflush (messages);
    }

  /* Flame formats (speedscope, folded) write the samples' stacks */
  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert (&dict, "tree", "s", "samples");
  write_options = g_variant_ref_sink (g_variant_dict_end (&dict));

  if (!sps_cli_write_file (exporter, trace, write_options, output, &error))
    {
      fprintf (stderr, "%s: %s\n", g_get_prgname (), error->message);
      return SPS_CLI_EXIT_BAD_INPUT;
    }

  if (repaired)
    {
      fprintf (messages, "%s\n", _("Conversion complete"));
      fflush (messages);
    }

  return SPS_CLI_EXIT_OK;
}
